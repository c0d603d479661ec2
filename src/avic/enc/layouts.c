/* SPDX-License-Identifier: MIT */
/*
 * The AVIC, APIC and IOMMU layouts as data (descriptors for tools and
 * tests), generated from the same tables of libvirq/amd/fields.h as the
 * encoders and decoders. Compile-time checks: every table's rows tile its
 * width exactly, with no gap and no overlap.
 */
#include "fields.h"

#define LAYOUT_(var, TABLE, lname, src, nbits)                                                     \
	static const struct virq_amd_field var##_fields_[] = {TABLE(LIBVIRQ_AMD_DESC_, ~)};        \
	const struct virq_amd_layout var = {lname, src, nbits, LIBVIRQ_AMD_NFIELDS(TABLE),         \
					    var##_fields_};                                        \
	LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_AMD_WIDTH(TABLE) == (nbits), lname " rows tile the width"); \
	LIBVIRQ_STATIC_ASSERT_(                                                                    \
	    LIBVIRQ_AMD_ALL_MASK(TABLE, 0) ==                                                      \
		((nbits) >= 64 ? ~(uint64_t)0 : LIBVIRQ_GENMASK(((nbits)-1) % 64, 0)),             \
	    lname " rows cover word 0");                                                           \
	LIBVIRQ_STATIC_ASSERT_(LIBVIRQ_AMD_ALL_MASK(TABLE, 1) ==                                   \
				   ((nbits) == 128 ? ~(uint64_t)0 : (uint64_t)0),                  \
			       lname " rows cover word 1")

LAYOUT_(virq_avic_layout_phys_entry, LIBVIRQ_AVIC_PHYS_ENTRY_TABLE, "avic-phys-entry",
	"AMD64 APM Vol 2 rev 3.44 §15.29.5.2, Figure 15-17, Table 15-23", 64);
LAYOUT_(virq_avic_layout_logical_entry, LIBVIRQ_AVIC_LOG_ENTRY_TABLE, "avic-logical-entry",
	"AMD64 APM Vol 2 rev 3.44 §15.29.5.3, Figure 15-19, Table 15-24", 32);
LAYOUT_(virq_avic_layout_doorbell, LIBVIRQ_AVIC_DOORBELL_TABLE, "avic-doorbell",
	"AMD64 APM Vol 2 rev 3.44 §15.29.8.2, Figure 15-22", 64);
LAYOUT_(virq_avic_layout_ipi_info2, LIBVIRQ_AVIC_IPI_INFO2_TABLE, "avic-incomplete-ipi-info2",
	"AMD64 APM Vol 2 rev 3.44 §15.29.9.1, Figure 15-24, Table 15-26", 64);
LAYOUT_(virq_avic_layout_noaccel_info1, LIBVIRQ_AVIC_NOACCEL_INFO1_TABLE, "avic-noaccel-info1",
	"AMD64 APM Vol 2 rev 3.44 §15.29.9.2, Figure 15-25, Table 15-28", 64);
LAYOUT_(virq_avic_layout_noaccel_info2, LIBVIRQ_AVIC_NOACCEL_INFO2_TABLE, "avic-noaccel-info2",
	"AMD64 APM Vol 2 rev 3.44 §15.29.9.2, Figure 15-26, Table 15-29", 64);
LAYOUT_(virq_avic_layout_icr, LIBVIRQ_APIC_ICR_TABLE, "apic-icr",
	"AMD64 APM Vol 2 rev 3.44 §16.5, Figure 16-18", 64);
LAYOUT_(virq_avic_layout_icr_x2, LIBVIRQ_APIC_ICR_X2_TABLE, "apic-icr-x2apic",
	"AMD64 APM Vol 2 rev 3.44 §16.13, Figure 16-34", 64);
LAYOUT_(virq_avic_layout_apic_id, LIBVIRQ_APIC_ID_TABLE, "apic-id",
	"AMD64 APM Vol 2 rev 3.44 §16.3.3, Figure 16-3", 32);
LAYOUT_(virq_avic_layout_apic_ldr, LIBVIRQ_APIC_LDR_TABLE, "apic-ldr",
	"AMD64 APM Vol 2 rev 3.44 §16.6.1, Figure 16-20", 32);
LAYOUT_(virq_avic_layout_apic_dfr, LIBVIRQ_APIC_DFR_TABLE, "apic-dfr",
	"AMD64 APM Vol 2 rev 3.44 §16.6.1, Figure 16-21", 32);
LAYOUT_(virq_avic_layout_apic_rrr, LIBVIRQ_APIC_RRR_TABLE, "apic-rrr",
	"AMD64 APM Vol 2 rev 3.44 §16.5, Figure 16-19", 32);
LAYOUT_(virq_avic_layout_irte_ga, LIBVIRQ_IRTE_GA_TABLE, "iommu-irte-ga",
	"AMD IOMMU specification 48882 rev 3.11 §2.2.5.3, Figure 20", 128);
LAYOUT_(virq_avic_layout_irte_remap, LIBVIRQ_IRTE_REMAP_TABLE, "iommu-irte-remap",
	"AMD IOMMU specification 48882 rev 3.11 §2.2.5.3, Figure 19", 128);
LAYOUT_(virq_avic_layout_ga_log, LIBVIRQ_GA_LOG_ENTRY_TABLE, "iommu-ga-log-entry",
	"AMD IOMMU specification 48882 rev 3.11 §2.7.3, Figure 79", 64);

const struct virq_amd_layout *const virq_avic_layouts[] = {
    &virq_avic_layout_phys_entry,    &virq_avic_layout_logical_entry,
    &virq_avic_layout_doorbell,	     &virq_avic_layout_ipi_info2,
    &virq_avic_layout_noaccel_info1, &virq_avic_layout_noaccel_info2,
    &virq_avic_layout_icr,	     &virq_avic_layout_icr_x2,
    &virq_avic_layout_apic_id,	     &virq_avic_layout_apic_ldr,
    &virq_avic_layout_apic_dfr,	     &virq_avic_layout_apic_rrr,
    &virq_avic_layout_irte_ga,	     &virq_avic_layout_irte_remap,
    &virq_avic_layout_ga_log,	     NULL,
};
