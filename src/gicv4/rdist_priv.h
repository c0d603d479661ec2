/* SPDX-License-Identifier: MIT */
/* Private: internal functions of rdist.c (redistributor bring-up, vPE tables). */
#ifndef LIBVIRQ_SRC_GICV4_RDIST_PRIV_H
#define LIBVIRQ_SRC_GICV4_RDIST_PRIV_H

#include "gicv4_priv.h"

/* GICv4.1: points every initialised RD without a vPE table at the one its
 * affinity calls for (a sharing ITS's, its group's copy, or, once vPEs
 * exist, a new one); EBUSY when a sharing ITS came up after an own table
 * was allocated for its redistributors (called when a 4.1 ITS comes up). */
virq_status virq_rdist_vpe_tables_attach_(const char *api, struct virq_gic *gic);
/* GICv4.1: RDs using the vPE table of @its are re-attached elsewhere, or
 * get GICR_VPROPBASER cleared (called after @its is unregistered, before it
 * frees its tables). Failures are reported under @p api (the public
 * function called), as for every internal function taking it. */
void virq_rdist_vpe_tables_detach_(const char *api, struct virq_gic *gic,
				   const struct virq_its *its);
/* Frees the vPE tables the library allocated for redistributors. */
void virq_rdist_vpe_tables_free_(struct virq_gic *gic);

/* GICv4.1: makes the vPE-table entry of @vpeid usable in every table the
 * library allocated for redistributors itself (level-2 page on demand, in
 * every copy: IHI 0069H §5.6, Linux allocate_vpe_l2_table). No-op on 4.0. */
virq_status virq_rdist_vpe_entry_ensure_(const char *api, struct virq_gic *gic, uint32_t vpeid);

#endif /* LIBVIRQ_SRC_GICV4_RDIST_PRIV_H */
