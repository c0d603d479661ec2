/* SPDX-License-Identifier: MIT */
/*
 * Redistributor bring-up, all in one place: the vPE residency registers'
 * reset (docs/rationale.md#gic-vpe-residency-init: even when a previous kernel left LPIs on),
 * EnableLPIs off with RWP on bit 3 (docs/rationale.md#gic-rd-bringup-order), wake (GICR_WAKER),
 * GICR_PROPBASER / GICR_PENDBASER with attribute negotiation
 * (docs/rationale.md#gic-table-attributes), EnableLPIs on and visible before any MAPC; on GICv4.1
 * the redistributors' view of the vPE table (GICR_VPROPBASER, 4.1 layout). Spec: Arm IHI 0069H
 * §5.1, §12.11 (GICR_CTLR, GICR_WAKER, GICR_PROPBASER, GICR_PENDBASER, GICR_VPROPBASER,
 * GICR_VPENDBASER).
 */
#include "enc/images.h"
#include "lpi_priv.h"
#include "rdist_priv.h"

#define VPEND_DIRTY LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Dirty)
#define VPEND_VALID LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_Valid)
#define VPEND_PL LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPENDBASER_PendingLast)

static uint64_t vpend_addr_(const struct virq_gic *gic, uint32_t rd)
{
	return rd_addr_(gic, rd, LIBVIRQ_GICR_VPENDBASER);
}

/* Polls VPENDBASER until Dirty = 0. */
static virq_status dirty_wait_(struct virq_gic *gic, uint32_t rd)
{
	return virq_poll64(&gic->hal, vpend_addr_(gic, rd), VPEND_DIRTY, 0, gic->timeout_ns, NULL);
}

/* ---------------- GICv4.1: vPE tables by affinity ----------------
 *
 * On GICv4.1 every redistributor reads vPE entries (VPT, VCONF, doorbell)
 * from a vPE configuration table described by its GICR_VPROPBASER (4.1
 * layout). Redistributors of one CommonLPIAff group must use the same copy
 * (IHI 0069H §12.11 GICR_TYPER.CommonLPIAff: 0 all, 1 same Aff3, 2 same
 * Aff3.Aff2, 3 same Aff3.Aff2.Aff1); an ITS whose GITS_TYPER.SVPET is not 0
 * shares its table (GITS_BASER<n> of type vPEs) with the redistributors
 * whose affinity matches GITS_MPIDR at level SVPET, and SVPET = 0 shares
 * with none (docs/rationale.md#gic-vpe-table-sharing; Linux
 * inherit_vpe_l1_table_from_its(), compute_common_aff(), compute_its_aff()).
 * A redistributor therefore takes, in order: the table of a 4.1 ITS that
 * shares with it; else the copy another redistributor of its group already
 * has; else a table of its own (allocated here, for its whole group), whose
 * level-2 pages are allocated for every vPE as the ITS's are (the GIC keeps
 * the entries in every copy; Linux allocate_vpe_l1_table(),
 * allocate_vpe_l2_table()). Own tables are allocated only once vPEs are
 * created (virq_vpe_init()), so that every ITS has had the chance to come
 * up and share first. */

/* A table this library allocated for a group: lives at the start of
 * rd->vpet.va, followed by the level-2 page array (indirect tables). */
struct vpet_ {
	struct virq_page l1; /* flat table or level 1 */
	uint32_t psz;	     /* page size in bytes */
	uint32_t esz;	     /* entry size in bytes */
	uint32_t epp;	     /* entries per page */
	uint32_t nl1;	     /* level-1 entries (indirect) */
	bool indirect, nc;
};

static struct virq_page *vpet_l2_(struct vpet_ *t)
{
	return (struct virq_page *)(t + 1);
}

/* (level, affinity above the level): the group key of CommonLPIAff / SVPET. */
static uint64_t aff_key_(uint32_t level, uint32_t aff)
{
	uint32_t mask = level ? ~(0xFFFFFFFFu >> (8 * level)) : 0;

	return ((uint64_t)level << 32) | (aff & mask);
}

static uint64_t rd_key_(const struct virq_gic_rdist *r)
{
	return aff_key_((uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_CommonLPIAff, r->typer),
			(uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Affinity_Value, r->typer));
}

/* True when @its's vPE table is shared with redistributor @r. */
static bool its_shares_(const struct virq_its *its, const struct virq_gic_rdist *r)
{
	uint32_t svpet, mask, aff;

	if (!its || its->lim.version != LIBVIRQ_ITS_V41 || !its->tbl[LIBVIRQ_ITS_TBL_VPE].baser)
		return false;
	svpet = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_SVPET, its->typer);
	if (!svpet)
		return false;
	mask = ~(0xFFFFFFFFu >> (8 * svpet));
	aff = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_TYPER_Affinity_Value, r->typer);
	return (aff & mask) == (its->mpidr & mask);
}

static void rd_vprop_set_(struct virq_gic *gic, uint32_t idx, uint64_t v)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), v);
	gic->rd[idx].vprop_cache = v;
}

/* Makes the entry of @vpeid usable in a table this library owns. */
static virq_status vpet_entry_(const struct virq_gic *gic, struct vpet_ *t, uint32_t vpeid)
{
	const struct virq_hal *hal = &gic->hal;
	uint32_t i = vpeid / t->epp;
	uint64_t *l1 = t->l1.va;
	struct virq_page *l2;
	virq_status st;

	if (!t->indirect || (l1[i] & LIBVIRQ_BIT(63)))
		return LIBVIRQ_OK;
	l2 = &vpet_l2_(t)[i];
	st = virq_page_alloc_(hal, t->psz, t->psz, l2);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st,
				     "virq_vpe_init: level-2 page of a redistributor vPE table "
				     "allocation failed",
				     vpeid);
	if (clean_if_(hal, t->nc, l2->va, l2->size) != LIBVIRQ_OK) {
		virq_page_free_(hal, l2);
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				    "virq_vpe_init: vPE table not coherent and no dcache_clean");
	}
	/* The level-1 Valid 0 -> 1 must be visible before a command relies on
	 * it (IHI 0069H §5.2), as for the ITS tables. */
	l1[i] = l2->pa | LIBVIRQ_BIT(63);
	st = clean_if_(hal, t->nc, &l1[i], sizeof(l1[i]));
	virq_barrier_(hal, LIBVIRQ_BARRIER_DMA_WMB);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				    "virq_vpe_init: vPE table not coherent and no dcache_clean");
	return LIBVIRQ_OK;
}

static void vpet_free_(const struct virq_gic *gic, struct virq_gic_rdist *r)
{
	struct vpet_ *t = r->vpet.va;

	if (!t)
		return;
	if (t->indirect)
		for (uint32_t i = 0; i < t->nl1; i++)
			virq_page_free_(&gic->hal, &vpet_l2_(t)[i]);
	virq_page_free_(&gic->hal, &t->l1);
	virq_page_free_(&gic->hal, &r->vpet);
}

/* The messages of vpet_alloc_() and vpe_table_41_(), by the public
 * function that reached them: [0] allocation failed, [1] an ITS vPE table
 * too large for GICR_VPROPBASER.Size, [2] GICR_VPROPBASER did not keep the
 * table, [3] a flat table covers fewer vPEIDs than are in use. */
#define VPET_MSG_(fn)                                                                              \
	{                                                                                          \
		fn ": redistributor vPE table allocation failed",                                  \
		    fn ": ITS vPE table too large for GICR_VPROPBASER.Size",                       \
		    fn ": GICR_VPROPBASER did not keep Valid, Physical_Address, Indirect, "        \
		       "Page_Size or "                                                             \
		       "Size as written",                                                          \
		    fn ": GICR_VPROPBASER.Indirect is RAZ/WI: the flat vPE table (at most 128 "    \
		       "pages) "                                                                   \
		       "covers fewer vPEIDs than are in use"                                       \
	}
static const char *const vpet_msg_rdist_[4] = VPET_MSG_("virq_gic_rdist_init");
static const char *const vpet_msg_its_[4] = VPET_MSG_("virq_its_init");
static const char *const vpet_msg_its_gone_[4] = VPET_MSG_("virq_its_destroy");
static const char *const vpet_msg_vpe_[4] = VPET_MSG_("virq_vpe_init");

/* Probes GICR_VPROPBASER (4.1 layout, Valid = 0) of @idx with 64 KiB pages
 * and Indirect = 1 and returns what stuck: the page size the GIC takes, the
 * read-only Entry_Size, and Indirect, RAZ/WI on a GIC that supports only
 * flat vPE tables (IHI 0069H §12.11 GICR_VPROPBASER; Linux
 * allocate_vpe_l1_table() probes the page size the same way). */
static uint64_t vpet_probe_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER);

	virq_wr64_(
	    &gic->hal, a,
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size, LIBVIRQ_GITS_BASER_PAGE_64K) |
		LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Indirect));
	return virq_rd64_(&gic->hal, a);
}

/* Shapes @t for vPEIDs 0 .. @nids - 1 from the probe @rb: two-level when
 * one page cannot hold them all and Indirect stuck; else flat, in as many
 * pages as Size can describe (128). Returns the number of level-1 (or flat)
 * pages; *cover gets the vPEIDs the table covers. */
static uint32_t vpet_shape_(struct vpet_ *t, uint64_t rb, uint64_t nids, uint64_t *cover)
{
	uint32_t code = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size, rb);
	uint64_t npg, max = LIBVIRQ_FIELD_MAX(LIBVIRQ_GICR_VPROPBASER_4_1_Size) + 1;

	t->psz = code == LIBVIRQ_GITS_BASER_PAGE_4K    ? 4096u
		 : code == LIBVIRQ_GITS_BASER_PAGE_16K ? 16384u
						       : 65536u; /* 0b11 is 64 KiB too */
	t->esz = ((uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPROPBASER_4_1_Entry_Size, rb) + 1) * 8;
	t->epp = t->psz / t->esz;
	t->indirect =
	    t->epp < nids && LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPROPBASER_4_1_Indirect, rb) != 0;
	t->nl1 = 0;
	*cover = nids;
	if (t->indirect) {
		t->nl1 = (uint32_t)((nids + t->epp - 1) / t->epp);
		return (uint32_t)(((uint64_t)t->nl1 * 8 + t->psz - 1) / t->psz);
	}
	npg = (nids + t->epp - 1) / t->epp;
	if (npg > max) {
		npg = max;
		*cover = npg * t->epp;
	}
	return (uint32_t)npg;
}

/* The descriptor page (grown for the level-2 page array) and the table
 * itself: @npg zeroed pages, cleaned when not coherent. */
static virq_status vpet_mem_(const struct virq_gic *gic, struct virq_gic_rdist *r, uint32_t npg)
{
	const struct virq_hal *hal = &gic->hal;
	struct vpet_ *t = r->vpet.va;
	uint64_t need = sizeof(*t) + (uint64_t)t->nl1 * sizeof(struct virq_page);
	virq_status st = LIBVIRQ_OK;

	if (need > r->vpet.size) {
		struct virq_page big;

		st = virq_page_alloc_(hal, round_up_(need, 4096), 4096, &big);
		if (st != LIBVIRQ_OK)
			return st;
		memcpy(big.va, t, sizeof(*t));
		virq_page_free_(hal, &r->vpet);
		r->vpet = big;
		t = r->vpet.va;
	}
	st = virq_page_alloc_(hal, (size_t)npg * t->psz, t->psz, &t->l1);
	if (st == LIBVIRQ_OK && clean_if_(hal, t->nc, t->l1.va, t->l1.size) != LIBVIRQ_OK)
		st = LIBVIRQ_ENOHAL;
	return st;
}

/* Writes @v (Valid = 1) and reads it back: Valid, the address, Indirect,
 * Page_Size and Size must have stuck (the attributes may differ). */
static virq_status vpet_program_(struct virq_gic *gic, uint32_t idx, uint64_t v,
				 const char *const msg[4])
{
	const uint64_t keep = LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Valid) |
			      LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_Physical_Address) |
			      LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Indirect) |
			      LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size) |
			      LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Size);
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), rb;

	virq_wr64_(&gic->hal, a, v);
	rb = virq_rd64_(&gic->hal, a);
	if ((rb ^ v) & keep) {
		virq_wr64_(&gic->hal, a, 0);
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EHW, msg[2], idx, v, rb);
	}
	gic->rd[idx].vprop_cache = rb;
	return LIBVIRQ_OK;
}

/* Allocates a vPE table for @idx's group (Linux allocate_vpe_l1_table()):
 * probes it, shapes it for every vPEID that can be handed out (fewer when a
 * flat table cannot cover them: from then on no larger vPEID is handed
 * out), programs Valid and Z (the table is zero) and reads it back, then
 * backs the entry of every vPE that exists already. */
static virq_status vpet_alloc_(struct virq_gic *gic, uint32_t idx, const char *const msg[4])
{
	const struct virq_hal *hal = &gic->hal;
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t rb = vpet_probe_(gic, idx), cover;
	uint32_t npg;
	struct vpet_ *t;
	virq_status st;

	st = virq_page_alloc_(hal, 4096, 4096, &r->vpet); /* descriptor; grown by vpet_mem_() */
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(hal, st, msg[0]);
	t = r->vpet.va;
	t->nc = gic->rd_noncoherent;
	npg = vpet_shape_(t, rb, gic->vpeid_limit, &cover);
	if (!virq_vpeid_cap_(gic, (uint32_t)cover)) {
		virq_page_free_(hal, &r->vpet);
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOSPC, msg[3], idx, rb, cover);
	}
	st = vpet_mem_(gic, r, npg);
	if (st != LIBVIRQ_OK) {
		vpet_free_(gic, r);
		return LIBVIRQ_FAILV(hal, st, msg[0], idx);
	}
	t = r->vpet.va; /* vpet_mem_() may have moved it */
	st = vpet_program_(
	    gic, idx,
	    virq_gic_vprop41_image_(
		t->l1.pa, (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size, rb),
		rb, t->indirect, npg, t->nc),
	    msg);
	if (st != LIBVIRQ_OK) {
		vpet_free_(gic, r);
		return st;
	}
	r->vpet_rd = idx;
	/* Entries of the vPEs that exist already (a redistributor brought up
	 * after vPEs were created). */
	for (uint32_t id = 0; id < gic->vpeid_limit && st == LIBVIRQ_OK; id++)
		if (virq_vpeid_used_(gic, id))
			st = vpet_entry_(gic, r->vpet.va, id);
	return st;
}

/* Points redistributor @idx at the vPE table its affinity calls for;
 * with @own, allocates one for its group when nothing can be shared. */
static virq_status vpe_table_41_(struct virq_gic *gic, uint32_t idx, bool own,
				 const char *const msg[4])
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t key, v;
	virq_status st;

	if (gic->version != LIBVIRQ_GIC_V4_1 || !(r->flags & LIBVIRQ_RDIST_VPE_READY) ||
	    r->vprop_cache)
		return LIBVIRQ_OK;
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		const struct virq_its *its = gic->its[i];

		if (!its_shares_(its, r))
			continue;
		st = virq_gic_vprop41_from_baser_(its->tbl[LIBVIRQ_ITS_TBL_VPE].baser, &v);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV(&gic->hal, st, msg[1],
					     its->tbl[LIBVIRQ_ITS_TBL_VPE].baser);
		rd_vprop_set_(gic, idx, v);
		r->vpet_rd = LIBVIRQ_VPEID_NONE;
		return LIBVIRQ_OK;
	}
	key = rd_key_(r);
	for (uint32_t j = 0; j < gic->nr_rd; j++) {
		if (j == idx || !gic->rd[j].vprop_cache || rd_key_(&gic->rd[j]) != key)
			continue;
		/* The group's copy, live: Z = 0 (Z = 1 would tell the GIC it is
		 * zero; Linux clears it when it inherits a table too). */
		rd_vprop_set_(gic, idx,
			      gic->rd[j].vprop_cache &
				  ~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Z));
		r->vpet_rd = gic->rd[j].vpet_rd;
		return LIBVIRQ_OK;
	}
	return own ? vpet_alloc_(gic, idx, msg) : LIBVIRQ_OK;
}

virq_status virq_rdist_vpe_tables_attach_(struct virq_gic *gic)
{
	virq_status st = LIBVIRQ_OK;

	/* A table this library allocated must not be shadowed by a sharing ITS
	 * that comes up later: the group would then use two copies. */
	for (uint32_t r = 0; r < gic->nr_rd; r++) {
		struct virq_gic_rdist *rd = &gic->rd[r];

		if (rd->vpet_rd == LIBVIRQ_VPEID_NONE || !rd->vprop_cache)
			continue;
		for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
			if (its_shares_(gic->its[i], rd))
				return LIBVIRQ_FAILV(
				    &gic->hal, LIBVIRQ_EBUSY,
				    "virq_its_init: a GICv4.1 ITS that shares its vPE "
				    "table came up after vPEs exist (initialise every "
				    "ITS before the first vPE)",
				    gic->its[i]->base, r);
	}
	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		st = vpe_table_41_(gic, r, gic->vpet_own, vpet_msg_its_);
	return st;
}

/* Re-attach after an ITS went away: only what can be shared (no vPE
 * exists on a GIC whose 4.1 ITS is gone; virq_vpe_init() allocates). */
static void reattach_(struct virq_gic *gic)
{
	for (uint32_t r = 0; r < gic->nr_rd; r++)
		if (vpe_table_41_(gic, r, false, vpet_msg_its_gone_) != LIBVIRQ_OK)
			break; /* leaves VPROPBASER invalid: no 4.1 vPE runs there */
}

virq_status virq_rdist_vpe_entry_ensure_(struct virq_gic *gic, uint32_t vpeid)
{
	virq_status st = LIBVIRQ_OK;

	if (gic->version != LIBVIRQ_GIC_V4_1)
		return LIBVIRQ_OK;
	gic->vpet_own = true; /* from the first vPE on, groups nobody shares with get a table */
	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		st = vpe_table_41_(gic, r, true, vpet_msg_vpe_);
	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		if (gic->rd[r].vpet.va)
			st = vpet_entry_(gic, gic->rd[r].vpet.va, vpeid);
	return st;
}

void virq_rdist_vpe_tables_detach_(struct virq_gic *gic, const struct virq_its *its)
{
	uint64_t v;

	if (its->lim.version != LIBVIRQ_ITS_V41 || !its->tbl[LIBVIRQ_ITS_TBL_VPE].baser ||
	    virq_gic_vprop41_from_baser_(its->tbl[LIBVIRQ_ITS_TBL_VPE].baser, &v) != LIBVIRQ_OK)
		return;
	for (uint32_t r = 0; r < gic->nr_rd; r++) {
		struct virq_gic_rdist *rd = &gic->rd[r];

		if (rd->vprop_cache != v)
			continue;
		rd_vprop_set_(gic, r, 0);
	}
	reattach_(gic); /* the caller unregistered @its first: another ITS, or a group copy */
}

void virq_rdist_vpe_tables_free_(struct virq_gic *gic)
{
	for (uint32_t r = 0; r < gic->nr_rd; r++)
		vpet_free_(gic, &gic->rd[r]);
}

/* ---------------- residency registers (docs/rationale.md#gic-vpe-residency-init) ----------------
 */

static virq_status vpe_reset_(struct virq_gic *gic, uint32_t idx)
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t va = vpend_addr_(gic, idx);
	uint64_t v = virq_rd64_(&gic->hal, va);

	if (v & VPEND_VALID) {
		/* A stale resident vPE (kexec, docs/rationale.md#gic-vpe-residency-init): clear
		 * Valid and wait for the VPT parse to finish. On 4.1 write PendingLast only. */
		uint64_t w = gic->version == LIBVIRQ_GIC_V4_1 ? VPEND_PL
							      : (v & ~(VPEND_VALID | VPEND_DIRTY));

		virq_status st;

		virq_wr64_(&gic->hal, va, w);
		st = dirty_wait_(gic, idx);
		if (st != LIBVIRQ_OK) {
			LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "gicr: VPENDBASER.Dirty stuck",
				     idx);
			return LIBVIRQ_FAILV(&gic->hal, st,
					     "virq_gic_rdist_init: stale VPENDBASER.Valid cleared, "
					     "Dirty never cleared",
					     idx);
		}
	}
	r->vpend = 0;
	r->resident_vpe = LIBVIRQ_VPEID_NONE;
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		uint64_t pa = rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER);

		if (virq_rd64_(&gic->hal, pa) &
		    LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Valid))
			virq_wr64_(&gic->hal, pa, 0);
		r->vprop_cache = 0;
		r->vpet_rd = LIBVIRQ_VPEID_NONE;
		r->flags |= LIBVIRQ_RDIST_VPE_READY;
		/* The vPE table its affinity calls for (an own one once vPEs exist). */
		return vpe_table_41_(gic, idx, gic->vpet_own, vpet_msg_rdist_);
	} else {
		/* 4.0: IDbits must cover every vINTID before the first schedule,
		 * or vLPIs sent here are dropped (docs/rationale.md#gic-vpe-residency-init). */
		r->vprop_cache =
		    LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_VPROPBASER_IDbits, gic->lpi_bits - 1);
		virq_wr64_(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), r->vprop_cache);
	}
	r->flags |= LIBVIRQ_RDIST_VPE_READY;
	return LIBVIRQ_OK;
}

/* ---------------- redistributor LPI bring-up ---------------- */

static virq_status rd_wait_rwp_(struct virq_gic *gic, uint32_t idx, uint32_t want_ctlr_mask,
				uint32_t want)
{
	return virq_poll32(&gic->hal, rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR),
			   (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_RWP) | want_ctlr_mask,
			   want, gic->timeout_ns, NULL);
}

static virq_status rd_lpis_off_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR);
	uint32_t ctlr = virq_rd32_(&gic->hal, a);
	uint32_t en = (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_EnableLPIs);
	virq_status st;

	if (!(ctlr & en))
		return LIBVIRQ_OK;
	/* Left enabled by a previous kernel (kexec). Clearing is IMPLEMENTATION
	 * DEFINED (IHI 0069H §12.11.2); wait for RWP (bit 3) and check. */
	virq_wr32_(&gic->hal, a, ctlr & ~en);
	st = rd_wait_rwp_(gic, idx, 0, 0);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&gic->hal, st,
				     "virq_gic_rdist_init: GICR_CTLR.RWP stayed set after clearing "
				     "EnableLPIs",
				     idx);
	if (virq_rd32_(&gic->hal, a) & en) {
		LIBVIRQ_LOGV(&gic->hal, LIBVIRQ_LOG_ERROR, "gicr: EnableLPIs stuck at 1", idx);
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EBUSY,
				     "virq_gic_rdist_init: EnableLPIs left on by a previous kernel "
				     "does not clear",
				     idx);
	}
	return LIBVIRQ_OK;
}

static virq_status rd_wake_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_WAKER);
	uint32_t w = virq_rd32_(&gic->hal, a);

	virq_wr32_(&gic->hal, a,
		   w & (uint32_t)~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ProcessorSleep));
	/* A real bounded poll (docs/rationale.md#gic-rd-bringup-order: Xen's loop ran once). */
	if (virq_poll32(&gic->hal, a,
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ChildrenAsleep), 0,
			gic->timeout_ns, NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_ETIMEDOUT,
				     "virq_gic_rdist_init: GICR_WAKER.ChildrenAsleep stayed set",
				     idx);
	return LIBVIRQ_OK;
}

/* Writes @want to a GICR *BASER with IC/Sh/OC at [9:7]/[11:10]/[58:56] and
 * adapts to what stuck (docs/rationale.md#gic-table-attributes). Returns the final value in *out
 * and whether the table needs cleaning in *nc. */
static virq_status rd_baser_negotiate_(struct virq_gic *gic, uint64_t addr, uint64_t want,
				       uint64_t pa_mask, uint64_t *out, bool *nc)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t rb, sh, ic;

	if (gic->rd_forced_nc) {
		want = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_Shareability, want,
					 LIBVIRQ_GIC_SH_NONE);
		want = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_InnerCache, want,
					 LIBVIRQ_GIC_CACHE_nC);
		want = LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_OuterCache, want, 0);
	}
	virq_wr64_(hal, addr, want);
	rb = virq_rd64_(hal, addr);
	if ((rb & pa_mask) != (want & pa_mask))
		return LIBVIRQ_FAILV(
		    hal, LIBVIRQ_EHW,
		    "virq_gic_rdist_init: PROPBASER/PENDBASER address or IDbits did "
		    "not stick",
		    addr, want, rb);
	sh = LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_Shareability, rb);
	ic = LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb);
	if (!gic->rd_forced_nc && sh == LIBVIRQ_GIC_SH_NONE && ic != LIBVIRQ_GIC_CACHE_nC) {
		/* Not shareable: make it non-cacheable too; only InnerCache changes.
		 * PENDBASER.PTZ is write-only (reads as 0): keep what was written
		 * (bit 62 is RES0 in PROPBASER, and @want has it clear there). */
		rb =
		    LIBVIRQ_FIELD_SET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb, LIBVIRQ_GIC_CACHE_nC) |
		    (want & LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PENDBASER_PTZ));
		virq_wr64_(hal, addr, rb);
		rb = virq_rd64_(hal, addr);
		ic = LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb);
	}
	*out = rb;
	*nc = gic->rd_forced_nc || attr_noncoherent_(sh, ic);
	return LIBVIRQ_OK;
}

static uint64_t rd_attr_default_(void)
{
	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_InnerCache, LIBVIRQ_GIC_CACHE_RaWaWb) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_Shareability, LIBVIRQ_GIC_SH_INNER);
}

static virq_status rd_prop_(struct virq_gic *gic, uint32_t idx)
{
	uint64_t want = gic->prop.pa |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_IDbits, gic->lpi_bits - 1) |
			rd_attr_default_();
	bool nc = false;
	virq_status st;

	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PROPBASER_Physical_Address, gic->prop.pa))
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EALIGN,
				     "virq_gic_rdist_init: configuration table PA does not fit "
				     "GICR_PROPBASER",
				     gic->prop.pa);
	st = rd_baser_negotiate_(gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PROPBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_Physical_Address) |
				     LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_IDbits),
				 &gic->propbaser, &nc);
	if (st != LIBVIRQ_OK)
		return st;
	if (nc && !gic->rd_noncoherent) {
		gic->rd_noncoherent = true;
		if (clean_if_(&gic->hal, true, gic->prop.va, gic->prop.size) != LIBVIRQ_OK)
			return LIBVIRQ_FAIL(&gic->hal, LIBVIRQ_ENOHAL,
					    "virq_gic_rdist_init: tables not coherent and the HAL "
					    "has no dcache_clean");
	}
	return LIBVIRQ_OK;
}

static virq_status rd_pend_(struct virq_gic *gic, uint32_t idx)
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t size = round_up_((1ull << gic->lpi_bits) / 8, 0x10000);
	uint64_t want, got;
	bool nc = false;
	virq_status st;

	if (!r->pend.va) {
		st = virq_page_alloc_(&gic->hal, size, 0x10000, &r->pend);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV(&gic->hal, st,
					     "virq_gic_rdist_init: pending table allocation failed",
					     idx);
	} else {
		memset(r->pend.va, 0, r->pend.size);
	}
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PENDBASER_Physical_Address, r->pend.pa)) {
		st = LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EALIGN,
				   "virq_gic_rdist_init: pending table PA does not fit "
				   "GICR_PENDBASER",
				   r->pend.pa);
		goto fail;
	}
	want = r->pend.pa | rd_attr_default_() | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PENDBASER_PTZ, 1);
	st = rd_baser_negotiate_(gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PENDBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PENDBASER_Physical_Address), &got,
				 &nc);
	if (st == LIBVIRQ_OK && nc) {
		gic->rd_noncoherent = true;
		if (clean_if_(&gic->hal, true, r->pend.va, r->pend.size) != LIBVIRQ_OK)
			st =
			    LIBVIRQ_FAIL(&gic->hal, LIBVIRQ_ENOHAL,
					 "virq_gic_rdist_init: tables not coherent and the HAL has "
					 "no dcache_clean");
	}
	if (st == LIBVIRQ_OK)
		return LIBVIRQ_OK;
fail:
	virq_page_free_(&gic->hal, &r->pend);
	return st;
}

virq_status virq_gic_rdist_init(struct virq_gic *gic, uint32_t idx)
{
	uint64_t a;
	uint32_t en = (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_EnableLPIs);
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_gic_rdist_init: gic not live");
	if (idx >= gic->nr_rd)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EINVAL,
				     "virq_gic_rdist_init: redistributor index >= nr_rd", idx);
	if (gic->rd[idx].flags & LIBVIRQ_RDIST_LPIS_ON)
		return LIBVIRQ_FAILV(&gic->hal, LIBVIRQ_EBUSY,
				     "virq_gic_rdist_init: redistributor already initialised", idx);
	/* (1) Residency registers first, so a kexec'd RD with LPIs left on
	 * still gets them (docs/rationale.md#gic-vpe-residency-init). */
	if (gic->version >= LIBVIRQ_GIC_V4_0) {
		st = vpe_reset_(gic, idx);
		if (st != LIBVIRQ_OK)
			return st;
	}
	st = rd_lpis_off_(gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_wake_(gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_prop_(gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_pend_(gic, idx);
	if (st != LIBVIRQ_OK)
		return st;
	/* (5) Tables visible before EnableLPIs; EnableLPIs visible (RWP clear)
	 * before any MAPC names this RD (docs/rationale.md#gic-rd-bringup-order). */
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_DMA_WMB);
	a = rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR);
	virq_wr32_(&gic->hal, a, virq_rd32_(&gic->hal, a) | en);
	st = rd_wait_rwp_(gic, idx, en, en);
	if (st != LIBVIRQ_OK) /* the pending table stays allocated: the RD may use it */
		return LIBVIRQ_FAILV(&gic->hal, st,
				     "virq_gic_rdist_init: EnableLPIs not visible (RWP set or "
				     "EnableLPIs reads 0)",
				     idx);
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_FULL);
	gic->rd[idx].flags |= LIBVIRQ_RDIST_LPIS_ON;
	return LIBVIRQ_OK;
}
