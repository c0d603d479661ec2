/* SPDX-License-Identifier: MIT */
/*
 * `virqtool dt` is linear in the tree's size (ctest virqtool_dt_linear).
 *
 * Counts work, not time: this program is virqtool's own code linked with
 * libfdt's static archive under `-Wl,--wrap=fdt_next_tag,--wrap=fdt_next_node`,
 * so every step libvirq or libfdt's lookup functions take over the tree's
 * tags and nodes (each call from one libfdt object file into another, and
 * every call from libvirq) goes through a counter. It builds trees of a GIC,
 * an ITS and N PCI host bridges with libfdt's sequential-write functions,
 * runs `virqtool dt FILE` and `virqtool dt FILE rid=0x10 host=N-1` on
 * N = 64 and N = 256, and fails unless 4 times the host bridges cost at
 * most 5 times the steps (linear: 4; the quadratic walk of 0.2: about 16).
 *
 * usage: dt_work WORK_DIR
 */
#include "virqtool.h"

#include <libfdt.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t steps_;

uint32_t __real_fdt_next_tag(const void *fdt, int offset, int *nextoffset);
uint32_t __wrap_fdt_next_tag(const void *fdt, int offset, int *nextoffset);
int __real_fdt_next_node(const void *fdt, int offset, int *depth);
int __wrap_fdt_next_node(const void *fdt, int offset, int *depth);

uint32_t __wrap_fdt_next_tag(const void *fdt, int offset, int *nextoffset)
{
	steps_++;
	return __real_fdt_next_tag(fdt, offset, nextoffset);
}

int __wrap_fdt_next_node(const void *fdt, int offset, int *depth)
{
	steps_++;
	return __real_fdt_next_node(fdt, offset, depth);
}

/* Big-endian cells for fdt_property(). */
static void cells_(uint32_t *out, const uint32_t *v, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = cpu_to_fdt32(v[i]);
}

static int prop_cells_(void *fdt, const char *name, const uint32_t *v, int n)
{
	uint32_t be[8];

	cells_(be, v, n);
	return fdt_property(fdt, name, be, n * 4);
}

/* One host bridge like QEMU virt's, its own configuration window and RID range. */
static int bridge_(void *fdt, uint32_t i)
{
	uint64_t cfg = 0x4000000000ull + (uint64_t)i * 0x10000000ull;
	uint32_t reg[4] = {(uint32_t)(cfg >> 32), (uint32_t)cfg, 0, 0x10000000u};
	uint32_t bus[2] = {0, 0xff};
	uint32_t ranges[7] = {0x2000000u, 0, 0x10000000u, 0, 0x10000000u, 0, 0x1000000u};
	uint32_t map[4] = {0, 1 /* the ITS's phandle */, i * 0x10000u, 0x10000u};
	char name[32];

	snprintf(name, sizeof(name), "pcie@%" PRIx64, cfg);
	return fdt_begin_node(fdt, name) ||
	       fdt_property_string(fdt, "compatible", "pci-host-ecam-generic") ||
	       fdt_property_string(fdt, "device_type", "pci") ||
	       fdt_property_u32(fdt, "#address-cells", 3) ||
	       fdt_property_u32(fdt, "#size-cells", 2) || prop_cells_(fdt, "reg", reg, 4) ||
	       prop_cells_(fdt, "bus-range", bus, 2) || prop_cells_(fdt, "ranges", ranges, 7) ||
	       prop_cells_(fdt, "msi-map", map, 4) || fdt_end_node(fdt);
}

static int gic_(void *fdt)
{
	uint32_t reg[8] = {0, 0x8000000u, 0, 0x10000u, 0, 0x80a0000u, 0, 0xf60000u};
	uint32_t its_reg[4] = {0, 0x8080000u, 0, 0x20000u};

	return fdt_begin_node(fdt, "interrupt-controller@8000000") ||
	       fdt_property_string(fdt, "compatible", "arm,gic-v3") ||
	       fdt_property_u32(fdt, "#address-cells", 2) ||
	       fdt_property_u32(fdt, "#size-cells", 2) || fdt_property(fdt, "ranges", NULL, 0) ||
	       fdt_property(fdt, "interrupt-controller", NULL, 0) ||
	       prop_cells_(fdt, "reg", reg, 8) || fdt_begin_node(fdt, "msi-controller@8080000") ||
	       fdt_property_string(fdt, "compatible", "arm,gic-v3-its") ||
	       fdt_property(fdt, "msi-controller", NULL, 0) ||
	       fdt_property_u32(fdt, "#msi-cells", 1) || fdt_property_u32(fdt, "phandle", 1) ||
	       prop_cells_(fdt, "reg", its_reg, 4) || fdt_end_node(fdt) || fdt_end_node(fdt);
}

/* Writes a tree with @n host bridges to @path. */
static int make_tree_(const char *path, uint32_t n)
{
	int size = 4096 + (int)n * 512;
	void *fdt = calloc(1, (size_t)size);
	FILE *f;
	int bad;

	if (!fdt)
		return -1;
	bad = fdt_create(fdt, size) || fdt_finish_reservemap(fdt) || fdt_begin_node(fdt, "") ||
	      fdt_property_u32(fdt, "#address-cells", 2) ||
	      fdt_property_u32(fdt, "#size-cells", 2) || gic_(fdt);
	for (uint32_t i = 0; !bad && i < n; i++)
		bad = bridge_(fdt, i);
	bad = bad || fdt_end_node(fdt) || fdt_finish(fdt);
	f = bad ? NULL : fopen(path, "wb");
	if (f) {
		bad = fwrite(fdt, 1, fdt_totalsize(fdt), f) != fdt_totalsize(fdt);
		bad |= fclose(f) != 0;
	}
	free(fdt);
	return bad || !f ? -1 : 0;
}

/* Steps of one `virqtool dt PATH [ARGS]` run; UINT64_MAX when it fails. */
static uint64_t run_(const char *path, const char *a1, const char *a2)
{
	char *argv[] = {"virqtool", "dt", (char *)path, (char *)a1, (char *)a2, NULL};
	int argc = a1 ? (a2 ? 5 : 4) : 3;
	int rc;

	steps_ = 0;
	rc = virqtool_main(argc, argv);
	return rc == 0 ? steps_ : UINT64_MAX;
}

int main(int argc, char **argv)
{
	static const uint32_t sizes[2] = {64, 256};
	uint64_t list[2], msi[2];
	char path[2][4096], host[32];
	int fail = 0;

	if (argc != 2)
		return 2;
	vt_out = fopen("/dev/null", "w");
	vt_err = stderr;
	for (int k = 0; k < 2; k++) {
		snprintf(path[k], sizeof(path[k]), "%s/bridges%" PRIu32 ".dtb", argv[1], sizes[k]);
		snprintf(host, sizeof(host), "host=%" PRIu32, sizes[k] - 1);
		if (!vt_out || make_tree_(path[k], sizes[k])) {
			fprintf(stderr, "FAIL: cannot write %s\n", path[k]);
			return 1;
		}
		list[k] = run_(path[k], NULL, NULL);
		msi[k] = run_(path[k], "rid=0x10", host);
		printf("%" PRIu32 " host bridges: dt %" PRIu64 " steps (%" PRIu64
		       " per bridge), dt rid=0x10 %s %" PRIu64 " steps\n",
		       sizes[k], list[k], list[k] / sizes[k], host, msi[k]);
		if (list[k] == UINT64_MAX || msi[k] == UINT64_MAX) {
			fprintf(stderr, "FAIL: virqtool dt failed on %s\n", path[k]);
			return 1;
		}
	}
	/* Linear: 4x the bridges, about 4x the steps (plus the GIC's share). */
	if (list[1] > 5 * list[0]) {
		printf("FAIL: dt: 4x the host bridges took %.1fx the steps (quadratic?)\n",
		       (double)list[1] / (double)list[0]);
		fail = 1;
	}
	if (msi[1] > 5 * msi[0]) {
		printf("FAIL: dt rid=: 4x the host bridges took %.1fx the steps (quadratic?)\n",
		       (double)msi[1] / (double)msi[0]);
		fail = 1;
	}
	if (!fail)
		printf("ok: dt %.2fx, dt rid= %.2fx the steps for 4x the host bridges\n",
		       (double)list[1] / (double)list[0], (double)msi[1] / (double)msi[0]);
	return fail;
}
