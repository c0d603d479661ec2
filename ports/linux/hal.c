// SPDX-License-Identifier: MIT
/*
 * libvirq's HAL on the Linux kernel's accessors: readl/readq/writel/writeq,
 * the page allocator, ktime_get_ns(), cpu_relax(), printk, and on x86
 * rdmsrl_safe/wrmsrl_safe, cpuid_count and clflush_cache_range.
 */
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/timekeeping.h>
#include <asm/processor.h>
#ifdef CONFIG_X86
#include <asm/cacheflush.h>
#include <asm/msr.h>
#endif

#include <virq_linux.h>

static uint32_t linux_mmio_read32(void *ctx, uint64_t addr)
{
	return readl((const volatile void __iomem *)(uintptr_t)addr);
}

static void linux_mmio_write32(void *ctx, uint64_t addr, uint32_t value)
{
	writel(value, (volatile void __iomem *)(uintptr_t)addr);
}

static uint64_t linux_mmio_read64(void *ctx, uint64_t addr)
{
	return readq((const volatile void __iomem *)(uintptr_t)addr);
}

static void linux_mmio_write64(void *ctx, uint64_t addr, uint64_t value)
{
	writeq(value, (volatile void __iomem *)(uintptr_t)addr);
}

/*
 * Zeroed, physically contiguous pages aligned to @align: a buddy block of
 * the order of max(size, align) is naturally aligned; the pages beyond
 * @size are given back at once, so page_free is free_pages_exact(va, size).
 */
static virq_status linux_page_alloc(void *ctx, size_t size, size_t align, struct virq_page *pg)
{
	unsigned int order = get_order(max(size, align));
	unsigned long keep = PAGE_ALIGN(size) >> PAGE_SHIFT, i;
	struct page *page;

	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);
	if (!page)
		return LIBVIRQ_ENOMEM;
	split_page(page, order);
	for (i = keep; i < (1UL << order); i++)
		__free_page(page + i);
	pg->va = page_address(page);
	pg->pa = page_to_phys(page);
	pg->size = size;
	return LIBVIRQ_OK;
}

static void linux_page_free(void *ctx, const struct virq_page *pg)
{
	free_pages_exact(pg->va, pg->size);
}

static uint64_t linux_now_ns(void *ctx)
{
	return ktime_get_ns();
}

static void linux_relax(void *ctx)
{
	cpu_relax();
}

static void linux_log(void *ctx, enum virq_log_level level, const char *msg, const uint64_t *values,
		      size_t nvalues)
{
	uint64_t v[4] = {0};
	size_t i;

	for (i = 0; i < nvalues && i < ARRAY_SIZE(v); i++)
		v[i] = values[i];
	switch (level) {
	case LIBVIRQ_LOG_ERROR:
		pr_err("libvirq: %s [%#llx %#llx %#llx %#llx]\n", msg, v[0], v[1], v[2], v[3]);
		break;
	case LIBVIRQ_LOG_WARN:
		pr_warn("libvirq: %s [%#llx %#llx %#llx %#llx]\n", msg, v[0], v[1], v[2], v[3]);
		break;
	case LIBVIRQ_LOG_INFO:
		pr_info("libvirq: %s [%#llx %#llx %#llx %#llx]\n", msg, v[0], v[1], v[2], v[3]);
		break;
	default:
		pr_debug("libvirq: %s [%#llx %#llx %#llx %#llx]\n", msg, v[0], v[1], v[2], v[3]);
		break;
	}
}

#ifdef CONFIG_X86
static virq_status linux_msr_read(void *ctx, uint32_t msr, uint64_t *value)
{
	return rdmsrl_safe(msr, value) ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static virq_status linux_msr_write(void *ctx, uint32_t msr, uint64_t value)
{
	return wrmsrl_safe(msr, value) ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static void linux_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2], &regs[3]);
}

/* Only a non-coherent device needs it; x86's arch helper writes back the lines. */
static void linux_dcache_clean(void *ctx, const void *va, size_t len)
{
	clflush_cache_range((void *)va, len);
}
#endif

const struct virq_hal_ops virq_linux_hal_ops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = linux_mmio_read32,
    .mmio_write32 = linux_mmio_write32,
    .mmio_read64 = linux_mmio_read64,
    .mmio_write64 = linux_mmio_write64,
    .page_alloc = linux_page_alloc,
    .page_free = linux_page_free,
    .now_ns = linux_now_ns,
    .relax = linux_relax,
    .log = linux_log,
#ifdef CONFIG_X86
    .msr_read = linux_msr_read,
    .msr_write = linux_msr_write,
    .cpuid = linux_cpuid,
    .dcache_clean = linux_dcache_clean,
#endif
};
