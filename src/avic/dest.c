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
 * Unicast physical destinations cost O(1) through the VM's APIC-ID map
 * while the map is exact (no xAPIC-mode vCPU answers to an ID other than its
 * APIC ID), otherwise every vCPU is matched. Logical destinations other than
 * the broadcasts cost O(1) per named ID for x2APIC-mode vCPUs (the APIC-ID
 * map) and, for xAPIC-mode ones, the targets plus one word per 64 vCPUs
 * holding one through the logical index (avic_priv.h) in any mix of
 * models, duplicates and multi-bit LDRs. Broadcasts match every vCPU. Every
 * guest value is range-checked before it indexes anything.
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

/*
 * Logical, x2APIC-mode targets: cluster dest[31:16], logical ID = cluster *
 * 16 + bit, the APIC ID they derive it from. Records the targets in @got
 * (at most 16) and returns their number.
 */
static uint32_t logical_x2_(const struct virq_avic_vm *vm, struct rctx_ *c, uint32_t mda,
			    struct virq_avic_vcpu **got)
{
	uint32_t bm = mda & 0xFFFFu, n = 0;

	while (bm) {
		uint32_t id = (mda >> 16) * 16u + (uint32_t)__builtin_ctz(bm);
		struct virq_avic_vcpu *t = lookup_(vm, id);

		bm &= bm - 1u;
		if (t && LD_(&t->x2apic) && match_logical_(t, mda)) {
			hit_(c, t);
			got[n++] = t;
		}
	}
	return n;
}

/* @t is one of the @n targets in @got. */
static bool got_(struct virq_avic_vcpu *const *got, uint32_t n, const struct virq_avic_vcpu *t)
{
	for (uint32_t k = 0; k < n; k++)
		if (got[k] == t)
			return true;
	return false;
}

/* Word @w of the union of the flat buckets @flat and the cluster buckets @cl. */
static uint64_t lix_union_(const struct virq_avic_vm *vm, uint32_t flat, uint64_t cl, uint32_t w)
{
	uint64_t bits = 0;

	for (; flat; flat &= flat - 1u)
		bits |= __atomic_load_n(lix_word_(vm, (uint32_t)__builtin_ctz(flat), w),
					__ATOMIC_ACQUIRE);
	for (; cl; cl &= cl - 1u)
		bits |= __atomic_load_n(
		    lix_word_(vm, LIBVIRQ_AVIC_LIX_CLUSTER_ + (uint32_t)__builtin_ctzll(cl), w),
		    __ATOMIC_ACQUIRE);
	return bits;
}

/*
 * Logical, xAPIC-mode targets through the logical index: the flat buckets
 * of dest[7:0] and, for a destination below 0x100, the cluster buckets of
 * cluster dest[7:4], bits dest[3:0]. The union is taken word by word, so a
 * vCPU in several buckets is seen once; each candidate still decides by its
 * own registers (a concurrent LDR/DFR write), and one the x2APIC lookup
 * already reported (a concurrent mode switch) is skipped.
 */
static void logical_xapic_(const struct virq_avic_vm *vm, struct rctx_ *c, uint32_t mda,
			   struct virq_avic_vcpu *const *got, uint32_t ngot)
{
	uint32_t flat = mda & 0xFFu;
	uint64_t cl = mda < 0x100u ? (uint64_t)(mda & 0xFu) << ((mda >> 4) * 4u) : 0, sum = 0;

	for (uint32_t f = flat; f; f &= f - 1u)
		sum |= __atomic_load_n(&vm->lix[__builtin_ctz(f)], __ATOMIC_ACQUIRE);
	for (uint64_t k = cl; k; k &= k - 1u)
		sum |= __atomic_load_n(
		    &vm->lix[LIBVIRQ_AVIC_LIX_CLUSTER_ + (uint32_t)__builtin_ctzll(k)],
		    __ATOMIC_ACQUIRE);
	while (sum) {
		uint32_t w = (uint32_t)__builtin_ctzll(sum);
		uint64_t bits = lix_union_(vm, flat, cl, w);

		sum &= sum - 1u;
		while (bits) {
			struct virq_avic_vcpu *t =
			    vcpu_at_(vm, w * 64u + (uint32_t)__builtin_ctzll(bits));

			bits &= bits - 1u;
			if (t && !got_(got, ngot, t) && match_logical_(t, mda))
				hit_(c, t);
		}
	}
}

/* A logical destination other than a broadcast: x2APIC-mode targets by ID, xAPIC-mode ones
 * through the logical index. */
static void resolve_logical_(const struct virq_avic_vm *vm, struct rctx_ *c, uint32_t mda)
{
	struct virq_avic_vcpu *got[16];
	uint32_t n = 0;

	if (__atomic_load_n(&vm->n_x2apic, __ATOMIC_ACQUIRE) != 0)
		n = logical_x2_(vm, c, mda, got);
	if (__atomic_load_n(&vm->n_xapic, __ATOMIC_ACQUIRE) != 0)
		logical_xapic_(vm, c, mda, got, n);
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
	resolve_logical_(vm, c, mda);
}

virq_status virq_avic_resolve_(const char *api, struct virq_avic_vm *vm,
			       struct virq_avic_vcpu *sender, const struct virq_avic_icr *icr,
			       virq_avic_target_fn fn, void *arg, uint32_t *count)
{
	struct rctx_ c = {fn, arg, 0, false, NULL, 0};

	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, vcpu_hal_(sender), "vm", vm);
	if (!icr)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EINVAL, "icr=NULL");
	if (sender && !vcpu_live_(sender))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, &vm->hal, "sender", sender);
	if (sender && sender->vm != vm)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EINVAL,
				     "sender is a vCPU of another VM");
	if ((icr->shorthand == LIBVIRQ_APIC_SH_SELF ||
	     icr->shorthand == LIBVIRQ_APIC_SH_ALL_BUT_SELF) &&
	    !sender)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EINVAL,
				      "icr shorthand=%u (self or all-but-self) with sender=NULL",
				      (uint64_t)icr->shorthand);
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

virq_status virq_avic_resolve(struct virq_avic_vm *vm, struct virq_avic_vcpu *sender,
			      const struct virq_avic_icr *icr, virq_avic_target_fn fn, void *arg,
			      uint32_t *count)
{
	return virq_avic_resolve_(LIBVIRQ_ENTRY_, vm, sender, icr, fn, arg, count);
}
