/* SPDX-License-Identifier: MIT */
/*
 * PCI host bridges and device MSI topology from a flattened device tree
 * (optional archive virq_fdt): virq_fdt_discover_pci_host(), virq_fdt_pci_cfg_addr(),
 * virq_fdt_msi_map().
 *
 * Bindings: pci/host-generic-pci.yaml (reg, bus-range, ranges),
 * pci/pci-msi.txt (msi-map, msi-map-mask, msi-parent), IEEE Std 1275-1994
 * PCI bus binding (the phys.hi cell of a PCI address). The blob is validated
 * in full by virq_fdt_check_blob_() on every call; every property is
 * length-checked before a cell is read, every count is bounded before it
 * drives a loop (dtc ff5afb9, 64c46b0 shapes), and every sum is computed in
 * 64 bits and checked against its limit.
 */
#include "fdt_priv.h"

static const char *const ok_reason_ = "ok";

/* ---------------- host bridges ---------------- */

/* phys.hi: npt000ss bbbbbbbb dddddfff rrrrrrrr (IEEE 1275 PCI bus binding). */
#define LIBVIRQ_PCI_PHYS_HI_SS_SHIFT_ 24u
#define LIBVIRQ_PCI_PHYS_HI_P_ (1u << 30)

static bool generic_host_(const void *fdt, int node, uint32_t *layout)
{
	if (fdt_node_check_compatible(fdt, node, "pci-host-ecam-generic") == 0) {
		*layout = LIBVIRQ_FDT_PCI_ECAM;
		return true;
	}
	if (fdt_node_check_compatible(fdt, node, "pci-host-cam-generic") == 0) {
		*layout = LIBVIRQ_FDT_PCI_CAM;
		return true;
	}
	return false;
}

static virq_status host_cfg_(const void *fdt, int node, const struct virq_fdt_path_ *bus,
			     struct virq_fdt_cells_ pc, struct virq_fdt_pci_host *h,
			     const char **note, const char **why)
{
	uint32_t entry = (pc.ac + pc.sc) * 4u, shift;
	uint64_t nbus, fit;
	int len = 0;
	const uint8_t *p = fdt_getprop(fdt, node, "reg", &len);
	virq_status st;

	if (!p)
		return virq_fdt_bad_(why, "the PCI host bridge has no reg (configuration window)");
	if (len <= 0 || (uint32_t)len % entry != 0)
		return virq_fdt_bad_(why,
				     "reg length is not a whole number of (address, size) entries");
	h->cfg_base = virq_fdt_cells_at_(p, pc.ac);
	h->cfg_size = virq_fdt_cells_at_(p + pc.ac * 4u, pc.sc);
	st = virq_fdt_region_ok_(h->cfg_base, h->cfg_size, why);
	if (st == LIBVIRQ_OK)
		st = virq_fdt_translate_path_(fdt, bus, &h->cfg_base, h->cfg_size, why);
	if (st != LIBVIRQ_OK)
		return st;
	shift = h->layout == LIBVIRQ_FDT_PCI_ECAM ? 20u : 16u;
	if (h->cfg_size >> shift == 0)
		return virq_fdt_bad_(why, "the configuration window is smaller than one bus");

	p = fdt_getprop(fdt, node, "bus-range", &len);
	h->bus_start = 0;
	h->bus_end = 255;
	if (p) {
		if (len != 8)
			return virq_fdt_bad_(why, "bus-range is not two cells");
		h->bus_start = (uint32_t)virq_fdt_cells_at_(p, 1);
		h->bus_end = (uint32_t)virq_fdt_cells_at_(p + 4, 1);
		if (h->bus_start > h->bus_end || h->bus_end > 255)
			return virq_fdt_bad_(why, "bus-range is not first <= last <= 255");
	} else if (len != -FDT_ERR_NOTFOUND) {
		return virq_fdt_bad_(why, "cannot read bus-range");
	}
	/* The window starts at bus_start (host-generic-pci.yaml); keep the
	 * buses it covers, as Linux's pci_ecam_create() does. */
	nbus = (uint64_t)h->bus_end - h->bus_start + 1;
	fit = h->cfg_size >> shift;
	if (nbus > fit) {
		h->bus_end = h->bus_start + (uint32_t)fit - 1;
		h->flags |= LIBVIRQ_FDT_PCI_BUS_REDUCED;
		if (!*note)
			*note = "ok, but bus-range was reduced to the buses the configuration "
				"window covers";
	}
	return LIBVIRQ_OK;
}

static virq_status host_ranges_(const void *fdt, int node, const struct virq_fdt_path_ *bus,
				struct virq_fdt_cells_ pc, struct virq_fdt_pci_host *h,
				const char **note, const char **why)
{
	uint32_t entry = (3u + pc.ac + 2u) * 4u;
	int len = 0;
	const uint8_t *p = fdt_getprop(fdt, node, "ranges", &len);

	if (!p)
		return virq_fdt_bad_(why, "the PCI host bridge has no ranges");
	if (len <= 0 || (uint32_t)len % entry != 0)
		return virq_fdt_bad_(why, "PCI ranges length is not a whole number of entries");
	for (uint32_t off = 0; off < (uint32_t)len; off += entry) {
		const uint8_t *e = p + off;
		uint32_t hi = (uint32_t)virq_fdt_cells_at_(e, 1);
		uint64_t pci = virq_fdt_cells_at_(e + 4, 2);
		uint64_t cpu = virq_fdt_cells_at_(e + 12, pc.ac);
		uint64_t size = virq_fdt_cells_at_(e + 12 + pc.ac * 4u, 2);
		uint32_t space = (hi >> LIBVIRQ_PCI_PHYS_HI_SS_SHIFT_) & 3u;
		struct virq_fdt_pci_range *r;
		virq_status st;

		if (size == 0) {
			/* Linux skips these too (devm_of_pci_get_host_bridge_resources). */
			h->flags |= LIBVIRQ_FDT_PCI_RANGE_SKIPPED;
			if (!*note)
				*note = "ok, but an empty (size 0) PCI ranges entry was skipped";
			continue;
		}
		if (pci + (size - 1) < pci)
			return virq_fdt_bad_(
			    why, "a PCI window wraps past the end of the PCI address space");
		if ((space == LIBVIRQ_FDT_PCI_MEM32 || space == LIBVIRQ_FDT_PCI_IO) &&
		    pci + (size - 1) > 0xffffffffull)
			return virq_fdt_bad_(
			    why, "a 32-bit memory or I/O window ends above 4 GiB on the PCI side");
		st = virq_fdt_region_ok_(cpu, size, why);
		if (st == LIBVIRQ_OK)
			st = virq_fdt_translate_path_(fdt, bus, &cpu, size, why);
		if (st != LIBVIRQ_OK)
			return st;
		if (h->nr_ranges == LIBVIRQ_FDT_PCI_MAX_RANGES)
			return virq_fdt_fail_(why, LIBVIRQ_ENOSPC,
					      "more PCI ranges entries than libvirq holds (16)");
		r = &h->ranges[h->nr_ranges++];
		r->space = space;
		r->prefetchable = (hi & LIBVIRQ_PCI_PHYS_HI_P_) != 0;
		r->pci_base = pci;
		r->cpu_base = cpu;
		r->size = size;
	}
	return LIBVIRQ_OK;
}

/* The host bridge at @p node, whose parent bus ends @p bus. */
static virq_status pci_host_(const void *fdt, int node, const struct virq_fdt_path_ *bus,
			     struct virq_fdt_pci_host *h, const char **note, const char **why)
{
	struct virq_fdt_cells_ pc;
	uint32_t ac = 0, sc = 0;
	virq_status st;

	if (node == 0)
		return virq_fdt_bad_(why, "the PCI host bridge is the root node");
	h->node = node;
	/* pci-bus.yaml: #address-cells = <3>, #size-cells = <2>, exactly. */
	if (virq_fdt_u32_(fdt, node, "#address-cells", &ac) != 1 || ac != 3 ||
	    virq_fdt_u32_(fdt, node, "#size-cells", &sc) != 1 || sc != 2)
		return virq_fdt_bad_(
		    why, "the PCI host bridge's #address-cells/#size-cells are not 3/2");
	st = virq_fdt_bus_cells_(fdt, bus->node[bus->len - 1], &pc, why);
	if (st == LIBVIRQ_OK)
		st = host_cfg_(fdt, node, bus, pc, h, note, why);
	if (st == LIBVIRQ_OK)
		st = host_ranges_(fdt, node, bus, pc, h, note, why);
	if (st != LIBVIRQ_OK)
		return st;
	if (fdt_getprop(fdt, node, "dma-coherent", NULL))
		h->flags |= LIBVIRQ_FDT_PCI_DMA_COHERENT;
	if (fdt_getprop(fdt, node, "msi-map", NULL))
		h->flags |= LIBVIRQ_FDT_PCI_HAS_MSI_MAP;
	if (fdt_getprop(fdt, node, "msi-parent", NULL))
		h->flags |= LIBVIRQ_FDT_PCI_HAS_MSI_PARENT;
	return LIBVIRQ_OK;
}

/* One walk over the host bridges: stop at @p stop, or hand each to @p fn. */
struct pci_walk_ {
	uint32_t stop; /* index to stop at, or UINT32_MAX */
	virq_fdt_pci_host_fn fn;
	void *ctx;
	uint32_t count; /* host bridges described so far */
	struct virq_fdt_pci_host *h;
	const char *note;
};

/*
 * Every enabled generic host bridge in tree order, in one pass over the
 * validated nodes: the walk keeps the current node's ancestors, so nothing
 * per bridge walks the tree again (the whole walk is linear in the blob).
 */
static virq_status pci_walk_(const void *fdt, size_t bufsize, struct pci_walk_ *w, const char **why)
{
	struct virq_fdt_path_ path;
	int off = 0, depth = 0;
	uint32_t layout = 0;
	virq_status st = virq_fdt_check_blob_(fdt, bufsize, why);

	/* Ends past the root's end (depth < 0) or on a libfdt error (off < 0). */
	for (path.node[0] = 0; st == LIBVIRQ_OK && off >= 0 && depth >= 0;
	     off = fdt_next_node(fdt, off, &depth)) {
		if (depth < LIBVIRQ_FDT_MAX_DEPTH_)
			path.node[depth] = off;
		if (!generic_host_(fdt, off, &layout) || !virq_fdt_enabled_(fdt, off))
			continue;
		if (!w->fn && w->count != w->stop) {
			w->count++; /* looking for one: the others are only counted */
			continue;
		}
		if (depth >= LIBVIRQ_FDT_MAX_DEPTH_)
			return virq_fdt_bad_(why, "bus nesting deeper than 64 levels");
		memset(w->h, 0, sizeof(*w->h));
		w->note = NULL;
		w->h->layout = layout;
		path.len = (uint32_t)depth; /* the ancestors: the bus ends it */
		st = pci_host_(fdt, off, &path, w->h, &w->note, why);
		if (st != LIBVIRQ_OK || w->count == w->stop)
			return st;
		if (w->fn && (w->fn)(w->ctx, w->count, w->h, w->note ? w->note : ok_reason_))
			return LIBVIRQ_OK;
		w->count++;
	}
	if (st != LIBVIRQ_OK)
		return st;
	if (off < 0 && off != -FDT_ERR_NOTFOUND)
		return virq_fdt_bad_(why, "bad structure while looking for PCI host bridges");
	if (w->stop != UINT32_MAX)
		return virq_fdt_fail_(
		    why, LIBVIRQ_ENOENT,
		    "fewer enabled generic PCI host bridges than the index asks for");
	return LIBVIRQ_OK;
}

virq_status virq_fdt_discover_pci_host(const void *fdt, size_t bufsize, uint32_t index,
				       struct virq_fdt_pci_host *host, const char **reason)
{
	struct pci_walk_ w = {index, NULL, NULL, 0, host, NULL};
	virq_status st;

	if (reason)
		*reason = ok_reason_;
	if (!host)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no output host description");
	memset(host, 0, sizeof(*host));
	if (!fdt)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no blob");
	st = pci_walk_(fdt, bufsize, &w, reason);
	/* UINT32_MAX is the walk's "no stop" mark: that walk validates the
	 * whole blob and counts every bridge; no tree holds 2^32 of them. */
	if (st == LIBVIRQ_OK && index == UINT32_MAX)
		st = virq_fdt_fail_(
		    reason, LIBVIRQ_ENOENT,
		    "fewer enabled generic PCI host bridges than the index asks for");
	if (st != LIBVIRQ_OK)
		memset(host, 0, sizeof(*host));
	else if (w.note && reason)
		*reason = w.note;
	return st;
}

virq_status virq_fdt_for_each_pci_host(const void *fdt, size_t bufsize, virq_fdt_pci_host_fn fn,
				       void *ctx, uint32_t *count, const char **reason)
{
	struct virq_fdt_pci_host h;
	struct pci_walk_ w = {UINT32_MAX, fn, ctx, 0, &h, NULL};
	virq_status st;

	if (reason)
		*reason = ok_reason_;
	if (count)
		*count = 0;
	if (!fdt || !fn)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no blob or no callback");
	st = pci_walk_(fdt, bufsize, &w, reason);
	if (count)
		*count = w.count;
	return st;
}

virq_status virq_fdt_pci_cfg_addr(const struct virq_fdt_pci_host *host, uint32_t bus,
				  uint32_t device, uint32_t function, uint32_t reg, uint64_t *addr)
{
	uint32_t shift;
	uint64_t off;

	if (!host || !addr ||
	    (host->layout != LIBVIRQ_FDT_PCI_ECAM && host->layout != LIBVIRQ_FDT_PCI_CAM))
		return LIBVIRQ_EINVAL;
	shift = host->layout == LIBVIRQ_FDT_PCI_ECAM ? 20u : 16u;
	if (bus < host->bus_start || bus > host->bus_end || device > 31 || function > 7 ||
	    reg >= (1u << (shift - 8u)))
		return LIBVIRQ_ERANGE;
	off = ((uint64_t)(bus - host->bus_start) << shift) | ((uint64_t)device << (shift - 5u)) |
	      ((uint64_t)function << (shift - 8u)) | reg;
	if (off >= host->cfg_size || host->cfg_base + off < host->cfg_base)
		return LIBVIRQ_ERANGE;
	*addr = host->cfg_base + off;
	return LIBVIRQ_OK;
}

/* ---------------- msi-map / msi-parent ---------------- */

/* Most distinct MSI controllers one map may name. */
#define LIBVIRQ_FDT_MSI_MAX_CTL_ 32u
/* Most #msi-cells libvirq steps over in an msi-parent list (dtc ff5afb9: bound it). */
#define LIBVIRQ_FDT_MSI_MAX_CELLS_ 8u

/* A controller an msi-map / msi-parent names, resolved once per call. */
struct msi_ctl_ {
	uint32_t phandle;
	int node;
	uint32_t cells; /* #msi-cells */
	int32_t its;	/* index in the description, or -1: not one of its ITSes */
};

struct msi_ctx_ {
	const void *fdt;
	const struct virq_gic_desc *desc;
	struct msi_ctl_ ctl[LIBVIRQ_FDT_MSI_MAX_CTL_];
	uint32_t nr_ctl;
};

/* A failed look-up: sets *st and *why, returns no controller. */
static const struct msi_ctl_ *ctl_fail_(virq_status *st, const char **why, virq_status code,
					const char *msg)
{
	*st = virq_fdt_fail_(why, code, msg);
	return NULL;
}

/*
 * Resolves @p ph (cached) to a controller; @p need_one: #msi-cells must be 1.
 * NULL (with *st and *why set) when it cannot.
 */
static const struct msi_ctl_ *ctl_(struct msi_ctx_ *x, uint32_t ph, bool need_one, virq_status *st,
				   const char **why)
{
	struct msi_ctl_ *c;
	uint32_t cells = 0;
	int node, r;

	for (uint32_t i = 0; i < x->nr_ctl; i++) {
		if (x->ctl[i].phandle != ph)
			continue;
		if (need_one && x->ctl[i].cells != 1)
			return ctl_fail_(st, why, LIBVIRQ_EBADDT,
					 "an msi-map controller's #msi-cells is not 1");
		return &x->ctl[i];
	}
	/* Devicetree Specification v0.4 §2.3.3: 0 and 0xffffffff are not phandles. */
	if (ph == 0 || ph == 0xffffffffu)
		return ctl_fail_(st, why, LIBVIRQ_EBADDT,
				 "an MSI controller phandle is 0 or 0xffffffff");
	if (x->nr_ctl == LIBVIRQ_FDT_MSI_MAX_CTL_)
		return ctl_fail_(st, why, LIBVIRQ_ENOSPC,
				 "more distinct MSI controllers than libvirq resolves (32)");
	node = fdt_node_offset_by_phandle(x->fdt, ph);
	if (node < 0)
		return ctl_fail_(st, why, LIBVIRQ_EBADDT,
				 "an MSI controller phandle names no node");
	if (!fdt_getprop(x->fdt, node, "msi-controller", NULL))
		return ctl_fail_(st, why, LIBVIRQ_EBADDT,
				 "an MSI controller phandle names a node without msi-controller");
	r = virq_fdt_u32_(x->fdt, node, "#msi-cells", &cells);
	if (r < 0)
		return ctl_fail_(st, why, LIBVIRQ_EBADDT,
				 "an MSI controller's #msi-cells is not a single cell");
	if (cells > LIBVIRQ_FDT_MSI_MAX_CELLS_)
		return ctl_fail_(st, why, LIBVIRQ_EBADDT,
				 "an MSI controller's #msi-cells is absurd (above 8)");
	if (need_one && (r == 0 || cells != 1))
		return ctl_fail_(st, why, LIBVIRQ_EBADDT,
				 "an msi-map controller's #msi-cells is not 1");
	c = &x->ctl[x->nr_ctl++];
	c->phandle = ph;
	c->node = node;
	c->cells = cells;
	c->its = -1;
	for (uint32_t i = 0; i < x->desc->nr_its && i < LIBVIRQ_GIC_MAX_ITS; i++) {
		if (x->desc->its[i].phandle == ph && x->desc->its[i].fdt_node == node) {
			c->its = (int32_t)i;
			break;
		}
	}
	return c;
}

struct msi_entry_ {
	uint32_t rid_base, devid_base, len;
	const struct msi_ctl_ *ctl;
};

static uint32_t be32_(const uint8_t *p)
{
	return (uint32_t)virq_fdt_cells_at_(p, 1);
}

/* Reads and checks entry @p i of @p map (every entry is checked before any match). */
static virq_status map_entry_(struct msi_ctx_ *x, const uint8_t *map, uint32_t i, uint32_t mask,
			      struct msi_entry_ *e, const char **why)
{
	const uint8_t *p = map + i * 16u;
	virq_status st;

	e->ctl = NULL;
	e->rid_base = be32_(p);
	e->devid_base = be32_(p + 8);
	e->len = be32_(p + 12);
	if (e->len == 0)
		return virq_fdt_bad_(why, "an msi-map entry has length 0");
	if ((uint64_t)e->rid_base + e->len > 0x100000000ull)
		return virq_fdt_bad_(why, "an msi-map entry's RID range passes 2^32");
	if ((uint64_t)e->devid_base + e->len > 0x100000000ull)
		return virq_fdt_bad_(why, "an msi-map entry's DeviceID range passes 2^32");
	if (e->rid_base & ~mask)
		return virq_fdt_bad_(why, "an msi-map rid-base has bits outside msi-map-mask");
	st = LIBVIRQ_EBADDT;
	e->ctl = ctl_(x, be32_(p + 4), true, &st, why);
	return e->ctl ? LIBVIRQ_OK : st;
}

/* Every one of the @n msi-map entries is well formed, and no two for one
 * controller overlap. */
static virq_status map_validate_(struct msi_ctx_ *x, const uint8_t *map, uint32_t n, uint32_t mask,
				 const char **why)
{
	for (uint32_t i = 0; i < n; i++) {
		struct msi_entry_ e;
		virq_status st = map_entry_(x, map, i, mask, &e, why);

		if (st != LIBVIRQ_OK || !e.ctl) /* map_entry_() sets ctl on success */
			return st != LIBVIRQ_OK ? st : LIBVIRQ_EBADDT;
		/* Same controller = same phandle (a node has one). Raw cells of the
		 * earlier entries, already checked: no look-up, O(n^2) loads. */
		for (uint32_t j = 0; j < i; j++) {
			const uint8_t *f = map + j * 16u;
			uint64_t fb = be32_(f), fl = be32_(f + 12);

			if (be32_(f + 4) == e.ctl->phandle && e.rid_base < fb + fl &&
			    fb < (uint64_t)e.rid_base + e.len)
				return virq_fdt_bad_(
				    why, "two msi-map entries for one controller overlap");
		}
	}
	return LIBVIRQ_OK;
}

static virq_status via_map_(struct msi_ctx_ *x, const uint8_t *map, int len, int node, uint32_t rid,
			    uint32_t filter, struct virq_fdt_msi_target *out, const char **why)
{
	uint32_t mask = 0xffffffffu, n, masked;
	bool matched = false, matched_its = false;
	virq_status st;
	int r;

	if (len <= 0 || (uint32_t)len % 16u != 0)
		return virq_fdt_bad_(why, "msi-map length is not a whole number of 4-cell entries");
	n = (uint32_t)len / 16u;
	if (n > LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES)
		return virq_fdt_fail_(why, LIBVIRQ_ENOSPC,
				      "msi-map has more entries than libvirq accepts (1024)");
	r = virq_fdt_u32_(x->fdt, node, "msi-map-mask", &mask);
	if (r < 0)
		return virq_fdt_bad_(why, "msi-map-mask is not a single cell");
	if (r > 0 && mask == 0)
		return virq_fdt_bad_(why, "msi-map-mask is 0 (every RID would alias)");
	/* Validate every entry, and the overlap rule, before matching any. */
	st = map_validate_(x, map, n, mask, why);
	if (st != LIBVIRQ_OK)
		return st;
	masked = rid & mask;
	for (uint32_t i = 0; i < n; i++) {
		struct msi_entry_ e;

		st = map_entry_(x, map, i, mask, &e, why); /* cannot fail: checked */

		if (st != LIBVIRQ_OK)
			return st;
		if (masked < e.rid_base || masked - e.rid_base >= e.len)
			continue;
		matched = true;
		if (e.ctl->its < 0)
			continue;
		matched_its = true;
		if (filter != LIBVIRQ_FDT_ANY_ITS && (uint32_t)e.ctl->its != filter)
			continue;
		out->its_index = (uint32_t)e.ctl->its;
		out->devid = masked - e.rid_base + e.devid_base;
		out->its_phandle = e.ctl->phandle;
		out->via = LIBVIRQ_FDT_MSI_VIA_MAP;
		return LIBVIRQ_OK;
	}
	if (matched_its)
		return virq_fdt_fail_(why, LIBVIRQ_ENOENT,
				      "no msi-map entry maps the RID to the requested ITS");
	if (matched)
		return virq_fdt_fail_(
		    why, LIBVIRQ_ENOTSUP,
		    "the RID maps only to MSI controllers that are not ITSes of the description");
	return virq_fdt_fail_(why, LIBVIRQ_ENOENT, "no msi-map entry matches the RID");
}

/* Steps over entry @p off of msi-parent (phandle + #msi-cells cells). */
static virq_status parent_entry_(struct msi_ctx_ *x, const uint8_t *p, uint32_t len, uint32_t *off,
				 const struct msi_ctl_ **c, const char **why)
{
	virq_status st = LIBVIRQ_EBADDT;

	*c = ctl_(x, be32_(p + *off), false, &st, why);
	if (!*c)
		return st;
	/* A lone phandle (no specifier) is accepted whatever #msi-cells says. */
	if (len == 4) {
		*off = 4;
		return LIBVIRQ_OK;
	}
	if ((uint64_t)*off + 4u + (*c)->cells * 4u > len)
		return virq_fdt_bad_(why, "msi-parent ends inside a controller's specifier");
	if ((*c)->its >= 0 && (*c)->cells != 1)
		return virq_fdt_bad_(why, "an ITS's #msi-cells is not 1");
	*off += 4u + (*c)->cells * 4u;
	return LIBVIRQ_OK;
}

static virq_status via_parent_(struct msi_ctx_ *x, int node, uint32_t rid, uint32_t filter,
			       struct virq_fdt_msi_target *out, const char **why)
{
	int len = 0;
	const uint8_t *p = fdt_getprop(x->fdt, node, "msi-parent", &len);
	const struct msi_ctl_ *c;
	bool its_seen = false;
	uint32_t off;
	virq_status st;

	if (!p) {
		if (len != -FDT_ERR_NOTFOUND)
			return virq_fdt_bad_(why, "cannot read msi-parent");
		return virq_fdt_fail_(why, LIBVIRQ_ENOENT,
				      "the node has neither msi-map nor msi-parent");
	}
	if (len <= 0 || len % 4 != 0)
		return virq_fdt_bad_(why, "msi-parent is not a whole number of cells");
	/* Validate the whole list first, whichever controller is picked. */
	for (off = 0; off < (uint32_t)len;) {
		st = parent_entry_(x, p, (uint32_t)len, &off, &c, why);
		if (st != LIBVIRQ_OK)
			return st;
	}
	for (off = 0; off < (uint32_t)len;) {
		st = parent_entry_(x, p, (uint32_t)len, &off, &c, why); /* cannot fail: checked */
		if (st != LIBVIRQ_OK)
			return st;
		if (c->its < 0)
			continue;
		its_seen = true;
		if (filter != LIBVIRQ_FDT_ANY_ITS && (uint32_t)c->its != filter)
			continue;
		out->its_index = (uint32_t)c->its;
		out->devid = rid;
		out->its_phandle = c->phandle;
		out->via = LIBVIRQ_FDT_MSI_VIA_PARENT;
		return LIBVIRQ_OK;
	}
	if (its_seen)
		return virq_fdt_fail_(why, LIBVIRQ_ENOENT,
				      "msi-parent does not name the requested ITS");
	return virq_fdt_fail_(why, LIBVIRQ_ENOTSUP, "msi-parent names no ITS of the description");
}

static virq_status msi_map_(struct msi_ctx_ *x, size_t bufsize, int32_t node, uint32_t rid,
			    uint32_t filter, struct virq_fdt_msi_target *out, const char **why)
{
	int len = 0;
	const uint8_t *map;
	virq_status st = virq_fdt_check_blob_(x->fdt, bufsize, why);

	if (st != LIBVIRQ_OK)
		return st;
	if (!virq_fdt_node_ok_(x->fdt, node))
		return virq_fdt_fail_(why, LIBVIRQ_EINVAL,
				      "the node offset names no node of this blob");
	map = fdt_getprop(x->fdt, node, "msi-map", &len);
	if (map)
		return via_map_(x, map, len, node, rid, filter, out, why);
	if (len != -FDT_ERR_NOTFOUND)
		return virq_fdt_bad_(why, "cannot read msi-map");
	return via_parent_(x, node, rid, filter, out, why);
}

virq_status virq_fdt_msi_map(const void *fdt, size_t bufsize, const struct virq_gic_desc *desc,
			     int32_t node, uint32_t rid, uint32_t its_filter,
			     struct virq_fdt_msi_target *out, const char **reason)
{
	struct msi_ctx_ x;
	virq_status st;

	if (reason)
		*reason = ok_reason_;
	if (!out)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no output target");
	memset(out, 0, sizeof(*out));
	if (!fdt || !desc)
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL, "no blob or no GIC description");
	if (its_filter != LIBVIRQ_FDT_ANY_ITS &&
	    (its_filter >= desc->nr_its || its_filter >= LIBVIRQ_GIC_MAX_ITS))
		return virq_fdt_fail_(reason, LIBVIRQ_EINVAL,
				      "its_filter is not an ITS index of the description");
	if (rid > 0xffffu)
		return virq_fdt_fail_(reason, LIBVIRQ_ERANGE, "the requester ID is above 0xffff");
	x.fdt = fdt;
	x.desc = desc;
	x.nr_ctl = 0;
	st = msi_map_(&x, bufsize, node, rid, its_filter, out, reason);
	if (st != LIBVIRQ_OK)
		memset(out, 0, sizeof(*out));
	return st;
}
