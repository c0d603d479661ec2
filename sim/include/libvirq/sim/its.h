/* SPDX-License-Identifier: MIT */
/*
 * virq_sim_its: a GICv3/v4 ITS command-queue model on the fake HAL.
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
 * - stall_nth / stall_opcode / a hook returning LIBVIRQ_SIM_ITS_STALL: the
 *   command stalls (CREADR stays on it, Stalled = 1); a Retry write
 *   restarts it; qemu_sticky_stall keeps Stalled set after a successful
 *   restart and restarts on any CWRITER write (QEMU 7.2);
 * - unmapped queue memory (memory error) stalls; a CWRITER offset outside
 *   the queue is ignored and counted (docs/rationale.md#gic-its-bounds);
 * - GITS_CBASER writes are ignored while enabled (QEMU), reset CREADR to 0
 *   and clear Stalled (CWRITER is kept); force_sh / force_inner change what reads back.
 *
 * Per-command hooks (virq_sim_its_add_hook) let another model (device / ITT /
 * vPE state) act on every decoded command and ask for a stall.
 */
#ifndef LIBVIRQ_SIM_ITS_H
#define LIBVIRQ_SIM_ITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libvirq/sim/hal.h>

/* One command as the model decoded it (its own field names). */
struct virq_sim_its_cmd {
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

enum virq_sim_its_verdict {
	LIBVIRQ_SIM_ITS_OK = 0,    /* command completes */
	LIBVIRQ_SIM_ITS_STALL = 1, /* command stalls the queue */
};

struct virq_sim_its;
typedef enum virq_sim_its_verdict (*virq_sim_its_hook_fn)(void *arg, struct virq_sim_its *m,
						    const struct virq_sim_its_cmd *cmd);

struct virq_sim_its_cfg {
	uint64_t typer;		/* GITS_TYPER (0: QEMU gic-version=4 value) */
	unsigned per_relax;	/* 0: synchronous; N: N commands per relax() */
	bool dead;		/* never consume */
	bool qemu_sticky_stall; /* QEMU 7.2: Stalled stays set; any CWRITER write restarts */
	bool never_quiescent;	/* GITS_CTLR.Quiescent reads 0 */
	int force_sh;		/* -1: Shareability sticks; else the value read back */
	int force_inner;	/* -1: InnerCache sticks; else the value read back */
};

/* Creates a model at @base (ITS control frame) and hooks it into @fh. */
struct virq_sim_its *virq_sim_its_new(struct virq_sim *fh, uint64_t base,
				const struct virq_sim_its_cfg *cfg);
void virq_sim_its_free(struct virq_sim_its *m);
/* Default configuration (QEMU-like). */
struct virq_sim_its_cfg virq_sim_its_default_cfg(void);

/* Behaviour changes at run time. */
void virq_sim_its_set_per_relax(struct virq_sim_its *m, unsigned n);
void virq_sim_its_set_dead(struct virq_sim_its *m, bool dead);
/* GITS_CTLR.Quiescent reads 0 from now on (true) or 1 again (false). */
void virq_sim_its_set_never_quiescent(struct virq_sim_its *m, bool on);
/* Stall the first time the command that would be the n-th completed one (1-based) runs; 0 off. */
void virq_sim_its_stall_nth(struct virq_sim_its *m, unsigned long n);
/* Stall every time a command with this opcode runs; -1 off. */
void virq_sim_its_stall_opcode(struct virq_sim_its *m, int op);
/* Adds a per-command hook, called in order for every command before it completes. */
void virq_sim_its_add_hook(struct virq_sim_its *m, virq_sim_its_hook_fn fn, void *arg);
/* Enables/disables the ITS as software would (GITS_CTLR.Enabled), without MMIO counting. */
void virq_sim_its_enable(struct virq_sim_its *m, bool on);

/* Observations. */
size_t virq_sim_its_ncmds(const struct virq_sim_its *m); /* completed commands */
const struct virq_sim_its_cmd *virq_sim_its_cmd(const struct virq_sim_its *m, size_t i);
unsigned long virq_sim_its_stalls(const struct virq_sim_its *m);	/* stalls entered */
unsigned long virq_sim_its_bad_cwriter(const struct virq_sim_its *m); /* ignored CWRITER values */
unsigned long virq_sim_its_unknown(const struct virq_sim_its *m);	/* unknown opcodes skipped */
unsigned long virq_sim_its_max_pending(const struct virq_sim_its *m); /* max unconsumed bytes seen */
/* per_relax mode: command slots of relax rounds that found nothing published
 * (the ITS idled while software could have given it work: "bubbles"). */
unsigned long virq_sim_its_idle_slots(const struct virq_sim_its *m);
void virq_sim_its_reset_idle(struct virq_sim_its *m);
uint64_t virq_sim_its_creadr(const struct virq_sim_its *m);
uint64_t virq_sim_its_cwriter(const struct virq_sim_its *m);
uint64_t virq_sim_its_cbaser(const struct virq_sim_its *m);
bool virq_sim_its_stalled(const struct virq_sim_its *m); /* processing halted */
void virq_sim_its_clear_log(struct virq_sim_its *m);

/* The model's own 32-byte decoder (exposed for tests of the model itself). */
void virq_sim_its_decode(const uint8_t raw[32], struct virq_sim_its_cmd *out);

#endif /* LIBVIRQ_SIM_ITS_H */
