/* SPDX-License-Identifier: MIT */
/* Documentation completeness of the GICv4 core headers (project rule, BRIEF):
 * every public function's Doxygen comment documents each parameter, its
 * result (non-void), its thread-safety and the spec section it implements.
 * Doxygen itself only checks that a comment exists. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <cmocka.h>

#ifndef LIBVIRQ_SRC_DIR
#error "LIBVIRQ_SRC_DIR must name the source tree"
#endif

static char *slurp(const char *rel)
{
	char path[1024];
	FILE *fp;
	long n;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", LIBVIRQ_SRC_DIR, rel);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = 0;
	fclose(fp);
	return buf;
}

/* Whether @doc (length @len) contains @needle. */
static int has(const char *doc, size_t len, const char *needle)
{
	size_t nl = strlen(needle);

	for (size_t i = 0; i + nl <= len; i++)
		if (!memcmp(doc + i, needle, nl))
			return 1;
	return 0;
}

/* Whether @doc documents parameter @name ("@param name" or "@param[dir] name"). */
static int has_param(const char *doc, size_t len, const char *name)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		const char *p;

		if (memcmp(doc + i, "@param", 6))
			continue;
		p = doc + i + 6;
		if (*p == '[')
			p = strchr(p, ']') + 1;
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, strlen(name)) &&
		    !(isalnum((unsigned char)p[strlen(name)]) || p[strlen(name)] == '_'))
			return 1;
	}
	return 0;
}

/* Checks every function prototype preceded by a Doxygen comment; returns problems found. */
static int check_header(const char *rel)
{
	char *buf = slurp(rel);
	int bad = 0, nfn = 0;

	for (char *c = strstr(buf, "/**"); c; c = strstr(c, "/**")) {
		char *end = strstr(c, "*/"), *decl, *stop, *open, *close, *nm;
		size_t dlen = (size_t)(end - c);
		char name[128];
		int is_void;

		assert_non_null(end);
		decl = end + 2;
		while (isspace((unsigned char)*decl))
			decl++;
		stop = decl + strcspn(decl, ";{#/");
		open = memchr(decl, '(', (size_t)(stop - decl));
		c = end;
		if (!open || *decl == '#' || !strncmp(decl, "typedef", 7))
			continue;
		/* Function name: the identifier before '('. */
		nm = open;
		while (nm > decl && (isalnum((unsigned char)nm[-1]) || nm[-1] == '_'))
			nm--;
		snprintf(name, sizeof(name), "%.*s", (int)(open - nm), nm);
		is_void = !strncmp(decl, "void ", 5);
		nfn++;
		if (!has(c - dlen, dlen, "Thread-safety")) {
			printf("%s: %s: no Thread-safety\n", rel, name);
			bad++;
		}
		if (!has(c - dlen, dlen, "IHI 0069") && !has(c - dlen, dlen, "Spec:")) {
			printf("%s: %s: no spec section\n", rel, name);
			bad++;
		}
		if (!is_void && !has(c - dlen, dlen, "@return")) {
			printf("%s: %s: no @return\n", rel, name);
			bad++;
		}
		close = strchr(open, ')');
		for (char *p = open + 1; close && p < close;) {
			char *q = p + strcspn(p, ",)"), *e = q, *s;
			char pn[64];

			while (e > p && !(isalnum((unsigned char)e[-1]) || e[-1] == '_'))
				e--; /* skip "[...]" and spaces */
			if (e > p && e[-1] == ']')
				e--;
			s = e;
			while (s > p && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
				s--;
			snprintf(pn, sizeof(pn), "%.*s", (int)(e - s), s);
			if (strcmp(pn, "void") && pn[0] && !has_param(c - dlen, dlen, pn)) {
				printf("%s: %s: parameter %s undocumented\n", rel, name, pn);
				bad++;
			}
			p = q + 1;
		}
	}
	printf("%s: %d functions checked\n", rel, nfn);
	assert_true(nfn > 5);
	free(buf);
	return bad;
}

static void test_gicv4_docs_complete(void **state)
{
	int bad = 0;

	(void)state;
	bad += check_header("include/libvirq/gicv4/gic.h");
	bad += check_header("include/libvirq/gicv4/its.h");
	bad += check_header("include/libvirq/gicv4/vpe.h");
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gicv4_docs_complete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
