/* SPDX-License-Identifier: MIT */
/*
 * AVIC field definitions in the manuals' [hi:lo] notation, shared by the
 * pure encoders (src/avic/enc/) and the drivers. Includes only public
 * headers and bitfield.h, so an encoder that includes it stays free of the
 * HAL. Not a public header.
 */
#ifndef LIBVIRQ_SRC_AVIC_ENC_FIELDS_H
#define LIBVIRQ_SRC_AVIC_ENC_FIELDS_H

#include <libvirq/avic.h>
#include <libvirq/avic/iommu.h>
#include <libvirq/bitfield.h>

/* Physical APIC ID table entry (APM Vol 2 §15.29.3.2). */
#define LIBVIRQ_AVIC_PHYS_HostApicId 11, 0
#define LIBVIRQ_AVIC_PHYS_BackingPage 51, 12
#define LIBVIRQ_AVIC_PHYS_Rsvd 61, 52
#define LIBVIRQ_AVIC_PHYS_IsRunning 62, 62
#define LIBVIRQ_AVIC_PHYS_Valid 63, 63

/* Logical APIC ID table entry (APM Vol 2 §15.29.3.3). */
#define LIBVIRQ_AVIC_LOG_GuestApicId 7, 0
#define LIBVIRQ_AVIC_LOG_Rsvd 30, 8
#define LIBVIRQ_AVIC_LOG_Valid 31, 31

/* ICR (APM Vol 2 §16.5). */
#define LIBVIRQ_ICR_Vector 7, 0
#define LIBVIRQ_ICR_DeliveryMode 10, 8
#define LIBVIRQ_ICR_DestMode 11, 11
#define LIBVIRQ_ICR_DeliveryStatus 12, 12
#define LIBVIRQ_ICR_Level 14, 14
#define LIBVIRQ_ICR_TriggerMode 15, 15
#define LIBVIRQ_ICR_Shorthand 19, 18
#define LIBVIRQ_ICR_XapicDest 63, 56
#define LIBVIRQ_ICR_X2apicDest 63, 32

/* Exit information (APM Vol 2 §15.29.3.1, Table 15-29). */
#define LIBVIRQ_AVIC_EXITINFO2_Cause 63, 32
#define LIBVIRQ_AVIC_EXITINFO2_Index 11, 0
#define LIBVIRQ_AVIC_NOACCEL_Offset 11, 4
#define LIBVIRQ_AVIC_NOACCEL_Write 32, 32
#define LIBVIRQ_AVIC_NOACCEL_Vector 31, 0

/* VMCB pointer fields (APM Vol 2 App. B, Table B-1). */
#define LIBVIRQ_VMCB_Addr 51, 12
#define LIBVIRQ_VMCB_MaxIndex 11, 0

/* 128-bit GA-mode IRTE (IOMMU spec pub. 48882), lo word = bits 63:0. */
#define LIBVIRQ_IRTE_RemapEn 0, 0
#define LIBVIRQ_IRTE_SupIOPF 1, 1
#define LIBVIRQ_IRTE_GALogIntr 2, 2
#define LIBVIRQ_IRTE_IntType 4, 2
#define LIBVIRQ_IRTE_RqEoi 5, 5
#define LIBVIRQ_IRTE_GaRsvd 5, 3
#define LIBVIRQ_IRTE_IsRun 6, 6
#define LIBVIRQ_IRTE_DM 6, 6
#define LIBVIRQ_IRTE_GuestMode 7, 7
#define LIBVIRQ_IRTE_DestLo 31, 8
#define LIBVIRQ_IRTE_GATag 63, 32
/* hi word = bits 127:64. */
#define LIBVIRQ_IRTE_Vector 7, 0
#define LIBVIRQ_IRTE_HiRsvd1 11, 8
#define LIBVIRQ_IRTE_GaRootPtr 51, 12
#define LIBVIRQ_IRTE_HiRsvd2 55, 52
#define LIBVIRQ_IRTE_DestHi 63, 56

/* GA log entry (IOMMU spec pub. 48882, guest virtual APIC log). */
#define LIBVIRQ_GALOG_Tag 31, 0
#define LIBVIRQ_GALOG_DevId 47, 32
#define LIBVIRQ_GALOG_Code 63, 60

/* GA tag (the library's layout; opaque to the IOMMU). */
#define LIBVIRQ_GATAG_Vcpu 11, 0
#define LIBVIRQ_GATAG_Vm 31, 12

#endif /* LIBVIRQ_SRC_AVIC_ENC_FIELDS_H */
