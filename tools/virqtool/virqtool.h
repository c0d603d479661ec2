/* SPDX-License-Identifier: MIT */
/*
 * virqtool: host CLI over libvirq's encoders and discovery (docs/virqtool.md).
 *
 * Conventions for every subcommand:
 * - results go to vt_out (stdout); on bad input, exactly one line naming the
 *   problem goes to vt_err (stderr), nothing to vt_out, and the exit status
 *   is 2;
 * - numbers are decimal or 0x-hex; fields are given as name=value, names
 *   as the manuals spell them (DeviceID, pINTID) or in any letter case;
 * - "--help" (or "-h", "help") at any level prints that level's usage to
 *   vt_out and exits 0; "fields" lists a command's fields.
 */
#ifndef VIRQTOOL_H
#define VIRQTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status for bad input. */
#define VIRQTOOL_EBADINPUT 2

/* Where results and the error line go (stdout / stderr unless redirected,
 * e.g. by the argument fuzzer). */
extern FILE *vt_out;
extern FILE *vt_err;

/* Runs one command line (argv[0] is the program name). */
int virqtool_main(int argc, char **argv);

/* Prints "virqtool: <fmt...>" and a newline to vt_err; returns VIRQTOOL_EBADINPUT. */
int vt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* True for "--help", "-h" and "help". */
bool vt_is_help(const char *arg);

/* Parses a whole decimal or 0x-hex unsigned 64-bit number. False on junk or overflow. */
bool vt_parse_u64(const char *s, uint64_t *out);

/* A parsed name=value argument list. */
struct vt_kv {
	const char *name; /* points into argv */
	size_t name_len;
	const char *value; /* after '=' */
	bool used;
};

/* True when the @len bytes at @s spell @name, ignoring letter case. */
bool vt_name_eq(const char *s, size_t len, const char *name);

/*
 * Splits argv[0..argc) into name=value pairs (at most @max).
 * Returns the count, or -1 (after vt_fail) on a malformed argument or a
 * name given twice (compared ignoring case).
 */
int vt_kv_parse(int argc, char **argv, struct vt_kv *kv, int max);
/* Finds @name (ignoring case), else @alias when not NULL; NULL when absent. Marks it used. */
struct vt_kv *vt_kv_find(struct vt_kv *kv, int n, const char *name, const char *alias);
/* Returns the first argument that was never looked up, or NULL. */
const struct vt_kv *vt_kv_unused(const struct vt_kv *kv, int n);

/*
 * A field of a key=value command (avic, pmc): its name, an accepted alias
 * (or NULL), whether it must be given, and one line of help.
 */
struct vt_field {
	const char *name;
	const char *alias;
	bool required;
	const char *help;
};

/* "missing field 'NAME' (required: A, B, ...)" for the @n fields of @f; returns 2. */
int vt_missing(const char *name, const struct vt_field *f, size_t n);
/* Prints the fields of one command, one per line: "  NAME  required|optional  help". */
void vt_print_fields(const struct vt_field *f, size_t n);

/* Subcommands: argv[0] is the subcommand's own first argument. */
int virqtool_its(int argc, char **argv);
int virqtool_dt(int argc, char **argv);
int virqtool_avic(int argc, char **argv);
int virqtool_pmc(int argc, char **argv);

#endif
