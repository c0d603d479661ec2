/* SPDX-License-Identifier: MIT */
/*
 * ITS command batches: encode all, push, publish once, wait (bounded); the
 * queue-failure policy (reset, or the ITS becomes dead); RDbase by
 * GITS_TYPER.PTA; the SYNC or VSYNC an event's commands need; collection
 * lookups; the embedder's ITS lock. The layer every ITS-side file uses; it
 * calls only the command encoders and the queue.
 * Spec: Arm IHI 0069H §5.2 (command queue), §5.3 (SYNC, VSYNC, RDbase).
 */
#include "its_exec_priv.h"
#include "its_queue_priv.h"

void virq_its_lock_(struct virq_its *its)
{
	if (its->lock.acquire)
		(its->lock.acquire)(its->lock.arg);
}

void virq_its_unlock_(struct virq_its *its)
{
	if (its->lock.release)
		(its->lock.release)(its->lock.arg);
}

uint64_t virq_its_rdbase_(const struct virq_its *its, uint32_t rd)
{
	if (its->lim.pta)
		return its->gic->rd[rd].rd_base;
	return virq_its_rdbase_procnum(rd_procnum_(its->gic, rd));
}

bool virq_its_fail_seen_(struct virq_its *its, virq_status st, uint64_t *consumed_lin)
{
	LIBVIRQ_LOGV(&its->gic->hal, LIBVIRQ_LOG_ERROR, "its: command queue failed", its->base,
		     (uint64_t)(int64_t)st);
	/* The reset decides the deferred batches: the next deferrable call
	 * settles them before it looks at the tracking. */
	if (its->nr_deferred)
		its->deferred_reset = true;
	if (virq_its_queue_reset_seen_(NULL, &its->q, consumed_lin) != LIBVIRQ_OK) {
		its->dead = true;
		return false;
	}
	return true;
}

void virq_its_fail_(struct virq_its *its, virq_status st)
{
	uint64_t consumed;

	(void)virq_its_fail_seen_(its, st, &consumed);
}

/* How many of @n commands queued from linear position @base ran, given
 * the position GITS_CREADR reached. */
static size_t ran_of_(uint64_t base, size_t n, uint64_t consumed_lin)
{
	uint64_t k;

	if (consumed_lin <= base)
		return 0;
	k = (consumed_lin - base) / LIBVIRQ_ITS_CMD_SIZE;
	return k < n ? (size_t)k : n;
}

/* Encodes and pushes @n commands; with @publish also writes GITS_CWRITER
 * (*ticket: the position after them); otherwise drains. On a queue failure
 * resets the queue (or marks the ITS dead) and fills *ran. */
static virq_status exec_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n,
			 struct virq_its_ran *ran, uint64_t *ticket)
{
	uint8_t raw[ITS_BATCH_MAX][LIBVIRQ_ITS_CMD_SIZE];
	uint64_t base, consumed;
	virq_status st;

	ran->ran = 0;
	ran->exact = true; /* nothing sent yet */
	/* A waiting batch queued behind deferred ones would fail with them:
	 * they are settled first (logged, not this call's failure). */
	if (!ticket && its->nr_deferred)
		(void)virq_its_settle_locked_(NULL, its, true);
	if (its->dead)
		return LIBVIRQ_EDEAD;
	if (n > ITS_BATCH_MAX)
		return LIBVIRQ_EINVAL;
	for (size_t i = 0; i < n; i++) {
		st = virq_its_cmd_encode(&cmds[i], &its->lim, raw[i], NULL, NULL);
		if (st != LIBVIRQ_OK)
			return st;
	}
	base = its->q.wr_lin; /* linear position of the first command */
	st = LIBVIRQ_OK;
	for (size_t i = 0; st == LIBVIRQ_OK && i < n; i++)
		st = virq_its_queue_push_raw_(&its->q, raw[i]);
	if (st == LIBVIRQ_OK)
		st = ticket ? virq_its_queue_publish_(&its->q, ticket)
			    : virq_its_queue_drain_(&its->q, NULL);
	if (st != LIBVIRQ_OK) {
		ran->exact = virq_its_fail_seen_(its, st, &consumed);
		ran->ran = ran_of_(base, n, consumed);
		return st;
	}
	ran->ran = n;
	its->cmds += n;
	return LIBVIRQ_OK;
}

virq_status virq_its_exec_seen_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n,
				struct virq_its_ran *ran)
{
	return exec_(its, cmds, n, ran, NULL);
}

/* ---- deferred completion (virq_its_device_set_deferred()) ---- */

/* Puts @d's event back as it was tracked before its call. Deferred calls
 * move an event only between "not mapped" and "a vLPI", so no physical
 * LPI's reference count is involved. */
static void deferred_restore_(const struct virq_its_deferred *d)
{
	struct virq_its_device *dev = d->dev;
	struct virq_vpe *cur = ev_vpe_at_(dev, d->event);

	if (ev_kind_(dev, d->event) != LIBVIRQ_ITS_EV_NONE) {
		if (cur)
			vpe_vlpis_dec_(cur, 1);
		dev->nr_mapped--;
	}
	if (!d->intid) {
		ev_clear_(dev, d->event);
		return;
	}
	ev_set_(dev, d->event, d->vpe, d->intid, d->aux);
	vpe_vlpis_inc_(d->vpe, 1);
	dev->nr_mapped++;
}

/* What became of deferred batch @d once its ticket is decided (@st: what
 * virq_its_queue_wait_() says of it now): true when it ran. A batch the
 * ITS never reached gets its event's tracking back; each other outcome is
 * logged with its DeviceID and event. */
static LIBVIRQ_COLD_ bool deferred_decide_(struct virq_its *its, const struct virq_its_deferred *d,
					   virq_status st, uint32_t *undone)
{
	const struct virq_hal *hal = &its->gic->hal;

	if (st == LIBVIRQ_OK)
		return true;
	if (st == LIBVIRQ_ECANCELED && virq_its_queue_seen_(&its->q, d->end) <= d->base) {
		its->deferred_undone++;
		(*undone)++;
		if (d->undo)
			deferred_restore_(d);
		LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_ERROR,
			     "its: deferred batch not run (DeviceID, event, tracking restored)",
			     d->dev->device_id, d->event, d->undo);
	} else if (st == LIBVIRQ_ECANCELED) {
		LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_ERROR,
			     "its: deferred batch ran, its SYNC/VSYNC not (DeviceID, event)",
			     d->dev->device_id, d->event);
	} else {
		LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_ERROR,
			     "its: deferred batch may have run, tracked as the call left it "
			     "(DeviceID, event, status)",
			     d->dev->device_id, d->event, (uint64_t)(int64_t)st);
	}
	return false;
}

/* Decides every deferred batch after a reset came between (each by the
 * reset after it), newest first so that restored tracking ends as the
 * oldest had it; *cause gets the first failure if it has none. Returns how
 * many did not complete. */
static LIBVIRQ_COLD_ uint32_t deferred_decide_all_(struct virq_its *its, virq_status *cause,
						   uint32_t *undone)
{
	uint32_t bad = 0;
	uint64_t consumed;
	virq_status st;

	for (uint32_t i = its->nr_deferred; i-- > 0;) {
		const struct virq_its_deferred *d = &its->deferred[i];

		st = its->dead ? LIBVIRQ_EDEAD : virq_its_queue_wait_(&its->q, d->end, NULL);
		/* A batch of this epoch whose wait failed: the reset decides it. */
		if (st == LIBVIRQ_ETIMEDOUT || st == LIBVIRQ_ESTALLED || st == LIBVIRQ_EHW) {
			if (*cause == LIBVIRQ_OK)
				*cause = st;
			(void)virq_its_fail_seen_(its, st, &consumed);
			st = virq_its_queue_wait_(&its->q, d->end, NULL);
		}
		if (!deferred_decide_(its, d, st, undone)) {
			bad++;
			if (*cause == LIBVIRQ_OK)
				*cause = st;
		}
	}
	return bad;
}

virq_status virq_its_settle_locked_(const char *api, struct virq_its *its, bool wait)
{
	const struct virq_its_deferred *last;
	virq_status st, cause = LIBVIRQ_OK;
	uint32_t n = its->nr_deferred, bad, undone = 0;
	uint64_t consumed;

	if (!n)
		return LIBVIRQ_OK;
	last = &its->deferred[n - 1];
	if (its->dead) /* each batch may have run: tracked as its call left it */
		cause = LIBVIRQ_EDEAD;
	else if (its->q.epoch == its->deferred_epoch && !its->deferred_reset) {
		/* One epoch: the queue runs in order, so the last batch decides. */
		st = LIBVIRQ_EBUSY;
		if (!wait) {
			st = virq_its_queue_test_(&its->q, last->end);
			if (st == LIBVIRQ_EBUSY &&
			    virq_clock_delta_(its->deferred_t0, virq_now_(&its->gic->hal)) <
				its->q.timeout_ns)
				return LIBVIRQ_EBUSY;
		}
		if (st == LIBVIRQ_EBUSY) { /* waiting, or the look found it too old */
			its->deferred_waits++;
			st = virq_its_queue_wait_(&its->q, last->end, NULL);
		}
		if (st == LIBVIRQ_OK) {
			its->nr_deferred = 0;
			return LIBVIRQ_OK;
		}
		/* This wait failed: the reset says what ran (or the ITS is dead). */
		cause = st;
		if (st != LIBVIRQ_EDEAD)
			(void)virq_its_fail_seen_(its, st, &consumed);
	}
	bad = deferred_decide_all_(its, &cause, &undone);
	its->nr_deferred = 0;
	its->deferred_reset = false;
	if (!bad)
		return LIBVIRQ_OK;
	if (!api) {
		LIBVIRQ_LOGV(&its->gic->hal, LIBVIRQ_LOG_ERROR,
			     "its: deferred batches did not complete (count, never ran)", bad,
			     undone);
		return cause;
	}
	return LIBVIRQ_FAILV_(api, &its->gic->hal, cause,
			      "%u of %u deferred batches did not complete (%u never ran: "
			      "tracking restored)",
			      bad, n, undone);
}

void virq_its_lock_settled_(struct virq_its *its)
{
	virq_its_lock_(its);
	if (its->nr_deferred)
		(void)virq_its_settle_locked_(NULL, its, true); /* logged */
}

void virq_its_lock_dev_(struct virq_its_device *dev, bool deferrable)
{
	struct virq_its *its = dev->its;

	virq_its_lock_(its);
	if (!its->nr_deferred)
		return;
	if (!deferrable || !dev->deferred || its->deferred_reset ||
	    its->q.epoch != its->deferred_epoch || its->nr_deferred == LIBVIRQ_ITS_DEFER_MAX)
		(void)virq_its_settle_locked_(NULL, its,
					      true); /* logged, not this call's failure */
}

virq_status virq_its_exec_ev_(struct virq_its_device *dev, uint32_t event,
			      const struct virq_its_cmd *cmds, size_t n, bool undo,
			      struct virq_its_ran *ran)
{
	struct virq_its *its = dev->its;
	struct virq_its_deferred *d;
	uint64_t base = its->q.wr_lin, ticket;
	virq_status st;

	/* A physical LPI's calls wait: its reference count is not journaled. */
	if (!dev->deferred || its->nr_deferred == LIBVIRQ_ITS_DEFER_MAX ||
	    ev_kind_(dev, event) == LIBVIRQ_ITS_EV_PHYS)
		return exec_(its, cmds, n, ran, NULL);
	st = exec_(its, cmds, n, ran, &ticket);
	if (st != LIBVIRQ_OK)
		return st;
	if (!its->nr_deferred) {
		its->deferred_epoch = its->q.epoch;
		its->deferred_t0 = virq_now_(&its->gic->hal);
	}
	d = &its->deferred[its->nr_deferred++];
	d->dev = dev;
	d->event = event;
	d->base = base;
	d->end = ticket;
	d->undo = undo;
	d->vpe = ev_vpe_at_(dev, event);
	d->intid = ev_intid_(dev, event);
	d->aux = ev_w_(dev)[event].aux;
	its->deferred_batches++;
	return LIBVIRQ_OK;
}

virq_status virq_its_settle(struct virq_its *its, bool wait)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!its_live_(its))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "its", its);
	virq_its_lock_(its);
	st = virq_its_settle_locked_(api, its, wait);
	virq_its_unlock_(its);
	return st;
}

virq_status virq_its_device_set_deferred(struct virq_its_device *dev, bool on)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = LIBVIRQ_OK;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_(dev->its);
	if (!on)
		st = virq_its_settle_locked_(api, dev->its, true);
	dev->deferred = on;
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_its_wait_failed_(struct virq_its *its, virq_status st, uint64_t base, size_t n,
				  uint64_t ticket, struct virq_its_ran *ran)
{
	uint64_t seen = virq_its_queue_seen_(&its->q, ticket);

	/* ECANCELED: another caller's reset dropped them, exactly from seen on;
	 * EINVAL: a ticket older than the resets kept (unknown); otherwise this
	 * wait failed and the reset says what ran. */
	ran->exact = false;
	if (st == LIBVIRQ_ECANCELED)
		ran->exact = true;
	else if (st != LIBVIRQ_EINVAL)
		ran->exact = virq_its_fail_seen_(its, st, &seen);
	ran->ran = ran_of_(base, n, seen);
	return st;
}

virq_status virq_its_exec_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n)
{
	struct virq_its_ran ran;

	return virq_its_exec_seen_(its, cmds, n, &ran);
}

struct virq_its_cmd virq_its_ev_sync_(const struct virq_its *its, const struct virq_its_device *dev,
				      uint32_t event)
{
	if (ev_kind_(dev, event) == LIBVIRQ_ITS_EV_VIRT)
		return virq_its_vsync_cmd(ev_vpe_at_(dev, event)->vpeid);
	return virq_its_sync_cmd(virq_its_rdbase_(its, ev_icid_(dev, event)));
}

bool virq_its_col_mapped_(const struct virq_its *its, uint32_t icid)
{
	return icid < its->gic->nr_rd && bm_test_(its->col_map.va, icid);
}
