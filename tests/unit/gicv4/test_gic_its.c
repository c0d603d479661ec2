/* SPDX-License-Identifier: MIT */
/* ITS probe, GITS_BASER tables (page size, indirect, level-2 on demand,
 * attributes: docs/rationale.md#gic-table-attributes), errata quirks
 * (docs/rationale.md#gic-its-errata), doorbell invalidation paths. */
#include "its_fixture.h"

#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40))

static void setup1(struct its_fx *f, const struct virq_sim_its_state_cfg *ic, unsigned nr_rd,
		   int version, bool dirty_direct)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();

	rc.nr = nr_rd;
	rc.version = version;
	rc.direct_lpi = dirty_direct;
	itsfx_setup(f, &rc, ic, 1, false);
}

static void test_quirk_table(void **state)
{
	(void)state;
	assert_int_equal(virq_its_quirks_for(0xa100034cu, 0), LIBVIRQ_ITS_QUIRK_CAVIUM_22375 |
								  LIBVIRQ_ITS_QUIRK_CAVIUM_24313 |
								  LIBVIRQ_ITS_QUIRK_CAVIUM_23144);
	assert_int_equal(virq_its_quirks_for(0xa100134cu, 0),
			 LIBVIRQ_ITS_QUIRK_CAVIUM_22375 | LIBVIRQ_ITS_QUIRK_CAVIUM_24313 |
			     LIBVIRQ_ITS_QUIRK_CAVIUM_23144); /* bits 15:12 masked */
	assert_int_equal(virq_its_quirks_for(0xa100034du, 0), 0);
	assert_int_equal(virq_its_quirks_for(0x00001070u, 0), LIBVIRQ_ITS_QUIRK_QDF2400_E0065);
	assert_int_equal(virq_its_quirks_for(0x00051736u, 0), LIBVIRQ_ITS_QUIRK_HIP09_162100801);
	assert_int_equal(virq_its_quirks_for(0x0201743bu, 0), 0); /* needs the RK3588 machine */
	assert_int_equal(virq_its_quirks_for(0x0201743bu, LIBVIRQ_GIC_PLAT_RK3588),
			 LIBVIRQ_ITS_QUIRK_RK3588_3588001);
	assert_int_equal(virq_its_quirks_for(0x43Bu, LIBVIRQ_GIC_PLAT_RK3588), 0);
}

/* virq_its_probe(): read-only identification before taking an ITS over. */
static unsigned long mmio_writes(struct its_fx *f)
{
	return virq_sim_count(f->g.sim, LIBVIRQ_SIM_MMIO_W32) +
	       virq_sim_count(f->g.sim, LIBVIRQ_SIM_MMIO_W64);
}

static void test_its_probe(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct virq_gic_its_desc bad;
	struct virq_its_id id, keep;
	struct virq_gic none;
	struct its_fx f;
	unsigned long w;

	(void)state;
	memset(&none, 0, sizeof(none));
	/* GICv4.0 GIC, 4.0 ITS. */
	setup1(&f, NULL, 1, 40, false);
	w = mmio_writes(&f);
	assert_int_equal(virq_its_probe(&f.g.gic, &f.g.desc.its[0], &id), LIBVIRQ_OK);
	assert_int_equal(mmio_writes(&f), w); /* nothing written */
	assert_int_equal(id.version, LIBVIRQ_ITS_V40);
	assert_int_equal(id.typer, QEMU_TYPER_40);
	assert_int_equal(id.arch_rev, 4);
	assert_int_equal(id.quirks, virq_its_quirks_for(id.iidr, 0));
	/* The ITS can still be taken over afterwards, and reports the same. */
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(f.its[0].typer, id.typer);
	assert_int_equal(f.its[0].lim.version, id.version);
	/* Refusals: nothing read, out untouched. */
	keep = id;
	assert_int_equal(virq_its_probe(NULL, &f.g.desc.its[0], &id), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_probe(&none, &f.g.desc.its[0], &id), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_probe(&f.g.gic, NULL, &id), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_probe(&f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_EINVAL);
	bad = f.g.desc.its[0];
	bad.size = 0;
	assert_int_equal(virq_its_probe(&f.g.gic, &bad, &id), LIBVIRQ_EINVAL);
	/* No ITS there (ArchRev 0). */
	bad = f.g.desc.its[0];
	bad.base = 0x7000000ull;
	bad.size = 0x20000;
	assert_int_equal(virq_its_probe(&f.g.gic, &bad, &id), LIBVIRQ_ENOTSUP);
	assert_memory_equal(&id, &keep, sizeof(id));
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);

	/* A GICv4.1 ITS on a GICv4.0 GIC is driven as 4.0; on a GICv3 GIC as v3. */
	ic.typer = TYPER_41;
	setup1(&f, &ic, 1, 40, false);
	assert_int_equal(virq_its_probe(&f.g.gic, &f.g.desc.its[0], &id), LIBVIRQ_OK);
	assert_int_equal(id.version, LIBVIRQ_ITS_V40);
	assert_int_equal(id.typer, TYPER_41);
	itsfx_teardown(&f, false);
	setup1(&f, NULL, 1, 3, false);
	assert_int_equal(virq_its_probe(&f.g.gic, &f.g.desc.its[0], &id), LIBVIRQ_OK);
	assert_int_equal(id.version, LIBVIRQ_ITS_V3);
	itsfx_teardown(&f, false);
	/* GITS_TYPER.Physical = 0 is refused as virq_its_init() refuses it. */
	ic.typer = QEMU_TYPER_40 & ~1ull;
	setup1(&f, &ic, 1, 40, false);
	assert_int_equal(virq_its_probe(&f.g.gic, &f.g.desc.its[0], &id), LIBVIRQ_ENOTSUP);
	itsfx_teardown(&f, false);
}

/* QEMU defaults: 64 KiB pages, device and vPE tables two-level, level-2 pages on demand. */
static void test_tables_indirect_on_demand(void **state)
{
	struct its_fx f;
	struct virq_its_device d1, d2, d3, d4 = {0};
	struct virq_its *its = &f.its[0];
	size_t live;

	(void)state;
	setup1(&f, NULL, 1, 40, false);
	assert_int_equal(virq_its_init(its, &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(its->tbl[LIBVIRQ_ITS_TBL_DEV].page_size, 65536);
	assert_true(its->tbl[LIBVIRQ_ITS_TBL_DEV].indirect);
	assert_int_equal(its->tbl[LIBVIRQ_ITS_TBL_DEV].nr_l1, 8); /* 2^16 / (64K / 8) */
	assert_true(its->tbl[LIBVIRQ_ITS_TBL_VPE].indirect);
	assert_false(its->tbl[LIBVIRQ_ITS_TBL_COL].indirect);
	assert_int_equal(virq_sim_its_state_baser(f.sm[0], 0) & 0xFF, 0); /* one L1 page */
	assert_true((virq_sim_its_state_baser(f.sm[0], 0) >> 62) & 1);
	assert_int_equal(virq_its_map_collection(its, 0), LIBVIRQ_OK);
	live = virq_sim_live_pages(f.g.sim);
	assert_int_equal(virq_its_device_map(its, &d1, 0x1234, 8), LIBVIRQ_OK); /* L1[0] */
	/* DeviceID index (first map) + L2 + a pool page (the ITT and the tracking) */
	assert_int_equal(virq_sim_live_pages(f.g.sim), live + 3);
	assert_int_equal(virq_its_device_map(its, &d2, 0x9000, 8), LIBVIRQ_OK); /* L1[4] */
	assert_int_equal(virq_sim_live_pages(f.g.sim), live + 4); /* L2; the pool has room */
	assert_int_equal(virq_its_device_map(its, &d3, 0x9001, 8), LIBVIRQ_OK); /* L1[4] again */
	assert_int_equal(virq_sim_live_pages(f.g.sim), live + 4);
	assert_true(((uint64_t *)its->tbl[LIBVIRQ_ITS_TBL_DEV].l1.va)[4] >> 63);
	assert_false(((uint64_t *)its->tbl[LIBVIRQ_ITS_TBL_DEV].l1.va)[3] >> 63);
	assert_int_equal(virq_its_device_map(its, &d4, 0x10000, 8), LIBVIRQ_ERANGE);
	/* d3 is live: mapping it again is refused before anything is read */
	assert_int_equal(virq_its_device_map(its, &d3, 0x10000, 8), LIBVIRQ_EBUSY);
	assert_true(virq_sim_its_state_dev_mapped(f.sm[0], 0x9001));
	assert_int_equal(virq_its_device_unmap(&d1), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d2), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d3), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_tables_flat_and_page_sizes(void **state)
{
	uint32_t masks[3] = {7, 1, 2};
	uint32_t want_psz[3] = {65536, 4096, 16384};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct its_fx f;
		struct virq_its_device d;
		struct virq_its_table *t;

		itsfx_tables(&ic, true, (uint8_t)masks[i]);
		setup1(&f, &ic, 1, 40, false);
		assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL),
				 LIBVIRQ_OK);
		t = &f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV];
		assert_int_equal(t->page_size, want_psz[i]);
		assert_false(t->indirect);
		/* 2^16 entries x 8 bytes in (Size + 1) pages. */
		assert_int_equal(t->id_bits, 16);
		assert_int_equal(virq_sim_its_state_baser(f.sm[0], 0) & 0xFF,
				 (8u * 65536u) / want_psz[i] - 1);
		assert_int_equal((virq_sim_its_state_baser(f.sm[0], 0) >> 8) & 3, i == 0   ? 2
										  : i == 1 ? 0
											   : 1);
		assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
		assert_int_equal(virq_its_device_map(&f.its[0], &d, 0x7FFF, 2), LIBVIRQ_OK);
		assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
	}
}

/* docs/rationale.md#gic-table-attributes: non-shareable read-back on the ITS
 * -> nC, tables and ITT cleaned (the ITT before its MAPD). */
/* A table that cannot cover its ID space in 256 pages is narrowed. */
static void test_tables_capped(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	itsfx_tables(&ic, true, LIBVIRQ_SIM_PSZ_4K); /* flat, 4 KiB only */
	ic.esz = 32;				     /* 2^16 x 32 B = 512 pages > 256 */
	setup1(&f, &ic, 1, 40, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].id_bits, 15);
	assert_int_equal(virq_sim_its_state_baser(f.sm[0], 0) & 0xFF, 255);
	itsfx_teardown(&f, true);
}

/* The proxy device takes the last DeviceID the device table covers: with a
 * narrowed table (15 of 16 DeviceID bits) that is 0x7FFF, not 0xFFFF
 * (which the table cannot hold, so MAPD for it would fail ITS bring-up). */
static void test_proxy_narrowed_table(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct virq_its_cfg cfg = {0};
	struct its_fx f;

	(void)state;
	itsfx_tables(&ic, true, LIBVIRQ_SIM_PSZ_4K); /* flat, 4 KiB only */
	ic.esz = 32; /* 2^16 x 32 B = 512 pages > 256: narrowed to 15 bits */
	setup1(&f, &ic, 1, 40, false);
	cfg.proxy_doorbells = true;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	assert_int_equal(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].id_bits, 15);
	assert_null(f.its[0].proxy); /* created when masking first needs it */
	assert_int_equal(f.its[0].proxy_devid, 0x7FFF);
	{
		struct virq_gic_vm vm;
		struct virq_vpe v;
		uint32_t db;

		assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
		assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_set_db_masking(&v, true), LIBVIRQ_OK);
		assert_non_null(f.its[0].proxy);
		assert_int_equal(f.its[0].proxy->device_id, 0x7FFF);
		assert_true(virq_sim_its_state_dev_mapped(f.sm[0], 0x7FFF));
		assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
		assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	}
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* The proxy device is created lazily : virq_its_init() allocates
 * nothing for it and sends no MAPD; the first virq_vpe_set_db_masking()
 * that needs it creates it, and an allocation failure surfaces there
 * (ENOMEM, nothing kept, masking not enabled) and a retry succeeds. Before
 * the change the proxy was created (and could fail) in virq_its_init(). */
static void test_proxy_lazy_creation(void **state)
{
	struct its_fx f, g;
	struct virq_its_cfg cfg = {0};
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db;
	size_t pages, pages_plain;
	struct virq_sim_its *q;

	(void)state;
	setup1(&g, NULL, 1, 40, false); /* the same ITS without proxy_doorbells */
	assert_int_equal(virq_its_init(&g.its[0], &g.g.gic, &g.g.desc.its[0], NULL), LIBVIRQ_OK);
	pages_plain = virq_sim_live_pages(g.g.sim);
	itsfx_teardown(&g, true);

	setup1(&f, NULL, 1, 40, false);
	cfg.proxy_doorbells = true;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	q = virq_sim_its_state_queue(f.sm[0]);
	assert_int_equal(itsfx_find_op(f.sm[0], 0x08, 0), -1); /* no MAPD at init */
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages_plain);
	assert_null(f.its[0].proxy);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	virq_sim_fail_alloc_nth(f.g.sim, 1); /* the next allocation */
	assert_int_equal(virq_vpe_set_db_masking(&v, true), LIBVIRQ_ENOMEM);
	assert_int_equal(v.flags & LIBVIRQ_VPE_DB_MASK, 0);
	assert_null(f.its[0].proxy);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_set_db_masking(&v, true), LIBVIRQ_OK);
	assert_non_null(f.its[0].proxy);
	assert_int_equal(virq_sim_its_ncmds(q), 1);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x08);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->dev, 0xFFFF);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* A DeviceID mapped twice on one ITS would make MAPD replace the first
 * device's ITT, and unmapping the stale object would unmap the new one. */
static void test_device_id_duplicate(void **state)
{
	struct its_fx f;
	struct virq_its_device a, b, c;
	struct virq_sim_its_ev ev;
	uint32_t lpi;

	(void)state;
	setup1(&f, NULL, 1, 40, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	assert_int_equal(virq_its_device_map(&f.its[0], &a, 5, 4), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&a, 0, lpi, 0), LIBVIRQ_OK);
	/* Same DeviceID, other object: refused, nothing sent, a intact. */
	assert_int_equal(virq_its_device_map(&f.its[0], &b, 5, 8), LIBVIRQ_EEXIST);
	assert_null(b.its);
	assert_int_equal(f.its[0].nr_devices, 1);
	ev = virq_sim_its_state_lookup(f.sm[0], 5, 0);
	assert_int_equal(ev.kind, LIBVIRQ_SIM_ITS_EV_PHYS);
	assert_int_equal(ev.pintid, lpi);
	/* Same object mapped again (other ID): refused as a live object
	 * (gicv4/state.h), its tracking kept. */
	assert_int_equal(virq_its_device_map(&f.its[0], &a, 6, 4), LIBVIRQ_EBUSY);
	assert_ptr_equal(a.its, &f.its[0]);
	assert_int_equal(a.device_id, 5);
	assert_int_equal(a.nr_mapped, 1);
	assert_int_equal(virq_its_device_unmap(&b), LIBVIRQ_EINVAL);
	assert_true(virq_sim_its_state_dev_mapped(f.sm[0], 5));
	/* A failed map leaves no record: the same ID maps afterwards. */
	virq_sim_fail_alloc_nth(f.g.sim, 1); /* 512 events: the ITT takes whole pages */
	assert_int_equal(virq_its_device_map(&f.its[0], &c, 7, 512), LIBVIRQ_ENOMEM);
	assert_int_equal(virq_its_device_map(&f.its[0], &c, 7, 4), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &b, 6, 4), LIBVIRQ_OK);
	/* Unmapping removes the record (middle of the list first). */
	assert_int_equal(virq_its_unmap_event(&a, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&c), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&a), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &a, 5, 4), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &c, 7, 4), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &c, 7, 4), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_device_unmap(&a), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&b), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&c), LIBVIRQ_OK);
	assert_int_equal(f.its[0].nr_devices, 0);
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_its_noncoherent(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_its_device d;
	size_t iclean, iwr;

	(void)state;
	itsfx_fix_attrs(&ic, 0, -1);
	setup1(&f, &ic, 1, 40, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	for (int t = 0; t < 3; t++) {
		assert_true(f.its[0].tbl[t].noncoherent);
		assert_int_equal((f.its[0].tbl[t].baser >> 59) & 7, 1); /* InnerCache nC */
	}
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	virq_sim_trace(f.g.sim, true);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 3, 32), LIBVIRQ_OK);
	iclean = SIZE_MAX;
	for (size_t i = 0; i < virq_sim_trace_len(f.g.sim); i++) {
		const struct virq_sim_trace_ev *e = virq_sim_trace_at(f.g.sim, i);

		if (e->kind == LIBVIRQ_SIM_CLEAN && e->addr == (uint64_t)(uintptr_t)d.itt.va) {
			iclean = i;
			break;
		}
	}
	iwr = virq_sim_trace_find(f.g.sim, 0, LIBVIRQ_SIM_MMIO_W64, FX_ITS_BASE + 0x88);
	assert_true(iclean < iwr && iwr != SIZE_MAX);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* docs/rationale.md#gic-table-attributes: BASER InnerCache read back as Device (0) or nC (1) ->
 * clean; RaWaWb -> not. */
static void test_its_inner_readback(void **state)
{
	int ics[3] = {0, 1, 7};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct its_fx f;

		itsfx_fix_attrs(&ic, -1, ics[i]);
		setup1(&f, &ic, 1, 40, false);
		virq_sim_reset_counters(f.g.sim);
		assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL),
				 LIBVIRQ_OK);
		for (int t = 0; t < 3; t++)
			assert_int_equal(f.its[0].tbl[t].noncoherent, ics[i] != 7);
		assert_int_equal(virq_sim_count(f.g.sim, LIBVIRQ_SIM_CLEAN) > 0, ics[i] != 7);
		itsfx_teardown(&f, true);
	}
}

/* dma-noncoherent ITS and RK3588: forced Non-shareable + nC whatever reads back. */
static void test_forced_noncoherent(void **state)
{
	for (int mode = 0; mode < 3; mode++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct its_fx f;
		uint64_t b;

		(void)state;
		if (mode)
			ic.iidr = 0x0201743b;
		setup1(&f, &ic, 1, 40, false);
		if (mode == 0)
			f.g.desc.its[0].dma_noncoherent = true;
		if (mode == 1)
			f.g.gic.platform = LIBVIRQ_GIC_PLAT_RK3588;
		assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL),
				 LIBVIRQ_OK);
		b = virq_sim_its_state_baser(f.sm[0], 0);
		if (mode < 2) {
			uint64_t cb = virq_sim_its_cbaser(virq_sim_its_state_queue(f.sm[0]));

			assert_int_equal((cb >> 10) & 3, 0); /* CBASER too */
			assert_int_equal((cb >> 59) & 7, 1);
			assert_true(f.its[0].noncoherent);
			assert_int_equal((b >> 10) & 3, 0);
			assert_int_equal((b >> 59) & 7, 1);
		} else { /* IIDR of RK3588 but another machine: normal */
			assert_false(f.its[0].noncoherent);
			assert_int_equal((b >> 10) & 3, 1);
			assert_int_equal((b >> 59) & 7, 7);
		}
		itsfx_teardown(&f, true);
	}
}

/* Cavium ThunderX: Devbits 24 -> 20; BASER nCnB; MAPC refused across nodes. */
static void test_cavium(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_its_cfg cfg = {0};
	int8_t nodes[2] = {0, 1};
	struct virq_sim_its *q;

	(void)state;
	ic.iidr = 0xa100134c;
	ic.typer = (QEMU_TYPER_40 & ~(0x1Full << 13)) | (23ull << 13); /* Devbits = 24 */
	itsfx_tables(&ic, true, 0);
	setup1(&f, &ic, 2, 40, false);
	cfg.numa_node = 0;
	cfg.rd_node = nodes;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	assert_int_equal(f.its[0].lim.devid_bits, 20);
	assert_int_equal((f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].baser >> 59) & 7, 0); /* nCnB */
	assert_true(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent);
	q = virq_sim_its_state_queue(f.sm[0]);
	assert_int_equal(virq_its_map_collection(&f.its[0], 1), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_its_ncmds(q), 0);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* QDF2400 E0065: 16-byte ITT entries: 32 events -> 512 bytes. */
static void test_qdf2400(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	ic.iidr = 0x00001070;
	setup1(&f, &ic, 1, 40, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(f.its[0].itt_esz, 16);
	assert_int_equal(32 * f.its[0].itt_esz, 512);
	itsfx_teardown(&f, true);
}

/* Hip09 162100801: VMOVP, then GICR_INVALLR(V, vPEID) on the new RD + SYNCR poll. */
static void test_hip09(void **state)
{
	for (int never = 0; never < 2; never++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
		struct its_fx f;
		struct virq_gic_vm vm;
		struct virq_vpe vpe;
		size_t ivm, iinv;

		(void)state;
		ic.iidr = 0x00051736;
		rc.nr = 2;
		rc.syncr_polls = never ? LIBVIRQ_SIM_RDIST_NEVER : 2;
		itsfx_setup(&f, &rc, &ic, 1, true);
		assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
		virq_sim_trace(f.g.sim, true);
		virq_sim_reset_counters(f.g.sim);
		assert_int_equal(virq_vpe_move(&vpe, 1), never ? LIBVIRQ_ETIMEDOUT : LIBVIRQ_OK);
		ivm = virq_sim_trace_find(f.g.sim, 0, LIBVIRQ_SIM_MMIO_W64, FX_ITS_BASE + 0x88);
		iinv = virq_sim_trace_find(f.g.sim, 0, LIBVIRQ_SIM_MMIO_W64,
					   fx_rd(&f.g, 1, LIBVIRQ_GICR_INVALLR));
		assert_true(ivm < iinv && iinv != SIZE_MAX);
		assert_int_equal(virq_sim_rdist_last_invallr(f.g.rm, 1),
				 (1ull << 63) | ((uint64_t)vpe.vpeid << 32));
		if (!never)
			assert_int_equal(virq_sim_count_at(f.g.sim, LIBVIRQ_SIM_MMIO_R32,
							   fx_rd(&f.g, 1, LIBVIRQ_GICR_SYNCR)),
					 3);
		assert_int_equal(vpe.rd, 1);
		assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
		assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
	}
}

/* A vPE holding a proxy slot is destroyed while the proxy's ITS is dead:
 * the slot must forget the vPE, so that destroying the ITS later does not
 * write into the vPE's storage (by then reused by the caller). */
static void test_proxy_dead_its_forgets_vpe(void **state)
{
	struct its_fx f;
	struct virq_its_cfg cfg = {0};
	struct virq_gic_vm vm;
	struct virq_vpe v, copy;
	uint32_t db;
	struct virq_sim_its *q;

	(void)state;
	setup1(&f, NULL, 1, 40, false);
	cfg.proxy_doorbells = true;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_int_equal(v.proxy_event, 0);
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_set_dead(q, true);
	virq_sim_its_set_never_quiescent(q, true);
	assert_int_not_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_true(f.its[0].dead);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	memset(&v, 0x5A, sizeof(v)); /* the caller reuses the storage */
	copy = v;
	virq_sim_its_set_never_quiescent(q, false);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_OK);
	assert_memory_equal(&v, &copy, sizeof(v));
	itsfx_teardown(&f, true);
}

/* proxy_doorbells on two GICv4.0 ITSes: a vPE's slot number is only
 * meaningful on the proxy that gave it. With the first proxy's ITS dead,
 * an invalidate must not be sent to the second ITS's proxy with the first
 * one's slot number (an INV on an event that ITS never mapped). One proxy
 * per GIC (as Linux has one). */
static void test_proxy_one_per_gic(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_its_cfg cfg = {0};
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db;
	struct virq_sim_its *q0;

	(void)state;
	rc.version = 40;
	itsfx_setup(&f, &rc, NULL, 2, false);
	cfg.proxy_doorbells = true;
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(virq_its_init(&f.its[i], &f.g.gic, &f.g.desc.its[i], &cfg),
				 LIBVIRQ_OK);
		assert_int_equal(virq_its_map_collection(&f.its[i], 0), LIBVIRQ_OK);
	}
	assert_true(f.its[0].proxy_ok);
	assert_false(f.its[1].proxy_ok);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_non_null(f.its[0].proxy);
	assert_int_equal(v.proxy_event, 0);
	q0 = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_set_dead(q0, true);
	virq_sim_its_set_never_quiescent(q0, true);
	assert_int_not_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_true(f.its[0].dead);
	virq_sim_its_clear_log(virq_sim_its_state_queue(f.sm[1]));
	assert_int_not_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(virq_sim_its_state_queue(f.sm[1])), 0);
	assert_null(f.its[1].proxy);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	virq_sim_its_set_never_quiescent(q0, false);
	itsfx_teardown(&f, true);
}

/* docs/rationale.md#gic-v40-doorbell-proxy: GICv4.0 without DirectLPI: doorbell INV through the
 * proxy device. */
static void test_proxy_doorbell(void **state)
{
	struct its_fx f;
	struct virq_its_cfg cfg = {0};
	struct virq_gic_vm vm;
	struct virq_vpe v[3];
	uint32_t db[3];
	struct virq_sim_its *q;
	const struct virq_sim_its_cmd *c;
	uint32_t pdev;

	(void)state;
	setup1(&f, NULL, 1, 40, false);
	cfg.proxy_doorbells = true;
	cfg.proxy_slots = 2; /* three vPEs: the third evicts */
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	assert_null(f.its[0].proxy); /* created on first use */
	pdev = f.its[0].proxy_devid;
	assert_int_equal(pdev, 0xFFFF); /* last DeviceID */
	{
		struct virq_its_device clash;

		assert_int_equal(virq_its_device_map(&f.its[0], &clash, 0xFFFF, 2), LIBVIRQ_EEXIST);
	}
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db[i]), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&v[i], &vm, 0, db[i]), LIBVIRQ_OK);
	}
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v[0]), LIBVIRQ_OK);
	assert_non_null(f.its[0].proxy);
	assert_int_equal(f.its[0].proxy->nr_events, 2);
	assert_int_equal(virq_sim_its_ncmds(q), 4);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x08); /* the proxy's MAPD */
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->dev, pdev);
	c = virq_sim_its_cmd_at(q, 1);
	assert_int_equal(c->op, 0x0A);
	assert_int_equal(c->dev, pdev);
	assert_int_equal(c->pintid, db[0]);
	assert_int_equal(c->icid, 0);
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->op, 0x0C);
	assert_int_equal(virq_sim_its_cmd_at(q, 3)->op, 0x05);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v[0]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 2);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x0C);
	/* Two slots: the third vPE evicts the first (DISCARD, MAPTI, INV, SYNC)
	 * and gives the slot back at once (DISCARD, SYNC, MAPTI, INT, SYNC). */
	assert_int_equal(virq_vpe_doorbell_invalidate(&v[1]), LIBVIRQ_OK);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v[2]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 9);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x0F);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x0A);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->pintid, db[2]);
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->op, 0x0C);
	assert_int_equal(virq_sim_its_cmd_at(q, 4)->op, 0x0F);
	assert_int_equal(virq_sim_its_cmd_at(q, 6)->op, 0x0A);
	assert_int_equal(virq_sim_its_cmd_at(q, 7)->op, 0x03);
	assert_int_equal(v[0].proxy_event, 0);
	assert_int_equal(v[2].proxy_event, -1);
	assert_int_equal(f.its[0].proxy_give_backs, 1);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], pdev, 0).pintid, db[0]);
	/* Masking: resident disables the doorbell byte (+INV), blocking enables it. */
	assert_int_equal(virq_vpe_set_db_masking(&v[0], true), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_set_config(&f.g.gic, db[0], 0xA0, true), LIBVIRQ_OK);
	v[0].flags |= LIBVIRQ_VPE_DB_ON;
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_make_resident(&v[0], 0), LIBVIRQ_OK);
	assert_int_equal(((uint8_t *)f.g.gic.prop.va)[db[0] - 8192] & 1, 0);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x0C);
	assert_int_equal(virq_vpe_make_nonresident(&v[0], true, NULL), LIBVIRQ_OK);
	assert_int_equal(((uint8_t *)f.g.gic.prop.va)[db[0] - 8192] & 1, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
	assert_int_equal(f.its[0].proxy->nr_mapped, 0);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* The proxy slot follows a VMOVP with MOVI, after a CLEAR of the doorbell on
 * the redistributor the vPE left; without the target collection it is dropped
 * (after the CLEAR). */
static void test_proxy_follows_vmovp(void **state)
{
	struct its_fx f;
	struct virq_its_cfg cfg = {0};
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db, pdev;
	struct virq_sim_its *q;

	(void)state;
	setup1(&f, NULL, 3, 40, false);
	cfg.proxy_doorbells = true;
	cfg.eager_vpes = true; /* the VMOVP runs first (the vPE has no vLPI) */
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	pdev = f.its[0].proxy_devid;
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 1), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], pdev, (uint32_t)v.proxy_event).icid, 0);
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	/* After VMOVP + VSYNC: CLEAR + SYNC on RD 0, then MOVI to collection 1. */
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->op, 0x04);
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->ev, (uint32_t)v.proxy_event);
	assert_int_equal(virq_sim_its_cmd_at(q, 4)->op, 0x01);
	assert_int_equal(virq_sim_its_cmd_at(q, 4)->icid, 1);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], pdev, (uint32_t)v.proxy_event).icid, 1);
	/* RD 2 has LPIs but no collection on this ITS: the slot is released. */
	assert_int_equal(virq_vpe_move(&v, 2), LIBVIRQ_OK);
	assert_int_equal(v.proxy_event, -1);
	assert_int_equal(f.its[0].proxy->nr_mapped, 0);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* Both proxy slots are taken. A move of a third vPE, which has no slot,
 * sends nothing on the proxy (no eviction: its give-back's DISCARD would
 * remove the doorbell the move raises on the new RD for a vCPU in WFI), and
 * a doorbell it left pending on the old RD stays pending there. */
static void test_proxy_move_all_slots_taken(void **state)
{
	struct its_fx f;
	struct virq_its_cfg cfg = {0};
	struct virq_gic_vm vm;
	struct virq_vpe v[3];
	uint32_t db[3];
	uint32_t pdev;

	(void)state;
	setup1(&f, NULL, 2, 40, false);
	cfg.proxy_doorbells = true;
	cfg.proxy_slots = 2;
	cfg.eager_vpes = true;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], &cfg), LIBVIRQ_OK);
	pdev = f.its[0].proxy_devid;
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 1), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db[i]), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&v[i], &vm, 0, db[i]), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_wfi_enter(&v[i]), LIBVIRQ_OK);
	}
	assert_int_equal(virq_vpe_doorbell_invalidate(&v[0]), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v[1]), LIBVIRQ_OK);
	virq_sim_rdist_lpi_set_pending(f.g.rm, 0, db[2], true);
	assert_int_equal(virq_vpe_move(&v[2], 1), LIBVIRQ_OK);
	assert_false(v[2].flags & LIBVIRQ_VPE_MOVE_PENDING);
	assert_int_equal(itsfx_find_op(f.sm[0], LIBVIRQ_ITS_DISCARD, 0), -1);
	assert_int_equal(v[0].proxy_event, 0);
	assert_int_equal(v[1].proxy_event, 1);
	assert_int_equal(v[2].proxy_event, -1);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], pdev, 0).pintid, db[0]);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], pdev, 1).pintid, db[1]);
	assert_true(virq_sim_rdist_lpi_pending(f.g.rm, 0, db[2]));
	assert_int_equal(f.its[0].proxy_give_backs, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
	assert_int_equal(f.its[0].proxy->nr_mapped, 0);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* DirectLPI: GICR_INVLPIR + SYNCR; GICv4.1: INVDB + VSYNC. */
static void test_doorbell_direct_and_invdb(void **state)
{
	for (int mode = 0; mode < 2; mode++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
		struct its_fx f;
		struct virq_gic_vm vm;
		struct virq_vpe v;
		uint32_t db;
		struct virq_sim_its *q;

		(void)state;
		rc.direct_lpi = mode == 0;
		rc.syncr_polls = 1;
		if (mode == 1) {
			rc.version = 41;
			ic.typer = TYPER_41;
		}
		itsfx_setup(&f, &rc, &ic, 1, true);
		assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
		q = virq_sim_its_state_queue(f.sm[0]);
		virq_sim_its_clear_log(q);
		assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
		if (mode == 0) {
			assert_int_equal(virq_sim_its_ncmds(q), 0);
			assert_int_equal(virq_sim_rdist_last_invlpir(f.g.rm, 0), db);
			assert_int_equal(virq_vpe_set_db_masking(&v, true), LIBVIRQ_OK);
		} else {
			assert_int_equal(virq_sim_its_ncmds(q), 2);
			assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x2E);
			assert_int_equal(virq_sim_its_cmd_at(q, 0)->vpe, v.vpeid);
			assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x25);
			assert_int_equal(virq_vpe_set_db_masking(&v, true), LIBVIRQ_ENOTSUP);
		}
		assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
		assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
	}
}

/* Without DirectLPI and without a proxy there is no way to mask. */
static void test_no_masking_path(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_set_db_masking(&v, true), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* Never quiescent: init times out and frees everything. */
static void test_never_quiescent(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	size_t live;

	(void)state;
	ic.never_quiescent = true;
	setup1(&f, &ic, 1, 40, false);
	live = virq_sim_live_pages(f.g.sim);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL),
			 LIBVIRQ_ETIMEDOUT);
	assert_int_equal(virq_sim_live_pages(f.g.sim), live);
	assert_null(f.g.gic.its[0]);
	itsfx_teardown(&f, true);
}

/* Quiescent after k busy reads: exactly k + 1 GITS_CTLR reads before the BASERs. */
static void test_quiescent_exact(void **state)
{
	(void)state;
	for (unsigned k = 1; k < 4; k++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct its_fx f;
		size_t ib;
		unsigned long reads = 0;

		ic.quiescent_polls = k;
		setup1(&f, &ic, 1, 40, false);
		virq_sim_trace(f.g.sim, true);
		assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL),
				 LIBVIRQ_OK);
		ib = virq_sim_trace_find(f.g.sim, 0, LIBVIRQ_SIM_MMIO_W64, FX_ITS_BASE + 0x100);
		for (size_t i = 0; i < ib; i++) {
			const struct virq_sim_trace_ev *e = virq_sim_trace_at(f.g.sim, i);

			if (e->kind == LIBVIRQ_SIM_MMIO_R32 && e->addr == FX_ITS_BASE)
				reads++;
		}
		assert_int_equal(reads, k + 1); /* k reads with Quiescent = 0 (the first is the
						 * read-modify-write one), then one with 1 */
		assert_int_equal(virq_its_map_collection(&f.its[0], 0),
				 LIBVIRQ_OK); /* ITS enabled */
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
	}
}

/* MOVI: SYNC to the collection the LPI leaves and to the one it joins
 * (Linux's its_build_movi_cmd() syncs the old collection; waiting only on
 * the new one could report the move complete while RD 0 still holds the
 * pending state). New in this change: there was no physical move call. */
static void test_move_lpi_syncs_both_collections(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_its_device d = {0};
	struct virq_sim_its *q;
	uint32_t lpi;

	(void)state;
	rc.nr = 2;
	itsfx_setup(&f, &rc, NULL, 1, true);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 4, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&d, 1, lpi, 0), LIBVIRQ_OK);
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_its_move_lpi(&d, 1, 1), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 3);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x01);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->icid, 1);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x05);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->rd, 0); /* processor 0: the old RD */
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->op, 0x05);
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->rd, 1ull << 16);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 4, 1).icid, 1);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_its_move_lpi(&d, 1, 1), LIBVIRQ_OK); /* already there */
	assert_int_equal(virq_sim_its_ncmds(q), 0);
	assert_int_equal(virq_its_move_lpi(&d, 0, 1), LIBVIRQ_ENOENT);
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_EBUSY); /* still mapped */
	assert_int_equal(virq_its_unmap_event(&d, 1), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* VMOVI across vPEs: VSYNC to the vPE the vLPI leaves and to the new one
 * (before the change only the new vPE was synchronised). */
static void test_vlpi_move_vsyncs_both_vpes(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm = {0};
	struct virq_vpe a = {0}, b = {0};
	struct virq_its_device d = {0};
	struct virq_sim_its *q;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&b, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 4, 2), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&d, 0, &a, 8200, false), LIBVIRQ_OK);
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vlpi_move(&d, 0, &b), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 3);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x21);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x25);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->vpe, a.vpeid);
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->op, 0x25);
	assert_int_equal(virq_sim_its_cmd_at(q, 2)->vpe, b.vpeid);
	assert_int_equal(a.nr_vlpis, 0);
	assert_int_equal(b.nr_vlpis, 1);
	assert_int_equal(virq_vlpi_unmap(&d, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&b), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* The DeviceID index: thousands of devices with scattered IDs, unmapped in
 * another order, every duplicate refused, every freed ID mappable again
 * (exercises growth and backward-shift deletion). */
static void test_device_index_many(void **state)
{
	static struct virq_its_device d[3000];
	struct virq_its_device x = {0};
	struct its_fx f;

	(void)state;
	memset(d, 0, sizeof(d));
	setup1(&f, NULL, 1, 40, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	for (uint32_t i = 0; i < 3000; i++)
		assert_int_equal(virq_its_device_map(&f.its[0], &d[i], (i * 40503u) & 0xFFFF, 1),
				 LIBVIRQ_OK);
	for (uint32_t i = 0; i < 3000; i += 7)
		assert_int_equal(virq_its_device_map(&f.its[0], &x, (i * 40503u) & 0xFFFF, 1),
				 LIBVIRQ_EEXIST);
	for (uint32_t i = 0; i < 3000; i += 2) /* every other one */
		assert_int_equal(virq_its_device_unmap(&d[i]), LIBVIRQ_OK);
	for (uint32_t i = 1; i < 3000; i += 2)
		assert_int_equal(virq_its_device_map(&f.its[0], &x, (i * 40503u) & 0xFFFF, 1),
				 LIBVIRQ_EEXIST);
	for (uint32_t i = 0; i < 3000; i += 2)
		assert_int_equal(virq_its_device_map(&f.its[0], &d[i], (i * 40503u) & 0xFFFF, 1),
				 LIBVIRQ_OK);
	for (uint32_t i = 3000; i-- > 0;)
		assert_int_equal(virq_its_device_unmap(&d[i]), LIBVIRQ_OK);
	assert_null(f.its[0].devices);
	assert_int_equal(f.its[0].dev_ht_used, 0);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* A failed virq_its_init() (two ITSList-mode ITSes read the same read-only
 * ITS_Number; a short timeout and a slow Quiescent on the second) leaves
 * the ITS unregistered and frees every page it took; a retry registers it
 * at most once. */
static void test_init_failure_releases(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct virq_its_cfg cfg = {0};
	struct its_fx f;
	size_t pages;
	unsigned slots = 0;

	(void)state;
	ic.typer = QEMU_TYPER_40 & ~(1ull << 37); /* GITS_TYPER.VMOVP = 0: ITSList mode */
	ic.its_number_ro = 1;
	ic.quiescent_polls = 100;
	itsfx_setup(&f, NULL, &ic, 2, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	cfg.timeout_ns = 5000;
	assert_int_equal(virq_its_init(&f.its[1], &f.g.gic, &f.g.desc.its[1], &cfg), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(f.g.gic.nr_its, 1);
	for (unsigned i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		assert_true(f.g.gic.its[i] != &f.its[1]);
	assert_int_equal(virq_its_init(&f.its[1], &f.g.gic, &f.g.desc.its[1], NULL), LIBVIRQ_EHW);
	for (unsigned i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		slots += f.g.gic.its[i] == &f.its[1];
	assert_int_equal(slots, 0);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(virq_its_destroy(&f.its[1]), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_OK);
	f.nits = 0;
	itsfx_teardown(&f, true); /* destroys the GIC: LIBVIRQ_OK */
}

/* A 4 KiB GICD or ITS region (a device tree's or a hand-filled
 * description) is refused with EINVAL before any register access: the ID
 * registers at 0xFFD0 - 0xFFFC lie outside it. */
static void test_small_regions_refused(void **state)
{
	struct its_fx f;
	struct virq_gic_desc d;
	struct virq_gic_its_desc small;
	unsigned long mmio;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, false);
	d = f.g.desc;
	d.gicd_size = 0x1000;
	{
		struct virq_gic gic2;
		struct virq_gic_rdist rds2[FX_MAX_RD];

		memset(&gic2, 0, sizeof(gic2));
		mmio = virq_sim_mmio_total(f.g.sim);
		assert_int_equal(virq_gic_init(&gic2, &f.g.hal, &d, rds2, FX_MAX_RD, 16),
				 LIBVIRQ_EINVAL);
		assert_int_equal(virq_sim_mmio_total(f.g.sim), mmio);
		assert_int_not_equal(gic2.state, LIBVIRQ_GICV4_LIVE);
	}
	small = f.g.desc.its[0];
	small.size = 0x1000;
	mmio = virq_sim_mmio_total(f.g.sim);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &small, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_mmio_total(f.g.sim), mmio);
	assert_int_equal(f.g.gic.nr_its, 0);
	small.size = 0xFFFF;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &small, NULL), LIBVIRQ_EINVAL);
	small.size = 0x10000; /* the control frame alone is enough */
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &small, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_OK);
	f.its[0].gic = NULL;
	itsfx_teardown(&f, true);
}

/* A second virq_its_init() of the same ITS (another storage, same GIC)
 * is refused (EBUSY) without a register access: the first ITS's tables
 * and devices keep working. */
static void test_same_its_twice_refused(void **state)
{
	struct its_fx f;
	struct virq_its b;
	struct virq_its_device dev;
	uint64_t baser0;
	unsigned long mmio;
	uint32_t lpi;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 7, 4), LIBVIRQ_OK);
	baser0 = virq_sim_its_state_baser(f.sm[0], 0);
	memset(&b, 0, sizeof(b));
	mmio = virq_sim_mmio_total(f.g.sim);
	assert_int_equal(virq_its_init(&b, &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_mmio_total(f.g.sim), mmio);
	assert_int_equal(f.g.gic.nr_its, 1);
	assert_int_equal(virq_sim_its_state_baser(f.sm[0], 0), baser0);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&dev, 0, lpi, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 7, 0).pintid, lpi);
	assert_int_equal(virq_its_unmap_event(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_quirk_table),
	    cmocka_unit_test(test_its_probe),
	    cmocka_unit_test(test_tables_indirect_on_demand),
	    cmocka_unit_test(test_tables_flat_and_page_sizes),
	    cmocka_unit_test(test_tables_capped),
	    cmocka_unit_test(test_proxy_narrowed_table),
	    cmocka_unit_test(test_proxy_lazy_creation),
	    cmocka_unit_test(test_move_lpi_syncs_both_collections),
	    cmocka_unit_test(test_device_index_many),
	    cmocka_unit_test(test_vlpi_move_vsyncs_both_vpes),
	    cmocka_unit_test(test_device_id_duplicate),
	    cmocka_unit_test(test_its_noncoherent),
	    cmocka_unit_test(test_its_inner_readback),
	    cmocka_unit_test(test_forced_noncoherent),
	    cmocka_unit_test(test_cavium),
	    cmocka_unit_test(test_qdf2400),
	    cmocka_unit_test(test_hip09),
	    cmocka_unit_test(test_proxy_doorbell),
	    cmocka_unit_test(test_proxy_dead_its_forgets_vpe),
	    cmocka_unit_test(test_proxy_one_per_gic),
	    cmocka_unit_test(test_proxy_follows_vmovp),
	    cmocka_unit_test(test_proxy_move_all_slots_taken),
	    cmocka_unit_test(test_doorbell_direct_and_invdb),
	    cmocka_unit_test(test_no_masking_path),
	    cmocka_unit_test(test_never_quiescent),
	    cmocka_unit_test(test_quiescent_exact),
	    cmocka_unit_test(test_init_failure_releases),
	    cmocka_unit_test(test_small_regions_refused),
	    cmocka_unit_test(test_same_its_twice_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
