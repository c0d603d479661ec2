/* SPDX-License-Identifier: MIT */
/*
 * The simulator's product API (libvirq/sim/cpu.h, libvirq/sim/gic.h):
 *  - every CPU profile, applied to a simulator, is probed by the library
 *    exactly as the profile's own capability structures say (AVIC and PMC
 *    from one table: the table cannot drift from the probes);
 *  - virq_sim_cpu_find() and virq_sim_cpu_fms();
 *  - virq_sim_gic_new() describes the documented address map (QEMU virt,
 *    non-overlapping ITSes), the library brings that GIC up with every ITS,
 *    4.1 gets a 4.1 ITS, and a device's MSI on an unmapped event is dropped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/virq.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>
#ifdef LIBVIRQ_HAVE_AVIC
#include <libvirq/avic.h>
#endif
#ifdef LIBVIRQ_HAVE_PMCVIRT
#include <libvirq/pmcvirt.h>
#endif
#ifdef LIBVIRQ_HAVE_GICV4
#include <libvirq/gicv4.h>
#endif

static void test_profiles_match_probes(void **state)
{
	(void)state;
	for (unsigned i = 0; i < LIBVIRQ_SIM_CPU_COUNT; i++) {
		const struct virq_sim_cpu *c = &virq_sim_cpus[i];
		struct virq_sim *sim = virq_sim_new();
		struct virq_hal hal = virq_sim_hal(sim);

		assert_non_null(c->name);
		assert_ptr_equal(virq_sim_cpu_find(c->name), c);
		virq_sim_cpu_apply(sim, c);
#ifdef LIBVIRQ_HAVE_AVIC
		{
			struct virq_avic_caps a;

			assert_int_equal(virq_avic_caps_probe(&hal, &a), LIBVIRQ_OK);
			if (memcmp(&a, &c->avic_caps, sizeof(a)) != 0)
				fail_msg(
				    "profile %s: AVIC probe differs (avic %d/%d x2 %d/%d 4k %d/%d "
				    "vnmi %d/%d fam %x/%x max %x/%x)",
				    c->name, a.avic, c->avic_caps.avic, a.x2avic,
				    c->avic_caps.x2avic, a.x2avic_4k, c->avic_caps.x2avic_4k,
				    a.vnmi, c->avic_caps.vnmi, a.family, c->avic_caps.family,
				    a.max_index, c->avic_caps.max_index);
		}
#endif
#ifdef LIBVIRQ_HAVE_PMCVIRT
		{
			struct virq_pmcvirt_caps p;

			assert_int_equal(virq_pmcvirt_probe(&hal, &p), LIBVIRQ_OK);
			if (memcmp(&p, &c->pmcvirt_caps, sizeof(p)) != 0)
				fail_msg("profile %s: PMC probe differs (ctrs %u/%u v2 %d/%d virt "
					 "%d/%d)",
					 c->name, p.num_core_ctrs, c->pmcvirt_caps.num_core_ctrs,
					 p.perfmon_v2, c->pmcvirt_caps.perfmon_v2, p.perfctr_virt,
					 c->pmcvirt_caps.perfctr_virt);
		}
#endif
		(void)hal;
		virq_sim_free(sim);
	}
	assert_null(virq_sim_cpu_find("zen9"));
	assert_null(virq_sim_cpu_find(NULL));
	/* CPUID leaf 1 EAX: family 19h model 11h = ext family A, ext model 1, base F / 1. */
	assert_int_equal(virq_sim_cpu_fms(0x19, 0x11), 0x00A10F10u);
	assert_int_equal(virq_sim_cpu_fms(0x06, 0x8F), 0x000806F0u);
	/* The two generations the issue names: one table, both modules. */
	assert_true(virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5].pmcvirt_caps.perfctr_virt);
	assert_true(virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN2].avic_caps.erratum_1235);
}

static void test_gic_address_map(void **state)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_gic_cfg cfg = virq_sim_gic_default_cfg();
	struct virq_gic_desc d;
	struct virq_sim_gic *g;

	(void)state;
	cfg.nr_its = LIBVIRQ_SIM_GIC_MAX_ITS;
	cfg.rdist.nr = 4;
	g = virq_sim_gic_new(sim, &cfg, &d);
	assert_int_equal(d.gicd_base, 0x08000000ull);
	assert_int_equal(d.gicd_size, 0x10000ull);
	assert_int_equal(d.nr_redist_regions, 1);
	assert_int_equal(d.redist[0].base, 0x080A0000ull);
	assert_int_equal(d.redist[0].size, 0xF60000ull);
	assert_int_equal(d.nr_its, LIBVIRQ_SIM_GIC_MAX_ITS);
	assert_int_equal(d.its[0].base, 0x08080000ull);
	assert_int_equal(d.its[1].base, 0x0C000000ull);
	assert_int_equal(d.its[15].base, 0x0C000000ull + 14 * 0x20000ull);
	/* No two frames overlap. */
	for (unsigned i = 0; i < d.nr_its; i++) {
		uint64_t b = d.its[i].base, e = b + d.its[i].size;

		assert_int_equal(d.its[i].size, 0x20000ull);
		assert_ptr_equal(virq_sim_gic_its(g, i) != NULL, true);
		assert_true(e <= d.gicd_base || b >= d.gicd_base + d.gicd_size);
		assert_true(e <= d.redist[0].base || b >= d.redist[0].base + d.redist[0].size);
		for (unsigned j = 0; j < i; j++)
			assert_true(e <= d.its[j].base || b >= d.its[j].base + d.its[j].size);
	}
	assert_null(virq_sim_gic_its(g, LIBVIRQ_SIM_GIC_MAX_ITS));
	assert_int_equal(virq_sim_gic_nr_its(g), LIBVIRQ_SIM_GIC_MAX_ITS);
	/* The models may be freed before the simulator. */
	virq_sim_gic_free(g);
	virq_sim_free(sim);
	virq_sim_gic_free(NULL);
}

#ifdef LIBVIRQ_HAVE_GICV4
static void bring_up(int version, unsigned nits, unsigned nrd)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_sim_gic_cfg cfg = virq_sim_gic_default_cfg();
	struct virq_gic_desc d;
	struct virq_sim_gic *g;
	struct virq_gic gic;
	struct virq_gic_rdist rds[8];
	struct virq_its its[4];
	struct virq_its_device dev;

	cfg.rdist.version = version;
	cfg.rdist.nr = nrd;
	cfg.nr_its = nits;
	g = virq_sim_gic_new(sim, &cfg, &d);
	assert_int_equal(virq_gic_init(&gic, &hal, &d, rds, 8, 16), LIBVIRQ_OK);
	assert_int_equal(gic.nr_rd, nrd);
	assert_int_equal(virq_gic_dist_enable(&gic), LIBVIRQ_OK);
	for (unsigned r = 0; r < nrd; r++)
		assert_int_equal(virq_gic_rdist_init(&gic, r), LIBVIRQ_OK);
	for (unsigned i = 0; i < nits; i++) {
		assert_int_equal(virq_its_init(&its[i], &gic, &d.its[i], NULL), LIBVIRQ_OK);
		assert_int_equal(its[i].lim.version,
				 version == 41 ? LIBVIRQ_ITS_V41 : LIBVIRQ_ITS_V40);
		for (unsigned r = 0; r < nrd; r++)
			assert_int_equal(virq_its_map_collection(&its[i], r), LIBVIRQ_OK);
	}
	/* An MSI on an unmapped device or event is dropped, not an error. */
	assert_int_equal(virq_its_device_map(&its[0], &dev, 3, 8), LIBVIRQ_OK);
	assert_false(virq_sim_its_state_msi(virq_sim_gic_its(g, 0), 3, 1));
	assert_false(virq_sim_its_state_msi(virq_sim_gic_its(g, 0), 4, 0));
	assert_false(virq_sim_its_state_msi(virq_sim_gic_its(g, 0), 3, 8));
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	for (unsigned i = 0; i < nits; i++) {
		assert_int_equal(virq_sim_its_state_errors(virq_sim_gic_its(g, i)), 0);
		assert_int_equal(virq_its_destroy(&its[i]), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(sim), 0);
	virq_sim_free(sim);
	virq_sim_gic_free(g);
}

static void test_gic_brought_up_by_library(void **state)
{
	(void)state;
	bring_up(40, 1, 1);
	bring_up(40, 4, 8);
	bring_up(41, 2, 2);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_profiles_match_probes),
	    cmocka_unit_test(test_gic_address_map),
#ifdef LIBVIRQ_HAVE_GICV4
	    cmocka_unit_test(test_gic_brought_up_by_library),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
