/* SPDX-License-Identifier: MIT */
/*
 * vLPI mappings: VMAPTI (single, with a configuration byte, and ranged),
 * DISCARD (single and ranged),
 * VMOVI, DISCARD + VMAPTI (remap), per-vLPI GICv4.0 doorbells (VMOVI with
 * D = 1), configuration + INV. Doorbell masking and the proxy device are in
 * doorbell.c; the batched DISCARD core is in device.c.
 * Spec: Arm IHI 0069H §5.3 (VMAPTI, VMOVI, DISCARD, INV, VSYNC), chapter 9.
 */
#include "device_priv.h"
#include "enc/its_fill.h"
#include "its_exec_priv.h"
#include "its_queue_priv.h"
#include "vpe_priv.h"

/* Configuration byte of a vLPI mapped by virq_vlpi_map(): what
 * virq_gic_vm_vlpi_config(vm, vintid, 0xA0, true) writes (priority 0xA0,
 * RES1, Enable). */
#define VCFG_ON_ 0xA3u

/* The configuration byte for @priority and @enable (IHI 0069H §5.1.1:
 * Priority[7:2], RES1, Enable), as virq_gic_vm_vlpi_config() writes it. */
static uint8_t vcfg_byte_(uint8_t priority, bool enable)
{
	return (uint8_t)((priority & LIBVIRQ_FIELD_MASK(LIBVIRQ_LPI_CFG_Priority)) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_RES1, 1) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_Enable, enable ? 1 : 0));
}

/* Common checks for a vLPI target on @dev's (live) ITS, shared by the map,
 * map range, remap and move calls; each reports under @p api, the public
 * function called (docs/design.md "Failures"). A NULL or never-initialised
 * vPE is reported through the device's HAL. */
static virq_status target_ok_(const char *api, const struct virq_its_device *dev,
			      const struct virq_vpe *vpe, uint32_t vintid)
{
	const struct virq_hal *hal = &dev->hal;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, hal, "vpe", vpe);
	if (vpe->vm->gic != dev->its->gic)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vpe and dev on different GICs");
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EDEAD, "vPE %u being torn down",
				      vpe->vpeid);
	if (dev->its->lim.version == LIBVIRQ_ITS_V3)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP, "GICv3 ITS (no vLPIs)");
	if (vintid < LIBVIRQ_LPI_BASE)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "vintid=%u < 8192", vintid);
	if (vintid >= (1u << vpe->vm->id_bits))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "vintid=%u >= 2^id_bits=%u", vintid,
				      1u << vpe->vm->id_bits);
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
	struct virq_vpe *old = ev_vpe_at_(dev, event);

	if (ev_kind_(dev, event) == LIBVIRQ_ITS_EV_NONE)
		dev->nr_mapped++;
	else if (old)
		vpe_vlpis_dec_(old, 1);
	ev_set_(dev, event, vpe, vintid, db != LIBVIRQ_ITS_NO_DOORBELL);
	vpe_vlpis_inc_(vpe, 1);
}

/* Writes @n configuration bytes @cfg from @vintid, one clean. */
static virq_status vcfg_fill_(struct virq_vpe *vpe, uint32_t vintid, uint32_t n, uint8_t cfg)
{
	struct virq_gic *gic = vpe->vm->gic;
	uint8_t *b = (uint8_t *)vpe->vm->vprop.va + (vintid - LIBVIRQ_LPI_BASE);

	memset(b, cfg, n);
	return clean_if_(&gic->hal, gic->rd_noncoherent, b, n);
}

/* Writes @n configuration bytes VCFG_ON_ from @vintid, one clean. */
static virq_status vcfg_on_(struct virq_vpe *vpe, uint32_t vintid, uint32_t n)
{
	return vcfg_fill_(vpe, vintid, n, VCFG_ON_);
}

/* virq_vlpi_map() and virq_vlpi_map_config() on a live device with the ITS
 * lock held. The configuration byte is written (and cleaned) before the
 * VMAPTI is queued: the redistributor reads it when it first caches the
 * vLPI, so the vLPI is never live with another priority or enable
 * (IHI 0069H §5.1.1). */
static virq_status vlpi_map_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				    struct virq_vpe *vpe, uint32_t vintid, bool doorbell,
				    uint8_t cfg)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	uint32_t db;
	virq_status st;

	st = target_ok_(api, dev, vpe, vintid);
	if (st != LIBVIRQ_OK)
		return st;
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "event=%u >= nr_events=%u", event,
				      dev->nr_events);
	if (ev_kind_(dev, event) != LIBVIRQ_ITS_EV_NONE)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EEXIST, "event=%u already mapped", event);
	st = virq_vpe_its_ensure_(api, dev->its, vpe);
	if (st != LIBVIRQ_OK)
		return st;
	if (vcfg_fill_(vpe, vintid, 1, cfg) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "vLPI configuration table not coherent and dcache_clean=NULL");
	db = db_for_(dev, vpe, doorbell);
	c[0] = virq_its_vmapti(dev->device_id, event, vpe->vpeid, vintid, db);
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_ev_(dev, event, c, 2, true, &ran);
	if (st != LIBVIRQ_OK && !its_may_have_run_(&ran, 0))
		return LIBVIRQ_FAILV_(api, hal, st,
				      "VMAPTI + VSYNC of event=%u not run (not mapped)", event);
	/* Mapped, or the VMAPTI may have run: tracked, the vPE referenced
	 * (docs/gicv4-core.md "Failures"). */
	track_(dev, event, vpe, vintid, db);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "VMAPTI + VSYNC of event=%u: the VMAPTI may have run "
				      "(tracked as mapped)",
				      event);
	return LIBVIRQ_OK;
}

static virq_status vlpi_map_(const char *api, struct virq_its_device *dev, uint32_t event,
			     struct virq_vpe *vpe, uint32_t vintid, bool doorbell, uint8_t cfg)
{
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, LIBVIRQ_GICV4_HAL_OF_(vpe), "dev", dev);
	virq_its_lock_dev_(dev, true);
	st = vlpi_map_locked_(api, dev, event, vpe, vintid, doorbell, cfg);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_map_config(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
				 uint32_t vintid, bool doorbell, uint8_t priority, bool enable)
{
	return vlpi_map_(LIBVIRQ_ENTRY_, dev, event, vpe, vintid, doorbell,
			 vcfg_byte_(priority, enable));
}

virq_status virq_vlpi_map(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
			  uint32_t vintid, bool doorbell)
{
	return vlpi_map_(LIBVIRQ_ENTRY_, dev, event, vpe, vintid, doorbell, VCFG_ON_);
}

/*
 * virq_vlpi_map_range(): validated once for the whole range (the first and
 * the last VMAPTI through the encoder; every field is monotonic in between),
 * configuration bytes in one pass with one clean, tracking in one pass, and
 * the VMAPTIs written straight into the queue slots, then one VSYNC and one
 * drain. After a stall the ITS ran exactly the commands before the stalled
 * one (IHI 0069H §5.2: no later command is processed; the queue reset then
 * drops them): the events whose VMAPTI, at linear queue position
 * base + k * 32, it never reached are untracked, so that no DISCARD is ever
 * sent for them.
 */
/* The argument checks of virq_vlpi_map_range(); *raw gets the encoded VSYNC. */
static virq_status range_check_(const char *api, struct virq_its_device *dev, uint32_t first_event,
				uint32_t count, struct virq_vpe *vpe, uint32_t first_vintid,
				uint32_t db, uint8_t *raw)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its *its = dev->its;
	struct virq_its_cmd c;
	uint32_t busy;
	virq_status st;

	if (!count)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "count=0");
	if (first_event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "first_event=%u >= nr_events=%u",
				      first_event, dev->nr_events);
	if (count > dev->nr_events - first_event)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "count=%u > nr_events-first=%u",
				      count, dev->nr_events - first_event);
	st = target_ok_(api, dev, vpe, first_vintid);
	if (st != LIBVIRQ_OK)
		return st;
	if (count - 1 > 0xFFFFFFFFu - first_vintid)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "first_vintid=%u + count=%u wraps past 2^32", first_vintid,
				      count);
	st = target_ok_(api, dev, vpe, first_vintid + count - 1);
	if (st != LIBVIRQ_OK)
		return st;
	if (its->dead)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EDEAD,
				     "the ITS is dead after a failure (nothing sent)");
	busy = ev_first_mapped_(dev, first_event, count);
	if (busy != first_event + count)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EEXIST,
				      "event=%u of the range already mapped", busy);
	/* The first and the last VMAPTI through the encoder: every field is
	 * monotonic over the range, so every command between is valid too. */
	c = virq_its_vmapti(dev->device_id, first_event, vpe->vpeid, first_vintid, db);
	st = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
	if (st == LIBVIRQ_OK) {
		c.EventID += count - 1;
		c.vINTID += count - 1;
		st = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
	}
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "the ITS limits reject the VMAPTI of event=%u (vintid=%u)",
				      c.EventID, c.vINTID);
	c = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st, "the ITS limits reject the VSYNC of vPE %u",
				      vpe->vpeid);
	return LIBVIRQ_OK;
}

/* Writes the VMAPTIs straight into the queue; *done gets how many. */
static virq_status queue_vmaptis_(struct virq_its_device *dev, uint32_t first_event, uint32_t count,
				  const struct virq_vpe *vpe, uint32_t first_vintid, uint32_t db,
				  uint32_t *done)
{
	struct virq_its_queue *q = &dev->its->q;

	*done = 0;
	while (*done < count) {
		uint8_t *slots;
		uint32_t n = virq_its_queue_room_(q, &slots);

		if (!n) {
			virq_status st = virq_its_queue_make_room_(q);

			if (st != LIBVIRQ_OK)
				return st;
			continue;
		}
		if (n > count - *done)
			n = count - *done;
		virq_its_vmapti_fill_(slots, n, dev->device_id, first_event + *done, vpe->vpeid,
				      first_vintid + *done, db);
		virq_its_queue_commit_(q, n);
		*done += n;
	}
	return LIBVIRQ_OK;
}

/* virq_vlpi_map_range() of a live device with the ITS lock held. */
static virq_status vlpi_map_range_locked_(const char *api, struct virq_its_device *dev,
					  uint32_t first_event, uint32_t count,
					  struct virq_vpe *vpe, uint32_t first_vintid,
					  bool doorbell)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its *its = dev->its;
	uint8_t vsync[LIBVIRQ_ITS_CMD_SIZE];
	uint32_t db, done = 0;
	uint64_t base, consumed;
	bool exact;
	virq_status st;

	db = vpe_live_(vpe) ? db_for_(dev, vpe, doorbell) : LIBVIRQ_ITS_NO_DOORBELL;
	st = range_check_(api, dev, first_event, count, vpe, first_vintid, db, vsync);
	if (st == LIBVIRQ_OK)
		st = virq_vpe_its_ensure_(api, its, vpe);
	if (st != LIBVIRQ_OK)
		return st;
	if (vcfg_on_(vpe, first_vintid, count) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "vLPI configuration table not coherent and dcache_clean=NULL");
	ev_set_vlpis_(dev, first_event, count, vpe, first_vintid, db != LIBVIRQ_ITS_NO_DOORBELL);
	dev->nr_mapped += count;
	vpe_vlpis_inc_(vpe, count);
	base = its->q.wr_lin; /* linear queue position of the first VMAPTI */
	st = queue_vmaptis_(dev, first_event, count, vpe, first_vintid, db, &done);
	if (st == LIBVIRQ_OK)
		st = virq_its_queue_push_raw_(&its->q, vsync);
	if (st == LIBVIRQ_OK)
		st = virq_its_queue_drain_(&its->q, NULL);
	if (st == LIBVIRQ_OK) {
		its->cmds += (uint64_t)count + 1;
		return LIBVIRQ_OK;
	}
	/* A queue failure: the reset reads GITS_CREADR once the ITS is
	 * quiescent. Events never queued, and (reset done) those whose VMAPTI
	 * GITS_CREADR did not pass, are untracked; a VMAPTI that ran, or that
	 * may have run (the ITS is dead), stays tracked with its vPE
	 * referenced. */
	exact = virq_its_fail_seen_(its, st, &consumed);
	for (uint32_t k = 0; k < count; k++)
		if (k >= done ||
		    (exact && base + ((uint64_t)k + 1) * LIBVIRQ_ITS_CMD_SIZE > consumed))
			virq_its_event_forget_(dev, first_event + k);
	return LIBVIRQ_FAILV_(api, hal, st,
			      "the queue failed after %u of count=%u VMAPTIs from first_event=%u "
			      "(those that ran stay mapped)",
			      done, count, first_event);
}

virq_status virq_vlpi_map_range(struct virq_its_device *dev, uint32_t first_event, uint32_t count,
				struct virq_vpe *vpe, uint32_t first_vintid, bool doorbell)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, LIBVIRQ_GICV4_HAL_OF_(vpe), "dev", dev);
	virq_its_lock_dev_(dev, false);
	st = vlpi_map_range_locked_(api, dev, first_event, count, vpe, first_vintid, doorbell);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_unmap(struct virq_its_device *dev, uint32_t event)
{
	return virq_its_unmap_event_(LIBVIRQ_ENTRY_, dev, event);
}

virq_status virq_vlpi_unmap_range(struct virq_its_device *dev, uint32_t first_event, uint32_t count)
{
	return virq_its_unmap_run_(LIBVIRQ_ENTRY_, dev, first_event, count, true);
}

/* @event of a live device is mapped to a vLPI: LIBVIRQ_OK, or ERANGE /
 * ENOENT reported under @p api. */
static virq_status virt_event_(const char *api, const struct virq_its_device *dev, uint32_t event)
{
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, &dev->hal, LIBVIRQ_ERANGE, "event=%u >= nr_events=%u",
				      event, dev->nr_events);
	if (ev_kind_(dev, event) != LIBVIRQ_ITS_EV_VIRT)
		return LIBVIRQ_FAILV_(api, &dev->hal, LIBVIRQ_ENOENT,
				      "event=%u not mapped to a vLPI (kind %u)", event,
				      ev_kind_(dev, event));
	return LIBVIRQ_OK;
}

/* virq_vlpi_remap() of a live device with the ITS lock held. */
static virq_status vlpi_remap_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				      struct virq_vpe *vpe, uint32_t vintid)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[4];
	struct virq_its_ran ran;
	size_t n = 0, vmapti;
	uint32_t db;
	struct virq_vpe *old;
	virq_status st = virt_event_(api, dev, event);

	if (st != LIBVIRQ_OK)
		return st;
	old = ev_vpe_at_(dev, event);
	st = target_ok_(api, dev, vpe, vintid);
	if (st == LIBVIRQ_OK)
		st = virq_vpe_its_ensure_(api, dev->its, vpe);
	if (st != LIBVIRQ_OK)
		return st;
	if (vcfg_on_(vpe, vintid, 1) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "vLPI configuration table not coherent and dcache_clean=NULL");
	db = db_for_(dev, vpe, ev_db_on_(dev, event));
	c[n++] = virq_its_discard(dev->device_id, event);
	if (old != vpe)
		c[n++] = virq_its_vsync_cmd(old->vpeid);
	vmapti = n;
	c[n++] = virq_its_vmapti(dev->device_id, event, vpe->vpeid, vintid, db);
	c[n++] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_seen_(dev->its, c, n, &ran);
	if (st == LIBVIRQ_OK) {
		track_(dev, event, vpe, vintid, db);
		return LIBVIRQ_OK;
	}
	/* What GITS_CREADR showed (docs/gicv4-core.md "Failures"): the VMAPTI
	 * ran: the new mapping; only the DISCARD ran: unmapped; nothing, or
	 * unknown (the ITS is dead): the old mapping stays tracked, its vPE
	 * referenced. */
	if (ran.ran > vmapti) {
		track_(dev, event, vpe, vintid, db);
		return LIBVIRQ_FAILV_(api, hal, st,
				      "the VSYNC after the VMAPTI of event=%u failed (tracked with "
				      "the new mapping)",
				      event);
	}
	if (ran.ran >= 1 && ran.exact) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_FAILV_(
		    api, hal, st, "the DISCARD of event=%u ran, its VMAPTI not (unmapped)", event);
	}
	return LIBVIRQ_FAILV_(api, hal, st,
			      "DISCARD + VMAPTI of event=%u not seen to run (the old mapping stays "
			      "tracked)",
			      event);
}

virq_status virq_vlpi_remap(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe,
			    uint32_t vintid)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, LIBVIRQ_GICV4_HAL_OF_(vpe), "dev", dev);
	virq_its_lock_dev_(dev, false);
	st = vlpi_remap_locked_(api, dev, event, vpe, vintid);
	virq_its_unlock_(dev->its);
	return st;
}

/* virq_vlpi_move() of a live device with the ITS lock held. */
static virq_status vlpi_move_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				     struct virq_vpe *vpe)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[3];
	struct virq_its_ran ran;
	size_t n = 1;
	bool db;
	uint32_t intid;
	struct virq_vpe *old;
	virq_status st = virt_event_(api, dev, event);

	if (st != LIBVIRQ_OK)
		return st;
	old = ev_vpe_at_(dev, event);
	intid = ev_intid_(dev, event);
	st = target_ok_(api, dev, vpe, intid);
	if (st != LIBVIRQ_OK)
		return st;
	if (vpe->vm != old->vm)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "vPE %u is of another VM than event=%u's vPE %u", vpe->vpeid,
				      event, old->vpeid);
	st = virq_vpe_its_ensure_(api, dev->its, vpe);
	if (st != LIBVIRQ_OK)
		return st;
	/* GICv4.0: the doorbell follows the vLPI to its new vPE (D = 1). */
	db = dev->its->lim.version == LIBVIRQ_ITS_V40 && ev_db_on_(dev, event);
	c[0] = virq_its_vmovi(dev->device_id, event, vpe->vpeid, db, db ? vpe->doorbell : 0);
	/* VSYNC to the vPE the vLPI leaves (where its pending state was) and
	 * to the one it joins: the encoder reports both (::virq_its_sync). */
	if (old != vpe)
		c[n++] = virq_its_vsync_cmd(old->vpeid);
	c[n++] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_ev_(dev, event, c, n, true, &ran);
	/* GITS_CREADR showed the VMOVI processed: the vLPI is on the new vPE
	 * (referenced there); otherwise it stays tracked on the old one. */
	if (st == LIBVIRQ_OK || ran.ran >= 1)
		track_(dev, event, vpe, intid, c[0].D ? vpe->doorbell : LIBVIRQ_ITS_NO_DOORBELL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "VMOVI + VSYNCs of event=%u to vPE %u failed (on the new vPE "
				      "iff the VMOVI ran: %u)",
				      event, vpe->vpeid, ev_vpe_at_(dev, event) == vpe);
	return LIBVIRQ_OK;
}

virq_status virq_vlpi_move(struct virq_its_device *dev, uint32_t event, struct virq_vpe *vpe)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, LIBVIRQ_GICV4_HAL_OF_(vpe), "dev", dev);
	virq_its_lock_dev_(dev, true);
	st = vlpi_move_locked_(api, dev, event, vpe);
	virq_its_unlock_(dev->its);
	return st;
}

/* virq_vlpi_set_doorbell() of a live device with the ITS lock held. */
static virq_status vlpi_set_doorbell_locked_(const char *api, struct virq_its_device *dev,
					     uint32_t event, bool on)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	struct virq_vpe *vpe;
	virq_status st = virt_event_(api, dev, event);

	if (st != LIBVIRQ_OK)
		return st;
	vpe = ev_vpe_at_(dev, event);
	if (dev->its->lim.version != LIBVIRQ_ITS_V40)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP,
				     "not a GICv4.0 ITS (per-vLPI doorbells are GICv4.0 only)");
	if (on && vpe->doorbell == LIBVIRQ_ITS_NO_DOORBELL)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP, "vPE %u has no doorbell",
				      vpe->vpeid);
	/* VMOVI to the same vPE with D = 1: re-issuing VMAPTI on a mapped
	 * event is UNPREDICTABLE (IHI 0069H §5.3 VMAPTI; Linux
	 * its_vlpi_set_doorbell). */
	c[0] = virq_its_vmovi(dev->device_id, event, vpe->vpeid, true,
			      on ? vpe->doorbell : LIBVIRQ_ITS_NO_DOORBELL);
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_seen_(dev->its, c, 2, &ran);
	/* GITS_CREADR passed the VMOVI: the ITS holds the new doorbell, even
	 * if the VSYNC after it failed. */
	if (st == LIBVIRQ_OK || ran.ran >= 1)
		ev_set_(dev, event, vpe, ev_intid_(dev, event),
			c[0].Dbell_pINTID != LIBVIRQ_ITS_NO_DOORBELL);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "VMOVI + VSYNC of event=%u not seen to run (the new doorbell "
				      "tracked iff the VMOVI ran: %u)",
				      event, ev_db_on_(dev, event) == on);
	return LIBVIRQ_OK;
}

virq_status virq_vlpi_set_doorbell(struct virq_its_device *dev, uint32_t event, bool on)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_dev_(dev, false);
	st = vlpi_set_doorbell_locked_(api, dev, event, on);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_vlpi_set_config(struct virq_its_device *dev, uint32_t event, uint8_t priority,
				 bool enable)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	/* The lock first: a deferred batch's settle may restore the event. */
	virq_its_lock_dev_(dev, true);
	st = virt_event_(api, dev, event);
	if (st == LIBVIRQ_OK)
		st = virq_gic_vm_vlpi_config_(api, ev_vpe_at_(dev, event)->vm,
					      ev_intid_(dev, event), priority, enable);
	if (st == LIBVIRQ_OK) /* INV + VSYNC */
		st = virq_its_ev_cmd_locked_(api, dev, event, LIBVIRQ_ITS_INV);
	virq_its_unlock_(dev->its);
	return st;
}
