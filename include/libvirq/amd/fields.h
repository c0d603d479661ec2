/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief AMD layouts as data: one table per layout, in the manuals' [hi:lo]
 *        notation, from which the encoders, the decoders, the reserved-bit
 *        checks, the field positions the drivers use and virqtool's field
 *        lists are all generated.
 *
 * Each table is an X-macro: @c TABLE(X, P) calls
 * @code
 * X(P, KIND, hi, lo, Id, member, type, mhi, mlo, "manual name", "aliases")
 * @endcode
 * once per field, highest bits first, as the manual's figure lists them.
 * - @c KIND: @c VALUE (a value right-aligned in @c member, which must fit),
 *   @c ADDRESS (an address held in place: the field is PA[hi:lo] of
 *   @c member, whose other bits must be zero), @c PART_HIGH / @c PART (bits
 *   [mhi:mlo] of a value the manual splits over several fields, the highest
 *   part first; @c member's bits above the highest part must be zero) and
 *   @c RESERVED.
 * - @c hi, @c lo: the bits (0..127; a 128-bit layout is two 64-bit words,
 *   bits 127:64 in the second).
 * - @c Id: the field's name as virqtool spells it (the manual's name without
 *   spaces; a @c PART keeps its bit range, the name before '[' of the manual
 *   name names the whole value; reserved fields are @c R<hi>_<lo>).
 * - @c member, @c type: the member of the layout's C structure and its type
 *   (unused, @c none, for reserved fields).
 * - "manual name" as the manual prints it; "aliases": spellings virqtool
 *   accepted before it used the manual's, comma-separated.
 *
 * The tables name the document, its revision and the figure and table they
 * transcribe. tests/unit/avic/test_avic_layouts.c walks every table against
 * tests/data/amd_layouts.txt, a transcription written from the manuals
 * independently of this file.
 *
 * Thread-safety: constants only.
 */
#ifndef LIBVIRQ_AMD_FIELDS_H
#define LIBVIRQ_AMD_FIELDS_H

#include "../virq_env.h"
#include "../bitfield.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What a row of a layout table is. */
enum virq_amd_field_kind {
	LIBVIRQ_AMD_FIELD_VALUE = 0,	 ///< A value, right-aligned in its member.
	LIBVIRQ_AMD_FIELD_ADDRESS = 1,	 ///< An address held in place (PA[hi:lo]).
	LIBVIRQ_AMD_FIELD_PART_HIGH = 2, ///< The highest part of a value split over fields.
	LIBVIRQ_AMD_FIELD_PART = 3,	 ///< A lower part of a value split over fields.
	LIBVIRQ_AMD_FIELD_RESERVED = 4,	 ///< Reserved (SBZ, MBZ or ignored).
};

/** @brief One row of a layout table. */
struct virq_amd_field {
	const char *name;    ///< virqtool's name (the manual's without spaces).
	const char *manual;  ///< The name as the manual prints it.
	const char *aliases; ///< Older spellings, comma-separated ("" for none).
	uint8_t hi;	     ///< Highest bit (0..127).
	uint8_t lo;	     ///< Lowest bit.
	uint8_t mhi;	     ///< PART, PART_HIGH: highest bit of the value held here.
	uint8_t mlo;	     ///< PART, PART_HIGH: lowest bit of the value held here.
	uint8_t kind;	     ///< ::virq_amd_field_kind.
};

/** @brief A layout: its table and where the manual defines it. */
struct virq_amd_layout {
	const char *name;		     ///< Short name, e.g. "avic-phys-entry".
	const char *source;		     ///< Document, revision, section, figure/table.
	uint16_t bits;			     ///< Width: 32, 64 or 128.
	uint16_t nfields;		     ///< Rows in @c fields.
	const struct virq_amd_field *fields; ///< Highest bits first.
};

/* ------------------------------------------------------------------------- */
/** @name The tables
 *  @{ */

/**
 * @brief AVIC physical APIC ID table entry (64 bits): AMD64 APM Vol 2 rev 3.44
 *        §15.29.5.2, Figure 15-17 and Table 15-23.
 */
#define LIBVIRQ_AVIC_PHYS_ENTRY_TABLE(X, P)                                                        \
	X(P, VALUE, 63, 63, V, valid, bool, 0, 0, "V", "valid")                                    \
	X(P, VALUE, 62, 62, IR, is_running, bool, 0, 0, "IR", "IsRunning,running")                 \
	X(P, RESERVED, 61, 52, R61_52, none, none, 0, 0, "Reserved, SBZ", "")                      \
	X(P, ADDRESS, 51, 12, BackingPagePointer, backing_pa, uint64_t, 0, 0,                      \
	  "Backing Page Pointer", "backing,backing_pa")                                            \
	X(P, VALUE, 11, 0, HostPhysicalAPICID, host_apic_id, uint32_t, 0, 0,                       \
	  "Host Physical APIC ID", "host_apic_id")

/**
 * @brief AVIC logical APIC ID table entry (32 bits): AMD64 APM Vol 2 rev 3.44
 *        §15.29.5.3, Figure 15-19 and Table 15-24.
 */
#define LIBVIRQ_AVIC_LOG_ENTRY_TABLE(X, P)                                                         \
	X(P, VALUE, 31, 31, V, valid, bool, 0, 0, "V", "valid")                                    \
	X(P, RESERVED, 30, 8, R30_8, none, none, 0, 0, "Reserved, SBZ", "")                        \
	X(P, VALUE, 7, 0, GuestPhysicalAPICID, guest_apic_id, uint32_t, 0, 0,                      \
	  "Guest Physical APIC ID", "guest_apic_id")

/**
 * @brief The AVIC doorbell register, MSR C001_011Bh (64 bits): AMD64 APM Vol 2 rev 3.44
 *        rev 3.44 §15.29.8.2, Figure 15-22.
 */
#define LIBVIRQ_AVIC_DOORBELL_TABLE(X, P)                                                          \
	X(P, RESERVED, 63, 8, R63_8, none, none, 0, 0, "Reserved, MBZ", "")                        \
	X(P, VALUE, 7, 0, PhysicalAPICID, physical_apic_id, uint32_t, 0, 0, "Physical APIC ID",    \
	  "host_apic_id")

/**
 * @brief EXITINFO2 of \#VMEXIT AVIC_INCOMPLETE_IPI (64 bits): AMD64 APM Vol 2 rev 3.44
 *        rev 3.44 §15.29.9.1, Figure 15-24 and Table 15-26 (ID values: Table
 *        15-27). EXITINFO1 holds the ICR (Figure 15-23, Table 15-25).
 */
#define LIBVIRQ_AVIC_IPI_INFO2_TABLE(X, P)                                                         \
	X(P, VALUE, 63, 32, ID, raw_cause, uint32_t, 0, 0, "ID", "cause")                          \
	X(P, RESERVED, 31, 12, R31_12, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 11, 0, Index, index, uint32_t, 0, 0, "Index", "index")

/**
 * @brief EXITINFO1 of \#VMEXIT AVIC_NOACCEL (64 bits): AMD64 APM Vol 2 rev
 *        3.44 §15.29.9.2, Figure 15-25 and Table 15-28.
 */
#define LIBVIRQ_AVIC_NOACCEL_INFO1_TABLE(X, P)                                                     \
	X(P, RESERVED, 63, 33, R63_33, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 32, 32, RW, write, bool, 0, 0, "R/W", "write")                                 \
	X(P, RESERVED, 31, 12, R31_12, none, none, 0, 0, "Reserved", "")                           \
	X(P, ADDRESS, 11, 4, APIC_Offset, offset, uint32_t, 0, 0, "APIC_Offset[11:4]", "offset")   \
	X(P, RESERVED, 3, 0, R3_0, none, none, 0, 0, "Reserved", "")

/**
 * @brief EXITINFO2 of \#VMEXIT AVIC_NOACCEL (64 bits): AMD64 APM Vol 2 rev
 *        3.44 §15.29.9.2, Figure 15-26 and Table 15-29 (Vector: "Vector for
 *        attempted EOI; otherwise undefined").
 */
#define LIBVIRQ_AVIC_NOACCEL_INFO2_TABLE(X, P)                                                     \
	X(P, RESERVED, 63, 8, R63_8, none, none, 0, 0, "Reserved", "")                             \
	X(P, VALUE, 7, 0, Vector, vector, uint32_t, 0, 0, "Vector", "vector")

/**
 * @brief Interrupt Command Register in xAPIC mode (backing page 300h-310h, 64
 *        bits): AMD64 APM Vol 2 rev 3.44 §16.5, Figure 16-18.
 */
#define LIBVIRQ_APIC_ICR_TABLE(X, P)                                                               \
	X(P, VALUE, 63, 56, DES, dest, uint32_t, 0, 0, "DES", "dest")                              \
	X(P, RESERVED, 55, 20, R55_20, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 19, 18, DSH, shorthand, enum virq_avic_apic_shorthand, 0, 0, "DSH",            \
	  "shorthand")                                                                             \
	X(P, VALUE, 17, 16, RRS, remote_read_status, uint8_t, 0, 0, "RRS", "")                     \
	X(P, VALUE, 15, 15, TGM, level_trigger, bool, 0, 0, "TGM", "trigger")                      \
	X(P, VALUE, 14, 14, L, level_assert, bool, 0, 0, "L", "level")                             \
	X(P, RESERVED, 13, 13, R13, none, none, 0, 0, "Reserved", "")                              \
	X(P, VALUE, 12, 12, DS, busy, bool, 0, 0, "DS", "busy")                                    \
	X(P, VALUE, 11, 11, DM, logical, bool, 0, 0, "DM", "dest_mode")                            \
	X(P, VALUE, 10, 8, MT, delivery_mode, enum virq_avic_apic_dm, 0, 0, "MT", "delivery_mode") \
	X(P, VALUE, 7, 0, VEC, vector, uint8_t, 0, 0, "VEC", "vector")

/**
 * @brief Interrupt Command Register in x2APIC mode (MSR 830h, 64 bits):
 *        AMD64 APM Vol 2 rev 3.44 §16.13, Figure 16-34. (The figure's table
 *        prints the reserved field below DEST as "55:20"; the drawing and the
 *        other rows make it 31:20.)
 */
#define LIBVIRQ_APIC_ICR_X2_TABLE(X, P)                                                            \
	X(P, VALUE, 63, 32, DEST, dest, uint32_t, 0, 0, "DEST", "dest")                            \
	X(P, RESERVED, 31, 20, R31_20, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 19, 18, DSH, shorthand, enum virq_avic_apic_shorthand, 0, 0, "DSH",            \
	  "shorthand")                                                                             \
	X(P, RESERVED, 17, 16, R17_16, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 15, 15, TGM, level_trigger, bool, 0, 0, "TGM", "trigger")                      \
	X(P, VALUE, 14, 14, L, level_assert, bool, 0, 0, "L", "level")                             \
	X(P, RESERVED, 13, 12, R13_12, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 11, 11, DM, logical, bool, 0, 0, "DM", "dest_mode")                            \
	X(P, VALUE, 10, 8, MT, delivery_mode, enum virq_avic_apic_dm, 0, 0, "MT", "delivery_mode") \
	X(P, VALUE, 7, 0, VEC, vector, uint8_t, 0, 0, "VEC", "vector")

/**
 * @brief APIC ID register (backing page 20h, 32 bits): AMD64 APM Vol 2 rev
 *        3.44 §16.3.3, Figure 16-3.
 */
#define LIBVIRQ_APIC_ID_TABLE(X, P)                                                                \
	X(P, VALUE, 31, 24, AID, id, uint32_t, 0, 0, "AID", "apic_id")                             \
	X(P, RESERVED, 23, 0, R23_0, none, none, 0, 0, "Reserved", "")

/**
 * @brief Logical Destination Register (backing page D0h, 32 bits): AMD64 APM
 *        Vol 2 rev 3.44 §16.6.1, Figure 16-20.
 */
#define LIBVIRQ_APIC_LDR_TABLE(X, P)                                                               \
	X(P, VALUE, 31, 24, DLID, id, uint32_t, 0, 0, "DLID", "logical_id")                        \
	X(P, RESERVED, 23, 0, R23_0, none, none, 0, 0, "Reserved", "")

/**
 * @brief Destination Format Register (backing page E0h, 32 bits): AMD64 APM
 *        Vol 2 rev 3.44 §16.6.1, Figure 16-21 (bits 27:0 read as all ones).
 */
#define LIBVIRQ_APIC_DFR_TABLE(X, P)                                                               \
	X(P, VALUE, 31, 28, MOD, id, uint32_t, 0, 0, "MOD", "model")                               \
	X(P, RESERVED, 27, 0, R27_0, none, none, 0, 0, "Reserved", "")

/**
 * @brief Remote Read Register (backing page C0h, 32 bits): AMD64 APM Vol 2 rev
 *        3.44 §16.5, Figure 16-19.
 */
#define LIBVIRQ_APIC_RRR_TABLE(X, P) X(P, VALUE, 31, 0, RRD, id, uint32_t, 0, 0, "RRD", "")

/**
 * @brief 128-bit IRTE with GuestMode = 1 and a 32-bit destination (x2APIC,
 *        MMIO 0018h[XTEn] = 1): AMD IOMMU specification 48882 rev 3.11
 *        §2.2.5.3, Figure 20 (fields as Table 23 of §2.2.5.2 describes them;
 *        GAPPIDis is reserved unless MMIO 01A0h[GAPPIDisSup] = 1).
 */
#define LIBVIRQ_IRTE_GA_TABLE(X, P)                                                                \
	X(P, PART_HIGH, 127, 120, Destination_31_24, dest, uint32_t, 31, 24, "Destination[31:24]", \
	  "dest")                                                                                  \
	X(P, RESERVED, 119, 116, R119_116, none, none, 0, 0, "Reserved", "")                       \
	X(P, ADDRESS, 115, 76, GuestVirtualAPICTableRootPointer, ga_root_pa, uint64_t, 0, 0,       \
	  "Guest Virtual APIC Table Root Pointer", "ga_root_pa,GaRootPtr")                         \
	X(P, RESERVED, 75, 72, R75_72, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 71, 64, Vector, vector, uint8_t, 0, 0, "Vector", "vector")                     \
	X(P, VALUE, 63, 32, GATag, ga_tag, uint32_t, 0, 0, "GATag[31:0]", "ga_tag")                \
	X(P, PART, 31, 8, Destination_23_0, dest, uint32_t, 23, 0, "Destination[23:0]", "dest")    \
	X(P, VALUE, 7, 7, GuestMode, guest_mode, bool, 0, 0, "GuestMode", "guest_mode")            \
	X(P, VALUE, 6, 6, IsRun, is_run, bool, 0, 0, "IsRun", "is_run")                            \
	X(P, VALUE, 5, 5, GAPPIDis, gappi_dis, bool, 0, 0, "GAPPIDis", "gappi_dis")                \
	X(P, RESERVED, 4, 3, R4_3, none, none, 0, 0, "Reserved", "")                               \
	X(P, VALUE, 2, 2, GALogIntr, ga_log_intr, bool, 0, 0, "GALogIntr", "ga_log_intr")          \
	X(P, VALUE, 1, 1, SupIOPF, sup_iopf, bool, 0, 0, "SupIOPF", "sup_iopf")                    \
	X(P, VALUE, 0, 0, RemapEn, remap_en, bool, 0, 0, "RemapEn", "remap_en")

/**
 * @brief 128-bit IRTE with GuestMode = 0 and a 32-bit destination (x2APIC,
 *        MMIO 0018h[XTEn] = 1): AMD IOMMU specification 48882 rev 3.11
 *        §2.2.5.3, Figure 19 (fields as Table 22 of §2.2.5.2 describes them;
 *        IntType 010b-111b are reserved).
 */
#define LIBVIRQ_IRTE_REMAP_TABLE(X, P)                                                             \
	X(P, PART_HIGH, 127, 120, Destination_31_24, dest, uint32_t, 31, 24, "Destination[31:24]", \
	  "dest")                                                                                  \
	X(P, RESERVED, 119, 72, R119_72, none, none, 0, 0, "Reserved", "")                         \
	X(P, VALUE, 71, 64, Vector, vector, uint8_t, 0, 0, "Vector", "vector")                     \
	X(P, RESERVED, 63, 32, R63_32, none, none, 0, 0, "Reserved", "")                           \
	X(P, PART, 31, 8, Destination_23_0, dest, uint32_t, 23, 0, "Destination[23:0]", "dest")    \
	X(P, VALUE, 7, 7, GuestMode, guest_mode, bool, 0, 0, "GuestMode", "guest_mode")            \
	X(P, VALUE, 6, 6, DM, dm_logical, bool, 0, 0, "DM", "dm_logical")                          \
	X(P, VALUE, 5, 5, RqEoi, rq_eoi, bool, 0, 0, "RqEoi", "rq_eoi")                            \
	X(P, VALUE, 4, 2, IntType, int_type, uint8_t, 0, 0, "IntType", "int_type")                 \
	X(P, VALUE, 1, 1, SupIOPF, sup_iopf, bool, 0, 0, "SupIOPF", "sup_iopf")                    \
	X(P, VALUE, 0, 0, RemapEn, remap_en, bool, 0, 0, "RemapEn", "remap_en")

/**
 * @brief GA_GUEST_NR entry of the guest virtual APIC log (64 bits): AMD IOMMU
 *        specification 48882 rev 3.11 §2.7.3, Figure 79 (the generic entry of
 *        §2.7.2, Figure 78, with OpCode 0001b).
 */
#define LIBVIRQ_GA_LOG_ENTRY_TABLE(X, P)                                                           \
	X(P, VALUE, 63, 60, OpCode, code, uint8_t, 0, 0, "OpCode[3:0]", "code")                    \
	X(P, RESERVED, 59, 48, R59_48, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 47, 32, DeviceID, devid, uint16_t, 0, 0, "DeviceID", "devid")                  \
	X(P, VALUE, 31, 0, GATag, tag, uint32_t, 0, 0, "GATag", "tag")

/**
 * @brief Core performance event-select register PerfEvtSeln (64 bits): AMD64
 *        APM Vol 2 rev 3.44 §13.2.1, Figure 13-11 (HG_ONLY: Table 13-4).
 *        PREC_RET is "only available in PerfEvtSel2 and Reserved for other
 *        PerfEvtSeln registers", and reserved too unless CPUID
 *        Fn8000_0021_EAX[PreciseRetirePmc2Manual] is set.
 */
#define LIBVIRQ_PMC_PERFEVTSEL_TABLE(X, P)                                                         \
	X(P, RESERVED, 63, 44, R63_44, none, none, 0, 0, "Reserved", "")                           \
	X(P, VALUE, 43, 43, PREC_RET, prec_ret, bool, 0, 0, "PREC_RET", "")                        \
	X(P, RESERVED, 42, 42, R42, none, none, 0, 0, "Reserved", "")                              \
	X(P, VALUE, 41, 40, HG_ONLY, hg_only, uint8_t, 0, 0, "HG_ONLY", "HostGuestOnly")           \
	X(P, RESERVED, 39, 36, R39_36, none, none, 0, 0, "Reserved", "")                           \
	X(P, PART_HIGH, 35, 32, EVENT_SELECT_11_8, event_select, uint16_t, 11, 8,                  \
	  "EVENT_SELECT[11:8]", "EventSelect,event")                                               \
	X(P, VALUE, 31, 24, CNT_MASK, cnt_mask, uint8_t, 0, 0, "CNT_MASK", "CntMask")              \
	X(P, VALUE, 23, 23, INV, inv, bool, 0, 0, "INV", "")                                       \
	X(P, VALUE, 22, 22, EN, en, bool, 0, 0, "EN", "")                                          \
	X(P, RESERVED, 21, 21, R21, none, none, 0, 0, "Reserved", "")                              \
	X(P, VALUE, 20, 20, INT, int_en, bool, 0, 0, "INT", "")                                    \
	X(P, RESERVED, 19, 19, R19, none, none, 0, 0, "Reserved", "")                              \
	X(P, VALUE, 18, 18, EDGE, edge, bool, 0, 0, "EDGE", "Edge")                                \
	X(P, VALUE, 17, 17, OS, os, bool, 0, 0, "OS", "")                                          \
	X(P, VALUE, 16, 16, USR, usr, bool, 0, 0, "USR", "")                                       \
	X(P, VALUE, 15, 8, UNIT_MASK, unit_mask, uint8_t, 0, 0, "UNIT_MASK", "UnitMask,umask")     \
	X(P, PART, 7, 0, EVENT_SELECT_7_0, event_select, uint16_t, 7, 0, "EVENT_SELECT[7:0]",      \
	  "EventSelect,event")

/**
 * @brief Core performance counter PerfCtrn (64 bits): AMD64 APM Vol 2 rev
 *        3.44 §13.2.1, Figure 13-10 ("The length, in bits, of the performance
 *        counters is implementation-dependent, but the maximum length
 *        supported is 64 bits"; libvirq's counters hold 48,
 *        ::LIBVIRQ_PMCVIRT_CTR_MASK).
 */
#define LIBVIRQ_PMC_PERFCTR_TABLE(X, P)                                                            \
	X(P, VALUE, 63, 0, Count, count, uint64_t, 0, 0, "event or duration count", "count")

/**
 * @brief The VMCB state-save-area slots PMC virtualization swaps, as
 *        @c X(P, NAME, save-area offset, bytes, swap type): AMD64 APM Vol 2 rev 3.44
 *        rev 3.44 Appendix B, Table B-2 (offsets) and Table B-4 (sizes and
 *        swap types, Table B-3; B-2 gives PERF_CTR_GLOBAL_CTL a qword at
 *        1D0h and reserves 1D4h-1D7h, B-4 a dword).
 */
#define LIBVIRQ_VMCB_PMC_SLOTS_TABLE(X, P)                                                         \
	X(P, PERF_CTL0, 0x0E0, 8, C)                                                               \
	X(P, PERF_CTR0, 0x0E8, 8, C)                                                               \
	X(P, PERF_CTL1, 0x0F0, 8, C)                                                               \
	X(P, PERF_CTR1, 0x0F8, 8, C)                                                               \
	X(P, PERF_CTL2, 0x100, 8, C)                                                               \
	X(P, PERF_CTR2, 0x108, 8, C)                                                               \
	X(P, PERF_CTL3, 0x110, 8, C)                                                               \
	X(P, PERF_CTR3, 0x118, 8, C)                                                               \
	X(P, PERF_CTL4, 0x120, 8, C)                                                               \
	X(P, PERF_CTR4, 0x128, 8, C)                                                               \
	X(P, PERF_CTL5, 0x130, 8, C)                                                               \
	X(P, PERF_CTR5, 0x138, 8, C)                                                               \
	X(P, INSTR_RETIRED_CTR, 0x1C0, 8, A)                                                       \
	X(P, PERF_CTR_GLOBAL_STS, 0x1C8, 8, A)                                                     \
	X(P, PERF_CTR_GLOBAL_CTL, 0x1D0, 4, C)

/**
 * @brief Guest vAPIC register access behaviour, as
 *        @c X(first, last, x2APIC MSR, READ, WRITE, "register name"): AMD64 APM
 *        Vol 2 rev 3.44 §15.29.3.1, Table 15-22 (x2APIC MSR 0 where the table
 *        has none; the x2APIC-only Self IPI register, 83Fh, has no offset and
 *        is not listed). "Accesses to any other register locations not
 *        explicitly defined in this table are allowed to read and write the
 *        backing page." READ and WRITE: ALLOW, ACCEL, ACCEL_TRAP (accelerated,
 *        or a trap for a level-triggered EOI and for the ICR's "advanced
 *        functions"), TRAP, FAULT, EXTLVT_READ and EXTLVT_WRITE (with CPUID
 *        Fn8000_000A_EDX[27] = 1 allowed and trap, with 0 both fault).
 */
#define LIBVIRQ_AVIC_VAPIC_ACCESS_TABLE(X)                                                         \
	X(0x020, 0x020, 0x802, ALLOW, TRAP, "APIC ID Register")                                    \
	X(0x030, 0x030, 0x803, ALLOW, FAULT, "APIC Version Register")                              \
	X(0x080, 0x080, 0x808, ALLOW, ACCEL, "Task Priority Register (TPR)")                       \
	X(0x090, 0x090, 0x809, FAULT, FAULT, "Arbitration Priority Register (APR)")                \
	X(0x0A0, 0x0A0, 0x80A, ALLOW, FAULT, "Processor Priority Register (PPR)")                  \
	X(0x0B0, 0x0B0, 0x80B, ALLOW, ACCEL_TRAP, "End of Interrupt Register (EOI)")               \
	X(0x0C0, 0x0C0, 0, ALLOW, TRAP, "Remote Read Register")                                    \
	X(0x0D0, 0x0D0, 0x80D, ALLOW, TRAP, "Logical Destination Register")                        \
	X(0x0E0, 0x0E0, 0, ALLOW, TRAP, "Destination Format Register")                             \
	X(0x0F0, 0x0F0, 0x80F, ALLOW, TRAP, "Spurious Interrupt Vector Register")                  \
	X(0x100, 0x170, 0x810, ALLOW, FAULT, "In-Service Registers (ISR)")                         \
	X(0x180, 0x1F0, 0x818, ALLOW, FAULT, "Trigger Mode Registers (TMR)")                       \
	X(0x200, 0x270, 0x820, ALLOW, FAULT, "Interrupt Request Registers (IRR)")                  \
	X(0x280, 0x280, 0x828, ALLOW, TRAP, "Error Status Register (ESR)")                         \
	X(0x300, 0x300, 0x830, ALLOW, ACCEL_TRAP, "Interrupt Command Register Low (ICRL)")         \
	X(0x310, 0x310, 0, ALLOW, ALLOW, "Interrupt Command Register High (ICRH)")                 \
	X(0x320, 0x320, 0x832, ALLOW, TRAP, "Timer Local Vector Table Entry")                      \
	X(0x330, 0x330, 0x833, ALLOW, TRAP, "Thermal Local Vector Table Entry")                    \
	X(0x340, 0x340, 0x834, ALLOW, TRAP, "Performance Counter Local Vector Table Entry")        \
	X(0x350, 0x350, 0x835, ALLOW, TRAP, "Local Interrupt 0 Vector Table Entry")                \
	X(0x360, 0x360, 0x836, ALLOW, TRAP, "Local Interrupt 1 Vector Table Entry")                \
	X(0x370, 0x370, 0x837, ALLOW, TRAP, "Error Vector Table Entry")                            \
	X(0x380, 0x380, 0x838, ALLOW, TRAP, "Timer Initial Count Register")                        \
	X(0x390, 0x390, 0x839, FAULT, FAULT, "Timer Current Count Register")                       \
	X(0x3E0, 0x3E0, 0x83E, ALLOW, TRAP, "Timer Divide Configuration Register")                 \
	X(0x400, 0x400, 0x840, FAULT, FAULT, "Extended APIC Feature Register")                     \
	X(0x410, 0x410, 0x841, FAULT, FAULT, "Extended APIC Control Register")                     \
	X(0x420, 0x420, 0x842, FAULT, FAULT, "Specific End of Interrupt Register (SEOI)")          \
	X(0x480, 0x4F0, 0x848, FAULT, FAULT, "Interrupt Enable Registers (IER)")                   \
	X(0x500, 0x530, 0x850, EXTLVT_READ, EXTLVT_WRITE,                                          \
	  "Extended Interrupt [3:0] Local Vector Table Registers")                                 \
	X(0x540, 0xFF0, 0, FAULT, FAULT, "Reserved")
/** @} */

/* ------------------------------------------------------------------------- */
/** @cond LIBVIRQ_INTERNAL */
/*
 * Generators over the tables. Positions: P##Id##_HI_, _LO_ (within the
 * 64-bit word) and _W_ (the word), so that LIBVIRQ_AMD_F(P, Id) names a
 * field for LIBVIRQ_FIELD_GET() and friends.
 */
#define LIBVIRQ_AMD_POS_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                                \
	P##Id##_HI_ = (hi) % 64, P##Id##_LO_ = (lo) % 64, P##Id##_W_ = (lo) / 64,
#define LIBVIRQ_AMD_F(P, Id) P##Id##_HI_, P##Id##_LO_
#define LIBVIRQ_AMD_W(P, Id) P##Id##_W_

/* One descriptor row. */
#define LIBVIRQ_AMD_DESC_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                               \
	{#Id, man, al, hi, lo, mhi, mlo, LIBVIRQ_AMD_FIELD_##K},
/* Number of rows, total width and the reserved / whole masks of word W. The row terms
 * are summands of "0 X(row) X(row) ...", so they cannot be parenthesised. */
#define LIBVIRQ_AMD_COUNT_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al) +1 /* NOLINT */
#define LIBVIRQ_AMD_WIDTH_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                              \
	+((hi) - (lo) + 1) /* NOLINT(bugprone-macro-parentheses) */
#define LIBVIRQ_AMD_MASK_IN_(W, hi, lo)                                                            \
	((lo) / 64 == (W) ? LIBVIRQ_GENMASK((hi) % 64, (lo) % 64) : (uint64_t)0)
#define LIBVIRQ_AMD_RSVD_IS_RESERVED_ 1
#define LIBVIRQ_AMD_RSVD_IS_VALUE_ 0
#define LIBVIRQ_AMD_RSVD_IS_ADDRESS_ 0
#define LIBVIRQ_AMD_RSVD_IS_PART_HIGH_ 0
#define LIBVIRQ_AMD_RSVD_IS_PART_ 0
#define LIBVIRQ_AMD_RSVD0_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                              \
	| (LIBVIRQ_AMD_RSVD_IS_##K##_ ? LIBVIRQ_AMD_MASK_IN_(0, hi, lo) : (uint64_t)0)
#define LIBVIRQ_AMD_RSVD1_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                              \
	| (LIBVIRQ_AMD_RSVD_IS_##K##_ ? LIBVIRQ_AMD_MASK_IN_(1, hi, lo) : (uint64_t)0)
#define LIBVIRQ_AMD_ALL0_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                               \
	| LIBVIRQ_AMD_MASK_IN_(0, hi, lo)
#define LIBVIRQ_AMD_ALL1_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                               \
	| LIBVIRQ_AMD_MASK_IN_(1, hi, lo)
/** @endcond */

/** @brief Reserved bits of word @p W (0, or 1 for bits 127:64) of a table. */
#define LIBVIRQ_AMD_RSVD_MASK(TABLE, W) ((uint64_t)0 TABLE(LIBVIRQ_AMD_RSVD##W##_, ~))
/** @brief Every bit of word @p W a table describes (all of them, for a complete table). */
#define LIBVIRQ_AMD_ALL_MASK(TABLE, W) ((uint64_t)0 TABLE(LIBVIRQ_AMD_ALL##W##_, ~))
/** @brief Number of rows of a table. */
#define LIBVIRQ_AMD_NFIELDS(TABLE) (0 TABLE(LIBVIRQ_AMD_COUNT_, ~))
/** @brief Sum of the widths of a table's rows (the layout's width when they tile it). */
#define LIBVIRQ_AMD_WIDTH(TABLE) (0 TABLE(LIBVIRQ_AMD_WIDTH_, ~))

/** @cond LIBVIRQ_INTERNAL */
/*
 * Straight-line encoders and decoders: LIBVIRQ_AMD_ENC_ expands to one
 * statement per row with the fields' structure in `f` (const pointer) and the
 * words in `uint64_t w[]` (zeroed first); it returns LIBVIRQ_ERANGE for a
 * value that does not fit its field, LIBVIRQ_EALIGN for an address with bits
 * set below its field, and never truncates. LIBVIRQ_AMD_DEC_ fills `f`
 * (zeroed first) from `const uint64_t w[]` and ORs reserved bits that are set
 * into `uint64_t rsvd`.
 */
#define LIBVIRQ_AMD_ENC_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                                \
	LIBVIRQ_AMD_ENC_##K##_(hi, lo, m, mhi, mlo)
#define LIBVIRQ_AMD_ENC_VALUE_(hi, lo, m, mhi, mlo)                                                \
	if (((uint64_t)f->m >> ((hi) - (lo)) >> 1) != 0)                                           \
		return LIBVIRQ_ERANGE;                                                             \
	w[(lo) / 64] |= LIBVIRQ_FIELD_PREP_((hi) % 64, (lo) % 64, (uint64_t)f->m);
#define LIBVIRQ_AMD_ENC_ADDRESS_(hi, lo, m, mhi, mlo)                                              \
	if (((uint64_t)f->m & (LIBVIRQ_BIT((lo) % 64) - 1u)) != 0)                                 \
		return LIBVIRQ_EALIGN;                                                             \
	if (((uint64_t)f->m >> ((hi) % 64) >> 1) != 0)                                             \
		return LIBVIRQ_ERANGE;                                                             \
	w[(lo) / 64] |= (uint64_t)f->m;
#define LIBVIRQ_AMD_ENC_PART_HIGH_(hi, lo, m, mhi, mlo)                                            \
	if (((uint64_t)f->m >> (mhi) >> 1) != 0)                                                   \
		return LIBVIRQ_ERANGE;                                                             \
	LIBVIRQ_AMD_ENC_PART_(hi, lo, m, mhi, mlo)
#define LIBVIRQ_AMD_ENC_PART_(hi, lo, m, mhi, mlo)                                                 \
	w[(lo) / 64] |= LIBVIRQ_FIELD_PREP_((hi) % 64, (lo) % 64,                                  \
					    LIBVIRQ_FIELD_GET_(mhi, mlo, (uint64_t)f->m));
#define LIBVIRQ_AMD_ENC_RESERVED_(hi, lo, m, mhi, mlo)

#define LIBVIRQ_AMD_DEC_(P, K, hi, lo, Id, m, t, mhi, mlo, man, al)                                \
	LIBVIRQ_AMD_DEC_##K##_(hi, lo, m, t, mhi, mlo)
#define LIBVIRQ_AMD_DEC_VALUE_(hi, lo, m, t, mhi, mlo)                                             \
	f->m = (t)LIBVIRQ_FIELD_GET_((hi) % 64, (lo) % 64, w[(lo) / 64]);
#define LIBVIRQ_AMD_DEC_ADDRESS_(hi, lo, m, t, mhi, mlo)                                           \
	f->m = (t)(w[(lo) / 64] & LIBVIRQ_GENMASK((hi) % 64, (lo) % 64));
#define LIBVIRQ_AMD_DEC_PART_HIGH_(hi, lo, m, t, mhi, mlo)                                         \
	LIBVIRQ_AMD_DEC_PART_(hi, lo, m, t, mhi, mlo)
#define LIBVIRQ_AMD_DEC_PART_(hi, lo, m, t, mhi, mlo)                                              \
	f->m = (t)(f->m | (t)(LIBVIRQ_FIELD_GET_((hi) % 64, (lo) % 64, w[(lo) / 64]) << (mlo)));
#define LIBVIRQ_AMD_DEC_RESERVED_(hi, lo, m, t, mhi, mlo)                                          \
	rsvd |= w[(lo) / 64] & LIBVIRQ_GENMASK((hi) % 64, (lo) % 64);

/* Field positions of every table, for the drivers (LIBVIRQ_AMD_F()). */
enum { LIBVIRQ_AVIC_PHYS_ENTRY_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_AVIC_PHYS_) };
enum { LIBVIRQ_AVIC_LOG_ENTRY_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_AVIC_LOG_) };
enum { LIBVIRQ_AVIC_DOORBELL_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_AVIC_DOORBELL_) };
enum { LIBVIRQ_AVIC_IPI_INFO2_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_AVIC_IPI2_) };
enum { LIBVIRQ_AVIC_NOACCEL_INFO1_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_AVIC_NOACCEL1_) };
enum { LIBVIRQ_AVIC_NOACCEL_INFO2_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_AVIC_NOACCEL2_) };
enum { LIBVIRQ_APIC_ICR_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_APIC_ICR_) };
enum { LIBVIRQ_APIC_ICR_X2_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_APIC_ICR2_) };
enum { LIBVIRQ_APIC_ID_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_APIC_ID_) };
enum { LIBVIRQ_APIC_LDR_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_APIC_LDR_) };
enum { LIBVIRQ_APIC_DFR_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_APIC_DFR_) };
enum { LIBVIRQ_APIC_RRR_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_APIC_RRR_) };
enum { LIBVIRQ_IRTE_GA_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_IRTE_GA_) };
enum { LIBVIRQ_IRTE_REMAP_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_IRTE_RM_) };
enum { LIBVIRQ_GA_LOG_ENTRY_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_GALOG_) };
enum { LIBVIRQ_PMC_PERFEVTSEL_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_PMC_EVTSEL_) };
enum { LIBVIRQ_PMC_PERFCTR_TABLE(LIBVIRQ_AMD_POS_, LIBVIRQ_PMC_CTR_) };
/** @endcond */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_AMD_FIELDS_H */
