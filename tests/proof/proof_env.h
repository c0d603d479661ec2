/* SPDX-License-Identifier: MIT */
/*
 * Shared by the proof harnesses (docs/reliability.md, "Proofs"): inputs of
 * any value for EVA, and the byte order of the 64-bit stores.
 */
#ifndef LIBVIRQ_TESTS_PROOF_ENV_H
#define LIBVIRQ_TESTS_PROOF_ENV_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <__fc_builtin.h>

/*
 * The GCC builtins the library uses, by their documented meaning:
 * __builtin_expect(x, c) is x; __builtin_memcpy is memcpy (EVA's memcpy is
 * byte-exact). WP's typed memory model cannot see a uint64_t through its
 * bytes, so for WP the only two copies the library makes between a uint64_t
 * and 8 bytes (the encoders' little-endian stores and loads) are written
 * byte by byte in little-endian order instead: both targets (x86_64,
 * aarch64) are little-endian.
 */
#define __builtin_expect(x, c) (x)
#ifdef LIBVIRQ_PROOF_WP
/*@ requires \valid(p + (0 .. 7)) && \valid_read(v);
    assigns p[0 .. 7];
    ensures \forall integer i; 0 <= i < 8 ==> p[i] == (*v >> (8 * i)) % 256; */
static void proof_st_le64_(uint8_t *p, const uint64_t *v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(*v >> (8 * i));
}
/*@ requires \valid(v) && \valid_read(p + (0 .. 7));
    assigns *v;
    ensures *v == p[0] + p[1] * 0x100 + p[2] * 0x10000 + p[3] * 0x1000000 +
                  p[4] * 0x100000000 + p[5] * 0x10000000000 + p[6] * 0x1000000000000 +
                  p[7] * 0x100000000000000; */
static void proof_ld_le64_(uint64_t *v, const uint8_t *p);
#define __builtin_memcpy(d, s, n)                                                                  \
	_Generic((d), uint8_t *: proof_st_le64_, uint64_t *: proof_ld_le64_)((void *)(d), (s))
#else
#define __builtin_memcpy memcpy
#endif

/* Any value of the type (EVA: every value at once). */
static inline uint64_t any_u64_(void)
{
	uint64_t v;

	Frama_C_make_unknown((char *)&v, sizeof(v));
	return v;
}
static inline uint32_t any_u32_(void)
{
	return (uint32_t)Frama_C_unsigned_int_interval(0, UINT32_MAX);
}
static inline bool any_bool_(void)
{
	return Frama_C_interval(0, 1) != 0;
}
/* @p p or NULL: every public function is also called with NULL pointers. */
#define OR_NULL_(p) (any_bool_() ? (p) : NULL)

#endif /* LIBVIRQ_TESTS_PROOF_ENV_H */
