/* SPDX-License-Identifier: MIT */
/*
 * pmcvirt driver internals shared by src/pmcvirt/{caps,vcpu,switch,nested}.c
 * (not by the pure encoders in src/pmcvirt/enc/, which include only
 * enc/pmcv_enc.h). Not a public header.
 *
 * Who calls whom (no cycles): vcpu.c -> switch.c (lazy sync before a state
 * access) and caps.c (mode check), nested.c -> vcpu.c; switch.c and caps.c
 * call no other driver file; all may call the pure encoders in enc/.
 */
#ifndef LIBVIRQ_SRC_PMCV_PRIV_H
#define LIBVIRQ_SRC_PMCV_PRIV_H

#include "enc/pmcv_enc.h"
#include "../hal/hal_priv.h"

/* Lifecycle states of a vCPU (docs/pmcvirt.md "Object states"). */
#define LIBVIRQ_PMCVIRT_ST_LIVE_ 0x504D4356u /* "PMCV" */
#define LIBVIRQ_PMCVIRT_ST_DEAD_ 0x44454144u /* "DEAD" */

static inline bool pmcv_live_(const struct virq_pmcvirt_vcpu *v)
{
	return v && v->state == LIBVIRQ_PMCVIRT_ST_LIVE_;
}

/* The HAL to report a failure through, or NULL when the vCPU is not live. */
static inline const struct virq_hal *pmcv_hal_(const struct virq_pmcvirt_vcpu *v)
{
	return pmcv_live_(v) ? &v->hal : NULL;
}

/*
 * A NULL, never-initialised or destroyed vCPU where a live one is needed
 * (::LIBVIRQ_EINVAL), reported through its HAL when it was destroyed (it
 * keeps it), else through @p other (NULL: unreported, the call has no
 * other object).
 */
#define LIBVIRQ_PMCV_DEAD_(api, other, name, v)                                                    \
	LIBVIRQ_FAIL_DEAD_((api),                                                                  \
			   (v) && (v)->state == LIBVIRQ_PMCVIRT_ST_DEAD_ ? &(v)->hal : (other),    \
			   (name), (v), LIBVIRQ_PMCVIRT_ST_DEAD_)

/* Deliberately ignores a status (the caller documented why). */
#define IGNORE_STATUS_(x)                                                                          \
	do {                                                                                       \
		virq_status ignored_ = (x);                                                        \
		(void)ignored_;                                                                    \
	} while (0)

/* Bits of virq_pmcvirt_hwcache::valid. */
#define PMCV_V_CTL(i) (1u << (i))
#define PMCV_V_CTR(i) (1u << (6u + (i)))
#define PMCV_V_GCTL (1u << 12)
#define PMCV_V_GSTS (1u << 13)

/* Event select as it is given to the VMCB (HW) or to the MSR (SW). */
uint64_t virq_pmcvirt_ctl_hw_(const struct virq_pmcvirt_vcpu *vcpu, uint64_t guest_ctl);
/* Recomputes ctl_hw[] from st.perf_ctl[]; HW mode writes changed VMCB slots. */
void virq_pmcvirt_refilter_(struct virq_pmcvirt_vcpu *vcpu);
/* Host MSR index of counter i's event select (F15h with PerfCtrExtCore, else K7). */
static inline uint32_t pmcv_host_ctl_msr_(const struct virq_pmcvirt_vcpu *v, uint32_t i)
{
	return v->host_ext_core ? LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTL(i)
				: LIBVIRQ_PMCVIRT_MSR_K7_EVNTSEL(i);
}

/* Host MSR index of counter i. */
static inline uint32_t pmcv_host_ctr_msr_(const struct virq_pmcvirt_vcpu *v, uint32_t i)
{
	return v->host_ext_core ? LIBVIRQ_PMCVIRT_MSR_F15H_PERF_CTR(i)
				: LIBVIRQ_PMCVIRT_MSR_K7_PERFCTR(i);
}

/* Lazy mode: saves the guest PMU still live in the MSRs into the software state
 * (switch.c); a fault is reported under @p api (NULL: unreported). */
virq_status virq_pmcvirt_sync_(const char *api, struct virq_pmcvirt_vcpu *vcpu);

/*
 * virq_pmcvirt_mode_check() reported under @p api through @p hal (either
 * NULL: unreported), for virq_pmcvirt_vcpu_init().
 */
virq_status virq_pmcv_mode_check_(const char *api, const struct virq_hal *hal,
				  const struct virq_pmcvirt_caps *caps,
				  const struct virq_pmcvirt_guest *guest,
				  enum virq_pmcvirt_mode mode, uint32_t flags);

#endif /* LIBVIRQ_SRC_PMCV_PRIV_H */
