/* SPDX-License-Identifier: MIT */
/* virq_hal_validate(): every required callback, every need flag, version/size, NULL. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/hal.h>
#include <libvirq/sim/hal.h>

static struct virq_hal_ops ops_;

static struct virq_hal hal_of(const struct virq_hal_ops *ops)
{
	return (struct virq_hal){ops, NULL};
}

static int reset(void **state)
{
	(void)state;
	ops_ = *virq_sim_hal_ops();
	/* hal_of() pairs these ops with a NULL context: the simulator's log
	 * and fail callbacks (which failed checks call) need their own. */
	ops_.log = NULL;
	ops_.fail = NULL;
	return 0;
}

static const uint32_t all_needs_ =
    LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_CPUID | LIBVIRQ_HAL_NEED_KICK | LIBVIRQ_HAL_NEED_DCACHE;

static void test_complete_hal_ok(void **state)
{
	struct virq_hal h = hal_of(&ops_);

	(void)state;
	assert_int_equal(virq_hal_validate(&h, LIBVIRQ_HAL_NEED_CORE), LIBVIRQ_OK);
	assert_int_equal(virq_hal_validate(&h, all_needs_), LIBVIRQ_OK);
}

static void test_null(void **state)
{
	struct virq_hal h = hal_of(NULL);

	(void)state;
	assert_int_equal(virq_hal_validate(NULL, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_EINVAL);
}

static void test_version_and_size(void **state)
{
	struct virq_hal h = hal_of(&ops_);

	(void)state;
	ops_.version = LIBVIRQ_HAL_VERSION + 1;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_EHALVER);
	ops_.version = 0;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_EHALVER);
	ops_.version = LIBVIRQ_HAL_VERSION;
	ops_.size = (uint32_t)LIBVIRQ_HAL_OPS_SIZE_V1 - 1;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_EHALVER);
	/* An ops table compiled before the extensions (up to kick_vcpu) is accepted. */
	ops_.size = (uint32_t)LIBVIRQ_HAL_OPS_SIZE_V1;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_OK);
	ops_.size = 0;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_EHALVER);
	/* A larger struct (an embedder built against a newer header) is accepted. */
	ops_.size = (uint32_t)sizeof(struct virq_hal_ops) + 8;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_OK);
	/* Version is checked before callbacks: a wrong version wins over a hole. */
	ops_.version = 7;
	ops_.mmio_read32 = NULL;
	assert_int_equal(virq_hal_validate(&h, 0), LIBVIRQ_EHALVER);
}

/* Clears the callback at byte offset @off of the ops struct. */
static void clear_at(size_t off)
{
	void *null_fn = NULL;

	memcpy((char *)&ops_ + off, &null_fn, sizeof(null_fn));
}

static void test_each_required_callback(void **state)
{
	static const size_t required[] = {
	    offsetof(struct virq_hal_ops, mmio_read32), offsetof(struct virq_hal_ops, mmio_write32),
	    offsetof(struct virq_hal_ops, mmio_read64), offsetof(struct virq_hal_ops, mmio_write64),
	    offsetof(struct virq_hal_ops, page_alloc),	offsetof(struct virq_hal_ops, page_free),
	    offsetof(struct virq_hal_ops, now_ns),
	};
	struct virq_hal h = hal_of(&ops_);

	(void)state;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		reset(NULL);
		clear_at(required[i]);
		assert_int_equal(virq_hal_validate(&h, LIBVIRQ_HAL_NEED_CORE), LIBVIRQ_ENOHAL);
		assert_int_equal(virq_hal_validate(&h, all_needs_), LIBVIRQ_ENOHAL);
	}
}

static void test_optional_callbacks(void **state)
{
	struct virq_hal h = hal_of(&ops_);

	(void)state;
	ops_.msr_read = NULL;
	ops_.msr_write = NULL;
	ops_.cpuid = NULL;
	ops_.kick_vcpu = NULL;
	ops_.dcache_clean = NULL;
	ops_.barrier = NULL;
	ops_.relax = NULL;
	ops_.log = NULL;
	ops_.fail = NULL;
	assert_int_equal(virq_hal_validate(&h, LIBVIRQ_HAL_NEED_CORE), LIBVIRQ_OK);
}

struct need_case {
	size_t off;    /* callback removed */
	uint32_t need; /* the flag that requires it */
};

static void test_each_need_flag(void **state)
{
	static const struct need_case cases[] = {
	    {offsetof(struct virq_hal_ops, msr_read), LIBVIRQ_HAL_NEED_MSR},
	    {offsetof(struct virq_hal_ops, msr_write), LIBVIRQ_HAL_NEED_MSR},
	    {offsetof(struct virq_hal_ops, cpuid), LIBVIRQ_HAL_NEED_CPUID},
	    {offsetof(struct virq_hal_ops, kick_vcpu), LIBVIRQ_HAL_NEED_KICK},
	    {offsetof(struct virq_hal_ops, dcache_clean), LIBVIRQ_HAL_NEED_DCACHE},
	};
	struct virq_hal h = hal_of(&ops_);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(NULL);
		clear_at(cases[i].off);
		/* Missing only matters when the flag asks for it. */
		assert_int_equal(virq_hal_validate(&h, LIBVIRQ_HAL_NEED_CORE), LIBVIRQ_OK);
		assert_int_equal(virq_hal_validate(&h, all_needs_ & ~cases[i].need), LIBVIRQ_OK);
		assert_int_equal(virq_hal_validate(&h, cases[i].need), LIBVIRQ_ENOHAL);
		assert_int_equal(virq_hal_validate(&h, all_needs_), LIBVIRQ_ENOHAL);
	}
}

static void test_validate_makes_no_calls(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal h = virq_sim_hal(sim);

	(void)state;
	virq_sim_trace(sim, true);
	assert_int_equal(virq_hal_validate(&h, all_needs_), LIBVIRQ_OK);
	assert_int_equal(virq_sim_trace_len(sim), 0);
	assert_int_equal(virq_sim_now(sim), 0);
	virq_sim_free(sim);
}

/* Each missing callback is reported once, by name, at debug level. */
static void test_failure_says_why(void **state)
{
	static const struct {
		size_t off;
		uint32_t need;
		const char *msg;
	} cases[] = {
	    {offsetof(struct virq_hal_ops, mmio_write64), 0,
	     "virq_hal_validate: mmio_write64=NULL"},
	    {offsetof(struct virq_hal_ops, now_ns), 0, "virq_hal_validate: now_ns=NULL"},
	    {offsetof(struct virq_hal_ops, cpuid), LIBVIRQ_HAL_NEED_CPUID,
	     "virq_hal_validate: cpuid=NULL (LIBVIRQ_HAL_NEED_CPUID)"},
	    {offsetof(struct virq_hal_ops, msr_write), LIBVIRQ_HAL_NEED_MSR,
	     "virq_hal_validate: msr_write=NULL (LIBVIRQ_HAL_NEED_MSR)"},
	};
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal h = virq_sim_hal(sim);
	struct virq_failure f;

	(void)state;
	h.ops = &ops_;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ops_ = *virq_sim_hal_ops();
		clear_at(cases[i].off);
		assert_int_equal(virq_hal_validate(&h, cases[i].need), LIBVIRQ_ENOHAL);
		assert_int_equal(virq_sim_fail_count(sim), i + 1);
		assert_true(virq_sim_last_fail(sim, &f));
		assert_string_equal(f.message, cases[i].msg);
		assert_string_equal(f.function, "virq_hal_validate");
		assert_int_equal(f.status, LIBVIRQ_ENOHAL);
	}
	/* success paths report nothing */
	ops_ = *virq_sim_hal_ops();
	assert_int_equal(virq_hal_validate(&h, all_needs_), LIBVIRQ_OK);
	assert_int_equal(virq_sim_fail_count(sim), 4);
	assert_int_equal(virq_sim_log_count(sim, LIBVIRQ_LOG_DEBUG), 4);
	virq_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_complete_hal_ok, reset),
	    cmocka_unit_test_setup(test_null, reset),
	    cmocka_unit_test_setup(test_version_and_size, reset),
	    cmocka_unit_test_setup(test_each_required_callback, reset),
	    cmocka_unit_test_setup(test_optional_callbacks, reset),
	    cmocka_unit_test_setup(test_each_need_flag, reset),
	    cmocka_unit_test_setup(test_validate_makes_no_calls, reset),
	    cmocka_unit_test_setup(test_failure_says_why, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
