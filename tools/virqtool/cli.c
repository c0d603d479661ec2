/* SPDX-License-Identifier: MIT */
/* virqtool's top level: the subcommands built in, and the usage. */
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
    {"its", virqtool_its, "encode, decode and list GICv3/v4 ITS commands (Arm IHI 0069H §5.3)"},
#endif
#ifdef VIRQTOOL_HAVE_DT
    {"dt", virqtool_dt,
     "GIC, PCI host and device MSI topology libvirq's discovery finds in a device tree blob"},
#endif
#ifdef VIRQTOOL_HAVE_AVIC
    {"avic", virqtool_avic,
     "AVIC table entries, backing page, IOMMU IRTEs, exits and IPI targets (APM Vol 2 rev 3.44 "
     "§15.29)"},
#endif
#ifdef VIRQTOOL_HAVE_PMC
    {"pmc", virqtool_pmc,
     "the PMC-virtualization VMCB layout, MSR mapping and PERF_CTL/PERF_CTR values (APM Vol 2 "
     "rev 3.44 §15.39)"},
#endif
    {NULL, NULL, NULL},
};

static void usage_(void)
{
	fputs("usage: virqtool COMMAND ...   (virqtool COMMAND --help for each)\n", vt_out);
	for (const struct subcmd_ *s = subcmds_; s->name; s++)
		fprintf(vt_out, "  %-5s %s\n", s->name, s->help);
}

/*
 * "virqtool help CMD [SUB ...]": the help of that level, as
 * "virqtool CMD [SUB ...] --help" prints it.
 */
static int help_for_(int argc, char **argv)
{
	static char help[] = "--help";
	char *args[16];

	if (argc >= (int)(sizeof(args) / sizeof(args[0])))
		return vt_fail("help: too many words (%d)", argc);
	for (const struct subcmd_ *s = subcmds_; s->name; s++) {
		if (strcmp(argv[0], s->name))
			continue;
		for (int i = 1; i < argc; i++)
			args[i - 1] = argv[i];
		args[argc - 1] = help;
		return s->fn(argc, args);
	}
	return vt_fail("help: unknown command '%s' (try 'virqtool --help')", argv[0]);
}

int virqtool_main(int argc, char **argv)
{
	if (!vt_out)
		vt_out = stdout;
	if (!vt_err)
		vt_err = stderr;
	if (argc < 2)
		return vt_fail("missing command (try 'virqtool --help')");
	if (vt_is_help(argv[1])) {
		if (argc > 2)
			return help_for_(argc - 2, argv + 2);
		usage_();
		return 0;
	}
	for (const struct subcmd_ *s = subcmds_; s->name; s++)
		if (!strcmp(argv[1], s->name))
			return s->fn(argc - 2, argv + 2);
	return vt_fail("unknown command '%s' (try 'virqtool --help')", argv[1]);
}
