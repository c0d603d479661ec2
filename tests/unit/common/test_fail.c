/* SPDX-License-Identifier: MIT */
/*
 * Failure reports (hal.h @ref virq_failures, src/hal/hal_priv.h): the
 * message formatted from the entry's name and the check's template, the
 * structured record through the fail callback, the log line without it,
 * nothing without a HAL, the bound of the buffer, and the compact form
 * without check texts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/sim/hal.h>
#include "hal/hal_priv.h"

/* Stand-ins for public functions: each names itself once, as the library's do. */
static virq_status entry_plain_(const struct virq_hal *hal)
{
	const char *const api = LIBVIRQ_ENTRY_;

	return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vpe=NULL");
}

/* A shared helper reports under the name it is given. */
static virq_status helper_(const char *api, const struct virq_hal *hal, uint32_t count,
			   uint32_t room)
{
	if (count > room)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "count=%u > nr_events-first=%u",
				      count, room);
	return LIBVIRQ_OK;
}

static virq_status entry_range_(const struct virq_hal *hal, uint32_t count)
{
	const char *const api = LIBVIRQ_ENTRY_;

	return helper_(api, hal, count, 4096);
}

static virq_status entry_conv_(const struct virq_hal *hal)
{
	const char *const api = LIBVIRQ_ENTRY_;

	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EHW, "a=%d b=%x c=%u d=%u %% e=%q", (uint64_t)-5,
			      0xbeefu, UINT64_MAX, 0);
}

static virq_status entry_missing_(const struct virq_hal *hal)
{
	const char *const api = LIBVIRQ_ENTRY_;

	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "x=%u y=%u", 1);
}

static struct virq_sim *sim_;
static struct virq_hal hal_;

static int setup(void **state)
{
	(void)state;
	sim_ = virq_sim_new();
	hal_ = virq_sim_hal(sim_);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	virq_sim_free(sim_);
	return 0;
}

static void test_record_names_entry_and_check(void **state)
{
	struct virq_failure f;

	(void)state;
	assert_false(virq_sim_last_fail(sim_, &f));
	assert_int_equal(entry_range_(&hal_, 4097), LIBVIRQ_ERANGE);
	assert_int_equal(virq_sim_fail_count(sim_), 1);
	assert_true(virq_sim_last_fail(sim_, &f));
	assert_int_equal(f.status, LIBVIRQ_ERANGE);
	assert_string_equal(f.function, "entry_range_");
	assert_string_equal(f.check, "count=%u > nr_events-first=%u");
	assert_string_equal(f.message, "entry_range_: count=4097 > nr_events-first=4096");
	assert_int_equal(f.nvalues, 2);
	assert_int_equal(f.values[0], 4097);
	assert_int_equal(f.values[1], 4096);
	assert_true(f.line > 0);
	/* also kept as the debug log line it would be without the callback */
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_DEBUG), 1);
	assert_string_equal(virq_sim_last_log(sim_), f.message);
	/* success reports nothing */
	assert_int_equal(entry_range_(&hal_, 4096), LIBVIRQ_OK);
	assert_int_equal(virq_sim_fail_count(sim_), 1);
}

static void test_conversions(void **state)
{
	struct virq_failure f;

	(void)state;
	assert_int_equal(entry_plain_(&hal_), LIBVIRQ_EINVAL);
	assert_true(virq_sim_last_fail(sim_, &f));
	assert_string_equal(f.message, "entry_plain_: vpe=NULL");
	assert_int_equal(f.nvalues, 0);
	assert_int_equal(entry_conv_(&hal_), LIBVIRQ_EHW);
	assert_true(virq_sim_last_fail(sim_, &f));
	assert_string_equal(f.message,
			    "entry_conv_: a=-5 b=0xbeef c=18446744073709551615 d=0 %% e=%q");
	/* a placeholder without a value */
	assert_int_equal(entry_missing_(&hal_), LIBVIRQ_EINVAL);
	assert_true(virq_sim_last_fail(sim_, &f));
	assert_string_equal(f.message, "entry_missing_: x=1 y=?");
}

static void log_(void *ctx, enum virq_log_level lvl, const char *msg, const uint64_t *v, size_t n)
{
	static char last[LIBVIRQ_FAIL_MSG_SIZE];

	(void)ctx;
	check_expected(lvl);
	check_expected(n);
	check_expected(v[0]);
	check_expected(v[1]);
	strcpy(last, msg);
	check_expected(last);
}

/* Without the fail callback: one debug line, the status then the values. */
static void test_log_channel(void **state)
{
	struct virq_hal_ops o = *virq_sim_hal_ops();
	struct virq_hal h = {&o, NULL};

	(void)state;
	o.fail = NULL;
	o.log = log_;
	expect_value(log_, lvl, LIBVIRQ_LOG_DEBUG);
	expect_value(log_, n, 3);
	expect_value(log_, v[0], (uint64_t)(int64_t)LIBVIRQ_ERANGE);
	expect_value(log_, v[1], 5000);
	expect_string(log_, last, "entry_range_: count=5000 > nr_events-first=4096");
	assert_int_equal(entry_range_(&h, 5000), LIBVIRQ_ERANGE);
	/* an ops table compiled before the fail member: its size does not cover it */
	o.fail = (void (*)(void *, const struct virq_failure *))1;
	o.size = (uint32_t)offsetof(struct virq_hal_ops, fail);
	expect_value(log_, lvl, LIBVIRQ_LOG_DEBUG);
	expect_value(log_, n, 3);
	expect_value(log_, v[0], (uint64_t)(int64_t)LIBVIRQ_ERANGE);
	expect_value(log_, v[1], 4098);
	expect_string(log_, last, "entry_range_: count=4098 > nr_events-first=4096");
	assert_int_equal(entry_range_(&h, 4098), LIBVIRQ_ERANGE);
}

/* Nothing to report through: the status all the same. */
static void test_no_hal(void **state)
{
	struct virq_hal_ops o = *virq_sim_hal_ops();
	struct virq_hal h = {&o, sim_};

	(void)state;
	assert_int_equal(entry_plain_(NULL), LIBVIRQ_EINVAL);
	o.fail = NULL;
	o.log = NULL;
	assert_int_equal(entry_range_(&h, 5000), LIBVIRQ_ERANGE);
	assert_int_equal(virq_sim_fail_count(sim_), 0);
	assert_null(virq_sim_last_log(sim_));
}

static virq_status entry_long_(const struct virq_hal *hal)
{
	const char *const api = LIBVIRQ_ENTRY_;

	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
			      "0123456789012345678901234567890123456789012345678901234567890123456"
			      "7890123456789012345678901234567890123456789012345678901234567890123"
			      "4567890123456789012345678901234567890123456789 v=%u",
			      7);
}

/* A message longer than the buffer ends in "..." at exactly its bound. */
static void test_bounded(void **state)
{
	struct virq_failure f;

	(void)state;
	assert_int_equal(entry_long_(&hal_), LIBVIRQ_EINVAL);
	assert_true(virq_sim_last_fail(sim_, &f));
	assert_int_equal(strlen(f.message), LIBVIRQ_FAIL_MSG_SIZE - 1);
	assert_memory_equal(f.message, "entry_long_: 0123", 17);
	assert_string_equal(f.message + LIBVIRQ_FAIL_MSG_SIZE - 4, "...");
}

/* Built without check texts (LIBVIRQ_FAIL_TEXT 0, as for this function
 * here): the function, the line and the values identify the check. */
#undef LIBVIRQ_FAIL_CHECK_
#define LIBVIRQ_FAIL_CHECK_(check) ((const char *)0)
static virq_status entry_compact_(const struct virq_hal *hal, uint32_t *line)
{
	const char *const api = LIBVIRQ_ENTRY_;

	*line = __LINE__ + 1;
	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "count=%u > room=%u", 4097, 4096);
}

static void test_compact(void **state)
{
	struct virq_failure f;
	char want[64];
	uint32_t line;

	(void)state;
	assert_int_equal(entry_compact_(&hal_, &line), LIBVIRQ_ERANGE);
	assert_true(virq_sim_last_fail(sim_, &f));
	assert_null(f.check);
	assert_int_equal(f.line, line);
	snprintf(want, sizeof(want), "entry_compact_: line %u 0x1001 0x1000", line);
	assert_string_equal(f.message, want);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_record_names_entry_and_check),
	    T(test_conversions),
	    T(test_log_channel),
	    T(test_no_hal),
	    T(test_bounded),
	    T(test_compact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
