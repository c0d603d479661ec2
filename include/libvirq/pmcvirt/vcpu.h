/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_pmcvirt
 * @brief AMD PMC virtualization: the per-vCPU driver (MSR/RDPMC emulation, world switch, nested).
 *
 * Spec: APM Vol 2 rev 3.44 §15.39. Part of the PMC module; include libvirq/pmcvirt.h.
 */
#ifndef LIBVIRQ_PMCVIRT_VCPU_H
#define LIBVIRQ_PMCVIRT_VCPU_H

#include "../status.h"
#include "../hal.h"
#include "regs.h"
#include "encode.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Object states (docs/pmcvirt.md "Object states"): a vCPU is live from
 * virq_pmcvirt_vcpu_init() to virq_pmcvirt_vcpu_destroy(). Every function
 * checks it: a NULL, never-initialised (zeroed) or destroyed vCPU gives
 * ::LIBVIRQ_EINVAL, init of a live one ::LIBVIRQ_EBUSY. Every failure logs one
 * debug line naming the function and the check (HAL log callback).
 *
 * Lazy switching (::LIBVIRQ_PMCVIRT_F_LAZY): the functions that read or write
 * guest PMU state (reset, set_filter, msr_read/_write, rdpmc, emulated_event,
 * save/restore_state) and virq_pmcvirt_host_restore() first save the guest
 * PMU still in the MSRs; they can then also fail with ::LIBVIRQ_EHW when an
 * MSR access faults.
 */

/* ------------------------------------------------------------------ */
/** @brief Cache of PMU MSR values the hardware is known to hold. */
struct virq_pmcvirt_hwcache {
	uint64_t ctl[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< PERF_CTLi. */
	uint64_t ctr[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< PERF_CTRi. */
	uint64_t global_ctl;			/**< PerfCntrGlobalCtl. */
	uint64_t global_sts;			/**< PerfCntrGlobalStatus. */
	/** Valid bits: i = ctl[i], 6+i = ctr[i], 12 = global_ctl, 13 = global_sts. */
	uint32_t valid;
};

/** @brief Saved host PMU state (hardware does not preserve it: swap type C). */
struct virq_pmcvirt_host {
	uint64_t ctl[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< Host PERF_CTLi. */
	uint64_t ctr[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< Host PERF_CTRi. */
	uint64_t global_ctl;			/**< Host PerfCntrGlobalCtl. */
	uint64_t global_sts;			/**< Host PerfCntrGlobalStatus (SW mode only). */
	uint32_t n;				/**< Counters the guest can clobber. */
	uint32_t used; /**< Of those, the ones saved (bit i: counter i; restore writes them). */
	bool have_global_ctl; /**< @ref global_ctl was read (restore writes it). */
	bool have_global_sts; /**< @ref global_sts was read (restore writes it). */
	bool saved;	      /**< Between host_save and host_restore. */
};

/**
 * @brief Per-vCPU PMC virtualization object. Caller storage; treat the
 * members as private (they are public only so it can be embedded).
 */
struct virq_pmcvirt_vcpu {
	uint32_t state;			 /**< Lifecycle state (docs/pmcvirt.md "Object states"). */
	struct virq_hal hal;		 /**< HAL copy. */
	struct virq_pmcvirt_guest guest; /**< Guest model. */
	enum virq_pmcvirt_mode mode;	 /**< Switching mode. */
	uint32_t flags;			 /**< LIBVIRQ_PMCVIRT_F_* given at init. */
	uint8_t *vmcb;			 /**< VMCB (HW mode; NULL in SW mode). */
	uint32_t host_nctr;		 /**< Host core counters. */
	uint32_t host_used;	 /**< Counters the host uses (virq_pmcvirt_host_set_used()). */
	bool host_ext_core;	 /**< Host uses F15h MSR indices. */
	bool host_v2;		 /**< Host has the global MSRs. */
	bool global_passthrough; /**< Guest accesses the global MSRs directly. */
	bool in_guest;		 /**< Between enter and exit. */
	bool lazy;		 /**< ::LIBVIRQ_PMCVIRT_F_LAZY. */
	bool live;		 /**< Lazy: the guest PMU is still in the MSRs (not saved). */
	bool use_rdpmc;		 /**< The HAL has the rdpmc extension (checked at init). */
	uint32_t invalid_pmc;	 /**< VMRUNs that failed with VMEXIT_INVALID_PMC. */
	const struct virq_pmcvirt_filter *filter; /**< Event filter or NULL. */
	struct virq_pmcvirt_state st; /**< Guest-visible state (SW: all; HW: event selects). */
	uint64_t ctl_hw[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< Event selects as given to the hardware. */
	struct virq_pmcvirt_hwcache hw;		   /**< What the PMU MSRs hold. */
	struct virq_pmcvirt_host host;		   /**< Saved host PMU. */
};

/**
 * @brief Initialises a vCPU's PMC virtualization and resets its guest PMU.
 *
 * HW mode: sets VMCB 0x0B8 bit 3, sets int_ctl.V_NMI_ENABLE when the host
 * has VNMI (unless ::LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP; an AVIC-only host accepted
 * with ::LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY gets none), and writes the reset state
 * to the VMCB. No MSR is accessed. Both modes: after the reset (see
 * virq_pmcvirt_vcpu_reset()), a PerfMonV2 guest's global control is set to
 * GENMASK(ncounters-1, 0), as hardware RESET leaves PerfCntrGlobalCtl and as
 * KVM's PMU refresh writes it: software that only programs PERF_CTL then
 * counts (@ref pmc-reset-values).
 *
 * @param vcpu  Caller storage (overwritten).
 * @param hal   HAL with MSR callbacks; copied.
 * @param caps  Host capabilities from virq_pmcvirt_probe().
 * @param guest Guest model; copied.
 * @param mode  Mode (see virq_pmcvirt_mode_check()).
 * @param flags LIBVIRQ_PMCVIRT_F_* flags.
 * @param vmcb  The vCPU's 4 KiB VMCB (8-byte aligned) in HW mode. In SW mode
 *              optional (NULL allowed); when given, only its 0x0B8 bit 3
 *              (PMC Virtualization Enable) is cleared, so that a VMCB that
 *              ran in HW mode does not keep hardware switching on.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL arguments (including @p vmcb in
 *         HW mode) or an unaligned VMCB; errors of virq_hal_validate() and
 *         virq_pmcvirt_mode_check() (::LIBVIRQ_EINVAL for unknown flags,
 *         ::LIBVIRQ_ENOTSUP, ::LIBVIRQ_EINHIBITED, ::LIBVIRQ_ERANGE); ::LIBVIRQ_EBUSY
 *         when @p vcpu is live (destroy it first). On error the VMCB is untouched.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: APM Vol 2 rev 3.44 §15.39, Table B-1 (0x0B8 bit 3; int_ctl bit 26 V_NMI_ENABLE).
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vcpu_init(struct virq_pmcvirt_vcpu *vcpu,
						      const struct virq_hal *hal,
						      const struct virq_pmcvirt_caps *caps,
						      const struct virq_pmcvirt_guest *guest,
						      enum virq_pmcvirt_mode mode, uint32_t flags,
						      void *vmcb);

/**
 * @brief Ends a vCPU's PMC virtualization (the storage may then be reused).
 *
 * @param vcpu The vCPU (NULL ignored).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EBUSY between enter and exit, or while the
 *         host PMU is saved (call virq_pmcvirt_host_restore() first);
 *         ::LIBVIRQ_EINVAL when never initialised or already destroyed.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vcpu_destroy(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief vCPU reset: all six PERF_CTL/PERF_CTR, status and (PerfMonV2 guests)
 * global control become 0 (as AMD's RFC does; @ref pmc-reset-values);
 * legacy guests' effective
 * global control is GENMASK(ncounters-1, 0).
 *
 * @param vcpu An initialised vCPU, not in the guest.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL; ::LIBVIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vcpu_reset(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief Installs (or with NULL removes) an event filter and re-applies it
 * to every event select (HW mode: rewrites changed VMCB PERF_CTL slots).
 *
 * @param vcpu   An initialised vCPU, not in the guest.
 * @param filter A filter (kept by pointer; must outlive its use) or NULL.
 * @return ::LIBVIRQ_OK; errors of virq_pmcvirt_filter_check(); ::LIBVIRQ_EINVAL
 *         for a NULL vCPU; ::LIBVIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: @ref pmc-eventsel, @ref pmc-sync-points (filter refresh).
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_set_filter(struct virq_pmcvirt_vcpu *vcpu,
						       const struct virq_pmcvirt_filter *filter);

/**
 * @brief Emulates an intercepted RDMSR, or reads for migration (host).
 *
 * Reads the current guest value: HW mode from the VMCB (counters, status,
 * control, IRPerf) or the software state (event selects as the guest wrote
 * them); SW mode from the software state. STATUS_CLR/SET read as 0.
 *
 * @param vcpu   An initialised vCPU, not in the guest.
 * @param msr    MSR index.
 * @param origin Who reads.
 * @param value  Receives the value.
 * @return ::LIBVIRQ_OK; errors of virq_pmcvirt_msr_map() (the caller injects
 *         \#GP for a guest access: ::LIBVIRQ_ENOENT for an MSR that is not a PMU
 *         MSR); ::LIBVIRQ_EBUSY between enter and exit; ::LIBVIRQ_EINVAL for NULL
 *         or an unknown @p origin.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: APM Vol 2 rev 3.44 §13.2.1 (PMU MSRs), §15.39; @ref pmc-legacy-msr-index.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_read(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
						     enum virq_pmcvirt_origin origin,
						     uint64_t *value);

/**
 * @brief Emulates an intercepted WRMSR, or restores for migration (host).
 *
 * Event selects: the guest value is kept; the filtered value (EN cleared
 * when the filter denies the event) goes to the VMCB (HW) or to the
 * hardware at the next enter (SW). Counters are 48 bits. STATUS_CLR/SET
 * clear/set status bits; the status itself is writable only by the host.
 * Guest writes with reserved bits set fail (inject \#GP); host writes have
 * reserved bits cleared (event selects, counters) or rejected (globals).
 *
 * @param vcpu   An initialised vCPU, not in the guest.
 * @param msr    MSR index.
 * @param origin Who writes.
 * @param value  Value written.
 * @return ::LIBVIRQ_OK; errors of virq_pmcvirt_msr_map() (::LIBVIRQ_ENOENT for an
 *         MSR that is not a PMU MSR); ::LIBVIRQ_EINVAL for NULL, an unknown
 *         @p origin, a guest write with reserved bits, a guest write to the status or a
 *         global-MSR value with bits at or above ncounters; ::LIBVIRQ_EBUSY
 *         between enter and exit. On error nothing changes.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: APM Vol 2 rev 3.44 §13.2.1 (PMU MSRs, PerfEvtSel reserved bits, 48-bit counters), §15.39;
 * @ref pmc-legacy-msr-index.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_write(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
						      enum virq_pmcvirt_origin origin,
						      uint64_t value);

/**
 * @brief Emulates an intercepted RDPMC.
 *
 * @param vcpu  An initialised vCPU, not in the guest.
 * @param ecx   Guest ECX: counter index 0..ncounters-1.
 * @param value Receives the 48-bit counter value (EDX:EAX).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for an index at or beyond the guest's
 *         count (inject \#GP) or NULL; ::LIBVIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: RDPMC (APM Vol 3 rev 3.37); @ref pmc-sync-points (intercepted RDPMC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_rdpmc(struct virq_pmcvirt_vcpu *vcpu, uint32_t ecx,
						  uint64_t *value);

/**
 * @brief Counts one event of an emulated instruction
 * (@ref pmc-sync-points).
 *
 * Every counter whose effective event select (filter applied) is enabled,
 * globally enabled, selects @p event with a unit mask covering @p umask
 * (an all-zero UnitMask matches), and counts at the given privilege level,
 * is incremented by one; a wrap to 0 sets its status bit.
 *
 * @param vcpu     An initialised vCPU, not in the guest.
 * @param event    12-bit event (e.g. 0xC0 retired instructions, 0xC2 branches).
 * @param umask    Unit mask of the event occurrence.
 * @param cpl0     True when the instruction ran at CPL 0.
 * @param pmi_mask Receives the counters that overflowed with INT set (the
 *                 caller delivers the PMI); may be NULL.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_ERANGE for an event above 0xFFF; ::LIBVIRQ_EINVAL
 *         for NULL; ::LIBVIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_emulated_event(struct virq_pmcvirt_vcpu *vcpu,
							   uint16_t event, uint8_t umask, bool cpl0,
							   uint32_t *pmi_mask);

/**
 * @brief Saves the whole guest-visible PMU state (migration source).
 *
 * @param vcpu  An initialised vCPU, not in the guest.
 * @param state Receives the state (event selects unfiltered).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL; ::LIBVIRQ_EBUSY in the guest.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: @ref pmc-sync-points (migration); slots of APM Vol 2 rev 3.44 Table B-2.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_save_state(struct virq_pmcvirt_vcpu *vcpu,
						       struct virq_pmcvirt_state *state);

/**
 * @brief Restores a whole guest PMU state (migration target).
 *
 * Validated as host writes of each MSR would be, but all-or-nothing.
 *
 * @param vcpu  An initialised vCPU, not in the guest.
 * @param state The state.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL, reserved event-select bits or
 *         global bits at or above ncounters; ::LIBVIRQ_ERANGE for counters above
 *         48 bits; ::LIBVIRQ_EBUSY in the guest. On error nothing changes.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: @ref pmc-sync-points (migration); slots of APM Vol 2 rev 3.44 Table B-2.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_restore_state(struct virq_pmcvirt_vcpu *vcpu,
							  const struct virq_pmcvirt_state *state);

/**
 * @brief Says which host counters the host uses, so that saving and handing back the
 *        host PMU touch only those.
 *
 * A counter outside @p mask is not the host's: virq_pmcvirt_host_save()
 * neither reads nor stops it and virq_pmcvirt_host_restore() does not write
 * a host value back. In HW mode it keeps what \#VMEXIT left (reset values:
 * event select 0, disabled); in SW mode restore clears the enable bit of
 * the guest event select it holds (one write, none when it is known to be
 * clear), so that no guest select counts on. The host must not rely on such a
 * counter's value, and
 * calls this again (while it owns the PMU) before it starts using another
 * one, for instance from its perf scheduler's mask of active counters
 * (Linux: the x86 PMU's `cpu_hw_events.active_mask`). Only the core counters
 * (PERF_CTL/PERF_CTR 0-5) are covered; PerfCntrGlobalCtl and, in SW mode,
 * PerfCntrGlobalStatus are saved and restored as before. The default after
 * virq_pmcvirt_vcpu_init() is every host counter: the host's whole PMU is
 * preserved, as before this call existed.
 *
 * @param vcpu An initialised vCPU whose host PMU is not saved (the host owns the PMU).
 * @param mask Bit i: the host uses counter i; bits 0 .. host counters - 1 (at most 6).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL; ::LIBVIRQ_ERANGE for a bit at or above
 *         the host's counter count; ::LIBVIRQ_EBUSY while the host PMU is saved or the
 *         vCPU is in the guest (the mask would not match what was saved).
 *
 * Thread-safety: as virq_pmcvirt_host_save().
 *
 * Spec: APM Vol 2 rev 3.44 Table B-3 (swap type C), §13.2.1 (PerfEvtSel HostOnly/GuestOnly).
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_host_set_used(struct virq_pmcvirt_vcpu *vcpu,
							  uint32_t mask);

/**
 * @brief Saves and stops the host PMU before the guest owns it.
 *
 * Host counter state is not preserved across VMRUN/\#VMEXIT in HW mode
 * (swap type C) and is overwritten by the guest's in SW mode, so the
 * embedder calls this once when the vCPU gets the PMU (vCPU load, with host
 * perf events scheduled out and the PMI masked). Reads PerfCntrGlobalCtl,
 * writes it 0, reads the host PERF_CTL/CTR of the counters the guest can
 * clobber (all host counters in HW mode, the guest's in SW mode) that the
 * host uses (virq_pmcvirt_host_set_used(); default all) and, in SW
 * mode, PerfCntrGlobalStatus. Without PerfMonV2 (SW mode) the host's
 * enabled counters are stopped by clearing EN.
 *
 * @param vcpu An initialised vCPU, not in the guest, host not saved.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EBUSY when already saved or in the guest;
 *         ::LIBVIRQ_EHW when an MSR access faults (the host state is then
 *         restored as far as it was read); ::LIBVIRQ_EINVAL for NULL.
 *
 * Thread-safety: on the CPU that will run the vCPU, preemption disabled.
 *
 * Spec: APM Vol 2 rev 3.44 Table B-3 (swap type C); @ref pmc-globalctl-before-vmrun.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_host_save(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief Restores the host PMU saved by virq_pmcvirt_host_save().
 *
 * Writes the saved PERF_CTR/PERF_CTL values the hardware does not already
 * hold (after a \#VMEXIT in HW mode nothing is assumed) of the counters the
 * host uses, disables the guest's event select in the others in SW mode (see
 * virq_pmcvirt_host_set_used()), restores the
 * status (SW mode) and writes PerfCntrGlobalCtl last. With
 * ::LIBVIRQ_PMCVIRT_F_LAZY it first saves the guest's PMU, still in the MSRs,
 * into the software state (what eager mode does at every exit): call it
 * whenever the host needs its PMU between exits, then virq_pmcvirt_host_save()
 * again before the next entry.
 *
 * @param vcpu An initialised vCPU, not in the guest, host saved.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL when nothing was saved or NULL;
 *         ::LIBVIRQ_EBUSY in the guest; ::LIBVIRQ_EHW when an MSR write faults
 *         (the remaining writes are still attempted).
 *
 * Thread-safety: as virq_pmcvirt_host_save().
 *
 * Spec: APM Vol 2 rev 3.44 Table B-3 (swap type C); @ref pmc-globalctl-before-vmrun.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_host_restore(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief World-switch hook right before VMRUN (interrupts disabled).
 *
 * HW mode: makes host PerfCntrGlobalCtl zero (else VMRUN fails with
 * VMEXIT_INVALID_PMC); one MSR write per entry, since \#VMEXIT resets it to
 * all-enabled. SW mode: loads the guest's event selects (filtered, HostOnly
 * cleared and GuestOnly forced), counters, status (via STATUS_CLR/SET) and
 * global control into the MSRs, skipping values the hardware already holds;
 * with ::LIBVIRQ_PMCVIRT_F_LAZY nothing when the MSRs still hold the guest's
 * PMU from the last exit (no MSR access).
 *
 * @param vcpu An initialised vCPU with the host PMU saved.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL or when the host PMU was not
 *         saved; ::LIBVIRQ_EBUSY when already entered; ::LIBVIRQ_EHW when an MSR
 *         write faults (do not VMRUN).
 *
 * Thread-safety: on the CPU that runs the vCPU, interrupts disabled.
 *
 * Spec: APM Vol 2 rev 3.44 §15.39, Table C-1 (VMEXIT_INVALID_PMC);
 * @ref pmc-globalctl-before-vmrun.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_enter(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief World-switch hook right after \#VMEXIT (interrupts disabled).
 *
 * HW mode: no MSR access; the guest state is in the VMCB and the host's
 * PERF_CTL/CTR/GlobalCtl hold reset values (forgotten by the cache).
 * SW mode: stops guest counting (GlobalCtl 0 on PerfMonV2 hosts), saves the
 * guest's counters (with RDPMC when the HAL has the @c rdpmc extension),
 * status and (when passed through) global control. With
 * ::LIBVIRQ_PMCVIRT_F_LAZY: no MSR access, the guest PMU stays in the MSRs
 * (its GuestOnly event selects do not count in host mode;
 * @ref pmc-lazy-switching).
 *
 * @param vcpu     The vCPU passed to virq_pmcvirt_enter().
 * @param exitcode The VMCB EXITCODE, all 64 bits.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EHW when @p exitcode is VMEXIT_INVALID_PMC: the
 *         VMRUN did not run the guest (host PerfCntrGlobalCtl was not 0, e.g.
 *         host perf re-enabled counters after the hook); the event is logged
 *         and counted, the guest PMU state is intact and the next
 *         virq_pmcvirt_enter() clears the control again, so the embedder may
 *         retry; ::LIBVIRQ_EINVAL for NULL or when not entered; ::LIBVIRQ_EHW for a
 *         faulting MSR (SW mode).
 *
 * Thread-safety: as virq_pmcvirt_enter().
 *
 * Spec: APM Vol 2 rev 3.44 Table B-3 (swap types), Table C-1; @ref pmc-exitcode-64bit.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_exit(struct virq_pmcvirt_vcpu *vcpu, uint64_t exitcode);

/* ------------------------------------------------------------------ */
/**
 * @brief Emulates the PMC part of an L1 VMRUN of L2 (HW mode, nested SVM).
 *
 * UNCERTAIN (unverified; @ref pmc-nested): modelled on nested LBR
 * virtualization and on the swap types; no published design exists.
 * - vmcb12 0x0B8 bit 3 set but the vCPU's guest model lacks PerfCtrVirt
 *   (see @p l1_has_pmc_virt): VMEXIT_INVALID is stored in vmcb12 (both
 *   halves of EXITCODE) and @p fail is set. The other 0x0B8 bits (LBR,
 *   VMSAVE/VMLOAD, IBS virtualization, reserved 63:4) are not checked here:
 *   they belong to the embedder's nested checks and never reach vmcb02
 *   through this function (only vmcb02's bit 3 is set).
 * - bit 3 set and L1's own PerfCntrGlobalCtl (vmcb01) is not zero: the
 *   hardware check is emulated, VMEXIT_INVALID_PMC is stored in vmcb12.
 * - otherwise vmcb02 gets the PMC slots of vmcb12 (bit 3 set: L2 has its own
 *   PMU) or of vmcb01 (bit 3 clear: L1's PMU keeps counting in L2), and
 *   vmcb02's bit 3 is set. vmcb12 is L1-controlled memory: its values are
 *   limited as L1's own WRMSRs would be (reserved event-select bits cleared,
 *   L0's filter applied, slots at or beyond L1's counter count zero,
 *   counters 48 bits, global status/control bits only below that count).
 *
 * @param vcpu           The L1 vCPU (HW mode; its VMCB is vmcb01).
 * @param l1_has_pmc_virt L1's CPUID advertises PerfCtrVirt.
 * @param vmcb12         L1's VMCB for L2 (guest memory, mapped).
 * @param vmcb02         The VMCB L0 runs L2 with.
 * @param fail           Receives true when the VMRUN must fail (exit to L1).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL or a vCPU not in HW mode;
 *         ::LIBVIRQ_EBUSY in the guest.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_nested_vmrun(struct virq_pmcvirt_vcpu *vcpu,
							 bool l1_has_pmc_virt, void *vmcb12,
							 void *vmcb02, bool *fail);

/**
 * @brief Emulates the PMC part of a nested \#VMEXIT from L2 to L1.
 *
 * UNCERTAIN (unverified; @ref pmc-nested). With vmcb12 bit 3 set: the L2 PMC slots go from
 * vmcb02 to vmcb12, and L1's own (host) PMU gets the swap-type-C effect:
 * vmcb01 PERF_CTL/CTR become 0 and its global control the reset value
 * GENMASK(ncounters-1, 0) (0x3F for six), which L1 must
 * clear before its next VMRUN; status and IRPerf (type A) stay. With bit 3
 * clear: counters, status, control and IRPerf go from vmcb02 back to vmcb01;
 * the event selects in vmcb01 are kept (L0 intercepts them, so a filter or
 * emulated write applied while L2 ran stays in force).
 *
 * @param vcpu   The L1 vCPU (HW mode).
 * @param vmcb12 L1's VMCB for L2.
 * @param vmcb02 The VMCB L2 ran with.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL or not HW mode; ::LIBVIRQ_EBUSY in the guest.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: none published (@ref pmc-nested); swap types of APM Vol 2 rev 3.44 Table B-3.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_nested_vmexit(struct virq_pmcvirt_vcpu *vcpu,
							  void *vmcb12, const void *vmcb02);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_PMCVIRT_VCPU_H */
