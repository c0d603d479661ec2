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

/* Slots of the proxy device (::virq_its_cfg::proxy_slots, default
 * PROXY_SLOTS_DEFAULT_): at least one per redistributor, at most what
 * GITS_TYPER.ID_bits allows, so that that many vPEs each keep a slot and no
 * doorbell is evicted: an eviction's DISCARD also removes the evicted
 * doorbell's pending state (IHI 0069H §5.3 DISCARD), see proxy_victim_().
 * virq_its_device_map_locked_() rounds up to a power of two. */
#define PROXY_SLOTS_DEFAULT_ 16u

static uint32_t proxy_slots_(const struct virq_its *its)
{
	uint32_t nr_rd = its->gic->nr_rd,
		 want = its->proxy_slots ? its->proxy_slots : PROXY_SLOTS_DEFAULT_;
	uint32_t n = nr_rd > want ? nr_rd : want;

	if (its->lim.eventid_bits < 32 && n > (1u << its->lim.eventid_bits))
		n = (1u << its->lim.eventid_bits) > nr_rd ? 1u << its->lim.eventid_bits : nr_rd;
	return n;
}

/* Creates the proxy device of @its (proxy_slots_() events) unless it
 * exists: one 4 KiB page holds the device and its page descriptor. The
 * ITS's lock held. */
static virq_status proxy_create_(const char *api, struct virq_its *its)
{
	struct virq_page pg;
	virq_status st;

	if (its->proxy)
		return LIBVIRQ_OK;
	st = LIBVIRQ_PAGE_ALLOC_(api, &its->hal, 4096, 4096, &pg, "doorbell proxy device");
	if (st != LIBVIRQ_OK)
		return st;
	/* The device lives in the page; the page descriptor right after it.
	 * its->proxy is set first: virq_its_device_map() lets only the proxy
	 * object take the reserved DeviceID. */
	its->proxy = pg.va;
	st = virq_its_device_map_locked_(api, its, its->proxy, its->proxy_devid, proxy_slots_(its));
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
		if (ev_kind_(p, i) == LIBVIRQ_ITS_EV_PROXY && ev_vpe_at_(p, i))
			ev_vpe_at_(p, i)->proxy_event = -1;
		ev_clear_(p, i);
	}
	p->nr_mapped = 0;
	/* From virq_its_destroy(), which takes no lock (nothing else may use
	 * the ITS; the embedder may hold its lock across the teardown or have
	 * torn it down): the unmap without the lock, not reported (handled here). */
	st = virq_its_device_unmap_locked_(NULL, p);
	if (st != LIBVIRQ_OK) { /* ITS dead: free the memory anyway */
		virq_its_dev_unlink_(its, p);
		virq_its_dev_mem_free_(its, &p->ev);
		virq_its_dev_mem_free_(its, &p->itt);
	}
	memcpy(&pg, p + 1, sizeof(pg));
	its->proxy = NULL;
	virq_page_free_(&its->gic->hal, &pg);
}

/* Slot @slot of the proxy now maps @vpe's doorbell on @icid (or may: @vpe
 * NULL, taken by nobody, so that a reuse DISCARDs it first). */
static void proxy_slot_take_(struct virq_its *its, uint32_t slot, struct virq_vpe *vpe,
			     uint32_t doorbell, uint32_t icid)
{
	if (ev_kind_(its->proxy, slot) != LIBVIRQ_ITS_EV_PROXY)
		its->proxy->nr_mapped++;
	ev_set_(its->proxy, slot, vpe, doorbell, icid);
	if (vpe)
		vpe->proxy_event = (int32_t)slot;
	its->proxy_next = (slot + 1) % its->proxy->nr_events;
}

/* Slot @slot of the proxy maps nothing any more (its DISCARD ran). */
static void proxy_slot_free_(struct virq_its *its, uint32_t slot)
{
	struct virq_vpe *vpe = ev_vpe_at_(its->proxy, slot);

	if (ev_kind_(its->proxy, slot) != LIBVIRQ_ITS_EV_PROXY)
		return;
	if (vpe)
		vpe->proxy_event = -1;
	ev_clear_(its->proxy, slot);
	its->proxy->nr_mapped--;
}

/* A batch of commands on one proxy slot and what each does to the slot,
 * so that the tracking can follow a batch that failed part-way. */
enum slot_fx_ {
	FX_NONE_ = 0, /* CLEAR, INT, SYNC */
	FX_MAP_,      /* MAPTI of the vPE's doorbell on icid[] */
	FX_AT_,	      /* MOVI to icid[] */
	FX_FREE_,     /* DISCARD of the vPE's own mapping */
};

struct slot_batch_ {
	struct virq_its_cmd c[ITS_BATCH_MAX];
	uint8_t fx[ITS_BATCH_MAX];
	uint32_t icid[ITS_BATCH_MAX];
	size_t n;
};

static void sb_add_(struct slot_batch_ *b, struct virq_its_cmd c, enum slot_fx_ fx, uint32_t icid)
{
	b->c[b->n] = c;
	b->fx[b->n] = (uint8_t)fx;
	b->icid[b->n] = icid;
	b->n++;
}

/* Sends @b on @slot for @vpe and tracks what ran: every effect before
 * GITS_CREADR's position; when that is unknown (the ITS is dead), the slot
 * is taken by nobody (a reuse DISCARDs it first). Lock held. */
static virq_status sb_exec_(struct virq_its *its, const struct slot_batch_ *b, uint32_t slot,
			    struct virq_vpe *vpe)
{
	struct virq_its_device *p = its->proxy;
	struct virq_its_ran ran;
	virq_status st = virq_its_exec_seen_(its, b->c, b->n, &ran);

	for (size_t i = 0; i < b->n && (i < ran.ran || !ran.exact); i++) {
		if (b->fx[i] == FX_FREE_ && ran.exact)
			proxy_slot_free_(its, slot);
		else if (b->fx[i] == FX_MAP_)
			proxy_slot_take_(its, slot, vpe, vpe->doorbell, b->icid[i]);
		else if (b->fx[i] == FX_AT_ && ran.exact)
			ev_set_(p, slot, ev_vpe_at_(p, slot), ev_intid_(p, slot), b->icid[i]);
	}
	if (!ran.exact && ev_kind_(p, slot) == LIBVIRQ_ITS_EV_PROXY) {
		ev_vpe_(p)[slot] = NULL; /* taken by nobody */
		vpe->proxy_event = -1;
	}
	return st;
}

/*
 * The slot a vPE without one takes: the first free slot from proxy_next on,
 * else proxy_next (its owner evicted, and given the slot back at once:
 * proxy_give_back_()). Lock held.
 */
static uint32_t proxy_victim_(const struct virq_its *its)
{
	const struct virq_its_device *p = its->proxy;
	uint32_t n = p->nr_events, i, s;

	if (!n) /* never: a device has at least 2 events */
		return 0;
	for (i = 0; i < n; i++) {
		s = (its->proxy_next + i) % n;
		if (ev_kind_(p, s) != LIBVIRQ_ITS_EV_PROXY)
			return s;
	}
	return its->proxy_next % n;
}

/*
 * Every slot was taken and @victim was evicted from @slot (its doorbell on
 * collection @icid) for the INV of the slot's new owner. The eviction's
 * DISCARD also removed the pending state of @victim's doorbell (IHI 0069H
 * §5.3 DISCARD): one raised and not yet taken by its CPU (a blocked vCPU's
 * wake-up) would be lost. So the slot goes back to @victim at once --
 * DISCARD + SYNC of the new owner's mapping, MAPTI, INT, SYNC -- the INT
 * raising its doorbell again (at worst one spurious wake-up). This DISCARD
 * removes the new owner's own pending doorbell in turn: unless it is
 * resident (none can be raised), PendingLast is set on it, which
 * virq_vpe_put() reports so that its vCPU does not block. A failure is
 * logged (the new owner's INV did run) and tracked as GITS_CREADR showed.
 * Lock held.
 */
static void proxy_give_back_(const char *api, struct virq_its *its, uint32_t slot,
			     struct virq_vpe *victim, uint32_t icid)
{
	struct virq_its_device *p = its->proxy;
	struct virq_vpe *taker = ev_vpe_at_(p, slot);
	uint32_t at = ev_icid_(p, slot);
	struct slot_batch_ b;
	virq_status st;

	b.n = 0;
	sb_add_(&b, virq_its_discard(p->device_id, slot), FX_FREE_, 0);
	sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, at)), FX_NONE_, 0);
	sb_add_(&b, virq_its_mapti(p->device_id, slot, victim->doorbell, icid), FX_MAP_, icid);
	sb_add_(&b, virq_its_int_cmd(p->device_id, slot), FX_NONE_, 0);
	sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, icid)), FX_NONE_, 0);
	st = sb_exec_(its, &b, slot, victim);
	if (taker && taker->proxy_event == (int32_t)slot && ev_vpe_at_(p, slot) != taker)
		taker->proxy_event = -1;
	if (taker && !(taker->flags & LIBVIRQ_VPE_RESIDENT))
		taker->flags |= LIBVIRQ_VPE_PENDING_LAST;
	its->proxy_give_backs++;
	if (st != LIBVIRQ_OK)
		(void)LIBVIRQ_FAILV_(api, &its->hal, st,
				     "proxy slot %u back to vPE %u (DISCARD + SYNC + MAPTI + INT + "
				     "SYNC) not seen to run: vPE %u's doorbell may be lost",
				     slot, victim->vpeid, victim->vpeid);
}

/* A doorbell of @vpe on a fresh proxy slot: [DISCARD of the slot's previous
 * owner,] MAPTI on @vpe's collection, INV, SYNC. The tracking follows what
 * GITS_CREADR showed (docs/gicv4-core.md "Failures"): a DISCARD that did not
 * run leaves the previous owner its slot; a MAPTI that ran gives the slot to
 * @vpe even when its INV failed (the retry sends INV alone); when it is not
 * known how far the batch got (the ITS is dead) the slot is taken by nobody.
 * Lock held. */
static virq_status proxy_map_inv_(const char *api, struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_device *p = its->proxy;
	uint32_t slot = proxy_victim_(its);
	bool evict = ev_kind_(p, slot) == LIBVIRQ_ITS_EV_PROXY;
	struct virq_vpe *victim = evict ? ev_vpe_at_(p, slot) : NULL;
	uint32_t victim_icid = evict ? ev_icid_(p, slot) : 0;
	size_t n = 0, mapti;
	struct virq_its_cmd c[4];
	struct virq_its_ran ran;
	virq_status st;

	if (evict)
		c[n++] = virq_its_discard(p->device_id, slot);
	mapti = n;
	c[n++] = virq_its_mapti(p->device_id, slot, vpe->doorbell, vpe->rd);
	c[n++] = virq_its_inv_cmd(p->device_id, slot);
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(its, vpe->rd));
	st = virq_its_exec_seen_(its, c, n, &ran);
	if (st == LIBVIRQ_OK || (ran.exact && ran.ran > mapti)) {
		proxy_slot_free_(its, slot); /* evicted (no-op for a free slot) */
		proxy_slot_take_(its, slot, vpe, vpe->doorbell, vpe->rd);
	} else if (!ran.exact) {
		proxy_slot_free_(its, slot);
		proxy_slot_take_(its, slot, NULL, vpe->doorbell, vpe->rd);
	} else if (evict && ran.ran > 0) {
		proxy_slot_free_(its, slot); /* DISCARD ran, MAPTI did not */
	}
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, &its->hal, st,
		    "proxy [DISCARD +] MAPTI + INV + SYNC of vPE %u's doorbell not "
		    "seen to run (the slot tracked as GITS_CREADR showed; evicted vPE "
		    "%u, whose pending doorbell a DISCARD that ran removed: %u)",
		    vpe->vpeid, victim ? victim->vpeid : LIBVIRQ_VPEID_NONE,
		    (unsigned)(evict && (!ran.exact || ran.ran > 0)));
	if (victim && victim != vpe)
		proxy_give_back_(api, its, slot, victim, victim_icid);
	return LIBVIRQ_OK;
}

/* Proxy path: create the proxy if needed, map the doorbell on a slot if
 * needed, then INV (Linux's recipe for GICv4.0 without DirectLPI). The
 * ITS's lock held; whether it is dead is read under it. */
static virq_status proxy_inv_(const char *api, struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_device *p;
	struct virq_its_cmd c[2];
	uint32_t slot;
	virq_status st;

	if (its->dead)
		return LIBVIRQ_FAILV_(api, &its->hal, LIBVIRQ_ENOTSUP,
				      "the doorbell proxy's ITS at %x is dead after a failure",
				      its->base);
	st = proxy_create_(api, its);
	if (st != LIBVIRQ_OK)
		return st;
	p = its->proxy;
	if (vpe->proxy_event < 0) {
		if (!virq_its_col_mapped_(its, vpe->rd))
			return LIBVIRQ_FAILV_(
			    api, &its->hal, LIBVIRQ_ENOENT,
			    "collection rd=%u of vPE %u not mapped on the proxy's ITS", vpe->rd,
			    vpe->vpeid);
		return proxy_map_inv_(api, its, vpe);
	}
	slot = (uint32_t)vpe->proxy_event;
	c[0] = virq_its_inv_cmd(p->device_id, slot);
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(its, ev_icid_(p, slot)));
	st = virq_its_exec_(its, c, 2);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &its->hal, st,
				      "proxy INV + SYNC of vPE %u's doorbell not seen to run",
				      vpe->vpeid);
	return LIBVIRQ_OK;
}

static virq_status direct_inv_(const char *api, struct virq_gic *gic, uint32_t rd, uint32_t intid)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_INVLPIR),
		   LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVLPIR_INTID, intid));
	if (virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, &gic->hal, LIBVIRQ_ETIMEDOUT,
		    "GICR_INVLPIR of INTID %u: redistributor %u's GICR_SYNCR.Busy "
		    "still 1 after timeout_ns=%u",
		    intid, rd, gic->timeout_ns);
	return LIBVIRQ_OK;
}

/* GICv4.1: INVDB + VSYNC on the first ITS the vPE is mapped on. */
static virq_status invdb_(const char *api, struct virq_vpe *vpe)
{
	struct virq_gic *gic = vpe->vm->gic;
	struct virq_its_cmd c[2] = {
	    virq_its_invdb(vpe->vpeid),
	    virq_its_vsync_cmd(vpe->vpeid),
	};
	virq_status st;

	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		if (!(vpe->its_mask & (1u << i)))
			continue;
		virq_its_lock_(gic->its[i]);
		st = virq_its_exec_(gic->its[i], c, 2);
		virq_its_unlock_(gic->its[i]);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV_(
			    api, &vpe->hal, st,
			    "INVDB + VSYNC of vPE %u on the ITS at %x not seen to "
			    "run",
			    vpe->vpeid, gic->its[i]->base);
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_ENOTSUP, "vPE %u is mapped on no ITS",
			      vpe->vpeid);
}

virq_status virq_vpe_doorbell_invalidate_(const char *api, struct virq_vpe *vpe)
{
	struct virq_gic *gic;
	struct virq_its *its;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	if (vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EINVAL, "vPE %u has no doorbell",
				      vpe->vpeid);
	if (gic->version == LIBVIRQ_GIC_V4_1)
		return invdb_(api, vpe);
	if (direct_lpi_(gic, vpe->rd))
		return direct_inv_(api, gic, vpe->rd, vpe->doorbell);
	its = proxy_owner_(gic);
	if (!its)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_ENOTSUP,
				      "GICv4.0 redistributor %u without DirectLPI and no proxy ITS "
				      "(virq_its_cfg::proxy_doorbells)",
				      vpe->rd);
	virq_its_lock_(its);
	st = proxy_inv_(api, its, vpe);
	virq_its_unlock_(its);
	return st;
}

virq_status virq_vpe_doorbell_invalidate(struct virq_vpe *vpe)
{
	return virq_vpe_doorbell_invalidate_(LIBVIRQ_ENTRY_, vpe);
}

/* Masking needs the proxy (no DirectLPI on the vPE's redistributor): it is
 * created now, so that its allocation failure surfaces here and not at
 * the next schedule. */
static virq_status mask_proxy_(const char *api, const struct virq_vpe *vpe)
{
	struct virq_its *its = proxy_owner_(vpe->vm->gic);
	virq_status st;

	if (!its)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_ENOTSUP,
				      "redistributor %u without DirectLPI and no proxy ITS "
				      "(virq_its_cfg::proxy_doorbells)",
				      vpe->rd);
	virq_its_lock_(its);
	if (its->dead)
		st = LIBVIRQ_FAILV_(api, &its->hal, LIBVIRQ_ENOTSUP,
				    "the doorbell proxy's ITS at %x is dead after a failure",
				    its->base);
	else
		st = proxy_create_(api, its);
	virq_its_unlock_(its);
	return st;
}

virq_status virq_vpe_set_db_masking(struct virq_vpe *vpe, bool on)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_gic *gic;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	if (!on) {
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_MASK;
		return LIBVIRQ_OK;
	}
	if (gic->version != LIBVIRQ_GIC_V4_0)
		return LIBVIRQ_FAIL_(api, &vpe->hal, LIBVIRQ_ENOTSUP,
				     "not a GICv4.0 (doorbell masking is GICv4.0 only)");
	if (vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_ENOTSUP, "vPE %u has no doorbell",
				      vpe->vpeid);
	if (!direct_lpi_(gic, vpe->rd)) {
		st = mask_proxy_(api, vpe);
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

virq_status virq_vpe_db_request_(const char *api, struct virq_vpe *vpe, bool want)
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
		st = LIBVIRQ_FAILV_(api, &vpe->hal, st,
				    "doorbell %u's configuration byte not coherent and "
				    "dcache_clean=NULL",
				    vpe->doorbell);
	if (st == LIBVIRQ_OK)
		st = virq_vpe_doorbell_invalidate_(api, vpe);
	if (st != LIBVIRQ_OK) /* keep the doorbell enabled: spurious, never lost */
		*cfg = (uint8_t)LIBVIRQ_FIELD_SET(LIBVIRQ_LPI_CFG_Enable, *cfg, 1);
	if (st == LIBVIRQ_OK && !want)
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_DB_ON;
	else
		vpe->flags |= LIBVIRQ_VPE_DB_ON;
	return st;
}

/* Releases @vpe's proxy slot on @its (DISCARD + SYNC), lock held. A
 * DISCARD that did not run, or may not have, leaves the slot taken by
 * nobody (the vPE's storage may be reused; a reuse DISCARDs it first). */
static void proxy_release_locked_(struct virq_its *its, struct virq_vpe *vpe)
{
	uint32_t slot = (uint32_t)vpe->proxy_event;
	struct virq_its_cmd c[2] = {
	    virq_its_discard(its->proxy->device_id, slot),
	    virq_its_sync_cmd(virq_its_rdbase_(its, ev_icid_(its->proxy, slot))),
	};
	struct virq_its_ran ran = {0, false};

	if (!its->dead)
		(void)virq_its_exec_seen_(its, c, 2, &ran);
	if (ran.exact && ran.ran >= 1)
		proxy_slot_free_(its, slot);
	else
		ev_vpe_(its->proxy)[slot] = NULL; /* taken by nobody */
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
static virq_status direct_set_(const char *api, struct virq_gic *gic, uint32_t rd, uint32_t reg,
			       uint64_t val)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, reg), val);
	if (virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, &gic->hal, LIBVIRQ_ETIMEDOUT,
		    "GICR_CLRLPIR/SETLPIR (offset %x) of the doorbell: "
		    "redistributor %u's GICR_SYNCR.Busy still 1 after timeout_ns=%u",
		    reg, rd, gic->timeout_ns);
	return LIBVIRQ_OK;
}

/*
 * Proxy path of virq_vpe_db_move_(), lock held: the vPE's slot (mapped on
 * @from's collection first when it has none) gets CLEAR + SYNC there, then
 * follows the vPE (MOVI to @to's collection + SYNC) and, for a vCPU in WFI,
 * INT + SYNC on @to. Without a collection on @to the slot is released.
 * After a failure the slot is tracked as GITS_CREADR showed: the retry of
 * the move finds it where the ITS left it.
 */
static virq_status proxy_db_move_(const char *api, struct virq_its *its, struct virq_vpe *vpe,
				  uint32_t from, uint32_t to, bool wake)
{
	struct slot_batch_ b;
	uint32_t slot, at = from;
	bool fresh = vpe->proxy_event < 0;
	virq_status st;

	if (its->dead)
		return LIBVIRQ_OK; /* nothing can reach the doorbell any more */
	if (fresh && !virq_its_col_mapped_(its, from))
		return LIBVIRQ_OK; /* no collection on @from: no event can name it */
	st = proxy_create_(api, its);
	if (st != LIBVIRQ_OK)
		return st;
	b.n = 0;
	slot = fresh ? proxy_victim_(its) : (uint32_t)vpe->proxy_event;
	/* Every slot taken: nothing is sent. An eviction would cost the owner a
	 * give-back (proxy_give_back_()), whose DISCARD would remove the
	 * doorbell raised on @to below; without the CLEAR, a doorbell left
	 * pending on @from is taken there (a wake-up, spurious at worst). */
	if (fresh && ev_kind_(its->proxy, slot) == LIBVIRQ_ITS_EV_PROXY)
		return LIBVIRQ_OK;
	if (fresh)
		sb_add_(&b, virq_its_mapti(its->proxy->device_id, slot, vpe->doorbell, from),
			FX_MAP_, from);
	else
		at = ev_icid_(its->proxy, slot);
	if (at != from && virq_its_col_mapped_(its, from)) {
		/* The slot did not follow an earlier move: bring it back first. */
		sb_add_(&b, virq_its_movi(its->proxy->device_id, slot, from), FX_AT_, from);
		at = from;
	}
	sb_add_(&b, virq_its_clear_cmd(its->proxy->device_id, slot), FX_NONE_, 0);
	sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, at)), FX_NONE_, 0);
	if (virq_its_col_mapped_(its, to)) {
		sb_add_(&b, virq_its_movi(its->proxy->device_id, slot, to), FX_AT_, to);
		sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, to)), FX_NONE_, 0);
		if (wake) {
			sb_add_(&b, virq_its_int_cmd(its->proxy->device_id, slot), FX_NONE_, 0);
			sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, to)), FX_NONE_, 0);
		}
	} else {
		sb_add_(&b, virq_its_discard(its->proxy->device_id, slot), FX_FREE_, 0);
		sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, at)), FX_NONE_, 0);
	}
	st = sb_exec_(its, &b, slot, vpe);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &its->hal, st,
				      "proxy CLEAR / MOVI of vPE %u's doorbell from rd=%u to rd=%u "
				      "not seen to run (retry the move)",
				      vpe->vpeid, from, to);
	return LIBVIRQ_OK;
}

/* A proxy slot that exists follows the vPE (MOVI); lock held. */
static virq_status proxy_follow_(const char *api, struct virq_its *its, struct virq_vpe *vpe,
				 uint32_t rd)
{
	struct slot_batch_ b;
	uint32_t slot = (uint32_t)vpe->proxy_event;
	virq_status st;

	if (vpe->proxy_event < 0 || !its->proxy || its->dead)
		return LIBVIRQ_OK;
	if (!virq_its_col_mapped_(its, rd)) { /* cannot follow: drop the slot */
		proxy_release_locked_(its, vpe);
		return LIBVIRQ_OK;
	}
	b.n = 0;
	sb_add_(&b, virq_its_movi(its->proxy->device_id, slot, rd), FX_AT_, rd);
	sb_add_(&b, virq_its_sync_cmd(virq_its_rdbase_(its, rd)), FX_NONE_, 0);
	st = sb_exec_(its, &b, slot, vpe);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, &its->hal, st,
		    "MOVI of vPE %u's proxy doorbell slot to rd=%u not seen to run", vpe->vpeid,
		    rd);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_db_move_(const char *api, struct virq_vpe *vpe, uint32_t from, uint32_t to)
{
	struct virq_gic *gic = vpe->vm->gic;
	struct virq_its *its;
	bool wake = (vpe->flags & LIBVIRQ_VPE_IN_WFI) != 0;
	virq_status st = LIBVIRQ_OK;

	/* No doorbell, or GICv4.1 (no proxy slot: masking is GICv4.0 only):
	 * nothing to clear and no slot to follow. */
	if (gic->version != LIBVIRQ_GIC_V4_0 || vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_OK;
	its = proxy_owner_(gic);
	if (from == to) {
		/* Nothing left behind; a slot that did not follow an earlier
		 * move follows now. */
		if (its) {
			virq_its_lock_(its);
			st = proxy_follow_(api, its, vpe, to);
			virq_its_unlock_(its);
		}
		return st;
	}
	if (direct_lpi_(gic, from) && direct_lpi_(gic, to)) {
		st = direct_set_(api, gic, from, LIBVIRQ_GICR_CLRLPIR,
				 LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_CLRLPIR_pINTID, vpe->doorbell));
		if (st == LIBVIRQ_OK && wake)
			st = direct_set_(
			    api, gic, to, LIBVIRQ_GICR_SETLPIR,
			    LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_SETLPIR_pINTID, vpe->doorbell));
		if (st == LIBVIRQ_OK && its) {
			virq_its_lock_(its);
			st = proxy_follow_(api, its, vpe, to);
			virq_its_unlock_(its);
		}
		return st;
	}
	if (!its)
		return LIBVIRQ_OK; /* no DirectLPI, no proxy: nothing reaches the doorbell */
	virq_its_lock_(its);
	st = proxy_db_move_(api, its, vpe, from, to, wake);
	virq_its_unlock_(its);
	return st;
}
