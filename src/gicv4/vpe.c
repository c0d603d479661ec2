/* SPDX-License-Identifier: MIT */
/*
 * VMs (vLPI configuration tables), vPE lifecycle (vPEID, VPT, VMAPP on every
 * GICv4 ITS, reverse teardown) and VMOVP.
 * Spec: Arm IHI 0069 §9 (GICv4), §6.3 VMAPP/VINVALL/VSYNC/VMOVP; facts §1.2,
 * §7; CASE-10 (4.1 Alloc / no VSYNC after unmap).
 */
#include "gicv4/doorbell_priv.h"
#include "gicv4/its_exec_priv.h"
#include "gicv4/its_table_priv.h"
#include "gicv4/lpi_priv.h"

/* ---------------- VM ---------------- */

virq_status virq_gic_vm_init(struct virq_gic_vm *vm, struct virq_gic *gic, uint32_t id_bits)
{
	uint64_t size;
	virq_status st;

	if (!vm || !gic || !gic->lpi_map.va)
		return LIBVIRQ_EINVAL;
	if (gic->version < LIBVIRQ_GIC_V4_0)
		return LIBVIRQ_ENOTSUP;
	if (id_bits < 14 || id_bits > gic->lpi_bits)
		return LIBVIRQ_ERANGE;
	memset(vm, 0, sizeof(*vm));
	size = round_up_((1ull << id_bits) - LIBVIRQ_LPI_BASE, 0x10000);
	st = virq_page_alloc_(&gic->hal, size, 0x10000, &vm->vprop);
	if (st != LIBVIRQ_OK)
		return st;
	memset(vm->vprop.va, 0xA2, vm->vprop.size); /* priority 0xA0, RES1, disabled */
	st = clean_if_(&gic->hal, gic->rd_noncoherent, vm->vprop.va, vm->vprop.size);
	if (st != LIBVIRQ_OK) {
		virq_page_free_(&gic->hal, &vm->vprop);
		return st;
	}
	vm->gic = gic;
	vm->id_bits = id_bits;
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_destroy(struct virq_gic_vm *vm)
{
	if (!vm || !vm->gic)
		return LIBVIRQ_EINVAL;
	if (vm->nr_vpes)
		return LIBVIRQ_EBUSY;
	virq_page_free_(&vm->gic->hal, &vm->vprop);
	vm->gic = NULL;
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_vlpi_config(struct virq_gic_vm *vm, uint32_t vintid, uint8_t priority, bool enable)
{
	uint8_t *b;

	if (!vm || !vm->gic)
		return LIBVIRQ_EINVAL;
	if (vintid < LIBVIRQ_LPI_BASE || vintid >= (1u << vm->id_bits))
		return LIBVIRQ_ERANGE;
	b = (uint8_t *)vm->vprop.va + (vintid - LIBVIRQ_LPI_BASE);
	*b = (uint8_t)((priority & LIBVIRQ_FIELD_MASK(LIBVIRQ_LPI_CFG_Priority)) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_RES1, 1) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_Enable, enable ? 1 : 0));
	return clean_if_(&vm->gic->hal, vm->gic->rd_noncoherent, b, 1);
}

/* ---------------- vPEID allocator ---------------- */

static virq_status vpeid_alloc_(struct virq_gic *gic, uint32_t *id)
{
	uint32_t n = 1u << gic->vpeid_bits;

	for (uint32_t i = 0; i < n; i++) {
		if (!bm_test_(gic->vpeid_map.va, i)) {
			bm_set_(gic->vpeid_map.va, i);
			*id = i;
			return LIBVIRQ_OK;
		}
	}
	return LIBVIRQ_ENOSPC;
}

/* ---------------- VMAPP ---------------- */

/* A GICv4 ITS (its version is fixed at init; whether it is dead is read
 * under its lock, by the callers). */
static bool its_v4_(const struct virq_its *its)
{
	return its && its->lim.version != LIBVIRQ_ITS_V3;
}

static struct virq_its_cmd vmapp_(const struct virq_its *its, const struct virq_vpe *vpe, bool map)
{
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMAPP};
	bool v41 = its->lim.version == LIBVIRQ_ITS_V41;

	c.vPEID = vpe->vpeid;
	c.V = map;
	/* 4.1: Alloc on the first map and on the last unmap (CASE-10). */
	if (v41)
		c.Alloc = map ? vpe->vmapp_count == 0 : vpe->vmapp_count == 1;
	if (!map)
		return c;
	c.RDbase = virq_its_rdbase_(its, vpe->rd);
	c.VPT_addr = vpe->vpt.pa;
	c.VPT_size = vpe->vm->id_bits - 1;
	if (v41) {
		c.VCONF_addr = vpe->vm->vprop.pa;
		c.Default_Doorbell = vpe->doorbell;
	}
	return c;
}

/* VMAPP + VINVALL + VSYNC on one ITS, its lock held. */
static virq_status vpe_map_on_locked_(struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_cmd c[3];
	virq_status st = virq_its_tbl_ensure_(its, LIBVIRQ_ITS_TBL_VPE, vpe->vpeid);

	if (st != LIBVIRQ_OK)
		return st;
	c[0] = vmapp_(its, vpe, true);
	c[1] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VINVALL, .vPEID = vpe->vpeid};
	c[2] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_(its, c, 3);
	if (st == LIBVIRQ_OK) {
		vpe->its_mask |= 1u << its->slot;
		vpe->vmapp_count++;
		its->nr_vpes++;
	}
	return st;
}

/* Maps @vpe on @its unless the ITS is dead (then skipped). */
static virq_status vpe_map_on_(struct virq_its *its, struct virq_vpe *vpe)
{
	virq_status st = LIBVIRQ_OK;

	virq_its_lock_(its);
	if (!its->dead)
		st = vpe_map_on_locked_(its, vpe);
	virq_its_unlock_(its);
	return st;
}

/* VMAPP(V = 0) on one ITS, its lock held. */
static virq_status vpe_unmap_on_(struct virq_its *its, struct virq_vpe *vpe)
{
	struct virq_its_cmd c[2];
	size_t n = 1;
	virq_status st;

	c[0] = vmapp_(its, vpe, false);
	/* 4.0 needs VSYNC; 4.1 unmap is self-synchronising and a VSYNC to the
	 * unmapped vPE may raise an SError (CASE-10). */
	if (its->lim.version != LIBVIRQ_ITS_V41)
		c[n++] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_(its, c, n);
	if (st == LIBVIRQ_OK) {
		vpe->its_mask &= ~(1u << its->slot);
		vpe->vmapp_count--;
		its->nr_vpes--;
	}
	return st;
}

/* Unmaps from every ITS in reverse slot order; stops at the first error. */
static virq_status vpe_unmap_all_(struct virq_vpe *vpe)
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
			st = vpe_unmap_on_(gic->its[i], vpe);
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
	bm_clr_(gic->vpeid_map.va, vpe->vpeid);
}

static virq_status vpe_check_init_(const struct virq_gic_vm *vm, uint32_t rd, uint32_t doorbell)
{
	if (!vm->gic || rd >= vm->gic->nr_rd)
		return LIBVIRQ_EINVAL;
	if (!(vm->gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_EBUSY;
	if (doorbell != LIBVIRQ_ITS_NO_DOORBELL && !virq_lpi_allocated_(vm->gic, doorbell))
		return LIBVIRQ_ENOENT;
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (its_v4_(vm->gic->its[i]))
			return LIBVIRQ_OK;
	return LIBVIRQ_ENOTSUP;
}

virq_status virq_vpe_init(struct virq_vpe *vpe, struct virq_gic_vm *vm, uint32_t rd, uint32_t doorbell)
{
	struct virq_gic *gic;
	uint64_t size;
	virq_status st;

	if (!vpe || !vm)
		return LIBVIRQ_EINVAL;
	st = vpe_check_init_(vm, rd, doorbell);
	if (st != LIBVIRQ_OK)
		return st;
	gic = vm->gic;
	memset(vpe, 0, sizeof(*vpe));
	vpe->vm = vm;
	vpe->rd = rd;
	vpe->doorbell = doorbell;
	vpe->proxy_event = -1;
	vpe->vgrp0 = vpe->vgrp1 = true;
	vpe->flags = LIBVIRQ_VPE_IDAI; /* Linux starts every vPE with IDAI set */
	st = vpeid_alloc_(gic, &vpe->vpeid);
	if (st != LIBVIRQ_OK) {
		vpe->vm = NULL;
		return st;
	}
	size = round_up_((1ull << vm->id_bits) / 8, 0x10000);
	st = virq_page_alloc_(&gic->hal, size, 0x10000, &vpe->vpt);
	if (st == LIBVIRQ_OK)
		st = clean_if_(&gic->hal, gic->rd_noncoherent, vpe->vpt.va, vpe->vpt.size);
	for (uint32_t i = 0; st == LIBVIRQ_OK && i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (its_v4_(gic->its[i]))
			st = vpe_map_on_(gic->its[i], vpe);
	if (st == LIBVIRQ_OK && !vpe->its_mask)
		st = LIBVIRQ_EDEAD; /* every GICv4 ITS is dead */
	if (st != LIBVIRQ_OK) {
		if (vpe_unmap_all_(vpe) != LIBVIRQ_OK) {
			/* Still mapped on an ITS: its VPT and vPEID stay in use
			 * (freeing them would let the ITS write freed memory and
			 * hand the vPEID out twice). Left DEAD: destroy again. */
			vpe->flags |= LIBVIRQ_VPE_MAPPED | LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD;
			vm->nr_vpes++;
			return st; /* the first error is reported */
		}
		vpe_free_(vpe);
		vpe->vm = NULL;
		return st;
	}
	vpe->flags |= LIBVIRQ_VPE_MAPPED;
	vm->nr_vpes++;
	return LIBVIRQ_OK;
}

virq_status virq_vpe_destroy(struct virq_vpe *vpe)
{
	virq_status st;

	if (!vpe || !vpe->vm || !(vpe->flags & LIBVIRQ_VPE_MAPPED))
		return LIBVIRQ_EINVAL;
	if ((vpe->flags & LIBVIRQ_VPE_RESIDENT) || vpe->nr_vlpis)
		return LIBVIRQ_EBUSY;
	vpe->flags |= LIBVIRQ_VPE_DYING;
	virq_vpe_proxy_release_(vpe);
	st = vpe_unmap_all_(vpe);
	if (st != LIBVIRQ_OK) {
		vpe->flags |= LIBVIRQ_VPE_DEAD;
		return st;
	}
	vpe_free_(vpe);
	vpe->vm->nr_vpes--;
	vpe->flags = 0;
	vpe->vm = NULL;
	return LIBVIRQ_OK;
}

/* ---------------- VMOVP ---------------- */

static struct virq_its_cmd vmovp_(const struct virq_its *its, const struct virq_vpe *vpe,
				  uint32_t rd, uint16_t seq, uint32_t list)
{
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMOVP};

	c.vPEID = vpe->vpeid;
	c.RDbase = virq_its_rdbase_(its, rd);
	if (!its->lim.vmovp) {
		c.SequenceNumber = seq;
		c.ITSList = list;
	}
	if (its->lim.version == LIBVIRQ_ITS_V41) {
		c.DB = true;
		c.Default_Doorbell = vpe->doorbell;
	}
	return c;
}

static virq_status hip09_invall_(struct virq_gic *gic, uint32_t rd, uint32_t vpeid)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_INVALLR),
		   LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVALLR_V, 1) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVALLR_vPEID, vpeid));
	return virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			   (uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			   NULL);
}

static virq_status vmovp_send_(struct virq_vpe *vpe, uint32_t rd, bool *any)
{
	struct virq_gic *gic = vpe->vm->gic;
	uint32_t list = 0;
	uint16_t seq = 0;
	bool single = false;

	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		if (!(vpe->its_mask & (1u << i)))
			continue;
		single = single || gic->its[i]->lim.vmovp;
		list |= 1u << gic->its[i]->its_number;
	}
	if (!single)
		seq = gic->vmovp_seq++; /* serialised by the caller (see gicv4/vpe.h) */
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++) {
		struct virq_its *its = gic->its[i];
		struct virq_its_cmd c[2];
		virq_status st;

		if (!(vpe->its_mask & (1u << i)) || (single && !its->lim.vmovp))
			continue;
		c[0] = vmovp_(its, vpe, rd, seq, list);
		c[1] = virq_its_vsync_cmd(vpe->vpeid);
		virq_its_lock_(its);
		st = virq_its_exec_(its, c, 2);
		virq_its_unlock_(its);
		if (st != LIBVIRQ_OK)
			return st;
		*any = true;
		if (single)
			break; /* GITS_TYPER.VMOVP = 1: one ITS is enough */
	}
	return LIBVIRQ_OK;
}

virq_status virq_vpe_move(struct virq_vpe *vpe, uint32_t rd)
{
	struct virq_gic *gic;
	bool any = false, hip09 = false;
	virq_status st;

	if (!vpe || !vpe->vm || !(vpe->flags & LIBVIRQ_VPE_MAPPED))
		return LIBVIRQ_EINVAL;
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_EDEAD;
	gic = vpe->vm->gic;
	if (rd >= gic->nr_rd)
		return LIBVIRQ_EINVAL;
	/* Whether VMOVP is allowed on a resident vPE is [UNCERTAIN] (facts §7.4,
	 * §12 item 6): keep it non-resident, as KVM does. */
	if (vpe->flags & LIBVIRQ_VPE_RESIDENT)
		return LIBVIRQ_EBUSY;
	if (!(gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_EBUSY;
	/* Same target: nothing to do, unless an earlier move stopped half-way
	 * (some ITSes may still point at the old RD). */
	if (rd == vpe->rd && !(vpe->flags & LIBVIRQ_VPE_MOVE_PENDING))
		return LIBVIRQ_OK;
	st = vmovp_send_(vpe, rd, &any);
	if (any) {
		if (!(vpe->flags & LIBVIRQ_VPE_MOVE_PENDING))
			vpe->move_from = vpe->rd; /* a retry keeps the first move's origin */
		vpe->rd = rd;
		vpe->flags |= LIBVIRQ_VPE_MOVE_PENDING; /* until the follow-ups are done */
	}
	if (st != LIBVIRQ_OK)
		return st;
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if ((vpe->its_mask & (1u << i)) &&
		    (gic->its[i]->quirks & LIBVIRQ_ITS_QUIRK_HIP09_162100801))
			hip09 = true;
	if (hip09) {
		st = hip09_invall_(gic, rd, vpe->vpeid);
		if (st != LIBVIRQ_OK)
			return st;
	}
	/* The doorbell: cleared where the vPE left, raised here for a vCPU in WFI. */
	st = virq_vpe_db_move_(vpe, vpe->move_from, rd);
	if (st == LIBVIRQ_OK)
		vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_MOVE_PENDING;
	return st;
}
