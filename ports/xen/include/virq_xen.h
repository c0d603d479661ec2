/* SPDX-License-Identifier: MIT */
/*
 * libvirq's HAL on the Xen hypervisor's own accessors (ports/xen/hal.c).
 *
 * page_alloc takes xenheap memory (_xzalloc, directly mapped, physically
 * contiguous; pa = virt_to_maddr). Xen's allocator may run only where
 * ASSERT_ALLOC_CONTEXT() allows it: not in an interrupt handler, and with
 * interrupts enabled once the secondary CPUs are up. The libvirq calls that
 * allocate (the *_init calls, virq_its_device_map(), virq_its_map_collection()
 * and the other calls that may need a level-2 table page, GICv4.0 doorbell
 * masking's proxy device) must therefore run with interrupts on; page_alloc
 * refuses (LIBVIRQ_ENOMEM, logged) when called otherwise, and page_free logs
 * and leaks rather than free there.
 *
 * MMIO addresses: with a NULL context (struct virq_hal ctx member) they are
 * Xen virtual addresses of ioremap_nocache() mappings. With a
 * struct virq_xen_mmio_map as the context they are physical addresses, each
 * translated through the window that holds it; describe the GIC with
 * physical addresses then. That is what a GICv4 embedder needs: with
 * GITS_TYPER.PTA = 1 libvirq puts the redistributors' addresses into ITS
 * commands (MAPC, VMAPP, VMOVP RDbase), which the ITS takes as physical
 * addresses (Arm IHI 0069H §12.19 GITS_TYPER.PTA, §5.3). An access outside
 * every window is logged, reads all-ones and writes nothing. kick_vcpu's
 * cookie is a struct vcpu *.
 *
 * An ITS lock (struct virq_its_cfg lock member) on a Xen spinlock:
 * { virq_xen_spin_acquire, virq_xen_spin_release, &lock }. libvirq may
 * allocate while it holds the lock, so it is an IRQ-unsafe lock: every
 * libvirq call that uses that ITS (gicv4/its.h, the command-sending calls of
 * gicv4/vpe.h) must run with interrupts enabled and never from an interrupt
 * handler. Xen's lock checker (CONFIG_DEBUG_LOCKS) catches a call that
 * breaks this.
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
#define LIBVIRQ_XEN_HAL_NEEDS                                                                      \
	(LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_CPUID | LIBVIRQ_HAL_NEED_KICK)
#else
#define LIBVIRQ_XEN_HAL_NEEDS LIBVIRQ_HAL_NEED_DCACHE
#endif

/* Most windows one map holds: a distributor, 16 redistributor regions and
 * 16 ITSes (the most a struct virq_gic_desc describes), and one spare. */
#define LIBVIRQ_XEN_MMIO_WINDOWS 34

/* One mapped MMIO range: physical [pa, pa + size) is at Xen VA va. */
struct virq_xen_mmio_window {
	uint64_t pa;
	uint64_t size;
	void __iomem *va;
};

/* Physical-to-virtual MMIO windows: the HAL context that makes libvirq's
 * MMIO addresses physical. Zero-initialise, add every window, then hand
 * { &virq_xen_hal_ops, &map } to libvirq; the map must outlive every
 * libvirq object using that HAL and is not changed afterwards (lookups take
 * no lock; a lookup walks the windows in the order they were added). */
struct virq_xen_mmio_map {
	unsigned int nr;
	struct virq_xen_mmio_window win[LIBVIRQ_XEN_MMIO_WINDOWS];
};

/* Adds a window (e.g. what ioremap_nocache(pa, size) returned as va).
 * Returns 0, -EINVAL (NULL map or va, empty or wrapping range) or -ENOSPC
 * (map full). Call before the map is in use; not thread-safe. */
int virq_xen_mmio_map_add(struct virq_xen_mmio_map *map, uint64_t pa, uint64_t size,
			  void __iomem *va);

/* The two halves of an ITS lock on a Xen spinlock_t (arg: the spinlock_t *):
 * spin_lock() and spin_unlock(). See above for the interrupt rule. */
void cf_check virq_xen_spin_acquire(void *lock);
void cf_check virq_xen_spin_release(void *lock);

#endif /* LIBVIRQ_PORT_XEN_H */
