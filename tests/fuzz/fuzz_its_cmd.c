/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the ITS command decoder and encoder (IHI 0069H §5.3).
 *
 * Input: 32 command bytes, then optionally 8 bytes of GITS_TYPER.
 * Properties checked on every input:
 *  1. virq_its_cmd_decode() accepts exactly the opcodes the independent ITS
 *     model (sim/src/its.c, its own decoder) knows, and every
 *     field it reports equals the model's reading of the same bytes.
 *  2. Round trip: when the encoder accepts what the decoder produced
 *     (without limits), the 32 bytes it writes are the input with the bits
 *     the command does not define (reserved bits) cleared: out & ~in == 0
 *     bytewise, and decode(out) reports the same fields as decode(in). The
 *     encoder may refuse a decoded command only for a value rule
 *     (LIBVIRQ_ERANGE, LIBVIRQ_EALIGN: e.g. pINTID < 8192, a Priority, a 4.1-only
 *     Default_Doorbell value), never with EINVAL/EUNKNOWN, and then names a
 *     field the opcode uses.
 *  3. Re-encoding is idempotent, and with limits derived from the given
 *     GITS_TYPER the encoder either refuses or writes the same bytes.
 *  4. RES0 (the command tables, enc/its_layout.h): what the round trip of 2
 *     cleared is exactly what virq_its_cmd_res0() reports set, and the
 *     encoder never writes a RES0 bit (virq_its_cmd_res0_mask()).
 */
#include <string.h>

#include <libvirq/gicv4/its_cmd.h>

#include "fuzz_common.h"
#include <libvirq/sim/its.h>

#define NO_MODEL UINT64_MAX

/* The model's value for a library field; NO_MODEL when not comparable. */
static uint64_t model_field_(const struct virq_sim_its_cmd *m, enum virq_its_field f)
{
	switch (f) {
	case LIBVIRQ_ITS_F_DeviceID:
		return m->dev;
	case LIBVIRQ_ITS_F_EventID:
		return m->ev;
	case LIBVIRQ_ITS_F_pINTID:
		return m->pintid;
	case LIBVIRQ_ITS_F_vINTID:
		return m->vintid;
	case LIBVIRQ_ITS_F_ICID:
		return m->icid;
	case LIBVIRQ_ITS_F_vPEID:
		return m->vpe;
	case LIBVIRQ_ITS_F_Size:
		return m->size;
	case LIBVIRQ_ITS_F_ITT_addr:
		return m->itt;
	case LIBVIRQ_ITS_F_V:
		return m->valid;
	case LIBVIRQ_ITS_F_RDbase:
		return m->rd;
	case LIBVIRQ_ITS_F_RDbase1:
		return m->rd;
	case LIBVIRQ_ITS_F_RDbase2:
		return m->rd2;
	case LIBVIRQ_ITS_F_D:
		return m->dbvalid;
	case LIBVIRQ_ITS_F_Dbell_pINTID:
		return m->db;
	case LIBVIRQ_ITS_F_SequenceNumber:
		return m->seq;
	case LIBVIRQ_ITS_F_ITSList:
		return m->itslist;
	case LIBVIRQ_ITS_F_VPT_addr:
		return m->vpt;
	case LIBVIRQ_ITS_F_VPT_size:
		return m->vpt_size;
	case LIBVIRQ_ITS_F_Alloc:
		return m->alloc;
	case LIBVIRQ_ITS_F_PTZ:
		return m->ptz;
	case LIBVIRQ_ITS_F_VCONF_addr:
		return m->vconf;
	case LIBVIRQ_ITS_F_Default_Doorbell:
		return m->defdb;
	case LIBVIRQ_ITS_F_DB:
		return m->db41;
	case LIBVIRQ_ITS_F_Enable:
		return m->en;
	case LIBVIRQ_ITS_F_Clear:
		return m->clr;
	case LIBVIRQ_ITS_F_Group:
		return m->grp;
	case LIBVIRQ_ITS_F_Priority:
		return m->prio;
	default:
		return NO_MODEL;
	}
}

static void same_fields_(const struct virq_its_cmd *a, const struct virq_its_cmd *b)
{
	for (int f = LIBVIRQ_ITS_F_opcode; f < LIBVIRQ_ITS_F_COUNT; f++)
		FUZZ_CHECK(virq_its_cmd_get(a, (enum virq_its_field)f) ==
			   virq_its_cmd_get(b, (enum virq_its_field)f));
}

static void check_model_(const uint8_t in[32], const struct virq_its_cmd *c)
{
	struct virq_sim_its_cmd m;
	uint64_t used = virq_its_cmd_fields(c->opcode);

	virq_sim_its_decode(in, &m);
	FUZZ_CHECK(m.known);
	FUZZ_CHECK(used != 0);
	for (int f = LIBVIRQ_ITS_F_DeviceID; f < LIBVIRQ_ITS_F_COUNT; f++) {
		uint64_t want;

		if (!(used & (1ull << f)))
			continue;
		want = model_field_(&m, (enum virq_its_field)f);
		if (want == NO_MODEL)
			continue;
		if (virq_its_cmd_get(c, (enum virq_its_field)f) != want) {
			fprintf(stderr, "opcode 0x%02x field %s: library %llu model %llu\n",
				(unsigned)c->opcode, virq_its_field_name((enum virq_its_field)f),
				(unsigned long long)virq_its_cmd_get(c, (enum virq_its_field)f),
				(unsigned long long)want);
			FUZZ_CHECK(0);
		}
	}
}

/* Property 4: the bits the round trip dropped are the RES0 bits set. */
static void check_res0_(const uint8_t in[32], const uint8_t out[32], enum virq_its_opcode op)
{
	uint64_t wi[4], wo[4], set[4];

	virq_its_cmd_to_words(in, wi);
	virq_its_cmd_to_words(out, wo);
	FUZZ_CHECK(virq_its_cmd_res0(in, set) == LIBVIRQ_OK);
	for (unsigned dw = 0; dw < 4; dw++) {
		FUZZ_CHECK((wi[dw] & ~wo[dw]) == set[dw]);
		FUZZ_CHECK((wo[dw] & virq_its_cmd_res0_mask(op, dw)) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t in[32] = {0}, out[32], out2[32], out3[32];
	struct virq_its_cmd c, c2;
	struct virq_its_limits lim;
	enum virq_its_field bad = LIBVIRQ_ITS_F_NONE;
	struct virq_sim_its_cmd m;
	virq_status st;

	memcpy(in, data, size < 32 ? size : 32);
	st = virq_its_cmd_decode(in, &c);
	virq_sim_its_decode(in, &m);
	if (st != LIBVIRQ_OK) {
		FUZZ_CHECK(st == LIBVIRQ_EUNKNOWN);
		FUZZ_CHECK(!m.known);
		FUZZ_CHECK(virq_its_opcode_name(c.opcode) == NULL);
		return 0;
	}
	FUZZ_CHECK(virq_its_opcode_name(c.opcode) != NULL);
	check_model_(in, &c);

	memset(out, 0xA5, sizeof(out));
	st = virq_its_cmd_encode(&c, NULL, out, NULL, &bad);
	if (st != LIBVIRQ_OK) {
		FUZZ_CHECK(st == LIBVIRQ_ERANGE || st == LIBVIRQ_EALIGN);
		FUZZ_CHECK(bad == LIBVIRQ_ITS_F_opcode ||
			   (virq_its_cmd_fields(c.opcode) & (1ull << bad)) != 0);
		return 0;
	}
	for (int i = 0; i < 32; i++)
		FUZZ_CHECK((out[i] & ~in[i]) == 0);
	check_res0_(in, out, c.opcode);
	FUZZ_CHECK(virq_its_cmd_decode(out, &c2) == LIBVIRQ_OK);
	same_fields_(&c, &c2);
	FUZZ_CHECK(virq_its_cmd_encode(&c2, NULL, out2, NULL, NULL) == LIBVIRQ_OK);
	FUZZ_CHECK(memcmp(out, out2, 32) == 0);

	if (size >= 40) {
		uint64_t typer = 0;

		for (int i = 0; i < 8; i++)
			typer |= (uint64_t)data[32 + i] << (8 * i);
		virq_its_limits_from_typer(typer, &lim);
		if (size >= 44)
			lim.nr_procs = data[40] | (uint32_t)data[41] << 8;
		if (virq_its_cmd_encode(&c, &lim, out3, NULL, NULL) == LIBVIRQ_OK)
			FUZZ_CHECK(memcmp(out, out3, 32) == 0);
	}
	return 0;
}
