/* SPDX-License-Identifier: MIT */
/*
 * Stateful fuzz target of the GICv4 driver on the simulator
 * (docs/reliability.md): the input is a world (GICv4.0 or 4.1, 2-4 CPUs,
 * one or two ITSes sharing the ITS lock hook, DirectLPI or the doorbell
 * proxy, a synchronous or slow ITS, a 4 KiB or 64 KiB queue) and then a
 * stream of decisions: which CPU continues at each point where another CPU
 * could take an ITS lock, the next public call of a CPU (device map/unmap,
 * LPI and vLPI maps, ranges, unmaps, remaps, moves, INT/CLEAR/INV, vPE
 * moves, residency in/out, WFI, doorbell masking and invalidation, vSGIs on
 * 4.1, vPE creation/teardown), a stalled command (any CPU's) and devices'
 * MSIs. The world (tests/unit/sweep/smp_world.c) checks after every call
 * that its contract holds and the library's tracking equals the ITS
 * models' tables, whenever no call is in flight that all of it does, and
 * that every MSI is delivered exactly once to the vPE the model routes it
 * to; at the end it finishes every move, probes every mapping and tears
 * everything down without a leak. A failed check aborts (the input is the
 * reproducer).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "smp_world.h"

#define MAX_CALLS 96u

struct feed {
	struct fuzz_in in;
	unsigned calls;
};

static unsigned pick_(void *arg, struct world *w, unsigned runnable)
{
	struct feed *f = arg;
	unsigned n = (unsigned)__builtin_popcount(runnable), k;

	(void)w;
	k = fuzz_u8(&f->in) % n;
	for (unsigned i = 0; i < W_MAX_CPU; i++)
		if ((runnable >> i) & 1 && k-- == 0)
			return i;
	return 0;
}

static bool next_op_(void *arg, struct world *w, unsigned cpu, struct w_op *op)
{
	struct feed *f = arg;
	enum w_opk k;
	uint32_t sel;

	if (!f->in.n || f->calls >= MAX_CALLS)
		return false;
	f->calls++;
	k = (enum w_opk)(1 + fuzz_u8(&f->in) % (W_OPK_COUNT - 1));
	sel = fuzz_u32(&f->in);
	if (!w_make_op(w, cpu, k, sel, op))
		w_make_op(w, cpu, W_NOP, 0, op);
	return true;
}

/* Now and then the 1st..4th next command of an ITS stalls. */
static int stall_(void *arg, struct world *w, int prev, unsigned cpu, unsigned *nth)
{
	struct feed *f = arg;
	uint8_t b = fuzz_u8(&f->in);

	(void)prev;
	(void)cpu;
	*nth = 1 + (b >> 3) % 4;
	return b < 24 ? (int)(b % w->cfg.nits) : -1;
}

static bool msi_(void *arg, struct world *w, unsigned *dev, unsigned *ev)
{
	struct feed *f = arg;

	(void)w;
	if (fuzz_u8(&f->in) >= 48)
		return false;
	*dev = fuzz_u8(&f->in);
	*ev = fuzz_u8(&f->in);
	return true;
}

static const struct w_driver driver_ = {pick_, next_op_, stall_, msi_};

static void world_cfg_(struct fuzz_in *in, struct w_cfg *c)
{
	uint8_t a = fuzz_u8(in), b = fuzz_u8(in);
	static const unsigned relax[4] = {0, 0, 1, 3};

	memset(c, 0, sizeof(*c));
	c->version = (a & 1) ? 41 : 40;
	c->ncpu = 2 + ((a >> 1) & 3) % 3;
	c->nits = 1 + ((a >> 3) & 1);
	c->direct_lpi = (a >> 4) & 1;
	c->proxy = !c->direct_lpi;
	c->itslist = (a >> 5) & 1;
	c->per_relax = relax[(a >> 6) & 3];
	c->nvpe = 2 + (b & 3);
	c->ndev = 2 + ((b >> 2) & 3);
	c->map_devs = (b >> 4) & 1;
	c->queue_bytes = (b >> 5) & 1 ? 4096u : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct world w;
	struct feed f = {{data, size}, 0};
	struct w_cfg cfg;

	world_cfg_(&f.in, &cfg);
	w_init(&w, &cfg);
	w_run(&w, &driver_, &f);
	w_fini(&w);
	return 0;
}
