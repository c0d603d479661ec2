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

/* virq_pmcvirt_vcpu_init()'s checks, one report each under @p api; the HAL
 * first, as every other report goes through it. */
static virq_status pmcv_init_check_(const char *api, const struct virq_pmcvirt_vcpu *vcpu,
				    const struct virq_hal *hal,
				    const struct virq_pmcvirt_caps *caps,
				    const struct virq_pmcvirt_guest *guest,
				    enum virq_pmcvirt_mode mode, uint32_t flags, const void *vmcb)
{
	virq_status st = virq_hal_check_(api, hal, LIBVIRQ_HAL_NEED_MSR);

	if (st != LIBVIRQ_OK)
		return st;
	if (!vcpu)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vcpu=NULL");
	if (!guest)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "guest=NULL");
	/* A live vCPU is refused: its state (host PMU saved, in the guest) would be lost. */
	if (pmcv_live_(vcpu))
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY, "vcpu already initialised");
	if (mode == LIBVIRQ_PMCVIRT_MODE_HW && !vmcb)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vmcb=NULL with mode=HW");
	if (mode == LIBVIRQ_PMCVIRT_MODE_HW && ((uintptr_t)vmcb & 7u))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "vmcb=%x not 8-byte aligned with mode=HW", (uintptr_t)vmcb);
	/* caps=NULL is the mode check's first check. */
	return virq_pmcv_mode_check_(api, hal, caps, guest, mode, flags);
}

static void pmcv_reset_(struct virq_pmcvirt_vcpu *vcpu);

virq_status virq_pmcvirt_vcpu_init(struct virq_pmcvirt_vcpu *vcpu, const struct virq_hal *hal,
				   const struct virq_pmcvirt_caps *caps,
				   const struct virq_pmcvirt_guest *guest,
				   enum virq_pmcvirt_mode mode, uint32_t flags, void *vmcb)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = pmcv_init_check_(api, vcpu, hal, caps, guest, mode, flags, vmcb);

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
	pmcv_reset_(vcpu);
	/* PMU refresh (KVM's kvm_pmu_refresh; docs/rationale.md#pmc-reset-values):
	 * the global enables of the guest's counters are set, as hardware RESET
	 * leaves PerfCntrGlobalCtl (0x3F for six), so v1-style software that
	 * only programs PERF_CTL counts. */
	if (guest->perfmon_v2)
		pmcv_set_gctl_(vcpu, pmcv_ctr_bits_(guest->ncounters));
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vcpu_destroy(struct virq_pmcvirt_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu)
		return LIBVIRQ_OK;
	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (vcpu->in_guest)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY, "vcpu in the guest (entered)");
	if (vcpu->host.saved)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EBUSY,
				     "host PMU saved (virq_pmcvirt_host_restore() first)");
	vcpu->state = LIBVIRQ_PMCVIRT_ST_DEAD_;
	vcpu->vmcb = NULL;
	vcpu->filter = NULL;
	return LIBVIRQ_OK;
}

/*
 * Entry check of the functions that read or write guest PMU state, after
 * their own checks of the vCPU (live) and its pointers: not in the guest;
 * in lazy mode the guest PMU still in the MSRs is saved first, so the
 * software state is current. Reported under @p api.
 */
static virq_status pmcv_access_(const char *api, struct virq_pmcvirt_vcpu *v)
{
	if (v->in_guest)
		return LIBVIRQ_FAIL_(api, &v->hal, LIBVIRQ_EBUSY, "vcpu in the guest (entered)");
	if (v->live)
		return virq_pmcvirt_sync_(api, v);
	return LIBVIRQ_OK;
}

/* The reset of a live vCPU whose software state is current. */
static void pmcv_reset_(struct virq_pmcvirt_vcpu *vcpu)
{
	struct virq_pmcvirt_state zero;

	memset(&zero, 0, sizeof(zero));
	vcpu->st = zero;
	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++)
		vcpu->ctl_hw[i] = virq_pmcvirt_ctl_hw_(vcpu, 0);
	if (pmcv_hw_(vcpu)) {
		/* All six slots, status, IRPerf 0; GLOBAL_CTL effective value. */
		/* Cannot fail: a zero state of a checked guest. */
		IGNORE_STATUS_(virq_pmcvirt_vmcb_store_state(vcpu->vmcb, &vcpu->guest, &zero));
	}
}

virq_status virq_pmcvirt_vcpu_reset(struct virq_pmcvirt_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	st = pmcv_access_(api, vcpu);
	if (st != LIBVIRQ_OK)
		return st;
	pmcv_reset_(vcpu);
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_set_filter(struct virq_pmcvirt_vcpu *vcpu,
				    const struct virq_pmcvirt_filter *filter)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (filter) {
		st = virq_pmcvirt_filter_check(filter);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAIL_(api, &vcpu->hal, st,
					     "filter refused (as virq_pmcvirt_filter_check())");
	}
	st = pmcv_access_(api, vcpu);
	if (st != LIBVIRQ_OK)
		return st;
	vcpu->filter = filter;
	virq_pmcvirt_refilter_(vcpu);
	return LIBVIRQ_OK;
}

/* ---- intercepted MSRs ---- */

/* The entry checks of msr_read/msr_write and the MSR's slot, under @p api. */
static virq_status pmcv_msr_slot_(const char *api, struct virq_pmcvirt_vcpu *v, uint32_t msr,
				  enum virq_pmcvirt_origin origin, struct virq_pmcvirt_slot *s)
{
	virq_status st;

	if (origin != LIBVIRQ_PMCVIRT_GUEST && origin != LIBVIRQ_PMCVIRT_HOST)
		return LIBVIRQ_FAILV_(api, &v->hal, LIBVIRQ_EINVAL, "origin=%u unknown",
				      (uint64_t)origin);
	st = pmcv_access_(api, v);
	if (st != LIBVIRQ_OK)
		return st;
	st = virq_pmcvirt_msr_map(&v->guest, msr, origin, s);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &v->hal, st,
				      "msr=%x not in the guest's PMU (as virq_pmcvirt_msr_map())",
				      msr);
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_msr_read(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
				  enum virq_pmcvirt_origin origin, uint64_t *value)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_pmcvirt_slot s;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (!value)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "value=NULL");
	st = pmcv_msr_slot_(api, vcpu, msr, origin, &s);
	if (st != LIBVIRQ_OK)
		return st;
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

/* Validates a write of @p msr (one report under @p api per check); returns
 * the value to store in *val. */
static virq_status pmcv_write_value_(const char *api, const struct virq_pmcvirt_vcpu *v,
				     uint32_t msr, const struct virq_pmcvirt_slot *s,
				     enum virq_pmcvirt_origin origin, uint64_t *val)
{
	bool host = origin == LIBVIRQ_PMCVIRT_HOST;
	uint64_t bits = pmcv_ctr_bits_(v->guest.ncounters);
	uint64_t rsvd;

	switch (s->kind) {
	case LIBVIRQ_PMCVIRT_KIND_CTL:
		rsvd = pmcv_evtsel_rsvd_(&v->guest);
		if ((*val & rsvd) && !host)
			return LIBVIRQ_FAILV_(api, &v->hal, LIBVIRQ_EINVAL,
					      "guest write msr=%x value=%x has reserved bits %x",
					      msr, *val, *val & rsvd);
		*val &= ~rsvd;
		return LIBVIRQ_OK;
	case LIBVIRQ_PMCVIRT_KIND_CTR:
	case LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED:
		*val &= LIBVIRQ_PMCVIRT_CTR_MASK; /* upper bits are sign-extension on AMD */
		return LIBVIRQ_OK;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS:
		if (!host)
			return LIBVIRQ_FAILV_(
			    api, &v->hal, LIBVIRQ_EINVAL,
			    "guest write msr=%x: PerfCntrGlobalStatus is read-only", msr);
		break;
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL:
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR:
	case LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET:
	default:
		break;
	}
	if (*val & ~bits)
		return LIBVIRQ_FAILV_(api, &v->hal, LIBVIRQ_EINVAL,
				      "msr=%x value=%x has bits >= the guest's ncounters=%u", msr,
				      *val, v->guest.ncounters);
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_msr_write(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
				   enum virq_pmcvirt_origin origin, uint64_t value)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_pmcvirt_slot s;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	st = pmcv_msr_slot_(api, vcpu, msr, origin, &s);
	if (st != LIBVIRQ_OK)
		return st;
	st = pmcv_write_value_(api, vcpu, msr, &s, origin, &value);
	if (st != LIBVIRQ_OK)
		return st;
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
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (!value)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "value=NULL");
	st = pmcv_access_(api, vcpu);
	if (st != LIBVIRQ_OK)
		return st;
	if (ecx >= vcpu->guest.ncounters)
		return LIBVIRQ_FAILV_(api, &vcpu->hal, LIBVIRQ_EINVAL,
				      "ecx=%u >= the guest's ncounters=%u", ecx,
				      vcpu->guest.ncounters);
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
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;
	uint64_t gctl, sts;
	uint32_t pmi = 0;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (event > 0xFFFu)
		return LIBVIRQ_FAILV_(api, &vcpu->hal, LIBVIRQ_ERANGE, "event=%x > 0xfff", event);
	st = pmcv_access_(api, vcpu);
	if (st != LIBVIRQ_OK)
		return st;
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
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (!state)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "state=NULL");
	st = pmcv_access_(api, vcpu);
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

/* One slot of a state to restore, under @p api. */
static virq_status pmcv_restore_slot_(const char *api, const struct virq_pmcvirt_vcpu *v,
				      const struct virq_pmcvirt_state *s, uint32_t i)
{
	const struct virq_hal *hal = &v->hal;
	uint64_t rsvd = pmcv_evtsel_rsvd_(&v->guest);
	uint32_t n = v->guest.ncounters;

	if (s->perf_ctl[i] & rsvd)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "perf_ctl[%u]=%x has reserved bits %x", i, s->perf_ctl[i],
				      s->perf_ctl[i] & rsvd);
	if (i >= n && s->perf_ctl[i])
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "perf_ctl[%u]=%x nonzero: index >= the guest's ncounters=%u",
				      i, s->perf_ctl[i], n);
	if (s->perf_ctr[i] & ~LIBVIRQ_PMCVIRT_CTR_MASK)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "perf_ctr[%u]=%x > 48 bits", i,
				      s->perf_ctr[i]);
	if (i >= n && s->perf_ctr[i])
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "perf_ctr[%u]=%x nonzero: index >= the guest's ncounters=%u",
				      i, s->perf_ctr[i], n);
	return LIBVIRQ_OK;
}

/* A state to restore, checked whole (one report under @p api). */
static virq_status pmcv_restore_check_(const char *api, const struct virq_pmcvirt_vcpu *v,
				       const struct virq_pmcvirt_state *s)
{
	const struct virq_hal *hal = &v->hal;
	uint64_t bits = pmcv_ctr_bits_(v->guest.ncounters);
	virq_status st;

	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		st = pmcv_restore_slot_(api, v, s, i);
		if (st != LIBVIRQ_OK)
			return st;
	}
	if (s->instr_retired & ~LIBVIRQ_PMCVIRT_CTR_MASK)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "instr_retired=%x > 48 bits",
				      s->instr_retired);
	if (!v->guest.perfmon_v2 && s->global_ctl)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "global_ctl=%x nonzero with guest perfmon_v2=0",
				      s->global_ctl);
	if (!v->guest.perfmon_v2 && s->global_sts)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "global_sts=%x nonzero with guest perfmon_v2=0",
				      s->global_sts);
	if (s->global_sts & ~bits)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "global_sts=%x has bits >= the guest's ncounters=%u",
				      s->global_sts, v->guest.ncounters);
	if (s->global_ctl & ~bits)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "global_ctl=%x has bits >= the guest's ncounters=%u",
				      s->global_ctl, v->guest.ncounters);
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_restore_state(struct virq_pmcvirt_vcpu *vcpu,
				       const struct virq_pmcvirt_state *state)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!pmcv_live_(vcpu))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", vcpu);
	if (!state)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "state=NULL");
	st = pmcv_access_(api, vcpu);
	if (st != LIBVIRQ_OK)
		return st;
	st = pmcv_restore_check_(api, vcpu, state);
	if (st != LIBVIRQ_OK)
		return st;
	for (uint32_t i = 0; i < vcpu->guest.ncounters; i++) {
		pmcv_set_ctl_(vcpu, i, state->perf_ctl[i]);
		pmcv_set_ctr_(vcpu, i, state->perf_ctr[i]);
	}
	pmcv_set_gsts_(vcpu, state->global_sts);
	pmcv_set_gctl_(vcpu, state->global_ctl);
	pmcv_set_irperf_(vcpu, state->instr_retired);
	return LIBVIRQ_OK;
}
