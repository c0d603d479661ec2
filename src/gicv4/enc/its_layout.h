/* SPDX-License-Identifier: MIT */
/*
 * Private: the layout of every ITS command, one table per command, in the
 * manual's [hi:lo] notation. Arm IHI 0069H §5.3 "ITS commands": each
 * command's format (its figure) and field descriptions; the fields of
 * GICv4.1 (Alloc, PTZ, VCONF_addr, Default_Doorbell, DB, the VSGI and
 * INVDB commands) are part of those same descriptions in revision H.
 *
 * Everything about a command's bits comes from its table and nowhere else
 * (src/gicv4/enc/its_cmd.c): the encoder's width and alignment checks and
 * its word assembly, the decoder, the RES0 masks, the MAPTI fast path and
 * the in-place runs (enc/its_fill.h), the field list of
 * virq_its_cmd_layout() that virqtool prints. The value rules a field's
 * width does not express (an LPI is >= 8192, GITS_TYPER limits, versions)
 * are written per command in its_cmd.c. The simulator's ITS model decodes
 * commands with its own, independent code (sim/src/its.c), and the test
 * test_its_layout walks every table against a transcription of the
 * manual's field lists (tests/data/its/ihi0069h_commands.txt).
 *
 * Form: LIBVIRQ_ITS_<CMD>_FIELDS_(F, a) expands F(a, DW, hi, lo, name) for
 * each field, DW0 first and low bits first within a doubleword; @a is
 * passed through untouched. Every bit a table does not name is RES0. name
 * is the field's name in the manual, which is also the member of
 * struct virq_its_cmd and the suffix of enum virq_its_field's constant.
 *
 * The unit of each field's member (LIBVIRQ_ITS_KIND_<name>_):
 *   OP    the opcode, DW0[7:0] (the member is the command itself);
 *   ID    DeviceID, EventID, ICID, vPEID: a number, checked against the
 *         ITS's limits, which are capped at the field's width (its_cmd.c
 *         asserts that every table gives these fields the same width);
 *   VAL   a number no wider than the field;
 *   FLAG  a one-bit field held in a bool;
 *   ADDR  a physical address field holding PA[hi:lo] in place: the member
 *         is the full byte address, aligned to 2^lo and below 2^(hi+1);
 *   PRIO  the VSGI priority: the member is the 8-bit priority and the
 *         field holds its bits [7:4].
 */
#ifndef LIBVIRQ_SRC_GICV4_ENC_ITS_LAYOUT_H
#define LIBVIRQ_SRC_GICV4_ENC_ITS_LAYOUT_H

/* Every command, in opcode order: X(name) with enum constant LIBVIRQ_ITS_<name>. */
#define LIBVIRQ_ITS_COMMANDS_(X)                                                                   \
	X(MOVI)                                                                                    \
	X(INT)                                                                                     \
	X(CLEAR)                                                                                   \
	X(SYNC)                                                                                    \
	X(MAPD)                                                                                    \
	X(MAPC)                                                                                    \
	X(MAPTI)                                                                                   \
	X(MAPI)                                                                                    \
	X(INV)                                                                                     \
	X(INVALL)                                                                                  \
	X(MOVALL)                                                                                  \
	X(DISCARD)                                                                                 \
	X(VMOVI)                                                                                   \
	X(VMOVP)                                                                                   \
	X(VSGI)                                                                                    \
	X(VSYNC)                                                                                   \
	X(VMAPP)                                                                                   \
	X(VMAPTI)                                                                                  \
	X(VMAPI)                                                                                   \
	X(VINVALL)                                                                                 \
	X(INVDB)

/* ---- GICv3 physical commands ---- */

/* MOVI, opcode 0x01: IHI 0069H §5.3, MOVI. */
#define LIBVIRQ_ITS_MOVI_FIELDS_(F, a)                                                             \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)                                                                    \
	F(a, 2, 15, 0, ICID)

/* INT, opcode 0x03: IHI 0069H §5.3, INT. */
#define LIBVIRQ_ITS_INT_FIELDS_(F, a)                                                              \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)

/* CLEAR, opcode 0x04: IHI 0069H §5.3, CLEAR. */
#define LIBVIRQ_ITS_CLEAR_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)

/* SYNC, opcode 0x05: IHI 0069H §5.3, SYNC. */
#define LIBVIRQ_ITS_SYNC_FIELDS_(F, a)                                                             \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 2, 51, 16, RDbase)

/* MAPD, opcode 0x08: IHI 0069H §5.3, MAPD. */
#define LIBVIRQ_ITS_MAPD_FIELDS_(F, a)                                                             \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 4, 0, Size)                                                                        \
	F(a, 2, 51, 8, ITT_addr)                                                                   \
	F(a, 2, 63, 63, V)

/* MAPC, opcode 0x09: IHI 0069H §5.3, MAPC. */
#define LIBVIRQ_ITS_MAPC_FIELDS_(F, a)                                                             \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 2, 15, 0, ICID)                                                                       \
	F(a, 2, 51, 16, RDbase)                                                                    \
	F(a, 2, 63, 63, V)

/* MAPTI, opcode 0x0A: IHI 0069H §5.3, MAPTI. */
#define LIBVIRQ_ITS_MAPTI_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)                                                                    \
	F(a, 1, 63, 32, pINTID)                                                                    \
	F(a, 2, 15, 0, ICID)

/* MAPI, opcode 0x0B: IHI 0069H §5.3, MAPI (pINTID = EventID). */
#define LIBVIRQ_ITS_MAPI_FIELDS_(F, a)                                                             \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)                                                                    \
	F(a, 2, 15, 0, ICID)

/* INV, opcode 0x0C: IHI 0069H §5.3, INV. */
#define LIBVIRQ_ITS_INV_FIELDS_(F, a)                                                              \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)

/* INVALL, opcode 0x0D: IHI 0069H §5.3, INVALL. */
#define LIBVIRQ_ITS_INVALL_FIELDS_(F, a)                                                           \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 2, 15, 0, ICID)

/* MOVALL, opcode 0x0E: IHI 0069H §5.3, MOVALL. */
#define LIBVIRQ_ITS_MOVALL_FIELDS_(F, a)                                                           \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 2, 51, 16, RDbase1)                                                                   \
	F(a, 3, 51, 16, RDbase2)

/* DISCARD, opcode 0x0F: IHI 0069H §5.3, DISCARD. */
#define LIBVIRQ_ITS_DISCARD_FIELDS_(F, a)                                                          \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)

/* ---- GICv4.0 virtual commands, with their GICv4.1 fields ---- */

/* VMOVI, opcode 0x21: IHI 0069H §5.3, VMOVI. */
#define LIBVIRQ_ITS_VMOVI_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)                                                                    \
	F(a, 1, 47, 32, vPEID)                                                                     \
	F(a, 2, 0, 0, D)                                                                           \
	F(a, 2, 63, 32, Dbell_pINTID)

/* VMOVP, opcode 0x22: IHI 0069H §5.3, VMOVP (DB and Default_Doorbell: GICv4.1). */
#define LIBVIRQ_ITS_VMOVP_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 47, 32, SequenceNumber)                                                            \
	F(a, 1, 15, 0, ITSList)                                                                    \
	F(a, 1, 47, 32, vPEID)                                                                     \
	F(a, 2, 51, 16, RDbase)                                                                    \
	F(a, 2, 63, 63, DB)                                                                        \
	F(a, 3, 31, 0, Default_Doorbell)

/* VSGI, opcode 0x23 (GICv4.1): IHI 0069H §5.3, VSGI. */
#define LIBVIRQ_ITS_VSGI_FIELDS_(F, a)                                                             \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 8, 8, Enable)                                                                      \
	F(a, 0, 9, 9, Clear)                                                                       \
	F(a, 0, 10, 10, Group)                                                                     \
	F(a, 0, 23, 20, Priority)                                                                  \
	F(a, 0, 35, 32, vINTID)                                                                    \
	F(a, 1, 47, 32, vPEID)

/* VSYNC, opcode 0x25: IHI 0069H §5.3, VSYNC. */
#define LIBVIRQ_ITS_VSYNC_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 1, 47, 32, vPEID)

/*
 * VMAPP, opcode 0x29: IHI 0069H §5.3, VMAPP (Alloc, PTZ, VCONF_addr and
 * Default_Doorbell: GICv4.1). VPT_size is DW3[7:0], of which GICv4.0 uses
 * [5:0]; its values stop at 31 (32 vINTID bits), a value rule of the
 * encoder.
 */
#define LIBVIRQ_ITS_VMAPP_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 8, 8, Alloc)                                                                       \
	F(a, 0, 9, 9, PTZ)                                                                         \
	F(a, 0, 51, 16, VCONF_addr)                                                                \
	F(a, 1, 31, 0, Default_Doorbell)                                                           \
	F(a, 1, 47, 32, vPEID)                                                                     \
	F(a, 2, 51, 16, RDbase)                                                                    \
	F(a, 2, 63, 63, V)                                                                         \
	F(a, 3, 7, 0, VPT_size)                                                                    \
	F(a, 3, 51, 16, VPT_addr)

/* VMAPTI, opcode 0x2A: IHI 0069H §5.3, VMAPTI. */
#define LIBVIRQ_ITS_VMAPTI_FIELDS_(F, a)                                                           \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)                                                                    \
	F(a, 1, 47, 32, vPEID)                                                                     \
	F(a, 2, 31, 0, vINTID)                                                                     \
	F(a, 2, 63, 32, Dbell_pINTID)

/* VMAPI, opcode 0x2B: IHI 0069H §5.3, VMAPI (vINTID = EventID). */
#define LIBVIRQ_ITS_VMAPI_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 0, 63, 32, DeviceID)                                                                  \
	F(a, 1, 31, 0, EventID)                                                                    \
	F(a, 1, 47, 32, vPEID)                                                                     \
	F(a, 2, 63, 32, Dbell_pINTID)

/* VINVALL, opcode 0x2D: IHI 0069H §5.3, VINVALL. */
#define LIBVIRQ_ITS_VINVALL_FIELDS_(F, a)                                                          \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 1, 47, 32, vPEID)

/* INVDB, opcode 0x2E (GICv4.1): IHI 0069H §5.3, INVDB. */
#define LIBVIRQ_ITS_INVDB_FIELDS_(F, a)                                                            \
	F(a, 0, 7, 0, opcode)                                                                      \
	F(a, 1, 47, 32, vPEID)

/* ---- the unit of each field's member (see the file comment) ---- */
#define LIBVIRQ_ITS_KIND_opcode_ OP
#define LIBVIRQ_ITS_KIND_DeviceID_ ID
#define LIBVIRQ_ITS_KIND_EventID_ ID
#define LIBVIRQ_ITS_KIND_pINTID_ VAL
#define LIBVIRQ_ITS_KIND_vINTID_ VAL
#define LIBVIRQ_ITS_KIND_ICID_ ID
#define LIBVIRQ_ITS_KIND_vPEID_ ID
#define LIBVIRQ_ITS_KIND_Size_ VAL
#define LIBVIRQ_ITS_KIND_ITT_addr_ ADDR
#define LIBVIRQ_ITS_KIND_V_ FLAG
#define LIBVIRQ_ITS_KIND_RDbase_ ADDR
#define LIBVIRQ_ITS_KIND_RDbase1_ ADDR
#define LIBVIRQ_ITS_KIND_RDbase2_ ADDR
#define LIBVIRQ_ITS_KIND_D_ FLAG
#define LIBVIRQ_ITS_KIND_Dbell_pINTID_ VAL
#define LIBVIRQ_ITS_KIND_SequenceNumber_ VAL
#define LIBVIRQ_ITS_KIND_ITSList_ VAL
#define LIBVIRQ_ITS_KIND_VPT_addr_ ADDR
#define LIBVIRQ_ITS_KIND_VPT_size_ VAL
#define LIBVIRQ_ITS_KIND_Alloc_ FLAG
#define LIBVIRQ_ITS_KIND_PTZ_ FLAG
#define LIBVIRQ_ITS_KIND_VCONF_addr_ ADDR
#define LIBVIRQ_ITS_KIND_Default_Doorbell_ VAL
#define LIBVIRQ_ITS_KIND_DB_ FLAG
#define LIBVIRQ_ITS_KIND_Enable_ FLAG
#define LIBVIRQ_ITS_KIND_Clear_ FLAG
#define LIBVIRQ_ITS_KIND_Group_ FLAG
#define LIBVIRQ_ITS_KIND_Priority_ PRIO

/* Every field name, in the order of enum virq_its_field (after NONE). */
#define LIBVIRQ_ITS_FIELD_NAMES_(X)                                                                \
	X(opcode)                                                                                  \
	X(DeviceID)                                                                                \
	X(EventID)                                                                                 \
	X(pINTID)                                                                                  \
	X(vINTID)                                                                                  \
	X(ICID)                                                                                    \
	X(vPEID)                                                                                   \
	X(Size)                                                                                    \
	X(ITT_addr)                                                                                \
	X(V)                                                                                       \
	X(RDbase)                                                                                  \
	X(RDbase1)                                                                                 \
	X(RDbase2)                                                                                 \
	X(D)                                                                                       \
	X(Dbell_pINTID)                                                                            \
	X(SequenceNumber)                                                                          \
	X(ITSList)                                                                                 \
	X(VPT_addr)                                                                                \
	X(VPT_size)                                                                                \
	X(Alloc)                                                                                   \
	X(PTZ)                                                                                     \
	X(VCONF_addr)                                                                              \
	X(Default_Doorbell)                                                                        \
	X(DB)                                                                                      \
	X(Enable)                                                                                  \
	X(Clear)                                                                                   \
	X(Group)                                                                                   \
	X(Priority)

/* ---- helpers to expand a table ---- */

/* Pastes after expanding both arguments (the kind macro must expand first). */
#define LIBVIRQ_ITS_CAT_(x, y) LIBVIRQ_ITS_CAT2_(x, y)
#define LIBVIRQ_ITS_CAT2_(x, y) x##y

/* F##KIND(a, dw, hi, lo, name): a per-kind macro for one field. */
#define LIBVIRQ_ITS_BY_KIND_(pfx, a, dw, hi, lo, name)                                             \
	LIBVIRQ_ITS_CAT_(pfx, LIBVIRQ_ITS_KIND_##name##_)(a, dw, hi, lo, name)

/* The table of command @cmd (a bare name, e.g. MAPTI). */
#define LIBVIRQ_ITS_FIELDS_OF_(cmd, F, a) LIBVIRQ_ITS_##cmd##_FIELDS_(F, a)

/* Mask of the bits of doubleword @a that a table names: (0 TABLE(..._USED_IN_, a)). */
#define LIBVIRQ_ITS_USED_IN_(a, dw, hi, lo, name)                                                  \
	| ((dw) == (a) ? LIBVIRQ_GENMASK(hi, lo) : (uint64_t)0)
/* The sum of those masks: equal to their union exactly when no two overlap
 * (each expansion is a term of a sum, so it cannot be parenthesised). */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define LIBVIRQ_ITS_SUM_IN_(a, dw, hi, lo, name)                                                   \
	+((dw) == (a) ? LIBVIRQ_GENMASK(hi, lo) : (uint64_t)0)
/* NOLINTEND(bugprone-macro-parentheses) */

/* The RES0 bits of doubleword @dw of command @cmd: every bit no field names. */
#define LIBVIRQ_ITS_RES0_(cmd, dw)                                                                 \
	(~((uint64_t)0 LIBVIRQ_ITS_FIELDS_OF_(cmd, LIBVIRQ_ITS_USED_IN_, dw)))

#endif /* LIBVIRQ_SRC_GICV4_ENC_ITS_LAYOUT_H */
