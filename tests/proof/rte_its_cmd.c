/* SPDX-License-Identifier: MIT */
/*
 * Proof rte_its_cmd (EVA): no run-time error in the ITS command encoders
 * and decoders (src/gicv4/enc/its_cmd.c) and the pure GICv4 register
 * encoders (src/gicv4/enc/regs.c), for every input: any field values, any
 * opcode, any limits (also NULL), any 32 command bytes, NULL pointers.
 */
#include "proof_env.h"
#include "common/compiler.h"
/* Inlining hints only (Frama-C takes always_inline for part of the type). */
#undef LIBVIRQ_ALWAYS_INLINE_
#define LIBVIRQ_ALWAYS_INLINE_ inline
#include "gicv4/enc/its_cmd.c"
#include "gicv4/enc/regs.c"

static void any_cmd_(struct virq_its_cmd *c)
{
	Frama_C_make_unknown((char *)c, sizeof(*c));
	c->opcode = (enum virq_its_opcode)any_u32_();
	c->V = any_bool_();
	c->D = any_bool_();
	c->Alloc = any_bool_();
	c->PTZ = any_bool_();
	c->DB = any_bool_();
	c->Enable = any_bool_();
	c->Clear = any_bool_();
	c->Group = any_bool_();
}

static void any_limits_(struct virq_its_limits *l)
{
	Frama_C_make_unknown((char *)l, sizeof(*l));
	l->pta = any_bool_();
	l->vmovp = any_bool_();
	l->vsgi = any_bool_();
	l->version = (enum virq_its_version)any_u32_();
}

int main(void)
{
	struct virq_its_cmd c, d;
	struct virq_its_limits lim;
	struct virq_its_sync s;
	enum virq_its_field bad, f = (enum virq_its_field)any_u32_();
	uint8_t out[LIBVIRQ_ITS_CMD_SIZE], raw[LIBVIRQ_ITS_CMD_SIZE], run[4 * LIBVIRQ_ITS_CMD_SIZE];
	uint64_t dw[4], v;
	size_t n;
	virq_status st;

	any_cmd_(&c);
	any_limits_(&lim);
	if (any_bool_())
		virq_its_limits_prepare(&lim);
	else if (any_bool_())
		virq_its_limits_from_typer(any_u64_(), &lim);
	/* Opcode by opcode (EVA then follows each table entry on its own). */
	st = virq_its_cmd_encode(NULL, OR_NULL_(&lim), OR_NULL_(out), OR_NULL_(&s), OR_NULL_(&bad));
	for (uint32_t op = 0; op < 256; op++) {
		c.opcode = (enum virq_its_opcode)op;
		st = virq_its_cmd_encode(&c, OR_NULL_(&lim), OR_NULL_(out), OR_NULL_(&s),
					 OR_NULL_(&bad));
	}
	c.opcode = (enum virq_its_opcode)Frama_C_unsigned_int_interval(256, UINT32_MAX);
	st = virq_its_cmd_encode(&c, &lim, out, &s, &bad);
	Frama_C_make_unknown((char *)raw, sizeof(raw));
	st |= virq_its_cmd_decode(OR_NULL_(raw), OR_NULL_(&d));
	virq_its_cmd_to_words(raw, dw);
	virq_its_cmd_from_words(dw, raw);
	st |= virq_its_cmd_res0(OR_NULL_(raw), OR_NULL_(dw));
	v = virq_its_cmd_res0_mask((enum virq_its_opcode)any_u32_(), any_u32_());
	(void)virq_its_cmd_layout((enum virq_its_opcode)any_u32_(), OR_NULL_(&n));
	v += virq_its_cmd_fields((enum virq_its_opcode)any_u32_());
	v += virq_its_cmd_get(OR_NULL_(&c), f);
	st |= virq_its_cmd_set(OR_NULL_(&c), f, any_u64_());
	(void)virq_its_opcode_name((enum virq_its_opcode)any_u32_());
	(void)virq_its_field_name(f);
	virq_its_vmapti_fill_(run, Frama_C_unsigned_int_interval(0, 4), any_u32_(), any_u32_(),
			      any_u32_(), any_u32_(), any_u32_());
	virq_its_discard_fill_(run, Frama_C_unsigned_int_interval(0, 4), any_u32_(), any_u32_());
	st |= virq_its_cbaser_encode(any_u64_(), any_u64_(), any_u32_(), any_u32_(), any_u32_(),
				     OR_NULL_(&v));
	st |= virq_gits_sgir_encode(any_u32_(), any_u32_(), OR_NULL_(&v));
	(void)virq_gic_attr_needs_clean(any_u64_(), any_u64_());
	(void)virq_gic_version_name((enum virq_gic_version)any_u32_());
	return st == LIBVIRQ_OK && v == 0;
}
