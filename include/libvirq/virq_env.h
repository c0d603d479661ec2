/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_core
 * @brief The single porting point for basic types used by libvirq.
 *
 * Every libvirq source and public header obtains its basic types, limits and
 * the four memory functions from this header only, in the manner of libfdt's
 * @c libfdt_env.h.
 *
 * By default it includes the compiler's freestanding headers
 * (@c <stdint.h>, @c <stddef.h>, @c <stdbool.h>), which exist even with
 * @c -ffreestanding, and declares @c memcpy, @c memset, @c memmove and
 * @c memcmp: a hosted C build and every C++ build take those from
 * @c <string.h> (so the declarations never clash with the C library's, in
 * either include order, and @c -Wredundant-decls stays quiet); a freestanding
 * C build gets the four prototypes here.
 *
 * An embedder that builds with @c -nostdinc (Xen, Linux) defines
 * @c LIBVIRQ_ENV_HEADER to the name of its own header, for example
 * @c -DLIBVIRQ_ENV_HEADER='"virq_env_xen.h"'. That header includes the
 * host's own headers and must make available exactly what libvirq uses,
 * which is:
 * - the types @c uint8_t, @c uint16_t, @c uint32_t, @c uint64_t, @c int8_t,
 *   @c int32_t, @c int64_t, @c uintptr_t, @c size_t;
 * - @c bool, @c true, @c false, @c NULL and @c offsetof;
 * - the limits @c UINT32_MAX and @c UINT64_MAX;
 * - declarations of @c memcpy, @c memset, @c memmove and @c memcmp with their
 *   standard C meaning.
 *
 * Nothing else is needed (no @c <stdarg.h>, no @c *_C() macros). ports/xen/include/virq_env_xen.h
 * and ports/linux/include/virq_env_linux.h are such headers for Xen and Linux;
 * tests/build/env/virq_test_env.h provides exactly the list above from
 * compiler-predefined macros alone, and the freestanding check compiles the
 * whole library with it under @c -nostdinc, so this list cannot drift from
 * what the code uses.
 *
 * Thread-safety: not applicable (types only).
 */
#ifndef LIBVIRQ_VIRQ_ENV_H
#define LIBVIRQ_VIRQ_ENV_H

#ifdef LIBVIRQ_ENV_HEADER
#include LIBVIRQ_ENV_HEADER
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#if defined(__cplusplus) || (defined(__STDC_HOSTED__) && __STDC_HOSTED__ == 1)
#include <string.h>
#else
/*
 * Freestanding C: the four memory functions every freestanding toolchain
 * provides (GCC and Clang may emit calls to them even with -ffreestanding);
 * the only symbols libvirq needs from outside itself. Standard C semantics.
 */
/** @cond LIBVIRQ_LIBC_PROTOTYPES */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
/** @endcond */
#endif
#endif /* LIBVIRQ_ENV_HEADER */

/**
 * @brief A compile-time assertion at file or block scope, in C99 to C23 and
 * C++11 and later: LIBVIRQ_STATIC_ASSERT_(constant expression, "message");
 *
 * C++ has @c static_assert, C11 @c _Static_assert; for C99 the GCC/Clang
 * extension keyword keeps @c -Wpedantic quiet. Internal to libvirq's headers.
 */
#if defined(__cplusplus)
#define LIBVIRQ_STATIC_ASSERT_(expr, msg) static_assert(expr, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define LIBVIRQ_STATIC_ASSERT_(expr, msg) _Static_assert(expr, msg)
#elif defined(__GNUC__) && !defined(_Static_assert)
#define LIBVIRQ_STATIC_ASSERT_(expr, msg) __extension__ _Static_assert(expr, msg)
#else
/*
 * No keyword, or a C library's _Static_assert macro (glibc's <sys/cdefs.h>
 * in strict C99 declares the same function each time, which
 * -Wredundant-decls reports): a typedef of an array whose size is negative
 * when @p expr is false, named uniquely per use.
 */
#ifdef __COUNTER__
#define LIBVIRQ_STATIC_ASSERT_(expr, msg)                                                          \
	typedef char LIBVIRQ_STATIC_ASSERT_CAT_(virq_static_assert_, __COUNTER__)[(expr) ? 1 : -1]
#else
#define LIBVIRQ_STATIC_ASSERT_(expr, msg)                                                          \
	typedef char LIBVIRQ_STATIC_ASSERT_CAT_(virq_static_assert_, __LINE__)[(expr) ? 1 : -1]
#endif
/** @cond LIBVIRQ_INTERNAL */
#define LIBVIRQ_STATIC_ASSERT_CAT_(a, b) LIBVIRQ_STATIC_ASSERT_CAT2_(a, b)
#define LIBVIRQ_STATIC_ASSERT_CAT2_(a, b) a##b
/** @endcond */
#endif

#endif /* LIBVIRQ_VIRQ_ENV_H */
