/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief GICv4.0/4.1 VMs, vPEs, vLPIs, residency, doorbells and VMOVP.
 *
 * A ::virq_gic_vm owns the vLPI configuration table shared by its vPEs
 * (IHI 0069H §5.1: same format as the LPI configuration table). A
 * ::virq_vpe is one virtual CPU: a vPEID, a 64 KiB-aligned zeroed virtual
 * pending table (VPT), and a mapping (VMAPP) on the ITSes that need it: on a
 * GICv4.0 ITS at the vPE's first vLPI there (lazy mapping, as Linux's
 * its_map_vm()), on a GICv4.1 ITS or one with ::virq_its_cfg::eager_vpes at
 * its creation (docs/gicv4-core.md "Lazy mapping"). Moves and invalidations
 * go only to the ITSes that map it. vLPIs are (device, event) pairs mapped
 * with VMAPTI.
 *
 * Residency: the hypervisor makes a vPE resident on the redistributor of
 * the CPU that runs the vCPU (virq_vpe_make_resident(), or virq_vpe_load()
 * with the WFI rules below) and non-resident when it stops running it;
 * the non-resident call reports PendingLast: when true, a vLPI is pending
 * and the vCPU should stay runnable.
 *
 * Doorbells: a doorbell is a physical LPI raised when a vLPI arrives for a
 * non-resident vPE. GICv4.0: per vLPI (VMAPTI/VMOVI Dbell_pINTID; libvirq
 * uses the vPE's doorbell for all its vLPIs); GICv4.1: one default
 * doorbell per vPE (VMAPP), requested at each descheduling through
 * GICR_VPENDBASER.DB. A doorbell is requested exactly when the vCPU blocks
 * (@ref gic-doorbell-wfi): call virq_vpe_wfi_enter() in the WFI trap, then virq_vpe_put()
 * requests it; virq_vpe_load() keeps a vPE in WFI non-resident until
 * virq_vpe_wfi_exit() (the doorbell handler or a wake-up calls it).
 *
 * @anchor virq_vlpi_serialisation
 * The vLPI rule, for every call that maps, unmaps or moves vLPIs of a
 * device: the caller serialises it with calls on that device and on the
 * vPEs involved (their vLPI counts change). With the ITS lock
 * (::virq_its_lock) it may run concurrently with calls on other devices
 * and vPEs of the ITS, from any CPU; without it the caller serialises every
 * call that uses the device's ITS.
 *
 * Doorbells and moves (GICv4.0): a doorbell is raised on the redistributor
 * the vPE is targeted at (VMAPP / VMOVP RDbase), and a VMOVP changes only the
 * target: a doorbell already pending on the old redistributor stays there
 * (IHI 0069H §5.3 VMOVP; seen on QEMU 7.2; Linux commit 958b90d162b4).
 * virq_vpe_move() therefore clears it there - GICR_CLRLPIR when the old and
 * the new redistributor implement DirectLPI, else CLEAR through the proxy
 * device (::virq_its_cfg::proxy_doorbells) - and, for a vCPU in WFI, makes it
 * pending on the new redistributor instead (GICR_SETLPIR, or INT through the
 * proxy): the vLPIs that raised it wait in the VPT, and a blocked vCPU must
 * not lose its wake-up by moving. With neither DirectLPI nor a proxy device
 * nothing can reach the doorbell: it stays pending on the old redistributor.
 * GICv4.1: VMOVP carries the default doorbell (DB = 1); no clean-up.
 *
 * What a doorbell handler may assume: libvirq uses one doorbell LPI per vPE
 * (::virq_vpe::doorbell, chosen by the embedder), so the INTID names the
 * vPE, and nothing else. It must not assume that the vPE is targeted at the
 * CPU that took the doorbell: a doorbell acknowledged there just before a
 * concurrent virq_vpe_move() cleared it (or one that nothing could clear)
 * arrives on a CPU the vPE has left; the vPE's current redistributor is
 * ::virq_vpe::rd, read under the embedder's serialisation of the vPE, and the
 * handler wakes the vCPU there (an IPI to its CPU). Nor that the vPE is still
 * non-resident: a doorbell raised while it was out may be taken after it was
 * made resident again (a spurious wake-up, never a lost one). After
 * virq_vpe_move() returns ::LIBVIRQ_OK, no doorbell of the vPE becomes
 * pending on the old redistributor and none raised before is left there
 * (DirectLPI or proxy).
 *
 * Thread-safety (the SMP contract, docs/gicv4-core.md "SMP"):
 * - the caller serialises every call on one vPE (its flags, target and
 *   counts are plain fields) and every call on one device;
 * - residency calls (make_resident / make_nonresident / load / put / wfi_*)
 *   on different vPEs and different redistributors may run concurrently on
 *   different CPUs (they touch only the vPE and its redistributor; no lock
 *   inside; tested under ThreadSanitizer); with GICv4.0 doorbell masking
 *   through the proxy device they also send ITS commands, under the ITS lock
 *   when one is installed;
 * - everything that sends commands to one ITS takes the embedder's ITS lock
 *   (::virq_its_lock) when installed, and may then run concurrently with
 *   other callers on other objects; without it the caller serialises every
 *   command sender of that ITS;
 * - vPE creation and teardown share the GIC's vPEID bitmap, VM creation and
 *   teardown its VM count: the caller serialises each kind with itself; with
 *   GITS_TYPER.VMOVP = 0 every VMOVP takes the next number of one GIC-wide
 *   SequenceNumber counter (also with a single ITS), and with several ITSes
 *   the VMOVPs must reach every ITS in the same order (IHI 0069H §5.3 VMOVP):
 *   the caller serialises moves with each other and with vPE creation and
 *   teardown;
 * - before another CPU touches a vPE that just moved: virq_vpe_move() has
 *   returned ::LIBVIRQ_OK (not ::LIBVIRQ_VPE_MOVE_PENDING), the moving CPU
 *   has published the ::virq_vpe to the next one with release/acquire
 *   ordering (the embedder's handover, e.g. its scheduler lock, or a flag
 *   written after a DSB and read before one), and the next CPU makes it
 *   resident on the new ::virq_vpe::rd only. Every ITS then sends its vLPIs
 *   there (VMOVP + VSYNC completed before the return).
 * Spec: Arm IHI 0069H §5.3 (VMAPP, VMAPTI, VMOVI, VMOVP,
 * VSYNC, VINVALL, INVDB), §12.11 (GICR_VPROPBASER, GICR_VPENDBASER).
 */
#ifndef LIBVIRQ_GICV4_VPE_H
#define LIBVIRQ_GICV4_VPE_H

#include "gic.h"
#include "its.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief State bits of a vPE (::virq_vpe::flags). */
enum virq_vpe_flag {
	LIBVIRQ_VPE_MAPPED = 1u << 0,	    /**< Has a vPEID and VPT, mapped on the ITSes. */
	LIBVIRQ_VPE_RESIDENT = 1u << 1,	    /**< Resident on ::virq_vpe::resident_rd. */
	LIBVIRQ_VPE_IN_WFI = 1u << 2,	    /**< The vCPU is blocked in WFI. */
	LIBVIRQ_VPE_DYING = 1u << 3,	    /**< Being torn down: no VMOVP, no residency. */
	LIBVIRQ_VPE_DEAD = 1u << 4,	    /**< Teardown failed half-way; destroy again. */
	LIBVIRQ_VPE_PENDING_LAST = 1u << 5, /**< PendingLast at the last descheduling. */
	LIBVIRQ_VPE_IDAI = 1u << 6,	    /**< GICv4.0 IDAI saved at the last descheduling. */
	LIBVIRQ_VPE_DB_MASK = 1u << 7,	    /**< GICv4.0: mask the doorbell while not blocked. */
	LIBVIRQ_VPE_DB_ON = 1u << 8,	    /**< GICv4.0: the doorbell's config byte is enabled. */
	/** virq_vpe_move() failed after at least one ITS executed the VMOVP: the
	 *  ITSes may disagree on ::virq_vpe::rd; move again to finish (the vPE
	 *  cannot be made resident meanwhile). */
	LIBVIRQ_VPE_MOVE_PENDING = 1u << 9,
};

/** @brief A virtual machine's vLPI state. Caller storage. */
struct virq_gic_vm {
	uint32_t state;		/**< ::virq_gicv4_state (see gicv4/state.h). */
	struct virq_gic *gic;	/**< The GIC. */
	struct virq_page vprop; /**< vLPI configuration table (64 KiB aligned). */
	uint32_t id_bits;	/**< vINTID bits (GICR_VPROPBASER.IDbits + 1), 14..lpi_bits. */
	uint32_t nr_vpes;	/**< vPEs created on this VM. */
	struct virq_hal
	    hal; /**< Private: the GIC's HAL, kept after teardown (@ref virq_failures). */
};

/** @brief One vPE. Caller storage (e.g. inside the hypervisor's vCPU). */
struct virq_vpe {
	uint32_t state;		/**< ::virq_gicv4_state (see gicv4/state.h). */
	struct virq_gic_vm *vm; /**< Its VM. */
	uint32_t vpeid;		/**< vPEID. */
	struct virq_page vpt;	/**< Virtual pending table (64 KiB aligned, zeroed). */
	uint32_t doorbell;	/**< Doorbell LPI (4.0 per-vLPI value, 4.1 default), or 1023. */
	uint32_t rd;		/**< Target redistributor index (VMAPP / VMOVP RDbase). */
	uint32_t resident_rd;	/**< Where it is resident (valid with ::LIBVIRQ_VPE_RESIDENT). */
	uint32_t its_mask;	/**< Bit n: VMAPP'd on the GIC's ITS slot n. */
	uint32_t vmapp_count;	/**< Number of ITSes it is mapped on (4.1 Alloc). */
	uint32_t flags;		/**< ::virq_vpe_flag bits. */
	uint32_t nr_vlpis;	/**< vLPIs mapped to it. */
	int32_t proxy_event;	/**< GICv4.0 proxy slot holding its doorbell, or -1. */
	uint32_t move_from;	/**< The redistributor the last virq_vpe_move() left (its
				     doorbell is cleared there); with ::LIBVIRQ_VPE_MOVE_PENDING,
				     the one a retry still has to clean up. */
	bool vgrp0;		/**< GICv4.1: VPENDBASER.VGrp0En when resident. */
	bool vgrp1;		/**< GICv4.1: VPENDBASER.VGrp1En when resident. */
	uint64_t sync_mark;	/**< Private: scratch of the batched unmaps (one VSYNC per vPE). */
	uint64_t vprop_img; /**< Private: GICR_VPROPBASER image (4.0), valid with @ref img_key. */
	uint64_t vpend_img; /**< Private: GICR_VPENDBASER image making it resident. */
	uint32_t img_key;   /**< Private: what the images encode (0: not built yet). */
	struct virq_hal
	    hal; /**< Private: the GIC's HAL, kept after teardown (@ref virq_failures). */
};

/**
 * @brief Creates a VM's vLPI configuration table (2^id_bits - 8192 bytes,
 * 64 KiB aligned, every vLPI disabled).
 *
 * @param vm      Storage (overwritten).
 * @param gic     An initialised GICv4 GIC.
 * @param id_bits vINTID bits, 14 .. gic->lpi_bits.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EBUSY (@p vm is live: double init, nothing changed;
 *         gicv4/state.h);
 *         ::LIBVIRQ_EINVAL (@p gic NULL, never initialised or destroyed; @p vm NULL);
 *         ::LIBVIRQ_ENOTSUP (not GICv4); ::LIBVIRQ_ERANGE
 *         (@p id_bits); ::LIBVIRQ_ENOMEM; ::LIBVIRQ_ENOHAL (non-coherent, no clean).
 *
 * Thread-safety: the caller serialises this with every VM creation and teardown on
 * @p gic (the GIC counts its VMs: ::virq_gic::nr_vms) and with calls on @p vm.
 * Spec: IHI 0069H §5.1 (configuration table format, shared by vLPIs), §12.11
 * (GICR_VPROPBASER.IDbits).
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_vm_init(struct virq_gic_vm *vm, struct virq_gic *gic,
						uint32_t id_bits);

/**
 * @brief Frees a VM's table.
 *
 * @param vm An initialised VM.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (a NULL, never initialised or already destroyed VM: nothing
 *         touched; gicv4/state.h); ::LIBVIRQ_EBUSY (vPEs still exist).
 *
 * Thread-safety: the caller serialises calls on @p vm and on its vPEs, and this with
 * every VM creation and teardown on the GIC (its VM count).
 * Spec: IHI 0069H §5.1 (the table it frees); writes no register.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_vm_destroy(struct virq_gic_vm *vm);

/**
 * @brief Writes a vLPI's configuration byte in the VM table (priority,
 * enable) and cleans it when not coherent. Takes effect after an
 * invalidation for a mapped vLPI: virq_vlpi_set_config() does both for one
 * vLPI (INV + VSYNC), virq_vpe_invall() invalidates every vLPI of a vPE.
 *
 * @param vm An initialised VM. @param vintid 8192 .. 2^id_bits - 1.
 * @param priority Priority (bits [7:2] used). @param enable Enable bit.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ERANGE; ::LIBVIRQ_ENOHAL (the byte is written,
 *         but the non-coherent table could not be cleaned: no @c dcache_clean).
 *
 * Thread-safety: the caller serialises calls for the same vINTID; different vINTIDs may be
 * written concurrently.
 * Spec: IHI 0069H §5.1.1 (configuration byte).
 */
LIBVIRQ_MUST_CHECK virq_status virq_gic_vm_vlpi_config(struct virq_gic_vm *vm, uint32_t vintid,
						       uint8_t priority, bool enable);

/**
 * @brief Creates a vPE: allocates a vPEID and a zeroed VPT (2^id_bits / 8
 * bytes, at least 64 KiB, 64 KiB aligned, cleaned when not coherent), then
 * on every eager ITS (GICv4.1, or ::virq_its_cfg::eager_vpes; the others map
 * it at its first vLPI there): VMAPP(V=1; 4.1: Alloc on the first map, VCONF,
 * default doorbell) + VINVALL + VSYNC. If one ITS fails, the ITSes already
 * mapped are unmapped in reverse order and everything is freed. If that
 * rollback fails too, the vPE stays mapped on some ITS: it is then left
 * ::LIBVIRQ_VPE_DEAD (VPT and vPEID kept, counted in the VM) and the caller
 * must call virq_vpe_destroy() until it succeeds.
 *
 * @param vpe      Storage (overwritten).
 * @param vm       An initialised VM.
 * @param rd       Target redistributor index (must have LPIs enabled).
 * @param doorbell An allocated LPI for its doorbell, or ::LIBVIRQ_ITS_NO_DOORBELL. The
 *                 doorbell belongs to this vPE alone until virq_vpe_destroy(): it may
 *                 be no other vPE's doorbell and no ITS event's LPI (one vPE's
 *                 doorbell masking or a device's CLEAR would drop another's wake-up).
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EBUSY (@p vpe is live: double init, nothing changed, gicv4/state.h;
 *         LPIs off on @p rd; or @p doorbell already in use: another vPE's doorbell or
 *         mapped by an ITS event, nothing taken);
 *         ::LIBVIRQ_EINVAL (@p vm NULL, never initialised or destroyed; @p vpe NULL;
 *         bad @p rd); ::LIBVIRQ_ENOTSUP (no GICv4 ITS);
 *         ::LIBVIRQ_EDEAD (every GICv4 ITS is dead, or every eager one: nothing
 *         is kept);
 *         ::LIBVIRQ_ENOSPC (no vPEID); ::LIBVIRQ_ENOENT (doorbell not allocated);
 *         ::LIBVIRQ_ENOMEM; queue errors.
 *
 * Thread-safety: the caller serialises this with every call on @p vpe and with every vPE
 * creation, teardown and (GITS_TYPER.VMOVP = 0) move on the GIC (vPEID bitmap, VMOVP
 * SequenceNumber). With the ITS lock (::virq_its_lock) on every ITS it may run concurrently
 * with calls on other devices and vPEs (it takes each ITS's lock in turn, never two at once);
 * without it the caller also serialises it with every call that sends commands to any ITS
 * of the GIC.
 * Spec: IHI 0069H §5.3 (VMAPP, VINVALL, VSYNC), chapter 9 (vPEs, VPT).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_init(struct virq_vpe *vpe, struct virq_gic_vm *vm,
					     uint32_t rd, uint32_t doorbell);

/**
 * @brief Tears a vPE down in reverse order: VMAPP(V=0) on every ITS that
 * maps it, in reverse (4.0: + VSYNC; 4.1: Alloc on the last unmap and no VSYNC,
 * @ref gic-vmapp-unmap-no-vsync), proxy slot released, VPT and vPEID freed.
 *
 * @param vpe A vPE that is not resident and has no vLPIs.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (a NULL, never initialised or already destroyed vPE: nothing
 *         touched; gicv4/state.h); ::LIBVIRQ_EBUSY (resident or vLPIs mapped); queue
 *         errors (the vPE is then ::LIBVIRQ_VPE_DEAD with the
 *         ITSes not yet unmapped still recorded; call again).
 *
 * Thread-safety: the caller serialises this with every call on @p vpe and with every vPE
 * creation, teardown and (GITS_TYPER.VMOVP = 0) move on the GIC (vPEID bitmap, VMOVP
 * SequenceNumber). With the ITS lock (::virq_its_lock) on every ITS it may run concurrently
 * with calls on other devices and vPEs (it takes each ITS's lock in turn, never two at once);
 * without it the caller also serialises it with every call that sends commands to any ITS
 * of the GIC.
 * Spec: IHI 0069H §5.3 (VMAPP with V = 0, VSYNC), chapter 9.
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_destroy(struct virq_vpe *vpe);

/**
 * @brief Makes the redistributors re-read the configuration of every vLPI
 * of a vPE: VINVALL + VSYNC on one ITS that maps the vPE (the first live
 * one in slot order; a dead ITS is skipped). Nothing for a vPE no ITS maps
 * (lazy mapping: no vLPI of it was ever mapped, so nothing of it is cached).
 *
 * The bulk counterpart of virq_vlpi_set_config(): write any number of
 * configuration bytes with virq_gic_vm_vlpi_config(), then invalidate them
 * with one call per vPE instead of one INV + VSYNC per vLPI (a hypervisor
 * emulating INVALL for its guest). One ITS suffices: VINVALL acts on the
 * redistributors' cached configuration of the vPE, which every ITS reaches
 * (Linux its_vpe_invall() sends it to a single ITS likewise).
 *
 * @param vpe A live vPE, not in teardown.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (@p vpe NULL, never initialised or destroyed;
 *         gicv4/state.h); ::LIBVIRQ_EDEAD (being torn down, or no live ITS
 *         maps it); queue errors (the ITS is reset or marked dead; call
 *         again).
 *
 * Hardware accesses: two commands, 1 GITS_CWRITER write, 1 or more
 * GITS_CREADR reads.
 *
 * Thread-safety: the caller serialises calls on @p vpe. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the
 * ITS, from any CPU; without it the caller serialises this with every call
 * that sends commands to that ITS.
 * Spec: IHI 0069H §5.3 (VINVALL, VSYNC), §5.1.1 (configuration byte).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_invall(struct virq_vpe *vpe);

/**
 * @brief Makes a vPE resident on redistributor @p rd.
 *
 * GICv4.0: GICR_VPROPBASER = VM table | IDbits (skipped when the RD already
 * has it), then GICR_VPENDBASER = VPT | PendingLast | IDAI | Valid.
 * GICv4.1: GICR_VPENDBASER = vPEID | VGrp0En | VGrp1En | Valid. Then, if
 * GICR_TYPER.Dirty, polls VPENDBASER.Dirty = 0 (bounded). With
 * ::LIBVIRQ_VPE_DB_MASK (4.0) the doorbell is masked first.
 *
 * @param vpe A mapped vPE, not resident, not in teardown.
 * @param rd  Must equal ::virq_vpe::rd (move with virq_vpe_move() first).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; @p rd is not ::virq_vpe::rd, or not initialised); ::LIBVIRQ_EBUSY
 *         (already resident, another vPE is resident on @p rd, or ::LIBVIRQ_VPE_MOVE_PENDING:
 *         an earlier virq_vpe_move() stopped half-way, so some ITS may still send the vPE's
 *         vLPIs to the old RD and they would be lost; nothing is written, repeat the move
 *         first); ::LIBVIRQ_EDEAD (teardown); ::LIBVIRQ_ETIMEDOUT (Dirty stayed set: the vPE IS
 *         resident, make it non-resident before retrying).
 *
 * Hardware accesses (4.0, same VM as last time on this RD, no Dirty): one write.
 *
 * Thread-safety: the caller serialises calls on @p vpe and calls on the same redistributor;
 * calls on different vPEs and different redistributors may run concurrently on different
 * CPUs (no lock inside). GICv4.0 doorbell masking through the proxy device sends ITS
 * commands: under the ITS lock (::virq_its_lock) when installed, else the caller serialises
 * it with every command sender of that ITS.
 * Spec: IHI 0069H §12.11 (GICR_VPROPBASER, GICR_VPENDBASER).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_make_resident(struct virq_vpe *vpe, uint32_t rd);

/**
 * @brief Makes a vPE non-resident and reports PendingLast.
 *
 * GICv4.0: writes GICR_VPENDBASER with Valid = 0; with @p doorbell and
 * ::LIBVIRQ_VPE_DB_MASK the doorbell is unmasked after. GICv4.1: writes
 * DB = @p doorbell (PendingLast = 0) or PendingLast = 1. Then polls Dirty = 0
 * (bounded) and reads PendingLast (4.1 without doorbell: reported true).
 * PendingLast says whether pending and enabled vLPIs were left (IHI 0069H
 * §12.11); it promises a wake-up only together with a doorbell.
 *
 * @param vpe          A resident vPE.
 * @param doorbell     Request a doorbell (the vCPU is blocking). Ignored for a vPE
 *                     created with ::LIBVIRQ_ITS_NO_DOORBELL (it has none to
 *                     request): made non-resident as with false, so @p pending_last
 *                     is the hardware's PendingLast on 4.0 and true on 4.1.
 * @param pending_last Optional; receives true when a vLPI is pending (keep
 *                     the vCPU runnable), also when Dirty never cleared.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; not resident); ::LIBVIRQ_ETIMEDOUT (Dirty stuck: the vPE is
 *         non-resident and PendingLast is reported true).
 *
 * Hardware accesses (no doorbell masking): one write, one read.
 *
 * Thread-safety: the caller serialises calls on @p vpe and calls on the same redistributor;
 * calls on different vPEs and different redistributors may run concurrently on different
 * CPUs (no lock inside). GICv4.0 doorbell masking through the proxy device sends ITS
 * commands: under the ITS lock (::virq_its_lock) when installed, else the caller serialises
 * it with every command sender of that ITS.
 * Spec: IHI 0069H §12.11 (GICR_VPENDBASER).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_make_nonresident(struct virq_vpe *vpe, bool doorbell,
							 bool *pending_last);

/**
 * @brief Marks the vCPU as blocked in WFI (@ref gic-doorbell-wfi).
 * The next virq_vpe_put() requests a doorbell and virq_vpe_load() keeps the
 * vPE non-resident.
 *
 * @param vpe A vPE with a doorbell.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed vPE, gicv4/state.h;
 *         or the vPE was created with
 *         ::LIBVIRQ_ITS_NO_DOORBELL: no doorbell could wake it, so blocking is
 *         refused and nothing changes; such a vCPU polls: virq_vpe_put() outside
 *         WFI reports PendingLast).
 *
 * Thread-safety: the caller serialises calls on @p vpe.
 * Spec: IHI 0069H §5.3 (VMAPTI, VMOVI Dbell_pINTID: the doorbell); no hardware access.
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_wfi_enter(struct virq_vpe *vpe);

/**
 * @brief Marks the vCPU as runnable again (woken by its doorbell or
 * another event); the next virq_vpe_load() makes it resident.
 *
 * @param vpe A vPE.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed vPE,
 *         gicv4/state.h).
 *
 * Thread-safety: the caller serialises calls on @p vpe.
 * Spec: IHI 0069H §5.3 (VMAPTI, VMOVI Dbell_pINTID: the doorbell); no hardware access.
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_wfi_exit(struct virq_vpe *vpe);

/**
 * @brief vCPU load: make resident on @p rd unless in WFI or already resident.
 *
 * @param vpe A mapped vPE. @param rd Its redistributor.
 * @return ::LIBVIRQ_OK (also when nothing was done); as virq_vpe_make_resident().
 *
 * Thread-safety: the caller serialises calls on @p vpe and calls on the same redistributor;
 * calls on different vPEs and different redistributors may run concurrently on different
 * CPUs (no lock inside). GICv4.0 doorbell masking through the proxy device sends ITS
 * commands: under the ITS lock (::virq_its_lock) when installed, else the caller serialises
 * it with every command sender of that ITS.
 * Spec: IHI 0069H §12.11 (as virq_vpe_make_resident()).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_load(struct virq_vpe *vpe, uint32_t rd);

/**
 * @brief vCPU put: make non-resident, requesting a doorbell iff in WFI.
 *
 * @param vpe          A vPE.
 * @param pending_last Optional; as virq_vpe_make_nonresident() (the saved
 *                     value when already non-resident).
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL also for a NULL, never initialised or destroyed
 *         object (gicv4/state.h); as virq_vpe_make_nonresident().
 *
 * Thread-safety: the caller serialises calls on @p vpe and calls on the same redistributor;
 * calls on different vPEs and different redistributors may run concurrently on different
 * CPUs (no lock inside). GICv4.0 doorbell masking through the proxy device sends ITS
 * commands: under the ITS lock (::virq_its_lock) when installed, else the caller serialises
 * it with every command sender of that ITS.
 * Spec: IHI 0069H §12.11 (as virq_vpe_make_nonresident()).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_put(struct virq_vpe *vpe, bool *pending_last);

/**
 * @brief Retargets a non-resident vPE to redistributor @p rd (VMOVP).
 *
 * If any ITS has GITS_TYPER.VMOVP = 1 (or GICv4.1 single-VMOVP), one
 * VMOVP + VSYNC to that ITS; otherwise (4.0, VMOVP = 0) the same VMOVP with
 * the next SequenceNumber and the ITSList of every ITS the vPE is mapped
 * on, + VSYNC, to each of them in slot order (lazy mapping: the ITSes where
 * it has or had vLPIs, and the eager ones). A vPE mapped on no ITS only
 * takes the new target, which its first VMAPP names. GICv4.1 adds DB and the
 * default doorbell. Hip09 162100801: then GICR_INVALLR(V, vPEID) on the
 * new RD and a bounded GICR_SYNCR.Busy poll.
 *
 * Then the GICv4.0 doorbell (see "Doorbells and moves" above): a doorbell
 * left pending on the redistributor the vPE left (::virq_vpe::move_from) is
 * cleared there, and for a vCPU in WFI (virq_vpe_wfi_enter()) raised on
 * @p rd instead. With DirectLPI on both redistributors: GICR_CLRLPIR on the
 * old one, GICR_SETLPIR on @p rd in WFI, each with a bounded GICR_SYNCR.Busy
 * poll; no ITS command. Otherwise, with the proxy device: its slot for the
 * vPE (taken and mapped on the old collection first when it has none:
 * [DISCARD of the slot's previous owner +] MAPTI) gets CLEAR + SYNC there,
 * MOVI to @p rd's collection + SYNC, and INT + SYNC in WFI; without a
 * collection for @p rd on the proxy ITS the slot is released after the
 * CLEAR (DISCARD + SYNC). Neither: nothing reaches the doorbell, which stays
 * pending on the old redistributor (the handler sees it as stale).
 * ITS commands per move on QEMU 7.2 (VMOVP = 1, no DirectLPI, proxy): VMOVP,
 * VSYNC, CLEAR, SYNC, MOVI, SYNC; MAPTI too the first time, INT and SYNC too
 * for a vCPU in WFI.
 *
 * A doorbell can reach @p rd's CPU before this call returns: the ITS routes
 * to @p rd as soon as it has executed the VMOVP, and ::virq_vpe::rd names
 * @p rd only once every ITS has taken it (after the VSYNC wait). A doorbell
 * handler that compares ::virq_vpe::rd with its own redistributor to tell a
 * stale doorbell from a current one must also accept the target of a move in
 * progress (the embedder knows it: it made the call), or it forwards a
 * current doorbell back to the CPU the vPE is leaving.
 *
 * @param vpe A mapped vPE, not resident, not in teardown.
 * @param rd  New redistributor index (LPIs enabled, collection mapped).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; unmapped vPE, bad @p rd); ::LIBVIRQ_EDEAD (being torn down);
 *         ::LIBVIRQ_EBUSY (resident; LPIs off on @p rd); queue errors, and
 *         ::LIBVIRQ_ECANCELED (between the publish and the wait, with the lock
 *         released, another CPU's failed command reset an ITS's queue and
 *         dropped this VMOVP or its VSYNC). For each, what GITS_CREADR showed
 *         decides, also across that other CPU's reset (the vPE
 *         keeps its old target only if no ITS executed the VMOVP; otherwise
 *         ::virq_vpe::rd is already @p rd and ::LIBVIRQ_VPE_MOVE_PENDING is set:
 *         calling again with the same @p rd re-sends the VMOVP to every ITS
 *         and the follow-ups - the doorbell clean-up on ::virq_vpe::move_from
 *         included - instead of returning at once; until then
 *         virq_vpe_make_resident() refuses the vPE with ::LIBVIRQ_EBUSY);
 *         ::LIBVIRQ_ETIMEDOUT (GICR_SYNCR stayed busy after GICR_CLRLPIR or
 *         GICR_SETLPIR; also with the flag set); ::LIBVIRQ_ENOMEM (the proxy
 *         device could not be created; also with the flag set).
 *
 * Thread-safety: the caller serialises this with every call on @p vpe and with every vPE
 * creation, teardown and (GITS_TYPER.VMOVP = 0) move on the GIC (vPEID bitmap, VMOVP
 * SequenceNumber). With the ITS lock (::virq_its_lock) on every ITS it may run concurrently
 * with calls on other devices and vPEs (it takes each ITS's lock in turn, never two at once);
 * without it the caller also serialises it with every call that sends commands to any ITS
 * of the GIC.
 * Spec: IHI 0069H §5.3 (VMOVP, VSYNC, MAPTI, CLEAR, MOVI, INT, DISCARD, SYNC), chapter 9,
 * §12.11 (GICR_CLRLPIR, GICR_SETLPIR, GICR_SYNCR; GICR_INVALLR for Hip09).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_move(struct virq_vpe *vpe, uint32_t rd);

/**
 * @brief Enables or disables doorbell masking (GICv4.0): with masking the
 * doorbell's configuration byte is disabled while the vCPU is not blocked
 * and enabled when virq_vpe_put() / virq_vpe_make_nonresident() request it;
 * each change is invalidated with GICR_INVLPIR (DirectLPI) or through the
 * proxy device. Without masking (default) the doorbell stays enabled and
 * may also fire for a preempted vCPU (never lost, sometimes spurious).
 *
 * @param vpe A mapped vPE. @param on Enable masking.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOTSUP (4.0 without DirectLPI and without a proxy device,
 *         or no doorbell).
 *
 * Thread-safety: the caller serialises calls on @p vpe; with the proxy device it takes the
 * proxy ITS's lock (::virq_its_lock), or without one the caller serialises it with every
 * command sender of that ITS.
 * Spec: IHI 0069H §5.1.1 (doorbell configuration byte), chapter 9 (doorbells).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_set_db_masking(struct virq_vpe *vpe, bool on);

/**
 * @brief Makes the GIC re-read the vPE's doorbell configuration byte.
 *
 * GICv4.1: INVDB + VSYNC. GICv4.0 with DirectLPI: GICR_INVLPIR on the
 * vPE's RD + bounded GICR_SYNCR poll. GICv4.0 without: through the proxy
 * device — MAPTI(proxy, slot, doorbell, collection of the vPE's RD) the
 * first time (DISCARD of the slot's previous owner when reused), then
 * INV(proxy, slot) + SYNC. A free slot is taken first; when every slot is
 * taken, the round robin's owner is evicted (DISCARD, which also removes its
 * pending doorbell, IHI 0069H §5.3 DISCARD) and given the slot back at once
 * (DISCARD, SYNC, MAPTI, INT, SYNC: its doorbell raised again,
 * ::virq_its::proxy_give_backs); @p vpe then keeps no slot, and its own
 * pending doorbell, which that DISCARD removed, is reported as PendingLast
 * (set unless it is resident). A failure of the give-back is logged, not
 * returned (the INV of @p vpe did run).
 *
 * @param vpe A mapped vPE with a doorbell.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOTSUP (no path); queue errors.
 *
 * Thread-safety: the caller serialises calls on @p vpe; the ITS paths take that ITS's lock
 * (::virq_its_lock), or without one the caller serialises them with every command sender of
 * that ITS.
 * Spec: IHI 0069H §5.3 (INVDB, MAPTI, DISCARD, INV, SYNC, VSYNC), §12.11 (GICR_INVLPIR,
 * GICR_SYNCR), chapter 9.
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_doorbell_invalidate(struct virq_vpe *vpe);

/**
 * @brief Maps an event to vINTID @p vintid of @p vpe: enables the vLPI's
 * config byte (priority 0xA0) in the VM table, then VMAPTI (doorbell =
 * the vPE's doorbell on 4.0 when @p doorbell, else 1023; always 1023 on
 * 4.1, which uses the default doorbell) + VSYNC. The vPE's first vLPI on a
 * GICv4.0 ITS is preceded there by its VMAPP + VINVALL + VSYNC (lazy mapping,
 * docs/gicv4-core.md "Lazy mapping"; the same in virq_vlpi_map_range(),
 * virq_vlpi_remap() and virq_vlpi_move() for the vPE they target): a queue
 * error of those is returned with nothing mapped (the vPE is recorded as
 * mapped there when GITS_CREADR passed the VMAPP or the ITS is dead, and its
 * teardown unmaps it).
 *
 * @param dev      A mapped device on a GICv4 ITS.
 * @param event    EventID, not mapped.
 * @param vpe      A mapped vPE.
 * @param vintid   8192 .. 2^vm->id_bits - 1 (must be covered by VPROPBASER.IDbits,
 *                 @ref gic-vpe-residency-init).
 * @param doorbell Use the vPE's doorbell (4.0).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ERANGE; ::LIBVIRQ_EEXIST; ::LIBVIRQ_ENOTSUP (GICv3 ITS);
 *         ::LIBVIRQ_EDEAD (vPE torn down, or ITS dead: nothing sent); queue errors: the event
 *         is tracked as mapped (counted in the vPE's vLPIs, so that virq_vpe_destroy() refuses
 *         it) when GITS_CREADR passed the VMAPTI or the ITS is dead, else as unmapped; unmap a
 *         tracked event with virq_vlpi_unmap().
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.3 (VMAPTI, VSYNC), §5.1.1 (vLPI configuration byte).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_map(struct virq_its_device *dev, uint32_t event,
					     struct virq_vpe *vpe, uint32_t vintid, bool doorbell);

/**
 * @brief Maps an event to vINTID @p vintid of @p vpe with the guest's
 * configuration for it: writes the vLPI's configuration byte (@p priority,
 * @p enable) in the VM table (cleaned when not coherent), then VMAPTI
 * (doorbell as virq_vlpi_map()) + VSYNC.
 *
 * The byte is in memory before the VMAPTI is queued, so the vLPI is never
 * live with another configuration, and no INV is needed: what a hypervisor
 * emulating an ITS for its guest wants when the guest maps an event whose
 * LPI it has already configured (the guest's own configuration table says
 * disabled, or another priority). virq_vlpi_map() is this call with
 * priority 0xA0, enabled; virq_vlpi_map() followed by virq_vlpi_set_config()
 * would enable the vLPI at 0xA0 until the INV and cost an INV + VSYNC more.
 *
 * @param dev      A mapped device on a GICv4 ITS.
 * @param event    EventID, not mapped.
 * @param vpe      A mapped vPE.
 * @param vintid   8192 .. 2^vm->id_bits - 1 (@ref gic-vpe-residency-init).
 * @param doorbell Use the vPE's doorbell (4.0).
 * @param priority Priority (bits [7:2] used, as virq_gic_vm_vlpi_config()).
 * @param enable   Enable bit.
 * @return As virq_vlpi_map(). On any failure the VM table byte may hold the
 *         new configuration but the event is not mapped.
 *
 * Hardware accesses: as virq_vlpi_map() (one VMAPTI and one VSYNC: 1
 * GITS_CWRITER write, 1 or more GITS_CREADR reads).
 *
 * Thread-safety: as virq_vlpi_map().
 * Spec: IHI 0069H §5.3 (VMAPTI, VSYNC), §5.1.1 (vLPI configuration byte).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_map_config(struct virq_its_device *dev, uint32_t event,
						    struct virq_vpe *vpe, uint32_t vintid,
						    bool doorbell, uint8_t priority, bool enable);

/**
 * @brief Maps @p count consecutive events to consecutive vINTIDs of one vPE
 * in one batch: config bytes, then @p count VMAPTI and a single VSYNC,
 * published with as few GITS_CWRITER writes as the queue size allows (one
 * when the batch fits) and one completion wait.
 *
 * Every argument is validated before anything is queued. If the queue fails
 * part-way the error is returned and the queue is reset, which reads
 * GITS_CREADR once the ITS is quiescent:
 * - reset done: the ITS ran exactly the VMAPTIs before that position (no
 *   later command is processed, IHI 0069H §5.2, and the reset drops them):
 *   those events are tracked as mapped, every other event of the batch as
 *   unmapped (no DISCARD is ever sent for them);
 * - reset failed (the ITS is marked dead): the ITS state is unknown for the
 *   batch: every event whose VMAPTI was queued stays tracked as mapped,
 *   although the ITS may not have executed it; events never queued stay
 *   unmapped. virq_vlpi_unmap() on such an event sends DISCARD; if its
 *   VMAPTI never ran, that DISCARD is a command error on an unmapped event,
 *   which the ITS may ignore or answer by stalling (CONSTRAINED
 *   UNPREDICTABLE, IHI 0069H §5.3; @ref gic-its-queue-stall): the stall is then returned as
 *   ::LIBVIRQ_ESTALLED after a queue reset (or the ITS becomes ::LIBVIRQ_EDEAD if
 *   the reset fails), and the event is forgotten either way.
 *
 * @param dev          A mapped device on a GICv4 ITS.
 * @param first_event  First EventID; events first_event .. + count - 1 unmapped.
 * @param count        1 .. nr_events.
 * @param vpe          A mapped vPE.
 * @param first_vintid First vINTID (the range must fit the VM's id_bits).
 * @param doorbell     Use the vPE's doorbell (4.0).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ERANGE; ::LIBVIRQ_EEXIST; ::LIBVIRQ_ENOTSUP;
 *         ::LIBVIRQ_EDEAD; queue errors.
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.3 (VMAPTI, VSYNC), §5.2 (command queue).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_map_range(struct virq_its_device *dev,
						   uint32_t first_event, uint32_t count,
						   struct virq_vpe *vpe, uint32_t first_vintid,
						   bool doorbell);

/**
 * @brief Unmaps a vLPI: DISCARD + VSYNC (same as virq_its_unmap_event()).
 *
 * @param dev A mapped device. @param event A mapped EventID.
 * @return As virq_its_unmap_event().
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.3 (DISCARD, VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_unmap(struct virq_its_device *dev, uint32_t event);

/**
 * @brief Unmaps @p count consecutive vLPI events in one batch: @p count
 * DISCARDs, one VSYNC per vPE involved, one GITS_CWRITER write per
 * queue-full and one completion wait (the counterpart of
 * virq_vlpi_map_range()). Failure rules as virq_its_unmap_range(): the
 * events whose DISCARD GITS_CREADR passed are unmapped, the others stay
 * tracked as mapped with their vPE's vLPI count (virq_vpe_destroy()
 * returns ::LIBVIRQ_EBUSY); unmap them again.
 *
 * @param dev         A live device.
 * @param first_event First EventID.
 * @param count       1 .. nr_events - first_event; every event mapped to a vLPI.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; @p dev not live, see gicv4/state.h); ::LIBVIRQ_ERANGE;
 *         ::LIBVIRQ_ENOENT (an event is not a vLPI: nothing sent); ::LIBVIRQ_EDEAD; queue
 *         errors.
 *
 * Thread-safety: as virq_its_unmap_range(): the caller serialises it with calls on @p dev,
 * on the vPEs involved and with every other unmap-range call on the GIC; with the ITS lock
 * (::virq_its_lock) otherwise concurrent with calls on other devices and vPEs of the ITS.
 * Spec: IHI 0069H §5.3 (DISCARD, VSYNC), §5.2 (command queue).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_unmap_range(struct virq_its_device *dev,
						     uint32_t first_event, uint32_t count);

/**
 * @brief Changes the vINTID (and possibly vPE) of a mapped vLPI: DISCARD,
 * VMAPTI, VSYNC in one batch (a vINTID cannot be changed in place; a
 * second VMAPTI on a mapped event is UNPREDICTABLE).
 *
 * @param dev A mapped device. @param event A vLPI-mapped EventID.
 * @param vpe Target vPE. @param vintid New vINTID.
 * @return As virq_vlpi_map() (no ::LIBVIRQ_EEXIST: the event is mapped already);
 *         ::LIBVIRQ_ENOENT (not a vLPI). On a queue failure
 *         the tracking follows what GITS_CREADR showed once the queue was reset: the
 *         VMAPTI ran: the new mapping; only the DISCARD ran: unmapped; neither, or
 *         the ITS is dead (unknown): the old mapping, its vPE still referenced.
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.3 (DISCARD, VMAPTI, VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_remap(struct virq_its_device *dev, uint32_t event,
					       struct virq_vpe *vpe, uint32_t vintid);

/**
 * @brief Moves a vLPI to another vPE of the same VM, keeping its vINTID:
 * VMOVI (with the new vPE's doorbell on 4.0 when the vLPI had one) + VSYNC.
 *
 * @param dev A mapped device. @param event A vLPI-mapped EventID.
 * @param vpe The new vPE (mapped, same VM).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOENT; ::LIBVIRQ_EDEAD; queue errors: the vLPI is tracked
 *         on (and counted in) the new vPE when GITS_CREADR passed the VMOVI, else on the old
 *         one (also when the ITS is dead); move again.
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.3 (VMOVI, VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_move(struct virq_its_device *dev, uint32_t event,
					      struct virq_vpe *vpe);

/**
 * @brief GICv4.0: turns a vLPI's doorbell on (the vPE's doorbell) or off
 * (1023) with VMOVI to the same vPE (D = 1) + VSYNC.
 *
 * @param dev A mapped device. @param event A vLPI-mapped EventID. @param on On/off.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOENT; ::LIBVIRQ_ENOTSUP (4.1, or the vPE has no
 *         doorbell); queue errors.
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.3 (VMOVI Dbell_pINTID), chapter 9 (GICv4.0 doorbells).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_set_doorbell(struct virq_its_device *dev, uint32_t event,
						      bool on);

/**
 * @brief Changes a mapped vLPI's priority/enable: config byte, then
 * INV + VSYNC.
 *
 * @param dev A mapped device. @param event A vLPI-mapped EventID.
 * @param priority Priority. @param enable Enable.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOENT; queue errors.
 *
 * Thread-safety: @ref virq_vlpi_serialisation "the vLPI rule" (calls on @p dev and on the
 * vPEs involved serialised; with the ITS lock, concurrent with other devices and vPEs).
 * Spec: IHI 0069H §5.1.1, §5.3 (INV, VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vlpi_set_config(struct virq_its_device *dev, uint32_t event,
						    uint8_t priority, bool enable);

/* ---------------- GICv4.1 direct vSGIs ---------------- */

/**
 * @brief GICv4.1: configures vSGI @p vintid of a vPE with the VSGI command
 * (Clear = 0: priority, group, enable; the pending state is unchanged) +
 * VSYNC, on the first live ITS that maps the vPE and has GITS_TYPER.VSGI.
 *
 * @param vpe      A live vPE.
 * @param vintid   vSGI number, 0..15 (a larger value is refused, never masked).
 * @param priority 8-bit priority; only Priority[7:4] is encoded, so the low
 *                 four bits must be 0.
 * @param group1   Group 1 (true) or group 0.
 * @param enable   Enable the vSGI.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p vpe NULL, never initialised or
 *         destroyed; gicv4/state.h); ::LIBVIRQ_ERANGE (@p vintid > 15);
 *         ::LIBVIRQ_EALIGN (priority low bits); ::LIBVIRQ_EDEAD (teardown);
 *         ::LIBVIRQ_ENOTSUP (no GICv4.1 ITS with VSGI maps the vPE); queue errors.
 *
 * Thread-safety: the caller serialises calls on @p vpe. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the ITS; without it
 * the caller serialises this with every call that sends commands to the ITS.
 * Spec: IHI 0069H §5.3 (VSGI, VSYNC), §12.19 (GITS_TYPER.VSGI).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_vsgi_config(struct virq_vpe *vpe, uint32_t vintid,
						    uint8_t priority, bool group1, bool enable);

/**
 * @brief GICv4.1: clears the pending state of vSGI @p vintid of a vPE: VSGI
 * with Clear = 1 (the configuration is unchanged) + VSYNC.
 *
 * @param vpe A live vPE. @param vintid vSGI number, 0..15.
 * @return As virq_vpe_vsgi_config() (no ::LIBVIRQ_EALIGN).
 *
 * Thread-safety: the caller serialises calls on @p vpe. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the ITS; without it
 * the caller serialises this with every call that sends commands to the ITS.
 * Spec: IHI 0069H §5.3 (VSGI Clear).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_vsgi_clear(struct virq_vpe *vpe, uint32_t vintid);

/**
 * @brief GICv4.1 direct vSGI: makes vSGI @p vintid of a vPE pending with one
 * 64-bit GITS_SGIR write (encoded by virq_gits_sgir_encode()).
 *
 * GITS_SGIR is in the ITS's third 64 KiB frame (ITS_base + 0x20020). It is
 * used only when GITS_TYPER.VSGI is set and the register region of the
 * ITS's description (::virq_gic_its_desc::size) contains it
 * (::virq_its::direct_vsgi): an ITS described with a 0x20000-byte region
 * has no direct vSGI, and the library never touches beyond the region.
 *
 * @param vpe A live vPE. @param vintid vSGI number, 0..15.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p vpe NULL, never initialised or
 *         destroyed); ::LIBVIRQ_ERANGE (@p vintid > 15, nothing written);
 *         ::LIBVIRQ_EDEAD (teardown); ::LIBVIRQ_ENOTSUP (no direct vSGI: no ITS
 *         mapping the vPE has VSGI and GITS_SGIR inside its region).
 *
 * Hardware accesses: one MMIO write. Thread-safety: safe concurrently with
 * other vSGI sends (one posted write); the caller serialises it with the
 * vPE's teardown.
 * Spec: IHI 0069H §12.19 GITS_SGIR.
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_vsgi_send(struct virq_vpe *vpe, uint32_t vintid);

/**
 * @brief GICv4.1: reads the pending state of a vPE's 16 vSGIs: GICR_VSGIR =
 * vPEID on the vPE's target redistributor (::virq_vpe::rd), then
 * GICR_VSGIPENDR polled until Busy = 0 (bounded by the GIC's timeout).
 *
 * The state is held by the redistributor the vPE targets. Racing a VMOVP:
 * while a virq_vpe_move() of this vPE stopped half-way
 * (::LIBVIRQ_VPE_MOVE_PENDING) some ITS may still target the old
 * redistributor, so the read is refused (::LIBVIRQ_EBUSY, nothing written);
 * after a completed move the read goes to the new redistributor, which holds
 * the state (the VMOVP + VSYNC moved it). A move running concurrently on
 * another CPU is excluded by the serialisation below (the query would reach
 * the redistributor the vPE is leaving; Linux takes the vPE's lock for the
 * same reason, its_sgi_get_irqchip_state()).
 *
 * @param vpe     A live vPE.
 * @param pending Receives bit n = vSGI n pending.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p vpe NULL, never initialised or
 *         destroyed; NULL @p pending); ::LIBVIRQ_ENOTSUP (not GICv4.1);
 *         ::LIBVIRQ_EBUSY (a move is half-done); ::LIBVIRQ_ETIMEDOUT (Busy stayed
 *         set; @p pending not written).
 *
 * Hardware accesses: one write, Busy polls (one read when not busy).
 * Thread-safety: the caller serialises this with every call on @p vpe (in
 * particular virq_vpe_move()) and with other vSGI pending reads on the same
 * redistributor (two registers, one query at a time).
 * Spec: IHI 0069H §12.11 (GICR_VSGIR, GICR_VSGIPENDR).
 */
LIBVIRQ_MUST_CHECK virq_status virq_vpe_vsgi_pending(struct virq_vpe *vpe, uint16_t *pending);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_VPE_H */
