/* SPDX-License-Identifier: MIT */
/*
 * virqtool dt FILE.dtb [rid=N] [host=N] [its=N]
 *
 * Without rid=: the GIC topology libvirq's discovery finds in a tree (GICD,
 * redistributor regions, skipped empty ones, GICC/GICH/GICV, ITSes with
 * their phandles) and every generic PCI host bridge (configuration window,
 * bus range, address windows). With rid=: where that requester ID's MSIs
 * go, through host bridge host= (default 0)'s msi-map or msi-parent,
 * optionally only to ITS its= (an index of the "its" lines).
 */
#include "virqtool.h"

#include <libvirq/fdt.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads at most LIBVIRQ_FDT_MAX_SIZE + 1 bytes (so an oversized file is noticed). */
static int read_file_(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = (size_t)LIBVIRQ_FDT_MAX_SIZE + 1, n;

	*buf = NULL;
	if (!f)
		return vt_fail("dt: cannot open '%s'", path);
	*buf = malloc(cap); /* malloc's alignment satisfies libfdt's 8 bytes */
	if (!*buf) {
		fclose(f);
		return vt_fail("dt: out of memory");
	}
	n = fread(*buf, 1, cap, f);
	if (ferror(f)) {
		fclose(f);
		free(*buf);
		return vt_fail("dt: cannot read '%s'", path);
	}
	fclose(f);
	if (n > LIBVIRQ_FDT_MAX_SIZE) {
		free(*buf);
		return vt_fail("dt: '%s' is larger than 64 MiB", path);
	}
	*len = n;
	return 0;
}

static void frame_(const char *name, uint64_t base, uint64_t size)
{
	if (size)
		fprintf(vt_out, "%s base=0x%" PRIx64 " size=0x%" PRIx64 "\n", name, base, size);
}

static void print_gic_(const struct virq_gic_desc *d, const char *why)
{
	fprintf(vt_out, "gicd base=0x%" PRIx64 " size=0x%" PRIx64 "\n", d->gicd_base, d->gicd_size);
	for (uint32_t i = 0; i < d->nr_redist_regions; i++)
		fprintf(vt_out, "gicr base=0x%" PRIx64 " size=0x%" PRIx64 " stride=0x%" PRIx64 "\n",
			d->redist[i].base, d->redist[i].size, d->redist[i].stride);
	if (d->nr_redist_skipped)
		fprintf(vt_out, "gicr skipped=%" PRIu32 " (empty regions)\n", d->nr_redist_skipped);
	frame_("gicc", d->gicc_base, d->gicc_size);
	frame_("gich", d->gich_base, d->gich_size);
	frame_("gicv", d->gicv_base, d->gicv_size);
	for (uint32_t i = 0; i < d->nr_its; i++)
		fprintf(vt_out, "its base=0x%" PRIx64 " size=0x%" PRIx64 " phandle=0x%" PRIx32 "\n",
			d->its[i].base, d->its[i].size, d->its[i].phandle);
	if (strcmp(why, "ok") != 0)
		fprintf(vt_out, "note: %s\n", why);
}

static const char *space_(uint32_t s)
{
	static const char *const names[] = {"config", "io", "mem32", "mem64"};

	return s < 4 ? names[s] : "?";
}

/* Checks a host bridge (the first walk prints nothing). */
static int check_host_(void *ctx, uint32_t index, const struct virq_fdt_pci_host *h,
		       const char *note)
{
	(void)ctx;
	(void)index;
	(void)h;
	(void)note;
	return 0;
}

static int print_host_(void *ctx, uint32_t i, const struct virq_fdt_pci_host *h, const char *note)
{
	(void)ctx;
	fprintf(vt_out,
		"pci %" PRIu32 " %s cfg=0x%" PRIx64 " size=0x%" PRIx64 " bus=0x%" PRIx32
		"-0x%" PRIx32 "%s%s\n",
		i, h->layout == LIBVIRQ_FDT_PCI_ECAM ? "ecam" : "cam", h->cfg_base, h->cfg_size,
		h->bus_start, h->bus_end, h->flags & LIBVIRQ_FDT_PCI_HAS_MSI_MAP ? " msi-map" : "",
		h->flags & LIBVIRQ_FDT_PCI_HAS_MSI_PARENT ? " msi-parent" : "");
	for (uint32_t r = 0; r < h->nr_ranges; r++)
		fprintf(vt_out,
			"pci %" PRIu32 " %s%s pci=0x%" PRIx64 " cpu=0x%" PRIx64 " size=0x%" PRIx64
			"\n",
			i, space_(h->ranges[r].space), h->ranges[r].prefetchable ? " pref" : "",
			h->ranges[r].pci_base, h->ranges[r].cpu_base, h->ranges[r].size);
	if (strcmp(note, "ok") != 0)
		fprintf(vt_out, "note: pci %" PRIu32 ": %s\n", i, note);
	return 0;
}

/*
 * Every host bridge, in one walk of the tree each (virq_fdt_for_each_pci_host:
 * linear in the tree's size). All are checked before anything is printed, so
 * a malformed one gives the tool's one-line error and no output.
 */
static int hosts_(const uint8_t *blob, size_t len, const char *path, const struct virq_gic_desc *d,
		  const char *gic_note)
{
	uint32_t nr = 0;
	const char *why = NULL;
	virq_status st = virq_fdt_for_each_pci_host(blob, len, check_host_, NULL, &nr, &why);

	if (st != LIBVIRQ_OK)
		return vt_fail("dt: %s: PCI host bridge %" PRIu32 ": %s (%s)", path, nr, why,
			       virq_strerror(st));
	print_gic_(d, gic_note);
	if (virq_fdt_for_each_pci_host(blob, len, print_host_, NULL, &nr, &why) != LIBVIRQ_OK)
		return vt_fail("dt: %s: the tree changed while it was read",
			       path); /* cannot happen */
	return 0;
}

static int arg_u32_(struct vt_kv *kv, int n, const char *name, uint32_t max, uint32_t *out)
{
	struct vt_kv *a = vt_kv_find(kv, n, name, NULL);
	uint64_t v = 0;

	if (!a)
		return 0;
	if (!vt_parse_u64(a->value, &v) || v > max) {
		(void)vt_fail("dt: %s=%s is not a number 0..0x%" PRIx32, name, a->value, max);
		return -1;
	}
	*out = (uint32_t)v;
	return 1;
}

/* rid= [host=] [its=]: one MSI look-up. */
static int msi_(const uint8_t *blob, size_t len, const char *path, const struct virq_gic_desc *d,
		struct vt_kv *kv, int n)
{
	uint32_t rid = 0, host = 0, its = LIBVIRQ_FDT_ANY_ITS;
	struct virq_fdt_pci_host h;
	struct virq_fdt_msi_target t;
	const struct vt_kv *extra;
	const char *why = NULL;
	virq_status st;

	if (arg_u32_(kv, n, "rid", 0xffff, &rid) < 0 ||
	    arg_u32_(kv, n, "host", 0xffff, &host) < 0 || arg_u32_(kv, n, "its", 15, &its) < 0)
		return VIRQTOOL_EBADINPUT;
	/* Checked here so the error names the argument, not the library's parameter. */
	if (its != LIBVIRQ_FDT_ANY_ITS && its >= d->nr_its && d->nr_its == 0)
		return vt_fail("dt: %s: its=%" PRIu32 ": the tree has no enabled ITS", path, its);
	if (its != LIBVIRQ_FDT_ANY_ITS && its >= d->nr_its)
		return vt_fail("dt: %s: its=%" PRIu32
			       ": no such ITS (the tree's are its=0..%" PRIu32 ")",
			       path, its, d->nr_its - 1);
	extra = vt_kv_unused(kv, n);
	if (extra)
		return vt_fail("dt: unknown argument '%.*s'", (int)extra->name_len, extra->name);
	st = virq_fdt_discover_pci_host(blob, len, host, &h, &why);
	if (st != LIBVIRQ_OK)
		return vt_fail("dt: %s: PCI host bridge %" PRIu32 ": %s (%s)", path, host, why,
			       virq_strerror(st));
	st = virq_fdt_msi_map(blob, len, d, h.node, rid, its, &t, &why);
	if (st != LIBVIRQ_OK)
		return vt_fail("dt: %s: rid 0x%" PRIx32 ": %s (%s)", path, rid, why,
			       virq_strerror(st));
	fprintf(vt_out,
		"rid=0x%" PRIx32 " its=%" PRIu32 " base=0x%" PRIx64 " phandle=0x%" PRIx32
		" devid=0x%" PRIx32 " via=%s\n",
		rid, t.its_index, d->its[t.its_index].base, t.its_phandle, t.devid,
		t.via == LIBVIRQ_FDT_MSI_VIA_MAP ? "msi-map" : "msi-parent");
	return 0;
}

int virqtool_dt(int argc, char **argv)
{
	struct virq_gic_desc d;
	struct vt_kv kv[4];
	const char *why = NULL;
	uint8_t *blob = NULL;
	size_t len = 0;
	virq_status st;
	int rc, n = 0;

	if (argc == 1 && vt_is_help(argv[0])) {
		fputs(
		    "usage: virqtool dt FILE.dtb [rid=N [host=N] [its=N]]\n"
		    "  without rid=: what libvirq's discovery (libvirq/fdt.h) finds in a "
		    "flattened\n"
		    "  device tree: gicd, gicr (and skipped empty regions), gicc/gich/gicv, its\n"
		    "  lines with base, size and phandle, and every generic PCI host bridge\n"
		    "  (configuration window, bus range, I/O and memory windows)\n"
		    "  rid=N: where requester ID N (bus << 8 | device << 3 | function) sends its\n"
		    "  MSIs through host bridge host= (default 0)'s msi-map or msi-parent: the "
		    "ITS\n"
		    "  (only ITS its= when given) and the DeviceID\n",
		    vt_out);
		return 0;
	}
	if (argc < 1)
		return vt_fail("dt: usage: virqtool dt FILE.dtb [rid=N [host=N] [its=N]]");
	if (argc > 1) {
		n = vt_kv_parse(argc - 1, argv + 1, kv, 4);
		if (n < 0)
			return VIRQTOOL_EBADINPUT;
		if (!vt_kv_find(kv, n, "rid", NULL))
			return vt_fail("dt: usage: virqtool dt FILE.dtb [rid=N [host=N] [its=N]]");
	}
	rc = read_file_(argv[0], &blob, &len);
	if (rc)
		return rc;
	st = virq_fdt_discover_gic(blob, len, &d, &why);
	if (st != LIBVIRQ_OK) {
		free(blob);
		return vt_fail("dt: %s: %s (%s)", argv[0], why, virq_strerror(st));
	}
	if (n > 0)
		rc = msi_(blob, len, argv[0], &d, kv, n);
	else
		rc = hosts_(blob, len, argv[0], &d, why);
	free(blob);
	return rc;
}
