/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Simulator model of an ITS with translation state, on top of the
 *        command-queue model (libvirq/sim/its.h).
 *
 * Adds to the queue model: GITS_IIDR, GITS_PIDR2 and GITS_BASER<n> (Type
 * and Entry_Size read-only; Indirect, Page_Size, the attributes and the
 * address bits as each table type's latitude says), and a per-command hook that keeps
 * the device / ITT / collection / vPE state the way an ITS does (IHI 0069
 * chapter 5): which (DeviceID, EventID) reaches which pLPI or (vPE, vINTID,
 * doorbell), where each vPE and collection points, and what an INT (or a
 * device's MSI, virq_sim_its_state_msi()) does: a vLPI delivered to a
 * resident vPE, or its bit set in the vPE's VPT and its doorbell raised.
 * Commands that reference unmapped state, or a DeviceID / vPEID / ICID
 * whose table entry is not valid (a flat table: the ID beyond it or its
 * memory not allocated; two-level tables: the level-1 entry is not valid),
 * are counted as errors and ignored (QEMU's behaviour). ICIDs below
 * GITS_TYPER.HCC need no table.
 *
 * GICv4.1: GITS_MPIDR reads @c mpidr; with @c vsgi_frame the vSGI frame
 * (ITS_base + 0x20000, 64 KiB) exists and a 64-bit GITS_SGIR write
 * (+ 0x20020) makes a vSGI pending (vPEID [47:32], vINTID [3:0]) in the
 * redistributor model; a write anywhere else in that frame, or any write to
 * the frame without @c vsgi_frame, is not modelled (it lands in the fake
 * HAL's register file, where a test can see it). VSGI commands configure or
 * clear vSGIs there; VMAPP/VMOVP tell it each vPE's target redistributor;
 * a 4.1 VMAPP (V = 1) checks that every valid redistributor vPE table, and
 * the target redistributor's, backs the vPE's entry (an error otherwise:
 * software must allocate level-2 pages in every copy).
 *
 * The model decodes with the queue model's own decoder, independent of the
 * library. Its default GITS_TYPER is QEMU 7.2's with @c gic-version=4
 * (::LIBVIRQ_SIM_GITS_TYPER_QEMU_V40 in libvirq/sim/gic.h).
 *
 * Thread-safety: the model runs under the simulator's lock when the library
 * reaches it; the observation functions and virq_sim_its_state_msi() are
 * for the test's thread while no library call is in progress.
 */
#ifndef LIBVIRQ_SIM_ITS_STATE_H
#define LIBVIRQ_SIM_ITS_STATE_H

#include <libvirq/sim/its.h>
#include <libvirq/sim/rdist.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_its_state ITS translation-state model
 * @ingroup virq_sim
 * @{
 */

/** @brief Model options (virq_sim_its_state_default_cfg()). */
struct virq_sim_its_state_cfg {
	uint64_t base;	   /**< ITS_base (the control frame). */
	uint64_t typer;	   /**< GITS_TYPER (0: QEMU 7.2 gic-version=4). */
	uint32_t iidr;	   /**< GITS_IIDR (default 0x43B: Arm). */
	uint32_t pidr2;	   /**< GITS_PIDR2 (default 0x4B: GICv4). */
	bool no_vpe_table; /**< No GITS_BASER<n> of type vPE. */
	uint8_t esz;	   /**< Table entry size in bytes (default 8; Entry_Size is read-only). */
	/**
	 * Type of each GITS_BASER<n> (1 devices, 2 vPEs, 4 collections, 0
	 * none; read-only). All zero: BASER0 devices, BASER1 collections,
	 * BASER2 vPEs when GITS_TYPER.Virtual = 1 and not @c no_vpe_table.
	 */
	uint8_t baser_type[8];
	/** @name Register latitude (libvirq/sim/latitude.h; zero: every field programmable)
	 * @{ */
	/**
	 * GITS_BASER<n> of each table type: [0] devices, [1] collections,
	 * [2] vPEs: Indirect, Page_Size, Shareability, InnerCache, OuterCache,
	 * address bits.
	 */
	struct virq_sim_table_lat baser[3];
	struct virq_sim_attrs cbaser; /**< GITS_CBASER (given to the queue model). */
	/** @} */
	bool never_quiescent; /**< GITS_CTLR.Quiescent never reads 1. */
	/** 0: GITS_CTLR.ITS_Number writable; n: it reads n - 1 and is read-only. */
	unsigned its_number_ro;
	/**
	 * > 0: GITS_CTLR reads Quiescent = 0 this many times after creation
	 * and after each write (GITS_CTLR then lives here and Enabled is
	 * forwarded to the queue model).
	 */
	unsigned quiescent_polls;
	/** Redistributors, for the residency of INT targets and MAPC checks (may be NULL). */
	struct virq_sim_rdist *rm;
	/** GITS_MPIDR (GICv4.1): Aff3 [31:24], Aff2 [23:16], Aff1 [15:8]. */
	uint32_t mpidr;
	bool vsgi_frame; /**< The vSGI frame (GITS_SGIR, ITS_base + 0x20000) is implemented. */
};

/** @brief What an event is mapped to. */
enum virq_sim_its_ev_kind {
	LIBVIRQ_SIM_ITS_EV_NONE = 0, /**< Not mapped. */
	LIBVIRQ_SIM_ITS_EV_PHYS,     /**< A physical LPI (MAPTI / MAPI). */
	LIBVIRQ_SIM_ITS_EV_VIRT,     /**< A vLPI (VMAPTI / VMAPI). */
};

/** @brief Where an event goes. */
struct virq_sim_its_ev {
	enum virq_sim_its_ev_kind kind; /**< Physical, virtual or none. */
	uint32_t pintid;		/**< Physical: the LPI. */
	uint32_t icid;			/**< Physical: the collection. */
	uint32_t vpe;			/**< Virtual: the vPEID. */
	uint32_t vintid;		/**< Virtual: the vINTID. */
	uint32_t db;			/**< Virtual: the doorbell pINTID (1023: none). */
};

/** @brief An ITS translation-state model (opaque). */
struct virq_sim_its_state;

/**
 * @brief The default options for an ITS at @p base (Arm IIDR, GICv4, every
 *        register field programmable: QEMU 7.2's ITS).
 * @param base ITS_base.
 * @return The options.
 */
struct virq_sim_its_state_cfg virq_sim_its_state_default_cfg(uint64_t base);
/**
 * @brief Creates the model (and its queue model) and hooks it into @p sim.
 * @param sim The simulator. @param cfg Options.
 * @return The model; never NULL (aborts when out of memory).
 */
struct virq_sim_its_state *virq_sim_its_state_new(struct virq_sim *sim,
						  const struct virq_sim_its_state_cfg *cfg);
/**
 * @brief Frees the model (after the last library call that can reach it). NULL is allowed.
 * @param s The model.
 */
void virq_sim_its_state_free(struct virq_sim_its_state *s);
/**
 * @brief The command-queue model underneath.
 * @param s The model. @return The queue model (owned by @p s).
 */
struct virq_sim_its *virq_sim_its_state_queue(struct virq_sim_its_state *s);

/**
 * @brief What (@p dev, @p ev) reaches now.
 * @param s The model. @param dev DeviceID. @param ev EventID.
 * @return The mapping (kind ::LIBVIRQ_SIM_ITS_EV_NONE when unmapped).
 */
struct virq_sim_its_ev virq_sim_its_state_lookup(const struct virq_sim_its_state *s, uint32_t dev,
						 uint32_t ev);
/**
 * @brief Whether a MAPD with V = 1 is in effect for @p dev.
 * @param s The model. @param dev DeviceID. @return True when mapped.
 */
bool virq_sim_its_state_dev_mapped(const struct virq_sim_its_state *s, uint32_t dev);
/**
 * @brief A vPE's mapping (VMAPP).
 * @param s The model. @param vpeid vPEID.
 * @param rdbase Optional; receives its RDbase field. @param vpt Optional; receives its VPT address.
 * @return True when the vPE is mapped.
 */
bool virq_sim_its_state_vpe(const struct virq_sim_its_state *s, uint32_t vpeid, uint64_t *rdbase,
			    uint64_t *vpt);
/**
 * @brief A collection's mapping (MAPC).
 * @param s The model. @param icid ICID. @param rdbase Optional; receives its RDbase field.
 * @return True when the collection is mapped.
 */
bool virq_sim_its_state_col(const struct virq_sim_its_state *s, uint32_t icid, uint64_t *rdbase);
/**
 * @brief Commands the model found in error (and ignored).
 * @param s The model. @return The count.
 */
unsigned long virq_sim_its_state_errors(const struct virq_sim_its_state *s);
/**
 * @brief The last error, as text.
 * @param s The model. @return The message ("" when there was none).
 */
const char *virq_sim_its_state_last_error(const struct virq_sim_its_state *s);
/**
 * @brief vLPIs delivered to resident vPE @p vpeid with @p vintid (by INT or MSI).
 * @param s The model. @param vpeid vPEID. @param vintid vINTID. @return The count.
 */
unsigned long virq_sim_its_state_vdelivered(const struct virq_sim_its_state *s, uint32_t vpeid,
					    uint32_t vintid);
/**
 * @brief Doorbells raised with pINTID @p pintid (a vLPI for a non-resident vPE).
 * @param s The model. @param pintid The doorbell LPI. @return The count.
 */
unsigned long virq_sim_its_state_doorbells(const struct virq_sim_its_state *s, uint32_t pintid);
/**
 * @brief Physical LPIs @p pintid raised.
 * @param s The model. @param pintid The LPI. @return The count.
 */
unsigned long virq_sim_its_state_plpis(const struct virq_sim_its_state *s, uint32_t pintid);
/**
 * @brief Translations of event (@p dev, @p ev) that found a mapping: INT
 *        commands and MSIs, physical or virtual, since the model was made.
 *        Exact per event where virq_sim_its_state_plpis() is not: two
 *        events may share one physical LPI (IHI 0069H §5.3).
 * @param s The model. @param dev DeviceID (counted up to 2^29 - 1; 0
 *        beyond). @param ev EventID. @return The count.
 */
unsigned long virq_sim_its_state_translations(const struct virq_sim_its_state *s, uint32_t dev,
					      uint32_t ev);
/**
 * @brief CLEAR and DISCARD commands that found an event mapped to physical
 *        LPI @p pintid (any event sharing it: each clears the LPI's pending
 *        state on its collection's redistributor).
 * @param s The model. @param pintid The LPI. @return The count.
 */
unsigned long virq_sim_its_state_clears(const struct virq_sim_its_state *s, uint32_t pintid);
/**
 * @brief GITS_BASER<@p n> as software reads it.
 * @param s The model. @param n 0..7. @return The register.
 */
uint64_t virq_sim_its_state_baser(const struct virq_sim_its_state *s, unsigned n);
/**
 * @brief GITS_SGIR writes the model took (vSGIs made pending).
 * @param s The model. @return The count.
 */
unsigned long virq_sim_its_state_sgir_writes(const struct virq_sim_its_state *s);

/**
 * @brief A device writes EventID @p ev to GITS_TRANSLATER with DeviceID @p dev (an MSI).
 *
 * Translated like an INT command: a pLPI raised, a vLPI delivered to a
 * resident vPE, or the vLPI's VPT bit set and its doorbell raised.
 *
 * @param s The model. @param dev DeviceID. @param ev EventID.
 * @return True when the event was mapped (false: the write is dropped).
 */
bool virq_sim_its_state_msi(struct virq_sim_its_state *s, uint32_t dev, uint32_t ev);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_ITS_STATE_H */
