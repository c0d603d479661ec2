/* SPDX-License-Identifier: MIT */
/*
 * Proof its_queue_pos (WP): the ITS command queue's positions
 * (src/gicv4/its_queue.c). A command is known by its linear position (bytes
 * pushed before it, in every epoch: its ticket); the ITS shows only a byte
 * offset in the queue (GITS_CREADR, GITS_CWRITER). Proved, for every queue
 * size the library accepts (4 KiB .. 1 MiB, multiples of 4 KiB), at any
 * linear position (an epoch starts anywhere) and every state satisfying the
 * queue invariant Q below:
 *  - reading GITS_CREADR (creadr_read_) keeps Q, never moves the consumed
 *    position backwards nor past what was published, and the linear
 *    position it derives from the offset is the only position between the
 *    last one known and the published one that has this offset: across any
 *    number of wrap-arounds two commands in the queue never share an
 *    offset, so the offset names exactly one command; an offset outside the
 *    queue or past GITS_CWRITER is rejected (RD_BAD_) without changing the
 *    positions;
 *  - pushing (advance_), the batch fast path (virq_its_queue_room_,
 *    virq_its_queue_commit_) and publishing (publish_,
 *    virq_its_queue_publish_) keep Q: a command is written only into a slot
 *    the ITS has consumed (never over an unconsumed one), and a ticket is
 *    the linear position of everything published;
 *  - a new epoch (positions_at_) is the empty queue at its position.
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
#undef LIBVIRQ_FAILV_
#define LIBVIRQ_FAILV_(api, hal, st, check, ...) virq_fail_((api), (hal), (st), 0, (check), NULL, 0)

#include "gicv4/its_queue.c"

/*
 * The one fact assumed, not proved: GITS_CREADR.Offset (bits [19:5]) is a
 * multiple of 32. WP 25 models & apart from % (no bit-vector theory links
 * them), so it is an axiom; it holds by the definition of & (bits [4:0]
 * of the result are clear).
 */
/*@ axiomatic Offset_field {
      axiom offset_slot: \forall integer v; 0 <= v ==> (v & 0xFFFE0) % 32 == 0;
    }
*/

/* The offset d bytes after offset o in a queue of s bytes (d < s). */
/*@ logic integer wrap(integer o, integer d, integer s) = o + d < s ? o + d : o + d - s;
    lemma wrap_is_mod: \forall integer o, d, s;
      s > 0 && 0 <= o < s && 0 <= d < s ==> wrap(o, d, s) == (o + d) % s;
    lemma slot_fits: \forall integer a, s;
      0 <= a < s && a % 32 == 0 && s % 32 == 0 ==> a + 32 <= s;
*/

/* Positions below 2^62 (4.6 * 10^18 bytes, 1.4 * 10^17 commands: more than
 * a machine pushes in its life; the library's own bound is 2^64). */
#define LIFE_(lin) ((lin) < 0x4000000000000000)
/* The invariant Q (a macro: WP then sees every conjunct at the call). */
#define SIZES_(q) (4096 <= (q)->size <= 1048576 && (q)->size % 4096 == 0 && (q)->size % 32 == 0)
#define Q(q)                                                                                       \
	(SIZES_(q) && Q_ORDER_(q) && LIFE_((q)->wr_lin) && Q_OFFS_(q) && Q_PUB_(q) && Q_WR_(q) &&  \
	 Q_SLOTS_(q))
#define Q_OFFS_(q) ((q)->rd_off < (q)->size && (q)->pub_off < (q)->size && (q)->wr_off < (q)->size)
#define Q_ORDER_(q) ((q)->rd_lin <= (q)->pub_lin <= (q)->wr_lin <= (q)->rd_lin + (q)->size - 32)
/* GITS_CWRITER's offset and the write offset are where their positions are. */
#define Q_PUB_(q) ((q)->pub_off == wrap((q)->rd_off, (q)->pub_lin - (q)->rd_lin, (q)->size))
#define Q_WR_(q) ((q)->wr_off == wrap((q)->rd_off, (q)->wr_lin - (q)->rd_lin, (q)->size))
/* Whole slots between the positions and at every offset. */
#define Q_SLOTS_(q)                                                                                \
	(((q)->wr_lin - (q)->rd_lin) % 32 == 0 && ((q)->pub_lin - (q)->rd_lin) % 32 == 0 &&        \
	 (q)->wr_off % 32 == 0 && (q)->pub_off % 32 == 0 && (q)->rd_off % 32 == 0)
/* Q as separate postconditions (one goal each for the provers). */
#define Q_ENSURES_(q)                                                                              \
	ensures SIZES_(q) && LIFE_((q)->wr_lin);                                                   \
	ensures Q_ORDER_(q);                                                                       \
	ensures Q_OFFS_(q);                                                                        \
	ensures Q_PUB_(q);                                                                         \
	ensures Q_WR_(q);                                                                          \
	ensures Q_SLOTS_(q);

/*@ requires \valid(q) && Q(q);
    assigns q->rd_off, q->rd_lin, q->creadr, q->stalled_sticky, q->retry_pending;
    Q_ENSURES_(q)
    ensures \old(q->rd_lin) <= q->rd_lin <= q->pub_lin;
    ensures \result != RD_BAD_ ==>
      q->rd_off == (q->creadr & 0xFFFE0) &&
      q->rd_off == wrap(\old(q->rd_off), q->rd_lin - \old(q->rd_lin), q->size) &&
      \forall integer p; \old(q->rd_lin) <= p <= q->pub_lin &&
	wrap(\old(q->rd_off), p - \old(q->rd_lin), q->size) == q->rd_off ==> p == q->rd_lin;
    ensures \result == RD_BAD_ ==> q->rd_lin == \old(q->rd_lin) && q->rd_off == \old(q->rd_off);
*/
static enum rd_result_ creadr_read_(struct virq_its_queue *q);

/*@ requires \valid(q) && Q(q) && q->wr_lin - q->rd_lin < q->size - 32 && LIFE_(q->wr_lin + 32);
    assigns q->wr_off, q->wr_lin;
    Q_ENSURES_(q)
    ensures q->wr_lin == \old(q->wr_lin) + 32;
*/
static inline void advance_(struct virq_its_queue *q);

/*@ requires \valid(q) && Q(q) && \valid(slots);
    assigns *slots;
    ensures \result == 0 || (q->wr_off + 32 * \result <= q->size &&
			     q->wr_lin + 32 * \result <= q->rd_lin + q->size - 32);
*/
uint32_t virq_its_queue_room_(struct virq_its_queue *q, uint8_t **slots);

/*@ requires \valid(q) && Q(q) && q->wr_off + 32 * n <= q->size &&
	     q->wr_lin + 32 * n <= q->rd_lin + q->size - 32 && LIFE_(q->wr_lin + 32 * n);
    assigns q->wr_off, q->wr_lin;
    Q_ENSURES_(q)
    ensures q->wr_lin == \old(q->wr_lin) + 32 * n;
*/
void virq_its_queue_commit_(struct virq_its_queue *q, uint32_t n);

/*@ requires \valid(q) && Q(q);
    assigns q->pub_off, q->pub_lin;
    ensures Q(q) && q->pub_lin == q->wr_lin && q->pub_off == q->wr_off;
*/
static void publish_(struct virq_its_queue *q);

/*@ requires \valid(q) && Q(q) && (ticket == \null || \valid(ticket)) && \separated(q, ticket);
    assigns q->pub_off, q->pub_lin, *ticket;
    ensures Q(q);
    ensures \result == LIBVIRQ_OK ==> q->pub_lin == q->wr_lin &&
			(ticket != \null ==> *ticket == q->pub_lin);
*/
virq_status virq_its_queue_publish_(struct virq_its_queue *q, uint64_t *ticket);

/*@ assigns \nothing; */
static void clean_range_(const struct virq_its_queue *q, uint32_t from, uint32_t to);

/*@ requires \valid(q) && SIZES_(q) && LIFE_(lin);
    assigns q->wr_lin, q->pub_lin, q->rd_lin, q->wr_off, q->pub_off, q->rd_off, q->creadr,
	    q->stalled_sticky, q->retry_pending, q->dead;
    ensures Q(q) && q->wr_lin == lin && q->rd_lin == lin && q->pub_lin == lin;
*/
static void positions_at_(struct virq_its_queue *q, uint64_t lin);
