/* SPDX-License-Identifier: MIT */
/*
 * Proof its_queue_pos (WP): the ITS command queue's positions
 * (src/gicv4/its_queue.c). A command is known by its linear position (bytes
 * pushed before it: its ticket); the ITS shows only a byte offset in the
 * queue (GITS_CREADR, GITS_CWRITER). Proved, for every queue size the
 * library accepts (4 KiB .. 1 MiB, multiples of 4 KiB) and every state
 * satisfying the queue invariant Q below:
 *  - reading GITS_CREADR (creadr_read_) keeps Q, never moves the consumed
 *    position backwards nor past what was published, and the linear
 *    position it derives from the offset is the only position between the
 *    last one known and the published one that has this offset: across any
 *    number of wrap-arounds two commands in the queue never share an
 *    offset, so the offset names exactly one command; an offset outside the
 *    queue or past GITS_CWRITER is rejected (RD_BAD_) without changing the
 *    positions;
 *  - pushing (advance_), the batch fast path (virq_its_queue_room_,
 *    virq_its_queue_commit_) and publishing (publish_) keep Q: a command is
 *    written only into a slot the ITS has consumed (never over an
 *    unconsumed one), and a ticket is the linear position of everything
 *    published;
 *  - a reset (positions_reset_) gives the empty queue.
 * The HAL is abstract: a register read returns any value and the HAL
 * changes nothing the queue owns.
 */
#include "proof_env.h"
#include <libvirq/hal.h>

/*@ assigns \nothing; */
static inline uint32_t virq_rd32_(const struct virq_hal *hal, uint64_t addr);
/*@ assigns \nothing; */
static inline void virq_wr64_(const struct virq_hal *hal, uint64_t addr, uint64_t v);
/*@ assigns \nothing; */
static inline void virq_barrier_(const struct virq_hal *hal, enum virq_barrier kind);
/*@ assigns \nothing; */
static inline bool virq_dcache_clean_(const struct virq_hal *hal, const void *va, size_t len);

#include "hal/hal_priv.h"

/* Failure reports keep their status and check text; the logged values
 * (a compound literal in sizeof, which Frama-C 25 cannot type) are left out. */
#undef LIBVIRQ_FAILV
#define LIBVIRQ_FAILV(hal, st, check, ...) virq_fail_((hal), (st), (check), NULL, 0)

#include "gicv4/its_queue.c"

/* Arithmetic of offsets against linear positions (proved here, then used). */
/*@ lemma mod_add_in: \forall integer a, s, d;
      s > 0 && a >= 0 && d >= 0 && a % s + d < s ==> (a + d) % s == a % s + d;
    lemma mod_add_wrap: \forall integer a, s, d;
      s > 0 && a >= 0 && d >= 0 && s <= a % s + d < 2 * s ==> (a + d) % s == a % s + d - s;
    lemma mod_unique: \forall integer a, b, s;
      s > 0 && 0 <= a <= b < a + s && a % s == b % s ==> a == b;
*/

/*@ predicate sizes(struct virq_its_queue *q) =
      4096 <= q->size <= 1048576 && q->size % 4096 == 0;
    predicate Q(struct virq_its_queue *q) =
      sizes(q) &&
      q->rd_lin <= q->pub_lin <= q->wr_lin <= q->rd_lin + q->size - 32 &&
      q->wr_lin < 0x4000000000000000 &&
      q->rd_off < q->size && q->pub_off < q->size && q->wr_off < q->size &&
      q->rd_lin % q->size == q->rd_off && q->pub_lin % q->size == q->pub_off &&
      q->wr_lin % q->size == q->wr_off &&
      q->wr_lin % 32 == 0 && q->pub_lin % 32 == 0 &&
      q->wr_off % 32 == 0 && q->pub_off % 32 == 0 && q->rd_off % 32 == 0;
*/

/*@ requires \valid(q) && Q(q);
    assigns q->rd_off, q->rd_lin, q->creadr, q->stalled_sticky, q->retry_pending;
    ensures Q(q);
    ensures \old(q->rd_lin) <= q->rd_lin <= q->pub_lin;
    ensures \result != RD_BAD_ ==>
      q->rd_off == (q->creadr & 0xFFFE0) && q->rd_lin % q->size == q->rd_off &&
      \forall integer p; \old(q->rd_lin) <= p <= q->pub_lin && p % q->size == q->rd_off ==>
			 p == q->rd_lin;
    ensures \result == RD_BAD_ ==> q->rd_lin == \old(q->rd_lin) && q->rd_off == \old(q->rd_off);
*/
static enum rd_result_ creadr_read_(struct virq_its_queue *q);

/*@ requires \valid(q) && Q(q) && q->wr_lin - q->rd_lin < q->size - 32;
    assigns q->wr_off, q->wr_lin;
    ensures Q(q) && q->wr_lin == \old(q->wr_lin) + 32;
*/
static inline void advance_(struct virq_its_queue *q);

/*@ requires \valid(q) && Q(q) && q->wr_lin % 32 == 0 && \valid(slots);
    assigns *slots;
    ensures \result == 0 || (q->wr_off + 32 * \result <= q->size &&
			     q->wr_lin + 32 * \result <= q->rd_lin + q->size - 32);
*/
uint32_t virq_its_queue_room_(struct virq_its_queue *q, uint8_t **slots);

/*@ requires \valid(q) && Q(q) && q->wr_off + 32 * n <= q->size &&
	     q->wr_lin + 32 * n <= q->rd_lin + q->size - 32;
    assigns q->wr_off, q->wr_lin;
    ensures Q(q) && q->wr_lin == \old(q->wr_lin) + 32 * n;
*/
void virq_its_queue_commit_(struct virq_its_queue *q, uint32_t n);

/*@ requires \valid(q) && Q(q);
    assigns q->pub_off, q->pub_lin;
    ensures Q(q) && q->pub_lin == q->wr_lin && q->pub_off == q->wr_off;
*/
static void publish_(struct virq_its_queue *q);

/*@ assigns \nothing; */
static void clean_range_(const struct virq_its_queue *q, uint32_t from, uint32_t to);

/*@ requires \valid(q) && sizes(q);
    assigns q->wr_lin, q->pub_lin, q->rd_lin, q->wr_off, q->pub_off, q->rd_off, q->creadr,
	    q->stalled_sticky, q->retry_pending, q->dead;
    ensures Q(q) && q->wr_lin == 0 && q->rd_lin == 0 && q->pub_lin == 0;
*/
static void positions_reset_(struct virq_its_queue *q);
