/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief Distributor (GICD_*) and redistributor (GICR_*) registers used by
 * libvirq's GICv4 module: offsets and fields in the spec's [hi:lo] notation.
 *
 * Source: Arm IHI 0069H (GICv3/v4 architecture specification), chapter 12
 * (§12.9 GICD_*, §12.10/12.11 GICR_*). Memory attribute encodings (InnerCache,
 * Shareability) are the ::virq_gic_cache / ::virq_gic_shareability enums of
 * gicv4/its_regs.h, shared with the ITS registers. Field macros expand to "hi, lo" and are used
 * with the helpers of bitfield.h. Thread-safety: constants only.
 */
#ifndef LIBVIRQ_GICV4_GIC_REGS_H
#define LIBVIRQ_GICV4_GIC_REGS_H

#include "../bitfield.h"

/* ------------------------------------------------------------------ */
/** @name Distributor (GICD), offsets from GICD base (IHI 0069H §12.9) */
/** @{ */
#define LIBVIRQ_GICD_CTLR 0x0000u   /**< Distributor Control Register (32). */
#define LIBVIRQ_GICD_TYPER 0x0004u  /**< Interrupt Controller Type Register (32). */
#define LIBVIRQ_GICD_TYPER2 0x000Cu /**< Type Register 2 (32, GICv4.1). */
#define LIBVIRQ_GICD_PIDR2 0xFFE8u  /**< Peripheral ID2 (32): ArchRev. */
/** Size of one GIC register frame (GICD, each GICR frame, the ITS control
 * frame): 64 KiB, the ID registers at 0xFFD0 - 0xFFFC included. The least
 * region virq_gic_init() accepts for the GICD and virq_its_init() for an ITS. */
#define LIBVIRQ_GIC_FRAME_SIZE 0x10000u

/** GICD_CTLR.RWP: register write pending (both security views). */
#define LIBVIRQ_GICD_CTLR_RWP 31, 31
/** GICD_CTLR.ARE (ARE_NS in the Non-secure view). */
#define LIBVIRQ_GICD_CTLR_ARE 4, 4
/** GICD_CTLR.DS: security disabled (RO in the Non-secure view). */
#define LIBVIRQ_GICD_CTLR_DS 6, 6
/** GICD_CTLR.EnableGrp1A (DS=0 NS view) / EnableGrp1 (DS=1). */
#define LIBVIRQ_GICD_CTLR_EnableGrp1 1, 1
/** GICD_CTLR.EnableGrp0 (DS=1) / EnableGrp1 (DS=0 NS view). */
#define LIBVIRQ_GICD_CTLR_EnableGrp0 0, 0

#define LIBVIRQ_GICD_TYPER_IDbits 23, 19   /**< GICD_TYPER.IDbits: INTID bits - 1. */
#define LIBVIRQ_GICD_TYPER_DVIS 18, 18	   /**< GICD_TYPER.DVIS: direct vLPI injection (GICv4). */
#define LIBVIRQ_GICD_TYPER_LPIS 17, 17	   /**< GICD_TYPER.LPIS: LPIs supported. */
#define LIBVIRQ_GICD_TYPER_num_LPIs 15, 11 /**< GICD_TYPER.num_LPIs. */
#define LIBVIRQ_GICD_TYPER2_VID 4, 0	   /**< GICD_TYPER2.VID: vPEID bits - 1 (if VIL). */
#define LIBVIRQ_GICD_TYPER2_VIL 7, 7	   /**< GICD_TYPER2.VIL: VID is valid. */
#define LIBVIRQ_GIC_PIDR2_ArchRev 7, 4	   /**< PIDR2.ArchRev (GICD/GICR/GITS): 3 or 4. */
/** @} */

/* ------------------------------------------------------------------ */
/** @name Redistributor RD_base frame (IHI 0069H §12.10) */
/** @{ */
#define LIBVIRQ_GICR_CTLR 0x0000u      /**< Redistributor Control Register (32). */
#define LIBVIRQ_GICR_IIDR 0x0004u      /**< Implementer Identification (32). */
#define LIBVIRQ_GICR_TYPER 0x0008u     /**< Redistributor Type Register (64). */
#define LIBVIRQ_GICR_WAKER 0x0014u     /**< Redistributor Wake Register (32). */
#define LIBVIRQ_GICR_SETLPIR 0x0040u   /**< Set LPI Pending (64, DirectLPI). */
#define LIBVIRQ_GICR_CLRLPIR 0x0048u   /**< Clear LPI Pending (64, DirectLPI). */
#define LIBVIRQ_GICR_PROPBASER 0x0070u /**< LPI Configuration table base (64). */
#define LIBVIRQ_GICR_PENDBASER 0x0078u /**< LPI Pending table base (64). */
#define LIBVIRQ_GICR_INVLPIR 0x00A0u   /**< Invalidate LPI (64, DirectLPI). */
#define LIBVIRQ_GICR_INVALLR 0x00B0u   /**< Invalidate all LPIs (64, DirectLPI). */
#define LIBVIRQ_GICR_SYNCR 0x00C0u     /**< Redistributor Synchronize (32). */
#define LIBVIRQ_GICR_PIDR2 0xFFE8u     /**< Peripheral ID2 (32). */
/** Offset of the VLPI_base frame from RD_base (GICv4). */
#define LIBVIRQ_GICR_VLPI_FRAME 0x20000u
/** GICR_VPROPBASER: VLPI_base + 0x70 (64). */
#define LIBVIRQ_GICR_VPROPBASER (LIBVIRQ_GICR_VLPI_FRAME + 0x70u)
/** GICR_VPENDBASER: VLPI_base + 0x78 (64). */
#define LIBVIRQ_GICR_VPENDBASER (LIBVIRQ_GICR_VLPI_FRAME + 0x78u)
/** Redistributor frame stride without VLPI frames (GICv3). */
#define LIBVIRQ_GICR_STRIDE_V3 0x20000u
/** Redistributor frame stride with VLPI_base + reserved frame (GICv4). */
#define LIBVIRQ_GICR_STRIDE_V4 0x40000u

#define LIBVIRQ_GICR_CTLR_EnableLPIs 0, 0 /**< GICR_CTLR.EnableLPIs. */
#define LIBVIRQ_GICR_CTLR_IR 2, 2	  /**< GICR_CTLR.IR: INVLPIR/INVALLR implemented. */
/** GICR_CTLR.RWP (bit 3, not 31: @ref gic-rd-bringup-order). */
#define LIBVIRQ_GICR_CTLR_RWP 3, 3
#define LIBVIRQ_GICR_CTLR_UWP 31, 31 /**< GICR_CTLR.UWP (upstream write pending). */

#define LIBVIRQ_GICR_TYPER_PLPIS 0, 0		  /**< Physical LPIs supported. */
#define LIBVIRQ_GICR_TYPER_VLPIS 1, 1		  /**< Virtual LPIs supported. */
#define LIBVIRQ_GICR_TYPER_Dirty 2, 2		  /**< VPENDBASER.Dirty implemented. */
#define LIBVIRQ_GICR_TYPER_DirectLPI 3, 3	  /**< Direct LPI registers implemented. */
#define LIBVIRQ_GICR_TYPER_Last 4, 4		  /**< Last redistributor of its region. */
#define LIBVIRQ_GICR_TYPER_RVPEID 7, 7		  /**< GICv4.1 vPEID-based VPENDBASER. */
#define LIBVIRQ_GICR_TYPER_Processor_Number 23, 8 /**< Processor number (ITS RDbase if PTA=0). */
#define LIBVIRQ_GICR_TYPER_CommonLPIAff 25, 24	  /**< LPI config sharing scope. */
#define LIBVIRQ_GICR_TYPER_Affinity_Value 63, 32  /**< Aff3:Aff2:Aff1:Aff0. */

#define LIBVIRQ_GICR_WAKER_ProcessorSleep 1, 1 /**< GICR_WAKER.ProcessorSleep. */
#define LIBVIRQ_GICR_WAKER_ChildrenAsleep 2, 2 /**< GICR_WAKER.ChildrenAsleep. */

#define LIBVIRQ_GICR_PROPBASER_IDbits 4, 0	       /**< LPI INTID bits - 1. */
#define LIBVIRQ_GICR_PROPBASER_InnerCache 9, 7	       /**< Inner cacheability. */
#define LIBVIRQ_GICR_PROPBASER_Shareability 11, 10     /**< Shareability. */
#define LIBVIRQ_GICR_PROPBASER_Physical_Address 51, 12 /**< PA[51:12] of the config table. */
#define LIBVIRQ_GICR_PROPBASER_OuterCache 58, 56       /**< Outer cacheability. */

#define LIBVIRQ_GICR_PENDBASER_InnerCache 9, 7	       /**< Inner cacheability. */
#define LIBVIRQ_GICR_PENDBASER_Shareability 11, 10     /**< Shareability. */
#define LIBVIRQ_GICR_PENDBASER_Physical_Address 51, 16 /**< PA[51:16] of the pending table. */
#define LIBVIRQ_GICR_PENDBASER_OuterCache 58, 56       /**< Outer cacheability. */
#define LIBVIRQ_GICR_PENDBASER_PTZ 62, 62	       /**< Pending table is zero. */

#define LIBVIRQ_GICR_SETLPIR_pINTID 31, 0 /**< GICR_SETLPIR: the physical LPI made pending. */
#define LIBVIRQ_GICR_CLRLPIR_pINTID 31, 0 /**< GICR_CLRLPIR: the physical LPI made not pending. */
#define LIBVIRQ_GICR_INVLPIR_INTID 31, 0  /**< INTID (vINTID when V=1). */
#define LIBVIRQ_GICR_INVLPIR_vPEID 47, 32 /**< vPEID (GICv4.1). */
#define LIBVIRQ_GICR_INVLPIR_V 63, 63	  /**< INTID is virtual (GICv4.1). */
#define LIBVIRQ_GICR_INVALLR_vPEID 47, 32 /**< vPEID. */
#define LIBVIRQ_GICR_INVALLR_V 63, 63	  /**< Invalidate a vPE's vLPIs. */
#define LIBVIRQ_GICR_SYNCR_Busy 0, 0	  /**< GICR_SYNCR.Busy. */
/** @} */

/* ------------------------------------------------------------------ */
/** @name GICR_VPROPBASER / GICR_VPENDBASER (IHI 0069H §12.11) */
/** @{ */
#define LIBVIRQ_GICR_VPROPBASER_IDbits 4, 0		/**< 4.0: vINTID bits - 1. */
#define LIBVIRQ_GICR_VPROPBASER_InnerCache 9, 7		/**< 4.0/4.1: inner cacheability. */
#define LIBVIRQ_GICR_VPROPBASER_Shareability 11, 10	/**< 4.0/4.1: shareability. */
#define LIBVIRQ_GICR_VPROPBASER_Physical_Address 51, 12 /**< 4.0/4.1: PA[51:12]. */
#define LIBVIRQ_GICR_VPROPBASER_OuterCache 58, 56	/**< 4.0/4.1 (4.1 inferred, UNCERTAIN). */
#define LIBVIRQ_GICR_VPROPBASER_4_1_Size 6, 0		/**< 4.1: pages - 1. */
#define LIBVIRQ_GICR_VPROPBASER_4_1_Z 52, 52		/**< 4.1: zero the table. */
#define LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size 54, 53	/**< 4.1: 0=4K 1=16K 2=64K. */
#define LIBVIRQ_GICR_VPROPBASER_4_1_Indirect 55, 55	/**< 4.1: two-level table. */
#define LIBVIRQ_GICR_VPROPBASER_4_1_Entry_Size 61, 59	/**< 4.1 (RO): 8-byte units - 1. */
#define LIBVIRQ_GICR_VPROPBASER_4_1_Valid 63, 63	/**< 4.1: table valid. */

#define LIBVIRQ_GICR_VPENDBASER_InnerCache 9, 7		/**< 4.0: inner cacheability. */
#define LIBVIRQ_GICR_VPENDBASER_Shareability 11, 10	/**< 4.0: shareability. */
#define LIBVIRQ_GICR_VPENDBASER_Physical_Address 51, 16 /**< 4.0: VPT PA[51:16]. */
#define LIBVIRQ_GICR_VPENDBASER_OuterCache 58, 56	/**< 4.0: outer cacheability. */
#define LIBVIRQ_GICR_VPENDBASER_Dirty 60, 60		/**< 4.0/4.1 (RO): VPT parse in progress. */
#define LIBVIRQ_GICR_VPENDBASER_PendingLast 61, 61	/**< 4.0/4.1: a vLPI is pending. */
#define LIBVIRQ_GICR_VPENDBASER_IDAI 62, 62	   /**< 4.0: implementation-defined area invalid. */
#define LIBVIRQ_GICR_VPENDBASER_Valid 63, 63	   /**< 4.0/4.1: vPE resident. */
#define LIBVIRQ_GICR_VPENDBASER_4_1_vPEID 15, 0	   /**< 4.1: resident vPEID. */
#define LIBVIRQ_GICR_VPENDBASER_4_1_VGrp1En 58, 58 /**< 4.1: vGroup 1 enabled. */
#define LIBVIRQ_GICR_VPENDBASER_4_1_VGrp0En 59, 59 /**< 4.1: vGroup 0 enabled. */
#define LIBVIRQ_GICR_VPENDBASER_4_1_DB 62, 62	   /**< 4.1: request a default doorbell. */
/** GICR_VSGIR: VLPI_base + 0x80 (32): vPE whose vSGI pending state to read (GICv4.1). */
#define LIBVIRQ_GICR_VSGIR (LIBVIRQ_GICR_VLPI_FRAME + 0x80u)
/** GICR_VSGIPENDR: VLPI_base + 0x88 (32): the state asked for by GICR_VSGIR (GICv4.1). */
#define LIBVIRQ_GICR_VSGIPENDR (LIBVIRQ_GICR_VLPI_FRAME + 0x88u)
#define LIBVIRQ_GICR_VSGIR_vPEID 15, 0	     /**< GICR_VSGIR.vPEID. */
#define LIBVIRQ_GICR_VSGIPENDR_Pending 15, 0 /**< Pending bit of vSGI n = bit n. */
#define LIBVIRQ_GICR_VSGIPENDR_Busy 31, 31   /**< The read of the state is still in progress. */
/** @} */

/* ------------------------------------------------------------------ */
/** @name LPI configuration table byte (IHI 0069H §5.1.1) */
/** @{ */
#define LIBVIRQ_LPI_CFG_Priority 7, 2 /**< Priority[7:2]. */
#define LIBVIRQ_LPI_CFG_RES1 1, 1     /**< RES1 (Linux: Group1). */
#define LIBVIRQ_LPI_CFG_Enable 0, 0   /**< Enable. */
#define LIBVIRQ_LPI_BASE 8192u	      /**< First LPI INTID. */
/** @} */

#endif /* LIBVIRQ_GICV4_GIC_REGS_H */
