/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief GICv3/v4 ITS register offsets and fields, and the memory-attribute
 * encodings shared by GITS_CBASER, GITS_BASER\<n\>, GICR_PROPBASER and
 * GICR_PENDBASER.
 *
 * Offsets are relative to the ITS control frame (ITS_base). Fields use the
 * architecture manual's [hi:lo] notation (see bitfield.h):
 * @code
 * uint64_t typer = ...;
 * unsigned devbits = (unsigned)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_Devbits, typer) + 1;
 * @endcode
 *
 * Spec: Arm IHI 0069H (GICv3/v4), chapter 12 "ITS registers" (GITS_CTLR
 * §12.19.1, GITS_TYPER, GITS_CBASER, GITS_CWRITER, GITS_CREADR,
 * GITS_BASER\<n\>). Bit positions restated from the illumos gic_reg.h and
 * Linux arm-gic-v3.h constants; not yet checked against the PDF itself.
 *
 * Thread-safety: constants and pure functions only.
 */
#ifndef LIBVIRQ_GICV4_ITS_REGS_H
#define LIBVIRQ_GICV4_ITS_REGS_H

#include "../virq_env.h"
#include "../status.h"
#include "../bitfield.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/** @name ITS register offsets (bytes from ITS_base)
 *  @{ */
#define LIBVIRQ_GITS_CTLR 0x0000u    /**< GITS_CTLR, 32-bit. */
#define LIBVIRQ_GITS_IIDR 0x0004u    /**< GITS_IIDR, 32-bit. */
#define LIBVIRQ_GITS_TYPER 0x0008u   /**< GITS_TYPER, 64-bit. */
#define LIBVIRQ_GITS_MPAMIDR 0x0010u /**< GITS_MPAMIDR, 32-bit. */
#define LIBVIRQ_GITS_PARTIDR 0x0014u /**< GITS_PARTIDR, 32-bit. */
#define LIBVIRQ_GITS_MPIDR 0x0018u   /**< GITS_MPIDR, 32-bit (GICv4.1). */
#define LIBVIRQ_GITS_STATUSR 0x0040u /**< GITS_STATUSR, 32-bit. */
#define LIBVIRQ_GITS_UMSIR 0x0048u   /**< GITS_UMSIR, 64-bit. */
#define LIBVIRQ_GITS_CBASER 0x0080u  /**< GITS_CBASER, 64-bit. */
#define LIBVIRQ_GITS_CWRITER 0x0088u /**< GITS_CWRITER, 64-bit. */
#define LIBVIRQ_GITS_CREADR 0x0090u  /**< GITS_CREADR, 64-bit (low half holds every field). */
/** GITS_BASER\<n\>, n = 0..7, 64-bit. */
#define LIBVIRQ_GITS_BASER(n) (0x0100u + 8u * (unsigned)(n))
#define LIBVIRQ_GITS_BASER_COUNT 8u /**< Number of GITS_BASER\<n\> registers. */
#define LIBVIRQ_GITS_PIDR2 0xFFE8u  /**< GITS_PIDR2 (architecture revision), 32-bit. */
/** GITS_TRANSLATER: in the translation frame (ITS_base + 64 KiB), 32-bit; the MSI target. */
#define LIBVIRQ_GITS_TRANSLATER 0x10040u
/** GITS_SGIR: in the vSGI frame (ITS_base + 128 KiB), 64-bit; only when GITS_TYPER.VSGI. */
#define LIBVIRQ_GITS_SGIR 0x20020u
/** @} */

/* ---------------------------------------------------------------------- */
/** @name GITS_CTLR fields
 *  @{ */
#define LIBVIRQ_GITS_CTLR_Enabled 0, 0 /**< Command processing and translation enabled. */
/** ImDe; Linux sets it when enabling a v4 ITS (meaning [UNCERTAIN],
 *  @ref gic-gits-ctlr-imde). */
#define LIBVIRQ_GITS_CTLR_ImDe 1, 1
#define LIBVIRQ_GITS_CTLR_ITS_Number 7, 4  /**< This ITS's number in a VMOVP ITSList. */
#define LIBVIRQ_GITS_CTLR_UMSIirq 8, 8	   /**< UMSI interrupt enable. */
#define LIBVIRQ_GITS_CTLR_Quiescent 31, 31 /**< RO: no outstanding ITS operations. */
/** @} */

/** @name GITS_IIDR fields
 *  @{ */
#define LIBVIRQ_GITS_IIDR_Implementer 11, 0 /**< JEP106 implementer code. */
#define LIBVIRQ_GITS_IIDR_Revision 15, 12   /**< Revision. */
#define LIBVIRQ_GITS_IIDR_Variant 19, 16    /**< Variant. */
#define LIBVIRQ_GITS_IIDR_ProductID 31, 24  /**< Product identifier. */
/** @} */

/** @name GITS_TYPER fields
 *  @{ */
#define LIBVIRQ_GITS_TYPER_Physical 0, 0       /**< Physical LPIs supported. */
#define LIBVIRQ_GITS_TYPER_Virtual 1, 1	       /**< Virtual LPIs supported (GICv4). */
#define LIBVIRQ_GITS_TYPER_CCT 2, 2	       /**< Cumulative collection tables. */
#define LIBVIRQ_GITS_TYPER_ITT_entry_size 7, 4 /**< Bytes per ITT entry, minus one. */
#define LIBVIRQ_GITS_TYPER_ID_bits 12, 8       /**< EventID bits, minus one. */
#define LIBVIRQ_GITS_TYPER_Devbits 17, 13      /**< DeviceID bits, minus one. */
#define LIBVIRQ_GITS_TYPER_SEIS 18, 18	       /**< Errors may be reported as SError. */
#define LIBVIRQ_GITS_TYPER_PTA 19, 19	       /**< 1: RDbase is a PA; 0: a processor number. */
#define LIBVIRQ_GITS_TYPER_HCC 31, 24	       /**< Hardware collections (no memory table). */
#define LIBVIRQ_GITS_TYPER_CIDbits 35, 32      /**< Collection ID bits minus one; valid if CIL. */
#define LIBVIRQ_GITS_TYPER_CIL 36, 36	       /**< 0: collection IDs are 16 bits. */
#define LIBVIRQ_GITS_TYPER_VMOVP 37, 37	       /**< One VMOVP to any ITS suffices. */
#define LIBVIRQ_GITS_TYPER_MPAM 38, 38	       /**< MPAM supported. */
#define LIBVIRQ_GITS_TYPER_VSGI 39, 39	       /**< GICv4.1 vSGI frame and VSGI command. */
#define LIBVIRQ_GITS_TYPER_VMAPP 40, 40	       /**< GICv4.1 ITS (4.1 VMAPP layout). */
#define LIBVIRQ_GITS_TYPER_SVPET 42, 41	       /**< GICv4.1 shared vPE table affinity. */
#define LIBVIRQ_GITS_TYPER_nID 43, 43	       /**< Individual doorbells not supported. */
#define LIBVIRQ_GITS_TYPER_UMSI 44, 44	       /**< Unmapped MSI reporting. */
#define LIBVIRQ_GITS_TYPER_UMSIirq 45, 45      /**< Unmapped MSI interrupt. */
#define LIBVIRQ_GITS_TYPER_INV 46, 46	       /**< Direct invalidation supported. */
/** @} */

/** @name GITS_CBASER fields
 *  @{ */
#define LIBVIRQ_GITS_CBASER_Valid 63, 63	    /**< Queue valid. */
#define LIBVIRQ_GITS_CBASER_InnerCache 61, 59	    /**< Inner cacheability (::virq_gic_cache). */
#define LIBVIRQ_GITS_CBASER_OuterCache 55, 53	    /**< Outer cacheability (::virq_gic_cache). */
#define LIBVIRQ_GITS_CBASER_Physical_Address 51, 12 /**< PA[51:12] of the queue, in place. */
#define LIBVIRQ_GITS_CBASER_Shareability 11, 10	    /**< Shareability (::virq_gic_shareability). */
#define LIBVIRQ_GITS_CBASER_Size 7, 0		    /**< Number of 4 KiB pages minus one. */
/** Largest queue GITS_CBASER can describe: 256 pages of 4 KiB (1 MiB). */
#define LIBVIRQ_GITS_CBASER_MAX_BYTES (256u * 4096u)
/** @} */

/** @name GITS_CWRITER and GITS_CREADR fields
 *  @{ */
#define LIBVIRQ_GITS_CWRITER_Offset 19, 5 /**< Byte offset of the next free slot, in place. */
#define LIBVIRQ_GITS_CWRITER_Retry 0, 0	  /**< Write 1: restart a stalled queue. */
#define LIBVIRQ_GITS_CREADR_Offset 19, 5  /**< Byte offset of the next command to process. */
#define LIBVIRQ_GITS_CREADR_Stalled 0, 0  /**< RO: processing stopped on a command error. */
/** @} */

/** @name GITS_BASER\<n\> fields
 *  @{ */
#define LIBVIRQ_GITS_BASER_Valid 63, 63	     /**< Table valid. */
#define LIBVIRQ_GITS_BASER_Indirect 62, 62   /**< Two-level table (RAZ/WI if unsupported). */
#define LIBVIRQ_GITS_BASER_InnerCache 61, 59 /**< Inner cacheability (::virq_gic_cache). */
#define LIBVIRQ_GITS_BASER_Type 58, 56	     /**< RO table type (::virq_gits_baser_type). */
#define LIBVIRQ_GITS_BASER_OuterCache 55, 53 /**< Outer cacheability (::virq_gic_cache). */
#define LIBVIRQ_GITS_BASER_Entry_Size 52, 48 /**< RO bytes per entry, minus one. */
/** PA[47:12] in place (4 KiB and 16 KiB pages; 64 KiB pages use [47:16] plus [15:12]). */
#define LIBVIRQ_GITS_BASER_Physical_Address 47, 12
/** With 64 KiB pages: PA[51:48] held in bits [15:12]. */
#define LIBVIRQ_GITS_BASER_Physical_Address_51_48 15, 12
#define LIBVIRQ_GITS_BASER_Shareability 11, 10 /**< Shareability (::virq_gic_shareability). */
#define LIBVIRQ_GITS_BASER_Page_Size 9, 8      /**< ::virq_gits_baser_page_size. */
#define LIBVIRQ_GITS_BASER_Size 7, 0	       /**< Number of pages minus one. */
/** @} */

/** @brief GITS_BASER\<n\>.Type values (IHI 0069H GITS_BASER\<n\>). */
enum virq_gits_baser_type {
	LIBVIRQ_GITS_BASER_TYPE_NONE = 0,	 /**< Unimplemented. */
	LIBVIRQ_GITS_BASER_TYPE_DEVICES = 1,	 /**< Device table. */
	LIBVIRQ_GITS_BASER_TYPE_VPES = 2,	 /**< vPE table. */
	LIBVIRQ_GITS_BASER_TYPE_COLLECTIONS = 4, /**< Collection table. */
};

/** @brief GITS_BASER\<n\>.Page_Size values. */
enum virq_gits_baser_page_size {
	LIBVIRQ_GITS_BASER_PAGE_4K = 0,	 /**< 4 KiB pages. */
	LIBVIRQ_GITS_BASER_PAGE_16K = 1, /**< 16 KiB pages. */
	LIBVIRQ_GITS_BASER_PAGE_64K = 2, /**< 64 KiB pages (3 is reserved). */
};

/** @name GITS_PIDR2, GITS_STATUSR, GITS_UMSIR, GITS_MPIDR, GITS_SGIR fields
 *  @{ */
#define LIBVIRQ_GITS_PIDR2_ArchRev 7, 4	   /**< 0x3 = GICv3, 0x4 = GICv4. */
#define LIBVIRQ_GITS_STATUSR_Syndrome 9, 6 /**< Error syndrome. */
#define LIBVIRQ_GITS_STATUSR_Overflow 5, 5 /**< Error overflow. */
#define LIBVIRQ_GITS_STATUSR_UMSI 4, 4	   /**< Unmapped MSI. */
#define LIBVIRQ_GITS_STATUSR_WROD 3, 3	   /**< Write to an other-world (ownership) region. */
#define LIBVIRQ_GITS_STATUSR_RWOD 2, 2	   /**< Read of an other-world region. */
#define LIBVIRQ_GITS_STATUSR_WRD 1, 1	   /**< Write to a reserved/unimplemented register. */
#define LIBVIRQ_GITS_STATUSR_RRD 0, 0	   /**< Read of a reserved/unimplemented register. */
#define LIBVIRQ_GITS_UMSIR_DeviceID 63, 32 /**< DeviceID of the unmapped MSI. */
#define LIBVIRQ_GITS_UMSIR_EventID 31, 0   /**< EventID of the unmapped MSI. */
#define LIBVIRQ_GITS_MPIDR_Aff3 31, 24	   /**< Affinity level 3. */
#define LIBVIRQ_GITS_MPIDR_Aff2 23, 16	   /**< Affinity level 2. */
#define LIBVIRQ_GITS_MPIDR_Aff1 15, 8	   /**< Affinity level 1. */
#define LIBVIRQ_GITS_SGIR_vPEID 47, 32	   /**< Target vPE. */
#define LIBVIRQ_GITS_SGIR_vINTID 3, 0	   /**< vSGI number 0..15. */
/** @} */

/* ---------------------------------------------------------------------- */
/**
 * @brief Cacheability encodings of the InnerCache / OuterCache fields of
 * GITS_CBASER, GITS_BASER\<n\>, GICR_PROPBASER, GICR_PENDBASER and
 * GICR_VPROPBASER (IHI 0069H; Linux GIC_BASER_CACHE_*).
 */
enum virq_gic_cache {
	/** InnerCache: Device-nGnRnE; OuterCache: same as the inner attribute. */
	LIBVIRQ_GIC_CACHE_DnGnRnE = 0,
	LIBVIRQ_GIC_CACHE_SAME_AS_INNER = 0, /**< OuterCache only: use the inner attribute. */
	LIBVIRQ_GIC_CACHE_nC = 1,	     /**< Normal non-cacheable. */
	LIBVIRQ_GIC_CACHE_RaWt = 2,	     /**< Read-allocate, write-through. */
	LIBVIRQ_GIC_CACHE_RaWb = 3,	     /**< Read-allocate, write-back. */
	LIBVIRQ_GIC_CACHE_WaWt = 4,	     /**< Write-allocate, write-through. */
	LIBVIRQ_GIC_CACHE_WaWb = 5,	     /**< Write-allocate, write-back. */
	LIBVIRQ_GIC_CACHE_RaWaWt = 6,	     /**< Read- and write-allocate, write-through. */
	LIBVIRQ_GIC_CACHE_RaWaWb = 7,	     /**< Read- and write-allocate, write-back. */
};

/** @brief Shareability encodings of the Shareability fields (same registers). */
enum virq_gic_shareability {
	LIBVIRQ_GIC_SH_NONE = 0,  /**< Non-shareable: the GIC does not snoop CPU caches. */
	LIBVIRQ_GIC_SH_INNER = 1, /**< Inner shareable (what libvirq asks for). */
	LIBVIRQ_GIC_SH_OUTER = 2, /**< Outer shareable. */
};

/** @brief InnerCache libvirq writes first in the negotiation (Linux and Xen do the same). */
#define LIBVIRQ_GIC_WANT_INNER_CACHE LIBVIRQ_GIC_CACHE_RaWaWb
/** @brief Shareability libvirq writes first in the negotiation. */
#define LIBVIRQ_GIC_WANT_SHAREABILITY LIBVIRQ_GIC_SH_INNER

/**
 * @brief Whether memory described by read-back attributes must be cleaned
 * to the point of coherency before the GIC reads it.
 *
 * The attributes are the values that stuck after "write wanted, read back"
 * (the decoded fields, not the shifted register bits — Xen once compared
 * shifted masks with unshifted values, fixed by Xen 49e0ce5b34). Cleaning is needed
 * when the GIC does not snoop the CPU caches:
 * - @p inner_cache is ::LIBVIRQ_GIC_CACHE_DnGnRnE (0b000) or
 *   ::LIBVIRQ_GIC_CACHE_nC (0b001, Normal Inner non-cacheable: Xen once
 *   missed this one);
 * - @p shareability is ::LIBVIRQ_GIC_SH_NONE.
 *
 * @param inner_cache  Decoded InnerCache field, 0..7 (larger values are
 *                     treated as "needs cleaning").
 * @param shareability Decoded Shareability field, 0..3.
 * @return true when software must clean written data to PoC.
 *
 * Spec: IHI 0069H GITS_CBASER / GITS_BASER\<n\> / GICR_PROPBASER fields;
 * @ref gic-table-attributes. Thread-safety: pure.
 */
bool virq_gic_attr_needs_clean(uint64_t inner_cache, uint64_t shareability);

/**
 * @brief Encodes a GITS_SGIR value (GICv4.1 direct vSGI): vPEID [47:32],
 * vINTID [3:0], every other bit RES0.
 *
 * A value wider than its field is rejected, never masked: a vINTID of 16
 * would otherwise become vSGI 0 of the vPE.
 *
 * @param vpeid  vPEID, 0 .. 0xFFFF.
 * @param vintid vSGI number, 0 .. 15.
 * @param out    Receives the 64-bit value to write to GITS_SGIR.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_ERANGE (@p vpeid > 0xFFFF or @p vintid > 15;
 *         @p out not written); ::LIBVIRQ_EINVAL (NULL @p out).
 *
 * Spec: IHI 0069H §12.19 GITS_SGIR. Thread-safety: pure.
 */
LIBVIRQ_MUST_CHECK virq_status virq_gits_sgir_encode(uint32_t vpeid, uint32_t vintid,
						     uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_ITS_REGS_H */
