/* SPDX-License-Identifier: MIT */
/* The latency histogram: bucket geometry, exact stats, percentiles vs a sorted reference. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/histogram.h>

static struct virq_hist h_, h2_;

/* Every bucket's range is contiguous with the next and within 1/16 of its low end. */
static void test_bucket_geometry(void **state)
{
	uint64_t prev_high = 0;

	(void)state;
	assert_int_equal(LIBVIRQ_HIST_NR_BUCKETS, 976);
	for (uint32_t i = 0; i < LIBVIRQ_HIST_NR_BUCKETS; i++) {
		uint64_t high = virq_hist_bucket_high(i);
		uint64_t low = i == 0 ? 0 : prev_high + 1;

		assert_true(high >= low);
		assert_int_equal(virq_hist_bucket_of(low), i);
		assert_int_equal(virq_hist_bucket_of(high), i);
		if (low >= 16)
			assert_true(high - low + 1 <= low / 16);
		prev_high = high;
	}
	assert_int_equal(prev_high, UINT64_MAX);
	assert_int_equal(virq_hist_bucket_of(UINT64_MAX), LIBVIRQ_HIST_NR_BUCKETS - 1);
	assert_int_equal(virq_hist_bucket_high(LIBVIRQ_HIST_NR_BUCKETS), UINT64_MAX);
	for (uint64_t v = 0; v < 16; v++)
		assert_int_equal(virq_hist_bucket_of(v), v);
	assert_int_equal(virq_hist_bucket_of(16), 16);
	assert_int_equal(virq_hist_bucket_of(31), 31);
	assert_int_equal(virq_hist_bucket_of(32), 32);
	assert_int_equal(virq_hist_bucket_of(33), 32); /* width 2 from 32 up */
}

static void test_empty(void **state)
{
	struct virq_hist_summary s;
	uint64_t v = 7;

	(void)state;
	virq_hist_init(&h_);
	assert_int_equal(virq_hist_percentile(&h_, 500000, &v), LIBVIRQ_ENOENT);
	assert_int_equal(virq_hist_summarize(&h_, &s), LIBVIRQ_OK);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.min, 0);
	assert_int_equal(s.max, 0);
	assert_int_equal(virq_hist_percentile(&h_, 1000001, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_hist_percentile(NULL, 1, &v), LIBVIRQ_EINVAL);
	assert_int_equal(virq_hist_summarize(&h_, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_hist_merge(&h_, &h_), LIBVIRQ_EINVAL);
	virq_hist_record(NULL, 1); /* ignored, no crash */
}

static void test_small_values_exact(void **state)
{
	struct virq_hist_summary s;

	(void)state;
	virq_hist_init(&h_);
	/* 1..10 once each: p50 = 5 (rank 5), p99 = 10, p99.9 = 10, avg 5 (55/10). */
	for (uint64_t v = 1; v <= 10; v++)
		virq_hist_record(&h_, v);
	assert_int_equal(virq_hist_summarize(&h_, &s), LIBVIRQ_OK);
	assert_int_equal(s.count, 10);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, 10);
	assert_int_equal(s.avg, 5);
	assert_int_equal(s.p50, 5);
	assert_int_equal(s.p99, 10);
	assert_int_equal(s.p999, 10);
}

static int cmp_u64_(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Against a sorted reference: the reported percentile is >= the true one and within 1/16. */
static void test_percentiles_vs_reference(void **state)
{
	enum { N = 20000 };
	static uint64_t ref[N];
	static const uint32_t ppms[] = {0, 1, 500000, 900000, 990000, 999000, 999999, 1000000};
	uint32_t rng = 1;
	uint64_t sum = 0;

	(void)state;
	virq_hist_init(&h_);
	for (int i = 0; i < N; i++) {
		rng = rng * 1103515245u + 12345u;
		/* Heavy-tailed: mostly 100..400, some up to ~2^24. */
		ref[i] = 100 + (rng >> 8) % 300 + ((rng & 0xff) == 0 ? (uint64_t)(rng >> 8) : 0);
		virq_hist_record(&h_, ref[i]);
		sum += ref[i];
	}
	qsort(ref, N, sizeof(ref[0]), cmp_u64_);
	assert_int_equal(h_.min, ref[0]);
	assert_int_equal(h_.max, ref[N - 1]);
	assert_int_equal(h_.sum, sum);
	for (size_t k = 0; k < sizeof(ppms) / sizeof(ppms[0]); k++) {
		uint64_t rank = ((uint64_t)N * ppms[k] + 999999) / 1000000, got = 0, want;

		if (rank == 0)
			rank = 1;
		want = ref[rank - 1];
		assert_int_equal(virq_hist_percentile(&h_, ppms[k], &got), LIBVIRQ_OK);
		assert_true(got >= want);
		assert_true(got - want <= want / 16);
	}
}

static void test_merge_and_saturation(void **state)
{
	struct virq_hist_summary s;

	(void)state;
	virq_hist_init(&h_);
	virq_hist_init(&h2_);
	virq_hist_record(&h_, 3);
	virq_hist_record(&h2_, UINT64_MAX - 1000);
	virq_hist_record(&h2_, 1000);
	assert_false(h2_.sum_saturated);
	assert_int_equal(h2_.sum, UINT64_MAX);
	virq_hist_record(&h2_, 5);
	assert_true(h2_.sum_saturated);
	assert_int_equal(virq_hist_merge(&h_, &h2_), LIBVIRQ_OK);
	assert_int_equal(virq_hist_summarize(&h_, &s), LIBVIRQ_OK);
	assert_int_equal(s.count, 4);
	assert_int_equal(s.min, 3);
	assert_int_equal(s.max, UINT64_MAX - 1000);
	assert_true(h_.sum_saturated);
	assert_int_equal(s.p999, UINT64_MAX - 1000);
	assert_int_equal(s.p50, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bucket_geometry),
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_small_values_exact),
	    cmocka_unit_test(test_percentiles_vs_reference),
	    cmocka_unit_test(test_merge_and_saturation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
