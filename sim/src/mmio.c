/* SPDX-License-Identifier: MIT */
/* The simulator's register file: plain registers, stuck registers, modelled regions and their MMIO
 * callbacks; the access counters and the trace. */
#define _GNU_SOURCE
#include "sim_priv.h"

void virq_sim_record_(struct virq_sim *sim, enum virq_sim_kind kind, uint64_t addr, uint64_t value)
{
	sim->kind_count[kind]++;
	if (kind <= LIBVIRQ_SIM_MSR_W)
		(*virq_sim_map_ref_(&sim->counts, ((uint64_t)kind << 56) ^ addr, true))++;
	if (sim->tracing) {
		if (sim->ntrace == sim->captrace) {
			sim->captrace = sim->captrace ? sim->captrace * 2 : 1024;
			sim->trace = realloc(sim->trace, sim->captrace * sizeof(*sim->trace));
			if (!sim->trace)
				abort();
		}
		sim->trace[sim->ntrace++] = (struct virq_sim_trace_ev){kind, addr, value};
	}
}

/* ---- register file ---- */
static uint32_t reg_get32_(struct virq_sim *sim, uint64_t addr)
{
	uint64_t *v = virq_sim_map_ref_(&sim->regs, addr >> 2, false);

	return v ? (uint32_t)*v : 0;
}

static void reg_set32_(struct virq_sim *sim, uint64_t addr, uint32_t v)
{
	*virq_sim_map_ref_(&sim->regs, addr >> 2, true) = v;
}

static bool stuck_(struct virq_sim *sim, uint64_t addr)
{
	return virq_sim_map_ref_(&sim->stuck, addr >> 2, false) != NULL;
}

void virq_sim_reg_set32(struct virq_sim *sim, uint64_t addr, uint32_t v)
{
	LOCK(sim);
	reg_set32_(sim, addr, v);
	UNLOCK(sim);
}

uint32_t virq_sim_reg_get32(struct virq_sim *sim, uint64_t addr)
{
	uint32_t v;

	LOCK(sim);
	v = reg_get32_(sim, addr);
	UNLOCK(sim);
	return v;
}

void virq_sim_reg_set64(struct virq_sim *sim, uint64_t addr, uint64_t v)
{
	LOCK(sim);
	reg_set32_(sim, addr, (uint32_t)v);
	reg_set32_(sim, addr + 4, (uint32_t)(v >> 32));
	UNLOCK(sim);
}

uint64_t virq_sim_reg_get64(struct virq_sim *sim, uint64_t addr)
{
	uint64_t v;

	LOCK(sim);
	v = reg_get32_(sim, addr) | ((uint64_t)reg_get32_(sim, addr + 4) << 32);
	UNLOCK(sim);
	return v;
}

void virq_sim_reg_stick32(struct virq_sim *sim, uint64_t addr, uint32_t v)
{
	LOCK(sim);
	reg_set32_(sim, addr, v);
	*virq_sim_map_ref_(&sim->stuck, addr >> 2, true) = 1;
	UNLOCK(sim);
}

void virq_sim_add_region(struct virq_sim *sim, uint64_t base, uint64_t size,
			 virq_sim_mmio_read_fn rd, virq_sim_mmio_write_fn wr, void *arg)
{
	LOCK(sim);
	sim->regions = realloc(sim->regions, (sim->nregions + 1) * sizeof(*sim->regions));
	if (!sim->regions)
		abort();
	sim->regions[sim->nregions++] = (struct region_){base, size, rd, wr, arg};
	UNLOCK(sim);
}

void virq_sim_on_reg(struct virq_sim *sim, uint64_t addr, virq_sim_mmio_read_fn rd,
		     virq_sim_mmio_write_fn wr, void *arg)
{
	virq_sim_add_region(sim, addr, 4, rd, wr, arg);
}

static const struct region_ *region_of_(struct virq_sim *sim, uint64_t addr)
{
	for (size_t i = sim->nregions; i-- > 0;) {
		const struct region_ *r = &sim->regions[i];

		if (addr >= r->base && addr - r->base < r->size)
			return r;
	}
	return NULL;
}

static uint64_t mmio_read_(struct virq_sim *sim, uint64_t addr, unsigned width)
{
	const struct region_ *r = region_of_(sim, addr);
	uint64_t v;

	if (r && r->rd) {
		v = r->rd(r->arg, sim, addr, width);
	} else {
		v = reg_get32_(sim, addr);
		if (width == 64)
			v |= (uint64_t)reg_get32_(sim, addr + 4) << 32;
	}
	return v;
}

static void mmio_write_(struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	const struct region_ *r = region_of_(sim, addr);

	if (r && r->wr) {
		r->wr(r->arg, sim, addr, v, width);
		return;
	}
	if (!stuck_(sim, addr))
		reg_set32_(sim, addr, (uint32_t)v);
	if (width == 64 && !stuck_(sim, addr + 4))
		reg_set32_(sim, addr + 4, (uint32_t)(v >> 32));
}

uint32_t virq_sim_cb_rd32_(void *ctx, uint64_t addr)
{
	struct virq_sim *sim = ctx;
	uint32_t v;

	LOCK(sim);
	v = (uint32_t)mmio_read_(sim, addr, 32);
	virq_sim_record_(sim, LIBVIRQ_SIM_MMIO_R32, addr, v);
	UNLOCK(sim);
	return v;
}

void virq_sim_cb_wr32_(void *ctx, uint64_t addr, uint32_t v)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_MMIO_W32, addr, v);
	mmio_write_(sim, addr, v, 32);
	UNLOCK(sim);
}

uint64_t virq_sim_cb_rd64_(void *ctx, uint64_t addr)
{
	struct virq_sim *sim = ctx;
	uint64_t v;

	LOCK(sim);
	v = mmio_read_(sim, addr, 64);
	virq_sim_record_(sim, LIBVIRQ_SIM_MMIO_R64, addr, v);
	UNLOCK(sim);
	return v;
}

void virq_sim_cb_wr64_(void *ctx, uint64_t addr, uint64_t v)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_MMIO_W64, addr, v);
	mmio_write_(sim, addr, v, 64);
	UNLOCK(sim);
}

unsigned long virq_sim_count(struct virq_sim *sim, enum virq_sim_kind kind)
{
	unsigned long n;

	LOCK(sim);
	n = sim->kind_count[kind];
	UNLOCK(sim);
	return n;
}

unsigned long virq_sim_count_at(struct virq_sim *sim, enum virq_sim_kind kind, uint64_t addr)
{
	uint64_t *v;
	unsigned long n;

	LOCK(sim);
	v = virq_sim_map_ref_(&sim->counts, ((uint64_t)kind << 56) ^ addr, false);
	n = v ? (unsigned long)*v : 0;
	UNLOCK(sim);
	return n;
}

unsigned long virq_sim_mmio_total(struct virq_sim *sim)
{
	unsigned long n;

	LOCK(sim);
	n = sim->kind_count[LIBVIRQ_SIM_MMIO_R32] + sim->kind_count[LIBVIRQ_SIM_MMIO_W32] +
	    sim->kind_count[LIBVIRQ_SIM_MMIO_R64] + sim->kind_count[LIBVIRQ_SIM_MMIO_W64];
	UNLOCK(sim);
	return n;
}

unsigned long virq_sim_msr_total(struct virq_sim *sim)
{
	unsigned long n;

	LOCK(sim);
	n = sim->kind_count[LIBVIRQ_SIM_MSR_R] + sim->kind_count[LIBVIRQ_SIM_MSR_W];
	UNLOCK(sim);
	return n;
}

void virq_sim_reset_counters(struct virq_sim *sim)
{
	LOCK(sim);
	memset(sim->kind_count, 0, sizeof(sim->kind_count));
	virq_sim_map_free_(&sim->counts);
	virq_sim_map_free_(&sim->kicks);
	UNLOCK(sim);
}

void virq_sim_trace(struct virq_sim *sim, bool on)
{
	LOCK(sim);
	sim->tracing = on;
	UNLOCK(sim);
}

size_t virq_sim_trace_len(struct virq_sim *sim)
{
	size_t n;

	LOCK(sim);
	n = sim->ntrace;
	UNLOCK(sim);
	return n;
}

const struct virq_sim_trace_ev *virq_sim_trace_at(struct virq_sim *sim, size_t i)
{
	const struct virq_sim_trace_ev *e;

	LOCK(sim);
	e = i < sim->ntrace ? &sim->trace[i] : NULL;
	UNLOCK(sim);
	return e;
}

void virq_sim_trace_clear(struct virq_sim *sim)
{
	LOCK(sim);
	sim->ntrace = 0;
	UNLOCK(sim);
}

size_t virq_sim_trace_find(struct virq_sim *sim, size_t from, enum virq_sim_kind kind,
			   uint64_t addr)
{
	size_t r = SIZE_MAX;

	LOCK(sim);
	for (size_t i = from; i < sim->ntrace; i++) {
		if (sim->trace[i].kind == kind && sim->trace[i].addr == addr) {
			r = i;
			break;
		}
	}
	UNLOCK(sim);
	return r;
}
