/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief Front door of the AVIC module (include this one header). AMD AVIC / x2AVIC: capabilities,
 * APIC ID tables, vCPU backing pages, load/put, interrupt posting with doorbells, \#VMEXIT
 * handling, destination resolution, inhibits and x2APIC MSR interception.
 *
 * Implements AMD64 APM Vol 2 rev 3.44 §15.29 "Advanced Virtual Interrupt
 * Controller" and the VMCB fields of Appendix B, Table B-1. The IOMMU guest
 * virtual APIC mode lives in avic/iommu.h.
 * Rules the manual leaves open (errata, fixes made in other hypervisors,
 * posted patches) are cited by their entry of docs/rationale.md (the
 * @ref rationale page).
 *
 * Objects (::virq_avic_vm, ::virq_avic_vcpu) live in caller storage; the
 * library allocates only hardware tables and (optionally) backing pages from
 * the HAL page allocator. Their members are internal: read them only through
 * the functions below.
 *
 * Concurrency model (details on each function):
 * - VM-wide changes (vCPU creation/destruction, APIC mode, LDR/DFR/APIC ID
 *   writes, inhibits, policy) are serialised by the caller per VM
 *   ("the VM lock").
 * - Per-vCPU state changes (load, put, block, unblock, VMCB values, IRTE
 *   attach) are serialised by the caller per vCPU ("the vCPU owner", normally
 *   the thread that runs the vCPU).
 * - virq_avic_post() is lock-free and may run on any CPU concurrently with
 *   everything except the destruction of its target.
 * - Destination resolution and the exit handlers read VM state with atomic
 *   loads and may run concurrently with VM-wide changes; they see each
 *   vCPU's state as of some moment during the call, as hardware would.
 *
 * Sub-headers: avic/regs.h (constants), avic/caps.h (CPUID probe),
 * avic/encode.h (pure encoders and decoders), avic/vm.h (VMs, vCPUs,
 * posting, exits), avic/iommu.h (IOMMU guest virtual APIC mode); the VMCB
 * layout shared with the PMC module is in amd/vmcb.h.
 */

/**
 * @defgroup virq_avic AVIC
 * @brief AMD AVIC / x2AVIC (AMD64 APM Vol 2 rev 3.44 §15.29) and the IOMMU's guest virtual APIC
 * mode (front door: avic.h).
 */
#ifndef LIBVIRQ_AVIC_H
#define LIBVIRQ_AVIC_H

#include "avic/regs.h"
#include "avic/caps.h"
#include "avic/encode.h"
#include "avic/vm.h"
#include "avic/iommu.h"

#endif /* LIBVIRQ_AVIC_H */
