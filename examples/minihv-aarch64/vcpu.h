/* SPDX-License-Identifier: MIT */
/* A vCPU: its saved guest context, its vPE and its guest-side block. */
#ifndef MINIHV_VCPU_H
#define MINIHV_VCPU_H

#include "minihv.h"

#include <libvirq/gicv4/vpe.h>

#define GUEST_STACK 0x4000u

struct vcpu {
	struct frame regs; /* x0..x30, PC, PSTATE while not running */
	/* EL1 system registers (the guest's own; switched with the vCPU). */
	uint64_t sp_el1, elr_el1, spsr_el1, vbar_el1, tpidr_el1, sctlr_el1;
	/* Virtual CPU interface (Arm IHI 0069H §12.4): switched with the vCPU. */
	uint64_t ich_vmcr, ich_ap0r0, ich_ap1r0, ich_lr[NR_LR_MAX];
	uint32_t id;
	uint32_t doorbell;	 /* its doorbell LPI (GICv4.0 per-vLPI doorbell) */
	volatile uint32_t wake;	 /* set by a doorbell handler on any CPU */
	volatile uint32_t where; /* CPU that last ran it (diagnostics) */
	/*
	 * While virq_vpe_move() runs: the target redistributor, else VCPU_NO_MOVE.
	 * From the moment an ITS executes the VMOVP a doorbell can reach the
	 * target's CPU, before the call returns (::virq_vpe::rd is written
	 * once every ITS has taken the VMOVP): a doorbell there is not stale.
	 */
	volatile uint32_t moving_to;
	struct virq_vpe vpe;
	struct gblock *g;
	uint8_t *stack; /* GUEST_STACK bytes */
};

#define VCPU_NO_MOVE 0xffffffffu

extern struct vcpu vcpus[MAX_VCPUS];
extern uint32_t nr_vcpus;

/* Sets up the vCPU's initial context: guest_main(g) at EL1h, DAIF masked. */
void vcpu_setup(struct vcpu *v, uint32_t id, struct gblock *g, uint8_t *stack);
/* Runs @v on this CPU until it exits (EXIT_DONE or EXIT_YIELD). */
int vcpu_run(struct vcpu *v);
/* Which vCPU owns doorbell LPI @intid (NULL: none). */
struct vcpu *vcpu_by_doorbell(uint32_t intid);

#endif
