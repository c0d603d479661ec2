/* SPDX-License-Identifier: MIT */
/*
 * Fault-injection sweep of the GICv4 core (IHI 0069): every kind of hardware
 * wait the driver does is made to never finish, in turn, while the whole
 * bring-up + vPE/vLPI path runs (GIC init, distributor enable, redistributor
 * init, ITS init, MAPC, MAPD, VM, vPE, VMAPTI, schedule in/out, VMOVP):
 * GICD_CTLR.RWP, GICR_CTLR.RWP, GICR_WAKER.ChildrenAsleep,
 * GICR_VPENDBASER.Dirty, GICR_SYNCR.Busy, an ITS that never consumes
 * commands, an ITS that never reports Quiescent. Each path stops at its first
 * failure; that failure must be a documented timeout status (ETIMEDOUT,
 * EDEAD, EBUSY, EHW), the fake time spent must be bounded (one deadline per
 * wait reached), and after tearing down whatever succeeded nothing may have
 * been freed twice and — when every teardown call succeeded — nothing leaked.
 * The allocation-failure sweep of the same path is in
 * tests/unit/gicv4/test_gic_sweep.c.
 */
#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>

#include "../gicv4/its_fixture.h"
#include "sweep.h"

enum stuck {
	ST_NONE, ST_GICD_RWP, ST_GICR_RWP, ST_WAKER, ST_DIRTY, ST_SYNCR, ST_ITS_DEAD,
	ST_ITS_NOT_QUIESCENT, ST_COUNT
};

static const char *const stuck_name_[ST_COUNT] = {
	"none", "GICD_CTLR.RWP", "GICR_CTLR.RWP", "GICR_WAKER.ChildrenAsleep",
	"GICR_VPENDBASER.Dirty", "GICR_SYNCR.Busy", "ITS never consumes", "ITS never quiescent",
};

struct path {
	struct virq_sim *fh;
	struct virq_hal hal;
	struct virq_sim_rdist *rm;
	struct virq_sim_its_state *sm;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[2];
	struct virq_its its;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	bool gic_ok, its_ok, dev_ok, vm_ok, vpe_ok, resident;
	uint32_t mapped;
	int step;
};

#define CHK(x)                       \
	do {                         \
		virq_status s_ = (x); \
		if (s_ != LIBVIRQ_OK)    \
			return s_;    \
		p->step++;            \
	} while (0)

static virq_status run_(struct path *p, enum stuck k)
{
	CHK(virq_gic_init(&p->gic, &p->hal, &p->desc, p->rds, 2, 16));
	p->gic_ok = true;
	CHK(virq_gic_dist_enable(&p->gic));
	for (uint32_t r = 0; r < p->gic.nr_rd; r++)
		CHK(virq_gic_rdist_init(&p->gic, r));
	CHK(virq_its_init(&p->its, &p->gic, &p->desc.its[0], NULL));
	p->its_ok = true;
	if (k == ST_ITS_DEAD)
		virq_sim_its_set_dead(virq_sim_its_state_queue(p->sm), true);
	for (uint32_t r = 0; r < p->gic.nr_rd; r++)
		CHK(virq_its_map_collection(&p->its, r));
	CHK(virq_its_device_map(&p->its, &p->dev, 7, 16));
	p->dev_ok = true;
	CHK(virq_gic_vm_init(&p->vm, &p->gic, 16));
	p->vm_ok = true;
	CHK(virq_vpe_init(&p->vpe, &p->vm, 0, LIBVIRQ_ITS_NO_DOORBELL));
	p->vpe_ok = true;
	for (uint32_t e = 0; e < 4; e++) {
		CHK(virq_vlpi_map(&p->dev, e, &p->vpe, 8192 + e, false));
		p->mapped++;
	}
	CHK(virq_vpe_make_resident(&p->vpe, 0));
	p->resident = true;
	CHK(virq_vpe_make_nonresident(&p->vpe, true, NULL));
	p->resident = false;
	CHK(virq_vpe_move(&p->vpe, 1));
	return LIBVIRQ_OK;
}

/* Tears down what succeeded; returns true when every call succeeded. */
static bool undo_(struct path *p)
{
	bool ok = true;

	if (p->resident)
		ok &= virq_vpe_make_nonresident(&p->vpe, false, NULL) == LIBVIRQ_OK;
	for (uint32_t e = 0; e < p->mapped; e++)
		ok &= virq_vlpi_unmap(&p->dev, e) == LIBVIRQ_OK;
	if (p->dev_ok)
		ok &= virq_its_device_unmap(&p->dev) == LIBVIRQ_OK;
	if (p->vpe_ok)
		ok &= virq_vpe_destroy(&p->vpe) == LIBVIRQ_OK;
	if (p->vm_ok)
		ok &= virq_gic_vm_destroy(&p->vm) == LIBVIRQ_OK;
	if (p->its_ok)
		ok &= virq_its_destroy(&p->its) == LIBVIRQ_OK;
	if (p->gic_ok)
		virq_gic_destroy(&p->gic);
	return ok;
}

static void one_(enum stuck k, int version, unsigned long *reached)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(FX_ITS_BASE);
	struct path p;
	uint64_t t0, spent;
	virq_status st;
	bool clean;

	memset(&p, 0, sizeof(p));
	rc.nr = 2;
	rc.version = version;
	rc.dirty = true;
	switch (k) {
	case ST_GICD_RWP: rc.gicd_rwp_polls = ~0u; break;
	case ST_GICR_RWP: rc.rwp_polls = ~0u; break;
	case ST_WAKER: rc.wake_polls = ~0u; break;
	case ST_DIRTY: rc.dirty_polls = ~0u; break;
	case ST_SYNCR: rc.syncr_polls = ~0u; break;
	case ST_ITS_NOT_QUIESCENT: ic.never_quiescent = true; break;
	default: break;
	}
	p.fh = virq_sim_new();
	p.hal = virq_sim_hal(p.fh);
	p.rm = virq_sim_rdist_new(p.fh, &rc);
	ic.typer = version == 41 ? (QEMU_TYPER_40 | (1ull << 40)) : QEMU_TYPER_40;
	ic.rm = p.rm;
	p.sm = virq_sim_its_state_new(p.fh, &ic);
	p.desc.gicd_base = rc.gicd_base;
	p.desc.gicd_size = 0x10000;
	p.desc.nr_redist_regions = 1;
	p.desc.redist[0].base = rc.rd_base;
	p.desc.redist[0].size = 0xF60000;
	p.desc.nr_its = 1;
	p.desc.its[0].base = FX_ITS_BASE;
	p.desc.its[0].size = 0x20000;

	t0 = virq_sim_now(p.fh);
	st = run_(&p, k);
	spent = virq_sim_now(p.fh) - t0;
	print_message("GICv%d.%d %-26s: step %2d -> %-9s after %8llu ns of fake time\n",
		      version / 10, version % 10, stuck_name_[k], p.step, virq_status_name(st),
		      (unsigned long long)spent);
	if (k == ST_NONE)
		assert_int_equal(st, LIBVIRQ_OK);
	else if (st != LIBVIRQ_OK)
		(*reached)++;
	assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ETIMEDOUT || st == LIBVIRQ_EDEAD ||
		    st == LIBVIRQ_EBUSY || st == LIBVIRQ_EHW);
	/* Bounded: a handful of deadlines at most, never a hang. */
	assert_true(p.gic_ok == false || spent <= 8 * p.gic.timeout_ns + 1000000);
	clean = undo_(&p);
	assert_int_equal(virq_sim_bad_frees(p.fh), 0);
	if (clean)
		assert_int_equal(virq_sim_live_pages(p.fh), 0);
	else
		print_message("  teardown reported an error (hardware dead): %zu pages kept\n",
			      virq_sim_live_pages(p.fh));
	virq_sim_free(p.fh);
	virq_sim_rdist_free(p.rm);
	virq_sim_its_state_free(p.sm);
}

static void test_every_wait_never_finishes(void **s)
{
	unsigned long cases = 0, reached = 0;

	(void)s;
	for (int v = 40; v <= 41; v++)
		for (int k = ST_NONE; k < ST_COUNT; k++) {
			one_((enum stuck)k, v, &reached);
			cases++;
		}
	/* Most kinds of wait are on the path (a 4.1 GIC has no proxy/SYNCR wait). */
	assert_true(reached >= 8);
	SWEEP_REPORT("gicv4 path, each wait never finishing", cases);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_wait_never_finishes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
