/* SPDX-License-Identifier: MIT */
/*
 * GIC object: distributor probe, redistributor walk, LPI/vPEID limits and
 * tables, distributor enable. Per-redistributor bring-up is in rdist.c.
 * Spec: Arm IHI 0069H §12.9 (GICD), §12.10-12.11 (GICR), §5.1 (LPIs).
 */
#include "lpi_priv.h"
#include "rdist_priv.h"

/* ---------------- probe ---------------- */

/* A non-empty redistributor region's size and stride. */
static virq_status region_args_(const char *api, const struct virq_hal *hal,
				const struct virq_gic_redist_region *r)
{
	if (r->size < 0x20000u)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "redistributor region base=%x: size=%x < 0x20000 (128 KiB)",
				      r->base, r->size);
	if (r->stride & 0xFFFFu)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "redistributor region base=%x: stride=%x not a multiple of "
				      "0x10000 (64 KiB)",
				      r->base, r->stride);
	return LIBVIRQ_OK;
}

static virq_status walk_region_(const char *api, struct virq_gic *gic,
				const struct virq_gic_redist_region *r, uint32_t max_rd)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t off = 0;

	/* Firmware publishes empty regions (size 0, or no redistributor at
	 * their start): skip them with a warning, bring up the others; the
	 * caller fails only when no region holds a redistributor (as Linux's
	 * gic_iterate_rdists() warns "No redistributor present" and goes on). */
	if (r->size == 0) {
		LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_WARN, "gicr: empty (size 0) region skipped", r->base);
		return LIBVIRQ_OK;
	}
	if (region_args_(api, hal, r) != LIBVIRQ_OK)
		return LIBVIRQ_EINVAL;
	while (off + 0x20000u <= r->size) {
		uint64_t base = r->base + off;
		uint32_t arch = (uint32_t)LIBVIRQ_FIELD_GET(
		    LIBVIRQ_GIC_PIDR2_ArchRev, virq_rd32_(hal, base + LIBVIRQ_GICR_PIDR2));
		uint64_t typer, stride;

		if ((arch != 3 && arch != 4) && off == 0) {
			LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_WARN,
				     "gicr: no redistributor in region, skipped", base, arch);
			return LIBVIRQ_OK;
		}
		if (arch != 3 && arch != 4)
			return LIBVIRQ_FAILV_(
			    api, hal, LIBVIRQ_EHW,
			    "redistributor at %x: GICR_PIDR2.ArchRev=%u, not 3 or 4", base, arch);
		typer = virq_rd64_(hal, base + LIBVIRQ_GICR_TYPER);
		/* A GICv4 RD's VLPI_base frame (+0x20000) must be in the region
		 * too, or its VPROPBASER/VPENDBASER lie beyond it. */
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_VLPIS, typer) &&
		    off + LIBVIRQ_GICR_STRIDE_V4 > r->size)
			break;
		if (gic->nr_rd >= max_rd)
			return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOSPC,
					      "redistributor at %x: more than max_rd=%u", base,
					      max_rd);
		gic->rd[gic->nr_rd].rd_base = base;
		gic->rd[gic->nr_rd].typer = typer;
		gic->rd[gic->nr_rd].resident_vpe = LIBVIRQ_VPEID_NONE;
		gic->rd[gic->nr_rd].vpet_rd = LIBVIRQ_VPEID_NONE;
		gic->nr_rd++;
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Last, typer))
			return LIBVIRQ_OK;
		stride = r->stride ? r->stride
				   : (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_VLPIS, typer)
					  ? LIBVIRQ_GICR_STRIDE_V4
					  : LIBVIRQ_GICR_STRIDE_V3);
		off += stride;
	}
	/* Ran off the region without GICR_TYPER.Last: the description and the
	 * hardware disagree. Keep what was found but say so. */
	LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_WARN, "gicr: region ended without GICR_TYPER.Last", r->base);
	return LIBVIRQ_OK;
}

static enum virq_gic_version detect_version_(const struct virq_gic *gic, uint32_t arch)
{
	bool v4 = arch == 4 && LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_DVIS, gic->gicd_typer);
	bool v41 = v4;

	for (uint32_t i = 0; i < gic->nr_rd; i++) {
		v4 = v4 && LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_VLPIS, gic->rd[i].typer);
		v41 = v41 && LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_RVPEID, gic->rd[i].typer);
	}
	return v41 && v4 ? LIBVIRQ_GIC_V4_1 : v4 ? LIBVIRQ_GIC_V4_0 : LIBVIRQ_GIC_V3;
}

static void lpi_limits_(struct virq_gic *gic, uint32_t lpi_bits)
{
	uint32_t idbits =
	    (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_IDbits, gic->gicd_typer) + 1;
	uint32_t num = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_num_LPIs, gic->gicd_typer);

	gic->lpi_bits = lpi_bits < idbits ? lpi_bits : idbits;
	gic->lpi_end = 1u << gic->lpi_bits;
	/* num_LPIs != 0: only 2^(num_LPIs+1) LPIs exist (IHI 0069H §12.9.38). */
	if (num && num + 1 < 31 && LIBVIRQ_LPI_BASE + (1u << (num + 1)) < gic->lpi_end)
		gic->lpi_end = LIBVIRQ_LPI_BASE + (1u << (num + 1));
}

static void vpeid_limits_(struct virq_gic *gic)
{
	gic->vpeid_bits = 16;
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		uint32_t t2 = virq_rd32_(&gic->hal, gic->gicd_base + LIBVIRQ_GICD_TYPER2);
		uint32_t vid = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER2_VID, t2) + 1;

		/* The vPEID field is 16 bits: a larger VID is a hardware lie. */
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER2_VIL, t2) && vid < 16)
			gic->vpeid_bits = vid;
	}
}

static virq_status alloc_tables_(const char *api, struct virq_gic *gic)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t prop = round_up_(gic->lpi_end - LIBVIRQ_LPI_BASE, 4096);
	uint64_t map = round_up_((gic->lpi_end - LIBVIRQ_LPI_BASE + 7) / 8, 4096);
	uint64_t refs = round_up_((gic->lpi_end - LIBVIRQ_LPI_BASE) * sizeof(uint16_t), 4096);
	virq_status st;

	st = LIBVIRQ_PAGE_ALLOC_(api, hal, prop, 0x10000, &gic->prop, "LPI configuration table");
	if (st == LIBVIRQ_OK)
		st = LIBVIRQ_PAGE_ALLOC_(api, hal, map, 4096, &gic->lpi_map, "LPI bitmap");
	if (st == LIBVIRQ_OK)
		st = LIBVIRQ_PAGE_ALLOC_(api, hal, refs, 4096, &gic->lpi_refs, "LPI references");
	/* The vPEID allocator's page is never 0 bytes, even for a GICv4.1 with
	 * 1 or 2 vPEID bits (GICD_TYPER2.VID = 0 or 1). */
	if (st == LIBVIRQ_OK && gic->version >= LIBVIRQ_GIC_V4_0)
		st = LIBVIRQ_PAGE_ALLOC_(api, hal, vpeid_map_bytes_(gic->vpeid_bits), 4096,
					 &gic->vpeid_map, "vPEID bitmap");
	if (st != LIBVIRQ_OK) {
		virq_page_free_(hal, &gic->lpi_refs);
		virq_page_free_(hal, &gic->lpi_map);
		virq_page_free_(hal, &gic->prop);
		return st;
	}
	if (gic->version >= LIBVIRQ_GIC_V4_0)
		virq_vpeid_map_init_(gic);
	/* Every LPI starts disabled with a middle priority (RES1 set). */
	memset(gic->prop.va, 0xA2, (size_t)prop);
	return LIBVIRQ_OK;
}

/* virq_gic_init()'s checks of its arguments, before anything is touched. */
static virq_status gic_init_args_(const char *api, const struct virq_hal *hal,
				  const struct virq_gic *gic, const struct virq_gic_desc *desc,
				  const struct virq_gic_rdist *rd, uint32_t max_rd,
				  uint32_t lpi_bits)
{
	if (!gic)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "gic=NULL");
	if (!desc)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "desc=NULL");
	if (!rd)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "rd=NULL");
	if (gic->state == LIVE_)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY, "gic is live (destroy it first)");
	if (max_rd == 0)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "max_rd=0");
	if (max_rd > 65536u)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "max_rd=%u > 65536", max_rd);
	if (lpi_bits < 14)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "lpi_bits=%u < 14", lpi_bits);
	if (lpi_bits > LIBVIRQ_LPI_BITS_MAX_)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "lpi_bits=%u > %u", lpi_bits,
				      LIBVIRQ_LPI_BITS_MAX_);
	/* The GICD registers the library reads span the 64 KiB frame up to
	 * GICD_PIDR2 at 0xFFE8 (IHI 0069H §12.8, Table 12-25): a smaller
	 * region would be read outside what the description gives. */
	if (desc->gicd_size < LIBVIRQ_GIC_FRAME_SIZE)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "desc->gicd_size=%x < 0x10000 (the 64 KiB GICD frame)",
				      desc->gicd_size);
	if (desc->nr_redist_regions == 0)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "desc->nr_redist_regions=0");
	if (desc->nr_redist_regions > LIBVIRQ_GIC_MAX_REDIST_REGIONS)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "desc->nr_redist_regions=%u > %u",
				      desc->nr_redist_regions, LIBVIRQ_GIC_MAX_REDIST_REGIONS);
	return LIBVIRQ_OK;
}

/* The distributor: GICD_PIDR2.ArchRev 3 or 4 and LPIs supported. */
static virq_status gic_probe_gicd_(const char *api, struct virq_gic *gic, uint32_t *arch)
{
	const struct virq_hal *hal = &gic->hal;

	*arch = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GIC_PIDR2_ArchRev,
					    virq_rd32_(hal, gic->gicd_base + LIBVIRQ_GICD_PIDR2));
	gic->gicd_typer = virq_rd32_(hal, gic->gicd_base + LIBVIRQ_GICD_TYPER);
	if (*arch != 3 && *arch != 4)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "GICD_PIDR2.ArchRev=%u, not 3 or 4", *arch);
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_LPIS, gic->gicd_typer))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP, "GICD_TYPER=%x: LPIS=0",
				      gic->gicd_typer);
	return LIBVIRQ_OK;
}

virq_status virq_gic_init(struct virq_gic *gic, const struct virq_hal *hal,
			  const struct virq_gic_desc *desc, struct virq_gic_rdist *rd,
			  uint32_t max_rd, uint32_t lpi_bits)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t arch;
	virq_status st;

	st = virq_hal_check_(api, hal, LIBVIRQ_HAL_NEED_CORE);
	if (st == LIBVIRQ_OK)
		st = gic_init_args_(api, hal, gic, desc, rd, max_rd, lpi_bits);
	if (st != LIBVIRQ_OK)
		return st;
	memset(gic, 0, sizeof(*gic));
	memset(rd, 0, sizeof(*rd) * max_rd);
	gic->hal = *hal;
	gic->gicd_base = desc->gicd_base;
	gic->rd = rd;
	gic->timeout_ns = LIBVIRQ_GIC_DEFAULT_TIMEOUT_NS;
	gic->platform = desc->platform;
	gic->rd_forced_nc = desc->dma_noncoherent;
	st = gic_probe_gicd_(api, gic, &arch);
	for (uint32_t i = 0; st == LIBVIRQ_OK && i < desc->nr_redist_regions; i++)
		st = walk_region_(api, gic, &desc->redist[i], max_rd);
	if (st != LIBVIRQ_OK)
		return st;
	if (!gic->nr_rd)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EHW, "no redistributor in any region");
	gic->version = detect_version_(gic, arch);
	lpi_limits_(gic, lpi_bits);
	if (gic->lpi_bits < 14)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "GICD_TYPER.IDbits gives %u INTID bits < 14", gic->lpi_bits);
	vpeid_limits_(gic);
	st = alloc_tables_(api, gic);
	if (st == LIBVIRQ_OK)
		gic->state = LIVE_;
	return st;
}

virq_status virq_gic_destroy(struct virq_gic *gic)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (gic->nr_its)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EBUSY, "nr_its=%u ITSes still exist",
				      gic->nr_its);
	if (gic->nr_vms)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EBUSY, "nr_vms=%u VMs still exist",
				      gic->nr_vms);
	virq_rdist_vpe_tables_free_(gic);
	for (uint32_t i = 0; i < gic->nr_rd; i++)
		virq_page_free_(&gic->hal, &gic->rd[i].pend);
	virq_page_free_(&gic->hal, &gic->vpeid_map);
	virq_page_free_(&gic->hal, &gic->lpi_refs);
	virq_page_free_(&gic->hal, &gic->lpi_map);
	virq_page_free_(&gic->hal, &gic->prop);
	gic->state = LIBVIRQ_GICV4_GONE;
	return LIBVIRQ_OK;
}

/* ---------------- distributor ---------------- */

virq_status virq_gic_dist_enable(struct virq_gic *gic)
{
	uint64_t a;
	uint32_t v;
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	a = gic->gicd_base + LIBVIRQ_GICD_CTLR;
	v = virq_rd32_(&gic->hal, a);
	v |= (uint32_t)(LIBVIRQ_FIELD_PREP(LIBVIRQ_GICD_CTLR_ARE, 1) |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICD_CTLR_EnableGrp1, 1) |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICD_CTLR_EnableGrp0, 1));
	v &= (uint32_t)~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICD_CTLR_RWP);
	virq_wr32_(&gic->hal, a, v);
	/* GICD_CTLR.RWP is bit 31 (GICR_CTLR.RWP is bit 3: docs/rationale.md#gic-rd-bringup-order).
	 */
	st = virq_poll32(&gic->hal, a, (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICD_CTLR_RWP), 0,
			 gic->timeout_ns, NULL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &gic->hal, st,
				      "GICD_CTLR.RWP still 1 after timeout_ns=%u", gic->timeout_ns);
	return LIBVIRQ_OK;
}

virq_status virq_gic_find_rdist(const struct virq_gic *gic, uint32_t aff, uint32_t *idx)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (!idx)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_EINVAL, "idx=NULL");
	for (uint32_t i = 0; i < gic->nr_rd; i++) {
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Affinity_Value, gic->rd[i].typer) == aff) {
			*idx = i;
			return LIBVIRQ_OK;
		}
	}
	return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ENOENT,
			      "aff=%x: no redistributor's GICR_TYPER.Affinity_Value", aff);
}
