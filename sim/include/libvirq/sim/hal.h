/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief libvirq_sim: a complete libvirq HAL on the host, for unit tests of
 *        libvirq and of the hypervisors that embed it.
 *
 * A simulator (<tt>struct virq_sim</tt>) is a HAL (virq_sim_hal()) that behaves like a
 * machine the library can drive, plus the controls a test needs:
 *
 * - **MMIO**: a register file (32-bit words keyed by address; a 64-bit
 *   access is two words, low first) with range hooks (virq_sim_add_region())
 *   through which the hardware models react to reads and writes, and
 *   "stuck" registers that ignore writes.
 * - **MSRs and CPUID**: an MSR file with per-MSR hooks and injectable \#GP
 *   faults; a CPUID table (CPU profiles: libvirq/sim/cpu.h).
 * - **Pages**: host memory with the real alignment and fake physical
 *   addresses (same alignment, from 32 GiB up), PA → VA translation for the
 *   models, live-page accounting for leak checks, and "fail the Nth
 *   allocation".
 * - **Clock**: @c now_ns returns a fake clock that @c relax advances (1 µs
 *   per call by default), optionally each read too, with injectable faults
 *   (virq_sim_clock_fault(): stop, jump, run backwards).
 * - **Observation**: counters of every access by kind and address, an
 *   optional ordered trace, the log messages the library sent, kick counts.
 *
 * Hardware models on top (each its own header): the GICv3/v4 ITS command
 * queue (its.h) and its translation state (its_state.h), the distributor
 * and redistributors (rdist.h), a whole GIC at documented addresses with
 * its ::virq_gic_desc (gic.h), the AVIC's ICR-write handling (avic.h), an
 * AMD PMU around VMRUN (pmc.h), CPU profiles (cpu.h). The models decode
 * what the library writes with their own code: they include only libvirq's
 * public headers, never its sources, so an encoding mistake in the library
 * cannot hide behind a shared decoder.
 *
 * The simulator is a host library (it uses libc and pthreads); the library
 * it tests never depends on it. Link @c libvirq::virq_sim
 * (<tt>find_package(libvirq COMPONENTS sim)</tt>) or
 * <tt>pkg-config libvirq-sim</tt>; a guide with examples is docs/sim.md.
 *
 * Thread-safety: every function takes the simulator's one recursive mutex,
 * so a simulator may be used from several threads at once (the library's
 * HAL contract allows concurrent MMIO, MSR, clock and kick calls). Hooks run
 * with the mutex held and may call back into the simulator.
 */
#ifndef LIBVIRQ_SIM_HAL_H
#define LIBVIRQ_SIM_HAL_H

#include <libvirq/hal.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim Simulator (libvirq_sim)
 * @brief The host HAL and hardware models for tests (docs/sim.md).
 */

/**
 * @defgroup virq_sim_core Simulator core: the HAL
 * @ingroup virq_sim
 * @{
 */

/** @brief A simulator (opaque): one simulated machine and its HAL. */
struct virq_sim;

/** @brief Access kinds, for counters and traces. */
enum virq_sim_kind {
	LIBVIRQ_SIM_MMIO_R32,  /**< @c mmio_read32 (address). */
	LIBVIRQ_SIM_MMIO_W32,  /**< @c mmio_write32 (address, value). */
	LIBVIRQ_SIM_MMIO_R64,  /**< @c mmio_read64. */
	LIBVIRQ_SIM_MMIO_W64,  /**< @c mmio_write64. */
	LIBVIRQ_SIM_MSR_R,     /**< @c msr_read (MSR index, value read). */
	LIBVIRQ_SIM_MSR_W,     /**< @c msr_write (MSR index, value). */
	LIBVIRQ_SIM_CPUID,     /**< @c cpuid (leaf, subleaf). */
	LIBVIRQ_SIM_CLEAN,     /**< @c dcache_clean (VA, length). */
	LIBVIRQ_SIM_BARRIER,   /**< @c barrier (0, kind). */
	LIBVIRQ_SIM_KICK,      /**< @c kick_vcpu (cookie). */
	LIBVIRQ_SIM_ALLOC,     /**< @c page_alloc that succeeded (PA, size). */
	LIBVIRQ_SIM_FREE,      /**< @c page_free (PA, size). */
	LIBVIRQ_SIM_RELAX,     /**< @c relax. */
	LIBVIRQ_SIM_NOW,       /**< @c now_ns (counted only, never traced). */
	LIBVIRQ_SIM_KIND_COUNT /**< Number of kinds (not a kind). */
};

/**
 * @brief MMIO read hook of a region.
 * @param arg   The hook's argument (virq_sim_add_region()).
 * @param sim   The simulator.
 * @param addr  Address read.
 * @param width 32 or 64.
 * @return The value read.
 */
typedef uint64_t (*virq_sim_mmio_read_fn)(void *arg, struct virq_sim *sim, uint64_t addr,
					  unsigned width);
/**
 * @brief MMIO write hook of a region.
 * @param arg   The hook's argument.
 * @param sim   The simulator.
 * @param addr  Address written.
 * @param value Value written.
 * @param width 32 or 64.
 */
typedef void (*virq_sim_mmio_write_fn)(void *arg, struct virq_sim *sim, uint64_t addr,
				       uint64_t value, unsigned width);
/**
 * @brief MSR read hook.
 * @param arg   The hook's argument (virq_sim_msr_hook()).
 * @param sim   The simulator.
 * @param msr   MSR index.
 * @param value Receives the value.
 * @return ::LIBVIRQ_OK, or ::LIBVIRQ_EHW to model a \#GP.
 */
typedef virq_status (*virq_sim_msr_read_fn)(void *arg, struct virq_sim *sim, uint32_t msr,
					    uint64_t *value);
/**
 * @brief MSR write hook.
 * @param arg   The hook's argument.
 * @param sim   The simulator.
 * @param msr   MSR index.
 * @param value Value written.
 * @return ::LIBVIRQ_OK, or ::LIBVIRQ_EHW to model a \#GP.
 */
typedef virq_status (*virq_sim_msr_write_fn)(void *arg, struct virq_sim *sim, uint32_t msr,
					     uint64_t value);
/**
 * @brief Called on every HAL @c relax, after the clock advanced (models
 *        make progress "over time" here).
 * @param arg The hook's argument.
 * @param sim The simulator.
 */
typedef void (*virq_sim_relax_fn)(void *arg, struct virq_sim *sim);
/**
 * @brief Called on every HAL @c kick_vcpu.
 * @param arg    The hook's argument.
 * @param sim    The simulator.
 * @param cookie The vCPU cookie the library passed.
 */
typedef void (*virq_sim_kick_fn)(void *arg, struct virq_sim *sim, void *cookie);

/** @brief One traced event. */
struct virq_sim_trace_ev {
	enum virq_sim_kind kind; /**< What happened. */
	uint64_t addr;	/**< MMIO address, MSR index, CPUID leaf, VA of a clean, PA of an alloc. */
	uint64_t value; /**< Value read or written, length of a clean, size of an alloc. */
};

/**
 * @brief Creates a simulator: empty register file, no MSRs or CPUID leaves,
 *        clock 0 advancing 1000 ns per @c relax.
 *
 * With the environment variable @c LIBVIRQ_SIM_VERBOSE set (not "0"), every
 * log message and failure report the library sends is also printed to
 * stderr (a failure with its status by name: virq_sim_fail_count()).
 *
 * @return The simulator; never NULL (aborts when out of memory).
 */
struct virq_sim *virq_sim_new(void);
/**
 * @brief Frees a simulator and its pages (not the models: free those with
 *        their own calls, after the last library call that can reach them).
 * @param sim The simulator; NULL is allowed.
 */
void virq_sim_free(struct virq_sim *sim);
/**
 * @brief The HAL to give libvirq.
 * @param sim The simulator.
 * @return ::virq_hal with virq_sim_hal_ops() and @p sim as context.
 */
struct virq_hal virq_sim_hal(struct virq_sim *sim);
/**
 * @brief The ops table with every callback (MMIO, MSR, CPUID, pages,
 *        dcache_clean, barrier, now_ns, relax, log, kick_vcpu, fail).
 *
 * Tests copy it to remove callbacks (virq_hal_validate() tests) or to set
 * ::virq_hal_ops::poll_round_ns.
 *
 * @return A static table.
 */
const struct virq_hal_ops *virq_sim_hal_ops(void);

/**
 * @brief Sets a 32-bit register (raw: not counted, no hooks).
 * @param sim  The simulator. @param addr Address (4-byte aligned). @param v Value.
 */
void virq_sim_reg_set32(struct virq_sim *sim, uint64_t addr, uint32_t v);
/**
 * @brief Reads a 32-bit register (raw).
 * @param sim The simulator. @param addr Address.
 * @return The value (0 when never written).
 */
uint32_t virq_sim_reg_get32(struct virq_sim *sim, uint64_t addr);
/**
 * @brief Sets a 64-bit register as two 32-bit words, low first (raw).
 * @param sim The simulator. @param addr Address (8-byte aligned). @param v Value.
 */
void virq_sim_reg_set64(struct virq_sim *sim, uint64_t addr, uint64_t v);
/**
 * @brief Reads a 64-bit register (raw).
 * @param sim The simulator. @param addr Address.
 * @return The value.
 */
uint64_t virq_sim_reg_get64(struct virq_sim *sim, uint64_t addr);
/**
 * @brief Makes a 32-bit register always read @p v and ignore writes (still counted).
 * @param sim The simulator. @param addr Address. @param v Value read.
 */
void virq_sim_reg_stick32(struct virq_sim *sim, uint64_t addr, uint32_t v);
/**
 * @brief Routes MMIO accesses to [@p base, @p base + @p size) to hooks.
 *
 * Later regions take precedence over earlier ones (a test may override one
 * register of a model). A NULL hook leaves that direction to the register
 * file.
 *
 * @param sim The simulator. @param base First address. @param size Bytes.
 * @param rd Read hook or NULL. @param wr Write hook or NULL. @param arg Hooks' argument.
 */
void virq_sim_add_region(struct virq_sim *sim, uint64_t base, uint64_t size,
			 virq_sim_mmio_read_fn rd, virq_sim_mmio_write_fn wr, void *arg);
/**
 * @brief Hooks on the single 32-bit register at @p addr (a 4-byte region).
 * @param sim The simulator. @param addr Address.
 * @param rd Read hook or NULL. @param wr Write hook or NULL. @param arg Hooks' argument.
 */
void virq_sim_on_reg(struct virq_sim *sim, uint64_t addr, virq_sim_mmio_read_fn rd,
		     virq_sim_mmio_write_fn wr, void *arg);

/**
 * @brief Sets an MSR (raw).
 * @param sim The simulator. @param msr Index. @param v Value.
 */
void virq_sim_msr_set(struct virq_sim *sim, uint32_t msr, uint64_t v);
/**
 * @brief Reads an MSR (raw).
 * @param sim The simulator. @param msr Index.
 * @return The value (0 when never written).
 */
uint64_t virq_sim_msr_get(struct virq_sim *sim, uint32_t msr);
/**
 * @brief Makes every access to @p msr fault (\#GP: the HAL returns ::LIBVIRQ_EHW), or stop
 * faulting.
 * @param sim The simulator. @param msr Index. @param fault True to fault.
 */
void virq_sim_msr_fault(struct virq_sim *sim, uint32_t msr, bool fault);
/**
 * @brief Routes accesses to @p msr to hooks (NULL: the MSR file).
 * @param sim The simulator. @param msr Index.
 * @param rd Read hook or NULL. @param wr Write hook or NULL. @param arg Hooks' argument.
 */
void virq_sim_msr_hook(struct virq_sim *sim, uint32_t msr, virq_sim_msr_read_fn rd,
		       virq_sim_msr_write_fn wr, void *arg);
/**
 * @brief Sets what CPUID returns for (@p leaf, @p subleaf); others return zeros.
 * @param sim The simulator. @param leaf EAX. @param subleaf ECX.
 * @param eax Result EAX. @param ebx Result EBX. @param ecx Result ECX. @param edx Result EDX.
 */
void virq_sim_cpuid_set(struct virq_sim *sim, uint32_t leaf, uint32_t subleaf, uint32_t eax,
			uint32_t ebx, uint32_t ecx, uint32_t edx);

/**
 * @brief Makes the @p n-th @c page_alloc from now fail with ::LIBVIRQ_ENOMEM.
 * @param sim The simulator. @param n 1 = the next call; 0 disables.
 */
void virq_sim_fail_alloc_nth(struct virq_sim *sim, unsigned long n);
/**
 * @brief Total @c page_alloc calls so far (successful or not).
 * @param sim The simulator. @return The count.
 */
unsigned long virq_sim_alloc_calls(struct virq_sim *sim);
/**
 * @brief Allocations not yet freed.
 * @param sim The simulator. @return The count.
 */
size_t virq_sim_live_pages(struct virq_sim *sim);
/**
 * @brief Bytes of the allocations not yet freed.
 * @param sim The simulator. @return The sum of their sizes.
 */
size_t virq_sim_live_bytes(struct virq_sim *sim);
/**
 * @brief Translates a fake physical address for a model.
 * @param sim The simulator. @param pa Physical address. @param len Bytes needed.
 * @return The VA of [@p pa, @p pa + @p len) when it lies inside one live allocation, else NULL.
 */
void *virq_sim_pa_to_va(struct virq_sim *sim, uint64_t pa, size_t len);
/**
 * @brief The fake physical address of a VA.
 * @param sim The simulator. @param va An address inside a live allocation.
 * @return The PA, or UINT64_MAX when @p va is in no live allocation.
 */
uint64_t virq_sim_va_to_pa(struct virq_sim *sim, const void *va);
/**
 * @brief Frees of a page the simulator did not hand out (double free, corruption).
 * @param sim The simulator. @return The count (also reported on stderr as they happen).
 */
unsigned long virq_sim_bad_frees(struct virq_sim *sim);

/**
 * @brief The simulator's own clock (what @c now_ns returns without a clock fault).
 * @param sim The simulator. @return Nanoseconds.
 */
uint64_t virq_sim_now(struct virq_sim *sim);
/**
 * @brief Advances the clock.
 * @param sim The simulator. @param ns Nanoseconds.
 */
void virq_sim_clock_advance(struct virq_sim *sim, uint64_t ns);
/**
 * @brief How far each @c relax advances the clock (default 1000 ns; 0: not at all).
 * @param sim The simulator. @param ns Nanoseconds.
 */
void virq_sim_set_relax_step(struct virq_sim *sim, uint64_t ns);
/**
 * @brief How far each @c now_ns call advances the clock (default 0).
 * @param sim The simulator. @param ns Nanoseconds.
 */
void virq_sim_set_now_step(struct virq_sim *sim, uint64_t ns);
/**
 * @brief Adds a hook called on every @c relax (in the order added).
 * @param sim The simulator. @param fn Hook. @param arg Its argument.
 */
void virq_sim_on_relax(struct virq_sim *sim, virq_sim_relax_fn fn, void *arg);

/** @brief Faults of the clock @c now_ns returns (virq_sim_clock_fault()). */
enum virq_sim_clock_fault_kind {
	LIBVIRQ_SIM_CLOCK_OK = 0,	 /**< A working clock (and no offset). */
	LIBVIRQ_SIM_CLOCK_STOP,		 /**< Returns the same value for ever. */
	LIBVIRQ_SIM_CLOCK_JUMP_FORWARD,	 /**< Jumps @c ns forward once, then runs normally. */
	LIBVIRQ_SIM_CLOCK_JUMP_BACK,	 /**< Jumps @c ns back once, then runs normally. */
	LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS, /**< Each read returns @c ns less than the one before. */
};
/**
 * @brief Injects a fault into the clock the HAL's @c now_ns returns.
 *
 * The simulator's own clock (virq_sim_now(), models' notion of time) keeps
 * running; only what the library reads changes. The fault takes effect at
 * the (@p after + 1)-th @c now_ns call from now. ::LIBVIRQ_SIM_CLOCK_OK
 * removes any fault and offset.
 *
 * @param sim   The simulator.
 * @param kind  The fault.
 * @param after @c now_ns calls that still see the working clock.
 * @param ns    Size of the jump, or the step of a clock running backwards.
 */
void virq_sim_clock_fault(struct virq_sim *sim, enum virq_sim_clock_fault_kind kind, uint64_t after,
			  uint64_t ns);

/**
 * @brief Sets the hook called on every @c kick_vcpu (one hook; NULL removes it).
 * @param sim The simulator. @param fn Hook. @param arg Its argument.
 */
void virq_sim_on_kick(struct virq_sim *sim, virq_sim_kick_fn fn, void *arg);
/**
 * @brief Kicks of a vCPU cookie so far.
 * @param sim The simulator. @param cookie The cookie. @return The count.
 */
unsigned long virq_sim_kicks_of(struct virq_sim *sim, void *cookie);

/**
 * @brief Accesses of a kind since creation or the last reset.
 * @param sim The simulator. @param kind The kind. @return The count.
 */
unsigned long virq_sim_count(struct virq_sim *sim, enum virq_sim_kind kind);
/**
 * @brief MMIO (kinds R32..W64) or MSR (R/W) accesses of @p kind at @p addr.
 * @param sim The simulator. @param kind The kind. @param addr MMIO address or MSR index.
 * @return The count.
 */
unsigned long virq_sim_count_at(struct virq_sim *sim, enum virq_sim_kind kind, uint64_t addr);
/**
 * @brief All MMIO reads and writes.
 * @param sim The simulator. @return The count.
 */
unsigned long virq_sim_mmio_total(struct virq_sim *sim);
/**
 * @brief All MSR reads and writes.
 * @param sim The simulator. @return The count.
 */
unsigned long virq_sim_msr_total(struct virq_sim *sim);
/**
 * @brief Zeroes every counter (not the log, the trace or the kick counts).
 * @param sim The simulator.
 */
void virq_sim_reset_counters(struct virq_sim *sim);

/**
 * @brief Starts or stops the trace (off at creation).
 * @param sim The simulator. @param on True to record.
 */
void virq_sim_trace(struct virq_sim *sim, bool on);
/**
 * @brief Events in the trace.
 * @param sim The simulator. @return The count.
 */
size_t virq_sim_trace_len(struct virq_sim *sim);
/**
 * @brief One traced event.
 * @param sim The simulator. @param i Index, 0 ≤ @p i < virq_sim_trace_len().
 * @return The event, valid until the trace grows or is cleared; NULL when out of range.
 */
const struct virq_sim_trace_ev *virq_sim_trace_at(struct virq_sim *sim, size_t i);
/**
 * @brief Empties the trace.
 * @param sim The simulator.
 */
void virq_sim_trace_clear(struct virq_sim *sim);
/**
 * @brief Finds the first event of @p kind at @p addr at or after index @p from.
 * @param sim The simulator. @param from First index. @param kind Kind. @param addr Address.
 * @return The index, or SIZE_MAX.
 */
size_t virq_sim_trace_find(struct virq_sim *sim, size_t from, enum virq_sim_kind kind,
			   uint64_t addr);

/**
 * @brief Log messages the library sent at @p lvl.
 * @param sim The simulator. @param lvl Level. @return The count.
 */
unsigned long virq_sim_log_count(struct virq_sim *sim, enum virq_log_level lvl);
/**
 * @brief The last log message (the simulator keeps the last 64).
 * @param sim The simulator. @return The message, or NULL before the first one.
 */
const char *virq_sim_last_log(struct virq_sim *sim);
/**
 * @brief Failure reports the library sent (::virq_hal_ops::fail, @ref virq_failures).
 *
 * Each is also kept as a log message at ::LIBVIRQ_LOG_DEBUG (counted by
 * virq_sim_log_count(), returned by virq_sim_last_log()), where it would
 * go through @c log without the @c fail callback. With
 * @c LIBVIRQ_SIM_VERBOSE set it is printed with the status by name, e.g.
 * <tt>[virq fail] virq_vlpi_map: event=8 >= nr_events=8 -> LIBVIRQ_ERANGE</tt>.
 *
 * @param sim The simulator. @return The count since virq_sim_new().
 */
unsigned long virq_sim_fail_count(struct virq_sim *sim);
/**
 * @brief The last failure report: which public function, which check, the values.
 *
 * @param sim The simulator.
 * @param out Receives the report; its @c message points into @p sim (valid
 *            until the next failure report), its other strings are the
 *            library's constants.
 * @return False (and @p out untouched) before the first report.
 */
bool virq_sim_last_fail(struct virq_sim *sim, struct virq_failure *out);
/**
 * @brief Whether one of the kept log messages equals @p msg.
 * @param sim The simulator. @param msg The exact message.
 * @return True when found.
 */
bool virq_sim_logged(struct virq_sim *sim, const char *msg);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_HAL_H */
