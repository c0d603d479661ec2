/* SPDX-License-Identifier: MIT */
/*
 * its_model: a GICv3/v4 ITS command-queue model on the fake HAL.
 *
 * It owns GITS_CTLR, GITS_TYPER, GITS_CBASER, GITS_CWRITER and GITS_CREADR
 * (ITS_base + 0x00 .. 0x9F; everything else in the frame stays in the fake
 * HAL register file, so another model may hook GITS_BASER<n>). When
 * GITS_CWRITER is written it consumes the queue memory (through the fake
 * HAL's PA -> VA translation), decodes every command with its OWN decoder
 * (written independently of src/gicv4/its_cmd.c, so an encoding mistake
 * cannot hide), records it, and advances GITS_CREADR.
 *
 * Behaviours:
 * - default: all commands processed synchronously inside the CWRITER write
 *   (like QEMU 7.2);
 * - per_relax = N: nothing processed inside the write, N commands per HAL
 *   relax() call (a slow ITS);
 * - dead: never consumes anything;
 * - stall_nth / stall_opcode / a hook returning ITS_MODEL_STALL: the
 *   command stalls (CREADR stays on it, Stalled = 1); a Retry write
 *   restarts it; qemu_sticky_stall keeps Stalled set after a successful
 *   restart and restarts on any CWRITER write (QEMU 7.2);
 * - unmapped queue memory (memory error) stalls; a CWRITER offset outside
 *   the queue is ignored and counted (CASE-09);
 * - GITS_CBASER writes are ignored while enabled (QEMU), reset CREADR to 0
 *   and clear Stalled (CWRITER is kept); force_sh / force_inner change what reads back.
 *
 * Per-command hooks (its_model_add_hook) let another model (device / ITT /
 * vPE state) act on every decoded command and ask for a stall.
 */
#ifndef ITS_MODEL_H
#define ITS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fake_hal.h"

/* One command as the model decoded it (its own field names). */
struct its_model_cmd {
	uint64_t dw[4];	 /* host-order words as read from memory (little-endian) */
	uint32_t offset; /* byte offset in the queue */
	uint8_t op;	 /* DW0[7:0] */
	bool known;	 /* op is a GICv3/v4/v4.1 command */
	/* Decoded fields; only those of @op are meaningful. */
	uint32_t dev, ev, pintid, vintid, icid, vpe, size, db, defdb, seq, itslist, prio;
	uint64_t itt, rd, rd2, vpt, vconf;
	uint32_t vpt_size;
	bool valid, dbvalid, alloc, ptz, db41, en, clr, grp;
};

enum its_model_verdict {
	ITS_MODEL_OK = 0,    /* command completes */
	ITS_MODEL_STALL = 1, /* command stalls the queue */
};

struct its_model;
typedef enum its_model_verdict (*its_model_hook_fn)(void *arg, struct its_model *m,
						    const struct its_model_cmd *cmd);

struct its_model_cfg {
	uint64_t typer;		/* GITS_TYPER (0: QEMU gic-version=4 value) */
	unsigned per_relax;	/* 0: synchronous; N: N commands per relax() */
	bool dead;		/* never consume */
	bool qemu_sticky_stall; /* QEMU 7.2: Stalled stays set; any CWRITER write restarts */
	bool never_quiescent;	/* GITS_CTLR.Quiescent reads 0 */
	int force_sh;		/* -1: Shareability sticks; else the value read back */
	int force_inner;	/* -1: InnerCache sticks; else the value read back */
};

/* Creates a model at @base (ITS control frame) and hooks it into @fh. */
struct its_model *its_model_new(struct fake_hal *fh, uint64_t base,
				const struct its_model_cfg *cfg);
void its_model_free(struct its_model *m);
/* Default configuration (QEMU-like). */
struct its_model_cfg its_model_default_cfg(void);

/* Behaviour changes at run time. */
void its_model_set_per_relax(struct its_model *m, unsigned n);
void its_model_set_dead(struct its_model *m, bool dead);
/* GITS_CTLR.Quiescent reads 0 from now on (true) or 1 again (false). */
void its_model_set_never_quiescent(struct its_model *m, bool on);
/* Stall the first time the command that would be the n-th completed one (1-based) runs; 0 off. */
void its_model_stall_nth(struct its_model *m, unsigned long n);
/* Stall every time a command with this opcode runs; -1 off. */
void its_model_stall_opcode(struct its_model *m, int op);
/* Adds a per-command hook, called in order for every command before it completes. */
void its_model_add_hook(struct its_model *m, its_model_hook_fn fn, void *arg);
/* Enables/disables the ITS as software would (GITS_CTLR.Enabled), without MMIO counting. */
void its_model_enable(struct its_model *m, bool on);

/* Observations. */
size_t its_model_ncmds(const struct its_model *m); /* completed commands */
const struct its_model_cmd *its_model_cmd(const struct its_model *m, size_t i);
unsigned long its_model_stalls(const struct its_model *m);	/* stalls entered */
unsigned long its_model_bad_cwriter(const struct its_model *m); /* ignored CWRITER values */
unsigned long its_model_unknown(const struct its_model *m);	/* unknown opcodes skipped */
unsigned long its_model_max_pending(const struct its_model *m); /* max unconsumed bytes seen */
uint64_t its_model_creadr(const struct its_model *m);
uint64_t its_model_cwriter(const struct its_model *m);
uint64_t its_model_cbaser(const struct its_model *m);
bool its_model_stalled(const struct its_model *m); /* processing halted */
void its_model_clear_log(struct its_model *m);

/* The model's own 32-byte decoder (exposed for tests of the model itself). */
void its_model_decode(const uint8_t raw[32], struct its_model_cmd *out);

#endif /* ITS_MODEL_H */
