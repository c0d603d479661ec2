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
#include "its_pool_priv.h"
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
static virq_status ht_reserve_(const char *api, struct virq_its *its)
{
	const struct virq_hal *hal = &its->hal;
	struct virq_page old = its->dev_ht, grown;
	uint32_t slots = ht_slots_(its);
	virq_status st;

	if (slots && (its->dev_ht_used + 1) * 2 <= slots)
		return LIBVIRQ_OK;
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, slots ? old.size * 2 : 4096, 4096, &grown,
				 "DeviceID index");
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

/* virq_its_device_map()'s checks of @dev, the DeviceID and the event count
 * on a live ITS, before @dev is written. */
static virq_status device_map_args_(const char *api, const struct virq_its *its,
				    const struct virq_its_device *dev, uint32_t device_id,
				    uint32_t nr_events)
{
	const struct virq_hal *hal = &its->hal;

	if (!dev)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "dev=NULL");
	/* Before dev is read further: a live object must not be overwritten
	 * (it is linked into an ITS's list, maybe another ITS's). */
	if (dev->state == LIVE_)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY,
				     "dev is live (virq_its_device_unmap() first)");
	if (!nr_events)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "nr_events=0");
	if (its->lim.devid_bits < 32 && (device_id >> its->lim.devid_bits))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "device_id=%u >= 2^GITS_TYPER.Devbits=%u", device_id,
				      1ull << its->lim.devid_bits);
	if (nr_events > (1u << 31))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "nr_events=%u > 2^31", nr_events);
	if (its->lim.eventid_bits < 32 && nr_events > (1u << its->lim.eventid_bits))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "nr_events=%u > 2^GITS_TYPER.ID_bits=%u", nr_events,
				      1ull << its->lim.eventid_bits);
	if (dev_taken_(its, device_id))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EEXIST,
				      "device_id=%u already mapped on this ITS", device_id);
	/* The doorbell proxy's DeviceID is reserved before the proxy exists. */
	if (its->proxy_ok && device_id == its->proxy_devid && dev != its->proxy)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EEXIST,
				      "device_id=%u reserved for the doorbell proxy", device_id);
	return LIBVIRQ_OK;
}

/* A device's memory (@what names it in a failure report): @bytes aligned
 * to @align, zeroed; a block of a pool page when @pooled and small
 * enough, else whole HAL pages. */
static virq_status dev_mem_alloc_(const char *api, struct virq_its *its, uint64_t bytes,
				  uint32_t align, bool pooled, struct virq_page *out,
				  const char *check, uint32_t line)
{
	struct virq_page pg;
	virq_status st;

	if (!pooled || bytes > LIBVIRQ_ITS_POOL_MAX_)
		return virq_page_alloc_fail_(api, &its->hal, round_up_(bytes, 4096), 4096, out,
					     check, line);
	if (virq_its_pool_take_(its, bytes, align, out) == LIBVIRQ_OK)
		return LIBVIRQ_OK;
	st = virq_page_alloc_fail_(api, &its->hal, LIBVIRQ_ITS_POOL_PAGE_, LIBVIRQ_ITS_POOL_PAGE_,
				   &pg, check, line);
	if (st != LIBVIRQ_OK)
		return st;
	virq_its_pool_add_(its, &pg);
	return virq_its_pool_take_(its, bytes, align, out); /* an empty page has room */
}

#define DEV_MEM_ALLOC_(api, its, bytes, align, pooled, page, what)                                 \
	dev_mem_alloc_((api), (its), (bytes), (align), (pooled), (page),                           \
		       LIBVIRQ_FAIL_CHECK_(what ": %u bytes aligned to %u not allocated"),         \
		       __LINE__)

void virq_its_dev_mem_free_(struct virq_its *its, struct virq_page *blk)
{
	if (blk->size < LIBVIRQ_ITS_POOL_PAGE_)
		virq_its_pool_put_(its, blk);
	else
		virq_page_free_(&its->hal, blk);
}

/* The ITT and the event tracking of @dev for @nr events, the ITT cleaned
 * to PoC on a non-coherent ITS; nothing kept on failure. */
static virq_status device_alloc_(const char *api, struct virq_its *its, struct virq_its_device *dev,
				 uint32_t nr)
{
	const struct virq_hal *hal = &its->hal;
	bool nc = its->tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent || its->noncoherent;
	virq_status st;

	/* A non-coherent ITS writes its ITT to memory past the CPU's caches:
	 * the ITT takes whole pages, so that no line the CPU writes (a
	 * neighbour's tracking, a page record) can be written back over it. */
	st = DEV_MEM_ALLOC_(api, its, (uint64_t)nr * its->itt_esz, 256, !nc, &dev->itt, "ITT");
	if (st == LIBVIRQ_OK)
		st = DEV_MEM_ALLOC_(api, its, (uint64_t)nr * ev_bytes_(its->gic),
				    LIBVIRQ_ITS_POOL_UNIT_, true, &dev->ev, "event tracking");
	/* The zeroed ITT must reach PoC before MAPD on a non-coherent ITS
	 * (docs/rationale.md#gic-table-attributes: Xen a1f8b32af0). */
	if (st == LIBVIRQ_OK && clean_if_(hal, nc, dev->itt.va, dev->itt.size) != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				   "ITT not coherent and dcache_clean=NULL");
	if (st != LIBVIRQ_OK) {
		virq_its_dev_mem_free_(its, &dev->ev);
		virq_its_dev_mem_free_(its, &dev->itt);
	}
	return st;
}

virq_status virq_its_device_map_locked_(const char *api, struct virq_its *its,
					struct virq_its_device *dev, uint32_t device_id,
					uint32_t nr_events)
{
	struct virq_its_cmd c;
	uint32_t nr;
	virq_status st;

	st = device_map_args_(api, its, dev, device_id, nr_events);
	if (st != LIBVIRQ_OK)
		return st;
	nr = pow2_ceil_(nr_events < 2 ? 2 : nr_events);
	st = ht_reserve_(api, its);
	if (st != LIBVIRQ_OK)
		return st;
	memset(dev, 0, sizeof(*dev));
	dev->hal = its->hal;
	st = virq_its_tbl_ensure_(api, its, LIBVIRQ_ITS_TBL_DEV, device_id);
	if (st == LIBVIRQ_OK)
		st = device_alloc_(api, its, dev, nr);
	if (st != LIBVIRQ_OK)
		return st;
	c = virq_its_mapd(device_id, log2_(nr) - 1, dev->itt.pa, true);
	st = virq_its_exec_(its, &c, 1);
	if (st != LIBVIRQ_OK) {
		virq_its_dev_mem_free_(its, &dev->ev);
		virq_its_dev_mem_free_(its, &dev->itt);
		return LIBVIRQ_FAILV_(api, &its->hal, st, "MAPD of device_id=%u not seen to run",
				      device_id);
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
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!its_live_(its))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "its", its);
	virq_its_lock_(its);
	st = virq_its_device_map_locked_(api, its, dev, device_id, nr_events);
	virq_its_unlock_(its);
	return st;
}

/* virq_its_device_unmap() of a live device with the ITS lock held (the
 * wrapper below takes it; virq_its_destroy() calls this without a lock). */
virq_status virq_its_device_unmap_locked_(const char *api, struct virq_its_device *dev)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c;
	virq_status st;

	if (dev->nr_mapped)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY, "nr_mapped=%u events still mapped",
				      dev->nr_mapped);
	/* A dead ITS takes no command: release the tracking (as the vPE
	 * teardown does), so that the ITS itself can be destroyed. */
	if (!dev->its->dead) {
		c = virq_its_mapd(dev->device_id, log2_(dev->nr_events) - 1, 0, false);
		st = virq_its_exec_(dev->its, &c, 1);
		if (st != LIBVIRQ_OK && !dev->its->dead)
			return LIBVIRQ_FAILV_(api, hal, st, "MAPD (V=0) of DeviceID %u failed",
					      dev->device_id);
	}
	virq_its_dev_mem_free_(dev->its, &dev->ev);
	virq_its_dev_mem_free_(dev->its, &dev->itt);
	virq_its_dev_unlink_(dev->its, dev);
	if (dev != dev->its->proxy)
		dev->its->nr_devices--;
	dev->its = NULL;
	dev->state = LIBVIRQ_GICV4_GONE;
	return LIBVIRQ_OK;
}

virq_status virq_its_device_unmap(struct virq_its_device *dev)
{
	return virq_its_device_unmap_(LIBVIRQ_ENTRY_, dev);
}

virq_status virq_its_device_unmap_(const char *api, struct virq_its_device *dev)
{
	virq_status st;
	struct virq_its *its;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	its = dev->its;
	virq_its_lock_dev_(dev, false);
	st = virq_its_device_unmap_locked_(api, dev);
	virq_its_unlock_(its);
	return st;
}

/* virq_its_map_lpi()'s checks of a live device's event and its target. */
static virq_status map_lpi_args_(const char *api, const struct virq_its_device *dev, uint32_t event,
				 uint32_t pintid, uint32_t icid)
{
	const struct virq_hal *hal = &dev->hal;

	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "event=%u >= nr_events=%u", event,
				      dev->nr_events);
	if (ev_kind_(dev, event) != LIBVIRQ_ITS_EV_NONE)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EEXIST, "event=%u already mapped", event);
	if (!virq_its_col_mapped_(dev->its, icid))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "icid=%u: collection not mapped (virq_its_map_collection())",
				      icid);
	if (!virq_lpi_allocated_(dev->its->gic, pintid))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "pintid=%u not allocated (virq_lpi_alloc())", pintid);
	if (virq_lpi_is_doorbell_(dev->its->gic, pintid))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY, "pintid=%u is a vPE's doorbell",
				      pintid);
	return LIBVIRQ_OK;
}

/* virq_its_map_lpi() of a live device with the ITS lock held. */
static virq_status map_lpi_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				   uint32_t pintid, uint32_t icid)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	virq_status st;

	st = map_lpi_args_(api, dev, event, pintid, icid);
	if (st != LIBVIRQ_OK)
		return st;
	c[0] = virq_its_mapti(dev->device_id, event, pintid, icid);
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, icid));
	if (!virq_lpi_ref_(dev->its->gic, pintid))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOSPC,
				      "pintid=%u mapped by 65534 events already", pintid);
	st = virq_its_exec_seen_(dev->its, c, 2, &ran);
	if (st != LIBVIRQ_OK && !its_may_have_run_(&ran, 0)) {
		virq_lpi_unref_(dev->its->gic, pintid);
		return LIBVIRQ_FAILV_(api, hal, st, "MAPTI + SYNC of event=%u not run (not mapped)",
				      event);
	}
	/* Mapped, or the MAPTI may have run: tracked as mapped, the LPI
	 * referenced, so that it cannot be freed while the ITS may translate
	 * the event to it; virq_its_unmap_event() undoes it. */
	ev_set_(dev, event, NULL, pintid, icid);
	dev->nr_mapped++;
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, hal, st,
		    "MAPTI + SYNC of event=%u: the MAPTI may have run (tracked as "
		    "mapped)",
		    event);
	return LIBVIRQ_OK;
}

virq_status virq_its_map_lpi(struct virq_its_device *dev, uint32_t event, uint32_t pintid,
			     uint32_t icid)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_dev_(dev, false);
	st = map_lpi_locked_(api, dev, event, pintid, icid);
	virq_its_unlock_(dev->its);
	return st;
}

void virq_its_event_forget_(struct virq_its_device *dev, uint32_t event)
{
	uint32_t kind = ev_kind_(dev, event);

	if (kind == LIBVIRQ_ITS_EV_VIRT)
		vpe_vlpis_dec_(ev_vpe_at_(dev, event), 1);
	if (kind == LIBVIRQ_ITS_EV_PHYS)
		virq_lpi_unref_(dev->its->gic, ev_intid_(dev, event));
	ev_clear_(dev, event);
	dev->nr_mapped--;
}

/* The checks of an event a command is about: in range and mapped by a
 * call (@vlpi: to a vLPI; else to a physical LPI or a vLPI). */
static virq_status event_mapped_(const char *api, const struct virq_its_device *dev, uint32_t event,
				 bool vlpi)
{
	const struct virq_hal *hal = &dev->hal;
	uint32_t kind;

	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "event=%u >= nr_events=%u", event,
				      dev->nr_events);
	kind = ev_kind_(dev, event);
	if (kind == LIBVIRQ_ITS_EV_NONE)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT, "event=%u not mapped", event);
	if (kind == LIBVIRQ_ITS_EV_PROXY)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "event=%u is a doorbell proxy slot, not a mapping", event);
	if (vlpi && kind != LIBVIRQ_ITS_EV_VIRT)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "event=%u mapped to a physical LPI, not a vLPI", event);
	return LIBVIRQ_OK;
}

/* virq_its_unmap_event() of a live device with the ITS lock held. */
static virq_status unmap_event_locked_(const char *api, struct virq_its_device *dev, uint32_t event)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	virq_status st;

	st = event_mapped_(api, dev, event, false);
	if (st != LIBVIRQ_OK)
		return st;
	c[0] = virq_its_discard(dev->device_id, event);
	c[1] = virq_its_ev_sync_(dev->its, dev, event);
	st = virq_its_exec_ev_(dev, event, c, 2, true, &ran);
	if (st == LIBVIRQ_OK) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_OK;
	}
	/* A dead ITS takes no command: nothing was sent, and the tracking is
	 * released so that the teardown can finish (docs/gicv4-core.md
	 * "Failures"). */
	if (st == LIBVIRQ_EDEAD && !ran.ran && ran.exact) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_FAILV_(
		    api, hal, st, "event=%u: the ITS is dead (no DISCARD sent; tracking released)",
		    event);
	}
	/* GITS_CREADR showed the DISCARD processed: the event is unmapped
	 * even though its SYNC/VSYNC did not complete. Otherwise (not run, or
	 * unknown) the ITS may still map it: it stays tracked with its vPE or
	 * LPI referenced, and the call can be retried. */
	if (ran.ran >= 1) {
		virq_its_event_forget_(dev, event);
		return LIBVIRQ_FAILV_(
		    api, hal, st, "DISCARD of event=%u ran, its SYNC/VSYNC not (unmapped)", event);
	}
	return LIBVIRQ_FAILV_(
	    api, hal, st, "DISCARD of event=%u not seen to run (still tracked as mapped; retry)",
	    event);
}

virq_status virq_its_unmap_event_(const char *api, struct virq_its_device *dev, uint32_t event)
{
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_dev_(dev, true);
	st = unmap_event_locked_(api, dev, event);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_its_unmap_event(struct virq_its_device *dev, uint32_t event)
{
	return virq_its_unmap_event_(LIBVIRQ_ENTRY_, dev, event);
}

/* INT, CLEAR or INV of (@dev, @ev): the builder of @op. */
static struct virq_its_cmd dev_ev_cmd_(enum virq_its_opcode op, uint32_t dev, uint32_t ev)
{
	if (op == LIBVIRQ_ITS_INT)
		return virq_its_int_cmd(dev, ev);
	if (op == LIBVIRQ_ITS_CLEAR)
		return virq_its_clear_cmd(dev, ev);
	return virq_its_inv_cmd(dev, ev);
}

/* INT, CLEAR or INV (@op) of a mapped event and its SYNC/VSYNC, with the
 * lock held (taken with virq_its_lock_dev_(dev, true)). */
virq_status virq_its_ev_cmd_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				    enum virq_its_opcode op)
{
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	virq_status st;

	st = event_mapped_(api, dev, event, false);
	if (st == LIBVIRQ_OK) {
		c[0] = dev_ev_cmd_(op, dev->device_id, event);
		c[1] = virq_its_ev_sync_(dev->its, dev, event);
		st = virq_its_exec_ev_(dev, event, c, 2, false, &ran);
		if (st != LIBVIRQ_OK)
			st =
			    LIBVIRQ_FAILV_(api, &dev->hal, st,
					   "INT/CLEAR/INV (opcode=%x) + SYNC/VSYNC of event=%u not "
					   "seen to run",
					   (uint64_t)op, event);
	}
	return st;
}

/* INT, CLEAR or INV (@op) of a mapped event and its SYNC/VSYNC. */
virq_status virq_its_ev_cmd_(const char *api, struct virq_its_device *dev, uint32_t event,
			     enum virq_its_opcode op)
{
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_dev_(dev, true);
	st = virq_its_ev_cmd_locked_(api, dev, event, op);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_its_int(struct virq_its_device *dev, uint32_t event)
{
	return virq_its_ev_cmd_(LIBVIRQ_ENTRY_, dev, event, LIBVIRQ_ITS_INT);
}

virq_status virq_its_clear(struct virq_its_device *dev, uint32_t event)
{
	return virq_its_ev_cmd_(LIBVIRQ_ENTRY_, dev, event, LIBVIRQ_ITS_CLEAR);
}

virq_status virq_its_inv(struct virq_its_device *dev, uint32_t event)
{
	return virq_its_ev_cmd_(LIBVIRQ_ENTRY_, dev, event, LIBVIRQ_ITS_INV);
}

virq_status virq_its_event_get(const struct virq_its_device *dev, uint32_t event,
			       struct virq_its_event *out)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	if (!out)
		return LIBVIRQ_FAIL_(api, &dev->hal, LIBVIRQ_EINVAL, "out=NULL");
	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, &dev->hal, LIBVIRQ_ERANGE, "event=%u >= nr_events=%u",
				      event, dev->nr_events);
	out->kind = ev_kind_(dev, event);
	out->intid = ev_intid_(dev, event);
	out->vpe = ev_vpe_at_(dev, event);
	out->icid = 0;
	out->db = LIBVIRQ_ITS_NO_DOORBELL;
	if (out->kind == LIBVIRQ_ITS_EV_PHYS || out->kind == LIBVIRQ_ITS_EV_PROXY)
		out->icid = ev_icid_(dev, event);
	else if (out->kind == LIBVIRQ_ITS_EV_VIRT && ev_db_on_(dev, event))
		out->db = out->vpe->doorbell;
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
static uint64_t *target_mark_(struct virq_its_device *dev, uint32_t event)
{
	struct virq_vpe *vpe = ev_vpe_at_(dev, event);

	if (vpe)
		return &vpe->sync_mark;
	return &dev->its->gic->rd[ev_icid_(dev, event)].sync_mark;
}

/* Writes @count DISCARDs from @first straight into the queue and marks each
 * event's sync target; *done gets how many were queued. */
static virq_status queue_discards_(struct virq_its_device *dev, uint32_t first, uint32_t count,
				   uint64_t gen, uint32_t *done)
{
	struct virq_its *its = dev->its;

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
			*target_mark_(dev, first + *done + k) = gen;
		virq_its_queue_commit_(&its->q, n);
		*done += n;
	}
	return LIBVIRQ_OK;
}

/* One SYNC / VSYNC per target marked @gen, after every DISCARD. */
static virq_status queue_syncs_(const char *api, struct virq_its_device *dev, uint32_t first,
				uint32_t count, uint64_t gen, uint32_t *nsync)
{
	struct virq_its *its = dev->its;

	for (uint32_t i = 0; i < count; i++) {
		uint64_t *m = target_mark_(dev, first + i);
		uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
		struct virq_its_cmd c;
		virq_status st;

		if (*m != gen)
			continue;
		*m = gen + 1;
		c = virq_its_ev_sync_(its, dev, first + i);
		st = virq_its_cmd_encode(&c, &its->lim, raw, NULL, NULL);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV_(api, &dev->hal, st,
					      "the encoder rejected the SYNC/VSYNC (opcode=%x) of "
					      "event=%u",
					      (uint64_t)c.opcode, first + i);
		st = virq_its_queue_push_raw_(&its->q, raw);
		if (st != LIBVIRQ_OK)
			return st;
		(*nsync)++;
	}
	return LIBVIRQ_OK;
}

/* The range checks of a batched unmap of a live device: every event of
 * [first, first + count) mapped (@vlpi_only: to a vLPI). */
static virq_status run_args_(const char *api, const struct virq_its_device *dev, uint32_t first,
			     uint32_t count, bool vlpi_only)
{
	const struct virq_hal *hal = &dev->hal;

	if (!count)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ERANGE, "count=0");
	if (first >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "first_event=%u >= nr_events=%u",
				      first, dev->nr_events);
	if (count > dev->nr_events - first)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "count=%u > nr_events-first_event=%u", count,
				      dev->nr_events - first);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t kind = ev_kind_(dev, first + i);

		if (kind == LIBVIRQ_ITS_EV_VIRT)
			continue;
		if (vlpi_only || kind != LIBVIRQ_ITS_EV_PHYS)
			return event_mapped_(api, dev, first + i, vlpi_only);
	}
	if (dev->its->dead)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EDEAD,
				     "the ITS is dead after a failure (nothing sent)");
	return LIBVIRQ_OK;
}

/* virq_its_unmap_run_() of a live device with the ITS lock held. */
static virq_status unmap_run_locked_(const char *api, struct virq_its_device *dev, uint32_t first,
				     uint32_t count, bool vlpi_only)
{
	struct virq_its *its = dev->its;
	uint64_t gen, base, consumed;
	uint32_t done = 0, nsync = 0;
	virq_status st;

	st = run_args_(api, dev, first, count, vlpi_only);
	if (st != LIBVIRQ_OK)
		return st;
	its->gic->sync_gen += 2;
	gen = its->gic->sync_gen;
	base = its->q.wr_lin; /* linear position of the first DISCARD */
	st = queue_discards_(dev, first, count, gen, &done);
	if (st == LIBVIRQ_OK)
		st = queue_syncs_(api, dev, first, count, gen, &nsync);
	if (st == LIBVIRQ_OK)
		st = virq_its_queue_drain_(&its->q, NULL);
	if (st == LIBVIRQ_OK) { /* every event unmapped: the tracking in one pass */
		for (uint32_t i = first; i < first + count; i++) {
			if (ev_vpe_at_(dev, i))
				vpe_vlpis_dec_(ev_vpe_at_(dev, i), 1);
			else
				virq_lpi_unref_(its->gic, ev_intid_(dev, i));
		}
		ev_clear_range_(dev, first, count);
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
	return LIBVIRQ_FAILV_(api, &dev->hal, st,
			      "the queue failed after %u DISCARDs from first_event=%u (those "
			      "GITS_CREADR did not pass stay mapped)",
			      done, first);
}

virq_status virq_its_unmap_run_(const char *api, struct virq_its_device *dev, uint32_t first,
				uint32_t count, bool vlpi_only)
{
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_dev_(dev, false);
	st = unmap_run_locked_(api, dev, first, count, vlpi_only);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_its_unmap_range(struct virq_its_device *dev, uint32_t first_event, uint32_t count)
{
	return virq_its_unmap_run_(LIBVIRQ_ENTRY_, dev, first_event, count, false);
}

/* virq_its_move_lpi() of a live device with the ITS lock held. */
static virq_status move_lpi_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				    uint32_t icid)
{
	const struct virq_hal *hal = &dev->hal;
	struct virq_its_cmd c[3];
	struct virq_its_ran ran;
	size_t n = 0;
	uint32_t old;
	virq_status st;

	if (event >= dev->nr_events)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "event=%u >= nr_events=%u", event,
				      dev->nr_events);
	if (ev_kind_(dev, event) != LIBVIRQ_ITS_EV_PHYS)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "event=%u not mapped to a physical LPI (kind %u)", event,
				      ev_kind_(dev, event));
	if (!virq_its_col_mapped_(dev->its, icid))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "icid=%u: collection not mapped (virq_its_map_collection())",
				      icid);
	old = ev_icid_(dev, event);
	if (icid == old)
		return LIBVIRQ_OK;
	/* MOVI, then SYNC to the collection the event leaves (where its pending
	 * state was) and to the one it joins (IHI 0069H §5.3 MOVI, SYNC; the
	 * encoder reports both, see ::virq_its_sync). */
	c[n++] = virq_its_movi(dev->device_id, event, icid);
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, old));
	c[n++] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, icid));
	st = virq_its_exec_seen_(dev->its, c, n, &ran);
	/* GITS_CREADR showed the MOVI processed: the event is in the new
	 * collection; otherwise it stays tracked in the old one. */
	if (st == LIBVIRQ_OK || ran.ran >= 1)
		ev_set_(dev, event, NULL, ev_intid_(dev, event), icid);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, hal, st,
		    "MOVI + SYNC + SYNC of event=%u to icid=%u failed (in the new "
		    "collection iff the MOVI ran: %u)",
		    event, icid, ev_icid_(dev, event) == icid);
	return LIBVIRQ_OK;
}

virq_status virq_its_move_lpi(struct virq_its_device *dev, uint32_t event, uint32_t icid)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!dev_live_(dev))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "dev", dev);
	virq_its_lock_dev_(dev, false);
	st = move_lpi_locked_(api, dev, event, icid);
	virq_its_unlock_(dev->its);
	return st;
}
