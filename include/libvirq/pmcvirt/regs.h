/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_pmcvirt
 * @brief AMD PMC virtualization constants: CPUID bits, PMU MSRs, event-select fields, save-area PMU
 * slots.
 *
 * Spec: AMD64 APM Vol 2 rev 3.44 §13.2.1, §15.39, Appendix B (Tables B-2 and
 * B-4); AMD64 APM Vol 3 rev 3.37 Appendix E. The layouts are the tables of
 * libvirq/amd/fields.h. Part of the PMC module; include libvirq/pmcvirt.h.
 */
#ifndef LIBVIRQ_PMCVIRT_REGS_H
#define LIBVIRQ_PMCVIRT_REGS_H

#include "../virq_env.h"
#include "../bitfield.h"
#include "../amd/vmcb.h"
#include "../amd/fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/** @name CPUID (AMD64 APM Vol 3 rev 3.37 Appendix E: §E.4.2 Fn8000_0001, §E.4.7 Fn8000_0008,
 *        §E.4.9 Fn8000_000A, §E.4.20 Fn8000_0022)
 * @{ */
/** Extended max-leaf function. */
#define LIBVIRQ_PMCVIRT_CPUID_EXT_MAX 0x80000000u
/** Fn8000_0001: ECX holds PerfCtrExtCore. */
#define LIBVIRQ_PMCVIRT_CPUID_EXT_FEAT 0x80000001u
/** Fn8000_0008: EBX holds IRPerf. */
#define LIBVIRQ_PMCVIRT_CPUID_EXT_SIZE 0x80000008u
/** Fn8000_000A: SVM features, EDX holds PerfCtrVirt, AVIC and VNMI. */
#define LIBVIRQ_PMCVIRT_CPUID_SVM 0x8000000Au
/** Fn8000_0022: extended performance monitoring (PerfMonV2, counter count). */
#define LIBVIRQ_PMCVIRT_CPUID_PERFMON 0x80000022u
/** Fn8000_0001 ECX[2] SVM. */
#define LIBVIRQ_PMCVIRT_CPUID_ECX_SVM 2, 2
/** Fn8000_0001 ECX[23] PerfCtrExtCore: six core counters at C001_020x. */
#define LIBVIRQ_PMCVIRT_CPUID_ECX_PerfCtrExtCore 23, 23
/** Fn8000_0008 EBX[1] IRPerf: instructions-retired MSR C000_00E9. */
#define LIBVIRQ_PMCVIRT_CPUID_EBX_IRPerf 1, 1
/** Fn8000_000A EDX[8] PerfCtrVirt. */
#define LIBVIRQ_PMCVIRT_CPUID_EDX_PerfCtrVirt 8, 8
/** Fn8000_000A EDX[13] AVIC. */
#define LIBVIRQ_PMCVIRT_CPUID_EDX_AVIC 13, 13
/** Fn8000_000A EDX[25] VNMI. */
#define LIBVIRQ_PMCVIRT_CPUID_EDX_VNMI 25, 25
/** Fn8000_0022 EAX[0] PerfMonV2. */
#define LIBVIRQ_PMCVIRT_CPUID_EAX_PerfMonV2 0, 0
/** Fn8000_0022 EBX[3:0] NumPerfCtrCore. */
#define LIBVIRQ_PMCVIRT_CPUID_EBX_NumPerfCtrCore 3, 0
/** @} */

/* ------------------------------------------------------------------ */
/** @name VMCB state-save area PMU slots (AMD64 APM Vol 2 rev 3.44 Table B-2; the table is
 *        ::LIBVIRQ_VMCB_PMC_SLOTS_TABLE, which the formulas below are checked against)
 * "SA" offsets are inside the save area; "VMCB" offsets are absolute.
 * @{ */
/** Number of PERF_CTL/PERF_CTR pairs in the save area. */
#define LIBVIRQ_PMCVIRT_NR_SLOTS 6u
/** SA offset of PERF_CTLi (i = 0..5), qword, swap type C. */
#define LIBVIRQ_PMCVIRT_SA_PERF_CTL(i) (0x0E0u + 0x10u * (uint32_t)(i))
/** SA offset of PERF_CTRi (i = 0..5), qword, swap type C. */
#define LIBVIRQ_PMCVIRT_SA_PERF_CTR(i) (0x0E8u + 0x10u * (uint32_t)(i))
/** SA offset of INSTR_RETIRED_CTR (IRPerfCount), qword, swap type A. */
#define LIBVIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR 0x1C0u
/** SA offset of PERF_CTR_GLOBAL_STS (PerfCntrGlobalStatus), qword, swap type A. */
#define LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS 0x1C8u
/**
 * SA offset of PERF_CTR_GLOBAL_CTL (PerfCntrGlobalCtl), swap type C.
 * UNCERTAIN width: qword in APM Vol 2 rev 3.44 Table B-2, dword in B-4; both reserve
 * 0x1D4..0x1D7, so libvirq treats it as a dword and writes the reserved
 * half as zero.
 */
#define LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL 0x1D0u
/** Width in bytes libvirq uses for PERF_CTR_GLOBAL_CTL (see above). */
#define LIBVIRQ_PMCVIRT_GLOBAL_CTL_WIDTH 4u
/** SA offset of CR4 (first field after the PMC block; must not move). */
#define LIBVIRQ_PMCVIRT_SA_CR4 0x148u
/** SA offset of RSP (first field after PERF_CTR_GLOBAL_CTL). */
#define LIBVIRQ_PMCVIRT_SA_RSP 0x1D8u
/** Absolute VMCB offset of PERF_CTLi. */
#define LIBVIRQ_PMCVIRT_VMCB_PERF_CTL(i) (LIBVIRQ_VMCB_SAVE_AREA + LIBVIRQ_PMCVIRT_SA_PERF_CTL(i))
/** Absolute VMCB offset of PERF_CTRi. */
#define LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(i) (LIBVIRQ_VMCB_SAVE_AREA + LIBVIRQ_PMCVIRT_SA_PERF_CTR(i))
/** Absolute VMCB offset of INSTR_RETIRED_CTR. */
#define LIBVIRQ_PMCVIRT_VMCB_INSTR_RETIRED_CTR                                                     \
	(LIBVIRQ_VMCB_SAVE_AREA + LIBVIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR)
/** Absolute VMCB offset of PERF_CTR_GLOBAL_STS. */
#define LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS                                                   \
	(LIBVIRQ_VMCB_SAVE_AREA + LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS)
/** Absolute VMCB offset of PERF_CTR_GLOBAL_CTL. */
#define LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL                                                   \
	(LIBVIRQ_VMCB_SAVE_AREA + LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL)
/** @} */

/* Compile-time checks of the formulas against the table (AMD64 APM Vol 2 rev 3.44 Table B-2). */
/** @cond LIBVIRQ_INTERNAL */
#define LIBVIRQ_PMCVIRT_SLOT_ENUM_(P, NAME, off, bytes, swap) P##NAME##_ = (off),
enum { LIBVIRQ_VMCB_PMC_SLOTS_TABLE(LIBVIRQ_PMCVIRT_SLOT_ENUM_, LIBVIRQ_PMCVIRT_SA_OFF_) };
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_SA_PERF_CTL(0) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTL0_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR(0) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR0_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTL(1) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTL1_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR(1) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR1_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTL(2) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTL2_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR(2) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR2_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTL(3) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTL3_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR(3) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR3_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTL(4) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTL4_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR(4) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR4_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTL(5) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTL5_ &&
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR(5) == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR5_,
		       "PERF_CTLn/PERF_CTRn formulas match APM Vol 2 rev 3.44 Table B-2");
LIBVIRQ_STATIC_ASSERT_(
    LIBVIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR == LIBVIRQ_PMCVIRT_SA_OFF_INSTR_RETIRED_CTR_ &&
	LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR_GLOBAL_STS_ &&
	LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL == LIBVIRQ_PMCVIRT_SA_OFF_PERF_CTR_GLOBAL_CTL_,
    "global slots match APM Vol 2 rev 3.44 Table B-2");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_SA_PERF_CTL(0) == 0x0E0u, "PERF_CTL0 at SA 0x0E0");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(3) == 0x518u, "PERF_CTR3 at VMCB 0x518");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_SA_PERF_CTR(5) + 8u == 0x140u, "PMC block ends at SA 0x140");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_SA_PERF_CTR(5) + 8u <= LIBVIRQ_PMCVIRT_SA_CR4,
		       "PMC block below CR4");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_STS == 0x5C8u, "GLOBAL_STS at 0x5C8");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL == 0x5D0u, "GLOBAL_CTL at 0x5D0");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_CTL + 8u == LIBVIRQ_PMCVIRT_SA_RSP,
		       "GLOBAL_CTL (incl. reserved half) ends at RSP");
LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_PMCVIRT_SA_INSTR_RETIRED_CTR + 8u ==
			   LIBVIRQ_PMCVIRT_SA_PERF_CTR_GLOBAL_STS,
		       "INSTR_RETIRED_CTR directly below GLOBAL_STS");
/** @endcond */

/* ------------------------------------------------------------------ */
/** @name PMU MSRs (AMD64 APM Vol 2 rev 3.44 §13.2.1; Appendix A, Table A-6)
 * @{ */
/** K7 legacy PerfEvtSel i (i = 0..3). */
#define LIBVIRQ_PMCVIRT_MSR_K7_EVNTSEL(i) (0xC0010000u + (uint32_t)(i))
/** K7 legacy PerfCtr i (i = 0..3). */
#define LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(i) (0xC0010004u + (uint32_t)(i))
/** F15h PERF_CTLi (i = 0..5), even indices. */
#define LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(i) (0xC0010200u + 2u * (uint32_t)(i))
/** F15h PERF_CTRi (i = 0..5), odd indices. */
#define LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(i) (0xC0010201u + 2u * (uint32_t)(i))
/** PerfCntrGlobalStatus (read-only). */
#define LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS 0xC0000300u
/** PerfCntrGlobalCtl. */
#define LIBVIRQ_PMCVIRT_MSR_GLOBAL_CTL 0xC0000301u
/** PerfCntrGlobalStatusClr (write 1 to clear). */
#define LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_CLR 0xC0000302u
/** PerfCntrGlobalStatusSet (write 1 to set). */
#define LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_SET 0xC0000303u
/** IRPerfCount: instructions retired (48 bits). */
#define LIBVIRQ_PMCVIRT_MSR_IRPERF 0xC00000E9u
/** @} */

/** @name PerfEvtSel / PERF_CTLn fields (AMD64 APM Vol 2 rev 3.44 §13.2.1, Figure 13-11;
 *        the table is ::LIBVIRQ_PMC_PERFEVTSEL_TABLE)
 * The manual's names, then the older spellings kept as aliases.
 * @{ */
/** @cond LIBVIRQ_INTERNAL */
#define LIBVIRQ_PMCVIRT_EVTSEL_F_(Id) LIBVIRQ_AMD_F(LIBVIRQ_PMC_EVTSEL_, Id)
/** @endcond */
#define LIBVIRQ_PMCVIRT_EVTSEL_EVENT_SELECT_7_0                                                    \
	LIBVIRQ_PMCVIRT_EVTSEL_F_(EVENT_SELECT_7_0) /**< 7:0. */
#define LIBVIRQ_PMCVIRT_EVTSEL_UNIT_MASK                                                           \
	LIBVIRQ_PMCVIRT_EVTSEL_F_(UNIT_MASK)			    /**< UNIT_MASK 15:8. */
#define LIBVIRQ_PMCVIRT_EVTSEL_USR LIBVIRQ_PMCVIRT_EVTSEL_F_(USR)   /**< Count at CPL > 0. */
#define LIBVIRQ_PMCVIRT_EVTSEL_OS LIBVIRQ_PMCVIRT_EVTSEL_F_(OS)	    /**< Count at CPL 0. */
#define LIBVIRQ_PMCVIRT_EVTSEL_EDGE LIBVIRQ_PMCVIRT_EVTSEL_F_(EDGE) /**< Edge detect. */
#define LIBVIRQ_PMCVIRT_EVTSEL_INT LIBVIRQ_PMCVIRT_EVTSEL_F_(INT)   /**< Interrupt on overflow. */
#define LIBVIRQ_PMCVIRT_EVTSEL_EN LIBVIRQ_PMCVIRT_EVTSEL_F_(EN)	    /**< Counter enable. */
#define LIBVIRQ_PMCVIRT_EVTSEL_INV                                                                 \
	LIBVIRQ_PMCVIRT_EVTSEL_F_(INV) /**< Invert CNT_MASK comparison. */
/** CNT_MASK 31:24. */
#define LIBVIRQ_PMCVIRT_EVTSEL_CNT_MASK LIBVIRQ_PMCVIRT_EVTSEL_F_(CNT_MASK)
#define LIBVIRQ_PMCVIRT_EVTSEL_EVENT_SELECT_11_8                                                   \
	LIBVIRQ_PMCVIRT_EVTSEL_F_(EVENT_SELECT_11_8) /**< EVENT_SELECT[11:8], 35:32. */
#define LIBVIRQ_PMCVIRT_EVTSEL_HG_ONLY LIBVIRQ_PMCVIRT_EVTSEL_F_(HG_ONLY)   /**< HG_ONLY 41:40. */
#define LIBVIRQ_PMCVIRT_EVTSEL_PREC_RET LIBVIRQ_PMCVIRT_EVTSEL_F_(PREC_RET) /**< PREC_RET 43. */
/** Alias of ::LIBVIRQ_PMCVIRT_EVTSEL_EVENT_SELECT_7_0. */
#define LIBVIRQ_PMCVIRT_EVTSEL_EventSelectLo LIBVIRQ_PMCVIRT_EVTSEL_EVENT_SELECT_7_0
/** Alias of ::LIBVIRQ_PMCVIRT_EVTSEL_UNIT_MASK. */
#define LIBVIRQ_PMCVIRT_EVTSEL_UnitMask LIBVIRQ_PMCVIRT_EVTSEL_UNIT_MASK
/** Alias of ::LIBVIRQ_PMCVIRT_EVTSEL_EDGE. */
#define LIBVIRQ_PMCVIRT_EVTSEL_Edge LIBVIRQ_PMCVIRT_EVTSEL_EDGE
/** Alias of ::LIBVIRQ_PMCVIRT_EVTSEL_CNT_MASK. */
#define LIBVIRQ_PMCVIRT_EVTSEL_CntMask LIBVIRQ_PMCVIRT_EVTSEL_CNT_MASK
/** Alias of ::LIBVIRQ_PMCVIRT_EVTSEL_EVENT_SELECT_11_8. */
#define LIBVIRQ_PMCVIRT_EVTSEL_EventSelectHi LIBVIRQ_PMCVIRT_EVTSEL_EVENT_SELECT_11_8
/** HG_ONLY bit 40, "Guest Mode" in APM Vol 2 rev 3.44 Table 13-4: count guest events (older
 * spelling). */
#define LIBVIRQ_PMCVIRT_EVTSEL_GuestOnly                                                           \
	LIBVIRQ_PMC_EVTSEL_HG_ONLY_LO_, LIBVIRQ_PMC_EVTSEL_HG_ONLY_LO_
/** HG_ONLY bit 41, "Host Mode" in APM Vol 2 rev 3.44 Table 13-4: count host events (older
 * spelling). */
#define LIBVIRQ_PMCVIRT_EVTSEL_HostOnly                                                            \
	LIBVIRQ_PMC_EVTSEL_HG_ONLY_HI_, LIBVIRQ_PMC_EVTSEL_HG_ONLY_HI_
/**
 * Bits a guest allowed HG_ONLY may not set: the reserved fields of APM Vol 2 rev 3.44 Figure 13-11
 * and PREC_RET, which is reserved unless CPUID Fn8000_0021_EAX[PreciseRetirePmc2Manual] is set and
 * then exists in PerfEvtSel2 only; libvirq's guest model offers no such CPUID bit, so for its
 * guests it is reserved in every PerfEvtSeln (@ref pmc-prec-ret). The same mask as Xen's for such
 * guests.
 */
#define LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG                                                             \
	(LIBVIRQ_AMD_RSVD_MASK(LIBVIRQ_PMC_PERFEVTSEL_TABLE, 0) |                                  \
	 LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_PREC_RET))
/** Bits a guest without HG_ONLY may not set: ::LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG and HG_ONLY
 *  (KVM's mask for guests without SVM). */
#define LIBVIRQ_PMCVIRT_EVTSEL_RSVD                                                                \
	(LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG | LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_HG_ONLY))
/**
 * Counters hold 48 bits: APM Vol 2 rev 3.44 Figure 13-10 leaves the width implementation-dependent
 * (at most 64); 48 is the width of every AMD core counter libvirq models (the bits above read as
 * the sign-extension of bit 47, and Linux's AMD PMU uses 48 too).
 */
#define LIBVIRQ_PMCVIRT_CTR_MASK 0x0000FFFFFFFFFFFFull
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_PMCVIRT_REGS_H */
