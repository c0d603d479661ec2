/* SPDX-License-Identifier: MIT */
/*
 * AMD IOMMU guest virtual APIC (GA) mode, pure part (IOMMU spec pub. 48882):
 * the 128-bit GA-mode IRTE (GAEn=1), the GA log entry and the GA tag. Bit
 * positions follow the layout Linux's AMD IOMMU driver uses
 * (drivers/iommu/amd/amd_iommu_types.h, union irte_ga_lo/hi); the spec
 * tables themselves were not checked (docs/avic.md). No state, no I/O.
 */
#include "fields.h"

virq_status virq_avic_irte_ga_encode(const struct virq_avic_irte_ga *f, uint64_t out[2])
{
	uint64_t lo, hi;

	if (!f || !out)
		return LIBVIRQ_EINVAL;
	lo = LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_RemapEn, f->remap_en) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_SupIOPF, f->sup_iopf) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_GuestMode, f->guest_mode) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_DestLo, f->dest & 0xFFFFFFu);
	hi = LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_Vector, f->vector) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_DestHi, f->dest >> 24);
	if (f->guest_mode) {
		if (f->int_type || f->rq_eoi || f->dm_logical)
			return LIBVIRQ_EINVAL;
		if (f->ga_root_pa & 0xFFFu)
			return LIBVIRQ_EALIGN;
		if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_IRTE_GaRootPtr, f->ga_root_pa))
			return LIBVIRQ_ERANGE;
		lo |= LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_GALogIntr, f->ga_log_intr) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_IsRun, f->is_run) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_GATag, f->ga_tag);
		hi |= f->ga_root_pa;
	} else {
		if (f->ga_log_intr || f->is_run || f->ga_tag || f->ga_root_pa)
			return LIBVIRQ_EINVAL;
		if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_IRTE_IntType, f->int_type))
			return LIBVIRQ_ERANGE;
		lo |= LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_IntType, f->int_type) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_RqEoi, f->rq_eoi) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_DM, f->dm_logical);
	}
	out[0] = lo;
	out[1] = hi;
	return LIBVIRQ_OK;
}

virq_status virq_avic_irte_ga_decode(const uint64_t in[2], struct virq_avic_irte_ga *f)
{
	uint64_t lo, hi;
	bool rsvd = false;

	if (!in || !f)
		return LIBVIRQ_EINVAL;
	lo = in[0];
	hi = in[1];
	memset(f, 0, sizeof(*f));
	f->remap_en = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_RemapEn, lo) != 0;
	f->sup_iopf = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_SupIOPF, lo) != 0;
	f->guest_mode = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GuestMode, lo) != 0;
	f->dest = (uint32_t)(LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DestLo, lo) |
			     (LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DestHi, hi) << 24));
	f->vector = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_Vector, hi);
	if (f->guest_mode) {
		f->ga_log_intr = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GALogIntr, lo) != 0;
		f->is_run = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_IsRun, lo) != 0;
		f->ga_tag = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GATag, lo);
		f->ga_root_pa = hi & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_GaRootPtr);
		rsvd = (lo & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_GaRsvd)) ||
		       (hi & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_HiRsvd2));
	} else {
		f->int_type = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_IntType, lo);
		f->rq_eoi = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_RqEoi, lo) != 0;
		f->dm_logical = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DM, lo) != 0;
		/* GuestMode 0: lo[63:32] and hi[55:12] hold nothing (GATag, root pointer). */
		rsvd = (lo & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_GATag)) ||
		       (hi & (LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_GaRootPtr) |
			      LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_HiRsvd2)));
	}
	rsvd = rsvd || (hi & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_HiRsvd1));
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

virq_status virq_avic_ga_log_decode(uint64_t e, uint32_t *tag, uint16_t *devid, uint8_t *code)
{
	if (!tag || !devid || !code)
		return LIBVIRQ_EINVAL;
	*tag = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GALOG_Tag, e);
	*devid = (uint16_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GALOG_DevId, e);
	*code = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GALOG_Code, e);
	return LIBVIRQ_OK;
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
