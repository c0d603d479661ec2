/* SPDX-License-Identifier: MIT */
/*
 * GIC discovery from a flattened device tree (optional archive virq_fdt).
 *
 * Trust model: the blob is hostile until proven otherwise
 * (docs/rationale.md#fdt-hostile-blobs). struct_walk_() and then
 * fdt_check_full() validate the structure block (every tag, property length
 * and name offset inside the blob) before any lookup;
 * after that every property this file reads has its length checked before
 * a cell is loaded, every cell count is range-checked before it is used to
 * divide or multiply, and every walk is bounded (libfdt's offset-advancing
 * iterators, plus an explicit depth bound for the ranges walk).
 *
 * Cells are loaded byte by byte (big-endian), so the blob needs no alignment
 * beyond what libfdt itself requires.
 */
/*
 * libfdt's own porting header already supplies every type and the mem*
 * prototypes libvirq's virq_env.h would declare; use it as the env header
 * (the documented porting point) so nothing is declared twice.
 */
#include <libfdt.h>
#ifndef LIBVIRQ_ENV_HEADER
#define LIBVIRQ_ENV_HEADER <libfdt_env.h>
#endif
#include <libvirq/fdt.h>

/* A bus: the #address-cells / #size-cells its children's reg entries use. */
struct bus_cells_ {
	uint32_t ac; /* 1 or 2 */
	uint32_t sc; /* 1 or 2 */
};

/* DT spec: ranges nesting is bounded by the tree depth; anything deeper is hostile. */
#define LIBVIRQ_FDT_MAX_DEPTH_ 64

/* Fixed reasons (never formatted: the library does not print). */
static const char *const ok_reason_ = "ok";

static virq_status bad_(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return LIBVIRQ_EBADDT;
}

static uint64_t load_cells_(const uint8_t *p, uint32_t ncells)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < ncells * 4u; i++)
		v = (v << 8) | p[i];
	return v;
}

/* Reads a one-cell property that must be exactly 4 bytes. 1: found, 0: absent, <0: bad. */
static int get_u32_(const void *fdt, int node, const char *name, uint32_t *out)
{
	int len = 0;
	const uint8_t *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return len == -FDT_ERR_NOTFOUND ? 0 : -1;
	if (len != 4)
		return -1;
	*out = (uint32_t)load_cells_(p, 1);
	return 1;
}

/* Reads a bus node's #address-cells / #size-cells (DT spec defaults 2 and 1). */
static virq_status bus_cells_(const void *fdt, int bus, struct bus_cells_ *c, const char **why)
{
	uint32_t v = 0;
	int r;

	c->ac = 2;
	c->sc = 1;
	r = get_u32_(fdt, bus, "#address-cells", &v);
	if (r < 0)
		return bad_(why, "#address-cells is not a single cell");
	if (r > 0) {
		if (v < 1 || v > 2)
			return bad_(why, "#address-cells is not 1 or 2");
		c->ac = v;
	}
	r = get_u32_(fdt, bus, "#size-cells", &v);
	if (r < 0)
		return bad_(why, "#size-cells is not a single cell");
	if (r > 0) {
		if (v == 0)
			return bad_(why, "#size-cells is 0 where regions need a size");
		if (v > 2)
			return bad_(why, "#size-cells is not 1 or 2");
		c->sc = v;
	}
	return LIBVIRQ_OK;
}

/* Region sanity: non-zero size, no wrap past the top of the 64-bit space. */
static virq_status region_ok_(uint64_t base, uint64_t size, const char **why)
{
	if (size == 0)
		return bad_(why, "a GIC region has size 0");
	if (base + (size - 1) < base)
		return bad_(why, "a GIC region wraps past the end of the address space");
	return LIBVIRQ_OK;
}

/* Searches one bus's non-empty ranges for [addr, addr + size). */
static virq_status ranges_lookup_(const uint8_t *rg, int len, struct bus_cells_ child,
				  uint32_t parent_ac, uint64_t *addr, uint64_t size,
				  const char **why)
{
	uint32_t entry = (child.ac + parent_ac + child.sc) * 4u;

	if ((uint32_t)len % entry != 0)
		return bad_(why, "ranges length is not a whole number of entries");
	for (uint32_t off = 0; off < (uint32_t)len; off += entry) {
		uint64_t cba = load_cells_(rg + off, child.ac);
		uint64_t pba = load_cells_(rg + off + child.ac * 4u, parent_ac);
		uint64_t rsz = load_cells_(rg + off + (child.ac + parent_ac) * 4u, child.sc);
		uint64_t delta;

		if (*addr < cba || *addr - cba >= rsz)
			continue;
		delta = *addr - cba;
		if (size > rsz - delta)
			return bad_(why, "a GIC region straddles the end of a ranges entry");
		if (pba + delta < pba)
			return bad_(why, "ranges translation overflows 64 bits");
		*addr = pba + delta;
		return LIBVIRQ_OK;
	}
	return bad_(why, "a GIC region lies outside its parent bus ranges");
}

/*
 * Translates an address expressed on bus @p bus (the parent of the node
 * whose reg it came from) into a root (CPU) address, walking up through
 * each ancestor's ranges. An absent ranges on a non-root bus means the
 * bus is not memory-mapped: an error, as in Linux's of_translate_address.
 */
static virq_status translate_(const void *fdt, int bus, uint64_t *addr, uint64_t size,
			      const char **why)
{
	for (int depth = 0; depth < LIBVIRQ_FDT_MAX_DEPTH_; depth++) {
		struct bus_cells_ child, parent;
		const uint8_t *rg;
		int len = 0, pbus;

		if (bus == 0)
			return LIBVIRQ_OK;
		pbus = fdt_parent_offset(fdt, bus);
		if (pbus < 0)
			return bad_(why, "cannot find the parent of a bus node");
		rg = fdt_getprop(fdt, bus, "ranges", &len);
		if (!rg)
			return bad_(why, "a bus above the GIC has no ranges (not memory-mapped)");
		if (len > 0) {
			virq_status st = bus_cells_(fdt, bus, &child, why);

			if (st == LIBVIRQ_OK)
				st = bus_cells_(fdt, pbus, &parent, why);
			if (st == LIBVIRQ_OK)
				st = ranges_lookup_(rg, len, child, parent.ac, addr, size, why);
			if (st != LIBVIRQ_OK)
				return st;
		}
		bus = pbus;
	}
	return bad_(why, "bus nesting deeper than 64 levels");
}

/* Reads entry @p idx of @p node's reg (cells from @p c, bus @p bus) and translates it. */
static virq_status reg_entry_(const void *fdt, int node, int bus, struct bus_cells_ c,
			      uint32_t idx, uint64_t *base, uint64_t *size, const char **why)
{
	uint32_t entry = (c.ac + c.sc) * 4u;
	int len = 0;
	const uint8_t *p = fdt_getprop(fdt, node, "reg", &len);
	virq_status st;

	if (!p)
		return bad_(why, "a GIC or ITS node has no reg property");
	if (len <= 0 || (uint32_t)len % entry != 0)
		return bad_(why, "reg length is not a whole number of (address, size) entries");
	if (idx >= (uint32_t)len / entry)
		return bad_(why, "reg has fewer entries than the GIC needs");
	*base = load_cells_(p + idx * entry, c.ac);
	*size = load_cells_(p + idx * entry + c.ac * 4u, c.sc);
	st = region_ok_(*base, *size, why);
	if (st == LIBVIRQ_OK)
		st = translate_(fdt, bus, base, *size, why);
	if (st == LIBVIRQ_OK)
		st = region_ok_(*base, *size, why);
	return st;
}

/* status absent, "okay" or "ok" (NUL-terminated within the property). */
static bool enabled_(const void *fdt, int node)
{
	int len = 0;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	if (!s)
		return true;
	if (len == 5 && memcmp(s, "okay", 5) == 0)
		return true;
	return len == 3 && memcmp(s, "ok", 3) == 0;
}

/* Big-endian 32-bit load from an unaligned pointer. */
static uint32_t be32_at_(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/*
 * Walks every tag of the structure block with overflow-free 64-bit offsets
 * before libfdt does. libfdt 1.6.1 (Debian 12) adds a property length to the
 * offset without an overflow check in fdt_next_tag(), so a forged length such
 * as 0xFFFFFFF4 wraps the offset back onto the same tag and fdt_check_full()
 * never returns (found by fuzz_fdt; the same shape as dtc commit 7359034,
 * docs/rationale.md#fdt-hostile-blobs). Every step here advances by at least
 * 4 bytes and stays inside the block, so the walk ends.
 */
static virq_status struct_walk_(const void *fdt, const char **why)
{
	const uint8_t *p = (const uint8_t *)fdt + fdt_off_dt_struct(fdt);
	uint64_t size = fdt_version(fdt) >= 17 ? fdt_size_dt_struct(fdt)
					       : (uint64_t)fdt_totalsize(fdt) - fdt_off_dt_struct(fdt);
	uint64_t off = 0, len;

	for (;;) {
		if (size - off < 4)
			return bad_(why, "blob truncated: a tag or property runs past its block");
		off += 4;
		switch (be32_at_(p + off - 4)) {
		case FDT_BEGIN_NODE:
			while (off < size && p[off] != 0)
				off++;
			if (off == size)
				return bad_(why, "blob truncated: a node name runs past its block");
			off = (off + 4) & ~(uint64_t)3; /* the NUL, then 4-byte alignment */
			break;
		case FDT_PROP:
			if (size - off < 8)
				return bad_(why, "blob truncated: a tag or property runs past its block");
			len = be32_at_(p + off);
			off += 8;
			if (len > size - off)
				return bad_(why, "blob truncated: a tag or property runs past its block");
			off = (off + len + 3) & ~(uint64_t)3;
			break;
		case FDT_END_NODE:
		case FDT_NOP:
			break;
		case FDT_END:
			return LIBVIRQ_OK;
		default:
			return bad_(why, "bad FDT structure block (tags, nesting, lengths or names)");
		}
		if (off > size)
			return bad_(why, "blob truncated: a tag or property runs past its block");
	}
}

static virq_status check_blob_(const void *fdt, size_t bufsize, const char **why)
{
	int rc;

	if (bufsize < sizeof(struct fdt_header))
		return bad_(why, "blob shorter than the FDT header");
	if (bufsize > LIBVIRQ_FDT_MAX_SIZE)
		bufsize = LIBVIRQ_FDT_MAX_SIZE;
	rc = fdt_check_header(fdt);
	if (rc == -FDT_ERR_BADMAGIC)
		return bad_(why, "bad FDT magic");
	if (rc == -FDT_ERR_BADVERSION)
		return bad_(why, "unsupported FDT version");
	if (rc < 0)
		return bad_(why, "bad FDT header (block offsets or sizes)");
	if (fdt_totalsize(fdt) > bufsize)
		return bad_(why, "blob truncated: totalsize exceeds the buffer");
	if (struct_walk_(fdt, why) != LIBVIRQ_OK)
		return LIBVIRQ_EBADDT;
	rc = fdt_check_full(fdt, bufsize);
	if (rc == -FDT_ERR_TRUNCATED)
		return bad_(why, "blob truncated: a tag or property runs past its block");
	if (rc < 0)
		return bad_(why, "bad FDT structure block (tags, nesting, lengths or names)");
	return LIBVIRQ_OK;
}

/* First enabled "arm,gic-v3" node, or a negative libfdt error. */
static int find_gic_(const void *fdt)
{
	int off = -1;

	for (;;) {
		off = fdt_node_offset_by_compatible(fdt, off, "arm,gic-v3");
		if (off < 0 || enabled_(fdt, off))
			return off;
	}
}

static virq_status redist_(const void *fdt, int gic, int bus, struct bus_cells_ c,
			   struct virq_gic_desc *d, const char **why)
{
	uint32_t nrr = 1;
	uint64_t stride = 0;
	int len = 0, r;
	const uint8_t *sp;

	r = get_u32_(fdt, gic, "#redistributor-regions", &nrr);
	if (r < 0)
		return bad_(why, "#redistributor-regions is not a single cell");
	if (nrr == 0 || nrr > LIBVIRQ_FDT_MAX_REDIST_REGIONS_DT)
		return bad_(why, "#redistributor-regions is 0 or above 4096");
	sp = fdt_getprop(fdt, gic, "redistributor-stride", &len);
	if (sp) {
		if (len != 8)
			return bad_(why, "redistributor-stride is not a 64-bit value (2 cells)");
		stride = load_cells_(sp, 2);
		if (stride == 0 || (stride & 0xffffu) != 0)
			return bad_(why, "redistributor-stride is not a non-zero multiple of 64 KiB");
	} else if (len != -FDT_ERR_NOTFOUND) {
		return bad_(why, "cannot read redistributor-stride");
	}
	if (nrr > LIBVIRQ_GIC_MAX_REDIST_REGIONS) {
		if (why)
			*why = "more redistributor regions than libvirq holds (16)";
		return LIBVIRQ_ENOSPC;
	}
	for (uint32_t i = 0; i < nrr; i++) {
		struct virq_gic_redist_region *rr = &d->redist[i];
		virq_status st = reg_entry_(fdt, gic, bus, c, 1 + i, &rr->base, &rr->size, why);

		if (st != LIBVIRQ_OK)
			return st;
		rr->stride = stride;
	}
	d->nr_redist_regions = nrr;
	return LIBVIRQ_OK;
}

static virq_status its_(const void *fdt, int gic, struct virq_gic_desc *d, const char **why)
{
	struct bus_cells_ c;
	bool have_cells = false;
	int child;

	fdt_for_each_subnode(child, fdt, gic) {
		struct virq_gic_its_desc *its;
		virq_status st;

		if (fdt_node_check_compatible(fdt, child, "arm,gic-v3-its") != 0)
			continue;
		if (!enabled_(fdt, child) || !fdt_getprop(fdt, child, "msi-controller", NULL))
			continue;
		if (!have_cells) {
			st = bus_cells_(fdt, gic, &c, why);
			if (st != LIBVIRQ_OK)
				return st;
			have_cells = true;
		}
		if (d->nr_its == LIBVIRQ_GIC_MAX_ITS) {
			if (why)
				*why = "more enabled ITSes than libvirq holds (16)";
			return LIBVIRQ_ENOSPC;
		}
		its = &d->its[d->nr_its];
		st = reg_entry_(fdt, child, gic, c, 0, &its->base, &its->size, why);
		if (st != LIBVIRQ_OK)
			return st;
		its->dma_noncoherent = fdt_getprop(fdt, child, "dma-noncoherent", NULL) != NULL;
		d->nr_its++;
	}
	if (child != -FDT_ERR_NOTFOUND)
		return bad_(why, "bad structure while walking the GIC's children");
	return LIBVIRQ_OK;
}

static virq_status discover_(const void *fdt, size_t bufsize, struct virq_gic_desc *d,
			     const char **why)
{
	struct bus_cells_ c;
	int gic, bus;
	virq_status st;

	st = check_blob_(fdt, bufsize, why);
	if (st != LIBVIRQ_OK)
		return st;
	gic = find_gic_(fdt);
	if (gic == -FDT_ERR_NOTFOUND) {
		if (why)
			*why = "no enabled arm,gic-v3 node";
		return LIBVIRQ_ENOENT;
	}
	if (gic <= 0)
		return bad_(why, gic == 0 ? "the GIC node is the root" : "bad structure");
	bus = fdt_parent_offset(fdt, gic);
	if (bus < 0)
		return bad_(why, "cannot find the GIC node's parent");
	st = bus_cells_(fdt, bus, &c, why);
	if (st == LIBVIRQ_OK)
		st = reg_entry_(fdt, gic, bus, c, 0, &d->gicd_base, &d->gicd_size, why);
	if (st == LIBVIRQ_OK)
		st = redist_(fdt, gic, bus, c, d, why);
	if (st == LIBVIRQ_OK)
		st = its_(fdt, gic, d, why);
	if (st != LIBVIRQ_OK)
		return st;
	d->dma_noncoherent = fdt_getprop(fdt, gic, "dma-noncoherent", NULL) != NULL;
	if (fdt_node_check_compatible(fdt, 0, "rockchip,rk3588") == 0)
		d->platform |= LIBVIRQ_GIC_PLAT_RK3588;
	return LIBVIRQ_OK;
}

virq_status virq_fdt_discover_gic(const void *fdt, size_t bufsize, struct virq_gic_desc *desc,
				  const char **reason)
{
	virq_status st;

	if (reason)
		*reason = ok_reason_;
	if (!desc) {
		if (reason)
			*reason = "no output description";
		return LIBVIRQ_EINVAL;
	}
	memset(desc, 0, sizeof(*desc));
	if (!fdt) {
		if (reason)
			*reason = "no blob";
		return LIBVIRQ_EINVAL;
	}
	st = discover_(fdt, bufsize, desc, reason);
	if (st != LIBVIRQ_OK)
		memset(desc, 0, sizeof(*desc));
	return st;
}
