/* SPDX-License-Identifier: MIT */
/*
 * AVIC VM and vCPU objects: lifecycle and state checks, backing pages,
 * inhibits, policy and calibration, and the VMCB control values (APM Vol 2 rev 3.44
 * §15.29.4, Appendix B). The APIC-ID tables themselves are kept by tables.c.
 */
#include "avic_priv.h"

/* The VM configuration against the CPU, one report under @p api per check. */
static virq_status vm_check_cfg_(const char *api, const struct virq_hal *hal,
				 const struct virq_avic_caps *caps,
				 const struct virq_avic_vm_cfg *cfg)
{
	uint32_t cap = virq_avic_mode_max_(cfg->mode);

	if (!cap)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "cfg mode=%u unknown",
				      (uint64_t)cfg->mode);
	if ((unsigned)cfg->policy > LIBVIRQ_AVIC_POLICY_KICK)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "cfg policy=%u unknown",
				      (uint64_t)cfg->policy);
	if (!caps->avic)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP, "caps avic=0");
	if (cfg->mode != LIBVIRQ_AVIC_MODE_XAVIC && !caps->x2avic)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP, "cfg mode=%u with caps x2avic=0",
				      (uint64_t)cfg->mode);
	if (cfg->mode == LIBVIRQ_AVIC_MODE_X2AVIC_4K && !caps->x2avic_4k)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "cfg mode=%u (X2AVIC_4K) with caps x2avic_4k=0",
				      (uint64_t)cfg->mode);
	if (cfg->max_vcpus == 0)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ERANGE, "cfg max_vcpus=0");
	if (cfg->max_vcpus > cap + 1u)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "cfg max_vcpus=%u > the mode's table entries=%u",
				      cfg->max_vcpus, cap + 1u);
	if (cfg->vm_id > LIBVIRQ_GATAG_VM_MAX)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "cfg vm_id=%x > 0xfffff",
				      cfg->vm_id);
	if (cfg->apic_bar & 0xFFFu)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EALIGN, "cfg apic_bar=%x not 4 KiB aligned",
				      cfg->apic_bar);
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_VMCB_Addr, cfg->apic_bar))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "cfg apic_bar=%x >= 2^52",
				      cfg->apic_bar);
	return LIBVIRQ_OK;
}

/* virq_avic_vm_init()'s checks, under @p api: the HAL first, as every other
 * report goes through it. */
static virq_status vm_init_check_(const char *api, const struct virq_avic_vm *vm,
				  const struct virq_hal *hal, const struct virq_avic_caps *caps,
				  const struct virq_avic_vm_cfg *cfg)
{
	virq_status st = virq_hal_check_(api, hal, LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_KICK);

	if (st != LIBVIRQ_OK)
		return st;
	if (!vm)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vm=NULL");
	if (!caps)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "caps=NULL");
	if (!cfg)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "cfg=NULL");
	/* A live VM keeps its tables: re-initialising it would leak them. */
	if (vm_live_(vm))
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY, "vm already initialised");
	return vm_check_cfg_(api, hal, caps, cfg);
}

static void vm_free_(struct virq_avic_vm *vm)
{
	virq_page_free_(&vm->hal, &vm->phys_table);
	virq_page_free_(&vm->hal, &vm->log_table);
	virq_page_free_(&vm->hal, &vm->maps);
}

virq_status virq_avic_vm_init(struct virq_avic_vm *vm, const struct virq_hal *hal,
			      const struct virq_avic_caps *caps, const struct virq_avic_vm_cfg *cfg)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = vm_init_check_(api, vm, hal, caps, cfg);
	size_t entries, tsize;
	uint32_t slots = 0;

	if (st != LIBVIRQ_OK)
		return st;
	memset(vm, 0, sizeof(*vm));
	vm->hal = *hal;
	vm->caps = *caps;
	vm->cfg = *cfg;
	if (!vm->cfg.apic_bar)
		vm->cfg.apic_bar = LIBVIRQ_AVIC_DEFAULT_APIC_BAR;
	vm->max_index = virq_avic_mode_max_(cfg->mode);
	vm->ipiv = !cfg->disable_ipiv && !caps->erratum_1235;
	vm->policy = (uint32_t)cfg->policy;
	entries = (size_t)vm->max_index + 1u;
	/* 8-byte entries: one page for 255 or 512, eight contiguous pages for 4096. */
	tsize = (entries * 8u + 4095u) & ~(size_t)4095u;
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, tsize, 4096, &vm->phys_table, "physical APIC ID table");
	if (st == LIBVIRQ_OK)
		st = LIBVIRQ_PAGE_ALLOC_(api, hal, 4096, 4096, &vm->log_table,
					 "logical APIC ID table");
	/* The maps are sized by max_vcpus, not by the table mode. */
	if (st == LIBVIRQ_OK)
		st = LIBVIRQ_PAGE_ALLOC_(api, hal, virq_avic_maps_size_(cfg->max_vcpus, &slots),
					 4096, &vm->maps, "vCPU maps");
	if (st != LIBVIRQ_OK) {
		vm_free_(vm); /* reported above */
		return st;
	}
	virq_avic_maps_place_(vm, slots);
	__atomic_store_n(&vm->state, LIBVIRQ_AVIC_ST_LIVE_, __ATOMIC_RELEASE);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_destroy(struct virq_avic_vm *vm)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vm)
		return LIBVIRQ_OK;
	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	if (vm->nr_vcpus)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EBUSY, "nr_vcpus=%u vCPUs remain",
				      vm->nr_vcpus);
	if (vm->registry)
		return LIBVIRQ_FAIL_(
		    api, &vm->hal, LIBVIRQ_EBUSY,
		    "vm still in a GA-tag registry (virq_avic_registry_remove() first)");
	__atomic_store_n(&vm->state, LIBVIRQ_AVIC_ST_DEAD_, __ATOMIC_RELEASE);
	vm_free_(vm);
	vm->by_index = NULL;
	vm->apic_map = NULL;
	vm->lix = NULL;
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_set_policy(struct virq_avic_vm *vm, enum virq_avic_policy policy)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	if ((unsigned)policy > LIBVIRQ_AVIC_POLICY_KICK)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EINVAL, "policy=%u unknown",
				      (uint64_t)policy);
	ST_(&vm->policy, (uint32_t)policy);
	return LIBVIRQ_OK;
}

enum virq_avic_policy virq_avic_vm_policy(const struct virq_avic_vm *vm)
{
	return vm_live_(vm) ? (enum virq_avic_policy)LD_(&vm->policy) : LIBVIRQ_AVIC_POLICY_KICK;
}

virq_status virq_avic_vm_calibrate(struct virq_avic_vm *vm, uint32_t self_host_apic_id,
				   void *cookie, uint32_t rounds, enum virq_avic_policy *chosen)
{
	const char *const api = LIBVIRQ_ENTRY_;
	const struct virq_hal *hal;
	uint64_t t0, t1, t2;
	virq_status st = LIBVIRQ_OK;

	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	hal = &vm->hal;
	/* The doorbell register takes 8 bits (docs/rationale.md#avic-doorbell-apic-id). */
	if (self_host_apic_id > LIBVIRQ_AVIC_DOORBELL_MAX_ID)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "self_host_apic_id=%u > %u",
				      self_host_apic_id, LIBVIRQ_AVIC_DOORBELL_MAX_ID);
	if (rounds == 0)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ERANGE, "rounds=0");
	if (rounds > 64)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "rounds=%u > 64", rounds);
	t0 = virq_now_(hal);
	for (uint32_t i = 0; i < rounds && st == LIBVIRQ_OK; i++)
		st = virq_msr_wr_(hal, LIBVIRQ_AVIC_DOORBELL_MSR, self_host_apic_id);
	t1 = virq_now_(hal);
	for (uint32_t i = 0; i < rounds; i++)
		(hal->ops->kick_vcpu)(hal->ctx, cookie);
	t2 = virq_now_(hal);
	/* A clock that went backwards counts as no time (not as a huge cost); the
	 * kick also costs the running target an exit (docs/rationale.md#avic-kick-cost). */
	vm->doorbell_ns = virq_clock_delta_(t0, t1) / rounds;
	vm->kick_ns = virq_clock_delta_(t1, t2) / rounds + vm->cfg.kick_exit_ns;
	if (st != LIBVIRQ_OK) {
		LIBVIRQ_LOG0(hal, LIBVIRQ_LOG_WARN,
			     "avic: doorbell MSR faulted during calibration");
		ST_(&vm->policy, (uint32_t)LIBVIRQ_AVIC_POLICY_KICK);
	} else {
		ST_(&vm->policy,
		    (uint32_t)(vm->doorbell_ns <= vm->kick_ns ? LIBVIRQ_AVIC_POLICY_DOORBELL
							      : LIBVIRQ_AVIC_POLICY_KICK));
	}
	LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_INFO, "avic: calibration doorbell_ns kick_ns",
		     vm->doorbell_ns, vm->kick_ns);
	if (chosen)
		*chosen = virq_avic_vm_policy(vm);
	return st != LIBVIRQ_OK
		   ? LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EHW,
				   "the doorbell MSR write faulted (policy set to KICK)")
		   : LIBVIRQ_OK;
}

void virq_avic_vm_calibration(const struct virq_avic_vm *vm, uint64_t *doorbell_ns,
			      uint64_t *kick_ns)
{
	bool live = vm_live_(vm);

	if (doorbell_ns)
		*doorbell_ns = live ? vm->doorbell_ns : 0;
	if (kick_ns)
		*kick_ns = live ? vm->kick_ns : 0;
}

/* ---- inhibits ---- */

/* A live VM and a VM-wide reason, under @p api. */
static virq_status reason_check_(const char *api, const struct virq_avic_vm *vm,
				 enum virq_avic_inhibit reason)
{
	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	if ((unsigned)reason >= LIBVIRQ_AVIC_INHIBIT_COUNT)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EINVAL,
				      "reason=%u >= LIBVIRQ_AVIC_INHIBIT_COUNT=%u",
				      (uint64_t)reason, LIBVIRQ_AVIC_INHIBIT_COUNT);
	if (reason == LIBVIRQ_AVIC_INHIBIT_NESTED)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EINVAL,
				     "reason=NESTED is per vCPU (virq_avic_vcpu_set_nested())");
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_inhibit(struct virq_avic_vm *vm, enum virq_avic_inhibit reason)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = reason_check_(api, vm, reason);

	if (st != LIBVIRQ_OK)
		return st;
	__atomic_fetch_or(&vm->inhibits, 1u << reason, __ATOMIC_SEQ_CST);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_uninhibit(struct virq_avic_vm *vm, enum virq_avic_inhibit reason)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st = reason_check_(api, vm, reason);

	if (st != LIBVIRQ_OK)
		return st;
	__atomic_fetch_and(&vm->inhibits, ~(1u << reason), __ATOMIC_SEQ_CST);
	return LIBVIRQ_OK;
}

uint32_t virq_avic_vm_inhibits(const struct virq_avic_vm *vm)
{
	return vm_live_(vm) ? vm_inhibits_(vm) : 1u << LIBVIRQ_AVIC_INHIBIT_DISABLED;
}

const char *virq_avic_inhibit_name(uint32_t reason)
{
	static const char *const names[LIBVIRQ_AVIC_INHIBIT_COUNT] = {
	    "DISABLED",
	    "HYPERV",
	    "ABSENT",
	    "BLOCKIRQ",
	    "PHYSICAL_ID_ALIASED",
	    "APIC_ID_MODIFIED",
	    "APIC_BASE_MODIFIED",
	    "NESTED",
	    "IRQWIN",
	    "PIT_REINJ",
	    "SEV",
	    "LOGICAL_ID_ALIASED",
	    "PHYSICAL_ID_TOO_BIG",
	};

	return reason < LIBVIRQ_AVIC_INHIBIT_COUNT ? names[reason] : "?";
}

void virq_avic_vcpu_set_nested(struct virq_avic_vcpu *vcpu, bool nested)
{
	if (!vcpu_live_(vcpu))
		return;
	ST_(&vcpu->nested, nested);
	/*
	 * L2 runs from a VMCB without AVIC, where a doorbell is ignored: posters
	 * kick from now on (run word without DOORBELL or ISRUNNING, a
	 * sequentially consistent store before the nested VMRUN, as in
	 * virq_avic_vcpu_vmcb_values()). Leaving L2, doorbells come back with
	 * the next VMCB values.
	 */
	if (nested && vcpu->loaded && !vcpu->blocking) {
		virq_avic_publish_entry_(vcpu, true); /* IsRunning 0: senders exit */
		virq_avic_irtes_update_(vcpu);	      /* IRTEs: GA log instead of IsRun */
		__atomic_store_n(&vcpu->run, virq_avic_run_word_(vcpu), __ATOMIC_SEQ_CST);
	}
}

bool virq_avic_vcpu_active(const struct virq_avic_vcpu *vcpu, uint32_t *why)
{
	uint32_t w =
	    vcpu_live_(vcpu) ? vm_inhibits_(vcpu->vm) : 1u << LIBVIRQ_AVIC_INHIBIT_DISABLED;

	if (vcpu_live_(vcpu) && LD_(&vcpu->nested))
		w |= 1u << LIBVIRQ_AVIC_INHIBIT_NESTED;
	if (why)
		*why = w;
	return w == 0;
}

/* ---- vCPU ---- */

/* The vCPU's backing page (the caller's or allocated), under @p api. */
static virq_status vcpu_backing_(const char *api, struct virq_avic_vm *vm, struct virq_avic_vcpu *v,
				 const struct virq_avic_vcpu_cfg *cfg)
{
	virq_status st;

	if (cfg->backing_va) {
		if (cfg->backing_pa & 0xFFFu)
			return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EALIGN,
					      "cfg backing_pa=%x not 4 KiB aligned",
					      cfg->backing_pa);
		if (!LIBVIRQ_ADDR_FITS(PHYS_F_(BackingPagePointer), cfg->backing_pa))
			return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE,
					      "cfg backing_pa=%x >= 2^52", cfg->backing_pa);
		v->backing.va = cfg->backing_va;
		v->backing.pa = cfg->backing_pa;
		v->backing.size = LIBVIRQ_AVIC_PAGE_SIZE;
		return LIBVIRQ_OK;
	}
	st = LIBVIRQ_PAGE_ALLOC_(api, &vm->hal, LIBVIRQ_AVIC_PAGE_SIZE, 4096, &v->backing,
				 "backing page");
	if (st != LIBVIRQ_OK)
		return st;
	if (!LIBVIRQ_ADDR_FITS(PHYS_F_(BackingPagePointer), v->backing.pa)) {
		const uint64_t pa = v->backing.pa;

		virq_page_free_(&vm->hal, &v->backing);
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE,
				      "the HAL's backing page pa=%x >= 2^52 (freed)", pa);
	}
	v->own_backing = true;
	*apic_reg_(v, LIBVIRQ_APIC_ID) = (cfg->apic_id & 0xFFu) << 24; /* xAPIC view: 8 bits */
	*apic_reg_(v, LIBVIRQ_APIC_DFR) = LIBVIRQ_APIC_DFR_FLAT;
	return LIBVIRQ_OK;
}

/* virq_avic_vcpu_init()'s checks, one report under @p api each; an ID
 * beyond the table is refused before anything is written. */
static virq_status vcpu_init_check_(const char *api, const struct virq_avic_vm *vm,
				    const struct virq_avic_vcpu *vcpu,
				    const struct virq_avic_vcpu_cfg *cfg)
{
	if (!vm_live_(vm))
		return LIBVIRQ_AVIC_VM_DEAD_(api, NULL, "vm", vm);
	if (!vcpu)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EINVAL, "vcpu=NULL");
	if (!cfg)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EINVAL, "cfg=NULL");
	if (vcpu_live_(vcpu))
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EBUSY, "vcpu already initialised");
	if (cfg->index >= vm->cfg.max_vcpus)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE, "cfg index=%u >= max_vcpus=%u",
				      cfg->index, vm->cfg.max_vcpus);
	if (cfg->apic_id > vm->max_index)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE,
				      "cfg apic_id=%u > the table's largest ID=%u", cfg->apic_id,
				      vm->max_index);
	if (vm->by_index[cfg->index])
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EEXIST,
				      "cfg index=%u used by another vCPU", cfg->index);
	if (by_apic_(vm, cfg->apic_id))
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EEXIST,
				      "cfg apic_id=%u used by another vCPU", cfg->apic_id);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_init(struct virq_avic_vm *vm, struct virq_avic_vcpu *vcpu,
				const struct virq_avic_vcpu_cfg *cfg)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_avic_phys_entry pe = {0};
	virq_status st = vcpu_init_check_(api, vm, vcpu, cfg);

	if (st != LIBVIRQ_OK)
		return st;
	memset(vcpu, 0, sizeof(*vcpu));
	vcpu->vm = vm;
	vcpu->hal = vm->hal;
	st = vcpu_backing_(api, vm, vcpu, cfg);
	if (st != LIBVIRQ_OK) {
		vcpu->vm = NULL;
		return st;
	}
	pe.backing_pa = vcpu->backing.pa;
	pe.valid = true; /* Valid now, so broadcasts reach it at once. */
	IGNORE_(virq_avic_phys_entry_encode(&pe, &vcpu->entry)); /* PA checked above */
	vcpu->index = cfg->index;
	vcpu->apic_id = cfg->apic_id;
	vcpu->cur_apic_id = cfg->apic_id & 0xFFu; /* reset: xAPIC mode */
	vcpu->cookie = cfg->cookie;
	vcpu->dfr = LIBVIRQ_APIC_DFR_FLAT;
	vcpu->log_index = -1;
	__atomic_store_n(&vcpu->state, LIBVIRQ_AVIC_ST_LIVE_, __ATOMIC_RELEASE);
	virq_avic_tables_add_(vcpu);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_destroy(struct virq_avic_vcpu *vcpu)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_avic_vm *vm;

	if (!vcpu)
		return LIBVIRQ_OK;
	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	vm = vcpu->vm;
	if (vcpu->loaded)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EBUSY,
				     "vcpu loaded (virq_avic_vcpu_put() first)");
	if (vcpu->irtes)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_EBUSY,
				     "IRTEs attached (virq_avic_irte_detach() first)");
	virq_avic_tables_remove_(vcpu);
	if (vcpu->own_backing)
		virq_page_free_(&vm->hal, &vcpu->backing);
	__atomic_store_n(&vcpu->state, LIBVIRQ_AVIC_ST_DEAD_, __ATOMIC_RELEASE);
	vcpu->vm = NULL;
	return LIBVIRQ_OK;
}

void *virq_avic_vcpu_backing(const struct virq_avic_vcpu *vcpu, uint64_t *pa)
{
	bool live = vcpu_live_(vcpu);

	if (pa)
		*pa = live ? vcpu->backing.pa : 0;
	return live ? vcpu->backing.va : NULL;
}

virq_status virq_avic_vcpu_set_x2apic(struct virq_avic_vcpu *vcpu, bool x2apic)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t before;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	if (LD_(&vcpu->x2apic) == x2apic)
		return LIBVIRQ_OK;
	before = vm_inhibits_(vcpu->vm);
	virq_avic_tables_set_mode_(vcpu, x2apic);
	/* Newly inhibited (for instance an xAPIC-mode ID above 0xFE): the caller must know. */
	return (vm_inhibits_(vcpu->vm) & ~before) ? LIBVIRQ_EINHIBITED : LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_vmcb_values(struct virq_avic_vcpu *vcpu,
				       struct virq_avic_vmcb_values *out)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_avic_vm *vm;
	uint32_t max, highest;
	bool active, x2;

	if (!vcpu_live_(vcpu))
		return LIBVIRQ_AVIC_VCPU_DEAD_(api, NULL, "vcpu", vcpu);
	if (!out)
		return LIBVIRQ_FAIL_(api, &vcpu->vm->hal, LIBVIRQ_EINVAL, "out=NULL");
	vm = vcpu->vm;
	active = virq_avic_vcpu_active(vcpu, NULL);
	x2 = LD_(&vcpu->x2apic) && vm->cfg.mode != LIBVIRQ_AVIC_MODE_XAVIC;
	highest = LD_(&vm->highest);
	max = x2 ? vm->max_index : LIBVIRQ_AVIC_MAX_INDEX_XAVIC;
	memset(out, 0, sizeof(*out));
	out->int_ctl_clear = (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_AVIC_ENABLE) |
					LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_X2APIC_MODE));
	if (active)
		out->int_ctl_set =
		    (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_AVIC_ENABLE) |
			       (x2 ? LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_X2APIC_MODE) : 0u));
	out->apic_bar = vm->cfg.apic_bar;
	out->backing_page = vcpu->backing.pa;
	out->logical_table = vm->log_table.pa;
	out->physical_table = vm->phys_table.pa | (active ? (highest < max ? highest : max) : 0u);
	out->clean_clear = (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_CLEAN_AVIC) |
				      LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_CLEAN_INTR));
	out->active = active;
	out->tlb_flush = !vcpu->have_last || vcpu->last_active != active || vcpu->last_x2 != x2;
	vcpu->have_last = true;
	vcpu->last_active = active;
	vcpu->last_x2 = x2;
	if (vcpu->loaded && !vcpu->blocking) {
		/* IsRunning and IRTE IsRun only with AVIC (before the run word's full barrier). */
		virq_avic_publish_entry_(vcpu, true);
		virq_avic_irtes_update_(vcpu);
		/* Doorbells are only useful while these values (about to run) enable AVIC. */
		__atomic_store_n(&vcpu->run, virq_avic_run_word_(vcpu), __ATOMIC_SEQ_CST);
	}
	return LIBVIRQ_OK;
}

void virq_avic_vcpu_counters_get(const struct virq_avic_vcpu *vcpu,
				 struct virq_avic_vcpu_counters *out)
{
	const struct virq_avic_vcpu_raw_counters *c;
	uint64_t db, kick, failed, notes, other;

	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!vcpu_live_(vcpu))
		return;
	c = &vcpu->cnt;
	db = LD_(&c->db);
	kick = LD_(&c->kick);
	failed = LD_(&c->db_failed);
	notes = db + kick + LD_(&c->local);
	other = LD_(&c->wakes) + failed;
	/*
	 * Every post that set a new bit made exactly one notification (plus a
	 * kick on a fault). A snapshot racing with a wake may see the wake before
	 * its notification: never wrap below zero.
	 */
	out->posts = notes > other ? notes - other : 0;
	out->coalesced = LD_(&c->coalesced);
	out->doorbells = db;
	out->kicks = kick;
	for (size_t i = 0; i < LIBVIRQ_AVIC_IPI_NCAUSES; i++)
		out->incomplete_ipi[i] = LD_(&c->incomplete_ipi[i]);
	out->noaccel_trap = LD_(&c->noaccel_trap);
	out->noaccel_fault = LD_(&c->noaccel_fault);
	out->noaccel_write = LD_(&c->noaccel_write);
}
