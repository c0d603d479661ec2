/* SPDX-License-Identifier: MIT */
/*
 * Private helpers of the GICv4 core (gic.c, lpi.c, its*.c, vpe.c, vlpi.c,
 * residency.c). Not installed.
 */
#ifndef LIBVIRQ_SRC_GICV4_PRIV_H
#define LIBVIRQ_SRC_GICV4_PRIV_H

#include <libvirq/bitfield.h>
#include <libvirq/gicv4.h>
#include <libvirq/gicv4/gic_regs.h>
#include <libvirq/gicv4/its_regs.h>
#include "hal/hal_priv.h"

/* Bitmap helpers over HAL pages (bit n of byte n/8). */
static inline bool bm_test_(const uint8_t *bm, uint32_t n)
{
	return (bm[n >> 3] >> (n & 7)) & 1u;
}

static inline void bm_set_(uint8_t *bm, uint32_t n)
{
	bm[n >> 3] = (uint8_t)(bm[n >> 3] | (1u << (n & 7)));
}

static inline void bm_clr_(uint8_t *bm, uint32_t n)
{
	bm[n >> 3] = (uint8_t)(bm[n >> 3] & ~(1u << (n & 7)));
}

/* Rounds @v up to a multiple of @a (a power of two). */
static inline uint64_t round_up_(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Smallest power of two >= v (v >= 1, v <= 2^31). */
static inline uint32_t pow2_ceil_(uint32_t v)
{
	return v <= 1 ? 1u : 1u << (32 - __builtin_clz(v - 1));
}

/* log2 of a power of two. */
static inline uint32_t log2_(uint64_t v)
{
	return (uint32_t)__builtin_ctzll(v);
}

/* True when memory with these read-back attributes is not coherent with the
 * CPU caches (decoded fields; docs/rationale.md#gic-table-attributes). */
static inline bool attr_noncoherent_(uint64_t sh, uint64_t ic)
{
	return virq_gic_attr_needs_clean(ic, sh);
}

/* Cleans a table to PoC when @nc; LIBVIRQ_ENOHAL when it cannot. */
static inline virq_status clean_if_(const struct virq_hal *hal, bool nc, const void *va, size_t len)
{
	if (!nc)
		return LIBVIRQ_OK;
	return virq_dcache_clean_(hal, va, len) ? LIBVIRQ_OK : LIBVIRQ_ENOHAL;
}

static inline uint64_t rd_addr_(const struct virq_gic *gic, uint32_t idx, uint32_t off)
{
	return gic->rd[idx].rd_base + off;
}

static inline uint32_t rd_procnum_(const struct virq_gic *gic, uint32_t idx)
{
	return (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Processor_Number, gic->rd[idx].typer);
}

/* Residency-register reset of one RD (docs/rationale.md#gic-vpe-residency-init);
 * in residency.c. */
virq_status virq_rdist_vpe_reset_(struct virq_gic *gic, uint32_t idx);
/* GICv4.1: points the RD's GICR_VPROPBASER at the 4.1 ITS vPE table. */
virq_status virq_rdist_vpe_table_41_(struct virq_gic *gic, uint32_t idx);

/* Pending-LPI config byte address (for doorbell paths). */
static inline uint8_t *lpi_cfg_(const struct virq_gic *gic, uint32_t intid)
{
	return (uint8_t *)gic->prop.va + (intid - LIBVIRQ_LPI_BASE);
}

/* True when @intid is an allocated LPI of @gic. */
bool virq_lpi_allocated_(const struct virq_gic *gic, uint32_t intid);

#endif /* LIBVIRQ_SRC_GICV4_PRIV_H */
