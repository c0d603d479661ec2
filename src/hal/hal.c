/* SPDX-License-Identifier: MIT */
#include <libvirq/hal.h>

virq_status virq_hal_validate(const struct virq_hal *hal, uint32_t needs)
{
	const struct virq_hal_ops *o;

	if (!hal || !hal->ops)
		return VIRQ_EINVAL;
	o = hal->ops;
	if (o->version != VIRQ_HAL_VERSION || o->size < sizeof(struct virq_hal_ops))
		return VIRQ_EHALVER;
	if (!o->mmio_read32 || !o->mmio_write32 || !o->mmio_read64 || !o->mmio_write64 ||
	    !o->page_alloc || !o->page_free || !o->now_ns)
		return VIRQ_ENOHAL;
	if ((needs & VIRQ_HAL_NEED_MSR) && (!o->msr_read || !o->msr_write))
		return VIRQ_ENOHAL;
	if ((needs & VIRQ_HAL_NEED_CPUID) && !o->cpuid)
		return VIRQ_ENOHAL;
	if ((needs & VIRQ_HAL_NEED_KICK) && !o->kick_vcpu)
		return VIRQ_ENOHAL;
	if ((needs & VIRQ_HAL_NEED_DCACHE) && !o->dcache_clean)
		return VIRQ_ENOHAL;
	return VIRQ_OK;
}
