/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Simulator model of an AMD CPU's PMU around VMRUN / \#VMEXIT, for
 *        PMC-virtualization tests.
 *
 * Written independently of libvirq's pmcvirt module, with its own literal
 * VMCB offsets (AMD APM Vol 2 Appendix B, Tables B-1 and B-2) and MSR
 * numbers:
 * - hardware-switched mode (VMCB offset 0x0B8 bit 3 set): VMRUN fails with
 *   VMEXIT_INVALID_PMC (EXITCODE 0xFFFF_FFFF_FFFF_FFFC) when the host's
 *   PerfCntrGlobalCtl (C000_0301h) is not zero; otherwise it loads the
 *   guest PMU from the VMCB, counts, and at \#VMEXIT saves it back and
 *   resets the host's PERF_CTL/CTR to 0 and GlobalCtl to 0x3F (swap type
 *   C); GlobalStatus is swapped (type A);
 * - software-switched mode (bit 3 clear): the guest counts in the real
 *   MSRs (GuestOnly or neither Host/Guest bit; PerfMonV2 GlobalCtl
 *   gating) and can write passed-through MSRs (virq_sim_pmc_guest_wrmsr());
 * - PerfCntrGlobalStatusClr / Set (C000_0302h / C000_0303h) act on
 *   PerfCntrGlobalStatus (C000_0300h).
 *
 * CPU profiles to pair with it: libvirq/sim/cpu.h.
 *
 * Thread-safety: for one thread.
 */
#ifndef LIBVIRQ_SIM_PMC_H
#define LIBVIRQ_SIM_PMC_H

#include <libvirq/sim/hal.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_pmc PMU model
 * @ingroup virq_sim
 * @{
 */

/**
 * @brief What a host PMU MSR does with a write of bits the CPU does not
 *        define: PerfEvtSel bits 63:42, 39:36, 21 and 19 are reserved, MBZ
 *        (APM Vol 2 §13.2.1), counters are 48 bits wide (bits 63:48).
 */
enum virq_sim_pmc_rsvd {
	LIBVIRQ_SIM_PMC_RSVD_KEEP = 0, /**< Stored as written (the MSR file; the default). */
	LIBVIRQ_SIM_PMC_RSVD_IGNORE,   /**< The bits read 0 afterwards (RAZ/WI). */
	LIBVIRQ_SIM_PMC_RSVD_GP,       /**< The write raises \#GP (the MSR keeps its value). */
};

/** @brief The host PMU's latitude (virq_sim_pmc_set_latitude(); zero: the MSR file as is). */
struct virq_sim_pmc_lat {
	/**
	 * The MSRs the CPU does not have raise \#GP on any access:
	 * PerfCntrGlobalStatus/Ctl/StatusClr/StatusSet (C000_0300h .. 0303h)
	 * without PerfMonV2 (CPUID Fn8000_0022 EAX[0]), PERF_CTL/CTR
	 * C001_0200h .. 020Bh without PerfCtrExtCore (Fn8000_0001 ECX[23]),
	 * and the counters from @c nctr on.
	 */
	bool gp_absent;
	enum virq_sim_pmc_rsvd ctl_rsvd; /**< A PERF_CTL write with reserved bits set. */
	enum virq_sim_pmc_rsvd ctr_rsvd; /**< A PERF_CTR write with bits 63:48 set. */
};

/** @brief The PMU model (caller storage; virq_sim_pmc_init()). */
struct virq_sim_pmc {
	struct virq_sim *sim; /**< The simulator. */
	uint8_t *vmcb;	      /**< The VMCB given to VMRUN. */
	bool ext_core;	      /**< Host counters at C001_020xh (PerfCtrExtCore), else K7 MSRs. */
	bool v2;	      /**< Host PerfMonV2 (global control and status). */
	uint32_t nctr;	      /**< Host counters. */
	uint64_t events[6];   /**< Events each counter sees during one guest run. */
	uint64_t exit_code;   /**< EXITCODE of a successful run's \#VMEXIT. */
	uint32_t gw_msr[4];   /**< Guest WRMSRs to passed-through MSRs during the next run: MSRs. */
	uint64_t gw_val[4];   /**< ... and values. */
	unsigned gw_n;	      /**< Entries of @c gw_msr / @c gw_val used. */
	unsigned vmruns;      /**< VMRUN attempts. */
	unsigned failed;      /**< VMRUNs that failed with VMEXIT_INVALID_PMC. */
	struct virq_sim_pmc_lat lat; /**< The latitude in force (virq_sim_pmc_set_latitude()). */
	unsigned long gps;	     /**< \#GPs the latitude raised. */
	uint32_t last_gp_msr;	     /**< The MSR of the last one. */
};

/**
 * @brief Makes the host PMU's MSRs behave as @p lat says from now on
 *        (hooks on every PMU MSR the model knows; after virq_sim_pmc_init()).
 * @param m The model. @param lat The latitude.
 */
void virq_sim_pmc_set_latitude(struct virq_sim_pmc *m, const struct virq_sim_pmc_lat *lat);

/**
 * @brief Sets the model up and installs its GlobalStatusClr/Set MSR hooks.
 * @param m The model (must outlive the simulator's use).
 * @param sim The simulator. @param vmcb The VMCB (4 KiB).
 * @param nctr Host counters (4 or 6). @param ext_core Host PerfCtrExtCore.
 * @param v2 Host PerfMonV2.
 */
void virq_sim_pmc_init(struct virq_sim_pmc *m, struct virq_sim *sim, uint8_t *vmcb, uint32_t nctr,
		       bool ext_core, bool v2);
/**
 * @brief Queues a guest WRMSR (at most 4) performed during the next virq_sim_pmc_vmrun().
 * @param m The model. @param msr MSR index. @param val Value.
 */
void virq_sim_pmc_guest_wrmsr(struct virq_sim_pmc *m, uint32_t msr, uint64_t val);
/**
 * @brief VMRUN … \#VMEXIT.
 * @param m The model.
 * @return The 64-bit EXITCODE (also stored in the VMCB).
 */
uint64_t virq_sim_pmc_vmrun(struct virq_sim_pmc *m);

/**
 * @brief The host runs (outside VMRUN, EFER.SVME = 1).
 *
 * Every counter enabled in the MSRs whose event select counts in host mode
 * (HostOnly, or neither H/G bit; PerfMonV2 GlobalCtl gating) counts
 * @c events[i]. A GuestOnly select does not count here (APM Vol 2 §13.2,
 * PerfEvtSel HostOnly/GuestOnly).
 * @param m The model.
 */
void virq_sim_pmc_host_run(struct virq_sim_pmc *m);

/**
 * @brief The model's own little-endian VMCB read.
 * @param vmcb The VMCB. @param off Byte offset. @return The 64-bit value.
 */
uint64_t virq_sim_pmc_vmcb_rd(const uint8_t *vmcb, unsigned off);
/**
 * @brief The model's own little-endian VMCB write.
 * @param vmcb The VMCB. @param off Byte offset. @param v The 64-bit value.
 */
void virq_sim_pmc_vmcb_wr(uint8_t *vmcb, unsigned off, uint64_t v);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_PMC_H */
