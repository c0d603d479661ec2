/* SPDX-License-Identifier: MIT */
/*
 * VMCB PMU layout (AMD64 APM Vol 2 rev 3.44 Appendix B, Tables B-1, B-2 and
 * B-4), the PerfEvtSel codec (§13.2.1, Figure 13-11) and pure whole-state
 * sync between struct virq_pmcvirt_state and a raw VMCB. The slot list and
 * the PerfEvtSel field code are generated from the tables of
 * libvirq/amd/fields.h.
 */
#include "pmcv_enc.h"

struct pmcv_field_desc_ {
	const char *name;
	uint16_t offset;
	uint8_t width;
};

#define PMCV_SLOT_(P, NAME, off, bytes, swap) {#NAME, LIBVIRQ_VMCB_SAVE_AREA + (off), bytes},

static const struct pmcv_field_desc_ pmcv_fields_[LIBVIRQ_PMCVIRT_FIELD_COUNT] = {
    LIBVIRQ_VMCB_PMC_SLOTS_TABLE(PMCV_SLOT_, ~)};

#define PMCV_SLOT_COUNT_(P, NAME, off, bytes, swap)                                                \
	+1 /* NOLINT(bugprone-macro-parentheses): a summand */
LIBVIRQ_STATIC_ASSERT_((0 LIBVIRQ_VMCB_PMC_SLOTS_TABLE(PMCV_SLOT_COUNT_, ~)) ==
			   LIBVIRQ_PMCVIRT_FIELD_COUNT,
		       "one enum virq_pmcvirt_field per slot of APM Vol 2 rev 3.44 Table B-2");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_FIELD_PERF_CTR5 == 11, "pairs first, in offset order");
/* The guest masks derived from the table are the values they always had: kept here, not in the
 * public header, where glibc's C99 _Static_assert macro would declare one function per assertion.
 */
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG == 0xFFFFFCF000280000ull,
		       "PerfEvtSel bits reserved with HG_ONLY: 19, 21, 36-39, 42-63");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_EVTSEL_RSVD == 0xFFFFFFF000280000ull,
		       "PerfEvtSel bits reserved without HG_ONLY: 19, 21, 36-63");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_GLOBAL_CTL_WIDTH == 4,
		       "PERF_CTR_GLOBAL_CTL: APM Vol 2 rev 3.44 Table B-4");

virq_status virq_pmcvirt_evtsel_encode(const struct virq_pmcvirt_evtsel *f, uint64_t *out)
{
	uint64_t w[1] = {0};

	if (!f || !out)
		return LIBVIRQ_EINVAL;
	LIBVIRQ_PMC_PERFEVTSEL_TABLE(LIBVIRQ_AMD_ENC_, ~)
	*out = w[0];
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_evtsel_decode(uint64_t v, struct virq_pmcvirt_evtsel *f)
{
	const uint64_t w[1] = {v};
	uint64_t rsvd = 0;

	if (!f)
		return LIBVIRQ_EINVAL;
	memset(f, 0, sizeof(*f));
	LIBVIRQ_PMC_PERFEVTSEL_TABLE(LIBVIRQ_AMD_DEC_, ~)
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

static const struct virq_amd_field evtsel_fields_[] = {
    LIBVIRQ_PMC_PERFEVTSEL_TABLE(LIBVIRQ_AMD_DESC_, ~)};
const struct virq_amd_layout virq_pmcvirt_layout_perfevtsel = {
    "pmc-perfevtsel", "AMD64 APM Vol 2 rev 3.44 §13.2.1, Figure 13-11", 64,
    LIBVIRQ_AMD_NFIELDS(LIBVIRQ_PMC_PERFEVTSEL_TABLE), evtsel_fields_};
static const struct virq_amd_field perfctr_fields_[] = {
    LIBVIRQ_PMC_PERFCTR_TABLE(LIBVIRQ_AMD_DESC_, ~)};
const struct virq_amd_layout virq_pmcvirt_layout_perfctr = {
    "pmc-perfctr", "AMD64 APM Vol 2 rev 3.44 §13.2.1, Figure 13-10", 64,
    LIBVIRQ_AMD_NFIELDS(LIBVIRQ_PMC_PERFCTR_TABLE), perfctr_fields_};
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_AMD_WIDTH(LIBVIRQ_PMC_PERFEVTSEL_TABLE) == 64 &&
			   LIBVIRQ_AMD_ALL_MASK(LIBVIRQ_PMC_PERFEVTSEL_TABLE, 0) == ~(uint64_t)0,
		       "PerfEvtSel rows tile 64 bits");

virq_status virq_pmcvirt_field_info(enum virq_pmcvirt_field field, const char **name,
				    uint32_t *offset, uint32_t *width)
{
	const struct pmcv_field_desc_ *d;

	if ((unsigned)field >= LIBVIRQ_PMCVIRT_FIELD_COUNT)
		return LIBVIRQ_ERANGE;
	d = &pmcv_fields_[field];
	if (name)
		*name = d->name;
	if (offset)
		*offset = d->offset;
	if (width)
		*width = d->width;
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_exit_decode(uint64_t exitcode, enum virq_pmcvirt_exit_kind *kind)
{
	if (!kind)
		return LIBVIRQ_EINVAL;
	if (exitcode <= 0x7FFFFFFFull) {
		*kind = LIBVIRQ_PMCVIRT_EXIT_NORMAL;
		return LIBVIRQ_OK;
	}
	if (exitcode == LIBVIRQ_VMCB_EXIT_INVALID) {
		*kind = LIBVIRQ_PMCVIRT_EXIT_INVALID;
		return LIBVIRQ_OK;
	}
	if (exitcode == LIBVIRQ_VMCB_EXIT_INVALID_PMC) {
		*kind = LIBVIRQ_PMCVIRT_EXIT_INVALID_PMC;
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_EUNKNOWN;
}

virq_status virq_pmcvirt_guest_check(const struct virq_pmcvirt_guest *guest)
{
	if (!guest)
		return LIBVIRQ_EINVAL;
	if (guest->perfmon_v2 && !guest->ext_core)
		return LIBVIRQ_EINVAL;
	if (guest->ncounters == 0 || guest->ncounters > LIBVIRQ_PMCVIRT_NR_SLOTS)
		return LIBVIRQ_ERANGE;
	if (!guest->ext_core && guest->ncounters > 4)
		return LIBVIRQ_ERANGE;
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_load_state(const void *vmcb, const struct virq_pmcvirt_guest *guest,
					 struct virq_pmcvirt_state *state)
{
	if (!vmcb || !state || virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	memset(state, 0, sizeof(*state));
	for (uint32_t i = 0; i < guest->ncounters; i++) {
		state->perf_ctl[i] = pmcv_rd64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i));
		state->perf_ctr[i] =
		    pmcv_rd64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i)) & LIBVIRQ_PMCVIRT_CTR_MASK;
	}
	state->global_sts = pmcv_rd64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS) &
			    pmcv_ctr_bits_(guest->ncounters);
	if (guest->perfmon_v2)
		state->global_ctl = pmcv_rd_gctl_(vmcb) & pmcv_ctr_bits_(guest->ncounters);
	state->instr_retired =
	    pmcv_rd64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR) & LIBVIRQ_PMCVIRT_CTR_MASK;
	return LIBVIRQ_OK;
}

static virq_status pmcv_state_check_(const struct virq_pmcvirt_guest *g,
				     const struct virq_pmcvirt_state *s)
{
	uint64_t bits = pmcv_ctr_bits_(g->ncounters);
	uint64_t rsvd = pmcv_evtsel_rsvd_(g);

	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		if (s->perf_ctr[i] & ~LIBVIRQ_PMCVIRT_CTR_MASK)
			return LIBVIRQ_ERANGE;
		/* The CPU loads PERF_CTL from here: no reserved bits (slots
		 * beyond the guest's count are written 0 anyway). */
		if (i < g->ncounters && (s->perf_ctl[i] & rsvd))
			return LIBVIRQ_ERANGE;
	}
	if (s->instr_retired & ~LIBVIRQ_PMCVIRT_CTR_MASK)
		return LIBVIRQ_ERANGE;
	if ((s->global_sts & ~bits) || (s->global_ctl & ~bits))
		return LIBVIRQ_ERANGE;
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_store_state(void *vmcb, const struct virq_pmcvirt_guest *guest,
					  const struct virq_pmcvirt_state *state)
{
	virq_status st;

	if (!vmcb || !state || virq_pmcvirt_guest_check(guest) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	st = pmcv_state_check_(guest, state);
	if (st != LIBVIRQ_OK)
		return st;
	for (uint32_t i = 0; i < LIBVIRQ_PMCVIRT_NR_SLOTS; i++) {
		bool have = i < guest->ncounters;

		pmcv_wr64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i), have ? state->perf_ctl[i] : 0);
		pmcv_wr64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i), have ? state->perf_ctr[i] : 0);
	}
	pmcv_wr64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR, state->instr_retired);
	pmcv_wr64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS, state->global_sts);
	pmcv_wr_gctl_(vmcb, pmcv_eff_gctl_(guest, state->global_ctl));
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_enable(void *vmcb, bool enable)
{
	uint64_t v;

	if (!vmcb)
		return LIBVIRQ_EINVAL;
	v = pmcv_rd64_(vmcb, LIBVIRQ_VMCB_VIRT_EXT);
	v = LIBVIRQ_FIELD_SET(LIBVIRQ_VMCB_VIRT_EXT_PMC_VIRT_ENABLE, v, enable ? 1u : 0u);
	pmcv_wr64_(vmcb, LIBVIRQ_VMCB_VIRT_EXT, v);
	return LIBVIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_set_exitcode(void *vmcb, uint64_t exitcode)
{
	if (!vmcb)
		return LIBVIRQ_EINVAL;
	pmcv_wr64_(vmcb, LIBVIRQ_VMCB_EXITCODE, exitcode);
	return LIBVIRQ_OK;
}
