/* SPDX-License-Identifier: MIT */
/* Private: internal functions of its_pool.c (sub-page blocks for ITTs and
 * event tracking, carved from 4 KiB pages the ITS owns). */
#ifndef LIBVIRQ_SRC_GICV4_ITS_POOL_PRIV_H
#define LIBVIRQ_SRC_GICV4_ITS_POOL_PRIV_H

#include <libvirq/gicv4/its.h>
#include "gicv4_priv.h"

/* Pool pages are 4 KiB of 64-byte units; the last unit of each page holds
 * the page's record. Requests above LIBVIRQ_ITS_POOL_MAX_ bytes take whole
 * pages from the HAL instead. */
#define LIBVIRQ_ITS_POOL_PAGE_ 4096u
#define LIBVIRQ_ITS_POOL_UNIT_ 64u
#define LIBVIRQ_ITS_POOL_MAX_ 2048u

/* Carves @bytes (1 .. LIBVIRQ_ITS_POOL_MAX_) aligned to @align (a power of
 * two, 64 .. 2048 bytes) from one of @its's pool pages into *@out, zeroed:
 * out->pa and out->va are the block's addresses, out->size is @bytes (so
 * below a page: that tells a pool block from a HAL block). LIBVIRQ_ENOMEM
 * when the pages looked at have no room: the caller adds a page
 * (virq_its_pool_add_()) and asks again, which then succeeds. At most four
 * pages are looked at, so the time does not grow with the pool; one without
 * room goes to the tail of the ring, so that room freed in any page comes
 * within reach of later requests.
 * Thread-safety: @its's lock held (or the ITS not shared yet / any more). */
virq_status virq_its_pool_take_(struct virq_its *its, uint64_t bytes, uint32_t align,
				struct virq_page *out);

/* Makes @pg, a 4 KiB page from the HAL (aligned to 4 KiB), a pool page of
 * @its; the pool frees it when its last block is given back. Lock held. */
void virq_its_pool_add_(struct virq_its *its, const struct virq_page *pg);

/* Gives back a block virq_its_pool_take_() returned and empties *@blk; a
 * page left empty goes back to the HAL. Lock held. */
void virq_its_pool_put_(struct virq_its *its, struct virq_page *blk);

/* Frees every pool page (ITS teardown, after the last device). */
void virq_its_pool_free_(struct virq_its *its);

#endif /* LIBVIRQ_SRC_GICV4_ITS_POOL_PRIV_H */
