/* SPDX-License-Identifier: MIT */
/*
 * Another CPU's call inside a lock window, and failed commands on the
 * doorbell proxy, against the models (regressions; docs/gicv4-core.md "SMP",
 * "Failures"):
 * - virq_vpe_move() publishes VMOVP + VSYNC under the ITS lock, releases it
 *   and takes it again to wait. The lock's release callback runs "the other
 *   CPU" in that window: a call on another device whose command stalls resets
 *   the queue. The move must then report what the ITS did - ::virq_vpe::rd as
 *   the ITS routes the vPE, ::LIBVIRQ_VPE_MOVE_PENDING when an ITS took the
 *   VMOVP and the move is not finished - whether the VMOVP ran before that
 *   reset (case A) or was dropped by it and later commands refilled the queue
 *   past the mover's position (case B); and a vLPI of the vPE, made resident
 *   where the library says, is delivered.
 * - the GICv4.0 doorbell proxy keeps its slots' tracking equal to what the
 *   ITS maps after a failed [DISCARD,] MAPTI, INV, SYNC.
 * - virq_its_destroy() takes no ITS lock (the embedder may hold it across the
 *   teardown, or have torn it down).
 */
#include "its_fixture.h"

/* ---------------- a lock whose release can run "the other CPU" ---------------- */

struct rlock {
	int held;
	unsigned long acquires, releases, nested, stray;
	unsigned long fire_at; /* run other() at this release number (0: never) */
	void (*other)(void *arg);
	void *arg;
};

static void rl_acquire_(void *arg)
{
	struct rlock *l = arg;

	if (l->held)
		l->nested++;
	l->held = 1;
	l->acquires++;
}

static void rl_release_(void *arg)
{
	struct rlock *l = arg;

	if (!l->held)
		l->stray++;
	l->held = 0;
	l->releases++;
	if (l->fire_at && l->releases == l->fire_at) {
		l->fire_at = 0;
		l->other(l->arg); /* another CPU takes the free lock now */
	}
}

/* Runs @fn at the next release of the lock. */
static void at_next_release_(struct rlock *l, void (*fn)(void *), void *arg)
{
	l->other = fn;
	l->arg = arg;
	l->fire_at = l->releases + 1;
}

struct rx {
	struct its_fx f;
	struct rlock lock;
	struct virq_sim_its *q;
	struct virq_gic_vm vm;
	struct virq_vpe v, w;	       /* v: the mover's; w: the other CPU's */
	struct virq_its_device dv, dw; /* dv -> v (DeviceID 1), dw -> w (DeviceID 2) */
};

/* GICv4.0 (QEMU-like: VMOVP = 1), 2 RDs, one ITS with the lock. v and w on
 * RD 0, not resident, no doorbell; dv event 0 -> v 8192, dw (64 events) event 0 -> w 8192. */
static void rx_setup_(struct rx *x)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_its_cfg cfg;

	memset(x, 0, sizeof(*x));
	rc.nr = 2;
	itsfx_setup(&x->f, &rc, NULL, 1, false);
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.lock.acquire = rl_acquire_;
	cfg.lock.release = rl_release_;
	cfg.lock.arg = &x->lock;
	x->q = virq_sim_its_state_queue(x->f.sm[0]);
	assert_int_equal(virq_its_init(&x->f.its[0], &x->f.g.gic, &x->f.g.desc.its[0], &cfg),
			 LIBVIRQ_OK);
	for (unsigned r = 0; r < 2; r++)
		assert_int_equal(virq_its_map_collection(&x->f.its[0], r), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&x->vm, &x->f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&x->v, &x->vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&x->w, &x->vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&x->f.its[0], &x->dv, 1, 4), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&x->f.its[0], &x->dw, 2, 64), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&x->dv, 0, &x->v, 8192, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&x->dw, 0, &x->w, 8192, false), LIBVIRQ_OK);
}

static void rx_teardown_(struct rx *x)
{
	for (uint32_t e = 0; e < x->dw.nr_events; e++) {
		struct virq_its_event ev;

		assert_int_equal(virq_its_event_get(&x->dw, e, &ev), LIBVIRQ_OK);
		if (ev.kind != LIBVIRQ_ITS_EV_NONE)
			assert_int_equal(virq_vlpi_unmap(&x->dw, e), LIBVIRQ_OK);
	}
	assert_int_equal(virq_vlpi_unmap(&x->dv, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&x->dw), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&x->dv), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&x->w), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&x->v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&x->vm), LIBVIRQ_OK);
	assert_int_equal(x->lock.held, 0);
	assert_int_equal(x->lock.nested + x->lock.stray, 0);
	itsfx_no_errors(&x->f);
	itsfx_teardown(&x->f, true);
}

/* The redistributor the ITS model routes @vpe to (PTA = 0: processor number). */
static uint32_t model_rd_(const struct rx *x, const struct virq_vpe *vpe)
{
	uint64_t rdbase = 0;

	assert_true(virq_sim_its_state_vpe(x->f.sm[0], vpe->vpeid, &rdbase, NULL));
	return (uint32_t)(rdbase >> 16);
}

/*
 * The contract of virq_vpe_move(&x->v, to) that returned @st: success means
 * the ITS routes to @to and nothing is pending; a failure either left the vPE
 * where the ITS still routes it (no flag), or set ::LIBVIRQ_VPE_MOVE_PENDING
 * with rd = @to (an ITS may route there). Then the move is finished (retried
 * as documented), the vPE made resident where the library says, and a vLPI
 * sent to it is delivered there, once.
 */
static void move_contract_(struct rx *x, virq_status st, uint32_t to)
{
	unsigned long before;

	if (st == LIBVIRQ_OK) {
		assert_false(x->v.flags & LIBVIRQ_VPE_MOVE_PENDING);
		assert_int_equal(x->v.rd, to);
		assert_int_equal(model_rd_(x, &x->v), to);
	} else if (x->v.flags & LIBVIRQ_VPE_MOVE_PENDING) {
		assert_int_equal(x->v.rd, to);
		assert_int_equal(virq_vpe_make_resident(&x->v, x->v.rd), LIBVIRQ_EBUSY);
	} else {
		assert_int_equal(x->v.rd, model_rd_(x, &x->v));
	}
	/* On any error the embedder moves again (documented retry). */
	for (int i = 0; i < 3 && st != LIBVIRQ_OK; i++)
		st = virq_vpe_move(&x->v, to);
	assert_int_equal(st, LIBVIRQ_OK);
	assert_int_equal(model_rd_(x, &x->v), x->v.rd);
	before = virq_sim_its_state_vdelivered(x->f.sm[0], x->v.vpeid, 8192);
	assert_int_equal(virq_vpe_make_resident(&x->v, x->v.rd), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_msi(x->f.sm[0], 1, 0));
	assert_int_equal(virq_sim_its_state_vdelivered(x->f.sm[0], x->v.vpeid, 8192), before + 1);
	assert_int_equal(virq_vpe_make_nonresident(&x->v, false, NULL), LIBVIRQ_OK);
}

/* The other CPU: an INT on its own device whose command stalls (the
 * library resets the queue: GITS_CREADR read once quiescent, later commands
 * dropped). */
static void other_int_stalls_(void *arg)
{
	struct rx *x = arg;

	virq_sim_its_clear_log(x->q);
	virq_sim_its_stall_nth(x->q, 1);
	assert_int_equal(virq_its_int(&x->dw, 0), LIBVIRQ_ESTALLED);
	assert_int_equal(x->lock.held, 0);
}

/* The other CPU: as above, then a batch of 48 VMAPTIs + VSYNC that runs:
 * the queue, restarted at offset 0, is filled past where the mover's VMOVP +
 * VSYNC ended before the reset (the set-up queued 20 commands before them). */
static void other_int_stalls_then_map_range_(void *arg)
{
	struct rx *x = arg;

	assert_int_equal(virq_its_int(&x->dw, 0), LIBVIRQ_ESTALLED);
	assert_int_equal(virq_vlpi_map_range(&x->dw, 1, 48, &x->w, 8200, false), LIBVIRQ_OK);
	assert_true(virq_sim_its_creadr(x->q) > 20 * LIBVIRQ_ITS_CMD_SIZE);
}

/* Case A: the VMOVP and its VSYNC ran; the other CPU's stall reset the queue
 * before the mover waited. Before the fix: the wait saw "ticket beyond what
 * was published" (EINVAL), reset again, and the move returned with rd = 0,
 * no MOVE_PENDING, while the ITS routed the vPE to RD 1: the vLPI made
 * resident on RD 0 was not delivered. */
static void test_move_vmovp_ran_then_other_cpu_reset(void **state)
{
	struct rx x;
	virq_status st;

	(void)state;
	rx_setup_(&x);
	at_next_release_(&x.lock, other_int_stalls_, &x);
	st = virq_vpe_move(&x.v, 1);
	assert_int_equal(x.lock.fire_at, 0); /* the other CPU ran in the window */
	assert_int_equal(model_rd_(&x, &x.v), 1);
	assert_int_equal(st, LIBVIRQ_OK); /* the VMOVP + VSYNC completed before the reset */
	move_contract_(&x, st, 1);
	rx_teardown_(&x);
}

/* Case A': the VMOVP ran, its VSYNC stalled, and the other CPU's call (queued
 * behind it) reset the queue: the ITS routes to RD 1, the move is not
 * finished: MOVE_PENDING with rd = 1. Before the fix: EINVAL, rd = 0. */
static void test_move_vsync_dropped_by_other_cpu_reset(void **state)
{
	struct rx x;
	virq_status st;

	(void)state;
	rx_setup_(&x);
	virq_sim_its_clear_log(x.q);
	virq_sim_its_stall_nth(x.q, 2); /* the mover's VSYNC */
	at_next_release_(&x.lock, other_int_stalls_then_map_range_, &x);
	st = virq_vpe_move(&x.v, 1);
	assert_int_equal(model_rd_(&x, &x.v), 1);
	assert_true(st != LIBVIRQ_OK);
	assert_true(x.v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	move_contract_(&x, st, 1);
	rx_teardown_(&x);
}

/* Case B: the VMOVP stalled; the other CPU's call behind it failed and reset
 * the queue (dropping the VMOVP), then its next call refilled the queue past
 * the mover's old position. Before the fix the move returned LIBVIRQ_OK with
 * rd = 1 while the ITS still routed the vPE to RD 0: the vLPI landed in the
 * VPT while the vPE was resident on RD 1. */
static void test_move_vmovp_dropped_by_other_cpu_reset(void **state)
{
	struct rx x;
	virq_status st;

	(void)state;
	rx_setup_(&x);
	virq_sim_its_clear_log(x.q);
	virq_sim_its_stall_nth(x.q, 1); /* the mover's VMOVP */
	at_next_release_(&x.lock, other_int_stalls_then_map_range_, &x);
	st = virq_vpe_move(&x.v, 1);
	assert_int_equal(model_rd_(&x, &x.v), 0);
	assert_true(st != LIBVIRQ_OK);
	assert_false(x.v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	assert_int_equal(x.v.rd, 0);
	move_contract_(&x, st, 1);
	rx_teardown_(&x);
}

/* The mover's own VSYNC stalls (no other CPU): the reset reads GITS_CREADR
 * past the VMOVP, so the ITS routes to RD 1. Before the fix the move kept
 * rd = 0 without MOVE_PENDING. */
static void test_move_own_vsync_stalls(void **state)
{
	struct rx x;
	virq_status st;

	(void)state;
	rx_setup_(&x);
	virq_sim_its_clear_log(x.q);
	virq_sim_its_stall_nth(x.q, 2);
	st = virq_vpe_move(&x.v, 1);
	assert_int_equal(st, LIBVIRQ_ESTALLED);
	assert_int_equal(model_rd_(&x, &x.v), 1);
	assert_true(x.v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	move_contract_(&x, st, 1);
	rx_teardown_(&x);
}

/* ---------------- the doorbell proxy after a failed command ---------------- */

struct px {
	struct its_fx f;
	struct rlock lock;
	struct virq_sim_its *q;
	struct virq_gic_vm vm;
	struct virq_vpe v[3];
	uint32_t db[3];
};

/* GICv4.0 without DirectLPI, 2 RDs (2 proxy slots), the proxy and a lock;
 * three vPEs on RD 0 with doorbells. */
static void px_setup_(struct px *x)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_its_cfg cfg;

	memset(x, 0, sizeof(*x));
	rc.nr = 2;
	itsfx_setup(&x->f, &rc, NULL, 1, false);
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.proxy_doorbells = true;
	cfg.proxy_slots = 2; /* three vPEs: the third evicts */
	cfg.lock.acquire = rl_acquire_;
	cfg.lock.release = rl_release_;
	cfg.lock.arg = &x->lock;
	x->q = virq_sim_its_state_queue(x->f.sm[0]);
	assert_int_equal(virq_its_init(&x->f.its[0], &x->f.g.gic, &x->f.g.desc.its[0], &cfg),
			 LIBVIRQ_OK);
	for (unsigned r = 0; r < 2; r++)
		assert_int_equal(virq_its_map_collection(&x->f.its[0], r), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&x->vm, &x->f.g.gic, 16), LIBVIRQ_OK);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(virq_lpi_alloc(&x->f.g.gic, 1, &x->db[i]), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_set_config(&x->f.g.gic, x->db[i], 0xA0, true),
				 LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&x->v[i], &x->vm, 0, x->db[i]), LIBVIRQ_OK);
	}
}

/* Every proxy slot: the library's tracking is what the ITS maps. */
static void px_same_as_model_(const struct px *x)
{
	const struct virq_its *its = &x->f.its[0];

	assert_non_null(its->proxy);
	for (uint32_t s = 0; s < its->proxy->nr_events; s++) {
		struct virq_its_event ev;
		struct virq_sim_its_ev hw =
		    virq_sim_its_state_lookup(x->f.sm[0], its->proxy_devid, s);

		assert_int_equal(virq_its_event_get(its->proxy, s, &ev), LIBVIRQ_OK);
		if (hw.kind == LIBVIRQ_SIM_ITS_EV_NONE) {
			assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_NONE);
			continue;
		}
		assert_int_equal(hw.kind, LIBVIRQ_SIM_ITS_EV_PHYS);
		assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_PROXY);
		assert_int_equal(ev.intid, hw.pintid);
		if (ev.vpe) {
			assert_int_equal(ev.vpe->doorbell, hw.pintid);
			assert_int_equal(ev.vpe->proxy_event, (int32_t)s);
		}
	}
	for (int i = 0; i < 3; i++) {
		struct virq_its_event e;

		if (x->v[i].proxy_event < 0)
			continue;
		assert_int_equal(virq_its_event_get(its->proxy, (uint32_t)x->v[i].proxy_event, &e),
				 LIBVIRQ_OK);
		assert_ptr_equal(e.vpe, &x->v[i]);
	}
}

static void px_teardown_(struct px *x)
{
	for (int i = 0; i < 3; i++)
		assert_int_equal(virq_vpe_destroy(&x->v[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&x->vm), LIBVIRQ_OK);
	itsfx_no_errors(&x->f);
	assert_int_equal(x->lock.held, 0);
	assert_int_equal(x->lock.nested + x->lock.stray, 0);
	itsfx_teardown(&x->f, true);
}

/* v0 and v1 take proxy slots 0 and 1: every slot is taken. */
static void px_fill_slots_(struct px *x)
{
	assert_int_equal(virq_vpe_doorbell_invalidate(&x->v[0]), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x->v[1]), LIBVIRQ_OK);
	assert_int_equal(x->v[0].proxy_event, 0);
	assert_int_equal(x->v[1].proxy_event, 1);
}

/* The MAPTI of a fresh slot ran and its INV stalled: the ITS maps the slot to
 * v0's doorbell, so the library tracks it as v0's and the retry sends only
 * INV + SYNC. Before the fix the slot was tracked free and the retry sent a
 * second MAPTI on the mapped event (UNPREDICTABLE; the model counts an error). */
static void test_proxy_mapti_ran_inv_stalled(void **state)
{
	struct px x;

	(void)state;
	px_setup_(&x);
	virq_sim_its_stall_opcode(x.q, LIBVIRQ_ITS_INV);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[0]), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(x.q, -1);
	px_same_as_model_(&x);
	virq_sim_its_clear_log(x.q);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[0]), LIBVIRQ_OK);
	assert_int_equal(itsfx_find_op(x.f.sm[0], LIBVIRQ_ITS_MAPTI, 0), -1);
	px_same_as_model_(&x);
	itsfx_no_errors(&x.f);
	px_teardown_(&x);
}

/* Slots 0 and 1 belong to v0 and v1; v2 takes slot 0 back (DISCARD + MAPTI)
 * and the DISCARD stalls: the ITS still maps slot 0 to v0's doorbell and v0
 * keeps its slot. Before the fix the slot was marked free (v0 lost it) and
 * v2's retry sent MAPTI on the mapped event without a DISCARD. */
static void test_proxy_discard_did_not_run(void **state)
{
	struct px x;

	(void)state;
	px_setup_(&x);
	px_fill_slots_(&x);
	virq_sim_its_stall_opcode(x.q, LIBVIRQ_ITS_DISCARD);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[2]), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(x.q, -1);
	px_same_as_model_(&x);
	assert_int_equal(x.v[0].proxy_event, 0);
	assert_int_equal(x.v[2].proxy_event, -1);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[2]), LIBVIRQ_OK);
	/* The retry evicts v0 and gives the slot back (INT: its doorbell). */
	assert_int_equal(x.v[2].proxy_event, -1);
	assert_int_equal(x.v[0].proxy_event, 0);
	px_same_as_model_(&x);
	itsfx_no_errors(&x.f);
	px_teardown_(&x);
}

/* Slots 0 and 1 belong to v0 and v1, and v0 is blocked (in WFI) with its
 * doorbell raised but not yet taken. v2's INV evicts v0 (round robin): the
 * DISCARD removes the pending doorbell (IHI 0069H §5.3 DISCARD), and the
 * give-back (DISCARD, SYNC, MAPTI, INT, SYNC) raises it again and returns
 * the slot. Before the fix v0 lost both: its vCPU stayed blocked with a vLPI
 * pending. */
static void test_proxy_eviction_keeps_doorbell(void **state)
{
	struct px x;

	(void)state;
	px_setup_(&x);
	px_fill_slots_(&x);
	assert_int_equal(virq_vpe_wfi_enter(&x.v[0]), LIBVIRQ_OK);
	virq_sim_rdist_lpi_set_pending(x.f.g.rm, 0, x.db[0], true);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[2]), LIBVIRQ_OK);
	assert_int_equal(x.v[0].proxy_event, 0);
	assert_int_equal(x.v[1].proxy_event, 1);
	assert_int_equal(x.v[2].proxy_event, -1);
	assert_true(virq_sim_rdist_lpi_pending(x.f.g.rm, 0, x.db[0]));
	assert_int_equal(x.f.its[0].proxy_give_backs, 1);
	/* v2 (not resident) may have lost its own doorbell with the
	 * give-back's DISCARD: PendingLast keeps its vCPU from blocking. */
	assert_true(x.v[2].flags & LIBVIRQ_VPE_PENDING_LAST);
	px_same_as_model_(&x);
	itsfx_no_errors(&x.f);
	px_teardown_(&x);
}

/* Both slots' owners are blocked and v0's doorbell is raised but not yet
 * taken: v2's INV evicts v0 (the DISCARD removes the pending doorbell), then
 * gives the slot back (DISCARD, MAPTI, INT, SYNC), so that v0's doorbell is
 * pending again. Before the fix v0 lost its slot and its doorbell. */
static void test_proxy_gives_back_blocked_slot(void **state)
{
	struct px x;

	(void)state;
	px_setup_(&x);
	px_fill_slots_(&x);
	assert_int_equal(virq_vpe_wfi_enter(&x.v[0]), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_wfi_enter(&x.v[1]), LIBVIRQ_OK);
	virq_sim_rdist_lpi_set_pending(x.f.g.rm, 0, x.db[0], true);
	virq_sim_its_clear_log(x.q);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[2]), LIBVIRQ_OK);
	assert_true(itsfx_find_op(x.f.sm[0], LIBVIRQ_ITS_INT, 0) >= 0);
	assert_int_equal(x.v[0].proxy_event, 0);
	assert_int_equal(x.v[1].proxy_event, 1);
	assert_int_equal(x.v[2].proxy_event, -1);
	assert_true(virq_sim_rdist_lpi_pending(x.f.g.rm, 0, x.db[0]));
	assert_int_equal(x.f.its[0].proxy_give_backs, 1);
	px_same_as_model_(&x);
	/* v2 has no slot: its next INV gives a slot back again. */
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[2]), LIBVIRQ_OK);
	assert_int_equal(x.f.its[0].proxy_give_backs, 2);
	assert_int_equal(x.v[2].proxy_event, -1);
	px_same_as_model_(&x);
	itsfx_no_errors(&x.f);
	px_teardown_(&x);
}

/* ---------------- the ITS teardown takes no lock ---------------- */

/* The embedder holds its (non-recursive) lock across the teardown. Before
 * the fix virq_its_destroy() freed the proxy device through the public
 * virq_its_device_unmap(), which took the lock again (a deadlock). */
static void test_its_destroy_takes_no_lock(void **state)
{
	struct px x;
	unsigned long a;

	(void)state;
	px_setup_(&x);
	assert_int_equal(virq_vpe_doorbell_invalidate(&x.v[0]), LIBVIRQ_OK);
	assert_non_null(x.f.its[0].proxy); /* the proxy device exists: teardown unmaps it */
	for (int i = 0; i < 3; i++)
		assert_int_equal(virq_vpe_destroy(&x.v[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&x.vm), LIBVIRQ_OK);
	a = x.lock.acquires;
	x.lock.held = 1; /* held by the embedder */
	assert_int_equal(virq_its_destroy(&x.f.its[0]), LIBVIRQ_OK);
	assert_int_equal(x.lock.nested, 0);
	assert_int_equal(x.lock.acquires, a);
	x.lock.held = 0;
	itsfx_no_errors(&x.f);
	itsfx_teardown(&x.f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_move_vmovp_ran_then_other_cpu_reset),
	    cmocka_unit_test(test_move_vsync_dropped_by_other_cpu_reset),
	    cmocka_unit_test(test_move_vmovp_dropped_by_other_cpu_reset),
	    cmocka_unit_test(test_move_own_vsync_stalls),
	    cmocka_unit_test(test_proxy_mapti_ran_inv_stalled),
	    cmocka_unit_test(test_proxy_discard_did_not_run),
	    cmocka_unit_test(test_proxy_eviction_keeps_doorbell),
	    cmocka_unit_test(test_proxy_gives_back_blocked_slot),
	    cmocka_unit_test(test_its_destroy_takes_no_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
