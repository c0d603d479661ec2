/* SPDX-License-Identifier: MIT */
/* Distributor + redistributor model; see libvirq/sim/rdist.h. */
#include <libvirq/sim/rdist.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latitude_priv.h"

/* Offsets (own constants, from IHI 0069H chapter 12). */
#define D_CTLR 0x0000
#define D_TYPER 0x0004
#define D_TYPER2 0x000C
#define D_PIDR2 0xFFE8
#define R_CTLR 0x0000
#define R_TYPER 0x0008
#define R_WAKER 0x0014
#define R_SETLPIR 0x0040
#define R_CLRLPIR 0x0048
#define R_PROPBASER 0x0070
#define R_PENDBASER 0x0078
#define R_INVLPIR 0x00A0
#define R_INVALLR 0x00B0
#define R_SYNCR 0x00C0
#define R_PIDR2 0xFFE8
#define R_VPROPBASER 0x20070
#define R_VPENDBASER 0x20078
#define R_VSGIR 0x20080
#define R_VSGIPENDR 0x20088
#define NVPE 65536u

struct rd_ {
	uint64_t base;
	uint32_t aff;
	uint32_t ctlr;
	unsigned rwp_left;
	bool sleep, asleep, lpis_sticky;
	unsigned wake_polls, wake_left;
	uint64_t prop, pend, vprop, vpend;
	unsigned dirty_polls, dirty_left;
	bool pending41;
	unsigned syncr_left;
	unsigned long invlpis;
	uint64_t last_invlpir, last_invallr;
	uint8_t *lpi_pend; /* one bit per INTID below 2^(IDbits + 1) */
	unsigned long setlpirs, clrlpirs;
	uint32_t vsgi_vpe;  /* vPEID of the running GICR_VSGIR query */
	unsigned vsgi_left; /* Busy reads left */
	bool vsgi_query;
	unsigned long vsgi_queries;
};

struct virq_sim_rdist {
	struct virq_sim *sim;
	struct virq_sim_rdist_cfg cfg;
	uint32_t gicd_ctlr;
	unsigned gicd_rwp_left;
	struct rd_ *rd;
	uint32_t nr_intids;
	unsigned long direct_misuse;
	/* GICv4.1 vSGI state per vPEID */
	int32_t *vpe_rd;     /* target redistributor, -1 none */
	uint16_t *vsgi_pend; /* pending bits */
	uint8_t
	    *vsgi_cfg; /* [vpe * 16 + intid]: bit7 set, bit6 enable, bit5 group1, [3:0] prio[7:4] */
	unsigned long wrong_rd;
	unsigned long errors;
	char last_err[96];
};

static void lpi_pend_(struct virq_sim_rdist *m, struct rd_ *r, uint64_t intid, bool on)
{
	if (intid < 8192 || intid >= m->nr_intids)
		return;
	if (on)
		r->lpi_pend[intid / 8] = (uint8_t)(r->lpi_pend[intid / 8] | (1u << (intid % 8)));
	else
		r->lpi_pend[intid / 8] = (uint8_t)(r->lpi_pend[intid / 8] & ~(1u << (intid % 8)));
}

struct virq_sim_rdist_cfg virq_sim_rdist_default_cfg(void)
{
	struct virq_sim_rdist_cfg c = {0};

	c.gicd_base = 0x08000000;
	c.rd_base = 0x080A0000;
	c.nr = 1;
	c.version = 40;
	c.idbits = 15;
	c.common_lpi_aff = 1;
	return c;
}

/* ---- GICD ---- */
static uint64_t gicd_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_rdist *m = arg;
	uint64_t off = addr - m->cfg.gicd_base;

	(void)width;
	switch (off) {
	case D_CTLR:
		if (m->gicd_rwp_left) {
			m->gicd_rwp_left--;
			return m->gicd_ctlr | 0x80000000u;
		}
		return m->gicd_ctlr;
	case D_TYPER:
		/* LPIS (17), DVIS (18) on v4, IDbits [23:19], ITLines 7 */
		return (1u << 17) | (m->cfg.version >= 40 ? 1u << 18 : 0) |
		       ((m->cfg.idbits & 0x1F) << 19) | ((m->cfg.num_lpis & 0x1F) << 11) | 7u;
	case D_TYPER2:
		if (m->cfg.version != 41)
			return 0;
		return m->cfg.typer2 ? m->cfg.typer2 : (1u << 7) | 15u; /* VIL, VID = 15 */
	case D_PIDR2:
		return m->cfg.version >= 40 ? 0x4B : 0x3B;
	default:
		return virq_sim_reg_get32(sim, addr);
	}
}

static void gicd_wr_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct virq_sim_rdist *m = arg;

	(void)width;
	if (addr - m->cfg.gicd_base == D_CTLR) {
		m->gicd_ctlr = (uint32_t)v & 0x7FFFFFFFu;
		m->gicd_rwp_left = m->cfg.gicd_rwp_polls;
		return;
	}
	virq_sim_reg_set32(sim, addr, (uint32_t)v);
}

/* ---- RD ---- */
static struct rd_ *rd_of_(struct virq_sim_rdist *m, uint64_t addr, uint64_t *off, unsigned *idx)
{
	uint64_t stride = m->cfg.stride;

	*idx = (unsigned)((addr - m->cfg.rd_base) / stride);
	*off = (addr - m->cfg.rd_base) % stride;
	return &m->rd[*idx];
}

static uint64_t typer_(const struct virq_sim_rdist *m, unsigned i)
{
	const struct rd_ *r = &m->rd[i];
	uint64_t t = 1; /* PLPIS */

	if (m->cfg.version >= 40)
		t |= 1u << 1; /* VLPIS */
	if (m->cfg.dirty)
		t |= 1u << 2;
	if (m->cfg.direct_lpi)
		t |= 1u << 3;
	if (i == m->cfg.nr - 1)
		t |= 1u << 4; /* Last */
	if (m->cfg.version == 41)
		t |= 1u << 7; /* RVPEID */
	t |= (uint64_t)(i & 0xFFFF) << 8;
	t |= (uint64_t)(m->cfg.common_lpi_aff & 3) << 24; /* CommonLPIAff */
	return t | ((uint64_t)r->aff << 32);
}

/* Every GICR_*BASER modelled: OuterCache [58:56], Shareability [11:10], InnerCache [9:7]. */
static const struct lat_pos_ rd_pos_ = {10, 7, 56};

/* What a GICR_*BASER keeps of @v: its attributes, and its address field
 * [51:@lo] with the bits beyond the implemented address size cleared. */
static uint64_t attr_(const struct virq_sim_attrs *a, uint64_t v, unsigned lo)
{
	uint64_t pam = ((1ull << 52) - 1) & ~((1ull << lo) - 1);

	v = lat_attrs_(a, rd_pos_, v);
	return (v & ~pam) | lat_pa_(a, v & pam);
}

static void rd_err_(struct virq_sim_rdist *m, const char *what, uint64_t v)
{
	m->errors++;
	snprintf(m->last_err, sizeof(m->last_err), "%s 0x%llx", what, (unsigned long long)v);
}

static uint64_t reg64_(struct rd_ *r, uint64_t off)
{
	switch (off & ~7ull) {
	case R_PROPBASER:
		return r->prop;
	case R_PENDBASER:
		return r->pend;
	case R_VPROPBASER:
		return r->vprop;
	case R_VPENDBASER: {
		uint64_t v = r->vpend;

		if (r->dirty_left) {
			if (r->dirty_left != LIBVIRQ_SIM_RDIST_NEVER)
				r->dirty_left--;
			v |= 1ull << 60;
		}
		return v;
	}
	case R_INVLPIR:
		return r->last_invlpir;
	case R_INVALLR:
		return r->last_invallr;
	}
	return 0;
}

/* GICR_VSGIPENDR: Busy while the query runs, then the queried vPE's pending
 * bits if this RD is its target (IHI 0069H §12.11 GICR_VSGIPENDR). */
static uint64_t vsgipendr_(struct virq_sim_rdist *m, struct rd_ *r, unsigned i)
{
	uint32_t vpe;

	if (!r->vsgi_query)
		return 0;
	if (r->vsgi_left) {
		if (r->vsgi_left != LIBVIRQ_SIM_RDIST_NEVER)
			r->vsgi_left--;
		return 1u << 31;
	}
	vpe = r->vsgi_vpe;
	if (!m->vpe_rd || m->vpe_rd[vpe] != (int32_t)i) {
		m->wrong_rd++;
		return 0;
	}
	return m->vsgi_pend[vpe];
}

/* 4.1 GICR_VPROPBASER write: Entry_Size [61:59] is read-only, Indirect
 * [55] RAZ/WI on a flat-only GIC, Page_Size [54:53] keeps only a supported
 * size, attributes and address as the latitude says. */
static uint64_t vprop41_(const struct virq_sim_rdist *m, uint64_t v)
{
	const struct virq_sim_table_lat *t = &m->cfg.vprop;
	uint32_t psz = lat_psz_(t, (uint32_t)((v >> 53) & 3));

	v = (v & ~(3ull << 53)) | ((uint64_t)psz << 53);
	v = (v & ~(7ull << 59)) | ((uint64_t)(m->cfg.vpet_esz & 7) << 59);
	if (t->flat_only)
		v &= ~(1ull << 55);
	return attr_(&t->attrs, v, 12);
}

/* Z = 1 says the table is zero (IHI 0069H §12.11 GICR_VPROPBASER, 4.1
 * layout): the flat table, or the level-1 table of a two-level one. */
static void vprop41_z_check_(struct virq_sim_rdist *m, uint64_t v)
{
	uint32_t code = (uint32_t)((v >> 53) & 3);
	size_t psz = code == 0 ? 4096 : code == 1 ? 16384 : 65536;
	size_t len = (size_t)((v & 0x7F) + 1) * psz;
	const uint8_t *p;

	if (!(v >> 63) || !((v >> 52) & 1))
		return;
	p = virq_sim_pa_to_va(m->sim, v & 0x000FFFFFFFFFF000ull, len);
	for (size_t i = 0; p && i < len; i++)
		if (p[i]) {
			rd_err_(m, "GICR_VPROPBASER: Z = 1 over a table that is not zero", v);
			return;
		}
}

static uint64_t rd_read_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct virq_sim_rdist *m = arg;
	uint64_t off, v;
	unsigned i;
	struct rd_ *r = rd_of_(m, addr, &off, &i);

	switch (off) {
	case R_CTLR:
		v = r->ctlr;
		if (r->rwp_left) {
			r->rwp_left--;
			v |= 1u << 3;
		}
		if (m->cfg.uwp)
			v |= 1u << 31;
		return v;
	case R_TYPER:
		return width == 64 ? typer_(m, i) : (uint32_t)typer_(m, i);
	case R_TYPER + 4:
		return typer_(m, i) >> 32;
	case R_WAKER:
		if (r->asleep && !r->sleep && r->wake_left != LIBVIRQ_SIM_RDIST_NEVER) {
			if (r->wake_left)
				r->wake_left--;
			else
				r->asleep = false;
		}
		return (r->sleep ? 2u : 0) | (r->asleep ? 4u : 0);
	case R_SYNCR:
		if (r->syncr_left) {
			if (r->syncr_left != LIBVIRQ_SIM_RDIST_NEVER)
				r->syncr_left--;
			return 1;
		}
		return 0;
	case R_PIDR2:
		return m->cfg.version >= 40 ? 0x4B : 0x3B;
	case R_VSGIPENDR:
		return vsgipendr_(m, r, i);
	case R_VSGIR:
		return r->vsgi_vpe;
	}
	if (off >= R_PROPBASER && off < R_SYNCR) {
		v = reg64_(r, off);
		return width == 64 ? v : ((off & 4) ? v >> 32 : (uint32_t)v);
	}
	if (off >= R_VPROPBASER && off < R_VPENDBASER + 8) {
		v = reg64_(r, off);
		return width == 64 ? v : ((off & 4) ? v >> 32 : (uint32_t)v);
	}
	return virq_sim_reg_get32(sim, addr);
}

/* PendingLast at Valid 1 -> 0: any bit set in the VPT above the first 1 KiB. */
static bool vpt_pending_(struct virq_sim_rdist *m, struct rd_ *r)
{
	if (m->cfg.version == 41)
		return r->pending41;
	uint64_t pa = r->vpend & 0x000FFFFFFFFF0000ull;
	const uint8_t *vpt = virq_sim_pa_to_va(m->sim, pa, 8192);

	if (!vpt)
		return false;
	for (size_t b = 1024; b < 8192; b++)
		if (vpt[b])
			return true;
	return false;
}

static void vpend_write_(struct virq_sim_rdist *m, struct rd_ *r, uint64_t v)
{
	bool was = r->vpend >> 63, now = v >> 63;

	v &= ~(1ull << 60);	  /* Dirty is read-only */
	if (m->cfg.version != 41) /* 4.0 layout: OuterCache, PA [51:16], Shareability, InnerCache */
		v = attr_(&m->cfg.vpend, v, 16);
	if (!was && now)
		v |= 1ull << 61; /* QEMU: Valid 0->1 forces PendingLast */
	if (was && !now) {
		v &= ~(1ull << 61);
		if (vpt_pending_(m, r))
			v |= 1ull << 61;
	}
	if (was != now)
		r->dirty_left = r->dirty_polls;
	r->vpend = v;
}

/* GICR_VPROPBASER in the layout of the GIC's version, as its latitude keeps it. */
static void vprop_write_(struct virq_sim_rdist *m, struct rd_ *r, uint64_t v)
{
	if (m->cfg.version == 41) {
		r->vprop = vprop41_(m, v);
		vprop41_z_check_(m, r->vprop);
	} else {
		r->vprop = attr_(&m->cfg.vprop.attrs, v, 12);
	}
}

static void rd_write_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct virq_sim_rdist *m = arg;
	uint64_t off;
	unsigned i;
	struct rd_ *r = rd_of_(m, addr, &off, &i);

	(void)width;
	switch (off) {
	case R_CTLR:
		if (r->lpis_sticky && (r->ctlr & 1))
			v |= 1;
		r->ctlr = (uint32_t)v & 1u;
		r->rwp_left = m->cfg.rwp_polls;
		return;
	case R_WAKER:
		r->sleep = (v >> 1) & 1;
		if (r->sleep)
			r->asleep = true;
		else if (r->asleep)
			r->wake_left = r->wake_polls;
		return;
	case R_PROPBASER:
		r->prop = attr_(&m->cfg.prop, v, 12);
		return;
	case R_PENDBASER:
		r->pend = attr_(&m->cfg.pend, v, 16) & ~(1ull << 62); /* PTZ is write-only */
		return;
	case R_VPROPBASER:
		vprop_write_(m, r, v);
		return;
	case R_VSGIR:
		r->vsgi_vpe = (uint32_t)v & 0xFFFF;
		r->vsgi_query = true;
		r->vsgi_left = m->cfg.vsgi_busy_polls;
		r->vsgi_queries++;
		return;
	case R_VPENDBASER:
		vpend_write_(m, r, v);
		return;
	case R_INVLPIR:
		r->last_invlpir = v;
		r->invlpis++;
		r->syncr_left = m->cfg.syncr_polls;
		return;
	case R_INVALLR:
		r->last_invallr = v;
		r->syncr_left = m->cfg.syncr_polls;
		return;
	case R_SETLPIR:
	case R_CLRLPIR:
		/* GICR_SETLPIR / GICR_CLRLPIR: pINTID in [31:0] (IHI 0069H §12.11). */
		if (!m->cfg.direct_lpi) {
			m->direct_misuse++;
			return;
		}
		lpi_pend_(m, r, v & 0xFFFFFFFFu, off == R_SETLPIR);
		if (off == R_SETLPIR)
			r->setlpirs++;
		else
			r->clrlpirs++;
		r->syncr_left = m->cfg.syncr_polls;
		return;
	}
	virq_sim_reg_set32(sim, addr, (uint32_t)v);
	if (width == 64)
		virq_sim_reg_set32(sim, addr + 4, (uint32_t)(v >> 32));
}

struct virq_sim_rdist *virq_sim_rdist_new(struct virq_sim *sim,
					  const struct virq_sim_rdist_cfg *cfg)
{
	struct virq_sim_rdist *m = calloc(1, sizeof(*m));

	if (!m)
		abort();
	m->sim = sim;
	m->cfg = *cfg;
	if (!m->cfg.stride)
		m->cfg.stride = m->cfg.version >= 40 ? 0x40000 : 0x20000;
	m->rd = calloc(m->cfg.nr, sizeof(*m->rd));
	if (!m->rd)
		abort();
	m->nr_intids = 1u << ((m->cfg.idbits & 0x1F) + 1 > 24 ? 24 : (m->cfg.idbits & 0x1F) + 1);
	for (unsigned i = 0; i < m->cfg.nr; i++) {
		struct rd_ *r = &m->rd[i];

		r->lpi_pend = calloc(m->nr_intids / 8, 1);
		if (!r->lpi_pend)
			abort();
		r->base = m->cfg.rd_base + (uint64_t)i * m->cfg.stride;
		r->aff = i; /* Aff0 = i */
		r->sleep = r->asleep = true;
		r->wake_polls = cfg->wake_polls;
		r->dirty_polls = cfg->dirty_polls;
	}
	if (m->cfg.version == 41) {
		m->vpe_rd = malloc(NVPE * sizeof(*m->vpe_rd));
		m->vsgi_pend = calloc(NVPE, sizeof(*m->vsgi_pend));
		m->vsgi_cfg = calloc((size_t)NVPE * 16, 1);
		if (!m->vpe_rd || !m->vsgi_pend || !m->vsgi_cfg)
			abort();
		for (unsigned v = 0; v < NVPE; v++)
			m->vpe_rd[v] = -1;
	}
	virq_sim_add_region(sim, m->cfg.gicd_base, 0x10000, gicd_rd_, gicd_wr_, m);
	virq_sim_add_region(sim, m->cfg.rd_base, (uint64_t)m->cfg.nr * m->cfg.stride, rd_read_,
			    rd_write_, m);
	return m;
}

void virq_sim_rdist_free(struct virq_sim_rdist *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->cfg.nr; i++)
		free(m->rd[i].lpi_pend);
	free(m->rd);
	free(m->vpe_rd);
	free(m->vsgi_pend);
	free(m->vsgi_cfg);
	free(m);
}

void virq_sim_rdist_set_typer_aff(struct virq_sim_rdist *m, unsigned rd, uint32_t aff)
{
	m->rd[rd].aff = aff;
}

void virq_sim_rdist_enable_lpis_sticky(struct virq_sim_rdist *m, unsigned rd, bool sticky)
{
	m->rd[rd].lpis_sticky = sticky;
}

void virq_sim_rdist_set_dirty_polls(struct virq_sim_rdist *m, unsigned rd, unsigned polls)
{
	m->rd[rd].dirty_polls = polls;
}

void virq_sim_rdist_set_wake_polls(struct virq_sim_rdist *m, unsigned rd, unsigned polls)
{
	m->rd[rd].wake_polls = polls;
	m->rd[rd].wake_left = polls;
}

void virq_sim_rdist_set_pending(struct virq_sim_rdist *m, unsigned rd, bool pending)
{
	m->rd[rd].pending41 = pending;
}

void virq_sim_rdist_set_latitude(struct virq_sim_rdist *m, const struct virq_sim_rdist_cfg *cfg)
{
	m->cfg.prop = cfg->prop;
	m->cfg.pend = cfg->pend;
	m->cfg.vpend = cfg->vpend;
	m->cfg.vprop = cfg->vprop;
}

void virq_sim_rdist_preset(struct virq_sim_rdist *m, unsigned rd, uint64_t ctlr, uint64_t vprop,
			   uint64_t vpend)
{
	m->rd[rd].ctlr = (uint32_t)ctlr;
	m->rd[rd].vprop = vprop;
	m->rd[rd].vpend = vpend;
}

uint64_t virq_sim_rdist_base(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].base;
}

uint32_t virq_sim_rdist_ctlr(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].ctlr;
}

uint64_t virq_sim_rdist_propbaser(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].prop;
}

uint64_t virq_sim_rdist_pendbaser(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].pend;
}

uint64_t virq_sim_rdist_vpropbaser(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].vprop;
}

uint64_t virq_sim_rdist_vpendbaser(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].vpend;
}

bool virq_sim_rdist_awake(const struct virq_sim_rdist *m, unsigned rd)
{
	return !m->rd[rd].sleep && !m->rd[rd].asleep;
}

unsigned long virq_sim_rdist_invlpi_count(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].invlpis;
}

uint64_t virq_sim_rdist_last_invlpir(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].last_invlpir;
}

uint64_t virq_sim_rdist_last_invallr(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].last_invallr;
}

uint32_t virq_sim_rdist_gicd_ctlr(const struct virq_sim_rdist *m)
{
	return m->gicd_ctlr;
}

bool virq_sim_rdist_resident(const struct virq_sim_rdist *m, unsigned rd, uint64_t vpt_pa,
			     uint32_t vpeid)
{
	uint64_t v = m->rd[rd].vpend;

	if (!(v >> 63))
		return false;
	if (m->cfg.version == 41)
		return (v & 0xFFFF) == vpeid;
	return (v & 0x000FFFFFFFFF0000ull) == vpt_pa;
}

void virq_sim_rdist_lpi_set_pending(struct virq_sim_rdist *m, unsigned rd, uint32_t intid,
				    bool pending)
{
	if (rd < m->cfg.nr)
		lpi_pend_(m, &m->rd[rd], intid, pending);
}

bool virq_sim_rdist_lpi_pending(const struct virq_sim_rdist *m, unsigned rd, uint32_t intid)
{
	if (rd >= m->cfg.nr || intid < 8192 || intid >= m->nr_intids)
		return false;
	return (m->rd[rd].lpi_pend[intid / 8] >> (intid % 8)) & 1u;
}

unsigned long virq_sim_rdist_setlpir_count(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].setlpirs;
}

unsigned long virq_sim_rdist_clrlpir_count(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].clrlpirs;
}

unsigned long virq_sim_rdist_direct_lpi_misuse(const struct virq_sim_rdist *m)
{
	return m->direct_misuse;
}

/* ---- GICv4.1 vSGIs ---- */
void virq_sim_rdist_vpe_set_target(struct virq_sim_rdist *m, uint32_t vpeid, int rd)
{
	if (m->vpe_rd)
		m->vpe_rd[vpeid & 0xFFFF] = rd;
}

int virq_sim_rdist_vpe_target(const struct virq_sim_rdist *m, uint32_t vpeid)
{
	return m->vpe_rd ? m->vpe_rd[vpeid & 0xFFFF] : -1;
}

void virq_sim_rdist_vsgi_set_pending(struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid)
{
	if (m->vsgi_pend)
		m->vsgi_pend[vpeid & 0xFFFF] =
		    (uint16_t)(m->vsgi_pend[vpeid & 0xFFFF] | (1u << (vintid & 15)));
}

void virq_sim_rdist_vsgi_command(struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid,
				 uint32_t prio, bool group1, bool enable, bool clear)
{
	uint32_t v = vpeid & 0xFFFF, i = vintid & 15;

	if (!m->vsgi_cfg)
		return;
	if (clear) { /* Clear = 1: pending cleared, configuration unchanged */
		m->vsgi_pend[v] = (uint16_t)(m->vsgi_pend[v] & ~(1u << i));
		return;
	}
	m->vsgi_cfg[v * 16 + i] =
	    (uint8_t)(0x80 | (enable ? 0x40 : 0) | (group1 ? 0x20 : 0) | ((prio >> 4) & 0xF));
}

uint16_t virq_sim_rdist_vsgi_pending(const struct virq_sim_rdist *m, uint32_t vpeid)
{
	return m->vsgi_pend ? m->vsgi_pend[vpeid & 0xFFFF] : 0;
}

bool virq_sim_rdist_vsgi_config(const struct virq_sim_rdist *m, uint32_t vpeid, uint32_t vintid,
				uint32_t *prio, bool *group1, bool *enable)
{
	uint8_t c;

	if (!m->vsgi_cfg)
		return false;
	c = m->vsgi_cfg[(vpeid & 0xFFFF) * 16 + (vintid & 15)];
	if (prio)
		*prio = (uint32_t)(c & 0xF) << 4;
	if (group1)
		*group1 = (c & 0x20) != 0;
	if (enable)
		*enable = (c & 0x40) != 0;
	return (c & 0x80) != 0;
}

unsigned long virq_sim_rdist_vsgi_queries(const struct virq_sim_rdist *m, unsigned rd)
{
	return m->rd[rd].vsgi_queries;
}

unsigned long virq_sim_rdist_vsgi_wrong_rd(const struct virq_sim_rdist *m)
{
	return m->wrong_rd;
}

void virq_sim_rdist_set_vsgi_busy_polls(struct virq_sim_rdist *m, unsigned polls)
{
	m->cfg.vsgi_busy_polls = polls;
}

/* ---- GICv4.1 vPE tables (4.1 GICR_VPROPBASER layout, own decoding) ---- */
bool virq_sim_rdist_vpe_entry_ok(const struct virq_sim_rdist *m, unsigned rd, uint32_t vpeid)
{
	uint64_t v = m->rd[rd].vprop;
	uint32_t code = (uint32_t)((v >> 53) & 3);
	uint64_t psz = code == 0 ? 4096 : code == 1 ? 16384 : 65536;
	uint64_t esz = (((v >> 59) & 7) + 1) * 8, pages = (v & 0x7F) + 1;
	uint64_t pa = v & 0x000FFFFFFFFFF000ull, per = psz / esz;
	const uint64_t *l1;

	if (!(v >> 63))
		return false;
	if (!((v >> 55) & 1))
		return vpeid < pages * per && virq_sim_pa_to_va(m->sim, pa, (size_t)(pages * psz));
	if (vpeid / per >= pages * psz / 8)
		return false;
	l1 = virq_sim_pa_to_va(m->sim, pa + (vpeid / per) * 8, 8);
	return l1 && (*l1 >> 63) &&
	       virq_sim_pa_to_va(m->sim, *l1 & 0x000FFFFFFFFFF000ull, (size_t)psz);
}

uint64_t virq_sim_rdist_group_key(const struct virq_sim_rdist *m, unsigned rd)
{
	uint32_t cla = (uint32_t)m->cfg.common_lpi_aff & 3;
	uint32_t mask = cla ? ~(0xFFFFFFFFu >> (8 * cla)) : 0;

	return ((uint64_t)cla << 32) | (m->rd[rd].aff & mask);
}

unsigned virq_sim_rdist_vpe_tables_inconsistent(const struct virq_sim_rdist *m)
{
	unsigned bad = 0;
	const uint64_t keep = (1ull << 63) | 0x000FFFFFFFFFF000ull;

	for (unsigned i = 0; i < m->cfg.nr; i++)
		for (unsigned j = i + 1; j < m->cfg.nr; j++)
			if (virq_sim_rdist_group_key(m, i) == virq_sim_rdist_group_key(m, j) &&
			    (m->rd[i].vprop & keep) != (m->rd[j].vprop & keep))
				bad++;
	return bad;
}

unsigned virq_sim_rdist_count(const struct virq_sim_rdist *m)
{
	return m->cfg.nr;
}

unsigned long virq_sim_rdist_errors(const struct virq_sim_rdist *m)
{
	return m->errors;
}

const char *virq_sim_rdist_last_error(const struct virq_sim_rdist *m)
{
	return m->last_err;
}
