/* SPDX-License-Identifier: MIT */
/* Private: internal functions of lpi.c (physical LPI allocator). */
#ifndef LIBVIRQ_SRC_GICV4_LPI_PRIV_H
#define LIBVIRQ_SRC_GICV4_LPI_PRIV_H

#include "gicv4/gicv4_priv.h"

/* True when @intid is an allocated LPI of @gic. */
bool virq_lpi_allocated_(const struct virq_gic *gic, uint32_t intid);

#endif /* LIBVIRQ_SRC_GICV4_LPI_PRIV_H */
