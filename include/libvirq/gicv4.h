/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief Front door of the GICv4 module: include this one header.
 *
 * Gives a GICv3/GICv4.0/GICv4.1 user everything the module declares:
 * - gicv4/state.h: the lifecycle state every object carries, and the
 *   policy every entry point applies (double init, use after destroy,
 *   destroy while in use, NULL);
 * - gicv4/desc.h: the plain description of a GIC (from a device tree with
 *   libvirq/fdt.h, or filled by hand from ACPI);
 * - gicv4/gic_regs.h, gicv4/its_regs.h: register offsets and fields in the
 *   manual's [hi:lo] notation, and the GITS_BASERn/CBASER attribute encoders;
 * - gicv4/its_cmd.h: pure ITS command encoders and decoders (no state);
 * - gicv4/its_queue.h: the ITS command queue;
 * - gicv4/gic.h: distributor, redistributors, physical LPIs;
 * - gicv4/its.h: ITSes, devices, collections, physical LPI mappings;
 * - gicv4/vpe.h: VMs, vPEs, vLPIs, residency, doorbells, VMOVP;
 * - gicv4/info.h: read-only accessors (what a GIC, an ITS, a device and a
 *   vPE report, without reading their members).
 *
 * The sub-headers may also be included one by one (each includes what it
 * needs), for example gicv4/its_cmd.h alone for a tool that only decodes
 * commands.
 *
 * Spec: Arm IHI 0069H (GIC architecture specification, GICv3 and GICv4).
 * Rules the manual leaves open (errata, fixes made in other hypervisors,
 * posted patches) are cited by their entry of docs/rationale.md (the
 * @ref rationale page).
 */

/**
 * @defgroup virq_gicv4 GICv4
 * @brief Arm GICv4.0/4.1 (Arm IHI 0069H): ITS commands, command queue and tables, redistributors,
 *        vPEs, vLPIs, doorbells, VMOVP, vSGIs (front door: gicv4.h).
 */
#ifndef LIBVIRQ_GICV4_H
#define LIBVIRQ_GICV4_H

#include "gicv4/desc.h"
#include "gicv4/state.h"
#include "gicv4/gic_regs.h"
#include "gicv4/its_regs.h"
#include "gicv4/its_cmd.h"
#include "gicv4/its_queue.h"
#include "gicv4/gic.h"
#include "gicv4/its.h"
#include "gicv4/vpe.h"
#include "gicv4/info.h"

#endif /* LIBVIRQ_GICV4_H */
