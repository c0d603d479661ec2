/* SPDX-License-Identifier: MIT */
/*
 * The fake HAL itself (sim): every module's tests stand on it, so
 * each feature is checked here against hand-computed expectations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/hal.h>
#include <libvirq/sim/hal.h>

static struct virq_sim *sim_;
static struct virq_hal hal_;

static int setup(void **state)
{
	(void)state;
	sim_ = virq_sim_new();
	hal_ = virq_sim_hal(sim_);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	virq_sim_free(sim_);
	return 0;
}

#define OPS (hal_.ops)
#define CTX (hal_.ctx)

static void test_is_a_complete_hal(void **state)
{
	(void)state;
	assert_ptr_equal(hal_.ctx, sim_);
	assert_ptr_equal(hal_.ops, virq_sim_hal_ops());
	assert_int_equal(virq_hal_validate(&hal_, LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_CPUID |
						      LIBVIRQ_HAL_NEED_KICK |
						      LIBVIRQ_HAL_NEED_DCACHE),
			 LIBVIRQ_OK);
	assert_non_null(OPS->barrier);
	assert_non_null(OPS->relax);
	assert_non_null(OPS->log);
}

static void test_register_file_32_64(void **state)
{
	(void)state;
	/* Unwritten registers read 0. */
	assert_int_equal(OPS->mmio_read32(CTX, 0x1000), 0);
	OPS->mmio_write32(CTX, 0x1000, 0xdeadbeef);
	assert_int_equal(OPS->mmio_read32(CTX, 0x1000), 0xdeadbeef);
	assert_int_equal(virq_sim_reg_get32(sim_, 0x1000), 0xdeadbeef);
	/* A 64-bit access is two words, low word at the lower address. */
	OPS->mmio_write64(CTX, 0x2000, 0x1122334455667788ull);
	assert_int_equal(virq_sim_reg_get32(sim_, 0x2000), 0x55667788);
	assert_int_equal(virq_sim_reg_get32(sim_, 0x2004), 0x11223344);
	assert_int_equal(OPS->mmio_read32(CTX, 0x2004), 0x11223344);
	assert_int_equal(OPS->mmio_read64(CTX, 0x2000), 0x1122334455667788ull);
	virq_sim_reg_set32(sim_, 0x2004, 0xaabbccdd);
	assert_int_equal(OPS->mmio_read64(CTX, 0x2000), 0xaabbccdd55667788ull);
	virq_sim_reg_set64(sim_, 0x3000, 0x0102030405060708ull);
	assert_int_equal(virq_sim_reg_get64(sim_, 0x3000), 0x0102030405060708ull);
	assert_int_equal(OPS->mmio_read32(CTX, 0x3000), 0x05060708);
	/* Raw accessors are not counted. */
	assert_int_equal(virq_sim_mmio_total(sim_), 8);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MMIO_R32), 4);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MMIO_W32), 1);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MMIO_R64), 2);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MMIO_W64), 1);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, 0x1000), 2);
}

static void test_stuck_register(void **state)
{
	(void)state;
	virq_sim_reg_stick32(sim_, 0x4004, 0x1);
	OPS->mmio_write32(CTX, 0x4004, 0);
	assert_int_equal(OPS->mmio_read32(CTX, 0x4004), 1);
	/* A 64-bit write over a stuck high word changes only the low word. */
	OPS->mmio_write64(CTX, 0x4000, 0xffffffffffffffffull);
	assert_int_equal(OPS->mmio_read64(CTX, 0x4000), 0x00000001ffffffffull);
	/* Writes to a stuck register are still counted. */
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_W32, 0x4004), 1);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_W64, 0x4000), 1);
}

struct hook_log {
	unsigned reads, writes;
	uint64_t last_addr, last_value;
	unsigned last_width;
	uint64_t ret;
};

static uint64_t hook_rd(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct hook_log *h = arg;

	assert_ptr_equal(sim, sim_);
	h->reads++;
	h->last_addr = addr;
	h->last_width = width;
	return h->ret;
}

static void hook_wr(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct hook_log *h = arg;

	assert_ptr_equal(sim, sim_);
	h->writes++;
	h->last_addr = addr;
	h->last_value = v;
	h->last_width = width;
}

static void test_region_hooks(void **state)
{
	struct hook_log a = {.ret = 0xaaaa}, b = {.ret = 0xbbbbbbbbbbbbull};

	(void)state;
	virq_sim_add_region(sim_, 0x10000, 0x1000, hook_rd, hook_wr, &a);
	/* A later region takes precedence where they overlap. */
	virq_sim_add_region(sim_, 0x10800, 0x10, hook_rd, hook_wr, &b);
	assert_int_equal(OPS->mmio_read32(CTX, 0x10004), 0xaaaa);
	assert_int_equal(a.last_width, 32);
	assert_int_equal(a.last_addr, 0x10004);
	assert_int_equal(OPS->mmio_read64(CTX, 0x10808), 0xbbbbbbbbbbbbull);
	assert_int_equal(b.last_width, 64);
	/* A 32-bit read hook result is truncated to 32 bits. */
	assert_int_equal(OPS->mmio_read32(CTX, 0x10800), 0xbbbbbbbbu);
	OPS->mmio_write64(CTX, 0x10ff8, 0x123456789ull);
	assert_int_equal(a.writes, 1);
	assert_int_equal(a.last_value, 0x123456789ull);
	assert_int_equal(a.last_width, 64);
	/* Hooked writes do not reach the register file. */
	assert_int_equal(virq_sim_reg_get64(sim_, 0x10ff8), 0);
	/* The region ends where it says. */
	assert_int_equal(OPS->mmio_read32(CTX, 0x11000), 0);
	assert_int_equal(a.reads, 1);
	assert_int_equal(b.reads, 2);
	/* Hooked accesses are counted like any other. */
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, 0x10004), 1);
}

static void test_region_null_fn_uses_register_file(void **state)
{
	struct hook_log a = {.ret = 7};

	(void)state;
	virq_sim_on_reg(sim_, 0x5000, hook_rd, NULL, &a); /* read hook only */
	OPS->mmio_write32(CTX, 0x5000, 0x99);
	assert_int_equal(virq_sim_reg_get32(sim_, 0x5000), 0x99);
	assert_int_equal(OPS->mmio_read32(CTX, 0x5000), 7);
	virq_sim_on_reg(sim_, 0x6000, NULL, hook_wr, &a); /* write hook only */
	virq_sim_reg_set32(sim_, 0x6000, 0x42);
	assert_int_equal(OPS->mmio_read32(CTX, 0x6000), 0x42);
	OPS->mmio_write32(CTX, 0x6000, 1);
	assert_int_equal(a.last_value, 1);
	assert_int_equal(virq_sim_reg_get32(sim_, 0x6000), 0x42);
}

static virq_status msr_rd_hook(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t *v)
{
	(void)sim;
	*v = (uint64_t)msr << 8 | *(uint64_t *)arg;
	return LIBVIRQ_OK;
}

static virq_status msr_wr_hook(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t v)
{
	(void)sim;
	(void)msr;
	*(uint64_t *)arg = v;
	return v == 0xbad ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static void test_msrs(void **state)
{
	uint64_t v = 1, hooked = 0;

	(void)state;
	assert_int_equal(OPS->msr_read(CTX, 0xc0010200, &v), LIBVIRQ_OK);
	assert_int_equal(v, 0); /* unset MSRs read 0 */
	assert_int_equal(OPS->msr_write(CTX, 0xc0010200, 0x1234), LIBVIRQ_OK);
	assert_int_equal(virq_sim_msr_get(sim_, 0xc0010200), 0x1234);
	virq_sim_msr_set(sim_, 0x1b, 0xfee00900);
	assert_int_equal(OPS->msr_read(CTX, 0x1b, &v), LIBVIRQ_OK);
	assert_int_equal(v, 0xfee00900);

	/* Faults (#GP) on read and write, then cleared. */
	virq_sim_msr_fault(sim_, 0x1b, true);
	virq_sim_msr_fault(sim_, 0x1c, true);
	assert_int_equal(OPS->msr_read(CTX, 0x1b, &v), LIBVIRQ_EHW);
	assert_int_equal(OPS->msr_write(CTX, 0x1b, 0), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_msr_get(sim_, 0x1b),
			 0xfee00900); /* a faulting write changes nothing */
	virq_sim_msr_fault(sim_, 0x1b, false);
	assert_int_equal(OPS->msr_read(CTX, 0x1b, &v), LIBVIRQ_OK);
	assert_int_equal(OPS->msr_read(CTX, 0x1c, &v), LIBVIRQ_EHW); /* the other fault stays */

	/* Hooks. */
	virq_sim_msr_hook(sim_, 0x300, msr_rd_hook, msr_wr_hook, &hooked);
	assert_int_equal(OPS->msr_write(CTX, 0x300, 0x5), LIBVIRQ_OK);
	assert_int_equal(hooked, 5);
	assert_int_equal(OPS->msr_read(CTX, 0x300, &v), LIBVIRQ_OK);
	assert_int_equal(v, 0x30005);
	assert_int_equal(OPS->msr_write(CTX, 0x300, 0xbad), LIBVIRQ_EHW);

	/* Counting: reads/writes, per MSR, including faulted ones. */
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MSR_R), 6);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MSR_W), 4);
	assert_int_equal(virq_sim_msr_total(sim_), 10);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MSR_R, 0x1b), 3);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MSR_W, 0x300), 2);
	assert_int_equal(virq_sim_mmio_total(sim_), 0);
}

static void test_cpuid(void **state)
{
	uint32_t r[4] = {1, 1, 1, 1};

	(void)state;
	virq_sim_cpuid_set(sim_, 0x8000000a, 0, 1, 2, 3, 4);
	virq_sim_cpuid_set(sim_, 0x8000000a, 1, 5, 6, 7, 8);
	OPS->cpuid(CTX, 0x8000000a, 0, r);
	assert_int_equal(r[0], 1);
	assert_int_equal(r[3], 4);
	OPS->cpuid(CTX, 0x8000000a, 1, r);
	assert_int_equal(r[1], 6);
	virq_sim_cpuid_set(sim_, 0x8000000a, 0, 9, 9, 9, 0x2000); /* overwrite */
	OPS->cpuid(CTX, 0x8000000a, 0, r);
	assert_int_equal(r[3], 0x2000);
	OPS->cpuid(CTX, 0x1, 0, r); /* unknown leaf: all zero */
	assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_CPUID), 4);
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i])
			return false;
	return true;
}

static void test_pages_alignment_and_translation(void **state)
{
	static const size_t aligns[] = {4096, 8192, 65536, 1u << 20};
	struct virq_page p[4];

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		size_t size = 3 * 4096 + 100;

		assert_int_equal(OPS->page_alloc(CTX, size, aligns[i], &p[i]), LIBVIRQ_OK);
		assert_non_null(p[i].va);
		assert_int_equal((uintptr_t)p[i].va % aligns[i], 0);
		assert_int_equal(p[i].pa % aligns[i], 0);
		assert_int_not_equal(p[i].pa, (uint64_t)(uintptr_t)p[i].va); /* fake PAs */
		assert_int_equal(p[i].size, size);
		assert_true(all_zero(p[i].va, size));
		memset(p[i].va, 0xa5, size);
	}
	/* Blocks do not overlap in PA space. */
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < i; j++)
			assert_true(p[i].pa >= p[j].pa + p[j].size ||
				    p[j].pa >= p[i].pa + p[i].size);
	/* PA -> VA inside a block, up to its last byte; nothing outside. */
	assert_ptr_equal(virq_sim_pa_to_va(sim_, p[1].pa, 8), p[1].va);
	assert_ptr_equal(virq_sim_pa_to_va(sim_, p[1].pa + 100, 8), (char *)p[1].va + 100);
	assert_ptr_equal(virq_sim_pa_to_va(sim_, p[1].pa + p[1].size - 8, 8),
			 (char *)p[1].va + p[1].size - 8);
	assert_null(virq_sim_pa_to_va(sim_, p[1].pa + p[1].size - 4, 8)); /* crosses the end */
	assert_null(virq_sim_pa_to_va(sim_, p[1].pa - 8, 8));
	assert_null(virq_sim_pa_to_va(sim_, 0x1000, 4));
	assert_int_equal(virq_sim_va_to_pa(sim_, (char *)p[2].va + 12), p[2].pa + 12);
	assert_int_equal(virq_sim_va_to_pa(sim_, &p), UINT64_MAX);

	assert_int_equal(virq_sim_live_pages(sim_), 4);
	assert_int_equal(virq_sim_live_bytes(sim_), 4 * (3 * 4096 + 100));
	for (size_t i = 0; i < 4; i++)
		OPS->page_free(CTX, &p[i]);
	assert_int_equal(virq_sim_live_pages(sim_), 0);
	assert_int_equal(virq_sim_live_bytes(sim_), 0);
	assert_null(virq_sim_pa_to_va(sim_, p[0].pa, 8)); /* freed: no translation */
	assert_int_equal(virq_sim_bad_frees(sim_), 0);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_ALLOC), 4);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_FREE), 4);
}

static void test_pages_bad_requests_and_bad_frees(void **state)
{
	struct virq_page p = {0}, bogus = {(void *)&p, 0x1234000, 4096};

	(void)state;
	assert_int_equal(OPS->page_alloc(CTX, 4096, 2048, &p), LIBVIRQ_EINVAL);	 /* align < 4 KiB */
	assert_int_equal(OPS->page_alloc(CTX, 4096, 12288, &p), LIBVIRQ_EINVAL); /* not 2^n */
	assert_int_equal(OPS->page_alloc(CTX, 0, 4096, &p), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_live_pages(sim_), 0);
	OPS->page_free(CTX, &bogus);
	assert_int_equal(virq_sim_bad_frees(sim_), 1);
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p), LIBVIRQ_OK);
	OPS->page_free(CTX, &p);
	OPS->page_free(CTX, &p); /* double free */
	assert_int_equal(virq_sim_bad_frees(sim_), 2);
}

static void test_fail_nth_allocation(void **state)
{
	struct virq_page p[5];

	(void)state;
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p[0]), LIBVIRQ_OK);
	virq_sim_fail_alloc_nth(sim_, 3); /* the third allocation from now */
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p[1]), LIBVIRQ_OK);
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p[2]), LIBVIRQ_OK);
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p[3]), LIBVIRQ_ENOMEM);
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p[3]), LIBVIRQ_OK); /* only once */
	assert_int_equal(virq_sim_alloc_calls(sim_), 5);
	assert_int_equal(virq_sim_live_pages(sim_), 4);
	virq_sim_fail_alloc_nth(sim_, 1);
	virq_sim_fail_alloc_nth(sim_, 0); /* disabled again */
	assert_int_equal(OPS->page_alloc(CTX, 4096, 4096, &p[4]), LIBVIRQ_OK);
	for (size_t i = 0; i < 5; i++)
		OPS->page_free(CTX, &p[i]);
	assert_int_equal(virq_sim_live_pages(sim_), 0);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_ALLOC),
			 5); /* the failed one is not an alloc */
}

static unsigned relax_calls_;

static void relax_hook(void *arg, struct virq_sim *sim)
{
	(void)sim;
	relax_calls_ += *(unsigned *)arg;
}

static void test_clock_and_relax(void **state)
{
	unsigned one = 1, ten = 10;

	(void)state;
	relax_calls_ = 0;
	assert_int_equal(OPS->now_ns(CTX), 0);
	assert_int_equal(OPS->now_ns(CTX), 0); /* now_step defaults to 0 */
	OPS->relax(CTX);
	assert_int_equal(OPS->now_ns(CTX), 1000); /* relax_step defaults to 1 us */
	virq_sim_set_relax_step(sim_, 250);
	OPS->relax(CTX);
	assert_int_equal(virq_sim_now(sim_), 1250);
	virq_sim_clock_advance(sim_, 750);
	virq_sim_set_now_step(sim_, 5);
	assert_int_equal(OPS->now_ns(CTX), 2000);
	assert_int_equal(OPS->now_ns(CTX), 2005);
	assert_int_equal(virq_sim_now(sim_), 2010); /* the raw read does not step */
	virq_sim_on_relax(sim_, relax_hook, &one);
	virq_sim_on_relax(sim_, relax_hook, &ten);
	OPS->relax(CTX);
	OPS->relax(CTX);
	assert_int_equal(relax_calls_, 22);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_RELAX), 4);
}

static void *kicked_;

static void kick_hook(void *arg, struct virq_sim *sim, void *cookie)
{
	(void)arg;
	(void)sim;
	kicked_ = cookie;
}

static void test_kicks(void **state)
{
	int a, b;

	(void)state;
	OPS->kick_vcpu(CTX, &a);
	virq_sim_on_kick(sim_, kick_hook, NULL);
	OPS->kick_vcpu(CTX, &b);
	OPS->kick_vcpu(CTX, &a);
	assert_ptr_equal(kicked_, &a);
	assert_int_equal(virq_sim_kicks_of(sim_, &a), 2);
	assert_int_equal(virq_sim_kicks_of(sim_, &b), 1);
	assert_int_equal(virq_sim_kicks_of(sim_, NULL), 0);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_KICK), 3);
}

static void test_counters_reset(void **state)
{
	int a;

	(void)state;
	OPS->mmio_write32(CTX, 0x100, 1);
	OPS->mmio_write32(CTX, 0x100, 2);
	OPS->mmio_read32(CTX, 0x104);
	OPS->kick_vcpu(CTX, &a);
	OPS->barrier(CTX, LIBVIRQ_BARRIER_DMA_WMB);
	OPS->dcache_clean(CTX, &a, sizeof(a));
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_W32, 0x100), 2);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, 0x100), 0);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_R32, 0x104), 1);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_BARRIER), 1);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_CLEAN), 1);
	virq_sim_reset_counters(sim_);
	for (int k = 0; k < LIBVIRQ_SIM_KIND_COUNT; k++)
		assert_int_equal(virq_sim_count(sim_, (enum virq_sim_kind)k), 0);
	assert_int_equal(virq_sim_count_at(sim_, LIBVIRQ_SIM_MMIO_W32, 0x100), 0);
	assert_int_equal(virq_sim_kicks_of(sim_, &a), 0);
	assert_int_equal(virq_sim_mmio_total(sim_), 0);
	/* Register contents survive a counter reset. */
	assert_int_equal(virq_sim_reg_get32(sim_, 0x100), 2);
}

static void test_trace(void **state)
{
	uint64_t v;
	struct virq_page p;
	const struct virq_sim_trace_ev *e;

	(void)state;
	OPS->mmio_write32(CTX, 0x100, 1); /* not traced: tracing is off */
	assert_int_equal(virq_sim_trace_len(sim_), 0);
	virq_sim_trace(sim_, true);
	OPS->mmio_write64(CTX, 0x200, 0xabc);
	OPS->msr_read(CTX, 0x10, &v);
	OPS->barrier(CTX, LIBVIRQ_BARRIER_FULL);
	assert_int_equal(OPS->page_alloc(CTX, 8192, 4096, &p), LIBVIRQ_OK);
	OPS->dcache_clean(CTX, p.va, 64);
	OPS->mmio_read32(CTX, 0x200);
	OPS->page_free(CTX, &p);
	virq_sim_trace(sim_, false);
	OPS->mmio_read32(CTX, 0x200);
	assert_int_equal(virq_sim_trace_len(sim_), 7);
	e = virq_sim_trace_at(sim_, 0);
	assert_int_equal(e->kind, LIBVIRQ_SIM_MMIO_W64);
	assert_int_equal(e->addr, 0x200);
	assert_int_equal(e->value, 0xabc);
	assert_int_equal(virq_sim_trace_at(sim_, 1)->kind, LIBVIRQ_SIM_MSR_R);
	assert_int_equal(virq_sim_trace_at(sim_, 2)->kind, LIBVIRQ_SIM_BARRIER);
	assert_int_equal(virq_sim_trace_at(sim_, 2)->value, LIBVIRQ_BARRIER_FULL);
	assert_int_equal(virq_sim_trace_at(sim_, 3)->kind, LIBVIRQ_SIM_ALLOC);
	assert_int_equal(virq_sim_trace_at(sim_, 3)->addr, p.pa);
	assert_int_equal(virq_sim_trace_at(sim_, 3)->value, 8192);
	assert_int_equal(virq_sim_trace_at(sim_, 4)->addr, (uint64_t)(uintptr_t)p.va);
	assert_int_equal(virq_sim_trace_at(sim_, 4)->value, 64);
	assert_int_equal(virq_sim_trace_at(sim_, 5)->value, 0xabc);
	assert_int_equal(virq_sim_trace_at(sim_, 6)->kind, LIBVIRQ_SIM_FREE);
	assert_null(virq_sim_trace_at(sim_, 7));
	/* Ordering questions: was the barrier before the MMIO read? */
	assert_int_equal(virq_sim_trace_find(sim_, 0, LIBVIRQ_SIM_MMIO_R32, 0x200), 5);
	assert_int_equal(virq_sim_trace_find(sim_, 6, LIBVIRQ_SIM_MMIO_R32, 0x200), SIZE_MAX);
	assert_int_equal(virq_sim_trace_find(sim_, 0, LIBVIRQ_SIM_MMIO_W32, 0x100), SIZE_MAX);
	virq_sim_trace_clear(sim_);
	assert_int_equal(virq_sim_trace_len(sim_), 0);
}

static void test_trace_grows(void **state)
{
	(void)state;
	virq_sim_trace(sim_, true);
	for (uint64_t i = 0; i < 5000; i++)
		OPS->mmio_write32(CTX, i * 4, (uint32_t)i);
	assert_int_equal(virq_sim_trace_len(sim_), 5000);
	assert_int_equal(virq_sim_trace_at(sim_, 4321)->addr, 4321 * 4);
	assert_int_equal(virq_sim_count(sim_, LIBVIRQ_SIM_MMIO_W32), 5000);
	assert_int_equal(virq_sim_reg_get32(sim_, 4999 * 4), 4999);
}

static void test_logging(void **state)
{
	const uint64_t vals[2] = {1, 2};

	(void)state;
	assert_null(virq_sim_last_log(sim_));
	OPS->log(CTX, LIBVIRQ_LOG_WARN, "first", vals, 2);
	OPS->log(CTX, LIBVIRQ_LOG_ERROR, "second", NULL, 0);
	assert_string_equal(virq_sim_last_log(sim_), "second");
	assert_true(virq_sim_logged(sim_, "first"));
	assert_false(virq_sim_logged(sim_, "third"));
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_WARN), 1);
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_ERROR), 1);
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_DEBUG), 0);
	/* Only the last 64 messages are kept; counts keep counting. */
	for (int i = 0; i < 100; i++)
		OPS->log(CTX, LIBVIRQ_LOG_DEBUG, i == 99 ? "last" : "filler", NULL, 0);
	assert_false(virq_sim_logged(sim_, "first"));
	assert_string_equal(virq_sim_last_log(sim_), "last");
	assert_int_equal(virq_sim_log_count(sim_, LIBVIRQ_LOG_DEBUG), 100);
}

static void test_free_releases_live_pages(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal h = virq_sim_hal(sim);
	struct virq_page p;

	(void)state;
	/* Leaked pages are reported, and virq_sim_free() still releases them
	 * (so ASan's leak checker only sees the library's own leaks). */
	assert_int_equal(h.ops->page_alloc(h.ctx, 4096, 4096, &p), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(sim), 1);
	virq_sim_free(sim);
	virq_sim_free(NULL);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_is_a_complete_hal),
	    T(test_register_file_32_64),
	    T(test_stuck_register),
	    T(test_region_hooks),
	    T(test_region_null_fn_uses_register_file),
	    T(test_msrs),
	    T(test_cpuid),
	    T(test_pages_alignment_and_translation),
	    T(test_pages_bad_requests_and_bad_frees),
	    T(test_fail_nth_allocation),
	    T(test_clock_and_relax),
	    T(test_kicks),
	    T(test_counters_reset),
	    T(test_trace),
	    T(test_trace_grows),
	    T(test_logging),
	    T(test_free_releases_live_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
