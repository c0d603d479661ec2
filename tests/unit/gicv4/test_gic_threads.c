/* SPDX-License-Identifier: MIT */
/*
 * The Thread-safety claims of gicv4/gic.h, gicv4/its.h and gicv4/vpe.h that
 * neither the interleaving sweep nor the stateful fuzzer exercise (they run
 * one CPU at a time), with real threads, under ThreadSanitizer in CI (label
 * concurrency): on one GICv4.1 GIC at once
 * - virq_vpe_vsgi_send() to one vPE from every thread ("safe concurrently
 *   with other vSGI sends"): every send reaches GITS_SGIR;
 * - virq_gic_vm_vlpi_config() on different vINTIDs of one VM and
 *   virq_lpi_set_config() on different LPIs ("different vINTIDs / INTIDs
 *   concurrently"): every byte holds what its thread wrote last;
 * - virq_gic_find_rdist() ("read-only; safe concurrently with other
 *   readers") and virq_its_probe() of ITS 1 ("concurrently with any call on
 *   another ITS") while one thread maps and unmaps devices and vLPIs on
 *   ITS 0 under its lock hook.
 */
#include <pthread.h>

#include "its_fixture.h"

#define NTHREADS 4
#define ROUNDS 400
#define ITS_BASE_ 0x20000000ull
#define ITS_STRIDE_ 0x100000ull

struct shared {
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	struct virq_its_device dev;
	uint32_t lpi[NTHREADS];
	pthread_mutex_t its_mutex;
};

struct worker {
	struct shared *s;
	unsigned id;
	virq_status bad;
	const char *what;
};

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
	struct shared *s = w->s;
	struct virq_its_id id;
	uint32_t rd;

	for (uint32_t i = 0; i < ROUNDS; i++) {
		uint8_t prio = (uint8_t)((i & 0xF) << 4);

		TRY(w, virq_vpe_vsgi_send(&s->vpe, (w->id * 4 + i) % 16));
		TRY(w, virq_gic_vm_vlpi_config(&s->vm, 8192 + w->id * 64 + i % 64, prio, true));
		TRY(w, virq_lpi_set_config(&s->f.g.gic, s->lpi[w->id], prio, i & 1));
		TRY(w, virq_gic_find_rdist(&s->f.g.gic, w->id % s->f.g.gic.nr_rd, &rd));
		TRY(w, virq_its_probe(&s->f.g.gic, &s->f.g.desc.its[1], &id));
		if (w->id == 0) { /* another ITS's calls meanwhile */
			TRY(w, virq_its_device_map(&s->f.its[0], &s->dev, 9, 8));
			TRY(w, virq_vlpi_map(&s->dev, 1, &s->vpe, 8192 + NTHREADS * 64, true));
			TRY(w, virq_vlpi_unmap(&s->dev, 1));
			TRY(w, virq_its_device_unmap(&s->dev));
		}
	}
	return NULL;
}

/* GICv4.1, 2 RDs, ITS 0 (vSGI frame, lock hook) and ITS 1 (probed only). */
static void setup_(struct shared *s)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx *f = &s->f;
	struct virq_its_cfg cfg;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->its_mutex, NULL);
	rc.version = 41;
	rc.nr = 2;
	fx_setup(&f->g, &rc);
	f->nits = 2;
	f->g.desc.nr_its = 2;
	for (unsigned i = 0; i < 2; i++) {
		struct virq_sim_its_state_cfg c = virq_sim_its_state_default_cfg(0);

		c.base = ITS_BASE_ + i * ITS_STRIDE_;
		c.rm = f->g.rm;
		c.typer = LIBVIRQ_SIM_GITS_TYPER_QEMU_V41 | (1ull << 39); /* VSGI */
		c.vsgi_frame = true;
		f->sm[i] = virq_sim_its_state_new(f->g.sim, &c);
		f->g.desc.its[i].base = c.base;
		f->g.desc.its[i].size = 0x30000;
	}
	assert_int_equal(virq_gic_init(&f->g.gic, &f->g.hal, &f->g.desc, f->g.rds, FX_MAX_RD, 16),
			 LIBVIRQ_OK);
	assert_int_equal(virq_gic_dist_enable(&f->g.gic), LIBVIRQ_OK);
	for (unsigned r = 0; r < 2; r++)
		assert_int_equal(virq_gic_rdist_init(&f->g.gic, r), LIBVIRQ_OK);
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.lock.acquire = mutex_acquire_;
	cfg.lock.release = mutex_release_;
	cfg.lock.arg = &s->its_mutex;
	assert_int_equal(virq_its_init(&f->its[0], &f->g.gic, &f->g.desc.its[0], &cfg), LIBVIRQ_OK);
	for (unsigned r = 0; r < 2; r++)
		assert_int_equal(virq_its_map_collection(&f->its[0], r), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&s->vm, &f->g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&s->vpe, &s->vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	for (unsigned i = 0; i < NTHREADS; i++)
		assert_int_equal(virq_lpi_alloc(&f->g.gic, 1, &s->lpi[i]), LIBVIRQ_OK);
}

static void test_concurrent_claims(void **state)
{
	struct shared *s = calloc(1, sizeof(*s));
	struct worker w[NTHREADS];
	pthread_t th[NTHREADS];
	const uint8_t *vprop;

	(void)state;
	assert_non_null(s);
	setup_(s);
	for (unsigned i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){s, i, LIBVIRQ_OK, NULL};
		assert_int_equal(pthread_create(&th[i], NULL, run_, &w[i]), 0);
	}
	for (unsigned i = 0; i < NTHREADS; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		if (w[i].bad != LIBVIRQ_OK)
			fail_msg("thread %u: %s = %s", i, w[i].what, virq_status_name(w[i].bad));
	}
	assert_int_equal(virq_sim_its_state_sgir_writes(s->f.sm[0]), NTHREADS * ROUNDS);
	assert_int_equal(virq_sim_rdist_vsgi_pending(s->f.g.rm, s->vpe.vpeid), 0xFFFF);
	/* Each byte is its own thread's last write (round k + 64 n, the last). */
	vprop = s->vm.vprop.va;
	for (unsigned t = 0; t < NTHREADS; t++)
		for (unsigned k = 0; k < 64; k++) {
			unsigned last = k + 64 * ((ROUNDS - 1 - k) / 64);

			assert_int_equal(vprop[t * 64 + k] & 0xF0, (last & 0xF) << 4);
		}
	itsfx_no_errors(&s->f);
	assert_int_equal(virq_vpe_destroy(&s->vpe), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&s->vm), LIBVIRQ_OK);
	for (unsigned i = 0; i < NTHREADS; i++)
		assert_int_equal(virq_lpi_free(&s->f.g.gic, s->lpi[i], 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_destroy(&s->f.its[0]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&s->f.g.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(s->f.g.sim), 0);
	fx_teardown(&s->f.g);
	for (unsigned i = 0; i < 2; i++)
		virq_sim_its_state_free(s->f.sm[i]);
	pthread_mutex_destroy(&s->its_mutex);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_concurrent_claims),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
