/* SPDX-License-Identifier: MIT */
/*
 * GIC discovery from a flattened device tree (optional archive virq_fdt),
 * and the blob validation and address helpers the PCI part (fdt_pci.c)
 * shares.
 *
 * Trust model: the blob is hostile until proven otherwise
 * (docs/rationale.md#fdt-hostile-blobs; the dtc/libfdt commits there, plus
 * fda71da and 8d15a63 for what libfdt 1.6.1 does not check). check_header_(),
 * struct_walk_() and then fdt_check_full() validate the structure block
 * (every tag, property length and name offset inside the blob) before any
 * lookup; after that every property this file reads has its length checked
 * before a cell is loaded, every cell count is range-checked before it is
 * used to divide or multiply, and every walk is bounded (libfdt's
 * offset-advancing iterators, plus an explicit depth bound for the ranges
 * walk).
 *
 * Cells are loaded byte by byte (big-endian), so property values need no
 * alignment.
 */
#include "fdt_priv.h"

/* Fixed reasons (never formatted: the library does not print). */
static const char *const ok_reason_ = "ok";

uint64_t virq_fdt_cells_at_(const uint8_t *p, uint32_t ncells)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < ncells * 4u; i++)
		v = (v << 8) | p[i];
	return v;
}

int virq_fdt_u32_(const void *fdt, int node, const char *name, uint32_t *out)
{
	int len = 0;
	const uint8_t *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return len == -FDT_ERR_NOTFOUND ? 0 : -1;
	if (len != 4)
		return -1;
	*out = (uint32_t)virq_fdt_cells_at_(p, 1);
	return 1;
}

virq_status virq_fdt_bus_cells_(const void *fdt, int bus, struct virq_fdt_cells_ *c,
				const char **why)
{
	uint32_t v = 0;
	int r;

	c->ac = 2;
	c->sc = 1;
	r = virq_fdt_u32_(fdt, bus, "#address-cells", &v);
	if (r < 0)
		return virq_fdt_bad_(why, "#address-cells is not a single cell");
	if (r > 0) {
		if (v < 1 || v > 2)
			return virq_fdt_bad_(why, "#address-cells is not 1 or 2");
		c->ac = v;
	}
	r = virq_fdt_u32_(fdt, bus, "#size-cells", &v);
	if (r < 0)
		return virq_fdt_bad_(why, "#size-cells is not a single cell");
	if (r > 0) {
		if (v == 0)
			return virq_fdt_bad_(why, "#size-cells is 0 where regions need a size");
		if (v > 2)
			return virq_fdt_bad_(why, "#size-cells is not 1 or 2");
		c->sc = v;
	}
	return LIBVIRQ_OK;
}

virq_status virq_fdt_region_ok_(uint64_t base, uint64_t size, const char **why)
{
	if (size == 0)
		return virq_fdt_bad_(why, "a region has size 0");
	if (base + (size - 1) < base)
		return virq_fdt_bad_(why, "a region wraps past the end of the address space");
	return LIBVIRQ_OK;
}

/* Searches one bus's non-empty ranges for [addr, addr + size). */
static virq_status ranges_lookup_(const uint8_t *rg, int len, struct virq_fdt_cells_ child,
				  uint32_t parent_ac, uint64_t *addr, uint64_t size,
				  const char **why)
{
	uint32_t entry = (child.ac + parent_ac + child.sc) * 4u;

	if ((uint32_t)len % entry != 0)
		return virq_fdt_bad_(why, "ranges length is not a whole number of entries");
	for (uint32_t off = 0; off < (uint32_t)len; off += entry) {
		uint64_t cba = virq_fdt_cells_at_(rg + off, child.ac);
		uint64_t pba = virq_fdt_cells_at_(rg + off + child.ac * 4u, parent_ac);
		uint64_t rsz = virq_fdt_cells_at_(rg + off + (child.ac + parent_ac) * 4u, child.sc);
		uint64_t delta;

		if (*addr < cba || *addr - cba >= rsz)
			continue;
		delta = *addr - cba;
		if (size > rsz - delta)
			return virq_fdt_bad_(why, "a region straddles the end of a ranges entry");
		if (pba + delta < pba)
			return virq_fdt_bad_(why, "ranges translation overflows 64 bits");
		*addr = pba + delta;
		/* The parent side of an entry may wrap where the child side does
		 * not (found by fuzz_fdt_pci): the translated region must not. */
		if (size && *addr + (size - 1) < *addr)
			return virq_fdt_bad_(
			    why, "ranges translation wraps past the end of the address space");
		return LIBVIRQ_OK;
	}
	return virq_fdt_bad_(why, "a region lies outside its parent bus ranges");
}

/*
 * An absent ranges on a non-root bus means the bus is not memory-mapped: an
 * error, as in Linux's of_translate_address. An empty ranges is the
 * identity (Devicetree Specification v0.4 §2.3.8).
 */
virq_status virq_fdt_translate_path_(const void *fdt, const struct virq_fdt_path_ *path,
				     uint64_t *addr, uint64_t size, const char **why)
{
	for (uint32_t level = path->len - 1; level > 0; level--) {
		struct virq_fdt_cells_ child, parent;
		const uint8_t *rg;
		int len = 0, bus = path->node[level], pbus = path->node[level - 1];

		rg = fdt_getprop(fdt, bus, "ranges", &len);
		if (!rg)
			return virq_fdt_bad_(
			    why, "a bus above the node has no ranges (not memory-mapped)");
		if (len > 0) {
			virq_status st = virq_fdt_bus_cells_(fdt, bus, &child, why);

			if (st == LIBVIRQ_OK)
				st = virq_fdt_bus_cells_(fdt, pbus, &parent, why);
			if (st == LIBVIRQ_OK)
				st = ranges_lookup_(rg, len, child, parent.ac, addr, size, why);
			if (st != LIBVIRQ_OK)
				return st;
		}
	}
	return LIBVIRQ_OK;
}

/* @p node's path from the root, in one walk of the nodes before it. */
static virq_status path_of_(const void *fdt, int node, struct virq_fdt_path_ *path,
			    const char **why)
{
	int off = 0, depth = 0;

	path->node[0] = 0;
	/* (depth < 0: past the root's end; the offset is then no node's) */
	while (off >= 0 && depth >= 0 && off < node) {
		off = fdt_next_node(fdt, off, &depth);
		if (off >= 0 && depth >= 0 && depth < LIBVIRQ_FDT_MAX_DEPTH_)
			path->node[depth] = off;
	}
	if (off != node || depth < 0)
		return virq_fdt_bad_(why, "cannot find the parent of a bus node");
	if (depth >= LIBVIRQ_FDT_MAX_DEPTH_)
		return virq_fdt_bad_(why, "bus nesting deeper than 64 levels");
	path->len = (uint32_t)depth + 1;
	return LIBVIRQ_OK;
}

virq_status virq_fdt_translate_(const void *fdt, int bus, uint64_t *addr, uint64_t size,
				const char **why)
{
	struct virq_fdt_path_ path;
	virq_status st = path_of_(fdt, bus, &path, why);

	return st == LIBVIRQ_OK ? virq_fdt_translate_path_(fdt, &path, addr, size, why) : st;
}

bool virq_fdt_enabled_(const void *fdt, int node)
{
	int len = 0;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	if (!s)
		return true;
	if (len == 5 && memcmp(s, "okay", 5) == 0)
		return true;
	return len == 3 && memcmp(s, "ok", 3) == 0;
}

/*
 * A caller-supplied offset is a node only if the real tag stream reaches it:
 * libfdt's own check (a BEGIN_NODE tag at a 4-aligned offset) also accepts
 * a forged tag inside a property value, and a forged property after it
 * (length 0xfffffff4: dtc 7359034) makes libfdt 1.6.1's property walk
 * loop forever. fdt_next_node() only moves forward over the validated
 * stream, so this walk is bounded by the blob.
 */
bool virq_fdt_node_ok_(const void *fdt, int32_t node)
{
	int off;

	if (node < 0)
		return false;
	for (off = fdt_next_node(fdt, -1, NULL); off >= 0 && off < node;
	     off = fdt_next_node(fdt, off, NULL))
		;
	return off == node;
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
	uint64_t size = fdt_version(fdt) >= 17
			    ? fdt_size_dt_struct(fdt)
			    : (uint64_t)fdt_totalsize(fdt) - fdt_off_dt_struct(fdt);
	uint64_t off = 0, len;

	for (;;) {
		if (size - off < 4)
			return virq_fdt_bad_(
			    why, "blob truncated: a tag or property runs past its block");
		off += 4;
		switch (be32_at_(p + off - 4)) {
		case FDT_BEGIN_NODE:
			while (off < size && p[off] != 0)
				off++;
			if (off == size)
				return virq_fdt_bad_(
				    why, "blob truncated: a node name runs past its block");
			off = (off + 4) & ~(uint64_t)3; /* the NUL, then 4-byte alignment */
			break;
		case FDT_PROP:
			if (size - off < 8)
				return virq_fdt_bad_(
				    why, "blob truncated: a tag or property runs past its block");
			len = be32_at_(p + off);
			off += 8;
			if (len > size - off)
				return virq_fdt_bad_(
				    why, "blob truncated: a tag or property runs past its block");
			off = (off + len + 3) & ~(uint64_t)3;
			break;
		case FDT_END_NODE:
		case FDT_NOP:
			break;
		case FDT_END:
			return LIBVIRQ_OK;
		default:
			return virq_fdt_bad_(
			    why, "bad FDT structure block (tags, nesting, lengths or names)");
		}
		if (off > size)
			return virq_fdt_bad_(
			    why, "blob truncated: a tag or property runs past its block");
	}
}

/* Big-endian 32-bit header field @p off (bytes) of the blob. */
static uint32_t hdr_(const void *fdt, uint32_t off)
{
	return be32_at_((const uint8_t *)fdt + off);
}

/*
 * What libfdt 1.6.1 (Debian 12) does not check safely itself, checked here
 * from the raw header before any libfdt call:
 *  - version below 16: fdt_check_full() dereferences the NULL that
 *    fdt_get_name() returns for a pre-16 root node (fixed upstream in dtc
 *    commit fda71da, "libfdt: Handle failed get_name() on BEGIN_NODE");
 *    pre-16 blobs also pad properties differently (8-byte alignment of
 *    values of 8 bytes or more), which struct_walk_() does not model;
 *  - sub-block alignment: 1.6.1 loads tags as aligned 32-bit words without
 *    checking that the structure block is 4-byte aligned (or the memory
 *    reservation block 8-byte aligned), which faults on a strict-alignment
 *    CPU (Device memory at EL2 with the MMU off); checked upstream since
 *    dtc commit 8d15a63 ("libfdt: Verify alignment of sub-blocks in dtb");
 *  - forged property lengths: struct_walk_() (dtc commit 7359034).
 * Devicetree Specification v0.4 §5.2: version 17, last_comp_version 16.
 */
static virq_status check_header_(const void *fdt, const char **why)
{
	uint32_t version, last_comp;

	if (((uintptr_t)fdt & 7u) != 0) {
		if (why)
			*why = "blob not 8-byte aligned (libfdt requires it)";
		return LIBVIRQ_EALIGN;
	}
	if (hdr_(fdt, 0) != FDT_MAGIC)
		return virq_fdt_bad_(why, "bad FDT magic");
	version = hdr_(fdt, 20);
	last_comp = hdr_(fdt, 24);
	if (version < 16)
		return virq_fdt_bad_(why, "unsupported FDT version (below 16)");
	if (last_comp > 17 || last_comp > version)
		return virq_fdt_bad_(
		    why, "unsupported FDT version (last_comp_version above 17 or above version)");
	if ((hdr_(fdt, 16) & 7u) != 0)
		return virq_fdt_bad_(why,
				     "bad FDT header: memory reservation block not 8-byte aligned");
	if ((hdr_(fdt, 8) & 3u) != 0)
		return virq_fdt_bad_(why, "bad FDT header: structure block not 4-byte aligned");
	return LIBVIRQ_OK;
}

virq_status virq_fdt_check_blob_(const void *fdt, size_t bufsize, const char **why)
{
	virq_status st;
	int rc;

	if (bufsize < sizeof(struct fdt_header))
		return virq_fdt_bad_(why, "blob shorter than the FDT header");
	if (bufsize > LIBVIRQ_FDT_MAX_SIZE)
		bufsize = LIBVIRQ_FDT_MAX_SIZE;
	st = check_header_(fdt, why);
	if (st != LIBVIRQ_OK)
		return st;
	rc = fdt_check_header(fdt);
	if (rc == -FDT_ERR_BADMAGIC)
		return virq_fdt_bad_(why, "bad FDT magic");
	if (rc == -FDT_ERR_BADVERSION)
		return virq_fdt_bad_(why, "unsupported FDT version");
	if (rc < 0)
		return virq_fdt_bad_(why, "bad FDT header (block offsets or sizes)");
	if (fdt_totalsize(fdt) > bufsize)
		return virq_fdt_bad_(why, "blob truncated: totalsize exceeds the buffer");
	if (struct_walk_(fdt, why) != LIBVIRQ_OK)
		return LIBVIRQ_EBADDT;
	rc = fdt_check_full(fdt, bufsize);
	if (rc == -FDT_ERR_TRUNCATED)
		return virq_fdt_bad_(why, "blob truncated: a tag or property runs past its block");
	if (rc < 0)
		return virq_fdt_bad_(why,
				     "bad FDT structure block (tags, nesting, lengths or names)");
	return LIBVIRQ_OK;
}

/* ---------------- GIC ---------------- */

/* A node's reg property as whole (address, size) entries of @p c. */
struct reg_prop_ {
	const uint8_t *p;
	uint32_t n;	/* number of entries */
	uint32_t entry; /* bytes per entry */
	struct virq_fdt_cells_ c;
};

static virq_status reg_prop_(const void *fdt, int node, struct virq_fdt_cells_ c,
			     struct reg_prop_ *r, const char **why)
{
	int len = 0;

	r->c = c;
	r->entry = (c.ac + c.sc) * 4u;
	r->p = fdt_getprop(fdt, node, "reg", &len);
	if (!r->p)
		return virq_fdt_bad_(why, "a GIC or ITS node has no reg property");
	if (len <= 0 || (uint32_t)len % r->entry != 0)
		return virq_fdt_bad_(why,
				     "reg length is not a whole number of (address, size) entries");
	r->n = (uint32_t)len / r->entry;
	return LIBVIRQ_OK;
}

/* Raw entry @p idx (< r->n), untranslated. */
static void reg_raw_(const struct reg_prop_ *r, uint32_t idx, uint64_t *base, uint64_t *size)
{
	*base = virq_fdt_cells_at_(r->p + idx * r->entry, r->c.ac);
	*size = virq_fdt_cells_at_(r->p + idx * r->entry + r->c.ac * 4u, r->c.sc);
}

/* Range-checks and translates a raw region found on bus @p bus. */
static virq_status region_(const void *fdt, int bus, uint64_t *base, uint64_t size,
			   const char **why)
{
	virq_status st = virq_fdt_region_ok_(*base, size, why);

	if (st == LIBVIRQ_OK)
		st = virq_fdt_translate_(fdt, bus, base, size, why);
	if (st == LIBVIRQ_OK)
		st = virq_fdt_region_ok_(*base, size, why);
	return st;
}

/* Entry @p idx of @p r, range-checked and translated. */
static virq_status reg_entry_(const void *fdt, int bus, const struct reg_prop_ *r, uint32_t idx,
			      uint64_t *base, uint64_t *size, const char **why)
{
	if (idx >= r->n)
		return virq_fdt_bad_(why, "reg has fewer entries than the GIC needs");
	reg_raw_(r, idx, base, size);
	return region_(fdt, bus, base, *size, why);
}

/* First enabled "arm,gic-v3" node, or a negative libfdt error. */
static int find_gic_(const void *fdt)
{
	int off = -1;

	for (;;) {
		off = fdt_node_offset_by_compatible(fdt, off, "arm,gic-v3");
		if (off < 0 || virq_fdt_enabled_(fdt, off))
			return off;
	}
}

/* Notes the first thing discovery left out (the success reason). */
static void note_(const char **note, const char *msg)
{
	if (!*note)
		*note = msg;
}

static virq_status redist_(const void *fdt, int gic, int bus, const struct reg_prop_ *reg,
			   uint32_t *nrr_out, struct virq_gic_desc *d, const char **note,
			   const char **why)
{
	uint32_t nrr = 1;
	uint64_t stride = 0;
	int len = 0, r;
	const uint8_t *sp;

	r = virq_fdt_u32_(fdt, gic, "#redistributor-regions", &nrr);
	if (r < 0)
		return virq_fdt_bad_(why, "#redistributor-regions is not a single cell");
	if (nrr == 0 || nrr > LIBVIRQ_FDT_MAX_REDIST_REGIONS_DT)
		return virq_fdt_bad_(why, "#redistributor-regions is 0 or above 4096");
	sp = fdt_getprop(fdt, gic, "redistributor-stride", &len);
	if (sp) {
		if (len != 8)
			return virq_fdt_bad_(
			    why, "redistributor-stride is not a 64-bit value (2 cells)");
		stride = virq_fdt_cells_at_(sp, 2);
		if (stride == 0 || (stride & 0xffffu) != 0)
			return virq_fdt_bad_(
			    why, "redistributor-stride is not a non-zero multiple of 64 KiB");
	} else if (len != -FDT_ERR_NOTFOUND) {
		return virq_fdt_bad_(why, "cannot read redistributor-stride");
	}
	if (1 + nrr > reg->n)
		return virq_fdt_bad_(why, "reg has fewer entries than the GIC needs");
	for (uint32_t i = 0; i < nrr; i++) {
		struct virq_gic_redist_region *rr;
		uint64_t base, size;
		virq_status st;

		reg_raw_(reg, 1 + i, &base, &size);
		if (size == 0) {
			/* Firmware publishes empty regions: leave them out, say so. */
			d->nr_redist_skipped++;
			d->skipped |= LIBVIRQ_GIC_SKIP_REDIST;
			note_(note, "ok, but an empty (size 0) redistributor region was skipped");
			continue;
		}
		if (d->nr_redist_regions == LIBVIRQ_GIC_MAX_REDIST_REGIONS)
			return virq_fdt_fail_(why, LIBVIRQ_ENOSPC,
					      "more redistributor regions than libvirq holds (16)");
		st = region_(fdt, bus, &base, size, why);
		if (st != LIBVIRQ_OK)
			return st;
		rr = &d->redist[d->nr_redist_regions++];
		rr->base = base;
		rr->size = size;
		rr->stride = stride;
	}
	if (d->nr_redist_regions == 0)
		return virq_fdt_bad_(why, "every redistributor region is empty (size 0)");
	*nrr_out = nrr;
	return LIBVIRQ_OK;
}

/*
 * The optional GICC, GICH, GICV entries that follow the redistributor
 * regions (binding arm,gic-v3.yaml: "reg" items). A zero-size entry is a
 * placeholder: left out (absent) with a note; anything else is range-checked
 * and translated like the other regions. Entries after GICV are ignored.
 */
static virq_status cpuif_(const void *fdt, int bus, const struct reg_prop_ *reg, uint32_t first,
			  struct virq_gic_desc *d, const char **note, const char **why)
{
	uint64_t *const dst[3][2] = {
	    {&d->gicc_base, &d->gicc_size},
	    {&d->gich_base, &d->gich_size},
	    {&d->gicv_base, &d->gicv_size},
	};

	for (uint32_t k = 0; k < 3 && first + k < reg->n; k++) {
		uint64_t base, size;
		virq_status st;

		reg_raw_(reg, first + k, &base, &size);
		if (size == 0) {
			d->skipped |= LIBVIRQ_GIC_SKIP_CPUIF;
			note_(note, "ok, but an empty (size 0) GICC/GICH/GICV entry was skipped");
			continue;
		}
		st = region_(fdt, bus, &base, size, why);
		if (st != LIBVIRQ_OK)
			return st;
		*dst[k][0] = base;
		*dst[k][1] = size;
	}
	return LIBVIRQ_OK;
}

static virq_status its_(const void *fdt, int gic, struct virq_gic_desc *d, const char **why)
{
	struct virq_fdt_cells_ c = {0};
	bool have_cells = false;
	int child;

	fdt_for_each_subnode(child, fdt, gic)
	{
		struct virq_gic_its_desc *its;
		struct reg_prop_ reg;
		uint32_t ph;
		virq_status st;

		if (fdt_node_check_compatible(fdt, child, "arm,gic-v3-its") != 0)
			continue;
		if (!virq_fdt_enabled_(fdt, child) ||
		    !fdt_getprop(fdt, child, "msi-controller", NULL))
			continue;
		if (!have_cells) {
			st = virq_fdt_bus_cells_(fdt, gic, &c, why);
			if (st != LIBVIRQ_OK)
				return st;
			have_cells = true;
		}
		if (d->nr_its == LIBVIRQ_GIC_MAX_ITS)
			return virq_fdt_fail_(why, LIBVIRQ_ENOSPC,
					      "more enabled ITSes than libvirq holds (16)");
		its = &d->its[d->nr_its];
		st = reg_prop_(fdt, child, c, &reg, why);
		if (st == LIBVIRQ_OK)
			st = reg_entry_(fdt, gic, &reg, 0, &its->base, &its->size, why);
		if (st != LIBVIRQ_OK)
			return st;
		its->dma_noncoherent = fdt_getprop(fdt, child, "dma-noncoherent", NULL) != NULL;
		/* Devicetree Specification v0.4 §2.3.3: 0 and 0xffffffff are not phandles. */
		ph = fdt_get_phandle(fdt, child);
		its->phandle = ph == 0xffffffffu ? 0 : ph;
		its->fdt_node = child;
		d->nr_its++;
	}
	if (child != -FDT_ERR_NOTFOUND)
		return virq_fdt_bad_(why, "bad structure while walking the GIC's children");
	return LIBVIRQ_OK;
}

static virq_status discover_(const void *fdt, size_t bufsize, struct virq_gic_desc *d,
			     const char **note, const char **why)
{
	struct virq_fdt_cells_ c;
	struct reg_prop_ reg;
	uint32_t nrr = 0;
	int gic, bus;
	virq_status st;

	st = virq_fdt_check_blob_(fdt, bufsize, why);
	if (st != LIBVIRQ_OK)
		return st;
	gic = find_gic_(fdt);
	if (gic == -FDT_ERR_NOTFOUND)
		return virq_fdt_fail_(why, LIBVIRQ_ENOENT, "no enabled arm,gic-v3 node");
	if (gic <= 0)
		return virq_fdt_bad_(why, gic == 0 ? "the GIC node is the root" : "bad structure");
	bus = fdt_parent_offset(fdt, gic);
	if (bus < 0)
		return virq_fdt_bad_(why, "cannot find the GIC node's parent");
	st = virq_fdt_bus_cells_(fdt, bus, &c, why);
	if (st == LIBVIRQ_OK)
		st = reg_prop_(fdt, gic, c, &reg, why);
	if (st == LIBVIRQ_OK)
		st = reg_entry_(fdt, bus, &reg, 0, &d->gicd_base, &d->gicd_size, why);
	if (st == LIBVIRQ_OK)
		st = redist_(fdt, gic, bus, &reg, &nrr, d, note, why);
	if (st == LIBVIRQ_OK)
		st = cpuif_(fdt, bus, &reg, 1 + nrr, d, note, why);
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
	const char *note = NULL;
	virq_status st;

	if (reason)
		*reason = ok_reason_;
	if (!desc)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no output description");
	memset(desc, 0, sizeof(*desc));
	if (!fdt)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no blob");
	st = discover_(fdt, bufsize, desc, &note, reason);
	if (st != LIBVIRQ_OK)
		memset(desc, 0, sizeof(*desc));
	else if (note && reason)
		*reason = note;
	return st;
}
