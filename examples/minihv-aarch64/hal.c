/* SPDX-License-Identifier: MIT */
/*
 * libvirq HAL for minihv on QEMU virt: identity-mapped MMIO (the device-tree
 * addresses are used as they are), a page allocator over minihv's own RAM
 * (PA = VA) that any CPU may call (a bakery lock: libvirq allocates the
 * doorbell proxy device on whichever CPU first moves a vPE), cache clean by
 * VA to PoC, the CNTPCT clock and the UART log. Every callback may run on any
 * CPU.
 */
#include "minihv_hal.h"

#include "minihv.h"

#include <libvirq/hal.h>

/* ---- page allocator: first fit over 4 KiB pages, one bit per page ---- */
#define PAGE 4096u
#define MAX_PAGES 32768u /* 128 MiB */

static struct {
	uint64_t base;
	uint32_t pages;
	uint32_t used;
	uint64_t bitmap[MAX_PAGES / 64];
} pool_;

void minihv_pool_init(uint64_t base, uint64_t size)
{
	pool_.base = base;
	size /= PAGE;
	pool_.pages = size > MAX_PAGES ? MAX_PAGES : (uint32_t)size;
	pool_.used = 0;
}

uint32_t minihv_pool_used_pages(void)
{
	return pool_.used;
}

static bool page_busy_(uint32_t i)
{
	return pool_.bitmap[i / 64] >> (i % 64) & 1u;
}

static void page_mark_(uint32_t i, bool busy)
{
	if (busy)
		pool_.bitmap[i / 64] |= 1ull << (i % 64);
	else
		pool_.bitmap[i / 64] &= ~(1ull << (i % 64));
}

static struct bakery pool_lock_;

static virq_status page_alloc_locked_(size_t size, size_t align, struct virq_page *pg)
{
	uint32_t n = (uint32_t)((size + PAGE - 1) / PAGE);
	uint64_t a = align > PAGE ? align : PAGE;
	uint32_t step = (uint32_t)(a / PAGE);
	/* First page whose address (not index) is aligned: any pool base, any alignment. */
	uint64_t first = (((pool_.base + a - 1) & ~(a - 1)) - pool_.base) / PAGE;

	if (!n)
		n = 1;
	if (align & (align - 1) || a / PAGE > pool_.pages)
		return LIBVIRQ_ENOMEM;
	for (uint32_t i = (uint32_t)first; i < pool_.pages && n <= pool_.pages - i; i += step) {
		uint32_t j = 0;

		while (j < n && !page_busy_(i + j))
			j++;
		if (j < n)
			continue;
		for (j = 0; j < n; j++)
			page_mark_(i + j, true);
		pool_.used += n;
		pg->pa = pool_.base + (uint64_t)i * PAGE;
		pg->va = (void *)(uintptr_t)pg->pa;
		pg->size = size;
		for (uint64_t k = 0; k < (uint64_t)n * PAGE; k += 8)
			*(volatile uint64_t *)(uintptr_t)(pg->pa + k) = 0;
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_ENOMEM;
}

static virq_status page_alloc_(void *ctx, size_t size, size_t align, struct virq_page *pg)
{
	virq_status st;

	(void)ctx;
	bakery_lock(&pool_lock_);
	st = page_alloc_locked_(size, align, pg);
	bakery_unlock(&pool_lock_);
	return st;
}

static void page_free_(void *ctx, const struct virq_page *pg)
{
	uint32_t first = (uint32_t)((pg->pa - pool_.base) / PAGE);
	uint32_t n = (uint32_t)((pg->size + PAGE - 1) / PAGE);

	(void)ctx;
	if (!n)
		n = 1;
	bakery_lock(&pool_lock_);
	for (uint32_t j = 0; j < n; j++)
		page_mark_(first + j, false);
	pool_.used -= n;
	bakery_unlock(&pool_lock_);
}

/* ---- MMIO ---- */
static uint32_t rd32_(void *ctx, uint64_t a)
{
	(void)ctx;
	return *(volatile uint32_t *)(uintptr_t)a;
}

static void wr32_(void *ctx, uint64_t a, uint32_t v)
{
	(void)ctx;
	*(volatile uint32_t *)(uintptr_t)a = v;
}

static uint64_t rd64_(void *ctx, uint64_t a)
{
	(void)ctx;
	return *(volatile uint64_t *)(uintptr_t)a;
}

static void wr64_(void *ctx, uint64_t a, uint64_t v)
{
	(void)ctx;
	*(volatile uint64_t *)(uintptr_t)a = v;
}

/* ---- cache, barriers, time, log ---- */
static void dcache_clean_(void *ctx, const void *va, size_t len)
{
	uint64_t line = 4u << ((read_sysreg(CTR_EL0) >> 16) & 0xf);
	uint64_t a = (uint64_t)(uintptr_t)va & ~(line - 1), end = (uint64_t)(uintptr_t)va + len;

	(void)ctx;
	for (; a < end; a += line)
		__asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
	dsb(sy);
}

static void barrier_(void *ctx, enum virq_barrier kind)
{
	(void)ctx;
	if (kind == LIBVIRQ_BARRIER_DMA_WMB)
		dsb(st);
	else
		dsb(sy);
}

static uint64_t now_ns_(void *ctx)
{
	uint64_t t = cntpct(), f = read_sysreg(CNTFRQ_EL0);

	(void)ctx;
	return (t / f) * 1000000000ull + (t % f) * 1000000000ull / f;
}

static void relax_(void *ctx)
{
	(void)ctx;
	__asm__ volatile("yield");
}

static int log_level_ = LIBVIRQ_LOG_WARN;

void minihv_set_log_level(int level)
{
	log_level_ = level;
}

static void log_(void *ctx, enum virq_log_level lvl, const char *msg, const uint64_t *v, size_t n)
{
	static const char *const names[] = {"error", "warn", "info", "debug"};

	(void)ctx;
	if ((int)lvl > log_level_)
		return;
	con_printf("  libvirq %s: %s", names[lvl & 3], msg);
	for (size_t i = 0; i < n; i++)
		con_printf(" 0x%lx", v[i]);
	con_putc('\n');
}

static const struct virq_hal_ops ops_ = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = rd32_,
    .mmio_write32 = wr32_,
    .mmio_read64 = rd64_,
    .mmio_write64 = wr64_,
    .page_alloc = page_alloc_,
    .page_free = page_free_,
    .dcache_clean = dcache_clean_,
    .barrier = barrier_,
    .now_ns = now_ns_,
    .relax = relax_,
    .log = log_,
};

const struct virq_hal minihv_hal = {.ops = &ops_, .ctx = NULL};
