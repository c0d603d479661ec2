/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD AVIC pure encoders and decoders: APIC ID table entries, ICR, exit information.
 *
 * No state, no HAL: every function here is pure and thread-safe.
 * Spec: APM Vol. 2 §15.29. Part of the AVIC module; include libvirq/avic.h.
 */
#ifndef LIBVIRQ_AVIC_ENCODE_H
#define LIBVIRQ_AVIC_ENCODE_H

#include "../status.h"
#include "regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/** @name Pure encoders and decoders (no state, thread-safe)
 *  @{ */

/** @brief Fields of a physical APIC ID table entry (64 bits; APM §15.29.3.2). */
struct virq_avic_phys_entry {
	uint32_t host_apic_id; ///< Bits 11:0: host physical APIC ID (0..0xFFF).
	uint64_t backing_pa;   ///< Bits 51:12: backing page PA (4 KiB aligned, < 2^52).
	bool is_running;       ///< Bit 62: IsRunning.
	bool valid;	       ///< Bit 63: Valid.
};

/**
 * @brief Encodes a physical APIC ID table entry.
 * @param f   Fields.
 * @param out Receives the 64-bit entry.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when host_apic_id > 0xFFF
 *         or backing_pa >= 2^52; ::LIBVIRQ_EALIGN when backing_pa is not 4 KiB aligned.
 * Thread-safety: pure. Spec: APM §15.29.3.2 (host ID field 11:0 — APM up to rev 3.37
 * documented 7:0; how many bits older parts consume is UNCERTAIN).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_phys_entry_encode(const struct virq_avic_phys_entry *f,
							   uint64_t *out);
/**
 * @brief Decodes a physical APIC ID table entry.
 * @param e Entry. @param f Receives the fields.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when reserved bits 61:52 are set
 *         (fields are still filled).
 * Thread-safety: pure. Spec: APM §15.29.3.2.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_phys_entry_decode(uint64_t e,
							   struct virq_avic_phys_entry *f);

/**
 * @brief Encodes a logical APIC ID table entry (32 bits: 7:0 guest physical APIC ID, 31 Valid).
 * @param guest_apic_id 0..0xFF. @param valid Valid bit. @param out Receives the entry.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when guest_apic_id > 0xFF.
 * Thread-safety: pure. Spec: APM §15.29.3.3.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_logical_entry_encode(uint32_t guest_apic_id, bool valid,
							      uint32_t *out);
/**
 * @brief Decodes a logical APIC ID table entry.
 * @param e Entry. @param guest_apic_id Receives bits 7:0. @param valid Receives bit 31.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_ERANGE when reserved bits 30:8 are set.
 * Thread-safety: pure. Spec: APM §15.29.3.3.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_logical_entry_decode(uint32_t e, uint32_t *guest_apic_id,
							      bool *valid);

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
 * Thread-safety: pure. Spec: APM §15.29.3.3.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_logical_index(uint32_t dfr, uint32_t ldr, uint32_t *index);

/**
 * @brief x2APIC LDR derived from an x2APIC ID: ((id >> 4) << 16) | (1 << (id & 0xF)).
 * @param x2apic_id Any 32-bit ID (IDs above 0xFFFEF give clusters above 0xFFFF and are
 *        truncated architecturally — such IDs have no logical address).
 * @return The LDR value.
 * Thread-safety: pure. Spec: Intel SDM Vol 3 §11.12.10.2 / AMD APM Vol 2 §16.
 */
uint32_t virq_avic_x2apic_ldr(uint32_t x2apic_id);

/** @brief ICR delivery modes (ICR[10:8]). */
enum virq_avic_apic_dm {
	LIBVIRQ_APIC_DM_FIXED = 0,  ///< Fixed.
	LIBVIRQ_APIC_DM_LOWEST = 1, ///< Lowest priority.
	LIBVIRQ_APIC_DM_SMI = 2,    ///< SMI.
	LIBVIRQ_APIC_DM_RSVD3 = 3,  ///< Reserved.
	LIBVIRQ_APIC_DM_NMI = 4,    ///< NMI.
	LIBVIRQ_APIC_DM_INIT = 5,   ///< INIT.
	LIBVIRQ_APIC_DM_SIPI = 6,   ///< Start-up.
	LIBVIRQ_APIC_DM_EXTINT = 7, ///< ExtINT.
};

/** @brief ICR destination shorthands (ICR[19:18]). */
enum virq_avic_apic_shorthand {
	LIBVIRQ_APIC_SH_NONE = 0,	  ///< Use the destination field.
	LIBVIRQ_APIC_SH_SELF = 1,	  ///< Self.
	LIBVIRQ_APIC_SH_ALL = 2,	  ///< All including self.
	LIBVIRQ_APIC_SH_ALL_BUT_SELF = 3, ///< All excluding self.
};

/** @brief A decoded ICR (64 bits: low dword = ICR, high dword = ICR2 / x2APIC destination). */
struct virq_avic_icr {
	uint8_t vector;				 ///< ICR[7:0].
	enum virq_avic_apic_dm delivery_mode;	 ///< ICR[10:8].
	bool logical;				 ///< ICR[11]: destination mode, 1 = logical.
	bool busy;				 ///< ICR[12]: delivery status.
	bool level_assert;			 ///< ICR[14]: level, 1 = assert.
	bool level_trigger;			 ///< ICR[15]: trigger mode, 1 = level.
	enum virq_avic_apic_shorthand shorthand; ///< ICR[19:18].
	uint32_t dest;				 ///< xAPIC: ICR[63:56]; x2APIC: ICR[63:32].
	bool x2apic;				 ///< The sender's mode used for @c dest.
};

/**
 * @brief Decodes a 64-bit ICR with the SENDER's APIC mode
 *        (@ref avic-icr-sender-mode).
 * @param icr ICR value (EXITINFO1 of AVIC_INCOMPLETE_IPI has the same layout).
 * @param sender_x2apic True when the sender's APIC is in x2APIC mode.
 * @param out Receives the fields.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure. Spec: APM Vol 2 §16.5 (ICR), §15.29.3.1.
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_icr_decode(uint64_t icr, bool sender_x2apic,
						    struct virq_avic_icr *out);
/**
 * @brief Encodes an ICR (inverse of virq_avic_icr_decode()).
 * @param f Fields (@c x2apic selects the destination layout). @param out Receives the ICR.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL, delivery mode or shorthand out of range);
 *         ::LIBVIRQ_ERANGE when @c dest exceeds 0xFF in xAPIC layout.
 * Thread-safety: pure.
 * Spec: APM Vol 2 §16.5 (ICR).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_icr_encode(const struct virq_avic_icr *f, uint64_t *out);

/** @brief AVIC_INCOMPLETE_IPI failure causes (EXITINFO2[63:32]). */
enum virq_avic_ipi_cause {
	LIBVIRQ_AVIC_IPI_INVALID_INT_TYPE = 0,	   ///< Not a fixed edge IPI: emulate.
	LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING = 1,   ///< IRR already set: wake targets.
	LIBVIRQ_AVIC_IPI_INVALID_TARGET = 2,	   ///< Some target invalid: emulate whole IPI.
	LIBVIRQ_AVIC_IPI_INVALID_BACKING_PAGE = 3, ///< Bad backing page: report.
	LIBVIRQ_AVIC_IPI_INVALID_VECTOR = 4,	   ///< Vector < 16: ignore.
	LIBVIRQ_AVIC_IPI_UNKNOWN = 5,		   ///< Any other value: report.
};

/** @brief Decoded AVIC_INCOMPLETE_IPI exit information. */
struct virq_avic_exit_ipi {
	struct virq_avic_icr icr;	///< EXITINFO1 decoded with the sender's mode.
	enum virq_avic_ipi_cause cause; ///< EXITINFO2[63:32] (::LIBVIRQ_AVIC_IPI_UNKNOWN if > 4).
	uint32_t raw_cause;		///< EXITINFO2[63:32] as given.
	uint32_t index; ///< EXITINFO2[11:0]: table index (width UNCERTAIN in the APM; 11:0 as 4K
			///< x2AVIC needs).
};

/**
 * @brief Decodes AVIC_INCOMPLETE_IPI (0x401) EXITINFO1/2.
 * @param info1 EXITINFO1 (ICR). @param info2 EXITINFO2 (cause, index).
 * @param sender_x2apic Sender's APIC mode. @param out Receives the decode.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure. Spec: APM §15.29.3.3 / Table 15-29 (\#VMEXIT 0x401).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_exit_ipi_decode(uint64_t info1, uint64_t info2,
							 bool sender_x2apic,
							 struct virq_avic_exit_ipi *out);

/** @brief Decoded AVIC_NOACCEL exit information. */
struct virq_avic_exit_noaccel {
	uint32_t offset; ///< EXITINFO1[11:4] << 4: APIC register offset (16-byte aligned).
	bool write;	 ///< EXITINFO1[32]: 1 = write.
	bool trap; ///< True: trap (write done, RIP advanced); false: fault (emulate the access).
	uint32_t vector; ///< EXITINFO2[31:0] (meaning UNCERTAIN in the APM; informational).
};

/**
 * @brief True when an unaccelerated access to APIC register @p offset is a trap.
 *
 * Trap offsets: ID 0x20, EOI 0xB0, RRR 0xC0, LDR 0xD0, DFR 0xE0, SPIV 0xF0, ESR 0x280,
 * ICR 0x300, LVT Timer 0x320, Thermal 0x330, PerfMon 0x340, LINT0 0x350, LINT1 0x360,
 * Error 0x370, TMICT 0x380, TDCR 0x3E0. Everything else faults.
 * @param offset Register offset (any value; out of 0..0xFF0 gives false).
 * @return True for a trap offset.
 * Thread-safety: pure. Spec: APM §15.29.3.2 "Unaccelerated accesses".
 */
bool virq_avic_noaccel_is_trap(uint32_t offset);

/**
 * @brief Decodes AVIC_NOACCEL (0x402) EXITINFO1/2.
 * @param info1 EXITINFO1. @param info2 EXITINFO2. @param out Receives the decode.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL).
 * Thread-safety: pure. Spec: APM Table 15-29 (\#VMEXIT 0x402).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_exit_noaccel_decode(uint64_t info1, uint64_t info2,
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
 * Thread-safety: pure. Spec: APM §15.29.4 (x2AVIC).
 */
enum virq_avic_msr_access virq_avic_x2apic_msr_access(uint32_t msr);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_AVIC_ENCODE_H */
