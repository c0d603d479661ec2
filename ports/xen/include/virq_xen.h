/* SPDX-License-Identifier: MIT */
/*
 * libvirq's HAL on the Xen hypervisor's own accessors (ports/xen/hal.c).
 *
 * MMIO addresses given to libvirq (struct virq_gic_desc, ...) are Xen virtual
 * addresses of ioremap_nocache() mappings; page_alloc takes xenheap memory
 * (_xzalloc, directly mapped, physically contiguous; pa = virt_to_maddr).
 * The context pointer is unused (pass NULL) except by kick_vcpu, whose cookie
 * is a struct vcpu *.
 */
#ifndef LIBVIRQ_PORT_XEN_H
#define LIBVIRQ_PORT_XEN_H

#include <libvirq/virq.h>

/* The callbacks: MMIO, allocator, NOW(), cpu_relax(), log (printk), and
 * per architecture dcache_clean (arm) or msr_read/msr_write/cpuid/kick_vcpu
 * (x86). */
extern const struct virq_hal_ops virq_xen_hal_ops;

/* What virq_hal_validate() must find in virq_xen_hal_ops on this architecture. */
#ifdef CONFIG_X86
#define VIRQ_XEN_HAL_NEEDS (LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_CPUID | LIBVIRQ_HAL_NEED_KICK)
#else
#define VIRQ_XEN_HAL_NEEDS LIBVIRQ_HAL_NEED_DCACHE
#endif

#endif /* LIBVIRQ_PORT_XEN_H */
