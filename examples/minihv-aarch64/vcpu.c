/* SPDX-License-Identifier: MIT */
/*
 * The vCPU world switch around vcpu_enter() (start.S): the guest's EL1
 * system registers and its virtual CPU interface state (ICH_VMCR_EL2, the
 * active-priority registers and the list registers, Arm IHI 0069H §12.4) are
 * loaded on the CPU that runs it and saved when it stops, so a vCPU can stop
 * on one CPU and continue on another. The vPE's residency (libvirq) is the
 * caller's: it makes the vPE resident on this CPU's redistributor before
 * vcpu_run() and non-resident after, when the vCPU leaves the CPU.
 */
#include "vcpu.h"

struct vcpu vcpus[MAX_VCPUS];
uint32_t nr_vcpus;

/* EL1 with the MMU and caches off, RES1 bits set (Arm ARM D17.2.118). */
#define SCTLR_EL1_INIT 0x30d00800u
#define PSTATE_EL1H_MASKED 0x3c5u

void vcpu_setup(struct vcpu *v, uint32_t id, struct gblock *g, uint8_t *stack)
{
	memset(&v->regs, 0, sizeof(v->regs));
	v->regs.elr = (uint64_t)(uintptr_t)guest_main;
	v->regs.spsr = PSTATE_EL1H_MASKED;
	v->regs.x[0] = (uint64_t)(uintptr_t)g;
	v->sp_el1 = (uint64_t)(uintptr_t)(stack + GUEST_STACK);
	v->elr_el1 = v->spsr_el1 = v->vbar_el1 = v->tpidr_el1 = 0;
	v->sctlr_el1 = SCTLR_EL1_INIT;
	v->moving_to = VCPU_NO_MOVE;
	/* VPMR = 0xff [31:24], VENG1 [1]: the guest's PMR/IGRPEN1 writes land here. */
	v->ich_vmcr = (0xffull << 24) | (1u << 1);
	v->ich_ap0r0 = v->ich_ap1r0 = 0;
	for (uint32_t i = 0; i < NR_LR_MAX; i++)
		v->ich_lr[i] = 0;
	v->id = id;
	v->g = g;
	v->stack = stack;
	v->wake = 0;
}

static uint32_t nr_lr_(void)
{
	uint32_t n = (uint32_t)(read_sysreg(ICH_VTR_EL2) & 0x1f) + 1;

	return n < NR_LR_MAX ? n : NR_LR_MAX;
}

static void lr_write_(uint32_t n, uint64_t v)
{
	switch (n) {
	case 0:
		write_sysreg(S3_4_C12_C12_0, v);
		break;
	case 1:
		write_sysreg(S3_4_C12_C12_1, v);
		break;
	case 2:
		write_sysreg(S3_4_C12_C12_2, v);
		break;
	default:
		write_sysreg(S3_4_C12_C12_3, v);
		break;
	}
}

static uint64_t lr_read_(uint32_t n)
{
	switch (n) {
	case 0:
		return read_sysreg(S3_4_C12_C12_0);
	case 1:
		return read_sysreg(S3_4_C12_C12_1);
	case 2:
		return read_sysreg(S3_4_C12_C12_2);
	default:
		return read_sysreg(S3_4_C12_C12_3);
	}
}

static void load_(const struct vcpu *v)
{
	uint32_t n = nr_lr_();

	write_sysreg(SP_EL1, v->sp_el1);
	write_sysreg(ELR_EL1, v->elr_el1);
	write_sysreg(SPSR_EL1, v->spsr_el1);
	write_sysreg(VBAR_EL1, v->vbar_el1);
	write_sysreg(TPIDR_EL1, v->tpidr_el1);
	write_sysreg(SCTLR_EL1, v->sctlr_el1);
	write_sysreg(ICH_VMCR_EL2, v->ich_vmcr);
	write_sysreg(ICH_AP0R0_EL2, v->ich_ap0r0);
	write_sysreg(ICH_AP1R0_EL2, v->ich_ap1r0);
	for (uint32_t i = 0; i < n; i++)
		lr_write_(i, v->ich_lr[i]);
	isb();
}

static void save_(struct vcpu *v)
{
	uint32_t n = nr_lr_();

	v->sp_el1 = read_sysreg(SP_EL1);
	v->elr_el1 = read_sysreg(ELR_EL1);
	v->spsr_el1 = read_sysreg(SPSR_EL1);
	v->vbar_el1 = read_sysreg(VBAR_EL1);
	v->tpidr_el1 = read_sysreg(TPIDR_EL1);
	v->sctlr_el1 = read_sysreg(SCTLR_EL1);
	v->ich_vmcr = read_sysreg(ICH_VMCR_EL2);
	v->ich_ap0r0 = read_sysreg(ICH_AP0R0_EL2);
	v->ich_ap1r0 = read_sysreg(ICH_AP1R0_EL2);
	for (uint32_t i = 0; i < n; i++) {
		v->ich_lr[i] = lr_read_(i);
		lr_write_(i, 0); /* nothing of this vCPU stays behind on this CPU */
	}
	isb();
}

int vcpu_run(struct vcpu *v)
{
	struct percpu *p = this_cpu();
	int code;

	p->cur = v;
	v->where = p->idx;
	load_(v);
	code = (int)vcpu_enter(&v->regs);
	save_(v);
	p->cur = NULL;
	return code;
}

struct vcpu *vcpu_by_doorbell(uint32_t intid)
{
	for (uint32_t i = 0; i < nr_vcpus; i++)
		if (vcpus[i].doorbell == intid)
			return &vcpus[i];
	return NULL;
}
