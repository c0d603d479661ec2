/* SPDX-License-Identifier: MIT */
/*
 * Private: runs of ITS commands written straight into queue slots, for the
 * batch paths (virq_vlpi_map_range(), the unmap ranges). Pure; the caller
 * has validated the first and the last command of the run with
 * virq_its_cmd_encode() against the ITS's limits, and every field is
 * monotonic over the run, so every command in between is valid too.
 * Layouts: Arm IHI 0069H §5.3 (VMAPTI, DISCARD); the same words
 * virq_its_cmd_encode() writes (tested against it).
 */
#ifndef LIBVIRQ_SRC_GICV4_ENC_ITS_FILL_H
#define LIBVIRQ_SRC_GICV4_ENC_ITS_FILL_H

#include <libvirq/gicv4/its_cmd.h>

/* @n VMAPTI: DeviceID @dev, EventID ev0 + i, vPEID @vpeid, vINTID
 * vint0 + i, Dbell_pINTID @db; 32 bytes each from @out. */
void virq_its_vmapti_fill_(uint8_t *out, uint32_t n, uint32_t dev, uint32_t ev0, uint32_t vpeid,
			   uint32_t vint0, uint32_t db);

/* @n DISCARD of (DeviceID @dev, EventID ev0 + i); 32 bytes each from @out. */
void virq_its_discard_fill_(uint8_t *out, uint32_t n, uint32_t dev, uint32_t ev0);

#endif /* LIBVIRQ_SRC_GICV4_ENC_ITS_FILL_H */
