/* SPDX-License-Identifier: MIT */
/*
 * ITS command batches: encode all, push, publish once, wait (bounded); the
 * queue-failure policy (reset, or the ITS becomes dead); RDbase by
 * GITS_TYPER.PTA; the SYNC or VSYNC an event's commands need; collection
 * lookups; the embedder's ITS lock. The layer every ITS-side file uses; it
 * calls only the command encoders and the queue.
 * Spec: Arm IHI 0069H §5.2 (command queue), §5.3 (SYNC, VSYNC, RDbase).
 */
#include "gicv4/its_exec_priv.h"

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

void virq_its_fail_(struct virq_its *its, virq_status st)
{
	LIBVIRQ_LOGV(&its->gic->hal, LIBVIRQ_LOG_ERROR, "its: command queue failed", its->base,
		     (uint64_t)(int64_t)st);
	if (virq_its_queue_reset(&its->q) != LIBVIRQ_OK)
		its->dead = true;
}

virq_status virq_its_exec_(struct virq_its *its, const struct virq_its_cmd *cmds, size_t n)
{
	uint8_t raw[ITS_BATCH_MAX][LIBVIRQ_ITS_CMD_SIZE];
	virq_status st;

	if (its->dead)
		return LIBVIRQ_EDEAD;
	if (n > ITS_BATCH_MAX)
		return LIBVIRQ_EINVAL;
	for (size_t i = 0; i < n; i++) {
		st = virq_its_cmd_encode(&cmds[i], &its->lim, raw[i], NULL, NULL);
		if (st != LIBVIRQ_OK)
			return st;
	}
	for (size_t i = 0; i < n; i++) {
		st = virq_its_queue_push_raw(&its->q, raw[i]);
		if (st != LIBVIRQ_OK) {
			virq_its_fail_(its, st);
			return st;
		}
	}
	st = virq_its_queue_drain(&its->q, NULL);
	if (st != LIBVIRQ_OK) {
		virq_its_fail_(its, st);
		return st;
	}
	its->cmds += n;
	return LIBVIRQ_OK;
}

struct virq_its_cmd virq_its_ev_sync_(const struct virq_its *its, const struct virq_its_event *e)
{
	if (e->kind == LIBVIRQ_ITS_EV_VIRT)
		return virq_its_vsync_cmd(e->vpe->vpeid);
	return virq_its_sync_cmd(virq_its_rdbase_(its, e->icid));
}

bool virq_its_col_mapped_(const struct virq_its *its, uint32_t icid)
{
	return icid < its->gic->nr_rd && bm_test_(its->col_map.va, icid);
}
