/* SPDX-License-Identifier: MIT */
/*
 * Several threads send commands to one ITS at once, each on its own
 * devices, events and vPE, with a pthread mutex as the embedder's ITS lock
 * (::virq_its_cfg::lock): device map/unmap, vLPI map/unmap, INT / CLEAR /
 * INV, doorbell on/off and VMOVP. Every command must reach the ITS model
 * intact (no model error, the model executed exactly the commands the
 * library counted) and, under ThreadSanitizer (preset tsan, label
 * concurrency), without a data race.
 */
#include <pthread.h>

#include "its_fixture.h"

#define NTHREADS 4
#define ROUNDS 300

struct worker {
	struct virq_its *its;
	struct virq_gic_vm *vm;
	struct virq_vpe vpe;
	struct virq_its_device dev, extra;
	uint32_t id, db;
	virq_status bad;
	const char *what;
};

static pthread_mutex_t its_mutex_ = PTHREAD_MUTEX_INITIALIZER;

static void mutex_acquire_(void *arg)
{
	(void)pthread_mutex_lock(arg);
}

static void mutex_release_(void *arg)
{
	(void)pthread_mutex_unlock(arg);
}

#define TRY(w, expr)                                                                               \
	do {                                                                                       \
		virq_status st_ = (expr);                                                          \
		if (st_ != LIBVIRQ_OK) {                                                           \
			(w)->bad = st_;                                                            \
			(w)->what = #expr;                                                         \
			return NULL;                                                               \
		}                                                                                  \
	} while (0)

static void *run_(void *p)
{
	struct worker *w = p;

	for (int i = 0; i < ROUNDS; i++) {
		uint32_t e = 1 + (uint32_t)(i % 6);

		TRY(w, virq_its_int(&w->dev, 0));
		TRY(w, virq_its_clear(&w->dev, 0));
		TRY(w, virq_vlpi_map(&w->dev, e, &w->vpe, 8192 + e, true));
		TRY(w, virq_its_inv(&w->dev, e));
		TRY(w, virq_vlpi_set_doorbell(&w->dev, e, (i & 1) != 0));
		TRY(w, virq_vlpi_unmap(&w->dev, e));
		if ((i & 7) == 0) {
			/* The ITS's device list and tables, from every thread. */
			TRY(w, virq_its_device_map(w->its, &w->extra, 64 + w->id, 4));
			TRY(w, virq_its_device_unmap(&w->extra));
		}
		if ((i & 3) == 0)
			TRY(w, virq_vpe_move(&w->vpe, (w->vpe.rd + 1) % NTHREADS));
	}
	return NULL;
}

static void test_its_commands_from_threads(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_its_cfg cfg;
	struct virq_gic_vm vm;
	struct worker w[NTHREADS];
	pthread_t t[NTHREADS];
	struct virq_sim_its *q;
	uint64_t cmds0;

	(void)state;
	rc.nr = NTHREADS;
	itsfx_setup(&f, &rc, NULL, 1, false);
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.proxy_doorbells = true;
	cfg.lock.acquire = mutex_acquire_;
	cfg.lock.release = mutex_release_;
	cfg.lock.arg = &its_mutex_;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	for (unsigned r = 0; r < NTHREADS; r++)
		assert_int_equal(virq_its_map_collection(&f.its[0], r), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	memset(w, 0, sizeof(w));
	for (uint32_t i = 0; i < NTHREADS; i++) {
		uint32_t lpi;

		w[i].its = &f.its[0];
		w[i].vm = &vm;
		w[i].id = i;
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &w[i].db), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&w[i].vpe, &vm, i, w[i].db), LIBVIRQ_OK);
		assert_int_equal(virq_its_device_map(&f.its[0], &w[i].dev, 1 + i, 8), LIBVIRQ_OK);
		assert_int_equal(virq_its_map_lpi(&w[i].dev, 0, lpi, i), LIBVIRQ_OK);
	}
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_clear_log(q);
	cmds0 = f.its[0].cmds;
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run_, &w[i]), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		if (w[i].bad != LIBVIRQ_OK)
			fail_msg("thread %d: %s returned %s", i, w[i].what,
				 virq_strerror(w[i].bad));
	/* Every command the library counted reached the ITS, nothing else. */
	assert_int_equal(virq_sim_its_ncmds(q), f.its[0].cmds - cmds0);
	assert_true(f.its[0].cmds - cmds0 > (uint64_t)NTHREADS * ROUNDS * 10);
	itsfx_no_errors(&f);
	for (uint32_t i = 0; i < NTHREADS; i++) {
		assert_int_equal(virq_its_unmap_event(&w[i].dev, 0), LIBVIRQ_OK);
		assert_int_equal(virq_its_device_unmap(&w[i].dev), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_destroy(&w[i].vpe), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_its_commands_from_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
