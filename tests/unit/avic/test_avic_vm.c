/* SPDX-License-Identifier: MIT */
/*
 * AVIC VM/vCPU objects: tables, VMCB values, load/put/IsRunning, posting
 * (doorbell vs kick, MSR counts), policy and calibration, inhibits, LDR/DFR/
 * APIC ID writes, IOMMU IRTEs and the GA log. Rules: docs/rationale.md, the avic-* entries.
 */
#include "avic_test.h"

static uint64_t *phys_table(struct at_vm *t)
{
	return virq_sim_pa_to_va(t->sim, t->vm.phys_table.pa, 8);
}

static uint32_t *log_table(struct at_vm *t)
{
	return virq_sim_pa_to_va(t->sim, t->vm.log_table.pa, 4096);
}

static void mask_cb(void *arg, struct virq_avic_vcpu *t)
{
	*(uint32_t *)arg |= 1u << t->index;
}

/* LDR/DFR writes: entry written, none (several bits or none), or another vCPU's. */
static void set_ldr(struct at_vm *t, uint32_t i, uint32_t v)
{
	virq_status st = virq_avic_ldr_write(&t->v[i], v);

	assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ENOENT || st == LIBVIRQ_EEXIST);
}

static void set_dfr(struct at_vm *t, uint32_t i, uint32_t v)
{
	virq_status st = virq_avic_dfr_write(&t->v[i], v);

	assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ENOENT || st == LIBVIRQ_EEXIST);
}

/* Bit i: vCPU i is a target of the xAPIC-format fixed logical IPI to @mda from vCPU 0. */
static uint32_t logical_targets(struct at_vm *t, uint32_t mda)
{
	struct virq_avic_icr icr = {.vector = 0x40, .logical = true, .dest = mda};
	uint32_t mask = 0, n = 0;

	assert_int_equal(virq_avic_resolve(&t->vm, &t->v[0], &icr, mask_cb, &mask, &n), LIBVIRQ_OK);
	assert_int_equal((uint32_t)__builtin_popcount(mask), n); /* each target once */
	return mask;
}

/*
 * The xAPIC logical index follows every change: LDRs with no, one or several
 * bits, duplicates, a changed LDR keeping one of its bits, a DFR change,
 * hot-unplug and re-plug, a mode switch.
 */
static void logical_index_changes(void **s)
{
	struct at_vm t;
	struct virq_avic_vcpu_cfg vc = {.index = 2, .apic_id = 9};
	virq_status st;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 6); /* all xAPIC, flat, LDR 0 */
	assert_int_equal(logical_targets(&t, 0x01), 0);
	set_ldr(&t, 1, 0x03000000u); /* two bits */
	set_ldr(&t, 2, 0x01000000u); /* duplicates bit 0 */
	set_ldr(&t, 3, 0x04000000u);
	assert_int_equal(logical_targets(&t, 0x01), 0x06);
	assert_int_equal(logical_targets(&t, 0x02), 0x02);
	assert_int_equal(logical_targets(&t, 0x03), 0x06);
	assert_int_equal(logical_targets(&t, 0x07), 0x0E);
	set_ldr(&t, 3, 0x08000000u);
	assert_int_equal(logical_targets(&t, 0x04), 0);
	assert_int_equal(logical_targets(&t, 0x08), 0x08);
	set_ldr(&t, 3, 0x0C000000u); /* keeps bit 3, adds bit 2 */
	assert_int_equal(logical_targets(&t, 0x04), 0x08);
	assert_int_equal(logical_targets(&t, 0x08), 0x08);
	set_ldr(&t, 3, 0); /* zero bits: no logical identity */
	assert_int_equal(logical_targets(&t, 0x0C), 0);
	/* Cluster model: cluster 2, bit 0; each vCPU by its own model (flat ones by bit). */
	set_dfr(&t, 4, 0x0FFFFFFFu);
	set_ldr(&t, 4, 0x21000000u);
	assert_int_equal(logical_targets(&t, 0x21), 0x16);
	assert_int_equal(logical_targets(&t, 0x23), 0x16);
	assert_int_equal(logical_targets(&t, 0x12), 0x02); /* other cluster; flat bit 1 */
	assert_int_equal(logical_targets(&t, 0x20), 0);	   /* flat bit 5: nobody */
	set_dfr(&t, 4, 0xFFFFFFFFu);			   /* flat again: LDR bits 0 and 5 */
	assert_int_equal(logical_targets(&t, 0x20), 0x10);
	assert_int_equal(logical_targets(&t, 0x01), 0x16);
	/* Hot-unplug vCPU 2, re-plug index 2 with another APIC ID: LDR 0 until written. */
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[2]), LIBVIRQ_OK);
	assert_int_equal(logical_targets(&t, 0x01), 0x12);
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &t.v[2], &vc), LIBVIRQ_OK);
	assert_int_equal(logical_targets(&t, 0x01), 0x12);
	set_ldr(&t, 2, 0x80000000u);
	assert_int_equal(logical_targets(&t, 0x81), 0x16);
	/* x2APIC mode: out of the xAPIC index; APIC ID 1 is x2APIC cluster 0, bit 1. */
	st = virq_avic_vcpu_set_x2apic(&t.v[1], true);
	assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EINHIBITED);
	assert_int_equal(logical_targets(&t, 0x01), 0x10);
	assert_int_equal(logical_targets(&t, 0x02), 0x02);
	at_vm_free(&t);
}

static void lifecycle_tables(void **s)
{
	struct at_vm t;
	uint64_t pa;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC_4K, 4096);
	/* 4K table: 32 KiB, contiguous (the fake HAL maps PA -> VA for the whole block). */
	assert_non_null(virq_sim_pa_to_va(t.sim, t.vm.phys_table.pa, 32768));
	for (uint32_t i = 0; i < 4096; i += 511) {
		virq_avic_vcpu_backing(&t.v[i], &pa);
		/* Valid at creation, not running, host ID 0. */
		assert_true(phys_table(&t)[i] == (pa | 0x8000000000000000ull));
	}
	at_vm_free(&t);
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 255);
	assert_int_equal(t.vm.phys_table.size, 4096);
	/* Library backing page: ID register and flat DFR. */
	assert_int_equal(*at_reg(&t, 7, 0x20), 7u << 24);
	assert_int_equal(*at_reg(&t, 7, 0xE0), 0xFFFFFFFFu);
	at_vm_free(&t);
}

static void vm_init_errors(void **s)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vm_cfg cfg = {.mode = LIBVIRQ_AVIC_MODE_X2AVIC_4K, .max_vcpus = 4096};

	(void)s;
	at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN4);
	assert_int_equal(virq_avic_caps_probe(&hal, &caps), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_ENOTSUP);
	cfg.mode = LIBVIRQ_AVIC_MODE_X2AVIC;
	assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_ERANGE);
	cfg.max_vcpus = 512;
	cfg.apic_bar = 0xFEE00800ull;
	assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_EALIGN);
	cfg.apic_bar = 0;
	cfg.vm_id = 0x100000;
	assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_ERANGE);
	cfg.vm_id = 1;
	/* Every allocation failure leaves nothing allocated. */
	for (unsigned long n = 1; n <= 3; n++) {
		virq_sim_fail_alloc_nth(sim, n);
		assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_ENOMEM);
		assert_int_equal(virq_sim_live_pages(sim), 0);
	}
	virq_sim_fail_alloc_nth(sim, 0);
	assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_OK);
	{
		struct virq_avic_vcpu v, w;
		struct virq_avic_vcpu_cfg vc = {.index = 0, .apic_id = 0};

		virq_sim_fail_alloc_nth(sim, 1);
		assert_int_equal(virq_avic_vcpu_init(&vm, &v, &vc), LIBVIRQ_ENOMEM);
		assert_int_equal(virq_avic_vcpu_init(&vm, &v, &vc), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_init(&vm, &w, &vc), LIBVIRQ_EEXIST);
		vc.index = 1;
		assert_int_equal(virq_avic_vcpu_init(&vm, &w, &vc), LIBVIRQ_EEXIST);
		assert_int_equal(virq_avic_vm_destroy(&vm), LIBVIRQ_EBUSY);
		/* Embedder-supplied backing page. */
		static uint8_t page[4096] __attribute__((aligned(4096)));
		vc.apic_id = 1;
		vc.backing_va = page;
		vc.backing_pa = 0x123456800ull;
		assert_int_equal(virq_avic_vcpu_init(&vm, &w, &vc), LIBVIRQ_EALIGN);
		vc.backing_pa = 0x123456000ull;
		assert_int_equal(virq_avic_vcpu_init(&vm, &w, &vc), LIBVIRQ_OK);
		assert_true(*((uint64_t *)virq_sim_pa_to_va(sim, vm.phys_table.pa, 16) + 1) ==
			    (0x123456000ull | (1ull << 63)));
		assert_int_equal(virq_avic_vcpu_destroy(&w), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_destroy(&v), LIBVIRQ_OK);
	}
	assert_int_equal(virq_avic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(sim), 0);
	virq_sim_free(sim);
}

/* docs/rationale.md#avic-apic-id-bounds: table sized for max ID 511; ID 600 is refused, nothing
 * written past 511. */
static void apic_id_beyond_table_refused_nothing_written(void **s)
{
	struct at_vm t;
	struct virq_avic_vcpu v;
	struct virq_avic_vcpu_cfg vc = {.index = 2, .apic_id = 600};
	uint8_t *before = malloc(4096);

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 3);
	assert_int_equal(t.vm.max_index, 511);
	assert_int_equal(t.vm.phys_table.size, 4096); /* exactly the 512 entries */
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[2]), LIBVIRQ_OK);
	memcpy(before, t.vm.phys_table.va, 4096);
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &v, &vc), LIBVIRQ_ERANGE);
	vc.apic_id = 512;
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &v, &vc), LIBVIRQ_ERANGE);
	vc.index = 3; /* index beyond max_vcpus (3) */
	vc.apic_id = 5;
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &v, &vc), LIBVIRQ_ERANGE);
	/* Nothing written, nothing allocated for the refused vCPUs. */
	assert_memory_equal(before, t.vm.phys_table.va, 4096);
	assert_null(t.vm.by_index[2]);
	vc.index = 2;
	vc.apic_id = 2;
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &t.v[2], &vc), LIBVIRQ_OK);
	free(before);
	at_vm_free(&t);
}

/*
 * Aliasing (docs/rationale.md#avic-apic-id-bounds): vCPU A xAPIC ID 0x23,
 * vCPU B x2APIC ID 0x123 in xAPIC mode: a physical IPI to 0x23 reaches both,
 * and the VM is inhibited.
 */
static void count_cb(void *arg, struct virq_avic_vcpu *t)
{
	uint64_t *mask = arg;

	mask[t->index / 64] |= 1ull << (t->index % 64);
}

static void xapic_alias_reaches_every_aliased_vcpu(void **s)
{
	struct at_vm t;
	struct virq_avic_vcpu a, b;
	struct virq_avic_vcpu_cfg ca = {.index = 2, .apic_id = 0x23};
	struct virq_avic_vcpu_cfg cb = {.index = 3, .apic_id = 0x123};
	struct virq_avic_icr icr;
	uint64_t mask[1] = {0};
	uint32_t n;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 4);
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[2]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[3]), LIBVIRQ_OK);
	t.n = 2; /* only the first two are in t.v */
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &a, &ca), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &b, &cb), LIBVIRQ_OK);
	/* Both in xAPIC mode (reset). B cannot be addressed by AVIC: inhibit. */
	assert_true(virq_avic_vm_inhibits(&t.vm) &
		    (1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG));
	assert_int_equal(virq_avic_icr_decode(0x23000000000000F0ull, false, &icr), LIBVIRQ_OK);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, count_cb, mask, &n), LIBVIRQ_OK);
	assert_int_equal(n, 2);
	assert_true(mask[0] == ((1ull << 2) | (1ull << 3)));
	/* B enters x2APIC mode: no alias, inhibit lifted, unicast again. */
	assert_int_equal(virq_avic_vcpu_set_x2apic(&b, true), LIBVIRQ_OK);
	assert_false(virq_avic_vm_inhibits(&t.vm) &
		     (1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG));
	mask[0] = 0;
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, count_cb, mask, &n), LIBVIRQ_OK);
	assert_int_equal(n, 1);
	assert_true(mask[0] == (1ull << 2));
	assert_int_equal(virq_avic_vcpu_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_destroy(&b), LIBVIRQ_OK);
	at_vm_free(&t);
}

static void vmcb_values(void **s)
{
	struct at_vm t;
	struct virq_avic_vmcb_values v;
	uint8_t vmcb[4096];
	uint32_t ctl;
	uint64_t q;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 300);
	memset(vmcb, 0, sizeof(vmcb));
	/* Embedder's own bits: V_INTR_MASKING and clean bits all set. */
	vmcb[0x63] = 0x01;
	memset(vmcb + 0xC0, 0xFF, 4);
	assert_int_equal(virq_avic_vcpu_vmcb_values(&t.v[3], &v), LIBVIRQ_OK);
	assert_true(v.active && v.tlb_flush);
	assert_int_equal(virq_avic_vmcb_write(vmcb, &v), LIBVIRQ_OK);
	memcpy(&ctl, vmcb + 0x60, 4);
	assert_int_equal(ctl, 0xC1000000u); /* x2AVIC */
	memcpy(&q, vmcb + 0x98, 8);
	assert_true(q == 0xFEE00000ull);
	memcpy(&q, vmcb + 0xE0, 8);
	assert_true(q == t.v[3].backing.pa);
	memcpy(&q, vmcb + 0xF0, 8);
	assert_true(q == t.vm.log_table.pa);
	memcpy(&q, vmcb + 0xF8, 8);
	assert_true(q == (t.vm.phys_table.pa | 299)); /* highest APIC ID in use */
	memcpy(&ctl, vmcb + 0xC0, 4);
	assert_int_equal(ctl, 0xFFFFFFFFu & ~0x808u);
	/* Same state again: no TLB flush. */
	assert_int_equal(virq_avic_vcpu_vmcb_values(&t.v[3], &v), LIBVIRQ_OK);
	assert_false(v.tlb_flush);
	/* xAPIC-mode vCPU: max index capped at 0xFE, X2APIC_MODE clear (xAVIC). Without
	 * vCPU 0xFF: an x2APIC ID 0xFF would alias the xAPIC broadcast (PHYSICAL_ID_ALIASED). */
	assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[3], false), LIBVIRQ_EINHIBITED);
	assert_true(virq_avic_vm_inhibits(&t.vm) &
		    (1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_ALIASED));
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[0xFF]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_inhibits(&t.vm), 0);
	assert_int_equal(virq_avic_vcpu_vmcb_values(&t.v[3], &v), LIBVIRQ_OK);
	assert_true(v.tlb_flush);
	assert_int_equal(virq_avic_vmcb_write(vmcb, &v), LIBVIRQ_OK);
	memcpy(&ctl, vmcb + 0x60, 4);
	assert_int_equal(ctl, 0x81000000u);
	memcpy(&q, vmcb + 0xF8, 8);
	assert_true(q == (t.vm.phys_table.pa | 0xFE));
	/* Inhibited: AVIC off, max index 0, x2 bit cleared, embedder bits kept. */
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_vmcb_values(&t.v[3], &v), LIBVIRQ_OK);
	assert_false(v.active);
	assert_true(v.tlb_flush);
	assert_int_equal(virq_avic_vmcb_write(vmcb, &v), LIBVIRQ_OK);
	memcpy(&ctl, vmcb + 0x60, 4);
	assert_int_equal(ctl, 0x01000000u);
	memcpy(&q, vmcb + 0xF8, 8);
	assert_true(q == t.vm.phys_table.pa);
	{
		struct virq_avic_vcpu_cfg vc = {.index = 0xFF, .apic_id = 0xFF};

		assert_int_equal(virq_avic_vcpu_init(&t.vm, &t.v[0xFF], &vc), LIBVIRQ_OK);
	}
	at_vm_free(&t);
}

static void inhibits(void **s)
{
	struct at_vm t;
	uint32_t why;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	assert_true(virq_avic_vcpu_active(&t.v[0], &why));
	assert_int_equal(why, 0);
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_SEV), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_PIT_REINJ), LIBVIRQ_OK);
	assert_false(virq_avic_vcpu_active(&t.v[0], &why));
	assert_int_equal(why, (1u << 10) | (1u << 9));
	assert_string_equal(virq_avic_inhibit_name(10), "SEV");
	assert_string_equal(virq_avic_inhibit_name(99), "?");
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_NESTED), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, (enum virq_avic_inhibit)13), LIBVIRQ_EINVAL);
	assert_int_equal(virq_avic_vm_uninhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_SEV), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_uninhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_PIT_REINJ), LIBVIRQ_OK);
	virq_avic_vcpu_set_nested(&t.v[1], true);
	assert_true(virq_avic_vcpu_active(&t.v[0], NULL));
	assert_false(virq_avic_vcpu_active(&t.v[1], &why));
	assert_int_equal(why, 1u << LIBVIRQ_AVIC_INHIBIT_NESTED);
	virq_avic_vcpu_set_nested(&t.v[1], false);
	at_vm_free(&t);
}

/* Posting: a pending IRR survives deactivation and reactivation. */
static void inhibit_keeps_irr(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_doorbells db;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	virq_sim_avic_watch_doorbells(t.sim, &db);
	at_run(&t, 1, 0x11);
	assert_int_equal(virq_avic_post(&t.v[1], 0x40, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 1);
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_APIC_BASE_MODIFIED),
			 LIBVIRQ_OK);
	at_vmcb(&t, 1); /* the vCPU re-enters without AVIC */
	assert_true(at_irr(&t, 1, 0x40));
	/* Without AVIC in its VMCB a running target is kicked, never doorbelled. */
	assert_int_equal(virq_avic_post(&t.v[1], 0x41, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 1);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 1);
	assert_int_equal(virq_avic_vm_uninhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_APIC_BASE_MODIFIED),
			 LIBVIRQ_OK);
	at_vmcb(&t, 1);
	assert_true(at_irr(&t, 1, 0x40) && at_irr(&t, 1, 0x41));
	assert_int_equal(virq_avic_post(&t.v[1], 0x42, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 2);
	at_vm_free(&t);
}

/*
 * NESTED is per vCPU: while the vCPU runs L2 (whose VMCB has no AVIC) a
 * doorbell would be ignored by the hardware, so posters must kick it from
 * the moment the owner marks it nested, not only after new VMCB values.
 */
static void nested_stops_doorbell(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_doorbells db;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	virq_sim_avic_watch_doorbells(t.sim, &db);
	at_run(&t, 1, 0x11);
	assert_int_equal(virq_avic_post(&t.v[1], 0x40, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 1);
	/* The owner enters L2: no new L1 VMCB values are computed. */
	virq_avic_vcpu_set_nested(&t.v[1], true);
	assert_int_equal(virq_avic_post(&t.v[1], 0x41, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 1);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 1);
	/* Preempted in L2 and loaded again (still in L2): still kicked. */
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_load(&t.v[1], 0x12), LIBVIRQ_OK);
	assert_int_equal(virq_avic_post(&t.v[1], 0x44, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 1);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 2);
	/* Back in L1 with AVIC: doorbells again once the values enable AVIC. */
	virq_avic_vcpu_set_nested(&t.v[1], false);
	at_vmcb(&t, 1);
	assert_int_equal(virq_avic_post(&t.v[1], 0x42, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 2);
	/* Marking a vCPU nested while it is put or blocking changes nothing. */
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	virq_avic_vcpu_set_nested(&t.v[1], true);
	assert_int_equal(virq_avic_post(&t.v[1], 0x43, 0x10), LIBVIRQ_OK);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 3);
	virq_avic_vcpu_set_nested(&t.v[1], false);
	at_vm_free(&t);
}

static void post_paths(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_doorbells db;
	struct virq_avic_vcpu_counters c;
	uint8_t vec;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 4);
	virq_sim_avic_watch_doorbells(t.sim, &db);
	/* Not running: IRR + kick, no MSR access. */
	virq_sim_reset_counters(t.sim);
	assert_int_equal(virq_avic_post(&t.v[2], 0x30, 0x10), LIBVIRQ_OK);
	assert_true(at_irr(&t, 2, 0x30));
	assert_int_equal(virq_sim_msr_total(t.sim), 0);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[2].cookie), 1);
	assert_true(virq_avic_vcpu_pending(&t.v[2], &vec));
	assert_int_equal(vec, 0x30);
	/* Running elsewhere: doorbell WRMSR 0xC001011B EAX = 0xA3, no kick. */
	at_run(&t, 1, 0xA3);
	virq_sim_reset_counters(t.sim);
	assert_int_equal(virq_avic_post(&t.v[1], 0x31, 0x10), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(t.sim, LIBVIRQ_SIM_MSR_W, LIBVIRQ_AVIC_DOORBELL_MSR), 1);
	assert_int_equal(virq_sim_msr_total(t.sim), 1);
	assert_true(db.last == 0xA3);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 0);
	/* Coalesced: the bit is pending, nothing more to do. */
	assert_int_equal(virq_avic_post(&t.v[1], 0x31, 0x10), LIBVIRQ_OK);
	assert_int_equal(virq_sim_msr_total(t.sim), 1);
	/* Running on the poster's own CPU: no doorbell, no kick. */
	assert_int_equal(virq_avic_post(&t.v[1], 0x32, 0xA3), LIBVIRQ_OK);
	assert_int_equal(virq_sim_msr_total(t.sim), 1);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 0);
	/* Doorbell #GP: the vCPU is kicked instead, interrupt still pending. */
	virq_sim_msr_fault(t.sim, LIBVIRQ_AVIC_DOORBELL_MSR, true);
	assert_int_equal(virq_avic_post(&t.v[1], 0x33, 0x10), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 1);
	assert_true(at_irr(&t, 1, 0x33));
	virq_sim_msr_fault(t.sim, LIBVIRQ_AVIC_DOORBELL_MSR, false);
	/* Range. */
	assert_int_equal(virq_avic_post(&t.v[1], 15, 0x10), LIBVIRQ_ERANGE);
	assert_int_equal(virq_avic_post(&t.v[1], 256, 0x10), LIBVIRQ_ERANGE);
	virq_avic_vcpu_counters_get(&t.v[1], &c);
	assert_int_equal(c.posts, 3);
	assert_int_equal(c.coalesced, 1);
	assert_int_equal(c.doorbells, 2);
	assert_int_equal(c.kicks, 1);
	/* Put: kicked again. */
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_post(&t.v[1], 0x34, 0x10), LIBVIRQ_OK);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 2);
	at_vm_free(&t);
}

static void pending_priority(void **s)
{
	struct at_vm t;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 1);
	assert_false(virq_avic_vcpu_pending(&t.v[0], NULL));
	assert_int_equal(virq_avic_post(&t.v[0], 0x45, LIBVIRQ_AVIC_NO_CPU), LIBVIRQ_OK);
	*at_reg(&t, 0, 0x80) = 0x50; /* TPR class 5 masks 0x45 */
	assert_false(virq_avic_vcpu_pending(&t.v[0], NULL));
	*at_reg(&t, 0, 0x80) = 0x30;
	*at_reg(&t, 0, 0x100 + 2 * 0x10) = 1u << (0x48 - 64); /* in service 0x48 */
	assert_false(virq_avic_vcpu_pending(&t.v[0], NULL));
	*at_reg(&t, 0, 0x100 + 2 * 0x10) = 0;
	assert_true(virq_avic_vcpu_pending(&t.v[0], NULL));
	at_vm_free(&t);
}

static void policy_and_calibration(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_doorbells db;
	enum virq_avic_policy p;
	uint64_t dns, kns;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	virq_sim_avic_watch_doorbells(t.sim, &db);
	assert_int_equal(virq_avic_vm_set_policy(&t.vm, LIBVIRQ_AVIC_POLICY_KICK), LIBVIRQ_OK);
	at_run(&t, 1, 0x20);
	assert_int_equal(virq_avic_post(&t.v[1], 0x50, 0x10), LIBVIRQ_OK);
	assert_int_equal(db.n, 0);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 1);
	/* Calibration: every HAL call advances the fake clock by 100 ns; a doorbell
	 * is one call, a kick one call plus the kick hook's 3 ns... make the doorbell
	 * dearer with an MSR hook that advances the clock. */
	virq_sim_set_now_step(t.sim, 0);
	assert_int_equal(virq_avic_vm_calibrate(&t.vm, 0x10, t.v[0].cookie, 8, &p), LIBVIRQ_OK);
	assert_int_equal(p, LIBVIRQ_AVIC_POLICY_DOORBELL); /* tie (0 ns each): doorbell */
	assert_int_equal(db.n, 8);
	assert_int_equal(db.per_host[0x10], 8);
	virq_avic_vm_calibration(&t.vm, &dns, &kns);
	assert_true(dns == 0 && kns == 0);
	assert_int_equal(virq_avic_vm_calibrate(&t.vm, 0x1000, NULL, 8, &p), LIBVIRQ_ERANGE);
	assert_int_equal(virq_avic_vm_calibrate(&t.vm, 1, NULL, 0, &p), LIBVIRQ_ERANGE);
	virq_sim_msr_fault(t.sim, LIBVIRQ_AVIC_DOORBELL_MSR, true);
	assert_int_equal(virq_avic_vm_calibrate(&t.vm, 0x10, t.v[0].cookie, 4, &p), LIBVIRQ_EHW);
	assert_int_equal(p, LIBVIRQ_AVIC_POLICY_KICK);
	virq_sim_msr_fault(t.sim, LIBVIRQ_AVIC_DOORBELL_MSR, false);
	at_vm_free(&t);
}

/* Calibration picks the kick when the doorbell write is slower (Zen5). */
static virq_status slow_doorbell(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t v)
{
	(void)arg;
	(void)msr;
	(void)v;
	virq_sim_clock_advance(sim, 2000);
	return LIBVIRQ_OK;
}

static void slow_kick(void *arg, struct virq_sim *sim, void *cookie)
{
	(void)arg;
	(void)cookie;
	virq_sim_clock_advance(sim, 500);
}

static void calibration_chooses_kick(void **s)
{
	struct at_vm t;
	enum virq_avic_policy p;
	uint64_t dns, kns;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 1);
	virq_sim_msr_hook(t.sim, LIBVIRQ_AVIC_DOORBELL_MSR, NULL, slow_doorbell, NULL);
	virq_sim_on_kick(t.sim, slow_kick, NULL);
	assert_int_equal(virq_avic_vm_calibrate(&t.vm, 0x10, t.v[0].cookie, 16, &p), LIBVIRQ_OK);
	assert_int_equal(p, LIBVIRQ_AVIC_POLICY_KICK);
	virq_avic_vm_calibration(&t.vm, &dns, &kns);
	assert_true(dns == 2000 && kns == 500);
	assert_int_equal(virq_avic_vm_policy(&t.vm), LIBVIRQ_AVIC_POLICY_KICK);
	at_vm_free(&t);
}

/* The kick is not free: what it costs the running target counts in calibration. */
static void calibration_counts_kick_exit(void **s)
{
	struct at_vm t;
	struct virq_avic_vm vm;
	struct virq_avic_vm_cfg cfg = {
	    .mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = 1, .kick_exit_ns = 1600};
	enum virq_avic_policy p;
	uint64_t dns, kns;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 1);
	memset(&vm, 0, sizeof(vm));
	assert_int_equal(virq_avic_vm_init(&vm, &t.hal, &t.caps, &cfg), LIBVIRQ_OK);
	virq_sim_msr_hook(t.sim, LIBVIRQ_AVIC_DOORBELL_MSR, NULL, slow_doorbell, NULL);
	virq_sim_on_kick(t.sim, slow_kick, NULL);
	/* Doorbell 2000 ns against a 500 ns kick + 1600 ns forced exit: doorbell. */
	assert_int_equal(virq_avic_vm_calibrate(&vm, 0x10, t.v[0].cookie, 16, &p), LIBVIRQ_OK);
	assert_int_equal(p, LIBVIRQ_AVIC_POLICY_DOORBELL);
	virq_avic_vm_calibration(&vm, &dns, &kns);
	assert_true(dns == 2000 && kns == 2100);
	assert_int_equal(virq_avic_vm_destroy(&vm), LIBVIRQ_OK);
	at_vm_free(&t);
}

/* docs/rationale.md#avic-erratum-1235: erratum 1235 parts never set IsRunning; 19h does. */
static void erratum_1235_never_sets_isrunning(void **s)
{
	struct at_vm t;
	uint64_t pa, e;

	(void)s;
	for (int fam = 0; fam < 2; fam++) {
		at_vm_new_cpu(&t, LIBVIRQ_AVIC_MODE_XAVIC, 4,
			      fam ? LIBVIRQ_SIM_CPU_ZEN4 : LIBVIRQ_SIM_CPU_ZEN2);
		assert_int_equal(t.caps.erratum_1235, fam == 0);
		virq_avic_vcpu_backing(&t.v[2], &pa);
		at_run(&t, 2, 0x10);
		e = phys_table(&t)[2];
		assert_true(e == (pa | (1ull << 63) | 0x10 | (fam ? 1ull << 62 : 0)));
		assert_int_equal(virq_avic_vcpu_put(&t.v[2]), LIBVIRQ_OK);
		/* Put keeps the host ID, clears IsRunning. */
		assert_true(phys_table(&t)[2] == (pa | (1ull << 63) | 0x10));
		at_vm_free(&t);
	}
	/* Hygon family 18h too. */
	{
		struct virq_sim *sim = virq_sim_new();
		struct virq_hal hal = virq_sim_hal(sim);
		struct virq_avic_caps c;

		at_cpu(sim, LIBVIRQ_SIM_CPU_HYGON18H);
		assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
		assert_true(c.erratum_1235);
		virq_sim_free(sim);
	}
	/* disable_ipiv on a good part behaves the same. */
	{
		struct virq_sim *sim = virq_sim_new();
		struct virq_hal hal = virq_sim_hal(sim);
		struct virq_avic_caps c;
		struct virq_avic_vm vm;
		struct virq_avic_vcpu v;
		struct virq_avic_vm_cfg cfg = {
		    .mode = LIBVIRQ_AVIC_MODE_XAVIC, .max_vcpus = 1, .disable_ipiv = true};
		struct virq_avic_vcpu_cfg vc = {0};

		at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN4);
		assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vm_init(&vm, &hal, &c, &cfg), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_init(&vm, &v, &vc), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_load(&v, 0x10), LIBVIRQ_OK);
		e = *(uint64_t *)vm.phys_table.va;
		assert_false(e >> 62 & 1);
		assert_int_equal(e & 0xFFF, 0x10);
		assert_int_equal(virq_avic_vcpu_put(&v), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_destroy(&v), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vm_destroy(&vm), LIBVIRQ_OK);
		virq_sim_free(sim);
	}
}

static void load_put_errors(void **s)
{
	struct at_vm t;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 1);
	assert_int_equal(virq_avic_vcpu_load(&t.v[0], 0x1000), LIBVIRQ_ERANGE);
	assert_int_equal(virq_avic_vcpu_load(&t.v[0], 0xFFF), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_load(&t.v[0], 1), LIBVIRQ_EBUSY);
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[0]), LIBVIRQ_EBUSY);
	assert_int_equal(virq_avic_vcpu_put(&t.v[0]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_put(&t.v[0]), LIBVIRQ_OK);
	at_vm_free(&t);
}

/* docs/rationale.md#avic-logical-id-single-bit: logical table maintenance. */
static void logical_table_single_bit_ids_only(void **s)
{
	struct at_vm t;
	uint32_t *lt;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 8);
	lt = log_table(&t);
	assert_int_equal(virq_avic_ldr_write(&t.v[5], 0x80000000u), LIBVIRQ_OK);
	assert_int_equal(lt[7], 0x80000005u);
	/* Multi-bit: no entry anywhere, old one cleared. */
	assert_int_equal(virq_avic_ldr_write(&t.v[5], 0x03000000u), LIBVIRQ_ENOENT);
	for (int i = 0; i < 1024; i++)
		assert_int_equal(lt[i], 0);
	/* 0x01 -> 0x02: index 0 invalid, index 1 valid. */
	assert_int_equal(virq_avic_ldr_write(&t.v[5], 0x01000000u), LIBVIRQ_OK);
	assert_int_equal(lt[0], 0x80000005u);
	assert_int_equal(virq_avic_ldr_write(&t.v[5], 0x02000000u), LIBVIRQ_OK);
	assert_int_equal(lt[0] >> 31, 0);
	assert_int_equal(lt[1], 0x80000005u);
	/* Aliasing: another vCPU with the same logical ID -> EEXIST + inhibit. */
	assert_int_equal(virq_avic_ldr_write(&t.v[6], 0x02000000u), LIBVIRQ_EEXIST);
	assert_int_equal(lt[1], 0x80000005u);
	assert_true(virq_avic_vm_inhibits(&t.vm) & (1u << LIBVIRQ_AVIC_INHIBIT_LOGICAL_ID_ALIASED));
	/* Cluster model: DFR write re-indexes. 0x21 -> 8, 0x28 -> 11, 0xF1 none. vCPU 5 lets
	 * go of index 1, which passes to the other claimant, vCPU 6; in cluster mode 0x02 is
	 * cluster 0, bit 1: index 1 again, now owned by vCPU 6. */
	assert_int_equal(virq_avic_dfr_write(&t.v[5], LIBVIRQ_APIC_DFR_CLUSTER), LIBVIRQ_EEXIST);
	assert_int_equal(lt[1], 0x80000006u);
	assert_int_equal(virq_avic_ldr_write(&t.v[5], 0x21000000u), LIBVIRQ_OK);
	assert_int_equal(lt[1], 0x80000006u);
	assert_int_equal(lt[8], 0x80000005u);
	/* Flat and cluster models mixed: LOGICAL_ID_ALIASED stays (KVM 9a364857ab4f). */
	assert_true(virq_avic_vm_inhibits(&t.vm) & (1u << LIBVIRQ_AVIC_INHIBIT_LOGICAL_ID_ALIASED));
	/* Back to flat: 0x21 has two bits -> no entry. */
	assert_int_equal(virq_avic_dfr_write(&t.v[5], LIBVIRQ_APIC_DFR_FLAT), LIBVIRQ_ENOENT);
	assert_int_equal(lt[8], 0);
	at_vm_free(&t);
}

static void logical_table_cluster_index_no_broadcast_cluster(void **s)
{
	struct at_vm t;
	uint32_t *lt;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 4);
	lt = log_table(&t);
	assert_int_equal(virq_avic_dfr_write(&t.v[1], LIBVIRQ_APIC_DFR_CLUSTER), LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_ldr_write(&t.v[1], 0x21000000u), LIBVIRQ_OK);
	assert_int_equal(lt[8], 0x80000001u);
	assert_int_equal(virq_avic_ldr_write(&t.v[1], 0x28000000u), LIBVIRQ_OK);
	assert_int_equal(lt[8], 0);
	assert_int_equal(lt[11], 0x80000001u);
	assert_int_equal(virq_avic_ldr_write(&t.v[1], 0x2A000000u), LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_ldr_write(&t.v[1], 0xF1000000u), LIBVIRQ_ENOENT);
	for (int i = 0; i < 64; i++)
		assert_int_equal(lt[i], 0);
	/* Another model is kept; the vCPU then accepts no logical destination, no entry. */
	assert_int_equal(virq_avic_dfr_write(&t.v[1], 0x5FFFFFFFu), LIBVIRQ_ENOENT);
	/* x2APIC mode: LDR writes ignored, LDR derived. */
	assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[2], true), LIBVIRQ_OK);
	assert_int_equal(*at_reg(&t, 2, 0xD0), virq_avic_x2apic_ldr(2));
	assert_int_equal(virq_avic_ldr_write(&t.v[2], 0x01000000u), LIBVIRQ_OK);
	for (int i = 0; i < 64; i++)
		assert_int_equal(lt[i], 0);
	at_vm_free(&t);
}

static void apic_id_write(void **s)
{
	struct at_vm t;
	uint64_t before[4];

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 4);
	memcpy(before, t.vm.phys_table.va, sizeof(before));
	assert_int_equal(virq_avic_apic_id_write(&t.v[2], 2u << 24), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_inhibits(&t.vm), 0);
	assert_int_equal(virq_avic_apic_id_write(&t.v[2], 9u << 24), LIBVIRQ_EINHIBITED);
	assert_true(virq_avic_vm_inhibits(&t.vm) & (1u << LIBVIRQ_AVIC_INHIBIT_APIC_ID_MODIFIED));
	/* Tables untouched, not corrupted. */
	assert_memory_equal(before, t.vm.phys_table.va, sizeof(before));
	/* Emulation resolves by the new ID. */
	{
		struct virq_avic_icr icr;
		uint64_t mask[1] = {0};
		uint32_t n;

		assert_int_equal(virq_avic_icr_decode(0x09000000000000F0ull, false, &icr),
				 LIBVIRQ_OK);
		assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, count_cb, mask, &n),
				 LIBVIRQ_OK);
		assert_int_equal(n, 1);
		assert_true(mask[0] == 4);
		assert_int_equal(virq_avic_icr_decode(0x02000000000000F0ull, false, &icr),
				 LIBVIRQ_OK);
		assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, NULL, NULL, &n),
				 LIBVIRQ_OK);
		assert_int_equal(n, 0);
	}
	at_vm_free(&t);
}

/* docs/rationale.md#avic-run-state and the IRTE IsRun/destination protocol. */
static void irte_target_follows_run_state(void **s)
{
	struct at_vm t;
	struct virq_avic_irte_ref ref, ref2;
	uint64_t irte[2] __attribute__((aligned(16))) = {0, 0}, irte2[2] = {0, 0};
	struct virq_avic_irte_ga f;
	uint32_t tag;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 4);
	/* Running with host 0x12: route targets it immediately. */
	at_run(&t, 1, 0x12);
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref, irte, 0x61), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(f.guest_mode && f.remap_en && f.is_run && !f.ga_log_intr);
	assert_int_equal(f.dest, 0x12);
	assert_int_equal(f.vector, 0x61);
	assert_true(f.ga_root_pa == t.v[1].backing.pa);
	assert_int_equal(virq_avic_gatag_encode(5, 1, &tag), LIBVIRQ_OK);
	assert_int_equal(f.ga_tag, tag);
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref, irte, 0x61), LIBVIRQ_EEXIST);
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref2, irte2, 3), LIBVIRQ_ERANGE);
	/* Put: IsRun 0, GALogIntr 0 (preempted), destination kept. */
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && !f.ga_log_intr);
	assert_int_equal(f.dest, 0x12);
	/*
	 * Load elsewhere; Destination[31:24] (hi word) left non-zero by someone
	 * else is rewritten too (host APIC IDs are 12 bits, so it becomes 0).
	 */
	irte[1] |= 0xABull << 56;
	assert_int_equal(virq_avic_vcpu_load(&t.v[1], 0x345), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(f.is_run);
	assert_int_equal(f.dest, 0x345);
	/* Block: IsRun 0, GALogIntr 1. Preempted and resumed while blocking: not running. */
	assert_int_equal(virq_avic_vcpu_block(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && f.ga_log_intr);
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_load(&t.v[1], 0x7), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && f.ga_log_intr);
	/* Attaching to a blocked vCPU: GA log path. */
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref2, irte2, 0x62), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte2, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && f.ga_log_intr);
	assert_int_equal(virq_avic_vcpu_unblock(&t.v[1], 0x7), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(f.is_run && !f.ga_log_intr);
	assert_int_equal(f.dest, 0x7);
	assert_int_equal(virq_avic_irte_ga_decode(irte2, &f), LIBVIRQ_OK);
	assert_true(f.is_run);
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[1]), LIBVIRQ_EBUSY);
	assert_int_equal(virq_avic_irte_detach(&t.v[1], &ref), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_detach(&t.v[1], &ref), LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_irte_detach(&t.v[1], &ref2), LIBVIRQ_OK);
	/* ipiv disabled: put still updates the route (not keyed on IsRunning). */
	at_vm_free(&t);
	{
		struct at_vm u;

		at_vm_new_cpu(&u, LIBVIRQ_AVIC_MODE_XAVIC, 4, LIBVIRQ_SIM_CPU_ZEN2);
		at_run(&u, 3, 3);
		assert_int_equal(virq_avic_irte_attach(&u.v[3], &ref, irte, 0x70), LIBVIRQ_OK);
		assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
		assert_true(f.is_run);
		assert_int_equal(virq_avic_vcpu_put(&u.v[3]), LIBVIRQ_OK);
		assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
		assert_false(f.is_run);
		assert_int_equal(virq_avic_irte_detach(&u.v[3], &ref), LIBVIRQ_OK);
		at_vm_free(&u);
	}
}

/* docs/rationale.md#avic-ga-tag-width: GA log tag -> the right vCPU for every index up to 4095. */
static void ga_log_tag_wakes_right_vcpu_up_to_4095(void **s)
{
	struct at_vm t;
	struct virq_avic_registry reg;
	struct virq_avic_vm *slots[8];
	struct virq_avic_vcpu *v;
	struct virq_avic_vm *vm;
	uint32_t tag;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC_4K, 4096);
	assert_int_equal(virq_avic_registry_init(&reg, slots, 8), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_add(&reg, &t.vm), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_add(&reg, &t.vm), LIBVIRQ_EEXIST);
	for (uint32_t i = 0; i < 4096; i++) {
		assert_int_equal(virq_avic_gatag_encode(5, i, &tag), LIBVIRQ_OK);
		assert_int_equal(virq_avic_registry_lookup(&reg, tag, &vm, &v), LIBVIRQ_OK);
		assert_ptr_equal(vm, &t.vm);
		assert_ptr_equal(v, &t.v[i]);
	}
	/* vCPU 300 is woken, not 44. */
	assert_int_equal(virq_avic_gatag_encode(5, 300, &tag), LIBVIRQ_OK);
	assert_int_equal(virq_avic_ga_log_handle(&reg, (1ull << 60) | (0x10ull << 32) | tag, &v),
			 LIBVIRQ_OK);
	assert_ptr_equal(v, &t.v[300]);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[300].cookie), 1);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[44].cookie), 0);
	/* Other event codes ignored; unknown VM / vCPU -> ENOENT. */
	assert_int_equal(virq_avic_ga_log_handle(&reg, (2ull << 60) | tag, &v), LIBVIRQ_OK);
	assert_null(v);
	assert_int_equal(virq_avic_ga_log_handle(&reg, (1ull << 60) | (6u << 12), &v),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_ga_log_handle(&reg, (1ull << 60) | 0xFFFFFFFFu, &v),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_registry_remove(&reg, &t.vm), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_lookup(&reg, tag, &vm, &v), LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_registry_remove(&reg, &t.vm), LIBVIRQ_ENOENT);
	at_vm_free(&t);
	/* A live registry is not initialised again. */
	assert_int_equal(virq_avic_registry_init(&reg, slots, 8), LIBVIRQ_EBUSY);
	assert_int_equal(virq_avic_registry_destroy(&reg), LIBVIRQ_OK);
	/* A smaller VM: indexes beyond max_vcpus are rejected before indexing. */
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 3);
	assert_int_equal(virq_avic_registry_init(&reg, slots, 8), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_add(&reg, &t.vm), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_lookup(&reg, (5u << 12) | 3, &vm, &v), LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_registry_lookup(&reg, (5u << 12) | 0xFFF, &vm, &v),
			 LIBVIRQ_ENOENT);
	/* Neither a registered VM nor a registry holding VMs can be destroyed. */
	assert_int_equal(virq_avic_vm_destroy(&t.vm), LIBVIRQ_EBUSY);
	assert_int_equal(virq_avic_registry_destroy(&reg), LIBVIRQ_EBUSY);
	assert_int_equal(virq_avic_registry_remove(&reg, &t.vm), LIBVIRQ_OK);
	assert_int_equal(virq_avic_registry_destroy(&reg), LIBVIRQ_OK);
	at_vm_free(&t);
	assert_int_equal(virq_avic_registry_init(&reg, slots, 1), LIBVIRQ_ERANGE);
}

/* AVIC_NOACCEL: trap/fault classification and what is left to the embedder. */
static void noaccel_exits(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result res;
	struct virq_avic_vcpu_counters c;
	uint32_t *lt;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 3);
	lt = log_table(&t);
	at_run(&t, 0, 0x10);
	/* Fault (TMCCT read): emulate the instruction. */
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], 0x390, 0, NULL, &res), LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_EMULATE_ACCESS);
	assert_false(res.trap || res.write);
	/* Trap read (impossible): counted, reported. */
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], 0xB0, 0, NULL, &res), LIBVIRQ_EUNKNOWN);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_REPORT);
	/* EOI (level-triggered) and LVT writes: side effects for the embedder. */
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], (1ull << 32) | 0xB0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_EMULATE_WRITE);
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], (1ull << 32) | 0x320, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_EMULATE_WRITE);
	/* RRR write: ignored. */
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], (1ull << 32) | 0xC0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
	/* LDR trap write updates the logical table from the backing page. */
	*at_reg(&t, 1, 0xD0) = 0x04000000u;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[1], (1ull << 32) | 0xD0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
	assert_int_equal(lt[2], 0x80000001u);
	/* A DFR model other than flat or cluster is kept (as KVM): the vCPU accepts no
	 * logical destination and loses its entry; IPIs naming it exit and are emulated. */
	*at_reg(&t, 1, 0xE0) = 0x5FFFFFFFu;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[1], (1ull << 32) | 0xE0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(lt[2], 0);
	/* APIC ID trap write: inhibits, tables unchanged. */
	*at_reg(&t, 2, 0x20) = 0x07000000u;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[2], (1ull << 32) | 0x20, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_true(virq_avic_vm_inhibits(&t.vm) & (1u << LIBVIRQ_AVIC_INHIBIT_APIC_ID_MODIFIED));
	/* ICR trap write: the IPI is emulated (xAPIC: ICR2 dest 1, vector 0x66). */
	*at_reg(&t, 0, 0x310) = 0x01000000u;
	*at_reg(&t, 0, 0x300) = 0x00001066u;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], (1ull << 32) | 0x300, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
	assert_int_equal(res.targets, 1);
	assert_true(at_irr(&t, 1, 0x66));
	assert_int_equal(*at_reg(&t, 0, 0x300) & 0x1000, 0);
	virq_avic_vcpu_counters_get(&t.v[0], &c);
	assert_int_equal(c.noaccel_fault, 1);
	assert_int_equal(c.noaccel_trap, 5);
	assert_int_equal(c.noaccel_write, 4);
	at_vm_free(&t);
}

/*
 * A trap write that inhibits the VM (aliased logical ID, changed APIC ID)
 * must say so: every vCPU still running with AVIC keeps using the stale
 * tables (misdelivering or missing IPIs) until it recomputes its VMCB values.
 */
static void noaccel_reports_inhibit(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result res;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 3);
	*at_reg(&t, 0, 0xD0) = 0x01000000u;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], (1ull << 32) | 0xD0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
	assert_false(res.inhibited);
	/* vCPU 1 takes the same logical ID: LOGICAL_ID_ALIASED. */
	*at_reg(&t, 1, 0xD0) = 0x01000000u;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[1], (1ull << 32) | 0xD0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_true(virq_avic_vm_inhibits(&t.vm) & (1u << LIBVIRQ_AVIC_INHIBIT_LOGICAL_ID_ALIASED));
	assert_true(res.inhibited);
	/* Already inhibited for that reason: nothing new. */
	assert_int_equal(virq_avic_handle_noaccel(&t.v[1], (1ull << 32) | 0xD0, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_false(res.inhibited);
	/* APIC ID change: APIC_ID_MODIFIED. */
	*at_reg(&t, 2, 0x20) = 0x07000000u;
	assert_int_equal(virq_avic_handle_noaccel(&t.v[2], (1ull << 32) | 0x20, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_true(res.inhibited);
	at_vm_free(&t);
}

/*
 * A VM without a GA-tag VM id (vm_id 0) cannot be registered, so a GA log
 * entry for its IRTE would map to no vCPU and a blocked vCPU would never be
 * woken by its device: attaching must be refused, with nothing written.
 */
static void irte_needs_vm_id(void **s)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu v;
	struct virq_avic_vm_cfg cfg = {.mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = 2};
	struct virq_avic_vcpu_cfg vc = {.index = 1, .apic_id = 1};
	struct virq_avic_irte_ref ref;
	uint64_t irte[2] = {0x1111, 0x2222};

	(void)s;
	at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN4);
	assert_int_equal(virq_avic_caps_probe(&hal, &caps), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_init(&vm, &hal, &caps, &cfg), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_init(&vm, &v, &vc), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_attach(&v, &ref, irte, 0x40), LIBVIRQ_EINVAL);
	assert_true(irte[0] == 0x1111 && irte[1] == 0x2222);
	assert_int_equal(virq_avic_vcpu_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_destroy(&vm), LIBVIRQ_OK);
	virq_sim_free(sim);
}

/*
 * An IRTE with IsRun = 1 makes the IOMMU ring the doorbell, which a CPU
 * running the vCPU without AVIC (VM inhibited, or L2) ignores: while the vCPU
 * runs without AVIC its IRTEs must say IsRun = 0, GALogIntr = 1, so the GA
 * log handler kicks it.
 */
static void irte_follows_avic_state(void **s)
{
	struct at_vm t;
	struct virq_avic_irte_ref ref;
	uint64_t irte[2] __attribute__((aligned(16))) = {0, 0};
	struct virq_avic_irte_ga f;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	at_run(&t, 1, 0x12);
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref, irte, 0x61), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(f.is_run && !f.ga_log_intr);
	/* VM inhibited: the vCPU re-enters without AVIC. */
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN), LIBVIRQ_OK);
	at_vmcb(&t, 1);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && f.ga_log_intr);
	/* Preempted and loaded again, still inhibited: same. */
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && !f.ga_log_intr);
	assert_int_equal(virq_avic_vcpu_load(&t.v[1], 0x13), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && f.ga_log_intr);
	/* Uninhibited: running with AVIC again, IsRun 1 on the new CPU. */
	assert_int_equal(virq_avic_vm_uninhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN), LIBVIRQ_OK);
	at_vmcb(&t, 1);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(f.is_run && !f.ga_log_intr);
	assert_int_equal(f.dest, 0x13);
	/* L2: GA log path until the L1 values enable AVIC again. */
	virq_avic_vcpu_set_nested(&t.v[1], true);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(!f.is_run && f.ga_log_intr);
	virq_avic_vcpu_set_nested(&t.v[1], false);
	at_vmcb(&t, 1);
	assert_int_equal(virq_avic_irte_ga_decode(irte, &f), LIBVIRQ_OK);
	assert_true(f.is_run && !f.ga_log_intr);
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_detach(&t.v[1], &ref), LIBVIRQ_OK);
	at_vm_free(&t);
}

/*
 * An ICR trap write of an NMI (or INIT, SIPI...) with no delivery callback
 * cannot be delivered: the handler must say so, as the incomplete-IPI handler
 * does, rather than report success with the NMI dropped.
 */
static void noaccel_icr_special_unsupported(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result res;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 2);
	at_run(&t, 0, 0x10);
	*at_reg(&t, 0, 0x310) = 0x01000000u;
	*at_reg(&t, 0, 0x300) = 0x00000400u; /* NMI, physical, dest 1 */
	assert_int_equal(virq_avic_handle_noaccel(&t.v[0], (1ull << 32) | 0x300, 0, NULL, &res),
			 LIBVIRQ_ENOTSUP);
	assert_int_equal(
	    virq_avic_handle_incomplete_ipi(&t.v[0], 0x0100000000000400ull, 0, NULL, &res),
	    LIBVIRQ_ENOTSUP);
	at_vm_free(&t);
}

/*
 * posts is derived (notifications - wakes - failed doorbells); a snapshot
 * taken while an exit handler has counted its wake but not yet its kick must
 * not wrap around to 2^64 - 1.
 */
static void counters_no_wrap(void **s)
{
	struct at_vm t;
	struct virq_avic_vcpu_counters c;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 1);
	t.v[0].cnt.wakes = 1; /* wake counted, its notification not yet */
	virq_avic_vcpu_counters_get(&t.v[0], &c);
	assert_true(c.posts == 0);
	at_vm_free(&t);
}

/*
 * IsRunning = 1 makes a sending vCPU's hardware ring the doorbell instead of
 * exiting, and a CPU running the target without AVIC (VM inhibited, L2)
 * ignores it: while the vCPU runs without AVIC its physical entry must have
 * IsRunning = 0 (host APIC ID kept), so senders exit TARGET_NOT_RUNNING and
 * the library kicks it (as KVM's put on APICv deactivation does).
 */
static void isrunning_follows_avic_state(void **s)
{
	struct at_vm t;
	uint64_t pa;
	uint64_t *pt;
	struct virq_sim_avic_result *r = calloc(1, sizeof(*r));
	struct virq_avic_exit_result res;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	pt = phys_table(&t);
	virq_avic_vcpu_backing(&t.v[1], &pa);
	at_run(&t, 0, 0x10);
	at_run(&t, 1, 0x11);
	assert_true(pt[1] == (pa | (3ull << 62) | 0x11));
	/* vCPU 1 enters L2. */
	virq_avic_vcpu_set_nested(&t.v[1], true);
	assert_true(pt[1] == (pa | (1ull << 63) | 0x11));
	/* vCPU 0 (AVIC on) sends to it: the hardware exits, the library kicks. */
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x40F1, 1, NULL, r), 0);
	assert_true(r->exited && (r->info2 >> 32) == LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING);
	assert_int_equal(r->ndoorbell, 0);
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], r->info1, r->info2, NULL, &res),
			 LIBVIRQ_OK);
	assert_int_equal(virq_sim_kicks_of(t.sim, t.v[1].cookie), 1);
	/* Preempted in L2 and loaded again: still not running for senders. */
	assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_load(&t.v[1], 0x12), LIBVIRQ_OK);
	assert_true(pt[1] == (pa | (1ull << 63) | 0x12));
	virq_avic_vcpu_set_nested(&t.v[1], false);
	at_vmcb(&t, 1);
	assert_true(pt[1] == (pa | (3ull << 62) | 0x12));
	/* VM inhibited: vCPU 1 re-enters without AVIC. */
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN), LIBVIRQ_OK);
	at_vmcb(&t, 1);
	assert_true(pt[1] == (pa | (1ull << 63) | 0x12));
	assert_int_equal(virq_avic_vm_uninhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN), LIBVIRQ_OK);
	at_vmcb(&t, 1);
	assert_true(pt[1] == (pa | (3ull << 62) | 0x12));
	free(r);
	at_vm_free(&t);
}

/*
 * A vCPU leaving x2APIC mode with an APIC ID above 0xFE aliases an xAPIC ID
 * and inhibits the VM (PHYSICAL_ID_TOO_BIG): the caller must learn it, as
 * for an APIC ID write, so the running vCPUs stop using the 1:1 table.
 */
static void set_x2apic_reports_inhibit(void **s)
{
	struct at_vm t;
	struct virq_avic_vcpu b;
	struct virq_avic_vcpu_cfg cb = {.index = 2, .apic_id = 0x123};

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 3);
	assert_int_equal(virq_avic_vcpu_destroy(&t.v[2]), LIBVIRQ_OK);
	t.n = 2;
	assert_int_equal(virq_avic_vcpu_init(&t.vm, &b, &cb), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_set_x2apic(&b, true), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vm_inhibits(&t.vm), 0);
	assert_int_equal(virq_avic_vcpu_set_x2apic(&b, false), LIBVIRQ_EINHIBITED);
	assert_true(virq_avic_vm_inhibits(&t.vm) &
		    (1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG));
	/* A vCPU whose ID fits leaves x2APIC mode without inhibiting. */
	assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[1], false), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_destroy(&b), LIBVIRQ_OK);
	at_vm_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lifecycle_tables),
	    cmocka_unit_test(vm_init_errors),
	    cmocka_unit_test(apic_id_beyond_table_refused_nothing_written),
	    cmocka_unit_test(xapic_alias_reaches_every_aliased_vcpu),
	    cmocka_unit_test(set_x2apic_reports_inhibit),
	    cmocka_unit_test(vmcb_values),
	    cmocka_unit_test(inhibits),
	    cmocka_unit_test(inhibit_keeps_irr),
	    cmocka_unit_test(nested_stops_doorbell),
	    cmocka_unit_test(isrunning_follows_avic_state),
	    cmocka_unit_test(post_paths),
	    cmocka_unit_test(counters_no_wrap),
	    cmocka_unit_test(pending_priority),
	    cmocka_unit_test(policy_and_calibration),
	    cmocka_unit_test(calibration_chooses_kick),
	    cmocka_unit_test(calibration_counts_kick_exit),
	    cmocka_unit_test(erratum_1235_never_sets_isrunning),
	    cmocka_unit_test(load_put_errors),
	    cmocka_unit_test(logical_table_single_bit_ids_only),
	    cmocka_unit_test(logical_table_cluster_index_no_broadcast_cluster),
	    cmocka_unit_test(apic_id_write),
	    cmocka_unit_test(irte_target_follows_run_state),
	    cmocka_unit_test(ga_log_tag_wakes_right_vcpu_up_to_4095),
	    cmocka_unit_test(irte_needs_vm_id),
	    cmocka_unit_test(irte_follows_avic_state),
	    cmocka_unit_test(noaccel_exits),
	    cmocka_unit_test(logical_index_changes),
	    cmocka_unit_test(noaccel_reports_inhibit),
	    cmocka_unit_test(noaccel_icr_special_unsupported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
