/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/virq.h>

static void test_every_code_has_distinct_text(void **state)
{
	(void)state;
	for (int a = 0; a < VIRQ_STATUS_COUNT; a++) {
		assert_string_not_equal(virq_strerror(-a), "unknown status");
		assert_string_not_equal(virq_status_name(-a), "VIRQ_E?");
		for (int b = 0; b < a; b++)
			assert_string_not_equal(virq_strerror(-a), virq_strerror(-b));
	}
}

static void test_names_match_enumerators(void **state)
{
	(void)state;
	assert_string_equal(virq_status_name(VIRQ_OK), "VIRQ_OK");
	assert_string_equal(virq_status_name(VIRQ_ETIMEDOUT), "VIRQ_ETIMEDOUT");
	assert_string_equal(virq_status_name(VIRQ_EUNKNOWN), "VIRQ_EUNKNOWN");
	assert_string_equal(virq_strerror(VIRQ_ESTALLED), "ITS command queue stalled");
}

static void test_unknown_codes(void **state)
{
	(void)state;
	assert_string_equal(virq_strerror(1), "unknown status");
	assert_string_equal(virq_strerror(-VIRQ_STATUS_COUNT), "unknown status");
	assert_string_equal(virq_strerror(-2147483647 - 1), "unknown status");
	assert_string_equal(virq_status_name(12345), "VIRQ_E?");
}

static void test_codes_are_distinct_and_negative(void **state)
{
	static const int codes[] = {
		VIRQ_EINVAL, VIRQ_ERANGE, VIRQ_EALIGN, VIRQ_ENOMEM, VIRQ_ETIMEDOUT, VIRQ_EBUSY,
		VIRQ_ENOTSUP, VIRQ_EHW, VIRQ_ESTALLED, VIRQ_ENOENT, VIRQ_EEXIST, VIRQ_ENOSPC,
		VIRQ_EBADDT, VIRQ_EHALVER, VIRQ_ENOHAL, VIRQ_EINHIBITED, VIRQ_EDEAD, VIRQ_EUNKNOWN,
	};

	(void)state;
	assert_int_equal(VIRQ_OK, 0);
	assert_int_equal(sizeof(codes) / sizeof(codes[0]) + 1, VIRQ_STATUS_COUNT);
	/* ABI: the codes are -1, -2, ... in declaration order, none skipped. */
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		assert_int_equal(codes[i], -(int)i - 1);
}

static void test_version_matches_header(void **state)
{
	(void)state;
	assert_int_equal(virq_version(), ((uint32_t)VIRQ_VERSION_MAJOR << 16) |
						 ((uint32_t)VIRQ_VERSION_MINOR << 8) |
						 (uint32_t)VIRQ_VERSION_PATCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_has_distinct_text),
		cmocka_unit_test(test_names_match_enumerators),
		cmocka_unit_test(test_unknown_codes),
		cmocka_unit_test(test_codes_are_distinct_and_negative),
		cmocka_unit_test(test_version_matches_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
