/* SPDX-License-Identifier: MIT */
/* Fixture of ctest misra_fixture: breaks accepted rules once each (must fail). */
#include <stdint.h>

/* Rule 20.7: a macro parameter used unparenthesised in an expression. */
#define TWICE_(x) (x * 2)

int32_t misra_fixture_twice(int32_t v);

int32_t misra_fixture_twice(int32_t v)
{
	return TWICE_(v + 1);
}
