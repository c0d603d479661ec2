/* SPDX-License-Identifier: MIT */
/*
 * AVIC driver internals shared by the src/avic/ driver files (not by the
 * pure encoders in src/avic/enc/, which include only enc/fields.h). Not a
 * public header.
 *
 * Who calls whom (no cycles; checked by the tree's cycle test):
 *   vm.c    -> tables.c, run.c, iommu.c
 *   exits.c -> tables.c, dest.c, run.c
 *   run.c   -> iommu.c
 *   dest.c, tables.c, iommu.c, caps.c -> (only this header's inline helpers)
 *   any of them -> the pure encoders in enc/ (which call nothing back)
 */
#ifndef LIBVIRQ_SRC_AVIC_PRIV_H
#define LIBVIRQ_SRC_AVIC_PRIV_H

#include "enc/fields.h"
#include "../hal/hal_priv.h"

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

/*
 * Run word read by posters: RUNNING | DOORBELL (doorbell allowed) |
 * ISRUNNING (the published physical table entry has IsRunning 1, so the
 * hardware notifies this vCPU itself) | host APIC ID.
 */
#define LIBVIRQ_AVIC_RUN_RUNNING 0x80000000u
#define LIBVIRQ_AVIC_RUN_DOORBELL 0x40000000u
#define LIBVIRQ_AVIC_RUN_ISRUNNING 0x20000000u
#define LIBVIRQ_AVIC_RUN_HOST 0x00000FFFu

/* Lifecycle states of the objects (docs/avic.md "Object states"). */
#define LIBVIRQ_AVIC_ST_LIVE_ 0x4C495645u     /* "LIVE" */
#define LIBVIRQ_AVIC_ST_DEAD_ 0x44454144u     /* "DEAD" */
#define LIBVIRQ_AVIC_ST_ATTACHED_ 0x41545448u /* IRTE reference attached */

/* Relaxed atomic accessors for fields read concurrently. */
#define LD_(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST_(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
/* Statistical counter bump: a relaxed load and store, never a locked RMW. */
#define CNT_(p) ST_((p), LD_(p) + 1)

/* Deliberately ignores a status (the caller documented why). */
#define IGNORE_(x)                                                                                 \
	do {                                                                                       \
		virq_status ignored_ = (x);                                                        \
		(void)ignored_;                                                                    \
	} while (0)

static inline bool vm_live_(const struct virq_avic_vm *vm)
{
	return vm && LD_(&vm->state) == LIBVIRQ_AVIC_ST_LIVE_;
}

static inline bool vcpu_live_(const struct virq_avic_vcpu *v)
{
	return v && LD_(&v->state) == LIBVIRQ_AVIC_ST_LIVE_ && v->vm;
}

/* The HAL to report a failure through, or NULL when the object is not live. */
static inline const struct virq_hal *vcpu_hal_(const struct virq_avic_vcpu *v)
{
	return vcpu_live_(v) ? &v->vm->hal : NULL;
}

/*
 * A NULL, never-initialised or destroyed VM or vCPU where a live one is
 * needed (::LIBVIRQ_EINVAL). A destroyed object keeps its HAL and reports
 * through it; a NULL or never-initialised one through @p other, the HAL of
 * another object of the call (NULL: unreported).
 */
#define LIBVIRQ_AVIC_VM_DEAD_(api, other, name, vm)                                                \
	LIBVIRQ_FAIL_DEAD_(                                                                        \
	    (api), (vm) && LD_(&(vm)->state) == LIBVIRQ_AVIC_ST_DEAD_ ? &(vm)->hal : (other),      \
	    (name), (vm), LIBVIRQ_AVIC_ST_DEAD_)
#define LIBVIRQ_AVIC_VCPU_DEAD_(api, other, name, v)                                               \
	LIBVIRQ_FAIL_DEAD_((api),                                                                  \
			   (v) && LD_(&(v)->state) == LIBVIRQ_AVIC_ST_DEAD_ ? &(v)->hal : (other), \
			   (name), (v), LIBVIRQ_AVIC_ST_DEAD_)

static inline uint32_t *apic_reg_(const struct virq_avic_vcpu *v, uint32_t off)
{
	uint32_t *regs = v->backing.va; /* 4 KiB aligned; @off is a multiple of 4 */

	return regs + off / 4u;
}

/* vCPU -> the 32-bit backing-page word holding bit @vector of the array at @base. */
static inline uint32_t *apic_vec_word_(const struct virq_avic_vcpu *v, uint32_t base,
				       uint32_t vector)
{
	return apic_reg_(v, base + (vector >> 5) * 0x10u);
}

/* The VM's effective inhibit set: the embedder's reasons and those the tables need. */
static inline uint32_t vm_inhibits_(const struct virq_avic_vm *vm)
{
	return __atomic_load_n(&vm->inhibits, __ATOMIC_SEQ_CST) |
	       __atomic_load_n(&vm->auto_inhibits, __ATOMIC_SEQ_CST);
}

/* The vCPU's xAPIC ID (register 0x20 [31:24]) or, in x2APIC mode, its x2APIC ID. */
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

static inline struct virq_avic_vcpu *vcpu_at_(const struct virq_avic_vm *vm, uint32_t i)
{
	return __atomic_load_n(&vm->by_index[i], __ATOMIC_ACQUIRE);
}

/*
 * APIC-ID map: open addressing over vm->apic_map (a power-of-two number of
 * 32-bit slots, at least twice max_vcpus): a slot holds
 * (APIC ID + 1) << 16 | vCPU index, 0 when empty, TOMB_ when its entry was
 * removed (probing continues past it, so lookups concurrent with a removal
 * stay correct). Dense APIC IDs never collide.
 */
#define LIBVIRQ_AVIC_MAP_TOMB_ 0xFFFFFFFFu

static inline struct virq_avic_vcpu *by_apic_(const struct virq_avic_vm *vm, uint32_t id)
{
	uint32_t key = (id + 1u) << 16, mask = vm->apic_map_mask;

	for (uint32_t h = id & mask, n = 0; n <= mask; n++, h = (h + 1u) & mask) {
		uint32_t s = __atomic_load_n(&vm->apic_map[h], __ATOMIC_ACQUIRE);

		if (s == 0)
			return NULL;
		if (s != LIBVIRQ_AVIC_MAP_TOMB_ && (s & 0xFFFF0000u) == key)
			return vcpu_at_(vm, s & 0xFFFFu);
	}
	return NULL;
}

/*
 * xAPIC logical index (docs/avic.md "Destination resolution"): 72 buckets,
 * 0-7 for the flat model's LDR bits 24-31 and 8 + cluster * 4 + bit for
 * the cluster model, each a bitmap of the vCPU indexes (of xAPIC-mode vCPUs)
 * whose LDR has that bit, lix_words 64-bit words long; vm->lix[b] (a
 * summary) has bit w set while word w of bucket b may be non-zero. At most
 * 4,096 vCPUs, so one summary word covers a bucket. Written under the VM
 * lock (tables.c), read lock-free by the resolver (dest.c): a vCPU's bit is
 * set before its summary bit, and a bucket it keeps across a change is never
 * cleared in between.
 */
#define LIBVIRQ_AVIC_LIX_CLUSTER_ 8u
#define LIBVIRQ_AVIC_LIX_BUCKETS_ 72u

static inline uint64_t *lix_word_(const struct virq_avic_vm *vm, uint32_t bucket, uint32_t w)
{
	return vm->lix + LIBVIRQ_AVIC_LIX_BUCKETS_ + (size_t)bucket * vm->lix_words + w;
}

/*
 * The vCPU runs (when loaded and not blocking) with AVIC in its VMCB: the last
 * VMCB values enabled it and it is not in L2 (owner context).
 */
static inline bool avic_on_(const struct virq_avic_vcpu *v)
{
	return v->have_last && v->last_active && !LD_(&v->nested);
}

/* ---- dest.c, tables.c: the public functions' internal forms ---- */
/* virq_avic_resolve() reported under @p api. */
virq_status virq_avic_resolve_(const char *api, struct virq_avic_vm *vm,
			       struct virq_avic_vcpu *sender, const struct virq_avic_icr *icr,
			       virq_avic_target_fn fn, void *arg, uint32_t *count);
/* virq_avic_ldr_write(), _dfr_write(), _apic_id_write() of a live vCPU (no report). */
virq_status virq_avic_ldr_write_(struct virq_avic_vcpu *vcpu, uint32_t ldr);
virq_status virq_avic_dfr_write_(struct virq_avic_vcpu *vcpu, uint32_t dfr);
virq_status virq_avic_apic_id_write_(struct virq_avic_vcpu *vcpu, uint32_t value);

/* ---- run.c ---- */
/* Notifies a target whose IRR already holds a new bit (doorbell or kick); a
 * faulted doorbell is reported under @p api. */
virq_status virq_avic_notify_(const char *api, struct virq_avic_vcpu *t, uint32_t self_host);
/* virq_avic_post() to a live vCPU of a vector in 16..255, reported under @p
 * api (inline: the post hot path). */

static inline virq_status avic_post_live_(const char *api, struct virq_avic_vcpu *vcpu,
					  uint32_t vector, uint32_t self_host_apic_id)
{
	uint32_t bit = 1u << (vector & 31u);
	uint32_t old = __atomic_fetch_or(apic_vec_word_(vcpu, LIBVIRQ_APIC_IRR, vector), bit,
					 __ATOMIC_SEQ_CST);

	if (old & bit) {
		CNT_(&vcpu->cnt.coalesced);
		return LIBVIRQ_OK;
	}
	/* Counted by the notification (posts = notifications - wakes - failures). */
	return virq_avic_notify_(api, vcpu, self_host_apic_id);
}
/* Writes the physical table entry: host APIC ID, IsRunning if @running, ipiv and AVIC on. */
void virq_avic_publish_entry_(struct virq_avic_vcpu *v, bool running);
/* The run word for a loaded, non-blocking vCPU (RUNNING | DOORBELL | ISRUNNING | host). */
uint32_t virq_avic_run_word_(const struct virq_avic_vcpu *v);

/* ---- iommu.c ---- */
/* IRTE updates on load/put/block. */
void virq_avic_irtes_update_(struct virq_avic_vcpu *v);

/* ---- tables.c: APIC-ID table upkeep ---- */
/* Table capacity of a mode. */
uint32_t virq_avic_mode_max_(enum virq_avic_mode mode);
/* Bytes of the maps block for @max_vcpus (vCPU-by-index array, APIC-ID map, logical index). */
size_t virq_avic_maps_size_(uint32_t max_vcpus, uint32_t *map_slots);
/* Points the VM's maps into its maps block (allocated with virq_avic_maps_size_()). */
void virq_avic_maps_place_(struct virq_avic_vm *vm, uint32_t map_slots);
/* Enters a new vCPU (entry already encoded in v->entry) into the tables and maps. */
void virq_avic_tables_add_(struct virq_avic_vcpu *v);
/* Removes a vCPU from the tables and maps. */
void virq_avic_tables_remove_(struct virq_avic_vcpu *v);
/* Switches the vCPU's APIC mode (ID, LDR, logical entry, counts, inhibits). */
void virq_avic_tables_set_mode_(struct virq_avic_vcpu *v, bool x2apic);

#endif /* LIBVIRQ_SRC_AVIC_PRIV_H */
