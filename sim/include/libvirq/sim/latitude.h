/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief The latitude IHI 0069H gives a GIC implementation in its table and
 *        queue base registers, as options of the simulator's models.
 *
 * Several fields of GITS_BASER\<n\>, GITS_CBASER, GICR_PROPBASER,
 * GICR_PENDBASER, GICR_VPROPBASER and GICR_VPENDBASER need not keep what
 * software writes (Arm IHI 0069H §12.11 and §12.19, each register's field
 * descriptions):
 * - Shareability, InnerCache and OuterCache: "it is IMPLEMENTATION DEFINED
 *   whether this field has a fixed value or can be programmed by
 *   software" (::virq_sim_field: programmable, or fixed at any value);
 * - Indirect (GITS_BASER\<n\>, GICv4.1 GICR_VPROPBASER): RAZ/WI on an
 *   implementation that supports only flat tables;
 * - Page_Size (same registers): an implementation may support a subset of
 *   4, 16 and 64 KiB; with a single size the field may be read-only;
 * - Physical_Address: the bits above the physical address size the
 *   implementation supports are RES0 (modelled RAZ/WI).
 *
 * Every model's option defaults to zero, which is "what software writes
 * sticks" (QEMU 7.2's behaviour), so a zeroed configuration models QEMU.
 * Named combinations are the profiles of libvirq/sim/gic.h.
 *
 * Thread-safety: plain data.
 */
#ifndef LIBVIRQ_SIM_LATITUDE_H
#define LIBVIRQ_SIM_LATITUDE_H

#include <libvirq/virq_env.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_latitude Register latitude
 * @ingroup virq_sim
 * @{
 */

/** @brief A register field an implementation may fix. Zero: programmable. */
struct virq_sim_field {
	bool fixed;    /**< True: reads @c value whatever is written (RO); false: writes stick. */
	uint8_t value; /**< The fixed value (only with @c fixed). */
};

/** @brief The memory attributes of a table or queue base register. Zero: all programmable. */
struct virq_sim_attrs {
	struct virq_sim_field sh;    /**< Shareability ([11:10] in every register modelled). */
	struct virq_sim_field inner; /**< InnerCache. */
	struct virq_sim_field outer; /**< OuterCache. */
	/**
	 * Physical address bits implemented (0: 52). The address bits at and
	 * above it read 0 whatever is written.
	 */
	uint8_t pa_bits;
};

/** @brief Page sizes, as bits of ::virq_sim_table_lat::page_sizes. */
enum virq_sim_page_size {
	LIBVIRQ_SIM_PSZ_4K = 1u << 0,  /**< 4 KiB (Page_Size 0b00). */
	LIBVIRQ_SIM_PSZ_16K = 1u << 1, /**< 16 KiB (Page_Size 0b01). */
	LIBVIRQ_SIM_PSZ_64K = 1u << 2, /**< 64 KiB (Page_Size 0b10; 0b11 is treated as 0b10). */
};

/**
 * @brief A table base register: GITS_BASER\<n\>, or the GICv4.1 layout of
 *        GICR_VPROPBASER. Zero: attributes programmable, two-level tables
 *        and every page size supported.
 */
struct virq_sim_table_lat {
	struct virq_sim_attrs attrs; /**< Shareability, caches, address bits. */
	bool flat_only;		     /**< Indirect is RAZ/WI: only flat tables. */
	/**
	 * Page sizes supported, ::virq_sim_page_size bits (0: all three). A
	 * single bit makes Page_Size read-only at that size. A write of a size
	 * not supported reads back a supported one: the largest, or the
	 * smallest with @c psz_smallest.
	 */
	uint8_t page_sizes;
	bool psz_smallest; /**< An unsupported page size reads back as the smallest supported. */
};

/**
 * @brief A fixed field.
 * @param value The value it reads.
 * @return The field.
 */
static inline struct virq_sim_field virq_sim_fixed(uint8_t value)
{
	struct virq_sim_field f;

	f.fixed = true;
	f.value = value;
	return f;
}

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_LATITUDE_H */
