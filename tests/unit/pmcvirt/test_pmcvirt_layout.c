/* SPDX-License-Identifier: MIT */
/*
 * pmcvirt pure layer: VMCB offsets and bits against APM Vol 2 Appendix B, CPUID
 * decode, mode refusals, exit-code decode, every MSR index mapping, event
 * filter, MSRPM policy and bits, VMCB state round-trip.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/pmc.h>

/* Guests: virq_sim_guest_pmc6 / _pmc4 (libvirq/sim/cpu.h) and two variants. */
static const struct virq_pmcvirt_guest g6x = {.ncounters = 6, .ext_core = true};
static const struct virq_pmcvirt_guest g4x = {.ncounters = 4, .ext_core = true, .perfmon_v2 = true};

/* ---- offsets and bits (APM Vol 2 Tables B-1, B-2) ---- */
static void test_offsets(void **s)
{
	static const struct {
		const char *name;
		uint32_t off, width;
	} want[] = {
	    {"PERF_CTL0", 0x4E0, 8},	       {"PERF_CTR0", 0x4E8, 8},
	    {"PERF_CTL1", 0x4F0, 8},	       {"PERF_CTR1", 0x4F8, 8},
	    {"PERF_CTL2", 0x500, 8},	       {"PERF_CTR2", 0x508, 8},
	    {"PERF_CTL3", 0x510, 8},	       {"PERF_CTR3", 0x518, 8},
	    {"PERF_CTL4", 0x520, 8},	       {"PERF_CTR4", 0x528, 8},
	    {"PERF_CTL5", 0x530, 8},	       {"PERF_CTR5", 0x538, 8},
	    {"INSTR_RETIRED_CTR", 0x5C0, 8},   {"PERF_CTR_GLOBAL_STS", 0x5C8, 8},
	    {"PERF_CTR_GLOBAL_CTL", 0x5D0, 4},
	};
	(void)s;
	assert_int_equal(LIBVIRQ_PMCVIRT_FIELD_COUNT, 15);
	for (unsigned i = 0; i < 15; i++) {
		const char *n;
		uint32_t off, w;

		assert_int_equal(virq_pmcvirt_field_info(i, &n, &off, &w), LIBVIRQ_OK);
		assert_string_equal(n, want[i].name);
		assert_int_equal(off, want[i].off);
		assert_int_equal(w, want[i].width);
		if (i)
			assert_true(off > want[i - 1].off);
	}
	assert_int_equal(virq_pmcvirt_field_info(LIBVIRQ_PMCVIRT_FIELD_COUNT, NULL, NULL, NULL),
			 LIBVIRQ_ERANGE);
	assert_int_equal(LIBVIRQ_PMCVIRT_VMCB_PERF_CTR(3), 0x518);
	assert_int_equal(LIBVIRQ_PMCVIRT_SA_PERF_CTR(3), 0x118);
	assert_int_equal(LIBVIRQ_PMCVIRT_SA_CR4, 0x148);
	assert_int_equal(LIBVIRQ_PMCVIRT_SA_RSP, 0x1D8);
	assert_int_equal(LIBVIRQ_VMCB_VIRT_EXT, 0x0B8);
	assert_int_equal(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_VIRT_EXT_PMC_VIRT_ENABLE), 0x8);
	assert_int_equal(LIBVIRQ_VMCB_INT_CTL, 0x060);
	assert_int_equal(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_V_NMI_ENABLE) | (1u << 24),
			 0x05000000);
	assert_int_equal(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_V_NMI) |
			     LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INT_CTL_V_NMI_MASK),
			 0x1800);
	assert_int_equal(LIBVIRQ_VMCB_EXITCODE, 0x070);
	assert_int_equal(LIBVIRQ_FIELD_MASK(LIBVIRQ_VMCB_INTERCEPT3_RDPMC), 1u << 15);
	assert_true(LIBVIRQ_VMCB_EXIT_INVALID_PMC == 0xFFFFFFFFFFFFFFFCull);
	/* 12-bit event encode (APM Vol 2 §13.2 PerfEvtSel) */
	assert_true((LIBVIRQ_FIELD_PREP(LIBVIRQ_PMCVIRT_EVTSEL_EventSelectLo, 0xC0) |
		     LIBVIRQ_FIELD_PREP(LIBVIRQ_PMCVIRT_EVTSEL_UnitMask, 1) |
		     LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_OS) |
		     LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_EN) |
		     LIBVIRQ_FIELD_PREP(LIBVIRQ_PMCVIRT_EVTSEL_EventSelectHi, 1) |
		     LIBVIRQ_FIELD_MASK(LIBVIRQ_PMCVIRT_EVTSEL_GuestOnly)) ==
		    0x00000101004201C0ull);
	/* MSRs (APM Vol 2 §13.2) */
	assert_int_equal(LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(5), 0xC001020B);
	assert_int_equal(LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(3), 0xC0010007);
	assert_int_equal(LIBVIRQ_PMCVIRT_MSR_GLOBAL_STATUS_SET, 0xC0000303);
}

/* ---- CPUID (APM Vol 3 Fn8000_000A, Fn8000_0022) ---- */
static struct virq_sim *cpu_(uint32_t edxa, uint32_t ecx1, uint32_t eax22, uint32_t ebx22,
			     uint32_t maxleaf)
{
	struct virq_sim *sim = virq_sim_new();

	virq_sim_cpuid_set(sim, 0x80000000u, 0, maxleaf, 0, 0, 0);
	virq_sim_cpuid_set(sim, 0x80000001u, 0, 0, 0, ecx1, 0);
	virq_sim_cpuid_set(sim, 0x80000008u, 0, 0, 0x2, 0, 0);
	virq_sim_cpuid_set(sim, 0x8000000Au, 0, 0, 0, 0, edxa);
	virq_sim_cpuid_set(sim, 0x80000022u, 0, eax22, ebx22, 0, 0);
	return sim;
}

static void test_probe(void **s)
{
	struct virq_pmcvirt_caps c;
	struct virq_sim *sim = cpu_(0xFEBFBDFFu, (1u << 23) | (1u << 2), 1, 0x4106, 0x80000028u);
	struct virq_hal hal = virq_sim_hal(sim);

	(void)s;
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	assert_true(c.svm && c.perfctr_virt && c.avic && c.vnmi && c.perfctr_ext_core &&
		    c.perfmon_v2 && c.irperf);
	assert_int_equal(c.num_core_ctrs, 6);
	virq_sim_free(sim);

	/* Max leaf below 0x80000022: no PerfMonV2, PerfCtrExtCore gives 6. */
	sim = cpu_(0x100u, (1u << 23) | 4u, 1, 0x4106, 0x80000021u);
	hal = virq_sim_hal(sim);
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	assert_true(c.perfctr_virt && !c.vnmi && !c.avic && !c.perfmon_v2);
	assert_int_equal(c.num_core_ctrs, 6);
	virq_sim_free(sim);

	/* Legacy: 4 counters; no SVM bit means leaf 0x8000000A is not trusted. */
	sim = cpu_(0xFFFFFFFFu, 0, 0, 0, 0x80000022u);
	hal = virq_sim_hal(sim);
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	assert_false(c.perfctr_virt || c.vnmi);
	assert_int_equal(c.num_core_ctrs, 4);
	virq_sim_free(sim);

	/* NumPerfCtrCore 15 is capped at the six VMCB slots; 0 is a hardware error. */
	sim = cpu_(0x2000100u, (1u << 23) | 4u, 1, 0xF, 0x80000022u);
	hal = virq_sim_hal(sim);
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	assert_int_equal(c.num_core_ctrs, 6);
	assert_int_equal(c.num_core_ctrs_raw, 15);
	virq_sim_free(sim);
	/* PerfMonV2 without PerfCtrExtCore (e.g. a hypervisor's synthetic CPUID):
	 * only the K7 MSRs exist, which address 4 counters; a 5th would be
	 * "EVNTSEL4" = C001_0004 = PERFCTR0. Capped at 4, as Linux perf does. */
	sim = cpu_(0x2000100u, 4u, 1, 0x6, 0x80000022u);
	hal = virq_sim_hal(sim);
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	assert_true(c.perfmon_v2 && !c.perfctr_ext_core);
	assert_int_equal(c.num_core_ctrs, 4);
	assert_int_equal(c.num_core_ctrs_raw, 6);
	virq_sim_free(sim);
	sim = cpu_(0x2000100u, (1u << 23) | 4u, 1, 0x4100, 0x80000022u);
	hal = virq_sim_hal(sim);
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_EHW);
	assert_false(c.perfctr_virt);
	/* No cpuid callback: ENOHAL. */
	{
		struct virq_hal_ops ops = *virq_sim_hal_ops();
		struct virq_hal h2 = {&ops, sim};

		ops.cpuid = NULL;
		assert_int_equal(virq_pmcvirt_probe(&h2, &c), LIBVIRQ_ENOHAL);
	}
	virq_sim_free(sim);
}

/* ---- refusal paths ---- */
static void test_mode_check(void **s)
{
	struct virq_pmcvirt_caps c = {.svm = true,
				      .perfctr_virt = true,
				      .vnmi = true,
				      .perfctr_ext_core = true,
				      .perfmon_v2 = true,
				      .num_core_ctrs = 6};
	struct virq_pmcvirt_guest g = virq_sim_guest_pmc6;
	enum virq_pmcvirt_mode hw = LIBVIRQ_PMCVIRT_MODE_HW, sw = LIBVIRQ_PMCVIRT_MODE_SW;

	(void)s;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0), LIBVIRQ_OK);
	c.vnmi = false;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0), LIBVIRQ_ENOTSUP);
	c.avic = true; /* AVIC alone: refused by default (VNMI required) */
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY),
			 LIBVIRQ_OK);
	c.avic = false;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, LIBVIRQ_PMCVIRT_F_AVIC_DELIVERY),
			 LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, sw, 0), LIBVIRQ_OK);
	c.vnmi = true;
	c.perfctr_virt = false;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0), LIBVIRQ_ENOTSUP);
	c.perfctr_virt = true;
	c.perfmon_v2 = false;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0), LIBVIRQ_ENOTSUP);
	c.perfmon_v2 = true;
	g.sev_es = true;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0), LIBVIRQ_EINHIBITED);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, sw, 0), LIBVIRQ_OK);
	g.sev_es = false;
	c.num_core_ctrs = 4;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, sw, 0), LIBVIRQ_ERANGE);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, 0, 0), LIBVIRQ_EINVAL);
	/* Unknown flags are an error, not silently ignored. */
	c.num_core_ctrs = 6;
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, sw, 0x8), LIBVIRQ_EINVAL);
	/* Lazy switching is a software-switched mode option. */
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, sw, LIBVIRQ_PMCVIRT_F_LAZY), LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, LIBVIRQ_PMCVIRT_F_LAZY),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, hw, 0x80000000u), LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_mode_check(&c, &g, sw, LIBVIRQ_PMCVIRT_F_NO_VNMI_SETUP),
			 LIBVIRQ_OK);
	assert_int_equal(virq_pmcvirt_mode_check(NULL, &g, sw, 0), LIBVIRQ_EINVAL);
	/* guest model consistency */
	g = (struct virq_pmcvirt_guest){.ncounters = 5};
	assert_int_equal(virq_pmcvirt_guest_check(&g), LIBVIRQ_ERANGE);
	g.ncounters = 7;
	g.ext_core = true;
	assert_int_equal(virq_pmcvirt_guest_check(&g), LIBVIRQ_ERANGE);
	g.ncounters = 0;
	assert_int_equal(virq_pmcvirt_guest_check(&g), LIBVIRQ_ERANGE);
	g = (struct virq_pmcvirt_guest){.ncounters = 4, .perfmon_v2 = true};
	assert_int_equal(virq_pmcvirt_guest_check(&g), LIBVIRQ_EINVAL);
}

/* ---- exit codes as 64-bit (docs/rationale.md#pmc-exitcode-64bit) ---- */
static void test_exit_decode(void **s)
{
	enum virq_pmcvirt_exit_kind k;

	(void)s;
	assert_int_equal(virq_pmcvirt_exit_decode(0xFFFFFFFFFFFFFFFCull, &k), LIBVIRQ_OK);
	assert_int_equal(k, LIBVIRQ_PMCVIRT_EXIT_INVALID_PMC);
	assert_int_equal(virq_pmcvirt_exit_decode(0x00000000FFFFFFFCull, &k), LIBVIRQ_EUNKNOWN);
	assert_int_equal(virq_pmcvirt_exit_decode(0xFFFFFFFFFFFFFFFFull, &k), LIBVIRQ_OK);
	assert_int_equal(k, LIBVIRQ_PMCVIRT_EXIT_INVALID);
	assert_int_equal(virq_pmcvirt_exit_decode(0x00000000FFFFFFFFull, &k), LIBVIRQ_EUNKNOWN);
	assert_int_equal(virq_pmcvirt_exit_decode(0xFFFFFFFFFFFFFFFEull, &k), LIBVIRQ_EUNKNOWN);
	assert_int_equal(virq_pmcvirt_exit_decode(0x72, &k), LIBVIRQ_OK);
	assert_int_equal(k, LIBVIRQ_PMCVIRT_EXIT_NORMAL);
	assert_int_equal(virq_pmcvirt_exit_decode(0x72, NULL), LIBVIRQ_EINVAL);
}

/* ---- every MSR index mapping ---- */
struct map_want {
	uint32_t msr;
	int st;
	int kind;
	uint32_t idx;
	int field;
};
#define OKC(m, i)                                                                                  \
	{                                                                                          \
		m, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_CTL, i, 2 * (i)                                \
	}
#define OKR(m, i)                                                                                  \
	{                                                                                          \
		m, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_CTR, i, 2 * (i) + 1                            \
	}
#define BAD(m)                                                                                     \
	{                                                                                          \
		m, LIBVIRQ_EINVAL, 0, 0, 0                                                         \
	}
#define NONE(m)                                                                                    \
	{                                                                                          \
		m, LIBVIRQ_ENOENT, 0, 0, 0                                                         \
	}

static void check_map_(const struct virq_pmcvirt_guest *g, enum virq_pmcvirt_origin o,
		       const struct map_want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct virq_pmcvirt_slot sl = {99, 99, 99};
		int st = virq_pmcvirt_msr_map(g, w[i].msr, o, &sl);

		if (st != w[i].st)
			fail_msg("msr %#x origin %d: status %d want %d", w[i].msr, o, st, w[i].st);
		if (st == LIBVIRQ_OK && ((int)sl.kind != w[i].kind || sl.idx != w[i].idx ||
					 (int)sl.field != w[i].field))
			fail_msg("msr %#x: kind %d idx %u field %d", w[i].msr, sl.kind, sl.idx,
				 sl.field);
	}
}

static void test_msr_map_6(void **s)
{
	static const struct map_want w[] = {
	    OKC(0xC0010000, 0),
	    OKC(0xC0010001, 1),
	    OKC(0xC0010002, 2),
	    OKC(0xC0010003, 3),
	    OKR(0xC0010004, 0),
	    OKR(0xC0010005, 1),
	    OKR(0xC0010006, 2),
	    OKR(0xC0010007, 3),
	    OKC(0xC0010200, 0),
	    OKR(0xC0010201, 0),
	    OKC(0xC0010202, 1),
	    OKR(0xC0010203, 1),
	    OKC(0xC0010204, 2),
	    OKR(0xC0010205, 2),
	    OKC(0xC0010206, 3),
	    OKR(0xC0010207, 3),
	    OKC(0xC0010208, 4),
	    OKR(0xC0010209, 4),
	    OKC(0xC001020A, 5),
	    OKR(0xC001020B, 5),
	    {0xC0000300, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS, 0, 13},
	    {0xC0000301, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL, 0, 14},
	    {0xC0000302, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_CLR, 0, 13},
	    {0xC0000303, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET, 0, 13},
	    {0xC00000E9, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED, 0, 12},
	    NONE(0xC0010008),
	    NONE(0xC001020C),
	    NONE(0xC00101FF),
	    NONE(0xC0000304),
	    NONE(0xC00002FF),
	    NONE(0xC0010015),
	    NONE(0x00000010),
	    NONE(0xFFFFFFFF),
	};
	(void)s;
	check_map_(&virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_GUEST, w, sizeof(w) / sizeof(w[0]));
	check_map_(&virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_HOST, w, sizeof(w) / sizeof(w[0]));
	/* F15h MSR -> slot decode: C001_020B is PERF_CTR5, C001_0206 PERF_CTL3 */
	{
		struct virq_pmcvirt_slot sl;
		uint32_t off;

		assert_int_equal(virq_pmcvirt_msr_map(&virq_sim_guest_pmc6, 0xC001020B, 0, &sl),
				 LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_field_info(sl.field, NULL, &off, NULL), LIBVIRQ_OK);
		assert_int_equal(off, 0x538);
		assert_int_equal(virq_pmcvirt_msr_map(&virq_sim_guest_pmc6, 0xC0010206, 0, &sl),
				 LIBVIRQ_OK);
		assert_int_equal(virq_pmcvirt_field_info(sl.field, NULL, &off, NULL), LIBVIRQ_OK);
		assert_int_equal(off, 0x510);
	}
	/* 6 counters without PerfMonV2 / IRPerf: globals and IRPerf rejected */
	{
		static const struct map_want w2[] = {
		    BAD(0xC0000300), BAD(0xC0000301), BAD(0xC0000302),
		    BAD(0xC0000303), BAD(0xC00000E9), OKR(0xC001020B, 5),
		};
		check_map_(&g6x, LIBVIRQ_PMCVIRT_GUEST, w2, 6);
	}
}

static void test_msr_map_4(void **s)
{
	/* Legacy K7 guest, guest-initiated: only the K7 MSRs exist. */
	static const struct map_want wg[] = {
	    OKC(0xC0010000, 0), OKC(0xC0010003, 3), OKR(0xC0010004, 0), OKR(0xC0010007, 3),
	    BAD(0xC0010200),	BAD(0xC0010203),    BAD(0xC0010208),	BAD(0xC001020B),
	    BAD(0xC0000300),	BAD(0xC0000301),    BAD(0xC0000302),	BAD(0xC0000303),
	    NONE(0xC0010008),	NONE(0xC001020C),
	};
	/* Host-initiated (docs/rationale.md#pmc-legacy-msr-index): F15h indices translated, but
	 * never past counter 3. */
	static const struct map_want wh[] = {
	    OKC(0xC0010200, 0), OKR(0xC0010201, 0), OKC(0xC0010202, 1), OKR(0xC0010203, 1),
	    OKC(0xC0010206, 3), OKR(0xC0010207, 3), BAD(0xC0010208),	BAD(0xC0010209),
	    BAD(0xC001020A),	BAD(0xC001020B),    OKC(0xC0010001, 1), OKR(0xC0010005, 1),
	    BAD(0xC0000301),
	};
	/* 4-counter guest with F15h MSRs and PerfMonV2: counters 4, 5 rejected. */
	static const struct map_want w4x[] = {
	    OKC(0xC0010206, 3), OKR(0xC0010207, 3),
	    BAD(0xC0010208),	BAD(0xC0010209),
	    BAD(0xC001020A),	BAD(0xC001020B),
	    OKC(0xC0010003, 3), {0xC0000301, LIBVIRQ_OK, LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL, 0, 14},
	};
	struct virq_pmcvirt_guest g2 = {.ncounters = 2};
	static const struct map_want w2[] = {
	    OKC(0xC0010001, 1), BAD(0xC0010002), BAD(0xC0010003),
	    OKR(0xC0010005, 1), BAD(0xC0010006), BAD(0xC0010007),
	};
	struct virq_pmcvirt_slot sl;

	(void)s;
	check_map_(&virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_GUEST, wg, sizeof(wg) / sizeof(wg[0]));
	check_map_(&virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_HOST, wh, sizeof(wh) / sizeof(wh[0]));
	check_map_(&g4x, LIBVIRQ_PMCVIRT_GUEST, w4x, sizeof(w4x) / sizeof(w4x[0]));
	check_map_(&g2, LIBVIRQ_PMCVIRT_GUEST, w2, sizeof(w2) / sizeof(w2[0]));
	assert_int_equal(virq_pmcvirt_msr_map(&virq_sim_guest_pmc4, 0xC0010000, 2, &sl),
			 LIBVIRQ_EINVAL);
	assert_int_equal(virq_pmcvirt_msr_map(&virq_sim_guest_pmc4, 0xC0010000, 0, NULL),
			 LIBVIRQ_EINVAL);
}

static void test_msr_list(void **s)
{
	uint32_t m[15];
	size_t n;
	static const uint32_t want6[] = {0xC0010200, 0xC0010202, 0xC0010204, 0xC0010206,
					 0xC0010208, 0xC001020A, 0xC0010201, 0xC0010203,
					 0xC0010205, 0xC0010207, 0xC0010209, 0xC001020B,
					 0xC00000E9, 0xC0000300, 0xC0000301};
	static const uint32_t want4[] = {0xC0010000, 0xC0010001, 0xC0010002, 0xC0010003,
					 0xC0010004, 0xC0010005, 0xC0010006, 0xC0010007};

	(void)s;
	assert_int_equal(virq_pmcvirt_msr_list(&virq_sim_guest_pmc6, m, 15, &n), LIBVIRQ_OK);
	assert_int_equal(n, 15);
	assert_memory_equal(m, want6, sizeof(want6));
	assert_int_equal(virq_pmcvirt_msr_list(&virq_sim_guest_pmc4, m, 15, &n), LIBVIRQ_OK);
	assert_int_equal(n, 8);
	assert_memory_equal(m, want4, sizeof(want4));
	assert_int_equal(virq_pmcvirt_msr_list(&virq_sim_guest_pmc6, m, 14, &n), LIBVIRQ_ENOSPC);
	assert_int_equal(n, 15);
}

/* ---- filter ---- */
static void test_filter(void **s)
{
	static const struct virq_pmcvirt_filter_ent ents[] = {
	    {0x0C0, 0, 0},	 /* retired instructions, any umask */
	    {0x1C0, 0xFF, 0x01}, /* 12-bit event, umask exactly 1 */
	    {0x076, 0x0F, 0x02},
	};
	struct virq_pmcvirt_filter allow = {LIBVIRQ_PMCVIRT_FILTER_ALLOW, 3, ents};
	struct virq_pmcvirt_filter deny = {LIBVIRQ_PMCVIRT_FILTER_DENY, 3, ents};
	struct virq_pmcvirt_filter_ent bad = {0x1000, 0, 0};
	struct virq_pmcvirt_filter f = {LIBVIRQ_PMCVIRT_FILTER_ALLOW, 1, &bad};

	(void)s;
	assert_int_equal(virq_pmcvirt_filter_check(&allow), LIBVIRQ_OK);
	assert_true(virq_pmcvirt_filter_allows(&allow, 0x4300C0));
	assert_true(virq_pmcvirt_filter_allows(&allow, 0x43FFC0));
	assert_true(virq_pmcvirt_filter_allows(&allow, 0x00000101004201C0ull));
	assert_false(virq_pmcvirt_filter_allows(&allow, 0x00000101004202C0ull)); /* umask 2 */
	assert_false(virq_pmcvirt_filter_allows(&allow, 0x4300C2));
	assert_true(virq_pmcvirt_filter_allows(&allow, 0x43F276)); /* umask low nibble 2 */
	assert_false(virq_pmcvirt_filter_allows(&allow, 0x43F376));
	assert_false(virq_pmcvirt_filter_allows(&deny, 0x4300C0));
	assert_true(virq_pmcvirt_filter_allows(&deny, 0x4300C2));
	assert_true(virq_pmcvirt_filter_allows(NULL, 0x4300C2));
	assert_int_equal(virq_pmcvirt_filter_check(&f), LIBVIRQ_ERANGE);
	bad = (struct virq_pmcvirt_filter_ent){0xC0, 0x0F, 0x10};
	assert_int_equal(virq_pmcvirt_filter_check(&f), LIBVIRQ_EINVAL);
	f.nents = LIBVIRQ_PMCVIRT_FILTER_MAX + 1;
	assert_int_equal(virq_pmcvirt_filter_check(&f), LIBVIRQ_ERANGE);
	f = (struct virq_pmcvirt_filter){7, 0, NULL};
	assert_int_equal(virq_pmcvirt_filter_check(&f), LIBVIRQ_EINVAL);
	f = (struct virq_pmcvirt_filter){LIBVIRQ_PMCVIRT_FILTER_DENY, 2, NULL};
	assert_int_equal(virq_pmcvirt_filter_check(&f), LIBVIRQ_EINVAL);
}

/* ---- MSRPM (APM Vol 2 §15.11) and policy (docs/rationale.md#pmc-msr-interception) ---- */
static bool pm_bit_(const uint8_t *pm, uint32_t msr, unsigned w)
{
	uint32_t byte, bit;

	assert_int_equal(virq_pmcvirt_msrpm_bit(msr, &byte, &bit), LIBVIRQ_OK);
	return (pm[byte] >> (bit + w)) & 1u;
}

static void test_msrpm(void **s)
{
	uint32_t byte, bit;
	static uint8_t pm[8192];
	struct virq_pmcvirt_caps c = {.svm = true,
				      .perfctr_virt = true,
				      .vnmi = true,
				      .perfctr_ext_core = true,
				      .perfmon_v2 = true,
				      .num_core_ctrs = 6};
	struct virq_pmcvirt_msrpm_policy p;

	(void)s;
	assert_int_equal(virq_pmcvirt_msrpm_bit(0xC0010200, &byte, &bit), LIBVIRQ_OK);
	assert_int_equal(byte, 0x1080);
	assert_int_equal(bit, 0);
	assert_int_equal(virq_pmcvirt_msrpm_bit(0xC0010201, &byte, &bit), LIBVIRQ_OK);
	assert_int_equal(byte, 0x1080);
	assert_int_equal(bit, 2);
	assert_int_equal(virq_pmcvirt_msrpm_bit(0xC0000301, &byte, &bit), LIBVIRQ_OK);
	assert_int_equal(byte, 0x8C0);
	assert_int_equal(bit, 2);
	assert_int_equal(virq_pmcvirt_msrpm_bit(0xC0010004, &byte, &bit), LIBVIRQ_OK);
	assert_int_equal(byte, 0x1001);
	assert_int_equal(bit, 0);
	assert_int_equal(virq_pmcvirt_msrpm_bit(0x1FFF, &byte, &bit), LIBVIRQ_OK);
	assert_int_equal(byte, 0x7FF);
	assert_int_equal(bit, 6);
	assert_int_equal(virq_pmcvirt_msrpm_bit(0x2000, &byte, &bit), LIBVIRQ_ERANGE);
	assert_int_equal(virq_pmcvirt_msrpm_bit(0xC0012000, &byte, &bit), LIBVIRQ_ERANGE);

	/* Guest matches host: counters and globals passed through, selects intercepted. */
	assert_int_equal(
	    virq_pmcvirt_msrpm_recommend(&c, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, &p),
	    LIBVIRQ_OK);
	assert_true(p.intercept_ctl && p.passthrough_ctr && p.passthrough_global &&
		    p.passthrough_irperf_read && !p.intercept_rdpmc);
	memset(pm, 0xA5, sizeof(pm));
	assert_int_equal(virq_pmcvirt_msrpm_apply(pm, &virq_sim_guest_pmc6, &p), LIBVIRQ_OK);
	for (unsigned i = 0; i < 6; i++) {
		assert_true(pm_bit_(pm, 0xC0010200 + 2 * i, 0) &&
			    pm_bit_(pm, 0xC0010200 + 2 * i, 1));
		assert_false(pm_bit_(pm, 0xC0010201 + 2 * i, 0) ||
			     pm_bit_(pm, 0xC0010201 + 2 * i, 1));
	}
	for (unsigned m = 0xC0000300; m <= 0xC0000303; m++)
		assert_false(pm_bit_(pm, m, 0) || pm_bit_(pm, m, 1));
	assert_false(pm_bit_(pm, 0xC00000E9, 0));
	assert_true(pm_bit_(pm, 0xC00000E9, 1));
	/* Unrelated bits untouched: MSR 0 (0xA5 -> bits 0/1 = 1/0). */
	assert_int_equal(pm[0], 0xA5);
	assert_int_equal(pm[0x1000 + 0x41], 0xA5); /* C001_0104..0107 */

	/* Legacy 4-counter guest in SW mode: RDPMC and globals intercepted, F15h too. */
	assert_int_equal(
	    virq_pmcvirt_msrpm_recommend(&c, &virq_sim_guest_pmc4, LIBVIRQ_PMCVIRT_MODE_SW, &p),
	    LIBVIRQ_OK);
	assert_true(p.intercept_rdpmc && !p.passthrough_global && !p.passthrough_irperf_read);
	assert_int_equal(virq_pmcvirt_msrpm_apply(pm, &virq_sim_guest_pmc4, &p), LIBVIRQ_OK);
	for (unsigned i = 0; i < 4; i++) {
		assert_false(pm_bit_(pm, 0xC0010004 + i, 0) || pm_bit_(pm, 0xC0010004 + i, 1));
		assert_true(pm_bit_(pm, 0xC0010000 + i, 0) && pm_bit_(pm, 0xC0010000 + i, 1));
	}
	for (unsigned i = 0; i < 6; i++)
		assert_true(pm_bit_(pm, 0xC0010201 + 2 * i, 0) &&
			    pm_bit_(pm, 0xC0010201 + 2 * i, 1));
	for (unsigned m = 0xC0000300; m <= 0xC0000303; m++)
		assert_true(pm_bit_(pm, m, 0) && pm_bit_(pm, m, 1));
	/* 4-counter F15h guest on a 6-counter host: counters 4, 5 intercepted. */
	assert_int_equal(virq_pmcvirt_msrpm_recommend(&c, &g4x, LIBVIRQ_PMCVIRT_MODE_HW, &p),
			 LIBVIRQ_OK);
	assert_true(p.intercept_rdpmc && !p.passthrough_global);
	assert_int_equal(virq_pmcvirt_msrpm_apply(pm, &g4x, &p), LIBVIRQ_OK);
	assert_false(pm_bit_(pm, 0xC0010207, 0));
	assert_true(pm_bit_(pm, 0xC0010209, 0) && pm_bit_(pm, 0xC001020B, 1));
	/* Event selects passed through would bypass the filter and leave the
	 * library's copy (migration, RDMSR emulation) stale: refused. */
	{
		static uint8_t copy[8192];

		memcpy(copy, pm, sizeof(pm));
		p.intercept_ctl = false;
		assert_int_equal(virq_pmcvirt_msrpm_apply(pm, &g4x, &p), LIBVIRQ_EINVAL);
		assert_memory_equal(pm, copy, sizeof(pm));
	}
}

/* A host with more core counters than the six VMCB slots (NumPerfCtrCore 8):
 * a 6-counter guest does not match it, so the global MSRs (which would let it
 * enable and read host counters 6, 7) and RDPMC (ECX 6, 7 would read them)
 * stay intercepted. */
static void test_msrpm_host_more_than_six(void **s)
{
	struct virq_sim *sim = cpu_(0x2000100u, (1u << 23) | 4u, 1, 0x8, 0x80000022u);
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_pmcvirt_caps c;
	struct virq_pmcvirt_msrpm_policy p;
	struct virq_pmcvirt_vcpu v;
	static uint8_t vmcb[4096] __attribute__((aligned(4096)));

	(void)s;
	assert_int_equal(virq_pmcvirt_probe(&hal, &c), LIBVIRQ_OK);
	assert_int_equal(c.num_core_ctrs, 6);
	assert_int_equal(c.num_core_ctrs_raw, 8);
	for (int m = LIBVIRQ_PMCVIRT_MODE_HW; m <= LIBVIRQ_PMCVIRT_MODE_SW; m++) {
		assert_int_equal(virq_pmcvirt_msrpm_recommend(&c, &virq_sim_guest_pmc6, m, &p),
				 LIBVIRQ_OK);
		assert_false(p.passthrough_global);
		assert_true(p.intercept_rdpmc);
		assert_true(p.passthrough_ctr);
		{
			virq_status dst =
			    virq_pmcvirt_vcpu_destroy(&v); /* live from the last round */

			(void)dst;
		}
		assert_int_equal(
		    virq_pmcvirt_vcpu_init(&v, &hal, &c, &virq_sim_guest_pmc6, m, 0, vmcb),
		    LIBVIRQ_OK);
		assert_false(v.global_passthrough);
	}
	/* Exactly six host counters: the same guest matches. */
	c.num_core_ctrs_raw = 6;
	assert_int_equal(
	    virq_pmcvirt_msrpm_recommend(&c, &virq_sim_guest_pmc6, LIBVIRQ_PMCVIRT_MODE_HW, &p),
	    LIBVIRQ_OK);
	assert_true(p.passthrough_global && !p.intercept_rdpmc);
	virq_sim_free(sim);
}

/* ---- VMCB round-trip ---- */
static void test_vmcb_roundtrip(void **s)
{
	static uint8_t vmcb[4096] __attribute__((aligned(4096)));
	struct virq_pmcvirt_state a = {0}, b;

	(void)s;
	memset(vmcb, 0xEE, sizeof(vmcb));
	for (unsigned i = 0; i < 6; i++) {
		a.perf_ctl[i] = 0x4300C0ull + i;
		a.perf_ctr[i] = 0xFFFF00000000ull + 0x1111 * i;
	}
	a.global_ctl = 0x2D;
	a.global_sts = 0x12;
	a.instr_retired = 0x123456789ABCull;
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc6, &a), LIBVIRQ_OK);
	/* Raw bytes at the APM Table B-2 offsets, read with the model's own accessor. */
	for (unsigned i = 0; i < 6; i++) {
		assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4E0 + 16 * i) == a.perf_ctl[i]);
		assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4E8 + 16 * i) == a.perf_ctr[i]);
	}
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5C0) == a.instr_retired);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5C8) == 0x12);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5D0) == 0x2D); /* upper dword zero */
	/* Neighbours untouched: 0x4D8 reserved, 0x540 (XSS in VMSA), CR4, RSP, 0x5B8. */
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4D8) == 0xEEEEEEEEEEEEEEEEull);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x540) == 0xEEEEEEEEEEEEEEEEull);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x548) == 0xEEEEEEEEEEEEEEEEull);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5D8) == 0xEEEEEEEEEEEEEEEEull);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5B8) == 0xEEEEEEEEEEEEEEEEull);
	assert_int_equal(virq_pmcvirt_vmcb_load_state(vmcb, &virq_sim_guest_pmc6, &b), LIBVIRQ_OK);
	assert_memory_equal(&a, &b, sizeof(a));

	/* 4-counter guest: slots 4, 5 zeroed; legacy global control = GENMASK(3,0). */
	a.global_ctl = 0;
	a.global_sts = 0x3;
	a.perf_ctl[4] = a.perf_ctl[5] = 0;
	a.perf_ctr[4] = a.perf_ctr[5] = 0;
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc4, &a), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5D0) == 0xF);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x528) == 0);
	assert_int_equal(virq_pmcvirt_vmcb_load_state(vmcb, &virq_sim_guest_pmc4, &b), LIBVIRQ_OK);
	assert_true(b.global_ctl == 0);
	assert_memory_equal(b.perf_ctr, a.perf_ctr, sizeof(a.perf_ctr));

	/* Out of range: nothing written. */
	memcpy(&b, &a, sizeof(a));
	b.perf_ctr[2] = 1ull << 48;
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc6, &b),
			 LIBVIRQ_ERANGE);
	b.perf_ctr[2] = 0;
	b.global_ctl = 0x40;
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc6, &b),
			 LIBVIRQ_ERANGE);
	b.global_ctl = 0;
	b.global_sts = 0x10; /* bit 4 for a 4-counter guest */
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc4, &b),
			 LIBVIRQ_ERANGE);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x5C8) == 0x3);
	/* Reserved event-select bits never reach the VMCB (the hardware loads it). */
	b.global_sts = 0;
	b.perf_ctl[1] = 0x4300C0 | (1ull << 19);
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc4, &b),
			 LIBVIRQ_ERANGE);
	b.perf_ctl[1] = 0x4300C0 | (1ull << 42);
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc4, &b),
			 LIBVIRQ_ERANGE);
	b.perf_ctl[1] = 0x4300C0 | (1ull << 40); /* GuestOnly: only with allow_hg */
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc4, &b),
			 LIBVIRQ_ERANGE);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4F0) == a.perf_ctl[1]);
	{
		struct virq_pmcvirt_guest hg = virq_sim_guest_pmc4;

		hg.allow_hg = true;
		assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &hg, &b), LIBVIRQ_OK);
		assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x4F0) == (0x4300C0 | (1ull << 40)));
	}
	/* Slots beyond the guest's count are written 0 whatever they hold. */
	b.perf_ctl[5] = ~0ull;
	b.perf_ctl[1] = 0x4300C0;
	assert_int_equal(virq_pmcvirt_vmcb_store_state(vmcb, &virq_sim_guest_pmc4, &b), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x530) == 0);

	/* Enable bit: only 0x0B8 bit 3; exit code: all 64 bits. */
	virq_sim_pmc_vmcb_wr(vmcb, 0xB8, 0x5);
	assert_int_equal(virq_pmcvirt_vmcb_enable(vmcb, true), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0xB8) == 0xD);
	assert_int_equal(virq_pmcvirt_vmcb_enable(vmcb, false), LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0xB8) == 0x5);
	assert_int_equal(virq_pmcvirt_vmcb_set_exitcode(vmcb, LIBVIRQ_VMCB_EXIT_INVALID_PMC),
			 LIBVIRQ_OK);
	assert_true(virq_sim_pmc_vmcb_rd(vmcb, 0x70) == 0xFFFFFFFFFFFFFFFCull);
	assert_true(vmcb[0x74] == 0xFF && vmcb[0x77] == 0xFF); /* exit_code_hi = 0xFFFFFFFF */
	assert_true(vmcb[0x78] == 0xEE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_offsets),	   cmocka_unit_test(test_probe),
	    cmocka_unit_test(test_mode_check),	   cmocka_unit_test(test_exit_decode),
	    cmocka_unit_test(test_msr_map_6),	   cmocka_unit_test(test_msr_map_4),
	    cmocka_unit_test(test_msr_list),	   cmocka_unit_test(test_filter),
	    cmocka_unit_test(test_msrpm),	   cmocka_unit_test(test_msrpm_host_more_than_six),
	    cmocka_unit_test(test_vmcb_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
