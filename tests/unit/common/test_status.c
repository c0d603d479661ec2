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
	for (int a = 0; a < LIBVIRQ_STATUS_COUNT; a++) {
		assert_string_not_equal(virq_strerror(-a), "unknown status");
		assert_string_not_equal(virq_status_name(-a), "LIBVIRQ_E?");
		for (int b = 0; b < a; b++)
			assert_string_not_equal(virq_strerror(-a), virq_strerror(-b));
	}
}

static void test_names_match_enumerators(void **state)
{
	(void)state;
	assert_string_equal(virq_status_name(LIBVIRQ_OK), "LIBVIRQ_OK");
	assert_string_equal(virq_status_name(LIBVIRQ_ETIMEDOUT), "LIBVIRQ_ETIMEDOUT");
	assert_string_equal(virq_status_name(LIBVIRQ_EUNKNOWN), "LIBVIRQ_EUNKNOWN");
	assert_string_equal(virq_strerror(LIBVIRQ_ESTALLED), "ITS command queue stalled");
}

static void test_unknown_codes(void **state)
{
	(void)state;
	assert_string_equal(virq_strerror(1), "unknown status");
	assert_string_equal(virq_strerror(-LIBVIRQ_STATUS_COUNT), "unknown status");
	assert_string_equal(virq_strerror(-2147483647 - 1), "unknown status");
	assert_string_equal(virq_status_name(12345), "LIBVIRQ_E?");
}

static void test_codes_are_distinct_and_negative(void **state)
{
	static const int codes[] = {
	    LIBVIRQ_EINVAL,    LIBVIRQ_ERANGE,	 LIBVIRQ_EALIGN,    LIBVIRQ_ENOMEM,
	    LIBVIRQ_ETIMEDOUT, LIBVIRQ_EBUSY,	 LIBVIRQ_ENOTSUP,   LIBVIRQ_EHW,
	    LIBVIRQ_ESTALLED,  LIBVIRQ_ENOENT,	 LIBVIRQ_EEXIST,    LIBVIRQ_ENOSPC,
	    LIBVIRQ_EBADDT,    LIBVIRQ_EHALVER,	 LIBVIRQ_ENOHAL,    LIBVIRQ_EINHIBITED,
	    LIBVIRQ_EDEAD,     LIBVIRQ_EUNKNOWN, LIBVIRQ_ECANCELED,
	};

	(void)state;
	assert_int_equal(LIBVIRQ_OK, 0);
	assert_int_equal(sizeof(codes) / sizeof(codes[0]) + 1, LIBVIRQ_STATUS_COUNT);
	/* ABI: the codes are -1, -2, ... in declaration order, none skipped. */
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		assert_int_equal(codes[i], -(int)i - 1);
}

static void test_version_matches_header(void **state)
{
	(void)state;
	assert_int_equal(virq_version(), ((uint32_t)LIBVIRQ_VERSION_MAJOR << 16) |
					     ((uint32_t)LIBVIRQ_VERSION_MINOR << 8) |
					     (uint32_t)LIBVIRQ_VERSION_PATCH);
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
