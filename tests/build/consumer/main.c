/* SPDX-License-Identifier: MIT */
/*
 * A tiny embedder built against an installed libvirq (find_package or
 * pkg-config): it includes the installed headers, links libvirq.a, validates
 * a HAL and polls a "register" through it. Prints one line and exits 0 when
 * everything behaves.
 */
#include <libvirq/virq.h>
#include <stdio.h>
#include <string.h>

static uint32_t reg_ = 0;
static uint64_t clock_ = 0;

static uint32_t rd32_(void *ctx, uint64_t addr)
{
	(void)ctx;
	(void)addr;
	return ++reg_; /* the "hardware" counts up on every read */
}

static void wr32_(void *ctx, uint64_t addr, uint32_t v)
{
	(void)ctx;
	(void)addr;
	reg_ = v;
}

static uint64_t rd64_(void *ctx, uint64_t addr)
{
	return rd32_(ctx, addr);
}

static void wr64_(void *ctx, uint64_t addr, uint64_t v)
{
	wr32_(ctx, addr, (uint32_t)v);
}

static virq_status alloc_(void *ctx, size_t size, size_t align, struct virq_page *page)
{
	(void)ctx;
	(void)size;
	(void)align;
	(void)page;
	return LIBVIRQ_ENOMEM;
}

static void free_(void *ctx, const struct virq_page *page)
{
	(void)ctx;
	(void)page;
}

static uint64_t now_(void *ctx)
{
	(void)ctx;
	return clock_ += 100;
}

static const struct virq_hal_ops ops_ = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = rd32_,
    .mmio_write32 = wr32_,
    .mmio_read64 = rd64_,
    .mmio_write64 = wr64_,
    .page_alloc = alloc_,
    .page_free = free_,
    .now_ns = now_,
};

int main(void)
{
	struct virq_hal hal = {&ops_, NULL};
	uint32_t last = 0;
	virq_status st;

	if (virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_CORE) != LIBVIRQ_OK)
		return 1;
	if (virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_MSR) != LIBVIRQ_ENOHAL)
		return 2;
	st = virq_poll32(&hal, 0x1000, 0xff, 5, 1000000, &last);
	if (st != LIBVIRQ_OK || last != 5)
		return 3;
	if (strcmp(virq_status_name(LIBVIRQ_ETIMEDOUT), "LIBVIRQ_ETIMEDOUT") != 0)
		return 4;
	if (LIBVIRQ_FIELD_PREP(7, 4, 0xa) != 0xa0)
		return 5;
	printf("libvirq %u.%u.%u consumer ok\n", (unsigned)(virq_version() >> 16),
	       (unsigned)(virq_version() >> 8) & 0xffu, (unsigned)virq_version() & 0xffu);
	return 0;
}
