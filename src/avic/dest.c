/* SPDX-License-Identifier: MIT */
/*
 * IPI destination resolution, shared by the AVIC exit handlers and the
 * embedder's ICR emulation (APM Vol 2 §16.6 "Interprocessor interrupts",
 * §15.29.3.1; x2APIC logical addressing per the x2APIC specification).
 *
 * Unicast physical destinations cost O(1): the VM keeps an APIC-ID -> vCPU
 * map, valid while no vCPU's ID breaks the 1:1 map (vm->slow == 0). A
 * changed APIC ID or an xAPIC-mode vCPU whose ID does not fit 8 bits moves
 * resolution to a scan, which is exact for aliases
 * (docs/rationale.md#avic-apic-id-bounds). Every guest value is range-checked
 * before it indexes the map.
 */
#include "avic/avic_priv.h"

struct rctx_ {
	const struct virq_avic_icr *icr;
	virq_avic_target_fn fn;
	void *arg;
	uint32_t count;
	struct virq_avic_vcpu *best; /* lowest priority: best candidate so far */
	uint32_t best_tpr;
};

static void hit_(struct rctx_ *c, struct virq_avic_vcpu *t)
{
	if (c->icr->delivery_mode == LIBVIRQ_APIC_DM_LOWEST) {
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

/* The ID a physical destination is compared with: 8 bits in xAPIC mode. */
static uint32_t eff_id_(const struct virq_avic_vcpu *t)
{
	return LD_(&t->x2apic) ? cur_id_(t) : (cur_id_(t) & 0xFFu);
}

static struct virq_avic_vcpu *at_(const struct virq_avic_vm *vm, uint32_t i)
{
	return __atomic_load_n(&vm->by_index[i], __ATOMIC_ACQUIRE);
}

static void all_(const struct virq_avic_vm *vm, struct rctx_ *c, const struct virq_avic_vcpu *skip)
{
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = at_(vm, i);

		if (t && t != skip)
			hit_(c, t);
	}
}

static void physical_(const struct virq_avic_vm *vm, struct rctx_ *c, uint32_t dest)
{
	if (__atomic_load_n(&vm->slow, __ATOMIC_ACQUIRE) == 0) {
		struct virq_avic_vcpu *t;

		if (dest > vm->max_index) /* range check before indexing */
			return;
		t = __atomic_load_n(&vm->by_apic[dest], __ATOMIC_ACQUIRE);
		if (t && eff_id_(t) == dest)
			hit_(c, t);
		return;
	}
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = at_(vm, i);

		if (t && eff_id_(t) == dest)
			hit_(c, t);
	}
}

/* x2APIC logical: cluster dest[31:16], bitmap dest[15:0]; ID = cluster*16 + bit. */
static void x2_logical_(const struct virq_avic_vm *vm, struct rctx_ *c, uint32_t dest)
{
	uint32_t cluster = dest >> 16, bm = dest & 0xFFFFu;

	if (__atomic_load_n(&vm->slow, __ATOMIC_ACQUIRE) == 0) {
		while (bm) {
			uint32_t id = cluster * 16u + (uint32_t)__builtin_ctz(bm);

			bm &= bm - 1u;
			if (cluster <= (vm->max_index >> 4) && id <= vm->max_index)
				physical_(vm, c, id);
		}
		return;
	}
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = at_(vm, i);
		uint32_t id;

		if (!t)
			continue;
		id = eff_id_(t);
		if ((id >> 4) == cluster && (bm & (1u << (id & 0xFu))))
			hit_(c, t);
	}
}

/* xAPIC logical: each xAPIC-mode target matches with its own DFR model and LDR. */
static bool xapic_logical_match_(const struct virq_avic_vcpu *t, uint32_t mda)
{
	uint32_t lid = LD_(&t->ldr) >> 24, model = LD_(&t->dfr) >> 28;

	if (LD_(&t->x2apic))
		return false;
	if (model == 0xFu)
		return (lid & mda) != 0;
	if (model == 0)
		return (lid >> 4) == (mda >> 4) && (lid & mda & 0xFu) != 0;
	return false;
}

static void resolve_dest_(const struct virq_avic_vm *vm, struct rctx_ *c)
{
	const struct virq_avic_icr *icr = c->icr;
	uint32_t bcast = icr->x2apic ? 0xFFFFFFFFu : 0xFFu;

	if (icr->dest == bcast) {
		/* Only 0xFFFFFFFF is the x2APIC broadcast; 0xFF is for xAPIC
		 * (docs/rationale.md#apic-x2apic-logical). */
		all_(vm, c, NULL);
		return;
	}
	if (!icr->logical) {
		physical_(vm, c, icr->dest);
	} else if (icr->x2apic) {
		x2_logical_(vm, c, icr->dest);
	} else {
		for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
			struct virq_avic_vcpu *t = at_(vm, i);

			if (t && xapic_logical_match_(t, icr->dest))
				hit_(c, t);
		}
	}
}

virq_status virq_avic_resolve(struct virq_avic_vm *vm, struct virq_avic_vcpu *sender,
			      const struct virq_avic_icr *icr, virq_avic_target_fn fn, void *arg,
			      uint32_t *count)
{
	struct rctx_ c = {icr, fn, arg, 0, NULL, 0};

	if (!vm || !icr || !vm->by_index)
		return LIBVIRQ_EINVAL;
	if ((icr->shorthand == LIBVIRQ_APIC_SH_SELF || icr->shorthand == LIBVIRQ_APIC_SH_ALL_BUT_SELF) &&
	    !sender)
		return LIBVIRQ_EINVAL;
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
	default:
		resolve_dest_(vm, &c);
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
