/* SPDX-License-Identifier: MIT */
/*
 * its_state_model: an ITS with translation state, on top of its_model.
 *
 * Adds to the command-queue model (its_model.c): GITS_IIDR, GITS_PIDR2 and
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
 * The model decodes with its_model's decoder, independent of the library.
 */
#ifndef ITS_STATE_MODEL_H
#define ITS_STATE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "its_model.h"
#include "rdist_model.h"

struct its_state_cfg {
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
	struct rdist_model *rm;	  /* for residency of INT targets and MAPC checks (may be NULL) */
};

enum its_ev_kind { ITS_EV_NONE = 0, ITS_EV_PHYS, ITS_EV_VIRT };

struct its_ev_state {
	enum its_ev_kind kind;
	uint32_t pintid, icid;	  /* physical */
	uint32_t vpe, vintid, db; /* virtual */
};

struct its_state_model;

struct its_state_cfg its_state_default_cfg(uint64_t base);
struct its_state_model *its_state_new(struct fake_hal *fh, const struct its_state_cfg *cfg);
void its_state_free(struct its_state_model *s);
struct its_model *its_state_queue(struct its_state_model *s);

/* What (dev, ev) reaches now. */
struct its_ev_state its_state_lookup(const struct its_state_model *s, uint32_t dev, uint32_t ev);
bool its_state_dev_mapped(const struct its_state_model *s, uint32_t dev);
/* vPE: mapped, its RDbase field, VPT address. */
bool its_state_vpe(const struct its_state_model *s, uint32_t vpeid, uint64_t *rdbase,
		   uint64_t *vpt);
bool its_state_col(const struct its_state_model *s, uint32_t icid, uint64_t *rdbase);
unsigned long its_state_errors(const struct its_state_model *s);
const char *its_state_last_error(const struct its_state_model *s);
/* Effects of INT: deliveries to resident vPEs, doorbells raised, pLPIs raised. */
unsigned long its_state_vdelivered(const struct its_state_model *s, uint32_t vpeid,
				   uint32_t vintid);
unsigned long its_state_doorbells(const struct its_state_model *s, uint32_t pintid);
unsigned long its_state_plpis(const struct its_state_model *s, uint32_t pintid);
uint64_t its_state_baser(const struct its_state_model *s, unsigned n);

#endif /* ITS_STATE_MODEL_H */
