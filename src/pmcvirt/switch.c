/* SPDX-License-Identifier: MIT */
/*
 * World switch: host PMU save/restore and the hooks around VMRUN, for the
 * hardware-switched (PerfCtrVirt) and software-switched modes.
 *
 * Every MSR write goes through pmcv_wr_() which skips the write when the
 * cache says the hardware already holds the value. The cache forgets
 * what #VMEXIT resets in HW mode (swap type C: PERF_CTL/CTR and
 * PerfCntrGlobalCtl of the host are reset, APM Vol 2 rev 3.44 Table B-3), so exactly one
 * MSR write (GlobalCtl = 0) is needed before every VMRUN.
 */
#include "pmcv_priv.h"

/* Writes @val to @msr unless the cache (bit @vbit, slot @slot) already holds it. */
static virq_status pmcv_wr_(struct virq_pmcvirt_vcpu *v, uint32_t msr, uint64_t *slot,
			    uint32_t vbit, uint64_t val)
{
	virq_status st;

	if ((v->hw.valid & vbit) && *slot == val)
		return LIBVIRQ_OK;
	st = virq_msr_wr_(&v->hal, msr, val);
	if (st != LIBVIRQ_OK) {
		v->hw.valid &= ~vbit;
		return LIBVIRQ_EHW;
	}
	*slot = val;
	v->hw.valid |= vbit;
	return LIBVIRQ_OK;
}

/* Reads @msr into the cache and returns it in @out. */
static virq_status pmcv_rd_(struct virq_pmcvirt_vcpu *v, uint32_t msr, uint64_t *slot,
			    uint32_t vbit, uint64_t *out)
{
	uint64_t val = 0;

	if (virq_msr_rd_(&v->hal, msr, &val) != LIBVIRQ_OK) {
		v->hw.valid &= ~vbit;
		return LIBVIRQ_EHW;
	}
	*slot = val;
	v->hw.valid |= vbit;
	*out = val;
	return LIBVIRQ_OK;
}

/* Reads guest counter @i: RDPMC through the HAL when it has the hook, else RDMSR. */
static virq_status pmcv_rd_ctr_(struct virq_pmcvirt_vcpu *v, uint32_t i, uint64_t *out)
{
	uint64_t val = 0;

	if (!v->use_rdpmc)
		return pmcv_rd_(v, pmcv_host_ctr_msr_(v, i), &v->hw.ctr[i], PMCV_V_CTR(i), out);
	if ((v->hal.ops->rdpmc)(v->hal.ctx, i, &val) != LIBVIRQ_OK) {
		v->hw.valid &= ~PMCV_V_CTR(i);
		return LIBVIRQ_EHW;
	}
	val &= LIBVIRQ_PMCVIRT_CTR_MASK; /* the counter is 48 bits wide */
	v->hw.ctr[i] = val;
	v->hw.valid |= PMCV_V_CTR(i);
	*out = val;
	return LIBVIRQ_OK;
}

static virq_status pmcv_wr_gctl_msr_(struct virq_pmcvirt_vcpu *v, uint64_t val)
{
	return pmcv_wr_(v, LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL, &v->hw.global_ctl, PMCV_V_GCTL, val);
}

static virq_status pmcv_wr_ctl_(struct virq_pmcvirt_vcpu *v, uint32_t i, uint64_t val)
{
	return pmcv_wr_(v, pmcv_host_ctl_msr_(v, i), &v->hw.ctl[i], PMCV_V_CTL(i), val);
}

static virq_status pmcv_wr_ctr_(struct virq_pmcvirt_vcpu *v, uint32_t i, uint64_t val)
{
	return pmcv_wr_(v, pmcv_host_ctr_msr_(v, i), &v->hw.ctr[i], PMCV_V_CTR(i), val);
}

/* Status changes only through STATUS_CLR/SET (PerfCntrGlobalStatus is read-only). */
static virq_status pmcv_wr_gsts_(struct virq_pmcvirt_vcpu *v, uint64_t want)
{
	uint64_t cur = v->hw.global_sts;
	virq_status st = LIBVIRQ_OK;

	if (!(v->hw.valid & PMCV_V_GSTS))
		cur = ~want & LIBVIRQ_GENMASK(5, 0); /* unknown: clear all other bits */
	if (cur == want)
		return LIBVIRQ_OK;
	if (cur & ~want)
		st = virq_msr_wr_(&v->hal, LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_CLR, cur & ~want);
	if (st == LIBVIRQ_OK && (want & ~cur))
		st = virq_msr_wr_(&v->hal, LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_SET, want & ~cur);
	if (st != LIBVIRQ_OK) {
		v->hw.valid &= ~PMCV_V_GSTS;
		return LIBVIRQ_EHW;
	}
	v->hw.global_sts = want;
	v->hw.valid |= PMCV_V_GSTS;
	return LIBVIRQ_OK;
}

/* Cache bits the guest's run invalidates: its counters, the status, a passed-through control. */
static uint32_t pmcv_guest_ran_(const struct virq_pmcvirt_vcpu *v)
{
	return (((1u << v->guest.ncounters) - 1u) << 6) | PMCV_V_GSTS |
	       (v->global_passthrough ? PMCV_V_GCTL : 0u);
}

/* Counters the guest's PMU overwrites in hardware. */
static uint32_t pmcv_clobbered_(const struct virq_pmcvirt_vcpu *v)
{
	if (v->mode == LIBVIRQ_PMCVIRT_MODE_HW)
		return v->host_nctr < LIBVIRQ_PMCVIRT_NR_SLOTS ? v->host_nctr
							       : LIBVIRQ_PMCVIRT_NR_SLOTS;
	return v->guest.ncounters;
}

/* ---- host PMU ---- */

virq_status virq_pmcvirt_host_set_used(struct virq_pmcvirt_vcpu *vcpu, uint32_t mask)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t n;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (vcpu->in_guest)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "vcpu in the guest (entered)");
	if (vcpu->host.saved)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "host PMU saved");
	n = vcpu->host_nctr < LIBVIRQ_PMCVIRT_NR_SLOTS ? vcpu->host_nctr : LIBVIRQ_PMCVIRT_NR_SLOTS;
	if (mask & ~pmcv_ctr_bits_(n))
		return LIBVIRQ_FAILV_(api, &vcpu->hal, LIBVIRQ_ERANGE,
				      "mask=%x names a counter >= the host's counters=%u", mask, n);
	vcpu->host_used = mask;
	return LIBVIRQ_OK;
}

/* Reads the used host counters among the h->n the guest can clobber. */
static virq_status pmcv_host_read_(struct virq_pmcvirt_vcpu *v)
{
	struct virq_pmcvirt_host *h = &v->host;
	virq_status st = LIBVIRQ_OK;
	uint32_t i;

	for (i = 0; i < h->n && st == LIBVIRQ_OK; i++) {
		if (!(v->host_used & (1u << i)))
			continue;
		st =
		    pmcv_rd_(v, pmcv_host_ctl_msr_(v, i), &v->hw.ctl[i], PMCV_V_CTL(i), &h->ctl[i]);
		if (st == LIBVIRQ_OK)
			st = pmcv_rd_(v, pmcv_host_ctr_msr_(v, i), &v->hw.ctr[i], PMCV_V_CTR(i),
				      &h->ctr[i]);
		if (st == LIBVIRQ_OK)
			h->used |= 1u << i;
	}
	if (st != LIBVIRQ_OK)
		h->n = i - 1u; /* counter i - 1 faulted: restore only the ones before it */
	if (st == LIBVIRQ_OK && v->host_v2 && v->mode == LIBVIRQ_PMCVIRT_MODE_SW) {
		st = pmcv_rd_(v, LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS, &v->hw.global_sts, PMCV_V_GSTS,
			      &h->global_sts);
		h->have_global_sts = st == LIBVIRQ_OK;
	}
	return st;
}

/* Without PerfMonV2 (SW mode only) the host counters are stopped one by one. */
static virq_status pmcv_host_stop_k7_(struct virq_pmcvirt_vcpu *v)
{
	uint64_t en = LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_EN);
	virq_status st = LIBVIRQ_OK;

	for (uint32_t i = 0; i < v->host.n && st == LIBVIRQ_OK; i++)
		if (v->host.used & (1u << i))
			st = pmcv_wr_ctl_(v, i, v->host.ctl[i] & ~en);
	return st;
}

static virq_status pmcv_host_restore_(const char *api, struct virq_pmcvirt_vcpu *vcpu);

virq_status virq_pmcvirt_host_save(struct virq_pmcvirt_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_pmcvirt_host *h;
	virq_status st = LIBVIRQ_OK;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (vcpu->in_guest)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "vcpu in the guest (entered)");
	if (vcpu->host.saved)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "host PMU already saved");
	h = &vcpu->host;
	memset(h, 0, sizeof(*h));
	h->n = pmcv_clobbered_(vcpu);
	if (vcpu->host_v2) {
		st = pmcv_rd_(vcpu, LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL, &vcpu->hw.global_ctl,
			      PMCV_V_GCTL, &h->global_ctl);
		h->have_global_ctl = st == LIBVIRQ_OK;
		if (st == LIBVIRQ_OK)
			st = pmcv_wr_gctl_msr_(vcpu, 0);
	}
	if (st == LIBVIRQ_OK)
		st = pmcv_host_read_(vcpu);
	else
		h->n = 0;
	if (st == LIBVIRQ_OK && !vcpu->host_v2)
		st = pmcv_host_stop_k7_(vcpu);
	h->saved = true;
	if (st != LIBVIRQ_OK) {
		/* The recovery reports nothing itself (NULL): the save's failure is the report. */
		if (pmcv_host_restore_(NULL, vcpu) != LIBVIRQ_OK)
			LIBVIRQ_LOG0(&vcpu->hal, LIBVIRQ_LOG_ERROR,
				     "pmcvirt: host PMU restore failed");
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EHW,
				     "a PMU MSR access faulted (the host PMU was restored)");
	}
	return LIBVIRQ_OK;
}

/* SW mode, a counter the host does not use: a guest event select that may
 * count (EN set, or unknown) is disabled; one already disabled is left. */
static virq_status pmcv_host_drop_(struct virq_pmcvirt_vcpu *v, uint32_t i)
{
	uint64_t en = LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_EN);

	if (!(v->hw.valid & PMCV_V_CTL(i)))
		return pmcv_wr_ctl_(v, i, 0);
	return (v->hw.ctl[i] & en) ? pmcv_wr_ctl_(v, i, v->hw.ctl[i] & ~en) : LIBVIRQ_OK;
}

/*
 * Writes the saved host counters back; a counter the host does not use
 * gets, in SW mode, its event select disabled (pmcv_host_drop_()), so no
 * guest select counts on; in HW mode it keeps its \#VMEXIT reset value.
 * Every write is attempted.
 */
static virq_status pmcv_host_write_(struct virq_pmcvirt_vcpu *v)
{
	const struct virq_pmcvirt_host *h = &v->host;
	virq_status st = LIBVIRQ_OK;

	for (uint32_t i = 0; i < h->n; i++) {
		if (h->used & (1u << i)) {
			if (pmcv_wr_ctr_(v, i, h->ctr[i]) != LIBVIRQ_OK)
				st = LIBVIRQ_EHW;
			if (pmcv_wr_ctl_(v, i, h->ctl[i]) != LIBVIRQ_OK)
				st = LIBVIRQ_EHW;
		} else if (v->mode == LIBVIRQ_PMCVIRT_MODE_SW &&
			   pmcv_host_drop_(v, i) != LIBVIRQ_OK) {
			st = LIBVIRQ_EHW;
		}
	}
	return st;
}

/* virq_pmcvirt_host_restore() of a live vCPU, reported under @p api (NULL: unreported). */
static virq_status pmcv_host_restore_(const char *api, struct virq_pmcvirt_vcpu *vcpu)
{
	struct virq_pmcvirt_host *h = &vcpu->host;
	virq_status st = LIBVIRQ_OK;

	if (vcpu->in_guest)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "vcpu in the guest (entered)");
	if (!h->saved)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "host PMU not saved");
	/* Lazy mode: the guest's PMU is still in the MSRs; save it first. A
	 * fault leaves the guest values unknown, the host restore goes on
	 * (reported below, once). */
	if (vcpu->live && virq_pmcvirt_sync_(NULL, vcpu) != LIBVIRQ_OK)
		st = LIBVIRQ_EHW;
	/*
	 * Restore only what host_save read (a save that faulted part-way leaves
	 * the rest of the host PMU as it was). Stop everything first so no
	 * counter runs with a half-restored setup.
	 */
	if (h->have_global_ctl && pmcv_wr_gctl_msr_(vcpu, 0) != LIBVIRQ_OK)
		st = LIBVIRQ_EHW;
	if (pmcv_host_write_(vcpu) != LIBVIRQ_OK)
		st = LIBVIRQ_EHW;
	if (h->have_global_sts && pmcv_wr_gsts_(vcpu, h->global_sts) != LIBVIRQ_OK)
		st = LIBVIRQ_EHW;
	if (h->have_global_ctl && pmcv_wr_gctl_msr_(vcpu, h->global_ctl) != LIBVIRQ_OK)
		st = LIBVIRQ_EHW;
	h->saved = false;
	return st != LIBVIRQ_OK ? LIBVIRQ_FAIL_(api, &vcpu->hal, st,
						"a PMU MSR access faulted (every write attempted)")
				: LIBVIRQ_OK;
}

virq_status virq_pmcvirt_host_restore(struct virq_pmcvirt_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	return pmcv_host_restore_(api, vcpu);
}

/* ---- world switch ---- */

static virq_status pmcv_sw_load_(struct virq_pmcvirt_vcpu *v)
{
	virq_status st = LIBVIRQ_OK;

	for (uint32_t i = 0; i < v->guest.ncounters && st == LIBVIRQ_OK; i++) {
		st = pmcv_wr_ctr_(v, i, v->st.perf_ctr[i]);
		if (st == LIBVIRQ_OK)
			st = pmcv_wr_ctl_(v, i, v->ctl_hw[i]);
	}
	if (st != LIBVIRQ_OK || !v->host_v2)
		return st;
	st = pmcv_wr_gsts_(v, v->st.global_sts);
	if (st == LIBVIRQ_OK) /* last: the guest's counters start together */
		st = pmcv_wr_gctl_msr_(v, pmcv_eff_gctl_(&v->guest, v->st.global_ctl));
	return st;
}

virq_status virq_pmcvirt_enter(struct virq_pmcvirt_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (!vcpu->host.saved)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "host PMU not saved");
	if (vcpu->in_guest)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "vcpu already entered");
	if (vcpu->mode == LIBVIRQ_PMCVIRT_MODE_HW)
		st = pmcv_wr_gctl_msr_(vcpu, 0); /* else VMEXIT_INVALID_PMC */
	else if (vcpu->live)
		st = LIBVIRQ_OK; /* lazy: the MSRs still hold exactly the guest's PMU */
	else
		st = pmcv_sw_load_(vcpu);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, st, "a PMU MSR write faulted");
	vcpu->in_guest = true;
	return LIBVIRQ_OK;
}

static virq_status pmcv_sw_save_(struct virq_pmcvirt_vcpu *v)
{
	virq_status st = LIBVIRQ_OK;
	uint64_t val = 0;

	/* The guest ran: its counters, status and (passed-through) control no
	 * longer hold what the cache says. Each is valid again only once read
	 * back, so a fault below cannot leave a stale entry that would let
	 * host_restore skip a needed write. */
	v->hw.valid &= ~pmcv_guest_ran_(v);
	if (v->host_v2) {
		if (v->global_passthrough)
			st = pmcv_rd_(v, LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL, &v->hw.global_ctl,
				      PMCV_V_GCTL, &v->st.global_ctl);
		if (st == LIBVIRQ_OK) /* stop the guest's counters */
			st = pmcv_wr_gctl_msr_(v, 0);
		if (st == LIBVIRQ_OK)
			st = pmcv_rd_(v, LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS, &v->hw.global_sts,
				      PMCV_V_GSTS, &val);
		if (st == LIBVIRQ_OK)
			v->st.global_sts = val & pmcv_ctr_bits_(v->guest.ncounters);
	}
	for (uint32_t i = 0; i < v->guest.ncounters && st == LIBVIRQ_OK; i++) {
		st = pmcv_rd_ctr_(v, i, &val);
		if (st == LIBVIRQ_OK)
			v->st.perf_ctr[i] = val & LIBVIRQ_PMCVIRT_CTR_MASK;
	}
	return st;
}

virq_status virq_pmcvirt_sync_(const char *api, struct virq_pmcvirt_vcpu *v)
{
	virq_status st;

	if (!v->live)
		return LIBVIRQ_OK;
	v->live = false;
	st = pmcv_sw_save_(v);
	return st != LIBVIRQ_OK
		   ? LIBVIRQ_FAIL_(api, &v->hal, st, "lazy save of the guest PMU faulted")
		   : LIBVIRQ_OK;
}

virq_status virq_pmcvirt_exit(struct virq_pmcvirt_vcpu *vcpu, uint64_t exitcode)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (!vcpu->in_guest)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "vcpu not entered");
	vcpu->in_guest = false;
	if (vcpu->mode == LIBVIRQ_PMCVIRT_MODE_SW && vcpu->lazy) {
		/*
		 * The guest ran: what its counters, status and passed-through
		 * control hold is known only to the MSRs now. They stay there;
		 * GuestOnly event selects (forced in this mode) do not count in
		 * host mode (APM Vol 2 rev 3.44 §13.2.1 PerfEvtSel HostOnly/GuestOnly;
		 * docs/rationale.md#pmc-lazy-switching).
		 */
		vcpu->hw.valid &= ~pmcv_guest_ran_(vcpu);
		vcpu->live = true;
		return LIBVIRQ_OK;
	}
	if (vcpu->mode == LIBVIRQ_PMCVIRT_MODE_SW) {
		st = pmcv_sw_save_(vcpu);
		return st != LIBVIRQ_OK
			   ? LIBVIRQ_FAIL_(api, &vcpu->hal, st, "a PMU MSR access faulted")
			   : LIBVIRQ_OK;
	}
	/* Swap type C: the host's PERF_CTL/CTR/GlobalCtl now hold reset values.
	 * UNCERTAIN which exactly (0x3F for GlobalCtl on six-counter parts), so
	 * forget them (docs/rationale.md#pmc-globalctl-before-vmrun). */
	vcpu->hw.valid &= PMCV_V_GSTS;
	if (exitcode == LIBVIRQ_VMCB_EXIT_INVALID_PMC) { /* all 64 bits compared */
		vcpu->invalid_pmc++;
		/* Counted; logged as the first of each power of two (a flood stays bounded). */
		if ((vcpu->invalid_pmc & (vcpu->invalid_pmc - 1u)) == 0)
			LIBVIRQ_LOGV(&vcpu->hal, LIBVIRQ_LOG_ERROR,
				     "pmcvirt: VMRUN failed, VMEXIT_INVALID_PMC (exit code, count)",
				     exitcode, vcpu->invalid_pmc);
		return LIBVIRQ_EHW;
	}
	return LIBVIRQ_OK;
}
