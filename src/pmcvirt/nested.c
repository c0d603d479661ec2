/* SPDX-License-Identifier: MIT */
/*
 * Nested SVM: the PMC part of an L1 VMRUN of L2 and of the nested #VMEXIT.
 *
 * UNCERTAIN (unverified; docs/rationale.md#pmc-nested): no published design for nested PMC
 * virtualization was available. This follows the nested LBR-virtualization
 * precedent (vmcb12's state when L1 enables the feature, else vmcb01's) and
 * emulates for L1 what the hardware does for a bare-metal hypervisor:
 * VMEXIT_INVALID_PMC when its PerfCntrGlobalCtl is not zero at VMRUN, and
 * swap type C (host PMU reset) at #VMEXIT.
 */
#include "pmcv_priv.h"

/* Copies the PMC slots from @src to @dst; PERF_CTL only when @ctl. */
static void pmcv_copy_slots_(void *dst, const void *src, bool ctl)
{
	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		if (ctl)
			pmcv_wr64_(dst, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i),
				   pmcv_rd64_(src, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i)));
		pmcv_wr64_(dst, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i),
			   pmcv_rd64_(src, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i)) &
			       LIBVIRQ_PMCVIRT_CTR_MASK);
	}
	pmcv_wr64_(dst, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR,
		   pmcv_rd64_(src, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR) &
		       LIBVIRQ_PMCVIRT_CTR_MASK);
	pmcv_wr64_(dst, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS,
		   pmcv_rd64_(src, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS) &
		       LIBVIRQ_GENMASK(5, 0));
	pmcv_wr_gctl_(dst, pmcv_rd_gctl_(src) & LIBVIRQ_GENMASK(5, 0));
}

/*
 * L2's PMU from vmcb12 (L1-controlled memory) into vmcb02, limited as L1's
 * own WRMSRs are: reserved event-select bits (HG unless allow_hg) cleared,
 * L0's filter applied, slots beyond L1's counter count zero, counters 48
 * bits, global status/control only for L1's counters. UNCERTAIN
 * (docs/rationale.md#pmc-nested): whether hardware would instead fail such a
 * VMRUN is not known.
 */
static void pmcv_l2_state_(const struct virq_pmcvirt_vcpu *v, void *vmcb02, const void *vmcb12)
{
	uint64_t bits = pmcv_ctr_bits_(v->guest.ncounters);
	uint64_t rsvd = pmcv_evtsel_rsvd_(&v->guest);

	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		bool have = i < v->guest.ncounters;
		uint64_t c = pmcv_rd64_(vmcb12, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i)) & ~rsvd;
		uint64_t r =
		    pmcv_rd64_(vmcb12, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i)) & LIBVIRQ_PMCVIRT_CTR_MASK;

		pmcv_wr64_(vmcb02, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i),
			   have ? virq_pmcvirt_ctl_hw_(v, c) : 0);
		pmcv_wr64_(vmcb02, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i), have ? r : 0);
	}
	pmcv_wr64_(vmcb02, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR,
		   pmcv_rd64_(vmcb12, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR) &
		       LIBVIRQ_PMCVIRT_CTR_MASK);
	pmcv_wr64_(vmcb02, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS,
		   pmcv_rd64_(vmcb12, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS) & bits);
	pmcv_wr_gctl_(vmcb02, pmcv_rd_gctl_(vmcb12) & bits);
}

/* The checks both nested calls share, reported under @p api. */
static virq_status pmcv_nested_check_(const char *api, const struct virq_pmcvirt_vcpu *v,
				      const void *vmcb12, const void *vmcb02)
{
	if (!pmcv_live_(v))
		return LIBVIRQ_PMCV_DEAD_(api, NULL, "vcpu", v);
	if (!vmcb12)
		return LIBVIRQ_FAIL_(api, &v->hal, LIBVIRQ_EINVAL, "vmcb12=NULL");
	if (!vmcb02)
		return LIBVIRQ_FAIL_(api, &v->hal, LIBVIRQ_EINVAL, "vmcb02=NULL");
	if (v->mode != LIBVIRQ_PMCVIRT_MODE_HW)
		return LIBVIRQ_FAILV_(api, &v->hal, LIBVIRQ_EINVAL,
				      "vcpu mode=%u is not LIBVIRQ_PMCVIRT_MODE_HW",
				      (uint64_t)v->mode);
	if (v->in_guest)
		return LIBVIRQ_FAIL_(api, &v->hal, LIBVIRQ_EBUSY, "vcpu in the guest (entered)");
	return LIBVIRQ_OK;
}

static bool pmcv_l2_pmc_(const void *vmcb12)
{
	return LIBVIRQ_FIELD_GET(LIBVIRQ_VMCB_VIRT_EXT_PMC_VIRT_ENABLE,
				 pmcv_rd64_(vmcb12, LIBVIRQ_VMCB_VIRT_EXT)) != 0;
}

virq_status virq_pmcvirt_nested_vmrun(struct virq_pmcvirt_vcpu *vcpu, bool l1_has_pmc_virt,
				      void *vmcb12, void *vmcb02, bool *fail)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = pmcv_nested_check_(api, vcpu, vmcb12, vmcb02);
	bool own;

	if (st != LIBVIRQ_OK)
		return st;
	if (!fail)
		return LIBVIRQ_FAIL_(api, &vcpu->hal, LIBVIRQ_EINVAL, "fail=NULL");
	*fail = false;
	own = pmcv_l2_pmc_(vmcb12);
	if (own && !l1_has_pmc_virt) {
		/* A feature bit L1 was not given acts as a reserved bit. */
		*fail = true;
		pmcv_wr64_(vmcb12, LIBVIRQ_VMCB_EXITCODE, LIBVIRQ_VMCB_EXIT_INVALID);
		return LIBVIRQ_OK;
	}
	if (own && pmcv_rd_gctl_(vcpu->vmcb) != 0) {
		/* L1's own PerfCntrGlobalCtl must be 0, as on hardware. */
		*fail = true;
		pmcv_wr64_(vmcb12, LIBVIRQ_VMCB_EXITCODE, LIBVIRQ_VMCB_EXIT_INVALID_PMC);
		return LIBVIRQ_OK;
	}
	if (own)
		pmcv_l2_state_(vcpu, vmcb02, vmcb12);
	else
		pmcv_copy_slots_(vmcb02, vcpu->vmcb, true);
	return virq_pmcvirt_vmcb_enable(vmcb02, true);
}

virq_status virq_pmcvirt_nested_vmexit(struct virq_pmcvirt_vcpu *vcpu, void *vmcb12,
				       const void *vmcb02)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = pmcv_nested_check_(api, vcpu, vmcb12, vmcb02);

	if (st != LIBVIRQ_OK)
		return st;
	if (!pmcv_l2_pmc_(vmcb12)) {
		/* L1's PMU ran L2: counters, status, control and IRPerf go back
		 * to vmcb01 as hardware left them. Event selects do not: L0
		 * intercepts them, so vmcb01/ctl_hw[] are authoritative (a filter
		 * or an emulated WRMSR applied while L2 ran is kept), and vmcb02's
		 * copy may predate them. */
		pmcv_copy_slots_(vcpu->vmcb, vmcb02, false);
		return LIBVIRQ_OK;
	}
	/* L2's counters/status/control back to L1. Event selects stay as L1
	 * wrote them (L0 intercepts them, so L2 cannot change them unseen, and
	 * vmcb02 may hold L0-filtered copies). */
	pmcv_copy_slots_(vmcb12, vmcb02, false);
	/* Swap type C for L1's host PMU: PERF_CTL/CTR reset, GlobalCtl to its
	 * reset value (all of L1's counters enabled); status/IRPerf (type A) kept. */
	for (uint32_t i = 0; i < vcpu->guest.ncounters; i++) {
		vcpu->st.perf_ctl[i] = 0;
		pmcv_wr64_(vcpu->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i), 0);
	}
	virq_pmcvirt_refilter_(vcpu);
	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) /* slots beyond ncounters too */
		pmcv_wr64_(vcpu->vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i), vcpu->ctl_hw[i]);
	vcpu->st.global_ctl = vcpu->guest.perfmon_v2 ? pmcv_ctr_bits_(vcpu->guest.ncounters) : 0;
	pmcv_wr_gctl_(vcpu->vmcb, pmcv_ctr_bits_(vcpu->guest.ncounters));
	return LIBVIRQ_OK;
}
