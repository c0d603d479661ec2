/* SPDX-License-Identifier: MIT */
/*
 * Pure register-value functions of the GICv4 module: GITS_CBASER encoding,
 * the memory-attribute rule, version names, the ITS errata table lookup.
 * No I/O, no state; includes only public headers and bitfield.h.
 * Spec: Arm IHI 0069H §12.19 (GITS_CBASER, GITS_BASER<n>, GITS_IIDR).
 */
#include <libvirq/bitfield.h>
#include <libvirq/gicv4/gic.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/its_queue.h>
#include <libvirq/gicv4/its_regs.h>

/* ---- GITS_CBASER ---- */
virq_status virq_its_cbaser_encode(uint64_t pa, uint64_t size, uint32_t inner, uint32_t outer,
				   uint32_t sh, uint64_t *out)
{
	if (!out)
		return LIBVIRQ_EINVAL;
	if ((pa & 0xFFF) || (size & 0xFFF))
		return LIBVIRQ_EALIGN;
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GITS_CBASER_Physical_Address, pa) ||
	    size < LIBVIRQ_ITS_QUEUE_MIN_BYTES || size > LIBVIRQ_ITS_QUEUE_MAX_BYTES ||
	    !LIBVIRQ_FIELD_FITS(LIBVIRQ_GITS_CBASER_InnerCache, inner) ||
	    !LIBVIRQ_FIELD_FITS(LIBVIRQ_GITS_CBASER_OuterCache, outer) ||
	    !LIBVIRQ_FIELD_FITS(LIBVIRQ_GITS_CBASER_Shareability, sh))
		return LIBVIRQ_ERANGE;
	*out = LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_Valid, 1) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_InnerCache, inner) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_OuterCache, outer) | pa |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_Shareability, sh) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_Size, size / 4096 - 1);
	return LIBVIRQ_OK;
}

/* ---- GITS_SGIR ---- */
virq_status virq_gits_sgir_encode(uint32_t vpeid, uint32_t vintid, uint64_t *out)
{
	if (!out)
		return LIBVIRQ_EINVAL;
	if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_GITS_SGIR_vPEID, vpeid) ||
	    !LIBVIRQ_FIELD_FITS(LIBVIRQ_GITS_SGIR_vINTID, vintid))
		return LIBVIRQ_ERANGE;
	*out = LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_SGIR_vPEID, vpeid) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_SGIR_vINTID, vintid);
	return LIBVIRQ_OK;
}

/* ---- memory attributes ---- */
bool virq_gic_attr_needs_clean(uint64_t inner_cache, uint64_t shareability)
{
	return inner_cache <= LIBVIRQ_GIC_CACHE_nC || inner_cache > LIBVIRQ_GIC_CACHE_RaWaWb ||
	       shareability == LIBVIRQ_GIC_SH_NONE;
}

/* ---- names ---- */
const char *virq_gic_version_name(enum virq_gic_version v)
{
	switch (v) {
	case LIBVIRQ_GIC_V3:
		return "GICv3";
	case LIBVIRQ_GIC_V4_0:
		return "GICv4.0";
	case LIBVIRQ_GIC_V4_1:
		return "GICv4.1";
	default:
		return "?";
	}
}
