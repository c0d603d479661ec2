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

#define AT_AMD_EBX 0x68747541u
#define AT_AMD_EDX 0x69746e65u
#define AT_AMD_ECX 0x444d4163u

/* CPUID leaf 1 EAX for a display family >= 0xF. */
static inline uint32_t at_fms(uint32_t family, uint32_t model)
{
	return ((family - 0xF) << 20) | (0xFu << 8) | ((model >> 4) << 16) | ((model & 0xF) << 4);
}

/* An AMD CPU of @family with the given Fn8000_000A EDX / ECX. */
static inline void at_cpuid(struct virq_sim *fh, uint32_t family, uint32_t edx, uint32_t ecx)
{
	virq_sim_cpuid_set(fh, 0, 0, 0x10, AT_AMD_EBX, AT_AMD_ECX, AT_AMD_EDX);
	virq_sim_cpuid_set(fh, 1, 0, at_fms(family, 0x11), 0, 0, 0);
	virq_sim_cpuid_set(fh, 0x80000000u, 0, 0x80000021u, 0, 0, 0);
	virq_sim_cpuid_set(fh, 0x80000001u, 0, 0, 0, 0x4, 0);
	virq_sim_cpuid_set(fh, 0x8000000Au, 0, 1, 0x8000, ecx, edx);
}

#define AT_EDX_ALL                                                                                 \
	(LIBVIRQ_AVIC_CPUID_EDX_AVIC | LIBVIRQ_AVIC_CPUID_EDX_X2AVIC | LIBVIRQ_AVIC_CPUID_EDX_VNMI)

/* A test VM: fake HAL, caps (Zen4-like by default), VM with @n vCPUs (APIC ID = index). */
struct at_vm {
	struct virq_sim *fh;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu *v;
	uint32_t n;
	uint8_t (*vmcb)[4096];
};

static inline void at_vm_new_fam(struct at_vm *t, enum virq_avic_mode mode, uint32_t n,
				 uint32_t family)
{
	struct virq_avic_vm_cfg cfg = {.mode = mode, .max_vcpus = n, .vm_id = 5};

	memset(t, 0, sizeof(*t));
	t->fh = virq_sim_new();
	t->hal = virq_sim_hal(t->fh);
	at_cpuid(t->fh, family, AT_EDX_ALL, LIBVIRQ_AVIC_CPUID_ECX_X2AVIC_EXT);
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
	at_vm_new_fam(t, mode, n, 0x19);
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
	assert_int_equal(virq_sim_live_pages(t->fh), 0);
	assert_int_equal(virq_sim_bad_frees(t->fh), 0);
	free(t->v);
	free(t->vmcb);
	virq_sim_free(t->fh);
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
