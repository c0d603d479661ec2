/* SPDX-License-Identifier: MIT */
/* Private: internal functions of its_table.c (GITS_BASER<n> tables). */
#ifndef LIBVIRQ_SRC_GICV4_ITS_TABLE_PRIV_H
#define LIBVIRQ_SRC_GICV4_ITS_TABLE_PRIV_H

#include <libvirq/gicv4/its.h>
#include "gicv4_priv.h"

/* Makes the table entry for @id usable (level-2 page on demand). */
virq_status virq_its_tbl_ensure_(const char *api, struct virq_its *its, enum virq_its_tbl_idx t,
				 uint32_t id);

/* From now on table @t is cleaned to PoC on every change, and all of it
 * is cleaned now (another reader of it, a GICv4.1 redistributor sharing
 * the vPE table, is not coherent). LIBVIRQ_ENOHAL without dcache_clean. */
virq_status virq_its_tbl_noncoherent_(struct virq_its *its, enum virq_its_tbl_idx t);

/* Sets up every GITS_BASER<n>; frees everything on failure. */
virq_status virq_its_tables_init_(const char *api, struct virq_its *its);
void virq_its_tables_free_(struct virq_its *its);

#endif /* LIBVIRQ_SRC_GICV4_ITS_TABLE_PRIV_H */
