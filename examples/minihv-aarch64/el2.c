/* SPDX-License-Identifier: MIT */
/*
 * EL2 exception handling: every entry is counted on the CPU that took it
 * (struct percpu, via TPIDR_EL2), then dispatched to the hooks the scenario
 * installed on that CPU.
 */
#include "minihv.h"
#include "vcpu.h"

int el2_lower(struct frame *f, uint64_t kind);
void el2_unexpected(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far)
    __attribute__((noreturn));

#define ESR_EC(esr) (((esr) >> 26) & 0x3f)
#define EC_HVC64 0x16

/* The guest stops running here: its registers go to its vCPU. */
static int exit_(struct percpu *p, const struct frame *f, int code)
{
	p->cur->regs = *f;
	return code;
}

/* One interrupt acknowledged at EL2 (from the IRQ vector or polled). */
void irq_dispatch(struct percpu *p, uint32_t intid)
{
	if (intid >= 1020 && intid <= 1023)
		return;
	write_sysreg(ICC_EOIR1_EL1, intid); /* EOImode 0: drop and deactivate */
	isb();
	if (intid == 0) { /* SGI 0: another CPU kicked us (cpu_kick) */
		p->irq.kicks++;
		return;
	}
	if (intid == hyp_timer_intid) /* a sleep's timer (normally deasserted first) */
		return;
	if (p->irq_hook) {
		p->irq_hook(p->cur, intid);
		return;
	}
	p->irq.spurious++;
}

/* Returns 0 to resume the guest, else an exit code for vcpu_enter(). */
int el2_lower(struct frame *f, uint64_t kind)
{
	struct percpu *p = this_cpu();
	uint64_t esr;

	p->el2.total++;
	switch (kind) {
	case 8:
		esr = read_sysreg(ESR_EL2);
		if (ESR_EC(esr) != EC_HVC64) {
			p->el2.sync_other++;
			con_printf("minihv: CPU %u: unexpected trap from the guest: ESR_EL2=0x%lx "
				   "ELR_EL2=0x%lx FAR_EL2=0x%lx\n",
				   p->idx, esr, f->elr, read_sysreg(FAR_EL2));
			minihv_panic("guest trap");
		}
		p->el2.hvc++;
		if (f->x[0] == GUEST_REQ_DONE)
			return exit_(p, f, EXIT_DONE);
		if (f->x[0] == GUEST_REQ_YIELD)
			return exit_(p, f, EXIT_YIELD);
		if (!p->hvc_hook)
			minihv_panic("guest HVC request without a handler");
		p->hvc_hook(p->cur, f->x[1]);
		return 0;
	case 9: {
		uint32_t intid = (uint32_t)read_sysreg(ICC_IAR1_EL1) & 0xffffffu;

		p->el2.irq++;
		if (intid == 0)
			p->el2.irq_kick++;
		irq_dispatch(p, intid);
		return 0;
	}
	case 10:
		p->el2.fiq++;
		minihv_panic("FIQ at EL2");
	default:
		p->el2.serror++;
		minihv_panic("SError at EL2");
	}
}

void el2_unexpected(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far)
{
	struct percpu *p = this_cpu();

	p->el2.total++;
	con_printf("minihv: CPU %u: exception at EL2 itself: vector %lu ESR_EL2=0x%lx "
		   "ELR_EL2=0x%lx FAR_EL2=0x%lx\n",
		   p->idx, kind, esr, elr, far);
	minihv_panic("EL2 exception");
}
