/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief GICv3/v4.0/v4.1 ITS commands: typed description, encoder, decoder.
 *
 * Every ITS command is 32 bytes: four 64-bit little-endian doublewords
 * DW0..DW3, opcode in DW0[7:0], unused bits zero (IHI 0069H chapter 5 "ITS
 * commands"; the field layouts of IHI 0069H §5.3).
 *
 * The encoder is a pure function: it validates every field of the command
 * against its width and alignment and, when given the ITS's probed limits
 * (::virq_its_limits, from GITS_TYPER), against those; on failure it
 * returns ::LIBVIRQ_ERANGE, ::LIBVIRQ_EALIGN or ::LIBVIRQ_ENOTSUP and names the
 * offending field (::virq_its_field) instead of truncating. It also reports
 * which synchronisation the command needs (::virq_its_sync).
 *
 * The decoder turns any 32 bytes back into the description, so that every
 * encoding round-trips (diagnostics, virqtool).
 *
 * Field conventions in ::virq_its_cmd (also used by virq_its_cmd_get() /
 * virq_its_cmd_set()):
 * - addresses (ITT_addr, VPT_addr, VCONF_addr, RDbase*) are full byte
 *   addresses, exactly the bits the command holds in place;
 * - RDbase, RDbase1, RDbase2 hold the [51:16] field in place: with
 *   GITS_TYPER.PTA = 1 the redistributor's 64 KiB-aligned physical
 *   address; with PTA = 0 the processor number shifted left by 16 (see
 *   virq_its_rdbase_procnum());
 * - Size and VPT_size are the raw fields (number of ID bits minus one);
 * - Priority is the 8-bit priority; only bits [7:4] are encoded, so its
 *   low four bits must be zero.
 *
 * Thread-safety: every function here is pure and reentrant.
 */
#ifndef LIBVIRQ_GICV4_ITS_CMD_H
#define LIBVIRQ_GICV4_ITS_CMD_H

#include "../virq_env.h"
#include "../status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Size of one ITS command in bytes. */
#define LIBVIRQ_ITS_CMD_SIZE 32u

/** @brief The "no doorbell" value of Dbell_pINTID and Default_Doorbell (1023). */
#define LIBVIRQ_ITS_NO_DOORBELL 1023u

/** @brief First LPI INTID (8192): smallest valid pINTID, vINTID and doorbell. */
#define LIBVIRQ_ITS_LPI_BASE 8192u

/**
 * @brief ITS command opcodes, DW0[7:0] (IHI 0069H §5.3; GICv4 opcodes are the
 * physical ones OR 0x20).
 */
enum virq_its_opcode {
	LIBVIRQ_ITS_MOVI = 0x01,    /**< Move an event to another collection. */
	LIBVIRQ_ITS_INT = 0x03,	    /**< Make an event's interrupt pending. */
	LIBVIRQ_ITS_CLEAR = 0x04,   /**< Clear an event's pending interrupt. */
	LIBVIRQ_ITS_SYNC = 0x05,    /**< Wait for earlier physical commands' effects at RDbase. */
	LIBVIRQ_ITS_MAPD = 0x08,    /**< Map (V=1) or unmap a DeviceID to an ITT. */
	LIBVIRQ_ITS_MAPC = 0x09,    /**< Map (V=1) or unmap a collection to a redistributor. */
	LIBVIRQ_ITS_MAPTI = 0x0A,   /**< Map an event to a pINTID and collection. */
	LIBVIRQ_ITS_MAPI = 0x0B,    /**< Map an event to pINTID = EventID and a collection. */
	LIBVIRQ_ITS_INV = 0x0C,	    /**< Re-read an event's LPI configuration. */
	LIBVIRQ_ITS_INVALL = 0x0D,  /**< Re-read the configuration of every LPI of a collection. */
	LIBVIRQ_ITS_MOVALL = 0x0E,  /**< Move all pending LPIs from RDbase1 to RDbase2. */
	LIBVIRQ_ITS_DISCARD = 0x0F, /**< Unmap an event and drop its pending state. */
	LIBVIRQ_ITS_VMOVI = 0x21,   /**< GICv4: move a vLPI to another vPE / change its doorbell. */
	LIBVIRQ_ITS_VMOVP = 0x22,   /**< GICv4: move a vPE to another redistributor. */
	LIBVIRQ_ITS_VSGI = 0x23,    /**< GICv4.1: configure or clear a vSGI. */
	LIBVIRQ_ITS_VSYNC = 0x25,   /**< GICv4: wait for earlier commands on a vPE. */
	LIBVIRQ_ITS_VMAPP = 0x29,   /**< GICv4: map (V=1) or unmap a vPE (4.1 adds Alloc etc.). */
	LIBVIRQ_ITS_VMAPTI = 0x2A,  /**< GICv4: map an event to a vINTID of a vPE. */
	LIBVIRQ_ITS_VMAPI = 0x2B,   /**< GICv4: map an event to vINTID = EventID of a vPE. */
	LIBVIRQ_ITS_VINVALL = 0x2D, /**< GICv4: re-read every vLPI configuration of a vPE. */
	LIBVIRQ_ITS_INVDB = 0x2E,   /**< GICv4.1: invalidate a vPE's doorbell configuration. */
};

/**
 * @brief Every field of every ITS command, named as in IHI 0069H.
 *
 * Used to report which field an encoder rejected and to address fields
 * generically (virq_its_cmd_get(), virq_its_cmd_set()).
 */
enum virq_its_field {
	LIBVIRQ_ITS_F_NONE = 0,		/**< No field (success). */
	LIBVIRQ_ITS_F_opcode,		/**< The opcode itself (unknown or unsupported). */
	LIBVIRQ_ITS_F_DeviceID,		/**< DW0[63:32]. */
	LIBVIRQ_ITS_F_EventID,		/**< DW1[31:0]. */
	LIBVIRQ_ITS_F_pINTID,		/**< MAPTI DW1[63:32]. */
	LIBVIRQ_ITS_F_vINTID,		/**< VMAPTI DW2[31:0]; VSGI DW0[35:32]. */
	LIBVIRQ_ITS_F_ICID,		/**< DW2[15:0]. */
	LIBVIRQ_ITS_F_vPEID,		/**< DW1[47:32]. */
	LIBVIRQ_ITS_F_Size,		/**< MAPD DW1[4:0]: EventID bits minus one. */
	LIBVIRQ_ITS_F_ITT_addr,		/**< MAPD DW2[51:8]. */
	LIBVIRQ_ITS_F_V,		/**< DW2[63]: valid (map) / invalid (unmap). */
	LIBVIRQ_ITS_F_RDbase,		/**< DW2[51:16]. */
	LIBVIRQ_ITS_F_RDbase1,		/**< MOVALL DW2[51:16] (source). */
	LIBVIRQ_ITS_F_RDbase2,		/**< MOVALL DW3[51:16] (target). */
	LIBVIRQ_ITS_F_D,		/**< VMOVI DW2[0]: Dbell_pINTID valid. */
	LIBVIRQ_ITS_F_Dbell_pINTID,	/**< DW2[63:32]: doorbell LPI or 1023. */
	LIBVIRQ_ITS_F_SequenceNumber,	/**< VMOVP DW0[47:32]. */
	LIBVIRQ_ITS_F_ITSList,		/**< VMOVP DW1[15:0]. */
	LIBVIRQ_ITS_F_VPT_addr,		/**< VMAPP DW3[51:16]. */
	LIBVIRQ_ITS_F_VPT_size,		/**< VMAPP DW3[4:0]: vINTID bits minus one. */
	LIBVIRQ_ITS_F_Alloc,		/**< VMAPP DW0[8] (4.1). */
	LIBVIRQ_ITS_F_PTZ,		/**< VMAPP DW0[9] (4.1). */
	LIBVIRQ_ITS_F_VCONF_addr,	/**< VMAPP DW0[51:16] (4.1). */
	LIBVIRQ_ITS_F_Default_Doorbell, /**< VMAPP / VMOVP default doorbell pINTID (4.1). */
	LIBVIRQ_ITS_F_DB,		/**< VMOVP DW2[63] (4.1). */
	LIBVIRQ_ITS_F_Enable,		/**< VSGI DW0[8]. */
	LIBVIRQ_ITS_F_Clear,		/**< VSGI DW0[9]. */
	LIBVIRQ_ITS_F_Group,		/**< VSGI DW0[10]. */
	LIBVIRQ_ITS_F_Priority,		/**< VSGI DW0[23:20] = Priority[7:4]. */
	LIBVIRQ_ITS_F_COUNT		/**< Number of fields (not a field). */
};

/**
 * @brief Typed description of one ITS command.
 *
 * Only the fields of @ref opcode are used (see virq_its_cmd_fields());
 * the others are ignored by the encoder and zeroed by the decoder.
 * Members are wider than their fields on purpose: a too-large value is
 * reported, never truncated by a C conversion. Members are grouped by
 * width (64-bit, 32-bit, flags) to avoid padding; within a group they keep
 * the spec's order.
 */
struct virq_its_cmd {
	uint64_t ITT_addr;	     /**< MAPD: ITT physical address, 256-byte aligned, < 2^52. */
	uint64_t RDbase;	     /**< Target redistributor, [51:16] in place (see file doc). */
	uint64_t RDbase1;	     /**< MOVALL source redistributor, as RDbase. */
	uint64_t RDbase2;	     /**< MOVALL target redistributor, as RDbase. */
	uint64_t VPT_addr;	     /**< VMAPP: vLPI pending table PA, 64 KiB aligned, < 2^52. */
	uint64_t VCONF_addr;	     /**< VMAPP (4.1): vLPI config table PA, 64 KiB aligned. */
	enum virq_its_opcode opcode; /**< The command. */
	uint32_t DeviceID;	     /**< DeviceID, < 2^(GITS_TYPER.Devbits+1). */
	uint32_t EventID;	     /**< EventID, < 2^(GITS_TYPER.ID_bits+1). */
	uint32_t pINTID;	     /**< MAPTI physical LPI INTID, >= 8192. */
	uint32_t vINTID;	     /**< VMAPTI vLPI INTID (>= 8192); VSGI vSGI 0..15. */
	uint32_t ICID;		     /**< Collection ID, 16-bit field, < 2^CIDbits. */
	uint32_t vPEID;		     /**< vPE ID, 16-bit field, < 2^vpeid_bits. */
	uint32_t Size;		     /**< MAPD: EventID bits minus one, 0..31 (<= ID_bits). */
	uint32_t Dbell_pINTID;	     /**< VMAPTI, VMAPI, VMOVI doorbell: LPI or 1023. */
	uint32_t SequenceNumber;     /**< VMOVP (GITS_TYPER.VMOVP = 0): 16 bits. */
	uint32_t ITSList;	     /**< VMOVP (GITS_TYPER.VMOVP = 0): 16-bit ITS set. */
	uint32_t VPT_size;	     /**< VMAPP: vINTID bits minus one, 0..31. */
	uint32_t Default_Doorbell;   /**< VMAPP, VMOVP (4.1): LPI or 1023; 0 on 4.0. */
	uint32_t Priority;	     /**< VSGI: 8-bit priority, multiple of 16. */
	bool V;			     /**< MAPD, MAPC, VMAPP: map (true) or unmap. */
	bool D;			     /**< VMOVI: Dbell_pINTID is valid. */
	bool Alloc;		     /**< VMAPP (4.1): first map / last unmap of the vPE. */
	bool PTZ;		     /**< VMAPP (4.1): the VPT is known to be zero. */
	bool DB;		     /**< VMOVP (4.1): Default_Doorbell is valid. */
	bool Enable;		     /**< VSGI: vSGI enabled. */
	bool Clear;		     /**< VSGI: clear pending instead of configuring. */
	bool Group;		     /**< VSGI: group 1 (true) or group 0. */
};

/** @brief ITS architecture level, from GITS_TYPER.Virtual and GITS_TYPER.VMAPP. */
enum virq_its_version {
	LIBVIRQ_ITS_V3 = 0,  /**< GICv3: physical LPIs only (GITS_TYPER.Virtual = 0). */
	LIBVIRQ_ITS_V40 = 1, /**< GICv4.0 (Virtual = 1, VMAPP = 0). */
	LIBVIRQ_ITS_V41 = 2, /**< GICv4.1 (Virtual = 1, VMAPP = 1). */
};

/**
 * @brief What an ITS accepts, probed from GITS_TYPER (and, for the counts,
 * from the tables the embedder allocated).
 *
 * Pass NULL instead of a limits struct when nothing is known: then only
 * field widths, alignments and architectural value rules are checked, and
 * every command of every version is accepted.
 */
struct virq_its_limits {
	uint8_t devid_bits;   /**< DeviceID bits = GITS_TYPER.Devbits + 1 (1..32). */
	uint8_t eventid_bits; /**< EventID bits = GITS_TYPER.ID_bits + 1 (1..32). */
	uint8_t icid_bits;    /**< Collection ID bits = CIDbits + 1 if CIL, else 16. */
	uint8_t vpeid_bits;   /**< vPE ID bits (16 unless known smaller, e.g. GICD_TYPER2.VID). */
	bool pta;	      /**< GITS_TYPER.PTA: RDbase is a PA (true) or a processor number. */
	bool vmovp;	      /**< GITS_TYPER.VMOVP: VMOVP needs no ITSList/SequenceNumber. */
	bool vsgi;	      /**< GITS_TYPER.VSGI: the VSGI command is implemented. */
	enum virq_its_version version; /**< v3, v4.0 or v4.1. */
	/** Number of collections that exist (ICID limit); 0: only @ref icid_bits applies. */
	uint32_t nr_icids;
	/** Number of vPEs that exist (vPEID limit); 0: only @ref vpeid_bits applies. */
	uint32_t nr_vpeids;
	/** With PTA = 0: number of processors (RDbase limit); 0: unknown (16-bit numbers). */
	uint32_t nr_procs;
	/**
	 * Private: per-field maxima derived from the members above by
	 * virq_its_limits_prepare(), so that the encoder's hot path checks
	 * each ID with one comparison. The encoder uses them only while the
	 * key members still equal the inputs they were derived from; a
	 * caller that changes a limit member directly and does not call
	 * virq_its_limits_prepare() again loses only speed, never a check.
	 */
	struct virq_its_limits_cache {
		uint32_t key_bits; ///< devid/eventid/icid/vpeid_bits, one byte each, when derived.
		uint32_t key_nr_icids;	///< nr_icids when derived.
		uint32_t key_nr_vpeids; ///< nr_vpeids when derived.
		uint32_t max_DeviceID;	///< Largest DeviceID accepted.
		uint32_t max_EventID;	///< Largest EventID accepted.
		uint32_t max_ICID;	///< Largest ICID accepted (width and nr_icids).
		uint32_t max_vPEID;	///< Largest vPEID accepted (width and nr_vpeids).
	} cache;			///< Private: see struct virq_its_limits_cache.
};

/** @brief Which synchronisation command must follow a command. */
enum virq_its_sync_kind {
	LIBVIRQ_ITS_SYNC_NONE = 0, /**< None (MAPD, SYNC, VSYNC, GICv4.1 VMAPP unmap). */
	LIBVIRQ_ITS_SYNC_RDBASE,   /**< SYNC to @c RDbase (MAPC, MOVALL). */
	LIBVIRQ_ITS_SYNC_ICID,	   /**< SYNC to the RDbase collection @c ICID maps to. */
	/**
	 * SYNC to the RDbase of the collection that @c DeviceID / @c EventID
	 * maps to, or VSYNC to its vPE when it is mapped to a vLPI ("virtual"
	 * INV/INT/CLEAR); only the caller's tables know which.
	 */
	LIBVIRQ_ITS_SYNC_EVENT,
	LIBVIRQ_ITS_SYNC_VPEID, /**< VSYNC to @c vPEID. */
};

/**
 * @brief The synchronisation a command needs (output of the encoder).
 *
 * @ref kind names the synchronisation of the command's target (for a move:
 * its destination). The move commands also change state at their source,
 * which must be synchronised too, or a caller that waits only on the
 * destination may believe the move complete while the old redistributor
 * (or vPE) still holds the interrupt's pending state: @ref src_kind names
 * that second synchronisation (an extra SYNC only waits; a missing one
 * loses ordering). The rule per command (IHI 0069H chapter 5: "in the
 * absence of a SYNC or VSYNC command the ordering of ITS commands and
 * translation requests is not defined"; the SYNC, VSYNC, MOVI, VMOVI,
 * MOVALL and VMOVP descriptions):
 * - MOVI: @ref kind = ::LIBVIRQ_ITS_SYNC_ICID (the new collection),
 *   @ref src_kind = ::LIBVIRQ_ITS_SYNC_EVENT (the collection the event
 *   was mapped to before the command; Linux's its_build_movi_cmd() syncs
 *   that one, dev_event_to_col() before its_set_affinity() updates it);
 * - VMOVI: @ref kind = ::LIBVIRQ_ITS_SYNC_VPEID (the new vPE),
 *   @ref src_kind = ::LIBVIRQ_ITS_SYNC_EVENT (the vPE the event was mapped
 *   to before; none needed when it is the same vPE, as for a doorbell
 *   change with D = 1);
 * - MOVALL: @ref kind = ::LIBVIRQ_ITS_SYNC_RDBASE (RDbase2, the target),
 *   @ref src_kind = ::LIBVIRQ_ITS_SYNC_RDBASE with @ref src_RDbase = RDbase1
 *   (Linux never sends MOVALL: this follows the MOVI rule);
 * - VMOVP: @ref kind = ::LIBVIRQ_ITS_SYNC_VPEID on the ITS that received
 *   it: a VSYNC is per vPE, not per redistributor, so it covers both the
 *   old and the new redistributor. With GITS_TYPER.VMOVP = 0 the VMOVP
 *   goes to every ITS of its ITSList and each of them needs its VSYNC;
 *   with VMOVP = 1 one ITS takes it and its VSYNC suffices;
 * - every other command: @ref src_kind = ::LIBVIRQ_ITS_SYNC_NONE.
 */
struct virq_its_sync {
	enum virq_its_sync_kind kind; /**< Which kind (the target / destination). */
	uint64_t RDbase;	      /**< For ::LIBVIRQ_ITS_SYNC_RDBASE: [51:16] in place. */
	uint32_t ICID;		      /**< For ::LIBVIRQ_ITS_SYNC_ICID. */
	uint32_t DeviceID;	      /**< For ::LIBVIRQ_ITS_SYNC_EVENT (either kind). */
	uint32_t EventID;	      /**< For ::LIBVIRQ_ITS_SYNC_EVENT (either kind). */
	uint32_t vPEID;		      /**< For ::LIBVIRQ_ITS_SYNC_VPEID. */
	enum virq_its_sync_kind
	    src_kind;	     /**< Second synchronisation: the source of a move
				  (MOVI, VMOVI, MOVALL), else ::LIBVIRQ_ITS_SYNC_NONE. */
	uint64_t src_RDbase; /**< For @ref src_kind ::LIBVIRQ_ITS_SYNC_RDBASE (MOVALL RDbase1). */
};

/**
 * @brief Derives the limits of an ITS from its GITS_TYPER value.
 *
 * devid_bits = Devbits + 1; eventid_bits = ID_bits + 1; icid_bits =
 * CIDbits + 1 when CIL = 1, else 16; vpeid_bits = 16 (the vPEID field
 * width; lower it when GICD_TYPER2.VID says less); pta, vmovp, vsgi copied;
 * version from Virtual and VMAPP; nr_icids = nr_vpeids = nr_procs = 0;
 * then virq_its_limits_prepare().
 *
 * @param typer GITS_TYPER as read (64-bit).
 * @param lim   Receives the limits; must not be NULL.
 *
 * Spec: IHI 0069H GITS_TYPER (chapter 12). Thread-safety: pure.
 */
void virq_its_limits_from_typer(uint64_t typer, struct virq_its_limits *lim);

/**
 * @brief Refreshes the private per-field maxima of @p lim (@c cache) after
 * the caller changed a limit member (e.g. lowered @c nr_icids to the
 * collection table it allocated).
 *
 * virq_its_limits_from_typer() already calls it. Optional for correctness:
 * with a stale or never-filled cache the encoder checks the members
 * directly (slower path, same result).
 *
 * @param lim The limits; must not be NULL.
 *
 * Thread-safety: writes @p lim only; the caller must not encode with
 * @p lim concurrently. Spec: IHI 0069H GITS_TYPER (chapter 12), whose
 * fields the limits come from.
 */
void virq_its_limits_prepare(struct virq_its_limits *lim);

/**
 * @brief Encodes one ITS command into 32 bytes (four little-endian words).
 *
 * Validates every field that @p cmd->opcode uses:
 * - width: a value larger than its field gives ::LIBVIRQ_ERANGE;
 * - alignment: ITT_addr (256 B), RDbase*, VPT_addr, VCONF_addr (64 KiB)
 *   with low bits set give ::LIBVIRQ_EALIGN; above bit 51 gives ::LIBVIRQ_ERANGE;
 * - value rules: pINTID and vINTID (VMAPTI) >= 8192; Dbell_pINTID is 1023
 *   or >= 8192 (not checked for VMOVI with D = 0); Default_Doorbell is 0,
 *   1023 or >= 8192 (with 4.0 limits: 0; with 4.1 limits and the field in
 *   use — VMAPP V = 1, VMOVP DB = 1 — 1023 or >= 8192); Priority low four
 *   bits zero (::LIBVIRQ_EALIGN);
 * - with @p lim: DeviceID, EventID, ICID, vPEID, Size (<= ID_bits) against
 *   the probed widths and counts; RDbase (MAPC only when V = 1, SYNC,
 *   VMAPP, VMOVP, MOVALL) is a processor number < nr_procs (or < 2^16)
 *   when PTA = 0; VMOVP SequenceNumber and ITSList must be 0 when
 *   GITS_TYPER.VMOVP = 1 (they exist only for VMOVP = 0); 4.1-only fields
 *   (Alloc, PTZ, VCONF_addr,
 *   Default_Doorbell, DB) must be zero on 4.0; virtual commands on a v3
 *   ITS, VSGI/INVDB on 4.0, VSGI without GITS_TYPER.VSGI give
 *   ::LIBVIRQ_ENOTSUP (field ::LIBVIRQ_ITS_F_opcode).
 *
 * Synchronisation reported in @p sync (IHI 0069H §5.2; Linux's command
 * builders in drivers/irqchip/irq-gic-v3-its.c): MAPD, SYNC, VSYNC: none;
 * MAPC: SYNC(RDbase); MOVALL: SYNC(RDbase2) and, as the source,
 * SYNC(RDbase1); MAPTI, MAPI, INVALL: SYNC(collection ICID); MOVI:
 * SYNC(new collection ICID) and, as the source, the event's collection
 * before the move (::virq_its_sync::src_kind = ::LIBVIRQ_ITS_SYNC_EVENT);
 * INV, INT, CLEAR, DISCARD: ::LIBVIRQ_ITS_SYNC_EVENT; VMOVI: VSYNC(new
 * vPEID) and, as the source, the event's vPE before the move;
 * VMAPTI, VMAPI, VMOVP, VINVALL, INVDB, VSGI, VMAPP map: VSYNC(vPEID);
 * VMAPP unmap: none on GICv4.1 (self-synchronising; a VSYNC to the unmapped
 * vPE may raise an SError, @ref gic-vmapp-unmap-no-vsync), VSYNC(vPEID) on 4.0. Without @p lim
 * the version is unknown and VMAPP unmap is treated as 4.1 when any
 * 4.1-only field is set, else as 4.0: pass limits on a GICv4.1 ITS.
 *
 * @param cmd  The command; must not be NULL.
 * @param lim  Probed limits, or NULL for "none known".
 * @param out  Receives the 32-byte command (DW0 first, each little-endian,
 *             independent of host endianness); written only on success.
 * @param sync Optional; receives the synchronisation needed: @c kind, and
 *             the member(s) that kind names (the others are not written).
 * @param bad  Optional; receives the rejected field on failure (not
 *             written on success).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL @p cmd or @p out); ::LIBVIRQ_EUNKNOWN
 *         (opcode not an ITS command; @p bad = opcode); ::LIBVIRQ_ENOTSUP,
 *         ::LIBVIRQ_ERANGE, ::LIBVIRQ_EALIGN as above.
 *
 * Thread-safety: pure, reentrant.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_cmd_encode(const struct virq_its_cmd *cmd,
						   const struct virq_its_limits *lim,
						   uint8_t out[LIBVIRQ_ITS_CMD_SIZE],
						   struct virq_its_sync *sync,
						   enum virq_its_field *bad);

/**
 * @brief Decodes 32 command bytes into the typed description.
 *
 * Fills every field the opcode uses and zeroes the rest; bits the command
 * does not define are ignored. Any encoder output decodes back to the
 * command that produced it.
 *
 * @param in  32 bytes, four little-endian doublewords.
 * @param cmd Receives the description; must not be NULL.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL argument); ::LIBVIRQ_EUNKNOWN when
 *         DW0[7:0] is not an ITS command (@p cmd->opcode then holds it).
 *
 * Thread-safety: pure, reentrant.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_cmd_decode(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE],
						   struct virq_its_cmd *cmd);

/**
 * @brief Bit set (bit = 1 << ::virq_its_field) of the fields a command uses.
 *
 * The same fields as virq_its_cmd_layout() lists, without the opcode.
 *
 * @param opcode Any value.
 * @return The set; 0 for an unknown opcode.
 *
 * Thread-safety: pure. Spec: IHI 0069H §5.3 (each command's fields).
 */
uint64_t virq_its_cmd_fields(enum virq_its_opcode opcode);

/**
 * @brief Where one field of a command sits: doubleword @ref dw, bits
 * [@ref hi : @ref lo], the manual's notation.
 */
struct virq_its_field_pos {
	enum virq_its_field field; /**< The field (::LIBVIRQ_ITS_F_opcode for DW0[7:0]). */
	uint8_t dw;		   /**< Doubleword, 0..3. */
	uint8_t hi;		   /**< Highest bit of the field, 0..63. */
	uint8_t lo;		   /**< Lowest bit of the field, 0..@ref hi. */
};

/**
 * @brief The layout of a command: every field with its doubleword and bits.
 *
 * The table the encoder, the decoder and the RES0 masks are generated from
 * (one per command, IHI 0069H §5.3 command by command). Fields are in the
 * order DW0 first, and within a doubleword lowest bits first, the opcode
 * (DW0[7:0]) first of all; they never overlap, and every bit they do not
 * cover is RES0 (virq_its_cmd_res0_mask()). Address fields hold the
 * address bits [hi:lo] in place (::virq_its_cmd keeps the full address);
 * Priority holds bits [7:4] of the 8-bit priority.
 *
 * @param opcode Any value.
 * @param n      Optional; receives the number of fields (0 for an unknown
 *               opcode).
 * @return A static array of @p *n entries; NULL for an unknown opcode.
 *
 * Thread-safety: pure. Spec: IHI 0069H §5.3 (each command's format).
 */
const struct virq_its_field_pos *virq_its_cmd_layout(enum virq_its_opcode opcode, size_t *n);

/**
 * @brief The RES0 bits of doubleword @p dw of a command: every bit no field
 * of virq_its_cmd_layout() covers.
 *
 * The encoder writes them as zero; a command read from memory with any of
 * them set is not one the architecture defines (virq_its_cmd_res0()).
 * GICv4.1-only fields (Alloc, PTZ, VCONF_addr, Default_Doorbell, DB) are
 * fields here, RES0 only on a GICv4.0 ITS.
 *
 * @param opcode Any value.
 * @param dw     Doubleword, 0..3.
 * @return The mask; 0 for an unknown opcode or @p dw > 3.
 *
 * Thread-safety: pure. Spec: IHI 0069H §5.3 (RES0 in each command's format).
 */
uint64_t virq_its_cmd_res0_mask(enum virq_its_opcode opcode, unsigned dw);

/**
 * @brief The RES0 bits that are set in 32 command bytes (what
 * virq_its_cmd_decode() ignores).
 *
 * @param in  32 bytes, four little-endian doublewords.
 * @param set Receives, per doubleword, the bits set that the command
 *            reserves (all zero: a well-formed command).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL argument); ::LIBVIRQ_EUNKNOWN
 *         when DW0[7:0] is not an ITS command (@p set not written).
 *
 * Thread-safety: pure. Spec: IHI 0069H §5.3 (RES0 in each command's format).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_cmd_res0(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE],
						 uint64_t set[4]);

/**
 * @brief Reads a field of a description generically (see file doc for units).
 *
 * @param cmd   The description; must not be NULL.
 * @param field Any ::virq_its_field; ::LIBVIRQ_ITS_F_opcode gives the opcode.
 * @return The value; 0 for ::LIBVIRQ_ITS_F_NONE or an invalid field.
 *
 * Thread-safety: pure.
 */
uint64_t virq_its_cmd_get(const struct virq_its_cmd *cmd, enum virq_its_field field);

/**
 * @brief Writes a field of a description generically (see file doc for units).
 *
 * @param cmd   The description; must not be NULL.
 * @param field The field (not ::LIBVIRQ_ITS_F_NONE or ::LIBVIRQ_ITS_F_COUNT).
 * @param value The value.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL for an invalid field or NULL @p cmd;
 *         ::LIBVIRQ_ERANGE when @p value does not fit the member (e.g. > 1 for
 *         a flag, >= 2^32 for a 32-bit member); the encoder checks the
 *         field's own width.
 *
 * Thread-safety: reentrant (writes @p cmd only).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_cmd_set(struct virq_its_cmd *cmd, enum virq_its_field field,
						uint64_t value);

/**
 * @brief The spec name of a command, e.g. "VMAPTI".
 *
 * @param opcode Any value.
 * @return A static string; NULL for an unknown opcode.
 *
 * Thread-safety: pure.
 */
const char *virq_its_opcode_name(enum virq_its_opcode opcode);

/**
 * @brief The spec name of a field, e.g. "Dbell_pINTID".
 *
 * @param field Any value.
 * @return A static string; "?" for an invalid field.
 *
 * Thread-safety: pure.
 */
const char *virq_its_field_name(enum virq_its_field field);

/**
 * @brief Converts four host-order doublewords to the 32-byte command layout.
 *
 * @param dw  DW0..DW3 as numbers.
 * @param out Receives 32 bytes, each word little-endian.
 *
 * Thread-safety: pure. Spec: IHI 0069H §5.2 (commands are 32 bytes, four little-endian
 * doublewords).
 */
void virq_its_cmd_from_words(const uint64_t dw[4], uint8_t out[LIBVIRQ_ITS_CMD_SIZE]);

/**
 * @brief Converts the 32-byte command layout to four host-order doublewords.
 *
 * @param in 32 bytes, each word little-endian.
 * @param dw Receives DW0..DW3 as numbers.
 *
 * Thread-safety: pure. Spec: IHI 0069H §5.2 (commands are 32 bytes, four little-endian
 * doublewords).
 */
void virq_its_cmd_to_words(const uint8_t in[LIBVIRQ_ITS_CMD_SIZE], uint64_t dw[4]);

/**
 * @brief RDbase value naming a redistributor by processor number (PTA = 0).
 *
 * @param procnum GICR_TYPER.Processor_Number.
 * @return @p procnum << 16, the [51:16] field in place.
 *
 * Thread-safety: pure.
 */
static inline uint64_t virq_its_rdbase_procnum(uint32_t procnum)
{
	return (uint64_t)procnum << 16;
}

/*
 * ---- Builders: one per command, every field of the command a parameter ----
 *
 * A builder only fills ::virq_its_cmd (every other member zero); nothing is
 * checked or truncated here: the members are wider than their fields and
 * virq_its_cmd_encode() rejects a value that does not fit, naming the field.
 * Builders without a "_cmd" suffix carry the command's name; the suffix is
 * there where that name is a device function already (virq_its_int() ...)
 * or a type (::virq_its_sync).
 */

/**
 * @cond LIBVIRQ_INTERNAL
 * Initialiser of a command with @p op and every other field zero. C uses a
 * designated initialiser; C++ (whose designated initialisers are C++20-only
 * and warn about the omitted members) value-initialises and then sets the
 * opcode.
 */
#ifdef __cplusplus
static inline struct virq_its_cmd virq_its_cmd_init_(enum virq_its_opcode op)
{
	struct virq_its_cmd c = {};

	c.opcode = op;
	return c;
}
#define LIBVIRQ_ITS_CMD_INIT_(op) virq_its_cmd_init_(op)
#else
#define LIBVIRQ_ITS_CMD_INIT_(op)                                                                  \
	{                                                                                          \
		.opcode = (op)                                                                     \
	}
#endif
/** @endcond */

/**
 * @brief MOVI: move event @p ev of device @p dev to collection @p icid.
 * @param dev DeviceID. @param ev EventID. @param icid ICID of the new collection.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, MOVI.
 */
static inline struct virq_its_cmd virq_its_movi(uint32_t dev, uint32_t ev, uint32_t icid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_MOVI);

	c.DeviceID = dev;
	c.EventID = ev;
	c.ICID = icid;
	return c;
}

/**
 * @brief INT: make the interrupt of event @p ev of device @p dev pending.
 * @param dev DeviceID. @param ev EventID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, INT.
 */
static inline struct virq_its_cmd virq_its_int_cmd(uint32_t dev, uint32_t ev)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_INT);

	c.DeviceID = dev;
	c.EventID = ev;
	return c;
}

/**
 * @brief CLEAR: clear the pending interrupt of event @p ev of device @p dev.
 * @param dev DeviceID. @param ev EventID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, CLEAR.
 */
static inline struct virq_its_cmd virq_its_clear_cmd(uint32_t dev, uint32_t ev)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_CLEAR);

	c.DeviceID = dev;
	c.EventID = ev;
	return c;
}

/**
 * @brief SYNC to redistributor @p rdbase.
 * @param rdbase RDbase (see file doc).
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, SYNC.
 */
static inline struct virq_its_cmd virq_its_sync_cmd(uint64_t rdbase)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_SYNC);

	c.RDbase = rdbase;
	return c;
}

/**
 * @brief MAPD: map (@p V) DeviceID @p dev to an ITT at @p itt with 2^(@p size+1) events.
 * @param dev DeviceID. @param size EventID bits minus one. @param itt ITT PA (256 B aligned).
 * @param V Map (true) or unmap.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, MAPD.
 */
static inline struct virq_its_cmd virq_its_mapd(uint32_t dev, uint32_t size, uint64_t itt, bool V)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_MAPD);

	c.DeviceID = dev;
	c.Size = size;
	c.ITT_addr = itt;
	c.V = V;
	return c;
}

/**
 * @brief MAPC: map (@p V) collection @p icid to redistributor @p rdbase.
 * @param icid ICID. @param rdbase RDbase (see file doc). @param V Map or unmap.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, MAPC.
 */
static inline struct virq_its_cmd virq_its_mapc(uint32_t icid, uint64_t rdbase, bool V)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_MAPC);

	c.ICID = icid;
	c.RDbase = rdbase;
	c.V = V;
	return c;
}

/**
 * @brief MAPTI: map event @p ev of device @p dev to LPI @p pintid in collection @p icid.
 * @param dev DeviceID. @param ev EventID. @param pintid LPI INTID. @param icid ICID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, MAPTI.
 */
static inline struct virq_its_cmd virq_its_mapti(uint32_t dev, uint32_t ev, uint32_t pintid,
						 uint32_t icid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_MAPTI);

	c.DeviceID = dev;
	c.EventID = ev;
	c.pINTID = pintid;
	c.ICID = icid;
	return c;
}

/**
 * @brief MAPI: map event @p ev of device @p dev to LPI @p ev in collection @p icid.
 * @param dev DeviceID. @param ev EventID, also the LPI INTID. @param icid ICID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, MAPI.
 */
static inline struct virq_its_cmd virq_its_mapi(uint32_t dev, uint32_t ev, uint32_t icid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_MAPI);

	c.DeviceID = dev;
	c.EventID = ev;
	c.ICID = icid;
	return c;
}

/**
 * @brief INV: re-read the configuration of the LPI of event @p ev of device @p dev.
 * @param dev DeviceID. @param ev EventID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, INV.
 */
static inline struct virq_its_cmd virq_its_inv_cmd(uint32_t dev, uint32_t ev)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_INV);

	c.DeviceID = dev;
	c.EventID = ev;
	return c;
}

/**
 * @brief INVALL: re-read the configuration of every LPI of collection @p icid.
 * @param icid ICID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, INVALL.
 */
static inline struct virq_its_cmd virq_its_invall(uint32_t icid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_INVALL);

	c.ICID = icid;
	return c;
}

/**
 * @brief MOVALL: move every pending LPI of redistributor @p rdbase1 to @p rdbase2.
 * @param rdbase1 RDbase1, the source (see file doc). @param rdbase2 RDbase2, the target.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, MOVALL.
 */
static inline struct virq_its_cmd virq_its_movall(uint64_t rdbase1, uint64_t rdbase2)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_MOVALL);

	c.RDbase1 = rdbase1;
	c.RDbase2 = rdbase2;
	return c;
}

/**
 * @brief DISCARD: unmap event @p ev of device @p dev and drop its pending state.
 * @param dev DeviceID. @param ev EventID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, DISCARD.
 */
static inline struct virq_its_cmd virq_its_discard(uint32_t dev, uint32_t ev)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_DISCARD);

	c.DeviceID = dev;
	c.EventID = ev;
	return c;
}

/**
 * @brief VMOVI: move the vLPI of event @p ev of device @p dev to vPE @p vpeid.
 * @param dev DeviceID. @param ev EventID. @param vpeid vPEID of the new vPE.
 * @param D Whether @p db is valid (GICv4.0 per-vLPI doorbells).
 * @param db Dbell_pINTID: the new doorbell LPI or ::LIBVIRQ_ITS_NO_DOORBELL.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMOVI.
 */
static inline struct virq_its_cmd virq_its_vmovi(uint32_t dev, uint32_t ev, uint32_t vpeid, bool D,
						 uint32_t db)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VMOVI);

	c.DeviceID = dev;
	c.EventID = ev;
	c.vPEID = vpeid;
	c.D = D;
	c.Dbell_pINTID = db;
	return c;
}

/**
 * @brief VMOVP (GICv4.0 fields): move vPE @p vpeid to redistributor @p rdbase.
 * @param vpeid vPEID. @param rdbase RDbase of the new redistributor (see file doc).
 * @param seq SequenceNumber (only with GITS_TYPER.VMOVP = 0, else 0).
 * @param itslist ITSList (likewise).
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMOVP.
 */
static inline struct virq_its_cmd virq_its_vmovp(uint32_t vpeid, uint64_t rdbase, uint32_t seq,
						 uint32_t itslist)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VMOVP);

	c.SequenceNumber = seq;
	c.ITSList = itslist;
	c.vPEID = vpeid;
	c.RDbase = rdbase;
	return c;
}

/**
 * @brief VMOVP with the GICv4.1 fields: virq_its_vmovp() and, when @p DB,
 * the vPE's new default doorbell @p default_db.
 * @param vpeid vPEID. @param rdbase RDbase. @param seq SequenceNumber.
 * @param itslist ITSList. @param DB Default_Doorbell is valid.
 * @param default_db Default_Doorbell: an LPI or ::LIBVIRQ_ITS_NO_DOORBELL (0 when !DB).
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMOVP.
 */
static inline struct virq_its_cmd virq_its_vmovp_v41(uint32_t vpeid, uint64_t rdbase, uint32_t seq,
						     uint32_t itslist, bool DB, uint32_t default_db)
{
	struct virq_its_cmd c = virq_its_vmovp(vpeid, rdbase, seq, itslist);

	c.DB = DB;
	c.Default_Doorbell = default_db;
	return c;
}

/**
 * @brief VSGI (GICv4.1): configure vSGI @p vintid of vPE @p vpeid, or clear its pending state.
 * @param vpeid vPEID. @param vintid vINTID, the vSGI number 0..15.
 * @param priority The 8-bit priority, a multiple of 16 (bits [7:4] are encoded).
 * @param group Group: group 1 (true) or group 0. @param enable Enable.
 * @param clear Clear: clear the pending state instead (then the rest 0).
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VSGI.
 */
static inline struct virq_its_cmd virq_its_vsgi(uint32_t vpeid, uint32_t vintid, uint32_t priority,
						bool group, bool enable, bool clear)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VSGI);

	c.Enable = enable;
	c.Clear = clear;
	c.Group = group;
	c.Priority = priority;
	c.vINTID = vintid;
	c.vPEID = vpeid;
	return c;
}

/**
 * @brief VSYNC to vPE @p vpeid.
 * @param vpeid vPEID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VSYNC.
 */
static inline struct virq_its_cmd virq_its_vsync_cmd(uint32_t vpeid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VSYNC);

	c.vPEID = vpeid;
	return c;
}

/**
 * @brief VMAPP (GICv4.0 fields): map (@p V) or unmap vPE @p vpeid.
 * @param vpeid vPEID. @param rdbase RDbase of its redistributor (see file doc).
 * @param vpt VPT_addr: the vLPI pending table PA, 64 KiB aligned.
 * @param vpt_size VPT_size: vINTID bits minus one, 0..31. @param V Map or unmap.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMAPP.
 */
static inline struct virq_its_cmd virq_its_vmapp(uint32_t vpeid, uint64_t rdbase, uint64_t vpt,
						 uint32_t vpt_size, bool V)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VMAPP);

	c.vPEID = vpeid;
	c.RDbase = rdbase;
	c.V = V;
	c.VPT_size = vpt_size;
	c.VPT_addr = vpt;
	return c;
}

/**
 * @brief VMAPP with the GICv4.1 fields: virq_its_vmapp() and Alloc, PTZ,
 * VCONF_addr, Default_Doorbell.
 * @param vpeid vPEID. @param rdbase RDbase. @param vpt VPT_addr.
 * @param vpt_size VPT_size. @param V Map or unmap.
 * @param alloc Alloc: first map or last unmap of the vPE on any ITS.
 * @param ptz PTZ: the pending table is known to be zero.
 * @param vconf VCONF_addr: the vLPI configuration table PA, 64 KiB aligned.
 * @param default_db Default_Doorbell: an LPI or ::LIBVIRQ_ITS_NO_DOORBELL (0 on unmap).
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMAPP.
 */
static inline struct virq_its_cmd virq_its_vmapp_v41(uint32_t vpeid, uint64_t rdbase, uint64_t vpt,
						     uint32_t vpt_size, bool V, bool alloc,
						     bool ptz, uint64_t vconf, uint32_t default_db)
{
	struct virq_its_cmd c = virq_its_vmapp(vpeid, rdbase, vpt, vpt_size, V);

	c.Alloc = alloc;
	c.PTZ = ptz;
	c.VCONF_addr = vconf;
	c.Default_Doorbell = default_db;
	return c;
}

/**
 * @brief VMAPTI: map event @p ev of @p dev to vINTID @p vintid of vPE @p vpeid.
 * @param dev DeviceID. @param ev EventID. @param vpeid vPEID. @param vintid vLPI INTID.
 * @param db Doorbell LPI, or ::LIBVIRQ_ITS_NO_DOORBELL.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMAPTI.
 */
static inline struct virq_its_cmd virq_its_vmapti(uint32_t dev, uint32_t ev, uint32_t vpeid,
						  uint32_t vintid, uint32_t db)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VMAPTI);

	c.DeviceID = dev;
	c.EventID = ev;
	c.vPEID = vpeid;
	c.vINTID = vintid;
	c.Dbell_pINTID = db;
	return c;
}

/**
 * @brief VMAPI: map event @p ev of @p dev to vINTID @p ev of vPE @p vpeid.
 * @param dev DeviceID. @param ev EventID, also the vINTID. @param vpeid vPEID.
 * @param db Doorbell LPI, or ::LIBVIRQ_ITS_NO_DOORBELL.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VMAPI.
 */
static inline struct virq_its_cmd virq_its_vmapi(uint32_t dev, uint32_t ev, uint32_t vpeid,
						 uint32_t db)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VMAPI);

	c.DeviceID = dev;
	c.EventID = ev;
	c.vPEID = vpeid;
	c.Dbell_pINTID = db;
	return c;
}

/**
 * @brief VINVALL: re-read the configuration of every vLPI of vPE @p vpeid.
 * @param vpeid vPEID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, VINVALL.
 */
static inline struct virq_its_cmd virq_its_vinvall(uint32_t vpeid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_VINVALL);

	c.vPEID = vpeid;
	return c;
}

/**
 * @brief INVDB (GICv4.1): re-read the doorbell configuration of vPE @p vpeid.
 * @param vpeid vPEID.
 * @return The description. Thread-safety: pure. Spec: IHI 0069H §5.3, INVDB.
 */
static inline struct virq_its_cmd virq_its_invdb(uint32_t vpeid)
{
	struct virq_its_cmd c = LIBVIRQ_ITS_CMD_INIT_(LIBVIRQ_ITS_INVDB);

	c.vPEID = vpeid;
	return c;
}

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_ITS_CMD_H */
