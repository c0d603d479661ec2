/* SPDX-License-Identifier: MIT */
/*
 * Misuse sweep of the PMC virtualization module: every entry point that
 * takes a vCPU is called with it in every lifecycle state - NULL, never
 * initialised (zeroed storage), live (software-switched, host PMU not
 * saved), live in hardware-switched mode, host PMU saved, in the guest
 * (between enter and exit), lazy with the guest PMU still in the MSRs,
 * destroyed - with everything else valid. Each call must return a documented
 * status (docs/pmcvirt.md "Object states"), nothing may crash (ASan + UBSan
 * in the sanitize preset) and nothing may leak.
 */
#include <libvirq/pmcvirt.h>
#include <libvirq/sim/pmc.h>
#include <libvirq/sim/cpu.h>

#define ZEN5_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5].pmcvirt_caps)
#define ZEN4_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4].pmcvirt_caps)

#include "sweep.h"

enum { S_NULL, S_ZERO, S_LIVE, S_HW, S_SAVED, S_GUEST, S_LAZY, S_DEAD, S_COUNT };
static const char *const sname[S_COUNT] = {
    "NULL",	  "zeroed",	  "live (SW)",	      "live (HW)",
    "host saved", "in the guest", "lazy, guest live", "destroyed"};

#define B_(st) (1u << (unsigned)-(st))
#define OK_ B_(LIBVIRQ_OK)
#define EINVAL_ B_(LIBVIRQ_EINVAL)
#define EBUSY_ B_(LIBVIRQ_EBUSY)

struct w {
	struct virq_sim *sim;
	struct virq_hal hal;
	uint8_t *vmcb, *vmcb12, *vmcb02;
	struct virq_sim_pmc m;
	struct virq_pmcvirt_vcpu v, zero, dead;
};

static struct w *w_new_(void)
{
	struct w *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->sim = virq_sim_new();
	w->hal = virq_sim_hal(w->sim);
	w->vmcb = aligned_alloc(4096, 4096);
	w->vmcb12 = aligned_alloc(4096, 4096);
	w->vmcb02 = aligned_alloc(4096, 4096);
	assert_true(w->vmcb && w->vmcb12 && w->vmcb02);
	memset(w->vmcb, 0, 4096);
	memset(w->vmcb12, 0, 4096);
	memset(w->vmcb02, 0, 4096);
	virq_sim_pmc_init(&w->m, w->sim, w->vmcb, 6, true, true);
	assert_int_equal(virq_pmcvirt_vcpu_init(&w->dead, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, 0, NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_vcpu_destroy(&w->dead), LIBVIRQ_OK);
	return w;
}

static void w_free_(struct w *w)
{
	struct virq_pmcvirt_vcpu *all[] = {&w->v, &w->zero, &w->dead};
	virq_status st;

	for (size_t i = 0; i < 3; i++) {
		if (all[i]->in_guest)
			st = virq_pmcvirt_exit(all[i], virq_sim_pmc_vmrun(&w->m));
		st = virq_pmcvirt_host_restore(all[i]);
		st = virq_pmcvirt_vcpu_destroy(all[i]);
	}
	(void)st;
	sweep_no_leak(w->sim, 0);
	virq_sim_free(w->sim);
	free(w->vmcb);
	free(w->vmcb12);
	free(w->vmcb02);
	free(w);
}

static struct virq_pmcvirt_vcpu *in_(struct w *w, int s)
{
	uint32_t flags = s == S_LAZY ? LIBVIRQ_PMCVIRT_F_LAZY : 0;

	switch (s) {
	case S_NULL:
		return NULL;
	case S_ZERO:
		return &w->zero;
	case S_DEAD:
		return &w->dead;
	case S_HW:
		assert_int_equal(virq_pmcvirt_vcpu_init(&w->v, &w->hal, ZEN5_CAPS,
							&virq_sim_guest_pmc6,
							LIBVIRQ_PMCVIRT_MODE_HW, 0, w->vmcb),
				 LIBVIRQ_OK);
		return &w->v;
	default:
		break;
	}
	assert_int_equal(virq_pmcvirt_vcpu_init(&w->v, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, flags, NULL),
			 LIBVIRQ_OK);
	if (s == S_LIVE)
		return &w->v;
	assert_int_equal(virq_pmcvirt_host_save(&w->v), LIBVIRQ_OK);
	if (s == S_LAZY) {
		assert_int_equal(virq_pmcvirt_enter(&w->v), LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_exit(&w->v, virq_sim_pmc_vmrun(&w->m)), LIBVIRQ_OK);
	}
	if (s == S_GUEST)
		assert_int_equal(virq_pmcvirt_enter(&w->v), LIBVIRQ_OK);
	return &w->v;
}

struct pcase {
	const char *name;
	virq_status (*call)(struct w *w, struct virq_pmcvirt_vcpu *t);
	uint32_t allowed[S_COUNT]; /* 0: EINVAL */
};

static virq_status p_init(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	return virq_pmcvirt_vcpu_init(t, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
				      LIBVIRQ_PMCVIRT_MODE_SW, 0, NULL);
}
static virq_status p_destroy(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_vcpu_destroy(t);
}
static virq_status p_reset(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_vcpu_reset(t);
}
static virq_status p_filter(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_set_filter(t, NULL);
}
static virq_status p_rd(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	uint64_t v;

	(void)w;
	return virq_pmcvirt_msr_read(t, 0xC0010201u, LIBVIRQ_PMCVIRT_GUEST, &v);
}
static virq_status p_wr(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_msr_write(t, 0xC0010200u, LIBVIRQ_PMCVIRT_GUEST, 0x4300C0u);
}
static virq_status p_rdpmc(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	uint64_t v;

	(void)w;
	return virq_pmcvirt_rdpmc(t, 1, &v);
}
static virq_status p_event(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	uint32_t pmi;

	(void)w;
	return virq_pmcvirt_emulated_event(t, 0xC0, 0, true, &pmi);
}
static virq_status p_save(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	struct virq_pmcvirt_state st;

	(void)w;
	return virq_pmcvirt_save_state(t, &st);
}
static virq_status p_restore(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	struct virq_pmcvirt_state st;

	(void)w;
	memset(&st, 0, sizeof(st));
	return virq_pmcvirt_restore_state(t, &st);
}
static virq_status p_hsave(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_host_save(t);
}
static virq_status p_hrestore(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_host_restore(t);
}
static virq_status p_enter(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	(void)w;
	return virq_pmcvirt_enter(t);
}
static virq_status p_exit(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	return virq_pmcvirt_exit(t, virq_sim_pmc_vmrun(&w->m));
}
static virq_status p_nrun(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	bool fail;

	return virq_pmcvirt_nested_vmrun(t, true, w->vmcb12, w->vmcb02, &fail);
}
static virq_status p_nexit(struct w *w, struct virq_pmcvirt_vcpu *t)
{
	return virq_pmcvirt_nested_vmexit(t, w->vmcb12, w->vmcb02);
}

/*                                      NULL ZERO LIVE  HW    SAVED GUEST LAZY  DEAD */
#define ALL_OK_NOT_GUEST                                                                           \
	{                                                                                          \
		0, 0, OK_, OK_, OK_, EBUSY_, OK_, 0                                                \
	}
static const struct pcase pcases[] = {
    {"vcpu_init (as storage)", p_init, {0, OK_, EBUSY_, EBUSY_, EBUSY_, EBUSY_, EBUSY_, OK_}},
    {"vcpu_destroy", p_destroy, {OK_, 0, OK_, OK_, EBUSY_, EBUSY_, EBUSY_, 0}},
    {"vcpu_reset", p_reset, ALL_OK_NOT_GUEST},
    {"set_filter", p_filter, ALL_OK_NOT_GUEST},
    {"msr_read", p_rd, ALL_OK_NOT_GUEST},
    {"msr_write", p_wr, ALL_OK_NOT_GUEST},
    {"rdpmc", p_rdpmc, ALL_OK_NOT_GUEST},
    {"emulated_event", p_event, ALL_OK_NOT_GUEST},
    {"save_state", p_save, ALL_OK_NOT_GUEST},
    {"restore_state", p_restore, ALL_OK_NOT_GUEST},
    {"host_save", p_hsave, {0, 0, OK_, OK_, EBUSY_, EBUSY_, EBUSY_, 0}},
    {"host_restore", p_hrestore, {0, 0, EINVAL_, EINVAL_, OK_, EBUSY_, OK_, 0}},
    {"enter", p_enter, {0, 0, EINVAL_, EINVAL_, OK_, EBUSY_, OK_, 0}},
    {"exit", p_exit, {0, 0, EINVAL_, EINVAL_, EINVAL_, OK_, EINVAL_, 0}},
    {"nested_vmrun", p_nrun, {0, 0, EINVAL_, OK_, EINVAL_, EINVAL_, EINVAL_, 0}},
    {"nested_vmexit", p_nexit, {0, 0, EINVAL_, OK_, EINVAL_, EINVAL_, EINVAL_, 0}},
};

static void test_vcpu_states(void **s)
{
	unsigned long cases = 0;

	(void)s;
	for (size_t k = 0; k < sizeof(pcases) / sizeof(pcases[0]); k++) {
		for (int st = 0; st < S_COUNT; st++) {
			struct w *w = w_new_();
			struct virq_pmcvirt_vcpu *t = in_(w, st);
			uint32_t allowed = pcases[k].allowed[st] ? pcases[k].allowed[st] : EINVAL_;
			virq_status r = pcases[k].call(w, t);

			cases++;
			if (r > 0 || r < -31 || !(allowed & B_(r))) {
				fprintf(stderr, "misuse sweep: %s with a %s vCPU returned %s\n",
					pcases[k].name, sname[st], virq_status_name(r));
				fail();
			}
			w_free_(w);
		}
	}
	SWEEP_REPORT("pmcvirt misuse vCPU (entry points x states)", cases);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vcpu_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
