/* SPDX-License-Identifier: MIT */
/*
 * Shared by the proof harnesses (docs/reliability.md, "Proofs"): inputs of
 * any value for EVA, and the compiler builtins.
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
 * byte-exact).
 */
#define __builtin_expect(x, c) (x)
#define __builtin_memcpy memcpy

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
