/* SPDX-License-Identifier: MIT */
/*
 * Misuse sweep of the AVIC module: every entry point that takes one of the
 * module's objects (VM, vCPU, GA-tag registry, IRTE reference) is called with
 * that object in every lifecycle state - NULL, never initialised (zeroed
 * storage), live, busy (vCPU loaded or with an IRTE attached; VM with vCPUs
 * or in a registry; registry holding a VM; reference attached here or to
 * another vCPU), destroyed - with everything else valid. Each call must
 * return a documented status (docs/avic.md "Object states"), nothing may
 * crash (the sanitize preset runs this under ASan + UBSan), and after each
 * case the teardown must free every page.
 */
#include <libvirq/avic.h>

#include "sweep.h"

enum { S_NULL, S_ZERO, S_LIVE, S_BUSY, S_BUSY2, S_DEAD, S_COUNT };
static const char *const sname[S_COUNT] = {"NULL", "zeroed", "live", "busy", "busy2", "destroyed"};

/* Documented status sets. */
#define B_(st) (1u << (unsigned)-(st))
#define OK_ B_(LIBVIRQ_OK)
#define EINVAL_ B_(LIBVIRQ_EINVAL)
#define EBUSY_ B_(LIBVIRQ_EBUSY)
#define EEXIST_ B_(LIBVIRQ_EEXIST)
#define ENOENT_ B_(LIBVIRQ_ENOENT)
#define EHW_ B_(LIBVIRQ_EHW)
#define ENOTSUP_ B_(LIBVIRQ_ENOTSUP)
#define EINHIB_ B_(LIBVIRQ_EINHIBITED)
#define EUNK_ B_(LIBVIRQ_EUNKNOWN)

struct w {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm, vm_zero, vm_dead;
	struct virq_avic_vcpu v[4]; /* v0 the other vCPU (loaded), v1 the one under test */
	struct virq_avic_vcpu v_zero, v_dead, v_new;
	struct virq_avic_registry reg, reg_zero, reg_dead;
	struct virq_avic_vm *slots[8], *slots2[8];
	struct virq_avic_irte_ref ref, ref2;
	uint64_t irte[2] __attribute__((aligned(16)));
	uint64_t irte2[2] __attribute__((aligned(16)));
};

static void cpuid_(struct virq_sim *sim)
{
	virq_sim_cpuid_set(sim, 0, 0, 0x10, 0x68747541u, 0x444d4163u, 0x69746e65u);
	virq_sim_cpuid_set(sim, 1, 0, (0xAu << 20) | (0xFu << 8) | 0x10, 0, 0, 0);
	virq_sim_cpuid_set(sim, 0x80000000u, 0, 0x80000021u, 0, 0, 0);
	virq_sim_cpuid_set(sim, 0x80000001u, 0, 0, 0, 0x4, 0);
	virq_sim_cpuid_set(sim, 0x8000000Au, 0, 1, 0x8000, LIBVIRQ_AVIC_CPUID_ECX_X2AVIC_EXT,
			   LIBVIRQ_AVIC_CPUID_EDX_AVIC | LIBVIRQ_AVIC_CPUID_EDX_X2AVIC);
}

static const struct virq_avic_vm_cfg cfg_ = {
    .mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = 4, .vm_id = 3};

static void vcpu_up_(struct w *w, struct virq_avic_vcpu *v, uint32_t i)
{
	struct virq_avic_vcpu_cfg vc = {
	    .index = i, .apic_id = i, .cookie = (void *)(uintptr_t)(i + 1)};

	assert_int_equal(virq_avic_vcpu_init(&w->vm, v, &vc), LIBVIRQ_OK);
}

static void run_(struct virq_avic_vcpu *v, uint32_t host)
{
	struct virq_avic_vmcb_values vv;

	assert_int_equal(virq_avic_vcpu_load(v, host), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_vmcb_values(v, &vv), LIBVIRQ_OK);
}

/* A world: a live VM with vCPU 0 loaded and vCPU 1 live, a live registry. */
static struct w *w_new_(void)
{
	struct w *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->sim = virq_sim_new();
	w->hal = virq_sim_hal(w->sim);
	cpuid_(w->sim);
	assert_int_equal(virq_avic_caps_probe(&w->hal, &w->caps), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&w->vm, &w->hal, &w->caps, &cfg_), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&w->vm_dead, &w->hal, &w->caps, &cfg_), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_destroy(&w->vm_dead), LIBVIRQ_OK);
	vcpu_up_(w, &w->v[0], 0);
	vcpu_up_(w, &w->v[1], 1);
	vcpu_up_(w, &w->v_dead, 2);
	assert_int_equal(virq_avic_vcpu_destroy(&w->v_dead), LIBVIRQ_OK);
	run_(&w->v[0], 7);
	assert_int_equal(virq_avic_registry_init(&w->reg, w->slots, 8), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_init(&w->reg_dead, w->slots2, 8), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_destroy(&w->reg_dead), LIBVIRQ_OK);
	return w;
}

/* Tears down whatever exists (statuses ignored: the sweep already checked them). */
static void w_free_(struct w *w)
{
	struct virq_avic_vcpu *all[] = {&w->v[0],   &w->v[1],	&w->v[2], &w->v[3],
					&w->v_zero, &w->v_dead, &w->v_new};
	struct virq_avic_vm *vms[] = {&w->vm, &w->vm_zero, &w->vm_dead};
	struct virq_avic_registry *regs[] = {&w->reg, &w->reg_zero, &w->reg_dead};
	virq_status st;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		st = virq_avic_vcpu_put(all[i]);
		st = virq_avic_irte_detach(all[i], &w->ref);
		st = virq_avic_irte_detach(all[i], &w->ref2);
		st = virq_avic_vcpu_destroy(all[i]);
	}
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++)
			st = virq_avic_registry_remove(regs[i], vms[j]);
	for (size_t i = 0; i < 3; i++) {
		st = virq_avic_registry_destroy(regs[i]);
		st = virq_avic_vm_destroy(vms[i]);
	}
	(void)st;
	sweep_no_leak(w->sim, 0);
	virq_sim_free(w->sim);
	free(w);
}

static unsigned long cases_;

static void check_(const char *what, int state, virq_status st, uint32_t allowed)
{
	cases_++;
	if (st > 0 || st < -31 || !(allowed & B_(st))) {
		fprintf(stderr, "misuse sweep: %s with a %s object returned %s\n", what,
			sname[state], virq_status_name(st));
		fail();
	}
}

/* ---- vCPU ---- */

static struct virq_avic_vcpu *vcpu_in_(struct w *w, int s)
{
	switch (s) {
	case S_NULL:
		return NULL;
	case S_ZERO:
		return &w->v_zero;
	case S_BUSY: /* loaded */
		run_(&w->v[1], 8);
		return &w->v[1];
	case S_BUSY2: /* an IRTE attached */
		assert_int_equal(virq_avic_irte_attach(&w->v[1], &w->ref, w->irte, 0x40),
				 LIBVIRQ_OK);
		return &w->v[1];
	case S_DEAD:
		return &w->v_dead;
	default:
		return &w->v[1];
	}
}

struct vcase {
	const char *name;
	virq_status (*call)(struct w *w, struct virq_avic_vcpu *t);
	uint32_t live, busy, busy2; /* allowed when live, loaded, IRTE attached */
	uint32_t dead;		    /* allowed for NULL, zeroed, destroyed (default EINVAL) */
};

static virq_status c_x2apic(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_vcpu_set_x2apic(t, true);
}
static virq_status c_vmcb(struct w *w, struct virq_avic_vcpu *t)
{
	struct virq_avic_vmcb_values vv;

	(void)w;
	return virq_avic_vcpu_vmcb_values(t, &vv);
}
static virq_status c_load(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_vcpu_load(t, 9);
}
static virq_status c_put(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_vcpu_put(t);
}
static virq_status c_block(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_vcpu_block(t);
}
static virq_status c_unblock(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_vcpu_unblock(t, 9);
}
static virq_status c_post(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_post(t, 0x41, 7);
}
static virq_status c_emulate(struct w *w, struct virq_avic_vcpu *t)
{
	uint32_t n;

	(void)w;
	return virq_avic_emulate_icr(t, 0x00000000000840F0ull, NULL, &n); /* all incl. self */
}
static virq_status c_tnr(struct w *w, struct virq_avic_vcpu *t)
{
	struct virq_avic_exit_result r;

	(void)w;
	return virq_avic_handle_incomplete_ipi(t, 0xFFFFFFFF00004050ull, 1ull << 32, NULL, &r);
}
static virq_status c_noaccel(struct w *w, struct virq_avic_vcpu *t)
{
	struct virq_avic_exit_result r;

	(void)w;
	return virq_avic_handle_noaccel(t, (1ull << 32) | 0xD0, 0, NULL, &r);
}
static virq_status c_exit(struct w *w, struct virq_avic_vcpu *t)
{
	struct virq_avic_exit_result r;

	(void)w;
	return virq_avic_handle_exit(t, 0x999, 0, 0, NULL, &r);
}
static virq_status c_ldr(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_ldr_write(t, 0x02000000u);
}
static virq_status c_dfr(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_dfr_write(t, LIBVIRQ_APIC_DFR_CLUSTER);
}
static virq_status c_apic_id(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_apic_id_write(t, 0x05000000u);
}
static virq_status c_attach_new(struct w *w, struct virq_avic_vcpu *t)
{
	return virq_avic_irte_attach(t, &w->ref2, w->irte2, 0x42);
}
static virq_status c_attach_same(struct w *w, struct virq_avic_vcpu *t)
{
	return virq_avic_irte_attach(t, &w->ref, w->irte, 0x42);
}
static virq_status c_detach(struct w *w, struct virq_avic_vcpu *t)
{
	return virq_avic_irte_detach(t, &w->ref);
}
static virq_status c_resolve(struct w *w, struct virq_avic_vcpu *t)
{
	struct virq_avic_icr icr = {
	    .vector = 0x40, .shorthand = LIBVIRQ_APIC_SH_ALL_BUT_SELF, .x2apic = true};
	uint32_t n;

	return virq_avic_resolve(&w->vm, t, &icr, NULL, NULL, &n);
}
static virq_status c_destroy(struct w *w, struct virq_avic_vcpu *t)
{
	(void)w;
	return virq_avic_vcpu_destroy(t);
}
static virq_status c_init(struct w *w, struct virq_avic_vcpu *t)
{
	struct virq_avic_vcpu_cfg vc = {.index = 3, .apic_id = 3};

	return virq_avic_vcpu_init(&w->vm, t, &vc);
}

static const struct vcase vcases[] = {
    {"set_x2apic", c_x2apic, OK_ | EINHIB_, OK_ | EINHIB_, OK_ | EINHIB_, 0},
    {"vmcb_values", c_vmcb, OK_, OK_, OK_, 0},
    {"load", c_load, OK_, EBUSY_, OK_, 0},
    {"put", c_put, OK_, OK_, OK_, 0},
    {"block", c_block, OK_, OK_, OK_, 0},
    {"unblock", c_unblock, OK_, OK_, OK_, 0},
    {"post", c_post, OK_ | EHW_, OK_ | EHW_, OK_ | EHW_, 0},
    {"emulate_icr", c_emulate, OK_, OK_, OK_, 0},
    {"handle_incomplete_ipi", c_tnr, OK_, OK_, OK_, 0},
    {"handle_noaccel", c_noaccel, OK_, OK_, OK_, 0},
    {"handle_exit", c_exit, EUNK_, EUNK_, EUNK_, 0},
    {"ldr_write", c_ldr, OK_ | ENOENT_ | EEXIST_, OK_ | ENOENT_ | EEXIST_, OK_ | ENOENT_ | EEXIST_,
     0},
    {"dfr_write", c_dfr, OK_ | ENOENT_ | EEXIST_, OK_ | ENOENT_ | EEXIST_, OK_ | ENOENT_ | EEXIST_,
     0},
    {"apic_id_write", c_apic_id, OK_ | EINHIB_, OK_ | EINHIB_, OK_ | EINHIB_, 0},
    {"irte_attach (new ref)", c_attach_new, OK_, OK_, OK_, 0},
    {"irte_attach (same ref)", c_attach_same, OK_, OK_, EEXIST_, 0},
    {"irte_detach", c_detach, ENOENT_, ENOENT_, OK_, 0},
    {"resolve (as sender)", c_resolve, OK_, OK_, OK_, 0},
    {"vcpu_destroy", c_destroy, OK_, EBUSY_, EBUSY_, EINVAL_},
    {"vcpu_init (as storage)", c_init, EBUSY_, EBUSY_, EBUSY_, OK_},
};

/* The entry points without a status must not crash and give neutral answers. */
static void vcpu_voids_(struct virq_avic_vcpu *t, int s)
{
	struct virq_avic_vcpu_counters c;
	uint64_t pa = 1;
	uint32_t why = 0;
	uint8_t vec = 1;
	bool live = s == S_LIVE || s == S_BUSY || s == S_BUSY2;

	virq_avic_vcpu_set_nested(t, false);
	assert_true(virq_avic_vcpu_active(t, &why) == (live && why == 0));
	if (!live) {
		assert_false(virq_avic_vcpu_pending(t, &vec));
		assert_int_equal(vec, 0);
		assert_null(virq_avic_vcpu_backing(t, &pa));
		assert_true(pa == 0);
	}
	virq_avic_vcpu_counters_get(t, &c);
	if (!live)
		assert_true(c.posts == 0 && c.kicks == 0);
	cases_ += 5;
}

static void test_vcpu_states(void **s)
{
	(void)s;
	for (size_t k = 0; k < sizeof(vcases) / sizeof(vcases[0]); k++) {
		for (int st = 0; st < S_COUNT; st++) {
			struct w *w = w_new_();
			struct virq_avic_vcpu *t = vcpu_in_(w, st);
			const struct vcase *c = &vcases[k];
			uint32_t allowed = st == S_LIVE	   ? c->live
					   : st == S_BUSY  ? c->busy
					   : st == S_BUSY2 ? c->busy2
					   : c->dead	   ? c->dead
							   : EINVAL_;

			if (k == 0)
				vcpu_voids_(t, st);
			/* init of never-initialised or destroyed storage succeeds; of NULL fails.
			 */
			if (c->call == c_init && st == S_NULL)
				allowed = EINVAL_;
			if (c->call == c_destroy && st == S_NULL)
				allowed = OK_;
			check_(c->name, st, c->call(w, t), allowed);
			w_free_(w);
		}
	}
	SWEEP_REPORT("avic misuse vCPU (entry points x states)", cases_);
}

/* ---- VM ---- */

static struct virq_avic_vm *vm_in_(struct w *w, int s)
{
	switch (s) {
	case S_NULL:
		return NULL;
	case S_ZERO:
		return &w->vm_zero;
	case S_DEAD:
		return &w->vm_dead;
	case S_BUSY2: /* in a registry (and with vCPUs) */
		assert_int_equal(virq_avic_registry_add(&w->reg, &w->vm), LIBVIRQ_OK);
		return &w->vm;
	default: /* live and busy: the world's VM has vCPUs; "live" has them removed */
		if (s == S_LIVE) {
			virq_status st = virq_avic_vcpu_put(&w->v[0]);

			assert_int_equal(st, LIBVIRQ_OK);
			assert_int_equal(virq_avic_vcpu_destroy(&w->v[0]), LIBVIRQ_OK);
			assert_int_equal(virq_avic_vcpu_destroy(&w->v[1]), LIBVIRQ_OK);
		}
		return &w->vm;
	}
}

struct mcase {
	const char *name;
	virq_status (*call)(struct w *w, struct virq_avic_vm *t);
	uint32_t live, busy, busy2, dead;
};

static virq_status m_init(struct w *w, struct virq_avic_vm *t)
{
	return virq_avic_vm_init(t, &w->hal, &w->caps, &cfg_);
}
static virq_status m_destroy(struct w *w, struct virq_avic_vm *t)
{
	(void)w;
	return virq_avic_vm_destroy(t);
}
static virq_status m_policy(struct w *w, struct virq_avic_vm *t)
{
	(void)w;
	return virq_avic_vm_set_policy(t, LIBVIRQ_AVIC_POLICY_KICK);
}
static virq_status m_calibrate(struct w *w, struct virq_avic_vm *t)
{
	(void)w;
	return virq_avic_vm_calibrate(t, 7, NULL, 4, NULL);
}
static virq_status m_inhibit(struct w *w, struct virq_avic_vm *t)
{
	(void)w;
	return virq_avic_vm_inhibit(t, LIBVIRQ_AVIC_INHIBIT_IRQWIN);
}
static virq_status m_uninhibit(struct w *w, struct virq_avic_vm *t)
{
	(void)w;
	return virq_avic_vm_uninhibit(t, LIBVIRQ_AVIC_INHIBIT_IRQWIN);
}
static virq_status m_counters(struct w *w, struct virq_avic_vm *t)
{
	struct virq_avic_vm_counters c;

	(void)w;
	return virq_avic_vm_counters_get(t, &c);
}
static virq_status m_resolve(struct w *w, struct virq_avic_vm *t)
{
	struct virq_avic_icr icr = {.vector = 0x40, .dest = 0xFFFFFFFFu, .x2apic = true};
	uint32_t n;

	(void)w;
	return virq_avic_resolve(t, NULL, &icr, NULL, NULL, &n);
}
static virq_status m_vcpu_init(struct w *w, struct virq_avic_vm *t)
{
	struct virq_avic_vcpu_cfg vc = {.index = 3, .apic_id = 3};

	return virq_avic_vcpu_init(t, &w->v_new, &vc);
}
static virq_status m_reg_add(struct w *w, struct virq_avic_vm *t)
{
	return virq_avic_registry_add(&w->reg, t);
}
static virq_status m_reg_remove(struct w *w, struct virq_avic_vm *t)
{
	return virq_avic_registry_remove(&w->reg, t);
}

static const struct mcase mcases[] = {
    {"vm_init", m_init, EBUSY_, EBUSY_, EBUSY_, OK_},
    {"vm_destroy", m_destroy, OK_, EBUSY_, EBUSY_, EINVAL_},
    {"vm_set_policy", m_policy, OK_, OK_, OK_, 0},
    {"vm_calibrate", m_calibrate, OK_ | EHW_, OK_ | EHW_, OK_ | EHW_, 0},
    {"vm_inhibit", m_inhibit, OK_, OK_, OK_, 0},
    {"vm_uninhibit", m_uninhibit, OK_, OK_, OK_, 0},
    {"vm_counters", m_counters, OK_, OK_, OK_, 0},
    {"resolve", m_resolve, OK_, OK_, OK_, 0},
    {"vcpu_init (in the VM)", m_vcpu_init, OK_, OK_, OK_, 0},
    {"registry_add", m_reg_add, OK_, OK_, EEXIST_, 0},
    {"registry_remove", m_reg_remove, ENOENT_, ENOENT_, OK_, 0},
};

static void test_vm_states(void **s)
{
	unsigned long before = cases_;

	(void)s;
	for (size_t k = 0; k < sizeof(mcases) / sizeof(mcases[0]); k++) {
		for (int st = 0; st < S_COUNT; st++) {
			struct w *w = w_new_();
			struct virq_avic_vm *t = vm_in_(w, st);
			const struct mcase *c = &mcases[k];
			uint32_t allowed = st == S_LIVE		     ? c->live
					   : st == S_BUSY	     ? c->busy
					   : st == S_BUSY2	     ? c->busy2
					   : c->dead && st != S_NULL ? c->dead
								     : EINVAL_;

			if (c->call == m_destroy && st == S_NULL)
				allowed = OK_;
			if (k == 0) {
				uint64_t d = 1, kk = 1;

				(void)virq_avic_vm_policy(t);
				(void)virq_avic_vm_inhibits(t);
				virq_avic_vm_calibration(t, &d, &kk);
				if (st == S_NULL || st == S_ZERO || st == S_DEAD)
					assert_true(d == 0 && kk == 0 &&
						    virq_avic_vm_inhibits(t) != 0);
				cases_ += 3;
			}
			check_(c->name, st, c->call(w, t), allowed);
			w_free_(w);
		}
	}
	SWEEP_REPORT("avic misuse VM (entry points x states)", cases_ - before);
}

/* ---- GA-tag registry ---- */

static struct virq_avic_registry *reg_in_(struct w *w, int s)
{
	switch (s) {
	case S_NULL:
		return NULL;
	case S_ZERO:
		return &w->reg_zero;
	case S_DEAD:
		return &w->reg_dead;
	case S_BUSY:
	case S_BUSY2:
		assert_int_equal(virq_avic_registry_add(&w->reg, &w->vm), LIBVIRQ_OK);
		return &w->reg;
	default:
		return &w->reg;
	}
}

struct rcase {
	const char *name;
	virq_status (*call)(struct w *w, struct virq_avic_registry *t);
	uint32_t live, busy, dead;
};

static virq_status r_init(struct w *w, struct virq_avic_registry *t)
{
	return virq_avic_registry_init(t, w->slots2, 8);
}
static virq_status r_destroy(struct w *w, struct virq_avic_registry *t)
{
	(void)w;
	return virq_avic_registry_destroy(t);
}
static virq_status r_add(struct w *w, struct virq_avic_registry *t)
{
	return virq_avic_registry_add(t, &w->vm);
}
static virq_status r_remove(struct w *w, struct virq_avic_registry *t)
{
	return virq_avic_registry_remove(t, &w->vm);
}
static virq_status r_lookup(struct w *w, struct virq_avic_registry *t)
{
	struct virq_avic_vcpu *v;

	(void)w;
	return virq_avic_registry_lookup(t, (3u << 12) | 1u, NULL, &v);
}
static virq_status r_galog(struct w *w, struct virq_avic_registry *t)
{
	(void)w;
	return virq_avic_ga_log_handle(t, (1ull << 60) | (3u << 12) | 1u, NULL);
}

static const struct rcase rcases[] = {
    {"registry_init", r_init, EBUSY_, EBUSY_, OK_},
    {"registry_destroy", r_destroy, OK_, EBUSY_, EINVAL_},
    {"registry_add", r_add, OK_, EEXIST_, 0},
    {"registry_remove", r_remove, ENOENT_, OK_, 0},
    {"registry_lookup", r_lookup, ENOENT_, OK_, 0},
    {"ga_log_handle", r_galog, ENOENT_, OK_, 0},
};

static void test_registry_states(void **s)
{
	unsigned long before = cases_;

	(void)s;
	for (size_t k = 0; k < sizeof(rcases) / sizeof(rcases[0]); k++) {
		for (int st = 0; st < S_COUNT; st++) {
			struct w *w = w_new_();
			struct virq_avic_registry *t = reg_in_(w, st);
			const struct rcase *c = &rcases[k];
			uint32_t allowed = st == S_LIVE			   ? c->live
					   : st == S_BUSY || st == S_BUSY2 ? c->busy
					   : c->dead && st != S_NULL	   ? c->dead
									   : EINVAL_;

			if (c->call == r_destroy && st == S_NULL)
				allowed = OK_;
			check_(c->name, st, c->call(w, t), allowed);
			w_free_(w);
		}
	}
	SWEEP_REPORT("avic misuse registry (entry points x states)", cases_ - before);
}

/* ---- IRTE reference: zeroed, attached here, attached to another vCPU, detached ---- */

static void test_irte_ref_states(void **s)
{
	unsigned long before = cases_;

	(void)s;
	for (int st = 0; st < 4; st++) {
		for (int k = 0; k < 3; k++) {
			struct w *w = w_new_();
			virq_status r;

			if (st == 1 || st == 3)
				assert_int_equal(
				    virq_avic_irte_attach(&w->v[1], &w->ref, w->irte, 0x40),
				    LIBVIRQ_OK);
			if (st == 2)
				assert_int_equal(
				    virq_avic_irte_attach(&w->v[0], &w->ref, w->irte, 0x40),
				    LIBVIRQ_OK);
			if (st == 3)
				assert_int_equal(virq_avic_irte_detach(&w->v[1], &w->ref),
						 LIBVIRQ_OK);
			switch (k) {
			case 0: /* attach to vCPU 1 */
				r = virq_avic_irte_attach(&w->v[1], &w->ref, w->irte2, 0x41);
				check_("irte_attach", S_LIVE, r,
				       st == 1 || st == 2 ? EEXIST_ : OK_);
				break;
			case 1: /* detach from vCPU 1 */
				r = virq_avic_irte_detach(&w->v[1], &w->ref);
				check_("irte_detach", S_LIVE, r, st == 1 ? OK_ : ENOENT_);
				break;
			default: /* the same IRTE through another reference */
				r = virq_avic_irte_attach(&w->v[1], &w->ref2, w->irte, 0x41);
				check_("irte_attach (IRTE already attached)", S_LIVE, r,
				       st == 1 || st == 2 ? EEXIST_ : OK_);
				break;
			}
			/* Whatever happened, loading both vCPUs walks only live references. */
			{
				virq_status t0 = virq_avic_vcpu_put(&w->v[0]);

				assert_int_equal(t0, LIBVIRQ_OK);
			}
			run_(&w->v[0], 3);
			run_(&w->v[1], 4);
			w_free_(w);
		}
	}
	SWEEP_REPORT("avic misuse IRTE reference (operations x states)", cases_ - before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vcpu_states),
	    cmocka_unit_test(test_vm_states),
	    cmocka_unit_test(test_registry_states),
	    cmocka_unit_test(test_irte_ref_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
