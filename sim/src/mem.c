/* SPDX-License-Identifier: MIT */
/* The simulator's page allocator: pages with a fake physical address, allocation failures on
 * demand, PA <-> VA. */
#define _GNU_SOURCE
#include "sim_priv.h"

virq_status virq_sim_cb_alloc_(void *ctx, size_t size, size_t align, struct virq_page *page)
{
	struct virq_sim *sim = ctx;
	size_t rounded;
	void *va;

	LOCK(sim);
	sim->alloc_calls++;
	if (sim->fail_at && sim->alloc_calls == sim->fail_at) {
		sim->fail_at = 0;
		UNLOCK(sim);
		return LIBVIRQ_ENOMEM;
	}
	if (size == 0 || align < 4096 || (align & (align - 1))) {
		/* The HAL contract forbids these; report them loudly. */
		fprintf(stderr, "virq_sim: bad page_alloc(size=%zu, align=%zu)\n", size, align);
		UNLOCK(sim);
		return LIBVIRQ_EINVAL;
	}
	rounded = (size + align - 1) & ~(align - 1);
	va = aligned_alloc(align, rounded);
	if (!va) {
		UNLOCK(sim);
		return LIBVIRQ_ENOMEM;
	}
	memset(va, 0, rounded);
	sim->next_pa = (sim->next_pa + align - 1) & ~(uint64_t)(align - 1);
	page->va = va;
	page->pa = sim->next_pa;
	page->size = size;
	sim->next_pa += rounded + 4096; /* a guard gap between blocks */
	if (sim->nallocs == sim->capallocs) {
		sim->capallocs = sim->capallocs ? sim->capallocs * 2 : 64;
		sim->allocs = realloc(sim->allocs, sim->capallocs * sizeof(*sim->allocs));
		if (!sim->allocs)
			abort();
	}
	sim->allocs[sim->nallocs++] = (struct alloc_){va, page->pa, size};
	virq_sim_record_(sim, LIBVIRQ_SIM_ALLOC, page->pa, size);
	UNLOCK(sim);
	return LIBVIRQ_OK;
}

void virq_sim_cb_free_(void *ctx, const struct virq_page *page)
{
	struct virq_sim *sim = ctx;

	LOCK(sim);
	for (size_t i = 0; i < sim->nallocs; i++) {
		struct alloc_ *a = &sim->allocs[i];

		if (a->va == page->va && a->pa == page->pa) {
			virq_sim_record_(sim, LIBVIRQ_SIM_FREE, a->pa, a->size);
			free(a->va);
			*a = sim->allocs[--sim->nallocs];
			UNLOCK(sim);
			return;
		}
	}
	sim->bad_frees++;
	fprintf(stderr, "virq_sim: page_free of unknown page va=%p pa=0x%llx\n", page->va,
		(unsigned long long)page->pa);
	UNLOCK(sim);
}

void virq_sim_fail_alloc_nth(struct virq_sim *sim, unsigned long n)
{
	LOCK(sim);
	sim->fail_at = n ? sim->alloc_calls + n : 0;
	UNLOCK(sim);
}

unsigned long virq_sim_alloc_calls(struct virq_sim *sim)
{
	unsigned long n;

	LOCK(sim);
	n = sim->alloc_calls;
	UNLOCK(sim);
	return n;
}

size_t virq_sim_live_pages(struct virq_sim *sim)
{
	size_t n;

	LOCK(sim);
	n = sim->nallocs;
	UNLOCK(sim);
	return n;
}

size_t virq_sim_live_bytes(struct virq_sim *sim)
{
	size_t n = 0;

	LOCK(sim);
	for (size_t i = 0; i < sim->nallocs; i++)
		n += sim->allocs[i].size;
	UNLOCK(sim);
	return n;
}

void *virq_sim_pa_to_va(struct virq_sim *sim, uint64_t pa, size_t len)
{
	void *r = NULL;

	LOCK(sim);
	for (size_t i = 0; i < sim->nallocs; i++) {
		const struct alloc_ *a = &sim->allocs[i];

		if (pa >= a->pa && pa - a->pa <= a->size && len <= a->size - (pa - a->pa)) {
			r = (char *)a->va + (pa - a->pa);
			break;
		}
	}
	UNLOCK(sim);
	return r;
}

uint64_t virq_sim_va_to_pa(struct virq_sim *sim, const void *va)
{
	uint64_t r = UINT64_MAX;
	uintptr_t p = (uintptr_t)va;

	LOCK(sim);
	for (size_t i = 0; i < sim->nallocs; i++) {
		const struct alloc_ *a = &sim->allocs[i];
		uintptr_t b = (uintptr_t)a->va;

		if (p >= b && p - b < a->size) {
			r = a->pa + (p - b);
			break;
		}
	}
	UNLOCK(sim);
	return r;
}

unsigned long virq_sim_bad_frees(struct virq_sim *sim)
{
	unsigned long n;

	LOCK(sim);
	n = sim->bad_frees;
	UNLOCK(sim);
	return n;
}
