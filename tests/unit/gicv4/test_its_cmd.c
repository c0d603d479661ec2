/* SPDX-License-Identifier: MIT */
/*
 * ITS command encoder/decoder tests: command and register encodings worked
 * out by hand from the IHI 0069H §5.3 and §12.19 layouts, sync reporting
 * (docs/rationale.md#gic-its-command-sync, docs/rationale.md#gic-vmapp-unmap-no-vsync),
 * random round trips cross-checked with the model's independent decoder,
 * every field's out-of-range rejection, probed limits (docs/rationale.md#gic-its-bounds).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/virq.h>
#include <libvirq/gicv4/its_cmd.h>
#include <libvirq/gicv4/its_regs.h>
#include <libvirq/gicv4/its_queue.h>

#include "gicv4/enc/its_fill.h" /* the library-internal in-place runs */

#include <libvirq/sim/its.h>

#define F_(i) ((enum virq_its_field)(i))

/* Every command, in opcode order. */
static const enum virq_its_opcode all_ops_[] = {
    LIBVIRQ_ITS_MOVI,  LIBVIRQ_ITS_INT,	   LIBVIRQ_ITS_CLEAR,  LIBVIRQ_ITS_SYNC,
    LIBVIRQ_ITS_MAPD,  LIBVIRQ_ITS_MAPC,   LIBVIRQ_ITS_MAPTI,  LIBVIRQ_ITS_MAPI,
    LIBVIRQ_ITS_INV,   LIBVIRQ_ITS_INVALL, LIBVIRQ_ITS_MOVALL, LIBVIRQ_ITS_DISCARD,
    LIBVIRQ_ITS_VMOVI, LIBVIRQ_ITS_VMOVP,  LIBVIRQ_ITS_VSGI,   LIBVIRQ_ITS_VSYNC,
    LIBVIRQ_ITS_VMAPP, LIBVIRQ_ITS_VMAPTI, LIBVIRQ_ITS_VMAPI,  LIBVIRQ_ITS_VINVALL,
    LIBVIRQ_ITS_INVDB,
};
#define NOPS_ (sizeof(all_ops_) / sizeof(all_ops_[0]))

/* Encodes without limits and checks the four words and the decode round trip. */
static void check_golden_lim(const struct virq_its_cmd *c, const struct virq_its_limits *lim,
			     uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3)
{
	uint8_t raw[32];
	uint64_t dw[4];
	struct virq_its_cmd back;
	enum virq_its_field bad = LIBVIRQ_ITS_F_COUNT;

	assert_int_equal(virq_its_cmd_encode(c, lim, raw, NULL, &bad), LIBVIRQ_OK);
	assert_int_equal(bad, LIBVIRQ_ITS_F_COUNT); /* not written on success */
	virq_its_cmd_to_words(raw, dw);
	assert_int_equal(dw[0], w0);
	assert_int_equal(dw[1], w1);
	assert_int_equal(dw[2], w2);
	assert_int_equal(dw[3], w3);
	/* Little-endian bytes, independent of the host. */
	for (int i = 0; i < 8; i++)
		assert_int_equal(raw[i], (uint8_t)(w0 >> (8 * i)));
	assert_int_equal(virq_its_cmd_decode(raw, &back), LIBVIRQ_OK);
	for (int f = LIBVIRQ_ITS_F_opcode; f < LIBVIRQ_ITS_F_COUNT; f++)
		if (f == LIBVIRQ_ITS_F_opcode || (virq_its_cmd_fields(c->opcode) >> f & 1))
			assert_int_equal(virq_its_cmd_get(&back, F_(f)),
					 virq_its_cmd_get(c, F_(f)));
}

static void check_golden(const struct virq_its_cmd *c, uint64_t w0, uint64_t w1, uint64_t w2,
			 uint64_t w3)
{
	check_golden_lim(c, NULL, w0, w1, w2, w3);
}

static void test_v1_mapd(void **s)
{
	(void)s;
	struct virq_its_cmd c = virq_its_mapd(5, 4, 0x41040000, true);

	check_golden(&c, 0x0000000500000008ull, 4, 0x8000000041040000ull, 0);
}

static void test_v2_mapc(void **s)
{
	(void)s;
	struct virq_its_cmd c = virq_its_mapc(3, virq_its_rdbase_procnum(3), true);

	check_golden(&c, 0x9, 0, 0x8000000000030003ull, 0);
}

static void test_v3_mapti(void **s)
{
	(void)s;
	struct virq_its_cmd c = virq_its_mapti(5, 3, 0x2003, 0);

	check_golden(&c, 0x000000050000000Aull, 0x0000200300000003ull, 0, 0);
}

static void test_v4_movi(void **s)
{
	(void)s;
	struct virq_its_cmd c = {
	    .opcode = LIBVIRQ_ITS_MOVI, .DeviceID = 5, .EventID = 9, .ICID = 1};

	check_golden(&c, 0x0000000500000001ull, 9, 1, 0);
}

static void test_v5_sync(void **s)
{
	(void)s;
	struct virq_its_cmd c = virq_its_sync_cmd(0x080A0000);

	check_golden(&c, 5, 0, 0x00000000080A0000ull, 0);
}

static void test_v6_vmapp40(void **s)
{
	(void)s;
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMAPP,
				 .vPEID = 1,
				 .RDbase = 0x080A0000,
				 .VPT_addr = 0x41080000,
				 .VPT_size = 15,
				 .V = true};
	struct virq_its_limits lim;

	check_golden(&c, 0x29, 0x0000000100000000ull, 0x80000000080A0000ull, 0x000000004108000Full);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull | (1ull << 19), &lim); /* 4.0, PTA */
	check_golden_lim(&c, &lim, 0x29, 0x0000000100000000ull, 0x80000000080A0000ull,
			 0x000000004108000Full);
}

static void test_v7_vmapp41_unmap(void **s)
{
	(void)s;
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMAPP, .vPEID = 0x2A, .Alloc = true};
	struct virq_its_limits lim;
	struct virq_its_sync sync;
	uint8_t raw[32];

	check_golden(&c, 0x129, 0x0000002A00000000ull, 0, 0);
	virq_its_limits_from_typer(0x0000013F0001EFB3ull, &lim); /* VMAPP=1: 4.1 */
	assert_int_equal(lim.version, LIBVIRQ_ITS_V41);
	check_golden_lim(&c, &lim, 0x129, 0x0000002A00000000ull, 0, 0);
	/* docs/rationale.md#gic-vmapp-unmap-no-vsync: no VSYNC after a GICv4.1 unmap, with or
	 * without Alloc. */
	assert_int_equal(virq_its_cmd_encode(&c, &lim, raw, &sync, NULL), LIBVIRQ_OK);
	assert_int_equal(sync.kind, LIBVIRQ_ITS_SYNC_NONE);
	c.Alloc = false;
	assert_int_equal(virq_its_cmd_encode(&c, &lim, raw, &sync, NULL), LIBVIRQ_OK);
	assert_int_equal(sync.kind, LIBVIRQ_ITS_SYNC_NONE);
	/* Without limits, Alloc marks the command as 4.1. */
	c.Alloc = true;
	assert_int_equal(virq_its_cmd_encode(&c, NULL, raw, &sync, NULL), LIBVIRQ_OK);
	assert_int_equal(sync.kind, LIBVIRQ_ITS_SYNC_NONE);
}

static void test_v8_vmapi(void **s)
{
	(void)s;
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMAPI,
				 .DeviceID = 5,
				 .EventID = 0x2008,
				 .vPEID = 1,
				 .Dbell_pINTID = LIBVIRQ_ITS_NO_DOORBELL};

	check_golden(&c, 0x000000050000002Bull, 0x0000000100002008ull, 0x000003FF00000000ull, 0);
}

static void test_v9_vmovp40(void **s)
{
	(void)s;
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMOVP,
				 .SequenceNumber = 0x1234,
				 .ITSList = 3,
				 .vPEID = 0x42,
				 .RDbase = 0x08160000};

	check_golden(&c, 0x0000123400000022ull, 0x0000004200000003ull, 0x08160000, 0);
}

static void test_v10_vsync_vinvall_invdb(void **s)
{
	(void)s;
	struct virq_its_cmd c = virq_its_vsync_cmd(0x42);

	check_golden(&c, 0x25, 0x0000004200000000ull, 0, 0);
	c.opcode = LIBVIRQ_ITS_VINVALL;
	check_golden(&c, 0x2D, 0x0000004200000000ull, 0, 0);
	c.opcode = LIBVIRQ_ITS_INVDB;
	check_golden(&c, 0x2E, 0x0000004200000000ull, 0, 0);
}

/* Every member of @c that its command does not use is zero (builders). */
static void only_its_fields(const struct virq_its_cmd *c)
{
	uint64_t used = virq_its_cmd_fields(c->opcode);

	assert_int_not_equal(used, 0);
	for (int f = LIBVIRQ_ITS_F_DeviceID; f < LIBVIRQ_ITS_F_COUNT; f++)
		if (!(used >> f & 1))
			assert_int_equal(virq_its_cmd_get(c, F_(f)), 0);
}

/*
 * One vector per command at least, through its builder, worked out by hand
 * from the command formats of IHI 0069H §5.3 (the field values chosen
 * distinct, or at the top of their fields, so that a misplaced field
 * shows).
 */
static void test_vectors_every_command(void **s)
{
	(void)s;
	const struct {
		struct virq_its_cmd c;
		uint64_t w[4];
	} v[] = {
	    {virq_its_movi(5, 9, 1), {0x0000000500000001ull, 9, 1, 0}},
	    {virq_its_int_cmd(0xDEADBEEFu, 0x12345678u),
	     {0xDEADBEEF00000003ull, 0x12345678u, 0, 0}},
	    {virq_its_clear_cmd(1, 0xFFFFFFFFu), {0x0000000100000004ull, 0xFFFFFFFFu, 0, 0}},
	    {virq_its_sync_cmd(0x000FFFFFFFFF0000ull), {0x5, 0, 0x000FFFFFFFFF0000ull, 0}},
	    {virq_its_mapd(0xFFFFFFFFu, 31, 0x000FFFFFFFFFFF00ull, true),
	     {0xFFFFFFFF00000008ull, 0x1F, 0x800FFFFFFFFFFF00ull, 0}},
	    {virq_its_mapd(0x42, 0, 0, false), {0x0000004200000008ull, 0, 0, 0}},
	    {virq_its_mapc(0xFFFF, 0x000FFFFFFFFF0000ull, true),
	     {0x9, 0, 0x800FFFFFFFFFFFFFull, 0}},
	    {virq_its_mapti(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFF),
	     {0xFFFFFFFF0000000Aull, 0xFFFFFFFFFFFFFFFFull, 0xFFFF, 0}},
	    {virq_its_mapi(7, 0x2001, 0xABCD), {0x000000070000000Bull, 0x2001, 0xABCD, 0}},
	    {virq_its_inv_cmd(0x80000000u, 0x2000), {0x800000000000000Cull, 0x2000, 0, 0}},
	    {virq_its_invall(0xFFFF), {0xD, 0, 0xFFFF, 0}},
	    {virq_its_movall(0x000FFFFFFFFF0000ull, 0x10000),
	     {0xE, 0, 0x000FFFFFFFFF0000ull, 0x10000}},
	    {virq_its_discard(0xFFFFFFFFu, 0), {0xFFFFFFFF0000000Full, 0, 0, 0}},
	    {virq_its_vmovi(0x10, 0x20, 3, true, 0x2000),
	     {0x0000001000000021ull, 0x0000000300000020ull, 0x0000200000000001ull, 0}},
	    {virq_its_vmovi(0x10, 0x20, 0xFFFF, false, 0),
	     {0x0000001000000021ull, 0x0000FFFF00000020ull, 0, 0}},
	    {virq_its_vmovp(0xFFFF, 0x000FFFFFFFFF0000ull, 0xFFFF, 0xFFFF),
	     {0x0000FFFF00000022ull, 0x0000FFFF0000FFFFull, 0x000FFFFFFFFF0000ull, 0}},
	    {virq_its_vmovp_v41(0x42, 0x08160000, 0, 0, true, 0x2002),
	     {0x22, 0x0000004200000000ull, 0x8000000008160000ull, 0x2002}},
	    {virq_its_vsgi(7, 5, 0xA0, true, true, true),
	     {0x0000000500A00723ull, 0x0000000700000000ull, 0, 0}},
	    {virq_its_vsgi(0xFFFF, 15, 0xF0, true, true, false),
	     {0x0000000F00F00523ull, 0x0000FFFF00000000ull, 0, 0}},
	    {virq_its_vsync_cmd(0xFFFF), {0x25, 0x0000FFFF00000000ull, 0, 0}},
	    {virq_its_vmapp(1, 0x080A0000, 0x41080000, 15, true),
	     {0x29, 0x0000000100000000ull, 0x80000000080A0000ull, 0x000000004108000Full}},
	    {virq_its_vmapp_v41(0x2A, 0x08100000, 0x41080000, 15, true, true, false, 0x41090000,
				0x2003),
	     {0x0000000041090129ull, 0x0000002A00002003ull, 0x8000000008100000ull,
	      0x000000004108000Full}},
	    {virq_its_vmapp_v41(0xFFFF, 0x000FFFFFFFFF0000ull, 0x000FFFFFFFFF0000ull, 31, true,
				true, true, 0x000FFFFFFFFF0000ull, 0xFFFFFFFFu),
	     {0x000FFFFFFFFF0329ull, 0x0000FFFFFFFFFFFFull, 0x800FFFFFFFFF0000ull,
	      0x000FFFFFFFFF001Full}},
	    {virq_its_vmapti(5, 3, 1, 8192, LIBVIRQ_ITS_NO_DOORBELL),
	     {0x000000050000002Aull, 0x0000000100000003ull, 0x000003FF00002000ull, 0}},
	    {virq_its_vmapti(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFF, 0xFFFFFFFFu, 0xFFFFFFFFu),
	     {0xFFFFFFFF0000002Aull, 0x0000FFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0}},
	    {virq_its_vmapi(5, 0x2008, 1, LIBVIRQ_ITS_NO_DOORBELL),
	     {0x000000050000002Bull, 0x0000000100002008ull, 0x000003FF00000000ull, 0}},
	    {virq_its_vinvall(0x42), {0x2D, 0x0000004200000000ull, 0, 0}},
	    {virq_its_invdb(0xFFFF), {0x2E, 0x0000FFFF00000000ull, 0, 0}},
	};
	uint64_t seen = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		only_its_fields(&v[i].c);
		check_golden(&v[i].c, v[i].w[0], v[i].w[1], v[i].w[2], v[i].w[3]);
		seen |= 1ull << (v[i].c.opcode & 63);
	}
	for (size_t i = 0; i < NOPS_; i++) /* every command has a vector */
		assert_true(seen >> all_ops_[i] & 1);
}

static void test_r1_cbaser_r2_baser_r5_sgir(void **s)
{
	(void)s;
	uint64_t v = 0;

	assert_int_equal(virq_its_cbaser_encode(0x41000000, 65536, LIBVIRQ_GIC_CACHE_RaWaWb, 0,
						LIBVIRQ_GIC_SH_INNER, &v),
			 LIBVIRQ_OK);
	assert_int_equal(v, 0xB80000004100040Full);
	/* The device-table GITS_BASER built from the field macros. */
	v = LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Valid, 1) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_InnerCache, LIBVIRQ_GIC_CACHE_RaWaWb) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Type, LIBVIRQ_GITS_BASER_TYPE_DEVICES) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Entry_Size, 7) | 0x41010000 |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Shareability, LIBVIRQ_GIC_SH_INNER) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Page_Size, LIBVIRQ_GITS_BASER_PAGE_64K);
	assert_int_equal(v, 0xB907000041010600ull);
	v = LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_SGIR_vPEID, 0x2A) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_SGIR_vINTID, 5);
	assert_int_equal(v, 0x0000002A00000005ull);
	/* CBASER encoder errors. */
	assert_int_equal(virq_its_cbaser_encode(0x41000800, 4096, 7, 0, 1, &v), LIBVIRQ_EALIGN);
	assert_int_equal(virq_its_cbaser_encode(0x41000000, 4096 + 512, 7, 0, 1, &v),
			 LIBVIRQ_EALIGN);
	assert_int_equal(virq_its_cbaser_encode(1ull << 52, 4096, 7, 0, 1, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cbaser_encode(0, 257 * 4096, 7, 0, 1, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cbaser_encode(0, 0, 7, 0, 1, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cbaser_encode(0, 4096, 8, 0, 1, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cbaser_encode(0, 4096, 7, 8, 1, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cbaser_encode(0, 4096, 7, 0, 4, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cbaser_encode(0, 256 * 4096, 7, 0, 1, &v), LIBVIRQ_OK);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Size, v), 255);
}

static void test_needs_clean_decoded_device_or_nc(void **s)
{
	(void)s;
	assert_true(
	    virq_gic_attr_needs_clean(LIBVIRQ_GIC_CACHE_nC, LIBVIRQ_GIC_SH_INNER)); /* 0b001 */
	assert_true(
	    virq_gic_attr_needs_clean(LIBVIRQ_GIC_CACHE_DnGnRnE, LIBVIRQ_GIC_SH_INNER)); /* 0b000 */
	assert_false(virq_gic_attr_needs_clean(LIBVIRQ_GIC_CACHE_RaWaWb, LIBVIRQ_GIC_SH_INNER));
	assert_false(virq_gic_attr_needs_clean(LIBVIRQ_GIC_CACHE_RaWb, LIBVIRQ_GIC_SH_OUTER));
	assert_true(virq_gic_attr_needs_clean(LIBVIRQ_GIC_CACHE_RaWaWb, LIBVIRQ_GIC_SH_NONE));
	/* Decoded from shifted register bits, not compared shifted (the Xen bug). */
	uint64_t cbaser =
	    0xB80000004100040Full & ~LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CBASER_InnerCache);
	cbaser |= LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_CBASER_InnerCache, 1);
	assert_true(
	    virq_gic_attr_needs_clean(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_InnerCache, cbaser),
				      LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Shareability, cbaser)));
}

/* ---- sync reporting ---- */
static struct virq_its_sync sync_of(const struct virq_its_cmd *c, const struct virq_its_limits *l)
{
	uint8_t raw[32];
	struct virq_its_sync s;

	memset(&s, 0xAA, sizeof(s));
	assert_int_equal(virq_its_cmd_encode(c, l, raw, &s, NULL), LIBVIRQ_OK);
	return s;
}

static void test_sync_rules(void **st)
{
	(void)st;
	struct virq_its_limits l40, l41;
	struct virq_its_cmd c;
	struct virq_its_sync s;

	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l40);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull | (1ull << 40) | (1ull << 39), &l41);

	c = virq_its_mapd(1, 4, 0x1000, true);
	assert_int_equal(sync_of(&c, NULL).kind, LIBVIRQ_ITS_SYNC_NONE);
	c = virq_its_mapc(7, 0x70000, true);
	s = sync_of(&c, NULL);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_RDBASE);
	assert_int_equal(s.RDbase, 0x70000);
	c = virq_its_mapti(1, 2, 8192, 9);
	s = sync_of(&c, NULL);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_ICID);
	assert_int_equal(s.ICID, 9);
	c.opcode = LIBVIRQ_ITS_MOVI;
	assert_int_equal(sync_of(&c, NULL).kind, LIBVIRQ_ITS_SYNC_ICID);
	c.opcode = LIBVIRQ_ITS_MAPI;
	assert_int_equal(sync_of(&c, NULL).kind, LIBVIRQ_ITS_SYNC_ICID);
	c.opcode = LIBVIRQ_ITS_INVALL;
	assert_int_equal(sync_of(&c, NULL).ICID, 9);
	const enum virq_its_opcode ev_ops[] = {LIBVIRQ_ITS_INT, LIBVIRQ_ITS_CLEAR, LIBVIRQ_ITS_INV,
					       LIBVIRQ_ITS_DISCARD};
	for (size_t i = 0; i < 4; i++) {
		c = virq_its_mapti(3, 4, 8192, 0);
		c.opcode = ev_ops[i];
		s = sync_of(&c, NULL);
		assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_EVENT);
		assert_int_equal(s.DeviceID, 3);
		assert_int_equal(s.EventID, 4);
	}
	c = virq_its_sync_cmd(0);
	assert_int_equal(sync_of(&c, NULL).kind, LIBVIRQ_ITS_SYNC_NONE);
	c = virq_its_vsync_cmd(5);
	assert_int_equal(sync_of(&c, NULL).kind, LIBVIRQ_ITS_SYNC_NONE);
	c = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_MOVALL, .RDbase1 = 0x10000, .RDbase2 = 0x20000};
	s = sync_of(&c, NULL);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_RDBASE);
	assert_int_equal(s.RDbase, 0x20000);
	/* Virtual commands: VSYNC(vPEID). */
	const enum virq_its_opcode v_ops[] = {LIBVIRQ_ITS_VINVALL, LIBVIRQ_ITS_INVDB};
	for (size_t i = 0; i < 2; i++) {
		c = virq_its_vsync_cmd(77);
		c.opcode = v_ops[i];
		s = sync_of(&c, &l41);
		assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_VPEID);
		assert_int_equal(s.vPEID, 77);
	}
	c = virq_its_vmapti(1, 2, 33, 8200, LIBVIRQ_ITS_NO_DOORBELL);
	s = sync_of(&c, &l40);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_VPEID);
	assert_int_equal(s.vPEID, 33);
	c.opcode = LIBVIRQ_ITS_VMAPI;
	assert_int_equal(sync_of(&c, &l40).kind, LIBVIRQ_ITS_SYNC_VPEID);
	c.opcode = LIBVIRQ_ITS_VMOVI;
	assert_int_equal(sync_of(&c, &l40).kind, LIBVIRQ_ITS_SYNC_VPEID);
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VMOVP, .vPEID = 4, .RDbase = 0x10000};
	assert_int_equal(sync_of(&c, &l40).kind, LIBVIRQ_ITS_SYNC_VPEID);
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VSGI, .vPEID = 4, .vINTID = 3};
	assert_int_equal(sync_of(&c, &l41).vPEID, 4);
	/* VMAPP: map needs VSYNC on both; unmap only on 4.0
	 * (docs/rationale.md#gic-vmapp-unmap-no-vsync). */
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VMAPP,
				  .vPEID = 7,
				  .V = true,
				  .RDbase = 0x10000,
				  .VPT_addr = 0x40000,
				  .VPT_size = 15};
	assert_int_equal(sync_of(&c, &l40).kind, LIBVIRQ_ITS_SYNC_VPEID);
	c.Default_Doorbell = LIBVIRQ_ITS_NO_DOORBELL;
	c.Alloc = true;
	assert_int_equal(sync_of(&c, &l41).kind, LIBVIRQ_ITS_SYNC_VPEID);
	c.V = false;
	assert_int_equal(sync_of(&c, &l41).kind, LIBVIRQ_ITS_SYNC_NONE);
	c.Alloc = false;
	c.Default_Doorbell = 0;
	s = sync_of(&c, &l40);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_VPEID);
	assert_int_equal(s.vPEID, 7);
	assert_int_equal(sync_of(&c, NULL).kind, LIBVIRQ_ITS_SYNC_VPEID);
}

/* ---- random valid commands ---- */
#define all_ops all_ops_
#define NOPS NOPS_

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t rnd_db(void)
{
	return (rnd() & 1) ? LIBVIRQ_ITS_NO_DOORBELL
			   : (uint32_t)(8192 + rnd() % (0xFFFFFFFFull - 8192));
}

/* A random command valid without limits; every member is set (unused ones too). */
static struct virq_its_cmd rnd_cmd(enum virq_its_opcode op)
{
	struct virq_its_cmd c;

	c.opcode = op;
	c.DeviceID = (uint32_t)rnd();
	c.EventID = (uint32_t)rnd();
	c.pINTID = (uint32_t)(8192 + rnd() % (0xFFFFFFFFull - 8192));
	c.vINTID = op == LIBVIRQ_ITS_VSGI ? (uint32_t)(rnd() & 15)
					  : (uint32_t)(8192 + rnd() % (0xFFFFFFFFull - 8192));
	c.ICID = (uint32_t)(rnd() & 0xFFFF);
	c.vPEID = (uint32_t)(rnd() & 0xFFFF);
	c.Size = (uint32_t)(rnd() & 31);
	c.ITT_addr = rnd() & 0x000FFFFFFFFFFF00ull;
	c.V = rnd() & 1;
	c.RDbase = rnd() & 0x000FFFFFFFFF0000ull;
	c.RDbase1 = rnd() & 0x000FFFFFFFFF0000ull;
	c.RDbase2 = rnd() & 0x000FFFFFFFFF0000ull;
	c.D = rnd() & 1;
	c.Dbell_pINTID = rnd_db();
	c.SequenceNumber = (uint32_t)(rnd() & 0xFFFF);
	c.ITSList = (uint32_t)(rnd() & 0xFFFF);
	c.VPT_addr = rnd() & 0x000FFFFFFFFF0000ull;
	c.VPT_size = (uint32_t)(rnd() & 31);
	c.Alloc = rnd() & 1;
	c.PTZ = rnd() & 1;
	c.VCONF_addr = rnd() & 0x000FFFFFFFFF0000ull;
	c.Default_Doorbell = (rnd() % 3) == 0 ? 0 : rnd_db();
	c.DB = rnd() & 1;
	c.Enable = rnd() & 1;
	c.Clear = rnd() & 1;
	c.Group = rnd() & 1;
	c.Priority = (uint32_t)(rnd() & 0xF0);
	return c;
}

/* Cross-check against the model's independent decoder. */
static void check_model_decode(const struct virq_its_cmd *c, const uint8_t raw[32])
{
	struct virq_sim_its_cmd m;
	uint64_t f = virq_its_cmd_fields(c->opcode);

	virq_sim_its_decode(raw, &m);
	assert_true(m.known);
	assert_int_equal(m.op, c->opcode);
#define X_(bit, mval, cval)                                                                        \
	if (f & (1ull << LIBVIRQ_ITS_F_##bit))                                                     \
	assert_int_equal((uint64_t)(mval), (uint64_t)(cval))
	X_(DeviceID, m.dev, c->DeviceID);
	X_(EventID, m.ev, c->EventID);
	X_(pINTID, m.pintid, c->pINTID);
	X_(vINTID, m.vintid, c->vINTID);
	X_(ICID, m.icid, c->ICID);
	X_(vPEID, m.vpe, c->vPEID);
	X_(Size, m.size, c->Size);
	X_(ITT_addr, m.itt, c->ITT_addr);
	X_(V, m.valid, c->V);
	X_(RDbase, m.rd, c->RDbase);
	X_(RDbase1, m.rd, c->RDbase1);
	X_(RDbase2, m.rd2, c->RDbase2);
	X_(D, m.dbvalid, c->D);
	X_(Dbell_pINTID, m.db, c->Dbell_pINTID);
	X_(SequenceNumber, m.seq, c->SequenceNumber);
	X_(ITSList, m.itslist, c->ITSList);
	X_(VPT_addr, m.vpt, c->VPT_addr);
	X_(VPT_size, m.vpt_size, c->VPT_size);
	X_(Alloc, m.alloc, c->Alloc);
	X_(PTZ, m.ptz, c->PTZ);
	X_(VCONF_addr, m.vconf, c->VCONF_addr);
	X_(Default_Doorbell, m.defdb, c->Default_Doorbell);
	X_(DB, m.db41, c->DB);
	X_(Enable, m.en, c->Enable);
	X_(Clear, m.clr, c->Clear);
	X_(Group, m.grp, c->Group);
	X_(Priority, m.prio, c->Priority);
#undef X_
}

static void test_random_round_trip(void **s)
{
	(void)s;
	for (int iter = 0; iter < 2000; iter++) {
		for (size_t i = 0; i < NOPS; i++) {
			struct virq_its_cmd c = rnd_cmd(all_ops[i]), back, zeroed;
			uint8_t raw[32], raw2[32];
			uint64_t fields = virq_its_cmd_fields(c.opcode);

			assert_int_equal(virq_its_cmd_encode(&c, NULL, raw, NULL, NULL),
					 LIBVIRQ_OK);
			assert_int_equal(virq_its_cmd_decode(raw, &back), LIBVIRQ_OK);
			memset(&zeroed, 0, sizeof(zeroed));
			zeroed.opcode = c.opcode;
			for (int f = LIBVIRQ_ITS_F_DeviceID; f < LIBVIRQ_ITS_F_COUNT; f++) {
				if (!(fields >> f & 1)) {
					assert_int_equal(virq_its_cmd_get(&back, F_(f)), 0);
					continue;
				}
				assert_int_equal(virq_its_cmd_get(&back, F_(f)),
						 virq_its_cmd_get(&c, F_(f)));
				assert_int_equal(
				    virq_its_cmd_set(&zeroed, F_(f), virq_its_cmd_get(&c, F_(f))),
				    LIBVIRQ_OK);
			}
			/* Unused members do not leak into the encoding. */
			assert_int_equal(virq_its_cmd_encode(&zeroed, NULL, raw2, NULL, NULL),
					 LIBVIRQ_OK);
			assert_memory_equal(raw, raw2, 32);
			/* Decoding then encoding is the identity on valid commands. */
			assert_int_equal(virq_its_cmd_encode(&back, NULL, raw2, NULL, NULL),
					 LIBVIRQ_OK);
			assert_memory_equal(raw, raw2, 32);
			check_model_decode(&c, raw);
		}
	}
}

/* ---- every field's rejection ---- */
static struct virq_its_cmd valid_cmd(enum virq_its_opcode op)
{
	struct virq_its_cmd c = rnd_cmd(op);

	c.D = true;
	return c;
}

static void expect_bad(const struct virq_its_cmd *c, const struct virq_its_limits *lim,
		       virq_status want, enum virq_its_field field)
{
	uint8_t raw[32], before[32];
	enum virq_its_field bad = LIBVIRQ_ITS_F_NONE;

	memset(raw, 0x5A, sizeof(raw));
	memcpy(before, raw, sizeof(raw));
	assert_int_equal(virq_its_cmd_encode(c, lim, raw, NULL, &bad), want);
	assert_int_equal(bad, field);
	assert_memory_equal(raw, before, 32); /* nothing written on failure */
}

static void test_every_field_out_of_range(void **s)
{
	(void)s;
	unsigned checked = 0;

	for (size_t i = 0; i < NOPS; i++) {
		uint64_t fields = virq_its_cmd_fields(all_ops[i]);

		for (int f = LIBVIRQ_ITS_F_DeviceID; f < LIBVIRQ_ITS_F_COUNT; f++) {
			struct virq_its_cmd c = valid_cmd(all_ops[i]);
			bool addr = false;
			uint64_t too_big;

			if (!(fields >> f & 1))
				continue;
			switch (f) {
			case LIBVIRQ_ITS_F_DeviceID:
			case LIBVIRQ_ITS_F_EventID:
			case LIBVIRQ_ITS_F_V:
			case LIBVIRQ_ITS_F_D:
			case LIBVIRQ_ITS_F_Alloc:
			case LIBVIRQ_ITS_F_PTZ:
			case LIBVIRQ_ITS_F_DB:
			case LIBVIRQ_ITS_F_Enable:
			case LIBVIRQ_ITS_F_Clear:
			case LIBVIRQ_ITS_F_Group:
				continue; /* full-width or flags: only limits can reject them */
			case LIBVIRQ_ITS_F_pINTID:
				too_big = 8191; /* not an LPI */
				break;
			case LIBVIRQ_ITS_F_vINTID:
				too_big = all_ops[i] == LIBVIRQ_ITS_VSGI ? 16 : 8191;
				break;
			case LIBVIRQ_ITS_F_ICID:
			case LIBVIRQ_ITS_F_vPEID:
			case LIBVIRQ_ITS_F_SequenceNumber:
			case LIBVIRQ_ITS_F_ITSList:
				too_big = 0x10000;
				break;
			case LIBVIRQ_ITS_F_Size:
			case LIBVIRQ_ITS_F_VPT_size:
				too_big = 32;
				break;
			case LIBVIRQ_ITS_F_Dbell_pINTID:
			case LIBVIRQ_ITS_F_Default_Doorbell:
				too_big = 1022;
				break;
			case LIBVIRQ_ITS_F_Priority:
				too_big = 0x100;
				break;
			default:
				addr = true;
				too_big = 1ull << 52;
				break;
			}
			assert_int_equal(virq_its_cmd_set(&c, F_(f), too_big), LIBVIRQ_OK);
			expect_bad(&c, NULL, LIBVIRQ_ERANGE, F_(f));
			checked++;
			if (addr) {
				uint64_t gran = f == LIBVIRQ_ITS_F_ITT_addr ? 0x100 : 0x10000;

				assert_int_equal(virq_its_cmd_set(&c, F_(f), 0x40000000 + gran / 2),
						 LIBVIRQ_OK);
				expect_bad(&c, NULL, LIBVIRQ_EALIGN, F_(f));
				assert_int_equal(virq_its_cmd_set(&c, F_(f), 0x40000000 + gran),
						 LIBVIRQ_OK);
				assert_int_equal(
				    virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, NULL, NULL),
				    LIBVIRQ_OK);
			}
		}
	}
	assert_int_equal(checked, 36);
	/* Priority: multiple of 16 only. */
	struct virq_its_cmd c = valid_cmd(LIBVIRQ_ITS_VSGI);
	c.Priority = 0x18;
	expect_bad(&c, NULL, LIBVIRQ_EALIGN, LIBVIRQ_ITS_F_Priority);
	c.Priority = 0xF0;
	assert_int_equal(virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, NULL, NULL), LIBVIRQ_OK);
	/* VMOVI with D = 0 ignores the doorbell; with D = 1 it is checked. */
	c = valid_cmd(LIBVIRQ_ITS_VMOVI);
	c.Dbell_pINTID = 5;
	expect_bad(&c, NULL, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_Dbell_pINTID);
	c.D = false;
	assert_int_equal(virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, NULL, NULL), LIBVIRQ_OK);
	/* Boundaries: 8192 and 1023 are fine. */
	c = virq_its_mapti(0, 0, 8192, 0);
	assert_int_equal(virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, NULL, NULL), LIBVIRQ_OK);
	c = virq_its_vmapti(0, 0, 0, 8192, 1023);
	assert_int_equal(virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, NULL, NULL), LIBVIRQ_OK);
}

static void test_unknown_opcode_and_nulls(void **s)
{
	(void)s;
	struct virq_its_cmd c = {.opcode = (enum virq_its_opcode)0x07};
	uint8_t raw[32] = {0};
	enum virq_its_field bad;

	expect_bad(&c, NULL, LIBVIRQ_EUNKNOWN, LIBVIRQ_ITS_F_opcode);
	c.opcode = (enum virq_its_opcode)0x24;
	expect_bad(&c, NULL, LIBVIRQ_EUNKNOWN, LIBVIRQ_ITS_F_opcode);
	for (unsigned op = 0; op < 256; op++) {
		struct virq_its_cmd d;
		bool known = virq_its_opcode_name((enum virq_its_opcode)op) != NULL;

		raw[0] = (uint8_t)op;
		assert_int_equal(virq_its_cmd_decode(raw, &d),
				 known ? LIBVIRQ_OK : LIBVIRQ_EUNKNOWN);
		assert_int_equal(d.opcode, op);
		assert_int_equal(virq_its_cmd_fields((enum virq_its_opcode)op) != 0, known);
	}
	assert_int_equal(virq_its_cmd_encode(NULL, NULL, raw, NULL, &bad), LIBVIRQ_EINVAL);
	c = virq_its_sync_cmd(0);
	assert_int_equal(virq_its_cmd_encode(&c, NULL, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_cmd_decode(NULL, &c), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_cmd_decode(raw, NULL), LIBVIRQ_EINVAL);
	/* Generic access errors. */
	assert_int_equal(virq_its_cmd_set(&c, LIBVIRQ_ITS_F_V, 2), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cmd_set(&c, LIBVIRQ_ITS_F_DeviceID, 1ull << 32), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cmd_set(&c, LIBVIRQ_ITS_F_NONE, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_cmd_set(&c, LIBVIRQ_ITS_F_COUNT, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_cmd_set(&c, LIBVIRQ_ITS_F_opcode, 256), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_cmd_get(&c, LIBVIRQ_ITS_F_COUNT), 0);
	assert_string_equal(virq_its_field_name(LIBVIRQ_ITS_F_Dbell_pINTID), "Dbell_pINTID");
	assert_string_equal(virq_its_field_name(LIBVIRQ_ITS_F_COUNT), "?");
	assert_string_equal(virq_its_opcode_name(LIBVIRQ_ITS_VMAPTI), "VMAPTI");
	for (int f = 0; f < LIBVIRQ_ITS_F_COUNT; f++)
		assert_non_null(virq_its_field_name(F_(f)));
}

/* ---- limits ---- */
static void test_limits_from_typer(void **s)
{
	(void)s;
	struct virq_its_limits l;

	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l); /* QEMU gic-version=4 */
	assert_int_equal(l.devid_bits, 16);
	assert_int_equal(l.eventid_bits, 16);
	assert_int_equal(l.icid_bits, 16);
	assert_int_equal(l.vpeid_bits, 16);
	assert_false(l.pta);
	assert_true(l.vmovp);
	assert_false(l.vsgi);
	assert_int_equal(l.version, LIBVIRQ_ITS_V40);
	virq_its_limits_from_typer(0x0000001F0001EFB1ull, &l); /* QEMU gic-version=3 */
	assert_int_equal(l.version, LIBVIRQ_ITS_V3);
	assert_false(l.vmovp);
	/* CIL = 1, CIDbits = 5 -> 6 bits; Devbits 31 -> 32; PTA; 4.1 with VSGI. */
	virq_its_limits_from_typer((1ull << 36) | (5ull << 32) | (31ull << 13) | (1ull << 19) |
				       (1ull << 40) | (1ull << 39) | 2 | (9ull << 8),
				   &l);
	assert_int_equal(l.icid_bits, 6);
	assert_int_equal(l.devid_bits, 32);
	assert_int_equal(l.eventid_bits, 10);
	assert_true(l.pta);
	assert_true(l.vsgi);
	assert_int_equal(l.version, LIBVIRQ_ITS_V41);
	/* CIL = 0: CIDbits ignored, 16 bits. */
	virq_its_limits_from_typer(5ull << 32, &l);
	assert_int_equal(l.icid_bits, 16);
}

static void ok_with(const struct virq_its_cmd *c, const struct virq_its_limits *l)
{
	assert_int_equal(virq_its_cmd_encode(c, l, (uint8_t[32]){0}, NULL, NULL), LIBVIRQ_OK);
}

static void test_limits_id_equal_to_limit_rejected(void **s)
{
	(void)s;
	struct virq_its_limits l;
	struct virq_its_cmd c;

	/* Devbits = 15 (16 bits): DeviceID 65535 ok, 65536 rejected
	 * (docs/rationale.md#gic-its-bounds). */
	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l);
	c = virq_its_mapd(65535, 15, 0x10000, true);
	ok_with(&c, &l);
	c.DeviceID = 65536;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_DeviceID);
	c.DeviceID = 0xFFFFFFFF;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_DeviceID);
	/* Size <= ID_bits. */
	c = virq_its_mapd(1, 16, 0x10000, true);
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_Size);
	/* EventID < 2^16. */
	c = virq_its_mapti(1, 65535, 8192, 0);
	ok_with(&c, &l);
	c.EventID = 65536;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_EventID);
	/* Collection table with 64 entries: ICID 63 ok, 64 rejected. */
	l.nr_icids = 64;
	c = virq_its_mapti(1, 2, 8192, 63);
	ok_with(&c, &l);
	c.ICID = 64;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ICID);
	c.ICID = 0xFFFFFFFF;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ICID);
	/* MAPC RDbase (processor number) = nr_procs rejected; ignored when V = 0. */
	l.nr_procs = 4;
	c = virq_its_mapc(1, virq_its_rdbase_procnum(3), true);
	ok_with(&c, &l);
	c.RDbase = virq_its_rdbase_procnum(4);
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_RDbase);
	c.V = false;
	ok_with(&c, &l);
	c = virq_its_sync_cmd(virq_its_rdbase_procnum(4));
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_RDbase);
	l.nr_procs = 0; /* unknown: 16-bit processor numbers */
	c = virq_its_sync_cmd(virq_its_rdbase_procnum(0xFFFF));
	ok_with(&c, &l);
	c.RDbase = 0x10000ull << 16;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_RDbase);
	l.pta = true; /* a PA: fine */
	ok_with(&c, &l);
	/* vPE IDs: bits and count. */
	l.vpeid_bits = 8;
	c = virq_its_vsync_cmd(255);
	ok_with(&c, &l);
	c.vPEID = 256;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_vPEID);
	l.nr_vpeids = 10;
	c.vPEID = 10;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_vPEID);
	c.vPEID = 9;
	ok_with(&c, &l);
	/* CIDbits from TYPER. */
	virq_its_limits_from_typer((1ull << 36) | (3ull << 32) | (15ull << 13) | (15ull << 8), &l);
	c = virq_its_mapc(15, 0, true);
	ok_with(&c, &l);
	c.ICID = 16;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ICID);
}

static void test_limits_versions(void **s)
{
	(void)s;
	struct virq_its_limits l3, l40, l41, l41nosgi;
	struct virq_its_cmd c;

	virq_its_limits_from_typer(0x0000001F0001EFB1ull, &l3);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l40);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull | (1ull << 40) | (1ull << 39), &l41);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull | (1ull << 40), &l41nosgi);
	for (size_t i = 0; i < NOPS; i++) {
		c = valid_cmd(all_ops[i]);
		c.DeviceID &= 0xFFFF;
		c.EventID &= 0xFFFF;
		c.Size &= 15;
		c.RDbase &= 0xFFFF0000;
		c.RDbase1 &= 0xFFFF0000;
		c.RDbase2 &= 0xFFFF0000;
		c.Default_Doorbell = LIBVIRQ_ITS_NO_DOORBELL;
		c.SequenceNumber = c.ITSList = 0; /* l41 has GITS_TYPER.VMOVP = 1 */
		if (all_ops[i] >= 0x20)
			expect_bad(&c, &l3, LIBVIRQ_ENOTSUP, LIBVIRQ_ITS_F_opcode);
		else
			ok_with(&c, &l3);
		ok_with(&c, &l41);
	}
	c = valid_cmd(LIBVIRQ_ITS_VSGI);
	expect_bad(&c, &l40, LIBVIRQ_ENOTSUP, LIBVIRQ_ITS_F_opcode);
	expect_bad(&c, &l41nosgi, LIBVIRQ_ENOTSUP, LIBVIRQ_ITS_F_opcode);
	c = virq_its_vsync_cmd(1);
	c.opcode = LIBVIRQ_ITS_INVDB;
	expect_bad(&c, &l40, LIBVIRQ_ENOTSUP, LIBVIRQ_ITS_F_opcode);
	ok_with(&c, &l41nosgi);
	/* 4.1-only VMAPP/VMOVP fields on a 4.0 ITS. */
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VMAPP,
				  .vPEID = 1,
				  .V = true,
				  .VPT_addr = 0x10000,
				  .VPT_size = 15};
	ok_with(&c, &l40);
	c.Alloc = true;
	expect_bad(&c, &l40, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_Alloc);
	c.Alloc = false;
	c.PTZ = true;
	expect_bad(&c, &l40, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_PTZ);
	c.PTZ = false;
	c.VCONF_addr = 0x20000;
	expect_bad(&c, &l40, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_VCONF_addr);
	c.VCONF_addr = 0;
	c.Default_Doorbell = LIBVIRQ_ITS_NO_DOORBELL;
	expect_bad(&c, &l40, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_Default_Doorbell);
	/* On 4.1, Default_Doorbell must be 1023 or an LPI (0 is not). */
	ok_with(&c, &l41);
	c.Default_Doorbell = 0;
	expect_bad(&c, &l41, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_Default_Doorbell);
	c = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_VMOVP, .vPEID = 1, .DB = true, .Default_Doorbell = 8192};
	ok_with(&c, &l41);
	expect_bad(&c, &l40, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_DB);
}

/*
 * The MAPTI fast path (prepared limits, one comparison per field) gives
 * exactly what the generic checks give: same status, same named field,
 * same bytes; and a cache left stale by a direct member change is never
 * used (the limits it would wrongly allow are still rejected).
 */
static void test_limits_cache_equivalence(void **s)
{
	(void)s;
	for (int iter = 0; iter < 20000; iter++) {
		struct virq_its_limits l, stale;
		struct virq_its_cmd c;
		uint8_t a[32], b[32];
		enum virq_its_field fa = LIBVIRQ_ITS_F_COUNT, fb = LIBVIRQ_ITS_F_COUNT;
		virq_status sa, sb;
		uint64_t r = rnd();

		virq_its_limits_from_typer(rnd(), &l);
		if (r & 1)
			l.nr_icids = (uint32_t)(rnd() % 70000);
		if (r & 2)
			l.icid_bits = (uint8_t)rnd();
		if (r & 4)
			l.devid_bits = (uint8_t)(rnd() % 40);
		if (r & 8)
			l.eventid_bits = (uint8_t)(rnd() % 40);
		virq_its_limits_prepare(&l);
		stale = l;
		stale.cache.key_bits ^= 0x01010101u; /* forces the generic checks */
		/* IDs near the limits: random, just below, at, or above each maximum. */
		c = virq_its_mapti((uint32_t)rnd(), (uint32_t)rnd(), (uint32_t)rnd(),
				   (uint32_t)rnd());
		if (r & 16)
			c.DeviceID = l.cache.max_DeviceID + (uint32_t)(rnd() % 3) - 1u;
		if (r & 32)
			c.EventID = l.cache.max_EventID + (uint32_t)(rnd() % 3) - 1u;
		if (r & 64)
			c.ICID = l.cache.max_ICID + (uint32_t)(rnd() % 3) - 1u;
		if (r & 128)
			c.pINTID = 8191 + (uint32_t)(rnd() % 3);
		memset(a, 0x5A, 32);
		memset(b, 0x5A, 32);
		sa = virq_its_cmd_encode(&c, &l, a, NULL, &fa);
		sb = virq_its_cmd_encode(&c, &stale, b, NULL, &fb);
		assert_int_equal(sa, sb);
		assert_int_equal(fa, fb);
		assert_memory_equal(a, b, 32);
	}
	/* A member changed without prepare(): the stale cache must not be trusted. */
	struct virq_its_limits l;
	struct virq_its_cmd c = virq_its_mapti(100, 200, 8192, 5);

	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l);
	ok_with(&c, &l);
	l.devid_bits = 6; /* DeviceID < 64 */
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_DeviceID);
	l.devid_bits = 16;
	l.eventid_bits = 7; /* EventID < 128 */
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_EventID);
	l.eventid_bits = 16;
	l.icid_bits = 2;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ICID);
	l.icid_bits = 16;
	l.nr_icids = 5;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ICID);
	virq_its_limits_prepare(&l);
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ICID);
	c.ICID = 4;
	ok_with(&c, &l);
	/* A zeroed struct (never prepared) means "ID 0 only", like its members say. */
	memset(&l, 0, sizeof(l));
	c = virq_its_mapti(0, 0, 8192, 0);
	ok_with(&c, &l);
	c.EventID = 1;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_EventID);
}

/*
 * VMOVP SequenceNumber and ITSList exist only for a GICv4.0 ITS with
 * GITS_TYPER.VMOVP = 0 (IHI 0069H §5.3 VMOVP, §12.19 GITS_TYPER); with
 * VMOVP = 1 they are unused bits and must stay zero, like Linux sends them.
 */
static void test_vmovp_itslist_needs_vmovp0(void **s)
{
	(void)s;
	struct virq_its_limits l;
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMOVP,
				 .SequenceNumber = 0x1234,
				 .ITSList = 3,
				 .vPEID = 0x42,
				 .RDbase = virq_its_rdbase_procnum(1)};

	virq_its_limits_from_typer(0x0000001F0001EFB3ull, &l); /* 4.0, VMOVP = 0 */
	assert_false(l.vmovp);
	ok_with(&c, &l);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l); /* QEMU: 4.0, VMOVP = 1 */
	assert_true(l.vmovp);
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_SequenceNumber);
	c.SequenceNumber = 0;
	expect_bad(&c, &l, LIBVIRQ_ERANGE, LIBVIRQ_ITS_F_ITSList);
	c.ITSList = 0;
	ok_with(&c, &l);
}

/*
 * Any 32 bytes decode without a crash; an unknown opcode is an error; a
 * decoded known command agrees with the model's independent decoder, and
 * when it re-encodes, decoding again gives the same description.
 */
static void test_decode_arbitrary_bytes(void **s)
{
	(void)s;
	for (int iter = 0; iter < 50000; iter++) {
		uint8_t raw[32], raw2[32];
		struct virq_its_cmd c, c2;
		uint64_t w[4] = {rnd(), rnd(), rnd(), rnd()};
		virq_status st;

		if (iter & 1) /* half the time a known opcode */
			w[0] = (w[0] & ~0xFFull) | all_ops[rnd() % NOPS];
		virq_its_cmd_from_words(w, raw);
		st = virq_its_cmd_decode(raw, &c);
		assert_int_equal(c.opcode, (unsigned)(w[0] & 0xFF));
		if (!virq_its_opcode_name(c.opcode)) {
			assert_int_equal(st, LIBVIRQ_EUNKNOWN);
			continue;
		}
		assert_int_equal(st, LIBVIRQ_OK);
		check_model_decode(&c, raw);
		if (virq_its_cmd_encode(&c, NULL, raw2, NULL, NULL) != LIBVIRQ_OK)
			continue;
		assert_int_equal(virq_its_cmd_decode(raw2, &c2), LIBVIRQ_OK);
		assert_memory_equal(&c, &c2, sizeof(c));
	}
}

/*
 * Move commands report their source as well as their destination (issue:
 * the encoder used to name only the new collection, so a caller waiting on
 * it alone could believe a MOVI complete while the old redistributor still
 * held the pending state; Linux's its_build_movi_cmd() syncs the old one).
 * Fails before: src_kind did not exist / was not written.
 */
static void test_move_sync_names_source(void **st)
{
	struct virq_its_limits l40;
	struct virq_its_cmd c;
	struct virq_its_sync s;

	(void)st;
	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &l40);
	memset(&s, 0xA5, sizeof(s));
	c = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_MOVI, .DeviceID = 5, .EventID = 9, .ICID = 1};
	assert_int_equal(virq_its_cmd_encode(&c, &l40, (uint8_t[32]){0}, &s, NULL), LIBVIRQ_OK);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_ICID);
	assert_int_equal(s.ICID, 1);
	assert_int_equal(s.src_kind, LIBVIRQ_ITS_SYNC_EVENT);
	assert_int_equal(s.DeviceID, 5);
	assert_int_equal(s.EventID, 9);
	/* VMOVI: VSYNC the new vPE and the vPE the event leaves. */
	c = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_VMOVI, .DeviceID = 5, .EventID = 9, .vPEID = 3};
	assert_int_equal(virq_its_cmd_encode(&c, &l40, (uint8_t[32]){0}, &s, NULL), LIBVIRQ_OK);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_VPEID);
	assert_int_equal(s.vPEID, 3);
	assert_int_equal(s.src_kind, LIBVIRQ_ITS_SYNC_EVENT);
	/* MOVALL: both redistributors. */
	c = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_MOVALL, .RDbase1 = 0x10000, .RDbase2 = 0x20000};
	assert_int_equal(virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, &s, NULL), LIBVIRQ_OK);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_RDBASE);
	assert_int_equal(s.RDbase, 0x20000);
	assert_int_equal(s.src_kind, LIBVIRQ_ITS_SYNC_RDBASE);
	assert_int_equal(s.src_RDbase, 0x10000);
	/* VMOVP: one VSYNC per ITS covers both RDs (per vPE); no source. */
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VMOVP, .vPEID = 4, .RDbase = 0x10000};
	assert_int_equal(virq_its_cmd_encode(&c, &l40, (uint8_t[32]){0}, &s, NULL), LIBVIRQ_OK);
	assert_int_equal(s.kind, LIBVIRQ_ITS_SYNC_VPEID);
	assert_int_equal(s.src_kind, LIBVIRQ_ITS_SYNC_NONE);
	/* Every other command: no source (the fast MAPTI path too). */
	memset(&s, 0xA5, sizeof(s));
	c = virq_its_mapti(1, 2, 8192, 0);
	assert_int_equal(virq_its_cmd_encode(&c, &l40, (uint8_t[32]){0}, &s, NULL), LIBVIRQ_OK);
	assert_int_equal(s.src_kind, LIBVIRQ_ITS_SYNC_NONE);
	for (unsigned op = 0; op < 0x30; op++) {
		if (op == LIBVIRQ_ITS_MOVI || op == LIBVIRQ_ITS_VMOVI || op == LIBVIRQ_ITS_MOVALL)
			continue;
		memset(&c, 0, sizeof(c));
		c.opcode = (enum virq_its_opcode)op;
		memset(&s, 0xA5, sizeof(s));
		if (virq_its_cmd_encode(&c, NULL, (uint8_t[32]){0}, &s, NULL) == LIBVIRQ_OK)
			assert_int_equal(s.src_kind, LIBVIRQ_ITS_SYNC_NONE);
	}
}

/* The in-place runs of the batch paths write exactly what the encoder
 * writes for each command. */
static void test_fill_matches_encoder(void **st)
{
	uint8_t run[40][32], one[32];

	(void)st;
	virq_its_vmapti_fill_(run[0], 40, 0x1234, 0xFFFFFFF0u - 39, 77, 9000, 8300);
	for (uint32_t i = 0; i < 40; i++) {
		struct virq_its_cmd c =
		    virq_its_vmapti(0x1234, 0xFFFFFFF0u - 39 + i, 77, 9000 + i, 8300);

		assert_int_equal(virq_its_cmd_encode(&c, NULL, one, NULL, NULL), LIBVIRQ_OK);
		assert_memory_equal(run[i], one, 32);
	}
	virq_its_discard_fill_(run[0], 40, 0xFFFFFFFFu, 0xFFFFFFFFu - 39);
	for (uint32_t i = 0; i < 40; i++) {
		struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_DISCARD,
					 .DeviceID = 0xFFFFFFFFu,
					 .EventID = 0xFFFFFFFFu - 39 + i};

		assert_int_equal(virq_its_cmd_encode(&c, NULL, one, NULL, NULL), LIBVIRQ_OK);
		assert_memory_equal(run[i], one, 32);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_v1_mapd),
	    cmocka_unit_test(test_v2_mapc),
	    cmocka_unit_test(test_v3_mapti),
	    cmocka_unit_test(test_v4_movi),
	    cmocka_unit_test(test_v5_sync),
	    cmocka_unit_test(test_v6_vmapp40),
	    cmocka_unit_test(test_v7_vmapp41_unmap),
	    cmocka_unit_test(test_v8_vmapi),
	    cmocka_unit_test(test_v9_vmovp40),
	    cmocka_unit_test(test_v10_vsync_vinvall_invdb),
	    cmocka_unit_test(test_vectors_every_command),
	    cmocka_unit_test(test_r1_cbaser_r2_baser_r5_sgir),
	    cmocka_unit_test(test_needs_clean_decoded_device_or_nc),
	    cmocka_unit_test(test_sync_rules),
	    cmocka_unit_test(test_move_sync_names_source),
	    cmocka_unit_test(test_fill_matches_encoder),
	    cmocka_unit_test(test_random_round_trip),
	    cmocka_unit_test(test_every_field_out_of_range),
	    cmocka_unit_test(test_unknown_opcode_and_nulls),
	    cmocka_unit_test(test_limits_from_typer),
	    cmocka_unit_test(test_limits_id_equal_to_limit_rejected),
	    cmocka_unit_test(test_limits_versions),
	    cmocka_unit_test(test_limits_cache_equivalence),
	    cmocka_unit_test(test_vmovp_itslist_needs_vmovp0),
	    cmocka_unit_test(test_decode_arbitrary_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
