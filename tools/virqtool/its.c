/* SPDX-License-Identifier: MIT */
/*
 * virqtool its: encode and decode GICv3/v4 ITS commands with libvirq's
 * encoder and decoder.
 *
 *   virqtool its encode CMD field=value ...   -> "0x<DW0> 0x<DW1> 0x<DW2> 0x<DW3>"
 *   virqtool its decode W0 W1 W2 W3           -> "CMD field=0x... ..."
 *
 * Field names are the spec's, lower-case (see fields_ below). rdbase= is the
 * 64 KiB-aligned redistributor address (GITS_TYPER.PTA = 1); procnum= a
 * processor number (PTA = 0); both land in bits [51:16]. No ITS limits are
 * applied: only widths, alignments and architectural value rules.
 */
#include "virqtool.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libvirq/gicv4/its_cmd.h>

struct its_field_name_ {
	const char *name;
	enum virq_its_field field;
};

static const struct its_field_name_ fields_[] = {
    {"device", LIBVIRQ_ITS_F_DeviceID},
    {"event", LIBVIRQ_ITS_F_EventID},
    {"pintid", LIBVIRQ_ITS_F_pINTID},
    {"vintid", LIBVIRQ_ITS_F_vINTID},
    {"icid", LIBVIRQ_ITS_F_ICID},
    {"vpeid", LIBVIRQ_ITS_F_vPEID},
    {"size", LIBVIRQ_ITS_F_Size},
    {"itt_addr", LIBVIRQ_ITS_F_ITT_addr},
    {"valid", LIBVIRQ_ITS_F_V},
    {"rdbase", LIBVIRQ_ITS_F_RDbase},
    {"rdbase1", LIBVIRQ_ITS_F_RDbase1},
    {"rdbase2", LIBVIRQ_ITS_F_RDbase2},
    {"db_valid", LIBVIRQ_ITS_F_D},
    {"db_pintid", LIBVIRQ_ITS_F_Dbell_pINTID},
    {"seqnum", LIBVIRQ_ITS_F_SequenceNumber},
    {"itslist", LIBVIRQ_ITS_F_ITSList},
    {"vpt_addr", LIBVIRQ_ITS_F_VPT_addr},
    {"vpt_size", LIBVIRQ_ITS_F_VPT_size},
    {"alloc", LIBVIRQ_ITS_F_Alloc},
    {"ptz", LIBVIRQ_ITS_F_PTZ},
    {"vconf_addr", LIBVIRQ_ITS_F_VCONF_addr},
    {"default_db", LIBVIRQ_ITS_F_Default_Doorbell},
    {"db", LIBVIRQ_ITS_F_DB},
    {"enable", LIBVIRQ_ITS_F_Enable},
    {"clear", LIBVIRQ_ITS_F_Clear},
    {"group", LIBVIRQ_ITS_F_Group},
    {"priority", LIBVIRQ_ITS_F_Priority},
};
#define NFIELDS_ (sizeof(fields_) / sizeof(fields_[0]))

/* Processor-number aliases of the RDbase fields. */
static const struct its_field_name_ procnums_[] = {
    {"procnum", LIBVIRQ_ITS_F_RDbase},
    {"procnum1", LIBVIRQ_ITS_F_RDbase1},
    {"procnum2", LIBVIRQ_ITS_F_RDbase2},
};

static const char *cli_name_(enum virq_its_field f)
{
	for (size_t i = 0; i < NFIELDS_; i++)
		if (fields_[i].field == f)
			return fields_[i].name;
	return virq_its_field_name(f);
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

/* The CLI name a user gave for field @f (procnum aliases included). */
struct given_ {
	const char *name[LIBVIRQ_ITS_F_COUNT];
};

static int set_field_(struct virq_its_cmd *c, uint64_t fields, struct given_ *g,
		      const struct vt_kv *kv, enum virq_its_field f, bool procnum)
{
	const char *name = procnum ? (f == LIBVIRQ_ITS_F_RDbase	? "procnum"
				      : f == LIBVIRQ_ITS_F_RDbase1 ? "procnum1"
								: "procnum2")
				   : cli_name_(f);
	uint64_t v;

	if (!(fields >> f & 1))
		return vt_fail("field '%s' is not used by %s", name,
			       virq_its_opcode_name(c->opcode));
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
		bool found = false;
		int rc = 0;

		for (size_t j = 0; j < NFIELDS_ && !found; j++) {
			if (kv[i].name_len == strlen(fields_[j].name) &&
			    !memcmp(kv[i].name, fields_[j].name, kv[i].name_len)) {
				found = true;
				rc = set_field_(c, fields, g, &kv[i], fields_[j].field, false);
			}
		}
		for (size_t j = 0; j < 3 && !found; j++) {
			if (kv[i].name_len == strlen(procnums_[j].name) &&
			    !memcmp(kv[i].name, procnums_[j].name, kv[i].name_len)) {
				found = true;
				rc = set_field_(c, fields, g, &kv[i], procnums_[j].field, true);
			}
		}
		if (!found)
			return vt_fail("unknown field '%.*s'", (int)kv[i].name_len, kv[i].name);
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
		return vt_fail("its encode: missing command name");
	memset(&c, 0, sizeof(c));
	memset(&g, 0, sizeof(g));
	if (!opcode_by_name_(argv[0], &c.opcode))
		return vt_fail("unknown ITS command '%s'", argv[0]);
	n = vt_kv_parse(argc - 1, argv + 1, kv, 64);
	if (n < 0)
		return VIRQTOOL_EBADINPUT;
	rc = parse_kv_(&c, kv, n, &g);
	if (rc)
		return rc;
	st = virq_its_cmd_encode(&c, NULL, raw, NULL, &bad);
	if (st != LIBVIRQ_OK) {
		const char *name = g.name[bad] ? g.name[bad] : cli_name_(bad);

		if (st == LIBVIRQ_EALIGN)
			return vt_fail("field '%s' misaligned", name);
		if (st == LIBVIRQ_ERANGE)
			return vt_fail("field '%s' out of range", name);
		return vt_fail("cannot encode %s: %s", argv[0], virq_strerror(st));
	}
	virq_its_cmd_to_words(raw, dw);
	printf("0x%016" PRIx64 " 0x%016" PRIx64 " 0x%016" PRIx64 " 0x%016" PRIx64 "\n", dw[0],
	       dw[1], dw[2], dw[3]);
	return 0;
}

static int decode_(int argc, char **argv)
{
	uint64_t dw[4];
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
	struct virq_its_cmd c;
	uint64_t fields;

	if (argc != 4)
		return vt_fail("its decode: expected 4 doublewords, got %d", argc);
	for (int i = 0; i < 4; i++)
		if (!vt_parse_u64(argv[i], &dw[i]))
			return vt_fail("bad doubleword '%s'", argv[i]);
	virq_its_cmd_from_words(dw, raw);
	if (virq_its_cmd_decode(raw, &c) != LIBVIRQ_OK)
		return vt_fail("unknown ITS opcode 0x%02x", (unsigned)(dw[0] & 0xFF));
	fields = virq_its_cmd_fields(c.opcode);
	printf("%s", virq_its_opcode_name(c.opcode));
	for (size_t i = 0; i < NFIELDS_; i++)
		if (fields >> fields_[i].field & 1)
			printf(" %s=0x%" PRIx64, fields_[i].name,
			       virq_its_cmd_get(&c, fields_[i].field));
	printf("\n");
	return 0;
}

int virqtool_its(int argc, char **argv)
{
	if (argc < 1)
		return vt_fail("its: expected 'encode' or 'decode'");
	if (!strcmp(argv[0], "encode"))
		return encode_(argc - 1, argv + 1);
	if (!strcmp(argv[0], "decode"))
		return decode_(argc - 1, argv + 1);
	return vt_fail("its: unknown subcommand '%s'", argv[0]);
}
