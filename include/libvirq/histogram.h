/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_core
 * @brief Freestanding latency histogram (integer only) for interrupt-latency reports.
 *
 * A log-linear histogram in the style of HdrHistogram: values 0..15 have a
 * bucket each; above that every power of two [2^k, 2^(k+1)) is split into
 * ::LIBVIRQ_HIST_SUB_BUCKETS equal buckets, so a reported percentile is within
 * 1/16 (6.25 %) of the true sample value, across the whole 64-bit range, in
 * a fixed ::LIBVIRQ_HIST_NR_BUCKETS counters. min, max and the sum are exact.
 *
 * Units are whatever the caller records (counter ticks in the demo). The
 * object lives in caller storage (about 7.8 KiB); no allocation, no
 * floating point, no global state: a hypervisor can keep one per vCPU.
 *
 * Thread-safety: none inside; the caller serialises every call on one
 * histogram (record from one CPU, or merge per-CPU histograms).
 */
#ifndef LIBVIRQ_HISTOGRAM_H
#define LIBVIRQ_HISTOGRAM_H

#include "virq_env.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief log2 of the number of sub-buckets per power of two. */
#define LIBVIRQ_HIST_SUB_BITS 4u
/** @brief Sub-buckets per power of two (relative resolution 1/16). */
#define LIBVIRQ_HIST_SUB_BUCKETS (1u << LIBVIRQ_HIST_SUB_BITS)
/** @brief Total bucket count: 16 exact buckets, then 16 per octave from 2^4 to 2^63. */
#define LIBVIRQ_HIST_NR_BUCKETS ((64u - LIBVIRQ_HIST_SUB_BITS + 1u) * LIBVIRQ_HIST_SUB_BUCKETS)
/** @brief Percentiles are given in parts per million: this is 100 %. */
#define LIBVIRQ_HIST_PPM_MAX 1000000u

/** @brief A histogram. Initialise with virq_hist_init(); treat members as read-only. */
struct virq_hist {
	uint64_t count;	    /**< Samples recorded. */
	uint64_t min;	    /**< Smallest sample (UINT64_MAX when empty). */
	uint64_t max;	    /**< Largest sample (0 when empty). */
	uint64_t sum;	    /**< Sum of samples, saturating at UINT64_MAX. */
	bool sum_saturated; /**< The sum overflowed; the average is then a lower bound. */
	uint64_t buckets[LIBVIRQ_HIST_NR_BUCKETS]; /**< Per-bucket sample counts. */
};

/** @brief The usual interrupt-latency summary of a histogram. */
struct virq_hist_summary {
	uint64_t count; /**< Samples. */
	uint64_t min;	/**< Exact minimum (0 when empty). */
	uint64_t avg;	/**< Integer mean, rounded down (0 when empty). */
	uint64_t p50;	/**< Median (nearest rank), within 1/16 above the true value. */
	uint64_t p99;	/**< 99th percentile, same accuracy. */
	uint64_t p999;	/**< 99.9th percentile, same accuracy. */
	uint64_t max;	/**< Exact maximum (0 when empty). */
};

/**
 * @brief Empties a histogram.
 * @param h Histogram in caller storage; ignored when NULL.
 * Thread-safety: caller serialises.
 */
void virq_hist_init(struct virq_hist *h);

/**
 * @brief Records one sample. Constant time (a count-leading-zeros and an add).
 * @param h     An initialised histogram; ignored when NULL.
 * @param value The sample (any 64-bit value; units are the caller's).
 * Thread-safety: caller serialises.
 */
void virq_hist_record(struct virq_hist *h, uint64_t value);

/**
 * @brief Adds every sample of @p src into @p dst (for per-CPU histograms).
 * @param dst Destination; must be initialised.
 * @param src Source; unchanged.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL when either pointer is NULL or they are equal.
 * Thread-safety: caller serialises both.
 */
LIBVIRQ_MUST_CHECK virq_status virq_hist_merge(struct virq_hist *dst, const struct virq_hist *src);

/**
 * @brief A percentile by the nearest-rank method.
 *
 * The rank is ceil(count * @p ppm / 10^6) (at least 1); the result is the
 * highest value of the bucket holding that rank, clamped to [min, max], so
 * it is exact below 16 and otherwise at most 1/16 above the true sample.
 *
 * @param h   The histogram.
 * @param ppm Percentile in parts per million, 0..::LIBVIRQ_HIST_PPM_MAX
 *            (500000 = median, 990000 = p99, 999000 = p99.9).
 * @param out Receives the value.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL pointers; ::LIBVIRQ_ERANGE when
 *         @p ppm is above 10^6; ::LIBVIRQ_ENOENT when the histogram is empty.
 * Thread-safety: caller serialises against record/merge.
 */
LIBVIRQ_MUST_CHECK virq_status virq_hist_percentile(const struct virq_hist *h, uint32_t ppm,
						    uint64_t *out);

/**
 * @brief Fills count, min, avg, p50, p99, p99.9 and max.
 * @param h   The histogram.
 * @param out Receives the summary; all zero when the histogram is empty.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL pointers.
 * Thread-safety: caller serialises against record/merge.
 */
LIBVIRQ_MUST_CHECK virq_status virq_hist_summarize(const struct virq_hist *h,
						   struct virq_hist_summary *out);

/**
 * @brief Bucket index a value falls into (exposed for tests and exporters).
 * @param value Any value.
 * @return 0..::LIBVIRQ_HIST_NR_BUCKETS - 1.
 * Thread-safety: pure.
 */
uint32_t virq_hist_bucket_of(uint64_t value);

/**
 * @brief Highest value that falls into bucket @p index.
 * @param index 0..::LIBVIRQ_HIST_NR_BUCKETS - 1 (larger indexes give UINT64_MAX).
 * @return The bucket's inclusive upper bound.
 * Thread-safety: pure.
 */
uint64_t virq_hist_bucket_high(uint32_t index);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_HISTOGRAM_H */
