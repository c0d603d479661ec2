/* SPDX-License-Identifier: MIT */
/*
 * libvirq's types inside the Linux kernel (-DLIBVIRQ_ENV_HEADER='"virq_env_linux.h"').
 *
 * Linux's own headers provide everything virq_env.h's contract lists but the
 * <stdint.h>-style limits: linux/types.h has uint8_t .. uint64_t, int8_t ..
 * int64_t, uintptr_t, size_t and bool, linux/stddef.h NULL, true, false and
 * offsetof, linux/string.h memcpy, memset, memmove and memcmp;
 * linux/limits.h spells the limits U32_MAX and U64_MAX. UINT32_MAX and
 * UINT64_MAX are added from those, each guarded.
 */
#ifndef LIBVIRQ_PORT_LINUX_ENV_H
#define LIBVIRQ_PORT_LINUX_ENV_H

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/limits.h>
#include <linux/string.h>

#ifndef UINT32_MAX
#define UINT32_MAX U32_MAX
#endif
#ifndef UINT64_MAX
#define UINT64_MAX U64_MAX
#endif

#endif /* LIBVIRQ_PORT_LINUX_ENV_H */
