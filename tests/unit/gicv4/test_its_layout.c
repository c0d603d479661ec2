/* SPDX-License-Identifier: MIT */
/*
 * The ITS command tables walked against the manual: every command's layout
 * (virq_its_cmd_layout()), RES0 masks, decoder and encoder against
 * tests/data/its/ihi0069h_commands.txt, a transcription of the command
 * formats of Arm IHI 0069H §5.3 written from the manual, not from the
 * library's tables.
 *
 * For each command of the transcription:
 *  - the transcription itself covers every bit of DW0..DW3 exactly once,
 *    from bit 63 down, with field names the library knows;
 *  - the library has the command, with the same opcode, and its layout has
 *    exactly the transcribed fields (names, doublewords, bit ranges);
 *  - every other bit is RES0: virq_its_cmd_res0_mask() is the union of the
 *    transcribed RES0 ranges, and virq_its_cmd_res0() reports exactly the
 *    RES0 bits set in a command, none in one the encoder wrote;
 *  - each field decodes from exactly its bits: all ones in the field and
 *    nowhere else give the field's largest value and every other field 0;
 *    RES0 bits all set decode to nothing;
 *  - the encoder writes each field back to exactly its bits, and refuses
 *    one more than the field holds, naming the field (no truncation).
 * And no opcode outside the transcription is a command.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/virq.h>
#include <libvirq/gicv4/its_cmd.h>

#ifndef LIBVIRQ_SRC_DIR
#error "LIBVIRQ_SRC_DIR must name the source tree"
#endif
#define MANUAL_ LIBVIRQ_SRC_DIR "/tests/data/its/ihi0069h_commands.txt"

#define MAXF_ 24

struct tfield {
	unsigned dw, hi, lo;
	char name[32]; /* "RES0" for a reserved range */
};

struct tcmd {
	char name[16];
	unsigned opcode;
	size_t n;
	struct tfield f[MAXF_];
};

static struct tcmd cmds[64];
static size_t ncmds;

static uint64_t mask_(unsigned hi, unsigned lo)
{
	return (~0ull >> (63 - hi)) & (~0ull << lo);
}

/* Reads the transcription; fails the test on any line it cannot parse. */
static void load_(void)
{
	FILE *fp = fopen(MANUAL_, "r");
	char line[256];

	assert_non_null(fp);
	ncmds = 0;
	while (fgets(line, sizeof(line), fp)) {
		struct tfield t;
		char name[32];
		unsigned op;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "COMMAND %15s %x", name, &op) == 2) {
			assert_true(ncmds < sizeof(cmds) / sizeof(cmds[0]));
			memset(&cmds[ncmds], 0, sizeof(cmds[ncmds]));
			strcpy(cmds[ncmds].name, name);
			cmds[ncmds].opcode = op;
			ncmds++;
			continue;
		}
		if (sscanf(line, "DW%u %u:%u %31s", &t.dw, &t.hi, &t.lo, t.name) != 4)
			fail_msg("cannot parse: %s", line);
		assert_true(ncmds > 0 && cmds[ncmds - 1].n < MAXF_);
		cmds[ncmds - 1].f[cmds[ncmds - 1].n++] = t;
	}
	fclose(fp);
	assert_int_equal(ncmds, 21);
}

static bool res0_(const struct tfield *t)
{
	return !strcmp(t->name, "RES0");
}

/* The field enum constant of a transcribed name (the library's spelling). */
static enum virq_its_field field_of_(const char *name)
{
	for (int f = LIBVIRQ_ITS_F_opcode; f < LIBVIRQ_ITS_F_COUNT; f++)
		if (!strcmp(virq_its_field_name((enum virq_its_field)f), name))
			return (enum virq_its_field)f;
	fail_msg("'%s' is no field the library knows", name);
	return LIBVIRQ_ITS_F_NONE;
}

/* The transcription covers DW0..DW3 exactly, bit 63 down to 0 in each. */
static void test_transcription_covers_every_bit(void **s)
{
	(void)s;
	load_();
	for (size_t i = 0; i < ncmds; i++) {
		const struct tcmd *c = &cmds[i];
		unsigned dw = 0, next = 63; /* the next bit the transcription must name */

		for (size_t k = 0; k < c->n; k++) {
			const struct tfield *t = &c->f[k];

			if (t->dw != dw) { /* a new doubleword starts at bit 63 */
				assert_int_equal(next, 64u + 63u);
				assert_int_equal(t->dw, dw + 1);
				dw = t->dw;
				next = 63;
			}
			if (t->hi != next || t->lo > t->hi)
				fail_msg("%s DW%u %u:%u: bit %u expected", c->name, t->dw, t->hi,
					 t->lo, next);
			next = t->lo == 0 ? 64u + 63u : t->lo - 1; /* 127: this DW is done */
			if (!res0_(t))
				(void)field_of_(t->name);
		}
		assert_int_equal(dw, 3);
		assert_int_equal(next, 64u + 63u);
	}
}

static const struct tcmd *lookup_(unsigned op)
{
	for (size_t i = 0; i < ncmds; i++)
		if (cmds[i].opcode == op)
			return &cmds[i];
	return NULL;
}

/* Same commands, opcodes and names; same fields; RES0 everywhere else. */
static void test_layouts_are_the_manuals(void **s)
{
	(void)s;
	load_();
	for (unsigned op = 0; op < 256; op++) {
		const struct tcmd *c = lookup_(op);
		const enum virq_its_opcode o = (enum virq_its_opcode)op;
		size_t n = 99, nf = 0;
		const struct virq_its_field_pos *lay = virq_its_cmd_layout(o, &n);
		uint64_t res0[4] = {0, 0, 0, 0};

		if (!c) {
			assert_null(lay);
			assert_int_equal(n, 0);
			assert_null(virq_its_opcode_name(o));
			assert_int_equal(virq_its_cmd_fields(o), 0);
			continue;
		}
		assert_non_null(lay);
		assert_string_equal(virq_its_opcode_name(o), c->name);
		for (size_t k = 0; k < c->n; k++) {
			const struct tfield *t = &c->f[k];
			bool found = false;

			if (res0_(t)) {
				res0[t->dw] |= mask_(t->hi, t->lo);
				continue;
			}
			nf++;
			for (size_t j = 0; j < n; j++)
				if (lay[j].field == field_of_(t->name)) {
					assert_false(found);
					found = true;
					if (lay[j].dw != t->dw || lay[j].hi != t->hi ||
					    lay[j].lo != t->lo)
						fail_msg("%s %s: library DW%u[%u:%u], manual "
							 "DW%u[%u:%u]",
							 c->name, t->name, lay[j].dw, lay[j].hi,
							 lay[j].lo, t->dw, t->hi, t->lo);
				}
			if (!found)
				fail_msg("%s: the library has no field %s", c->name, t->name);
		}
		assert_int_equal(n, nf);
		for (unsigned dw = 0; dw < 4; dw++)
			assert_int_equal(virq_its_cmd_res0_mask(o, dw), res0[dw]);
		assert_int_equal(virq_its_cmd_res0_mask(o, 4), 0);
	}
}

/* The 32 bytes of @w; the RES0 bits virq_its_cmd_res0() reports for them. */
static void res0_of_(const uint64_t w[4], uint64_t set[4])
{
	uint8_t raw[32];

	virq_its_cmd_from_words(w, raw);
	assert_int_equal(virq_its_cmd_res0(raw, set), LIBVIRQ_OK);
}

/* The member value a field of all ones decodes to (the member's units). */
static uint64_t all_ones_value_(const struct tfield *t, enum virq_its_field f)
{
	uint64_t m = mask_(t->hi, t->lo);

	switch (f) {
	case LIBVIRQ_ITS_F_ITT_addr:
	case LIBVIRQ_ITS_F_RDbase:
	case LIBVIRQ_ITS_F_RDbase1:
	case LIBVIRQ_ITS_F_RDbase2:
	case LIBVIRQ_ITS_F_VPT_addr:
	case LIBVIRQ_ITS_F_VCONF_addr:
		return m; /* addresses: the bits in place */
	case LIBVIRQ_ITS_F_Priority:
		return (m >> t->lo) << 4; /* Priority[7:4] */
	default:
		return m >> t->lo;
	}
}

/* The least value the encoder's value rules accept for a field (in place
 * of 0, which they refuse): an LPI for pINTID and VMAPTI's vINTID, "no
 * doorbell" for Dbell_pINTID; 0 for every other field. */
static uint64_t least_(const struct tcmd *c, enum virq_its_field f)
{
	if (f == LIBVIRQ_ITS_F_pINTID || (f == LIBVIRQ_ITS_F_vINTID && strcmp(c->name, "VSGI")))
		return LIBVIRQ_ITS_LPI_BASE;
	if (f == LIBVIRQ_ITS_F_Dbell_pINTID)
		return LIBVIRQ_ITS_NO_DOORBELL;
	return 0;
}

/* The words of @c with every field at its least value but @skip's (0). */
static void least_words_(const struct tcmd *c, const struct tfield *skip, uint64_t w[4])
{
	w[0] = c->opcode;
	w[1] = w[2] = w[3] = 0;
	for (size_t k = 0; k < c->n; k++)
		if (&c->f[k] != skip && !res0_(&c->f[k]) && strcmp(c->f[k].name, "opcode"))
			w[c->f[k].dw] |= least_(c, field_of_(c->f[k].name)) << c->f[k].lo;
}

/* One field all ones (the others at their least value): decodes to that,
 * and the encoder writes back exactly those bits, or refuses naming the
 * field (a value rule, e.g. VPT_size <= 31). */
static void check_one_field_(const struct tcmd *c, const struct tfield *t)
{
	enum virq_its_field f = field_of_(t->name), bad = LIBVIRQ_ITS_F_NONE;
	uint64_t w[4], set[4], back[4];
	uint8_t raw[32], out[32];
	struct virq_its_cmd d;
	virq_status st;

	least_words_(c, t, w);
	w[t->dw] |= mask_(t->hi, t->lo);
	virq_its_cmd_from_words(w, raw);
	assert_int_equal(virq_its_cmd_decode(raw, &d), LIBVIRQ_OK);
	for (int g = LIBVIRQ_ITS_F_DeviceID; g < LIBVIRQ_ITS_F_COUNT; g++) {
		enum virq_its_field e = (enum virq_its_field)g;
		uint64_t want = e == f ? all_ones_value_(t, f) : 0;

		if (e != f && (virq_its_cmd_fields(d.opcode) >> g & 1))
			want = least_(c, e);
		if (virq_its_cmd_get(&d, e) != want)
			fail_msg("%s with %s all ones: %s = %#llx, want %#llx", c->name, t->name,
				 virq_its_field_name(e),
				 (unsigned long long)virq_its_cmd_get(&d, e),
				 (unsigned long long)want);
	}
	res0_of_(w, set);
	assert_true((set[0] | set[1] | set[2] | set[3]) == 0);
	st = virq_its_cmd_encode(&d, NULL, out, NULL, &bad);
	if (st != LIBVIRQ_OK) {
		assert_int_equal(bad, f);
		return;
	}
	virq_its_cmd_to_words(out, back);
	assert_memory_equal(back, w, sizeof(w));
}

/* One more than the field holds is refused, naming the field. */
static void check_too_wide_(const struct tcmd *c, const struct tfield *t)
{
	enum virq_its_field f = field_of_(t->name), bad = LIBVIRQ_ITS_F_NONE;
	struct virq_its_cmd d;
	uint64_t too_big = all_ones_value_(t, f), w[4];
	uint8_t raw[32], out[32];

	if (t->hi - t->lo + 1 >= 32 && f != LIBVIRQ_ITS_F_RDbase && f != LIBVIRQ_ITS_F_RDbase1 &&
	    f != LIBVIRQ_ITS_F_RDbase2 && f != LIBVIRQ_ITS_F_ITT_addr &&
	    f != LIBVIRQ_ITS_F_VPT_addr && f != LIBVIRQ_ITS_F_VCONF_addr)
		return; /* a 32-bit field in a 32-bit member: nothing wider exists */
	if (t->hi == t->lo)
		return; /* a flag: a bool holds nothing wider */
	least_words_(c, t, w);
	virq_its_cmd_from_words(w, raw);
	assert_int_equal(virq_its_cmd_decode(raw, &d), LIBVIRQ_OK);
	if (f == LIBVIRQ_ITS_F_Priority)
		too_big += 0x10;
	else if (all_ones_value_(t, f) == mask_(t->hi, t->lo) && t->lo > 0)
		too_big = mask_(t->hi, t->lo) + (1ull << t->lo); /* an address: one granule past */
	else
		too_big += 1;
	assert_int_equal(virq_its_cmd_set(&d, f, too_big), LIBVIRQ_OK);
	assert_int_not_equal(virq_its_cmd_encode(&d, NULL, out, NULL, &bad), LIBVIRQ_OK);
	assert_int_equal(bad, f);
}

static void test_fields_decode_and_encode_from_their_bits(void **s)
{
	(void)s;
	load_();
	for (size_t i = 0; i < ncmds; i++) {
		const struct tcmd *c = &cmds[i];
		uint64_t w[4] = {c->opcode, 0, 0, 0}, set[4];
		uint8_t raw[32];
		struct virq_its_cmd d;

		for (size_t k = 0; k < c->n; k++) {
			const struct tfield *t = &c->f[k];

			if (res0_(t)) {
				w[t->dw] |= mask_(t->hi, t->lo);
				continue;
			}
			if (strcmp(t->name, "opcode") != 0) {
				check_one_field_(c, t);
				check_too_wide_(c, t);
			}
		}
		/* Every RES0 bit set: no field sees it, virq_its_cmd_res0() names them all. */
		virq_its_cmd_from_words(w, raw);
		assert_int_equal(virq_its_cmd_decode(raw, &d), LIBVIRQ_OK);
		for (int g = LIBVIRQ_ITS_F_DeviceID; g < LIBVIRQ_ITS_F_COUNT; g++)
			assert_int_equal(virq_its_cmd_get(&d, (enum virq_its_field)g), 0);
		res0_of_(w, set);
		assert_int_equal(set[0], w[0] & ~0xFFull);
		for (unsigned dw = 1; dw < 4; dw++)
			assert_int_equal(set[dw], w[dw]);
	}
}

/* The example of the virqtool issue: MAPTI with DW2 = 0x00000000ffff0002. */
static void test_res0_mapti_example(void **s)
{
	const uint64_t w[4] = {0x000000050000000Aull, 0x0000200300000003ull, 0x00000000FFFF0002ull,
			       0};
	uint64_t set[4];
	uint8_t raw[32];

	(void)s;
	res0_of_(w, set);
	assert_int_equal(set[0], 0);
	assert_int_equal(set[1], 0);
	assert_int_equal(set[2], 0x00000000FFFF0000ull); /* DW2[31:16] */
	assert_int_equal(set[3], 0);
	memset(raw, 0, sizeof(raw));
	raw[0] = 0x07; /* not a command */
	assert_int_equal(virq_its_cmd_res0(raw, set), LIBVIRQ_EUNKNOWN);
	assert_int_equal(virq_its_cmd_res0(NULL, set), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_cmd_res0(raw, NULL), LIBVIRQ_EINVAL);
	assert_null(virq_its_cmd_layout((enum virq_its_opcode)0x07, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_transcription_covers_every_bit),
	    cmocka_unit_test(test_layouts_are_the_manuals),
	    cmocka_unit_test(test_fields_decode_and_encode_from_their_bits),
	    cmocka_unit_test(test_res0_mapti_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
