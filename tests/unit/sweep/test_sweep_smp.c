/* SPDX-License-Identifier: MIT */
/*
 * Interleaving sweep of the GICv4 driver (docs/reliability.md): for every
 * pair of public GICv4 calls that the SMP contract lets run at once
 * on one ITS (docs/gicv4-core.md "SMP": calls on different devices and vPEs,
 * with the ITS lock hook), on two CPUs, every interleaving of their lock
 * sections (the calls switch only where the lock is released: smp_world.h),
 * and at each switch also the variant where the next command the ITS
 * processes - the other CPU's - fails (stalls, and the queue is reset). In
 * every case each call returns a status its contract allows, a refused call
 * changes nothing, a successful one does what it promises, a failed one
 * leaves the library's tracking equal to the ITS model's tables, and
 * afterwards every mapping delivers exactly once where the library says.
 *
 * Worlds: GICv4.0 with one ITS, no DirectLPI, the doorbell proxy
 * (QEMU-like); GICv4.0 with two ITSes (GITS_TYPER.VMOVP = 0: ITSList) and
 * DirectLPI; GICv4.1 with one ITS and direct vSGIs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "smp_world.h"

#define DFS_MAX 512

/* Depth-first enumeration of every sequence of choices. */
struct dfs {
	unsigned path[DFS_MAX], width[DFS_MAX];
	unsigned len, pos;
};

static unsigned dfs_choose_(struct dfs *d, unsigned nopts)
{
	unsigned c = 0;

	if (d->pos >= DFS_MAX)
		fail_msg("interleaving deeper than %u decisions", DFS_MAX);
	if (d->pos < d->len) {
		c = d->path[d->pos];
		if (d->width[d->pos] != nopts)
			fail_msg("not deterministic: decision %u had %u options, now %u", d->pos,
				 d->width[d->pos], nopts);
	} else {
		d->path[d->pos] = 0;
		d->width[d->pos] = nopts;
		d->len = d->pos + 1;
	}
	d->pos++;
	return c;
}

/* The next sequence; false when every one was run. */
static bool dfs_next_(struct dfs *d)
{
	d->len = d->pos;
	while (d->len && d->path[d->len - 1] + 1 >= d->width[d->len - 1])
		d->len--;
	if (!d->len)
		return false;
	d->path[d->len - 1]++;
	d->pos = 0;
	return true;
}

/* One pair: call a on CPU 0, call b on CPU 1. */
struct pair {
	struct dfs dfs;
	struct w_op op[2];
	bool given[2];
	bool stalled; /* the one failed command of this run was injected */
};

static unsigned pick_(void *arg, struct world *w, unsigned runnable)
{
	struct pair *p = arg;
	unsigned n = (unsigned)__builtin_popcount(runnable), k;

	(void)w;
	k = n > 1 ? dfs_choose_(&p->dfs, n) : 0;
	for (unsigned i = 0; i < W_MAX_CPU; i++)
		if ((runnable >> i) & 1 && k-- == 0)
			return i;
	return 0;
}

static bool next_op_(void *arg, struct world *w, unsigned cpu, struct w_op *op)
{
	struct pair *p = arg;

	(void)w;
	if (p->given[cpu])
		return false;
	p->given[cpu] = true;
	*op = p->op[cpu];
	return true;
}

/* The ITS a call's commands go to first (the proxy's for doorbells). */
static int its_of_(const struct world *w, const struct w_op *op)
{
	if (op->k >= W_DEV_MAP && op->k <= W_SETCFG)
		return (int)w->dev[op->dev].its;
	if (op->k == W_MAPC)
		return (int)(op->n % w->cfg.nits);
	return 0;
}

/* At each switch to the other CPU (once per run): also with the other
 * CPU's next command failing. */
static int stall_(void *arg, struct world *w, int prev, unsigned cpu, unsigned *nth)
{
	struct pair *p = arg;

	(void)nth; /* the other CPU's next command */
	if (prev < 0 || (unsigned)prev == cpu || p->stalled || !w->cpu[cpu].busy)
		return -1;
	if (!dfs_choose_(&p->dfs, 2))
		return -1;
	p->stalled = true;
	return its_of_(w, &w->cpu[cpu].op);
}

static const struct w_driver driver_ = {pick_, next_op_, stall_, NULL};

/* What a call needs that the start state does not have. */
static void prepare_(struct world *w, unsigned cpu, enum w_opk k)
{
	struct w_vpe *p = &w->vpe[cpu];

	if (k == W_DEV_UNMAP)
		assert_int_equal(virq_its_device_map(&w->its[w->dev[cpu + 2].its],
						     &w->dev[cpu + 2].d, w->dev[cpu + 2].devid,
						     W_EVENTS),
				 LIBVIRQ_OK);
	if (k == W_PUT)
		assert_int_equal(virq_vpe_load(&p->v, cpu), LIBVIRQ_OK);
}

/* The start state: CPU c owns device c (events 0-3: vLPIs of vPE c, event
 * 4: an LPI; the rest free) and device c + 2 (not mapped), vPE c and vPE c
 * + 2 (live, on RD c, not resident) and the storage of vPE c + 4. */
static void start_state_(struct world *w)
{
	for (unsigned c = 0; c < 2; c++) {
		struct w_dev *d = &w->dev[c];

		assert_int_equal(virq_its_device_map(&w->its[d->its], &d->d, d->devid, W_EVENTS),
				 LIBVIRQ_OK);
		assert_int_equal(virq_vlpi_map_range(&d->d, 0, 4, &w->vpe[c].v, W_VINTID0, true),
				 LIBVIRQ_OK);
		assert_int_equal(virq_its_map_lpi(&d->d, 4, w->lpi[c], c), LIBVIRQ_OK);
	}
	w_check_all(w);
}

static void world_cfg_(unsigned kind, struct w_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->ncpu = 2;
	c->nvpe = 4;
	c->ndev = 4;
	c->version = kind == 2 ? 41 : 40;
	c->nits = kind == 1 ? 2 : 1;
	c->proxy = kind == 0;
	c->direct_lpi = kind != 0;
}

/* Every interleaving of @a on CPU 0 with @b on CPU 1; the number run. */
static unsigned long sweep_pair_(unsigned kind, enum w_opk a, enum w_opk b, bool *ran)
{
	struct pair *p = calloc(1, sizeof(*p));
	struct world *w = calloc(1, sizeof(*w));
	unsigned long runs = 0;
	struct w_cfg cfg;

	assert_true(p && w);
	world_cfg_(kind, &cfg);
	*ran = false;
	do {
		w_init(w, &cfg);
		start_state_(w);
		prepare_(w, 0, a);
		prepare_(w, 1, b);
		memset(p->given, 0, sizeof(p->given));
		p->stalled = false;
		if (!w_make_op(w, 0, a, 0, &p->op[0]) || !w_make_op(w, 1, b, 0, &p->op[1])) {
			w_fini(w);
			break; /* not applicable in this world */
		}
		w_note(w, "pair %s / %s, interleaving %lu", w_op_name[a], w_op_name[b], runs);
		w_run(w, &driver_, p);
		w_fini(w);
		runs++;
		*ran = true;
	} while (dfs_next_(&p->dfs));
	if (getenv("SMP_SWEEP_VERBOSE"))
		print_message("%s / %s: %lu\n", w_op_name[a], w_op_name[b], runs);
	free(w);
	free(p);
	return runs;
}

/* The GIC-wide domains of two calls overlap: the contract forbids them at
 * once (vPE creation/teardown and ITSList moves; the batched unmaps). */
static bool exclusive_(unsigned kind, enum w_opk a, enum w_opk b)
{
	bool va = a == W_VPE_INIT || a == W_VPE_DESTROY || (a == W_MOVE && kind == 1);
	bool vb = b == W_VPE_INIT || b == W_VPE_DESTROY || (b == W_MOVE && kind == 1);
	bool ra = a == W_VUNMAP_RANGE || a == W_UNMAP_RANGE;
	bool rb = b == W_VUNMAP_RANGE || b == W_UNMAP_RANGE;

	return (va && vb) || (ra && rb);
}

/* SMP_SWEEP_SAMPLE=N (the sanitizer builds, tests/unit/sweep/CMakeLists.txt)
 * sweeps one pair in N; unset or invalid, every pair. */
static unsigned long sample_(void)
{
	const char *e = getenv("SMP_SWEEP_SAMPLE");
	unsigned long v = 0;

	for (; e && *e >= '0' && *e <= '9' && v < 1000; e++)
		v = v * 10 + (unsigned long)(*e - '0');
	return v ? v : 1;
}

static void sweep_world_(unsigned kind, unsigned long *total, unsigned long *pairs)
{
	static const char *const name[3] = {"GICv4.0, 1 ITS, proxy", "GICv4.0, 2 ITSes, ITSList",
					    "GICv4.1, 1 ITS, vSGI"};
	unsigned long n = 0, np = 0, idx = 0, sample = sample_();

	/* Unordered pairs: b on CPU 1 with a on CPU 0 interleaves as a with b
	 * (each CPU's objects are alike), so each pair once, a call with itself
	 * (on other objects) included. */
	for (int a = W_DEV_MAP; a < W_OPK_COUNT; a++)
		for (int b = a; b < W_OPK_COUNT; b++) {
			bool ran;
			unsigned long r;

			if (exclusive_(kind, (enum w_opk)a, (enum w_opk)b))
				continue;
			/* A sampled run takes every sample-th pair, a different
			 * share in each world. */
			if ((idx++ + kind) % sample != 0)
				continue;
			r = sweep_pair_(kind, (enum w_opk)a, (enum w_opk)b, &ran);
			n += r;
			np += ran;
		}
	print_message("%s: %lu pairs, %lu interleavings (with a failed command at each switch)%s\n",
		      name[kind], np, n, sample > 1 ? ", sampled" : "");
	*total += n;
	*pairs += np;
}

static void test_every_pair_every_interleaving(void **state)
{
	unsigned long total = 0, pairs = 0;

	(void)state;
	for (unsigned kind = 0; kind < 3; kind++)
		sweep_world_(kind, &total, &pairs);
	printf("sweep: gicv4 smp: %lu pairs, %lu interleavings\n", pairs, total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_pair_every_interleaving),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
