/* SPDX-License-Identifier: MIT */
/* Private: internal functions of device.c (devices and event tracking). */
#ifndef LIBVIRQ_SRC_GICV4_DEVICE_PRIV_H
#define LIBVIRQ_SRC_GICV4_DEVICE_PRIV_H

#include <libvirq/gicv4/its.h>

/* Drops the tracking of an event after DISCARD. */
void virq_its_event_forget_(struct virq_its_device *dev, uint32_t event);

/* Frees a device's ITT or tracking block (a pool block or HAL pages) and
 * empties it. ITS lock held. */
void virq_its_dev_mem_free_(struct virq_its *its, struct virq_page *blk);

/* virq_its_device_map() on live @its with its lock held (the proxy device
 * is created by a caller that holds it), reporting under @p api. */
virq_status virq_its_device_map_locked_(const char *api, struct virq_its *its,
					struct virq_its_device *dev, uint32_t device_id,
					uint32_t nr_events);

/* virq_its_device_unmap() reporting under @p api (NULL: not reported);
 * takes the ITS lock. */
virq_status virq_its_device_unmap_(const char *api, struct virq_its_device *dev);

/* virq_its_unmap_event() reporting under @p api (virq_vlpi_unmap()); takes
 * the ITS lock. */
virq_status virq_its_unmap_event_(const char *api, struct virq_its_device *dev, uint32_t event);

/* INT, CLEAR or INV (@op) of a mapped event and its SYNC/VSYNC, reporting
 * under @p api (virq_vlpi_set_config()); takes the ITS lock. */
/* virq_its_ev_cmd_() with the ITS lock held (virq_its_lock_dev_(dev, true)). */
virq_status virq_its_ev_cmd_locked_(const char *api, struct virq_its_device *dev, uint32_t event,
				    enum virq_its_opcode op);
virq_status virq_its_ev_cmd_(const char *api, struct virq_its_device *dev, uint32_t event,
			     enum virq_its_opcode op);

/* virq_its_device_unmap() without taking the ITS lock: the caller holds
 * it, or (virq_its_destroy()) nothing else may use the ITS. */
virq_status virq_its_device_unmap_locked_(const char *api, struct virq_its_device *dev);

/* Removes @dev from @its's list of mapped devices (no-op when absent). */
void virq_its_dev_unlink_(struct virq_its *its, struct virq_its_device *dev);

/* Batched unmap of events first .. first + count - 1 (DISCARDs, one SYNC
 * per collection, one VSYNC per vPE, one drain): virq_its_unmap_range()
 * (physical and virtual) and virq_vlpi_unmap_range() (@vlpi_only). */
virq_status virq_its_unmap_run_(const char *api, struct virq_its_device *dev, uint32_t first,
				uint32_t count, bool vlpi_only);

#endif /* LIBVIRQ_SRC_GICV4_DEVICE_PRIV_H */
