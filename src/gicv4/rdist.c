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
#include "its_table_priv.h"
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
static virq_status vpet_entry_(const char *api, const struct virq_gic *gic, struct vpet_ *t,
			       uint32_t vpeid)
{
	const struct virq_hal *hal = &gic->hal;
	uint32_t i = vpeid / t->epp;
	uint64_t *l1 = t->l1.va;
	struct virq_page *l2;
	virq_status st;

	if (!t->indirect || (l1[i] & LIBVIRQ_BIT(63)))
		return LIBVIRQ_OK;
	l2 = &vpet_l2_(t)[i];
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, t->psz, t->psz, l2,
				 "level-2 page of a redistributor vPE table");
	if (st != LIBVIRQ_OK)
		return st;
	if (clean_if_(hal, t->nc, l2->va, l2->size) != LIBVIRQ_OK) {
		virq_page_free_(hal, l2);
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "redistributor vPE table not coherent and dcache_clean=NULL");
	}
	/* The level-1 Valid 0 -> 1 must be visible before a command relies on
	 * it (IHI 0069H §5.2), as for the ITS tables. */
	l1[i] = l2->pa | LIBVIRQ_BIT(63);
	st = clean_if_(hal, t->nc, &l1[i], sizeof(l1[i]));
	virq_barrier_(hal, LIBVIRQ_BARRIER_DMA_WMB);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "redistributor vPE table not coherent and dcache_clean=NULL");
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
static virq_status vpet_mem_(const char *api, const struct virq_gic *gic, struct virq_gic_rdist *r,
			     uint32_t npg)
{
	const struct virq_hal *hal = &gic->hal;
	struct vpet_ *t = r->vpet.va;
	uint64_t need = sizeof(*t) + (uint64_t)t->nl1 * sizeof(struct virq_page);
	virq_status st = LIBVIRQ_OK;

	if (need > r->vpet.size) {
		struct virq_page big;

		st = LIBVIRQ_PAGE_ALLOC_(api, hal, round_up_(need, 4096), 4096, &big,
					 "redistributor vPE table level-2 list");
		if (st != LIBVIRQ_OK)
			return st;
		memcpy(big.va, t, sizeof(*t));
		virq_page_free_(hal, &r->vpet);
		r->vpet = big;
		t = r->vpet.va;
	}
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, (size_t)npg * t->psz, t->psz, &t->l1,
				 "redistributor vPE table");
	if (st == LIBVIRQ_OK && clean_if_(hal, t->nc, t->l1.va, t->l1.size) != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				   "redistributor vPE table not coherent and dcache_clean=NULL");
	return st;
}

/* Writes @v (4.1 layout, Valid = 1) to @idx's GICR_VPROPBASER and reads it
 * back: Valid, the address, Indirect, Page_Size and Size must have stuck
 * (the attributes may differ: vlpi_attrs_probe_() went by them). */
static virq_status vpet_program_(const char *api, struct virq_gic *gic, uint32_t idx, uint64_t v)
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
		rd_vprop_set_(gic, idx, 0);
		return LIBVIRQ_FAILV_(
		    api, &gic->hal, LIBVIRQ_EHW,
		    "redistributor %u: GICR_VPROPBASER wrote %x, read back %x "
		    "(Valid, Physical_Address, Indirect, Page_Size or Size did not "
		    "stick)",
		    idx, v, rb);
	}
	gic->rd[idx].vprop_cache = v;
	return LIBVIRQ_OK;
}

/* Allocates a vPE table for @idx's group (Linux allocate_vpe_l1_table()):
 * probes it, shapes it for every vPEID that can be handed out (fewer when a
 * flat table cannot cover them: from then on no larger vPEID is handed
 * out), programs Valid and Z (the table is zero) and reads it back, then
 * backs the entry of every vPE that exists already. */
static virq_status vpet_alloc_(const char *api, struct virq_gic *gic, uint32_t idx)
{
	const struct virq_hal *hal = &gic->hal;
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t rb = vpet_probe_(gic, idx), cover;
	uint32_t npg;
	struct vpet_ *t;
	virq_status st;

	st = LIBVIRQ_PAGE_ALLOC_(api, hal, 4096, 4096, &r->vpet, /* grown by vpet_mem_() */
				 "redistributor vPE table descriptor");
	if (st != LIBVIRQ_OK)
		return st;
	t = r->vpet.va;
	t->nc = gic->rd_noncoherent;
	npg = vpet_shape_(t, rb, gic->vpeid_limit, &cover);
	if (!virq_vpeid_cap_(gic, (uint32_t)cover)) {
		virq_page_free_(hal, &r->vpet);
		return LIBVIRQ_FAILV_(
		    api, hal, LIBVIRQ_ENOSPC,
		    "redistributor %u: GICR_VPROPBASER.Indirect is RAZ/WI, the flat "
		    "vPE table covers %u vPEIDs, fewer than are in use",
		    idx, cover);
	}
	st = vpet_mem_(api, gic, r, npg);
	if (st != LIBVIRQ_OK) {
		vpet_free_(gic, r);
		return st;
	}
	t = r->vpet.va; /* vpet_mem_() may have moved it */
	st = vpet_program_(
	    api, gic, idx,
	    virq_gic_vprop41_image_(
		t->l1.pa, (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_VPROPBASER_4_1_Page_Size, rb),
		rb, t->indirect, npg, t->nc));
	if (st != LIBVIRQ_OK) {
		vpet_free_(gic, r);
		return st;
	}
	r->vpet_rd = idx;
	/* Entries of the vPEs that exist already (a redistributor brought up
	 * after vPEs were created). */
	for (uint32_t id = 0; id < gic->vpeid_limit && st == LIBVIRQ_OK; id++)
		if (virq_vpeid_used_(gic, id))
			st = vpet_entry_(api, gic, r->vpet.va, id);
	return st;
}

/* Points redistributor @idx at the vPE table its affinity calls for;
 * with @own, allocates one for its group when nothing can be shared. */
static virq_status vpe_table_41_(const char *api, struct virq_gic *gic, uint32_t idx, bool own)
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
			return LIBVIRQ_FAILV_(api, &gic->hal, st,
					      "ITS at %x: vPE table GITS_BASER=%x does not fit "
					      "GICR_VPROPBASER",
					      its->base, its->tbl[LIBVIRQ_ITS_TBL_VPE].baser);
		/* A redistributor that reads the table past the caches: the
		 * ITS cleans it from now on (and all of it now). */
		if (gic->rd_noncoherent &&
		    virq_its_tbl_noncoherent_(gic->its[i], LIBVIRQ_ITS_TBL_VPE) != LIBVIRQ_OK)
			return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_ENOHAL,
					     "redistributors not coherent, an ITS vPE table shared "
					     "with them, and dcache_clean=NULL");
		r->vpet_rd = LIBVIRQ_VPEID_NONE;
		return vpet_program_(api, gic, idx, v);
	}
	key = rd_key_(r);
	for (uint32_t j = 0; j < gic->nr_rd; j++) {
		if (j == idx || !gic->rd[j].vprop_cache || rd_key_(&gic->rd[j]) != key)
			continue;
		/* The group's copy, live: Z = 0 (Z = 1 would tell the GIC it is
		 * zero; Linux clears it when it inherits a table too). */
		r->vpet_rd = gic->rd[j].vpet_rd;
		return vpet_program_(api, gic, idx,
				     gic->rd[j].vprop_cache &
					 ~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Z));
	}
	return own ? vpet_alloc_(api, gic, idx) : LIBVIRQ_OK;
}

virq_status virq_rdist_vpe_tables_attach_(const char *api, struct virq_gic *gic)
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
				return LIBVIRQ_FAILV_(
				    api, &gic->hal, LIBVIRQ_EBUSY,
				    "GICv4.1 ITS at %x shares its vPE table with redistributor "
				    "%u, which has its own since vPEs exist (initialise every ITS "
				    "before the first vPE)",
				    gic->its[i]->base, r);
	}
	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		st = vpe_table_41_(api, gic, r, gic->vpet_own);
	return st;
}

/* Re-attach after an ITS went away: only what can be shared (no vPE
 * exists on a GIC whose 4.1 ITS is gone; virq_vpe_init() allocates). */
static void reattach_(const char *api, struct virq_gic *gic)
{
	for (uint32_t r = 0; r < gic->nr_rd; r++)
		if (vpe_table_41_(api, gic, r, false) != LIBVIRQ_OK)
			break; /* leaves VPROPBASER invalid: no 4.1 vPE runs there */
}

virq_status virq_rdist_vpe_entry_ensure_(const char *api, struct virq_gic *gic, uint32_t vpeid)
{
	virq_status st = LIBVIRQ_OK;

	if (gic->version != LIBVIRQ_GIC_V4_1)
		return LIBVIRQ_OK;
	gic->vpet_own = true; /* from the first vPE on, groups nobody shares with get a table */
	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		st = vpe_table_41_(api, gic, r, true);
	for (uint32_t r = 0; r < gic->nr_rd && st == LIBVIRQ_OK; r++)
		if (gic->rd[r].vpet.va)
			st = vpet_entry_(api, gic, gic->rd[r].vpet.va, vpeid);
	return st;
}

void virq_rdist_vpe_tables_detach_(const char *api, struct virq_gic *gic,
				   const struct virq_its *its)
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
	reattach_(api, gic); /* the caller unregistered @its first: another ITS, or a group copy */
}

void virq_rdist_vpe_tables_free_(struct virq_gic *gic)
{
	for (uint32_t r = 0; r < gic->nr_rd; r++)
		vpet_free_(gic, &gic->rd[r]);
}

/* ---------------- coherence of the redistributors' tables ---------------- */

/* From now on every table a redistributor reads is cleaned to PoC
 * (virq_gic::rd_noncoherent): the LPI configuration table is cleaned now.
 * Refused (EBUSY) when VMs exist: their tables were not cleaned. @reg is the
 * GICR_*BASER offset that read back @rb. */
static virq_status rd_nc_now_(const char *api, struct virq_gic *gic, uint32_t idx, uint32_t reg,
			      uint64_t rb)
{
	if (gic->rd_noncoherent)
		return LIBVIRQ_OK;
	if (gic->nr_vms)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EBUSY,
				      "redistributor %u: GICR offset %x reads %x, Non-shareable or "
				      "non-cacheable, while %u VMs exist whose tables were not "
				      "cleaned (bring every redistributor up before the first VM)",
				      idx, reg, rb, gic->nr_vms);
	gic->rd_noncoherent = true;
	if (clean_if_(&gic->hal, true, gic->prop.va, gic->prop.size) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_ENOHAL,
				     "LPI configuration table not coherent and dcache_clean=NULL");
	return LIBVIRQ_OK;
}

/* rd_nc_now_() when the attributes of a GICR_*BASER read back as @rb are
 * not coherent (Shareability [11:10], InnerCache [9:7] and OuterCache
 * [58:56] in every one of them). */
static virq_status rd_nc_if_(const char *api, struct virq_gic *gic, uint32_t idx, uint32_t reg,
			     uint64_t rb)
{
	if (!attr_noncoherent_(LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_Shareability, rb),
			       LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_InnerCache, rb),
			       LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_OuterCache, rb)))
		return LIBVIRQ_OK;
	return rd_nc_now_(api, gic, idx, reg, rb);
}

/* The attributes a redistributor keeps in the registers that name vLPI
 * tables, written as the library programs them (Valid = 0): on GICv4.0
 * GICR_VPROPBASER (a VM's vLPI configuration table) and GICR_VPENDBASER (a
 * VPT), on GICv4.1 GICR_VPROPBASER (the vPE table). Each may be fixed
 * (IHI 0069H §12.11): not coherent, every redistributor table is cleaned
 * from now on, and the residency images say Non-shareable, non-cacheable. */
static virq_status vlpi_attrs_probe_(const char *api, struct virq_gic *gic, uint32_t idx)
{
	const struct virq_hal *hal = &gic->hal;
	uint64_t prop = rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER), rb;
	uint64_t pend = vpend_addr_(gic, idx);
	virq_status st;

	if (gic->version == LIBVIRQ_GIC_V4_1) {
		virq_wr64_(hal, prop,
			   virq_gic_vprop41_image_(0, LIBVIRQ_GITS_BASER_PAGE_64K, 0, false, 1,
						   gic->rd_noncoherent) &
			       ~(LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Valid) |
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Z)));
		rb = virq_rd64_(hal, prop);
		virq_wr64_(hal, prop, 0);
		return rd_nc_if_(api, gic, idx, LIBVIRQ_GICR_VPROPBASER, rb);
	}
	virq_wr64_(hal, prop, virq_gic_vprop40_image_(0, gic->lpi_bits, gic->rd_noncoherent));
	st = rd_nc_if_(api, gic, idx, LIBVIRQ_GICR_VPROPBASER, virq_rd64_(hal, prop));
	if (st != LIBVIRQ_OK)
		return st;
	virq_wr64_(hal, pend,
		   virq_gic_vpend40_image_(0, false, gic->rd_noncoherent) &
		       ~(VPEND_VALID | VPEND_PL));
	rb = virq_rd64_(hal, pend);
	virq_wr64_(hal, pend, 0);
	return rd_nc_if_(api, gic, idx, LIBVIRQ_GICR_VPENDBASER, rb);
}

/* ---------------- residency registers (docs/rationale.md#gic-vpe-residency-init) ----------------
 */

static virq_status vpe_reset_(const char *api, struct virq_gic *gic, uint32_t idx)
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
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV_(
			    api, &gic->hal, st,
			    "redistributor %u: stale GICR_VPENDBASER.Valid cleared, "
			    "Dirty still 1 after timeout_ns=%u",
			    idx, gic->timeout_ns);
	}
	r->vpend = 0;
	r->resident_vpe = LIBVIRQ_VPEID_NONE;
	if (gic->version == LIBVIRQ_GIC_V4_1) {
		uint64_t pa = rd_addr_(gic, idx, LIBVIRQ_GICR_VPROPBASER);
		virq_status st;

		if (virq_rd64_(&gic->hal, pa) &
		    LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_VPROPBASER_4_1_Valid))
			virq_wr64_(&gic->hal, pa, 0);
		st = vlpi_attrs_probe_(api, gic, idx);
		if (st != LIBVIRQ_OK)
			return st;
		r->vprop_cache = 0;
		r->vpet_rd = LIBVIRQ_VPEID_NONE;
		r->flags |= LIBVIRQ_RDIST_VPE_READY;
		/* The vPE table its affinity calls for (an own one once vPEs exist). */
		return vpe_table_41_(api, gic, idx, gic->vpet_own);
	} else {
		virq_status st = vlpi_attrs_probe_(api, gic, idx);

		if (st != LIBVIRQ_OK)
			return st;
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

static virq_status rd_lpis_off_(const char *api, struct virq_gic *gic, uint32_t idx)
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
		return LIBVIRQ_FAILV_(api, &gic->hal, st,
				      "redistributor %u: GICR_CTLR.RWP still 1 after clearing "
				      "EnableLPIs (timeout_ns=%u)",
				      idx, gic->timeout_ns);
	if (virq_rd32_(&gic->hal, a) & en)
		return LIBVIRQ_FAILV_(
		    api, &gic->hal, LIBVIRQ_EBUSY,
		    "redistributor %u: GICR_CTLR.EnableLPIs left on by a previous "
		    "kernel does not clear",
		    idx);
	return LIBVIRQ_OK;
}

static virq_status rd_wake_(const char *api, struct virq_gic *gic, uint32_t idx)
{
	uint64_t a = rd_addr_(gic, idx, LIBVIRQ_GICR_WAKER);
	uint32_t w = virq_rd32_(&gic->hal, a);

	virq_wr32_(&gic->hal, a,
		   w & (uint32_t)~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ProcessorSleep));
	/* A real bounded poll (docs/rationale.md#gic-rd-bringup-order: Xen's loop ran once). */
	if (virq_poll32(&gic->hal, a,
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_WAKER_ChildrenAsleep), 0,
			gic->timeout_ns, NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ETIMEDOUT,
				      "redistributor %u: GICR_WAKER.ChildrenAsleep still 1 after "
				      "timeout_ns=%u",
				      idx, gic->timeout_ns);
	return LIBVIRQ_OK;
}

/* Writes @want to a GICR *BASER with IC/Sh/OC at [9:7]/[11:10]/[58:56] and
 * adapts to what stuck (docs/rationale.md#gic-table-attributes). Returns the final value in *out
 * and whether the table needs cleaning in *nc. */
static virq_status rd_baser_negotiate_(const char *api, struct virq_gic *gic, uint64_t addr,
				       uint64_t want, uint64_t pa_mask, uint64_t *out, bool *nc)
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
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EHW,
				      "register at %x: wrote %x, read back %x (address or IDbits "
				      "did not stick)",
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
	*nc = gic->rd_forced_nc ||
	      attr_noncoherent_(sh, ic, LIBVIRQ_FIELD_GET(LIBVIRQ_GICR_PROPBASER_OuterCache, rb));
	return LIBVIRQ_OK;
}

static uint64_t rd_attr_default_(void)
{
	return LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_InnerCache, LIBVIRQ_GIC_CACHE_RaWaWb) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_Shareability, LIBVIRQ_GIC_SH_INNER);
}

static virq_status rd_prop_(const char *api, struct virq_gic *gic, uint32_t idx)
{
	uint64_t want = gic->prop.pa |
			LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PROPBASER_IDbits, gic->lpi_bits - 1) |
			rd_attr_default_();
	bool nc = false;
	virq_status st;

	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PROPBASER_Physical_Address, gic->prop.pa))
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EALIGN,
				      "LPI configuration table pa=%x does not fit "
				      "GICR_PROPBASER.Physical_Address",
				      gic->prop.pa);
	st = rd_baser_negotiate_(api, gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PROPBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_Physical_Address) |
				     LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PROPBASER_IDbits),
				 &gic->propbaser, &nc);
	if (st != LIBVIRQ_OK)
		return st;
	return nc ? rd_nc_now_(api, gic, idx, LIBVIRQ_GICR_PROPBASER, gic->propbaser) : LIBVIRQ_OK;
}

static virq_status rd_pend_(const char *api, struct virq_gic *gic, uint32_t idx)
{
	struct virq_gic_rdist *r = &gic->rd[idx];
	uint64_t size = round_up_((1ull << gic->lpi_bits) / 8, 0x10000);
	uint64_t want, got;
	bool nc = false;
	virq_status st;

	if (!r->pend.va) {
		st = LIBVIRQ_PAGE_ALLOC_(api, &gic->hal, size, 0x10000, &r->pend,
					 "LPI pending table");
		if (st != LIBVIRQ_OK)
			return st;
	} else {
		memset(r->pend.va, 0, r->pend.size);
	}
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_GICR_PENDBASER_Physical_Address, r->pend.pa)) {
		st = LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EALIGN,
				    "LPI pending table pa=%x does not fit "
				    "GICR_PENDBASER.Physical_Address",
				    r->pend.pa);
		goto fail;
	}
	want = r->pend.pa | rd_attr_default_() | LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_PENDBASER_PTZ, 1);
	st = rd_baser_negotiate_(api, gic, rd_addr_(gic, idx, LIBVIRQ_GICR_PENDBASER), want,
				 LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_PENDBASER_Physical_Address), &got,
				 &nc);
	if (st == LIBVIRQ_OK && nc)
		st = rd_nc_now_(api, gic, idx, LIBVIRQ_GICR_PENDBASER, got);
	if (st == LIBVIRQ_OK && nc) {
		if (clean_if_(&gic->hal, true, r->pend.va, r->pend.size) != LIBVIRQ_OK)
			st = LIBVIRQ_FAIL_(api, &gic->hal, LIBVIRQ_ENOHAL,
					   "LPI pending table not coherent and dcache_clean=NULL");
	}
	if (st == LIBVIRQ_OK)
		return LIBVIRQ_OK;
fail:
	virq_page_free_(&gic->hal, &r->pend);
	return st;
}

virq_status virq_gic_rdist_init(struct virq_gic *gic, uint32_t idx)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint64_t a;
	uint32_t en = (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_CTLR_EnableLPIs);
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	if (idx >= gic->nr_rd)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EINVAL, "idx=%u >= nr_rd=%u", idx,
				      gic->nr_rd);
	if (gic->rd[idx].flags & LIBVIRQ_RDIST_LPIS_ON)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EBUSY,
				      "redistributor %u already initialised", idx);
	/* (1) Residency registers first, so a kexec'd RD with LPIs left on
	 * still gets them (docs/rationale.md#gic-vpe-residency-init). */
	if (gic->version >= LIBVIRQ_GIC_V4_0) {
		st = vpe_reset_(api, gic, idx);
		if (st != LIBVIRQ_OK)
			return st;
	}
	st = rd_lpis_off_(api, gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_wake_(api, gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_prop_(api, gic, idx);
	if (st == LIBVIRQ_OK)
		st = rd_pend_(api, gic, idx);
	if (st != LIBVIRQ_OK)
		return st;
	/* (5) Tables visible before EnableLPIs; EnableLPIs visible (RWP clear)
	 * before any MAPC names this RD (docs/rationale.md#gic-rd-bringup-order). */
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_DMA_WMB);
	a = rd_addr_(gic, idx, LIBVIRQ_GICR_CTLR);
	virq_wr32_(&gic->hal, a, virq_rd32_(&gic->hal, a) | en);
	st = rd_wait_rwp_(gic, idx, en, en);
	if (st != LIBVIRQ_OK) /* the pending table stays allocated: the RD may use it */
		return LIBVIRQ_FAILV_(api, &gic->hal, st,
				      "redistributor %u: GICR_CTLR.EnableLPIs not 1 with RWP 0 "
				      "after timeout_ns=%u",
				      idx, gic->timeout_ns);
	virq_barrier_(&gic->hal, LIBVIRQ_BARRIER_FULL);
	gic->rd[idx].flags |= LIBVIRQ_RDIST_LPIS_ON;
	return LIBVIRQ_OK;
}
