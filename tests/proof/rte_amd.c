/* SPDX-License-Identifier: MIT */
/*
 * Proof rte_amd (EVA): no run-time error in the AMD pure encoders and
 * decoders: AVIC (src/avic/enc/encode.c), the IOMMU GA-mode IRTE, GA log and
 * GA tag (src/avic/enc/iommu.c) and PMC virtualization (src/pmcvirt/enc/),
 * for every input: any field values, any words, any MSR index, any guest
 * description, NULL pointers, a 4 KiB VMCB page, an 8 KiB MSR permission
 * map and a filter whose entries exist (what the API documents).
 */
#include "proof_env.h"
#include "avic/enc/encode.c"
#include "avic/enc/iommu.c"
#include "pmcvirt/enc/layout.c"
#include "pmcvirt/enc/msrmap.c"

static uint8_t vmcb_[LIBVIRQ_VMCB_SIZE], msrpm_[8192];

static void avic_(void)
{
	struct virq_avic_phys_entry pe = {any_u32_(), any_u64_(), any_bool_(), any_bool_()};
	struct virq_avic_icr icr;
	struct virq_avic_exit_ipi ipi;
	struct virq_avic_exit_noaccel na;
	struct virq_avic_vmcb_values vv;
	uint64_t w;
	uint32_t u, id;
	bool b;

	(void)virq_avic_phys_entry_encode(OR_NULL_(&pe), OR_NULL_(&w));
	(void)virq_avic_phys_entry_decode(any_u64_(), OR_NULL_(&pe));
	(void)virq_avic_logical_entry_encode(any_u32_(), any_bool_(), OR_NULL_(&u));
	(void)virq_avic_logical_entry_decode(any_u32_(), OR_NULL_(&id), OR_NULL_(&b));
	(void)virq_avic_logical_index(any_u32_(), any_u32_(), NULL);
	/* Logical APIC ID by logical APIC ID (LDR[31:24]), the rest any. */
	for (uint32_t ldr_id = 0; ldr_id < 256; ldr_id++)
		(void)virq_avic_logical_index(any_u32_(), ldr_id << 24 | (any_u32_() & 0xFFFFFFu),
					      &u);
	(void)virq_avic_x2apic_ldr(any_u32_());
	(void)virq_avic_icr_decode(any_u64_(), any_bool_(), OR_NULL_(&icr));
	icr.vector = (uint8_t)any_u32_();
	icr.delivery_mode = (enum virq_avic_apic_dm)any_u32_();
	icr.logical = any_bool_();
	icr.busy = any_bool_();
	icr.level_assert = any_bool_();
	icr.level_trigger = any_bool_();
	icr.shorthand = (enum virq_avic_apic_shorthand)any_u32_();
	icr.dest = any_u32_();
	icr.x2apic = any_bool_();
	icr.remote_read_status = (uint8_t)any_u32_();
	(void)virq_avic_icr_encode(OR_NULL_(&icr), OR_NULL_(&w));
	(void)virq_avic_exit_ipi_decode(any_u64_(), any_u64_(), any_bool_(), OR_NULL_(&ipi));
	(void)virq_avic_noaccel_is_trap(any_u32_(), any_bool_());
	(void)virq_avic_exit_noaccel_decode(any_u64_(), any_u64_(), any_bool_(), OR_NULL_(&na));
	(void)virq_avic_x2apic_msr_access(any_u32_());
	Frama_C_make_unknown((char *)&vv, sizeof(vv));
	vv.active = any_bool_();
	vv.tlb_flush = any_bool_();
	(void)virq_avic_vmcb_write(OR_NULL_(vmcb_), OR_NULL_(&vv));
}

static void iommu_(void)
{
	struct virq_avic_irte_ga f;
	uint64_t e[2] = {any_u64_(), any_u64_()};
	uint32_t tag, vm, vcpu;
	uint16_t devid;
	uint8_t code;

	f.remap_en = any_bool_();
	f.sup_iopf = any_bool_();
	f.guest_mode = any_bool_();
	f.dest = any_u32_();
	f.vector = (uint8_t)any_u32_();
	f.ga_log_intr = any_bool_();
	f.is_run = any_bool_();
	f.ga_tag = any_u32_();
	f.ga_root_pa = any_u64_();
	f.int_type = (uint8_t)any_u32_();
	f.rq_eoi = any_bool_();
	f.dm_logical = any_bool_();
	f.gappi_dis = any_bool_();
	(void)virq_avic_irte_ga_encode(OR_NULL_(&f), OR_NULL_(e));
	(void)virq_avic_irte_ga_decode(OR_NULL_(e), OR_NULL_(&f));
	(void)virq_avic_ga_log_decode(any_u64_(), OR_NULL_(&tag), OR_NULL_(&devid),
				      OR_NULL_(&code));
	(void)virq_avic_gatag_encode(any_u32_(), any_u32_(), OR_NULL_(&tag));
	(void)virq_avic_gatag_decode(any_u32_(), OR_NULL_(&vm), OR_NULL_(&vcpu));
}

static void pmc_(void)
{
	struct virq_pmcvirt_guest g = {any_u32_(),  any_bool_(), any_bool_(),
				       any_bool_(), any_bool_(), any_bool_()};
	struct virq_pmcvirt_caps caps;
	struct virq_pmcvirt_state s;
	struct virq_pmcvirt_slot slot;
	struct virq_pmcvirt_msrpm_policy pol;
	struct virq_pmcvirt_filter_ent ents[LIBVIRQ_PMCVIRT_FILTER_MAX];
	struct virq_pmcvirt_filter flt;
	enum virq_pmcvirt_exit_kind kind;
	const char *name;
	uint32_t off, width, msrs[16], byte, bit;
	size_t n;

	Frama_C_make_unknown((char *)vmcb_, sizeof(vmcb_));
	Frama_C_make_unknown((char *)&s, sizeof(s));
	(void)virq_pmcvirt_field_info((enum virq_pmcvirt_field)any_u32_(), OR_NULL_(&name),
				      OR_NULL_(&off), OR_NULL_(&width));
	(void)virq_pmcvirt_exit_decode(any_u64_(), OR_NULL_(&kind));
	(void)virq_pmcvirt_guest_check(OR_NULL_(&g));
	(void)virq_pmcvirt_vmcb_load_state(OR_NULL_(vmcb_), OR_NULL_(&g), OR_NULL_(&s));
	(void)virq_pmcvirt_vmcb_store_state(OR_NULL_(vmcb_), OR_NULL_(&g), OR_NULL_(&s));
	(void)virq_pmcvirt_vmcb_enable(OR_NULL_(vmcb_), any_bool_());
	(void)virq_pmcvirt_vmcb_set_exitcode(OR_NULL_(vmcb_), any_u64_());
	(void)virq_pmcvirt_msr_map(OR_NULL_(&g), any_u32_(), (enum virq_pmcvirt_origin)any_u32_(),
				   OR_NULL_(&slot));
	(void)virq_pmcvirt_msr_list(OR_NULL_(&g), NULL, 0, OR_NULL_(&n));
	(void)virq_pmcvirt_msr_list(OR_NULL_(&g), msrs, Frama_C_unsigned_int_interval(0, 16),
				    OR_NULL_(&n));
	Frama_C_make_unknown((char *)ents, sizeof(ents));
	flt.action = (enum virq_pmcvirt_filter_action)any_u32_();
	flt.nents = any_u32_();
	flt.ents = ents;
	if (virq_pmcvirt_filter_check(OR_NULL_(&flt)) == LIBVIRQ_OK)
		(void)virq_pmcvirt_filter_allows(OR_NULL_(&flt), any_u64_());
	flt.nents = Frama_C_unsigned_int_interval(0, LIBVIRQ_PMCVIRT_FILTER_MAX);
	(void)virq_pmcvirt_filter_allows(OR_NULL_(&flt), any_u64_());
	(void)virq_pmcvirt_msrpm_bit(any_u32_(), OR_NULL_(&byte), OR_NULL_(&bit));
	caps.svm = any_bool_();
	caps.perfctr_virt = any_bool_();
	caps.avic = any_bool_();
	caps.vnmi = any_bool_();
	caps.perfctr_ext_core = any_bool_();
	caps.perfmon_v2 = any_bool_();
	caps.irperf = any_bool_();
	caps.num_core_ctrs = any_u32_();
	caps.num_core_ctrs_raw = any_u32_();
	(void)virq_pmcvirt_msrpm_recommend(OR_NULL_(&caps), OR_NULL_(&g),
					   (enum virq_pmcvirt_mode)any_u32_(), OR_NULL_(&pol));
	pol.intercept_ctl = any_bool_();
	pol.passthrough_ctr = any_bool_();
	pol.passthrough_global = any_bool_();
	pol.passthrough_irperf_read = any_bool_();
	pol.intercept_rdpmc = any_bool_();
	(void)virq_pmcvirt_msrpm_apply(OR_NULL_(msrpm_), OR_NULL_(&g), OR_NULL_(&pol));
}

int main(void)
{
	avic_();
	iommu_();
	pmc_();
	return 0;
}
