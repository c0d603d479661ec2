/* SPDX-License-Identifier: MIT */
/* Shared bits of the fault-injection sweeps (docs/reliability.md). */
#ifndef LIBVIRQ_SWEEP_H
#define LIBVIRQ_SWEEP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/sim/hal.h>

/* Each sweep prints one line "sweep: <what>: <n> cases" (collected by docs). */
#define SWEEP_REPORT(what, n) printf("sweep: %s: %lu cases\n", (what), (unsigned long)(n))

/* Nothing leaked and nothing freed twice or unknown. */
static inline void sweep_no_leak(struct virq_sim *sim, size_t baseline)
{
	assert_int_equal(virq_sim_live_pages(sim), baseline);
	assert_int_equal(virq_sim_bad_frees(sim), 0);
}

#endif /* LIBVIRQ_SWEEP_H */
