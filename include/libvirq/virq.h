/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_core
 * @brief libvirq umbrella header: version, status codes, bit fields, HAL.
 *
 * Module headers (avic.h, gicv4.h, pmcvirt.h, fdt.h) are included
 * separately, so an embedder that builds only some modules includes only
 * those.
 */

/**
 * @defgroup virq_core Core
 * @brief Status codes and strings, bit fields in the manuals' [hi:lo] notation, the HAL the
 *        embedder supplies, bounded waits, failure reports, the porting header, the latency
 * histogram (libvirq.a, always built).
 */
#ifndef LIBVIRQ_VIRQ_H
#define LIBVIRQ_VIRQ_H

#include "virq_env.h"
#include "status.h"
#include "bitfield.h"
#include "hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Major version: incremented on incompatible API changes. */
#define LIBVIRQ_VERSION_MAJOR 0
/** @brief Minor version: incremented when features are added compatibly. */
#define LIBVIRQ_VERSION_MINOR 2
/** @brief Patch version: incremented for fixes. */
#define LIBVIRQ_VERSION_PATCH 0

/**
 * @brief Returns the library version the archive was built as.
 *
 * @return (::LIBVIRQ_VERSION_MAJOR << 16) | (::LIBVIRQ_VERSION_MINOR << 8) |
 *         ::LIBVIRQ_VERSION_PATCH of the compiled library (compare with the
 *         header's macros to detect a mismatched archive).
 *
 * Thread-safety: pure.
 */
uint32_t virq_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_VIRQ_H */
