/* SPDX-License-Identifier: MIT */
/*
 * GICv4.0 doorbells: masking the doorbell LPI while the vCPU is not blocked,
 * invalidated through DirectLPI (GICR_INVLPIR + GICR_SYNCR) or through the
 * proxy device (a fake device whose events the doorbells are mapped to, so
 * that an INV can reach them); the doorbell left pending on the old
 * redistributor by a move (cleared there: GICR_CLRLPIR, or CLEAR through the
 * proxy; raised on the new one for a vCPU in WFI); GICv4.1 doorbell
 * invalidation (INVDB). Every proxy path holds the proxy ITS's lock.
 *
 * The proxy device is created when doorbell masking first needs it
 * (virq_vpe_set_db_masking(), virq_vpe_doorbell_invalidate()), on the ITS
 * that reserved its DeviceID (::virq_its_cfg::proxy_doorbells); those calls
 * report its allocation and queue failures.
 *
 * Spec: Arm IHI 0069H §5.3 (MAPTI, INV, INT, CLEAR, DISCARD, MOVI, INVDB),
 * §12.11 (GICR_SETLPIR, GICR_CLRLPIR, GICR_INVLPIR, GICR_SYNCR), chapter 9
 * (doorbells). The proxy design is Linux's ("irqchip/gic-v3-its: Add device
 * proxy for VPE management if !DirectLpi", its_vpe_db_proxy_*), described
 * from its behaviour, not copied; that a doorbell stays pending on the old
 * redistributor after VMOVP is Linux commit 958b90d162b4 ("irqchip/gic-v3-its:
 * Move pending doorbell after VMOVP").
 */
#include "device_priv.h"
#include "doorbell_priv.h"
#include "its_exec_priv.h"

LIBVIRQ_STATIC_ASSERT_(sizeof(struct virq_its_device) + sizeof(struct virq_page) <= 4096,
		       "proxy device fits one page");

/* The ITS that holds the GIC's proxy (created or not), even when dead. */
static struct virq_its *proxy_owner_(const struct virq_gic *gic)
{
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (gic->its[i] && gic->its[i]->proxy_ok)
			return gic->its[i];
	return NULL;
}

static bool direct_lpi_(const struct virq_gic *gic, uint32_t rd)
{
	return LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_DirectLPI, gic->rd[rd].typer) != 0;
}

/* Creates the proxy device of @its (one event per redistributor) unless it
 * exists: one 4 KiB page holds the device and its page descriptor. The
 * ITS's lock held. */
static virq_status proxy_create_(struct virq_its *its, const char *alloc_failed)
{
	struct virq_page pg;
	virq_status st;

	if (its->proxy)
		return LIBVIRQ_OK;
	st = virq_page_alloc_(&its->gic->hal, 4096, 4096, &pg);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(&its->gic->hal, st, alloc_failed);
	/* The device lives in the page; the page descriptor right after it.
	 * its->proxy is set first: virq_its_device_map() lets only the proxy
	 * object take the reserved DeviceID. */
	its->proxy = pg.va;
	st = virq_its_device_map_locked_(its, its->proxy, its->proxy_devid, its->gic->nr_rd);
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

/* Proxy path: create the proxy if needed, map the doorbell on a slot if
 * needed, then INV (Linux's recipe for GICv4.0 without DirectLPI). The
 * ITS's lock held; whether it is dead is read under it. */
static virq_status proxy_inv_(struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_device *p;
	struct virq_its_cmd c[4];
	struct virq_its_event *e;
	uint32_t slot;
	size_t n = 0;
	virq_status st;

	if (its->dead)
		return LIBVIRQ_FAIL(&its->gic->hal, LIBVIRQ_ENOTSUP,
				    "virq_vpe_doorbell_invalidate: the proxy's ITS is dead");
	st = proxy_create_(its, "virq_vpe_doorbell_invalidate: doorbell proxy allocation failed");
	if (st != LIBVIRQ_OK)
		return st;
	p = its->proxy;
	if (vpe->proxy_event >= 0) {
		slot = (uint32_t)vpe->proxy_event;
		c[n++] = (struct virq_its_cmd){
		    .opcode = LIBVIRQ_ITS_INV, .DeviceID = p->device_id, .EventID = slot};
		c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, ev_at_(p, slot)->icid));
		st = virq_its_exec_(its, c, n);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV(
			    &its->gic->hal, st,
			    "virq_vpe_doorbell_invalidate: proxy INV + SYNC failed", vpe->vpeid);
		return LIBVIRQ_OK;
	}
	if (!virq_its_col_mapped_(its, vpe->rd))
		return LIBVIRQ_FAILV(
		    &its->gic->hal, LIBVIRQ_ENOENT,
		    "virq_vpe_doorbell_invalidate: the vPE's collection is not mapped "
		    "on the proxy's ITS",
		    vpe->rd);
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
	if (st != LIBVIRQ_OK)
		st = LIBVIRQ_FAILV(&its->gic->hal, st,
				   "virq_vpe_doorbell_invalidate: proxy MAPTI + INV + SYNC failed",
				   vpe->vpeid);
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
	if (virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_ETIMEDOUT,
				     "virq_vpe_doorbell_invalidate: GICR_INVLPIR: GICR_SYNCR.Busy "
				     "stayed set",
				     rd, intid);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_doorbell_invalidate(struct virq_vpe *vpe)
{
	struct virq_gic *gic;
	struct virq_its *its;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL,
				    "virq_vpe_doorbell_invalidate: vpe not live");
	gic = vpe->vm->gic;
	if (vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EINVAL,
				     "virq_vpe_doorbell_invalidate: the vPE has no doorbell",
				     vpe->vpeid);
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
			if (vpe->its_mask & (1u << i)) {
				struct virq_its_cmd c[2] = {
				    {.opcode = LIBVIRQ_ITS_INVDB, .vPEID = vpe->vpeid},
				    virq_its_vsync_cmd(vpe->vpeid),
				};

				virq_its_lock_(gic->its[i]);
				st = virq_its_exec_(gic->its[i], c, 2);
				virq_its_unlock_(gic->its[i]);
				if (st != LIBVIRQ_OK)
					return LIBVIRQ_FAILV(
					    &gic->hal, st,
					    "virq_vpe_doorbell_invalidate: INVDB + "
					    "VSYNC failed",
					    vpe->vpeid);
				return LIBVIRQ_OK;
			}
		}
		return LIBVIRQ_FAIL(&gic->hal, LIBVIRQ_ENOTSUP,
				    "virq_vpe_doorbell_invalidate: the vPE is mapped on no ITS");
	}
	if (direct_lpi_(gic, vpe->rd))
		return direct_inv_(gic, vpe->rd, vpe->doorbell);
	its = proxy_owner_(gic);
	if (!its)
		return LIBVIRQ_FAIL(
		    &gic->hal, LIBVIRQ_ENOTSUP,
		    "virq_vpe_doorbell_invalidate: GICv4.0 without DirectLPI and no "
		    "proxy ITS (virq_its_cfg::proxy_doorbells)");
	virq_its_lock_(its);
	st = proxy_inv_(its, vpe);
	virq_its_unlock_(its);
	return st;
}

virq_status virq_vpe_set_db_masking(struct virq_vpe *vpe, bool on)
{
	struct virq_gic *gic;
	struct virq_its *its = NULL;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_set_db_masking: vpe not live");
	gic = vpe->vm->gic;
	if (!on) {
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_MASK;
		return LIBVIRQ_OK;
	}
	if (gic->version != LIBVIRQ_GIC_V4_0 || vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_FAIL(
		    &gic->hal, LIBVIRQ_ENOTSUP,
		    "virq_vpe_set_db_masking: not GICv4.0, or the vPE has no doorbell");
	if (!direct_lpi_(gic, vpe->rd)) {
		its = proxy_owner_(gic);
		if (!its)
			return LIBVIRQ_FAIL(
			    &gic->hal, LIBVIRQ_ENOTSUP,
			    "virq_vpe_set_db_masking: no DirectLPI and no proxy ITS "
			    "(virq_its_cfg::proxy_doorbells)");
		/* Masking will need the proxy: create it now, so that its
		 * allocation failure surfaces here and not at the next schedule. */
		virq_its_lock_(its);
		if (its->dead)
			st = LIBVIRQ_FAIL(&gic->hal, LIBVIRQ_ENOTSUP,
					  "virq_vpe_set_db_masking: the proxy's ITS is dead");
		else
			st = proxy_create_(
			    its, "virq_vpe_set_db_masking: doorbell proxy allocation failed");
		virq_its_unlock_(its);
		if (st != LIBVIRQ_OK)
			return st;
	}
	vpe->flags |= LIBVIRQ_VPE_DB_MASK;
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_LPI_CFG_Enable, *lpi_cfg_(gic, vpe->doorbell)))
		vpe->flags |= LIBVIRQ_VPE_DB_ON;
	else
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_ON;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_db_request_(struct virq_vpe *vpe, bool want, const char *not_cleaned)
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
	if (st != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL(&gic->hal, st, not_cleaned);
	if (st == LIBVIRQ_OK)
		st = virq_vpe_doorbell_invalidate(vpe); /* logs its failure */
	if (st != LIBVIRQ_OK) /* keep the doorbell enabled: spurious, never lost */
		*cfg = (uint8_t)LIBVIRQ_FIELD_SET(LIBVIRQ_LPI_CFG_Enable, *cfg, 1);
	if (st == LIBVIRQ_OK && !want)
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_ON;
	else
		vpe->flags |= LIBVIRQ_VPE_DB_ON;
	return st;
}

/* Releases @vpe's proxy slot on @its (DISCARD + SYNC), lock held. */
static void proxy_release_locked_(struct virq_its *its, struct virq_vpe *vpe)
{
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
	vpe->proxy_event = -1;
}

void virq_vpe_proxy_release_(struct virq_vpe *vpe)
{
	const struct virq_gic *gic = vpe->vm->gic;
	struct virq_its *its;

	if (vpe->proxy_event < 0)
		return;
	/* The proxy's ITS even when dead: its slot must forget the vPE, whose
	 * storage the caller may reuse before the ITS is destroyed. */
	its = proxy_owner_(gic);
	if (its) {
		virq_its_lock_(its);
		if (its->proxy)
			proxy_release_locked_(its, vpe);
		virq_its_unlock_(its);
	}
	vpe->proxy_event = -1;
}

/* GICR_SETLPIR / GICR_CLRLPIR (@reg) of @rd with @val, then a bounded
 * GICR_SYNCR wait (IHI 0069H §12.11: SYNCR covers the direct LPI writes). */
static virq_status direct_set_(struct virq_gic *gic, uint32_t rd, uint32_t reg, uint64_t val)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, reg), val);
	if (virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(
		    &gic->hal, LIBVIRQ_ETIMEDOUT,
		    "virq_vpe_move: GICR_CLRLPIR/SETLPIR: GICR_SYNCR.Busy stayed set", rd, reg);
	return LIBVIRQ_OK;
}

/*
 * Proxy path of virq_vpe_db_move_(), lock held: the vPE's slot (mapped on
 * @from's collection first when it has none) gets CLEAR + SYNC there, then
 * follows the vPE (MOVI to @to's collection + SYNC) and, for a vCPU in WFI,
 * INT + SYNC on @to. Without a collection on @to the slot is released.
 */
static virq_status proxy_db_move_(struct virq_its *its, struct virq_vpe *vpe, uint32_t from,
				  uint32_t to, bool wake)
{
	struct virq_its_device *p;
	struct virq_its_event *e;
	struct virq_its_cmd c[ITS_BATCH_MAX];
	uint32_t slot, at;
	size_t n = 0;
	bool fresh = vpe->proxy_event < 0, evict = false, follow;
	virq_status st;

	if (its->dead)
		return LIBVIRQ_OK; /* nothing can reach the doorbell any more */
	if (fresh && !virq_its_col_mapped_(its, from))
		return LIBVIRQ_OK; /* no collection on @from: no event can name it */
	st = proxy_create_(its, "virq_vpe_move: doorbell proxy allocation failed");
	if (st != LIBVIRQ_OK)
		return st;
	p = its->proxy;
	follow = virq_its_col_mapped_(its, to);
	if (fresh) {
		slot = its->proxy_next;
		e = ev_at_(p, slot);
		evict = e->kind == LIBVIRQ_ITS_EV_PROXY;
		if (evict) /* the slot's previous owner */
			c[n++] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_DISCARD,
						       .DeviceID = p->device_id,
						       .EventID = slot};
		c[n++] = virq_its_mapti(p->device_id, slot, vpe->doorbell, from);
		at = from;
	} else {
		slot = (uint32_t)vpe->proxy_event;
		e = ev_at_(p, slot);
		at = e->icid;
		if (at != from && virq_its_col_mapped_(its, from)) {
			/* The slot did not follow an earlier move: bring it back first. */
			c[n++] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_MOVI,
						       .DeviceID = p->device_id,
						       .EventID = slot,
						       .ICID = from};
			at = from;
		}
	}
	c[n++] = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_CLEAR, .DeviceID = p->device_id, .EventID = slot};
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, at));
	if (follow) {
		c[n++] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_MOVI,
					       .DeviceID = p->device_id,
					       .EventID = slot,
					       .ICID = to};
		c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, to));
		if (wake) {
			c[n++] = (struct virq_its_cmd){
			    .opcode = LIBVIRQ_ITS_INT, .DeviceID = p->device_id, .EventID = slot};
			c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, to));
		}
	} else {
		c[n++] = (struct virq_its_cmd){
		    .opcode = LIBVIRQ_ITS_DISCARD, .DeviceID = p->device_id, .EventID = slot};
		c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, at));
	}
	st = virq_its_exec_(its, c, n);
	if (st != LIBVIRQ_OK)
		st = LIBVIRQ_FAILV(&its->gic->hal, st,
				   "virq_vpe_move: proxy CLEAR / MOVI of the doorbell failed",
				   vpe->vpeid);
	if (evict) { /* DISCARD was sent (or may have been) */
		if (e->vpe)
			e->vpe->proxy_event = -1;
		memset(e, 0, sizeof(*e));
		p->nr_mapped--;
	}
	if (st != LIBVIRQ_OK) {
		/* Unknown how far it got: the slot may still map the doorbell, so
		 * keep it taken, owned by nobody (a reuse DISCARDs it first). */
		if (fresh) {
			e->kind = LIBVIRQ_ITS_EV_PROXY;
			e->intid = vpe->doorbell;
			e->icid = from;
			p->nr_mapped++;
			its->proxy_next = (slot + 1) % p->nr_events;
		}
		e->vpe = NULL;
		vpe->proxy_event = -1;
		return st;
	}
	if (!follow) { /* released */
		if (!fresh) {
			memset(e, 0, sizeof(*e));
			p->nr_mapped--;
		}
		vpe->proxy_event = -1;
		return LIBVIRQ_OK;
	}
	if (fresh) {
		p->nr_mapped++;
		its->proxy_next = (slot + 1) % p->nr_events;
	}
	e->kind = LIBVIRQ_ITS_EV_PROXY;
	e->icid = to;
	e->intid = vpe->doorbell;
	e->db = LIBVIRQ_ITS_NO_DOORBELL;
	e->vpe = vpe;
	vpe->proxy_event = (int32_t)slot;
	return LIBVIRQ_OK;
}

/* A proxy slot that exists follows the vPE (MOVI); lock held. */
static virq_status proxy_follow_(struct virq_its *its, struct virq_vpe *vpe, uint32_t rd)
{
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	virq_status st;

	if (vpe->proxy_event < 0 || !its->proxy || its->dead)
		return LIBVIRQ_OK;
	if (!virq_its_col_mapped_(its, rd)) { /* cannot follow: drop the slot */
		proxy_release_locked_(its, vpe);
		return LIBVIRQ_OK;
	}
	e = ev_at_(its->proxy, (uint32_t)vpe->proxy_event);
	c[0] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_MOVI,
				     .DeviceID = its->proxy->device_id,
				     .EventID = (uint32_t)vpe->proxy_event,
				     .ICID = rd};
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(its, rd));
	st = virq_its_exec_(its, c, 2);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&its->gic->hal, st,
				     "virq_vpe_move: the proxy doorbell slot did not follow (MOVI)",
				     vpe->vpeid);
	e->icid = rd;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_db_move_(struct virq_vpe *vpe, uint32_t from, uint32_t to)
{
	struct virq_gic *gic = vpe->vm->gic;
	struct virq_its *its = proxy_owner_(gic);
	bool wake = (vpe->flags & LIBVIRQ_VPE_IN_WFI) != 0;
	virq_status st = LIBVIRQ_OK;

	if (gic->version != LIBVIRQ_GIC_V4_0 || vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL ||
	    from == to) {
		/* GICv4.1: VMOVP carries the default doorbell (DB = 1). */
		if (its) {
			virq_its_lock_(its);
			st = proxy_follow_(its, vpe, to);
			virq_its_unlock_(its);
		}
		return st;
	}
	if (direct_lpi_(gic, from) && direct_lpi_(gic, to)) {
		st = direct_set_(gic, from, LIBVIRQ_GICR_CLRLPIR,
				 LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_CLRLPIR_pINTID, vpe->doorbell));
		if (st == LIBVIRQ_OK && wake)
			st = direct_set_(
			    gic, to, LIBVIRQ_GICR_SETLPIR,
			    LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_SETLPIR_pINTID, vpe->doorbell));
		if (st == LIBVIRQ_OK && its) {
			virq_its_lock_(its);
			st = proxy_follow_(its, vpe, to);
			virq_its_unlock_(its);
		}
		return st;
	}
	if (!its)
		return LIBVIRQ_OK; /* no DirectLPI, no proxy: nothing reaches the doorbell */
	virq_its_lock_(its);
	st = proxy_db_move_(its, vpe, from, to, wake);
	virq_its_unlock_(its);
	return st;
}
