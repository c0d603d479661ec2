/* SPDX-License-Identifier: MIT */
/* Private: internal functions of lpi.c (LPI and vPEID allocators). */
#ifndef LIBVIRQ_SRC_GICV4_LPI_PRIV_H
#define LIBVIRQ_SRC_GICV4_LPI_PRIV_H

#include "gicv4_priv.h"

/* True when @intid is an allocated LPI of @gic. */
bool virq_lpi_allocated_(const struct virq_gic *gic, uint32_t intid);

/* One more / one less ITS event mapping uses the allocated LPI @intid;
 * virq_lpi_free() refuses an LPI in use. ref fails (false) when 65534
 * events map it already or when it is a vPE's doorbell. */
bool virq_lpi_ref_(struct virq_gic *gic, uint32_t intid);
void virq_lpi_unref_(struct virq_gic *gic, uint32_t intid);

/* A vPE doorbell owns its LPI alone (no other vPE, no ITS event may use
 * it: docs/gicv4-core.md "Doorbells"): take fails (false) when the LPI
 * has any user; release gives it back; is_doorbell_ tells. */
bool virq_lpi_doorbell_take_(struct virq_gic *gic, uint32_t intid);
void virq_lpi_doorbell_release_(struct virq_gic *gic, uint32_t intid);
bool virq_lpi_is_doorbell_(const struct virq_gic *gic, uint32_t intid);

/* vPEID allocator over gic->vpeid_map (two-level bitmap, O(1)). */
void virq_vpeid_map_init_(struct virq_gic *gic);
bool virq_vpeid_alloc_(struct virq_gic *gic, uint32_t *id);
void virq_vpeid_free_(struct virq_gic *gic, uint32_t id);
bool virq_vpeid_used_(const struct virq_gic *gic, uint32_t id);
/* Hands out no vPEID >= @limit from now on (gic->vpeid_limit; a table
 * covers fewer). False, and nothing changed, when one of them is in use. */
bool virq_vpeid_cap_(struct virq_gic *gic, uint32_t limit);

#endif /* LIBVIRQ_SRC_GICV4_LPI_PRIV_H */
