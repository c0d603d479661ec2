/* SPDX-License-Identifier: MIT */
/*
 * libvirq's types inside the Xen hypervisor (-DLIBVIRQ_ENV_HEADER='"virq_env_xen.h"').
 *
 * Xen's own headers provide everything virq_env.h's contract lists:
 * xen/types.h the fixed-width types, uintptr_t, size_t, bool/true/false
 * (xen/stdbool.h), NULL and UINT32_MAX; xen/compiler.h (force-included with
 * xen/config.h) offsetof; xen/string.h memcpy, memset, memmove and memcmp.
 * Only UINT64_MAX is missing in Xen 4.17 (Debian 12) to 4.20; Xen 4.21 and
 * later define it in xen/types.h. Each name added here is guarded, so the
 * header is correct for both.
 */
#ifndef LIBVIRQ_PORT_XEN_ENV_H
#define LIBVIRQ_PORT_XEN_ENV_H

#include <xen/types.h>
#include <xen/string.h>

#ifndef UINT32_MAX
#define UINT32_MAX 4294967295U
#endif
#ifndef UINT64_MAX
#define UINT64_MAX 18446744073709551615ULL
#endif

#endif /* LIBVIRQ_PORT_XEN_ENV_H */
