/* SPDX-License-Identifier: MIT */
/* Shared bits of the fault-injection sweeps (docs/reliability.md). */
#ifndef VIRQ_SWEEP_H
#define VIRQ_SWEEP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_hal.h"

/* Each sweep prints one line "sweep: <what>: <n> cases" (collected by docs). */
#define SWEEP_REPORT(what, n) printf("sweep: %s: %lu cases\n", (what), (unsigned long)(n))

/* Nothing leaked and nothing freed twice or unknown. */
static inline void sweep_no_leak(struct fake_hal *fh, size_t baseline)
{
	assert_int_equal(fake_hal_live_pages(fh), baseline);
	assert_int_equal(fake_hal_bad_frees(fh), 0);
}

#endif /* VIRQ_SWEEP_H */
