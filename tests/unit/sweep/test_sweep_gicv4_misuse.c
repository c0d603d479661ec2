/* SPDX-License-Identifier: MIT */
/*
 * Misuse sweep of the GICv4 module (issue: hostile input and misuse never
 * crash, hang, leak or corrupt): every public entry point is called with
 * its object in every lifecycle state — NULL, never initialised (zeroed and
 * garbage storage), live, busy (in use: dependents exist, or resident),
 * destroyed — on a GICv4.0 and a GICv4.1 system. Each call must return the
 * status gicv4/state.h documents (EINVAL for an object that is not live,
 * EBUSY for a double init or a destroy while in use, a documented status
 * otherwise), and after tearing everything down nothing may leak or be
 * freed twice. Run under ASan+UBSan by the sanitize preset, where a read of
 * a field before the state check would be caught.
 */
#include "../gicv4/its_fixture.h"
#include "sweep.h"

#define Q_BASE 0x30000000ull /* a standalone queue's ITS model */

enum ty { T_GIC, T_ITS, T_DEV, T_VM, T_VPE, T_QUEUE, T_COUNT };
enum sstate { S_NULL, S_ZERO, S_GARBAGE, S_LIVE, S_BUSY, S_GONE, S_COUNT };
static const char *const sname_[S_COUNT] = {"NULL", "zeroed", "garbage",
					    "live", "busy",   "destroyed"};

/* What kind of entry point: init (creates the target), destroy, other. */
enum ek { E_OTHER, E_INIT, E_DESTROY };

struct world {
	struct its_fx f;
	struct virq_sim_its *qm; /* model behind the standalone queue */
	int version;
	uint32_t lpi[3], db[2];
	struct virq_gic_vm vm;
	struct virq_vpe vpe;	    /* helper vPE (non-resident) */
	struct virq_its_device dev; /* helper device on ITS 0 */
	/* the target and what its busy state needs */
	union {
		struct virq_gic gic;
		struct virq_its its;
		struct virq_its_device dev;
		struct virq_gic_vm vm;
		struct virq_vpe vpe;
		struct virq_its_queue q;
	} t;
	void *tp;
	struct virq_gic_rdist trds[FX_MAX_RD];
	struct virq_gic_vm tvm;	     /* busy GIC: a VM on it */
	struct virq_its_device tdev; /* busy ITS: a device on it */
	struct virq_vpe tvpe;	     /* busy VM: a vPE in it */
	struct virq_its its2;	     /* created by virq_its_init(storage, target gic) */
	struct virq_its_device dev2; /* created by virq_its_device_map(target its, storage) */
	struct virq_gic_vm vm2;	     /* created by virq_gic_vm_init(storage, target gic) */
	struct virq_vpe vpe2;	     /* created by virq_vpe_init(storage, target vm) */
};

#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40) | (1ull << 39) | (1ull << 41))
#define OK_(x) assert_int_equal((x), LIBVIRQ_OK)

static void world_up_(struct world *w, int version)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct virq_hal hal;

	memset(w, 0, sizeof(*w));
	w->version = version;
	rc.version = version;
	rc.nr = 2;
	rc.syncr_polls = 1;
	if (version == 41)
		ic.typer = TYPER_41;
	/* two ITS models: ITS 0 for the world, ITS 1 for a target ITS */
	itsfx_setup(&w->f, &rc, &ic, 2, false);
	OK_(virq_its_init(&w->f.its[0], &w->f.g.gic, &w->f.g.desc.its[0], NULL));
	for (uint32_t r = 0; r < 2; r++)
		OK_(virq_its_map_collection(&w->f.its[0], r));
	for (unsigned i = 0; i < 3; i++)
		OK_(virq_lpi_alloc(&w->f.g.gic, 1, &w->lpi[i]));
	for (unsigned i = 0; i < 2; i++)
		OK_(virq_lpi_alloc(&w->f.g.gic, 1, &w->db[i]));
	OK_(virq_gic_vm_init(&w->vm, &w->f.g.gic, 16));
	OK_(virq_vpe_init(&w->vpe, &w->vm, 0, w->db[0]));
	OK_(virq_its_device_map(&w->f.its[0], &w->dev, 1, 8));
	OK_(virq_vlpi_map(&w->dev, 0, &w->vpe, 8192, true));
	w->qm = virq_sim_its_new(w->f.g.sim, Q_BASE, NULL);
	hal = w->f.g.hal;
	(void)hal;
}

/* Unmaps every event of a live device. */
static void dev_clear_(struct virq_its_device *d)
{
	if (d->state != LIBVIRQ_GICV4_LIVE)
		return;
	for (uint32_t e = 0; e < d->nr_events; e++) {
		struct virq_its_event ev;

		OK_(virq_its_event_get(d, e, &ev));
		if (ev.kind == LIBVIRQ_ITS_EV_PHYS || ev.kind == LIBVIRQ_ITS_EV_VIRT)
			OK_(virq_its_unmap_event(d, e));
	}
}

static void vpe_down_(struct virq_vpe *v)
{
	if (v->state != LIBVIRQ_GICV4_LIVE)
		return;
	if (v->flags & LIBVIRQ_VPE_RESIDENT)
		OK_(virq_vpe_make_nonresident(v, false, NULL));
	OK_(virq_vpe_destroy(v));
}

static void world_down_(struct world *w, enum ty ty)
{
	/* objects the call may have created */
	dev_clear_(&w->dev2);
	if (w->dev2.state == LIBVIRQ_GICV4_LIVE)
		OK_(virq_its_device_unmap(&w->dev2));
	vpe_down_(&w->vpe2);
	vpe_down_(&w->tvpe);
	if (w->vm2.state == LIBVIRQ_GICV4_LIVE)
		OK_(virq_gic_vm_destroy(&w->vm2));
	if (w->its2.state == LIBVIRQ_GICV4_LIVE)
		OK_(virq_its_destroy(&w->its2));
	/* the target (in whatever state the call left it) */
	switch (ty) {
	case T_GIC:
		if (w->tvm.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_gic_vm_destroy(&w->tvm));
		if (w->t.gic.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_gic_destroy(&w->t.gic));
		break;
	case T_ITS:
		dev_clear_(&w->tdev);
		if (w->tdev.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_its_device_unmap(&w->tdev));
		if (w->t.its.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_its_destroy(&w->t.its));
		break;
	case T_DEV:
		dev_clear_(&w->t.dev);
		if (w->t.dev.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_its_device_unmap(&w->t.dev));
		break;
	case T_VM:
		if (w->t.vm.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_gic_vm_destroy(&w->t.vm));
		break;
	case T_VPE:
		dev_clear_(&w->dev); /* vLPIs of the target vPE live on the helper device */
		vpe_down_(&w->t.vpe);
		break;
	case T_QUEUE:
		if (w->tp != &w->f.its[0].q && w->t.q.state == LIBVIRQ_GICV4_LIVE)
			OK_(virq_its_queue_fini(&w->t.q));
		break;
	default:
		break;
	}
	/* the world */
	dev_clear_(&w->dev);
	OK_(virq_its_device_unmap(&w->dev));
	vpe_down_(&w->vpe);
	OK_(virq_gic_vm_destroy(&w->vm));
	for (unsigned i = 0; i < 3; i++)
		OK_(virq_lpi_free(&w->f.g.gic, w->lpi[i], 1));
	for (unsigned i = 0; i < 2; i++)
		OK_(virq_lpi_free(&w->f.g.gic, w->db[i], 1));
	OK_(virq_its_destroy(&w->f.its[0]));
	OK_(virq_gic_destroy(&w->f.g.gic));
	assert_int_equal(virq_sim_live_pages(w->f.g.sim), 0);
	assert_int_equal(virq_sim_bad_frees(w->f.g.sim), 0);
	virq_sim_free(w->f.g.sim);
	virq_sim_gic_free(w->f.g.sg); /* the redistributor and ITS models */
	virq_sim_its_free(w->qm);
}

/* Creates the target of type @ty in state @s. */
static void target_(struct world *w, enum ty ty, enum sstate s)
{
	struct virq_hal hal = w->f.g.hal;

	w->tp = &w->t;
	if (s == S_NULL) {
		w->tp = NULL;
		return;
	}
	memset(&w->t, s == S_GARBAGE ? 0xA5 : 0, sizeof(w->t));
	if (s == S_ZERO || s == S_GARBAGE)
		return;
	switch (ty) {
	case T_GIC:
		OK_(virq_gic_init(&w->t.gic, &hal, &w->f.g.desc, w->trds, FX_MAX_RD, 16));
		if (s == S_BUSY)
			OK_(virq_gic_vm_init(&w->tvm, &w->t.gic, 16));
		if (s == S_GONE)
			OK_(virq_gic_destroy(&w->t.gic));
		break;
	case T_ITS:
		OK_(virq_its_init(&w->t.its, &w->f.g.gic, &w->f.g.desc.its[1], NULL));
		if (s == S_BUSY)
			OK_(virq_its_device_map(&w->t.its, &w->tdev, 1, 2));
		if (s == S_GONE)
			OK_(virq_its_destroy(&w->t.its));
		break;
	case T_DEV:
		OK_(virq_its_device_map(&w->f.its[0], &w->t.dev, 2, 8));
		if (s == S_BUSY) {
			OK_(virq_its_map_lpi(&w->t.dev, 0, w->lpi[0], 0));
			OK_(virq_vlpi_map(&w->t.dev, 1, &w->vpe, 8300, true));
		}
		if (s == S_GONE)
			OK_(virq_its_device_unmap(&w->t.dev));
		break;
	case T_VM:
		OK_(virq_gic_vm_init(&w->t.vm, &w->f.g.gic, 16));
		if (s == S_BUSY)
			OK_(virq_vpe_init(&w->tvpe, &w->t.vm, 0, LIBVIRQ_ITS_NO_DOORBELL));
		if (s == S_GONE)
			OK_(virq_gic_vm_destroy(&w->t.vm));
		break;
	case T_VPE:
		OK_(virq_vpe_init(&w->t.vpe, &w->vm, 0, w->db[1]));
		if (s == S_BUSY) { /* resident, with a vLPI */
			OK_(virq_vlpi_map(&w->dev, 5, &w->t.vpe, 8400, true));
			OK_(virq_vpe_make_resident(&w->t.vpe, 0));
		}
		if (s == S_GONE)
			OK_(virq_vpe_destroy(&w->t.vpe));
		break;
	case T_QUEUE:
		if (s == S_BUSY) { /* the queue inside a live ITS */
			w->tp = &w->f.its[0].q;
			break;
		}
		OK_(virq_its_queue_init(&w->t.q, &hal, Q_BASE, 4096, NULL));
		virq_sim_its_enable(w->qm, true);
		if (s == S_GONE)
			OK_(virq_its_queue_fini(&w->t.q));
		break;
	default:
		break;
	}
}

typedef virq_status (*entry_fn)(struct world *w, void *t);

struct entry {
	const char *name;
	enum ty ty;
	enum ek kind;
	entry_fn fn;
};

#define W_ struct world *w, void *t
#define GIC_(t) ((struct virq_gic *)(t))
#define ITS_(t) ((struct virq_its *)(t))
#define DEV_(t) ((struct virq_its_device *)(t))
#define VM_(t) ((struct virq_gic_vm *)(t))
#define VPE_(t) ((struct virq_vpe *)(t))
#define Q_(t) ((struct virq_its_queue *)(t))

/* ---- GIC ---- */
static virq_status e_gic_init(W_)
{
	return virq_gic_init(GIC_(t), &w->f.g.hal, &w->f.g.desc, w->trds, FX_MAX_RD, 16);
}
static virq_status e_gic_destroy(W_)
{
	(void)w;
	return virq_gic_destroy(GIC_(t));
}
static virq_status e_dist_enable(W_)
{
	(void)w;
	return virq_gic_dist_enable(GIC_(t));
}
static virq_status e_find_rdist(W_)
{
	uint32_t i;
	(void)w;
	return virq_gic_find_rdist(GIC_(t), 0, &i);
}
static virq_status e_rdist_init(W_)
{
	(void)w;
	return virq_gic_rdist_init(GIC_(t), 1);
}
static virq_status e_lpi_alloc(W_)
{
	uint32_t x;
	virq_status st = virq_lpi_alloc(GIC_(t), 1, &x);
	(void)w;
	if (st == LIBVIRQ_OK)
		st = virq_lpi_free(GIC_(t), x, 1);
	return st;
}
static virq_status e_lpi_free(W_)
{
	(void)w;
	return virq_lpi_free(GIC_(t), 8192 + 4000, 1);
}
static virq_status e_lpi_set_config(W_)
{
	(void)w;
	return virq_lpi_set_config(GIC_(t), 8192 + 4000, 0xA0, true);
}
static virq_status e_its_probe(W_)
{
	struct virq_its_id id;
	return virq_its_probe(GIC_(t), &w->f.g.desc.its[1], &id);
}
static virq_status e_its_init_on(W_)
{
	return virq_its_init(&w->its2, GIC_(t), &w->f.g.desc.its[1], NULL);
}
static virq_status e_vm_init_on(W_)
{
	return virq_gic_vm_init(&w->vm2, GIC_(t), 16);
}
/* ---- ITS ---- */
static virq_status e_its_init(W_)
{
	return virq_its_init(ITS_(t), &w->f.g.gic, &w->f.g.desc.its[1], NULL);
}
static virq_status e_its_destroy(W_)
{
	(void)w;
	return virq_its_destroy(ITS_(t));
}
static virq_status e_map_collection(W_)
{
	(void)w;
	return virq_its_map_collection(ITS_(t), 0);
}
static virq_status e_device_map_on(W_)
{
	return virq_its_device_map(ITS_(t), &w->dev2, 3, 4);
}
/* ---- device ---- */
static virq_status e_device_map(W_)
{
	return virq_its_device_map(&w->f.its[0], DEV_(t), 2, 8);
}
static virq_status e_device_unmap(W_)
{
	(void)w;
	return virq_its_device_unmap(DEV_(t));
}
static virq_status e_map_lpi(W_)
{
	return virq_its_map_lpi(DEV_(t), 2, w->lpi[1], 0);
}
static virq_status e_unmap_event(W_)
{
	(void)w;
	return virq_its_unmap_event(DEV_(t), 0);
}
static virq_status e_unmap_range(W_)
{
	(void)w;
	return virq_its_unmap_range(DEV_(t), 0, 2);
}
static virq_status e_move_lpi(W_)
{
	(void)w;
	return virq_its_move_lpi(DEV_(t), 0, 1);
}
static virq_status e_int(W_)
{
	(void)w;
	return virq_its_int(DEV_(t), 0);
}
static virq_status e_clear(W_)
{
	(void)w;
	return virq_its_clear(DEV_(t), 1);
}
static virq_status e_inv(W_)
{
	(void)w;
	return virq_its_inv(DEV_(t), 1);
}
static virq_status e_event_get(W_)
{
	struct virq_its_event ev;
	(void)w;
	return virq_its_event_get(DEV_(t), 0, &ev);
}
static virq_status e_vlpi_map(W_)
{
	return virq_vlpi_map(DEV_(t), 3, &w->vpe, 9000, true);
}
static virq_status e_vlpi_map_config(W_)
{
	return virq_vlpi_map_config(DEV_(t), 5, &w->vpe, 9050, true, 0x40, false);
}
static virq_status e_vlpi_map_range(W_)
{
	return virq_vlpi_map_range(DEV_(t), 4, 2, &w->vpe, 9100, false);
}
static virq_status e_vlpi_unmap(W_)
{
	(void)w;
	return virq_vlpi_unmap(DEV_(t), 1);
}
static virq_status e_vlpi_unmap_range(W_)
{
	(void)w;
	return virq_vlpi_unmap_range(DEV_(t), 1, 1);
}
static virq_status e_vlpi_remap(W_)
{
	return virq_vlpi_remap(DEV_(t), 1, &w->vpe, 9200);
}
static virq_status e_vlpi_move(W_)
{
	return virq_vlpi_move(DEV_(t), 1, &w->vpe);
}
static virq_status e_vlpi_set_doorbell(W_)
{
	(void)w;
	return virq_vlpi_set_doorbell(DEV_(t), 1, false);
}
static virq_status e_vlpi_set_config(W_)
{
	(void)w;
	return virq_vlpi_set_config(DEV_(t), 1, 0x80, true);
}
/* ---- VM ---- */
static virq_status e_vm_init(W_)
{
	return virq_gic_vm_init(VM_(t), &w->f.g.gic, 16);
}
static virq_status e_vm_destroy(W_)
{
	(void)w;
	return virq_gic_vm_destroy(VM_(t));
}
static virq_status e_vm_vlpi_config(W_)
{
	(void)w;
	return virq_gic_vm_vlpi_config(VM_(t), 8192, 0xA0, true);
}
static virq_status e_vpe_init_in(W_)
{
	return virq_vpe_init(&w->vpe2, VM_(t), 1, LIBVIRQ_ITS_NO_DOORBELL);
}
/* ---- vPE ---- */
static virq_status e_vpe_init(W_)
{
	return virq_vpe_init(VPE_(t), &w->vm, 0, w->db[1]);
}
static virq_status e_vpe_destroy(W_)
{
	(void)w;
	return virq_vpe_destroy(VPE_(t));
}
static virq_status e_resident(W_)
{
	(void)w;
	return virq_vpe_make_resident(VPE_(t), 0);
}
static virq_status e_nonresident(W_)
{
	bool pl;
	(void)w;
	return virq_vpe_make_nonresident(VPE_(t), true, &pl);
}
static virq_status e_wfi_enter(W_)
{
	(void)w;
	return virq_vpe_wfi_enter(VPE_(t));
}
static virq_status e_wfi_exit(W_)
{
	(void)w;
	return virq_vpe_wfi_exit(VPE_(t));
}
static virq_status e_load(W_)
{
	(void)w;
	return virq_vpe_load(VPE_(t), 0);
}
static virq_status e_put(W_)
{
	bool pl;
	(void)w;
	return virq_vpe_put(VPE_(t), &pl);
}
static virq_status e_vpe_move(W_)
{
	(void)w;
	return virq_vpe_move(VPE_(t), 1);
}
static virq_status e_db_masking(W_)
{
	(void)w;
	return virq_vpe_set_db_masking(VPE_(t), true);
}
static virq_status e_vpe_invall(W_)
{
	(void)w;
	return virq_vpe_invall(VPE_(t));
}
static virq_status e_db_invalidate(W_)
{
	(void)w;
	return virq_vpe_doorbell_invalidate(VPE_(t));
}
static virq_status e_vsgi_config(W_)
{
	(void)w;
	return virq_vpe_vsgi_config(VPE_(t), 2, 0x80, true, true);
}
static virq_status e_vsgi_clear(W_)
{
	(void)w;
	return virq_vpe_vsgi_clear(VPE_(t), 2);
}
static virq_status e_vsgi_send(W_)
{
	(void)w;
	return virq_vpe_vsgi_send(VPE_(t), 2);
}
static virq_status e_vsgi_pending(W_)
{
	uint16_t p;
	(void)w;
	return virq_vpe_vsgi_pending(VPE_(t), &p);
}
static virq_status e_vlpi_map_to(W_)
{
	return virq_vlpi_map(&w->dev, 6, VPE_(t), 9300, true);
}
/* ---- queue ---- */
static virq_status e_q_init(W_)
{
	virq_status st = virq_its_queue_init(Q_(t), &w->f.g.hal, Q_BASE, 4096, NULL);
	if (st == LIBVIRQ_OK)
		virq_sim_its_enable(w->qm, true);
	return st;
}
static virq_status e_q_fini(W_)
{
	(void)w;
	return virq_its_queue_fini(Q_(t));
}
static virq_status e_q_publish(W_)
{
	uint64_t x;
	(void)w;
	return virq_its_queue_publish(Q_(t), &x);
}
static virq_status e_q_push(W_)
{
	struct virq_its_cmd c = virq_its_sync_cmd(0);
	(void)w;
	return virq_its_queue_push(Q_(t), &c, NULL, NULL, NULL);
}
static virq_status e_q_push_raw(W_)
{
	uint8_t raw[32] = {LIBVIRQ_ITS_SYNC};
	(void)w;
	return virq_its_queue_push_raw(Q_(t), raw);
}
static virq_status e_q_wait(W_)
{
	(void)w;
	return virq_its_queue_wait(Q_(t), 0, NULL);
}
static virq_status e_q_drain(W_)
{
	(void)w;
	return virq_its_queue_drain(Q_(t), NULL);
}
static virq_status e_q_submit(W_)
{
	struct virq_its_cmd c = virq_its_sync_cmd(0);
	(void)w;
	return virq_its_queue_submit(Q_(t), &c, NULL, NULL, NULL);
}
static virq_status e_q_stall_info(W_)
{
	struct virq_its_queue_diag d;
	(void)w;
	return virq_its_queue_stall_info(Q_(t), &d);
}
static virq_status e_q_retry(W_)
{
	(void)w;
	return virq_its_queue_retry(Q_(t));
}
static virq_status e_q_skip(W_)
{
	struct virq_its_cmd c = virq_its_sync_cmd(0);
	(void)w;
	return virq_its_queue_skip(Q_(t), &c, NULL);
}
static virq_status e_q_reset(W_)
{
	(void)w;
	return virq_its_queue_reset(Q_(t));
}
static virq_status e_q_capacity(W_)
{
	(void)w;
	return virq_its_queue_capacity(Q_(t)) ? LIBVIRQ_OK : LIBVIRQ_EINVAL;
}

#define E(t, k, f)                                                                                 \
	{                                                                                          \
#f, t, k, f                                                                        \
	}
static const struct entry entries_[] = {
    E(T_GIC, E_INIT, e_gic_init),
    E(T_GIC, E_DESTROY, e_gic_destroy),
    E(T_GIC, E_OTHER, e_dist_enable),
    E(T_GIC, E_OTHER, e_find_rdist),
    E(T_GIC, E_OTHER, e_rdist_init),
    E(T_GIC, E_OTHER, e_lpi_alloc),
    E(T_GIC, E_OTHER, e_lpi_free),
    E(T_GIC, E_OTHER, e_lpi_set_config),
    E(T_GIC, E_OTHER, e_its_probe),
    E(T_GIC, E_OTHER, e_its_init_on),
    E(T_GIC, E_OTHER, e_vm_init_on),
    E(T_ITS, E_INIT, e_its_init),
    E(T_ITS, E_DESTROY, e_its_destroy),
    E(T_ITS, E_OTHER, e_map_collection),
    E(T_ITS, E_OTHER, e_device_map_on),
    E(T_DEV, E_INIT, e_device_map),
    E(T_DEV, E_DESTROY, e_device_unmap),
    E(T_DEV, E_OTHER, e_map_lpi),
    E(T_DEV, E_OTHER, e_unmap_event),
    E(T_DEV, E_OTHER, e_unmap_range),
    E(T_DEV, E_OTHER, e_move_lpi),
    E(T_DEV, E_OTHER, e_int),
    E(T_DEV, E_OTHER, e_clear),
    E(T_DEV, E_OTHER, e_inv),
    E(T_DEV, E_OTHER, e_event_get),
    E(T_DEV, E_OTHER, e_vlpi_map),
    E(T_DEV, E_OTHER, e_vlpi_map_config),
    E(T_DEV, E_OTHER, e_vlpi_map_range),
    E(T_DEV, E_OTHER, e_vlpi_unmap),
    E(T_DEV, E_OTHER, e_vlpi_unmap_range),
    E(T_DEV, E_OTHER, e_vlpi_remap),
    E(T_DEV, E_OTHER, e_vlpi_move),
    E(T_DEV, E_OTHER, e_vlpi_set_doorbell),
    E(T_DEV, E_OTHER, e_vlpi_set_config),
    E(T_VM, E_INIT, e_vm_init),
    E(T_VM, E_DESTROY, e_vm_destroy),
    E(T_VM, E_OTHER, e_vm_vlpi_config),
    E(T_VM, E_OTHER, e_vpe_init_in),
    E(T_VPE, E_INIT, e_vpe_init),
    E(T_VPE, E_DESTROY, e_vpe_destroy),
    E(T_VPE, E_OTHER, e_resident),
    E(T_VPE, E_OTHER, e_nonresident),
    E(T_VPE, E_OTHER, e_wfi_enter),
    E(T_VPE, E_OTHER, e_wfi_exit),
    E(T_VPE, E_OTHER, e_load),
    E(T_VPE, E_OTHER, e_put),
    E(T_VPE, E_OTHER, e_vpe_move),
    E(T_VPE, E_OTHER, e_db_masking),
    E(T_VPE, E_OTHER, e_db_invalidate),
    E(T_VPE, E_OTHER, e_vpe_invall),
    E(T_VPE, E_OTHER, e_vsgi_config),
    E(T_VPE, E_OTHER, e_vsgi_clear),
    E(T_VPE, E_OTHER, e_vsgi_send),
    E(T_VPE, E_OTHER, e_vsgi_pending),
    E(T_VPE, E_OTHER, e_vlpi_map_to),
    E(T_QUEUE, E_INIT, e_q_init),
    E(T_QUEUE, E_DESTROY, e_q_fini),
    E(T_QUEUE, E_OTHER, e_q_publish),
    E(T_QUEUE, E_OTHER, e_q_push),
    E(T_QUEUE, E_OTHER, e_q_push_raw),
    E(T_QUEUE, E_OTHER, e_q_wait),
    E(T_QUEUE, E_OTHER, e_q_drain),
    E(T_QUEUE, E_OTHER, e_q_submit),
    E(T_QUEUE, E_OTHER, e_q_stall_info),
    E(T_QUEUE, E_OTHER, e_q_retry),
    E(T_QUEUE, E_OTHER, e_q_skip),
    E(T_QUEUE, E_OTHER, e_q_reset),
    E(T_QUEUE, E_OTHER, e_q_capacity),
};

static void check_(const struct entry *e, enum sstate s, virq_status st)
{
	bool live = s == S_LIVE || s == S_BUSY;

	if (st > 0 || st <= -LIBVIRQ_STATUS_COUNT)
		fail_msg("%s on a %s object: not a status (%d)", e->name, sname_[s], (int)st);
	if (!live && (e->kind != E_INIT || s == S_NULL) && st != LIBVIRQ_EINVAL)
		fail_msg("%s on a %s object: %s, documented EINVAL", e->name, sname_[s],
			 virq_status_name(st));
	if (live && e->kind == E_INIT && st != LIBVIRQ_EBUSY)
		fail_msg("%s on a %s object (double init): %s, documented EBUSY", e->name,
			 sname_[s], virq_status_name(st));
	if (s == S_BUSY && e->kind == E_DESTROY && st != LIBVIRQ_EBUSY)
		fail_msg("%s on a busy object: %s, documented EBUSY", e->name,
			 virq_status_name(st));
	if (s == S_LIVE && e->kind == E_DESTROY && st != LIBVIRQ_OK)
		fail_msg("%s on a live, unused object: %s", e->name, virq_status_name(st));
}

static void sweep_(int version)
{
	unsigned long n = 0;

	for (size_t i = 0; i < sizeof(entries_) / sizeof(entries_[0]); i++) {
		const struct entry *e = &entries_[i];

		for (int s = 0; s < S_COUNT; s++) {
			struct world *w = calloc(1, sizeof(*w));
			virq_status st;

			assert_non_null(w);
			world_up_(w, version);
			target_(w, e->ty, (enum sstate)s);
			st = e->fn(w, w->tp);
			check_(e, (enum sstate)s, st);
			world_down_(w, e->ty);
			free(w);
			n++;
		}
	}
	SWEEP_REPORT(version == 41 ? "gicv4 misuse (GICv4.1): entry points x lifecycle states"
				   : "gicv4 misuse (GICv4.0): entry points x lifecycle states",
		     n);
}

static void test_misuse_v40(void **state)
{
	(void)state;
	sweep_(40);
}

static void test_misuse_v41(void **state)
{
	(void)state;
	sweep_(41);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_misuse_v40),
	    cmocka_unit_test(test_misuse_v41),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
