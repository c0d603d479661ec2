/* SPDX-License-Identifier: MIT */
/*
 * ID allocators of the GIC object: physical LPI INTIDs (with the LPI
 * configuration table and a count of the mappings that use each LPI), and
 * vPEIDs (a two-level bitmap: O(1) allocation whatever the number of vPEs).
 * Spec: Arm IHI 0069H §5.1 (LPIs, INTIDs from 8192), §5.1.1 (config byte),
 * §9 (vPEIDs; GICD_TYPER2.VID on GICv4.1).
 */
#include "lpi_priv.h"

#define LPI_MAX_BLOCK 4096u

static bool range_free_(const uint8_t *bm, uint32_t n, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		if (bm_test_(bm, n + i))
			return false;
	return true;
}

static uint16_t *lpi_refs_(const struct virq_gic *gic)
{
	return (uint16_t *)gic->lpi_refs.va;
}

virq_status virq_lpi_alloc(struct virq_gic *gic, uint32_t count, uint32_t *first)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t nr;
	uint8_t *bm;
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (!first)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_EINVAL, "first=NULL");
	if (count == 0)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_EINVAL, "count=0");
	if (count > LPI_MAX_BLOCK)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EINVAL, "count=%u > %u", count,
				      LPI_MAX_BLOCK);
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
			return LIBVIRQ_FAIL_(api, &gic->hal, st,
					     "LPI configuration table not coherent and "
					     "dcache_clean=NULL");
		}
		*first = LIBVIRQ_LPI_BASE + n;
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ENOSPC, "no free run of count=%u LPIs",
			      count);
}

bool virq_lpi_allocated_(const struct virq_gic *gic, uint32_t intid)
{
	return intid >= LIBVIRQ_LPI_BASE && intid < gic->lpi_end &&
	       bm_test_(gic->lpi_map.va, intid - LIBVIRQ_LPI_BASE);
}

/* A doorbell's user count: the LPI belongs to one vPE alone. */
#define LPI_DOORBELL_ 0xFFFFu

bool virq_lpi_is_doorbell_(const struct virq_gic *gic, uint32_t intid)
{
	return lpi_refs_(gic)[intid - LIBVIRQ_LPI_BASE] == LPI_DOORBELL_;
}

bool virq_lpi_doorbell_take_(struct virq_gic *gic, uint32_t intid)
{
	uint16_t *r = &lpi_refs_(gic)[intid - LIBVIRQ_LPI_BASE];

	if (*r)
		return false;
	*r = LPI_DOORBELL_;
	return true;
}

void virq_lpi_doorbell_release_(struct virq_gic *gic, uint32_t intid)
{
	uint16_t *r = &lpi_refs_(gic)[intid - LIBVIRQ_LPI_BASE];

	if (*r == LPI_DOORBELL_)
		*r = 0;
}

bool virq_lpi_ref_(struct virq_gic *gic, uint32_t intid)
{
	uint16_t *r = &lpi_refs_(gic)[intid - LIBVIRQ_LPI_BASE];

	if (*r >= LPI_DOORBELL_ - 1)
		return false;
	(*r)++;
	return true;
}

void virq_lpi_unref_(struct virq_gic *gic, uint32_t intid)
{
	uint16_t *r = &lpi_refs_(gic)[intid - LIBVIRQ_LPI_BASE];

	if (*r && *r != LPI_DOORBELL_)
		(*r)--;
}

virq_status virq_lpi_free(struct virq_gic *gic, uint32_t first, uint32_t count)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (count == 0)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_EINVAL, "count=0");
	if (first < LIBVIRQ_LPI_BASE)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EINVAL, "first=%u < 8192", first);
	if (first >= gic->lpi_end)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EINVAL, "first=%u >= lpi_end=%u",
				      first, gic->lpi_end);
	if (count > gic->lpi_end - first)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EINVAL, "count=%u > lpi_end-first=%u",
				      count, gic->lpi_end - first);
	for (uint32_t i = 0; i < count; i++) {
		if (!virq_lpi_allocated_(gic, first + i))
			return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ENOENT,
					      "INTID %u not allocated", first + i);
		/* An ITS event (or a vPE's doorbell) still maps it: freeing it
		 * would let it be handed out again while the ITS still
		 * translates to it. */
		if (lpi_refs_(gic)[first + i - LIBVIRQ_LPI_BASE])
			return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EBUSY,
					      "INTID %u still mapped by an ITS event or a vPE's "
					      "doorbell",
					      first + i);
	}
	for (uint32_t i = 0; i < count; i++) {
		bm_clr_(gic->lpi_map.va, first + i - LIBVIRQ_LPI_BASE);
		*lpi_cfg_(gic, first + i) = 0xA2;
	}
	if (clean_if_(&gic->hal, gic->rd_noncoherent, lpi_cfg_(gic, first), count) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_ENOHAL,
				     "IDs freed, but the LPI configuration table is not coherent "
				     "and dcache_clean=NULL");
	return LIBVIRQ_OK;
}

virq_status virq_lpi_set_config(struct virq_gic *gic, uint32_t intid, uint8_t priority, bool enable)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint8_t *cfg;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (intid < LIBVIRQ_LPI_BASE)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ERANGE, "intid=%u < 8192", intid);
	if (intid >= gic->lpi_end)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ERANGE, "intid=%u >= lpi_end=%u",
				      intid, gic->lpi_end);
	if (!virq_lpi_allocated_(gic, intid))
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ENOENT, "intid=%u not allocated",
				      intid);
	cfg = lpi_cfg_(gic, intid);
	*cfg = (uint8_t)((priority & LIBVIRQ_FIELD_MASK(LIBVIRQ_LPI_CFG_Priority)) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_RES1, 1) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_Enable, enable ? 1 : 0));
	if (clean_if_(&gic->hal, gic->rd_noncoherent, cfg, 1) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_ENOHAL,
				     "byte written, but the LPI configuration table is not "
				     "coherent and dcache_clean=NULL");
	return LIBVIRQ_OK;
}

/* ---------------- vPEIDs ----------------
 *
 * Leaf level: bit i of word w set = vPEID 64 w + i in use (bits beyond
 * 2^vpeid_bits are set at init, so they are never handed out). Summary
 * level: bit w set = leaf word w full. gic->vpeid_hint: every summary word
 * below it is full (a free moves it back). Allocation starts at the hint
 * and moves it only past full summary words, so it is O(1) amortised: one
 * summary word and one leaf word, whatever the number of vPEs (a linear
 * scan made the k-th vPE O(k)). */

static uint64_t *vpeid_sum_(const struct virq_gic *gic)
{
	return (uint64_t *)gic->vpeid_map.va;
}

static uint64_t *vpeid_leaf_(const struct virq_gic *gic)
{
	return vpeid_sum_(gic) + vpeid_sum_words_(gic->vpeid_bits);
}

void virq_vpeid_map_init_(struct virq_gic *gic)
{
	uint32_t bits = gic->vpeid_bits, nl = vpeid_leaf_words_(bits), ns = vpeid_sum_words_(bits);
	uint64_t *leaf = vpeid_leaf_(gic), *sum = vpeid_sum_(gic);

	memset(gic->vpeid_map.va, 0, gic->vpeid_map.size);
	if (bits < 6) /* one partial word: IDs 2^bits .. 63 do not exist */
		leaf[0] = ~0ull << (1u << bits);
	if (nl % 64) /* summary bits of leaf words that do not exist */
		sum[ns - 1] = ~0ull << (nl % 64);
	gic->vpeid_hint = 0;
	gic->vpeid_limit = 1u << bits;
}

bool virq_vpeid_alloc_(struct virq_gic *gic, uint32_t *id)
{
	uint32_t ns = vpeid_sum_words_(gic->vpeid_bits);
	uint64_t *sum = vpeid_sum_(gic), *leaf = vpeid_leaf_(gic);

	for (uint32_t s = gic->vpeid_hint; s < ns; s++) {
		uint32_t w, b;

		if (sum[s] == ~0ull) {
			gic->vpeid_hint = s + 1;
			continue;
		}
		w = s * 64 + (uint32_t)__builtin_ctzll(~sum[s]);
		b = (uint32_t)__builtin_ctzll(~leaf[w]);
		leaf[w] |= 1ull << b;
		if (leaf[w] == ~0ull)
			sum[s] |= 1ull << (w % 64);
		*id = w * 64 + b;
		return true;
	}
	return false;
}

void virq_vpeid_free_(struct virq_gic *gic, uint32_t id)
{
	uint64_t *sum = vpeid_sum_(gic), *leaf = vpeid_leaf_(gic);

	leaf[id / 64] &= ~(1ull << (id % 64));
	sum[id / 4096] &= ~(1ull << ((id / 64) % 64));
	if (id / 4096 < gic->vpeid_hint)
		gic->vpeid_hint = id / 4096;
}

bool virq_vpeid_used_(const struct virq_gic *gic, uint32_t id)
{
	return (vpeid_leaf_(gic)[id / 64] >> (id % 64)) & 1;
}

/* The leaf bits of IDs @from .. 64 w + 63 in word w. */
static uint64_t vpeid_bits_from_(uint32_t w, uint32_t from)
{
	return from <= w * 64 ? ~0ull : ~0ull << (from - w * 64);
}

bool virq_vpeid_cap_(struct virq_gic *gic, uint32_t limit)
{
	uint64_t *sum = vpeid_sum_(gic), *leaf = vpeid_leaf_(gic);
	uint32_t end = (gic->vpeid_limit + 63) / 64;

	if (limit >= gic->vpeid_limit)
		return true;
	/* The IDs from @limit on are free (the old limit's are marked used). */
	for (uint32_t w = limit / 64; w < end; w++) {
		uint64_t m = vpeid_bits_from_(w, limit);

		if ((w + 1) * 64 > gic->vpeid_limit) /* bits from the old limit on */
			m &= ~vpeid_bits_from_(w, gic->vpeid_limit);
		if (leaf[w] & m)
			return false;
	}
	for (uint32_t w = limit / 64; w < end; w++) {
		leaf[w] |= vpeid_bits_from_(w, limit);
		if (leaf[w] == ~0ull)
			sum[w / 64] |= 1ull << (w % 64);
	}
	gic->vpeid_limit = limit;
	return true;
}
