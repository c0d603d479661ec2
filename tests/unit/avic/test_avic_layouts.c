/* SPDX-License-Identifier: MIT */
/*
 * The AVIC, APIC and IOMMU layout tables against the manuals: every table of
 * libvirq/amd/fields.h (through its descriptor) row by row against the
 * transcription in tests/data/amd_layouts.txt, Table 15-22 as data, and
 * golden values drawn from the manuals' figures through the generated
 * encoders and decoders.
 */
#include "avic_test.h"
#include "../amd_layout_walk.h"

static void every_avic_table_matches_the_manual(void **s)
{
	(void)s;
	for (const struct virq_amd_layout *const *l = virq_avic_layouts; *l; l++)
		walk_layout_(*l);
	walk_all_listed_(virq_avic_layouts, "pmc-", true);
}

static int access_(const char *w)
{
	static const char *const names[] = {"ALLOW", "ACCEL",	    "ACCEL_TRAP",  "TRAP",
					    "FAULT", "EXTLVT_READ", "EXTLVT_WRITE"};

	for (int i = 0; i < 7; i++)
		if (!strcmp(w, names[i]))
			return i;
	fail_msg("unknown access '%s'", w);
	return -1;
}

/* Table 15-22 row by row (virq_avic_vapic_regs) against the transcription. */
static void vapic_access_table_matches_the_manual(void **s)
{
	size_t n, row = 0;
	char **v = walk_lines_(&n);

	(void)s;
	for (size_t i = 0; i < n; i++) {
		unsigned first, last, msr;
		char rd[32], wr[32];
		int used = 0;
		const struct virq_avic_vapic_reg *r = &virq_avic_vapic_regs[row];

		if (sscanf(v[i], "access %x %x %x %31s %31s %n", &first, &last, &msr, rd, wr,
			   &used) != 5)
			continue;
		assert_non_null(r->name);
		assert_int_equal(r->first, first);
		assert_int_equal(r->last, last);
		assert_int_equal(r->x2msr, msr);
		assert_int_equal(r->read, access_(rd));
		assert_int_equal(r->write, access_(wr));
		assert_string_equal(r->name, v[i] + used);
		row++;
	}
	assert_null(virq_avic_vapic_regs[row].name);
	walk_free_(v, n);
}

/* Figure 15-17: V | IR | BackingPagePointer[51:12] | HostPhysicalAPICID[11:0]. */
static void golden_phys_entry(void **s)
{
	struct virq_avic_phys_entry f = {0xFFF, 0x000FFFFFFFFFF000ull, true, true};
	uint64_t e;

	(void)s;
	assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_OK);
	assert_true(e == 0xC00FFFFFFFFFFFFFull); /* every field full, 61:52 zero */
	assert_int_equal(virq_avic_phys_entry_decode(0x7FF0000000000000ull, &f), LIBVIRQ_ERANGE);
	assert_int_equal(f.host_apic_id, 0);
	assert_true(!f.valid && f.is_running);
}

/* Figure 20: each field alone lands in its bits. */
static void golden_irte_ga(void **s)
{
	struct virq_avic_irte_ga f = {.remap_en = true,
				      .guest_mode = true,
				      .dest = 0xAB123456u,
				      .vector = 0x5Au,
				      .ga_tag = 0xDEADBEEFu,
				      .ga_root_pa = 0x000FEDCBA9876000ull,
				      .gappi_dis = true};
	uint64_t w[2];
	struct virq_avic_irte_ga g;

	(void)s;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK);
	/* 63:32 GATag, 31:8 Destination[23:0], 7 GuestMode, 5 GAPPIDis, 0 RemapEn. */
	assert_true(w[0] == 0xDEADBEEF123456A1ull);
	/* 127:120 Destination[31:24], 115:76 root pointer (PA[51:12]), 71:64 Vector. */
	assert_true(w[1] == 0xAB0FEDCBA987605Aull);
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	/* Bits 4:3, 75:72 and 119:116 are reserved; bit 5 (GAPPIDis) is not. */
	w[0] |= 0x18;
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_ERANGE);
	w[0] &= ~0x18ull;
	w[1] |= 0x00F0000000000F00ull;
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_ERANGE);
}

/* Figure 19: IntType 010b-111b are reserved (Table 22). */
static void golden_irte_remap(void **s)
{
	struct virq_avic_irte_ga f = {
	    .remap_en = true, .dest = 0x01020304u, .vector = 0x31, .int_type = 1, .rq_eoi = true};
	uint64_t w[2];
	struct virq_avic_irte_ga g;

	(void)s;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK);
	assert_true(w[0] == 0x0000000002030425ull);
	assert_true(w[1] == 0x0100000000000031ull);
	f.int_type = 2;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_ERANGE);
	w[0] = 0x0000000002030409ull; /* IntType 010b */
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_ERANGE);
}

/* Figure 79: OpCode 0001b | Reserved | DeviceID | GATag. */
static void golden_ga_log(void **s)
{
	uint32_t tag;
	uint16_t dev;
	uint8_t code;

	(void)s;
	assert_int_equal(virq_avic_ga_log_decode(0x1000ABCD00005007ull, &tag, &dev, &code),
			 LIBVIRQ_OK);
	assert_int_equal(code, 1);
	assert_int_equal(dev, 0xABCD);
	assert_int_equal(tag, 0x5007);
	assert_int_equal(virq_avic_ga_log_decode(0x1001ABCD00005007ull, &tag, &dev, &code),
			 LIBVIRQ_ERANGE);
}

/* Figure 16-34: no DS, no RRS in x2APIC mode. */
static void golden_icr_x2apic(void **s)
{
	struct virq_avic_icr f;
	uint64_t raw;

	(void)s;
	assert_int_equal(virq_avic_icr_decode(0x0000001200031FFFull, true, &f), LIBVIRQ_OK);
	assert_false(f.busy);
	assert_int_equal(f.remote_read_status, 0);
	assert_int_equal(f.dest, 0x12);
	f.busy = true;
	assert_int_equal(virq_avic_icr_encode(&f, &raw), LIBVIRQ_EINVAL);
	/* xAPIC: RRS is bits 17:16. */
	assert_int_equal(virq_avic_icr_decode(0x0000000000020000ull, false, &f), LIBVIRQ_OK);
	assert_int_equal(f.remote_read_status, LIBVIRQ_APIC_RRS_VALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_avic_table_matches_the_manual),
	    cmocka_unit_test(vapic_access_table_matches_the_manual),
	    cmocka_unit_test(golden_phys_entry),
	    cmocka_unit_test(golden_irte_ga),
	    cmocka_unit_test(golden_irte_remap),
	    cmocka_unit_test(golden_ga_log),
	    cmocka_unit_test(golden_icr_x2apic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
