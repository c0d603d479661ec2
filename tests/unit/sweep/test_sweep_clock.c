/* SPDX-License-Identifier: MIT */
/*
 * Clock-fault sweep: every wait of the library under a HAL clock that
 * stops, jumps forward, jumps back or keeps running backwards
 * (virq_sim_clock_fault), with the waited-for hardware settling after a few
 * reads (GP_SLOW) or never (GP_NEVER). The waits (include/libvirq/hal.h,
 * "Bounded waits"):
 *   GICD_CTLR.RWP, GICR_CTLR.RWP, GICR_WAKER.ChildrenAsleep,
 *   GICR_VPENDBASER.Dirty, GICR_SYNCR.Busy after INVLPIR and after INVALLR,
 *   the ITS command queue (GITS_CREADR), GITS_CTLR.Quiescent in ITS init
 *   (all on the GICv4.0 and GICv4.1 path of gic_path.h), and the ITS queue's
 *   own waits (wait, drain, reset) on a bare queue;
 * plus the one other user of the clock, AVIC's posting calibration.
 *
 * For every case: no hang (a relax watchdog aborts a wait that outruns its
 * round limit), the documented status (hardware that settles is found
 * whatever the clock does, except a forward jump, which may end the wait
 * first; hardware that never settles gives LIBVIRQ_ETIMEDOUT), a log line
 * from the wait naming what happened, and a teardown with nothing freed
 * twice. With every wait settling at once the whole path never reads the
 * clock (fast path).
 */
#include "gic_path.h"

#ifdef LIBVIRQ_HAVE_AVIC
#include <libvirq/avic.h>
#endif
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/gicv4/its_regs.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/its.h>

#define TIMEOUT_NS 1000000ull /* 1 ms: 10^5 rounds of 10 ns */
#define MAX_ROUNDS (TIMEOUT_NS / LIBVIRQ_POLL_ROUND_NS_DEFAULT + 1)
#define WATCHDOG (64 * MAX_ROUNDS)

#define MSG_ROUNDS                                                                                 \
	"virq_poll: HAL clock did not advance; wait ended by its round limit (timeout_ns, "        \
	"rounds, "                                                                                 \
	"elapsed_ns, backward steps)"
#define MSG_BACK                                                                                   \
	"virq_poll: HAL clock ran backwards during a wait (timeout_ns, rounds, backward steps)"
#define MSG_DEADLINE "virq_poll: deadline passed (timeout_ns, rounds)"

struct fault {
	enum virq_sim_clock_fault_kind kind;
	uint64_t after, ns;
	const char *name;
};

static const struct fault faults_[] = {
    {LIBVIRQ_SIM_CLOCK_OK, 0, 0, "working clock"},
    {LIBVIRQ_SIM_CLOCK_STOP, 0, 0, "clock stops"},
    {LIBVIRQ_SIM_CLOCK_JUMP_FORWARD, 1, 1000000000ull, "jumps 1 s forward"},
    {LIBVIRQ_SIM_CLOCK_JUMP_BACK, 1, 1000000000ull, "jumps 1 s back"},
    {LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS, 0, 700, "runs backwards"},
};
#define NFAULTS (sizeof(faults_) / sizeof(faults_[0]))

static void watchdog_(void *arg, struct virq_sim *sim)
{
	unsigned long *n = arg;

	(void)sim;
	if (++*n > WATCHDOG) {
		fprintf(stderr, "test_sweep_clock: a wait outran its round limit (hang)\n");
		abort();
	}
}

/* The log line a wait that ended without success leaves for @f. */
static bool wait_logged_(struct virq_sim *sim, const struct fault *f)
{
	switch (f->kind) {
	case LIBVIRQ_SIM_CLOCK_STOP:
	case LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS:
		return virq_sim_logged(sim, MSG_ROUNDS);
	case LIBVIRQ_SIM_CLOCK_JUMP_BACK:
		return virq_sim_logged(sim, MSG_BACK);
	default:
		return virq_sim_logged(sim, MSG_DEADLINE);
	}
}

static void gic_case_(enum gp_wait k, enum gp_settle s, int version, const struct fault *f,
		      unsigned long *cases)
{
	struct gic_path p;
	unsigned long relaxes = 0;
	virq_status st;

	gp_new(&p, k, s, version);
	p.timeout_ns = TIMEOUT_NS;
	virq_sim_on_relax(p.sim, watchdog_, &relaxes);
	virq_sim_clock_advance(p.sim, 10000000000ull); /* 10 s: room to run backwards */
	virq_sim_clock_fault(p.sim, f->kind, f->after, f->ns);
	st = gp_run(&p, k == GP_ITS_QUEUE && s == GP_NEVER);
	print_message("GICv%d.%d %-26s %-5s %-17s: step %2d -> %s (%lu rounds)\n", version / 10,
		      version % 10, gp_wait_name[k], s == GP_NEVER ? "never" : "slow", f->name,
		      p.step, virq_status_name(st), relaxes);
	if (k == GP_NONE) {
		/* Nothing to wait for: the clock is never read. */
		assert_int_equal(st, LIBVIRQ_OK);
		assert_int_equal(virq_sim_count(p.sim, LIBVIRQ_SIM_NOW), 0);
	} else if (s == GP_SLOW && f->kind != LIBVIRQ_SIM_CLOCK_JUMP_FORWARD) {
		/* Settles after a few reads: found whatever the clock does. */
		assert_int_equal(st, LIBVIRQ_OK);
		assert_true(virq_sim_count(p.sim, LIBVIRQ_SIM_NOW) > 0); /* the wait did run */
	} else if (s == GP_SLOW) {
		/* The clock says 1 s passed: the wait may end before the register
		 * settles; then it is a timeout, and the wait logged it. */
		assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ETIMEDOUT);
		if (st != LIBVIRQ_OK)
			assert_true(wait_logged_(p.sim, f));
	} else {
		assert_int_equal(st, LIBVIRQ_ETIMEDOUT);
		assert_true(wait_logged_(p.sim, f));
	}
	/* Bounded: the path's own waits and the teardown's, each at most its limit. */
	assert_true(relaxes <= 16 * MAX_ROUNDS);
	gp_free(&p, gp_undo(&p) && st == LIBVIRQ_OK);
	(*cases)++;
}

static void test_gic_waits_every_clock_fault(void **state)
{
	unsigned long cases = 0;

	(void)state;
	for (int v = 40; v <= 41; v++)
		for (int k = GP_NONE; k < GP_COUNT; k++)
			for (int s = GP_SLOW; s <= GP_NEVER; s++)
				for (size_t f = 0; f < NFAULTS; f++) {
					if (k == GP_SYNCR_INVLPI && v == 41)
						continue; /* 4.1 uses INVDB */
					if (k == GP_NONE && s == GP_NEVER)
						continue;
					gic_case_((enum gp_wait)k, (enum gp_settle)s, v,
						  &faults_[f], &cases);
				}
	SWEEP_REPORT("every GICv4 wait x settle (slow, never) x clock fault", cases);
}

/* The embedder's poll_round_ns shortens a broken clock's wait: 1 us rounds. */
static void test_gic_embedder_round(void **state)
{
	struct gic_path p;
	struct virq_hal_ops ops = *virq_sim_hal_ops();
	unsigned long relaxes = 0;

	(void)state;
	ops.poll_round_ns = 1000;
	gp_new(&p, GP_DIRTY, GP_NEVER, 40);
	p.hal.ops = &ops; /* default timeouts (10 ms): 10^4 rounds per wait */
	virq_sim_on_relax(p.sim, watchdog_, &relaxes);
	virq_sim_clock_fault(p.sim, LIBVIRQ_SIM_CLOCK_STOP, 0, 0);
	assert_int_equal(gp_run(&p, false), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(relaxes, LIBVIRQ_GIC_DEFAULT_TIMEOUT_NS / 1000 + 1);
	assert_true(virq_sim_logged(p.sim, MSG_ROUNDS));
	gp_free(&p, false);
	SWEEP_REPORT("GICv4 wait, stopped clock, embedder's poll_round_ns", 1);
}

/* ---- the ITS queue's own waits on a bare queue ---- */

enum qop { Q_SUBMIT, Q_DRAIN, Q_RESET, Q_COUNT };
static const char *const qop_name_[Q_COUNT] = {"submit", "drain", "reset"};

/* GITS_CTLR of an ITS that is slow to (or never does) become quiescent:
 * Enabled and not Quiescent for @left reads (UINT32_MAX: forever), then
 * Quiescent and disabled. */
static uint64_t slow_ctlr_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	unsigned *left = arg;

	(void)sim;
	(void)addr;
	(void)width;
	if (*left == UINT32_MAX)
		return 0x1;
	if (*left) {
		(*left)--;
		return 0x1;
	}
	return 0x80000000u;
}

static void queue_case_(enum qop op, enum gp_settle s, const struct fault *f, unsigned long *cases)
{
	const uint64_t its = LIBVIRQ_SIM_GIC_ITS0_BASE;
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_sim_its *m = virq_sim_its_new(sim, its, NULL);
	struct virq_its_queue_cfg qc = {TIMEOUT_NS, false};
	struct virq_its_queue q;
	struct virq_its_cmd c = virq_its_mapti(1, 2, 8192, 0);
	unsigned long relaxes = 0;
	unsigned ctlr_left = s == GP_SLOW ? 1 + GP_SLOW_POLLS : UINT32_MAX;
	virq_status st;

	virq_sim_on_relax(sim, watchdog_, &relaxes);
	assert_int_equal(virq_its_queue_init(&q, &hal, its, 4096, &qc), LIBVIRQ_OK);
	virq_sim_its_enable(m, true);
	if (op == Q_RESET) /* a later region overrides the model's GITS_CTLR */
		virq_sim_add_region(sim, its + LIBVIRQ_GITS_CTLR, 4, slow_ctlr_, NULL, &ctlr_left);
	else if (s == GP_SLOW)
		virq_sim_its_set_per_relax(m, 1);
	else
		virq_sim_its_set_dead(m, true);
	virq_sim_clock_advance(sim, 10000000000ull);
	virq_sim_clock_fault(sim, f->kind, f->after, f->ns);
	switch (op) {
	case Q_SUBMIT:
		st = virq_its_queue_submit(&q, &c, NULL, NULL, NULL);
		break;
	case Q_DRAIN:
		st = virq_its_queue_push(&q, &c, NULL, NULL, NULL);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_drain(&q, NULL);
		break;
	default:
		st = virq_its_queue_reset(&q);
		break;
	}
	print_message("its_queue %-6s %-5s %-17s: %s (%lu rounds)\n", qop_name_[op],
		      s == GP_NEVER ? "never" : "slow", f->name, virq_status_name(st), relaxes);
	if (s == GP_SLOW && f->kind != LIBVIRQ_SIM_CLOCK_JUMP_FORWARD) {
		assert_int_equal(st, LIBVIRQ_OK);
	} else if (s == GP_SLOW) {
		assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ETIMEDOUT);
		if (st != LIBVIRQ_OK)
			assert_true(wait_logged_(sim, f));
	} else {
		assert_int_equal(st, LIBVIRQ_ETIMEDOUT);
		assert_true(wait_logged_(sim, f));
		/* A timed-out queue is dead until reset. */
		assert_int_equal(virq_its_queue_push(&q, &c, NULL, NULL, NULL), LIBVIRQ_EDEAD);
	}
	assert_true(relaxes <= 2 * MAX_ROUNDS);
	assert_int_equal(virq_its_queue_fini(&q), LIBVIRQ_OK);
	sweep_no_leak(sim, 0);
	virq_sim_free(sim);
	virq_sim_its_free(m);
	(*cases)++;
}

static void test_its_queue_waits_every_clock_fault(void **state)
{
	unsigned long cases = 0;

	(void)state;
	for (int op = 0; op < Q_COUNT; op++)
		for (int s = GP_SLOW; s <= GP_NEVER; s++)
			for (size_t f = 0; f < NFAULTS; f++)
				queue_case_((enum qop)op, (enum gp_settle)s, &faults_[f], &cases);
	SWEEP_REPORT("ITS queue wait/drain/reset x settle x clock fault", cases);
}

/* ---- AVIC calibration: the clock's other user ---- */
#ifdef LIBVIRQ_HAVE_AVIC

static void test_avic_calibration_every_clock_fault(void **state)
{
	unsigned long cases = 0;

	(void)state;
	for (size_t f = 0; f < NFAULTS; f++) {
		struct virq_sim *sim = virq_sim_new();
		struct virq_hal hal = virq_sim_hal(sim);
		struct virq_avic_caps caps;
		struct virq_avic_vm vm;
		struct virq_avic_vm_cfg cfg = {.mode = LIBVIRQ_AVIC_MODE_XAVIC, .max_vcpus = 2};
		enum virq_avic_policy chosen = (enum virq_avic_policy)99;
		uint64_t db_ns = 0, kick_ns = 0;
		virq_status st;

		virq_sim_cpu_apply(sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4]);
		assert_int_equal(virq_avic_caps_probe(&hal, &caps), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_OK);
		virq_sim_clock_advance(sim, 10000000000ull);
		virq_sim_set_now_step(sim, 50); /* every clock read advances 50 ns */
		virq_sim_clock_fault(sim, faults_[f].kind, 1, faults_[f].ns);
		st = virq_avic_vm_calibrate(&vm, 0, NULL, 8, &chosen);
		virq_avic_vm_calibration(&vm, &db_ns, &kick_ns);
		print_message("avic calibration, %-17s: %s doorbell %llu ns kick %llu ns\n",
			      faults_[f].name, virq_status_name(st), (unsigned long long)db_ns,
			      (unsigned long long)kick_ns);
		assert_int_equal(st, LIBVIRQ_OK);
		assert_true(chosen == LIBVIRQ_AVIC_POLICY_DOORBELL ||
			    chosen == LIBVIRQ_AVIC_POLICY_KICK);
		/* No garbage: a per-operation cost no larger than the forward time the
		 * clock showed (at most a 1 s jump over 8 rounds). */
		assert_true(db_ns <= 1000000000ull / 8 + 1000);
		assert_true(kick_ns <= 1000000000ull / 8 + 1000);
		assert_int_equal(virq_avic_vm_destroy(&vm), LIBVIRQ_OK);
		sweep_no_leak(sim, 0);
		virq_sim_free(sim);
		cases++;
	}
	SWEEP_REPORT("AVIC calibration x clock fault", cases);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gic_waits_every_clock_fault),
	    cmocka_unit_test(test_gic_embedder_round),
	    cmocka_unit_test(test_its_queue_waits_every_clock_fault),
#ifdef LIBVIRQ_HAVE_AVIC
	    cmocka_unit_test(test_avic_calibration_every_clock_fault),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
