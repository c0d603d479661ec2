/* SPDX-License-Identifier: MIT */
/*
 * The ITS command encoders and decoders (src/gicv4/enc/its_cmd.c) for WP,
 * included by the harness that tests/proof/gen_its_cmd.py writes (proof
 * enc_its_cmd, docs/reliability.md "Proofs").
 *
 * WP's typed memory model cannot see a uint64_t through the bytes it was
 * copied to, so the encoder's output is proved on its four doublewords:
 * st_le64_()'s __builtin_memcpy(p, &v, 8) at out + 8 * i stores doubleword
 * i of the command (proof_w_[i]), ld_le64_()'s copy back from in + 8 * i
 * loads it (the little-endian byte order of both targets is the assumption
 * that makes those bytes the command's bytes 8 * i .. 8 * i + 7).
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

/* The command's 32 bytes (the encoder's out, the decoder's in) and its
 * doublewords. */
uint8_t *proof_buf_;
uint64_t proof_w_[4];

/*@ requires p == proof_buf_ + 0 || p == proof_buf_ + 8 || p == proof_buf_ + 16 ||
	     p == proof_buf_ + 24;
    assigns proof_w_[(p - proof_buf_) / 8];
    ensures proof_w_[(p - proof_buf_) / 8] == v; */
static inline void st_le64_(uint8_t *p, uint64_t v);

/*@ requires p == proof_buf_ + 0 || p == proof_buf_ + 8 || p == proof_buf_ + 16 ||
	     p == proof_buf_ + 24;
    assigns \nothing;
    ensures \result == proof_w_[(p - proof_buf_) / 8]; */
static inline uint64_t ld_le64_(const uint8_t *p);

/* A number below 2^n has no bit n or above (an instance of Cbits'
 * pos_extraction_sup in Frama-C's Why3 library, which WP 25 does not give
 * the provers): for the field widths below 32 that a check bounds by
 * comparison. */
/*@ axiomatic Below {
      axiom below_2_4: \forall integer x, k; 0 <= x <= 0xF && 4 <= k ==> !bit_test(x, k);
      axiom below_2_5: \forall integer x, k; 0 <= x <= 0x1F && 5 <= k ==> !bit_test(x, k);
      axiom below_2_8: \forall integer x, k; 0 <= x <= 0xFF && 8 <= k ==> !bit_test(x, k);
      axiom below_2_16: \forall integer x, k; 0 <= x <= 0xFFFF && 16 <= k ==> !bit_test(x, k);
    } */

#include "gicv4/enc/its_cmd.c"

/* The encoder's result and the decoded command. */
virq_status enc_r;
struct virq_its_cmd proof_d_;

#endif /* LIBVIRQ_TESTS_PROOF_ITS_CMD_ENV_H */
