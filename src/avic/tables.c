/* SPDX-License-Identifier: MIT */
/*
 * APIC-ID table upkeep (APM Vol 2 rev 3.44 §15.29.5.2 physical, §15.29.5.3 logical
 * APIC ID table): the vCPU maps, the logical table on LDR/DFR writes, APIC
 * mode switches and xAPIC ID writes, and the inhibits that keep the
 * hardware's view of the tables in agreement with the destination rules of
 * dest.c (docs/avic.md "Destination resolution").
 *
 * Every change is "uncount the vCPU, change it, count it again, recompute
 * the inhibits": the VM keeps counts of what each rule depends on, so each
 * inhibit is set exactly while its condition holds, and clears when it no
 * longer does (as KVM recomputes its APIC map, arch/x86/kvm/lapic.c
 * kvm_recalculate_apic_map()). Called with the VM lock held; the counts
 * the destination resolver reads without it are atomic. Rules:
 * docs/rationale.md#avic-logical-id-single-bit, #avic-apic-id-bounds and
 * docs/rationale.md#avic-mixed-mode-destinations.
 */
#include "avic_priv.h"

uint32_t virq_avic_mode_max_(enum virq_avic_mode mode)
{
	switch (mode) {
	case LIBVIRQ_AVIC_MODE_XAVIC:
		return LIBVIRQ_AVIC_MAX_INDEX_XAVIC;
	case LIBVIRQ_AVIC_MODE_X2AVIC:
		return LIBVIRQ_AVIC_MAX_INDEX_X2AVIC;
	case LIBVIRQ_AVIC_MODE_X2AVIC_4K:
		return LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K;
	default:
		return 0;
	}
}

/* Words per logical index bitmap. */
static uint32_t lix_words_(uint32_t max_vcpus)
{
	return (max_vcpus + 63u) / 64u;
}

/*
 * Layout: vCPU pointers, APIC-ID map slots (an even number of 4-byte slots:
 * the index after them stays 8-byte aligned), logical index summaries and
 * bitmaps.
 */
size_t virq_avic_maps_size_(uint32_t max_vcpus, uint32_t *map_slots)
{
	uint32_t slots = 2;
	size_t lix = ((size_t)LIBVIRQ_AVIC_LIX_BUCKETS_ * (1u + lix_words_(max_vcpus))) * 8u;

	while (slots < 2u * max_vcpus)
		slots <<= 1;
	*map_slots = slots;
	return ((size_t)max_vcpus * sizeof(struct virq_avic_vcpu *) + (size_t)slots * 4u + lix +
		4095u) &
	       ~(size_t)4095u;
}

void virq_avic_maps_place_(struct virq_avic_vm *vm, uint32_t map_slots)
{
	void *lix;

	vm->by_index = vm->maps.va;
	vm->apic_map = (uint32_t *)(vm->by_index + vm->cfg.max_vcpus);
	vm->apic_map_mask = map_slots - 1u;
	lix = vm->apic_map + map_slots; /* 8-byte aligned: see the layout above */
	vm->lix = lix;
	vm->lix_words = lix_words_(vm->cfg.max_vcpus);
}

/* ---- APIC-ID map ---- */

static void map_insert_(struct virq_avic_vm *vm, uint32_t id, uint32_t index)
{
	uint32_t mask = vm->apic_map_mask;

	/* Fewer live entries than slots: a free or removed slot always exists. */
	for (uint32_t h = id & mask, n = 0; n <= mask; n++, h = (h + 1u) & mask) {
		uint32_t s = vm->apic_map[h];

		if (s == 0 || s == LIBVIRQ_AVIC_MAP_TOMB_) {
			__atomic_store_n(&vm->apic_map[h], ((id + 1u) << 16) | index,
					 __ATOMIC_RELEASE);
			return;
		}
	}
}

static void map_remove_(struct virq_avic_vm *vm, uint32_t id)
{
	uint32_t mask = vm->apic_map_mask, key = (id + 1u) << 16;

	for (uint32_t h = id & mask, n = 0; n <= mask; n++, h = (h + 1u) & mask) {
		uint32_t s = vm->apic_map[h];

		if (s == 0)
			return;
		if (s != LIBVIRQ_AVIC_MAP_TOMB_ && (s & 0xFFFF0000u) == key) {
			__atomic_store_n(&vm->apic_map[h], LIBVIRQ_AVIC_MAP_TOMB_,
					 __ATOMIC_RELEASE);
			return;
		}
	}
}

/* ---- logical table: claims and ownership ---- */

/* Writes @v's entry at @idx when it can be encoded (guest physical ID 7:0). */
static bool own_(struct virq_avic_vcpu *v, uint32_t idx)
{
	uint32_t e;

	if (virq_avic_logical_entry_encode(v->apic_id, true, &e) != LIBVIRQ_OK)
		return false; /* ID > 0xFF: PHYSICAL_ID_TOO_BIG inhibits the VM anyway */
	__atomic_store_n(log_slot_(v->vm, idx), e, __ATOMIC_RELEASE);
	v->log_owner = true;
	return true;
}

/* Gives an unowned entry @idx to one of its remaining claimants. */
static void elect_(struct virq_avic_vm *vm, uint32_t idx)
{
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = vm->by_index[i];

		if (t && t->log_index == (int32_t)idx && own_(t, idx))
			return;
	}
}

static void claim_(struct virq_avic_vcpu *v, uint32_t idx)
{
	struct virq_avic_vm *vm = v->vm;
	uint32_t c = ++vm->log_claims[idx];

	v->log_index = (int32_t)idx;
	if (c == 2)
		vm->log_aliased++;
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_AMD_F(LIBVIRQ_AVIC_LOG_, V), *log_slot_(vm, idx)))
		(void)own_(v, idx);
}

static void release_(struct virq_avic_vcpu *v)
{
	struct virq_avic_vm *vm = v->vm;
	uint32_t idx, c;

	if (v->log_index < 0)
		return;
	idx = (uint32_t)v->log_index;
	v->log_index = -1;
	c = --vm->log_claims[idx];
	if (c == 1)
		vm->log_aliased--;
	if (v->log_owner) {
		__atomic_store_n(log_slot_(vm, idx), 0u, __ATOMIC_RELEASE);
		v->log_owner = false;
		if (c)
			elect_(vm, idx);
	}
}

/* ---- xAPIC logical index (avic_priv.h) ---- */

static void lix_add_(struct virq_avic_vm *vm, uint32_t bucket, uint32_t i)
{
	__atomic_fetch_or(lix_word_(vm, bucket, i / 64u), 1ull << (i % 64u), __ATOMIC_RELEASE);
	__atomic_fetch_or(&vm->lix[bucket], 1ull << (i / 64u), __ATOMIC_RELEASE);
}

static void lix_del_(struct virq_avic_vm *vm, uint32_t bucket, uint32_t i)
{
	if (__atomic_and_fetch(lix_word_(vm, bucket, i / 64u), ~(1ull << (i % 64u)),
			       __ATOMIC_RELEASE) == 0)
		__atomic_fetch_and(&vm->lix[bucket], ~(1ull << (i / 64u)), __ATOMIC_RELEASE);
}

/* Sets (@on) or clears @v's bit in the flat buckets @flat and the cluster buckets @cl. */
static void lix_apply_(struct virq_avic_vcpu *v, uint32_t flat, uint64_t cl, bool on)
{
	for (; flat; flat &= flat - 1u) {
		uint32_t b = (uint32_t)__builtin_ctz(flat);

		if (on)
			lix_add_(v->vm, b, v->index);
		else
			lix_del_(v->vm, b, v->index);
	}
	for (; cl; cl &= cl - 1u) {
		uint32_t b = LIBVIRQ_AVIC_LIX_CLUSTER_ + (uint32_t)__builtin_ctzll(cl);

		if (on)
			lix_add_(v->vm, b, v->index);
		else
			lix_del_(v->vm, b, v->index);
	}
}

/*
 * Moves @v to the buckets its counted state (log_class, LDR) names: the new
 * ones first, then off the old ones, so that a concurrent resolver never
 * misses a vCPU that matches both before and after the change.
 */
static void lix_sync_(struct virq_avic_vcpu *v)
{
	uint32_t lid = LD_(&v->ldr) >> 24, flat = 0;
	uint64_t cl = 0;

	if (v->log_class == 1)
		flat = lid;
	else if (v->log_class == 2)
		cl = (uint64_t)(lid & 0xFu) << ((lid >> 4) * 4u);
	lix_apply_(v, flat & ~(uint32_t)v->lix_flat, cl & ~v->lix_cluster, true);
	lix_apply_(v, v->lix_flat & ~flat, v->lix_cluster & ~cl, false);
	v->lix_flat = (uint8_t)flat;
	v->lix_cluster = cl;
}

/* ---- counts ---- */

/* More than one bit set (no popcount: it may need a libgcc helper). */
static bool multi_(uint32_t x)
{
	return (x & (x - 1u)) != 0;
}

/* Adds what @v's state contributes to the VM's counts (and claims its logical entry). */
static void count_(struct virq_avic_vcpu *v)
{
	struct virq_avic_vm *vm = v->vm;
	bool x2 = LD_(&v->x2apic);
	uint32_t xid = cur_id_(v), ldr = LD_(&v->ldr), dfr = LD_(&v->dfr), idx;

	__atomic_fetch_add(x2 ? &vm->n_x2apic : &vm->n_xapic, 1u, __ATOMIC_SEQ_CST);
	v->slow = !x2 && xid != v->apic_id;
	if (v->slow)
		__atomic_fetch_add(&vm->slow, 1u, __ATOMIC_SEQ_CST);
	v->too_big = !x2 && v->apic_id > LIBVIRQ_AVIC_MAX_INDEX_XAVIC;
	vm->too_big += v->too_big;
	v->modified = !x2 && xid != (v->apic_id & 0xFFu);
	vm->id_modified += v->modified;
	v->xapic_high = !x2 && v->apic_id > 7u;
	vm->xapic_high += v->xapic_high;
	v->log_class = 0;
	v->log_multi = false;
	if (x2 || ldr == 0) {
		lix_sync_(v);
		return; /* x2APIC: no logical entry (x2AVIC derives logical IDs) */
	}
	if ((dfr >> 28) == 0xFu) {
		v->log_class = 1;
		v->log_multi = multi_(ldr >> 24);
	} else if ((dfr >> 28) == 0) {
		v->log_class = 2;
		v->log_multi = multi_((ldr >> 24) & 0xFu);
	}
	vm->log_flat += v->log_class == 1;
	vm->log_cluster += v->log_class == 2;
	vm->log_multi += v->log_multi;
	lix_sync_(v);
	if (v->log_class && virq_avic_logical_index(dfr, ldr, &idx) == LIBVIRQ_OK)
		claim_(v, idx);
}

static void uncount_(struct virq_avic_vcpu *v)
{
	struct virq_avic_vm *vm = v->vm;

	release_(v);
	__atomic_fetch_sub(LD_(&v->x2apic) ? &vm->n_x2apic : &vm->n_xapic, 1u, __ATOMIC_SEQ_CST);
	if (v->slow)
		__atomic_fetch_sub(&vm->slow, 1u, __ATOMIC_SEQ_CST);
	vm->too_big -= v->too_big;
	vm->id_modified -= v->modified;
	vm->xapic_high -= v->xapic_high;
	vm->log_flat -= v->log_class == 1;
	vm->log_cluster -= v->log_class == 2;
	vm->log_multi -= v->log_multi;
	v->slow = v->too_big = v->modified = v->log_multi = v->xapic_high = false;
	v->log_class = 0;
}

/*
 * The inhibits the tables require (docs/avic.md "Inhibits the library
 * sets"): each keeps hardware-accelerated IPIs from disagreeing with the
 * destination rules, so that while none is set the hardware delivers
 * exactly what virq_avic_resolve() computes.
 */
static void recheck_(struct virq_avic_vm *vm)
{
	uint32_t a = 0, modes;

	if (vm->too_big)
		a |= 1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG;
	if (vm->id_modified)
		a |= 1u << LIBVIRQ_AVIC_INHIBIT_APIC_ID_MODIFIED;
	/* x2APIC ID 0xFF aliases the xAPIC broadcast in a mixed-mode VM. */
	if (LD_(&vm->n_xapic) && LD_(&vm->n_x2apic) && vm->max_index >= 0xFFu &&
	    by_apic_(vm, 0xFFu))
		a |= 1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_ALIASED;
	modes = (uint32_t)(LD_(&vm->n_x2apic) != 0) + (uint32_t)(vm->log_flat != 0) +
		(uint32_t)(vm->log_cluster != 0);
	/*
	 * x2APIC logical destination 0xFF is cluster 0, IDs 0-7, for the
	 * hardware, and the broadcast for an xAPIC-mode vCPU: one with an ID
	 * above 7 would miss it.
	 */
	if (modes > 1 || vm->log_multi || vm->log_aliased || (LD_(&vm->n_x2apic) && vm->xapic_high))
		a |= 1u << LIBVIRQ_AVIC_INHIBIT_LOGICAL_ID_ALIASED;
	__atomic_store_n(&vm->auto_inhibits, a, __ATOMIC_SEQ_CST);
}

/* ---- vCPUs entering and leaving ---- */

void virq_avic_tables_add_(struct virq_avic_vcpu *v)
{
	struct virq_avic_vm *vm = v->vm;

	__atomic_store_n(phys_slot_(vm, v->apic_id), v->entry, __ATOMIC_RELEASE);
	__atomic_store_n(&vm->by_index[v->index], v, __ATOMIC_RELEASE);
	map_insert_(vm, v->apic_id, v->index);
	if (v->apic_id > vm->highest)
		ST_(&vm->highest, v->apic_id);
	vm->nr_vcpus++;
	count_(v);
	recheck_(vm);
}

void virq_avic_tables_remove_(struct virq_avic_vcpu *v)
{
	struct virq_avic_vm *vm = v->vm;
	uint32_t h = 0;

	uncount_(v);
	lix_sync_(v); /* uncounted: off every bucket */
	__atomic_store_n(phys_slot_(vm, v->apic_id), 0, __ATOMIC_RELEASE);
	__atomic_store_n(&vm->by_index[v->index], NULL, __ATOMIC_RELEASE);
	map_remove_(vm, v->apic_id);
	vm->nr_vcpus--;
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		struct virq_avic_vcpu *t = vm->by_index[i];

		if (t && t->apic_id > h)
			h = t->apic_id;
	}
	ST_(&vm->highest, h);
	recheck_(vm);
}

void virq_avic_tables_set_mode_(struct virq_avic_vcpu *v, bool x2apic)
{
	uint32_t ldr = x2apic ? virq_avic_x2apic_ldr(v->apic_id) : 0;

	uncount_(v);
	ST_(&v->x2apic, x2apic);
	/*
	 * A mode switch gives the vCPU its initial APIC ID back: the x2APIC ID
	 * is read-only and equals it; leaving x2APIC mode goes through the
	 * disabled state, which resets ID, LDR and DFR (as KVM's
	 * kvm_lapic_set_base() does with the vCPU ID).
	 */
	ST_(&v->cur_apic_id, x2apic ? v->apic_id : (v->apic_id & 0xFFu));
	ST_(&v->ldr, ldr);
	ST_(&v->dfr, LIBVIRQ_APIC_DFR_FLAT);
	__atomic_store_n(apic_reg_(v, LIBVIRQ_APIC_LDR), ldr, __ATOMIC_RELAXED);
	__atomic_store_n(apic_reg_(v, LIBVIRQ_APIC_ID),
			 x2apic ? v->apic_id : (v->apic_id & 0xFFu) << 24, __ATOMIC_RELAXED);
	if (!x2apic)
		__atomic_store_n(apic_reg_(v, LIBVIRQ_APIC_DFR), LIBVIRQ_APIC_DFR_FLAT,
				 __ATOMIC_RELAXED);
	count_(v);
	recheck_(v->vm);
}

/* ---- guest writes of LDR, DFR and the APIC ID (trap exits) ---- */

/* The result of an LDR/DFR change for the caller: what the logical table now says. */
static virq_status log_result_(const struct virq_avic_vcpu *v)
{
	if (v->log_index < 0)
		return LIBVIRQ_ENOENT;
	return v->log_owner ? LIBVIRQ_OK : LIBVIRQ_EEXIST;
}

virq_status virq_avic_ldr_write_(struct virq_avic_vcpu *vcpu, uint32_t ldr)
{
	if (LD_(&vcpu->x2apic)) /* x2APIC LDR is read-only and derived */
		return LIBVIRQ_OK;
	uncount_(vcpu);
	ST_(&vcpu->ldr, ldr); /* kept even when it names no single entry: emulation matches on it */
	count_(vcpu);
	recheck_(vcpu->vm);
	return log_result_(vcpu);
}

virq_status virq_avic_ldr_write(struct virq_avic_vcpu *vcpu, uint32_t ldr)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	return virq_avic_ldr_write_(vcpu, ldr);
}

virq_status virq_avic_dfr_write_(struct virq_avic_vcpu *vcpu, uint32_t dfr)
{
	if (LD_(&vcpu->x2apic))
		return LIBVIRQ_OK;
	/* DFR[27:0] read as ones; a model other than flat or cluster is kept too. */
	uncount_(vcpu);
	ST_(&vcpu->dfr, dfr | 0x0FFFFFFFu);
	count_(vcpu);
	recheck_(vcpu->vm);
	return log_result_(vcpu);
}

virq_status virq_avic_dfr_write(struct virq_avic_vcpu *vcpu, uint32_t dfr)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	return virq_avic_dfr_write_(vcpu, dfr);
}

virq_status virq_avic_apic_id_write_(struct virq_avic_vcpu *vcpu, uint32_t value)
{
	uint32_t before;

	if (LD_(&vcpu->x2apic)) /* x2APIC ID is read-only */
		return LIBVIRQ_OK;
	before = vm_inhibits_(vcpu->vm);
	uncount_(vcpu);
	ST_(&vcpu->cur_apic_id, value >> 24);
	count_(vcpu);
	recheck_(vcpu->vm);
	/* The tables stay indexed by the initial ID; a changed ID inhibits instead. */
	return (vm_inhibits_(vcpu->vm) & ~before) ? LIBVIRQ_EINHIBITED : LIBVIRQ_OK;
}

virq_status virq_avic_apic_id_write(struct virq_avic_vcpu *vcpu, uint32_t value)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	return virq_avic_apic_id_write_(vcpu, value);
}
