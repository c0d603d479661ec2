/* SPDX-License-Identifier: MIT */
/*
 * Compiler attributes used inside libvirq, in their reserved spellings only
 * (__noinline__, not noinline): Xen and Linux define noinline, always_inline,
 * __cold, fallthrough ... as macros, and a plain spelling would be expanded by
 * them when libvirq is compiled inside those trees. Not a public header.
 */
#ifndef LIBVIRQ_SRC_COMPILER_H
#define LIBVIRQ_SRC_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define LIBVIRQ_NOINLINE_ __attribute__((__noinline__))
#define LIBVIRQ_COLD_ __attribute__((__cold__, __noinline__))
#define LIBVIRQ_ALWAYS_INLINE_ __attribute__((__always_inline__)) inline
#define LIBVIRQ_UNUSED_ __attribute__((__unused__))
/* A switch case that deliberately continues into the next one. */
#define LIBVIRQ_FALLTHROUGH_ __attribute__((__fallthrough__))
#else
#define LIBVIRQ_NOINLINE_
#define LIBVIRQ_COLD_
#define LIBVIRQ_ALWAYS_INLINE_ inline
#define LIBVIRQ_UNUSED_
#define LIBVIRQ_FALLTHROUGH_                                                                       \
	do {                                                                                       \
	} while (0)
#endif

/*
 * A function the library calls through a pointer (poll conditions, encoder
 * tables, resolver callbacks). Xen x86 builds with -fcf-protection=branch
 * -mmanual-endbr (CET-IBT): there only functions marked cf_check get an
 * ENDBR64, and an indirect call to any other faults (#CP). GCC predefines
 * __CET__ (bit 0: branch protection) under -fcf-protection; Clang has no
 * -mmanual-endbr and marks every such function itself.
 */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__CET__) &&         \
    (__CET__ & 1)
#define LIBVIRQ_CF_CHECK_ __attribute__((__cf_check__))
#else
#define LIBVIRQ_CF_CHECK_
#endif

#endif /* LIBVIRQ_SRC_COMPILER_H */
