/* SPDX-License-Identifier: MIT */
/* lint_fail_sites fixture: every rule broken once; the check must report 10. */
#include <libvirq/hal.h>
#include "hal/hal_priv.h"

static virq_status helper_(const char *api, const struct virq_hal *hal, uint32_t n)
{
	const char *const inner = LIBVIRQ_ENTRY_; /* 1: an entry in a static function */

	if (n == 1)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_x: n is 1"); /* 2: old macro */
	if (n == 2)
		return LIBVIRQ_FAIL_(inner, hal, LIBVIRQ_EINVAL, "n=2"); /* 3: not `api` */
	if (n == 3)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "n=%u m=%u", n); /* 4: 2 for 1 */
	if (n == 4)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "virq_x: n=4"); /* 5: a name */
	if (n == 5)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "n"); /* 6: FAILV_ without values */
	if (n == 6)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, api); /* 7: not a literal */
	if (n == 7) /* 8: a table named by a variable */
		return LIBVIRQ_PAGE_ALLOC_(api, hal, 4096, 4096, NULL, api);
	return LIBVIRQ_OK;
}

virq_status virq_fixture_entry(const struct virq_hal *hal, uint32_t n)
{
	const char *const api = LIBVIRQ_ENTRY_;

	return helper_(api, hal, n);
}

virq_status virq_fixture_caller(const struct virq_hal *hal)
{
	const char *const api = __func__; /* 9: __func__ outside LIBVIRQ_ENTRY_ */

	(void)api;
	return virq_fixture_entry(hal, 0); /* 10: calls a public function with an entry */
}
