/* SPDX-License-Identifier: MIT */
#ifndef MINIHV_SCENARIOS_H
#define MINIHV_SCENARIOS_H

#include <libvirq/gicv4/desc.h>

/* Brings the GIC, the CPUs, the vCPUs and the edu device up through libvirq,
 * runs every scenario, prints the table; returns the exit status (0: every
 * interrupt exactly once, the direct paths with no EL2 entry). */
int run_scenarios(const void *fdt, const struct virq_gic_desc *desc);

#endif
