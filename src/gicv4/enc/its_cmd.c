/* SPDX-License-Identifier: MIT */
/*
 * ITS command encoders and decoders: pure functions, no I/O, no state.
 *
 * Layouts: Arm IHI 0069H §5.3 (ITS commands);
 * synchronisation rules docs/rationale.md#gic-its-command-sync (Linux's
 * command builders) and docs/rationale.md#gic-vmapp-unmap-no-vsync (GICv4.1
 * VMAPP unmap is self-synchronising, IHI 0069H §5.3.19).
 */
#include <libvirq/gicv4/its_cmd.h>
#include <libvirq/gicv4/its_regs.h>
#include <libvirq/bitfield.h>

#include "its_cmd_fields.h"
#include "its_fill.h"
#include "../../common/compiler.h"

#define FBIT_(f) ((uint64_t)1 << LIBVIRQ_ITS_F_##f)

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
		lim->icid_bits = 16;
	lim->vpeid_bits = 16;
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

/* ---- validation helpers: each returns the status, the caller names the field ---- */
#define UNLIKELY_(x) __builtin_expect(!!(x), 0)

/*
 * Largest ID for a probed bit width (index: the width, 0..255), by table
 * lookup so that the encoder's hot path has no variable shift. Widths of
 * 32 or more allow any 32-bit value. max16_ also caps at the 16-bit field
 * width (ICID, vPEID), so one comparison checks both.
 */
/* clang-format off */
static const uint32_t max32_[256] = {
	0x0, 0x1, 0x3, 0x7, 0xf, 0x1f, 0x3f, 0x7f,
	0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff, 0x1fff, 0x3fff, 0x7fff,
	0xffff, 0x1ffff, 0x3ffff, 0x7ffff, 0xfffff, 0x1fffff, 0x3fffff, 0x7fffff,
	0xffffff, 0x1ffffff, 0x3ffffff, 0x7ffffff, 0xfffffff, 0x1fffffff, 0x3fffffff, 0x7fffffff,
	[32 ... 255] = 0xffffffff,
};
static const uint32_t max16_[256] = {
	0x0, 0x1, 0x3, 0x7, 0xf, 0x1f, 0x3f, 0x7f,
	0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff, 0x1fff, 0x3fff, 0x7fff,
	[16 ... 255] = 0xffff,
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
    .devid_bits = 32,
    .eventid_bits = 32,
    .icid_bits = 16,
    .vpeid_bits = 16,
};

/* ID checks against @L, which is never NULL (nolim_ stands in). */
static inline bool dev_bad_(const struct virq_its_limits *L, uint32_t dev)
{
	return dev > max32_[L->devid_bits];
}

static inline bool ev_bad_(const struct virq_its_limits *L, uint32_t ev)
{
	return ev > max32_[L->eventid_bits];
}

/* count - 1 < id  <=>  id >= count, for count >= 1; count == 0 never limits. */
static inline bool icid_bad_(const struct virq_its_limits *L, uint32_t icid)
{
	return icid > max16_[L->icid_bits] || L->nr_icids - 1u < icid;
}

static inline bool vpe_bad_(const struct virq_its_limits *L, uint32_t vpe)
{
	return vpe > max16_[L->vpeid_bits] || L->nr_vpeids - 1u < vpe;
}

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

/*
 * An address field holding PA[hi:lo] in place: EALIGN for low bits, ERANGE
 * above bit 51. Returns LIBVIRQ_OK or the error.
 */
static inline virq_status addr_chk_(uint64_t a, uint64_t lowmask)
{
	if (UNLIKELY_(a & lowmask))
		return LIBVIRQ_EALIGN;
	if (UNLIKELY_(a >> 52))
		return LIBVIRQ_ERANGE;
	return LIBVIRQ_OK;
}

/* RDbase: 64 KiB granule in [51:16]; with PTA = 0 a processor number. */
static inline virq_status rdbase_chk_(const struct virq_its_limits *lim, uint64_t rd, bool use_lim)
{
	virq_status st = addr_chk_(rd, 0xFFFF);

	if (st != LIBVIRQ_OK || !lim || !use_lim || lim->pta)
		return st;
	rd >>= 16;
	if (lim->nr_procs ? rd >= lim->nr_procs : rd > 0xFFFF)
		return LIBVIRQ_ERANGE;
	return LIBVIRQ_OK;
}

/* Cold path: name the field and return the error. */
static LIBVIRQ_COLD_ virq_status fail_(enum virq_its_field *bad, enum virq_its_field f,
				       virq_status st)
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
#define CHKST_(expr, fld)                                                                          \
	do {                                                                                       \
		virq_status st_ = (expr);                                                          \
		if (UNLIKELY_(st_ != LIBVIRQ_OK))                                                  \
			return fail_(bad, LIBVIRQ_ITS_F_##fld, st_);                               \
	} while (0)

/*
 * Every per-command encoder validates first, then writes the four words
 * (so a rejected command writes nothing) and the sync (when @s is not NULL).
 */
#define UNUSED_OK_ LIBVIRQ_UNUSED_
#define ENC_ARGS_                                                                                  \
	const struct virq_its_cmd *c, const struct virq_its_limits *lim UNUSED_OK_, uint8_t *out,  \
	    struct virq_its_sync *s UNUSED_OK_, enum virq_its_field *bad,                          \
	    const struct virq_its_limits *L UNUSED_OK_
typedef virq_status (*enc_fn_)(ENC_ARGS_);

static inline virq_status emit_(uint8_t *out, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3)
{
	st_le64_(out, w0);
	st_le64_(out + 8, w1);
	st_le64_(out + 16, w2);
	st_le64_(out + 24, w3);
	return LIBVIRQ_OK;
}

static inline uint64_t op_dev_(const struct virq_its_cmd *c)
{
	return (uint64_t)c->opcode | ((uint64_t)c->DeviceID << 32);
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

/* A move's source: the event's mapping before the command (MOVI, VMOVI). */
static inline void src_event_(struct virq_its_sync *s, uint32_t dev, uint32_t ev)
{
	if (s) {
		s->src_kind = LIBVIRQ_ITS_SYNC_EVENT;
		s->DeviceID = dev;
		s->EventID = ev;
	}
}

/* INT, CLEAR, INV, DISCARD: DeviceID, EventID; sync depends on the mapping. */
static LIBVIRQ_CF_CHECK_ virq_status enc_dev_ev_(ENC_ARGS_)
{
	CHK_(dev_bad_(L, c->DeviceID), DeviceID, LIBVIRQ_ERANGE);
	CHK_(ev_bad_(L, c->EventID), EventID, LIBVIRQ_ERANGE);
	if (s) {
		s->kind = LIBVIRQ_ITS_SYNC_EVENT;
		s->DeviceID = c->DeviceID;
		s->EventID = c->EventID;
		s->src_kind = LIBVIRQ_ITS_SYNC_NONE;
	}
	return emit_(out, op_dev_(c), c->EventID, 0, 0);
}

/* MOVI, MAPI: DeviceID, EventID, ICID; SYNC(ICID); MOVI also the source. */
static LIBVIRQ_CF_CHECK_ virq_status enc_dev_ev_icid_(ENC_ARGS_)
{
	CHK_(dev_bad_(L, c->DeviceID), DeviceID, LIBVIRQ_ERANGE);
	CHK_(ev_bad_(L, c->EventID), EventID, LIBVIRQ_ERANGE);
	CHK_(icid_bad_(L, c->ICID), ICID, LIBVIRQ_ERANGE);
	sync_icid_(s, c->ICID);
	if (c->opcode == LIBVIRQ_ITS_MOVI) /* and the collection it leaves */
		src_event_(s, c->DeviceID, c->EventID);
	return emit_(out, op_dev_(c), c->EventID, c->ICID, 0);
}

/* MAPTI: the hot path of device setup. */
static LIBVIRQ_CF_CHECK_ LIBVIRQ_ALWAYS_INLINE_ virq_status enc_mapti_(ENC_ARGS_)
{
	CHK_(dev_bad_(L, c->DeviceID), DeviceID, LIBVIRQ_ERANGE);
	CHK_(ev_bad_(L, c->EventID), EventID, LIBVIRQ_ERANGE);
	CHK_(c->pINTID < LIBVIRQ_ITS_LPI_BASE, pINTID, LIBVIRQ_ERANGE);
	CHK_(icid_bad_(L, c->ICID), ICID, LIBVIRQ_ERANGE);
	sync_icid_(s, c->ICID);
	return emit_(out, op_dev_(c), c->EventID | ((uint64_t)c->pINTID << 32), c->ICID, 0);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_mapd_(ENC_ARGS_)
{
	CHK_(dev_bad_(L, c->DeviceID), DeviceID, LIBVIRQ_ERANGE);
	CHK_(!LIBVIRQ_FIELD_FITS(ITS_DW1_Size, c->Size) || (lim && c->Size >= lim->eventid_bits),
	     Size, LIBVIRQ_ERANGE);
	CHKST_(addr_chk_(c->ITT_addr, 0xFF), ITT_addr);
	sync_none_(s); /* MAPD needs no SYNC (Linux its_build_mapd_cmd) */
	return emit_(out, op_dev_(c), c->Size, c->ITT_addr | ((uint64_t)c->V << 63), 0);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_mapc_(ENC_ARGS_)
{
	CHK_(icid_bad_(L, c->ICID), ICID, LIBVIRQ_ERANGE);
	/* With V = 0 the ITS ignores RDbase (docs/rationale.md#gic-its-bounds): only
	 * width/alignment apply. */
	CHKST_(rdbase_chk_(lim, c->RDbase, c->V), RDbase);
	sync_rd_(s, c->RDbase);
	return emit_(out, c->opcode, 0, c->ICID | c->RDbase | ((uint64_t)c->V << 63), 0);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_sync_(ENC_ARGS_)
{
	CHKST_(rdbase_chk_(lim, c->RDbase, true), RDbase);
	sync_none_(s);
	return emit_(out, c->opcode, 0, c->RDbase, 0);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_invall_(ENC_ARGS_)
{
	CHK_(icid_bad_(L, c->ICID), ICID, LIBVIRQ_ERANGE);
	sync_icid_(s, c->ICID);
	return emit_(out, c->opcode, 0, c->ICID, 0);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_movall_(ENC_ARGS_)
{
	CHKST_(rdbase_chk_(lim, c->RDbase1, true), RDbase1);
	CHKST_(rdbase_chk_(lim, c->RDbase2, true), RDbase2);
	/* Both ends, like MOVI (Linux never sends MOVALL). */
	sync_rd_(s, c->RDbase2);
	if (s) {
		s->src_kind = LIBVIRQ_ITS_SYNC_RDBASE;
		s->src_RDbase = c->RDbase1;
	}
	return emit_(out, c->opcode, 0, c->RDbase1, c->RDbase2);
}

/* Common part of the virtual commands: version and vPEID. */
#define VIRT_CHK_()                                                                                \
	do {                                                                                       \
		CHK_(lim && lim->version == LIBVIRQ_ITS_V3, opcode, LIBVIRQ_ENOTSUP);              \
		CHK_(vpe_bad_(L, c->vPEID), vPEID, LIBVIRQ_ERANGE);                                \
	} while (0)

/* VMAPTI, VMAPI, VMOVI. */
static LIBVIRQ_CF_CHECK_ virq_status enc_vmap_(ENC_ARGS_)
{
	uint64_t d2;

	CHK_(lim && lim->version == LIBVIRQ_ITS_V3, opcode, LIBVIRQ_ENOTSUP);
	CHK_(dev_bad_(L, c->DeviceID), DeviceID, LIBVIRQ_ERANGE);
	CHK_(ev_bad_(L, c->EventID), EventID, LIBVIRQ_ERANGE);
	CHK_(vpe_bad_(L, c->vPEID), vPEID, LIBVIRQ_ERANGE);
	d2 = (uint64_t)c->Dbell_pINTID << 32;
	if (c->opcode == LIBVIRQ_ITS_VMAPTI) {
		CHK_(c->vINTID < LIBVIRQ_ITS_LPI_BASE, vINTID, LIBVIRQ_ERANGE);
		d2 |= c->vINTID;
	}
	if (c->opcode == LIBVIRQ_ITS_VMOVI) {
		d2 |= (uint64_t)c->D;
		CHK_(c->D && db_bad_(c->Dbell_pINTID), Dbell_pINTID, LIBVIRQ_ERANGE);
	} else {
		CHK_(db_bad_(c->Dbell_pINTID), Dbell_pINTID, LIBVIRQ_ERANGE);
	}
	vsync_(s, c->vPEID);
	if (c->opcode == LIBVIRQ_ITS_VMOVI) /* and the vPE it leaves */
		src_event_(s, c->DeviceID, c->EventID);
	return emit_(out, op_dev_(c), c->EventID | ((uint64_t)c->vPEID << 32), d2, 0);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_vmapp_(ENC_ARGS_)
{
	bool v41;

	VIRT_CHK_();
	CHKST_(rdbase_chk_(lim, c->RDbase, c->V), RDbase);
	CHKST_(addr_chk_(c->VPT_addr, 0xFFFF), VPT_addr);
	CHK_(!LIBVIRQ_FIELD_FITS(ITS_DW3_VPT_size, c->VPT_size), VPT_size, LIBVIRQ_ERANGE);
	CHK_(v41_only_(lim) && c->Alloc, Alloc, LIBVIRQ_ERANGE);
	CHK_(v41_only_(lim) && c->PTZ, PTZ, LIBVIRQ_ERANGE);
	CHKST_(addr_chk_(c->VCONF_addr, 0xFFFF), VCONF_addr);
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
	return emit_(out,
		     (uint64_t)c->opcode | ((uint64_t)c->Alloc << 8) | ((uint64_t)c->PTZ << 9) |
			 c->VCONF_addr,
		     c->Default_Doorbell | ((uint64_t)c->vPEID << 32),
		     c->RDbase | ((uint64_t)c->V << 63), c->VPT_addr | c->VPT_size);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_vmovp_(ENC_ARGS_)
{
	VIRT_CHK_();
	/* SequenceNumber and ITSList exist only with GITS_TYPER.VMOVP = 0 (IHI 0069H
	 * §5.3 VMOVP, §12.19 GITS_TYPER). */
	CHK_(!LIBVIRQ_FIELD_FITS(ITS_DW0_SequenceNumber, c->SequenceNumber) ||
		 (lim && lim->vmovp && c->SequenceNumber),
	     SequenceNumber, LIBVIRQ_ERANGE);
	CHK_(!LIBVIRQ_FIELD_FITS(ITS_DW1_ITSList, c->ITSList) || (lim && lim->vmovp && c->ITSList),
	     ITSList, LIBVIRQ_ERANGE);
	CHKST_(rdbase_chk_(lim, c->RDbase, true), RDbase);
	CHK_(v41_only_(lim) && c->DB, DB, LIBVIRQ_ERANGE);
	CHK_(defdb_bad_(lim, c->Default_Doorbell, c->DB), Default_Doorbell, LIBVIRQ_ERANGE);
	vsync_(s, c->vPEID);
	return emit_(out, (uint64_t)c->opcode | ((uint64_t)c->SequenceNumber << 32),
		     c->ITSList | ((uint64_t)c->vPEID << 32), c->RDbase | ((uint64_t)c->DB << 63),
		     c->Default_Doorbell);
}

static LIBVIRQ_CF_CHECK_ virq_status enc_vsgi_(ENC_ARGS_)
{
	CHK_(lim && (lim->version != LIBVIRQ_ITS_V41 || !lim->vsgi), opcode, LIBVIRQ_ENOTSUP);
	VIRT_CHK_();
	CHK_(!LIBVIRQ_FIELD_FITS(ITS_DW0_vINTID, c->vINTID), vINTID, LIBVIRQ_ERANGE);
	CHK_(c->Priority > 0xFF, Priority, LIBVIRQ_ERANGE);
	CHK_(c->Priority & 0xF, Priority, LIBVIRQ_EALIGN);
	vsync_(s, c->vPEID);
	return emit_(out,
		     (uint64_t)c->opcode | ((uint64_t)c->Enable << 8) | ((uint64_t)c->Clear << 9) |
			 ((uint64_t)c->Group << 10) | ((uint64_t)(c->Priority >> 4) << 20) |
			 ((uint64_t)c->vINTID << 32),
		     (uint64_t)c->vPEID << 32, 0, 0);
}

/* VSYNC, VINVALL, INVDB: vPEID only. */
static LIBVIRQ_CF_CHECK_ virq_status enc_vpe_only_(ENC_ARGS_)
{
	CHK_(c->opcode == LIBVIRQ_ITS_INVDB && v41_only_(lim), opcode, LIBVIRQ_ENOTSUP);
	VIRT_CHK_();
	if (c->opcode != LIBVIRQ_ITS_VSYNC)
		vsync_(s, c->vPEID);
	else
		sync_none_(s);
	return emit_(out, c->opcode, (uint64_t)c->vPEID << 32, 0, 0);
}

#define OPS_ 0x30u
static const enc_fn_ enc_tbl_[OPS_] = {
    [LIBVIRQ_ITS_MOVI] = enc_dev_ev_icid_, [LIBVIRQ_ITS_INT] = enc_dev_ev_,
    [LIBVIRQ_ITS_CLEAR] = enc_dev_ev_,	   [LIBVIRQ_ITS_SYNC] = enc_sync_,
    [LIBVIRQ_ITS_MAPD] = enc_mapd_,	   [LIBVIRQ_ITS_MAPC] = enc_mapc_,
    [LIBVIRQ_ITS_MAPTI] = enc_mapti_,	   [LIBVIRQ_ITS_MAPI] = enc_dev_ev_icid_,
    [LIBVIRQ_ITS_INV] = enc_dev_ev_,	   [LIBVIRQ_ITS_INVALL] = enc_invall_,
    [LIBVIRQ_ITS_MOVALL] = enc_movall_,	   [LIBVIRQ_ITS_DISCARD] = enc_dev_ev_,
    [LIBVIRQ_ITS_VMOVI] = enc_vmap_,	   [LIBVIRQ_ITS_VMOVP] = enc_vmovp_,
    [LIBVIRQ_ITS_VSGI] = enc_vsgi_,	   [LIBVIRQ_ITS_VSYNC] = enc_vpe_only_,
    [LIBVIRQ_ITS_VMAPP] = enc_vmapp_,	   [LIBVIRQ_ITS_VMAPTI] = enc_vmap_,
    [LIBVIRQ_ITS_VMAPI] = enc_vmap_,	   [LIBVIRQ_ITS_VINVALL] = enc_vpe_only_,
    [LIBVIRQ_ITS_INVDB] = enc_vpe_only_,
};

/* Every command through the table (NULL checks included). */
static LIBVIRQ_NOINLINE_ virq_status enc_generic_(const struct virq_its_cmd *c,
						  const struct virq_its_limits *lim, uint8_t *out,
						  struct virq_its_sync *sync,
						  enum virq_its_field *bad)
{
	unsigned op;

	if (UNLIKELY_(!c || !out))
		return fail_(bad, LIBVIRQ_ITS_F_NONE, LIBVIRQ_EINVAL);
	op = (unsigned)c->opcode;
	if (UNLIKELY_(op >= OPS_ || !enc_tbl_[op]))
		return fail_(bad, LIBVIRQ_ITS_F_opcode, LIBVIRQ_EUNKNOWN);
	return enc_tbl_[op](c, lim, out, sync, bad, lim ? lim : &nolim_);
}

/*
 * MAPTI with a fresh limits cache: every ID check is one comparison against
 * a precomputed maximum. Anything out of range goes to the generic path,
 * which checks again in order and names the field.
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
	/* Highest word first: keeps gcc from pairing the stores through SSE registers. */
	st_le64_(out + 24, 0);
	st_le64_(out + 16, c->ICID);
	st_le64_(out + 8, c->EventID | ((uint64_t)c->pINTID << 32));
	st_le64_(out, op_dev_(c));
	return LIBVIRQ_OK;
}

virq_status virq_its_cmd_encode(const struct virq_its_cmd *c, const struct virq_its_limits *lim,
				uint8_t out[LIBVIRQ_ITS_CMD_SIZE], struct virq_its_sync *sync,
				enum virq_its_field *bad)
{
	/* The device-setup hot path (MAPTI with prepared limits) inline; the rest via the table. */
	if (c && c->opcode == LIBVIRQ_ITS_MAPTI) {
		if (out && lim && cache_fresh_icid_(lim))
			return enc_mapti_fast_(c, lim, out, sync, bad);
	}
	return enc_generic_(c, lim, out, sync, bad);
}

/* ---- runs written in place (enc/its_fill.h) ---- */
void virq_its_vmapti_fill_(uint8_t *out, uint32_t n, uint32_t dev, uint32_t ev0, uint32_t vpeid,
			   uint32_t vint0, uint32_t db)
{
	const uint64_t w0 = (uint64_t)LIBVIRQ_ITS_VMAPTI | ((uint64_t)dev << 32);
	uint64_t w1 = ev0 | ((uint64_t)vpeid << 32);
	uint64_t w2 = vint0 | ((uint64_t)db << 32);

	/* ev0 + n - 1 and vint0 + n - 1 were validated: no carry into the
	 * vPEID / Dbell_pINTID halves. */
	for (uint32_t i = 0; i < n; i++, out += LIBVIRQ_ITS_CMD_SIZE, w1++, w2++) {
		st_le64_(out + 24, 0);
		st_le64_(out + 16, w2);
		st_le64_(out + 8, w1);
		st_le64_(out, w0);
	}
}

void virq_its_discard_fill_(uint8_t *out, uint32_t n, uint32_t dev, uint32_t ev0)
{
	const uint64_t w0 = (uint64_t)LIBVIRQ_ITS_DISCARD | ((uint64_t)dev << 32);
	uint64_t w1 = ev0;

	for (uint32_t i = 0; i < n; i++, out += LIBVIRQ_ITS_CMD_SIZE, w1++) {
		st_le64_(out + 24, 0);
		st_le64_(out + 16, 0);
		st_le64_(out + 8, w1);
		st_le64_(out, w0);
	}
}

/* ---- decoder ---- */
#define GET32_(f, w) ((uint32_t)LIBVIRQ_FIELD_GET(f, w))
#define GETB_(f, w) (LIBVIRQ_FIELD_GET(f, w) != 0)
#define GETA_(f, w) ((w)&LIBVIRQ_FIELD_MASK(f))

static void dec_dev_ev_(struct virq_its_cmd *c, const uint64_t *dw)
{
	c->DeviceID = GET32_(ITS_DW0_DeviceID, dw[0]);
	c->EventID = GET32_(ITS_DW1_EventID, dw[1]);
}

static void dec_virtual_(struct virq_its_cmd *c, const uint64_t *dw)
{
	c->vPEID = GET32_(ITS_DW1_vPEID, dw[1]);
	switch (c->opcode) {
	case LIBVIRQ_ITS_VMAPTI:
		c->vINTID = GET32_(ITS_DW2_vINTID, dw[2]);
		LIBVIRQ_FALLTHROUGH_;
	case LIBVIRQ_ITS_VMAPI:
		dec_dev_ev_(c, dw);
		c->Dbell_pINTID = GET32_(ITS_DW2_Dbell_pINTID, dw[2]);
		break;
	case LIBVIRQ_ITS_VMOVI:
		dec_dev_ev_(c, dw);
		c->D = GETB_(ITS_DW2_D, dw[2]);
		c->Dbell_pINTID = GET32_(ITS_DW2_Dbell_pINTID, dw[2]);
		break;
	case LIBVIRQ_ITS_VMAPP:
		c->Alloc = GETB_(ITS_DW0_Alloc, dw[0]);
		c->PTZ = GETB_(ITS_DW0_PTZ, dw[0]);
		c->VCONF_addr = GETA_(ITS_DW0_VCONF_addr, dw[0]);
		c->Default_Doorbell = GET32_(ITS_DW1_Default_Doorbell, dw[1]);
		c->RDbase = GETA_(ITS_DW2_RDbase, dw[2]);
		c->V = GETB_(ITS_DW2_V, dw[2]);
		c->VPT_addr = GETA_(ITS_DW3_VPT_addr, dw[3]);
		c->VPT_size = GET32_(ITS_DW3_VPT_size, dw[3]);
		break;
	case LIBVIRQ_ITS_VMOVP:
		c->SequenceNumber = GET32_(ITS_DW0_SequenceNumber, dw[0]);
		c->ITSList = GET32_(ITS_DW1_ITSList, dw[1]);
		c->RDbase = GETA_(ITS_DW2_RDbase, dw[2]);
		c->DB = GETB_(ITS_DW2_DB, dw[2]);
		c->Default_Doorbell = GET32_(ITS_DW3_Default_Doorbell, dw[3]);
		break;
	case LIBVIRQ_ITS_VSGI:
		c->Enable = GETB_(ITS_DW0_Enable, dw[0]);
		c->Clear = GETB_(ITS_DW0_Clear, dw[0]);
		c->Group = GETB_(ITS_DW0_Group, dw[0]);
		c->Priority = GET32_(ITS_DW0_Priority, dw[0]) << 4;
		c->vINTID = GET32_(ITS_DW0_vINTID, dw[0]);
		break;
	default: /* VSYNC, VINVALL, INVDB: vPEID only */
		break;
	}
}

virq_status virq_its_cmd_decode(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE], struct virq_its_cmd *c)
{
	uint64_t dw[4];

	if (!in || !c)
		return LIBVIRQ_EINVAL;
	virq_its_cmd_to_words(in, dw);
	memset(c, 0, sizeof(*c));
	c->opcode = (enum virq_its_opcode)LIBVIRQ_FIELD_GET(ITS_DW0_opcode, dw[0]);
	if (!virq_its_cmd_fields(c->opcode))
		return LIBVIRQ_EUNKNOWN;
	switch (c->opcode) {
	case LIBVIRQ_ITS_MAPTI:
		c->pINTID = GET32_(ITS_DW1_pINTID, dw[1]);
		LIBVIRQ_FALLTHROUGH_;
	case LIBVIRQ_ITS_MOVI:
	case LIBVIRQ_ITS_MAPI:
		c->ICID = GET32_(ITS_DW2_ICID, dw[2]);
		LIBVIRQ_FALLTHROUGH_;
	case LIBVIRQ_ITS_INT:
	case LIBVIRQ_ITS_CLEAR:
	case LIBVIRQ_ITS_INV:
	case LIBVIRQ_ITS_DISCARD:
		dec_dev_ev_(c, dw);
		break;
	case LIBVIRQ_ITS_MAPD:
		c->DeviceID = GET32_(ITS_DW0_DeviceID, dw[0]);
		c->Size = GET32_(ITS_DW1_Size, dw[1]);
		c->ITT_addr = GETA_(ITS_DW2_ITT_addr, dw[2]);
		c->V = GETB_(ITS_DW2_V, dw[2]);
		break;
	case LIBVIRQ_ITS_MAPC:
		c->V = GETB_(ITS_DW2_V, dw[2]);
		LIBVIRQ_FALLTHROUGH_;
	case LIBVIRQ_ITS_INVALL:
		c->ICID = GET32_(ITS_DW2_ICID, dw[2]);
		if (c->opcode == LIBVIRQ_ITS_MAPC)
			c->RDbase = GETA_(ITS_DW2_RDbase, dw[2]);
		break;
	case LIBVIRQ_ITS_SYNC:
		c->RDbase = GETA_(ITS_DW2_RDbase, dw[2]);
		break;
	case LIBVIRQ_ITS_MOVALL:
		c->RDbase1 = GETA_(ITS_DW2_RDbase, dw[2]);
		c->RDbase2 = GETA_(ITS_DW3_RDbase2, dw[3]);
		break;
	default:
		dec_virtual_(c, dw);
		break;
	}
	return LIBVIRQ_OK;
}

/* ---- field tables ---- */
#define DEV_EV_ (FBIT_(DeviceID) | FBIT_(EventID))

uint64_t virq_its_cmd_fields(enum virq_its_opcode op)
{
	switch (op) {
	case LIBVIRQ_ITS_INT:
	case LIBVIRQ_ITS_CLEAR:
	case LIBVIRQ_ITS_INV:
	case LIBVIRQ_ITS_DISCARD:
		return DEV_EV_;
	case LIBVIRQ_ITS_MOVI:
	case LIBVIRQ_ITS_MAPI:
		return DEV_EV_ | FBIT_(ICID);
	case LIBVIRQ_ITS_MAPTI:
		return DEV_EV_ | FBIT_(pINTID) | FBIT_(ICID);
	case LIBVIRQ_ITS_SYNC:
		return FBIT_(RDbase);
	case LIBVIRQ_ITS_MAPD:
		return FBIT_(DeviceID) | FBIT_(Size) | FBIT_(ITT_addr) | FBIT_(V);
	case LIBVIRQ_ITS_MAPC:
		return FBIT_(ICID) | FBIT_(RDbase) | FBIT_(V);
	case LIBVIRQ_ITS_INVALL:
		return FBIT_(ICID);
	case LIBVIRQ_ITS_MOVALL:
		return FBIT_(RDbase1) | FBIT_(RDbase2);
	case LIBVIRQ_ITS_VMOVI:
		return DEV_EV_ | FBIT_(vPEID) | FBIT_(D) | FBIT_(Dbell_pINTID);
	case LIBVIRQ_ITS_VMOVP:
		return FBIT_(vPEID) | FBIT_(RDbase) | FBIT_(SequenceNumber) | FBIT_(ITSList) |
		       FBIT_(Default_Doorbell) | FBIT_(DB);
	case LIBVIRQ_ITS_VSGI:
		return FBIT_(vINTID) | FBIT_(vPEID) | FBIT_(Enable) | FBIT_(Clear) | FBIT_(Group) |
		       FBIT_(Priority);
	case LIBVIRQ_ITS_VSYNC:
	case LIBVIRQ_ITS_VINVALL:
	case LIBVIRQ_ITS_INVDB:
		return FBIT_(vPEID);
	case LIBVIRQ_ITS_VMAPP:
		return FBIT_(vPEID) | FBIT_(V) | FBIT_(RDbase) | FBIT_(VPT_addr) | FBIT_(VPT_size) |
		       FBIT_(Alloc) | FBIT_(PTZ) | FBIT_(VCONF_addr) | FBIT_(Default_Doorbell);
	case LIBVIRQ_ITS_VMAPTI:
		return DEV_EV_ | FBIT_(vINTID) | FBIT_(vPEID) | FBIT_(Dbell_pINTID);
	case LIBVIRQ_ITS_VMAPI:
		return DEV_EV_ | FBIT_(vPEID) | FBIT_(Dbell_pINTID);
	}
	return 0;
}

const char *virq_its_opcode_name(enum virq_its_opcode op)
{
	switch (op) {
	case LIBVIRQ_ITS_MOVI:
		return "MOVI";
	case LIBVIRQ_ITS_INT:
		return "INT";
	case LIBVIRQ_ITS_CLEAR:
		return "CLEAR";
	case LIBVIRQ_ITS_SYNC:
		return "SYNC";
	case LIBVIRQ_ITS_MAPD:
		return "MAPD";
	case LIBVIRQ_ITS_MAPC:
		return "MAPC";
	case LIBVIRQ_ITS_MAPTI:
		return "MAPTI";
	case LIBVIRQ_ITS_MAPI:
		return "MAPI";
	case LIBVIRQ_ITS_INV:
		return "INV";
	case LIBVIRQ_ITS_INVALL:
		return "INVALL";
	case LIBVIRQ_ITS_MOVALL:
		return "MOVALL";
	case LIBVIRQ_ITS_DISCARD:
		return "DISCARD";
	case LIBVIRQ_ITS_VMOVI:
		return "VMOVI";
	case LIBVIRQ_ITS_VMOVP:
		return "VMOVP";
	case LIBVIRQ_ITS_VSGI:
		return "VSGI";
	case LIBVIRQ_ITS_VSYNC:
		return "VSYNC";
	case LIBVIRQ_ITS_VMAPP:
		return "VMAPP";
	case LIBVIRQ_ITS_VMAPTI:
		return "VMAPTI";
	case LIBVIRQ_ITS_VMAPI:
		return "VMAPI";
	case LIBVIRQ_ITS_VINVALL:
		return "VINVALL";
	case LIBVIRQ_ITS_INVDB:
		return "INVDB";
	}
	return NULL;
}

const char *virq_its_field_name(enum virq_its_field f)
{
	static const char *const names[LIBVIRQ_ITS_F_COUNT] = {
	    [LIBVIRQ_ITS_F_NONE] = "none",
	    [LIBVIRQ_ITS_F_opcode] = "opcode",
	    [LIBVIRQ_ITS_F_DeviceID] = "DeviceID",
	    [LIBVIRQ_ITS_F_EventID] = "EventID",
	    [LIBVIRQ_ITS_F_pINTID] = "pINTID",
	    [LIBVIRQ_ITS_F_vINTID] = "vINTID",
	    [LIBVIRQ_ITS_F_ICID] = "ICID",
	    [LIBVIRQ_ITS_F_vPEID] = "vPEID",
	    [LIBVIRQ_ITS_F_Size] = "Size",
	    [LIBVIRQ_ITS_F_ITT_addr] = "ITT_addr",
	    [LIBVIRQ_ITS_F_V] = "V",
	    [LIBVIRQ_ITS_F_RDbase] = "RDbase",
	    [LIBVIRQ_ITS_F_RDbase1] = "RDbase1",
	    [LIBVIRQ_ITS_F_RDbase2] = "RDbase2",
	    [LIBVIRQ_ITS_F_D] = "D",
	    [LIBVIRQ_ITS_F_Dbell_pINTID] = "Dbell_pINTID",
	    [LIBVIRQ_ITS_F_SequenceNumber] = "SequenceNumber",
	    [LIBVIRQ_ITS_F_ITSList] = "ITSList",
	    [LIBVIRQ_ITS_F_VPT_addr] = "VPT_addr",
	    [LIBVIRQ_ITS_F_VPT_size] = "VPT_size",
	    [LIBVIRQ_ITS_F_Alloc] = "Alloc",
	    [LIBVIRQ_ITS_F_PTZ] = "PTZ",
	    [LIBVIRQ_ITS_F_VCONF_addr] = "VCONF_addr",
	    [LIBVIRQ_ITS_F_Default_Doorbell] = "Default_Doorbell",
	    [LIBVIRQ_ITS_F_DB] = "DB",
	    [LIBVIRQ_ITS_F_Enable] = "Enable",
	    [LIBVIRQ_ITS_F_Clear] = "Clear",
	    [LIBVIRQ_ITS_F_Group] = "Group",
	    [LIBVIRQ_ITS_F_Priority] = "Priority",
	};

	if ((unsigned)f >= LIBVIRQ_ITS_F_COUNT)
		return "?";
	return names[f];
}

/* ---- generic field access ---- */
static uint32_t *u32_member_(struct virq_its_cmd *c, enum virq_its_field f)
{
	switch (f) {
	case LIBVIRQ_ITS_F_DeviceID:
		return &c->DeviceID;
	case LIBVIRQ_ITS_F_EventID:
		return &c->EventID;
	case LIBVIRQ_ITS_F_pINTID:
		return &c->pINTID;
	case LIBVIRQ_ITS_F_vINTID:
		return &c->vINTID;
	case LIBVIRQ_ITS_F_ICID:
		return &c->ICID;
	case LIBVIRQ_ITS_F_vPEID:
		return &c->vPEID;
	case LIBVIRQ_ITS_F_Size:
		return &c->Size;
	case LIBVIRQ_ITS_F_Dbell_pINTID:
		return &c->Dbell_pINTID;
	case LIBVIRQ_ITS_F_SequenceNumber:
		return &c->SequenceNumber;
	case LIBVIRQ_ITS_F_ITSList:
		return &c->ITSList;
	case LIBVIRQ_ITS_F_VPT_size:
		return &c->VPT_size;
	case LIBVIRQ_ITS_F_Default_Doorbell:
		return &c->Default_Doorbell;
	case LIBVIRQ_ITS_F_Priority:
		return &c->Priority;
	default:
		return NULL;
	}
}

static uint64_t *u64_member_(struct virq_its_cmd *c, enum virq_its_field f)
{
	switch (f) {
	case LIBVIRQ_ITS_F_ITT_addr:
		return &c->ITT_addr;
	case LIBVIRQ_ITS_F_RDbase:
		return &c->RDbase;
	case LIBVIRQ_ITS_F_RDbase1:
		return &c->RDbase1;
	case LIBVIRQ_ITS_F_RDbase2:
		return &c->RDbase2;
	case LIBVIRQ_ITS_F_VPT_addr:
		return &c->VPT_addr;
	case LIBVIRQ_ITS_F_VCONF_addr:
		return &c->VCONF_addr;
	default:
		return NULL;
	}
}

static bool *bool_member_(struct virq_its_cmd *c, enum virq_its_field f)
{
	switch (f) {
	case LIBVIRQ_ITS_F_V:
		return &c->V;
	case LIBVIRQ_ITS_F_D:
		return &c->D;
	case LIBVIRQ_ITS_F_Alloc:
		return &c->Alloc;
	case LIBVIRQ_ITS_F_PTZ:
		return &c->PTZ;
	case LIBVIRQ_ITS_F_DB:
		return &c->DB;
	case LIBVIRQ_ITS_F_Enable:
		return &c->Enable;
	case LIBVIRQ_ITS_F_Clear:
		return &c->Clear;
	case LIBVIRQ_ITS_F_Group:
		return &c->Group;
	default:
		return NULL;
	}
}

uint64_t virq_its_cmd_get(const struct virq_its_cmd *c, enum virq_its_field f)
{
	struct virq_its_cmd tmp;
	uint32_t *p32;
	uint64_t *p64;
	bool *pb;

	if (!c)
		return 0;
	if (f == LIBVIRQ_ITS_F_opcode)
		return (uint64_t)c->opcode;
	/* Look the member up on a copy: the lookup tables take a mutable struct. */
	tmp = *c;
	if ((p32 = u32_member_(&tmp, f)))
		return *p32;
	if ((p64 = u64_member_(&tmp, f)))
		return *p64;
	if ((pb = bool_member_(&tmp, f)))
		return *pb;
	return 0;
}

virq_status virq_its_cmd_set(struct virq_its_cmd *c, enum virq_its_field f, uint64_t v)
{
	uint32_t *p32;
	uint64_t *p64;
	bool *pb;

	if (!c)
		return LIBVIRQ_EINVAL;
	if (f == LIBVIRQ_ITS_F_opcode) {
		if (v > 0xFF)
			return LIBVIRQ_ERANGE;
		c->opcode = (enum virq_its_opcode)v;
		return LIBVIRQ_OK;
	}
	if ((p32 = u32_member_(c, f))) {
		if (v > UINT32_MAX)
			return LIBVIRQ_ERANGE;
		*p32 = (uint32_t)v;
		return LIBVIRQ_OK;
	}
	if ((p64 = u64_member_(c, f))) {
		*p64 = v;
		return LIBVIRQ_OK;
	}
	if ((pb = bool_member_(c, f))) {
		if (v > 1)
			return LIBVIRQ_ERANGE;
		*pb = v != 0;
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_EINVAL;
}
