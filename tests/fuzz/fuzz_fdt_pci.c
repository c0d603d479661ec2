/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: PCI host bridges and device MSI topology from an
 * arbitrary device tree (virq_fdt_discover_pci_host(), virq_fdt_pci_cfg_addr(),
 * virq_fdt_msi_map(); bindings pci/host-generic-pci.yaml, pci/pci-msi.txt).
 *
 * Input: a DTB, optionally followed by bytes past its totalsize (the API
 * accepts a buffer longer than the blob); those trailing bytes, 2 at a time,
 * are extra requester IDs and node offsets to ask about, on top of a fixed
 * set (0x10 = QEMU's edu, 0x8010, 0xffff; 0x10000 must be refused).
 *
 * Structure-aware: LLVMFuzzerCustomMutator() mutates a valid tree through
 * libfdt half of the time: it picks a node and one of the properties the
 * parsers read (msi-map, msi-map-mask, msi-parent, #msi-cells, phandle,
 * reg, ranges, bus-range, #address-cells, #size-cells, status, compatible)
 * and rewrites a cell with an interesting value (0, 1, all ones, a real
 * phandle, a neighbour value), grows or shrinks it by one cell, deletes it,
 * or adds an msi-map entry; the other half is libFuzzer's byte mutation.
 * Seeds: QEMU 7.2 virt dumps and the unit tests' PCI trees.
 *
 * Properties checked:
 *  - every status is a documented one, every reason a non-empty string;
 *  - failure zeroes the output; calls are deterministic;
 *  - a host: 0 <= bus_start <= bus_end <= 255, the window covers every bus
 *    (so virq_fdt_pci_cfg_addr() of the last register of the last function
 *    of the last bus succeeds and stays inside it), no range empty or
 *    wrapping on either side, MEM32/I/O windows below 4 GiB;
 *  - an MSI target: an ITS of the description, found by phandle, and an
 *    independent re-reading of msi-map here (first matching entry for an ITS
 *    of the description, DeviceID = (RID & mask) - rid-base + msi-base) or
 *    msi-parent (DeviceID = RID) gives the same answer.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <libvirq/fdt.h>

#include "fuzz_common.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static uint32_t be32_(const void *p)
{
	const uint8_t *b = p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static int host_status_ok_(virq_status st)
{
	return st == LIBVIRQ_OK || st == LIBVIRQ_EBADDT || st == LIBVIRQ_ENOENT ||
	       st == LIBVIRQ_ENOSPC;
}

static int msi_status_ok_(virq_status st)
{
	return st == LIBVIRQ_OK || st == LIBVIRQ_EBADDT || st == LIBVIRQ_ENOENT ||
	       st == LIBVIRQ_ENOTSUP || st == LIBVIRQ_ENOSPC || st == LIBVIRQ_EINVAL ||
	       st == LIBVIRQ_ERANGE;
}

static void check_host_(const struct virq_fdt_pci_host *h)
{
	uint32_t shift = h->layout == LIBVIRQ_FDT_PCI_ECAM ? 20 : 16;
	uint64_t a = 0;

	FUZZ_CHECK(h->layout == LIBVIRQ_FDT_PCI_ECAM || h->layout == LIBVIRQ_FDT_PCI_CAM);
	FUZZ_CHECK(h->node > 0);
	FUZZ_CHECK(h->bus_start <= h->bus_end && h->bus_end <= 255);
	FUZZ_CHECK(h->cfg_size > 0 && h->cfg_base + h->cfg_size - 1 >= h->cfg_base);
	FUZZ_CHECK(((uint64_t)(h->bus_end - h->bus_start + 1) << shift) <= h->cfg_size);
	FUZZ_CHECK(virq_fdt_pci_cfg_addr(h, h->bus_end, 31, 7, (1u << (shift - 8)) - 1, &a) ==
		   LIBVIRQ_OK);
	FUZZ_CHECK(a >= h->cfg_base && a - h->cfg_base < h->cfg_size);
	FUZZ_CHECK(virq_fdt_pci_cfg_addr(h, h->bus_end + 1, 0, 0, 0, &a) == LIBVIRQ_ERANGE);
	FUZZ_CHECK(h->nr_ranges <= LIBVIRQ_FDT_PCI_MAX_RANGES);
	for (uint32_t i = 0; i < h->nr_ranges; i++) {
		const struct virq_fdt_pci_range *r = &h->ranges[i];

		FUZZ_CHECK(r->space <= LIBVIRQ_FDT_PCI_MEM64);
		FUZZ_CHECK(r->size > 0);
		FUZZ_CHECK(r->pci_base + r->size - 1 >= r->pci_base);
		FUZZ_CHECK(r->cpu_base + r->size - 1 >= r->cpu_base);
		if (r->space == LIBVIRQ_FDT_PCI_MEM32 || r->space == LIBVIRQ_FDT_PCI_IO)
			FUZZ_CHECK(r->pci_base + r->size - 1 <= 0xffffffffull);
	}
}

/* Index of the ITS whose phandle is @p ph and node @p node, or -1. */
static int its_of_(const struct virq_gic_desc *d, uint32_t ph, int node)
{
	for (uint32_t i = 0; i < d->nr_its; i++)
		if (d->its[i].phandle == ph && d->its[i].fdt_node == node)
			return (int)i;
	return -1;
}

/* Independent re-reading of an accepted answer. */
static void oracle_(const uint8_t *blob, const struct virq_gic_desc *d, int node, uint32_t rid,
		    uint32_t filter, const struct virq_fdt_msi_target *t)
{
	int len = 0, plen = 0;
	const uint8_t *map = fdt_getprop(blob, node, "msi-map", &len);

	FUZZ_CHECK(t->its_index < d->nr_its);
	FUZZ_CHECK(t->its_phandle == d->its[t->its_index].phandle && t->its_phandle != 0);
	FUZZ_CHECK(fdt_node_offset_by_phandle(blob, t->its_phandle) ==
		   d->its[t->its_index].fdt_node);
	FUZZ_CHECK(filter == LIBVIRQ_FDT_ANY_ITS || filter == t->its_index);
	if (map) {
		uint32_t mask = 0xffffffffu, masked;
		const uint8_t *mp = fdt_getprop(blob, node, "msi-map-mask", &plen);

		FUZZ_CHECK(t->via == LIBVIRQ_FDT_MSI_VIA_MAP);
		FUZZ_CHECK(len > 0 && len % 16 == 0);
		if (mp) {
			FUZZ_CHECK(plen == 4);
			mask = be32_(mp);
		}
		masked = rid & mask;
		for (int off = 0; off < len; off += 16) {
			uint32_t base = be32_(map + off), ph = be32_(map + off + 4);
			uint32_t out = be32_(map + off + 8), n = be32_(map + off + 12);
			int its;

			if (masked < base || masked - base >= n)
				continue;
			its = its_of_(d, ph, fdt_node_offset_by_phandle(blob, ph));
			if (its < 0 || (filter != LIBVIRQ_FDT_ANY_ITS && (uint32_t)its != filter))
				continue;
			FUZZ_CHECK((uint32_t)its == t->its_index);
			FUZZ_CHECK(t->devid == masked - base + out);
			return;
		}
		FUZZ_CHECK(!"msi-map has no entry for the answer");
	}
	FUZZ_CHECK(t->via == LIBVIRQ_FDT_MSI_VIA_PARENT);
	FUZZ_CHECK(fdt_getprop(blob, node, "msi-parent", &plen) != NULL);
	FUZZ_CHECK(t->devid == rid);
}

/* One look-up, checked; @p twice: also the determinism check (a second call). */
static void ask_(const uint8_t *blob, size_t size, const struct virq_gic_desc *d, int32_t node,
		 uint32_t rid, uint32_t filter, bool twice)
{
	struct virq_fdt_msi_target t, t2, zero;
	const char *why = NULL, *why2 = NULL;
	virq_status st = virq_fdt_msi_map(blob, size, d, node, rid, filter, &t, &why);

	FUZZ_CHECK(msi_status_ok_(st));
	FUZZ_CHECK(why != NULL && why[0] != '\0');
	if (twice) {
		virq_status st2 = virq_fdt_msi_map(blob, size, d, node, rid, filter, &t2, &why2);

		FUZZ_CHECK(st2 == st && memcmp(&t, &t2, sizeof(t)) == 0);
	}
	memset(&zero, 0, sizeof(zero));
	if (st != LIBVIRQ_OK) {
		FUZZ_CHECK(memcmp(&t, &zero, sizeof(t)) == 0);
		return;
	}
	FUZZ_CHECK(rid <= 0xffff);
	oracle_(blob, d, node, rid, filter, &t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t fixed_rids[] = {0x10, 0x8010, 0xffff};
	uint8_t *blob = malloc(size ? size : 1); /* exact size: ASan sees over-reads */
	struct virq_gic_desc d;
	struct fuzz_in extra = {NULL, 0};
	bool have_gic;

	FUZZ_CHECK(blob != NULL);
	memcpy(blob, data, size);
	have_gic = virq_fdt_discover_gic(blob, size, &d, NULL) == LIBVIRQ_OK;
	if (size >= 40 && be32_(blob) == FDT_MAGIC && be32_(blob + 4) < size) {
		extra.p = blob + be32_(blob + 4);
		extra.n = size - be32_(blob + 4);
	}
	for (uint32_t idx = 0; idx < 4; idx++) {
		struct virq_fdt_pci_host h, h2;
		const char *why = NULL;
		virq_status st = virq_fdt_discover_pci_host(blob, size, idx, &h, &why);

		FUZZ_CHECK(host_status_ok_(st));
		FUZZ_CHECK(why != NULL && why[0] != '\0');
		FUZZ_CHECK(virq_fdt_discover_pci_host(blob, size, idx, &h2, NULL) == st);
		FUZZ_CHECK(memcmp(&h, &h2, sizeof(h)) == 0);
		if (st != LIBVIRQ_OK) {
			FUZZ_CHECK(h.node == 0 && h.nr_ranges == 0 && h.cfg_size == 0);
			break;
		}
		check_host_(&h);
		if (!have_gic)
			continue;
		/* Each call validates the whole blob: keep the count per input small. */
		for (size_t r = 0; r < sizeof(fixed_rids) / sizeof(fixed_rids[0]); r++)
			ask_(blob, size, &d, h.node, fixed_rids[r], LIBVIRQ_FDT_ANY_ITS, r == 0);
		for (uint32_t i = 0; idx == 0 && i < d.nr_its && i < 2; i++)
			ask_(blob, size, &d, h.node, 0x10, i, false);
	}
	/* Trailing bytes: more RIDs against every host, and raw node offsets. */
	if (have_gic) {
		struct virq_fdt_pci_host h;
		bool have_host = virq_fdt_discover_pci_host(blob, size, 0, &h, NULL) == LIBVIRQ_OK;

		ask_(blob, size, &d, have_host ? h.node : 0, 0x10000, LIBVIRQ_FDT_ANY_ITS, false);
		for (unsigned k = 0; k < 8 && extra.n >= 2; k++) {
			uint16_t v = fuzz_u16(&extra);

			if (have_host)
				ask_(blob, size, &d, h.node, v, LIBVIRQ_FDT_ANY_ITS, false);
			ask_(blob, size, &d, (int32_t)(v & 0xfffcu), 0x10, LIBVIRQ_FDT_ANY_ITS,
			     false);
		}
	}
	free(blob);
	return 0;
}

/* ---------------- structure-aware mutation ---------------- */

static uint32_t rnd_(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static const char *const props_[] = {
    "msi-map",	      "msi-map-mask",
    "msi-parent",     "#msi-cells",
    "phandle",	      "reg",
    "ranges",	      "bus-range",
    "#address-cells", "#size-cells",
    "status",	      "compatible",
    "msi-controller", "#redistributor-regions",
};

/* A phandle that exists in the tree (or 0x8004 when none does). */
static uint32_t some_phandle_(const void *fdt, uint32_t *s)
{
	uint32_t max = fdt_get_max_phandle(fdt);

	return max && max != (uint32_t)-1 ? 1 + rnd_(s) % max : 0x8004;
}

static uint32_t interesting_(const void *fdt, uint32_t old, uint32_t *s)
{
	switch (rnd_(s) % 10) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 0xffffffffu;
	case 3:
		return some_phandle_(fdt, s);
	case 4:
		return old + 1;
	case 5:
		return old - 1;
	case 6:
		return old ^ (1u << (rnd_(s) % 32));
	case 7:
		return 0x10000;
	case 8:
		return 0x8000;
	default:
		return rnd_(s);
	}
}

static void mutate_prop_(void *fdt, int node, uint32_t *s)
{
	const char *name = props_[rnd_(s) % (sizeof(props_) / sizeof(props_[0]))];
	int len = 0;
	const uint8_t *p = fdt_getprop(fdt, node, name, &len);
	uint8_t buf[256];
	uint32_t n;

	if (!p || len < 0 || len > (int)sizeof(buf) - 16)
		len = 0;
	else
		memcpy(buf, p, (size_t)len);
	switch (rnd_(s) % 6) {
	case 0: /* delete */
		(void)fdt_delprop(fdt, node, name);
		return;
	case 1: /* one cell more */
		n = interesting_(fdt, 0, s);
		buf[len] = (uint8_t)(n >> 24), buf[len + 1] = (uint8_t)(n >> 16);
		buf[len + 2] = (uint8_t)(n >> 8), buf[len + 3] = (uint8_t)n;
		len += 4;
		break;
	case 2: /* one cell less */
		if (len >= 4)
			len -= 4;
		break;
	case 3: /* a new msi-map entry for an existing phandle */
		if (strcmp(name, "msi-map") != 0 || len > (int)sizeof(buf) - 32)
			break;
		for (int i = 0; i < 4; i++) {
			n = i == 1 ? some_phandle_(fdt, s) : interesting_(fdt, 0x100, s);
			buf[len] = (uint8_t)(n >> 24), buf[len + 1] = (uint8_t)(n >> 16);
			buf[len + 2] = (uint8_t)(n >> 8), buf[len + 3] = (uint8_t)n;
			len += 4;
		}
		break;
	default: /* rewrite one cell */
		if (len >= 4) {
			uint32_t at = 4 * (rnd_(s) % (uint32_t)(len / 4));

			n = interesting_(fdt, be32_(buf + at), s);
			buf[at] = (uint8_t)(n >> 24), buf[at + 1] = (uint8_t)(n >> 16);
			buf[at + 2] = (uint8_t)(n >> 8), buf[at + 3] = (uint8_t)n;
		}
		break;
	}
	(void)fdt_setprop(fdt, node, name, buf, len);
}

/* The blob's blocks in the canonical order, inside the blob, version >= 17
 * (sizes in the header), its memory reservation map terminated: libfdt
 * 1.6.1's fdt_open_into() takes fdt_num_mem_rsv()'s error code as a count
 * and memmoves a negative length otherwise (found by this fuzzer through
 * the mutator). The library never reads the reservation map. */
static int canonical_(const void *fdt, size_t size)
{
	uint64_t rsv, st, str, tot;

	if (size < sizeof(struct fdt_header))
		return 0;
	rsv = fdt_off_mem_rsvmap(fdt);
	st = fdt_off_dt_struct(fdt);
	str = fdt_off_dt_strings(fdt);
	tot = fdt_totalsize(fdt);
	return fdt_version(fdt) >= 17 && tot <= size && rsv >= sizeof(struct fdt_header) &&
	       rsv <= st && st + fdt_size_dt_struct(fdt) <= str &&
	       str + fdt_size_dt_strings(fdt) <= tot && fdt_num_mem_rsv(fdt) >= 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	uint32_t s = seed;
	void *work;
	int nodes = 0, node, pick;
	size_t out = 0;
	struct virq_fdt_pci_host h;

	/* Only a blob the library validated (an index no tree reaches gives
	 * ENOENT after the full check and node walk) goes to libfdt here:
	 * libfdt 1.6.1 itself crashes or loops on some invalid ones. */
	if ((rnd_(&s) & 1) || size > max_size ||
	    virq_fdt_discover_pci_host(data, size, 0xffffffffu, &h, NULL) != LIBVIRQ_ENOENT ||
	    fdt_totalsize(data) > 1u << 20 || !canonical_(data, size)) {
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
	}
	work = malloc((size_t)fdt_totalsize(data) + 4096);
	if (!work || fdt_open_into(data, work, (int)fdt_totalsize(data) + 4096) != 0) {
		free(work);
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
	}
	for (node = fdt_next_node(work, -1, NULL); node >= 0;
	     node = fdt_next_node(work, node, NULL))
		nodes++;
	for (unsigned m = 0, rounds = 1 + rnd_(&s) % 3; m < rounds && nodes > 0; m++) {
		pick = (int)(rnd_(&s) % (uint32_t)nodes);
		for (node = fdt_next_node(work, -1, NULL); node >= 0 && pick > 0; pick--)
			node = fdt_next_node(work, node, NULL);
		if (node >= 0)
			mutate_prop_(work, node, &s);
	}
	if (fdt_pack(work) == 0 && fdt_totalsize(work) <= max_size) {
		out = fdt_totalsize(work);
		memcpy(data, work, out);
	}
	free(work);
	return out ? out : (LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size);
}
