/* SPDX-License-Identifier: MIT */
/*
 * Capabilities through the HAL's CPUID (APM Vol 3 rev 3.37 CPUID Fn8000_000A,
 * Fn8000_0022; docs/rationale.md#pmc-counter-count) and the mode
 * prerequisites (PerfCtrVirt, PerfMonV2, VNMI: docs/rationale.md#pmc-vnmi-required;
 * SEV-ES/SNP refused: docs/rationale.md#pmc-sev-refused).
 */
#include "pmcv_priv.h"

/* CPUID register of leaf @leaf (0 when above the extended max leaf). */
static uint32_t pmcv_cpuid_reg_(const struct virq_hal *hal, uint32_t max, uint32_t leaf,
				unsigned reg)
{
	uint32_t r[4] = {0, 0, 0, 0};

	if (leaf > max)
		return 0;
	virq_cpuid_(hal, leaf, 0, r);
	return r[reg];
}

enum { PMCV_EAX_ = 0, PMCV_EBX_ = 1, PMCV_ECX_ = 2, PMCV_EDX_ = 3 };

virq_status virq_pmcvirt_probe(const struct virq_hal *hal, struct virq_pmcvirt_caps *caps)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t max, ecx1, edxa;
	virq_status st;

	if (!caps)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "caps=NULL");
	memset(caps, 0, sizeof(*caps));
	st = virq_hal_check_(api, hal, LIBVIRQ_HAL_NEED_CPUID);
	if (st != LIBVIRQ_OK)
		return st;
	max = pmcv_cpuid_reg_(hal, UINT32_MAX, LIBVIRQ_PMCVIRT_CPUID_EXT_MAX, PMCV_EAX_);
	ecx1 = pmcv_cpuid_reg_(hal, max, LIBVIRQ_PMCVIRT_CPUID_EXT_FEAT, PMCV_ECX_);
	caps->svm = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_CPUID_ECX_SVM, ecx1) != 0;
	caps->perfctr_ext_core =
	    LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_CPUID_ECX_PerfCtrExtCore, ecx1) != 0;
	caps->irperf = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_CPUID_EBX_IRPerf,
					 pmcv_cpuid_reg_(hal, max, LIBVIRQ_PMCVIRT_CPUID_EXT_SIZE,
							 PMCV_EBX_)) != 0;
	edxa = caps->svm ? pmcv_cpuid_reg_(hal, max, LIBVIRQ_PMCVIRT_CPUID_SVM, PMCV_EDX_) : 0;
	caps->perfctr_virt = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_CPUID_EDX_PerfCtrVirt, edxa) != 0;
	caps->avic = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_CPUID_EDX_AVIC, edxa) != 0;
	caps->vnmi = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_CPUID_EDX_VNMI, edxa) != 0;
	caps->perfmon_v2 =
	    LIBVIRQ_FIELD_GET(
		LIBVIRQ_PMCVIRT_CPUID_EAX_PerfMonV2,
		pmcv_cpuid_reg_(hal, max, LIBVIRQ_PMCVIRT_CPUID_PERFMON, PMCV_EAX_)) != 0;
	if (caps->perfmon_v2) {
		uint32_t lim;
		uint32_t raw = (uint32_t)LIBVIRQ_FIELD_GET(
		    LIBVIRQ_PMCVIRT_CPUID_EBX_NumPerfCtrCore,
		    pmcv_cpuid_reg_(hal, max, LIBVIRQ_PMCVIRT_CPUID_PERFMON, PMCV_EBX_));
		caps->num_core_ctrs_raw = raw;
		if (raw == 0) {
			memset(caps, 0, sizeof(*caps));
			return LIBVIRQ_FAIL_(
			    api, hal, LIBVIRQ_EHW,
			    "CPUID Fn8000_0022 EBX NumPerfCtrCore=0 with PerfMonV2=1");
		}
		/* The VMCB has six slots; more host counters stay host-only.
		 * Without PerfCtrExtCore only the K7 MSRs exist, and they address
		 * four counters (a fifth "EVNTSEL4" would be PERFCTR0). */
		lim = caps->perfctr_ext_core ? LIBVIRQ_PMCVIRT_NR_SLOTS : 4u;

		caps->num_core_ctrs = raw > lim ? lim : raw;
	} else {
		caps->num_core_ctrs = caps->perfctr_ext_core ? 6u : 4u;
	}
	return LIBVIRQ_OK;
}

/* The mode's checks, reported under @p api through @p hal (both may be NULL:
 * nothing reported). */
static virq_status pmcv_mode_args_(const char *api, const struct virq_hal *hal,
				   const struct virq_pmcvirt_caps *caps,
				   const struct virq_pmcvirt_guest *guest,
				   enum virq_pmcvirt_mode mode, uint32_t flags)
{
	const uint32_t known = LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY | LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP |
			       LIBVIRQ_PMCVIRT_F_LAZY;

	if (!caps)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "caps=NULL");
	if (flags & ~known)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "flags=%x has unknown bits %x",
				      flags, flags & ~known);
	if (mode != LIBVIRQ_PMCVIRT_MODE_HW && mode != LIBVIRQ_PMCVIRT_MODE_SW)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "mode=%u unknown", (uint64_t)mode);
	if ((flags & LIBVIRQ_PMCVIRT_F_LAZY) && mode != LIBVIRQ_PMCVIRT_MODE_SW)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL,
				     "flags has F_LAZY, which needs mode=LIBVIRQ_PMCVIRT_MODE_SW");
	if (virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL,
				     "guest inconsistent (as virq_pmcvirt_guest_check())");
	return LIBVIRQ_OK;
}

/*
 * HW mode's host and guest prerequisites, one check each. Virtualized
 * counters raise no host PMI: the guest's arrives by VNMI or AVIC. The
 * SEV-ES/SNP save area is encrypted: no filtering, RDPMC or migration sync
 * is possible, and SNP needs SEV_FEATURES[11].
 */
static virq_status pmcv_mode_hw_(const char *api, const struct virq_hal *hal,
				 const struct virq_pmcvirt_caps *caps,
				 const struct virq_pmcvirt_guest *guest, uint32_t flags)
{
	if (!caps->svm)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP, "HW mode: host caps svm=0");
	if (!caps->perfctr_virt)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP,
				     "HW mode: host caps perfctr_virt=0");
	if (!caps->perfmon_v2)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP, "HW mode: host caps perfmon_v2=0");
	if (!caps->vnmi && !(flags & LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY))
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP,
				     "HW mode: host caps vnmi=0 and flags lack F_AVIC_DELIVERY");
	if (!caps->vnmi && !caps->avic)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP,
				     "HW mode: F_AVIC_DELIVERY with host caps avic=0, vnmi=0");
	if (guest->sev_es)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINHIBITED, "HW mode: guest sev_es=1");
	return LIBVIRQ_OK;
}

virq_status virq_pmcv_mode_check_(const char *api, const struct virq_hal *hal,
				  const struct virq_pmcvirt_caps *caps,
				  const struct virq_pmcvirt_guest *guest,
				  enum virq_pmcvirt_mode mode, uint32_t flags)
{
	virq_status st = pmcv_mode_args_(api, hal, caps, guest, mode, flags);

	if (st == LIBVIRQ_OK && mode == LIBVIRQ_PMCVIRT_MODE_HW)
		st = pmcv_mode_hw_(api, hal, caps, guest, flags);
	if (st != LIBVIRQ_OK)
		return st;
	if (guest->ncounters > caps->num_core_ctrs)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "guest ncounters=%u > caps num_core_ctrs=%u",
				      guest->ncounters, caps->num_core_ctrs);
	if (guest->ext_core && !caps->perfctr_ext_core && guest->ncounters > 4)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "guest ncounters=%u > 4 without host perfctr_ext_core",
				      guest->ncounters);
	if (guest->perfmon_v2 && !caps->perfmon_v2 && mode == LIBVIRQ_PMCVIRT_MODE_SW)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP,
				     "guest perfmon_v2=1 on a host with perfmon_v2=0");
	return LIBVIRQ_OK;
}

/* No HAL among the arguments: nothing to report through (hal.h
 * @ref virq_failures); virq_pmcvirt_vcpu_init() reports the same checks. */
virq_status virq_pmcvirt_mode_check(const struct virq_pmcvirt_caps *caps,
				    const struct virq_pmcvirt_guest *guest,
				    enum virq_pmcvirt_mode mode, uint32_t flags)
{
	return virq_pmcv_mode_check_(NULL, NULL, caps, guest, mode, flags);
}
