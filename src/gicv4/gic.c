/* SPDX-License-Identifier: MIT */
/*
 * GIC object: distributor probe, redistributor walk, per-RD LPI bring-up.
 * Spec: Arm IHI 0069 §12.9 (GICD), §12.10-12.11 (GICR), §5.1 (LPIs).
 */
#include "gicv4/gicv4_priv.h"

/* ---------------- probe ---------------- */

static virq_status walk_region_(struct virq_gic *gic, const struct virq_gic_redist_region *r,
				uint32_t max_rd)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t off = 0;

	if (r->size < 0x20000u || (r->stride & 0xFFFFu))
		return LIBVIRQ_EINVAL;
	while (off + 0x20000u <= r->size) {
		uint64_t base = r->base + off;
		uint32_t arch = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GIC_PIDR2_ArchRev,
							 virq_rd32_(hal, base + LIBVIRQ_GICR_PIDR2));
		uint64_t typer, stride;

		if (arch != 3 && arch != 4) {
			LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_ERROR, "gicr: bad PIDR2.ArchRev", base, arch);
			return LIBVIRQ_EHW;
		}
		typer = virq_rd64_(hal, base + LIBVIRQ_GICR_TYPER);
		/* A GICv4 RD's VLPI_base frame (+0x20000) must be in the region
		 * too, or its VPROPBASER/VPENDBASER lie beyond it. */
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_VLPIS, typer) &&
		    off + LIBVIRQ_GICR_STRIDE_V4 > r->size)
			break;
		if (gic->nr_rd >= max_rd)
			return LIBVIRQ_ENOSPC;
		gic->rd[gic->nr_rd].rd_base = base;
		gic->rd[gic->nr_rd].typer = typer;
		gic->rd[gic->nr_rd].resident_vpe = LIBVIRQ_VPEID_NONE;
		gic->nr_rd++;
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Last, typer))
			return LIBVIRQ_OK;
		stride = r->stride
			     ? r->stride
			     : (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_VLPIS, typer) ? LIBVIRQ_GICR_STRIDE_V4
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
	uint32_t idbits = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_IDbits, gic->gicd_typer) + 1;
	uint32_t num = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_num_LPIs, gic->gicd_typer);

	gic->lpi_bits = lpi_bits < idbits ? lpi_bits : idbits;
	gic->lpi_end = 1u << gic->lpi_bits;
	/* num_LPIs != 0: only 2^(num_LPIs+1) LPIs exist (IHI 0069 §12.9.38). */
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

static virq_status alloc_tables_(struct virq_gic *gic)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t prop = round_up_(gic->lpi_end - LIBVIRQ_LPI_BASE, 4096);
	uint64_t map = round_up_((gic->lpi_end - LIBVIRQ_LPI_BASE + 7) / 8, 4096);
	virq_status st;

	st = virq_page_alloc_(hal, prop, 0x10000, &gic->prop);
	if (st == LIBVIRQ_OK)
		st = virq_page_alloc_(hal, map, 4096, &gic->lpi_map);
	if (st == LIBVIRQ_OK && gic->version >= LIBVIRQ_GIC_V4_0)
		st = virq_page_alloc_(hal, round_up_((1u << gic->vpeid_bits) / 8, 4096), 4096,
				      &gic->vpeid_map);
	if (st != LIBVIRQ_OK) {
		virq_page_free_(hal, &gic->lpi_map);
		virq_page_free_(hal, &gic->prop);
		return st;
	}
	/* Every LPI starts disabled with a middle priority (RES1 set). */
	memset(gic->prop.va, 0xA2, (size_t)prop);
	return LIBVIRQ_OK;
}

virq_status virq_gic_init(struct virq_gic *gic, const struct virq_hal *hal,
			  const struct virq_gic_desc *desc, struct virq_gic_rdist *rd,
			  uint32_t max_rd, uint32_t lpi_bits)
{
	uint32_t arch;
	virq_status st;

	if (!gic || !desc || !rd || !max_rd || max_rd > 65536u || lpi_bits < 14 || lpi_bits > 16 ||
	    !desc->nr_redist_regions || desc->nr_redist_regions > LIBVIRQ_GIC_MAX_REDIST_REGIONS)
		return LIBVIRQ_EINVAL;
	st = virq_hal_validate(hal, LIBVIRQ_HAL_NEED_CORE);
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
	arch = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GIC_PIDR2_ArchRev,
					virq_rd32_(hal, gic->gicd_base + LIBVIRQ_GICD_PIDR2));
	gic->gicd_typer = virq_rd32_(hal, gic->gicd_base + LIBVIRQ_GICD_TYPER);
	if ((arch != 3 && arch != 4) || !LIBVIRQ_FIELD_GET(LIBVIRQ_GICD_TYPER_LPIS, gic->gicd_typer))
		return LIBVIRQ_ENOTSUP;
	for (uint32_t i = 0; i < desc->nr_redist_regions; i++) {
		st = walk_region_(gic, &desc->redist[i], max_rd);
		if (st != LIBVIRQ_OK)
			return st;
	}
	if (!gic->nr_rd)
		return LIBVIRQ_EHW;
	gic->version = detect_version_(gic, arch);
	lpi_limits_(gic, lpi_bits);
	if (gic->lpi_bits < 14)
		return LIBVIRQ_ENOTSUP;
	vpeid_limits_(gic);
	return alloc_tables_(gic);
}

void virq_gic_destroy(struct virq_gic *gic)
{
	if (!gic || !gic->hal.ops)
		return;
	for (uint32_t i = 0; i < gic->nr_rd; i++)
		virq_page_free_(&gic->hal, &gic->rd[i].pend);
	virq_page_free_(&gic->hal, &gic->vpeid_map);
	virq_page_free_(&gic->hal, &gic->lpi_map);
	virq_page_free_(&gic->hal, &gic->prop);
}

const char *virq_gic_version_name(enum virq_gic_version v)
{
	switch (v) {
	case LIBVIRQ_GIC_V3:
		return "GICv3";
	case LIBVIRQ_GIC_V4_0:
		return "GICv4.0";
	case LIBVIRQ_GIC_V4_1:
		return "GICv4.1";
	}
	return "?";
}

/* ---------------- distributor ---------------- */

virq_status virq_gic_dist_enable(struct virq_gic *gic)
{
	uint64_t a;
	uint32_t v;

	if (!gic || !gic->hal.ops)
		return LIBVIRQ_EINVAL;
	a = gic->gicd_base + LIBVIRQ_GICD_CTLR;
	v = virq_rd32_(&gic->hal, a);
	v |= (uint32_t)(LIBVIRQ_FIELD_PREP(LIBVIRQ_GICD_CTLR_ARE, 1) |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICD_CTLR_EnableGrp1, 1) |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICD_CTLR_EnableGrp0, 1));
	v &= (uint32_t)~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICD_CTLR_RWP);
	virq_wr32_(&gic->hal, a, v);
	/* GICD_CTLR.RWP is bit 31 (GICR_CTLR.RWP is bit 3:
	 * docs/rationale.md#gic-rd-bringup-order). */
	return virq_poll32(&gic->hal, a, (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICD_CTLR_RWP), 0,
			   gic->timeout_ns, NULL);
}

virq_status virq_gic_find_rdist(const struct virq_gic *gic, uint32_t aff, uint32_t *idx)
{
	if (!gic || !idx)
		return LIBVIRQ_EINVAL;
	for (uint32_t i = 0; i < gic->nr_rd; i++) {
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Affinity_Value, gic->rd[i].typer) == aff) {
			*idx = i;
			return LIBVIRQ_OK;
		}
	}
	return LIBVIRQ_ENOENT;
}

/* ---------------- redistributor LPI bring-up ---------------- */

static virq_status rd_wait_rwp_(struct virq_gic *gic, uint32_t idx, uint32_t want_ctlr_mask,
				uint32_t want)
{
	return virq_poll32(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR),
			   (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_RWP) | want_ctlr_mask, want,
			   gic->timeout_ns, NULL);
}

static virq_status rd_lpis_off_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR);
	uint32_t ctlr = virq_rd32_(&gic->hal, a);
	uint32_t en = (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_EnableLPIs);
	virq_status st;

	if (!(ctlr & en))
		return LIBVIRQ_OK;
	/* Left enabled by a previous kernel (kexec). Clearing is IMPLEMENTATION
	 * DEFINED (IHI 0069 §12.11.2); wait for RWP (bit 3) and check. */
	virq_wr32_(&gic->hal, a, ctlr & ~en);
	st = rd_wait_rwp_(gic, idx, 0, 0);
	if (st != LIBVIRQ_OK)
		return st;
	if (virq_rd32_(&gic->hal, a) & en) {
		LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "gicr: EnableLPIs stuck at 1", idx);
		return LIBVIRQ_EBUSY;
	}
	return LIBVIRQ_OK;
}

static virq_status rd_wake_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_WAKER);
	uint32_t w = virq_rd32_(&gic->hal, a);

	virq_wr32_(&gic->hal, a, w & (uint32_t)~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ProcessorSleep));
	/* A real bounded poll (Xen's loop ran once: docs/rationale.md#gic-rd-bringup-order). */
	return virq_poll32(&gic->hal, a, (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ChildrenAsleep),
			   0, gic->timeout_ns, NULL);
}

/* Writes @want to a GICR *BASER with IC/Sh/OC at [9:7]/[11:10]/[58:56] and
 * adapts to what stuck (docs/rationale.md#gic-table-attributes). Returns the
 * final value in *out and whether the table needs cleaning in *nc. */
static virq_status rd_baser_negotiate_(struct virq_gic *gic, uint64_t addr, uint64_t want,
				       uint64_t pa_mask, uint64_t *out, bool *nc)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t rb, sh, ic;

	if (gic->rd_forced_nc) {
		want = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_Shareability, want, LIBVIRQ_GIC_SH_NONE);
		want = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_InnerCache, want, LIBVIRQ_GIC_CACHE_nC);
		want = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_OuterCache, want, 0);
	}
	virq_wr64_(hal, addr, want);
	rb = virq_rd64_(hal, addr);
	if ((rb & pa_mask) != (want & pa_mask))
		return LIBVIRQ_EHW;
	sh = LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_Shareability, rb);
	ic = LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb);
	if (!gic->rd_forced_nc && sh == LIBVIRQ_GIC_SH_NONE && ic != LIBVIRQ_GIC_CACHE_nC) {
		/* Not shareable: make it non-cacheable too; only InnerCache changes.
		 * PENDBASER.PTZ is write-only (reads as 0): keep what was written
		 * (bit 62 is RES0 in PROPBASER, and @want has it clear there). */
		rb = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb, LIBVIRQ_GIC_CACHE_nC) |
		     (want & LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PENDBASER_PTZ));
		virq_wr64_(hal, addr, rb);
		rb = virq_rd64_(hal, addr);
		ic = LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb);
	}
	*out = rb;
	*nc = gic->rd_forced_nc || attr_noncoherent_(sh, ic);
	return LIBVIRQ_OK;
}

static uint64_t rd_attr_default_(void)
{
	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_InnerCache, LIBVIRQ_GIC_CACHE_RaWaWb) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_Shareability, LIBVIRQ_GIC_SH_INNER);
}

static virq_status rd_prop_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t want = gic->prop.pa |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_IDbits, gic->lpi_bits - 1) |
			rd_attr_default_();
	bool nc = false;
	virq_status st;

	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PROPBASER_Physical_Address, gic->prop.pa))
		return LIBVIRQ_EALIGN;
	st = rd_baser_negotiate_(gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PROPBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_Physical_Address) |
				     LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_IDbits),
				 &gic->propbaser, &nc);
	if (st != LIBVIRQ_OK)
		return st;
	if (nc && !gic->rd_noncoherent) {
		gic->rd_noncoherent = true;
		st = clean_if_(&gic->hal, true, gic->prop.va, gic->prop.size);
	}
	return st;
}

static virq_status rd_pend_(struct virq_gic *gic, uint32_t idx)
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t size = round_up_((1ull << gic->lpi_bits) / 8, 0x10000);
	uint64_t want, got;
	bool nc = false;
	virq_status st;

	if (!r->pend.va) {
		st = virq_page_alloc_(&gic->hal, size, 0x10000, &r->pend);
		if (st != LIBVIRQ_OK)
			return st;
	} else {
		memset(r->pend.va, 0, r->pend.size);
	}
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PENDBASER_Physical_Address, r->pend.pa)) {
		st = LIBVIRQ_EALIGN;
		goto fail;
	}
	want = r->pend.pa | rd_attr_default_() | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PENDBASER_PTZ, 1);
	st = rd_baser_negotiate_(gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PENDBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PENDBASER_Physical_Address), &got, &nc);
	if (st == LIBVIRQ_OK && nc) {
		gic->rd_noncoherent = true;
		st = clean_if_(&gic->hal, true, r->pend.va, r->pend.size);
	}
	if (st == LIBVIRQ_OK)
		return LIBVIRQ_OK;
fail:
	virq_page_free_(&gic->hal, &r->pend);
	return st;
}

virq_status virq_gic_rdist_init(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a;
	uint32_t en = (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_EnableLPIs);
	virq_status st;

	if (!gic || !gic->hal.ops || idx >= gic->nr_rd || (gic->rd[idx].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_EINVAL;
	/* (1) Residency registers first, so a kexec'd RD with LPIs left on
	 * still gets them (docs/rationale.md#gic-vpe-residency-init). */
	if (gic->version >= LIBVIRQ_GIC_V4_0) {
		st = virq_rdist_vpe_reset_(gic, idx);
		if (st != LIBVIRQ_OK)
			return st;
	}
	st = rd_lpis_off_(gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_wake_(gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_prop_(gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_pend_(gic, idx);
	if (st != LIBVIRQ_OK)
		return st;
	/* (5) Tables visible before EnableLPIs; EnableLPIs visible (RWP clear)
	 * before any MAPC names this RD (docs/rationale.md#gic-rd-bringup-order). */
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_DMA_WMB);
	a = rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR);
	virq_wr32_(&gic->hal, a, virq_rd32_(&gic->hal, a) | en);
	st = rd_wait_rwp_(gic, idx, en, en);
	if (st != LIBVIRQ_OK) /* the pending table stays allocated: the RD may use it */
		return st;
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_FULL);
	gic->rd[idx].flags |= LIBVIRQ_RDIST_LPIS_ON;
	return LIBVIRQ_OK;
}
