/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_pmcvirt
 * @brief AMD PMC virtualization: capabilities, the guest PMU state, VMCB slot encoders, MSR
 * mapping, event filter, MSR permission map.
 *
 * Everything but virq_pmcvirt_probe() is pure (no HAL, no state).
 * Spec: AMD64 APM Vol 2 rev 3.44 §13.2.1, §15.39 and Appendix B. Part of the PMC module;
 * include libvirq/pmcvirt.h.
 */
#ifndef LIBVIRQ_PMCVIRT_ENCODE_H
#define LIBVIRQ_PMCVIRT_ENCODE_H

#include "../status.h"
#include "../hal.h"
#include "regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/** @brief Host capabilities read through the HAL's CPUID. */
struct virq_pmcvirt_caps {
	bool svm;	       /**< Fn8000_0001 ECX[2]. */
	bool perfctr_virt;     /**< Fn8000_000A EDX[8] PerfCtrVirt. */
	bool avic;	       /**< Fn8000_000A EDX[13] AVIC. */
	bool vnmi;	       /**< Fn8000_000A EDX[25] VNMI. */
	bool perfctr_ext_core; /**< Fn8000_0001 ECX[23] PerfCtrExtCore. */
	bool perfmon_v2;       /**< Fn8000_0022 EAX[0] PerfMonV2. */
	bool irperf;	       /**< Fn8000_0008 EBX[1] IRPerf. */
	/**
	 * Core counters usable by libvirq, 1..6: NumPerfCtrCore with PerfMonV2,
	 * else 6 with PerfCtrExtCore, else 4 (K7). Capped at 6 (VMCB slots), and
	 * at 4 without PerfCtrExtCore (only the four K7 MSR pairs exist).
	 */
	uint32_t num_core_ctrs;
	/** Raw NumPerfCtrCore (0 without PerfMonV2), before the cap. */
	uint32_t num_core_ctrs_raw;
};

/**
 * @brief Reads the host PMU capabilities through the HAL's CPUID callback.
 *
 * Leaves above the CPU's extended max leaf read as zero. Implements the
 * guest counter-count rule of KVM's amd_pmu refresh
 * (@ref pmc-counter-count).
 *
 * @param hal  HAL with @c cpuid (::LIBVIRQ_HAL_NEED_CPUID).
 * @param caps Receives the capabilities (zeroed on error).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL pointers; ::LIBVIRQ_EHALVER /
 *         ::LIBVIRQ_ENOHAL from virq_hal_validate(); ::LIBVIRQ_EHW when
 *         PerfMonV2 is set but NumPerfCtrCore is 0.
 *
 * Thread-safety: reentrant; executes CPUID only.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_probe(const struct virq_hal *hal,
						  struct virq_pmcvirt_caps *caps);

/** @brief Guest PMU model (what the guest's CPUID advertises). */
struct virq_pmcvirt_guest {
	/** Counters the guest has, 1..6; at most 4 without @c ext_core. */
	uint32_t ncounters;
	/** Guest sees PerfCtrExtCore: the F15h MSRs C001_0200..020B exist. */
	bool ext_core;
	/** Guest sees PerfMonV2: the global MSRs exist (needs @c ext_core). */
	bool perfmon_v2;
	/** Guest sees IRPerf (C000_00E9). Counted only in HW mode (VMCB
	 * INSTR_RETIRED_CTR); in SW mode a software value changed only by writes. */
	bool irperf;
	/** Guest may set HostOnly/GuestOnly (it runs nested guests). */
	bool allow_hg;
	/** Guest is SEV-ES or SEV-SNP (encrypted VMSA). */
	bool sev_es;
};

/** @brief How the guest PMU is switched. */
enum virq_pmcvirt_mode {
	LIBVIRQ_PMCVIRT_MODE_HW = 1, /**< PerfCtrVirt: swapped by VMRUN/\#VMEXIT via the VMCB. */
	LIBVIRQ_PMCVIRT_MODE_SW = 2, /**< Software-switched through the PMU MSRs. */
};

/**
 * @brief Flag: accept AVIC without VNMI for guest PMI delivery in
 * ::LIBVIRQ_PMCVIRT_MODE_HW (the rule of AMD's Nov 2025 RFC, posted, not
 * merged). Default: VNMI is required (@ref pmc-vnmi-required).
 */
#define LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY 0x1u
/** @brief Flag: in ::LIBVIRQ_PMCVIRT_MODE_HW do not set int_ctl.V_NMI_ENABLE
 * at init (the embedder manages int_ctl itself). */
#define LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP 0x2u
/**
 * @brief Flag (::LIBVIRQ_PMCVIRT_MODE_SW only): lazy switching. The guest PMU
 * stays in the MSRs across \#VMEXIT (its event selects are GuestOnly, so the
 * counters stop in host mode by themselves) and is saved only when the host
 * needs the PMU (virq_pmcvirt_host_restore()), or guest PMU state is read or
 * written through the library; a steady-state world switch then makes no
 * MSR access. For embedders whose host does not use the PMU between exits.
 */
#define LIBVIRQ_PMCVIRT_F_LAZY 0x4u

/**
 * @brief Checks a guest PMU model for consistency.
 *
 * @param guest The model.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL when NULL, when @c perfmon_v2 is set
 *         without @c ext_core; ::LIBVIRQ_ERANGE when @c ncounters is 0, above
 *         6, or above 4 without @c ext_core.
 *
 * Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_guest_check(const struct virq_pmcvirt_guest *guest);

/**
 * @brief Decides whether @p mode can run @p guest on a host with @p caps.
 *
 * ::LIBVIRQ_PMCVIRT_MODE_HW needs PerfCtrVirt, PerfMonV2 and VNMI (or AVIC
 * with ::LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY), and a guest that is not SEV-ES/SNP
 * (its save area is encrypted, so no state sync is possible;
 * @ref pmc-sev-refused).
 * Both modes need @c guest->ncounters <= @c caps->num_core_ctrs.
 *
 * @param caps  Host capabilities from virq_pmcvirt_probe().
 * @param guest Guest model (checked with virq_pmcvirt_guest_check()).
 * @param mode  Mode to check.
 * @param flags LIBVIRQ_PMCVIRT_F_* flags (::LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY,
 *              ::LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP, ::LIBVIRQ_PMCVIRT_F_LAZY) or 0.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL, an unknown mode or flag,
 *         ::LIBVIRQ_PMCVIRT_F_LAZY with a mode other than
 *         ::LIBVIRQ_PMCVIRT_MODE_SW, or an inconsistent guest; ::LIBVIRQ_ERANGE when the guest has
 * more counters than the host; ::LIBVIRQ_ENOTSUP when the host lacks PerfCtrVirt, PerfMonV2, SVM,
 * or VNMI (and AVIC is not accepted);
 *         ::LIBVIRQ_EINHIBITED for an SEV-ES/SEV-SNP guest in HW mode.
 *
 * Thread-safety: pure. Spec: APM Vol 2 rev 3.44 §15.39 (what the hardware-switched
 * mode requires); the capabilities are those virq_pmcvirt_probe() reads.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_mode_check(const struct virq_pmcvirt_caps *caps,
						       const struct virq_pmcvirt_guest *guest,
						       enum virq_pmcvirt_mode mode, uint32_t flags);

/* ------------------------------------------------------------------ */
/** @brief The VMCB PMU fields, in offset order. */
enum virq_pmcvirt_field {
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTL0 = 0,	   /**< 0x4E0. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR0,	   /**< 0x4E8. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTL1,	   /**< 0x4F0. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR1,	   /**< 0x4F8. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTL2,	   /**< 0x500. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR2,	   /**< 0x508. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTL3,	   /**< 0x510. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR3,	   /**< 0x518. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTL4,	   /**< 0x520. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR4,	   /**< 0x528. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTL5,	   /**< 0x530. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR5,	   /**< 0x538. */
	LIBVIRQ_PMCVIRT_FIELD_INSTR_RETIRED_CTR,   /**< 0x5C0. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR_GLOBAL_STS, /**< 0x5C8. */
	LIBVIRQ_PMCVIRT_FIELD_PERF_CTR_GLOBAL_CTL, /**< 0x5D0. */
	LIBVIRQ_PMCVIRT_FIELD_COUNT		   /**< Number of fields. */
};

/**
 * @brief Describes one VMCB PMU field.
 *
 * @param field  A field below ::LIBVIRQ_PMCVIRT_FIELD_COUNT.
 * @param name   Receives the APM name ("PERF_CTL0", ..., "PERF_CTR_GLOBAL_CTL"); may be NULL.
 * @param offset Receives the absolute VMCB offset in bytes; may be NULL.
 * @param width  Receives the width in bytes (8, or 4 for GLOBAL_CTL); may be NULL.
 * @return ::LIBVIRQ_OK or ::LIBVIRQ_ERANGE for an unknown field.
 *
 * Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_field_info(enum virq_pmcvirt_field field,
						       const char **name, uint32_t *offset,
						       uint32_t *width);

/** @brief Decoded class of a 64-bit EXITCODE. */
enum virq_pmcvirt_exit_kind {
	LIBVIRQ_PMCVIRT_EXIT_NORMAL = 0,      /**< An ordinary intercept code (0..0x7FFFFFFF). */
	LIBVIRQ_PMCVIRT_EXIT_INVALID = 1,     /**< VMEXIT_INVALID (-1): invalid guest state. */
	LIBVIRQ_PMCVIRT_EXIT_INVALID_PMC = 2, /**< VMEXIT_INVALID_PMC (-4): invalid PMC state. */
};

/**
 * @brief Classifies an EXITCODE, always as the full 64-bit value.
 *
 * 0xFFFFFFFF_FFFFFFFC is VMEXIT_INVALID_PMC; 0x00000000_FFFFFFFC is not
 * (a truncated code) and is reported as unknown.
 *
 * @param exitcode VMCB EXITCODE (offset 0x070), 64 bits.
 * @param kind     Receives the class.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL when @p kind is NULL; ::LIBVIRQ_EUNKNOWN for
 *         any other code with bit 31 or above set.
 *
 * Thread-safety: pure. Spec: APM Vol 2 rev 3.44 Table C-1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_exit_decode(uint64_t exitcode,
							enum virq_pmcvirt_exit_kind *kind);

/* ------------------------------------------------------------------ */
/** @brief Guest PMU state: the values the guest sees. */
struct virq_pmcvirt_state {
	uint64_t perf_ctl[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< Event selects as the guest wrote them. */
	uint64_t perf_ctr[LIBVIRQ_PMCVIRT_NR_SLOTS]; /**< Counters, 48 bits. */
	uint64_t global_ctl;	/**< PerfCntrGlobalCtl (PerfMonV2 guests; bits < ncounters). */
	uint64_t global_sts;	/**< PerfCntrGlobalStatus (bits < ncounters). */
	uint64_t instr_retired; /**< IRPerfCount, 48 bits. */
};

/**
 * @brief Reads the whole guest PMU state from a raw VMCB page.
 *
 * Reads the slots of the guest's counters (others read as 0), global
 * status and INSTR_RETIRED_CTR; for a PerfMonV2 guest the global control
 * (32 bits); for other guests @c global_ctl is 0 (they have none).
 * Event selects are the raw VMCB values (possibly filtered).
 *
 * @param vmcb  4 KiB VMCB (8-byte aligned).
 * @param guest Guest model.
 * @param state Receives the state.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL or an inconsistent guest.
 *
 * Thread-safety: the caller serialises access to the VMCB (not while the vCPU runs).
 *
 * Spec: APM Vol 2 rev 3.44 Appendix B Table B-2 (PMC slots of the state-save area), Table B-3
 * (swap types).
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_load_state(const void *vmcb,
							    const struct virq_pmcvirt_guest *guest,
							    struct virq_pmcvirt_state *state);

/**
 * @brief Writes a whole guest PMU state to a raw VMCB page.
 *
 * For the VMCB of an initialised ::virq_pmcvirt_vcpu use
 * virq_pmcvirt_restore_state() instead: it also updates the vCPU's copy of
 * the event selects (unfiltered guest values, and the filtered values the
 * write-skip logic compares against), which this pure encoder cannot see.
 *
 * Writes all six pairs (slots beyond the guest's count become 0), status,
 * INSTR_RETIRED_CTR, and the global control as a dword with the reserved
 * dword above it zero: the guest's value for PerfMonV2 guests, else
 * GENMASK(ncounters-1, 0) so that the legacy counters count.
 *
 * @param vmcb  4 KiB VMCB.
 * @param guest Guest model.
 * @param state State to write; not modified.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL or an inconsistent guest;
 *         ::LIBVIRQ_ERANGE when a counter or IRPerf value exceeds 48 bits, an
 *         event select of one of the guest's counters has reserved bits set
 *         (::LIBVIRQ_PMCVIRT_EVTSEL_RSVD, or ::LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG with
 *         @c allow_hg), or a status/control bit is set at or above the
 *         guest's counter count (nothing is written then).
 *
 * Thread-safety: as virq_pmcvirt_vmcb_load_state().
 *
 * Spec: APM Vol 2 rev 3.44 Appendix B Table B-2; GLOBAL_CTL width per
 * @ref pmc-globalctl-width.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_store_state(
    void *vmcb, const struct virq_pmcvirt_guest *guest, const struct virq_pmcvirt_state *state);

/**
 * @brief Sets or clears PMC Virtualization Enable (control 0x0B8 bit 3).
 *
 * Other bits of the qword are preserved.
 *
 * @param vmcb   4 KiB VMCB.
 * @param enable New value of the bit.
 * @return ::LIBVIRQ_OK or ::LIBVIRQ_EINVAL for NULL.
 *
 * Thread-safety: as virq_pmcvirt_vmcb_load_state().
 *
 * Spec: APM Vol 2 rev 3.44 Table B-1 (control 0x0B8 bit 3), §15.39.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_enable(void *vmcb, bool enable);

/**
 * @brief Stores a full 64-bit EXITCODE (e.g. a synthesized VMRUN failure:
 * both EXITCODE and exit_code_hi become 0xFFFFFFFF for -1 / -4).
 *
 * @param vmcb     4 KiB VMCB.
 * @param exitcode Value for offset 0x070.
 * @return ::LIBVIRQ_OK or ::LIBVIRQ_EINVAL for NULL.
 *
 * Thread-safety: as virq_pmcvirt_vmcb_load_state().
 *
 * Spec: APM Vol 2 rev 3.44 Table B-1 (EXITCODE at 0x070), Table C-1 (negative codes).
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_set_exitcode(void *vmcb, uint64_t exitcode);

/* ------------------------------------------------------------------ */
/**
 * @brief The fields of a PerfEvtSeln / PERF_CTLn value (AMD64 APM Vol 2 rev 3.44 §13.2.1,
 *        Figure 13-11; ::LIBVIRQ_PMC_PERFEVTSEL_TABLE).
 */
struct virq_pmcvirt_evtsel {
	uint16_t event_select; ///< EVENT_SELECT[11:0]: bits 35:32 and 7:0 (0..0xFFF).
	uint8_t unit_mask;     ///< Bits 15:8 UNIT_MASK.
	bool usr;	       ///< Bit 16 USR: count at CPL > 0.
	bool os;	       ///< Bit 17 OS: count at CPL 0.
	bool edge;	       ///< Bit 18 EDGE: edge detect.
	bool int_en;	       ///< Bit 20 INT: interrupt on overflow.
	bool en;	       ///< Bit 22 EN: counter enable.
	bool inv;	       ///< Bit 23 INV: invert the CNT_MASK comparison.
	uint8_t cnt_mask;      ///< Bits 31:24 CNT_MASK.
	uint8_t hg_only; ///< Bits 41:40 HG_ONLY: bit 41 host, bit 40 guest (APM Vol 2 rev 3.44
			 ///< Table 13-4).
	bool prec_ret;	 ///< Bit 43 PREC_RET (PerfEvtSel2 with PreciseRetirePmc2Manual only).
};

/**
 * @brief Encodes a PerfEvtSel value.
 * @param f Fields. @param out Receives the value (reserved bits 0).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when @c event_select >
 *         0xFFF or @c hg_only > 3.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §13.2.1, Figure 13-11.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_evtsel_encode(const struct virq_pmcvirt_evtsel *f,
							  uint64_t *out);
/**
 * @brief Decodes a PerfEvtSel value.
 * @param v Value. @param f Receives the fields.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when a bit APM Vol 2 rev 3.44
 * Figure 13-11 reserves is set (19, 21, 36-39, 42, 44-63; the fields are still filled). Whenever it
 *         returns ::LIBVIRQ_OK, virq_pmcvirt_evtsel_encode() gives back exactly @p v. Which
 *         fields a guest may set is ::LIBVIRQ_PMCVIRT_EVTSEL_RSVD / _RSVD_HG.
 * Thread-safety: pure. Spec: as virq_pmcvirt_evtsel_encode().
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_evtsel_decode(uint64_t v,
							  struct virq_pmcvirt_evtsel *f);

/** @brief PerfEvtSeln (::LIBVIRQ_PMC_PERFEVTSEL_TABLE). */
extern const struct virq_amd_layout virq_pmcvirt_layout_perfevtsel;
/** @brief PerfCtrn (::LIBVIRQ_PMC_PERFCTR_TABLE). */
extern const struct virq_amd_layout virq_pmcvirt_layout_perfctr;

/* ------------------------------------------------------------------ */
/** @brief Who performs an MSR access. */
enum virq_pmcvirt_origin {
	/** The guest (intercepted RDMSR/WRMSR): strict, reserved bits are errors. */
	LIBVIRQ_PMCVIRT_GUEST = 0,
	/**
	 * The host (migration, reset): F15h indices are accepted for legacy
	 * guests and translated to the K7 counters
	 * (@ref pmc-legacy-msr-index); reserved bits of
	 * event selects are cleared and counters masked to 48 bits.
	 */
	LIBVIRQ_PMCVIRT_HOST = 1,
};

/** @brief What an MSR index refers to. */
enum virq_pmcvirt_kind {
	LIBVIRQ_PMCVIRT_KIND_CTL = 0,	     /**< Event select of counter @c idx. */
	LIBVIRQ_PMCVIRT_KIND_CTR = 1,	     /**< Counter @c idx. */
	LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL = 2, /**< PerfCntrGlobalCtl. */
	LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS = 3, /**< PerfCntrGlobalStatus (read-only to the guest). */
	LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR =
	    4, /**< PerfCntrGlobalStatusClr (writes clear status bits). */
	LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET =
	    5, /**< PerfCntrGlobalStatusSet (writes set status bits). */
	LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED = 6, /**< IRPerfCount. */
};

/** @brief Result of virq_pmcvirt_msr_map(). */
struct virq_pmcvirt_slot {
	enum virq_pmcvirt_kind kind;   /**< What the MSR is. */
	uint32_t idx;		       /**< Counter index for CTL/CTR, else 0. */
	enum virq_pmcvirt_field field; /**< The VMCB field holding the state. */
};

/**
 * @brief Maps an MSR index to the guest PMU slot it accesses.
 *
 * K7 EVNTSEL/PERFCTR 0..3 are aliases of counters 0..3 (also for guests
 * with PerfCtrExtCore; AMD's RFC patch 7/7 and Xen, posted/unverified:
 * @ref pmc-legacy-msr-index); F15h PERF_CTL/CTR 0..5 need
 * @c ext_core for guest accesses (host accesses are translated); the global
 * MSRs need @c perfmon_v2; C000_00E9 needs @c irperf. The counter index is
 * checked against @c ncounters BEFORE any translation, so an index beyond
 * the guest's count is rejected, never aliased (@ref pmc-legacy-msr-index).
 *
 * @param guest  Guest model.
 * @param msr    MSR index.
 * @param origin ::LIBVIRQ_PMCVIRT_GUEST or ::LIBVIRQ_PMCVIRT_HOST.
 * @param slot   Receives the slot.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_ENOENT when @p msr is not a PMU MSR handled
 *         here; ::LIBVIRQ_EINVAL when it is one but this guest does not have
 *         it (counter >= ncounters, F15h for a legacy guest, global MSRs
 *         without PerfMonV2, IRPerf without IRPerf), or for NULL arguments
 *         or an inconsistent guest.
 *
 * Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_map(const struct virq_pmcvirt_guest *guest,
						    uint32_t msr, enum virq_pmcvirt_origin origin,
						    struct virq_pmcvirt_slot *slot);

/**
 * @brief Lists the MSRs to save and restore for migration, in restore order
 * (event selects, counters, IRPerf, status, global control last).
 *
 * Uses F15h indices for @c ext_core guests and K7 indices otherwise; the
 * write-only STATUS_CLR/SET are not listed (status is saved as a value).
 *
 * @param guest Guest model.
 * @param msrs  Receives up to @p cap indices.
 * @param cap   Capacity of @p msrs (15 always suffices).
 * @param n     Receives the number of indices.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL or an inconsistent guest;
 *         ::LIBVIRQ_ENOSPC when @p cap is too small (@p n gets the need).
 *
 * Thread-safety: pure.
 *
 * Spec: APM Vol 2 rev 3.44 §13.2.1 (performance-counter MSRs); migration per
 * @ref pmc-sync-points.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_list(const struct virq_pmcvirt_guest *guest,
						     uint32_t *msrs, size_t cap, size_t *n);

/* ------------------------------------------------------------------ */
/** @brief One event-filter entry. */
struct virq_pmcvirt_filter_ent {
	uint16_t event;	     /**< 12-bit EventSelect (EventSelect[11:8] << 8 | [7:0]). */
	uint8_t umask_mask;  /**< UnitMask bits compared (0: any unit mask). */
	uint8_t umask_match; /**< Required value of those bits (subset of @c umask_mask). */
};

/** @brief Filter action. */
enum virq_pmcvirt_filter_action {
	LIBVIRQ_PMCVIRT_FILTER_ALLOW = 0, /**< Only listed events may count. */
	LIBVIRQ_PMCVIRT_FILTER_DENY = 1,  /**< Listed events may not count. */
};

/**
 * @brief Event filter: decides which event selects may count. A denied
 * event keeps the guest's value visible but runs with EN cleared.
 */
struct virq_pmcvirt_filter {
	enum virq_pmcvirt_filter_action action;	    /**< Allow list or deny list. */
	uint32_t nents;				    /**< Entries in @c ents, 0..256. */
	const struct virq_pmcvirt_filter_ent *ents; /**< Entries; must outlive the filter's use. */
};

/** Largest filter accepted. */
#define LIBVIRQ_PMCVIRT_FILTER_MAX 256u

/**
 * @brief Validates a filter.
 *
 * @param filter The filter.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL, NULL entries with @c nents > 0,
 *         an unknown action, or @c umask_match outside @c umask_mask;
 *         ::LIBVIRQ_ERANGE for @c nents above ::LIBVIRQ_PMCVIRT_FILTER_MAX or an
 *         event above 0xFFF.
 *
 * Thread-safety: pure.
 *
 * Spec: PerfEvtSel EventSelect/UnitMask (APM Vol 2 rev 3.44 §13.2.1); filtering policy
 * @ref pmc-eventsel.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_filter_check(const struct virq_pmcvirt_filter *filter);

/**
 * @brief True when @p filter lets the event of @p eventsel count.
 *
 * @param filter A valid filter, or NULL (everything allowed).
 * @param eventsel A PERF_CTL value (EventSelect[11:0] and UnitMask used).
 * @return The decision.
 *
 * Thread-safety: pure.
 *
 * Spec: PerfEvtSel EventSelect[11:0] and UnitMask (APM Vol 2 rev 3.44 §13.2.1).
 */
bool virq_pmcvirt_filter_allows(const struct virq_pmcvirt_filter *filter, uint64_t eventsel);

/* ------------------------------------------------------------------ */
/** @brief MSR permission-map policy for one guest (@ref pmc-msr-interception). */
struct virq_pmcvirt_msrpm_policy {
	/** Event selects: always intercepted (for filtering); must be true for
	 * virq_pmcvirt_msrpm_apply(). */
	bool intercept_ctl;
	/** Counters 0..ncounters-1 passed through (higher ones intercepted). */
	bool passthrough_ctr;
	/** Global CTL/STATUS/CLR/SET passed through (guest matches host exactly). */
	bool passthrough_global;
	/** IRPerf passed through for reads (HW mode: swapped via the VMCB). */
	bool passthrough_irperf_read;
	/** RDPMC must be intercepted (guest count differs from the host's). */
	bool intercept_rdpmc;
};

/**
 * @brief Recommends the MSRPM/RDPMC interception for a guest in a mode.
 *
 * Event selects stay intercepted; counters below the guest's count are
 * passed through; the global MSRs and RDPMC are passed through only when
 * the guest's counter count and PerfMonV2 match the host's (KVM's mediated
 * PMU policy; the host count is @c num_core_ctrs_raw when PerfMonV2 reports
 * it, so a host with more than six counters never matches: its extra
 * counters are neither swapped nor saved); IRPerf reads pass through only in HW mode (the VMCB
 * swaps INSTR_RETIRED_CTR, type A) for guests with IRPerf.
 *
 * @param caps   Host capabilities.
 * @param guest  Guest model.
 * @param mode   Mode in use.
 * @param policy Receives the policy.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL, an inconsistent guest or an
 *         unknown mode.
 *
 * Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_msrpm_recommend(
    const struct virq_pmcvirt_caps *caps, const struct virq_pmcvirt_guest *guest,
    enum virq_pmcvirt_mode mode, struct virq_pmcvirt_msrpm_policy *policy);

/**
 * @brief Position of an MSR's read-intercept bit in an 8 KiB MSRPM (the
 * write bit is the next one). Ranges: 0..1FFF at byte 0, C000_0000..1FFF
 * at 0x800, C001_0000..1FFF at 0x1000; two bits per MSR (APM Vol 2 rev 3.44 §15.11).
 *
 * @param msr  MSR index.
 * @param byte Receives the byte offset in the MSRPM.
 * @param bit  Receives the bit number (0, 2, 4, 6) of the read intercept.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL; ::LIBVIRQ_ERANGE when the MSR is
 *         outside the three ranges (always intercepted by hardware).
 *
 * Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_pmcvirt_msrpm_bit(uint32_t msr, uint32_t *byte, uint32_t *bit);

/**
 * @brief Applies a policy to the PMU MSRs of an 8 KiB MSR permission map.
 *
 * Sets (intercept) or clears (pass through) the read/write bits of the 25
 * PMU MSRs (K7 4+4, F15h 6+6, global 4, IRPerf); no other bit changes.
 * MSRs the guest does not have are intercepted.
 *
 * @param msrpm  The map (8192 bytes).
 * @param guest  Guest model.
 * @param policy From virq_pmcvirt_msrpm_recommend().
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for NULL, an inconsistent guest, or a
 *         policy with @c intercept_ctl false (event selects must stay
 *         intercepted: the library's copy is what filtering, RDMSR emulation
 *         and migration use); nothing is changed then.
 *
 * Thread-safety: the caller serialises access to @p msrpm.
 *
 * Spec: APM Vol 2 rev 3.44 §15.11 (MSR permission map); policy per
 * @ref pmc-msr-interception.
 */
LIBVIRQ_MUST_CHECK virq_status
virq_pmcvirt_msrpm_apply(uint8_t *msrpm, const struct virq_pmcvirt_guest *guest,
			 const struct virq_pmcvirt_msrpm_policy *policy);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_PMCVIRT_ENCODE_H */
