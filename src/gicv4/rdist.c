/* SPDX-License-Identifier: MIT */
/*
 * Redistributor bring-up, all in one place: the vPE residency registers'
 * reset (docs/rationale.md#gic-vpe-residency-init: even when a previous kernel left LPIs on), EnableLPIs off
 * with RWP on bit 3 (docs/rationale.md#gic-rd-bringup-order), wake (GICR_WAKER), GICR_PROPBASER /
 * GICR_PENDBASER with attribute negotiation (docs/rationale.md#gic-table-attributes), EnableLPIs on and
 * visible before any MAPC; on GICv4.1 the redistributors' view of the vPE
 * table (GICR_VPROPBASER, 4.1 layout).
 * Spec: Arm IHI 0069 §5.1, §12.11 (GICR_CTLR, GICR_WAKER, GICR_PROPBASER,
 * GICR_PENDBASER, GICR_VPROPBASER, GICR_VPENDBASER).
 */
#include "gicv4/enc/images.h"
#include "gicv4/rdist_priv.h"

#define VPEND_DIRTY LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Dirty)
#define VPEND_VALID LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Valid)
#define VPEND_PL LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_PendingLast)

static uint64_t vpend_addr_(const struct virq_gic *gic, uint32_t rd)
{
	return rd_addr_(gic, rd, LIBVIRQ_GICR_VPENDBASER);
}

/* Polls VPENDBASER until Dirty = 0. */
static virq_status dirty_wait_(struct virq_gic *gic, uint32_t rd)
{
	return virq_poll64(&gic->hal, vpend_addr_(gic, rd), VPEND_DIRTY, 0, gic->timeout_ns, NULL);
}

/* ---------------- GICv4.1: the RD's view of the vPE table ----------------
 *
 * The RD uses the same memory as a GICv4.1 ITS's vPE table (GITS_BASER of
 * type vPEs), so a level-2 page installed for the ITS is seen by every RD
 * (IHI 0069 §12.11 GICR_VPROPBASER, 4.1 layout; Linux
 * inherit_vpe_l1_table_from_its). */
static virq_status vpe_table_41_(struct virq_gic *gic, uint32_t idx)
{
	const struct virq_its *its = NULL;
	uint64_t v;
	virq_status st;

	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS && !its; i++)
		if (gic->its[i] && gic->its[i]->lim.version == LIBVIRQ_ITS_V41 &&
		    gic->its[i]->tbl[LIBVIRQ_ITS_TBL_VPE].baser)
			its = gic->its[i];
	if (!its || !(gic->rd[idx].flags & LIBVIRQ_RDIST_VPE_READY))
		return LIBVIRQ_OK; /* done when the first 4.1 ITS comes up */
	st = virq_gic_vprop41_from_baser_(its->tbl[LIBVIRQ_ITS_TBL_VPE].baser, &v);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&gic->hal, st,
				     "virq_gic_rdist_init/virq_its_init: vPE table too large for "
				     "GICR_VPROPBASER.Size",
				     its->tbl[LIBVIRQ_ITS_TBL_VPE].baser);
	virq_wr64_(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), v);
	gic->rd[idx].vprop_cache = v;
	return LIBVIRQ_OK;
}

virq_status virq_rdist_vpe_tables_attach_(struct virq_gic *gic)
{
	virq_status st = LIBVIRQ_OK;

	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		if (!gic->rd[r].vprop_cache)
			st = vpe_table_41_(gic, r);
	return st;
}

void virq_rdist_vpe_tables_detach_(struct virq_gic *gic, const struct virq_its *its)
{
	uint64_t pa = its->tbl[LIBVIRQ_ITS_TBL_VPE].l1.pa;

	if (its->lim.version != LIBVIRQ_ITS_V41 || !pa)
		return;
	for (uint32_t r = 0; r < gic->nr_rd; r++) {
		struct virq_gic_rdist *rd = &gic->rd[r];
		virq_status st;

		if (!rd->vprop_cache ||
		    (rd->vprop_cache & LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_Physical_Address)) !=
			pa)
			continue;
		virq_wr64_(&gic->hal, rd->rd_base + LIBVIRQ_GICR_VPROPBASER, 0);
		rd->vprop_cache = 0;
		st = vpe_table_41_(gic, r); /* the caller unregistered @its first */
		(void)st; /* a failure leaves VPROPBASER invalid: no 4.1 vPE runs there */
	}
}

/* ---------------- residency registers (docs/rationale.md#gic-vpe-residency-init) ---------------- */

static virq_status vpe_reset_(struct virq_gic *gic, uint32_t idx)
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t va = vpend_addr_(gic, idx);
	uint64_t v = virq_rd64_(&gic->hal, va);

	if (v & VPEND_VALID) {
		/* A stale resident vPE (kexec, docs/rationale.md#gic-vpe-residency-init): clear Valid and wait for
		 * the VPT parse to finish. On 4.1 write PendingLast only. */
		uint64_t w =
		    gic->version == LIBVIRQ_GIC_V4_1 ? VPEND_PL : (v & ~(VPEND_VALID | VPEND_DIRTY));

		virq_status st;

		virq_wr64_(&gic->hal, va, w);
		st = dirty_wait_(gic, idx);
		if (st != LIBVIRQ_OK) {
			LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "gicr: VPENDBASER.Dirty stuck", idx);
			return LIBVIRQ_FAILV(&gic->hal, st,
					     "virq_gic_rdist_init: stale VPENDBASER.Valid cleared, "
					     "Dirty never cleared",
					     idx);
		}
	}
	r->vpend = 0;
	r->resident_vpe = LIBVIRQ_VPEID_NONE;
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		uint64_t pa = rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER);

		if (virq_rd64_(&gic->hal, pa) & LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Valid))
			virq_wr64_(&gic->hal, pa, 0);
		r->vprop_cache = 0;
		r->flags |= LIBVIRQ_RDIST_VPE_READY;
		/* Share the vPE table of an already initialised GICv4.1 ITS. */
		return vpe_table_41_(gic, idx);
	} else {
		/* 4.0: IDbits must cover every vINTID before the first schedule,
		 * or vLPIs sent here are dropped (docs/rationale.md#gic-vpe-residency-init). */
		r->vprop_cache = LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_IDbits, gic->lpi_bits - 1);
		virq_wr64_(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), r->vprop_cache);
	}
	r->flags |= LIBVIRQ_RDIST_VPE_READY;
	return LIBVIRQ_OK;
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
		return LIBVIRQ_FAILV(&gic->hal, st,
				     "virq_gic_rdist_init: GICR_CTLR.RWP stayed set after clearing "
				     "EnableLPIs",
				     idx);
	if (virq_rd32_(&gic->hal, a) & en) {
		LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "gicr: EnableLPIs stuck at 1", idx);
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EBUSY,
				     "virq_gic_rdist_init: EnableLPIs left on by a previous kernel "
				     "does not clear",
				     idx);
	}
	return LIBVIRQ_OK;
}

static virq_status rd_wake_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_WAKER);
	uint32_t w = virq_rd32_(&gic->hal, a);

	virq_wr32_(&gic->hal, a, w & (uint32_t)~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ProcessorSleep));
	/* A real bounded poll (docs/rationale.md#gic-rd-bringup-order: Xen's loop ran once). */
	if (virq_poll32(&gic->hal, a, (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ChildrenAsleep),
			0, gic->timeout_ns, NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_ETIMEDOUT,
				     "virq_gic_rdist_init: GICR_WAKER.ChildrenAsleep stayed set", idx);
	return LIBVIRQ_OK;
}

/* Writes @want to a GICR *BASER with IC/Sh/OC at [9:7]/[11:10]/[58:56] and
 * adapts to what stuck (docs/rationale.md#gic-table-attributes). Returns the final value in *out and
 * whether the table needs cleaning in *nc. */
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
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EHW,
				     "virq_gic_rdist_init: PROPBASER/PENDBASER address or IDbits did "
				     "not stick",
				     addr, want, rb);
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
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EALIGN,
				     "virq_gic_rdist_init: configuration table PA does not fit "
				     "GICR_PROPBASER",
				     gic->prop.pa);
	st = rd_baser_negotiate_(gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PROPBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_Physical_Address) |
				     LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_IDbits),
				 &gic->propbaser, &nc);
	if (st != LIBVIRQ_OK)
		return st;
	if (nc && !gic->rd_noncoherent) {
		gic->rd_noncoherent = true;
		if (clean_if_(&gic->hal, true, gic->prop.va, gic->prop.size) != LIBVIRQ_OK)
			return LIBVIRQ_FAIL(&gic->hal, LIBVIRQ_ENOHAL,
					    "virq_gic_rdist_init: tables not coherent and the HAL "
					    "has no dcache_clean");
	}
	return LIBVIRQ_OK;
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
			return LIBVIRQ_FAILV(&gic->hal, st,
					     "virq_gic_rdist_init: pending table allocation failed",
					     idx);
	} else {
		memset(r->pend.va, 0, r->pend.size);
	}
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PENDBASER_Physical_Address, r->pend.pa)) {
		st = LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EALIGN,
				   "virq_gic_rdist_init: pending table PA does not fit "
				   "GICR_PENDBASER",
				   r->pend.pa);
		goto fail;
	}
	want = r->pend.pa | rd_attr_default_() | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PENDBASER_PTZ, 1);
	st = rd_baser_negotiate_(gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PENDBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PENDBASER_Physical_Address), &got, &nc);
	if (st == LIBVIRQ_OK && nc) {
		gic->rd_noncoherent = true;
		if (clean_if_(&gic->hal, true, r->pend.va, r->pend.size) != LIBVIRQ_OK)
			st = LIBVIRQ_FAIL(&gic->hal, LIBVIRQ_ENOHAL,
					  "virq_gic_rdist_init: tables not coherent and the HAL has "
					  "no dcache_clean");
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

	if (!gic_live_(gic))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_gic_rdist_init: gic not live");
	if (idx >= gic->nr_rd)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EINVAL,
				     "virq_gic_rdist_init: redistributor index >= nr_rd", idx);
	if (gic->rd[idx].flags & LIBVIRQ_RDIST_LPIS_ON)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EINVAL,
				     "virq_gic_rdist_init: redistributor already initialised", idx);
	/* (1) Residency registers first, so a kexec'd RD with LPIs left on
	 * still gets them (docs/rationale.md#gic-vpe-residency-init). */
	if (gic->version >= LIBVIRQ_GIC_V4_0) {
		st = vpe_reset_(gic, idx);
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
		return LIBVIRQ_FAILV(&gic->hal, st,
				     "virq_gic_rdist_init: EnableLPIs not visible (RWP set or "
				     "EnableLPIs reads 0)",
				     idx);
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_FULL);
	gic->rd[idx].flags |= LIBVIRQ_RDIST_LPIS_ON;
	return LIBVIRQ_OK;
}

virq_status virq_rdist_vpe_entry_ensure_(struct virq_gic *gic, uint32_t vpeid)
{
	(void)gic;
	(void)vpeid;
	return LIBVIRQ_OK; /* redistributors share an ITS's table (see vpe_table_41_()) */
}
