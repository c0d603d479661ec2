/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic virq_pmcvirt
 * @brief The AMD SVM VMCB layout used by the AVIC and PMC modules.
 *
 * One name per VMCB field, shared by the AVIC module (libvirq/avic.h) and
 * the PMC virtualization module (libvirq/pmcvirt.h). Offsets are byte
 * offsets from the start of the 4 KiB VMCB; bit fields are in the manual's
 * [hi:lo] notation for use with LIBVIRQ_FIELD_GET() and friends
 * (libvirq/bitfield.h).
 *
 * Spec: AMD64 APM Vol 2 rev 3.44 Appendix B, Table B-1 (control area)
 * and Table B-2 (state-save area); exit codes from Appendix C, Table C-1.
 */
#ifndef LIBVIRQ_AMD_VMCB_H
#define LIBVIRQ_AMD_VMCB_H

/** @name VMCB control area (APM Vol 2 rev 3.44 Table B-1)
 * @{ */
/** Size of a VMCB in bytes. */
#define LIBVIRQ_VMCB_SIZE 4096u
/** Intercept vector 3 (32-bit) at 0x00C. */
#define LIBVIRQ_VMCB_INTERCEPT3 0x00Cu
/** Intercept vector 3 bit 15: intercept RDPMC. */
#define LIBVIRQ_VMCB_INTERCEPT3_RDPMC 15, 15
/** Intercept vector 3 bit 28: MSR_PROT (use the MSR permission map). */
#define LIBVIRQ_VMCB_INTERCEPT3_MSR_PROT 28, 28
/** MSRPM_BASE_PA (64-bit) at 0x048. */
#define LIBVIRQ_VMCB_MSRPM_BASE_PA 0x048u
/** int_ctl (32-bit V_INTR control) at 0x060. */
#define LIBVIRQ_VMCB_INT_CTL 0x060u
/** int_ctl bit 11: V_NMI pending. */
#define LIBVIRQ_VMCB_INT_CTL_V_NMI 11, 11
/** int_ctl bit 12: V_NMI_MASK (NMI blocking). */
#define LIBVIRQ_VMCB_INT_CTL_V_NMI_MASK 12, 12
/** int_ctl bit 26: V_NMI_ENABLE. */
#define LIBVIRQ_VMCB_INT_CTL_V_NMI_ENABLE 26, 26
/** int_ctl bit 30: x2AVIC enable (X2APIC_MODE). */
#define LIBVIRQ_VMCB_INT_CTL_X2APIC_MODE 30, 30
/** int_ctl bit 31: AVIC enable. */
#define LIBVIRQ_VMCB_INT_CTL_AVIC_ENABLE 31, 31
/** EXITCODE (64-bit) at 0x070. */
#define LIBVIRQ_VMCB_EXITCODE 0x070u
/** AVIC_APIC_BAR (64-bit) at 0x098. */
#define LIBVIRQ_VMCB_AVIC_APIC_BAR 0x098u
/** Virtualization-extensions qword at 0x0B8 (Linux: virt_ext / misc_ctl2). */
#define LIBVIRQ_VMCB_VIRT_EXT 0x0B8u
/** 0x0B8 bit 3: PMC Virtualization Enable. */
#define LIBVIRQ_VMCB_VIRT_EXT_PMC_VIRT_ENABLE 3, 3
/** 0x0B8 bits 63:4: reserved, SBZ. */
#define LIBVIRQ_VMCB_VIRT_EXT_RSVD 63, 4
/** VMCB clean bits (32-bit) at 0x0C0. */
#define LIBVIRQ_VMCB_CLEAN 0x0C0u
/** Clean bit 3: INTR (int_ctl, int_vector). */
#define LIBVIRQ_VMCB_CLEAN_INTR 3, 3
/** Clean bit 11: AVIC pointers (APIC_BAR, backing page, tables). */
#define LIBVIRQ_VMCB_CLEAN_AVIC 11, 11
/** AVIC_BACKING_PAGE pointer (64-bit) at 0x0E0. */
#define LIBVIRQ_VMCB_AVIC_BACKING_PAGE 0x0E0u
/** AVIC_LOGICAL_TABLE pointer (64-bit) at 0x0F0. */
#define LIBVIRQ_VMCB_AVIC_LOGICAL_TABLE 0x0F0u
/** AVIC_PHYSICAL_TABLE pointer and max index (64-bit) at 0x0F8. */
#define LIBVIRQ_VMCB_AVIC_PHYSICAL_TABLE 0x0F8u
/** Offset of the state-save area in a (non-SEV-ES) VMCB (APM Vol 2 rev 3.44 Table B-2 offsets are
 * relative to it). */
#define LIBVIRQ_VMCB_SAVE_AREA 0x400u
/** @} */

/** @name \#VMEXIT codes written to EXITCODE (APM Vol 2 rev 3.44 Appendix C)
 * @{ */
/** VMEXIT_AVIC_INCOMPLETE_IPI. */
#define LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI 0x401u
/** VMEXIT_AVIC_NOACCEL (AVIC_UNACCELERATED_ACCESS). */
#define LIBVIRQ_VMCB_EXIT_AVIC_NOACCEL 0x402u
/** VMEXIT_INVALID (-1 as a 64-bit value). */
#define LIBVIRQ_VMCB_EXIT_INVALID 0xFFFFFFFFFFFFFFFFull
/** VMEXIT_INVALID_PMC (-4 as a 64-bit value; APM Vol 2 rev 3.44 Table C-1). */
#define LIBVIRQ_VMCB_EXIT_INVALID_PMC 0xFFFFFFFFFFFFFFFCull
/** @} */

#endif /* LIBVIRQ_AMD_VMCB_H */
