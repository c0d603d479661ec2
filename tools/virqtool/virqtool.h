/* SPDX-License-Identifier: MIT */
/*
 * virqtool: host CLI over libvirq's encoders and discovery.
 *
 * Conventions for every subcommand:
 * - results go to stdout; on bad input, exactly one line naming the
 *   problem goes to stderr, nothing to stdout, and the exit status is 2;
 * - numbers are decimal or 0x-hex; fields are given as name=value.
 */
#ifndef VIRQTOOL_H
#define VIRQTOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Exit status for bad input. */
#define VIRQTOOL_EBADINPUT 2

/* Prints "virqtool: <fmt...>" and a newline to stderr; returns VIRQTOOL_EBADINPUT. */
int vt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a whole decimal or 0x-hex unsigned 64-bit number. False on junk or overflow. */
bool vt_parse_u64(const char *s, uint64_t *out);

/* A parsed name=value argument list. */
struct vt_kv {
	const char *name;  /* points into argv */
	size_t name_len;
	const char *value; /* after '=' */
	bool used;
};

/*
 * Splits argv[0..argc) into name=value pairs (at most @max).
 * Returns the count, or -1 (after vt_fail) on a malformed argument or a repeated name.
 */
int vt_kv_parse(int argc, char **argv, struct vt_kv *kv, int max);
/* Finds @name; NULL when absent. Marks it used. */
struct vt_kv *vt_kv_find(struct vt_kv *kv, int n, const char *name);
/* Returns the first argument that was never looked up, or NULL. */
const struct vt_kv *vt_kv_unused(const struct vt_kv *kv, int n);

/* Subcommands: argv[0] is the subcommand's own first argument. */
int virqtool_its(int argc, char **argv);
int virqtool_dt(int argc, char **argv);
int virqtool_avic(int argc, char **argv);
int virqtool_pmc(int argc, char **argv);

#endif
