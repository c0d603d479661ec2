/* SPDX-License-Identifier: MIT */
/*
 * ITS command encoders and decoders: pure functions, no I/O, no state.
 *
 * Every bit position comes from the command tables of enc/its_layout.h
 * (Arm IHI 0069H §5.3), expanded here into straight-line code per command:
 * chk_<CMD>_() (each field's width, alignment or ITS limit), words_<CMD>_()
 * (the four doublewords), dec_<CMD>_() (the fields back), the RES0 masks
 * and the field lists of virq_its_cmd_layout(). The per-command encoders
 * enc_<CMD>_() add the value rules a width cannot say (LPIs, doorbells,
 * GITS_TYPER limits, versions) and the synchronisation the command needs
 * (docs/rationale.md#gic-its-command-sync; #gic-vmapp-unmap-no-vsync:
 * GICv4.1 VMAPP unmap is self-synchronising, IHI 0069H §5.3.19).
 */
#include <libvirq/gicv4/its_cmd.h>
#include <libvirq/gicv4/its_regs.h>
#include <libvirq/bitfield.h>

#include "its_layout.h"
#include "its_fill.h"
#include "../../common/compiler.h"

#define UNLIKELY_(x) __builtin_expect(!!(x), 0)
#define NELEM_(a) (sizeof(a) / sizeof((a)[0]))

/* ---- compile-time facts about the tables ---- */

/* Each field's doubleword and bits by command: ITS_DW_MAPTI_pINTID_ etc. */
#define POS_(cmd, dw, hi, lo, name)                                                                \
	ITS_DW_##cmd##_##name##_ = (dw), ITS_HI_##cmd##_##name##_ = (hi),                          \
	ITS_LO_##cmd##_##name##_ = (lo),
#define POS_CMD_(cmd) LIBVIRQ_ITS_FIELDS_OF_(cmd, POS_, cmd)
enum its_pos_ { LIBVIRQ_ITS_COMMANDS_(POS_CMD_) ITS_POS_END_ };

/*
 * No two fields of a doubleword overlap (the sum of disjoint masks is their
 * union), every table starts with the opcode in DW0[7:0], a number fits its
 * 32-bit member, and the ID fields have the widths the limit tables below
 * are capped at (DeviceID and EventID 32 bits, ICID and vPEID 16 bits).
 */
#define NO_OVERLAP_(cmd, dw)                                                                       \
	LIBVIRQ_STATIC_ASSERT_(                                                                    \
	    ((uint64_t)0 LIBVIRQ_ITS_FIELDS_OF_(cmd, LIBVIRQ_ITS_SUM_IN_, dw)) ==                  \
		((uint64_t)0 LIBVIRQ_ITS_FIELDS_OF_(cmd, LIBVIRQ_ITS_USED_IN_, dw)),               \
	    "fields overlap in " #cmd);
#define WIDTH_OK_OP(cmd, dw, hi, lo, name)                                                         \
	LIBVIRQ_STATIC_ASSERT_((dw) == 0 && (hi) == 7 && (lo) == 0, "opcode at DW0[7:0]");
#define WIDTH_OK_ID(cmd, dw, hi, lo, name)                                                         \
	LIBVIRQ_STATIC_ASSERT_((hi) - (lo) + 1 == ID_BITS_##name##_, #name " width in " #cmd);
#define WIDTH_OK_VAL(cmd, dw, hi, lo, name)                                                        \
	LIBVIRQ_STATIC_ASSERT_((hi) - (lo) < 32, #name " fits 32 bits in " #cmd);
#define WIDTH_OK_FLAG(cmd, dw, hi, lo, name)                                                       \
	LIBVIRQ_STATIC_ASSERT_((hi) == (lo), #name " is one bit in " #cmd);
#define WIDTH_OK_ADDR(cmd, dw, hi, lo, name)                                                       \
	LIBVIRQ_STATIC_ASSERT_((hi) < 63 && (lo) > 0, #name " is an address field in " #cmd);
#define WIDTH_OK_PRIO(cmd, dw, hi, lo, name)                                                       \
	LIBVIRQ_STATIC_ASSERT_((hi) - (lo) == 3, #name " holds Priority[7:4] in " #cmd);
#define WIDTH_OK_(cmd, dw, hi, lo, name) LIBVIRQ_ITS_BY_KIND_(WIDTH_OK_, cmd, dw, hi, lo, name)
#define TABLE_OK_(cmd)                                                                             \
	NO_OVERLAP_(cmd, 0)                                                                        \
	NO_OVERLAP_(cmd, 1)                                                                        \
	NO_OVERLAP_(cmd, 2) NO_OVERLAP_(cmd, 3) LIBVIRQ_ITS_FIELDS_OF_(cmd, WIDTH_OK_, cmd)
enum { ID_BITS_DeviceID_ = 32, ID_BITS_EventID_ = 32, ID_BITS_ICID_ = 16, ID_BITS_vPEID_ = 16 };
LIBVIRQ_ITS_COMMANDS_(TABLE_OK_)

/* Every field name once, and one per enum virq_its_field constant after NONE. */
#define COUNT_(n) ITS_NAME_##n##_,
enum its_names_ { LIBVIRQ_ITS_FIELD_NAMES_(COUNT_) ITS_NAMES_ };
LIBVIRQ_STATIC_ASSERT_(ITS_NAMES_ == LIBVIRQ_ITS_F_COUNT - 1, "one name per field");

/* ---- little-endian words, independent of host endianness ---- */
static inline void st_le64_(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	__builtin_memcpy(p, &v, sizeof(v));
}

static inline uint64_t ld_le64_(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

void virq_its_cmd_from_words(const uint64_t dw[4], uint8_t out[LIBVIRQ_ITS_CMD_SIZE])
{
	for (unsigned i = 0; i < 4; i++)
		st_le64_(out + 8 * i, dw[i]);
}

void virq_its_cmd_to_words(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE], uint64_t dw[4])
{
	for (unsigned i = 0; i < 4; i++)
		dw[i] = ld_le64_(in + 8 * i);
}

/* The four words of a command, highest first: keeps gcc from pairing the
 * stores through SSE registers. */
static inline virq_status emit_(uint8_t *out, const uint64_t w[4])
{
	st_le64_(out + 24, w[3]);
	st_le64_(out + 16, w[2]);
	st_le64_(out + 8, w[1]);
	st_le64_(out, w[0]);
	return LIBVIRQ_OK;
}

/* ---- limits ---- */
void virq_its_limits_from_typer(uint64_t typer, struct virq_its_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	lim->devid_bits = (uint8_t)(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_Devbits, typer) + 1);
	lim->eventid_bits = (uint8_t)(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_ID_bits, typer) + 1);
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_CIL, typer))
		lim->icid_bits =
		    (uint8_t)(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_CIDbits, typer) + 1);
	else
		lim->icid_bits = ID_BITS_ICID_;
	lim->vpeid_bits = ID_BITS_vPEID_;
	lim->pta = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_PTA, typer) != 0;
	lim->vmovp = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_VMOVP, typer) != 0;
	lim->vsgi = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_VSGI, typer) != 0;
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_Virtual, typer))
		lim->version = LIBVIRQ_ITS_V3;
	else if (LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_VMAPP, typer))
		lim->version = LIBVIRQ_ITS_V41;
	else
		lim->version = LIBVIRQ_ITS_V40;
	virq_its_limits_prepare(lim);
}

/*
 * Largest ID for a probed bit width (index: the width, 0..255), by table
 * lookup so that the encoder's hot path has no variable shift. max32_ caps
 * at the 32-bit DeviceID and EventID fields, max16_ at the 16-bit ICID and
 * vPEID fields (ID_BITS_*_, asserted against every table above), so one
 * comparison checks both the limit and the field width.
 */
#define ALL16_(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
/* clang-format off */
static const uint32_t max32_[256] = {
	0x0u, 0x1u, 0x3u, 0x7u, 0xfu, 0x1fu, 0x3fu, 0x7fu,
	0xffu, 0x1ffu, 0x3ffu, 0x7ffu, 0xfffu, 0x1fffu, 0x3fffu, 0x7fffu,
	0xffffu, 0x1ffffu, 0x3ffffu, 0x7ffffu, 0xfffffu, 0x1fffffu, 0x3fffffu, 0x7fffffu,
	0xffffffu, 0x1ffffffu, 0x3ffffffu, 0x7ffffffu, 0xfffffffu, 0x1fffffffu, 0x3fffffffu,
	0x7fffffffu,
	ALL16_(0xffffffffu), ALL16_(0xffffffffu), ALL16_(0xffffffffu), ALL16_(0xffffffffu),
	ALL16_(0xffffffffu), ALL16_(0xffffffffu), ALL16_(0xffffffffu), ALL16_(0xffffffffu),
	ALL16_(0xffffffffu), ALL16_(0xffffffffu), ALL16_(0xffffffffu), ALL16_(0xffffffffu),
	ALL16_(0xffffffffu), ALL16_(0xffffffffu),
};
static const uint32_t max16_[256] = {
	0x0u, 0x1u, 0x3u, 0x7u, 0xfu, 0x1fu, 0x3fu, 0x7fu,
	0xffu, 0x1ffu, 0x3ffu, 0x7ffu, 0xfffu, 0x1fffu, 0x3fffu, 0x7fffu,
	ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu),
	ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu),
	ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu), ALL16_(0xffffu),
};
/* clang-format on */

/* The inputs the cached maxima depend on: the four widths, one byte each. */
static inline uint32_t lim_bits_key_(const struct virq_its_limits *L)
{
	return (uint32_t)L->devid_bits | ((uint32_t)L->eventid_bits << 8) |
	       ((uint32_t)L->icid_bits << 16) | ((uint32_t)L->vpeid_bits << 24);
}

/* Largest ID below both 2^bits (table @tbl) and @count (0: no count limit). */
static uint32_t id_max_(const uint32_t *tbl, uint8_t bits, uint32_t count)
{
	uint32_t m = tbl[bits];

	return count && count - 1u < m ? count - 1u : m;
}

void virq_its_limits_prepare(struct virq_its_limits *lim)
{
	struct virq_its_limits_cache *k = &lim->cache;

	k->key_bits = lim_bits_key_(lim);
	k->key_nr_icids = lim->nr_icids;
	k->key_nr_vpeids = lim->nr_vpeids;
	k->max_DeviceID = max32_[lim->devid_bits];
	k->max_EventID = max32_[lim->eventid_bits];
	k->max_ICID = id_max_(max16_, lim->icid_bits, lim->nr_icids);
	k->max_vPEID = id_max_(max16_, lim->vpeid_bits, lim->nr_vpeids);
}

/* The cache holds the maxima of DeviceID, EventID and ICID for @L as it is now. */
static inline bool cache_fresh_icid_(const struct virq_its_limits *L)
{
	return L->cache.key_bits == lim_bits_key_(L) && L->cache.key_nr_icids == L->nr_icids;
}

/* What the ID checks use when no limits are given: only the field widths. */
static const struct virq_its_limits nolim_ = {
    .devid_bits = ID_BITS_DeviceID_,
    .eventid_bits = ID_BITS_EventID_,
    .icid_bits = ID_BITS_ICID_,
    .vpeid_bits = ID_BITS_vPEID_,
};

/* ---- the checks of one field: true when the value is refused ---- */

/* ID fields (kind ID) against @L, which is never NULL (nolim_ stands in). */
static inline bool id_bad_DeviceID_(const struct virq_its_limits *L, uint32_t dev)
{
	return dev > max32_[L->devid_bits];
}

static inline bool id_bad_EventID_(const struct virq_its_limits *L, uint32_t ev)
{
	return ev > max32_[L->eventid_bits];
}

/* count - 1 < id  <=>  id >= count, for count >= 1; count == 0 never limits. */
static inline bool id_bad_ICID_(const struct virq_its_limits *L, uint32_t icid)
{
	return icid > max16_[L->icid_bits] || L->nr_icids - 1u < icid;
}

static inline bool id_bad_vPEID_(const struct virq_its_limits *L, uint32_t vpe)
{
	return vpe > max16_[L->vpeid_bits] || L->nr_vpeids - 1u < vpe;
}

/* A number wider than its field (kind VAL); a function, so that a 32-bit
 * member against a 32-bit field is no "always false" comparison. */
static inline bool too_wide_(uint64_t v, uint64_t max)
{
	return v > max;
}

/*
 * Name the field and return the error. Inline, behind UNLIKELY_: a call
 * (even a tail call) would make every check set up its arguments and keep
 * the command's pointers in callee-saved registers on the path that passes.
 */
static inline virq_status fail_(enum virq_its_field *bad, enum virq_its_field f, virq_status st)
{
	if (bad)
		*bad = f;
	return st;
}

#define CHK_(cond, fld, err)                                                                       \
	do {                                                                                       \
		if (UNLIKELY_(cond))                                                               \
			return fail_(bad, LIBVIRQ_ITS_F_##fld, (err));                             \
	} while (0)

/* ---- per command, from its table: field checks, words, decoder ---- */

/* chk_<CMD>_(): every field of the command, in table order, by kind. */
#define CHK_OP(a, dw, hi, lo, name)
#define CHK_ID(a, dw, hi, lo, name) CHK_(id_bad_##name##_(L, c->name), name, LIBVIRQ_ERANGE);
#define CHK_VAL(a, dw, hi, lo, name)                                                               \
	CHK_(too_wide_(c->name, LIBVIRQ_FIELD_MAX_(hi, lo)), name, LIBVIRQ_ERANGE);
#define CHK_FLAG(a, dw, hi, lo, name)
/* An address holding PA[hi:lo] in place: bits below lo misaligned, bits above hi too wide. */
#define CHK_ADDR(a, dw, hi, lo, name)                                                              \
	CHK_((c->name & (LIBVIRQ_GENMASK(lo, 0) >> 1)) != 0, name, LIBVIRQ_EALIGN);                \
	CHK_((c->name & ~LIBVIRQ_GENMASK(hi, 0)) != 0, name, LIBVIRQ_ERANGE);
/* The 8-bit priority, whose bits [7:4] the field holds. */
#define CHK_PRIO(a, dw, hi, lo, name)                                                              \
	CHK_((c->name >> (4 + (hi) - (lo) + 1)) != 0, name, LIBVIRQ_ERANGE);                       \
	CHK_((c->name & 0xFu) != 0, name, LIBVIRQ_EALIGN);
#define CHK_FIELD_(a, dw, hi, lo, name) LIBVIRQ_ITS_BY_KIND_(CHK_, a, dw, hi, lo, name)

/*
 * WORD_(cmd, n): doubleword @n of command @cmd, each field's value shifted
 * into place (checked before), as one expression: written straight into
 * the store, gcc keeps the words in general registers (and merges loads of
 * adjacent members) instead of pairing them through vector registers.
 */
#define PUT_OP(a, dw, hi, lo, name) | ((dw) == (a) ? (uint64_t)c->opcode : (uint64_t)0)
#define PUT_ID(a, dw, hi, lo, name) | ((dw) == (a) ? (uint64_t)c->name << (lo) : (uint64_t)0)
#define PUT_VAL(a, dw, hi, lo, name) | ((dw) == (a) ? (uint64_t)c->name << (lo) : (uint64_t)0)
#define PUT_FLAG(a, dw, hi, lo, name) | ((dw) == (a) ? (uint64_t)c->name << (lo) : (uint64_t)0)
#define PUT_ADDR(a, dw, hi, lo, name) | ((dw) == (a) ? c->name : (uint64_t)0)
#define PUT_PRIO(a, dw, hi, lo, name)                                                              \
	| ((dw) == (a) ? (uint64_t)(c->name >> 4) << (lo) : (uint64_t)0)
#define PUT_FIELD_(a, dw, hi, lo, name) LIBVIRQ_ITS_BY_KIND_(PUT_, a, dw, hi, lo, name)
#define WORD_(cmd, n) ((uint64_t)0 LIBVIRQ_ITS_FIELDS_OF_(cmd, PUT_FIELD_, n))

/* dec_<CMD>_(): each field read back into its member's unit. */
#define DEC_OP(w, dw, hi, lo, name)
#define DEC_ID(w, dw, hi, lo, name) c->name = (uint32_t)LIBVIRQ_FIELD_GET_(hi, lo, (w)[dw]);
#define DEC_VAL(w, dw, hi, lo, name) c->name = (uint32_t)LIBVIRQ_FIELD_GET_(hi, lo, (w)[dw]);
#define DEC_FLAG(w, dw, hi, lo, name) c->name = LIBVIRQ_FIELD_GET_(hi, lo, (w)[dw]) != 0;
#define DEC_ADDR(w, dw, hi, lo, name) c->name = (w)[dw] & LIBVIRQ_GENMASK(hi, lo);
#define DEC_PRIO(w, dw, hi, lo, name) c->name = (uint32_t)LIBVIRQ_FIELD_GET_(hi, lo, (w)[dw]) << 4;
#define DEC_FIELD_(w, dw, hi, lo, name) LIBVIRQ_ITS_BY_KIND_(DEC_, w, dw, hi, lo, name)

#define GEN_CMD_(cmd)                                                                              \
	static inline virq_status chk_##cmd##_(const struct virq_its_cmd *c,                       \
					       const struct virq_its_limits *L,                    \
					       enum virq_its_field *bad)                           \
	{                                                                                          \
		(void)L; /* SYNC and MOVALL have no ID field */                                    \
		LIBVIRQ_ITS_FIELDS_OF_(cmd, CHK_FIELD_, 0)                                         \
		return LIBVIRQ_OK;                                                                 \
	}                                                                                          \
	static inline virq_status put_##cmd##_(const struct virq_its_cmd *c, uint8_t *out)         \
	{                                                                                          \
		st_le64_(out + 24, WORD_(cmd, 3));                                                 \
		st_le64_(out + 16, WORD_(cmd, 2));                                                 \
		st_le64_(out + 8, WORD_(cmd, 1));                                                  \
		st_le64_(out, WORD_(cmd, 0));                                                      \
		return LIBVIRQ_OK;                                                                 \
	}                                                                                          \
	static void dec_##cmd##_(struct virq_its_cmd *c, const uint64_t w[4])                      \
	{                                                                                          \
		LIBVIRQ_ITS_FIELDS_OF_(cmd, DEC_FIELD_, w)                                         \
	}
LIBVIRQ_ITS_COMMANDS_(GEN_CMD_)

/* ---- the value rules and the synchronisation, per command ---- */

/* A doorbell: 1023 ("none") or an LPI. */
static inline bool db_bad_(uint32_t db)
{
	return db != LIBVIRQ_ITS_NO_DOORBELL && db < LIBVIRQ_ITS_LPI_BASE;
}

/*
 * GICv4.1 Default_Doorbell: RES0 (0) on 4.0; on 4.1, 1023 or an LPI when it
 * is used (VMAPP with V = 1, VMOVP with DB = 1), else also 0 (a 4.1
 * unmap leaves it 0, like Linux). Without limits: 0, 1023 or an LPI.
 */
static inline bool defdb_bad_(const struct virq_its_limits *lim, uint32_t db, bool used)
{
	if (lim && lim->version != LIBVIRQ_ITS_V41)
		return db != 0;
	if (lim && used)
		return db_bad_(db);
	return db != 0 && db_bad_(db);
}

static inline bool v41_only_(const struct virq_its_limits *lim)
{
	return lim && lim->version != LIBVIRQ_ITS_V41;
}

/* RDbase with GITS_TYPER.PTA = 0: a processor number < nr_procs (or < 2^16). */
static inline bool rd_proc_bad_(const struct virq_its_limits *lim, uint64_t rd)
{
	if (!lim || lim->pta)
		return false;
	rd >>= 16;
	return lim->nr_procs ? rd >= lim->nr_procs : rd > 0xFFFF;
}

static inline void sync_none_(struct virq_its_sync *s)
{
	if (s) {
		s->kind = LIBVIRQ_ITS_SYNC_NONE;
		s->src_kind = LIBVIRQ_ITS_SYNC_NONE;
	}
}

static inline void sync_icid_(struct virq_its_sync *s, uint32_t icid)
{
	if (s) {
		s->kind = LIBVIRQ_ITS_SYNC_ICID;
		s->ICID = icid;
		s->src_kind = LIBVIRQ_ITS_SYNC_NONE;
	}
}

static inline void sync_rd_(struct virq_its_sync *s, uint64_t rd)
{
	if (s) {
		s->kind = LIBVIRQ_ITS_SYNC_RDBASE;
		s->RDbase = rd;
		s->src_kind = LIBVIRQ_ITS_SYNC_NONE;
	}
}

static inline void vsync_(struct virq_its_sync *s, uint32_t vpe)
{
	if (s) {
		s->kind = LIBVIRQ_ITS_SYNC_VPEID;
		s->vPEID = vpe;
		s->src_kind = LIBVIRQ_ITS_SYNC_NONE;
	}
}

/* The event's own mapping decides (INT, CLEAR, INV, DISCARD). */
static inline void sync_event_(struct virq_its_sync *s, uint32_t dev, uint32_t ev)
{
	if (s) {
		s->kind = LIBVIRQ_ITS_SYNC_EVENT;
		s->DeviceID = dev;
		s->EventID = ev;
		s->src_kind = LIBVIRQ_ITS_SYNC_NONE;
	}
}

/* A move's source: the event's mapping before the command (MOVI, VMOVI). */
static inline void src_event_(struct virq_its_sync *s, uint32_t dev, uint32_t ev)
{
	if (s) {
		s->src_kind = LIBVIRQ_ITS_SYNC_EVENT;
		s->DeviceID = dev;
		s->EventID = ev;
	}
}

/*
 * Each per-command encoder is a function of its own, called with the same
 * arguments as the others: the dispatch below is then one indirect jump.
 * GCC would clone them with reordered arguments (IPA-SRA), costing register
 * moves in the dispatch on every command; noipa (GCC 8) keeps them whole.
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define ENC_FN_ __attribute__((__noipa__))
#else
#define ENC_FN_ LIBVIRQ_NOINLINE_
#endif

/*
 * Every per-command encoder validates first, then writes the four words
 * (so a rejected command writes nothing) and the sync (when @s is not NULL).
 * @lim is the caller's limits or NULL; @L is never NULL (nolim_ stands in).
 */
#define ENC_ARGS_                                                                                  \
	const struct virq_its_cmd *c, const struct virq_its_limits *lim, uint8_t *out,             \
	    struct virq_its_sync *s, enum virq_its_field *bad, const struct virq_its_limits *L
#define FIELDS_OK_(cmd)                                                                            \
	do {                                                                                       \
		virq_status fst_ = chk_##cmd##_(c, L, bad);                                        \
		if (UNLIKELY_(fst_ != LIBVIRQ_OK))                                                 \
			return fst_;                                                               \
	} while (0)
/* The virtual commands need a GICv4 ITS. */
#define VIRTUAL_OK_() CHK_(lim && lim->version == LIBVIRQ_ITS_V3, opcode, LIBVIRQ_ENOTSUP)

static ENC_FN_ virq_status enc_MOVI_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(MOVI);
	sync_icid_(s, c->ICID);
	src_event_(s, c->DeviceID, c->EventID); /* and the collection it leaves */
	return put_MOVI_(c, out);
}

static ENC_FN_ virq_status enc_INT_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(INT);
	sync_event_(s, c->DeviceID, c->EventID);
	return put_INT_(c, out);
}

static ENC_FN_ virq_status enc_CLEAR_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(CLEAR);
	sync_event_(s, c->DeviceID, c->EventID);
	return put_CLEAR_(c, out);
}

static ENC_FN_ virq_status enc_SYNC_(ENC_ARGS_)
{
	FIELDS_OK_(SYNC);
	CHK_(rd_proc_bad_(lim, c->RDbase), RDbase, LIBVIRQ_ERANGE);
	sync_none_(s);
	return put_SYNC_(c, out);
}

static ENC_FN_ virq_status enc_MAPD_(ENC_ARGS_)
{
	FIELDS_OK_(MAPD);
	CHK_(lim && c->Size >= lim->eventid_bits, Size, LIBVIRQ_ERANGE);
	sync_none_(s); /* MAPD needs no SYNC (Linux its_build_mapd_cmd) */
	return put_MAPD_(c, out);
}

static ENC_FN_ virq_status enc_MAPC_(ENC_ARGS_)
{
	FIELDS_OK_(MAPC);
	/* With V = 0 the ITS ignores RDbase (docs/rationale.md#gic-its-bounds):
	 * only width and alignment apply. */
	CHK_(c->V && rd_proc_bad_(lim, c->RDbase), RDbase, LIBVIRQ_ERANGE);
	sync_rd_(s, c->RDbase);
	return put_MAPC_(c, out);
}

/* The generic MAPTI; the hot path is enc_mapti_fast_() below. */
static ENC_FN_ virq_status enc_MAPTI_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(MAPTI);
	CHK_(c->pINTID < LIBVIRQ_ITS_LPI_BASE, pINTID, LIBVIRQ_ERANGE);
	sync_icid_(s, c->ICID);
	return put_MAPTI_(c, out);
}

static ENC_FN_ virq_status enc_MAPI_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(MAPI);
	sync_icid_(s, c->ICID);
	return put_MAPI_(c, out);
}

static ENC_FN_ virq_status enc_INV_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(INV);
	sync_event_(s, c->DeviceID, c->EventID);
	return put_INV_(c, out);
}

static ENC_FN_ virq_status enc_INVALL_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(INVALL);
	sync_icid_(s, c->ICID);
	return put_INVALL_(c, out);
}

static ENC_FN_ virq_status enc_MOVALL_(ENC_ARGS_)
{
	FIELDS_OK_(MOVALL);
	CHK_(rd_proc_bad_(lim, c->RDbase1), RDbase1, LIBVIRQ_ERANGE);
	CHK_(rd_proc_bad_(lim, c->RDbase2), RDbase2, LIBVIRQ_ERANGE);
	/* Both ends, like MOVI (Linux never sends MOVALL). */
	sync_rd_(s, c->RDbase2);
	if (s) {
		s->src_kind = LIBVIRQ_ITS_SYNC_RDBASE;
		s->src_RDbase = c->RDbase1;
	}
	return put_MOVALL_(c, out);
}

static ENC_FN_ virq_status enc_DISCARD_(ENC_ARGS_)
{
	(void)lim; /* only the ID limits, through L */
	FIELDS_OK_(DISCARD);
	sync_event_(s, c->DeviceID, c->EventID);
	return put_DISCARD_(c, out);
}

static ENC_FN_ virq_status enc_VMOVI_(ENC_ARGS_)
{
	VIRTUAL_OK_();
	FIELDS_OK_(VMOVI);
	CHK_(c->D && db_bad_(c->Dbell_pINTID), Dbell_pINTID, LIBVIRQ_ERANGE);
	vsync_(s, c->vPEID);
	src_event_(s, c->DeviceID, c->EventID); /* and the vPE it leaves */
	return put_VMOVI_(c, out);
}

static ENC_FN_ virq_status enc_VMOVP_(ENC_ARGS_)
{
	VIRTUAL_OK_();
	FIELDS_OK_(VMOVP);
	/* SequenceNumber and ITSList exist only with GITS_TYPER.VMOVP = 0
	 * (IHI 0069H §5.3 VMOVP, §12.19 GITS_TYPER). */
	CHK_(lim && lim->vmovp && c->SequenceNumber, SequenceNumber, LIBVIRQ_ERANGE);
	CHK_(lim && lim->vmovp && c->ITSList, ITSList, LIBVIRQ_ERANGE);
	CHK_(rd_proc_bad_(lim, c->RDbase), RDbase, LIBVIRQ_ERANGE);
	CHK_(v41_only_(lim) && c->DB, DB, LIBVIRQ_ERANGE);
	CHK_(defdb_bad_(lim, c->Default_Doorbell, c->DB), Default_Doorbell, LIBVIRQ_ERANGE);
	vsync_(s, c->vPEID);
	return put_VMOVP_(c, out);
}

static ENC_FN_ virq_status enc_VSGI_(ENC_ARGS_)
{
	CHK_(lim && (lim->version != LIBVIRQ_ITS_V41 || !lim->vsgi), opcode, LIBVIRQ_ENOTSUP);
	FIELDS_OK_(VSGI);
	vsync_(s, c->vPEID);
	return put_VSGI_(c, out);
}

static ENC_FN_ virq_status enc_VSYNC_(ENC_ARGS_)
{
	VIRTUAL_OK_();
	FIELDS_OK_(VSYNC);
	sync_none_(s);
	return put_VSYNC_(c, out);
}

static ENC_FN_ virq_status enc_VMAPP_(ENC_ARGS_)
{
	bool v41;

	VIRTUAL_OK_();
	FIELDS_OK_(VMAPP);
	CHK_(c->V && rd_proc_bad_(lim, c->RDbase), RDbase, LIBVIRQ_ERANGE);
	CHK_(c->VPT_size > 31, VPT_size, LIBVIRQ_ERANGE); /* vINTIDs have at most 32 bits */
	CHK_(v41_only_(lim) && c->Alloc, Alloc, LIBVIRQ_ERANGE);
	CHK_(v41_only_(lim) && c->PTZ, PTZ, LIBVIRQ_ERANGE);
	CHK_(v41_only_(lim) && c->VCONF_addr, VCONF_addr, LIBVIRQ_ERANGE);
	CHK_(defdb_bad_(lim, c->Default_Doorbell, c->V), Default_Doorbell, LIBVIRQ_ERANGE);
	if (lim)
		v41 = lim->version == LIBVIRQ_ITS_V41;
	else
		v41 = c->Alloc || c->PTZ || c->VCONF_addr || c->Default_Doorbell;
	/* GICv4.1: a VMAPP with V = 0 is self-synchronising (IHI 0069H §5.3.19;
	 * docs/rationale.md#gic-vmapp-unmap-no-vsync). */
	if (c->V || !v41)
		vsync_(s, c->vPEID);
	else
		sync_none_(s);
	return put_VMAPP_(c, out);
}

static ENC_FN_ virq_status enc_VMAPTI_(ENC_ARGS_)
{
	VIRTUAL_OK_();
	FIELDS_OK_(VMAPTI);
	CHK_(c->vINTID < LIBVIRQ_ITS_LPI_BASE, vINTID, LIBVIRQ_ERANGE);
	CHK_(db_bad_(c->Dbell_pINTID), Dbell_pINTID, LIBVIRQ_ERANGE);
	vsync_(s, c->vPEID);
	return put_VMAPTI_(c, out);
}

static ENC_FN_ virq_status enc_VMAPI_(ENC_ARGS_)
{
	VIRTUAL_OK_();
	FIELDS_OK_(VMAPI);
	CHK_(db_bad_(c->Dbell_pINTID), Dbell_pINTID, LIBVIRQ_ERANGE);
	vsync_(s, c->vPEID);
	return put_VMAPI_(c, out);
}

static ENC_FN_ virq_status enc_VINVALL_(ENC_ARGS_)
{
	VIRTUAL_OK_();
	FIELDS_OK_(VINVALL);
	vsync_(s, c->vPEID);
	return put_VINVALL_(c, out);
}

static ENC_FN_ virq_status enc_INVDB_(ENC_ARGS_)
{
	CHK_(v41_only_(lim), opcode, LIBVIRQ_ENOTSUP);
	FIELDS_OK_(INVDB);
	vsync_(s, c->vPEID);
	return put_INVDB_(c, out);
}

/* ---- dispatch ---- */

/* Every command through its encoder (NULL checks included). */
#define ENC_CASE_(cmd)                                                                             \
	case LIBVIRQ_ITS_##cmd:                                                                    \
		return enc_##cmd##_(c, lim, out, sync, bad, L);
static ENC_FN_ virq_status enc_generic_(const struct virq_its_cmd *c,
					const struct virq_its_limits *lim, uint8_t *out,
					struct virq_its_sync *sync, enum virq_its_field *bad)
{
	const struct virq_its_limits *L = lim ? lim : &nolim_;

	if (UNLIKELY_(!c || !out))
		return fail_(bad, LIBVIRQ_ITS_F_NONE, LIBVIRQ_EINVAL);
	switch (c->opcode) {
		LIBVIRQ_ITS_COMMANDS_(ENC_CASE_)
	default:
		break;
	}
	return fail_(bad, LIBVIRQ_ITS_F_opcode, LIBVIRQ_EUNKNOWN);
}

/*
 * MAPTI with a fresh limits cache: every ID check is one comparison against
 * a precomputed maximum (no wider than the field, see max32_ / max16_), the
 * words those of the MAPTI table. Anything out of range goes to the generic
 * path, which checks again in order and names the field.
 */
static LIBVIRQ_ALWAYS_INLINE_ virq_status enc_mapti_fast_(const struct virq_its_cmd *c,
							  const struct virq_its_limits *lim,
							  uint8_t *out, struct virq_its_sync *s,
							  enum virq_its_field *bad)
{
	const struct virq_its_limits_cache *k = &lim->cache;

	if (UNLIKELY_(c->DeviceID > k->max_DeviceID || c->EventID > k->max_EventID ||
		      c->pINTID < LIBVIRQ_ITS_LPI_BASE || c->ICID > k->max_ICID))
		return enc_generic_(c, lim, out, s, bad);
	sync_icid_(s, c->ICID);
	return put_MAPTI_(c, out);
}

virq_status virq_its_cmd_encode(const struct virq_its_cmd *c, const struct virq_its_limits *lim,
				uint8_t out[LIBVIRQ_ITS_CMD_SIZE], struct virq_its_sync *sync,
				enum virq_its_field *bad)
{
	/* The device-setup hot path (MAPTI with prepared limits) inline; the rest via the switch.
	 */
	if (c && c->opcode == LIBVIRQ_ITS_MAPTI) {
		if (out && lim && cache_fresh_icid_(lim))
			return enc_mapti_fast_(c, lim, out, sync, bad);
	}
	return enc_generic_(c, lim, out, sync, bad);
}

/* ---- runs written in place (enc/its_fill.h) ---- */

/* words_<CMD>_(): the four words of a command of a run, to be stepped. */
#define GEN_WORDS_(cmd)                                                                            \
	static inline void words_##cmd##_(const struct virq_its_cmd *c, uint64_t w[4])             \
	{                                                                                          \
		w[0] = WORD_(cmd, 0);                                                              \
		w[1] = WORD_(cmd, 1);                                                              \
		w[2] = WORD_(cmd, 2);                                                              \
		w[3] = WORD_(cmd, 3);                                                              \
	}
GEN_WORDS_(VMAPTI)
GEN_WORDS_(DISCARD)

/* The runs step EventID (and vINTID) by adding 1 << lo to their doubleword. */
LIBVIRQ_STATIC_ASSERT_(ITS_HI_VMAPTI_EventID_ - ITS_LO_VMAPTI_EventID_ == 31 &&
			   ITS_HI_VMAPTI_vINTID_ - ITS_LO_VMAPTI_vINTID_ == 31 &&
			   ITS_HI_DISCARD_EventID_ - ITS_LO_DISCARD_EventID_ == 31,
		       "the runs step 32-bit fields");

void virq_its_vmapti_fill_(uint8_t *out, uint32_t n, uint32_t dev, uint32_t ev0, uint32_t vpeid,
			   uint32_t vint0, uint32_t db)
{
	const struct virq_its_cmd c = virq_its_vmapti(dev, ev0, vpeid, vint0, db);
	uint64_t w[4];

	words_VMAPTI_(&c, w);
	/* ev0 + n - 1 and vint0 + n - 1 were validated: no carry out of the
	 * EventID and vINTID fields. */
	for (uint32_t i = 0; i < n; i++, out += LIBVIRQ_ITS_CMD_SIZE) {
		(void)emit_(out, w);
		w[ITS_DW_VMAPTI_EventID_] += (uint64_t)1 << ITS_LO_VMAPTI_EventID_;
		w[ITS_DW_VMAPTI_vINTID_] += (uint64_t)1 << ITS_LO_VMAPTI_vINTID_;
	}
}

void virq_its_discard_fill_(uint8_t *out, uint32_t n, uint32_t dev, uint32_t ev0)
{
	const struct virq_its_cmd c = virq_its_discard(dev, ev0);
	uint64_t w[4];

	words_DISCARD_(&c, w);
	for (uint32_t i = 0; i < n; i++, out += LIBVIRQ_ITS_CMD_SIZE) {
		(void)emit_(out, w);
		w[ITS_DW_DISCARD_EventID_] += (uint64_t)1 << ITS_LO_DISCARD_EventID_;
	}
}

/* ---- decoder and RES0 ---- */

#define DEC_CASE_(cmd)                                                                             \
	case LIBVIRQ_ITS_##cmd:                                                                    \
		dec_##cmd##_(c, dw);                                                               \
		return LIBVIRQ_OK;
virq_status virq_its_cmd_decode(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE], struct virq_its_cmd *c)
{
	uint64_t dw[4];

	if (!in || !c)
		return LIBVIRQ_EINVAL;
	virq_its_cmd_to_words(in, dw);
	memset(c, 0, sizeof(*c));
	c->opcode = (enum virq_its_opcode)LIBVIRQ_FIELD_GET_(7, 0, dw[0]); /* TABLE_OK_ */
	switch (c->opcode) {
		LIBVIRQ_ITS_COMMANDS_(DEC_CASE_)
	default:
		break;
	}
	return LIBVIRQ_EUNKNOWN;
}

#define RES0_CASE_(cmd)                                                                            \
	case LIBVIRQ_ITS_##cmd:                                                                    \
		return dw == 0	 ? LIBVIRQ_ITS_RES0_(cmd, 0)                                       \
		       : dw == 1 ? LIBVIRQ_ITS_RES0_(cmd, 1)                                       \
		       : dw == 2 ? LIBVIRQ_ITS_RES0_(cmd, 2)                                       \
				 : LIBVIRQ_ITS_RES0_(cmd, 3);
uint64_t virq_its_cmd_res0_mask(enum virq_its_opcode op, unsigned dw)
{
	if (dw > 3)
		return 0;
	switch (op) {
		LIBVIRQ_ITS_COMMANDS_(RES0_CASE_)
	default:
		break;
	}
	return 0;
}

virq_status virq_its_cmd_res0(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE], uint64_t set[4])
{
	uint64_t dw[4];
	enum virq_its_opcode op;

	if (!in || !set)
		return LIBVIRQ_EINVAL;
	virq_its_cmd_to_words(in, dw);
	op = (enum virq_its_opcode)LIBVIRQ_FIELD_GET_(7, 0, dw[0]);
	if (!virq_its_opcode_name(op))
		return LIBVIRQ_EUNKNOWN;
	for (unsigned i = 0; i < 4; i++)
		set[i] = dw[i] & virq_its_cmd_res0_mask(op, i);
	return LIBVIRQ_OK;
}

/* ---- field lists ---- */

#define LAY_(a, dw, hi, lo, name) {LIBVIRQ_ITS_F_##name, (dw), (hi), (lo)},
#define LAY_ARRAY_(cmd)                                                                            \
	static const struct virq_its_field_pos lay_##cmd##_[] = {                                  \
	    LIBVIRQ_ITS_FIELDS_OF_(cmd, LAY_, 0)};
LIBVIRQ_ITS_COMMANDS_(LAY_ARRAY_)

#define LAY_CASE_(cmd)                                                                             \
	case LIBVIRQ_ITS_##cmd:                                                                    \
		*n = NELEM_(lay_##cmd##_);                                                         \
		return lay_##cmd##_;
const struct virq_its_field_pos *virq_its_cmd_layout(enum virq_its_opcode op, size_t *n)
{
	size_t none;

	if (!n)
		n = &none;
	switch (op) {
		LIBVIRQ_ITS_COMMANDS_(LAY_CASE_)
	default:
		break;
	}
	*n = 0;
	return NULL;
}

#define FBIT_(a, dw, hi, lo, name) | ((uint64_t)1 << LIBVIRQ_ITS_F_##name)
#define FIELDS_CASE_(cmd)                                                                          \
	case LIBVIRQ_ITS_##cmd:                                                                    \
		return (0 LIBVIRQ_ITS_FIELDS_OF_(cmd, FBIT_, 0)) &                                 \
		       ~((uint64_t)1 << LIBVIRQ_ITS_F_opcode);
uint64_t virq_its_cmd_fields(enum virq_its_opcode op)
{
	switch (op) {
		LIBVIRQ_ITS_COMMANDS_(FIELDS_CASE_)
	default:
		break;
	}
	return 0;
}

#define NAME_CASE_(cmd)                                                                            \
	case LIBVIRQ_ITS_##cmd:                                                                    \
		return #cmd;
const char *virq_its_opcode_name(enum virq_its_opcode op)
{
	switch (op) {
		LIBVIRQ_ITS_COMMANDS_(NAME_CASE_)
	default:
		break;
	}
	return NULL;
}

#define FIELD_NAME_(n) [LIBVIRQ_ITS_F_##n] = #n,
const char *virq_its_field_name(enum virq_its_field f)
{
	static const char *const names[LIBVIRQ_ITS_F_COUNT] = {
	    [LIBVIRQ_ITS_F_NONE] = "none", LIBVIRQ_ITS_FIELD_NAMES_(FIELD_NAME_)};

	if ((unsigned)f >= LIBVIRQ_ITS_F_COUNT)
		return "?";
	return names[f];
}

/* ---- generic field access ---- */

/* The member of field @f, by the unit its kind gives it (one pointer set). */
struct member_ {
	uint32_t *u32;
	uint64_t *u64;
	bool *b;
};

#define MEMBER_OP(n) /* the opcode is not a plain member: the callers handle it */
#define MEMBER_ID(n) m.u32 = &c->n;
#define MEMBER_VAL(n) m.u32 = &c->n;
#define MEMBER_PRIO(n) m.u32 = &c->n;
#define MEMBER_ADDR(n) m.u64 = &c->n;
#define MEMBER_FLAG(n) m.b = &c->n;
#define MEMBER_CASE_(n)                                                                            \
	case LIBVIRQ_ITS_F_##n:                                                                    \
		LIBVIRQ_ITS_CAT_(MEMBER_, LIBVIRQ_ITS_KIND_##n##_)(n) break;
static struct member_ member_(struct virq_its_cmd *c, enum virq_its_field f)
{
	struct member_ m = {NULL, NULL, NULL};

	switch ((unsigned)f) {
		LIBVIRQ_ITS_FIELD_NAMES_(MEMBER_CASE_)
	default:
		break;
	}
	return m;
}

uint64_t virq_its_cmd_get(const struct virq_its_cmd *c, enum virq_its_field f)
{
	struct virq_its_cmd tmp;
	struct member_ m;

	if (!c)
		return 0;
	if (f == LIBVIRQ_ITS_F_opcode)
		return (uint64_t)c->opcode;
	/* Look the member up on a copy: the lookup takes a mutable struct. */
	tmp = *c;
	m = member_(&tmp, f);
	if (m.u32)
		return *m.u32;
	if (m.u64)
		return *m.u64;
	if (m.b)
		return *m.b;
	return 0;
}

virq_status virq_its_cmd_set(struct virq_its_cmd *c, enum virq_its_field f, uint64_t v)
{
	struct member_ m;

	if (!c)
		return LIBVIRQ_EINVAL;
	if (f == LIBVIRQ_ITS_F_opcode) {
		if (v > 0xFF)
			return LIBVIRQ_ERANGE;
		c->opcode = (enum virq_its_opcode)v;
		return LIBVIRQ_OK;
	}
	m = member_(c, f);
	if (m.u32) {
		if (v > UINT32_MAX)
			return LIBVIRQ_ERANGE;
		*m.u32 = (uint32_t)v;
		return LIBVIRQ_OK;
	}
	if (m.u64) {
		*m.u64 = v;
		return LIBVIRQ_OK;
	}
	if (m.b) {
		if (v > 1)
			return LIBVIRQ_ERANGE;
		*m.b = v != 0;
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_EINVAL;
}
