/* SPDX-License-Identifier: MIT */
/**
 * @file pmcvirt.h
 * @brief AMD PMC virtualization (PerfCtrVirt): the guest PMU in the VMCB.
 *
 * Implements AMD64 APM Vol 2 §15.39 "Performance Monitoring Counter
 * Virtualization" (rev 3.42+) and the VMCB layout of Appendix B
 * (Tables B-1 control area, B-2 state-save area, B-3 swap types).
 *
 * Two modes with one API:
 * - ::VIRQ_PMCVIRT_MODE_HW: the CPU swaps the guest's six PERF_CTL/PERF_CTR
 *   pairs, PerfCntrGlobalStatus/Ctl and IRPerfCount through the VMCB on
 *   every VMRUN/\#VMEXIT. Per world switch the library writes one MSR
 *   (host PerfCntrGlobalCtl = 0, required before VMRUN).
 * - ::VIRQ_PMCVIRT_MODE_SW: for CPUs without PerfCtrVirt; the guest PMU is
 *   loaded into and saved from the real MSRs around each VMRUN, skipping
 *   writes of values the hardware already holds.
 *
 * Layers: pure encoders over a raw VMCB page and MSR indices (no HAL, no
 * state), then the per-vCPU driver (::virq_pmcvirt_vcpu, caller storage)
 * that touches MSRs only through the HAL.
 *
 * Uncertain facts (see the fact sheet; flagged at each use):
 * - the width of PERF_CTR_GLOBAL_CTL (qword in Table B-2, dword in B-4):
 *   libvirq writes 32 significant bits and keeps 0x5D4..0x5D7 zero;
 * - the VMRUN consistency check behind VMEXIT_INVALID_PMC is known only as
 *   "host PerfCntrGlobalCtl must be zero" (RFC paraphrase, conf. B);
 * - no VMCB clean bit is documented for the PMC slots: the library never
 *   touches clean bits, and assumes the slots are loaded on every VMRUN;
 * - VNMI as a hard prerequisite comes from an unverified summary of the
 *   2026 KVM series (conf. C); the Nov 2025 RFC accepted VNMI or AVIC,
 *   available here with ::VIRQ_PMCVIRT_F_AVIC_DELIVERY;
 * - nested PMC virtualization (virq_pmcvirt_nested_vmrun()) is modelled on
 *   the LBR-virtualization precedent and the swap types (conf. C).
 */
#ifndef LIBVIRQ_PMCVIRT_H
#define LIBVIRQ_PMCVIRT_H

#include "virq_env.h"
#include "status.h"
#include "bitfield.h"
#include "hal.h"

/* ------------------------------------------------------------------ */
/** @name CPUID (APM Vol 3 Appendix E; fact sheet §1)
 * @{ */
/** Extended max-leaf function. */
#define VIRQ_PMCVIRT_CPUID_EXT_MAX 0x80000000u
/** Fn8000_0001: ECX holds PerfCtrExtCore. */
#define VIRQ_PMCVIRT_CPUID_EXT_FEAT 0x80000001u
/** Fn8000_0008: EBX holds IRPerf. */
#define VIRQ_PMCVIRT_CPUID_EXT_SIZE 0x80000008u
/** Fn8000_000A: SVM features, EDX holds PerfCtrVirt, AVIC and VNMI. */
#define VIRQ_PMCVIRT_CPUID_SVM 0x8000000Au
/** Fn8000_0022: extended performance monitoring (PerfMonV2, counter count). */
#define VIRQ_PMCVIRT_CPUID_PERFMON 0x80000022u
/** Fn8000_0001 ECX[2] SVM. */
#define VIRQ_PMCVIRT_CPUID_ECX_SVM 2, 2
/** Fn8000_0001 ECX[23] PerfCtrExtCore: six core counters at C001_020x. */
#define VIRQ_PMCVIRT_CPUID_ECX_PerfCtrExtCore 23, 23
/** Fn8000_0008 EBX[1] IRPerf: instructions-retired MSR C000_00E9. */
#define VIRQ_PMCVIRT_CPUID_EBX_IRPerf 1, 1
/** Fn8000_000A EDX[8] PerfCtrVirt. */
#define VIRQ_PMCVIRT_CPUID_EDX_PerfCtrVirt 8, 8
/** Fn8000_000A EDX[13] AVIC. */
#define VIRQ_PMCVIRT_CPUID_EDX_AVIC 13, 13
/** Fn8000_000A EDX[25] VNMI. */
#define VIRQ_PMCVIRT_CPUID_EDX_VNMI 25, 25
/** Fn8000_0022 EAX[0] PerfMonV2. */
#define VIRQ_PMCVIRT_CPUID_EAX_PerfMonV2 0, 0
/** Fn8000_0022 EBX[3:0] NumPerfCtrCore. */
#define VIRQ_PMCVIRT_CPUID_EBX_NumPerfCtrCore 3, 0
/** @} */

/* ------------------------------------------------------------------ */
/** @name VMCB control area (APM Vol 2 Table B-1)
 * @{ */
/** Size of a VMCB in bytes. */
#define VIRQ_PMCVIRT_VMCB_SIZE 4096u
/** Intercept vector 3 (32-bit) at 0x00C. */
#define VIRQ_PMCVIRT_VMCB_INTERCEPT3 0x00Cu
/** Intercept vector 3 bit 15: intercept RDPMC. */
#define VIRQ_PMCVIRT_INTERCEPT3_RDPMC 15, 15
/** Intercept vector 3 bit 28: MSR_PROT (use the MSR permission map). */
#define VIRQ_PMCVIRT_INTERCEPT3_MSR_PROT 28, 28
/** MSRPM_BASE_PA (64-bit) at 0x048. */
#define VIRQ_PMCVIRT_VMCB_MSRPM_BASE_PA 0x048u
/** int_ctl (32-bit) at 0x060. */
#define VIRQ_PMCVIRT_VMCB_INT_CTL 0x060u
/** int_ctl bit 11: V_NMI pending. */
#define VIRQ_PMCVIRT_INT_CTL_V_NMI 11, 11
/** int_ctl bit 12: V_NMI_MASK (NMI blocking). */
#define VIRQ_PMCVIRT_INT_CTL_V_NMI_MASK 12, 12
/** int_ctl bit 26: V_NMI_ENABLE. */
#define VIRQ_PMCVIRT_INT_CTL_V_NMI_ENABLE 26, 26
/** EXITCODE (64-bit) at 0x070. */
#define VIRQ_PMCVIRT_VMCB_EXITCODE 0x070u
/** Virtualization-extensions qword at 0x0B8 (Linux: virt_ext / misc_ctl2). */
#define VIRQ_PMCVIRT_VMCB_VIRT_EXT 0x0B8u
/** 0x0B8 bit 3: PMC Virtualization Enable. */
#define VIRQ_PMCVIRT_VIRT_EXT_PMC_VIRT_ENABLE 3, 3
/** 0x0B8 bits 63:4: reserved, SBZ. */
#define VIRQ_PMCVIRT_VIRT_EXT_RSVD 63, 4
/** EXITCODE VMEXIT_INVALID (-1 as a 64-bit value). */
#define VIRQ_PMCVIRT_VMEXIT_INVALID 0xFFFFFFFFFFFFFFFFull
/** EXITCODE VMEXIT_INVALID_PMC (-4 as a 64-bit value; APM Table C-1). */
#define VIRQ_PMCVIRT_VMEXIT_INVALID_PMC 0xFFFFFFFFFFFFFFFCull
/** @} */

/* ------------------------------------------------------------------ */
/** @name VMCB state-save area PMU slots (APM Vol 2 Table B-2)
 * "SA" offsets are inside the save area; "VMCB" offsets are absolute.
 * @{ */
/** Offset of the state-save area in a (non-SEV-ES) VMCB. */
#define VIRQ_PMCVIRT_VMCB_SAVE_AREA 0x400u
/** Number of PERF_CTL/PERF_CTR pairs in the save area. */
#define VIRQ_PMCVIRT_NR_SLOTS 6u
/** SA offset of PERF_CTLi (i = 0..5), qword, swap type C. */
#define VIRQ_PMCVIRT_SA_PERF_CTL(i) (0x0E0u + 0x10u * (uint32_t)(i))
/** SA offset of PERF_CTRi (i = 0..5), qword, swap type C. */
#define VIRQ_PMCVIRT_SA_PERF_CTR(i) (0x0E8u + 0x10u * (uint32_t)(i))
/** SA offset of INSTR_RETIRED_CTR (IRPerfCount), qword, swap type A. */
#define VIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR 0x1C0u
/** SA offset of PERF_CTR_GLOBAL_STS (PerfCntrGlobalStatus), qword, swap type A. */
#define VIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS 0x1C8u
/**
 * SA offset of PERF_CTR_GLOBAL_CTL (PerfCntrGlobalCtl), swap type C.
 * UNCERTAIN width: qword in Table B-2, dword in B-4; both reserve
 * 0x1D4..0x1D7, so libvirq treats it as a dword and writes the reserved
 * half as zero.
 */
#define VIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL 0x1D0u
/** Width in bytes libvirq uses for PERF_CTR_GLOBAL_CTL (see above). */
#define VIRQ_PMCVIRT_GLOBAL_CTL_WIDTH 4u
/** SA offset of CR4 (first field after the PMC block; must not move). */
#define VIRQ_PMCVIRT_SA_CR4 0x148u
/** SA offset of RSP (first field after PERF_CTR_GLOBAL_CTL). */
#define VIRQ_PMCVIRT_SA_RSP 0x1D8u
/** Absolute VMCB offset of PERF_CTLi. */
#define VIRQ_PMCVIRT_VMCB_PERF_CTL(i) (VIRQ_PMCVIRT_VMCB_SAVE_AREA + VIRQ_PMCVIRT_SA_PERF_CTL(i))
/** Absolute VMCB offset of PERF_CTRi. */
#define VIRQ_PMCVIRT_VMCB_PERF_CTR(i) (VIRQ_PMCVIRT_VMCB_SAVE_AREA + VIRQ_PMCVIRT_SA_PERF_CTR(i))
/** Absolute VMCB offset of INSTR_RETIRED_CTR. */
#define VIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR \
	(VIRQ_PMCVIRT_VMCB_SAVE_AREA + VIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR)
/** Absolute VMCB offset of PERF_CTR_GLOBAL_STS. */
#define VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS \
	(VIRQ_PMCVIRT_VMCB_SAVE_AREA + VIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS)
/** Absolute VMCB offset of PERF_CTR_GLOBAL_CTL. */
#define VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL \
	(VIRQ_PMCVIRT_VMCB_SAVE_AREA + VIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL)
/** @} */

/* Compile-time checks of the layout against APM Table B-2 (fact sheet §3, §8). */
/** @cond VIRQ_INTERNAL */
_Static_assert(VIRQ_PMCVIRT_SA_PERF_CTL(0) == 0x0E0u, "PERF_CTL0 at SA 0x0E0");
_Static_assert(VIRQ_PMCVIRT_VMCB_PERF_CTR(3) == 0x518u, "PERF_CTR3 at VMCB 0x518");
_Static_assert(VIRQ_PMCVIRT_SA_PERF_CTR(5) + 8u == 0x140u, "PMC block ends at SA 0x140");
_Static_assert(VIRQ_PMCVIRT_SA_PERF_CTR(5) + 8u <= VIRQ_PMCVIRT_SA_CR4, "PMC block below CR4");
_Static_assert(VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS == 0x5C8u, "GLOBAL_STS at 0x5C8");
_Static_assert(VIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL == 0x5D0u, "GLOBAL_CTL at 0x5D0");
_Static_assert(VIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL + 8u == VIRQ_PMCVIRT_SA_RSP,
	       "GLOBAL_CTL (incl. reserved half) ends at RSP");
_Static_assert(VIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR + 8u == VIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS,
	       "INSTR_RETIRED_CTR directly below GLOBAL_STS");
/** @endcond */

/* ------------------------------------------------------------------ */
/** @name PMU MSRs (fact sheet §4.1)
 * @{ */
/** K7 legacy PerfEvtSel i (i = 0..3). */
#define VIRQ_PMCVIRT_MSR_K7_EVNTSEL(i) (0xC0010000u + (uint32_t)(i))
/** K7 legacy PerfCtr i (i = 0..3). */
#define VIRQ_PMCVIRT_MSR_K7_PERFCTR(i) (0xC0010004u + (uint32_t)(i))
/** F15h PERF_CTLi (i = 0..5), even indices. */
#define VIRQ_PMCVIRT_MSR_F15H_PERF_CTL(i) (0xC0010200u + 2u * (uint32_t)(i))
/** F15h PERF_CTRi (i = 0..5), odd indices. */
#define VIRQ_PMCVIRT_MSR_F15H_PERF_CTR(i) (0xC0010201u + 2u * (uint32_t)(i))
/** PerfCntrGlobalStatus (read-only). */
#define VIRQ_PMCVIRT_MSR_GLOBAL_STATUS 0xC0000300u
/** PerfCntrGlobalCtl. */
#define VIRQ_PMCVIRT_MSR_GLOBAL_CTL 0xC0000301u
/** PerfCntrGlobalStatusClr (write 1 to clear). */
#define VIRQ_PMCVIRT_MSR_GLOBAL_STATUS_CLR 0xC0000302u
/** PerfCntrGlobalStatusSet (write 1 to set). */
#define VIRQ_PMCVIRT_MSR_GLOBAL_STATUS_SET 0xC0000303u
/** IRPerfCount: instructions retired (48 bits). */
#define VIRQ_PMCVIRT_MSR_IRPERF 0xC00000E9u
/** @} */

/** @name PerfEvtSel / PERF_CTLn fields (fact sheet §5.1)
 * @{ */
#define VIRQ_PMCVIRT_EVTSEL_EventSelectLo 7, 0   /**< EventSelect[7:0]. */
#define VIRQ_PMCVIRT_EVTSEL_UnitMask 15, 8       /**< UnitMask. */
#define VIRQ_PMCVIRT_EVTSEL_USR 16, 16           /**< Count at CPL > 0. */
#define VIRQ_PMCVIRT_EVTSEL_OS 17, 17            /**< Count at CPL 0. */
#define VIRQ_PMCVIRT_EVTSEL_Edge 18, 18          /**< Edge detect. */
#define VIRQ_PMCVIRT_EVTSEL_INT 20, 20           /**< APIC interrupt on overflow. */
#define VIRQ_PMCVIRT_EVTSEL_EN 22, 22            /**< Counter enable. */
#define VIRQ_PMCVIRT_EVTSEL_INV 23, 23           /**< Invert CntMask comparison. */
#define VIRQ_PMCVIRT_EVTSEL_CntMask 31, 24       /**< Counter mask. */
#define VIRQ_PMCVIRT_EVTSEL_EventSelectHi 35, 32 /**< EventSelect[11:8]. */
#define VIRQ_PMCVIRT_EVTSEL_GuestOnly 40, 40     /**< Count only in guest mode. */
#define VIRQ_PMCVIRT_EVTSEL_HostOnly 41, 41      /**< Count only in host mode. */
/** Reserved bits for a guest without SVM (KVM: 19, 21, 36..63, incl. HG). */
#define VIRQ_PMCVIRT_EVTSEL_RSVD 0xFFFFFFF000280000ull
/** Reserved bits for a guest allowed the Host/Guest-only bits (Xen's mask). */
#define VIRQ_PMCVIRT_EVTSEL_RSVD_HG 0xFFFFFCF000280000ull
/** Core counters are 48 bits wide. */
#define VIRQ_PMCVIRT_CTR_MASK 0x0000FFFFFFFFFFFFull
/** @} */

/* ------------------------------------------------------------------ */
/** @brief Host capabilities read through the HAL's CPUID. */
struct virq_pmcvirt_caps {
	bool svm;              /**< Fn8000_0001 ECX[2]. */
	bool perfctr_virt;     /**< Fn8000_000A EDX[8] PerfCtrVirt. */
	bool avic;             /**< Fn8000_000A EDX[13] AVIC. */
	bool vnmi;             /**< Fn8000_000A EDX[25] VNMI. */
	bool perfctr_ext_core; /**< Fn8000_0001 ECX[23] PerfCtrExtCore. */
	bool perfmon_v2;       /**< Fn8000_0022 EAX[0] PerfMonV2. */
	bool irperf;           /**< Fn8000_0008 EBX[1] IRPerf. */
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
 * counter-count rule of the fact sheet §1 (KVM's amd_pmu refresh rule).
 *
 * @param hal  HAL with @c cpuid (::VIRQ_HAL_NEED_CPUID).
 * @param caps Receives the capabilities (zeroed on error).
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL pointers; ::VIRQ_EHALVER /
 *         ::VIRQ_ENOHAL from virq_hal_validate(); ::VIRQ_EHW when
 *         PerfMonV2 is set but NumPerfCtrCore is 0.
 *
 * Thread-safety: reentrant; executes CPUID only.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_probe(const struct virq_hal *hal,
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
	VIRQ_PMCVIRT_MODE_HW = 1, /**< PerfCtrVirt: swapped by VMRUN/\#VMEXIT via the VMCB. */
	VIRQ_PMCVIRT_MODE_SW = 2, /**< Software-switched through the PMU MSRs. */
};

/**
 * @brief Flag: accept AVIC without VNMI for guest PMI delivery in
 * ::VIRQ_PMCVIRT_MODE_HW (the Nov 2025 RFC's rule, conf. B). Default: VNMI
 * is required (2026 series, conf. C, per the issue).
 */
#define VIRQ_PMCVIRT_F_AVIC_DELIVERY 0x1u
/** @brief Flag: in ::VIRQ_PMCVIRT_MODE_HW do not set int_ctl.V_NMI_ENABLE
 * at init (the embedder manages int_ctl itself). */
#define VIRQ_PMCVIRT_F_NO_VNMI_SETUP 0x2u

/**
 * @brief Checks a guest PMU model for consistency.
 *
 * @param guest The model.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL when NULL, when @c perfmon_v2 is set
 *         without @c ext_core; ::VIRQ_ERANGE when @c ncounters is 0, above
 *         6, or above 4 without @c ext_core.
 *
 * Thread-safety: pure.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_guest_check(const struct virq_pmcvirt_guest *guest);

/**
 * @brief Decides whether @p mode can run @p guest on a host with @p caps.
 *
 * ::VIRQ_PMCVIRT_MODE_HW needs PerfCtrVirt, PerfMonV2 and VNMI (or AVIC
 * with ::VIRQ_PMCVIRT_F_AVIC_DELIVERY), and a guest that is not SEV-ES/SNP
 * (its save area is encrypted, so no state sync is possible; §6.4).
 * Both modes need @c guest->ncounters <= @c caps->num_core_ctrs.
 *
 * @param caps  Host capabilities from virq_pmcvirt_probe().
 * @param guest Guest model (checked with virq_pmcvirt_guest_check()).
 * @param mode  Mode to check.
 * @param flags VIRQ_PMCVIRT_F_* flags (::VIRQ_PMCVIRT_F_AVIC_DELIVERY,
 *              ::VIRQ_PMCVIRT_F_NO_VNMI_SETUP) or 0.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL, an unknown mode or flag, or an
 *         inconsistent guest; ::VIRQ_ERANGE when the guest has more counters
 *         than the host; ::VIRQ_ENOTSUP when the host lacks PerfCtrVirt,
 *         PerfMonV2, SVM, or VNMI (and AVIC is not accepted);
 *         ::VIRQ_EINHIBITED for an SEV-ES/SEV-SNP guest in HW mode.
 *
 * Thread-safety: pure.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_mode_check(const struct virq_pmcvirt_caps *caps,
						    const struct virq_pmcvirt_guest *guest,
						    enum virq_pmcvirt_mode mode, uint32_t flags);

/* ------------------------------------------------------------------ */
/** @brief The VMCB PMU fields, in offset order. */
enum virq_pmcvirt_field {
	VIRQ_PMCVIRT_FIELD_PERF_CTL0 = 0,     /**< 0x4E0. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR0,         /**< 0x4E8. */
	VIRQ_PMCVIRT_FIELD_PERF_CTL1,         /**< 0x4F0. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR1,         /**< 0x4F8. */
	VIRQ_PMCVIRT_FIELD_PERF_CTL2,         /**< 0x500. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR2,         /**< 0x508. */
	VIRQ_PMCVIRT_FIELD_PERF_CTL3,         /**< 0x510. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR3,         /**< 0x518. */
	VIRQ_PMCVIRT_FIELD_PERF_CTL4,         /**< 0x520. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR4,         /**< 0x528. */
	VIRQ_PMCVIRT_FIELD_PERF_CTL5,         /**< 0x530. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR5,         /**< 0x538. */
	VIRQ_PMCVIRT_FIELD_INSTR_RETIRED_CTR, /**< 0x5C0. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR_GLOBAL_STS, /**< 0x5C8. */
	VIRQ_PMCVIRT_FIELD_PERF_CTR_GLOBAL_CTL, /**< 0x5D0. */
	VIRQ_PMCVIRT_FIELD_COUNT              /**< Number of fields. */
};

/**
 * @brief Describes one VMCB PMU field.
 *
 * @param field  A field below ::VIRQ_PMCVIRT_FIELD_COUNT.
 * @param name   Receives the APM name ("PERF_CTL0", ..., "PERF_CTR_GLOBAL_CTL"); may be NULL.
 * @param offset Receives the absolute VMCB offset in bytes; may be NULL.
 * @param width  Receives the width in bytes (8, or 4 for GLOBAL_CTL); may be NULL.
 * @return ::VIRQ_OK or ::VIRQ_ERANGE for an unknown field.
 *
 * Thread-safety: pure.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_field_info(enum virq_pmcvirt_field field,
						    const char **name, uint32_t *offset,
						    uint32_t *width);

/** @brief Decoded class of a 64-bit EXITCODE. */
enum virq_pmcvirt_exit {
	VIRQ_PMCVIRT_EXIT_NORMAL = 0,      /**< An ordinary intercept code (0..0x7FFFFFFF). */
	VIRQ_PMCVIRT_EXIT_INVALID = 1,     /**< VMEXIT_INVALID (-1): invalid guest state. */
	VIRQ_PMCVIRT_EXIT_INVALID_PMC = 2, /**< VMEXIT_INVALID_PMC (-4): invalid PMC state. */
};

/**
 * @brief Classifies an EXITCODE, always as the full 64-bit value.
 *
 * 0xFFFFFFFF_FFFFFFFC is VMEXIT_INVALID_PMC; 0x00000000_FFFFFFFC is not
 * (a truncated code) and is reported as unknown.
 *
 * @param exitcode VMCB EXITCODE (offset 0x070), 64 bits.
 * @param kind     Receives the class.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL when @p kind is NULL; ::VIRQ_EUNKNOWN for
 *         any other code with bit 31 or above set.
 *
 * Thread-safety: pure. Spec: APM Vol 2 Table C-1.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_exit_decode(uint64_t exitcode,
						     enum virq_pmcvirt_exit *kind);

/* ------------------------------------------------------------------ */
/** @brief Guest PMU state: the values the guest sees. */
struct virq_pmcvirt_state {
	uint64_t perf_ctl[VIRQ_PMCVIRT_NR_SLOTS]; /**< Event selects as the guest wrote them. */
	uint64_t perf_ctr[VIRQ_PMCVIRT_NR_SLOTS]; /**< Counters, 48 bits. */
	uint64_t global_ctl;    /**< PerfCntrGlobalCtl (PerfMonV2 guests; bits < ncounters). */
	uint64_t global_sts;    /**< PerfCntrGlobalStatus (bits < ncounters). */
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
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL or an inconsistent guest.
 *
 * Thread-safety: the caller serialises access to the VMCB (not while the vCPU runs).
 *
 * Spec: APM Vol 2 Appendix B Table B-2 (PMC slots of the state-save area); fact sheet §3.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_load_state(const void *vmcb,
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
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL or an inconsistent guest;
 *         ::VIRQ_ERANGE when a counter or IRPerf value exceeds 48 bits, an
 *         event select of one of the guest's counters has reserved bits set
 *         (::VIRQ_PMCVIRT_EVTSEL_RSVD, or ::VIRQ_PMCVIRT_EVTSEL_RSVD_HG with
 *         @c allow_hg), or a status/control bit is set at or above the
 *         guest's counter count (nothing is written then).
 *
 * Thread-safety: as virq_pmcvirt_vmcb_load_state().
 *
 * Spec: APM Vol 2 Appendix B Table B-2; fact sheet §3, §9.2 (GLOBAL_CTL width).
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_store_state(void *vmcb,
							  const struct virq_pmcvirt_guest *guest,
							  const struct virq_pmcvirt_state *state);

/**
 * @brief Sets or clears PMC Virtualization Enable (control 0x0B8 bit 3).
 *
 * Other bits of the qword are preserved.
 *
 * @param vmcb   4 KiB VMCB.
 * @param enable New value of the bit.
 * @return ::VIRQ_OK or ::VIRQ_EINVAL for NULL.
 *
 * Thread-safety: as virq_pmcvirt_vmcb_load_state().
 *
 * Spec: APM Vol 2 Table B-1 (control 0x0B8 bit 3), §15.39.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_enable(void *vmcb, bool enable);

/**
 * @brief Stores a full 64-bit EXITCODE (e.g. a synthesized VMRUN failure:
 * both EXITCODE and exit_code_hi become 0xFFFFFFFF for -1 / -4).
 *
 * @param vmcb     4 KiB VMCB.
 * @param exitcode Value for offset 0x070.
 * @return ::VIRQ_OK or ::VIRQ_EINVAL for NULL.
 *
 * Thread-safety: as virq_pmcvirt_vmcb_load_state().
 *
 * Spec: APM Vol 2 Table B-1 (EXITCODE at 0x070), Table C-1 (negative codes).
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_vmcb_set_exitcode(void *vmcb, uint64_t exitcode);

/* ------------------------------------------------------------------ */
/** @brief Who performs an MSR access. */
enum virq_pmcvirt_origin {
	/** The guest (intercepted RDMSR/WRMSR): strict, reserved bits are errors. */
	VIRQ_PMCVIRT_GUEST = 0,
	/**
	 * The host (migration, reset): F15h indices are accepted for legacy
	 * guests and translated to the K7 counters (RFC7); reserved bits of
	 * event selects are cleared and counters masked to 48 bits.
	 */
	VIRQ_PMCVIRT_HOST = 1,
};

/** @brief What an MSR index refers to. */
enum virq_pmcvirt_kind {
	VIRQ_PMCVIRT_KIND_CTL = 0,        /**< Event select of counter @c idx. */
	VIRQ_PMCVIRT_KIND_CTR = 1,        /**< Counter @c idx. */
	VIRQ_PMCVIRT_KIND_GLOBAL_CTL = 2, /**< PerfCntrGlobalCtl. */
	VIRQ_PMCVIRT_KIND_GLOBAL_STS = 3, /**< PerfCntrGlobalStatus (read-only to the guest). */
	VIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR = 4, /**< PerfCntrGlobalStatusClr (writes clear status bits). */
	VIRQ_PMCVIRT_KIND_GLOBAL_STS_SET = 5, /**< PerfCntrGlobalStatusSet (writes set status bits). */
	VIRQ_PMCVIRT_KIND_INSTR_RETIRED = 6,  /**< IRPerfCount. */
};

/** @brief Result of virq_pmcvirt_msr_map(). */
struct virq_pmcvirt_slot {
	enum virq_pmcvirt_kind kind;  /**< What the MSR is. */
	uint32_t idx;                 /**< Counter index for CTL/CTR, else 0. */
	enum virq_pmcvirt_field field; /**< The VMCB field holding the state. */
};

/**
 * @brief Maps an MSR index to the guest PMU slot it accesses.
 *
 * K7 EVNTSEL/PERFCTR 0..3 are aliases of counters 0..3 (also for guests
 * with PerfCtrExtCore; RFC7/Xen, conf. B); F15h PERF_CTL/CTR 0..5 need
 * @c ext_core for guest accesses (host accesses are translated); the global
 * MSRs need @c perfmon_v2; C000_00E9 needs @c irperf. The counter index is
 * checked against @c ncounters BEFORE any translation, so an index beyond
 * the guest's count is rejected, never aliased (CASE-17).
 *
 * @param guest  Guest model.
 * @param msr    MSR index.
 * @param origin ::VIRQ_PMCVIRT_GUEST or ::VIRQ_PMCVIRT_HOST.
 * @param slot   Receives the slot.
 * @return ::VIRQ_OK; ::VIRQ_ENOENT when @p msr is not a PMU MSR handled
 *         here; ::VIRQ_EINVAL when it is one but this guest does not have
 *         it (counter >= ncounters, F15h for a legacy guest, global MSRs
 *         without PerfMonV2, IRPerf without IRPerf), or for NULL arguments
 *         or an inconsistent guest.
 *
 * Thread-safety: pure.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_map(const struct virq_pmcvirt_guest *guest,
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
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL or an inconsistent guest;
 *         ::VIRQ_ENOSPC when @p cap is too small (@p n gets the need).
 *
 * Thread-safety: pure.
 *
 * Spec: APM Vol 2 §13.2 (performance-counter MSRs); fact sheet §4.1, §6.1 (migration).
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_list(const struct virq_pmcvirt_guest *guest,
						  uint32_t *msrs, size_t cap, size_t *n);

/* ------------------------------------------------------------------ */
/** @brief One event-filter entry. */
struct virq_pmcvirt_filter_ent {
	uint16_t event;       /**< 12-bit EventSelect (EventSelect[11:8] << 8 | [7:0]). */
	uint8_t umask_mask;   /**< UnitMask bits compared (0: any unit mask). */
	uint8_t umask_match;  /**< Required value of those bits (subset of @c umask_mask). */
};

/** @brief Filter action. */
enum virq_pmcvirt_filter_action {
	VIRQ_PMCVIRT_FILTER_ALLOW = 0, /**< Only listed events may count. */
	VIRQ_PMCVIRT_FILTER_DENY = 1,  /**< Listed events may not count. */
};

/**
 * @brief Event filter: decides which event selects may count. A denied
 * event keeps the guest's value visible but runs with EN cleared.
 */
struct virq_pmcvirt_filter {
	enum virq_pmcvirt_filter_action action; /**< Allow list or deny list. */
	uint32_t nents;                         /**< Entries in @c ents, 0..256. */
	const struct virq_pmcvirt_filter_ent *ents; /**< Entries; must outlive the filter's use. */
};

/** Largest filter accepted. */
#define VIRQ_PMCVIRT_FILTER_MAX 256u

/**
 * @brief Validates a filter.
 *
 * @param filter The filter.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL, NULL entries with @c nents > 0,
 *         an unknown action, or @c umask_match outside @c umask_mask;
 *         ::VIRQ_ERANGE for @c nents above ::VIRQ_PMCVIRT_FILTER_MAX or an
 *         event above 0xFFF.
 *
 * Thread-safety: pure.
 *
 * Spec: PerfEvtSel EventSelect/UnitMask (APM Vol 2 §13.2; fact sheet §5.1); filtering policy fact sheet §4.2.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_filter_check(const struct virq_pmcvirt_filter *filter);

/**
 * @brief True when @p filter lets the event of @p eventsel count.
 *
 * @param filter A valid filter, or NULL (everything allowed).
 * @param eventsel A PERF_CTL value (EventSelect[11:0] and UnitMask used).
 * @return The decision.
 *
 * Thread-safety: pure.
 *
 * Spec: PerfEvtSel EventSelect[11:0] and UnitMask (APM Vol 2 §13.2; fact sheet §5.1).
 */
bool virq_pmcvirt_filter_allows(const struct virq_pmcvirt_filter *filter, uint64_t eventsel);

/* ------------------------------------------------------------------ */
/** @brief MSR permission-map policy for one guest (fact sheet §4.2). */
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
 * counters are neither swapped nor saved); IRPerf reads pass through only in HW mode (the VMCB swaps
 * INSTR_RETIRED_CTR, type A) for guests with IRPerf.
 *
 * @param caps   Host capabilities.
 * @param guest  Guest model.
 * @param mode   Mode in use.
 * @param policy Receives the policy.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL, an inconsistent guest or an
 *         unknown mode.
 *
 * Thread-safety: pure.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msrpm_recommend(const struct virq_pmcvirt_caps *caps,
							 const struct virq_pmcvirt_guest *guest,
							 enum virq_pmcvirt_mode mode,
							 struct virq_pmcvirt_msrpm_policy *policy);

/**
 * @brief Position of an MSR's read-intercept bit in an 8 KiB MSRPM (the
 * write bit is the next one). Ranges: 0..1FFF at byte 0, C000_0000..1FFF
 * at 0x800, C001_0000..1FFF at 0x1000; two bits per MSR (APM §15.11).
 *
 * @param msr  MSR index.
 * @param byte Receives the byte offset in the MSRPM.
 * @param bit  Receives the bit number (0, 2, 4, 6) of the read intercept.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL; ::VIRQ_ERANGE when the MSR is
 *         outside the three ranges (always intercepted by hardware).
 *
 * Thread-safety: pure.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msrpm_bit(uint32_t msr, uint32_t *byte, uint32_t *bit);

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
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL, an inconsistent guest, or a
 *         policy with @c intercept_ctl false (event selects must stay
 *         intercepted: the library's copy is what filtering, RDMSR emulation
 *         and migration use); nothing is changed then.
 *
 * Thread-safety: the caller serialises access to @p msrpm.
 *
 * Spec: APM Vol 2 §15.11 (MSR permission map); fact sheet §4.2, §4.3.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msrpm_apply(uint8_t *msrpm,
						     const struct virq_pmcvirt_guest *guest,
						     const struct virq_pmcvirt_msrpm_policy *policy);

/* ------------------------------------------------------------------ */
/** @brief Cache of PMU MSR values the hardware is known to hold. */
struct virq_pmcvirt_hwcache {
	uint64_t ctl[VIRQ_PMCVIRT_NR_SLOTS]; /**< PERF_CTLi. */
	uint64_t ctr[VIRQ_PMCVIRT_NR_SLOTS]; /**< PERF_CTRi. */
	uint64_t global_ctl;                 /**< PerfCntrGlobalCtl. */
	uint64_t global_sts;                 /**< PerfCntrGlobalStatus. */
	/** Valid bits: i = ctl[i], 6+i = ctr[i], 12 = global_ctl, 13 = global_sts. */
	uint32_t valid;
};

/** @brief Saved host PMU state (hardware does not preserve it: swap type C). */
struct virq_pmcvirt_host {
	uint64_t ctl[VIRQ_PMCVIRT_NR_SLOTS]; /**< Host PERF_CTLi. */
	uint64_t ctr[VIRQ_PMCVIRT_NR_SLOTS]; /**< Host PERF_CTRi. */
	uint64_t global_ctl;                 /**< Host PerfCntrGlobalCtl. */
	uint64_t global_sts;                 /**< Host PerfCntrGlobalStatus (SW mode only). */
	uint32_t n;                          /**< Counters saved. */
	bool have_global_ctl;                /**< @ref global_ctl was read (restore writes it). */
	bool have_global_sts;                /**< @ref global_sts was read (restore writes it). */
	bool saved;                          /**< Between host_save and host_restore. */
};

/**
 * @brief Per-vCPU PMC virtualization object. Caller storage; treat the
 * members as private (they are public only so it can be embedded).
 */
struct virq_pmcvirt_vcpu {
	struct virq_hal hal;            /**< HAL copy. */
	struct virq_pmcvirt_guest guest; /**< Guest model. */
	enum virq_pmcvirt_mode mode;    /**< Switching mode. */
	uint32_t flags;                 /**< VIRQ_PMCVIRT_F_* given at init. */
	uint8_t *vmcb;                  /**< VMCB (HW mode; NULL in SW mode). */
	uint32_t host_nctr;             /**< Host core counters. */
	bool host_ext_core;             /**< Host uses F15h MSR indices. */
	bool host_v2;                   /**< Host has the global MSRs. */
	bool global_passthrough;        /**< Guest accesses the global MSRs directly. */
	bool in_guest;                  /**< Between enter and exit. */
	uint32_t invalid_pmc;           /**< VMRUNs that failed with VMEXIT_INVALID_PMC. */
	const struct virq_pmcvirt_filter *filter; /**< Event filter or NULL. */
	struct virq_pmcvirt_state st;   /**< Guest-visible state (SW: all; HW: event selects). */
	uint64_t ctl_hw[VIRQ_PMCVIRT_NR_SLOTS]; /**< Event selects as given to the hardware. */
	struct virq_pmcvirt_hwcache hw; /**< What the PMU MSRs hold. */
	struct virq_pmcvirt_host host;  /**< Saved host PMU. */
};

/**
 * @brief Initialises a vCPU's PMC virtualization and resets its guest PMU.
 *
 * HW mode: sets VMCB 0x0B8 bit 3, sets int_ctl.V_NMI_ENABLE when the host
 * has VNMI (unless ::VIRQ_PMCVIRT_F_NO_VNMI_SETUP; an AVIC-only host accepted
 * with ::VIRQ_PMCVIRT_F_AVIC_DELIVERY gets none), and writes the reset state
 * to the VMCB. No MSR is accessed. Both modes: after the reset (see
 * virq_pmcvirt_vcpu_reset()), a PerfMonV2 guest's global control is set to
 * GENMASK(ncounters-1, 0), as hardware RESET leaves PerfCntrGlobalCtl (PPR
 * reset value 0x3F, conf. B) and as KVM's PMU refresh writes it (RFC4 sync
 * point 3): software that only programs PERF_CTL then counts.
 *
 * @param vcpu  Caller storage (overwritten).
 * @param hal   HAL with MSR callbacks; copied.
 * @param caps  Host capabilities from virq_pmcvirt_probe().
 * @param guest Guest model; copied.
 * @param mode  Mode (see virq_pmcvirt_mode_check()).
 * @param flags VIRQ_PMCVIRT_F_* flags.
 * @param vmcb  The vCPU's 4 KiB VMCB (8-byte aligned) in HW mode. In SW mode
 *              optional (NULL allowed); when given, only its 0x0B8 bit 3
 *              (PMC Virtualization Enable) is cleared, so that a VMCB that
 *              ran in HW mode does not keep hardware switching on.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL arguments (including @p vmcb in
 *         HW mode) or an unaligned VMCB; errors of virq_hal_validate() and
 *         virq_pmcvirt_mode_check() (::VIRQ_EINVAL for unknown flags,
 *         ::VIRQ_ENOTSUP, ::VIRQ_EINHIBITED, ::VIRQ_ERANGE). On error the
 *         VMCB is untouched.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: APM Vol 2 §15.39, Table B-1 (0x0B8 bit 3; int_ctl bit 26 V_NMI_ENABLE).
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_vcpu_init(struct virq_pmcvirt_vcpu *vcpu,
						   const struct virq_hal *hal,
						   const struct virq_pmcvirt_caps *caps,
						   const struct virq_pmcvirt_guest *guest,
						   enum virq_pmcvirt_mode mode, uint32_t flags,
						   void *vmcb);

/**
 * @brief vCPU reset: all six PERF_CTL/PERF_CTR, status and (PerfMonV2 guests)
 * global control become 0 (RFC6 amd_pmu_reset); legacy guests' effective
 * global control is GENMASK(ncounters-1, 0).
 *
 * @param vcpu An initialised vCPU, not in the guest.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL; ::VIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_vcpu_reset(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief Installs (or with NULL removes) an event filter and re-applies it
 * to every event select (HW mode: rewrites changed VMCB PERF_CTL slots).
 *
 * @param vcpu   An initialised vCPU, not in the guest.
 * @param filter A filter (kept by pointer; must outlive its use) or NULL.
 * @return ::VIRQ_OK; errors of virq_pmcvirt_filter_check(); ::VIRQ_EINVAL
 *         for a NULL vCPU; ::VIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: fact sheet §4.2, §6.1 (RFC4 sync point 1, event-filter refresh).
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_set_filter(struct virq_pmcvirt_vcpu *vcpu,
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
 * @return ::VIRQ_OK; errors of virq_pmcvirt_msr_map() (the caller injects
 *         \#GP for a guest access); ::VIRQ_EBUSY between enter and exit;
 *         ::VIRQ_EINVAL for NULL.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: APM Vol 2 §13.2 (PMU MSRs), §15.39; fact sheet §4, §5; CASE-17.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_read(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
						  enum virq_pmcvirt_origin origin, uint64_t *value);

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
 * @param value  Value written.
 * @param origin Who writes.
 * @return ::VIRQ_OK; errors of virq_pmcvirt_msr_map(); ::VIRQ_EINVAL for a
 *         guest write with reserved bits, a guest write to the status or a
 *         global-MSR value with bits at or above ncounters; ::VIRQ_EBUSY
 *         between enter and exit. On error nothing changes.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: APM Vol 2 §13.2 (PMU MSRs), §15.39; fact sheet §4, §5.1 (reserved bits), §5.2 (48-bit counters); CASE-17.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_msr_write(struct virq_pmcvirt_vcpu *vcpu, uint32_t msr,
						   uint64_t value, enum virq_pmcvirt_origin origin);

/**
 * @brief Emulates an intercepted RDPMC.
 *
 * @param vcpu  An initialised vCPU, not in the guest.
 * @param ecx   Guest ECX: counter index 0..ncounters-1.
 * @param value Receives the 48-bit counter value (EDX:EAX).
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for an index at or beyond the guest's
 *         count (inject \#GP) or NULL; ::VIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: RDPMC (APM Vol 3); fact sheet §6.1 (RFC4 sync point 2).
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_rdpmc(struct virq_pmcvirt_vcpu *vcpu, uint32_t ecx,
					       uint64_t *value);

/**
 * @brief Counts one event of an emulated instruction (RFC4 sync point 4).
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
 * @return ::VIRQ_OK; ::VIRQ_ERANGE for an event above 0xFFF; ::VIRQ_EINVAL
 *         for NULL; ::VIRQ_EBUSY between enter and exit.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_emulated_event(struct virq_pmcvirt_vcpu *vcpu,
							uint16_t event, uint8_t umask, bool cpl0,
							uint32_t *pmi_mask);

/**
 * @brief Saves the whole guest-visible PMU state (migration source).
 *
 * @param vcpu  An initialised vCPU, not in the guest.
 * @param state Receives the state (event selects unfiltered).
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL; ::VIRQ_EBUSY in the guest.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: fact sheet §6.1 (migration); slots of APM Vol 2 Table B-2.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_save_state(struct virq_pmcvirt_vcpu *vcpu,
						    struct virq_pmcvirt_state *state);

/**
 * @brief Restores a whole guest PMU state (migration target).
 *
 * Validated as host writes of each MSR would be, but all-or-nothing.
 *
 * @param vcpu  An initialised vCPU, not in the guest.
 * @param state The state.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL, reserved event-select bits or
 *         global bits at or above ncounters; ::VIRQ_ERANGE for counters above
 *         48 bits; ::VIRQ_EBUSY in the guest. On error nothing changes.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: fact sheet §6.1 (migration); slots of APM Vol 2 Table B-2.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_restore_state(struct virq_pmcvirt_vcpu *vcpu,
						       const struct virq_pmcvirt_state *state);

/**
 * @brief Saves and stops the host PMU before the guest owns it.
 *
 * Host counter state is not preserved across VMRUN/\#VMEXIT in HW mode
 * (swap type C) and is overwritten by the guest's in SW mode, so the
 * embedder calls this once when the vCPU gets the PMU (vCPU load, with host
 * perf events scheduled out and the PMI masked). Reads PerfCntrGlobalCtl,
 * writes it 0, reads the host PERF_CTL/CTR of the counters the guest can
 * clobber (all host counters in HW mode, the guest's in SW mode) and, in SW
 * mode, PerfCntrGlobalStatus. Without PerfMonV2 (SW mode) the host's
 * enabled counters are stopped by clearing EN.
 *
 * @param vcpu An initialised vCPU, not in the guest, host not saved.
 * @return ::VIRQ_OK; ::VIRQ_EBUSY when already saved or in the guest;
 *         ::VIRQ_EHW when an MSR access faults (the host state is then
 *         restored as far as it was read); ::VIRQ_EINVAL for NULL.
 *
 * Thread-safety: on the CPU that will run the vCPU, preemption disabled.
 *
 * Spec: APM Vol 2 Table B-3 (swap type C); fact sheet §3.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_host_save(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief Restores the host PMU saved by virq_pmcvirt_host_save().
 *
 * Writes the saved PERF_CTR/PERF_CTL values the hardware does not already
 * hold (after a \#VMEXIT in HW mode nothing is assumed), restores the
 * status (SW mode) and writes PerfCntrGlobalCtl last.
 *
 * @param vcpu An initialised vCPU, not in the guest, host saved.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL when nothing was saved or NULL;
 *         ::VIRQ_EBUSY in the guest; ::VIRQ_EHW when an MSR write faults
 *         (the remaining writes are still attempted).
 *
 * Thread-safety: as virq_pmcvirt_host_save().
 *
 * Spec: APM Vol 2 Table B-3 (swap type C); fact sheet §3.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_host_restore(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief World-switch hook right before VMRUN (interrupts disabled).
 *
 * HW mode: makes host PerfCntrGlobalCtl zero (else VMRUN fails with
 * VMEXIT_INVALID_PMC); one MSR write per entry, since \#VMEXIT resets it to
 * all-enabled. SW mode: loads the guest's event selects (filtered, HostOnly
 * cleared and GuestOnly forced), counters, status (via STATUS_CLR/SET) and
 * global control into the MSRs, skipping values the hardware already holds.
 *
 * @param vcpu An initialised vCPU with the host PMU saved.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL or when the host PMU was not
 *         saved; ::VIRQ_EBUSY when already entered; ::VIRQ_EHW when an MSR
 *         write faults (do not VMRUN).
 *
 * Thread-safety: on the CPU that runs the vCPU, interrupts disabled.
 *
 * Spec: APM Vol 2 §15.39, Table C-1 (VMEXIT_INVALID_PMC); fact sheet §3 (RFC6), CASE-17.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_enter(struct virq_pmcvirt_vcpu *vcpu);

/**
 * @brief World-switch hook right after \#VMEXIT (interrupts disabled).
 *
 * HW mode: no MSR access; the guest state is in the VMCB and the host's
 * PERF_CTL/CTR/GlobalCtl hold reset values (forgotten by the cache).
 * SW mode: stops guest counting (GlobalCtl 0 on PerfMonV2 hosts), saves the
 * guest's counters, status and (when passed through) global control.
 *
 * @param vcpu     The vCPU passed to virq_pmcvirt_enter().
 * @param exitcode The VMCB EXITCODE, all 64 bits.
 * @return ::VIRQ_OK; ::VIRQ_EHW when @p exitcode is VMEXIT_INVALID_PMC: the
 *         VMRUN did not run the guest (host PerfCntrGlobalCtl was not 0, e.g.
 *         host perf re-enabled counters after the hook); the event is logged
 *         and counted, the guest PMU state is intact and the next
 *         virq_pmcvirt_enter() clears the control again, so the embedder may
 *         retry; ::VIRQ_EINVAL for NULL or when not entered; ::VIRQ_EHW for a
 *         faulting MSR (SW mode).
 *
 * Thread-safety: as virq_pmcvirt_enter().
 *
 * Spec: APM Vol 2 Table B-3 (swap types), Table C-1; fact sheet §3, CASE-17.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_exit(struct virq_pmcvirt_vcpu *vcpu, uint64_t exitcode);

/* ------------------------------------------------------------------ */
/**
 * @brief Emulates the PMC part of an L1 VMRUN of L2 (HW mode, nested SVM).
 *
 * UNCERTAIN (conf. C, fact sheet §6.3): modelled on nested LBR
 * virtualization and on the swap types; the 2026 KVM design is unknown.
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
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL or a vCPU not in HW mode;
 *         ::VIRQ_EBUSY in the guest.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_nested_vmrun(struct virq_pmcvirt_vcpu *vcpu,
						      bool l1_has_pmc_virt, void *vmcb12,
						      void *vmcb02, bool *fail);

/**
 * @brief Emulates the PMC part of a nested \#VMEXIT from L2 to L1.
 *
 * UNCERTAIN (conf. C). With vmcb12 bit 3 set: the L2 PMC slots go from
 * vmcb02 to vmcb12, and L1's own (host) PMU gets the swap-type-C effect:
 * vmcb01 PERF_CTL/CTR become 0 and its global control the reset value
 * GENMASK(ncounters-1, 0) (0x3F for six; SD-3F, conf. B), which L1 must
 * clear before its next VMRUN; status and IRPerf (type A) stay. With bit 3
 * clear: counters, status, control and IRPerf go from vmcb02 back to vmcb01;
 * the event selects in vmcb01 are kept (L0 intercepts them, so a filter or
 * emulated write applied while L2 ran stays in force).
 *
 * @param vcpu   The L1 vCPU (HW mode).
 * @param vmcb12 L1's VMCB for L2.
 * @param vmcb02 The VMCB L2 ran with.
 * @return ::VIRQ_OK; ::VIRQ_EINVAL for NULL or not HW mode; ::VIRQ_EBUSY in the guest.
 *
 * Thread-safety: the caller serialises all calls on one vCPU.
 *
 * Spec: none published (fact sheet §6.3, conf. C); swap types of APM Vol 2 Table B-3.
 */
VIRQ_MUST_CHECK virq_status virq_pmcvirt_nested_vmexit(struct virq_pmcvirt_vcpu *vcpu,
						       void *vmcb12, const void *vmcb02);

#endif /* LIBVIRQ_PMCVIRT_H */
