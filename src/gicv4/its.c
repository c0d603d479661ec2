/* SPDX-License-Identifier: MIT */
/*
 * ITS probe, errata quirks (table in enc/quirks.c), enable/disable,
 * collections. Command batches are in its_exec.c, tables in its_table.c,
 * the GICv4.0 doorbell proxy device in doorbell.c (created lazily there).
 * Spec: Arm IHI 0069H chapter 5 (LPIs and the ITS), §12.19 (GITS_CTLR, GITS_TYPER, GITS_IIDR).
 */
#include "doorbell_priv.h"
#include "its_exec_priv.h"
#include "its_pool_priv.h"
#include "its_queue_priv.h"
#include "its_table_priv.h"
#include "lpi_priv.h"
#include "rdist_priv.h"

/* ---------------- probe / enable ---------------- */

static virq_status its_quiesce_(struct virq_its *its)
{
	const struct virq_hal *hal = &its->gic->hal;
	uint64_t a = its->base + LIBVIRQ_GITS_CTLR;
	uint32_t c = virq_rd32_(hal, a);

	if (c & (LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Enabled) |
		 LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_ImDe)))
		virq_wr32_(hal, a,
			   c & (uint32_t) ~(LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Enabled) |
					    LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_ImDe)));
	return virq_poll32(hal, a, (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Quiescent),
			   (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Quiescent),
			   its->q.timeout_ns ? its->q.timeout_ns : its->gic->timeout_ns, NULL);
}

/* The level an ITS is driven at: GITS_TYPER's, lowered to the GIC's. */
static enum virq_its_version its_level_(const struct virq_gic *gic, enum virq_its_version v)
{
	if (gic->version < LIBVIRQ_GIC_V4_0)
		return LIBVIRQ_ITS_V3;
	if (gic->version < LIBVIRQ_GIC_V4_1 && v == LIBVIRQ_ITS_V41)
		return LIBVIRQ_ITS_V40;
	return v;
}

virq_status virq_its_probe(const struct virq_gic *gic, const struct virq_gic_its_desc *desc,
			   struct virq_its_id *out)
{
	const char *const api = LIBVIRQ_ENTRY_;
	const struct virq_hal *hal;
	struct virq_its_limits lim;
	struct virq_its_id id;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	hal = &gic->hal;
	if (!desc)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "desc=NULL");
	if (!out)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "out=NULL");
	if (!desc->size)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "desc->size=0");
	id.arch_rev = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_PIDR2_ArchRev,
						  virq_rd32_(hal, desc->base + LIBVIRQ_GITS_PIDR2));
	if (id.arch_rev != 3 && id.arch_rev != 4)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "ITS at %x: GITS_PIDR2.ArchRev=%u, not 3 or 4", desc->base,
				      id.arch_rev);
	id.typer = virq_rd64_(hal, desc->base + LIBVIRQ_GITS_TYPER);
	id.iidr = virq_rd32_(hal, desc->base + LIBVIRQ_GITS_IIDR);
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_Physical, id.typer))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "ITS at %x: GITS_TYPER=%x: Physical=0", desc->base, id.typer);
	virq_its_limits_from_typer(id.typer, &lim);
	id.version = its_level_(gic, lim.version);
	id.quirks = virq_its_quirks_for(id.iidr, gic->platform);
	*out = id;
	return LIBVIRQ_OK;
}

static virq_status its_probe_(const char *api, struct virq_its *its,
			      const struct virq_gic_its_desc *desc)
{
	const struct virq_hal *hal = &its->gic->hal;
	uint32_t arch = (uint32_t)LIBVIRQ_FIELD_GET(
	    LIBVIRQ_GITS_PIDR2_ArchRev, virq_rd32_(hal, its->base + LIBVIRQ_GITS_PIDR2));

	if (arch != 3 && arch != 4)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "ITS at %x: GITS_PIDR2.ArchRev=%u, not 3 or 4", its->base,
				      arch);
	its->typer = virq_rd64_(hal, its->base + LIBVIRQ_GITS_TYPER);
	its->iidr = virq_rd32_(hal, its->base + LIBVIRQ_GITS_IIDR);
	if (!LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_Physical, its->typer))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOTSUP,
				      "ITS at %x: GITS_TYPER=%x: Physical=0", its->base,
				      its->typer);
	virq_its_limits_from_typer(its->typer, &its->lim);
	/* The GIC as a whole may be less than the ITS claims. */
	its->lim.version = its_level_(its->gic, its->lim.version);
	its->lim.vpeid_bits = (uint8_t)its->gic->vpeid_bits;
	/* GICv4.1: the affinity GITS_TYPER.SVPET shares the vPE table at. */
	if (its->lim.version == LIBVIRQ_ITS_V41)
		its->mpidr = virq_rd32_(hal, its->base + LIBVIRQ_GITS_MPIDR) &
			     (uint32_t)(LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_MPIDR_Aff3) |
					LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_MPIDR_Aff2) |
					LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_MPIDR_Aff1));
	its->quirks = virq_its_quirks_for(its->iidr, its->gic->platform);
	if ((its->quirks & LIBVIRQ_ITS_QUIRK_CAVIUM_22375) && its->lim.devid_bits > 20)
		its->lim.devid_bits = 20;
	its->itt_esz =
	    (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_ITT_entry_size, its->typer) + 1;
	if (its->quirks & LIBVIRQ_ITS_QUIRK_QDF2400_E0065)
		its->itt_esz = 16;
	its->noncoherent =
	    desc->dma_noncoherent || (its->quirks & LIBVIRQ_ITS_QUIRK_RK3588_3588001);
	/* Direct vSGI needs GITS_SGIR (64-bit, ITS_base + 0x20020) inside the
	 * register region the description gives: a 0x20000-byte region (two
	 * 64 KiB frames) has no vSGI frame, whatever GITS_TYPER.VSGI says, and
	 * the library never touches beyond the region (IHI 0069H §12.19,
	 * GITS_SGIR in the third 64 KiB frame). */
	its->size = desc->size;
	its->direct_vsgi = its->lim.version == LIBVIRQ_ITS_V41 && its->lim.vsgi &&
			   desc->size >= LIBVIRQ_GITS_SGIR + 8;
	if (its->lim.version == LIBVIRQ_ITS_V41 && its->lim.vsgi && !its->direct_vsgi)
		LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_INFO,
			     "its: GITS_TYPER.VSGI set but the region has no GITS_SGIR frame: no "
			     "direct vSGI",
			     its->base, desc->size);
	if (its->quirks)
		LIBVIRQ_LOGV(hal, LIBVIRQ_LOG_INFO, "its: quirks applied", its->iidr, its->quirks);
	return LIBVIRQ_OK;
}

/* GICv4 ITS whose VMOVPs carry an ITSList (GITS_TYPER.VMOVP = 0). */
static bool itslist_mode_(const struct virq_its *its)
{
	return its->lim.version != LIBVIRQ_ITS_V3 && !its->lim.vmovp;
}

/* ITS_Number for VMOVP ITSLists (GITS_TYPER.VMOVP = 0): write the slot,
 * keep what reads back (the field may be read-only). */
static void its_number_(struct virq_its *its, uint32_t *ctlr)
{
	const struct virq_hal *hal = &its->gic->hal;
	uint64_t a = its->base + LIBVIRQ_GITS_CTLR;
	uint32_t c = (uint32_t)LIBVIRQ_FIELD_SET(LIBVIRQ_GITS_CTLR_ITS_Number, virq_rd32_(hal, a),
						 its->slot);

	if (itslist_mode_(its)) {
		virq_wr32_(hal, a, c);
		c = virq_rd32_(hal, a);
	}
	its->its_number = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CTLR_ITS_Number, c);
	*ctlr = c;
}

/* Two ITSes in ITSList mode with the same ITS_Number (read-only fields)
 * cannot be told apart in a VMOVP ITSList: refuse the second (as Linux
 * refuses a duplicate ITSList entry). */
static virq_status its_number_unique_(const char *api, const struct virq_its *its)
{
	const struct virq_gic *gic = its->gic;

	if (!itslist_mode_(its))
		return LIBVIRQ_OK;
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		const struct virq_its *o = gic->its[i];

		if (o && o != its && itslist_mode_(o) && o->its_number == its->its_number)
			return LIBVIRQ_FAILV_(
			    api, &gic->hal, LIBVIRQ_EHW,
			    "ITS at %x: GITS_CTLR.ITS_Number=%u (read-only) equals "
			    "that of the ITS at %x",
			    its->base, its->its_number, o->base);
	}
	return LIBVIRQ_OK;
}

static virq_status its_slot_(const char *api, struct virq_its *its)
{
	struct virq_gic *gic = its->gic;

	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		if (!gic->its[i]) {
			its->slot = i;
			return LIBVIRQ_OK;
		}
	}
	return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ENOSPC, "the GIC has %u ITSes already",
			      LIBVIRQ_GIC_ITS_SLOTS);
}

static virq_status its_setup_(const char *api, struct virq_its *its, const struct virq_its_cfg *cfg)
{
	struct virq_its_queue_cfg qc = {cfg ? cfg->timeout_ns : 0, its->noncoherent};
	uint32_t qbytes = cfg && cfg->queue_bytes ? cfg->queue_bytes : 65536u;
	virq_status st;

	if (!qc.timeout_ns)
		qc.timeout_ns = its->gic->timeout_ns;
	st = LIBVIRQ_PAGE_ALLOC_(api, &its->gic->hal, round_up_((its->gic->nr_rd + 7) / 8, 4096),
				 4096, &its->col_map, "collection bitmap");
	if (st != LIBVIRQ_OK)
		return st;
	st = virq_its_tables_init_(api, its);
	if (st == LIBVIRQ_OK) {
		st = virq_its_queue_init_(api, &its->q, &its->gic->hal, its->base, qbytes, &qc);
		if (st != LIBVIRQ_OK)
			virq_its_tables_free_(its);
	}
	if (st != LIBVIRQ_OK)
		virq_page_free_(&its->gic->hal, &its->col_map);
	return st;
}

static bool gic_has_proxy_(const struct virq_gic *gic)
{
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (gic->its[i] && gic->its[i]->proxy_ok)
			return true;
	return false;
}

/* GICv4.0 doorbell proxy (cfg->proxy_doorbells): reserve the last DeviceID
 * the device table covers (it may have been narrowed below
 * GITS_TYPER.Devbits to fit 256 pages); the device itself is created by
 * doorbell.c when doorbell masking first needs it. One per GIC. */
static void proxy_reserve_(struct virq_its *its)
{
	uint32_t bits = its->lim.devid_bits;

	if (its->tbl[LIBVIRQ_ITS_TBL_DEV].baser && its->tbl[LIBVIRQ_ITS_TBL_DEV].id_bits < bits)
		bits = its->tbl[LIBVIRQ_ITS_TBL_DEV].id_bits;
	its->proxy_devid = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
	its->proxy_ok = true;
}

/* Unregisters @its and frees its memory; the ITS must not use it any
 * more (quiescent, or never enabled since it was seen quiescent). */
static void its_release_(const char *api, struct virq_its *its)
{
	if (its->gic->its[its->slot] == its) {
		its->gic->its[its->slot] = NULL;
		its->gic->nr_its--;
	}
	virq_rdist_vpe_tables_detach_(api, its->gic, its); /* before the table is freed */
	virq_its_queue_fini_owned_(&its->q);
	virq_its_tables_free_(its);
	virq_page_free_(&its->gic->hal, &its->col_map);
	virq_page_free_(&its->gic->hal, &its->dev_ht);
	virq_its_pool_free_(its); /* empty by now: every device is unmapped */
}

/* virq_its_destroy(): the ITS is made quiescent, then released. */
static virq_status its_teardown_(const char *api, struct virq_its *its)
{
	virq_status st;

	virq_its_proxy_free_(its);
	st = its_quiesce_(its);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &its->gic->hal, st,
				      "ITS at %x: GITS_CTLR.Quiescent still 0 (ITS disabled, "
				      "memory kept; call again)",
				      its->base);
	its_release_(api, its);
	return LIBVIRQ_OK;
}

/* The checks of @desc's region before any access: EINVAL, EBUSY. */
static virq_status its_region_ok_(const char *api, const struct virq_gic *gic,
				  const struct virq_gic_its_desc *desc)
{
	/* GITS_CTLR .. GITS_PIDR2 (0xFFE8) and the other ID registers
	 * (0xFFD0 - 0xFFFC) fill the 64 KiB control frame (IHI 0069H §12.18,
	 * Table 12-33): a smaller region is refused before any access. */
	if (desc->size < LIBVIRQ_GIC_FRAME_SIZE)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_EINVAL,
				      "desc->size=%x < 0x10000 (the 64 KiB ITS control frame)",
				      desc->size);
	/* A second driver of the same ITS would rewrite its GITS_BASER and
	 * GITS_CBASER under the first one's devices: refused before any access. */
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		const struct virq_its *o = gic->its[i];

		if (o && desc->base < o->base + (o->size ? o->size : LIBVIRQ_GIC_FRAME_SIZE) &&
		    o->base < desc->base + desc->size)
			return LIBVIRQ_FAILV_(
			    api, &gic->hal, LIBVIRQ_EBUSY,
			    "desc->base=%x: region overlaps the ITS at %x already "
			    "initialised on this GIC",
			    desc->base, o->base);
	}
	return LIBVIRQ_OK;
}

/* virq_its_init()'s checks of its arguments, before anything is touched. */
static virq_status its_init_args_(const char *api, const struct virq_its *its,
				  const struct virq_gic *gic, const struct virq_gic_its_desc *desc,
				  const struct virq_its_cfg *cfg)
{
	const struct virq_hal *hal = &gic->hal;

	if (!its)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "its=NULL");
	if (!desc)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "desc=NULL");
	if (its->state == LIVE_)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY,
				     "its is live (virq_its_destroy() first)");
	if (cfg && (cfg->queue_bytes & 0xFFF))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL,
				      "cfg->queue_bytes=%u not a multiple of 4096",
				      cfg->queue_bytes);
	if (cfg && cfg->queue_bytes > LIBVIRQ_ITS_QUEUE_MAX_BYTES)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "cfg->queue_bytes=%u > %u",
				      cfg->queue_bytes, LIBVIRQ_ITS_QUEUE_MAX_BYTES);
	if (cfg && cfg->lock.acquire && !cfg->lock.release)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL,
				     "cfg->lock.release=NULL with cfg->lock.acquire set");
	if (cfg && !cfg->lock.acquire && cfg->lock.release)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL,
				     "cfg->lock.acquire=NULL with cfg->lock.release set");
	return its_region_ok_(api, gic, desc);
}

/* Probe, quiesce, tables and queue of a new ITS; nothing kept on failure. */
static virq_status its_bring_up_(const char *api, struct virq_its *its,
				 const struct virq_gic_its_desc *desc,
				 const struct virq_its_cfg *cfg)
{
	virq_status st = its_slot_(api, its);

	if (st == LIBVIRQ_OK)
		st = its_probe_(api, its, desc);
	if (st == LIBVIRQ_OK) {
		st = its_quiesce_(its);
		if (st != LIBVIRQ_OK)
			st = LIBVIRQ_FAILV_(api, &its->hal, st,
					    "ITS at %x: GITS_CTLR.Quiescent still 0", its->base);
	}
	if (st == LIBVIRQ_OK)
		st = its_setup_(api, its, cfg);
	return st;
}

/* A vPE table narrowed to fit GITS_BASER<n>.Size (flat: Indirect RAZ/WI, or
 * too large) covers fewer vPEIDs than the GIC has: no larger vPEID is handed
 * out from now on (every vPE is mapped on every GICv4 ITS). */
static virq_status its_vpeid_cap_(const char *api, struct virq_its *its)
{
	const struct virq_its_table *t = &its->tbl[LIBVIRQ_ITS_TBL_VPE];

	if (!t->baser || t->id_bits >= 32 || (1ull << t->id_bits) >= its->gic->vpeid_limit)
		return LIBVIRQ_OK;
	if (virq_vpeid_cap_(its->gic, 1u << t->id_bits))
		return LIBVIRQ_OK;
	return LIBVIRQ_FAILV_(
	    api, &its->hal, LIBVIRQ_ENOSPC,
	    "the vPE table GITS_BASER%u can describe covers %u vPEIDs, fewer than "
	    "are in use",
	    t->n, 1u << t->id_bits);
}

virq_status virq_its_init(struct virq_its *its, struct virq_gic *gic,
			  const struct virq_gic_its_desc *desc, const struct virq_its_cfg *cfg)
{
	const char *const api = LIBVIRQ_ENTRY_;
	uint32_t ctlr;
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	st = its_init_args_(api, its, gic, desc, cfg);
	if (st != LIBVIRQ_OK)
		return st;
	memset(its, 0, sizeof(*its));
	its->gic = gic;
	its->hal = gic->hal;
	its->base = desc->base;
	if (cfg)
		its->lock = cfg->lock;
	its->numa_node = cfg ? cfg->numa_node : -1;
	its->rd_node = cfg ? cfg->rd_node : NULL;
	st = its_bring_up_(api, its, desc, cfg);
	if (st != LIBVIRQ_OK) {
		its->gic = NULL;
		return st;
	}
	its->q.owned = true;
	its_number_(its, &ctlr);
	st = its_number_unique_(api, its);
	gic->its[its->slot] = its; /* registered so that the failure path below can undo it */
	gic->nr_its++;
	if (st == LIBVIRQ_OK)
		st = its_vpeid_cap_(api, its);
	if (st == LIBVIRQ_OK && its->lim.version == LIBVIRQ_ITS_V41) /* RDs share its vPE table */
		st = virq_rdist_vpe_tables_attach_(api, gic);
	if (st != LIBVIRQ_OK) {
		/* Every failure comes before GITS_CTLR.Enabled is set: the ITS,
		 * quiescent and disabled since before it was given any memory,
		 * reads none of it, so it is unregistered and everything freed
		 * without waiting for Quiescent again (a wait that could fail and
		 * keep the ITS registered with its pages). */
		its_release_(api, its);
		its->gic = NULL;
		return st;
	}
	if (cfg && cfg->proxy_doorbells && its->lim.version == LIBVIRQ_ITS_V40 &&
	    !gic_has_proxy_(gic)) /* one per GIC: a vPE's slot names no ITS */
		proxy_reserve_(its);
	its->proxy_slots = cfg ? cfg->proxy_slots : 0;
	/* GICv4.1: the VMAPP also fills the vPE table the redistributors
	 * read at residency, so every vPE is mapped at once (as Linux,
	 * gic_requires_eager_mapping()). */
	its->eager_vpes = its->lim.version == LIBVIRQ_ITS_V41 || (cfg && cfg->eager_vpes);
	ctlr |= (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_Enabled);
	/* ImDe on GICv4 as Linux does (its_probe_one). */
	if (its->lim.version != LIBVIRQ_ITS_V3)
		ctlr |= (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CTLR_ImDe);
	virq_wr32_(&its->hal, its->base + LIBVIRQ_GITS_CTLR, ctlr);
	its->state = LIVE_;
	return LIBVIRQ_OK;
}

virq_status virq_its_destroy(struct virq_its *its)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!its_live_(its))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "its", its);
	if (its->nr_devices)
		return LIBVIRQ_FAILV_(api, &its->hal, LIBVIRQ_EBUSY,
				      "nr_devices=%u devices still mapped", its->nr_devices);
	if (its->nr_vpes)
		return LIBVIRQ_FAILV_(api, &its->hal, LIBVIRQ_EBUSY, "nr_vpes=%u vPEs still mapped",
				      its->nr_vpes);
	st = its_teardown_(api, its);
	if (st != LIBVIRQ_OK)
		return st;
	its->state = LIBVIRQ_GICV4_GONE;
	its->gic = NULL;
	return LIBVIRQ_OK;
}

/* ---------------- collections ---------------- */

/* virq_its_map_collection() with the ITS lock held. */
static virq_status map_collection_locked_(const char *api, struct virq_its *its, uint32_t rd)
{
	const struct virq_hal *hal = &its->hal;
	struct virq_its_cmd c[2];
	virq_status st;

	if (rd >= its->gic->nr_rd)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "rd=%u >= nr_rd=%u", rd,
				      its->gic->nr_rd);
	/* EnableLPIs before MAPC (docs/rationale.md#gic-rd-bringup-order) */
	if (!(its->gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "rd=%u: LPIs not enabled on the redistributor "
				      "(virq_gic_rdist_init() first)",
				      rd);
	if ((its->quirks & LIBVIRQ_ITS_QUIRK_CAVIUM_23144) && its->rd_node && its->numa_node >= 0 &&
	    its->rd_node[rd] != its->numa_node)
		return LIBVIRQ_FAILV_(
		    api, hal, LIBVIRQ_EINVAL, "Cavium 23144: rd=%u on NUMA node %d, the ITS on %d",
		    rd, (uint64_t)(int64_t)its->rd_node[rd], (uint64_t)(int64_t)its->numa_node);
	if (rd >= (1u << its->lim.icid_bits))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "ICID rd=%u >= 2^GITS_TYPER.CIDbits=%u", rd,
				      1u << its->lim.icid_bits);
	if (rd >= LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_TYPER_HCC, its->typer)) {
		st = virq_its_tbl_ensure_(api, its, LIBVIRQ_ITS_TBL_COL, rd);
		if (st != LIBVIRQ_OK)
			return st;
	}
	c[0] = virq_its_mapc(rd, virq_its_rdbase_(its, rd), true);
	c[1] = virq_its_sync_cmd(virq_its_rdbase_(its, rd));
	st = virq_its_exec_(its, c, 2);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st, "MAPC + SYNC of rd=%u failed", rd);
	bm_set_(its->col_map.va, rd);
	return LIBVIRQ_OK;
}

virq_status virq_its_map_collection(struct virq_its *its, uint32_t rd)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!its_live_(its))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "its", its);
	virq_its_lock_(its);
	st = map_collection_locked_(api, its, rd);
	virq_its_unlock_(its);
	return st;
}
