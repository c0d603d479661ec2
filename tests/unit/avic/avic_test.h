/* SPDX-License-Identifier: MIT */
/* Shared setup for the AVIC test suites. */
#ifndef AVIC_TEST_H
#define AVIC_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/avic.h>
#include <libvirq/avic/iommu.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/avic.h>
#include <libvirq/sim/cpu.h>

/* CPU profiles: libvirq/sim/cpu.h (one table for the AVIC and PMC suites). */
static inline void at_cpu(struct virq_sim *sim, enum virq_sim_cpu_id id)
{
	virq_sim_cpu_apply(sim, &virq_sim_cpus[id]);
}

/* A test VM: simulator, caps of CPU profile @cpu (default: x2AVIC with the 4K
 * extension), VM with @n vCPUs (APIC ID = index). */
struct at_vm {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu *v;
	uint32_t n;
	uint8_t (*vmcb)[4096];
};

static inline void at_vm_new_cpu(struct at_vm *t, enum virq_avic_mode mode, uint32_t n,
				 enum virq_sim_cpu_id cpu)
{
	struct virq_avic_vm_cfg cfg = {.mode = mode, .max_vcpus = n, .vm_id = 5};

	memset(t, 0, sizeof(*t));
	t->sim = virq_sim_new();
	t->hal = virq_sim_hal(t->sim);
	at_cpu(t->sim, cpu);
	assert_int_equal(virq_avic_caps_probe(&t->hal, &t->caps), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&t->vm, &t->hal, &t->caps, &cfg), LIBVIRQ_OK);
	t->n = n;
	t->v = calloc(n, sizeof(*t->v));
	t->vmcb = calloc(n, sizeof(*t->vmcb));
	for (uint32_t i = 0; i < n; i++) {
		struct virq_avic_vcpu_cfg vc = {
		    .index = i, .apic_id = i, .cookie = (void *)(uintptr_t)(0x1000 + i)};

		assert_int_equal(virq_avic_vcpu_init(&t->vm, &t->v[i], &vc), LIBVIRQ_OK);
		if (mode != LIBVIRQ_AVIC_MODE_XAVIC)
			assert_int_equal(virq_avic_vcpu_set_x2apic(&t->v[i], true), LIBVIRQ_OK);
	}
}

static inline void at_vm_new(struct at_vm *t, enum virq_avic_mode mode, uint32_t n)
{
	at_vm_new_cpu(t, mode, n, LIBVIRQ_SIM_CPU_X2AVIC_4K);
}

/* Loads vCPU @i on host APIC ID @host and writes its VMCB. */
static inline void at_run(struct at_vm *t, uint32_t i, uint32_t host)
{
	struct virq_avic_vmcb_values v;

	assert_int_equal(virq_avic_vcpu_load(&t->v[i], host), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_vmcb_values(&t->v[i], &v), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vmcb_write(t->vmcb[i], &v), LIBVIRQ_OK);
}

/* Writes vCPU @i's VMCB without loading it. */
static inline void at_vmcb(struct at_vm *t, uint32_t i)
{
	struct virq_avic_vmcb_values v;

	assert_int_equal(virq_avic_vcpu_vmcb_values(&t->v[i], &v), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vmcb_write(t->vmcb[i], &v), LIBVIRQ_OK);
}

static inline void at_vm_free(struct at_vm *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		assert_int_equal(virq_avic_vcpu_put(&t->v[i]), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_destroy(&t->v[i]), LIBVIRQ_OK);
	}
	assert_int_equal(virq_avic_vm_destroy(&t->vm), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(t->sim), 0);
	assert_int_equal(virq_sim_bad_frees(t->sim), 0);
	free(t->v);
	free(t->vmcb);
	virq_sim_free(t->sim);
}

static inline bool at_irr(struct at_vm *t, uint32_t i, uint8_t vec)
{
	return virq_sim_avic_irr_test(virq_avic_vcpu_backing(&t->v[i], NULL), vec);
}

static inline uint32_t *at_reg(struct at_vm *t, uint32_t i, uint32_t off)
{
	return (uint32_t *)((uint8_t *)virq_avic_vcpu_backing(&t->v[i], NULL) + off);
}

#endif
