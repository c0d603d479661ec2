/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_pmcvirt
 * @brief AMD PMC virtualization constants: CPUID bits, PMU MSRs, event-select fields, save-area PMU
 * slots.
 *
 * Spec: APM Vol. 2 §15.39, Appendix B Table B-2; APM Vol. 3 Appendix E.
 * Part of the PMC module; include libvirq/pmcvirt.h.
 */
#ifndef LIBVIRQ_PMCVIRT_REGS_H
#define LIBVIRQ_PMCVIRT_REGS_H

#include "../virq_env.h"
#include "../bitfield.h"
#include "../amd/vmcb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/** @name CPUID (APM Vol 3 Appendix E)
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
/** @name VMCB state-save area PMU slots (APM Vol 2 Table B-2)
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
 * UNCERTAIN width: qword in Table B-2, dword in B-4; both reserve
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

/* Compile-time checks of the layout against APM Table B-2. */
/** @cond LIBVIRQ_INTERNAL */
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
/** @name PMU MSRs (APM Vol 2 §13.2)
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

/** @name PerfEvtSel / PERF_CTLn fields (APM Vol 2 §13.2)
 * @{ */
#define LIBVIRQ_PMCVIRT_EVTSEL_EventSelectLo 7, 0   /**< EventSelect[7:0]. */
#define LIBVIRQ_PMCVIRT_EVTSEL_UnitMask 15, 8	    /**< UnitMask. */
#define LIBVIRQ_PMCVIRT_EVTSEL_USR 16, 16	    /**< Count at CPL > 0. */
#define LIBVIRQ_PMCVIRT_EVTSEL_OS 17, 17	    /**< Count at CPL 0. */
#define LIBVIRQ_PMCVIRT_EVTSEL_Edge 18, 18	    /**< Edge detect. */
#define LIBVIRQ_PMCVIRT_EVTSEL_INT 20, 20	    /**< APIC interrupt on overflow. */
#define LIBVIRQ_PMCVIRT_EVTSEL_EN 22, 22	    /**< Counter enable. */
#define LIBVIRQ_PMCVIRT_EVTSEL_INV 23, 23	    /**< Invert CntMask comparison. */
#define LIBVIRQ_PMCVIRT_EVTSEL_CntMask 31, 24	    /**< Counter mask. */
#define LIBVIRQ_PMCVIRT_EVTSEL_EventSelectHi 35, 32 /**< EventSelect[11:8]. */
#define LIBVIRQ_PMCVIRT_EVTSEL_GuestOnly 40, 40	    /**< Count only in guest mode. */
#define LIBVIRQ_PMCVIRT_EVTSEL_HostOnly 41, 41	    /**< Count only in host mode. */
/** Reserved bits for a guest without SVM (KVM: 19, 21, 36..63, incl. HG). */
#define LIBVIRQ_PMCVIRT_EVTSEL_RSVD 0xFFFFFFF000280000ull
/** Reserved bits for a guest allowed the Host/Guest-only bits (Xen's mask). */
#define LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG 0xFFFFFCF000280000ull
/** Core counters are 48 bits wide. */
#define LIBVIRQ_PMCVIRT_CTR_MASK 0x0000FFFFFFFFFFFFull
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_PMCVIRT_REGS_H */
