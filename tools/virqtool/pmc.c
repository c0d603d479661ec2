/* SPDX-License-Identifier: MIT */
/*
 * virqtool pmc: the AMD PMC-virtualization VMCB layout, MSR mapping and the
 * PerfEvtSel / PerfCtr values.
 *
 *   virqtool pmc perf-ctl VALUE | Name=value ...
 *       decodes a PERF_CTLn (PerfEvtSeln) value into the fields of AMD64 APM
 *       Vol 2 rev 3.44 Figure 13-11, or encodes one from them.
 *   virqtool pmc perf-ctr VALUE
 *       decodes a PERF_CTRn value (Figure 13-10; libvirq's counters hold 48
 *       bits, above them the value is the sign-extension of bit 47).
 *
 *   virqtool pmc layout
 *       one line per VMCB PMU field, "NAME 0xOFFSET WIDTH", absolute VMCB
 *       offsets, widths in bytes, in offset order.
 *   virqtool pmc msr MSR counters=4|6
 *       the VMCB field the MSR maps to for a host-initiated access
 *       (migration): counters=4 is a legacy K7 guest (F15h indices are
 *       translated, never past counter 3), counters=6 a PerfCtrExtCore +
 *       PerfMonV2 + IRPerf guest. Exit 2 with one stderr line when none.
 */
#include "virqtool.h"
#include "layout.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libvirq/pmcvirt.h>

static int pmc_layout_(int argc, char **argv)
{
	if (argc == 1 && vt_is_help(argv[0])) {
		fputs(
		    "usage: virqtool pmc layout\n"
		    "  one line per VMCB PMU field: NAME OFFSET WIDTH (absolute offsets, bytes)\n",
		    vt_out);
		return 0;
	}
	if (argc != 0)
		return vt_fail("pmc layout takes no arguments");
	for (unsigned f = 0; f < LIBVIRQ_PMCVIRT_FIELD_COUNT; f++) {
		const char *name;
		uint32_t off, width;

		if (virq_pmcvirt_field_info((enum virq_pmcvirt_field)f, &name, &off, &width) !=
		    LIBVIRQ_OK)
			return vt_fail("internal: no field %u", f);
		fprintf(vt_out, "%s 0x%03X %u\n", name, off, width);
	}
	return 0;
}

static const struct vt_field msr_fields_[] = {
    {"counters", NULL, true,
     "4: a legacy (K7) guest; 6: a PerfCtrExtCore + PerfMonV2 + IRPerf guest"},
};

static int pmc_guest_(int argc, char **argv, struct virq_pmcvirt_guest *g)
{
	struct vt_kv kv[4];
	struct vt_kv *c;
	const struct vt_kv *extra;
	uint64_t n;
	int nkv = vt_kv_parse(argc, argv, kv, 4);

	if (nkv < 0)
		return VIRQTOOL_EBADINPUT;
	c = vt_kv_find(kv, nkv, "counters", NULL);
	if (!c)
		return vt_fail("missing counters=4|6 (required: counters)");
	if (!vt_parse_u64(c->value, &n) || (n != 4 && n != 6))
		return vt_fail("counters must be 4 or 6, got '%s'", c->value);
	extra = vt_kv_unused(kv, nkv);
	if (extra)
		return vt_fail("unknown field '%.*s'", (int)extra->name_len, extra->name);
	*g = (struct virq_pmcvirt_guest){.ncounters = (uint32_t)n};
	if (n == 6)
		g->ext_core = g->perfmon_v2 = g->irperf = true;
	return 0;
}

static int pmc_msr_(int argc, char **argv)
{
	struct virq_pmcvirt_guest g;
	struct virq_pmcvirt_slot slot;
	const char *name;
	uint64_t msr;
	int rc;

	if (argc < 1)
		return vt_fail("pmc msr: missing MSR (usage: virqtool pmc msr MSR counters=4|6)");
	if (vt_is_help(argv[0])) {
		fputs("usage: virqtool pmc msr MSR counters=4|6\n"
		      "  the VMCB field MSR maps to for a host-initiated access (migration)\n",
		      vt_out);
		vt_print_fields(msr_fields_, 1);
		return 0;
	}
	if (!vt_parse_u64(argv[0], &msr) || msr > 0xFFFFFFFFull)
		return vt_fail("bad MSR index '%s'", argv[0]);
	rc = pmc_guest_(argc - 1, argv + 1, &g);
	if (rc)
		return rc;
	if (virq_pmcvirt_msr_map(&g, (uint32_t)msr, LIBVIRQ_PMCVIRT_HOST, &slot) != LIBVIRQ_OK)
		return vt_fail("MSR 0x%08llX maps to no VMCB field for a %u-counter guest",
			       (unsigned long long)msr, g.ncounters);
	if (virq_pmcvirt_field_info(slot.field, &name, NULL, NULL) != LIBVIRQ_OK)
		return vt_fail("internal: no field %u", (unsigned)slot.field);
	fprintf(vt_out, "%s\n", name);
	return 0;
}

static int chk_evtsel_(const uint64_t w[2], uint64_t out[2])
{
	struct virq_pmcvirt_evtsel f;
	virq_status st = virq_pmcvirt_evtsel_decode(w[0], &f);

	return st != LIBVIRQ_OK ? (int)st : (int)virq_pmcvirt_evtsel_encode(&f, &out[0]);
}

static int pmc_ctl_(int argc, char **argv)
{
	if (argc < 1)
		return vt_fail(
		    "pmc perf-ctl: missing arguments (try 'virqtool pmc perf-ctl --help')");
	if (vt_is_help(argv[0])) {
		fputs("usage: virqtool pmc perf-ctl VALUE [--strict] | Name=value ...\n", vt_out);
		vt_layout_print_fields(&virq_pmcvirt_layout_perfevtsel);
		return 0;
	}
	if (vt_layout_is_raw(argv[0]) || !strcmp(argv[0], "--strict"))
		return vt_layout_decode("pmc perf-ctl", &virq_pmcvirt_layout_perfevtsel,
					chk_evtsel_, argc, argv);
	return vt_layout_encode("pmc perf-ctl", &virq_pmcvirt_layout_perfevtsel, chk_evtsel_, argc,
				argv);
}

static int pmc_ctr_(int argc, char **argv)
{
	uint64_t v;

	if (argc == 1 && vt_is_help(argv[0])) {
		fputs("usage: virqtool pmc perf-ctr VALUE\n", vt_out);
		vt_layout_print_fields(&virq_pmcvirt_layout_perfctr);
		return 0;
	}
	if (argc != 1 || !vt_parse_u64(argv[0], &v))
		return vt_fail(
		    "pmc perf-ctr: expected one value (try 'virqtool pmc perf-ctr --help')");
	/* 48 significant bits; above them a counter reads as the sign-extension of bit 47. */
	fprintf(vt_out, "Count=0x%" PRIx64 " count48=0x%012" PRIx64 "%s\n", v,
		(uint64_t)(v & LIBVIRQ_PMCVIRT_CTR_MASK),
		(v >> 47) == 0 || (v >> 47) == 0x1FFFFull ? ""
							  : " (bits 63:48 not the sign of bit 47)");
	return 0;
}

int virqtool_pmc(int argc, char **argv)
{
	if (argc < 1)
		return vt_fail("pmc: missing subcommand (try 'virqtool pmc --help')");
	if (vt_is_help(argv[0])) {
		fputs(
		    "usage: virqtool pmc layout                 the VMCB PMU fields\n"
		    "       virqtool pmc msr MSR counters=4|6   the VMCB field an MSR maps to\n"
		    "       virqtool pmc perf-ctl VALUE|Name=...  a PERF_CTLn (PerfEvtSel) value\n"
		    "       virqtool pmc perf-ctr VALUE         a PERF_CTRn value\n"
		    "       virqtool pmc fields                 the fields of 'msr', 'perf-ctl'\n",
		    vt_out);
		return 0;
	}
	if (!strcmp(argv[0], "fields")) {
		fputs("virqtool pmc msr MSR:\n", vt_out);
		vt_print_fields(msr_fields_, 1);
		fputs("virqtool pmc perf-ctl:\n", vt_out);
		vt_layout_print_fields(&virq_pmcvirt_layout_perfevtsel);
		return 0;
	}
	if (!strcmp(argv[0], "layout"))
		return pmc_layout_(argc - 1, argv + 1);
	if (!strcmp(argv[0], "msr"))
		return pmc_msr_(argc - 1, argv + 1);
	if (!strcmp(argv[0], "perf-ctl"))
		return pmc_ctl_(argc - 1, argv + 1);
	if (!strcmp(argv[0], "perf-ctr"))
		return pmc_ctr_(argc - 1, argv + 1);
	return vt_fail("unknown pmc command '%s' (try 'virqtool pmc --help')", argv[0]);
}
