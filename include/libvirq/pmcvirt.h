/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_pmcvirt
 * @brief Front door of the PMC virtualization module (include this one header):
 *        AMD PMC virtualization (PerfCtrVirt), the guest PMU in the VMCB.
 *
 * Implements AMD64 APM Vol 2 rev 3.44 §15.39 "Performance Monitoring Counter
 * Virtualization" (rev 3.42+) and the VMCB layout of Appendix B
 * (Tables B-1 control area, B-2 state-save area, B-3 swap types).
 *
 * Two modes with one API:
 * - ::LIBVIRQ_PMCVIRT_MODE_HW: the CPU swaps the guest's six PERF_CTL/PERF_CTR
 *   pairs, PerfCntrGlobalStatus/Ctl and IRPerfCount through the VMCB on
 *   every VMRUN/\#VMEXIT. Per world switch the library writes one MSR
 *   (host PerfCntrGlobalCtl = 0, required before VMRUN).
 * - ::LIBVIRQ_PMCVIRT_MODE_SW: for CPUs without PerfCtrVirt; the guest PMU is
 *   loaded into and saved from the real MSRs around each VMRUN, skipping
 *   writes of values the hardware already holds.
 *
 * Layers: pure encoders over a raw VMCB page and MSR indices (no HAL, no
 * state), then the per-vCPU driver (::virq_pmcvirt_vcpu, caller storage)
 * that touches MSRs only through the HAL.
 *
 * Uncertain facts (sources and confidence in the pmc-* entries of
 * docs/rationale.md, the @ref rationale page; flagged at each use):
 * - the width of PERF_CTR_GLOBAL_CTL (qword in Table B-2, dword in B-4):
 *   libvirq writes 32 significant bits and keeps 0x5D4..0x5D7 zero
 *   (@ref pmc-globalctl-width);
 * - the VMRUN consistency check behind VMEXIT_INVALID_PMC is known only as
 *   "host PerfCntrGlobalCtl must be zero" (paraphrase in AMD's posted, not
 *   merged, RFC; @ref pmc-globalctl-before-vmrun);
 * - no VMCB clean bit is documented for the PMC slots: the library never
 *   touches clean bits, and assumes the slots are loaded on every VMRUN
 *   (@ref pmc-vmcb-clean-bits);
 * - VNMI as a hard prerequisite comes from an unverified report of a later
 *   KVM series; the Nov 2025 RFC accepted VNMI or AVIC, available here with
 *   ::LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY (@ref pmc-vnmi-required);
 * - nested PMC virtualization (virq_pmcvirt_nested_vmrun()) is modelled on
 *   the LBR-virtualization precedent and the swap types, unverified
 *   (@ref pmc-nested).
 *
 * Sub-headers: pmcvirt/regs.h (constants), pmcvirt/encode.h (capabilities,
 * state, pure encoders), pmcvirt/vcpu.h (the per-vCPU driver); the VMCB
 * layout shared with the AVIC module is in amd/vmcb.h.
 */

/**
 * @defgroup virq_pmcvirt PMC virtualization
 * @brief AMD PMC virtualization (AMD64 APM Vol 2 rev 3.44 §15.39) and its software-switched
 * fallback (front door: pmcvirt.h).
 */
#ifndef LIBVIRQ_PMCVIRT_H
#define LIBVIRQ_PMCVIRT_H

#include "pmcvirt/regs.h"
#include "pmcvirt/encode.h"
#include "pmcvirt/vcpu.h"

#endif /* LIBVIRQ_PMCVIRT_H */
