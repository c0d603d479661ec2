/* SPDX-License-Identifier: MIT */
/*
 * What AMD64 APM Vol 2 rev 3.44 says, where libvirq once said otherwise
 * (each test failed before its fix):
 *  1. AVIC_NOACCEL EXITINFO2 holds the EOI's vector in bits 7:0, 63:8 are
 *     reserved (§15.29.9.2, Table 15-29);
 *  2. the doorbell register takes an 8-bit physical APIC ID, 63:8 MBZ
 *     (§15.29.8.2, Figure 15-22): no write ever sets them, a CPU with a
 *     higher APIC ID is kicked;
 *  3. with CPUID Fn8000_000A EDX[27] the extended LVT writes (500h-530h) trap,
 *     without it they fault (§15.29.3.1, Table 15-22);
 *  4. AVIC_INCOMPLETE_IPI ID 5 is Un-accelerated IPI, above 5 reserved
 *     (§15.29.9.1, Table 15-27);
 *  5. EXITINFO2 Index is bits 11:0, valid for ID 1-3 only (Table 15-26);
 *  6. ICR message type 011b is Remote read (§16.5, Figures 16-18, 16-19).
 */
#include "avic_test.h"

/* 1. Table 15-29: bits 7:0, for an EOI write only. */
static void noaccel_vector_is_bits_7_0_of_an_eoi(void **s)
{
	struct virq_avic_exit_noaccel x;

	(void)s;
	/* EXITINFO1 (Table 15-28): R/W = 1, APIC_Offset = B0h; EXITINFO2 with 63:8 set. */
	assert_int_equal(
	    virq_avic_exit_noaccel_decode(0x00000001000000B0ull, 0xFFFFFFFFFFFFFF31ull, false, &x),
	    LIBVIRQ_OK);
	assert_true(x.write && x.trap && x.offset == 0xB0);
	assert_true(x.vector_valid);
	assert_int_equal(x.vector, 0x31);
	/* Not an EOI write: "otherwise undefined". */
	assert_int_equal(
	    virq_avic_exit_noaccel_decode(0x00000001000000D0ull, 0x0000000000000031ull, false, &x),
	    LIBVIRQ_OK);
	assert_false(x.vector_valid);
	assert_int_equal(x.vector, 0);
}

/* 1 through the hardware model: a level-triggered EOI exits with its vector. */
static void level_eoi_exit_reports_its_vector(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_access a;
	struct virq_avic_exit_result r;

	(void)s;
	at_vm_new_cpu(&t, LIBVIRQ_AVIC_MODE_XAVIC, 1, LIBVIRQ_SIM_CPU_ZEN4);
	at_run(&t, 0, 2);
	*at_reg(&t, 0, 0x100 + 0x10 * (0x61 / 32)) |= 1u << (0x61 % 32); /* ISR */
	*at_reg(&t, 0, 0x180 + 0x10 * (0x61 / 32)) |= 1u << (0x61 % 32); /* TMR: level */
	assert_int_equal(virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0xB0, true, 0, NULL, &a), 0);
	assert_true(a.exited && a.trap);
	assert_int_equal(
	    virq_avic_handle_noaccel(&t.v[0], a.info1, a.info2 | 0xFFFFFF00ull, NULL, &r),
	    LIBVIRQ_OK);
	assert_true(r.trap && r.write && r.vector_valid);
	assert_int_equal(r.vector, 0x61);
	assert_int_equal(r.action, LIBVIRQ_AVIC_ACT_EMULATE_WRITE);
	at_vm_free(&t);
}

/* 2. Figure 15-22: the encoder refuses an APIC ID above 0xFF. */
static void doorbell_value_is_8_bits(void **s)
{
	uint64_t v;

	(void)s;
	assert_int_equal(virq_avic_doorbell_encode(0xFF, &v), LIBVIRQ_OK);
	assert_true(v == 0xFF);
	assert_int_equal(virq_avic_doorbell_encode(0x100, &v), LIBVIRQ_ERANGE);
	assert_int_equal(LIBVIRQ_AVIC_DOORBELL_MAX_ID, 0xFF);
}

/*
 * 2. On a register that faults on bits 63:8 (the simulator models both
 * behaviours), a target on any host APIC ID 0..0xFFF gets its interrupt with
 * no refused write: a doorbell up to 0xFF, a kick above.
 */
static void doorbell_never_writes_reserved_bits(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_doorbells db;
	struct virq_avic_vcpu_counters c;
	uint64_t doorbells = 0, kicks = 0;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	virq_sim_avic_watch_doorbells(t.sim, &db);
	db.mbz_faults = true;
	for (uint32_t host = 0; host <= 0xFFF; host++) {
		uint32_t vec = 0x20u + (host & 0xDFu);

		if (host == 0x77)
			continue; /* the poster's own CPU */
		at_run(&t, 1, host);
		assert_int_equal(virq_avic_post(&t.v[1], vec, 0x77), LIBVIRQ_OK);
		assert_true(at_irr(&t, 1, (uint8_t)vec));
		virq_sim_avic_irr_clear(virq_avic_vcpu_backing(&t.v[1], NULL), (uint8_t)vec);
		assert_int_equal(virq_avic_vcpu_put(&t.v[1]), LIBVIRQ_OK);
	}
	assert_int_equal(db.refused, 0);
	assert_int_equal(db.wide, 0);
	virq_avic_vcpu_counters_get(&t.v[1], &c);
	doorbells = c.doorbells;
	kicks = c.kicks;
	assert_int_equal(doorbells, 0xFF); /* hosts 0..0xFF but the poster's */
	assert_int_equal(kicks, 0xFFF - 0xFF);
	assert_int_equal(db.n, 0xFF);
	/* Calibration rings the caller's own CPU: only with an 8-bit APIC ID. */
	assert_int_equal(virq_avic_vm_calibrate(&t.vm, 0x100, NULL, 1, NULL), LIBVIRQ_ERANGE);
	assert_int_equal(db.wide, 0);
	at_vm_free(&t);
}

/* 3. The probe reads EDX[27]; the classification follows it. */
static void ext_lvt_trap_follows_cpuid(void **s)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_avic_caps caps;

	(void)s;
	at_cpu(sim, LIBVIRQ_SIM_CPU_EXTLVT);
	assert_int_equal(virq_avic_caps_probe(&hal, &caps), LIBVIRQ_OK);
	assert_true(caps.ext_lvt_trap);
	at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN5);
	assert_int_equal(virq_avic_caps_probe(&hal, &caps), LIBVIRQ_OK);
	assert_false(caps.ext_lvt_trap);
	virq_sim_free(sim);
	for (uint32_t off = 0x500; off <= 0x530; off += 0x10) {
		assert_true(virq_avic_noaccel_is_trap(off, true));
		assert_false(virq_avic_noaccel_is_trap(off, false));
	}
	assert_false(virq_avic_noaccel_is_trap(0x540, true)); /* reserved: faults */
	assert_false(virq_avic_noaccel_is_trap(0x4F0, true)); /* IER: faults */
}

/* 3 end to end: a guest write of 500h on each kind of CPU, as the model takes it. */
static void ext_lvt_write_trap_or_fault_end_to_end(void **s)
{
	static const enum virq_sim_cpu_id cpus[2] = {LIBVIRQ_SIM_CPU_EXTLVT, LIBVIRQ_SIM_CPU_ZEN5};

	(void)s;
	for (int k = 0; k < 2; k++) {
		bool edx27 = virq_sim_cpus[cpus[k]].avic_extlvt;
		struct virq_sim_avic_opts o = {.extlvt = edx27};
		struct virq_sim_avic_access a;
		struct virq_avic_exit_result r;
		struct at_vm t;

		at_vm_new_cpu(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 1, cpus[k]);
		at_run(&t, 0, 3);
		assert_int_equal(
		    virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0x500, true, 0x10042, &o, &a), 0);
		assert_true(a.exited);
		assert_int_equal(a.trap, edx27);
		assert_int_equal(virq_avic_handle_noaccel(&t.v[0], a.info1, a.info2, NULL, &r),
				 LIBVIRQ_OK);
		/* The library says what the hardware did: a done write is not applied twice. */
		assert_int_equal(r.trap, a.trap);
		assert_int_equal(r.action, edx27 ? LIBVIRQ_AVIC_ACT_EMULATE_WRITE
						 : LIBVIRQ_AVIC_ACT_EMULATE_ACCESS);
		assert_int_equal(*at_reg(&t, 0, 0x500), edx27 ? 0x10042u : 0u);
		/* A read exits only without EDX[27]. */
		assert_int_equal(
		    virq_sim_avic_apic_access(t.sim, t.vmcb[0], 0x500, false, 0, &o, &a), 0);
		assert_int_equal(a.exited, !edx27);
		at_vm_free(&t);
	}
}

/* 4. Table 15-27: ID 5 is Un-accelerated IPI (Secure AVIC); above 5 reserved. */
static void incomplete_ipi_id_5_is_unaccelerated(void **s)
{
	struct virq_avic_exit_ipi x;
	struct virq_avic_exit_result r;
	struct virq_avic_vm_counters vc;
	struct virq_avic_vcpu_counters c;
	struct at_vm t;

	(void)s;
	assert_int_equal(virq_avic_exit_ipi_decode(0, 0x0000000500000000ull, false, &x),
			 LIBVIRQ_OK);
	assert_int_equal(x.cause, LIBVIRQ_AVIC_IPI_UNACCELERATED);
	assert_int_equal(virq_avic_exit_ipi_decode(0, 0x0000000600000000ull, false, &x),
			 LIBVIRQ_OK);
	assert_int_equal(x.cause, LIBVIRQ_AVIC_IPI_UNKNOWN);
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 2);
	at_run(&t, 0, 1);
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], 0x00000001000000F1ull,
							 0x0000000500000000ull, NULL, &r),
			 LIBVIRQ_ENOTSUP);
	assert_int_equal(r.action, LIBVIRQ_AVIC_ACT_REPORT);
	assert_int_equal(r.cause, LIBVIRQ_AVIC_IPI_UNACCELERATED);
	assert_false(at_irr(&t, 1, 0xF1)); /* nothing emulated */
	assert_int_equal(virq_avic_vm_counters_get(&t.vm, &vc), LIBVIRQ_OK);
	assert_int_equal(vc.unaccelerated_ipi, 1);
	assert_int_equal(vc.unknown_ipi_cause, 0);
	virq_avic_vcpu_counters_get(&t.v[0], &c);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_UNACCELERATED], 1);
	at_vm_free(&t);
}

/* 5. Table 15-26: Index is 11:0 (31:12 reserved), for ID = 1-3 only. */
static void incomplete_ipi_index_11_0_for_ids_1_to_3(void **s)
{
	struct virq_avic_exit_ipi x;

	(void)s;
	for (uint64_t id = 0; id <= 6; id++) {
		assert_int_equal(
		    virq_avic_exit_ipi_decode(0, (id << 32) | 0xFFFFF123ull, false, &x),
		    LIBVIRQ_OK);
		assert_int_equal(x.index, 0x123);
		assert_int_equal(x.index_valid, id >= 1 && id <= 3);
	}
}

/* 6. §16.5: MT 011b reads a register of the target into the sender's RRR. */
static void remote_read_is_emulated(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result r;
	uint64_t icr;
	struct virq_avic_icr f = {.vector = 0x03, /* APIC offset 30h, the version register */
				  .delivery_mode = LIBVIRQ_APIC_DM_REMOTE_READ,
				  .dest = 1};

	(void)s;
	assert_int_equal(LIBVIRQ_APIC_DM_REMOTE_READ, 3);
	assert_int_equal(virq_avic_icr_encode(&f, &icr), LIBVIRQ_OK);
	assert_true(icr == 0x0100000000000303ull);
	at_vm_new_cpu(&t, LIBVIRQ_AVIC_MODE_XAVIC, 3, LIBVIRQ_SIM_CPU_ZEN4);
	*at_reg(&t, 1, 0x30) = 0x80050010u;
	*at_reg(&t, 0, 0x300) = (uint32_t)icr | (1u << 12); /* the guest's write, busy */
	/* AVIC does not accelerate it: ID 0, Invalid interrupt type (Table 15-27). */
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], icr, 0, NULL, &r), LIBVIRQ_OK);
	assert_int_equal(r.targets, 1);
	assert_int_equal(*at_reg(&t, 0, 0xC0), 0x80050010u);
	assert_int_equal((*at_reg(&t, 0, 0x300) >> 16) & 3u, LIBVIRQ_APIC_RRS_VALID);
	assert_int_equal(*at_reg(&t, 0, 0x300) & (1u << 12), 0); /* DS cleared */
	assert_false(at_irr(&t, 1, 0x03));			 /* nothing delivered */
	/* No single target: "Read was invalid". */
	f.dest = 0x2;
	f.logical = true; /* no LDR set: nobody */
	assert_int_equal(virq_avic_icr_encode(&f, &icr), LIBVIRQ_OK);
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], icr, 0, NULL, &r), LIBVIRQ_OK);
	assert_int_equal((*at_reg(&t, 0, 0x300) >> 16) & 3u, LIBVIRQ_APIC_RRS_INVALID);
	at_vm_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(noaccel_vector_is_bits_7_0_of_an_eoi),
	    cmocka_unit_test(level_eoi_exit_reports_its_vector),
	    cmocka_unit_test(doorbell_value_is_8_bits),
	    cmocka_unit_test(doorbell_never_writes_reserved_bits),
	    cmocka_unit_test(ext_lvt_trap_follows_cpuid),
	    cmocka_unit_test(ext_lvt_write_trap_or_fault_end_to_end),
	    cmocka_unit_test(incomplete_ipi_id_5_is_unaccelerated),
	    cmocka_unit_test(incomplete_ipi_index_11_0_for_ids_1_to_3),
	    cmocka_unit_test(remote_read_is_emulated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
