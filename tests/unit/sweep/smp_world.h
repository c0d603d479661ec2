/* SPDX-License-Identifier: MIT */
/*
 * A deterministic SMP world for the GICv4 driver on the simulator, shared by
 * the interleaving sweep (test_sweep_smp.c) and the stateful fuzzer
 * (tests/fuzz/fuzz_gicv4_smp.c).
 *
 * Several simulated CPUs (one coroutine each, ucontext: only one runs at a
 * time, resumed by a controller) call the public GICv4 API on a GIC with one
 * or two ITSes that share the embedder's ITS lock hook. A CPU returns to the
 * controller at every point where another CPU could take the ITS lock: each
 * release of an ITS lock inside a library call, and the end of each call.
 * The controller then picks which CPU continues (a driver callback: the
 * fuzzer's input, or the sweep's enumeration), may first make the next
 * command an ITS processes stall (a failed command of whichever CPU runs
 * next), and may let a device send an MSI. So every interleaving of the
 * calls' lock sections can be produced, and reproduced, exactly.
 *
 * Only calls the SMP contract lets run at once are ever in flight together
 * (docs/gicv4-core.md "SMP"): each device and vPE belongs to one CPU at a
 * time (a vPE moves to the CPU of the redistributor it moved to), residency
 * calls on a redistributor come only from its CPU, and the GIC-wide domains
 * (vPE creation and teardown, and on an ITSList GIC every move; the batched
 * unmaps) are held by one call at a time.
 *
 * After every call the contract of that call is checked on its objects, and
 * whenever no call is in flight the whole library tracking is compared with
 * the ITS models' tables (devices, events, vPEs, collections, proxy slots),
 * with no model error allowed; every MSI is checked to be delivered exactly
 * once to the vPE the model routes it to (at once when the library says the
 * vPE is resident there, else pending in its VPT, delivered when it is made
 * resident). A failed check prints the world's trace and aborts.
 */
#ifndef LIBVIRQ_SMP_WORLD_H
#define LIBVIRQ_SMP_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/sim/gic.h>

#define W_MAX_CPU 4
#define W_MAX_ITS 2
#define W_MAX_VPE 6
#define W_MAX_DEV 6
#define W_MAX_LPI 4
#define W_EVENTS 16u /* events per device */
#define W_VINTID0 8192u

/* What to simulate. */
struct w_cfg {
	int version;	      /* 40 or 41 */
	unsigned ncpu;	      /* CPUs = redistributors, 2 .. W_MAX_CPU */
	unsigned nits;	      /* 1 .. W_MAX_ITS */
	bool itslist;	      /* GITS_TYPER.VMOVP = 0 (forced with two ITSes) */
	bool direct_lpi;      /* GICR_TYPER.DirectLPI */
	bool proxy;	      /* 4.0 doorbell proxy device (ITS 0) */
	unsigned per_relax;   /* 0: the ITS runs commands inside the CWRITER write */
	unsigned nvpe;	      /* vPEs created at set-up, <= W_MAX_VPE */
	unsigned ndev;	      /* devices, <= W_MAX_DEV (mapped at set-up when @map_devs) */
	bool map_devs;	      /* map every device at set-up */
	uint32_t queue_bytes; /* ITS command queue size (0: 64 KiB) */
};

/* The public calls a CPU makes. */
enum w_opk {
	W_NOP,
	W_DEV_MAP,
	W_DEV_UNMAP,
	W_MAP_LPI,
	W_UNMAP_EV,
	W_INT,
	W_CLEAR,
	W_INV,
	W_MOVE_LPI,
	W_VMAP,
	W_VMAP_RANGE,
	W_VUNMAP_RANGE,
	W_UNMAP_RANGE,
	W_REMAP,
	W_VMOVI,
	W_SETDB,
	W_SETCFG,
	W_INVALL,
	W_MOVE,
	W_LOAD,
	W_PUT,
	W_WFI,
	W_DBMASK,
	W_DBINV,
	W_VSGI_CFG,
	W_VSGI,
	W_VPE_INIT,
	W_VPE_DESTROY,
	W_MAPC, /* the CPU's collection on ITS n (again) */
	W_OPK_COUNT
};

extern const char *const w_op_name[W_OPK_COUNT];

/* One call: object indices are world-wide (devices, vPEs, events). */
struct w_op {
	enum w_opk k;
	unsigned dev, vpe, ev, n; /* device, vPE, event, count / LPI / vSGI */
	uint32_t arg;		  /* vINTID offset, redistributor, on/off, priority */
};

struct world;

/* What the controller asks its driver (the fuzzer's input or the sweep). */
struct w_driver {
	/* Which runnable CPU continues (bit i of @runnable: CPU i may run). */
	unsigned (*pick)(void *arg, struct world *w, unsigned runnable);
	/* The next call of an idle CPU @cpu; false: it has no more. */
	bool (*next_op)(void *arg, struct world *w, unsigned cpu, struct w_op *op);
	/* Before CPU @cpu continues after @prev (-1: none): an ITS whose
	 * *nth next command (1: the next one; preset to 1) stalls - a failed
	 * command of whoever sends it - or -1. */
	int (*stall)(void *arg, struct world *w, int prev, unsigned cpu, unsigned *nth);
	/* Before each grant: a device's MSI to send (false: none). */
	bool (*msi)(void *arg, struct world *w, unsigned *dev, unsigned *ev);
};

struct w_vpe {
	struct virq_vpe v;
	unsigned owner; /* the CPU whose calls may use it */
	unsigned vm;
	uint32_t db; /* doorbell LPI (every vPE has one) */
};

struct w_dev {
	struct virq_its_device d;
	unsigned its, owner;
	uint32_t devid;
};

/* The model's counters for one event before a translation of it (vLPIs
 * delivered, doorbells, physical LPIs translated, times the world took the
 * LPI, translations of the event, CLEARs of the LPI), and whether its vLPI
 * was pending in its VPT. */
struct w_counts {
	unsigned long vdel, vdb, plpi, plpi_taken, ev_tr, plpi_clr;
	bool vpt;
};

/* What a call's objects were before it (a refused call changes nothing). */
struct w_pre {
	struct virq_its_event ev[W_EVENTS];
	bool dev_live;
	uint32_t flags, rd, nr_vlpis, its_mask, state;
	int32_t proxy_event;
	struct w_counts cnt; /* the event's, before the call */
	uint32_t vintid, pintid, icid, db;
	int evpe; /* the event's vPE (index), -1 */
};

/* One CPU. */
struct w_cpu {
	struct world *w;
	unsigned id;
	void *ctx;   /* its ucontext_t (smp_world.c) */
	bool busy;   /* a call is in flight */
	bool done;   /* no more calls */
	bool tokens; /* holds a GIC-wide domain */
	struct w_op op;
	struct w_pre pre;
	virq_status st, st2; /* st2: W_VSGI's pending read */
	uint16_t vsgi;	     /* W_VSGI: the pending bits read */
	bool pl;	     /* W_PUT: PendingLast */
};

struct w_lock {
	struct world *w;
	unsigned its;
	int held; /* CPU + 1, or -1 for the controller */
	unsigned long acquires;
};

struct world {
	struct w_cfg cfg;
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_sim_gic *sg;
	struct virq_sim_rdist *rm;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[W_MAX_CPU];
	struct virq_its its[W_MAX_ITS];
	struct virq_sim_its_state *sm[W_MAX_ITS];
	struct virq_sim_its *q[W_MAX_ITS];
	struct w_lock lock[W_MAX_ITS];
	struct virq_gic_vm vm[2];
	struct w_vpe vpe[W_MAX_VPE];
	struct w_dev dev[W_MAX_DEV];
	uint32_t lpi[W_MAX_LPI];
	/* per w->lpi[i]: times its pending bit was taken (a delivery) */
	unsigned long lpi_taken[W_MAX_LPI];
	/* the scheduler */
	void *main_ctx; /* the controller's ucontext_t */
	int running;	/* the CPU that runs, -1: the controller */
	bool quit;
	struct w_cpu cpu[W_MAX_CPU];
	unsigned tokens_held; /* bit 0: vPEID/VMOVP domain, bit 1: batched unmaps */
	const struct w_driver *drv;
	void *drv_arg;
	/* what happened */
	unsigned long calls, yields, stalls, msis, now, later, merged, errs_ok;
	unsigned long model_errs[W_MAX_ITS];
	size_t base_pages;
	char trace[4096];
	size_t trace_len;
	bool verbose;
};

/* Builds the world (aborts on a set-up failure). */
void w_init(struct world *w, const struct w_cfg *cfg);
/* Runs the CPUs under @drv until every CPU is done; checks as described. */
void w_run(struct world *w, const struct w_driver *drv, void *arg);
/* Finishes every unfinished move, checks every mapping delivers, tears
 * everything down (retrying what failed), checks no page leaked, frees. */
void w_fini(struct world *w);

/* The whole-world consistency check (no call in flight). */
void w_check_all(struct world *w);

/* A call's objects as the sweep builds it; false when @k cannot be made
 * on CPU @cpu's objects in the current state. */
bool w_make_op(struct world *w, unsigned cpu, enum w_opk k, unsigned sel, struct w_op *op);

/* Appends to the trace printed when a check fails. */
void w_note(struct world *w, const char *fmt, ...) __attribute__((__format__(printf, 2, 3)));

#define W_CHECK(w, cond)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			w_fail_((w), __FILE__, __LINE__, #cond);                                   \
	} while (0)

__attribute__((__noreturn__)) void w_fail_(struct world *w, const char *file, int line,
					   const char *what);

#endif /* LIBVIRQ_SMP_WORLD_H */
