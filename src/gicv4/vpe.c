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
#include "its_table_priv.h"
#include "lpi_priv.h"
#include "rdist_priv.h"

/* ---------------- VM ---------------- */

virq_status virq_gic_vm_init(struct virq_gic_vm *vm, struct virq_gic *gic, uint32_t id_bits)
{
	const struct virq_hal *hal;
	uint64_t size;
	virq_status st;

	if (!gic_live_(gic))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_gic_vm_init: gic not live");
	hal = &gic->hal;
	if (!vm)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_gic_vm_init: NULL vm");
	if (vm->state == LIVE_)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EBUSY,
				    "virq_gic_vm_init: vm is live (virq_gic_vm_destroy() first)");
	if (gic->version < LIBVIRQ_GIC_V4_0)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOTSUP, "virq_gic_vm_init: not a GICv4");
	if (id_bits < 14 || id_bits > gic->lpi_bits)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ERANGE,
				     "virq_gic_vm_init: id_bits not 14 .. the GIC's lpi_bits",
				     id_bits, gic->lpi_bits);
	memset(vm, 0, sizeof(*vm));
	size = round_up_((1ull << id_bits) - LIBVIRQ_LPI_BASE, 0x10000);
	st = virq_page_alloc_(hal, size, 0x10000, &vm->vprop);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(hal, st, "virq_gic_vm_init: vLPI table allocation failed");
	memset(vm->vprop.va, 0xA2, vm->vprop.size); /* priority 0xA0, RES1, disabled */
	if (clean_if_(hal, gic->rd_noncoherent, vm->vprop.va, vm->vprop.size) != LIBVIRQ_OK) {
		virq_page_free_(hal, &vm->vprop);
		return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				    "virq_gic_vm_init: table not coherent and no dcache_clean");
	}
	vm->gic = gic;
	vm->id_bits = id_bits;
	gic->nr_vms++;
	vm->state = LIVE_;
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_destroy(struct virq_gic_vm *vm)
{
	if (!vm_live_(vm))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_gic_vm_destroy: vm not live");
	if (vm->nr_vpes)
		return LIBVIRQ_FAILV(&vm->gic->hal, LIBVIRQ_EBUSY,
				     "virq_gic_vm_destroy: vPEs still exist", vm->nr_vpes);
	virq_page_free_(&vm->gic->hal, &vm->vprop);
	vm->gic->nr_vms--;
	vm->gic = NULL;
	vm->state = LIBVIRQ_GICV4_GONE;
	return LIBVIRQ_OK;
}

virq_status virq_gic_vm_vlpi_config(struct virq_gic_vm *vm, uint32_t vintid, uint8_t priority,
				    bool enable)
{
	uint8_t *b;

	if (!vm_live_(vm))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_gic_vm_vlpi_config: vm not live");
	if (vintid < LIBVIRQ_LPI_BASE || vintid >= (1u << vm->id_bits))
		return LIBVIRQ_FAILV(
		    &vm->gic->hal, LIBVIRQ_ERANGE,
		    "virq_gic_vm_vlpi_config: vINTID outside 8192 .. 2^id_bits - 1", vintid);
	b = (uint8_t *)vm->vprop.va + (vintid - LIBVIRQ_LPI_BASE);
	*b = (uint8_t)((priority & LIBVIRQ_FIELD_MASK(LIBVIRQ_LPI_CFG_Priority)) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_RES1, 1) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_LPI_CFG_Enable, enable ? 1 : 0));
	if (clean_if_(&vm->gic->hal, vm->gic->rd_noncoherent, b, 1) != LIBVIRQ_OK)
		return LIBVIRQ_FAIL(&vm->gic->hal, LIBVIRQ_ENOHAL,
				    "virq_gic_vm_vlpi_config: byte written but not cleaned (no "
				    "dcache_clean)");
	return LIBVIRQ_OK;
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
	struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMAPP};
	bool v41 = its->lim.version == LIBVIRQ_ITS_V41;

	c.vPEID = vpe->vpeid;
	c.V = map;
	/* 4.1: Alloc on the first map and on the last unmap (Linux vmapp_count). */
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
	const struct virq_hal *hal = &its->gic->hal;
	struct virq_its_cmd c[3];
	virq_status st = virq_its_tbl_ensure_(its, LIBVIRQ_ITS_TBL_VPE, vpe->vpeid);

	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st,
				     "virq_vpe_init: vPE table entry not available on an ITS "
				     "(level-2 page, or beyond the table)",
				     its->base, vpe->vpeid);
	c[0] = vmapp_(its, vpe, true);
	c[1] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VINVALL, .vPEID = vpe->vpeid};
	c[2] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_(its, c, 3);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(hal, st, "virq_vpe_init: VMAPP + VINVALL + VSYNC failed",
				     its->base, vpe->vpeid);
	vpe->its_mask |= 1u << its->slot;
	vpe->vmapp_count++;
	its->nr_vpes++;
	return LIBVIRQ_OK;
}

/* Maps @vpe on @its unless the ITS is dead (then skipped), under its lock. */
static virq_status vpe_map_on_(struct virq_its *its, struct virq_vpe *vpe)
{
	virq_status st = LIBVIRQ_OK;

	virq_its_lock_(its);
	if (!its->dead)
		st = vpe_map_on_locked_(its, vpe);
	virq_its_unlock_(its);
	return st;
}

/* VMAPP (V = 0) on one ITS, its lock held. */
/* @failed: the caller's constant message (virq_vpe_destroy(), or the
 * rollback of virq_vpe_init()). */
static virq_status vpe_unmap_on_(struct virq_its *its, struct virq_vpe *vpe, const char *failed)
{
	struct virq_its_cmd c[2];
	size_t n = 1;
	virq_status st;

	c[0] = vmapp_(its, vpe, false);
	/* 4.0 needs VSYNC; a 4.1 unmap is self-synchronising and a VSYNC to
	 * the unmapped vPE may raise an SError (Linux its_send_vmapp on 4.1). */
	if (its->lim.version != LIBVIRQ_ITS_V41)
		c[n++] = virq_its_vsync_cmd(vpe->vpeid);
	st = virq_its_exec_(its, c, n);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(&its->gic->hal, st, failed, its->base, vpe->vpeid);
	vpe->its_mask &= ~(1u << its->slot);
	vpe->vmapp_count--;
	its->nr_vpes--;
	return LIBVIRQ_OK;
}

/* Unmaps from every ITS in reverse slot order; stops at the first error. */
static virq_status vpe_unmap_all_(struct virq_vpe *vpe, const char *failed)
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
			st = vpe_unmap_on_(gic->its[i], vpe, failed);
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

static virq_status vpe_check_init_(const struct virq_gic_vm *vm, uint32_t rd, uint32_t doorbell)
{
	const struct virq_hal *hal = &vm->gic->hal;

	if (rd >= vm->gic->nr_rd)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EINVAL,
				     "virq_vpe_init: redistributor index >= nr_rd", rd);
	if (!(vm->gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_vpe_init: LPIs not enabled on the redistributor", rd);
	if (doorbell != LIBVIRQ_ITS_NO_DOORBELL && !virq_lpi_allocated_(vm->gic, doorbell))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOENT,
				     "virq_vpe_init: doorbell is not an allocated LPI", doorbell);
	for (uint32_t i = 0; i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (its_v4_(vm->gic->its[i]))
			return LIBVIRQ_OK;
	return LIBVIRQ_FAIL(hal, LIBVIRQ_ENOTSUP, "virq_vpe_init: no live GICv4 ITS");
}

virq_status virq_vpe_init(struct virq_vpe *vpe, struct virq_gic_vm *vm, uint32_t rd,
			  uint32_t doorbell)
{
	const struct virq_hal *hal;
	struct virq_gic *gic;
	uint64_t size;
	virq_status st;

	if (!vm_live_(vm))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_init: vm not live");
	gic = vm->gic;
	hal = &gic->hal;
	if (!vpe)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EINVAL, "virq_vpe_init: NULL vpe");
	if (vpe->state == LIVE_)
		return LIBVIRQ_FAIL(hal, LIBVIRQ_EBUSY,
				    "virq_vpe_init: vpe is live (virq_vpe_destroy() first)");
	st = vpe_check_init_(vm, rd, doorbell);
	if (st != LIBVIRQ_OK)
		return st;
	memset(vpe, 0, sizeof(*vpe));
	vpe->vm = vm;
	vpe->rd = rd;
	vpe->doorbell = LIBVIRQ_ITS_NO_DOORBELL;
	vpe->proxy_event = -1;
	vpe->vgrp0 = vpe->vgrp1 = true;
	vpe->flags = LIBVIRQ_VPE_IDAI; /* Linux starts every vPE with IDAI set */
	if (!virq_vpeid_alloc_(gic, &vpe->vpeid)) {
		vpe->vm = NULL;
		return LIBVIRQ_FAILV(hal, LIBVIRQ_ENOSPC, "virq_vpe_init: every vPEID is in use",
				     gic->vpeid_bits);
	}
	if (doorbell != LIBVIRQ_ITS_NO_DOORBELL && !virq_lpi_doorbell_take_(gic, doorbell)) {
		virq_vpeid_free_(gic, vpe->vpeid);
		vpe->vm = NULL;
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_vpe_init: doorbell LPI already in use (another vPE's "
				     "doorbell, or mapped by an ITS event)",
				     doorbell);
	}
	vpe->doorbell = doorbell;
	size = round_up_((1ull << vm->id_bits) / 8, 0x10000);
	st = virq_page_alloc_(hal, size, 0x10000, &vpe->vpt);
	if (st != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL(hal, st, "virq_vpe_init: VPT allocation failed");
	if (st == LIBVIRQ_OK &&
	    clean_if_(hal, gic->rd_noncoherent, vpe->vpt.va, vpe->vpt.size) != LIBVIRQ_OK)
		st = LIBVIRQ_FAIL(hal, LIBVIRQ_ENOHAL,
				  "virq_vpe_init: VPT not coherent and no dcache_clean");
	if (st == LIBVIRQ_OK)
		st = virq_rdist_vpe_entry_ensure_(gic, vpe->vpeid);
	for (uint32_t i = 0; st == LIBVIRQ_OK && i < LIBVIRQ_GIC_ITS_SLOTS; i++)
		if (its_v4_(gic->its[i]))
			st = vpe_map_on_(gic->its[i], vpe);
	if (st == LIBVIRQ_OK && !vpe->its_mask)
		st = LIBVIRQ_FAIL(hal, LIBVIRQ_EDEAD, "virq_vpe_init: every GICv4 ITS is dead");
	if (st != LIBVIRQ_OK) {
		if (vpe_unmap_all_(vpe,
				   "virq_vpe_init: rollback: VMAPP (V = 0) failed on an ITS") !=
		    LIBVIRQ_OK) {
			/* Still mapped on an ITS: its VPT and vPEID stay in use
			 * (freeing them would let the ITS write freed memory and
			 * hand the vPEID out twice). Left live and DEAD: destroy
			 * it until that succeeds. */
			vpe->flags |= LIBVIRQ_VPE_MAPPED | LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD;
			vm->nr_vpes++;
			vpe->state = LIVE_;
			return st; /* the first error is reported */
		}
		vpe_free_(vpe);
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
	const struct virq_hal *hal;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_destroy: vpe not live");
	hal = &vpe->vm->gic->hal;
	if ((vpe->flags & LIBVIRQ_VPE_RESIDENT) || vpe->nr_vlpis)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_vpe_destroy: vPE resident or vLPIs still mapped",
				     vpe->vpeid, vpe->nr_vlpis);
	vpe->flags |= LIBVIRQ_VPE_DYING;
	virq_vpe_proxy_release_(vpe);
	st = vpe_unmap_all_(vpe, "virq_vpe_destroy: VMAPP (V = 0) failed on an ITS");
	if (st != LIBVIRQ_OK) {
		vpe->flags |= LIBVIRQ_VPE_DEAD;
		return st; /* logged by vpe_unmap_on_() */
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
	const struct virq_hal *hal;
	struct virq_gic *gic;
	struct virq_its_cmd c[2];

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_invall: vpe not live");
	gic = vpe->vm->gic;
	hal = &gic->hal;
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EDEAD, "virq_vpe_invall: vPE being torn down",
				     vpe->vpeid);
	c[0] = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VINVALL, .vPEID = vpe->vpeid};
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
			return LIBVIRQ_FAILV(hal, st, "virq_vpe_invall: VINVALL + VSYNC failed",
					     its->base, vpe->vpeid);
		return LIBVIRQ_OK;
	}
	return LIBVIRQ_FAILV(hal, LIBVIRQ_EDEAD, "virq_vpe_invall: no live ITS maps the vPE",
			     vpe->vpeid);
}

/* ---------------- VMOVP ---------------- */

static virq_status hip09_invall_(struct virq_gic *gic, uint32_t rd, uint32_t vpeid)
{
	virq_wr64_(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_INVALLR),
		   LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVALLR_V, 1) |
		       LIBVIRQ_FIELD_PREP(LIBVIRQ_GICR_INVALLR_vPEID, vpeid));
	if (virq_poll32(&gic->hal, rd_addr_(gic, rd, LIBVIRQ_GICR_SYNCR),
			(uint32_t)LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_SYNCR_Busy), 0, gic->timeout_ns,
			NULL) != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(
		    &gic->hal, LIBVIRQ_ETIMEDOUT,
		    "virq_vpe_move: Hip09 GICR_INVALLR: GICR_SYNCR.Busy stayed set", rd, vpeid);
	return LIBVIRQ_OK;
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
 */
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
 */
static virq_status vmovp_send_(struct virq_vpe *vpe, uint32_t rd, bool *any)
{
	struct virq_gic *gic = vpe->vm->gic;
	const struct virq_hal *hal = &gic->hal;
	uint8_t raw[LIBVIRQ_GIC_ITS_SLOTS][2][LIBVIRQ_ITS_CMD_SIZE];
	uint64_t ticket[LIBVIRQ_GIC_ITS_SLOTS];
	uint32_t list, targets, published = 0;
	struct virq_its_cmd c[2];
	bool single;
	virq_status st = LIBVIRQ_OK;

	targets = vmovp_targets_(vpe, &list, &single);
	memset(&c[0], 0, sizeof(c[0]));
	c[0].opcode = LIBVIRQ_ITS_VMOVP;
	c[0].vPEID = vpe->vpeid;
	c[1] = virq_its_vsync_cmd(vpe->vpeid);
	if (!single) {
		c[0].SequenceNumber = gic->vmovp_seq++; /* serialised by the caller (gicv4/vpe.h) */
		c[0].ITSList = list;
	}
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
			return LIBVIRQ_FAILV(hal, st,
					     "virq_vpe_move: VMOVP rejected by an ITS's limits",
					     its->base, rd);
	}
	for (uint32_t m = targets; m && st == LIBVIRQ_OK; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		struct virq_its *its = gic->its[i];

		/* Each ITS's lock around its own publish, one at a time. */
		virq_its_lock_(its);
		if (its->dead) {
			virq_its_unlock_(its);
			st = LIBVIRQ_FAILV(hal, LIBVIRQ_EDEAD, "virq_vpe_move: an ITS is dead",
					   its->base);
			break;
		}
		st = virq_its_queue_push_raw(&its->q, raw[i][0]);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_push_raw(&its->q, raw[i][1]);
		if (st == LIBVIRQ_OK)
			st = virq_its_queue_publish(&its->q, &ticket[i]);
		if (st != LIBVIRQ_OK)
			virq_its_fail_(its, st);
		virq_its_unlock_(its);
		if (st != LIBVIRQ_OK) {
			st = LIBVIRQ_FAILV(hal, st,
					   "virq_vpe_move: VMOVP + VSYNC not queued on an ITS",
					   its->base);
			break;
		}
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
		w = virq_its_queue_wait(&its->q, ticket[i], NULL);
		if (w != LIBVIRQ_OK)
			virq_its_fail_(its, w);
		else
			its->cmds += 2;
		virq_its_unlock_(its);
		if (w != LIBVIRQ_OK) {
			if (st == LIBVIRQ_OK)
				st = LIBVIRQ_FAILV(hal, w,
						   "virq_vpe_move: VMOVP + VSYNC failed on an ITS",
						   its->base);
			continue;
		}
		*any = true;
	}
	return st;
}

virq_status virq_vpe_move(struct virq_vpe *vpe, uint32_t rd)
{
	const struct virq_hal *hal;
	struct virq_gic *gic;
	bool any = false, hip09 = false;
	virq_status st;

	if (!vpe_live_(vpe))
		return LIBVIRQ_FAIL(NULL, LIBVIRQ_EINVAL, "virq_vpe_move: vpe not live");
	gic = vpe->vm->gic;
	hal = &gic->hal;
	if (vpe->flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EDEAD, "virq_vpe_move: vPE being torn down",
				     vpe->vpeid);
	if (rd >= gic->nr_rd)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EINVAL,
				     "virq_vpe_move: redistributor index >= nr_rd", rd);
	/* Whether VMOVP may target a resident vPE is not stated in the
	 * manual sections the library follows: keep it non-resident, as KVM
	 * does (it moves the vPE before making it resident on the new CPU). */
	if (vpe->flags & LIBVIRQ_VPE_RESIDENT)
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_vpe_move: vPE resident (make it non-resident first)",
				     vpe->vpeid);
	if (!(gic->rd[rd].flags & LIBVIRQ_RDIST_LPIS_ON))
		return LIBVIRQ_FAILV(hal, LIBVIRQ_EBUSY,
				     "virq_vpe_move: LPIs not enabled on the target redistributor",
				     rd);
	/* Same target: nothing to do, unless an earlier move stopped half-way
	 * (some ITSes may still point at the old RD). VMOVP is sent on GICv4.1
	 * too even when both redistributors share a vPE table: skipping it
	 * would leave the default doorbell on the old CPU (Linux reverted
	 * that shortcut, af9acbfc2c4b). */
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
	for (uint32_t m = vpe->its_mask; m; m &= m - 1)
		if (gic->its[__builtin_ctz(m)]->quirks & LIBVIRQ_ITS_QUIRK_HIP09_162100801)
			hip09 = true;
	if (hip09) {
		st = hip09_invall_(gic, rd, vpe->vpeid);
		if (st != LIBVIRQ_OK)
			return st;
	}
	/* The doorbell: cleared where the vPE left, raised here for a vCPU in WFI. */
	st = virq_vpe_db_move_(vpe, vpe->move_from, rd);
	if (st != LIBVIRQ_OK)
		return LIBVIRQ_FAILV(
		    hal, st,
		    "virq_vpe_move: the doorbell clean-up after VMOVP failed (retry the "
		    "move)",
		    vpe->vpeid, vpe->move_from);
	vpe->flags &= ~(uint32_t)LIBVIRQ_VPE_MOVE_PENDING;
	return LIBVIRQ_OK;
}
