/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD IOMMU guest virtual APIC (GA) mode: the 128-bit GA-mode IRTE,
 *        IsRun/destination updates on vCPU load/put, GA log entries and the
 *        GA tag -> (VM, vCPU) lookup.
 *
 * Spec: AMD IOMMU specification 48882 rev 3.11: §2.2.5.2 (Tables 22 and 23, the
 * interrupt virtualization steps), §2.2.5.3 (Figures 19 and 20: the 128-bit IRTE
 * with a 32-bit destination, MMIO 0018h[XTEn] = 1), §2.7 (the guest virtual APIC
 * log; Figure 79, GA_GUEST_NR). "When virtual interrupts are enabled by setting
 * MMIO Offset 0018h[GAEn] and IRTE[GuestMode=1], the fields IRTE[IsRun],
 * IRTE[Destination], IRTE[GALogIntr], IRTE[GAPPIDis], and, if present,
 * IRTE[GATag] are not cached by the IOMMU. Modifications to these fields do not
 * require an invalidation of the Interrupt Remapping Table" (§2.2.5.2): the
 * library updates exactly these fields in place, and the embedder invalidates
 * after attach (@ref iommu-irte-ga-layout).
 */
#ifndef LIBVIRQ_AVIC_IOMMU_H
#define LIBVIRQ_AVIC_IOMMU_H

#include "vm.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Fields of a 128-bit IRTE (GuestMode selects which fields apply): AMD IOMMU
 *        specification 48882 rev 3.11 §2.2.5.3, Figure 20 (::LIBVIRQ_IRTE_GA_TABLE) and
 *        Figure 19 (::LIBVIRQ_IRTE_REMAP_TABLE). Bits 127:64 are the second word.
 */
struct virq_avic_irte_ga {
	bool remap_en;	 ///< Bit 0 RemapEn.
	bool sup_iopf;	 ///< Bit 1 SupIOPF.
	bool guest_mode; ///< Bit 7 GuestMode: 1 = post to a guest vAPIC.
	uint32_t dest;	 ///< Destination: bits 31:8 = Destination[23:0], 127:120 = [31:24].
	uint8_t vector;	 ///< Bits 71:64 Vector: the guest vector (GuestMode 1) or the host's.
	/* GuestMode = 1 */
	bool ga_log_intr;    ///< Bit 2 GALogIntr (GuestMode 1).
	bool is_run;	     ///< Bit 6 IsRun (GuestMode 1).
	uint32_t ga_tag;     ///< Bits 63:32 GATag (GuestMode 1).
	uint64_t ga_root_pa; ///< Bits 115:76 Guest Virtual APIC Table Root Pointer: the backing
			     ///< page PA (GuestMode 1; 4 KiB aligned, < 2^52).
	/* GuestMode = 0 */
	uint8_t int_type; ///< Bits 4:2 IntType (GuestMode 0; 0 fixed, 1 arbitrated).
	bool rq_eoi;	  ///< Bit 5 RqEoi (GuestMode 0).
	bool dm_logical;  ///< Bit 6 DM (GuestMode 0).
	/* GuestMode = 1 (appended) */
	bool gappi_dis; ///< Bit 5 GAPPIDis (GuestMode 1; reserved unless MMIO
			///< 01A0h[GAPPIDisSup] = 1; libvirq writes 0).
};

/**
 * @brief Encodes a 128-bit IRTE into @p out[0] (bits 63:0) and @p out[1] (127:64).
 * @param f Fields (those of the other mode must be zero).
 * @param out Receives the two words.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL, other-mode fields set); ::LIBVIRQ_ERANGE
 *         (int_type above 1, the reserved encodings 010b-111b; ga_root_pa >= 2^52);
 *         ::LIBVIRQ_EALIGN (ga_root_pa).
 * Thread-safety: pure.
 * Spec: AMD IOMMU specification 48882 rev 3.11 §2.2.5.3, Figures 19 and 20; §2.2.5.2,
 * Tables 22 and 23.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_irte_ga_encode(const struct virq_avic_irte_ga *f,
							uint64_t out[2]);
/**
 * @brief Decodes a 128-bit IRTE.
 * @param in The two words. @param f Receives the fields of the mode in lo[7].
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when reserved bits are
 *         set (GuestMode 1: 4:3, 75:72, 119:116; GuestMode 0: 63:32, 119:72, or IntType
 *         010b-111b; the fields are still filled). The IOMMU ignores them while RemapEn is
 *         0; libvirq reports them in any case and never writes them. Whenever it returns
 *         ::LIBVIRQ_OK, virq_avic_irte_ga_encode() of the fields gives back exactly @p in.
 * Thread-safety: pure.
 * Spec: as virq_avic_irte_ga_encode().
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_irte_ga_decode(const uint64_t in[2],
							struct virq_avic_irte_ga *f);

/** @brief GA log OpCode 0001b, GA_GUEST_NR ("guest not running"). */
#define LIBVIRQ_GA_LOG_GUEST_NR 1u

/**
 * @brief Decodes a 64-bit GA log entry.
 * @param e Entry. @param tag Receives bits 31:0 GATag. @param devid Receives 47:32 DeviceID.
 * @param code Receives 63:60 OpCode.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when reserved bits 59:48
 *         are set (the fields are still filled).
 * Thread-safety: pure.
 * Spec: AMD IOMMU specification 48882 rev 3.11 §2.7.2 (Figure 78), §2.7.3 (Figure 79,
 * ::LIBVIRQ_GA_LOG_ENTRY_TABLE).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_ga_log_decode(uint64_t e, uint32_t *tag, uint16_t *devid,
						       uint8_t *code);

/** @brief Bits of the GA tag that hold the vCPU index (12: up to 4,096 vCPUs;
 *  @ref avic-ga-tag-width). */
#define LIBVIRQ_GATAG_VCPU_BITS 12u
/** @brief Largest VM id in a GA tag (the remaining 20 bits). */
#define LIBVIRQ_GATAG_VM_MAX 0xFFFFFu

/**
 * @brief GA tag = (vm_id << 12) | vcpu_index.
 * @param vm_id 0..0xFFFFF. @param vcpu_index 0..0xFFF. @param tag Receives the tag.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE (never truncates).
 * Thread-safety: pure.
 * Spec: none (the GA tag is opaque to the IOMMU; its layout is the library's,
 * @ref avic-ga-tag-width).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_gatag_encode(uint32_t vm_id, uint32_t vcpu_index,
						      uint32_t *tag);
/**
 * @brief Splits a GA tag.
 * @param tag Tag. @param vm_id Receives bits 31:12. @param vcpu_index Receives 11:0.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure.
 * Spec: as virq_avic_gatag_encode().
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_gatag_decode(uint32_t tag, uint32_t *vm_id,
						      uint32_t *vcpu_index);

/** @brief Maps VM ids to VMs for GA log dispatch (caller storage; members internal). */
struct virq_avic_registry {
	uint32_t state;		     ///< Internal: lifecycle state (docs/avic.md "Object states").
	struct virq_avic_vm **slots; ///< Internal: slot i holds VM id i (slot 0 unused).
	uint32_t nslots;	     ///< Internal: number of slots.
	uint32_t count;		     ///< Internal: VMs registered.
};

/**
 * @brief Initialises a registry over caller storage (zeroed by this call).
 * @param reg Registry. @param slots Array of @p nslots pointers.
 * @param nslots 2..0x100000 (VM ids 1..nslots-1).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE; ::LIBVIRQ_EBUSY when
 *         @p reg holds a live registry (storage may be zeroed, never initialised or
 *         destroyed).
 * Thread-safety: exclusive.
 * Spec: none (software).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_registry_init(struct virq_avic_registry *reg,
						       struct virq_avic_vm **slots,
						       uint32_t nslots);
/**
 * @brief Ends a registry (its slots may then be freed).
 * @param reg Registry (NULL ignored).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EBUSY when VMs are still registered (nothing changed);
 *         ::LIBVIRQ_EINVAL when never initialised or already destroyed.
 * Thread-safety: exclusive; no lookup may run concurrently.
 * Spec: none (software).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_registry_destroy(struct virq_avic_registry *reg);
/**
 * @brief Registers a VM under its configured vm_id (1..nslots-1).
 * @param reg Registry. @param vm VM (cfg.vm_id != 0).
 * A registered VM cannot be destroyed (virq_avic_vm_destroy() gives ::LIBVIRQ_EBUSY)
 * until it is removed.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (registry or VM not live); ::LIBVIRQ_ERANGE (id 0
 *         or too big); ::LIBVIRQ_EEXIST (the VM, or another with its vm_id, is registered).
 * Thread-safety: serialise registrations; concurrent with lookups.
 * Spec: none (software).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_registry_add(struct virq_avic_registry *reg,
						      struct virq_avic_vm *vm);
/**
 * @brief Removes a VM. The caller waits for lookups in flight before freeing it.
 * @param reg Registry. @param vm VM.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (registry or VM not live); ::LIBVIRQ_ENOENT (not
 *         in this registry).
 * Thread-safety: serialise with registrations; concurrent with lookups.
 * Spec: none (software).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_registry_remove(struct virq_avic_registry *reg,
							 struct virq_avic_vm *vm);
/**
 * @brief Finds the (VM, vCPU) of a GA tag; constant time, range-checked.
 * @param reg Registry. @param tag GA tag. @param vm Optional; receives the VM.
 * @param vcpu Receives the vCPU.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (registry not live, NULL @p vcpu); ::LIBVIRQ_ENOENT
 *         (no such VM or vCPU; *@p vcpu is then NULL).
 * Thread-safety: any context (atomic loads).
 * Spec: none (software).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_registry_lookup(const struct virq_avic_registry *reg,
							 uint32_t tag, struct virq_avic_vm **vm,
							 struct virq_avic_vcpu **vcpu);
/**
 * @brief Handles one GA log entry: for GA_GUEST_NR kicks the tagged vCPU (the
 *        IOMMU already set its IRR bit); other codes are ignored.
 * @param reg Registry. @param entry GA log entry. @param vcpu Optional; receives the vCPU kicked.
 * @return ::LIBVIRQ_OK (kicked or ignored code); ::LIBVIRQ_ENOENT (unknown tag);
 *         ::LIBVIRQ_EINVAL (registry not live).
 * Thread-safety: any context.
 * Spec: IOMMU spec pub. 48882, GA log event GA_GUEST_NR.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_ga_log_handle(const struct virq_avic_registry *reg,
						       uint64_t entry,
						       struct virq_avic_vcpu **vcpu);

/**
 * @brief Attaches a GA-mode IRTE to a vCPU and writes it: RemapEn, GuestMode,
 *        guest @p vector, backing page, GA tag (vm_id, index), and the current
 *        state: running with AVIC -> IsRun 1 and Destination = host APIC ID at
 *        once (@ref avic-run-state); blocking, or running without AVIC (VM inhibited, in
 *        L2) -> IsRun 0, GALogIntr 1 (the IOMMU's doorbell would be ignored, so
 *        the GA log handler kicks it); put -> both 0. Writes hi then lo
 *        (64-bit stores).
 *
 * The embedder quiesces or disables the old entry before and invalidates the
 * IOMMU's IRT cache for the device afterwards. From then on load/put/block,
 * virq_avic_vcpu_vmcb_values() and virq_avic_vcpu_set_nested() update IsRun,
 * GALogIntr and Destination without invalidation.
 * A reference is attached to one vCPU at a time: attach it again (to this or
 * another vCPU) only after virq_avic_irte_detach(); free it only when it is
 * detached (or its vCPU destroyed refused it: a vCPU with IRTEs cannot be
 * destroyed). Its storage must be zeroed or detached before the first attach.
 * @param vcpu vCPU. @param ref Caller storage for the link. @param irte The IRTE
 *        (16-byte aligned, two words). @param vector Guest vector 16..255.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (not a live vCPU, NULL, or the VM has vm_id 0:
 *         its GA log entries could not be mapped back to the vCPU); ::LIBVIRQ_ERANGE
 *         (vector); ::LIBVIRQ_EEXIST (@p ref already attached to any vCPU, or @p irte
 *         already attached to a vCPU of this VM through another reference). On error the
 *         IRTE is not written.
 * Thread-safety: vCPU owner (serialised with load/put).
 * Spec: IOMMU spec pub. 48882, IRTE 128-bit (GuestMode, IsRun, GALogIntr).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_irte_attach(struct virq_avic_vcpu *vcpu,
						     struct virq_avic_irte_ref *ref, uint64_t *irte,
						     uint8_t vector);
/**
 * @brief Detaches an IRTE (the library stops updating it; contents unchanged).
 *        Afterwards @p ref may be freed or attached again.
 * @param vcpu vCPU. @param ref Link given to attach.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (not a live vCPU, NULL @p ref); ::LIBVIRQ_ENOENT
 *         (@p ref is not attached to @p vcpu).
 * Thread-safety: vCPU owner.
 * Spec: none (software).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_irte_detach(struct virq_avic_vcpu *vcpu,
						     struct virq_avic_irte_ref *ref);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_AVIC_IOMMU_H */
