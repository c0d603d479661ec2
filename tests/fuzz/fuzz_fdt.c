/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: GIC discovery from an arbitrary device-tree blob
 * (virq_fdt_discover_gic(); Devicetree Specification v0.4 §5, binding
 * arm,gic-v3). The seed corpus holds trees dumped from QEMU's virt machine
 * and the unit tests' hand-built good and bad trees.
 *
 * The input is copied into a buffer of exactly its size (so ASan sees any
 * read past the blob) and handed over whole. Properties:
 *  - the result is one of the documented statuses and @c reason is a
 *    non-NULL, non-empty string;
 *  - on failure the description is all zero;
 *  - on success: 1..16 redistributor regions and 0..16 ITSes, every region
 *    non-empty and not wrapping, the GICD region non-empty and not wrapping;
 *    each GICC/GICH/GICV frame absent (0/0) or non-empty and not wrapping;
 *    skipped regions counted iff flagged; an ITS's phandle is 0 or its
 *    node's phandle; the reason is "ok" unless something was skipped;
 *  - the call is deterministic (a second call gives the same bytes).
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <libvirq/fdt.h>

#include "fuzz_common.h"

static int wraps_(uint64_t base, uint64_t size)
{
	return size == 0 || base + size - 1 < base;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* 4-byte alignment is required by the API; malloc gives more. */
	uint8_t *blob = malloc(size ? size : 1);
	struct virq_gic_desc d, d2, zero;
	const char *reason = NULL, *reason2 = NULL;
	virq_status st, st2;

	FUZZ_CHECK(blob != NULL);
	memcpy(blob, data, size);
	memset(&d, 0x5A, sizeof(d));
	st = virq_fdt_discover_gic(blob, size, &d, &reason);
	FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EBADDT || st == LIBVIRQ_ENOENT ||
		   st == LIBVIRQ_ENOSPC);
	FUZZ_CHECK(reason != NULL && reason[0] != '\0');
	memset(&zero, 0, sizeof(zero));
	if (st != LIBVIRQ_OK) {
		FUZZ_CHECK(memcmp(&d, &zero, sizeof(d)) == 0);
	} else {
		FUZZ_CHECK(d.nr_redist_regions >= 1 &&
			   d.nr_redist_regions <= LIBVIRQ_GIC_MAX_REDIST_REGIONS);
		FUZZ_CHECK(d.nr_its <= LIBVIRQ_GIC_MAX_ITS);
		FUZZ_CHECK(!wraps_(d.gicd_base, d.gicd_size));
		for (uint32_t i = 0; i < d.nr_redist_regions; i++)
			FUZZ_CHECK(!wraps_(d.redist[i].base, d.redist[i].size));
		for (uint32_t i = 0; i < d.nr_its; i++) {
			FUZZ_CHECK(!wraps_(d.its[i].base, d.its[i].size));
			FUZZ_CHECK(d.its[i].fdt_node > 0);
			FUZZ_CHECK(d.its[i].phandle != 0xffffffffu);
			if (d.its[i].phandle)
				FUZZ_CHECK(fdt_get_phandle(blob, d.its[i].fdt_node) ==
					   d.its[i].phandle);
		}
		FUZZ_CHECK(d.gicc_size == 0 ? d.gicc_base == 0 : !wraps_(d.gicc_base, d.gicc_size));
		FUZZ_CHECK(d.gich_size == 0 ? d.gich_base == 0 : !wraps_(d.gich_base, d.gich_size));
		FUZZ_CHECK(d.gicv_size == 0 ? d.gicv_base == 0 : !wraps_(d.gicv_base, d.gicv_size));
		FUZZ_CHECK((d.nr_redist_skipped != 0) ==
			   ((d.skipped & LIBVIRQ_GIC_SKIP_REDIST) != 0));
		FUZZ_CHECK((d.skipped &
			    ~(uint32_t)(LIBVIRQ_GIC_SKIP_REDIST | LIBVIRQ_GIC_SKIP_CPUIF)) == 0);
		FUZZ_CHECK((d.skipped == 0) == (strcmp(reason, "ok") == 0));
	}
	memset(&d2, 0x5A, sizeof(d2));
	st2 = virq_fdt_discover_gic(blob, size, &d2, &reason2);
	FUZZ_CHECK(st2 == st);
	FUZZ_CHECK(memcmp(&d, &d2, sizeof(d)) == 0);
	free(blob);
	return 0;
}
