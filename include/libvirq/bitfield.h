/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_core
 * @brief Bit-field helpers in the architecture manuals' [hi:lo] notation.
 *
 * A field is named by a macro that expands to its two bit numbers,
 * highest first, exactly as the manuals print them:
 * @code
 * #define LIBVIRQ_GITS_CBASER_Size 7, 0         // GITS_CBASER[7:0]
 * uint64_t v = LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_Size, 15);
 * @endcode
 * Every helper checks the range at compile time: a field with
 * @c hi < @c lo or @c hi > 63 does not compile. The value checks are at
 * run time: encoders call LIBVIRQ_FIELD_FITS() and return ::LIBVIRQ_ERANGE rather
 * than let LIBVIRQ_FIELD_PREP() truncate.
 *
 * All helpers are pure expressions on @c uint64_t; thread-safe.
 */
#ifndef LIBVIRQ_BITFIELD_H
#define LIBVIRQ_BITFIELD_H

#include "virq_env.h"

/**
 * @brief Zero (of type @c size_t), but fails to compile unless
 * 0 <= @p lo <= @p hi <= 63.
 *
 * C: the size of a struct holding a bit-field whose width is negative for a
 * bad range. C++ forbids defining a type inside @c sizeof, so there a class
 * template that is only defined for a good range gives the same result. Both
 * forms are integer constant expressions (enumerators, case labels, static
 * initialisers, @c constexpr) and work in ordinary code; a bad range is an
 * error that names @c virq_bad_bit_range_.
 */
#ifdef __cplusplus
/** @cond LIBVIRQ_INTERNAL */
extern "C++" {
template <bool virq_range_ok_> struct virq_bad_bit_range_; /* no definition: a bad range */
template <> struct virq_bad_bit_range_<true> {
	static constexpr decltype(sizeof(0)) value = 0;
};
}
/** @endcond */
#define LIBVIRQ_BITS_CHECK_(hi, lo)                                                                \
	(virq_bad_bit_range_<!((lo) > (hi) || (hi) > 63 || (lo) < 0)>::value)
#else
#define LIBVIRQ_BITS_CHECK_(hi, lo)                                                                \
	(0 * sizeof(struct {                                                                       \
		 int virq_bad_bit_range_ : 1 - 2 * !!((lo) > (hi) || (hi) > 63 || (lo) < 0);       \
	 }))
#endif

/** @brief Mask of bits [hi:lo] (inclusive) of a 64-bit word. */
#define LIBVIRQ_GENMASK(hi, lo)                                                                    \
	((uint64_t)(LIBVIRQ_BITS_CHECK_(hi, lo) +                                                  \
		    ((~(uint64_t)0 >> (63 - (hi))) & (~(uint64_t)0 << (lo)))))

/** @brief Single bit @p n as a 64-bit mask; @p n must be 0..63. */
#define LIBVIRQ_BIT(n) LIBVIRQ_GENMASK(n, n)

/** @brief Width in bits of the field [hi:lo]. */
#define LIBVIRQ_FIELD_WIDTH_(hi, lo) ((unsigned)(LIBVIRQ_BITS_CHECK_(hi, lo) + (hi) - (lo) + 1))
/** @brief Largest value the field [hi:lo] holds. */
#define LIBVIRQ_FIELD_MAX_(hi, lo) (LIBVIRQ_GENMASK(hi, lo) >> (lo))
/** @brief Value @p v shifted into [hi:lo]; bits of @p v above the width are dropped. */
#define LIBVIRQ_FIELD_PREP_(hi, lo, v) ((((uint64_t)(v)) << (lo)) & LIBVIRQ_GENMASK(hi, lo))
/** @brief Field [hi:lo] of word @p w, shifted down to bit 0. */
#define LIBVIRQ_FIELD_GET_(hi, lo, w) ((((uint64_t)(w)) & LIBVIRQ_GENMASK(hi, lo)) >> (lo))
/** @brief True when @p v fits in the field [hi:lo] unchanged. */
#define LIBVIRQ_FIELD_FITS_(hi, lo, v) (((uint64_t)(v)) <= LIBVIRQ_FIELD_MAX_(hi, lo))

/** @brief Mask of a named field, e.g. LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CBASER_Size). */
#define LIBVIRQ_FIELD_MASK(...) LIBVIRQ_GENMASK(__VA_ARGS__)
/** @brief Width in bits of a named field. */
#define LIBVIRQ_FIELD_WIDTH(...) LIBVIRQ_FIELD_WIDTH_(__VA_ARGS__)
/** @brief Largest value of a named field. */
#define LIBVIRQ_FIELD_MAX(...) LIBVIRQ_FIELD_MAX_(__VA_ARGS__)
/**
 * @brief Value shifted into a named field: LIBVIRQ_FIELD_PREP(FIELD, v).
 *
 * Truncates silently; callers validate with LIBVIRQ_FIELD_FITS() first.
 */
#define LIBVIRQ_FIELD_PREP(...) LIBVIRQ_FIELD_PREP_(__VA_ARGS__)
/** @brief Named field of a word: LIBVIRQ_FIELD_GET(FIELD, word). */
#define LIBVIRQ_FIELD_GET(...) LIBVIRQ_FIELD_GET_(__VA_ARGS__)
/** @brief True when @p v fits the named field: LIBVIRQ_FIELD_FITS(FIELD, v). */
#define LIBVIRQ_FIELD_FITS(...) LIBVIRQ_FIELD_FITS_(__VA_ARGS__)

/**
 * @brief Word @p w with the named field replaced by @p v:
 * LIBVIRQ_FIELD_SET(FIELD, w, v).
 */
#define LIBVIRQ_FIELD_SET(...) LIBVIRQ_FIELD_SET_(__VA_ARGS__)
/** @brief Implementation of LIBVIRQ_FIELD_SET(). */
#define LIBVIRQ_FIELD_SET_(hi, lo, w, v)                                                           \
	((((uint64_t)(w)) & ~LIBVIRQ_GENMASK(hi, lo)) | LIBVIRQ_FIELD_PREP_(hi, lo, v))

/**
 * @brief True when an address keeps only the bits of the field [hi:lo]:
 * LIBVIRQ_ADDR_FITS(FIELD, pa), for fields that hold PA[hi:lo] in place.
 *
 * The address must be aligned to 2^lo and below 2^(hi+1).
 */
#define LIBVIRQ_ADDR_FITS(...) LIBVIRQ_ADDR_FITS_(__VA_ARGS__)
/** @brief Implementation of LIBVIRQ_ADDR_FITS(). */
#define LIBVIRQ_ADDR_FITS_(hi, lo, a) ((((uint64_t)(a)) & ~LIBVIRQ_GENMASK(hi, lo)) == 0)

#endif /* LIBVIRQ_BITFIELD_H */
