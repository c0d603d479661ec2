/* SPDX-License-Identifier: MIT */
/*
 * Proof its_queue_reset (WP): a reset of the ITS command queue
 * (reset_record_ in src/gicv4/its_queue.c, with positions_at_) records
 * exactly what it must and starts the next epoch past every earlier
 * position. Proved, for any state whose positions are ordered (consumed <=
 * published <= written, below 2^62) and any number of earlier resets:
 *  - the record of reset epoch + 1 goes to resets[epoch % 8] (the slot of
 *    the oldest kept reset, whose turn it is) with seen = the consumed
 *    position (what GITS_CREADR showed once quiescent) and end = the write
 *    position (everything pushed); seen <= end; no other record changes;
 *  - epoch grows by one and last_end becomes that end: every ticket the
 *    queue ever gave (at most the write position) is now "of an earlier
 *    epoch" (<= last_end);
 *  - the new epoch's write, publish and consumed positions are all one slot
 *    past the end, so the next ticket is strictly greater than every ticket
 *    of every earlier epoch (and no earlier ticket is "of this epoch":
 *    all are below its consumed position), with the offsets restarted at 0
 *    and the queue alive again.
 */
#include "proof_env.h"
#include <libvirq/hal.h>

#include "hal/hal_priv.h"

#undef LIBVIRQ_FAILV_
#define LIBVIRQ_FAILV_(api, hal, st, check, ...) virq_fail_((api), (hal), (st), 0, (check), NULL, 0)

#include "gicv4/its_queue.c"

/*@ requires \valid(q) && q->rd_lin <= q->pub_lin <= q->wr_lin < 0x4000000000000000;
    requires q->epoch < 0x4000000000000000;
    assigns q->resets[q->epoch % 8], q->epoch, q->last_end, q->wr_lin, q->pub_lin, q->rd_lin,
	    q->wr_off, q->pub_off, q->rd_off, q->creadr, q->stalled_sticky, q->retry_pending,
	    q->dead;
    ensures q->epoch == \old(q->epoch) + 1;
    ensures q->resets[\old(q->epoch) % 8].seen == \old(q->rd_lin);
    ensures q->resets[\old(q->epoch) % 8].end == \old(q->wr_lin);
    ensures q->resets[\old(q->epoch) % 8].seen <= q->resets[\old(q->epoch) % 8].end;
    ensures \forall integer s; 0 <= s < 8 && s != \old(q->epoch) % 8 ==>
	      q->resets[s] == \old(q->resets[s]);
    ensures q->last_end == \old(q->wr_lin);
    ensures q->wr_lin == \old(q->wr_lin) + 32 && q->pub_lin == q->wr_lin && q->rd_lin == q->wr_lin;
    ensures \forall integer t; t <= \old(q->wr_lin) ==> t <= q->last_end && t < q->rd_lin;
    ensures q->wr_off == 0 && q->pub_off == 0 && q->rd_off == 0 && !q->dead;
*/
static void reset_record_(struct virq_its_queue *q);
