/* SPDX-License-Identifier: MIT */
/*
 * The PMC layout tables against the manual: PerfEvtSeln and PerfCtrn row by
 * row, and the VMCB save-area slots, against the transcription in
 * tests/data/amd_layouts.txt; golden values from Figure 13-11 through the
 * generated codec; PREC_RET stays reserved for guests.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <libvirq/pmcvirt.h>
#include "../amd_layout_walk.h"

static const struct virq_amd_layout *const pmc_layouts_[] = {&virq_pmcvirt_layout_perfevtsel,
							     &virq_pmcvirt_layout_perfctr, NULL};

static void every_pmc_table_matches_the_manual(void **s)
{
	(void)s;
	for (const struct virq_amd_layout *const *l = pmc_layouts_; *l; l++)
		walk_layout_(*l);
	walk_all_listed_(pmc_layouts_, "pmc-", false);
}

struct slot_ {
	const char *name;
	unsigned off, bytes;
	char swap;
};

#define SLOT_(P, NAME, off, bytes, swap) {#NAME, off, bytes, #swap[0]},
static const struct slot_ slots_[] = {LIBVIRQ_VMCB_PMC_SLOTS_TABLE(SLOT_, ~)};
#undef SLOT_

/* LIBVIRQ_VMCB_PMC_SLOTS_TABLE and virq_pmcvirt_field_info() against Tables B-2 and B-4. */
static void vmcb_slots_match_the_manual(void **s)
{
	size_t n, row = 0, count = sizeof(slots_) / sizeof(slots_[0]);
	char **v = walk_lines_(&n);

	(void)s;
	assert_int_equal(count, LIBVIRQ_PMCVIRT_FIELD_COUNT);
	for (size_t i = 0; i < n; i++) {
		char name[64], swap;
		unsigned off, bytes;
		const char *got;
		uint32_t goff, gwidth;

		if (sscanf(v[i], "slot %63s %x %u %c", name, &off, &bytes, &swap) != 4)
			continue;
		assert_true(row < count);
		assert_string_equal(slots_[row].name, name);
		assert_int_equal(slots_[row].off, off);
		assert_int_equal(slots_[row].bytes, bytes);
		assert_int_equal(slots_[row].swap, swap);
		assert_int_equal(
		    virq_pmcvirt_field_info((enum virq_pmcvirt_field)row, &got, &goff, &gwidth),
		    LIBVIRQ_OK);
		assert_string_equal(got, name);
		assert_int_equal(goff, 0x400 + off); /* the save area starts at VMCB 400h */
		assert_int_equal(gwidth, bytes);
		row++;
	}
	assert_int_equal(row, count);
	walk_free_(v, n);
}

/* Figure 13-11: each field alone lands in its bits; the reserved ones are refused. */
static void golden_perfevtsel(void **s)
{
	struct virq_pmcvirt_evtsel f = {.event_select = 0xABC,
					.unit_mask = 0x5A,
					.usr = true,
					.os = true,
					.edge = true,
					.int_en = true,
					.en = true,
					.inv = true,
					.cnt_mask = 0x7E,
					.hg_only = 2,
					.prec_ret = true};
	struct virq_pmcvirt_evtsel g;
	uint64_t v;

	(void)s;
	assert_int_equal(virq_pmcvirt_evtsel_encode(&f, &v), LIBVIRQ_OK);
	/* 43 PREC_RET, 41:40 HG_ONLY, 35:32 EVENT_SELECT[11:8], 31:24 CNT_MASK,
	 * 23 INV, 22 EN, 20 INT, 18 EDGE, 17 OS, 16 USR, 15:8 UNIT_MASK, 7:0 EVENT_SELECT[7:0]. */
	assert_true(v == 0x00000A0A7ED75ABCull);
	assert_int_equal(virq_pmcvirt_evtsel_decode(v, &g), LIBVIRQ_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	f.event_select = 0x1000;
	assert_int_equal(virq_pmcvirt_evtsel_encode(&f, &v), LIBVIRQ_ERANGE);
	f.event_select = 0;
	f.hg_only = 4;
	assert_int_equal(virq_pmcvirt_evtsel_encode(&f, &v), LIBVIRQ_ERANGE);
	for (unsigned b = 0; b < 64; b++) {
		bool rsvd = b == 19 || b == 21 || (b >= 36 && b <= 39) || b == 42 || b >= 44;

		assert_int_equal(virq_pmcvirt_evtsel_decode(1ull << b, &g),
				 rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK);
	}
}

/* The guest-facing masks come from the table; PREC_RET (bit 43) is in both. */
static void guest_reserved_masks(void **s)
{
	(void)s;
	assert_true(LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG == 0xFFFFFCF000280000ull);
	assert_true(LIBVIRQ_PMCVIRT_EVTSEL_RSVD == 0xFFFFFFF000280000ull);
	assert_true((LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG &
		     LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_PREC_RET)) != 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_pmc_table_matches_the_manual),
	    cmocka_unit_test(vmcb_slots_match_the_manual),
	    cmocka_unit_test(golden_perfevtsel),
	    cmocka_unit_test(guest_reserved_masks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
