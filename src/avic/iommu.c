/* SPDX-License-Identifier: MIT */
/*
 * AMD IOMMU guest virtual APIC mode (IOMMU spec pub. 48882, 128-bit IRTE with
 * GAEn=1, GA log), driver part: the GA-tag registry and GA log dispatch, and
 * the IRTEs attached to vCPUs (IsRun/GALogIntr/destination on load/put). The
 * pure IRTE, GA log and GA tag encoders are in enc/iommu.c. Layout and the
 * no-invalidation rule: docs/rationale.md#iommu-irte-ga-layout.
 */
#include "avic_priv.h"

/* ---- registry ---- */

static bool reg_live_(const struct virq_avic_registry *reg)
{
	return reg && LD_(&reg->state) == LIBVIRQ_AVIC_ST_LIVE_;
}

/* A live registry and VM (registry_add/remove), reported under @p api
 * through the VM's HAL. */
static virq_status reg_vm_check_(const char *api, const struct virq_avic_registry *reg,
				 const struct virq_avic_vm *vm)
{
	if (!reg_live_(reg))
		return LIBVIRQ_FAIL_DEAD_(api, vm_live_(vm) ? &vm->hal : NULL, "reg", reg,
					  LIBVIRQ_AVIC_ST_DEAD_);
	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	return LIBVIRQ_OK;
}

/*
 * A registry has no HAL: where no VM of the call has one either, a failure
 * has nothing to report through (hal.h @ref virq_failures) and returns its
 * status only; registry_init and registry_destroy never have one.
 */

virq_status virq_avic_registry_init(struct virq_avic_registry *reg, struct virq_avic_vm **slots,
				    uint32_t nslots)
{
	if (!reg || !slots)
		return LIBVIRQ_EINVAL;
	if (reg_live_(reg))
		return LIBVIRQ_EBUSY;
	if (nslots < 2 || nslots > LIBVIRQ_GATAG_VM_MAX + 1u)
		return LIBVIRQ_ERANGE;
	for (uint32_t i = 0; i < nslots; i++)
		slots[i] = NULL;
	reg->slots = slots;
	reg->nslots = nslots;
	reg->count = 0;
	__atomic_store_n(&reg->state, LIBVIRQ_AVIC_ST_LIVE_, __ATOMIC_RELEASE);
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_destroy(struct virq_avic_registry *reg)
{
	if (!reg)
		return LIBVIRQ_OK;
	if (!reg_live_(reg))
		return LIBVIRQ_EINVAL;
	if (reg->count)
		return LIBVIRQ_EBUSY;
	__atomic_store_n(&reg->state, LIBVIRQ_AVIC_ST_DEAD_, __ATOMIC_RELEASE);
	reg->slots = NULL;
	reg->nslots = 0;
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_add(struct virq_avic_registry *reg, struct virq_avic_vm *vm)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = reg_vm_check_(api, reg, vm);
	uint32_t id;

	if (st != LIBVIRQ_OK)
		return st;
	id = vm->cfg.vm_id;
	if (id == 0)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_ERANGE,
				     "vm_id=0 (GA tags of VM id 0 are not mapped back)");
	if (id >= reg->nslots)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE, "vm_id=%u >= nslots=%u", id,
				      reg->nslots);
	if (vm->registry)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EEXIST, "vm already registered");
	if (__atomic_load_n(&reg->slots[id], __ATOMIC_ACQUIRE))
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EEXIST,
				      "vm_id=%u already registered by another VM", id);
	__atomic_store_n(&reg->slots[id], vm, __ATOMIC_RELEASE);
	vm->registry = reg;
	reg->count++;
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_remove(struct virq_avic_registry *reg, struct virq_avic_vm *vm)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = reg_vm_check_(api, reg, vm);
	uint32_t id;

	if (st != LIBVIRQ_OK)
		return st;
	id = vm->cfg.vm_id;
	if (vm->registry != reg)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_ENOENT, "vm not in this registry");
	/* Registered here, so 0 < vm_id < nslots held when it was added. */
	if (id == 0 || id >= reg->nslots ||
	    __atomic_load_n(&reg->slots[id], __ATOMIC_ACQUIRE) != vm)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ENOENT,
				      "vm_id=%u: the registry's slot holds another VM", id);
	__atomic_store_n(&reg->slots[id], NULL, __ATOMIC_RELEASE);
	vm->registry = NULL;
	reg->count--;
	return LIBVIRQ_OK;
}

/*
 * virq_avic_registry_lookup() of a live registry, reported under @p api: a
 * tag naming no VM has no HAL to report through; one naming a VM but none
 * of its vCPUs reports through the VM's.
 */
static virq_status reg_lookup_(const char *api, const struct virq_avic_registry *reg, uint32_t tag,
			       struct virq_avic_vm **vm, struct virq_avic_vcpu **vcpu)
{
	uint32_t id, idx;
	struct virq_avic_vm *v;
	struct virq_avic_vcpu *c;

	IGNORE_(virq_avic_gatag_decode(tag, &id, &idx)); /* cannot fail */
	if (id == 0 || id >= reg->nslots)
		return LIBVIRQ_ENOENT;
	v = __atomic_load_n(&reg->slots[id], __ATOMIC_ACQUIRE);
	if (!v)
		return LIBVIRQ_ENOENT;
	if (idx >= v->cfg.max_vcpus)
		return LIBVIRQ_FAILV_(api, &v->hal, LIBVIRQ_ENOENT,
				      "tag=%x: vCPU index=%u >= the VM's max_vcpus=%u", tag, idx,
				      v->cfg.max_vcpus);
	c = __atomic_load_n(&v->by_index[idx], __ATOMIC_ACQUIRE);
	if (!c)
		return LIBVIRQ_FAILV_(api, &v->hal, LIBVIRQ_ENOENT,
				      "tag=%x: the VM has no vCPU of index=%u", tag, idx);
	if (vm)
		*vm = v;
	*vcpu = c;
	return LIBVIRQ_OK;
}

virq_status virq_avic_registry_lookup(const struct virq_avic_registry *reg, uint32_t tag,
				      struct virq_avic_vm **vm, struct virq_avic_vcpu **vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (vcpu)
		*vcpu = NULL;
	if (!reg_live_(reg) || !vcpu)
		return LIBVIRQ_EINVAL; /* no HAL among the arguments */
	return reg_lookup_(api, reg, tag, vm, vcpu);
}

virq_status virq_avic_ga_log_handle(const struct virq_avic_registry *reg, uint64_t entry,
				    struct virq_avic_vcpu **vcpu)
{
	struct virq_avic_vcpu *c = NULL;
	uint32_t tag;
	uint16_t devid;
	uint8_t code;
	virq_status st;

	const char *const api = LIBVIRQ_ENTRY_;

	if (vcpu)
		*vcpu = NULL;
	if (!reg_live_(reg))
		return LIBVIRQ_EINVAL; /* no HAL among the arguments */
	IGNORE_(virq_avic_ga_log_decode(entry, &tag, &devid, &code)); /* cannot fail */
	if (code != LIBVIRQ_GA_LOG_GUEST_NR)
		return LIBVIRQ_OK;
	st = reg_lookup_(api, reg, tag, NULL, &c);
	/* c is set whenever st is OK; GCC -O3 cannot see it (-Wstringop-overflow). */
	if (st != LIBVIRQ_OK || !c)
		return st != LIBVIRQ_OK ? st : LIBVIRQ_ENOENT;
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

	if (!LIBVIRQ_FIELD_GET(IRTE_GA_F_(GuestMode), lo))
		return;
	if (!running_(v)) {
		/* Destination unchanged; no GA log interrupt when merely put (preempted). */
		lo = LIBVIRQ_FIELD_SET(IRTE_GA_F_(IsRun), lo, 0);
		lo = LIBVIRQ_FIELD_SET(IRTE_GA_F_(GALogIntr), lo, ga_log_(v));
		__atomic_store_n(&irte[0], lo, __ATOMIC_RELEASE);
		return;
	}
	if (LIBVIRQ_FIELD_GET(IRTE_GA_F_(Destination_31_24), hi) != (v->host_apic_id >> 24)) {
		/*
		 * Destination spans both words: pass through "not running" (safe
		 * during load: the coming VMRUN reads the IRR) while hi changes.
		 */
		lo = LIBVIRQ_FIELD_SET(IRTE_GA_F_(IsRun), lo, 0);
		__atomic_store_n(&irte[0], lo, __ATOMIC_RELEASE);
		__atomic_store_n(
		    &irte[1],
		    LIBVIRQ_FIELD_SET(IRTE_GA_F_(Destination_31_24), hi, v->host_apic_id >> 24),
		    __ATOMIC_RELEASE);
	}
	lo = LIBVIRQ_FIELD_SET(IRTE_GA_F_(Destination_23_0), lo, v->host_apic_id & 0xFFFFFFu);
	lo = LIBVIRQ_FIELD_SET(IRTE_GA_F_(IsRun), lo, 1);
	lo = LIBVIRQ_FIELD_SET(IRTE_GA_F_(GALogIntr), lo, 0);
	__atomic_store_n(&irte[0], lo, __ATOMIC_RELEASE);
}

void virq_avic_irtes_update_(struct virq_avic_vcpu *v)
{
	for (struct virq_avic_irte_ref *r = v->irtes; r; r = r->next)
		irte_update_(v, r->irte);
}

static bool ref_attached_(const struct virq_avic_irte_ref *ref)
{
	return LD_(&ref->state) == LIBVIRQ_AVIC_ST_ATTACHED_ && ref->owner;
}

/* The IRTE is attached (through any reference) to a vCPU of @vm. */
static bool irte_in_vm_(const struct virq_avic_vm *vm, const uint64_t *irte)
{
	for (uint32_t i = 0; i < vm->cfg.max_vcpus; i++) {
		const struct virq_avic_vcpu *t = vm->by_index[i];

		for (const struct virq_avic_irte_ref *r = t ? t->irtes : NULL; r; r = r->next)
			if (r->irte == irte)
				return true;
	}
	return false;
}

virq_status virq_avic_irte_attach(struct virq_avic_vcpu *vcpu, struct virq_avic_irte_ref *ref,
				  uint64_t *irte, uint8_t vector)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_avic_irte_ga f = {0};
	const struct virq_hal *hal;
	uint64_t w[2];

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	hal = &vcpu->vm->hal;
	if (!ref)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "ref=NULL");
	if (!irte)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "irte=NULL");
	/* vm_id 0 cannot be registered: its GA log entries would wake nobody. */
	if (vcpu->vm->cfg.vm_id == 0)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL,
				     "the vCPU's VM has vm_id=0 (not registrable)");
	if (vector < 16u)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "vector=%u < 16", vector);
	/*
	 * A reference attached to any vCPU (this one or another) is refused:
	 * re-linking it would leave it in the first vCPU's list, which a detach
	 * from the second and a free would turn into a use after free.
	 */
	if (ref_attached_(ref))
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EEXIST, "ref already attached to a vCPU");
	if (irte_in_vm_(vcpu->vm, irte))
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EEXIST,
				     "irte already attached to a vCPU of this VM");
	f.remap_en = true;
	f.guest_mode = true;
	f.vector = vector;
	f.ga_root_pa = vcpu->backing.pa;
	f.dest = vcpu->host_apic_id;
	/* A running vCPU is targeted at once, not at its next load (KVM f3cebc75e742). */
	f.is_run = running_(vcpu);
	f.ga_log_intr = !f.is_run && ga_log_(vcpu);
	/* Cannot fail: vm_id and index were range-checked at creation, the PA is aligned. */
	IGNORE_(virq_avic_gatag_encode(vcpu->vm->cfg.vm_id, vcpu->index, &f.ga_tag));
	IGNORE_(virq_avic_irte_ga_encode(&f, w));
	__atomic_store_n(&irte[1], w[1], __ATOMIC_RELEASE);
	__atomic_store_n(&irte[0], w[0], __ATOMIC_RELEASE);
	ref->irte = irte;
	ref->owner = vcpu;
	ref->next = vcpu->irtes;
	vcpu->irtes = ref;
	ST_(&ref->state, LIBVIRQ_AVIC_ST_ATTACHED_);
	return LIBVIRQ_OK;
}

virq_status virq_avic_irte_detach(struct virq_avic_vcpu *vcpu, struct virq_avic_irte_ref *ref)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	if (!ref)
		return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_EINVAL, "ref=NULL");
	if (!ref_attached_(ref))
		return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_ENOENT, "ref not attached");
	if (ref->owner != vcpu)
		return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_ENOENT,
				     "ref attached to another vCPU");
	for (struct virq_avic_irte_ref **p = &vcpu->irtes; *p; p = &(*p)->next) {
		if (*p == ref) {
			*p = ref->next;
			ref->next = NULL;
			ref->owner = NULL;
			ST_(&ref->state, 0u);
			return LIBVIRQ_OK;
		}
	}
	/* Its state says attached here but the list does not hold it: storage reused. */
	return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_ENOENT,
			     "ref not in the vCPU's list (its storage reused?)");
}
