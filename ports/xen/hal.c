/* SPDX-License-Identifier: MIT */
/*
 * libvirq's HAL on the Xen hypervisor's accessors: readl/readq/writel/writeq,
 * _xzalloc/xfree on the xenheap, NOW(), cpu_relax(), printk, and
 * clean_dcache_va_range (arm) or rdmsr_safe/wrmsr_safe, cpuid_count and
 * vcpu_kick (x86); spin_lock/spin_unlock for an ITS lock. Compiled by Xen's
 * build (ports/xen/Makefile). Every callback is an indirect-call target,
 * hence cf_check (x86 CET-IBT builds).
 *
 * MMIO addresses: with a NULL HAL context they are Xen virtual addresses;
 * with a struct virq_xen_mmio_map as the context they are physical addresses,
 * translated through the map's windows (see virq_xen.h).
 */
#include <xen/event.h>
#include <xen/init.h>
#include <xen/irq.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/xmalloc.h>
#include <asm/io.h>
#include <asm/processor.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#endif

#include <virq_xen.h>

int virq_xen_mmio_map_add(struct virq_xen_mmio_map *map, uint64_t pa, uint64_t size,
			  void __iomem *va)
{
	struct virq_xen_mmio_window *w;

	if (!map || !va || !size || pa + size < pa)
		return -EINVAL;
	if (map->nr >= ARRAY_SIZE(map->win))
		return -ENOSPC;
	w = &map->win[map->nr];
	w->pa = pa;
	w->size = size;
	w->va = va;
	map->nr++;
	return 0;
}

/* The Xen VA of @len bytes at @addr: @addr itself without a map, else the
 * window holding the whole access. NULL (logged) when no window holds it:
 * libvirq only derives addresses from the description it was given, so this
 * is an embedder's error (a frame described but not mapped). */
static volatile void __iomem *xen_mmio_va(void *ctx, uint64_t addr, unsigned int len)
{
	const struct virq_xen_mmio_map *map = ctx;
	unsigned int i;

	if (!map)
		return (volatile void __iomem *)(uintptr_t)addr;
	for (i = 0; i < map->nr; i++) {
		const struct virq_xen_mmio_window *w = &map->win[i];

		if (addr >= w->pa && w->size >= len && addr - w->pa <= w->size - len)
			return (volatile void __iomem *)w->va + (addr - w->pa);
	}
	if (printk_ratelimit())
		printk(XENLOG_ERR "libvirq: MMIO access to %#" PRIx64
				  " (%u bytes) outside every mapped window\n",
		       addr, len);
	return NULL;
}

/* An access outside the windows reads all-ones and writes nothing (what an
 * absent device answers): libvirq then fails the operation (an ID register
 * that does not match, a bounded poll that times out) instead of Xen
 * faulting on a wild address. */
static uint32_t cf_check xen_mmio_read32(void *ctx, uint64_t addr)
{
	volatile void __iomem *va = xen_mmio_va(ctx, addr, 4);

	return va ? readl(va) : ~0U;
}

static void cf_check xen_mmio_write32(void *ctx, uint64_t addr, uint32_t value)
{
	volatile void __iomem *va = xen_mmio_va(ctx, addr, 4);

	if (va)
		writel(value, va);
}

static uint64_t cf_check xen_mmio_read64(void *ctx, uint64_t addr)
{
	volatile void __iomem *va = xen_mmio_va(ctx, addr, 8);

	return va ? readq(va) : ~0ULL;
}

static void cf_check xen_mmio_write64(void *ctx, uint64_t addr, uint64_t value)
{
	volatile void __iomem *va = xen_mmio_va(ctx, addr, 8);

	if (va)
		writeq(value, va);
}

/* Xen's allocator may only run where ASSERT_ALLOC_CONTEXT() allows it (not
 * in an interrupt handler, interrupts enabled once secondary CPUs are up):
 * its heap lock is IRQ-unsafe. */
static bool xen_alloc_context_ok(void)
{
	return !in_irq() && (local_irq_is_enabled() || num_online_cpus() <= 1);
}

/* Zeroed, aligned, physically contiguous xenheap memory: _xzalloc takes
 * whole pages for large sizes and honours any power-of-two alignment. */
static virq_status cf_check xen_page_alloc(void *ctx, size_t size, size_t align,
					   struct virq_page *page)
{
	void *va;

	(void)ctx;
	if (!xen_alloc_context_ok()) {
		/* A libvirq call that allocates was made with interrupts off or
		 * from an interrupt handler (virq_xen.h): fail it, never deadlock. */
		printk(XENLOG_ERR
		       "libvirq: page_alloc(%zu) with interrupts off or in IRQ context: refused\n",
		       size);
		return LIBVIRQ_ENOMEM;
	}
	va = _xzalloc(size, align);
	if (!va)
		return LIBVIRQ_ENOMEM;
	page->va = va;
	page->pa = virt_to_maddr(va);
	page->size = size;
	return LIBVIRQ_OK;
}

static void cf_check xen_page_free(void *ctx, const struct virq_page *page)
{
	(void)ctx;
	if (!xen_alloc_context_ok()) {
		/* Leaked rather than freed under a lock Xen does not allow here. */
		printk(XENLOG_ERR
		       "libvirq: page_free(%zu) with interrupts off or in IRQ context: leaked\n",
		       page->size);
		return;
	}
	xfree(page->va);
}

void cf_check virq_xen_spin_acquire(void *lock)
{
	spin_lock(lock);
}

void cf_check virq_xen_spin_release(void *lock)
{
	spin_unlock(lock);
}

static uint64_t cf_check xen_now_ns(void *ctx)
{
	(void)ctx;
	return (uint64_t)NOW();
}

static void cf_check xen_relax(void *ctx)
{
	(void)ctx;
	cpu_relax();
}

static void cf_check xen_log(void *ctx, enum virq_log_level level, const char *msg,
			     const uint64_t *values, size_t nvalues)
{
	uint64_t v[4] = {0};
	size_t i;

	(void)ctx;
	for (i = 0; i < nvalues && i < ARRAY_SIZE(v); i++)
		v[i] = values[i];
	switch (level) {
	case LIBVIRQ_LOG_ERROR:
		printk(XENLOG_ERR "libvirq: %s [%#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64
				  "]\n",
		       msg, v[0], v[1], v[2], v[3]);
		break;
	case LIBVIRQ_LOG_WARN:
		printk(XENLOG_WARNING "libvirq: %s [%#" PRIx64 " %#" PRIx64 " %#" PRIx64
				      " %#" PRIx64 "]\n",
		       msg, v[0], v[1], v[2], v[3]);
		break;
	case LIBVIRQ_LOG_INFO:
		printk(XENLOG_INFO "libvirq: %s [%#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64
				   "]\n",
		       msg, v[0], v[1], v[2], v[3]);
		break;
	default:
		printk(XENLOG_DEBUG "libvirq: %s [%#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64
				    "]\n",
		       msg, v[0], v[1], v[2], v[3]);
		break;
	}
}

#ifdef CONFIG_ARM
static void cf_check xen_dcache_clean(void *ctx, const void *va, size_t len)
{
	(void)ctx;
	clean_dcache_va_range(va, len);
}
#endif

#ifdef CONFIG_X86
static virq_status cf_check xen_msr_read(void *ctx, uint32_t msr, uint64_t *value)
{
	int rc;

	(void)ctx;
#ifdef rdmsr_safe
	/* Xen 4.17 to 4.20: a macro that assigns its second argument. */
	rc = rdmsr_safe(msr, *value);
#else
	/* Xen 4.21 and later: int rdmsr_safe(unsigned int msr, uint64_t *val). */
	rc = rdmsr_safe(msr, value);
#endif
	return rc ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static virq_status cf_check xen_msr_write(void *ctx, uint32_t msr, uint64_t value)
{
	(void)ctx;
	return wrmsr_safe(msr, value) ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static void cf_check xen_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	(void)ctx;
	cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2], &regs[3]);
}

static void cf_check xen_kick_vcpu(void *ctx, void *vcpu_cookie)
{
	(void)ctx;
	vcpu_kick(vcpu_cookie);
}
#endif

const struct virq_hal_ops virq_xen_hal_ops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = xen_mmio_read32,
    .mmio_write32 = xen_mmio_write32,
    .mmio_read64 = xen_mmio_read64,
    .mmio_write64 = xen_mmio_write64,
    .page_alloc = xen_page_alloc,
    .page_free = xen_page_free,
    .now_ns = xen_now_ns,
    .relax = xen_relax,
    .log = xen_log,
#ifdef CONFIG_ARM
    .dcache_clean = xen_dcache_clean,
#endif
#ifdef CONFIG_X86
    .msr_read = xen_msr_read,
    .msr_write = xen_msr_write,
    .cpuid = xen_cpuid,
    .kick_vcpu = xen_kick_vcpu,
#endif
};
