/* SPDX-License-Identifier: MIT */
/* The simulator's HAL: the ops table, lifetime, log and kick callbacks.
 * The other parts: map.c, mmio.c, msr.c, mem.c, clock.c (sim_priv.h). */
#define _GNU_SOURCE
#include "sim_priv.h"

/* Keeps @msg as the newest of the last LOG_KEEP messages; counts @lvl.
 * Called with the simulator's lock held. */
static void keep_log_(struct virq_sim *sim, enum virq_log_level lvl, const char *msg)
{
	if ((unsigned)lvl < 4)
		sim->log_count[lvl]++;
	if (sim->nlogs == LOG_KEEP) {
		free(sim->logs[0]);
		memmove(sim->logs, sim->logs + 1, (LOG_KEEP - 1) * sizeof(char *));
		sim->nlogs--;
	}
	sim->logs[sim->nlogs++] = strdup(msg);
}

static void virq_sim_cb_log_(void *ctx, enum virq_log_level lvl, const char *msg,
			     const uint64_t *vals, size_t n)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	keep_log_(sim, lvl, msg);
	if (sim->verbose) {
		fprintf(stderr, "[virq %d] %s", (int)lvl, msg);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " 0x%llx", (unsigned long long)vals[i]);
		fputc('\n', stderr);
	}
	UNLOCK(sim);
}

/* A failed check: kept as the last failure and, as its message, in the log
 * at LIBVIRQ_LOG_DEBUG (where it would go without this callback). */
static void virq_sim_cb_fail_(void *ctx, const struct virq_failure *f)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	keep_log_(sim, LIBVIRQ_LOG_DEBUG, f->message);
	sim->nfails++;
	sim->last_fail = *f;
	snprintf(sim->last_fail_msg, sizeof(sim->last_fail_msg), "%s", f->message);
	sim->last_fail.message = sim->last_fail_msg;
	if (sim->verbose)
		fprintf(stderr, "[virq fail] %s -> %s\n", f->message, virq_status_name(f->status));
	UNLOCK(sim);
}

static void virq_sim_cb_kick_(void *ctx, void *cookie)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	virq_sim_record_(sim, LIBVIRQ_SIM_KICK, (uint64_t)(uintptr_t)cookie, 0);
	(*virq_sim_map_ref_(&sim->kicks, (uint64_t)(uintptr_t)cookie, true))++;
	if (sim->kick_fn)
		sim->kick_fn(sim->kick_arg, sim, cookie);
	UNLOCK(sim);
}

static const struct virq_hal_ops sim_ops_ = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = virq_sim_cb_rd32_,
    .mmio_write32 = virq_sim_cb_wr32_,
    .mmio_read64 = virq_sim_cb_rd64_,
    .mmio_write64 = virq_sim_cb_wr64_,
    .msr_read = virq_sim_cb_msr_rd_,
    .msr_write = virq_sim_cb_msr_wr_,
    .cpuid = virq_sim_cb_cpuid_,
    .page_alloc = virq_sim_cb_alloc_,
    .page_free = virq_sim_cb_free_,
    .dcache_clean = virq_sim_cb_clean_,
    .barrier = virq_sim_cb_barrier_,
    .now_ns = virq_sim_cb_now_,
    .relax = virq_sim_cb_relax_,
    .log = virq_sim_cb_log_,
    .kick_vcpu = virq_sim_cb_kick_,
    .fail = virq_sim_cb_fail_,
};

const struct virq_hal_ops *virq_sim_hal_ops(void)
{
	return &sim_ops_;
}

struct virq_sim *virq_sim_new(void)
{
	struct virq_sim *sim = virq_sim_xcalloc_(1, sizeof(*sim));
	pthread_mutexattr_t at;
	const char *v = getenv("LIBVIRQ_SIM_VERBOSE");

	pthread_mutexattr_init(&at);
	pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&sim->mu, &at);
	pthread_mutexattr_destroy(&at);
	sim->next_pa = 0x800000000ull; /* 32 GiB: above any MMIO used in tests */
	sim->relax_step = 1000;
	sim->verbose = v && *v && *v != '0';
	return sim;
}

void virq_sim_free(struct virq_sim *sim)
{
	if (!sim)
		return;
	virq_sim_map_free_(&sim->regs);
	virq_sim_map_free_(&sim->stuck);
	virq_sim_map_free_(&sim->msrs);
	virq_sim_map_free_(&sim->msrfault);
	virq_sim_map_free_(&sim->counts);
	virq_sim_map_free_(&sim->kicks);
	free(sim->regions);
	free(sim->msrhooks);
	free(sim->cpuids);
	for (size_t i = 0; i < sim->nallocs; i++)
		free(sim->allocs[i].va);
	free(sim->allocs);
	free(sim->relaxers);
	free(sim->trace);
	for (size_t i = 0; i < sim->nlogs; i++)
		free(sim->logs[i]);
	pthread_mutex_destroy(&sim->mu);
	free(sim);
}

struct virq_hal virq_sim_hal(struct virq_sim *sim)
{
	return (struct virq_hal){&sim_ops_, sim};
}

void virq_sim_on_kick(struct virq_sim *sim, virq_sim_kick_fn fn, void *arg)
{
	LOCK(sim);
	sim->kick_fn = fn;
	sim->kick_arg = arg;
	UNLOCK(sim);
}

unsigned long virq_sim_kicks_of(struct virq_sim *sim, void *cookie)
{
	uint64_t *v;
	unsigned long n;

	LOCK(sim);
	v = virq_sim_map_ref_(&sim->kicks, (uint64_t)(uintptr_t)cookie, false);
	n = v ? (unsigned long)*v : 0;
	UNLOCK(sim);
	return n;
}

unsigned long virq_sim_log_count(struct virq_sim *sim, enum virq_log_level lvl)
{
	unsigned long n;

	LOCK(sim);
	n = (unsigned)lvl < 4 ? sim->log_count[lvl] : 0;
	UNLOCK(sim);
	return n;
}

const char *virq_sim_last_log(struct virq_sim *sim)
{
	const char *s;

	LOCK(sim);
	s = sim->nlogs ? sim->logs[sim->nlogs - 1] : NULL;
	UNLOCK(sim);
	return s;
}

unsigned long virq_sim_fail_count(struct virq_sim *sim)
{
	unsigned long n;

	LOCK(sim);
	n = sim->nfails;
	UNLOCK(sim);
	return n;
}

bool virq_sim_last_fail(struct virq_sim *sim, struct virq_failure *out)
{
	bool have;

	LOCK(sim);
	have = sim->nfails != 0;
	if (have)
		*out = sim->last_fail;
	UNLOCK(sim);
	return have;
}

bool virq_sim_logged(struct virq_sim *sim, const char *msg)
{
	bool r = false;

	LOCK(sim);
	for (size_t i = 0; i < sim->nlogs && !r; i++)
		r = strcmp(sim->logs[i], msg) == 0;
	UNLOCK(sim);
	return r;
}
