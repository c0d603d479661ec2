/* SPDX-License-Identifier: MIT */
/*
 * pmcvirt driver: init/refusal, world switch in both modes against the PMC
 * model's fake VMRUN, exact MSR access counts, intercepted MSR/RDPMC
 * emulation, filtering, emulated events, migration, faults, nested (rules:
 * docs/rationale.md, the pmc-* entries).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/pmcvirt.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/pmc.h>
#include <libvirq/sim/cpu.h>

/* CPU profiles of the simulator (libvirq/sim/cpu.h). */
#define ZEN5_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5].pmcvirt_caps)
#define ZEN4_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4].pmcvirt_caps)
#define FAM10H_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_FAM10H].pmcvirt_caps)

#define EN (1ull << 22)
#define OS (1ull << 17)
#define USR (1ull << 16)
#define INTB (1ull << 20)
#define GO (1ull << 40)
#define HO (1ull << 41)
#define GCTL 0xC0000301u
#define GSTS 0xC0000300u

struct env {
	struct virq_sim *sim;
	struct virq_hal hal;
	uint8_t *vmcb;
	struct virq_sim_pmc m;
	struct virq_pmcvirt_vcpu v;
};

/* Ends a vCPU if it is live (init refuses a live one with LIBVIRQ_EBUSY). */
static void forget_(struct virq_pmcvirt_vcpu *v)
{
	virq_status st = virq_pmcvirt_vcpu_destroy(v);

	(void)st;
}

static uint32_t hctl_(const struct virq_pmcvirt_caps *c, unsigned i)
{
	return c->perfctr_ext_core ? 0xC0010200u + 2 * i : 0xC0010000u + i;
}

static uint32_t hctr_(const struct virq_pmcvirt_caps *c, unsigned i)
{
	return c->perfctr_ext_core ? 0xC0010201u + 2 * i : 0xC0010004u + i;
}

/* Host PMU in use: distinct values in every counter MSR. */
static void host_pmu_(struct env *e, const struct virq_pmcvirt_caps *c)
{
	for (unsigned i = 0; i < c->num_core_ctrs; i++) {
		virq_sim_msr_set(e->sim, hctl_(c, i), 0x130076ull + (i << 8) + (i == 0 ? 0 : EN));
		virq_sim_msr_set(e->sim, hctr_(c, i), 0x1000ull * (i + 1));
	}
	if (c->perfmon_v2) {
		virq_sim_msr_set(e->sim, GCTL, 0x3E);
		virq_sim_msr_set(e->sim, GSTS, 0x20);
	}
}

static struct env *env_new_(const struct virq_pmcvirt_caps *c, const struct virq_pmcvirt_guest *g,
			    enum virq_pmcvirt_mode mode, uint32_t flags)
{
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->sim = virq_sim_new();
	e->hal = virq_sim_hal(e->sim);
	e->vmcb = aligned_alloc(4096, 4096);
	assert_non_null(e->vmcb);
	memset(e->vmcb, 0, 4096);
	virq_sim_pmc_init(&e->m, e->sim, e->vmcb, c->num_core_ctrs, c->perfctr_ext_core,
			  c->perfmon_v2);
	host_pmu_(e, c);
	assert_int_equal(virq_pmcvirt_vcpu_init(&e->v, &e->hal, c, g, mode, flags, e->vmcb),
			 LIBVIRQ_OK);
	return e;
}

static void env_free_(struct env *e)
{
	virq_sim_free(e->sim);
	free(e->vmcb);
	free(e);
}

/* One world switch: enter, the model's VMRUN, exit. */
static void run_(struct env *e)
{
	uint64_t code;

	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	code = virq_sim_pmc_vmrun(&e->m);
	assert_int_equal(virq_pmcvirt_exit(&e->v, code), LIBVIRQ_OK);
}

static void gwr_(struct env *e, uint32_t msr, uint64_t v)
{
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, msr, LIBVIRQ_PMCVIRT_GUEST, v), LIBVIRQ_OK);
}

static uint64_t grd_(struct env *e, uint32_t msr)
{
	uint64_t v = 0xDEAD;

	assert_int_equal(virq_pmcvirt_msr_read(&e->v, msr, LIBVIRQ_PMCVIRT_GUEST, &v), LIBVIRQ_OK);
	return v;
}

/* ---- init, refusal (docs/rationale.md#pmc-vnmi-required) ---- */
static void test_init_hw(void **s)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	static uint8_t vmcb[4096] __attribute__((aligned(4096)));
	static uint8_t copy[4096];
	struct virq_pmcvirt_vcpu v;
	struct virq_pmcvirt_caps c = *ZEN5_CAPS;
	struct virq_pmcvirt_guest g = virq_sim_guest_pmc6;

	(void)s;
	memset(vmcb, 0xEE, sizeof(vmcb));
	virq_sim_pmc_vmcb_wr(vmcb, 0xB8, 0x1);
	virq_sim_pmc_vmcb_wr(vmcb, 0x60, 0x01000000);
	memcpy(copy, vmcb, sizeof(vmcb));
	/* Neither VNMI nor AVIC: refused, VMCB untouched. */
	c.vnmi = c.avic = false;
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb),
			 LIBVIRQ_ENOTSUP);
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW,
						LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY, vmcb),
			 LIBVIRQ_ENOTSUP);
	/* AVIC only: refused unless the RFC rule is asked for. */
	c.avic = true;
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb),
			 LIBVIRQ_ENOTSUP);
	g.sev_es = true;
	c.vnmi = true;
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb),
			 LIBVIRQ_EINHIBITED);
	g.sev_es = false;
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, NULL),
			 LIBVIRQ_EINVAL);
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(
	    virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb + 4),
	    LIBVIRQ_EINVAL);
	{
		struct virq_hal_ops ops = *virq_sim_hal_ops();
		struct virq_hal h2 = {&ops, sim};

		ops.msr_write = NULL;
		forget_(&v); /* a live vCPU is not initialised again */
		assert_int_equal(
		    virq_pmcvirt_vcpu_init(&v, &h2, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb),
		    LIBVIRQ_ENOHAL);
	}
	assert_memory_equal(vmcb, copy, sizeof(vmcb));
	c.vnmi = false;
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW,
						LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY, vmcb),
			 LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0xB8) == 0x9);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x60) == 0x01000000); /* no VNMI to enable */
	/* With VNMI: 0x0B8 bit 3 and int_ctl V_NMI_ENABLE; slots reset; no MSR access. */
	c.vnmi = true;
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb),
			 LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0xB8) == 0x9);
	assert_true((uint32_t)virq_sim_pmc_vmcb_rd(vmcb, 0x60) == 0x05000000);
	for (unsigned i = 0; i < 6; i++) {
		assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4E0 + 16 * i) == 0);
		assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4E8 + 16 * i) == 0);
	}
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5C0) == 0 &&
		    virq_sim_pmc_vmcb_rd(vmcb, 0x5C8) == 0);
	/* New PerfMonV2 vCPU: its counters globally enabled (RESET value), dword. */
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5D0) == 0x3F);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5D8) == 0xEEEEEEEEEEEEEEEEull);
	assert_int_equal(virq_sim_msr_total(sim), 0);
	/* The embedder may own int_ctl. */
	virq_sim_pmc_vmcb_wr(vmcb, 0x60, 0x01000000);
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, &c, &g, LIBVIRQ_PMCVIRT_MODE_HW,
						LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP, vmcb),
			 LIBVIRQ_OK);
	assert_true((uint32_t)virq_sim_pmc_vmcb_rd(vmcb, 0x60) == 0x01000000);
	/* SW mode needs no VMCB and works without PerfCtrVirt. */
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, 0, NULL),
			 LIBVIRQ_OK);
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb),
			 LIBVIRQ_ENOTSUP);
	forget_(&v); /* a live vCPU is not initialised again */
	assert_int_equal(virq_pmcvirt_vcpu_init(&v, &hal, FAM10H_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, 0, NULL),
			 LIBVIRQ_ERANGE);
	virq_sim_free(sim);
}

/* ---- HW mode: one MSR write per world switch; host PMU save/restore ---- */
static void test_hw_world_switch(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	uint64_t v;

	(void)s;
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_EINVAL); /* host not saved */
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R),
			 13); /* GlobalCtl + 6 CTL + 6 CTR */
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 1); /* GlobalCtl = 0 */
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_EBUSY);

	gwr_(e, 0xC0010200, 0x4300C0); /* retired instructions, EN, OS, USR */
	gwr_(e, 0xC0010203, 0xFFFFFFFFF000ull);
	gwr_(e, 0xC0010202, 0x5300C2 | INTB);
	gwr_(e, GCTL, 0x3);
	e->m.events[0] = 1000;
	e->m.events[1] = 0x2000;
	virq_sim_reset_counters(e->sim);
	virq_sim_trace(e->sim, true);
	/* First entry: GlobalCtl is known to be 0 already. */
	run_(e);
	assert_int_equal(virq_sim_msr_total(e->sim), 0);
	for (int i = 0; i < 10; i++)
		run_(e);
	assert_int_equal(e->m.failed, 0);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 0);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 10);
	assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_W, GCTL), 10);
	for (size_t i = 0; i < virq_sim_trace_len(e->sim); i++)
		assert_true(virq_sim_trace_at(e->sim, i)->value == 0);
	/* The guest's counts are in the VMCB: RDPMC / RDMSR read them. */
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_OK);
	assert_true(v == 11000);
	assert_true(grd_(e, 0xC0010201) == 11000);
	assert_true(grd_(e, 0xC0010203) == ((0xFFFFFFFFF000ull + 11 * 0x2000) & 0xFFFFFFFFFFFFull));
	assert_true(grd_(e, GSTS) == 0x2); /* counter 1 overflowed in hardware */
	assert_true(grd_(e, GCTL) == 0x3);
	assert_true(grd_(e, 0xC0010202) == (0x5300C2 | INTB));
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 6, &v), LIBVIRQ_EINVAL);

	/* Host restore: everything written (reset values are not trusted). */
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 0);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 14);
	for (unsigned i = 0; i < 6; i++) {
		assert_true(virq_sim_msr_get(e->sim, hctl_(ZEN5_CAPS, i)) ==
			    0x130076ull + (i << 8) + (i == 0 ? 0 : EN));
		assert_true(virq_sim_msr_get(e->sim, hctr_(ZEN5_CAPS, i)) == 0x1000ull * (i + 1));
	}
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3E);
	assert_true(virq_sim_msr_get(e->sim, GSTS) == 0x20); /* type A, untouched */
	/* GlobalCtl was written last. */
	assert_true(virq_sim_trace_at(e->sim, virq_sim_trace_len(e->sim) - 1)->addr == GCTL);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_EINVAL);
	env_free_(e);
}

/* ---- the fake VMRUN fails unless GlobalCtl is zero ---- */
/* docs/rationale.md#pmc-globalctl-before-vmrun */
static void test_hw_invalid_pmc(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	uint64_t code;

	(void)s;
	/* The model itself: VMRUN with the host's GlobalCtl set fails. */
	virq_sim_msr_set(e->sim, GCTL, 0x3F);
	code = virq_sim_pmc_vmrun(&e->m);
	assert_true(code == 0xFFFFFFFFFFFFFFFCull);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x70) == 0xFFFFFFFFFFFFFFFCull);
	assert_int_equal(e->m.failed, 1);
	/* With the hooks every VMRUN succeeds, though each #VMEXIT sets 0x3F again. */
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	for (int i = 0; i < 5; i++) {
		run_(e);
		assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3F);
	}
	assert_int_equal(e->m.failed, 1);
	/* Something re-enables host counters between the hook and VMRUN. */
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	virq_sim_msr_set(e->sim, GCTL, 0x1);
	code = virq_sim_pmc_vmrun(&e->m);
	assert_int_equal(virq_pmcvirt_exit(&e->v, code), LIBVIRQ_EHW);
	assert_true(virq_sim_logged(
	    e->sim, "pmcvirt: VMRUN failed, VMEXIT_INVALID_PMC (exit code, count)"));
	assert_int_equal(e->v.invalid_pmc, 1);
	/* The guest never ran; a retry clears the control again and succeeds. */
	virq_sim_reset_counters(e->sim);
	run_(e);
	assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_W, GCTL), 1);
	assert_int_equal(e->m.failed, 2);
	/* A 32-bit-truncated code is not INVALID_PMC. */
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_exit(&e->v, 0x00000000FFFFFFFCull), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_exit(&e->v, 0x72), LIBVIRQ_EINVAL); /* not entered */
	env_free_(e);
}

/* ---- intercepted MSRs, filter, emulated instructions (HW mode) ---- */
static void test_hw_emulation(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	static const struct virq_pmcvirt_filter_ent ent = {0xC0, 0, 0};
	struct virq_pmcvirt_filter deny = {LIBVIRQ_PMCVIRT_FILTER_DENY, 1, &ent};
	uint32_t pmi = 99;
	uint64_t v;

	(void)s;
	assert_int_equal(virq_pmcvirt_set_filter(&e->v, &deny), LIBVIRQ_OK);
	gwr_(e, 0xC0010200, 0x4300C0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E0) == 0x0300C0); /* EN cleared */
	assert_true(grd_(e, 0xC0010200) == 0x4300C0);		       /* guest view kept */
	assert_true(grd_(e, 0xC0010000) == 0x4300C0);		       /* K7 alias */
	gwr_(e, GCTL, 0x3F);
	e->m.events[0] = 77;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	run_(e);
	assert_true(grd_(e, 0xC0010201) == 0);
	assert_int_equal(virq_pmcvirt_set_filter(&e->v, NULL), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E0) == 0x4300C0);
	run_(e);
	assert_true(grd_(e, 0xC0010201) == 77);

	/* Emulated branch: counter 1 wraps, status bit 1, PMI because INT. */
	gwr_(e, 0xC0010202, 0xC2 | EN | OS | INTB);
	gwr_(e, 0xC0010203, 0xFFFFFFFFFFFFull);
	gwr_(e, 0xC0010204, 0xC2 | EN | USR);		     /* user only: not at CPL 0 */
	gwr_(e, 0xC0010206, 0xC2 | EN | OS | (0x4ull << 8)); /* umask 4 only */
	assert_int_equal(virq_pmcvirt_emulated_event(&e->v, 0xC2, 0x1, true, &pmi), LIBVIRQ_OK);
	assert_int_equal(pmi, 0x2);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4F8) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x508) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x518) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5C8) == 0x2);
	assert_int_equal(virq_pmcvirt_emulated_event(&e->v, 0xC2, 0x4, false, &pmi), LIBVIRQ_OK);
	assert_int_equal(pmi, 0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x508) == 1);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4F8) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x518) == 0); /* OS only */
	/* Globally disabled counter does not count. */
	gwr_(e, GCTL, 0x3D);
	assert_int_equal(virq_pmcvirt_emulated_event(&e->v, 0xC2, 0x1, true, &pmi), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4F8) == 0);
	assert_int_equal(virq_pmcvirt_emulated_event(&e->v, 0x1000, 0, true, NULL), LIBVIRQ_ERANGE);

	/* Status through CLR/SET; status itself read-only to the guest. */
	gwr_(e, 0xC0000303, 0x5);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5C8) == 0x7);
	gwr_(e, 0xC0000302, 0x3);
	assert_true(grd_(e, GSTS) == 0x4);
	assert_true(grd_(e, 0xC0000302) == 0 && grd_(e, 0xC0000303) == 0);
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, GSTS, LIBVIRQ_PMCVIRT_GUEST, 0),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, 0xC0000303, LIBVIRQ_PMCVIRT_GUEST, 0x40),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, GCTL, LIBVIRQ_PMCVIRT_GUEST, 0x40),
			 LIBVIRQ_EINVAL);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5D0) == 0x3D);
	/* Reserved event-select bits: #GP for the guest (incl. HG without SVM). */
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, 0xC0010200, LIBVIRQ_PMCVIRT_GUEST,
						0x4300C0 | (1ull << 19)),
			 LIBVIRQ_EINVAL);
	assert_int_equal(
	    virq_pmcvirt_msr_write(&e->v, 0xC0010200, LIBVIRQ_PMCVIRT_GUEST, 0x4300C0 | GO),
	    LIBVIRQ_EINVAL);
	assert_true(grd_(e, 0xC0010200) == 0x4300C0);
	/* PREC_RET (bit 43) is reserved for a guest without PreciseRetirePmc2Manual, in
	 * PerfEvtSel2 too (APM Vol 2 rev 3.44 §13.2.1, Figure 13-11). */
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, 0xC0010204, LIBVIRQ_PMCVIRT_GUEST,
						0x4300C0 | (1ull << 43)),
			 LIBVIRQ_EINVAL);
	/* Counter writes are 48 bits; IRPerf through the VMCB. */
	gwr_(e, 0xC001020B, 0xFFFF800000000001ull);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x538) == 0x800000000001ull);
	gwr_(e, 0xC00000E9, 12345);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5C0) == 12345);
	assert_int_equal(virq_pmcvirt_msr_read(&e->v, 0xC0010008, 0, &v), LIBVIRQ_ENOENT);
	/* Nothing while the guest runs. */
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_msr_read(&e->v, GCTL, LIBVIRQ_PMCVIRT_GUEST, &v),
			 LIBVIRQ_EBUSY);
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, GCTL, LIBVIRQ_PMCVIRT_GUEST, 0),
			 LIBVIRQ_EBUSY);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_EBUSY);
	assert_int_equal(virq_pmcvirt_set_filter(&e->v, NULL), LIBVIRQ_EBUSY);
	assert_int_equal(virq_pmcvirt_vcpu_reset(&e->v), LIBVIRQ_EBUSY);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_EBUSY);
	assert_int_equal(virq_pmcvirt_exit(&e->v, virq_sim_pmc_vmrun(&e->m)), LIBVIRQ_OK);
	env_free_(e);
}

/* ---- legacy guest host accesses, alias rejection, reset (docs/rationale.md#pmc-legacy-msr-index)
 * ---- */
static void test_legacy_host_msrs_no_alias_and_reset(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	uint64_t v;

	(void)s;
	/* A legacy guest's effective global control enables its 4 counters. */
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5D0) == 0xF);
	virq_sim_pmc_vmcb_wr(e->vmcb, 0x4E0, 0x1111);
	virq_sim_pmc_vmcb_wr(e->vmcb, 0x4E8, 0x2222);
	assert_int_equal(
	    virq_pmcvirt_msr_write(&e->v, 0xC0010203, LIBVIRQ_PMCVIRT_HOST, 0xFFFF123456789ABCull),
	    LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4F8) ==
		    0x123456789ABCull); /* pmc[1].perf_ctr */
	assert_int_equal(
	    virq_pmcvirt_msr_write(&e->v, 0xC0010202, LIBVIRQ_PMCVIRT_HOST,
				   0x4300C0 | (1ull << 19) | (1ull << 21) | GO | (0xFull << 36)),
	    LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4F0) == 0x4300C0); /* reserved bits cleared */
	assert_true(grd_(e, 0xC0010001) == 0x4300C0);		       /* K7 EVNTSEL1 */
	assert_true(grd_(e, 0xC0010005) == 0x123456789ABCull);	       /* K7 PERFCTR1 */
	/* F15h CTL4 would be K7 0xC0010004 = PERFCTR0 after translation: rejected first. */
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, 0xC0010208, LIBVIRQ_PMCVIRT_HOST, 5),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_msr_read(&e->v, 0xC0010209, LIBVIRQ_PMCVIRT_HOST, &v),
			 LIBVIRQ_EINVAL);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E0) == 0x1111);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E8) == 0x2222);
	/* The guest itself has no F15h MSRs. */
	assert_int_equal(virq_pmcvirt_msr_write(&e->v, 0xC0010203, LIBVIRQ_PMCVIRT_GUEST, 1),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_msr_read(&e->v, GCTL, LIBVIRQ_PMCVIRT_GUEST, &v),
			 LIBVIRQ_EINVAL);
	env_free_(e);

	/* vCPU reset: all six ctl/ctr slots and global status/control = 0. */
	e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	for (unsigned i = 0; i < 6; i++) {
		gwr_(e, 0xC0010200 + 2 * i, 0x4300C0 + i);
		gwr_(e, 0xC0010201 + 2 * i, 100 + i);
	}
	gwr_(e, GCTL, 0x3F);
	gwr_(e, 0xC0000303, 0x21);
	assert_int_equal(virq_pmcvirt_vcpu_reset(&e->v), LIBVIRQ_OK);
	for (unsigned i = 0; i < 6; i++) {
		assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E0 + 16 * i) == 0);
		assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E8 + 16 * i) == 0);
		assert_true(grd_(e, 0xC0010200 + 2 * i) == 0);
	}
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5C8) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5D0) == 0);
	env_free_(e);
}

/* ---- SW mode: exact accesses per world switch ---- */
static void test_sw_world_switch(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);
	uint64_t v;

	(void)s;
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	/* GlobalCtl, 6 CTL, 6 CTR, GlobalStatus read; GlobalCtl = 0 written. */
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 14);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 1);

	gwr_(e, 0xC0010200, 0x4300C0);
	gwr_(e, GCTL, 0x1);
	e->m.events[0] = 500;
	e->m.events[3] = 9; /* counter 3 not enabled by the guest */
	/* Cold entry: 6 CTL + 6 CTR differ from the host's; status CLR 0x20; GlobalCtl. */
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 14);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 0);
	for (unsigned i = 0; i < 6; i++) /* HostOnly cleared, GuestOnly forced */
		assert_true((virq_sim_msr_get(e->sim, 0xC0010200 + 2 * i) & (GO | HO)) == GO);
	assert_true(virq_sim_msr_get(e->sim, GSTS) == 0);
	assert_int_equal(virq_pmcvirt_exit(&e->v, virq_sim_pmc_vmrun(&e->m)), LIBVIRQ_OK);
	/* Steady state: enter 1 write; exit GlobalCtl rd + wr, status rd, 6 CTR rd. */
	virq_sim_reset_counters(e->sim);
	for (int i = 0; i < 10; i++)
		run_(e);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 20);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 80);
	assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_W, GCTL), 20);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_OK);
	assert_true(v == 5500);
	assert_true(grd_(e, 0xC0010207) == 0);
	/* A passed-through guest write of GlobalCtl is picked up at exit. */
	gwr_(e, 0xC0010206, 0x4300C0);
	virq_sim_pmc_guest_wrmsr(&e->m, GCTL, 0x9);
	run_(e);
	assert_true(grd_(e, GCTL) == 0x9);
	assert_true(grd_(e, 0xC0010207) == 9);
	/* Intercepted write of a counter goes to the hardware at the next entry. */
	gwr_(e, 0xC0010207, 0xFFFFFFFFFFFFull);
	virq_sim_reset_counters(e->sim);
	run_(e);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W),
			 3); /* CTR3, GlobalCtl, GlobalCtl=0 */
	assert_true(grd_(e, 0xC0010207) == 8);
	assert_true(grd_(e, GSTS) == 0x8); /* overflow seen in hardware status */
	/* Guest clears the status through the intercepted CLR: loaded via STATUS_CLR. */
	gwr_(e, 0xC0000302, 0x8);
	e->m.events[3] = 0;
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_W, 0xC0000302), 1);
	assert_true(virq_sim_msr_get(e->sim, GSTS) == 0);
	assert_int_equal(virq_pmcvirt_exit(&e->v, virq_sim_pmc_vmrun(&e->m)), LIBVIRQ_OK);
	/* Host restore: every value back, status via CLR/SET, GlobalCtl last. */
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	for (unsigned i = 0; i < 6; i++) {
		assert_true(virq_sim_msr_get(e->sim, hctl_(ZEN4_CAPS, i)) ==
			    0x130076ull + (i << 8) + (i == 0 ? 0 : EN));
		assert_true(virq_sim_msr_get(e->sim, hctr_(ZEN4_CAPS, i)) == 0x1000ull * (i + 1));
	}
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3E);
	assert_true(virq_sim_msr_get(e->sim, GSTS) == 0x20);
	env_free_(e);
}

/* SW mode on a K7-only host (4 counters, no PerfMonV2, no GlobalCtl). */
static void test_sw_k7_host(void **s)
{
	struct env *e = env_new_(FAM10H_CAPS, &virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_MODE_SW, 0);

	(void)s;
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 8);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 3); /* stop counters 1..3 */
	for (unsigned i = 0; i < 4; i++)
		assert_false(virq_sim_msr_get(e->sim, 0xC0010000 + i) & EN);
	assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_R, 0xC0000301), 0);
	gwr_(e, 0xC0010002, 0x4300C0);
	e->m.events[2] = 42;
	run_(e);
	virq_sim_reset_counters(e->sim);
	for (int i = 0; i < 5; i++)
		run_(e);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 0);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 20); /* 4 counters per exit */
	assert_true(grd_(e, 0xC0010006) == 252);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	assert_true(virq_sim_msr_get(e->sim, 0xC0010001) == (0x130176ull | EN));
	assert_true(virq_sim_msr_get(e->sim, 0xC0010006) == 0x3000);
	env_free_(e);
}

/* SW mode, legacy 4-counter guest on a PerfMonV2 host: GlobalCtl = GENMASK(3,0). */
static void test_sw_legacy_on_v2(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_MODE_SW, 0);
	uint64_t v;

	(void)s;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC0010003, 0x4300C0);
	e->m.events[3] = 7;
	e->m.events[4] = 100; /* host counter 4 is stopped by GlobalCtl bit 4 = 0 */
	run_(e);
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0); /* stopped after exit */
	virq_sim_reset_counters(e->sim);
	virq_sim_trace(e->sim, true);
	run_(e);
	/* enter: GlobalCtl = 0xF; exit: GlobalCtl = 0, status, 4 counters (no passthrough). */
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 2);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 5);
	assert_true(virq_sim_trace_at(e->sim, 0)->addr == GCTL &&
		    virq_sim_trace_at(e->sim, 0)->value == 0xF);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 3, &v), LIBVIRQ_OK);
	assert_true(v == 14);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 4, &v), LIBVIRQ_EINVAL);
	assert_true(virq_sim_msr_get(e->sim, 0xC0010209) == 0x5000); /* host CTR4 untouched */
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3E);
	env_free_(e);
}

/* ---- migration: whole state and MSR by MSR, across modes ---- */
static void test_migration(void **s)
{
	struct env *a = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	struct env *b = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);
	struct env *c = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	struct virq_pmcvirt_state sa, sb, sc, bad;
	uint32_t msrs[15];
	size_t n;

	(void)s;
	for (unsigned i = 0; i < 6; i++)
		gwr_(a, 0xC0010200 + 2 * i, 0x430000ull + 0x76 + i);
	gwr_(a, GCTL, 0x2F);
	gwr_(a, 0xC00000E9, 999);
	a->m.events[0] = 3;
	a->m.events[5] = 0x10;
	gwr_(a, 0xC001020B, 0xFFFFFFFFFFF8ull);
	assert_int_equal(virq_pmcvirt_host_save(&a->v), LIBVIRQ_OK);
	run_(a);
	assert_int_equal(virq_pmcvirt_save_state(&a->v, &sa), LIBVIRQ_OK);
	assert_true(sa.perf_ctr[0] == 3 && sa.perf_ctr[5] == 8 && sa.global_sts == 0x20);
	assert_int_equal(virq_pmcvirt_restore_state(&b->v, &sa), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_save_state(&b->v, &sb), LIBVIRQ_OK);
	assert_memory_equal(&sa, &sb, sizeof(sa));
	/* MSR by MSR (the KVM_{GET,SET}_MSRS way). */
	assert_int_equal(virq_pmcvirt_msr_list(&virq_sim_guest_pmc6, msrs, 15, &n), LIBVIRQ_OK);
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		assert_int_equal(virq_pmcvirt_msr_read(&a->v, msrs[i], LIBVIRQ_PMCVIRT_HOST, &v),
				 LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_msr_write(&c->v, msrs[i], LIBVIRQ_PMCVIRT_HOST, v),
				 LIBVIRQ_OK);
	}
	assert_int_equal(virq_pmcvirt_save_state(&c->v, &sc), LIBVIRQ_OK);
	assert_memory_equal(&sa, &sc, sizeof(sa));
	assert_memory_equal(a->vmcb + 0x4E0, c->vmcb + 0x4E0, 0x60);
	assert_memory_equal(a->vmcb + 0x5C0, c->vmcb + 0x5C0, 0x18);
	/* Invalid images change nothing. */
	bad = sa;
	bad.perf_ctr[1] = 1ull << 48;
	assert_int_equal(virq_pmcvirt_restore_state(&c->v, &bad), LIBVIRQ_ERANGE);
	bad = sa;
	bad.perf_ctl[2] |= 1ull << 19;
	assert_int_equal(virq_pmcvirt_restore_state(&c->v, &bad), LIBVIRQ_EINVAL);
	bad = sa;
	bad.global_ctl = 0x40;
	assert_int_equal(virq_pmcvirt_restore_state(&c->v, &bad), LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_save_state(&c->v, &sc), LIBVIRQ_OK);
	assert_memory_equal(&sa, &sc, sizeof(sa));
	env_free_(a);
	env_free_(b);
	env_free_(c);
}

/* ---- MSR faults ---- */
static void test_msr_faults(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);

	(void)s;
	virq_sim_msr_fault(e->sim, 0xC0010205, true);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_EHW);
	assert_false(e->v.host.saved);
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3E); /* host counting again */
	assert_true(virq_sim_msr_get(e->sim, 0xC0010203) == 0x2000);
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_EINVAL);
	virq_sim_msr_fault(e->sim, 0xC0010205, false);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	virq_sim_msr_fault(e->sim, GCTL, true);
	gwr_(e, GCTL, 1);
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_EHW);
	assert_false(e->v.in_guest);
	virq_sim_msr_fault(e->sim, GCTL, false);
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	virq_sim_msr_fault(e->sim, 0xC0010201, true);
	assert_int_equal(virq_pmcvirt_exit(&e->v, virq_sim_pmc_vmrun(&e->m)), LIBVIRQ_EHW);
	virq_sim_msr_fault(e->sim, 0xC0010201, false);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	env_free_(e);
}

/* A host_save that faults before reading a global MSR must not "restore" a
 * value it never read: the host's overflow status and global enables stay
 * exactly as they were (regression: status was cleared, GlobalCtl zeroed). */
static void test_host_save_fault_keeps_globals(void **s)
{
	static const uint32_t fault_at[] = {GCTL, 0xC0010200, 0xC0010205, 0xC0000300u};

	(void)s;
	for (unsigned k = 0; k < sizeof(fault_at) / sizeof(fault_at[0]); k++) {
		struct env *e =
		    env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);
		uint64_t gctl = virq_sim_msr_get(e->sim, GCTL);

		virq_sim_msr_set(e->sim, 0xC0000300u, 0x5);
		virq_sim_msr_fault(e->sim, fault_at[k], true);
		assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_EHW);
		virq_sim_msr_fault(e->sim, fault_at[k], false);
		assert_false(e->v.host.saved);
		assert_true(virq_sim_msr_get(e->sim, 0xC0000300u) == 0x5);
		assert_true(virq_sim_msr_get(e->sim, GCTL) == gctl);
		env_free_(e);
	}
}

/* SW mode: a faulting read at exit must not leave the cache claiming the
 * enter-time counter values (the guest changed them), or host_restore skips
 * rewriting a host counter whose saved value happens to equal them. */
static void test_sw_exit_fault_cache(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);

	(void)s;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC001020A, 0x4300C0);
	gwr_(e, 0xC001020B, 0x6000); /* equal to the host's CTR5: load skipped */
	gwr_(e, GCTL, 0x20);
	e->m.events[5] = 7;
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
	assert_true(virq_sim_msr_get(e->sim, 0xC001020B) == 0x6000);
	virq_sim_msr_fault(e->sim, 0xC0010201, true); /* CTR0 read faults at exit */
	assert_int_equal(virq_pmcvirt_exit(&e->v, virq_sim_pmc_vmrun(&e->m)), LIBVIRQ_EHW);
	assert_true(virq_sim_msr_get(e->sim, 0xC001020B) == 0x6007);
	virq_sim_msr_fault(e->sim, 0xC0010201, false);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	assert_true(virq_sim_msr_get(e->sim, 0xC001020B) == 0x6000); /* host value back */
	env_free_(e);
}

/* ---- nested (UNCERTAIN design, see pmcvirt.h) ---- */
static void test_nested(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	static const struct virq_pmcvirt_filter_ent ent = {0x76, 0, 0};
	struct virq_pmcvirt_filter deny = {LIBVIRQ_PMCVIRT_FILTER_DENY, 1, &ent};
	static uint8_t v12[4096], v02[4096];
	bool fail;

	(void)s;
	memset(v12, 0, sizeof(v12));
	memset(v02, 0, sizeof(v02));
	virq_sim_pmc_vmcb_wr(v12, 0xB8, 0x8);
	virq_sim_pmc_vmcb_wr(v12, 0x4E0, 0x4300C0);
	virq_sim_pmc_vmcb_wr(v12, 0x4F0, 0x430076);
	virq_sim_pmc_vmcb_wr(v12, 0x4E8, 10);
	virq_sim_pmc_vmcb_wr(v12, 0x5D0, 0x3);
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, false, v12, v02, &fail), LIBVIRQ_OK);
	assert_true(fail);
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x70) == 0xFFFFFFFFFFFFFFFFull);
	gwr_(e, GCTL, 0x1); /* L1 did not clear its own GlobalCtl */
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, true, v12, v02, &fail), LIBVIRQ_OK);
	assert_true(fail);
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x70) == 0xFFFFFFFFFFFFFFFCull);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4E0) == 0);
	gwr_(e, GCTL, 0);
	gwr_(e, 0xC0010200, 0x4300C2); /* L1's own counter 0 */
	assert_int_equal(virq_pmcvirt_set_filter(&e->v, &deny), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, true, v12, v02, &fail), LIBVIRQ_OK);
	assert_false(fail);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0xB8) & 0x8);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4E0) == 0x4300C0);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4F0) == 0x030076); /* L0's filter applies */
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x5D0) == 0x3);
	/* L2 runs on vmcb02. */
	e->m.vmcb = v02;
	e->m.events[0] = 5;
	e->m.events[1] = 5;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	run_(e);
	assert_int_equal(virq_pmcvirt_nested_vmexit(&e->v, v12, v02), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x4E8) == 15);
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x4F8) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x4F0) == 0x430076); /* L1's value kept */
	/* L1's host PMU after its #VMEXIT: type C reset values. */
	assert_true(grd_(e, 0xC0010200) == 0 && virq_sim_pmc_vmcb_rd(e->vmcb, 0x4E0) == 0);
	assert_true(grd_(e, GCTL) == 0x3F);
	/* bit 3 clear: L1's PMU runs L2 and comes back to vmcb01. */
	virq_sim_pmc_vmcb_wr(v12, 0xB8, 0);
	gwr_(e, 0xC0010200, 0x4300C0);
	gwr_(e, 0xC0010201, 100);
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, true, v12, v02, &fail), LIBVIRQ_OK);
	assert_false(fail);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4E8) == 100);
	run_(e); /* GlobalCtl 0x3F of L1 enables counter 0 */
	assert_int_equal(virq_pmcvirt_nested_vmexit(&e->v, v12, v02), LIBVIRQ_OK);
	assert_true(grd_(e, 0xC0010201) == 105);
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x4E8) == 15);
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, true, NULL, v02, &fail), LIBVIRQ_EINVAL);
	env_free_(e);
}

/* Nested, vmcb12 bit 3 clear (L1's PMU runs L2): a filter L0 installs while
 * L2 runs must survive the nested #VMEXIT; copying vmcb02's event selects
 * back would re-enable the denied event in vmcb01 behind the ctl_hw cache. */
static void test_nested_filter_survives_vmexit(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	static const struct virq_pmcvirt_filter_ent ent = {0xC0, 0, 0};
	struct virq_pmcvirt_filter deny = {LIBVIRQ_PMCVIRT_FILTER_DENY, 1, &ent};
	static uint8_t v12[4096], v02[4096];
	uint8_t *v01 = e->vmcb;
	bool fail;

	(void)s;
	memset(v12, 0, sizeof(v12));
	memset(v02, 0, sizeof(v02));
	gwr_(e, 0xC0010200, 0x4300C0);
	gwr_(e, GCTL, 0x1);
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, true, v12, v02, &fail), LIBVIRQ_OK);
	assert_false(fail);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4E0) == 0x4300C0);
	/* L0 denies retired instructions while L2 runs. */
	assert_int_equal(virq_pmcvirt_set_filter(&e->v, &deny), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(v01, 0x4E0) == 0x0300C0);
	e->m.vmcb = v02;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	run_(e);
	assert_int_equal(virq_pmcvirt_nested_vmexit(&e->v, v12, v02), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(v01, 0x4E0) == 0x0300C0); /* still denied */
	/* The same guest value again: the cache must not hide a stale VMCB. */
	gwr_(e, 0xC0010200, 0x4300C0);
	assert_true(virq_sim_pmc_vmcb_rd(v01, 0x4E0) == 0x0300C0);
	/* L1 counts nothing for the denied event. */
	e->m.vmcb = v01;
	e->m.events[0] = 50;
	gwr_(e, 0xC0010201, 0);
	run_(e);
	assert_true(grd_(e, 0xC0010201) == 0);
	env_free_(e);
}

/* Nested, vmcb12 bit 3 set: vmcb12 is L1-controlled memory. What reaches the
 * hardware in vmcb02 must be limited as L1's own WRMSRs are: no reserved or
 * (without allow_hg) Host/Guest-only event-select bits, nothing in slots
 * beyond L1's counter count, global control/status only for those counters. */
static void test_nested_vmcb12_sanitised(void **s)
{
	static const struct virq_pmcvirt_guest g4x = {
	    .ncounters = 4, .ext_core = true, .perfmon_v2 = true};
	struct env *e = env_new_(ZEN5_CAPS, &g4x, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	static uint8_t v12[4096], v02[4096];
	bool fail;

	(void)s;
	memset(v12, 0, sizeof(v12));
	memset(v02, 0, sizeof(v02));
	virq_sim_pmc_vmcb_wr(v12, 0xB8, 0x8);
	virq_sim_pmc_vmcb_wr(v12, 0x4E0, 0x4300C0 | (1ull << 19) | HO | (1ull << 50));
	virq_sim_pmc_vmcb_wr(v12, 0x4E8, 0xFFFF000000000010ull);
	virq_sim_pmc_vmcb_wr(v12, 0x520, 0x4300C0); /* PERF_CTL4: L1 has 4 counters */
	virq_sim_pmc_vmcb_wr(v12, 0x528, 5);
	virq_sim_pmc_vmcb_wr(v12, 0x530, 0x4300C0);
	virq_sim_pmc_vmcb_wr(v12, 0x5C8, 0x31);
	virq_sim_pmc_vmcb_wr(v12, 0x5D0, 0x3F);
	gwr_(e, GCTL, 0); /* L1 clears its own GlobalCtl before VMRUN */
	assert_int_equal(virq_pmcvirt_nested_vmrun(&e->v, true, v12, v02, &fail), LIBVIRQ_OK);
	assert_false(fail);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4E0) == 0x4300C0);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x4E8) == 0x10);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x520) == 0 && virq_sim_pmc_vmcb_rd(v02, 0x528) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x530) == 0);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x5C8) == 0x1);
	assert_true(virq_sim_pmc_vmcb_rd(v02, 0x5D0) == 0xF);
	/* vmcb12 itself is L1's and is left alone. */
	assert_true(virq_sim_pmc_vmcb_rd(v12, 0x520) == 0x4300C0);
	env_free_(e);
}

/* Mode change on the same VMCB (HW -> SW fallback on a PerfCtrVirt host):
 * PMC Virtualization Enable must not stay set, or the CPU keeps swapping the
 * PMU through the VMCB (and fails VMRUN on the SW mode's GlobalCtl) while the
 * SW mode's cache believes the MSRs hold the guest's values. */
static void test_mode_change_hw_to_sw(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);
	uint64_t v;

	(void)s;
	assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0xB8) & 0x8);
	forget_(&e->v);
	assert_int_equal(virq_pmcvirt_vcpu_init(&e->v, &e->hal, ZEN5_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, 0, e->vmcb),
			 LIBVIRQ_OK);
	assert_false(virq_sim_pmc_vmcb_rd(e->vmcb, 0xB8) & 0x8);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC0010200, 0x4300C0);
	gwr_(e, GCTL, 0x1);
	e->m.events[0] = 10;
	run_(e);
	run_(e);
	assert_int_equal(e->m.failed, 0);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_OK);
	assert_true(v == 20);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	env_free_(e);
}

/* A new vCPU's PerfMonV2 global control has its counters' enable bits set,
 * as hardware RESET leaves it (0x3F for six counters) and as KVM's PMU
 * refresh writes it (mainline kvm_pmu_refresh; docs/rationale.md#pmc-reset-values):
 * software written for v1 PMUs programs only PERF_CTL and must count. */
static void test_init_global_ctl_enabled(void **s)
{
	static const struct virq_pmcvirt_guest g4x = {
	    .ncounters = 4, .ext_core = true, .perfmon_v2 = true};
	enum virq_pmcvirt_mode modes[2] = {LIBVIRQ_PMCVIRT_MODE_HW, LIBVIRQ_PMCVIRT_MODE_SW};
	uint64_t v;

	(void)s;
	for (unsigned k = 0; k < 2; k++) {
		struct env *e =
		    env_new_(k ? ZEN4_CAPS : ZEN5_CAPS, &virq_sim_guest_pmc6, modes[k], 0);

		assert_true(grd_(e, GCTL) == 0x3F);
		if (!k)
			assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5D0) == 0x3F);
		assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
		gwr_(e, 0xC0010200, 0x4300C0); /* v1-style: no GlobalCtl write */
		e->m.events[0] = 9;
		run_(e);
		assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_OK);
		assert_true(v == 9);
		assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
		/* vCPU reset (docs/rationale.md#pmc-reset-values) still clears it. */
		assert_int_equal(virq_pmcvirt_vcpu_reset(&e->v), LIBVIRQ_OK);
		assert_true(grd_(e, GCTL) == 0);
		env_free_(e);
	}
	{
		struct env *e = env_new_(ZEN5_CAPS, &g4x, LIBVIRQ_PMCVIRT_MODE_HW, 0);

		assert_true(grd_(e, GCTL) == 0xF);
		assert_true(virq_sim_pmc_vmcb_rd(e->vmcb, 0x5D0) == 0xF);
		env_free_(e);
	}
}

/* ---- SW mode, lazy switching (LIBVIRQ_PMCVIRT_F_LAZY) ---- */

/* Steady state: no MSR access per world switch; state and host PMU as in eager mode. */
static void test_lazy_steady_state(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW,
				 LIBVIRQ_PMCVIRT_F_LAZY);
	uint64_t v;

	(void)s;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC0010200, 0x4300C0); /* EN | OS | USR, event 0xC0 */
	gwr_(e, GCTL, 0x1);
	e->m.events[0] = 500;
	run_(e); /* cold entry loads the guest PMU as in eager mode */
	virq_sim_reset_counters(e->sim);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_exit(&e->v, virq_sim_pmc_vmrun(&e->m)), LIBVIRQ_OK);
		/* The host runs between exits without using the PMU: GuestOnly stops the counter.
		 */
		virq_sim_pmc_host_run(&e->m);
	}
	assert_int_equal(virq_sim_msr_total(e->sim), 0);
	/* Reading guest state saves it first (exit's work of eager mode, once). */
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_OK);
	assert_true(v == 5500);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 8);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 1);
	/* Next entry loads what the save stopped (GlobalCtl), then steady again. */
	virq_sim_reset_counters(e->sim);
	run_(e);
	assert_int_equal(virq_sim_msr_total(e->sim), 1);
	/* Host needs the PMU: the restore saves the guest first, then the host's values. */
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	for (unsigned i = 0; i < 6; i++) {
		assert_true(virq_sim_msr_get(e->sim, hctl_(ZEN4_CAPS, i)) ==
			    0x130076ull + (i << 8) + (i == 0 ? 0 : EN));
		assert_true(virq_sim_msr_get(e->sim, hctr_(ZEN4_CAPS, i)) == 0x1000ull * (i + 1));
	}
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3E);
	assert_true(virq_sim_msr_get(e->sim, GSTS) == 0x20);
	assert_true(grd_(e, 0xC0010201) == 6000);
	env_free_(e);
}

static uint64_t rng_ = 0x243F6A8885A308D3ull;

static uint32_t rnd_(void)
{
	rng_ ^= rng_ << 13;
	rng_ ^= rng_ >> 7;
	rng_ ^= rng_ << 17;
	return (uint32_t)(rng_ >> 16);
}

/*
 * Lazy and eager switching give the same guest-visible state and the same
 * host PMU at every step of a random sequence of world switches, guest
 * accesses, host runs and host-needs-PMU transitions (restore, host counts,
 * save again).
 */
static void test_lazy_matches_eager(void **s)
{
	static const uint32_t msrs[] = {0xC0010200, 0xC0010201, 0xC0010202, 0xC0010203, 0xC0010204,
					0xC0010205, 0xC0010206, 0xC0010207, 0xC001020A, 0xC001020B,
					GCTL,	    GSTS,	0xC0000302, 0xC0000303};
	struct env *e[2];
	bool saved = false;

	(void)s;
	e[0] = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);
	e[1] = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW,
			LIBVIRQ_PMCVIRT_F_LAZY);
	for (int k = 0; k < 4000; k++) {
		uint32_t op = rnd_() % 8, msr = msrs[rnd_() % 14], r = rnd_();
		uint64_t val = (r & 1)	 ? ((uint64_t)rnd_() << 32 | rnd_()) & 0xFFFFFFFFFFFFull
			       : (r & 2) ? 0x4300C0ull | ((uint64_t)(r & 0x30) << 4)
					 : r & 0x3F;
		uint64_t ev[6];
		virq_status st[2];
		uint64_t out[2] = {0, 0};
		struct virq_pmcvirt_state ss[2];

		for (int i = 0; i < 6; i++)
			ev[i] = rnd_() % 3 == 0 ? rnd_() % 2000 : 0;
		if (!saved && op < 5) {
			for (int j = 0; j < 2; j++)
				assert_int_equal(virq_pmcvirt_host_save(&e[j]->v), LIBVIRQ_OK);
			saved = true;
		}
		for (int j = 0; j < 2; j++) {
			switch (op) {
			case 0:
			case 1:
				memcpy(e[j]->m.events, ev, sizeof(ev));
				if (r & 4)
					virq_sim_pmc_guest_wrmsr(&e[j]->m, GCTL, r & 0x3F);
				run_(e[j]);
				virq_sim_pmc_host_run(&e[j]->m);
				st[j] = LIBVIRQ_OK;
				break;
			case 2:
				st[j] = virq_pmcvirt_msr_write(&e[j]->v, msr, LIBVIRQ_PMCVIRT_GUEST,
							       val);
				break;
			case 3:
				st[j] = virq_pmcvirt_msr_read(&e[j]->v, msr, LIBVIRQ_PMCVIRT_GUEST,
							      &out[j]);
				break;
			case 4:
				st[j] = virq_pmcvirt_emulated_event(&e[j]->v, 0xC0, 0, r & 8, NULL);
				break;
			case 5:
				st[j] = virq_pmcvirt_rdpmc(&e[j]->v, r % 6, &out[j]);
				break;
			case 6:
				st[j] = virq_pmcvirt_save_state(&e[j]->v, &ss[j]);
				break;
			default: /* the host needs its PMU for a while */
				st[j] = saved ? virq_pmcvirt_host_restore(&e[j]->v) : LIBVIRQ_OK;
				memcpy(e[j]->m.events, ev, sizeof(ev));
				virq_sim_pmc_host_run(&e[j]->m);
				break;
			}
		}
		if (op == 7)
			saved = false;
		assert_int_equal(st[0], st[1]);
		assert_true(out[0] == out[1]);
		if (op == 6)
			assert_memory_equal(&ss[0], &ss[1], sizeof(ss[0]));
	}
	for (int j = 0; j < 2; j++)
		if (saved)
			assert_int_equal(virq_pmcvirt_host_restore(&e[j]->v), LIBVIRQ_OK);
	for (uint32_t m = 0xC0010200; m <= 0xC001020B; m++)
		assert_true(virq_sim_msr_get(e[0]->sim, m) == virq_sim_msr_get(e[1]->sim, m));
	assert_true(virq_sim_msr_get(e[0]->sim, GCTL) == virq_sim_msr_get(e[1]->sim, GCTL));
	assert_true(virq_sim_msr_get(e[0]->sim, GSTS) == virq_sim_msr_get(e[1]->sim, GSTS));
	{
		struct virq_pmcvirt_state a, b;

		assert_int_equal(virq_pmcvirt_save_state(&e[0]->v, &a), LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_save_state(&e[1]->v, &b), LIBVIRQ_OK);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	env_free_(e[0]);
	env_free_(e[1]);
}

/* ---- host counters in use (virq_pmcvirt_host_set_used) ---- */

/* After a hand-back: @e's used host counters equal @ref's, the others do not count. */
static void host_used_check_(struct env *ref, struct env *e, const struct virq_pmcvirt_caps *c,
			     uint32_t used)
{
	for (unsigned i = 0; i < c->num_core_ctrs && i < 6; i++) {
		uint64_t ctl = virq_sim_msr_get(e->sim, hctl_(c, i));

		if (used & (1u << i)) {
			assert_true(ctl == virq_sim_msr_get(ref->sim, hctl_(c, i)));
			assert_true(virq_sim_msr_get(e->sim, hctr_(c, i)) ==
				    virq_sim_msr_get(ref->sim, hctr_(c, i)));
		} else {
			assert_false(ctl & EN);
		}
	}
	if (c->perfmon_v2) {
		assert_true(virq_sim_msr_get(e->sim, GCTL) == virq_sim_msr_get(ref->sim, GCTL));
		assert_true(virq_sim_msr_get(e->sim, GSTS) == virq_sim_msr_get(ref->sim, GSTS));
	}
}

/* The host changes from counters @from to @to while it owns the PMU (in both worlds): it
 * stops the ones it leaves and programs the ones it starts using itself. */
static void host_reprogram_(struct env **e, const struct virq_pmcvirt_caps *c, uint32_t from,
			    uint32_t to, unsigned round)
{
	for (unsigned i = 0; i < c->num_core_ctrs; i++)
		for (int j = 0; j < 2; j++) {
			uint32_t ctl = hctl_(c, i);

			if ((from & ~to) & (1u << i))
				virq_sim_msr_set(e[j]->sim, ctl,
						 virq_sim_msr_get(e[j]->sim, ctl) & ~EN);
			if ((to & ~from) & (1u << i)) {
				virq_sim_msr_set(e[j]->sim, ctl, 0x130076ull + EN + round);
				virq_sim_msr_set(e[j]->sim, hctr_(c, i), 0x100ull * round);
			}
		}
}

/* One random step of both worlds (world switches, guest accesses); the same result. */
static void host_used_step_(struct env **e, const struct virq_pmcvirt_guest *g)
{
	uint32_t op = rnd_() % 5, r = rnd_(), i = r % g->ncounters;
	uint32_t ctl = g->ext_core ? 0xC0010200u + 2 * i : 0xC0010000u + i;
	uint64_t val = (r & 2) ? 0x4300C0ull | ((uint64_t)(r & 0x30) << 4) : r & 0x3F;
	uint64_t ev[6], out[2] = {0, 0};
	virq_status st[2];

	for (int k = 0; k < 6; k++)
		ev[k] = rnd_() % 3 == 0 ? rnd_() % 2000 : 0;
	for (int j = 0; j < 2; j++) {
		if (op < 2) {
			memcpy(e[j]->m.events, ev, sizeof(ev));
			run_(e[j]);
			virq_sim_pmc_host_run(&e[j]->m);
			st[j] = LIBVIRQ_OK;
		} else if (op == 2) {
			st[j] = virq_pmcvirt_msr_write(&e[j]->v, ctl, LIBVIRQ_PMCVIRT_GUEST, val);
		} else if (op == 3) {
			st[j] = virq_pmcvirt_rdpmc(&e[j]->v, i, &out[j]);
		} else {
			st[j] = virq_pmcvirt_msr_read(&e[j]->v, ctl + (g->ext_core ? 1u : 4u),
						      LIBVIRQ_PMCVIRT_GUEST, &out[j]);
		}
	}
	assert_int_equal(st[0], st[1]);
	assert_true(out[0] == out[1]);
}

/*
 * A host that says it uses only some counters: the guest sees exactly what it
 * sees with the whole host PMU preserved (eager, the default), the used host
 * counters come back exactly, the others never count on with a guest's
 * select; the host changes its set while it owns the PMU, programming a newly
 * used counter itself. HW, SW eager, SW lazy and K7 hosts.
 */
static void test_host_used_matches_all(void **s)
{
	static const struct {
		const struct virq_pmcvirt_caps *c;
		const struct virq_pmcvirt_guest *g;
		enum virq_pmcvirt_mode mode;
		uint32_t flags;
	} cfg[] = {
	    {ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0},
	    {ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0},
	    {ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, LIBVIRQ_PMCVIRT_F_LAZY},
	    {FAM10H_CAPS, &virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_MODE_SW, 0},
	};

	(void)s;
	for (size_t k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
		const struct virq_pmcvirt_caps *c = cfg[k].c;
		struct env *e[2] = {env_new_(c, cfg[k].g, cfg[k].mode, cfg[k].flags),
				    env_new_(c, cfg[k].g, cfg[k].mode, cfg[k].flags)};
		uint32_t all = (1u << c->num_core_ctrs) - 1u, used = 1;

		host_reprogram_(e, c, all, used, 0);
		assert_int_equal(virq_pmcvirt_host_set_used(&e[1]->v, used), LIBVIRQ_OK);
		for (int round = 0; round < 150; round++) {
			uint32_t nu = (rnd_() & all) | 1u;

			for (int j = 0; j < 2; j++)
				assert_int_equal(virq_pmcvirt_host_save(&e[j]->v), LIBVIRQ_OK);
			for (int step = 0; step < 12; step++)
				host_used_step_(e, cfg[k].g);
			for (int j = 0; j < 2; j++)
				assert_int_equal(virq_pmcvirt_host_restore(&e[j]->v), LIBVIRQ_OK);
			host_used_check_(e[0], e[1], c, used);
			/* The host owns the PMU: it uses other counters from now on. */
			host_reprogram_(e, c, used, nu, (unsigned)round);
			used = nu;
			assert_int_equal(virq_pmcvirt_host_set_used(&e[1]->v, used), LIBVIRQ_OK);
			for (int j = 0; j < 2; j++)
				virq_sim_pmc_host_run(&e[j]->m);
		}
		{
			struct virq_pmcvirt_state a, b;

			assert_int_equal(virq_pmcvirt_save_state(&e[0]->v, &a), LIBVIRQ_OK);
			assert_int_equal(virq_pmcvirt_save_state(&e[1]->v, &b), LIBVIRQ_OK);
			assert_memory_equal(&a, &b, sizeof(a));
		}
		env_free_(e[0]);
		env_free_(e[1]);
	}
}

/* A host using one counter: handing the PMU back costs 4 MSR accesses in HW mode, saving
 * it 4; the contract's errors. */
static void test_host_used_msr_counts(void **s)
{
	struct env *e = env_new_(ZEN5_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, 0);

	(void)s;
	assert_int_equal(virq_pmcvirt_host_set_used(&e->v, 0x40), LIBVIRQ_ERANGE);
	assert_int_equal(virq_pmcvirt_host_set_used(NULL, 1), LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_host_set_used(&e->v, 0x1), LIBVIRQ_OK);
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	/* GlobalCtl read and cleared, counter 0's select and count read. */
	assert_int_equal(virq_sim_msr_total(e->sim), 4);
	assert_int_equal(virq_pmcvirt_host_set_used(&e->v, 0x3), LIBVIRQ_EBUSY);
	run_(e);
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	/* GlobalCtl 0, counter 0's count and select, GlobalCtl: the other five keep their
	 * #VMEXIT reset values (0: disabled). */
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_R), 0);
	assert_int_equal(virq_sim_count(e->sim, LIBVIRQ_SIM_MSR_W), 4);
	assert_true(virq_sim_msr_get(e->sim, hctl_(ZEN5_CAPS, 0)) == 0x130076ull);
	assert_true(virq_sim_msr_get(e->sim, hctr_(ZEN5_CAPS, 0)) == 0x1000ull);
	assert_true(virq_sim_msr_get(e->sim, GCTL) == 0x3E);
	env_free_(e);
}

/* With the HAL's optional rdpmc hook, guest counters are read with RDPMC, not RDMSR. */
static struct virq_sim *rdpmc_sim_;
static unsigned long rdpmc_calls_;

static virq_status rdpmc_(void *ctx, uint32_t counter, uint64_t *value)
{
	(void)ctx;
	rdpmc_calls_++;
	if (counter > 5)
		return LIBVIRQ_EHW;
	*value = virq_sim_msr_get(rdpmc_sim_, 0xC0010201u + 2 * counter);
	return LIBVIRQ_OK;
}

static void test_rdpmc_hook(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW,
				 LIBVIRQ_PMCVIRT_F_LAZY);
	struct virq_hal_ops ops = *virq_sim_hal_ops();
	struct virq_hal hal = e->hal;
	uint64_t v;

	(void)s;
	ops.rdpmc = rdpmc_;
	hal.ops = &ops;
	rdpmc_sim_ = e->sim;
	forget_(&e->v);
	assert_int_equal(virq_pmcvirt_vcpu_init(&e->v, &hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, LIBVIRQ_PMCVIRT_F_LAZY,
						NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC0010204, 0x4300C0);
	gwr_(e, GCTL, 0x4);
	e->m.events[2] = 7;
	run_(e);
	run_(e);
	virq_sim_reset_counters(e->sim);
	rdpmc_calls_ = 0;
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 2, &v), LIBVIRQ_OK);
	assert_true(v == 14);
	assert_int_equal(rdpmc_calls_, 6);
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_R, 0xC0010201u + 2 * i),
				 0);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	/* An ops table compiled before the hook existed (size up to kick_vcpu) is valid
	 * and its bytes beyond the size are never read: counters are read with RDMSR. */
	ops.size = (uint32_t)LIBVIRQ_HAL_OPS_SIZE_V1;
	forget_(&e->v);
	assert_int_equal(virq_pmcvirt_vcpu_init(&e->v, &hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, LIBVIRQ_PMCVIRT_F_LAZY,
						NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC0010204, 0x4300C0);
	gwr_(e, GCTL, 0x4);
	run_(e);
	rdpmc_calls_ = 0;
	virq_sim_reset_counters(e->sim);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 2, &v), LIBVIRQ_OK);
	assert_true(v == 7);
	assert_int_equal(rdpmc_calls_, 0);
	assert_int_equal(virq_sim_count_at(e->sim, LIBVIRQ_SIM_MSR_R, 0xC0010205u), 1);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	env_free_(e);
}

/* A failure says which check failed (one debug line); success paths log nothing. */
static void test_fail_says_why(void **s)
{
	struct env *e = env_new_(ZEN4_CAPS, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0);
	struct virq_failure r;
	uint64_t v;

	(void)s;
	assert_int_equal(virq_pmcvirt_host_save(&e->v), LIBVIRQ_OK);
	gwr_(e, 0xC0010200, 0x4300C0);
	for (int i = 0; i < 5; i++)
		run_(e);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 0, &v), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_host_restore(&e->v), LIBVIRQ_OK);
	for (int l = LIBVIRQ_LOG_ERROR; l <= LIBVIRQ_LOG_DEBUG; l++)
		assert_int_equal(virq_sim_log_count(e->sim, (enum virq_log_level)l), 0);
	assert_int_equal(virq_pmcvirt_rdpmc(&e->v, 6, &v), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_log_count(e->sim, LIBVIRQ_LOG_DEBUG), 1);
	assert_true(virq_sim_last_fail(e->sim, &r));
	assert_string_equal(r.function, "virq_pmcvirt_rdpmc");
	assert_int_equal(r.status, LIBVIRQ_EINVAL);
	assert_string_equal(r.check, "ecx=%u >= the guest's ncounters=%u");
	assert_int_equal(r.nvalues, 2);
	assert_int_equal(r.values[0], 6);
	assert_int_equal(r.values[1], 6);
	assert_string_equal(virq_sim_last_log(e->sim),
			    "virq_pmcvirt_rdpmc: ecx=6 >= the guest's ncounters=6");
	assert_int_equal(virq_pmcvirt_enter(&e->v), LIBVIRQ_EINVAL);
	assert_true(virq_sim_logged(e->sim, "virq_pmcvirt_enter: host PMU not saved"));
	assert_int_equal(virq_sim_log_count(e->sim, LIBVIRQ_LOG_DEBUG), 2);
	env_free_(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_hw),
	    cmocka_unit_test(test_hw_world_switch),
	    cmocka_unit_test(test_hw_invalid_pmc),
	    cmocka_unit_test(test_hw_emulation),
	    cmocka_unit_test(test_legacy_host_msrs_no_alias_and_reset),
	    cmocka_unit_test(test_sw_world_switch),
	    cmocka_unit_test(test_sw_k7_host),
	    cmocka_unit_test(test_sw_legacy_on_v2),
	    cmocka_unit_test(test_migration),
	    cmocka_unit_test(test_msr_faults),
	    cmocka_unit_test(test_host_save_fault_keeps_globals),
	    cmocka_unit_test(test_sw_exit_fault_cache),
	    cmocka_unit_test(test_nested),
	    cmocka_unit_test(test_nested_filter_survives_vmexit),
	    cmocka_unit_test(test_nested_vmcb12_sanitised),
	    cmocka_unit_test(test_mode_change_hw_to_sw),
	    cmocka_unit_test(test_init_global_ctl_enabled),
	    cmocka_unit_test(test_lazy_steady_state),
	    cmocka_unit_test(test_lazy_matches_eager),
	    cmocka_unit_test(test_host_used_matches_all),
	    cmocka_unit_test(test_host_used_msr_counts),
	    cmocka_unit_test(test_rdpmc_hook),
	    cmocka_unit_test(test_fail_says_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
