/* SPDX-License-Identifier: MIT */
/* Small ITTs and event tracking carved from pool pages (src/gicv4/its_pool.c):
 * what a device costs, reuse, every page given back, allocation failures,
 * the non-coherent rule, and the ITS model's own checks of ITT memory. */
#include "its_fixture.h"
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/sim/hal.h>
#include <string.h>

#define NDEV 64u

static struct virq_its_device devs_[4096];

static void up_(struct its_fx *f, const struct virq_sim_its_state_cfg *ic)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();

	rc.nr = 2;
	itsfx_setup_cfg(f, &rc, ic, 1, true, NULL);
}

/* [@a, @a + @n) and [@b, @b + @m) share no byte. */
static bool disjoint_(uint64_t a, uint64_t n, uint64_t b, uint64_t m)
{
	return a + n <= b || b + m <= a;
}

/* 4,096 devices of 32 events with QEMU's 12-byte ITT entries: 384-byte
 * ITTs 256-byte aligned, 384 bytes of tracking, five devices a page. */
static void test_small_devices_share_pages(void **state)
{
	struct its_fx f;
	size_t pages0, bytes0;

	(void)state;
	up_(&f, NULL);
	assert_int_equal(f.its[0].itt_esz, 12);
	pages0 = virq_sim_live_pages(f.g.sim);
	bytes0 = virq_sim_live_bytes(f.g.sim);
	for (uint32_t i = 0; i < 4096; i++) {
		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[i], i, 32), LIBVIRQ_OK);
		assert_int_equal(devs_[i].itt.pa & 255, 0);
		assert_int_equal(devs_[i].itt.size, 384);
	}
	/* 820 pool pages, the DeviceID index and the device table's pages */
	assert_in_range(virq_sim_live_pages(f.g.sim) - pages0, 820, 830);
	assert_true(virq_sim_live_bytes(f.g.sim) - bytes0 <= 4096u * 1024u);
	for (uint32_t i = 1; i < NDEV; i++)
		for (uint32_t j = 0; j < i; j++) {
			assert_true(disjoint_(devs_[i].itt.pa, 384, devs_[j].itt.pa, 384));
			assert_true(disjoint_(devs_[i].itt.pa, 384, devs_[j].ev.pa, 384));
			assert_true(disjoint_(devs_[i].ev.pa, 384, devs_[j].itt.pa, 384));
		}
	itsfx_no_errors(&f); /* the model saw no ITT overlap */
	for (uint32_t i = 0; i < 4096; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	itsfx_no_errors(&f); /* ... and nothing written into a mapped ITT */
	assert_in_range(virq_sim_live_pages(f.g.sim) - pages0, 0, 10); /* no pool page left */
	assert_null(f.its[0].pool);
	itsfx_teardown(&f, true);
}

/* A freed block is reused before any new page is taken; a device with
 * tracking of its events works from a pool block. */
static void test_reuse_and_tracking(void **state)
{
	struct its_fx f;
	struct virq_its_event ev;
	uint32_t lpi;
	size_t pages;

	(void)state;
	up_(&f, NULL);
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[i], i, 32), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	assert_int_equal(virq_its_device_unmap(&devs_[3]), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[3], 100, 32), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	/* events of a pooled device: mapped, read back, moved, unmapped */
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&devs_[3], 31, lpi, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_event_get(&devs_[3], 31, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_PHYS);
	assert_int_equal(ev.intid, lpi);
	assert_int_equal(ev.icid, 1);
	assert_null(ev.vpe);
	assert_int_equal(ev.db, LIBVIRQ_ITS_NO_DOORBELL);
	assert_int_equal(virq_its_move_lpi(&devs_[3], 31, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_event_get(&devs_[3], 31, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.icid, 0);
	assert_int_equal(virq_its_event_get(&devs_[3], 30, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_NONE);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 100, 31).pintid, lpi);
	assert_int_equal(virq_its_unmap_event(&devs_[3], 31), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_OK);
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* The page a map needs is refused: ENOMEM naming the ITT or the tracking,
 * nothing kept (the page the ITT took goes back when the tracking fails),
 * and the same map works afterwards. */
static void test_pool_page_alloc_fails(void **state)
{
	struct its_fx f;
	struct virq_failure r;
	size_t pages;
	uint32_t n = 0;

	(void)state;
	up_(&f, NULL);
	/* Fill pool pages until the next device needs a new one. */
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[n], n, 32), LIBVIRQ_OK);
	n++;
	for (;; n++) {
		unsigned long calls = virq_sim_alloc_calls(f.g.sim);

		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[n], n, 32), LIBVIRQ_OK);
		if (virq_sim_alloc_calls(f.g.sim) != calls) { /* took a page: full again at 5 */
			for (uint32_t k = 1; k < 5; k++, n++)
				assert_int_equal(
				    virq_its_device_map(&f.its[0], &devs_[n + 1], n + 1, 32),
				    LIBVIRQ_OK);
			n++;
			break;
		}
	}
	pages = virq_sim_live_pages(f.g.sim);
	virq_sim_fail_alloc_nth(f.g.sim, 1); /* the ITT's page */
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[n], n, 32), LIBVIRQ_ENOMEM);
	assert_true(virq_sim_last_fail(f.g.sim, &r));
	assert_string_equal(r.function, "virq_its_device_map");
	assert_non_null(strstr(r.message, "ITT: 4096 bytes"));
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_false(virq_sim_its_state_dev_mapped(f.sm[0], n));
	/* 2,048 events: the ITT (24 KiB) takes pages, the tracking too; fail
	 * the tracking after the ITT: both given back */
	virq_sim_fail_alloc_nth(f.g.sim, 2);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[n], n, 2048), LIBVIRQ_ENOMEM);
	assert_true(virq_sim_last_fail(f.g.sim, &r));
	assert_non_null(strstr(r.message, "event tracking"));
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[n], n, 32), LIBVIRQ_OK);
	for (uint32_t i = 0; i <= n; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* A non-coherent ITS writes its ITTs past the CPU's caches: each ITT takes
 * a page of its own (cleaned), the tracking still comes from the pool. */
static void test_noncoherent_itt_own_page(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	itsfx_fix_attrs(&ic, 0, -1);
	up_(&f, &ic);
	assert_true(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(virq_its_device_map(&f.its[0], &devs_[i], i, 32), LIBVIRQ_OK);
		assert_int_equal(devs_[i].itt.pa & 4095, 0);
		assert_int_equal(devs_[i].itt.size, 4096);
		assert_true(devs_[i].ev.size < 4096);
	}
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* Larger devices take whole pages; 2 KiB of ITT is the last pooled size. */
static void test_large_devices_take_pages(void **state)
{
	struct its_fx f;

	(void)state;
	up_(&f, NULL);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[0], 0, 128), LIBVIRQ_OK);
	assert_int_equal(devs_[0].itt.size, 1536); /* 128 x 12: pooled */
	assert_int_equal(devs_[0].ev.size, 1536);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[1], 1, 256), LIBVIRQ_OK);
	assert_int_equal(devs_[1].itt.size, 4096); /* 3,072 bytes: a page */
	assert_int_equal(devs_[1].itt.pa & 4095, 0);
	assert_int_equal(devs_[1].ev.size, 4096);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[2], 2, 1), LIBVIRQ_OK);
	assert_int_equal(devs_[2].itt.size, 24); /* 2 events at least */
	assert_int_equal(devs_[2].itt.pa & 255, 0);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(virq_its_device_unmap(&devs_[i]), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* The ITS model's checks of ITT memory fail a library that writes into a
 * mapped ITT or hands two devices overlapping ITTs. */
static void test_model_checks_itt_memory(void **state)
{
	struct its_fx f;
	struct virq_its_cmd c;

	(void)state;
	up_(&f, NULL);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[0], 0, 32), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &devs_[1], 1, 32), LIBVIRQ_OK);
	((uint8_t *)devs_[0].itt.va)[100] = 1; /* a write into device 0's ITT */
	assert_int_equal(virq_its_device_unmap(&devs_[0]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_errors(f.sm[0]), 1);
	assert_non_null(strstr(virq_sim_its_state_last_error(f.sm[0]), "ITT written"));
	/* a MAPD of another DeviceID onto device 1's ITT, straight to the model */
	c = virq_its_mapd(7, 4, devs_[1].itt.pa, true);
	assert_int_equal(virq_its_queue_submit(&f.its[0].q, &c, &f.its[0].lim, NULL, NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_errors(f.sm[0]), 2);
	assert_non_null(strstr(virq_sim_its_state_last_error(f.sm[0]), "overlaps"));
	assert_int_equal(virq_its_device_unmap(&devs_[1]), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_small_devices_share_pages),
	    cmocka_unit_test(test_reuse_and_tracking),
	    cmocka_unit_test(test_pool_page_alloc_fails),
	    cmocka_unit_test(test_noncoherent_itt_own_page),
	    cmocka_unit_test(test_large_devices_take_pages),
	    cmocka_unit_test(test_model_checks_itt_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
