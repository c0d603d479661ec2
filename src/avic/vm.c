/* SPDX-License-Identifier: MIT */
/*
 * AVIC VM and vCPU objects: physical and logical APIC ID tables, backing
 * pages, inhibits and the VMCB control values (APM Vol 2 §15.29.2, App. B).
 */
#include "avic/avic_priv.h"

uint32_t virq_avic_mode_max_(enum virq_avic_mode mode)
{
	switch (mode) {
	case LIBVIRQ_AVIC_MODE_XAVIC:
		return LIBVIRQ_AVIC_MAX_INDEX_XAVIC;
	case LIBVIRQ_AVIC_MODE_X2AVIC:
		return LIBVIRQ_AVIC_MAX_INDEX_X2AVIC;
	case LIBVIRQ_AVIC_MODE_X2AVIC_4K:
		return LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K;
	}
	return 0;
}

static virq_status vm_check_cfg_(const struct virq_avic_caps *caps,
				 const struct virq_avic_vm_cfg *cfg)
{
	uint32_t cap = virq_avic_mode_max_(cfg->mode);

	if (!cap || (unsigned)cfg->policy > LIBVIRQ_AVIC_POLICY_KICK)
		return LIBVIRQ_EINVAL;
	if (!caps->avic || (cfg->mode != LIBVIRQ_AVIC_MODE_XAVIC && !caps->x2avic) ||
	    (cfg->mode == LIBVIRQ_AVIC_MODE_X2AVIC_4K && !caps->x2avic_4k))
		return LIBVIRQ_ENOTSUP;
	if (cfg->max_vcpus == 0 || cfg->max_vcpus > cap + 1u || cfg->vm_id > LIBVIRQ_GATAG_VM_MAX)
		return LIBVIRQ_ERANGE;
	if (cfg->apic_bar & 0xFFFu)
		return LIBVIRQ_EALIGN;
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_VMCB_Addr, cfg->apic_bar))
		return LIBVIRQ_ERANGE;
	return LIBVIRQ_OK;
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
	virq_status st;
	size_t entries, tsize;

	if (!vm || !caps || !cfg)
		return LIBVIRQ_EINVAL;
	st = virq_hal_validate(hal, LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_KICK);
	if (st == LIBVIRQ_OK)
		st = vm_check_cfg_(caps, cfg);
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
	st = virq_page_alloc_(hal, tsize, 4096, &vm->phys_table);
	if (st == LIBVIRQ_OK)
		st = virq_page_alloc_(hal, 4096, 4096, &vm->log_table);
	if (st == LIBVIRQ_OK)
		st = virq_page_alloc_(hal, (entries * 2u * sizeof(void *) + 4095u) & ~(size_t)4095u,
				      4096, &vm->maps);
	if (st != LIBVIRQ_OK) {
		vm_free_(vm);
		return st;
	}
	vm->by_index = vm->maps.va;
	vm->by_apic = vm->by_index + entries;
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_destroy(struct virq_avic_vm *vm)
{
	if (!vm)
		return LIBVIRQ_OK;
	if (vm->nr_vcpus)
		return LIBVIRQ_EBUSY;
	vm_free_(vm);
	vm->by_index = vm->by_apic = NULL;
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_set_policy(struct virq_avic_vm *vm, enum virq_avic_policy policy)
{
	if (!vm || (unsigned)policy > LIBVIRQ_AVIC_POLICY_KICK)
		return LIBVIRQ_EINVAL;
	ST_(&vm->policy, (uint32_t)policy);
	return LIBVIRQ_OK;
}

enum virq_avic_policy virq_avic_vm_policy(const struct virq_avic_vm *vm)
{
	return (enum virq_avic_policy)LD_(&vm->policy);
}

virq_status virq_avic_vm_calibrate(struct virq_avic_vm *vm, uint32_t self_host_apic_id,
				   void *cookie, uint32_t rounds, enum virq_avic_policy *chosen)
{
	const struct virq_hal *hal;
	uint64_t t0, t1, t2;
	virq_status st = LIBVIRQ_OK;

	if (!vm)
		return LIBVIRQ_EINVAL;
	if (self_host_apic_id > LIBVIRQ_AVIC_RUN_HOST || rounds == 0 || rounds > 64)
		return LIBVIRQ_ERANGE;
	hal = &vm->hal;
	t0 = virq_now_(hal);
	for (uint32_t i = 0; i < rounds && st == LIBVIRQ_OK; i++)
		st = virq_msr_wr_(hal, LIBVIRQ_AVIC_DOORBELL_MSR, self_host_apic_id);
	t1 = virq_now_(hal);
	for (uint32_t i = 0; i < rounds; i++)
		(hal->ops->kick_vcpu)(hal->ctx, cookie);
	t2 = virq_now_(hal);
	vm->doorbell_ns = (t1 - t0) / rounds;
	vm->kick_ns = (t2 - t1) / rounds;
	if (st != LIBVIRQ_OK) {
		LIBVIRQ_LOG0(hal, LIBVIRQ_LOG_WARN, "avic: doorbell MSR faulted during calibration");
		ST_(&vm->policy, (uint32_t)LIBVIRQ_AVIC_POLICY_KICK);
	} else {
		ST_(&vm->policy,
		    (uint32_t)(vm->doorbell_ns <= vm->kick_ns ? LIBVIRQ_AVIC_POLICY_DOORBELL
							      : LIBVIRQ_AVIC_POLICY_KICK));
	}
	LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_INFO, "avic: calibration doorbell_ns kick_ns", vm->doorbell_ns,
		  vm->kick_ns);
	if (chosen)
		*chosen = virq_avic_vm_policy(vm);
	return st != LIBVIRQ_OK ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

void virq_avic_vm_calibration(const struct virq_avic_vm *vm, uint64_t *doorbell_ns,
			      uint64_t *kick_ns)
{
	if (doorbell_ns)
		*doorbell_ns = vm->doorbell_ns;
	if (kick_ns)
		*kick_ns = vm->kick_ns;
}

/* ---- inhibits ---- */

virq_status virq_avic_vm_inhibit(struct virq_avic_vm *vm, enum virq_avic_inhibit reason)
{
	if (!vm || (unsigned)reason >= LIBVIRQ_AVIC_INHIBIT_COUNT ||
	    reason == LIBVIRQ_AVIC_INHIBIT_NESTED)
		return LIBVIRQ_EINVAL;
	__atomic_fetch_or(&vm->inhibits, 1u << reason, __ATOMIC_SEQ_CST);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vm_uninhibit(struct virq_avic_vm *vm, enum virq_avic_inhibit reason)
{
	if (!vm || (unsigned)reason >= LIBVIRQ_AVIC_INHIBIT_COUNT ||
	    reason == LIBVIRQ_AVIC_INHIBIT_NESTED)
		return LIBVIRQ_EINVAL;
	__atomic_fetch_and(&vm->inhibits, ~(1u << reason), __ATOMIC_SEQ_CST);
	return LIBVIRQ_OK;
}

uint32_t virq_avic_vm_inhibits(const struct virq_avic_vm *vm)
{
	return __atomic_load_n(&vm->inhibits, __ATOMIC_SEQ_CST);
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
	ST_(&vcpu->nested, nested);
	/*
	 * L2 runs from a VMCB without AVIC, where a doorbell is ignored: posters
	 * kick from now on (run word without DOORBELL, a sequentially consistent
	 * store before the nested VMRUN, as in virq_avic_vcpu_vmcb_values()).
	 * Leaving L2, doorbells come back with the next VMCB values.
	 */
	if (nested && vcpu->loaded && !vcpu->blocking) {
		virq_avic_publish_entry_(vcpu, true); /* IsRunning 0: senders exit */
		virq_avic_irtes_update_(vcpu);	      /* IRTEs: GA log instead of IsRun */
		__atomic_store_n(&vcpu->run, LD_(&vcpu->run) & ~LIBVIRQ_AVIC_RUN_DOORBELL,
				 __ATOMIC_SEQ_CST);
	}
}

bool virq_avic_vcpu_active(const struct virq_avic_vcpu *vcpu, uint32_t *why)
{
	uint32_t w = virq_avic_vm_inhibits(vcpu->vm);

	if (LD_(&vcpu->nested))
		w |= 1u << LIBVIRQ_AVIC_INHIBIT_NESTED;
	if (why)
		*why = w;
	return w == 0;
}

/* ---- slow-path bookkeeping (IDs that break the 1:1 APIC-ID map) ---- */

bool virq_avic_is_slow_(const struct virq_avic_vcpu *v)
{
	return cur_id_(v) != v->apic_id || (!LD_(&v->x2apic) && cur_id_(v) > 0xFEu);
}

/* Called with the VM lock whenever cur_apic_id or the APIC mode changed. */
void virq_avic_update_slow_(struct virq_avic_vcpu *v, bool was_slow)
{
	struct virq_avic_vm *vm = v->vm;
	bool slow = virq_avic_is_slow_(v);
	bool big = !LD_(&v->x2apic) && cur_id_(v) > 0xFEu;

	(void)was_slow;
	if (slow != v->slow) {
		if (slow)
			__atomic_fetch_add(&vm->slow, 1u, __ATOMIC_SEQ_CST);
		else
			__atomic_fetch_sub(&vm->slow, 1u, __ATOMIC_SEQ_CST);
		v->slow = slow;
	}
	if (big != v->too_big) {
		vm->too_big = big ? vm->too_big + 1u : vm->too_big - 1u;
		v->too_big = big;
		/* An xAPIC-mode vCPU above 0xFE cannot be addressed by AVIC
		 * (docs/rationale.md#avic-apic-id-bounds). */
		if (vm->too_big)
			inhibit_set_(vm, LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG);
		else
			inhibit_clear_(vm, LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG);
	}
}

/* ---- vCPU ---- */

static virq_status vcpu_backing_(struct virq_avic_vm *vm, struct virq_avic_vcpu *v,
				 const struct virq_avic_vcpu_cfg *cfg)
{
	virq_status st;

	if (cfg->backing_va) {
		if (cfg->backing_pa & 0xFFFu)
			return LIBVIRQ_EALIGN;
		if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_AVIC_PHYS_BackingPage, cfg->backing_pa))
			return LIBVIRQ_ERANGE;
		v->backing.va = cfg->backing_va;
		v->backing.pa = cfg->backing_pa;
		v->backing.size = LIBVIRQ_AVIC_PAGE_SIZE;
		return LIBVIRQ_OK;
	}
	st = virq_page_alloc_(&vm->hal, LIBVIRQ_AVIC_PAGE_SIZE, 4096, &v->backing);
	if (st != LIBVIRQ_OK)
		return st;
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_AVIC_PHYS_BackingPage, v->backing.pa)) {
		virq_page_free_(&vm->hal, &v->backing);
		return LIBVIRQ_ERANGE;
	}
	v->own_backing = true;
	*apic_reg_(v, LIBVIRQ_APIC_ID) = (cfg->apic_id & 0xFFu) << 24; /* xAPIC view: 8 bits */
	*apic_reg_(v, LIBVIRQ_APIC_DFR) = LIBVIRQ_APIC_DFR_FLAT;
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_init(struct virq_avic_vm *vm, struct virq_avic_vcpu *vcpu,
				const struct virq_avic_vcpu_cfg *cfg)
{
	struct virq_avic_phys_entry pe = {0};
	virq_status st;

	if (!vm || !vcpu || !cfg || !vm->by_index)
		return LIBVIRQ_EINVAL;
	/* An ID beyond the table is refused before anything is written
	 * (docs/rationale.md#avic-apic-id-bounds). */
	if (cfg->index >= vm->cfg.max_vcpus || cfg->apic_id > vm->max_index)
		return LIBVIRQ_ERANGE;
	if (vm->by_index[cfg->index] || vm->by_apic[cfg->apic_id])
		return LIBVIRQ_EEXIST;
	memset(vcpu, 0, sizeof(*vcpu));
	vcpu->vm = vm;
	st = vcpu_backing_(vm, vcpu, cfg);
	if (st != LIBVIRQ_OK)
		return st;
	pe.backing_pa = vcpu->backing.pa;
	pe.valid = true; /* Valid now, so broadcasts reach it at once. */
	st = virq_avic_phys_entry_encode(&pe, &vcpu->entry);
	if (st != LIBVIRQ_OK) {
		if (vcpu->own_backing)
			virq_page_free_(&vm->hal, &vcpu->backing);
		return st;
	}
	vcpu->index = cfg->index;
	vcpu->apic_id = cfg->apic_id;
	vcpu->cur_apic_id = cfg->apic_id;
	vcpu->cookie = cfg->cookie;
	vcpu->dfr = LIBVIRQ_APIC_DFR_FLAT;
	vcpu->log_index = -1;
	__atomic_store_n(phys_slot_(vm, cfg->apic_id), vcpu->entry, __ATOMIC_RELEASE);
	__atomic_store_n(&vm->by_index[cfg->index], vcpu, __ATOMIC_RELEASE);
	__atomic_store_n(&vm->by_apic[cfg->apic_id], vcpu, __ATOMIC_RELEASE);
	if (cfg->apic_id > vm->highest)
		ST_(&vm->highest, cfg->apic_id);
	vm->nr_vcpus++;
	virq_avic_update_slow_(vcpu, false);
	return LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_destroy(struct virq_avic_vcpu *vcpu)
{
	struct virq_avic_vm *vm;
	uint32_t h;

	if (!vcpu || !vcpu->vm)
		return LIBVIRQ_OK;
	if (vcpu->loaded || vcpu->irtes)
		return LIBVIRQ_EBUSY;
	vm = vcpu->vm;
	virq_avic_log_drop_(vcpu);
	__atomic_store_n(phys_slot_(vm, vcpu->apic_id), 0, __ATOMIC_RELEASE);
	__atomic_store_n(&vm->by_index[vcpu->index], NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&vm->by_apic[vcpu->apic_id], NULL, __ATOMIC_RELEASE);
	ST_(&vcpu->x2apic, true); /* leave the too-big count */
	ST_(&vcpu->cur_apic_id, vcpu->apic_id);
	virq_avic_update_slow_(vcpu, vcpu->slow);
	for (h = vm->highest; h > 0 && !vm->by_apic[h]; h--)
		;
	ST_(&vm->highest, h);
	vm->nr_vcpus--;
	if (vcpu->own_backing)
		virq_page_free_(&vm->hal, &vcpu->backing);
	vcpu->vm = NULL;
	return LIBVIRQ_OK;
}

void *virq_avic_vcpu_backing(const struct virq_avic_vcpu *vcpu, uint64_t *pa)
{
	if (pa)
		*pa = vcpu->backing.pa;
	return vcpu->backing.va;
}

virq_status virq_avic_vcpu_set_x2apic(struct virq_avic_vcpu *vcpu, bool x2apic)
{
	uint32_t ldr, before;

	if (!vcpu || !vcpu->vm)
		return LIBVIRQ_EINVAL;
	if (LD_(&vcpu->x2apic) == x2apic)
		return LIBVIRQ_OK;
	virq_avic_log_drop_(vcpu);
	ldr = x2apic ? virq_avic_x2apic_ldr(cur_id_(vcpu)) : 0;
	ST_(&vcpu->ldr, ldr);
	/* The ID and LDR registers as the guest reads them in the new mode. */
	__atomic_store_n(apic_reg_(vcpu, LIBVIRQ_APIC_LDR), ldr, __ATOMIC_RELAXED);
	__atomic_store_n(apic_reg_(vcpu, LIBVIRQ_APIC_ID),
			 x2apic ? cur_id_(vcpu) : (cur_id_(vcpu) & 0xFFu) << 24, __ATOMIC_RELAXED);
	before = virq_avic_vm_inhibits(vcpu->vm);
	ST_(&vcpu->x2apic, x2apic);
	virq_avic_update_slow_(vcpu, vcpu->slow);
	/* Newly PHYSICAL_ID_TOO_BIG (xAPIC ID alias): the caller must know
	 * (docs/rationale.md#avic-apic-id-bounds). */
	return (virq_avic_vm_inhibits(vcpu->vm) & ~before) ? LIBVIRQ_EINHIBITED : LIBVIRQ_OK;
}

virq_status virq_avic_vcpu_vmcb_values(struct virq_avic_vcpu *vcpu,
				       struct virq_avic_vmcb_values *out)
{
	struct virq_avic_vm *vm;
	uint32_t max, highest;
	bool active, x2;

	if (!vcpu || !out || !vcpu->vm)
		return LIBVIRQ_EINVAL;
	vm = vcpu->vm;
	active = virq_avic_vcpu_active(vcpu, NULL);
	x2 = LD_(&vcpu->x2apic) && vm->cfg.mode != LIBVIRQ_AVIC_MODE_XAVIC;
	highest = LD_(&vm->highest);
	max = x2 ? vm->max_index : LIBVIRQ_AVIC_MAX_INDEX_XAVIC;
	memset(out, 0, sizeof(*out));
	out->int_ctl_clear = (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_AVIC_ENABLE) |
					LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_X2APIC_MODE));
	if (active)
		out->int_ctl_set = (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_AVIC_ENABLE) |
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
	/* IsRunning and IRTE IsRun only with AVIC (before the run word's full barrier). */
	if (vcpu->loaded && !vcpu->blocking) {
		virq_avic_publish_entry_(vcpu, true);
		virq_avic_irtes_update_(vcpu);
	}
	/* Doorbells are only useful while these values (about to run) enable AVIC. */
	if (vcpu->loaded && !vcpu->blocking)
		__atomic_store_n(&vcpu->run,
				 LIBVIRQ_AVIC_RUN_RUNNING | vcpu->host_apic_id |
				     ((active && LD_(&vm->policy) == LIBVIRQ_AVIC_POLICY_DOORBELL)
					  ? LIBVIRQ_AVIC_RUN_DOORBELL
					  : 0u),
				 __ATOMIC_SEQ_CST);
	return LIBVIRQ_OK;
}

void virq_avic_vcpu_counters(const struct virq_avic_vcpu *vcpu, struct virq_avic_vcpu_counters *out)
{
	const struct virq_avic_vcpu_raw_counters *c = &vcpu->cnt;
	uint64_t db = LD_(&c->db), kick = LD_(&c->kick), failed = LD_(&c->db_failed);
	uint64_t notes = db + kick + LD_(&c->local), other = LD_(&c->wakes) + failed;

	/*
	 * Every post that set a new bit made exactly one notification (plus a
	 * kick on a fault). A snapshot racing with a wake may see the wake before
	 * its notification: never wrap below zero.
	 */
	out->posts = notes > other ? notes - other : 0;
	out->coalesced = LD_(&c->coalesced);
	out->doorbells = db;
	out->kicks = kick;
	for (size_t i = 0; i < 6; i++)
		out->incomplete_ipi[i] = LD_(&c->incomplete_ipi[i]);
	out->noaccel_trap = LD_(&c->noaccel_trap);
	out->noaccel_fault = LD_(&c->noaccel_fault);
	out->noaccel_write = LD_(&c->noaccel_write);
}
