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
	uint32_t max, ecx1, edxa;
	virq_status st;

	if (!caps)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_pmcvirt_probe: caps is NULL");
	memset(caps, 0, sizeof(*caps));
	st = virq_hal_validate(hal, LIBVIRQ_HAL_NEED_CPUID);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(hal, st, "virq_pmcvirt_probe: HAL lacks cpuid");
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
			return LIBVIRQ_FAIL(hal, LIBVIRQ_EHW,
					    "virq_pmcvirt_probe: PerfMonV2 with NumPerfCtrCore 0");
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

static virq_status pmcv_hw_check_(const struct virq_pmcvirt_caps *caps,
				  const struct virq_pmcvirt_guest *guest, uint32_t flags)
{
	bool delivery = caps->vnmi || ((flags & LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY) && caps->avic);

	if (!caps->svm || !caps->perfctr_virt || !caps->perfmon_v2)
		return LIBVIRQ_ENOTSUP;
	/* Virtualized counters raise no host PMI; the guest's arrives by VNMI. */
	if (!delivery)
		return LIBVIRQ_ENOTSUP;
	/* The SEV-ES/SNP save area is encrypted: no filtering, RDPMC or
	 * migration sync is possible, and SNP needs SEV_FEATURES[11]. */
	if (guest->sev_es)
		return LIBVIRQ_EINHIBITED;
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_mode_check(const struct virq_pmcvirt_caps *caps,
				    const struct virq_pmcvirt_guest *guest,
				    enum virq_pmcvirt_mode mode, uint32_t flags)
{
	virq_status st;

	if (!caps)
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_pmcvirt_mode_check: caps is NULL");
	if (flags & ~(LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY | LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP |
		      LIBVIRQ_PMCVIRT_F_LAZY))
		return LIBVIRQ_FAILV(NULL, LIBVIRQ_EINVAL, "virq_pmcvirt_mode_check: unknown flags",
				     flags);
	if ((flags & LIBVIRQ_PMCVIRT_F_LAZY) && mode != LIBVIRQ_PMCVIRT_MODE_SW)
		return LIBVIRQ_FAIL(
		    NULL, LIBVIRQ_EINVAL,
		    "virq_pmcvirt_mode_check: F_LAZY is for the software-switched mode");
	st = virq_pmcvirt_guest_check(guest);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL,
				    "virq_pmcvirt_mode_check: inconsistent guest");
	if (mode == LIBVIRQ_PMCVIRT_MODE_HW) {
		st = pmcv_hw_check_(caps, guest, flags);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAIL(
			    NULL, st, "virq_pmcvirt_mode_check: host or guest unfit for HW mode");
	} else if (mode != LIBVIRQ_PMCVIRT_MODE_SW) {
		return LIBVIRQ_FAILV(NULL, LIBVIRQ_EINVAL, "virq_pmcvirt_mode_check: unknown mode",
				     (uint64_t)mode);
	}
	if (guest->ncounters > caps->num_core_ctrs)
		return LIBVIRQ_FAILV(
		    NULL, LIBVIRQ_ERANGE,
		    "virq_pmcvirt_mode_check: more guest counters than the host has",
		    guest->ncounters, caps->num_core_ctrs);
	if (guest->ext_core && !caps->perfctr_ext_core && guest->ncounters > 4)
		return LIBVIRQ_FAIL(
		    NULL, LIBVIRQ_ERANGE,
		    "virq_pmcvirt_mode_check: over 4 counters need host PerfCtrExtCore");
	if (guest->perfmon_v2 && !caps->perfmon_v2 && mode == LIBVIRQ_PMCVIRT_MODE_SW)
		return LIBVIRQ_FAIL(
		    NULL, LIBVIRQ_ENOTSUP,
		    "virq_pmcvirt_mode_check: PerfMonV2 guest on a host without it");
	return LIBVIRQ_OK;
}
