/* SPDX-License-Identifier: MIT */
/*
 * vPE residency: GICR_VPROPBASER / GICR_VPENDBASER in the GICv4.0 and
 * GICv4.1 layouts (images built in enc/images.c), bounded Dirty polling,
 * PendingLast reporting, and the WFI/doorbell state machine (docs/rationale.md#gic-doorbell-wfi).
 * The residency registers' reset at bring-up is in rdist.c.
 * Spec: Arm IHI 0069H §12.11 GICR_VPROPBASER / GICR_VPENDBASER.
 */
#include "doorbell_priv.h"
#include "enc/images.h"
#include "gicv4_priv.h"
#include "../common/compiler.h"

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

/* ---------------- make resident ----------------
 *
 * The register images are cached in the vPE and rebuilt only when what they
 * encode changes (the key: the redistributors' coherence, the saved IDAI,
 * the GICv4.1 group enables; the addresses and the vPEID are fixed for the
 * vPE's life), so the hot path is checks, at most two 64-bit writes and,
 * where GICR_TYPER.Dirty asks for it, the commit read. */

#define IMG_BUILT_ 1u

static uint32_t img_key_(const struct virq_vpe *vpe, const struct virq_gic *gic)
{
	return IMG_BUILT_ | (gic->rd_noncoherent ? 2u : 0u) |
	       ((vpe->flags & LIBVIRQ_VPE_IDAI) ? 4u : 0u) | (vpe->vgrp0 ? 8u : 0u) |
	       (vpe->vgrp1 ? 16u : 0u);
}

static LIBVIRQ_NOINLINE_ void img_build_(struct virq_vpe *vpe, const struct virq_gic *gic,
					 uint32_t key)
{
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		vpe->vprop_img = 0;
		vpe->vpend_img = virq_gic_vpend41_image_(vpe->vpeid, vpe->vgrp0, vpe->vgrp1);
	} else {
		vpe->vprop_img = virq_gic_vprop40_image_(vpe->vm->vprop.pa, vpe->vm->id_bits,
							 gic->rd_noncoherent);
		vpe->vpend_img = virq_gic_vpend40_image_(
		    vpe->vpt.pa, (vpe->flags & LIBVIRQ_VPE_IDAI) != 0, gic->rd_noncoherent);
	}
	vpe->img_key = key;
}

/* The refusals of virq_vpe_make_resident() of a live vPE, off the hot path. */
static LIBVIRQ_COLD_ virq_status resident_refused_(const char *api, const struct virq_vpe *vpe,
						   uint32_t rd)
{
	const struct virq_gic *gic = vpe->vm->gic;
	const struct virq_hal *hal = &vpe->hal;

	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EDEAD, "vPE %u being torn down",
				      vpe->vpeid);
	if (rd != vpe->rd)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "rd=%u is not the vPE's target rd=%u (virq_vpe_move() first)",
				      rd, vpe->rd);
	if (vpe->flags & LIBVIRQ_VPE_RESIDENT)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY, "vPE %u already resident on rd=%u",
				      vpe->vpeid, vpe->resident_rd);
	/* A half-done VMOVP: some ITS may still route this vPE's vLPIs to the
	 * old RD, where nobody would take them. Only once every ITS agrees on
	 * vpe->rd (the flag clear) may the vPE become resident there. */
	if (vpe->flags & LIBVIRQ_VPE_MOVE_PENDING)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "vPE %u: a virq_vpe_move() stopped half-way (move again "
				      "first)",
				      vpe->vpeid);
	if (!(gic->rd[rd].flags & LIBVIRQ_RDIST_VPE_READY))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "rd=%u: residency registers not initialised "
				      "(virq_gic_rdist_init() first)",
				      rd);
	return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY, "rd=%u: vPE %u is resident there", rd,
			      gic->rd[rd].resident_vpe);
}

/* virq_vpe_make_resident() reporting under @p api (virq_vpe_load()). */
static LIBVIRQ_ALWAYS_INLINE_ virq_status make_resident_(const char *api, struct virq_vpe *vpe,
							 uint32_t rd)
{
	struct virq_gic *gic;
	struct virq_gic_rdist *r;
	uint32_t key;
	virq_status st;

	if (__builtin_expect(!vpe_live_(vpe), 0))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	r = &gic->rd[vpe->rd]; /* vpe->rd < nr_rd: checked by init and move */
	if (__builtin_expect((vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD |
					    LIBVIRQ_VPE_RESIDENT | LIBVIRQ_VPE_MOVE_PENDING)) ||
				 rd != vpe->rd || !(r->flags & LIBVIRQ_RDIST_VPE_READY) ||
				 r->resident_vpe != LIBVIRQ_VPEID_NONE,
			     0))
		return resident_refused_(api, vpe, rd);
	if (vpe->flags & LIBVIRQ_VPE_DB_MASK) {
		st = virq_vpe_db_request_(api, vpe, false);
		if (st != LIBVIRQ_OK)
			return st;
	}
	key = img_key_(vpe, gic);
	if (__builtin_expect(key != vpe->img_key, 0))
		img_build_(vpe, gic, key);
	/* Table writes (vLPI config bytes, VPT) before the GIC may parse them,
	 * like the barrier Linux's writeq() carries. */
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_DMA_WMB);
	/* 4.0: skip the VPROPBASER write when this VM's table is already there
	 * (Linux writes it at every schedule; it does not change for one VM). */
	if (gic->version != LIBVIRQ_GIC_V4_1 && r->vprop_cache != vpe->vprop_img) {
		virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_VPROPBASER), vpe->vprop_img);
		r->vprop_cache = vpe->vprop_img;
	}
	virq_wr64_(&gic->hal, vpend_addr_(gic, rd), vpe->vpend_img);
	r->vpend = vpe->vpend_img;
	r->resident_vpe = vpe->vpeid;
	vpe->flags |= LIBVIRQ_VPE_RESIDENT;
	vpe->resident_rd = rd;
	/* Commit: wait for the VPT parse only where Dirty is implemented. */
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Dirty, r->typer) &&
	    dirty_wait_(gic, rd, NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_ETIMEDOUT,
				      "GICR_VPENDBASER.Dirty still 1 after timeout_ns=%u (vPE %u "
				      "IS resident)",
				      gic->timeout_ns, vpe->vpeid);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_make_resident(struct virq_vpe *vpe, uint32_t rd)
{
	return make_resident_(LIBVIRQ_ENTRY_, vpe, rd);
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
 *   for any later vLPI (docs/rationale.md#gic-vpe-residency-sequence); without DB we report
 * PendingLast = 1 (the GIC does not tell), so a caller never blocks on an unknown state.
 * - GICv4.0 with doorbell masking: the doorbell is unmasked only after
 *   Valid = 0. A doorbell raised while it was still masked stays pending
 *   in the LPI pending table and is taken once the INV makes it enabled, so
 *   it is late, never lost. Without masking it is always enabled.
 * - The doorbell is requested exactly when the vCPU blocks (IN_WFI), and a
 *   vPE in WFI is never made resident by a load (docs/rationale.md#gic-doorbell-wfi), so a
 * preempted blocker keeps its doorbell.
 */

/* virq_vpe_make_nonresident() reporting under @p api (virq_vpe_put()). */
static LIBVIRQ_ALWAYS_INLINE_ virq_status make_nonresident_(const char *api, struct virq_vpe *vpe,
							    bool doorbell, bool *pending_last)
{
	struct virq_gic *gic;
	struct virq_gic_rdist *r;
	uint64_t w, last = 0;
	virq_status st;

	if (__builtin_expect(!vpe_live_(vpe), 0))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	if (__builtin_expect(!(vpe->flags & LIBVIRQ_VPE_RESIDENT), 0))
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EINVAL, "vPE %u not resident",
				      vpe->vpeid);
	/* A vPE without a doorbell has none to request (4.1: GICR_VPENDBASER.DB
	 * asks for the VMAPP default doorbell, 1023 here; 4.0: its vLPIs carry
	 * doorbell 1023): made non-resident as without one, so PendingLast is
	 * what the hardware says (4.0) or reported true (4.1, UNKNOWN without
	 * DB), never a promise of a wake-up (IHI 0069H §12.11). */
	if (vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		doorbell = false;
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
	if (st != LIBVIRQ_OK || (gic->version == LIBVIRQ_GIC_V4_1 && !doorbell) ||
	    (last & VPEND_PL))
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
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &vpe->hal, st,
				      "GICR_VPENDBASER.Dirty still 1 after timeout_ns=%u (vPE %u "
				      "non-resident, PendingLast reported true)",
				      gic->timeout_ns, vpe->vpeid);
	if (vpe->flags & LIBVIRQ_VPE_DB_MASK) {
		/* Unmasking through a proxy slot borrowed from another vPE
		 * removes this doorbell's pending state with the give-back's
		 * DISCARD, which then sets PendingLast (doorbell.c). */
		st = virq_vpe_db_request_(api, vpe, doorbell);
		if (pending_last)
			*pending_last = (vpe->flags & LIBVIRQ_VPE_PENDING_LAST) != 0;
		return st;
	}
	return LIBVIRQ_OK;
}

virq_status virq_vpe_make_nonresident(struct virq_vpe *vpe, bool doorbell, bool *pending_last)
{
	return make_nonresident_(LIBVIRQ_ENTRY_, vpe, doorbell, pending_last);
}

/* ---------------- WFI state machine (docs/rationale.md#gic-doorbell-wfi) ---------------- */

virq_status virq_vpe_wfi_enter(struct virq_vpe *vpe)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	/* Blocking waits for the doorbell: a vPE without one polls instead
	 * (virq_vpe_put() outside WFI reports the hardware's PendingLast). */
	if (vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EINVAL,
				      "vPE %u has no doorbell (LIBVIRQ_ITS_NO_DOORBELL) to wake it",
				      vpe->vpeid);
	vpe->flags |= LIBVIRQ_VPE_IN_WFI;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_wfi_exit(struct virq_vpe *vpe)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_IN_WFI;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_load(struct virq_vpe *vpe, uint32_t rd)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	/* A blocked vCPU stays non-resident (its doorbell stays requested)
	 * even if its thread is scheduled again before it blocks. */
	if ((vpe->flags & LIBVIRQ_VPE_IN_WFI) || (vpe->flags & LIBVIRQ_VPE_RESIDENT))
		return LIBVIRQ_OK;
	return make_resident_(api, vpe, rd);
}

virq_status virq_vpe_put(struct virq_vpe *vpe, bool *pending_last)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	if (!(vpe->flags & LIBVIRQ_VPE_RESIDENT)) {
		if (pending_last)
			*pending_last = (vpe->flags & LIBVIRQ_VPE_PENDING_LAST) != 0;
		return LIBVIRQ_OK;
	}
	return make_nonresident_(api, vpe, (vpe->flags & LIBVIRQ_VPE_IN_WFI) != 0, pending_last);
}
