/* SPDX-License-Identifier: MIT */
/*
 * PMU MSR index mapping (K7 legacy, F15h interleaved, PerfMonV2 global),
 * migration MSR list, event filter and MSR permission-map policy.
 * Pure functions; APM Vol 2 rev 3.44 §13.2.1, §15.11; docs/rationale.md#pmc-msr-interception.
 */
#include "pmcv_enc.h"

static enum virq_pmcvirt_field pmcv_pair_field_(uint32_t idx, bool ctr)
{
	return (enum virq_pmcvirt_field)(2u * idx + (ctr ? 1u : 0u));
}

/* Counter MSRs. The index is range-checked before anything else uses it. */
static virq_status pmcv_map_counter_(const struct virq_pmcvirt_guest *g, uint32_t msr,
				     enum virq_pmcvirt_origin origin,
				     struct virq_pmcvirt_slot *slot)
{
	uint32_t idx;
	bool ctr;

	if (msr >= LIBVIRQ_PMCVIRT_MSR_K7_EVNTSEL(0) && msr <= LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(3)) {
		idx = (msr - LIBVIRQ_PMCVIRT_MSR_K7_EVNTSEL(0)) & 3u;
		ctr = msr >= LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(0);
	} else if (msr >= LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(0) &&
		   msr <= LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(5)) {
		/* F15h MSRs exist for ext_core guests; the host may use them for
		 * legacy guests too (translated to K7,
		 * docs/rationale.md#pmc-legacy-msr-index). */
		if (!g->ext_core && origin != LIBVIRQ_PMCVIRT_HOST)
			return LIBVIRQ_EINVAL;
		idx = (msr - LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(0)) >> 1;
		ctr = (msr & 1u) != 0;
	} else {
		return LIBVIRQ_ENOENT;
	}
	if (idx >= g->ncounters) /* beyond the guest's count: never an alias */
		return LIBVIRQ_EINVAL;
	slot->kind = ctr ? LIBVIRQ_PMCVIRT_KIND_CTR : LIBVIRQ_PMCVIRT_KIND_CTL;
	slot->idx = idx;
	slot->field = pmcv_pair_field_(idx, ctr);
	return LIBVIRQ_OK;
}

static virq_status pmcv_map_global_(const struct virq_pmcvirt_guest *g, uint32_t msr,
				    struct virq_pmcvirt_slot *slot)
{
	static const enum virq_pmcvirt_kind kinds[4] = {
	    LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS,
	    LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL,
	    LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR,
	    LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET,
	};
	uint32_t k = msr - LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS;

	if (!g->perfmon_v2)
		return LIBVIRQ_EINVAL;
	slot->kind = kinds[k];
	slot->idx = 0;
	slot->field = slot->kind == LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL
			  ? LIBVIRQ_PMCVIRT_FIELD_PERF_CTR_GLOBAL_CTL
			  : LIBVIRQ_PMCVIRT_FIELD_PERF_CTR_GLOBAL_STS;
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_msr_map(const struct virq_pmcvirt_guest *guest, uint32_t msr,
				 enum virq_pmcvirt_origin origin, struct virq_pmcvirt_slot *slot)
{
	if (!slot || virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	if (origin != LIBVIRQ_PMCVIRT_GUEST && origin != LIBVIRQ_PMCVIRT_HOST)
		return LIBVIRQ_EINVAL;
	if (msr >= LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS &&
	    msr <= LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_SET)
		return pmcv_map_global_(guest, msr, slot);
	if (msr == LIBVIRQ_PMCVIRT_MSR_IRPERF) {
		if (!guest->irperf)
			return LIBVIRQ_EINVAL;
		slot->kind = LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED;
		slot->idx = 0;
		slot->field = LIBVIRQ_PMCVIRT_FIELD_INSTR_RETIRED_CTR;
		return LIBVIRQ_OK;
	}
	return pmcv_map_counter_(guest, msr, origin, slot);
}

virq_status virq_pmcvirt_msr_list(const struct virq_pmcvirt_guest *guest, uint32_t *msrs,
				  size_t cap, size_t *n)
{
	uint32_t buf[15];
	size_t k = 0;

	if (!n || (!msrs && cap) || virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	for (uint32_t i = 0; i < guest->ncounters; i++)
		buf[k++] = guest->ext_core ? LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(i)
					   : LIBVIRQ_PMCVIRT_MSR_K7_EVNTSEL(i);
	for (uint32_t i = 0; i < guest->ncounters; i++)
		buf[k++] = guest->ext_core ? LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(i)
					   : LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(i);
	if (guest->irperf)
		buf[k++] = LIBVIRQ_PMCVIRT_MSR_IRPERF;
	if (guest->perfmon_v2) {
		buf[k++] = LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS;
		buf[k++] = LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL;
	}
	*n = k;
	if (cap < k)
		return LIBVIRQ_ENOSPC;
	memcpy(msrs, buf, k * sizeof(buf[0]));
	return LIBVIRQ_OK;
}

/* ---- event filter ---- */

virq_status virq_pmcvirt_filter_check(const struct virq_pmcvirt_filter *filter)
{
	if (!filter)
		return LIBVIRQ_EINVAL;
	if (filter->action != LIBVIRQ_PMCVIRT_FILTER_ALLOW &&
	    filter->action != LIBVIRQ_PMCVIRT_FILTER_DENY)
		return LIBVIRQ_EINVAL;
	if (filter->nents > LIBVIRQ_PMCVIRT_FILTER_MAX)
		return LIBVIRQ_ERANGE;
	if (filter->nents && !filter->ents)
		return LIBVIRQ_EINVAL;
	for (uint32_t i = 0; i < filter->nents; i++) {
		const struct virq_pmcvirt_filter_ent *e = &filter->ents[i];

		if (e->event > 0xFFFu)
			return LIBVIRQ_ERANGE;
		if (e->umask_match & (uint8_t)~e->umask_mask)
			return LIBVIRQ_EINVAL;
	}
	return LIBVIRQ_OK;
}

bool virq_pmcvirt_filter_allows(const struct virq_pmcvirt_filter *filter, uint64_t eventsel)
{
	uint64_t ev = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_EventSelectLo, eventsel) |
		      (LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_EventSelectHi, eventsel) << 8);
	uint64_t um = LIBVIRQ_FIELD_GET(LIBVIRQ_PMCVIRT_EVTSEL_UnitMask, eventsel);
	bool listed = false;

	if (!filter)
		return true;
	for (uint32_t i = 0; i < filter->nents && !listed; i++) {
		const struct virq_pmcvirt_filter_ent *e = &filter->ents[i];

		listed = e->event == ev && (um & e->umask_mask) == e->umask_match;
	}
	return filter->action == LIBVIRQ_PMCVIRT_FILTER_ALLOW ? listed : !listed;
}

/* ---- MSR permission map ---- */

virq_status virq_pmcvirt_msrpm_bit(uint32_t msr, uint32_t *byte, uint32_t *bit)
{
	static const uint32_t bases[3] = {0x00000000u, 0xC0000000u, 0xC0010000u};
	uint32_t pos;

	if (!byte || !bit)
		return LIBVIRQ_EINVAL;
	for (uint32_t r = 0; r < 3; r++) {
		if (msr - bases[r] < 0x2000u) {
			pos = (r * 0x2000u + (msr - bases[r])) * 2u;
			*byte = pos / 8u;
			*bit = pos % 8u;
			return LIBVIRQ_OK;
		}
	}
	return LIBVIRQ_ERANGE;
}

virq_status virq_pmcvirt_msrpm_recommend(const struct virq_pmcvirt_caps *caps,
					 const struct virq_pmcvirt_guest *guest,
					 enum virq_pmcvirt_mode mode,
					 struct virq_pmcvirt_msrpm_policy *policy)
{
	bool match;

	if (!caps || !policy || virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	if (mode != LIBVIRQ_PMCVIRT_MODE_HW && mode != LIBVIRQ_PMCVIRT_MODE_SW)
		return LIBVIRQ_EINVAL;
	match = guest->ncounters == pmcv_host_ctrs_(caps) &&
		guest->perfmon_v2 == caps->perfmon_v2 && guest->ext_core == caps->perfctr_ext_core;
	policy->intercept_ctl = true;
	/* F15h counters of an ext_core guest do not exist on a K7-only host. */
	policy->passthrough_ctr = !(guest->ext_core && !caps->perfctr_ext_core);
	policy->passthrough_global = match && guest->perfmon_v2;
	policy->passthrough_irperf_read = mode == LIBVIRQ_PMCVIRT_MODE_HW && guest->irperf;
	policy->intercept_rdpmc = !match;
	return LIBVIRQ_OK;
}

/* Sets the read and write intercept bits of one MSR to @intercept. */
static void pmcv_msrpm_set_(uint8_t *msrpm, uint32_t msr, bool rd, bool wr)
{
	uint32_t byte, bit;

	if (virq_pmcvirt_msrpm_bit(msr, &byte, &bit) != LIBVIRQ_OK)
		return; /* every PMU MSR is in range; nothing to do otherwise */
	msrpm[byte] = (uint8_t)(msrpm[byte] & ~(3u << bit));
	msrpm[byte] = (uint8_t)(msrpm[byte] | ((rd ? 1u : 0u) << bit) | ((wr ? 2u : 0u) << bit));
}

virq_status virq_pmcvirt_msrpm_apply(uint8_t *msrpm, const struct virq_pmcvirt_guest *guest,
				     const struct virq_pmcvirt_msrpm_policy *policy)
{
	bool glob;

	if (!msrpm || !policy || virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	/* The guest's event selects live in vcpu->st (filtering, migration,
	 * RDMSR emulation): a passed-through WRMSR would bypass all of it. */
	if (!policy->intercept_ctl)
		return LIBVIRQ_EINVAL;
	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		bool pass = policy->passthrough_ctr && i < guest->ncounters;

		if (i < 4) {
			pmcv_msrpm_set_(msrpm, LIBVIRQ_PMCVIRT_MSR_K7_EVNTSEL(i), true, true);
			pmcv_msrpm_set_(msrpm, LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(i), !pass, !pass);
		}
		pass = pass && guest->ext_core;
		pmcv_msrpm_set_(msrpm, LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(i), true, true);
		pmcv_msrpm_set_(msrpm, LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(i), !pass, !pass);
	}
	glob = policy->passthrough_global && guest->perfmon_v2;
	for (uint32_t m = LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS;
	     m <= LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_SET; m++)
		pmcv_msrpm_set_(msrpm, m, !glob, !glob);
	pmcv_msrpm_set_(msrpm, LIBVIRQ_PMCVIRT_MSR_IRPERF,
			!(policy->passthrough_irperf_read && guest->irperf), true);
	return LIBVIRQ_OK;
}
