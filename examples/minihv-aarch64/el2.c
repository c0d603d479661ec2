/* SPDX-License-Identifier: MIT */
/* EL2 exception handling: every entry is counted, then dispatched. */
#include "minihv.h"

volatile struct el2_counts el2_counts;

static el2_irq_hook irq_hook_;
static el2_hvc_hook hvc_hook_;

void el2_set_hooks(el2_irq_hook irq, el2_hvc_hook hvc)
{
	irq_hook_ = irq;
	hvc_hook_ = hvc;
}

int el2_lower(struct frame *f, uint64_t kind);
void el2_unexpected(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far)
	__attribute__((noreturn));

#define ESR_EC(esr) (((esr) >> 26) & 0x3f)
#define EC_HVC64 0x16

/* Returns 0 to resume the guest, 1 to return to the host from enter_guest(). */
int el2_lower(struct frame *f, uint64_t kind)
{
	uint64_t esr;

	el2_counts.total++;
	switch (kind) {
	case 8:
		esr = read_sysreg(ESR_EL2);
		if (ESR_EC(esr) != EC_HVC64) {
			el2_counts.sync_other++;
			con_printf("minihv: unexpected trap from the guest: ESR_EL2=0x%lx "
				   "ELR_EL2=0x%lx FAR_EL2=0x%lx\n",
				   esr, f->elr, read_sysreg(FAR_EL2));
			minihv_panic("guest trap");
		}
		el2_counts.sync_hvc++;
		if (f->x[0] == GUEST_REQ_DONE)
			return 1;
		if (!hvc_hook_)
			minihv_panic("guest HVC request without a handler");
		hvc_hook_(f, f->x[0], f->x[1]);
		return 0;
	case 9:
		el2_counts.irq++;
		if (!irq_hook_)
			minihv_panic("IRQ at EL2 without a handler");
		irq_hook_(f);
		return 0;
	case 10:
		el2_counts.fiq++;
		minihv_panic("FIQ at EL2");
	default:
		el2_counts.serror++;
		minihv_panic("SError at EL2");
	}
}

void el2_unexpected(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far)
{
	el2_counts.total++;
	con_printf("minihv: exception at EL2 itself: vector %lu ESR_EL2=0x%lx ELR_EL2=0x%lx "
		   "FAR_EL2=0x%lx\n", kind, esr, elr, far);
	minihv_panic("EL2 exception");
}
