/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief A whole simulated GICv4: distributor, redistributors and ITSes
 *        wired at documented addresses, with the ::virq_gic_desc to give
 *        virq_gic_init().
 *
 * virq_sim_gic_new() creates one redistributor model (libvirq/sim/rdist.h)
 * and up to ::LIBVIRQ_SIM_GIC_MAX_ITS ITS models (libvirq/sim/its_state.h)
 * on a simulator and fills a ::virq_gic_desc describing them, so that
 * @code
 * struct virq_sim *sim = virq_sim_new();
 * struct virq_hal hal = virq_sim_hal(sim);
 * struct virq_sim_gic_cfg cfg = virq_sim_gic_default_cfg();
 * struct virq_gic_desc desc;
 * struct virq_sim_gic *g = virq_sim_gic_new(sim, &cfg, &desc);
 * // virq_gic_init(&gic, &hal, &desc, rds, n, 16) ... virq_its_init(&its, &gic, &desc.its[0], NULL)
 * @endcode
 * is a GICv4.0 like QEMU 7.2's @c virt board with @c gic-version=4.
 *
 * Address map (the QEMU @c virt board's, so device-tree dumps of QEMU and
 * the simulator agree):
 * | Frame | Address | Size |
 * |---|---|---|
 * | GICD | ::LIBVIRQ_SIM_GIC_GICD_BASE (0x0800_0000) | 0x1_0000 |
 * | ITS 0 | ::LIBVIRQ_SIM_GIC_ITS0_BASE (0x0808_0000) | 0x2_0000 |
 * | redistributors | ::LIBVIRQ_SIM_GIC_REDIST_BASE (0x080A_0000), one frame per RD, stride 0x4_0000
 * (GICv4) | 0xF6_0000 (room for 61 RDs), or @c nr × stride when larger | | ITS @e i, 1 ≤ @e i < 16
 * | ::LIBVIRQ_SIM_GIC_ITSN_BASE (0x0C00_0000) + (@e i − 1) × 0x2_0000 | 0x2_0000 |
 *
 * ITS @e i for @e i ≥ 1 lies outside QEMU's map (QEMU has one ITS), in a
 * range no QEMU @c virt device uses below 4 GiB, so no frame overlaps.
 *
 * Lifetime: free the models with virq_sim_gic_free() after the last library
 * call that can reach them; it does not touch the simulator, so it may run
 * before or after virq_sim_free().
 *
 * Thread-safety: as every model, under the simulator's lock.
 */
#ifndef LIBVIRQ_SIM_GIC_H
#define LIBVIRQ_SIM_GIC_H

#include <libvirq/gicv4/desc.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/its_state.h>
#include <libvirq/sim/rdist.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_gic Simulated GIC
 * @ingroup virq_sim
 * @{
 */

/** @brief GICD frame address (QEMU @c virt VIRT_GIC_DIST). */
#define LIBVIRQ_SIM_GIC_GICD_BASE 0x08000000ull
/** @brief GICD frame size. */
#define LIBVIRQ_SIM_GIC_GICD_SIZE 0x10000ull
/** @brief ITS 0 control frame address (QEMU @c virt VIRT_GIC_ITS). */
#define LIBVIRQ_SIM_GIC_ITS0_BASE 0x08080000ull
/** @brief Address of ITS 1; ITS @e i ≥ 1 is at this + (@e i − 1) × ::LIBVIRQ_SIM_GIC_ITS_SIZE. */
#define LIBVIRQ_SIM_GIC_ITSN_BASE 0x0C000000ull
/** @brief Size of each ITS region (control + translation frames). */
#define LIBVIRQ_SIM_GIC_ITS_SIZE 0x20000ull
/** @brief First redistributor frame (QEMU @c virt VIRT_GIC_REDIST). */
#define LIBVIRQ_SIM_GIC_REDIST_BASE 0x080A0000ull
/** @brief Size of the redistributor region QEMU @c virt describes (61 GICv4 frames). */
#define LIBVIRQ_SIM_GIC_REDIST_SIZE 0xF60000ull
/** @brief Most ITSes virq_sim_gic_new() wires (::LIBVIRQ_GIC_MAX_ITS). */
#define LIBVIRQ_SIM_GIC_MAX_ITS 16u
/** @brief Address of ITS @p i (0 ≤ @p i < ::LIBVIRQ_SIM_GIC_MAX_ITS). */
#define LIBVIRQ_SIM_GIC_ITS_BASE(i)                                                                \
	((i) == 0 ? LIBVIRQ_SIM_GIC_ITS0_BASE                                                      \
		  : LIBVIRQ_SIM_GIC_ITSN_BASE + (uint64_t)((i)-1) * LIBVIRQ_SIM_GIC_ITS_SIZE)

/**
 * @brief GITS_TYPER of QEMU 7.2's ITS with @c gic-version=4 (the ITS models' default).
 *
 * Physical = Virtual = 1, ITT_entry_size 12 bytes ([7:4] = 0xB), 16
 * EventID bits (IDbits = 15), 16 DeviceID bits (Devbits = 15), PTA = 0,
 * CIDbits = 15 with CIL = 1, VMOVP = 1 (fields: IHI 0069 GITS_TYPER).
 */
#define LIBVIRQ_SIM_GITS_TYPER_QEMU_V40 0x0000003F0001EFB3ull
/** @brief As ::LIBVIRQ_SIM_GITS_TYPER_QEMU_V40 with GITS_TYPER.VMAPP (bit 40): a GICv4.1 ITS. */
#define LIBVIRQ_SIM_GITS_TYPER_QEMU_V41 (LIBVIRQ_SIM_GITS_TYPER_QEMU_V40 | (1ull << 40))

/** @brief What to simulate. */
struct virq_sim_gic_cfg {
	/**
	 * Redistributor model options (libvirq/sim/rdist.h). Its @c version (40
	 * or 41) is the GIC's; @c gicd_base and @c rd_base are set by
	 * virq_sim_gic_default_cfg() to the map above and may be changed.
	 */
	struct virq_sim_rdist_cfg rdist;
	/** Number of ITSes, 0..::LIBVIRQ_SIM_GIC_MAX_ITS (default 1). */
	unsigned nr_its;
	/**
	 * ITS model options, used for every ITS (libvirq/sim/its_state.h).
	 * @c base and @c rm are filled in per ITS; @c typer 0 means
	 * ::LIBVIRQ_SIM_GITS_TYPER_QEMU_V40 on a 4.0 GIC and
	 * ::LIBVIRQ_SIM_GITS_TYPER_QEMU_V41 on a 4.1 GIC.
	 */
	struct virq_sim_its_state_cfg its;
};

/**
 * @brief Named configurations: a GIC each, named by what it models (docs/sim.md).
 *
 * Every profile is a whole ::virq_sim_gic_cfg (virq_sim_gic_profile()),
 * to be changed field by field like the default one. The latitude fields
 * are those of libvirq/sim/latitude.h.
 */
enum virq_sim_gic_profile {
	/**
	 * "qemu72-v40": QEMU 7.2 @c virt with @c gic-version=4: GICv4.0, one
	 * redistributor, one ITS with QEMU's GITS_TYPER, every base register
	 * field programmable (what the demo and the Xen tests meet on QEMU).
	 * The same as virq_sim_gic_default_cfg().
	 */
	LIBVIRQ_SIM_GIC_QEMU72_V40 = 0,
	/**
	 * "v41-flat-vpet": a GICv4.1 (two redistributors, one ITS with
	 * QEMU's GITS_TYPER plus VMAPP, so SVPET = 0: the redistributors'
	 * own vPE tables) whose redistributors support only flat vPE tables
	 * (GICR_VPROPBASER.Indirect RAZ/WI), 4 KiB pages and 64-byte entries:
	 * a flat table of 128 pages covers 8,192 vPEIDs.
	 */
	LIBVIRQ_SIM_GIC_V41_FLAT_VPET,
	/**
	 * "noncoherent": a GICv4.0 integrated without shareability: every
	 * Shareability field of GITS_BASER<n>, GITS_CBASER and the GICR_*BASER
	 * registers is fixed Non-shareable (the other fields programmable),
	 * as Rockchip RK3588's (erratum 3588001, where Inner Shareable reads
	 * back although it does not work; here the read-back tells).
	 */
	LIBVIRQ_SIM_GIC_NONCOHERENT,
	/**
	 * "fixed16k-flat": a GICv4.0 ITS with one read-only page size, 16 KiB
	 * (HiSilicon's first ITS had a fixed 16 KiB page: LKML, Yun Wu, "The
	 * field of page size in register GITS_BASERn might be read-only",
	 * January 2015), and flat tables only.
	 */
	LIBVIRQ_SIM_GIC_FIXED_16K_FLAT,
	/**
	 * "narrowest-v40": a GICv4.0 with every latitude at its narrowest:
	 * flat tables only, 4 KiB pages only, 32-byte ITS table entries,
	 * Shareability fixed Non-shareable, InnerCache and OuterCache fixed
	 * Normal non-cacheable in every base register (the ITS tables then
	 * cover 2^15 DeviceIDs and vPEIDs: 256 pages), GITS_CTLR.ITS_Number
	 * read-only. Physical address bits stay 52 (the simulator's pages lie
	 * at 32 GiB and up).
	 */
	LIBVIRQ_SIM_GIC_NARROWEST_V40,
	/** "narrowest-v41": as "narrowest-v40" on a GICv4.1 with two redistributors, 64-byte vPE
	   entries. */
	LIBVIRQ_SIM_GIC_NARROWEST_V41,
	LIBVIRQ_SIM_GIC_PROFILE_COUNT /**< Number of profiles (not a profile). */
};

/**
 * @brief The configuration of a profile.
 * @param p The profile; an out-of-range value gives the default configuration.
 * @return The configuration, to be changed field by field.
 */
struct virq_sim_gic_cfg virq_sim_gic_profile(enum virq_sim_gic_profile p);

/**
 * @brief A profile's short name ("qemu72-v40", ...).
 * @param p The profile. @return The name, or NULL when @p p is out of range.
 */
const char *virq_sim_gic_profile_name(enum virq_sim_gic_profile p);

/**
 * @brief Looks a profile up by its short name.
 * @param name The name; NULL is allowed.
 * @return The profile, or ::LIBVIRQ_SIM_GIC_PROFILE_COUNT when none has that name.
 */
enum virq_sim_gic_profile virq_sim_gic_profile_find(const char *name);

/** @brief A simulated GIC (opaque). */
struct virq_sim_gic;

/**
 * @brief The default configuration: QEMU 7.2 @c virt, GICv4.0, one
 *        redistributor, one ITS, every wait settling at once.
 * @return The configuration, to be changed field by field.
 */
struct virq_sim_gic_cfg virq_sim_gic_default_cfg(void);

/**
 * @brief Creates the distributor, redistributor and ITS models on @p sim
 *        and describes them in @p desc.
 *
 * @param sim  The simulator; the models hook its MMIO space.
 * @param cfg  What to simulate; NULL for virq_sim_gic_default_cfg().
 * @param desc Filled with the GIC as virq_gic_init() and virq_its_init()
 *             take it: @c gicd_base/size, one redistributor region
 *             (stride 0: found from GICR_TYPER.Last), @c nr_its ITSes at
 *             LIBVIRQ_SIM_GIC_ITS_BASE(i), coherent.
 * @return The models; never NULL (aborts on a configuration it cannot
 *         build: more than ::LIBVIRQ_SIM_GIC_MAX_ITS ITSes, no
 *         redistributor, or out of memory).
 */
struct virq_sim_gic *virq_sim_gic_new(struct virq_sim *sim, const struct virq_sim_gic_cfg *cfg,
				      struct virq_gic_desc *desc);

/**
 * @brief Frees the models (not the simulator). NULL is allowed.
 * @param g The GIC from virq_sim_gic_new().
 */
void virq_sim_gic_free(struct virq_sim_gic *g);

/**
 * @brief The distributor + redistributor model.
 * @param g The GIC.
 * @return The model (owned by @p g).
 */
struct virq_sim_rdist *virq_sim_gic_rdist(const struct virq_sim_gic *g);

/**
 * @brief ITS model @p i.
 * @param g The GIC.
 * @param i 0 ≤ @p i < @c nr_its.
 * @return The model (owned by @p g), or NULL when @p i is out of range.
 */
struct virq_sim_its_state *virq_sim_gic_its(const struct virq_sim_gic *g, unsigned i);

/**
 * @brief Number of ITS models.
 * @param g The GIC.
 * @return @c nr_its of the configuration.
 */
unsigned virq_sim_gic_nr_its(const struct virq_sim_gic *g);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_GIC_H */
