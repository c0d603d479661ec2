/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief The ITS command queue: allocation, GITS_CBASER negotiation,
 * batching, bounded completion, queue-full handling, stall reporting and
 * recovery.
 *
 * Model (IHI 0069H §5.2 "The ITS command queue"; §12.19 GITS_CBASER,
 * GITS_CWRITER, GITS_CREADR):
 * - push() writes encoded commands into the queue memory at the local
 *   write offset without telling the ITS;
 * - publish() makes them visible (barrier, plus clean to PoC when the
 *   queue ended up non-shareable or non-cacheable) and rings the doorbell
 *   with exactly one GITS_CWRITER write, returning a ticket;
 * - wait() polls GITS_CREADR until the ITS has consumed everything up to a
 *   ticket, linearising the wrap-around, bounded by the HAL clock.
 * A full queue makes push() publish what is pending and wait for space
 * with the same deadline; unconsumed commands are never overwritten, so a
 * batch of N commands costs ceil(N / capacity) GITS_CWRITER writes.
 *
 * Stalls (GITS_CREADR.Stalled = 1): wait() returns ::LIBVIRQ_ESTALLED and a
 * ::virq_its_queue_diag naming the decoded command; the caller fixes the
 * cause and calls virq_its_queue_retry(), or replaces the command with a
 * harmless one with virq_its_queue_skip(). QEMU 7.2 leaves Stalled set
 * after a successful retry (@ref gic-its-queue-stall), so progress of the offset, not
 * the bit alone, decides: once Stalled reads 1 with every published
 * command consumed (impossible for a real stall), Stalled is no longer
 * trusted on that ITS and a stall is only reported when the offset does not
 * move until the deadline. Progress after a retry that stops on a later
 * command with Stalled set is a new stall and is reported at once.
 *
 * Positions and resets: a ticket is a linear position (bytes published
 * before it) that never wraps and never restarts. virq_its_queue_reset()
 * restarts the queue at offset 0 but not the linear positions: the next
 * epoch begins one slot past everything pushed before the reset, so no
 * position of one epoch is a position of another, and the reset records
 * what GITS_CREADR showed once the ITS was quiescent (the last
 * ::LIBVIRQ_ITS_QUEUE_RESETS_KEPT resets are kept). A ticket published
 * before a reset is decided by the first reset after it: the commands up to
 * the ticket ran when GITS_CREADR had passed it there (virq_its_queue_wait()
 * returns ::LIBVIRQ_OK), otherwise the reset dropped them
 * (::LIBVIRQ_ECANCELED). A driver that publishes, lets another CPU use the
 * queue and waits later (virq_vpe_move() under the ITS lock) learns the
 * truth this way even when that CPU's failure reset the queue in between.
 *
 * Concurrency: the library takes NO lock. The CALLER serialises every call
 * on one queue (one ITS): at most one of these functions runs at a time for
 * a given ::virq_its_queue. Different queues (ITSes) are independent. None
 * of these functions sleeps; the waits spin with the HAL's @c relax.
 */
#ifndef LIBVIRQ_GICV4_ITS_QUEUE_H
#define LIBVIRQ_GICV4_ITS_QUEUE_H

#include "../virq_env.h"
#include "../status.h"
#include "../hal.h"
#include "its_cmd.h"
#include "state.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Smallest queue: one 4 KiB page (128 slots). */
#define LIBVIRQ_ITS_QUEUE_MIN_BYTES 4096u
/** @brief Largest queue GITS_CBASER can describe: 256 pages (1 MiB). */
#define LIBVIRQ_ITS_QUEUE_MAX_BYTES (256u * 4096u)
/** @brief Alignment of the queue allocation (64 KiB, like Xen). */
#define LIBVIRQ_ITS_QUEUE_ALIGN 65536u
/** @brief Default deadline of every wait: 1 s (Linux's ITS queue timeout). */
#define LIBVIRQ_ITS_QUEUE_DEFAULT_TIMEOUT_NS 1000000000ull
/** @brief Resets a queue remembers, to decide tickets published before them. */
#define LIBVIRQ_ITS_QUEUE_RESETS_KEPT 8u

/** @brief Optional configuration for virq_its_queue_init(). */
struct virq_its_queue_cfg {
	/**
	 * Deadline of each wait in nanoseconds (push for space, wait, reset's
	 * quiescence poll); 0 means ::LIBVIRQ_ITS_QUEUE_DEFAULT_TIMEOUT_NS.
	 */
	uint64_t timeout_ns;
	/**
	 * The ITS is not coherent (device tree @c dma-noncoherent, RK3588):
	 * program Non-shareable + nC, ignore what reads back, and clean every
	 * published command to PoC (@ref gic-table-attributes).
	 */
	bool dma_noncoherent;
};

/** @brief Snapshot for a timeout or a stall. */
struct virq_its_queue_diag {
	uint64_t creadr;		   /**< GITS_CREADR as last read (64-bit view). */
	uint64_t cwriter;		   /**< GITS_CWRITER value last written by the library. */
	uint32_t offset;		   /**< Byte offset of the command at CREADR. */
	bool stalled;			   /**< GITS_CREADR.Stalled was set (and trusted). */
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE]; /**< The 32 bytes at CREADR. */
	struct virq_its_cmd cmd;   /**< Their decoding (valid when @ref decode_status is OK). */
	virq_status decode_status; /**< Result of decoding @ref raw. */
};

/** @brief Private: one reset as the queue remembers it (linear positions). */
struct virq_its_queue_reset_rec {
	uint64_t seen; /**< GITS_CREADR once quiescent: every command before it ran. */
	uint64_t end;  /**< Everything pushed: the commands from @ref seen to here were dropped. */
};

/**
 * @brief One ITS command queue. Caller storage; members are private.
 *
 * Initialise with virq_its_queue_init(); every other function requires an
 * initialised queue.
 */
struct virq_its_queue {
	uint32_t state;	      /**< ::virq_gicv4_state (see gicv4/state.h). */
	struct virq_hal hal;  /**< Private: the HAL. */
	uint64_t its_base;    /**< Private: ITS control frame address. */
	struct virq_page mem; /**< Private: the queue memory. */
	uint64_t cbaser;      /**< Private: GITS_CBASER value negotiated (read back). */
	uint64_t timeout_ns;  /**< Private: deadline of each wait. */
	uint64_t wr_lin;      /**< Private: linear write position (never restarts). */
	uint64_t pub_lin;     /**< Private: linear position published (GITS_CWRITER). */
	uint64_t rd_lin;      /**< Private: linear position known consumed (GITS_CREADR). */
	uint64_t epoch;	      /**< Private: resets done (each starts an epoch). */
	uint64_t last_end;    /**< Private: @c end of the last reset (tickets up to it are old). */
	/** Private: the last resets, reset k (1-based) at index (k - 1) % size. */
	struct virq_its_queue_reset_rec resets[LIBVIRQ_ITS_QUEUE_RESETS_KEPT];
	uint64_t creadr;     /**< Private: GITS_CREADR as last read. */
	uint32_t size;	     /**< Private: queue size in bytes. */
	uint32_t wr_off;     /**< Private: byte offset of the next free slot. */
	uint32_t pub_off;    /**< Private: GITS_CWRITER.Offset last written. */
	uint32_t rd_off;     /**< Private: GITS_CREADR.Offset last read. */
	bool clean;	     /**< Private: clean commands to PoC before publishing. */
	bool noncoherent;    /**< Private: forced non-coherent attributes. */
	bool stalled_sticky; /**< Private: Stalled seen set with progress (QEMU 7.2). */
	bool retry_pending;  /**< Private: Retry written, no progress seen yet. */
	bool dead;	     /**< Private: timed out or inconsistent; reset required. */
	bool owned;	     /**< Private: part of a ::virq_its (virq_its_destroy() frees it). */
};

/**
 * @brief Encodes a GITS_CBASER value (pure).
 *
 * @param pa           Queue PA: 4 KiB aligned, < 2^52.
 * @param size         Queue size in bytes: a multiple of 4 KiB, 4 KiB .. 1 MiB.
 * @param inner_cache  ::virq_gic_cache, 0..7.
 * @param outer_cache  ::virq_gic_cache, 0..7.
 * @param shareability ::virq_gic_shareability, 0..3.
 * @param out          Receives the value with Valid = 1.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EALIGN (pa or size not 4 KiB multiples);
 *         ::LIBVIRQ_ERANGE (pa >= 2^52, size out of range, attribute too large);
 *         ::LIBVIRQ_EINVAL (NULL @p out).
 *
 * Spec: IHI 0069H GITS_CBASER. Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_cbaser_encode(uint64_t pa, uint64_t size,
						      uint32_t inner_cache, uint32_t outer_cache,
						      uint32_t shareability, uint64_t *out);

/**
 * @brief Allocates the queue and programs GITS_CBASER and GITS_CWRITER.
 *
 * The ITS must be disabled and quiescent (GITS_CTLR.Enabled = 0,
 * Quiescent = 1): writing GITS_CBASER is otherwise UNPREDICTABLE. Steps:
 * allocate @p size bytes (64 KiB aligned, zeroed) through the HAL; write
 * GITS_CBASER with Inner-shareable + RaWaWb (or Non-shareable + nC when
 * @p cfg says dma_noncoherent); read it back; if Shareability came back
 * Non-shareable, rewrite it with InnerCache = nC (Linux, Xen); keep what
 * stuck; decide with virq_gic_attr_needs_clean() whether commands must be
 * cleaned to PoC (then the HAL must have @c dcache_clean); write
 * GITS_CWRITER = 0 (writing CBASER reset CREADR to 0).
 *
 * @param q        Caller storage; fully overwritten.
 * @param hal      A HAL with the core callbacks; copied.
 * @param its_base Address of the ITS control frame.
 * @param size     Queue size in bytes: a multiple of 4096, 4 KiB .. 1 MiB.
 * @param cfg      Optional configuration (NULL: defaults).
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EBUSY (@p q is live: double init, nothing changed, gicv4/state.h;
 *         or the ITS is enabled or not quiescent); ::LIBVIRQ_EINVAL (NULL @p q / @p hal);
 *         ::LIBVIRQ_EHALVER (virq_hal_validate()); ::LIBVIRQ_ENOHAL (a callback
 *         virq_hal_validate() requires is missing, or cleaning is needed and there is
 *         no @c dcache_clean); ::LIBVIRQ_ERANGE / ::LIBVIRQ_EALIGN (bad @p size);
 *         ::LIBVIRQ_ENOMEM; ::LIBVIRQ_EHW (Valid or the address did not stick). On
 *         failure nothing stays allocated.
 *
 * MMIO: 1 GITS_CTLR read, 1 or 2 GITS_CBASER writes and reads, 1
 * GITS_CWRITER write. Thread-safety: the caller serialises all access to
 * this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_init(struct virq_its_queue *q,
						   const struct virq_hal *hal, uint64_t its_base,
						   uint32_t size,
						   const struct virq_its_queue_cfg *cfg);

/**
 * @brief Frees the queue memory. The caller must have disabled the ITS
 * (or pointed GITS_CBASER elsewhere) first; no MMIO is done.
 *
 * @param q A live queue that the caller initialised with
 *          virq_its_queue_init() (not the one inside a ::virq_its).
 * @return ::LIBVIRQ_OK (the queue is ::LIBVIRQ_GICV4_GONE); ::LIBVIRQ_EINVAL
 *         (NULL, never initialised or already finished: nothing touched);
 *         ::LIBVIRQ_EBUSY (the queue belongs to an ITS: virq_its_destroy()
 *         frees it). See gicv4/state.h.
 *
 * Thread-safety: the caller serialises all access to this ITS.
 * Spec: not applicable (frees memory; no register access).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_fini(struct virq_its_queue *q);

/**
 * @brief Restarts the queue from empty (after a dead ITS or an
 * unrecoverable stall).
 *
 * If GITS_CTLR.Enabled is set, clears Enabled (and ImDe), polls
 * Quiescent with the deadline, reads GITS_CREADR once more (quiescent, the
 * ITS processes nothing, so the commands before it are exactly those that
 * ran), then rewrites the negotiated GITS_CBASER
 * (which resets GITS_CREADR to 0 and clears Stalled), writes
 * GITS_CWRITER = 0, drops every pushed or published command that was not
 * consumed, and restores GITS_CTLR. Clears the dead state. The linear
 * positions go on (the next ticket is past every earlier one) and the reset
 * is recorded, so that virq_its_queue_wait() on a ticket published before it
 * says whether those commands ran (::LIBVIRQ_OK) or were dropped
 * (::LIBVIRQ_ECANCELED).
 *
 * @param q An initialised queue.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ETIMEDOUT (never quiescent: the ITS is left disabled
 *         and the queue stays dead); ::LIBVIRQ_EHW (GITS_CREADR impossible once quiescent, or
 *         GITS_CBASER did not read back; the queue stays dead).
 *
 * Dropped commands are lost: the caller re-issues what it still needs.
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_reset(struct virq_its_queue *q);

/**
 * @brief Number of commands the queue holds at once (size / 32 - 1: one
 * slot always stays empty so that full and empty differ).
 *
 * @param q An initialised queue.
 * @return The capacity in commands.
 *
 * Thread-safety: pure read of @p q.
 */
uint32_t virq_its_queue_capacity(const struct virq_its_queue *q);

/**
 * @brief Encodes @p cmd into the next slot without publishing it.
 *
 * When the queue is full, publishes what is pending (one GITS_CWRITER
 * write) and polls GITS_CREADR for space until the deadline; never
 * overwrites a command the ITS has not consumed. No MMIO at all while
 * the locally known free space suffices.
 *
 * @param q    An initialised queue.
 * @param cmd  The command.
 * @param lim  Probed limits for validation, or NULL.
 * @param sync Optional; receives the synchronisation @p cmd needs.
 * @param bad  Optional; receives the rejected field.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL also for a NULL, never initialised or destroyed
 *         object (gicv4/state.h); encoder errors (nothing is queued); ::LIBVIRQ_EDEAD
 *         (timed out earlier: reset first); ::LIBVIRQ_ETIMEDOUT (no space
 *         before the deadline; the queue becomes dead); ::LIBVIRQ_ESTALLED
 *         (no space because the ITS stalled: see virq_its_queue_stall_info()).
 *
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_push(struct virq_its_queue *q,
						   const struct virq_its_cmd *cmd,
						   const struct virq_its_limits *lim,
						   struct virq_its_sync *sync,
						   enum virq_its_field *bad);

/**
 * @brief Like virq_its_queue_push() for an already encoded command (copied
 * verbatim; not validated).
 *
 * @param q   An initialised queue.
 * @param raw 32 command bytes (little-endian doublewords).
 * @return As virq_its_queue_push() without the encoder errors.
 *
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_push_raw(struct virq_its_queue *q,
						       const uint8_t raw[LIBVIRQ_ITS_CMD_SIZE]);

/**
 * @brief Publishes every pushed command with one GITS_CWRITER write.
 *
 * Cleans the new commands to PoC when the queue is non-coherent, issues a
 * ::LIBVIRQ_BARRIER_DMA_WMB barrier, then writes GITS_CWRITER (64-bit). With
 * nothing pushed since the last publish, does no MMIO.
 *
 * @param q      An initialised queue.
 * @param ticket Optional; receives the position to pass to
 *               virq_its_queue_wait() (everything published so far).
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL also for a NULL, never initialised or destroyed
 *         object (gicv4/state.h); ::LIBVIRQ_EDEAD (reset first).
 *
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_publish(struct virq_its_queue *q, uint64_t *ticket);

/**
 * @brief Waits until GITS_CREADR has passed every command up to @p ticket.
 *
 * Polls GITS_CREADR (32-bit reads) with the HAL's relax between reads,
 * until the deadline (timeout_ns from now). Correct across any number of
 * wrap-arounds: the offset delta since the previous read is accumulated
 * modulo the queue size (the ITS cannot pass GITS_CWRITER). Does no read
 * when an earlier read already showed the ticket consumed, and exactly one
 * when the ITS has finished by the first read. A stall is reported at once
 * when GITS_CREADR.Stalled is trusted, else (sticky Stalled, or a Retry not
 * yet seen to progress) only when the offset has not moved by the deadline.
 * An offset outside the queue or beyond GITS_CWRITER, or a read of all ones
 * (ITS off or unreachable), is a hardware error. A ticket published before
 * a virq_its_queue_reset() is decided without any access by the first reset
 * after it (see the file comment).
 *
 * @param q      An initialised queue.
 * @param ticket From virq_its_queue_publish(), in this epoch or an earlier one.
 * @param diag   Optional; filled on ::LIBVIRQ_ETIMEDOUT and ::LIBVIRQ_ESTALLED.
 * @return ::LIBVIRQ_OK (also: a reset came after the ticket and GITS_CREADR
 *         had passed it);
 *         ::LIBVIRQ_ECANCELED (a reset came after the ticket and dropped the
 *         commands before it that GITS_CREADR had not passed: they never run);
 *         ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; ticket beyond what was published, or older than the
 *         ::LIBVIRQ_ITS_QUEUE_RESETS_KEPT resets kept: undecidable);
 *         ::LIBVIRQ_EDEAD (reset first); ::LIBVIRQ_EHW (impossible GITS_CREADR
 *         offset; the queue becomes dead); ::LIBVIRQ_ESTALLED (the ITS stalled on
 *         the command in @p diag; retry or skip it); ::LIBVIRQ_ETIMEDOUT (no
 *         completion by the deadline; the queue becomes dead until
 *         virq_its_queue_reset()).
 *
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_wait(struct virq_its_queue *q, uint64_t ticket,
						   struct virq_its_queue_diag *diag);

/**
 * @brief Publishes what is pending and waits for all of it.
 *
 * @param q    An initialised queue.
 * @param diag Optional; as virq_its_queue_wait().
 * @return As virq_its_queue_publish() and virq_its_queue_wait().
 *
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_drain(struct virq_its_queue *q,
						    struct virq_its_queue_diag *diag);

/**
 * @brief Single-command convenience: push @p cmd, then the SYNC or VSYNC it
 * needs when the encoder could name the target (::LIBVIRQ_ITS_SYNC_RDBASE or
 * ::LIBVIRQ_ITS_SYNC_VPEID), publish (one GITS_CWRITER write) and wait.
 *
 * A move's source is synchronised too when the encoder names it (MOVALL:
 * SYNC(RDbase1) before SYNC(RDbase2); ::virq_its_sync::src_kind).
 * For ::LIBVIRQ_ITS_SYNC_ICID and ::LIBVIRQ_ITS_SYNC_EVENT (either kind) no
 * synchronisation is appended: the caller resolves the target from its
 * tables and sends it (it is reported in @p sync) — for MOVI and VMOVI
 * both the destination and the source (the event's mapping before).
 *
 * @param q    An initialised queue.
 * @param cmd  The command.
 * @param lim  Probed limits, or NULL.
 * @param sync Optional; receives the synchronisation @p cmd needs.
 * @param diag Optional; as virq_its_queue_wait().
 * @return As virq_its_queue_push() and virq_its_queue_wait(). On an
 *         encoder error nothing is queued or published.
 *
 * Thread-safety: the caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_submit(struct virq_its_queue *q,
						     const struct virq_its_cmd *cmd,
						     const struct virq_its_limits *lim,
						     struct virq_its_sync *sync,
						     struct virq_its_queue_diag *diag);

/**
 * @brief Reads GITS_CREADR once and reports whether the ITS is stalled.
 *
 * @param q    An initialised queue.
 * @param diag Optional; receives the snapshot and the decoded command at
 *             GITS_CREADR.
 * @return ::LIBVIRQ_ESTALLED when Stalled is set with unconsumed commands at
 *         this read (also on an ITS whose Stalled bit is sticky: one read
 *         cannot tell, and QEMU, which keeps it set, processes synchronously,
 *         so unconsumed commands there do mean a stall); ::LIBVIRQ_EHW for an
 *         impossible GITS_CREADR (the queue becomes dead); ::LIBVIRQ_EDEAD;
 *         ::LIBVIRQ_OK otherwise.
 *
 * MMIO: one GITS_CREADR read. Thread-safety: the caller serialises all
 * access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_stall_info(struct virq_its_queue *q,
							 struct virq_its_queue_diag *diag);

/**
 * @brief Restarts a stalled ITS at the stalled command: writes
 * GITS_CWRITER with Retry = 1 (same offset). Call after fixing the cause
 * (tables, or the command via virq_its_queue_skip()); then wait again.
 *
 * @param q An initialised queue.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL also for a NULL, never initialised or destroyed
 *         object (gicv4/state.h); ::LIBVIRQ_EDEAD.
 *
 * MMIO: one GITS_CWRITER write. Thread-safety: the caller serialises all
 * access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_retry(struct virq_its_queue *q);

/**
 * @brief Skips the stalled command: overwrites its slot with @p nop
 * (a harmless command the ITS accepts, typically SYNC to a mapped
 * collection's RDbase), cleans it if needed, and retries.
 *
 * @param q   An initialised queue.
 * @param nop Replacement command.
 * @param lim Probed limits, or NULL.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; not stalled: GITS_CREADR does not point at an unconsumed published
 *         command); encoder errors; ::LIBVIRQ_EDEAD.
 *
 * MMIO: one GITS_CREADR read, one GITS_CWRITER write. Thread-safety: the
 * caller serialises all access to this ITS.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_queue_skip(struct virq_its_queue *q,
						   const struct virq_its_cmd *nop,
						   const struct virq_its_limits *lim);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_ITS_QUEUE_H */
