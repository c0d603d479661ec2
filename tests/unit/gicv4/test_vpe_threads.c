/* SPDX-License-Identifier: MIT */
/*
 * Residency on different vPEs and redistributors from several threads at
 * once (the documented concurrency: no lock inside the library). Run under
 * ThreadSanitizer with the tsan preset (label concurrency).
 */
#include <pthread.h>

#include "its_fixture.h"

#define NTHREADS 4
#define ROUNDS 2000

struct worker {
	struct virq_vpe *vpe;
	uint32_t rd;
	unsigned long ok;
	virq_status bad;
};

static void *run_(void *p)
{
	struct worker *w = p;

	for (int i = 0; i < ROUNDS; i++) {
		bool pl = true;
		virq_status st = virq_vpe_load(w->vpe, w->rd);

		if (st == LIBVIRQ_OK)
			st = virq_vpe_put(w->vpe, &pl);
		if (st == LIBVIRQ_OK && (i & 7) == 0) {
			st = virq_vpe_wfi_enter(w->vpe);
			if (st == LIBVIRQ_OK)
				st = virq_vpe_load(w->vpe, w->rd); /* stays out */
			if (st == LIBVIRQ_OK)
				st = virq_vpe_wfi_exit(w->vpe);
		}
		if (st != LIBVIRQ_OK) {
			w->bad = st;
			return NULL;
		}
		w->ok += !pl;
	}
	return NULL;
}

static void threads_(int version)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v[NTHREADS];
	struct worker w[NTHREADS];
	pthread_t t[NTHREADS];
	uint32_t db;

	rc.nr = NTHREADS;
	rc.version = version;
	rc.dirty = true;
	rc.dirty_polls = 1;
	if (version == 41)
		ic.typer = QEMU_TYPER_40 | (1ull << 40);
	itsfx_setup(&f, &rc, &ic, 1, true);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	/* One doorbell each: the workers block in WFI (virq_vpe_wfi_enter()). */
	assert_int_equal(virq_lpi_alloc(&f.g.gic, NTHREADS, &db), LIBVIRQ_OK);
	for (uint32_t i = 0; i < NTHREADS; i++) {
		assert_int_equal(virq_vpe_init(&v[i], &vm, i, db + i), LIBVIRQ_OK);
		w[i] = (struct worker){&v[i], i, 0, LIBVIRQ_OK};
	}
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run_, &w[i]), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (uint32_t i = 0; i < NTHREADS; i++) {
		assert_int_equal(w[i].bad, LIBVIRQ_OK);
		/* Nothing pending: PendingLast 0 on 4.0; on 4.1 a put without a
		 * doorbell request always reports PendingLast (the GIC does not say). */
		assert_int_equal(w[i].ok, version == 40 ? ROUNDS : 0);
		assert_false(v[i].flags & LIBVIRQ_VPE_RESIDENT);
		assert_int_equal(f.g.rds[i].resident_vpe, LIBVIRQ_VPEID_NONE);
		assert_int_equal(virq_sim_rdist_vpendbaser(f.g.rm, i) >> 63, 0);
		assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_threads_v40(void **state)
{
	(void)state;
	threads_(40);
}

static void test_threads_v41(void **state)
{
	(void)state;
	threads_(41);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_threads_v40),
	    cmocka_unit_test(test_threads_v41),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
