/* SPDX-License-Identifier: MIT */
/* The deterministic SMP world of the GICv4 sweep and fuzzer: see smp_world.h. */
#include "smp_world.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define W_ASAN_ 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define W_ASAN_ 1
#endif
#endif
#ifdef W_ASAN_
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include <libvirq/sim/its_state.h>
#include <libvirq/sim/rdist.h>

const char *const w_op_name[W_OPK_COUNT] = {
    "nop",
    "dev_map",
    "dev_unmap",
    "map_lpi",
    "unmap_event",
    "int",
    "clear",
    "inv",
    "move_lpi",
    "vlpi_map",
    "vlpi_map_range",
    "vlpi_unmap_range",
    "unmap_range",
    "vlpi_remap",
    "vlpi_move",
    "vlpi_set_doorbell",
    "vlpi_set_config",
    "vpe_invall",
    "vpe_move",
    "vpe_load",
    "vpe_put",
    "vpe_wfi",
    "vpe_db_masking",
    "vpe_db_invalidate",
    "vsgi_config",
    "vsgi_send",
    "vpe_init",
    "vpe_destroy",
};

#define ITS_BASE_(i) (0x20000000ull + (uint64_t)(i)*0x100000ull)
#define ITS_SIZE_ 0x30000ull /* control, translation and vSGI frames */
#define TOK_VPEID_ 1u	     /* vPE creation/teardown; VMOVP SequenceNumber (ITSList) */
#define TOK_RANGE_ 2u	     /* the batched unmaps' GIC-wide scratch */

#define STACK_ (512u * 1024u) /* each CPU's coroutine stack */

/* One world runs at a time (the sweep's and the fuzzer's loops). */
static struct world *cur_;
static ucontext_t main_ctx_, cpu_ctx_[W_MAX_CPU];
static char stacks_[W_MAX_CPU][STACK_] __attribute__((__aligned__(64)));
#ifdef W_ASAN_
static const void *main_bottom_;
static size_t main_size_;
#endif

/* ---------------- trace and failure ---------------- */

void w_note(struct world *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->verbose) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	if (w->trace_len > sizeof(w->trace) - 256) { /* keep the newest part */
		memmove(w->trace, w->trace + 2048, w->trace_len - 2048);
		w->trace_len -= 2048;
	}
	va_start(ap, fmt);
	n = vsnprintf(w->trace + w->trace_len, sizeof(w->trace) - w->trace_len - 1, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->trace_len += (size_t)n < sizeof(w->trace) - w->trace_len - 2
				    ? (size_t)n
				    : sizeof(w->trace) - w->trace_len - 2;
	w->trace[w->trace_len++] = '\n';
	w->trace[w->trace_len] = 0;
}

void w_fail_(struct world *w, const char *file, int line, const char *what)
{
	fprintf(stderr, "smp world: version %d, %u CPUs, %u ITSes%s%s%s, per_relax %u\n",
		w->cfg.version, w->cfg.ncpu, w->cfg.nits, w->cfg.itslist ? ", ITSList" : "",
		w->cfg.direct_lpi ? ", DirectLPI" : "", w->cfg.proxy ? ", proxy" : "",
		w->cfg.per_relax);
	fprintf(stderr, "--- trace (newest last) ---\n%s--- end ---\n", w->trace);
	for (unsigned i = 0; i < w->cfg.nits; i++)
		if (w->sm[i] && virq_sim_its_state_errors(w->sm[i]))
			fprintf(stderr, "ITS %u model: %lu errors, last: %s\n", i,
				virq_sim_its_state_errors(w->sm[i]),
				virq_sim_its_state_last_error(w->sm[i]));
	fprintf(stderr, "%s:%d: property failed: %s\n", file, line, what);
	abort();
}

/* ---------------- the ITS lock hook and the coroutines ---------------- */

/* Switches from @from to @to, whose stack is [@bottom, + @size) (ASan
 * keeps one shadow stack per coroutine: sanitizer/common_interface_defs.h);
 * @in_cpu: the caller is a CPU's coroutine (it is resumed by the
 * controller, whose stack it then learns). */
static void switch_(ucontext_t *from, ucontext_t *to, const void *bottom, size_t size, bool in_cpu)
{
#ifdef W_ASAN_
	void *fake = NULL;

	__sanitizer_start_switch_fiber(&fake, bottom, size);
	swapcontext(from, to);
	if (in_cpu)
		__sanitizer_finish_switch_fiber(fake, &main_bottom_, &main_size_);
	else
		__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
	(void)bottom;
	(void)size;
	(void)in_cpu;
	swapcontext(from, to);
#endif
}

/* A CPU gives control back to the controller. */
static void yield_(struct world *w, unsigned id)
{
	const void *b = NULL;
	size_t n = 0;

	w->yields++;
	w->running = -1;
#ifdef W_ASAN_
	b = main_bottom_;
	n = main_size_;
#endif
	switch_(&cpu_ctx_[id], &main_ctx_, b, n, true);
}

static void lock_acquire_(void *arg)
{
	struct w_lock *l = arg;
	struct world *w = l->w;

	/* Mutual exclusion is the controller's (one CPU runs at a time, and
	 * none is left while it holds a lock): the lock is never found held, and a
	 * CPU never holds two ITS locks (the library nests none). */
	int me = w->running >= 0 ? w->running + 1 : -1;

	W_CHECK(w, l->held == 0);
	for (unsigned i = 0; i < w->cfg.nits; i++)
		W_CHECK(w, w->lock[i].held != me);
	l->held = me;
	l->acquires++;
}

static void lock_release_(void *arg)
{
	struct w_lock *l = arg;

	struct world *w = l->w;
	int me = w->running;

	W_CHECK(w, l->held == (me >= 0 ? me + 1 : -1));
	l->held = 0;
	if (me >= 0) /* another CPU may take the lock now */
		yield_(w, (unsigned)me);
}

/* ---------------- set-up ---------------- */

static void gic_up_(struct world *w)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();

	rc.nr = w->cfg.ncpu;
	rc.version = w->cfg.version;
	rc.direct_lpi = w->cfg.direct_lpi;
	rc.gicd_base = LIBVIRQ_SIM_GIC_GICD_BASE;
	rc.rd_base = LIBVIRQ_SIM_GIC_REDIST_BASE;
	w->rm = virq_sim_rdist_new(w->sim, &rc);
	w->desc.gicd_base = rc.gicd_base;
	w->desc.gicd_size = LIBVIRQ_SIM_GIC_GICD_SIZE;
	w->desc.nr_redist_regions = 1;
	w->desc.redist[0].base = rc.rd_base;
	w->desc.redist[0].size = LIBVIRQ_SIM_GIC_REDIST_SIZE;
	w->desc.nr_its = w->cfg.nits;
	for (unsigned i = 0; i < w->cfg.nits; i++) {
		struct virq_sim_its_state_cfg c = virq_sim_its_state_default_cfg(ITS_BASE_(i));

		c.rm = w->rm;
		if (w->cfg.version == 41) {
			c.typer = LIBVIRQ_SIM_GITS_TYPER_QEMU_V41 | (1ull << 39); /* VSGI */
			c.vsgi_frame = true;
		} else {
			c.typer = LIBVIRQ_SIM_GITS_TYPER_QEMU_V40;
		}
		if (w->cfg.itslist)
			c.typer &= ~(1ull << 37); /* GITS_TYPER.VMOVP = 0 */
		w->sm[i] = virq_sim_its_state_new(w->sim, &c);
		w->q[i] = virq_sim_its_state_queue(w->sm[i]);
		w->desc.its[i].base = c.base;
		w->desc.its[i].size = ITS_SIZE_;
	}
	W_CHECK(w, virq_gic_init(&w->gic, &w->hal, &w->desc, w->rds, W_MAX_CPU, 16) == LIBVIRQ_OK);
	W_CHECK(w, virq_gic_dist_enable(&w->gic) == LIBVIRQ_OK);
	for (unsigned r = 0; r < w->cfg.ncpu; r++)
		W_CHECK(w, virq_gic_rdist_init(&w->gic, r) == LIBVIRQ_OK);
}

static void its_up_(struct world *w)
{
	for (unsigned i = 0; i < w->cfg.nits; i++) {
		struct virq_its_cfg ic;

		memset(&ic, 0, sizeof(ic));
		ic.numa_node = -1;
		ic.queue_bytes = w->cfg.queue_bytes;
		ic.proxy_doorbells = i == 0 && w->cfg.proxy;
		w->lock[i].w = w;
		w->lock[i].its = i;
		ic.lock.acquire = lock_acquire_;
		ic.lock.release = lock_release_;
		ic.lock.arg = &w->lock[i];
		W_CHECK(w, virq_its_init(&w->its[i], &w->gic, &w->desc.its[i], &ic) == LIBVIRQ_OK);
		for (unsigned r = 0; r < w->cfg.ncpu; r++)
			W_CHECK(w, virq_its_map_collection(&w->its[i], r) == LIBVIRQ_OK);
		if (w->cfg.per_relax)
			virq_sim_its_set_per_relax(w->q[i], w->cfg.per_relax);
	}
}

static void objects_up_(struct world *w)
{
	for (unsigned m = 0; m < 2; m++)
		W_CHECK(w, virq_gic_vm_init(&w->vm[m], &w->gic, 16) == LIBVIRQ_OK);
	for (unsigned i = 0; i < W_MAX_VPE; i++) {
		struct w_vpe *p = &w->vpe[i];

		W_CHECK(w, virq_lpi_alloc(&w->gic, 1, &p->db) == LIBVIRQ_OK);
		W_CHECK(w, virq_lpi_set_config(&w->gic, p->db, 0xA0, true) == LIBVIRQ_OK);
		p->vm = i % 2;
		p->owner = i % w->cfg.ncpu;
		if (i < w->cfg.nvpe)
			W_CHECK(w,
				virq_vpe_init(&p->v, &w->vm[p->vm], p->owner, p->db) == LIBVIRQ_OK);
	}
	for (unsigned i = 0; i < W_MAX_LPI; i++) {
		W_CHECK(w, virq_lpi_alloc(&w->gic, 1, &w->lpi[i]) == LIBVIRQ_OK);
		W_CHECK(w, virq_lpi_set_config(&w->gic, w->lpi[i], 0xA0, true) == LIBVIRQ_OK);
	}
	for (unsigned i = 0; i < w->cfg.ndev; i++) {
		struct w_dev *d = &w->dev[i];

		d->its = i % w->cfg.nits;
		d->owner = i % w->cfg.ncpu;
		d->devid = 0x100 + i;
		if (w->cfg.map_devs)
			W_CHECK(w, virq_its_device_map(&w->its[d->its], &d->d, d->devid,
						       W_EVENTS) == LIBVIRQ_OK);
	}
}

void w_init(struct world *w, const struct w_cfg *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	if (w->cfg.ncpu < 2)
		w->cfg.ncpu = 2;
	if (w->cfg.ncpu > W_MAX_CPU)
		w->cfg.ncpu = W_MAX_CPU;
	if (w->cfg.nits < 1 || w->cfg.nits > W_MAX_ITS)
		w->cfg.nits = 1;
	if (w->cfg.version != 41)
		w->cfg.version = 40;
	if (w->cfg.nits > 1)
		w->cfg.itslist = true; /* the models do not share a vPE table (VMOVP = 1) */
	if (w->cfg.version == 41 || w->cfg.direct_lpi)
		w->cfg.proxy = false;
	if (w->cfg.nvpe > W_MAX_VPE)
		w->cfg.nvpe = W_MAX_VPE;
	if (w->cfg.ndev > W_MAX_DEV)
		w->cfg.ndev = W_MAX_DEV;
	w->verbose = getenv("SMP_WORLD_VERBOSE") != NULL;
	w->running = -1;
	w->sim = virq_sim_new();
	w->hal = virq_sim_hal(w->sim);
	gic_up_(w);
	its_up_(w);
	objects_up_(w);
	for (unsigned i = 0; i < w->cfg.nits; i++)
		W_CHECK(w, virq_sim_its_state_errors(w->sm[i]) == 0);
}

/* ---------------- the model, read back ---------------- */

/* The redistributor a PTA = 0 RDbase names (processor number = index). */
static unsigned rd_of_(uint64_t rdbase)
{
	return (unsigned)(rdbase >> 16);
}

static bool vpe_live_(const struct w_vpe *p)
{
	return p->v.state == LIBVIRQ_GICV4_LIVE;
}

static bool dev_live_(const struct w_dev *d)
{
	return d->d.state == LIBVIRQ_GICV4_LIVE;
}

/* A copy of the tracking of event @e of @d, from virq_its_event_get() (the
 * library keeps its own layout). The copies rotate through a small ring,
 * so that a caller may hold a few at once; the sweeps are single-threaded. */
static const struct virq_its_event *ev_(const struct w_dev *d, uint32_t e)
{
	static struct virq_its_event ring[8];
	static unsigned next;
	struct virq_its_event *x = &ring[next++ % 8u];

	memset(x, 0, sizeof(*x));
	if (virq_its_event_get(&d->d, e, x) != LIBVIRQ_OK)
		abort();
	return x;
}

/* Every event's tracking of @d (W_EVENTS at most) into @out. */
static void ev_all_(const struct w_dev *d, struct virq_its_event *out)
{
	for (uint32_t e = 0; e < W_EVENTS; e++) {
		memset(&out[e], 0, sizeof(out[e]));
		if (e < d->d.nr_events && virq_its_event_get(&d->d, e, &out[e]) != LIBVIRQ_OK)
			abort();
	}
}

/* One event: the library's tracking is what the ITS model maps. */
static void check_event_(struct world *w, struct virq_its_device *dev, unsigned its, uint32_t ev)
{
	struct virq_its_event e;
	struct virq_sim_its_ev hw = virq_sim_its_state_lookup(w->sm[its], dev->device_id, ev);

	W_CHECK(w, virq_its_event_get(dev, ev, &e) == LIBVIRQ_OK);
	switch (e.kind) {
	case LIBVIRQ_ITS_EV_NONE:
		W_CHECK(w, hw.kind == LIBVIRQ_SIM_ITS_EV_NONE);
		break;
	case LIBVIRQ_ITS_EV_PHYS:
		W_CHECK(w, hw.kind == LIBVIRQ_SIM_ITS_EV_PHYS);
		W_CHECK(w, hw.pintid == e.intid && hw.icid == e.icid);
		break;
	case LIBVIRQ_ITS_EV_VIRT:
		W_CHECK(w, hw.kind == LIBVIRQ_SIM_ITS_EV_VIRT);
		W_CHECK(w, e.vpe && e.vpe->state == LIBVIRQ_GICV4_LIVE);
		W_CHECK(w, hw.vpe == e.vpe->vpeid && hw.vintid == e.intid && hw.db == e.db);
		break;
	case LIBVIRQ_ITS_EV_PROXY:
		W_CHECK(w, hw.kind == LIBVIRQ_SIM_ITS_EV_PHYS && hw.pintid == e.intid);
		W_CHECK(w, !e.vpe || (e.vpe->doorbell == e.intid &&
				      e.vpe->proxy_event == (int32_t)ev && hw.icid == e.icid));
		break;
	default:
		W_CHECK(w, !"event kind");
	}
}

static void check_dev_(struct world *w, unsigned i)
{
	struct w_dev *d = &w->dev[i];
	uint32_t mapped = 0;

	if (w->its[d->its].dead)
		return; /* the tracking may keep what the ITS may still hold */
	W_CHECK(w, virq_sim_its_state_dev_mapped(w->sm[d->its], d->devid) == dev_live_(d));
	if (!dev_live_(d))
		return;
	for (uint32_t e = 0; e < d->d.nr_events; e++) {
		check_event_(w, &d->d, d->its, e);
		mapped += ev_(d, e)->kind != LIBVIRQ_ITS_EV_NONE;
	}
	W_CHECK(w, mapped == d->d.nr_mapped);
}

/* One vPE: mapped where its_mask says, targeted where virq_vpe::rd says
 * (a half-done move: anywhere), resident where the flags say. */
static void check_vpe_(struct world *w, unsigned i)
{
	struct w_vpe *p = &w->vpe[i];
	bool live = vpe_live_(p);

	for (unsigned s = 0; s < w->cfg.nits; s++) {
		uint64_t rdbase = 0;
		bool hw = virq_sim_its_state_vpe(w->sm[s], p->v.vpeid, &rdbase, NULL);

		if (w->its[s].dead)
			continue;
		if (!live) {
			/* Its vPEID may belong to another live vPE now. */
			bool other = false;

			for (unsigned o = 0; o < W_MAX_VPE; o++)
				other |= o != i && vpe_live_(&w->vpe[o]) &&
					 w->vpe[o].v.vpeid == p->v.vpeid;
			W_CHECK(w, other || !hw);
			continue;
		}
		W_CHECK(w, hw == ((p->v.its_mask >> w->its[s].slot) & 1));
		if (hw && !(p->v.flags & LIBVIRQ_VPE_MOVE_PENDING))
			W_CHECK(w, rd_of_(rdbase) == p->v.rd);
	}
	if (!live)
		return;
	for (unsigned r = 0; r < w->cfg.ncpu; r++)
		W_CHECK(w, virq_sim_rdist_resident(w->rm, r, p->v.vpt.pa, p->v.vpeid) ==
			       ((p->v.flags & LIBVIRQ_VPE_RESIDENT) && p->v.resident_rd == r));
	W_CHECK(w, !(p->v.flags & LIBVIRQ_VPE_RESIDENT) || p->v.resident_rd == p->v.rd);
}

static void check_model_errors_(struct world *w)
{
	for (unsigned i = 0; i < w->cfg.nits; i++)
		W_CHECK(w, virq_sim_its_state_errors(w->sm[i]) == 0);
	W_CHECK(w, virq_sim_rdist_vsgi_wrong_rd(w->rm) == 0);
	W_CHECK(w, virq_sim_rdist_direct_lpi_misuse(w->rm) == 0);
}

void w_check_all(struct world *w)
{
	check_model_errors_(w);
	for (unsigned i = 0; i < W_MAX_DEV; i++)
		check_dev_(w, i);
	for (unsigned i = 0; i < W_MAX_VPE; i++)
		check_vpe_(w, i);
	for (unsigned s = 0; s < w->cfg.nits; s++) {
		const struct virq_its *its = &w->its[s];

		for (unsigned r = 0; r < w->cfg.ncpu && !its->dead; r++)
			W_CHECK(w, virq_sim_its_state_col(w->sm[s], r, NULL));
		if (its->proxy && !its->dead) {
			W_CHECK(w, virq_sim_its_state_dev_mapped(w->sm[s], its->proxy_devid));
			for (uint32_t e = 0; e < its->proxy->nr_events; e++)
				check_event_(w, its->proxy, s, e);
		}
	}
	for (unsigned i = 0; i < W_MAX_VPE; i++) {
		const struct w_vpe *p = &w->vpe[i];

		if (vpe_live_(p) && p->v.proxy_event >= 0) {
			struct virq_its_event x;

			W_CHECK(w, w->its[0].proxy);
			W_CHECK(w, virq_its_event_get(w->its[0].proxy, (uint32_t)p->v.proxy_event,
						      &x) == LIBVIRQ_OK &&
				       x.vpe == &p->v);
		}
	}
}

/* ---------------- the calls ---------------- */

/* The world index of the vPE a tracking entry names, or -1. */
static int vpe_index_(const struct world *w, const struct virq_vpe *v)
{
	for (unsigned i = 0; i < W_MAX_VPE; i++)
		if (v && &w->vpe[i].v == v)
			return (int)i;
	return -1;
}

static uint32_t vint_(const struct w_op *op)
{
	return W_VINTID0 + op->arg % 64;
}

/* W_VSGI: send, read the pending bits, clear (three calls). */
static virq_status vsgi_(struct w_cpu *c, struct virq_vpe *v, uint32_t n)
{
	virq_status st = virq_vpe_vsgi_send(v, n);

	c->st2 = LIBVIRQ_ENOTSUP;
	if (st != LIBVIRQ_OK)
		return st;
	c->st2 = virq_vpe_vsgi_pending(v, &c->vsgi);
	return virq_vpe_vsgi_clear(v, n);
}

static virq_status exec_dev_(struct world *w, struct w_cpu *c)
{
	const struct w_op *op = &c->op;
	struct w_dev *d = &w->dev[op->dev];
	struct virq_vpe *v = &w->vpe[op->vpe].v;

	switch (op->k) {
	case W_DEV_MAP:
		return virq_its_device_map(&w->its[d->its], &d->d, d->devid, W_EVENTS);
	case W_DEV_UNMAP:
		return virq_its_device_unmap(&d->d);
	case W_MAP_LPI:
		return virq_its_map_lpi(&d->d, op->ev, w->lpi[op->n % W_MAX_LPI],
					op->arg % w->cfg.ncpu);
	case W_UNMAP_EV:
		return virq_its_unmap_event(&d->d, op->ev);
	case W_INT:
		return virq_its_int(&d->d, op->ev);
	case W_CLEAR:
		return virq_its_clear(&d->d, op->ev);
	case W_INV:
		return virq_its_inv(&d->d, op->ev);
	case W_MOVE_LPI:
		return virq_its_move_lpi(&d->d, op->ev, op->arg % w->cfg.ncpu);
	case W_VMAP:
		return virq_vlpi_map(&d->d, op->ev, v, vint_(op), (op->n & 1) == 0);
	case W_VMAP_RANGE:
		return virq_vlpi_map_range(&d->d, op->ev, op->n, v, vint_(op), true);
	case W_VUNMAP_RANGE:
		return virq_vlpi_unmap_range(&d->d, op->ev, op->n);
	case W_UNMAP_RANGE:
		return virq_its_unmap_range(&d->d, op->ev, op->n);
	case W_REMAP:
		return virq_vlpi_remap(&d->d, op->ev, v, vint_(op));
	case W_VMOVI:
		return virq_vlpi_move(&d->d, op->ev, v);
	case W_SETDB:
		return virq_vlpi_set_doorbell(&d->d, op->ev, op->arg & 1);
	case W_SETCFG:
		return virq_vlpi_set_config(&d->d, op->ev, (uint8_t)(op->arg & 0xF0),
					    (op->arg & 1) == 0);
	default:
		return LIBVIRQ_OK;
	}
}

static virq_status exec_(struct world *w, struct w_cpu *c)
{
	const struct w_op *op = &c->op;
	struct w_vpe *p = &w->vpe[op->vpe];

	switch (op->k) {
	case W_NOP:
		return LIBVIRQ_OK;
	case W_INVALL:
		return virq_vpe_invall(&p->v);
	case W_MOVE:
		return virq_vpe_move(&p->v, op->arg % w->cfg.ncpu);
	case W_LOAD:
		return virq_vpe_load(&p->v, c->id);
	case W_PUT:
		return virq_vpe_put(&p->v, &c->pl);
	case W_WFI:
		return op->arg & 1 ? virq_vpe_wfi_enter(&p->v) : virq_vpe_wfi_exit(&p->v);
	case W_DBMASK:
		return virq_vpe_set_db_masking(&p->v, op->arg & 1);
	case W_DBINV:
		return virq_vpe_doorbell_invalidate(&p->v);
	case W_VSGI_CFG:
		return virq_vpe_vsgi_config(&p->v, op->n % 16, (uint8_t)((op->arg & 0xF) << 4),
					    op->arg & 0x10, (op->arg & 0x20) == 0);
	case W_VSGI:
		return vsgi_(c, &p->v, op->n % 16);
	case W_VPE_INIT:
		return virq_vpe_init(&p->v, &w->vm[p->vm], c->id, p->db);
	case W_VPE_DESTROY:
		return virq_vpe_destroy(&p->v);
	case W_MAPC:
		return virq_its_map_collection(&w->its[op->n % w->cfg.nits], c->id);
	default:
		return exec_dev_(w, c);
	}
}

/* Calls that take a device (and, for vLPIs, a vPE). */
static bool op_has_dev_(enum w_opk k)
{
	return k >= W_DEV_MAP && k <= W_SETCFG;
}

static bool op_has_vpe_(enum w_opk k)
{
	return k == W_VMAP || k == W_VMAP_RANGE || k == W_REMAP || k == W_VMOVI ||
	       (k >= W_INVALL && k <= W_VPE_DESTROY);
}

static unsigned op_tokens_(const struct world *w, enum w_opk k)
{
	if (k == W_VPE_INIT || k == W_VPE_DESTROY || (k == W_MOVE && w->cfg.itslist))
		return TOK_VPEID_;
	if (k == W_VUNMAP_RANGE || k == W_UNMAP_RANGE)
		return TOK_RANGE_;
	return 0;
}

/* Statuses a call may return here: success, a refusal (nothing changes),
 * or a command failure (stall: the queue reset; ECANCELED: another CPU's
 * reset dropped the commands). No allocation fails, every wait settles. */
static bool refusal_(virq_status st)
{
	return st == LIBVIRQ_EINVAL || st == LIBVIRQ_ERANGE || st == LIBVIRQ_EEXIST ||
	       st == LIBVIRQ_ENOENT || st == LIBVIRQ_EBUSY || st == LIBVIRQ_ENOTSUP ||
	       st == LIBVIRQ_ENOSPC || st == LIBVIRQ_EALIGN ||
	       st == LIBVIRQ_EDEAD; /* a vPE whose teardown stopped half-way */
}

static bool allowed_(const struct w_op *op, virq_status st)
{
	if (st == LIBVIRQ_OK || refusal_(st) || st == LIBVIRQ_ESTALLED)
		return true;
	if (st == LIBVIRQ_ECANCELED)
		return op->k == W_MOVE;
	return false;
}

/* ---------------- before and after a call ---------------- */

static unsigned long vdel_(const struct world *w, unsigned its, const struct virq_vpe *v,
			   uint32_t vintid)
{
	return virq_sim_its_state_vdelivered(w->sm[its], v->vpeid, vintid);
}

static bool vpt_bit_(const struct virq_vpe *v, uint32_t vintid)
{
	return (((const uint8_t *)v->vpt.va)[vintid / 8] >> (vintid % 8)) & 1;
}

/* How often the physical LPI @intid was taken (lpi_taken_); 0 for others. */
static unsigned long lpi_taken_(const struct world *w, uint32_t intid)
{
	for (unsigned i = 0; i < W_MAX_LPI; i++)
		if (w->lpi[i] == intid)
			return w->lpi_taken[i];
	return 0;
}

/* The counters delivered_() compares against, for event @event of @d
 * tracked as @e, read before the INT or MSI. */
static void counts_(const struct world *w, const struct w_dev *d, const struct virq_its_event *e,
		    uint32_t event, struct w_counts *n)
{
	memset(n, 0, sizeof(*n));
	if (e->kind == LIBVIRQ_ITS_EV_VIRT) {
		n->vdel = vdel_(w, d->its, e->vpe, e->intid);
		n->vpt = vpt_bit_(e->vpe, e->intid);
		if (e->db != LIBVIRQ_ITS_NO_DOORBELL)
			n->vdb = virq_sim_its_state_doorbells(w->sm[d->its], e->db);
	}
	if (e->kind == LIBVIRQ_ITS_EV_PHYS) {
		n->plpi = virq_sim_its_state_plpis(w->sm[d->its], e->intid);
		n->plpi_taken = lpi_taken_(w, e->intid);
		n->ev_tr = virq_sim_its_state_translations(w->sm[d->its], d->devid, event);
		n->plpi_clr = virq_sim_its_state_clears(w->sm[d->its], e->intid);
	}
}

static void pre_(struct world *w, struct w_cpu *c)
{
	struct w_pre *pr = &c->pre;
	const struct w_op *op = &c->op;
	const struct w_vpe *p = &w->vpe[op->vpe];
	const struct w_dev *d = &w->dev[op->dev];

	memset(pr, 0, sizeof(*pr));
	pr->evpe = -1;
	pr->dev_live = dev_live_(d);
	if (op_has_dev_(op->k) && pr->dev_live) {
		ev_all_(d, pr->ev);
		if (op->ev < W_EVENTS) {
			const struct virq_its_event *e = &pr->ev[op->ev];

			pr->evpe = vpe_index_(w, e->vpe);
			pr->vintid = e->intid;
			pr->icid = e->icid;
			pr->db = e->db;
			counts_(w, d, e, op->ev, &pr->cnt);
		}
	}
	pr->state = p->v.state;
	pr->flags = p->v.flags;
	pr->rd = p->v.rd;
	pr->nr_vlpis = p->v.nr_vlpis;
	pr->its_mask = p->v.its_mask;
	pr->proxy_event = p->v.proxy_event;
}

/* A refused call changed none of its objects' tracking. */
static void unchanged_(struct world *w, const struct w_cpu *c)
{
	const struct w_pre *pr = &c->pre;
	const struct w_op *op = &c->op;
	const struct w_vpe *p = &w->vpe[op->vpe];
	const struct w_dev *d = &w->dev[op->dev];

	if (op_has_dev_(op->k)) {
		W_CHECK(w, dev_live_(d) == pr->dev_live);
		if (pr->dev_live) {
			struct virq_its_event now[W_EVENTS];

			ev_all_(d, now);
			W_CHECK(w, memcmp(pr->ev, now, sizeof(now)) == 0);
		}
	}
	if (op_has_vpe_(op->k) && op->k != W_WFI && op->k != W_DBMASK) {
		W_CHECK(w, p->v.state == pr->state);
		W_CHECK(w, p->v.flags == pr->flags && p->v.rd == pr->rd);
		W_CHECK(w, p->v.nr_vlpis == pr->nr_vlpis && p->v.its_mask == pr->its_mask);
	}
}

/* Takes an LPI the ITS raised (the CPU acknowledges it). */
static void ack_lpi_(struct world *w, uint32_t intid)
{
	for (unsigned i = 0; i < W_MAX_LPI; i++)
		w->lpi_taken[i] += w->lpi[i] == intid;
	for (unsigned r = 0; r < w->cfg.ncpu; r++)
		virq_sim_rdist_lpi_set_pending(w->rm, r, intid, false);
}

/* A vPE made resident takes the vLPIs pending in its VPT (the GIC delivers
 * them; the models only keep the bits): each counts as delivered once. */
static void drain_vpt_(struct world *w, struct w_vpe *p)
{
	uint8_t *b = p->v.vpt.va;

	for (uint32_t vint = W_VINTID0; vint < W_VINTID0 + 64; vint++)
		if (vpt_bit_(&p->v, vint)) {
			b[vint / 8] = (uint8_t)(b[vint / 8] & ~(1u << (vint % 8)));
			w->later++;
		}
}

/*
 * An interrupt the ITS translated for event @e of device @d (INT, or a
 * device's MSI), @n the counters before (counts_()): exactly one delivery, to what the library
 * tracks. A vLPI: delivered at once when the library has its vPE resident (then where it says,
 * since every ITS routes it there), else made pending in its VPT (taken when the vPE is made
 * resident) with its doorbell, if any, raised on the redistributor the library names. A physical
 * LPI: pending on its collection's RD, unless another translation of the same LPI (two events may
 * share one, IHI 0069H §5.3) was taken since the count was read: then ours merged into it.
 */
static void delivered_(struct world *w, const struct w_dev *d, const struct virq_its_event *e,
		       uint32_t event, const struct w_counts *n)
{

	if (e->kind == LIBVIRQ_ITS_EV_PHYS) {
		/* Exactly one translation of this event; the LPI's own count may
		 * also hold another CPU's translation of an event sharing it. */
		W_CHECK(w, virq_sim_its_state_translations(w->sm[d->its], d->devid, event) ==
			       n->ev_tr + 1);
		W_CHECK(w, virq_sim_its_state_plpis(w->sm[d->its], e->intid) >= n->plpi + 1);
		/* Not pending: taken since (ours merged into another translation
		 * of the LPI), or cleared by a CLEAR of an event sharing it. */
		if (!virq_sim_rdist_lpi_pending(w->rm, e->icid, e->intid)) {
			W_CHECK(w, lpi_taken_(w, e->intid) != n->plpi_taken ||
				       virq_sim_its_state_clears(w->sm[d->its], e->intid) !=
					   n->plpi_clr);
			w->merged++;
			w->now++;
			return;
		}
		ack_lpi_(w, e->intid);
		w->now++;
		return;
	}
	if (e->vpe->flags & LIBVIRQ_VPE_RESIDENT) {
		W_CHECK(w, vdel_(w, d->its, e->vpe, e->intid) == n->vdel + 1);
		w->now++;
		return;
	}
	W_CHECK(w, vdel_(w, d->its, e->vpe, e->intid) == n->vdel);
	W_CHECK(w, vpt_bit_(e->vpe, e->intid));
	if (n->vpt)
		w->merged++;
	if (w->cfg.version == 40 && e->db != LIBVIRQ_ITS_NO_DOORBELL) {
		W_CHECK(w, virq_sim_its_state_doorbells(w->sm[d->its], e->db) == n->vdb + 1);
		W_CHECK(w, virq_sim_rdist_lpi_pending(w->rm, e->vpe->rd, e->db));
		ack_lpi_(w, e->db);
	}
}

/* The tracking of event @ev is a vLPI of @p with @vintid. */
static void is_vlpi_(struct world *w, const struct w_dev *d, uint32_t ev, const struct w_vpe *p,
		     uint32_t vintid)
{
	const struct virq_its_event *e = ev_(d, ev);

	W_CHECK(w, e->kind == LIBVIRQ_ITS_EV_VIRT && e->vpe == &p->v && e->intid == vintid);
}

/* The effect a call that returned LIBVIRQ_OK promises. */
static void effect_(struct world *w, struct w_cpu *c)
{
	const struct w_op *op = &c->op;
	const struct w_pre *pr = &c->pre;
	struct w_vpe *p = &w->vpe[op->vpe];
	struct w_dev *d = &w->dev[op->dev];

	switch (op->k) {
	case W_DEV_MAP:
		W_CHECK(w, dev_live_(d) && d->d.nr_mapped == 0);
		break;
	case W_DEV_UNMAP:
		W_CHECK(w, !dev_live_(d));
		break;
	case W_MAP_LPI:
		W_CHECK(w, ev_(d, op->ev)->kind == LIBVIRQ_ITS_EV_PHYS &&
			       ev_(d, op->ev)->intid == w->lpi[op->n % W_MAX_LPI]);
		break;
	case W_UNMAP_EV:
	case W_VUNMAP_RANGE:
	case W_UNMAP_RANGE:
		for (uint32_t e = op->ev; e < op->ev + (op->k == W_UNMAP_EV ? 1 : op->n); e++)
			W_CHECK(w, ev_(d, e)->kind == LIBVIRQ_ITS_EV_NONE);
		break;
	case W_INT:
		if (pr->ev[op->ev].kind == LIBVIRQ_ITS_EV_PHYS || pr->evpe >= 0) {
			delivered_(w, d, &pr->ev[op->ev], op->ev, &pr->cnt);
		}
		break;
	case W_VMAP:
	case W_REMAP:
		is_vlpi_(w, d, op->ev, p, vint_(op));
		break;
	case W_VMAP_RANGE:
		for (uint32_t i = 0; i < op->n; i++)
			is_vlpi_(w, d, op->ev + i, p, vint_(op) + i);
		break;
	case W_VMOVI:
		is_vlpi_(w, d, op->ev, p, pr->vintid);
		break;
	case W_SETDB:
		W_CHECK(w, ev_(d, op->ev)->db == ((op->arg & 1) ? ev_(d, op->ev)->vpe->doorbell
								: LIBVIRQ_ITS_NO_DOORBELL));
		break;
	default:
		break;
	}
}

/* The effect of the vPE calls that returned LIBVIRQ_OK. */
static void vpe_effect_(struct world *w, struct w_cpu *c)
{
	const struct w_op *op = &c->op;
	struct w_vpe *p = &w->vpe[op->vpe];
	uint32_t to = op->arg % w->cfg.ncpu;

	switch (op->k) {
	case W_MOVE:
		W_CHECK(w, p->v.rd == to && !(p->v.flags & LIBVIRQ_VPE_MOVE_PENDING));
		/* GICv4.0 with a path to the doorbell: none left where it was. */
		if (w->cfg.version == 40 && (w->cfg.direct_lpi || w->cfg.proxy) &&
		    p->v.move_from != to)
			W_CHECK(w, !virq_sim_rdist_lpi_pending(w->rm, p->v.move_from, p->db));
		p->owner = to; /* the vCPU runs on the target's CPU from now on */
		break;
	case W_LOAD: /* resident unless in WFI, or already resident */
		W_CHECK(w, !!(p->v.flags & LIBVIRQ_VPE_RESIDENT) ==
			       ((c->pre.flags & LIBVIRQ_VPE_RESIDENT) ||
				!(p->v.flags & LIBVIRQ_VPE_IN_WFI)));
		if (p->v.flags & LIBVIRQ_VPE_RESIDENT)
			drain_vpt_(w, p);
		break;
	case W_PUT:
		W_CHECK(w, !(p->v.flags & LIBVIRQ_VPE_RESIDENT));
		break;
	case W_VSGI:
		/* Read where the library says the vPE is, after the send. */
		W_CHECK(w, c->st2 != LIBVIRQ_OK || ((c->vsgi >> (op->n % 16)) & 1));
		break;
	case W_VPE_INIT:
		W_CHECK(w, vpe_live_(p) && p->v.rd == c->id);
		p->owner = c->id;
		break;
	case W_VPE_DESTROY:
		W_CHECK(w, !vpe_live_(p));
		break;
	case W_MAPC:
		W_CHECK(w, virq_sim_its_state_col(w->sm[op->n % w->cfg.nits], c->id, NULL));
		break;
	default:
		break;
	}
}

/* After a call: a status it may return; a refusal changed nothing; a
 * success did what it promises; the tracking of its objects is the model's. */
static void post_(struct world *w, struct w_cpu *c)
{
	const struct w_op *op = &c->op;

	w_note(w, "cpu%u %s(dev %u ev %u vpe %u n %u arg %u) = %s", c->id, w_op_name[op->k],
	       op->dev, op->ev, op->vpe, op->n, op->arg, virq_status_name(c->st));
	W_CHECK(w, allowed_(op, c->st));
	if (refusal_(c->st))
		unchanged_(w, c);
	if (c->st == LIBVIRQ_OK) {
		effect_(w, c);
		vpe_effect_(w, c);
	} else {
		w->errs_ok++;
	}
	check_model_errors_(w);
	if (op_has_dev_(op->k))
		check_dev_(w, op->dev);
	if (op_has_vpe_(op->k))
		check_vpe_(w, op->vpe);
	if (c->pre.evpe >= 0 && w->vpe[c->pre.evpe].owner == c->id)
		check_vpe_(w, (unsigned)c->pre.evpe);
	w->tokens_held &= ~op_tokens_(w, op->k);
	w->calls++;
}

/* ---------------- a device's MSI ---------------- */

static void msi_(struct world *w, unsigned di, unsigned ev)
{
	struct w_dev *d = &w->dev[di % W_MAX_DEV];
	const struct virq_its_event *e;
	struct virq_its_event snap;
	struct w_counts n;
	uint32_t k;
	bool hit;
	int vi;

	if (!dev_live_(d) || w->cpu[d->owner].busy || w->its[d->its].dead)
		return;
	k = ev % d->d.nr_events;
	e = ev_(d, k);
	vi = vpe_index_(w, e->vpe);
	if (e->kind == LIBVIRQ_ITS_EV_PROXY ||
	    (e->kind == LIBVIRQ_ITS_EV_VIRT && (vi < 0 || w->cpu[w->vpe[vi].owner].busy ||
						(e->vpe->flags & LIBVIRQ_VPE_MOVE_PENDING))))
		return;
	check_event_(w, &d->d, d->its, k);
	snap = *e;
	counts_(w, d, e, k, &n);
	hit = virq_sim_its_state_msi(w->sm[d->its], d->devid, k);
	w->msis++;
	w_note(w, "msi dev %u ev %u -> %s", di % W_MAX_DEV, k,
	       snap.kind == LIBVIRQ_ITS_EV_NONE ? "dropped" : "translated");
	W_CHECK(w, hit == (snap.kind != LIBVIRQ_ITS_EV_NONE));
	if (hit)
		delivered_(w, d, &snap, k, &n);
}

/* ---------------- the scheduler ---------------- */

/* A CPU: runs the call it was given, returns to the controller, again,
 * until the world ends. */
static void cpu_main_(void)
{
	struct world *w = cur_;
	struct w_cpu *c = &w->cpu[w->running];

#ifdef W_ASAN_
	__sanitizer_finish_switch_fiber(NULL, &main_bottom_, &main_size_);
#endif
	while (!w->quit) {
		c->st = exec_(w, c);
		c->busy = false;
		yield_(w, c->id);
	}
#ifdef W_ASAN_
	__sanitizer_start_switch_fiber(NULL, main_bottom_, main_size_); /* the coroutine ends */
#endif
	w->running = -1;
}

/* Lets CPU @id run until it yields or its call ends. */
static void grant_(struct world *w, unsigned id)
{
	w->running = (int)id;
	switch_(&main_ctx_, &cpu_ctx_[id], stacks_[id], STACK_, false);
	w->running = -1;
}

/* Starts a call on an idle CPU: its objects are the CPU's (the driver's
 * duty, checked), the GIC-wide domains it needs are free (else it is not
 * started: false). */
static bool start_(struct world *w, struct w_cpu *c, const struct w_op *op)
{
	unsigned tok = op_tokens_(w, op->k);

	if (op_has_dev_(op->k))
		W_CHECK(w, op->dev < W_MAX_DEV && w->dev[op->dev].owner == c->id);
	if (op_has_vpe_(op->k))
		W_CHECK(w, op->vpe < W_MAX_VPE && w->vpe[op->vpe].owner == c->id);
	if (tok & w->tokens_held)
		return false;
	w->tokens_held |= tok;
	c->op = *op;
	pre_(w, c);
	c->busy = true;
	return true;
}

static void arm_stall_(struct world *w, int its, unsigned nth)
{
	if (its < 0 || (unsigned)its >= w->cfg.nits)
		return;
	virq_sim_its_stall_nth(w->q[its], virq_sim_its_ncmds(w->q[its]) + nth);
	w->stalls++;
	w_note(w, "stall armed on ITS %d, command %u from now", its, nth);
}

/* One decision of the controller; false when every CPU is done. */
static bool step_(struct world *w, int *prev)
{
	const struct w_driver *drv = w->drv;
	unsigned busy = 0, idle = 0, dv, ev, id;
	struct w_op op;

	for (unsigned i = 0; i < w->cfg.ncpu; i++) {
		if (w->cpu[i].busy)
			busy |= 1u << i;
		else if (!w->cpu[i].done)
			idle |= 1u << i;
	}
	if (!(busy | idle))
		return false;
	if (!busy)
		w_check_all(w);
	if (drv->msi && drv->msi(w->drv_arg, w, &dv, &ev))
		msi_(w, dv, ev);
	id = drv->pick(w->drv_arg, w, busy | idle);
	W_CHECK(w, id < w->cfg.ncpu && ((busy | idle) >> id & 1));
	if (!w->cpu[id].busy) {
		if (!drv->next_op(w->drv_arg, w, id, &op)) {
			w->cpu[id].done = true;
			return true;
		}
		if (!start_(w, &w->cpu[id], &op))
			return true; /* its domain is taken: not started */
	}
	if (drv->stall) {
		unsigned nth = 1;
		int its = drv->stall(w->drv_arg, w, *prev, id, &nth);

		arm_stall_(w, its, nth);
	}
	grant_(w, id);
	*prev = (int)id;
	if (!w->cpu[id].busy)
		post_(w, &w->cpu[id]);
	return true;
}

/* CPU @i's coroutine. getcontext() returns twice (GCC's -Wclobbered at -O2
 * then doubts the caller's live locals), so it sits alone in a function
 * that is not inlined and changes nothing after the call. */
static __attribute__((__noinline__)) void cpu_make_(struct world *w, unsigned i)
{
	w->cpu[i].w = w;
	w->cpu[i].id = i;
	w->cpu[i].done = false;
	w->cpu[i].ctx = &cpu_ctx_[i];
	W_CHECK(w, getcontext(&cpu_ctx_[i]) == 0);
#ifdef W_ASAN_
	ASAN_UNPOISON_MEMORY_REGION(stacks_[i], STACK_); /* frames of an earlier world */
#endif
	cpu_ctx_[i].uc_stack.ss_sp = stacks_[i];
	cpu_ctx_[i].uc_stack.ss_size = STACK_;
	cpu_ctx_[i].uc_link = &main_ctx_;
	makecontext(&cpu_ctx_[i], cpu_main_, 0);
}

void w_run(struct world *w, const struct w_driver *drv, void *arg)
{
	int prev = -1;

	w->drv = drv;
	w->drv_arg = arg;
	w->quit = false;
	cur_ = w;
	for (unsigned i = 0; i < w->cfg.ncpu; i++)
		cpu_make_(w, i);
	w->main_ctx = &main_ctx_;
	while (step_(w, &prev))
		;
	w->quit = true;
	for (unsigned i = 0; i < w->cfg.ncpu; i++)
		if (w->cpu[i].w) /* each coroutine ends (returns to uc_link) */
			grant_(w, i);
	for (unsigned i = 0; i < w->cfg.nits; i++)
		virq_sim_its_stall_nth(w->q[i], 0); /* an armed stall that never hit */
	w_check_all(w);
}

/* ---------------- building calls ---------------- */

enum evsel_ { EV_FREE_, EV_VIRT_, EV_PHYS_, EV_MAPPED_, EV_ANY_ };

/* Event @e of @d is of the kind @k and every vPE it changes is @cpu's. */
static bool ev_is_(const struct world *w, const struct w_dev *d, uint32_t e, enum evsel_ k,
		   unsigned cpu)
{
	const struct virq_its_event *x = ev_(d, e);
	int vi = vpe_index_(w, x->vpe);
	bool mine = x->kind == LIBVIRQ_ITS_EV_VIRT && vi >= 0 && w->vpe[vi].owner == cpu;

	switch (k) {
	case EV_FREE_:
		return x->kind == LIBVIRQ_ITS_EV_NONE;
	case EV_VIRT_:
		return mine;
	case EV_PHYS_:
		return x->kind == LIBVIRQ_ITS_EV_PHYS;
	case EV_MAPPED_:
		return mine || x->kind == LIBVIRQ_ITS_EV_PHYS;
	default:
		return x->kind != LIBVIRQ_ITS_EV_VIRT || mine;
	}
}

/* The @sel-th (modulo) device of @cpu that is live (@live) or not. */
static int pick_dev_(const struct world *w, unsigned cpu, unsigned sel, int live)
{
	int c[W_MAX_DEV], n = 0;

	for (unsigned i = 0; i < w->cfg.ndev; i++)
		if (w->dev[i].owner == cpu && (live < 0 || dev_live_(&w->dev[i]) == !!live))
			c[n++] = (int)i;
	return n ? c[sel % (unsigned)n] : -1;
}

static int pick_vpe_(const struct world *w, unsigned cpu, unsigned sel, int live)
{
	int c[W_MAX_VPE], n = 0;

	for (unsigned i = 0; i < W_MAX_VPE; i++)
		if (w->vpe[i].owner == cpu && (live < 0 || vpe_live_(&w->vpe[i]) == !!live))
			c[n++] = (int)i;
	return n ? c[sel % (unsigned)n] : -1;
}

/* A run of up to @max events of kind @k on a live device of @cpu: *dev,
 * *first, *count; false when there is none. */
static bool pick_run_(const struct world *w, unsigned cpu, unsigned sel, enum evsel_ k,
		      unsigned max, struct w_op *op)
{
	int di = pick_dev_(w, cpu, sel, 1);
	const struct w_dev *d;
	unsigned start = (sel >> 3) % W_EVENTS;

	if (di < 0)
		return false;
	d = &w->dev[di];
	for (unsigned i = 0; i < W_EVENTS; i++) {
		uint32_t e = (start + i) % W_EVENTS, n = 0;

		while (e + n < W_EVENTS && n < max && ev_is_(w, d, e + n, k, cpu))
			n++;
		if (n) {
			op->dev = (unsigned)di;
			op->ev = e;
			op->n = n;
			return true;
		}
	}
	return false;
}

/* A vPE of @cpu in the VM of @like (or any VM when @like < 0), live. */
static int pick_vpe_vm_(const struct world *w, unsigned cpu, unsigned sel, int like)
{
	for (unsigned i = 0; i < W_MAX_VPE; i++) {
		int v = pick_vpe_(w, cpu, sel + i, 1);

		if (v >= 0 && (like < 0 || w->vpe[v].vm == w->vpe[like].vm))
			return v;
	}
	return -1;
}

/* No vPE is resident on @rd. */
static bool rd_free_(const struct world *w, unsigned rd)
{
	for (unsigned i = 0; i < W_MAX_VPE; i++)
		if (vpe_live_(&w->vpe[i]) && (w->vpe[i].v.flags & LIBVIRQ_VPE_RESIDENT) &&
		    w->vpe[i].v.resident_rd == rd)
			return false;
	return true;
}

static bool make_ev_op_(struct world *w, unsigned cpu, unsigned sel, struct w_op *op)
{
	enum evsel_ k = EV_MAPPED_;
	unsigned max = 1;
	int like;

	switch (op->k) {
	case W_MAP_LPI:
	case W_VMAP:
		k = EV_FREE_;
		break;
	case W_VMAP_RANGE:
		k = EV_FREE_;
		max = 2 + (sel >> 20) % 3;
		break;
	case W_VUNMAP_RANGE:
		k = EV_VIRT_;
		max = 1 + (sel >> 20) % 4;
		break;
	case W_UNMAP_RANGE:
		max = 1 + (sel >> 20) % 4;
		break;
	case W_MOVE_LPI:
		k = EV_PHYS_;
		break;
	case W_REMAP:
	case W_VMOVI:
	case W_SETDB:
	case W_SETCFG:
		k = EV_VIRT_;
		break;
	default:
		break;
	}
	if (!pick_run_(w, cpu, sel, (sel & 1) ? EV_ANY_ : k, max, op))
		return false;
	if (max == 1)
		op->n = sel >> 12; /* the LPI (MAP_LPI), no doorbell (VMAP, bit 0) */
	if (op->k != W_VMAP && op->k != W_VMAP_RANGE && op->k != W_REMAP && op->k != W_VMOVI)
		return true;
	like = op->k == W_VMOVI ? vpe_index_(w, ev_(&w->dev[op->dev], op->ev)->vpe) : -1;
	like = pick_vpe_vm_(w, cpu, sel >> 5, like);
	if (like < 0)
		return false;
	op->vpe = (unsigned)like;
	return true;
}

/* A call @k on vPE @x of @cpu would be valid (not refused). */
static bool vpe_ok_(const struct world *w, enum w_opk k, const struct virq_vpe *x, unsigned cpu)
{
	switch (k) {
	case W_MOVE:
		return !(x->flags & LIBVIRQ_VPE_RESIDENT);
	case W_LOAD:
		return !(x->flags & (LIBVIRQ_VPE_RESIDENT | LIBVIRQ_VPE_MOVE_PENDING)) &&
		       x->rd == cpu && rd_free_(w, cpu);
	case W_PUT:
		return (x->flags & LIBVIRQ_VPE_RESIDENT) != 0;
	case W_VPE_DESTROY:
		return !(x->flags & LIBVIRQ_VPE_RESIDENT) && !x->nr_vlpis;
	default:
		return true;
	}
}

static bool make_vpe_op_(struct world *w, unsigned cpu, unsigned sel, struct w_op *op)
{
	int live = op->k == W_VPE_INIT ? 0 : 1, v = -1;
	const struct virq_vpe *x;

	for (unsigned i = 0; i < W_MAX_VPE && v < 0; i++) {
		v = pick_vpe_(w, cpu, (sel >> 1) + i, live);
		if (v >= 0 && !(sel & 1) && !vpe_ok_(w, op->k, &w->vpe[v].v, cpu))
			v = -1;
	}
	if (v < 0)
		return false;
	op->vpe = (unsigned)v;
	x = &w->vpe[v].v;
	if (op->k == W_MOVE && !(sel & 1))
		op->arg = x->flags & LIBVIRQ_VPE_MOVE_PENDING
			      ? x->rd
			      : (x->rd + 1 + (sel >> 8) % (w->cfg.ncpu - 1)) % w->cfg.ncpu;
	return true;
}

bool w_make_op(struct world *w, unsigned cpu, enum w_opk k, unsigned sel, struct w_op *op)
{
	int d;

	memset(op, 0, sizeof(*op));
	op->k = k;
	op->arg = sel >> 8;
	op->n = sel >> 12;
	switch (k) {
	case W_NOP:
	case W_MAPC:
		return true;
	case W_DEV_MAP:
	case W_DEV_UNMAP:
		d = -1;
		for (unsigned i = 0; i < W_MAX_DEV && d < 0; i++) {
			d = pick_dev_(w, cpu, (sel >> 1) + i, (sel & 1) ? -1 : k == W_DEV_UNMAP);
			if (d >= 0 && k == W_DEV_UNMAP && !(sel & 1) && w->dev[d].d.nr_mapped)
				d = -1;
		}
		if (d < 0)
			return false;
		op->dev = (unsigned)d;
		return true;
	default:
		if (op_has_dev_(k))
			return make_ev_op_(w, cpu, sel, op);
		return make_vpe_op_(w, cpu, sel, op);
	}
}

/* ---------------- the end ---------------- */

/* Makes @p resident on its redistributor (the one vPE there). */
static void resident_(struct world *w, struct w_vpe *p)
{
	if (p->v.flags & LIBVIRQ_VPE_IN_WFI)
		W_CHECK(w, virq_vpe_wfi_exit(&p->v) == LIBVIRQ_OK);
	if (p->v.flags & LIBVIRQ_VPE_RESIDENT)
		return;
	for (unsigned i = 0; i < W_MAX_VPE; i++) {
		struct w_vpe *o = &w->vpe[i];

		if (vpe_live_(o) && (o->v.flags & LIBVIRQ_VPE_RESIDENT) &&
		    o->v.resident_rd == p->v.rd)
			W_CHECK(w, virq_vpe_put(&o->v, NULL) == LIBVIRQ_OK);
	}
	W_CHECK(w, virq_vpe_load(&p->v, p->v.rd) == LIBVIRQ_OK);
	drain_vpt_(w, p);
}

/* Every mapping delivers where the library says: each vLPI to its vPE made
 * resident on virq_vpe::rd, each physical LPI on its collection's RD. */
static void probe_(struct world *w)
{
	for (unsigned i = 0; i < W_MAX_DEV; i++) {
		struct w_dev *d = &w->dev[i];

		for (uint32_t e = 0; dev_live_(d) && e < d->d.nr_events; e++) {
			const struct virq_its_event *x = ev_(d, e);
			int vi = vpe_index_(w, x->vpe);

			if (x->kind == LIBVIRQ_ITS_EV_VIRT && vi >= 0)
				resident_(w, &w->vpe[vi]);
			if (x->kind == LIBVIRQ_ITS_EV_VIRT || x->kind == LIBVIRQ_ITS_EV_PHYS) {
				unsigned long before = w->now;

				msi_(w, i, e);
				W_CHECK(w, w->now == before + 1);
			}
		}
	}
}

/* Repeats a teardown call that a command failure stopped (documented: the
 * retry finishes the job). */
#define W_RETRY(w, expr)                                                                           \
	do {                                                                                       \
		virq_status st_ = LIBVIRQ_EINVAL;                                                  \
		for (int t_ = 0; t_ < 3 && st_ != LIBVIRQ_OK; t_++)                                \
			st_ = (expr);                                                              \
		if (st_ != LIBVIRQ_OK)                                                             \
			w_note((w), "%s = %s", #expr, virq_status_name(st_));                      \
		W_CHECK((w), st_ == LIBVIRQ_OK);                                                   \
	} while (0)

static void teardown_(struct world *w)
{
	for (unsigned i = 0; i < W_MAX_VPE; i++) {
		struct w_vpe *p = &w->vpe[i];

		if (vpe_live_(p) && (p->v.flags & LIBVIRQ_VPE_IN_WFI))
			W_CHECK(w, virq_vpe_wfi_exit(&p->v) == LIBVIRQ_OK);
		if (vpe_live_(p) && (p->v.flags & LIBVIRQ_VPE_RESIDENT))
			W_CHECK(w, virq_vpe_put(&p->v, NULL) == LIBVIRQ_OK);
	}
	for (unsigned i = 0; i < W_MAX_DEV; i++) {
		struct w_dev *d = &w->dev[i];

		for (uint32_t e = 0; dev_live_(d) && e < d->d.nr_events; e++)
			if (ev_(d, e)->kind != LIBVIRQ_ITS_EV_NONE)
				W_RETRY(w, virq_its_unmap_event(&d->d, e));
		if (dev_live_(d))
			W_RETRY(w, virq_its_device_unmap(&d->d));
	}
	for (unsigned i = 0; i < W_MAX_VPE; i++)
		if (vpe_live_(&w->vpe[i]))
			W_RETRY(w, virq_vpe_destroy(&w->vpe[i].v));
	w_check_all(w);
	for (unsigned m = 0; m < 2; m++)
		W_CHECK(w, virq_gic_vm_destroy(&w->vm[m]) == LIBVIRQ_OK);
	for (unsigned i = 0; i < W_MAX_VPE; i++)
		W_CHECK(w, virq_lpi_free(&w->gic, w->vpe[i].db, 1) == LIBVIRQ_OK);
	for (unsigned i = 0; i < W_MAX_LPI; i++)
		W_CHECK(w, virq_lpi_free(&w->gic, w->lpi[i], 1) == LIBVIRQ_OK);
	for (unsigned i = 0; i < w->cfg.nits; i++)
		W_CHECK(w, virq_its_destroy(&w->its[i]) == LIBVIRQ_OK);
	W_CHECK(w, virq_gic_destroy(&w->gic) == LIBVIRQ_OK);
	W_CHECK(w, virq_sim_live_pages(w->sim) == 0);
	W_CHECK(w, virq_sim_bad_frees(w->sim) == 0);
}

void w_fini(struct world *w)
{
	/* A move stopped half-way is finished by moving again (vpe.h). */
	for (unsigned i = 0; i < W_MAX_VPE; i++) {
		struct w_vpe *p = &w->vpe[i];

		if (vpe_live_(p) && (p->v.flags & LIBVIRQ_VPE_MOVE_PENDING) &&
		    !(p->v.flags & (LIBVIRQ_VPE_DYING | LIBVIRQ_VPE_DEAD)))
			W_RETRY(w, virq_vpe_move(&p->v, p->v.rd));
	}
	w_check_all(w);
	probe_(w);
	teardown_(w);
	check_model_errors_(w);
	for (unsigned i = 0; i < w->cfg.nits; i++)
		virq_sim_its_state_free(w->sm[i]);
	virq_sim_rdist_free(w->rm);
	virq_sim_free(w->sim);
}
