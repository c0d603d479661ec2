/* SPDX-License-Identifier: MIT */
/*
 * Fault-injection sweep of the ITS command queue (IHI 0069H §5.2): every
 * allocation of virq_its_queue_init() fails in turn; every waiting operation
 * (wait, drain, submit, push on a full queue, reset) meets an ITS that never
 * consumes or never becomes quiescent. Afterwards: nothing leaked, the ITS
 * saw no half-written command (every command the model consumed is one that
 * was pushed whole), the wait was bounded by the configured deadline, and the
 * queue is cleanly dead (EDEAD) until reset, then usable again.
 */
#include <libvirq/virq.h>
#include <libvirq/gicv4/its_cmd.h>
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/gicv4/its_regs.h>

#include <libvirq/sim/gic.h>
#include <libvirq/sim/its.h>
#include "sweep.h"

#define ITS LIBVIRQ_SIM_GIC_ITS0_BASE
#define TIMEOUT_NS 200000ull

struct env {
	struct virq_sim *sim;
	struct virq_sim_its *m;
	struct virq_hal hal;
	struct virq_its_queue q;
	struct virq_its_queue_cfg cfg;
};

static void env_new_(struct env *e, const struct virq_sim_its_cfg *mc)
{
	memset(e, 0, sizeof(*e));
	e->sim = virq_sim_new();
	e->m = virq_sim_its_new(e->sim, ITS, mc);
	e->hal = virq_sim_hal(e->sim);
	e->cfg.timeout_ns = TIMEOUT_NS;
}

static void env_free_(struct env *e)
{
	assert_int_equal(virq_its_queue_fini(&e->q), LIBVIRQ_OK);
	sweep_no_leak(e->sim, 0);
	virq_sim_free(e->sim); /* before the model: the fake HAL holds its hooks */
	virq_sim_its_free(e->m);
}

static struct virq_its_cmd cmd_(uint32_t k)
{
	return virq_its_mapti(k >> 8, k & 0xFF, 8192 + k, k & 0x7);
}

/* Every command the model consumed is one of ours, whole: MAPTI k, k+1, ... */
static void model_saw_whole_(struct env *e, size_t from, uint32_t first)
{
	for (size_t i = from; i < virq_sim_its_ncmds(e->m); i++) {
		const struct virq_sim_its_cmd *c = virq_sim_its_cmd_at(e->m, i);
		uint32_t k = first + (uint32_t)(i - from);

		assert_true(c->known);
		assert_int_equal(c->op, 0x0A);
		assert_int_equal(c->dev, k >> 8);
		assert_int_equal(c->ev, k & 0xFF);
		assert_int_equal(c->pintid, 8192 + k);
		assert_int_equal(c->icid, k & 0x7);
	}
}

/* Usable: a submit completes and the model sees exactly that command. */
static void usable_(struct env *e, uint32_t k)
{
	size_t before = virq_sim_its_ncmds(e->m);
	struct virq_its_cmd c = cmd_(k);

	assert_int_equal(virq_its_queue_submit(&e->q, &c, NULL, NULL, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(e->m), before + 1);
	model_saw_whole_(e, before, k);
}

static void test_init_alloc_fail_every_n(void **s)
{
	unsigned long n, cases = 0;

	(void)s;
	for (n = 1;; n++) {
		struct env e;
		struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
		virq_status st;

		env_new_(&e, &mc);
		virq_sim_fail_alloc_nth(e.sim, n);
		st = virq_its_queue_init(&e.q, &e.hal, ITS, 64 * 1024, &e.cfg);
		cases++;
		if (st == LIBVIRQ_OK) {
			virq_sim_its_enable(e.m, true);
			usable_(&e, 1);
			env_free_(&e);
			break;
		}
		assert_int_equal(st, LIBVIRQ_ENOMEM);
		sweep_no_leak(e.sim, 0);
		/* GITS_CBASER untouched: no half-programmed queue. */
		assert_int_equal(virq_sim_its_cbaser(e.m) >> 63, 0);
		/* Cleanly failed: a new init on the same storage succeeds. */
		virq_sim_fail_alloc_nth(e.sim, 0);
		assert_int_equal(virq_its_queue_init(&e.q, &e.hal, ITS, 64 * 1024, &e.cfg),
				 LIBVIRQ_OK);
		virq_sim_its_enable(e.m, true);
		usable_(&e, 2);
		env_free_(&e);
	}
	assert_true(n >= 2);
	SWEEP_REPORT("its_queue_init alloc", cases);
}

enum wait_op { OP_WAIT, OP_DRAIN, OP_SUBMIT, OP_PUSH_FULL, OP_COUNT };

static const char *const op_name_[OP_COUNT] = {"wait", "drain", "submit", "push-full"};

/* Runs @op against a dead ITS; returns its status. */
static virq_status dead_op_(struct env *e, enum wait_op op, uint32_t *pushed)
{
	struct virq_its_cmd c = cmd_(0);
	struct virq_its_queue_diag d;
	uint64_t ticket;
	virq_status st = LIBVIRQ_OK;
	uint32_t cap = virq_its_queue_capacity(&e->q);

	*pushed = 0;
	switch (op) {
	case OP_WAIT:
		assert_int_equal(virq_its_queue_push(&e->q, &c, NULL, NULL, NULL), LIBVIRQ_OK);
		assert_int_equal(virq_its_queue_publish(&e->q, &ticket), LIBVIRQ_OK);
		return virq_its_queue_wait(&e->q, ticket, &d);
	case OP_DRAIN:
		assert_int_equal(virq_its_queue_push(&e->q, &c, NULL, NULL, NULL), LIBVIRQ_OK);
		return virq_its_queue_drain(&e->q, &d);
	case OP_SUBMIT:
		return virq_its_queue_submit(&e->q, &c, NULL, NULL, &d);
	default:
		for (uint32_t k = 0; k <= cap && st == LIBVIRQ_OK; k++) {
			c = cmd_(k);
			st = virq_its_queue_push(&e->q, &c, NULL, NULL, NULL);
			if (st == LIBVIRQ_OK)
				(*pushed)++;
		}
		assert_int_equal(*pushed, cap);
		return st;
	}
}

static void test_every_wait_times_out(void **s)
{
	unsigned long cases = 0;

	(void)s;
	for (int op = 0; op < OP_COUNT; op++) {
		for (int size_kb = 4; size_kb <= 64; size_kb *= 16) {
			struct env e;
			struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
			struct virq_its_cmd c = cmd_(9);
			uint64_t t0;
			uint32_t pushed;
			virq_status st;

			env_new_(&e, &mc);
			assert_int_equal(virq_its_queue_init(&e.q, &e.hal, ITS,
							     (uint32_t)size_kb * 1024, &e.cfg),
					 LIBVIRQ_OK);
			virq_sim_its_enable(e.m, true);
			usable_(&e, 1);
			virq_sim_its_set_dead(e.m, true);
			t0 = virq_sim_now(e.sim);
			st = dead_op_(&e, (enum wait_op)op, &pushed);
			print_message("%s (%d KiB): %s after %llu ns\n", op_name_[op], size_kb,
				      virq_strerror(st),
				      (unsigned long long)(virq_sim_now(e.sim) - t0));
			assert_int_equal(st, LIBVIRQ_ETIMEDOUT);
			/* Bounded: the deadline plus one poll interval. */
			assert_true(virq_sim_now(e.sim) - t0 <= TIMEOUT_NS + 2000);
			/* Cleanly dead until reset. */
			assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, NULL),
					 LIBVIRQ_EDEAD);
			assert_int_equal(virq_its_queue_publish(&e.q, NULL), LIBVIRQ_EDEAD);
			assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_EDEAD);
			/* The ITS consumed nothing half-written (the model, now alive, sees
			 * only whole commands after the reset). */
			virq_sim_its_set_dead(e.m, false);
			assert_int_equal(virq_its_queue_reset(&e.q), LIBVIRQ_OK);
			assert_int_equal(virq_sim_its_ncmds(e.m), 1);
			usable_(&e, 100);
			usable_(&e, 101);
			env_free_(&e);
			cases++;
		}
	}
	SWEEP_REPORT("its_queue waits timing out", cases);
}

/* GITS_CTLR read as Enabled and never Quiescent (a wedged ITS). */
static uint64_t wedged_ctlr_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	(void)arg;
	(void)sim;
	(void)addr;
	(void)width;
	return 0x1;
}

/* reset itself waits for Quiescent: an ITS that never gets there. */
static void test_reset_times_out_stays_dead(void **s)
{
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_its_cmd c = cmd_(3);
	uint64_t t0;
	uint32_t pushed;

	(void)s;
	env_new_(&e, &mc);
	assert_int_equal(virq_its_queue_init(&e.q, &e.hal, ITS, 4096, &e.cfg), LIBVIRQ_OK);
	virq_sim_its_enable(e.m, true);
	usable_(&e, 1);
	virq_sim_its_set_dead(e.m, true);
	assert_int_equal(dead_op_(&e, OP_SUBMIT, &pushed), LIBVIRQ_ETIMEDOUT);
	/* A later region overrides the model's GITS_CTLR. */
	virq_sim_add_region(e.sim, ITS + LIBVIRQ_GITS_CTLR, 4, wedged_ctlr_, NULL, NULL);
	t0 = virq_sim_now(e.sim);
	assert_int_equal(virq_its_queue_reset(&e.q), LIBVIRQ_ETIMEDOUT);
	assert_true(virq_sim_now(e.sim) - t0 <= TIMEOUT_NS + 2000);
	assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, NULL), LIBVIRQ_EDEAD);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_EDEAD);
	env_free_(&e);
	SWEEP_REPORT("its_queue reset never quiescent", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_alloc_fail_every_n),
	    cmocka_unit_test(test_every_wait_times_out),
	    cmocka_unit_test(test_reset_times_out_stays_dead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
