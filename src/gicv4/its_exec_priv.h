/* SPDX-License-Identifier: MIT */
/* Private: internal functions of its_exec.c (command batches, RDbase,
 * collections, event tracking lookups) used by every ITS-side file. */
#ifndef LIBVIRQ_SRC_GICV4_ITS_EXEC_PRIV_H
#define LIBVIRQ_SRC_GICV4_ITS_EXEC_PRIV_H

#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include "gicv4_priv.h"
#include "its_queue_priv.h"

/* Most commands one library operation sends in one batch. */
#define ITS_BATCH_MAX 8u

/* The embedder's lock around @its's shared state (::virq_its_lock): every
 * public function that uses an ITS takes it around that use, one ITS at a
 * time, and releases it on every path. Everything below that touches the
 * queue, the tables or the ITS's tracking runs with it held. No-ops when
 * the embedder installed none. */
void virq_its_lock_(struct virq_its *its);
void virq_its_unlock_(struct virq_its *its);

/* Encodes @n commands (all or nothing), pushes them, publishes once and
 * waits. On a queue failure resets the queue (dropping what was not
 * consumed); if that fails the ITS becomes dead. Lock held. */
virq_status virq_its_exec_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n);
/* After a queue failure: resets the queue, or marks the ITS dead. Lock held. */
void virq_its_fail_(struct virq_its *its, virq_status st);
/* virq_its_fail_() that says what ran: *consumed_lin gets the linear queue
 * position GITS_CREADR reached (read once the ITS was quiescent). True:
 * the reset worked, so exactly the commands before *consumed_lin ran and
 * no later one will; false: the ITS is dead and *consumed_lin is a lower
 * bound (later commands may or may not have run). Lock held. */
bool virq_its_fail_seen_(struct virq_its *its, virq_status st, uint64_t *consumed_lin);

/* What a failed batch did to the ITS (docs/gicv4-core.md "Failures"):
 * commands [0, ran) ran; when @exact, commands [ran, n) did not and never
 * will; otherwise each of them may or may not have run. */
struct virq_its_ran {
	size_t ran;
	bool exact;
};

/* virq_its_exec_() that fills *ran on every return (on success: all ran;
 * on a failure before anything was queued: none, exact). Lock held. */
virq_status virq_its_exec_seen_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n,
				struct virq_its_ran *ran);

/* Deferred completion (virq_its_device_set_deferred()). */
/* virq_its_lock_() for a call on @dev that first settles the ITS's deferred
 * batches (waiting) unless the call is @deferrable on a deferred device
 * and there is room for its batch and no reset came since: so no call
 * looks at an event whose tracking a settle could still restore. */
void virq_its_lock_dev_(struct virq_its_device *dev, bool deferrable);
/* virq_its_exec_seen_() of a deferrable call's batch on (@dev, @event),
 * lock held (taken with virq_its_lock_dev_(dev, true)): on a deferred device
 * published without a wait and journaled (*ran: all ran), the event's
 * tracking before the call kept to restore when @undo (the call changes
 * it) and the ITS never runs the batch. */
virq_status virq_its_exec_ev_(struct virq_its_device *dev, uint32_t event,
			      const struct virq_its_cmd *cmds, size_t n, bool undo,
			      struct virq_its_ran *ran);
/* virq_its_lock_() that first settles the deferred batches (logged), for
 * a call whose own batch would otherwise queue behind them and fail with
 * them (the VMOVP's publish-then-wait). */
void virq_its_lock_settled_(struct virq_its *its);
/* virq_its_settle() with the lock held, reporting under @p api (NULL: a
 * settle on another call's behalf, only logged: not that call's failure). */
virq_status virq_its_settle_locked_(const char *api, struct virq_its *its, bool wait);

/* @vpe's vLPI count up or down by @n. Atomic: a settle on one ITS may
 * restore a vLPI of a vPE while a call on another ITS (another lock) maps
 * or unmaps one of its vLPIs. */
static inline void vpe_vlpis_inc_(struct virq_vpe *vpe, uint32_t n)
{
	(void)__atomic_fetch_add(&vpe->nr_vlpis, n, __ATOMIC_RELAXED);
}

static inline void vpe_vlpis_dec_(struct virq_vpe *vpe, uint32_t n)
{
	(void)__atomic_fetch_sub(&vpe->nr_vlpis, n, __ATOMIC_RELAXED);
}

/* The failure path of virq_its_wait_seen_() (below). */
LIBVIRQ_COLD_ virq_status virq_its_wait_failed_(struct virq_its *its, virq_status st, uint64_t base,
						size_t n, uint64_t ticket,
						struct virq_its_ran *ran);

/* Waits for @ticket, published in an earlier hold of the lock: other CPUs
 * may have used the queue since, and reset it after a failure of theirs
 * (the queue then decides from that reset: docs/gicv4-core.md "SMP"). @n
 * commands were queued from linear position @base; *ran says what ran as
 * for virq_its_exec_seen_() (not exact when the ITS is dead, or the ticket
 * is older than the resets kept). A failure of this wait resets the queue
 * (or marks the ITS dead); LIBVIRQ_ECANCELED: another reset dropped them.
 * Lock held. */
static inline virq_status virq_its_wait_seen_(struct virq_its *its, uint64_t base, size_t n,
					      uint64_t ticket, struct virq_its_ran *ran)
{
	virq_status st;

	ran->ran = 0;
	ran->exact = false; /* published: they may have run */
	if (its->dead)
		return LIBVIRQ_EDEAD;
	st = virq_its_queue_wait_(&its->q, ticket, NULL);
	if (__builtin_expect(st != LIBVIRQ_OK, 0))
		return virq_its_wait_failed_(its, st, base, n, ticket, ran);
	ran->ran = n;
	ran->exact = true;
	its->cmds += n;
	return LIBVIRQ_OK;
}

/* True when command @i of a failed batch may have run (ran, or unknown). */
static inline bool its_may_have_run_(const struct virq_its_ran *r, size_t i)
{
	return i < r->ran || !r->exact;
}

/* RDbase of redistributor @rd as this ITS wants it (PTA). */
uint64_t virq_its_rdbase_(const struct virq_its *its, uint32_t rd);

/* True when collection @icid is mapped on @its. */
bool virq_its_col_mapped_(const struct virq_its *its, uint32_t icid);

/*
 * Event tracking, in dev->ev: 12 bytes an event on a 64-bit host (13 when
 * the GIC is driven with more than 16 INTID bits), as arrays so that the
 * pointers stay aligned: first nr_events vPE pointers (a vLPI's or a proxy
 * slot's vPE, NULL otherwise), then nr_events words {intid, aux}, then,
 * only with more than 16 INTID bits (virq_gic::lpi_bits, at most
 * LIBVIRQ_LPI_BITS_MAX_ = 24), nr_events bytes holding INTID bits [23:16].
 * INTID 0: not mapped (LPIs start at 8192). aux: the ICID of a physical LPI
 * or of a proxy slot (ICIDs are 16 bits: MAPC, IHI 0069H §5.3); for a vLPI,
 * 1 when its doorbell is on (GICv4.0: the vPE's doorbell; 0 means 1023).
 * What an event is follows: a proxy slot on the proxy device, a vLPI with a
 * vPE, a physical LPI without one. virq_its_event_get() gives the public
 * ::virq_its_event view.
 */
struct virq_its_evw_ {
	uint16_t intid;
	uint16_t aux;
};

#define LIBVIRQ_ITS_EV_BYTES_ (sizeof(struct virq_vpe *) + sizeof(struct virq_its_evw_))

LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_LPI_BITS_MAX_ <= 24u, "tracked INTIDs fit 16 + 8 bits");

/* Tracking bytes an event of a device on @gic. */
static inline uint64_t ev_bytes_(const struct virq_gic *gic)
{
	return LIBVIRQ_ITS_EV_BYTES_ + (gic->lpi_bits > 16u ? 1u : 0u);
}

static inline struct virq_vpe **ev_vpe_(const struct virq_its_device *dev)
{
	return (struct virq_vpe **)dev->ev.va;
}

static inline struct virq_its_evw_ *ev_w_(const struct virq_its_device *dev)
{
	return (struct virq_its_evw_ *)(void *)(ev_vpe_(dev) + dev->nr_events);
}

/* INTID bits [23:16] of every event, or NULL with at most 16 INTID bits. */
static inline uint8_t *ev_hi_(const struct virq_its_device *dev)
{
	if (dev->its->gic->lpi_bits <= 16u)
		return NULL;
	return (uint8_t *)(void *)(ev_w_(dev) + dev->nr_events);
}

static inline uint32_t ev_intid_(const struct virq_its_device *dev, uint32_t event)
{
	const uint8_t *hi = ev_hi_(dev);
	uint32_t lo = ev_w_(dev)[event].intid;

	return hi ? lo | (uint32_t)hi[event] << 16 : lo;
}

/* ::virq_its_event_kind of @event. */
static inline uint32_t ev_kind_(const struct virq_its_device *dev, uint32_t event)
{
	if (!ev_intid_(dev, event))
		return LIBVIRQ_ITS_EV_NONE;
	if (dev == dev->its->proxy)
		return LIBVIRQ_ITS_EV_PROXY;
	return ev_vpe_(dev)[event] ? LIBVIRQ_ITS_EV_VIRT : LIBVIRQ_ITS_EV_PHYS;
}

/* The ICID of a physical LPI or a proxy slot. */
static inline uint32_t ev_icid_(const struct virq_its_device *dev, uint32_t event)
{
	return ev_w_(dev)[event].aux;
}

static inline struct virq_vpe *ev_vpe_at_(const struct virq_its_device *dev, uint32_t event)
{
	return ev_vpe_(dev)[event];
}

/* A vLPI's doorbell is on (GICv4.0: its VMAPTI/VMOVI named the vPE's). */
static inline bool ev_db_on_(const struct virq_its_device *dev, uint32_t event)
{
	return ev_w_(dev)[event].aux != 0;
}

/* Records @event: @vpe (NULL for a physical LPI), INTID @intid (8192 ..
 * 2^lpi_bits - 1), @aux as above. */
static inline void ev_set_(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
			   uint32_t intid, uint32_t aux)
{
	uint8_t *hi = ev_hi_(dev);

	ev_vpe_(dev)[event] = vpe;
	ev_w_(dev)[event].intid = (uint16_t)(intid & 0xFFFFu);
	ev_w_(dev)[event].aux = (uint16_t)aux;
	if (hi)
		hi[event] = (uint8_t)(intid >> 16);
}

/* The first mapped event of [@first, @first + @count), or @first + @count. */
static inline uint32_t ev_first_mapped_(const struct virq_its_device *dev, uint32_t first,
					uint32_t count)
{
	const struct virq_its_evw_ *w = ev_w_(dev) + first;
	const uint8_t *hi = ev_hi_(dev);

	for (uint32_t i = 0; i < count; i++)
		if (w[i].intid || (hi && hi[first + i]))
			return first + i;
	return first + count;
}

/* Events [@first, @first + @count) vLPIs of @vpe from vINTID @first_vintid
 * (the range below 2^lpi_bits), doorbell on when @db_on. The map_range hot
 * path: the arrays' addresses taken once. */
static inline void ev_set_vlpis_(struct virq_its_device *dev, uint32_t first, uint32_t count,
				 struct virq_vpe *vpe, uint32_t first_vintid, bool db_on)
{
	struct virq_vpe **ref = ev_vpe_(dev) + first;
	struct virq_its_evw_ *w = ev_w_(dev) + first;
	uint8_t *hi = ev_hi_(dev);

	for (uint32_t i = 0; i < count; i++) {
		ref[i] = vpe;
		w[i].intid = (uint16_t)((first_vintid + i) & 0xFFFFu);
		w[i].aux = db_on;
	}
	if (hi)
		for (uint32_t i = 0; i < count; i++)
			hi[first + i] = (uint8_t)((first_vintid + i) >> 16);
}

/* Events [@first, @first + @count) not mapped. */
static inline void ev_clear_range_(struct virq_its_device *dev, uint32_t first, uint32_t count)
{
	uint8_t *hi = ev_hi_(dev);

	memset(ev_vpe_(dev) + first, 0, (size_t)count * sizeof(struct virq_vpe *));
	memset(ev_w_(dev) + first, 0, (size_t)count * sizeof(struct virq_its_evw_));
	if (hi)
		memset(hi + first, 0, count);
}

static inline void ev_clear_(struct virq_its_device *dev, uint32_t event)
{
	ev_clear_range_(dev, event, 1);
}

/* The SYNC (collection's RD) or VSYNC (vPE) that follows a command on
 * @event of @dev. */
struct virq_its_cmd virq_its_ev_sync_(const struct virq_its *its, const struct virq_its_device *dev,
				      uint32_t event);

#endif /* LIBVIRQ_SRC_GICV4_ITS_EXEC_PRIV_H */
