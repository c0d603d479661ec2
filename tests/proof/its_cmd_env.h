/* SPDX-License-Identifier: MIT */
/*
 * The ITS command encoders and decoders (src/gicv4/enc/its_cmd.c) for WP,
 * included by the harness that tests/proof/gen_its_cmd.py writes (proof
 * enc_its_cmd, docs/reliability.md "Proofs").
 *
 * WP's typed memory model cannot see through a copy of a uint64_t to bytes,
 * so the two copies the encoder makes are given by their meaning on a
 * little-endian target: st_le64_()'s __builtin_memcpy(p, &v, 8) stores the
 * bytes of v lowest first, ld_le64_()'s loads them back. The decoder's
 * memset() of the command is "writes every member" (nothing is assumed about
 * what it writes: the decoder assigns every field of the command after it).
 */
#ifndef LIBVIRQ_TESTS_PROOF_ITS_CMD_ENV_H
#define LIBVIRQ_TESTS_PROOF_ITS_CMD_ENV_H

#include "proof_env.h"
#include "common/compiler.h"
#include <libvirq/gicv4/its_cmd.h>
#include <__fc_integer.h>

/* Inlining hints only (Frama-C takes always_inline for part of the type). */
#undef LIBVIRQ_ALWAYS_INLINE_
#define LIBVIRQ_ALWAYS_INLINE_ inline

static inline void proof_st_le_(uint8_t *p, const uint64_t *v)
{
	uint64_t x = *v;

	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
	p[4] = (uint8_t)(x >> 32);
	p[5] = (uint8_t)(x >> 40);
	p[6] = (uint8_t)(x >> 48);
	p[7] = (uint8_t)(x >> 56);
}

static inline void proof_ld_le_(uint64_t *v, const uint8_t *p)
{
	*v = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	     (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	     (uint64_t)p[7] << 56;
}

/*@ requires \valid(p);
    assigns *p; */
void proof_zero_cmd_(struct virq_its_cmd *p);
/*@ requires \valid(p);
    assigns *p; */
void proof_zero_lim_(struct virq_its_limits *p);

#undef __builtin_memcpy
/* By the destination's type: bytes (st_le64_) or the word (ld_le64_). */
#define __builtin_memcpy(d, s, n)                                                                  \
	(sizeof(*(d)) == 1 ? proof_st_le_((uint8_t *)(d), (const uint64_t *)(s))                   \
			   : proof_ld_le_((uint64_t *)(d), (const uint8_t *)(s)))
#undef memset
#define memset(p, v, n)                                                                            \
	(sizeof(*(p)) == sizeof(struct virq_its_cmd)                                               \
	     ? proof_zero_cmd_((struct virq_its_cmd *)(p))                                         \
	     : proof_zero_lim_((struct virq_its_limits *)(p)))

#include "gicv4/enc/its_cmd.c"

/* What the encoder's fast path relies on in a limits cache that
 * virq_its_limits_prepare() wrote (proved by prove_prepare below): no
 * cached ICID maximum is wider than the 16-bit ICID field. */
/*@ predicate PREPARED(struct virq_its_limits *l) = l->cache.max_ICID <= 0xFFFF; */

virq_status enc_r, dec_r;

/*@ requires \valid(lim);
    assigns lim->cache;
    ensures PREPARED(lim); */
void prove_prepare(struct virq_its_limits *lim)
{
	virq_its_limits_prepare(lim);
}

#endif /* LIBVIRQ_TESTS_PROOF_ITS_CMD_ENV_H */
