/* SPDX-License-Identifier: MIT */
/*
 * Example: a PMC world switch, on the simulator (docs/sim.md).
 *
 * With hardware PMC virtualization (PerfCtrVirt, AMD APM Vol 2 §15.39) the
 * guest's counters live in the VMCB: VMRUN loads them, #VMEXIT saves them,
 * and the host's PerfCntrGlobalCtl must be 0 at VMRUN, or VMRUN fails with
 * VMEXIT_INVALID_PMC (#VMEXIT resets it to all-enabled). The library keeps
 * each switch to one MSR write. Steps:
 *   1. a Zen 5 CPU profile (libvirq/sim/cpu.h); the library probes the PMU;
 *   2. the PMU model (libvirq/sim/pmc.h) with the host's perf using all six
 *      counters (GlobalCtl = 0x3F);
 *   3. a six-counter guest in hardware-switched mode: it programs counter 0
 *      to count retired instructions;
 *   4. the host PMU is saved once, then ten world switches run the guest,
 *      which retires 1000 instructions per run: RDPMC reads 10000, with one
 *      MSR write per switch;
 *   5. what the library prevents: a VMRUN with the host's GlobalCtl set
 *      fails with VMEXIT_INVALID_PMC, and the library reports it;
 *   6. the host PMU is restored (GlobalCtl 0x3F again).
 * Exit status 0 when each step behaves as the APM says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/pmc.h>

#define CHECK(call)                                                                                \
	do {                                                                                       \
		virq_status st_ = (call);                                                          \
		if (st_ != LIBVIRQ_OK) {                                                           \
			fprintf(stderr, "pmc_switch: %s: %s\n", #call, virq_strerror(st_));        \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "pmc_switch: expected %s\n", #cond);                       \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

/* AMD APM Vol 2 §13.2: PerfEvtSel / PerfCtr pairs from C001_0200h, and the
 * PerfMonV2 global registers. */
#define PERF_CTL(i) (0xC0010200u + 2 * (i))
#define PERF_CTR(i) (0xC0010201u + 2 * (i))
#define GLOBAL_CTL 0xC0000301u
#define EVT_RETIRED_INSTR 0xC0u
#define EN (1ull << 22)
#define USR (1ull << 16)
#define OS (1ull << 17)

static uint8_t vmcb_[4096] __attribute__((aligned(4096)));

int main(void)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_pmcvirt_caps caps;
	struct virq_sim_pmc pmu;
	struct virq_pmcvirt_vcpu vcpu;
	unsigned long writes;
	uint64_t v, code;

	/* 1. The CPU. */
	virq_sim_cpu_apply(sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5]);
	CHECK(virq_pmcvirt_probe(&hal, &caps));
	EXPECT(caps.perfctr_virt && caps.perfmon_v2 && caps.num_core_ctrs == 6);
	printf("PMU: %u core counters, PerfCtrVirt, PerfMonV2\n", (unsigned)caps.num_core_ctrs);

	/* 2. The PMU model; the host's perf counts on all six counters. */
	virq_sim_pmc_init(&pmu, sim, vmcb_, caps.num_core_ctrs, caps.perfctr_ext_core,
			  caps.perfmon_v2);
	for (unsigned i = 0; i < 6; i++)
		virq_sim_msr_set(sim, PERF_CTL(i), EN | USR | OS | 0x76u);
	virq_sim_msr_set(sim, GLOBAL_CTL, 0x3F);

	/* 3. A six-counter guest, hardware-switched; counter 0 counts retired
	 * instructions (the guest's WRMSR, intercepted and emulated). */
	CHECK(virq_pmcvirt_vcpu_init(&vcpu, &hal, &caps, &virq_sim_guest_pmc6,
				     LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb_));
	CHECK(virq_pmcvirt_msr_write(&vcpu, PERF_CTL(0), LIBVIRQ_PMCVIRT_GUEST,
				     EN | USR | OS | EVT_RETIRED_INSTR));
	CHECK(virq_pmcvirt_msr_write(&vcpu, GLOBAL_CTL, LIBVIRQ_PMCVIRT_GUEST, 0x1));

	/* 4. Ten world switches. */
	CHECK(virq_pmcvirt_host_save(&vcpu));
	pmu.events[0] = 1000; /* instructions the guest retires per run */
	virq_sim_reset_counters(sim);
	for (int i = 0; i < 10; i++) {
		CHECK(virq_pmcvirt_enter(&vcpu));
		code = virq_sim_pmc_vmrun(&pmu);
		CHECK(virq_pmcvirt_exit(&vcpu, code));
	}
	writes = virq_sim_count(sim, LIBVIRQ_SIM_MSR_W);
	CHECK(virq_pmcvirt_rdpmc(&vcpu, 0, &v));
	EXPECT(v == 10000 && pmu.failed == 0);
	EXPECT(writes <= 10 && virq_sim_count(sim, LIBVIRQ_SIM_MSR_R) == 0);
	printf("10 world switches: guest counter 0 = %llu, %lu MSR writes, 0 MSR reads\n",
	       (unsigned long long)v, writes);

	/* 5. VMRUN with the host's GlobalCtl set (what enter prevents). */
	CHECK(virq_pmcvirt_enter(&vcpu));
	virq_sim_msr_set(sim, GLOBAL_CTL, 0x3F); /* say, host perf re-enabled it */
	code = virq_sim_pmc_vmrun(&pmu);
	EXPECT(code == 0xFFFFFFFFFFFFFFFCull && pmu.failed == 1);
	EXPECT(virq_pmcvirt_exit(&vcpu, code) == LIBVIRQ_EHW);
	printf("VMRUN with host GlobalCtl 0x3F: EXITCODE 0x%llx (VMEXIT_INVALID_PMC), reported\n",
	       (unsigned long long)code);

	/* 6. Back to the host. */
	CHECK(virq_pmcvirt_host_restore(&vcpu));
	EXPECT(virq_sim_msr_get(sim, GLOBAL_CTL) == 0x3F);
	printf("host PMU restored: GlobalCtl 0x%llx\n",
	       (unsigned long long)virq_sim_msr_get(sim, GLOBAL_CTL));
	virq_sim_free(sim);
	printf("pmc_switch: ok\n");
	return 0;
}
