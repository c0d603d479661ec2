/* SPDX-License-Identifier: MIT */
/*
 * Private inline helpers shared by the GICv4 driver files (bitmaps,
 * rounding, register addresses, table bytes). Declares no function: each
 * file's internal functions are declared in its own <file>_priv.h, so that
 * the include graph follows the call graph (which has no cycle).
 * Not installed.
 */
#ifndef LIBVIRQ_SRC_GICV4_PRIV_H
#define LIBVIRQ_SRC_GICV4_PRIV_H

#include <libvirq/bitfield.h>
#include <libvirq/gicv4.h>
#include <libvirq/gicv4/gic_regs.h>
#include <libvirq/gicv4/its_regs.h>
#include "../hal/hal_priv.h"

/* The widest LPI INTID the library hands out (virq_gic_init()'s lpi_bits
 * limit). Event tracking holds INTIDs this wide. */
#define LIBVIRQ_LPI_BITS_MAX_ LIBVIRQ_GIC_LPI_BITS_MAX

/* Bitmap helpers over HAL pages (bit n of byte n/8). */
static inline bool bm_test_(const uint8_t *bm, uint32_t n)
{
	return (((uint32_t)bm[n >> 3] >> (n & 7u)) & 1u) != 0;
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
 * CPU caches (docs/rationale.md#gic-table-attributes; decoded fields):
 * Non-shareable, InnerCache Device or non-cacheable, or OuterCache
 * non-cacheable (0 is "as InnerCache"). */
static inline bool attr_noncoherent_(uint64_t sh, uint64_t ic, uint64_t oc)
{
	return virq_gic_attr_needs_clean(ic, sh) || oc == LIBVIRQ_GIC_CACHE_nC;
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

/* The address of LPI @intid's byte in the LPI configuration table. */
static inline uint8_t *lpi_cfg_(const struct virq_gic *gic, uint32_t intid)
{
	return (uint8_t *)gic->prop.va + (intid - LIBVIRQ_LPI_BASE);
}

/* ---- lifecycle (gicv4/state.h): one check per object type ---- */
#define LIVE_ LIBVIRQ_GICV4_LIVE

/*
 * The report of a GICv4 object @p obj (parameter @p name) that is not live:
 * NULL, never initialised or destroyed (gicv4/state.h). A destroyed object
 * reports through the HAL it kept; the others through @p other, the HAL
 * of another object of the call (NULL: none).
 */
#define LIBVIRQ_GICV4_DEAD_(api, other, name, obj)                                                 \
	LIBVIRQ_FAIL_DEAD_((api),                                                                  \
			   (obj) && (obj)->state == LIBVIRQ_GICV4_GONE ? &(obj)->hal : (other),    \
			   (name), (obj), LIBVIRQ_GICV4_GONE)

static inline bool gic_live_(const struct virq_gic *gic)
{
	return gic && gic->state == LIVE_;
}

static inline bool its_live_(const struct virq_its *its)
{
	return its && its->state == LIVE_;
}

static inline bool dev_live_(const struct virq_its_device *dev)
{
	return dev && dev->state == LIVE_;
}

static inline bool vm_live_(const struct virq_gic_vm *vm)
{
	return vm && vm->state == LIVE_;
}

static inline bool vpe_live_(const struct virq_vpe *vpe)
{
	return vpe && vpe->state == LIVE_;
}

/* The HAL a GICv4 object @p obj has (live, or destroyed: kept), or NULL
 * (NULL or never initialised): another object's to report a call with. */
#define LIBVIRQ_GICV4_HAL_OF_(obj)                                                                 \
	((obj) && ((obj)->state == LIVE_ || (obj)->state == LIBVIRQ_GICV4_GONE) ? &(obj)->hal      \
										: NULL)

/* ---- vPEID allocator memory: a two-level bitmap (lpi.c) ---- */
/* 64-bit words of the leaf level for 2^bits IDs (at least one). */
static inline uint32_t vpeid_leaf_words_(uint32_t bits)
{
	return bits >= 6 ? 1u << (bits - 6) : 1u;
}

/* Words of the summary level (bit w set: leaf word w is full). */
static inline uint32_t vpeid_sum_words_(uint32_t bits)
{
	return (vpeid_leaf_words_(bits) + 63) / 64;
}

/* Bytes of the allocator's page: never 0, even for 1 or 2 vPEID bits. */
static inline uint64_t vpeid_map_bytes_(uint32_t bits)
{
	return round_up_(8ull * (vpeid_sum_words_(bits) + vpeid_leaf_words_(bits)), 4096);
}

#endif /* LIBVIRQ_SRC_GICV4_PRIV_H */
