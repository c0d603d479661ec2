/* SPDX-License-Identifier: MIT */
/*
 * PCI host bridges and device MSI topology from device trees:
 * virq_fdt_discover_pci_host(), virq_fdt_pci_cfg_addr(), virq_fdt_msi_map().
 *  - QEMU 7.2 virt dumps (tests/data/dtb/qemu72_*.dtb, and live dumps made at
 *    test time by gen_dtbs.sh): what QEMU's topology implies (PCIe ECAM at
 *    0x40_1000_0000, msi-map = <0 &its 0 0x10000>, so DeviceID = RID; the ITS
 *    phandle differs between -smp 1, 2 and 4 and is found by phandle);
 *  - hand-built trees (dts/pci_msi.dts, pci_msi_bad.dts, pci_host_bad.dts):
 *    several entries, msi-map-mask, msi-parent, non-ITS controllers, and every
 *    hostile map shape;
 *  - limits built here with libfdt (1025 entries, 33 controllers) and a
 *    mutation sweep.
 * Compiled with ASan/UBSan; every blob sits in a heap buffer of exactly its
 * size (8-byte aligned by malloc).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>

#include <libfdt.h>
#include <libvirq/fdt.h>

#ifndef LIBVIRQ_DTB_DIR
#error "LIBVIRQ_DTB_DIR must name the directory gen_dtbs.sh wrote"
#endif
#ifndef LIBVIRQ_SEED_DIR
#error "LIBVIRQ_SEED_DIR must name tests/data/dtb"
#endif
#if !defined(LIBVIRQ_FUZZ_CORPUS_DIR) || !defined(LIBVIRQ_FUZZ_REGRESS_DIR)
#error "LIBVIRQ_FUZZ_CORPUS_DIR / LIBVIRQ_FUZZ_REGRESS_DIR must name fuzz_fdt_pci's seeds"
#endif

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

static uint8_t *load_gen_(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.dtb", LIBVIRQ_DTB_DIR, name);
	return load_path_(path, len);
}

static uint8_t *load_data_(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.dtb", LIBVIRQ_SEED_DIR, name);
	return load_path_(path, len);
}

static uint32_t be32_(const void *p)
{
	const uint8_t *b = p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static void put_be32_(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int node_(const void *b, const char *path)
{
	int n = fdt_path_offset(b, path);

	if (n < 0)
		fail_msg("no node %s", path);
	return n;
}

/* ---------------- QEMU 7.2 virt ---------------- */

/* The ITS phandle as QEMU wrote it into the PCIe node's msi-map (cell 1). */
static uint32_t qemu_msi_map_phandle_(const void *b)
{
	int len = 0;
	const void *p = fdt_getprop(b, node_(b, "/pcie@10000000"), "msi-map", &len);

	assert_non_null(p);
	assert_int_equal(len, 16);
	return be32_((const uint8_t *)p + 4);
}

/*
 * What QEMU 7.2's virt topology implies for any -smp and GIC version: the
 * ITS at 0x8080000 is found through the PCIe node's msi-map by its phandle,
 * DeviceID = RID for the whole 16-bit RID space, ECAM at 0x40_1000_0000 for
 * buses 0..255, I/O at 0x3eff0000, 32-bit MEM 0x1000_0000 identity,
 * 64-bit MEM at 0x80_0000_0000. Returns the ITS phandle.
 */
static uint32_t check_qemu_virt_(const uint8_t *b, size_t len)
{
	struct virq_gic_desc d;
	struct virq_fdt_pci_host h;
	struct virq_fdt_msi_target t;
	const char *why = NULL;
	static const uint32_t rids[] = {0x0, 0x8, 0x10, 0x18, 0x100, 0xfff8, 0xffff};

	assert_int_equal(virq_fdt_discover_gic(b, len, &d, &why), LIBVIRQ_OK);
	assert_string_equal(why, "ok");
	assert_int_equal(d.nr_its, 1);
	assert_int_equal(d.its[0].base, 0x08080000);
	/* Recorded from the ITS node, equal to what msi-map names. */
	assert_true(d.its[0].phandle != 0);
	assert_int_equal(d.its[0].phandle, qemu_msi_map_phandle_(b));
	assert_int_equal(d.its[0].fdt_node, node_(b, "/intc@8000000/its@8080000"));
	/* QEMU's GICv3/v4 node has no GICC/GICH/GICV entries. */
	assert_int_equal(d.gicc_size, 0);
	assert_int_equal(d.gich_size, 0);
	assert_int_equal(d.gicv_size, 0);
	assert_int_equal(d.skipped, 0);

	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, &h, &why), LIBVIRQ_OK);
	assert_string_equal(why, "ok");
	assert_int_equal(h.node, node_(b, "/pcie@10000000"));
	assert_int_equal(h.layout, LIBVIRQ_FDT_PCI_ECAM);
	assert_int_equal(h.cfg_base, 0x4010000000ull);
	assert_int_equal(h.cfg_size, 0x10000000);
	assert_int_equal(h.bus_start, 0);
	assert_int_equal(h.bus_end, 255);
	assert_int_equal(h.flags, LIBVIRQ_FDT_PCI_DMA_COHERENT | LIBVIRQ_FDT_PCI_HAS_MSI_MAP);
	assert_int_equal(h.nr_ranges, 3);
	assert_int_equal(h.ranges[0].space, LIBVIRQ_FDT_PCI_IO);
	assert_int_equal(h.ranges[0].pci_base, 0);
	assert_int_equal(h.ranges[0].cpu_base, 0x3eff0000);
	assert_int_equal(h.ranges[0].size, 0x10000);
	assert_int_equal(h.ranges[1].space, LIBVIRQ_FDT_PCI_MEM32);
	assert_false(h.ranges[1].prefetchable);
	assert_int_equal(h.ranges[1].pci_base, 0x10000000);
	assert_int_equal(h.ranges[1].cpu_base, 0x10000000);
	assert_int_equal(h.ranges[1].size, 0x2eff0000);
	assert_int_equal(h.ranges[2].space, LIBVIRQ_FDT_PCI_MEM64);
	assert_int_equal(h.ranges[2].pci_base, 0x8000000000ull);
	assert_int_equal(h.ranges[2].cpu_base, 0x8000000000ull);
	assert_int_equal(h.ranges[2].size, 0x8000000000ull);
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 1, &h, &why), LIBVIRQ_ENOENT);

	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, &h, NULL), LIBVIRQ_OK);
	for (size_t i = 0; i < sizeof(rids) / sizeof(rids[0]); i++) {
		assert_int_equal(
		    virq_fdt_msi_map(b, len, &d, h.node, rids[i], LIBVIRQ_FDT_ANY_ITS, &t, &why),
		    LIBVIRQ_OK);
		assert_string_equal(why, "ok");
		assert_int_equal(t.its_index, 0);
		assert_int_equal(t.devid, rids[i]);
		assert_int_equal(t.its_phandle, d.its[0].phandle);
		assert_int_equal(t.via, LIBVIRQ_FDT_MSI_VIA_MAP);
		assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, rids[i], 0, &t, NULL),
				 LIBVIRQ_OK);
		assert_int_equal(t.devid, rids[i]);
	}
	assert_int_equal(
	    virq_fdt_msi_map(b, len, &d, h.node, 0x10000, LIBVIRQ_FDT_ANY_ITS, &t, &why),
	    LIBVIRQ_ERANGE);
	assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, 0x10, 1, &t, &why), LIBVIRQ_EINVAL);
	return d.its[0].phandle;
}

/* Every committed QEMU 7.2 dump: -smp 1/2/4, with and without edu, -nic none,
 * GICv3, GICv3 with virtualization, secure=on. */
static void test_qemu72_dumps(void **state)
{
	static const char *const names[] = {
	    "qemu72_v4_smp1",	  "qemu72_v4_smp1_edu",	      "qemu72_v4_smp2",
	    "qemu72_v4_smp2_edu", "qemu72_v4_smp2_edu_nonic", "qemu72_v4_smp4",
	    "qemu72_v4_smp4_edu", "qemu72_v4_secure_smp2",    "qemu72_v3_smp1",
	    "qemu72_v3_smp2_edu", "qemu72_v3_smp2_virt",
	};
	uint32_t ph[sizeof(names) / sizeof(names[0])];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len;
		uint8_t *b = load_data_(names[i], &len);

		print_message("  %s\n", names[i]);
		ph[i] = check_qemu_virt_(b, len);
		free(b);
	}
	/* The phandle moves with the CPU count: -smp 1 vs 2 vs 4 all differ
	 * (so a constant would have been wrong for two of them). */
	assert_int_not_equal(ph[0], ph[2]);
	assert_int_not_equal(ph[2], ph[5]);
	assert_int_not_equal(ph[0], ph[5]);
	assert_int_equal(ph[0], ph[1]);
	assert_int_equal(ph[2], ph[4]);
}

/* The QEMU installed here, dumped at test time (gen_dtbs.sh). */
static void test_live_qemu_dumps(void **state)
{
	static const char *const names[] = {"qemu_v4_smp1", "qemu_v4_smp2", "qemu_v4_smp4",
					    "qemu_v3_smp8"};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len;
		uint8_t *b = load_gen_(names[i], &len);

		print_message("  %s\n", names[i]);
		(void)check_qemu_virt_(b, len);
		free(b);
	}
}

/* RID of the first 1234:11e8 (edu) in a QEMU 'info pci' listing, or -1. */
static int edu_rid_(const char *name)
{
	char path[512], line[256];
	int bus = -1, dev = -1, fn = -1, rid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.pci", LIBVIRQ_DTB_DIR, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (did the fdt_gen_dtbs fixture run?)", path);
	while (rid < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, " Bus %d, device %d, function %d:", &bus, &dev, &fn) == 3)
			continue;
		if (strstr(line, "PCI device 1234:11e8") && bus >= 0)
			rid = bus << 8 | dev << 3 | fn;
	}
	fclose(f);
	return rid;
}

/*
 * The live QEMU's PCI topology (monitor 'info pci'): edu sits behind the
 * default NIC at 00:02.0 (RID 0x10), or at 00:01.0 (RID 0x08) with -nic none;
 * either way the look-up on the same machine's tree gives DeviceID = RID on
 * the ITS the msi-map names.
 */
static void test_live_qemu_edu(void **state)
{
	static const struct {
		const char *pci;
		int rid;
	} cases[] = {{"qemu_v4_smp2_edu", 0x10}, {"qemu_v4_smp2_edu_nonic", 0x08}};
	size_t len;
	uint8_t *b = load_gen_("qemu_v4_smp2", &len);
	struct virq_gic_desc d;
	struct virq_fdt_pci_host h;

	(void)state;
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, &h, NULL), LIBVIRQ_OK);
	for (size_t i = 0; i < 2; i++) {
		struct virq_fdt_msi_target t;
		int rid = edu_rid_(cases[i].pci);

		print_message("  %s: edu at RID 0x%x\n", cases[i].pci, rid);
		assert_int_equal(rid, cases[i].rid);
		assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, (uint32_t)rid,
						  LIBVIRQ_FDT_ANY_ITS, &t, NULL),
				 LIBVIRQ_OK);
		assert_int_equal(t.its_index, 0);
		assert_int_equal(t.devid, (uint32_t)rid);
		assert_int_equal(t.its_phandle, qemu_msi_map_phandle_(b));
	}
	free(b);
}

/*
 * Rewriting the ITS's phandle (and msi-map's reference to it) to another
 * value changes nothing but the phandle reported: the ITS is found by
 * phandle. Pointing msi-map at a phandle nobody has is EBADDT, at the GIC
 * node (an interrupt controller without msi-controller) EBADDT too.
 */
static void test_qemu_phandle_rewritten(void **state)
{
	size_t len;
	uint8_t *b = load_data_("qemu72_v4_smp2", &len);
	struct virq_gic_desc d;
	struct virq_fdt_pci_host h;
	struct virq_fdt_msi_target t;
	const char *why = NULL;
	int its = node_(b, "/intc@8000000/its@8080000"), pcie = node_(b, "/pcie@10000000");
	int len2 = 0;
	uint8_t *map;

	(void)state;
	assert_int_equal(fdt_setprop_inplace_u32(b, its, "phandle", 0x12345), 0);
	map = fdt_getprop_w(b, pcie, "msi-map", &len2);
	assert_non_null(map);
	put_be32_(map + 4, 0x12345);
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.its[0].phandle, 0x12345);
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, &h, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_OK);
	assert_int_equal(t.its_index, 0);
	assert_int_equal(t.devid, 0x10);
	assert_int_equal(t.its_phandle, 0x12345);
	/* A phandle nobody has. */
	put_be32_(map + 4, 0x12346);
	assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "names no node"));
	assert_int_equal(t.devid, 0);
	/* The GIC node's own phandle: an interrupt controller, not an MSI controller. */
	assert_int_not_equal(fdt_get_phandle(b, node_(b, "/intc@8000000")), 0);
	put_be32_(map + 4, fdt_get_phandle(b, node_(b, "/intc@8000000")));
	assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EBADDT);
	assert_non_null(strstr(why, "without msi-controller"));
	free(b);
}

/* ---------------- hand-built trees ---------------- */

struct msi_case_ {
	uint32_t host, rid, filter;
	virq_status st;
	uint32_t its, devid, via;
};

static void test_pci_msi_fixture(void **state)
{
	/* its0 = its[0] (0x8080000), its1 = its[1] (0x8100000); the disabled one is not listed. */
	static const struct msi_case_ cases[] = {
	    /* 0: binding example 5: its0 with the bus high bit negated, its1 identity. */
	    {0, 0x0010, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0x8010, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {0, 0x8010, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0x0010, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {0, 0x7fff, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0xffff, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {0, 0xffff, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0x7fff, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {0, 0x0010, 0, LIBVIRQ_OK, 0, 0x8010, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {0, 0x0010, 1, LIBVIRQ_OK, 1, 0x0010, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {0, 0x8010, 1, LIBVIRQ_OK, 1, 0x8010, LIBVIRQ_FDT_MSI_VIA_MAP},
	    /* 1: msi-map-mask 0xff: bus bits dropped; msi-base 0x100. */
	    {1, 0x0312, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 1, 0x0112, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {1, 0x00ff, 1, LIBVIRQ_OK, 1, 0x01ff, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {1, 0x0312, 0, LIBVIRQ_ENOENT, 0, 0, 0},
	    /* 2: msi-parent = <&its1>: DeviceID = RID. */
	    {2, 0x0123, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 1, 0x0123, LIBVIRQ_FDT_MSI_VIA_PARENT},
	    {2, 0x0123, 0, LIBVIRQ_ENOENT, 0, 0, 0},
	    /* 3: msi-parent = <&frame &its0 9>: the non-ITS frame is passed over. */
	    {3, 0x0042, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0x0042, LIBVIRQ_FDT_MSI_VIA_PARENT},
	    /* 4: only a non-ITS controller; 5: only the disabled ITS. */
	    {4, 0x0010, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_ENOTSUP, 0, 0, 0},
	    {5, 0x0010, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_ENOTSUP, 0, 0, 0},
	    /* 6: neither property. */
	    {6, 0x0010, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_ENOENT, 0, 0, 0},
	    /* 7: a hole in the map (0x100..0x1ff) and past its end. */
	    {7, 0x00ff, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0x00ff, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {7, 0x0100, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_ENOENT, 0, 0, 0},
	    {7, 0x01ff, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_ENOENT, 0, 0, 0},
	    {7, 0x0200, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_OK, 0, 0x0200, LIBVIRQ_FDT_MSI_VIA_MAP},
	    {7, 0x0300, LIBVIRQ_FDT_ANY_ITS, LIBVIRQ_ENOENT, 0, 0, 0},
	};
	size_t len;
	uint8_t *b = load_gen_("pci_msi", &len);
	struct virq_gic_desc d;
	const char *why = NULL;

	(void)state;
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.nr_its, 2);
	assert_int_equal(d.its[0].base, 0x08080000);
	assert_int_equal(d.its[1].base, 0x08100000);
	assert_int_not_equal(d.its[0].phandle, d.its[1].phandle);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct msi_case_ *c = &cases[i];
		struct virq_fdt_pci_host h;
		struct virq_fdt_msi_target t;
		virq_status st;

		assert_int_equal(virq_fdt_discover_pci_host(b, len, c->host, &h, NULL), LIBVIRQ_OK);
		memset(&t, 0xa5, sizeof(t));
		st = virq_fdt_msi_map(b, len, &d, h.node, c->rid, c->filter, &t, &why);
		if (st != c->st)
			fail_msg("case %zu (host %u rid 0x%x): %d (%s), want %d", i, c->host,
				 c->rid, (int)st, why, (int)c->st);
		if (st != LIBVIRQ_OK) {
			struct virq_fdt_msi_target z;

			memset(&z, 0, sizeof(z));
			assert_memory_equal(&t, &z, sizeof(t));
			continue;
		}
		assert_string_equal(why, "ok");
		if (t.its_index != c->its || t.devid != c->devid || t.via != c->via)
			fail_msg(
			    "case %zu: its %u devid 0x%x via %u, want its %u devid 0x%x via %u", i,
			    t.its_index, t.devid, t.via, c->its, c->devid, c->via);
		assert_int_equal(t.its_phandle, d.its[c->its].phandle);
	}
	free(b);
}

static void test_pci_host_fixture(void **state)
{
	size_t len;
	uint8_t *b = load_gen_("pci_msi", &len);
	struct virq_fdt_pci_host h;
	const char *why = NULL;

	(void)state;
	/* 0: below soc, whose ranges adds 0x40_0000_0000 to the low 4 GiB. */
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, &h, &why), LIBVIRQ_OK);
	assert_non_null(strstr(why, "empty (size 0) PCI ranges entry was skipped"));
	assert_int_equal(h.node, node_(b, "/soc/pcie@30000000"));
	assert_int_equal(h.layout, LIBVIRQ_FDT_PCI_ECAM);
	assert_int_equal(h.cfg_base, 0x4030000000ull);
	assert_int_equal(h.cfg_size, 0x1000000);
	assert_int_equal(h.bus_start, 0x10);
	assert_int_equal(h.bus_end, 0x1f);
	assert_int_equal(h.flags, LIBVIRQ_FDT_PCI_RANGE_SKIPPED | LIBVIRQ_FDT_PCI_DMA_COHERENT |
				      LIBVIRQ_FDT_PCI_HAS_MSI_MAP);
	assert_int_equal(h.nr_ranges, 3);
	assert_int_equal(h.ranges[0].space, LIBVIRQ_FDT_PCI_IO);
	assert_int_equal(h.ranges[0].cpu_base, 0x403eff0000ull);
	assert_int_equal(h.ranges[1].space, LIBVIRQ_FDT_PCI_MEM32);
	assert_int_equal(h.ranges[1].pci_base, 0x10000000);
	assert_int_equal(h.ranges[1].cpu_base, 0x4010000000ull);
	assert_int_equal(h.ranges[1].size, 0x20000000);
	assert_false(h.ranges[1].prefetchable);
	assert_int_equal(h.ranges[2].space, LIBVIRQ_FDT_PCI_MEM64);
	assert_true(h.ranges[2].prefetchable);
	assert_int_equal(h.ranges[2].pci_base, 0x8000000000ull);
	assert_int_equal(h.ranges[2].cpu_base, 0x8000000000ull);
	assert_int_equal(h.ranges[2].size, 0x1000000000ull);
	/* 1: CAM, bus-range 0..255 reduced to the 4 buses the window covers. */
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 1, &h, &why), LIBVIRQ_OK);
	assert_non_null(strstr(why, "bus-range was reduced"));
	assert_int_equal(h.layout, LIBVIRQ_FDT_PCI_CAM);
	assert_int_equal(h.cfg_base, 0x4031000000ull);
	assert_int_equal(h.bus_start, 0);
	assert_int_equal(h.bus_end, 3);
	assert_int_equal(h.flags, LIBVIRQ_FDT_PCI_BUS_REDUCED | LIBVIRQ_FDT_PCI_HAS_MSI_MAP);
	/* 2: msi-parent; no bus-range means 0..255 (binding), reduced to the
	 * one bus its 1 MiB window covers. */
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 2, &h, &why), LIBVIRQ_OK);
	assert_non_null(strstr(why, "bus-range was reduced"));
	assert_int_equal(h.bus_start, 0);
	assert_int_equal(h.bus_end, 0);
	assert_int_equal(h.flags, LIBVIRQ_FDT_PCI_HAS_MSI_PARENT | LIBVIRQ_FDT_PCI_BUS_REDUCED);
	/* 7 is the last enabled one; the disabled pcie@38000000 is not counted. */
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 7, &h, NULL), LIBVIRQ_OK);
	assert_int_equal(h.node, node_(b, "/soc/pcie@37000000"));
	memset(&h, 0xa5, sizeof(h));
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 8, &h, &why), LIBVIRQ_ENOENT);
	assert_int_equal(h.node, 0);
	assert_int_equal(h.nr_ranges, 0);
	free(b);
}

/* virq_fdt_for_each_pci_host(): what it hands over, collected. */
struct each_ {
	uint32_t n, stop_after;
	struct virq_fdt_pci_host h[16];
	const char *note[16];
};

static int each_cb_(void *ctx, uint32_t index, const struct virq_fdt_pci_host *host,
		    const char *note)
{
	struct each_ *e = ctx;

	assert_int_equal(index, e->n);
	assert_true(e->n < 16);
	e->h[e->n] = *host;
	e->note[e->n] = note;
	e->n++;
	return e->n == e->stop_after;
}

/* The one-pass walk gives what virq_fdt_discover_pci_host() gives per index. */
static void each_matches_index_(const uint8_t *b, size_t len, uint32_t want)
{
	struct each_ e = {0};
	struct virq_fdt_pci_host h;
	const char *why = NULL;
	uint32_t count = 99;

	assert_int_equal(virq_fdt_for_each_pci_host(b, len, each_cb_, &e, &count, &why),
			 LIBVIRQ_OK);
	assert_string_equal(why, "ok");
	assert_int_equal(count, want);
	assert_int_equal(e.n, want);
	for (uint32_t i = 0; i < want; i++) {
		assert_int_equal(virq_fdt_discover_pci_host(b, len, i, &h, &why), LIBVIRQ_OK);
		assert_memory_equal(&h, &e.h[i], sizeof(h));
		assert_string_equal(why, e.note[i]);
	}
	assert_int_equal(virq_fdt_discover_pci_host(b, len, want, &h, NULL), LIBVIRQ_ENOENT);
	/* A callback that stops: no further calls, the count says so. */
	if (want > 1) {
		memset(&e, 0, sizeof(e));
		e.stop_after = 2;
		assert_int_equal(virq_fdt_for_each_pci_host(b, len, each_cb_, &e, &count, NULL),
				 LIBVIRQ_OK);
		assert_int_equal(e.n, 2);
		assert_int_equal(count, 1);
	}
}

static void test_for_each_pci_host(void **state)
{
	size_t len;
	uint8_t *b = load_gen_("pci_msi", &len);
	struct each_ e = {0};
	const char *why = NULL;
	uint32_t count = 99;

	(void)state;
	each_matches_index_(b, len, 8);
	assert_int_equal(virq_fdt_for_each_pci_host(NULL, len, each_cb_, &e, &count, &why),
			 LIBVIRQ_EINVAL);
	assert_int_equal(count, 0);
	assert_int_equal(virq_fdt_for_each_pci_host(b, len, NULL, &e, &count, &why),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_fdt_for_each_pci_host(b, 16, each_cb_, &e, NULL, &why),
			 LIBVIRQ_EBADDT);
	assert_int_equal(e.n, 0);
	free(b);
	/* The first malformed host bridge stops the walk and is named. */
	b = load_gen_("pci_host_bad", &len);
	assert_int_equal(virq_fdt_for_each_pci_host(b, len, each_cb_, &e, &count, &why),
			 LIBVIRQ_EBADDT);
	assert_int_equal(count, 0);
	assert_int_equal(e.n, 0);
	assert_non_null(strstr(why, "#address-cells/#size-cells are not 3/2"));
	free(b);
	b = load_data_("qemu72_v4_smp2_edu", &len);
	each_matches_index_(b, len, 1);
	free(b);
}

static void test_cfg_addr(void **state)
{
	struct virq_fdt_pci_host h;
	uint64_t a = 0;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.layout = LIBVIRQ_FDT_PCI_ECAM;
	h.cfg_base = 0x4030000000ull;
	h.cfg_size = 0x1000000;
	h.bus_start = 0x10;
	h.bus_end = 0x1f;
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x10, 0, 0, 0, &a), LIBVIRQ_OK);
	assert_int_equal(a, 0x4030000000ull);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x12, 3, 5, 0x44, &a), LIBVIRQ_OK);
	assert_int_equal(a, 0x4030000000ull + (2u << 20) + (3u << 15) + (5u << 12) + 0x44);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x1f, 31, 7, 4095, &a), LIBVIRQ_OK);
	assert_int_equal(a, 0x4030000000ull + 0xffffff);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x0f, 0, 0, 0, &a), LIBVIRQ_ERANGE);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x20, 0, 0, 0, &a), LIBVIRQ_ERANGE);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x10, 32, 0, 0, &a), LIBVIRQ_ERANGE);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x10, 0, 8, 0, &a), LIBVIRQ_ERANGE);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x10, 0, 0, 4096, &a), LIBVIRQ_ERANGE);
	h.cfg_size = 0x100000; /* a hand-filled host whose bus_end the window does not cover */
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x11, 0, 0, 0, &a), LIBVIRQ_ERANGE);
	h.cfg_base = 0xffffffffffff0000ull;
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x10, 1, 0, 0, &a), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0x10, 2, 0, 0, &a), LIBVIRQ_ERANGE);
	h.layout = LIBVIRQ_FDT_PCI_CAM;
	h.cfg_base = 0x4031000000ull;
	h.cfg_size = 0x40000;
	h.bus_start = 0;
	h.bus_end = 3;
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 2, 1, 2, 0x10, &a), LIBVIRQ_OK);
	assert_int_equal(a, 0x4031000000ull + (2u << 16) + (1u << 11) + (2u << 8) + 0x10);
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0, 0, 0, 256, &a), LIBVIRQ_ERANGE);
	h.layout = 7;
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0, 0, 0, 0, &a), LIBVIRQ_EINVAL);
	assert_int_equal(virq_fdt_pci_cfg_addr(NULL, 0, 0, 0, 0, &a), LIBVIRQ_EINVAL);
	h.layout = LIBVIRQ_FDT_PCI_CAM;
	assert_int_equal(virq_fdt_pci_cfg_addr(&h, 0, 0, 0, 0, NULL), LIBVIRQ_EINVAL);
}

/* Every hostile msi-map / msi-parent shape: EBADDT with its reason, for every RID. */
static void test_hostile_maps(void **state)
{
	static const struct {
		const char *path, *why;
	} cases[] = {
	    {"/pcie@30000000", "overlap"},
	    {"/pcie@30100000", "length 0"},
	    {"/pcie@30200000", "RID range passes 2^32"},
	    {"/pcie@30300000", "DeviceID range passes 2^32"},
	    {"/pcie@30400000", "names no node"},
	    {"/pcie@30500000", "0 or 0xffffffff"},
	    {"/pcie@30600000", "0 or 0xffffffff"},
	    {"/pcie@30700000", "without msi-controller"},
	    {"/pcie@30800000", "msi-map-mask is 0"},
	    {"/pcie@30900000", "msi-map-mask is not a single cell"},
	    {"/pcie@30a00000", "outside msi-map-mask"},
	    {"/pcie@30b00000", "#msi-cells is not 1"},
	    {"/pcie@30c00000", "#msi-cells is absurd"},
	    {"/pcie@30d00000", "#msi-cells is not 1"},
	    {"/pcie@30e00000", "whole number of 4-cell entries"},
	    {"/pcie@30f00000", "whole number of 4-cell entries"},
	    {"/pcie@31000000", "names no node"},
	    {"/pcie@31100000", "msi-parent ends inside"},
	    {"/pcie@31200000", "0 or 0xffffffff"},
	    {"/pcie@31300000", "#msi-cells is absurd"},
	    {"/pcie@31400000", "whole number of cells"},
	};
	static const uint32_t rids[] = {0x0, 0x10, 0x80, 0x100, 0xffff};
	size_t len;
	uint8_t *b = load_gen_("pci_msi_bad", &len);
	struct virq_gic_desc d;

	(void)state;
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(d.nr_its, 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int node = node_(b, cases[i].path);
		struct virq_fdt_pci_host h;

		/* The host itself is valid: only its MSI description is hostile. */
		assert_int_equal(virq_fdt_discover_pci_host(b, len, (uint32_t)i, &h, NULL),
				 LIBVIRQ_OK);
		assert_int_equal(h.node, node);
		for (size_t r = 0; r < sizeof(rids) / sizeof(rids[0]); r++) {
			struct virq_fdt_msi_target t;
			const char *why = NULL;
			virq_status st = virq_fdt_msi_map(b, len, &d, node, rids[r],
							  LIBVIRQ_FDT_ANY_ITS, &t, &why);

			if (st != LIBVIRQ_EBADDT || !strstr(why, cases[i].why))
				fail_msg("%s rid 0x%x: %d (%s), want EBADDT (%s)", cases[i].path,
					 rids[r], (int)st, why, cases[i].why);
		}
	}
	free(b);
}

static void test_hostile_hosts(void **state)
{
	static const char *const whys[] = {
	    "#address-cells/#size-cells are not 3/2",
	    "has no reg",
	    "reg length",
	    "smaller than one bus",
	    "size 0",
	    "wraps",
	    "bus-range is not two cells",
	    "first <= last <= 255",
	    "first <= last <= 255",
	    "has no ranges",
	    "ranges length",
	    "ranges length",
	    "above 4 GiB",
	    "above 4 GiB",
	    "wraps past the end of the PCI",
	    "wraps",
	    "outside its parent bus ranges",
	    "outside its parent bus ranges",
	    "ranges translation wraps",
	    "ranges translation wraps",
	};
	size_t len;
	uint8_t *b = load_gen_("pci_host_bad", &len);
	struct virq_fdt_pci_host h;
	const char *why = NULL;
	uint32_t i;

	(void)state;
	for (i = 0; i < sizeof(whys) / sizeof(whys[0]); i++) {
		virq_status st;

		memset(&h, 0xa5, sizeof(h));
		st = virq_fdt_discover_pci_host(b, len, i, &h, &why);
		if (st != LIBVIRQ_EBADDT || !strstr(why, whys[i]))
			fail_msg("host %u: %d (%s), want EBADDT (%s)", i, (int)st, why, whys[i]);
		assert_int_equal(h.node, 0);
		assert_int_equal(h.cfg_base, 0);
	}
	assert_int_equal(virq_fdt_discover_pci_host(b, len, i, &h, &why), LIBVIRQ_ENOENT);
	free(b);
}

/*
 * Every index validates the blob first. discover_pci_host(UINT32_MAX) once
 * answered ENOENT without looking at the blob, and fuzz_fdt_pci's mutator,
 * which trusted that answer as "validated", gave libfdt 1.6.1 a property of
 * length 0xFFFFFFF4: fdt_next_node() never returned and the fuzz step
 * outlived CI's time limit (blob: a mutation of a QEMU 7.2 dump, kept in
 * the fuzz regression corpus).
 */
static int keep_going_(void *ctx, uint32_t index, const struct virq_fdt_pci_host *host,
		       const char *note)
{
	(void)ctx, (void)index, (void)host, (void)note;
	return 0;
}

static void test_malformed_any_index(void **state)
{
	static const uint32_t idx[] = {0, 1, 7, UINT32_MAX - 1, UINT32_MAX};
	char path[512];
	size_t len;
	uint8_t *b;
	struct virq_fdt_pci_host h;
	const char *why = NULL;
	uint32_t count = 99;

	(void)state;
	snprintf(path, sizeof(path), "%s/mutator_prop_len_wrap.dtb", LIBVIRQ_FUZZ_REGRESS_DIR);
	b = load_path_(path, &len);
	for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
		virq_status st;

		why = NULL;
		memset(&h, 0xa5, sizeof(h));
		st = virq_fdt_discover_pci_host(b, len, idx[i], &h, &why);
		if (st != LIBVIRQ_EBADDT || !why || !strstr(why, "truncated"))
			fail_msg("index %u: %d (%s), want EBADDT (truncated)", idx[i], (int)st,
				 why ? why : "(null)");
		assert_int_equal(h.node, 0);
	}
	assert_int_equal(virq_fdt_for_each_pci_host(b, len, keep_going_, NULL, &count, &why),
			 LIBVIRQ_EBADDT);
	free(b);
	/* A valid tree: UINT32_MAX is still "past the last bridge". */
	b = load_gen_("pci_msi", &len);
	assert_int_equal(virq_fdt_discover_pci_host(b, len, UINT32_MAX, &h, &why), LIBVIRQ_ENOENT);
	assert_int_equal(h.node, 0);
	free(b);
}

/* ---------------- limits and misuse ---------------- */

static void set_map_(uint8_t *c, size_t room, int node, const uint32_t *cells, size_t n)
{
	fdt32_t *v = malloc(n * 4);

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = cpu_to_fdt32(cells[i]);
	assert_int_equal(fdt_open_into(c, c, (int)room), 0);
	assert_int_equal(fdt_setprop(c, node, "msi-map", v, (int)(n * 4)), 0);
	assert_int_equal(fdt_pack(c), 0);
	free(v);
}

static void test_map_limits(void **state)
{
	size_t len, room = 1u << 20;
	uint8_t *b = load_data_("qemu72_v4_smp2", &len);
	uint8_t *c = malloc(room);
	uint32_t *cells = calloc(4 * (LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES + 1), 4);
	struct virq_gic_desc d;
	struct virq_fdt_msi_target t;
	const char *why = NULL;
	uint32_t ph;
	int pcie, gic;

	(void)state;
	assert_non_null(c);
	assert_non_null(cells);
	assert_int_equal(fdt_open_into(b, c, (int)room), 0);
	pcie = node_(c, "/pcie@10000000");
	assert_int_equal(virq_fdt_discover_gic(c, room, &d, NULL), LIBVIRQ_OK);
	ph = d.its[0].phandle;
	/* 1024 disjoint entries: accepted; the last one matches RID 0x3ff. */
	for (uint32_t i = 0; i < LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES + 1; i++) {
		cells[4 * i] = i;
		cells[4 * i + 1] = ph;
		cells[4 * i + 2] = 0x10000 + i;
		cells[4 * i + 3] = 1;
	}
	set_map_(c, room, pcie, cells, 4 * LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES);
	pcie = node_(c, "/pcie@10000000");
	assert_int_equal(virq_fdt_discover_gic(c, room, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_msi_map(c, room, &d, pcie, 0x3ff, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_OK);
	assert_int_equal(t.devid, 0x103ff);
	assert_int_equal(virq_fdt_msi_map(c, room, &d, pcie, 0x400, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_ENOENT);
	/* 1025: ENOSPC. */
	set_map_(c, room, pcie, cells, 4 * (LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES + 1));
	pcie = node_(c, "/pcie@10000000");
	assert_int_equal(virq_fdt_discover_gic(c, room, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_msi_map(c, room, &d, pcie, 0x3ff, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_ENOSPC);
	/* 33 distinct MSI controllers (each a node with msi-controller, #msi-cells 1). */
	assert_int_equal(fdt_open_into(c, c, (int)room), 0);
	gic = node_(c, "/intc@8000000");
	for (uint32_t i = 0; i < 33; i++) {
		char name[32];
		int n;

		snprintf(name, sizeof(name), "msi%u", i);
		n = fdt_add_subnode(c, 0, name);
		assert_true(n >= 0);
		assert_int_equal(fdt_setprop(c, n, "msi-controller", NULL, 0), 0);
		assert_int_equal(fdt_setprop_u32(c, n, "#msi-cells", 1), 0);
		assert_int_equal(fdt_setprop_u32(c, n, "phandle", 0x100 + i), 0);
		cells[4 * i] = i;
		cells[4 * i + 1] = 0x100 + i;
		cells[4 * i + 2] = i;
		cells[4 * i + 3] = 1;
	}
	(void)gic;
	pcie = node_(c, "/pcie@10000000");
	set_map_(c, room, pcie, cells, 4 * 32);
	pcie = node_(c, "/pcie@10000000");
	assert_int_equal(virq_fdt_discover_gic(c, room, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_msi_map(c, room, &d, pcie, 5, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_ENOTSUP); /* 32 controllers, none an ITS */
	set_map_(c, room, pcie, cells, 4 * 33);
	pcie = node_(c, "/pcie@10000000");
	assert_int_equal(virq_fdt_discover_gic(c, room, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_msi_map(c, room, &d, pcie, 5, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_ENOSPC);
	free(cells);
	free(c);
	free(b);
}

/*
 * A node offset that points into a property value holding a forged
 * BEGIN_NODE tag, name and FDT_PROP of length 0xfffffff4: libfdt's offset
 * check accepts it, and its property walk from there would never end
 * (libfdt 1.6.1, the dtc 7359034 shape). Must be EINVAL, at once.
 * Hung before the fix (the alarm fires).
 */
static void forged_node_in_value_(const uint8_t *b, size_t len, const struct virq_gic_desc *d)
{
	static const uint8_t forged[] = {0,    0,    0,	   1,	 'x', 0, 0, 0, 0, 0, 0, 3,
					 0xff, 0xff, 0xff, 0xf4, 0,   0, 0, 0, 0, 0, 0, 0};
	size_t room = len + 256;
	uint8_t *c = malloc(room);
	struct virq_fdt_msi_target t;
	const char *why = NULL;
	int node, plen = 0, voff;
	const uint8_t *v;

	assert_non_null(c);
	assert_int_equal(fdt_open_into(b, c, (int)room), 0);
	node = node_(c, "/pcie@10000000");
	assert_int_equal(fdt_setprop(c, node, "vendor,blob", forged, sizeof(forged)), 0);
	v = fdt_getprop(c, node_(c, "/pcie@10000000"), "vendor,blob", &plen);
	assert_non_null(v);
	voff = (int)(v - (const uint8_t *)c) - (int)fdt_off_dt_struct(c);
	assert_int_equal(voff % 4, 0);
	/* libfdt itself takes it for a node. */
	assert_non_null(fdt_get_name(c, voff, NULL));
	alarm(10);
	assert_int_equal(virq_fdt_msi_map(c, room, d, voff, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EINVAL);
	alarm(0);
	assert_non_null(strstr(why, "names no node"));
	free(c);
}

static void test_msi_misuse(void **state)
{
	size_t len, len2;
	uint8_t *b = load_data_("qemu72_v4_smp2", &len);
	uint8_t *other = load_data_("qemu72_v4_smp1", &len2);
	struct virq_gic_desc d, d1;
	struct virq_fdt_pci_host h, h2;
	struct virq_fdt_msi_target t;
	const char *why = NULL;
	static const int32_t bad_nodes[] = {-1, 1, 2, 3, 7, 0x7ffffff0, -2147483647 - 1};
	int prop;

	(void)state;
	assert_int_equal(virq_fdt_discover_gic(b, len, &d, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_discover_gic(other, len2, &d1, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, &h, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_fdt_msi_map(NULL, len, &d, h.node, 0, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_fdt_msi_map(b, len, NULL, h.node, 0, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_fdt_msi_map(b, len, &d, h.node, 0, LIBVIRQ_FDT_ANY_ITS, NULL, &why),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_fdt_discover_pci_host(NULL, len, 0, &h2, &why), LIBVIRQ_EINVAL);
	assert_int_equal(h2.node, 0); /* zeroed on failure */
	assert_int_equal(virq_fdt_discover_pci_host(b, len, 0, NULL, &why), LIBVIRQ_EINVAL);
	/* Offsets that are not nodes: negative, unaligned, past the end, a property. */
	for (size_t i = 0; i < sizeof(bad_nodes) / sizeof(bad_nodes[0]); i++)
		assert_int_equal(
		    virq_fdt_msi_map(b, len, &d, bad_nodes[i], 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
		    LIBVIRQ_EINVAL);
	prop = fdt_first_property_offset(b, h.node);
	assert_true(prop > 0);
	assert_int_equal(virq_fdt_msi_map(b, len, &d, prop, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EINVAL);
	forged_node_in_value_(b, len, &d);
	/* The root has neither property. */
	assert_int_equal(virq_fdt_msi_map(b, len, &d, 0, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_ENOENT);
	/* A description of another machine (-smp 1: other phandle, other offset). */
	if (virq_fdt_msi_map(b, len, &d1, h.node, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why) !=
	    LIBVIRQ_ENOTSUP)
		fail_msg("foreign description: %s", why);
	/* A bad blob is refused before the node is looked at. */
	assert_int_equal(virq_fdt_msi_map(b, 16, &d, h.node, 0x10, LIBVIRQ_FDT_ANY_ITS, &t, &why),
			 LIBVIRQ_EBADDT);
	free(other);
	free(b);
}

/*
 * Mutation sweep over the hand-built PCI tree and a QEMU dump: random byte
 * damage, then every host and a spread of RIDs. Each result must be a
 * documented status, OK results sane; never a crash, hang or over-read.
 */
static void sweep_one_(const uint8_t *c, size_t n, unsigned *ok, unsigned *bad)
{
	static const uint32_t rids[] = {0x0, 0x10, 0x0312, 0x8010, 0xffff};
	struct virq_gic_desc d;
	bool have_gic = virq_fdt_discover_gic(c, n, &d, NULL) == LIBVIRQ_OK;

	for (uint32_t i = 0; i < 9; i++) {
		struct virq_fdt_pci_host h;
		const char *why = NULL;
		virq_status st = virq_fdt_discover_pci_host(c, n, i, &h, &why);

		assert_non_null(why);
		assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EBADDT || st == LIBVIRQ_ENOENT ||
			    st == LIBVIRQ_ENOSPC);
		if (st != LIBVIRQ_OK) {
			(*bad)++;
			continue;
		}
		(*ok)++;
		assert_true(h.bus_start <= h.bus_end && h.bus_end <= 255);
		assert_true(h.cfg_size > 0 && h.nr_ranges <= LIBVIRQ_FDT_PCI_MAX_RANGES);
		for (uint32_t r = 0; r < h.nr_ranges; r++)
			assert_true(h.ranges[r].size > 0 &&
				    h.ranges[r].cpu_base + h.ranges[r].size - 1 >=
					h.ranges[r].cpu_base);
		if (!have_gic)
			continue;
		for (size_t k = 0; k < sizeof(rids) / sizeof(rids[0]); k++) {
			struct virq_fdt_msi_target t;

			st = virq_fdt_msi_map(c, n, &d, h.node, rids[k], LIBVIRQ_FDT_ANY_ITS, &t,
					      &why);
			assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EBADDT ||
				    st == LIBVIRQ_ENOENT || st == LIBVIRQ_ENOTSUP ||
				    st == LIBVIRQ_ENOSPC);
			if (st == LIBVIRQ_OK) {
				assert_true(t.its_index < d.nr_its);
				assert_int_equal(t.its_phandle, d.its[t.its_index].phandle);
			}
		}
	}
}

/*
 * Every committed fuzz_fdt_pci seed and regression input, through every
 * host and RID of the sweep, plus (as the target does) the bytes past the
 * blob's totalsize read as node offsets; a hang fails through the alarm.
 */
static unsigned replay_dir_(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	unsigned n = 0, ok = 0, bad = 0;

	if (!dp)
		fail_msg("cannot open %s", dir);
	while ((e = readdir(dp)) != NULL) {
		char path[1024];
		struct stat sb;
		struct virq_gic_desc d;
		size_t len;
		uint8_t *b;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size == 0)
			continue;
		b = load_path_(path, &len);
		alarm(10);
		sweep_one_(b, len, &ok, &bad);
		if (len >= 40 && virq_fdt_discover_gic(b, len, &d, NULL) == LIBVIRQ_OK &&
		    fdt_totalsize(b) < len) {
			for (size_t at = fdt_totalsize(b); at + 2 <= len; at += 2) {
				struct virq_fdt_msi_target t;
				int32_t node = (int32_t)((b[at] | b[at + 1] << 8) & 0xfffc);
				virq_status st = virq_fdt_msi_map(b, len, &d, node, 0x10,
								  LIBVIRQ_FDT_ANY_ITS, &t, NULL);

				assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EINVAL ||
					    st == LIBVIRQ_ENOENT || st == LIBVIRQ_EBADDT ||
					    st == LIBVIRQ_ENOTSUP);
			}
		}
		alarm(0);
		free(b);
		n++;
	}
	closedir(dp);
	return n;
}

static void test_replay_fuzz_seeds(void **state)
{
	(void)state;
	assert_true(replay_dir_(LIBVIRQ_FUZZ_CORPUS_DIR) > 20);
	assert_true(replay_dir_(LIBVIRQ_FUZZ_REGRESS_DIR) >= 2);
}

static void test_mutation_sweep(void **state)
{
	static const char *const names[] = {"pci_msi", "pci_msi_bad"};
	uint32_t rng = 0x9e3779b9u;
	unsigned ok = 0, bad = 0;

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		size_t len;
		uint8_t *b = load_gen_(names[k], &len);

		for (unsigned it = 0; it < 600; it++) {
			uint8_t *c = malloc(len);

			assert_non_null(c);
			memcpy(c, b, len);
			for (unsigned m = 0; m < 3; m++) {
				rng = rng * 1664525u + 1013904223u;
				c[(rng >> 8) % len] ^= (uint8_t)(1u << (rng >> 29));
			}
			sweep_one_(c, len, &ok, &bad);
			free(c);
		}
		free(b);
	}
	print_message("  mutations: %u hosts accepted, %u rejected\n", ok, bad);
	assert_true(ok > 0 && bad > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_qemu72_dumps),
	    cmocka_unit_test(test_live_qemu_dumps),
	    cmocka_unit_test(test_live_qemu_edu),
	    cmocka_unit_test(test_qemu_phandle_rewritten),
	    cmocka_unit_test(test_pci_msi_fixture),
	    cmocka_unit_test(test_pci_host_fixture),
	    cmocka_unit_test(test_for_each_pci_host),
	    cmocka_unit_test(test_cfg_addr),
	    cmocka_unit_test(test_hostile_maps),
	    cmocka_unit_test(test_hostile_hosts),
	    cmocka_unit_test(test_malformed_any_index),
	    cmocka_unit_test(test_map_limits),
	    cmocka_unit_test(test_msi_misuse),
	    cmocka_unit_test(test_replay_fuzz_seeds),
	    cmocka_unit_test(test_mutation_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
