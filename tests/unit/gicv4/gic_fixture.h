/* SPDX-License-Identifier: MIT */
/* Shared fixture for the gicv4-core suites: fake HAL + rdist model (+ ITS models). */
#ifndef GIC_FIXTURE_H
#define GIC_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/gicv4.h>
#include <libvirq/gicv4/gic_regs.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/rdist.h>

#define FX_MAX_RD 8

/* The simulator and its GIC (libvirq/sim/gic.h); @rm / @desc are the
 * simulated GIC's model and descriptor. */
struct gic_fx {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_sim_gic *sg;
	struct virq_sim_rdist *rm;
	struct virq_sim_rdist_cfg rcfg;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[FX_MAX_RD];
};

/* A simulated GIC with @nits ITS models configured by @ic (NULL: defaults). */
static inline void fx_setup_its(struct gic_fx *f, const struct virq_sim_rdist_cfg *cfg,
				const struct virq_sim_its_state_cfg *ic, unsigned nits)
{
	struct virq_sim_gic_cfg gc = virq_sim_gic_default_cfg();

	memset(f, 0, sizeof(*f));
	f->sim = virq_sim_new();
	f->hal = virq_sim_hal(f->sim);
	if (cfg)
		gc.rdist = *cfg;
	if (ic)
		gc.its = *ic;
	gc.nr_its = nits;
	f->rcfg = gc.rdist;
	f->sg = virq_sim_gic_new(f->sim, &gc, &f->desc);
	f->rm = virq_sim_gic_rdist(f->sg);
}

static inline void fx_setup(struct gic_fx *f, const struct virq_sim_rdist_cfg *cfg)
{
	fx_setup_its(f, cfg, NULL, 0);
}

static inline void fx_teardown(struct gic_fx *f)
{
	virq_sim_free(f->sim);
	virq_sim_gic_free(f->sg);
}

static inline uint64_t fx_rd(const struct gic_fx *f, unsigned rd, uint32_t off)
{
	return virq_sim_rdist_base(f->rm, rd) + off;
}

#endif /* GIC_FIXTURE_H */
