/* SPDX-License-Identifier: MIT */
/*
 * AMD IOMMU guest virtual APIC mode (IOMMU spec pub. 48882, 128-bit IRTE with
 * GAEn=1, GA log): IRTE encode/decode, IsRun/destination updates on vCPU
 * load/put, GA log decode and GA tag lookup. Bit positions follow the Linux
 * layout (docs/rationale.md#iommu-irte-ga-layout); the spec tables were not
 * checked (UNCERTAIN).
 */
#include "avic/avic_priv.h"

/* lo word (bits 63:0). */
#define LIBVIRQ_IRTE_RemapEn 0, 0
#define LIBVIRQ_IRTE_SupIOPF 1, 1
#define LIBVIRQ_IRTE_GALogIntr 2, 2
#define LIBVIRQ_IRTE_IntType 4, 2
#define LIBVIRQ_IRTE_RqEoi 5, 5
#define LIBVIRQ_IRTE_GaRsvd 5, 3
#define LIBVIRQ_IRTE_IsRun 6, 6
#define LIBVIRQ_IRTE_DM 6, 6
#define LIBVIRQ_IRTE_GuestMode 7, 7
#define LIBVIRQ_IRTE_DestLo 31, 8
#define LIBVIRQ_IRTE_GATag 63, 32
/* hi word (bits 127:64). */
#define LIBVIRQ_IRTE_Vector 7, 0
#define LIBVIRQ_IRTE_HiRsvd1 11, 8
#define LIBVIRQ_IRTE_GaRootPtr 51, 12
#define LIBVIRQ_IRTE_HiRsvd2 55, 52
#define LIBVIRQ_IRTE_DestHi 63, 56

/* GA log entry. */
#define LIBVIRQ_GALOG_Tag 31, 0
#define LIBVIRQ_GALOG_DevId 47, 32
#define LIBVIRQ_GALOG_Code 63, 60

virq_status virq_avic_irte_ga_encode(const struct virq_avic_irte_ga *f, uint64_t out[2])
{
	uint64_t lo, hi;

	if (!f || !out)
		return LIBVIRQ_EINVAL;
	lo = LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_RemapEn, f->remap_en) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_SupIOPF, f->sup_iopf) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_GuestMode, f->guest_mode) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_DestLo, f->dest & 0xFFFFFFu);
	hi = LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_Vector, f->vector) |
	     LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_DestHi, f->dest >> 24);
	if (f->guest_mode) {
		if (f->int_type || f->rq_eoi || f->dm_logical)
			return LIBVIRQ_EINVAL;
		if (f->ga_root_pa & 0xFFFu)
			return LIBVIRQ_EALIGN;
		if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_IRTE_GaRootPtr, f->ga_root_pa))
			return LIBVIRQ_ERANGE;
		lo |= LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_GALogIntr, f->ga_log_intr) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_IsRun, f->is_run) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_GATag, f->ga_tag);
		hi |= f->ga_root_pa;
	} else {
		if (f->ga_log_intr || f->is_run || f->ga_tag || f->ga_root_pa)
			return LIBVIRQ_EINVAL;
		if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_IRTE_IntType, f->int_type))
			return LIBVIRQ_ERANGE;
		lo |= LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_IntType, f->int_type) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_RqEoi, f->rq_eoi) |
		      LIBVIRQ_FIELD_PREP(LIBVIRQ_IRTE_DM, f->dm_logical);
	}
	out[0] = lo;
	out[1] = hi;
	return LIBVIRQ_OK;
}

virq_status virq_avic_irte_ga_decode(const uint64_t in[2], struct virq_avic_irte_ga *f)
{
	uint64_t lo, hi;
	bool rsvd = false;

	if (!in || !f)
		return LIBVIRQ_EINVAL;
	lo = in[0];
	hi = in[1];
	memset(f, 0, sizeof(*f));
	f->remap_en = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_RemapEn, lo) != 0;
	f->sup_iopf = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_SupIOPF, lo) != 0;
	f->guest_mode = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GuestMode, lo) != 0;
	f->dest = (uint32_t)(LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DestLo, lo) |
			     (LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DestHi, hi) << 24));
	f->vector = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_Vector, hi);
	if (f->guest_mode) {
		f->ga_log_intr = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GALogIntr, lo) != 0;
		f->is_run = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_IsRun, lo) != 0;
		f->ga_tag = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GATag, lo);
		f->ga_root_pa = hi & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_GaRootPtr);
		rsvd = (lo & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_GaRsvd)) ||
		       (hi & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_HiRsvd2));
	} else {
		f->int_type = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_IntType, lo);
		f->rq_eoi = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_RqEoi, lo) != 0;
		f->dm_logical = LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DM, lo) != 0;
	}
	rsvd = rsvd || (hi & LIBVIRQ_FIELD_MASK(LIBVIRQ_IRTE_HiRsvd1));
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

virq_status virq_avic_ga_log_decode(uint64_t e, uint32_t *tag, uint16_t *devid, uint8_t *code)
{
	if (!tag || !devid || !code)
		return LIBVIRQ_EINVAL;
	*tag = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GALOG_Tag, e);
	*devid = (uint16_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GALOG_DevId, e);
	*code = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GALOG_Code, e);
	return LIBVIRQ_OK;
}

#define LIBVIRQ_GATAG_Vcpu 11, 0
#define LIBVIRQ_GATAG_Vm 31, 12
_Static_assert(LIBVIRQ_FIELD_WIDTH(LIBVIRQ_GATAG_Vcpu) == LIBVIRQ_GATAG_VCPU_BITS, "GA tag vCPU width");
_Static_assert((LIBVIRQ_FIELD_MASK(LIBVIRQ_GATAG_Vcpu) | LIBVIRQ_FIELD_MASK(LIBVIRQ_GATAG_Vm)) == 0xFFFFFFFFu,
	       "GA tag fields fill 32 bits");
_Static_assert(LIBVIRQ_FIELD_MAX(LIBVIRQ_GATAG_Vcpu) == LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K,
	       "GA tag holds every vCPU index");

virq_status virq_avic_gatag_encode(uint32_t vm_id, uint32_t vcpu_index, uint32_t *tag)
{
	if (!tag)
		return LIBVIRQ_EINVAL;
	if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_GATAG_Vm, vm_id) || !LIBVIRQ_FIELD_FITS(LIBVIRQ_GATAG_Vcpu, vcpu_index))
		return LIBVIRQ_ERANGE;
	*tag = (uint32_t)(LIBVIRQ_FIELD_PREP(LIBVIRQ_GATAG_Vm, vm_id) |
			  LIBVIRQ_FIELD_PREP(LIBVIRQ_GATAG_Vcpu, vcpu_index));
	return LIBVIRQ_OK;
}

virq_status virq_avic_gatag_decode(uint32_t tag, uint32_t *vm_id, uint32_t *vcpu_index)
{
	if (!vm_id || !vcpu_index)
		return LIBVIRQ_EINVAL;
	*vm_id = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GATAG_Vm, tag);
	*vcpu_index = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GATAG_Vcpu, tag);
	return LIBVIRQ_OK;
}

/* ---- registry ---- */

virq_status virq_avic_registry_init(struct virq_avic_registry *reg, struct virq_avic_vm **slots,
				    uint32_t nslots)
{
	if (!reg || !slots)
		return LIBVIRQ_EINVAL;
	if (nslots < 2 || nslots > LIBVIRQ_GATAG_VM_MAX + 1u)
		return LIBVIRQ_ERANGE;
	for (uint32_t i = 0; i < nslots; i++)
		slots[i] = NULL;
	reg->slots = slots;
	reg->nslots = nslots;
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_add(struct virq_avic_registry *reg, struct virq_avic_vm *vm)
{
	uint32_t id;

	if (!reg || !vm || !reg->slots)
		return LIBVIRQ_EINVAL;
	id = vm->cfg.vm_id;
	if (id == 0 || id >= reg->nslots)
		return LIBVIRQ_ERANGE;
	if (__atomic_load_n(&reg->slots[id], __ATOMIC_ACQUIRE))
		return LIBVIRQ_EEXIST;
	__atomic_store_n(&reg->slots[id], vm, __ATOMIC_RELEASE);
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_remove(struct virq_avic_registry *reg, struct virq_avic_vm *vm)
{
	uint32_t id;

	if (!reg || !vm || !reg->slots)
		return LIBVIRQ_EINVAL;
	id = vm->cfg.vm_id;
	if (id == 0 || id >= reg->nslots ||
	    __atomic_load_n(&reg->slots[id], __ATOMIC_ACQUIRE) != vm)
		return LIBVIRQ_ENOENT;
	__atomic_store_n(&reg->slots[id], NULL, __ATOMIC_RELEASE);
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_lookup(const struct virq_avic_registry *reg, uint32_t tag,
				      struct virq_avic_vm **vm, struct virq_avic_vcpu **vcpu)
{
	uint32_t id, idx;
	struct virq_avic_vm *v;
	struct virq_avic_vcpu *c;

	if (!reg || !vcpu || !reg->slots)
		return LIBVIRQ_EINVAL;
	IGNORE_(virq_avic_gatag_decode(tag, &id, &idx));
	if (id == 0 || id >= reg->nslots)
		return LIBVIRQ_ENOENT;
	v = __atomic_load_n(&reg->slots[id], __ATOMIC_ACQUIRE);
	if (!v || idx >= v->cfg.max_vcpus)
		return LIBVIRQ_ENOENT;
	c = __atomic_load_n(&v->by_index[idx], __ATOMIC_ACQUIRE);
	if (!c)
		return LIBVIRQ_ENOENT;
	if (vm)
		*vm = v;
	*vcpu = c;
	return LIBVIRQ_OK;
}

virq_status virq_avic_ga_log_handle(const struct virq_avic_registry *reg, uint64_t entry,
				    struct virq_avic_vcpu **vcpu)
{
	struct virq_avic_vcpu *c = NULL;
	uint32_t tag;
	uint16_t devid;
	uint8_t code;
	virq_status st;

	if (vcpu)
		*vcpu = NULL;
	if (!reg)
		return LIBVIRQ_EINVAL;
	IGNORE_(virq_avic_ga_log_decode(entry, &tag, &devid, &code));
	if (code != LIBVIRQ_GA_LOG_GUEST_NR)
		return LIBVIRQ_OK;
	st = virq_avic_registry_lookup(reg, tag, NULL, &c);
	if (st != LIBVIRQ_OK)
		return st;
	/* The IOMMU already set the IRR bit; the vCPU only needs waking. */
	CNT_(&c->cnt.wakes);
	CNT_(&c->cnt.kick);
	(c->vm->hal.ops->kick_vcpu)(c->vm->hal.ctx, c->cookie);
	if (vcpu)
		*vcpu = c;
	return LIBVIRQ_OK;
}

/* ---- IRTEs attached to vCPUs ---- */

/*
 * IsRun = 1 makes the IOMMU ring the doorbell, which only a guest running
 * with AVIC notices: a vCPU running without it (VM inhibited, in L2) gets
 * IsRun = 0 and GALogIntr = 1, so the GA log handler kicks it.
 */
static bool running_(const struct virq_avic_vcpu *v)
{
	return v->loaded && !v->blocking && avic_on_(v);
}

/* GALogIntr while not IsRun: blocking, or running without AVIC (not when put). */
static bool ga_log_(const struct virq_avic_vcpu *v)
{
	return v->blocking || v->loaded;
}

/* The IRTE is written with __atomic_store_n, which clang-tidy does not see. */
static void irte_update_(const struct virq_avic_vcpu *v,
			 uint64_t *irte) // NOLINT(readability-non-const-parameter)
{
	uint64_t lo = __atomic_load_n(&irte[0], __ATOMIC_RELAXED);
	uint64_t hi = __atomic_load_n(&irte[1], __ATOMIC_RELAXED);

	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_GuestMode, lo))
		return;
	if (!running_(v)) {
		/* Destination unchanged; no GA log interrupt when merely put (preempted). */
		lo = LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_IsRun, lo, 0);
		lo = LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_GALogIntr, lo, ga_log_(v));
		__atomic_store_n(&irte[0], lo, __ATOMIC_RELEASE);
		return;
	}
	if (LIBVIRQ_FIELD_GET(LIBVIRQ_IRTE_DestHi, hi) != (v->host_apic_id >> 24)) {
		/*
		 * Destination spans both words: pass through "not running" (safe
		 * during load: the coming VMRUN reads the IRR) while hi changes.
		 */
		lo = LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_IsRun, lo, 0);
		__atomic_store_n(&irte[0], lo, __ATOMIC_RELEASE);
		__atomic_store_n(&irte[1],
				 LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_DestHi, hi, v->host_apic_id >> 24),
				 __ATOMIC_RELEASE);
	}
	lo = LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_DestLo, lo, v->host_apic_id & 0xFFFFFFu);
	lo = LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_IsRun, lo, 1);
	lo = LIBVIRQ_FIELD_SET(LIBVIRQ_IRTE_GALogIntr, lo, 0);
	__atomic_store_n(&irte[0], lo, __ATOMIC_RELEASE);
}

void virq_avic_irtes_update_(struct virq_avic_vcpu *v)
{
	for (struct virq_avic_irte_ref *r = v->irtes; r; r = r->next)
		irte_update_(v, r->irte);
}

virq_status virq_avic_irte_attach(struct virq_avic_vcpu *vcpu, struct virq_avic_irte_ref *ref,
				  uint64_t *irte, uint8_t vector)
{
	struct virq_avic_irte_ga f = {0};
	uint64_t w[2];
	virq_status st;

	/* vm_id 0 cannot be registered: its GA log entries would wake nobody. */
	if (!vcpu || !vcpu->vm || !ref || !irte || vcpu->vm->cfg.vm_id == 0)
		return LIBVIRQ_EINVAL;
	if (vector < 16u)
		return LIBVIRQ_ERANGE;
	for (struct virq_avic_irte_ref *r = vcpu->irtes; r; r = r->next)
		if (r == ref || r->irte == irte)
			return LIBVIRQ_EEXIST;
	f.remap_en = true;
	f.guest_mode = true;
	f.vector = vector;
	f.ga_root_pa = vcpu->backing.pa;
	f.dest = vcpu->host_apic_id;
	/* A running vCPU is targeted at once, not at its next load
	 * (docs/rationale.md#avic-run-state). */
	f.is_run = running_(vcpu);
	f.ga_log_intr = !f.is_run && ga_log_(vcpu);
	st = virq_avic_gatag_encode(vcpu->vm->cfg.vm_id, vcpu->index, &f.ga_tag);
	if (st == LIBVIRQ_OK)
		st = virq_avic_irte_ga_encode(&f, w);
	if (st != LIBVIRQ_OK)
		return st;
	__atomic_store_n(&irte[1], w[1], __ATOMIC_RELEASE);
	__atomic_store_n(&irte[0], w[0], __ATOMIC_RELEASE);
	ref->irte = irte;
	ref->next = vcpu->irtes;
	vcpu->irtes = ref;
	return LIBVIRQ_OK;
}

virq_status virq_avic_irte_detach(struct virq_avic_vcpu *vcpu, struct virq_avic_irte_ref *ref)
{
	if (!vcpu || !ref)
		return LIBVIRQ_EINVAL;
	for (struct virq_avic_irte_ref **p = &vcpu->irtes; *p; p = &(*p)->next) {
		if (*p == ref) {
			*p = ref->next;
			ref->next = NULL;
			return LIBVIRQ_OK;
		}
	}
	return LIBVIRQ_ENOENT;
}
