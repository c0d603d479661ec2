/* SPDX-License-Identifier: MIT */
/*
 * AVIC internals shared by the src/avic/ files: field definitions in the
 * APM's [hi:lo] notation and small helpers. Not a public header.
 */
#ifndef LIBVIRQ_SRC_AVIC_PRIV_H
#define LIBVIRQ_SRC_AVIC_PRIV_H

#include <libvirq/avic.h>
#include <libvirq/avic/iommu.h>
#include <libvirq/bitfield.h>
#include "hal/hal_priv.h"

/* Physical APIC ID table entry (APM §15.29.3.2). */
#define LIBVIRQ_AVIC_PHYS_HostApicId 11, 0
#define LIBVIRQ_AVIC_PHYS_BackingPage 51, 12
#define LIBVIRQ_AVIC_PHYS_Rsvd 61, 52
#define LIBVIRQ_AVIC_PHYS_IsRunning 62, 62
#define LIBVIRQ_AVIC_PHYS_Valid 63, 63

/* Logical APIC ID table entry (APM §15.29.3.3). */
#define LIBVIRQ_AVIC_LOG_GuestApicId 7, 0
#define LIBVIRQ_AVIC_LOG_Rsvd 30, 8
#define LIBVIRQ_AVIC_LOG_Valid 31, 31

/* ICR (APM Vol 2 §16.5). */
#define LIBVIRQ_ICR_Vector 7, 0
#define LIBVIRQ_ICR_DeliveryMode 10, 8
#define LIBVIRQ_ICR_DestMode 11, 11
#define LIBVIRQ_ICR_DeliveryStatus 12, 12
#define LIBVIRQ_ICR_Level 14, 14
#define LIBVIRQ_ICR_TriggerMode 15, 15
#define LIBVIRQ_ICR_Shorthand 19, 18
#define LIBVIRQ_ICR_XapicDest 63, 56
#define LIBVIRQ_ICR_X2apicDest 63, 32

/* Exit information (APM Table 15-29). */
#define LIBVIRQ_AVIC_EXITINFO2_Cause 63, 32
#define LIBVIRQ_AVIC_EXITINFO2_Index 11, 0
#define LIBVIRQ_AVIC_NOACCEL_Offset 11, 4
#define LIBVIRQ_AVIC_NOACCEL_Write 32, 32
#define LIBVIRQ_AVIC_NOACCEL_Vector 31, 0

/* VMCB pointer fields (App. B). */
#define LIBVIRQ_VMCB_Addr 51, 12
#define LIBVIRQ_VMCB_MaxIndex 11, 0

/* Backing page (vAPIC) register offsets. */
#define LIBVIRQ_APIC_ID 0x020u
#define LIBVIRQ_APIC_TPR 0x080u
#define LIBVIRQ_APIC_EOI 0x0B0u
#define LIBVIRQ_APIC_RRR 0x0C0u
#define LIBVIRQ_APIC_LDR 0x0D0u
#define LIBVIRQ_APIC_DFR 0x0E0u
#define LIBVIRQ_APIC_SPIV 0x0F0u
#define LIBVIRQ_APIC_ISR 0x100u
#define LIBVIRQ_APIC_TMR 0x180u
#define LIBVIRQ_APIC_IRR 0x200u
#define LIBVIRQ_APIC_ICR 0x300u
#define LIBVIRQ_APIC_ICR2 0x310u

/* Run word read by posters: RUNNING | DOORBELL (doorbell allowed) | host APIC ID. */
#define LIBVIRQ_AVIC_RUN_RUNNING 0x80000000u
#define LIBVIRQ_AVIC_RUN_DOORBELL 0x40000000u
#define LIBVIRQ_AVIC_RUN_HOST 0x00000FFFu

/* Relaxed atomic accessors for fields read concurrently. */
#define LD_(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST_(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
/* Statistical counter bump: a relaxed load and store, never a locked RMW. */
#define CNT_(p) ST_((p), LD_(p) + 1)

static inline uint32_t *apic_reg_(const struct virq_avic_vcpu *v, uint32_t off)
{
	return (uint32_t *)((uint8_t *)v->backing.va + off);
}

/* vCPU -> the 32-bit backing-page word holding bit @vector of the array at @base. */
static inline uint32_t *apic_vec_word_(const struct virq_avic_vcpu *v, uint32_t base,
				       uint32_t vector)
{
	return apic_reg_(v, base + (vector >> 5) * 0x10u);
}

static inline void inhibit_set_(struct virq_avic_vm *vm, enum virq_avic_inhibit r)
{
	__atomic_fetch_or(&vm->inhibits, 1u << r, __ATOMIC_SEQ_CST);
}
static inline void inhibit_clear_(struct virq_avic_vm *vm, enum virq_avic_inhibit r)
{
	__atomic_fetch_and(&vm->inhibits, ~(1u << r), __ATOMIC_SEQ_CST);
}

/* Deliberately ignores a status (the caller documented why). */
#define IGNORE_(x)                                                                                 \
	do {                                                                                       \
		virq_status ignored_ = (x);                                                        \
		(void)ignored_;                                                                    \
	} while (0)

/* Table capacity of a mode. */
uint32_t virq_avic_mode_max_(enum virq_avic_mode mode);
/* The vCPU's APIC ID as the guest has it now. */
static inline uint32_t cur_id_(const struct virq_avic_vcpu *v)
{
	return LD_(&v->cur_apic_id);
}
/* Physical table entry pointer for index @i (caller range-checked). */
static inline uint64_t *phys_slot_(const struct virq_avic_vm *vm, uint32_t i)
{
	return (uint64_t *)vm->phys_table.va + i;
}
static inline uint32_t *log_slot_(const struct virq_avic_vm *vm, uint32_t i)
{
	return (uint32_t *)vm->log_table.va + i;
}

/*
 * The vCPU runs (when loaded and not blocking) with AVIC in its VMCB: the last
 * VMCB values enabled it and it is not in L2 (owner context).
 */
static inline bool avic_on_(const struct virq_avic_vcpu *v)
{
	return v->have_last && v->last_active && !LD_(&v->nested);
}

/* Notifies a target whose IRR already holds a new bit (doorbell or kick). */
virq_status virq_avic_notify_(struct virq_avic_vcpu *t, uint32_t self_host);
/* Re-evaluates whether a vCPU's ID breaks the 1:1 APIC-ID map. */
void virq_avic_update_slow_(struct virq_avic_vcpu *v, bool was_slow);
bool virq_avic_is_slow_(const struct virq_avic_vcpu *v);
/* Writes the physical table entry: host APIC ID, IsRunning if @running, ipiv and AVIC on. */
void virq_avic_publish_entry_(struct virq_avic_vcpu *v, bool running);
/* IRTE updates on load/put/block (iommu.c). */
void virq_avic_irtes_update_(struct virq_avic_vcpu *v);
/* Drops the vCPU's logical table entry if it owns one. */
void virq_avic_log_drop_(struct virq_avic_vcpu *v);

#endif /* LIBVIRQ_SRC_AVIC_PRIV_H */
