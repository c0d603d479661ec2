/* SPDX-License-Identifier: MIT */
/*
 * CPU and guest profiles shared by the PMC virtualization tests, the fault
 * sweep and the benchmark (header-only, so the benchmark needs no model
 * library). Capabilities per APM Vol 3 CPUID Fn8000_000A, Fn8000_0001 and
 * Fn8000_0022 (docs/rationale.md#pmc-counter-count).
 */
#ifndef LIBVIRQ_SIM_PMC_CPUS_H
#define LIBVIRQ_SIM_PMC_CPUS_H

#include <libvirq/pmcvirt.h>

/* Zen 5: PerfCtrVirt, VNMI, AVIC, PerfMonV2, six core counters, IRPerf. */
static const struct virq_pmcvirt_caps zen5 = { .svm = true, .perfctr_virt = true, .avic = true,
					       .vnmi = true, .perfctr_ext_core = true,
					       .perfmon_v2 = true, .irperf = true,
					       .num_core_ctrs = 6 };
/* Zen 4: as Zen 5 without PerfCtrVirt (software-switched only). */
static const struct virq_pmcvirt_caps zen4 = { .svm = true, .vnmi = true, .perfctr_ext_core = true,
					       .perfmon_v2 = true, .irperf = true,
					       .num_core_ctrs = 6 };
/* A K7-style host: four legacy counters, no global MSRs. */
static const struct virq_pmcvirt_caps k7 = { .svm = true, .num_core_ctrs = 4 };
/* A six-counter PerfMonV2 guest with IRPerf, and a four-counter legacy guest. */
static const struct virq_pmcvirt_guest g6 = { .ncounters = 6, .ext_core = true,
					      .perfmon_v2 = true, .irperf = true };
static const struct virq_pmcvirt_guest g4 = { .ncounters = 4 };

#endif /* LIBVIRQ_SIM_PMC_CPUS_H */
