/* SPDX-License-Identifier: MIT */
/*
 * The GICv4 bring-up + vPE/vLPI path shared by the GICv4 sweeps
 * (test_sweep_gicv4.c: every wait never finishing; test_sweep_clock.c: every
 * wait under every clock fault), on a simulated GIC (libvirq/sim/gic.h).
 *
 * The path: GIC init, distributor enable, redistributor init (both RDs), ITS
 * init, MAPC, MAPD, VM, vPE, four VMAPTIs, schedule in/out, VMOVP, and for
 * the SYNCR waits a DirectLPI doorbell invalidation (4.0) or a HiSilicon
 * HIP09 vPE move (GICR_INVALLR + SYNCR). One wait kind at a time is made slow
 * (settles after GP_SLOW_POLLS reads) or never settles.
 */
#ifndef LIBVIRQ_SWEEP_GIC_PATH_H
#define LIBVIRQ_SWEEP_GIC_PATH_H

#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/sim/gic.h>

#include "sweep.h"

enum gp_wait {
	GP_NONE,
	GP_GICD_RWP,	  /* GICD_CTLR.RWP (distributor enable) */
	GP_GICR_RWP,	  /* GICR_CTLR.RWP (redistributor init) */
	GP_WAKER,	  /* GICR_WAKER.ChildrenAsleep (redistributor init) */
	GP_DIRTY,	  /* GICR_VPENDBASER.Dirty (schedule in/out) */
	GP_SYNCR_INVLPI,  /* GICR_SYNCR.Busy after GICR_INVLPIR (DirectLPI doorbell inval.) */
	GP_SYNCR_HIP09,	  /* GICR_SYNCR.Busy after GICR_INVALLR (HIP09 vPE move) */
	GP_ITS_QUEUE,	  /* GITS_CREADR: the ITS consumes commands (every ITS command) */
	GP_ITS_QUIESCENT, /* GITS_CTLR.Quiescent (ITS init) */
	GP_COUNT
};

static const char *const gp_wait_name[GP_COUNT] = {
    "none",
    "GICD_CTLR.RWP",
    "GICR_CTLR.RWP",
    "GICR_WAKER.ChildrenAsleep",
    "GICR_VPENDBASER.Dirty",
    "GICR_SYNCR (INVLPIR)",
    "GICR_SYNCR (HIP09 INVALLR)",
    "ITS command queue",
    "GITS_CTLR.Quiescent",
};

/* How a wait behaves: settles at once, after a few reads, or never. */
enum gp_settle { GP_FAST, GP_SLOW, GP_NEVER };
#define GP_SLOW_POLLS 3u

struct gic_path {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_sim_gic *sg;
	struct virq_sim_its_state *sm;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[2];
	struct virq_its its;
	struct virq_its_cfg its_cfg;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	enum gp_wait k;
	uint64_t timeout_ns; /* 0: the library's defaults */
	uint32_t db;
	bool gic_ok, its_ok, dev_ok, vm_ok, vpe_ok, resident, db_ok;
	uint32_t mapped;
	int step;
};

/* A simulated GICv@version with wait @k behaving as @s. */
static inline void gp_new(struct gic_path *p, enum gp_wait k, enum gp_settle s, int version)
{
	struct virq_sim_gic_cfg gc = virq_sim_gic_default_cfg();
	unsigned polls = s == GP_NEVER ? LIBVIRQ_SIM_RDIST_NEVER : s == GP_SLOW ? GP_SLOW_POLLS : 0;

	memset(p, 0, sizeof(*p));
	p->k = k;
	gc.rdist.nr = 2;
	gc.rdist.version = version;
	gc.rdist.dirty = true;
	switch (k) {
	case GP_GICD_RWP:
		gc.rdist.gicd_rwp_polls = polls;
		break;
	case GP_GICR_RWP:
		gc.rdist.rwp_polls = polls;
		break;
	case GP_WAKER:
		gc.rdist.wake_polls = polls;
		break;
	case GP_DIRTY:
		gc.rdist.dirty_polls = polls;
		break;
	case GP_SYNCR_INVLPI:
		gc.rdist.direct_lpi = true;
		gc.rdist.syncr_polls = polls;
		break;
	case GP_SYNCR_HIP09:
		gc.its.iidr = 0x00051736; /* HiSilicon HIP09: vPE moves invalidate through RDs */
		gc.rdist.syncr_polls = polls;
		break;
	case GP_ITS_QUIESCENT:
		if (s == GP_NEVER)
			gc.its.never_quiescent = true;
		else
			gc.its.quiescent_polls = polls;
		break;
	default:
		break;
	}
	p->sim = virq_sim_new();
	p->hal = virq_sim_hal(p->sim);
	p->sg = virq_sim_gic_new(p->sim, &gc, &p->desc);
	p->sm = virq_sim_gic_its(p->sg, 0);
	if (k == GP_ITS_QUEUE && s == GP_SLOW)
		virq_sim_its_set_per_relax(virq_sim_its_state_queue(p->sm), 1);
}

#define GP_CHK(x)                                                                                  \
	do {                                                                                       \
		virq_status s_ = (x);                                                              \
		if (s_ != LIBVIRQ_OK)                                                              \
			return s_;                                                                 \
		p->step++;                                                                         \
	} while (0)

/* Runs the path; stops at the first failure and returns it. */
static inline virq_status gp_run(struct gic_path *p, bool its_never_consumes)
{
	GP_CHK(virq_gic_init(&p->gic, &p->hal, &p->desc, p->rds, 2, 16));
	p->gic_ok = true;
	if (p->timeout_ns)
		p->gic.timeout_ns = p->timeout_ns;
	p->its_cfg.timeout_ns = p->timeout_ns;
	GP_CHK(virq_gic_dist_enable(&p->gic));
	for (uint32_t r = 0; r < p->gic.nr_rd; r++)
		GP_CHK(virq_gic_rdist_init(&p->gic, r));
	GP_CHK(virq_its_init(&p->its, &p->gic, &p->desc.its[0], &p->its_cfg));
	p->its_ok = true;
	if (its_never_consumes)
		virq_sim_its_set_dead(virq_sim_its_state_queue(p->sm), true);
	for (uint32_t r = 0; r < p->gic.nr_rd; r++)
		GP_CHK(virq_its_map_collection(&p->its, r));
	GP_CHK(virq_its_device_map(&p->its, &p->dev, 7, 16));
	p->dev_ok = true;
	GP_CHK(virq_gic_vm_init(&p->vm, &p->gic, 16));
	p->vm_ok = true;
	if (p->k == GP_SYNCR_INVLPI) {
		GP_CHK(virq_lpi_alloc(&p->gic, 1, &p->db));
		p->db_ok = true;
	}
	GP_CHK(virq_vpe_init(&p->vpe, &p->vm, 0, p->db_ok ? p->db : LIBVIRQ_ITS_NO_DOORBELL));
	p->vpe_ok = true;
	for (uint32_t e = 0; e < 4; e++) {
		GP_CHK(virq_vlpi_map(&p->dev, e, &p->vpe, 8192 + e, false));
		p->mapped++;
	}
	GP_CHK(virq_vpe_make_resident(&p->vpe, 0));
	p->resident = true;
	GP_CHK(virq_vpe_make_nonresident(&p->vpe, true, NULL));
	p->resident = false;
	if (p->db_ok)
		GP_CHK(virq_vpe_doorbell_invalidate(&p->vpe));
	GP_CHK(virq_vpe_move(&p->vpe, 1));
	return LIBVIRQ_OK;
}

/* Tears down what succeeded; returns true when every call succeeded. */
static inline bool gp_undo(struct gic_path *p)
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
	if (p->db_ok)
		ok &= virq_lpi_free(&p->gic, p->db, 1) == LIBVIRQ_OK;
	if (p->vm_ok)
		ok &= virq_gic_vm_destroy(&p->vm) == LIBVIRQ_OK;
	if (p->its_ok)
		ok &= virq_its_destroy(&p->its) == LIBVIRQ_OK;
	if (p->gic_ok)
		ok &= virq_gic_destroy(&p->gic) == LIBVIRQ_OK;
	return ok;
}

/* Checks the teardown left nothing freed twice and, when clean, nothing live. */
static inline void gp_free(struct gic_path *p, bool clean)
{
	assert_int_equal(virq_sim_bad_frees(p->sim), 0);
	if (clean)
		assert_int_equal(virq_sim_live_pages(p->sim), 0);
	virq_sim_free(p->sim);
	virq_sim_gic_free(p->sg);
}

#endif /* LIBVIRQ_SWEEP_GIC_PATH_H */
