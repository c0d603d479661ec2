/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief CPU profiles of the simulator: one table for AVIC and PMC tests.
 *
 * A profile describes an x86 CPU the way the library sees it: the CPUID
 * leaves libvirq's probes read (vendor, family/model, SVM, AVIC, x2AVIC,
 * the x2AVIC 4K-vCPU extension, VNMI, PerfCtrVirt, PerfCtrExtCore,
 * PerfMonV2 and its counter count, IRPerf). virq_sim_cpu_apply() programs
 * those leaves into a simulator, so virq_avic_caps_probe() and
 * virq_pmcvirt_probe() find exactly that CPU, and each entry also carries
 * the capability structures the probes must produce (@c avic and
 * @c pmcvirt, built from the same feature bits by the table's own macro),
 * for tests that want a CPU's capabilities without probing.
 *
 * CPUID bit positions: AMD APM Vol 3 Appendix E (Fn8000_0001 ECX[2] SVM,
 * ECX[3] ExtApicSpace, ECX[23] PerfCtrExtCore; Fn8000_0008 EBX[1] IRPerf;
 * Fn8000_000A EDX[8] PerfCtrVirt, EDX[13] AVIC, EDX[18] x2AVIC, EDX[25]
 * VNMI, EDX[27] ExtLvtAvicAccessChg, ECX[6]
 * X2AVIC_EXT; Fn8000_0022 EAX[0] PerfMonV2, EBX[3:0] NumPerfCtrCore).
 * Which generation has which feature: see each profile; where a feature's
 * presence on a part is not public, the profile says so.
 *
 * Thread-safety: the table is constant; virq_sim_cpu_apply() takes the
 * simulator's lock like every simulator call.
 */
#ifndef LIBVIRQ_SIM_CPU_H
#define LIBVIRQ_SIM_CPU_H

#include <libvirq/avic/caps.h>
#include <libvirq/pmcvirt/encode.h>
#include <libvirq/sim/hal.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup virq_sim_cpu CPU profiles
 * @ingroup virq_sim
 * @{
 */

/** @brief CPU vendor, as CPUID leaf 0 reports it. */
enum virq_sim_cpu_vendor {
	LIBVIRQ_SIM_VENDOR_AMD = 0, /**< "AuthenticAMD". */
	LIBVIRQ_SIM_VENDOR_HYGON,   /**< "HygonGenuine". */
	LIBVIRQ_SIM_VENDOR_INTEL,   /**< "GenuineIntel" (no AVIC, no PMC virtualization). */
};

/** @brief Index of a profile in ::virq_sim_cpus. */
enum virq_sim_cpu_id {
	/**
	 * AMD family 17h model 31h (Zen 2): AVIC (xAVIC only), PerfCtrExtCore,
	 * IRPerf; no x2AVIC, VNMI or PerfMonV2. Family 17h has erratum 1235
	 * (libvirq never sets IsRunning; Linux commit 8de4a1c8164e).
	 */
	LIBVIRQ_SIM_CPU_ZEN2 = 0,
	/** AMD family 19h model 01h (Zen 3): as Zen 2 without the erratum. */
	LIBVIRQ_SIM_CPU_ZEN3,
	/**
	 * AMD family 19h model 11h (Zen 4): AVIC, x2AVIC, VNMI, PerfCtrExtCore,
	 * PerfMonV2 with six core counters, IRPerf; no PerfCtrVirt (PMC
	 * virtualization is software-switched only).
	 */
	LIBVIRQ_SIM_CPU_ZEN4,
	/**
	 * AMD family 1Ah model 44h (Zen 5): Zen 4's features plus PerfCtrVirt
	 * (hardware-switched PMC virtualization).
	 */
	LIBVIRQ_SIM_CPU_ZEN5,
	/**
	 * Zen 5's features plus X2AVIC_EXT (Fn8000_000A ECX[6]): x2AVIC for
	 * 4096 vCPUs (physical table index up to 0xFFF). Which parts report
	 * the extension was not public when this table was written (the
	 * feature comes from the LKML series "KVM: SVM: Add AVIC support for 4k
	 * vCPUs in x2AVIC mode", 2025); the family/model are Zen 5's.
	 */
	LIBVIRQ_SIM_CPU_X2AVIC_4K,
	/**
	 * AMD family 10h model 02h: SVM with the four legacy (K7) counters
	 * only; no AVIC, no PerfCtrExtCore, no PerfMonV2.
	 */
	LIBVIRQ_SIM_CPU_FAM10H,
	/**
	 * Hygon family 18h model 00h: AVIC (xAVIC), PerfCtrExtCore; erratum
	 * 1235 as AMD family 17h (Linux commit 9a12fa5213cf).
	 */
	LIBVIRQ_SIM_CPU_HYGON18H,
	/** An Intel CPU (family 6 model 8Fh): neither AVIC nor AMD PMC virtualization. */
	LIBVIRQ_SIM_CPU_INTEL,
	/**
	 * Zen 5's features plus ExtLvtAvicAccessChg (Fn8000_000A EDX[27]): writes
	 * of the extended LVT registers 500h-530h are AVIC_NOACCEL traps and their
	 * reads are allowed, where every other profile faults both (AMD64 APM
	 * Vol 2 rev 3.44 Table 15-22). Which parts report the bit was not public
	 * when this table was written; the family/model are Zen 5's.
	 */
	LIBVIRQ_SIM_CPU_EXTLVT,
	LIBVIRQ_SIM_CPU_COUNT /**< Number of profiles (not a profile). */
};

/** @brief One CPU profile. */
struct virq_sim_cpu {
	const char *name;		 /**< Short name: "zen2", "zen4", "x2avic-4k", ... */
	enum virq_sim_cpu_vendor vendor; /**< CPUID leaf 0 vendor string. */
	uint32_t family;		 /**< Display family (base + extended). */
	uint32_t model;			 /**< Display model. */
	bool svm;			 /**< Fn8000_0001 ECX[2]. */
	bool perfctr_ext_core;		 /**< Fn8000_0001 ECX[23]. */
	bool irperf;			 /**< Fn8000_0008 EBX[1]. */
	bool perfctr_virt;		 /**< Fn8000_000A EDX[8]. */
	bool avic;			 /**< Fn8000_000A EDX[13]. */
	bool x2avic;			 /**< Fn8000_000A EDX[18]. */
	bool vnmi;			 /**< Fn8000_000A EDX[25]. */
	bool x2avic_ext;		 /**< Fn8000_000A ECX[6] (4K x2AVIC). */
	/**
	 * Fn8000_0001 ECX[3] ExtApicSpace: the extended APIC registers
	 * (0x400 .. 0x530, four extended LVTs at 0x500 .. 0x530) exist.
	 */
	bool ext_apic_space;
	/**
	 * Fn8000_000A EDX[27] ExtLvtAvicAccessChg: with AVIC, reads of the
	 * extended LVTs are accelerated and writes trap, instead of both
	 * faulting (virq_sim_avic_opts::extlvt). Only the profile
	 * ::LIBVIRQ_SIM_CPU_EXTLVT sets it: which shipping parts report it was
	 * not public when this table was written.
	 */
	bool avic_extlvt;
	bool perfmon_v2;	    /**< Fn8000_0022 EAX[0]. */
	uint32_t num_perf_ctr_core; /**< Fn8000_0022 EBX[3:0] (with PerfMonV2). */
	/** What virq_avic_caps_probe() finds on this CPU. */
	struct virq_avic_caps avic_caps;
	/** What virq_pmcvirt_probe() finds on this CPU. */
	struct virq_pmcvirt_caps pmcvirt_caps;
};

/** @brief The profiles, indexed by ::virq_sim_cpu_id. */
extern const struct virq_sim_cpu virq_sim_cpus[LIBVIRQ_SIM_CPU_COUNT];

/**
 * @brief Looks a profile up by its short name.
 * @param name For example "zen4"; NULL is allowed.
 * @return The profile, or NULL when no profile has that name.
 */
const struct virq_sim_cpu *virq_sim_cpu_find(const char *name);

/**
 * @brief Programs the CPUID leaves of @p cpu into the simulator.
 *
 * Sets leaves 0 (vendor, highest basic leaf 0x10), 1 (family/model in the
 * base + extended encoding), 0x80000000 (highest extended leaf 0x80000022),
 * 0x80000001, 0x80000008, 0x8000000A (SVM revision 1, 0x8000 ASIDs) and
 * 0x80000022. A profile may be copied and changed before it is applied
 * (for example a Zen 4 without x2AVIC); only the feature fields are read,
 * not @c avic_caps / @c pmcvirt_caps.
 *
 * @param sim The simulator.
 * @param cpu The profile.
 */
void virq_sim_cpu_apply(struct virq_sim *sim, const struct virq_sim_cpu *cpu);

/**
 * @brief CPUID leaf 1 EAX for a display family and model.
 * @param family Display family (>= 0xF uses the extended family field).
 * @param model  Display model (0..0xFF).
 * @return The EAX value (stepping 0).
 */
uint32_t virq_sim_cpu_fms(uint32_t family, uint32_t model);

/** @brief A PMC-virtualization guest with six counters, PerfCtrExtCore, PerfMonV2 and IRPerf. */
extern const struct virq_pmcvirt_guest virq_sim_guest_pmc6;
/** @brief A PMC-virtualization guest with the four legacy counters only. */
extern const struct virq_pmcvirt_guest virq_sim_guest_pmc4;

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_SIM_CPU_H */
