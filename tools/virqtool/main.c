/* SPDX-License-Identifier: MIT */
#include "virqtool.h"

#include <stdio.h>
#include <string.h>

struct subcmd_ {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct subcmd_ subcmds_[] = {
#ifdef VIRQTOOL_HAVE_ITS
	{ "its", virqtool_its, "its encode CMD field=value... | its decode W0 W1 W2 W3" },
#endif
#ifdef VIRQTOOL_HAVE_DT
	{ "dt", virqtool_dt, "dt FILE.dtb [rid=N [host=N] [its=N]]" },
#endif
#ifdef VIRQTOOL_HAVE_AVIC
	{ "avic", virqtool_avic, "avic phys-entry|logical-entry|logical-index|exit|targets ..." },
#endif
#ifdef VIRQTOOL_HAVE_PMC
	{ "pmc", virqtool_pmc, "pmc layout | pmc msr MSR counters=4|6" },
#endif
	{ NULL, NULL, NULL },
};

static void usage_(FILE *f)
{
	fputs("usage: virqtool <command> ...\n", f);
	for (const struct subcmd_ *s = subcmds_; s->name; s++)
		fprintf(f, "  virqtool %s\n", s->help);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return vt_fail("missing command (try 'virqtool help')");
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
		usage_(stdout);
		return 0;
	}
	for (const struct subcmd_ *s = subcmds_; s->name; s++)
		if (!strcmp(argv[1], s->name))
			return s->fn(argc - 2, argv + 2);
	return vt_fail("unknown command '%s'", argv[1]);
}
