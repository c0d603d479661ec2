/* SPDX-License-Identifier: MIT */
/*
 * A replacement for the default types of virq_env.h, as an embedder that
 * builds with -nostdinc would write it when its tree has none of these names:
 * no system header at all, only the compiler's predefined macros. It provides
 * exactly the list in virq_env.h's documentation, nothing more, so the
 * freestanding check (which compiles the whole library with
 * -nostdinc -DLIBVIRQ_ENV_HEADER="virq_test_env.h") fails as soon as the code
 * uses a name the documentation does not promise.
 *
 * The macros are guarded: a host that already defines NULL, offsetof,
 * bool, true, false or the limits (Xen's xen/config.h, Linux's linux/types.h) keeps its
 * own. Types cannot be guarded by the preprocessor: a host that has them
 * includes its own header instead of typedef'ing them again (see
 * ports/xen/virq_env_xen.h and ports/linux/virq_env_linux.h).
 */
#ifndef LIBVIRQ_TEST_ENV_H
#define LIBVIRQ_TEST_ENV_H

#define LIBVIRQ_TEST_ENV_IN_USE 1

typedef __INT8_TYPE__ int8_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __SIZE_TYPE__ size_t;

#ifndef UINT32_MAX
#define UINT32_MAX __UINT32_MAX__
#endif
#ifndef UINT64_MAX
#define UINT64_MAX __UINT64_MAX__
#endif

#ifndef bool
#define bool _Bool
#endif
#ifndef true
#define true 1
#endif
#ifndef false
#define false 0
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif /* LIBVIRQ_TEST_ENV_H */
