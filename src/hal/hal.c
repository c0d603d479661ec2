/* SPDX-License-Identifier: MIT */
#include <libvirq/hal.h>

virq_status virq_hal_validate(const struct virq_hal *hal, uint32_t needs)
{
	const struct virq_hal_ops *o;

	if (!hal || !hal->ops)
		return LIBVIRQ_EINVAL;
	o = hal->ops;
	if (o->version != LIBVIRQ_HAL_VERSION || o->size < sizeof(struct virq_hal_ops))
		return LIBVIRQ_EHALVER;
	if (!o->mmio_read32 || !o->mmio_write32 || !o->mmio_read64 || !o->mmio_write64 ||
	    !o->page_alloc || !o->page_free || !o->now_ns)
		return LIBVIRQ_ENOHAL;
	if ((needs & LIBVIRQ_HAL_NEED_MSR) && (!o->msr_read || !o->msr_write))
		return LIBVIRQ_ENOHAL;
	if ((needs & LIBVIRQ_HAL_NEED_CPUID) && !o->cpuid)
		return LIBVIRQ_ENOHAL;
	if ((needs & LIBVIRQ_HAL_NEED_KICK) && !o->kick_vcpu)
		return LIBVIRQ_ENOHAL;
	if ((needs & LIBVIRQ_HAL_NEED_DCACHE) && !o->dcache_clean)
		return LIBVIRQ_ENOHAL;
	return LIBVIRQ_OK;
}
