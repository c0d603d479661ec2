/* SPDX-License-Identifier: MIT */
/* GIC + ITS fixture: rdist model and up to 4 ITS state models. */
#ifndef ITS_FIXTURE_H
#define ITS_FIXTURE_H

#include "gic_fixture.h"
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/sim/its_state.h>

#define FX_ITS_BASE LIBVIRQ_SIM_GIC_ITS0_BASE
#define QEMU_TYPER_40 LIBVIRQ_SIM_GITS_TYPER_QEMU_V40

struct its_fx {
	struct gic_fx g;
	unsigned nits;
	struct virq_sim_its_state *sm[4];
	struct virq_its its[4];
};

/* Every GITS_BASER<n> of @c flat (Indirect RAZ/WI when @flat) with page
 * sizes @psz (::virq_sim_page_size bits, 0: all). */
static inline void itsfx_tables(struct virq_sim_its_state_cfg *c, bool flat, uint8_t psz)
{
	for (unsigned t = 0; t < 3; t++) {
		c->baser[t].flat_only = flat;
		c->baser[t].page_sizes = psz;
	}
}

/* Every GITS_BASER<n> and GITS_CBASER with Shareability fixed at @sh (when
 * >= 0) and InnerCache fixed at @ic (when >= 0). */
static inline void itsfx_fix_attrs(struct virq_sim_its_state_cfg *c, int sh, int ic)
{
	struct virq_sim_attrs *a[4] = {&c->baser[0].attrs, &c->baser[1].attrs, &c->baser[2].attrs,
				       &c->cbaser};

	for (unsigned i = 0; i < 4; i++) {
		if (sh >= 0)
			a[i]->sh = virq_sim_fixed((uint8_t)sh);
		if (ic >= 0)
			a[i]->inner = virq_sim_fixed((uint8_t)ic);
	}
}

/* Brings up GIC (dist + every RD), the ITS models, and optionally the ITSes
 * with @cfg (NULL: the defaults, vPEs mapped lazily at their first vLPI on
 * an ITS). */
static inline void itsfx_setup_bits(struct its_fx *f, const struct virq_sim_rdist_cfg *rc,
				    const struct virq_sim_its_state_cfg *ic, unsigned nits,
				    bool init_its, const struct virq_its_cfg *cfg,
				    uint32_t lpi_bits)
{
	struct virq_sim_its_state_cfg c = ic ? *ic : virq_sim_its_state_default_cfg(0);

	memset(f, 0, sizeof(*f));
	/* The fixture's 4.1 tests set GITS_TYPER themselves: keep 4.0 as default. */
	if (!c.typer)
		c.typer = QEMU_TYPER_40;
	fx_setup_its(&f->g, rc, &c, nits);
	f->nits = nits;
	for (unsigned i = 0; i < nits; i++)
		f->sm[i] = virq_sim_gic_its(f->g.sg, i);
	assert_int_equal(
	    virq_gic_init(&f->g.gic, &f->g.hal, &f->g.desc, f->g.rds, FX_MAX_RD, lpi_bits),
	    LIBVIRQ_OK);
	assert_int_equal(virq_gic_dist_enable(&f->g.gic), LIBVIRQ_OK);
	for (unsigned r = 0; r < f->g.gic.nr_rd; r++)
		assert_int_equal(virq_gic_rdist_init(&f->g.gic, r), LIBVIRQ_OK);
	if (!init_its)
		return;
	for (unsigned i = 0; i < nits; i++) {
		assert_int_equal(virq_its_init(&f->its[i], &f->g.gic, &f->g.desc.its[i], cfg),
				 LIBVIRQ_OK);
		for (unsigned r = 0; r < f->g.gic.nr_rd; r++)
			assert_int_equal(virq_its_map_collection(&f->its[i], r), LIBVIRQ_OK);
	}
}

/* itsfx_setup_bits() with 16 LPI INTID bits. */
static inline void itsfx_setup_cfg(struct its_fx *f, const struct virq_sim_rdist_cfg *rc,
				   const struct virq_sim_its_state_cfg *ic, unsigned nits,
				   bool init_its, const struct virq_its_cfg *cfg)
{
	itsfx_setup_bits(f, rc, ic, nits, init_its, cfg, 16);
}

/* itsfx_setup_cfg() with every vPE mapped on every ITS at its creation
 * (::virq_its_cfg::eager_vpes): the tests written for eager mapping, whose
 * VMOVP, VINVALL and teardown cases need a vPE on several ITSes without
 * vLPIs. The lazy default is tested by test_vpe_lazy.c, the SMP world and
 * its fuzzer. */
static inline void itsfx_setup(struct its_fx *f, const struct virq_sim_rdist_cfg *rc,
			       const struct virq_sim_its_state_cfg *ic, unsigned nits,
			       bool init_its)
{
	struct virq_its_cfg cfg = {0};

	cfg.eager_vpes = true;
	itsfx_setup_cfg(f, rc, ic, nits, init_its, &cfg);
}

static inline void itsfx_teardown(struct its_fx *f, bool destroy_its)
{
	for (unsigned i = 0; destroy_its && i < f->nits; i++)
		if (f->its[i].gic)
			assert_int_equal(virq_its_destroy(&f->its[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&f->g.gic), LIBVIRQ_OK);
	if (destroy_its)
		assert_int_equal(virq_sim_live_pages(f->g.sim), 0);
	fx_teardown(&f->g);
}

static inline void itsfx_no_errors(const struct its_fx *f)
{
	for (unsigned i = 0; i < f->nits; i++) {
		if (virq_sim_its_state_errors(f->sm[i]))
			fail_msg("ITS %u model error: %s", i,
				 virq_sim_its_state_last_error(f->sm[i]));
	}
	if (virq_sim_rdist_errors(f->g.rm))
		fail_msg("redistributor model error: %s", virq_sim_rdist_last_error(f->g.rm));
}

/* Index of the last command with opcode @op in the model's log, or -1. */
static inline long itsfx_find_op(struct virq_sim_its_state *s, uint8_t op, size_t from)
{
	struct virq_sim_its *q = virq_sim_its_state_queue(s);

	for (size_t i = from; i < virq_sim_its_ncmds(q); i++)
		if (virq_sim_its_cmd_at(q, i)->op == op)
			return (long)i;
	return -1;
}

#endif /* ITS_FIXTURE_H */
