/* SPDX-License-Identifier: MIT */
/*
 * Deferred completion (virq_its_device_set_deferred(), virq_its_settle()):
 * a deferred device's vLPI calls publish their batch and return without
 * polling GITS_CREADR; virq_its_settle() learns what ran. Against an ITS
 * model that consumes one command per relax (a slow ITS, so the batches
 * really are outstanding), one that consumes nothing (a hang), and another
 * caller's failure resetting the queue in between: the library's tracking
 * must end equal to what the model holds, and every wait stays bounded.
 */
#include "its_fixture.h"
#include <libvirq/gicv4/its_regs.h>

struct df {
	struct its_fx f;
	struct virq_sim_its *q;
	struct virq_its_device dev, dev2;
	struct virq_gic_vm vm;
	struct virq_vpe a, b;
};

static void df_setup(struct df *t)
{
	memset(t, 0, sizeof(*t));
	itsfx_setup(&t->f, NULL, NULL, 1, true);
	t->q = virq_sim_its_state_queue(t->f.sm[0]);
	assert_int_equal(virq_its_device_map(&t->f.its[0], &t->dev, 7, 16), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&t->f.its[0], &t->dev2, 8, 4), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&t->vm, &t->f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&t->a, &t->vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&t->b, &t->vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_set_deferred(&t->dev, true), LIBVIRQ_OK);
}

/* Unmaps what is left (the teardown settles first), then everything. */
static void df_teardown(struct df *t, bool no_errors)
{
	struct virq_its_device *devs[2] = {&t->dev, &t->dev2};

	for (unsigned d = 0; d < 2; d++) {
		for (uint32_t e = 0; e < devs[d]->nr_events; e++) {
			struct virq_its_event ev;

			assert_int_equal(virq_its_event_get(devs[d], e, &ev), LIBVIRQ_OK);
			if (ev.kind != LIBVIRQ_ITS_EV_NONE)
				assert_int_equal(virq_vlpi_unmap(devs[d], e), LIBVIRQ_OK);
		}
		assert_int_equal(virq_its_device_unmap(devs[d]), LIBVIRQ_OK);
	}
	assert_int_equal(t->f.its[0].nr_deferred, 0);
	assert_int_equal(virq_vpe_destroy(&t->b), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&t->a), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&t->vm), LIBVIRQ_OK);
	if (no_errors)
		itsfx_no_errors(&t->f);
	itsfx_teardown(&t->f, true);
}

/* The library's view of (@dev, @ev) equals the model's (both unmapped, or
 * the same vPE and vINTID). */
static void same_as_model(struct df *t, struct virq_its_device *dev, uint32_t e)
{
	struct virq_its_event ev;
	struct virq_sim_its_ev hw = virq_sim_its_state_lookup(t->f.sm[0], dev->device_id, e);

	assert_int_equal(virq_its_event_get(dev, e, &ev), LIBVIRQ_OK);
	if (hw.kind == LIBVIRQ_SIM_ITS_EV_NONE) {
		assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_NONE);
		return;
	}
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_VIRT);
	assert_int_equal(ev.vpe->vpeid, hw.vpe);
	assert_int_equal(ev.intid, hw.vintid);
}

static unsigned long creadr_reads(struct df *t)
{
	uint64_t a = FX_ITS_BASE + LIBVIRQ_GITS_CREADR;

	return virq_sim_count_at(t->f.g.sim, LIBVIRQ_SIM_MMIO_R32, a) +
	       virq_sim_count_at(t->f.g.sim, LIBVIRQ_SIM_MMIO_R64, a);
}

/* A deferred map returns before the ITS ran it: no GITS_CREADR read, no
 * relax; the tracking already says mapped; a look (settle without
 * waiting) reads GITS_CREADR once and says "not yet"; the wait finishes
 * it. The same call on a device that is not deferred polls. */
static void test_map_returns_before_the_its_runs_it(void **state)
{
	struct df t;
	unsigned long r0, x0;
	struct virq_its_event ev;

	(void)state;
	df_setup(&t);
	virq_sim_its_set_per_relax(t.q, 1);
	r0 = creadr_reads(&t);
	x0 = virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX);
	assert_int_equal(virq_vlpi_map(&t.dev, 0, &t.a, 8200, false), LIBVIRQ_OK);
	assert_int_equal(creadr_reads(&t), r0);
	assert_int_equal(virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX), x0);
	assert_int_equal(virq_sim_its_state_lookup(t.f.sm[0], 7, 0).kind, LIBVIRQ_SIM_ITS_EV_NONE);
	assert_int_equal(virq_its_event_get(&t.dev, 0, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_VIRT);
	assert_int_equal(t.a.nr_vlpis, 1);
	assert_int_equal(t.f.its[0].nr_deferred, 1);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_EBUSY);
	assert_int_equal(creadr_reads(&t), r0 + 1);
	assert_int_equal(virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX), x0);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 0);
	same_as_model(&t, &t.dev, 0);
	assert_int_equal(t.f.its[0].deferred_batches, 1);
	/* settled: nothing to read */
	r0 = creadr_reads(&t);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_OK);
	assert_int_equal(creadr_reads(&t), r0);
	/* the waiting form on the other device polls */
	x0 = virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX);
	assert_int_equal(virq_vlpi_map(&t.dev2, 0, &t.a, 8300, false), LIBVIRQ_OK);
	assert_true(virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX) > x0);
	same_as_model(&t, &t.dev2, 0);
	virq_sim_its_set_per_relax(t.q, 0);
	df_teardown(&t, true);
}

/* Once the ITS ran the batch (here synchronously, as QEMU does on the
 * GITS_CWRITER write), one look settles it. Map, move, INV, INT, CLEAR
 * and unmap all defer, and the model agrees after each. */
static void test_every_deferrable_call(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	assert_int_equal(virq_vlpi_map_config(&t.dev, 1, &t.a, 8201, false, 0xa0, true),
			 LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_move(&t.dev, 1, &t.b), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_set_config(&t.dev, 1, 0x80, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(&t.dev, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_clear(&t.dev, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_inv(&t.dev, 1), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 6);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_OK);
	same_as_model(&t, &t.dev, 1);
	assert_int_equal(t.a.nr_vlpis, 0);
	assert_int_equal(t.b.nr_vlpis, 1);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 1), LIBVIRQ_OK);
	assert_int_equal(t.b.nr_vlpis, 0);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_OK);
	same_as_model(&t, &t.dev, 1);
	assert_int_equal(t.f.its[0].deferred_batches, 7);
	assert_int_equal(t.f.its[0].deferred_undone, 0);
	df_teardown(&t, true);
}

/* The ITS consumes nothing: the settle's wait times out, the reset shows
 * that neither the map nor the move ran, and the tracking goes back to
 * what it was before them (the event unmapped, no vLPI counted). */
static void test_hung_its_restores_map_and_move(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	virq_sim_its_set_dead(t.q, true);
	assert_int_equal(virq_vlpi_map(&t.dev, 2, &t.a, 8202, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_move(&t.dev, 2, &t.b), LIBVIRQ_OK);
	assert_int_equal(t.b.nr_vlpis, 1);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_ETIMEDOUT);
	virq_sim_its_set_dead(t.q, false);
	assert_false(t.f.its[0].dead);
	assert_int_equal(t.f.its[0].deferred_undone, 2);
	same_as_model(&t, &t.dev, 2);
	assert_int_equal(t.a.nr_vlpis, 0);
	assert_int_equal(t.b.nr_vlpis, 0);
	assert_int_equal(t.dev.nr_mapped, 0);
	/* the queue works again: the same map, deferred, lands */
	assert_int_equal(virq_vlpi_map(&t.dev, 2, &t.a, 8202, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_OK);
	same_as_model(&t, &t.dev, 2);
	df_teardown(&t, false);
}

/* A deferred DISCARD the ITS never ran: the event is mapped again in the
 * tracking, its vPE referenced, so the vPE cannot be destroyed while the
 * ITS still maps the event to it. */
static void test_hung_its_restores_unmap(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	assert_int_equal(virq_vlpi_map(&t.dev, 3, &t.a, 8203, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	virq_sim_its_set_dead(t.q, true);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 3), LIBVIRQ_OK);
	assert_int_equal(t.a.nr_vlpis, 0);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_ETIMEDOUT);
	virq_sim_its_set_dead(t.q, false);
	same_as_model(&t, &t.dev, 3);
	assert_int_equal(t.a.nr_vlpis, 1);
	assert_int_equal(virq_vpe_destroy(&t.a), LIBVIRQ_EBUSY);
	df_teardown(&t, false);
}

/* Another user of the queue fails while batches are deferred: on a hung
 * ITS, a command submitted through the queue's own API (as an embedder
 * sends MOVALL) times out and the queue is reset, dropping what was not
 * run; the ITS works again afterwards. (The library's own waiting calls
 * settle the deferred batches before they queue behind them.) */
static void other_reset(struct df *t)
{
	struct virq_its_cmd c = virq_its_sync_cmd(0);

	virq_sim_its_set_dead(t->q, true);
	assert_int_equal(virq_its_queue_submit(&t->f.its[0].q, &c, NULL, NULL, NULL),
			 LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_its_queue_reset(&t->f.its[0].q), LIBVIRQ_OK);
	virq_sim_its_set_dead(t->q, false);
}

/* A deferred map of @e to vPE a on a hung ITS, dropped by other_reset(). */
static void map_then_other_reset(struct df *t, uint32_t e)
{
	virq_sim_its_set_dead(t->q, true);
	assert_int_equal(virq_vlpi_map(&t->dev, e, &t->a, 8192 + e, false), LIBVIRQ_OK);
	other_reset(t);
}

/* Another user's failure resets the queue while a batch is deferred,
 * dropping the deferred VMAPTI: the next deferrable call settles first,
 * so it sees the event unmapped, and its own batch lands. */
static void test_other_callers_reset(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	map_then_other_reset(&t, 4);
	assert_int_equal(virq_vlpi_map(&t.dev, 4, &t.b, 8204, false), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].deferred_undone, 1);
	assert_int_equal(t.a.nr_vlpis, 0);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_OK);
	same_as_model(&t, &t.dev, 4);
	assert_int_equal(t.b.nr_vlpis, 1);
	df_teardown(&t, false);
}

/* The same reset seen by virq_its_settle() itself: ECANCELED, the batch
 * never ran, the tracking restored. */
static void test_settle_after_reset(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	map_then_other_reset(&t, 5);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_ECANCELED);
	same_as_model(&t, &t.dev, 5);
	assert_int_equal(t.a.nr_vlpis, 0);
	df_teardown(&t, false);
}

/* A deferred INV stalls the ITS: an unrelated waiting call on the ITS
 * (a VINVALL of another vPE) settles it first instead of queueing behind
 * it and failing with it (found by review: it returned ESTALLED). */
static void test_stalled_batch_is_not_the_next_callers(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	assert_int_equal(virq_vlpi_map(&t.dev, 0, &t.a, 8200, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_INV);
	assert_int_equal(virq_its_inv(&t.dev, 0), LIBVIRQ_OK); /* deferred; stalls */
	virq_sim_its_stall_opcode(t.q, -1);
	assert_int_equal(virq_vpe_invall(&t.b), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 0);
	assert_int_equal(t.f.its[0].deferred_undone, 1);
	df_teardown(&t, false);
}

/* A deferred DISCARD dropped by another user's reset: set_config settles
 * before it looks, so it finds the event mapped (as the ITS has it) and
 * its INV lands (found by review: it read the tracking first, ENOENT). */
static void test_set_config_settles_before_it_looks(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	assert_int_equal(virq_vlpi_map(&t.dev, 1, &t.a, 8201, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	virq_sim_its_set_dead(t.q, true);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 1), LIBVIRQ_OK); /* deferred */
	other_reset(&t);
	assert_int_equal(virq_vlpi_set_config(&t.dev, 1, 0x80, true), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].deferred_undone, 1);
	same_as_model(&t, &t.dev, 1);
	assert_int_equal(t.a.nr_vlpis, 1);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_OK);
	df_teardown(&t, false);
}

/* A look from a CPU whose clock reads a little behind the one that
 * published: not an age past the deadline, so no wait (found by review). */
static void test_look_with_clock_behind(void **state)
{
	struct df t;
	unsigned long x0;

	(void)state;
	df_setup(&t);
	virq_sim_its_set_per_relax(t.q, 1);
	assert_int_equal(virq_vlpi_map(&t.dev, 2, &t.a, 8202, false), LIBVIRQ_OK);
	t.f.its[0].deferred_t0 += 1000; /* published 1 us "in the future" */
	x0 = virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_RELAX), x0);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	virq_sim_its_set_per_relax(t.q, 0);
	df_teardown(&t, true);
}

/* A chain on one event (unmap, map, move) and a map on another device, all
 * dropped: restored newest first, every count ends as the ITS holds it. */
static void test_dropped_chain(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	assert_int_equal(virq_its_device_set_deferred(&t.dev2, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&t.dev, 3, &t.a, 8203, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_move(&t.dev, 3, &t.b), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	virq_sim_its_set_dead(t.q, true);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 3), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&t.dev, 3, &t.a, 8213, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_move(&t.dev, 3, &t.b), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&t.dev2, 0, &t.a, 8300, false), LIBVIRQ_OK);
	other_reset(&t);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_ECANCELED);
	same_as_model(&t, &t.dev, 3);
	same_as_model(&t, &t.dev2, 0);
	assert_int_equal(t.a.nr_vlpis, 0);
	assert_int_equal(t.b.nr_vlpis, 1);
	assert_int_equal(t.dev.nr_mapped, 1);
	assert_int_equal(t.dev2.nr_mapped, 0);
	df_teardown(&t, false);
}

/* A full journal: the call that would be the ninth outstanding batch waits
 * for the eight first (with a slow ITS), then defers its own. */
static void test_full_journal_waits(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	virq_sim_its_set_per_relax(t.q, 1);
	for (uint32_t e = 0; e < LIBVIRQ_ITS_DEFER_MAX; e++)
		assert_int_equal(virq_vlpi_map(&t.dev, e, &t.a, 8192 + e, false), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, LIBVIRQ_ITS_DEFER_MAX);
	assert_int_equal(t.f.its[0].deferred_waits, 0);
	assert_int_equal(virq_vlpi_map(&t.dev, 8, &t.a, 8200, false), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].deferred_waits, 1);
	assert_int_equal(t.f.its[0].nr_deferred, 1);
	for (uint32_t e = 0; e < LIBVIRQ_ITS_DEFER_MAX; e++)
		same_as_model(&t, &t.dev, e);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	same_as_model(&t, &t.dev, 8);
	virq_sim_its_set_per_relax(t.q, 0);
	df_teardown(&t, true);
}

/* Looks without waiting are bounded too: once the oldest batch is older
 * than the queue's deadline, the look waits (bounded) and fails. */
static void test_looks_are_bounded(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	assert_int_equal(virq_vlpi_map(&t.dev, 6, &t.a, 8206, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&t.f.its[0], true), LIBVIRQ_OK);
	virq_sim_its_set_dead(t.q, true);
	assert_int_equal(virq_its_inv(&t.dev, 6), LIBVIRQ_OK);
	for (int i = 0; i < 3; i++)
		assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_EBUSY);
	virq_sim_clock_advance(t.f.g.sim, t.f.its[0].q.timeout_ns);
	assert_int_equal(virq_its_settle(&t.f.its[0], false), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(t.f.its[0].nr_deferred, 0);
	virq_sim_its_set_dead(t.q, false);
	same_as_model(&t, &t.dev, 6); /* an INV changes no tracking */
	df_teardown(&t, false);
}

/* Turning deferral off, unmapping the device and destroying a vPE all
 * settle first (slow ITS: the batches are outstanding when they come). */
static void test_teardown_settles(void **state)
{
	struct df t;

	(void)state;
	df_setup(&t);
	virq_sim_its_set_per_relax(t.q, 1);
	assert_int_equal(virq_vlpi_map(&t.dev, 7, &t.a, 8207, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_set_deferred(&t.dev, false), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 0);
	same_as_model(&t, &t.dev, 7);
	assert_int_equal(virq_its_device_set_deferred(&t.dev, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 7), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 1);
	assert_int_equal(virq_its_device_unmap(&t.dev), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 0);
	assert_false(virq_sim_its_state_dev_mapped(t.f.sm[0], 7));
	assert_int_equal(virq_its_device_map(&t.f.its[0], &t.dev, 7, 16), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_set_deferred(&t.dev, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&t.dev, 0, &t.b, 8210, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&t.b), LIBVIRQ_OK);
	assert_int_equal(t.f.its[0].nr_deferred, 0);
	assert_int_equal(virq_vpe_init(&t.b, &t.vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_set_per_relax(t.q, 0);
	df_teardown(&t, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_map_returns_before_the_its_runs_it),
	    cmocka_unit_test(test_every_deferrable_call),
	    cmocka_unit_test(test_hung_its_restores_map_and_move),
	    cmocka_unit_test(test_hung_its_restores_unmap),
	    cmocka_unit_test(test_other_callers_reset),
	    cmocka_unit_test(test_settle_after_reset),
	    cmocka_unit_test(test_stalled_batch_is_not_the_next_callers),
	    cmocka_unit_test(test_set_config_settles_before_it_looks),
	    cmocka_unit_test(test_look_with_clock_behind),
	    cmocka_unit_test(test_dropped_chain),
	    cmocka_unit_test(test_full_journal_waits),
	    cmocka_unit_test(test_looks_are_bounded),
	    cmocka_unit_test(test_teardown_settles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
