/* SPDX-License-Identifier: MIT */
/* Private: internal functions of doorbell.c (GICv4.0 doorbell masking and
 * the doorbell proxy device). */
#ifndef LIBVIRQ_SRC_GICV4_DOORBELL_PRIV_H
#define LIBVIRQ_SRC_GICV4_DOORBELL_PRIV_H

#include <libvirq/gicv4/vpe.h>

/* GICv4.0 doorbell masking: enable (@want) or disable the doorbell's config
 * byte and invalidate it, when the vPE asked for masking. No-op otherwise.
 * Failures are reported under @p api, as for every internal function
 * taking it. */
virq_status virq_vpe_db_request_(const char *api, struct virq_vpe *vpe, bool want);

/* virq_vpe_doorbell_invalidate() reporting under @p api. */
virq_status virq_vpe_doorbell_invalidate_(const char *api, struct virq_vpe *vpe);

/* GICv4.0 proxy doorbell slot: release (DISCARD). */
void virq_vpe_proxy_release_(struct virq_vpe *vpe);

/* After the VMOVP of @vpe from redistributor @from to @to: GICv4.0 clears a
 * doorbell left pending on @from (GICR_CLRLPIR with DirectLPI, else CLEAR
 * through the proxy device), raises it on @to for a vCPU in WFI, and keeps
 * a proxy slot following the vPE. Takes the proxy ITS's lock itself. */
virq_status virq_vpe_db_move_(const char *api, struct virq_vpe *vpe, uint32_t from, uint32_t to);

/* Frees @its's proxy device, if it has one (ITS teardown: takes no lock). */
void virq_its_proxy_free_(struct virq_its *its);

#endif /* LIBVIRQ_SRC_GICV4_DOORBELL_PRIV_H */
