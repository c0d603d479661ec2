/* SPDX-License-Identifier: MIT */
/*
 * One lifecycle policy for every GICv4 object (include/libvirq/gicv4/state.h):
 * a test per type for double init, use after destroy, destroy while in use,
 * NULL and never-initialised storage; the zero-size allocation of a tiny
 * GICv4.1 vPEID space; virq_lpi_free() of an LPI still in use. Before the
 * change: an ITS or vPE re-init leaked its old tables (and an ITS was
 * registered twice), NULL or never-initialised objects crashed, a GICv4.1
 * with 1-2 vPEID bits asked the HAL for a 0-byte bitmap (gic_init failed).
 */
#include "its_fixture.h"

#define LIVE LIBVIRQ_GICV4_LIVE
#define GONE LIBVIRQ_GICV4_GONE

static void garbage_(void *p, size_t n)
{
	memset(p, 0xA5, n);
}

static void test_gic_policy(void **state)
{
	struct gic_fx g;
	struct virq_gic gic, junk;
	struct virq_gic_rdist rds[FX_MAX_RD];
	size_t pages;

	(void)state;
	fx_setup(&g, NULL);
	memset(&gic, 0, sizeof(gic));
	assert_int_equal(virq_gic_init(&gic, &g.hal, &g.desc, rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(gic.state, LIVE);
	pages = virq_sim_live_pages(g.sim);
	/* double init: refused, nothing leaked */
	assert_int_equal(virq_gic_init(&gic, &g.hal, &g.desc, rds, FX_MAX_RD, 16), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(g.sim), pages);
	/* NULL and never initialised */
	garbage_(&junk, sizeof(junk));
	assert_int_equal(virq_gic_dist_enable(NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_dist_enable(&junk), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_rdist_init(&junk, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_lpi_alloc(&junk, 1, &(uint32_t){0}), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_destroy(&junk), LIBVIRQ_EINVAL);
	/* destroy while in use: a VM */
	{
		struct virq_gic_vm vm = {0};

		assert_int_equal(virq_gic_vm_init(&vm, &gic, 16), LIBVIRQ_OK);
		assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_EBUSY);
		assert_int_equal(virq_sim_live_pages(g.sim), pages + 1);
		assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_OK);
	assert_int_equal(gic.state, GONE);
	assert_int_equal(virq_sim_live_pages(g.sim), 0);
	/* use after destroy, destroy twice */
	assert_int_equal(virq_gic_dist_enable(&gic), LIBVIRQ_EINVAL);
	assert_int_equal(virq_lpi_alloc(&gic, 1, &(uint32_t){0}), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_bad_frees(g.sim), 0);
	/* a destroyed object may be initialised again */
	assert_int_equal(virq_gic_init(&gic, &g.hal, &g.desc, rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_OK);
	fx_teardown(&g);
}

static void test_its_policy(void **state)
{
	struct its_fx f;
	struct virq_its junk;
	struct virq_its_device d = {0};
	size_t pages;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	pages = virq_sim_live_pages(f.g.sim);
	/* double init: used to leak every table and register the ITS twice */
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(f.g.gic.nr_its, 1);
	assert_ptr_equal(f.g.gic.its[0], &f.its[0]);
	assert_null(f.g.gic.its[1]);
	garbage_(&junk, sizeof(junk));
	assert_int_equal(virq_its_map_collection(&junk, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_device_map(&junk, &d, 1, 2), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_destroy(&junk), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_destroy(NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 1, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	/* the queue inside an ITS is the ITS's to free */
	assert_int_equal(virq_its_queue_fini(&f.its[0].q), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_publish(&f.its[0].q, NULL), LIBVIRQ_EINVAL);
	itsfx_teardown(&f, true);
}

static void test_device_policy(void **state)
{
	struct its_fx f;
	struct virq_its_device d = {0}, junk;
	struct virq_its_event ev;
	uint32_t lpi;
	size_t pages;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 1, 2), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 2, 2), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	garbage_(&junk, sizeof(junk));
	assert_int_equal(virq_its_map_lpi(&junk, 0, lpi, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_int(&junk, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_event_get(&junk, 0, &ev), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vlpi_unmap_range(&junk, 0, 1), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_device_unmap(&junk), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_int(NULL, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_map_lpi(&d, 0, lpi, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_EBUSY);
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_EBUSY); /* an event maps it */
	assert_int_equal(virq_its_unmap_event(&d, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	assert_int_equal(d.state, GONE);
	assert_int_equal(virq_its_int(&d, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_EINVAL);
	assert_int_equal(virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_vm_vpe_policy(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm = {0}, junkvm;
	struct virq_vpe v = {0}, junk;
	struct virq_its_device d = {0};
	uint32_t db;
	size_t pages;
	bool pl;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	/* double init of each: used to leak the VPT / table and a vPEID */
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(vm.nr_vpes, 1);
	garbage_(&junk, sizeof(junk));
	garbage_(&junkvm, sizeof(junkvm));
	assert_int_equal(virq_vpe_make_resident(&junk, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_move(&junk, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_put(&junk, &pl), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_destroy(&junk), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_init(&junk, &junkvm, 0, db), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_vm_vlpi_config(&junkvm, 8192, 0, true), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_vm_destroy(&junkvm), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_load(NULL, 0), LIBVIRQ_EINVAL);
	/* destroy while in use */
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_make_nonresident(&v, false, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 1, 2), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&d, 0, &v, 8192, true), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_EBUSY);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_EBUSY); /* the vPE's doorbell */
	assert_int_equal(virq_vlpi_unmap(&d, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	/* use after destroy */
	assert_int_equal(v.state, GONE);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_wfi_enter(&v), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_EINVAL);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_vlpi_config(&vm, 8192, 0, true), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_EINVAL);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_queue_policy(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_its *m = virq_sim_its_new(sim, FX_ITS_BASE, NULL);
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_its_queue q, junk;
	struct virq_its_cmd c = virq_its_sync_cmd(0);
	uint64_t t;

	(void)state;
	memset(&q, 0, sizeof(q));
	assert_int_equal(virq_its_queue_init(&q, &hal, FX_ITS_BASE, 4096, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_init(&q, &hal, FX_ITS_BASE, 4096, NULL), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(sim), 1);
	garbage_(&junk, sizeof(junk));
	assert_int_equal(virq_its_queue_push(&junk, &c, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_publish(&junk, &t), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_reset(&junk), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_capacity(&junk), 0);
	assert_int_equal(virq_its_queue_fini(&junk), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_push(NULL, &c, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_fini(&q), LIBVIRQ_OK);
	assert_int_equal(q.state, GONE);
	assert_int_equal(virq_its_queue_push(&q, &c, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_drain(&q, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_fini(&q), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_live_pages(sim), 0);
	assert_int_equal(virq_sim_bad_frees(sim), 0);
	virq_sim_free(sim);
	virq_sim_its_free(m);
}

/* GICv4.1 with GICD_TYPER2.VID = 0 or 1 (1 or 2 vPEID bits): the vPEID
 * allocator's page is not 0 bytes (the fake HAL refuses a 0-byte request,
 * as the HAL contract does; gic_init failed with EINVAL before), and
 * exactly 2 or 4 vPEs fit. */
static void test_tiny_vpeid_space(void **state)
{
	(void)state;
	for (uint32_t vid = 0; vid <= 1; vid++) {
		struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
		struct its_fx f;
		struct virq_gic_vm vm = {0};
		struct virq_vpe v[5];
		uint32_t n = 1u << (vid + 1);

		memset(v, 0, sizeof(v));
		rc.version = 41;
		rc.typer2 = (1u << 7) | vid; /* VIL, VID */
		ic.typer = QEMU_TYPER_40 | (1ull << 40) | (1ull << 41);
		itsfx_setup(&f, &rc, &ic, 1, true);
		assert_int_equal(f.g.gic.vpeid_bits, vid + 1);
		assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 14), LIBVIRQ_OK);
		for (uint32_t i = 0; i < n; i++) {
			assert_int_equal(virq_vpe_init(&v[i], &vm, 0, LIBVIRQ_ITS_NO_DOORBELL),
					 LIBVIRQ_OK);
			assert_int_equal(v[i].vpeid, i);
		}
		assert_int_equal(virq_vpe_init(&v[n], &vm, 0, LIBVIRQ_ITS_NO_DOORBELL),
				 LIBVIRQ_ENOSPC);
		/* a freed vPEID is handed out again */
		assert_int_equal(virq_vpe_destroy(&v[0]), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&v[n], &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
		assert_int_equal(v[n].vpeid, 0);
		for (uint32_t i = 1; i <= n; i++)
			assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
		assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
	}
}

/* The library's private vPEID allocator (src/gicv4/lpi_priv.h), declared
 * here: through virq_vpe_init every vPE would cost a 64 KiB VPT, too much
 * for 65,536 of them in a unit test. */
bool virq_vpeid_alloc_(struct virq_gic *gic, uint32_t *id);
void virq_vpeid_free_(struct virq_gic *gic, uint32_t id);

/* The vPEID allocator is O(1) amortised: it hands out the lowest free
 * vPEID after any pattern of frees (its "no free ID below" hint moves back
 * on a free), all 2^16 of them, and 65,536 need no more page than one. */
static void test_vpeid_allocator_order(void **state)
{
	struct gic_fx g;
	struct virq_gic gic = {0};
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	uint32_t id;

	(void)state;
	fx_setup(&g, &rc);
	assert_int_equal(virq_gic_init(&gic, &g.hal, &g.desc, g.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(gic.vpeid_bits, 16);
	assert_true(gic.vpeid_map.size >= (1u << 16) / 8);
	assert_true(gic.vpeid_map.size <= (1u << 16) / 8 + 4096);
	for (uint32_t i = 0; i < 65536; i++) {
		assert_true(virq_vpeid_alloc_(&gic, &id));
		assert_int_equal(id, i);
	}
	assert_false(virq_vpeid_alloc_(&gic, &id));
	virq_vpeid_free_(&gic, 40000);
	virq_vpeid_free_(&gic, 4100);
	virq_vpeid_free_(&gic, 10);
	assert_true(virq_vpeid_alloc_(&gic, &id));
	assert_int_equal(id, 10);
	assert_true(virq_vpeid_alloc_(&gic, &id));
	assert_int_equal(id, 4100);
	assert_true(virq_vpeid_alloc_(&gic, &id));
	assert_int_equal(id, 40000);
	assert_false(virq_vpeid_alloc_(&gic, &id));
	virq_vpeid_free_(&gic, 65535);
	assert_true(virq_vpeid_alloc_(&gic, &id));
	assert_int_equal(id, 65535);
	for (uint32_t i = 0; i < 65536; i++)
		virq_vpeid_free_(&gic, i);
	assert_true(virq_vpeid_alloc_(&gic, &id));
	assert_int_equal(id, 0);
	assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_OK);
	fx_teardown(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gic_policy),
	    cmocka_unit_test(test_its_policy),
	    cmocka_unit_test(test_device_policy),
	    cmocka_unit_test(test_vm_vpe_policy),
	    cmocka_unit_test(test_queue_policy),
	    cmocka_unit_test(test_tiny_vpeid_space),
	    cmocka_unit_test(test_vpeid_allocator_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
