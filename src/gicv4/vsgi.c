/* SPDX-License-Identifier: MIT */
/*
 * GICv4.1 direct vSGI delivery: the VSGI command (configure: priority,
 * group, enable; or clear the pending state), GITS_SGIR (make a vSGI
 * pending), GICR_VSGIR / GICR_VSGIPENDR (read a vPE's vSGI pending state,
 * bounded Busy wait).
 * Spec: IHI 0069H §5.3 (VSGI, VSYNC), §12.19 (GITS_TYPER.VSGI, GITS_SGIR),
 * §12.11 (GICR_VSGIR, GICR_VSGIPENDR). Linux's its_sgi_* callbacks
 * (drivers/irqchip/irq-gic-v3-its.c) follow the same recipe; no code copied.
 */
#include "its_exec_priv.h"

#define VSGI_MAX_ 15u

/* The first live GICv4.1 ITS with GITS_TYPER.VSGI the vPE is mapped on
 * (@direct: with GITS_SGIR inside its region). */
static struct virq_its *vsgi_its_(const struct virq_vpe *vpe, bool direct)
{
	const struct virq_gic *gic = vpe->vm->gic;

	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		struct virq_its *its = gic->its[i];

		if (!(vpe->its_mask & (1u << i)) || !its || its->dead ||
		    its->lim.version != LIBVIRQ_ITS_V41 || !its->lim.vsgi)
			continue;
		if (!direct || its->direct_vsgi)
			return its;
	}
	return NULL;
}

/* VSGI + VSYNC on the first GICv4.1 ITS with GITS_TYPER.VSGI mapping @vpe. */
static virq_status vsgi_cmd_(const char *api, struct virq_vpe *vpe, uint32_t vintid,
			     uint8_t priority, bool group1, bool enable, bool clear)
{
	const struct virq_hal *hal;
	struct virq_its_cmd c[2];
	struct virq_its *its;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	hal = &vpe->hal;
	if (vintid > VSGI_MAX_)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "vintid=%u > %u", vintid,
				      VSGI_MAX_);
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EDEAD, "vPE %u being torn down",
				      vpe->vpeid);
	its = vsgi_its_(vpe, false);
	if (!its)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "no live GICv4.1 ITS with GITS_TYPER.VSGI maps vPE %u",
				      vpe->vpeid);
	/* VSGI + VSYNC (the encoder's rule for VSGI; Linux
	 * its_send_single_vcommand). Clear = 1 clears the pending state and
	 * leaves the configuration; Clear = 0 writes the configuration and
	 * leaves the pending state. */
	c[0] = virq_its_vsgi(vpe->vpeid, vintid, clear ? 0u : priority, !clear && group1,
			     !clear && enable, clear);
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	virq_its_lock_(its); /* the embedder's ITS lock (virq_its_cfg::lock) */
	st = virq_its_exec_(its, c, 2);
	virq_its_unlock_(its);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "VSGI (Clear=%u) + VSYNC of vPE %u vintid=%u not seen to run",
				      clear, vpe->vpeid, vintid);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_vsgi_config(struct virq_vpe *vpe, uint32_t vintid, uint8_t priority,
				 bool group1, bool enable)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (vpe_live_(vpe) && (priority & 0xF))
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EALIGN,
				      "priority=%x not a multiple of 16 (only Priority[7:4] is "
				      "encoded)",
				      priority);
	return vsgi_cmd_(api, vpe, vintid, priority, group1, enable, false);
}

virq_status virq_vpe_vsgi_clear(struct virq_vpe *vpe, uint32_t vintid)
{
	return vsgi_cmd_(LIBVIRQ_ENTRY_, vpe, vintid, 0, false, false, true);
}

virq_status virq_vpe_vsgi_send(struct virq_vpe *vpe, uint32_t vintid)
{
	const char *const api = LIBVIRQ_ENTRY_;
	const struct virq_hal *hal;
	struct virq_its *its;
	uint64_t v;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	hal = &vpe->hal;
	if (virq_gits_sgir_encode(vpe->vpeid, vintid, &v) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "vintid=%u > %u", vintid,
				      VSGI_MAX_);
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EDEAD, "vPE %u being torn down",
				      vpe->vpeid);
	its = vsgi_its_(vpe, true);
	if (!its)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "no direct vSGI for vPE %u (no ITS mapping it has "
				      "GITS_TYPER.VSGI and GITS_SGIR inside its register region)",
				      vpe->vpeid);
	/* One 64-bit write; the vSGI becomes pending at the vPE's
	 * redistributor (IHI 0069H §12.19 GITS_SGIR). */
	virq_wr64_(hal, its->base + LIBVIRQ_GITS_SGIR, v);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_vsgi_pending(struct virq_vpe *vpe, uint16_t *pending)
{
	const char *const api = LIBVIRQ_ENTRY_;
	const struct virq_hal *hal;
	struct virq_gic *gic;
	uint32_t last = 0;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	hal = &vpe->hal;
	if (!pending)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "pending=NULL");
	if (gic->version != LIBVIRQ_GIC_V4_1)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP,
				     "not a GICv4.1 (vSGIs need GICv4.1)");
	/* The state lives at the redistributor the vPE targets. While a VMOVP
	 * is half-done some ITS may still target the old one: the answer would
	 * be the old RD's, so refuse until the move is finished. */
	if (vpe->flags & LIBVIRQ_VPE_MOVE_PENDING)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "vPE %u: a virq_vpe_move() stopped half-way (move again "
				      "first)",
				      vpe->vpeid);
	virq_wr32_(hal, rd_addr_(gic, vpe->rd, LIBVIRQ_GICR_VSGIR),
		   (uint32_t)LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VSGIR_vPEID, vpe->vpeid));
	if (virq_poll32(hal, rd_addr_(gic, vpe->rd, LIBVIRQ_GICR_VSGIPENDR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VSGIPENDR_Busy), 0,
			gic->timeout_ns, &last) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, hal, LIBVIRQ_ETIMEDOUT,
		    "vPE %u: redistributor %u's GICR_VSGIPENDR.Busy still 1 after "
		    "timeout_ns=%u",
		    vpe->vpeid, vpe->rd, gic->timeout_ns);
	*pending = (uint16_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VSGIPENDR_Pending, last);
	return LIBVIRQ_OK;
}
