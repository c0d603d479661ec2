/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief Plain description of a GICv3/v4 system: where its frames are.
 *
 * Filled by the optional device-tree discovery (fdt.h, virq_fdt_discover_gic())
 * or by hand by an embedder that uses ACPI (MADT GICD/GICR/ITS entries).
 * Everything else in libvirq consumes only this struct; nothing else knows
 * about device trees. The GIC version is not part of the description: it is
 * read from the hardware (GICD_PIDR2, GITS_TYPER, GICR_TYPER).
 *
 * Addresses are in the embedder's MMIO address space (see hal.h); with an
 * ITS that has GITS_TYPER.PTA = 1 the redistributor addresses go into ITS
 * commands and must be physical (hal.h, struct virq_hal_ops).
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

/** @brief One contiguous redistributor region (Arm IHI 0069H §12.10). */
struct virq_gic_redist_region {
	uint64_t base;	 /**< Address of the first redistributor's RD_base frame. */
	uint64_t size;	 /**< Region size in bytes; > 0. */
	uint64_t stride; /**< Distance between redistributors in bytes, or 0 to use the
			      architectural 128 KiB (GICv3) / 256 KiB (GICv4, VLPIS=1). */
};

/**
 * @brief What a description's source published but discovery left out (bit set).
 *
 * Set by virq_fdt_discover_gic(), which then also returns a reason sentence
 * naming the first thing left out; 0 in a hand-filled description.
 */
enum virq_gic_desc_skip {
	/** At least one redistributor region was empty (size 0) and is not in
	    virq_gic_desc::redist; virq_gic_desc::nr_redist_skipped counts them. */
	LIBVIRQ_GIC_SKIP_REDIST = 1u << 0,
	/** A GICC, GICH or GICV entry was empty (size 0) and is reported absent. */
	LIBVIRQ_GIC_SKIP_CPUIF = 1u << 1,
};

/** @brief One ITS (Arm IHI 0069H §12.19). */
struct virq_gic_its_desc {
	uint64_t base;	      /**< Address of the ITS control frame (GITS_CTLR at +0). */
	uint64_t size;	      /**< Size of the ITS register region in bytes; at least
				   the 64 KiB control frame (::LIBVIRQ_GIC_FRAME_SIZE). */
	bool dma_noncoherent; /**< Tables and queue are not coherent: force non-shareable,
				   non-cacheable attributes and clean to PoC. */
	/** The ITS node's device-tree phandle (what @c msi-map and @c msi-parent
	    name), 1..0xfffffffe; 0 when it has none or the description is not
	    from a device tree. Phandles are not stable across machines (QEMU's
	    virt numbers them by CPU count): look an ITS up by phandle, never by
	    index or constant. */
	uint32_t phandle;
	/** The ITS node's offset in the blob it was discovered from (valid only
	    for that unmodified blob), for further libfdt look-ups; 0 when not
	    from a device tree (0 is the root, never an ITS). */
	int32_t fdt_node;
};

/**
 * @brief A whole GIC: distributor, redistributor regions, ITSes, and the
 *        optional GICv2-compatible CPU interface frames.
 *
 * The optional members (@ref nr_redist_skipped, @ref skipped, the GICC/GICH/GICV
 * frames, virq_gic_its_desc::phandle and virq_gic_its_desc::fdt_node) are
 * zero in a zero-initialised hand-filled description, which means "absent".
 */
struct virq_gic_desc {
	uint64_t gicd_base; /**< GICD frame address. */
	uint64_t gicd_size; /**< GICD region size in bytes; at least 64 KiB
				 (::LIBVIRQ_GIC_FRAME_SIZE). */
	/** Number of valid entries in @ref redist (1..16). A hand-filled entry
	    with size 0 is skipped by virq_gic_init() with a warning log line. */
	uint32_t nr_redist_regions;
	/** Redistributor regions in tree (or MADT) order. */
	struct virq_gic_redist_region redist[LIBVIRQ_GIC_MAX_REDIST_REGIONS];
	uint32_t nr_its; /**< Number of valid entries in @ref its (0..16). */
	/** Enabled ITSes in tree order. */
	struct virq_gic_its_desc its[LIBVIRQ_GIC_MAX_ITS];
	bool dma_noncoherent; /**< Redistributor tables (PROPBASER/PENDBASER) are not coherent. */
	uint32_t platform;    /**< Bit set of ::virq_gic_platform. */
	/** Empty (size 0) redistributor regions the source published and
	    discovery left out of @ref redist (0..4096). */
	uint32_t nr_redist_skipped;
	uint32_t skipped; /**< Bit set of ::virq_gic_desc_skip. */
	/** GICC: the memory-mapped, GICv2-compatible CPU interface (GICC_CTLR at
	    +0); 0/0 when absent. Device tree: the @c reg entry after the
	    redistributor regions (binding arm,gic-v3.yaml); ACPI: MADT GICC
	    "Physical Base Address". Register map: Arm IHI 0069H, memory-mapped
	    GICC_* registers. */
	uint64_t gicc_base;
	uint64_t gicc_size; /**< GICC region size in bytes; 0 when absent. */
	/** GICH: the memory-mapped virtual interface control frame (GICH_HCR at
	    +0) a hypervisor of GICv2-compatible guests uses; 0/0 when absent
	    (the @c reg entry after GICC). Arm IHI 0069H, GICH_* registers. */
	uint64_t gich_base;
	uint64_t gich_size; /**< GICH region size in bytes; 0 when absent. */
	/** GICV: the memory-mapped virtual CPU interface a GICv2-compatible
	    guest is given (GICV_CTLR at +0); 0/0 when absent (the @c reg entry
	    after GICH). Arm IHI 0069H, GICV_* registers. */
	uint64_t gicv_base;
	uint64_t gicv_size; /**< GICV region size in bytes; 0 when absent. */
};

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_DESC_H */
