/* SPDX-License-Identifier: MIT */
/*
 * Proof rte_its_queue (EVA): no run-time error (invalid or out-of-bounds
 * access, NULL dereference, shift past the width, signed overflow, invalid
 * bool, uninitialised read) in the ITS command queue (src/gicv4/its_queue.c)
 * for every register value the HAL may return and every queue size the API
 * accepts (4 KiB .. 1 MiB in 4 KiB steps, and any other size, refused):
 * GITS_CTLR, GITS_CBASER, GITS_CREADR read back any 32/64-bit value at every
 * read, the clock returns any later time, and a sequence of public calls
 * (push, raw push, publish, wait on any ticket, drain, submit, stall_info,
 * retry, skip, reset, and the batch path room/commit) runs on the queue,
 * each step chosen freely, with NULL for every optional pointer.
 */
#include "proof_env.h"
#include "common/compiler.h"
#undef LIBVIRQ_ALWAYS_INLINE_
#define LIBVIRQ_ALWAYS_INLINE_ inline
#include "hal/hal_priv.h"
/* Failure reports keep their status and check text; the logged values
 * (a compound literal in sizeof, which Frama-C 25 cannot type) are left out. */
#undef LIBVIRQ_FAILV_
#define LIBVIRQ_FAILV_(api, hal, st, check, ...) virq_fail_((api), (hal), (st), 0, (check), NULL, 0)
#include "gicv4/enc/its_cmd.c"
#include "hal/hal.c"
#include "common/poll.c"
#include "common/status.c"
#include "gicv4/its_queue.c"

/* The queue's memory: the largest queue the API accepts. */
static uint8_t qmem_[LIBVIRQ_ITS_QUEUE_MAX_BYTES];
static uint64_t clock_;

static uint32_t rd32_(void *ctx, uint64_t addr)
{
	(void)ctx;
	(void)addr;
	return any_u32_();
}

static uint64_t rd64_(void *ctx, uint64_t addr)
{
	(void)ctx;
	(void)addr;
	return any_u64_();
}

static void wr32_(void *ctx, uint64_t addr, uint32_t v)
{
	(void)ctx;
	(void)addr;
	(void)v;
}

static void wr64_(void *ctx, uint64_t addr, uint64_t v)
{
	(void)ctx;
	(void)addr;
	(void)v;
}

static virq_status alloc_(void *ctx, size_t size, size_t align, struct virq_page *p)
{
	(void)ctx;
	(void)align;
	if (size > sizeof(qmem_) || any_bool_())
		return LIBVIRQ_ENOMEM;
	p->va = qmem_;
	p->pa = (uint64_t)Frama_C_unsigned_int_interval(0, 0xFFFFFu) << 16;
	p->size = size;
	return LIBVIRQ_OK;
}

static void free_(void *ctx, const struct virq_page *p)
{
	(void)ctx;
	(void)p;
}

static void clean_(void *ctx, const void *va, size_t len)
{
	(void)ctx;
	(void)va;
	(void)len;
}

static void barrier_(void *ctx, enum virq_barrier kind)
{
	(void)ctx;
	(void)kind;
}

/* Time moves forward by any amount up to a second per read. */
static uint64_t now_(void *ctx)
{
	(void)ctx;
	clock_ += Frama_C_unsigned_int_interval(0, 1000000000u);
	return clock_;
}

static struct virq_hal_ops ops_;

static void any_cmd_(struct virq_its_cmd *c)
{
	Frama_C_make_unknown((char *)c, sizeof(*c));
	c->opcode = (enum virq_its_opcode)any_u32_();
	c->V = any_bool_();
	c->D = any_bool_();
	c->Alloc = any_bool_();
	c->PTZ = any_bool_();
	c->DB = any_bool_();
	c->Enable = any_bool_();
	c->Clear = any_bool_();
	c->Group = any_bool_();
}

/* One public call, chosen freely. */
static void step_(struct virq_its_queue *q, uint64_t *ticket)
{
	struct virq_its_queue_diag diag;
	struct virq_its_cmd c;
	struct virq_its_sync sync;
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE], *slots = NULL;
	uint32_t n;
	virq_status st = LIBVIRQ_OK;

	any_cmd_(&c);
	Frama_C_make_unknown((char *)raw, sizeof(raw));
	switch (Frama_C_interval(0, 11)) {
	case 0:
		st = virq_its_queue_push(q, &c, NULL, OR_NULL_(&sync), NULL);
		break;
	case 1:
		st = virq_its_queue_push_raw(q, raw);
		break;
	case 2:
		st = virq_its_queue_publish(q, OR_NULL_(ticket));
		break;
	case 3:
		st = virq_its_queue_wait(q, any_bool_() ? *ticket : any_u64_(), OR_NULL_(&diag));
		break;
	case 4:
		st = virq_its_queue_drain(q, OR_NULL_(&diag));
		break;
	case 5:
		st = virq_its_queue_submit(q, &c, NULL, OR_NULL_(&sync), OR_NULL_(&diag));
		break;
	case 6:
		st = virq_its_queue_stall_info(q, OR_NULL_(&diag));
		break;
	case 7:
		st = virq_its_queue_retry(q);
		break;
	case 8:
		st = virq_its_queue_skip(q, &c, NULL);
		break;
	case 9:
		st = virq_its_queue_reset(q);
		break;
	case 10:
		n = virq_its_queue_room_(q, &slots);
		if (n && slots)
			virq_its_queue_commit_(q, Frama_C_unsigned_int_interval(0, n));
		break;
	default:
		*ticket = virq_its_queue_seen_(q, any_u64_());
		break;
	}
	(void)st;
}

int main(void)
{
	struct virq_its_queue q;
	struct virq_hal hal;
	struct virq_its_queue_cfg cfg;
	uint64_t ticket = 0;
	uint32_t size;

	ops_.version = LIBVIRQ_HAL_VERSION;
	ops_.size = sizeof(ops_);
	ops_.mmio_read32 = rd32_;
	ops_.mmio_write32 = wr32_;
	ops_.mmio_read64 = rd64_;
	ops_.mmio_write64 = wr64_;
	ops_.page_alloc = alloc_;
	ops_.page_free = free_;
	ops_.dcache_clean = any_bool_() ? clean_ : NULL;
	ops_.barrier = barrier_;
	ops_.now_ns = now_;
	hal.ops = &ops_;
	hal.ctx = NULL;
	Frama_C_make_unknown((char *)&cfg, sizeof(cfg));
	cfg.dma_noncoherent = any_bool_();
	memset(&q, 0, sizeof(q));
	/* Every accepted size, or any other value (refused). */
	size = any_bool_() ? Frama_C_unsigned_int_interval(1, 256) * 4096u : any_u32_();
	if (virq_its_queue_init(&q, &hal, any_u64_(), size, OR_NULL_(&cfg)) != LIBVIRQ_OK)
		return 1;
	for (unsigned i = 0; i < 6; i++)
		step_(&q, &ticket);
	(void)virq_its_queue_capacity(&q);
	return virq_its_queue_fini(&q) == LIBVIRQ_OK;
}
