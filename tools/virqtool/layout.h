/* SPDX-License-Identifier: MIT */
/*
 * virqtool: decoding and encoding the AMD layouts of libvirq/amd/fields.h
 * (used by the avic and pmc subcommands). The field names, their order and
 * positions all come from the layout's table; the library's own decoder and
 * encoder check every value virqtool builds.
 */
#ifndef VIRQTOOL_LAYOUT_H
#define VIRQTOOL_LAYOUT_H

#include <libvirq/amd/fields.h>
#include <libvirq/status.h>

/*
 * The library's check of a value: decodes @w with the layout's decoder and
 * encodes the fields again into @out; returns the decoder's status (or the
 * encoder's, when the decoder accepted the value).
 */
typedef int (*vt_layout_check_fn)(const uint64_t w[2], uint64_t out[2]);

/*
 * Decodes the words of @l (one, or two for a 128-bit layout) from @argv (at
 * least one argument that is a number; "--strict" anywhere) and prints one
 * line of Name=value tokens in the table's order, reserved fields that hold
 * set bits as Reserved[hi:lo]=0x...; with --strict, set reserved bits also
 * make it fail (one stderr line, status 2). @what names the command in
 * messages.
 */
int vt_layout_decode(const char *what, const struct virq_amd_layout *l, vt_layout_check_fn check,
		     int argc, char **argv);

/*
 * Encodes @l from Name=value arguments (fields left out are 0; names as the
 * table spells them, in any letter case, or an older alias), checks the
 * value with @check and prints the word(s) in hex.
 */
int vt_layout_encode(const char *what, const struct virq_amd_layout *l, vt_layout_check_fn check,
		     int argc, char **argv);

/* True when @arg is a bare number (a raw value to decode), not Name=value. */
bool vt_layout_is_raw(const char *arg);

/* Prints the fields of @l: "  Name  [hi:lo]  manual name (aliases: ...)". */
void vt_layout_print_fields(const struct virq_amd_layout *l);

#endif
