/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief The single porting point for basic types used by libvirq.
 *
 * Every libvirq source and public header obtains its fixed-width integer
 * types, @c bool, @c size_t, @c NULL and @c va_list from this header only,
 * in the manner of libfdt's @c libfdt_env.h.
 *
 * By default it includes the compiler's freestanding headers
 * (@c <stdint.h>, @c <stddef.h>, @c <stdbool.h>, @c <stdarg.h>), which
 * exist even with @c -ffreestanding. An embedder that builds with
 * @c -nostdinc (Xen, Linux) defines @c LIBVIRQ_ENV_HEADER to the name of its
 * own header, for example @c -DLIBVIRQ_ENV_HEADER='"xen_virq_env.h"'; that
 * header must provide what libvirq uses from those four headers:
 * @c uint8_t .. @c uint64_t, @c int8_t .. @c int64_t, @c uintptr_t,
 * @c intptr_t, @c size_t, @c ptrdiff_t, their @c _MAX / @c _MIN limits and
 * @c UINT64_C -style constant macros, @c bool / @c true / @c false, @c NULL,
 * @c offsetof, @c va_list and the @c va_ macros, and prototypes for
 * @c memcpy, @c memset, @c memmove and @c memcmp. The file
 * tests/build/env/virq_test_env.h is a complete example built only on
 * compiler-predefined macros; the freestanding check compiles the whole
 * core with it under @c -nostdinc.
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
#include <stdarg.h>

/*
 * The four memory functions every freestanding toolchain provides (GCC and
 * Clang may emit calls to them even with -ffreestanding); the only symbols
 * libvirq needs from outside itself. Standard C semantics.
 */
/** @cond LIBVIRQ_LIBC_PROTOTYPES */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
/** @endcond */
#endif

#endif /* LIBVIRQ_VIRQ_ENV_H */
