/* SPDX-License-Identifier: MIT */
/* Private: internal functions of lpi.c (LPI and vPEID allocators). */
#ifndef LIBVIRQ_SRC_GICV4_LPI_PRIV_H
#define LIBVIRQ_SRC_GICV4_LPI_PRIV_H

#include "gicv4/gicv4_priv.h"

/* True when @intid is an allocated LPI of @gic. */
bool virq_lpi_allocated_(const struct virq_gic *gic, uint32_t intid);

/* One more / one less ITS event mapping (or vPE doorbell) uses the
 * allocated LPI @intid; virq_lpi_free() refuses an LPI in use. ref fails
 * (false) only when 65535 users exist already. */
bool virq_lpi_ref_(struct virq_gic *gic, uint32_t intid);
void virq_lpi_unref_(struct virq_gic *gic, uint32_t intid);

/* vPEID allocator over gic->vpeid_map (two-level bitmap, O(1)). */
void virq_vpeid_map_init_(struct virq_gic *gic);
bool virq_vpeid_alloc_(struct virq_gic *gic, uint32_t *id);
void virq_vpeid_free_(struct virq_gic *gic, uint32_t id);
bool virq_vpeid_used_(const struct virq_gic *gic, uint32_t id);

#endif /* LIBVIRQ_SRC_GICV4_LPI_PRIV_H */
