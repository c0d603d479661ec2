/* SPDX-License-Identifier: MIT */
/*
 * Where the APM lets AVIC hardware differ (libvirq/sim/avic.h): the
 * extended LVT registers by CPUID Fn8000_000A EDX[27], the classes of
 * Table 15-22 (accelerated, trap, fault) against the library's AVIC_NOACCEL
 * decode, and the width of the host physical APIC ID a CPU consumes.
 */
#include "avic_test.h"

/* vCPU 0 of a one-vCPU xAVIC VM on a Zen 4, loaded on host 2, its VMCB written. */
static void one_vcpu(struct at_vm *t)
{
	at_vm_new_cpu(t, LIBVIRQ_AVIC_MODE_XAVIC, 1, LIBVIRQ_SIM_CPU_ZEN4);
	at_run(t, 0, 2);
}

/* Without ExtLvtAvicAccessChg both accesses to an extended LVT fault and
 * change nothing; with it a read is accelerated and a write traps after it
 * landed (APM Vol 2 §15.29.3.1). The library decodes both as faults/traps
 * the same way for every CPU for now (its CPUID-driven classification is
 * the amd module's). */
static void test_extlvt_fault_without_cpuid_bit(void **state)
{
	struct virq_sim_avic_opts o = {.extlvt = false};
	struct virq_sim_avic_access a;
	struct at_vm t;

	(void)state;
	one_vcpu(&t);
	*at_reg(&t, 0, 0x510) = 0x10400;
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0x510, false, 0, &o, &a), 0);
	assert_true(a.exited && !a.trap);
	assert_int_equal(a.info1, 0x510);
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0x510, true, 0x22, &o, &a), 0);
	assert_true(a.exited && !a.trap);
	assert_int_equal(a.info1, 0x510 | (1ull << 32));
	assert_int_equal(*at_reg(&t, 0, 0x510), 0x10400); /* a fault changes nothing */
	assert_false(virq_avic_noaccel_is_trap(0x510, false));
	at_vm_free(&t);
}

static void test_extlvt_read_allowed_write_traps(void **state)
{
	struct virq_sim_avic_opts o = {.extlvt = true};
	struct virq_sim_avic_access a;
	struct at_vm t;

	(void)state;
	one_vcpu(&t);
	*at_reg(&t, 0, 0x500) = 0x10400;
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0x500, false, 0, &o, &a), 0);
	assert_false(a.exited);
	assert_int_equal(a.value, 0x10400);
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0x530, true, 0x22, &o, &a), 0);
	assert_true(a.exited && a.trap);
	assert_int_equal(*at_reg(&t, 0, 0x530), 0x22); /* the trap's write landed */
	at_vm_free(&t);
}

/* Every exit the model takes for an offset below 0x400 is the kind the
 * library's decode says: the same offset and direction, trap exactly where
 * virq_avic_noaccel_is_trap() says so. */
static void test_table_15_22_classes_match_library(void **state)
{
	struct virq_sim_avic_access a;
	struct virq_avic_exit_noaccel d;
	struct at_vm t;
	unsigned exits = 0, traps = 0;

	(void)state;
	one_vcpu(&t);
	for (uint32_t off = 0; off < 0x400; off += 0x10)
		for (int w = 0; w < 2; w++) {
			if (w && off == 0x300)
				continue; /* ICR low: virq_sim_avic_icr_write() */
			assert_int_equal(
			    virq_sim_avic_apic_access(t.sim, t.vmcb[0], off, w, 0, NULL, &a), 0);
			if (!a.exited)
				continue;
			exits++;
			traps += a.trap;
			assert_int_equal(virq_avic_exit_noaccel_decode(a.info1, a.info2, false, &d),
					 LIBVIRQ_OK);
			assert_int_equal(d.offset, off);
			assert_int_equal(d.write, w != 0);
			if (virq_avic_noaccel_is_trap(off, false) != a.trap || d.trap != a.trap)
				fail_msg("offset 0x%x %s: model %s, library %s", off,
					 w ? "write" : "read", a.trap ? "trap" : "fault",
					 a.trap ? "fault" : "trap");
		}
	assert_true(exits > traps && traps == 14); /* ID RRR LDR DFR SPIV ESR 6 LVTs TMICT TDCR */
	at_vm_free(&t);
}

/* EOI: accelerated (the highest in-service bit cleared) for an edge vector,
 * a trap for a level-triggered one (TMR set), which the library reports as
 * a trap too. */
static void test_eoi_level_traps(void **state)
{
	struct virq_sim_avic_access a;
	struct at_vm t;

	(void)state;
	one_vcpu(&t);
	*at_reg(&t, 0, 0x100 + (0x41 / 32) * 0x10) = 1u << (0x41 % 32); /* ISR 0x41 */
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0xB0, true, 0, NULL, &a), 0);
	assert_false(a.exited);
	assert_true(a.eoi_done && a.eoi_vec == 0x41);
	assert_int_equal(*at_reg(&t, 0, 0x100 + (0x41 / 32) * 0x10), 0);
	*at_reg(&t, 0, 0x100 + (0x52 / 32) * 0x10) = 1u << (0x52 % 32);
	*at_reg(&t, 0, 0x180 + (0x52 / 32) * 0x10) = 1u << (0x52 % 32); /* level */
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0xB0, true, 0, NULL, &a), 0);
	assert_true(a.exited && a.trap);
	assert_true(virq_avic_noaccel_is_trap(0xB0, false));
	at_vm_free(&t);
}

/* A CPU that consumes 8 bits of the host physical APIC ID rings host
 * 0x1FF & 0xFF = 0xFF for a target loaded on host 0x1FF; one with 12 bits
 * rings 0x1FF (no CPUID bit tells which: the model's option). */
static void host_bits(uint8_t bits, uint32_t want)
{
	struct virq_sim_avic_opts o = {.host_id_bits = bits};
	struct virq_sim_avic_result *r = calloc(1, sizeof(*r));
	struct at_vm t;

	assert_non_null(r);
	at_vm_new_cpu(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2, LIBVIRQ_SIM_CPU_ZEN4);
	at_run(&t, 0, 3);
	at_run(&t, 1, 0x1FF);
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 3, 0x40, 1, &o, r), 0);
	assert_false(r->exited);
	assert_int_equal(r->ndoorbell, 1);
	assert_int_equal(r->doorbell[0], want);
	free(r);
	at_vm_free(&t);
}

static void test_host_id_12_bits(void **state)
{
	(void)state;
	host_bits(0, 0x1FF);
}

static void test_host_id_8_bits(void **state)
{
	(void)state;
	host_bits(8, 0xFF);
}

/* The CPUID bits behind the options: ExtApicSpace and ExtLvtAvicAccessChg
 * reach the leaves a probe reads. */
static void test_cpuid_bits(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_cpu c = virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5];
	uint32_t r[4];

	(void)state;
	c.avic_extlvt = true;
	virq_sim_cpu_apply(sim, &c);
	virq_sim_hal_ops()->cpuid(sim, 0x8000000Au, 0, r);
	assert_true((r[3] >> 27) & 1);
	virq_sim_hal_ops()->cpuid(sim, 0x80000001u, 0, r);
	assert_true((r[2] >> 3) & 1);
	virq_sim_cpu_apply(sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_INTEL]);
	virq_sim_hal_ops()->cpuid(sim, 0x80000001u, 0, r);
	assert_false((r[2] >> 3) & 1);
	virq_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_extlvt_fault_without_cpuid_bit),
	    cmocka_unit_test(test_extlvt_read_allowed_write_traps),
	    cmocka_unit_test(test_table_15_22_classes_match_library),
	    cmocka_unit_test(test_eoi_level_traps),
	    cmocka_unit_test(test_host_id_12_bits),
	    cmocka_unit_test(test_host_id_8_bits),
	    cmocka_unit_test(test_cpuid_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
