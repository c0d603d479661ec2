/* SPDX-License-Identifier: MIT */
/*
 * A hosted embedder in C, small enough to read in a minute: a HAL over a fake
 * device register and the C library's allocator and clock, validated, used
 * for a bounded poll, and (when the GICv4 module is built) one ITS command
 * encoded and decoded. Its fail callback keeps the library's last failure
 * report, which main() reads after a call that fails on purpose. The commands of README.md and
 * docs/integration.md build it against an installed libvirq:
 *
 *   cc -std=c11 -o hv examples/hosted/hv.c $(pkg-config --cflags --libs libvirq)
 *
 * Prints one line ending in "ok" and exits 0 when everything behaves.
 */
#define _POSIX_C_SOURCE 200809L
#include <libvirq/virq.h>
#ifdef LIBVIRQ_HAVE_GICV4
#include <libvirq/gicv4.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The "device": one status register whose low byte counts up on each read;
 * and the last failure report the library sent (hv_fail()). */
struct fake_dev {
	uint32_t status;
	char last_fail[LIBVIRQ_FAIL_MSG_SIZE];
	virq_status last_status;
};

static uint32_t rd32(void *ctx, uint64_t addr)
{
	struct fake_dev *dev = ctx;

	(void)addr;
	return ++dev->status;
}

static void wr32(void *ctx, uint64_t addr, uint32_t v)
{
	struct fake_dev *dev = ctx;

	(void)addr;
	dev->status = v;
}

static uint64_t rd64(void *ctx, uint64_t addr)
{
	return rd32(ctx, addr);
}

static void wr64(void *ctx, uint64_t addr, uint64_t v)
{
	wr32(ctx, addr, (uint32_t)v);
}

static virq_status page_alloc(void *ctx, size_t size, size_t align, struct virq_page *pg)
{
	size_t rounded = (size + align - 1) / align * align;
	void *va = aligned_alloc(align, rounded);

	(void)ctx;
	if (!va)
		return LIBVIRQ_ENOMEM;
	memset(va, 0, rounded);
	pg->va = va;
	pg->pa = (uint64_t)(uintptr_t)va; /* a hosted toy: "physical" = virtual */
	pg->size = size;
	return LIBVIRQ_OK;
}

static void page_free(void *ctx, const struct virq_page *pg)
{
	(void)ctx;
	free(pg->va);
}

static uint64_t now_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Each failed check: which public function, which check, the values
 * (struct virq_failure). The strings are valid only during the call. */
static void hv_fail(void *ctx, const struct virq_failure *f)
{
	struct fake_dev *dev = ctx;

	snprintf(dev->last_fail, sizeof(dev->last_fail), "%s", f->message);
	dev->last_status = f->status;
}

static const struct virq_hal_ops hv_ops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = rd32,
    .mmio_write32 = wr32,
    .mmio_read64 = rd64,
    .mmio_write64 = wr64,
    .page_alloc = page_alloc,
    .page_free = page_free,
    .now_ns = now_ns,
    .fail = hv_fail,
};

int main(void)
{
	struct fake_dev dev = {0};
	struct virq_hal hal = {&hv_ops, &dev};
	uint32_t last = 0;
	virq_status st;

	st = virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_CORE);
	if (st != LIBVIRQ_OK) {
		fprintf(stderr, "hal: %s\n", virq_strerror(st));
		return 1;
	}
	/* Wait (at most 10 ms) for the status byte to read 5. */
	st = virq_poll32(&hal, 0x1000, 0xffu, 5, 10000000u, &last);
	if (st != LIBVIRQ_OK || last != 5) {
		fprintf(stderr, "poll: %s (last 0x%x)\n", virq_strerror(st), (unsigned)last);
		return 2;
	}
	/* This HAL has no MSR callbacks: asking for them fails, and the report
	 * says which check. */
	if (virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_MSR) != LIBVIRQ_ENOHAL ||
	    strcmp(dev.last_fail, "virq_hal_validate: msr_read=NULL (LIBVIRQ_HAL_NEED_MSR)") != 0) {
		fprintf(stderr, "hal: no report of the missing MSR callback (\"%s\")\n",
			dev.last_fail);
		return 4;
	}
	printf("libvirq %u.%u.%u: hal ok, poll ok", (unsigned)(virq_version() >> 16),
	       (unsigned)(virq_version() >> 8) & 0xffu, (unsigned)virq_version() & 0xffu);
#ifdef LIBVIRQ_HAVE_GICV4
	{
		struct virq_its_cmd mapd = virq_its_mapd(42, 4, 0x80000100u, true), back;
		uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];

		st = virq_its_cmd_encode(&mapd, NULL, raw, NULL, NULL);
		if (st == LIBVIRQ_OK)
			st = virq_its_cmd_decode(raw, &back);
		if (st != LIBVIRQ_OK || back.DeviceID != 42 || back.ITT_addr != 0x80000100u) {
			fprintf(stderr, "\nits: MAPD round trip: %s\n", virq_strerror(st));
			return 3;
		}
		printf(", its MAPD ok");
	}
#endif
	printf(", last failure \"%s\" (%s): ok\n", dev.last_fail,
	       virq_status_name(dev.last_status));
	return 0;
}
