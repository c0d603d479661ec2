/* SPDX-License-Identifier: MIT */
/*
 * "Errors that say why": every failed check of the GICv4 driver reports
 * once (here through the simulator's fail callback, kept as a debug log
 * line), naming the public function called, the check and its values;
 * success paths report nothing at all (hal.h @ref virq_failures).
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
		    "virq_lpi_alloc: count=0");
	EXPECT_FAIL(&f, virq_lpi_set_config(&f.g.gic, 100, 0xA0, true), LIBVIRQ_ERANGE,
		    "virq_lpi_set_config: intid=100 < 8192");
	EXPECT_FAIL(&f, virq_its_map_collection(&f.its[0], 7), LIBVIRQ_EINVAL,
		    "virq_its_map_collection: rd=7 >= nr_rd=1");
	EXPECT_FAIL(&f, virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_EBUSY,
		    "virq_gic_vm_init: vm is live (virq_gic_vm_destroy() first)");
	EXPECT_FAIL(&f, virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_EBUSY,
		    "virq_vpe_init: vpe is live (virq_vpe_destroy() first)");
	EXPECT_FAIL(&f, virq_vpe_init(&w, &vm, 0, 9999), LIBVIRQ_ENOENT,
		    "virq_vpe_init: doorbell=9999 not an allocated LPI (virq_lpi_alloc())");
	/* A check shared by several calls names the one that was called. */
	EXPECT_FAIL(&f, virq_vlpi_map(&dev, 0, &v, 100, false), LIBVIRQ_ERANGE,
		    "virq_vlpi_map: vintid=100 < 8192");
	EXPECT_FAIL(&f, virq_vlpi_map_range(&dev, 0, 2, &v, 100, false), LIBVIRQ_ERANGE,
		    "virq_vlpi_map_range: vintid=100 < 8192");
	assert_int_equal(virq_vlpi_map(&dev, 1, &v, 8300, false), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_vlpi_remap(&dev, 1, &v, 100), LIBVIRQ_ERANGE,
		    "virq_vlpi_remap: vintid=100 < 8192");
	EXPECT_FAIL(&f, virq_vlpi_move(&dev, 1, &w), LIBVIRQ_EINVAL,
		    "virq_vlpi_move: vpe not initialised (state=0x0)");
	assert_int_equal(virq_vlpi_unmap(&dev, 1), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_vlpi_map(&dev, 8, &v, 8192, false), LIBVIRQ_ERANGE,
		    "virq_vlpi_map: event=8 >= nr_events=8");
	EXPECT_FAIL(&f, virq_vlpi_map_config(&dev, 8, &v, 8192, false, 0x80, true), LIBVIRQ_ERANGE,
		    "virq_vlpi_map_config: event=8 >= nr_events=8");
	EXPECT_FAIL(&f, virq_vlpi_map_config(&dev, 0, &v, 100, false, 0x80, true), LIBVIRQ_ERANGE,
		    "virq_vlpi_map_config: vintid=100 < 8192");
	EXPECT_FAIL(&f, virq_vlpi_unmap_range(&dev, 0, 2), LIBVIRQ_ENOENT,
		    "virq_vlpi_unmap_range: event=0 not mapped");
	EXPECT_FAIL(
	    &f, virq_vpe_make_resident(&v, 1), LIBVIRQ_EINVAL,
	    "virq_vpe_make_resident: rd=1 is not the vPE's target rd=0 (virq_vpe_move() first)");
	EXPECT_FAIL(&f, virq_vpe_make_nonresident(&v, false, NULL), LIBVIRQ_EINVAL,
		    "virq_vpe_make_nonresident: vPE 0 not resident");
	assert_int_equal(virq_its_map_lpi(&dev, 5, lpi, 0), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_lpi_free(&f.g.gic, lpi, 1), LIBVIRQ_EBUSY,
		    "virq_lpi_free: INTID 8193 still mapped by an ITS event or a vPE's doorbell");
	EXPECT_FAIL(&f, virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_EBUSY,
		    "virq_lpi_free: INTID 8192 still mapped by an ITS event or a vPE's doorbell");
	EXPECT_FAIL(&f, virq_its_device_unmap(&dev), LIBVIRQ_EBUSY,
		    "virq_its_device_unmap: nr_mapped=1 events still mapped");
	EXPECT_FAIL(&f, virq_gic_vm_destroy(&vm), LIBVIRQ_EBUSY,
		    "virq_gic_vm_destroy: nr_vpes=1 vPEs still exist");
	/* The queue: an ITS that consumes nothing times out, the message names it. */
	virq_sim_its_set_dead(virq_sim_its_state_queue(f.sm[0]), true);
	{
		unsigned long n0 = virq_sim_fail_count(f.g.sim);
		struct virq_failure r;

		assert_int_equal(virq_its_int(&dev, 5), LIBVIRQ_ETIMEDOUT);
		assert_int_equal(virq_sim_fail_count(f.g.sim), n0 + 1); /* one report */
		assert_true(virq_sim_last_fail(f.g.sim, &r));
		assert_string_equal(r.function, "virq_its_int");
		assert_int_equal(r.status, LIBVIRQ_ETIMEDOUT);
		assert_string_equal(r.message, "virq_its_int: INT/CLEAR/INV (opcode=0x3) + "
					       "SYNC/VSYNC of event=5 not seen to run");
	}
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
	assert_string_equal(virq_sim_last_log(g.sim), "virq_gic_init: lpi_bits=13 < 14");
	fx_teardown(&g);
}

/*
 * The call the caller made is the one named, also when it runs another
 * public function's code (virq_vpe_load() makes the vPE resident,
 * virq_vlpi_unmap() unmaps the event); and a NULL, destroyed or unmapped
 * object is reported through the HAL it kept or another object's. Before,
 * the first two named virq_vpe_make_resident and virq_its_unmap_event, and
 * the others reported nothing.
 */
static void test_named_and_never_silent(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm = {0}, gone_vm = {0};
	struct virq_vpe v = {0}, gone_vpe = {0};
	struct virq_its_device dev = {0}, gone_dev = {0};
	uint32_t db;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 3, 8), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_vpe_load(&v, 1), LIBVIRQ_EINVAL,
		    "virq_vpe_load: rd=1 is not the vPE's target rd=0 (virq_vpe_move() first)");
	EXPECT_FAIL(&f, virq_vlpi_unmap(&dev, 3), LIBVIRQ_ENOENT,
		    "virq_vlpi_unmap: event=3 not mapped");
	/* a NULL vPE: reported through the device's HAL */
	EXPECT_FAIL(&f, virq_vlpi_map(&dev, 0, NULL, 8192, false), LIBVIRQ_EINVAL,
		    "virq_vlpi_map: vpe=NULL");
	/* destroyed objects keep their HAL */
	assert_int_equal(virq_gic_vm_init(&gone_vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&gone_vpe, &gone_vm, 0, LIBVIRQ_ITS_NO_DOORBELL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &gone_dev, 4, 8), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&gone_dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&gone_vpe), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&gone_vm), LIBVIRQ_OK);
	EXPECT_FAIL(&f, virq_its_map_lpi(&gone_dev, 0, db, 0), LIBVIRQ_EINVAL,
		    "virq_its_map_lpi: dev destroyed");
	EXPECT_FAIL(&f, virq_vpe_make_resident(&gone_vpe, 0), LIBVIRQ_EINVAL,
		    "virq_vpe_make_resident: vpe destroyed");
	EXPECT_FAIL(&f, virq_vpe_destroy(&gone_vpe), LIBVIRQ_EINVAL,
		    "virq_vpe_destroy: vpe destroyed");
	EXPECT_FAIL(&f, virq_gic_vm_destroy(&gone_vm), LIBVIRQ_EINVAL,
		    "virq_gic_vm_destroy: vm destroyed");
	/* a never-initialised device with a live vPE: through the vPE's HAL */
	{
		struct virq_its_device never = {0};

		EXPECT_FAIL(&f, virq_vlpi_map(&never, 0, &v, 8192, false), LIBVIRQ_EINVAL,
			    "virq_vlpi_map: dev not initialised (state=0x0)");
	}
	/* no object with a HAL at all: the status only (hal.h, virq_failures) */
	{
		unsigned long n0 = virq_sim_fail_count(f.g.sim);

		assert_int_equal(virq_vpe_make_resident(NULL, 0), LIBVIRQ_EINVAL);
		assert_int_equal(virq_sim_fail_count(f.g.sim), n0);
	}
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_success_logs_nothing),
	    cmocka_unit_test(test_failures_say_why),
	    cmocka_unit_test(test_failure_without_log_callback),
	    cmocka_unit_test(test_named_and_never_silent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
