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

/* The first live ITS the vPE is mapped on that has @need. */
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

static virq_status vsgi_cmd_(struct virq_vpe *vpe, uint32_t vintid, uint8_t priority, bool group1,
			     bool enable, bool clear, const char *const msg[5])
{
	const struct virq_hal *hal;
	struct virq_its_cmd c[2];
	struct virq_its *its;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, msg[0]);
	hal = &vpe->vm->gic->hal;
	if (vintid > VSGI_MAX_)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE, msg[1], vintid);
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EDEAD, msg[2], vpe->vpeid);
	its = vsgi_its_(vpe, false);
	if (!its)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOTSUP, msg[4]);
	/* VSGI + VSYNC (the encoder's rule for VSGI; Linux
	 * its_send_single_vcommand). Clear = 1 clears the pending state and
	 * leaves the configuration; Clear = 0 writes the configuration and
	 * leaves the pending state. */
	c[0] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VSGI,
				     .vPEID = vpe->vpeid,
				     .vINTID = vintid,
				     .Priority = clear ? 0 : priority,
				     .Group = !clear && group1,
				     .Enable = !clear && enable,
				     .Clear = clear};
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	virq_its_lock_(its); /* the embedder's ITS lock (virq_its_cfg::lock) */
	st = virq_its_exec_(its, c, 2);
	virq_its_unlock_(its);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st, msg[3], vpe->vpeid, vintid);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_vsgi_config(struct virq_vpe *vpe, uint32_t vintid, uint8_t priority,
				 bool group1, bool enable)
{
	static const char *const msg[5] = {
	    "virq_vpe_vsgi_config: vpe not live", "virq_vpe_vsgi_config: vINTID not 0..15",
	    "virq_vpe_vsgi_config: vPE being torn down",
	    "virq_vpe_vsgi_config: VSGI + VSYNC failed",
	    "virq_vpe_vsgi_config: no live GICv4.1 ITS with GITS_TYPER.VSGI maps the vPE"};

	if (vpe_live_(vpe) && (priority & 0xF))
		return LIBVIRQ_FAILV(&vpe->vm->gic->hal, LIBVIRQ_EALIGN,
				     "virq_vpe_vsgi_config: priority not a multiple of 16 (only "
				     "Priority[7:4] is encoded)",
				     priority);
	return vsgi_cmd_(vpe, vintid, priority, group1, enable, false, msg);
}

virq_status virq_vpe_vsgi_clear(struct virq_vpe *vpe, uint32_t vintid)
{
	static const char *const msg[5] = {
	    "virq_vpe_vsgi_clear: vpe not live", "virq_vpe_vsgi_clear: vINTID not 0..15",
	    "virq_vpe_vsgi_clear: vPE being torn down",
	    "virq_vpe_vsgi_clear: VSGI (Clear) + VSYNC failed",
	    "virq_vpe_vsgi_clear: no live GICv4.1 ITS with GITS_TYPER.VSGI maps the vPE"};

	return vsgi_cmd_(vpe, vintid, 0, false, false, true, msg);
}

virq_status virq_vpe_vsgi_send(struct virq_vpe *vpe, uint32_t vintid)
{
	const struct virq_hal *hal;
	struct virq_its *its;
	uint64_t v;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_vsgi_send: vpe not live");
	hal = &vpe->vm->gic->hal;
	if (virq_gits_sgir_encode(vpe->vpeid, vintid, &v) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE, "virq_vpe_vsgi_send: vINTID not 0..15",
				     vintid);
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EDEAD, "virq_vpe_vsgi_send: vPE being torn down",
				     vpe->vpeid);
	its = vsgi_its_(vpe, true);
	if (!its)
		return LIBVIRQ_FAIL(
		    hal, LIBVIRQ_ENOTSUP,
		    "virq_vpe_vsgi_send: no direct vSGI (no ITS mapping the vPE has "
		    "GITS_TYPER.VSGI and GITS_SGIR inside its register region)");
	/* One 64-bit write; the vSGI becomes pending at the vPE's
	 * redistributor (IHI 0069H §12.19 GITS_SGIR). */
	virq_wr64_(hal, its->base + LIBVIRQ_GITS_SGIR, v);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_vsgi_pending(struct virq_vpe *vpe, uint16_t *pending)
{
	const struct virq_hal *hal;
	struct virq_gic *gic;
	uint32_t last = 0;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_vsgi_pending: vpe not live");
	gic = vpe->vm->gic;
	hal = &gic->hal;
	if (!pending)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_vpe_vsgi_pending: NULL pending");
	if (gic->version != LIBVIRQ_GIC_V4_1)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOTSUP,
				    "virq_vpe_vsgi_pending: vSGIs need GICv4.1");
	/* The state lives at the redistributor the vPE targets. While a VMOVP
	 * is half-done some ITS may still target the old one: the answer would
	 * be the old RD's, so refuse until the move is finished. */
	if (vpe->flags & LIBVIRQ_VPE_MOVE_PENDING)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_vpe_vsgi_pending: a virq_vpe_move() stopped half-way "
				     "(move again first)",
				     vpe->vpeid);
	virq_wr32_(hal, rd_addr_(gic, vpe->rd, LIBVIRQ_GICR_VSGIR),
		   (uint32_t)LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VSGIR_vPEID, vpe->vpeid));
	if (virq_poll32(hal, rd_addr_(gic, vpe->rd, LIBVIRQ_GICR_VSGIPENDR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VSGIPENDR_Busy), 0,
			gic->timeout_ns, &last) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ETIMEDOUT,
				     "virq_vpe_vsgi_pending: GICR_VSGIPENDR.Busy stayed set",
				     vpe->vpeid, vpe->rd);
	*pending = (uint16_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VSGIPENDR_Pending, last);
	return LIBVIRQ_OK;
}
