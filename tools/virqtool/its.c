/* SPDX-License-Identifier: MIT */
/*
 * virqtool its: encode, decode and list GICv3/v4 ITS commands with
 * libvirq's encoder and decoder (Arm IHI 0069H §5.3).
 *
 *   virqtool its encode CMD Field=value ...   -> "0x<DW0> 0x<DW1> 0x<DW2> 0x<DW3>"
 *   virqtool its decode [--strict] DW0 DW1 DW2 DW3
 *                                             -> "CMD Field=0x... ..." and the
 *                                                RES0 bits set, if any
 *   virqtool its fields [CMD]                 -> the fields of each command
 *
 * Every field list, position and RES0 bit comes from the library's command
 * tables (virq_its_cmd_layout(), virq_its_cmd_res0()): fields are listed in
 * the manual's order, DW0 first and low bits first.
 *
 * Field names are the spec's as virq_its_field_name() spells them (DeviceID,
 * pINTID, ITT_addr ...), in any letter case; virqtool 0.1's names (device,
 * event, valid, db_valid, db_pintid, seqnum, default_db) are accepted too.
 * RDbase is the 64 KiB-aligned redistributor address (GITS_TYPER.PTA = 1);
 * procnum= gives a processor number instead (PTA = 0); both land in bits
 * [51:16]. No ITS limits are applied: only widths, alignments and
 * architectural value rules.
 */
#include "virqtool.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libvirq/gicv4/its_cmd.h>

struct its_alias_ {
	const char *name;
	enum virq_its_field field;
};

/* virqtool 0.1's names, kept as aliases. */
static const struct its_alias_ aliases_[] = {
    {"device", LIBVIRQ_ITS_F_DeviceID},
    {"event", LIBVIRQ_ITS_F_EventID},
    {"valid", LIBVIRQ_ITS_F_V},
    {"db_valid", LIBVIRQ_ITS_F_D},
    {"db_pintid", LIBVIRQ_ITS_F_Dbell_pINTID},
    {"seqnum", LIBVIRQ_ITS_F_SequenceNumber},
    {"default_db", LIBVIRQ_ITS_F_Default_Doorbell},
};

/* Processor-number forms of the RDbase fields (GITS_TYPER.PTA = 0). */
static const struct its_alias_ procnums_[] = {
    {"procnum", LIBVIRQ_ITS_F_RDbase},
    {"procnum1", LIBVIRQ_ITS_F_RDbase1},
    {"procnum2", LIBVIRQ_ITS_F_RDbase2},
};

#define NALIASES_ (sizeof(aliases_) / sizeof(aliases_[0]))
#define NPROCNUMS_ (sizeof(procnums_) / sizeof(procnums_[0]))

/* What a field holds (IHI 0069H §5.3; the library's encoder). Where it
 * sits comes from virq_its_cmd_layout(). */
static const char *field_help_(enum virq_its_opcode op, enum virq_its_field f)
{
	switch (f) {
	case LIBVIRQ_ITS_F_DeviceID:
		return "device";
	case LIBVIRQ_ITS_F_EventID:
		return "event of the device";
	case LIBVIRQ_ITS_F_pINTID:
		return "physical LPI (>= 8192)";
	case LIBVIRQ_ITS_F_vINTID:
		return op == LIBVIRQ_ITS_VSGI ? "vSGI number (0..15)" : "virtual LPI (>= 8192)";
	case LIBVIRQ_ITS_F_ICID:
		return "collection";
	case LIBVIRQ_ITS_F_vPEID:
		return "vPE";
	case LIBVIRQ_ITS_F_Size:
		return "EventID bits minus one (0..31)";
	case LIBVIRQ_ITS_F_ITT_addr:
		return "ITT address (256-byte aligned)";
	case LIBVIRQ_ITS_F_V:
		return "1: map, 0: unmap";
	case LIBVIRQ_ITS_F_RDbase:
		return "redistributor address (64 KiB aligned; procnum=N for PTA = 0)";
	case LIBVIRQ_ITS_F_RDbase1:
		return "source redistributor (procnum1=N)";
	case LIBVIRQ_ITS_F_RDbase2:
		return "target redistributor (procnum2=N)";
	case LIBVIRQ_ITS_F_D:
		return "Dbell_pINTID is valid";
	case LIBVIRQ_ITS_F_Dbell_pINTID:
		return "doorbell LPI (>= 8192) or 1023 (none)";
	case LIBVIRQ_ITS_F_SequenceNumber:
		return "VMOVP sequence number";
	case LIBVIRQ_ITS_F_ITSList:
		return "ITSes taking part in the move";
	case LIBVIRQ_ITS_F_VPT_addr:
		return "vPE pending table (64 KiB aligned)";
	case LIBVIRQ_ITS_F_VPT_size:
		return "vINTID bits minus one (0..31)";
	case LIBVIRQ_ITS_F_Alloc:
		return "4.1: allocate the vPE";
	case LIBVIRQ_ITS_F_PTZ:
		return "4.1: pending table is zero";
	case LIBVIRQ_ITS_F_VCONF_addr:
		return "4.1: vLPI configuration table";
	case LIBVIRQ_ITS_F_Default_Doorbell:
		return "4.1: default doorbell LPI";
	case LIBVIRQ_ITS_F_DB:
		return "4.1: Default_Doorbell is valid";
	case LIBVIRQ_ITS_F_Enable:
		return "vSGI enabled";
	case LIBVIRQ_ITS_F_Clear:
		return "clear the vSGI's pending state";
	case LIBVIRQ_ITS_F_Group:
		return "vSGI group";
	case LIBVIRQ_ITS_F_Priority:
		return "vSGI priority (multiple of 16)";
	default:
		return "";
	}
}

/* "DW2[51:16]" or "DW2[63]": where a field (or a run of bits) sits. */
static void pos_(char *buf, size_t len, unsigned dw, unsigned hi, unsigned lo)
{
	if (hi == lo)
		snprintf(buf, len, "DW%u[%u]", dw, hi);
	else
		snprintf(buf, len, "DW%u[%u:%u]", dw, hi, lo);
}

/* The fields of @op but the opcode, in the manual's order. */
static const struct virq_its_field_pos *layout_(enum virq_its_opcode op, size_t *n)
{
	const struct virq_its_field_pos *lay = virq_its_cmd_layout(op, n);

	if (lay && *n && lay[0].field == LIBVIRQ_ITS_F_opcode) {
		(*n)--;
		return lay + 1;
	}
	return lay;
}

static bool opcode_by_name_(const char *s, enum virq_its_opcode *op)
{
	for (unsigned v = 0; v < 256; v++) {
		const char *n = virq_its_opcode_name((enum virq_its_opcode)v);

		if (n && !strcasecmp(n, s)) {
			*op = (enum virq_its_opcode)v;
			return true;
		}
	}
	return false;
}

/* A value of the field that the encoder accepts in place of 0, or false. */
static bool valid_value_(struct virq_its_cmd *c, enum virq_its_field f)
{
	static const uint64_t tries[] = {1, 0x10, 1023, 8192, 0x10000, 0x100000};
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		enum virq_its_field bad = LIBVIRQ_ITS_F_NONE;

		if (virq_its_cmd_set(c, f, tries[i]) != LIBVIRQ_OK)
			continue;
		if (virq_its_cmd_encode(c, NULL, raw, NULL, &bad) == LIBVIRQ_OK || bad != f)
			return true;
	}
	return false;
}

/*
 * The fields of @op that must be given: those the encoder refuses at 0 with
 * every other field at an acceptable value (found by the encoder itself, so
 * the list cannot drift from the library's rules).
 */
static uint64_t required_(enum virq_its_opcode op)
{
	struct virq_its_cmd c;
	uint64_t mask = 0;

	memset(&c, 0, sizeof(c));
	c.opcode = op;
	for (int i = 0; i < LIBVIRQ_ITS_F_COUNT; i++) {
		uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
		enum virq_its_field bad = LIBVIRQ_ITS_F_NONE;

		if (virq_its_cmd_encode(&c, NULL, raw, NULL, &bad) == LIBVIRQ_OK)
			break;
		if (bad <= LIBVIRQ_ITS_F_opcode || bad >= LIBVIRQ_ITS_F_COUNT || (mask >> bad & 1))
			break;
		mask |= 1ull << bad;
		if (!valid_value_(&c, bad))
			break;
	}
	return mask & virq_its_cmd_fields(op);
}

/* "A, B, C" of the fields of @op in @mask, in the manual's order. */
static void names_(enum virq_its_opcode op, uint64_t mask, char *buf, size_t len)
{
	size_t at = 0, n;
	const struct virq_its_field_pos *lay = layout_(op, &n);

	buf[0] = 0;
	for (size_t i = 0; i < n && at < len; i++)
		if (mask >> lay[i].field & 1)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       virq_its_field_name(lay[i].field));
}

/* One command's fields, one per line. */
static void print_cmd_fields_(enum virq_its_opcode op)
{
	uint64_t req = required_(op);
	size_t n;
	const struct virq_its_field_pos *lay = layout_(op, &n);

	fprintf(vt_out, "%s (opcode 0x%02x)\n", virq_its_opcode_name(op), (unsigned)op);
	for (size_t i = 0; i < n; i++) {
		char at[16];

		pos_(at, sizeof(at), lay[i].dw, lay[i].hi, lay[i].lo);
		fprintf(vt_out, "  %-17s %-9s %-11s %s\n", virq_its_field_name(lay[i].field),
			(req >> lay[i].field & 1) ? "required" : "optional", at,
			field_help_(op, lay[i].field));
	}
}

static int fields_(int argc, char **argv)
{
	enum virq_its_opcode op;

	if (argc > 1)
		return vt_fail("its fields: expected at most one command name, got %d", argc);
	if (argc == 1) {
		if (vt_is_help(argv[0])) {
			fputs(
			    "usage: virqtool its fields [CMD]\n"
			    "  the fields of CMD (or of every command), where each sits, and which "
			    "must be given\n",
			    vt_out);
			return 0;
		}
		if (!opcode_by_name_(argv[0], &op))
			return vt_fail("unknown ITS command '%s' (try 'virqtool its fields')",
				       argv[0]);
		print_cmd_fields_(op);
		return 0;
	}
	/* One line per command: its fields, required ones marked with '*'. */
	for (unsigned v = 0; v < 256; v++) {
		const char *n = virq_its_opcode_name((enum virq_its_opcode)v);
		const struct virq_its_field_pos *lay;
		uint64_t req;
		size_t nf;

		if (!n)
			continue;
		lay = layout_((enum virq_its_opcode)v, &nf);
		req = required_((enum virq_its_opcode)v);
		fprintf(vt_out, "%-8s", n);
		for (size_t i = 0; i < nf; i++)
			fprintf(vt_out, " %s%s", virq_its_field_name(lay[i].field),
				(req >> lay[i].field & 1) ? "*" : "");
		fputc('\n', vt_out);
	}
	fputs("(* required; 'virqtool its fields CMD' for positions)\n", vt_out);
	return 0;
}

/* The name a user gave for each field (to report it as given). */
struct given_ {
	const char *name[LIBVIRQ_ITS_F_COUNT];
};

static int set_field_(struct virq_its_cmd *c, uint64_t fields, struct given_ *g,
		      const struct vt_kv *kv, enum virq_its_field f, const char *procnum)
{
	const char *name = procnum ? procnum : virq_its_field_name(f);
	uint64_t v;

	if (!(fields >> f & 1))
		return vt_fail("field '%s' is not used by %s (try 'virqtool its fields %s')", name,
			       virq_its_opcode_name(c->opcode), virq_its_opcode_name(c->opcode));
	if (g->name[f])
		return vt_fail("field '%s' given together with '%s'", name, g->name[f]);
	if (!vt_parse_u64(kv->value, &v))
		return vt_fail("bad value '%s' for field '%s'", kv->value, name);
	if (procnum) {
		if (v > 0xFFFF)
			return vt_fail("field '%s' out of range (processor numbers are 16 bits)",
				       name);
		v <<= 16;
	}
	if (virq_its_cmd_set(c, f, v) != LIBVIRQ_OK)
		return vt_fail("field '%s' out of range", name);
	g->name[f] = name;
	return 0;
}

static int parse_kv_(struct virq_its_cmd *c, struct vt_kv *kv, int n, struct given_ *g)
{
	uint64_t fields = virq_its_cmd_fields(c->opcode);

	for (int i = 0; i < n; i++) {
		const char *nm = kv[i].name;
		size_t len = kv[i].name_len;
		int rc = -1;

		for (int f = LIBVIRQ_ITS_F_DeviceID; f < LIBVIRQ_ITS_F_COUNT && rc < 0; f++)
			if (vt_name_eq(nm, len, virq_its_field_name((enum virq_its_field)f)))
				rc = set_field_(c, fields, g, &kv[i], (enum virq_its_field)f, NULL);
		for (size_t j = 0; j < NALIASES_ && rc < 0; j++)
			if (vt_name_eq(nm, len, aliases_[j].name))
				rc = set_field_(c, fields, g, &kv[i], aliases_[j].field, NULL);
		for (size_t j = 0; j < NPROCNUMS_ && rc < 0; j++)
			if (vt_name_eq(nm, len, procnums_[j].name))
				rc = set_field_(c, fields, g, &kv[i], procnums_[j].field,
						procnums_[j].name);
		if (rc < 0)
			return vt_fail("unknown field '%.*s' (try 'virqtool its fields %s')",
				       (int)len, nm, virq_its_opcode_name(c->opcode));
		if (rc)
			return rc;
	}
	return 0;
}

static int encode_(int argc, char **argv)
{
	struct virq_its_cmd c;
	struct vt_kv kv[64];
	struct given_ g;
	enum virq_its_field bad = LIBVIRQ_ITS_F_NONE;
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
	uint64_t dw[4];
	virq_status st;
	int n, rc;

	if (argc < 1)
		return vt_fail("its encode: missing command name (try 'virqtool its fields')");
	if (vt_is_help(argv[0])) {
		fputs(
		    "usage: virqtool its encode CMD Field=value ...\n"
		    "  encodes one ITS command; prints its four doublewords\n"
		    "  CMD: an ITS command (MAPD, MAPTI, VMAPP, ...); fields: 'virqtool its fields "
		    "[CMD]'\n",
		    vt_out);
		return 0;
	}
	memset(&c, 0, sizeof(c));
	memset(&g, 0, sizeof(g));
	if (!opcode_by_name_(argv[0], &c.opcode))
		return vt_fail("unknown ITS command '%s' (try 'virqtool its fields')", argv[0]);
	if (argc == 2 && vt_is_help(argv[1])) {
		print_cmd_fields_(c.opcode);
		return 0;
	}
	n = vt_kv_parse(argc - 1, argv + 1, kv, 64);
	if (n < 0)
		return VIRQTOOL_EBADINPUT;
	rc = parse_kv_(&c, kv, n, &g);
	if (rc)
		return rc;
	st = virq_its_cmd_encode(&c, NULL, raw, NULL, &bad);
	if (st != LIBVIRQ_OK) {
		const char *name = bad < LIBVIRQ_ITS_F_COUNT && g.name[bad]
				       ? g.name[bad]
				       : virq_its_field_name(bad);

		if (bad > LIBVIRQ_ITS_F_opcode && bad < LIBVIRQ_ITS_F_COUNT && !g.name[bad]) {
			char req[256];

			names_(c.opcode, required_(c.opcode) | 1ull << bad, req, sizeof(req));
			return vt_fail("missing field '%s' (required: %s)", name, req);
		}
		if (st == LIBVIRQ_EALIGN)
			return vt_fail("field '%s' misaligned", name);
		if (st == LIBVIRQ_ERANGE)
			return vt_fail("field '%s' out of range", name);
		return vt_fail("cannot encode %s: %s", argv[0], virq_strerror(st));
	}
	virq_its_cmd_to_words(raw, dw);
	fprintf(vt_out, "0x%016" PRIx64 " 0x%016" PRIx64 " 0x%016" PRIx64 " 0x%016" PRIx64 "\n",
		dw[0], dw[1], dw[2], dw[3]);
	return 0;
}

/*
 * "DW0[31:8]=0x12, DW2[31:16]=0xffff": each run of RES0 bits that is set,
 * with the bits' value; empty when none is.
 */
static void res0_runs_(const uint64_t set[4], char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned dw = 0; dw < 4; dw++)
		for (unsigned lo = 0; lo < 64 && at < len;) {
			unsigned hi = lo;
			char where[16];

			if (!(set[dw] >> lo & 1)) {
				lo++;
				continue;
			}
			while (hi < 63 && (set[dw] >> (hi + 1) & 1))
				hi++;
			pos_(where, sizeof(where), dw, hi, lo);
			at += (size_t)snprintf(
			    buf + at, len - at, "%s%s=0x%" PRIx64, at ? ", " : "", where,
			    (uint64_t)((set[dw] >> lo) & (~(uint64_t)0 >> (63 - (hi - lo)))));
			lo = hi + 1;
		}
}

static int decode_usage_(void)
{
	fputs("usage: virqtool its decode [--strict] DW0 DW1 DW2 DW3\n"
	      "  decodes one ITS command from its four doublewords; prints the command and its "
	      "fields\n  in a form 'virqtool its encode' takes back, then, on a second line, "
	      "the RES0 bits\n  that are set (the decoder ignores them); with --strict such "
	      "bits are an error\n",
	      vt_out);
	return 0;
}

static int decode_(int argc, char **argv)
{
	uint64_t dw[4], set[4];
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
	struct virq_its_cmd c;
	const struct virq_its_field_pos *lay;
	char runs[512];
	bool strict = false;
	int nw = 0;
	size_t n;

	if (argc == 1 && vt_is_help(argv[0]))
		return decode_usage_();
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--strict"))
			strict = true;
		else
			nw++;
	if (nw != 4)
		return vt_fail("its decode: expected 4 doublewords, got %d", nw);
	nw = 0;
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "--strict") && !vt_parse_u64(argv[i], &dw[nw++]))
			return vt_fail("bad doubleword '%s'", argv[i]);
	virq_its_cmd_from_words(dw, raw);
	if (virq_its_cmd_decode(raw, &c) != LIBVIRQ_OK || virq_its_cmd_res0(raw, set) != LIBVIRQ_OK)
		return vt_fail("unknown ITS opcode 0x%02x", (unsigned)(dw[0] & 0xFF));
	res0_runs_(set, runs, sizeof(runs));
	if (strict && runs[0])
		return vt_fail("%s: RES0 bits set: %s", virq_its_opcode_name(c.opcode), runs);
	lay = layout_(c.opcode, &n);
	fprintf(vt_out, "%s", virq_its_opcode_name(c.opcode));
	for (size_t i = 0; i < n; i++)
		fprintf(vt_out, " %s=0x%" PRIx64, virq_its_field_name(lay[i].field),
			virq_its_cmd_get(&c, lay[i].field));
	fputc('\n', vt_out);
	if (runs[0])
		fprintf(vt_out, "RES0 set: %s (ignored, --strict refuses them)\n", runs);
	return 0;
}

int virqtool_its(int argc, char **argv)
{
	if (argc < 1)
		return vt_fail(
		    "its: expected 'encode', 'decode' or 'fields' (try 'virqtool its --help')");
	if (vt_is_help(argv[0])) {
		fputs(
		    "usage: virqtool its encode CMD Field=value ...   encode one command\n"
		    "       virqtool its decode [--strict] DW0 DW1 DW2 DW3\n"
		    "                                                 decode one command; "
		    "--strict:\n"
		    "                                                 RES0 bits set are an error\n"
		    "       virqtool its fields [CMD]                 the fields of each command\n"
		    "Field names as in Arm IHI 0069H §5.3 (DeviceID, pINTID, ...), any letter "
		    "case.\n",
		    vt_out);
		return 0;
	}
	if (!strcmp(argv[0], "encode"))
		return encode_(argc - 1, argv + 1);
	if (!strcmp(argv[0], "decode"))
		return decode_(argc - 1, argv + 1);
	if (!strcmp(argv[0], "fields"))
		return fields_(argc - 1, argv + 1);
	return vt_fail("its: unknown subcommand '%s' (try 'virqtool its --help')", argv[0]);
}
