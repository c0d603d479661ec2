/* SPDX-License-Identifier: MIT */
/*
 * virq_sim_its_state: an ITS with translation state, on top of virq_sim_its.
 *
 * Adds to the command-queue model (sim/src/its.c): GITS_IIDR, GITS_PIDR2 and
 * GITS_BASER<n> registers (Type / Entry_Size read-only, page sizes and
 * Indirect that may or may not stick, attribute read-back overrides), and a
 * per-command hook that keeps the device / ITT / collection / vPE state the
 * way an ITS would: which (DeviceID, EventID) reaches which pLPI or
 * (vPE, vINTID, doorbell), where each vPE and collection points, and what
 * an INT does (vLPI delivered to a resident vPE, or its VPT bit set and its
 * doorbell raised). Commands that reference unmapped state, or a DeviceID
 * / vPEID whose table entry is not valid (two-level tables: level-1 entry
 * not valid), are counted as errors and ignored (QEMU's behaviour).
 *
 * GICv4.1: GITS_MPIDR reads `mpidr`; with `vsgi_frame` the vSGI frame
 * (ITS_base + 0x20000, 64 KiB) exists and a 64-bit GITS_SGIR write
 * (+ 0x20020) makes a vSGI pending (vPEID [47:32], vINTID [3:0]) in the
 * redistributor model; a write anywhere else in that frame, or any write to
 * the frame without `vsgi_frame`, is not modelled (it lands in the fake
 * HAL's register file, where a test can see it). VSGI commands configure or
 * clear vSGIs there; VMAPP/VMOVP tell it each vPE's target redistributor;
 * a 4.1 VMAPP (V = 1) checks that every valid redistributor vPE table, and
 * the target redistributor's, backs the vPE's entry (an error otherwise:
 * software must allocate level-2 pages in every copy).
 *
 * The model decodes with virq_sim_its's decoder, independent of the library.
 */
#ifndef LIBVIRQ_SIM_ITS_STATE_H
#define LIBVIRQ_SIM_ITS_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include <libvirq/sim/its.h>
#include <libvirq/sim/rdist.h>

struct virq_sim_its_state_cfg {
	uint64_t base;
	uint64_t typer;		  /* 0: QEMU gic-version=4 */
	uint32_t iidr;		  /* GITS_IIDR (default 0x43B) */
	uint32_t pidr2;		  /* default 0x4B */
	bool no_vpe_table;	  /* no BASER of type vPE */
	uint32_t psz_mask;	  /* page sizes that stick: bit0 4K, bit1 16K, bit2 64K (0: all) */
	bool no_indirect;	  /* Indirect is RAZ/WI */
	uint8_t esz;		  /* entry size (default 8) */
	int force_sh;		  /* -1 or the Shareability read back by BASERs and CBASER */
	int force_ic;		  /* -1 or the InnerCache read back */
	bool never_quiescent;	  /* GITS_CTLR.Quiescent never reads 1 */
	unsigned its_number_ro;	  /* 0: GITS_CTLR.ITS_Number writable; n: reads n - 1, RO */
	unsigned quiescent_polls; /* >0: GITS_CTLR reads Quiescent = 0 this many times after
				     creation and after each write (GITS_CTLR then lives here
				     and Enabled is forwarded to the queue model) */
	struct virq_sim_rdist *rm;	  /* for residency of INT targets and MAPC checks (may be NULL) */
	uint32_t mpidr;		  /* GITS_MPIDR (GICv4.1): Aff3 [31:24], Aff2 [23:16], Aff1 [15:8] */
	bool vsgi_frame;	  /* the vSGI frame (GITS_SGIR) is implemented */
};

enum virq_sim_its_ev_kind { LIBVIRQ_SIM_ITS_EV_NONE = 0, LIBVIRQ_SIM_ITS_EV_PHYS, LIBVIRQ_SIM_ITS_EV_VIRT };

struct virq_sim_its_ev {
	enum virq_sim_its_ev_kind kind;
	uint32_t pintid, icid;	  /* physical */
	uint32_t vpe, vintid, db; /* virtual */
};

struct virq_sim_its_state;

struct virq_sim_its_state_cfg virq_sim_its_state_default_cfg(uint64_t base);
struct virq_sim_its_state *virq_sim_its_state_new(struct virq_sim *fh, const struct virq_sim_its_state_cfg *cfg);
void virq_sim_its_state_free(struct virq_sim_its_state *s);
struct virq_sim_its *virq_sim_its_state_queue(struct virq_sim_its_state *s);

/* What (dev, ev) reaches now. */
struct virq_sim_its_ev virq_sim_its_state_lookup(const struct virq_sim_its_state *s, uint32_t dev, uint32_t ev);
bool virq_sim_its_state_dev_mapped(const struct virq_sim_its_state *s, uint32_t dev);
/* vPE: mapped, its RDbase field, VPT address. */
bool virq_sim_its_state_vpe(const struct virq_sim_its_state *s, uint32_t vpeid, uint64_t *rdbase,
		   uint64_t *vpt);
bool virq_sim_its_state_col(const struct virq_sim_its_state *s, uint32_t icid, uint64_t *rdbase);
unsigned long virq_sim_its_state_errors(const struct virq_sim_its_state *s);
const char *virq_sim_its_state_last_error(const struct virq_sim_its_state *s);
/* Effects of INT: deliveries to resident vPEs, doorbells raised, pLPIs raised. */
unsigned long virq_sim_its_state_vdelivered(const struct virq_sim_its_state *s, uint32_t vpeid,
				   uint32_t vintid);
unsigned long virq_sim_its_state_doorbells(const struct virq_sim_its_state *s, uint32_t pintid);
unsigned long virq_sim_its_state_plpis(const struct virq_sim_its_state *s, uint32_t pintid);
uint64_t virq_sim_its_state_baser(const struct virq_sim_its_state *s, unsigned n);
/* GITS_SGIR writes the model took (vSGIs made pending). */
unsigned long virq_sim_its_state_sgir_writes(const struct virq_sim_its_state *s);

#endif /* LIBVIRQ_SIM_ITS_STATE_H */
