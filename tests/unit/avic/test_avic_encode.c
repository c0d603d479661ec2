/* SPDX-License-Identifier: MIT */
/* AVIC encoders/decoders: worked examples computed from the APM §15.29 and IOMMU
 * spec layouts, round-trips, range rejection. */
#include "avic_test.h"

static void phys_entry_encode_examples(void **s)
{
	struct virq_avic_phys_entry f = {0x05, 0x123456000ull, true, true}, g;
	uint64_t e;

	(void)s;
	assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_OK);
	assert_true(e == 0xC000000123456005ull);
	f = (struct virq_avic_phys_entry){0x1A3, 0x000FFFFFFFFFF000ull, true, true};
	assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_OK);
	assert_true(e == 0xC00FFFFFFFFFF1A3ull);
	assert_int_equal(virq_avic_phys_entry_decode(e, &g), LIBVIRQ_OK);
	assert_int_equal(g.host_apic_id, 0x1A3);
	assert_true(g.backing_pa == 0x000FFFFFFFFFF000ull);
	assert_true(g.is_running && g.valid);
	/* Range rejection, never truncation. */
	f.host_apic_id = 0x1000;
	assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_ERANGE);
	f.host_apic_id = 1;
	f.backing_pa = 0x0010000000000000ull;
	assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_ERANGE);
	f.backing_pa = 0x123456800ull;
	assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_EALIGN);
	assert_int_equal(virq_avic_phys_entry_decode(1ull << 61, &g), LIBVIRQ_ERANGE);
	assert_int_equal(virq_avic_phys_entry_encode(NULL, &e), LIBVIRQ_EINVAL);
}

static void phys_entry_roundtrip(void **s)
{
	uint64_t x = 88172645463325252ull;

	(void)s;
	for (int i = 0; i < 20000; i++) {
		struct virq_avic_phys_entry f, g;
		uint64_t e;

		memset(&f, 0, sizeof(f));
		memset(&g, 0, sizeof(g));
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		f.host_apic_id = (uint32_t)(x & 0xFFF);
		f.backing_pa = x & 0x000FFFFFFFFFF000ull;
		f.is_running = (x >> 62) & 1;
		f.valid = (x >> 63) & 1;
		assert_int_equal(virq_avic_phys_entry_encode(&f, &e), LIBVIRQ_OK);
		assert_int_equal(virq_avic_phys_entry_decode(e, &g), LIBVIRQ_OK);
		assert_memory_equal(&f, &g, sizeof(f));
	}
}

static void logical_entry(void **s)
{
	uint32_t e, id;
	bool valid;

	(void)s;
	/* docs/rationale.md#avic-logical-id-single-bit: flat LDR 0x80000000 for APIC ID 5 -> entry
	 * 0x80000005 at index 7. */
	assert_int_equal(virq_avic_logical_entry_encode(5, true, &e), LIBVIRQ_OK);
	assert_int_equal(e, 0x80000005u);
	assert_int_equal(virq_avic_logical_entry_decode(e, &id, &valid), LIBVIRQ_OK);
	assert_int_equal(id, 5);
	assert_true(valid);
	assert_int_equal(virq_avic_logical_entry_encode(0x100, true, &e), LIBVIRQ_ERANGE);
	assert_int_equal(virq_avic_logical_entry_decode(0x80000100u, &id, &valid), LIBVIRQ_ERANGE);
	for (uint32_t i = 0; i < 256; i++) {
		assert_int_equal(virq_avic_logical_entry_encode(i, i & 1, &e), LIBVIRQ_OK);
		assert_int_equal(virq_avic_logical_entry_decode(e, &id, &valid), LIBVIRQ_OK);
		assert_int_equal(id, i);
		assert_int_equal(valid, i & 1);
	}
}

static void logical_index_flat_and_cluster(void **s)
{
	uint32_t idx;

	(void)s;
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER, 0x34000000u, &idx),
			 LIBVIRQ_OK);
	assert_int_equal(idx, 14);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER, 0x01000000u, &idx),
			 LIBVIRQ_OK);
	assert_int_equal(idx, 0);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER, 0xF1000000u, &idx),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_FLAT, 0x03000000u, &idx),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_FLAT, 0x00000000u, &idx),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_FLAT, 0x80000000u, &idx),
			 LIBVIRQ_OK);
	assert_int_equal(idx, 7);
	/* Cluster (docs/rationale.md#avic-logical-id-single-bit): 0x21 -> 8, 0x28 -> 11, 0x2A ->
	 * none, 0xF1 -> none. */
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER, 0x21000000u, &idx),
			 LIBVIRQ_OK);
	assert_int_equal(idx, 8);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER, 0x28000000u, &idx),
			 LIBVIRQ_OK);
	assert_int_equal(idx, 11);
	assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER, 0x2A000000u, &idx),
			 LIBVIRQ_ENOENT);
	assert_int_equal(virq_avic_logical_index(0x5FFFFFFFu, 0x01000000u, &idx), LIBVIRQ_EINVAL);
	/* Every single-bit cluster ID maps into 0..59. */
	for (uint32_t c = 0; c < 15; c++)
		for (uint32_t b = 0; b < 4; b++) {
			assert_int_equal(virq_avic_logical_index(LIBVIRQ_APIC_DFR_CLUSTER,
								 ((c << 4) | (1u << b)) << 24,
								 &idx),
					 LIBVIRQ_OK);
			assert_int_equal(idx, c * 4 + b);
		}
}

static void x2apic_ldr_from_apic_id(void **s)
{
	(void)s;
	assert_int_equal(virq_avic_x2apic_ldr(0x25), 0x00020020u);
	assert_int_equal(virq_avic_x2apic_ldr(0x24), 0x00020010u);
	assert_int_equal(virq_avic_x2apic_ldr(0), 0x00000001u);
	assert_int_equal(virq_avic_x2apic_ldr(0xFFF), 0x00FF8000u);
}

static void incomplete_ipi_decode_xapic_x2apic(void **s)
{
	struct virq_avic_exit_ipi x;

	(void)s;
	assert_int_equal(
	    virq_avic_exit_ipi_decode(0x03000000000040F1ull, 0x0000000100000003ull, false, &x),
	    LIBVIRQ_OK);
	assert_int_equal(x.icr.vector, 0xF1);
	assert_int_equal(x.icr.delivery_mode, LIBVIRQ_APIC_DM_FIXED);
	assert_false(x.icr.logical);
	assert_true(x.icr.level_assert);
	assert_false(x.icr.level_trigger);
	assert_int_equal(x.icr.shorthand, LIBVIRQ_APIC_SH_NONE);
	assert_int_equal(x.icr.dest, 3);
	assert_int_equal(x.cause, LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING);
	assert_int_equal(x.index, 3);
	assert_int_equal(
	    virq_avic_exit_ipi_decode(0x00000123000040F1ull, 0x0000000100000123ull, true, &x),
	    LIBVIRQ_OK);
	assert_int_equal(x.icr.dest, 0x123);
	assert_int_equal(x.index, 0x123);
	/* Index keeps 12 bits (4K x2AVIC). */
	assert_int_equal(virq_avic_exit_ipi_decode(0, 0x0000000100000FFFull, true, &x), LIBVIRQ_OK);
	assert_int_equal(x.index, 0xFFF);
	/* Unknown cause is decoded, not trusted. */
	assert_int_equal(virq_avic_exit_ipi_decode(0, 0x0000000900000000ull, true, &x), LIBVIRQ_OK);
	assert_int_equal(x.cause, LIBVIRQ_AVIC_IPI_UNKNOWN);
	assert_int_equal(x.raw_cause, 9);
}

static void icr_dest_decoded_by_sender_mode(void **s)
{
	struct virq_avic_icr icr;

	(void)s;
	/* xAPIC sender: ICR high 0x03000000 -> dest 3. */
	assert_int_equal(virq_avic_icr_decode(0x03000000000000F0ull, false, &icr), LIBVIRQ_OK);
	assert_int_equal(icr.dest, 3);
	/* x2APIC sender: ICR high 0x00000003 -> dest 3 (not 0). */
	assert_int_equal(virq_avic_icr_decode(0x00000003000000F0ull, true, &icr), LIBVIRQ_OK);
	assert_int_equal(icr.dest, 3);
}

static void icr_roundtrip(void **s)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;

	(void)s;
	for (int i = 0; i < 20000; i++) {
		struct virq_avic_icr a, b;
		uint64_t raw, raw2;
		bool x2 = i & 1;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Only the defined ICR bits (Figures 16-18 and 16-34): xAPIC 19:14 but 13,
		 * 12:0, destination; x2APIC 19:18, 15:14, 11:0 (no DS, no RRS). */
		raw = x & (x2 ? 0xFFFFFFFF000CCFFFull : 0xFF000000000FDFFFull);
		assert_int_equal(virq_avic_icr_decode(raw, x2, &a), LIBVIRQ_OK);
		assert_int_equal(virq_avic_icr_encode(&a, &raw2), LIBVIRQ_OK);
		assert_true(raw == raw2);
		assert_int_equal(virq_avic_icr_decode(raw2, x2, &b), LIBVIRQ_OK);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	{
		struct virq_avic_icr f = {.dest = 0x100, .x2apic = false};
		uint64_t raw;

		assert_int_equal(virq_avic_icr_encode(&f, &raw), LIBVIRQ_ERANGE);
	}
}

static void noaccel(void **s)
{
	static const uint32_t traps[] = {0x20,	0xB0,  0xC0,  0xD0,  0xE0,  0xF0,  0x280, 0x300,
					 0x320, 0x330, 0x340, 0x350, 0x360, 0x370, 0x380, 0x3E0};
	struct virq_avic_exit_noaccel x;
	uint32_t ntrap = 0;

	(void)s;
	for (uint32_t off = 0; off < 0x1000; off += 0x10)
		ntrap += virq_avic_noaccel_is_trap(off, false);
	assert_int_equal(ntrap, 16);
	for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++)
		assert_true(virq_avic_noaccel_is_trap(traps[i], false));
	assert_false(virq_avic_noaccel_is_trap(0x390, false)); /* TMCCT read faults */
	assert_int_equal(virq_avic_exit_noaccel_decode(0x00000001000000D0ull, 0x31, false, &x),
			 LIBVIRQ_OK);
	assert_int_equal(x.offset, 0xD0);
	assert_true(x.write && x.trap);
	assert_false(x.vector_valid); /* not an EOI write: "otherwise undefined" */
	assert_int_equal(virq_avic_exit_noaccel_decode(0x0000000000000390ull, 0, false, &x),
			 LIBVIRQ_OK);
	assert_int_equal(x.offset, 0x390);
	assert_false(x.write || x.trap);
	/* Only bits 11:4 make the offset. */
	assert_int_equal(virq_avic_exit_noaccel_decode(0xFFFFFFFEFFFFF0FFull, 0, false, &x),
			 LIBVIRQ_OK);
	assert_int_equal(x.offset, 0xF0);
	assert_false(x.write);
}

static void x2apic_msrs(void **s)
{
	(void)s;
	assert_int_equal(virq_avic_x2apic_msr_access(0x808), LIBVIRQ_AVIC_MSR_PASS_READ_WRITE);
	/* EOI and SELF_IPI are write-only: a read must #GP, so reads are intercepted. */
	assert_int_equal(virq_avic_x2apic_msr_access(0x80B), LIBVIRQ_AVIC_MSR_PASS_WRITE);
	assert_int_equal(virq_avic_x2apic_msr_access(0x830), LIBVIRQ_AVIC_MSR_PASS_READ_WRITE);
	assert_int_equal(virq_avic_x2apic_msr_access(0x83F), LIBVIRQ_AVIC_MSR_PASS_WRITE);
	assert_int_equal(virq_avic_x2apic_msr_access(0x802), LIBVIRQ_AVIC_MSR_PASS_READ);
	assert_int_equal(virq_avic_x2apic_msr_access(0x80D), LIBVIRQ_AVIC_MSR_PASS_READ);
	assert_int_equal(virq_avic_x2apic_msr_access(0x820), LIBVIRQ_AVIC_MSR_PASS_READ);
	assert_int_equal(virq_avic_x2apic_msr_access(0x835), LIBVIRQ_AVIC_MSR_PASS_READ);
	assert_int_equal(virq_avic_x2apic_msr_access(0x839), LIBVIRQ_AVIC_MSR_INTERCEPT);
	assert_int_equal(virq_avic_x2apic_msr_access(0x80E), LIBVIRQ_AVIC_MSR_INTERCEPT);
	assert_int_equal(virq_avic_x2apic_msr_access(0x83E), LIBVIRQ_AVIC_MSR_INTERCEPT);
	assert_int_equal(virq_avic_x2apic_msr_access(0x1B), LIBVIRQ_AVIC_MSR_INTERCEPT);
	assert_int_equal(virq_avic_x2apic_msr_access(0x8FF), LIBVIRQ_AVIC_MSR_INTERCEPT);
}

static void irte_vectors(void **s)
{
	struct virq_avic_irte_ga f = {.remap_en = true,
				      .guest_mode = true,
				      .is_run = true,
				      .dest = 0x05,
				      .ga_tag = 0x105,
				      .vector = 0x31,
				      .ga_root_pa = 0x123456000ull},
				 g;
	uint64_t w[2];

	(void)s;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK); /* posted, running */
	assert_true(w[0] == 0x00000105000005C1ull && w[1] == 0x0000000123456031ull);
	{
		const uint8_t want[16] = {0xc1, 0x05, 0,    0,	  0x05, 0x01, 0, 0,
					  0x31, 0x60, 0x45, 0x23, 0x01, 0,    0, 0};
		assert_memory_equal(w, want, 16); /* little-endian image */
	}
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	f.is_run = false; /* posted, not running */
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK);
	assert_true(w[0] == 0x0000010500000581ull && w[1] == 0x0000000123456031ull);
	/* Remapped (GuestMode 0). */
	f = (struct virq_avic_irte_ga){.remap_en = true, .dest = 0x0A, .vector = 0x41};
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK);
	assert_true(w[0] == 0xA01 && w[1] == 0x41);
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	f = (struct virq_avic_irte_ga){.guest_mode = true,
				       .ga_log_intr = true,
				       .dest = 2,
				       .ga_tag = 0x201,
				       .vector = 0x50,
				       .ga_root_pa = 0xABCDE000ull};
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK);
	assert_true(w[0] == 0x0000020100000284ull && w[1] == 0x00000000ABCDE050ull);
	/* 32-bit destination splits lo[31:8] / hi[63:56]. */
	f.dest = 0xAB123456u;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_OK);
	assert_true((w[0] >> 8 & 0xFFFFFF) == 0x123456 && (w[1] >> 56) == 0xAB);
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_OK);
	assert_int_equal(g.dest, 0xAB123456u);
	/* Rejections. */
	f.ga_root_pa = 0xABCDE800ull;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_EALIGN);
	f.ga_root_pa = 1ull << 52;
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_ERANGE);
	f = (struct virq_avic_irte_ga){.int_type = 8};
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_ERANGE);
	f = (struct virq_avic_irte_ga){.is_run = true};
	assert_int_equal(virq_avic_irte_ga_encode(&f, w), LIBVIRQ_EINVAL);
	w[0] = 0x80 | 0x8; /* GuestMode with a reserved bit */
	w[1] = 0;
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_ERANGE);
	/* GuestMode 0: GATag and root-pointer bits are reserved, so that every entry
	 * decoded OK encodes back to itself (failed before: accepted and dropped). */
	w[0] = 0xA01 | (1ull << 32);
	w[1] = 0x41;
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_ERANGE);
	w[0] = 0xA01;
	w[1] = 0x41 | 0x1000;
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_ERANGE);
	w[1] = 0x41 | (0xFFull << 56); /* Destination[31:24] is a field */
	assert_int_equal(virq_avic_irte_ga_decode(w, &g), LIBVIRQ_OK);
	assert_int_equal(g.dest, 0xFF00000A);
}

static void ga_log_and_tag(void **s)
{
	uint32_t tag, vm, idx;
	uint16_t dev;
	uint8_t code;

	(void)s;
	assert_int_equal(virq_avic_ga_log_decode(0x1000001000000105ull, &tag, &dev, &code),
			 LIBVIRQ_OK);
	assert_int_equal(tag, 0x105);
	assert_int_equal(dev, 0x0010);
	assert_int_equal(code, 1);
	assert_int_equal(virq_avic_gatag_encode(5, 0x23, &tag), LIBVIRQ_OK);
	assert_int_equal(tag, 0x5023);
	assert_int_equal(virq_avic_gatag_decode(0x3007, &vm, &idx), LIBVIRQ_OK);
	assert_int_equal(vm, 3);
	assert_int_equal(idx, 7);
	/* docs/rationale.md#avic-ga-tag-width: gatag(5, 300) decodes to 300 (not 44); all-ones
	 * fill 32 bits. */
	assert_int_equal(virq_avic_gatag_encode(5, 300, &tag), LIBVIRQ_OK);
	assert_int_equal(virq_avic_gatag_decode(tag, &vm, &idx), LIBVIRQ_OK);
	assert_int_equal(idx, 300);
	assert_int_equal(virq_avic_gatag_encode(0xFFFFF, 0xFFF, &tag), LIBVIRQ_OK);
	assert_int_equal(tag, 0xFFFFFFFFu);
	assert_int_equal(virq_avic_gatag_encode(1, 0x1000, &tag), LIBVIRQ_ERANGE);
	assert_int_equal(virq_avic_gatag_encode(0x100000, 0, &tag), LIBVIRQ_ERANGE);
	for (uint32_t v = 0; v < 3; v++) {
		uint32_t vmid = v == 2 ? 0xFFFFF : v;

		for (uint32_t i = 0; i < 4096; i++) {
			assert_int_equal(virq_avic_gatag_encode(vmid, i, &tag), LIBVIRQ_OK);
			assert_int_equal(virq_avic_gatag_decode(tag, &vm, &idx), LIBVIRQ_OK);
			assert_int_equal(vm, vmid);
			assert_int_equal(idx, i);
		}
	}
}

static void caps_probe(void **s)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_avic_caps c;
	struct virq_sim_cpu cpu = virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4];

	(void)s;
	cpu.x2avic_ext = true; /* a Zen 4 profile with the 4K extension */
	virq_sim_cpu_apply(sim, &cpu);
	assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
	assert_true(c.avic && c.x2avic && c.x2avic_4k && c.vnmi);
	assert_int_equal(c.family, 0x19);
	assert_int_equal(c.model, 0x11);
	assert_false(c.erratum_1235);
	assert_int_equal(c.max_index, 0xFFF);
	/* X2AVIC_EXT lives in ECX: the same bit in EDX means nothing. */
	at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN4);
	virq_sim_cpuid_set(sim, 0x8000000Au, 0, 1, 0x8000, 0,
			   LIBVIRQ_AVIC_CPUID_EDX_AVIC | LIBVIRQ_AVIC_CPUID_EDX_X2AVIC |
			       LIBVIRQ_AVIC_CPUID_EDX_VNMI | 0x40);
	assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
	assert_int_equal(c.max_index, 0x1FF);
	at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN2);
	assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
	assert_true(c.erratum_1235 && c.avic && !c.x2avic);
	assert_int_equal(c.max_index, 0xFE);
	/* Hygon family 18h. */
	at_cpu(sim, LIBVIRQ_SIM_CPU_HYGON18H);
	assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
	assert_true(c.hygon && c.erratum_1235);
	/* Not AMD: no AVIC. */
	at_cpu(sim, LIBVIRQ_SIM_CPU_INTEL);
	assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
	assert_false(c.avic);
	/* No SVM. */
	at_cpu(sim, LIBVIRQ_SIM_CPU_ZEN4);
	virq_sim_cpuid_set(sim, 0x80000001u, 0, 0, 0, 0, 0);
	assert_int_equal(virq_avic_caps_probe(&hal, &c), LIBVIRQ_OK);
	assert_false(c.avic);
	assert_int_equal(virq_avic_caps_probe(&hal, NULL), LIBVIRQ_EINVAL);
	virq_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(phys_entry_encode_examples),
	    cmocka_unit_test(phys_entry_roundtrip),
	    cmocka_unit_test(logical_entry),
	    cmocka_unit_test(logical_index_flat_and_cluster),
	    cmocka_unit_test(x2apic_ldr_from_apic_id),
	    cmocka_unit_test(incomplete_ipi_decode_xapic_x2apic),
	    cmocka_unit_test(icr_dest_decoded_by_sender_mode),
	    cmocka_unit_test(icr_roundtrip),
	    cmocka_unit_test(noaccel),
	    cmocka_unit_test(x2apic_msrs),
	    cmocka_unit_test(irte_vectors),
	    cmocka_unit_test(ga_log_and_tag),
	    cmocka_unit_test(caps_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
