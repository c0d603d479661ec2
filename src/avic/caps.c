/* SPDX-License-Identifier: MIT */
/*
 * AVIC capability probe through the HAL CPUID (AMD64 APM Vol 2 rev 3.44
 * §15.29.7; AMD64 APM Vol 3 rev 3.37 §E.4.9, CPUID Fn8000_000A). Limits are
 * data: the highest physical-table index.
 */
#include "avic_priv.h"

/* "AuthenticAMD" and "HygonGenuine" as CPUID leaf 0 EBX, EDX, ECX. */
static bool vendor_is_(const uint32_t r[4], uint32_t b, uint32_t d, uint32_t c)
{
	return r[1] == b && r[3] == d && r[2] == c;
}

static void family_model_(uint32_t eax, uint32_t *family, uint32_t *model)
{
	uint32_t fam = (eax >> 8) & 0xFu, mod = (eax >> 4) & 0xFu;

	if (fam == 0xFu) {
		fam += (eax >> 20) & 0xFFu;
		mod |= ((eax >> 16) & 0xFu) << 4;
	}
	*family = fam;
	*model = mod;
}

virq_status virq_avic_caps_probe(const struct virq_hal *hal, struct virq_avic_caps *caps)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t r[4];
	virq_status st;
	bool amd, hygon;

	if (!caps)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "caps=NULL");
	st = virq_hal_check_(api, hal, LIBVIRQ_HAL_NEED_CPUID);
	if (st != LIBVIRQ_OK)
		return st;
	memset(caps, 0, sizeof(*caps));
	virq_cpuid_(hal, 0, 0, r);
	amd = vendor_is_(r, 0x68747541u, 0x69746e65u, 0x444d4163u);
	hygon = vendor_is_(r, 0x6f677948u, 0x6e65476eu, 0x656e6975u);
	if (!amd && !hygon)
		return LIBVIRQ_OK;
	caps->hygon = hygon;
	virq_cpuid_(hal, 1, 0, r);
	family_model_(r[0], &caps->family, &caps->model);
	/* AMD erratum 1235 (Zen1/Zen2) and Hygon family 18h: never set IsRunning. */
	caps->erratum_1235 = (amd && caps->family == 0x17u) || (hygon && caps->family == 0x18u);
	virq_cpuid_(hal, 0x80000000u, 0, r);
	if (r[0] < 0x8000000Au)
		return LIBVIRQ_OK;
	virq_cpuid_(hal, 0x80000001u, 0, r);
	if (!(r[2] & 0x4u)) /* ECX[2] SVM */
		return LIBVIRQ_OK;
	virq_cpuid_(hal, 0x8000000Au, 0, r);
	caps->avic = (r[3] & LIBVIRQ_AVIC_CPUID_EDX_AVIC) != 0;
	caps->x2avic = caps->avic && (r[3] & LIBVIRQ_AVIC_CPUID_EDX_X2AVIC);
	caps->x2avic_4k = caps->x2avic && (r[2] & LIBVIRQ_AVIC_CPUID_ECX_X2AVIC_EXT);
	caps->vnmi = (r[3] & LIBVIRQ_AVIC_CPUID_EDX_VNMI) != 0;
	caps->ext_lvt_trap = caps->avic && (r[3] & LIBVIRQ_AVIC_CPUID_EDX_EXTLVT);
	caps->max_index = caps->x2avic_4k ? LIBVIRQ_AVIC_MAX_INDEX_X2AVIC_4K
			  : caps->x2avic  ? LIBVIRQ_AVIC_MAX_INDEX_X2AVIC
			  : caps->avic	  ? LIBVIRQ_AVIC_MAX_INDEX_XAVIC
					  : 0;
	return LIBVIRQ_OK;
}
