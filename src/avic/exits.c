/* SPDX-License-Identifier: MIT */
/*
 * AVIC #VMEXIT handling (APM Vol 2 §15.29.3, Table 15-29): AVIC_INCOMPLETE_IPI
 * and AVIC_NOACCEL, ICR emulation, and the logical table on LDR/DFR writes.
 */
#include "avic/avic_priv.h"

struct emu_ {
	const struct virq_avic_icr *icr;
	const struct virq_avic_deliver_ops *ops;
	uint32_t self_host;
	uint32_t reached;
	bool missing;
};

static uint32_t self_host_(const struct virq_avic_vcpu *s)
{
	return s->loaded ? s->host_apic_id : LIBVIRQ_AVIC_NO_CPU;
}

static void emu_deliver_(void *arg, struct virq_avic_vcpu *t)
{
	struct emu_ *e = arg;
	const struct virq_avic_icr *icr = e->icr;

	switch (icr->delivery_mode) {
	case LIBVIRQ_APIC_DM_FIXED:
	case LIBVIRQ_APIC_DM_LOWEST: {
		uint32_t bit = 1u << (icr->vector & 31u);
		uint32_t *tmr = apic_vec_word_(t, LIBVIRQ_APIC_TMR, icr->vector);

		if (icr->vector < 16u) /* illegal vector: the APIC drops it */
			return;
		if (icr->level_trigger)
			__atomic_fetch_or(tmr, bit, __ATOMIC_SEQ_CST);
		else
			__atomic_fetch_and(tmr, ~bit, __ATOMIC_SEQ_CST);
		IGNORE_(virq_avic_post(t, icr->vector, e->self_host));
		break;
	}
	case LIBVIRQ_APIC_DM_RSVD3:
		return;
	default:
		if (!e->ops || !e->ops->deliver) {
			e->missing = true;
			return;
		}
		(e->ops->deliver)(e->ops->arg, t, icr->delivery_mode, icr->vector);
		break;
	}
	e->reached++;
}

virq_status virq_avic_emulate_icr(struct virq_avic_vcpu *sender, uint64_t icr_raw,
				  const struct virq_avic_deliver_ops *ops, uint32_t *count)
{
	struct virq_avic_icr icr;
	struct emu_ e = {&icr, ops, 0, 0, false};
	virq_status st;

	if (!sender || !sender->vm)
		return LIBVIRQ_EINVAL;
	st = virq_avic_icr_decode(icr_raw, LD_(&sender->x2apic), &icr);
	if (st != LIBVIRQ_OK)
		return st;
	e.self_host = self_host_(sender);
	/* A level-triggered INIT de-assert has no effect on the targets. */
	if (!(icr.delivery_mode == LIBVIRQ_APIC_DM_INIT && icr.level_trigger && !icr.level_assert))
		st = virq_avic_resolve(sender->vm, sender, &icr, emu_deliver_, &e, NULL);
	/* The write completed: clear delivery status (BUSY) in the sender's ICR. */
	__atomic_fetch_and(apic_reg_(sender, LIBVIRQ_APIC_ICR),
			   ~(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_ICR_DeliveryStatus), __ATOMIC_SEQ_CST);
	if (count)
		*count = e.reached;
	if (st == LIBVIRQ_OK && e.missing)
		st = LIBVIRQ_ENOTSUP;
	return st;
}

struct wake_ {
	struct virq_avic_vcpu *sender;
	uint32_t n;
};

static void wake_one_(void *arg, struct virq_avic_vcpu *t)
{
	struct wake_ *w = arg;

	if (t == w->sender) /* the sender is in this exit; it re-enters through VMRUN */
		return;
	CNT_(&t->cnt.wakes);
	IGNORE_(virq_avic_notify_(t, self_host_(w->sender)));
	w->n++;
}

virq_status virq_avic_handle_incomplete_ipi(struct virq_avic_vcpu *sender, uint64_t info1,
					    uint64_t info2, const struct virq_avic_deliver_ops *ops,
					    struct virq_avic_exit_result *res)
{
	struct virq_avic_exit_ipi x;
	struct wake_ w = {sender, 0};
	virq_status st;

	if (!sender || !sender->vm || !res)
		return LIBVIRQ_EINVAL;
	memset(res, 0, sizeof(*res));
	IGNORE_(virq_avic_exit_ipi_decode(info1, info2, LD_(&sender->x2apic), &x));
	res->cause = (uint32_t)x.cause;
	res->index = x.index;
	CNT_(&sender->cnt.incomplete_ipi[x.cause]);
	switch (x.cause) {
	case LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING:
		/* Hardware already set the IRR bits: only wake the targets
		 * (docs/rationale.md#avic-incomplete-ipi-causes). */
		st = virq_avic_resolve(sender->vm, sender, &x.icr, wake_one_, &w, NULL);
		res->targets = w.n;
		return st;
	case LIBVIRQ_AVIC_IPI_INVALID_INT_TYPE:
	case LIBVIRQ_AVIC_IPI_INVALID_TARGET:
		/* Hardware delivered to nobody: emulate the whole ICR write. */
		return virq_avic_emulate_icr(sender, info1, ops, &res->targets);
	case LIBVIRQ_AVIC_IPI_INVALID_VECTOR:
		return LIBVIRQ_OK;
	case LIBVIRQ_AVIC_IPI_INVALID_BACKING_PAGE:
		LIBVIRQ_LOGV(&sender->vm->hal, LIBVIRQ_LOG_ERROR, "avic: INVALID_BACKING_PAGE index",
			  x.index);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_OK;
	default:
		LIBVIRQ_LOGV(&sender->vm->hal, LIBVIRQ_LOG_ERROR, "avic: unknown incomplete-IPI cause",
			  x.raw_cause);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_OK;
	}
}

static virq_status trap_write_(struct virq_avic_vcpu *v, uint32_t off,
			       const struct virq_avic_deliver_ops *ops,
			       struct virq_avic_exit_result *res)
{
	uint32_t val = __atomic_load_n(apic_reg_(v, off), __ATOMIC_RELAXED);
	uint64_t icr;

	switch (off) {
	case LIBVIRQ_APIC_LDR:
		/* ENOENT/EEXIST: no entry; IPIs to it exit and are emulated. */
		IGNORE_(virq_avic_ldr_write(v, val));
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_DFR:
		/* A DFR model other than flat/cluster leaves the tables unchanged. */
		IGNORE_(virq_avic_dfr_write(v, val));
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_ID:
		IGNORE_(virq_avic_apic_id_write(v, val));
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_RRR:
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_ICR:
		icr =
		    val | (uint64_t)__atomic_load_n(apic_reg_(v, LIBVIRQ_APIC_ICR2), __ATOMIC_RELAXED)
			      << 32;
		/* ENOTSUP: a special IPI without a delivery callback; the caller must know. */
		return virq_avic_emulate_icr(v, icr, ops, &res->targets);
	default:
		res->action = LIBVIRQ_AVIC_ACT_EMULATE_WRITE;
		return LIBVIRQ_OK;
	}
}

virq_status virq_avic_handle_noaccel(struct virq_avic_vcpu *vcpu, uint64_t info1, uint64_t info2,
				     const struct virq_avic_deliver_ops *ops,
				     struct virq_avic_exit_result *res)
{
	struct virq_avic_exit_noaccel x;

	if (!vcpu || !vcpu->vm || !res)
		return LIBVIRQ_EINVAL;
	memset(res, 0, sizeof(*res));
	IGNORE_(virq_avic_exit_noaccel_decode(info1, info2, &x));
	res->offset = x.offset;
	res->write = x.write;
	res->trap = x.trap;
	CNT_(x.trap ? &vcpu->cnt.noaccel_trap : &vcpu->cnt.noaccel_fault);
	if (x.write)
		CNT_(&vcpu->cnt.noaccel_write);
	if (!x.trap) {
		res->action = LIBVIRQ_AVIC_ACT_EMULATE_ACCESS;
		return LIBVIRQ_OK;
	}
	if (!x.write) {
		LIBVIRQ_LOGV(&vcpu->vm->hal, LIBVIRQ_LOG_WARN, "avic: trap exit on a read", x.offset);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_OK;
	}
	{
		uint32_t before = virq_avic_vm_inhibits(vcpu->vm);
		virq_status st = trap_write_(vcpu, x.offset, ops, res);

		/* LDR/DFR/APIC ID writes may inhibit: the other vCPUs must know. */
		res->inhibited = (virq_avic_vm_inhibits(vcpu->vm) & ~before) != 0;
		return st;
	}
}

/* ---- logical APIC ID table (APM §15.29.3.3) ---- */
/* Rules: docs/rationale.md#avic-logical-id-single-bit. */

void virq_avic_log_drop_(struct virq_avic_vcpu *v)
{
	if (v->log_index < 0)
		return;
	__atomic_store_n(log_slot_(v->vm, (uint32_t)v->log_index), 0u, __ATOMIC_RELEASE);
	v->log_index = -1;
}

virq_status virq_avic_ldr_write(struct virq_avic_vcpu *vcpu, uint32_t ldr)
{
	uint32_t idx, cur, e;
	virq_status st;

	if (!vcpu || !vcpu->vm)
		return LIBVIRQ_EINVAL;
	if (LD_(&vcpu->x2apic)) /* x2APIC LDR is read-only and derived */
		return LIBVIRQ_OK;
	ST_(&vcpu->ldr, ldr); /* kept even when "bad": emulation matches on it */
	virq_avic_log_drop_(vcpu);
	st = virq_avic_logical_index(LD_(&vcpu->dfr), ldr, &idx);
	if (st != LIBVIRQ_OK)
		return st == LIBVIRQ_EINVAL ? LIBVIRQ_ENOENT : st;
	cur = __atomic_load_n(log_slot_(vcpu->vm, idx), __ATOMIC_ACQUIRE);
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_LOG_Valid, cur)) {
		/* Another vCPU owns this logical ID: AVIC cannot represent both. */
		inhibit_set_(vcpu->vm, LIBVIRQ_AVIC_INHIBIT_LOGICAL_ID_ALIASED);
		return LIBVIRQ_EEXIST;
	}
	st = virq_avic_logical_entry_encode(vcpu->apic_id, true, &e);
	if (st != LIBVIRQ_OK)
		return st;
	__atomic_store_n(log_slot_(vcpu->vm, idx), e, __ATOMIC_RELEASE);
	vcpu->log_index = (int32_t)idx;
	return LIBVIRQ_OK;
}

virq_status virq_avic_dfr_write(struct virq_avic_vcpu *vcpu, uint32_t dfr)
{
	uint32_t model = dfr >> 28;

	if (!vcpu || !vcpu->vm || (model != 0 && model != 0xFu))
		return LIBVIRQ_EINVAL;
	if (LD_(&vcpu->x2apic))
		return LIBVIRQ_OK;
	virq_avic_log_drop_(vcpu);
	ST_(&vcpu->dfr, dfr);
	/* Unlike KVM, re-apply the LDR at once so the vCPU keeps an entry. */
	return virq_avic_ldr_write(vcpu, LD_(&vcpu->ldr));
}

virq_status virq_avic_apic_id_write(struct virq_avic_vcpu *vcpu, uint32_t value)
{
	uint32_t id;

	if (!vcpu || !vcpu->vm)
		return LIBVIRQ_EINVAL;
	if (LD_(&vcpu->x2apic)) /* x2APIC ID is read-only */
		return LIBVIRQ_OK;
	id = value >> 24;
	/* Rewriting the 8-bit ID the vCPU already has is not a change. */
	if (id == (cur_id_(vcpu) & 0xFFu))
		return LIBVIRQ_OK;
	ST_(&vcpu->cur_apic_id, id);
	virq_avic_update_slow_(vcpu, vcpu->slow);
	/* The tables stay as they are; AVIC goes off for the VM instead. */
	inhibit_set_(vcpu->vm, LIBVIRQ_AVIC_INHIBIT_APIC_ID_MODIFIED);
	return LIBVIRQ_EINHIBITED;
}
