/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD AVIC architectural constants: CPUID bits, table limits, the doorbell MSR.
 *
 * Spec: AMD64 APM Vol 2 rev 3.44 §15.29 and Appendix B; AMD64 APM Vol 3 rev
 * 3.37 §E.4.9 (CPUID Fn8000_000A). Part of the AVIC module; include
 * libvirq/avic.h.
 */
#ifndef LIBVIRQ_AVIC_REGS_H
#define LIBVIRQ_AVIC_REGS_H

#include "../virq_env.h"
#include "../amd/vmcb.h"
#include "../amd/fields.h"

/* ------------------------------------------------------------------------- */
/** @name Architectural constants (AMD64 APM Vol 2 rev 3.44 §15.29, Appendix B; AMD64 APM
 *        Vol 3 rev 3.37 §E.4.9)
 *  @{ */
/** @brief CPUID Fn8000_000A EDX[13]: AVIC. */
#define LIBVIRQ_AVIC_CPUID_EDX_AVIC 0x00002000u
/** @brief CPUID Fn8000_000A EDX[18]: x2AVIC. */
#define LIBVIRQ_AVIC_CPUID_EDX_X2AVIC 0x00040000u
/** @brief CPUID Fn8000_000A EDX[25]: VNMI. */
#define LIBVIRQ_AVIC_CPUID_EDX_VNMI 0x02000000u
/**
 * @brief CPUID Fn8000_000A EDX[27]: ExtLvtAvicAccessChg, "Extended Interrupt Local Vector
 *        Table Register AVIC Access changes": with it, writes of the extended LVTs 500h-530h
 *        trap and reads are allowed; without it, both fault (AMD64 APM Vol 2 rev 3.44
 *        Table 15-22).
 */
#define LIBVIRQ_AVIC_CPUID_EDX_EXTLVT 0x08000000u
/** @brief CPUID Fn8000_000A ECX[6]: x2AVIC for 4K vCPUs (X2AVIC_EXT). */
#define LIBVIRQ_AVIC_CPUID_ECX_X2AVIC_EXT 0x00000040u
/** @brief Highest physical APIC ID table index in xAVIC mode (0xFF is broadcast). */
#define LIBVIRQ_AVIC_MAX_INDEX_XAVIC 0xFEu
/** @brief Highest physical APIC ID table index in x2AVIC mode. */
#define LIBVIRQ_AVIC_MAX_INDEX_X2AVIC 0x1FFu
/** @brief Highest physical APIC ID table index with the x2AVIC 4K extension. */
#define LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K 0xFFFu
/** @brief The AVIC doorbell register, MSR C001_011Bh (AMD64 APM Vol 2 rev 3.44 §15.29.8.2). */
#define LIBVIRQ_AVIC_DOORBELL_MSR 0xC001011Bu
/**
 * @brief Highest physical APIC ID the doorbell register takes (bits 7:0; 63:8 are
 *        "Reserved, MBZ", APM Vol 2 rev 3.44 Figure 15-22): CPUs with a higher ID are kicked
 * instead.
 */
#define LIBVIRQ_AVIC_DOORBELL_MAX_ID                                                               \
	((uint32_t)LIBVIRQ_FIELD_MAX(LIBVIRQ_AMD_F(LIBVIRQ_AVIC_DOORBELL_, PhysicalAPICID)))
/** @brief Default guest-physical APIC base (APIC_BAR). */
#define LIBVIRQ_AVIC_DEFAULT_APIC_BAR 0xFEE00000ull
/** @brief Size of a vAPIC backing page and of the raw VMCB, bytes. */
#define LIBVIRQ_AVIC_PAGE_SIZE 4096u
/** @brief "No CPU": pass as the current host APIC ID when posting from outside any pCPU context. */
#define LIBVIRQ_AVIC_NO_CPU 0xFFFFFFFFu
/** @} */

#endif /* LIBVIRQ_AVIC_REGS_H */
