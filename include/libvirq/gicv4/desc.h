/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Plain description of a GICv3/v4 system: where its frames are.
 *
 * Filled by the optional device-tree discovery (fdt.h, virq_fdt_discover_gic())
 * or by hand by an embedder that uses ACPI (MADT GICD/GICR/ITS entries).
 * Everything else in libvirq consumes only this struct; nothing else knows
 * about device trees. The GIC version is not part of the description: it is
 * read from the hardware (GICD_PIDR2, GITS_TYPER, GICR_TYPER).
 *
 * Addresses are in the embedder's MMIO address space (see hal.h).
 * Thread-safety: plain data.
 */
#ifndef LIBVIRQ_GICV4_DESC_H
#define LIBVIRQ_GICV4_DESC_H

#include "../virq_env.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most redistributor regions a description can hold. */
#define LIBVIRQ_GIC_MAX_REDIST_REGIONS 16
/** @brief Most ITSes a description can hold. */
#define LIBVIRQ_GIC_MAX_ITS 16

/** @brief Platform facts that change how the GIC must be driven (bit set). */
enum virq_gic_platform {
	/** The machine is a Rockchip RK3588 (erratum RK3588001: no shareability). */
	LIBVIRQ_GIC_PLAT_RK3588 = 1u << 0,
};

/** @brief One contiguous redistributor region (Arm IHI 0069 §12.10). */
struct virq_gic_redist_region {
	uint64_t base;   /**< Address of the first redistributor's RD_base frame. */
	uint64_t size;   /**< Region size in bytes; > 0. */
	uint64_t stride; /**< Distance between redistributors in bytes, or 0 to use the
			      architectural 128 KiB (GICv3) / 256 KiB (GICv4, VLPIS=1). */
};

/** @brief One ITS (Arm IHI 0069 §12.19). */
struct virq_gic_its_desc {
	uint64_t base;        /**< Address of the ITS control frame (GITS_CTLR at +0). */
	uint64_t size;        /**< Size of the ITS register region in bytes; > 0. */
	bool dma_noncoherent; /**< Tables and queue are not coherent: force non-shareable,
				   non-cacheable attributes and clean to PoC. */
};

/** @brief A whole GIC: distributor, redistributor regions, ITSes. */
struct virq_gic_desc {
	uint64_t gicd_base;         /**< GICD frame address. */
	uint64_t gicd_size;         /**< GICD region size in bytes; > 0. */
	uint32_t nr_redist_regions; /**< Number of valid entries in @ref redist (1..16). */
	/** Redistributor regions in tree (or MADT) order. */
	struct virq_gic_redist_region redist[LIBVIRQ_GIC_MAX_REDIST_REGIONS];
	uint32_t nr_its;            /**< Number of valid entries in @ref its (0..16). */
	/** Enabled ITSes in tree order. */
	struct virq_gic_its_desc its[LIBVIRQ_GIC_MAX_ITS];
	bool dma_noncoherent;       /**< Redistributor tables (PROPBASER/PENDBASER) are not coherent. */
	uint32_t platform;          /**< Bit set of ::virq_gic_platform. */
};

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_DESC_H */
