/* SPDX-License-Identifier: MIT */
/*
 * Fixture of the strict matrix's self-test (strict_selftest_*): every
 * construct below breaks one rule of tests/build/strict/strict_matrix.sh once.
 * Each "expect: <compiler> <flag>" line names a diagnostic that compiler must
 * report; a flag dropped from the matrix (or a compiler that stopped checking
 * it) fails the self-test. Not part of the library.
 */
#include <libvirq/virq_env.h>

#define FIXTURE_UNUSED_ 1 /* expect: gcc -Wunused-macros  expect: clang -Wunused-macros */

#if FIXTURE_UNDEFINED_ /* expect: gcc -Wundef  expect: clang -Wundef */
#endif

enum fixture_e { FIXTURE_A, FIXTURE_B };

int fixture_noproto(); /* expect: gcc -Wstrict-prototypes  expect: clang -Wstrict-prototypes */
int fixture_redundant(int x);
int fixture_redundant(int x); /* expect: gcc -Wredundant-decls (a no-op in clang) */
int fixture_lp(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));

/* Missing prototype: expect: gcc -Wmissing-prototypes  expect: clang -Wmissing-prototypes */
int fixture_no_decl(int v)
{
	return v;
}

static const int fixture_ranges[4] = {
    [0 ... 3] = 1}; /* expect: gcc -Wpedantic  expect: clang -Wgnu-designator */

/* expect: gcc -Warith-conversion */
static uint8_t fixture_arith(uint8_t a, uint8_t b)
{
	return a + b;
}

static uint8_t fixture_narrow(uint32_t v)
{
	return v; /* expect: gcc -Wconversion  expect: clang -Wimplicit-int-conversion */
}

static uint32_t fixture_sign(int v)
{
	return v; /* expect: gcc -Wsign-conversion  expect: clang -Wsign-conversion */
}

static int fixture_switch(enum fixture_e e, int k)
{
	switch (e) { /* expect: gcc -Wswitch-enum  expect: clang -Wswitch-enum */
	case FIXTURE_A:
		return 1;
	default:
		break;
	}
	switch (k) { /* expect: gcc -Wswitch-default */
	case 0:
		k++;
	case 1: /* expect: gcc -Wimplicit-fallthrough=  expect: clang -Wimplicit-fallthrough */
		return k;
	}
	return 0;
}

static int *fixture_casts(const int *p, char *c)
{
	uint32_t *w = (uint32_t *)c; /* expect: gcc -Wcast-align  expect: clang -Wcast-align */

	*w = 0;
	return (int *)p; /* expect: gcc -Wcast-qual  expect: clang -Wcast-qual */
}

static int fixture_shadow(int n)
{
	int s = 0;
	{
		int s = n; /* expect: gcc -Wshadow  expect: clang -Wshadow */
		n = s;
	}
	extern int fixture_nested; /* expect: gcc -Wnested-externs */
	int late = s + n;	   /* expect: gcc -Wdeclaration-after-statement  expect: clang
				      -Wdeclaration-after-statement */
	return late + fixture_nested;
}

static int fixture_vla(int n, const char *fmt)
{
	char buf[n]; /* expect: gcc -Wvla  expect: clang -Wvla */
	void *p = buf;

	p = (char *)p + 1;
	fixture_lp(fmt, n); /* expect: gcc -Wformat-nonliteral  expect: clang -Wformat-nonliteral */
	return (int)sizeof(void) +
	       (p != NULL); /* expect: gcc -Wpointer-arith  expect: clang -Wpointer-arith */
}

static double fixture_float(float f)
{
	return f * 2.0; /* expect: gcc -Wdouble-promotion  expect: clang -Wdouble-promotion */
}

static int fixture_null(void)
{
	return *(int *)NULL; /* expect: gcc -Wnull-dereference  expect: clang -Wnull-dereference */
}

int fixture_all(void);
int fixture_all(void)
{
	int *x = fixture_casts(NULL, NULL);

	return fixture_arith(1, 2) + fixture_narrow(3) + (int)fixture_sign(1) +
	       fixture_switch(FIXTURE_A, 0) + *x + fixture_shadow(1) + fixture_vla(2, "") +
	       (int)fixture_float(1.0f) + fixture_null() + fixture_ranges[0] + fixture_no_decl(0) +
	       fixture_redundant(0) + fixture_noproto();
}
