/* SPDX-License-Identifier: MIT */
/*
 * "Errors that say why" : every failure of the GICv4 driver logs
 * one debug-level line naming the public function and the check that
 * failed, through the embedder's log callback; success paths log nothing
 * at all. Before the change the failures below returned bare status codes
 * and logged nothing.
 */
#include "its_fixture.h"

#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40))

static unsigned long dbg_(const struct its_fx *f)
{
	return virq_sim_log_count(f->g.sim, LIBVIRQ_LOG_DEBUG);
}

static unsigned long all_logs_(const struct its_fx *f)
{
	unsigned long n = 0;

	for (int l = 0; l < 4; l++)
		n += virq_sim_log_count(f->g.sim, (enum virq_log_level)l);
	return n;
}

/* The whole hot and cold path of a VM, all successful: no log line. */
static void test_success_logs_nothing(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm = {0};
	struct virq_vpe v = {0};
	struct virq_its_device dev = {0};
	uint32_t db, lpi;
	bool pl;
	unsigned long base;

	(void)state;
	rc.nr = 2;
	itsfx_setup(&f, &rc, NULL, 1, true);
	base = all_logs_(&f); /* bring-up may log INFO lines (probe results) */
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 2, &db), LIBVIRQ_OK);
	lpi = db + 1;
	assert_int_equal(virq_lpi_set_config(&f.g.gic, db, 0xA0, true), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 3, 64), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&dev, 63, lpi, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_move_lpi(&dev, 63, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 0, &v, 8192, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map_range(&dev, 1, 32, &v, 8193, true), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_nonresident(&v, true, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_remap(&dev, 0, &v, 9000), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_set_config(&dev, 0, 0x80, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap_range(&dev, 1, 32), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_unmap_range(&dev, 63, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 2), LIBVIRQ_OK);
	assert_int_equal(all_logs_(&f), base);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* A failure logs exactly one debug line whose text names the function and
 * the check; the status is returned unchanged. */
#define EXPECT_FAIL(f, call, status, text)                                                         \
	do {                                                                                       \
		unsigned long n0_ = dbg_(f);                                                       \
		assert_int_equal((call), (status));                                                \
		assert_int_equal(dbg_(f), n0_ + 1);                                                \
		assert_string_equal(virq_sim_last_log((f)->g.sim), (text));                        \
	} while (0)

static void test_failures_say_why(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm = {0};
	struct virq_vpe v = {0}, w = {0};
	struct virq_its_device dev = {0};
	uint32_t db, lpi;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 2, &db), LIBVIRQ_OK);
	lpi = db + 1;
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 3, 8), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_lpi_alloc(&f.g.gic, 0, &db), LIBVIRQ_EINVAL,
		    "virq_lpi_alloc: NULL first or count not 1..4096");
	EXPECT_FAIL(&f, virq_lpi_set_config(&f.g.gic, 100, 0xA0, true), LIBVIRQ_ERANGE,
		    "virq_lpi_set_config: not an LPI of this GIC");
	EXPECT_FAIL(&f, virq_its_map_collection(&f.its[0], 7), LIBVIRQ_EINVAL,
		    "virq_its_map_collection: redistributor index >= nr_rd");
	EXPECT_FAIL(&f, virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_EBUSY,
		    "virq_gic_vm_init: vm is live (virq_gic_vm_destroy() first)");
	EXPECT_FAIL(&f, virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_EBUSY,
		    "virq_vpe_init: vpe is live (virq_vpe_destroy() first)");
	EXPECT_FAIL(&f, virq_vpe_init(&w, &vm, 0, 9999), LIBVIRQ_ENOENT,
		    "virq_vpe_init: doorbell is not an allocated LPI");
	/* A check shared by several calls names the one that was called. */
	EXPECT_FAIL(&f, virq_vlpi_map(&dev, 0, &v, 100, false), LIBVIRQ_ERANGE,
		    "virq_vlpi_map: vINTID outside 8192 .. 2^id_bits - 1");
	EXPECT_FAIL(&f, virq_vlpi_map_range(&dev, 0, 2, &v, 100, false), LIBVIRQ_ERANGE,
		    "virq_vlpi_map_range: vINTID outside 8192 .. 2^id_bits - 1");
	assert_int_equal(virq_vlpi_map(&dev, 1, &v, 8300, false), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_vlpi_remap(&dev, 1, &v, 100), LIBVIRQ_ERANGE,
		    "virq_vlpi_remap: vINTID outside 8192 .. 2^id_bits - 1");
	EXPECT_FAIL(&f, virq_vlpi_move(&dev, 1, &w), LIBVIRQ_EINVAL,
		    "virq_vlpi_move: vpe not live");
	assert_int_equal(virq_vlpi_unmap(&dev, 1), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_vlpi_map(&dev, 8, &v, 8192, false), LIBVIRQ_ERANGE,
		    "virq_vlpi_map: event >= nr_events");
	EXPECT_FAIL(&f, virq_vlpi_map_config(&dev, 8, &v, 8192, false, 0x80, true), LIBVIRQ_ERANGE,
		    "virq_vlpi_map_config: event >= nr_events");
	EXPECT_FAIL(&f, virq_vlpi_map_config(&dev, 0, &v, 100, false, 0x80, true), LIBVIRQ_ERANGE,
		    "virq_vlpi_map_config: vINTID outside 8192 .. 2^id_bits - 1");
	EXPECT_FAIL(&f, virq_vlpi_unmap_range(&dev, 0, 2), LIBVIRQ_ENOENT,
		    "virq_vlpi_unmap_range: an event of the range is not a vLPI");
	EXPECT_FAIL(&f, virq_vpe_make_resident(&v, 1), LIBVIRQ_EINVAL,
		    "virq_vpe_make_resident: rd is not the vPE's target (virq_vpe_move() first)");
	EXPECT_FAIL(&f, virq_vpe_make_nonresident(&v, false, NULL), LIBVIRQ_EINVAL,
		    "virq_vpe_make_nonresident: vPE not resident");
	assert_int_equal(virq_its_map_lpi(&dev, 5, lpi, 0), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_EBUSY,
		    "virq_lpi_free: INTID still mapped by an ITS event or used as a vPE doorbell");
	EXPECT_FAIL(&f, virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_EBUSY,
		    "virq_lpi_free: INTID still mapped by an ITS event or used as a vPE doorbell");
	EXPECT_FAIL(&f, virq_its_device_unmap(&dev), LIBVIRQ_EBUSY,
		    "virq_its_device_unmap: events still mapped");
	EXPECT_FAIL(&f, virq_gic_vm_destroy(&vm), LIBVIRQ_EBUSY,
		    "virq_gic_vm_destroy: vPEs still exist");
	/* The queue: an ITS that consumes nothing times out, the message names it. */
	virq_sim_its_set_dead(virq_sim_its_state_queue(f.sm[0]), true);
	assert_int_equal(virq_its_int(&dev, 5), LIBVIRQ_ETIMEDOUT);
	assert_true(virq_sim_logged(f.g.sim, "virq_its_int: INT + SYNC/VSYNC failed"));
	assert_true(virq_sim_logged(
	    f.g.sim, "virq_its_queue_wait: the ITS consumed nothing until the deadline"));
	virq_sim_its_set_dead(virq_sim_its_state_queue(f.sm[0]), false);
	assert_int_equal(virq_its_unmap_event(&dev, 5), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 2), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* Without a log callback a failure still returns its status (the log is
 * optional; FAIL costs nothing then). */
static void test_failure_without_log_callback(void **state)
{
	struct gic_fx g;
	struct virq_hal_ops ops;
	struct virq_hal hal;
	struct virq_gic gic = {0};

	(void)state;
	fx_setup(&g, NULL);
	ops = *g.hal.ops;
	ops.log = NULL;
	ops.fail = NULL;
	hal = g.hal;
	hal.ops = &ops;
	assert_int_equal(virq_gic_init(&gic, &hal, &g.desc, g.rds, FX_MAX_RD, 13), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_log_count(g.sim, LIBVIRQ_LOG_DEBUG), 0);
	assert_int_equal(virq_gic_init(&gic, &g.hal, &g.desc, g.rds, FX_MAX_RD, 13),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_log_count(g.sim, LIBVIRQ_LOG_DEBUG), 1);
	assert_string_equal(virq_sim_last_log(g.sim),
			    "virq_gic_init: max_rd not 1..65536 or lpi_bits not 14..16");
	fx_teardown(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_success_logs_nothing),
	    cmocka_unit_test(test_failures_say_why),
	    cmocka_unit_test(test_failure_without_log_callback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
