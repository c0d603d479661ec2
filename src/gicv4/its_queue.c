/* SPDX-License-Identifier: MIT */
/*
 * The ITS command queue (Arm IHI 0069H §5.2; §12.19 GITS_CBASER, GITS_CWRITER,
 * GITS_CREADR; docs/rationale.md#gic-its-queue-stall).
 *
 * Positions are kept twice: as byte offsets inside the queue (what
 * GITS_CWRITER / GITS_CREADR hold) and as 64-bit "linear" positions that
 * never wrap (bytes ever pushed / published / consumed). Linear positions
 * make "has CREADR passed the batch" a plain comparison across any number
 * of wrap-arounds: each read of GITS_CREADR adds the offset delta since the
 * previous read, modulo the queue size. The delta is unambiguous because
 * the ITS never passes GITS_CWRITER and the queue never holds more than
 * size - 32 unconsumed bytes.
 *
 * Linear positions never restart: a reset starts a new epoch one slot past
 * everything pushed (so epochs share no position) and records what
 * GITS_CREADR showed once the ITS was quiescent. A ticket at or below the
 * last reset's end belongs to an earlier epoch and is decided by the first
 * reset whose end is at or past it: ran when that reset had seen it
 * consumed, dropped otherwise. 2^64 bytes are 5.7 * 10^17 commands: the
 * positions do not wrap in the life of a machine.
 *
 * Concurrency: none inside; the caller serialises every call per ITS.
 */
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/gicv4/its_regs.h>
#include <libvirq/bitfield.h>

#include "../hal/hal_priv.h"
#include "its_queue_priv.h"

#define LIVE_ LIBVIRQ_GICV4_LIVE

static inline bool q_live_(const struct virq_its_queue *q)
{
	return q && q->state == LIVE_;
}

#define SLOT_ LIBVIRQ_ITS_CMD_SIZE

static inline uint64_t reg_(const struct virq_its_queue *q, uint32_t off)
{
	return q->its_base + off;
}

static inline uint8_t *slot_(const struct virq_its_queue *q, uint32_t off)
{
	return (uint8_t *)q->mem.va + off;
}

/* The fields of GITS_CBASER that must read back exactly as written. */
#define CBASER_FIXED_                                                                              \
	(LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CBASER_Valid) |                                           \
	 LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CBASER_Physical_Address) |                                \
	 LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CBASER_Size))

/* Writes @v to GITS_CBASER and returns what reads back. */
static uint64_t cbaser_write_(const struct virq_its_queue *q, uint64_t v)
{
	virq_wr64_(&q->hal, reg_(q, LIBVIRQ_GITS_CBASER), v);
	return virq_rd64_(&q->hal, reg_(q, LIBVIRQ_GITS_CBASER));
}

/*
 * "Write wanted, read back, adapt" (Linux its_probe_one, Xen): returns the
 * value that stuck in *rb, or LIBVIRQ_EHW when Valid/PA/Size did not stick.
 */
static virq_status cbaser_negotiate_(struct virq_its_queue *q, uint64_t *rb)
{
	uint32_t inner = q->noncoherent ? LIBVIRQ_GIC_CACHE_nC : LIBVIRQ_GIC_WANT_INNER_CACHE;
	uint32_t sh = q->noncoherent ? LIBVIRQ_GIC_SH_NONE : LIBVIRQ_GIC_WANT_SHAREABILITY;
	uint64_t want;
	virq_status st;

	st = virq_its_cbaser_encode(q->mem.pa, q->size, inner, LIBVIRQ_GIC_CACHE_SAME_AS_INNER, sh,
				    &want);
	if (st != LIBVIRQ_OK)
		return st;
	*rb = cbaser_write_(q, want);
	if ((*rb ^ want) & CBASER_FIXED_)
		return LIBVIRQ_EHW;
	if (!q->noncoherent && LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Shareability, *rb) == 0) {
		/* Non-shareable stuck: the ITS does not snoop; use nC and clean. */
		want =
		    LIBVIRQ_FIELD_SET(LIBVIRQ_GITS_CBASER_Shareability, *rb, LIBVIRQ_GIC_SH_NONE);
		want =
		    LIBVIRQ_FIELD_SET(LIBVIRQ_GITS_CBASER_InnerCache, want, LIBVIRQ_GIC_CACHE_nC);
		*rb = cbaser_write_(q, want);
		if ((*rb ^ want) & CBASER_FIXED_)
			return LIBVIRQ_EHW;
	}
	return LIBVIRQ_OK;
}

/* A new epoch from linear position @lin (offsets 0: GITS_CBASER was just written). */
static void positions_at_(struct virq_its_queue *q, uint64_t lin)
{
	q->wr_lin = q->pub_lin = q->rd_lin = lin;
	q->wr_off = q->pub_off = q->rd_off = 0;
	q->creadr = 0;
	q->stalled_sticky = false;
	q->retry_pending = false;
	q->dead = false;
}

/* virq_its_queue_init()'s checks of its arguments; @p q is zeroed after the
 * live check (a failed init leaves it not live). */
static virq_status init_args_(const char *api, const struct virq_hal *hal, struct virq_its_queue *q,
			      uint32_t size)
{
	if (!q)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "q=NULL");
	if (q->state == LIVE_)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY,
				     "q is live (virq_its_queue_fini() first)");
	memset(q, 0, sizeof(*q));
	if (size & 0xFFF)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EALIGN, "size=%u not a multiple of 4096",
				      size);
	if (size < LIBVIRQ_ITS_QUEUE_MIN_BYTES)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "size=%u < %u", size,
				      LIBVIRQ_ITS_QUEUE_MIN_BYTES);
	if (size > LIBVIRQ_ITS_QUEUE_MAX_BYTES)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "size=%u > %u", size,
				      LIBVIRQ_ITS_QUEUE_MAX_BYTES);
	return LIBVIRQ_OK;
}

/* The queue's memory given to GITS_CBASER, the attributes that stuck kept. */
static virq_status init_cbaser_(const char *api, struct virq_its_queue *q)
{
	uint64_t rb = 0;
	virq_status st;

	st = LIBVIRQ_PAGE_ALLOC_(api, &q->hal, q->size, LIBVIRQ_ITS_QUEUE_ALIGN, &q->mem,
				 "ITS command queue");
	if (st != LIBVIRQ_OK)
		return st;
	st = cbaser_negotiate_(q, &rb);
	if (st != LIBVIRQ_OK)
		st = LIBVIRQ_FAILV_(api, &q->hal, st,
				    "GITS_CBASER read back %x: Valid, Physical_Address or Size "
				    "did not stick",
				    rb);
	if (st == LIBVIRQ_OK) {
		/* OuterCache non-cacheable: the ITS reads past the caches too. */
		q->clean =
		    q->noncoherent ||
		    virq_gic_attr_needs_clean(
			LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_InnerCache, rb),
			LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Shareability, rb)) ||
		    LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_OuterCache, rb) == LIBVIRQ_GIC_CACHE_nC;
		if (q->clean && !q->hal.ops->dcache_clean)
			st = LIBVIRQ_FAILV_(api, &q->hal, LIBVIRQ_ENOHAL,
					    "GITS_CBASER=%x: queue not coherent and "
					    "dcache_clean=NULL",
					    rb);
	}
	if (st != LIBVIRQ_OK) {
		/* Leave no queue pointing at memory we free. */
		virq_wr64_(&q->hal, reg_(q, LIBVIRQ_GITS_CBASER), 0);
		virq_page_free_(&q->hal, &q->mem);
		return st;
	}
	q->cbaser = rb;
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_init_(const char *api, struct virq_its_queue *q,
				 const struct virq_hal *hal, uint64_t its_base, uint32_t size,
				 const struct virq_its_queue_cfg *cfg)
{
	uint32_t ctlr;
	virq_status st;

	st = virq_hal_check_(api, hal, LIBVIRQ_HAL_NEED_CORE);
	if (st == LIBVIRQ_OK)
		st = init_args_(api, hal, q, size);
	if (st != LIBVIRQ_OK)
		return st;
	q->hal = *hal;
	q->its_base = its_base;
	q->size = size;
	q->timeout_ns =
	    cfg && cfg->timeout_ns ? cfg->timeout_ns : LIBVIRQ_ITS_QUEUE_DEFAULT_TIMEOUT_NS;
	q->noncoherent = cfg && cfg->dma_noncoherent;

	/* GITS_CBASER may only be written while the ITS is disabled and quiescent. */
	ctlr = virq_rd32_(&q->hal, reg_(q, LIBVIRQ_GITS_CTLR));
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CTLR_Enabled, ctlr))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY, "GITS_CTLR=%x: Enabled=1", ctlr);
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CTLR_Quiescent, ctlr))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY, "GITS_CTLR=%x: Quiescent=0", ctlr);
	st = init_cbaser_(api, q);
	if (st != LIBVIRQ_OK)
		return st;
	LIBVIRQ_LOGV(&q->hal, LIBVIRQ_LOG_INFO, "its: command queue GITS_CBASER, clean", q->cbaser,
		     (uint64_t)q->clean);
	/* Writing GITS_CBASER reset GITS_CREADR to 0; match it (Linux, QEMU). */
	virq_wr64_(&q->hal, reg_(q, LIBVIRQ_GITS_CWRITER), 0);
	positions_at_(q, 0);
	q->state = LIVE_;
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_init(struct virq_its_queue *q, const struct virq_hal *hal,
				uint64_t its_base, uint32_t size,
				const struct virq_its_queue_cfg *cfg)
{
	return virq_its_queue_init_(LIBVIRQ_ENTRY_, q, hal, its_base, size, cfg);
}

static void fini_(struct virq_its_queue *q)
{
	virq_page_free_(&q->hal, &q->mem);
	q->dead = true;
	q->state = LIBVIRQ_GICV4_GONE;
}

/* The report of a queue that is not live (NULL, never initialised, finished). */
#define Q_DEAD_(api, q)                                                                            \
	LIBVIRQ_FAIL_DEAD_((api), (q) && (q)->state == LIBVIRQ_GICV4_GONE ? &(q)->hal : NULL, "q", \
			   (q), LIBVIRQ_GICV4_GONE)

virq_status virq_its_queue_fini(struct virq_its_queue *q)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (q->owned)
		return LIBVIRQ_FAIL_(api, &q->hal, LIBVIRQ_EBUSY,
				     "q belongs to an ITS (virq_its_destroy() frees it)");
	fini_(q);
	return LIBVIRQ_OK;
}

void virq_its_queue_fini_owned_(struct virq_its_queue *q)
{
	if (q_live_(q))
		fini_(q);
}

uint32_t virq_its_queue_capacity(const struct virq_its_queue *q)
{
	return q_live_(q) ? q->size / SLOT_ - 1 : 0;
}

/* ---- reading GITS_CREADR ---- */
enum rd_result_ {
	RD_PROGRESS_ = 0, /* read fine (possibly no progress) */
	RD_STALLED_,	  /* Stalled set, trusted, unconsumed commands: stop */
	RD_BAD_,	  /* impossible offset */
};

/* One GITS_CREADR read: advances rd_lin by the offset delta. */
static enum rd_result_ creadr_read_(struct virq_its_queue *q)
{
	uint32_t v = virq_rd32_(&q->hal, reg_(q, LIBVIRQ_GITS_CREADR));
	uint32_t off = (uint32_t)(v & LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CREADR_Offset));
	bool stalled = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CREADR_Stalled, v) != 0;
	uint32_t delta;

	q->creadr = v;
	/*
	 * A value from hardware: range-check it before it indexes the queue
	 * (docs/rationale.md#gic-its-bounds). All ones is a failed read (ITS off or
	 * unreachable), not a state: bits [31:20] and [4:1] are RES0, and with a 1 MiB queue its
	 * Offset 0xFFFE0 would otherwise pass for a real slot.
	 */
	if (off >= q->size || v == 0xFFFFFFFFu)
		return RD_BAD_;
	delta = off >= q->rd_off ? off - q->rd_off : off + q->size - q->rd_off;
	if (delta > q->pub_lin - q->rd_lin)
		return RD_BAD_; /* the ITS cannot pass GITS_CWRITER */
	q->rd_off = off;
	q->rd_lin += delta;
	/*
	 * QEMU 7.2 keeps Stalled set after a successful retry
	 * (docs/rationale.md#gic-its-queue-stall).
	 * A stalled ITS holds CREADR on an unconsumed command, so Stalled with
	 * every published command consumed proves the bit stale: from then on
	 * this ITS's bit is not trusted and only a lack of progress until the
	 * deadline counts as a stall. Progress after a Retry that ends on an
	 * unconsumed command with Stalled set is a new stall (architectural
	 * ITS; QEMU processes synchronously) and is trusted: marking the bit
	 * sticky there would turn every later stall of a conforming ITS into
	 * a full timeout.
	 */
	if (stalled && q->rd_lin == q->pub_lin)
		q->stalled_sticky = true;
	if (delta || !stalled)
		q->retry_pending = false;
	if (stalled && q->rd_lin < q->pub_lin && !q->stalled_sticky && !q->retry_pending)
		return RD_STALLED_;
	return RD_PROGRESS_;
}

static void diag_fill_(const struct virq_its_queue *q, struct virq_its_queue_diag *d, bool stalled)
{
	if (!d)
		return;
	memset(d, 0, sizeof(*d));
	d->creadr = q->creadr;
	d->cwriter = q->pub_off;
	d->offset = q->rd_off;
	d->stalled = stalled;
	memcpy(d->raw, slot_(q, q->rd_off), SLOT_);
	d->decode_status = virq_its_cmd_decode(d->raw, &d->cmd);
}

struct wait_arg_ {
	struct virq_its_queue *q;
	uint64_t want_lin; /* done when rd_lin >= want_lin */
	enum rd_result_ res;
	uint32_t pace; /* relax calls before the next GITS_CREADR read; 0 before the first */
};

/*
 * The relax calls until the next read, from the rate the last round showed:
 * @done bytes consumed during @pace relax calls, @left bytes still to go.
 * Aiming at half of what is left makes a wait of n commands at a steady
 * rate cost about log2(n) + n / LIBVIRQ_POLL_PACE_MAX_ reads (one per
 * command without pacing) and overshoot its end by no more than the rate
 * changed. No progress keeps the pace: a stall is seen as soon as before
 * the ITS last moved, and within one paced round after.
 */
static inline uint32_t pace_next_(uint32_t pace, uint64_t done, uint64_t left)
{
	uint64_t n;

	if (done == 0)
		return pace;
	/* left < 2^20 (the largest queue), pace <= LIBVIRQ_POLL_PACE_MAX_: no overflow */
	n = left * pace / (2 * done);
	if (n < 1)
		return 1;
	return n > LIBVIRQ_POLL_PACE_MAX_ ? LIBVIRQ_POLL_PACE_MAX_ : (uint32_t)n;
}

static LIBVIRQ_CF_CHECK_ bool wait_cond_(void *p)
{
	struct wait_arg_ *a = p;
	uint64_t before = a->q->rd_lin;

	a->res = creadr_read_(a->q);
	if (a->res != RD_PROGRESS_ || a->q->rd_lin >= a->want_lin)
		return true;
	/* The first read's progress spans no relax call of this wait: no rate yet. */
	a->pace = a->pace == 0
		      ? 1
		      : pace_next_(a->pace, a->q->rd_lin - before, a->want_lin - a->q->rd_lin);
	return false;
}

/*
 * Polls until rd_lin >= want_lin. Returns LIBVIRQ_OK, LIBVIRQ_ESTALLED,
 * LIBVIRQ_EHW or LIBVIRQ_ETIMEDOUT (the last two make the queue dead);
 * reports nothing: the public function that waited does (report_()), or
 * the ITS driver, which says which commands were waited for.
 */
static virq_status poll_consumed_(struct virq_its_queue *q, uint64_t want_lin,
				  struct virq_its_queue_diag *diag)
{
	struct wait_arg_ a = {q, want_lin, RD_PROGRESS_, 0};
	virq_status st = virq_poll_paced_(&q->hal, wait_cond_, &a, q->timeout_ns, &a.pace);
	bool stalled_bit = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CREADR_Stalled, q->creadr) != 0;

	if (a.res == RD_BAD_) {
		q->dead = true;
		diag_fill_(q, diag, stalled_bit);
		return LIBVIRQ_EHW;
	}
	if (st == LIBVIRQ_OK && q->rd_lin >= want_lin)
		return LIBVIRQ_OK;
	if (a.res == RD_STALLED_ || stalled_bit) {
		/* Trusted bit, or (sticky / retried) bit with no progress until the deadline. */
		diag_fill_(q, diag, true);
		return LIBVIRQ_ESTALLED;
	}
	q->dead = true;
	diag_fill_(q, diag, false);
	return LIBVIRQ_ETIMEDOUT;
}

/* The report of a failed queue operation, by the status the silent
 * internal functions returned (EDEAD, EHW, ESTALLED, ETIMEDOUT). */
static LIBVIRQ_COLD_ virq_status report_(const char *api, const struct virq_its_queue *q,
					 virq_status st)
{
	const struct virq_hal *hal = &q->hal;

	if (st == LIBVIRQ_EDEAD)
		return LIBVIRQ_FAIL_(api, hal, st,
				     "q dead after a failure (virq_its_queue_reset())");
	if (st == LIBVIRQ_EHW)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "GITS_CREADR=%x impossible (outside the queue, past "
				      "GITS_CWRITER=%x, or all ones)",
				      q->creadr, q->pub_off);
	if (st == LIBVIRQ_ESTALLED)
		return LIBVIRQ_FAILV_(
		    api, hal, st, "the ITS stalled on the command at GITS_CREADR=%x", q->creadr);
	if (st == LIBVIRQ_ETIMEDOUT)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "the ITS consumed nothing in timeout_ns=%u (GITS_CREADR=%x, "
				      "GITS_CWRITER=%x)",
				      q->timeout_ns, q->creadr, q->pub_off);
	return LIBVIRQ_FAILV_(api, hal, st, "queue operation failed with status %d",
			      (uint64_t)(int64_t)st);
}

/* ---- publishing ---- */
static void clean_range_(const struct virq_its_queue *q, uint32_t from, uint32_t to)
{
	if (to > from) {
		virq_dcache_clean_(&q->hal, slot_(q, from), to - from);
		return;
	}
	virq_dcache_clean_(&q->hal, slot_(q, from), q->size - from);
	if (to)
		virq_dcache_clean_(&q->hal, slot_(q, 0), to);
}

static void publish_(struct virq_its_queue *q)
{
	if (q->clean)
		clean_range_(q, q->pub_off, q->wr_off);
	virq_barrier_(&q->hal, LIBVIRQ_BARRIER_DMA_WMB);
	virq_wr64_(&q->hal, reg_(q, LIBVIRQ_GITS_CWRITER), q->wr_off);
	q->pub_off = q->wr_off;
	q->pub_lin = q->wr_lin;
}

/* virq_its_queue_publish() without its checks and report: EDEAD (dead). */
virq_status virq_its_queue_publish_(struct virq_its_queue *q, uint64_t *ticket)
{
	if (q->dead)
		return LIBVIRQ_EDEAD;
	if (q->wr_lin != q->pub_lin)
		publish_(q);
	if (ticket)
		*ticket = q->pub_lin;
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_publish(struct virq_its_queue *q, uint64_t *ticket)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	st = virq_its_queue_publish_(q, ticket);
	return st == LIBVIRQ_OK ? LIBVIRQ_OK : report_(api, q, st);
}

/* ---- pushing ---- */
/*
 * Makes room in a full queue: publishes what is pending and waits until
 * half of the queue is free (at least one slot), not just one slot. Waiting
 * for one slot would make a long batch against an ITS slower than the CPU
 * cost one GITS_CWRITER write and at least one GITS_CREADR read per command
 * from then on; with the low watermark a full queue costs one CWRITER write
 * per half queue, and the ITS still has half a queue of work when the next
 * publish comes, so it never runs dry (no bubble) while we refill.
 */
static virq_status make_space_(struct virq_its_queue *q)
{
	uint64_t limit = q->size - SLOT_;
	uint64_t room = (uint64_t)(q->size / SLOT_ - 1) / 2 * SLOT_;

	if (room < SLOT_)
		room = SLOT_;
	if (q->wr_lin != q->pub_lin)
		publish_(q);
	/* Consumed up to wr_lin - limit + room leaves room / SLOT_ free slots. */
	return poll_consumed_(q, q->wr_lin + room - limit, NULL);
}

uint32_t virq_its_queue_room_(struct virq_its_queue *q, uint8_t **slots)
{
	uint64_t used = q->wr_lin - q->rd_lin, limit = q->size - SLOT_;
	uint32_t free_slots, to_end;

	if (q->dead || used >= limit)
		return 0;
	free_slots = (uint32_t)((limit - used) / SLOT_);
	to_end = (q->size - q->wr_off) / SLOT_;
	*slots = slot_(q, q->wr_off);
	return free_slots < to_end ? free_slots : to_end;
}

void virq_its_queue_commit_(struct virq_its_queue *q, uint32_t n)
{
	q->wr_off += n * SLOT_;
	if (q->wr_off == q->size)
		q->wr_off = 0;
	q->wr_lin += (uint64_t)n * SLOT_;
}

/* Dead queue (EDEAD), or full queue: publish and wait (silent). */
static LIBVIRQ_COLD_ virq_status push_slow_(struct virq_its_queue *q)
{
	if (q->dead)
		return LIBVIRQ_EDEAD;
	return make_space_(q);
}

virq_status virq_its_queue_make_room_(struct virq_its_queue *q)
{
	return push_slow_(q);
}

/* Returns the slot for the next command, making room when full. */
static inline virq_status next_slot_(struct virq_its_queue *q, uint8_t **slot)
{
	if (__builtin_expect(q->dead || q->wr_lin - q->rd_lin >= q->size - SLOT_, 0)) {
		virq_status st = push_slow_(q);

		if (st != LIBVIRQ_OK)
			return st;
	}
	*slot = slot_(q, q->wr_off);
	return LIBVIRQ_OK;
}

static inline void advance_(struct virq_its_queue *q)
{
	q->wr_off += SLOT_;
	if (q->wr_off == q->size)
		q->wr_off = 0;
	q->wr_lin += SLOT_;
}

virq_status virq_its_queue_push(struct virq_its_queue *q, const struct virq_its_cmd *cmd,
				const struct virq_its_limits *lim, struct virq_its_sync *sync,
				enum virq_its_field *bad)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint8_t *slot;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (!cmd)
		return LIBVIRQ_FAIL_(api, &q->hal, LIBVIRQ_EINVAL, "cmd=NULL");
	st = next_slot_(q, &slot);
	if (st != LIBVIRQ_OK)
		return report_(api, q, st);
	/* The encoder writes the slot only on success: a rejected command leaves no trace. */
	st = virq_its_cmd_encode(cmd, lim, slot, sync, bad);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &q->hal, st, "the encoder rejected cmd->opcode=%x",
				      (uint64_t)cmd->opcode);
	advance_(q);
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_push_raw_(struct virq_its_queue *q,
				     const uint8_t raw[LIBVIRQ_ITS_CMD_SIZE])
{
	uint8_t *slot;
	virq_status st = next_slot_(q, &slot);

	if (st != LIBVIRQ_OK)
		return st;
	memcpy(slot, raw, SLOT_);
	advance_(q);
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_push_raw(struct virq_its_queue *q,
				    const uint8_t raw[LIBVIRQ_ITS_CMD_SIZE])
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (!raw)
		return LIBVIRQ_FAIL_(api, &q->hal, LIBVIRQ_EINVAL, "raw=NULL");
	st = virq_its_queue_push_raw_(q, raw);
	return st == LIBVIRQ_OK ? LIBVIRQ_OK : report_(api, q, st);
}

/* ---- waiting ---- */
/* The reset that ended the epoch of @ticket (ticket <= last_end, so at least
 * one reset was done): the oldest kept reset whose end is at or past it.
 * NULL when that reset is no longer kept. */
static const struct virq_its_queue_reset_rec *overtook_(const struct virq_its_queue *q,
							uint64_t ticket)
{
	const uint64_t kept =
	    q->epoch < LIBVIRQ_ITS_QUEUE_RESETS_KEPT ? q->epoch : LIBVIRQ_ITS_QUEUE_RESETS_KEPT;
	const struct virq_its_queue_reset_rec *r = NULL;

	for (uint64_t i = 1; i <= kept; i++) {
		const struct virq_its_queue_reset_rec *c =
		    &q->resets[(q->epoch - i) % LIBVIRQ_ITS_QUEUE_RESETS_KEPT];

		if (c->end < ticket)
			return r;
		r = c;
	}
	return q->epoch <= LIBVIRQ_ITS_QUEUE_RESETS_KEPT ? r : NULL;
}

/* A ticket of an earlier epoch: decided by the reset that ended it
 * (LIBVIRQ_OK, LIBVIRQ_ECANCELED, or LIBVIRQ_EINVAL when it is no longer kept;
 * unreported, see report_()). */
static LIBVIRQ_COLD_ virq_status old_ticket_(const struct virq_its_queue *q, uint64_t ticket)
{
	const struct virq_its_queue_reset_rec *r = overtook_(q, ticket);

	if (!r)
		return LIBVIRQ_EINVAL;
	return r->seen >= ticket ? LIBVIRQ_OK : LIBVIRQ_ECANCELED;
}

uint64_t virq_its_queue_seen_(const struct virq_its_queue *q, uint64_t ticket)
{
	const struct virq_its_queue_reset_rec *r;

	if (ticket > q->last_end || !q->epoch)
		return q->rd_lin < ticket ? q->rd_lin : ticket;
	r = overtook_(q, ticket);
	if (!r)
		return 0;
	return r->seen < ticket ? r->seen : ticket;
}

virq_status virq_its_queue_wait_(struct virq_its_queue *q, uint64_t ticket,
				 struct virq_its_queue_diag *diag)
{
	if (q->dead)
		return LIBVIRQ_EDEAD;
	if (q->rd_lin < ticket) /* of this epoch: earlier ones are behind rd_lin */
		return poll_consumed_(q, ticket, diag);
	if (__builtin_expect(ticket <= q->last_end, 0) && q->epoch)
		return old_ticket_(q, ticket);
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_test_(struct virq_its_queue *q, uint64_t ticket)
{
	if (q->dead)
		return LIBVIRQ_EDEAD;
	if (q->rd_lin < ticket) {
		/* One read; a stall or an impossible value is decided by the
		 * waiting form (which re-reads and reports it). */
		if (creadr_read_(q) != RD_PROGRESS_)
			return virq_its_queue_wait_(q, ticket, NULL);
		return q->rd_lin < ticket ? LIBVIRQ_EBUSY : LIBVIRQ_OK;
	}
	return virq_its_queue_wait_(q, ticket, NULL);
}

virq_status virq_its_queue_wait(struct virq_its_queue *q, uint64_t ticket,
				struct virq_its_queue_diag *diag)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (!q->dead && ticket > q->pub_lin)
		return LIBVIRQ_FAILV_(api, &q->hal, LIBVIRQ_EINVAL,
				      "ticket=%u > %u published (virq_its_queue_publish())", ticket,
				      q->pub_lin);
	st = virq_its_queue_wait_(q, ticket, diag);
	if (st == LIBVIRQ_OK)
		return LIBVIRQ_OK;
	if (st == LIBVIRQ_EINVAL)
		return LIBVIRQ_FAILV_(api, &q->hal, st,
				      "ticket=%u older than the last %u resets (undecidable)",
				      ticket, LIBVIRQ_ITS_QUEUE_RESETS_KEPT);
	if (st == LIBVIRQ_ECANCELED)
		return LIBVIRQ_FAILV_(
		    api, &q->hal, st,
		    "ticket=%u dropped by a queue reset (GITS_CREADR had passed %u)", ticket,
		    virq_its_queue_seen_(q, ticket));
	return report_(api, q, st);
}

virq_status virq_its_queue_drain_(struct virq_its_queue *q, struct virq_its_queue_diag *diag)
{
	uint64_t ticket = 0;
	virq_status st = virq_its_queue_publish_(q, &ticket);

	if (st != LIBVIRQ_OK)
		return st;
	return virq_its_queue_wait_(q, ticket, diag);
}

virq_status virq_its_queue_drain(struct virq_its_queue *q, struct virq_its_queue_diag *diag)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	st = virq_its_queue_drain_(q, diag);
	return st == LIBVIRQ_OK ? LIBVIRQ_OK : report_(api, q, st);
}

/* virq_its_queue_submit(): @cmd and the SYNC/VSYNC it needs, encoded into @raw
 * (all or nothing); returns how many in *n. */
static virq_status submit_encode_(const char *api, struct virq_its_queue *q,
				  const struct virq_its_cmd *cmd, const struct virq_its_limits *lim,
				  struct virq_its_sync *sync, uint8_t raw[3][SLOT_], size_t *n)
{
	struct virq_its_sync s;
	struct virq_its_cmd sc[2];
	virq_status st;

	*n = 0;
	st = virq_its_cmd_encode(cmd, lim, raw[0], &s, NULL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &q->hal, st, "the encoder rejected cmd->opcode=%x",
				      (uint64_t)cmd->opcode);
	if (sync)
		*sync = s;
	/* The source of a move first (MOVALL RDbase1), then the target. */
	if (s.src_kind == LIBVIRQ_ITS_SYNC_RDBASE)
		sc[(*n)++] = virq_its_sync_cmd(s.src_RDbase);
	if (s.kind == LIBVIRQ_ITS_SYNC_RDBASE)
		sc[(*n)++] = virq_its_sync_cmd(s.RDbase);
	else if (s.kind == LIBVIRQ_ITS_SYNC_VPEID)
		sc[(*n)++] = virq_its_vsync_cmd(s.vPEID);
	for (size_t i = 0; i < *n; i++) {
		st = virq_its_cmd_encode(&sc[i], lim, raw[i + 1], NULL, NULL);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV_(api, &q->hal, st,
					      "the encoder rejected the SYNC/VSYNC (opcode=%x) "
					      "after cmd->opcode=%x",
					      (uint64_t)sc[i].opcode, (uint64_t)cmd->opcode);
	}
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_submit(struct virq_its_queue *q, const struct virq_its_cmd *cmd,
				  const struct virq_its_limits *lim, struct virq_its_sync *sync,
				  struct virq_its_queue_diag *diag)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint8_t raw[3][SLOT_];
	size_t n;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (!cmd)
		return LIBVIRQ_FAIL_(api, &q->hal, LIBVIRQ_EINVAL, "cmd=NULL");
	/* Encode everything first, so that an encoder error queues nothing. */
	st = submit_encode_(api, q, cmd, lim, sync, raw, &n);
	if (st != LIBVIRQ_OK)
		return st;
	for (size_t i = 0; i <= n && st == LIBVIRQ_OK; i++)
		st = virq_its_queue_push_raw_(q, raw[i]);
	if (st == LIBVIRQ_OK)
		st = virq_its_queue_drain_(q, diag);
	return st == LIBVIRQ_OK ? LIBVIRQ_OK : report_(api, q, st);
}

/* ---- stalls ---- */
virq_status virq_its_queue_stall_info(struct virq_its_queue *q, struct virq_its_queue_diag *diag)
{
	const char *const api = LIBVIRQ_ENTRY_;
	enum rd_result_ r;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (q->dead)
		return report_(api, q, LIBVIRQ_EDEAD);
	r = creadr_read_(q);
	if (r == RD_BAD_) {
		q->dead = true;
		diag_fill_(q, diag, false);
		return report_(api, q, LIBVIRQ_EHW);
	}
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CREADR_Stalled, q->creadr) && q->rd_lin < q->pub_lin) {
		diag_fill_(q, diag, true);
		return report_(api, q, LIBVIRQ_ESTALLED);
	}
	return LIBVIRQ_OK;
}

/* virq_its_queue_retry() of a live queue: EDEAD (dead), silent. */
static virq_status retry_(struct virq_its_queue *q)
{
	if (q->dead)
		return LIBVIRQ_EDEAD;
	virq_barrier_(&q->hal, LIBVIRQ_BARRIER_DMA_WMB);
	virq_wr64_(&q->hal, reg_(q, LIBVIRQ_GITS_CWRITER),
		   q->pub_off | LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CWRITER_Retry, 1));
	q->retry_pending = true;
	return LIBVIRQ_OK;
}

virq_status virq_its_queue_retry(struct virq_its_queue *q)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	st = retry_(q);
	return st == LIBVIRQ_OK ? LIBVIRQ_OK : report_(api, q, st);
}

virq_status virq_its_queue_skip(struct virq_its_queue *q, const struct virq_its_cmd *nop,
				const struct virq_its_limits *lim)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint8_t raw[SLOT_];
	virq_status st;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	if (!nop)
		return LIBVIRQ_FAIL_(api, &q->hal, LIBVIRQ_EINVAL, "nop=NULL");
	if (q->dead)
		return report_(api, q, LIBVIRQ_EDEAD);
	st = virq_its_cmd_encode(nop, lim, raw, NULL, NULL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &q->hal, st, "the encoder rejected nop->opcode=%x",
				      (uint64_t)nop->opcode);
	if (creadr_read_(q) == RD_BAD_) {
		q->dead = true;
		return report_(api, q, LIBVIRQ_EHW);
	}
	/* Only a stalled ITS leaves the slot at CREADR alone while we rewrite it. */
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CREADR_Stalled, q->creadr))
		return LIBVIRQ_FAILV_(api, &q->hal, LIBVIRQ_EINVAL,
				      "GITS_CREADR=%x: Stalled=0 (the ITS is not stalled)",
				      q->creadr);
	if (q->rd_lin >= q->pub_lin)
		return LIBVIRQ_FAILV_(api, &q->hal, LIBVIRQ_EINVAL,
				      "GITS_CREADR=%x: every published command consumed (nothing "
				      "to skip)",
				      q->creadr);
	memcpy(slot_(q, q->rd_off), raw, SLOT_);
	if (q->clean)
		virq_dcache_clean_(&q->hal, slot_(q, q->rd_off), SLOT_);
	return retry_(q);
}

/* ---- reset ---- */
/* Records a reset (GITS_CREADR showed rd_lin; everything up to wr_lin was
 * pushed) and starts the next epoch one slot past it. */
static void reset_record_(struct virq_its_queue *q)
{
	struct virq_its_queue_reset_rec *r = &q->resets[q->epoch % LIBVIRQ_ITS_QUEUE_RESETS_KEPT];

	r->seen = q->rd_lin;
	r->end = q->wr_lin;
	q->epoch++;
	q->last_end = q->wr_lin;
	positions_at_(q, q->wr_lin + SLOT_);
}

virq_status virq_its_queue_reset(struct virq_its_queue *q)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint64_t consumed;

	if (!q_live_(q))
		return Q_DEAD_(api, q);
	return virq_its_queue_reset_seen_(api, q, &consumed);
}

virq_status virq_its_queue_reset_seen_(const char *api, struct virq_its_queue *q,
				       uint64_t *consumed_lin)
{
	const uint32_t en = (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Enabled) |
				       LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_ImDe));
	const uint32_t quiescent = (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Quiescent);
	uint32_t ctlr;
	uint64_t rb;
	virq_status st;

	*consumed_lin = q->rd_lin; /* a lower bound until the ITS is quiescent */
	q->dead = true;		   /* until the end */
	ctlr = virq_rd32_(&q->hal, reg_(q, LIBVIRQ_GITS_CTLR));
	if (ctlr & en)
		virq_wr32_(&q->hal, reg_(q, LIBVIRQ_GITS_CTLR), ctlr & ~en);
	st = virq_poll32(&q->hal, reg_(q, LIBVIRQ_GITS_CTLR), quiescent, quiescent, q->timeout_ns,
			 NULL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &q->hal, st,
				      "GITS_CTLR.Quiescent still 0 after timeout_ns=%u (queue not "
				      "reset)",
				      q->timeout_ns);
	/* Quiescent: the ITS processes no command, so GITS_CREADR now says
	 * exactly which commands ran (IHI 0069H §5.2, §12 GITS_CTLR.Quiescent,
	 * GITS_CREADR): read it once more rather than assume that nothing ran
	 * since the last poll. The commands after it are dropped below. */
	if (creadr_read_(q) == RD_BAD_)
		return LIBVIRQ_FAILV_(api, &q->hal, LIBVIRQ_EHW,
				      "GITS_CREADR=%x impossible once the ITS is quiescent",
				      q->creadr);
	*consumed_lin = q->rd_lin;
	/* Rewriting GITS_CBASER resets GITS_CREADR to 0 and clears Stalled. */
	rb = cbaser_write_(q, q->cbaser);
	if (rb != q->cbaser)
		return LIBVIRQ_FAILV_(api, &q->hal, LIBVIRQ_EHW,
				      "GITS_CBASER read back %x, not %x as before", rb, q->cbaser);
	virq_wr64_(&q->hal, reg_(q, LIBVIRQ_GITS_CWRITER), 0);
	reset_record_(q);
	if (ctlr & en)
		virq_wr32_(&q->hal, reg_(q, LIBVIRQ_GITS_CTLR), ctlr & ~quiescent);
	return LIBVIRQ_OK;
}
