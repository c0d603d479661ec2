/* SPDX-License-Identifier: MIT */
/*
 * GIC discovery from device trees: trees dumped from QEMU at test time,
 * hand-built odd trees compiled with dtc at test time (gen_dtbs.sh), and
 * corrupted blobs made here (every shape of docs/rationale.md#fdt-hostile-blobs,
 * and the libfdt 1.6.1 gaps of dtc fda71da and 8d15a63).
 * This executable compiles src/gicv4/fdt.c itself with AddressSanitizer and
 * UBSan, and every blob is handed over in a heap buffer of exactly its size,
 * so any over-read is fatal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>

#include <libfdt.h>
#include <libvirq/fdt.h>

#ifndef LIBVIRQ_DTB_DIR
#error "LIBVIRQ_DTB_DIR must name the directory gen_dtbs.sh wrote"
#endif
#ifndef LIBVIRQ_FUZZ_CORPUS_DIR
#error "LIBVIRQ_FUZZ_CORPUS_DIR must name tests/fuzz/corpus/fuzz_fdt"
#endif
#ifndef LIBVIRQ_SEED_DIR
#error "LIBVIRQ_SEED_DIR must name tests/data/dtb"
#endif

/* Loads a file into a heap buffer of exactly its size. */
static uint8_t *load_path_(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s (did the fdt_gen_dtbs fixture run?)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static uint8_t *load_(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.dtb", LIBVIRQ_DTB_DIR, name);
	return load_path_(path, len);
}

static uint32_t be32_(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Discovers from a named generated tree; returns the status, fills d/why. */
static virq_status discover_named_(const char *name, struct virq_gic_desc *d, const char **why)
{
	size_t len;
	uint8_t *b = load_(name, &len);
	virq_status st = virq_fdt_discover_gic(b, len, d, why);

	free(b);
	return st;
}

static void expect_qemu_virt_(const struct virq_gic_desc *d, uint32_t nr_regions, uint32_t nr_its)
{
	assert_int_equal(d->gicd_base, 0x08000000);
	assert_int_equal(d->gicd_size, 0x10000);
	assert_int_equal(d->nr_redist_regions, nr_regions);
	assert_int_equal(d->redist[0].base, 0x080A0000);
	assert_int_equal(d->redist[0].size, 0xF60000);
	assert_int_equal(d->redist[0].stride, 0);
	if (nr_regions > 1) {
		/* QEMU's high redistributor region (VIRT_HIGH_GIC_REDIST2). */
		assert_int_equal(d->redist[1].base, 0x4000000000ull);
		assert_int_equal(d->redist[1].size, 0x4000000);
		assert_int_equal(d->redist[1].stride, 0);
	}
	assert_int_equal(d->nr_its, nr_its);
	if (nr_its) {
		assert_int_equal(d->its[0].base, 0x08080000);
		assert_int_equal(d->its[0].size, 0x20000);
		assert_false(d->its[0].dma_noncoherent);
	}
	assert_false(d->dma_noncoherent);
	assert_int_equal(d->platform, 0);
}

/*
 * QEMU 7.2: region 0 holds 123 GICv3 or 61 GICv4 redistributors; more CPUs
 * need the second (high) region.
 */
static void test_qemu_dumps(void **state)
{
	static const struct {
		const char *name;
		uint32_t regions, its;
	} cases[] = {
	    {"qemu_v3_smp1", 1, 1},  {"qemu_v3_smp8", 1, 1},  {"qemu_v3_smp128", 2, 1},
	    {"qemu_v3_noits", 1, 0}, {"qemu_v4_smp1", 1, 1},  {"qemu_v4_smp4", 1, 1},
	    {"qemu_v4_smp64", 2, 1}, {"qemu_v4_noits", 1, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct virq_gic_desc d;
		const char *why = NULL;

		print_message("  %s\n", cases[i].name);
		assert_int_equal(discover_named_(cases[i].name, &d, &why), LIBVIRQ_OK);
		assert_string_equal(why, "ok");
		expect_qemu_virt_(&d, cases[i].regions, cases[i].its);
	}
}

static void test_committed_seeds(void **state)
{
	static const char *const seeds[] = {"qemu_v4_smp1", "qemu_v3_smp128", "qemu_v4_noits",
					    "good_two_regions"};
	(void)state;
	for (size_t i = 0; i < 4; i++) {
		char path[512];
		struct virq_gic_desc d;
		size_t len;
		uint8_t *b;

		snprintf(path, sizeof(path), "%s/%s.dtb", LIBVIRQ_SEED_DIR, seeds[i]);
		b = load_path_(path, &len);
		assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
		assert_true(d.nr_redist_regions >= 1);
		free(b);
	}
}

static void test_two_regions_stride_noncoherent_rk3588(void **state)
{
	struct virq_gic_desc d;

	(void)state;
	assert_int_equal(discover_named_("good_two_regions", &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.gicd_base, 0xfe600000);
	assert_int_equal(d.gicd_size, 0x10000);
	assert_int_equal(d.nr_redist_regions, 2);
	assert_int_equal(d.redist[0].base, 0xfe680000);
	assert_int_equal(d.redist[0].size, 0x100000);
	assert_int_equal(d.redist[0].stride, 0x40000);
	assert_int_equal(d.redist[1].base, 0x100000000ull);
	assert_int_equal(d.redist[1].size, 0x80000);
	assert_int_equal(d.redist[1].stride, 0x40000);
	/* Disabled ITS skipped; ITS without msi-controller skipped. */
	assert_int_equal(d.nr_its, 2);
	assert_int_equal(d.its[0].base, 0xfe640000);
	assert_true(d.its[0].dma_noncoherent);
	assert_int_equal(d.its[1].base, 0xfe660000);
	assert_false(d.its[1].dma_noncoherent);
	assert_true(d.dma_noncoherent);
	assert_int_equal(d.platform, LIBVIRQ_GIC_PLAT_RK3588);
}

static void test_one_cell_and_extra_reg_entries(void **state)
{
	struct virq_gic_desc d;

	(void)state;
	assert_int_equal(discover_named_("good_cells1", &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.gicd_base, 0x2f000000);
	assert_int_equal(d.nr_redist_regions, 1);
	assert_int_equal(d.redist[0].base, 0x2f100000);
	assert_int_equal(d.redist[0].size, 0x200000);
	assert_int_equal(d.nr_its, 1);
	assert_int_equal(d.its[0].base, 0x2f020000);
	assert_int_equal(d.platform, 0);
	/* The entries after the redistributor region are GICC, GICH, GICV
	 * (were ignored before). */
	assert_int_equal(d.gicc_base, 0x2c000000);
	assert_int_equal(d.gicc_size, 0x2000);
	assert_int_equal(d.gich_base, 0x2c010000);
	assert_int_equal(d.gich_size, 0x2000);
	assert_int_equal(d.gicv_base, 0x2c02f000);
	assert_int_equal(d.gicv_size, 0x2000);
	assert_int_equal(d.skipped, 0);
	assert_int_equal(d.nr_redist_skipped, 0);
}

/*
 * An empty (size 0) redistributor region, which firmware does
 * publish, is left out with a note instead of failing the whole GIC; the
 * GICC/GICH/GICV entries follow the declared regions (their index depends
 * on #redistributor-regions) and are translated like the rest; the ITS's
 * phandle and node offset are recorded. Failed before (EBADDT "size 0").
 */
static void test_empty_redist_region_and_cpuif(void **state)
{
	struct virq_gic_desc d;
	const char *why = NULL;
	size_t len;
	uint8_t *b = load_("good_gicr_empty_cpuif", &len);
	int dev, plen = 0;
	const uint8_t *mp;

	(void)state;
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, &why), LIBVIRQ_OK);
	assert_non_null(strstr(why, "empty (size 0) redistributor region was skipped"));
	assert_int_equal(d.gicd_base, 0x11000000);
	assert_int_equal(d.nr_redist_regions, 2);
	assert_int_equal(d.redist[0].base, 0x11100000);
	assert_int_equal(d.redist[0].size, 0x40000);
	assert_int_equal(d.redist[1].base, 0x11300000);
	assert_int_equal(d.redist[1].size, 0x80000);
	assert_int_equal(d.nr_redist_skipped, 1);
	assert_int_equal(d.skipped, LIBVIRQ_GIC_SKIP_REDIST);
	assert_int_equal(d.gicc_base, 0x12000000);
	assert_int_equal(d.gicc_size, 0x2000);
	assert_int_equal(d.gich_base, 0x12010000);
	assert_int_equal(d.gich_size, 0x2000);
	assert_int_equal(d.gicv_base, 0x12020000);
	assert_int_equal(d.gicv_size, 0x2000);
	assert_int_equal(d.nr_its, 1);
	assert_int_equal(d.its[0].base, 0x11080000);
	/* The phandle is what a device's msi-parent names. */
	dev = fdt_path_offset(b, "/soc/dev@3000000");
	assert_true(dev > 0);
	mp = fdt_getprop(b, dev, "msi-parent", &plen);
	assert_non_null(mp);
	assert_int_equal(d.its[0].phandle, be32_(mp));
	assert_int_not_equal(d.its[0].phandle, 0);
	assert_int_equal(
	    d.its[0].fdt_node,
	    fdt_path_offset(b, "/soc/interrupt-controller@1000000/msi-controller@1080000"));
	free(b);

	assert_int_equal(discover_named_("good_cpuif_placeholder", &d, &why), LIBVIRQ_OK);
	assert_non_null(strstr(why, "GICC/GICH/GICV entry was skipped"));
	assert_int_equal(d.skipped, LIBVIRQ_GIC_SKIP_CPUIF);
	assert_int_equal(d.gicc_base, 0x2c000000);
	assert_int_equal(d.gich_base, 0x2c010000);
	assert_int_equal(d.gicv_base, 0);
	assert_int_equal(d.gicv_size, 0);
	assert_int_equal(d.nr_its, 0);

	/* 20 declared, 5 empty: 15 fit (any count above 16 was refused before). */
	assert_int_equal(discover_named_("good_gicr_many_empty", &d, &why), LIBVIRQ_OK);
	assert_int_equal(d.nr_redist_regions, 15);
	assert_int_equal(d.nr_redist_skipped, 5);
	for (uint32_t i = 0; i < 15; i++)
		assert_int_equal(d.redist[i].size, 0x20000);
	assert_int_equal(d.redist[14].base, 0x11300000);
	/* No ITS phandle in a tree without labels: 0, but the node is known. */
	assert_int_equal(discover_named_("good_two_regions", &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.its[0].phandle, 0);
	assert_true(d.its[0].fdt_node > 0);
}

static void test_ranges_translation(void **state)
{
	struct virq_gic_desc d;

	(void)state;
	assert_int_equal(discover_named_("good_soc_ranges", &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.gicd_base, 0x20100000);
	assert_int_equal(d.redist[0].base, 0x20200000);
	assert_int_equal(d.its[0].base, 0x20180000);
}

/* Sets a 32-bit property in place (same length) on the node at @p path. */
static void patch_u32_(uint8_t *b, const char *path, const char *prop, uint32_t v)
{
	int node = fdt_path_offset(b, path);

	assert_true(node >= 0);
	assert_int_equal(fdt_setprop_inplace_u32(b, node, prop, v), 0);
}

/*
 * Hostile shapes (docs/rationale.md#fdt-hostile-blobs) in properties GIC
 * discovery never follows (it resolves no phandles and reads no
 * interrupt-map): interrupt-parent 0 and -1,
 * #msi-cells 0xffffffff with an msi-parent pointing at it, an interrupt-map
 * one cell short. Discovery must give the same answer, immediately.
 */
static void test_unfollowed_phandle_and_cells_shapes_ignored(void **state)
{
	struct virq_gic_desc d;
	size_t len;
	uint8_t *b = load_("good_soc_ranges", &len);
	int node, plen = 0;
	const fdt32_t *map;

	(void)state;
	patch_u32_(b, "/soc/dev0@300000", "interrupt-parent", 0);
	patch_u32_(b, "/soc/dev1@301000", "interrupt-parent", 0xffffffffu);
	patch_u32_(b, "/soc/interrupt-controller@100000/msi-controller@180000", "#msi-cells",
		   0xffffffffu);
	node = fdt_path_offset(b, "/soc/pci@400000");
	assert_true(node >= 0);
	map = fdt_getprop(b, node, "interrupt-map", &plen);
	assert_non_null(map);
	assert_int_equal(plen, 9 * 4);
	/* One cell short: rewrite the property with 8 cells (shrinks in place). */
	assert_int_equal(fdt_setprop(b, node, "interrupt-map", map, 8 * 4), 0);
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.gicd_base, 0x20100000);
	assert_int_equal(d.its[0].base, 0x20180000);
	free(b);
}

static void expect_bad_(const char *name, virq_status want, const char *why_substr)
{
	struct virq_gic_desc d;
	const char *why = NULL;
	virq_status st;

	print_message("  %s\n", name);
	memset(&d, 0xa5, sizeof(d));
	st = discover_named_(name, &d, &why);
	assert_int_equal(st, want);
	assert_non_null(why);
	if (!strstr(why, why_substr))
		fail_msg("%s: reason '%s' does not mention '%s'", name, why, why_substr);
	/* On failure the description is zeroed, not half-filled. */
	assert_int_equal(d.nr_redist_regions, 0);
	assert_int_equal(d.nr_its, 0);
	assert_int_equal(d.gicd_base, 0);
}

static void test_hand_built_bad_trees(void **state)
{
	(void)state;
	expect_bad_("bad_cells00", LIBVIRQ_EBADDT, "#address-cells");
	expect_bad_("bad_size_cells0", LIBVIRQ_EBADDT, "#size-cells is 0");
	expect_bad_("bad_addr_cells3", LIBVIRQ_EBADDT, "#address-cells is not 1 or 2");
	expect_bad_("bad_addr_cells_huge", LIBVIRQ_EBADDT, "#address-cells is not 1 or 2");
	expect_bad_("bad_cells_len", LIBVIRQ_EBADDT, "single cell");
	expect_bad_("bad_reg_short", LIBVIRQ_EBADDT, "fewer entries");
	expect_bad_("bad_reg_partial", LIBVIRQ_EBADDT, "whole number");
	expect_bad_("bad_no_reg", LIBVIRQ_EBADDT, "no reg");
	expect_bad_("bad_nrr0", LIBVIRQ_EBADDT, "#redistributor-regions");
	expect_bad_("bad_nrr_huge", LIBVIRQ_EBADDT, "#redistributor-regions");
	expect_bad_("bad_nrr_len", LIBVIRQ_EBADDT, "#redistributor-regions");
	expect_bad_("bad_nrr_more_than_reg", LIBVIRQ_EBADDT, "fewer entries");
	expect_bad_("bad_gicd_size0", LIBVIRQ_EBADDT, "size 0");
	expect_bad_("bad_gicr_size0", LIBVIRQ_EBADDT, "size 0");
	expect_bad_("bad_its_size0", LIBVIRQ_EBADDT, "size 0");
	expect_bad_("bad_wrap", LIBVIRQ_EBADDT, "wraps");
	expect_bad_("bad_stride_1cell", LIBVIRQ_EBADDT, "redistributor-stride");
	expect_bad_("bad_stride_unaligned", LIBVIRQ_EBADDT, "redistributor-stride");
	expect_bad_("bad_stride_zero", LIBVIRQ_EBADDT, "redistributor-stride");
	expect_bad_("bad_outside_ranges", LIBVIRQ_EBADDT, "outside");
	expect_bad_("bad_no_ranges", LIBVIRQ_EBADDT, "no ranges");
	expect_bad_("bad_ranges_partial", LIBVIRQ_EBADDT, "ranges length");
	expect_bad_("bad_gicr_all_empty", LIBVIRQ_EBADDT, "every redistributor region is empty");
	expect_bad_("bad_gicv_wrap", LIBVIRQ_EBADDT, "wraps");
	expect_bad_("bad_gicc_outside_ranges", LIBVIRQ_EBADDT, "outside");
	expect_bad_("toomany_gicr", LIBVIRQ_ENOSPC, "more redistributor regions");
	expect_bad_("none_gic", LIBVIRQ_ENOENT, "no enabled arm,gic-v3");
	expect_bad_("disabled_gic", LIBVIRQ_ENOENT, "no enabled arm,gic-v3");
}

static void test_null_and_tiny(void **state)
{
	struct virq_gic_desc d;
	const char *why = NULL;
	uint8_t *tiny = malloc(8);

	(void)state;
	assert_int_equal(virq_fdt_discover_gic(NULL, 100, &d, &why), LIBVIRQ_EINVAL);
	assert_int_equal(virq_fdt_discover_gic(tiny, 8, NULL, &why), LIBVIRQ_EINVAL);
	memset(tiny, 0, 8);
	assert_int_equal(virq_fdt_discover_gic(tiny, 8, &d, &why), LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "header"));
	free(tiny);
}

/* Copies @p src[0..n) into a fresh exact-size heap buffer (ASan catches over-reads). */
static uint8_t *dup_(const uint8_t *src, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	assert_non_null(b);
	memcpy(b, src, n);
	return b;
}

static void put_be32_(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static virq_status run_(const uint8_t *b, size_t n, const char **why)
{
	struct virq_gic_desc d;
	uint8_t *c = dup_(b, n);
	virq_status st = virq_fdt_discover_gic(c, n, &d, why);

	if (st == LIBVIRQ_OK) {
		/* Whatever a mutated blob yields must still be a sane description. */
		assert_true(d.gicd_size > 0);
		assert_true(d.nr_redist_regions >= 1 && d.nr_redist_regions <= 16);
		assert_true(d.nr_its <= 16);
		for (uint32_t i = 0; i < d.nr_redist_regions; i++)
			assert_true(d.redist[i].size > 0);
	}
	free(c);
	return st;
}

static void test_header_corruptions(void **state)
{
	size_t len;
	uint8_t *b = load_("qemu_v4_smp1", &len);
	uint8_t *c;
	const char *why;

	(void)state;
	/* Bad magic. */
	c = dup_(b, len);
	c[0] ^= 0xff;
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "magic"));
	free(c);
	/* Version from the future (last_comp_version 18). */
	c = dup_(b, len);
	put_be32_(c + 24, 18);
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	free(c);
	/* totalsize larger than the buffer. */
	c = dup_(b, len);
	put_be32_(c + 4, (uint32_t)len + 4096);
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "truncated"));
	free(c);
	/* Structure block offset past the end. */
	c = dup_(b, len);
	put_be32_(c + 8, 0xfffffff0u);
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	free(c);
	/* Strings block size huge (offset + size overflows 32 bits). */
	c = dup_(b, len);
	put_be32_(c + 32, 0xfffffff0u);
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	free(c);
	/* Structure block size 0. */
	c = dup_(b, len);
	put_be32_(c + 36, 0);
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	free(c);
	free(b);
}

/*
 * Regression (a crash in device-tree discovery): a structurally valid
 * blob whose header says version < 16 made libfdt 1.6.1's fdt_check_full()
 * dereference NULL (upstream dtc fda71da). Every pre-16 version, with every
 * last_comp_version it may carry, must be rejected before libfdt runs;
 * 16 and 17 are accepted. Failed (SEGV) before the fix.
 */
static void test_old_versions_rejected(void **state)
{
	size_t len;
	uint8_t *b = load_("good_two_regions", &len);

	(void)state;
	for (uint32_t v = 0; v < 16; v++) {
		for (uint32_t lc = 0; lc <= v + 1 && lc <= 16; lc++) {
			uint8_t *c = dup_(b, len);
			const char *why = NULL;

			put_be32_(c + 20, v);
			put_be32_(c + 24, lc);
			assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
			if (!strstr(why, "version"))
				fail_msg("version %u/%u: reason '%s'", v, lc, why);
			free(c);
		}
	}
	for (uint32_t v = 16; v <= 17; v++) {
		uint8_t *c = dup_(b, len);

		put_be32_(c + 20, v);
		put_be32_(c + 24, 16);
		assert_int_equal(run_(c, len, NULL), LIBVIRQ_OK);
		free(c);
	}
	free(b);
}

/*
 * libfdt 1.6.1 loads structure tags as aligned words and does not check the
 * sub-block alignment (upstream dtc 8d15a63): a misaligned structure or
 * memory-reservation block, or a blob not 8-byte aligned, is refused first.
 */
static void test_misaligned_blocks(void **state)
{
	size_t len;
	uint8_t *b = load_("good_two_regions", &len);
	uint8_t *c, *big;
	const char *why = NULL;
	struct virq_gic_desc d;

	(void)state;
	c = dup_(b, len);
	put_be32_(c + 8, be32_(c + 8) + 2); /* off_dt_struct */
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "structure block not 4-byte aligned"));
	free(c);
	c = dup_(b, len);
	put_be32_(c + 16, be32_(c + 16) + 4); /* off_mem_rsvmap */
	assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "not 8-byte aligned"));
	free(c);
	/* A good blob at an address that is 4- but not 8-byte aligned. */
	big = malloc(len + 8);
	assert_non_null(big);
	memcpy(big + 4, b, len);
	assert_int_equal(virq_fdt_discover_gic(big + 4, len, &d, &why), LIBVIRQ_EALIGN);
	assert_non_null(strstr(why, "aligned"));
	assert_int_equal(d.nr_redist_regions, 0);
	free(big);
	free(b);
}

/* Replays every regular file of a directory (fuzz corpus, regression seeds) under ASan. */
static unsigned replay_dir_(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!dp)
		fail_msg("cannot open %s", dir);
	while ((e = readdir(dp)) != NULL) {
		char path[1024];
		struct stat sb;
		size_t len;
		uint8_t *b;
		const char *why = NULL;
		virq_status st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size == 0)
			continue;
		b = load_path_(path, &len);
		st = run_(b, len, &why);
		assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EBADDT || st == LIBVIRQ_ENOENT ||
			    st == LIBVIRQ_ENOSPC);
		assert_non_null(why);
		free(b);
		n++;
	}
	closedir(dp);
	return n;
}

/* Every committed fuzz seed and regression blob (incl. regress/fuzz_fdt/version15.dtb). */
static void test_replay_fuzz_seeds(void **state)
{
	(void)state;
	assert_true(replay_dir_(LIBVIRQ_FUZZ_CORPUS_DIR) > 30);
	assert_true(replay_dir_(LIBVIRQ_FUZZ_REGRESS_DIR) >= 2);
}

/* Byte offset of the length field of @p prop on node @p path. */
static size_t prop_len_off_(const uint8_t *b, const char *path, const char *prop)
{
	int node = fdt_path_offset(b, path), len = 0;
	const struct fdt_property *p;

	assert_true(node >= 0);
	p = fdt_get_property(b, node, prop, &len);
	assert_non_null(p);
	return (size_t)((const uint8_t *)&p->len - b);
}

/* dtc 7359034 (docs/rationale.md#fdt-hostile-blobs): forged property lengths must stop the walk,
 * not overflow it. */
static void test_forged_property_lengths(void **state)
{
	static const uint32_t forged[] = {0xfffffff8u, 0xffffffffu, 0x7ffffffcu, 0x10000000u, 4096};
	size_t len;
	uint8_t *b = load_("qemu_v4_smp1", &len);

	(void)state;
	for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		static const char *const props[][2] = {
		    {"/intc@8000000", "reg"},
		    {"/intc@8000000", "#redistributor-regions"},
		    {"/intc@8000000/its@8080000", "reg"},
		    {"/", "#address-cells"},
		};
		for (size_t j = 0; j < 4; j++) {
			uint8_t *c = dup_(b, len);
			const char *why = NULL;

			put_be32_(c + prop_len_off_(c, props[j][0], props[j][1]), forged[i]);
			assert_int_equal(run_(c, len, &why), LIBVIRQ_EBADDT);
			free(c);
		}
	}
	free(b);
}

/* Every prefix of a blob: with the real totalsize and with totalsize forged to fit. */
static void test_truncation_sweep(void **state)
{
	static const char *const names[] = {"good_two_regions", "qemu_v4_smp1"};

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		size_t len;
		uint8_t *b = load_(names[k], &len);
		size_t step = len > 4096 ? 3 : 1;

		for (size_t n = 0; n < len; n += step) {
			uint8_t *c = dup_(b, n);
			const char *why = NULL;

			assert_int_equal(run_(c, n, &why), LIBVIRQ_EBADDT);
			if (n >= 40) {
				/* Header claims exactly n bytes: the structure walk must notice. */
				put_be32_(c + 4, (uint32_t)n);
				assert_int_not_equal(run_(c, n, &why), LIBVIRQ_OK);
			}
			free(c);
		}
		free(b);
	}
}

/*
 * Deterministic mutation sweep: every byte of a small tree flipped three
 * ways, plus random multi-byte damage to the QEMU tree. Each result must be
 * OK (and sane, checked in run_) or an error; never a crash, hang or over-read.
 */
static void test_mutation_sweep(void **state)
{
	static const uint8_t flips[] = {0x01, 0x80, 0xff};
	size_t len, qlen;
	uint8_t *b = load_("good_two_regions", &len);
	uint8_t *q = load_("qemu_v4_smp64", &qlen);
	uint32_t rng = 0x12345678u;
	unsigned ok = 0, bad = 0;

	(void)state;
	for (size_t i = 0; i < len; i++) {
		for (size_t f = 0; f < 3; f++) {
			uint8_t *c = dup_(b, len);

			c[i] ^= flips[f];
			if (run_(c, len, NULL) == LIBVIRQ_OK)
				ok++;
			else
				bad++;
			free(c);
		}
	}
	for (unsigned it = 0; it < 2000; it++) {
		uint8_t *c = dup_(q, qlen);

		for (unsigned m = 0; m < 4; m++) {
			rng = rng * 1664525u + 1013904223u;
			c[(rng >> 8) % qlen] = (uint8_t)(rng >> 24);
		}
		if (run_(c, qlen, NULL) == LIBVIRQ_OK)
			ok++;
		else
			bad++;
		free(c);
	}
	print_message("  mutations: %u accepted, %u rejected\n", ok, bad);
	assert_true(bad > 0);
	assert_true(ok > 0);
	free(b);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_qemu_dumps),
	    cmocka_unit_test(test_committed_seeds),
	    cmocka_unit_test(test_two_regions_stride_noncoherent_rk3588),
	    cmocka_unit_test(test_one_cell_and_extra_reg_entries),
	    cmocka_unit_test(test_empty_redist_region_and_cpuif),
	    cmocka_unit_test(test_ranges_translation),
	    cmocka_unit_test(test_unfollowed_phandle_and_cells_shapes_ignored),
	    cmocka_unit_test(test_hand_built_bad_trees),
	    cmocka_unit_test(test_null_and_tiny),
	    cmocka_unit_test(test_header_corruptions),
	    cmocka_unit_test(test_old_versions_rejected),
	    cmocka_unit_test(test_misaligned_blocks),
	    cmocka_unit_test(test_replay_fuzz_seeds),
	    cmocka_unit_test(test_forged_property_lengths),
	    cmocka_unit_test(test_truncation_sweep),
	    cmocka_unit_test(test_mutation_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
