/* SPDX-License-Identifier: MIT */
/*
 * Bounded polling on the HAL clock. Every hardware wait in libvirq goes
 * through virq_poll_until(): it never sleeps, and it always ends.
 */
#include <libvirq/hal.h>
#include "hal/hal_priv.h"

virq_status virq_poll_until(const struct virq_hal *hal, virq_poll_cond_fn cond, void *arg,
			    uint64_t timeout_ns)
{
	uint64_t start;

	/* Fast path: most waits are already satisfied at the first read
	 * (a synchronous ITS, Dirty not implemented or clear): decide it
	 * before starting the clock. The sequence of reads and relax calls
	 * is the same as without it, and a zero timeout is still one read. */
	if (cond(arg))
		return LIBVIRQ_OK;
	if (!timeout_ns)
		return LIBVIRQ_ETIMEDOUT;
	start = virq_now_(hal);
	for (;;) {
		uint64_t now;
		bool expired;

		virq_relax_(hal);
		/* Sample the clock before the condition, so the last read
		 * happens after the deadline has been observed. */
		now = virq_now_(hal);
		expired = now - start >= timeout_ns;
		if (cond(arg))
			return LIBVIRQ_OK;
		if (expired)
			return LIBVIRQ_ETIMEDOUT;
	}
}

/* One register poll: a 32- or 64-bit read compared under a mask. */
struct poll_reg_ {
	const struct virq_hal *hal;
	uint64_t addr;
	uint64_t mask, want, last;
	bool wide; /* 64-bit single access */
};

static bool poll_reg_cond_(void *p)
{
	struct poll_reg_ *a = p;

	a->last = a->wide ? virq_rd64_(a->hal, a->addr) : virq_rd32_(a->hal, a->addr);
	return (a->last & a->mask) == a->want;
}

virq_status virq_poll32(const struct virq_hal *hal, uint64_t addr, uint32_t mask, uint32_t want,
			uint64_t timeout_ns, uint32_t *last)
{
	struct poll_reg_ a = { hal, addr, mask, want, 0, false };
	virq_status st = virq_poll_until(hal, poll_reg_cond_, &a, timeout_ns);

	if (last)
		*last = (uint32_t)a.last;
	return st;
}

virq_status virq_poll64(const struct virq_hal *hal, uint64_t addr, uint64_t mask, uint64_t want,
			uint64_t timeout_ns, uint64_t *last)
{
	struct poll_reg_ a = { hal, addr, mask, want, 0, true };
	virq_status st = virq_poll_until(hal, poll_reg_cond_, &a, timeout_ns);

	if (last)
		*last = a.last;
	return st;
}
