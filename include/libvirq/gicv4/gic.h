/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief GICv3/v4 distributor, redistributors and physical LPIs.
 *
 * This header is part of the GICv4 module (front door: libvirq/gicv4.h):
 * - gicv4/gic.h: the GIC object (distributor, redistributor walk and LPI
 *   bring-up, the physical LPI ID allocator and configuration table);
 * - gicv4/its.h: ITSes (probe, quirks, GITS_BASER tables, command queue,
 *   collections, devices, physical LPI mappings);
 * - gicv4/vpe.h: VMs, vPEs, vLPIs, residency, doorbells, VMOVP.
 *
 * @par How an embedder drives it (the QEMU virt GICv4.0 sequence)
 * @code
 * struct virq_gic gic;              // caller storage, no globals
 * struct virq_gic_rdist rds[8];     // one slot per redistributor
 * struct virq_its its;
 * struct virq_its_device dev;
 * struct virq_gic_vm vm;
 * struct virq_vpe vpe;
 * uint32_t db, rd;
 * bool pl;
 *
 * virq_gic_init(&gic, &hal, &desc, rds, 8, 16);  // probe GICD, walk GICR frames
 * virq_gic_dist_enable(&gic);                    // GICD_CTLR ARE|Grp1|Grp0, RWP
 * virq_gic_find_rdist(&gic, mpidr_aff, &rd);     // this CPU's redistributor
 * virq_gic_rdist_init(&gic, rd);                 // wake, PROP/PENDBASER, EnableLPIs,
 *                                                // vPE residency registers reset
 * virq_its_init(&its, &gic, &desc.its[0], NULL); // probe, BASERs, CBASER, enable
 * virq_its_map_collection(&its, rd);             // MAPC(ICID rd -> rd) + SYNC
 * virq_its_device_map(&its, &dev, 0, 32);        // MAPD DeviceID 0, 32 events
 * virq_lpi_alloc(&gic, 1, &db);                  // doorbell LPI
 * virq_lpi_set_config(&gic, db, 0xA0, true);     // priority, enable
 * virq_gic_vm_init(&vm, &gic, 16);                   // vLPI config table (16 ID bits)
 * virq_vpe_init(&vpe, &vm, rd, db);              // vPEID, VPT, VMAPP+VINVALL+VSYNC
 * virq_vlpi_map(&dev, 0, &vpe, 8192, true);      // VMAPTI with doorbell + VSYNC
 * virq_vpe_make_resident(&vpe, rd);              // VPROPBASER, VPENDBASER.Valid
 * virq_its_int(&dev, 0);                         // INT + VSYNC: the guest gets 8192
 * virq_vpe_make_nonresident(&vpe, true, &pl);    // pl: a vLPI is pending
 * virq_vlpi_remap(&dev, 0, &vpe, 8193);          // DISCARD + VMAPTI + VSYNC
 * virq_vlpi_unmap(&dev, 0);                      // DISCARD + VSYNC
 *
 * // vCPU traps on WFI:    virq_vpe_wfi_enter(&vpe); virq_vpe_put(&vpe, &pl);
 * //                       (block only if !pl: the doorbell is armed)
 * // doorbell LPI at EL2:  virq_vpe_wfi_exit(&vpe); ... virq_vpe_load(&vpe, rd);
 * // vCPU migrates:        virq_vpe_put(), virq_vpe_move(&vpe, new_rd), virq_vpe_load()
 * // teardown, reverse:    events unmapped, virq_its_device_unmap(), virq_vpe_destroy(),
 * //                       virq_gic_vm_destroy(), virq_lpi_free(), virq_its_destroy(),
 * //                       virq_gic_destroy()
 * @endcode
 * Every call returns a ::virq_status that must be checked. A hypervisor
 * that also wants a baseline of physical MSIs maps them with
 * virq_lpi_alloc() + virq_lpi_set_config() + virq_its_map_lpi().
 *
 * Spec: Arm IHI 0069H (GICv3 and GICv4 architecture specification),
 * chapters 5 (LPIs), 6 (ITS), 9 (GICv4) and 12 (registers).
 */
#ifndef LIBVIRQ_GICV4_GIC_H
#define LIBVIRQ_GICV4_GIC_H

#include "../virq_env.h"
#include "../status.h"
#include "../hal.h"
#include "desc.h"
#include "state.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief GIC architecture versions, read from GICD_PIDR2, GITS_TYPER and GICR_TYPER. */
enum virq_gic_version {
	LIBVIRQ_GIC_V3 = 30,   /**< GICv3: physical LPIs only. */
	LIBVIRQ_GIC_V4_0 = 40, /**< GICv4.0: vLPIs, per-vLPI doorbells. */
	LIBVIRQ_GIC_V4_1 = 41, /**< GICv4.1: vPEID residency, default doorbells, vSGIs. */
};

/** @brief Default time budget of one hardware wait: 10 ms. */
#define LIBVIRQ_GIC_DEFAULT_TIMEOUT_NS 10000000ull
/** @brief Value of a vPEID field meaning "no vPE". */
#define LIBVIRQ_VPEID_NONE 0xFFFFFFFFu
/** @brief Most ITSes one GIC object tracks. */
#define LIBVIRQ_GIC_ITS_SLOTS LIBVIRQ_GIC_MAX_ITS
/**
 * @brief Widest @c lpi_bits virq_gic_init() takes: 24 INTID bits, the
 * architecture's widest (GICD_TYPER.IDbits at most 23, IHI 0069H §12.9.38).
 */
#define LIBVIRQ_GIC_LPI_BITS_MAX 24u

/** @brief State flags of a redistributor (::virq_gic_rdist::flags). */
enum virq_gic_rdist_flag {
	LIBVIRQ_RDIST_LPIS_ON = 1u << 0,   /**< LPIs enabled by libvirq (tables are ours). */
	LIBVIRQ_RDIST_VPE_READY = 1u << 1, /**< Residency registers initialised. */
};

/**
 * @brief One redistributor. Filled by virq_gic_init(); the embedder only
 * provides storage and reads the members.
 */
struct virq_gic_rdist {
	uint64_t rd_base;      /**< Address of its RD_base frame. */
	uint64_t typer;	       /**< GICR_TYPER as read at init. */
	struct virq_page pend; /**< LPI pending table (64 KiB aligned). */
	uint64_t vprop_cache;  /**< Last GICR_VPROPBASER written (4.0), to skip rewrites. */
	uint64_t vpend;	       /**< Last GICR_VPENDBASER written. */
	uint32_t resident_vpe; /**< vPEID resident here, or ::LIBVIRQ_VPEID_NONE. */
	uint32_t flags;	       /**< Bit set of ::virq_gic_rdist_flag. */
	uint64_t sync_mark;    /**< Private: scratch of the batched unmaps (one SYNC per RD). */
	struct virq_page vpet; /**< Private: GICv4.1 vPE table the library allocated for this
				    RD's CommonLPIAff group (when no ITS shares one). */
	uint32_t vpet_rd;      /**< GICv4.1: index of the RD whose allocated vPE table this RD
				    uses, or ::LIBVIRQ_VPEID_NONE (an ITS's table, or none yet). */
};

struct virq_its;

/**
 * @brief A whole GIC. Caller storage; initialise with virq_gic_init().
 * Members are read-only for the embedder.
 */
struct virq_gic {
	uint32_t state;		       /**< ::virq_gicv4_state (see gicv4/state.h). */
	struct virq_hal hal;	       /**< HAL copied at init. */
	uint64_t gicd_base;	       /**< GICD frame. */
	enum virq_gic_version version; /**< Detected version (see virq_gic_init()). */
	uint32_t gicd_typer;	       /**< GICD_TYPER as read at init. */
	struct virq_gic_rdist *rd;     /**< Redistributor array (caller storage). */
	uint32_t nr_rd;		       /**< Redistributors found. */
	uint32_t lpi_bits;	       /**< LPI INTID bits (PROPBASER.IDbits + 1), 14..24. */
	uint32_t lpi_end;	       /**< One past the highest usable LPI INTID. */
	uint32_t vpeid_bits;	       /**< vPEID width (16 on 4.0; GICD_TYPER2 on 4.1). */
	uint32_t vpeid_limit;  /**< vPEIDs handed out: 0 .. vpeid_limit - 1 (2^vpeid_bits, or fewer
				    when a vPE table covers fewer: @ref gic-register-latitude). */
	uint64_t timeout_ns;   /**< Budget of each hardware wait in ns (default
				    ::LIBVIRQ_GIC_DEFAULT_TIMEOUT_NS; the embedder may change it after
				    virq_gic_init(); ITSes created later use it for their queue). */
	bool rd_noncoherent;   /**< PROP/PENDBASER tables need cleaning to PoC. */
	bool rd_forced_nc;     /**< Non-coherent by description (dma-noncoherent). */
	uint64_t propbaser;    /**< GICR_PROPBASER value programmed (after negotiation). */
	uint64_t pend_attr;    /**< PENDBASER attribute bits that stuck (Sh, caches). */
	bool pend_attr_known;  /**< pend_attr was negotiated on a first RD. */
	struct virq_page prop; /**< LPI configuration table (one byte per LPI). */
	struct virq_page lpi_map;   /**< LPI allocation bitmap (bit n = INTID 8192 + n). */
	struct virq_page vpeid_map; /**< vPEID allocation bitmap. */
	uint32_t vpeid_hint;	    /**< Private: no free vPEID below summary word vpeid_hint. */
	uint16_t vmovp_seq;	    /**< VMOVP SequenceNumber (4.0, GITS_TYPER.VMOVP = 0). */
	uint64_t sync_gen;	    /**< Private: generation of the batched unmaps' marks. */
	bool vpet_own;	 /**< Private: GICv4.1 RD groups get own vPE tables (vPEs exist). */
	uint32_t nr_its; /**< ITSes registered by virq_its_init(). */
	uint32_t nr_vms; /**< VMs created by virq_gic_vm_init(). */
	struct virq_page
	    lpi_refs; /**< Mappings per LPI (uint16_t each): ITS events, vPE doorbells. */
	struct virq_its *its[LIBVIRQ_GIC_ITS_SLOTS]; /**< Registered ITSes (NULL when free). */
	uint32_t platform; /**< ::virq_gic_platform bits from the description. */
};

/**
 * @brief Probes the distributor and walks every redistributor region.
 *
 * Reads GICD_PIDR2 (ArchRev 3 or 4), GICD_TYPER (LPIS, DVIS, IDbits,
 * num_LPIs), then for every region of @p desc reads each frame's
 * GICR_PIDR2 and GICR_TYPER, advancing by the region stride (or 128/256 KiB
 * from GICR_TYPER.VLPIS) until GICR_TYPER.Last. A region that ends first
 * (including a GICv4 frame whose VLPI_base frame would lie past the end)
 * stops the walk with a warning and keeps what was found. An empty region
 * (size 0, or no redistributor at its start: GICR_PIDR2.ArchRev not 3 or 4)
 * is skipped with a warning log line and the other regions are brought up,
 * as firmware publishes such regions. The version is GICv4.1 when
 * every redistributor has RVPEID, GICv4.0 when every one has VLPIS and
 * GICD_TYPER.DVIS is set, else GICv3; an ITS can only lower it. Allocates
 * the LPI configuration table (2^lpi_bits - 8192 bytes, 64 KiB aligned),
 * the LPI bitmap (one bit an LPI) and the mapping counts (two bytes an
 * LPI): 3.125 bytes an LPI, 192 KiB at 16 bits, 3 MiB at 20, 49 MiB at
 * 24 (virq_gic_vm_init() and virq_gic_rdist_init() add the VM's and each
 * redistributor's tables). Writes no register.
 *
 * @param gic      Storage to initialise (overwritten).
 * @param hal      A HAL with the core callbacks (copied).
 * @param desc     GIC description (read during the call only).
 * @param rd       Storage for @p max_rd redistributors.
 * @param max_rd   Number of slots in @p rd (1..65536).
 * @param lpi_bits Wanted LPI INTID bits, 14 to ::LIBVIRQ_GIC_LPI_BITS_MAX (24),
 *                 clamped to GICD_TYPER.IDbits + 1 (GICD_TYPER.num_LPIs may
 *                 end the LPI range below 2^lpi_bits).
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EBUSY (@p gic is live: double init, nothing changed;
 *         gicv4/state.h);
 *         ::LIBVIRQ_EINVAL for NULL pointers, an empty description, a bad @p lpi_bits,
 *         a GICD region (virq_gic_desc::gicd_size) smaller than the 64 KiB frame
 *         (::LIBVIRQ_GIC_FRAME_SIZE; GICD_PIDR2 is at 0xFFE8; nothing read),
 *         a non-empty redistributor region smaller than 128 KiB or a stride not a
 *         multiple of 64 KiB;
 *         ::LIBVIRQ_ENOHAL/::LIBVIRQ_EHALVER from virq_hal_validate();
 *         ::LIBVIRQ_ENOTSUP when the GIC is not v3/v4 or has no LPIs;
 *         ::LIBVIRQ_EHW when a frame after the first of a region has a
 *         GICR_PIDR2.ArchRev other than 3 or 4, or no region holds a
 *         redistributor;
 *         ::LIBVIRQ_ENOSPC when more than @p max_rd redistributors exist;
 *         ::LIBVIRQ_ENOMEM when a table cannot be allocated (nothing is kept).
 *
 * Thread-safety: the caller serialises all calls on one ::virq_gic.
 * Spec: IHI 0069H §12.9.38 (GICD_TYPER), §12.11.37 (GICR_TYPER), §5.1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_init(struct virq_gic *gic, const struct virq_hal *hal,
					     const struct virq_gic_desc *desc,
					     struct virq_gic_rdist *rd, uint32_t max_rd,
					     uint32_t lpi_bits);

/**
 * @brief Frees the memory of a GIC object (configuration table, bitmaps,
 * pending tables). Every ITS and VM must be destroyed first; the
 * redistributors keep LPIs enabled (EnableLPIs may not clear) so the
 * caller must not free while the hardware can still use the tables.
 *
 * @param gic A live GIC.
 * @return ::LIBVIRQ_OK (the GIC is ::LIBVIRQ_GICV4_GONE); ::LIBVIRQ_EINVAL (NULL,
 *         never initialised or already destroyed: nothing touched);
 *         ::LIBVIRQ_EBUSY (ITSes or VMs still exist: nothing freed). See
 *         gicv4/state.h. Must-check like every destroy: on ::LIBVIRQ_EBUSY
 *         nothing was freed and the caller still owns the memory.
 *
 * Thread-safety: the caller serialises all calls on @p gic.
 *
 * Spec: IHI 0069H §5.1 (the LPI tables it frees); writes no register.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_destroy(struct virq_gic *gic);

/**
 * @brief Enables the distributor: GICD_CTLR |= ARE | EnableGrp1 | EnableGrp0,
 * then waits for GICD_CTLR.RWP (bit 31) to clear.
 *
 * @param gic An initialised GIC.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ETIMEDOUT when RWP stays set.
 *
 * Thread-safety: the caller serialises calls on @p gic.
 * Spec: IHI 0069H §12.9.4 GICD_CTLR.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_dist_enable(struct virq_gic *gic);

/**
 * @brief Finds the redistributor of a CPU by affinity.
 *
 * @param gic An initialised GIC.
 * @param aff The CPU's affinity packed as Aff3:Aff2:Aff1:Aff0 (bits 31:0),
 *            i.e. MPIDR_EL1 Aff3 [39:32] moved to [31:24] and Aff2..0 kept.
 * @param idx Receives the redistributor index.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOENT when no GICR_TYPER.Affinity_Value matches.
 *
 * Thread-safety: read-only; safe concurrently with other readers.
 *
 * Spec: IHI 0069H §12.11.37 GICR_TYPER (Affinity_Value).
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_find_rdist(const struct virq_gic *gic, uint32_t aff,
						   uint32_t *idx);

/**
 * @brief Brings up one redistributor for LPIs and vLPIs.
 *
 * Order (@ref gic-rd-bringup-order and
 * @ref gic-vpe-residency-init): (1) vPE residency registers: on GICv4.0
 * GICR_VPROPBASER.IDbits = lpi_bits - 1 and GICR_VPENDBASER.Valid cleared
 * (Dirty polled); on GICv4.1 a stale Valid is cleared by writing
 * PendingLast and VPROPBASER.Valid cleared — done even when LPIs were left
 * enabled by a previous kernel; (2) if EnableLPIs is already set it is
 * cleared and RWP (bit 3) polled — if it does not clear, ::LIBVIRQ_EBUSY;
 * (3) wake: GICR_WAKER.ProcessorSleep = 0, poll ChildrenAsleep = 0;
 * (4) GICR_PROPBASER and GICR_PENDBASER (PTZ) with attribute negotiation:
 * if Shareability reads back 0 or InnerCache reads back as Device/nC, the
 * tables are cleaned to PoC (@ref gic-table-attributes); (5) EnableLPIs = 1 and poll until it
 * reads 1 with RWP clear, so it is visible before any MAPC targets this RD.
 *
 * @param gic An initialised GIC.
 * @param idx Redistributor index (< nr_rd).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; bad index); ::LIBVIRQ_EBUSY (the redistributor is already
 *         initialised: no register touched, its tables not reprogrammed; or EnableLPIs,
 *         left on by a previous kernel, stuck at 1); ::LIBVIRQ_ETIMEDOUT
 *         (wake, RWP or Dirty never settled: the RD is left without LPIs and may be retried);
 *         ::LIBVIRQ_ENOMEM (pending table);
 *         ::LIBVIRQ_ENOHAL (non-coherent tables and no dcache_clean); ::LIBVIRQ_EHW
 *         (PROPBASER/PENDBASER PA did not stick).
 *
 * Thread-safety: the caller serialises calls on @p gic (typically run on
 * the CPU owning the redistributor, but any CPU works).
 * Spec: IHI 0069H §5.1, §12.11.2 GICR_CTLR, §12.11.42 GICR_WAKER, §12.11.33 GICR_PROPBASER,
 * §12.11.32 GICR_PENDBASER.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_rdist_init(struct virq_gic *gic, uint32_t idx);

/**
 * @brief Allocates @p count consecutive physical LPI INTIDs.
 *
 * IDs run from 8192 to lpi_end - 1; first fit. The configuration bytes of
 * the new IDs are set to priority 0xA0, disabled.
 *
 * @param gic   An initialised GIC.
 * @param count Number of IDs, 1..4096.
 * @param first Receives the first INTID.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; count 0 or > 4096); ::LIBVIRQ_ENOSPC; ::LIBVIRQ_ENOHAL
 *         (non-coherent configuration table and the clean failed: nothing is allocated and @p
 *         first is not written).
 *
 * Thread-safety: the caller serialises allocator calls on @p gic.
 *
 * Spec: IHI 0069H §5.1 (LPI INTIDs from 8192), §5.1.1 (configuration byte).
 */
LIBVIRQ_MUST_CHECK virq_status virq_lpi_alloc(struct virq_gic *gic, uint32_t count,
					      uint32_t *first);

/**
 * @brief Frees LPI INTIDs from virq_lpi_alloc() and disables their configuration.
 *
 * @param gic   An initialised GIC.
 * @param first First INTID.
 * @param count Number of IDs.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (@p gic NULL, never initialised or destroyed, gicv4/state.h;
 *         range outside the LPI space);
 *         ::LIBVIRQ_ENOENT when an ID in the range was not allocated, ::LIBVIRQ_EBUSY when
 *         one is still mapped by an ITS event or is a vPE's doorbell (nothing freed);
 *         ::LIBVIRQ_ENOHAL (the IDs are freed, but the non-coherent configuration table
 *         could not be cleaned).
 *
 * Thread-safety: the caller serialises allocator calls on @p gic.
 *
 * Spec: IHI 0069H §5.1, §5.1.1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_lpi_free(struct virq_gic *gic, uint32_t first, uint32_t count);

/**
 * @brief Writes one LPI configuration byte (priority[7:2] | RES1 | Enable)
 * and cleans it to PoC when the table is not coherent.
 *
 * The change takes effect after an invalidation: virq_its_inv() for an LPI
 * mapped through an ITS, or the doorbell paths of gicv4/vpe.h.
 *
 * @param gic      An initialised GIC.
 * @param intid    An allocated LPI INTID.
 * @param priority Priority 0..255 (bits [1:0] are ignored by the architecture).
 * @param enable   Enable bit.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ERANGE (not an LPI of this GIC); ::LIBVIRQ_ENOENT
 *         (not allocated); ::LIBVIRQ_ENOHAL (the byte is written, but the non-coherent
 *         table could not be cleaned: no @c dcache_clean).
 *
 * Thread-safety: concurrent calls for different INTIDs are safe.
 * Spec: IHI 0069H §5.1.1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_lpi_set_config(struct virq_gic *gic, uint32_t intid,
						   uint8_t priority, bool enable);

/**
 * @brief Name of a ::virq_gic_version ("GICv3", "GICv4.0", "GICv4.1", "?").
 *
 * @param v A version.
 * @return A constant string. Thread-safety: pure.
 *
 * Spec: not applicable (a name for logs).
 */
const char *virq_gic_version_name(enum virq_gic_version v);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_GIC_H */
