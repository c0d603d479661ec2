/* SPDX-License-Identifier: MIT */
/* Residency: GICv4.0 and 4.1 layouts, exact access counts, Dirty polling and
 * timeouts, PendingLast, the WFI/doorbell state machine
 * (docs/rationale.md#gic-doorbell-wfi). */
#include "its_fixture.h"

/* GICv4.1, GITS_TYPER.SVPET = 1: the vPE table is shared with the RDs of Aff3 0 */
#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40) | (1ull << 41))

struct rfx {
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe[2];
	uint32_t db[2];
};

static void rfx_setup(struct rfx *r, int version, unsigned nr_rd, bool dirty, unsigned dirty_polls)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);

	rc.version = version;
	rc.nr = nr_rd;
	rc.dirty = dirty;
	rc.dirty_polls = dirty_polls;
	if (version == 41)
		ic.typer = TYPER_41;
	itsfx_setup(&r->f, &rc, &ic, 1, true);
	assert_int_equal(virq_gic_vm_init(&r->vm, &r->f.g.gic, 16), LIBVIRQ_OK);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(virq_lpi_alloc(&r->f.g.gic, 1, &r->db[i]), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&r->vpe[i], &r->vm, i % nr_rd, r->db[i]),
				 LIBVIRQ_OK);
	}
}

static void rfx_teardown(struct rfx *r)
{
	for (unsigned i = 0; i < 2; i++) {
		if (r->vpe[i].flags & LIBVIRQ_VPE_RESIDENT)
			assert_int_equal(virq_vpe_make_nonresident(&r->vpe[i], false, NULL),
					 LIBVIRQ_OK);
		assert_int_equal(virq_vpe_destroy(&r->vpe[i]), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_free(&r->f.g.gic, r->db[i], 1), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_destroy(&r->vm), LIBVIRQ_OK);
	itsfx_no_errors(&r->f);
	itsfx_teardown(&r->f, true);
}

static unsigned long cnt(struct rfx *r, enum virq_sim_kind k, unsigned rd, uint32_t off)
{
	return virq_sim_count_at(r->f.g.sim, k, fx_rd(&r->f.g, rd, off));
}

static void test_v40_accesses(void **state)
{
	struct rfx r;
	bool pl = true;

	(void)state;
	rfx_setup(&r, 40, 1, false, 0);
	virq_sim_reset_counters(r.f.g.sim);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	/* First time: VPROPBASER (VM table) + VPENDBASER; no read (no Dirty). */
	assert_int_equal(virq_sim_mmio_total(r.f.g.sim), 2);
	assert_int_equal(virq_sim_rdist_vpendbaser(r.f.g.rm, 0), r.vpe[0].vpt.pa | (7u << 7) |
								     (1u << 10) | (1ull << 61) |
								     (1ull << 62) | (1ull << 63));
	virq_sim_reset_counters(r.f.g.sim);
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], true, &pl), LIBVIRQ_OK);
	assert_false(pl);
	assert_int_equal(cnt(&r, LIBVIRQ_SIM_MMIO_W64, 0, LIBVIRQ_GICR_VPENDBASER), 1);
	assert_int_equal(cnt(&r, LIBVIRQ_SIM_MMIO_R64, 0, LIBVIRQ_GICR_VPENDBASER), 1);
	assert_int_equal(virq_sim_mmio_total(r.f.g.sim), 2);
	/* Same VM again: the VPROPBASER write is skipped. */
	virq_sim_reset_counters(r.f.g.sim);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_mmio_total(r.f.g.sim), 1);
	rfx_teardown(&r);
}

/* Dirty implemented: exactly k+1 reads when it clears after k polls. */
static void test_v40_dirty_polls(void **state)
{
	for (unsigned k = 0; k < 4; k++) {
		struct rfx r;
		bool pl;

		(void)state;
		rfx_setup(&r, 40, 1, true, k);
		virq_sim_reset_counters(r.f.g.sim);
		assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
		assert_int_equal(cnt(&r, LIBVIRQ_SIM_MMIO_R64, 0, LIBVIRQ_GICR_VPENDBASER), k + 1);
		virq_sim_reset_counters(r.f.g.sim);
		assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], false, &pl), LIBVIRQ_OK);
		assert_int_equal(cnt(&r, LIBVIRQ_SIM_MMIO_R64, 0, LIBVIRQ_GICR_VPENDBASER), k + 1);
		rfx_teardown(&r);
	}
}

static void test_v40_dirty_never(void **state)
{
	struct rfx r;
	bool pl = false;

	(void)state;
	rfx_setup(&r, 40, 1, true, 0);
	virq_sim_rdist_set_dirty_polls(r.f.g.rm, 0, LIBVIRQ_SIM_RDIST_NEVER);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_ETIMEDOUT);
	assert_true(r.vpe[0].flags & LIBVIRQ_VPE_RESIDENT); /* it is resident: caller must put it */
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], false, &pl), LIBVIRQ_ETIMEDOUT);
	assert_true(pl); /* unknown: assume pending */
	assert_false(r.vpe[0].flags & LIBVIRQ_VPE_RESIDENT);
	assert_int_equal(r.f.g.rds[0].resident_vpe, LIBVIRQ_VPEID_NONE);
	virq_sim_rdist_set_dirty_polls(r.f.g.rm, 0, 0);
	rfx_teardown(&r);
}

static void test_v41_layout(void **state)
{
	struct rfx r;
	bool pl = true;

	(void)state;
	rfx_setup(&r, 41, 1, true, 0);
	assert_int_equal(r.f.g.gic.version, LIBVIRQ_GIC_V4_1);
	/* The RD sees the ITS's vPE table (GICR_VPROPBASER 4.1 layout, Valid). */
	assert_true(virq_sim_rdist_vpropbaser(r.f.g.rm, 0) >> 63);
	assert_int_equal(virq_sim_rdist_vpropbaser(r.f.g.rm, 0) & 0x000FFFFFFFFFF000ull,
			 r.f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE].l1.pa);
	virq_sim_reset_counters(r.f.g.sim);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpendbaser(r.f.g.rm, 0) & ~(1ull << 61),
			 (1ull << 63) | (1ull << 59) | (1ull << 58) | r.vpe[0].vpeid);
	/* 1 write + 1 Dirty read */
	assert_int_equal(virq_sim_mmio_total(r.f.g.sim), 2);
	virq_sim_reset_counters(r.f.g.sim);
	virq_sim_trace(r.f.g.sim, true);
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], true, &pl), LIBVIRQ_OK);
	assert_false(pl);
	/* 4.1 make-non-resident while blocking: DB only. */
	assert_int_equal(virq_sim_trace_at(r.f.g.sim, 0)->value, 0x4000000000000000ull);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	virq_sim_rdist_set_pending(r.f.g.rm, 0, true);
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], true, &pl), LIBVIRQ_OK);
	assert_true(pl);
	/* Without a doorbell request: PendingLast written, reported true. */
	virq_sim_rdist_set_pending(r.f.g.rm, 0, false);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	virq_sim_trace_clear(r.f.g.sim);
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], false, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_sim_trace_at(r.f.g.sim, 0)->value, 1ull << 61);
	assert_true(pl);
	rfx_teardown(&r);
}

/* docs/rationale.md#gic-doorbell-wfi on GICv4.1. */
static void test_wfi_doorbell_state_machine(void **state)
{
	struct rfx r;
	struct virq_vpe *v;
	uint64_t va;
	bool pl;

	(void)state;
	rfx_setup(&r, 41, 1, false, 0);
	v = &r.vpe[0];
	va = fx_rd(&r.f.g, 0, LIBVIRQ_GICR_VPENDBASER);
	assert_int_equal(virq_vpe_load(v, 0), LIBVIRQ_OK);
	assert_true(v->flags & LIBVIRQ_VPE_RESIDENT);
	/* 1. WFI, put: Valid = 0, DB = 1. */
	assert_int_equal(virq_vpe_wfi_enter(v), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_put(v, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpendbaser(r.f.g.rm, 0) >> 62, 1); /* DB set, Valid clear */
	/* 2. Preempted: load while in WFI makes nothing resident. */
	virq_sim_reset_counters(r.f.g.sim);
	assert_int_equal(virq_vpe_load(v, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(r.f.g.sim, LIBVIRQ_SIM_MMIO_W64, va), 0);
	assert_false(v->flags & LIBVIRQ_VPE_RESIDENT);
	/* 3. put again: still non-resident, doorbell still requested, no write. */
	assert_int_equal(virq_vpe_put(v, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(r.f.g.sim, LIBVIRQ_SIM_MMIO_W64, va), 0);
	assert_int_equal(virq_sim_rdist_vpendbaser(r.f.g.rm, 0) >> 62, 1);
	/* 4. Woken: load makes it resident without a doorbell request. */
	assert_int_equal(virq_vpe_wfi_exit(v), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_load(v, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpendbaser(r.f.g.rm, 0) >> 62, 2); /* Valid, no DB */
	/* Plain preemption: put -> Valid = 0, DB = 0. */
	assert_int_equal(virq_vpe_put(v, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpendbaser(r.f.g.rm, 0) >> 62, 0);
	rfx_teardown(&r);
}

/* Two vPEs on two redistributors; busy and wrong-RD checks; move then schedule. */
static void two_rdists_(int version)
{
	struct rfx r;

	rfx_setup(&r, version, 2, false, 0);
	assert_int_equal(r.vpe[1].rd, 1);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[1], 1), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_resident(r.f.g.rm, 0, r.vpe[0].vpt.pa, r.vpe[0].vpeid));
	assert_true(virq_sim_rdist_resident(r.f.g.rm, 1, r.vpe[1].vpt.pa, r.vpe[1].vpeid));
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_move(&r.vpe[1], 0), LIBVIRQ_EBUSY); /* resident */
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[1], false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[1], 0), LIBVIRQ_EINVAL); /* targets rd 1 */
	assert_int_equal(virq_vpe_move(&r.vpe[1], 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[1], 0), LIBVIRQ_EBUSY); /* vpe0 is there */
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[1], 0), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_resident(r.f.g.rm, 0, r.vpe[1].vpt.pa, r.vpe[1].vpeid));
	rfx_teardown(&r);
}

static void test_two_rdists(void **state)
{
	(void)state;
	two_rdists_(40);
	two_rdists_(41);
}

/* GICv4.1 end to end: vLPI delivered when resident; default doorbell when not. */
static void test_v41_delivery_and_default_doorbell(void **state)
{
	struct rfx r;
	struct virq_its_device dev;
	bool pl;

	(void)state;
	rfx_setup(&r, 41, 1, false, 0);
	assert_int_equal(virq_its_device_map(&r.f.its[0], &dev, 3, 8), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 1, &r.vpe[0], 8300, true), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(r.f.sm[0], 3, 1).db,
			 1023); /* 4.1: no per-vLPI doorbell */
	assert_int_equal(virq_vlpi_set_doorbell(&dev, 1, true), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(&dev, 1), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_vdelivered(r.f.sm[0], r.vpe[0].vpeid, 8300), 1);
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], true, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(&dev, 1), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_doorbells(r.f.sm[0], r.db[0]), 1);
	assert_int_equal(virq_vlpi_unmap(&dev, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	rfx_teardown(&r);
}

static void test_nonresident_errors(void **state)
{
	struct rfx r;

	(void)state;
	rfx_setup(&r, 40, 1, false, 0);
	assert_int_equal(virq_vpe_make_nonresident(&r.vpe[0], false, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_make_resident(NULL, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_make_resident(&r.vpe[0], 7), LIBVIRQ_EINVAL);
	rfx_teardown(&r);
}

/* A vPE without a doorbell (LIBVIRQ_ITS_NO_DOORBELL) cannot block waiting
 * for one: virq_vpe_wfi_enter() refuses (EINVAL), and a non-resident
 * transition with a doorbell requested is made as without one, so
 * PendingLast is what the hardware says on 4.0 (nothing pending: false)
 * and reported true on 4.1 (DB not written: PendingLast UNKNOWN), never
 * "nothing pending, a doorbell will come". */
static void nodb_(int version)
{
	struct rfx r;
	struct virq_vpe v;
	bool pl = true;

	rfx_setup(&r, version, 1, false, 0);
	memset(&v, 0, sizeof(v));
	assert_int_equal(virq_vpe_init(&v, &r.vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_wfi_enter(&v), LIBVIRQ_EINVAL);
	assert_false(v.flags & LIBVIRQ_VPE_IN_WFI);
	assert_int_equal(virq_vpe_put(&v, &pl), LIBVIRQ_OK);
	assert_int_equal(pl, version == 41);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_OK);
	pl = version != 41;
	assert_int_equal(virq_vpe_make_nonresident(&v, true, &pl), LIBVIRQ_OK);
	assert_int_equal(pl, version == 41);
	if (version == 41) /* no doorbell request reached the redistributor */
		assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPENDBASER_4_1_DB,
						   virq_sim_rdist_vpendbaser(r.f.g.rm, 0)),
				 0);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	rfx_teardown(&r);
}

static void test_no_doorbell_never_blocks_v40(void **state)
{
	(void)state;
	nodb_(40);
}

static void test_no_doorbell_never_blocks_v41(void **state)
{
	(void)state;
	nodb_(41);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_v40_accesses),
	    cmocka_unit_test(test_v40_dirty_polls),
	    cmocka_unit_test(test_v40_dirty_never),
	    cmocka_unit_test(test_v41_layout),
	    cmocka_unit_test(test_wfi_doorbell_state_machine),
	    cmocka_unit_test(test_two_rdists),
	    cmocka_unit_test(test_v41_delivery_and_default_doorbell),
	    cmocka_unit_test(test_nonresident_errors),
	    cmocka_unit_test(test_no_doorbell_never_blocks_v40),
	    cmocka_unit_test(test_no_doorbell_never_blocks_v41),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
