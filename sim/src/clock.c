/* SPDX-License-Identifier: MIT */
/* The simulator's clock (steps, faults) and relax, cache clean and barrier callbacks. */
#define _GNU_SOURCE
#include "sim_priv.h"

void virq_sim_cb_clean_(void *ctx, const void *va, size_t len)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_CLEAN, (uint64_t)(uintptr_t)va, len);
	UNLOCK(sim);
}

void virq_sim_cb_barrier_(void *ctx, enum virq_barrier kind)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_BARRIER, 0, (uint64_t)kind);
	UNLOCK(sim);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

uint64_t virq_sim_cb_now_(void *ctx)
{
	struct virq_sim *sim = ctx;
	uint64_t t;

	LOCK(sim);
	sim->kind_count[LIBVIRQ_SIM_NOW]++; /* counted, not traced */
	t = sim->clock;
	sim->clock += sim->now_step;
	if (sim->cf_kind != LIBVIRQ_SIM_CLOCK_OK) {
		if (sim->cf_after) {
			sim->cf_after--;
		} else if (!sim->cf_active) {
			sim->cf_active = true;
			switch (sim->cf_kind) {
			case LIBVIRQ_SIM_CLOCK_STOP:
			case LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS:
				sim->cf_held = t + sim->cf_offset;
				break;
			case LIBVIRQ_SIM_CLOCK_JUMP_FORWARD:
				sim->cf_offset += sim->cf_ns;
				break;
			case LIBVIRQ_SIM_CLOCK_JUMP_BACK:
				sim->cf_offset -= sim->cf_ns;
				break;
			default:
				break;
			}
		} else if (sim->cf_kind == LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS) {
			sim->cf_held -= sim->cf_ns;
		}
		if (sim->cf_active && (sim->cf_kind == LIBVIRQ_SIM_CLOCK_STOP ||
				       sim->cf_kind == LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS))
			t = sim->cf_held;
		else
			t += sim->cf_offset;
	} else {
		t += sim->cf_offset;
	}
	UNLOCK(sim);
	return t;
}

void virq_sim_clock_fault(struct virq_sim *sim, enum virq_sim_clock_fault_kind kind, uint64_t after,
			  uint64_t ns)
{
	LOCK(sim);
	sim->cf_kind = kind;
	sim->cf_after = after;
	sim->cf_ns = ns;
	sim->cf_active = false;
	if (kind == LIBVIRQ_SIM_CLOCK_OK)
		sim->cf_offset = 0;
	UNLOCK(sim);
}

void virq_sim_cb_relax_(void *ctx)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_RELAX, 0, 0);
	sim->clock += sim->relax_step;
	for (size_t i = 0; i < sim->nrelaxers; i++)
		((virq_sim_relax_fn)sim->relaxers[i].fn)(sim->relaxers[i].arg, sim);
	UNLOCK(sim);
}

uint64_t virq_sim_now(struct virq_sim *sim)
{
	uint64_t t;

	LOCK(sim);
	t = sim->clock;
	UNLOCK(sim);
	return t;
}

void virq_sim_clock_advance(struct virq_sim *sim, uint64_t ns)
{
	LOCK(sim);
	sim->clock += ns;
	UNLOCK(sim);
}

void virq_sim_set_relax_step(struct virq_sim *sim, uint64_t ns)
{
	LOCK(sim);
	sim->relax_step = ns;
	UNLOCK(sim);
}

void virq_sim_set_now_step(struct virq_sim *sim, uint64_t ns)
{
	LOCK(sim);
	sim->now_step = ns;
	UNLOCK(sim);
}

void virq_sim_on_relax(struct virq_sim *sim, virq_sim_relax_fn fn, void *arg)
{
	LOCK(sim);
	sim->relaxers = realloc(sim->relaxers, (sim->nrelaxers + 1) * sizeof(*sim->relaxers));
	if (!sim->relaxers)
		abort();
	sim->relaxers[sim->nrelaxers++] = (struct hookfn_){(void (*)(void))fn, arg};
	UNLOCK(sim);
}
