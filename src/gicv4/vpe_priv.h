/* SPDX-License-Identifier: MIT */
/* Private helpers of vpe.c, vlpi.c, residency.c. */
#ifndef LIBVIRQ_SRC_GICV4_VPE_PRIV_H
#define LIBVIRQ_SRC_GICV4_VPE_PRIV_H

#include <libvirq/gicv4/vpe.h>

/* GICv4.0 doorbell masking: enable (@want) or disable the doorbell's config
 * byte and invalidate it, when the vPE asked for masking. No-op otherwise. */
virq_status virq_vpe_db_request_(struct virq_vpe *vpe, bool want);

/* Drops the tracking of an event after DISCARD (device.c). */
void virq_its_event_forget_(struct virq_its_device *dev, uint32_t event);

/* GICv4.0 proxy doorbell slot: release (DISCARD) / follow a VMOVP (MOVI). */
void virq_vpe_proxy_release_(struct virq_vpe *vpe);
virq_status virq_vpe_proxy_move_(struct virq_vpe *vpe, uint32_t rd);

#endif /* LIBVIRQ_SRC_GICV4_VPE_PRIV_H */
