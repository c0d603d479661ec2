/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Simulator model of the AVIC hardware's handling of a guest ICR
 *        write (AMD APM Vol 2 §15.29.3.1).
 *
 * Written independently of libvirq's own destination resolution and
 * decoders: it reads the raw VMCB (AVIC enable bits, backing page, logical
 * and physical APIC ID table pointers, APM Appendix B Table B-1), the
 * tables and the backing pages through the simulator's PA → VA map with its
 * own masks. A guest ICR write either sets IRR bits in the targets' backing
 * pages (ringing the doorbell of targets that run) or produces the \#VMEXIT
 * AVIC_INCOMPLETE_IPI (0x401) with its cause and table index.
 *
 * Thread-safety: for the test's thread while no library call that changes
 * the tables is in progress.
 */
#ifndef LIBVIRQ_SIM_AVIC_H
#define LIBVIRQ_SIM_AVIC_H

#include <libvirq/sim/hal.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_avic AVIC model
 * @ingroup virq_sim
 * @{
 */

/** @brief Largest number of targets one ICR write can reach (x2AVIC 4K: 4096 + self). */
#define LIBVIRQ_SIM_AVIC_MAX 4097

/** @brief What one ICR write did. */
struct virq_sim_avic_result {
	bool exited;			    /**< A \#VMEXIT was taken. */
	uint64_t exit_code;		    /**< 0x401 (AVIC_INCOMPLETE_IPI) when @c exited. */
	uint64_t info1;			    /**< EXITINFO1 (the ICR). */
	uint64_t info2;			    /**< EXITINFO2 (cause [63:32], index). */
	uint32_t nirr;			    /**< Entries of @c irr used. */
	uint32_t irr[LIBVIRQ_SIM_AVIC_MAX]; /**< Physical-table indexes whose IRR bit was set. */
	uint32_t ndoorbell;		    /**< Entries of @c doorbell used. */
	uint32_t doorbell[LIBVIRQ_SIM_AVIC_MAX]; /**< Host APIC IDs signalled. */
};

/** @brief Model options. */
struct virq_sim_avic_opts {
	/** Vectors < 16 exit with INVALID_VECTOR (newer CPUs; older ones deliver them). */
	bool check_vector;
	/**
	 * CPUID Fn8000_000A EDX[27] (ExtLvtAvicAccessChg, ::virq_sim_cpu::avic_extlvt):
	 * reads of the extended LVT registers (0x500 .. 0x530) are accelerated
	 * and writes trap; without it both fault (virq_sim_avic_apic_access()).
	 */
	bool extlvt;
	/**
	 * Bits of the physical APIC ID table entry's host physical APIC ID
	 * [11:0] the CPU consumes (0: 12). The APM documented 8 bits up to
	 * revision 3.37 and 12 later, and no CPUID bit tells which (a doorbell
	 * for host APIC ID 0x1FF goes to 0xFF on an 8-bit part).
	 */
	uint8_t host_id_bits;
};

/**
 * @brief The guest running on host CPU @p host_apic_id with VMCB @p vmcb
 *        writes its ICR.
 *
 * xAPIC: ICR2 = @p icr_hi, then ICR = @p icr_lo; x2APIC: the 64-bit ICR MSR
 * with the destination in @p icr_hi.
 *
 * @param sim The simulator (its pages hold the tables and backing pages).
 * @param vmcb The VMCB (4 KiB, as virq_avic_vmcb_write() filled it).
 * @param host_apic_id The host CPU the sender runs on.
 * @param icr_lo ICR[31:0]. @param icr_hi ICR[63:32].
 * @param opts Options; NULL for the defaults.
 * @param r Receives what happened.
 * @return 0, or -1 when the VMCB does not enable AVIC or a table is not
 *         mapped (a test setup error).
 */
int virq_sim_avic_icr_write(struct virq_sim *sim, const void *vmcb, uint32_t host_apic_id,
			    uint32_t icr_lo, uint32_t icr_hi, const struct virq_sim_avic_opts *opts,
			    struct virq_sim_avic_result *r);

/** @brief What one guest access to a vAPIC register did. */
struct virq_sim_avic_access {
	bool exited;	 /**< \#VMEXIT AVIC_NOACCEL (0x402) was taken. */
	bool trap;	 /**< A trap exit: the write landed in the backing page first. */
	uint64_t info1;	 /**< EXITINFO1: the offset in [11:4], bit 32 set for a write. */
	uint64_t info2;	 /**< EXITINFO2: the vector of a level-triggered EOI (7:0), else 0. */
	uint32_t value;	 /**< A read that did not exit: the register (from the backing page). */
	bool eoi_done;	 /**< An accelerated EOI cleared this ISR bit ... */
	uint8_t eoi_vec; /**< ... of this vector. */
};

/**
 * @brief The guest on VMCB @p vmcb reads or writes the vAPIC register at
 *        @p offset (xAPIC MMIO, or the x2APIC MSR 0x800 + offset / 16).
 *
 * Models AMD64 APM Vol 2 rev 3.44 Table 15-22 "Guest vAPIC Register Access
 * Behavior" with the model's own list (not the library's
 * ::LIBVIRQ_AVIC_VAPIC_ACCESS_TABLE): an allowed or accelerated access reads
 * or writes the backing page; a trap writes it, then exits; a fault exits
 * without touching it. Reads fault for APR, Current Count, the extended APIC
 * registers 400h-4F0h and offsets from 540h; writes are accelerated for TPR
 * and ICR high, trap for ID, RRR, LDR, DFR, SPIV, ESR, the LVTs, Initial
 * Count and Divide Config, and fault for Version, APR, PPR, ISR, TMR, IRR,
 * Current Count and from 400h; other offsets are "allowed to read and write
 * the backing page". An EOI write clears the highest in-service vector
 * (accelerated), or exits as a trap with the vector in EXITINFO2[7:0] when
 * its TMR bit is set. The extended LVTs (500h-530h) follow @c opts->extlvt
 * (CPUID Fn8000_000A EDX[27], ::virq_sim_cpu::avic_extlvt): set, reads are
 * allowed and writes trap; clear, both fault. A write of ICR low is not
 * modelled here (virq_sim_avic_icr_write()).
 *
 * @param sim The simulator. @param vmcb The guest's VMCB (AVIC enabled).
 * @param offset Register offset, 16-byte aligned, 0 .. 0xFF0.
 * @param write True for a write. @param value The value written.
 * @param opts CPU options (NULL: none). @param a Filled.
 * @return 0, or -1 for an offset not 16-byte aligned, ICR low written, or a
 *         VMCB without AVIC or backing page (a test setup error).
 */
int virq_sim_avic_apic_access(struct virq_sim *sim, const void *vmcb, uint32_t offset, bool write,
			      uint32_t value, const struct virq_sim_avic_opts *opts,
			      struct virq_sim_avic_access *a);

/**
 * @brief Whether @p vector is pending in a backing page's IRR (the model's own offsets).
 * @param backing_va The backing page. @param vector The vector.
 * @return True when IRR[@p vector] is set.
 */
bool virq_sim_avic_irr_test(const void *backing_va, uint8_t vector);
/**
 * @brief Clears IRR[@p vector] of a backing page (the guest took the interrupt).
 * @param backing_va The backing page. @param vector The vector.
 */
void virq_sim_avic_irr_clear(void *backing_va, uint8_t vector);

/** @brief Doorbell MSR (C001_011Bh) writes the library made. */
struct virq_sim_avic_doorbells {
	uint32_t n;		 /**< Writes. */
	uint64_t last;		 /**< The last value written (a host APIC ID). */
	uint32_t per_host[4096]; /**< Writes per host APIC ID. */
	/**
	 * Set by the test after virq_sim_avic_watch_doorbells() and before the
	 * library's first write: the register refuses (\#GP, the
	 * write reports ::LIBVIRQ_EHW) a value with any of bits 63:8 set, which AMD64
	 * APM Vol 2 rev 3.44 Figure 15-22 makes "Reserved, MBZ"; clear, it takes
	 * any value (hardware known to accept wider APIC IDs).
	 */
	bool mbz_faults;
	uint32_t refused; /**< Writes refused for bits 63:8 (with @c mbz_faults). */
	uint32_t wide;	  /**< Writes that had any of bits 63:8 set. */
};
/**
 * @brief Records the library's doorbell MSR writes into @p d.
 *
 * Every member of @p d is zeroed, @c mbz_faults included (the register takes any
 * value); set @c mbz_faults afterwards to model the \#GP. @p d need not be
 * initialised before the call.
 * @param sim The simulator. @param d Counters; must outlive the simulator's use.
 */
void virq_sim_avic_watch_doorbells(struct virq_sim *sim, struct virq_sim_avic_doorbells *d);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_AVIC_H */
