/* SPDX-License-Identifier: MIT */
/*
 * pmcvirt helpers shared by the pure encoders (src/pmcvirt/enc/) and the
 * drivers: raw little-endian VMCB access and the counter/global-control
 * arithmetic. Includes only public headers and bitfield.h, so the encoders
 * stay free of the HAL. Not a public header.
 */
#ifndef LIBVIRQ_SRC_PMCVIRT_ENC_H
#define LIBVIRQ_SRC_PMCVIRT_ENC_H

#include <libvirq/pmcvirt.h>
#include <libvirq/bitfield.h>

/* The VMCB is little-endian; so are both targets (x86_64, aarch64). */
LIBVIRQ_STATIC_ASSERT_(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
		       "VMCB access assumes little-endian");

static inline uint64_t pmcv_rd64_(const void *vmcb, uint32_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)vmcb + off, sizeof(v));
	return v;
}

static inline void pmcv_wr64_(void *vmcb, uint32_t off, uint64_t v)
{
	memcpy((uint8_t *)vmcb + off, &v, sizeof(v));
}

static inline uint32_t pmcv_rd32_(const void *vmcb, uint32_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)vmcb + off, sizeof(v));
	return v;
}

static inline void pmcv_wr32_(void *vmcb, uint32_t off, uint32_t v)
{
	memcpy((uint8_t *)vmcb + off, &v, sizeof(v));
}

/* GENMASK(n-1, 0) for n = 0..6 (n = 0 gives 0). */
static inline uint64_t pmcv_ctr_bits_(uint32_t n)
{
	return n ? LIBVIRQ_GENMASK(5, 0) >> (6u - n) : 0;
}

/*
 * The host's real core-counter count, for "guest matches host" decisions
 * (global-MSR and RDPMC passthrough): NumPerfCtrCore before the cap at the
 * six VMCB slots. Hand-built caps without the raw value use num_core_ctrs.
 */
static inline uint32_t pmcv_host_ctrs_(const struct virq_pmcvirt_caps *c)
{
	return c->perfmon_v2 && c->num_core_ctrs_raw ? c->num_core_ctrs_raw : c->num_core_ctrs;
}

/* Global control as the VMCB/hardware must hold it for this guest. */
static inline uint64_t pmcv_eff_gctl_(const struct virq_pmcvirt_guest *g, uint64_t guest_val)
{
	return g->perfmon_v2 ? guest_val : pmcv_ctr_bits_(g->ncounters);
}

/* PERF_CTR_GLOBAL_CTL: 32 significant bits, reserved dword above kept 0. */
static inline void pmcv_wr_gctl_(void *vmcb, uint64_t v)
{
	pmcv_wr64_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL, v & LIBVIRQ_GENMASK(31, 0));
}

static inline uint64_t pmcv_rd_gctl_(const void *vmcb)
{
	return pmcv_rd32_(vmcb, LIBVIRQ_PMCVIRT_VMCB_PERF_CTR_GLOBAL_CTL);
}

/* Reserved event-select bits for this guest. */
static inline uint64_t pmcv_evtsel_rsvd_(const struct virq_pmcvirt_guest *g)
{
	return g->allow_hg ? LIBVIRQ_PMCVIRT_EVTSEL_RSVD_HG : LIBVIRQ_PMCVIRT_EVTSEL_RSVD;
}

#endif /* LIBVIRQ_SRC_PMCVIRT_ENC_H */
