/* SPDX-License-Identifier: MIT */
/*
 * IPI destination resolution, shared by the AVIC exit handlers and the
 * embedder's ICR emulation (APM Vol 2 rev 3.44 §16.5 "Interprocessor Interrupts (IPI)",
 * §15.29.6.1; Intel SDM Vol 3 §11.6.2 and §11.12.9 for xAPIC/x2APIC
 * addressing).
 *
 * Every vCPU decides by its own APIC mode whether it accepts a message, as
 * KVM's arch/x86/kvm/lapic.c kvm_apic_match_dest() does where the manuals
 * are silent (mixed xAPIC/x2APIC VMs); the rules, case by case, are in
 * docs/avic.md "Destination resolution" and
 * docs/rationale.md#avic-mixed-mode-destinations (aliases and the hotplug
 * rule: docs/rationale.md#avic-apic-id-bounds; x2APIC logical:
 * docs/rationale.md#apic-x2apic-logical).
 *
 * Unicast physical destinations and x2APIC logical destinations cost O(1)
 * per named ID through the VM's APIC-ID map while the map is exact (no
 * xAPIC-mode vCPU answers to an ID other than its APIC ID; for logical ones,
 * no vCPU is in xAPIC mode); otherwise, and for broadcasts, every vCPU is
 * matched. Every guest value is range-checked before it indexes anything.
 */
#include "avic_priv.h"

struct rctx_ {
	virq_avic_target_fn fn;
	void *arg;
	uint32_t count;
	bool lowest;		     /* one target: the lowest priority */
	struct virq_avic_vcpu *best; /* lowest priority: best candidate so far */
	uint32_t best_tpr;
};

static void hit_(struct rctx_ *c, struct virq_avic_vcpu *t)
{
	if (c->lowest) {
		uint32_t tpr =
		    __atomic_load_n(apic_reg_(t, LIBVIRQ_APIC_TPR), __ATOMIC_RELAXED) & 0xFFu;

		if (!c->best || tpr < c->best_tpr ||
		    (tpr == c->best_tpr && t->index < c->best->index)) {
			c->best = t;
			c->best_tpr = tpr;
		}
		return;
	}
	c->count++;
	if (c->fn)
		c->fn(c->arg, t);
}

/* Physical: x2APIC mode matches its x2APIC ID (the initial APIC ID) or
 * 0xFFFFFFFF; xAPIC mode matches 0xFF (its broadcast), a destination above
 * 0xFF equal to its initial APIC ID (hotplug rule), else its 8-bit xAPIC ID. */
static bool match_phys_(const struct virq_avic_vcpu *t, uint32_t mda)
{
	if (LD_(&t->x2apic))
		return mda == 0xFFFFFFFFu || mda == t->apic_id;
	if (mda == 0xFFu)
		return true;
	return mda > 0xFFu ? mda == t->apic_id : mda == (cur_id_(t) & 0xFFu);
}

/* Logical: x2APIC mode matches 0xFFFFFFFF or its cluster and bit; xAPIC mode
 * matches 0xFF, or per its own DFR model: flat (LDR ID & MDA), cluster (same
 * cluster, a common bit); another model matches nothing. */
static bool match_logical_(const struct virq_avic_vcpu *t, uint32_t mda)
{
	uint32_t ldr = LD_(&t->ldr), lid = ldr >> 24, model;

	if (LD_(&t->x2apic))
		return mda == 0xFFFFFFFFu ||
		       ((ldr >> 16) == (mda >> 16) && (ldr & mda & 0xFFFFu) != 0);
	if (mda == 0xFFu)
		return true;
	model = LD_(&t->dfr) >> 28;
	if (model == 0xFu)
		return (lid & mda) != 0;
	if (model == 0)
		return (lid >> 4) == (mda >> 4) && (lid & mda & 0xFu) != 0;
	return false;
}

static void all_(const struct virq_avic_vm *vm, struct rctx_ *c, const struct virq_avic_vcpu *skip)
{
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = vcpu_at_(vm, i);

		if (t && t != skip)
			hit_(c, t);
	}
}

static void scan_(const struct virq_avic_vm *vm, struct rctx_ *c, uint32_t mda, bool logical)
{
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = vcpu_at_(vm, i);

		if (t && (logical ? match_logical_(t, mda) : match_phys_(t, mda)))
			hit_(c, t);
	}
}

/* The vCPU whose APIC ID is @id, when @id fits the table. */
static struct virq_avic_vcpu *lookup_(const struct virq_avic_vm *vm, uint32_t id)
{
	return id <= vm->max_index ? by_apic_(vm, id) : NULL;
}

static void resolve_dest_(const struct virq_avic_vm *vm, struct rctx_ *c,
			  const struct virq_avic_icr *icr)
{
	uint32_t mda = icr->dest;

	/* A broadcast for some modes; but a physical 0xFF in a VM without
	 * xAPIC-mode vCPUs is only the x2APIC ID 0xFF: an exact lookup below. */
	if (mda == 0xFFFFFFFFu ||
	    (mda == 0xFFu &&
	     (icr->logical || __atomic_load_n(&vm->n_xapic, __ATOMIC_ACQUIRE) != 0))) {
		scan_(vm, c, mda, icr->logical);
		return;
	}
	if (!icr->logical) {
		struct virq_avic_vcpu *t;

		if (__atomic_load_n(&vm->slow, __ATOMIC_ACQUIRE) != 0) {
			scan_(vm, c, mda, false);
			return;
		}
		/* Exact map: only the vCPU with APIC ID @mda can match. */
		t = lookup_(vm, mda);
		if (t && match_phys_(t, mda))
			hit_(c, t);
		return;
	}
	if (icr->x2apic && __atomic_load_n(&vm->n_xapic, __ATOMIC_ACQUIRE) == 0) {
		/* Only x2APIC-mode vCPUs: cluster dest[31:16], ID = cluster * 16 + bit. */
		uint32_t bm = mda & 0xFFFFu;

		while (bm) {
			uint32_t id = (mda >> 16) * 16u + (uint32_t)__builtin_ctz(bm);
			struct virq_avic_vcpu *t = lookup_(vm, id);

			bm &= bm - 1u;
			if (t && match_logical_(t, mda))
				hit_(c, t);
		}
		return;
	}
	scan_(vm, c, mda, true);
}

virq_status virq_avic_resolve(struct virq_avic_vm *vm, struct virq_avic_vcpu *sender,
			      const struct virq_avic_icr *icr, virq_avic_target_fn fn, void *arg,
			      uint32_t *count)
{
	struct rctx_ c = {fn, arg, 0, false, NULL, 0};

	if (!vm_live_(vm))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_avic_resolve: VM not initialised");
	if (!icr)
		return LIBVIRQ_FAIL(&vm->hal, LIBVIRQ_EINVAL, "virq_avic_resolve: icr is NULL");
	if (sender && (!vcpu_live_(sender) || sender->vm != vm))
		return LIBVIRQ_FAIL(&vm->hal, LIBVIRQ_EINVAL,
				    "virq_avic_resolve: sender is not a vCPU of this VM");
	if ((icr->shorthand == LIBVIRQ_APIC_SH_SELF ||
	     icr->shorthand == LIBVIRQ_APIC_SH_ALL_BUT_SELF) &&
	    !sender)
		return LIBVIRQ_FAIL(&vm->hal, LIBVIRQ_EINVAL,
				    "virq_avic_resolve: self shorthand without a sender");
	/* Lowest priority picks one target, except a physical broadcast, which is
	 * delivered as fixed (KVM kvm_irq_delivery_to_apic()). */
	c.lowest = icr->delivery_mode == LIBVIRQ_APIC_DM_LOWEST &&
		   !(icr->shorthand == LIBVIRQ_APIC_SH_NONE && !icr->logical && icr->dest == 0xFFu);
	switch (icr->shorthand) {
	case LIBVIRQ_APIC_SH_SELF:
		hit_(&c, sender);
		break;
	case LIBVIRQ_APIC_SH_ALL:
		all_(vm, &c, NULL);
		break;
	case LIBVIRQ_APIC_SH_ALL_BUT_SELF:
		all_(vm, &c, sender);
		break;
	case LIBVIRQ_APIC_SH_NONE:
	default:
		resolve_dest_(vm, &c, icr);
		break;
	}
	if (c.best) {
		c.count++;
		if (fn)
			fn(arg, c.best);
	}
	if (count)
		*count = c.count;
	return LIBVIRQ_OK;
}
