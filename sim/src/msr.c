/* SPDX-License-Identifier: MIT */
/* The simulator's MSRs (values, faults, hooks) and CPUID leaves. */
#define _GNU_SOURCE
#include "sim_priv.h"

static const struct msrhook_ *msrhook_of_(struct virq_sim *sim, uint32_t msr)
{
	for (size_t i = sim->nmsrhooks; i-- > 0;)
		if (sim->msrhooks[i].msr == msr)
			return &sim->msrhooks[i];
	return NULL;
}

virq_status virq_sim_cb_msr_rd_(void *ctx, uint32_t msr, uint64_t *value)
{
	struct virq_sim *sim = ctx;
	const struct msrhook_ *h;
	virq_status st = LIBVIRQ_OK;
	uint64_t *v;

	LOCK(sim);
	h = msrhook_of_(sim, msr);
	if (virq_sim_map_ref_(&sim->msrfault, msr, false)) {
		st = LIBVIRQ_EHW;
	} else if (h && h->rd) {
		st = h->rd(h->arg, sim, msr, value);
	} else {
		v = virq_sim_map_ref_(&sim->msrs, msr, false);
		*value = v ? *v : 0;
	}
	virq_sim_record_(sim, LIBVIRQ_SIM_MSR_R, msr, st == LIBVIRQ_OK ? *value : 0);
	UNLOCK(sim);
	return st;
}

virq_status virq_sim_cb_msr_wr_(void *ctx, uint32_t msr, uint64_t value)
{
	struct virq_sim *sim = ctx;
	const struct msrhook_ *h;
	virq_status st = LIBVIRQ_OK;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_MSR_W, msr, value);
	h = msrhook_of_(sim, msr);
	if (virq_sim_map_ref_(&sim->msrfault, msr, false))
		st = LIBVIRQ_EHW;
	else if (h && h->wr)
		st = h->wr(h->arg, sim, msr, value);
	else
		*virq_sim_map_ref_(&sim->msrs, msr, true) = value;
	UNLOCK(sim);
	return st;
}

void virq_sim_cb_cpuid_(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_CPUID, leaf, sub);
	memset(regs, 0, 4 * sizeof(uint32_t));
	for (size_t i = 0; i < sim->ncpuids; i++) {
		if (sim->cpuids[i].leaf == leaf && sim->cpuids[i].sub == sub) {
			memcpy(regs, sim->cpuids[i].regs, 4 * sizeof(uint32_t));
			break;
		}
	}
	UNLOCK(sim);
}

void virq_sim_msr_set(struct virq_sim *sim, uint32_t msr, uint64_t v)
{
	LOCK(sim);
	*virq_sim_map_ref_(&sim->msrs, msr, true) = v;
	UNLOCK(sim);
}

uint64_t virq_sim_msr_get(struct virq_sim *sim, uint32_t msr)
{
	uint64_t *v, r;

	LOCK(sim);
	v = virq_sim_map_ref_(&sim->msrs, msr, false);
	r = v ? *v : 0;
	UNLOCK(sim);
	return r;
}

void virq_sim_msr_fault(struct virq_sim *sim, uint32_t msr, bool fault)
{
	LOCK(sim);
	*virq_sim_map_ref_(&sim->msrfault, msr, true) = fault;
	if (!fault) {
		/* Re-create the map without this key. */
		struct map_ old = sim->msrfault;

		memset(&sim->msrfault, 0, sizeof(sim->msrfault));
		for (size_t i = 0; i < old.cap; i++)
			if (old.used[i] && old.keys[i] != msr)
				*virq_sim_map_ref_(&sim->msrfault, old.keys[i], true) = 1;
		virq_sim_map_free_(&old);
	}
	UNLOCK(sim);
}

void virq_sim_msr_hook(struct virq_sim *sim, uint32_t msr, virq_sim_msr_read_fn rd,
		       virq_sim_msr_write_fn wr, void *arg)
{
	LOCK(sim);
	sim->msrhooks = realloc(sim->msrhooks, (sim->nmsrhooks + 1) * sizeof(*sim->msrhooks));
	if (!sim->msrhooks)
		abort();
	sim->msrhooks[sim->nmsrhooks++] = (struct msrhook_){msr, rd, wr, arg};
	UNLOCK(sim);
}

void virq_sim_cpuid_set(struct virq_sim *sim, uint32_t leaf, uint32_t subleaf, uint32_t eax,
			uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	LOCK(sim);
	for (size_t i = 0; i < sim->ncpuids; i++) {
		if (sim->cpuids[i].leaf == leaf && sim->cpuids[i].sub == subleaf) {
			sim->cpuids[i] = (struct cpuid_){leaf, subleaf, {eax, ebx, ecx, edx}};
			UNLOCK(sim);
			return;
		}
	}
	sim->cpuids = realloc(sim->cpuids, (sim->ncpuids + 1) * sizeof(*sim->cpuids));
	if (!sim->cpuids)
		abort();
	sim->cpuids[sim->ncpuids++] = (struct cpuid_){leaf, subleaf, {eax, ebx, ecx, edx}};
	UNLOCK(sim);
}
