/* SPDX-License-Identifier: MIT */
/*
 * virq_sim_its: ITS command-queue model (see libvirq/sim/its.h).
 *
 * The decoder below is deliberately written from the command layouts of
 * IHI 0069H §5.3 with plain shifts and masks, without any library
 * header or macro, so that it cannot share a mistake with libvirq's
 * encoder (src/gicv4/enc/its_cmd.c).
 */
#include <libvirq/sim/its.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latitude_priv.h"

#define M_CTLR 0x00
#define M_TYPER 0x08
#define M_CBASER 0x80
#define M_CWRITER 0x88
#define M_CREADR 0x90
#define M_SPAN 0xA0

/* GITS_TYPER as QEMU 7.2 virt,gic-version=4 reports it (IHI 0069H §12.19 GITS_TYPER). */
#define M_QEMU_TYPER 0x0000003F0001EFB3ull

#define MAX_HOOKS 8

struct virq_sim_its {
	struct virq_sim *sim;
	uint64_t base;
	struct virq_sim_its_cfg cfg;
	uint32_t ctlr;
	uint64_t cbaser, cwriter, creadr_off;
	bool stalled_bit, halted;
	unsigned long stall_nth, stalls, bad_cwriter, unknown, max_pending;
	unsigned long idle_slots; /* per_relax capacity found nothing to run */
	int stall_op;
	struct {
		virq_sim_its_hook_fn fn;
		void *arg;
	} hooks[MAX_HOOKS];
	size_t nhooks;
	struct virq_sim_its_cmd *log;
	size_t nlog, caplog;
};

static uint64_t le64_(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t bits_(uint64_t w, unsigned hi, unsigned lo)
{
	return (w >> lo) & ((hi - lo == 63) ? ~0ull : ((1ull << (hi - lo + 1)) - 1));
}

void virq_sim_its_decode(const uint8_t raw[32], struct virq_sim_its_cmd *c)
{
	uint64_t w0, w1, w2, w3;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 4; i++)
		c->dw[i] = le64_(raw + 8 * i);
	w0 = c->dw[0];
	w1 = c->dw[1];
	w2 = c->dw[2];
	w3 = c->dw[3];
	c->op = (uint8_t)(w0 & 0xff);
	c->known = true;
	switch (c->op) {
	case 0x01: /* MOVI */
		c->dev = (uint32_t)(w0 >> 32);
		c->ev = (uint32_t)w1;
		c->icid = (uint32_t)(w2 & 0xffff);
		break;
	case 0x03: /* INT */
	case 0x04: /* CLEAR */
	case 0x0C: /* INV */
	case 0x0F: /* DISCARD */
		c->dev = (uint32_t)(w0 >> 32);
		c->ev = (uint32_t)w1;
		break;
	case 0x05: /* SYNC */
		c->rd = w2 & 0x000FFFFFFFFF0000ull;
		break;
	case 0x08: /* MAPD */
		c->dev = (uint32_t)(w0 >> 32);
		c->size = (uint32_t)(w1 & 0x1f);
		c->itt = w2 & 0x000FFFFFFFFFFF00ull;
		c->valid = (w2 >> 63) != 0;
		break;
	case 0x09: /* MAPC */
		c->icid = (uint32_t)(w2 & 0xffff);
		c->rd = w2 & 0x000FFFFFFFFF0000ull;
		c->valid = (w2 >> 63) != 0;
		break;
	case 0x0A: /* MAPTI */
		c->pintid = (uint32_t)(w1 >> 32);
		/* fall through */
	case 0x0B: /* MAPI */
		c->dev = (uint32_t)(w0 >> 32);
		c->ev = (uint32_t)w1;
		c->icid = (uint32_t)(w2 & 0xffff);
		if (c->op == 0x0B)
			c->pintid = c->ev;
		break;
	case 0x0D: /* INVALL */
		c->icid = (uint32_t)(w2 & 0xffff);
		break;
	case 0x0E: /* MOVALL */
		c->rd = w2 & 0x000FFFFFFFFF0000ull;
		c->rd2 = w3 & 0x000FFFFFFFFF0000ull;
		break;
	case 0x21: /* VMOVI */
		c->dev = (uint32_t)(w0 >> 32);
		c->ev = (uint32_t)w1;
		c->vpe = (uint32_t)bits_(w1, 47, 32);
		c->dbvalid = (w2 & 1) != 0;
		c->db = (uint32_t)(w2 >> 32);
		break;
	case 0x22: /* VMOVP */
		c->seq = (uint32_t)bits_(w0, 47, 32);
		c->itslist = (uint32_t)(w1 & 0xffff);
		c->vpe = (uint32_t)bits_(w1, 47, 32);
		c->rd = w2 & 0x000FFFFFFFFF0000ull;
		c->db41 = (w2 >> 63) != 0;
		c->defdb = (uint32_t)w3;
		break;
	case 0x23: /* VSGI */
		c->en = bits_(w0, 8, 8) != 0;
		c->clr = bits_(w0, 9, 9) != 0;
		c->grp = bits_(w0, 10, 10) != 0;
		c->prio = (uint32_t)bits_(w0, 23, 20) << 4;
		c->vintid = (uint32_t)bits_(w0, 35, 32);
		c->vpe = (uint32_t)bits_(w1, 47, 32);
		break;
	case 0x25: /* VSYNC */
	case 0x2D: /* VINVALL */
	case 0x2E: /* INVDB */
		c->vpe = (uint32_t)bits_(w1, 47, 32);
		break;
	case 0x29: /* VMAPP */
		c->alloc = bits_(w0, 8, 8) != 0;
		c->ptz = bits_(w0, 9, 9) != 0;
		c->vconf = w0 & 0x000FFFFFFFFF0000ull;
		c->defdb = (uint32_t)w1;
		c->vpe = (uint32_t)bits_(w1, 47, 32);
		c->rd = w2 & 0x000FFFFFFFFF0000ull;
		c->valid = (w2 >> 63) != 0;
		c->vpt = w3 & 0x000FFFFFFFFF0000ull;
		c->vpt_size = (uint32_t)(w3 & 0xff); /* DW3[7:0] (IHI 0069H §5.3 VMAPP) */
		break;
	case 0x2A: /* VMAPTI */
	case 0x2B: /* VMAPI */
		c->dev = (uint32_t)(w0 >> 32);
		c->ev = (uint32_t)w1;
		c->vpe = (uint32_t)bits_(w1, 47, 32);
		c->vintid = c->op == 0x2A ? (uint32_t)w2 : c->ev;
		c->db = (uint32_t)(w2 >> 32);
		break;
	default:
		c->known = false;
		break;
	}
}

/* ---- queue processing ---- */
static uint64_t qsize_(const struct virq_sim_its *m)
{
	return ((m->cbaser & 0xff) + 1) * 4096;
}

static uint64_t qpa_(const struct virq_sim_its *m)
{
	return m->cbaser & 0x000FFFFFFFFFF000ull;
}

static bool enabled_(const struct virq_sim_its *m)
{
	return (m->ctlr & 1) && (m->cbaser >> 63);
}

static void log_cmd_(struct virq_sim_its *m, const struct virq_sim_its_cmd *c)
{
	if (m->nlog == m->caplog) {
		m->caplog = m->caplog ? 2 * m->caplog : 256;
		m->log = realloc(m->log, m->caplog * sizeof(*m->log));
		if (!m->log)
			abort();
	}
	m->log[m->nlog++] = *c;
}

static void stall_(struct virq_sim_its *m)
{
	m->halted = true;
	m->stalled_bit = true;
	m->stalls++;
}

/* Processes one command at CREADR; false when processing must stop. */
static bool step_(struct virq_sim_its *m)
{
	struct virq_sim_its_cmd c;
	const uint8_t *raw;

	if (m->halted || !enabled_(m) || m->creadr_off == m->cwriter)
		return false;
	raw = virq_sim_pa_to_va(m->sim, qpa_(m) + m->creadr_off, 32);
	if (!raw) { /* memory error: stall (QEMU, docs/rationale.md#gic-its-bounds) */
		stall_(m);
		return false;
	}
	virq_sim_its_decode(raw, &c);
	c.offset = (uint32_t)m->creadr_off;
	if (m->stall_nth && m->nlog + 1 == m->stall_nth) {
		m->stall_nth = 0;
		stall_(m);
		return false;
	}
	if (m->stall_op >= 0 && c.op == m->stall_op) {
		stall_(m);
		return false;
	}
	for (size_t i = 0; i < m->nhooks; i++) {
		if (m->hooks[i].fn(m->hooks[i].arg, m, &c) == LIBVIRQ_SIM_ITS_STALL) {
			stall_(m);
			return false;
		}
	}
	if (!c.known)
		m->unknown++; /* skipped, like QEMU */
	log_cmd_(m, &c);
	m->creadr_off = (m->creadr_off + 32) % qsize_(m);
	return true;
}

static void run_(struct virq_sim_its *m, unsigned long max)
{
	unsigned long i = 0;

	while (i < max && step_(m))
		i++;
	/* A slow ITS (per_relax) that found nothing published: its unused
	 * capacity in this round is a bubble (not counted while stalled). */
	if (m->cfg.per_relax && i < max && !m->halted)
		m->idle_slots += max - i;
}

static void note_pending_(struct virq_sim_its *m)
{
	uint64_t size = qsize_(m);
	uint64_t pend = (m->cwriter + size - m->creadr_off) % size;

	if (pend > m->max_pending)
		m->max_pending = pend;
}

static void write_cwriter_(struct virq_sim_its *m, uint64_t v)
{
	uint64_t off = v & 0xFFFE0ull;
	bool retry = v & 1;

	if (off >= qsize_(m)) { /* CONSTRAINED UNPREDICTABLE: ignore (QEMU logs it) */
		m->bad_cwriter++;
		return;
	}
	m->cwriter = off;
	note_pending_(m);
	if (m->halted && (retry || m->cfg.qemu_sticky_stall)) {
		m->halted = false;
		if (!m->cfg.qemu_sticky_stall)
			m->stalled_bit = false;
	}
	if (!m->cfg.dead && !m->cfg.per_relax)
		run_(m, ~0ul);
}

/* GITS_CBASER: InnerCache [61:59], OuterCache [55:53], Physical_Address
 * [51:12], Shareability [11:10] as the latitude says; [9:8] RES0. */
static uint64_t cbaser_rb_(const struct virq_sim_its *m, uint64_t v)
{
	static const struct lat_pos_ pos = {10, 59, 53};
	const uint64_t pam = 0x000FFFFFFFFFF000ull;

	v = lat_attrs_(&m->cfg.cbaser, pos, v);
	v = (v & ~pam) | lat_pa_(&m->cfg.cbaser, v & pam);
	return v & ~(0x3ull << 8);
}

static uint64_t reg_read_(struct virq_sim_its *m, uint64_t off)
{
	switch (off) {
	case M_CTLR:
		return m->ctlr | (m->cfg.never_quiescent ? 0 : 0x80000000u);
	case M_TYPER:
		return m->cfg.typer;
	case M_CBASER:
		return m->cbaser;
	case M_CWRITER:
		return m->cwriter;
	case M_CREADR:
		return m->creadr_off | (m->stalled_bit ? 1 : 0);
	default:
		return 0;
	}
}

static void reg_write_(struct virq_sim_its *m, uint64_t off, uint64_t v)
{
	switch (off) {
	case M_CTLR: {
		bool was = enabled_(m);

		m->ctlr = (uint32_t)v & 0xF3; /* Enabled, ImDe, ITS_Number */
		if (!was && enabled_(m) && !m->cfg.dead && !m->cfg.per_relax)
			run_(m, ~0ul);
		break;
	}
	case M_CBASER:
		if (m->ctlr & 1)
			break; /* read-only while enabled (QEMU) */
		/* Resets GITS_CREADR only: GITS_CWRITER keeps its value (QEMU its_writel;
		 * IHI 0069H §12.19 GITS_CBASER: software writes CWRITER = 0 itself). */
		m->cbaser = cbaser_rb_(m, v);
		m->creadr_off = 0;
		m->stalled_bit = false;
		m->halted = false;
		break;
	case M_CWRITER:
		write_cwriter_(m, v);
		break;
	default:
		break;
	}
}

static uint64_t mmio_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_its *m = arg;
	uint64_t off = addr - m->base;
	uint64_t v = reg_read_(m, off & ~7ull);

	(void)sim;
	if (width == 32)
		return (off & 4) ? v >> 32 : (v & 0xffffffffu);
	return v;
}

static void mmio_wr_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t value, unsigned width)
{
	struct virq_sim_its *m = arg;
	uint64_t off = addr - m->base;
	uint64_t reg = off & ~7ull;

	(void)sim;
	if (width == 32 && reg != M_CTLR) {
		uint64_t cur = reg_read_(m, reg);

		if (reg == M_CWRITER)
			cur = m->cwriter;
		if (off & 4)
			value = (cur & 0xffffffffu) | (value << 32);
		else
			value = (cur & ~0xffffffffull) | (value & 0xffffffffu);
	}
	reg_write_(m, reg, value);
}

static void relax_(void *arg, struct virq_sim *sim)
{
	struct virq_sim_its *m = arg;

	(void)sim;
	if (!m->cfg.dead && m->cfg.per_relax)
		run_(m, m->cfg.per_relax);
}

struct virq_sim_its_cfg virq_sim_its_default_cfg(void)
{
	struct virq_sim_its_cfg c = {0};

	c.typer = M_QEMU_TYPER;
	return c;
}

struct virq_sim_its *virq_sim_its_new(struct virq_sim *sim, uint64_t base,
				      const struct virq_sim_its_cfg *cfg)
{
	struct virq_sim_its *m = calloc(1, sizeof(*m));

	if (!m)
		abort();
	m->sim = sim;
	m->base = base;
	m->cfg = cfg ? *cfg : virq_sim_its_default_cfg();
	if (!m->cfg.typer)
		m->cfg.typer = M_QEMU_TYPER;
	m->stall_op = -1;
	virq_sim_add_region(sim, base, M_SPAN, mmio_rd_, mmio_wr_, m);
	virq_sim_on_relax(sim, relax_, m);
	return m;
}

void virq_sim_its_free(struct virq_sim_its *m)
{
	if (!m)
		return;
	/* The fake HAL keeps the hook pointers: free the model after the fake HAL. */
	free(m->log);
	free(m);
}

void virq_sim_its_set_per_relax(struct virq_sim_its *m, unsigned n)
{
	m->cfg.per_relax = n;
}
void virq_sim_its_set_dead(struct virq_sim_its *m, bool dead)
{
	m->cfg.dead = dead;
}
void virq_sim_its_set_never_quiescent(struct virq_sim_its *m, bool on)
{
	m->cfg.never_quiescent = on;
}
void virq_sim_its_stall_nth(struct virq_sim_its *m, unsigned long n)
{
	m->stall_nth = n;
}
void virq_sim_its_stall_opcode(struct virq_sim_its *m, int op)
{
	m->stall_op = op;
}

void virq_sim_its_add_hook(struct virq_sim_its *m, virq_sim_its_hook_fn fn, void *arg)
{
	if (m->nhooks == MAX_HOOKS)
		abort();
	m->hooks[m->nhooks].fn = fn;
	m->hooks[m->nhooks].arg = arg;
	m->nhooks++;
}

void virq_sim_its_enable(struct virq_sim_its *m, bool on)
{
	reg_write_(m, M_CTLR, on ? (m->ctlr | 1) : (m->ctlr & ~1u));
}

size_t virq_sim_its_ncmds(const struct virq_sim_its *m)
{
	return m->nlog;
}

const struct virq_sim_its_cmd *virq_sim_its_cmd_at(const struct virq_sim_its *m, size_t i)
{
	return i < m->nlog ? &m->log[i] : NULL;
}

unsigned long virq_sim_its_stalls(const struct virq_sim_its *m)
{
	return m->stalls;
}
unsigned long virq_sim_its_bad_cwriter(const struct virq_sim_its *m)
{
	return m->bad_cwriter;
}
unsigned long virq_sim_its_unknown(const struct virq_sim_its *m)
{
	return m->unknown;
}
unsigned long virq_sim_its_idle_slots(const struct virq_sim_its *m)
{
	return m->idle_slots;
}

void virq_sim_its_reset_idle(struct virq_sim_its *m)
{
	m->idle_slots = 0;
}

unsigned long virq_sim_its_max_pending(const struct virq_sim_its *m)
{
	return m->max_pending;
}
uint64_t virq_sim_its_creadr(const struct virq_sim_its *m)
{
	return reg_read_((struct virq_sim_its *)m, M_CREADR);
}
uint64_t virq_sim_its_cwriter(const struct virq_sim_its *m)
{
	return m->cwriter;
}
uint64_t virq_sim_its_cbaser(const struct virq_sim_its *m)
{
	return m->cbaser;
}
bool virq_sim_its_stalled(const struct virq_sim_its *m)
{
	return m->halted;
}
void virq_sim_its_clear_log(struct virq_sim_its *m)
{
	m->nlog = 0;
}
