/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <libvirq/sim/hal.h>

#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small u64 -> u64 open-addressing map ---- */
struct map_ {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap, n;
};

static size_t map_slot_(const struct map_ *m, uint64_t k)
{
	uint64_t h = k * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 20) & (m->cap - 1);

	while (m->used[i] && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void *xcalloc_(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		abort();
	return p;
}

static void map_grow_(struct map_ *m)
{
	struct map_ old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc_(m->cap, sizeof(uint64_t));
	m->vals = xcalloc_(m->cap, sizeof(uint64_t));
	m->used = xcalloc_(m->cap, 1);
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.used[i]) {
			size_t s = map_slot_(m, old.keys[i]);
			m->used[s] = 1;
			m->keys[s] = old.keys[i];
			m->vals[s] = old.vals[i];
			m->n++;
		}
	}
	free(old.keys);
	free(old.vals);
	free(old.used);
}

static uint64_t *map_ref_(struct map_ *m, uint64_t k, bool create)
{
	size_t s;

	if (!m->cap) {
		if (!create)
			return NULL;
		map_grow_(m);
	}
	s = map_slot_(m, k);
	if (m->used[s])
		return &m->vals[s];
	if (!create)
		return NULL;
	if ((m->n + 1) * 2 > m->cap) {
		map_grow_(m);
		s = map_slot_(m, k);
	}
	m->used[s] = 1;
	m->keys[s] = k;
	m->vals[s] = 0;
	m->n++;
	return &m->vals[s];
}

static void map_free_(struct map_ *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* ---- state ---- */
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
	bool verbose;
};

#define LOCK(fh) pthread_mutex_lock(&(fh)->mu)
#define UNLOCK(fh) pthread_mutex_unlock(&(fh)->mu)

static void record_(struct virq_sim *fh, enum virq_sim_kind kind, uint64_t addr, uint64_t value)
{
	fh->kind_count[kind]++;
	if (kind <= LIBVIRQ_SIM_MSR_W)
		(*map_ref_(&fh->counts, ((uint64_t)kind << 56) ^ addr, true))++;
	if (fh->tracing) {
		if (fh->ntrace == fh->captrace) {
			fh->captrace = fh->captrace ? fh->captrace * 2 : 1024;
			fh->trace = realloc(fh->trace, fh->captrace * sizeof(*fh->trace));
			if (!fh->trace)
				abort();
		}
		fh->trace[fh->ntrace++] = (struct virq_sim_trace_ev){kind, addr, value};
	}
}

/* ---- register file ---- */
static uint32_t reg_get32_(struct virq_sim *fh, uint64_t addr)
{
	uint64_t *v = map_ref_(&fh->regs, addr >> 2, false);

	return v ? (uint32_t)*v : 0;
}

static void reg_set32_(struct virq_sim *fh, uint64_t addr, uint32_t v)
{
	*map_ref_(&fh->regs, addr >> 2, true) = v;
}

static bool stuck_(struct virq_sim *fh, uint64_t addr)
{
	return map_ref_(&fh->stuck, addr >> 2, false) != NULL;
}

void virq_sim_reg_set32(struct virq_sim *fh, uint64_t addr, uint32_t v)
{
	LOCK(fh);
	reg_set32_(fh, addr, v);
	UNLOCK(fh);
}

uint32_t virq_sim_reg_get32(struct virq_sim *fh, uint64_t addr)
{
	uint32_t v;

	LOCK(fh);
	v = reg_get32_(fh, addr);
	UNLOCK(fh);
	return v;
}

void virq_sim_reg_set64(struct virq_sim *fh, uint64_t addr, uint64_t v)
{
	LOCK(fh);
	reg_set32_(fh, addr, (uint32_t)v);
	reg_set32_(fh, addr + 4, (uint32_t)(v >> 32));
	UNLOCK(fh);
}

uint64_t virq_sim_reg_get64(struct virq_sim *fh, uint64_t addr)
{
	uint64_t v;

	LOCK(fh);
	v = reg_get32_(fh, addr) | ((uint64_t)reg_get32_(fh, addr + 4) << 32);
	UNLOCK(fh);
	return v;
}

void virq_sim_reg_stick32(struct virq_sim *fh, uint64_t addr, uint32_t v)
{
	LOCK(fh);
	reg_set32_(fh, addr, v);
	*map_ref_(&fh->stuck, addr >> 2, true) = 1;
	UNLOCK(fh);
}

void virq_sim_add_region(struct virq_sim *fh, uint64_t base, uint64_t size,
			 virq_sim_mmio_read_fn rd, virq_sim_mmio_write_fn wr, void *arg)
{
	LOCK(fh);
	fh->regions = realloc(fh->regions, (fh->nregions + 1) * sizeof(*fh->regions));
	if (!fh->regions)
		abort();
	fh->regions[fh->nregions++] = (struct region_){base, size, rd, wr, arg};
	UNLOCK(fh);
}

void virq_sim_on_reg(struct virq_sim *fh, uint64_t addr, virq_sim_mmio_read_fn rd,
		     virq_sim_mmio_write_fn wr, void *arg)
{
	virq_sim_add_region(fh, addr, 4, rd, wr, arg);
}

static const struct region_ *region_of_(struct virq_sim *fh, uint64_t addr)
{
	for (size_t i = fh->nregions; i-- > 0;) {
		const struct region_ *r = &fh->regions[i];

		if (addr >= r->base && addr - r->base < r->size)
			return r;
	}
	return NULL;
}

static uint64_t mmio_read_(struct virq_sim *fh, uint64_t addr, unsigned width)
{
	const struct region_ *r = region_of_(fh, addr);
	uint64_t v;

	if (r && r->rd) {
		v = r->rd(r->arg, fh, addr, width);
	} else {
		v = reg_get32_(fh, addr);
		if (width == 64)
			v |= (uint64_t)reg_get32_(fh, addr + 4) << 32;
	}
	return v;
}

static void mmio_write_(struct virq_sim *fh, uint64_t addr, uint64_t v, unsigned width)
{
	const struct region_ *r = region_of_(fh, addr);

	if (r && r->wr) {
		r->wr(r->arg, fh, addr, v, width);
		return;
	}
	if (!stuck_(fh, addr))
		reg_set32_(fh, addr, (uint32_t)v);
	if (width == 64 && !stuck_(fh, addr + 4))
		reg_set32_(fh, addr + 4, (uint32_t)(v >> 32));
}

/* ---- HAL callbacks ---- */
static uint32_t cb_rd32_(void *ctx, uint64_t addr)
{
	struct virq_sim *fh = ctx;
	uint32_t v;

	LOCK(fh);
	v = (uint32_t)mmio_read_(fh, addr, 32);
	record_(fh, LIBVIRQ_SIM_MMIO_R32, addr, v);
	UNLOCK(fh);
	return v;
}

static void cb_wr32_(void *ctx, uint64_t addr, uint32_t v)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_MMIO_W32, addr, v);
	mmio_write_(fh, addr, v, 32);
	UNLOCK(fh);
}

static uint64_t cb_rd64_(void *ctx, uint64_t addr)
{
	struct virq_sim *fh = ctx;
	uint64_t v;

	LOCK(fh);
	v = mmio_read_(fh, addr, 64);
	record_(fh, LIBVIRQ_SIM_MMIO_R64, addr, v);
	UNLOCK(fh);
	return v;
}

static void cb_wr64_(void *ctx, uint64_t addr, uint64_t v)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_MMIO_W64, addr, v);
	mmio_write_(fh, addr, v, 64);
	UNLOCK(fh);
}

static const struct msrhook_ *msrhook_of_(struct virq_sim *fh, uint32_t msr)
{
	for (size_t i = fh->nmsrhooks; i-- > 0;)
		if (fh->msrhooks[i].msr == msr)
			return &fh->msrhooks[i];
	return NULL;
}

static virq_status cb_msr_rd_(void *ctx, uint32_t msr, uint64_t *value)
{
	struct virq_sim *fh = ctx;
	const struct msrhook_ *h;
	virq_status st = LIBVIRQ_OK;
	uint64_t *v;

	LOCK(fh);
	h = msrhook_of_(fh, msr);
	if (map_ref_(&fh->msrfault, msr, false)) {
		st = LIBVIRQ_EHW;
	} else if (h && h->rd) {
		st = h->rd(h->arg, fh, msr, value);
	} else {
		v = map_ref_(&fh->msrs, msr, false);
		*value = v ? *v : 0;
	}
	record_(fh, LIBVIRQ_SIM_MSR_R, msr, st == LIBVIRQ_OK ? *value : 0);
	UNLOCK(fh);
	return st;
}

static virq_status cb_msr_wr_(void *ctx, uint32_t msr, uint64_t value)
{
	struct virq_sim *fh = ctx;
	const struct msrhook_ *h;
	virq_status st = LIBVIRQ_OK;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_MSR_W, msr, value);
	h = msrhook_of_(fh, msr);
	if (map_ref_(&fh->msrfault, msr, false))
		st = LIBVIRQ_EHW;
	else if (h && h->wr)
		st = h->wr(h->arg, fh, msr, value);
	else
		*map_ref_(&fh->msrs, msr, true) = value;
	UNLOCK(fh);
	return st;
}

static void cb_cpuid_(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_CPUID, leaf, sub);
	memset(regs, 0, 4 * sizeof(uint32_t));
	for (size_t i = 0; i < fh->ncpuids; i++) {
		if (fh->cpuids[i].leaf == leaf && fh->cpuids[i].sub == sub) {
			memcpy(regs, fh->cpuids[i].regs, 4 * sizeof(uint32_t));
			break;
		}
	}
	UNLOCK(fh);
}

static virq_status cb_alloc_(void *ctx, size_t size, size_t align, struct virq_page *page)
{
	struct virq_sim *fh = ctx;
	size_t rounded;
	void *va;

	LOCK(fh);
	fh->alloc_calls++;
	if (fh->fail_at && fh->alloc_calls == fh->fail_at) {
		fh->fail_at = 0;
		UNLOCK(fh);
		return LIBVIRQ_ENOMEM;
	}
	if (size == 0 || align < 4096 || (align & (align - 1))) {
		/* The HAL contract forbids these; report them loudly. */
		fprintf(stderr, "virq_sim: bad page_alloc(size=%zu, align=%zu)\n", size, align);
		UNLOCK(fh);
		return LIBVIRQ_EINVAL;
	}
	rounded = (size + align - 1) & ~(align - 1);
	va = aligned_alloc(align, rounded);
	if (!va) {
		UNLOCK(fh);
		return LIBVIRQ_ENOMEM;
	}
	memset(va, 0, rounded);
	fh->next_pa = (fh->next_pa + align - 1) & ~(uint64_t)(align - 1);
	page->va = va;
	page->pa = fh->next_pa;
	page->size = size;
	fh->next_pa += rounded + 4096; /* a guard gap between blocks */
	if (fh->nallocs == fh->capallocs) {
		fh->capallocs = fh->capallocs ? fh->capallocs * 2 : 64;
		fh->allocs = realloc(fh->allocs, fh->capallocs * sizeof(*fh->allocs));
		if (!fh->allocs)
			abort();
	}
	fh->allocs[fh->nallocs++] = (struct alloc_){va, page->pa, size};
	record_(fh, LIBVIRQ_SIM_ALLOC, page->pa, size);
	UNLOCK(fh);
	return LIBVIRQ_OK;
}

static void cb_free_(void *ctx, const struct virq_page *page)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	for (size_t i = 0; i < fh->nallocs; i++) {
		struct alloc_ *a = &fh->allocs[i];

		if (a->va == page->va && a->pa == page->pa) {
			record_(fh, LIBVIRQ_SIM_FREE, a->pa, a->size);
			free(a->va);
			*a = fh->allocs[--fh->nallocs];
			UNLOCK(fh);
			return;
		}
	}
	fh->bad_frees++;
	fprintf(stderr, "virq_sim: page_free of unknown page va=%p pa=0x%llx\n", page->va,
		(unsigned long long)page->pa);
	UNLOCK(fh);
}

static void cb_clean_(void *ctx, const void *va, size_t len)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_CLEAN, (uint64_t)(uintptr_t)va, len);
	UNLOCK(fh);
}

static void cb_barrier_(void *ctx, enum virq_barrier kind)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_BARRIER, 0, (uint64_t)kind);
	UNLOCK(fh);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static uint64_t cb_now_(void *ctx)
{
	struct virq_sim *fh = ctx;
	uint64_t t;

	LOCK(fh);
	fh->kind_count[LIBVIRQ_SIM_NOW]++; /* counted, not traced */
	t = fh->clock;
	fh->clock += fh->now_step;
	if (fh->cf_kind != LIBVIRQ_SIM_CLOCK_OK) {
		if (fh->cf_after) {
			fh->cf_after--;
		} else if (!fh->cf_active) {
			fh->cf_active = true;
			switch (fh->cf_kind) {
			case LIBVIRQ_SIM_CLOCK_STOP:
			case LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS:
				fh->cf_held = t + fh->cf_offset;
				break;
			case LIBVIRQ_SIM_CLOCK_JUMP_FORWARD:
				fh->cf_offset += fh->cf_ns;
				break;
			case LIBVIRQ_SIM_CLOCK_JUMP_BACK:
				fh->cf_offset -= fh->cf_ns;
				break;
			default:
				break;
			}
		} else if (fh->cf_kind == LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS) {
			fh->cf_held -= fh->cf_ns;
		}
		if (fh->cf_active && (fh->cf_kind == LIBVIRQ_SIM_CLOCK_STOP ||
				      fh->cf_kind == LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS))
			t = fh->cf_held;
		else
			t += fh->cf_offset;
	} else {
		t += fh->cf_offset;
	}
	UNLOCK(fh);
	return t;
}

void virq_sim_clock_fault(struct virq_sim *fh, enum virq_sim_clock_fault_kind kind, uint64_t after,
			  uint64_t ns)
{
	LOCK(fh);
	fh->cf_kind = kind;
	fh->cf_after = after;
	fh->cf_ns = ns;
	fh->cf_active = false;
	if (kind == LIBVIRQ_SIM_CLOCK_OK)
		fh->cf_offset = 0;
	UNLOCK(fh);
}

static void cb_relax_(void *ctx)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_RELAX, 0, 0);
	fh->clock += fh->relax_step;
	for (size_t i = 0; i < fh->nrelaxers; i++)
		((virq_sim_relax_fn)fh->relaxers[i].fn)(fh->relaxers[i].arg, fh);
	UNLOCK(fh);
}

static void cb_log_(void *ctx, enum virq_log_level lvl, const char *msg, const uint64_t *vals,
		    size_t n)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	if ((unsigned)lvl < 4)
		fh->log_count[lvl]++;
	if (fh->nlogs == LOG_KEEP) {
		free(fh->logs[0]);
		memmove(fh->logs, fh->logs + 1, (LOG_KEEP - 1) * sizeof(char *));
		fh->nlogs--;
	}
	fh->logs[fh->nlogs++] = strdup(msg);
	if (fh->verbose) {
		fprintf(stderr, "[virq %d] %s", (int)lvl, msg);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " 0x%llx", (unsigned long long)vals[i]);
		fputc('\n', stderr);
	}
	UNLOCK(fh);
}

static void cb_kick_(void *ctx, void *cookie)
{
	struct virq_sim *fh = ctx;

	LOCK(fh);
	record_(fh, LIBVIRQ_SIM_KICK, (uint64_t)(uintptr_t)cookie, 0);
	(*map_ref_(&fh->kicks, (uint64_t)(uintptr_t)cookie, true))++;
	if (fh->kick_fn)
		fh->kick_fn(fh->kick_arg, fh, cookie);
	UNLOCK(fh);
}

static const struct virq_hal_ops fake_ops_ = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = cb_rd32_,
    .mmio_write32 = cb_wr32_,
    .mmio_read64 = cb_rd64_,
    .mmio_write64 = cb_wr64_,
    .msr_read = cb_msr_rd_,
    .msr_write = cb_msr_wr_,
    .cpuid = cb_cpuid_,
    .page_alloc = cb_alloc_,
    .page_free = cb_free_,
    .dcache_clean = cb_clean_,
    .barrier = cb_barrier_,
    .now_ns = cb_now_,
    .relax = cb_relax_,
    .log = cb_log_,
    .kick_vcpu = cb_kick_,
};

const struct virq_hal_ops *virq_sim_hal_ops(void)
{
	return &fake_ops_;
}

struct virq_sim *virq_sim_new(void)
{
	struct virq_sim *fh = xcalloc_(1, sizeof(*fh));
	pthread_mutexattr_t at;
	const char *v = getenv("LIBVIRQ_SIM_VERBOSE");

	pthread_mutexattr_init(&at);
	pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&fh->mu, &at);
	pthread_mutexattr_destroy(&at);
	fh->next_pa = 0x800000000ull; /* 32 GiB: above any MMIO used in tests */
	fh->relax_step = 1000;
	fh->verbose = v && *v && *v != '0';
	return fh;
}

void virq_sim_free(struct virq_sim *fh)
{
	if (!fh)
		return;
	map_free_(&fh->regs);
	map_free_(&fh->stuck);
	map_free_(&fh->msrs);
	map_free_(&fh->msrfault);
	map_free_(&fh->counts);
	map_free_(&fh->kicks);
	free(fh->regions);
	free(fh->msrhooks);
	free(fh->cpuids);
	for (size_t i = 0; i < fh->nallocs; i++)
		free(fh->allocs[i].va);
	free(fh->allocs);
	free(fh->relaxers);
	free(fh->trace);
	for (size_t i = 0; i < fh->nlogs; i++)
		free(fh->logs[i]);
	pthread_mutex_destroy(&fh->mu);
	free(fh);
}

struct virq_hal virq_sim_hal(struct virq_sim *fh)
{
	return (struct virq_hal){&fake_ops_, fh};
}

void virq_sim_msr_set(struct virq_sim *fh, uint32_t msr, uint64_t v)
{
	LOCK(fh);
	*map_ref_(&fh->msrs, msr, true) = v;
	UNLOCK(fh);
}

uint64_t virq_sim_msr_get(struct virq_sim *fh, uint32_t msr)
{
	uint64_t *v, r;

	LOCK(fh);
	v = map_ref_(&fh->msrs, msr, false);
	r = v ? *v : 0;
	UNLOCK(fh);
	return r;
}

void virq_sim_msr_fault(struct virq_sim *fh, uint32_t msr, bool fault)
{
	LOCK(fh);
	*map_ref_(&fh->msrfault, msr, true) = fault;
	if (!fault) {
		/* Re-create the map without this key. */
		struct map_ old = fh->msrfault;

		memset(&fh->msrfault, 0, sizeof(fh->msrfault));
		for (size_t i = 0; i < old.cap; i++)
			if (old.used[i] && old.keys[i] != msr)
				*map_ref_(&fh->msrfault, old.keys[i], true) = 1;
		map_free_(&old);
	}
	UNLOCK(fh);
}

void virq_sim_msr_hook(struct virq_sim *fh, uint32_t msr, virq_sim_msr_read_fn rd,
		       virq_sim_msr_write_fn wr, void *arg)
{
	LOCK(fh);
	fh->msrhooks = realloc(fh->msrhooks, (fh->nmsrhooks + 1) * sizeof(*fh->msrhooks));
	if (!fh->msrhooks)
		abort();
	fh->msrhooks[fh->nmsrhooks++] = (struct msrhook_){msr, rd, wr, arg};
	UNLOCK(fh);
}

void virq_sim_cpuid_set(struct virq_sim *fh, uint32_t leaf, uint32_t subleaf, uint32_t eax,
			uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	LOCK(fh);
	for (size_t i = 0; i < fh->ncpuids; i++) {
		if (fh->cpuids[i].leaf == leaf && fh->cpuids[i].sub == subleaf) {
			fh->cpuids[i] = (struct cpuid_){leaf, subleaf, {eax, ebx, ecx, edx}};
			UNLOCK(fh);
			return;
		}
	}
	fh->cpuids = realloc(fh->cpuids, (fh->ncpuids + 1) * sizeof(*fh->cpuids));
	if (!fh->cpuids)
		abort();
	fh->cpuids[fh->ncpuids++] = (struct cpuid_){leaf, subleaf, {eax, ebx, ecx, edx}};
	UNLOCK(fh);
}

void virq_sim_fail_alloc_nth(struct virq_sim *fh, unsigned long n)
{
	LOCK(fh);
	fh->fail_at = n ? fh->alloc_calls + n : 0;
	UNLOCK(fh);
}

unsigned long virq_sim_alloc_calls(struct virq_sim *fh)
{
	unsigned long n;

	LOCK(fh);
	n = fh->alloc_calls;
	UNLOCK(fh);
	return n;
}

size_t virq_sim_live_pages(struct virq_sim *fh)
{
	size_t n;

	LOCK(fh);
	n = fh->nallocs;
	UNLOCK(fh);
	return n;
}

size_t virq_sim_live_bytes(struct virq_sim *fh)
{
	size_t n = 0;

	LOCK(fh);
	for (size_t i = 0; i < fh->nallocs; i++)
		n += fh->allocs[i].size;
	UNLOCK(fh);
	return n;
}

void *virq_sim_pa_to_va(struct virq_sim *fh, uint64_t pa, size_t len)
{
	void *r = NULL;

	LOCK(fh);
	for (size_t i = 0; i < fh->nallocs; i++) {
		const struct alloc_ *a = &fh->allocs[i];

		if (pa >= a->pa && pa - a->pa <= a->size && len <= a->size - (pa - a->pa)) {
			r = (char *)a->va + (pa - a->pa);
			break;
		}
	}
	UNLOCK(fh);
	return r;
}

uint64_t virq_sim_va_to_pa(struct virq_sim *fh, const void *va)
{
	uint64_t r = UINT64_MAX;
	uintptr_t p = (uintptr_t)va;

	LOCK(fh);
	for (size_t i = 0; i < fh->nallocs; i++) {
		const struct alloc_ *a = &fh->allocs[i];
		uintptr_t b = (uintptr_t)a->va;

		if (p >= b && p - b < a->size) {
			r = a->pa + (p - b);
			break;
		}
	}
	UNLOCK(fh);
	return r;
}

unsigned long virq_sim_bad_frees(struct virq_sim *fh)
{
	unsigned long n;

	LOCK(fh);
	n = fh->bad_frees;
	UNLOCK(fh);
	return n;
}

uint64_t virq_sim_now(struct virq_sim *fh)
{
	uint64_t t;

	LOCK(fh);
	t = fh->clock;
	UNLOCK(fh);
	return t;
}

void virq_sim_clock_advance(struct virq_sim *fh, uint64_t ns)
{
	LOCK(fh);
	fh->clock += ns;
	UNLOCK(fh);
}

void virq_sim_set_relax_step(struct virq_sim *fh, uint64_t ns)
{
	LOCK(fh);
	fh->relax_step = ns;
	UNLOCK(fh);
}

void virq_sim_set_now_step(struct virq_sim *fh, uint64_t ns)
{
	LOCK(fh);
	fh->now_step = ns;
	UNLOCK(fh);
}

void virq_sim_on_relax(struct virq_sim *fh, virq_sim_relax_fn fn, void *arg)
{
	LOCK(fh);
	fh->relaxers = realloc(fh->relaxers, (fh->nrelaxers + 1) * sizeof(*fh->relaxers));
	if (!fh->relaxers)
		abort();
	fh->relaxers[fh->nrelaxers++] = (struct hookfn_){(void (*)(void))fn, arg};
	UNLOCK(fh);
}

void virq_sim_on_kick(struct virq_sim *fh, virq_sim_kick_fn fn, void *arg)
{
	LOCK(fh);
	fh->kick_fn = fn;
	fh->kick_arg = arg;
	UNLOCK(fh);
}

unsigned long virq_sim_kicks_of(struct virq_sim *fh, void *cookie)
{
	uint64_t *v;
	unsigned long n;

	LOCK(fh);
	v = map_ref_(&fh->kicks, (uint64_t)(uintptr_t)cookie, false);
	n = v ? (unsigned long)*v : 0;
	UNLOCK(fh);
	return n;
}

unsigned long virq_sim_count(struct virq_sim *fh, enum virq_sim_kind kind)
{
	unsigned long n;

	LOCK(fh);
	n = fh->kind_count[kind];
	UNLOCK(fh);
	return n;
}

unsigned long virq_sim_count_at(struct virq_sim *fh, enum virq_sim_kind kind, uint64_t addr)
{
	uint64_t *v;
	unsigned long n;

	LOCK(fh);
	v = map_ref_(&fh->counts, ((uint64_t)kind << 56) ^ addr, false);
	n = v ? (unsigned long)*v : 0;
	UNLOCK(fh);
	return n;
}

unsigned long virq_sim_mmio_total(struct virq_sim *fh)
{
	unsigned long n;

	LOCK(fh);
	n = fh->kind_count[LIBVIRQ_SIM_MMIO_R32] + fh->kind_count[LIBVIRQ_SIM_MMIO_W32] +
	    fh->kind_count[LIBVIRQ_SIM_MMIO_R64] + fh->kind_count[LIBVIRQ_SIM_MMIO_W64];
	UNLOCK(fh);
	return n;
}

unsigned long virq_sim_msr_total(struct virq_sim *fh)
{
	unsigned long n;

	LOCK(fh);
	n = fh->kind_count[LIBVIRQ_SIM_MSR_R] + fh->kind_count[LIBVIRQ_SIM_MSR_W];
	UNLOCK(fh);
	return n;
}

void virq_sim_reset_counters(struct virq_sim *fh)
{
	LOCK(fh);
	memset(fh->kind_count, 0, sizeof(fh->kind_count));
	map_free_(&fh->counts);
	map_free_(&fh->kicks);
	UNLOCK(fh);
}

void virq_sim_trace(struct virq_sim *fh, bool on)
{
	LOCK(fh);
	fh->tracing = on;
	UNLOCK(fh);
}

size_t virq_sim_trace_len(struct virq_sim *fh)
{
	size_t n;

	LOCK(fh);
	n = fh->ntrace;
	UNLOCK(fh);
	return n;
}

const struct virq_sim_trace_ev *virq_sim_trace_at(struct virq_sim *fh, size_t i)
{
	const struct virq_sim_trace_ev *e;

	LOCK(fh);
	e = i < fh->ntrace ? &fh->trace[i] : NULL;
	UNLOCK(fh);
	return e;
}

void virq_sim_trace_clear(struct virq_sim *fh)
{
	LOCK(fh);
	fh->ntrace = 0;
	UNLOCK(fh);
}

size_t virq_sim_trace_find(struct virq_sim *fh, size_t from, enum virq_sim_kind kind, uint64_t addr)
{
	size_t r = SIZE_MAX;

	LOCK(fh);
	for (size_t i = from; i < fh->ntrace; i++) {
		if (fh->trace[i].kind == kind && fh->trace[i].addr == addr) {
			r = i;
			break;
		}
	}
	UNLOCK(fh);
	return r;
}

unsigned long virq_sim_log_count(struct virq_sim *fh, enum virq_log_level lvl)
{
	unsigned long n;

	LOCK(fh);
	n = (unsigned)lvl < 4 ? fh->log_count[lvl] : 0;
	UNLOCK(fh);
	return n;
}

const char *virq_sim_last_log(struct virq_sim *fh)
{
	const char *s;

	LOCK(fh);
	s = fh->nlogs ? fh->logs[fh->nlogs - 1] : NULL;
	UNLOCK(fh);
	return s;
}

bool virq_sim_logged(struct virq_sim *fh, const char *msg)
{
	bool r = false;

	LOCK(fh);
	for (size_t i = 0; i < fh->nlogs && !r; i++)
		r = strcmp(fh->logs[i], msg) == 0;
	UNLOCK(fh);
	return r;
}
