/* SPDX-License-Identifier: MIT */
/* Private: internal functions of vpe.c (VMs, vPE lifecycle, VMOVP). */
#ifndef LIBVIRQ_SRC_GICV4_VPE_PRIV_H
#define LIBVIRQ_SRC_GICV4_VPE_PRIV_H

#include <libvirq/gicv4/vpe.h>

/* virq_gic_vm_vlpi_config() reporting under @p api (virq_vlpi_set_config()). */
virq_status virq_gic_vm_vlpi_config_(const char *api, struct virq_gic_vm *vm, uint32_t vintid,
				     uint8_t priority, bool enable);

#endif /* LIBVIRQ_SRC_GICV4_VPE_PRIV_H */
