/* SPDX-License-Identifier: MIT */
/*
 * Fault-injection sweep of the GICv4 core (IHI 0069): every kind of hardware
 * wait the driver does is made to never finish, in turn, while the whole
 * bring-up + vPE/vLPI path runs (GIC init, distributor enable, redistributor
 * init, ITS init, MAPC, MAPD, VM, vPE, VMAPTI, schedule in/out, VMOVP):
 * GICD_CTLR.RWP, GICR_CTLR.RWP, GICR_WAKER.ChildrenAsleep,
 * GICR_VPENDBASER.Dirty, GICR_SYNCR.Busy (after INVLPIR and after a HIP09
 * INVALLR), an ITS that never consumes commands, an ITS that never reports
 * Quiescent (the path: gic_path.h). Each path stops at its first
 * failure; that failure must be a documented timeout status (ETIMEDOUT,
 * EDEAD, EBUSY, EHW), the fake time spent must be bounded (one deadline per
 * wait reached), and after tearing down whatever succeeded nothing may have
 * been freed twice and — when every teardown call succeeded — nothing leaked.
 * The allocation-failure sweep of the same path is in
 * tests/unit/gicv4/test_gic_sweep.c.
 */
#include "gic_path.h"

static void one_(enum gp_wait k, int version, unsigned long *reached)
{
	struct gic_path p;
	uint64_t t0, spent;
	virq_status st;
	bool clean;

	gp_new(&p, k, GP_NEVER, version);
	t0 = virq_sim_now(p.sim);
	st = gp_run(&p, k == GP_ITS_QUEUE);
	spent = virq_sim_now(p.sim) - t0;
	print_message("GICv%d.%d %-26s: step %2d -> %-9s after %8llu ns of fake time\n",
		      version / 10, version % 10, gp_wait_name[k], p.step, virq_status_name(st),
		      (unsigned long long)spent);
	if (k == GP_NONE)
		assert_int_equal(st, LIBVIRQ_OK);
	else if (st != LIBVIRQ_OK)
		(*reached)++;
	assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ETIMEDOUT || st == LIBVIRQ_EDEAD ||
		    st == LIBVIRQ_EBUSY || st == LIBVIRQ_EHW);
	/* Bounded: a handful of deadlines at most, never a hang. */
	assert_true(p.gic_ok == false || spent <= 8 * p.gic.timeout_ns + 1000000);
	clean = gp_undo(&p);
	if (!clean)
		print_message("  teardown reported an error (hardware dead): %zu pages kept\n",
			      virq_sim_live_pages(p.sim));
	gp_free(&p, clean);
}

static void test_every_wait_never_finishes(void **s)
{
	unsigned long cases = 0, reached = 0;

	(void)s;
	for (int v = 40; v <= 41; v++)
		for (int k = GP_NONE; k < GP_COUNT; k++) {
			if (k == GP_SYNCR_INVLPI && v == 41)
				continue; /* 4.1 invalidates doorbells with INVDB, not INVLPIR */
			one_((enum gp_wait)k, v, &reached);
			cases++;
		}
	/* Every kind of wait is on the path. */
	assert_int_equal(reached, cases - 2);
	SWEEP_REPORT("gicv4 path, each wait never finishing", cases);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_wait_never_finishes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
