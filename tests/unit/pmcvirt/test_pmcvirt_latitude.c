/* SPDX-License-Identifier: MIT */
/*
 * Where the APM lets the host PMU differ (libvirq/sim/pmc.h
 * virq_sim_pmc_lat): MSRs a CPU does not have raise #GP (PerfMonV2's global
 * registers, the PerfCtrExtCore range, counters beyond NumPerfCtrCore), and
 * reserved PerfEvtSel / counter bits may raise #GP (MBZ) or read 0. On every
 * CPU profile, in every mode it offers, the library's world switches touch
 * only what CPUID says exists and never write a reserved bit, whatever the
 * guest writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/pmc.h>

#define EN (1ull << 22)
#define USR (1ull << 16)
#define OS (1ull << 17)
/* PerfEvtSel bits 63:42, 39:36, 21, 19: reserved, MBZ (APM Vol 2 §13.2.1). */
#define CTL_RSVD (~((1ull << 42) - 1) | (0xFull << 36) | (1ull << 21) | (1ull << 19))

static uint32_t gctl_(const struct virq_pmcvirt_caps *c, unsigned i)
{
	return c->perfctr_ext_core ? 0xC0010200u + 2 * i : 0xC0010000u + i;
}

static uint32_t gctr_(const struct virq_pmcvirt_caps *c, unsigned i)
{
	return c->perfctr_ext_core ? 0xC0010201u + 2 * i : 0xC0010004u + i;
}

/* One CPU, one mode: the host PMU in use, a guest programming counter 0
 * with every reserved bit set and its counter with bits 63:48 set, five
 * world switches; no #GP, and the guest counted. */
static void run_cpu_mode_(const struct virq_sim_cpu *cpu, enum virq_pmcvirt_mode mode,
			  enum virq_sim_pmc_rsvd how)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	uint8_t *vmcb = aligned_alloc(4096, 4096);
	struct virq_sim_pmc_lat lat = {.gp_absent = true, .ctl_rsvd = how, .ctr_rsvd = how};
	struct virq_sim_pmc m;
	struct virq_pmcvirt_caps c;
	struct virq_pmcvirt_guest g;
	struct virq_pmcvirt_vcpu v;
	uint64_t ctr = 0, sel = 0x76ull | USR | OS | EN;
	virq_status st;

	assert_non_null(vmcb);
	memset(vmcb, 0, 4096);
	virq_sim_cpu_apply(sim, cpu);
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	g = c.perfctr_ext_core ? virq_sim_guest_pmc6 : virq_sim_guest_pmc4;
	if (!c.perfmon_v2)
		g.perfmon_v2 = false;
	virq_sim_pmc_init(&m, sim, vmcb, c.num_core_ctrs, c.perfctr_ext_core, c.perfmon_v2);
	virq_sim_pmc_set_latitude(&m, &lat);
	for (unsigned i = 0; i < c.num_core_ctrs; i++) /* the host's own counting */
		virq_sim_msr_set(sim, gctl_(&c, i), 0x76ull | OS | (i ? EN : 0));
	m.events[0] = 100;
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, mode, 0, vmcb), LIBVIRQ_OK);
	/* The guest sets every reserved bit: refused (a #GP for the guest, and
	 * it writes the plain value then) or masked; never reaching the MSRs. */
	st = virq_pmcvirt_msr_write(&v, gctl_(&c, 0), LIBVIRQ_PMCVIRT_GUEST, sel | CTL_RSVD);
	if (st == LIBVIRQ_EINVAL)
		st = virq_pmcvirt_msr_write(&v, gctl_(&c, 0), LIBVIRQ_PMCVIRT_GUEST, sel);
	assert_int_equal(st, LIBVIRQ_OK);
	st = virq_pmcvirt_msr_write(&v, gctr_(&c, 0), LIBVIRQ_PMCVIRT_GUEST, 1ull << 63);
	if (st == LIBVIRQ_EINVAL)
		st = virq_pmcvirt_msr_write(&v, gctr_(&c, 0), LIBVIRQ_PMCVIRT_GUEST, 0);
	assert_int_equal(st, LIBVIRQ_OK);
	if (g.perfmon_v2)
		assert_int_equal(virq_pmcvirt_msr_write(&v, 0xC0000301u, LIBVIRQ_PMCVIRT_GUEST, 1),
				 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_host_save(&v), LIBVIRQ_OK);
	for (int k = 0; k < 5; k++) {
		assert_int_equal(virq_pmcvirt_enter(&v), LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_exit(&v, virq_sim_pmc_vmrun(&m)), LIBVIRQ_OK);
	}
	assert_int_equal(virq_pmcvirt_host_restore(&v), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_msr_read(&v, gctr_(&c, 0), LIBVIRQ_PMCVIRT_GUEST, &ctr),
			 LIBVIRQ_OK);
	if (m.gps)
		fail_msg("%s mode %d: #GP on MSR 0x%x", cpu->name, (int)mode, m.last_gp_msr);
	assert_int_equal(ctr, 500);
	assert_int_equal(virq_pmcvirt_vcpu_destroy(&v), LIBVIRQ_OK);
	virq_sim_free(sim);
	free(vmcb);
}

static void every_cpu_(enum virq_sim_pmc_rsvd how)
{
	for (unsigned id = 0; id < LIBVIRQ_SIM_CPU_COUNT; id++) {
		const struct virq_sim_cpu *cpu = &virq_sim_cpus[id];

		if (!cpu->svm)
			continue;
		run_cpu_mode_(cpu, LIBVIRQ_PMCVIRT_MODE_SW, how);
		if (virq_pmcvirt_mode_check(&cpu->pmcvirt_caps, &virq_sim_guest_pmc6,
					    LIBVIRQ_PMCVIRT_MODE_HW, 0) == LIBVIRQ_OK)
			run_cpu_mode_(cpu, LIBVIRQ_PMCVIRT_MODE_HW, how);
	}
}

static void test_absent_msrs_and_reserved_bits_gp(void **state)
{
	(void)state;
	every_cpu_(LIBVIRQ_SIM_PMC_RSVD_GP);
}

static void test_reserved_bits_raz_wi(void **state)
{
	(void)state;
	every_cpu_(LIBVIRQ_SIM_PMC_RSVD_IGNORE);
}

/* The model itself: each behaviour does what it says. */
static void test_model_behaviours(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_sim_pmc m;
	struct virq_sim_pmc_lat lat = {.gp_absent = true,
				       .ctl_rsvd = LIBVIRQ_SIM_PMC_RSVD_GP,
				       .ctr_rsvd = LIBVIRQ_SIM_PMC_RSVD_IGNORE};
	uint64_t v;

	(void)state;
	virq_sim_pmc_init(&m, sim, NULL, 4, false, false); /* family 10h-like */
	virq_sim_pmc_set_latitude(&m, &lat);
	assert_int_equal(hal.ops->msr_read(hal.ctx, 0xC0000301u, &v), LIBVIRQ_EHW);
	assert_int_equal(hal.ops->msr_write(hal.ctx, 0xC0010200u, 0), LIBVIRQ_EHW);
	assert_int_equal(hal.ops->msr_write(hal.ctx, 0xC0010000u, 1ull << 45), LIBVIRQ_EHW);
	assert_int_equal(hal.ops->msr_write(hal.ctx, 0xC0010000u, EN | 0x76), LIBVIRQ_OK);
	assert_int_equal(hal.ops->msr_write(hal.ctx, 0xC0010004u, ~0ull), LIBVIRQ_OK);
	assert_int_equal(hal.ops->msr_read(hal.ctx, 0xC0010004u, &v), LIBVIRQ_OK);
	assert_int_equal(v, 0xFFFFFFFFFFFFull);
	assert_int_equal(m.gps, 3);
	assert_int_equal(m.last_gp_msr, 0xC0010000u);
	virq_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_model_behaviours),
	    cmocka_unit_test(test_absent_msrs_and_reserved_bits_gp),
	    cmocka_unit_test(test_reserved_bits_raz_wi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
