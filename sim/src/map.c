/* SPDX-License-Identifier: MIT */
/* The simulator's u64 -> u64 map: open addressing, grown at half load. */
#define _GNU_SOURCE
#include "sim_priv.h"

static size_t map_slot_(const struct map_ *m, uint64_t k)
{
	uint64_t h = k * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 20) & (m->cap - 1);

	while (m->used[i] && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *virq_sim_xcalloc_(size_t n, size_t sz)
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
	m->keys = virq_sim_xcalloc_(m->cap, sizeof(uint64_t));
	m->vals = virq_sim_xcalloc_(m->cap, sizeof(uint64_t));
	m->used = virq_sim_xcalloc_(m->cap, 1);
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

uint64_t *virq_sim_map_ref_(struct map_ *m, uint64_t k, bool create)
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

void virq_sim_map_free_(struct map_ *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
