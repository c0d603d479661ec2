/* SPDX-License-Identifier: MIT */
/*
 * virq_sim_pmc: an AMD CPU's PMU and VMRUN/#VMEXIT for PMC-virtualization tests.
 *
 * Written from APM Vol 2 §15.39 and Appendix B (and the pmc-* entries of
 * docs/rationale.md) independently of src/pmcvirt: it uses its own literal
 * offsets (APM Table B-1/B-2) and MSR numbers.
 *
 * - HW mode (VMCB 0x0B8 bit 3 set): VMRUN fails with VMEXIT_INVALID_PMC
 *   (EXITCODE 0xFFFFFFFF_FFFFFFFC) when host MSR C000_0301 is not zero;
 *   otherwise loads the guest PMU from the VMCB, counts, and at #VMEXIT
 *   saves it back and resets the host's PERF_CTL/CTR to 0 and GlobalCtl to
 *   0x3F (swap type C); GlobalStatus is swapped (type A).
 * - SW mode (bit 3 clear): the guest counts in the real MSRs (GuestOnly or
 *   neither H/G bit; PerfMonV2 GlobalCtl gating) and can write passed-through
 *   MSRs through virq_sim_pmc_guest_wrmsr().
 * - STATUS_CLR/SET (C000_0302/0303) act on C000_0300.
 */
#ifndef LIBVIRQ_SIM_PMC_H
#define LIBVIRQ_SIM_PMC_H

#include <libvirq/sim/hal.h>

struct virq_sim_pmc {
	struct virq_sim *fh;
	uint8_t *vmcb;         /* the VMCB given to VMRUN */
	bool ext_core;         /* host MSRs at C001_020x (else K7) */
	bool v2;               /* host PerfMonV2 */
	uint32_t nctr;         /* host counters */
	uint64_t events[6];    /* events each counter sees during one guest run */
	uint64_t exit_code;    /* code of a successful run's #VMEXIT */
	/* Guest WRMSRs to passed-through MSRs performed during the next run. */
	uint32_t gw_msr[4];
	uint64_t gw_val[4];
	unsigned gw_n;
	unsigned vmruns;       /* VMRUN attempts */
	unsigned failed;       /* VMRUNs that failed with INVALID_PMC */
};

/* Installs STATUS_CLR/SET hooks; the model must outlive the fake HAL use. */
void virq_sim_pmc_init(struct virq_sim_pmc *m, struct virq_sim *fh, uint8_t *vmcb, uint32_t nctr,
		    bool ext_core, bool v2);
/* A guest WRMSR performed during the next virq_sim_pmc_vmrun() (passthrough). */
void virq_sim_pmc_guest_wrmsr(struct virq_sim_pmc *m, uint32_t msr, uint64_t val);
/* VMRUN ... #VMEXIT; returns the 64-bit EXITCODE (also stored in the VMCB). */
uint64_t virq_sim_pmc_vmrun(struct virq_sim_pmc *m);

/*
 * The host runs (outside VMRUN, EFER.SVME = 1): every counter enabled in the
 * MSRs whose event select counts in host mode (HostOnly, or neither H/G bit;
 * PerfMonV2 GlobalCtl gating) counts @c events[i]. A GuestOnly select does
 * not count here (APM Vol 2 §13.2, PerfEvtSel HostOnly/GuestOnly).
 */
void virq_sim_pmc_host_run(struct virq_sim_pmc *m);

/* Model's own raw VMCB accessors (little-endian). */
uint64_t virq_sim_pmc_vmcb_rd(const uint8_t *vmcb, unsigned off);
void virq_sim_pmc_vmcb_wr(uint8_t *vmcb, unsigned off, uint64_t v);

#endif
