/* SPDX-License-Identifier: MIT */
/*
 * Thin inline wrappers over the HAL callbacks, used by every module.
 * Not a public header: modules include it as "hal/hal_priv.h".
 */
#ifndef LIBVIRQ_SRC_HAL_PRIV_H
#define LIBVIRQ_SRC_HAL_PRIV_H

#include <libvirq/hal.h>
#include "../common/compiler.h"

static inline uint32_t virq_rd32_(const struct virq_hal *hal, uint64_t addr)
{
	return (hal->ops->mmio_read32)(hal->ctx, addr);
}

static inline void virq_wr32_(const struct virq_hal *hal, uint64_t addr, uint32_t v)
{
	(hal->ops->mmio_write32)(hal->ctx, addr, v);
}

static inline uint64_t virq_rd64_(const struct virq_hal *hal, uint64_t addr)
{
	return (hal->ops->mmio_read64)(hal->ctx, addr);
}

static inline void virq_wr64_(const struct virq_hal *hal, uint64_t addr, uint64_t v)
{
	(hal->ops->mmio_write64)(hal->ctx, addr, v);
}

static inline virq_status virq_msr_rd_(const struct virq_hal *hal, uint32_t msr, uint64_t *v)
{
	return (hal->ops->msr_read)(hal->ctx, msr, v);
}

static inline virq_status virq_msr_wr_(const struct virq_hal *hal, uint32_t msr, uint64_t v)
{
	return (hal->ops->msr_write)(hal->ctx, msr, v);
}

static inline void virq_cpuid_(const struct virq_hal *hal, uint32_t leaf, uint32_t sub,
			       uint32_t regs[4])
{
	(hal->ops->cpuid)(hal->ctx, leaf, sub, regs);
}

static inline uint64_t virq_now_(const struct virq_hal *hal)
{
	return (hal->ops->now_ns)(hal->ctx);
}

/*
 * Forward distance from clock sample @p from to a later sample @p to, in ns:
 * 0 when @p to is earlier (a clock that went backwards counts as no time),
 * and a wrap-around of the 64-bit counter counts forward.
 */
static inline uint64_t virq_clock_delta_(uint64_t from, uint64_t to)
{
	uint64_t d = to - from;

	return d > (UINT64_MAX >> 1) ? 0 : d;
}

static inline void virq_relax_(const struct virq_hal *hal)
{
	if (hal->ops->relax)
		(hal->ops->relax)(hal->ctx);
}

/* Most relax calls a paced wait makes between two reads. */
#define LIBVIRQ_POLL_PACE_MAX_ 64u

/*
 * virq_poll_until() whose rounds relax *@p pace times (1 to
 * LIBVIRQ_POLL_PACE_MAX_; @p pace NULL or 0: once) before the clock sample
 * and the next evaluation of @p cond; @p cond may change *@p pace for the
 * next round. Same fast path, deadline and round limit (a round is one
 * evaluation), src/common/poll.c.
 */
LIBVIRQ_MUST_CHECK virq_status virq_poll_paced_(const struct virq_hal *hal, virq_poll_cond_fn cond,
						void *arg, uint64_t timeout_ns,
						const uint32_t *pace);

static inline void virq_barrier_(const struct virq_hal *hal, enum virq_barrier kind)
{
	if (hal->ops->barrier)
		(hal->ops->barrier)(hal->ctx, kind);
	else
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/*
 * Allocates zeroed memory whose physical address is aligned to @p align (a
 * power of two >= 4096): the hardware is given the PA; the library only
 * reads and writes the VA, with accesses of up to 8 bytes, so the VA need
 * only be 8-byte aligned (::LIBVIRQ_HAL_VA_ALIGN). On failure @p page is left
 * empty and the result is the HAL's error (LIBVIRQ_ENOMEM for a non-negative
 * one), LIBVIRQ_ENOMEM for a NULL VA, or LIBVIRQ_EALIGN when the HAL returned
 * a misaligned block (which is freed; @p got, when not NULL, receives its PA
 * and VA). @p size is 64-bit so that table sizes computed from 64-bit
 * register fields are never truncated: beyond size_t (a 32-bit size_t host)
 * it is LIBVIRQ_ENOMEM without calling the HAL.
 */
static inline virq_status virq_page_alloc_got_(const struct virq_hal *hal, uint64_t size64,
					       size_t align, struct virq_page *page, uint64_t *got)
{
	size_t size = (size_t)size64;
	virq_status st;

	page->va = NULL;
	page->pa = 0;
	page->size = 0;
	if ((uint64_t)size != size64)
		return LIBVIRQ_ENOMEM;
	st = (hal->ops->page_alloc)(hal->ctx, size, align, page);
	if (st == LIBVIRQ_OK && !page->va)
		st = LIBVIRQ_ENOMEM; /* "success" without memory: treat as failure */
	if (st == LIBVIRQ_OK && ((page->pa & (align - 1)) != 0 ||
				 ((uintptr_t)page->va & (LIBVIRQ_HAL_VA_ALIGN - 1)) != 0)) {
		/* A HAL that breaks the alignment contract would make the library
		 * program a truncated table address: give the block back, refuse. */
		if (got) {
			got[0] = page->pa;
			got[1] = (uint64_t)(uintptr_t)page->va;
		}
		page->size = size;
		(hal->ops->page_free)(hal->ctx, page);
		st = LIBVIRQ_EALIGN;
	}
	if (st != LIBVIRQ_OK) {
		page->va = NULL;
		page->pa = 0;
		page->size = 0;
		return st < 0 ? st : LIBVIRQ_ENOMEM;
	}
	page->size = size;
	return LIBVIRQ_OK;
}

/* virq_page_alloc_got_() without the misaligned addresses. */
static inline virq_status virq_page_alloc_(const struct virq_hal *hal, uint64_t size64,
					   size_t align, struct virq_page *page)
{
	return virq_page_alloc_got_(hal, size64, align, page, NULL);
}

/* Frees a page if it holds memory, then empties it. Safe on an empty page. */
static inline void virq_page_free_(const struct virq_hal *hal, struct virq_page *page)
{
	if (page->va)
		(hal->ops->page_free)(hal->ctx, page);
	page->va = NULL;
	page->pa = 0;
	page->size = 0;
}

/*
 * An extension member of the ops table (after kick_vcpu) is present: the
 * embedder's ops size covers it and it is not NULL.
 */
#define LIBVIRQ_HAL_HAS_(hal, member)                                                              \
	((hal)->ops->size >= offsetof(struct virq_hal_ops, member) + sizeof((hal)->ops->member) && \
	 (hal)->ops->member)

/* Cleans to PoC when the HAL can; returns false when it cannot. */
static inline bool virq_dcache_clean_(const struct virq_hal *hal, const void *va, size_t len)
{
	if (!hal->ops->dcache_clean)
		return false;
	(hal->ops->dcache_clean)(hal->ctx, va, len);
	return true;
}

static inline void virq_log_(const struct virq_hal *hal, enum virq_log_level lvl, const char *msg,
			     const uint64_t *vals, size_t n)
{
	if (hal->ops->log)
		(hal->ops->log)(hal->ctx, lvl, msg, vals, n);
}

/* Logs a message with no values. */
#define LIBVIRQ_LOG0(hal, lvl, msg) virq_log_((hal), (lvl), (msg), NULL, 0)
/* Logs a message with the given uint64_t values. */
#define LIBVIRQ_LOGV(hal, lvl, msg, ...)                                                           \
	do {                                                                                       \
		const uint64_t virq_log_vals_[] = {__VA_ARGS__};                                   \
		virq_log_((hal), (lvl), (msg), virq_log_vals_,                                     \
			  sizeof(virq_log_vals_) / sizeof(virq_log_vals_[0]));                     \
	} while (0)

/*
 * Failure reports (docs/design.md "Failures"; public side: hal.h
 * @ref virq_failures). A public function that can fail starts with
 *
 *	const char *const api = LIBVIRQ_ENTRY_;
 *
 * (the name of the function being defined: the one place a call's entry is
 * named) and passes @c api to every helper that may fail on its behalf;
 * library code never calls a public function that has an entry, only its
 * internal form taking @c api, so a report always names the function the
 * caller called. Each failing check returns through
 *
 *	return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vpe=NULL");
 *	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
 *			      "count=%u > nr_events-first=%u", count, nr - first);
 *
 * one check per report, its values named in the template ("%u" decimal,
 * "%d" signed, "%x" hexadecimal, one value each, at most
 * LIBVIRQ_FAIL_MAX_VALUES) and, for a limit, the limit. virq_fail_() is
 * out of line and cold; nothing of it runs on success paths. Nothing is
 * reported when @p hal is NULL, or when @p api is NULL: an internal call
 * whose caller reports the failure itself (a recovery step, for instance)
 * passes NULL. lint_fail_sites checks the rules.
 */
#define LIBVIRQ_ENTRY_ __func__

#ifndef LIBVIRQ_FAIL_TEXT
#define LIBVIRQ_FAIL_TEXT 1
#endif
#if LIBVIRQ_FAIL_TEXT
#define LIBVIRQ_FAIL_CHECK_(check) (check)
#else
#define LIBVIRQ_FAIL_CHECK_(check) ((const char *)0)
#endif

LIBVIRQ_COLD_ virq_status virq_fail_(const char *api, const struct virq_hal *hal, virq_status st,
				     uint32_t line, const char *check, const uint64_t *vals,
				     size_t n);
/* virq_hal_validate() reported under @p api (the function the caller called). */
virq_status virq_hal_check_(const char *api, const struct virq_hal *hal, uint32_t needs);

#define LIBVIRQ_FAIL_(api, hal, st, check)                                                         \
	virq_fail_((api), (hal), (st), __LINE__, LIBVIRQ_FAIL_CHECK_(check), NULL, 0)
#define LIBVIRQ_FAILV_(api, hal, st, check, ...)                                                   \
	virq_fail_((api), (hal), (st), __LINE__, LIBVIRQ_FAIL_CHECK_(check),                       \
		   (const uint64_t[]){__VA_ARGS__},                                                \
		   sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))

/*
 * A NULL, never-initialised or destroyed object where a live one is needed
 * (::LIBVIRQ_EINVAL): "<name>=NULL", "<name> destroyed" (@p state is
 * @p gone) or "<name> not initialised (state=0x...)". @p name is the
 * parameter's name in the public header ("vpe", "dev").
 */
LIBVIRQ_COLD_ virq_status virq_fail_dead_(const char *api, const struct virq_hal *hal,
					  const char *name, bool null, uint32_t state,
					  uint32_t gone, uint32_t line);
#define LIBVIRQ_FAIL_DEAD_(api, hal, name, obj, gone)                                              \
	virq_fail_dead_((api), (hal), LIBVIRQ_FAIL_CHECK_(name), !(obj),                           \
			(obj) ? (obj)->state : 0u, (gone), __LINE__)

/*
 * virq_page_alloc_() that reports its failure (the allocator's status) as
 * "<what>: <size> bytes aligned to <align> not allocated"; @p what is a
 * string literal naming the table.
 */
virq_status virq_page_alloc_fail_(const char *api, const struct virq_hal *hal, uint64_t size,
				  size_t align, struct virq_page *page, const char *check,
				  uint32_t line);
#define LIBVIRQ_PAGE_ALLOC_(api, hal, size, align, page, what)                                     \
	virq_page_alloc_fail_((api), (hal), (size), (align), (page),                               \
			      LIBVIRQ_FAIL_CHECK_(what ": %u bytes aligned to %u not allocated"),  \
			      __LINE__)

#endif /* LIBVIRQ_SRC_HAL_PRIV_H */
