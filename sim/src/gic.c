/* SPDX-License-Identifier: MIT */
/* A whole simulated GIC at documented addresses; see libvirq/sim/gic.h. */
#include <libvirq/sim/gic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct virq_sim_gic {
	struct virq_sim_rdist *rm;
	unsigned nits;
	struct virq_sim_its_state *its[LIBVIRQ_SIM_GIC_MAX_ITS];
};

struct virq_sim_gic_cfg virq_sim_gic_default_cfg(void)
{
	struct virq_sim_gic_cfg c;

	memset(&c, 0, sizeof(c));
	c.rdist = virq_sim_rdist_default_cfg();
	c.rdist.gicd_base = LIBVIRQ_SIM_GIC_GICD_BASE;
	c.rdist.rd_base = LIBVIRQ_SIM_GIC_REDIST_BASE;
	c.nr_its = 1;
	c.its = virq_sim_its_state_default_cfg(0);
	return c;
}

static void die_(const char *why)
{
	fprintf(stderr, "virq_sim_gic_new: %s\n", why);
	abort();
}

struct virq_sim_gic *virq_sim_gic_new(struct virq_sim *sim, const struct virq_sim_gic_cfg *cfg,
				      struct virq_gic_desc *desc)
{
	struct virq_sim_gic_cfg c = cfg ? *cfg : virq_sim_gic_default_cfg();
	struct virq_sim_gic *g;
	uint64_t stride, span;

	if (!sim || !desc)
		die_("NULL simulator or descriptor");
	if (c.nr_its > LIBVIRQ_SIM_GIC_MAX_ITS)
		die_("more ITSes than LIBVIRQ_SIM_GIC_MAX_ITS");
	if (c.rdist.nr == 0)
		die_("no redistributor");
	g = calloc(1, sizeof(*g));
	if (!g)
		die_("out of memory");
	g->rm = virq_sim_rdist_new(sim, &c.rdist);
	stride = c.rdist.stride ? c.rdist.stride : c.rdist.version >= 40 ? 0x40000u : 0x20000u;
	span = (uint64_t)c.rdist.nr * stride;
	memset(desc, 0, sizeof(*desc));
	desc->gicd_base = c.rdist.gicd_base;
	desc->gicd_size = LIBVIRQ_SIM_GIC_GICD_SIZE;
	desc->nr_redist_regions = 1;
	desc->redist[0].base = c.rdist.rd_base;
	desc->redist[0].size =
	    span > LIBVIRQ_SIM_GIC_REDIST_SIZE ? span : LIBVIRQ_SIM_GIC_REDIST_SIZE;
	g->nits = c.nr_its;
	desc->nr_its = c.nr_its;
	for (unsigned i = 0; i < c.nr_its; i++) {
		struct virq_sim_its_state_cfg ic = c.its;

		ic.base = LIBVIRQ_SIM_GIC_ITS_BASE(i);
		ic.rm = g->rm;
		if (!ic.typer)
			ic.typer = c.rdist.version == 41 ? LIBVIRQ_SIM_GITS_TYPER_QEMU_V41
							 : LIBVIRQ_SIM_GITS_TYPER_QEMU_V40;
		g->its[i] = virq_sim_its_state_new(sim, &ic);
		desc->its[i].base = ic.base;
		desc->its[i].size = LIBVIRQ_SIM_GIC_ITS_SIZE;
	}
	return g;
}

void virq_sim_gic_free(struct virq_sim_gic *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < g->nits; i++)
		virq_sim_its_state_free(g->its[i]);
	virq_sim_rdist_free(g->rm);
	free(g);
}

struct virq_sim_rdist *virq_sim_gic_rdist(const struct virq_sim_gic *g)
{
	return g->rm;
}

struct virq_sim_its_state *virq_sim_gic_its(const struct virq_sim_gic *g, unsigned i)
{
	return i < g->nits ? g->its[i] : NULL;
}

unsigned virq_sim_gic_nr_its(const struct virq_sim_gic *g)
{
	return g->nits;
}
