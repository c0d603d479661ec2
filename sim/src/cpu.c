/* SPDX-License-Identifier: MIT */
/* CPU profiles; see libvirq/sim/cpu.h. The CPUID encodings here are the
 * simulator's own (APM Vol 3 Appendix E), not the library's macros. */
#include <libvirq/sim/cpu.h>

#include <string.h>

/* Capabilities the probes derive, written from the same feature bits. */
#define AVIC_CAPS_(VEN, FAM, MOD, SVM, AV, X2, X2EXT, VNMI, EXTLVT)                                \
	{                                                                                          \
		.avic = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL && (SVM) && (AV),                        \
		.x2avic = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL && (SVM) && (AV) && (X2),              \
		.x2avic_4k =                                                                       \
		    (VEN) != LIBVIRQ_SIM_VENDOR_INTEL && (SVM) && (AV) && (X2) && (X2EXT),         \
		.vnmi = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL && (SVM) && (VNMI),                      \
		.hygon = (VEN) == LIBVIRQ_SIM_VENDOR_HYGON,                                        \
		.family = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL ? (FAM) : 0,                           \
		.model = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL ? (MOD) : 0,                            \
		.erratum_1235 = ((VEN) == LIBVIRQ_SIM_VENDOR_AMD && (FAM) == 0x17) ||              \
				((VEN) == LIBVIRQ_SIM_VENDOR_HYGON && (FAM) == 0x18),              \
		.max_index = (VEN) == LIBVIRQ_SIM_VENDOR_INTEL || !(SVM) || !(AV) ? 0u             \
			     : (X2) && (X2EXT)					  ? 0xFFFu         \
			     : (X2)						  ? 0x1FFu         \
										  : 0xFEu,                                                       \
		.ext_lvt_trap = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL && (SVM) && (AV) && (EXTLVT),    \
	}

#define PMC_NCTR_(EXT, V2, N)                                                                      \
	((V2) ? ((N) > ((EXT) ? 6u : 4u) ? ((EXT) ? 6u : 4u) : (N)) : (EXT) ? 6u : 4u)
#define PMC_CAPS_(SVM, EXT, IRP, PCV, AV, VNMI, V2, N)                                             \
	{                                                                                          \
		.svm = (SVM), .perfctr_virt = (SVM) && (PCV), .avic = (SVM) && (AV),               \
		.vnmi = (SVM) && (VNMI), .perfctr_ext_core = (EXT), .perfmon_v2 = (V2),            \
		.irperf = (IRP), .num_core_ctrs = PMC_NCTR_(EXT, V2, N),                           \
		.num_core_ctrs_raw = (V2) ? (N) : 0u,                                              \
	}

#define CPU_(NAME, VEN, FAM, MOD, SVM, EXT, IRP, PCV, AV, X2, VNMI, X2EXT, V2, N, EXTLVT)          \
	{                                                                                          \
		.name = (NAME), .vendor = (VEN), .family = (FAM), .model = (MOD), .svm = (SVM),    \
		.perfctr_ext_core = (EXT), .irperf = (IRP), .perfctr_virt = (PCV), .avic = (AV),   \
		.x2avic = (X2), .vnmi = (VNMI), .x2avic_ext = (X2EXT), .perfmon_v2 = (V2),         \
		.num_perf_ctr_core = (N), .ext_apic_space = (VEN) != LIBVIRQ_SIM_VENDOR_INTEL,     \
		.avic_extlvt = (EXTLVT),                                                           \
		.avic_caps = AVIC_CAPS_(VEN, FAM, MOD, SVM, AV, X2, X2EXT, VNMI, EXTLVT),          \
		.pmcvirt_caps = PMC_CAPS_(SVM, EXT, IRP, PCV, AV, VNMI, V2, N),                    \
	}

#define AMD_ LIBVIRQ_SIM_VENDOR_AMD
#define HYG_ LIBVIRQ_SIM_VENDOR_HYGON
#define INT_ LIBVIRQ_SIM_VENDOR_INTEL

/* name vendor family model | SVM ExtCore IRPerf PerfCtrVirt AVIC x2AVIC VNMI X2AVIC_EXT PerfMonV2 N
 * ExtLvtAvicAccessChg */
const struct virq_sim_cpu virq_sim_cpus[LIBVIRQ_SIM_CPU_COUNT] = {
    [LIBVIRQ_SIM_CPU_ZEN2] = CPU_("zen2", AMD_, 0x17, 0x31, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0),
    [LIBVIRQ_SIM_CPU_ZEN3] = CPU_("zen3", AMD_, 0x19, 0x01, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0),
    [LIBVIRQ_SIM_CPU_ZEN4] = CPU_("zen4", AMD_, 0x19, 0x11, 1, 1, 1, 0, 1, 1, 1, 0, 1, 6, 0),
    [LIBVIRQ_SIM_CPU_ZEN5] = CPU_("zen5", AMD_, 0x1A, 0x44, 1, 1, 1, 1, 1, 1, 1, 0, 1, 6, 0),
    [LIBVIRQ_SIM_CPU_X2AVIC_4K] =
	CPU_("x2avic-4k", AMD_, 0x1A, 0x44, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 0),
    [LIBVIRQ_SIM_CPU_FAM10H] = CPU_("fam10h", AMD_, 0x10, 0x02, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    [LIBVIRQ_SIM_CPU_HYGON18H] =
	CPU_("hygon18h", HYG_, 0x18, 0x00, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0),
    [LIBVIRQ_SIM_CPU_INTEL] = CPU_("intel", INT_, 0x06, 0x8F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    [LIBVIRQ_SIM_CPU_EXTLVT] = CPU_("extlvt", AMD_, 0x1A, 0x44, 1, 1, 1, 1, 1, 1, 1, 0, 1, 6, 1),
};

const struct virq_pmcvirt_guest virq_sim_guest_pmc6 = {
    .ncounters = 6, .ext_core = true, .perfmon_v2 = true, .irperf = true};
const struct virq_pmcvirt_guest virq_sim_guest_pmc4 = {.ncounters = 4};

const struct virq_sim_cpu *virq_sim_cpu_find(const char *name)
{
	for (unsigned i = 0; name && i < LIBVIRQ_SIM_CPU_COUNT; i++)
		if (!strcmp(virq_sim_cpus[i].name, name))
			return &virq_sim_cpus[i];
	return NULL;
}

uint32_t virq_sim_cpu_fms(uint32_t family, uint32_t model)
{
	uint32_t base = family >= 0xF ? 0xF : family;
	uint32_t ext = family >= 0xF ? family - 0xF : 0;

	/* EAX: ExtFamily [27:20], ExtModel [19:16], BaseFamily [11:8], BaseModel [7:4]. */
	return (ext << 20) | ((model >> 4) << 16) | (base << 8) | ((model & 0xF) << 4);
}

#define B_(cond, bit) ((cond) ? 1u << (bit) : 0u)

void virq_sim_cpu_apply(struct virq_sim *sim, const struct virq_sim_cpu *c)
{
	/* Leaf 0: EAX max leaf, vendor in EBX, EDX, ECX. */
	static const uint32_t vendor[3][3] = {
	    {0x68747541u, 0x69746e65u, 0x444d4163u}, /* Auth enti cAMD */
	    {0x6f677948u, 0x6e65476eu, 0x656e6975u}, /* Hygo nGen uine */
	    {0x756e6547u, 0x49656e69u, 0x6c65746eu}, /* Genu ineI ntel */
	};
	const uint32_t *v = vendor[c->vendor <= LIBVIRQ_SIM_VENDOR_INTEL ? c->vendor : 0];

	virq_sim_cpuid_set(sim, 0, 0, 0x10, v[0], v[2], v[1]);
	virq_sim_cpuid_set(sim, 1, 0, virq_sim_cpu_fms(c->family, c->model), 0, 0, 0);
	virq_sim_cpuid_set(sim, 0x80000000u, 0, 0x80000022u, 0, 0, 0);
	virq_sim_cpuid_set(sim, 0x80000001u, 0, 0, 0,
			   B_(c->svm, 2) | B_(c->ext_apic_space, 3) | B_(c->perfctr_ext_core, 23),
			   0);
	virq_sim_cpuid_set(sim, 0x80000008u, 0, 0, B_(c->irperf, 1), 0, 0);
	virq_sim_cpuid_set(sim, 0x8000000Au, 0, c->svm ? 1 : 0, c->svm ? 0x8000 : 0,
			   B_(c->x2avic_ext, 6),
			   B_(c->perfctr_virt, 8) | B_(c->avic, 13) | B_(c->x2avic, 18) |
			       B_(c->vnmi, 25) | B_(c->avic_extlvt, 27));
	virq_sim_cpuid_set(sim, 0x80000022u, 0, B_(c->perfmon_v2, 0),
			   c->perfmon_v2 ? (c->num_perf_ctr_core & 0xF) : 0, 0, 0);
}
