/* SPDX-License-Identifier: MIT */
/* virqtool dt FILE.dtb: the GIC topology libvirq's discovery finds in a tree. */
#include "virqtool.h"

#include <libvirq/fdt.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads at most LIBVIRQ_FDT_MAX_SIZE + 1 bytes (so an oversized file is noticed). */
static int read_file_(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = (size_t)LIBVIRQ_FDT_MAX_SIZE + 1, n;

	if (!f)
		return vt_fail("dt: cannot open '%s'", path);
	*buf = malloc(cap);
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

int virqtool_dt(int argc, char **argv)
{
	struct virq_gic_desc d;
	const char *why = NULL;
	uint8_t *blob;
	size_t len = 0;
	virq_status st;
	int rc;

	if (argc == 1 && vt_is_help(argv[0])) {
		fputs("usage: virqtool dt FILE.dtb\n"
		      "  the GIC topology libvirq's discovery (libvirq/fdt.h) finds in a flattened\n"
		      "  device tree: gicd, gicr and its lines with base, size (and stride)\n",
		      vt_out);
		return 0;
	}
	if (argc != 1)
		return vt_fail("dt: usage: virqtool dt FILE.dtb");
	rc = read_file_(argv[0], &blob, &len);
	if (rc)
		return rc;
	st = virq_fdt_discover_gic(blob, len, &d, &why);
	free(blob);
	if (st != LIBVIRQ_OK)
		return vt_fail("dt: %s: %s (%s)", argv[0], why, virq_strerror(st));
	printf("gicd base=0x%" PRIx64 " size=0x%" PRIx64 "\n", d.gicd_base, d.gicd_size);
	for (uint32_t i = 0; i < d.nr_redist_regions; i++)
		printf("gicr base=0x%" PRIx64 " size=0x%" PRIx64 " stride=0x%" PRIx64 "\n",
		       d.redist[i].base, d.redist[i].size, d.redist[i].stride);
	for (uint32_t i = 0; i < d.nr_its; i++)
		printf("its base=0x%" PRIx64 " size=0x%" PRIx64 "\n", d.its[i].base, d.its[i].size);
	return 0;
}
