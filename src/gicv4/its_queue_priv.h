/* SPDX-License-Identifier: MIT */
/* Private: internal functions of its_queue.c. */
#ifndef LIBVIRQ_SRC_GICV4_ITS_QUEUE_PRIV_H
#define LIBVIRQ_SRC_GICV4_ITS_QUEUE_PRIV_H

#include <libvirq/gicv4/its_queue.h>

/*
 * Batch fast path (virq_vlpi_map_range() and the unmap ranges): the number
 * of contiguous free slots at the write position, without waiting (0 when
 * the queue is full or dead), and in *slots where they start; commands are
 * written there in place, then virq_its_queue_commit_() pushes the first
 * @n of them (n <= what room_ returned). When room_ returns 0,
 * virq_its_queue_make_room_() publishes and waits for space (errors as
 * virq_its_queue_push(): EDEAD, ETIMEDOUT, ESTALLED, EHW).
 */
uint32_t virq_its_queue_room_(struct virq_its_queue *q, uint8_t **slots);
void virq_its_queue_commit_(struct virq_its_queue *q, uint32_t n);
virq_status virq_its_queue_make_room_(struct virq_its_queue *q);

/* virq_its_queue_init() reporting under @p api (virq_its_init()). */
virq_status virq_its_queue_init_(const char *api, struct virq_its_queue *q,
				 const struct virq_hal *hal, uint64_t its_base, uint32_t size,
				 const struct virq_its_queue_cfg *cfg);

/*
 * The ITS driver's forms of virq_its_queue_publish(), _push_raw(), _wait()
 * and _drain() on its own live queue: no argument checks and no report
 * (the driver reports which commands failed); statuses as the public
 * functions' (EDEAD, EHW, ESTALLED, ETIMEDOUT).
 */
virq_status virq_its_queue_publish_(struct virq_its_queue *q, uint64_t *ticket);
virq_status virq_its_queue_push_raw_(struct virq_its_queue *q,
				     const uint8_t raw[LIBVIRQ_ITS_CMD_SIZE]);
virq_status virq_its_queue_wait_(struct virq_its_queue *q, uint64_t ticket,
				 struct virq_its_queue_diag *diag);
virq_status virq_its_queue_drain_(struct virq_its_queue *q, struct virq_its_queue_diag *diag);
/* virq_its_queue_wait_() that does not poll: at most one GITS_CREADR
 * read, then LIBVIRQ_EBUSY when @ticket is not consumed yet (a stall or an
 * impossible value: what virq_its_queue_wait_() returns). */
virq_status virq_its_queue_test_(struct virq_its_queue *q, uint64_t ticket);

/* virq_its_queue_reset() of a live queue that also says what ran:
 * *consumed_lin gets the linear position GITS_CREADR reached. LIBVIRQ_OK:
 * read once the ITS was quiescent, so exactly the commands before it ran
 * and every later one was dropped. Any failure: a lower bound (commands
 * after it may or may not run; the queue stays dead), reported under
 * @p api (NULL: not reported, the caller reports). */
virq_status virq_its_queue_reset_seen_(const char *api, struct virq_its_queue *q,
				       uint64_t *consumed_lin);

/* After virq_its_queue_wait(q, ticket) failed: a linear position every
 * command before which ran. A ticket of an earlier epoch: what the reset
 * that ended it showed (exact for ECANCELED; 0 when no longer kept); one of
 * this epoch: GITS_CREADR as last read (a lower bound). */
uint64_t virq_its_queue_seen_(const struct virq_its_queue *q, uint64_t ticket);

/* Frees a live queue owned by an ITS (virq_its_destroy()). */
void virq_its_queue_fini_owned_(struct virq_its_queue *q);

#endif /* LIBVIRQ_SRC_GICV4_ITS_QUEUE_PRIV_H */
