/* SPDX-License-Identifier: MIT */
/*
 * Private: pure builders of redistributor register images (GICR_VPROPBASER,
 * GICR_VPENDBASER in the GICv4.0 and GICv4.1 layouts). Includes only public
 * headers and bitfield.h, like every file of src/gicv4/enc/.
 * Spec: Arm IHI 0069H §12.11 (GICR_VPROPBASER, GICR_VPENDBASER).
 */
#ifndef LIBVIRQ_SRC_GICV4_ENC_IMAGES_H
#define LIBVIRQ_SRC_GICV4_ENC_IMAGES_H

#include <libvirq/bitfield.h>
#include <libvirq/status.h>
#include <libvirq/gicv4/gic_regs.h>
#include <libvirq/gicv4/its_regs.h>

/*
 * GICv4.0 GICR_VPROPBASER for a VM's vLPI configuration table at @p pa
 * (64 KiB aligned) with @p id_bits vINTID bits: RaWb + Inner-shareable, or
 * nC + Non-shareable when the redistributors are not coherent (Linux
 * its_vpe_schedule uses the same attributes).
 */
uint64_t virq_gic_vprop40_image_(uint64_t pa, uint32_t id_bits, bool noncoherent);

/*
 * GICv4.0 GICR_VPENDBASER making the vPE with VPT @p vpt_pa resident:
 * RaWaWb + Inner-shareable (nC + Non-shareable when not coherent),
 * PendingLast = 1 (the VPT may hold pending vLPIs), IDAI as saved, Valid.
 */
uint64_t virq_gic_vpend40_image_(uint64_t vpt_pa, bool idai, bool noncoherent);

/* GICv4.1 GICR_VPENDBASER making vPE @p vpeid resident: vPEID, VGrp0En,
 * VGrp1En, Valid (IHI 0069H §12.11; the VPT comes from the vPE table). */
uint64_t virq_gic_vpend41_image_(uint32_t vpeid, bool vgrp0, bool vgrp1);

/*
 * GICv4.1: GICR_VPROPBASER (4.1 layout) describing the same vPE table as an
 * ITS's GITS_BASER<n> value: Valid, Indirect, Page_Size, PA (the 64 KiB
 * page encoding of PA[51:48] translated), Shareability, InnerCache, Size.
 * Z is never set (the table is live). ERANGE when Size does not fit.
 */
virq_status virq_gic_vprop41_from_baser_(uint64_t baser, uint64_t *out);

/*
 * GICv4.1: GICR_VPROPBASER (4.1 layout) for a vPE table the library
 * allocated: Valid, Z, Indirect, Page_Size @p psz_code, Entry_Size as read
 * back in @p ro (read-only), PA, Size = @p pages - 1 (1..128), RaWb +
 * Inner-shareable, or nC + Non-shareable when not coherent (Linux
 * allocate_vpe_l1_table()).
 */
uint64_t virq_gic_vprop41_image_(uint64_t pa, uint32_t psz_code, uint64_t ro, bool indirect,
				 uint32_t pages, bool noncoherent);

#endif /* LIBVIRQ_SRC_GICV4_ENC_IMAGES_H */
