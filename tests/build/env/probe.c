/* SPDX-License-Identifier: MIT */
/*
 * Compiled into the -nostdinc build only: fails unless virq_env.h really took
 * its types from LIBVIRQ_ENV_HEADER (so the check cannot pass by accident).
 */
#include <libvirq/virq.h>

#ifndef LIBVIRQ_TEST_ENV_IN_USE
#error "virq_env.h did not include the replacement header"
#endif

_Static_assert(sizeof(uint64_t) == 8 && sizeof(uint32_t) == 4, "fixed-width types");
_Static_assert(UINT64_MAX == ~(uint64_t)0, "UINT64_MAX");

int virq_env_probe_(void);
int virq_env_probe_(void)
{
	return (int)LIBVIRQ_FIELD_GET(7, 4, 0xa5u);
}
