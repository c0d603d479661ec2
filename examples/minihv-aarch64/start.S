/* SPDX-License-Identifier: MIT */
/*
 * minihv entry (EL2) of the boot CPU and of the secondaries (PSCI CPU_ON),
 * the EL2 vector table, the world switch to a vCPU, and the guest's own EL1
 * vector table.
 *
 * Per-CPU state is reached through TPIDR_EL2 (struct percpu in minihv.h):
 * offset 0 holds the host's callee-saved registers while a vCPU runs
 * (x19..x30 at 0..88, sp at 96), offset 104 the CPU's stack top. Every
 * exception taken to EL2 goes through el2_vectors and is counted in C
 * (el2_lower / el2_unexpected): the direct-delivery claim is "no EL2 entry".
 */
#define PC_HOST_SP 96
#define PC_STACK_TOP 104

	.section .text.boot, "ax"
	.global _start
_start:
	mrs	x0, CurrentEL
	lsr	x0, x0, #2
	cmp	x0, #2
	b.ne	not_el2
	/*
	 * Only the boot CPU runs the image entry: QEMU holds the others powered
	 * off until PSCI CPU_ON starts them at secondary_entry. A CPU that still
	 * arrives here (firmware that releases all CPUs) parks.
	 */
	ldr	x0, =boot_claimed
	ldr	w1, [x0]
	cbnz	w1, park
	mov	w1, #1
	str	w1, [x0]
	dsb	sy
	ldr	x0, =__stack_top
	mov	sp, x0
	/* Zero .bss. */
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
1:	cmp	x0, x1
	b.hs	2f
	str	xzr, [x0], #8
	b	1b
2:	ldr	x0, =el2_vectors
	msr	VBAR_EL2, x0
	isb
	bl	minihv_main
	/* minihv_main does not return (it exits through semihosting). */
park:	wfe
	b	park
not_el2:
	/* Not started at EL2 (missing virtualization=on): exit status 4. */
	ldr	x1, =not_el2_block
	mov	w0, #0x18
	hlt	#0xf000
	b	not_el2

/*
 * Secondary CPUs start here at EL2, MMU off, with x0 = the PSCI context ID,
 * which minihv sets to the CPU's struct percpu.
 */
	.global secondary_entry
secondary_entry:
	msr	TPIDR_EL2, x0
	ldr	x1, [x0, #PC_STACK_TOP]
	mov	sp, x1
	ldr	x1, =el2_vectors
	msr	VBAR_EL2, x1
	isb
	bl	secondary_main
	b	park

	.section .rodata
	.balign 8
not_el2_block:
	.quad	0x20026, 4

	.data
	.balign 4
boot_claimed:
	.word	0

	.text
/*
 * Frame pushed on the EL2 stack for an exception from the guest:
 * x0..x30 at 8*n, ELR_EL2 at 248, SPSR_EL2 at 256; 272 bytes (struct frame).
 */
#define FRAME 272

.macro save_frame
	sub	sp, sp, #FRAME
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	mrs	x0, ELR_EL2
	stp	x30, x0, [sp, #240]
	mrs	x0, SPSR_EL2
	str	x0, [sp, #256]
.endm

/* Loads the register file at x0 (struct frame) and erets to it. */
.macro load_frame_eret
	ldr	x1, [x0, #256]
	msr	SPSR_EL2, x1
	ldp	x30, x1, [x0, #240]
	msr	ELR_EL2, x1
	ldp	x2, x3, [x0, #16]
	ldp	x4, x5, [x0, #32]
	ldp	x6, x7, [x0, #48]
	ldp	x8, x9, [x0, #64]
	ldp	x10, x11, [x0, #80]
	ldp	x12, x13, [x0, #96]
	ldp	x14, x15, [x0, #112]
	ldp	x16, x17, [x0, #128]
	ldp	x18, x19, [x0, #144]
	ldp	x20, x21, [x0, #160]
	ldp	x22, x23, [x0, #176]
	ldp	x24, x25, [x0, #192]
	ldp	x26, x27, [x0, #208]
	ldp	x28, x29, [x0, #224]
	ldp	x0, x1, [x0, #0]
	eret
.endm

.macro lower kind
	.balign 0x80
	save_frame
	mov	x0, sp
	mov	x1, #\kind
	b	lower_common
.endm

.macro unexpected kind
	.balign 0x80
	mov	x0, #\kind
	mrs	x1, ESR_EL2
	mrs	x2, ELR_EL2
	mrs	x3, FAR_EL2
	b	el2_unexpected
.endm

	.balign 0x800
	.global el2_vectors
el2_vectors:
	unexpected 0	/* current EL, SP0: sync */
	unexpected 1
	unexpected 2
	unexpected 3
	unexpected 4	/* current EL, SPx: sync */
	unexpected 5	/* irq: EL2 runs with IRQs masked and polls */
	unexpected 6
	unexpected 7
	lower 8		/* lower EL, AArch64: sync (HVC, traps) */
	lower 9		/* irq */
	lower 10	/* fiq */
	lower 11	/* serror */
	unexpected 12	/* lower EL, AArch32 */
	unexpected 13
	unexpected 14
	unexpected 15

lower_common:
	/* x0 = frame, x1 = kind; returns 0 to resume, else an exit code (the
	 * frame was copied into the vCPU's saved registers). */
	bl	el2_lower
	cbnz	x0, exit_to_host
	mov	x0, sp
	add	sp, sp, #FRAME
	load_frame_eret

exit_to_host:
	mrs	x9, TPIDR_EL2
	ldp	x19, x20, [x9, #0]
	ldp	x21, x22, [x9, #16]
	ldp	x23, x24, [x9, #32]
	ldp	x25, x26, [x9, #48]
	ldp	x27, x28, [x9, #64]
	ldp	x29, x30, [x9, #80]
	ldr	x10, [x9, #PC_HOST_SP]
	mov	sp, x10
	ret

/*
 * uint64_t vcpu_enter(struct frame *regs)
 * Saves the host's callee-saved state in this CPU's struct percpu and erets
 * to the vCPU's saved register file; returns the exit code when el2_lower()
 * ends the run. The EL1 system registers and the virtual CPU interface are
 * switched in C (vcpu.c).
 */
	.global vcpu_enter
vcpu_enter:
	mrs	x9, TPIDR_EL2
	stp	x19, x20, [x9, #0]
	stp	x21, x22, [x9, #16]
	stp	x23, x24, [x9, #32]
	stp	x25, x26, [x9, #48]
	stp	x27, x28, [x9, #64]
	stp	x29, x30, [x9, #80]
	mov	x10, sp
	str	x10, [x9, #PC_HOST_SP]
	isb
	load_frame_eret

/* ---------------- guest (EL1) ---------------- */
.macro gsave
	sub	sp, sp, #176
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	str	x30, [sp, #160]
.endm
.macro grestore
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x29, [sp, #144]
	ldr	x30, [sp, #160]
	add	sp, sp, #176
.endm
.macro gbad kind
	.balign 0x80
	mov	x0, #\kind
	mrs	x1, ESR_EL1
	mrs	x2, ELR_EL1
	b	guest_fault
.endm

	.balign 0x800
	.global guest_vectors
guest_vectors:
	gbad 0
	gbad 1
	gbad 2
	gbad 3
	gbad 4		/* current EL SPx sync */
	.balign 0x80	/* current EL SPx irq */
	gsave
	bl	guest_irq
	grestore
	eret
	gbad 6
	gbad 7
	gbad 8
	gbad 9
	gbad 10
	gbad 11
	gbad 12
	gbad 13
	gbad 14
	gbad 15
