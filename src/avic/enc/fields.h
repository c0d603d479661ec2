/* SPDX-License-Identifier: MIT */
/*
 * AVIC field positions for the pure encoders (src/avic/enc/) and the drivers.
 * Every manual layout is a table of libvirq/amd/fields.h; a field is named
 * with LIBVIRQ_AMD_F(prefix, Id) (its [hi:lo] within the word), and the
 * short names below only spell the prefixes. Includes only public headers,
 * so an encoder that includes it stays free of the HAL. Not a public header.
 */
#ifndef LIBVIRQ_SRC_AVIC_ENC_FIELDS_H
#define LIBVIRQ_SRC_AVIC_ENC_FIELDS_H

#include <libvirq/avic.h>
#include <libvirq/avic/iommu.h>
#include <libvirq/amd/fields.h>
#include <libvirq/bitfield.h>

/* Fields of the tables, by the prefix the enums of libvirq/amd/fields.h use. */
#define PHYS_F_(Id) LIBVIRQ_AMD_F(LIBVIRQ_AVIC_PHYS_, Id)
#define IRTE_GA_F_(Id) LIBVIRQ_AMD_F(LIBVIRQ_IRTE_GA_, Id)
#define ICR_F_(Id) LIBVIRQ_AMD_F(LIBVIRQ_APIC_ICR_, Id)

/*
 * VMCB pointer fields hold PA[51:12] (AVIC_PHYSICAL_TABLE at 0F8h keeps
 * AVIC_PHYSICAL_MAX_INDEX in bits 11:0): AMD64 APM Vol 2 rev 3.44 Appendix B,
 * Table B-1; §15.29.4.2.
 */
#define LIBVIRQ_VMCB_Addr 51, 12

/* GA tag (the library's layout; opaque to the IOMMU). */
#define LIBVIRQ_GATAG_Vcpu 11, 0
#define LIBVIRQ_GATAG_Vm 31, 12

#endif /* LIBVIRQ_SRC_AVIC_ENC_FIELDS_H */
