/* SPDX-License-Identifier: MIT */
/*
 * ITS command benchmark: map N = 1,024 events of one device
 *  (a) per command, as Linux does: MAPTI + SYNC, publish, wait — N times;
 *  (b) one batch: N x MAPTI + one SYNC, one publish, one wait.
 *
 * Part 1 (functional, fake HAL + ITS model): counts MMIO accesses and
 * GITS_CWRITER writes for (a) and (b), with a 64 KiB queue (Linux's size)
 * and a 4 KiB queue (capacity 127, so (b) needs ceil((N+1)/127) doorbells),
 * and checks the model decoded every MAPTI exactly.
 *
 * Part 2 (instructions): the same paths on a minimal "instant ITS" HAL
 * (CREADR reads back the last CWRITER), in the noinline functions
 * measure_encode (MAPTI, the inline fast path), measure_encode_vmapti (a
 * table-dispatched command), measure_path_a and measure_path_b, so that
 * `valgrind --tool=callgrind --toggle-collect='measure_*'` (run.sh) counts
 * only the library plus a few instructions of HAL callbacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/virq.h>
#include <libvirq/gicv4/its_cmd.h>
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/gicv4/its_regs.h>

#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/its.h>

#include "../bench_noinline.h"

#define N_EVENTS 1024u
#define DEVICE 5u
#define ITS_BASE LIBVIRQ_SIM_GIC_ITS0_BASE
#define QEMU_TYPER 0x0000003F0001EFB3ull

static struct virq_its_cmd cmds[N_EVENTS];
static struct virq_its_cmd vcmds[N_EVENTS]; /* VMAPTI: the table-dispatched path */
static struct virq_its_limits lim;
static const uint64_t rdbase = 0; /* collection 0 -> processor 0 (PTA = 0) */

static void die(const char *what, virq_status st)
{
	fprintf(stderr, "bench_gicv4_its: %s: %s\n", what, virq_strerror(st));
	exit(1);
}

#define CHECK(what, expr)                                                                          \
	do {                                                                                       \
		virq_status st_ = (expr);                                                          \
		if (st_ != LIBVIRQ_OK)                                                             \
			die(what, st_);                                                            \
	} while (0)

/* ---- the measured paths ---- */
NOINLINE void bench_encode(uint8_t (*out)[32]);
NOINLINE void bench_encode(uint8_t (*out)[32])
{
	for (unsigned i = 0; i < N_EVENTS; i++)
		if (virq_its_cmd_encode(&cmds[i], &lim, out[i], NULL, NULL) != LIBVIRQ_OK)
			die("encode", LIBVIRQ_EINVAL);
}

NOINLINE void bench_encode_v(uint8_t (*out)[32]);
NOINLINE void bench_encode_v(uint8_t (*out)[32])
{
	for (unsigned i = 0; i < N_EVENTS; i++)
		if (virq_its_cmd_encode(&vcmds[i], &lim, out[i], NULL, NULL) != LIBVIRQ_OK)
			die("encode", LIBVIRQ_EINVAL);
}

NOINLINE void bench_path_a(struct virq_its_queue *q);
NOINLINE void bench_path_a(struct virq_its_queue *q)
{
	struct virq_its_cmd sync = virq_its_sync_cmd(rdbase);

	for (unsigned i = 0; i < N_EVENTS; i++) {
		uint64_t t;

		CHECK("push", virq_its_queue_push(q, &cmds[i], &lim, NULL, NULL));
		CHECK("push sync", virq_its_queue_push(q, &sync, &lim, NULL, NULL));
		CHECK("publish", virq_its_queue_publish(q, &t));
		CHECK("wait", virq_its_queue_wait(q, t, NULL));
	}
}

NOINLINE void bench_path_b(struct virq_its_queue *q);
NOINLINE void bench_path_b(struct virq_its_queue *q)
{
	struct virq_its_cmd sync = virq_its_sync_cmd(rdbase);

	for (unsigned i = 0; i < N_EVENTS; i++)
		CHECK("push", virq_its_queue_push(q, &cmds[i], &lim, NULL, NULL));
	CHECK("push sync", virq_its_queue_push(q, &sync, &lim, NULL, NULL));
	CHECK("drain", virq_its_queue_drain(q, NULL));
}

/* (L) Linux (from code), drivers/irqchip/irq-gic-v3-its.c,
 * its_send_single_command(): its_allocate_entry() reads GITS_CREADR to see
 * the queue is not full, for the command and again for its SYNC; the read
 * index is read once more before its_post_commands() writes GITS_CWRITER;
 * its_wait_for_range_completion() polls GITS_CREADR (at least once). The
 * strategy is modelled with this library's queue (no Linux code used):
 * 4 reads + 1 write per command. */
NOINLINE void bench_path_linux(struct virq_its_queue *q, const struct virq_hal *hal);
NOINLINE void bench_path_linux(struct virq_its_queue *q, const struct virq_hal *hal)
{
	struct virq_its_cmd sync = virq_its_sync_cmd(rdbase);
	const uint64_t creadr = ITS_BASE + LIBVIRQ_GITS_CREADR;

	for (unsigned i = 0; i < N_EVENTS; i++) {
		uint64_t t;

		(void)hal->ops->mmio_read32(hal->ctx, creadr);
		CHECK("push", virq_its_queue_push(q, &cmds[i], &lim, NULL, NULL));
		(void)hal->ops->mmio_read32(hal->ctx, creadr);
		CHECK("push sync", virq_its_queue_push(q, &sync, &lim, NULL, NULL));
		(void)hal->ops->mmio_read32(hal->ctx, creadr);
		CHECK("publish", virq_its_queue_publish(q, &t));
		CHECK("wait", virq_its_queue_wait(q, t, NULL));
	}
}

/* ---- part 1: fake HAL + model ---- */
enum path_ { PATH_A_, PATH_B_, PATH_LINUX_ };
struct counts {
	unsigned long mmio, cwriter, creadr;
};

static struct counts run_model(enum path_ path, uint32_t qsize)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_its *m = virq_sim_its_new(sim, ITS_BASE, NULL);
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_its_queue q;
	struct counts c;
	size_t want = path == PATH_B_ ? N_EVENTS + 1 : 2 * N_EVENTS, seen = 0;

	CHECK("init", virq_its_queue_init(&q, &hal, ITS_BASE, qsize, NULL));
	virq_sim_its_enable(m, true);
	virq_sim_reset_counters(sim);
	if (path == PATH_B_)
		bench_path_b(&q);
	else if (path == PATH_A_)
		bench_path_a(&q);
	else
		bench_path_linux(&q, &hal);
	c.mmio = virq_sim_mmio_total(sim);
	c.cwriter = virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_W64, ITS_BASE + LIBVIRQ_GITS_CWRITER);
	c.creadr = virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_R32, ITS_BASE + LIBVIRQ_GITS_CREADR);
	/* The model decoded every MAPTI exactly, in order. */
	if (virq_sim_its_ncmds(m) != want)
		die("model command count", LIBVIRQ_EHW);
	for (size_t i = 0; i < virq_sim_its_ncmds(m); i++) {
		const struct virq_sim_its_cmd *mc = virq_sim_its_cmd_at(m, i);

		if (mc->op == 0x05)
			continue;
		if (mc->op != 0x0A || mc->dev != DEVICE || mc->ev != seen ||
		    mc->pintid != 8192 + seen || mc->icid != 0)
			die("model saw a wrong command", LIBVIRQ_EHW);
		seen++;
	}
	if (seen != N_EVENTS)
		die("model MAPTI count", LIBVIRQ_EHW);
	CHECK("its_queue_fini", virq_its_queue_fini(&q));
	virq_sim_free(sim);
	virq_sim_its_free(m);
	return c;
}

/* ---- part 2: minimal instant-ITS HAL ---- */
struct ihal {
	uint64_t cwriter, cbaser, now;
};

static uint32_t i_rd32(void *ctx, uint64_t a)
{
	struct ihal *h = ctx;

	if (a == ITS_BASE + LIBVIRQ_GITS_CREADR)
		return (uint32_t)h->cwriter;
	return a == ITS_BASE + LIBVIRQ_GITS_CTLR ? 0x80000000u : 0;
}

static void i_wr32(void *ctx, uint64_t a, uint32_t v)
{
	(void)ctx;
	(void)a;
	(void)v;
}

static uint64_t i_rd64(void *ctx, uint64_t a)
{
	struct ihal *h = ctx;

	return a == ITS_BASE + LIBVIRQ_GITS_CBASER ? h->cbaser : 0;
}

static void i_wr64(void *ctx, uint64_t a, uint64_t v)
{
	struct ihal *h = ctx;

	if (a == ITS_BASE + LIBVIRQ_GITS_CWRITER)
		h->cwriter = v & 0xFFFE0;
	else if (a == ITS_BASE + LIBVIRQ_GITS_CBASER)
		h->cbaser = v;
}

static virq_status i_alloc(void *ctx, size_t size, size_t align, struct virq_page *p)
{
	(void)ctx;
	p->va = aligned_alloc(align, (size + align - 1) & ~(align - 1));
	if (!p->va)
		return LIBVIRQ_ENOMEM;
	memset(p->va, 0, size);
	p->pa = (uint64_t)(uintptr_t)p->va;
	p->size = size;
	return LIBVIRQ_OK;
}

static void i_free(void *ctx, const struct virq_page *p)
{
	(void)ctx;
	free(p->va);
}

static uint64_t i_now(void *ctx)
{
	return ((struct ihal *)ctx)->now++;
}

static const struct virq_hal_ops i_ops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = i_rd32,
    .mmio_write32 = i_wr32,
    .mmio_read64 = i_rd64,
    .mmio_write64 = i_wr64,
    .page_alloc = i_alloc,
    .page_free = i_free,
    .now_ns = i_now,
};

NOINLINE void measure_encode(uint8_t (*out)[32]);
NOINLINE void measure_encode(uint8_t (*out)[32])
{
	bench_encode(out);
}

NOINLINE void measure_encode_vmapti(uint8_t (*out)[32]);
NOINLINE void measure_encode_vmapti(uint8_t (*out)[32])
{
	bench_encode_v(out);
}

NOINLINE void measure_path_a(struct virq_its_queue *q);
NOINLINE void measure_path_a(struct virq_its_queue *q)
{
	bench_path_a(q);
}

NOINLINE void measure_path_b(struct virq_its_queue *q);
NOINLINE void measure_path_b(struct virq_its_queue *q)
{
	bench_path_b(q);
}

static void run_instant(void)
{
	static uint8_t out[N_EVENTS][32];
	struct ihal h = {0, 0, 0};
	struct virq_hal hal = {&i_ops, &h};
	struct virq_its_queue q;

	measure_encode(out);
	measure_encode_vmapti(out);
	CHECK("init", virq_its_queue_init(&q, &hal, ITS_BASE, 65536, NULL));
	measure_path_a(&q);
	measure_path_b(&q);
	CHECK("its_queue_fini", virq_its_queue_fini(&q));
}

int main(void)
{
	struct counts a, b, b4, l;

	virq_its_limits_from_typer(QEMU_TYPER, &lim);
	for (unsigned i = 0; i < N_EVENTS; i++)
		cmds[i] = virq_its_mapti(DEVICE, i, 8192 + i, 0);
	for (unsigned i = 0; i < N_EVENTS; i++)
		vcmds[i] = virq_its_vmapti(DEVICE, i, 1, 8192 + i, LIBVIRQ_ITS_NO_DOORBELL);

	a = run_model(PATH_A_, 65536);
	b = run_model(PATH_B_, 65536);
	b4 = run_model(PATH_B_, 4096);
	l = run_model(PATH_LINUX_, 65536);
	printf(
	    "ITS benchmark: map %u events of one device (fake HAL + ITS model, decoded exactly)\n",
	    N_EVENTS);
	printf("(a) per command MAPTI+SYNC, publish, wait: MMIO %lu (CWRITER writes %lu, CREADR "
	       "reads %lu)\n",
	       a.mmio, a.cwriter, a.creadr);
	printf("(b) one batch, 64 KiB queue:               MMIO %lu (CWRITER writes %lu, CREADR "
	       "reads %lu)\n",
	       b.mmio, b.cwriter, b.creadr);
	printf("(b) one batch, 4 KiB queue (capacity 127): MMIO %lu (CWRITER writes %lu, "
	       "ceil(%u/127) = %u)\n",
	       b4.mmio, b4.cwriter, N_EVENTS + 1, (N_EVENTS + 1 + 126) / 127);
	printf("(L) Linux (from code), its_send_single_command() per MAPTI:\n"
	       "                                           MMIO %lu (CWRITER writes %lu, CREADR "
	       "reads %lu)\n",
	       l.mmio, l.cwriter, l.creadr);
	printf("MMIO ratio (a)/(b): %.1f   (L)/(b): %.1f\n", (double)a.mmio / (double)b.mmio,
	       (double)l.mmio / (double)b.mmio);
	printf("SUMMARY gicv4_its.batch1024.cwriter_writes %lu 1\n", b.cwriter);
	printf("SUMMARY gicv4_its.batch1024.mmio %lu 2\n", b.mmio);
	printf("SUMMARY gicv4_its.batch1024_4k.cwriter_writes %lu %u\n", b4.cwriter,
	       (N_EVENTS + 1 + 126) / 127);
	if (b.cwriter != 1 || b4.cwriter != (N_EVENTS + 1 + 126) / 127) {
		fprintf(stderr, "bench_gicv4_its: CWRITER writes exceed ceil(N / capacity)\n");
		return 1;
	}
	run_instant();
	return 0;
}
