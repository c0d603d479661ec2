/* SPDX-License-Identifier: MIT */
/*
 * Error sweep of the GICv4 module (docs/design.md "Failures"): every public
 * function that reports its failures is called into each error its header
 * documents, on a fresh simulated GIC each time. Each call must return
 * that status and report exactly once (the fail callback), naming the
 * function called, never a helper or another public function, with the
 * check that failed in the message. errors_coverage.py checks that the
 * cases cover every documented (function, error) pair (tests/unit/sweep/
 * errors_excused.txt lists the few the simulator cannot produce, and why).
 *
 *   test_sweep_errors_gicv4 --list    prints the pairs the cases cover
 */
#include "../gicv4/its_fixture.h"
#include "sweep.h"
#include <libvirq/gicv4/info.h>
#include <libvirq/gicv4/its_regs.h>
#include "gicv4/lpi_priv.h"

enum wv { V40, V41, V3 }; /* the simulated GIC: GICv4.0, GICv4.1 (+ vSGI), GICv3 */

struct w {
	struct its_fx f;
	enum wv v;
	uint32_t db, lpi, lpi2;	    /* the vPE's doorbell; mapped by dev event 1; free */
	struct virq_gic_vm vm;	    /* id_bits 16 */
	struct virq_vpe vpe;	    /* on rd 0, doorbell db, non-resident */
	struct virq_its_device dev; /* DeviceID 1, 8 events: 0 vLPI 8192 of vpe, 1 lpi on icid 0 */
	/* storage never initialised (zeroed), or destroyed by a case's set-up */
	struct virq_gic zgic;
	struct virq_gic_rdist zrd[FX_MAX_RD];
	struct virq_its zits;
	struct virq_its_device zdev;
	struct virq_gic_vm zvm;
	struct virq_vpe zvpe;
	struct virq_its_queue zq, q; /* q: a live standalone queue on qm */
	struct virq_sim_its *qm;
	/* results and a modified HAL */
	struct virq_its_queue_diag diag;
	struct virq_its_event ev;
	struct virq_its_id id;
	struct virq_its_cmd cmd;
	uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];
	uint32_t u32;
	uint16_t u16;
	bool b;
	uint64_t stuck; /* what a stuck register reads */
	struct virq_hal_ops ops;
	struct virq_hal hal2;
	struct virq_its_cfg cfg;
	struct virq_gic_its_desc idesc;
	struct virq_gic_desc gdesc;
};

#define Q_BASE 0x30000000ull /* the standalone queue's ITS model */
#define OK_(x) assert_int_equal((x), LIBVIRQ_OK)

static void world_up_(struct w *w, enum wv v)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct virq_hal hal;

	memset(w, 0, sizeof(*w));
	w->v = v;
	rc.nr = 2;
	rc.version = v == V41 ? 41 : v == V3 ? 30 : 40;
	if (v == V41)
		ic.typer = LIBVIRQ_SIM_GITS_TYPER_QEMU_V41 | (1ull << 39) | (1ull << 41); /* VSGI */
	itsfx_setup(&w->f, &rc, &ic, 2, false);
	OK_(virq_its_init(&w->f.its[0], &w->f.g.gic, &w->f.g.desc.its[0], NULL));
	for (uint32_t r = 0; r < 2; r++)
		OK_(virq_its_map_collection(&w->f.its[0], r));
	OK_(virq_lpi_alloc(&w->f.g.gic, 1, &w->db));
	OK_(virq_lpi_alloc(&w->f.g.gic, 1, &w->lpi));
	OK_(virq_lpi_alloc(&w->f.g.gic, 1, &w->lpi2));
	OK_(virq_its_device_map(&w->f.its[0], &w->dev, 1, 8));
	OK_(virq_its_map_lpi(&w->dev, 1, w->lpi, 0));
	if (v != V3) {
		OK_(virq_gic_vm_init(&w->vm, &w->f.g.gic, 16));
		OK_(virq_vpe_init(&w->vpe, &w->vm, 0, w->db));
		OK_(virq_vlpi_map(&w->dev, 0, &w->vpe, 8192, true));
	}
	w->qm = virq_sim_its_new(w->f.g.sim, Q_BASE, NULL);
	hal = w->f.g.hal;
	OK_(virq_its_queue_init(&w->q, &hal, Q_BASE, 4096, NULL));
	virq_sim_its_enable(w->qm, true);
	w->ops = *w->f.g.hal.ops;
	w->hal2 = (struct virq_hal){&w->ops, w->f.g.sim};
	w->idesc = w->f.g.desc.its[1];
	w->gdesc = w->f.g.desc;
	w->cmd = virq_its_sync_cmd(0);
}

/* The library's objects live in @w and die with it; the simulator and its
 * models are freed (a sweep case leaves the library in any state). */
static void world_down_(struct w *w)
{
	virq_sim_free(w->f.g.sim);
	virq_sim_gic_free(w->f.g.sg);
	virq_sim_its_free(w->qm);
}

/* ---- set-ups a case may need ---- */

/* Every object of the world uses @w->ops (a copy of the simulator's, for a
 * case to change). */
static int hal_copy_(struct w *w)
{
	struct virq_hal h = {&w->ops, w->f.g.sim};

	w->f.g.gic.hal = h;
	w->f.its[0].hal = h;
	w->f.its[0].q.hal = h;
	w->dev.hal = h;
	w->vm.hal = h;
	w->vpe.hal = h;
	w->q.hal = h;
	return 0;
}

/* Tables need cleaning and the HAL cannot clean. */
static int no_clean_(struct w *w)
{
	hal_copy_(w);
	w->ops.dcache_clean = NULL;
	w->f.g.gic.rd_noncoherent = true;
	w->f.its[0].noncoherent = true;
	w->f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent = true;
	w->f.g.desc.its[1].dma_noncoherent = true;
	w->idesc.dma_noncoherent = true;
	return 0;
}

static int alloc_fails_(struct w *w)
{
	virq_sim_fail_alloc_nth(w->f.g.sim, 1); /* the next allocation */
	return 0;
}

/* The allocation after the next. */
static int alloc_fails_2_(struct w *w)
{
	virq_sim_fail_alloc_nth(w->f.g.sim, 2);
	return 0;
}

/* The ITS's command queue consumes nothing: every command times out. */
static int its_hangs_(struct w *w)
{
	virq_sim_its_set_dead(virq_sim_its_state_queue(w->f.sm[0]), true);
	return 0;
}

static int its_dead_(struct w *w)
{
	w->f.its[0].dead = true;
	return 0;
}

static int vpe_dying_(struct w *w)
{
	w->vpe.flags |= LIBVIRQ_VPE_DYING;
	return 0;
}

static uint64_t stuck_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	(void)sim;
	(void)addr;
	(void)width;
	return *(const uint64_t *)arg;
}

/* The register at @addr (@len bytes) reads @v whatever is written. */
static int stick_(struct w *w, uint64_t addr, uint64_t len, uint64_t v)
{
	w->stuck = v;
	virq_sim_add_region(w->f.g.sim, addr, len, stuck_rd_, NULL, &w->stuck);
	return 0;
}

static uint64_t rd_(const struct w *w, uint32_t rd, uint32_t off)
{
	return w->f.g.gic.rd[rd].rd_base + off;
}

static int gone_dev_(struct w *w)
{
	OK_(virq_its_device_map(&w->f.its[0], &w->zdev, 7, 4));
	return virq_its_device_unmap(&w->zdev);
}

static int gone_vpe_(struct w *w)
{
	OK_(virq_vpe_init(&w->zvpe, &w->vm, 0, LIBVIRQ_ITS_NO_DOORBELL));
	return virq_vpe_destroy(&w->zvpe);
}

static int gone_vm_(struct w *w)
{
	OK_(virq_gic_vm_init(&w->zvm, &w->f.g.gic, 16));
	return virq_gic_vm_destroy(&w->zvm);
}

static int gone_its_(struct w *w)
{
	OK_(virq_its_init(&w->zits, &w->f.g.gic, &w->f.g.desc.its[1], NULL));
	return virq_its_destroy(&w->zits);
}

static int gone_gic_(struct w *w)
{
	OK_(virq_gic_init(&w->zgic, &w->f.g.hal, &w->gdesc, w->zrd, FX_MAX_RD, 16));
	return virq_gic_destroy(&w->zgic);
}

static int gone_q_(struct w *w)
{
	return virq_its_queue_fini(&w->q);
}

static int resident_(struct w *w)
{
	return virq_vpe_make_resident(&w->vpe, 0);
}

/* A second vPE resident on rd 0 (the world's vPE is not). */
static int rd0_taken_(struct w *w)
{
	OK_(virq_vpe_init(&w->zvpe, &w->vm, 0, LIBVIRQ_ITS_NO_DOORBELL));
	return virq_vpe_make_resident(&w->zvpe, 0);
}

/* The standalone queue stalled on its first command. */
static int q_stalled_(struct w *w)
{
	virq_sim_its_stall_nth(w->qm, 1);
	OK_(virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL));
	return virq_its_queue_drain(&w->q, NULL) == LIBVIRQ_ESTALLED ? 0 : -1;
}

static int q_full_hang_(struct w *w)
{
	virq_sim_its_set_dead(w->qm, true);
	for (uint32_t i = 0; i < virq_its_queue_capacity(&w->q); i++)
		OK_(virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL));
	return 0;
}

static int q_full_stall_(struct w *w)
{
	virq_sim_its_stall_nth(w->qm, 1);
	for (uint32_t i = 0; i < virq_its_queue_capacity(&w->q); i++)
		OK_(virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL));
	return 0;
}

static int q_published_(struct w *w)
{
	OK_(virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL));
	return virq_its_queue_publish(&w->q, NULL);
}

/* A GITS_CREADR no ITS can hold (beyond the queue). */
static int q_bad_creadr_(struct w *w)
{
	q_published_(w);
	return stick_(w, Q_BASE + LIBVIRQ_GITS_CREADR, 8, 0xFFFFFFFFull);
}

/* The doorbell proxy is needed: GICv4.0 without DirectLPI, no proxy ITS. */
static int no_direct_lpi_(struct w *w)
{
	for (uint32_t r = 0; r < w->f.g.gic.nr_rd; r++)
		w->f.g.gic.rd[r].typer &= ~LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_TYPER_DirectLPI);
	return 0;
}

/* GICv4.0 without DirectLPI whose proxy ITS (the world's) must create its
 * proxy device, and that allocation fails. */
static int proxy_alloc_fails_(struct w *w)
{
	no_direct_lpi_(w);
	w->f.its[0].proxy_ok = true;
	w->f.its[0].proxy_devid = 0xFF;
	return alloc_fails_(w);
}

/* Uses up every vPEID (GICv4.1 here: 2^vpeid_bits from GICD_TYPER2). */
static int vpeids_gone_(struct w *w)
{
	return virq_vpeid_cap_(&w->f.g.gic, 1) ? 0 : -1; /* the world's vPE holds it */
}

/*
 * The cases: (world, function, status, text the message must contain,
 * set-up, call). Each runs on a fresh world: the set-up returns 0 (or the
 * status of what it did, unchecked), then the call must fail as stated.
 */
#define G (&w->f.g.gic)
/* The world's device deferred, with one INV of its vLPI published and not
 * waited for, on an ITS whose queue consumes nothing. */
static int deferred_hung_(struct w *w)
{
	OK_(virq_its_device_set_deferred(&w->dev, true));
	its_hangs_(w);
	return virq_its_inv(&w->dev, 0);
}

/* ... then a command submitted through the queue's own API timed out and
 * the queue was reset, dropping the deferred INV. */
static int deferred_dropped_(struct w *w)
{
	struct virq_its_cmd c = virq_its_sync_cmd(0);

	OK_(deferred_hung_(w));
	if (virq_its_queue_submit(&w->f.its[0].q, &c, NULL, NULL, NULL) != LIBVIRQ_ETIMEDOUT)
		return -1;
	OK_(virq_its_queue_reset(&w->f.its[0].q));
	virq_sim_its_set_dead(virq_sim_its_state_queue(w->f.sm[0]), false);
	return 0;
}

/* The deferred INV stalls the queue. */
static int deferred_stalled_(struct w *w)
{
	OK_(virq_its_device_set_deferred(&w->dev, true));
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(w->f.sm[0]), LIBVIRQ_ITS_INV);
	return virq_its_inv(&w->dev, 0);
}

/* The deferred INV outstanding, GITS_CREADR then reads all ones. */
static int deferred_bad_creadr_(struct w *w)
{
	OK_(deferred_hung_(w));
	return stick_(w, w->f.g.desc.its[0].base + LIBVIRQ_GITS_CREADR, 8, 0xFFFFFFFFull);
}

/* The deferred INV outstanding when the ITS was marked dead. */
static int deferred_its_dead_(struct w *w)
{
	OK_(deferred_hung_(w));
	return its_dead_(w);
}

#define ITS (&w->f.its[0])
#define NOB LIBVIRQ_ITS_NO_DOORBELL
#define CASES(X)                                                                                   \
	/* ---- HAL ---- */                                                                        \
	X(V40, virq_hal_validate, ENOHAL, "page_alloc=NULL", w->ops.page_alloc = NULL,             \
	  virq_hal_validate(&w->hal2, 0))                                                          \
	/* ---- GIC ---- */                                                                        \
	X(V40, virq_gic_init, EINVAL, "gic=NULL", 0,                                               \
	  virq_gic_init(NULL, &w->f.g.hal, &w->gdesc, w->zrd, FX_MAX_RD, 16))                      \
	X(V40, virq_gic_init, EINVAL, "max_rd=0", 0,                                               \
	  virq_gic_init(&w->zgic, &w->f.g.hal, &w->gdesc, w->zrd, 0, 16))                          \
	X(V40, virq_gic_init, EBUSY, "gic is live", 0,                                             \
	  virq_gic_init(G, &w->f.g.hal, &w->gdesc, w->zrd, FX_MAX_RD, 16))                         \
	X(V40, virq_gic_init, ENOHAL, "now_ns=NULL", w->ops.now_ns = NULL,                         \
	  virq_gic_init(&w->zgic, &w->hal2, &w->gdesc, w->zrd, FX_MAX_RD, 16))                     \
	X(V40, virq_gic_init, ENOMEM, "LPI configuration table", alloc_fails_(w),                  \
	  virq_gic_init(&w->zgic, &w->f.g.hal, &w->gdesc, w->zrd, FX_MAX_RD, 16))                  \
	X(V40, virq_gic_init, ENOSPC, "more than max_rd=1", 0,                                     \
	  virq_gic_init(&w->zgic, &w->f.g.hal, &w->gdesc, w->zrd, 1, 16))                          \
	X(V40, virq_gic_init, ENOTSUP, "GICD_PIDR2.ArchRev=0",                                     \
	  stick_(w, w->gdesc.gicd_base + LIBVIRQ_GICD_PIDR2, 4, 0),                                \
	  virq_gic_init(&w->zgic, &w->f.g.hal, &w->gdesc, w->zrd, FX_MAX_RD, 16))                  \
	X(V40, virq_gic_init, EHW, "GICR_PIDR2.ArchRev=1",                                         \
	  stick_(w, w->gdesc.redist[0].base + 0x40000 + LIBVIRQ_GICR_PIDR2, 4, 0x10),              \
	  virq_gic_init(&w->zgic, &w->f.g.hal, &w->gdesc, w->zrd, FX_MAX_RD, 16))                  \
	X(V40, virq_gic_destroy, EINVAL, "gic destroyed", gone_gic_(w),                            \
	  virq_gic_destroy(&w->zgic))                                                              \
	X(V40, virq_gic_destroy, EBUSY, "nr_its=1", 0, virq_gic_destroy(G))                        \
	X(V40, virq_gic_dist_enable, EINVAL, "gic destroyed", gone_gic_(w),                        \
	  virq_gic_dist_enable(&w->zgic))                                                          \
	X(V40, virq_gic_dist_enable, ETIMEDOUT, "GICD_CTLR.RWP",                                   \
	  stick_(w, w->gdesc.gicd_base + LIBVIRQ_GICD_CTLR, 4, 1u << 31), virq_gic_dist_enable(G)) \
	X(V40, virq_gic_find_rdist, EINVAL, "idx=NULL", 0, virq_gic_find_rdist(G, 0, NULL))        \
	X(V40, virq_gic_find_rdist, ENOENT, "aff=0xffff", 0,                                       \
	  virq_gic_find_rdist(G, 0xffff, &w->u32))                                                 \
	X(V40, virq_gic_rdist_init, EINVAL, "idx=5 >= nr_rd=2", 0, virq_gic_rdist_init(G, 5))      \
	X(V40, virq_gic_rdist_init, EBUSY, "already initialised", 0, virq_gic_rdist_init(G, 0))    \
	X(V40, virq_gic_rdist_init, ENOMEM, "LPI pending table",                                   \
	  (G->rd[1].flags = 0, memset(&G->rd[1].pend, 0, sizeof(G->rd[1].pend)), alloc_fails_(w)), \
	  virq_gic_rdist_init(G, 1))                                                               \
	X(V40, virq_gic_rdist_init, ENOHAL, "not coherent and dcache_clean=NULL",                  \
	  (G->rd[1].flags = 0, hal_copy_(w), w->ops.dcache_clean = NULL, G->rd_forced_nc = true,   \
	   G->rd_noncoherent = true),                                                              \
	  virq_gic_rdist_init(G, 1))                                                               \
	X(V40, virq_gic_rdist_init, ETIMEDOUT, "GICR_WAKER.ChildrenAsleep",                        \
	  (G->rd[1].flags = 0, stick_(w, rd_(w, 1, LIBVIRQ_GICR_WAKER), 4, 4)),                    \
	  virq_gic_rdist_init(G, 1))                                                               \
	X(V40, virq_gic_rdist_init, EHW, "did not stick",                                          \
	  (G->rd[1].flags = 0, stick_(w, rd_(w, 1, LIBVIRQ_GICR_PROPBASER), 8, 0)),                \
	  virq_gic_rdist_init(G, 1))                                                               \
	/* ---- LPIs ---- */                                                                       \
	X(V40, virq_lpi_alloc, EINVAL, "count=0", 0, virq_lpi_alloc(G, 0, &w->u32))                \
	X(V40, virq_lpi_alloc, ENOSPC, "no free run of count=4096", G->lpi_end = 8192 + 100,       \
	  virq_lpi_alloc(G, 4096, &w->u32))                                                        \
	X(V40, virq_lpi_alloc, ENOHAL, "not coherent", no_clean_(w),                               \
	  virq_lpi_alloc(G, 1, &w->u32))                                                           \
	X(V40, virq_lpi_free, EINVAL, "first=100 < 8192", 0, virq_lpi_free(G, 100, 1))             \
	X(V40, virq_lpi_free, ENOENT, "not allocated", 0, virq_lpi_free(G, 9000, 1))               \
	X(V40, virq_lpi_free, EBUSY, "still mapped", 0, virq_lpi_free(G, w->lpi, 1))               \
	X(V40, virq_lpi_free, ENOHAL, "not coherent", no_clean_(w), virq_lpi_free(G, w->lpi2, 1))  \
	X(V40, virq_lpi_set_config, EINVAL, "gic destroyed", gone_gic_(w),                         \
	  virq_lpi_set_config(&w->zgic, w->lpi2, 0xa0, true))                                      \
	X(V40, virq_lpi_set_config, ERANGE, "intid=5 < 8192", 0,                                   \
	  virq_lpi_set_config(G, 5, 0xa0, true))                                                   \
	X(V40, virq_lpi_set_config, ENOENT, "intid=9000 not allocated", 0,                         \
	  virq_lpi_set_config(G, 9000, 0xa0, true))                                                \
	X(V40, virq_lpi_set_config, ENOHAL, "not coherent", no_clean_(w),                          \
	  virq_lpi_set_config(G, w->lpi2, 0xa0, true))                                             \
	/* ---- ITS ---- */                                                                        \
	X(V40, virq_its_probe, EINVAL, "out=NULL", 0, virq_its_probe(G, &w->idesc, NULL))          \
	X(V40, virq_its_probe, ENOTSUP, "GITS_PIDR2.ArchRev=0",                                    \
	  stick_(w, w->idesc.base + LIBVIRQ_GITS_PIDR2, 4, 0),                                     \
	  virq_its_probe(G, &w->idesc, &w->id))                                                    \
	X(V40, virq_its_init, EINVAL, "its=NULL", 0, virq_its_init(NULL, G, &w->idesc, NULL))      \
	X(V40, virq_its_init, EBUSY, "its is live", 0, virq_its_init(ITS, G, &w->idesc, NULL))     \
	X(V40, virq_its_init, ENOMEM, "collection bitmap", alloc_fails_(w),                        \
	  virq_its_init(&w->zits, G, &w->idesc, NULL))                                             \
	X(V40, virq_its_init, ENOHAL, "not coherent and dcache_clean=NULL", no_clean_(w),          \
	  virq_its_init(&w->zits, G, &w->idesc, NULL))                                             \
	X(V40, virq_its_init, ENOTSUP, "GITS_PIDR2.ArchRev=0",                                     \
	  stick_(w, w->idesc.base + LIBVIRQ_GITS_PIDR2, 4, 0),                                     \
	  virq_its_init(&w->zits, G, &w->idesc, NULL))                                             \
	X(V40, virq_its_init, ETIMEDOUT, "GITS_CTLR.Quiescent still 0",                            \
	  stick_(w, w->idesc.base + LIBVIRQ_GITS_CTLR, 4, 0),                                      \
	  virq_its_init(&w->zits, G, &w->idesc, NULL))                                             \
	X(V40, virq_its_init, EHW, "did not stick",                                                \
	  stick_(w, w->idesc.base + LIBVIRQ_GITS_CBASER, 8, 0),                                    \
	  virq_its_init(&w->zits, G, &w->idesc, NULL))                                             \
	X(V40, virq_its_init, ENOSPC, "ITSes already", G->its[1] = ITS,                            \
	  (G->its[2] = G->its[3] = G->its[4] = G->its[5] = G->its[6] = G->its[7] = G->its[8] =     \
	       G->its[9] = G->its[10] = G->its[11] = G->its[12] = G->its[13] = G->its[14] =        \
		   G->its[15] = ITS,                                                               \
	   virq_its_init(&w->zits, G, &w->idesc, NULL)))                                           \
	X(V40, virq_its_destroy, EINVAL, "its destroyed", gone_its_(w),                            \
	  virq_its_destroy(&w->zits))                                                              \
	X(V40, virq_its_destroy, EBUSY, "nr_devices=1", 0, virq_its_destroy(ITS))                  \
	X(V40, virq_its_destroy, ETIMEDOUT, "Quiescent still 0",                                   \
	  (OK_(virq_its_init(&w->zits, G, &w->idesc, NULL)),                                       \
	   stick_(w, w->idesc.base + LIBVIRQ_GITS_CTLR, 4, 0)),                                    \
	  virq_its_destroy(&w->zits))                                                              \
	X(V40, virq_its_map_collection, EINVAL, "rd=9 >= nr_rd=2", 0,                              \
	  virq_its_map_collection(ITS, 9))                                                         \
	X(V40, virq_its_map_collection, EBUSY, "LPIs not enabled", G->rd[1].flags = 0,             \
	  virq_its_map_collection(ITS, 1))                                                         \
	X(V40, virq_its_map_collection, ERANGE, "CIDbits", ITS->lim.icid_bits = 0,                 \
	  virq_its_map_collection(ITS, 1))                                                         \
	/* ---- devices and physical LPIs ---- */                                                  \
	X(V40, virq_its_device_map, EINVAL, "nr_events=0", 0,                                      \
	  virq_its_device_map(ITS, &w->zdev, 5, 0))                                                \
	X(V40, virq_its_device_map, EBUSY, "dev is live", 0,                                       \
	  virq_its_device_map(ITS, &w->dev, 5, 4))                                                 \
	X(V40, virq_its_device_map, EEXIST, "device_id=1 already mapped", 0,                       \
	  virq_its_device_map(ITS, &w->zdev, 1, 4))                                                \
	X(V40, virq_its_device_map, ERANGE, "nr_events=", 0,                                       \
	  virq_its_device_map(ITS, &w->zdev, 5, 0x80000000u))                                      \
	X(V40, virq_its_device_map, ENOMEM, "ITT", alloc_fails_(w),                                \
	  virq_its_device_map(ITS, &w->zdev, 5, 512)) /* whole pages */                            \
	X(V40, virq_its_device_map, ENOMEM, "event tracking", alloc_fails_2_(w),                   \
	  virq_its_device_map(ITS, &w->zdev, 5, 512))                                              \
	X(V40, virq_its_device_map, ENOHAL, "ITT not coherent", no_clean_(w),                      \
	  virq_its_device_map(ITS, &w->zdev, 5, 4))                                                \
	X(V40, virq_its_device_unmap, EINVAL, "dev destroyed", gone_dev_(w),                       \
	  virq_its_device_unmap(&w->zdev))                                                         \
	X(V40, virq_its_device_unmap, EBUSY, "nr_mapped=2", 0, virq_its_device_unmap(&w->dev))     \
	X(V40, virq_its_map_lpi, EINVAL, "dev destroyed", gone_dev_(w),                            \
	  virq_its_map_lpi(&w->zdev, 0, w->lpi2, 0))                                               \
	X(V40, virq_its_map_lpi, ERANGE, "event=8 >= nr_events=8", 0,                              \
	  virq_its_map_lpi(&w->dev, 8, w->lpi2, 0))                                                \
	X(V40, virq_its_map_lpi, EEXIST, "event=1 already mapped", 0,                              \
	  virq_its_map_lpi(&w->dev, 1, w->lpi2, 0))                                                \
	X(V40, virq_its_map_lpi, ENOENT, "pintid=9000 not allocated", 0,                           \
	  virq_its_map_lpi(&w->dev, 2, 9000, 0))                                                   \
	X(V40, virq_its_map_lpi, EBUSY, "is a vPE's doorbell", 0,                                  \
	  virq_its_map_lpi(&w->dev, 2, w->db, 0))                                                  \
	X(V40, virq_its_map_lpi, ENOSPC, "65534 events",                                           \
	  ((uint16_t *)G->lpi_refs.va)[w->lpi2 - 8192] = 65534,                                    \
	  virq_its_map_lpi(&w->dev, 2, w->lpi2, 0))                                                \
	X(V40, virq_its_unmap_event, EINVAL, "dev destroyed", gone_dev_(w),                        \
	  virq_its_unmap_event(&w->zdev, 0))                                                       \
	X(V40, virq_its_unmap_event, ENOENT, "event=3 not mapped", 0,                              \
	  virq_its_unmap_event(&w->dev, 3))                                                        \
	X(V40, virq_its_unmap_event, EDEAD, "the ITS is dead", its_dead_(w),                       \
	  virq_its_unmap_event(&w->dev, 1))                                                        \
	X(V40, virq_its_unmap_event, ETIMEDOUT, "DISCARD of event=1 not seen to run",              \
	  its_hangs_(w), virq_its_unmap_event(&w->dev, 1))                                         \
	X(V40, virq_its_unmap_range, EINVAL, "dev destroyed", gone_dev_(w),                        \
	  virq_its_unmap_range(&w->zdev, 0, 1))                                                    \
	X(V40, virq_its_unmap_range, ERANGE, "count=0", 0, virq_its_unmap_range(&w->dev, 0, 0))    \
	X(V40, virq_its_unmap_range, ENOENT, "event=2 not mapped", 0,                              \
	  virq_its_unmap_range(&w->dev, 0, 3))                                                     \
	X(V40, virq_its_unmap_range, EDEAD, "the ITS is dead", its_dead_(w),                       \
	  virq_its_unmap_range(&w->dev, 0, 2))                                                     \
	X(V40, virq_its_move_lpi, EINVAL, "dev destroyed", gone_dev_(w),                           \
	  virq_its_move_lpi(&w->zdev, 1, 1))                                                       \
	X(V40, virq_its_move_lpi, ERANGE, "event=9 >= nr_events=8", 0,                             \
	  virq_its_move_lpi(&w->dev, 9, 1))                                                        \
	X(V40, virq_its_move_lpi, ENOENT, "not mapped to a physical LPI", 0,                       \
	  virq_its_move_lpi(&w->dev, 0, 1))                                                        \
	X(V40, virq_its_int, EINVAL, "dev destroyed", gone_dev_(w), virq_its_int(&w->zdev, 0))     \
	X(V40, virq_its_int, ENOENT, "event=4 not mapped", 0, virq_its_int(&w->dev, 4))            \
	X(V40, virq_its_clear, EINVAL, "dev destroyed", gone_dev_(w), virq_its_clear(&w->zdev, 0)) \
	X(V40, virq_its_clear, ENOENT, "event=4 not mapped", 0, virq_its_clear(&w->dev, 4))        \
	X(V40, virq_its_inv, EINVAL, "dev destroyed", gone_dev_(w), virq_its_inv(&w->zdev, 0))     \
	X(V40, virq_its_inv, ENOENT, "event=4 not mapped", 0, virq_its_inv(&w->dev, 4))            \
	X(V40, virq_its_device_set_deferred, EINVAL, "dev destroyed", gone_dev_(w),                \
	  virq_its_device_set_deferred(&w->zdev, true))                                            \
	X(V40, virq_its_settle, EINVAL, "its destroyed", gone_its_(w),                             \
	  virq_its_settle(&w->zits, true))                                                         \
	X(V40, virq_its_settle, ETIMEDOUT, "1 of 1 deferred batches did not complete (1 never",    \
	  deferred_hung_(w), virq_its_settle(ITS, true))                                           \
	X(V40, virq_its_settle, ECANCELED, "1 of 1 deferred batches did not complete (1 never",    \
	  deferred_dropped_(w), virq_its_settle(ITS, false))                                       \
	X(V40, virq_its_settle, ESTALLED, "1 of 1 deferred batches", deferred_stalled_(w),         \
	  virq_its_settle(ITS, true))                                                              \
	X(V40, virq_its_settle, EHW, "1 of 1 deferred batches", deferred_bad_creadr_(w),           \
	  virq_its_settle(ITS, false))                                                             \
	X(V40, virq_its_settle, EDEAD, "1 of 1 deferred batches did not complete (0 never",        \
	  deferred_its_dead_(w), virq_its_settle(ITS, false))                                      \
	X(V40, virq_its_event_get, EINVAL, "out=NULL", 0, virq_its_event_get(&w->dev, 0, NULL))    \
	X(V40, virq_its_get_info, EINVAL, "out=NULL", 0, virq_its_get_info(ITS, NULL))             \
	X(V40, virq_its_device_get_info, EINVAL, "out=NULL", 0,                                    \
	  virq_its_device_get_info(&w->dev, NULL))                                                 \
	X(V40, virq_vpe_get_info, EINVAL, "out=NULL", 0, virq_vpe_get_info(&w->vpe, NULL))         \
	X(V40, virq_its_event_get, ERANGE, "event=8 >= nr_events=8", 0,                            \
	  virq_its_event_get(&w->dev, 8, &w->ev))                                                  \
	/* ---- the command queue ---- */                                                          \
	X(V40, virq_its_queue_init, EINVAL, "q=NULL", 0,                                           \
	  virq_its_queue_init(NULL, &w->f.g.hal, Q_BASE, 4096, NULL))                              \
	X(V40, virq_its_queue_init, EBUSY, "q is live", 0,                                         \
	  virq_its_queue_init(&w->q, &w->f.g.hal, Q_BASE, 4096, NULL))                             \
	X(V40, virq_its_queue_init, EALIGN, "size=5000 not a multiple of 4096", 0,                 \
	  virq_its_queue_init(&w->zq, &w->f.g.hal, Q_BASE, 5000, NULL))                            \
	X(V40, virq_its_queue_init, ERANGE, "size=2097152 > 1048576", 0,                           \
	  virq_its_queue_init(&w->zq, &w->f.g.hal, Q_BASE, 2097152, NULL))                         \
	X(V40, virq_its_queue_init, ENOHAL, "page_free=NULL", w->ops.page_free = NULL,             \
	  virq_its_queue_init(&w->zq, &w->hal2, Q_BASE, 4096, NULL))                               \
	X(V40, virq_its_queue_init, ENOMEM, "ITS command queue",                                   \
	  (gone_q_(w), virq_sim_its_enable(w->qm, false), alloc_fails_(w)),                        \
	  virq_its_queue_init(&w->zq, &w->f.g.hal, Q_BASE, 4096, NULL))                            \
	X(V40, virq_its_queue_init, EHW, "did not stick",                                          \
	  (gone_q_(w), virq_sim_its_enable(w->qm, false),                                          \
	   stick_(w, Q_BASE + LIBVIRQ_GITS_CBASER, 8, 0)),                                         \
	  virq_its_queue_init(&w->zq, &w->f.g.hal, Q_BASE, 4096, NULL))                            \
	X(V40, virq_its_queue_fini, EINVAL, "q destroyed", gone_q_(w), virq_its_queue_fini(&w->q)) \
	X(V40, virq_its_queue_fini, EBUSY, "q belongs to an ITS", 0, virq_its_queue_fini(&ITS->q)) \
	X(V40, virq_its_queue_reset, EINVAL, "q destroyed", gone_q_(w),                            \
	  virq_its_queue_reset(&w->q))                                                             \
	X(V40, virq_its_queue_reset, ETIMEDOUT, "Quiescent still 0",                               \
	  stick_(w, Q_BASE + LIBVIRQ_GITS_CTLR, 4, 1), virq_its_queue_reset(&w->q))                \
	X(V40, virq_its_queue_reset, EHW, "impossible once the ITS is quiescent",                  \
	  stick_(w, Q_BASE + LIBVIRQ_GITS_CREADR, 8, 0xFFFFFFFFull), virq_its_queue_reset(&w->q))  \
	X(V40, virq_its_queue_push, EINVAL, "cmd=NULL", 0,                                         \
	  virq_its_queue_push(&w->q, NULL, NULL, NULL, NULL))                                      \
	X(V40, virq_its_queue_push, EDEAD, "q dead", w->q.dead = true,                             \
	  virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL))                                   \
	X(V40, virq_its_queue_push, ETIMEDOUT, "consumed nothing", q_full_hang_(w),                \
	  virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL))                                   \
	X(V40, virq_its_queue_push, ESTALLED, "stalled on the command", q_full_stall_(w),          \
	  virq_its_queue_push(&w->q, &w->cmd, NULL, NULL, NULL))                                   \
	X(V40, virq_its_queue_push_raw, EINVAL, "raw=NULL", 0,                                     \
	  virq_its_queue_push_raw(&w->q, NULL))                                                    \
	X(V40, virq_its_queue_push_raw, EDEAD, "q dead", w->q.dead = true,                         \
	  virq_its_queue_push_raw(&w->q, w->raw))                                                  \
	X(V40, virq_its_queue_push_raw, ETIMEDOUT, "consumed nothing", q_full_hang_(w),            \
	  virq_its_queue_push_raw(&w->q, w->raw))                                                  \
	X(V40, virq_its_queue_push_raw, ESTALLED, "stalled on the command", q_full_stall_(w),      \
	  virq_its_queue_push_raw(&w->q, w->raw))                                                  \
	X(V40, virq_its_queue_publish, EINVAL, "q destroyed", gone_q_(w),                          \
	  virq_its_queue_publish(&w->q, NULL))                                                     \
	X(V40, virq_its_queue_publish, EDEAD, "q dead", w->q.dead = true,                          \
	  virq_its_queue_publish(&w->q, NULL))                                                     \
	X(V40, virq_its_queue_wait, EINVAL, "ticket=64 > 0 published", 0,                          \
	  virq_its_queue_wait(&w->q, 64, NULL))                                                    \
	X(V40, virq_its_queue_wait, EDEAD, "q dead", w->q.dead = true,                             \
	  virq_its_queue_wait(&w->q, 0, NULL))                                                     \
	X(V40, virq_its_queue_wait, ETIMEDOUT, "consumed nothing",                                 \
	  (virq_sim_its_set_dead(w->qm, true), q_published_(w)),                                   \
	  virq_its_queue_wait(&w->q, 32, &w->diag))                                                \
	X(V40, virq_its_queue_wait, ESTALLED, "stalled",                                           \
	  (virq_sim_its_stall_nth(w->qm, 1), q_published_(w)),                                     \
	  virq_its_queue_wait(&w->q, 32, &w->diag))                                                \
	X(V40, virq_its_queue_wait, EHW, "impossible", q_bad_creadr_(w),                           \
	  virq_its_queue_wait(&w->q, 32, &w->diag))                                                \
	X(V40, virq_its_queue_drain, EINVAL, "q destroyed", gone_q_(w),                            \
	  virq_its_queue_drain(&w->q, NULL))                                                       \
	X(V40, virq_its_queue_drain, EDEAD, "q dead", w->q.dead = true,                            \
	  virq_its_queue_drain(&w->q, NULL))                                                       \
	X(V40, virq_its_queue_submit, EINVAL, "cmd=NULL", 0,                                       \
	  virq_its_queue_submit(&w->q, NULL, NULL, NULL, NULL))                                    \
	X(V40, virq_its_queue_submit, EDEAD, "q dead", w->q.dead = true,                           \
	  virq_its_queue_submit(&w->q, &w->cmd, NULL, NULL, NULL))                                 \
	X(V40, virq_its_queue_submit, ETIMEDOUT, "consumed nothing",                               \
	  virq_sim_its_set_dead(w->qm, true),                                                      \
	  virq_its_queue_submit(&w->q, &w->cmd, NULL, NULL, NULL))                                 \
	X(V40, virq_its_queue_submit, ESTALLED, "stalled", virq_sim_its_stall_nth(w->qm, 1),       \
	  virq_its_queue_submit(&w->q, &w->cmd, NULL, NULL, NULL))                                 \
	X(V40, virq_its_queue_stall_info, EDEAD, "q dead", w->q.dead = true,                       \
	  virq_its_queue_stall_info(&w->q, &w->diag))                                              \
	X(V40, virq_its_queue_stall_info, ESTALLED, "stalled", q_stalled_(w),                      \
	  virq_its_queue_stall_info(&w->q, &w->diag))                                              \
	X(V40, virq_its_queue_stall_info, EHW, "impossible", q_bad_creadr_(w),                     \
	  virq_its_queue_stall_info(&w->q, &w->diag))                                              \
	X(V40, virq_its_queue_retry, EINVAL, "q destroyed", gone_q_(w),                            \
	  virq_its_queue_retry(&w->q))                                                             \
	X(V40, virq_its_queue_retry, EDEAD, "q dead", w->q.dead = true,                            \
	  virq_its_queue_retry(&w->q))                                                             \
	X(V40, virq_its_queue_skip, EINVAL, "Stalled=0", 0,                                        \
	  virq_its_queue_skip(&w->q, &w->cmd, NULL))                                               \
	X(V40, virq_its_queue_skip, EDEAD, "q dead", w->q.dead = true,                             \
	  virq_its_queue_skip(&w->q, &w->cmd, NULL))                                               \
	/* ---- VMs ---- */                                                                        \
	X(V40, virq_gic_vm_init, EINVAL, "vm=NULL", 0, virq_gic_vm_init(NULL, G, 16))              \
	X(V40, virq_gic_vm_init, EBUSY, "vm is live", 0, virq_gic_vm_init(&w->vm, G, 16))          \
	X(V40, virq_gic_vm_init, ERANGE, "id_bits=13 < 14", 0, virq_gic_vm_init(&w->zvm, G, 13))   \
	X(V3, virq_gic_vm_init, ENOTSUP, "not a GICv4", 0, virq_gic_vm_init(&w->zvm, G, 16))       \
	X(V40, virq_gic_vm_init, ENOMEM, "vLPI configuration table", alloc_fails_(w),              \
	  virq_gic_vm_init(&w->zvm, G, 16))                                                        \
	X(V40, virq_gic_vm_init, ENOHAL, "not coherent", no_clean_(w),                             \
	  virq_gic_vm_init(&w->zvm, G, 16))                                                        \
	X(V40, virq_gic_vm_destroy, EINVAL, "vm destroyed", gone_vm_(w),                           \
	  virq_gic_vm_destroy(&w->zvm))                                                            \
	X(V40, virq_gic_vm_destroy, EBUSY, "nr_vpes=1", 0, virq_gic_vm_destroy(&w->vm))            \
	X(V40, virq_gic_vm_vlpi_config, EINVAL, "vm destroyed", gone_vm_(w),                       \
	  virq_gic_vm_vlpi_config(&w->zvm, 8192, 0xa0, true))                                      \
	X(V40, virq_gic_vm_vlpi_config, ERANGE, "vintid=65536 >= 2^id_bits=65536", 0,              \
	  virq_gic_vm_vlpi_config(&w->vm, 65536, 0xa0, true))                                      \
	X(V40, virq_gic_vm_vlpi_config, ENOHAL, "not coherent", no_clean_(w),                      \
	  virq_gic_vm_vlpi_config(&w->vm, 8200, 0xa0, true))                                       \
	/* ---- vPEs ---- */                                                                       \
	X(V40, virq_vpe_init, EINVAL, "vm destroyed", gone_vm_(w),                                 \
	  virq_vpe_init(&w->zvpe, &w->zvm, 0, NOB))                                                \
	X(V40, virq_vpe_init, EBUSY, "vpe is live", 0, virq_vpe_init(&w->vpe, &w->vm, 0, NOB))     \
	X(V40, virq_vpe_init, ENOENT, "doorbell=9000 not an allocated LPI", 0,                     \
	  virq_vpe_init(&w->zvpe, &w->vm, 0, 9000))                                                \
	X(V40, virq_vpe_init, EBUSY, "doorbell=", 0, virq_vpe_init(&w->zvpe, &w->vm, 0, w->db))    \
	X(V40, virq_vpe_init, ENOTSUP, "no live GICv4 ITS", ITS->lim.version = LIBVIRQ_ITS_V3,     \
	  virq_vpe_init(&w->zvpe, &w->vm, 0, NOB))                                                 \
	X(V40, virq_vpe_init, ENOMEM, "VPT", alloc_fails_(w),                                      \
	  virq_vpe_init(&w->zvpe, &w->vm, 0, NOB))                                                 \
	X(V41, virq_vpe_init, ENOSPC, "vPEIDs in use", vpeids_gone_(w),                            \
	  virq_vpe_init(&w->zvpe, &w->vm, 0, NOB))                                                 \
	X(V40, virq_vpe_init, EDEAD, "every GICv4 ITS is dead", its_dead_(w),                      \
	  virq_vpe_init(&w->zvpe, &w->vm, 0, NOB))                                                 \
	X(V40, virq_vpe_destroy, EINVAL, "vpe destroyed", gone_vpe_(w),                            \
	  virq_vpe_destroy(&w->zvpe))                                                              \
	X(V40, virq_vpe_destroy, EBUSY, "nr_vlpis=1", 0, virq_vpe_destroy(&w->vpe))                \
	X(V40, virq_vpe_invall, EINVAL, "vpe destroyed", gone_vpe_(w), virq_vpe_invall(&w->zvpe))  \
	X(V40, virq_vpe_invall, EDEAD, "being torn down", vpe_dying_(w), virq_vpe_invall(&w->vpe)) \
	X(V40, virq_vpe_make_resident, EINVAL, "vpe destroyed", gone_vpe_(w),                      \
	  virq_vpe_make_resident(&w->zvpe, 0))                                                     \
	X(V40, virq_vpe_make_resident, EBUSY, "already resident", resident_(w),                    \
	  virq_vpe_make_resident(&w->vpe, 0))                                                      \
	X(V40, virq_vpe_make_resident, EDEAD, "being torn down", vpe_dying_(w),                    \
	  virq_vpe_make_resident(&w->vpe, 0))                                                      \
	X(V40, virq_vpe_make_resident, ETIMEDOUT, "GICR_VPENDBASER.Dirty still 1",                 \
	  (G->rd[0].typer |= LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_TYPER_Dirty),                         \
	   stick_(w, rd_(w, 0, LIBVIRQ_GICR_VPENDBASER), 8, 1ull << 60)),                          \
	  virq_vpe_make_resident(&w->vpe, 0))                                                      \
	X(V40, virq_vpe_make_nonresident, EINVAL, "not resident", 0,                               \
	  virq_vpe_make_nonresident(&w->vpe, false, &w->b))                                        \
	X(V40, virq_vpe_make_nonresident, ETIMEDOUT, "Dirty still 1",                              \
	  (resident_(w), stick_(w, rd_(w, 0, LIBVIRQ_GICR_VPENDBASER), 8, 1ull << 60)),            \
	  virq_vpe_make_nonresident(&w->vpe, false, &w->b))                                        \
	X(V40, virq_vpe_wfi_enter, EINVAL, "has no doorbell", w->vpe.doorbell = NOB,               \
	  virq_vpe_wfi_enter(&w->vpe))                                                             \
	X(V40, virq_vpe_wfi_exit, EINVAL, "vpe destroyed", gone_vpe_(w),                           \
	  virq_vpe_wfi_exit(&w->zvpe))                                                             \
	X(V40, virq_vpe_load, EINVAL, "rd=1 is not the vPE's target rd=0", 0,                      \
	  virq_vpe_load(&w->vpe, 1))                                                               \
	X(V40, virq_vpe_load, EBUSY, "rd=0: vPE", rd0_taken_(w), virq_vpe_load(&w->vpe, 0))        \
	X(V40, virq_vpe_load, EDEAD, "being torn down", vpe_dying_(w), virq_vpe_load(&w->vpe, 0))  \
	X(V40, virq_vpe_load, ETIMEDOUT, "Dirty still 1",                                          \
	  (G->rd[0].typer |= LIBVIRQ_FIELD_MASK(LIBVIRQ_GICR_TYPER_Dirty),                         \
	   stick_(w, rd_(w, 0, LIBVIRQ_GICR_VPENDBASER), 8, 1ull << 60)),                          \
	  virq_vpe_load(&w->vpe, 0))                                                               \
	X(V40, virq_vpe_put, EINVAL, "vpe destroyed", gone_vpe_(w), virq_vpe_put(&w->zvpe, NULL))  \
	X(V40, virq_vpe_move, EINVAL, "rd=4 >= nr_rd=2", 0, virq_vpe_move(&w->vpe, 4))             \
	X(V40, virq_vpe_move, EBUSY, "resident", resident_(w), virq_vpe_move(&w->vpe, 1))          \
	X(V40, virq_vpe_move, EDEAD, "being torn down", vpe_dying_(w), virq_vpe_move(&w->vpe, 1))  \
	X(V40, virq_vpe_move, ETIMEDOUT, "VMOVP + VSYNC of vPE 0 not seen to run", its_hangs_(w),  \
	  virq_vpe_move(&w->vpe, 1))                                                               \
	X(V40, virq_vpe_set_db_masking, EINVAL, "vpe destroyed", gone_vpe_(w),                     \
	  virq_vpe_set_db_masking(&w->zvpe, true))                                                 \
	X(V41, virq_vpe_set_db_masking, ENOTSUP, "not a GICv4.0", 0,                               \
	  virq_vpe_set_db_masking(&w->vpe, true))                                                  \
	X(V40, virq_vpe_doorbell_invalidate, EINVAL, "has no doorbell", w->vpe.doorbell = NOB,     \
	  virq_vpe_doorbell_invalidate(&w->vpe))                                                   \
	X(V40, virq_vpe_doorbell_invalidate, ENOTSUP, "no proxy ITS", no_direct_lpi_(w),           \
	  virq_vpe_doorbell_invalidate(&w->vpe))                                                   \
	/* ---- vLPIs ---- */                                                                      \
	X(V40, virq_vlpi_map, EINVAL, "vpe=NULL", 0, virq_vlpi_map(&w->dev, 2, NULL, 8200, true))  \
	X(V40, virq_vlpi_map, ERANGE, "vintid=100 < 8192", 0,                                      \
	  virq_vlpi_map(&w->dev, 2, &w->vpe, 100, true))                                           \
	X(V40, virq_vlpi_map, EEXIST, "event=1 already mapped", 0,                                 \
	  virq_vlpi_map(&w->dev, 1, &w->vpe, 8200, true))                                          \
	X(V40, virq_vlpi_map, EDEAD, "being torn down", vpe_dying_(w),                             \
	  virq_vlpi_map(&w->dev, 2, &w->vpe, 8200, true))                                          \
	X(V40, virq_vlpi_map, ENOTSUP, "GICv3 ITS", ITS->lim.version = LIBVIRQ_ITS_V3,             \
	  virq_vlpi_map(&w->dev, 2, &w->vpe, 8200, true))                                          \
	X(V40, virq_vlpi_map_config, EINVAL, "dev destroyed", gone_dev_(w),                        \
	  virq_vlpi_map_config(&w->zdev, 2, &w->vpe, 8200, true, 0xa0, true))                      \
	X(V40, virq_vlpi_map_config, ERANGE, "event=8 >= nr_events=8", 0,                          \
	  virq_vlpi_map_config(&w->dev, 8, &w->vpe, 8200, true, 0xa0, true))                       \
	X(V40, virq_vlpi_map_config, EEXIST, "event=0 already mapped", 0,                          \
	  virq_vlpi_map_config(&w->dev, 0, &w->vpe, 8200, true, 0xa0, true))                       \
	X(V40, virq_vlpi_map_config, EDEAD, "being torn down", vpe_dying_(w),                      \
	  virq_vlpi_map_config(&w->dev, 2, &w->vpe, 8200, true, 0xa0, true))                       \
	X(V40, virq_vlpi_map_config, ENOTSUP, "GICv3 ITS", ITS->lim.version = LIBVIRQ_ITS_V3,      \
	  virq_vlpi_map_config(&w->dev, 2, &w->vpe, 8200, true, 0xa0, true))                       \
	X(V40, virq_vlpi_map_range, EINVAL, "count=0", 0,                                          \
	  virq_vlpi_map_range(&w->dev, 2, 0, &w->vpe, 8200, true))                                 \
	X(V40, virq_vlpi_map_range, ERANGE, "count=7 > nr_events-first=6", 0,                      \
	  virq_vlpi_map_range(&w->dev, 2, 7, &w->vpe, 8200, true))                                 \
	X(V40, virq_vlpi_map_range, EEXIST, "event=0 of the range already mapped", 0,              \
	  virq_vlpi_map_range(&w->dev, 0, 3, &w->vpe, 8200, true))                                 \
	X(V40, virq_vlpi_map_range, EDEAD, "the ITS is dead", its_dead_(w),                        \
	  virq_vlpi_map_range(&w->dev, 2, 3, &w->vpe, 8200, true))                                 \
	X(V40, virq_vlpi_map_range, ENOTSUP, "GICv3 ITS", ITS->lim.version = LIBVIRQ_ITS_V3,       \
	  virq_vlpi_map_range(&w->dev, 2, 3, &w->vpe, 8200, true))                                 \
	X(V40, virq_vlpi_unmap, EINVAL, "dev destroyed", gone_dev_(w),                             \
	  virq_vlpi_unmap(&w->zdev, 0))                                                            \
	X(V40, virq_vlpi_unmap, ENOENT, "event=3 not mapped", 0, virq_vlpi_unmap(&w->dev, 3))      \
	X(V40, virq_vlpi_unmap, EDEAD, "the ITS is dead", its_dead_(w),                            \
	  virq_vlpi_unmap(&w->dev, 0))                                                             \
	X(V40, virq_vlpi_unmap, ETIMEDOUT, "DISCARD of event=0 not seen to run", its_hangs_(w),    \
	  virq_vlpi_unmap(&w->dev, 0))                                                             \
	X(V40, virq_vlpi_unmap_range, EINVAL, "dev destroyed", gone_dev_(w),                       \
	  virq_vlpi_unmap_range(&w->zdev, 0, 1))                                                   \
	X(V40, virq_vlpi_unmap_range, ERANGE, "first_event=9 >= nr_events=8", 0,                   \
	  virq_vlpi_unmap_range(&w->dev, 9, 1))                                                    \
	X(V40, virq_vlpi_unmap_range, ENOENT, "event=1 mapped to a physical LPI", 0,               \
	  virq_vlpi_unmap_range(&w->dev, 0, 2))                                                    \
	X(V40, virq_vlpi_unmap_range, EDEAD, "the ITS is dead", its_dead_(w),                      \
	  virq_vlpi_unmap_range(&w->dev, 0, 1))                                                    \
	X(V40, virq_vlpi_remap, EINVAL, "vpe destroyed", gone_vpe_(w),                             \
	  virq_vlpi_remap(&w->dev, 0, &w->zvpe, 8300))                                             \
	X(V40, virq_vlpi_remap, ERANGE, "vintid=70000 >= 2^id_bits=65536", 0,                      \
	  virq_vlpi_remap(&w->dev, 0, &w->vpe, 70000))                                             \
	X(V40, virq_vlpi_remap, ENOENT, "event=1 not mapped to a vLPI", 0,                         \
	  virq_vlpi_remap(&w->dev, 1, &w->vpe, 8300))                                              \
	X(V40, virq_vlpi_remap, EDEAD, "being torn down", vpe_dying_(w),                           \
	  virq_vlpi_remap(&w->dev, 0, &w->vpe, 8300))                                              \
	X(V40, virq_vlpi_remap, ENOTSUP, "GICv3 ITS", ITS->lim.version = LIBVIRQ_ITS_V3,           \
	  virq_vlpi_remap(&w->dev, 0, &w->vpe, 8300))                                              \
	X(V40, virq_vlpi_move, EINVAL, "vpe=NULL", 0, virq_vlpi_move(&w->dev, 0, NULL))            \
	X(V40, virq_vlpi_move, ENOENT, "event=5 not mapped to a vLPI", 0,                          \
	  virq_vlpi_move(&w->dev, 5, &w->vpe))                                                     \
	X(V40, virq_vlpi_move, EDEAD, "being torn down", vpe_dying_(w),                            \
	  virq_vlpi_move(&w->dev, 0, &w->vpe))                                                     \
	X(V40, virq_vlpi_set_doorbell, EINVAL, "dev destroyed", gone_dev_(w),                      \
	  virq_vlpi_set_doorbell(&w->zdev, 0, true))                                               \
	X(V40, virq_vlpi_set_doorbell, ENOENT, "event=1 not mapped to a vLPI", 0,                  \
	  virq_vlpi_set_doorbell(&w->dev, 1, true))                                                \
	X(V41, virq_vlpi_set_doorbell, ENOTSUP, "not a GICv4.0 ITS", 0,                            \
	  virq_vlpi_set_doorbell(&w->dev, 0, true))                                                \
	X(V40, virq_vlpi_set_config, EINVAL, "dev destroyed", gone_dev_(w),                        \
	  virq_vlpi_set_config(&w->zdev, 0, 0xa0, true))                                           \
	X(V40, virq_vlpi_set_config, ENOENT, "event=1 not mapped to a vLPI", 0,                    \
	  virq_vlpi_set_config(&w->dev, 1, 0xa0, true))                                            \
	X(V40, virq_its_clear, ETIMEDOUT, "INT/CLEAR/INV (opcode=0x4)", its_hangs_(w),             \
	  virq_its_clear(&w->dev, 1))                                                              \
	X(V40, virq_its_int, ETIMEDOUT, "INT/CLEAR/INV (opcode=0x3)", its_hangs_(w),               \
	  virq_its_int(&w->dev, 1))                                                                \
	X(V40, virq_its_inv, ETIMEDOUT, "INT/CLEAR/INV (opcode=0xc)", its_hangs_(w),               \
	  virq_its_inv(&w->dev, 1))                                                                \
	X(V40, virq_its_device_map, ETIMEDOUT, "MAPD of device_id=5 not seen to run",              \
	  its_hangs_(w), virq_its_device_map(ITS, &w->zdev, 5, 4))                                 \
	X(V40, virq_its_map_collection, ETIMEDOUT, "MAPC + SYNC of rd=1 failed", its_hangs_(w),    \
	  virq_its_map_collection(ITS, 1))                                                         \
	X(V40, virq_its_map_lpi, ETIMEDOUT, "MAPTI + SYNC of event=2", its_hangs_(w),              \
	  virq_its_map_lpi(&w->dev, 2, w->lpi2, 0))                                                \
	X(V40, virq_its_move_lpi, ETIMEDOUT, "MOVI + SYNC + SYNC of event=1", its_hangs_(w),       \
	  virq_its_move_lpi(&w->dev, 1, 1))                                                        \
	X(V40, virq_its_unmap_range, ETIMEDOUT, "the queue failed after", its_hangs_(w),           \
	  virq_its_unmap_range(&w->dev, 0, 2))                                                     \
	X(V40, virq_vlpi_map, ETIMEDOUT, "VMAPTI + VSYNC of event=2", its_hangs_(w),               \
	  virq_vlpi_map(&w->dev, 2, &w->vpe, 8200, true))                                          \
	X(V40, virq_vlpi_map_config, ETIMEDOUT, "VMAPTI + VSYNC of event=2", its_hangs_(w),        \
	  virq_vlpi_map_config(&w->dev, 2, &w->vpe, 8200, true, 0xa0, true))                       \
	X(V40, virq_vlpi_map_range, ETIMEDOUT, "the queue failed after", its_hangs_(w),            \
	  virq_vlpi_map_range(&w->dev, 2, 3, &w->vpe, 8200, true))                                 \
	X(V40, virq_vlpi_move, ETIMEDOUT, "VMOVI + VSYNCs of event=0", its_hangs_(w),              \
	  virq_vlpi_move(&w->dev, 0, &w->vpe))                                                     \
	X(V40, virq_vlpi_remap, ETIMEDOUT, "DISCARD + VMAPTI of event=0 not seen to run",          \
	  its_hangs_(w), virq_vlpi_remap(&w->dev, 0, &w->vpe, 8300))                               \
	X(V40, virq_vlpi_set_config, ETIMEDOUT, "INT/CLEAR/INV (opcode=0xc)", its_hangs_(w),       \
	  virq_vlpi_set_config(&w->dev, 0, 0xa0, true))                                            \
	X(V40, virq_vlpi_set_doorbell, ETIMEDOUT, "VMOVI + VSYNC of event=0", its_hangs_(w),       \
	  virq_vlpi_set_doorbell(&w->dev, 0, false))                                               \
	X(V40, virq_vlpi_unmap_range, ETIMEDOUT, "the queue failed after", its_hangs_(w),          \
	  virq_vlpi_unmap_range(&w->dev, 0, 1))                                                    \
	X(V41, virq_vpe_init, ETIMEDOUT, "VMAPP + VINVALL + VSYNC", its_hangs_(w),                 \
	  virq_vpe_init(&w->zvpe, &w->vm, 0, NOB))                                                 \
	X(V40, virq_vlpi_map, ETIMEDOUT, "VMAPP + VINVALL + VSYNC",                                \
	  (OK_(virq_vpe_init(&w->zvpe, &w->vm, 0, NOB)), its_hangs_(w)),                           \
	  virq_vlpi_map(&w->dev, 2, &w->zvpe, 8200, false))                                        \
	X(V40, virq_vlpi_map, EDEAD, "dead after a failure (vPE 1 not mapped",                     \
	  (OK_(virq_vpe_init(&w->zvpe, &w->vm, 0, NOB)), its_dead_(w)),                            \
	  virq_vlpi_map(&w->dev, 2, &w->zvpe, 8200, false))                                        \
	X(V40, virq_vpe_invall, ETIMEDOUT, "VINVALL + VSYNC of vPE 0", its_hangs_(w),              \
	  virq_vpe_invall(&w->vpe))                                                                \
	X(V41, virq_vpe_doorbell_invalidate, ETIMEDOUT, "INVDB + VSYNC of vPE 0", its_hangs_(w),   \
	  virq_vpe_doorbell_invalidate(&w->vpe))                                                   \
	X(V41, virq_vpe_vsgi_config, ETIMEDOUT, "VSGI (Clear=0) + VSYNC", its_hangs_(w),           \
	  virq_vpe_vsgi_config(&w->vpe, 1, 0xa0, true, true))                                      \
	X(V41, virq_vpe_vsgi_clear, ETIMEDOUT, "VSGI (Clear=1) + VSYNC", its_hangs_(w),            \
	  virq_vpe_vsgi_clear(&w->vpe, 1))                                                         \
	X(V40, virq_its_device_unmap, ETIMEDOUT, "MAPD (V=0) of DeviceID 7",                       \
	  (OK_(virq_its_device_map(ITS, &w->zdev, 7, 4)), its_hangs_(w)),                          \
	  virq_its_device_unmap(&w->zdev))                                                         \
	X(V40, virq_vpe_destroy, ETIMEDOUT, "VMAPP (V=0) of vPE 1",                                \
	  (OK_(virq_vpe_init(&w->zvpe, &w->vm, 0, NOB)),                                           \
	   OK_(virq_vlpi_map(&w->dev, 2, &w->zvpe, 8200, false)),                                  \
	   OK_(virq_vlpi_unmap(&w->dev, 2)), its_hangs_(w)),                                       \
	  virq_vpe_destroy(&w->zvpe))                                                              \
	X(V40, virq_vpe_put, ETIMEDOUT, "Dirty still 1",                                           \
	  (resident_(w), stick_(w, rd_(w, 0, LIBVIRQ_GICR_VPENDBASER), 8, 1ull << 60)),            \
	  virq_vpe_put(&w->vpe, &w->b))                                                            \
	X(V40, virq_vpe_move, ENOMEM, "doorbell proxy device", proxy_alloc_fails_(w),              \
	  virq_vpe_move(&w->vpe, 1))                                                               \
	/* ---- GICv4.1 vSGIs ---- */                                                              \
	X(V41, virq_vpe_vsgi_config, EINVAL, "vpe destroyed", gone_vpe_(w),                        \
	  virq_vpe_vsgi_config(&w->zvpe, 0, 0xa0, true, true))                                     \
	X(V41, virq_vpe_vsgi_config, ERANGE, "vintid=16 > 15", 0,                                  \
	  virq_vpe_vsgi_config(&w->vpe, 16, 0xa0, true, true))                                     \
	X(V41, virq_vpe_vsgi_config, EALIGN, "priority=0xa8 not a multiple of 16", 0,              \
	  virq_vpe_vsgi_config(&w->vpe, 1, 0xa8, true, true))                                      \
	X(V41, virq_vpe_vsgi_config, EDEAD, "being torn down", vpe_dying_(w),                      \
	  virq_vpe_vsgi_config(&w->vpe, 1, 0xa0, true, true))                                      \
	X(V40, virq_vpe_vsgi_config, ENOTSUP, "no live GICv4.1 ITS", 0,                            \
	  virq_vpe_vsgi_config(&w->vpe, 1, 0xa0, true, true))                                      \
	X(V41, virq_vpe_vsgi_clear, EINVAL, "vpe destroyed", gone_vpe_(w),                         \
	  virq_vpe_vsgi_clear(&w->zvpe, 0))                                                        \
	X(V41, virq_vpe_vsgi_clear, ERANGE, "vintid=16 > 15", 0, virq_vpe_vsgi_clear(&w->vpe, 16)) \
	X(V41, virq_vpe_vsgi_clear, EDEAD, "being torn down", vpe_dying_(w),                       \
	  virq_vpe_vsgi_clear(&w->vpe, 1))                                                         \
	X(V40, virq_vpe_vsgi_clear, ENOTSUP, "no live GICv4.1 ITS", 0,                             \
	  virq_vpe_vsgi_clear(&w->vpe, 1))                                                         \
	X(V41, virq_vpe_vsgi_send, EINVAL, "vpe destroyed", gone_vpe_(w),                          \
	  virq_vpe_vsgi_send(&w->zvpe, 0))                                                         \
	X(V41, virq_vpe_vsgi_send, ERANGE, "vintid=16 > 15", 0, virq_vpe_vsgi_send(&w->vpe, 16))   \
	X(V41, virq_vpe_vsgi_send, EDEAD, "being torn down", vpe_dying_(w),                        \
	  virq_vpe_vsgi_send(&w->vpe, 1))                                                          \
	X(V40, virq_vpe_vsgi_send, ENOTSUP, "no direct vSGI", 0, virq_vpe_vsgi_send(&w->vpe, 1))   \
	X(V41, virq_vpe_vsgi_pending, EINVAL, "pending=NULL", 0,                                   \
	  virq_vpe_vsgi_pending(&w->vpe, NULL))                                                    \
	X(V40, virq_vpe_vsgi_pending, ENOTSUP, "not a GICv4.1", 0,                                 \
	  virq_vpe_vsgi_pending(&w->vpe, &w->u16))                                                 \
	X(V41, virq_vpe_vsgi_pending, EBUSY, "stopped half-way",                                   \
	  w->vpe.flags |= LIBVIRQ_VPE_MOVE_PENDING, virq_vpe_vsgi_pending(&w->vpe, &w->u16))       \
	X(V41, virq_vpe_vsgi_pending, ETIMEDOUT, "GICR_VSGIPENDR.Busy still 1",                    \
	  stick_(w, rd_(w, 0, LIBVIRQ_GICR_VSGIPENDR), 4, 1u << 31),                               \
	  virq_vpe_vsgi_pending(&w->vpe, &w->u16))

struct case_ {
	enum wv v;
	const char *fn;
	virq_status st;
	const char *check;
};

static const struct case_ cases_[] = {
#define X(v, fn, st, chk, prep, call) {v, #fn, LIBVIRQ_##st, chk},
    CASES(X)
#undef X
};

#define NCASES (sizeof(cases_) / sizeof(cases_[0]))

/* Case @i's set-up (@call_it false) or call (@call_it true), on world @w. */
static virq_status run_(size_t i, struct w *w, bool call_it)
{
	size_t k = 0;

#define X(v, fn, st, chk, prep, call)                                                              \
	if (i == k++) {                                                                            \
		if (!call_it) {                                                                    \
			(void)(prep);                                                              \
			return LIBVIRQ_OK;                                                         \
		}                                                                                  \
		return call;                                                                       \
	}
	CASES(X)
#undef X
	return LIBVIRQ_OK;
}

static void test_every_documented_error(void **state)
{
	static struct w w; /* large: not on the stack */
	size_t bad = 0;

	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		const struct case_ *c = &cases_[i];
		struct virq_failure r;
		unsigned long n0;
		virq_status st;
		bool ok;

		world_up_(&w, c->v);
		(void)run_(i, &w, false);
		n0 = virq_sim_fail_count(w.f.g.sim);
		st = run_(i, &w, true);
		memset(&r, 0, sizeof(r));
		ok = st == c->st && virq_sim_fail_count(w.f.g.sim) == n0 + 1 &&
		     virq_sim_last_fail(w.f.g.sim, &r) && r.status == c->st &&
		     strcmp(r.function, c->fn) == 0 && strstr(r.message, c->check) != NULL;
		if (!ok) {
			printf("case %zu: %s %s \"%s\": returned %s, %lu report(s), last: %s\n", i,
			       c->fn, virq_status_name(c->st), c->check, virq_status_name(st),
			       virq_sim_fail_count(w.f.g.sim) - n0,
			       virq_sim_fail_count(w.f.g.sim) ? r.message : "(none)");
			bad++;
		}
		world_down_(&w);
	}
	SWEEP_REPORT("GICv4 documented errors", NCASES);
	assert_int_equal(bad, 0);
}

/* The errors that are not reported by design (errors_excused.txt): the
 * status all the same, and no report. */
static void test_unreported(void **state)
{
	static struct w w;
	unsigned long n0;

	(void)state;
	world_up_(&w, V40);
	n0 = virq_sim_fail_count(w.f.g.sim);
	w.ops.version = LIBVIRQ_HAL_VERSION + 1;
	assert_int_equal(virq_gic_init(&w.zgic, &w.hal2, &w.gdesc, w.zrd, FX_MAX_RD, 16),
			 LIBVIRQ_EHALVER);
	assert_int_equal(virq_its_queue_init(&w.zq, &w.hal2, Q_BASE, 4096, NULL), LIBVIRQ_EHALVER);
	assert_int_equal(virq_hal_validate(&w.hal2, 0), LIBVIRQ_EHALVER);
	assert_int_equal(virq_hal_validate(NULL, 0), LIBVIRQ_EINVAL);
	/* every object NULL or never initialised: no HAL anywhere */
	assert_int_equal(virq_vpe_make_resident(NULL, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_int(&w.zdev, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_fail_count(w.f.g.sim), n0);
	/* a look at deferred batches not run yet: not a failure */
	assert_int_equal(deferred_hung_(&w), LIBVIRQ_OK);
	assert_int_equal(virq_its_settle(&w.f.its[0], false), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_log_count(w.f.g.sim, LIBVIRQ_LOG_DEBUG), n0);
	world_down_(&w);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_documented_error),
	    cmocka_unit_test(test_unreported),
	};

	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NCASES; i++)
			printf("%s %s\n", cases_[i].fn, virq_status_name(cases_[i].st));
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
