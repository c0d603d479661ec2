/* SPDX-License-Identifier: MIT */
/*
 * An embedder's unit test built against an installed libvirq_sim
 * (find_package or pkg-config): it drives the installed library over the
 * simulator's HAL — a register that settles after a few reads, a clock that
 * stops — and, when the installed library has the GICv4 module, brings up
 * the simulated GIC from virq_sim_gic_new(). Prints one line and exits 0
 * when everything behaves.
 */
#include <libvirq/virq.h>
#include <libvirq/sim/hal.h>
#ifdef LIBVIRQ_HAVE_GICV4
#include <libvirq/gicv4.h>
#include <libvirq/sim/gic.h>
#endif
#include <stdio.h>

static unsigned reads_;

static void settle_(void *arg, struct virq_sim *sim)
{
	(void)arg;
	if (++reads_ == 3)
		virq_sim_reg_set32(sim, 0x1000, 0x5);
}

int main(void)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	uint32_t last = 0;

	if (virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_MSR | LIBVIRQ_HAL_NEED_CPUID) != LIBVIRQ_OK)
		return 1;
	virq_sim_on_relax(sim, settle_, NULL);
	if (virq_poll32(&hal, 0x1000, 0xff, 5, 1000000, &last) != LIBVIRQ_OK || last != 5)
		return 2;
	/* A stopped clock still ends the wait, with a warning. */
	virq_sim_clock_fault(sim, LIBVIRQ_SIM_CLOCK_STOP, 0, 0);
	if (virq_poll32(&hal, 0x2000, 1, 1, 10000, NULL) != LIBVIRQ_ETIMEDOUT ||
	    virq_sim_log_count(sim, LIBVIRQ_LOG_WARN) != 1)
		return 3;
	virq_sim_clock_fault(sim, LIBVIRQ_SIM_CLOCK_OK, 0, 0);
#ifdef LIBVIRQ_HAVE_GICV4
	{
		struct virq_gic_desc desc;
		struct virq_sim_gic *g = virq_sim_gic_new(sim, NULL, &desc);
		struct virq_gic gic;
		struct virq_gic_rdist rds[1];

		if (desc.its[0].base != LIBVIRQ_SIM_GIC_ITS0_BASE ||
		    virq_gic_init(&gic, &hal, &desc, rds, 1, 16) != LIBVIRQ_OK ||
		    virq_gic_dist_enable(&gic) != LIBVIRQ_OK ||
		    virq_gic_rdist_init(&gic, 0) != LIBVIRQ_OK)
			return 4;
		if (virq_gic_destroy(&gic) != LIBVIRQ_OK)
			return 6;
		virq_sim_gic_free(g);
	}
#endif
	if (virq_sim_live_pages(sim) != 0)
		return 5;
	virq_sim_free(sim);
	printf("libvirq %u.%u.%u consumer ok (simulator)\n", (unsigned)(virq_version() >> 16),
	       (unsigned)(virq_version() >> 8) & 0xffu, (unsigned)virq_version() & 0xffu);
	return 0;
}
