/* SPDX-License-Identifier: MIT */
#ifndef MINIHV_SCENARIOS_H
#define MINIHV_SCENARIOS_H

#include <libvirq/gicv4/desc.h>

/* Brings the GIC up through libvirq, runs the four scenarios, prints the
 * table; returns the exit status (0: every interrupt exactly once, direct
 * path with no EL2 entry). */
int run_scenarios(const struct virq_gic_desc *desc);

#endif
