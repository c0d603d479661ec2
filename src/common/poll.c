/* SPDX-License-Identifier: MIT */
/*
 * Bounded polling on the HAL clock. Every hardware wait in libvirq goes
 * through virq_poll32(), virq_poll64() or virq_poll_until(): they never sleep,
 * and they always end, even when the HAL clock is broken.
 *
 * Each wait is bounded twice (include/libvirq/hal.h, "Bounded waits"):
 * - by time: the sum of the forward steps of now_ns() since the first
 *   failed read reaches timeout_ns (a step backwards counts as no time, so a
 *   clock that jumps back neither ends a wait early nor garbles it);
 * - by rounds: timeout_ns / poll_round_ns + 1 rounds after the first read,
 *   so a clock that stops (or keeps running backwards) still ends the wait,
 *   with LIBVIRQ_ETIMEDOUT and a warning through the HAL log.
 * The first read happens before the clock is read at all: a register that is
 * already in the wanted state costs one read and no now_ns() call.
 *
 * A paced wait (virq_poll_paced_()) relaxes more than once between reads,
 * as many times as its condition asks: the ITS command queue uses it to
 * read GITS_CREADR about once per half of the remaining work instead of
 * once per command. A round is still one read, so both bounds hold as
 * above, and a round's relax count is capped (LIBVIRQ_POLL_PACE_MAX_).
 */
#include <libvirq/hal.h>
#include "../hal/hal_priv.h"

/* Rounds a wait of @p timeout_ns may take after its first read. */
static uint64_t max_rounds_(const struct virq_hal *hal, uint64_t timeout_ns)
{
	/* an extension member: read only when the ops table's size covers it */
	uint64_t round_ns = LIBVIRQ_HAL_HAS_(hal, poll_round_ns) ? hal->ops->poll_round_ns
								 : LIBVIRQ_POLL_ROUND_NS_DEFAULT;

	return timeout_ns / round_ns + 1;
}

/* The relax calls of one round: *@p pace of them (1 without a pace), at most
 * LIBVIRQ_POLL_PACE_MAX_. */
static inline void relax_round_(const struct virq_hal *hal, const uint32_t *pace)
{
	uint32_t n = pace && *pace > 1u ? *pace : 1u;

	if (n > LIBVIRQ_POLL_PACE_MAX_)
		n = LIBVIRQ_POLL_PACE_MAX_;
	while (n-- > 0u)
		virq_relax_(hal);
}

/*
 * The waiting part, after a first evaluation of @p cond failed: the clock
 * starts here. Each round relaxes (once, or *@p pace times), samples the
 * clock, then evaluates the condition, and gives up when the sample was at
 * or past the deadline (so the condition is evaluated once after the
 * deadline was observed) or when the rounds are used up.
 */
static LIBVIRQ_COLD_ virq_status poll_wait_(const struct virq_hal *hal, virq_poll_cond_fn cond,
					    void *arg, uint64_t timeout_ns, const uint32_t *pace)
{
	const uint64_t max = max_rounds_(hal, timeout_ns);
	uint64_t prev, elapsed = 0, rounds = 0, back = 0;

	if (timeout_ns == 0)
		return LIBVIRQ_ETIMEDOUT; /* the first read was the only one */
	prev = virq_now_(hal);
	for (;;) {
		uint64_t now, step;
		bool expired;

		relax_round_(hal, pace);
		now = virq_now_(hal);
		step = virq_clock_delta_(prev, now);
		if (step == 0 && now != prev)
			back++;
		prev = now;
		elapsed = elapsed + step < elapsed ? UINT64_MAX : elapsed + step;
		expired = elapsed >= timeout_ns;
		rounds++;
		if (cond(arg))
			return LIBVIRQ_OK;
		if (expired) {
			if (back)
				LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_WARN,
					     "virq_poll: HAL clock ran backwards during a wait "
					     "(timeout_ns, rounds, backward steps)",
					     timeout_ns, rounds, back);
			else
				LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_DEBUG,
					     "virq_poll: deadline passed (timeout_ns, rounds)",
					     timeout_ns, rounds);
			return LIBVIRQ_ETIMEDOUT;
		}
		if (rounds >= max) {
			LIBVIRQ_LOGV(
			    hal, LIBVIRQ_LOG_WARN,
			    "virq_poll: HAL clock did not advance; wait ended by its round "
			    "limit (timeout_ns, rounds, elapsed_ns, backward steps)",
			    timeout_ns, rounds, elapsed, back);
			return LIBVIRQ_ETIMEDOUT;
		}
	}
}

virq_status virq_poll_until(const struct virq_hal *hal, virq_poll_cond_fn cond, void *arg,
			    uint64_t timeout_ns)
{
	return virq_poll_paced_(hal, cond, arg, timeout_ns, NULL);
}

virq_status virq_poll_paced_(const struct virq_hal *hal, virq_poll_cond_fn cond, void *arg,
			     uint64_t timeout_ns, const uint32_t *pace)
{
	if (cond(arg))
		return LIBVIRQ_OK;
	return poll_wait_(hal, cond, arg, timeout_ns, pace);
}

/* One register poll: a 32- or 64-bit read compared under a mask. */
struct poll_reg_ {
	const struct virq_hal *hal;
	uint64_t addr;
	uint64_t mask, want, last;
	bool wide; /* 64-bit single access */
};

static LIBVIRQ_CF_CHECK_ bool poll_reg_cond_(void *p)
{
	struct poll_reg_ *a = p;

	a->last = a->wide ? virq_rd64_(a->hal, a->addr) : virq_rd32_(a->hal, a->addr);
	return (a->last & a->mask) == a->want;
}

static LIBVIRQ_COLD_ virq_status poll_reg_wait_(struct poll_reg_ *a, uint64_t timeout_ns)
{
	return poll_wait_(a->hal, poll_reg_cond_, a, timeout_ns, NULL);
}

virq_status virq_poll32(const struct virq_hal *hal, uint64_t addr, uint32_t mask, uint32_t want,
			uint64_t timeout_ns, uint32_t *last)
{
	uint32_t v = virq_rd32_(hal, addr);
	struct poll_reg_ a;
	virq_status st;

	if ((v & mask) == want) { /* fast path: no clock */
		if (last)
			*last = v;
		return LIBVIRQ_OK;
	}
	a = (struct poll_reg_){hal, addr, mask, want, v, false};
	st = poll_reg_wait_(&a, timeout_ns);
	if (last)
		*last = (uint32_t)a.last;
	return st;
}

virq_status virq_poll64(const struct virq_hal *hal, uint64_t addr, uint64_t mask, uint64_t want,
			uint64_t timeout_ns, uint64_t *last)
{
	uint64_t v = virq_rd64_(hal, addr);
	struct poll_reg_ a;
	virq_status st;

	if ((v & mask) == want) { /* fast path: no clock */
		if (last)
			*last = v;
		return LIBVIRQ_OK;
	}
	a = (struct poll_reg_){hal, addr, mask, want, v, true};
	st = poll_reg_wait_(&a, timeout_ns);
	if (last)
		*last = a.last;
	return st;
}
