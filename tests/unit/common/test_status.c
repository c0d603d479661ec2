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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_has_distinct_text),
		cmocka_unit_test(test_names_match_enumerators),
		cmocka_unit_test(test_unknown_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
