/* SPDX-License-Identifier: MIT */
/*
 * Sub-page blocks for small ITTs and event tracking, carved from 4 KiB
 * pages each ITS owns, so that a device of a few events costs a few
 * hundred bytes instead of two pages. An ITT needs 256-byte alignment
 * (MAPD ITT_addr is bits [51:8]: Arm IHI 0069H §5.3 MAPD) and no more.
 * Linux sub-allocates its ITTs from pages in the same way, with a genpool
 * (commit b08e2f42e86b, "irqchip/gic-v3-its: Share ITS tables with a
 * non-trusted hypervisor"). Memory per device: docs/gicv4-core.md "Memory".
 *
 * A page is 64 units of 64 bytes; bit u of the page's record says unit u
 * is taken. The record itself sits in the last unit (bit 63, always set),
 * where it never shares a unit with a block. A block's page is found from
 * its physical address (pool pages are 4 KiB aligned), so a block costs
 * nothing beyond its units.
 */
#include "its_pool_priv.h"

#define UNITS_ 64u
#define REC_BIT_ (1ull << (UNITS_ - 1u))
#define SCAN_ 4u /* pages looked at per request */

struct virq_its_pool_page {
	uint64_t used;			 /* bit u: unit u taken; bit 63: this record */
	struct virq_page page;		 /* the HAL page */
	struct virq_its_pool_page *next; /* in virq_its::pool */
	struct virq_its_pool_page *prev;
};

LIBVIRQ_STATIC_ASSERT_(sizeof(struct virq_its_pool_page) <= LIBVIRQ_ITS_POOL_UNIT_,
		       "the page record fits its unit");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_ITS_POOL_PAGE_ == UNITS_ * LIBVIRQ_ITS_POOL_UNIT_,
		       "one bit a unit in a 64-bit mask");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_ITS_POOL_MAX_ / LIBVIRQ_ITS_POOL_UNIT_ < UNITS_ - 1u,
		       "a block's mask (1 << units) - 1 is defined and leaves the record's unit");

static struct virq_its_pool_page *rec_of_(void *page_va)
{
	return (struct virq_its_pool_page *)(void *)((uint8_t *)page_va + LIBVIRQ_ITS_POOL_PAGE_ -
						     LIBVIRQ_ITS_POOL_UNIT_);
}

/* The pages form a ring; virq_its::pool is its head, head->prev its tail. */
static void unlink_(struct virq_its *its, struct virq_its_pool_page *p)
{
	if (p->next == p) {
		its->pool = NULL;
	} else {
		p->prev->next = p->next;
		p->next->prev = p->prev;
		if (its->pool == p)
			its->pool = p->next;
	}
	p->next = p->prev = NULL;
}

/* Puts @p (not in the ring) at the tail. */
static void push_back_(struct virq_its *its, struct virq_its_pool_page *p)
{
	struct virq_its_pool_page *h = its->pool;

	if (!h) {
		p->next = p->prev = p;
		its->pool = p;
		return;
	}
	p->next = h;
	p->prev = h->prev;
	h->prev->next = p;
	h->prev = p;
}

/* Puts @p (not in the ring) at the head. */
static void push_front_(struct virq_its *its, struct virq_its_pool_page *p)
{
	push_back_(its, p);
	its->pool = p;
}

/* First unit of a free run of @n units (1 .. 32) starting at a multiple of
 * @a in @used (the record's unit excluded), or UNITS_ when there is none. */
static uint32_t fit_(uint64_t used, uint32_t n, uint32_t a)
{
	uint64_t m = (1ull << n) - 1u; /* n <= 32 */

	for (uint32_t s = 0; s + n < UNITS_; s += a)
		if (!(used & (m << s)))
			return s;
	return UNITS_;
}

virq_status virq_its_pool_take_(struct virq_its *its, uint64_t bytes, uint32_t align,
				struct virq_page *out)
{
	uint32_t n = (uint32_t)((bytes + LIBVIRQ_ITS_POOL_UNIT_ - 1u) / LIBVIRQ_ITS_POOL_UNIT_);
	uint32_t a = align > LIBVIRQ_ITS_POOL_UNIT_ ? align / LIBVIRQ_ITS_POOL_UNIT_ : 1u;
	struct virq_its_pool_page *p = its->pool;

	out->va = NULL;
	out->pa = 0;
	out->size = 0;
	if (!bytes || bytes > LIBVIRQ_ITS_POOL_MAX_ || !align || (align & (align - 1u)) ||
	    align > LIBVIRQ_ITS_POOL_MAX_)
		return LIBVIRQ_EINVAL;
	for (uint32_t k = 0; p && k < SCAN_; k++) {
		struct virq_its_pool_page *next = p->next;
		uint32_t s = fit_(p->used, n, a);

		if (s == UNITS_) {
			/* No room here: to the tail, so that pages further on,
			 * with room freed long ago, come within the scan. */
			if (next == p)
				break;
			unlink_(its, p);
			push_back_(its, p);
			p = next;
			continue;
		}
		p->used |= ((1ull << n) - 1u) << s;
		out->va = (uint8_t *)p->page.va + s * LIBVIRQ_ITS_POOL_UNIT_;
		out->pa = p->page.pa + s * LIBVIRQ_ITS_POOL_UNIT_;
		out->size = (size_t)bytes;
		memset(out->va, 0, (size_t)n * LIBVIRQ_ITS_POOL_UNIT_);
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_ENOMEM;
}

void virq_its_pool_add_(struct virq_its *its, const struct virq_page *pg)
{
	struct virq_its_pool_page *p = rec_of_(pg->va);

	p->used = REC_BIT_;
	p->page = *pg;
	push_front_(its, p);
}

void virq_its_pool_put_(struct virq_its *its, struct virq_page *blk)
{
	uint32_t off = (uint32_t)(blk->pa & (LIBVIRQ_ITS_POOL_PAGE_ - 1u));
	uint32_t n = (uint32_t)((blk->size + LIBVIRQ_ITS_POOL_UNIT_ - 1u) / LIBVIRQ_ITS_POOL_UNIT_);
	struct virq_its_pool_page *p;

	if (!blk->va)
		return;
	p = rec_of_((uint8_t *)blk->va - off);
	p->used &= ~(((1ull << n) - 1u) << (off / LIBVIRQ_ITS_POOL_UNIT_));
	blk->va = NULL;
	blk->pa = 0;
	blk->size = 0;
	unlink_(its, p);
	if (p->used == REC_BIT_) {
		struct virq_page pg = p->page;

		virq_page_free_(&its->hal, &pg);
		return;
	}
	push_front_(its, p); /* the room just made is looked at first */
}

void virq_its_pool_free_(struct virq_its *its)
{
	while (its->pool) {
		struct virq_its_pool_page *p = its->pool;
		struct virq_page pg = p->page;

		unlink_(its, p);
		virq_page_free_(&its->hal, &pg);
	}
}
