/* SPDX-License-Identifier: MIT */
/*
 * vPE residency: GICR_VPROPBASER / GICR_VPENDBASER in the GICv4.0 and
 * GICv4.1 layouts, bounded Dirty polling, PendingLast reporting, and the
 * WFI/doorbell state machine (docs/rationale.md#gic-doorbell-wfi).
 * Spec: Arm IHI 0069 §9 (GICv4), §12.11 GICR_VPROPBASER / GICR_VPENDBASER.
 */
#include <libvirq/gicv4/vpe.h>
#include "gicv4/its_priv.h"
#include "gicv4/gicv4_priv.h"
#include "gicv4/vpe_priv.h"

#define VPEND_DIRTY LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Dirty)
#define VPEND_VALID LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Valid)
#define VPEND_PL LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_PendingLast)

static uint64_t vpend_addr_(const struct virq_gic *gic, uint32_t rd)
{
	return rd_addr_(gic, rd, LIBVIRQ_GICR_VPENDBASER);
}

/* Polls VPENDBASER until Dirty = 0; *last gets the final value. */
static virq_status dirty_wait_(struct virq_gic *gic, uint32_t rd, uint64_t *last)
{
	return virq_poll64(&gic->hal, vpend_addr_(gic, rd), VPEND_DIRTY, 0, gic->timeout_ns, last);
}

virq_status virq_rdist_vpe_reset_(struct virq_gic *gic, uint32_t idx)
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t va = vpend_addr_(gic, idx);
	uint64_t v = virq_rd64_(&gic->hal, va);

	if (v & VPEND_VALID) {
		/* A stale resident vPE (kexec, docs/rationale.md#gic-vpe-residency-init):
		 * clear Valid and wait for the VPT parse to finish. On 4.1 write
		 * PendingLast only. */
		uint64_t w =
		    gic->version == LIBVIRQ_GIC_V4_1 ? VPEND_PL : (v & ~(VPEND_VALID | VPEND_DIRTY));

		virq_status st;

		virq_wr64_(&gic->hal, va, w);
		st = dirty_wait_(gic, idx, NULL);
		if (st != LIBVIRQ_OK) {
			LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "gicr: VPENDBASER.Dirty stuck", idx);
			return st;
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
		return virq_rdist_vpe_table_41_(gic, idx);
	} else {
		/* 4.0: IDbits must cover every vINTID before the first schedule,
		 * or vLPIs sent here are dropped (docs/rationale.md#gic-vpe-residency-init). */
		r->vprop_cache = LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_IDbits, gic->lpi_bits - 1);
		virq_wr64_(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), r->vprop_cache);
	}
	r->flags |= LIBVIRQ_RDIST_VPE_READY;
	return LIBVIRQ_OK;
}

/* ---------------- make resident ---------------- */

static uint64_t vprop_value_(const struct virq_vpe *vpe)
{
	const struct virq_gic_vm *vm = vpe->vm;
	uint64_t ic = vm->gic->rd_noncoherent ? LIBVIRQ_GIC_CACHE_nC : LIBVIRQ_GIC_CACHE_RaWb;
	uint64_t sh = vm->gic->rd_noncoherent ? LIBVIRQ_GIC_SH_NONE : LIBVIRQ_GIC_SH_INNER;

	return vm->vprop.pa | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_IDbits, vm->id_bits - 1) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_InnerCache, ic) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_Shareability, sh);
}

static uint64_t vpend40_value_(const struct virq_vpe *vpe)
{
	const struct virq_gic *gic = vpe->vm->gic;
	uint64_t ic = gic->rd_noncoherent ? LIBVIRQ_GIC_CACHE_nC : LIBVIRQ_GIC_CACHE_RaWaWb;
	uint64_t sh = gic->rd_noncoherent ? LIBVIRQ_GIC_SH_NONE : LIBVIRQ_GIC_SH_INNER;

	/* PendingLast = 1: the VPT may hold pending vLPIs, scan it (Linux
	 * its_vpe_schedule); IDAI as saved at the last descheduling. */
	return vpe->vpt.pa | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_InnerCache, ic) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_Shareability, sh) | VPEND_PL |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_IDAI, (vpe->flags & LIBVIRQ_VPE_IDAI) ? 1 : 0) |
	       VPEND_VALID;
}

static uint64_t vpend41_value_(const struct virq_vpe *vpe)
{
	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_vPEID, vpe->vpeid) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_VGrp1En, vpe->vgrp1 ? 1 : 0) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_VGrp0En, vpe->vgrp0 ? 1 : 0) | VPEND_VALID;
}

virq_status virq_vpe_make_resident(struct virq_vpe *vpe, uint32_t rd)
{
	struct virq_gic *gic;
	struct virq_gic_rdist *r;
	uint64_t v;
	virq_status st;

	if (!vpe || !vpe->vm || !(vpe->flags & LIBVIRQ_VPE_MAPPED))
		return LIBVIRQ_EINVAL;
	gic = vpe->vm->gic;
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_EDEAD;
	if (rd >= gic->nr_rd || !(gic->rd[rd].flags & LIBVIRQ_RDIST_VPE_READY) || rd != vpe->rd)
		return LIBVIRQ_EINVAL;
	/* A half-done VMOVP: some ITS may still route this vPE's vLPIs to the
	 * old RD, where nobody would take them. Only once every ITS agrees on
	 * vpe->rd (the flag clear) may the vPE become resident there. */
	if (vpe->flags & (LIBVIRQ_VPE_RESIDENT | LIBVIRQ_VPE_MOVE_PENDING))
		return LIBVIRQ_EBUSY;
	r = &gic->rd[rd];
	if (r->resident_vpe != LIBVIRQ_VPEID_NONE)
		return LIBVIRQ_EBUSY;
	st = virq_vpe_db_request_(vpe, false);
	if (st != LIBVIRQ_OK)
		return st;
	/* Table writes (vLPI config bytes, VPT) before the GIC may parse them,
	 * like the barrier Linux's writeq() carries. */
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_DMA_WMB);
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		v = vpend41_value_(vpe);
	} else {
		uint64_t p = vprop_value_(vpe);

		/* Skip the VPROPBASER write when this VM's table is already there. */
		if (r->vprop_cache != p) {
			virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_VPROPBASER), p);
			r->vprop_cache = p;
		}
		v = vpend40_value_(vpe);
	}
	virq_wr64_(&gic->hal, vpend_addr_(gic, rd), v);
	r->vpend = v;
	r->resident_vpe = vpe->vpeid;
	vpe->flags |= LIBVIRQ_VPE_RESIDENT;
	vpe->resident_rd = rd;
	/* Commit: wait for the VPT parse only where Dirty is implemented. */
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Dirty, r->typer))
		return dirty_wait_(gic, rd, NULL);
	return LIBVIRQ_OK;
}

/* ---------------- make non-resident ----------------
 *
 * Why no vLPI is lost (ordering argument):
 * - A vLPI that arrives while the vPE is resident is delivered to the
 *   guest. One that arrives after Valid = 0 is written to the VPT by the
 *   GIC and, if its doorbell is enabled, raises the doorbell LPI.
 * - The Valid 1 -> 0 write and the read of PendingLast (after Dirty = 0)
 *   cover the window: PendingLast = 1 means an enabled vLPI was pending at
 *   descheduling, so the caller keeps the vCPU runnable instead of blocking.
 * - GICv4.1: with DB = 1 and PendingLast = 0 the GIC guarantees a doorbell
 *   for any later vLPI (docs/rationale.md#gic-vpe-residency-sequence); without
 *   DB we report PendingLast = 1 (the GIC does not tell), so a caller never
 *   blocks on an unknown state.
 * - GICv4.0 with doorbell masking: the doorbell is unmasked only after
 *   Valid = 0. A doorbell raised while it was still masked stays pending
 *   in the LPI pending table and is taken once the INV makes it enabled, so
 *   it is late, never lost. Without masking it is always enabled.
 * - The doorbell is requested exactly when the vCPU blocks (IN_WFI), and a
 *   vPE in WFI is never made resident by a load (docs/rationale.md#gic-doorbell-wfi),
 *   so a preempted blocker keeps its doorbell.
 */

virq_status virq_vpe_make_nonresident(struct virq_vpe *vpe, bool doorbell, bool *pending_last)
{
	struct virq_gic *gic;
	struct virq_gic_rdist *r;
	uint64_t w, last = 0;
	virq_status st;

	if (!vpe || !vpe->vm || !(vpe->flags & LIBVIRQ_VPE_RESIDENT))
		return LIBVIRQ_EINVAL;
	gic = vpe->vm->gic;
	r = &gic->rd[vpe->resident_rd];
	if (gic->version == LIBVIRQ_GIC_V4_1)
		w = doorbell ? LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPENDBASER_4_1_DB, 1) : VPEND_PL;
	else
		w = r->vpend & ~(VPEND_VALID | VPEND_DIRTY | VPEND_PL);
	virq_wr64_(&gic->hal, vpend_addr_(gic, vpe->resident_rd), w);
	st = dirty_wait_(gic, vpe->resident_rd, &last);
	r->vpend = w;
	r->resident_vpe = LIBVIRQ_VPEID_NONE;
	vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_RESIDENT;
	/* PendingLast is meaningful once Dirty is 0; if Dirty stays set,
	 * assume something is pending (Linux does the same). On 4.1 without
	 * a doorbell request the GIC does not report it: assume pending. */
	if (st != LIBVIRQ_OK || (gic->version == LIBVIRQ_GIC_V4_1 && !doorbell) || (last & VPEND_PL))
		vpe->flags |= LIBVIRQ_VPE_PENDING_LAST;
	else
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_PENDING_LAST;
	if (gic->version != LIBVIRQ_GIC_V4_1) {
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPENDBASER_IDAI, last))
			vpe->flags |= LIBVIRQ_VPE_IDAI;
		else
			vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_IDAI;
	}
	if (pending_last)
		*pending_last = (vpe->flags & LIBVIRQ_VPE_PENDING_LAST) != 0;
	if (st != LIBVIRQ_OK) {
		LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "vpe: VPENDBASER.Dirty stuck", vpe->vpeid);
		return st;
	}
	return virq_vpe_db_request_(vpe, doorbell);
}

/* ---------------- WFI state machine (docs/rationale.md#gic-doorbell-wfi) ---------------- */

virq_status virq_vpe_wfi_enter(struct virq_vpe *vpe)
{
	if (!vpe || !vpe->vm)
		return LIBVIRQ_EINVAL;
	vpe->flags |= LIBVIRQ_VPE_IN_WFI;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_wfi_exit(struct virq_vpe *vpe)
{
	if (!vpe || !vpe->vm)
		return LIBVIRQ_EINVAL;
	vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_IN_WFI;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_load(struct virq_vpe *vpe, uint32_t rd)
{
	if (!vpe || !vpe->vm)
		return LIBVIRQ_EINVAL;
	/* A blocked vCPU stays non-resident (its doorbell stays requested)
	 * even if its thread is scheduled again before it blocks. */
	if ((vpe->flags & LIBVIRQ_VPE_IN_WFI) || (vpe->flags & LIBVIRQ_VPE_RESIDENT))
		return LIBVIRQ_OK;
	return virq_vpe_make_resident(vpe, rd);
}

virq_status virq_vpe_put(struct virq_vpe *vpe, bool *pending_last)
{
	if (!vpe || !vpe->vm)
		return LIBVIRQ_EINVAL;
	if (!(vpe->flags & LIBVIRQ_VPE_RESIDENT)) {
		if (pending_last)
			*pending_last = (vpe->flags & LIBVIRQ_VPE_PENDING_LAST) != 0;
		return LIBVIRQ_OK;
	}
	return virq_vpe_make_nonresident(vpe, (vpe->flags & LIBVIRQ_VPE_IN_WFI) != 0, pending_last);
}

/* ---------------- GICv4.1: the RD's view of the vPE table ---------------- */

/* Translates a GITS_BASER<n> (vPE table) into GICR_VPROPBASER (4.1 layout):
 * the RD uses the same memory as the ITS, so a level-2 page installed for
 * the ITS is seen by every RD (IHI 0069 §12.11 GICR_VPROPBASER;
 * docs/rationale.md#gic-vpe-table-sharing). Z is never set: the table is live. */
static virq_status vprop41_from_baser_(uint64_t baser, uint64_t *out)
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

virq_status virq_rdist_vpe_table_41_(struct virq_gic *gic, uint32_t idx)
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
	st = vprop41_from_baser_(its->tbl[LIBVIRQ_ITS_TBL_VPE].baser, &v);
	if (st != LIBVIRQ_OK)
		return st;
	virq_wr64_(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), v);
	gic->rd[idx].vprop_cache = v;
	return LIBVIRQ_OK;
}
