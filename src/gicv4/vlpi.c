/* SPDX-License-Identifier: MIT */
/*
 * vLPI mappings (VMAPTI, VMOVI, DISCARD, INV + VSYNC) and doorbells
 * (GICv4.0 per-vLPI doorbells, masking through DirectLPI or the proxy
 * device; GICv4.1 INVDB).
 * Spec: Arm IHI 0069 §6.3 (VMAPTI, VMOVI, INVDB), §9; doorbells and the proxy
 * device design (described from Linux, not copied):
 * docs/rationale.md#gic-v40-doorbell-proxy.
 */
#include "gicv4/its_priv.h"
#include "gicv4/vpe_priv.h"

static bool vpe_usable_(const struct virq_vpe *vpe)
{
	return vpe && vpe->vm && (vpe->flags & LIBVIRQ_VPE_MAPPED);
}

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
	st = virq_its_exec_(dev->its, c, 2);
	if (st == LIBVIRQ_OK)
		track_(dev, event, vpe, vintid, db);
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

virq_status virq_vlpi_map_range(struct virq_its_device *dev, uint32_t first_event, uint32_t count,
				struct virq_vpe *vpe, uint32_t first_vintid, bool doorbell)
{
	struct virq_its *its;
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
	struct virq_its_cmd c;
	uint32_t db, done = 0;
	uint64_t base;
	virq_status enc = LIBVIRQ_OK, st = range_ok_(dev, first_event, count, vpe, first_vintid);

	if (st != LIBVIRQ_OK)
		return st;
	its = dev->its;
	if (its->dead)
		return LIBVIRQ_EDEAD;
	db = db_for_(dev, vpe, doorbell);
	for (uint32_t i = 0; st == LIBVIRQ_OK && i < count; i++)
		st = virq_gic_vm_vlpi_config(vpe->vm, first_vintid + i, 0xA0, true);
	if (st != LIBVIRQ_OK)
		return st;
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
	st = virq_its_exec_(dev->its, c, n);
	if (st != LIBVIRQ_OK) {
		virq_its_event_forget_(dev, event); /* DISCARD may have run */
		return st;
	}
	track_(dev, event, vpe, vintid, db);
	return LIBVIRQ_OK;
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
	st = virq_its_exec_(dev->its, c, 2);
	if (st == LIBVIRQ_OK)
		track_(dev, event, vpe, e->intid, c[0].D ? vpe->doorbell : e->db);
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
	 * event is UNPREDICTABLE (IHI 0069H §5.3 VMAPTI). */
	c[0].DeviceID = dev->device_id;
	c[0].EventID = event;
	c[0].vPEID = e->vpe->vpeid;
	c[0].D = true;
	c[0].Dbell_pINTID = on ? e->vpe->doorbell : LIBVIRQ_ITS_NO_DOORBELL;
	c[1] = virq_its_vsync_cmd(e->vpe->vpeid);
	st = virq_its_exec_(dev->its, c, 2);
	if (st == LIBVIRQ_OK)
		e->db = c[0].Dbell_pINTID;
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

/* ---------------- doorbells ---------------- */

static struct virq_its *proxy_its_(const struct virq_gic *gic)
{
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (gic->its[i] && gic->its[i]->proxy && !gic->its[i]->dead)
			return gic->its[i];
	return NULL;
}

static bool direct_lpi_(const struct virq_gic *gic, uint32_t rd)
{
	return LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_DirectLPI, gic->rd[rd].typer) != 0;
}

_Static_assert(sizeof(struct virq_its_device) + sizeof(struct virq_page) <= 4096,
	       "proxy device fits one page");

virq_status virq_its_proxy_init_(struct virq_its *its)
{
	struct virq_page pg;
	/* The last DeviceID the device table covers (it may have been
	 * narrowed below GITS_TYPER.Devbits to fit 256 pages). */
	uint32_t bits = its->lim.devid_bits;
	uint32_t id;
	virq_status st;

	if (its->tbl[LIBVIRQ_ITS_TBL_DEV].baser && its->tbl[LIBVIRQ_ITS_TBL_DEV].id_bits < bits)
		bits = its->tbl[LIBVIRQ_ITS_TBL_DEV].id_bits;
	id = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
	st = virq_page_alloc_(&its->gic->hal, 4096, 4096, &pg);

	if (st != LIBVIRQ_OK)
		return st;
	/* The device lives in the page; the page descriptor right after it. */
	its->proxy = pg.va;
	st = virq_its_device_map(its, its->proxy, id, its->gic->nr_rd);
	if (st != LIBVIRQ_OK) {
		its->proxy = NULL;
		virq_page_free_(&its->gic->hal, &pg);
		return st;
	}
	memcpy(its->proxy + 1, &pg, sizeof(pg));
	return LIBVIRQ_OK;
}

void virq_its_proxy_free_(struct virq_its *its)
{
	struct virq_its_device *p = its->proxy;
	struct virq_page pg;
	virq_status st;

	if (!p)
		return;
	for (uint32_t i = 0; i < p->nr_events; i++) {
		struct virq_its_event *e = ev_at_(p, i);

		if (e->kind == LIBVIRQ_ITS_EV_PROXY && e->vpe)
			e->vpe->proxy_event = -1;
		memset(e, 0, sizeof(*e));
	}
	p->nr_mapped = 0;
	st = virq_its_device_unmap(p);
	if (st != LIBVIRQ_OK) { /* ITS dead: free the memory anyway */
		virq_its_dev_unlink_(its, p);
		virq_page_free_(&its->gic->hal, &p->ev);
		virq_page_free_(&its->gic->hal, &p->itt);
	}
	memcpy(&pg, p + 1, sizeof(pg));
	its->proxy = NULL;
	virq_page_free_(&its->gic->hal, &pg);
}

/* Proxy path: map the doorbell on a slot if needed, then INV
 * (docs/rationale.md#gic-v40-doorbell-proxy). */
static virq_status proxy_inv_(struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_device *p = its->proxy;
	struct virq_its_cmd c[4];
	struct virq_its_event *e;
	uint32_t slot;
	size_t n = 0;
	virq_status st;

	if (vpe->proxy_event >= 0) {
		slot = (uint32_t)vpe->proxy_event;
		c[n++] = (struct virq_its_cmd){
		    .opcode = LIBVIRQ_ITS_INV, .DeviceID = p->device_id, .EventID = slot};
		c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, ev_at_(p, slot)->icid));
		return virq_its_exec_(its, c, n);
	}
	if (!virq_its_col_mapped_(its, vpe->rd))
		return LIBVIRQ_ENOENT;
	slot = its->proxy_next;
	e = ev_at_(p, slot);
	if (e->kind == LIBVIRQ_ITS_EV_PROXY) /* evict the slot's previous owner */
		c[n++] = (struct virq_its_cmd){
		    .opcode = LIBVIRQ_ITS_DISCARD, .DeviceID = p->device_id, .EventID = slot};
	c[n++] = virq_its_mapti(p->device_id, slot, vpe->doorbell, vpe->rd);
	c[n++] = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_INV, .DeviceID = p->device_id, .EventID = slot};
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, vpe->rd));
	st = virq_its_exec_(its, c, n);
	if (e->kind == LIBVIRQ_ITS_EV_PROXY) { /* DISCARD was sent (or may have been) */
		if (e->vpe)
			e->vpe->proxy_event = -1;
		memset(e, 0, sizeof(*e));
		p->nr_mapped--;
	}
	if (st != LIBVIRQ_OK)
		return st;
	e->kind = LIBVIRQ_ITS_EV_PROXY;
	e->icid = vpe->rd;
	e->intid = vpe->doorbell;
	e->db = LIBVIRQ_ITS_NO_DOORBELL;
	e->vpe = vpe;
	p->nr_mapped++;
	vpe->proxy_event = (int32_t)slot;
	its->proxy_next = (slot + 1) % p->nr_events;
	return LIBVIRQ_OK;
}

static virq_status direct_inv_(struct virq_gic *gic, uint32_t rd, uint32_t intid)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_INVLPIR),
		   LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVLPIR_INTID, intid));
	return virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			   (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			   NULL);
}

virq_status virq_vpe_doorbell_invalidate(struct virq_vpe *vpe)
{
	struct virq_gic *gic;
	struct virq_its *its;

	if (!vpe_usable_(vpe) || vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_EINVAL;
	gic = vpe->vm->gic;
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
			if (vpe->its_mask & (1u << i)) {
				struct virq_its_cmd c[2] = {
				    {.opcode = LIBVIRQ_ITS_INVDB, .vPEID = vpe->vpeid},
				    virq_its_vsync_cmd(vpe->vpeid),
				};

				return virq_its_exec_(gic->its[i], c, 2);
			}
		}
		return LIBVIRQ_ENOTSUP;
	}
	if (direct_lpi_(gic, vpe->rd))
		return direct_inv_(gic, vpe->rd, vpe->doorbell);
	its = proxy_its_(gic);
	return its ? proxy_inv_(its, vpe) : LIBVIRQ_ENOTSUP;
}

virq_status virq_vpe_set_db_masking(struct virq_vpe *vpe, bool on)
{
	struct virq_gic *gic;

	if (!vpe_usable_(vpe))
		return LIBVIRQ_EINVAL;
	gic = vpe->vm->gic;
	if (!on) {
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_MASK;
		return LIBVIRQ_OK;
	}
	if (gic->version != LIBVIRQ_GIC_V4_0 || vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL ||
	    (!direct_lpi_(gic, vpe->rd) && !proxy_its_(gic)))
		return LIBVIRQ_ENOTSUP;
	vpe->flags |= LIBVIRQ_VPE_DB_MASK;
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_LPI_CFG_Enable, *lpi_cfg_(gic, vpe->doorbell)))
		vpe->flags |= LIBVIRQ_VPE_DB_ON;
	else
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_ON;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_db_request_(struct virq_vpe *vpe, bool want)
{
	struct virq_gic *gic = vpe->vm->gic;
	uint8_t *cfg;
	virq_status st;

	if (!(vpe->flags & LIBVIRQ_VPE_DB_MASK) || gic->version != LIBVIRQ_GIC_V4_0 ||
	    ((vpe->flags & LIBVIRQ_VPE_DB_ON) != 0) == want)
		return LIBVIRQ_OK;
	cfg = lpi_cfg_(gic, vpe->doorbell);
	*cfg = (uint8_t)LIBVIRQ_FIELD_SET(LIBVIRQ_LPI_CFG_Enable, *cfg, want ? 1 : 0);
	st = clean_if_(&gic->hal, gic->rd_noncoherent, cfg, 1);
	if (st == LIBVIRQ_OK)
		st = virq_vpe_doorbell_invalidate(vpe);
	if (st != LIBVIRQ_OK) /* keep the doorbell enabled: spurious, never lost */
		*cfg = (uint8_t)LIBVIRQ_FIELD_SET(LIBVIRQ_LPI_CFG_Enable, *cfg, 1);
	if (st == LIBVIRQ_OK && !want)
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_ON;
	else
		vpe->flags |= LIBVIRQ_VPE_DB_ON;
	return st;
}

void virq_vpe_proxy_release_(struct virq_vpe *vpe)
{
	const struct virq_gic *gic = vpe->vm->gic;
	struct virq_its *its = NULL;

	if (vpe->proxy_event < 0)
		return;
	/* The proxy's ITS even when dead: its slot must forget the vPE, whose
	 * storage the caller may reuse before the ITS is destroyed. */
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS && !its; i++)
		if (gic->its[i] && gic->its[i]->proxy)
			its = gic->its[i];
	if (its) {
		struct virq_its_event *e = ev_at_(its->proxy, (uint32_t)vpe->proxy_event);
		struct virq_its_cmd c[2] = {
		    {.opcode = LIBVIRQ_ITS_DISCARD,
		     .DeviceID = its->proxy->device_id,
		     .EventID = (uint32_t)vpe->proxy_event},
		    virq_its_sync_cmd(virq_its_rdbase_(its, e->icid)),
		};

		if (!its->dead && virq_its_exec_(its, c, 2) == LIBVIRQ_OK) {
			memset(e, 0, sizeof(*e));
			its->proxy->nr_mapped--;
		} else {
			e->vpe = NULL; /* may still be mapped: a reuse DISCARDs it first */
		}
	}
	vpe->proxy_event = -1;
}

virq_status virq_vpe_proxy_move_(struct virq_vpe *vpe, uint32_t rd)
{
	struct virq_its *its;
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	virq_status st;

	if (vpe->proxy_event < 0)
		return LIBVIRQ_OK;
	its = proxy_its_(vpe->vm->gic);
	if (!its)
		return LIBVIRQ_OK;
	e = ev_at_(its->proxy, (uint32_t)vpe->proxy_event);
	if (!virq_its_col_mapped_(its, rd)) { /* cannot follow: drop the slot */
		virq_vpe_proxy_release_(vpe);
		return LIBVIRQ_OK;
	}
	c[0] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_MOVI,
				     .DeviceID = its->proxy->device_id,
				     .EventID = (uint32_t)vpe->proxy_event,
				     .ICID = rd};
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(its, rd));
	st = virq_its_exec_(its, c, 2);
	if (st == LIBVIRQ_OK)
		e->icid = rd;
	return st;
}
