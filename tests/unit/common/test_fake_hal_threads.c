/* SPDX-License-Identifier: MIT */
/*
 * The fake HAL under concurrent use (label `concurrency`, run under
 * ThreadSanitizer by scripts/test): module stress tests (AVIC posting, GICv4
 * doorbells) call it from several threads, so its counters, register file,
 * page allocator, trace and hooks must stay exact and race-free.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <cmocka.h>

#include <libvirq/hal.h>
#include <libvirq/sim/hal.h>

#define THREADS 4
#define ITERS 2000

struct worker {
	struct virq_sim *sim;
	unsigned id;
	int cookie;
};

static uint64_t counter_rd(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	unsigned long *n = arg;

	(void)sim;
	(void)addr;
	(void)width;
	return ++*n; /* runs under the fake HAL's lock */
}

static void *work(void *p)
{
	struct worker *w = p;
	struct virq_hal h = virq_sim_hal(w->sim);
	uint64_t base = 0x100000ull * (w->id + 1);

	for (unsigned i = 0; i < ITERS; i++) {
		struct virq_page pg;

		h.ops->mmio_write32(h.ctx, base + 4ull * (i % 64), i);
		(void)h.ops->mmio_read32(h.ctx, 0x10); /* shared hooked register */
		h.ops->kick_vcpu(h.ctx, &w->cookie);
		(void)h.ops->msr_write(h.ctx, 0x1000 + w->id, i);
		h.ops->relax(h.ctx);
		if (i % 50 == 0 && h.ops->page_alloc(h.ctx, 4096, 4096, &pg) == LIBVIRQ_OK)
			h.ops->page_free(h.ctx, &pg);
	}
	return NULL;
}

static void test_parallel_accesses_are_exact(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct worker w[THREADS];
	pthread_t t[THREADS];
	unsigned long shared = 0;

	(void)state;
	virq_sim_on_reg(sim, 0x10, counter_rd, NULL, &shared);
	virq_sim_trace(sim, true);
	for (unsigned i = 0; i < THREADS; i++) {
		w[i] = (struct worker){sim, i, 0};
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (unsigned i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);

	assert_int_equal(shared, THREADS * ITERS); /* the hook's counter saw every read */
	assert_int_equal(virq_sim_count(sim, LIBVIRQ_SIM_MMIO_W32), THREADS * ITERS);
	assert_int_equal(virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_R32, 0x10), THREADS * ITERS);
	assert_int_equal(virq_sim_count(sim, LIBVIRQ_SIM_MSR_W), THREADS * ITERS);
	assert_int_equal(virq_sim_count(sim, LIBVIRQ_SIM_RELAX), THREADS * ITERS);
	assert_int_equal(virq_sim_now(sim), 1000ull * THREADS * ITERS);
	assert_int_equal(virq_sim_count(sim, LIBVIRQ_SIM_ALLOC), THREADS * (ITERS / 50));
	assert_int_equal(virq_sim_live_pages(sim), 0);
	for (unsigned i = 0; i < THREADS; i++) {
		assert_int_equal(virq_sim_kicks_of(sim, &w[i].cookie), ITERS);
		assert_int_equal(virq_sim_msr_get(sim, 0x1000 + i), ITERS - 1);
		assert_int_equal(virq_sim_reg_get32(sim, 0x100000ull * (i + 1) + 4 * 63),
				 (ITERS - 64) / 64 * 64 + 63); /* last i with i % 64 == 63 */
	}
	assert_int_equal(virq_sim_trace_len(sim), THREADS * (5 * ITERS + 2 * (ITERS / 50)));
	virq_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parallel_accesses_are_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
