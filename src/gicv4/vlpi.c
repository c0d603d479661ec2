/* SPDX-License-Identifier: MIT */
/*
 * vLPI mappings: VMAPTI (single and ranged), VMOVI, DISCARD + VMAPTI
 * (remap), per-vLPI GICv4.0 doorbells (VMOVI D = 1), configuration + INV.
 * Doorbell masking and the proxy device are in doorbell.c.
 * Spec: Arm IHI 0069 §6.3 (VMAPTI, VMOVI, DISCARD, INV, VSYNC), chapter 9.
 */
#include "gicv4/device_priv.h"
#include "gicv4/its_exec_priv.h"

/* Common checks for a vLPI target on @dev's ITS. */
static virq_status target_ok_(const struct virq_its_device *dev, const struct virq_vpe *vpe,
			      uint32_t vintid)
{
	if (!vpe_usable_(vpe))
		return LIBVIRQ_EINVAL;
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_EDEAD;
	if (dev->its->lim.version == LIBVIRQ_ITS_V3)
		return LIBVIRQ_ENOTSUP;
	if (!(vpe->its_mask & (1u << dev->its->slot)))
		return LIBVIRQ_EINVAL;
	if (vintid < LIBVIRQ_LPI_BASE || vintid >= (1u << vpe->vm->id_bits))
		return LIBVIRQ_ERANGE;
	return LIBVIRQ_OK;
}

static uint32_t db_for_(const struct virq_its_device *dev, const struct virq_vpe *vpe, bool want)
{
	/* GICv4.1 uses the default doorbell (VMAPP); per-vLPI = 1023. */
	if (dev->its->lim.version != LIBVIRQ_ITS_V40 || !want)
		return LIBVIRQ_ITS_NO_DOORBELL;
	return vpe->doorbell;
}

static void track_(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
		   uint32_t vintid, uint32_t db)
{
	struct virq_its_event *e = ev_at_(dev, event);

	if (e->kind == LIBVIRQ_ITS_EV_NONE)
		dev->nr_mapped++;
	else if (e->vpe)
		e->vpe->nr_vlpis--;
	e->kind = LIBVIRQ_ITS_EV_VIRT;
	e->icid = 0;
	e->intid = vintid;
	e->db = db;
	e->vpe = vpe;
	vpe->nr_vlpis++;
}

virq_status virq_vlpi_map(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
			  uint32_t vintid, bool doorbell)
{
	struct virq_its_cmd c[2];
	uint32_t db;
	virq_status st;

	if (!dev_ok_(dev))
		return LIBVIRQ_EINVAL;
	st = target_ok_(dev, vpe, vintid);
	if (st != LIBVIRQ_OK)
		return st;
	if (event >= dev->nr_events)
		return LIBVIRQ_ERANGE;
	if (ev_at_(dev, event)->kind != LIBVIRQ_ITS_EV_NONE)
		return LIBVIRQ_EEXIST;
	st = virq_gic_vm_vlpi_config(vpe->vm, vintid, 0xA0, true);
	if (st != LIBVIRQ_OK)
		return st;
	db = db_for_(dev, vpe, doorbell);
	c[0] = virq_its_vmapti(dev->device_id, event, vpe->vpeid, vintid, db);
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	virq_its_lock_(dev->its);
	st = virq_its_exec_(dev->its, c, 2);
	if (st == LIBVIRQ_OK)
		track_(dev, event, vpe, vintid, db);
	virq_its_unlock_(dev->its);
	return st;
}

static virq_status range_ok_(struct virq_its_device *dev, uint32_t first_event, uint32_t count,
			     struct virq_vpe *vpe, uint32_t first_vintid)
{
	virq_status st;

	if (!dev_ok_(dev) || !count)
		return LIBVIRQ_EINVAL;
	if (first_event >= dev->nr_events || count > dev->nr_events - first_event)
		return LIBVIRQ_ERANGE;
	st = target_ok_(dev, vpe, first_vintid);
	if (st == LIBVIRQ_OK && count - 1 > 0xFFFFFFFFu - first_vintid)
		st = LIBVIRQ_ERANGE;
	if (st == LIBVIRQ_OK)
		st = target_ok_(dev, vpe, first_vintid + count - 1);
	for (uint32_t i = 0; st == LIBVIRQ_OK && i < count; i++)
		if (ev_at_(dev, first_event + i)->kind != LIBVIRQ_ITS_EV_NONE)
			st = LIBVIRQ_EEXIST;
	return st;
}

/* After a stall, the ITS ran exactly the commands before the stalled one
 * (IHI 0069 §6.2: no later command is processed; the queue reset then drops
 * them): untrack the events whose VMAPTI, at linear queue position
 * base + k * 32, it never reached, so that no DISCARD is ever sent for them. */
static void untrack_unrun_(struct virq_its_device *dev, uint32_t first_event, uint32_t done,
			   uint64_t base)
{
	uint64_t consumed = dev->its->q.rd_lin;

	for (uint32_t k = 0; k < done; k++)
		if (base + ((uint64_t)k + 1) * LIBVIRQ_ITS_CMD_SIZE > consumed)
			virq_its_event_forget_(dev, first_event + k);
}

/* The batch of virq_vlpi_map_range(), with the ITS's lock held. */
static virq_status map_range_(struct virq_its_device *dev, uint32_t first_event, uint32_t count,
			      struct virq_vpe *vpe, uint32_t first_vintid, uint32_t db)
{
	struct virq_its *its = dev->its;
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
	struct virq_its_cmd c;
	uint32_t done = 0;
	uint64_t base;
	virq_status enc = LIBVIRQ_OK, st = LIBVIRQ_OK;

	if (its->dead)
		return LIBVIRQ_EDEAD;
	base = its->q.wr_lin; /* linear queue position of the first VMAPTI */
	for (; st == LIBVIRQ_OK && done < count; done++) {
		c = virq_its_vmapti(dev->device_id, first_event + done, vpe->vpeid,
				    first_vintid + done, db);
		enc = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
		if (enc != LIBVIRQ_OK) /* not expected: range_ok_() checked the fields */
			break;	    /* complete what was pushed, then report it */
		st = virq_its_queue_push_raw(&its->q, raw);
		if (st != LIBVIRQ_OK)
			break;
		track_(dev, first_event + done, vpe, first_vintid + done, db);
	}
	if (st == LIBVIRQ_OK && !done)
		return enc;
	if (st == LIBVIRQ_OK) {
		c = virq_its_vsync_cmd(vpe->vpeid);
		st = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_push_raw(&its->q, raw);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_drain(&its->q, NULL);
		if (st == LIBVIRQ_OK) {
			its->cmds += (uint64_t)done + 1;
			return enc;
		}
	}
	/* A queue failure: whatever was queued may or may not have run, except
	 * after a stall (see untrack_unrun_()). */
	if (st == LIBVIRQ_ESTALLED)
		untrack_unrun_(dev, first_event, done, base);
	virq_its_fail_(its, st);
	return st;
}

virq_status virq_vlpi_map_range(struct virq_its_device *dev, uint32_t first_event, uint32_t count,
				struct virq_vpe *vpe, uint32_t first_vintid, bool doorbell)
{
	uint32_t db;
	virq_status st = range_ok_(dev, first_event, count, vpe, first_vintid);

	if (st != LIBVIRQ_OK)
		return st;
	if (dev->its->dead)
		return LIBVIRQ_EDEAD;
	db = db_for_(dev, vpe, doorbell);
	for (uint32_t i = 0; st == LIBVIRQ_OK && i < count; i++)
		st = virq_gic_vm_vlpi_config(vpe->vm, first_vintid + i, 0xA0, true);
	if (st != LIBVIRQ_OK)
		return st;
	virq_its_lock_(dev->its);
	st = map_range_(dev, first_event, count, vpe, first_vintid, db);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_unmap(struct virq_its_device *dev, uint32_t event)
{
	return virq_its_unmap_event(dev, event);
}

static virq_status virt_event_(struct virq_its_device *dev, uint32_t event,
			       struct virq_its_event **e)
{
	virq_status st = ev_lookup_(dev, event, e);

	if (st != LIBVIRQ_OK)
		return st;
	return (*e)->kind == LIBVIRQ_ITS_EV_VIRT ? LIBVIRQ_OK : LIBVIRQ_ENOENT;
}

virq_status virq_vlpi_remap(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
			    uint32_t vintid)
{
	struct virq_its_event *e;
	struct virq_its_cmd c[4];
	size_t n = 0;
	uint32_t db;
	virq_status st = virt_event_(dev, event, &e);

	if (st == LIBVIRQ_OK)
		st = target_ok_(dev, vpe, vintid);
	if (st == LIBVIRQ_OK)
		st = virq_gic_vm_vlpi_config(vpe->vm, vintid, 0xA0, true);
	if (st != LIBVIRQ_OK)
		return st;
	db = db_for_(dev, vpe, e->db != LIBVIRQ_ITS_NO_DOORBELL);
	c[n++] = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_DISCARD, .DeviceID = dev->device_id, .EventID = event};
	if (e->vpe != vpe)
		c[n++] = virq_its_vsync_cmd(e->vpe->vpeid);
	c[n++] = virq_its_vmapti(dev->device_id, event, vpe->vpeid, vintid, db);
	c[n++] = virq_its_vsync_cmd(vpe->vpeid);
	virq_its_lock_(dev->its);
	st = virq_its_exec_(dev->its, c, n);
	if (st != LIBVIRQ_OK)
		virq_its_event_forget_(dev, event); /* DISCARD may have run */
	else
		track_(dev, event, vpe, vintid, db);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_move(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe)
{
	struct virq_its_event *e;
	struct virq_its_cmd c[2] = {{.opcode = LIBVIRQ_ITS_VMOVI}};
	virq_status st = virt_event_(dev, event, &e);

	if (st == LIBVIRQ_OK)
		st = target_ok_(dev, vpe, e->intid);
	if (st != LIBVIRQ_OK)
		return st;
	if (vpe->vm != e->vpe->vm)
		return LIBVIRQ_EINVAL;
	c[0].DeviceID = dev->device_id;
	c[0].EventID = event;
	c[0].vPEID = vpe->vpeid;
	if (dev->its->lim.version == LIBVIRQ_ITS_V40 && e->db != LIBVIRQ_ITS_NO_DOORBELL) {
		c[0].D = true; /* the doorbell follows the vLPI to its new vPE */
		c[0].Dbell_pINTID = vpe->doorbell;
	}
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	virq_its_lock_(dev->its);
	st = virq_its_exec_(dev->its, c, 2);
	if (st == LIBVIRQ_OK)
		track_(dev, event, vpe, e->intid, c[0].D ? vpe->doorbell : e->db);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_set_doorbell(struct virq_its_device *dev, uint32_t event, bool on)
{
	struct virq_its_event *e;
	struct virq_its_cmd c[2] = {{.opcode = LIBVIRQ_ITS_VMOVI}};
	virq_status st = virt_event_(dev, event, &e);

	if (st != LIBVIRQ_OK)
		return st;
	if (dev->its->lim.version != LIBVIRQ_ITS_V40 ||
	    (on && e->vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL))
		return LIBVIRQ_ENOTSUP;
	/* VMOVI to the same vPE with D = 1: re-issuing VMAPTI on a mapped
	 * event is UNPREDICTABLE (facts §1.2). */
	c[0].DeviceID = dev->device_id;
	c[0].EventID = event;
	c[0].vPEID = e->vpe->vpeid;
	c[0].D = true;
	c[0].Dbell_pINTID = on ? e->vpe->doorbell : LIBVIRQ_ITS_NO_DOORBELL;
	c[1] = virq_its_vsync_cmd(e->vpe->vpeid);
	virq_its_lock_(dev->its);
	st = virq_its_exec_(dev->its, c, 2);
	if (st == LIBVIRQ_OK)
		e->db = c[0].Dbell_pINTID;
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_set_config(struct virq_its_device *dev, uint32_t event, uint8_t priority,
				 bool enable)
{
	struct virq_its_event *e;
	virq_status st = virt_event_(dev, event, &e);

	if (st == LIBVIRQ_OK)
		st = virq_gic_vm_vlpi_config(e->vpe->vm, e->intid, priority, enable);
	if (st == LIBVIRQ_OK)
		st = virq_its_inv(dev, event); /* INV + VSYNC */
	return st;
}

