/* SPDX-License-Identifier: MIT */
#include <libvirq/hal.h>
#include "hal_priv.h"

virq_status virq_hal_validate(const struct virq_hal *hal, uint32_t needs)
{
	const struct virq_hal_ops *o;

	if (!hal || !hal->ops)
		return LIBVIRQ_EINVAL;
	o = hal->ops;
	if (o->version != LIBVIRQ_HAL_VERSION || o->size < LIBVIRQ_HAL_OPS_SIZE_V1)
		/* the ops table is not ours to read beyond version and size */
		return LIBVIRQ_EHALVER;
	if (!o->mmio_read32 || !o->mmio_write32 || !o->mmio_read64 || !o->mmio_write64 ||
	    !o->page_alloc || !o->page_free || !o->now_ns)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				    "virq_hal_validate: a required callback is NULL");
	if ((needs & LIBVIRQ_HAL_NEED_MSR) && (!o->msr_read || !o->msr_write))
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				    "virq_hal_validate: msr_read/msr_write missing");
	if ((needs & LIBVIRQ_HAL_NEED_CPUID) && !o->cpuid)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL, "virq_hal_validate: cpuid missing");
	if ((needs & LIBVIRQ_HAL_NEED_KICK) && !o->kick_vcpu)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL, "virq_hal_validate: kick_vcpu missing");
	if ((needs & LIBVIRQ_HAL_NEED_DCACHE) && !o->dcache_clean)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL, "virq_hal_validate: dcache_clean missing");
	return LIBVIRQ_OK;
}

virq_status virq_fail_(const struct virq_hal *hal, virq_status st, const char *check,
		       const uint64_t *vals, size_t n)
{
	uint64_t buf[5];
	size_t i;

	if (!hal || !hal->ops || !hal->ops->log)
		return st;
	/* The status first, as a signed value, then the caller's values. */
	buf[0] = (uint64_t)(int64_t)st;
	for (i = 0; i < n && i + 1 < sizeof(buf) / sizeof(buf[0]); i++)
		buf[i + 1] = vals[i];
	(hal->ops->log)(hal->ctx, LIBVIRQ_LOG_DEBUG, check, buf, i + 1);
	return st;
}
