/* SPDX-License-Identifier: MIT */
/*
 * GITS_BASER<n> tables: page size and attribute negotiation with read-back,
 * flat or two-level (level-2 pages on demand), cleaning when not coherent.
 * Spec: Arm IHI 0069H §12.19.1 GITS_BASER<n>; attributes and cleaning per
 * docs/rationale.md#gic-table-attributes.
 */
#include "its_table_priv.h"

#define L1_VALID LIBVIRQ_BIT(63)
#define BASER_MAX_PAGES 256u

static uint64_t baser_addr_(const struct virq_its *its, uint32_t n)
{
	return its->base + LIBVIRQ_GITS_BASER(n);
}

/* Physical_Address field for @pa with page size @psz (64 KiB pages put
 * PA[51:48] in bits [15:12]). */
static virq_status baser_pa_(uint64_t pa, uint32_t psz, uint64_t *field)
{
	if (pa & (psz - 1))
		return LIBVIRQ_EALIGN;
	if (psz == 65536u) {
		if (pa >> 52)
			return LIBVIRQ_ERANGE;
		*field = (pa & LIBVIRQ_GENMASK(47, 16)) |
			 LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Physical_Address_51_48, pa >> 48);
		return LIBVIRQ_OK;
	}
	if (pa >> 48)
		return LIBVIRQ_ERANGE;
	*field = pa & LIBVIRQ_GENMASK(47, 12);
	return LIBVIRQ_OK;
}

/* Largest page size (64, 16, 4 KiB) that sticks in Page_Size. */
static uint32_t probe_psz_(struct virq_its *its, uint32_t n, uint64_t *pszf)
{
	static const uint32_t sizes[3] = {65536u, 16384u, 4096u};
	static const uint32_t codes[3] = {LIBVIRQ_GITS_BASER_PAGE_64K, LIBVIRQ_GITS_BASER_PAGE_16K,
					  LIBVIRQ_GITS_BASER_PAGE_4K};
	const struct virq_hal *hal = &its->gic->hal;

	for (int i = 0; i < 3; i++) {
		virq_wr64_(hal, baser_addr_(its, n),
			   LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Page_Size, codes[i]));
		if (LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Page_Size,
				      virq_rd64_(hal, baser_addr_(its, n))) == codes[i]) {
			*pszf = codes[i];
			return sizes[i];
		}
	}
	*pszf = LIBVIRQ_GITS_BASER_PAGE_4K;
	return 4096u;
}

static bool probe_indirect_(struct virq_its *its, uint32_t n, uint64_t pszf)
{
	const struct virq_hal *hal = &its->gic->hal;
	uint64_t v = LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Page_Size, pszf) |
		     LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Indirect, 1);

	virq_wr64_(hal, baser_addr_(its, n), v);
	return LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Indirect,
				 virq_rd64_(hal, baser_addr_(its, n))) != 0;
}

static uint32_t wanted_bits_(const struct virq_its *its, uint32_t type)
{
	switch (type) {
	case LIBVIRQ_GITS_BASER_TYPE_DEVICES:
		return its->lim.devid_bits;
	case LIBVIRQ_GITS_BASER_TYPE_VPES:
		return its->gic->vpeid_bits;
	default: { /* collections: one per redistributor (ICID = RD index) */
		uint32_t b = log2_(pow2_ceil_(its->gic->nr_rd));

		return b < its->lim.icid_bits ? b : its->lim.icid_bits;
	}
	}
}

/* Decides flat/indirect and the number of pages; may lower id_bits. */
static uint32_t size_table_(struct virq_its *its, struct virq_its_table *t, uint64_t pszf)
{
	uint64_t per = t->page_size / t->esz, bytes, pages;

	t->indirect = t->type != LIBVIRQ_GITS_BASER_TYPE_COLLECTIONS &&
		      ((uint64_t)t->esz << t->id_bits) > 2ull * t->page_size &&
		      probe_indirect_(its, t->n, pszf);
	for (;;) {
		if (t->indirect) {
			t->nr_l1 = (uint32_t)(((1ull << t->id_bits) + per - 1) / per);
			bytes = (uint64_t)t->nr_l1 * 8u;
		} else {
			bytes = (uint64_t)t->esz << t->id_bits;
		}
		pages = (bytes + t->page_size - 1) / t->page_size;
		if (pages <= BASER_MAX_PAGES || !t->id_bits)
			break;
		t->id_bits--; /* the table cannot cover the whole ID space */
	}
	if (pages > BASER_MAX_PAGES)
		pages = BASER_MAX_PAGES;
	return (uint32_t)pages;
}

static uint64_t want_attrs_(const struct virq_its *its)
{
	uint64_t ic = LIBVIRQ_GIC_WANT_INNER_CACHE, sh = LIBVIRQ_GIC_WANT_SHAREABILITY;

	if (its->noncoherent) {
		ic = LIBVIRQ_GIC_CACHE_nC;
		sh = LIBVIRQ_GIC_SH_NONE;
	} else if (its->quirks & LIBVIRQ_ITS_QUIRK_CAVIUM_24313) {
		ic = LIBVIRQ_GIC_CACHE_DnGnRnE; /* nCnB: the memory type is ignored */
	}
	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_InnerCache, ic) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Shareability, sh);
}

/* Writes the BASER and adapts to what stuck (docs/rationale.md#gic-register-latitude):
 * the address, Valid, Size, Indirect and Page_Size must stick (the table was
 * shaped for them); Non-shareable makes InnerCache non-cacheable; the table
 * is cleaned to PoC when the attributes are not coherent. */
static virq_status program_(const char *api, struct virq_its *its, struct virq_its_table *t,
			    uint64_t want)
{
	const struct virq_hal *hal = &its->gic->hal;
	uint64_t pa = LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Physical_Address) |
		      LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Physical_Address_51_48);
	uint64_t keep = LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Valid) |
			LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Size) |
			LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Indirect) |
			LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Page_Size);
	uint64_t rb, sh, ic;

	virq_wr64_(hal, baser_addr_(its, t->n), want);
	rb = virq_rd64_(hal, baser_addr_(its, t->n));
	if (t->page_size != 65536u)
		pa &= ~LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Physical_Address_51_48);
	if ((rb ^ want) & pa)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EHW,
				      "GITS_BASER%u: wrote %x, read back %x (Physical_Address did "
				      "not keep the table's address: fewer address bits)",
				      t->n, want, rb);
	if ((rb ^ want) & keep)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EHW,
				      "GITS_BASER%u: wrote %x, read back %x (Valid, Size, Indirect "
				      "or Page_Size did not stick)",
				      t->n, want, rb);
	sh = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Shareability, rb);
	ic = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_InnerCache, rb);
	if (!its->noncoherent && sh == LIBVIRQ_GIC_SH_NONE && ic > LIBVIRQ_GIC_CACHE_nC) {
		rb = LIBVIRQ_FIELD_SET(LIBVIRQ_GITS_BASER_InnerCache, rb, LIBVIRQ_GIC_CACHE_nC);
		virq_wr64_(hal, baser_addr_(its, t->n), rb);
		rb = virq_rd64_(hal, baser_addr_(its, t->n));
		ic = LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_InnerCache, rb);
	}
	t->baser = rb;
	t->noncoherent =
	    its->noncoherent ||
	    attr_noncoherent_(sh, ic, LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_OuterCache, rb));
	if (clean_if_(hal, t->noncoherent, t->l1.va, t->l1.size) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOHAL,
				      "GITS_BASER%u table not coherent and dcache_clean=NULL",
				      t->n);
	return LIBVIRQ_OK;
}

static void table_free_(struct virq_its *its, struct virq_its_table *t)
{
	const struct virq_hal *hal = &its->gic->hal;

	if (t->l2.va) {
		struct virq_page *p = t->l2.va;

		for (uint32_t i = 0; i < t->nr_l1; i++)
			virq_page_free_(hal, &p[i]);
		virq_page_free_(hal, &t->l2);
	}
	virq_page_free_(hal, &t->l1);
}

static virq_status table_setup_(const char *api, struct virq_its *its, uint32_t n, uint64_t rb)
{
	const struct virq_hal *hal = &its->gic->hal;
	uint32_t type = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Type, rb);
	struct virq_its_table *t;
	uint64_t pszf, paf = 0;
	uint32_t pages;
	virq_status st;

	if (type == LIBVIRQ_GITS_BASER_TYPE_DEVICES)
		t = &its->tbl[LIBVIRQ_ITS_TBL_DEV];
	else if (type == LIBVIRQ_GITS_BASER_TYPE_COLLECTIONS)
		t = &its->tbl[LIBVIRQ_ITS_TBL_COL];
	else if (type == LIBVIRQ_GITS_BASER_TYPE_VPES && its->lim.version != LIBVIRQ_ITS_V3)
		t = &its->tbl[LIBVIRQ_ITS_TBL_VPE];
	else
		return LIBVIRQ_OK;
	if (t->baser)
		return LIBVIRQ_OK; /* a second BASER of the same type: leave it invalid */
	t->n = n;
	t->type = type;
	t->esz = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_BASER_Entry_Size, rb) + 1;
	t->page_size = probe_psz_(its, n, &pszf);
	t->id_bits = wanted_bits_(its, type);
	pages = size_table_(its, t, pszf);
	st = virq_page_alloc_(hal, (uint64_t)pages * t->page_size, t->page_size, &t->l1);
	if (st != LIBVIRQ_OK)
		st = LIBVIRQ_FAILV_(api, hal, st,
				    "GITS_BASER%u table: %u bytes aligned to %u not allocated", n,
				    (uint64_t)pages * t->page_size, t->page_size);
	if (st == LIBVIRQ_OK && t->indirect)
		st = LIBVIRQ_PAGE_ALLOC_(
		    api, hal, round_up_((uint64_t)t->nr_l1 * sizeof(struct virq_page), 4096), 4096,
		    &t->l2, "ITS table's level-2 list");
	if (st == LIBVIRQ_OK) {
		st = baser_pa_(t->l1.pa, t->page_size, &paf);
		if (st != LIBVIRQ_OK)
			st = LIBVIRQ_FAILV_(api, hal, st,
					    "GITS_BASER%u: table pa=%x does not fit "
					    "Physical_Address",
					    n, t->l1.pa);
	}
	if (st == LIBVIRQ_OK) {
		uint64_t want =
		    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Valid, 1) |
		    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Indirect, t->indirect ? 1 : 0) |
		    want_attrs_(its) | (rb & LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Type)) |
		    (rb & LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_BASER_Entry_Size)) | paf |
		    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Page_Size, pszf) |
		    LIBVIRQ_FIELD_PREP(LIBVIRQ_GITS_BASER_Size, pages - 1);
		st = program_(api, its, t, want);
	}
	if (st != LIBVIRQ_OK) {
		virq_wr64_(hal, baser_addr_(its, n), 0);
		table_free_(its, t);
		memset(t, 0, sizeof(*t));
	}
	return st;
}

virq_status virq_its_tables_init_(const char *api, struct virq_its *its)
{
	for (uint32_t n = 0; n < LIBVIRQ_GITS_BASER_COUNT; n++) {
		uint64_t rb = virq_rd64_(&its->gic->hal, baser_addr_(its, n));
		virq_status st = table_setup_(api, its, n, rb);

		if (st != LIBVIRQ_OK) {
			virq_its_tables_free_(its);
			return st;
		}
	}
	return LIBVIRQ_OK;
}

void virq_its_tables_free_(struct virq_its *its)
{
	for (int i = 0; i < 3; i++) {
		struct virq_its_table *t = &its->tbl[i];

		if (t->baser)
			virq_wr64_(&its->gic->hal, baser_addr_(its, t->n), 0);
		table_free_(its, t);
		memset(t, 0, sizeof(*t));
	}
}

virq_status virq_its_tbl_noncoherent_(struct virq_its *its, enum virq_its_tbl_idx ti)
{
	const struct virq_hal *hal = &its->gic->hal;
	struct virq_its_table *t = &its->tbl[ti];
	const struct virq_page *l2 = t->l2.va;

	if (!t->baser || t->noncoherent)
		return LIBVIRQ_OK;
	if (!virq_dcache_clean_(hal, t->l1.va, t->l1.size))
		return LIBVIRQ_ENOHAL;
	for (uint32_t i = 0; t->indirect && i < t->nr_l1; i++)
		if (l2[i].va && !virq_dcache_clean_(hal, l2[i].va, l2[i].size))
			return LIBVIRQ_ENOHAL;
	t->noncoherent = true;
	return LIBVIRQ_OK;
}

virq_status virq_its_tbl_ensure_(const char *api, struct virq_its *its, enum virq_its_tbl_idx ti,
				 uint32_t id)
{
	const struct virq_hal *hal = &its->gic->hal;
	struct virq_its_table *t = &its->tbl[ti];
	struct virq_page *l2;
	uint64_t *l1;
	uint32_t i;
	virq_status st;

	if (!t->baser)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "id=%u: the ITS has no table of that kind (ITS table %u: "
				      "0 device, 1 collection, 2 vPE)",
				      id, ti);
	if (t->id_bits < 32 && (id >> t->id_bits))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "id=%u >= %u IDs the GITS_BASER%u table covers", id,
				      1ull << t->id_bits, t->n);
	if (!t->indirect)
		return LIBVIRQ_OK;
	i = id / (t->page_size / t->esz);
	l1 = t->l1.va;
	if (l1[i] & L1_VALID)
		return LIBVIRQ_OK;
	l2 = (struct virq_page *)t->l2.va + i;
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, t->page_size, t->page_size, l2,
				 "level-2 page of an ITS table");
	if (st != LIBVIRQ_OK)
		return st;
	st = clean_if_(hal, t->noncoherent, l2->va, l2->size);
	if (st != LIBVIRQ_OK) {
		virq_page_free_(hal, l2);
		return LIBVIRQ_FAILV_(
		    api, hal, st, "GITS_BASER%u table not coherent and dcache_clean=NULL", t->n);
	}
	/* The level-1 entry's Valid 0->1 must be visible before a command
	 * relies on it (IHI 0069H §5.2). */
	l1[i] = l2->pa | L1_VALID;
	st = clean_if_(hal, t->noncoherent, &l1[i], sizeof(l1[i]));
	virq_barrier_(hal, LIBVIRQ_BARRIER_DMA_WMB);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(
		    api, hal, st, "GITS_BASER%u table not coherent and dcache_clean=NULL", t->n);
	return LIBVIRQ_OK;
}
