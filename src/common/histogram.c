/* SPDX-License-Identifier: MIT */
/*
 * Log-linear latency histogram (see include/libvirq/histogram.h).
 * Bucket i < 16 holds exactly the value i. Above, with m = msb(v) >= 4 and
 * s = m - 4, bucket (s + 1) * 16 + ((v >> s) & 15) holds
 * [(16 + sub) << s, ((17 + sub) << s) - 1].
 */
#include <libvirq/histogram.h>

uint32_t virq_hist_bucket_of(uint64_t value)
{
	uint32_t msb, shift;

	if (value < LIBVIRQ_HIST_SUB_BUCKETS)
		return (uint32_t)value;
	msb = 63u - (uint32_t)__builtin_clzll(value);
	shift = msb - LIBVIRQ_HIST_SUB_BITS;
	return (shift + 1u) * LIBVIRQ_HIST_SUB_BUCKETS +
	       (uint32_t)((value >> shift) & (LIBVIRQ_HIST_SUB_BUCKETS - 1u));
}

uint64_t virq_hist_bucket_high(uint32_t index)
{
	uint32_t shift, sub;

	if (index >= LIBVIRQ_HIST_NR_BUCKETS)
		return UINT64_MAX;
	if (index < LIBVIRQ_HIST_SUB_BUCKETS)
		return index;
	shift = index / LIBVIRQ_HIST_SUB_BUCKETS - 1u;
	sub = index % LIBVIRQ_HIST_SUB_BUCKETS;
	/* ((17 + sub) << shift) - 1, computed without overflowing at the top bucket. */
	return (((uint64_t)(LIBVIRQ_HIST_SUB_BUCKETS + sub) << shift) - 1u) +
	       ((uint64_t)1 << shift);
}

void virq_hist_init(struct virq_hist *h)
{
	if (!h)
		return;
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void virq_hist_record(struct virq_hist *h, uint64_t value)
{
	if (!h)
		return;
	h->buckets[virq_hist_bucket_of(value)]++;
	h->count++;
	if (value < h->min)
		h->min = value;
	if (value > h->max)
		h->max = value;
	if (h->sum + value < h->sum) {
		h->sum = UINT64_MAX;
		h->sum_saturated = true;
	} else {
		h->sum += value;
	}
}

virq_status virq_hist_merge(struct virq_hist *dst, const struct virq_hist *src)
{
	if (!dst || !src || dst == src)
		return LIBVIRQ_EINVAL;
	for (uint32_t i = 0; i < LIBVIRQ_HIST_NR_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (src->sum_saturated || dst->sum + src->sum < dst->sum) {
		dst->sum = UINT64_MAX;
		dst->sum_saturated = true;
	} else {
		dst->sum += src->sum;
	}
	return LIBVIRQ_OK;
}

/* ceil(count * ppm / 10^6) without overflowing for any count. */
static uint64_t rank_(uint64_t count, uint32_t ppm)
{
	uint64_t q = count / LIBVIRQ_HIST_PPM_MAX, r = count % LIBVIRQ_HIST_PPM_MAX;
	uint64_t rank = q * ppm + (r * ppm + LIBVIRQ_HIST_PPM_MAX - 1u) / LIBVIRQ_HIST_PPM_MAX;

	return rank ? rank : 1u;
}

virq_status virq_hist_percentile(const struct virq_hist *h, uint32_t ppm, uint64_t *out)
{
	uint64_t rank, seen = 0;

	if (!h || !out)
		return LIBVIRQ_EINVAL;
	if (ppm > LIBVIRQ_HIST_PPM_MAX)
		return LIBVIRQ_ERANGE;
	if (h->count == 0)
		return LIBVIRQ_ENOENT;
	rank = rank_(h->count, ppm);
	for (uint32_t i = 0; i < LIBVIRQ_HIST_NR_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			uint64_t v = virq_hist_bucket_high(i);

			*out = v < h->min ? h->min : (v > h->max ? h->max : v);
			return LIBVIRQ_OK;
		}
	}
	*out = h->max; /* unreachable while buckets sum to count */
	return LIBVIRQ_OK;
}

virq_status virq_hist_summarize(const struct virq_hist *h, struct virq_hist_summary *out)
{
	if (!h || !out)
		return LIBVIRQ_EINVAL;
	memset(out, 0, sizeof(*out));
	if (h->count == 0)
		return LIBVIRQ_OK;
	out->count = h->count;
	out->min = h->min;
	out->max = h->max;
	out->avg = h->sum / h->count;
	if (virq_hist_percentile(h, 500000u, &out->p50) != LIBVIRQ_OK ||
	    virq_hist_percentile(h, 990000u, &out->p99) != LIBVIRQ_OK ||
	    virq_hist_percentile(h, 999000u, &out->p999) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL; /* unreachable: h is non-empty and the ppm are valid */
	return LIBVIRQ_OK;
}
