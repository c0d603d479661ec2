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

static const char *const profile_names_[LIBVIRQ_SIM_GIC_PROFILE_COUNT] = {
    "qemu72-v40",    "v41-flat-vpet", "noncoherent",
    "fixed16k-flat", "narrowest-v40", "narrowest-v41"};

/* Every base register's Shareability fixed at @sh (>= 0), InnerCache and
 * OuterCache at @cache (>= 0). */
static void fix_attrs_(struct virq_sim_gic_cfg *c, int sh, int cache)
{
	struct virq_sim_attrs *a[8] = {&c->its.baser[0].attrs, &c->its.baser[1].attrs,
				       &c->its.baser[2].attrs, &c->its.cbaser,
				       &c->rdist.prop,	       &c->rdist.pend,
				       &c->rdist.vpend,	       &c->rdist.vprop.attrs};

	for (unsigned i = 0; i < 8; i++) {
		if (sh >= 0)
			a[i]->sh = virq_sim_fixed((uint8_t)sh);
		if (cache >= 0)
			a[i]->inner = a[i]->outer = virq_sim_fixed((uint8_t)cache);
	}
}

/* Flat tables only, page sizes @psz, in every GITS_BASER<n> and the 4.1 GICR_VPROPBASER. */
static void flat_(struct virq_sim_gic_cfg *c, uint8_t psz)
{
	for (unsigned t = 0; t < 3; t++) {
		c->its.baser[t].flat_only = true;
		c->its.baser[t].page_sizes = psz;
	}
	c->rdist.vprop.flat_only = true;
	c->rdist.vprop.page_sizes = psz;
}

static void narrowest_(struct virq_sim_gic_cfg *c)
{
	flat_(c, LIBVIRQ_SIM_PSZ_4K);
	fix_attrs_(c, 0, 1); /* Non-shareable, Normal non-cacheable */
	c->its.esz = 32;
	c->rdist.vpet_esz = 7;
	c->its.its_number_ro = 1;
}

struct virq_sim_gic_cfg virq_sim_gic_profile(enum virq_sim_gic_profile p)
{
	struct virq_sim_gic_cfg c = virq_sim_gic_default_cfg();

	switch (p) {
	case LIBVIRQ_SIM_GIC_V41_FLAT_VPET:
		c.rdist.version = 41;
		c.rdist.nr = 2;
		c.rdist.vprop.flat_only = true;
		c.rdist.vprop.page_sizes = LIBVIRQ_SIM_PSZ_4K;
		c.rdist.vpet_esz = 7;
		break;
	case LIBVIRQ_SIM_GIC_NONCOHERENT:
		fix_attrs_(&c, 0, -1);
		break;
	case LIBVIRQ_SIM_GIC_FIXED_16K_FLAT:
		for (unsigned t = 0; t < 3; t++) {
			c.its.baser[t].flat_only = true;
			c.its.baser[t].page_sizes = LIBVIRQ_SIM_PSZ_16K;
		}
		break;
	case LIBVIRQ_SIM_GIC_NARROWEST_V41:
		c.rdist.version = 41;
		c.rdist.nr = 2;
		narrowest_(&c);
		break;
	case LIBVIRQ_SIM_GIC_NARROWEST_V40:
		narrowest_(&c);
		break;
	default:
		break;
	}
	return c;
}

const char *virq_sim_gic_profile_name(enum virq_sim_gic_profile p)
{
	return (unsigned)p < LIBVIRQ_SIM_GIC_PROFILE_COUNT ? profile_names_[p] : NULL;
}

enum virq_sim_gic_profile virq_sim_gic_profile_find(const char *name)
{
	for (unsigned i = 0; name && i < LIBVIRQ_SIM_GIC_PROFILE_COUNT; i++)
		if (!strcmp(name, profile_names_[i]))
			return (enum virq_sim_gic_profile)i;
	return LIBVIRQ_SIM_GIC_PROFILE_COUNT;
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
