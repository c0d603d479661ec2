/* SPDX-License-Identifier: MIT */
/*
 * libvirq's HAL on the Linux kernel's accessors (ports/linux/hal.c).
 *
 * MMIO addresses given to libvirq are kernel virtual addresses of ioremap()
 * mappings; page_alloc takes zeroed, physically contiguous pages from the
 * page allocator (pa = page_to_phys). The context pointer is unused (NULL).
 * kick_vcpu is not provided: a KVM-style embedder adds one (for example
 * around kvm_vcpu_kick()) for AVIC posting.
 */
#ifndef LIBVIRQ_PORT_LINUX_H
#define LIBVIRQ_PORT_LINUX_H

#include <libvirq/virq.h>

extern const struct virq_hal_ops virq_linux_hal_ops;

/* What virq_hal_validate() must find in virq_linux_hal_ops here. */
#ifdef CONFIG_X86
#define LIBVIRQ_LINUX_HAL_NEEDS                                                                    \
	(LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_CPUID | LIBVIRQ_HAL_NEED_DCACHE)
#else
#define LIBVIRQ_LINUX_HAL_NEEDS LIBVIRQ_HAL_NEED_CORE
#endif

#endif /* LIBVIRQ_PORT_LINUX_H */
