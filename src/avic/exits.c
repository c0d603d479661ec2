/* SPDX-License-Identifier: MIT */
/*
 * AVIC #VMEXIT handling (APM Vol 2 rev 3.44 §15.29.9, Tables 15-25 to 15-29): AVIC_INCOMPLETE_IPI
 * and AVIC_NOACCEL, their dispatcher, and ICR emulation. Table upkeep on
 * LDR/DFR/APIC ID writes is in tables.c, destination rules in dest.c.
 *
 * Guest-triggerable events the library cannot act on (an unknown cause or
 * exit code, a trap exit on a read, a bad backing page) are counted per VM
 * and logged at most LIBVIRQ_AVIC_LOG_BURST + 1 times per kind per VM: a
 * guest cannot flood the host log, and the counters still say how many there
 * were (virq_avic_vm_counters_get(); docs/rationale.md#avic-counted-events).
 * Which causes emulate the ICR: docs/rationale.md#avic-incomplete-ipi-causes;
 * whom TARGET_NOT_RUNNING wakes: docs/rationale.md#avic-tnr-wake.
 */
#include "avic_priv.h"

/* Indexes of struct virq_avic_vm_raw_counters::ev, in struct virq_avic_vm_counters order. */
enum { EV_UNKNOWN_CAUSE_, EV_UNKNOWN_EXIT_, EV_BAD_BACKING_, EV_TRAP_READ_, EV_UNACCEL_IPI_ };

/* Counts an event; logs the first LIBVIRQ_AVIC_LOG_BURST, then one line saying the rest is counted.
 */
static LIBVIRQ_COLD_ void event_(struct virq_avic_vm *vm, unsigned k, enum virq_log_level lvl,
				 const char *msg, uint64_t v1, uint64_t v2)
{
	uint64_t n = __atomic_add_fetch(&vm->cnt.ev[k], 1, __ATOMIC_RELAXED);

	if (n <= LIBVIRQ_AVIC_LOG_BURST)
		LIBVIRQ_LOGV(&vm->hal, lvl, msg, v1, v2);
	else if (n == LIBVIRQ_AVIC_LOG_BURST + 1u)
		LIBVIRQ_LOGV(
		    &vm->hal, lvl,
		    "avic: more events of this kind are only counted (virq_avic_vm_counters)",
		    (uint64_t)k);
	else
		__atomic_add_fetch(&vm->cnt.dropped, 1, __ATOMIC_RELAXED);
}

struct emu_ {
	const char *api; /* the entry a faulted doorbell is reported under */
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

static LIBVIRQ_CF_CHECK_ void emu_deliver_(void *arg, struct virq_avic_vcpu *t)
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
		IGNORE_(avic_post_live_(e->api, t, icr->vector, e->self_host));
		break;
	}
	case LIBVIRQ_APIC_DM_REMOTE_READ: /* answered by remote_read_() */
		return;
	case LIBVIRQ_APIC_DM_SMI:
	case LIBVIRQ_APIC_DM_NMI:
	case LIBVIRQ_APIC_DM_INIT:
	case LIBVIRQ_APIC_DM_SIPI:
	case LIBVIRQ_APIC_DM_EXTINT:
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

struct rr_ {
	struct virq_avic_vcpu *target;
	uint32_t n;
};

static LIBVIRQ_CF_CHECK_ void rr_target_(void *arg, struct virq_avic_vcpu *t)
{
	struct rr_ *r = arg;

	r->target = t;
	r->n++;
}

/*
 * Remote read (MT 011b, xAPIC only): "the Vector field specifies the APIC
 * offset of the APIC register to be read" — the register's offset[11:4], as
 * APIC registers are 16-byte aligned — and the target's value lands in the
 * sender's Remote Read Register (C0h) with RRS = 10b; a destination that is
 * not exactly one APIC leaves RRS = 00b, "Read was invalid" (AMD64 APM Vol 2 rev 3.44
 * rev 3.44 §16.5, Figures 16-18 and 16-19). In x2APIC mode the encoding is
 * reserved: nothing is read.
 */
static uint32_t remote_read_(struct virq_avic_vcpu *sender, const struct virq_avic_icr *icr)
{
	struct rr_ r = {NULL, 0};
	uint32_t rrs = LIBVIRQ_APIC_RRS_INVALID;

	if (LD_(&sender->x2apic))
		return 0;
	if (icr->shorthand == LIBVIRQ_APIC_SH_NONE &&
	    virq_avic_resolve_(NULL, sender->vm, sender, icr, rr_target_, &r, NULL) == LIBVIRQ_OK &&
	    r.n == 1) {
		uint32_t off = (uint32_t)icr->vector << 4;

		__atomic_store_n(apic_reg_(sender, LIBVIRQ_APIC_RRR),
				 __atomic_load_n(apic_reg_(r.target, off), __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		rrs = LIBVIRQ_APIC_RRS_VALID;
	}
	__atomic_fetch_and(apic_reg_(sender, LIBVIRQ_APIC_ICR),
			   ~(uint32_t)LIBVIRQ_FIELD_MASK(ICR_F_(RRS)), __ATOMIC_SEQ_CST);
	__atomic_fetch_or(apic_reg_(sender, LIBVIRQ_APIC_ICR),
			  (uint32_t)LIBVIRQ_FIELD_PREP(ICR_F_(RRS), rrs), __ATOMIC_SEQ_CST);
	return rrs == LIBVIRQ_APIC_RRS_VALID ? 1u : 0u;
}

/* virq_avic_emulate_icr() from a live @p sender, reported under @p api. */
static virq_status emulate_icr_(const char *api, struct virq_avic_vcpu *sender, uint64_t icr_raw,
				const struct virq_avic_deliver_ops *ops, uint32_t *count)
{
	struct virq_avic_icr icr;
	struct emu_ e = {api, &icr, ops, 0, 0, false};
	virq_status st = LIBVIRQ_OK;

	IGNORE_(virq_avic_icr_decode(icr_raw, LD_(&sender->x2apic), &icr)); /* cannot fail */
	e.self_host = self_host_(sender);
	if (icr.delivery_mode == LIBVIRQ_APIC_DM_REMOTE_READ)
		e.reached = remote_read_(sender, &icr);
	/* A level-triggered INIT de-assert has no effect on the targets. */
	else if (!(icr.delivery_mode == LIBVIRQ_APIC_DM_INIT && icr.level_trigger &&
		   !icr.level_assert))
		st = virq_avic_resolve_(api, sender->vm, sender, &icr, emu_deliver_, &e, NULL);
	/* The write completed: clear delivery status (BUSY) in the sender's ICR. */
	__atomic_fetch_and(apic_reg_(sender, LIBVIRQ_APIC_ICR),
			   ~(uint32_t)LIBVIRQ_FIELD_MASK(ICR_F_(DS)), __ATOMIC_SEQ_CST);
	if (count)
		*count = e.reached;
	if (st == LIBVIRQ_OK && e.missing)
		st = LIBVIRQ_FAILV_(api, &sender->vm->hal, LIBVIRQ_ENOTSUP,
				    "ICR delivery mode=%u (SMI, NMI, INIT or SIPI) and ops has no "
				    "callback for it",
				    (uint64_t)icr.delivery_mode);
	return st;
}

virq_status virq_avic_emulate_icr(struct virq_avic_vcpu *sender, uint64_t icr_raw,
				  const struct virq_avic_deliver_ops *ops, uint32_t *count)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (count)
		*count = 0;
	if (!vcpu_live_(sender))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "sender", sender);
	return emulate_icr_(api, sender, icr_raw, ops, count);
}

struct wake_ {
	const char *api; /* the entry a faulted doorbell is reported under */
	struct virq_avic_vcpu *sender;
	uint32_t n;
};

/*
 * TARGET_NOT_RUNNING: the hardware has set the IRR bit of every target and
 * signalled each one whose physical table entry had IsRunning 1 (APM Vol 2 rev 3.44
 * rev 3.44 §15.29.6.1; KVM arch/x86/kvm/svm/avic.c avic_kick_target_vcpus(): "hardware
 * has handled vCPUs that were in guest at the time of the IPI"). A target
 * whose run word still shows the entry published with IsRunning 1 needs
 * nothing (see the ordering argument in run.c); every other one is
 * doorbelled (running without IsRunning, e.g. IPI virtualization off) or
 * kicked.
 */
static LIBVIRQ_CF_CHECK_ void wake_one_(void *arg, struct virq_avic_vcpu *t)
{
	struct wake_ *w = arg;
	uint32_t run;

	if (t == w->sender) /* the sender is in this exit; it re-enters through VMRUN */
		return;
	run = __atomic_load_n(&t->run, __ATOMIC_SEQ_CST);
	if ((run & (LIBVIRQ_AVIC_RUN_RUNNING | LIBVIRQ_AVIC_RUN_ISRUNNING)) ==
	    (LIBVIRQ_AVIC_RUN_RUNNING | LIBVIRQ_AVIC_RUN_ISRUNNING))
		return;
	CNT_(&t->cnt.wakes);
	IGNORE_(
	    virq_avic_notify_(w->api, t, self_host_(w->sender))); /* a faulted doorbell kicked */
	w->n++;
}

/* The vCPU and result checks of the exit handlers, reported under @p api. */
static virq_status exit_args_(const char *api, const struct virq_avic_vcpu *vcpu,
			      struct virq_avic_exit_result *res)
{
	if (res)
		memset(res, 0, sizeof(*res));
	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	if (!res)
		return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_EINVAL, "res=NULL");
	return LIBVIRQ_OK;
}

/* virq_avic_handle_incomplete_ipi() after exit_args_(). */
static virq_status incomplete_ipi_(const char *api, struct virq_avic_vcpu *sender, uint64_t info1,
				   uint64_t info2, const struct virq_avic_deliver_ops *ops,
				   struct virq_avic_exit_result *res)
{
	struct virq_avic_exit_ipi x;
	struct wake_ w = {api, sender, 0};
	virq_status st;

	IGNORE_(
	    virq_avic_exit_ipi_decode(info1, info2, LD_(&sender->x2apic), &x)); /* cannot fail */
	res->cause = (uint32_t)x.cause;
	res->index = x.index;
	CNT_(&sender->cnt.incomplete_ipi[x.cause]);
	switch (x.cause) {
	case LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING:
		/* Hardware already set the IRR bits: only wake the targets. */
		st = virq_avic_resolve_(api, sender->vm, sender, &x.icr, wake_one_, &w, NULL);
		res->targets = w.n;
		return st;
	case LIBVIRQ_AVIC_IPI_INVALID_INT_TYPE:
	case LIBVIRQ_AVIC_IPI_INVALID_TARGET:
		/* Hardware delivered to nobody: emulate the whole ICR write
		 * (KVM 5aede752a839: also for an invalid target). */
		return emulate_icr_(api, sender, info1, ops, &res->targets);
	case LIBVIRQ_AVIC_IPI_INVALID_VECTOR:
		return LIBVIRQ_OK;
	case LIBVIRQ_AVIC_IPI_INVALID_BACKING_PAGE:
		event_(sender->vm, EV_BAD_BACKING_, LIBVIRQ_LOG_ERROR,
		       "avic: AVIC_INCOMPLETE_IPI INVALID_BACKING_PAGE (index, sender)", x.index,
		       sender->index);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_EHW;
	case LIBVIRQ_AVIC_IPI_UNACCELERATED:
		/* Secure AVIC only (APM Vol 2 rev 3.44 Table 15-27), which libvirq does not drive.
		 */
		event_(sender->vm, EV_UNACCEL_IPI_, LIBVIRQ_LOG_WARN,
		       "avic: AVIC_INCOMPLETE_IPI Un-accelerated IPI, a Secure AVIC cause (ID, "
		       "sender)",
		       x.raw_cause, sender->index);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_ENOTSUP;
	case LIBVIRQ_AVIC_IPI_UNKNOWN:
	default:
		event_(sender->vm, EV_UNKNOWN_CAUSE_, LIBVIRQ_LOG_WARN,
		       "avic: AVIC_INCOMPLETE_IPI with an unknown cause (cause, sender)",
		       x.raw_cause, sender->index);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_EUNKNOWN;
	}
}

virq_status virq_avic_handle_incomplete_ipi(struct virq_avic_vcpu *sender, uint64_t info1,
					    uint64_t info2, const struct virq_avic_deliver_ops *ops,
					    struct virq_avic_exit_result *res)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = exit_args_(api, sender, res);

	return st != LIBVIRQ_OK ? st : incomplete_ipi_(api, sender, info1, info2, ops, res);
}

static virq_status trap_write_(const char *api, struct virq_avic_vcpu *v, uint32_t off,
			       const struct virq_avic_deliver_ops *ops,
			       struct virq_avic_exit_result *res)
{
	uint32_t val = __atomic_load_n(apic_reg_(v, off), __ATOMIC_RELAXED);
	uint64_t icr;

	switch (off) {
	case LIBVIRQ_APIC_LDR:
		/* ENOENT/EEXIST: no entry; IPIs to it exit and are emulated. */
		IGNORE_(virq_avic_ldr_write_(v, val));
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_DFR:
		/* ENOENT: a DFR model other than flat/cluster, kept; no logical entry. */
		IGNORE_(virq_avic_dfr_write_(v, val));
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_ID:
		/* EINHIBITED is reported through res->inhibited. */
		IGNORE_(virq_avic_apic_id_write_(v, val));
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_RRR:
		return LIBVIRQ_OK;
	case LIBVIRQ_APIC_ICR:
		icr = val |
		      (uint64_t)__atomic_load_n(apic_reg_(v, LIBVIRQ_APIC_ICR2), __ATOMIC_RELAXED)
			  << 32;
		/* ENOTSUP: a special IPI without a delivery callback; the caller must know. */
		return emulate_icr_(api, v, icr, ops, &res->targets);
	default:
		res->action = LIBVIRQ_AVIC_ACT_EMULATE_WRITE;
		return LIBVIRQ_OK;
	}
}

/* virq_avic_handle_noaccel() after exit_args_(). */
static virq_status noaccel_(const char *api, struct virq_avic_vcpu *vcpu, uint64_t info1,
			    uint64_t info2, const struct virq_avic_deliver_ops *ops,
			    struct virq_avic_exit_result *res)
{
	struct virq_avic_exit_noaccel x;
	uint32_t before;
	virq_status st;

	/* Trap or fault for the extended LVTs depends on CPUID Fn8000_000A EDX[27]. */
	IGNORE_(virq_avic_exit_noaccel_decode(info1, info2, vcpu->vm->caps.ext_lvt_trap,
					      &x)); /* cannot fail */
	res->offset = x.offset;
	res->write = x.write;
	res->trap = x.trap;
	res->vector_valid = x.vector_valid;
	res->vector = x.vector;
	CNT_(x.trap ? &vcpu->cnt.noaccel_trap : &vcpu->cnt.noaccel_fault);
	if (x.write)
		CNT_(&vcpu->cnt.noaccel_write);
	if (!x.trap) {
		res->action = LIBVIRQ_AVIC_ACT_EMULATE_ACCESS;
		return LIBVIRQ_OK;
	}
	if (!x.write) {
		/* A trap exit is defined for writes only (APM Vol 2 rev 3.44 §15.29.3.1, Table
		 * 15-22). */
		event_(vcpu->vm, EV_TRAP_READ_, LIBVIRQ_LOG_WARN,
		       "avic: AVIC_NOACCEL trap exit on a read (offset, vCPU)", x.offset,
		       vcpu->index);
		res->action = LIBVIRQ_AVIC_ACT_REPORT;
		return LIBVIRQ_EUNKNOWN;
	}
	before = vm_inhibits_(vcpu->vm);
	st = trap_write_(api, vcpu, x.offset, ops, res);
	/* LDR/DFR/APIC ID writes may inhibit: the other vCPUs must know. */
	res->inhibited = (vm_inhibits_(vcpu->vm) & ~before) != 0;
	return st;
}

virq_status virq_avic_handle_noaccel(struct virq_avic_vcpu *vcpu, uint64_t info1, uint64_t info2,
				     const struct virq_avic_deliver_ops *ops,
				     struct virq_avic_exit_result *res)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = exit_args_(api, vcpu, res);

	return st != LIBVIRQ_OK ? st : noaccel_(api, vcpu, info1, info2, ops, res);
}

virq_status virq_avic_handle_exit(struct virq_avic_vcpu *vcpu, uint64_t exitcode, uint64_t info1,
				  uint64_t info2, const struct virq_avic_deliver_ops *ops,
				  struct virq_avic_exit_result *res)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = exit_args_(api, vcpu, res);

	if (st != LIBVIRQ_OK)
		return st;
	if (exitcode == LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI)
		return incomplete_ipi_(api, vcpu, info1, info2, ops, res);
	if (exitcode == LIBVIRQ_VMCB_EXIT_AVIC_NOACCEL)
		return noaccel_(api, vcpu, info1, info2, ops, res);
	event_(vcpu->vm, EV_UNKNOWN_EXIT_, LIBVIRQ_LOG_WARN,
	       "avic: virq_avic_handle_exit given an exit code it does not handle (code, vCPU)",
	       exitcode, vcpu->index);
	res->action = LIBVIRQ_AVIC_ACT_REPORT;
	return LIBVIRQ_EUNKNOWN;
}

virq_status virq_avic_vm_counters_get(const struct virq_avic_vm *vm,
				      struct virq_avic_vm_counters *out)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	if (!out)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EINVAL, "out=NULL");
	out->unknown_ipi_cause = __atomic_load_n(&vm->cnt.ev[EV_UNKNOWN_CAUSE_], __ATOMIC_RELAXED);
	out->unknown_exit = __atomic_load_n(&vm->cnt.ev[EV_UNKNOWN_EXIT_], __ATOMIC_RELAXED);
	out->invalid_backing_page = __atomic_load_n(&vm->cnt.ev[EV_BAD_BACKING_], __ATOMIC_RELAXED);
	out->noaccel_trap_read = __atomic_load_n(&vm->cnt.ev[EV_TRAP_READ_], __ATOMIC_RELAXED);
	out->unaccelerated_ipi = __atomic_load_n(&vm->cnt.ev[EV_UNACCEL_IPI_], __ATOMIC_RELAXED);
	out->log_lines_dropped = __atomic_load_n(&vm->cnt.dropped, __ATOMIC_RELAXED);
	return LIBVIRQ_OK;
}
