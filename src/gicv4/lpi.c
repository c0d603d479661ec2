/* SPDX-License-Identifier: MIT */
/*
 * Physical LPI INTID allocator and LPI configuration table.
 * Spec: Arm IHI 0069 §5.1 (LPIs, INTIDs from 8192), §5.1.1 (config byte).
 */
#include "gicv4/lpi_priv.h"

#define LPI_MAX_BLOCK 4096u

static bool range_free_(const uint8_t *bm, uint32_t n, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		if (bm_test_(bm, n + i))
			return false;
	return true;
}

virq_status virq_lpi_alloc(struct virq_gic *gic, uint32_t count, uint32_t *first)
{
	uint32_t nr;
	uint8_t *bm;
	virq_status st;

	if (!gic || !first || !gic->lpi_map.va || !count || count > LPI_MAX_BLOCK)
		return LIBVIRQ_EINVAL;
	nr = gic->lpi_end - LIBVIRQ_LPI_BASE;
	bm = gic->lpi_map.va;
	for (uint32_t n = 0; n + count <= nr; n++) {
		/* Skip whole bytes that are full. */
		if (!(n & 7) && bm[n >> 3] == 0xFF) {
			n += 7;
			continue;
		}
		if (!range_free_(bm, n, count))
			continue;
		for (uint32_t i = 0; i < count; i++) {
			bm_set_(bm, n + i);
			*lpi_cfg_(gic, LIBVIRQ_LPI_BASE + n + i) =
			    0xA2; /* prio 0xA0, RES1, disabled */
		}
		st = clean_if_(&gic->hal, gic->rd_noncoherent, lpi_cfg_(gic, LIBVIRQ_LPI_BASE + n),
			       count);
		if (st != LIBVIRQ_OK) {
			/* Nothing is handed out: give the IDs back (their
			 * config bytes are the free value 0xA2 already). */
			for (uint32_t i = 0; i < count; i++)
				bm_clr_(bm, n + i);
			return st;
		}
		*first = LIBVIRQ_LPI_BASE + n;
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_ENOSPC;
}

bool virq_lpi_allocated_(const struct virq_gic *gic, uint32_t intid)
{
	return intid >= LIBVIRQ_LPI_BASE && intid < gic->lpi_end &&
	       bm_test_(gic->lpi_map.va, intid - LIBVIRQ_LPI_BASE);
}

virq_status virq_lpi_free(struct virq_gic *gic, uint32_t first, uint32_t count)
{
	if (!gic || !gic->lpi_map.va || !count || first < LIBVIRQ_LPI_BASE || first >= gic->lpi_end ||
	    count > gic->lpi_end - first)
		return LIBVIRQ_EINVAL;
	for (uint32_t i = 0; i < count; i++)
		if (!virq_lpi_allocated_(gic, first + i))
			return LIBVIRQ_ENOENT;
	for (uint32_t i = 0; i < count; i++) {
		bm_clr_(gic->lpi_map.va, first + i - LIBVIRQ_LPI_BASE);
		*lpi_cfg_(gic, first + i) = 0xA2;
	}
	return clean_if_(&gic->hal, gic->rd_noncoherent, lpi_cfg_(gic, first), count);
}

virq_status virq_lpi_set_config(struct virq_gic *gic, uint32_t intid, uint8_t priority, bool enable)
{
	uint8_t *cfg;

	if (!gic || !gic->lpi_map.va)
		return LIBVIRQ_EINVAL;
	if (intid < LIBVIRQ_LPI_BASE || intid >= gic->lpi_end)
		return LIBVIRQ_ERANGE;
	if (!virq_lpi_allocated_(gic, intid))
		return LIBVIRQ_ENOENT;
	cfg = lpi_cfg_(gic, intid);
	*cfg = (uint8_t)((priority & LIBVIRQ_FIELD_MASK(LIBVIRQ_LPI_CFG_Priority)) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_RES1, 1) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_Enable, enable ? 1 : 0));
	return clean_if_(&gic->hal, gic->rd_noncoherent, cfg, 1);
}
