/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_avic
 * @brief AMD AVIC capabilities probed through the HAL (CPUID).
 *
 * Spec: AMD64 APM Vol 2 rev 3.44 §15.29.7; AMD64 APM Vol 3 rev 3.37 §E.4.9. Part of
 * the AVIC module; include libvirq/avic.h.
 */
#ifndef LIBVIRQ_AVIC_CAPS_H
#define LIBVIRQ_AVIC_CAPS_H

#include "../status.h"
#include "../hal.h"
#include "regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/** @name Capabilities
 *  @{ */

/**
 * @brief What the CPU offers, probed through the HAL CPUID (AMD64 APM Vol 2 rev 3.44
 *        §15.29.7; AMD64 APM Vol 3 rev 3.37 §E.4.9).
 */
struct virq_avic_caps {
	bool avic;	    ///< CPUID Fn8000_000A EDX[13].
	bool x2avic;	    ///< CPUID Fn8000_000A EDX[18].
	bool x2avic_4k;	    ///< CPUID Fn8000_000A ECX[6] (only meaningful with x2avic).
	bool vnmi;	    ///< CPUID Fn8000_000A EDX[25].
	bool hygon;	    ///< Vendor "HygonGenuine" (else "AuthenticAMD").
	uint32_t family;    ///< Display family (base + extended).
	uint32_t model;	    ///< Display model.
	bool erratum_1235;  ///< AMD family 17h or Hygon family 18h: never set IsRunning.
	uint32_t max_index; ///< Highest physical table index usable: 0xFE, 0x1FF or 0xFFF; 0
			    ///< without AVIC.
	/**
	 * CPUID Fn8000_000A EDX[27] ExtLvtAvicAccessChg: writes of the extended LVT
	 * registers 500h-530h are trap exits and their reads are allowed; without it
	 * both are fault exits (AMD64 APM Vol 2 rev 3.44 Table 15-22).
	 */
	bool ext_lvt_trap;
};

/**
 * @brief Probes AVIC capabilities through the HAL's @c cpuid.
 *
 * Reads leaves 0, 1, 0x80000000, 0x80000001 (SVM) and 0x8000000A.
 * A CPU that is not AMD/Hygon, lacks SVM or leaf 0x8000000A is reported with
 * @c avic = false and ::LIBVIRQ_OK.
 *
 * @param hal  HAL with @c cpuid (::LIBVIRQ_HAL_NEED_CPUID).
 * @param caps Filled on success.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (NULL); ::LIBVIRQ_EHALVER / ::LIBVIRQ_ENOHAL from the HAL
 * check.
 *
 * Thread-safety: reentrant. Spec: AMD64 APM Vol 2 rev 3.44 §15.29.7; AMD64 APM Vol 3 rev 3.37
 * rev 3.37 §E.4.9 (CPUID Fn8000_000A).
 */
LIBVIRQ_MUST_CHECK virq_status virq_avic_caps_probe(const struct virq_hal *hal,
						    struct virq_avic_caps *caps);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_AVIC_CAPS_H */
