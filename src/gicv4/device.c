/* SPDX-License-Identifier: MIT */
/*
 * Devices (MAPD + ITT), physical LPI mappings (MAPTI), and the per-event
 * commands that work on physical and virtual mappings alike
 * (DISCARD, INT, CLEAR, INV followed by SYNC or VSYNC).
 * Spec: Arm IHI 0069H §5.3 (MAPD, MAPTI, DISCARD, INT, CLEAR, INV), §5.3 ITT.
 */
#include "device_priv.h"
#include "enc/its_fill.h"
#include "its_exec_priv.h"
#include "its_queue_priv.h"
#include "its_table_priv.h"
#include "lpi_priv.h"

/* ---------------- the ITS's DeviceID index ----------------
 *
 * MAPD of a DeviceID that is already mapped would silently replace the
 * first device's ITT (IHI 0069H §5.3 MAPD), so every map looks the ID up:
 * an open-addressing hash table (linear probing, backward-shift deletion)
 * of the mapped devices in a HAL page, at most half full, doubled when it
 * fills, so a map and an unmap are O(1) whatever the number of devices
 * (a walk of the device list made mapping the k-th device O(k)). */

static struct virq_its_device **ht_(const struct virq_its *its)
{
	return (struct virq_its_device **)its->dev_ht.va;
}

static uint32_t ht_slots_(const struct virq_its *its)
{
	return (uint32_t)(its->dev_ht.size / sizeof(struct virq_its_device *));
}

static uint32_t ht_home_(uint32_t id, uint32_t slots)
{
	return (id * 0x9E3779B1u) & (slots - 1);
}

static bool dev_taken_(const struct virq_its *its, uint32_t device_id)
{
	uint32_t slots = ht_slots_(its);

	if (!slots)
		return false;
	for (uint32_t i = ht_home_(device_id, slots);; i = (i + 1) & (slots - 1)) {
		const struct virq_its_device *d = ht_(its)[i];

		if (!d)
			return false;
		if (d->device_id == device_id)
			return true;
	}
}

static void ht_put_(struct virq_its *its, struct virq_its_device *dev)
{
	uint32_t slots = ht_slots_(its), i = ht_home_(dev->device_id, slots);

	while (ht_(its)[i])
		i = (i + 1) & (slots - 1);
	ht_(its)[i] = dev;
	its->dev_ht_used++;
}

/* Room for one more device (table at most half full); ENOMEM otherwise. */
static virq_status ht_reserve_(struct virq_its *its)
{
	const struct virq_hal *hal = &its->gic->hal;
	struct virq_page old = its->dev_ht, grown;
	uint32_t slots = ht_slots_(its);
	virq_status st;

	if (slots && (its->dev_ht_used + 1) * 2 <= slots)
		return LIBVIRQ_OK;
	st = virq_page_alloc_(hal, slots ? old.size * 2 : 4096, 4096, &grown);
	if (st != LIBVIRQ_OK)
		return st;
	its->dev_ht = grown;
	its->dev_ht_used = 0;
	for (uint32_t i = 0; i < slots; i++)
		if (((struct virq_its_device **)old.va)[i])
			ht_put_(its, ((struct virq_its_device **)old.va)[i]);
	virq_page_free_(hal, &old);
	return LIBVIRQ_OK;
}

static void ht_remove_(struct virq_its *its, const struct virq_its_device *dev)
{
	uint32_t slots = ht_slots_(its), i, j;

	if (!slots)
		return;
	for (i = ht_home_(dev->device_id, slots); ht_(its)[i] != dev; i = (i + 1) & (slots - 1))
		if (!ht_(its)[i])
			return; /* not indexed */
	ht_(its)[i] = NULL;
	its->dev_ht_used--;
	/* Backward shift: move up every later entry of the probe run that may
	 * live at the hole. */
	for (j = (i + 1) & (slots - 1); ht_(its)[j]; j = (j + 1) & (slots - 1)) {
		uint32_t h = ht_home_(ht_(its)[j]->device_id, slots);

		if (((j - h) & (slots - 1)) >= ((j - i) & (slots - 1))) {
			ht_(its)[i] = ht_(its)[j];
			ht_(its)[j] = NULL;
			i = j;
		}
	}
}

void virq_its_dev_unlink_(struct virq_its *its, struct virq_its_device *dev)
{
	ht_remove_(its, dev);
	if (dev->prev)
		dev->prev->next = dev->next;
	else if (its->devices == dev)
		its->devices = dev->next;
	if (dev->next)
		dev->next->prev = dev->prev;
	dev->next = dev->prev = NULL;
}

/* virq_its_device_map() with the ITS lock held (the wrapper below takes it). */
virq_status virq_its_device_map_locked_(struct virq_its *its, struct virq_its_device *dev,
					uint32_t device_id, uint32_t nr_events)
{
	const struct virq_hal *hal;
	struct virq_its_cmd c;
	uint32_t nr;
	uint64_t itt_bytes;
	virq_status st;

	if (!its_live_(its))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_its_device_map: its not live");
	hal = &its->gic->hal;
	if (!dev)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_its_device_map: NULL dev");
	/* Before dev is read further: a live object must not be overwritten
	 * (it is linked into an ITS's list, maybe another ITS's). */
	if (dev->state == LIVE_)
		return LIBVIRQ_FAIL(
		    hal, LIBVIRQ_EBUSY,
		    "virq_its_device_map: dev is live (virq_its_device_unmap() first)");
	if (!nr_events)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_its_device_map: nr_events is 0");
	if (its->lim.devid_bits < 32 && (device_id >> its->lim.devid_bits))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE,
				     "virq_its_device_map: DeviceID beyond GITS_TYPER.Devbits",
				     device_id);
	if (nr_events > (1u << 31) ||
	    (its->lim.eventid_bits < 32 && nr_events > (1u << its->lim.eventid_bits)))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE,
				     "virq_its_device_map: nr_events beyond GITS_TYPER.ID_bits",
				     nr_events);
	if (dev_taken_(its, device_id))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EEXIST,
				     "virq_its_device_map: DeviceID already mapped on this ITS",
				     device_id);
	/* The doorbell proxy's DeviceID is reserved before the proxy exists. */
	if (its->proxy_ok && device_id == its->proxy_devid && dev != its->proxy)
		return LIBVIRQ_FAILV(
		    hal, LIBVIRQ_EEXIST,
		    "virq_its_device_map: DeviceID reserved for the doorbell proxy", device_id);
	nr = pow2_ceil_(nr_events < 2 ? 2 : nr_events);
	if (ht_reserve_(its) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOMEM,
				    "virq_its_device_map: DeviceID index allocation failed");
	memset(dev, 0, sizeof(*dev));
	st = virq_its_tbl_ensure_(its, LIBVIRQ_ITS_TBL_DEV, device_id);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st,
				     "virq_its_device_map: device table entry not available "
				     "(level-2 page, or beyond the table)",
				     device_id);
	itt_bytes = (uint64_t)nr * its->itt_esz;
	st = virq_page_alloc_(hal, round_up_(itt_bytes, 4096), 4096, /* >= 256 B aligned */
			      &dev->itt);
	if (st == LIBVIRQ_OK)
		st = virq_page_alloc_(hal,
				      round_up_((uint64_t)nr * sizeof(struct virq_its_event), 4096),
				      4096, &dev->ev);
	if (st != LIBVIRQ_OK)
		st =
		    LIBVIRQ_FAIL(hal, st, "virq_its_device_map: ITT or tracking allocation failed");
	/* The zeroed ITT must reach PoC before MAPD on a non-coherent ITS
	 * (docs/rationale.md#gic-table-attributes: Xen a1f8b32af0). */
	if (st == LIBVIRQ_OK &&
	    clean_if_(hal, its->tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent || its->noncoherent,
		      dev->itt.va, dev->itt.size) != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				  "virq_its_device_map: ITT not coherent and the HAL has no "
				  "dcache_clean");
	if (st == LIBVIRQ_OK) {
		c = virq_its_mapd(device_id, log2_(nr) - 1, dev->itt.pa, true);
		st = virq_its_exec_(its, &c, 1);
		if (st != LIBVIRQ_OK)
			st = LIBVIRQ_FAILV(hal, st, "virq_its_device_map: MAPD failed", device_id);
	}
	if (st != LIBVIRQ_OK) {
		virq_page_free_(hal, &dev->ev);
		virq_page_free_(hal, &dev->itt);
		return st;
	}
	dev->its = its;
	dev->device_id = device_id;
	dev->nr_events = nr;
	dev->next = its->devices;
	if (its->devices)
		its->devices->prev = dev;
	its->devices = dev;
	ht_put_(its, dev);
	if (dev != its->proxy)
		its->nr_devices++;
	dev->state = LIVE_;
	return LIBVIRQ_OK;
}

virq_status virq_its_device_map(struct virq_its *its, struct virq_its_device *dev,
				uint32_t device_id, uint32_t nr_events)
{
	virq_status st;

	if (!its_live_(its))
		return virq_its_device_map_locked_(its, dev, device_id, nr_events);
	virq_its_lock_(its);
	st = virq_its_device_map_locked_(its, dev, device_id, nr_events);
	virq_its_unlock_(its);
	return st;
}

/* virq_its_device_unmap() with the ITS lock held (the wrapper below takes it). */
static virq_status device_unmap_locked_(struct virq_its_device *dev)
{
	const struct virq_hal *hal;
	struct virq_its_cmd c;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_its_device_unmap: dev not live");
	hal = &dev->its->gic->hal;
	if (dev->nr_mapped)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_its_device_unmap: events still mapped", dev->nr_mapped);
	/* A dead ITS takes no command: release the tracking (as the vPE
	 * teardown does), so that the ITS itself can be destroyed. */
	if (!dev->its->dead) {
		c = virq_its_mapd(dev->device_id, log2_(dev->nr_events) - 1, 0, false);
		st = virq_its_exec_(dev->its, &c, 1);
		if (st != LIBVIRQ_OK && !dev->its->dead)
			return LIBVIRQ_FAILV(hal, st, "virq_its_device_unmap: MAPD (V = 0) failed",
					     dev->device_id);
	}
	virq_page_free_(hal, &dev->ev);
	virq_page_free_(hal, &dev->itt);
	virq_its_dev_unlink_(dev->its, dev);
	if (dev != dev->its->proxy)
		dev->its->nr_devices--;
	dev->its = NULL;
	dev->state = LIBVIRQ_GICV4_GONE;
	return LIBVIRQ_OK;
}

virq_status virq_its_device_unmap(struct virq_its_device *dev)
{
	virq_status st;
	struct virq_its *its_;

	if (!dev_live_(dev))
		return device_unmap_locked_(dev);
	its_ = dev->its;
	virq_its_lock_(its_);
	st = device_unmap_locked_(dev);
	virq_its_unlock_(its_);
	return st;
}

/* virq_its_map_lpi() with the ITS lock held (the wrapper below takes it). */
static virq_status map_lpi_locked_(struct virq_its_device *dev, uint32_t event, uint32_t pintid,
				   uint32_t icid)
{
	const struct virq_hal *hal;
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_its_map_lpi: dev not live");
	hal = &dev->its->gic->hal;
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE, "virq_its_map_lpi: event >= nr_events",
				     event);
	e = ev_at_(dev, event);
	if (e->kind != LIBVIRQ_ITS_EV_NONE)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EEXIST, "virq_its_map_lpi: event already mapped",
				     event);
	if (!virq_its_col_mapped_(dev->its, icid))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT, "virq_its_map_lpi: collection not mapped",
				     icid);
	if (!virq_lpi_allocated_(dev->its->gic, pintid))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT, "virq_its_map_lpi: LPI not allocated",
				     pintid);
	c[0] = virq_its_mapti(dev->device_id, event, pintid, icid);
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, icid));
	if (virq_lpi_is_doorbell_(dev->its->gic, pintid))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_its_map_lpi: LPI is a vPE's doorbell", pintid);
	if (!virq_lpi_ref_(dev->its->gic, pintid))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOSPC,
				     "virq_its_map_lpi: 65534 mappings of this LPI already",
				     pintid);
	st = virq_its_exec_seen_(dev->its, c, 2, &ran);
	if (st != LIBVIRQ_OK && !its_may_have_run_(&ran, 0)) {
		virq_lpi_unref_(dev->its->gic, pintid);
		return LIBVIRQ_FAILV(hal, st, "virq_its_map_lpi: MAPTI + SYNC failed (not mapped)",
				     event);
	}
	/* Mapped, or the MAPTI may have run: tracked as mapped, the LPI
	 * referenced, so that it cannot be freed while the ITS may translate
	 * the event to it; virq_its_unmap_event() undoes it. */
	e->kind = LIBVIRQ_ITS_EV_PHYS;
	e->icid = icid;
	e->intid = pintid;
	e->db = LIBVIRQ_ITS_NO_DOORBELL;
	e->vpe = NULL;
	dev->nr_mapped++;
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st,
				     "virq_its_map_lpi: SYNC after the MAPTI failed or the MAPTI "
				     "may have run (event tracked as mapped)",
				     event);
	return LIBVIRQ_OK;
}

virq_status virq_its_map_lpi(struct virq_its_device *dev, uint32_t event, uint32_t pintid,
			     uint32_t icid)
{
	virq_status st;

	if (!dev_live_(dev))
		return map_lpi_locked_(dev, event, pintid, icid);
	virq_its_lock_(dev->its);
	st = map_lpi_locked_(dev, event, pintid, icid);
	virq_its_unlock_(dev->its);
	return st;
}

void virq_its_event_forget_(struct virq_its_device *dev, uint32_t event)
{
	struct virq_its_event *e = ev_at_(dev, event);

	if (e->kind == LIBVIRQ_ITS_EV_VIRT && e->vpe)
		e->vpe->nr_vlpis--;
	if (e->kind == LIBVIRQ_ITS_EV_PHYS)
		virq_lpi_unref_(dev->its->gic, e->intid);
	memset(e, 0, sizeof(*e));
	dev->nr_mapped--;
}

/* virq_its_unmap_event() with the ITS lock held (the wrapper below takes it). */
static virq_status unmap_event_locked_(struct virq_its_device *dev, uint32_t event)
{
	const struct virq_hal *hal;
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_its_unmap_event: dev not live");
	hal = &dev->its->gic->hal;
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE,
				     "virq_its_unmap_event: event >= nr_events", event);
	e = ev_at_(dev, event);
	if (e->kind == LIBVIRQ_ITS_EV_NONE || e->kind == LIBVIRQ_ITS_EV_PROXY)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT, "virq_its_unmap_event: event not mapped",
				     event);
	c[0] = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_DISCARD, .DeviceID = dev->device_id, .EventID = event};
	c[1] = virq_its_ev_sync_(dev->its, e);
	st = virq_its_exec_seen_(dev->its, c, 2, &ran);
	if (st == LIBVIRQ_OK) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_OK;
	}
	/* A dead ITS takes no command: nothing was sent, and the tracking is
	 * released so that the teardown can finish (docs/gicv4-core.md
	 * "Failures"). */
	if (st == LIBVIRQ_EDEAD && !ran.ran && ran.exact) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_FAILV(hal, st, "virq_its_unmap_event: ITS dead (tracking released)",
				     event);
	}
	/* GITS_CREADR showed the DISCARD processed: the event is unmapped
	 * even though its SYNC/VSYNC did not complete. Otherwise (not run, or
	 * unknown) the ITS may still map it: it stays tracked with its vPE or
	 * LPI referenced, and the call can be retried. */
	if (ran.ran >= 1) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_FAILV(hal, st,
				     "virq_its_unmap_event: SYNC/VSYNC after the DISCARD failed "
				     "(event unmapped)",
				     event);
	}
	return LIBVIRQ_FAILV(hal, st,
			     "virq_its_unmap_event: DISCARD not seen to run (event still tracked "
			     "as mapped; retry)",
			     event);
}

virq_status virq_its_unmap_event(struct virq_its_device *dev, uint32_t event)
{
	virq_status st;

	if (!dev_live_(dev))
		return unmap_event_locked_(dev, event);
	virq_its_lock_(dev->its);
	st = unmap_event_locked_(dev, event);
	virq_its_unlock_(dev->its);
	return st;
}

/* ev_cmd_() with the ITS lock held (the wrapper below takes it). */
static virq_status ev_cmd_locked_(struct virq_its_device *dev, uint32_t event,
				  enum virq_its_opcode op, const char *bad_dev,
				  const char *bad_event, const char *unmapped, const char *failed)
{
	const struct virq_hal *hal;
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, bad_dev);
	hal = &dev->its->gic->hal;
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE, bad_event, event);
	e = ev_at_(dev, event);
	if (e->kind != LIBVIRQ_ITS_EV_PHYS && e->kind != LIBVIRQ_ITS_EV_VIRT)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT, unmapped, event);
	c[0] = (struct virq_its_cmd){.opcode = op, .DeviceID = dev->device_id, .EventID = event};
	c[1] = virq_its_ev_sync_(dev->its, e);
	st = virq_its_exec_(dev->its, c, 2);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st, failed, event);
	return LIBVIRQ_OK;
}

static virq_status ev_cmd_(struct virq_its_device *dev, uint32_t event, enum virq_its_opcode op,
			   const char *bad_dev, const char *bad_event, const char *unmapped,
			   const char *failed)
{
	virq_status st;

	if (!dev_live_(dev))
		return ev_cmd_locked_(dev, event, op, bad_dev, bad_event, unmapped, failed);
	virq_its_lock_(dev->its);
	st = ev_cmd_locked_(dev, event, op, bad_dev, bad_event, unmapped, failed);
	virq_its_unlock_(dev->its);
	return st;
}

/* Each message is a constant naming the public function and the check. */
virq_status virq_its_int(struct virq_its_device *dev, uint32_t event)
{
	return ev_cmd_(dev, event, LIBVIRQ_ITS_INT, "virq_its_int: dev not live",
		       "virq_its_int: event >= nr_events", "virq_its_int: event not mapped",
		       "virq_its_int: INT + SYNC/VSYNC failed");
}

virq_status virq_its_clear(struct virq_its_device *dev, uint32_t event)
{
	return ev_cmd_(dev, event, LIBVIRQ_ITS_CLEAR, "virq_its_clear: dev not live",
		       "virq_its_clear: event >= nr_events", "virq_its_clear: event not mapped",
		       "virq_its_clear: CLEAR + SYNC/VSYNC failed");
}

virq_status virq_its_inv(struct virq_its_device *dev, uint32_t event)
{
	return ev_cmd_(dev, event, LIBVIRQ_ITS_INV, "virq_its_inv: dev not live",
		       "virq_its_inv: event >= nr_events", "virq_its_inv: event not mapped",
		       "virq_its_inv: INV + SYNC/VSYNC failed");
}

virq_status virq_its_event_get(const struct virq_its_device *dev, uint32_t event,
			       struct virq_its_event *out)
{
	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_its_event_get: dev not live");
	if (!out)
		return LIBVIRQ_FAIL(&dev->its->gic->hal, LIBVIRQ_EINVAL,
				    "virq_its_event_get: NULL out");
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV(&dev->its->gic->hal, LIBVIRQ_ERANGE,
				     "virq_its_event_get: event >= nr_events", event);
	*out = *ev_at_(dev, event);
	return LIBVIRQ_OK;
}

/* ---------------- batched unmap ----------------
 *
 * N DISCARDs written straight into the queue, then one SYNC per collection
 * and one VSYNC per vPE involved (IHI 0069H §5.3 DISCARD: the event's
 * collection or vPE is where its pending state is dropped), published
 * with one GITS_CWRITER write per queue-full and one completion wait. The
 * DISCARDs occupy consecutive linear queue positions from @c base, so
 * after a stall the tracking stays exact: DISCARD k ran iff its slot was
 * consumed (IHI 0069H §5.2: no command after a stalled one is processed,
 * and the queue reset drops them). */

/* Distinct-target marks: a fresh even generation per call; mark == gen:
 * seen, needs its sync; gen + 1: sync queued. */
static uint64_t *target_mark_(struct virq_its_device *dev, const struct virq_its_event *e)
{
	if (e->kind == LIBVIRQ_ITS_EV_VIRT)
		return &e->vpe->sync_mark;
	return &dev->its->gic->rd[e->icid].sync_mark;
}

static const char *const run_msg_[2][6] = {
    {"virq_its_unmap_range: dev not live",
     "virq_its_unmap_range: count 0 or range beyond nr_events",
     "virq_its_unmap_range: an event of the range is not mapped", "virq_its_unmap_range: ITS dead",
     "virq_its_unmap_range: SYNC/VSYNC rejected by the encoder",
     "virq_its_unmap_range: the queue failed (events GITS_CREADR did not pass stay mapped)"},
    {"virq_vlpi_unmap_range: dev not live",
     "virq_vlpi_unmap_range: count 0 or range beyond nr_events",
     "virq_vlpi_unmap_range: an event of the range is not a vLPI",
     "virq_vlpi_unmap_range: ITS dead", "virq_vlpi_unmap_range: VSYNC rejected by the encoder",
     "virq_vlpi_unmap_range: the queue failed (events GITS_CREADR did not pass stay mapped)"},
};

/* Writes @count DISCARDs from @first straight into the queue and marks each
 * event's sync target; *done gets how many were queued. */
static virq_status queue_discards_(struct virq_its_device *dev, uint32_t first, uint32_t count,
				   uint64_t gen, uint32_t *done)
{
	struct virq_its *its = dev->its;
	struct virq_its_event *e = ev_at_(dev, first);

	*done = 0;
	while (*done < count) {
		uint8_t *slot;
		uint32_t n = virq_its_queue_room_(&its->q, &slot);

		if (!n) {
			virq_status st = virq_its_queue_make_room_(&its->q);

			if (st != LIBVIRQ_OK)
				return st;
			continue;
		}
		if (n > count - *done)
			n = count - *done;
		virq_its_discard_fill_(slot, n, dev->device_id, first + *done);
		for (uint32_t k = 0; k < n; k++)
			*target_mark_(dev, &e[*done + k]) = gen;
		virq_its_queue_commit_(&its->q, n);
		*done += n;
	}
	return LIBVIRQ_OK;
}

/* One SYNC / VSYNC per target marked @gen, after every DISCARD. */
static virq_status queue_syncs_(struct virq_its_device *dev, uint32_t first, uint32_t count,
				uint64_t gen, uint32_t *nsync, const char *bad_sync)
{
	struct virq_its *its = dev->its;
	struct virq_its_event *e = ev_at_(dev, first);

	for (uint32_t i = 0; i < count; i++) {
		uint64_t *m = target_mark_(dev, &e[i]);
		uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
		struct virq_its_cmd c;
		virq_status st;

		if (*m != gen)
			continue;
		*m = gen + 1;
		c = virq_its_ev_sync_(its, &e[i]);
		st = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAIL(&its->gic->hal, st, bad_sync);
		st = virq_its_queue_push_raw(&its->q, raw);
		if (st != LIBVIRQ_OK)
			return st;
		(*nsync)++;
	}
	return LIBVIRQ_OK;
}

/* virq_its_unmap_run_() with the ITS lock held (the wrapper below takes it). */
static virq_status unmap_run_locked_(struct virq_its_device *dev, uint32_t first, uint32_t count,
				     bool vlpi_only)
{
	const char *const *msg = run_msg_[vlpi_only ? 1 : 0];
	const struct virq_hal *hal;
	struct virq_its *its;
	struct virq_its_event *e;
	uint64_t gen, base, consumed;
	uint32_t done = 0, nsync = 0;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, msg[0]);
	its = dev->its;
	hal = &its->gic->hal;
	if (!count || first >= dev->nr_events || count > dev->nr_events - first)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE, msg[1], first, count);
	e = ev_at_(dev, first);
	for (uint32_t i = 0; i < count; i++)
		if (e[i].kind != LIBVIRQ_ITS_EV_VIRT &&
		    (vlpi_only || e[i].kind != LIBVIRQ_ITS_EV_PHYS))
			return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT, msg[2], first + i);
	if (its->dead)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EDEAD, msg[3]);
	its->gic->sync_gen += 2;
	gen = its->gic->sync_gen;
	base = its->q.wr_lin; /* linear position of the first DISCARD */
	st = queue_discards_(dev, first, count, gen, &done);
	if (st == LIBVIRQ_OK)
		st = queue_syncs_(dev, first, count, gen, &nsync, msg[4]);
	if (st == LIBVIRQ_OK)
		st = virq_its_queue_drain(&its->q, NULL);
	if (st == LIBVIRQ_OK) { /* every event unmapped: the tracking in one pass */
		for (uint32_t i = 0; i < count; i++) {
			if (e[i].kind == LIBVIRQ_ITS_EV_VIRT)
				e[i].vpe->nr_vlpis--;
			else
				virq_lpi_unref_(its->gic, e[i].intid);
		}
		memset(e, 0, (size_t)count * sizeof(*e));
		dev->nr_mapped -= count;
		its->cmds += (uint64_t)count + nsync;
		return LIBVIRQ_OK;
	}
	/* A failure. The queue reset reads GITS_CREADR once the ITS is
	 * quiescent: exactly the DISCARDs before it ran and are untracked.
	 * Every other event (not run, or unknown because the ITS is dead) may
	 * still be mapped by the ITS and stays tracked, its vPE or LPI
	 * referenced (docs/gicv4-core.md "Failures"). */
	(void)virq_its_fail_seen_(its, st, &consumed);
	for (uint32_t k = 0; k < done; k++)
		if (base + ((uint64_t)k + 1) * LIBVIRQ_ITS_CMD_SIZE <= consumed)
			virq_its_event_forget_(dev, first + k);
	return LIBVIRQ_FAILV(hal, st, msg[5], first, done);
}

virq_status virq_its_unmap_run_(struct virq_its_device *dev, uint32_t first, uint32_t count,
				bool vlpi_only)
{
	virq_status st;

	if (!dev_live_(dev))
		return unmap_run_locked_(dev, first, count, vlpi_only);
	virq_its_lock_(dev->its);
	st = unmap_run_locked_(dev, first, count, vlpi_only);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_its_unmap_range(struct virq_its_device *dev, uint32_t first_event, uint32_t count)
{
	return virq_its_unmap_run_(dev, first_event, count, false);
}

/* virq_its_move_lpi() with the ITS lock held (the wrapper below takes it). */
static virq_status move_lpi_locked_(struct virq_its_device *dev, uint32_t event, uint32_t icid)
{
	const struct virq_hal *hal;
	struct virq_its_event *e;
	struct virq_its_cmd c[3];
	struct virq_its_ran ran;
	size_t n = 0;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_its_move_lpi: dev not live");
	hal = &dev->its->gic->hal;
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE, "virq_its_move_lpi: event >= nr_events",
				     event);
	e = ev_at_(dev, event);
	if (e->kind != LIBVIRQ_ITS_EV_PHYS)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT,
				     "virq_its_move_lpi: event not mapped to a physical LPI",
				     event);
	if (!virq_its_col_mapped_(dev->its, icid))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT,
				     "virq_its_move_lpi: collection not mapped", icid);
	if (icid == e->icid)
		return LIBVIRQ_OK;
	/* MOVI, then SYNC to the collection the event leaves (where its pending
	 * state was) and to the one it joins (IHI 0069H §5.3 MOVI, SYNC; the
	 * encoder reports both, see ::virq_its_sync). */
	c[n++] = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_MOVI, .DeviceID = dev->device_id, .EventID = event, .ICID = icid};
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, e->icid));
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, icid));
	st = virq_its_exec_seen_(dev->its, c, n, &ran);
	/* GITS_CREADR showed the MOVI processed: the event is in the new
	 * collection; otherwise it stays tracked in the old one. */
	if (st == LIBVIRQ_OK || ran.ran >= 1)
		e->icid = icid;
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st,
				     "virq_its_move_lpi: MOVI + SYNC(old) + SYNC(new) failed "
				     "(tracked in the new collection iff the MOVI was seen to run)",
				     event);
	return LIBVIRQ_OK;
}

virq_status virq_its_move_lpi(struct virq_its_device *dev, uint32_t event, uint32_t icid)
{
	virq_status st;

	if (!dev_live_(dev))
		return move_lpi_locked_(dev, event, icid);
	virq_its_lock_(dev->its);
	st = move_lpi_locked_(dev, event, icid);
	virq_its_unlock_(dev->its);
	return st;
}
