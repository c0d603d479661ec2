/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_core
 * @brief The one status type of libvirq and its strings.
 */
#ifndef LIBVIRQ_STATUS_H
#define LIBVIRQ_STATUS_H

#include "virq_env.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Marks a function whose status result must be checked.
 *
 * Expands to @c __attribute__((__warn_unused_result__)) on GCC and Clang.
 */
#if defined(__GNUC__) || defined(__clang__)
#define LIBVIRQ_MUST_CHECK __attribute__((__warn_unused_result__))
#else
#define LIBVIRQ_MUST_CHECK
#endif

/**
 * @brief Status codes returned by every libvirq function that can fail.
 *
 * Success is zero; every failure is a distinct negative value, so callers
 * may test @c (status < 0). The numeric values are part of the ABI and
 * never change; new codes are only appended.
 */
typedef enum virq_status {
	LIBVIRQ_OK = 0,		/**< Success. */
	LIBVIRQ_EINVAL = -1,	/**< An argument is invalid (NULL, wrong state, bad combination). */
	LIBVIRQ_ERANGE = -2,	/**< A value does not fit its field or exceeds a probed limit. */
	LIBVIRQ_EALIGN = -3,	/**< An address or size is not aligned as the field requires. */
	LIBVIRQ_ENOMEM = -4,	/**< The HAL page allocator failed. */
	LIBVIRQ_ETIMEDOUT = -5, /**< A bounded hardware wait reached its deadline. */
	LIBVIRQ_EBUSY = -6,	/**< The object is in use (mapped, resident, running). */
	LIBVIRQ_ENOTSUP = -7,	/**< The hardware or configuration lacks the feature. */
	LIBVIRQ_EHW = -8,	/**< Hardware reported an error or an impossible value. */
	LIBVIRQ_ESTALLED = -9,	/**< The ITS command queue stalled on a command. */
	LIBVIRQ_ENOENT = -10,	/**< No such object (unmapped ID, missing node). */
	LIBVIRQ_EEXIST = -11,	/**< The object already exists (ID already mapped). */
	LIBVIRQ_ENOSPC = -12,	/**< An ID space or table is full. */
	LIBVIRQ_EBADDT = -13,	/**< A device tree blob is malformed or inconsistent. */
	LIBVIRQ_EHALVER = -14,	/**< The HAL ops version or size is not supported. */
	LIBVIRQ_ENOHAL = -15,	/**< A HAL callback required for this operation is missing. */
	LIBVIRQ_EINHIBITED = -16, /**< Acceleration is inhibited; the caller must emulate. */
	LIBVIRQ_EDEAD = -17,	  /**< The object failed earlier and must be reset or destroyed. */
	LIBVIRQ_EUNKNOWN = -18,	  /**< An unknown encoding (opcode, exit code, cause) was given. */
	/** Queued work was dropped, not run: an ITS command queue reset (after
	 *  another caller's command failed) discarded it; redo the call. */
	LIBVIRQ_ECANCELED = -19,
} virq_status;

/** @brief Number of distinct status codes (for table sizing in tests). */
#define LIBVIRQ_STATUS_COUNT 20

/**
 * @brief Returns a constant English description of a status code.
 *
 * @param status Any value; unknown values give "unknown status".
 * @return A NUL-terminated string with static storage duration, never NULL.
 *
 * Thread-safety: safe from any context; pure function.
 */
const char *virq_strerror(int status);

/**
 * @brief Returns the enumerator name of a status code, e.g. "LIBVIRQ_ETIMEDOUT".
 *
 * @param status Any value; unknown values give "LIBVIRQ_E?".
 * @return A NUL-terminated string with static storage duration, never NULL.
 *
 * Thread-safety: safe from any context; pure function.
 */
const char *virq_status_name(int status);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_STATUS_H */
