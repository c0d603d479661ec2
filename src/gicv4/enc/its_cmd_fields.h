/* SPDX-License-Identifier: MIT */
/*
 * Private: ITS command field positions, per doubleword, in [hi:lo] notation.
 * Arm IHI 0069H §5.3 (the field layouts of the ITS commands).
 * Shared by the encoder and decoder only
 * (sim/src/its.c has its own, independent copy on purpose).
 */
#ifndef LIBVIRQ_SRC_GICV4_ITS_CMD_FIELDS_H
#define LIBVIRQ_SRC_GICV4_ITS_CMD_FIELDS_H

#include <libvirq/bitfield.h>

/* DW0 */
#define ITS_DW0_opcode 7, 0
#define ITS_DW0_DeviceID 63, 32
#define ITS_DW0_SequenceNumber 47, 32 /* VMOVP */
#define ITS_DW0_Alloc 8, 8	      /* VMAPP (4.1) */
#define ITS_DW0_PTZ 9, 9	      /* VMAPP (4.1) */
#define ITS_DW0_VCONF_addr 51, 16     /* VMAPP (4.1) */
#define ITS_DW0_Enable 8, 8	      /* VSGI */
#define ITS_DW0_Clear 9, 9	      /* VSGI */
#define ITS_DW0_Group 10, 10	      /* VSGI */
#define ITS_DW0_Priority 23, 20	      /* VSGI: Priority[7:4] */
#define ITS_DW0_vINTID 35, 32	      /* VSGI */
/* DW1 */
#define ITS_DW1_EventID 31, 0
#define ITS_DW1_pINTID 63, 32 /* MAPTI */
#define ITS_DW1_Size 4, 0     /* MAPD */
#define ITS_DW1_vPEID 47, 32
#define ITS_DW1_ITSList 15, 0	       /* VMOVP */
#define ITS_DW1_Default_Doorbell 31, 0 /* VMAPP (4.1) */
/* DW2 */
#define ITS_DW2_ICID 15, 0
#define ITS_DW2_RDbase 51, 16
#define ITS_DW2_V 63, 63
#define ITS_DW2_ITT_addr 51, 8	    /* MAPD */
#define ITS_DW2_vINTID 31, 0	    /* VMAPTI */
#define ITS_DW2_Dbell_pINTID 63, 32 /* VMAPTI, VMAPI, VMOVI */
#define ITS_DW2_D 0, 0		    /* VMOVI */
#define ITS_DW2_DB 63, 63	    /* VMOVP (4.1) */
/* DW3 */
#define ITS_DW3_RDbase2 51, 16	       /* MOVALL */
#define ITS_DW3_VPT_addr 51, 16	       /* VMAPP */
#define ITS_DW3_VPT_size 4, 0	       /* VMAPP */
#define ITS_DW3_Default_Doorbell 31, 0 /* VMOVP (4.1) */

#endif /* LIBVIRQ_SRC_GICV4_ITS_CMD_FIELDS_H */
