/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Read-only accessors: what an embedder may learn about a GIC, an
 * ITS, a mapped device and a vPE without reading the objects' members.
 *
 * The objects of the GICv4 module are caller storage, so their members are
 * visible; which of them mean what, and which are private bookkeeping,
 * changes between releases. An embedder that keeps to these accessors
 * (and to the functions of the other headers) builds against a new
 * release unchanged: each fills a plain structure from the object and
 * touches no hardware.
 *
 * Thread-safety: each accessor only reads its object. The caller
 * serialises it with the calls that change that object, exactly as it
 * serialises those calls with each other (gicv4/vpe.h, gicv4/its.h):
 * for a vPE the caller's serialisation of the vPE, for a device that of
 * the device, for an ITS or a GIC their initialisation and teardown.
 * Fields that change while the caller holds no such serialisation (an
 * ITS's command count, for instance) are a snapshot.
 *
 * Spec: not applicable (library state; no hardware access). The fields
 * that come from registers name them: GITS_TYPER (Arm IHI 0069H §12.19),
 * GICD_TYPER (§12.9), GICR_VPENDBASER (§12.11).
 */
#ifndef LIBVIRQ_GICV4_INFO_H
#define LIBVIRQ_GICV4_INFO_H

#include "gic.h"
#include "its.h"
#include "vpe.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What virq_gic_get_info() reports about a GIC. */
struct virq_gic_info {
	enum virq_gic_version version; /**< Architecture version detected at virq_gic_init(). */
	uint32_t nr_rd;		       /**< Redistributors found (indices 0 .. nr_rd - 1). */
	uint32_t lpi_bits;	       /**< LPI INTID bits the GIC is driven with, 14 .. 24. */
	uint32_t vpeid_bits;	       /**< vPEID bits (16 on GICv4.0). */
	uint32_t nr_its;	       /**< ITSes registered by virq_its_init(). */
	uint32_t nr_vms;	       /**< VMs alive (virq_gic_vm_init() minus destroyed). */
};

/**
 * @brief Describes a GIC.
 *
 * @param gic A GIC initialised by virq_gic_init().
 * @param out Receives the description.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p gic NULL, never initialised or
 *         destroyed, gicv4/state.h; or @p out NULL: nothing written).
 *
 * Thread-safety: reads @p gic only; nr_its and nr_vms are snapshots
 * unless the caller serialises ITS and VM creation and teardown with it.
 * Spec: GICD_TYPER (IHI 0069H §12.9) for lpi_bits; no hardware access.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_get_info(const struct virq_gic *gic,
						 struct virq_gic_info *out);

/** @brief What virq_its_get_info() reports about an ITS. */
struct virq_its_info {
	enum virq_its_version version; /**< The level the ITS is driven at (v3, v4.0, v4.1). */
	uint32_t device_id_bits;       /**< GITS_TYPER.Devbits + 1: DeviceIDs it translates. */
	uint32_t event_id_bits;	       /**< GITS_TYPER.ID_bits + 1: EventIDs per device. */
	uint32_t itt_entry_size;       /**< Bytes per ITT entry (GITS_TYPER.ITT_entry_size + 1). */
	bool single_vmovp;	       /**< GITS_TYPER.VMOVP: a VMOVP goes to one ITS. */
	bool dead;		       /**< A queue failure could not be recovered. */
	uint32_t nr_devices;	       /**< Devices mapped (the doorbell proxy excluded). */
	uint32_t nr_vpes;	       /**< vPEs mapped on it (VMAPP). */
	uint64_t cmds;		       /**< Commands sent since virq_its_init() (a snapshot). */
};

/**
 * @brief Describes an ITS.
 *
 * @param its An ITS initialised by virq_its_init().
 * @param out Receives the description.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p its NULL, never initialised or
 *         destroyed, gicv4/state.h; or @p out NULL: nothing written).
 *
 * Thread-safety: reads @p its only, without its ITS lock: dead, nr_devices,
 * nr_vpes and cmds are snapshots when other CPUs use the ITS meanwhile.
 * Spec: GITS_TYPER (IHI 0069H §12.19); no hardware access.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_get_info(const struct virq_its *its,
						 struct virq_its_info *out);

/** @brief What virq_its_device_get_info() reports about a mapped device. */
struct virq_its_device_info {
	uint32_t device_id; /**< Its DeviceID. */
	uint32_t nr_events; /**< EventIDs 0 .. nr_events - 1 exist (a power of two, >= 2). */
	uint32_t nr_mapped; /**< Events currently mapped (physical LPIs and vLPIs). */
};

/**
 * @brief Describes a device mapped by virq_its_device_map().
 *
 * @param dev A mapped device.
 * @param out Receives the description.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p dev NULL, never mapped or
 *         unmapped, gicv4/state.h; or @p out NULL: nothing written).
 *
 * Thread-safety: reads @p dev only; the caller serialises it with the calls
 * that map or unmap @p dev's events.
 * Spec: not applicable (library tracking); no hardware access.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_device_get_info(const struct virq_its_device *dev,
							struct virq_its_device_info *out);

/** @brief What virq_vpe_get_info() reports about a vPE. */
struct virq_vpe_info {
	uint32_t vpeid;	   /**< Its vPEID. */
	uint32_t doorbell; /**< Its doorbell LPI, or ::LIBVIRQ_ITS_NO_DOORBELL. */
	uint32_t rd;	   /**< Redistributor its vLPIs are routed to (VMAPP / VMOVP). */
	bool resident;	   /**< Resident (GICR_VPENDBASER.Valid written 1) on @ref rd. */
	bool in_wfi;	   /**< Marked blocked by virq_vpe_wfi_enter(). */
	bool move_pending; /**< A virq_vpe_move() stopped half-way: move again first. */
	bool pending_last; /**< PendingLast read at its last descheduling. */
	bool db_masking;   /**< GICv4.0 doorbell masking on (virq_vpe_set_db_masking()). */
	uint32_t nr_vlpis; /**< vLPIs mapped to it. */
};

/**
 * @brief Describes a vPE created by virq_vpe_init().
 *
 * @param vpe A live vPE (also one left ::LIBVIRQ_VPE_DEAD by a failed
 *            teardown: it still holds its vPEID).
 * @param out Receives the description.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p vpe NULL, never initialised or
 *         destroyed, gicv4/state.h; or @p out NULL: nothing written).
 *
 * Thread-safety: reads @p vpe only; the caller serialises it with every
 * call on @p vpe, as it serialises those with each other.
 * Spec: GICR_VPENDBASER.Valid and PendingLast (IHI 0069H §12.11) as the
 * library last wrote and read them; no hardware access.
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_get_info(const struct virq_vpe *vpe,
						 struct virq_vpe_info *out);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_INFO_H */
