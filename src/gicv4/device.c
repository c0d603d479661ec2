/* SPDX-License-Identifier: MIT */
/*
 * Devices (MAPD + ITT), physical LPI mappings (MAPTI), and the per-event
 * commands that work on physical and virtual mappings alike
 * (DISCARD, INT, CLEAR, INV followed by SYNC or VSYNC).
 * Spec: Arm IHI 0069 §6.3 (MAPD, MAPTI, DISCARD, INT, CLEAR, INV), §5.3 ITT.
 */
#include "gicv4/device_priv.h"
#include "gicv4/its_exec_priv.h"
#include "gicv4/its_table_priv.h"
#include "gicv4/lpi_priv.h"

/* Whether @dev or another device with @device_id is mapped on @its. */
static bool dev_taken_(const struct virq_its *its, const struct virq_its_device *dev,
		       uint32_t device_id)
{
	for (const struct virq_its_device *d = its->devices; d; d = d->next)
		if (d == dev || d->device_id == device_id)
			return true;
	return false;
}

void virq_its_dev_unlink_(struct virq_its *its, struct virq_its_device *dev)
{
	for (struct virq_its_device **pp = &its->devices; *pp; pp = &(*pp)->next) {
		if (*pp == dev) {
			*pp = dev->next;
			dev->next = NULL;
			return;
		}
	}
}

/* MAPD with the ITS's lock held (the list walk, the level-2 page, the MAPD
 * and the list insertion are one step for the other CPUs). */
virq_status virq_its_device_map_locked_(struct virq_its *its, struct virq_its_device *dev,
					uint32_t device_id, uint32_t nr_events)
{
	const struct virq_hal *hal = &its->gic->hal;
	struct virq_its_cmd c;
	uint32_t nr;
	uint64_t itt_bytes;
	virq_status st;

	/* Before dev is cleared: it may be the mapped object itself. */
	if (dev_taken_(its, dev, device_id))
		return LIBVIRQ_EEXIST;
	/* The doorbell proxy's DeviceID is reserved before the proxy exists. */
	if (its->proxy_ok && device_id == its->proxy_devid && dev != its->proxy)
		return LIBVIRQ_EEXIST;
	nr = pow2_ceil_(nr_events < 2 ? 2 : nr_events);
	memset(dev, 0, sizeof(*dev));
	st = virq_its_tbl_ensure_(its, LIBVIRQ_ITS_TBL_DEV, device_id);
	if (st != LIBVIRQ_OK)
		return st;
	itt_bytes = (uint64_t)nr * its->itt_esz;
	st = virq_page_alloc_(hal, round_up_(itt_bytes, 4096), 4096, /* >= 256 B aligned */
			      &dev->itt);
	if (st == LIBVIRQ_OK)
		st = virq_page_alloc_(hal,
				      round_up_((uint64_t)nr * sizeof(struct virq_its_event), 4096),
				      4096, &dev->ev);
	/* The zeroed ITT must reach PoC before MAPD on a non-coherent ITS
	 * (CASE-14: Xen a1f8b32af0). */
	if (st == LIBVIRQ_OK)
		st = clean_if_(hal, its->tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent || its->noncoherent,
			       dev->itt.va, dev->itt.size);
	if (st == LIBVIRQ_OK) {
		c = virq_its_mapd(device_id, log2_(nr) - 1, dev->itt.pa, true);
		st = virq_its_exec_(its, &c, 1);
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
	its->devices = dev;
	if (dev != its->proxy)
		its->nr_devices++;
	return LIBVIRQ_OK;
}

virq_status virq_its_device_map(struct virq_its *its, struct virq_its_device *dev,
				uint32_t device_id, uint32_t nr_events)
{
	virq_status st;

	if (!its || !its->gic || !dev || !nr_events)
		return LIBVIRQ_EINVAL;
	if (its->lim.devid_bits < 32 && (device_id >> its->lim.devid_bits))
		return LIBVIRQ_ERANGE;
	if (nr_events > (1u << 31) ||
	    (its->lim.eventid_bits < 32 && nr_events > (1u << its->lim.eventid_bits)))
		return LIBVIRQ_ERANGE;
	virq_its_lock_(its);
	st = virq_its_device_map_locked_(its, dev, device_id, nr_events);
	virq_its_unlock_(its);
	return st;
}

static virq_status device_unmap_(struct virq_its_device *dev)
{
	struct virq_its *its = dev->its;
	struct virq_its_cmd c;
	virq_status st;

	/* A dead ITS takes no command: release the tracking (as the vPE
	 * teardown does), so that the ITS itself can be destroyed. */
	if (!its->dead) {
		c = virq_its_mapd(dev->device_id, log2_(dev->nr_events) - 1, 0, false);
		st = virq_its_exec_(its, &c, 1);
		if (st != LIBVIRQ_OK && !its->dead)
			return st;
	}
	virq_page_free_(&its->gic->hal, &dev->ev);
	virq_page_free_(&its->gic->hal, &dev->itt);
	virq_its_dev_unlink_(its, dev);
	if (dev != its->proxy)
		its->nr_devices--;
	dev->its = NULL;
	return LIBVIRQ_OK;
}

virq_status virq_its_device_unmap(struct virq_its_device *dev)
{
	struct virq_its *its;
	virq_status st;

	if (!dev_ok_(dev))
		return LIBVIRQ_EINVAL;
	if (dev->nr_mapped)
		return LIBVIRQ_EBUSY;
	its = dev->its;
	virq_its_lock_(its);
	st = device_unmap_(dev);
	virq_its_unlock_(its);
	return st;
}

static virq_status map_lpi_(struct virq_its_device *dev, struct virq_its_event *e, uint32_t event,
			    uint32_t pintid, uint32_t icid)
{
	struct virq_its_cmd c[2];
	virq_status st;

	if (!virq_its_col_mapped_(dev->its, icid))
		return LIBVIRQ_ENOENT;
	c[0] = virq_its_mapti(dev->device_id, event, pintid, icid);
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(dev->its, icid));
	st = virq_its_exec_(dev->its, c, 2);
	if (st != LIBVIRQ_OK)
		return st;
	e->kind = LIBVIRQ_ITS_EV_PHYS;
	e->icid = icid;
	e->intid = pintid;
	e->db = LIBVIRQ_ITS_NO_DOORBELL;
	e->vpe = NULL;
	dev->nr_mapped++;
	return LIBVIRQ_OK;
}

virq_status virq_its_map_lpi(struct virq_its_device *dev, uint32_t event, uint32_t pintid,
			     uint32_t icid)
{
	struct virq_its_event *e;
	virq_status st;

	st = ev_lookup_(dev, event, &e);
	if (st != LIBVIRQ_OK)
		return st;
	if (e->kind != LIBVIRQ_ITS_EV_NONE)
		return LIBVIRQ_EEXIST;
	if (!virq_lpi_allocated_(dev->its->gic, pintid))
		return LIBVIRQ_ENOENT;
	virq_its_lock_(dev->its);
	st = map_lpi_(dev, e, event, pintid, icid);
	virq_its_unlock_(dev->its);
	return st;
}

void virq_its_event_forget_(struct virq_its_device *dev, uint32_t event)
{
	struct virq_its_event *e = ev_at_(dev, event);

	if (e->kind == LIBVIRQ_ITS_EV_VIRT && e->vpe)
		e->vpe->nr_vlpis--;
	memset(e, 0, sizeof(*e));
	dev->nr_mapped--;
}

virq_status virq_its_unmap_event(struct virq_its_device *dev, uint32_t event)
{
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	virq_status st;

	st = ev_lookup_(dev, event, &e);
	if (st != LIBVIRQ_OK)
		return st;
	if (e->kind == LIBVIRQ_ITS_EV_NONE || e->kind == LIBVIRQ_ITS_EV_PROXY)
		return LIBVIRQ_ENOENT;
	c[0] = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_DISCARD, .DeviceID = dev->device_id, .EventID = event};
	c[1] = virq_its_ev_sync_(dev->its, e);
	virq_its_lock_(dev->its);
	st = virq_its_exec_(dev->its, c, 2);
	/* Tracked as unmapped even on a queue failure: DISCARD may have run,
	 * and mapping the event again is always valid after a DISCARD. */
	virq_its_event_forget_(dev, event);
	virq_its_unlock_(dev->its);
	return st;
}

static virq_status ev_cmd_(struct virq_its_device *dev, uint32_t event, enum virq_its_opcode op)
{
	struct virq_its_event *e;
	struct virq_its_cmd c[2];
	virq_status st = ev_lookup_(dev, event, &e);

	if (st != LIBVIRQ_OK)
		return st;
	if (e->kind != LIBVIRQ_ITS_EV_PHYS && e->kind != LIBVIRQ_ITS_EV_VIRT)
		return LIBVIRQ_ENOENT;
	c[0] = (struct virq_its_cmd){.opcode = op, .DeviceID = dev->device_id, .EventID = event};
	c[1] = virq_its_ev_sync_(dev->its, e);
	virq_its_lock_(dev->its);
	st = virq_its_exec_(dev->its, c, 2);
	virq_its_unlock_(dev->its);
	return st;
}

virq_status virq_its_int(struct virq_its_device *dev, uint32_t event)
{
	return ev_cmd_(dev, event, LIBVIRQ_ITS_INT);
}

virq_status virq_its_clear(struct virq_its_device *dev, uint32_t event)
{
	return ev_cmd_(dev, event, LIBVIRQ_ITS_CLEAR);
}

virq_status virq_its_inv(struct virq_its_device *dev, uint32_t event)
{
	return ev_cmd_(dev, event, LIBVIRQ_ITS_INV);
}

virq_status virq_its_event_get(const struct virq_its_device *dev, uint32_t event,
			       struct virq_its_event *out)
{
	if (!dev_ok_(dev) || !out)
		return LIBVIRQ_EINVAL;
	if (event >= dev->nr_events)
		return LIBVIRQ_ERANGE;
	*out = *ev_at_(dev, event);
	return LIBVIRQ_OK;
}
