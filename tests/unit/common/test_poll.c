/* SPDX-License-Identifier: MIT */
/*
 * Bounded polling (src/common/poll.c) on the fake HAL clock:
 *  - a register that settles after k reads is matched with exactly k reads
 *    and k-1 relaxes;
 *  - a register that never settles times out after a bounded number of reads,
 *    returns LIBVIRQ_ETIMEDOUT and the last value read; one read happens after the
 *    deadline is observed;
 *  - a zero timeout is a single read;
 *  - the deadline is measured from the first read, tolerates clock
 *    wrap-around, and works without a relax callback when the clock
 *    advances on its own;
 *  - fast path: a register already in the wanted state costs one read and
 *    no now_ns() call;
 *  - a broken clock (stopped, running backwards, jumping back or forward)
 *    never hangs a wait: it ends with LIBVIRQ_ETIMEDOUT by the round limit
 *    (timeout_ns / poll_round_ns + 1) and a warning, and a clock that jumps
 *    back does not end a wait early.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/hal.h>
#include <libvirq/sim/hal.h>

#define REG 0x10000ull
#define REG64 0x20000ull

struct settle {
	unsigned long reads; /* reads so far */
	unsigned long k;     /* the k-th read returns `good` */
	uint64_t good, bad;
};

static uint64_t settle_rd(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct settle *s = arg;

	(void)sim;
	(void)addr;
	(void)width;
	return ++s->reads >= s->k ? s->good : s->bad;
}

static struct virq_sim *sim_;
static struct virq_hal hal_;

static int setup(void **state)
{
	(void)state;
	sim_ = virq_sim_new();
	hal_ = virq_sim_hal(sim_);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	virq_sim_free(sim_);
	return 0;
}

static void test_match_after_k_reads(void **state)
{
	(void)state;
	for (unsigned long k = 1; k <= 20; k++) {
		struct settle s = {0, k, 0x80000001u, 0x1u};
		uint32_t last = 0;

		teardown(NULL);
		setup(NULL);
		virq_sim_add_region(sim_, REG, 4, settle_rd, NULL, &s);
		assert_int_equal(virq_poll32(&hal_, REG, 0x80000000u, 0x80000000u, 1000000, &last),
				 LIBVIRQ_OK);
		assert_int_equal(s.reads, k);
		assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), k);
		assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), k - 1);
		assert_int_equal(virq_sim_mmio_total(sim_), k); /* reads only, no writes */
		assert_int_equal(last, 0x80000001u);
	}
}

static void test_timeout_bounded_with_last_value(void **state)
{
	uint32_t last = 0;

	(void)state;
	virq_sim_reg_set32(sim_, REG, 0x5a);
	virq_sim_set_relax_step(sim_, 1000);
	/* Deadline 10 us, 1 us per relax: reads at t = 0..10 us, the last one at
	 * the deadline itself. */
	assert_int_equal(virq_poll32(&hal_, REG, 0x1, 0x1, 10000, &last), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(last, 0x5a);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 11);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), 10);
	assert_true(virq_sim_now(sim_) >= 10000);
	assert_true(virq_sim_now(sim_) < 10000 + 1000);
}

static void test_stuck_register_times_out(void **state)
{
	uint32_t last = 0;

	(void)state;
	/* A register that never changes, even when written ("fault injection"). */
	virq_sim_reg_stick32(sim_, REG, 0xdead0001u);
	hal_.ops->mmio_write32(hal_.ctx, REG, 0);
	assert_int_equal(virq_poll32(&hal_, REG, 0x1, 0, 5000, &last), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(last, 0xdead0001u);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 6);
}

static void test_zero_timeout_single_read(void **state)
{
	uint32_t last = 0;

	(void)state;
	virq_sim_reg_set32(sim_, REG, 2);
	assert_int_equal(virq_poll32(&hal_, REG, 0x2, 0x2, 0, &last), LIBVIRQ_OK);
	assert_int_equal(virq_poll32(&hal_, REG, 0x1, 0x1, 0, &last), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(last, 2);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 2);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), 0);
}

static void test_last_is_optional(void **state)
{
	(void)state;
	virq_sim_reg_set32(sim_, REG, 1);
	assert_int_equal(virq_poll32(&hal_, REG, 1, 1, 0, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_poll32(&hal_, REG, 1, 0, 0, NULL), LIBVIRQ_ETIMEDOUT);
	virq_sim_reg_set64(sim_, REG64, 1);
	assert_int_equal(virq_poll64(&hal_, REG64, 1, 1, 0, NULL), LIBVIRQ_OK);
}

static void test_poll64_high_bits(void **state)
{
	struct settle s = {0, 3, 0x8000000000000000ull, 0x00000000ffffffffull};
	uint64_t last = 0;

	(void)state;
	virq_sim_add_region(sim_, REG64, 8, settle_rd, NULL, &s);
	assert_int_equal(
	    virq_poll64(&hal_, REG64, 0x8000000000000000ull, 0x8000000000000000ull, 100000, &last),
	    LIBVIRQ_OK);
	assert_int_equal(last, 0x8000000000000000ull);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R64, REG64), 3);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MMIO_R32), 0); /* single 64-bit reads */

	/* Timeout path of the 64-bit variant keeps the full last value. */
	virq_sim_reg_set64(sim_, 0x30000, 0x123456789abcdef0ull);
	assert_int_equal(virq_poll64(&hal_, 0x30000, UINT64_MAX, 0, 3000, &last),
			 LIBVIRQ_ETIMEDOUT);
	assert_int_equal(last, 0x123456789abcdef0ull);
}

/* A model that makes progress "over time": the register is set on the n-th relax. */
struct later {
	unsigned long relaxes, n;
};

static void later_relax(void *arg, struct virq_sim *sim)
{
	struct later *l = arg;

	if (++l->relaxes == l->n)
		virq_sim_reg_set32(sim, REG, 0x4);
}

static void test_relax_hook_progress(void **state)
{
	struct later l = {0, 7};

	(void)state;
	virq_sim_on_relax(sim_, later_relax, &l);
	assert_int_equal(virq_poll32(&hal_, REG, 0x4, 0x4, 1000000, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 8);
	assert_int_equal(l.relaxes, 7);
}

static void test_deadline_from_entry_and_wrap(void **state)
{
	uint32_t last;

	(void)state;
	/* Clock near the top of the 64-bit range: the deadline wraps. */
	virq_sim_clock_advance(sim_, UINT64_MAX - 2500);
	assert_int_equal(virq_poll32(&hal_, REG, 1, 1, 5000, &last), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 6);
}

static void test_no_relax_callback(void **state)
{
	struct virq_hal_ops ops = *virq_sim_hal_ops();
	struct virq_hal h = {&ops, sim_};

	(void)state;
	ops.relax = NULL;
	/* The clock advances 500 ns per now_ns() call; without relax the loop
	 * is still bounded by the clock: the first read, the start sample, then
	 * reads at +500 .. +2000 ns. */
	virq_sim_set_now_step(sim_, 500);
	assert_int_equal(virq_poll32(&h, REG, 1, 1, 2000, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 5);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), 0);
}

struct cond_arg {
	unsigned calls, until;
};

static bool cond_fn(void *p)
{
	struct cond_arg *c = p;

	return ++c->calls >= c->until;
}

static void test_poll_until(void **state)
{
	struct cond_arg c = {0, 4};

	(void)state;
	assert_int_equal(virq_poll_until(&hal_, cond_fn, &c, 1000000), LIBVIRQ_OK);
	assert_int_equal(c.calls, 4);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), 3);

	c = (struct cond_arg){0, 1000};
	assert_int_equal(virq_poll_until(&hal_, cond_fn, &c, 3000), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(c.calls, 4); /* t = 0, 1, 2, 3 us: the last one after the deadline */

	c = (struct cond_arg){0, 1000};
	assert_int_equal(virq_poll_until(&hal_, cond_fn, &c, 0), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(c.calls, 1);
}

/* A condition that becomes true exactly when the deadline passes still wins. */
static bool true_after_deadline(void *p)
{
	struct virq_sim *sim = p;

	return virq_sim_now(sim) >= 4000;
}

static void test_settles_at_deadline(void **state)
{
	(void)state;
	assert_int_equal(virq_poll_until(&hal_, true_after_deadline, sim_, 4000), LIBVIRQ_OK);
}

/* ---- fast path and broken clocks ---- */

static void test_fast_path_no_clock(void **state)
{
	uint32_t last = 0;
	uint64_t last64 = 0;
	struct cond_arg c = {0, 1};

	(void)state;
	virq_sim_reg_set32(sim_, REG, 0x80000000u);
	virq_sim_reg_set64(sim_, REG64, 0x8000000000000000ull);
	assert_int_equal(virq_poll32(&hal_, REG, 0x80000000u, 0x80000000u, 1000000, &last),
			 LIBVIRQ_OK);
	assert_int_equal(last, 0x80000000u);
	assert_int_equal(virq_poll64(&hal_, REG64, 1ull << 63, 1ull << 63, 1000000, &last64),
			 LIBVIRQ_OK);
	assert_int_equal(last64, 1ull << 63);
	assert_int_equal(virq_poll_until(&hal_, cond_fn, &c, 1000000), LIBVIRQ_OK);
	/* One read each, no clock, no relax. */
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_NOW), 0);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), 0);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 1);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R64, REG64), 1);
	assert_int_equal(c.calls, 1);
	/* A timeout 0 miss is the one read too, still without the clock. */
	assert_int_equal(virq_poll32(&hal_, REG, 1, 1, 0, &last), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_NOW), 0);
}

static bool warned(void)
{
	return virq_sim_log_count(sim_, LIBVIRQ_LOG_WARN) > 0;
}

static void test_stopped_clock_round_limit(void **state)
{
	uint32_t last = 0;
	struct cond_arg c = {0, UINT32_MAX};

	(void)state;
	virq_sim_reg_set32(sim_, REG, 0x5a);
	virq_sim_set_relax_step(sim_, 0); /* nothing advances the clock */
	/* Default round: 10 ns -> 1 ms / 10 ns + 1 rounds after the first read. */
	assert_int_equal(virq_poll32(&hal_, REG, 1, 1, 1000000, &last), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(last, 0x5a);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG),
			 1 + 1000000 / LIBVIRQ_POLL_ROUND_NS_DEFAULT + 1);
	assert_true(warned());
	assert_non_null(strstr(virq_sim_last_log(sim_), "did not advance"));
	/* virq_poll_until and virq_poll64 alike. */
	assert_int_equal(virq_poll_until(&hal_, cond_fn, &c, 5000), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(c.calls, 1 + 5000 / LIBVIRQ_POLL_ROUND_NS_DEFAULT + 1);
	assert_int_equal(virq_poll64(&hal_, REG64, 1, 1, 100, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R64, REG64),
			 1 + 100 / LIBVIRQ_POLL_ROUND_NS_DEFAULT + 1);
}

static void test_embedder_round_ns(void **state)
{
	struct virq_hal_ops ops = *virq_sim_hal_ops();
	struct virq_hal h = {&ops, sim_};

	(void)state;
	ops.poll_round_ns = 1000; /* relax spins at least 1 us */
	virq_sim_clock_fault(sim_, LIBVIRQ_SIM_CLOCK_STOP, 0, 0);
	assert_int_equal(virq_poll32(&h, REG, 1, 1, 1000000000ull, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 1 + 1000000 + 1);
	assert_true(warned());
	/* With a working clock the same setting changes nothing: the deadline
	 * (1 us per relax) ends the wait first. */
	virq_sim_clock_fault(sim_, LIBVIRQ_SIM_CLOCK_OK, 0, 0);
	virq_sim_reset_counters(sim_);
	assert_int_equal(virq_poll32(&h, REG, 1, 1, 10000, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 11);
}

static void test_clock_running_backwards(void **state)
{
	(void)state;
	virq_sim_clock_advance(sim_, 1000000000ull);
	virq_sim_clock_fault(sim_, LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS, 0, 700);
	/* Backwards steps count as no time: the wait is not ended by the first
	 * (huge unsigned) difference but by its round limit, with a warning. */
	assert_int_equal(virq_poll32(&hal_, REG, 1, 1, 20000, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG),
			 1 + 20000 / LIBVIRQ_POLL_ROUND_NS_DEFAULT + 1);
	assert_true(warned());
}

static void test_clock_jump_back_not_early(void **state)
{
	struct later l = {0, 30};

	(void)state;
	virq_sim_clock_advance(sim_, 1000000000ull);
	/* The 3rd clock read jumps back 1 s; the register settles on the 30th
	 * relax (30 us), well inside the 100 us budget: still found. */
	virq_sim_clock_fault(sim_, LIBVIRQ_SIM_CLOCK_JUMP_BACK, 2, 1000000000ull);
	virq_sim_on_relax(sim_, later_relax, &l);
	assert_int_equal(virq_poll32(&hal_, REG, 0x4, 0x4, 100000, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 31);
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_WARN), 0); /* success: silent */
	/* A register that never settles: the budget is the sum of the forward
	 * steps, so the one backward step costs no time: 1 + 10 + 1 reads. */
	virq_sim_reset_counters(sim_);
	virq_sim_clock_fault(sim_, LIBVIRQ_SIM_CLOCK_JUMP_BACK, 2, 1000000000ull);
	assert_int_equal(virq_poll32(&hal_, 0x40000, 1, 1, 10000, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, 0x40000), 12);
	assert_true(warned());
}

static void test_clock_jump_forward(void **state)
{
	(void)state;
	/* The 3rd clock read jumps 1 s forward: the clock says the deadline
	 * passed, so the wait ends at the read that follows (no warning: the
	 * clock is monotonic; the timeout is logged at debug level). */
	virq_sim_clock_fault(sim_, LIBVIRQ_SIM_CLOCK_JUMP_FORWARD, 2, 1000000000ull);
	assert_int_equal(virq_poll32(&hal_, REG, 1, 1, 1000000, NULL), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, REG), 3);
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_WARN), 0);
	assert_true(virq_sim_log_count(sim_, LIBVIRQ_LOG_DEBUG) > 0);
	assert_non_null(strstr(virq_sim_last_log(sim_), "deadline passed"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_match_after_k_reads, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_timeout_bounded_with_last_value, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stuck_register_times_out, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_zero_timeout_single_read, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_last_is_optional, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_poll64_high_bits, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_relax_hook_progress, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_deadline_from_entry_and_wrap, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_relax_callback, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_poll_until, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_settles_at_deadline, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fast_path_no_clock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stopped_clock_round_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_embedder_round_ns, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_running_backwards, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_jump_back_not_early, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_jump_forward, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
