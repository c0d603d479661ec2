/* SPDX-License-Identifier: MIT */
/*
 * AMD IOMMU guest virtual APIC (GA) mode, pure part: the 128-bit IRTE with
 * GuestMode = 1 and = 0 (AMD IOMMU specification 48882 rev 3.11 §2.2.5.3,
 * Figures 20 and 19, with a 32-bit destination), the GA_GUEST_NR log entry
 * (§2.7.3, Figure 79) and the GA tag. The field code is generated from the
 * tables of libvirq/amd/fields.h. No state, no I/O.
 */
#include "fields.h"

virq_status virq_avic_irte_ga_encode(const struct virq_avic_irte_ga *f, uint64_t out[2])
{
	uint64_t w[2] = {0, 0};

	if (!f || !out)
		return LIBVIRQ_EINVAL;
	if (f->guest_mode) {
		if (f->int_type || f->rq_eoi || f->dm_logical)
			return LIBVIRQ_EINVAL;
		LIBVIRQ_IRTE_GA_TABLE(LIBVIRQ_AMD_ENC_, ~)
	} else {
		if (f->ga_log_intr || f->is_run || f->gappi_dis || f->ga_tag || f->ga_root_pa)
			return LIBVIRQ_EINVAL;
		/* IntType: 000b Fixed, 001b Arbitrated, 010b-111b reserved (AMD IOMMU specification
		 * 48882 rev 3.11 Table 22). */
		if (f->int_type > 1u)
			return LIBVIRQ_ERANGE;
		LIBVIRQ_IRTE_REMAP_TABLE(LIBVIRQ_AMD_ENC_, ~)
	}
	out[0] = w[0];
	out[1] = w[1];
	return LIBVIRQ_OK;
}

virq_status virq_avic_irte_ga_decode(const uint64_t in[2], struct virq_avic_irte_ga *f)
{
	uint64_t rsvd = 0;
	const uint64_t *w = in;

	if (!in || !f)
		return LIBVIRQ_EINVAL;
	memset(f, 0, sizeof(*f));
	if (LIBVIRQ_FIELD_GET(IRTE_GA_F_(GuestMode),
			      w[LIBVIRQ_AMD_W(LIBVIRQ_IRTE_GA_, GuestMode)])) {
		LIBVIRQ_IRTE_GA_TABLE(LIBVIRQ_AMD_DEC_, ~)
	} else {
		LIBVIRQ_IRTE_REMAP_TABLE(LIBVIRQ_AMD_DEC_, ~)
		/* The reserved encodings of IntType are reserved bits too. */
		if (f->int_type > 1u)
			rsvd = 1;
	}
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

struct ga_log_ {
	uint8_t code;
	uint16_t devid;
	uint32_t tag;
};

virq_status virq_avic_ga_log_decode(uint64_t e, uint32_t *tag, uint16_t *devid, uint8_t *code)
{
	const uint64_t w[1] = {e};
	struct ga_log_ v = {0, 0, 0}, *f = &v;
	uint64_t rsvd = 0;

	if (!tag || !devid || !code)
		return LIBVIRQ_EINVAL;
	LIBVIRQ_GA_LOG_ENTRY_TABLE(LIBVIRQ_AMD_DEC_, ~)
	*tag = v.tag;
	*devid = v.devid;
	*code = v.code;
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_FIELD_WIDTH(LIBVIRQ_GATAG_Vcpu) == LIBVIRQ_GATAG_VCPU_BITS,
		       "GA tag vCPU width");
LIBVIRQ_STATIC_ASSERT_((LIBVIRQ_FIELD_MASK(LIBVIRQ_GATAG_Vcpu) |
			LIBVIRQ_FIELD_MASK(LIBVIRQ_GATAG_Vm)) == 0xFFFFFFFFu,
		       "GA tag fields fill 32 bits");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_FIELD_MAX(LIBVIRQ_GATAG_Vcpu) == LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K,
		       "GA tag holds every vCPU index");

virq_status virq_avic_gatag_encode(uint32_t vm_id, uint32_t vcpu_index, uint32_t *tag)
{
	if (!tag)
		return LIBVIRQ_EINVAL;
	if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_GATAG_Vm, vm_id) ||
	    !LIBVIRQ_FIELD_FITS(LIBVIRQ_GATAG_Vcpu, vcpu_index))
		return LIBVIRQ_ERANGE;
	*tag = (uint32_t)(LIBVIRQ_FIELD_PREP(LIBVIRQ_GATAG_Vm, vm_id) |
			  LIBVIRQ_FIELD_PREP(LIBVIRQ_GATAG_Vcpu, vcpu_index));
	return LIBVIRQ_OK;
}

virq_status virq_avic_gatag_decode(uint32_t tag, uint32_t *vm_id, uint32_t *vcpu_index)
{
	if (!vm_id || !vcpu_index)
		return LIBVIRQ_EINVAL;
	*vm_id = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GATAG_Vm, tag);
	*vcpu_index = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GATAG_Vcpu, tag);
	return LIBVIRQ_OK;
}
