/* SPDX-License-Identifier: MIT */
/*
 * Private to the simulator's HAL (sim/src/hal.c, mmio.c, msr.c, mem.c,
 * clock.c, map.c): the state behind struct virq_sim and the helpers its
 * parts share. Every function here expects the caller to hold sim->mu
 * (LOCK()) unless it says otherwise.
 */
#ifndef LIBVIRQ_SIM_SRC_SIM_PRIV_H
#define LIBVIRQ_SIM_SRC_SIM_PRIV_H

#include <libvirq/sim/hal.h>

#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small u64 -> u64 open-addressing map (map.c). */
struct map_ {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap, n;
};

/* calloc that aborts on failure (the simulator's own memory, not the HAL's). */
void *virq_sim_xcalloc_(size_t n, size_t sz);
/* The value of key @k, or NULL when absent and !@create (inserted as 0 when @create). */
uint64_t *virq_sim_map_ref_(struct map_ *m, uint64_t k, bool create);
void virq_sim_map_free_(struct map_ *m);

struct region_ {
	uint64_t base, size;
	virq_sim_mmio_read_fn rd;
	virq_sim_mmio_write_fn wr;
	void *arg;
};

struct msrhook_ {
	uint32_t msr;
	virq_sim_msr_read_fn rd;
	virq_sim_msr_write_fn wr;
	void *arg;
};

struct alloc_ {
	void *va;
	uint64_t pa;
	size_t size;
};

struct cpuid_ {
	uint32_t leaf, sub, regs[4];
};

struct hookfn_ {
	void (*fn)(void);
	void *arg;
};

#define LOG_KEEP 64

struct virq_sim {
	pthread_mutex_t mu;
	struct map_ regs;     /* addr>>2 -> value */
	struct map_ stuck;    /* addr>>2 -> 1 */
	struct map_ msrs;     /* msr -> value */
	struct map_ msrfault; /* msr -> 1 */
	struct map_ counts;   /* (kind<<56) ^ addr -> count */
	struct map_ kicks;    /* cookie -> count */
	struct region_ *regions;
	size_t nregions;
	struct msrhook_ *msrhooks;
	size_t nmsrhooks;
	struct cpuid_ *cpuids;
	size_t ncpuids;
	struct alloc_ *allocs;
	size_t nallocs, capallocs;
	uint64_t next_pa;
	unsigned long alloc_calls, fail_at, bad_frees;
	uint64_t clock, relax_step, now_step;
	/* Clock fault (virq_sim_clock_fault): what now_ns() returns. */
	enum virq_sim_clock_fault_kind cf_kind;
	uint64_t cf_after, cf_ns, cf_offset, cf_held;
	bool cf_active;
	struct hookfn_ *relaxers;
	size_t nrelaxers;
	virq_sim_kick_fn kick_fn;
	void *kick_arg;
	unsigned long kind_count[LIBVIRQ_SIM_KIND_COUNT];
	bool tracing;
	struct virq_sim_trace_ev *trace;
	size_t ntrace, captrace;
	unsigned long log_count[4];
	char *logs[LOG_KEEP];
	size_t nlogs;
	unsigned long nfails;	       /* failure reports (fail callback) */
	struct virq_failure last_fail; /* the last one; message: last_fail_msg */
	char last_fail_msg[LIBVIRQ_FAIL_MSG_SIZE];
	bool verbose;
};

#define LOCK(sim) pthread_mutex_lock(&(sim)->mu)
#define UNLOCK(sim) pthread_mutex_unlock(&(sim)->mu)

/* Counts (and traces when tracing) one access of @kind (mmio.c). */
void virq_sim_record_(struct virq_sim *sim, enum virq_sim_kind kind, uint64_t addr, uint64_t value);

/* The HAL callbacks, one file per part (mmio.c, msr.c, mem.c, clock.c, hal.c). */
uint32_t virq_sim_cb_rd32_(void *ctx, uint64_t addr);
void virq_sim_cb_wr32_(void *ctx, uint64_t addr, uint32_t v);
uint64_t virq_sim_cb_rd64_(void *ctx, uint64_t addr);
void virq_sim_cb_wr64_(void *ctx, uint64_t addr, uint64_t v);
virq_status virq_sim_cb_msr_rd_(void *ctx, uint32_t msr, uint64_t *value);
virq_status virq_sim_cb_msr_wr_(void *ctx, uint32_t msr, uint64_t value);
void virq_sim_cb_cpuid_(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4]);
virq_status virq_sim_cb_alloc_(void *ctx, size_t size, size_t align, struct virq_page *page);
void virq_sim_cb_free_(void *ctx, const struct virq_page *page);
void virq_sim_cb_clean_(void *ctx, const void *va, size_t len);
void virq_sim_cb_barrier_(void *ctx, enum virq_barrier kind);
uint64_t virq_sim_cb_now_(void *ctx);
void virq_sim_cb_relax_(void *ctx);

#endif /* LIBVIRQ_SIM_SRC_SIM_PRIV_H */
