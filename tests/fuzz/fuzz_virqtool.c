/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: virqtool's argument parser and every subcommand but
 * `dt` (which reads files; the device-tree parser has fuzz_fdt).
 *
 * Input: a command line, words separated by blanks or newlines (the seeds
 * are readable: "its encode MAPTI DeviceID=5 pINTID=8192"). The words after
 * the program name go to virqtool_main() with its output captured.
 * Properties checked on every input:
 *  - the exit status is 0 or 2, never anything else, and nothing crashes,
 *    leaks or reads out of bounds (ASan + UBSan);
 *  - status 2: nothing on stdout and exactly one line on stderr, starting
 *    "virqtool: ";  status 0: nothing on stderr and a newline-terminated
 *    stdout;
 *  - `its decode` that succeeds prints a form `its encode` parses; when the
 *    command is valid (encode accepts every value), decoding what encode
 *    makes of it prints the same line again;
 *  - `its encode` that succeeds prints four doublewords that `its decode`
 *    takes, and encoding the decoded form gives the same doublewords.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "virqtool.h"

#define MAXW 48
#define MAXLEN 4096

struct run_ {
	int rc;
	char *out, *err;
	size_t nout, nerr;
};

/* Runs virqtool on @argv[0..argc) (argv[0] = program name), capturing its output. */
static void run_(int argc, char **argv, struct run_ *r)
{
	FILE *o, *e;

	r->out = r->err = NULL;
	r->nout = r->nerr = 0;
	o = open_memstream(&r->out, &r->nout);
	e = open_memstream(&r->err, &r->nerr);
	FUZZ_CHECK(o && e);
	vt_out = o;
	vt_err = e;
	r->rc = virqtool_main(argc, argv);
	fclose(o);
	fclose(e);
	vt_out = vt_err = NULL;
}

static void run_free_(struct run_ *r)
{
	free(r->out);
	free(r->err);
}

static void check_conventions_(const struct run_ *r)
{
	FUZZ_CHECK(r->rc == 0 || r->rc == VIRQTOOL_EBADINPUT);
	if (r->rc) {
		FUZZ_CHECK(r->nout == 0);
		FUZZ_CHECK(r->nerr > 10 && !strncmp(r->err, "virqtool: ", 10));
		FUZZ_CHECK(memchr(r->err, '\n', r->nerr) == r->err + r->nerr - 1);
	} else {
		FUZZ_CHECK(r->nerr == 0);
		FUZZ_CHECK(r->nout > 0 && r->out[r->nout - 1] == '\n');
	}
}

/* Splits @line (modified) at blanks into @w (after the program name). */
static int split_(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL;

	w[n++] = (char *)"virqtool";
	for (char *t = strtok_r(line, " \t\n\r", &save); t && n < max;
	     t = strtok_r(NULL, " \t\n\r", &save))
		w[n++] = t;
	return n;
}

/* Runs "its VERB <words of @text>" and returns the result (caller frees). */
static void its_again_(const char *verb, const char *text, struct run_ *r)
{
	char *copy = strdup(text);
	char *w[MAXW + 3];
	int n;

	FUZZ_CHECK(copy != NULL);
	n = split_(copy, w + 2, MAXW) + 2;
	w[0] = (char *)"virqtool";
	w[1] = (char *)"its";
	w[2] = (char *)verb;
	run_(n, w, r);
	check_conventions_(r);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[MAXLEN + 1];
	char *w[MAXW + 1];
	struct run_ r;
	int n;

	if (size > MAXLEN || memchr(data, 0, size))
		return 0;
	memcpy(line, data, size);
	line[size] = 0;
	n = split_(line, w, MAXW);
	if (n >= 2 && !strcmp(w[1], "dt"))
		return 0;
	run_(n, w, &r);
	check_conventions_(&r);
	if (r.rc == 0 && n == 7 && !strcmp(w[1], "its") && !strcmp(w[2], "decode")) {
		/* decode -> encode -> decode is stable. The fields are the first
		 * line; a second names RES0 bits set (docs/virqtool.md), which
		 * encode never sets, so the decode of its words is that line. */
		struct run_ e, d;
		const char *nl = memchr(r.out, '\n', r.nout);
		size_t n1 = (size_t)(nl - r.out) + 1;
		char *first = calloc(n1 + 1, 1);

		FUZZ_CHECK(first != NULL);
		memcpy(first, r.out, n1);
		its_again_("encode", first, &e);
		/* A decoded field encode refuses is a value out of range, never a
		 * field name or syntax encode cannot parse. */
		FUZZ_CHECK(e.rc == 0 || strstr(e.err, "out of range") ||
			   strstr(e.err, "misaligned") || strstr(e.err, "cannot encode"));
		if (e.rc == 0) {
			its_again_("decode", e.out, &d);
			FUZZ_CHECK(d.rc == 0 && d.nout == n1 && !memcmp(d.out, first, n1));
			run_free_(&d);
		}
		run_free_(&e);
		free(first);
	} else if (r.rc == 0 && n >= 4 && !strcmp(w[1], "its") && !strcmp(w[2], "encode") &&
		   !strncmp(r.out, "0x", 2)) { /* the doublewords, not a help text */
		/* encode -> decode -> encode gives the same doublewords. */
		struct run_ d, e;

		its_again_("decode", r.out, &d);
		FUZZ_CHECK(d.rc == 0);
		its_again_("encode", d.out, &e);
		FUZZ_CHECK(e.rc == 0 && e.nout == r.nout && !memcmp(e.out, r.out, r.nout));
		run_free_(&d);
		run_free_(&e);
	}
	run_free_(&r);
	return 0;
}
