/* SPDX-License-Identifier: MIT */
/* GIC probe, redistributor walk and bring-up, LPI allocator
 * (docs/rationale.md#gic-vpe-residency-init, docs/rationale.md#gic-table-attributes,
 * docs/rationale.md#gic-rd-bringup-order). */
#include "gic_fixture.h"

static void init_ok(struct gic_fx *f)
{
	assert_int_equal(virq_gic_init(&f->gic, &f->hal, &f->desc, f->rds, FX_MAX_RD, 16),
			 LIBVIRQ_OK);
}

static void test_probe_qemu_v40(void **state)
{
	struct gic_fx f;

	(void)state;
	fx_setup(&f, NULL);
	init_ok(&f);
	assert_int_equal(f.gic.version, LIBVIRQ_GIC_V4_0);
	assert_int_equal(f.gic.nr_rd, 1);
	assert_int_equal(f.gic.lpi_bits, 16);
	assert_int_equal(f.gic.lpi_end, 65536);
	assert_int_equal(f.gic.vpeid_bits, 16);
	assert_string_equal(virq_gic_version_name(f.gic.version), "GICv4.0");
	/* Probing writes nothing. */
	assert_int_equal(virq_sim_count(f.sim, LIBVIRQ_SIM_MMIO_W32) +
			     virq_sim_count(f.sim, LIBVIRQ_SIM_MMIO_W64),
			 0);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

static void test_walk_stride_and_last(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;
	uint32_t idx;

	(void)state;
	c.nr = 4;
	fx_setup(&f, &c);
	virq_sim_rdist_set_typer_aff(f.rm, 2, 0x01000203u);
	init_ok(&f);
	assert_int_equal(f.gic.nr_rd, 4);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(f.rds[i].rd_base, 0x080A0000ull + i * 0x40000ull);
	assert_int_equal(virq_gic_find_rdist(&f.gic, 0x01000203u, &idx), LIBVIRQ_OK);
	assert_int_equal(idx, 2);
	assert_int_equal(virq_gic_find_rdist(&f.gic, 0x7, &idx), LIBVIRQ_ENOENT);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

static void test_versions(void **state)
{
	int vers[3] = {30, 40, 41};
	enum virq_gic_version want[3] = {LIBVIRQ_GIC_V3, LIBVIRQ_GIC_V4_0, LIBVIRQ_GIC_V4_1};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
		struct gic_fx f;

		c.version = vers[i];
		c.nr = 2;
		fx_setup(&f, &c);
		init_ok(&f);
		assert_int_equal(f.gic.version, want[i]);
		assert_int_equal(f.rds[1].rd_base - f.rds[0].rd_base,
				 vers[i] >= 40 ? 0x40000 : 0x20000);
		assert_int_equal(f.gic.vpeid_bits, 16);
		assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
		fx_teardown(&f);
	}
}

/* GICD_TYPER: IDbits clamps lpi_bits; num_LPIs limits the LPI space. */
static void test_lpi_limits(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;
	uint32_t x, n = 0;

	(void)state;
	c.idbits = 13;	/* 14 INTID bits */
	c.num_lpis = 9; /* 2^10 LPIs */
	fx_setup(&f, &c);
	init_ok(&f);
	assert_int_equal(f.gic.lpi_bits, 14);
	assert_int_equal(f.gic.lpi_end, 8192 + 1024);
	while (virq_lpi_alloc(&f.gic, 1, &x) == LIBVIRQ_OK)
		n++;
	assert_int_equal(n, 1024);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

/* GICv4.1 vPEID width from GICD_TYPER2 (VIL), clamped to the 16-bit field. */
static void test_vpeid_bits(void **state)
{
	uint32_t t2[3] = {(1u << 7) | 9u, (1u << 7) | 31u, 9u};
	uint32_t want[3] = {10, 16, 16};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
		struct gic_fx f;

		c.version = 41;
		c.typer2 = t2[i];
		fx_setup(&f, &c);
		init_ok(&f);
		assert_int_equal(f.gic.vpeid_bits, want[i]);
		assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
		assert_int_equal(virq_sim_live_pages(f.sim), 0);
		fx_teardown(&f);
	}
}

static void test_bad_args(void **state)
{
	struct gic_fx f;

	(void)state;
	fx_setup(&f, NULL);
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 13),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, 0, 16), LIBVIRQ_EINVAL);
	f.desc.nr_redist_regions = 0;
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16),
			 LIBVIRQ_EINVAL);
	f.desc.nr_redist_regions = 1;
	f.desc.redist[0].base = 0x1000000; /* nothing there: PIDR2 reads 0 */
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

/*
 * Firmware publishes empty redistributor regions. A hand-filled
 * description with a zero-size region and a region with no redistributor at
 * its start (PIDR2 reads 0) before the real one: both skipped with a warning
 * each, the real one brought up (walk still stops at GICR_TYPER.Last).
 * Failed before: LIBVIRQ_EINVAL (size 0), LIBVIRQ_EHW (nothing there).
 */
static void test_empty_regions_skipped(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.nr = 2;
	fx_setup(&f, &c);
	f.desc.nr_redist_regions = 3;
	f.desc.redist[2] = f.desc.redist[0];
	f.desc.redist[0].base = 0x1000000;
	f.desc.redist[0].size = 0;
	f.desc.redist[1].base = 0x1000000; /* nothing there: PIDR2 reads 0 */
	f.desc.redist[1].size = 0x40000;
	init_ok(&f);
	assert_int_equal(f.gic.nr_rd, 2);
	assert_int_equal(f.gic.rd[0].rd_base, c.rd_base);
	assert_true(virq_sim_log_count(f.sim, LIBVIRQ_LOG_WARN) >= 2);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	/* Only empty regions: nothing to bring up. */
	f.desc.nr_redist_regions = 2;
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

/* A region that ends before GICR_TYPER.Last: keep what was found, warn. */
static void test_region_without_last(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.nr = 4;
	fx_setup(&f, &c);
	f.desc.redist[0].size = 2 * 0x40000;
	init_ok(&f);
	assert_int_equal(f.gic.nr_rd, 2);
	assert_true(virq_sim_log_count(f.sim, LIBVIRQ_LOG_WARN) >= 1);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

/* A GICv4 redistributor needs its VLPI_base frame (+0x20000) inside the
 * region: with a 0x60000 region and no GICR_TYPER.Last, the frame at
 * +0x40000 has its RD_base and SGI_base inside but its VLPI_base outside,
 * so it is not a redistributor of this region (its GICR_VPROPBASER /
 * VPENDBASER would be accessed beyond the region). */
static void test_region_vlpi_frame_outside(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.nr = 4;
	fx_setup(&f, &c);
	f.desc.redist[0].size = 0x60000;
	init_ok(&f);
	assert_int_equal(f.gic.nr_rd, 1);
	assert_true(virq_sim_log_count(f.sim, LIBVIRQ_LOG_WARN) >= 1);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

static void test_too_many_rds(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.nr = 4;
	fx_setup(&f, &c);
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, 3, 16), LIBVIRQ_ENOSPC);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

/* GICD_CTLR: ARE|Grp1|Grp0, RWP on bit 31: exact reads, and a timeout. */
static void test_dist_enable_rwp(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.gicd_rwp_polls = 3;
	fx_setup(&f, &c);
	init_ok(&f);
	virq_sim_reset_counters(f.sim);
	assert_int_equal(virq_gic_dist_enable(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_gicd_ctlr(f.rm) & 0x13, 0x13);
	/* 1 read-modify + 3 reads with RWP set + 1 clear read */
	assert_int_equal(virq_sim_count_at(f.sim, LIBVIRQ_SIM_MMIO_R32, 0x08000000), 5);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);

	c.gicd_rwp_polls = LIBVIRQ_SIM_RDIST_NEVER;
	fx_setup(&f, &c);
	init_ok(&f);
	assert_int_equal(virq_gic_dist_enable(&f.gic), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

/* docs/rationale.md#gic-rd-bringup-order: wake poll is a real bounded poll; order wake -> tables
 * -> EnableLPIs. */
static void test_rdist_init_order(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;
	size_t iw, ip, ipd, ie;

	(void)state;
	c.wake_polls = 2;
	c.rwp_polls = 2;
	c.uwp = true; /* bit 31 set forever: the wait must key on bit 3 only */
	fx_setup(&f, &c);
	init_ok(&f);
	virq_sim_trace(f.sim, true);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_awake(f.rm, 0));
	assert_true(
	    virq_sim_count_at(f.sim, LIBVIRQ_SIM_MMIO_R32, fx_rd(&f, 0, LIBVIRQ_GICR_WAKER)) >= 3);
	iw = virq_sim_trace_find(f.sim, 0, LIBVIRQ_SIM_MMIO_W32, fx_rd(&f, 0, LIBVIRQ_GICR_WAKER));
	ip = virq_sim_trace_find(f.sim, 0, LIBVIRQ_SIM_MMIO_W64,
				 fx_rd(&f, 0, LIBVIRQ_GICR_PROPBASER));
	ipd = virq_sim_trace_find(f.sim, 0, LIBVIRQ_SIM_MMIO_W64,
				  fx_rd(&f, 0, LIBVIRQ_GICR_PENDBASER));
	ie = virq_sim_trace_find(f.sim, 0, LIBVIRQ_SIM_MMIO_W32, fx_rd(&f, 0, LIBVIRQ_GICR_CTLR));
	assert_true(iw < ip && ip < ipd && ipd < ie && ie != SIZE_MAX);
	assert_int_equal(virq_sim_rdist_ctlr(f.rm, 0) & 1, 1);
	/* PROPBASER: table PA, IDbits 15, Inner-shareable RaWaWb. */
	assert_int_equal(virq_sim_rdist_propbaser(f.rm, 0),
			 f.gic.prop.pa | 15 | (7u << 7) | (1u << 10));
	assert_int_equal(virq_sim_rdist_pendbaser(f.rm, 0),
			 f.rds[0].pend.pa | (7u << 7) | (1u << 10));
	assert_int_equal(f.rds[0].pend.pa & 0xFFFF, 0);
	assert_true(f.rds[0].flags & LIBVIRQ_RDIST_LPIS_ON);
	assert_false(f.gic.rd_noncoherent);
	/* Second init of the same RD is refused (EBUSY, like every init of a
	 * live object), without a register access. */
	{
		unsigned long mmio = virq_sim_mmio_total(f.sim);

		assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_EBUSY);
		assert_int_equal(virq_sim_mmio_total(f.sim), mmio);
	}
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

/* Exact read counts: WAKER and GICR_CTLR.RWP settle after k polls. */
static void test_exact_poll_counts(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
		struct gic_fx f;

		c.wake_polls = k;
		c.rwp_polls = k;
		fx_setup(&f, &c);
		init_ok(&f);
		virq_sim_reset_counters(f.sim);
		assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
		/* 1 read for read-modify-write + k busy reads + 1 settled read */
		assert_int_equal(virq_sim_count_at(f.sim, LIBVIRQ_SIM_MMIO_R32,
						   fx_rd(&f, 0, LIBVIRQ_GICR_WAKER)),
				 k + 2);
		/* CTLR: 1 read (LPIs already on?) + 1 read-modify-write + k + 1 polls */
		assert_int_equal(
		    virq_sim_count_at(f.sim, LIBVIRQ_SIM_MMIO_R32, fx_rd(&f, 0, LIBVIRQ_GICR_CTLR)),
		    k + 3);
		assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
		fx_teardown(&f);
	}
}

static void test_wake_never(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.wake_polls = LIBVIRQ_SIM_RDIST_NEVER;
	fx_setup(&f, &c);
	init_ok(&f);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_rdist_ctlr(f.rm, 0) & 1, 0);
	assert_false(f.rds[0].flags & LIBVIRQ_RDIST_LPIS_ON);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

static void test_rwp_never(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.rwp_polls = LIBVIRQ_SIM_RDIST_NEVER;
	fx_setup(&f, &c);
	init_ok(&f);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_ETIMEDOUT);
	assert_false(f.rds[0].flags & LIBVIRQ_RDIST_LPIS_ON);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

/* docs/rationale.md#gic-vpe-residency-init: LPIs left on by a previous
 * kernel; stale resident vPE. */
static void test_kexec_residency_reset(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;
	uint64_t va;

	(void)state;
	c.dirty_polls = 3;
	fx_setup(&f, &c);
	virq_sim_rdist_preset(f.rm, 0, 1, 0, (1ull << 63) | 0xdead0000ull);
	init_ok(&f);
	va = fx_rd(&f, 0, LIBVIRQ_GICR_VPENDBASER);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpropbaser(f.rm, 0) & 0x1F, 15);
	assert_int_equal(virq_sim_rdist_vpendbaser(f.rm, 0) >> 63, 0);
	/* 1 read to see Valid, then 3 reads with Dirty and 1 clean read, then
	 * the read-back of the attributes (docs/rationale.md#gic-register-latitude). */
	assert_int_equal(virq_sim_count_at(f.sim, LIBVIRQ_SIM_MMIO_R64, va), 6);
	assert_int_equal(virq_sim_rdist_ctlr(f.rm, 0) & 1, 1);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

static void test_kexec_dirty_never(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.dirty_polls = LIBVIRQ_SIM_RDIST_NEVER;
	fx_setup(&f, &c);
	virq_sim_rdist_preset(f.rm, 0, 1, 0, (1ull << 63) | 0xdead0000ull);
	init_ok(&f);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_ETIMEDOUT);
	assert_false(f.rds[0].flags & LIBVIRQ_RDIST_VPE_READY);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

static void test_enable_lpis_stuck(void **state)
{
	struct gic_fx f;

	(void)state;
	fx_setup(&f, NULL);
	virq_sim_rdist_preset(f.rm, 0, 1, 0, 0);
	virq_sim_rdist_enable_lpis_sticky(f.rm, 0, true);
	init_ok(&f);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_EBUSY);
	/* The residency registers were still initialised
	 * (docs/rationale.md#gic-vpe-residency-init). */
	assert_int_equal(virq_sim_rdist_vpropbaser(f.rm, 0) & 0x1F, 15);
	assert_true(f.rds[0].flags & LIBVIRQ_RDIST_VPE_READY);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

/* docs/rationale.md#gic-table-attributes: non-shareable read-back -> InnerCache rewritten to nC,
 * tables cleaned. */
static void test_noncoherent_readback(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	(void)state;
	c.prop.sh = c.pend.sh = virq_sim_fixed(0);
	fx_setup(&f, &c);
	init_ok(&f);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_true(f.gic.rd_noncoherent);
	assert_int_equal((virq_sim_rdist_propbaser(f.rm, 0) >> 7) & 7, 1);
	/* PENDBASER: only InnerCache changed; PA and OuterCache untouched. */
	assert_int_equal(virq_sim_rdist_pendbaser(f.rm, 0), f.rds[0].pend.pa | (1u << 7));
	assert_true(virq_sim_count(f.sim, LIBVIRQ_SIM_CLEAN) >= 2);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

/* docs/rationale.md#gic-table-attributes: the nC rewrite of GICR_PENDBASER
 * changes only InnerCache of what was written: PTZ (write-only, reads as 0) stays set, so the GIC
 * still knows the zeroed pending table needs no scan. */
static void test_nc_rewrite_keeps_ptz(void **state)
{
	struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
	struct gic_fx f;
	uint64_t a;
	size_t i, n = 0;

	(void)state;
	c.prop.sh = c.pend.sh = virq_sim_fixed(0);
	fx_setup(&f, &c);
	init_ok(&f);
	a = fx_rd(&f, 0, LIBVIRQ_GICR_PENDBASER);
	virq_sim_trace(f.sim, true);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	for (i = virq_sim_trace_find(f.sim, 0, LIBVIRQ_SIM_MMIO_W64, a); i != SIZE_MAX;
	     i = virq_sim_trace_find(f.sim, i + 1, LIBVIRQ_SIM_MMIO_W64, a)) {
		uint64_t v = virq_sim_trace_at(f.sim, i)->value;

		assert_true(v & (1ull << 62)); /* PTZ */
		n++;
	}
	assert_int_equal(n, 2); /* the first write and the nC rewrite */
	assert_int_equal(virq_sim_rdist_pendbaser(f.rm, 0), f.rds[0].pend.pa | (1u << 7));
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

static void test_nc_inner_readback(void **state)
{
	int ics[3] = {0, 1, 7};
	bool want[3] = {true, true, false};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
		struct gic_fx f;

		c.prop.inner = c.pend.inner = virq_sim_fixed((uint8_t)ics[i]);
		fx_setup(&f, &c);
		init_ok(&f);
		assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
		assert_int_equal(f.gic.rd_noncoherent, want[i]);
		assert_int_equal(virq_sim_count(f.sim, LIBVIRQ_SIM_CLEAN) > 0, want[i]);
		assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
		fx_teardown(&f);
	}
}

static void test_dma_noncoherent_desc(void **state)
{
	struct gic_fx f;
	struct virq_hal_ops ops;
	struct virq_hal hal;

	(void)state;
	fx_setup(&f, NULL);
	f.desc.dma_noncoherent = true;
	init_ok(&f);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_propbaser(f.rm, 0), f.gic.prop.pa | 15 | (1u << 7));
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);

	/* Without dcache_clean a non-coherent table is an error. */
	fx_setup(&f, NULL);
	f.desc.dma_noncoherent = true;
	ops = *virq_sim_hal_ops();
	ops.dcache_clean = NULL;
	hal = (struct virq_hal){&ops, f.hal.ctx};
	assert_int_equal(virq_gic_init(&f.gic, &hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_ENOHAL);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

static void test_lpi_alloc_enohal_frees(void **state)
{
	struct gic_fx f;
	struct virq_hal_ops ops;
	struct virq_hal hal;
	uint32_t a = 0, b = 0;

	(void)state;
	fx_setup(&f, NULL);
	f.desc.dma_noncoherent = true;
	ops = *virq_sim_hal_ops();
	hal = (struct virq_hal){&ops, f.hal.ctx};
	assert_int_equal(virq_gic_init(&f.gic, &hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_true(f.gic.rd_noncoherent);
	/* The clean of the new configuration bytes fails: the IDs must not stay taken. */
	ops.dcache_clean = NULL;
	assert_int_equal(virq_lpi_alloc(&f.gic, 4, &a), LIBVIRQ_ENOHAL);
	assert_int_equal(((const uint8_t *)f.gic.lpi_map.va)[0], 0);
	ops.dcache_clean = virq_sim_hal_ops()->dcache_clean;
	assert_int_equal(virq_lpi_alloc(&f.gic, 4, &b), LIBVIRQ_OK);
	assert_int_equal(b, 8192);
	assert_int_equal(virq_lpi_free(&f.gic, b, 4), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

static void test_lpi_allocator(void **state)
{
	struct gic_fx f;
	uint32_t a, b, c2;

	(void)state;
	fx_setup(&f, NULL);
	init_ok(&f);
	assert_int_equal(virq_lpi_alloc(&f.gic, 1, &a), LIBVIRQ_OK);
	assert_int_equal(a, 8192);
	assert_int_equal(virq_lpi_alloc(&f.gic, 3, &b), LIBVIRQ_OK);
	assert_int_equal(b, 8193);
	assert_int_equal(virq_lpi_free(&f.gic, a, 1), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.gic, a, 1), LIBVIRQ_ENOENT);
	assert_int_equal(virq_lpi_alloc(&f.gic, 2, &c2), LIBVIRQ_OK);
	assert_int_equal(c2, 8196); /* 8192 alone is too small for 2 */
	assert_int_equal(virq_lpi_alloc(&f.gic, 1, &c2), LIBVIRQ_OK);
	assert_int_equal(c2, 8192);
	assert_int_equal(virq_lpi_set_config(&f.gic, 8193, 0xA0, true), LIBVIRQ_OK);
	assert_int_equal(((uint8_t *)f.gic.prop.va)[1], 0xA3);
	assert_int_equal(virq_lpi_set_config(&f.gic, 8193, 0x40, false), LIBVIRQ_OK);
	assert_int_equal(((uint8_t *)f.gic.prop.va)[1], 0x42);
	assert_int_equal(virq_lpi_set_config(&f.gic, 9000, 0xA0, true), LIBVIRQ_ENOENT);
	assert_int_equal(virq_lpi_set_config(&f.gic, 100, 0xA0, true), LIBVIRQ_ERANGE);
	assert_int_equal(virq_lpi_alloc(&f.gic, 0, &c2), LIBVIRQ_EINVAL);
	/* Exhaust: 65536 - 8192 IDs in total. */
	{
		uint32_t got = 6, x;

		while (virq_lpi_alloc(&f.gic, 1, &x) == LIBVIRQ_OK)
			got++;
		assert_int_equal(got, 65536 - 8192);
		assert_int_equal(virq_lpi_alloc(&f.gic, 1, &x), LIBVIRQ_ENOSPC);
	}
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

/* Allocation-failure sweep over init + bring-up of 2 RDs. */
static void test_alloc_failure_sweep(void **state)
{
	(void)state;
	for (unsigned long n = 1;; n++) {
		struct virq_sim_rdist_cfg c = virq_sim_rdist_default_cfg();
		struct gic_fx f;
		virq_status st;
		bool live;

		c.nr = 2;
		fx_setup(&f, &c);
		virq_sim_fail_alloc_nth(f.sim, n);
		st = virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16);
		live = st == LIBVIRQ_OK;
		if (st == LIBVIRQ_OK)
			st = virq_gic_rdist_init(&f.gic, 0);
		if (st == LIBVIRQ_OK)
			st = virq_gic_rdist_init(&f.gic, 1);
		/* A failed init leaves nothing to destroy (it would be EINVAL). */
		if (live)
			assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
		assert_int_equal(virq_sim_live_pages(f.sim), 0);
		assert_int_equal(virq_sim_bad_frees(f.sim), 0);
		fx_teardown(&f);
		if (st == LIBVIRQ_OK)
			break;
		assert_int_equal(st, LIBVIRQ_ENOMEM);
		assert_true(n < 50);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_probe_qemu_v40),
	    cmocka_unit_test(test_walk_stride_and_last),
	    cmocka_unit_test(test_versions),
	    cmocka_unit_test(test_lpi_limits),
	    cmocka_unit_test(test_vpeid_bits),
	    cmocka_unit_test(test_bad_args),
	    cmocka_unit_test(test_empty_regions_skipped),
	    cmocka_unit_test(test_region_without_last),
	    cmocka_unit_test(test_region_vlpi_frame_outside),
	    cmocka_unit_test(test_too_many_rds),
	    cmocka_unit_test(test_dist_enable_rwp),
	    cmocka_unit_test(test_rdist_init_order),
	    cmocka_unit_test(test_exact_poll_counts),
	    cmocka_unit_test(test_wake_never),
	    cmocka_unit_test(test_rwp_never),
	    cmocka_unit_test(test_kexec_residency_reset),
	    cmocka_unit_test(test_kexec_dirty_never),
	    cmocka_unit_test(test_enable_lpis_stuck),
	    cmocka_unit_test(test_noncoherent_readback),
	    cmocka_unit_test(test_nc_rewrite_keeps_ptz),
	    cmocka_unit_test(test_nc_inner_readback),
	    cmocka_unit_test(test_dma_noncoherent_desc),
	    cmocka_unit_test(test_lpi_alloc_enohal_frees),
	    cmocka_unit_test(test_lpi_allocator),
	    cmocka_unit_test(test_alloc_failure_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
