/* SPDX-License-Identifier: MIT */
/*
 * Error sweep of the AVIC and PMC virtualization modules (docs/design.md
 * "Failures"), as test_sweep_errors_gicv4.c is for GICv4: every public
 * function that reports its failures is called into each error its header
 * documents, on a fresh simulated world each time. Each call must return
 * that status and report exactly once (the fail callback), naming the
 * function called, with the check that failed in the message.
 * errors_coverage.py checks that the cases (with the other sweeps') cover
 * every documented (function, error) pair.
 *
 *   test_sweep_errors_amd --list    prints the pairs the cases cover
 */
#include <libvirq/avic.h>
#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/pmc.h>

#include "sweep.h"

#define ZEN5_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5].pmcvirt_caps)
#define ZEN4_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4].pmcvirt_caps)

struct w {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_hal_ops ops; /* a copy of the simulator's, for a case to change */
	struct virq_hal hal2;	 /* through @ops */
	/* AVIC: a live VM with vCPUs 0 and 1, a second live VM with vCPU 0 */
	struct virq_avic_caps acaps;
	struct virq_avic_vm vm, vm2, vm_zero, vm_dead;
	struct virq_avic_vcpu v[2], v2, v_zero, v_dead;
	struct virq_avic_icr icr;
	struct virq_avic_vmcb_values vv;
	struct virq_avic_exit_result res;
	struct virq_avic_vm_counters vc;
	uint32_t count;
	/* AVIC IOMMU: a live registry of 8 slots (none registered), a zeroed and
	 * a destroyed one; VM 0 and its vCPU 0 when a case makes them */
	struct virq_avic_registry reg, reg_small, reg_zero, reg_dead;
	struct virq_avic_vm *slots[8], *slots2[8];
	struct virq_avic_vm vm0;
	struct virq_avic_vcpu v0, *pv;
	struct virq_avic_irte_ref ref, ref2;
	uint64_t irte[2] __attribute__((__aligned__(16)));
	uint64_t irte2[2] __attribute__((__aligned__(16)));
	/* AVIC VM: a configuration and capabilities a case changes */
	struct virq_avic_vm_cfg vcfg;
	struct virq_avic_caps acaps2;
	uint64_t u64;
	/* PMC: a live SW vCPU, a live HW vCPU, zeroed and destroyed storage */
	struct virq_pmcvirt_caps pcaps;
	struct virq_sim_pmc m;
	uint8_t *vmcb, *vmcb12, *vmcb02;
	struct virq_pmcvirt_vcpu p_sw, p_hw, p_zero, p_dead, p_lazy;
	struct virq_pmcvirt_guest g;  /* a guest a case changes */
	struct virq_pmcvirt_state ps; /* a state to restore, zero unless a case sets it */
	uint64_t val;
	bool fail;
};

static const struct virq_avic_vm_cfg cfg_ = {
    .mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = 4, .vm_id = 3};

static void vcpu_up_(struct virq_avic_vm *vm, struct virq_avic_vcpu *v, uint32_t i)
{
	struct virq_avic_vcpu_cfg vc = {
	    .index = i, .apic_id = i, .cookie = (void *)(uintptr_t)(i + 1)};

	assert_int_equal(virq_avic_vcpu_init(vm, v, &vc), LIBVIRQ_OK);
}

static void avic_up_(struct w *w)
{
	virq_sim_cpu_apply(w->sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5]);
	assert_int_equal(virq_avic_caps_probe(&w->hal, &w->acaps), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&w->vm, &w->hal, &w->acaps, &cfg_), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&w->vm2, &w->hal, &w->acaps, &cfg_), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&w->vm_dead, &w->hal, &w->acaps, &cfg_), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_destroy(&w->vm_dead), LIBVIRQ_OK);
	vcpu_up_(&w->vm, &w->v[0], 0);
	vcpu_up_(&w->vm, &w->v[1], 1);
	vcpu_up_(&w->vm2, &w->v2, 0);
	vcpu_up_(&w->vm, &w->v_dead, 2);
	assert_int_equal(virq_avic_vcpu_destroy(&w->v_dead), LIBVIRQ_OK);
	/* vCPU 0 runs on host CPU 7 with AVIC on: a post from elsewhere rings the doorbell */
	assert_int_equal(virq_avic_vcpu_load(&w->v[0], 7), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_vmcb_values(&w->v[0], &w->vv), LIBVIRQ_OK);
	w->icr.vector = 0x40;
	w->icr.dest = 1;
	w->icr.x2apic = true;
	assert_int_equal(virq_avic_registry_init(&w->reg, w->slots, 8), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_init(&w->reg_dead, w->slots2, 8), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_destroy(&w->reg_dead), LIBVIRQ_OK);
}

static void avic_down_(struct w *w)
{
	virq_status st;

	st = virq_avic_irte_detach(&w->v[0], &w->ref);
	st = virq_avic_irte_detach(&w->v[1], &w->ref);
	st = virq_avic_irte_detach(&w->v0, &w->ref);
	st = virq_avic_registry_remove(&w->reg, &w->vm);
	st = virq_avic_registry_remove(&w->reg, &w->vm0);
	st = virq_avic_registry_destroy(&w->reg);
	st = virq_avic_registry_destroy(&w->reg_small);
	st = virq_avic_vcpu_destroy(&w->v0);
	st = virq_avic_vm_destroy(&w->vm0);
	(void)st;
}

static void pmc_up_(struct w *w)
{
	w->vmcb = aligned_alloc(4096, 4096);
	w->vmcb12 = aligned_alloc(4096, 4096);
	w->vmcb02 = aligned_alloc(4096, 4096);
	assert_true(w->vmcb && w->vmcb12 && w->vmcb02);
	memset(w->vmcb, 0, 4096);
	memset(w->vmcb12, 0, 4096);
	memset(w->vmcb02, 0, 4096);
	virq_sim_pmc_init(&w->m, w->sim, w->vmcb, 6, true, true);
	assert_int_equal(virq_pmcvirt_vcpu_init(&w->p_sw, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_SW, 0, NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_vcpu_init(&w->p_hw, &w->hal, ZEN5_CAPS, &virq_sim_guest_pmc6,
						LIBVIRQ_PMCVIRT_MODE_HW, 0, w->vmcb),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_vcpu_init(&w->p_dead, &w->hal, ZEN4_CAPS,
						&virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0,
						NULL),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_vcpu_destroy(&w->p_dead), LIBVIRQ_OK);
}

static void world_up_(struct w *w)
{
	memset(w, 0, sizeof(*w));
	w->sim = virq_sim_new();
	assert_non_null(w->sim);
	w->hal = virq_sim_hal(w->sim);
	w->ops = *w->hal.ops;
	w->hal2 = w->hal;
	w->hal2.ops = &w->ops;
	avic_up_(w);
	pmc_up_(w);
}

/* Tears down what exists (statuses ignored: the cases checked theirs). */
static void world_down_(struct w *w)
{
	virq_status st;

	avic_down_(w);
	virq_sim_msr_fault(w->sim, LIBVIRQ_AVIC_DOORBELL_MSR, false);
	virq_sim_msr_fault(w->sim, LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL, false);
	if (w->p_sw.in_guest)
		st = virq_pmcvirt_exit(&w->p_sw, 0);
	st = virq_pmcvirt_host_restore(&w->p_sw);
	virq_sim_msr_fault(w->sim, LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(0), false);
	st = virq_pmcvirt_host_restore(&w->p_lazy);
	st = virq_pmcvirt_vcpu_destroy(&w->p_lazy);
	if (w->p_hw.in_guest)
		st = virq_pmcvirt_exit(&w->p_hw, virq_sim_pmc_vmrun(&w->m));
	st = virq_pmcvirt_host_restore(&w->p_hw);
	st = virq_pmcvirt_vcpu_destroy(&w->p_hw);
	st = virq_pmcvirt_vcpu_destroy(&w->p_sw);
	st = virq_avic_vcpu_put(&w->v[0]);
	st = virq_avic_vcpu_put(&w->v[1]);
	st = virq_avic_vcpu_destroy(&w->v[0]);
	st = virq_avic_vcpu_destroy(&w->v[1]);
	st = virq_avic_vcpu_destroy(&w->v2);
	st = virq_avic_vm_destroy(&w->vm);
	st = virq_avic_vm_destroy(&w->vm2);
	(void)st;
	sweep_no_leak(w->sim, 0);
	virq_sim_free(w->sim);
	free(w->vmcb);
	free(w->vmcb12);
	free(w->vmcb02);
}

/* ---- set-ups a case may need ---- */

/* The host has PerfMonV2 and reports no core counters. */
static int no_ctrs_(struct w *w)
{
	virq_sim_cpuid_set(w->sim, LIBVIRQ_PMCVIRT_CPUID_PERFMON, 0, 1, 0, 0, 0);
	return 0;
}

static int enter_(struct w *w, struct virq_pmcvirt_vcpu *v)
{
	virq_status st = virq_pmcvirt_host_save(v);

	if (st == LIBVIRQ_OK)
		st = virq_pmcvirt_enter(v);
	assert_int_equal(st, LIBVIRQ_OK);
	(void)w;
	return 0;
}

/* vCPU 1's ICR (APIC offsets 0x300, 0x310) holds an NMI IPI to vCPU 0 (xAPIC
 * layout): it needs ops->deliver. */
#define ICR_NMI_ ((0ull << 56) | (4u << 8) | 2u)
static int icr_nmi_(struct w *w)
{
	uint32_t *regs = virq_avic_vcpu_backing(&w->v[1], NULL);

	regs[0x300 / 4] = (uint32_t)ICR_NMI_;
	regs[0x310 / 4] = (uint32_t)(ICR_NMI_ >> 32);
	return 0;
}

/* AVIC_NOACCEL EXITINFO1 of a write (bit 32) to APIC offset @off ([11:4]). */
#define NOACCEL_WR_(off) ((1ull << 32) | (off))

/* The host PMU of @v saved (before a VMRUN). */
static int saved_(struct w *w, struct virq_pmcvirt_vcpu *v)
{
	(void)w;
	assert_int_equal(virq_pmcvirt_host_save(v), LIBVIRQ_OK);
	return 0;
}

/* Every access to PerfCntrGlobalCtl faults (#GP). */
static int gctl_faults_(struct w *w)
{
	virq_sim_msr_fault(w->sim, LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL, true);
	return 0;
}

/* The lazy vCPU ran: its guest PMU is still in the MSRs, whose reads fault. */
static int lazy_faults_(struct w *w)
{
	assert_int_equal(virq_pmcvirt_vcpu_init(&w->p_lazy, &w->hal, ZEN4_CAPS,
						&virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW,
						LIBVIRQ_PMCVIRT_F_LAZY, NULL),
			 LIBVIRQ_OK);
	enter_(w, &w->p_lazy);
	assert_int_equal(virq_pmcvirt_exit(&w->p_lazy, 0), LIBVIRQ_OK);
	virq_sim_msr_fault(w->sim, LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(0), true);
	return 0;
}

/* VM 0 (vm_id 0, not registrable) with its vCPU 0. */
static int vm0_(struct w *w)
{
	struct virq_avic_vm_cfg c = cfg_;

	c.vm_id = 0;
	assert_int_equal(virq_avic_vm_init(&w->vm0, &w->hal, &w->acaps, &c), LIBVIRQ_OK);
	vcpu_up_(&w->vm0, &w->v0, 0);
	return 0;
}

/* VM 5 without vCPUs (in vm0), registered. */
static int lone_registered_(struct w *w)
{
	struct virq_avic_vm_cfg c = cfg_;

	c.vm_id = 5;
	assert_int_equal(virq_avic_vm_init(&w->vm0, &w->hal, &w->acaps, &c), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_add(&w->reg, &w->vm0), LIBVIRQ_OK);
	return 0;
}

/* The @p n-th page allocation from now fails. */
static int alloc_fails_(struct w *w, unsigned long n)
{
	virq_sim_fail_alloc_nth(w->sim, n);
	return 0;
}

/* w->vcfg and w->acaps2: copies of the world's, for a case to change. */
static int vm_args_(struct w *w)
{
	w->vcfg = cfg_;
	w->acaps2 = w->acaps;
	return 0;
}

/* vCPU configurations of VM vm (max_vcpus 4; vCPUs 0 and 1 use index and APIC ID 0, 1). */
static uint8_t page_[16];
#define VC_(...) (&(const struct virq_avic_vcpu_cfg){__VA_ARGS__})
#define VC3_ VC_(.index = 3, .apic_id = 3)

/* A live registry of two slots (VM id 1 only). */
static int small_reg_(struct w *w)
{
	assert_int_equal(virq_avic_registry_init(&w->reg_small, w->slots2, 2), LIBVIRQ_OK);
	return 0;
}

/* VM 3 (vm) registered. */
static int registered_(struct w *w)
{
	assert_int_equal(virq_avic_registry_add(&w->reg, &w->vm), LIBVIRQ_OK);
	return 0;
}

/* @p ref is attached to @p v (IRTE @p irte, vector 0x40). */
static int attached_(struct virq_avic_vcpu *v, struct virq_avic_irte_ref *ref, uint64_t *irte)
{
	assert_int_equal(virq_avic_irte_attach(v, ref, irte, 0x40), LIBVIRQ_OK);
	return 0;
}

/* The GA tag of VM @p id's vCPU @p idx. */
static uint32_t tag_(uint32_t id, uint32_t idx)
{
	return (id << LIBVIRQ_GATAG_VCPU_BITS) | idx;
}

/* A GA log entry: GA_GUEST_NR (code 1, bits 63:60) of @p tag. */
#define GA_NR_(tag) ((1ull << 60) | (tag))

/* A guest of pmc6's model with SEV-ES. */
static int sev_guest_(struct w *w)
{
	w->g = virq_sim_guest_pmc6;
	w->g.sev_es = true;
	return 0;
}

/* Zen 4's capabilities with four core counters. */
static int four_ctrs_(struct w *w)
{
	w->pcaps = *ZEN4_CAPS;
	w->pcaps.num_core_ctrs = 4;
	return 0;
}

/* A filter of an unknown action. */
static const struct virq_pmcvirt_filter bad_filter_ = {(enum virq_pmcvirt_filter_action)7, 0, NULL};

#define PMC_SW_ LIBVIRQ_PMCVIRT_MODE_SW
#define PMC_HW_ LIBVIRQ_PMCVIRT_MODE_HW
#define PMC_G_ LIBVIRQ_PMCVIRT_GUEST
#define PMC_CTL0_ LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(0)

/*
 * The cases: (function, status, text the message must contain, set-up,
 * call). Each runs on a fresh world: the set-up returns 0, then the call
 * must fail as stated.
 */
#define SH_SELF(w) ((w)->icr.shorthand = LIBVIRQ_APIC_SH_SELF, 0)
#define RESOLVE(vm, snd, icr) virq_avic_resolve((vm), (snd), (icr), NULL, NULL, &w->count)
#define CASES(X)                                                                                   \
	/* ---- AVIC capabilities ---- */                                                          \
	X(virq_avic_caps_probe, EINVAL, "caps=NULL", 0, virq_avic_caps_probe(&w->hal, NULL))       \
	X(virq_avic_caps_probe, ENOHAL, "cpuid=NULL", w->ops.cpuid = NULL,                         \
	  virq_avic_caps_probe(&w->hal2, &w->acaps))                                               \
	/* ---- AVIC destination resolution ---- */                                                \
	X(virq_avic_resolve, EINVAL, "vm=NULL", 0, RESOLVE(NULL, &w->v[1], &w->icr))               \
	X(virq_avic_resolve, EINVAL, "vm not initialised", 0,                                      \
	  RESOLVE(&w->vm_zero, &w->v[1], &w->icr))                                                 \
	X(virq_avic_resolve, EINVAL, "vm destroyed", 0, RESOLVE(&w->vm_dead, NULL, &w->icr))       \
	X(virq_avic_resolve, EINVAL, "icr=NULL", 0, RESOLVE(&w->vm, NULL, NULL))                   \
	X(virq_avic_resolve, EINVAL, "sender destroyed", 0, RESOLVE(&w->vm, &w->v_dead, &w->icr))  \
	X(virq_avic_resolve, EINVAL, "sender not initialised", 0,                                  \
	  RESOLVE(&w->vm, &w->v_zero, &w->icr))                                                    \
	X(virq_avic_resolve, EINVAL, "sender is a vCPU of another VM", 0,                          \
	  RESOLVE(&w->vm, &w->v2, &w->icr))                                                        \
	X(virq_avic_resolve, EINVAL, "(self or all-but-self) with sender=NULL", SH_SELF(w),        \
	  RESOLVE(&w->vm, NULL, &w->icr))                                                          \
	/* ---- AVIC run state ---- */                                                             \
	X(virq_avic_post, EINVAL, "vcpu destroyed", 0, virq_avic_post(&w->v_dead, 0x40, 0))        \
	X(virq_avic_post, ERANGE, "vector=15 < 16", 0, virq_avic_post(&w->v[1], 15, 0))            \
	X(virq_avic_post, ERANGE, "vector=256 > 255", 0, virq_avic_post(&w->v[1], 256, 0))         \
	X(virq_avic_post, EHW, "doorbell MSR write of host APIC ID=7 faulted: vCPU index=0",       \
	  (virq_sim_msr_fault(w->sim, LIBVIRQ_AVIC_DOORBELL_MSR, true), 0),                        \
	  virq_avic_post(&w->v[0], 0x40, 0))                                                       \
	X(virq_avic_vcpu_load, EINVAL, "vcpu destroyed", 0, virq_avic_vcpu_load(&w->v_dead, 1))    \
	X(virq_avic_vcpu_load, ERANGE, "host_apic_id=4096 > 4095", 0,                              \
	  virq_avic_vcpu_load(&w->v[1], 4096))                                                     \
	X(virq_avic_vcpu_load, EBUSY, "vcpu already loaded", 0, virq_avic_vcpu_load(&w->v[0], 1))  \
	X(virq_avic_vcpu_put, EINVAL, "vcpu destroyed", 0, virq_avic_vcpu_put(&w->v_dead))         \
	X(virq_avic_vcpu_block, EINVAL, "vcpu destroyed", 0, virq_avic_vcpu_block(&w->v_dead))     \
	X(virq_avic_vcpu_unblock, EINVAL, "vcpu destroyed", 0,                                     \
	  virq_avic_vcpu_unblock(&w->v_dead, 1))                                                   \
	X(virq_avic_vcpu_unblock, ERANGE, "host_apic_id=4096 > 4095", 0,                           \
	  virq_avic_vcpu_unblock(&w->v[1], 4096))                                                  \
	/* ---- AVIC exits ---- */                                                                 \
	X(virq_avic_emulate_icr, EINVAL, "sender destroyed", 0,                                    \
	  virq_avic_emulate_icr(&w->v_dead, ICR_NMI_, NULL, &w->count))                            \
	X(virq_avic_emulate_icr, ENOTSUP, "delivery mode=4", 0,                                    \
	  virq_avic_emulate_icr(&w->v[1], ICR_NMI_, NULL, &w->count))                              \
	X(virq_avic_handle_incomplete_ipi, EINVAL, "vcpu destroyed", 0,                            \
	  virq_avic_handle_incomplete_ipi(&w->v_dead, 0, 0, NULL, &w->res))                        \
	X(virq_avic_handle_incomplete_ipi, EINVAL, "res=NULL", 0,                                  \
	  virq_avic_handle_incomplete_ipi(&w->v[1], 0, 0, NULL, NULL))                             \
	X(virq_avic_handle_noaccel, EINVAL, "vcpu destroyed", 0,                                   \
	  virq_avic_handle_noaccel(&w->v_dead, 0, 0, NULL, &w->res))                               \
	X(virq_avic_handle_noaccel, EINVAL, "res=NULL", 0,                                         \
	  virq_avic_handle_noaccel(&w->v[1], 0, 0, NULL, NULL))                                    \
	X(virq_avic_handle_noaccel, ENOTSUP, "delivery mode=4", icr_nmi_(w),                       \
	  virq_avic_handle_noaccel(&w->v[1], NOACCEL_WR_(0x300), 0, NULL, &w->res))                \
	X(virq_avic_handle_exit, EINVAL, "vcpu destroyed", 0,                                      \
	  virq_avic_handle_exit(&w->v_dead, 0x401, 0, 0, NULL, &w->res))                           \
	X(virq_avic_handle_exit, EINVAL, "res=NULL", 0,                                            \
	  virq_avic_handle_exit(&w->v[1], 0x401, 0, 0, NULL, NULL))                                \
	X(virq_avic_vm_counters_get, EINVAL, "vm destroyed", 0,                                    \
	  virq_avic_vm_counters_get(&w->vm_dead, &w->vc))                                          \
	X(virq_avic_vm_counters_get, EINVAL, "out=NULL", 0,                                        \
	  virq_avic_vm_counters_get(&w->vm, NULL))                                                 \
	/* ---- AVIC APIC register writes ---- */                                                  \
	X(virq_avic_ldr_write, EINVAL, "vcpu destroyed", 0, virq_avic_ldr_write(&w->v_dead, 0))    \
	X(virq_avic_dfr_write, EINVAL, "vcpu destroyed", 0, virq_avic_dfr_write(&w->v_dead, 0))    \
	X(virq_avic_apic_id_write, EINVAL, "vcpu destroyed", 0,                                    \
	  virq_avic_apic_id_write(&w->v_dead, 0))                                                  \
	/* ---- PMC capabilities ---- */                                                           \
	X(virq_pmcvirt_probe, EINVAL, "caps=NULL", 0, virq_pmcvirt_probe(&w->hal, NULL))           \
	X(virq_pmcvirt_probe, ENOHAL, "cpuid=NULL", w->ops.cpuid = NULL,                           \
	  virq_pmcvirt_probe(&w->hal2, &w->pcaps))                                                 \
	X(virq_pmcvirt_probe, EHW, "NumPerfCtrCore=0 with PerfMonV2=1", no_ctrs_(w),               \
	  virq_pmcvirt_probe(&w->hal, &w->pcaps))                                                  \
	/* ---- AVIC VM and vCPU objects ---- */                                                   \
	X(virq_avic_vm_init, EINVAL, "vm=NULL", 0,                                                 \
	  virq_avic_vm_init(NULL, &w->hal, &w->acaps, &cfg_))                                      \
	X(virq_avic_vm_init, EINVAL, "caps=NULL", 0,                                               \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, NULL, &cfg_))                                    \
	X(virq_avic_vm_init, EINVAL, "cfg=NULL", 0,                                                \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, NULL))                                \
	X(virq_avic_vm_init, EBUSY, "vm already initialised", 0,                                   \
	  virq_avic_vm_init(&w->vm, &w->hal, &w->acaps, &cfg_))                                    \
	X(virq_avic_vm_init, EINVAL, "cfg mode=9 unknown",                                         \
	  (vm_args_(w), w->vcfg.mode = (enum virq_avic_mode)9, 0),                                 \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, EINVAL, "cfg policy=9 unknown",                                       \
	  (vm_args_(w), w->vcfg.policy = (enum virq_avic_policy)9, 0),                             \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, ENOTSUP, "caps avic=0", (vm_args_(w), w->acaps2.avic = false, 0),     \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps2, &cfg_))                              \
	X(virq_avic_vm_init, ENOTSUP, "with caps x2avic=0",                                        \
	  (vm_args_(w), w->acaps2.x2avic = false, 0),                                              \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps2, &cfg_))                              \
	X(virq_avic_vm_init, ERANGE, "cfg max_vcpus=0", (vm_args_(w), w->vcfg.max_vcpus = 0, 0),   \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, ERANGE, "cfg max_vcpus=9999 > the mode's table entries=",             \
	  (vm_args_(w), w->vcfg.max_vcpus = 9999, 0),                                              \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, ERANGE, "cfg vm_id=0x100000 > 0xfffff",                               \
	  (vm_args_(w), w->vcfg.vm_id = 0x100000, 0),                                              \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, EALIGN, "cfg apic_bar=0xfee00004 not 4 KiB aligned",                  \
	  (vm_args_(w), w->vcfg.apic_bar = 0xFEE00004u, 0),                                        \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, ERANGE, "cfg apic_bar=0x10000000000000 >= 2^52",                      \
	  (vm_args_(w), w->vcfg.apic_bar = 1ull << 52, 0),                                         \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &w->vcfg))                            \
	X(virq_avic_vm_init, ENOMEM, "physical APIC ID table: ", alloc_fails_(w, 1),               \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &cfg_))                               \
	X(virq_avic_vm_init, ENOMEM, "vCPU maps: ", alloc_fails_(w, 3),                            \
	  virq_avic_vm_init(&w->vm_zero, &w->hal, &w->acaps, &cfg_))                               \
	X(virq_avic_vm_destroy, EINVAL, "vm destroyed", 0, virq_avic_vm_destroy(&w->vm_dead))      \
	X(virq_avic_vm_destroy, EBUSY, "nr_vcpus=2 vCPUs remain", 0, virq_avic_vm_destroy(&w->vm)) \
	X(virq_avic_vm_destroy, EBUSY, "vm still in a GA-tag registry", lone_registered_(w),       \
	  virq_avic_vm_destroy(&w->vm0))                                                           \
	X(virq_avic_vm_set_policy, EINVAL, "vm destroyed", 0,                                      \
	  virq_avic_vm_set_policy(&w->vm_dead, LIBVIRQ_AVIC_POLICY_KICK))                          \
	X(virq_avic_vm_set_policy, EINVAL, "policy=9 unknown", 0,                                  \
	  virq_avic_vm_set_policy(&w->vm, (enum virq_avic_policy)9))                               \
	X(virq_avic_vm_calibrate, EINVAL, "vm destroyed", 0,                                       \
	  virq_avic_vm_calibrate(&w->vm_dead, 0, NULL, 1, NULL))                                   \
	X(virq_avic_vm_calibrate, ERANGE, "self_host_apic_id=256 > 255", 0,                        \
	  virq_avic_vm_calibrate(&w->vm, 256, NULL, 1, NULL))                                      \
	X(virq_avic_vm_calibrate, ERANGE, "rounds=0", 0,                                           \
	  virq_avic_vm_calibrate(&w->vm, 0, NULL, 0, NULL))                                        \
	X(virq_avic_vm_calibrate, ERANGE, "rounds=65 > 64", 0,                                     \
	  virq_avic_vm_calibrate(&w->vm, 0, NULL, 65, NULL))                                       \
	X(virq_avic_vm_calibrate, EHW, "the doorbell MSR write faulted",                           \
	  (virq_sim_msr_fault(w->sim, LIBVIRQ_AVIC_DOORBELL_MSR, true), 0),                        \
	  virq_avic_vm_calibrate(&w->vm, 0, NULL, 1, NULL))                                        \
	X(virq_avic_vm_inhibit, EINVAL, "vm destroyed", 0,                                         \
	  virq_avic_vm_inhibit(&w->vm_dead, LIBVIRQ_AVIC_INHIBIT_HYPERV))                          \
	X(virq_avic_vm_inhibit, EINVAL, "reason=99 >= LIBVIRQ_AVIC_INHIBIT_COUNT=13", 0,           \
	  virq_avic_vm_inhibit(&w->vm, (enum virq_avic_inhibit)99))                                \
	X(virq_avic_vm_inhibit, EINVAL, "reason=NESTED is per vCPU", 0,                            \
	  virq_avic_vm_inhibit(&w->vm, LIBVIRQ_AVIC_INHIBIT_NESTED))                               \
	X(virq_avic_vm_uninhibit, EINVAL, "vm destroyed", 0,                                       \
	  virq_avic_vm_uninhibit(&w->vm_dead, LIBVIRQ_AVIC_INHIBIT_HYPERV))                        \
	X(virq_avic_vm_uninhibit, EINVAL, "reason=99 >= LIBVIRQ_AVIC_INHIBIT_COUNT=13", 0,         \
	  virq_avic_vm_uninhibit(&w->vm, (enum virq_avic_inhibit)99))                              \
	X(virq_avic_vm_uninhibit, EINVAL, "reason=NESTED is per vCPU", 0,                          \
	  virq_avic_vm_uninhibit(&w->vm, LIBVIRQ_AVIC_INHIBIT_NESTED))                             \
	X(virq_avic_vcpu_init, EINVAL, "vm destroyed", 0,                                          \
	  virq_avic_vcpu_init(&w->vm_dead, &w->v_zero, VC3_))                                      \
	X(virq_avic_vcpu_init, EINVAL, "vcpu=NULL", 0, virq_avic_vcpu_init(&w->vm, NULL, VC3_))    \
	X(virq_avic_vcpu_init, EINVAL, "cfg=NULL", 0,                                              \
	  virq_avic_vcpu_init(&w->vm, &w->v_zero, NULL))                                           \
	X(virq_avic_vcpu_init, EBUSY, "vcpu already initialised", 0,                               \
	  virq_avic_vcpu_init(&w->vm, &w->v[1], VC3_))                                             \
	X(virq_avic_vcpu_init, ERANGE, "cfg index=4 >= max_vcpus=4", 0,                            \
	  virq_avic_vcpu_init(&w->vm, &w->v_zero, VC_(.index = 4, .apic_id = 3)))                  \
	X(virq_avic_vcpu_init, ERANGE, "cfg apic_id=4096 > the table's largest ID=", 0,            \
	  virq_avic_vcpu_init(&w->vm, &w->v_zero, VC_(.index = 3, .apic_id = 4096)))               \
	X(virq_avic_vcpu_init, EEXIST, "cfg index=1 used by another vCPU", 0,                      \
	  virq_avic_vcpu_init(&w->vm, &w->v_zero, VC_(.index = 1, .apic_id = 3)))                  \
	X(virq_avic_vcpu_init, EEXIST, "cfg apic_id=1 used by another vCPU", 0,                    \
	  virq_avic_vcpu_init(&w->vm, &w->v_zero, VC_(.index = 3, .apic_id = 1)))                  \
	X(virq_avic_vcpu_init, EALIGN, "cfg backing_pa=0x1004 not 4 KiB aligned", 0,               \
	  virq_avic_vcpu_init(                                                                     \
	      &w->vm, &w->v_zero,                                                                  \
	      VC_(.index = 3, .apic_id = 3, .backing_va = page_, .backing_pa = 0x1004)))           \
	X(virq_avic_vcpu_init, ERANGE, "cfg backing_pa=0x10000000000000 >= 2^52", 0,               \
	  virq_avic_vcpu_init(                                                                     \
	      &w->vm, &w->v_zero,                                                                  \
	      VC_(.index = 3, .apic_id = 3, .backing_va = page_, .backing_pa = 1ull << 52)))       \
	X(virq_avic_vcpu_init, ENOMEM, "backing page: 4096 bytes", alloc_fails_(w, 1),             \
	  virq_avic_vcpu_init(&w->vm, &w->v_zero, VC3_))                                           \
	X(virq_avic_vcpu_destroy, EINVAL, "vcpu destroyed", 0, virq_avic_vcpu_destroy(&w->v_dead)) \
	X(virq_avic_vcpu_destroy, EBUSY, "vcpu loaded", 0, virq_avic_vcpu_destroy(&w->v[0]))       \
	X(virq_avic_vcpu_destroy, EBUSY, "IRTEs attached", attached_(&w->v[1], &w->ref, w->irte),  \
	  virq_avic_vcpu_destroy(&w->v[1]))                                                        \
	X(virq_avic_vcpu_set_x2apic, EINVAL, "vcpu destroyed", 0,                                  \
	  virq_avic_vcpu_set_x2apic(&w->v_dead, true))                                             \
	X(virq_avic_vcpu_vmcb_values, EINVAL, "vcpu destroyed", 0,                                 \
	  virq_avic_vcpu_vmcb_values(&w->v_dead, &w->vv))                                          \
	X(virq_avic_vcpu_vmcb_values, EINVAL, "out=NULL", 0,                                       \
	  virq_avic_vcpu_vmcb_values(&w->v[0], NULL))                                              \
	/* ---- AVIC IOMMU: GA-tag registry, IRTEs ---- */                                         \
	X(virq_avic_registry_add, EINVAL, "reg destroyed", 0,                                      \
	  virq_avic_registry_add(&w->reg_dead, &w->vm))                                            \
	X(virq_avic_registry_add, EINVAL, "reg not initialised (state=0x0)", 0,                    \
	  virq_avic_registry_add(&w->reg_zero, &w->vm))                                            \
	X(virq_avic_registry_add, EINVAL, "vm destroyed", 0,                                       \
	  virq_avic_registry_add(&w->reg, &w->vm_dead))                                            \
	X(virq_avic_registry_add, ERANGE, "vm_id=0", vm0_(w),                                      \
	  virq_avic_registry_add(&w->reg, &w->vm0))                                                \
	X(virq_avic_registry_add, ERANGE, "vm_id=3 >= nslots=2", small_reg_(w),                    \
	  virq_avic_registry_add(&w->reg_small, &w->vm))                                           \
	X(virq_avic_registry_add, EEXIST, "vm already registered", registered_(w),                 \
	  virq_avic_registry_add(&w->reg, &w->vm))                                                 \
	X(virq_avic_registry_add, EEXIST, "vm_id=3 already registered by another VM",              \
	  registered_(w), virq_avic_registry_add(&w->reg, &w->vm2))                                \
	X(virq_avic_registry_remove, EINVAL, "reg not initialised", 0,                             \
	  virq_avic_registry_remove(&w->reg_zero, &w->vm))                                         \
	X(virq_avic_registry_remove, EINVAL, "vm destroyed", 0,                                    \
	  virq_avic_registry_remove(&w->reg, &w->vm_dead))                                         \
	X(virq_avic_registry_remove, ENOENT, "vm not in this registry", 0,                         \
	  virq_avic_registry_remove(&w->reg, &w->vm))                                              \
	X(virq_avic_registry_lookup, ENOENT, "tag=0x3002: the VM has no vCPU of index=2",          \
	  registered_(w), virq_avic_registry_lookup(&w->reg, tag_(3, 2), NULL, &w->pv))            \
	X(virq_avic_registry_lookup, ENOENT, "vCPU index=5 >= the VM's max_vcpus=4",               \
	  registered_(w), virq_avic_registry_lookup(&w->reg, tag_(3, 5), NULL, &w->pv))            \
	X(virq_avic_ga_log_handle, ENOENT, "the VM has no vCPU of index=2", registered_(w),        \
	  virq_avic_ga_log_handle(&w->reg, GA_NR_(tag_(3, 2)), &w->pv))                            \
	X(virq_avic_irte_attach, EINVAL, "vcpu destroyed", 0,                                      \
	  virq_avic_irte_attach(&w->v_dead, &w->ref, w->irte, 0x40))                               \
	X(virq_avic_irte_attach, EINVAL, "ref=NULL", 0,                                            \
	  virq_avic_irte_attach(&w->v[0], NULL, w->irte, 0x40))                                    \
	X(virq_avic_irte_attach, EINVAL, "irte=NULL", 0,                                           \
	  virq_avic_irte_attach(&w->v[0], &w->ref, NULL, 0x40))                                    \
	X(virq_avic_irte_attach, EINVAL, "VM has vm_id=0", vm0_(w),                                \
	  virq_avic_irte_attach(&w->v0, &w->ref, w->irte, 0x40))                                   \
	X(virq_avic_irte_attach, ERANGE, "vector=15 < 16", 0,                                      \
	  virq_avic_irte_attach(&w->v[0], &w->ref, w->irte, 15))                                   \
	X(virq_avic_irte_attach, EEXIST, "ref already attached to a vCPU",                         \
	  attached_(&w->v[0], &w->ref, w->irte),                                                   \
	  virq_avic_irte_attach(&w->v[1], &w->ref, w->irte2, 0x41))                                \
	X(virq_avic_irte_attach, EEXIST, "irte already attached to a vCPU of this VM",             \
	  attached_(&w->v[0], &w->ref, w->irte),                                                   \
	  virq_avic_irte_attach(&w->v[1], &w->ref2, w->irte, 0x41))                                \
	X(virq_avic_irte_detach, EINVAL, "vcpu destroyed", 0,                                      \
	  virq_avic_irte_detach(&w->v_dead, &w->ref))                                              \
	X(virq_avic_irte_detach, EINVAL, "ref=NULL", 0, virq_avic_irte_detach(&w->v[0], NULL))     \
	X(virq_avic_irte_detach, ENOENT, "ref not attached", 0,                                    \
	  virq_avic_irte_detach(&w->v[0], &w->ref))                                                \
	X(virq_avic_irte_detach, ENOENT, "ref attached to another vCPU",                           \
	  attached_(&w->v[0], &w->ref, w->irte), virq_avic_irte_detach(&w->v[1], &w->ref))         \
	/* ---- PMC host PMU and world switch ---- */                                              \
	X(virq_pmcvirt_host_set_used, EINVAL, "vcpu destroyed", 0,                                 \
	  virq_pmcvirt_host_set_used(&w->p_dead, 1))                                               \
	X(virq_pmcvirt_host_set_used, EBUSY, "host PMU saved", saved_(w, &w->p_sw),                \
	  virq_pmcvirt_host_set_used(&w->p_sw, 1))                                                 \
	X(virq_pmcvirt_host_set_used, EBUSY, "vcpu in the guest", enter_(w, &w->p_hw),             \
	  virq_pmcvirt_host_set_used(&w->p_hw, 1))                                                 \
	X(virq_pmcvirt_host_set_used, ERANGE,                                                      \
	  "mask=0x40 names a counter >= the host's counters=6", 0,                                 \
	  virq_pmcvirt_host_set_used(&w->p_sw, 1u << 6))                                           \
	X(virq_pmcvirt_host_save, EINVAL, "vcpu destroyed", 0, virq_pmcvirt_host_save(&w->p_dead)) \
	X(virq_pmcvirt_host_save, EBUSY, "host PMU already saved", saved_(w, &w->p_sw),            \
	  virq_pmcvirt_host_save(&w->p_sw))                                                        \
	X(virq_pmcvirt_host_save, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                 \
	  virq_pmcvirt_host_save(&w->p_sw))                                                        \
	X(virq_pmcvirt_host_save, EHW, "a PMU MSR access faulted", gctl_faults_(w),                \
	  virq_pmcvirt_host_save(&w->p_sw))                                                        \
	X(virq_pmcvirt_host_restore, EINVAL, "vcpu destroyed", 0,                                  \
	  virq_pmcvirt_host_restore(&w->p_dead))                                                   \
	X(virq_pmcvirt_host_restore, EINVAL, "host PMU not saved", 0,                              \
	  virq_pmcvirt_host_restore(&w->p_sw))                                                     \
	X(virq_pmcvirt_host_restore, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),              \
	  virq_pmcvirt_host_restore(&w->p_sw))                                                     \
	X(virq_pmcvirt_host_restore, EHW, "a PMU MSR access faulted", lazy_faults_(w),             \
	  virq_pmcvirt_host_restore(&w->p_lazy))                                                   \
	X(virq_pmcvirt_enter, EINVAL, "vcpu destroyed", 0, virq_pmcvirt_enter(&w->p_dead))         \
	X(virq_pmcvirt_enter, EINVAL, "host PMU not saved", 0, virq_pmcvirt_enter(&w->p_sw))       \
	X(virq_pmcvirt_enter, EBUSY, "vcpu already entered", enter_(w, &w->p_sw),                  \
	  virq_pmcvirt_enter(&w->p_sw))                                                            \
	X(virq_pmcvirt_enter, EHW, "a PMU MSR write faulted",                                      \
	  (saved_(w, &w->p_sw), gctl_faults_(w)), virq_pmcvirt_enter(&w->p_sw))                    \
	X(virq_pmcvirt_exit, EINVAL, "vcpu destroyed", 0, virq_pmcvirt_exit(&w->p_dead, 0))        \
	X(virq_pmcvirt_exit, EINVAL, "vcpu not entered", 0, virq_pmcvirt_exit(&w->p_sw, 0))        \
	X(virq_pmcvirt_exit, EHW, "a PMU MSR access faulted",                                      \
	  (enter_(w, &w->p_sw), gctl_faults_(w)), virq_pmcvirt_exit(&w->p_sw, 0))                  \
	/* ---- PMC vCPU ---- */                                                                   \
	X(virq_pmcvirt_vcpu_init, EINVAL, "vcpu=NULL", 0,                                          \
	  virq_pmcvirt_vcpu_init(NULL, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6, PMC_SW_, 0,       \
				 NULL))                                                            \
	X(virq_pmcvirt_vcpu_init, EINVAL, "guest=NULL", 0,                                         \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, ZEN4_CAPS, NULL, PMC_SW_, 0, NULL))          \
	X(virq_pmcvirt_vcpu_init, EINVAL, "caps=NULL", 0,                                          \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, NULL, &virq_sim_guest_pmc6, PMC_SW_, 0,      \
				 NULL))                                                            \
	X(virq_pmcvirt_vcpu_init, EINVAL, "vmcb=NULL with mode=HW", 0,                             \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, ZEN5_CAPS, &virq_sim_guest_pmc6, PMC_HW_, 0, \
				 NULL))                                                            \
	X(virq_pmcvirt_vcpu_init, EINVAL, "not 8-byte aligned with mode=HW", 0,                    \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, ZEN5_CAPS, &virq_sim_guest_pmc6, PMC_HW_, 0, \
				 w->vmcb02 + 4))                                                   \
	X(virq_pmcvirt_vcpu_init, EINVAL, "flags=0x80000000 has unknown bits 0x80000000", 0,       \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6, PMC_SW_,    \
				 1u << 31, NULL))                                                  \
	X(virq_pmcvirt_vcpu_init, EBUSY, "vcpu already initialised", 0,                            \
	  virq_pmcvirt_vcpu_init(&w->p_sw, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6, PMC_SW_, 0,   \
				 NULL))                                                            \
	X(virq_pmcvirt_vcpu_init, ENOTSUP, "HW mode: host caps", 0,                                \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, ZEN4_CAPS, &virq_sim_guest_pmc6, PMC_HW_, 0, \
				 w->vmcb02))                                                       \
	X(virq_pmcvirt_vcpu_init, EINHIBITED, "HW mode: guest sev_es=1", sev_guest_(w),            \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, ZEN5_CAPS, &w->g, PMC_HW_, 0, w->vmcb02))    \
	X(virq_pmcvirt_vcpu_init, ERANGE, "guest ncounters=6 > caps num_core_ctrs=4",              \
	  four_ctrs_(w),                                                                           \
	  virq_pmcvirt_vcpu_init(&w->p_zero, &w->hal, &w->pcaps, &virq_sim_guest_pmc6, PMC_SW_, 0, \
				 NULL))                                                            \
	X(virq_pmcvirt_vcpu_destroy, EINVAL, "vcpu destroyed", 0,                                  \
	  virq_pmcvirt_vcpu_destroy(&w->p_dead))                                                   \
	X(virq_pmcvirt_vcpu_destroy, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),              \
	  virq_pmcvirt_vcpu_destroy(&w->p_sw))                                                     \
	X(virq_pmcvirt_vcpu_destroy, EBUSY, "host PMU saved", saved_(w, &w->p_sw),                 \
	  virq_pmcvirt_vcpu_destroy(&w->p_sw))                                                     \
	X(virq_pmcvirt_vcpu_reset, EINVAL, "vcpu destroyed", 0,                                    \
	  virq_pmcvirt_vcpu_reset(&w->p_dead))                                                     \
	X(virq_pmcvirt_vcpu_reset, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                \
	  virq_pmcvirt_vcpu_reset(&w->p_sw))                                                       \
	X(virq_pmcvirt_set_filter, EINVAL, "vcpu destroyed", 0,                                    \
	  virq_pmcvirt_set_filter(&w->p_dead, NULL))                                               \
	X(virq_pmcvirt_set_filter, EINVAL, "filter refused", 0,                                    \
	  virq_pmcvirt_set_filter(&w->p_sw, &bad_filter_))                                         \
	X(virq_pmcvirt_set_filter, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                \
	  virq_pmcvirt_set_filter(&w->p_sw, NULL))                                                 \
	X(virq_pmcvirt_msr_read, EINVAL, "vcpu destroyed", 0,                                      \
	  virq_pmcvirt_msr_read(&w->p_dead, PMC_CTL0_, PMC_G_, &w->val))                           \
	X(virq_pmcvirt_msr_read, EINVAL, "value=NULL", 0,                                          \
	  virq_pmcvirt_msr_read(&w->p_sw, PMC_CTL0_, PMC_G_, NULL))                                \
	X(virq_pmcvirt_msr_read, EINVAL, "origin=7 unknown", 0,                                    \
	  virq_pmcvirt_msr_read(&w->p_sw, PMC_CTL0_, (enum virq_pmcvirt_origin)7, &w->val))        \
	X(virq_pmcvirt_msr_read, ENOENT, "msr=0x10 not in the guest's PMU", 0,                     \
	  virq_pmcvirt_msr_read(&w->p_sw, 0x10, PMC_G_, &w->val))                                  \
	X(virq_pmcvirt_msr_read, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                  \
	  virq_pmcvirt_msr_read(&w->p_sw, PMC_CTL0_, PMC_G_, &w->val))                             \
	X(virq_pmcvirt_msr_write, EINVAL, "vcpu destroyed", 0,                                     \
	  virq_pmcvirt_msr_write(&w->p_dead, PMC_CTL0_, PMC_G_, 0))                                \
	X(virq_pmcvirt_msr_write, EINVAL, "origin=7 unknown", 0,                                   \
	  virq_pmcvirt_msr_write(&w->p_sw, PMC_CTL0_, (enum virq_pmcvirt_origin)7, 0))             \
	X(virq_pmcvirt_msr_write, ENOENT, "msr=0x10 not in the guest's PMU", 0,                    \
	  virq_pmcvirt_msr_write(&w->p_sw, 0x10, PMC_G_, 0))                                       \
	X(virq_pmcvirt_msr_write, EINVAL, "has reserved bits", 0,                                  \
	  virq_pmcvirt_msr_write(&w->p_sw, PMC_CTL0_, PMC_G_, LIBVIRQ_PMCVIRT_EVTSEL_RSVD))        \
	X(virq_pmcvirt_msr_write, EINVAL, "PerfCntrGlobalStatus is read-only", 0,                  \
	  virq_pmcvirt_msr_write(&w->p_sw, LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS, PMC_G_, 0))          \
	X(virq_pmcvirt_msr_write, EINVAL, "value=0x40 has bits >= the guest's ncounters=6", 0,     \
	  virq_pmcvirt_msr_write(&w->p_sw, LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL, PMC_G_, 1u << 6))       \
	X(virq_pmcvirt_msr_write, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                 \
	  virq_pmcvirt_msr_write(&w->p_sw, PMC_CTL0_, PMC_G_, 0))                                  \
	X(virq_pmcvirt_rdpmc, EINVAL, "vcpu destroyed", 0,                                         \
	  virq_pmcvirt_rdpmc(&w->p_dead, 0, &w->val))                                              \
	X(virq_pmcvirt_rdpmc, EINVAL, "value=NULL", 0, virq_pmcvirt_rdpmc(&w->p_sw, 0, NULL))      \
	X(virq_pmcvirt_rdpmc, EINVAL, "ecx=6 >= the guest's ncounters=6", 0,                       \
	  virq_pmcvirt_rdpmc(&w->p_sw, 6, &w->val))                                                \
	X(virq_pmcvirt_rdpmc, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                     \
	  virq_pmcvirt_rdpmc(&w->p_sw, 0, &w->val))                                                \
	X(virq_pmcvirt_emulated_event, EINVAL, "vcpu destroyed", 0,                                \
	  virq_pmcvirt_emulated_event(&w->p_dead, 0xC0, 0, false, NULL))                           \
	X(virq_pmcvirt_emulated_event, ERANGE, "event=0x1000 > 0xfff", 0,                          \
	  virq_pmcvirt_emulated_event(&w->p_sw, 0x1000, 0, false, NULL))                           \
	X(virq_pmcvirt_emulated_event, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),            \
	  virq_pmcvirt_emulated_event(&w->p_sw, 0xC0, 0, false, NULL))                             \
	X(virq_pmcvirt_save_state, EINVAL, "vcpu destroyed", 0,                                    \
	  virq_pmcvirt_save_state(&w->p_dead, &w->ps))                                             \
	X(virq_pmcvirt_save_state, EINVAL, "state=NULL", 0,                                        \
	  virq_pmcvirt_save_state(&w->p_sw, NULL))                                                 \
	X(virq_pmcvirt_save_state, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),                \
	  virq_pmcvirt_save_state(&w->p_sw, &w->ps))                                               \
	X(virq_pmcvirt_restore_state, EINVAL, "vcpu destroyed", 0,                                 \
	  virq_pmcvirt_restore_state(&w->p_dead, &w->ps))                                          \
	X(virq_pmcvirt_restore_state, EINVAL, "state=NULL", 0,                                     \
	  virq_pmcvirt_restore_state(&w->p_sw, NULL))                                              \
	X(virq_pmcvirt_restore_state, EBUSY, "vcpu in the guest", enter_(w, &w->p_sw),             \
	  virq_pmcvirt_restore_state(&w->p_sw, &w->ps))                                            \
	X(virq_pmcvirt_restore_state, EINVAL, "perf_ctl[2]=", (w->ps.perf_ctl[2] = ~0ull, 0),      \
	  virq_pmcvirt_restore_state(&w->p_sw, &w->ps))                                            \
	X(virq_pmcvirt_restore_state, ERANGE, "perf_ctr[1]=0x1000000000000 > 48 bits",             \
	  (w->ps.perf_ctr[1] = 1ull << 48, 0), virq_pmcvirt_restore_state(&w->p_sw, &w->ps))       \
	X(virq_pmcvirt_restore_state, ERANGE, "instr_retired=0x1000000000000 > 48 bits",           \
	  (w->ps.instr_retired = 1ull << 48, 0), virq_pmcvirt_restore_state(&w->p_sw, &w->ps))     \
	X(virq_pmcvirt_restore_state, EINVAL, "global_ctl=0x40 has bits >= the guest's",           \
	  (w->ps.global_ctl = 1u << 6, 0), virq_pmcvirt_restore_state(&w->p_sw, &w->ps))           \
	X(virq_pmcvirt_restore_state, EINVAL, "global_sts=0x80 has bits >= the guest's",           \
	  (w->ps.global_sts = 1u << 7, 0), virq_pmcvirt_restore_state(&w->p_sw, &w->ps))           \
	/* ---- PMC nested ---- */                                                                 \
	X(virq_pmcvirt_nested_vmrun, EINVAL, "vcpu destroyed", 0,                                  \
	  virq_pmcvirt_nested_vmrun(&w->p_dead, false, w->vmcb12, w->vmcb02, &w->fail))            \
	X(virq_pmcvirt_nested_vmrun, EINVAL, "vmcb12=NULL", 0,                                     \
	  virq_pmcvirt_nested_vmrun(&w->p_hw, false, NULL, w->vmcb02, &w->fail))                   \
	X(virq_pmcvirt_nested_vmrun, EINVAL, "vmcb02=NULL", 0,                                     \
	  virq_pmcvirt_nested_vmrun(&w->p_hw, false, w->vmcb12, NULL, &w->fail))                   \
	X(virq_pmcvirt_nested_vmrun, EINVAL, "is not LIBVIRQ_PMCVIRT_MODE_HW", 0,                  \
	  virq_pmcvirt_nested_vmrun(&w->p_sw, false, w->vmcb12, w->vmcb02, &w->fail))              \
	X(virq_pmcvirt_nested_vmrun, EINVAL, "fail=NULL", 0,                                       \
	  virq_pmcvirt_nested_vmrun(&w->p_hw, false, w->vmcb12, w->vmcb02, NULL))                  \
	X(virq_pmcvirt_nested_vmrun, EBUSY, "vcpu in the guest", enter_(w, &w->p_hw),              \
	  virq_pmcvirt_nested_vmrun(&w->p_hw, false, w->vmcb12, w->vmcb02, &w->fail))              \
	X(virq_pmcvirt_nested_vmexit, EINVAL, "vcpu destroyed", 0,                                 \
	  virq_pmcvirt_nested_vmexit(&w->p_dead, w->vmcb12, w->vmcb02))                            \
	X(virq_pmcvirt_nested_vmexit, EINVAL, "vmcb12=NULL", 0,                                    \
	  virq_pmcvirt_nested_vmexit(&w->p_hw, NULL, w->vmcb02))                                   \
	X(virq_pmcvirt_nested_vmexit, EINVAL, "vmcb02=NULL", 0,                                    \
	  virq_pmcvirt_nested_vmexit(&w->p_hw, w->vmcb12, NULL))                                   \
	X(virq_pmcvirt_nested_vmexit, EINVAL, "is not LIBVIRQ_PMCVIRT_MODE_HW", 0,                 \
	  virq_pmcvirt_nested_vmexit(&w->p_sw, w->vmcb12, w->vmcb02))                              \
	X(virq_pmcvirt_nested_vmexit, EBUSY, "vcpu in the guest", enter_(w, &w->p_hw),             \
	  virq_pmcvirt_nested_vmexit(&w->p_hw, w->vmcb12, w->vmcb02))

struct case_ {
	const char *fn;
	virq_status st;
	const char *check;
};

static const struct case_ cases_[] = {
#define X(fn, st, chk, prep, call) {#fn, LIBVIRQ_##st, chk},
    CASES(X)
#undef X
};

#define NCASES (sizeof(cases_) / sizeof(cases_[0]))

/* Case @i's set-up (@call_it false) or call (@call_it true), on world @w. */
static virq_status run_(size_t i, struct w *w, bool call_it)
{
	size_t k = 0;

#define X(fn, st, chk, prep, call)                                                                 \
	if (i == k++) {                                                                            \
		if (!call_it) {                                                                    \
			(void)(prep);                                                              \
			return LIBVIRQ_OK;                                                         \
		}                                                                                  \
		return call;                                                                       \
	}
	CASES(X)
#undef X
	return LIBVIRQ_OK;
}

static void test_every_documented_error(void **state)
{
	static struct w w; /* large: not on the stack */
	size_t bad = 0;

	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		const struct case_ *c = &cases_[i];
		struct virq_failure r;
		unsigned long n0;
		virq_status st;
		bool ok;

		world_up_(&w);
		(void)run_(i, &w, false);
		n0 = virq_sim_fail_count(w.sim);
		st = run_(i, &w, true);
		memset(&r, 0, sizeof(r));
		ok = st == c->st && virq_sim_fail_count(w.sim) == n0 + 1 &&
		     virq_sim_last_fail(w.sim, &r) && r.status == c->st && r.function &&
		     strcmp(r.function, c->fn) == 0 && r.message &&
		     strstr(r.message, c->check) != NULL;
		if (!ok) {
			printf("case %zu: %s %s \"%s\": returned %s, %lu report(s), last: %s\n", i,
			       c->fn, virq_status_name(c->st), c->check, virq_status_name(st),
			       virq_sim_fail_count(w.sim) - n0, r.message ? r.message : "(none)");
			bad++;
		}
		world_down_(&w);
	}
	SWEEP_REPORT("AVIC and PMC documented errors", NCASES);
	assert_int_equal(bad, 0);
}

/* The errors not reported by design (errors_excused.txt, hal.h
 * @ref virq_failures): the status all the same, and no report. */
static void test_unreported(void **state)
{
	static struct w w;
	unsigned long n0, l0;

	(void)state;
	world_up_(&w);
	n0 = virq_sim_fail_count(w.sim);
	l0 = virq_sim_log_count(w.sim, LIBVIRQ_LOG_DEBUG);
	w.ops.version = LIBVIRQ_HAL_VERSION + 1;
	assert_int_equal(virq_avic_caps_probe(&w.hal2, &w.acaps), LIBVIRQ_EHALVER);
	assert_int_equal(virq_pmcvirt_probe(&w.hal2, &w.pcaps), LIBVIRQ_EHALVER);
	assert_int_equal(virq_avic_caps_probe(NULL, &w.acaps), LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_probe(NULL, &w.pcaps), LIBVIRQ_EINVAL);
	/* every object NULL, never initialised or without a HAL */
	assert_int_equal(virq_avic_resolve(NULL, NULL, &w.icr, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_resolve(&w.vm_zero, &w.v_dead, &w.icr, NULL, NULL, NULL),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_nested_vmrun(NULL, false, w.vmcb12, w.vmcb02, &w.fail),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_nested_vmexit(&w.p_zero, w.vmcb12, w.vmcb02), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_ldr_write(&w.v_zero, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_post(NULL, 0x40, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_vcpu_load(&w.v_zero, 1), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_handle_exit(NULL, 0x401, 0, 0, NULL, &w.res), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_vm_counters_get(&w.vm_zero, &w.vc), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_dfr_write(NULL, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_apic_id_write(&w.v_zero, 0), LIBVIRQ_EINVAL);
	/* a registry has no HAL: no VM, or no live one, among the arguments */
	assert_int_equal(virq_avic_registry_lookup(&w.reg_dead, tag_(3, 0), NULL, &w.pv),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_registry_lookup(&w.reg, tag_(3, 0), NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_registry_lookup(&w.reg, tag_(5, 0), NULL, &w.pv),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_ga_log_handle(&w.reg_zero, GA_NR_(tag_(3, 0)), &w.pv),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_ga_log_handle(&w.reg, GA_NR_(tag_(3, 0)), &w.pv),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_registry_add(&w.reg_zero, &w.vm_zero), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_registry_init(NULL, w.slots, 8), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_registry_destroy(&w.reg_dead), LIBVIRQ_EINVAL);
	assert_int_equal(
	    virq_pmcvirt_mode_check(NULL, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_SW, 0),
	    LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_fail_count(w.sim), n0);
	assert_int_equal(virq_sim_log_count(w.sim, LIBVIRQ_LOG_DEBUG), l0);
	w.ops.version = LIBVIRQ_HAL_VERSION;
	world_down_(&w);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_documented_error),
	    cmocka_unit_test(test_unreported),
	};

	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NCASES; i++)
			printf("%s %s\n", cases_[i].fn, virq_status_name(cases_[i].st));
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
