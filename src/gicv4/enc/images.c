/* SPDX-License-Identifier: MIT */
/*
 * Pure builders of redistributor register images; see enc/images.h.
 * Spec: Arm IHI 0069H §12.11 (GICR_VPROPBASER, GICR_VPENDBASER); the
 * attribute choices follow Linux's its_vpe_schedule() and
 * its_vpe_4_1_schedule() (facts restated, no code copied).
 */
#include "images.h"

#define VPEND_VALID_ LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Valid)
#define VPEND_PL_ LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_PendingLast)

uint64_t virq_gic_vprop40_image_(uint64_t pa, uint32_t id_bits, bool nc)
{
	uint64_t ic = nc ? LIBVIRQ_GIC_CACHE_nC : LIBVIRQ_GIC_CACHE_RaWb;
	uint64_t sh = nc ? LIBVIRQ_GIC_SH_NONE : LIBVIRQ_GIC_SH_INNER;

	return pa | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_IDbits, id_bits - 1) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_InnerCache, ic) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_Shareability, sh);
}

uint64_t virq_gic_vpend40_image_(uint64_t vpt_pa, bool idai, bool nc)
{
	uint64_t ic = nc ? LIBVIRQ_GIC_CACHE_nC : LIBVIRQ_GIC_CACHE_RaWaWb;
	uint64_t sh = nc ? LIBVIRQ_GIC_SH_NONE : LIBVIRQ_GIC_SH_INNER;

	return vpt_pa | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_InnerCache, ic) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_Shareability, sh) | VPEND_PL_ |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_IDAI, idai ? 1 : 0) | VPEND_VALID_;
}

uint64_t virq_gic_vpend41_image_(uint32_t vpeid, bool vgrp0, bool vgrp1)
{
	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_vPEID, vpeid) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_VGrp1En, vgrp1 ? 1 : 0) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_VGrp0En, vgrp0 ? 1 : 0) |
	       VPEND_VALID_;
}

virq_status virq_gic_vprop41_from_baser_(uint64_t baser, uint64_t *out)
{
	uint64_t psz = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Page_Size, baser);
	uint64_t pa = baser & LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Physical_Address);
	uint64_t size = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Size, baser);

	if (psz == LIBVIRQ_GITS_BASER_PAGE_64K)
		pa = (pa & LIBVIRQ_GENMASK(47, 16)) |
		     (LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Physical_Address_51_48, baser) << 48);
	if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_GICR_VPROPBASER_4_1_Size, size))
		return LIBVIRQ_ERANGE;
	*out = LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Valid, 1) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Indirect,
				  LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Indirect, baser)) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size, psz) | pa |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_Shareability,
				  LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Shareability, baser)) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_InnerCache,
				  LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_InnerCache, baser)) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Size, size);
	return LIBVIRQ_OK;
}

uint64_t virq_gic_vprop41_image_(uint64_t pa, uint32_t psz_code, uint64_t ro, bool indirect,
				 uint32_t pages, bool nc)
{
	uint64_t ic = nc ? LIBVIRQ_GIC_CACHE_nC : LIBVIRQ_GIC_CACHE_RaWb;
	uint64_t sh = nc ? LIBVIRQ_GIC_SH_NONE : LIBVIRQ_GIC_SH_INNER;

	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Valid, 1) |
	       (ro & LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Entry_Size)) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Indirect, indirect ? 1 : 0) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size, psz_code) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Z, 1) |
	       (pa & LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_Physical_Address)) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_Shareability, sh) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_InnerCache, ic) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Size, pages - 1);
}
