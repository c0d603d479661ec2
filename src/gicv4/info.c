/* SPDX-License-Identifier: MIT */
/*
 * Read-only accessors (gicv4/info.h): copies of what the objects track, so
 * that an embedder never reads their members. No hardware access, no lock.
 * Spec: not applicable (library state); the register-derived fields are
 * GITS_TYPER's (IHI 0069H §12.19) as virq_its_init() read it.
 */
#include <libvirq/gicv4/info.h>
#include "gicv4_priv.h"

virq_status virq_gic_get_info(const struct virq_gic *gic, struct virq_gic_info *out)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (!out)
		return LIBVIRQ_FAIL_(api, LIBVIRQ_GICV4_HAL_OF_(gic), LIBVIRQ_EINVAL, "out=NULL");
	out->version = gic->version;
	out->nr_rd = gic->nr_rd;
	out->lpi_bits = gic->lpi_bits;
	out->vpeid_bits = gic->vpeid_bits;
	out->nr_its = gic->nr_its;
	out->nr_vms = gic->nr_vms;
	return LIBVIRQ_OK;
}

virq_status virq_its_get_info(const struct virq_its *its, struct virq_its_info *out)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!its_live_(its))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "its", its);
	if (!out)
		return LIBVIRQ_FAIL_(api, LIBVIRQ_GICV4_HAL_OF_(its), LIBVIRQ_EINVAL, "out=NULL");
	out->version = its->lim.version;
	out->device_id_bits = its->lim.devid_bits;
	out->event_id_bits = its->lim.eventid_bits;
	out->itt_entry_size = its->itt_esz;
	out->single_vmovp = its->lim.vmovp;
	out->dead = its->dead;
	out->nr_devices = its->nr_devices;
	out->nr_vpes = its->nr_vpes;
	out->cmds = its->cmds;
	return LIBVIRQ_OK;
}

virq_status virq_its_device_get_info(const struct virq_its_device *dev,
				     struct virq_its_device_info *out)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	if (!out)
		return LIBVIRQ_FAIL_(api, LIBVIRQ_GICV4_HAL_OF_(dev), LIBVIRQ_EINVAL, "out=NULL");
	out->device_id = dev->device_id;
	out->nr_events = dev->nr_events;
	out->nr_mapped = dev->nr_mapped;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_get_info(const struct virq_vpe *vpe, struct virq_vpe_info *out)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	if (!out)
		return LIBVIRQ_FAIL_(api, LIBVIRQ_GICV4_HAL_OF_(vpe), LIBVIRQ_EINVAL, "out=NULL");
	out->vpeid = vpe->vpeid;
	out->doorbell = vpe->doorbell;
	out->rd = vpe->rd;
	out->resident = (vpe->flags & LIBVIRQ_VPE_RESIDENT) != 0u;
	out->in_wfi = (vpe->flags & LIBVIRQ_VPE_IN_WFI) != 0u;
	out->move_pending = (vpe->flags & LIBVIRQ_VPE_MOVE_PENDING) != 0u;
	out->pending_last = (vpe->flags & LIBVIRQ_VPE_PENDING_LAST) != 0u;
	out->db_masking = (vpe->flags & LIBVIRQ_VPE_DB_MASK) != 0u;
	out->nr_vlpis = vpe->nr_vlpis;
	return LIBVIRQ_OK;
}
