/* SPDX-License-Identifier: MIT */
/*
 * virq_sim_rdist: GICv3/v4.0/v4.1 distributor + redistributors on the fake HAL.
 *
 * GICD: PIDR2, TYPER (LPIS, DVIS, IDbits), TYPER2 (4.1), CTLR with RWP
 * (bit 31) that reads 1 for `gicd_rwp_polls` reads after a write.
 * Each RD (frames at base + i*stride, 256 KiB default): PIDR2, TYPER
 * (VLPIS, Dirty, DirectLPI, Last on the last one, RVPEID on 4.1,
 * Processor_Number = i, affinity from `aff`), CTLR (EnableLPIs; RWP bit 3
 * reads 1 for `rwp_polls` reads after a write; UWP bit 31 can be forced on;
 * EnableLPIs may be made sticky), WAKER (ChildrenAsleep clears `wake_polls`
 * reads after ProcessorSleep is cleared; RD_NEVER = never), PROPBASER /
 * PENDBASER (Shareability / InnerCache read-back can be forced), VPROPBASER
 * / VPENDBASER (Dirty reads 1 for `dirty_polls` reads after a Valid change;
 * Valid 0->1 sets PendingLast like QEMU; Valid 1->0 sets PendingLast from
 * the VPT contents (4.0: VPT PA from the register; 4.1: set by the test)),
 * INVLPIR / INVALLR / SYNCR (Busy for `syncr_polls` reads after a write).
 * Physical LPI pending state per RD (what the ITS model raises there: INT,
 * doorbells; CLEAR clears it), and SETLPIR / CLRLPIR (set / clear it when
 * GICR_TYPER.DirectLPI is modelled; counted as misuse otherwise; SYNCR
 * Busy as for INVLPIR).
 *
 * GICv4.1 (version 41): GICR_TYPER.CommonLPIAff from `common_lpi_aff`;
 * GICR_VPROPBASER in the 4.1 layout (Entry_Size read-only from `vpet_esz`,
 * Page_Size sticks only for the sizes in `vpet_psz_mask`); per-vPE vSGI
 * state (pending bits, and priority/group/enable set by the ITS's VSGI
 * command) that follows the vPE's target redistributor (set by the ITS
 * model on VMAPP/VMOVP); GICR_VSGIR / GICR_VSGIPENDR (VLPI_base + 0x80 /
 * + 0x88): a write of a vPEID starts a query, VSGIPENDR reads Busy (bit 31)
 * `vsgi_busy_polls` times (RD_NEVER: always), then the vPE's pending bits
 * when this redistributor is its target (else 0, counted as a wrong-RD
 * read). Consistency checks of the vPE tables: redistributors of one
 * CommonLPIAff group must point at one copy, and every copy must back the
 * entry of every mapped vPE (virq_sim_rdist_vpe_entry_ok()).
 *
 * Decoding here is the model's own (bit positions written out), not the
 * library's macros.
 */
#ifndef LIBVIRQ_SIM_RDIST_H
#define LIBVIRQ_SIM_RDIST_H

#include <stdbool.h>
#include <stdint.h>

#include <libvirq/sim/hal.h>

#define RD_NEVER 0xFFFFFFFFu

struct virq_sim_rdist_cfg {
	uint64_t gicd_base;	 /* GICD frame */
	uint64_t rd_base;	 /* first RD frame */
	uint64_t stride;	 /* 0: 0x40000 (v4) / 0x20000 (v3) */
	unsigned nr;		 /* redistributors */
	int version;		 /* 30, 40, 41 */
	bool dirty;		 /* GICR_TYPER.Dirty */
	bool direct_lpi;	 /* GICR_TYPER.DirectLPI */
	uint32_t idbits;	 /* GICD_TYPER.IDbits (INTID bits - 1), default 15 */
	uint32_t typer2;	 /* GICD_TYPER2 on 4.1 (0: VIL | VID = 15) */
	uint32_t num_lpis;	 /* GICD_TYPER.num_LPIs (0: IDbits decides) */
	unsigned gicd_rwp_polls; /* reads of GICD_CTLR with RWP = 1 after a write */
	unsigned rwp_polls;	 /* reads of GICR_CTLR with RWP = 1 after a write */
	unsigned wake_polls;	 /* reads of WAKER with ChildrenAsleep = 1 after waking */
	unsigned dirty_polls;	 /* reads of VPENDBASER with Dirty = 1 after a Valid change */
	unsigned syncr_polls;	 /* reads of SYNCR with Busy = 1 after INVLPIR/INVALLR */
	int force_sh;		 /* -1: Shareability sticks; else read back this value */
	int force_ic;		 /* -1: InnerCache sticks */
	bool uwp;		 /* GICR_CTLR bit 31 (UWP) always reads 1 */
	int common_lpi_aff;	 /* GICR_TYPER.CommonLPIAff (0..3; default 1) */
	unsigned vsgi_busy_polls; /* reads of GICR_VSGIPENDR with Busy = 1 after a VSGIR write */
	uint32_t vpet_psz_mask;	 /* 4.1 VPROPBASER page sizes that stick: bit0 4K, bit1 16K,
				    bit2 64K (0: all) */
	uint8_t vpet_esz;	 /* 4.1 VPROPBASER.Entry_Size (8-byte units minus 1) */
};

struct virq_sim_rdist;

struct virq_sim_rdist_cfg virq_sim_rdist_default_cfg(void); /* QEMU-like 4.0, 1 RD */
struct virq_sim_rdist *virq_sim_rdist_new(struct virq_sim *fh, const struct virq_sim_rdist_cfg *cfg);
void virq_sim_rdist_free(struct virq_sim_rdist *m);

/* Per-RD state set by tests. */
void virq_sim_rdist_set_typer_aff(struct virq_sim_rdist *m, unsigned rd, uint32_t aff);
void virq_sim_rdist_enable_lpis_sticky(struct virq_sim_rdist *m, unsigned rd, bool sticky);
void virq_sim_rdist_set_dirty_polls(struct virq_sim_rdist *m, unsigned rd, unsigned polls);
void virq_sim_rdist_set_wake_polls(struct virq_sim_rdist *m, unsigned rd, unsigned polls);
/* 4.1: PendingLast reported when the vPE is made non-resident. */
void virq_sim_rdist_set_pending(struct virq_sim_rdist *m, unsigned rd, bool pending);
/* Raw register preset (e.g. a kexec'd state). */
void virq_sim_rdist_preset(struct virq_sim_rdist *m, unsigned rd, uint64_t ctlr, uint64_t vprop,
			uint64_t vpend);

/* Physical LPI pending state of @rd (set by the ITS model; tests may set it). */
void virq_sim_rdist_lpi_set_pending(struct virq_sim_rdist *m, unsigned rd, uint32_t intid,
				    bool pending);
bool virq_sim_rdist_lpi_pending(const struct virq_sim_rdist *m, unsigned rd, uint32_t intid);
/* GICR_SETLPIR / GICR_CLRLPIR writes to @rd; writes while DirectLPI is not
 * modelled (all RDs). */
unsigned long virq_sim_rdist_setlpir_count(const struct virq_sim_rdist *m, unsigned rd);
unsigned long virq_sim_rdist_clrlpir_count(const struct virq_sim_rdist *m, unsigned rd);
unsigned long virq_sim_rdist_direct_lpi_misuse(const struct virq_sim_rdist *m);

/* Observations. */
uint64_t virq_sim_rdist_base(const struct virq_sim_rdist *m, unsigned rd);
uint32_t virq_sim_rdist_ctlr(const struct virq_sim_rdist *m, unsigned rd);
uint64_t virq_sim_rdist_propbaser(const struct virq_sim_rdist *m, unsigned rd);
uint64_t virq_sim_rdist_pendbaser(const struct virq_sim_rdist *m, unsigned rd);
uint64_t virq_sim_rdist_vpropbaser(const struct virq_sim_rdist *m, unsigned rd);
uint64_t virq_sim_rdist_vpendbaser(const struct virq_sim_rdist *m, unsigned rd);
bool virq_sim_rdist_awake(const struct virq_sim_rdist *m, unsigned rd);
unsigned long virq_sim_rdist_invlpi_count(const struct virq_sim_rdist *m, unsigned rd);
uint64_t virq_sim_rdist_last_invlpir(const struct virq_sim_rdist *m, unsigned rd);
uint64_t virq_sim_rdist_last_invallr(const struct virq_sim_rdist *m, unsigned rd);
uint32_t virq_sim_rdist_gicd_ctlr(const struct virq_sim_rdist *m);
/* GICv4.1 vSGI state, driven by the ITS model (GITS_SGIR, VSGI, VMAPP, VMOVP). */
void virq_sim_rdist_vpe_set_target(struct virq_sim_rdist *m, uint32_t vpeid, int rd); /* -1: none */
int virq_sim_rdist_vpe_target(const struct virq_sim_rdist *m, uint32_t vpeid);
void virq_sim_rdist_vsgi_set_pending(struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid);
void virq_sim_rdist_vsgi_command(struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid,
				 uint32_t prio, bool group1, bool enable, bool clear);
uint16_t virq_sim_rdist_vsgi_pending(const struct virq_sim_rdist *m, uint32_t vpeid);
/* Configuration of one vSGI as the last VSGI command set it; false if never set. */
bool virq_sim_rdist_vsgi_config(const struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid,
				uint32_t *prio, bool *group1, bool *enable);
unsigned long virq_sim_rdist_vsgi_queries(const struct virq_sim_rdist *m, unsigned rd);
unsigned long virq_sim_rdist_vsgi_wrong_rd(const struct virq_sim_rdist *m);
void virq_sim_rdist_set_vsgi_busy_polls(struct virq_sim_rdist *m, unsigned polls);

/* GICv4.1 vPE tables. True when @rd's GICR_VPROPBASER is valid and backs the
 * entry of @vpeid (flat: inside the table; indirect: level-1 entry valid and
 * its level-2 page in memory). */
bool virq_sim_rdist_vpe_entry_ok(const struct virq_sim_rdist *m, unsigned rd, uint32_t vpeid);
/* Number of pairs of redistributors in one CommonLPIAff group whose
 * GICR_VPROPBASER does not name the same table (0: consistent). */
unsigned virq_sim_rdist_vpe_tables_inconsistent(const struct virq_sim_rdist *m);
/* The group key of @rd (CommonLPIAff level and the affinity above it). */
uint64_t virq_sim_rdist_group_key(const struct virq_sim_rdist *m, unsigned rd);
unsigned virq_sim_rdist_count(const struct virq_sim_rdist *m);

/* True when the vPE with VPT at @vpt_pa (4.0) or @vpeid (4.1) is resident on @rd. */
bool virq_sim_rdist_resident(const struct virq_sim_rdist *m, unsigned rd, uint64_t vpt_pa,
			  uint32_t vpeid);

#endif /* LIBVIRQ_SIM_RDIST_H */
