/* SPDX-License-Identifier: MIT */
/*
 * AVIC hardware model for ICR writes (APM Vol 2 §15.29.3.1). Independent of
 * libvirq's code: own constants, own decoding, tables read by PA.
 */
#include <libvirq/sim/avic.h>

#include <string.h>

/* VMCB offsets (APM App. B, Table B-1). */
#define M_VMCB_INT_CTL 0x60
#define M_VMCB_BACKING 0xE0
#define M_VMCB_LOGICAL 0xF0
#define M_VMCB_PHYSICAL 0xF8
#define M_AVIC_ENABLE (1u << 31)
#define M_X2AVIC_ENABLE (1u << 30)
#define M_ADDR_MASK 0x000FFFFFFFFFF000ull

/* Physical table entry. */
#define M_PE_HOST(e, bits) ((uint32_t)((e) & ((1u << (bits)) - 1u)))
#define M_PE_BACKING(e) ((e)&M_ADDR_MASK)
#define M_PE_RUNNING(e) (((e) >> 62) & 1u)
#define M_PE_VALID(e) (((e) >> 63) & 1u)

/* Exit causes. */
enum {
	M_INVALID_INT_TYPE = 0,
	M_NOT_RUNNING = 1,
	M_INVALID_TARGET = 2,
	M_BAD_BACKING = 3,
	M_BAD_VECTOR = 4
};

struct m_ctx {
	struct virq_sim *sim;
	uint64_t *phys;
	uint32_t *logical;
	uint32_t max_index;
	bool x2;
	uint64_t self_backing;
	uint32_t self_host;
	unsigned host_bits; /* host physical APIC ID bits consumed */
	uint8_t vector;
	uint32_t targets[LIBVIRQ_SIM_AVIC_MAX];
	uint32_t ntargets;
	struct virq_sim_avic_result *r;
	uint64_t info1;
};

static uint64_t rd_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void vmexit(struct m_ctx *c, uint32_t cause, uint32_t index)
{
	c->r->exited = true;
	c->r->exit_code = 0x401;
	c->r->info1 = c->info1;
	c->r->info2 = ((uint64_t)cause << 32) | index;
}

static void set_irr(void *page, uint8_t v)
{
	uint32_t *w = (uint32_t *)((uint8_t *)page + 0x200 + (v / 32) * 0x10);

	__atomic_fetch_or(w, 1u << (v % 32), __ATOMIC_SEQ_CST);
}

bool virq_sim_avic_irr_test(const void *page, uint8_t v)
{
	const uint32_t *w = (const uint32_t *)((const uint8_t *)page + 0x200 + (v / 32) * 0x10);

	return (__atomic_load_n(w, __ATOMIC_SEQ_CST) >> (v % 32)) & 1u;
}

void virq_sim_avic_irr_clear(void *page, uint8_t v)
{
	uint32_t *w = (uint32_t *)((uint8_t *)page + 0x200 + (v / 32) * 0x10);

	__atomic_fetch_and(w, ~(1u << (v % 32)), __ATOMIC_SEQ_CST);
}

static void add_target(struct m_ctx *c, uint32_t idx)
{
	for (uint32_t i = 0; i < c->ntargets; i++)
		if (c->targets[i] == idx)
			return;
	c->targets[c->ntargets++] = idx;
}

/*
 * Delivers to the collected physical indexes: first check every target
 * (hardware gives up before delivering when any is invalid), then set IRR
 * bits, doorbell running ones, and exit if one was not running.
 */
static void deliver(struct m_ctx *c, bool skip_invalid)
{
	uint32_t first_nr = UINT32_MAX;
	uint32_t keep = 0;

	for (uint32_t i = 0; i < c->ntargets; i++) {
		uint32_t idx = c->targets[i];
		uint64_t e;

		if (idx > c->max_index) {
			if (skip_invalid)
				continue;
			vmexit(c, M_INVALID_TARGET, idx);
			return;
		}
		e = c->phys[idx];
		if (!M_PE_VALID(e)) {
			if (skip_invalid)
				continue;
			vmexit(c, M_INVALID_TARGET, idx);
			return;
		}
		if (!virq_sim_pa_to_va(c->sim, M_PE_BACKING(e), 4096)) {
			vmexit(c, M_BAD_BACKING, idx);
			return;
		}
		c->targets[keep++] = idx;
	}
	c->ntargets = keep;
	for (uint32_t i = 0; i < c->ntargets; i++) {
		uint32_t idx = c->targets[i];
		uint64_t e = c->phys[idx];

		set_irr(virq_sim_pa_to_va(c->sim, M_PE_BACKING(e), 4096), c->vector);
		c->r->irr[c->r->nirr++] = idx;
		if (M_PE_BACKING(e) == c->self_backing)
			continue; /* the sender's own APIC evaluates at once */
		if (M_PE_RUNNING(e)) {
			if (M_PE_HOST(e, c->host_bits) != c->self_host)
				c->r->doorbell[c->r->ndoorbell++] = M_PE_HOST(e, c->host_bits);
		} else if (first_nr == UINT32_MAX) {
			first_nr = idx;
		}
	}
	if (first_nr != UINT32_MAX)
		vmexit(c, M_NOT_RUNNING, first_nr);
}

static void all_valid(struct m_ctx *c, bool incl_self)
{
	for (uint32_t i = 0; i <= c->max_index; i++) {
		uint64_t e = c->phys[i];

		if (!M_PE_VALID(e))
			continue; /* broadcasts skip invalid entries */
		if (!incl_self && M_PE_BACKING(e) == c->self_backing)
			continue;
		add_target(c, i);
	}
	deliver(c, true);
}

static void logical_xapic(struct m_ctx *c, uint32_t mda, uint32_t dfr)
{
	bool flat = (dfr >> 28) == 0xF;
	uint32_t base = flat ? 0 : (mda >> 4) * 4;
	uint32_t bits = flat ? mda : (mda & 0xF);

	if (!flat && (dfr >> 28) != 0) {
		vmexit(c, M_INVALID_TARGET, 0);
		return;
	}
	for (uint32_t b = 0; b < 8; b++) {
		uint32_t idx = base + b, e;

		if (!(bits & (1u << b)))
			continue;
		e = c->logical[idx];
		if (!(e >> 31)) {
			vmexit(c, M_INVALID_TARGET, idx);
			return;
		}
		add_target(c, e & 0xFF);
	}
	deliver(c, false);
}

/* The model's view of the sender's VMCB (@b) and tables in @c; the sender's
 * backing page, or NULL when AVIC is off or a table is not mapped. */
static uint8_t *icr_ctx_(struct m_ctx *c, struct virq_sim *sim, const uint8_t *b,
			 uint32_t host_apic_id, const struct virq_sim_avic_opts *opts,
			 struct virq_sim_avic_result *r)
{
	uint32_t ctl = (uint32_t)rd_le(b + M_VMCB_INT_CTL, 4);
	uint64_t phys_ptr = rd_le(b + M_VMCB_PHYSICAL, 8);
	uint8_t *self;

	memset(r, 0, sizeof(*r));
	memset(c, 0, sizeof(*c));
	if (!(ctl & M_AVIC_ENABLE))
		return NULL;
	c->sim = sim;
	c->r = r;
	c->x2 = (ctl & M_X2AVIC_ENABLE) != 0;
	c->max_index = (uint32_t)(phys_ptr & 0xFFF);
	c->phys = virq_sim_pa_to_va(sim, phys_ptr & M_ADDR_MASK, (c->max_index + 1) * 8);
	c->logical = virq_sim_pa_to_va(sim, rd_le(b + M_VMCB_LOGICAL, 8) & M_ADDR_MASK, 4096);
	c->self_backing = rd_le(b + M_VMCB_BACKING, 8) & M_ADDR_MASK;
	self = virq_sim_pa_to_va(sim, c->self_backing, 4096);
	if (!c->phys || !c->logical || !self)
		return NULL;
	c->self_host = host_apic_id;
	c->host_bits =
	    opts && opts->host_id_bits && opts->host_id_bits < 12 ? opts->host_id_bits : 12;
	return self;
}

/* Where the ICR now in @self's backing page goes: exits, IRR bits, doorbells. */
static void icr_route_(struct m_ctx *c, uint8_t *self, uint32_t icr_lo, uint32_t icr_hi,
		       const struct virq_sim_avic_opts *opts)
{
	uint32_t dm = (icr_lo >> 8) & 7, sh = (icr_lo >> 18) & 3;
	uint32_t dest = c->x2 ? icr_hi : (icr_hi >> 24);
	bool logical = (icr_lo >> 11) & 1, level = (icr_lo >> 15) & 1;

	c->info1 = ((uint64_t)icr_hi << 32) | icr_lo;
	c->vector = (uint8_t)(icr_lo & 0xFF);
	if (dm != 0 || level)
		vmexit(c, M_INVALID_INT_TYPE, 0);
	else if (opts && opts->check_vector && c->vector < 16)
		vmexit(c, M_BAD_VECTOR, 0);
	else if (sh == 1) /* self: no table lookup */
		set_irr(self, c->vector);
	else if (sh == 2 || sh == 3)
		all_valid(c, sh == 2);
	else if (dest == (c->x2 ? 0xFFFFFFFFu : 0xFFu))
		all_valid(c, true);
	else if (!logical) {
		add_target(c, dest);
		deliver(c, false);
	} else if (c->x2) {
		for (uint32_t bit = 0; bit < 16; bit++)
			if (dest & (1u << bit))
				add_target(c, (dest >> 16) * 16 + bit);
		deliver(c, false);
	} else {
		logical_xapic(c, dest, *(uint32_t *)(self + 0xE0));
	}
}

int virq_sim_avic_icr_write(struct virq_sim *sim, const void *vmcb, uint32_t host_apic_id,
			    uint32_t icr_lo, uint32_t icr_hi, const struct virq_sim_avic_opts *opts,
			    struct virq_sim_avic_result *r)
{
	static struct m_ctx c; /* large; tests are single-threaded around the model */
	uint8_t *self = icr_ctx_(&c, sim, vmcb, host_apic_id, opts, r);

	if (!self)
		return -1;
	/* The write lands in the backing page (ICR2 first for xAPIC). */
	*(uint32_t *)(self + 0x310) = icr_hi;
	*(uint32_t *)(self + 0x300) = icr_lo;
	icr_route_(&c, self, icr_lo, icr_hi, opts);
	return 0;
}

static virq_status db_hook(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t value)
{
	struct virq_sim_avic_doorbells *d = arg;

	(void)sim;
	(void)msr;
	if (value >> 8) {
		d->wide++;
		if (d->mbz_faults) { /* bits 63:8 are MBZ: #GP */
			d->refused++;
			return LIBVIRQ_EHW;
		}
	}
	d->n++;
	d->last = value;
	if (value < 4096)
		d->per_host[value]++;
	return LIBVIRQ_OK;
}

void virq_sim_avic_watch_doorbells(struct virq_sim *sim, struct virq_sim_avic_doorbells *d)
{
	memset(d, 0, sizeof(*d));
	virq_sim_msr_hook(sim, 0xC001011Bu, NULL, db_hook, d);
}

/* ---- guest vAPIC register accesses (APM Vol 2 rev 3.44 Table 15-22), the model's own list ---- */

enum { A_ALLOW, A_TRAP, A_FAULT, A_EOI, A_EXTLVT };

static int read_kind(uint32_t off, bool extlvt)
{
	if (off == 0x90 || off == 0x390 || (off >= 0x400 && off <= 0x4F0) || off >= 0x540)
		return A_FAULT;
	if (off >= 0x500 && off <= 0x530)
		return extlvt ? A_ALLOW : A_FAULT;
	return A_ALLOW;
}

static int write_kind(uint32_t off, bool extlvt)
{
	switch (off) {
	case 0x20:
	case 0xC0:
	case 0xD0:
	case 0xE0:
	case 0xF0:
	case 0x280:
	case 0x3E0:
		return A_TRAP;
	case 0x80:
	case 0x310:
		return A_ALLOW; /* TPR accelerated; ICRH allowed */
	case 0xB0:
		return A_EOI;
	default:
		break;
	}
	if (off >= 0x320 && off <= 0x380)
		return A_TRAP;
	if (off >= 0x500 && off <= 0x530)
		return extlvt ? A_TRAP : A_FAULT;
	if (off == 0x30 || off == 0x90 || off == 0xA0 || (off >= 0x100 && off <= 0x270) ||
	    off == 0x390 || off >= 0x400)
		return A_FAULT;
	return A_ALLOW;
}

/* Highest vector set in the 256-bit array at @base of the page, or -1. */
static int highest(const uint8_t *page, uint32_t base)
{
	for (int w = 7; w >= 0; w--) {
		uint32_t x = *(const uint32_t *)(page + base + (uint32_t)w * 0x10);

		for (int b = 31; x && b >= 0; b--)
			if (x & (1u << b))
				return w * 32 + b;
	}
	return -1;
}

static void noaccel(struct virq_sim_avic_access *r, uint32_t off, bool write, bool trap)
{
	r->exited = true;
	r->trap = trap;
	r->info1 = ((uint64_t)(write ? 1u : 0u) << 32) | (off & 0xFF0u);
}

int virq_sim_avic_apic_access(struct virq_sim *sim, const void *vmcb, uint32_t offset, bool write,
			      uint32_t value, const struct virq_sim_avic_opts *opts,
			      struct virq_sim_avic_access *r)
{
	const uint8_t *b = vmcb;
	bool extlvt = opts && opts->extlvt;
	uint8_t *page;
	int k;

	memset(r, 0, sizeof(*r));
	if ((offset & 0xF) || offset > 0xFF0 || (write && offset == 0x300) ||
	    !((uint32_t)rd_le(b + M_VMCB_INT_CTL, 4) & M_AVIC_ENABLE))
		return -1;
	page = virq_sim_pa_to_va(sim, rd_le(b + M_VMCB_BACKING, 8) & M_ADDR_MASK, 4096);
	if (!page)
		return -1;
	k = write ? write_kind(offset, extlvt) : read_kind(offset, extlvt);
	if (k == A_FAULT) {
		noaccel(r, offset, write, false);
		return 0;
	}
	if (!write) {
		r->value = *(uint32_t *)(page + offset);
		return 0;
	}
	if (k == A_EOI) {
		int v = highest(page, 0x100);

		if (v >= 0 &&
		    (*(uint32_t *)(page + 0x180 + (uint32_t)(v / 32) * 0x10) >> (v % 32)) & 1u) {
			noaccel(r, offset, true, true);
			r->info2 = (uint64_t)v;
		} else if (v >= 0) {
			*(uint32_t *)(page + 0x100 + (uint32_t)(v / 32) * 0x10) &=
			    ~(1u << (v % 32));
			r->eoi_done = true;
			r->eoi_vec = (uint8_t)v;
		}
		return 0;
	}
	*(uint32_t *)(page + offset) = value;
	if (k == A_TRAP)
		noaccel(r, offset, true, true);
	return 0;
}
