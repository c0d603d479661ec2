/* SPDX-License-Identifier: MIT */
/* ITS translation-state model; see libvirq/sim/its_state.h. */
#include <libvirq/sim/its_state.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latitude_priv.h"

#define NO_DB 1023u
#define MAX_IDS 65536u

struct dev_ {
	uint32_t id;
	bool valid;
	uint32_t nev;
	struct virq_sim_its_ev *ev;
	uint64_t itt;	    /* ITT_addr */
	uint64_t itt_bytes; /* nev * ITT entry size */
	uint8_t *itt_copy;  /* the ITT's bytes at MAPD: software must not write them */
};

struct vpe_ {
	bool mapped;
	uint64_t rd, vpt;
	uint32_t defdb;
};

struct cnt_ {
	uint64_t key;
	unsigned long n;
};

struct virq_sim_its_state {
	struct virq_sim *sim;
	struct virq_sim_its *q;
	struct virq_sim_its_state_cfg cfg;
	uint64_t baser[8];
	struct dev_ *devs;
	size_t ndevs;
	struct vpe_ *vpes;
	bool *col_valid;
	uint64_t *col_rd;
	unsigned long errors;
	uint32_t ctlr;
	unsigned quiesce_left;
	char last_err[96];
	struct cnt_ *cnts;
	size_t ncnts;
	unsigned long sgir_writes;
};

/* ---- counters keyed by (kind, a, b) ---- */
static void bump_(struct virq_sim_its_state *s, uint64_t key)
{
	for (size_t i = 0; i < s->ncnts; i++)
		if (s->cnts[i].key == key) {
			s->cnts[i].n++;
			return;
		}
	s->cnts = realloc(s->cnts, (s->ncnts + 1) * sizeof(*s->cnts));
	if (!s->cnts)
		abort();
	s->cnts[s->ncnts++] = (struct cnt_){key, 1};
}

static unsigned long cnt_(const struct virq_sim_its_state *s, uint64_t key)
{
	for (size_t i = 0; i < s->ncnts; i++)
		if (s->cnts[i].key == key)
			return s->cnts[i].n;
	return 0;
}

#define K_VDEL(vpe, vint) ((1ull << 62) | ((uint64_t)(vpe) << 32) | (vint))
#define K_DB(p) ((2ull << 62) | (p))
#define K_PLPI(p) ((3ull << 62) | (p))
/* Tag 0: translations of one event (DeviceIDs of 29 bits or fewer), and
 * with bit 61 the CLEARs that found an LPI mapped. */
#define K_EV(dev, ev) (((uint64_t)(dev) << 32) | (ev))
#define K_EV_DEV_MAX ((1u << 29) - 1u)
#define K_CLR(p) ((1ull << 61) | (p))

static void err_(struct virq_sim_its_state *s, const char *what, uint64_t v)
{
	s->errors++;
	snprintf(s->last_err, sizeof(s->last_err), "%s 0x%llx", what, (unsigned long long)v);
	if (getenv("ITS_STATE_VERBOSE"))
		fprintf(stderr, "its_state: %s\n", s->last_err);
}

/* ---- BASER registers ---- */
#define T_DEV 1u /* GITS_BASER<n>.Type values (IHI 0069H §12.19 GITS_BASER<n>) */
#define T_VPE 2u
#define T_COL 4u

static uint32_t baser_type_(const struct virq_sim_its_state *s, unsigned n)
{
	bool any = false;

	for (unsigned i = 0; i < 8; i++)
		any = any || s->cfg.baser_type[i];
	if (any)
		return s->cfg.baser_type[n] & 7u;
	if (n == 0)
		return T_DEV;
	if (n == 1)
		return T_COL;
	if (n == 2 && !s->cfg.no_vpe_table && ((s->cfg.typer >> 1) & 1))
		return T_VPE;
	return 0;
}

/* The BASER holding tables of @type, or -1. */
static int baser_of_(const struct virq_sim_its_state *s, uint32_t type)
{
	for (unsigned n = 0; n < 8; n++)
		if (baser_type_(s, n) == type)
			return (int)n;
	return -1;
}

/* The latitude of a table type (::virq_sim_its_state_cfg::baser). */
static const struct virq_sim_table_lat *baser_lat_(const struct virq_sim_its_state *s,
						   uint32_t type)
{
	return &s->cfg.baser[type == T_DEV ? 0 : type == T_COL ? 1 : 2];
}

static uint64_t baser_ro_(const struct virq_sim_its_state *s, unsigned n)
{
	uint32_t t = baser_type_(s, n);

	if (!t)
		return 0;
	return ((uint64_t)t << 56) | ((uint64_t)(s->cfg.esz - 1) << 48);
}

static uint64_t baser_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_its_state *s = arg;
	uint64_t off = addr - (s->cfg.base + 0x100);
	uint64_t v = s->baser[off / 8] | baser_ro_(s, (unsigned)(off / 8));

	(void)sim;
	if (width == 32)
		return (off & 4) ? v >> 32 : (uint32_t)v;
	return v;
}

/* GITS_BASER<n>: InnerCache [61:59], OuterCache [55:53], Shareability [11:10]. */
static const struct lat_pos_ baser_pos_ = {10, 59, 53};

/* Physical_Address [47:12]; with 64 KiB pages [47:16] and PA[51:48] in [15:12]. */
static uint64_t baser_pa_get_(uint64_t v, uint32_t psz)
{
	if (psz == 2)
		return (v & 0x0000FFFFFFFF0000ull) | (((v >> 12) & 0xF) << 48);
	return v & 0x0000FFFFFFFFF000ull;
}

static uint64_t baser_pa_set_(uint64_t v, uint32_t psz, uint64_t pa)
{
	v &= ~0x0000FFFFFFFFF000ull;
	if (psz == 2)
		return v | (pa & 0x0000FFFFFFFF0000ull) | (((pa >> 48) & 0xF) << 12);
	return v | (pa & 0x0000FFFFFFFFF000ull);
}

/* What GITS_BASER<n> keeps of a write of @v: Type and Entry_Size are
 * read-only, the rest as the table type's latitude says. */
static uint64_t baser_keep_(const struct virq_sim_its_state *s, unsigned n, uint64_t v)
{
	const struct virq_sim_table_lat *t = baser_lat_(s, baser_type_(s, n));
	uint32_t psz = lat_psz_(t, (uint32_t)((v >> 8) & 3));

	v &= ~((7ull << 56) | (0x1Full << 48)); /* RO */
	v = (v & ~(3ull << 8)) | ((uint64_t)psz << 8);
	if (t->flat_only)
		v &= ~(1ull << 62);
	v = lat_attrs_(&t->attrs, baser_pos_, v);
	return baser_pa_set_(v, psz, lat_pa_(&t->attrs, baser_pa_get_(v, psz)));
}

static void baser_wr_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct virq_sim_its_state *s = arg;
	uint64_t off = addr - (s->cfg.base + 0x100);
	unsigned n = (unsigned)(off / 8);

	(void)sim;
	if (width == 32) {
		uint64_t cur = s->baser[n];

		v = (off & 4) ? ((cur & 0xffffffffu) | (v << 32))
			      : ((cur & ~0xffffffffull) | (uint32_t)v);
	}
	s->baser[n] = baser_type_(s, n) ? baser_keep_(s, n, v) : 0;
}

static uint64_t iidr_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_its_state *s = arg;

	(void)sim;
	(void)addr;
	(void)width;
	return s->cfg.iidr;
}

static uint64_t mpidr_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_its_state *s = arg;

	(void)sim;
	(void)addr;
	(void)width;
	return s->cfg.mpidr & 0xFFFFFF00u;
}

/* The vSGI frame: only GITS_SGIR (+0x20 in the frame, 64-bit, write-only). */
static uint64_t sgi_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	(void)arg;
	(void)sim;
	(void)addr;
	(void)width;
	return 0;
}

static void sgi_wr_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct virq_sim_its_state *s = arg;
	uint32_t vpe = (uint32_t)((v >> 32) & 0xFFFF), vint = (uint32_t)(v & 0xF);

	(void)sim;
	if (addr - s->cfg.base != 0x20020 || width != 64) {
		err_(s, "vSGI frame: write other than 64-bit GITS_SGIR", addr);
		return;
	}
	if (v & ~((0xFFFFull << 32) | 0xFull)) {
		err_(s, "GITS_SGIR: RES0 bits set", v);
		return;
	}
	s->sgir_writes++;
	if (!s->vpes[vpe].mapped) {
		err_(s, "GITS_SGIR: vPE not mapped", vpe);
		return;
	}
	if (s->cfg.rm)
		virq_sim_rdist_vsgi_set_pending(s->cfg.rm, vpe, vint);
}

/* Optional GITS_CTLR override with a Quiescent countdown. */
static uint64_t ctlr_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_its_state *s = arg;

	(void)sim;
	(void)addr;
	(void)width;
	if (s->quiesce_left) {
		s->quiesce_left--;
		return s->ctlr;
	}
	return s->ctlr | 0x80000000u;
}

static void ctlr_wr_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct virq_sim_its_state *s = arg;

	(void)sim;
	(void)addr;
	(void)width;
	s->ctlr = (uint32_t)v & 0xF3u;
	if (s->cfg.its_number_ro)
		s->ctlr = (s->ctlr & ~0xF0u) | (((s->cfg.its_number_ro - 1) & 0xF) << 4);
	s->quiesce_left = s->cfg.quiescent_polls;
	virq_sim_its_enable(s->q, (v & 1) != 0);
}

/* Table entry check: is ID @id backed by a valid entry of the table of
 * @type (two-level: a valid level-1 entry and its level-2 page)? */
static bool table_ok_(struct virq_sim_its_state *s, uint32_t type, uint64_t id)
{
	int n = baser_of_(s, type);
	uint64_t b = n >= 0 ? s->baser[n] : 0;
	uint32_t code = (uint32_t)((b >> 8) & 3);
	uint32_t psz = code == 0 ? 4096 : code == 1 ? 16384 : 65536;
	uint64_t pa, per = psz / s->cfg.esz, pages = (b & 0xFF) + 1;
	const uint64_t *l1;

	if (!(b >> 63))
		return false;
	pa = baser_pa_get_(b, code > 2 ? 2 : code);
	if (!((b >> 62) & 1))
		return id < pages * per && virq_sim_pa_to_va(s->sim, pa, (size_t)(pages * psz));
	if (id / per >= pages * psz / 8)
		return false;
	l1 = virq_sim_pa_to_va(s->sim, pa + (id / per) * 8, 8);
	return l1 && (*l1 >> 63) && virq_sim_pa_to_va(s->sim, *l1 & 0x000FFFFFFFFFF000ull, psz);
}

/* ---- state ---- */
static struct dev_ *dev_(struct virq_sim_its_state *s, uint32_t id)
{
	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i].id == id && s->devs[i].valid)
			return &s->devs[i];
	return NULL;
}

static struct virq_sim_its_ev *ev_(struct virq_sim_its_state *s, uint32_t dev, uint32_t ev)
{
	struct dev_ *d = dev_(s, dev);

	if (!d) {
		err_(s, "unmapped device", dev);
		return NULL;
	}
	if (ev >= d->nev) {
		err_(s, "event out of range", ev);
		return NULL;
	}
	return &d->ev[ev];
}

static int rd_index_(struct virq_sim_its_state *s, uint64_t rdbase)
{
	if (!((s->cfg.typer >> 19) & 1))
		return (int)(rdbase >> 16); /* PTA = 0: processor number */
	for (int i = 0; i < 4096 && s->cfg.rm; i++) {
		if (virq_sim_rdist_base(s->cfg.rm, (unsigned)i) == rdbase)
			return i;
		if (i > 64)
			break;
	}
	return -1;
}

/* The ITT of @d was not written by software while mapped (the model keeps
 * its translations apart and never writes it, so any change is a write by
 * the CPU into memory the ITS owns: IHI 0069H §5.2, the ITT is for the ITS). */
static void itt_check_(struct virq_sim_its_state *s, struct dev_ *d)
{
	const uint8_t *now = virq_sim_pa_to_va(s->sim, d->itt, (size_t)d->itt_bytes);

	if (d->itt_copy && !now)
		err_(s, "ITT memory freed while mapped", d->itt);
	else if (d->itt_copy && memcmp(now, d->itt_copy, (size_t)d->itt_bytes) != 0)
		err_(s, "ITT written by software while mapped", d->itt);
	free(d->itt_copy);
	d->itt_copy = NULL;
}

/* MAPD V=1's ITT: inside memory, overlapping no other mapped device's. */
static void itt_take_(struct virq_sim_its_state *s, struct dev_ *d, uint64_t itt)
{
	uint64_t esz = ((s->cfg.typer >> 4) & 0xF) + 1;
	const uint8_t *va;

	d->itt = itt;
	d->itt_bytes = d->nev * esz;
	va = virq_sim_pa_to_va(s->sim, itt, (size_t)d->itt_bytes);
	if (!va) {
		err_(s, "MAPD: ITT not in memory", itt);
		return;
	}
	for (size_t i = 0; i < s->ndevs; i++) {
		const struct dev_ *o = &s->devs[i];

		if (o != d && o->valid && itt < o->itt + o->itt_bytes &&
		    o->itt < itt + d->itt_bytes)
			err_(s, "MAPD: ITT overlaps another mapped device's", itt);
	}
	d->itt_copy = malloc((size_t)d->itt_bytes);
	if (!d->itt_copy)
		abort();
	memcpy(d->itt_copy, va, (size_t)d->itt_bytes);
}

static void do_mapd_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c)
{
	struct dev_ *d = dev_(s, c->dev);

	if (d) {
		itt_check_(s, d);
		free(d->ev);
		d->valid = false;
		d->ev = NULL;
	}
	if (!c->valid)
		return;
	if (!table_ok_(s, T_DEV, c->dev)) {
		err_(s, "MAPD: no device table entry", c->dev);
		return;
	}
	if (c->size > ((s->cfg.typer >> 8) & 0x1F)) {
		err_(s, "MAPD: size", c->size);
		return;
	}
	s->devs = realloc(s->devs, (s->ndevs + 1) * sizeof(*s->devs));
	if (!s->devs)
		abort();
	d = &s->devs[s->ndevs++];
	memset(d, 0, sizeof(*d));
	d->id = c->dev;
	d->valid = true;
	d->nev = 1u << (c->size + 1);
	d->ev = calloc(d->nev, sizeof(*d->ev));
	itt_take_(s, d, c->itt);
}

/* Pending state of physical LPI @pintid on the RD @rdbase names. */
static void lpi_pend_(struct virq_sim_its_state *s, uint64_t rdbase, uint32_t pintid, bool on)
{
	int rd;

	if (!s->cfg.rm)
		return;
	rd = rd_index_(s, rdbase);
	if (rd >= 0)
		virq_sim_rdist_lpi_set_pending(s->cfg.rm, (unsigned)rd, pintid, on);
}

/* Event (@dev, @ev), mapped to @e, translated (INT or an MSI). */
static void do_int_(struct virq_sim_its_state *s, uint32_t dev, uint32_t ev,
		    struct virq_sim_its_ev *e)
{
	if (dev <= K_EV_DEV_MAX)
		bump_(s, K_EV(dev, ev));
	if (e->kind == LIBVIRQ_SIM_ITS_EV_PHYS) {
		bump_(s, K_PLPI(e->pintid));
		lpi_pend_(s, s->col_rd[e->icid & 0xFFFF], e->pintid, true);
		return;
	}
	struct vpe_ *v = &s->vpes[e->vpe];
	int rd = rd_index_(s, v->rd);
	bool v41 = (s->cfg.typer >> 40) & 1;

	if (s->cfg.rm && rd >= 0 &&
	    virq_sim_rdist_resident(s->cfg.rm, (unsigned)rd, v->vpt, e->vpe)) {
		bump_(s, K_VDEL(e->vpe, e->vintid));
		return;
	}
	uint8_t *vpt = virq_sim_pa_to_va(s->sim, v->vpt + e->vintid / 8, 1);

	if (vpt)
		*vpt = (uint8_t)(*vpt | (1u << (e->vintid % 8)));
	/* The doorbell becomes pending on the RD the vPE is mapped to (the
	 * vPE table's RDbase); a later VMOVP does not take it along. */
	if (e->db != NO_DB) {
		bump_(s, K_DB(e->db));
		lpi_pend_(s, v->rd, e->db, true);
	} else if (v41 && v->defdb != NO_DB && v->defdb) {
		bump_(s, K_DB(v->defdb));
		lpi_pend_(s, v->rd, v->defdb, true);
	}
}

static void do_vmapp_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c)
{
	struct vpe_ *v = &s->vpes[c->vpe];

	if (!c->valid) {
		if (!v->mapped)
			err_(s, "VMAPP unmap: not mapped", c->vpe);
		memset(v, 0, sizeof(*v));
		if (s->cfg.rm)
			virq_sim_rdist_vpe_set_target(s->cfg.rm, c->vpe, -1);
		return;
	}
	if (!table_ok_(s, T_VPE, c->vpe)) {
		err_(s, "VMAPP: no vPE table entry", c->vpe);
		return;
	}
	if (c->vpt & 0xFFFF || !virq_sim_pa_to_va(s->sim, c->vpt, 1u << 13))
		err_(s, "VMAPP: bad VPT", c->vpt);
	v->mapped = true;
	v->rd = c->rd;
	v->vpt = c->vpt;
	v->defdb = c->defdb;
	if (s->cfg.rm) {
		virq_sim_rdist_vpe_set_target(s->cfg.rm, c->vpe, rd_index_(s, c->rd));
		/* 4.1: the GIC keeps the vPE's entry in every redistributor's copy
		 * of the vPE table: each valid copy must back it (level-2 page
		 * present), and the target redistributor must have one. */
		if ((s->cfg.typer >> 40) & 1) {
			int t = rd_index_(s, c->rd);

			for (unsigned r = 0; r < virq_sim_rdist_count(s->cfg.rm); r++)
				if ((virq_sim_rdist_vpropbaser(s->cfg.rm, r) >> 63 ||
				     (int)r == t) &&
				    !virq_sim_rdist_vpe_entry_ok(s->cfg.rm, r, c->vpe))
					err_(s,
					     "VMAPP: a redistributor's vPE table does not back the "
					     "entry",
					     r);
		}
	}
}

static void do_virt_map_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c, bool vmapi)
{
	struct virq_sim_its_ev *e = ev_(s, c->dev, c->ev);

	if (!e)
		return;
	if (!s->vpes[c->vpe].mapped) {
		err_(s, "VMAPTI: vPE not mapped", c->vpe);
		return;
	}
	if (e->kind != LIBVIRQ_SIM_ITS_EV_NONE) {
		err_(s, "VMAPTI on a mapped event (UNPREDICTABLE)", c->ev);
		return;
	}
	*e = (struct virq_sim_its_ev){.kind = LIBVIRQ_SIM_ITS_EV_VIRT,
				      .vpe = c->vpe,
				      .vintid = vmapi ? c->ev : c->vintid,
				      .db = c->db};
}

static void do_vmovi_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c)
{
	struct virq_sim_its_ev *e = ev_(s, c->dev, c->ev);

	if (!e)
		return;
	if (e->kind != LIBVIRQ_SIM_ITS_EV_VIRT || !s->vpes[c->vpe].mapped) {
		err_(s, "VMOVI: not a vLPI or vPE unmapped", c->ev);
		return;
	}
	e->vpe = c->vpe;
	if (c->dbvalid)
		e->db = c->db;
}

static void do_phys_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c)
{
	struct virq_sim_its_ev *e;

	switch (c->op) {
	case 0x0A: /* MAPTI */
	case 0x0B: /* MAPI */
		e = ev_(s, c->dev, c->ev);
		if (!e)
			return;
		if (!s->col_valid[c->icid & 0xFFFF])
			err_(s, "MAPTI: collection unmapped", c->icid);
		if (e->kind != LIBVIRQ_SIM_ITS_EV_NONE)
			err_(s, "MAPTI on a mapped event", c->ev);
		*e = (struct virq_sim_its_ev){.kind = LIBVIRQ_SIM_ITS_EV_PHYS,
					      .icid = c->icid,
					      .pintid = c->op == 0x0B ? c->ev : c->pintid};
		return;
	case 0x01: /* MOVI: a pending LPI stays pending where it is (the model
		    * does not move pending state; the library CLEARs first) */
		e = ev_(s, c->dev, c->ev);
		if (e && e->kind == LIBVIRQ_SIM_ITS_EV_PHYS)
			e->icid = c->icid;
		else if (e)
			err_(s, "MOVI: not physical", c->ev);
		return;
	case 0x0F: /* DISCARD: the mapping goes, and with it the pending state
		    * of a physical LPI on its collection's RD (IHI 0069H §5.3
		    * DISCARD) */
		e = ev_(s, c->dev, c->ev);
		if (e && e->kind == LIBVIRQ_SIM_ITS_EV_NONE)
			err_(s, "DISCARD: unmapped", c->ev);
		if (e && e->kind == LIBVIRQ_SIM_ITS_EV_PHYS) {
			bump_(s, K_CLR(e->pintid)); /* a clear of a shared LPI too */
			lpi_pend_(s, s->col_rd[e->icid & 0xFFFF], e->pintid, false);
		}
		if (e)
			memset(e, 0, sizeof(*e));
		return;
	case 0x03: /* INT */
	case 0x04: /* CLEAR */
	case 0x0C: /* INV */
		e = ev_(s, c->dev, c->ev);
		if (e && e->kind == LIBVIRQ_SIM_ITS_EV_NONE)
			err_(s, "INT/CLEAR/INV: unmapped", c->ev);
		else if (e && c->op == 0x03)
			do_int_(s, c->dev, c->ev, e);
		else if (e && c->op == 0x04 && e->kind == LIBVIRQ_SIM_ITS_EV_PHYS) {
			bump_(s, K_CLR(e->pintid));
			lpi_pend_(s, s->col_rd[e->icid & 0xFFFF], e->pintid, false);
		}
		return;
	}
}

/* MAPC: the collection's target, checked against the table and LPIs on. */
static void do_mapc_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c)
{
	int rd;

	if (c->valid && c->icid >= ((s->cfg.typer >> 24) & 0xFF) && !table_ok_(s, T_COL, c->icid))
		err_(s, "MAPC: no collection table entry", c->icid);
	rd = rd_index_(s, c->rd);
	if (c->valid && s->cfg.rm &&
	    (rd < 0 || !(virq_sim_rdist_ctlr(s->cfg.rm, (unsigned)rd) & 1)))
		err_(s, "MAPC_LPI_OFF", c->icid);
	s->col_valid[c->icid & 0xFFFF] = c->valid;
	s->col_rd[c->icid & 0xFFFF] = c->rd;
}

/* VMOVP: the vPE's new target redistributor. */
static void do_vmovp_(struct virq_sim_its_state *s, const struct virq_sim_its_cmd *c)
{
	if (!s->vpes[c->vpe].mapped) {
		err_(s, "VMOVP: vPE not mapped", c->vpe);
		return;
	}
	s->vpes[c->vpe].rd = c->rd;
	if (s->cfg.rm)
		virq_sim_rdist_vpe_set_target(s->cfg.rm, c->vpe, rd_index_(s, c->rd));
}

static enum virq_sim_its_verdict hook_(void *arg, struct virq_sim_its *m,
				       const struct virq_sim_its_cmd *c)
{
	struct virq_sim_its_state *s = arg;

	(void)m;
	if (getenv("ITS_STATE_VERBOSE"))
		fprintf(stderr, "its_state: op 0x%02x dev %u ev %u vpe %u valid %d\n", c->op,
			c->dev, c->ev, c->vpe, c->valid);
	switch (c->op) {
	case 0x08:
		do_mapd_(s, c);
		break;
	case 0x09:
		do_mapc_(s, c);
		break;
	case 0x29:
		do_vmapp_(s, c);
		break;
	case 0x2A:
	case 0x2B:
		do_virt_map_(s, c, c->op == 0x2B);
		break;
	case 0x21:
		do_vmovi_(s, c);
		break;
	case 0x22:
		do_vmovp_(s, c);
		break;
	case 0x23: /* VSGI (4.1) */
		if (!s->vpes[c->vpe].mapped)
			err_(s, "VSGI: vPE not mapped", c->vpe);
		else if (s->cfg.rm)
			virq_sim_rdist_vsgi_command(s->cfg.rm, c->vpe, c->vintid, c->prio, c->grp,
						    c->en, c->clr);
		break;
	case 0x25: /* VSYNC: after a 4.0 VMAPP unmap it is required; on 4.1 it
		    * may raise an SError for an unmapped vPE
		    * (docs/rationale.md#gic-vmapp-unmap-no-vsync) */
		if (!s->vpes[c->vpe].mapped && ((s->cfg.typer >> 40) & 1))
			err_(s, "VSYNC to an unmapped vPE on GICv4.1", c->vpe);
		break;
	case 0x2D: /* VINVALL */
	case 0x2E: /* INVDB */
		if (!s->vpes[c->vpe].mapped)
			err_(s, "VINVALL/INVDB: vPE not mapped", c->vpe);
		break;
	default:
		do_phys_(s, c);
		break;
	}
	return LIBVIRQ_SIM_ITS_OK;
}

struct virq_sim_its_state_cfg virq_sim_its_state_default_cfg(uint64_t base)
{
	struct virq_sim_its_state_cfg c = {0};

	c.base = base;
	c.iidr = 0x43B;
	c.pidr2 = 0x4B;
	c.esz = 8;
	return c;
}

struct virq_sim_its_state *virq_sim_its_state_new(struct virq_sim *sim,
						  const struct virq_sim_its_state_cfg *cfg)
{
	struct virq_sim_its_state *s = calloc(1, sizeof(*s));
	struct virq_sim_its_cfg qc = virq_sim_its_default_cfg();

	if (!s)
		abort();
	s->sim = sim;
	s->cfg = *cfg;
	if (cfg->typer)
		qc.typer = cfg->typer;
	s->cfg.typer = qc.typer;
	if (!s->cfg.esz)
		s->cfg.esz = 8;
	qc.cbaser = cfg->cbaser;
	qc.never_quiescent = cfg->never_quiescent;
	s->q = virq_sim_its_new(sim, cfg->base, &qc);
	s->vpes = calloc(MAX_IDS, sizeof(*s->vpes));
	s->col_valid = calloc(MAX_IDS, sizeof(bool));
	s->col_rd = calloc(MAX_IDS, sizeof(uint64_t));
	if (!s->vpes || !s->col_valid || !s->col_rd)
		abort();
	virq_sim_add_region(sim, cfg->base + 0x100, 0x40, baser_rd_, baser_wr_, s);
	virq_sim_add_region(sim, cfg->base + 0x4, 4, iidr_rd_, NULL, s);
	virq_sim_add_region(sim, cfg->base + 0x18, 4, mpidr_rd_, NULL, s);
	if (cfg->vsgi_frame)
		virq_sim_add_region(sim, cfg->base + 0x20000, 0x10000, sgi_rd_, sgi_wr_, s);
	if (cfg->quiescent_polls || cfg->its_number_ro) {
		s->quiesce_left = cfg->quiescent_polls;
		if (cfg->its_number_ro)
			s->ctlr = ((cfg->its_number_ro - 1) & 0xF) << 4;
		virq_sim_add_region(sim, cfg->base, 4, ctlr_rd_, ctlr_wr_, s);
	}
	virq_sim_reg_set32(sim, cfg->base + 0xFFE8, cfg->pidr2 ? cfg->pidr2 : 0x4B);
	virq_sim_its_add_hook(s->q, hook_, s);
	return s;
}

void virq_sim_its_state_free(struct virq_sim_its_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndevs; i++) {
		free(s->devs[i].ev);
		free(s->devs[i].itt_copy);
	}
	free(s->devs);
	free(s->vpes);
	free(s->col_valid);
	free(s->col_rd);
	free(s->cnts);
	virq_sim_its_free(s->q);
	free(s);
}

struct virq_sim_its *virq_sim_its_state_queue(struct virq_sim_its_state *s)
{
	return s->q;
}

struct virq_sim_its_ev virq_sim_its_state_lookup(const struct virq_sim_its_state *s, uint32_t dev,
						 uint32_t ev)
{
	struct virq_sim_its_ev none = {0};

	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i].id == dev && s->devs[i].valid)
			return ev < s->devs[i].nev ? s->devs[i].ev[ev] : none;
	return none;
}

bool virq_sim_its_state_dev_mapped(const struct virq_sim_its_state *s, uint32_t dev)
{
	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i].id == dev && s->devs[i].valid)
			return true;
	return false;
}

bool virq_sim_its_state_vpe(const struct virq_sim_its_state *s, uint32_t vpeid, uint64_t *rdbase,
			    uint64_t *vpt)
{
	const struct vpe_ *v = &s->vpes[vpeid & 0xFFFF];

	if (rdbase)
		*rdbase = v->rd;
	if (vpt)
		*vpt = v->vpt;
	return v->mapped;
}

bool virq_sim_its_state_col(const struct virq_sim_its_state *s, uint32_t icid, uint64_t *rdbase)
{
	if (rdbase)
		*rdbase = s->col_rd[icid & 0xFFFF];
	return s->col_valid[icid & 0xFFFF];
}

unsigned long virq_sim_its_state_errors(const struct virq_sim_its_state *s)
{
	return s->errors;
}
const char *virq_sim_its_state_last_error(const struct virq_sim_its_state *s)
{
	return s->last_err;
}

unsigned long virq_sim_its_state_vdelivered(const struct virq_sim_its_state *s, uint32_t vpeid,
					    uint32_t vintid)
{
	return cnt_(s, K_VDEL(vpeid, vintid));
}

unsigned long virq_sim_its_state_doorbells(const struct virq_sim_its_state *s, uint32_t pintid)
{
	return cnt_(s, K_DB(pintid));
}

unsigned long virq_sim_its_state_plpis(const struct virq_sim_its_state *s, uint32_t pintid)
{
	return cnt_(s, K_PLPI(pintid));
}

unsigned long virq_sim_its_state_translations(const struct virq_sim_its_state *s, uint32_t dev,
					      uint32_t ev)
{
	return dev <= K_EV_DEV_MAX ? cnt_(s, K_EV(dev, ev)) : 0;
}

unsigned long virq_sim_its_state_clears(const struct virq_sim_its_state *s, uint32_t pintid)
{
	return cnt_(s, K_CLR(pintid));
}

uint64_t virq_sim_its_state_baser(const struct virq_sim_its_state *s, unsigned n)
{
	return s->baser[n] | baser_ro_(s, n);
}

unsigned long virq_sim_its_state_sgir_writes(const struct virq_sim_its_state *s)
{
	return s->sgir_writes;
}

bool virq_sim_its_state_msi(struct virq_sim_its_state *s, uint32_t dev, uint32_t ev)
{
	struct dev_ *d = dev_(s, dev);
	struct virq_sim_its_ev *e;

	/* A translation that finds nothing is dropped (no command error). */
	if (!d || ev >= d->nev)
		return false;
	e = &d->ev[ev];
	if (e->kind == LIBVIRQ_SIM_ITS_EV_NONE)
		return false;
	do_int_(s, dev, ev, e);
	return true;
}
