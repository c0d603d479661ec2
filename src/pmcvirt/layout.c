/* SPDX-License-Identifier: MIT */
/*
 * VMCB PMU layout (APM Vol 2 Appendix B, Tables B-1/B-2) and pure
 * whole-state sync between struct virq_pmcvirt_state and a raw VMCB.
 */
#include "pmcvirt/pmcv_priv.h"

struct pmcv_field_desc_ {
	const char *name;
	uint16_t offset;
	uint8_t width;
};

#define PMCV_PAIR_(i)                                                                              \
	{"PERF_CTL" #i, VIRQ_PMCVIRT_VMCB_PERF_CTL(i), 8},                                         \
	{                                                                                          \
		"PERF_CTR" #i, VIRQ_PMCVIRT_VMCB_PERF_CTR(i), 8                                    \
	}

static const struct pmcv_field_desc_ pmcv_fields_[VIRQ_PMCVIRT_FIELD_COUNT] = {
    PMCV_PAIR_(0),
    PMCV_PAIR_(1),
    PMCV_PAIR_(2),
    PMCV_PAIR_(3),
    PMCV_PAIR_(4),
    PMCV_PAIR_(5),
    {"INSTR_RETIRED_CTR", VIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR, 8},
    {"PERF_CTR_GLOBAL_STS", VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS, 8},
    {"PERF_CTR_GLOBAL_CTL", VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL, VIRQ_PMCVIRT_GLOBAL_CTL_WIDTH},
};

_Static_assert(VIRQ_PMCVIRT_FIELD_PERF_CTR5 == 11, "pairs first, in offset order");

virq_status virq_pmcvirt_field_info(enum virq_pmcvirt_field field, const char **name,
				    uint32_t *offset, uint32_t *width)
{
	const struct pmcv_field_desc_ *d;

	if ((unsigned)field >= VIRQ_PMCVIRT_FIELD_COUNT)
		return VIRQ_ERANGE;
	d = &pmcv_fields_[field];
	if (name)
		*name = d->name;
	if (offset)
		*offset = d->offset;
	if (width)
		*width = d->width;
	return VIRQ_OK;
}

virq_status virq_pmcvirt_exit_decode(uint64_t exitcode, enum virq_pmcvirt_exit *kind)
{
	if (!kind)
		return VIRQ_EINVAL;
	if (exitcode <= 0x7FFFFFFFull) {
		*kind = VIRQ_PMCVIRT_EXIT_NORMAL;
		return VIRQ_OK;
	}
	if (exitcode == VIRQ_PMCVIRT_VMEXIT_INVALID) {
		*kind = VIRQ_PMCVIRT_EXIT_INVALID;
		return VIRQ_OK;
	}
	if (exitcode == VIRQ_PMCVIRT_VMEXIT_INVALID_PMC) {
		*kind = VIRQ_PMCVIRT_EXIT_INVALID_PMC;
		return VIRQ_OK;
	}
	return VIRQ_EUNKNOWN;
}

virq_status virq_pmcvirt_guest_check(const struct virq_pmcvirt_guest *guest)
{
	if (!guest)
		return VIRQ_EINVAL;
	if (guest->perfmon_v2 && !guest->ext_core)
		return VIRQ_EINVAL;
	if (guest->ncounters == 0 || guest->ncounters > VIRQ_PMCVIRT_NR_SLOTS)
		return VIRQ_ERANGE;
	if (!guest->ext_core && guest->ncounters > 4)
		return VIRQ_ERANGE;
	return VIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_load_state(const void *vmcb, const struct virq_pmcvirt_guest *guest,
					 struct virq_pmcvirt_state *state)
{
	if (!vmcb || !state || virq_pmcvirt_guest_check(guest) != VIRQ_OK)
		return VIRQ_EINVAL;
	memset(state, 0, sizeof(*state));
	for (uint32_t i = 0; i < guest->ncounters; i++) {
		state->perf_ctl[i] = pmcv_rd64_(vmcb, VIRQ_PMCVIRT_VMCB_PERF_CTL(i));
		state->perf_ctr[i] =
		    pmcv_rd64_(vmcb, VIRQ_PMCVIRT_VMCB_PERF_CTR(i)) & VIRQ_PMCVIRT_CTR_MASK;
	}
	state->global_sts = pmcv_rd64_(vmcb, VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS) &
			    pmcv_ctr_bits_(guest->ncounters);
	if (guest->perfmon_v2)
		state->global_ctl = pmcv_rd_gctl_(vmcb) & pmcv_ctr_bits_(guest->ncounters);
	state->instr_retired =
	    pmcv_rd64_(vmcb, VIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR) & VIRQ_PMCVIRT_CTR_MASK;
	return VIRQ_OK;
}

static virq_status pmcv_state_check_(const struct virq_pmcvirt_guest *g,
				     const struct virq_pmcvirt_state *s)
{
	uint64_t bits = pmcv_ctr_bits_(g->ncounters);
	uint64_t rsvd = pmcv_evtsel_rsvd_(g);

	for (uint32_t i = 0; i < VIRQ_PMCVIRT_NR_SLOTS; i++) {
		if (s->perf_ctr[i] & ~VIRQ_PMCVIRT_CTR_MASK)
			return VIRQ_ERANGE;
		/* The CPU loads PERF_CTL from here: no reserved bits (slots
		 * beyond the guest's count are written 0 anyway). */
		if (i < g->ncounters && (s->perf_ctl[i] & rsvd))
			return VIRQ_ERANGE;
	}
	if (s->instr_retired & ~VIRQ_PMCVIRT_CTR_MASK)
		return VIRQ_ERANGE;
	if ((s->global_sts & ~bits) || (s->global_ctl & ~bits))
		return VIRQ_ERANGE;
	return VIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_store_state(void *vmcb, const struct virq_pmcvirt_guest *guest,
					  const struct virq_pmcvirt_state *state)
{
	virq_status st;

	if (!vmcb || !state || virq_pmcvirt_guest_check(guest) != VIRQ_OK)
		return VIRQ_EINVAL;
	st = pmcv_state_check_(guest, state);
	if (st != VIRQ_OK)
		return st;
	for (uint32_t i = 0; i < VIRQ_PMCVIRT_NR_SLOTS; i++) {
		bool have = i < guest->ncounters;

		pmcv_wr64_(vmcb, VIRQ_PMCVIRT_VMCB_PERF_CTL(i), have ? state->perf_ctl[i] : 0);
		pmcv_wr64_(vmcb, VIRQ_PMCVIRT_VMCB_PERF_CTR(i), have ? state->perf_ctr[i] : 0);
	}
	pmcv_wr64_(vmcb, VIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR, state->instr_retired);
	pmcv_wr64_(vmcb, VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS, state->global_sts);
	pmcv_wr_gctl_(vmcb, pmcv_eff_gctl_(guest, state->global_ctl));
	return VIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_enable(void *vmcb, bool enable)
{
	uint64_t v;

	if (!vmcb)
		return VIRQ_EINVAL;
	v = pmcv_rd64_(vmcb, VIRQ_PMCVIRT_VMCB_VIRT_EXT);
	v = VIRQ_FIELD_SET(VIRQ_PMCVIRT_VIRT_EXT_PMC_VIRT_ENABLE, v, enable ? 1u : 0u);
	pmcv_wr64_(vmcb, VIRQ_PMCVIRT_VMCB_VIRT_EXT, v);
	return VIRQ_OK;
}

virq_status virq_pmcvirt_vmcb_set_exitcode(void *vmcb, uint64_t exitcode)
{
	if (!vmcb)
		return VIRQ_EINVAL;
	pmcv_wr64_(vmcb, VIRQ_PMCVIRT_VMCB_EXITCODE, exitcode);
	return VIRQ_OK;
}
