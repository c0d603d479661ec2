/* SPDX-License-Identifier: MIT */
/* Private: internal functions of rdist.c (redistributor bring-up, vPE tables). */
#ifndef LIBVIRQ_SRC_GICV4_RDIST_PRIV_H
#define LIBVIRQ_SRC_GICV4_RDIST_PRIV_H

#include "gicv4/gicv4_priv.h"

/* GICv4.1: points every initialised RD that has no vPE table yet at a 4.1
 * ITS's vPE table (called when such an ITS comes up). */
virq_status virq_rdist_vpe_tables_attach_(struct virq_gic *gic);
/* GICv4.1: RDs using the vPE table of @its move to another 4.1 ITS's table
 * or get GICR_VPROPBASER cleared (called before @its frees its tables). */
void virq_rdist_vpe_tables_detach_(struct virq_gic *gic, const struct virq_its *its);

/* GICv4.1: makes the vPE-table entry of @vpeid usable in every table the
 * library allocated for redistributors itself (level-2 page on demand, in
 * every copy: IHI 0069 §5.6, Linux allocate_vpe_l2_table). No-op on 4.0. */
virq_status virq_rdist_vpe_entry_ensure_(struct virq_gic *gic, uint32_t vpeid);

#endif /* LIBVIRQ_SRC_GICV4_RDIST_PRIV_H */
