/* SPDX-License-Identifier: MIT */
/*
 * Regressions of defects found by checking libvirq's AVIC module against
 * KVM and by misuse reviews. Each test failed before its fix:
 *  - hotplug:       an x2APIC-mode sender's INIT/SIPI to an xAPIC-mode vCPU
 *                   whose APIC ID is above 0xFF found no target (KVM
 *                   arch/x86/kvm/lapic.c kvm_apic_match_physical_addr(),
 *                   "hotplug hack", 5bd5db385b3e);
 *  - bcast_ff:      physical destination 0xFF from an x2APIC-mode sender was
 *                   an ordinary ID for xAPIC-mode targets instead of their
 *                   broadcast (kvm_apic_broadcast());
 *  - irte_uaf:      an IRTE reference attached to one vCPU could be attached
 *                   to another; after detach + free, loading the first vCPU
 *                   read freed memory (ASan in the sanitize preset);
 *  - vm_reinit:     re-initialising a live VM leaked its tables;
 *  - unknown_cause: every unknown AVIC_INCOMPLETE_IPI cause logged an ERROR
 *                   line (a guest could flood the host log);
 *  - tnr_running:   TARGET_NOT_RUNNING rang the doorbell of targets the
 *                   hardware had already notified (APM Vol 2 §15.29.3.1);
 *  - map_size:      the internal lookup maps were sized by the table mode
 *                   (64 KiB at 4K x2AVIC even for 1,024 vCPUs).
 * And: a failure says which check failed (one debug line), success says nothing.
 */
#include "avic_test.h"

struct hits {
	uint32_t n;
	uint32_t idx[8];
};

static void hit_cb(void *arg, struct virq_avic_vcpu *t)
{
	struct hits *h = arg;

	if (h->n < 8)
		h->idx[h->n] = t->index;
	h->n++;
}

static void deliver_cb(void *arg, struct virq_avic_vcpu *t, enum virq_avic_apic_dm mode,
		       uint8_t vector)
{
	struct hits *h = arg;

	(void)mode;
	(void)vector;
	hit_cb(h, t);
}

/* A VM of @n vCPUs (APIC ID = index), all in x2APIC mode except @xapic. */
static void mixed_vm(struct at_vm *t, uint32_t n, uint32_t xapic)
{
	virq_status st;

	at_vm_new(t, LIBVIRQ_AVIC_MODE_X2AVIC, n);
	st = virq_avic_vcpu_set_x2apic(&t->v[xapic], false);
	assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EINHIBITED);
}

static void hotplug(void **s)
{
	struct at_vm t;
	struct hits h = {0};
	struct virq_avic_deliver_ops ops = {deliver_cb, &h};
	uint32_t n = 0;

	(void)s;
	/* 300 vCPUs; vCPU 0x123 was just hot-plugged and is still in xAPIC mode. */
	mixed_vm(&t, 300, 0x123);
	/* vCPU 0 (x2APIC) sends INIT, then SIPI vector 0x9A, physical, to 0x123. */
	assert_int_equal(virq_avic_emulate_icr(&t.v[0], (0x123ull << 32) | 0x4500u, &ops, &n),
			 LIBVIRQ_OK);
	assert_int_equal(n, 1);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.idx[0], 0x123);
	h.n = 0;
	assert_int_equal(virq_avic_emulate_icr(&t.v[0], (0x123ull << 32) | 0x469Au, &ops, &n),
			 LIBVIRQ_OK);
	assert_int_equal(n, 1);
	assert_int_equal(h.idx[0], 0x123);
	/* Destination 0x23: vCPU 0x23 (x2APIC ID) and vCPU 0x123, whose 8-bit xAPIC ID
	 * 0x23 answers too (architectural aliasing; the VM is inhibited meanwhile). */
	h.n = 0;
	assert_int_equal(virq_avic_emulate_icr(&t.v[0], (0x23ull << 32) | 0x4500u, &ops, &n),
			 LIBVIRQ_OK);
	assert_int_equal(n, 2);
	assert_true(virq_avic_vm_inhibits(&t.vm) &
		    (1u << LIBVIRQ_AVIC_INHIBIT_PHYSICAL_ID_TOO_BIG));
	at_vm_free(&t);
}

static void bcast_ff(void **s)
{
	struct at_vm t;
	struct virq_avic_icr icr;
	struct hits h = {0};
	uint32_t n;

	(void)s;
	/* vCPUs 0..3; vCPU 2 is in xAPIC mode (reset). */
	mixed_vm(&t, 4, 2);
	/* x2APIC sender, physical destination 0xFF, fixed. */
	assert_int_equal(virq_avic_icr_decode(0xFFull << 32 | 0x40F0u, true, &icr), LIBVIRQ_OK);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, hit_cb, &h, &n), LIBVIRQ_OK);
	/* The xAPIC broadcast for vCPU 2; no x2APIC vCPU has ID 0xFF. */
	assert_int_equal(n, 1);
	assert_int_equal(h.idx[0], 2);
	at_vm_free(&t);
}

static void irte_uaf(void **s)
{
	struct at_vm t;
	struct virq_avic_irte_ref *ref = malloc(sizeof(*ref));
	uint64_t irte[2] __attribute__((aligned(16))) = {0, 0};

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	memset(ref, 0, sizeof(*ref));
	assert_int_equal(virq_avic_irte_attach(&t.v[0], ref, irte, 0x41), LIBVIRQ_OK);
	/* Documented: a reference already attached (to any vCPU) is refused. */
	assert_int_equal(virq_avic_irte_attach(&t.v[1], ref, irte, 0x42), LIBVIRQ_EEXIST);
	assert_int_equal(virq_avic_irte_detach(&t.v[1], ref), LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_irte_detach(&t.v[0], ref), LIBVIRQ_OK);
	free(ref);
	/* vCPU 0's list no longer holds the freed reference. */
	at_run(&t, 0, 7);
	assert_int_equal(virq_avic_vcpu_put(&t.v[0]), LIBVIRQ_OK);
	at_vm_free(&t);
}

static void vm_reinit(void **s)
{
	struct at_vm t;
	struct virq_avic_vm_cfg cfg = {
	    .mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = 4, .vm_id = 5};
	size_t live;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 1);
	live = virq_sim_live_pages(t.sim);
	assert_int_equal(virq_avic_vm_init(&t.vm, &t.hal, &t.caps, &cfg), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(t.sim), live);
	at_vm_free(&t);
}

static void unknown_cause(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result r;
	uint8_t *phys, *logt;
	unsigned long lines;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	phys = malloc(4096);
	logt = malloc(4096);
	memcpy(phys, t.vm.phys_table.va, 4096);
	memcpy(logt, t.vm.log_table.va, 4096);
	for (uint32_t k = 0; k < 1000000u; k++) {
		virq_status st = virq_avic_handle_incomplete_ipi(
		    &t.v[0], 0x00000001000040F1ull, ((uint64_t)(6u + k % 1000u) << 32) | 1u, NULL,
		    &r);

		assert_int_equal(st, LIBVIRQ_EUNKNOWN);
		assert_int_equal(r.action, LIBVIRQ_AVIC_ACT_REPORT);
	}
	/* And a million exit codes the AVIC dispatcher does not handle. */
	for (uint32_t k = 0; k < 1000000u; k++) {
		virq_status st = virq_avic_handle_exit(
		    &t.v[k & 1], 0x60u + (k % 0x300u) + (k & 0x400u), k, k, NULL, &r);

		assert_int_equal(st, LIBVIRQ_EUNKNOWN);
		assert_int_equal(r.action, LIBVIRQ_AVIC_ACT_REPORT);
	}
	{
		struct virq_avic_vm_counters c;

		assert_int_equal(virq_avic_vm_counters_get(&t.vm, &c), LIBVIRQ_OK);
		assert_true(c.unknown_ipi_cause == 1000000u && c.unknown_exit == 1000000u);
		assert_true(c.log_lines_dropped == 2u * (1000000u - LIBVIRQ_AVIC_LOG_BURST - 1u));
	}
	/* Two kinds: at most 2 x (burst + 1) lines for two million events. */
	lines = virq_sim_log_count(t.sim, LIBVIRQ_LOG_ERROR) +
		virq_sim_log_count(t.sim, LIBVIRQ_LOG_WARN);
	assert_true(lines <= 2u * (LIBVIRQ_AVIC_LOG_BURST + 1u));
	/* No table touched, no target woken. */
	assert_memory_equal(phys, t.vm.phys_table.va, 4096);
	assert_memory_equal(logt, t.vm.log_table.va, 4096);
	assert_int_equal(virq_sim_count(t.sim, LIBVIRQ_SIM_KICK), 0);
	free(phys);
	free(logt);
	at_vm_free(&t);
}

static void tnr_running(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result r;
	struct virq_sim_avic_doorbells db;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 255);
	/* Every third vCPU runs on its own CPU; vCPU 0 (the sender) runs. */
	for (uint32_t i = 0; i < 255; i++) {
		at_run(&t, i, 0x100 + i);
		if (i % 3 != 0)
			assert_int_equal(virq_avic_vcpu_put(&t.v[i]), LIBVIRQ_OK);
	}
	virq_sim_avic_watch_doorbells(t.sim, &db);
	virq_sim_reset_counters(t.sim);
	/* x2APIC broadcast (all including self), TARGET_NOT_RUNNING. */
	assert_int_equal(
	    virq_avic_handle_incomplete_ipi(&t.v[0], 0xFFFFFFFF00004050ull, 1ull << 32, NULL, &r),
	    LIBVIRQ_OK);
	/* The hardware notified the 84 running targets; the 170 others are kicked. */
	assert_int_equal(db.n, 0);
	assert_int_equal(virq_sim_count(t.sim, LIBVIRQ_SIM_KICK), 170);
	assert_int_equal(r.targets, 170);
	at_vm_free(&t);
}

static void map_size(void **s)
{
	struct at_vm t;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC_4K, 1024);
	/* vCPU-by-index (1,024 pointers, 8 KiB) + APIC-ID map (2,048 slots, 8 KiB) + xAPIC
	 * logical index (72 buckets of 16 words and a summary each, 9,792 bytes): 28 KiB. */
	assert_true(t.vm.maps.size <= 28672);
	at_vm_free(&t);
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC_4K, 1);
	assert_true(t.vm.maps.size <= 4096);
	at_vm_free(&t);
}

static unsigned long logs_(struct at_vm *t)
{
	unsigned long n = 0;

	for (int l = LIBVIRQ_LOG_ERROR; l <= LIBVIRQ_LOG_DEBUG; l++)
		n += virq_sim_log_count(t->sim, (enum virq_log_level)l);
	return n;
}

static void fail_says_why(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result r;
	struct virq_avic_irte_ref ref;
	struct virq_failure f;
	uint64_t irte[2] __attribute__((aligned(16))) = {0, 0};
	uint32_t n;

	(void)s;
	memset(&ref, 0, sizeof(ref));
	/* Success paths log nothing at any level. */
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 8);
	for (uint32_t i = 0; i < 8; i++)
		at_run(&t, i, 0x20 + i);
	assert_int_equal(virq_avic_vcpu_put(&t.v[5]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_post(&t.v[3], 0x40, 0x20), LIBVIRQ_OK);
	assert_int_equal(virq_avic_post(&t.v[5], 0x41, 0x20), LIBVIRQ_OK);
	assert_int_equal(
	    virq_avic_handle_incomplete_ipi(&t.v[0], 0xFFFFFFFF00004050ull, 1ull << 32, NULL, &r),
	    LIBVIRQ_OK);
	assert_int_equal(virq_avic_emulate_icr(&t.v[0], (2ull << 32) | 0x4060u, NULL, &n),
			 LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref, irte, 0x50), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_block(&t.v[1]), LIBVIRQ_OK);
	assert_int_equal(virq_avic_vcpu_unblock(&t.v[1], 0x21), LIBVIRQ_OK);
	assert_int_equal(virq_avic_irte_detach(&t.v[1], &ref), LIBVIRQ_OK);
	assert_int_equal(logs_(&t), 0);
	/* A failure: one debug line naming the function and the check, status first. */
	assert_int_equal(virq_avic_vcpu_load(&t.v[5], 0x1000), LIBVIRQ_ERANGE);
	assert_int_equal(logs_(&t), 1);
	assert_int_equal(virq_sim_log_count(t.sim, LIBVIRQ_LOG_DEBUG), 1);
	assert_string_equal(virq_sim_last_log(t.sim),
			    "virq_avic_vcpu_load: host_apic_id=4096 > 4095");
	assert_true(virq_sim_last_fail(t.sim, &f));
	assert_string_equal(f.function, "virq_avic_vcpu_load");
	assert_int_equal(f.status, LIBVIRQ_ERANGE);
	assert_int_equal(f.nvalues, 2);
	assert_int_equal(f.values[0], 0x1000);
	assert_int_equal(virq_avic_vcpu_load(&t.v[4], 0x30), LIBVIRQ_EBUSY);
	assert_true(virq_sim_last_fail(t.sim, &f));
	assert_string_equal(f.function, "virq_avic_vcpu_load");
	assert_string_equal(f.message, "virq_avic_vcpu_load: vcpu already loaded");
	assert_int_equal(virq_avic_irte_attach(&t.v[1], &ref, irte, 3), LIBVIRQ_ERANGE);
	assert_true(virq_sim_last_fail(t.sim, &f));
	assert_string_equal(f.function, "virq_avic_irte_attach");
	assert_string_equal(f.check, "vector=%u < 16");
	assert_int_equal(f.values[0], 3);
	assert_true(virq_sim_logged(t.sim, "virq_avic_irte_attach: vector=3 < 16"));
	assert_int_equal(virq_sim_log_count(t.sim, LIBVIRQ_LOG_DEBUG), 3);
	at_vm_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(hotplug),	     cmocka_unit_test(bcast_ff),
	    cmocka_unit_test(irte_uaf),	     cmocka_unit_test(vm_reinit),
	    cmocka_unit_test(unknown_cause), cmocka_unit_test(tnr_running),
	    cmocka_unit_test(map_size),	     cmocka_unit_test(fail_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
