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

virq_status virq_its_exec_seen_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n,
				struct virq_its_ran *ran)
{
	uint8_t raw[ITS_BATCH_MAX][LIBVIRQ_ITS_CMD_SIZE];
	uint64_t base, consumed;
	virq_status st;

	ran->ran = 0;
	ran->exact = true; /* nothing sent yet */
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
		st = virq_its_queue_drain_(&its->q, NULL);
	if (st != LIBVIRQ_OK) {
		ran->exact = virq_its_fail_seen_(its, st, &consumed);
		ran->ran = ran_of_(base, n, consumed);
		return st;
	}
	ran->ran = n;
	its->cmds += n;
	return LIBVIRQ_OK;
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
