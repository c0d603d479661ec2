/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD AVIC architectural constants: CPUID bits, table limits, the doorbell MSR.
 *
 * Spec: AMD64 APM Vol. 2 (pub. 24593) §15.29 and Appendix B. Part of the
 * AVIC module; include libvirq/avic.h.
 */
#ifndef LIBVIRQ_AVIC_REGS_H
#define LIBVIRQ_AVIC_REGS_H

#include "../virq_env.h"
#include "../amd/vmcb.h"

/* ------------------------------------------------------------------------- */
/** @name Architectural constants (APM Vol 2 §15.29, App. B)
 *  @{ */
/** @brief CPUID Fn8000_000A EDX[13]: AVIC. */
#define LIBVIRQ_AVIC_CPUID_EDX_AVIC 0x00002000u
/** @brief CPUID Fn8000_000A EDX[18]: x2AVIC. */
#define LIBVIRQ_AVIC_CPUID_EDX_X2AVIC 0x00040000u
/** @brief CPUID Fn8000_000A EDX[25]: VNMI. */
#define LIBVIRQ_AVIC_CPUID_EDX_VNMI 0x02000000u
/** @brief CPUID Fn8000_000A ECX[6]: x2AVIC for 4K vCPUs (X2AVIC_EXT). */
#define LIBVIRQ_AVIC_CPUID_ECX_X2AVIC_EXT 0x00000040u
/** @brief Highest physical APIC ID table index in xAVIC mode (0xFF is broadcast). */
#define LIBVIRQ_AVIC_MAX_INDEX_XAVIC 0xFEu
/** @brief Highest physical APIC ID table index in x2AVIC mode. */
#define LIBVIRQ_AVIC_MAX_INDEX_X2AVIC 0x1FFu
/** @brief Highest physical APIC ID table index with the x2AVIC 4K extension. */
#define LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K 0xFFFu
/** @brief The AVIC doorbell MSR, MSR_AMD64_SVM_AVIC_DOORBELL. */
#define LIBVIRQ_AVIC_DOORBELL_MSR 0xC001011Bu
/** @brief Default guest-physical APIC base (APIC_BAR). */
#define LIBVIRQ_AVIC_DEFAULT_APIC_BAR 0xFEE00000ull
/** @brief Size of a vAPIC backing page and of the raw VMCB, bytes. */
#define LIBVIRQ_AVIC_PAGE_SIZE 4096u
/** @brief "No CPU": pass as the current host APIC ID when posting from outside any pCPU context. */
#define LIBVIRQ_AVIC_NO_CPU 0xFFFFFFFFu
/** @} */

#endif /* LIBVIRQ_AVIC_REGS_H */
