/* SPDX-License-Identifier: MIT */
/*
 * The SMP pieces of the GICv4 core against the models:
 * - the embedder's ITS lock (::virq_its_cfg::lock): held around every
 *   command the ITS executes, taken and released around every public call
 *   that uses the ITS, never nested, never held across a return (also on
 *   every error path), one ITS at a time;
 * - doorbells after a move (GICv4.0, two redistributors): a doorbell left
 *   pending on the old redistributor by a vLPI that arrived while the vPE
 *   was not resident is cleared there by virq_vpe_move() (GICR_CLRLPIR with
 *   DirectLPI, CLEAR through the proxy device otherwise), and raised on the
 *   new one only for a vCPU in WFI.
 */
#include "its_fixture.h"

/* ---------------- an instrumented lock ---------------- */

struct tlock {
	int held;
	unsigned long acquires, releases;
	unsigned long nested;	     /* acquire while held */
	unsigned long stray;	     /* release while not held */
	unsigned long cmds_unlocked; /* commands the ITS executed with the lock free */
	unsigned long cmds;
	int *global_held;	/* shared by the locks of several ITSes */
	unsigned long two_held; /* acquire while another ITS's lock was held */
};

static void tl_acquire_(void *arg)
{
	struct tlock *l = arg;

	if (l->held)
		l->nested++;
	if (l->global_held && *l->global_held)
		l->two_held++;
	l->held = 1;
	if (l->global_held)
		(*l->global_held)++;
	l->acquires++;
}

static void tl_release_(void *arg)
{
	struct tlock *l = arg;

	if (!l->held)
		l->stray++;
	l->held = 0;
	if (l->global_held)
		(*l->global_held)--;
	l->releases++;
}

static enum virq_sim_its_verdict tl_cmd_hook_(void *arg, struct virq_sim_its *m,
					      const struct virq_sim_its_cmd *c)
{
	struct tlock *l = arg;

	(void)m;
	(void)c;
	l->cmds++;
	if (!l->held)
		l->cmds_unlocked++;
	return LIBVIRQ_SIM_ITS_OK;
}

/* After every public call: balanced, free. */
#define LOCK_FREE(l)                                                                               \
	do {                                                                                       \
		assert_int_equal((l)->held, 0);                                                    \
		assert_int_equal((l)->acquires, (l)->releases);                                    \
		assert_int_equal((l)->nested, 0);                                                  \
		assert_int_equal((l)->stray, 0);                                                   \
	} while (0)

struct smp_fx {
	struct its_fx f;
	struct tlock lock;
	struct virq_sim_its *q;
};

/* GICv4.0 (QEMU-like), @nr RDs, one ITS with the proxy and the lock. */
static void smp_setup_(struct smp_fx *x, unsigned nr, bool direct_lpi, bool proxy)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_its_cfg cfg;

	memset(x, 0, sizeof(*x));
	rc.nr = nr;
	rc.direct_lpi = direct_lpi;
	itsfx_setup(&x->f, &rc, NULL, 1, false);
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.proxy_doorbells = proxy;
	cfg.eager_vpes = true; /* the stalls below count the commands of eager mapping */
	cfg.lock.acquire = tl_acquire_;
	cfg.lock.release = tl_release_;
	cfg.lock.arg = &x->lock;
	x->q = virq_sim_its_state_queue(x->f.sm[0]);
	virq_sim_its_add_hook(x->q, tl_cmd_hook_, &x->lock);
	assert_int_equal(virq_its_init(&x->f.its[0], &x->f.g.gic, &x->f.g.desc.its[0], &cfg),
			 LIBVIRQ_OK);
	/* virq_its_init() takes no lock: nothing may run on the ITS meanwhile. */
	assert_int_equal(x->lock.acquires, 0);
	for (unsigned r = 0; r < nr; r++) {
		assert_int_equal(virq_its_map_collection(&x->f.its[0], r), LIBVIRQ_OK);
		LOCK_FREE(&x->lock);
	}
}

static void smp_teardown_(struct smp_fx *x)
{
	itsfx_no_errors(&x->f);
	itsfx_teardown(&x->f, true);
}

static void test_lock_cfg_needs_both(void **state)
{
	struct its_fx f;
	struct virq_its_cfg cfg;
	struct tlock l;

	(void)state;
	memset(&l, 0, sizeof(l));
	itsfx_setup(&f, NULL, NULL, 1, false);
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.lock.acquire = tl_acquire_;
	cfg.lock.arg = &l;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg),
			 LIBVIRQ_EINVAL);
	cfg.lock.acquire = NULL;
	cfg.lock.release = tl_release_;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg),
			 LIBVIRQ_EINVAL);
	assert_int_equal(l.acquires + l.releases, 0);
	itsfx_teardown(&f, false);
}

/*
 * Every public call that sends commands, one after the other: each takes
 * the lock and leaves it free; every command runs with it held.
 */
static void test_lock_around_every_command(void **state)
{
	struct smp_fx x;
	struct virq_its *its;
	struct virq_its_device dev, dev2;
	struct virq_gic_vm vm;
	struct virq_vpe v, w;
	struct virq_its_event ev;
	uint32_t db, db2, lpi;
	unsigned long a0;
	bool pl;

	(void)state;
	smp_setup_(&x, 2, false, true);
	its = &x.f.its[0];
	assert_int_equal(virq_gic_vm_init(&vm, &x.f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&x.f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&x.f.g.gic, 1, &db2), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&x.f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_set_config(&x.f.g.gic, db, 0xA0, true), LIBVIRQ_OK);
#define CALL(expr)                                                                                 \
	do {                                                                                       \
		a0 = x.lock.acquires;                                                              \
		assert_int_equal((expr), LIBVIRQ_OK);                                              \
		LOCK_FREE(&x.lock);                                                                \
		assert_true(x.lock.acquires > a0);                                                 \
	} while (0)
	CALL(virq_vpe_init(&v, &vm, 0, db));
	CALL(virq_vpe_init(&w, &vm, 1, db2));
	CALL(virq_its_device_map(its, &dev, 1, 32));
	CALL(virq_its_device_map(its, &dev2, 2, 8));
	CALL(virq_its_map_lpi(&dev, 0, lpi, 0));
	CALL(virq_its_int(&dev, 0));
	CALL(virq_its_clear(&dev, 0));
	CALL(virq_its_inv(&dev, 0));
	CALL(virq_its_unmap_event(&dev, 0));
	CALL(virq_vlpi_map(&dev, 1, &v, 8192, true));
	CALL(virq_vlpi_map_range(&dev, 2, 4, &v, 8200, true));
	CALL(virq_vlpi_remap(&dev, 1, &w, 8193));
	CALL(virq_vlpi_move(&dev, 1, &v));
	CALL(virq_vlpi_set_doorbell(&dev, 1, false));
	CALL(virq_vlpi_set_config(&dev, 1, 0x80, true));
	CALL(virq_vlpi_map_config(&dev, 6, &v, 8300, true, 0x40, false));
	CALL(virq_vpe_invall(&v));
	CALL(virq_vlpi_map(&dev2, 0, &w, 8192, true));
	/* Doorbell masking through the proxy (no DirectLPI): residency sends INVs. */
	CALL(virq_vpe_set_db_masking(&v, true));
	CALL(virq_vpe_make_resident(&v, 0));
	CALL(virq_vpe_make_nonresident(&v, true, &pl));
	CALL(virq_vpe_doorbell_invalidate(&v));
	/* A doorbell pending on RD 0 when v moves to RD 1: cleared through the proxy. */
	CALL(virq_its_int(&dev, 2));
	CALL(virq_vpe_move(&v, 1));
	CALL(virq_vpe_move(&v, 0));
	/* Residency without masking touches no ITS: no lock. */
	a0 = x.lock.acquires;
	assert_int_equal(virq_vpe_make_resident(&w, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_nonresident(&w, false, &pl), LIBVIRQ_OK);
	assert_int_equal(x.lock.acquires, a0);
	/* Reading the tracking takes no lock either. */
	assert_int_equal(virq_its_event_get(&dev, 1, &ev), LIBVIRQ_OK);
	assert_int_equal(x.lock.acquires, a0);
	for (uint32_t e = 1; e < 7; e++)
		CALL(virq_vlpi_unmap(&dev, e));
	CALL(virq_vlpi_unmap(&dev2, 0));
	CALL(virq_its_device_unmap(&dev2));
	CALL(virq_its_device_unmap(&dev));
	CALL(virq_vpe_destroy(&w));
	CALL(virq_vpe_destroy(&v));
#undef CALL
	assert_true(x.lock.cmds > 50);
	assert_int_equal(x.lock.cmds_unlocked, 0);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	/* virq_its_destroy() takes no lock (the proxy device's MAPD V=0 runs
	 * from it, with nothing else allowed on the ITS). */
	x.lock.cmds_unlocked = 0;
	smp_teardown_(&x);
}

/* The k-th command from now stalls. */
static void stall_next_(struct smp_fx *x, unsigned long k)
{
	virq_sim_its_clear_log(x->q);
	virq_sim_its_stall_nth(x->q, k);
}

/* Every error path returns with the lock free. */
static void test_lock_released_on_errors(void **state)
{
	struct smp_fx x;
	struct virq_its *its;
	struct virq_its_device dev, dev2;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db, lpi;

	(void)state;
	smp_setup_(&x, 2, false, true);
	its = &x.f.its[0];
	assert_int_equal(virq_gic_vm_init(&vm, &x.f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&x.f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&x.f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(its, &dev, 1, 32), LIBVIRQ_OK);
	/* Checks that fail under the lock. */
	assert_int_equal(virq_its_device_map(its, &dev2, 1, 8), LIBVIRQ_EEXIST);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_its_map_lpi(&dev, 0, lpi, 7), LIBVIRQ_ENOENT); /* no collection */
	LOCK_FREE(&x.lock);
	/* Allocation failure under the lock. */
	virq_sim_fail_alloc_nth(x.f.g.sim, 1); /* 512 events: the ITT takes whole pages */
	assert_int_equal(virq_its_device_map(its, &dev2, 2, 512), LIBVIRQ_ENOMEM);
	LOCK_FREE(&x.lock);
	/* Queue stalls: the command fails, the queue is reset, the lock freed. */
	assert_int_equal(virq_its_map_lpi(&dev, 0, lpi, 0), LIBVIRQ_OK);
	stall_next_(&x, 1);
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_ESTALLED);
	LOCK_FREE(&x.lock);
	stall_next_(&x, 3);
	assert_int_equal(virq_vlpi_map_range(&dev, 4, 8, &v, 8200, true), LIBVIRQ_ESTALLED);
	LOCK_FREE(&x.lock);
	stall_next_(&x, 1);
	assert_int_equal(virq_vlpi_map(&dev, 1, &v, 8192, true), LIBVIRQ_ESTALLED);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_vlpi_map(&dev, 1, &v, 8192, true), LIBVIRQ_OK);
	/* A VMOVP that stalls, then a doorbell clean-up that stalls. */
	stall_next_(&x, 1);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_ESTALLED);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_its_int(&dev, 1), LIBVIRQ_OK); /* doorbell pending on RD 0 */
	virq_sim_its_stall_opcode(x.q, 0x04);		     /* CLEAR */
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_ESTALLED);
	LOCK_FREE(&x.lock);
	assert_true(v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	virq_sim_its_stall_opcode(x.q, -1);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	LOCK_FREE(&x.lock);
	assert_false(virq_sim_rdist_lpi_pending(x.f.g.rm, 0, db));
	/* A dead ITS: every call returns at once, lock free. */
	virq_sim_its_set_dead(x.q, true);
	virq_sim_its_set_never_quiescent(x.q, true);
	assert_true(virq_its_int(&dev, 0) != LIBVIRQ_OK);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_EDEAD);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_vlpi_map(&dev, 2, &v, 8194, true), LIBVIRQ_EDEAD);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_vpe_move(&v, 0), LIBVIRQ_EDEAD);
	LOCK_FREE(&x.lock);
	assert_int_equal(x.lock.cmds_unlocked, 0);
	/* Tear down what a dead ITS lets go. */
	assert_int_equal(virq_its_unmap_event(&dev, 0), LIBVIRQ_EDEAD);
	assert_int_equal(virq_vlpi_unmap(&dev, 1), LIBVIRQ_EDEAD);
	/* The two VMAPTIs of the range that ran before its stall. */
	assert_int_equal(virq_vlpi_unmap(&dev, 4), LIBVIRQ_EDEAD);
	assert_int_equal(virq_vlpi_unmap(&dev, 5), LIBVIRQ_EDEAD);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	LOCK_FREE(&x.lock);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	virq_sim_its_set_never_quiescent(x.q, false);
	itsfx_teardown(&x.f, true);
}

/* Two ITSes, two locks: a vPE set-up and a move use both, one at a time. */
static void test_lock_one_its_at_a_time(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct tlock l[2];
	int held = 0;
	struct virq_gic_vm vm;
	struct virq_vpe v;

	(void)state;
	memset(l, 0, sizeof(l));
	rc.nr = 2;
	ic.typer = QEMU_TYPER_40 & ~(1ull << 37); /* VMOVP = 0: one VMOVP per ITS */
	itsfx_setup(&f, &rc, &ic, 2, false);
	for (unsigned i = 0; i < 2; i++) {
		struct virq_its_cfg cfg;

		memset(&cfg, 0, sizeof(cfg));
		cfg.numa_node = -1;
		cfg.eager_vpes = true; /* the set-up maps the vPE on both ITSes */
		cfg.lock.acquire = tl_acquire_;
		cfg.lock.release = tl_release_;
		cfg.lock.arg = &l[i];
		l[i].global_held = &held;
		virq_sim_its_add_hook(virq_sim_its_state_queue(f.sm[i]), tl_cmd_hook_, &l[i]);
		assert_int_equal(virq_its_init(&f.its[i], &f.g.gic, &f.g.desc.its[i], &cfg),
				 LIBVIRQ_OK);
		for (unsigned r = 0; r < 2; r++)
			assert_int_equal(virq_its_map_collection(&f.its[i], r), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	for (unsigned i = 0; i < 2; i++) {
		LOCK_FREE(&l[i]);
		assert_int_equal(l[i].two_held, 0);
		assert_int_equal(l[i].cmds_unlocked, 0);
		/* map_collection x2, VMAPP, VMOVP (published on each ITS, then
		 * waited for on each: the lock twice, never two locks at once),
		 * VMAPP (V = 0). */
		assert_int_equal(l[i].acquires, 6);
	}
	assert_int_equal(held, 0);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* ---------------- doorbells after a move ---------------- */

struct db_fx {
	struct smp_fx x;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db;
};

/* vPE on RD 0, event 0 -> vINTID 8192 with its doorbell; not resident; a
 * vLPI arrives (INT): the doorbell is pending on RD 0. */
static void db_setup_(struct db_fx *d, bool direct_lpi, bool proxy, bool wfi)
{
	bool pl = true;

	smp_setup_(&d->x, 2, direct_lpi, proxy);
	assert_int_equal(virq_gic_vm_init(&d->vm, &d->x.f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&d->x.f.g.gic, 1, &d->db), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_set_config(&d->x.f.g.gic, d->db, 0xA0, true), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&d->v, &d->vm, 0, d->db), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&d->x.f.its[0], &d->dev, 1, 4), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&d->dev, 0, &d->v, 8192, true), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&d->v, 0), LIBVIRQ_OK);
	if (wfi)
		assert_int_equal(virq_vpe_wfi_enter(&d->v), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_put(&d->v, &pl), LIBVIRQ_OK);
	assert_false(pl);
	assert_int_equal(virq_its_int(&d->dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_doorbells(d->x.f.sm[0], d->db), 1);
	assert_true(virq_sim_rdist_lpi_pending(d->x.f.g.rm, 0, d->db));
	assert_false(virq_sim_rdist_lpi_pending(d->x.f.g.rm, 1, d->db));
	virq_sim_its_clear_log(d->x.q);
}

static void db_teardown_(struct db_fx *d)
{
	if (d->v.flags & LIBVIRQ_VPE_IN_WFI)
		assert_int_equal(virq_vpe_wfi_exit(&d->v), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap(&d->dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d->dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&d->v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&d->vm), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_direct_lpi_misuse(d->x.f.g.rm), 0);
	LOCK_FREE(&d->x.lock);
	assert_int_equal(d->x.lock.cmds_unlocked, 0);
	smp_teardown_(&d->x);
}

/* No DirectLPI (QEMU): MAPTI of a proxy slot on RD 0's collection, CLEAR,
 * MOVI to RD 1. Before the fix the doorbell stayed pending on RD 0. */
static void test_move_clears_stale_doorbell_proxy(void **state)
{
	struct db_fx d;
	const struct virq_sim_its_cmd *c;
	uint32_t pdev;

	(void)state;
	db_setup_(&d, false, true, false);
	pdev = d.x.f.its[0].proxy_devid;
	assert_int_equal(virq_vpe_move(&d.v, 1), LIBVIRQ_OK);
	assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db)); /* cleared where it was */
	assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 1, d.db)); /* not blocked: no wake */
	/* VMOVP, VSYNC, [MAPD of the proxy], MAPTI(slot -> db, ICID 0), CLEAR, SYNC(RD 0),
	 * MOVI(ICID 1), SYNC(RD 1). */
	assert_int_equal(virq_sim_its_cmd_at(d.x.q, 0)->op, 0x22);
	c = virq_sim_its_cmd_at(d.x.q, (size_t)itsfx_find_op(d.x.f.sm[0], 0x0A, 0));
	assert_int_equal(c->dev, pdev);
	assert_int_equal(c->pintid, d.db);
	assert_int_equal(c->icid, 0);
	assert_true(itsfx_find_op(d.x.f.sm[0], 0x04, 0) > itsfx_find_op(d.x.f.sm[0], 0x0A, 0));
	assert_true(itsfx_find_op(d.x.f.sm[0], 0x01, 0) > itsfx_find_op(d.x.f.sm[0], 0x04, 0));
	assert_int_equal(
	    virq_sim_its_cmd_at(d.x.q, (size_t)itsfx_find_op(d.x.f.sm[0], 0x01, 0))->icid, 1);
	assert_int_equal(itsfx_find_op(d.x.f.sm[0], 0x03, 0), -1); /* no INT: not in WFI */
	assert_int_equal(
	    virq_sim_its_state_lookup(d.x.f.sm[0], pdev, (uint32_t)d.v.proxy_event).icid, 1);
	/* Back to RD 0 with a doorbell pending on RD 1: the slot exists now,
	 * CLEAR on RD 1 then MOVI; nothing is left behind. */
	assert_int_equal(virq_its_int(&d.dev, 0), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 1, d.db));
	virq_sim_its_clear_log(d.x.q);
	assert_int_equal(virq_vpe_move(&d.v, 0), LIBVIRQ_OK);
	assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 1, d.db));
	assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db));
	assert_int_equal(itsfx_find_op(d.x.f.sm[0], 0x0A, 0), -1); /* no new MAPTI */
	db_teardown_(&d);
}

/* A blocked vCPU keeps its wake-up: the doorbell is raised on the new RD. */
static void test_move_wfi_doorbell_follows_proxy(void **state)
{
	struct db_fx d;

	(void)state;
	db_setup_(&d, false, true, true);
	assert_int_equal(virq_vpe_move(&d.v, 1), LIBVIRQ_OK);
	assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db));
	assert_true(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 1, d.db));
	assert_true(itsfx_find_op(d.x.f.sm[0], 0x03, 0) > itsfx_find_op(d.x.f.sm[0], 0x01, 0));
	db_teardown_(&d);
}

/* DirectLPI: GICR_CLRLPIR on the old RD (and GICR_SETLPIR on the new one in
 * WFI), each followed by a GICR_SYNCR wait; no ITS command, no proxy. */
static void test_move_clears_stale_doorbell_direct(void **state)
{
	for (int wfi = 0; wfi < 2; wfi++) {
		struct db_fx d;
		size_t n;

		(void)state;
		db_setup_(&d, true, true, wfi);
		assert_int_equal(virq_vpe_move(&d.v, 1), LIBVIRQ_OK);
		assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db));
		assert_int_equal(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 1, d.db), wfi);
		assert_int_equal(virq_sim_rdist_clrlpir_count(d.x.f.g.rm, 0), 1);
		assert_int_equal(virq_sim_rdist_clrlpir_count(d.x.f.g.rm, 1), 0);
		assert_int_equal(virq_sim_rdist_setlpir_count(d.x.f.g.rm, 1), (unsigned long)wfi);
		assert_int_equal(virq_sim_rdist_setlpir_count(d.x.f.g.rm, 0), 0);
		n = virq_sim_its_ncmds(d.x.q);
		assert_int_equal(n, 2); /* VMOVP + VSYNC only */
		assert_null(d.x.f.its[0].proxy);
		assert_true(virq_sim_count_at(d.x.f.g.sim, LIBVIRQ_SIM_MMIO_R32,
					      fx_rd(&d.x.f.g, 0, LIBVIRQ_GICR_SYNCR)) > 0);
		db_teardown_(&d);
	}
}

/* Neither DirectLPI nor a proxy device: nothing reaches the doorbell, so it
 * stays where it is (documented); the move itself succeeds. */
static void test_move_without_a_path_leaves_it(void **state)
{
	struct db_fx d;

	(void)state;
	db_setup_(&d, false, false, false);
	assert_int_equal(virq_vpe_move(&d.v, 1), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db));
	assert_int_equal(virq_sim_its_ncmds(d.x.q), 2);
	db_teardown_(&d);
}

/* A clean-up that failed is redone by the retry, on the RD the vPE left. */
static void test_move_retry_clears_origin(void **state)
{
	struct db_fx d;

	(void)state;
	db_setup_(&d, false, true, false);
	virq_sim_its_stall_opcode(d.x.q, 0x04); /* the CLEAR stalls */
	assert_int_equal(virq_vpe_move(&d.v, 1), LIBVIRQ_ESTALLED);
	assert_true(d.v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	assert_int_equal(d.v.rd, 1);
	assert_int_equal(d.v.move_from, 0);
	assert_true(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db));
	assert_int_equal(virq_vpe_make_resident(&d.v, 1), LIBVIRQ_EBUSY);
	virq_sim_its_stall_opcode(d.x.q, -1);
	assert_int_equal(virq_vpe_move(&d.v, 1), LIBVIRQ_OK);
	assert_false(d.v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	assert_false(virq_sim_rdist_lpi_pending(d.x.f.g.rm, 0, d.db));
	/* The stalled batch's slot was left taken by nobody; the retry used
	 * the next one and the old one is DISCARDed when reused. */
	db_teardown_(&d);
}

/* GICv4.1: VMOVP carries the default doorbell (DB = 1); no clean-up here. */
static void test_move_41_no_cleanup(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db;
	struct virq_sim_its *q;

	(void)state;
	rc.nr = 2;
	rc.version = 41;
	rc.direct_lpi = true;
	ic.typer = QEMU_TYPER_40 | (1ull << 40);
	itsfx_setup(&f, &rc, &ic, 1, true);
	q = virq_sim_its_state_queue(f.sm[0]);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 2);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x22);
	assert_true(virq_sim_its_cmd_at(q, 0)->db41);
	assert_int_equal(virq_sim_rdist_clrlpir_count(f.g.rm, 0), 0);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lock_cfg_needs_both),
	    cmocka_unit_test(test_lock_around_every_command),
	    cmocka_unit_test(test_lock_released_on_errors),
	    cmocka_unit_test(test_lock_one_its_at_a_time),
	    cmocka_unit_test(test_move_clears_stale_doorbell_proxy),
	    cmocka_unit_test(test_move_wfi_doorbell_follows_proxy),
	    cmocka_unit_test(test_move_clears_stale_doorbell_direct),
	    cmocka_unit_test(test_move_without_a_path_leaves_it),
	    cmocka_unit_test(test_move_retry_clears_origin),
	    cmocka_unit_test(test_move_41_no_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
