/* SPDX-License-Identifier: MIT */
/*
 * Fault-injection sweep of the AVIC module (AMD APM Vol 2 §15.29): every
 * page allocation of virq_avic_vm_init() (physical table, logical table,
 * internal maps) and of virq_avic_vcpu_init() (backing page) fails in turn,
 * for each table mode, and for a vCPU added to a VM that already runs
 * others. AVIC never waits on hardware (posts are lock-free, the doorbell is
 * one MSR write), so a faulting doorbell MSR is swept instead: the post must
 * fall back to a kick and keep the interrupt pending. Afterwards: nothing
 * leaked, the physical APIC ID table entry of a failed vCPU is still zero
 * (no half-written table), the other vCPUs' entries are unchanged, and the
 * VM is usable (the same vCPU can be created, loaded and posted to).
 */
#include <libvirq/avic.h>
#include <libvirq/sim/cpu.h>

#include "sweep.h"

#define NV 4

struct env {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu v[NV];
};

static virq_status vm_up_(struct env *e, enum virq_avic_mode mode)
{
	struct virq_avic_vm_cfg cfg = {.mode = mode, .max_vcpus = NV, .vm_id = 3};

	return virq_avic_vm_init(&e->vm, &e->hal, &e->caps, &cfg);
}

static void env_new_(struct env *e)
{
	memset(e, 0, sizeof(*e));
	e->sim = virq_sim_new();
	e->hal = virq_sim_hal(e->sim);
	virq_sim_cpu_apply(e->sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_X2AVIC_4K]);
	assert_int_equal(virq_avic_caps_probe(&e->hal, &e->caps), LIBVIRQ_OK);
}

static uint64_t phys_entry_(struct env *e, uint32_t apic_id)
{
	return ((const uint64_t *)e->vm.phys_table.va)[apic_id];
}

static virq_status vcpu_up_(struct env *e, uint32_t i)
{
	struct virq_avic_vcpu_cfg vc = {
	    .index = i, .apic_id = i, .cookie = (void *)(uintptr_t)(0x100 + i)};

	return virq_avic_vcpu_init(&e->vm, &e->v[i], &vc);
}

/* Usable: vCPU i loads, takes a post, and its IRR shows it. */
static void post_ok_(struct env *e, uint32_t i)
{
	const uint32_t *irr;

	assert_int_equal(virq_avic_vcpu_load(&e->v[i], 7 + i), LIBVIRQ_OK);
	assert_int_equal(virq_avic_post(&e->v[i], 0x41, LIBVIRQ_AVIC_NO_CPU), LIBVIRQ_OK);
	irr = (const uint32_t *)((const uint8_t *)virq_avic_vcpu_backing(&e->v[i], NULL) + 0x200);
	assert_true(irr[2 * 4] & (1u << 1)); /* vector 0x41 = IRR2 bit 1 */
	assert_int_equal(virq_avic_vcpu_put(&e->v[i]), LIBVIRQ_OK);
}

static void teardown_(struct env *e, uint32_t nv)
{
	for (uint32_t i = 0; i < nv; i++)
		assert_int_equal(virq_avic_vcpu_destroy(&e->v[i]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_destroy(&e->vm), LIBVIRQ_OK);
	sweep_no_leak(e->sim, 0);
	virq_sim_free(e->sim);
}

static void test_vm_init_alloc_fail_every_n(void **s)
{
	unsigned long cases = 0;

	(void)s;
	for (int mode = LIBVIRQ_AVIC_MODE_XAVIC; mode <= LIBVIRQ_AVIC_MODE_X2AVIC_4K; mode++) {
		for (unsigned long n = 1;; n++) {
			struct env e;
			virq_status st;

			env_new_(&e);
			virq_sim_fail_alloc_nth(e.sim, n);
			st = vm_up_(&e, (enum virq_avic_mode)mode);
			cases++;
			if (st == LIBVIRQ_OK) {
				assert_true(n >= 4); /* three allocations were swept */
				virq_sim_fail_alloc_nth(e.sim, 0);
				assert_int_equal(vcpu_up_(&e, 0), LIBVIRQ_OK);
				post_ok_(&e, 0);
				teardown_(&e, 1);
				break;
			}
			assert_int_equal(st, LIBVIRQ_ENOMEM);
			sweep_no_leak(e.sim, 0);
			/* Cleanly failed: the same storage initialises afterwards. */
			virq_sim_fail_alloc_nth(e.sim, 0);
			assert_int_equal(vm_up_(&e, (enum virq_avic_mode)mode), LIBVIRQ_OK);
			assert_int_equal(vcpu_up_(&e, 0), LIBVIRQ_OK);
			post_ok_(&e, 0);
			teardown_(&e, 1);
		}
	}
	SWEEP_REPORT("avic vm_init alloc", cases);
}

static void test_vcpu_init_alloc_fail(void **s)
{
	unsigned long cases = 0;

	(void)s;
	for (int mode = LIBVIRQ_AVIC_MODE_XAVIC; mode <= LIBVIRQ_AVIC_MODE_X2AVIC_4K; mode++) {
		for (uint32_t k = 0; k < NV; k++) {
			struct env e;
			uint64_t before[NV];

			env_new_(&e);
			assert_int_equal(vm_up_(&e, (enum virq_avic_mode)mode), LIBVIRQ_OK);
			for (uint32_t i = 0; i < k; i++) {
				assert_int_equal(vcpu_up_(&e, i), LIBVIRQ_OK);
				assert_int_equal(virq_avic_vcpu_load(&e.v[i], 7 + i), LIBVIRQ_OK);
			}
			for (uint32_t i = 0; i < NV; i++)
				before[i] = phys_entry_(&e, i);
			virq_sim_fail_alloc_nth(e.sim, 1);
			assert_int_equal(vcpu_up_(&e, k), LIBVIRQ_ENOMEM);
			cases++;
			sweep_no_leak(e.sim, 3 + k);
			for (uint32_t i = 0; i < NV; i++)
				assert_int_equal(phys_entry_(&e, i), before[i]);
			virq_sim_fail_alloc_nth(e.sim, 0);
			assert_int_equal(vcpu_up_(&e, k), LIBVIRQ_OK);
			post_ok_(&e, k);
			for (uint32_t i = 0; i < k; i++)
				assert_int_equal(virq_avic_vcpu_put(&e.v[i]), LIBVIRQ_OK);
			teardown_(&e, k + 1);
		}
	}
	SWEEP_REPORT("avic vcpu_init alloc", cases);
}

/* The doorbell MSR faults: the post kicks instead, the interrupt stays pending. */
static void test_doorbell_fault(void **s)
{
	struct env e;
	struct virq_avic_vcpu_counters c;

	(void)s;
	env_new_(&e);
	assert_int_equal(vm_up_(&e, LIBVIRQ_AVIC_MODE_X2AVIC), LIBVIRQ_OK);
	assert_int_equal(vcpu_up_(&e, 0), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_load(&e.v[0], 9), LIBVIRQ_OK);
	{
		struct virq_avic_vmcb_values vv;

		assert_int_equal(virq_avic_vcpu_vmcb_values(&e.v[0], &vv), LIBVIRQ_OK);
	}
	virq_sim_msr_fault(e.sim, LIBVIRQ_AVIC_DOORBELL_MSR, true);
	{
		virq_status st = virq_avic_post(&e.v[0], 0x55, 3);

		assert_true(st == LIBVIRQ_EHW || st == LIBVIRQ_OK);
		if (st == LIBVIRQ_EHW)
			assert_int_equal(virq_sim_kicks_of(e.sim, (void *)(uintptr_t)0x100), 1);
	}
	assert_true(virq_avic_vcpu_pending(&e.v[0], NULL));
	virq_avic_vcpu_counters_get(&e.v[0], &c);
	assert_int_equal(c.posts, 1);
	virq_sim_msr_fault(e.sim, LIBVIRQ_AVIC_DOORBELL_MSR, false);
	assert_int_equal(virq_avic_vcpu_put(&e.v[0]), LIBVIRQ_OK);
	teardown_(&e, 1);
	SWEEP_REPORT("avic doorbell MSR fault", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vm_init_alloc_fail_every_n),
	    cmocka_unit_test(test_vcpu_init_alloc_fail),
	    cmocka_unit_test(test_doorbell_fault),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
