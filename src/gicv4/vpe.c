/* SPDX-License-Identifier: MIT */
/*
 * VMs (vLPI configuration tables), vPE lifecycle (vPEID, VPT, VMAPP on every
 * GICv4 ITS, reverse teardown) and VMOVP.
 * Spec: Arm IHI 0069H §5.3 (VMAPP, VINVALL, VSYNC, VMOVP).
 * GICv4.1 VMAPP Alloc and the self-synchronising 4.1 unmap: Linux
 * its_build_vmapp_cmd() (vmapp_count; "Unmapping a VPE is self-synchronizing
 * on GICv4.1").
 */
#include "doorbell_priv.h"
#include "its_exec_priv.h"
#include "its_queue_priv.h"
#include "its_table_priv.h"
#include "lpi_priv.h"
#include "rdist_priv.h"
#include "vpe_priv.h"

/* ---------------- VM ---------------- */

/* virq_gic_vm_init()'s checks of its arguments on a live GIC. */
static virq_status vm_init_args_(const char *api, const struct virq_gic_vm *vm,
				 const struct virq_gic *gic, uint32_t id_bits)
{
	const struct virq_hal *hal = &gic->hal;

	if (!vm)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vm=NULL");
	if (vm->state == LIVE_)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY,
				     "vm is live (virq_gic_vm_destroy() first)");
	if (gic->version < LIBVIRQ_GIC_V4_0)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP, "gic is not a GICv4");
	if (id_bits < 14)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE, "id_bits=%u < 14", id_bits);
	if (id_bits > gic->lpi_bits)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ERANGE,
				      "id_bits=%u > the GIC's lpi_bits=%u", id_bits, gic->lpi_bits);
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_init(struct virq_gic_vm *vm, struct virq_gic *gic, uint32_t id_bits)
{
	const char *const api = LIBVIRQ_ENTRY_;
	const struct virq_hal *hal;
	uint64_t size;
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "gic", gic);
	hal = &gic->hal;
	st = vm_init_args_(api, vm, gic, id_bits);
	if (st != LIBVIRQ_OK)
		return st;
	memset(vm, 0, sizeof(*vm));
	vm->hal = gic->hal;
	size = round_up_((1ull << id_bits) - LIBVIRQ_LPI_BASE, 0x10000);
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, size, 0x10000, &vm->vprop, "vLPI configuration table");
	if (st != LIBVIRQ_OK)
		return st;
	memset(vm->vprop.va, 0xA2, vm->vprop.size); /* priority 0xA0, RES1, disabled */
	if (clean_if_(hal, gic->rd_noncoherent, vm->vprop.va, vm->vprop.size) != LIBVIRQ_OK) {
		virq_page_free_(hal, &vm->vprop);
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "vLPI configuration table not coherent and dcache_clean=NULL");
	}
	vm->gic = gic;
	vm->id_bits = id_bits;
	gic->nr_vms++;
	vm->state = LIVE_;
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_destroy(struct virq_gic_vm *vm)
{
	const char *const api = LIBVIRQ_ENTRY_;

	if (!vm_live_(vm))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vm", vm);
	if (vm->nr_vpes)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_EBUSY, "nr_vpes=%u vPEs still exist",
				      vm->nr_vpes);
	virq_page_free_(&vm->hal, &vm->vprop);
	vm->gic->nr_vms--;
	vm->gic = NULL;
	vm->state = LIBVIRQ_GICV4_GONE;
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_vlpi_config_(const char *api, struct virq_gic_vm *vm, uint32_t vintid,
				     uint8_t priority, bool enable)
{
	uint8_t *b;

	if (!vm_live_(vm))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vm", vm);
	if (vintid < LIBVIRQ_LPI_BASE)
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE, "vintid=%u < 8192", vintid);
	if (vintid >= (1u << vm->id_bits))
		return LIBVIRQ_FAILV_(api, &vm->hal, LIBVIRQ_ERANGE, "vintid=%u >= 2^id_bits=%u",
				      vintid, 1u << vm->id_bits);
	b = (uint8_t *)vm->vprop.va + (vintid - LIBVIRQ_LPI_BASE);
	*b = (uint8_t)((priority & LIBVIRQ_FIELD_MASK(LIBVIRQ_LPI_CFG_Priority)) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_RES1, 1) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_Enable, enable ? 1 : 0));
	if (clean_if_(&vm->hal, vm->gic->rd_noncoherent, b, 1) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL_(api, &vm->hal, LIBVIRQ_ENOHAL,
				     "byte written, but the vLPI configuration table is not "
				     "coherent and dcache_clean=NULL");
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_vlpi_config(struct virq_gic_vm *vm, uint32_t vintid, uint8_t priority,
				    bool enable)
{
	return virq_gic_vm_vlpi_config_(LIBVIRQ_ENTRY_, vm, vintid, priority, enable);
}

/* ---------------- VMAPP ---------------- */

/* A GICv4 ITS (the version is fixed at init; whether it is dead is read
 * under its lock, by the callers). */
static bool its_v4_(const struct virq_its *its)
{
	return its && its->lim.version != LIBVIRQ_ITS_V3;
}

static struct virq_its_cmd vmapp_(const struct virq_its *its, const struct virq_vpe *vpe, bool map)
{
	/* 4.1: Alloc on the first map and on the last unmap (Linux vmapp_count). */
	bool alloc = map ? vpe->vmapp_count == 0 : vpe->vmapp_count == 1;

	if (!map) /* an unmap names only the vPE (and Alloc on 4.1) */
		return its->lim.version == LIBVIRQ_ITS_V41
			   ? virq_its_vmapp_v41(vpe->vpeid, 0, 0, 0, false, alloc, false, 0, 0)
			   : virq_its_vmapp(vpe->vpeid, 0, 0, 0, false);
	if (its->lim.version == LIBVIRQ_ITS_V41)
		return virq_its_vmapp_v41(vpe->vpeid, virq_its_rdbase_(its, vpe->rd), vpe->vpt.pa,
					  vpe->vm->id_bits - 1, true, alloc, false,
					  vpe->vm->vprop.pa, vpe->doorbell);
	return virq_its_vmapp(vpe->vpeid, virq_its_rdbase_(its, vpe->rd), vpe->vpt.pa,
			      vpe->vm->id_bits - 1, true);
}

/* VMAPP + VINVALL + VSYNC on one ITS, its lock held. */
static virq_status vpe_map_on_locked_(const char *api, struct virq_its *its, struct virq_vpe *vpe)
{
	const struct virq_hal *hal = &its->hal;
	struct virq_its_cmd c[3];
	struct virq_its_ran ran;
	virq_status st = virq_its_tbl_ensure_(api, its, LIBVIRQ_ITS_TBL_VPE, vpe->vpeid);

	if (st != LIBVIRQ_OK)
		return st;
	c[0] = vmapp_(its, vpe, true);
	c[1] = virq_its_vinvall(vpe->vpeid);
	c[2] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_seen_(its, c, 3, &ran);
	/* The VMAPP ran (or may have: a dead ITS) even if what follows failed:
	 * the ITS maps the vPE, so it is recorded, and a rollback unmaps it. */
	if (st == LIBVIRQ_OK || its_may_have_run_(&ran, 0)) {
		vpe->its_mask |= 1u << its->slot;
		vpe->vmapp_count++;
		its->nr_vpes++;
	}
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, hal, st,
				      "VMAPP + VINVALL + VSYNC of vPE %u on the ITS at %x not seen "
				      "to run",
				      vpe->vpeid, its->base);
	return LIBVIRQ_OK;
}

/* Maps @vpe on @its unless the ITS is dead (then skipped), under its lock. */
static virq_status vpe_map_on_(const char *api, struct virq_its *its, struct virq_vpe *vpe)
{
	virq_status st = LIBVIRQ_OK;

	virq_its_lock_(its);
	if (!its->dead)
		st = vpe_map_on_locked_(api, its, vpe);
	virq_its_unlock_(its);
	return st;
}

virq_status virq_vpe_its_ensure_(const char *api, struct virq_its *its, struct virq_vpe *vpe)
{
	if (vpe->its_mask & (1u << its->slot))
		return LIBVIRQ_OK;
	if (its->dead)
		return LIBVIRQ_FAILV_(api, &its->hal, LIBVIRQ_EDEAD,
				      "the ITS at %x is dead after a failure (vPE %u not mapped "
				      "there)",
				      its->base, vpe->vpeid);
	return vpe_map_on_locked_(api, its, vpe);
}

/* VMAPP (V = 0) on one ITS, its lock held; a failure is reported under
 * @p api (virq_vpe_destroy(), or the rollback of virq_vpe_init()). */
static virq_status vpe_unmap_on_(const char *api, struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_cmd c[2];
	struct virq_its_ran ran;
	size_t n = 1;
	virq_status st;

	c[0] = vmapp_(its, vpe, false);
	/* 4.0 needs VSYNC; a 4.1 unmap is self-synchronising and a VSYNC to
	 * the unmapped vPE may raise an SError (Linux its_send_vmapp on 4.1). */
	if (its->lim.version != LIBVIRQ_ITS_V41)
		c[n++] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_seen_(its, c, n, &ran);
	/* GITS_CREADR passed the VMAPP (V = 0): the ITS no longer maps the vPE,
	 * even if its VSYNC failed (a retry must not unmap it again). */
	if (st == LIBVIRQ_OK || (ran.exact && ran.ran >= 1)) {
		vpe->its_mask &= ~(1u << its->slot);
		vpe->vmapp_count--;
		its->nr_vpes--;
	}
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &its->hal, st,
				      "VMAPP (V=0) of vPE %u on the ITS at %x not seen to run",
				      vpe->vpeid, its->base);
	return LIBVIRQ_OK;
}

/* Unmaps from every ITS in reverse slot order; stops at the first error. */
static virq_status vpe_unmap_all_(const char *api, struct virq_vpe *vpe)
{
	struct virq_gic *gic = vpe->vm->gic;

	for (int32_t i = LIBVIRQ_GIC_ITS_SLOTS - 1; i >= 0; i--) {
		virq_status st;

		if (!(vpe->its_mask & (1u << i)))
			continue;
		if (!gic->its[i]) {
			vpe->its_mask &= ~(1u << i); /* the ITS is gone: nothing to unmap */
			vpe->vmapp_count--;
			continue;
		}
		virq_its_lock_(gic->its[i]);
		if (gic->its[i]->dead) {
			vpe->its_mask &= ~(1u << i); /* nothing to unmap on a dead ITS */
			vpe->vmapp_count--;
			gic->its[i]->nr_vpes--; /* so that the dead ITS can be destroyed */
			st = LIBVIRQ_OK;
		} else {
			st = vpe_unmap_on_(api, gic->its[i], vpe);
		}
		virq_its_unlock_(gic->its[i]);
		if (st != LIBVIRQ_OK)
			return st;
	}
	return LIBVIRQ_OK;
}

static void vpe_free_(struct virq_vpe *vpe)
{
	struct virq_gic *gic = vpe->vm->gic;

	virq_page_free_(&gic->hal, &vpe->vpt);
	virq_vpeid_free_(gic, vpe->vpeid);
	if (vpe->doorbell != LIBVIRQ_ITS_NO_DOORBELL)
		virq_lpi_doorbell_release_(gic, vpe->doorbell);
}

/* virq_vpe_init()'s checks of its arguments on a live VM. */
static virq_status vpe_check_init_(const char *api, const struct virq_vpe *vpe,
				   const struct virq_gic_vm *vm, uint32_t rd, uint32_t doorbell)
{
	const struct virq_hal *hal = &vm->hal;

	if (!vpe)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EINVAL, "vpe=NULL");
	if (vpe->state == LIVE_)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_EBUSY,
				     "vpe is live (virq_vpe_destroy() first)");
	if (rd >= vm->gic->nr_rd)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "rd=%u >= nr_rd=%u", rd,
				      vm->gic->nr_rd);
	if (!(vm->gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "rd=%u: LPIs not enabled on the redistributor "
				      "(virq_gic_rdist_init() first)",
				      rd);
	if (doorbell != LIBVIRQ_ITS_NO_DOORBELL && !virq_lpi_allocated_(vm->gic, doorbell))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOENT,
				      "doorbell=%u not an allocated LPI (virq_lpi_alloc())",
				      doorbell);
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (its_v4_(vm->gic->its[i]))
			return LIBVIRQ_OK;
	return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOTSUP, "no live GICv4 ITS on the GIC");
}

/* A new vPE's vPEID and doorbell taken, its VPT allocated and cleaned;
 * nothing kept on failure but what vpe_free_() releases. */
static virq_status vpe_take_(const char *api, struct virq_vpe *vpe, uint32_t doorbell)
{
	struct virq_gic *gic = vpe->vm->gic;
	const struct virq_hal *hal = &vpe->hal;
	virq_status st;

	if (!virq_vpeid_alloc_(gic, &vpe->vpeid))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_ENOSPC, "all 2^vpeid_bits=%u vPEIDs in use",
				      1ull << gic->vpeid_bits);
	if (doorbell != LIBVIRQ_ITS_NO_DOORBELL && !virq_lpi_doorbell_take_(gic, doorbell)) {
		virq_vpeid_free_(gic, vpe->vpeid);
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "doorbell=%u already in use (another vPE's doorbell, or "
				      "mapped by an ITS event)",
				      doorbell);
	}
	vpe->doorbell = doorbell;
	st = LIBVIRQ_PAGE_ALLOC_(api, hal, round_up_((1ull << vpe->vm->id_bits) / 8, 0x10000),
				 0x10000, &vpe->vpt, "VPT");
	if (st == LIBVIRQ_OK &&
	    clean_if_(hal, gic->rd_noncoherent, vpe->vpt.va, vpe->vpt.size) != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				   "VPT not coherent and dcache_clean=NULL");
	if (st != LIBVIRQ_OK)
		vpe_free_(vpe);
	return st;
}

/* True when some GICv4 ITS of @gic is not dead (each read under its lock;
 * the scan stops at the first live one). */
static bool some_its_live_(struct virq_gic *gic)
{
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		struct virq_its *its = gic->its[i];
		bool live;

		if (!its_v4_(its))
			continue;
		virq_its_lock_(its);
		live = !its->dead;
		virq_its_unlock_(its);
		if (live)
			return true;
	}
	return false;
}

/* virq_vpe_init() after vpe_take_(): the vPE entry and VMAPP on every
 * eager ITS (GICv4.1, or ::virq_its_cfg::eager_vpes; the others map the
 * vPE at its first vLPI there: docs/gicv4-core.md "Lazy mapping"), or
 * (failure) the unmap of what was mapped and the release. */
static virq_status vpe_map_all_(const char *api, struct virq_vpe *vpe)
{
	struct virq_gic *gic = vpe->vm->gic;
	virq_status st = virq_rdist_vpe_entry_ensure_(api, gic, vpe->vpeid);

	for (uint32_t i = 0; st == LIBVIRQ_OK && i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (its_v4_(gic->its[i]) && gic->its[i]->eager_vpes)
			st = vpe_map_on_(api, gic->its[i], vpe);
	if (st == LIBVIRQ_OK && !vpe->its_mask && !some_its_live_(gic))
		st = LIBVIRQ_FAIL_(api, &vpe->hal, LIBVIRQ_EDEAD, "every GICv4 ITS is dead");
	if (st == LIBVIRQ_OK)
		return LIBVIRQ_OK;
	/* The rollback reports nothing: the first error is the one reported. */
	if (vpe_unmap_all_(NULL, vpe) != LIBVIRQ_OK) {
		/* Still mapped on an ITS: its VPT and vPEID stay in use (freeing
		 * them would let the ITS write freed memory and hand the vPEID
		 * out twice). Left live and DEAD: destroy it until that succeeds. */
		vpe->flags |= LIBVIRQ_VPE_MAPPED | LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD;
		vpe->vm->nr_vpes++;
		vpe->state = LIVE_;
		return st;
	}
	vpe_free_(vpe);
	vpe->vm = NULL;
	return st;
}

virq_status virq_vpe_init(struct virq_vpe *vpe, struct virq_gic_vm *vm, uint32_t rd,
			  uint32_t doorbell)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!vm_live_(vm))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vm", vm);
	st = vpe_check_init_(api, vpe, vm, rd, doorbell);
	if (st != LIBVIRQ_OK)
		return st;
	memset(vpe, 0, sizeof(*vpe));
	vpe->hal = vm->hal;
	vpe->vm = vm;
	vpe->rd = rd;
	vpe->doorbell = LIBVIRQ_ITS_NO_DOORBELL;
	vpe->proxy_event = -1;
	vpe->vgrp0 = vpe->vgrp1 = true;
	vpe->flags = LIBVIRQ_VPE_IDAI; /* Linux starts every vPE with IDAI set */
	st = vpe_take_(api, vpe, doorbell);
	if (st == LIBVIRQ_OK)
		st = vpe_map_all_(api, vpe);
	if (st != LIBVIRQ_OK) {
		if (vpe->state != LIVE_)
			vpe->vm = NULL;
		return st;
	}
	vpe->flags |= LIBVIRQ_VPE_MAPPED;
	vm->nr_vpes++;
	vpe->state = LIVE_;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_destroy(struct virq_vpe *vpe)
{
	const char *const api = LIBVIRQ_ENTRY_;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	if (vpe->flags & LIBVIRQ_VPE_RESIDENT)
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EBUSY,
				      "vPE %u resident (virq_vpe_make_nonresident() first)",
				      vpe->vpeid);
	/* Deferred batches first (virq_its_device_set_deferred()): one that
	 * never ran would give the vPE its vLPI back. */
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		struct virq_its *its = vpe->vm->gic->its[i];

		if (its && (vpe->its_mask & (1u << i)) && its->nr_deferred) {
			virq_its_lock_(its);
			(void)virq_its_settle_locked_(NULL, its, true); /* logged */
			virq_its_unlock_(its);
		}
	}
	if (__atomic_load_n(&vpe->nr_vlpis, __ATOMIC_RELAXED))
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EBUSY,
				      "vPE %u: nr_vlpis=%u vLPIs still mapped", vpe->vpeid,
				      vpe->nr_vlpis);
	vpe->flags |= LIBVIRQ_VPE_DYING;
	virq_vpe_proxy_release_(vpe);
	st = vpe_unmap_all_(api, vpe);
	if (st != LIBVIRQ_OK) {
		vpe->flags |= LIBVIRQ_VPE_DEAD;
		return st;
	}
	vpe_free_(vpe);
	vpe->vm->nr_vpes--;
	vpe->flags = 0;
	vpe->vm = NULL;
	vpe->state = LIBVIRQ_GICV4_GONE;
	return LIBVIRQ_OK;
}

/* ---------------- VINVALL ---------------- */

/*
 * VINVALL + VSYNC on the first live ITS (slot order) the vPE is mapped on.
 * One ITS is enough: VINVALL acts on the redistributors' cached vLPI
 * configuration of the vPE, which every ITS reaches (IHI 0069H §5.3 VINVALL;
 * Linux its_vpe_invall() sends it to a single ITS for the same reason). A
 * dead ITS is skipped for the next one.
 */
virq_status virq_vpe_invall(struct virq_vpe *vpe)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_gic *gic;
	struct virq_its_cmd c[2];

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EDEAD, "vPE %u being torn down",
				      vpe->vpeid);
	/* Mapped on no ITS (GICv4.0, lazy mapping): no vLPI of it was ever
	 * mapped, so no redistributor caches a configuration of it. */
	if (!vpe->its_mask)
		return LIBVIRQ_OK;
	c[0] = virq_its_vinvall(vpe->vpeid);
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	for (uint32_t m = vpe->its_mask; m; m &= m - 1) {
		struct virq_its *its = gic->its[__builtin_ctz(m)];
		virq_status st;

		if (!its)
			continue;
		virq_its_lock_(its);
		if (its->dead) {
			virq_its_unlock_(its);
			continue;
		}
		st = virq_its_exec_(its, c, 2);
		virq_its_unlock_(its);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV_(api, &vpe->hal, st,
					      "VINVALL + VSYNC of vPE %u on the ITS at %x not seen "
					      "to run",
					      vpe->vpeid, its->base);
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_FAILV_(api, &vpe->hal, LIBVIRQ_EDEAD, "no live ITS maps vPE %u", vpe->vpeid);
}

/* ---------------- VMOVP ---------------- */

static virq_status hip09_invall_(const char *api, struct virq_gic *gic, uint32_t rd, uint32_t vpeid)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_INVALLR),
		   LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVALLR_V, 1) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVALLR_vPEID, vpeid));
	if (virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV_(api, &gic->hal, LIBVIRQ_ETIMEDOUT,
				      "Hip09 GICR_INVALLR of vPE %u: redistributor %u's "
				      "GICR_SYNCR.Busy still 1 after timeout_ns=%u",
				      vpeid, rd, gic->timeout_ns);
	return LIBVIRQ_OK;
}

/* The ITSes that must receive the VMOVP (bit per slot), and its ITSList:
 * with GITS_TYPER.VMOVP = 1 on any of them one such ITS is enough. */
static uint32_t vmovp_targets_(const struct virq_vpe *vpe, uint32_t *list, bool *single)
{
	const struct virq_gic *gic = vpe->vm->gic;
	uint32_t first_vmovp = 0;

	*list = 0;
	*single = false;
	for (uint32_t m = vpe->its_mask; m; m &= m - 1) {
		const struct virq_its *its = gic->its[__builtin_ctz(m)];

		if (its->lim.vmovp && !*single) {
			*single = true;
			first_vmovp = m & -m;
		}
		*list |= 1u << its->its_number;
	}
	return *single ? first_vmovp : vpe->its_mask;
}

/* Encodes VMOVP (SequenceNumber and ITSList when every ITS needs one) +
 * VSYNC for each ITS in @targets (all or nothing). */
static virq_status vmovp_encode_(const char *api, struct virq_vpe *vpe, uint32_t rd,
				 uint32_t targets, uint32_t list, bool single,
				 uint8_t raw[LIBVIRQ_GIC_ITS_SLOTS][2][LIBVIRQ_ITS_CMD_SIZE])
{
	struct virq_gic *gic = vpe->vm->gic;
	struct virq_its_cmd c[2];
	virq_status st;

	/* SequenceNumber and ITSList only for an ITSList VMOVP; per ITS below: its
	 * RDbase and, on GICv4.1, DB = 1 with the default doorbell. */
	if (single)
		c[0] = virq_its_vmovp_v41(vpe->vpeid, 0, 0, 0, false, 0);
	else /* the sequence number is serialised by the caller (gicv4/vpe.h) */
		c[0] = virq_its_vmovp_v41(vpe->vpeid, 0, gic->vmovp_seq++, list, false, 0);
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	for (uint32_t m = targets; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		struct virq_its *its = gic->its[i];
		bool v41 = its->lim.version == LIBVIRQ_ITS_V41;

		c[0].RDbase = virq_its_rdbase_(its, rd);
		c[0].DB = v41;
		c[0].Default_Doorbell = v41 ? vpe->doorbell : 0;
		st = virq_its_cmd_encode(&c[0], &its->lim, raw[i][0], NULL, NULL);
		if (st == LIBVIRQ_OK)
			st = virq_its_cmd_encode(&c[1], &its->lim, raw[i][1], NULL, NULL);
		if (st != LIBVIRQ_OK)
			return LIBVIRQ_FAILV_(api, &vpe->hal, st,
					      "the limits of the ITS at %x reject the VMOVP of vPE "
					      "%u to rd=%u",
					      its->base, vpe->vpeid, rd);
	}
	return LIBVIRQ_OK;
}

/* A publish of VMOVP (at linear position @base) + VSYNC failed on @its
 * with @st (lock held): the queue is reset; *any set when the VMOVP may
 * have run (a full queue publishes what it holds before it waits for
 * space). Returns @st, logged. */
static LIBVIRQ_COLD_ virq_status vmovp_publish_failed_(const char *api, struct virq_vpe *vpe,
						       struct virq_its *its, virq_status st,
						       uint64_t base, bool *any)
{
	uint64_t consumed;

	if (st == LIBVIRQ_EDEAD) /* the ITS was dead before: nothing was pushed */
		return LIBVIRQ_FAILV_(api, &vpe->hal, st, "the ITS at %x is dead after a failure",
				      its->base);
	if (!virq_its_fail_seen_(its, st, &consumed) || consumed >= base + LIBVIRQ_ITS_CMD_SIZE)
		*any = true;
	return LIBVIRQ_FAILV_(api, &vpe->hal, st,
			      "VMOVP + VSYNC of vPE %u not queued on the ITS at %x", vpe->vpeid,
			      its->base);
}

/* The wait for VMOVP (at @base) + VSYNC failed with @st on @its (lock held):
 * true when the VMOVP ran or may have (virq_its_wait_failed_()). */
static LIBVIRQ_COLD_ bool vmovp_wait_failed_(struct virq_its *its, virq_status st, uint64_t base,
					     uint64_t ticket)
{
	struct virq_its_ran ran = {0, false};

	if (st != LIBVIRQ_EDEAD)
		(void)virq_its_wait_failed_(its, st, base, 2, ticket, &ran);
	return its_may_have_run_(&ran, 0);
}

/*
 * VMOVP on every ITS that must see it, latency one round trip: the
 * commands are encoded for every ITS first (all or nothing), pushed and
 * published on every ITS (one GITS_CWRITER write each), and only then
 * waited for (same SequenceNumber and ITSList everywhere). Waiting for each
 * ITS before publishing on the next made the latency N round trips for N
 * ITSes (GITS_TYPER.VMOVP = 0); the access count is the same. The caller's
 * serialisation of every VMOVP on the GIC keeps every ITS receiving the
 * VMOVPs in the same order (Linux makes VMOVP a serialisation point for the
 * same reason, its_send_vmovp).
 *
 * Each ITS's lock is released between the publish and the wait, so other
 * CPUs may use that ITS meanwhile, and a failure of theirs resets its queue:
 * the wait then learns from that reset whether the VMOVP ran (the queue's
 * reset records, gicv4/its_queue.h). *any: some ITS executed (or may have
 * executed) the VMOVP.
 */
static virq_status vmovp_send_(const char *api, struct virq_vpe *vpe, uint32_t rd, bool *any)
{
	struct virq_gic *gic = vpe->vm->gic;
	uint8_t raw[LIBVIRQ_GIC_ITS_SLOTS][2][LIBVIRQ_ITS_CMD_SIZE];
	uint64_t ticket[LIBVIRQ_GIC_ITS_SLOTS], base[LIBVIRQ_GIC_ITS_SLOTS];
	uint32_t list, targets, published = 0;
	bool single;
	virq_status st;

	targets = vmovp_targets_(vpe, &list, &single);
	if (!targets) { /* mapped on no ITS: the next VMAPP names @rd */
		*any = true;
		return LIBVIRQ_OK;
	}
	st = vmovp_encode_(api, vpe, rd, targets, list, single, raw);
	for (uint32_t m = targets; m && st == LIBVIRQ_OK; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		struct virq_its *its = gic->its[i];

		/* Each ITS's lock around its own publish, one at a time. */
		virq_its_lock_settled_(its);
		st = its->dead ? LIBVIRQ_EDEAD : LIBVIRQ_OK;
		base[i] = its->q.wr_lin;
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_push_raw_(&its->q, raw[i][0]);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_push_raw_(&its->q, raw[i][1]);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_publish_(&its->q, &ticket[i]);
		if (st != LIBVIRQ_OK)
			st = vmovp_publish_failed_(api, vpe, its, st, base[i], any);
		virq_its_unlock_(its);
		if (st == LIBVIRQ_OK)
			published |= 1u << i;
	}
	/* Wait for every ITS that has it, also after a failure on a later one
	 * (those VMOVPs are published and will run). */
	for (uint32_t m = published; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		struct virq_its *its = gic->its[i];
		virq_status w;

		/* Each ITS's lock for its own wait (never two held): commands
		 * other CPUs queue meanwhile go after the VMOVP. */
		virq_its_lock_(its);
		w = its->dead ? LIBVIRQ_EDEAD : virq_its_queue_wait_(&its->q, ticket[i], NULL);
		if (w == LIBVIRQ_OK)
			its->cmds += 2;
		if (w == LIBVIRQ_OK || vmovp_wait_failed_(its, w, base[i], ticket[i]))
			*any = true;
		virq_its_unlock_(its);
		if (w != LIBVIRQ_OK && st == LIBVIRQ_OK)
			st = LIBVIRQ_FAILV_(
			    api, &vpe->hal, w,
			    "VMOVP + VSYNC of vPE %u not seen to run on the ITS at %x, "
			    "or a queue reset after another caller's failure dropped "
			    "them",
			    vpe->vpeid, its->base);
	}
	return st;
}

/* virq_vpe_move()'s checks of a live vPE and the target. */
static virq_status move_args_(const char *api, const struct virq_vpe *vpe, uint32_t rd)
{
	const struct virq_gic *gic = vpe->vm->gic;
	const struct virq_hal *hal = &vpe->hal;

	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EDEAD, "vPE %u being torn down",
				      vpe->vpeid);
	if (rd >= gic->nr_rd)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EINVAL, "rd=%u >= nr_rd=%u", rd,
				      gic->nr_rd);
	/* Whether VMOVP may target a resident vPE is not stated in the
	 * manual sections the library follows: keep it non-resident, as KVM
	 * does (it moves the vPE before making it resident on the new CPU). */
	if (vpe->flags & LIBVIRQ_VPE_RESIDENT)
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "vPE %u resident (virq_vpe_make_nonresident() first)",
				      vpe->vpeid);
	if (!(gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_FAILV_(api, hal, LIBVIRQ_EBUSY,
				      "rd=%u: LPIs not enabled on the target redistributor", rd);
	return LIBVIRQ_OK;
}

virq_status virq_vpe_move(struct virq_vpe *vpe, uint32_t rd)
{
	const char *const api = LIBVIRQ_ENTRY_;
	struct virq_gic *gic;
	bool any = false, hip09 = false;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_GICV4_DEAD_(api, NULL, "vpe", vpe);
	gic = vpe->vm->gic;
	st = move_args_(api, vpe, rd);
	if (st != LIBVIRQ_OK)
		return st;
	/* Same target: nothing to do, unless an earlier move stopped half-way
	 * (some ITSes may still point at the old RD). VMOVP is sent on GICv4.1
	 * too even when both redistributors share a vPE table: skipping it
	 * would leave the default doorbell on the old CPU (Linux reverted
	 * that shortcut, af9acbfc2c4b). */
	if (rd == vpe->rd && !(vpe->flags & LIBVIRQ_VPE_MOVE_PENDING))
		return LIBVIRQ_OK;
	st = vmovp_send_(api, vpe, rd, &any);
	if (any) {
		if (!(vpe->flags & LIBVIRQ_VPE_MOVE_PENDING))
			vpe->move_from = vpe->rd; /* a retry keeps the first move's origin */
		vpe->rd = rd;
		vpe->flags |= LIBVIRQ_VPE_MOVE_PENDING; /* until the follow-ups are done */
	}
	if (st != LIBVIRQ_OK)
		return st;
	for (uint32_t m = vpe->its_mask; m; m &= m - 1)
		if (gic->its[__builtin_ctz(m)]->quirks & LIBVIRQ_ITS_QUIRK_HIP09_162100801)
			hip09 = true;
	if (hip09) {
		st = hip09_invall_(api, gic, rd, vpe->vpeid);
		if (st != LIBVIRQ_OK)
			return st;
	}
	/* The doorbell: cleared where the vPE left, raised here for a vCPU in
	 * WFI (a failure is reported there; retry the move). */
	st = virq_vpe_db_move_(api, vpe, vpe->move_from, rd);
	if (st != LIBVIRQ_OK)
		return st;
	vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_MOVE_PENDING;
	return LIBVIRQ_OK;
}
