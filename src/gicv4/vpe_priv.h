/* SPDX-License-Identifier: MIT */
/* Private: internal functions of vpe.c (VMs, vPE lifecycle, VMOVP). */
#ifndef LIBVIRQ_SRC_GICV4_VPE_PRIV_H
#define LIBVIRQ_SRC_GICV4_VPE_PRIV_H

#include <libvirq/gicv4/vpe.h>

/* virq_gic_vm_vlpi_config() reporting under @p api (virq_vlpi_set_config()). */
virq_status virq_gic_vm_vlpi_config_(const char *api, struct virq_gic_vm *vm, uint32_t vintid,
				     uint8_t priority, bool enable);

/* Maps @vpe on @its (VMAPP + VINVALL + VSYNC) unless it is mapped there:
 * the lazy mapping at the vPE's first vLPI on an ITS (docs/gicv4-core.md
 * "Lazy mapping"). @its's lock held; a failure is reported under @p api
 * (the VMAPP is recorded when it may have run: the vPE's teardown unmaps
 * it). */
virq_status virq_vpe_its_ensure_(const char *api, struct virq_its *its, struct virq_vpe *vpe);

#endif /* LIBVIRQ_SRC_GICV4_VPE_PRIV_H */
