/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_core
 * @brief The hardware abstraction layer (HAL) the embedder supplies.
 *
 * libvirq touches hardware only through these callbacks. The embedder
 * fills one ::virq_hal_ops (usually a @c static @c const object), pairs it
 * with its own context pointer in a ::virq_hal, and passes that to every
 * libvirq object at creation. The library copies the ::virq_hal (two
 * pointers) and never calls anything else.
 *
 * Required callbacks (checked by virq_hal_validate() for every use):
 * @c mmio_read32, @c mmio_write32, @c mmio_read64, @c mmio_write64,
 * @c page_alloc, @c page_free, @c now_ns.
 * Required by feature (pass the matching ::virq_hal_need flags):
 * @c msr_read / @c msr_write (AVIC, PMC virtualization), @c cpuid (AVIC,
 * PMC virtualization), @c kick_vcpu (AVIC posting).
 * Optional: @c dcache_clean (only needed for non-coherent GICs; without it
 * a non-coherent table is an error), @c barrier (default: a compiler
 * sequentially-consistent fence), @c relax (default: nothing), @c log
 * (default: silent), @c rdpmc (PMC virtualization reads counters with
 * RDMSR without it).
 *
 * Extensions: members after @c kick_vcpu were added to interface version 1
 * without changing it. Each is optional, and the library reads one only when
 * the @c size the embedder compiled covers it, so an ops table built against
 * an older header stays valid (virq_hal_validate() requires @c size to reach
 * at least ::LIBVIRQ_HAL_OPS_SIZE_V1).
 *
 * Thread-safety of the callbacks: the library may call @c mmio_*,
 * @c msr_*, @c now_ns, @c relax, @c barrier and @c kick_vcpu concurrently
 * from several CPUs (for example while posting interrupts); @c page_alloc
 * and @c page_free are called only from functions whose docs say the
 * caller serialises them, but possibly for different objects at once.
 * No callback may sleep when called from a function documented as usable
 * in atomic context.
 */
#ifndef LIBVIRQ_HAL_H
#define LIBVIRQ_HAL_H

#include "virq_env.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The HAL interface version this header describes. */
#define LIBVIRQ_HAL_VERSION 1u

/**
 * @brief Alignment, in bytes, that the library needs of a @c page_alloc
 *        block's virtual address (the physical one is aligned to the
 *        requested @c align).
 */
#define LIBVIRQ_HAL_VA_ALIGN 8u

/**
 * @brief A block of memory from the HAL page allocator.
 *
 * @c va is where the library reads and writes it; @c pa is what the
 * hardware (ITS, redistributor, AVIC, IOMMU) is given. They may be equal
 * (identity-mapped hypervisors).
 */
struct virq_page {
	void *va;    /**< Virtual address for CPU access; NULL when empty. */
	uint64_t pa; /**< Physical (bus) address for the device. */
	size_t size; /**< Size in bytes, as requested. */
};

/** @brief Log levels for ::virq_hal_ops::log. */
enum virq_log_level {
	LIBVIRQ_LOG_ERROR = 0, /**< An operation failed; state stays consistent. */
	LIBVIRQ_LOG_WARN = 1,  /**< Unexpected hardware behaviour that was handled. */
	LIBVIRQ_LOG_INFO = 2,  /**< Probe results and configuration decisions. */
	LIBVIRQ_LOG_DEBUG = 3, /**< Detail for bring-up. */
};

/** @brief Barrier kinds for ::virq_hal_ops::barrier. */
enum virq_barrier {
	/**
	 * Full barrier: all earlier memory and MMIO accesses complete before
	 * any later one (Arm @c DSB SY; x86 @c MFENCE).
	 */
	LIBVIRQ_BARRIER_FULL = 0,
	/**
	 * Earlier normal-memory writes (tables, command queue) are visible to
	 * devices before any later MMIO write (Arm @c DSB ISHST or @c DSB ST;
	 * x86: compiler barrier).
	 */
	LIBVIRQ_BARRIER_DMA_WMB = 1,
};

/**
 * @defgroup virq_failures Failure reports
 * @ingroup virq_core
 * @brief How a failed check says which public function, which check and
 *        which values.
 *
 * Every check a library function makes on its inputs, on the state of its
 * objects or on what the hardware answered reports its failure once, at
 * the check, before the function returns the status:
 *
 * - **The function** is the public function the caller called, captured
 *   where the call entered the library (a check shared by several public
 *   functions names the one called, never a helper's name).
 * - **One check per report.** The text names the value that failed, with
 *   its value, and for a limit the limit, e.g.
 *   <tt>virq_vlpi_map_range: count=4097 > nr_events-first=4096</tt>.
 * - **Where it goes.** With ::virq_hal_ops::fail (an extension member) the
 *   library calls it with a ::virq_failure; otherwise it logs the message
 *   at ::LIBVIRQ_LOG_DEBUG through ::virq_hal_ops::log, with the status
 *   (sign-extended) and the check's values as the log values. Nothing is
 *   reported when the function succeeds, and the reporting code is out of
 *   line and marked cold: it costs the success path nothing.
 * - **Which HAL.** The HAL of the object the call is about; an object
 *   destroyed, or a device unmapped, keeps the HAL it had, so a call on it
 *   is reported too. A NULL or never-initialised object has no HAL of its
 *   own: the report goes through the HAL of another object the call names
 *   (for example the device of a virq_vlpi_map() given a NULL vPE);
 *   only a call whose every object is NULL or never initialised has no
 *   HAL at all, and then returns its status (::LIBVIRQ_EINVAL) without a
 *   report.
 * - **Without the strings.** Built with @c LIBVIRQ_FAIL_TEXT defined to 0
 *   the library carries no check texts (about 20 KB): @c check is NULL,
 *   the message is <tt>function: line N</tt> with the values appended,
 *   and @c line with @c function still identify the check in the sources
 *   of that version.
 * @{
 */

/** @brief Most values one failure report carries. */
#define LIBVIRQ_FAIL_MAX_VALUES 4u

/** @brief Size of the buffer a failure message is formatted in, NUL included. */
#define LIBVIRQ_FAIL_MSG_SIZE 192u

/** @brief One failed check, as ::virq_hal_ops::fail receives it. */
struct virq_failure {
	/** The status the public function returns for it. */
	virq_status status;
	/** The source line of the check in the library (identifies it with @c function). */
	uint32_t line;
	/** The public function the caller called, e.g. "virq_vlpi_map_range". */
	const char *function;
	/**
	 * The check as a template: the text of the message after "function: ",
	 * with "%u" (decimal), "%d" (signed decimal) or "%x" (hexadecimal)
	 * where @c values[] go, in order; NULL without the strings.
	 */
	const char *check;
	/** The formatted message, at most ::LIBVIRQ_FAIL_MSG_SIZE bytes with the NUL. */
	const char *message;
	/** Number of @c values[] used (0 .. ::LIBVIRQ_FAIL_MAX_VALUES). */
	uint32_t nvalues;
	/** The values the check names, in its order. */
	uint64_t values[LIBVIRQ_FAIL_MAX_VALUES];
};

/** @} */

/**
 * @brief The embedder's callbacks. All take the embedder's context first.
 *
 * MMIO addresses are in whatever address space the embedder used when it
 * described the hardware to libvirq (for example the device-tree physical
 * addresses when MMIO is identity-mapped, or virtual addresses of its own
 * mappings): the library only adds register offsets to the bases it was
 * given and passes the sums back here.
 *
 * One exception makes the choice matter for the GICv4 module: an ITS with
 * GITS_TYPER.PTA = 1 takes redistributors by physical address in its
 * commands (the RDbase of MAPC, SYNC, VMAPP and VMOVP; IHI 0069H
 * §12.19 GITS_TYPER.PTA, §5.3), and libvirq puts the redistributor
 * addresses it was given there (::virq_gic_rdist::rd_base). On such an ITS
 * describe the GIC with physical addresses and translate them to the
 * embedder's mappings in these callbacks (ports/xen/hal.c does, with its
 * MMIO windows); a GIC described with virtual addresses works only with
 * PTA = 0 (RDbase is then the processor number), or when MMIO is
 * identity-mapped.
 */
struct virq_hal_ops {
	/** Must be ::LIBVIRQ_HAL_VERSION. */
	uint32_t version;
	/** Must be @c sizeof(struct virq_hal_ops) as compiled by the embedder. */
	uint32_t size;

	/** Required. 32-bit MMIO read at byte address @p addr (4-byte aligned). */
	uint32_t (*mmio_read32)(void *ctx, uint64_t addr);
	/** Required. 32-bit MMIO write. */
	void (*mmio_write32)(void *ctx, uint64_t addr, uint32_t value);
	/** Required. 64-bit MMIO read at @p addr (8-byte aligned), single access. */
	uint64_t (*mmio_read64)(void *ctx, uint64_t addr);
	/** Required. 64-bit MMIO write, single access. */
	void (*mmio_write64)(void *ctx, uint64_t addr, uint64_t value);

	/**
	 * Required for ::LIBVIRQ_HAL_NEED_MSR. Reads MSR @p msr into @p value.
	 * Returns ::LIBVIRQ_OK, or ::LIBVIRQ_EHW when the access faulted (\#GP).
	 */
	virq_status (*msr_read)(void *ctx, uint32_t msr, uint64_t *value);
	/** Required for ::LIBVIRQ_HAL_NEED_MSR. Writes MSR; ::LIBVIRQ_EHW on \#GP. */
	virq_status (*msr_write)(void *ctx, uint32_t msr, uint64_t value);
	/**
	 * Required for ::LIBVIRQ_HAL_NEED_CPUID. Executes CPUID with EAX = @p leaf,
	 * ECX = @p subleaf and stores EAX, EBX, ECX, EDX in @p regs[0..3].
	 */
	void (*cpuid)(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

	/**
	 * Required. Allocates @p size bytes, physically contiguous and zeroed,
	 * whose physical address is aligned to @p align (a power of two, at
	 * least 4096; the hardware is given the PA), and fills @p page. The VA
	 * needs only ::LIBVIRQ_HAL_VA_ALIGN (8-byte) alignment: the library
	 * accesses the block through it with loads and stores of up to 8 bytes.
	 * A block that breaks either is freed and the call fails with
	 * ::LIBVIRQ_EALIGN, the failure naming the PA and VA returned. Returns
	 * ::LIBVIRQ_OK or ::LIBVIRQ_ENOMEM. May be called with sizes up to
	 * several MiB (ITS tables); @c page_free later gets the same @p page
	 * (no alignment).
	 */
	virq_status (*page_alloc)(void *ctx, size_t size, size_t align, struct virq_page *page);
	/** Required. Frees a block from @c page_alloc (same @p page contents). */
	void (*page_free)(void *ctx, const struct virq_page *page);

	/**
	 * Optional. Cleans data-cache lines covering [@p va, @p va + @p len) to
	 * the point of coherency, so a non-coherent device sees the data.
	 */
	void (*dcache_clean)(void *ctx, const void *va, size_t len);
	/** Optional. Barrier of the given kind (::virq_barrier). */
	void (*barrier)(void *ctx, enum virq_barrier kind);

	/**
	 * Required. Monotonic time in nanoseconds. Used only for deadlines of
	 * bounded polling and for calibration; never for sleeping.
	 */
	uint64_t (*now_ns)(void *ctx);
	/** Optional. Called between polls (Arm @c YIELD, x86 @c PAUSE). Must not sleep. */
	void (*relax)(void *ctx);

	/**
	 * Optional. Logs a message with up to a few values; @p values (may be
	 * NULL when @p nvalues is 0) are printed by the embedder as it likes.
	 * @p msg is valid only during the call (copy it to keep it). Failed
	 * checks reach it as one ::LIBVIRQ_LOG_DEBUG line each, unless @c fail
	 * is present (@ref virq_failures; the message, and as values the
	 * ::virq_status returned, sign-extended, then the check's values). May
	 * be called from any CPU concurrently, in the contexts of the function
	 * that logs (atomic context included): it must not sleep.
	 */
	void (*log)(void *ctx, enum virq_log_level level, const char *msg, const uint64_t *values,
		    size_t nvalues);

	/**
	 * Required for ::LIBVIRQ_HAL_NEED_KICK. Wakes or interrupts the vCPU
	 * identified by the embedder's @p vcpu_cookie (given at vCPU creation)
	 * so that it re-enters the guest and picks up pending interrupts. Must
	 * be callable from any CPU, in atomic context, concurrently.
	 */
	void (*kick_vcpu)(void *ctx, void *vcpu_cookie);

	/* ---- extensions (optional, read only when @c size covers them) ---- */

	/**
	 * Optional extension. Executes RDPMC with ECX = @p counter (0..5: core
	 * performance counter @p counter, PERF_CTR0..5; AMD APM Vol 3 rev 3.37 "RDPMC")
	 * and stores EDX:EAX in @p value; returns ::LIBVIRQ_OK, or ::LIBVIRQ_EHW when
	 * it faulted. The PMC virtualization module reads guest counters with it
	 * instead of RDMSR when present (RDPMC is cheaper than RDMSR on AMD
	 * cores); same calling context as @c msr_read.
	 */
	virq_status (*rdpmc)(void *ctx, uint32_t counter, uint64_t *value);

	/**
	 * Optional extension (0, or not covered by @c size:
	 * ::LIBVIRQ_POLL_ROUND_NS_DEFAULT). A lower bound, in
	 * nanoseconds, on the time one polling round takes on this platform: a
	 * @c now_ns call, one device-register read and a @c relax call. Every
	 * bounded wait also ends after <tt>timeout_ns / poll_round_ns + 1</tt>
	 * rounds (see @ref virq_bounded_waits), so a HAL clock that stops
	 * cannot hang it. Too large a value makes waits end before their
	 * deadline; too small only lengthens the wait of a broken clock.
	 */
	uint32_t poll_round_ns;

	/**
	 * Optional extension. Receives each failed check of a library
	 * function as a structured record (@ref virq_failures), instead of the
	 * @c log line it would otherwise get. @p failure and the strings it
	 * points to are valid only during the call. Same calling contexts as
	 * @c log: any CPU, concurrently, atomic context included; must not
	 * sleep.
	 */
	void (*fail)(void *ctx, const struct virq_failure *failure);
};

/**
 * @brief Smallest ::virq_hal_ops::size virq_hal_validate() accepts: the
 *        interface version 1 layout up to and including @c kick_vcpu.
 */
#define LIBVIRQ_HAL_OPS_SIZE_V1                                                                    \
	(offsetof(struct virq_hal_ops, kick_vcpu) + sizeof(void (*)(void *, void *)))

/** @brief A HAL instance: the ops table and the embedder's context. */
struct virq_hal {
	/** Callbacks; must outlive every call on an object created with them,
	 *  destroyed objects included (a call on one reports through them). */
	const struct virq_hal_ops *ops;
	void *ctx; /**< Passed as the first argument of every callback; same lifetime. */
};

/** @brief Feature flags for virq_hal_validate(): which optional groups must be present. */
enum virq_hal_need {
	LIBVIRQ_HAL_NEED_CORE = 0,	   /**< Only the always-required callbacks. */
	LIBVIRQ_HAL_NEED_MSR = 1u << 0,	   /**< @c msr_read and @c msr_write. */
	LIBVIRQ_HAL_NEED_CPUID = 1u << 1,  /**< @c cpuid. */
	LIBVIRQ_HAL_NEED_KICK = 1u << 2,   /**< @c kick_vcpu. */
	LIBVIRQ_HAL_NEED_DCACHE = 1u << 3, /**< @c dcache_clean. */
};

/**
 * @brief Checks that a HAL has the version, size and callbacks an operation needs.
 *
 * @param hal   The HAL to check; may be NULL (rejected).
 * @param needs Bitwise OR of ::virq_hal_need flags beyond the core set.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL when @p hal or @p hal->ops is NULL;
 *         ::LIBVIRQ_EHALVER when @c version is not ::LIBVIRQ_HAL_VERSION or
 *         @c size is smaller than ::LIBVIRQ_HAL_OPS_SIZE_V1 (extension members
 *         that @c size does not cover are treated as absent);
 *         ::LIBVIRQ_ENOHAL when a required callback is NULL.
 *
 * Thread-safety: pure; safe from any context.
 */
LIBVIRQ_MUST_CHECK virq_status virq_hal_validate(const struct virq_hal *hal, uint32_t needs);

/**
 * @brief Default of ::virq_hal_ops::poll_round_ns, in nanoseconds.
 *
 * No real polling round is this short (one uncached device-register read
 * alone takes longer), so the round limit never ends a wait of a working
 * clock before its deadline. With a stopped clock a wait of the GIC's
 * default budget (::LIBVIRQ_GIC_DEFAULT_TIMEOUT_NS, 10 ms, which an ITS
 * brought up by virq_its_init() inherits unless its configuration sets its
 * own) ends after 10^6 rounds; one of a bare command queue set up with
 * virq_its_queue_init() and no timeout (::LIBVIRQ_ITS_QUEUE_DEFAULT_TIMEOUT_NS,
 * 1 s) after 10^8. An embedder whose @c relax spins for a known time sets
 * ::virq_hal_ops::poll_round_ns to that time to shorten this.
 */
#define LIBVIRQ_POLL_ROUND_NS_DEFAULT 10u

/**
 * @defgroup virq_bounded_waits Bounded waits
 * @ingroup virq_core
 * @brief How every hardware wait of libvirq ends, whatever the HAL clock does.
 *
 * Every wait for the hardware (redistributor RWP, WAKER, VPENDBASER.Dirty,
 * SYNCR, ITS quiescence, the ITS command queue) goes through virq_poll32(),
 * virq_poll64() or virq_poll_until(), with a time budget @c timeout_ns:
 *
 * - **Fast path.** The register (or condition) is read once before the
 *   clock is read at all; when it is already in the wanted state the wait
 *   costs that one read and no @c now_ns call.
 * - **Deadline.** Otherwise the clock starts: each round calls @c relax
 *   (the ITS command queue's wait calls it up to 64 times in a round, paced
 *   by the rate the ITS consumes commands at), samples @c now_ns, then
 *   reads again, and the wait ends with
 *   ::LIBVIRQ_ETIMEDOUT when the sample was @p timeout_ns or more after the
 *   start. The read after the deadline was observed still counts, so a
 *   register that settles just in time is not reported as timed out. Time
 *   is the sum of the clock's forward steps: a step backwards counts as no
 *   time (the wait neither ends early nor computes garbage), and a
 *   wrap-around of the 64-bit counter counts forward. A clock that jumps
 *   forward ends the wait at its next read, as the clock says time passed.
 * - **Round limit.** Independently of the clock, a wait ends after
 *   <tt>timeout_ns / poll_round_ns + 1</tt> rounds after the first read
 *   (::virq_hal_ops::poll_round_ns, default ::LIBVIRQ_POLL_ROUND_NS_DEFAULT).
 *   A clock that stops, or keeps running backwards, therefore gives
 *   ::LIBVIRQ_ETIMEDOUT too, never a hang.
 * - **Log.** A wait ended by its round limit, or that saw the clock run
 *   backwards, logs a ::LIBVIRQ_LOG_WARN message through @c log naming the
 *   fault, with the values (timeout_ns, rounds, ...); an ordinary timeout
 *   logs at ::LIBVIRQ_LOG_DEBUG. Nothing is logged on success.
 * @{
 */

/**
 * @brief Polls a 32-bit register until @c (value & mask) == want, or a deadline.
 *
 * Reads @p addr and returns at once when it matches (no clock read). Else
 * it waits as @ref virq_bounded_waits describes: between reads it calls
 * @c relax; the deadline is @p timeout_ns after the first read; one more
 * read is made after the deadline passes, so a register that settles just
 * before the deadline is not reported as timed out; and the wait also ends
 * after <tt>timeout_ns / poll_round_ns + 1</tt> further reads whatever the
 * clock does.
 *
 * @param hal        A validated HAL.
 * @param addr       MMIO address of the register (4-byte aligned).
 * @param mask       Bits to compare.
 * @param want       Expected value of the masked bits.
 * @param timeout_ns Time budget in nanoseconds (0: a single read).
 * @param last       Optional; receives the last value read.
 * @return ::LIBVIRQ_OK when matched; ::LIBVIRQ_ETIMEDOUT when the deadline
 *         passed or the round limit was reached (the HAL clock did not
 *         advance; a warning is logged).
 *
 * Thread-safety: reentrant; the caller serialises access to the register
 * as the hardware requires.
 */
LIBVIRQ_MUST_CHECK virq_status virq_poll32(const struct virq_hal *hal, uint64_t addr, uint32_t mask,
					   uint32_t want, uint64_t timeout_ns, uint32_t *last);

/**
 * @brief 64-bit variant of virq_poll32(): polls with single 64-bit reads.
 *
 * Same fast path, deadline and round limit as virq_poll32()
 * (@ref virq_bounded_waits).
 *
 * @param hal        A validated HAL.
 * @param addr       MMIO address of the register (8-byte aligned).
 * @param mask       Bits to compare.
 * @param want       Expected value of the masked bits.
 * @param timeout_ns Time budget in nanoseconds (0: a single read).
 * @param last       Optional; receives the last value read.
 * @return ::LIBVIRQ_OK when matched; ::LIBVIRQ_ETIMEDOUT when the deadline
 *         passed or the round limit was reached (the HAL clock did not
 *         advance; a warning is logged).
 *
 * Thread-safety: reentrant; the caller serialises access to the register
 * as the hardware requires.
 */
LIBVIRQ_MUST_CHECK virq_status virq_poll64(const struct virq_hal *hal, uint64_t addr, uint64_t mask,
					   uint64_t want, uint64_t timeout_ns, uint64_t *last);

/**
 * @brief Condition callback for virq_poll_until(): returns true when done.
 */
typedef bool (*virq_poll_cond_fn)(void *arg);

/**
 * @brief Calls @p cond until it returns true or @p timeout_ns passes.
 *
 * The generic form of virq_poll32(): @p cond does its own reads (for
 * example comparing a wrapping queue offset). Same fast path (@p cond is
 * called once before the clock is read), deadline and round limit
 * (@ref virq_bounded_waits).
 *
 * @param hal        A validated HAL.
 * @param cond       Condition; called at least once, and once after the deadline.
 * @param arg        Passed to @p cond.
 * @param timeout_ns Time budget in nanoseconds (0: a single call of @p cond).
 * @return ::LIBVIRQ_OK when @p cond returned true, else ::LIBVIRQ_ETIMEDOUT
 *         (deadline passed, or round limit reached: a warning is logged).
 *
 * Thread-safety: reentrant.
 */
LIBVIRQ_MUST_CHECK virq_status virq_poll_until(const struct virq_hal *hal, virq_poll_cond_fn cond,
					       void *arg, uint64_t timeout_ns);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_HAL_H */
