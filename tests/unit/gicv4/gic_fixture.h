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
#include <libvirq/sim/hal.h>
#include <libvirq/sim/rdist.h>

#define FX_MAX_RD 8

struct gic_fx {
	struct virq_sim *fh;
	struct virq_hal hal;
	struct virq_sim_rdist *rm;
	struct virq_sim_rdist_cfg rcfg;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[FX_MAX_RD];
};

static inline void fx_setup(struct gic_fx *f, const struct virq_sim_rdist_cfg *cfg)
{
	memset(f, 0, sizeof(*f));
	f->fh = virq_sim_new();
	f->hal = virq_sim_hal(f->fh);
	f->rcfg = cfg ? *cfg : virq_sim_rdist_default_cfg();
	f->rm = virq_sim_rdist_new(f->fh, &f->rcfg);
	f->desc.gicd_base = f->rcfg.gicd_base;
	f->desc.gicd_size = 0x10000;
	f->desc.nr_redist_regions = 1;
	f->desc.redist[0].base = f->rcfg.rd_base;
	f->desc.redist[0].size = 0xF60000;
}

static inline void fx_teardown(struct gic_fx *f)
{
	virq_sim_rdist_free(f->rm);
	virq_sim_free(f->fh);
}

static inline uint64_t fx_rd(const struct gic_fx *f, unsigned rd, uint32_t off)
{
	return virq_sim_rdist_base(f->rm, rd) + off;
}

#endif /* GIC_FIXTURE_H */
