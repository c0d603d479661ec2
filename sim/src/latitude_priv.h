/* SPDX-License-Identifier: MIT */
/* What a base register keeps of a write, given its latitude (libvirq/sim/latitude.h). Bit
 * positions are the caller's (each register places its fields itself). */
#ifndef LIBVIRQ_SIM_LATITUDE_PRIV_H
#define LIBVIRQ_SIM_LATITUDE_PRIV_H

#include <libvirq/sim/latitude.h>

/* Where a register keeps its attribute fields. */
struct lat_pos_ {
	unsigned sh, inner,
	    outer; /* low bit of Shareability (2 bits), InnerCache, OuterCache (3) */
};

static inline uint64_t lat_field_(struct virq_sim_field f, uint64_t v, unsigned lo, unsigned w)
{
	uint64_t mask = ((1ull << w) - 1) << lo;

	if (!f.fixed)
		return v;
	return (v & ~mask) | (((uint64_t)f.value << lo) & mask);
}

/* Shareability and caches as they read back after a write of @v. */
static inline uint64_t lat_attrs_(const struct virq_sim_attrs *a, struct lat_pos_ p, uint64_t v)
{
	v = lat_field_(a->sh, v, p.sh, 2);
	v = lat_field_(a->inner, v, p.inner, 3);
	return lat_field_(a->outer, v, p.outer, 3);
}

/* A decoded physical address as the register keeps it: bits at and above pa_bits read 0. */
static inline uint64_t lat_pa_(const struct virq_sim_attrs *a, uint64_t pa)
{
	if (a->pa_bits && a->pa_bits < 64)
		pa &= (1ull << a->pa_bits) - 1;
	return pa;
}

/* The Page_Size code (0 4K, 1 16K, 2 64K; 3 is taken as 2) that a write of @code leaves. */
static inline uint32_t lat_psz_(const struct virq_sim_table_lat *t, uint32_t code)
{
	uint32_t mask = t->page_sizes & 7u ? t->page_sizes & 7u : 7u;

	if (code > 2)
		code = 2;
	if ((mask >> code) & 1)
		return code;
	if (t->psz_smallest)
		return (mask & 1) ? 0 : (mask & 2) ? 1 : 2;
	return (mask & 4) ? 2 : (mask & 2) ? 1 : 0;
}

#endif /* LIBVIRQ_SIM_LATITUDE_PRIV_H */
