/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Simulator model of a GICv3/v4 ITS command queue.
 *
 * The model owns GITS_CTLR, GITS_TYPER, GITS_CBASER, GITS_CWRITER and
 * GITS_CREADR (ITS_base + 0x00 .. 0x9F; the rest of the frame stays in the
 * simulator's register file, so another model may hook GITS_BASER<n>).
 * When GITS_CWRITER is written it reads the queue memory (through the
 * simulator's PA → VA translation), decodes every command with its OWN
 * decoder (virq_sim_its_decode(), written from IHI 0069H §5.3 with plain
 * shifts and masks, independently of libvirq's encoder), records it and
 * advances GITS_CREADR.
 *
 * Behaviours (::virq_sim_its_cfg and the setters):
 * - default: every command processed inside the CWRITER write (like QEMU 7.2);
 * - @c per_relax = N: nothing processed inside the write, N commands per
 *   HAL @c relax (a slow ITS);
 * - @c dead: never consumes anything;
 * - a stall (virq_sim_its_stall_nth(), virq_sim_its_stall_opcode(), or a
 *   hook returning ::LIBVIRQ_SIM_ITS_STALL): GITS_CREADR stays on the
 *   command with Stalled = 1; writing GITS_CWRITER with Retry = 1 restarts
 *   it; @c qemu_sticky_stall keeps Stalled set after a successful restart
 *   and restarts on any CWRITER write (QEMU 7.2);
 * - queue memory that is not mapped (a memory error) stalls the queue, and
 *   a GITS_CWRITER offset outside the queue is ignored and counted (QEMU's
 *   bounds checks: @ref gic-its-bounds in docs/rationale.md);
 * - GITS_CBASER writes are ignored while the ITS is enabled (QEMU), reset
 *   GITS_CREADR to 0 and clear Stalled (GITS_CWRITER keeps its value);
 *   its attributes and address bits behave as @c cbaser says.
 *
 * Per-command hooks (virq_sim_its_add_hook()) let another model (the
 * translation state of libvirq/sim/its_state.h) act on every decoded
 * command and ask for a stall.
 */
#ifndef LIBVIRQ_SIM_ITS_H
#define LIBVIRQ_SIM_ITS_H

#include <libvirq/sim/hal.h>
#include <libvirq/sim/latitude.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_its ITS command-queue model
 * @ingroup virq_sim
 * @{
 */

/** @brief One command as the model decoded it (its own field names). */
struct virq_sim_its_cmd {
	uint64_t dw[4];	 /**< The four doublewords as read from memory (little-endian). */
	uint32_t offset; /**< Byte offset in the queue. */
	uint8_t op;	 /**< DW0[7:0]. */
	bool known;	 /**< @c op is a GICv3/v4/v4.1 command. */
	/** @name Decoded fields (only those of @c op are meaningful)
	 * @{ */
	uint32_t dev;	  /**< DeviceID. */
	uint32_t ev;	  /**< EventID. */
	uint32_t pintid;  /**< pINTID. */
	uint32_t vintid;  /**< vINTID. */
	uint32_t icid;	  /**< ICID. */
	uint32_t vpe;	  /**< vPEID. */
	uint32_t size;	  /**< MAPD Size. */
	uint32_t db;	  /**< Dbell_pINTID. */
	uint32_t defdb;	  /**< Default_Doorbell (4.1). */
	uint32_t seq;	  /**< VMOVP SequenceNumber. */
	uint32_t itslist; /**< VMOVP ITSList. */
	uint32_t prio;	  /**< VSGI Priority. */
	uint64_t itt;	  /**< ITT_addr (byte address). */
	uint64_t rd;	/**< DW2[51:16] in place: RD address (PTA = 1) or processor number << 16. */
	uint64_t rd2;	/**< MOVALL DW3[51:16] in place (RDbase2). */
	uint64_t vpt;	/**< VPT_addr (byte address). */
	uint64_t vconf; /**< VCONF_addr (4.1, byte address). */
	uint32_t vpt_size; /**< VPT_size. */
	bool valid;	   /**< V. */
	bool dbvalid;	   /**< VMOVI D. */
	bool alloc;	   /**< VMAPP Alloc (4.1). */
	bool ptz;	   /**< VMAPP PTZ (4.1). */
	bool db41;	   /**< VMOVP DB (4.1). */
	bool en;	   /**< VSGI Enable. */
	bool clr;	   /**< VSGI Clear. */
	bool grp;	   /**< VSGI Group. */
			   /** @} */
};

/** @brief What a per-command hook decides. */
enum virq_sim_its_verdict {
	LIBVIRQ_SIM_ITS_OK = 0,	   /**< The command completes. */
	LIBVIRQ_SIM_ITS_STALL = 1, /**< The command stalls the queue. */
};

/** @brief An ITS command-queue model (opaque). */
struct virq_sim_its;

/**
 * @brief Per-command hook, called for every command before it completes.
 * @param arg The hook's argument. @param m The model. @param cmd The decoded command.
 * @return Whether the command completes or stalls.
 */
typedef enum virq_sim_its_verdict (*virq_sim_its_hook_fn)(void *arg, struct virq_sim_its *m,
							  const struct virq_sim_its_cmd *cmd);

/** @brief Model options (virq_sim_its_default_cfg() for QEMU-like defaults). */
struct virq_sim_its_cfg {
	uint64_t typer;		/**< GITS_TYPER (0: QEMU 7.2 gic-version=4). */
	unsigned per_relax;	/**< 0: synchronous; N: N commands per @c relax. */
	bool dead;		/**< Never consume. */
	bool qemu_sticky_stall; /**< QEMU 7.2: Stalled stays set; any CWRITER write restarts. */
	bool never_quiescent;	/**< GITS_CTLR.Quiescent reads 0. */
	/** GITS_CBASER Shareability, InnerCache, OuterCache, address bits (libvirq/sim/latitude.h).
	 */
	struct virq_sim_attrs cbaser;
};

/**
 * @brief Creates a model at @p base (the ITS control frame) and hooks it into @p sim.
 * @param sim The simulator. @param base ITS_base. @param cfg Options; NULL for the defaults.
 * @return The model; never NULL (aborts when out of memory).
 */
struct virq_sim_its *virq_sim_its_new(struct virq_sim *sim, uint64_t base,
				      const struct virq_sim_its_cfg *cfg);
/**
 * @brief Frees the model (after the last library call that can reach it). NULL is allowed.
 * @param m The model.
 */
void virq_sim_its_free(struct virq_sim_its *m);
/**
 * @brief The default options: QEMU 7.2's GITS_TYPER, synchronous, attributes that stick.
 * @return The options.
 */
struct virq_sim_its_cfg virq_sim_its_default_cfg(void);

/**
 * @brief Commands consumed per @c relax from now on (0: synchronous again).
 * @param m The model. @param n Commands per relax.
 */
void virq_sim_its_set_per_relax(struct virq_sim_its *m, unsigned n);
/**
 * @brief Stops (true) or resumes (false) consuming commands.
 * @param m The model. @param dead True: never consume.
 */
void virq_sim_its_set_dead(struct virq_sim_its *m, bool dead);
/**
 * @brief GITS_CTLR.Quiescent reads 0 from now on (true) or 1 again (false).
 * @param m The model. @param on True: never quiescent.
 */
void virq_sim_its_set_never_quiescent(struct virq_sim_its *m, bool on);
/**
 * @brief Stalls the first time the command that would be the @p n-th completed one runs.
 * @param m The model. @param n 1-based; 0 disables.
 */
void virq_sim_its_stall_nth(struct virq_sim_its *m, unsigned long n);
/**
 * @brief Stalls every time a command with opcode @p op runs.
 * @param m The model. @param op Opcode, or -1 to disable.
 */
void virq_sim_its_stall_opcode(struct virq_sim_its *m, int op);
/**
 * @brief Adds a per-command hook (at most 8), called in the order added.
 * @param m The model. @param fn Hook. @param arg Its argument.
 */
void virq_sim_its_add_hook(struct virq_sim_its *m, virq_sim_its_hook_fn fn, void *arg);
/**
 * @brief Sets GITS_CTLR.Enabled as software would, without counting an access.
 * @param m The model. @param on Enabled.
 */
void virq_sim_its_enable(struct virq_sim_its *m, bool on);

/**
 * @brief Commands completed so far (since the last virq_sim_its_clear_log()).
 * @param m The model. @return The count.
 */
size_t virq_sim_its_ncmds(const struct virq_sim_its *m);
/**
 * @brief A completed command.
 * @param m The model. @param i 0 ≤ @p i < virq_sim_its_ncmds().
 * @return The command, or NULL when out of range.
 */
const struct virq_sim_its_cmd *virq_sim_its_cmd_at(const struct virq_sim_its *m, size_t i);
/**
 * @brief Stalls entered. @param m The model. @return The count.
 */
unsigned long virq_sim_its_stalls(const struct virq_sim_its *m);
/**
 * @brief GITS_CWRITER values ignored because they lay outside the queue.
 * @param m The model. @return The count.
 */
unsigned long virq_sim_its_bad_cwriter(const struct virq_sim_its *m);
/**
 * @brief Commands with an unknown opcode (skipped, like QEMU).
 * @param m The model. @return The count.
 */
unsigned long virq_sim_its_unknown(const struct virq_sim_its *m);
/**
 * @brief The most bytes ever published and not yet consumed.
 * @param m The model. @return Bytes.
 */
unsigned long virq_sim_its_max_pending(const struct virq_sim_its *m);
/**
 * @brief In per_relax mode, the command slots of relax rounds that found
 *        nothing published: the ITS idled while software could have given it
 *        work ("bubbles").
 * @param m The model. @return The count (since virq_sim_its_reset_idle()).
 */
unsigned long virq_sim_its_idle_slots(const struct virq_sim_its *m);
/**
 * @brief Restarts the virq_sim_its_idle_slots() count at 0.
 * @param m The model.
 */
void virq_sim_its_reset_idle(struct virq_sim_its *m);
/**
 * @brief GITS_CREADR as software would read it.
 * @param m The model. @return The register.
 */
uint64_t virq_sim_its_creadr(const struct virq_sim_its *m);
/**
 * @brief GITS_CWRITER. @param m The model. @return The register.
 */
uint64_t virq_sim_its_cwriter(const struct virq_sim_its *m);
/**
 * @brief GITS_CBASER. @param m The model. @return The register.
 */
uint64_t virq_sim_its_cbaser(const struct virq_sim_its *m);
/**
 * @brief Whether processing is halted (stalled, waiting for a Retry).
 * @param m The model. @return True when halted.
 */
bool virq_sim_its_stalled(const struct virq_sim_its *m);
/**
 * @brief Forgets the completed commands (virq_sim_its_ncmds() restarts at 0).
 * @param m The model.
 */
void virq_sim_its_clear_log(struct virq_sim_its *m);

/**
 * @brief The model's own decoder of one 32-byte command (for tests of the model).
 * @param raw The command as in memory. @param out Filled.
 */
void virq_sim_its_decode(const uint8_t raw[32], struct virq_sim_its_cmd *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_ITS_H */
