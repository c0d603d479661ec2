/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD AVIC VMs and vCPUs: tables, backing pages, load/put, posting, exits, destination
 * resolution.
 *
 * Spec: APM Vol 2 rev 3.44 §15.29. Part of the AVIC module; include libvirq/avic.h.
 */
#ifndef LIBVIRQ_AVIC_VM_H
#define LIBVIRQ_AVIC_VM_H

#include "../status.h"
#include "../hal.h"
#include "regs.h"
#include "caps.h"
#include "encode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/** @name VM
 *  @{ */

/** @brief Physical APIC ID table size (a VM property). */
enum virq_avic_mode {
	LIBVIRQ_AVIC_MODE_XAVIC = 0,  ///< Indices 0..0xFE, one page.
	LIBVIRQ_AVIC_MODE_X2AVIC = 1, ///< Indices 0..0x1FF, one page (needs x2AVIC).
	LIBVIRQ_AVIC_MODE_X2AVIC_4K =
	    2, ///< Indices 0..0xFFF, eight contiguous pages (needs x2AVIC_EXT).
};

/** @brief How a post notifies a target that is running on another CPU. */
enum virq_avic_policy {
	LIBVIRQ_AVIC_POLICY_DOORBELL =
	    0,			      ///< Write the doorbell MSR with the target's host APIC ID.
	LIBVIRQ_AVIC_POLICY_KICK = 1, ///< Call the HAL @c kick_vcpu.
};

/** @brief Inhibit reasons (bit n of the inhibit set); AVIC is active only when the set is empty. */
enum virq_avic_inhibit {
	LIBVIRQ_AVIC_INHIBIT_DISABLED = 0, ///< Disabled by the embedder.
	LIBVIRQ_AVIC_INHIBIT_HYPERV = 1,   ///< Guest needs EOI interception (SynIC AutoEOI).
	LIBVIRQ_AVIC_INHIBIT_ABSENT = 2,   ///< No in-hypervisor APIC yet.
	LIBVIRQ_AVIC_INHIBIT_BLOCKIRQ = 3, ///< Debugger blocks interrupts.
	LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_ALIASED = 4,  ///< APIC IDs alias (8-bit xAPIC view).
	LIBVIRQ_AVIC_INHIBIT_APIC_ID_MODIFIED = 5,     ///< Guest changed an APIC ID.
	LIBVIRQ_AVIC_INHIBIT_APIC_BASE_MODIFIED = 6,   ///< Guest moved the APIC base.
	LIBVIRQ_AVIC_INHIBIT_NESTED = 7,	       ///< vCPU runs a nested guest (per vCPU).
	LIBVIRQ_AVIC_INHIBIT_IRQWIN = 8,	       ///< Waiting for an IRQ window (V_IRQ).
	LIBVIRQ_AVIC_INHIBIT_PIT_REINJ = 9,	       ///< PIT reinjection needs EOI exits.
	LIBVIRQ_AVIC_INHIBIT_SEV = 10,		       ///< SEV guest.
	LIBVIRQ_AVIC_INHIBIT_LOGICAL_ID_ALIASED = 11,  ///< Two vCPUs share a logical ID.
	LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG = 12, ///< An APIC ID exceeds the table.
	LIBVIRQ_AVIC_INHIBIT_COUNT = 13,	       ///< Number of reasons.
};

/** @brief VM creation parameters. */
struct virq_avic_vm_cfg {
	enum virq_avic_mode mode;     ///< Table size; must be supported by the caps.
	uint32_t max_vcpus;	      ///< 1 .. max index + 1 (vCPU indexes 0 .. max_vcpus-1).
	uint32_t vm_id;		      ///< GA tag VM id, 0 (none: no IOMMU IRTEs) .. 0xFFFFF.
	enum virq_avic_policy policy; ///< Initial doorbell/kick policy.
	bool disable_ipiv;	      ///< Never set IsRunning (forced on erratum-1235 parts).
	uint64_t apic_bar;	      ///< Guest APIC base GPA, 4 KiB aligned; 0 = 0xFEE00000.
	/**
	 * What a kick costs a target that is running, beyond the poster's HAL
	 * call (ns): its forced \#VMEXIT, the host's handling and the VMRUN
	 * back. virq_avic_vm_calibrate() adds it to the measured kick cost, since
	 * a doorbell costs the running target nothing. 0 counts nothing (then
	 * calibration compares the posters' costs only). Measure it on the host
	 * (for example a kvm-unit-tests style exit round trip).
	 */
	uint32_t kick_exit_ns;
};

struct virq_avic_vcpu;
struct virq_avic_registry;

/** @brief Internal VM-wide event counters (read them with virq_avic_vm_counters_get()). */
struct virq_avic_vm_raw_counters {
	uint64_t ev[5];	  ///< Internal: per ::virq_avic_vm_counters field, in its order (atomic).
	uint64_t dropped; ///< Internal: log lines left out by the rate limit (atomic).
};

/** @brief A VM's AVIC state (caller storage; members internal). */
struct virq_avic_vm {
	uint32_t state;		     ///< Internal: lifecycle state (docs/avic.md "Object states").
	struct virq_hal hal;	     ///< Internal: HAL copy.
	struct virq_avic_caps caps;  ///< Internal: caps copy.
	struct virq_avic_vm_cfg cfg; ///< Internal: configuration.
	uint32_t max_index;	     ///< Internal: table capacity (highest index).
	uint32_t highest;	     ///< Internal: highest APIC ID in use.
	bool ipiv;		     ///< Internal: IsRunning may be set.
	struct virq_page phys_table; ///< Internal: physical APIC ID table.
	struct virq_page log_table;  ///< Internal: logical APIC ID table.
	struct virq_page maps;	     ///< Internal: vCPU-by-index array and APIC-ID map.
	struct virq_avic_vcpu **by_index; ///< Internal: vCPU index -> vCPU (max_vcpus entries).
	uint32_t *apic_map;		  ///< Internal: APIC ID -> vCPU index (open addressing).
	uint32_t apic_map_mask;		  ///< Internal: number of map slots - 1.
	uint64_t *lix;		///< Internal: xAPIC logical index (summaries, then bitmaps).
	uint32_t lix_words;	///< Internal: 64-bit words per logical index bitmap.
	uint32_t inhibits;	///< Internal: inhibits set by the embedder (atomic).
	uint32_t auto_inhibits; ///< Internal: inhibits the tables require (atomic).
	uint32_t policy;	///< Internal: current policy (atomic).
	uint32_t slow; ///< Internal: xAPIC-mode vCPUs whose xAPIC ID is not their APIC ID (atomic).
	uint32_t n_xapic;	 ///< Internal: vCPUs in xAPIC mode (atomic).
	uint32_t n_x2apic;	 ///< Internal: vCPUs in x2APIC mode (atomic).
	uint32_t too_big;	 ///< Internal: xAPIC-mode vCPUs with an APIC ID > 0xFE.
	uint32_t xapic_high;	 ///< Internal: xAPIC-mode vCPUs with an APIC ID > 7.
	uint32_t id_modified;	 ///< Internal: xAPIC-mode vCPUs whose xAPIC ID was changed.
	uint32_t log_flat;	 ///< Internal: xAPIC-mode vCPUs with an LDR, flat model.
	uint32_t log_cluster;	 ///< Internal: xAPIC-mode vCPUs with an LDR, cluster model.
	uint32_t log_multi;	 ///< Internal: LDRs naming several logical IDs.
	uint32_t log_aliased;	 ///< Internal: logical indexes claimed by several vCPUs.
	uint16_t log_claims[64]; ///< Internal: claimants per logical table index.
	uint32_t nr_vcpus;	 ///< Internal: vCPUs created.
	struct virq_avic_registry *registry;  ///< Internal: registry holding the VM, or NULL.
	struct virq_avic_vm_raw_counters cnt; ///< Internal: VM-wide counters.
	uint64_t doorbell_ns;		      ///< Internal: calibrated doorbell cost.
	uint64_t kick_ns;		      ///< Internal: calibrated kick cost.
};

/**
 * @brief Creates a VM's AVIC tables (zeroed physical and logical APIC ID tables).
 *
 * Allocates one page for xAVIC/x2AVIC tables or 32 KiB contiguous for 4K
 * x2AVIC, one logical table page, and one block for the internal maps.
 * On erratum-1235 parts IPI virtualization is disabled (IsRunning never set).
 *
 * @param vm   Caller storage, overwritten.
 * @param hal  HAL with MSR, CPUID and kick callbacks.
 * @param caps Probed capabilities (virq_avic_caps_probe()).
 * @param cfg  Parameters.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL, bad policy/mode); ::LIBVIRQ_ENOTSUP when the caps
 *         lack AVIC or the mode; ::LIBVIRQ_ERANGE (max_vcpus 0 or above the mode's table,
 *         vm_id > 0xFFFFF, apic_bar >= 2^52); ::LIBVIRQ_EALIGN (apic_bar); ::LIBVIRQ_ENOMEM;
 *         ::LIBVIRQ_EBUSY when @p vm holds a live VM (initialising it again would leak its
 *         tables; storage may be zeroed, never initialised or destroyed); HAL check
 *         errors. On failure nothing stays allocated. Each failure logs one debug line
 *         naming the check (docs/avic.md "Errors").
 * Allocates the physical table (one page, or 32 KiB for 4K x2AVIC), one logical
 * table page and one block for the maps, sized by @c max_vcpus: a vCPU-by-index
 * array, an APIC-ID map of 2 x @c max_vcpus (rounded up to a power of two)
 * 4-byte slots and the xAPIC logical index (72 bitmaps of @c max_vcpus bits
 * and 72 summary words): 28 KiB for 1,024 vCPUs in any mode.
 * Thread-safety: the caller owns @p vm exclusively. Spec: APM Vol 2 rev 3.44 §15.29.5 (tables).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_init(struct virq_avic_vm *vm,
						 const struct virq_hal *hal,
						 const struct virq_avic_caps *caps,
						 const struct virq_avic_vm_cfg *cfg);
/**
 * @brief Frees a VM's tables. All its vCPUs must have been destroyed.
 * @param vm The VM (NULL ignored).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EBUSY when vCPUs remain or the VM is in a GA-tag
 *         registry (nothing freed); ::LIBVIRQ_EINVAL when never initialised or already
 *         destroyed. Afterwards every function given @p vm returns ::LIBVIRQ_EINVAL.
 * Thread-safety: exclusive; no post or lookup may run concurrently.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_destroy(struct virq_avic_vm *vm);

/**
 * @brief Sets the doorbell/kick policy; takes effect at each vCPU's next load.
 * @param vm VM. @param policy New policy.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL.
 * Thread-safety: VM lock.
 * Spec: none (software policy; doorbell register per APM Vol 2 rev 3.44 §15.29.8.2).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_set_policy(struct virq_avic_vm *vm,
						       enum virq_avic_policy policy);
/**
 * @brief Returns the current policy.
 * @param vm VM. @return The policy.
 * Thread-safety: any context.
 * Spec: none (software policy).
 */
enum virq_avic_policy virq_avic_vm_policy(const struct virq_avic_vm *vm);

/**
 * @brief Chooses the policy by timing doorbell writes against kicks on the HAL clock.
 *
 * Performs @p rounds doorbell writes to @p self_host_apic_id (harmless: no
 * guest runs on the calling CPU) and @p rounds kicks of @p cookie (a vCPU
 * that tolerates a spurious kick), compares the mean costs - the kick's
 * plus the configured @c kick_exit_ns, which the kicked running target pays
 * - and sets the policy to the cheaper (doorbell on a tie). The costs are
 * kept (virq_avic_vm_calibration(); the kick cost includes @c kick_exit_ns).
 * A clock that runs backwards gives a cost of 0, never a wrapped value.
 *
 * @param vm VM. @param self_host_apic_id APIC ID of the calling CPU (0..0xFFF).
 * @param cookie Kick cookie. @param rounds 1..64.
 * @param chosen Optional; receives the chosen policy.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL; ::LIBVIRQ_ERANGE (APIC ID, rounds);
 *         ::LIBVIRQ_EHW when a doorbell write faults (policy set to kick).
 * Thread-safety: VM lock. Cost: 2 × @p rounds HAL calls.
 * Spec: none (software policy; doorbell register per APM Vol 2 rev 3.44 §15.29.8.2).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_calibrate(struct virq_avic_vm *vm,
						      uint32_t self_host_apic_id, void *cookie,
						      uint32_t rounds,
						      enum virq_avic_policy *chosen);
/**
 * @brief Returns the last calibration's mean costs in ns (0 before any calibration).
 * @param vm VM. @param doorbell_ns Receives doorbell cost. @param kick_ns Receives kick cost.
 * Thread-safety: VM lock.
 * Spec: none (software policy).
 */
void virq_avic_vm_calibration(const struct virq_avic_vm *vm, uint64_t *doorbell_ns,
			      uint64_t *kick_ns);

/**
 * @brief Sets an inhibit reason for the VM (idempotent).
 *
 * The VMCB values of every vCPU computed afterwards have AVIC disabled; the
 * backing pages (and their pending IRR bits) are untouched, so the
 * embedder's APIC emulation keeps using them. Each vCPU must recompute its
 * VMCB values (virq_avic_vcpu_vmcb_values()) before its next VMRUN.
 * @param vm VM. @param reason Reason.
 * The embedder's reasons and the ones the library sets itself from its tables
 * (PHYSICAL_ID_TOO_BIG, PHYSICAL_ID_ALIASED, APIC_ID_MODIFIED, LOGICAL_ID_ALIASED;
 * docs/avic.md "Inhibits the library sets") are kept apart: this call sets the
 * embedder's, virq_avic_vm_uninhibit() clears only the embedder's, and the
 * library clears its own when their condition is gone.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL, reason out of range; NESTED is per vCPU).
 * Thread-safety: any context (atomic).
 * Spec: APM Vol 2 rev 3.44 §15.29.4.1 (AVIC Enable in the VMCB); reasons mirror KVM's APICv
 * inhibits
 * (@ref avic-inhibit-reasons).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_inhibit(struct virq_avic_vm *vm,
						    enum virq_avic_inhibit reason);
/**
 * @brief Clears an inhibit reason (idempotent). Same rules as virq_avic_vm_inhibit().
 * @param vm VM. @param reason Reason.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL.
 * Thread-safety: any context (atomic).
 * Spec: as virq_avic_vm_inhibit().
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_uninhibit(struct virq_avic_vm *vm,
						      enum virq_avic_inhibit reason);
/**
 * @brief The VM's inhibit set: bit n set = reason n (::virq_avic_inhibit); 0 = active.
 *        The union of the embedder's reasons and those the library sets from its tables.
 * @param vm VM. @return The set (DISABLED for a NULL or not initialised VM).
 * Thread-safety: any context.
 * Spec: as virq_avic_vm_inhibit().
 */
uint32_t virq_avic_vm_inhibits(const struct virq_avic_vm *vm);
/**
 * @brief Name of an inhibit reason, e.g. "PHYSICAL_ID_TOO_BIG" ("?" when unknown).
 * @param reason Reason. @return Constant string.
 * Thread-safety: pure.
 * Spec: none.
 */
const char *virq_avic_inhibit_name(uint32_t reason);
/** @} */

/* ------------------------------------------------------------------------- */
/** @name vCPU
 *  @{ */

/** @brief Per-vCPU counters (statistical: concurrent posts may undercount by a few). */
struct virq_avic_vcpu_counters {
	uint64_t posts;	    ///< virq_avic_post() calls that set a new IRR bit.
	uint64_t coalesced; ///< Posts whose IRR bit was already set.
	uint64_t doorbells; ///< Doorbell MSR writes aimed at this vCPU.
	uint64_t kicks;	    ///< HAL kicks of this vCPU.
	uint64_t incomplete_ipi[LIBVIRQ_AVIC_IPI_NCAUSES]; ///< AVIC_INCOMPLETE_IPI exits taken
							   ///< by this vCPU, by
							   ///< ::virq_avic_ipi_cause.
	uint64_t noaccel_trap;				   ///< AVIC_NOACCEL trap exits.
	uint64_t noaccel_fault;				   ///< AVIC_NOACCEL fault exits.
	uint64_t noaccel_write;				   ///< AVIC_NOACCEL exits that were writes.
};

/** @brief Internal per-vCPU counters, one increment per event (read virq_avic_vcpu_counters_get()).
 */
struct virq_avic_vcpu_raw_counters {
	uint64_t db;	    ///< Internal: doorbells written for this vCPU.
	uint64_t kick;	    ///< Internal: kicks of this vCPU.
	uint64_t local;	    ///< Internal: notifications needing nothing (target on this CPU).
	uint64_t wakes;	    ///< Internal: notifications from exits and the GA log (not posts).
	uint64_t db_failed; ///< Internal: doorbell writes that faulted (then kicked).
	uint64_t coalesced; ///< Internal: posts whose IRR bit was already set.
	uint64_t incomplete_ipi[LIBVIRQ_AVIC_IPI_NCAUSES]; ///< Internal: AVIC_INCOMPLETE_IPI
							   ///< exits by cause.
	uint64_t noaccel_trap;				   ///< Internal: AVIC_NOACCEL traps.
	uint64_t noaccel_fault;				   ///< Internal: AVIC_NOACCEL faults.
	uint64_t noaccel_write;				   ///< Internal: AVIC_NOACCEL writes.
};

/** @brief vCPU creation parameters. */
struct virq_avic_vcpu_cfg {
	uint32_t index;	  ///< Dense vCPU index, 0 .. max_vcpus-1 (GA tags use it).
	uint32_t apic_id; ///< Initial APIC ID = physical table index, 0 .. VM table max index.
	void *cookie;	  ///< Passed to the HAL @c kick_vcpu.
	void *backing_va; ///< Embedder's vLAPIC page (4 KiB), or NULL to allocate one.
	uint64_t
	    backing_pa; ///< Its host-physical address (4 KiB aligned) when @c backing_va is set.
};

/** @brief Caller storage for one IOMMU IRTE attached to a vCPU (see libvirq/avic/iommu.h). */
struct virq_avic_irte_ref {
	uint32_t state;		      ///< Internal: attached or not (docs/avic.md "Object states").
	struct virq_avic_vcpu *owner; ///< Internal: vCPU it is attached to, or NULL.
	uint64_t *irte;		      ///< Internal: the 128-bit IRTE (two 64-bit words).
	struct virq_avic_irte_ref *next; ///< Internal: list link.
};

/** @brief A vCPU's AVIC state (caller storage, may be embedded; members internal). */
struct virq_avic_vcpu {
	uint32_t state;		  ///< Internal: lifecycle state (docs/avic.md "Object states").
	struct virq_avic_vm *vm;  ///< Internal: owning VM.
	uint32_t index;		  ///< Internal: vCPU index.
	uint32_t apic_id;	  ///< Internal: table index (initial APIC ID).
	uint32_t cur_apic_id;	  ///< Internal: APIC ID the guest programmed (atomic).
	void *cookie;		  ///< Internal: kick cookie.
	struct virq_page backing; ///< Internal: backing page.
	bool own_backing;	  ///< Internal: library allocated the backing page.
	uint64_t entry;		  ///< Internal: shadow of the physical table entry.
	uint32_t run;		  ///< Internal: run word read by posters (atomic).
	uint32_t host_apic_id;	  ///< Internal: last host APIC ID.
	bool loaded;		  ///< Internal: loaded on a CPU.
	bool blocking;		  ///< Internal: blocked (HLT).
	bool x2apic;		  ///< Internal: APIC in x2APIC mode (atomic).
	bool nested;		  ///< Internal: per-vCPU NESTED inhibit.
	bool last_active;	  ///< Internal: AVIC state of the last VMCB values.
	bool last_x2;		  ///< Internal: x2AVIC state of the last VMCB values.
	bool have_last;		  ///< Internal: VMCB values computed at least once.
	bool slow;		  ///< Internal: counted in the VM's slow count.
	bool too_big;		  ///< Internal: counted in the VM's too_big count.
	bool modified;		  ///< Internal: counted in the VM's id_modified count.
	bool xapic_high;	  ///< Internal: counted in the VM's xapic_high count.
	bool log_owner;		  ///< Internal: owns the logical table entry it claims.
	bool log_multi;		  ///< Internal: counted in the VM's log_multi count.
	uint8_t log_class;	  ///< Internal: 0 no LDR, 1 flat, 2 cluster (counted).
	uint32_t ldr;		  ///< Internal: xAPIC LDR (atomic).
	uint32_t dfr;		  ///< Internal: xAPIC DFR (atomic).
	int32_t log_index;	  ///< Internal: logical table index claimed, or -1.
	uint8_t lix_flat; ///< Internal: flat logical index buckets holding it (bit b: LDR bit b).
	uint64_t lix_cluster; ///< Internal: cluster buckets holding it (bit cluster * 4 + bit).
	struct virq_avic_irte_ref *irtes;	///< Internal: attached IRTEs.
	struct virq_avic_vcpu_raw_counters cnt; ///< Internal: counters.
	struct virq_hal hal; ///< Internal: the VM's HAL, kept when destroyed (failure reports).
};

/**
 * @brief Creates a vCPU: backing page, physical entry = backing PA | Valid (so
 *        broadcasts reach it at once), IsRunning 0.
 *
 * A library-allocated backing page is zeroed with the APIC ID register
 * (0x20) = apic_id[7:0] << 24 and DFR = 0xFFFFFFFF; the embedder's APIC
 * emulation initialises the other registers (version, SPIV, LVT masks) as at
 * reset. Other vCPUs see a new highest APIC ID in hardware only after they
 * recompute their VMCB values (until then IPIs to it exit and are emulated).
 *
 * @param vm VM. @param vcpu Caller storage, overwritten. @param cfg Parameters.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE (index >= max_vcpus,
 *         apic_id > the VM's table max index — nothing is written
 *         (@ref avic-apic-id-bounds),
 *         backing_pa >= 2^52); ::LIBVIRQ_EALIGN (backing page);
 *         ::LIBVIRQ_EEXIST (index or APIC ID already used); ::LIBVIRQ_ENOMEM;
 *         ::LIBVIRQ_EBUSY when @p vcpu holds a live vCPU; ::LIBVIRQ_EINVAL for a VM that is
 *         not initialised.
 * Thread-safety: VM lock.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2 (physical APIC ID table entry), §15.29.5.1 (backing page).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_init(struct virq_avic_vm *vm,
						   struct virq_avic_vcpu *vcpu,
						   const struct virq_avic_vcpu_cfg *cfg);
/**
 * @brief Destroys a vCPU: invalidates its table entries and frees a library backing page.
 * @param vcpu vCPU (NULL ignored).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EBUSY when loaded or IRTEs are attached (nothing changed);
 *         ::LIBVIRQ_EINVAL when never initialised or already destroyed. Afterwards every
 *         function given @p vcpu returns ::LIBVIRQ_EINVAL (or a neutral answer).
 * Thread-safety: VM lock; no post to this vCPU may run concurrently.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2, §15.29.5.3.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_destroy(struct virq_avic_vcpu *vcpu);

/**
 * @brief The vCPU's backing page (the vLAPIC register page; 4 KiB).
 * @param vcpu vCPU. @param pa Optional; receives its host-physical address.
 * @return Its virtual address; NULL (and *@p pa = 0) for a vCPU that is not live.
 * Thread-safety: any context.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.1 (vAPIC backing page).
 */
void *virq_avic_vcpu_backing(const struct virq_avic_vcpu *vcpu, uint64_t *pa);

/**
 * @brief Switches the vCPU's APIC between xAPIC and x2APIC mode.
 *
 * Entering x2APIC: the logical table entry is dropped, LDR becomes the
 * derived x2APIC LDR and the ID register the 32-bit x2APIC ID (both written
 * to the backing page, 0xD0 and 0x20). Leaving: LDR is reset to 0 and the ID
 * register holds ID[7:0] << 24. Either way the vCPU gets its initial APIC ID back:
 * the x2APIC ID is read-only and equals it, and leaving x2APIC mode goes
 * through the disabled state (DFR back to flat). An xAPIC-mode vCPU with APIC ID > 0xFE inhibits
 * the VM (PHYSICAL_ID_TOO_BIG; it cannot be addressed in xAPIC form) and is resolved by its 8-bit
 * alias in emulation (@ref avic-apic-id-bounds).
 * @param vcpu vCPU. @param x2apic New mode.
 * On a VM without x2AVIC (xAVIC mode) an x2APIC-mode vCPU runs "hybrid": AVIC stays
 * enabled for IRR posting and doorbells, X2APIC_MODE is not set and the embedder
 * intercepts every x2APIC MSR.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINHIBITED when the switch was made and newly
 *         inhibited the VM (PHYSICAL_ID_TOO_BIG): make every vCPU recompute its
 *         VMCB values before its next VMRUN; ::LIBVIRQ_EINVAL.
 * Thread-safety: VM lock.
 * Spec: APM Vol 2 rev 3.44 §15.29.10 (x2AVIC); x2APIC LDR per Intel SDM Vol 3A §11.12.10.2
 * (@ref apic-x2apic-logical).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_set_x2apic(struct virq_avic_vcpu *vcpu, bool x2apic);

/**
 * @brief Sets or clears the per-vCPU NESTED inhibit.
 *
 * Call with @p nested true before the VMRUN that enters L2: from this call on
 * posts kick the vCPU instead of ringing the doorbell, its physical entry has
 * IsRunning 0 (other vCPUs' IPIs exit TARGET_NOT_RUNNING and are kicked) and
 * its IRTEs request GA log interrupts (the L2 VMCB has no AVIC, so a doorbell
 * would be ignored). Check virq_avic_vcpu_pending() after it for L1
 * interrupts posted before. After clearing it, all three return to normal
 * with the next virq_avic_vcpu_vmcb_values().
 * @param vcpu vCPU. @param nested True while the vCPU runs a nested guest.
 * Thread-safety: vCPU owner; concurrent with posts.
 * Spec: none (per-vCPU inhibit; doorbell per APM Vol 2 rev 3.44 §15.29.8.2).
 */
void virq_avic_vcpu_set_nested(struct virq_avic_vcpu *vcpu, bool nested);

/**
 * @brief True when AVIC is active for this vCPU (no VM inhibit, not nested).
 * @param vcpu vCPU. @param why Optional; receives the inhibit set (bit NESTED included).
 * @return True when active.
 * Thread-safety: any context.
 * Spec: as virq_avic_vm_inhibit().
 */
bool virq_avic_vcpu_active(const struct virq_avic_vcpu *vcpu, uint32_t *why);

/** @brief The VMCB control-area values for a vCPU (APM Vol 2 rev 3.44 Appendix B, Table B-1). */
struct virq_avic_vmcb_values {
	uint32_t int_ctl_set;	 ///< int_ctl (0x60) bits to set.
	uint32_t int_ctl_clear;	 ///< int_ctl bits to clear (AVIC_ENABLE | X2APIC_MODE).
	uint64_t apic_bar;	 ///< 0x98: AVIC_APIC_BAR (bits 51:12).
	uint64_t backing_page;	 ///< 0xE0: backing page PA.
	uint64_t logical_table;	 ///< 0xF0: logical table PA.
	uint64_t physical_table; ///< 0xF8: physical table PA | max index (11:0); max index 0 when
				 ///< inactive.
	uint32_t clean_clear;	 ///< Clean bits (0xC0) to clear: AVIC (bit 11) and INTR (bit 3).
	bool active;		 ///< AVIC enabled in these values.
	bool tlb_flush;		 ///< Activation or x2AVIC state changed: flush the guest ASID.
};

/**
 * @brief Computes the VMCB values for the vCPU's current state.
 *
 * Max index = min(highest APIC ID in use, 0xFE for an xAPIC-mode vCPU or the
 * VM's table max for x2APIC mode). Also records whether posts may use the
 * doorbell (only while these values enable AVIC) and sets the physical entry's
 * IsRunning and the attached IRTEs to match (IsRunning / IsRun only with AVIC,
 * else GALogIntr), so call it after
 * virq_avic_vcpu_load() and before VMRUN whenever inhibits or the APIC mode
 * changed. When the values disable AVIC, posters and the IOMMU (through the
 * GA log) kick the vCPU from then on, and the embedder's APIC emulation
 * injects from the IRR (the backing page) after this call, before VMRUN.
 * @param vcpu vCPU. @param out Receives the values.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL.
 * Thread-safety: vCPU owner. Spec: APM Vol 2 rev 3.44 §15.29.4, Appendix B.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_vmcb_values(struct virq_avic_vcpu *vcpu,
							  struct virq_avic_vmcb_values *out);
/**
 * @brief Writes VMCB values at their architectural offsets into a raw 4 KiB VMCB
 *        (little endian): read-modify-write of int_ctl, the four pointers, and the
 *        clean bits cleared.
 * @param vmcb VMCB (4 KiB, any alignment). @param v Values.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL.
 * Thread-safety: the caller owns the VMCB. Spec: APM Vol 2 rev 3.44 Appendix B, Table B-1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vmcb_write(void *vmcb,
						    const struct virq_avic_vmcb_values *v);

/**
 * @brief Loads the vCPU on the calling CPU (schedule-in).
 *
 * Publishes host APIC ID (and IsRunning unless IPI virtualization is off or
 * the vCPU runs without AVIC: last VMCB values inactive, or nested) in the
 * physical table, updates attached IRTEs (IsRun = 1, destination),
 * then makes the vCPU visible as running to posters. If the vCPU is blocking,
 * only the host APIC ID is recorded (it stays not running until unblock).
 * @param vcpu vCPU. @param host_apic_id APIC ID of the calling CPU, 0..0xFFF.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL; ::LIBVIRQ_ERANGE (host_apic_id; nothing changed);
 *         ::LIBVIRQ_EBUSY when already loaded.
 * Thread-safety: vCPU owner; concurrent with posts.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2 (IsRunning, host physical APIC ID).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_load(struct virq_avic_vcpu *vcpu,
						   uint32_t host_apic_id);
/**
 * @brief Puts the vCPU (schedule-out): not running for posters, IRTEs IsRun = 0,
 *        IsRunning cleared (host APIC ID kept). Idempotent.
 * @param vcpu vCPU.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL.
 * Thread-safety: vCPU owner; concurrent with posts.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2 (IsRunning).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_put(struct virq_avic_vcpu *vcpu);
/**
 * @brief Marks the vCPU blocking (HLT): put + IRTEs GALogIntr = 1.
 *
 * After it returns the caller MUST check virq_avic_vcpu_pending() before
 * sleeping: a post that raced with the put is visible there (its poster
 * kicks as well).
 * @param vcpu vCPU. @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL.
 * Thread-safety: vCPU owner.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2 (IsRunning).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_block(struct virq_avic_vcpu *vcpu);
/**
 * @brief Ends blocking and loads the vCPU on @p host_apic_id.
 * @param vcpu vCPU. @param host_apic_id Calling CPU's APIC ID.
 * @return As virq_avic_vcpu_load().
 * Thread-safety: vCPU owner.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2 (IsRunning).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vcpu_unblock(struct virq_avic_vcpu *vcpu,
						      uint32_t host_apic_id);
/**
 * @brief True when the backing page holds a deliverable interrupt: the highest
 *        IRR vector's priority class exceeds max(TPR class, highest ISR class).
 * @param vcpu vCPU. @param vector Optional; receives the highest IRR vector (0 if none).
 * @return True when an interrupt is deliverable.
 * Thread-safety: any context (reads with atomic loads after a full barrier).
 * Spec: APM Vol 2 rev 3.44 §16.6 (IRR, ISR, TPR/PPR priority).
 */
bool virq_avic_vcpu_pending(const struct virq_avic_vcpu *vcpu, uint8_t *vector);

/**
 * @brief Posts a fixed interrupt to a vCPU.
 *
 * Sets IRR[vector] atomically in the backing page; then, if the target runs
 * on another CPU, rings the doorbell with its host APIC ID (or kicks, per the
 * policy and whether AVIC is active for it); if it runs on @p self_host_apic_id
 * nothing more is needed (it re-enters through VMRUN, which reads the IRR);
 * otherwise kicks it. Costs one atomic (a full barrier on x86), one load of
 * the target's run word, one relaxed counter update (a load and a store of a
 * per-vCPU statistic) and at most one doorbell write or kick. Never loses an
 * interrupt (see the ordering argument in src/avic/run.c).
 * @param vcpu Target: a live vCPU (a NULL, destroyed or never-initialised one is refused
 *        with one load and compare). @param vector 16..255.
 * @param self_host_apic_id APIC ID of the calling CPU, or ::LIBVIRQ_AVIC_NO_CPU. The
 *        caller must stay on that CPU until the call returns (no migration): a
 *        target found running on it is not notified (that CPU is in the host
 *        and re-enters through VMRUN).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (not a live vCPU); ::LIBVIRQ_ERANGE (vector < 16);
 * ::LIBVIRQ_EHW when the doorbell write faulted (the vCPU was kicked instead; the interrupt is
 * pending). Thread-safety: lock-free, any CPU, concurrent with everything but the target's
 * destruction. Spec: APM Vol 2 rev 3.44 §15.29.8.2 (doorbell), §15.29.5.2 (IsRunning).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_post(struct virq_avic_vcpu *vcpu, uint32_t vector,
					      uint32_t self_host_apic_id);

/**
 * @brief Copies the vCPU's counters.
 * @param vcpu vCPU. @param out Receives the counters.
 * Thread-safety: any context (statistical snapshot).
 * Spec: none.
 */
void virq_avic_vcpu_counters_get(const struct virq_avic_vcpu *vcpu,
				 struct virq_avic_vcpu_counters *out);
/** @} */

/* ------------------------------------------------------------------------- */
/** @name Destination resolution, IPI emulation, guest APIC register writes
 *  @{ */

/**
 * @brief Called once per target by virq_avic_resolve().
 * @param arg Caller argument. @param target The target vCPU.
 */
typedef void (*virq_avic_target_fn)(void *arg, struct virq_avic_vcpu *target);

/**
 * @brief Resolves an IPI's targets, as the shared core of hardware-exit handling
 *        and of the embedder's ICR emulation.
 *
 * Shorthands: self, all, all-but-self. Otherwise every vCPU decides by its
 * own APIC mode whether it accepts the destination (decoded with the
 * sender's mode), as KVM's kvm_apic_match_dest() does (the rules, case by
 * case: @ref avic-mixed-mode-destinations):
 * - physical: an x2APIC-mode vCPU accepts 0xFFFFFFFF and its x2APIC ID; an
 *   xAPIC-mode vCPU accepts 0xFF (its broadcast, from any sender), a
 *   destination above 0xFF equal to its initial APIC ID (hotplug rule), and
 *   otherwise its 8-bit xAPIC ID (so aliases all accept,
 *   @ref avic-apic-id-bounds);
 * - logical: an x2APIC-mode vCPU accepts 0xFFFFFFFF and its cluster
 *   (dest[31:16]) with a common bit in dest[15:0] (@ref apic-x2apic-logical);
 *   an xAPIC-mode vCPU accepts 0xFF and, by its own DFR: flat LDR[31:24] &
 *   dest, cluster same cluster and a common bit; another DFR model nothing.
 * Cost follows the targets: a unicast physical destination is O(1) through
 * the APIC-ID map (while no xAPIC ID was changed); a logical one other than
 * a broadcast is O(1) per named ID for x2APIC-mode vCPUs and, for
 * xAPIC-mode ones, O(targets + one word per 64 vCPUs holding one) through
 * the logical index kept in step with LDR/DFR writes, mode switches and
 * hot-plug (docs/avic.md "Destination resolution"); broadcasts look at
 * every vCPU. Lowest priority: one target, the match with the
 * lowest TPR (ties: lowest index); a physical 0xFF with lowest priority is
 * delivered as fixed. Targets are reported at most once, in no particular
 * order.
 * @param vm VM. @param sender Sending vCPU (for shorthands; may be NULL with none).
 * @param icr Decoded ICR (dest decoded with the sender's mode).
 * @param fn Called per target (may be NULL to count only). @param arg For @p fn.
 * @param count Optional; receives the number of targets.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL or uninitialised VM, NULL icr, a sender that is
 *         not a live vCPU of @p vm, shorthand self/all-but-self without sender).
 * Thread-safety: any context; concurrent with VM-wide changes (atomic loads).
 * Spec: APM Vol 2 rev 3.44 §16.5 (interprocessor interrupts), §15.29.6.1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_resolve(struct virq_avic_vm *vm,
						 struct virq_avic_vcpu *sender,
						 const struct virq_avic_icr *icr,
						 virq_avic_target_fn fn, void *arg,
						 uint32_t *count);

/** @brief Embedder callbacks for interrupts the library cannot post into an IRR. */
struct virq_avic_deliver_ops {
	/**
	 * Delivers SMI, NMI, INIT, SIPI or ExtINT (@p mode, ::virq_avic_apic_dm) with
	 * @p vector (SIPI page) to @p target. May be NULL: such IPIs are then
	 * not delivered and the call reports ::LIBVIRQ_ENOTSUP.
	 */
	void (*deliver)(void *arg, struct virq_avic_vcpu *target, enum virq_avic_apic_dm mode,
			uint8_t vector);
	void *arg; ///< Passed to @c deliver.
};

/**
 * @brief Emulates a complete ICR write by @p sender (the slow path).
 *
 * Fixed and lowest-priority: the vector is posted to each target (level
 * triggered also sets TMR); vectors < 16 are ignored as the APIC does (ESR not
 * modelled). Other modes go to @p ops->deliver; a level-triggered INIT
 * de-assert is a no-op. Finally clears the delivery-status (BUSY, ICR[12])
 * bit in the sender's backing page.
 * @param sender Sending vCPU (must be loaded on the calling CPU or not running).
 * @param icr_raw 64-bit ICR. @param ops Delivery callbacks (may be NULL).
 * @param count Optional; receives the number of targets reached.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL; ::LIBVIRQ_ENOTSUP (special IPI and no callback).
 * Thread-safety: sender's owner; concurrent with posts and other senders.
 * Spec: APM Vol 2 rev 3.44 §16.5 (ICR), §16.6.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_emulate_icr(struct virq_avic_vcpu *sender,
						     uint64_t icr_raw,
						     const struct virq_avic_deliver_ops *ops,
						     uint32_t *count);

/** @brief What an exit handler did and what remains for the embedder. */
enum virq_avic_action {
	LIBVIRQ_AVIC_ACT_DONE = 0, ///< Fully handled (resume the guest).
	LIBVIRQ_AVIC_ACT_EMULATE_WRITE =
	    1, ///< Trap write: apply the register's side effects (value in the backing page).
	LIBVIRQ_AVIC_ACT_EMULATE_ACCESS =
	    2, ///< Fault: decode and emulate the instruction (RIP not advanced).
	LIBVIRQ_AVIC_ACT_REPORT =
	    3, ///< Hardware reported an error (bad backing page, unknown cause, trap read).
};

/** @brief Result of an AVIC exit handler. */
struct virq_avic_exit_result {
	enum virq_avic_action action; ///< What remains to do.
	uint32_t targets;	      ///< Targets woken or delivered to.
	uint32_t cause;		      ///< Incomplete IPI: ::virq_avic_ipi_cause.
	uint32_t index;		      ///< Incomplete IPI: table index from EXITINFO2.
	uint32_t offset;	      ///< NOACCEL: register offset.
	bool write;		      ///< NOACCEL: write access.
	bool trap;		      ///< NOACCEL: trap (else fault).
	bool inhibited; ///< NOACCEL: this exit newly inhibited AVIC for the VM (LDR alias, APIC ID
			///< change): have every vCPU recompute its VMCB values
			///< (virq_avic_vcpu_vmcb_values()) before its next VMRUN, kicking the
			///< running ones.
	bool vector_valid; ///< NOACCEL: a (level-triggered) EOI write; @c vector holds its vector.
	uint8_t vector;	   ///< NOACCEL: EXITINFO2[7:0], the EOI's vector when @c vector_valid.
};

/**
 * @brief Handles \#VMEXIT AVIC_INCOMPLETE_IPI taken by @p sender.
 *
 * TARGET_NOT_RUNNING: the hardware already set the IRR bits and notified the
 * targets whose physical table entry has IsRunning 1 (APM Vol 2 rev 3.44 §15.29.6.1, steps 5 and
 * 6); wakes the other targets only (doorbell if running elsewhere, else kick; the sender itself is
 * skipped; @ref avic-tnr-wake). INVALID_INT_TYPE and INVALID_TARGET: emulates the whole ICR
 * (virq_avic_emulate_icr();
 * @ref avic-incomplete-ipi-causes). INVALID_VECTOR: counted, nothing else.
 * INVALID_BACKING_PAGE and unknown causes: counted in the VM's counters
 * (virq_avic_vm_counters_get()), logged at most ::LIBVIRQ_AVIC_LOG_BURST + 1
 * times per kind and VM, reported; no table is touched
 * (@ref avic-counted-events).
 * @param sender vCPU that exited (loaded on the calling CPU).
 * @param info1 EXITINFO1. @param info2 EXITINFO2. @param ops For special IPIs.
 * @param res Receives the result.
 * @return ::LIBVIRQ_OK (@c res->targets: vCPUs woken or delivered to);
 *         ::LIBVIRQ_EUNKNOWN (unknown cause) and ::LIBVIRQ_EHW (INVALID_BACKING_PAGE), both
 *         with @c res->action = ::LIBVIRQ_AVIC_ACT_REPORT; ::LIBVIRQ_EINVAL (not a live
 *         vCPU, NULL @p res); errors of virq_avic_emulate_icr().
 * Thread-safety: sender's owner. Spec: APM Vol 2 rev 3.44 §15.29.9.1, Tables 15-25 to 15-27.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_handle_incomplete_ipi(
    struct virq_avic_vcpu *sender, uint64_t info1, uint64_t info2,
    const struct virq_avic_deliver_ops *ops, struct virq_avic_exit_result *res);

/**
 * @brief Handles \#VMEXIT AVIC_NOACCEL taken by @p vcpu.
 *
 * Trap writes of LDR, DFR and APIC ID update the tables from the value now in
 * the backing page (virq_avic_ldr_write() etc.); an ICR trap write is emulated;
 * RRR is ignored; other trap writes return ::LIBVIRQ_AVIC_ACT_EMULATE_WRITE.
 * Faults return ::LIBVIRQ_AVIC_ACT_EMULATE_ACCESS. A trap read (impossible per
 * the APM) is counted (virq_avic_vm_counters_get(), logged at most
 * ::LIBVIRQ_AVIC_LOG_BURST + 1 times per VM) and returns ::LIBVIRQ_EUNKNOWN with
 * ::LIBVIRQ_AVIC_ACT_REPORT. When a table update inhibited the
 * VM, @c res->inhibited is set: the embedder then makes every vCPU recompute
 * its VMCB values before its next VMRUN.
 * @param vcpu vCPU. @param info1 EXITINFO1. @param info2 EXITINFO2.
 * @param ops For special IPIs of an ICR write. @param res Receives the result.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (not a live vCPU, NULL @p res); ::LIBVIRQ_EUNKNOWN
 *         (trap read); ::LIBVIRQ_ENOTSUP (ICR trap write of an SMI, NMI,
 *         INIT, SIPI or ExtINT without @p ops->deliver: not delivered).
 * Thread-safety: the vCPU's owner holding the VM lock (it may change tables).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_handle_noaccel(struct virq_avic_vcpu *vcpu, uint64_t info1,
							uint64_t info2,
							const struct virq_avic_deliver_ops *ops,
							struct virq_avic_exit_result *res);

/**
 * @brief Handles any \#VMEXIT code the embedder routes to AVIC: 0x401
 *        (virq_avic_handle_incomplete_ipi()) and 0x402
 *        (virq_avic_handle_noaccel()).
 *
 * Any other @p exitcode is counted in the VM's counters
 * (virq_avic_vm_counters_get(), @c unknown_exit), logged at most
 * ::LIBVIRQ_AVIC_LOG_BURST + 1 times per VM, reported with
 * ::LIBVIRQ_AVIC_ACT_REPORT and ::LIBVIRQ_EUNKNOWN; no table is touched.
 * @param vcpu vCPU that exited. @param exitcode EXITCODE (all 64 bits).
 * @param info1 EXITINFO1. @param info2 EXITINFO2. @param ops For special IPIs.
 * @param res Receives the result.
 * @return As the handler called; ::LIBVIRQ_EUNKNOWN for another exit code;
 *         ::LIBVIRQ_EINVAL (NULL or uninitialised vCPU, NULL @p res).
 * Thread-safety: as the handler called (the vCPU's owner, with the VM lock for 0x402).
 * Spec: APM Vol 2 rev 3.44 Appendix C (exit codes), §15.29.9.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_handle_exit(struct virq_avic_vcpu *vcpu, uint64_t exitcode,
						     uint64_t info1, uint64_t info2,
						     const struct virq_avic_deliver_ops *ops,
						     struct virq_avic_exit_result *res);

/**
 * @brief Events of a guest-triggerable kind the library counted instead of acting on.
 *
 * Each kind is logged at most ::LIBVIRQ_AVIC_LOG_BURST + 1 times per VM (the
 * last line says that more are only counted): any number of them logs a
 * bounded number of lines.
 */
struct virq_avic_vm_counters {
	/** AVIC_INCOMPLETE_IPI with a reserved ID, above 5 (::LIBVIRQ_EUNKNOWN). */
	uint64_t unknown_ipi_cause;
	uint64_t unknown_exit; ///< virq_avic_handle_exit() given another exit code.
	uint64_t
	    invalid_backing_page;   ///< AVIC_INCOMPLETE_IPI INVALID_BACKING_PAGE (::LIBVIRQ_EHW).
	uint64_t noaccel_trap_read; ///< AVIC_NOACCEL trap exits on a read (::LIBVIRQ_EUNKNOWN).
	/** AVIC_INCOMPLETE_IPI ID 5, Un-accelerated IPI: Secure AVIC only (::LIBVIRQ_ENOTSUP). */
	uint64_t unaccelerated_ipi;
	uint64_t log_lines_dropped; ///< Events of these kinds not logged (rate limit).
};

/** @brief Lines logged per kind of counted event and VM before only counting (then one more). */
#define LIBVIRQ_AVIC_LOG_BURST 4u

/**
 * @brief Copies the VM's event counters.
 * @param vm VM. @param out Receives the counters.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL or uninitialised VM, NULL @p out).
 * Thread-safety: any context (relaxed atomic loads).
 * Spec: none.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_vm_counters_get(const struct virq_avic_vm *vm,
							 struct virq_avic_vm_counters *out);

/**
 * @brief Guest wrote LDR (xAPIC): invalidates the entry of the old LDR, writes
 *        the new one (guest physical ID = APIC ID, Valid) when it names a single
 *        destination (@ref avic-logical-id-single-bit). Ignored (::LIBVIRQ_OK) in x2APIC mode.
 * @param vcpu vCPU. @param ldr New LDR.
 * The LDR is kept in any case (emulation matches on it). The VM is inhibited
 * (LOGICAL_ID_ALIASED) while two vCPUs claim one entry, an LDR names several
 * logical IDs, or vCPUs with a logical identity use different models (flat,
 * cluster, x2APIC); the inhibit clears when none of these holds any more, and
 * an entry its owner leaves passes to another claimant.
 * @return ::LIBVIRQ_OK (entry written); ::LIBVIRQ_ENOENT (no single destination: no
 *         entry, IPIs to it exit and are emulated); ::LIBVIRQ_EEXIST (another vCPU
 *         owns that entry: VM inhibited LOGICAL_ID_ALIASED, entry left);
 *         ::LIBVIRQ_EINVAL (not a live vCPU).
 * Thread-safety: VM lock.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.3 (logical APIC ID table).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_ldr_write(struct virq_avic_vcpu *vcpu, uint32_t ldr);
/**
 * @brief Guest wrote DFR (xAPIC): invalidates the old entry, then re-applies the LDR
 *        under the new model. Results as virq_avic_ldr_write(). A model other than
 *        flat (0xF) or cluster (0x0) is kept, as the APIC keeps it: the vCPU then
 *        accepts no logical destination and gets no entry (::LIBVIRQ_ENOENT).
 * @param vcpu vCPU. @param dfr New DFR (bits 27:0 read as ones).
 * @return As virq_avic_ldr_write().
 * Thread-safety: VM lock.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.3 (logical APIC ID table).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_dfr_write(struct virq_avic_vcpu *vcpu, uint32_t dfr);
/**
 * @brief Guest wrote its APIC ID register (@p value as in the register: xAPIC ID in
 *        31:24). The tables are NOT changed; while an xAPIC ID differs from the
 *        initial one AVIC is inhibited for the VM (APIC_ID_MODIFIED; cleared again
 *        when it is written back, as KVM d471bd853d38) and emulation resolves by
 *        the new ID.
 * @param vcpu vCPU. @param value Register value.
 * @return ::LIBVIRQ_OK when no inhibit was added; ::LIBVIRQ_EINHIBITED when the VM was
 *         newly inhibited; ::LIBVIRQ_EINVAL (not a live vCPU).
 * Thread-safety: VM lock.
 * Spec: APM Vol 2 rev 3.44 §15.29.5.2 (the physical table is indexed by the initial APIC ID).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_apic_id_write(struct virq_avic_vcpu *vcpu, uint32_t value);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_AVIC_VM_H */
