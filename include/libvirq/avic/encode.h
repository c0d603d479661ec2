/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD AVIC pure encoders and decoders: APIC ID table entries, ICR, exit information.
 *
 * No state, no HAL: every function here is pure and thread-safe. The
 * layouts are the tables of libvirq/amd/fields.h, each naming the figure and
 * table of the manual it transcribes; the encoders and decoders here are
 * generated from them.
 * Spec: AMD64 APM Vol 2 rev 3.44 §15.29. Part of the AVIC module; include
 * libvirq/avic.h.
 */
#ifndef LIBVIRQ_AVIC_ENCODE_H
#define LIBVIRQ_AVIC_ENCODE_H

#include "../status.h"
#include "../amd/fields.h"
#include "regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/** @name Pure encoders and decoders (no state, thread-safe)
 *  @{ */

/**
 * @brief Fields of a physical APIC ID table entry (64 bits; AMD64 APM Vol 2 rev 3.44
 *        §15.29.5.2, Table 15-23; ::LIBVIRQ_AVIC_PHYS_ENTRY_TABLE).
 */
struct virq_avic_phys_entry {
	uint32_t host_apic_id; ///< Bits 11:0, Host Physical APIC ID (0..0xFFF).
	uint64_t backing_pa;   ///< Bits 51:12, Backing Page Pointer (4 KiB aligned, < 2^52).
	bool is_running;       ///< Bit 62, IR (IsRunning).
	bool valid;	       ///< Bit 63, V.
};

/**
 * @brief Encodes a physical APIC ID table entry.
 * @param f   Fields.
 * @param out Receives the 64-bit entry.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when host_apic_id > 0xFFF
 *         or backing_pa >= 2^52; ::LIBVIRQ_EALIGN when backing_pa is not 4 KiB aligned.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.5.2, Figure 15-17 and
 * Table 15-23 (Host Physical APIC ID is bits 11:0).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_phys_entry_encode(const struct virq_avic_phys_entry *f,
							   uint64_t *out);
/**
 * @brief Decodes a physical APIC ID table entry.
 * @param e Entry. @param f Receives the fields.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when reserved bits 61:52 are set
 *         (fields are still filled). Whenever it returns ::LIBVIRQ_OK,
 *         virq_avic_phys_entry_encode() of the fields gives back exactly @p e.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.5.2, Table 15-23.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_phys_entry_decode(uint64_t e,
							   struct virq_avic_phys_entry *f);

/**
 * @brief Encodes a logical APIC ID table entry (32 bits: 7:0 Guest Physical APIC ID, 31 V).
 * @param guest_apic_id 0..0xFF. @param valid V. @param out Receives the entry.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when guest_apic_id > 0xFF.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.5.3, Figure 15-19 and
 * Table 15-24 (::LIBVIRQ_AVIC_LOG_ENTRY_TABLE).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_logical_entry_encode(uint32_t guest_apic_id, bool valid,
							      uint32_t *out);
/**
 * @brief Decodes a logical APIC ID table entry.
 * @param e Entry. @param guest_apic_id Receives bits 7:0. @param valid Receives bit 31.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when reserved bits 30:8 are
 *         set (the fields are still filled).
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.5.3, Table 15-24.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_logical_entry_decode(uint32_t e, uint32_t *guest_apic_id,
							      bool *valid);

/**
 * @brief Encodes a write to the doorbell register (MSR C001_011Bh): the physical APIC ID
 *        of the core to signal in bits 7:0, bits 63:8 zero.
 *
 * The manual defines no wider value ("Reserved, MBZ" above bit 7, though the physical
 * APIC ID table entry's host field is 12 bits): a core whose APIC ID is above 0xFF
 * cannot be rung, and libvirq kicks it instead (@ref avic-doorbell-apic-id).
 * @param physical_apic_id 0..0xFF. @param out Receives the MSR value.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when @p physical_apic_id
 *         > 0xFF (nothing written).
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.8.2, Figure 15-22
 * (::LIBVIRQ_AVIC_DOORBELL_TABLE).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_doorbell_encode(uint32_t physical_apic_id, uint64_t *out);

/** @brief xAPIC DFR value for the flat model. */
#define LIBVIRQ_APIC_DFR_FLAT 0xFFFFFFFFu
/** @brief xAPIC DFR value for the cluster model. */
#define LIBVIRQ_APIC_DFR_CLUSTER 0x0FFFFFFFu

/**
 * @brief Logical APIC ID table index for an xAPIC LDR.
 *
 * Flat (DFR[31:28] = 0xF): the 8-bit logical ID must have exactly one bit
 * set; index = its position (0..7). Cluster (DFR[31:28] = 0): cluster =
 * ID[7:4] (0xF rejected, broadcast), ID[3:0] exactly one bit; index =
 * cluster × 4 + bit (0..59).
 *
 * @param dfr DFR register value. @param ldr LDR register value (ID in 31:24).
 * @param index Receives the index.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL, or a DFR model other than 0x0/0xF);
 *         ::LIBVIRQ_ENOENT when the LDR names no single destination (zero or
 *         several bits, cluster 0xF) — the vCPU gets no logical entry.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.5.3 (Figures 15-20 and
 * 15-21), §16.6.1 (Figures 16-20 and 16-21).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_logical_index(uint32_t dfr, uint32_t ldr, uint32_t *index);

/**
 * @brief x2APIC LDR derived from an x2APIC ID: ((id >> 4) << 16) | (1 << (id & 0xF)).
 * @param x2apic_id Any 32-bit ID (IDs above 0xFFFEF give clusters above 0xFFFF and are
 *        truncated architecturally — such IDs have no logical address).
 * @return The LDR value.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §16.14 ("logical_id[15:0] =
 * 1 << x2APIC_ID[3:0] and cluster_id[15:0] = x2APIC_ID[19:4]").
 */
uint32_t virq_avic_x2apic_ldr(uint32_t x2apic_id);

/**
 * @brief ICR message types (ICR[10:8] MT; AMD64 APM Vol 2 rev 3.44 §16.5). In x2APIC mode
 *        1, 3 and 7 "are eliminated and the encodings are reserved" (§16.13).
 */
enum virq_avic_apic_dm {
	LIBVIRQ_APIC_DM_FIXED = 0,	 ///< 000b Fixed.
	LIBVIRQ_APIC_DM_LOWEST = 1,	 ///< 001b Lowest Priority.
	LIBVIRQ_APIC_DM_SMI = 2,	 ///< 010b SMI.
	LIBVIRQ_APIC_DM_REMOTE_READ = 3, ///< 011b Remote read (xAPIC only).
	LIBVIRQ_APIC_DM_NMI = 4,	 ///< 100b NMI.
	LIBVIRQ_APIC_DM_INIT = 5,	 ///< 101b INIT.
	LIBVIRQ_APIC_DM_SIPI = 6,	 ///< 110b STARTUP.
	LIBVIRQ_APIC_DM_EXTINT = 7,	 ///< 111b External interrupt.
};
/** @brief Former name of ::LIBVIRQ_APIC_DM_REMOTE_READ (deprecated). */
#define LIBVIRQ_APIC_DM_RSVD3 LIBVIRQ_APIC_DM_REMOTE_READ

/** @brief ICR[17:16] RRS (Remote Read Status) values (AMD64 APM Vol 2 rev 3.44 §16.5). */
enum virq_avic_apic_rrs {
	LIBVIRQ_APIC_RRS_INVALID = 0, ///< 00b "Read was invalid".
	LIBVIRQ_APIC_RRS_PENDING = 1, ///< 01b "Delivery pending".
	LIBVIRQ_APIC_RRS_VALID = 2,   ///< 10b "Delivery done and access was valid".
};

/** @brief ICR destination shorthands (ICR[19:18]). */
enum virq_avic_apic_shorthand {
	LIBVIRQ_APIC_SH_NONE = 0,	  ///< Use the destination field.
	LIBVIRQ_APIC_SH_SELF = 1,	  ///< Self.
	LIBVIRQ_APIC_SH_ALL = 2,	  ///< All including self.
	LIBVIRQ_APIC_SH_ALL_BUT_SELF = 3, ///< All excluding self.
};

/**
 * @brief A decoded ICR (64 bits: low dword = ICR, high dword = ICR2 / x2APIC destination):
 *        AMD64 APM Vol 2 rev 3.44 §16.5 Figure 16-18 (xAPIC, ::LIBVIRQ_APIC_ICR_TABLE) and
 *        §16.13 Figure 16-34 (x2APIC, ::LIBVIRQ_APIC_ICR_X2_TABLE).
 */
struct virq_avic_icr {
	uint8_t vector;				 ///< ICR[7:0] VEC.
	enum virq_avic_apic_dm delivery_mode;	 ///< ICR[10:8] MT.
	bool logical;				 ///< ICR[11] DM: destination mode, 1 = logical.
	bool busy;				 ///< ICR[12] DS: delivery status (xAPIC only).
	bool level_assert;			 ///< ICR[14] L: level, 1 = assert.
	bool level_trigger;			 ///< ICR[15] TGM: trigger mode, 1 = level.
	enum virq_avic_apic_shorthand shorthand; ///< ICR[19:18] DSH.
	uint32_t dest;		    ///< xAPIC: ICR[63:56] DES; x2APIC: ICR[63:32] DEST.
	bool x2apic;		    ///< The sender's mode used for the layout.
	uint8_t remote_read_status; ///< ICR[17:16] RRS, ::virq_avic_apic_rrs (xAPIC only).
};

/**
 * @brief Decodes a 64-bit ICR with the SENDER's APIC mode
 *        (@ref avic-icr-sender-mode).
 *
 * Reserved bits are ignored (a guest's ICR value is decoded as the APIC would act on it);
 * in x2APIC mode DS and RRS do not exist and read as 0.
 * @param icr ICR value (EXITINFO1 of AVIC_INCOMPLETE_IPI has the same layout).
 * @param sender_x2apic True when the sender's APIC is in x2APIC mode.
 * @param out Receives the fields.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §16.5 (Figure 16-18), §16.13
 * (Figure 16-34), §15.29.9.1 (Table 15-25: EXITINFO1 holds ICRH:ICRL).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_icr_decode(uint64_t icr, bool sender_x2apic,
						    struct virq_avic_icr *out);
/**
 * @brief Encodes an ICR (inverse of virq_avic_icr_decode()).
 * @param f Fields (@c x2apic selects the layout). @param out Receives the ICR.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL, delivery mode or shorthand out of range,
 *         @c busy or @c remote_read_status set in x2APIC layout, which has neither);
 *         ::LIBVIRQ_ERANGE when @c dest exceeds 0xFF in xAPIC layout or
 *         @c remote_read_status exceeds 3.
 * Thread-safety: pure.
 * Spec: AMD64 APM Vol 2 rev 3.44 §16.5 (Figure 16-18), §16.13 (Figure 16-34).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_icr_encode(const struct virq_avic_icr *f, uint64_t *out);

/**
 * @brief AVIC_INCOMPLETE_IPI failure causes: the ID field, EXITINFO2[63:32] (AMD64 APM
 *        Vol 2 rev 3.44 §15.29.9.1, Table 15-27).
 */
enum virq_avic_ipi_cause {
	LIBVIRQ_AVIC_IPI_INVALID_INT_TYPE = 0,	   ///< 0 Invalid interrupt type: emulate.
	LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING = 1,   ///< 1 IPI Target Not Running: wake targets.
	LIBVIRQ_AVIC_IPI_INVALID_TARGET = 2,	   ///< 2 Invalid IPI Target: emulate whole IPI.
	LIBVIRQ_AVIC_IPI_INVALID_BACKING_PAGE = 3, ///< 3 Invalid Backing Page Pointer: report.
	LIBVIRQ_AVIC_IPI_INVALID_VECTOR = 4,	   ///< 4 Invalid IPI Vector (< 16): ignore.
	LIBVIRQ_AVIC_IPI_UNACCELERATED = 5,	   ///< 5 Un-accelerated IPI (Secure AVIC): report.
	LIBVIRQ_AVIC_IPI_UNKNOWN = 6,		   ///< Any ID above 5 (reserved): report.
};
/** @brief Number of ::virq_avic_ipi_cause values (the size of the per-cause counters). */
#define LIBVIRQ_AVIC_IPI_NCAUSES 7u

/** @brief Decoded AVIC_INCOMPLETE_IPI exit information. */
struct virq_avic_exit_ipi {
	struct virq_avic_icr icr; ///< EXITINFO1 (ICRH:ICRL) decoded with the sender's mode.
	enum virq_avic_ipi_cause
	    cause;	    ///< EXITINFO2[63:32] ID (::LIBVIRQ_AVIC_IPI_UNKNOWN if > 5).
	uint32_t raw_cause; ///< EXITINFO2[63:32] as given.
	uint32_t index;	    ///< EXITINFO2[11:0] Index (a logical or physical table index).
	bool index_valid;   ///< The ID is 1..3: "Reserved for all other ID values" (APM Vol 2
			    ///< rev 3.44 Table 15-26).
};

/**
 * @brief Decodes AVIC_INCOMPLETE_IPI (0x401) EXITINFO1/2.
 * @param info1 EXITINFO1 (ICR). @param info2 EXITINFO2 (ID, index; reserved bits 31:12
 *        ignored). @param sender_x2apic Sender's APIC mode. @param out Receives the decode.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.9.1, Tables 15-25 to 15-27
 * (::LIBVIRQ_AVIC_IPI_INFO2_TABLE).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_exit_ipi_decode(uint64_t info1, uint64_t info2,
							 bool sender_x2apic,
							 struct virq_avic_exit_ipi *out);

/** @brief Decoded AVIC_NOACCEL exit information. */
struct virq_avic_exit_noaccel {
	uint32_t offset; ///< EXITINFO1[11:4] APIC_Offset[11:4] << 4 (16-byte aligned).
	bool write;	 ///< EXITINFO1[32] R/W: 1 = write.
	bool trap; ///< True: trap (write done, RIP advanced); false: fault (emulate the access).
	uint8_t vector;	   ///< EXITINFO2[7:0] Vector: the EOI's vector when @c vector_valid.
	bool vector_valid; ///< A write of EOI (B0h): Vector is "otherwise undefined".
};

/**
 * @brief True when a write of APIC register @p offset that AVIC does not accelerate is a
 *        trap (the write is done, RIP advanced) rather than a fault.
 *
 * From Table 15-22 (::LIBVIRQ_AVIC_VAPIC_ACCESS_TABLE): trap writes are APIC ID 20h, EOI
 * B0h (level-triggered), Remote Read C0h, LDR D0h, DFR E0h, SVR F0h, ESR 280h, ICRL 300h,
 * the LVTs and timer registers 320h-380h and 3E0h, and — when CPUID Fn8000_000A EDX[27]
 * ExtLvtAvicAccessChg is set — the extended LVTs 500h-530h (without it their reads and
 * writes both fault). Every other register faults; no read of any register traps.
 * @param offset Register offset (any value; out of 0..0xFF0 gives false).
 * @param ext_lvt_trap CPUID Fn8000_000A EDX[27] (virq_avic_caps::ext_lvt_trap).
 * @return True for a trap offset.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.3.1, Table 15-22; AMD64 APM
 * Vol 3 rev 3.37 §E.4.9 (EDX[27]).
 */
bool virq_avic_noaccel_is_trap(uint32_t offset, bool ext_lvt_trap);

/**
 * @brief Decodes AVIC_NOACCEL (0x402) EXITINFO1/2.
 *
 * EXITINFO2 holds the vector in bits 7:0 only, and only for a write of EOI; bits 63:8 are
 * reserved (Linux reads 31:0 for its trace, arch/x86/kvm/svm AVIC_UNACCEL_ACCESS_VECTOR_MASK
 * since 18f40c53e10f; libvirq follows the manual).
 * @param info1 EXITINFO1. @param info2 EXITINFO2.
 * @param ext_lvt_trap CPUID Fn8000_000A EDX[27] (virq_avic_caps::ext_lvt_trap).
 * @param out Receives the decode.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.9.2, Tables 15-28 and 15-29
 * (::LIBVIRQ_AVIC_NOACCEL_INFO1_TABLE, ::LIBVIRQ_AVIC_NOACCEL_INFO2_TABLE).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_exit_noaccel_decode(uint64_t info1, uint64_t info2,
							     bool ext_lvt_trap,
							     struct virq_avic_exit_noaccel *out);

/** @brief What the embedder does with an x2APIC MSR under x2AVIC. */
enum virq_avic_msr_access {
	LIBVIRQ_AVIC_MSR_INTERCEPT = 0,	      ///< Intercept reads and writes.
	LIBVIRQ_AVIC_MSR_PASS_READ = 1,	      ///< Pass reads through, intercept writes.
	LIBVIRQ_AVIC_MSR_PASS_READ_WRITE = 2, ///< Pass reads and writes through.
	LIBVIRQ_AVIC_MSR_PASS_WRITE = 3,      ///< Pass writes through, intercept reads (write-only
					      ///< register: the embedder injects \#GP on a read).
};

/**
 * @brief MSR-bitmap policy for one x2APIC MSR (0x800..0x8FF) when x2AVIC is active.
 *
 * Reads pass through for ID, VER, TPR, PPR, LDR, SPIV, ISR0-7, TMR0-7, IRR0-7, ESR,
 * ICR, LVT CMCI..LVT Error, TMICT. Writes pass through only for TPR (0x808),
 * EOI (0x80B), ICR (0x830) and SELF_IPI (0x83F); EOI and SELF_IPI are
 * write-only (a read \#GPs), so their reads are intercepted
 * (::LIBVIRQ_AVIC_MSR_PASS_WRITE).
 * Everything else (including TMCCT, DFR, undefined MSRs and MSRs outside the
 * range) is intercepted.
 * @param msr MSR index. @return The policy.
 * Thread-safety: pure. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.10 (x2AVIC), §15.29.3.1
 * (Table 15-22), §16.11.1 (Table 16-6, x2APIC registers).
 */
enum virq_avic_msr_access virq_avic_x2apic_msr_access(uint32_t msr);
/** @} */

/* ------------------------------------------------------------------------- */
/** @name The layouts as data (for tools and tests)
 *  @{ */
/** @brief Physical APIC ID table entry (::LIBVIRQ_AVIC_PHYS_ENTRY_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_phys_entry;
/** @brief Logical APIC ID table entry (::LIBVIRQ_AVIC_LOG_ENTRY_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_logical_entry;
/** @brief Doorbell register (::LIBVIRQ_AVIC_DOORBELL_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_doorbell;
/** @brief AVIC_INCOMPLETE_IPI EXITINFO2 (::LIBVIRQ_AVIC_IPI_INFO2_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_ipi_info2;
/** @brief AVIC_NOACCEL EXITINFO1 (::LIBVIRQ_AVIC_NOACCEL_INFO1_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_noaccel_info1;
/** @brief AVIC_NOACCEL EXITINFO2 (::LIBVIRQ_AVIC_NOACCEL_INFO2_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_noaccel_info2;
/** @brief xAPIC ICR (::LIBVIRQ_APIC_ICR_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_icr;
/** @brief x2APIC ICR (::LIBVIRQ_APIC_ICR_X2_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_icr_x2;
/** @brief Backing page APIC ID register (::LIBVIRQ_APIC_ID_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_apic_id;
/** @brief Backing page LDR (::LIBVIRQ_APIC_LDR_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_apic_ldr;
/** @brief Backing page DFR (::LIBVIRQ_APIC_DFR_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_apic_dfr;
/** @brief Backing page Remote Read Register (::LIBVIRQ_APIC_RRR_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_apic_rrr;
/** @brief IOMMU IRTE, GuestMode = 1 (::LIBVIRQ_IRTE_GA_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_irte_ga;
/** @brief IOMMU IRTE, GuestMode = 0 (::LIBVIRQ_IRTE_REMAP_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_irte_remap;
/** @brief IOMMU GA log entry (::LIBVIRQ_GA_LOG_ENTRY_TABLE). */
extern const struct virq_amd_layout virq_avic_layout_ga_log;
/** @brief Every layout above, NULL-terminated. */
extern const struct virq_amd_layout *const virq_avic_layouts[];

/**
 * @brief One row of APM Vol 2 rev 3.44 Table 15-22 (guest vAPIC register access behaviour):
 *        registers @c first .. @c last (16-byte steps) and what AVIC does with a read and
 *        a write of them (::virq_avic_access values).
 */
struct virq_avic_vapic_reg {
	uint16_t first;	  ///< First register offset.
	uint16_t last;	  ///< Last register offset.
	uint16_t x2msr;	  ///< x2APIC MSR of @c first, or 0 when it has none.
	uint8_t read;	  ///< ::virq_avic_access of a read.
	uint8_t write;	  ///< ::virq_avic_access of a write.
	const char *name; ///< The register's name in the table.
};
/** @brief What AVIC does with one access (APM Vol 2 rev 3.44 Table 15-22). */
enum virq_avic_access {
	LIBVIRQ_AVIC_ACCESS_ALLOW = 0,	    ///< "Allowed": the backing page is read or written.
	LIBVIRQ_AVIC_ACCESS_ACCEL = 1,	    ///< "Accelerated by AVIC".
	LIBVIRQ_AVIC_ACCESS_ACCEL_TRAP = 2, ///< Accelerated, or \#VMEXIT (trap) in some cases.
	LIBVIRQ_AVIC_ACCESS_TRAP = 3,	    ///< "\#VMEXIT (trap)".
	LIBVIRQ_AVIC_ACCESS_FAULT = 4,	    ///< "\#VMEXIT (fault)".
	/** Allowed with CPUID Fn8000_000A EDX[27], else fault. */
	LIBVIRQ_AVIC_ACCESS_EXTLVT_READ = 5,
	LIBVIRQ_AVIC_ACCESS_EXTLVT_WRITE = 6, ///< Trap with CPUID Fn8000_000A EDX[27], else fault.
};
/** @brief APM Vol 2 rev 3.44 Table 15-22 as data (::LIBVIRQ_AVIC_VAPIC_ACCESS_TABLE), @c name NULL
 * after the last. */
extern const struct virq_avic_vapic_reg virq_avic_vapic_regs[];
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_AVIC_ENCODE_H */
