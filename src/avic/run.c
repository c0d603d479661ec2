/* SPDX-License-Identifier: MIT */
/*
 * vCPU load/put/block and interrupt posting (APM Vol 2 rev 3.44 §15.29.8.2 "Doorbell
 * Mechanism", §15.29.5.2 IsRunning).
 *
 * Why no interrupt is lost
 * ------------------------
 * Two words matter: IRR[v] in the target's backing page, and the target's
 * run word (RUNNING | DOORBELL | host APIC ID), which posters read. Every
 * access to them below is a sequentially consistent atomic, so all of them
 * fall into one total order S (C11 §7.17.3).
 *
 *   poster:  P1 fetch_or(IRR, v)   P2 load(run)
 *   owner:   L1 store(run, RUNNING|host)   L2 VMRUN reads IRR   (load)
 *            U1 store(run, 0)              U2 pending() reads IRR (put, then block)
 *
 * - Load: if P2 precedes L1 in S, the poster saw "not running" and kicks;
 *   also P1 < P2 < L1 < L2, so VMRUN sees the bit. If L1 precedes P2, the
 *   poster sees RUNNING and rings the doorbell on the host CPU (or, when the
 *   target is on the poster's own CPU, nothing: that CPU is in the host and
 *   will VMRUN, which reads the IRR). A doorbell that arrives after the
 *   guest left is harmless: the bit stays in the IRR for the next VMRUN.
 * - Put/block: if P2 precedes U1, the poster saw RUNNING and only rang the
 *   doorbell, but P1 < U1 < U2, so the owner's pending() check after
 *   virq_avic_vcpu_block() sees the bit and does not sleep. If U1 precedes
 *   P2, the poster sees "not running" and kicks, which wakes the sleeper.
 * - The doorbell bit is set only while the values last given to the VMCB
 *   enable AVIC (virq_avic_vcpu_vmcb_values() stores the run word again), so
 *   a guest running without AVIC is always kicked rather than doorbelled;
 *   virq_avic_vcpu_set_nested() clears it before the vCPU enters L2, whose
 *   VMCB has no AVIC, and load does not set it while the vCPU is nested.
 * - Hardware senders (another vCPU's ICR write) and the IOMMU play the
 *   poster's role with IsRunning in the physical table and IsRun in the
 *   IRTEs: they set the IRR bit, then read the flag, and exit (sender:
 *   TARGET_NOT_RUNNING) or log (IOMMU: GA log) when it is clear. Put/block
 *   clears those flags before U1, whose sequentially consistent store
 *   orders them before the owner's pending() check (Dekker again). While
 *   the vCPU runs without AVIC (inhibited, L2) its IRTEs have IsRun = 0 and
 *   GALogIntr = 1: the IOMMU logs and the GA log handler kicks, as a poster
 *   does for the run word without DOORBELL. Likewise IsRunning is 0 in the
 *   table while it runs without AVIC, so hardware senders exit
 *   TARGET_NOT_RUNNING and the exit handler kicks it.
 * - A post that finds IRR[v] already set returns at once: whoever set it
 *   notifies after setting it, and the bit is still pending, so its delivery
 *   happens after this post.
 *
 * - TARGET_NOT_RUNNING exits (exits.c) skip targets whose run word says
 *   RUNNING with ISRUNNING: their published entry has IsRunning 1, so the
 *   hardware either saw it and notified them itself (APM Vol 2 rev 3.44 §15.29.6.1),
 *   or read IsRunning 0 before they published it; then, by the Dekker pair
 *   above with the hardware as poster (it sets the IRR bit, then reads
 *   IsRunning), their VMRUN after the publication sees the bit.
 *
 * Erratum 1235 parts (and disable_ipiv) never set IsRunning in the table
 * (the CPU may miss a cleared IsRunning; KVM d921665e01ba, 8de4a1c8164e):
 * the hardware then exits with TARGET_NOT_RUNNING for every non-self IPI,
 * the run word never has ISRUNNING, and the software state decides doorbell
 * vs kick (docs/rationale.md#avic-erratum-1235). Decisions key on the
 * software run state, never on IsRunning (docs/rationale.md#avic-run-state).
 */
#include "avic_priv.h"

/* Cold path: the doorbell write faulted (#GP); fall back to a kick. The
 * report names the host CPU the target last ran on (the one rung). */
static LIBVIRQ_COLD_ virq_status doorbell_failed_(const char *api, struct virq_avic_vcpu *t)
{
	const struct virq_hal *hal = &t->vm->hal;

	CNT_(&t->cnt.db_failed);
	CNT_(&t->cnt.kick);
	(hal->ops->kick_vcpu)(hal->ctx, t->cookie);
	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EHW,
			      "doorbell MSR write of host APIC ID=%u faulted: vCPU index=%u kicked",
			      LD_(&t->host_apic_id), t->index);
}

virq_status virq_avic_notify_(const char *api, struct virq_avic_vcpu *t, uint32_t self_host)
{
	const struct virq_hal *hal = &t->vm->hal;
	uint32_t run = __atomic_load_n(&t->run, __ATOMIC_SEQ_CST);

	if (run & LIBVIRQ_AVIC_RUN_RUNNING) {
		uint32_t host = run & LIBVIRQ_AVIC_RUN_HOST;

		if (host == self_host) {
			CNT_(&t->cnt.local);
			return LIBVIRQ_OK;
		}
		if (run & LIBVIRQ_AVIC_RUN_DOORBELL) {
			CNT_(&t->cnt.db);
			if ((hal->ops->msr_write)(hal->ctx, LIBVIRQ_AVIC_DOORBELL_MSR, host) !=
			    LIBVIRQ_OK)
				return doorbell_failed_(api, t);
			return LIBVIRQ_OK;
		}
	}
	CNT_(&t->cnt.kick);
	(hal->ops->kick_vcpu)(hal->ctx, t->cookie);
	return LIBVIRQ_OK;
}

/* Cold path of virq_avic_post(): @vector is outside 16..255. */
static LIBVIRQ_COLD_ virq_status post_vector_(const char *api, const struct virq_avic_vcpu *v,
					      uint32_t vector)
{
	if (vector < 16u)
		return LIBVIRQ_FAILV_(api, &v->vm->hal, LIBVIRQ_ERANGE, "vector=%u < 16", vector);
	return LIBVIRQ_FAILV_(api, &v->vm->hal, LIBVIRQ_ERANGE, "vector=%u > 255", vector);
}

virq_status virq_avic_post(struct virq_avic_vcpu *vcpu, uint32_t vector, uint32_t self_host_apic_id)
{
	const char *const api = LIBVIRQ_ENTRY_;

	/* One load and compare: a NULL, destroyed or never-created target is refused. */
	if (!vcpu || __atomic_load_n(&vcpu->state, __ATOMIC_RELAXED) != LIBVIRQ_AVIC_ST_LIVE_)
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	if (vector - 16u > 255u - 16u) /* one compare on the hot path */
		return post_vector_(api, vcpu, vector);
	return avic_post_live_(api, vcpu, vector, self_host_apic_id);
}

/* Publishes the physical table entry (single 64-bit store the hardware reads). */
void virq_avic_publish_entry_(struct virq_avic_vcpu *v, bool running)
{
	uint64_t e = LIBVIRQ_FIELD_SET(PHYS_F_(HostPhysicalAPICID), v->entry, v->host_apic_id);

	e = LIBVIRQ_FIELD_SET(PHYS_F_(IR), e, running);
	v->entry = e;
	/*
	 * With IPI virtualization off IsRunning never reaches the table. Nor
	 * while the vCPU runs without AVIC (inhibited, L2): a sender's doorbell
	 * would be ignored, it must exit TARGET_NOT_RUNNING instead.
	 */
	if (!v->vm->ipiv || !avic_on_(v))
		e = LIBVIRQ_FIELD_SET(PHYS_F_(IR), e, 0);
	__atomic_store_n(phys_slot_(v->vm, v->apic_id), e, __ATOMIC_SEQ_CST);
}

uint32_t virq_avic_run_word_(const struct virq_avic_vcpu *v)
{
	/* Not while in L2 (NESTED): its VMCB has no AVIC, a doorbell would be ignored. */
	bool on = avic_on_(v);
	/*
	 * Nor for a CPU whose APIC ID does not fit the doorbell register's 8 bits
	 * (bits 63:8 are MBZ): it is kicked (docs/rationale.md#avic-doorbell-apic-id).
	 */
	bool db = on && LD_(&v->vm->policy) == LIBVIRQ_AVIC_POLICY_DOORBELL &&
		  v->host_apic_id <= LIBVIRQ_AVIC_DOORBELL_MAX_ID;

	return LIBVIRQ_AVIC_RUN_RUNNING | v->host_apic_id | (db ? LIBVIRQ_AVIC_RUN_DOORBELL : 0u) |
	       (on && v->vm->ipiv ? LIBVIRQ_AVIC_RUN_ISRUNNING : 0u);
}

/* virq_avic_vcpu_load() of a live vCPU, reported under @p api. */
static virq_status avic_load_(const char *api, struct virq_avic_vcpu *vcpu, uint32_t host_apic_id)
{
	if (host_apic_id > LIBVIRQ_AVIC_RUN_HOST)
		return LIBVIRQ_FAILV_(api, &vcpu->vm->hal, LIBVIRQ_ERANGE, "host_apic_id=%u > %u",
				      host_apic_id, LIBVIRQ_AVIC_RUN_HOST);
	if (vcpu->loaded)
		return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_EBUSY, "vcpu already loaded");
	vcpu->host_apic_id = host_apic_id;
	vcpu->loaded = true;
	if (vcpu->blocking) {
		/* Preempted while blocking: stay "not running" until unblock. */
		virq_avic_publish_entry_(vcpu, false);
		return LIBVIRQ_OK;
	}
	virq_avic_publish_entry_(vcpu, true);
	virq_avic_irtes_update_(vcpu);
	/* L1 of the ordering argument; VMRUN (L2) follows in the caller. */
	__atomic_store_n(&vcpu->run, virq_avic_run_word_(vcpu), __ATOMIC_SEQ_CST);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_load(struct virq_avic_vcpu *vcpu, uint32_t host_apic_id)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	return avic_load_(api, vcpu, host_apic_id);
}

static void unload_(struct virq_avic_vcpu *v)
{
	/*
	 * IsRunning (table) and IsRun (IRTEs) first, the run word last: its
	 * sequentially consistent store (XCHG on x86) also orders the table and
	 * IRTE stores before the caller's pending() reads of the IRR, the
	 * software side of the same argument for hardware senders and the
	 * IOMMU (they set the IRR, then read IsRunning / IsRun).
	 * Keep the last host APIC ID so a stray doorbell reaches a related CPU.
	 */
	virq_avic_publish_entry_(v, false);
	virq_avic_irtes_update_(v);
	__atomic_store_n(&v->run, 0u, __ATOMIC_SEQ_CST); /* U1 */
}

virq_status virq_avic_vcpu_put(struct virq_avic_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	/* Keyed on the software state, not on IsRunning (off with ipiv=0). */
	if (!vcpu->loaded)
		return LIBVIRQ_OK;
	vcpu->loaded = false;
	unload_(vcpu);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_block(struct virq_avic_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	vcpu->blocking = true;
	unload_(vcpu);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_unblock(struct virq_avic_vcpu *vcpu, uint32_t host_apic_id)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	if (host_apic_id > LIBVIRQ_AVIC_RUN_HOST)
		return LIBVIRQ_FAILV_(api, &vcpu->vm->hal, LIBVIRQ_ERANGE, "host_apic_id=%u > %u",
				      host_apic_id, LIBVIRQ_AVIC_RUN_HOST);
	vcpu->blocking = false;
	vcpu->loaded = false;
	return avic_load_(api, vcpu, host_apic_id);
}

/* Highest set bit of the 256-bit array at @base, or -1. */
static int highest_vec_(const struct virq_avic_vcpu *v, uint32_t base)
{
	for (int w = 7; w >= 0; w--) {
		uint32_t x =
		    __atomic_load_n(apic_reg_(v, base + (uint32_t)w * 0x10u), __ATOMIC_SEQ_CST);

		if (x)
			return w * 32 + 31 - __builtin_clz(x);
	}
	return -1;
}

bool virq_avic_vcpu_pending(const struct virq_avic_vcpu *vcpu, uint8_t *vector)
{
	int irr, isr, ppr;
	uint32_t tpr;

	if (vector)
		*vector = 0;
	if (!vcpu_live_(vcpu))
		return false;
	irr = highest_vec_(vcpu, LIBVIRQ_APIC_IRR);
	if (vector)
		*vector = irr < 0 ? 0 : (uint8_t)irr;
	if (irr < 0)
		return false;
	isr = highest_vec_(vcpu, LIBVIRQ_APIC_ISR);
	tpr = __atomic_load_n(apic_reg_(vcpu, LIBVIRQ_APIC_TPR), __ATOMIC_RELAXED) & 0xFFu;
	ppr = (int)(tpr >> 4);
	if (isr >= 0 && (isr >> 4) > ppr)
		ppr = isr >> 4;
	return (irr >> 4) > ppr;
}
