/* SPDX-License-Identifier: MIT */
/*
 * Per-vCPU guest PMU: init/reset, event filtering, intercepted MSR and
 * RDPMC emulation, emulated-instruction counting, migration.
 *
 * Where the current guest value lives while the guest is not running:
 * - HW mode: counters, status, global control and IRPerf in the VMCB
 *   (hardware saved them at #VMEXIT); event selects as the guest wrote
 *   them in st.perf_ctl, their filtered form in the VMCB and ctl_hw[].
 * - SW mode: everything in st (saved from the MSRs at exit); ctl_hw[] is
 *   what the next enter loads.
 */
#include "pmcv_priv.h"

static bool pmcv_hw_(const struct virq_pmcvirt_vcpu *v)
{
	return v->mode == LIBVIRQ_PMCVIRT_MODE_HW;
}

/* ---- current-value accessors (HW: VMCB, SW: software state) ---- */

static uint64_t pmcv_get_ctr_(const struct virq_pmcvirt_vcpu *v, uint32_t i)
{
	if (pmcv_hw_(v))
		return pmcv_rd64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i)) &
		       LIBVIRQ_PMCVIRT_CTR_MASK;
	return v->st.perf_ctr[i];
}

static void pmcv_set_ctr_(struct virq_pmcvirt_vcpu *v, uint32_t i, uint64_t val)
{
	if (pmcv_hw_(v))
		pmcv_wr64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i), val);
	else
		v->st.perf_ctr[i] = val;
}

static uint64_t pmcv_get_gsts_(const struct virq_pmcvirt_vcpu *v)
{
	if (pmcv_hw_(v))
		return pmcv_rd64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS) &
		       pmcv_ctr_bits_(v->guest.ncounters);
	return v->st.global_sts;
}

static void pmcv_set_gsts_(struct virq_pmcvirt_vcpu *v, uint64_t val)
{
	if (pmcv_hw_(v))
		pmcv_wr64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS, val);
	else
		v->st.global_sts = val;
}

/* The guest-visible global control (0 for guests without PerfMonV2). */
static uint64_t pmcv_get_gctl_(const struct virq_pmcvirt_vcpu *v)
{
	if (!v->guest.perfmon_v2)
		return 0;
	if (pmcv_hw_(v))
		return pmcv_rd_gctl_(v->vmcb) & pmcv_ctr_bits_(v->guest.ncounters);
	return v->st.global_ctl;
}

static void pmcv_set_gctl_(struct virq_pmcvirt_vcpu *v, uint64_t val)
{
	v->st.global_ctl = v->guest.perfmon_v2 ? val : 0;
	if (pmcv_hw_(v))
		pmcv_wr_gctl_(v->vmcb, pmcv_eff_gctl_(&v->guest, val));
}

static uint64_t pmcv_get_irperf_(const struct virq_pmcvirt_vcpu *v)
{
	if (pmcv_hw_(v))
		return pmcv_rd64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR) &
		       LIBVIRQ_PMCVIRT_CTR_MASK;
	return v->st.instr_retired;
}

static void pmcv_set_irperf_(struct virq_pmcvirt_vcpu *v, uint64_t val)
{
	if (pmcv_hw_(v))
		pmcv_wr64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR, val);
	else
		v->st.instr_retired = val;
}

/* ---- event selects ---- */

uint64_t virq_pmcvirt_ctl_hw_(const struct virq_pmcvirt_vcpu *v, uint64_t guest_ctl)
{
	uint64_t hw = guest_ctl;

	if (!virq_pmcvirt_filter_allows(v->filter, guest_ctl))
		hw &= ~LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_EN);
	if (!pmcv_hw_(v)) {
		/* SW mode: the MSR is live in the host between load and VMRUN;
		 * count only in the guest (docs/rationale.md#pmc-eventsel). UNCERTAIN for
		 * nested guests: L1's HostOnly counting of L2 is not kept. */
		hw &= ~LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_HostOnly);
		hw |= LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_GuestOnly);
	}
	return hw;
}

static void pmcv_set_ctl_(struct virq_pmcvirt_vcpu *v, uint32_t i, uint64_t guest_ctl)
{
	uint64_t hw = virq_pmcvirt_ctl_hw_(v, guest_ctl);

	v->st.perf_ctl[i] = guest_ctl;
	if (pmcv_hw_(v) && hw != v->ctl_hw[i])
		pmcv_wr64_(v->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i), hw);
	v->ctl_hw[i] = hw;
}

void virq_pmcvirt_refilter_(struct virq_pmcvirt_vcpu *v)
{
	for (uint32_t i = 0; i < v->guest.ncounters; i++)
		pmcv_set_ctl_(v, i, v->st.perf_ctl[i]);
}

/* ---- lifecycle ---- */

static virq_status pmcv_init_check_(const struct virq_pmcvirt_vcpu *vcpu,
				    const struct virq_hal *hal,
				    const struct virq_pmcvirt_caps *caps,
				    const struct virq_pmcvirt_guest *guest,
				    enum virq_pmcvirt_mode mode, uint32_t flags, const void *vmcb)
{
	virq_status st;

	if (!vcpu || !caps || !guest)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL,
				    "virq_pmcvirt_vcpu_init: vcpu, caps or guest is NULL");
	/* A live vCPU is refused: its state (host PMU saved, in the guest) would be lost. */
	if (pmcv_live_(vcpu))
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EBUSY,
				    "virq_pmcvirt_vcpu_init: vCPU already initialised");
	if (mode == LIBVIRQ_PMCVIRT_MODE_HW && (!vmcb || ((uintptr_t)vmcb & 7u)))
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL,
				    "virq_pmcvirt_vcpu_init: HW mode needs an 8-byte aligned VMCB");
	st = virq_hal_validate(hal, LIBVIRQ_HAL_NEED_MSR);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(hal, st, "virq_pmcvirt_vcpu_init: HAL lacks MSR callbacks");
	st = virq_pmcvirt_mode_check(caps, guest, mode, flags);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(
		    hal, st, "virq_pmcvirt_vcpu_init: mode, flags or guest refused (mode_check)");
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vcpu_init(struct virq_pmcvirt_vcpu *vcpu, const struct virq_hal *hal,
				   const struct virq_pmcvirt_caps *caps,
				   const struct virq_pmcvirt_guest *guest,
				   enum virq_pmcvirt_mode mode, uint32_t flags, void *vmcb)
{
	virq_status st = pmcv_init_check_(vcpu, hal, caps, guest, mode, flags, vmcb);

	if (st != LIBVIRQ_OK)
		return st;
	memset(vcpu, 0, sizeof(*vcpu));
	vcpu->hal = *hal;
	vcpu->guest = *guest;
	vcpu->mode = mode;
	vcpu->flags = flags;
	vcpu->lazy = (flags & LIBVIRQ_PMCVIRT_F_LAZY) != 0;
	vcpu->use_rdpmc = LIBVIRQ_HAL_HAS_(hal, rdpmc);
	vcpu->host_nctr = caps->num_core_ctrs;
	vcpu->host_used = (uint32_t)pmcv_ctr_bits_(caps->num_core_ctrs < LIBVIRQ_PMCVIRT_NR_SLOTS
						       ? caps->num_core_ctrs
						       : LIBVIRQ_PMCVIRT_NR_SLOTS);
	vcpu->host_ext_core = caps->perfctr_ext_core;
	vcpu->host_v2 = caps->perfmon_v2;
	vcpu->global_passthrough =
	    guest->perfmon_v2 && guest->ncounters == pmcv_host_ctrs_(caps) && caps->perfmon_v2;
	if (mode == LIBVIRQ_PMCVIRT_MODE_HW) {
		vcpu->vmcb = vmcb;
		pmcv_wr64_(vmcb, LIBVIRQ_VMCB_VIRT_EXT,
			   pmcv_rd64_(vmcb, LIBVIRQ_VMCB_VIRT_EXT) |
			       LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_VIRT_EXT_PMC_VIRT_ENABLE));
		if (!(flags & LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP) && caps->vnmi) {
			uint32_t ic = pmcv_rd32_(vmcb, LIBVIRQ_VMCB_INT_CTL);

			ic |= (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_V_NMI_ENABLE);
			pmcv_wr32_(vmcb, LIBVIRQ_VMCB_INT_CTL, ic);
		}
	} else if (vmcb) {
		/* A VMCB that ran in HW mode must not keep hardware switching on:
		 * #VMEXIT would reset the MSRs this mode caches (swap type C). */
		pmcv_wr64_(vmcb, LIBVIRQ_VMCB_VIRT_EXT,
			   pmcv_rd64_(vmcb, LIBVIRQ_VMCB_VIRT_EXT) &
			       ~LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_VIRT_EXT_PMC_VIRT_ENABLE));
	}
	vcpu->state = LIBVIRQ_PMCVIRT_ST_LIVE_;
	st = virq_pmcvirt_vcpu_reset(vcpu);
	/* PMU refresh (KVM's kvm_pmu_refresh; docs/rationale.md#pmc-reset-values):
	 * the global enables of the guest's counters are set, as hardware RESET
	 * leaves PerfCntrGlobalCtl (0x3F for six), so v1-style software that
	 * only programs PERF_CTL counts. */
	if (st == LIBVIRQ_OK && guest->perfmon_v2)
		pmcv_set_gctl_(vcpu, pmcv_ctr_bits_(guest->ncounters));
	return st;
}

virq_status virq_pmcvirt_vcpu_destroy(struct virq_pmcvirt_vcpu *vcpu)
{
	if (!vcpu)
		return LIBVIRQ_OK;
	if (!pmcv_live_(vcpu))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL,
				    "virq_pmcvirt_vcpu_destroy: vCPU not initialised");
	if (vcpu->in_guest)
		return LIBVIRQ_FAIL(&vcpu->hal, LIBVIRQ_EBUSY,
				    "virq_pmcvirt_vcpu_destroy: vCPU in the guest");
	if (vcpu->host.saved)
		return LIBVIRQ_FAIL(&vcpu->hal, LIBVIRQ_EBUSY,
				    "virq_pmcvirt_vcpu_destroy: host PMU saved, restore it first");
	vcpu->state = LIBVIRQ_PMCVIRT_ST_DEAD_;
	vcpu->vmcb = NULL;
	vcpu->filter = NULL;
	return LIBVIRQ_OK;
}

/*
 * Entry check of the functions that read or write guest PMU state: the vCPU
 * is live and not in the guest, @out is not NULL; in lazy mode the guest PMU
 * still in the MSRs is saved first, so the software state is current.
 * @fn is the public function's name (a string literal).
 */
#define PMCV_ACCESS_(v, out, fn)                                                                   \
	pmcv_access_check_((v), (out), fn ": vCPU not initialised", fn ": NULL argument",          \
			   fn ": vCPU in the guest", fn ": lazy save of the guest PMU faulted")

static virq_status pmcv_access_check_(struct virq_pmcvirt_vcpu *v, const void *out,
				      const char *not_live, const char *null_arg,
				      const char *in_guest, const char *sync)
{
	if (!pmcv_live_(v))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, not_live);
	if (!out)
		return LIBVIRQ_FAIL(&v->hal, LIBVIRQ_EINVAL, null_arg);
	if (v->in_guest)
		return LIBVIRQ_FAIL(&v->hal, LIBVIRQ_EBUSY, in_guest);
	if (v->live && virq_pmcvirt_sync_(NULL, v) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(&v->hal, LIBVIRQ_EHW, sync);
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vcpu_reset(struct virq_pmcvirt_vcpu *vcpu)
{
	struct virq_pmcvirt_state zero;
	virq_status st = PMCV_ACCESS_(vcpu, vcpu, "virq_pmcvirt_vcpu_reset");

	if (st != LIBVIRQ_OK)
		return st;
	memset(&zero, 0, sizeof(zero));
	vcpu->st = zero;
	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++)
		vcpu->ctl_hw[i] = virq_pmcvirt_ctl_hw_(vcpu, 0);
	if (pmcv_hw_(vcpu)) {
		/* All six slots, status, IRPerf 0; GLOBAL_CTL effective value. */
		/* Cannot fail: a zero state of a checked guest. */
		IGNORE_STATUS_(virq_pmcvirt_vmcb_store_state(vcpu->vmcb, &vcpu->guest, &zero));
	}
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_set_filter(struct virq_pmcvirt_vcpu *vcpu,
				    const struct virq_pmcvirt_filter *filter)
{
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL,
				    "virq_pmcvirt_set_filter: vCPU not initialised");
	if (filter) {
		st = virq_pmcvirt_filter_check(filter);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAIL(&vcpu->hal, st,
					    "virq_pmcvirt_set_filter: filter refused");
	}
	st = PMCV_ACCESS_(vcpu, vcpu, "virq_pmcvirt_set_filter");
	if (st != LIBVIRQ_OK)
		return st;
	vcpu->filter = filter;
	virq_pmcvirt_refilter_(vcpu);
	return LIBVIRQ_OK;
}

/* ---- intercepted MSRs ---- */

virq_status virq_pmcvirt_msr_read(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
				  enum virq_pmcvirt_origin origin, uint64_t *value)
{
	struct virq_pmcvirt_slot s;
	virq_status st = PMCV_ACCESS_(vcpu, value, "virq_pmcvirt_msr_read");

	if (st != LIBVIRQ_OK)
		return st;
	st = virq_pmcvirt_msr_map(&vcpu->guest, msr, origin, &s);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&vcpu->hal, st,
				     "virq_pmcvirt_msr_read: MSR not in the guest's PMU", msr);
	switch (s.kind) {
	case LIBVIRQ_PMCVIRT_KIND_CTL:
		*value = vcpu->st.perf_ctl[s.idx];
		break;
	case LIBVIRQ_PMCVIRT_KIND_CTR:
		*value = pmcv_get_ctr_(vcpu, s.idx);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL:
		*value = pmcv_get_gctl_(vcpu);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS:
		*value = pmcv_get_gsts_(vcpu);
		break;
	case LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED:
		*value = pmcv_get_irperf_(vcpu);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR:
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET:
	default:
		*value = 0;
		break; /* STATUS_CLR/SET read as zero */
	}
	return LIBVIRQ_OK;
}

/* Validates a write; returns the value to store in *val. */
static virq_status pmcv_write_value_(const struct virq_pmcvirt_vcpu *v,
				     const struct virq_pmcvirt_slot *s,
				     enum virq_pmcvirt_origin origin, uint64_t *val)
{
	bool host = origin == LIBVIRQ_PMCVIRT_HOST;
	uint64_t bits = pmcv_ctr_bits_(v->guest.ncounters);
	uint64_t rsvd;

	switch (s->kind) {
	case LIBVIRQ_PMCVIRT_KIND_CTL:
		rsvd = pmcv_evtsel_rsvd_(&v->guest);
		if ((*val & rsvd) && !host)
			return LIBVIRQ_EINVAL;
		*val &= ~rsvd;
		return LIBVIRQ_OK;
	case LIBVIRQ_PMCVIRT_KIND_CTR:
	case LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED:
		*val &= LIBVIRQ_PMCVIRT_CTR_MASK; /* upper bits are sign-extension on AMD */
		return LIBVIRQ_OK;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS:
		if (!host)
			return LIBVIRQ_EINVAL; /* PerfCntrGlobalStatus is read-only */
		return (*val & ~bits) ? LIBVIRQ_EINVAL : LIBVIRQ_OK;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL:
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR:
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET:
	default:
		return (*val & ~bits) ? LIBVIRQ_EINVAL : LIBVIRQ_OK;
	}
}

virq_status virq_pmcvirt_msr_write(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
				   enum virq_pmcvirt_origin origin, uint64_t value)
{
	struct virq_pmcvirt_slot s;
	virq_status st = PMCV_ACCESS_(vcpu, vcpu, "virq_pmcvirt_msr_write");

	if (st != LIBVIRQ_OK)
		return st;
	st = virq_pmcvirt_msr_map(&vcpu->guest, msr, origin, &s);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&vcpu->hal, st,
				     "virq_pmcvirt_msr_write: MSR not in the guest's PMU", msr);
	st = pmcv_write_value_(vcpu, &s, origin, &value);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&vcpu->hal, st,
				     "virq_pmcvirt_msr_write: reserved bits, or a read-only MSR",
				     msr, value);
	switch (s.kind) {
	case LIBVIRQ_PMCVIRT_KIND_CTL:
		pmcv_set_ctl_(vcpu, s.idx, value);
		break;
	case LIBVIRQ_PMCVIRT_KIND_CTR:
		pmcv_set_ctr_(vcpu, s.idx, value);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL:
		pmcv_set_gctl_(vcpu, value);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS:
		pmcv_set_gsts_(vcpu, value);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR:
		pmcv_set_gsts_(vcpu, pmcv_get_gsts_(vcpu) & ~value);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET:
		pmcv_set_gsts_(vcpu, pmcv_get_gsts_(vcpu) | value);
		break;
	case LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED:
		pmcv_set_irperf_(vcpu, value);
		break;
	default: /* every kind is listed above */
		break;
	}
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_rdpmc(struct virq_pmcvirt_vcpu *vcpu, uint32_t ecx, uint64_t *value)
{
	virq_status st = PMCV_ACCESS_(vcpu, value, "virq_pmcvirt_rdpmc");

	if (st != LIBVIRQ_OK)
		return st;
	if (ecx >= vcpu->guest.ncounters)
		return LIBVIRQ_FAILV(&vcpu->hal, LIBVIRQ_EINVAL,
				     "virq_pmcvirt_rdpmc: counter beyond the guest's count", ecx);
	*value = pmcv_get_ctr_(vcpu, ecx);
	return LIBVIRQ_OK;
}

/* ---- emulated-instruction counting ---- */

static bool pmcv_counts_(const struct virq_pmcvirt_vcpu *v, uint32_t i, uint16_t event,
			 uint8_t umask, bool cpl0, uint64_t gctl)
{
	uint64_t c = v->ctl_hw[i];
	uint64_t ev = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_EventSelectLo, c) |
		      (LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_EventSelectHi, c) << 8);
	uint64_t um = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_UnitMask, c);

	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_EN, c) || !(gctl & (1ull << i)))
		return false;
	if (ev != event || (um != 0 && (um & umask) == 0))
		return false;
	return cpl0 ? LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_OS, c) != 0
		    : LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_USR, c) != 0;
}

virq_status virq_pmcvirt_emulated_event(struct virq_pmcvirt_vcpu *vcpu, uint16_t event,
					uint8_t umask, bool cpl0, uint32_t *pmi_mask)
{
	virq_status st = PMCV_ACCESS_(vcpu, vcpu, "virq_pmcvirt_emulated_event");
	uint64_t gctl, sts;
	uint32_t pmi = 0;

	if (st != LIBVIRQ_OK)
		return st;
	if (event > 0xFFFu)
		return LIBVIRQ_FAILV(&vcpu->hal, LIBVIRQ_ERANGE,
				     "virq_pmcvirt_emulated_event: event above 0xFFF", event);
	gctl = pmcv_eff_gctl_(&vcpu->guest, pmcv_get_gctl_(vcpu));
	sts = pmcv_get_gsts_(vcpu);
	for (uint32_t i = 0; i < vcpu->guest.ncounters; i++) {
		uint64_t c;

		if (!pmcv_counts_(vcpu, i, event, umask, cpl0, gctl))
			continue;
		c = (pmcv_get_ctr_(vcpu, i) + 1u) & LIBVIRQ_PMCVIRT_CTR_MASK;
		pmcv_set_ctr_(vcpu, i, c);
		if (c == 0) {
			sts |= 1ull << i;
			if (LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_INT, vcpu->ctl_hw[i]))
				pmi |= 1u << i;
		}
	}
	pmcv_set_gsts_(vcpu, sts);
	if (pmi_mask)
		*pmi_mask = pmi;
	return LIBVIRQ_OK;
}

/* ---- migration, whole state ---- */

virq_status virq_pmcvirt_save_state(struct virq_pmcvirt_vcpu *vcpu,
				    struct virq_pmcvirt_state *state)
{
	virq_status st = PMCV_ACCESS_(vcpu, state, "virq_pmcvirt_save_state");

	if (st != LIBVIRQ_OK)
		return st;
	memset(state, 0, sizeof(*state));
	for (uint32_t i = 0; i < vcpu->guest.ncounters; i++) {
		state->perf_ctl[i] = vcpu->st.perf_ctl[i];
		state->perf_ctr[i] = pmcv_get_ctr_(vcpu, i);
	}
	state->global_ctl = pmcv_get_gctl_(vcpu);
	/* Legacy guests have no status MSR; hardware bits there are not state. */
	state->global_sts = vcpu->guest.perfmon_v2 ? pmcv_get_gsts_(vcpu) : 0;
	state->instr_retired = pmcv_get_irperf_(vcpu);
	return LIBVIRQ_OK;
}

static virq_status pmcv_restore_check_(const struct virq_pmcvirt_vcpu *v,
				       const struct virq_pmcvirt_state *s)
{
	uint64_t bits = pmcv_ctr_bits_(v->guest.ncounters);
	uint64_t rsvd = pmcv_evtsel_rsvd_(&v->guest);

	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		bool have = i < v->guest.ncounters;

		if ((s->perf_ctl[i] & rsvd) || (!have && s->perf_ctl[i]))
			return LIBVIRQ_EINVAL;
		if (s->perf_ctr[i] & ~LIBVIRQ_PMCVIRT_CTR_MASK)
			return LIBVIRQ_ERANGE;
		if (!have && s->perf_ctr[i])
			return LIBVIRQ_EINVAL;
	}
	if (s->instr_retired & ~LIBVIRQ_PMCVIRT_CTR_MASK)
		return LIBVIRQ_ERANGE;
	if ((s->global_sts & ~bits) || (s->global_ctl & ~bits))
		return LIBVIRQ_EINVAL;
	if (!v->guest.perfmon_v2 && (s->global_ctl || s->global_sts))
		return LIBVIRQ_EINVAL;
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_restore_state(struct virq_pmcvirt_vcpu *vcpu,
				       const struct virq_pmcvirt_state *state)
{
	virq_status st = PMCV_ACCESS_(vcpu, state, "virq_pmcvirt_restore_state");

	if (st != LIBVIRQ_OK)
		return st;
	st = pmcv_restore_check_(vcpu, state);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(
		    &vcpu->hal, st,
		    "virq_pmcvirt_restore_state: reserved bits or values out of range");
	for (uint32_t i = 0; i < vcpu->guest.ncounters; i++) {
		pmcv_set_ctl_(vcpu, i, state->perf_ctl[i]);
		pmcv_set_ctr_(vcpu, i, state->perf_ctr[i]);
	}
	pmcv_set_gsts_(vcpu, state->global_sts);
	pmcv_set_gctl_(vcpu, state->global_ctl);
	pmcv_set_irperf_(vcpu, state->instr_retired);
	return LIBVIRQ_OK;
}
