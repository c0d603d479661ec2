/* SPDX-License-Identifier: MIT */
/* The small-ITT pool under churn and adversity (a fresh review's tests):
 * room freed anywhere is reused, mixed sizes, several ITSes, the
 * proxy device, stalls, tracking against the ITS model, and the model's
 * check of ITT memory freed while mapped. */
#include "its_fixture.h"
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/sim/hal.h>
#include <stdio.h>
#include <string.h>

#define MAXDEV 4096u

static struct virq_its_device devs_[MAXDEV];
static bool live_[MAXDEV];

static void up_(struct its_fx *f, const struct virq_sim_its_state_cfg *ic, unsigned nits)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();

	rc.nr = 2;
	itsfx_setup_cfg(f, &rc, ic, nits, true, NULL);
}

/* 1. The 4-page scan leaves free room in older pages unused forever: fill
 * 20 pool pages (5 devices each), free 4 of the 5 devices of every page,
 * then map as many devices as were freed. A pool that reuses free room
 * takes no new page; this one takes new pages while 16 pages keep 80 % of
 * their room. */
static void test_holes_beyond_scan_not_reused(void **state)
{
	struct its_fx f;
	size_t pages_full, pages_after;
	uint32_t n = 100, freed = 0;

	(void)state;
	up_(&f, NULL, 1);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[i], i, 32), LIBVIRQ_OK);
	pages_full = virq_sim_live_pages(f.g.sim);
	/* keep device 5k of every page, free 5k+1 .. 5k+4 (pages in map order) */
	for (uint32_t i = 0; i < n; i++)
		if (i % 5) {
			assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
			freed++;
		}
	for (uint32_t i = 0; i < freed; i++)
		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[n + i], n + i, 32),
				 LIBVIRQ_OK);
	pages_after = virq_sim_live_pages(f.g.sim);
	print_message("HAL allocations: %zu after the refill, %zu when full: %zu new pages for "
		      "%u devices that fit in the freed room\n",
		      pages_after, pages_full, pages_after - pages_full, freed);
	for (uint32_t i = 0; i < n; i++)
		if (!(i % 5))
			assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	for (uint32_t i = 0; i < freed; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[n + i]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
	assert_int_equal(pages_after,
			 pages_full); /* failed before the ring rotation: 13 new pages */
}

/* 2. Mixed sizes and churn with physical LPIs written into the tracking of
 * pooled devices: every live ITT is 256-byte aligned, no two live blocks
 * (ITT or tracking, any device) overlap, the block's VA is its PA's, the
 * model sees no overlap and no write into a mapped ITT, and every pool
 * page goes back. Both 12- and 8-byte ITT entries. */
static uint32_t rnd_(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static bool disjoint_(uint64_t a, uint64_t n, uint64_t b, uint64_t m)
{
	return a + n <= b || b + m <= a;
}

static void check_blocks_(struct its_fx *f, uint32_t ndev)
{
	for (uint32_t i = 0; i < ndev; i++) {
		const struct virq_its_device *d = &devs_[i];

		if (!live_[i])
			continue;
		assert_int_equal(d->itt.pa & 255, 0);
		assert_ptr_equal(virq_sim_pa_to_va(f->g.sim, d->itt.pa, d->itt.size), d->itt.va);
		assert_ptr_equal(virq_sim_pa_to_va(f->g.sim, d->ev.pa, d->ev.size), d->ev.va);
		assert_true(d->itt.size >= (uint64_t)d->nr_events * f->its[0].itt_esz);
		/* the record's unit (the page's last 64 bytes) is never handed out */
		if (d->itt.size < 4096)
			assert_true((d->itt.pa & 4095) + d->itt.size <= 4096 - 64);
		if (d->ev.size < 4096)
			assert_true((d->ev.pa & 4095) + d->ev.size <= 4096 - 64);
		for (uint32_t j = 0; j < i; j++) {
			const struct virq_its_device *o = &devs_[j];

			if (!live_[j])
				continue;
			assert_true(disjoint_(d->itt.pa, d->itt.size, o->itt.pa, o->itt.size));
			assert_true(disjoint_(d->itt.pa, d->itt.size, o->ev.pa, o->ev.size));
			assert_true(disjoint_(d->ev.pa, d->ev.size, o->itt.pa, o->itt.size));
			assert_true(disjoint_(d->ev.pa, d->ev.size, o->ev.pa, o->ev.size));
		}
		assert_true(disjoint_(d->itt.pa, d->itt.size, d->ev.pa, d->ev.size));
	}
}

static void churn_(uint64_t typer)
{
	static const uint32_t sizes[] = {1,  2,	 3,   4,   5,	8,   16,  17, 32,
					 33, 64, 100, 128, 129, 170, 171, 256};
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	uint32_t seed = 12345, lpi, nd = 96, mapped_ev[MAXDEV];
	size_t pages0;

	ic.typer = typer;
	up_(&f, &ic, 1);
	pages0 = virq_sim_live_pages(f.g.sim);
	memset(live_, 0, sizeof(live_));
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	for (uint32_t step = 0; step < 3000; step++) {
		uint32_t i = rnd_(&seed) % nd;

		if (!live_[i]) {
			uint32_t ne = sizes[rnd_(&seed) % (sizeof(sizes) / sizeof(sizes[0]))];

			assert_int_equal(virq_its_device_map(&f.its[0], &devs_[i], 1000 + i, ne),
					 LIBVIRQ_OK);
			live_[i] = true;
			/* write the tracking: the last event, right next to a neighbour */
			mapped_ev[i] = devs_[i].nr_events - 1;
			assert_int_equal(virq_its_map_lpi(&devs_[i], mapped_ev[i], lpi, 1),
					 LIBVIRQ_OK);
		} else {
			assert_int_equal(virq_its_unmap_event(&devs_[i], mapped_ev[i]), LIBVIRQ_OK);
			assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
			live_[i] = false;
		}
		if (step % 50 == 0)
			check_blocks_(&f, nd);
		itsfx_no_errors(&f);
	}
	check_blocks_(&f, nd);
	for (uint32_t i = 0; i < nd; i++)
		if (live_[i]) {
			assert_int_equal(virq_its_unmap_event(&devs_[i], mapped_ev[i]), LIBVIRQ_OK);
			assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
			live_[i] = false;
		}
	assert_null(f.its[0].pool);
	print_message("live HAL allocations: %zu at start, %zu at end (pool empty)\n", pages0,
		      virq_sim_live_pages(f.g.sim));
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_mixed_sizes_churn_esz12(void **state)
{
	(void)state;
	churn_(QEMU_TYPER_40);
}

static void test_mixed_sizes_churn_esz8(void **state)
{
	(void)state;
	churn_((QEMU_TYPER_40 & ~0xF0ull) | 0x70ull);
}

static void test_mixed_sizes_churn_esz16(void **state)
{
	(void)state;
	churn_((QEMU_TYPER_40 & ~0xF0ull) | 0xF0ull);
}

/* 3. Devices on two ITSes, interleaved; the second ITS dies; its devices
 * are unmapped (memory released without commands) and it is destroyed:
 * each ITS's pool holds only its own blocks, and every page comes back. */
static void test_two_its_one_dead(void **state)
{
	struct its_fx f;
	struct virq_sim_its *q1;

	(void)state;
	up_(&f, NULL, 2);
	for (uint32_t i = 0; i < 40; i++)
		assert_int_equal(virq_its_device_map(&f.its[i & 1], &devs_[i], i, 1u + i),
				 LIBVIRQ_OK);
	for (uint32_t i = 0; i < 40; i++)
		assert_ptr_equal(devs_[i].its, &f.its[i & 1]);
	q1 = virq_sim_its_state_queue(f.sm[1]);
	virq_sim_its_set_dead(q1, true);
	virq_sim_its_set_never_quiescent(q1, true);
	assert_int_not_equal(virq_its_device_map(&f.its[1], &devs_[41], 41, 32), LIBVIRQ_OK);
	assert_true(f.its[1].dead);
	for (uint32_t i = 1; i < 40; i += 2)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	assert_null(f.its[1].pool);
	assert_non_null(f.its[0].pool);
	virq_sim_its_set_never_quiescent(q1, false);
	assert_int_equal(virq_its_destroy(&f.its[1]), LIBVIRQ_OK);
	for (uint32_t i = 0; i < 40; i += 2)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	assert_null(f.its[0].pool);
	itsfx_teardown(&f, true);
}

/* 4. The tracking's public view against the ITS model's translation, event
 * by event, through map / map_range / move / set_doorbell / remap on
 * GICv4.0 with vPEs with and without a doorbell, physical LPIs moved, and
 * the extreme 16-bit INTIDs (vINTID 65535). */
static void same_(struct its_fx *f, const struct virq_its_device *d, uint32_t devid)
{
	for (uint32_t e = 0; e < d->nr_events; e++) {
		struct virq_its_event ev;
		struct virq_sim_its_ev m = virq_sim_its_state_lookup(f->sm[0], devid, e);

		assert_int_equal(virq_its_event_get(d, e, &ev), LIBVIRQ_OK);
		if (ev.kind == LIBVIRQ_ITS_EV_NONE) {
			assert_int_equal(m.kind, LIBVIRQ_SIM_ITS_EV_NONE);
			continue;
		}
		if (ev.kind == LIBVIRQ_ITS_EV_PHYS) {
			assert_int_equal(m.kind, LIBVIRQ_SIM_ITS_EV_PHYS);
			assert_int_equal(m.pintid, ev.intid);
			assert_int_equal(m.icid, ev.icid);
			assert_null(ev.vpe);
			continue;
		}
		assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_VIRT);
		assert_int_equal(m.kind, LIBVIRQ_SIM_ITS_EV_VIRT);
		assert_int_equal(m.vintid, ev.intid);
		assert_int_equal(m.vpe, ev.vpe->vpeid);
		if (m.db != ev.db)
			fail_msg("event %u: model doorbell %u, tracked %u", e, m.db, ev.db);
	}
}

static void test_tracking_vs_model(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_its_cfg cfg = {0};
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe a, b, c;
	struct virq_its_device *d = &devs_[0];
	uint32_t dba, dbb, lpi;

	(void)state;
	rc.nr = 2;
	rc.version = 40;
	cfg.eager_vpes = true;
	itsfx_setup_cfg(&f, &rc, NULL, 1, true, &cfg);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &dba), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &dbb), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, dba), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&b, &vm, 1, dbb), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&c, &vm, 1, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], d, 7, 16), LIBVIRQ_OK);
	assert_true(d->ev.size < 4096);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_map(d, 0, &a, 65535, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(d, 1, &a, 8192, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map_range(d, 2, 4, &b, 60000, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(d, 6, &c, 9000, true), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(d, 15, lpi, 1), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_move(d, 0, &b), LIBVIRQ_OK); /* doorbell follows: dbb */
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_move(d, 0, &c), LIBVIRQ_OK); /* c has none: 1023 */
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_move(d, 0, &a), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_set_doorbell(d, 1, true), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_set_doorbell(d, 2, false), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_remap(d, 3, &a, 12345), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_remap(d, 1, &b, 65534), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vlpi_move(d, 1, &c), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_its_move_lpi(d, 15, 0), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(virq_vpe_destroy(&c), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vlpi_unmap_range(d, 0, 7), LIBVIRQ_OK);
	assert_int_equal(virq_its_unmap_event(d, 15), LIBVIRQ_OK);
	same_(&f, d, 7);
	assert_int_equal(a.nr_vlpis + b.nr_vlpis + c.nr_vlpis, 0);
	assert_int_equal(virq_its_device_unmap(d), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&b), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&c), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* 5. 24 INTID bits (GICD_TYPER.IDbits = 23, the architecture's widest): the
 * tracking keeps INTIDs above 16 bits exactly (vINTIDs 65535, 65536 and
 * 2^24 - 1, a map_range across 65536, a physical LPI above 65535), an INT
 * reaches the model at the tracked vINTID, and 25 bits are refused. */
static void test_tracking_24bit_intids(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_its_cfg cfg = {0};
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe a, b;
	struct virq_its_device *d = &devs_[0];
	struct virq_gic_info gi;
	struct virq_its_event ev;
	uint32_t dba, lpi = 0, x;
	const uint32_t top = (1u << 24) - 1u;

	(void)state;
	rc.nr = 2;
	rc.version = 40;
	rc.idbits = 23;
	cfg.eager_vpes = true;
	itsfx_setup_bits(&f, &rc, NULL, 1, true, &cfg, 24);
	assert_int_equal(virq_gic_get_info(&f.g.gic, &gi), LIBVIRQ_OK);
	assert_int_equal(gi.lpi_bits, 24);
	assert_int_equal(f.g.gic.lpi_end, 1u << 24);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 24), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &dba), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, dba), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&b, &vm, 1, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	/* A physical LPI above 65535: allocate blocks until one lies there. */
	while (lpi < 65536u) {
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 4096, &x), LIBVIRQ_OK);
		lpi = x + 4095u;
	}
	assert_int_equal(virq_its_device_map(&f.its[0], d, 9, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(d, 0, &a, top, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(d, 1, &a, 65535, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(d, 2, &b, 65536, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map_range(d, 3, 4, &b, 65534, true), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(d, 15, lpi, 1), LIBVIRQ_OK);
	same_(&f, d, 9);
	assert_int_equal(virq_its_event_get(d, 0, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.intid, top);
	assert_int_equal(virq_its_event_get(d, 6, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.intid, 65537);
	assert_int_equal(virq_its_event_get(d, 15, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.intid, lpi);
	assert_int_equal(virq_vlpi_remap(d, 1, &b, top - 1u), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_move(d, 0, &b), LIBVIRQ_OK);
	same_(&f, d, 9);
	/* The vINTID the model delivers is the tracked one. */
	assert_int_equal(virq_vpe_make_resident(&b, b.rd), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(d, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_vdelivered(f.sm[0], b.vpeid, top), 1);
	assert_int_equal(virq_sim_its_state_vdelivered(f.sm[0], b.vpeid, top & 0xFFFFu), 0);
	assert_int_equal(virq_vpe_make_nonresident(&b, false, NULL), LIBVIRQ_OK);
	/* An unmap in the middle leaves the high entries as they were. */
	assert_int_equal(virq_vlpi_unmap(d, 2), LIBVIRQ_OK);
	same_(&f, d, 9);
	assert_int_equal(virq_vlpi_unmap_range(d, 3, 4), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap_range(d, 0, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_unmap_event(d, 15), LIBVIRQ_OK);
	same_(&f, d, 9);
	assert_int_equal(virq_its_device_unmap(d), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&b), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* 25 INTID bits are past the architecture: refused, nothing allocated. */
static void test_lpi_bits_25_refused(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct gic_fx g;

	(void)state;
	rc.idbits = 23;
	fx_setup(&g, &rc);
	assert_int_equal(virq_gic_init(&g.gic, &g.hal, &g.desc, g.rds, FX_MAX_RD, 25),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_init(&g.gic, &g.hal, &g.desc, g.rds, FX_MAX_RD, 24), LIBVIRQ_OK);
	assert_int_equal(g.gic.lpi_bits, 24);
	assert_int_equal(virq_gic_destroy(&g.gic), LIBVIRQ_OK);
	fx_teardown(&g);
}

/* 5b. The model's "ITT unchanged" check is skipped when the ITT's memory
 * was freed while the device was still mapped (virq_sim_pa_to_va() gives
 * NULL at the MAPD V=0): the worst ITT bug (the ITS using freed memory) is
 * the one it does not report. */
static void test_model_itt_freed_while_mapped(void **state)
{
	struct its_fx f;
	struct virq_its_cmd c;
	struct virq_page pg;
	unsigned long e0;

	(void)state;
	up_(&f, NULL, 1);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[0], 0, 32),
			 LIBVIRQ_OK); /* the L2 page */
	e0 = virq_sim_its_state_errors(f.sm[0]);
	assert_int_equal(f.g.hal.ops->page_alloc(f.g.hal.ctx, 4096, 4096, &pg), LIBVIRQ_OK);
	c = virq_its_mapd(9, 4, pg.pa, true);
	assert_int_equal(virq_its_queue_submit(&f.its[0].q, &c, &f.its[0].lim, NULL, NULL),
			 LIBVIRQ_OK);
	memset(pg.va, 0xAB, 64);		  /* written while mapped ... */
	f.g.hal.ops->page_free(f.g.hal.ctx, &pg); /* ... and freed while mapped */
	c = virq_its_mapd(9, 4, 0, false);
	assert_int_equal(virq_its_queue_submit(&f.its[0].q, &c, &f.its[0].lim, NULL, NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&devs_[0]), LIBVIRQ_OK);
	e0 = virq_sim_its_state_errors(f.sm[0]) - e0;
	print_message("last: %s\n", e0 ? virq_sim_its_state_last_error(f.sm[0]) : "-");
	print_message("model errors for an ITT written then freed while mapped: %lu\n", e0);
	itsfx_teardown(&f, true);
	assert_true(e0 >= 1); /* failed before the model's check: 0 */
}

/* 6. A non-coherent ITS by dma-noncoherent (not by its attributes): every
 * ITT on whole pages. */
static void test_dma_noncoherent_itt_pages(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;

	(void)state;
	rc.nr = 2;
	itsfx_setup_cfg(&f, &rc, NULL, 1, false, NULL);
	f.g.desc.its[0].dma_noncoherent = true;
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_true(f.its[0].noncoherent);
	for (uint32_t i = 0; i < 6; i++) {
		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[i], i, 1u << i), LIBVIRQ_OK);
		assert_int_equal(devs_[i].itt.pa & 4095, 0);
		assert_true(devs_[i].itt.size >= 4096);
	}
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* 7. The proxy device of a GICv4.0 ITS without DirectLPI lives in the pool
 * next to ordinary devices, and goes with the ITS. */
static void test_proxy_in_pool(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_its_cfg cfg = {0};
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint32_t db;

	(void)state;
	rc.nr = 2;
	rc.version = 40;
	cfg.proxy_doorbells = true;
	cfg.eager_vpes = true;
	itsfx_setup_cfg(&f, &rc, NULL, 1, true, &cfg);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[0], 0, 32), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_non_null(f.its[0].proxy);
	assert_true(f.its[0].proxy->itt.size < 4096);
	assert_int_equal(f.its[0].proxy->itt.pa & ~4095ull, devs_[0].itt.pa & ~4095ull);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_doorbell_invalidate(&v), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&devs_[0]), LIBVIRQ_OK);
	assert_non_null(f.its[0].pool); /* the proxy's blocks */
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* 8. A MAPD that stalls: the device's blocks go back (nothing kept), the
 * next device takes the same ITT block, the model sees no overlap. */
static void test_mapd_stall_gives_blocks_back(void **state)
{
	struct its_fx f;
	struct virq_sim_its *q;
	uint64_t itt_pa;
	size_t pages;

	(void)state;
	up_(&f, NULL, 1);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[0], 0, 32), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	q = virq_sim_its_state_queue(f.sm[0]);
	virq_sim_its_stall_opcode(q, LIBVIRQ_ITS_MAPD);
	assert_int_not_equal(virq_its_device_map(&f.its[0], &devs_[1], 1, 32), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(q, -1);
	assert_false(f.its[0].dead);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[1], 1, 32), LIBVIRQ_OK);
	itt_pa = devs_[1].itt.pa;
	assert_int_equal(virq_its_device_unmap(&devs_[1]), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[1], 2, 32), LIBVIRQ_OK);
	assert_int_equal(devs_[1].itt.pa, itt_pa);
	assert_int_equal(virq_its_device_unmap(&devs_[1]), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&devs_[0]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_holes_beyond_scan_not_reused),
	    cmocka_unit_test(test_mixed_sizes_churn_esz12),
	    cmocka_unit_test(test_mixed_sizes_churn_esz8),
	    cmocka_unit_test(test_mixed_sizes_churn_esz16),
	    cmocka_unit_test(test_two_its_one_dead),
	    cmocka_unit_test(test_tracking_vs_model),
	    cmocka_unit_test(test_tracking_24bit_intids),
	    cmocka_unit_test(test_lpi_bits_25_refused),
	    cmocka_unit_test(test_model_itt_freed_while_mapped),
	    cmocka_unit_test(test_dma_noncoherent_itt_pages),
	    cmocka_unit_test(test_proxy_in_pool),
	    cmocka_unit_test(test_mapd_stall_gives_blocks_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
