/* SPDX-License-Identifier: MIT */
/*
 * Allocation failure at every step (fail allocation N for N = 1, 2, ...) of
 * the whole bring-up + vPE/vLPI path leaves nothing leaked; command-queue
 * failures (stall, dead ITS) leave the tracking consistent.
 */
#include "its_fixture.h"

/* GICv4.1, GITS_TYPER.SVPET = 1: the vPE table is shared with the RDs of Aff3 0 */
#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40) | (1ull << 41))

struct run {
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe vpe[2];
	uint32_t db;
	bool its_ok[2], dev_ok, vm_ok, vpe_ok[2], db_ok;
};

/* Runs the path until the first failure; returns that status. */
static virq_status path_(struct its_fx *f, struct run *r, unsigned nits)
{
	struct virq_its_cfg cfg = {0};
	virq_status st;

	cfg.proxy_doorbells = true;
	for (unsigned i = 0; i < nits; i++) {
		st = virq_its_init(&f->its[i], &f->g.gic, &f->g.desc.its[i], &cfg);
		if (st)
			return st;
		r->its_ok[i] = true;
		st = virq_its_map_collection(&f->its[i], 0);
		if (st)
			return st;
		st = virq_its_map_collection(&f->its[i], 1);
		if (st)
			return st;
	}
	st = virq_its_device_map(&f->its[0], &r->dev, 0x4321, 64);
	if (st)
		return st;
	r->dev_ok = true;
	st = virq_lpi_alloc(&f->g.gic, 2, &r->db); /* one doorbell per vPE */
	if (st)
		return st;
	r->db_ok = true;
	st = virq_gic_vm_init(&r->vm, &f->g.gic, 16);
	if (st)
		return st;
	r->vm_ok = true;
	for (unsigned i = 0; i < 2; i++) {
		st = virq_vpe_init(&r->vpe[i], &r->vm, i, r->db + i);
		if (st)
			return st;
		r->vpe_ok[i] = true;
	}
	for (uint32_t e = 0; e < 64; e++) {
		st = virq_vlpi_map(&r->dev, e, &r->vpe[e & 1], 8192 + e, true);
		if (st)
			return st;
	}
	st = virq_vpe_move(&r->vpe[1], 0);
	if (st)
		return st;
	if (f->g.gic.version == LIBVIRQ_GIC_V4_0) {
		st = virq_vpe_doorbell_invalidate(&r->vpe[0]);
		if (st)
			return st;
	}
	return virq_vpe_make_resident(&r->vpe[0], 0);
}

static void undo_(struct its_fx *f, struct run *r, unsigned nits)
{
	if (r->vpe_ok[0] && (r->vpe[0].flags & LIBVIRQ_VPE_RESIDENT))
		assert_int_equal(virq_vpe_make_nonresident(&r->vpe[0], false, NULL), LIBVIRQ_OK);
	if (r->dev_ok) {
		for (uint32_t e = 0; e < r->dev.nr_events; e++) {
			struct virq_its_event ev;

			assert_int_equal(virq_its_event_get(&r->dev, e, &ev), LIBVIRQ_OK);
			if (ev.kind)
				assert_int_equal(virq_vlpi_unmap(&r->dev, e), LIBVIRQ_OK);
		}
		assert_int_equal(virq_its_device_unmap(&r->dev), LIBVIRQ_OK);
	}
	for (int i = 1; i >= 0; i--)
		if (r->vpe_ok[i])
			assert_int_equal(virq_vpe_destroy(&r->vpe[i]), LIBVIRQ_OK);
	if (r->vm_ok)
		assert_int_equal(virq_gic_vm_destroy(&r->vm), LIBVIRQ_OK);
	if (r->db_ok)
		assert_int_equal(virq_lpi_free(&f->g.gic, r->db, 2), LIBVIRQ_OK);
	for (int i = (int)nits - 1; i >= 0; i--)
		if (r->its_ok[i])
			assert_int_equal(virq_its_destroy(&f->its[i]), LIBVIRQ_OK);
}

static void sweep_(uint64_t typer, int version, unsigned nits, bool no_indirect)
{
	unsigned long n;

	for (n = 1;; n++) {
		struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct its_fx f;
		struct run r;
		size_t base;
		virq_status st;

		rc.nr = 2;
		rc.version = version;
		ic.typer = typer;
		itsfx_tables(&ic, no_indirect, 0);
		itsfx_setup(&f, &rc, &ic, nits, false);
		memset(&r, 0, sizeof(r));
		base = virq_sim_live_pages(f.g.sim);
		virq_sim_fail_alloc_nth(f.g.sim, n);
		st = path_(&f, &r, nits);
		virq_sim_fail_alloc_nth(f.g.sim, 0);
		if (st != LIBVIRQ_OK && st != LIBVIRQ_ENOMEM)
			fail_msg("step failed with %s at allocation %lu", virq_status_name(st), n);
		undo_(&f, &r, nits);
		assert_int_equal(virq_sim_live_pages(f.g.sim), base);
		assert_int_equal(virq_sim_bad_frees(f.g.sim), 0);
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
		if (st == LIBVIRQ_OK)
			break;
		assert_true(n < 200);
	}
	assert_true(n > 10); /* the path allocates: the sweep really swept */
}

static void test_sweep_v40(void **state)
{
	(void)state;
	sweep_(QEMU_TYPER_40, 40, 1, false);
}

static void test_sweep_v40_two_its_flat(void **state)
{
	(void)state;
	sweep_(QEMU_TYPER_40 & ~(1ull << 37), 40, 2, true);
}

static void test_sweep_v41(void **state)
{
	(void)state;
	sweep_(TYPER_41, 41, 2, false);
}

/* A stalled command: the queue is reset, the call fails, tracking is unchanged. */
static void test_stall_keeps_state(void **state)
{
	struct its_fx f;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	struct virq_its_event ev;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 1, 8), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[0]), 0x2A); /* VMAPTI stalls */
	assert_int_equal(virq_vlpi_map(&dev, 2, &v, 8200, false), LIBVIRQ_ESTALLED);
	assert_int_equal(virq_its_event_get(&dev, 2, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_NONE);
	assert_int_equal(v.nr_vlpis, 0);
	assert_false(f.its[0].dead);
	/* The queue works again after the reset. */
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[0]), -1);
	assert_int_equal(virq_vlpi_map(&dev, 2, &v, 8200, false), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 1, 2).vintid, 8200);
	assert_int_equal(virq_vlpi_unmap(&dev, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* A dead ITS (never consumes): timeout, then the queue reset. Nothing hangs. */
static void test_dead_its(void **state)
{
	struct its_fx f;
	struct virq_its_device dev;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	virq_sim_its_set_dead(virq_sim_its_state_queue(f.sm[0]), true);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 1, 8), LIBVIRQ_ETIMEDOUT);
	assert_null(dev.its);
	virq_sim_its_set_dead(virq_sim_its_state_queue(f.sm[0]), false);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 1, 8), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* VMAPP fails on the second ITS: the first is unmapped again, nothing leaks,
 * the vPEID is reusable. A failing VMAPP(V=0) leaves the vPE DEAD; destroy again. */
static void test_vpe_rollback_and_dead(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	size_t live;
	long i;

	(void)state;
	itsfx_setup(&f, &rc, NULL, 2, true);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	live = virq_sim_live_pages(f.g.sim);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), 0x29);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_ESTALLED);
	assert_false(virq_sim_its_state_vpe(f.sm[0], 0, NULL, NULL)); /* rolled back on ITS 0 */
	i = itsfx_find_op(f.sm[0], 0x29, 0);
	assert_true(i >= 0);
	assert_true(itsfx_find_op(f.sm[0], 0x29, (size_t)i + 1) > i); /* the unmap */
	assert_int_equal(vm.nr_vpes, 0);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), -1);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(v.vpeid, 0);
	/* Teardown fails on ITS 1 (first in reverse order): DEAD, retried later. */
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), 0x29);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_ESTALLED);
	assert_true(v.flags & LIBVIRQ_VPE_DEAD);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_EDEAD);
	assert_int_equal(virq_vpe_move(&v, 0), LIBVIRQ_EDEAD);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), -1);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_false(virq_sim_its_state_vpe(f.sm[0], 0, NULL, NULL));
	assert_false(virq_sim_its_state_vpe(f.sm[1], 0, NULL, NULL));
	/* Only the two level-2 vPE-table pages stay (one per ITS, kept until the
	 * ITS is destroyed; itsfx_teardown checks that everything goes then). */
	assert_int_equal(virq_sim_live_pages(f.g.sim), live + 2);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* A slow ITS (one command per relax): the whole path still completes. */
static void test_slow_its(void **state)
{
	struct its_fx f;
	struct run r;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, false);
	virq_sim_its_set_per_relax(virq_sim_its_state_queue(f.sm[0]), 1);
	memset(&r, 0, sizeof(r));
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &r.dev, 5, 64), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&r.vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&r.vpe[0], &r.vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map_range(&r.dev, 0, 64, &r.vpe[0], 8192, false), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 5, 63).vintid, 8192 + 63);
	for (uint32_t e = 0; e < 64; e++)
		assert_int_equal(virq_vlpi_unmap(&r.dev, e), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&r.dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&r.vpe[0]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&r.vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* VMOVP (ITSList mode, 3 ITSes) stalls on the second ITS after the first
 * executed it: the ITSes disagree on the vPE's RD. Moving again to the same
 * RD must finish the job on every ITS (not return OK with nothing sent). */
static void test_vmovp_partial_retry(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint64_t rdb;

	(void)state;
	rc.nr = 2;
	ic.typer = QEMU_TYPER_40 & ~(1ull << 37); /* GITS_TYPER.VMOVP = 0 */
	itsfx_setup(&f, &rc, &ic, 3, true);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), 0x22);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), -1);
	assert_true(virq_sim_its_state_vpe(f.sm[0], v.vpeid, &rdb, NULL));
	assert_int_equal(rdb, 1ull << 16); /* ITS 0 moved it */
	/* Every ITS is published before any is waited for: ITS 2 ran it too,
	 * ITS 1 (stalled on it) did not. */
	assert_true(virq_sim_its_state_vpe(f.sm[2], v.vpeid, &rdb, NULL));
	assert_int_equal(rdb, 1ull << 16);
	assert_true(virq_sim_its_state_vpe(f.sm[1], v.vpeid, &rdb, NULL));
	assert_int_equal(rdb, 0);
	/* Retry the same move: every ITS must end up on RD 1. */
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	for (unsigned i = 0; i < 3; i++) {
		assert_true(virq_sim_its_state_vpe(f.sm[i], v.vpeid, &rdb, NULL));
		assert_int_equal(rdb, 1ull << 16);
	}
	assert_int_equal(virq_vpe_make_resident(&v, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_nonresident(&v, false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* vPE init: VMAPP fails on ITS 1 and the rollback VMAPP(V=0) fails on
 * ITS 0. ITS 0 still maps the vPE, so its VPT and vPEID must not be freed
 * (the ITS would write into freed memory; the vPEID would be handed out
 * twice). The vPE is left DEAD; destroy finishes the teardown. */
static void test_vpe_init_rollback_fails(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v, w;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 2, true);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	/* ITS 0 runs VMAPP, VINVALL, VSYNC; the 4th command, the rollback
	 * VMAPP(V=0), stalls. */
	virq_sim_its_clear_log(virq_sim_its_state_queue(f.sm[0]));
	virq_sim_its_stall_nth(virq_sim_its_state_queue(f.sm[0]), 4);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), 0x29);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), -1);
	assert_int_equal(virq_sim_its_cmd_at(virq_sim_its_state_queue(f.sm[0]), 2)->op, 0x25);
	assert_int_equal(virq_sim_its_stalls(virq_sim_its_state_queue(f.sm[0])), 1);
	assert_true(virq_sim_its_state_vpe(f.sm[0], 0, NULL, NULL)); /* still mapped on ITS 0 */
	assert_true(v.flags & LIBVIRQ_VPE_DEAD);
	assert_non_null(v.vpt.va);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_EDEAD);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_EBUSY);
	/* vPEID 0 is still in use on ITS 0: a new vPE gets another one. */
	assert_int_equal(virq_vpe_init(&w, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_not_equal(w.vpeid, v.vpeid);
	assert_int_equal(virq_vpe_destroy(&w), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_false(virq_sim_its_state_vpe(f.sm[0], 0, NULL, NULL));
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* An ITS whose queue cannot be reset (never consumes, never quiescent) is
 * dead. Its devices and vPEs can still be released, and once it becomes
 * quiescent it can be destroyed and everything is freed. */
static void test_dead_its_releasable(void **state)
{
	struct its_fx f;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe v;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 1, 8), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 0, &v, 8192, false), LIBVIRQ_OK);
	virq_sim_its_set_dead(virq_sim_its_state_queue(f.sm[0]), true);
	virq_sim_its_set_never_quiescent(virq_sim_its_state_queue(f.sm[0]), true);
	assert_int_not_equal(virq_its_inv(&dev, 0), LIBVIRQ_OK);
	assert_true(f.its[0].dead);
	assert_int_equal(virq_vlpi_unmap(&dev, 0), LIBVIRQ_EDEAD);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(f.its[0].nr_devices, 0);
	assert_int_equal(f.its[0].nr_vpes, 0);
	/* Not quiescent: destroy keeps the memory. */
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_ETIMEDOUT);
	virq_sim_its_set_never_quiescent(virq_sim_its_state_queue(f.sm[0]), false);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_OK);
	itsfx_teardown(&f, true); /* checks that no page is left */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_v40),
	    cmocka_unit_test(test_sweep_v40_two_its_flat),
	    cmocka_unit_test(test_sweep_v41),
	    cmocka_unit_test(test_stall_keeps_state),
	    cmocka_unit_test(test_dead_its),
	    cmocka_unit_test(test_slow_its),
	    cmocka_unit_test(test_vpe_rollback_and_dead),
	    cmocka_unit_test(test_vmovp_partial_retry),
	    cmocka_unit_test(test_vpe_init_rollback_fails),
	    cmocka_unit_test(test_dead_its_releasable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
