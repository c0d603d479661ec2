/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Simulator model of a GICv3/v4.0/v4.1 distributor and its redistributors.
 *
 * GICD: GICD_PIDR2, GICD_TYPER (LPIS, DVIS, IDbits, num_LPIs), GICD_TYPER2
 * (4.1), GICD_CTLR with RWP (bit 31) reading 1 for @c gicd_rwp_polls reads
 * after a write.
 *
 * Each redistributor (frames at @c rd_base + i × @c stride): GICR_PIDR2,
 * GICR_TYPER (VLPIS, Dirty, DirectLPI, Last on the last one, RVPEID on 4.1,
 * Processor_Number = i, affinity virq_sim_rdist_set_typer_aff()),
 * GICR_CTLR (EnableLPIs; RWP, bit 3, reads 1 for @c rwp_polls reads after a
 * write; UWP, bit 31, can be forced on; EnableLPIs may be made sticky),
 * GICR_WAKER (ChildrenAsleep clears @c wake_polls reads after
 * ProcessorSleep is cleared; ::LIBVIRQ_SIM_RDIST_NEVER: never),
 * GICR_PROPBASER / GICR_PENDBASER (their Shareability, InnerCache,
 * OuterCache and address bits behave as @c prop / @c pend say:
 * libvirq/sim/latitude.h), GICR_VPROPBASER / GICR_VPENDBASER (attributes as
 * @c vprop / @c vpend say; Dirty reads 1 for
 * @c dirty_polls reads after a Valid change; Valid 0 → 1 sets PendingLast
 * like QEMU; Valid 1 → 0 sets PendingLast from the VPT contents on 4.0, from
 * virq_sim_rdist_set_pending() on 4.1), GICR_INVLPIR / GICR_INVALLR /
 * GICR_SYNCR (Busy for @c syncr_polls reads after a write). Physical LPI
 * pending state per redistributor (what the ITS model raises there: INT,
 * doorbells; CLEAR clears it), and GICR_SETLPIR / GICR_CLRLPIR (set / clear
 * it when GICR_TYPER.DirectLPI is modelled; counted as misuse otherwise;
 * GICR_SYNCR Busy as for GICR_INVLPIR).
 *
 * GICv4.1 (version 41): GICR_TYPER.CommonLPIAff from @c common_lpi_aff;
 * GICR_VPROPBASER in the 4.1 layout (Entry_Size read-only from @c vpet_esz;
 * Indirect RAZ/WI with @c vprop.flat_only; Page_Size keeps only the sizes of
 * @c vprop.page_sizes; a write with Valid = 1 and Z = 1 while the table
 * memory is not zero is counted as an error, virq_sim_rdist_errors()); per-vPE vSGI
 * state (pending bits, and priority/group/enable set by the ITS's VSGI
 * command) that follows the vPE's target redistributor (set by the ITS
 * model on VMAPP/VMOVP); GICR_VSGIR / GICR_VSGIPENDR (VLPI_base + 0x80 /
 * + 0x88): a write of a vPEID starts a query, VSGIPENDR reads Busy (bit 31)
 * @c vsgi_busy_polls times (::LIBVIRQ_SIM_RDIST_NEVER: always), then the
 * vPE's pending bits when this redistributor is its target (else 0, counted
 * as a wrong-RD read). Consistency checks of the vPE tables: redistributors
 * of one CommonLPIAff group must point at one copy, and every copy must back
 * the entry of every mapped vPE (virq_sim_rdist_vpe_entry_ok()).
 *
 * The register layouts are the model's own (bit positions written out from
 * IHI 0069H chapter 12), not the library's macros.
 *
 * Thread-safety: the model runs under the simulator's lock when the library
 * reaches it; the setters and observations are for the test's thread.
 */
#ifndef LIBVIRQ_SIM_RDIST_H
#define LIBVIRQ_SIM_RDIST_H

#include <libvirq/sim/hal.h>
#include <libvirq/sim/latitude.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_rdist Distributor and redistributor model
 * @ingroup virq_sim
 * @{
 */

/** @brief A poll count meaning "never settles". */
#define LIBVIRQ_SIM_RDIST_NEVER 0xFFFFFFFFu

/** @brief Model options (virq_sim_rdist_default_cfg()). */
struct virq_sim_rdist_cfg {
	uint64_t gicd_base;	 /**< GICD frame. */
	uint64_t rd_base;	 /**< First redistributor frame. */
	uint64_t stride;	 /**< Frame stride (0: 0x40000 on v4, 0x20000 on v3). */
	unsigned nr;		 /**< Number of redistributors (≥ 1). */
	int version;		 /**< 30, 40 or 41. */
	bool dirty;		 /**< GICR_TYPER.Dirty. */
	bool direct_lpi;	 /**< GICR_TYPER.DirectLPI. */
	uint32_t idbits;	 /**< GICD_TYPER.IDbits (INTID bits − 1), default 15. */
	uint32_t typer2;	 /**< GICD_TYPER2 on 4.1 (0: VIL = 1, VID = 15). */
	uint32_t num_lpis;	 /**< GICD_TYPER.num_LPIs (0: IDbits decides). */
	unsigned gicd_rwp_polls; /**< Reads of GICD_CTLR with RWP = 1 after a write. */
	unsigned rwp_polls;	 /**< Reads of GICR_CTLR with RWP = 1 after a write. */
	unsigned wake_polls;	 /**< Reads of GICR_WAKER with ChildrenAsleep = 1 after waking. */
	unsigned dirty_polls; /**< Reads of GICR_VPENDBASER with Dirty = 1 after a Valid change. */
	unsigned syncr_polls; /**< Reads of GICR_SYNCR with Busy = 1 after INVLPIR / INVALLR. */
	bool uwp;	      /**< GICR_CTLR bit 31 (UWP) always reads 1. */
	int common_lpi_aff;   /**< GICR_TYPER.CommonLPIAff (0..3; default 1). */
	/** Reads of GICR_VSGIPENDR with Busy = 1 after a GICR_VSGIR write. */
	unsigned vsgi_busy_polls;
	uint8_t vpet_esz; /**< 4.1 GICR_VPROPBASER.Entry_Size (8-byte units minus 1; read-only). */
	/** @name Register latitude (libvirq/sim/latitude.h; zero: every field programmable)
	 * @{ */
	struct virq_sim_attrs prop; /**< GICR_PROPBASER Shareability, caches, address bits. */
	struct virq_sim_attrs pend; /**< GICR_PENDBASER. */
	struct virq_sim_attrs
	    vpend; /**< GICR_VPENDBASER, GICv4.0 layout (4.1 has no attributes). */
	/**
	 * GICR_VPROPBASER: its attributes (both layouts); on GICv4.1 also
	 * Indirect (@c flat_only: RAZ/WI) and the page sizes that stick.
	 */
	struct virq_sim_table_lat vprop;
	/** @} */
};

/** @brief A distributor + redistributors model (opaque). */
struct virq_sim_rdist;

/**
 * @brief QEMU-like defaults: GICv4.0, one redistributor, GICD at 0x0800_0000,
 *        RDs from 0x080A_0000, every wait settling at once.
 * @return The options.
 */
struct virq_sim_rdist_cfg virq_sim_rdist_default_cfg(void);
/**
 * @brief Creates the model and hooks the GICD frame and the RD frames into @p sim.
 * @param sim The simulator. @param cfg Options.
 * @return The model; never NULL (aborts when out of memory).
 */
struct virq_sim_rdist *virq_sim_rdist_new(struct virq_sim *sim,
					  const struct virq_sim_rdist_cfg *cfg);
/**
 * @brief Frees the model (after the last library call that can reach it). NULL is allowed.
 * @param m The model.
 */
void virq_sim_rdist_free(struct virq_sim_rdist *m);

/**
 * @brief Sets GICR_TYPER.Affinity_Value of RD @p rd.
 * @param m The model. @param rd Index. @param aff Affinity (Aff3.Aff2.Aff1.Aff0).
 */
void virq_sim_rdist_set_typer_aff(struct virq_sim_rdist *m, unsigned rd, uint32_t aff);
/**
 * @brief Makes GICR_CTLR.EnableLPIs of RD @p rd impossible to clear once set (GIC-600-like).
 * @param m The model. @param rd Index. @param sticky True: sticky.
 */
void virq_sim_rdist_enable_lpis_sticky(struct virq_sim_rdist *m, unsigned rd, bool sticky);
/**
 * @brief Changes @c dirty_polls for RD @p rd from now on.
 * @param m The model. @param rd Index. @param polls Reads with Dirty = 1
 * (::LIBVIRQ_SIM_RDIST_NEVER).
 */
void virq_sim_rdist_set_dirty_polls(struct virq_sim_rdist *m, unsigned rd, unsigned polls);
/**
 * @brief Changes @c wake_polls for RD @p rd from now on.
 * @param m The model. @param rd Index. @param polls Reads with ChildrenAsleep = 1.
 */
void virq_sim_rdist_set_wake_polls(struct virq_sim_rdist *m, unsigned rd, unsigned polls);
/**
 * @brief 4.1: the PendingLast reported when a vPE is made non-resident on RD @p rd.
 * @param m The model. @param rd Index. @param pending PendingLast.
 */
void virq_sim_rdist_set_pending(struct virq_sim_rdist *m, unsigned rd, bool pending);
/**
 * @brief Changes the register latitude from now on (@c prop, @c pend,
 *        @c vpend and @c vprop of @p cfg; every other member is ignored):
 *        for example redistributors brought up later that behave otherwise.
 *        Values already written keep what they read back.
 * @param m The model. @param cfg The new latitude.
 */
void virq_sim_rdist_set_latitude(struct virq_sim_rdist *m, const struct virq_sim_rdist_cfg *cfg);
/**
 * @brief Presets raw registers of RD @p rd (the state a previous kernel left, kexec).
 * @param m The model. @param rd Index. @param ctlr GICR_CTLR.
 * @param vprop GICR_VPROPBASER. @param vpend GICR_VPENDBASER.
 */
void virq_sim_rdist_preset(struct virq_sim_rdist *m, unsigned rd, uint64_t ctlr, uint64_t vprop,
			   uint64_t vpend);

/**
 * @brief Sets or clears physical LPI @p intid pending at RD @p rd (what the
 *        ITS model raises there: INT, doorbells; tests may set it too).
 * @param m The model. @param rd Index. @param intid LPI INTID (>= 8192).
 * @param pending The new state.
 */
void virq_sim_rdist_lpi_set_pending(struct virq_sim_rdist *m, unsigned rd, uint32_t intid,
				    bool pending);
/**
 * @brief Physical LPI pending state at RD @p rd.
 * @param m The model. @param rd Index. @param intid LPI INTID.
 * @return True when pending.
 */
bool virq_sim_rdist_lpi_pending(const struct virq_sim_rdist *m, unsigned rd, uint32_t intid);
/**
 * @brief GICR_SETLPIR writes to RD @p rd. @param m The model. @param rd Index.
 * @return The count.
 */
unsigned long virq_sim_rdist_setlpir_count(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_CLRLPIR writes to RD @p rd. @param m The model. @param rd Index.
 * @return The count.
 */
unsigned long virq_sim_rdist_clrlpir_count(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_SETLPIR/CLRLPIR writes while DirectLPI is not modelled (all RDs).
 * @param m The model. @return The count.
 */
unsigned long virq_sim_rdist_direct_lpi_misuse(const struct virq_sim_rdist *m);

/**
 * @brief Address of RD @p rd's frame.
 * @param m The model. @param rd Index. @return The address.
 */
uint64_t virq_sim_rdist_base(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_CTLR of RD @p rd. @param m The model. @param rd Index. @return The register.
 */
uint32_t virq_sim_rdist_ctlr(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_PROPBASER of RD @p rd. @param m The model. @param rd Index. @return The register.
 */
uint64_t virq_sim_rdist_propbaser(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_PENDBASER of RD @p rd. @param m The model. @param rd Index. @return The register.
 */
uint64_t virq_sim_rdist_pendbaser(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_VPROPBASER of RD @p rd. @param m The model. @param rd Index. @return The register.
 */
uint64_t virq_sim_rdist_vpropbaser(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_VPENDBASER of RD @p rd. @param m The model. @param rd Index. @return The register.
 */
uint64_t virq_sim_rdist_vpendbaser(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief Whether RD @p rd is awake (GICR_WAKER.ChildrenAsleep = 0).
 * @param m The model. @param rd Index. @return True when awake.
 */
bool virq_sim_rdist_awake(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_INVLPIR writes to RD @p rd.
 * @param m The model. @param rd Index. @return The count.
 */
unsigned long virq_sim_rdist_invlpi_count(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief The last value written to GICR_INVLPIR of RD @p rd.
 * @param m The model. @param rd Index. @return The value.
 */
uint64_t virq_sim_rdist_last_invlpir(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief The last value written to GICR_INVALLR of RD @p rd.
 * @param m The model. @param rd Index. @return The value.
 */
uint64_t virq_sim_rdist_last_invallr(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICD_CTLR. @param m The model. @return The register.
 */
uint32_t virq_sim_rdist_gicd_ctlr(const struct virq_sim_rdist *m);
/**
 * @name GICv4.1 vSGI state
 * Driven by the ITS model (GITS_SGIR, VSGI, VMAPP, VMOVP); readable by tests.
 * @{
 */
/**
 * @brief Sets the vPE's target redistributor. @param m The model.
 * @param vpeid vPEID. @param rd Redistributor index, or -1 for none.
 */
void virq_sim_rdist_vpe_set_target(struct virq_sim_rdist *m, uint32_t vpeid, int rd);
/**
 * @brief The vPE's target redistributor. @param m The model. @param vpeid vPEID.
 * @return The index, or -1 when it has none.
 */
int virq_sim_rdist_vpe_target(const struct virq_sim_rdist *m, uint32_t vpeid);
/**
 * @brief Makes vSGI @p vintid of the vPE pending. @param m The model.
 * @param vpeid vPEID. @param vintid 0..15.
 */
void virq_sim_rdist_vsgi_set_pending(struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid);
/**
 * @brief A VSGI command: configures, or clears the pending state of, one vSGI.
 * @param m The model. @param vpeid vPEID. @param vintid 0..15. @param prio Priority.
 * @param group1 Group. @param enable Enable. @param clear Clear the pending state.
 */
void virq_sim_rdist_vsgi_command(struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid,
				 uint32_t prio, bool group1, bool enable, bool clear);
/**
 * @brief The vPE's pending vSGIs. @param m The model. @param vpeid vPEID.
 * @return Bit n set: vSGI n pending.
 */
uint16_t virq_sim_rdist_vsgi_pending(const struct virq_sim_rdist *m, uint32_t vpeid);
/**
 * @brief One vSGI's configuration as the last VSGI command set it.
 * @param m The model. @param vpeid vPEID. @param vintid 0..15.
 * @param prio Filled. @param group1 Filled. @param enable Filled.
 * @return False when no VSGI command ever configured it.
 */
bool virq_sim_rdist_vsgi_config(const struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid,
				uint32_t *prio, bool *group1, bool *enable);
/**
 * @brief GICR_VSGIR writes (queries started) on RD @p rd.
 * @param m The model. @param rd Index. @return The count.
 */
unsigned long virq_sim_rdist_vsgi_queries(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief GICR_VSGIPENDR reads at a redistributor that was not the vPE's target.
 * @param m The model. @return The count.
 */
unsigned long virq_sim_rdist_vsgi_wrong_rd(const struct virq_sim_rdist *m);
/**
 * @brief Reads of GICR_VSGIPENDR with Busy = 1 after each query from now on.
 * @param m The model. @param polls Count (::LIBVIRQ_SIM_RDIST_NEVER: always busy).
 */
void virq_sim_rdist_set_vsgi_busy_polls(struct virq_sim_rdist *m, unsigned polls);
/** @} */

/**
 * @name GICv4.1 vPE tables
 * @{
 */
/**
 * @brief Whether RD @p rd's GICR_VPROPBASER is valid and backs the entry of @p vpeid
 *        (flat: inside the table; indirect: level-1 entry valid and its level-2 page in memory).
 * @param m The model. @param rd Index. @param vpeid vPEID. @return True when backed.
 */
bool virq_sim_rdist_vpe_entry_ok(const struct virq_sim_rdist *m, unsigned rd, uint32_t vpeid);
/**
 * @brief Pairs of redistributors of one CommonLPIAff group whose GICR_VPROPBASER
 *        does not name the same table.
 * @param m The model. @return 0 when consistent.
 */
unsigned virq_sim_rdist_vpe_tables_inconsistent(const struct virq_sim_rdist *m);
/**
 * @brief RD @p rd's group key (the CommonLPIAff level and the affinity above it).
 * @param m The model. @param rd Index. @return The key.
 */
uint64_t virq_sim_rdist_group_key(const struct virq_sim_rdist *m, unsigned rd);
/**
 * @brief Number of redistributors. @param m The model. @return The count.
 */
unsigned virq_sim_rdist_count(const struct virq_sim_rdist *m);
/**
 * @brief Writes the model found wrong (a GICv4.1 GICR_VPROPBASER made valid
 *        with Z = 1 over a table that is not zero).
 * @param m The model. @return The count.
 */
unsigned long virq_sim_rdist_errors(const struct virq_sim_rdist *m);
/**
 * @brief The last such error, as text.
 * @param m The model. @return The message ("" when there was none).
 */
const char *virq_sim_rdist_last_error(const struct virq_sim_rdist *m);
/** @} */

/**
 * @brief Whether a vPE is resident on RD @p rd.
 * @param m The model. @param rd Index.
 * @param vpt_pa The vPE's VPT address (4.0: GICR_VPENDBASER names the VPT).
 * @param vpeid The vPEID (4.1: GICR_VPENDBASER names the vPE).
 * @return True when GICR_VPENDBASER.Valid = 1 for that vPE.
 */
bool virq_sim_rdist_resident(const struct virq_sim_rdist *m, unsigned rd, uint64_t vpt_pa,
			     uint32_t vpeid);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_RDIST_H */
