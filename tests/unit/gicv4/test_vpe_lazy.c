/* SPDX-License-Identifier: MIT */
/*
 * Lazy per-ITS vPE mapping (docs/gicv4-core.md "Lazy mapping"): a vPE is
 * mapped (VMAPP + VINVALL + VSYNC) on a GICv4.0 ITS at its first vLPI there;
 * moves and invalidations go only to the ITSes that map it, with the
 * ITSList of those ITSes when GITS_TYPER.VMOVP = 0. Checked against the ITS
 * state models with 1 to 16 ITSes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <libvirq/gicv4.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/its.h>
#include <libvirq/sim/its_state.h>

#define NITS 16
#define NRD 4
#define NEV 8
#define TYPER_40 LIBVIRQ_SIM_GITS_TYPER_QEMU_V40
#define TYPER_40_NOVMOVP (TYPER_40 & ~(1ull << 37))
#define TYPER_41 (TYPER_40 | (1ull << 40) | (1ull << 41))
#define NOB LIBVIRQ_ITS_NO_DOORBELL

struct env {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_sim_gic *sg;
	struct virq_sim_its_state *sm[NITS];
	unsigned nits;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[NRD];
	struct virq_its its[NITS];
	struct virq_its_device dev[NITS];
	struct virq_gic_vm vm;
	struct virq_vpe vpe[2];
};

/* @n ITSes with GITS_TYPER @typer, a device of NEV events on each, every
 * collection mapped, a VM and vPE 0 (no doorbell) on RD 0. */
static void up_(struct env *e, unsigned n, uint64_t typer, int version, bool eager)
{
	struct virq_sim_gic_cfg gc = virq_sim_gic_default_cfg();
	struct virq_its_cfg cfg;

	memset(e, 0, sizeof(*e));
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	cfg.eager_vpes = eager;
	e->sim = virq_sim_new();
	e->hal = virq_sim_hal(e->sim);
	gc.rdist.version = version;
	gc.rdist.nr = NRD;
	gc.nr_its = n;
	gc.its.typer = typer;
	e->sg = virq_sim_gic_new(e->sim, &gc, &e->desc);
	e->nits = n;
	assert_int_equal(virq_gic_init(&e->gic, &e->hal, &e->desc, e->rds, NRD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_dist_enable(&e->gic), LIBVIRQ_OK);
	for (uint32_t r = 0; r < NRD; r++)
		assert_int_equal(virq_gic_rdist_init(&e->gic, r), LIBVIRQ_OK);
	for (unsigned i = 0; i < n; i++) {
		e->sm[i] = virq_sim_gic_its(e->sg, i);
		assert_int_equal(virq_its_init(&e->its[i], &e->gic, &e->desc.its[i], &cfg),
				 LIBVIRQ_OK);
		for (uint32_t r = 0; r < NRD; r++)
			assert_int_equal(virq_its_map_collection(&e->its[i], r), LIBVIRQ_OK);
		assert_int_equal(virq_its_device_map(&e->its[i], &e->dev[i], i + 1, NEV),
				 LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_init(&e->vm, &e->gic, 16), LIBVIRQ_OK);
	for (unsigned i = 0; i < n; i++)
		virq_sim_its_clear_log(virq_sim_its_state_queue(e->sm[i]));
	assert_int_equal(virq_vpe_init(&e->vpe[0], &e->vm, 0, NOB), LIBVIRQ_OK);
}

static void down_(struct env *e)
{
	for (unsigned i = 0; i < e->nits; i++) {
		if (virq_sim_its_state_errors(e->sm[i]))
			fail_msg("ITS %u model error: %s", i,
				 virq_sim_its_state_last_error(e->sm[i]));
		assert_int_equal(virq_its_device_unmap(&e->dev[i]), LIBVIRQ_OK);
	}
	for (unsigned v = 0; v < 2; v++)
		if (e->vpe[v].state == LIBVIRQ_GICV4_LIVE)
			assert_int_equal(virq_vpe_destroy(&e->vpe[v]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&e->vm), LIBVIRQ_OK);
	for (unsigned i = 0; i < e->nits; i++)
		assert_int_equal(virq_its_destroy(&e->its[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&e->gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(e->sim), 0);
	virq_sim_free(e->sim);
	virq_sim_gic_free(e->sg);
}

static struct virq_sim_its *q_(struct env *e, unsigned i)
{
	return virq_sim_its_state_queue(e->sm[i]);
}

static void clear_(struct env *e)
{
	for (unsigned i = 0; i < e->nits; i++)
		virq_sim_its_clear_log(q_(e, i));
}

/* ITS @i's model maps vPE @v at the RDbase of redistributor @rd (the RDbase
 * of collection @rd, mapped on every ITS), or does not map it (@rd < 0). */
static void model_vpe_(struct env *e, unsigned i, const struct virq_vpe *v, int rd)
{
	uint64_t rdb = 0, crdb = 0;
	bool mapped = virq_sim_its_state_vpe(e->sm[i], v->vpeid, &rdb, NULL);

	if (rd < 0) {
		if (mapped)
			fail_msg("ITS %u maps vPE %u, which has no vLPI there", i, v->vpeid);
		return;
	}
	if (!mapped)
		fail_msg("ITS %u does not map vPE %u", i, v->vpeid);
	assert_true(virq_sim_its_state_col(e->sm[i], (uint32_t)rd, &crdb));
	if (rdb != crdb)
		fail_msg("ITS %u targets vPE %u at %llx, not rd %d (%llx)", i, v->vpeid,
			 (unsigned long long)rdb, rd, (unsigned long long)crdb);
}

/* The first vLPI on an ITS finds its vPE mapped there, at its current
 * target: VMAPP + VINVALL + VSYNC before the VMAPTI, on that ITS only; the
 * next vLPI there adds no VMAPP. */
static void test_first_vlpi_maps_vpe(void **state)
{
	struct env e;
	const struct virq_sim_its_cmd *c;

	(void)state;
	up_(&e, 4, TYPER_40_NOVMOVP, 40, false);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(virq_sim_its_ncmds(q_(&e, i)), 0);
		model_vpe_(&e, i, &e.vpe[0], -1);
	}
	assert_int_equal(e.vpe[0].its_mask, 0);
	assert_int_equal(virq_vlpi_map(&e.dev[2], 0, &e.vpe[0], 8192, false), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q_(&e, 2)), 5);
	c = virq_sim_its_cmd_at(q_(&e, 2), 0);
	assert_int_equal(c->op, 0x29); /* VMAPP */
	assert_true(c->valid);
	assert_int_equal(c->vpe, e.vpe[0].vpeid);
	assert_int_equal(c->vpt, e.vpe[0].vpt.pa);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 2), 1)->op, 0x2D); /* VINVALL */
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 2), 2)->op, 0x25); /* VSYNC */
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 2), 3)->op, 0x2A); /* VMAPTI */
	for (unsigned i = 0; i < 4; i++) {
		if (i != 2)
			assert_int_equal(virq_sim_its_ncmds(q_(&e, i)), 0);
		model_vpe_(&e, i, &e.vpe[0], i == 2 ? 0 : -1);
	}
	assert_int_equal(virq_sim_its_state_lookup(e.sm[2], 3, 0).kind, LIBVIRQ_SIM_ITS_EV_VIRT);
	clear_(&e);
	assert_int_equal(virq_vlpi_map(&e.dev[2], 1, &e.vpe[0], 8193, false), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q_(&e, 2)), 2); /* VMAPTI + VSYNC */
	/* After a move, a ranged map on another ITS maps the vPE at the new
	 * target. */
	assert_int_equal(virq_vpe_move(&e.vpe[0], 3), LIBVIRQ_OK);
	clear_(&e);
	assert_int_equal(virq_vlpi_map_range(&e.dev[1], 0, 4, &e.vpe[0], 8200, false), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 1), 0)->op, 0x29);
	assert_int_equal(virq_sim_its_ncmds(q_(&e, 1)), 3 + 4 + 1);
	model_vpe_(&e, 1, &e.vpe[0], 3);
	model_vpe_(&e, 2, &e.vpe[0], 3);
	model_vpe_(&e, 0, &e.vpe[0], -1);
	assert_int_equal(e.its[1].nr_vpes, 1);
	assert_int_equal(e.its[0].nr_vpes, 0);
	assert_int_equal(virq_vlpi_unmap_range(&e.dev[1], 0, 4), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap_range(&e.dev[2], 0, 2), LIBVIRQ_OK);
	/* The teardown unmaps it where it was mapped only. */
	clear_(&e);
	assert_int_equal(virq_vpe_destroy(&e.vpe[0]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q_(&e, 0)) + virq_sim_its_ncmds(q_(&e, 3)), 0);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 1), 0)->op, 0x29);
	assert_false(virq_sim_its_cmd_at(q_(&e, 1), 0)->valid);
	for (unsigned i = 0; i < 4; i++)
		model_vpe_(&e, i, &e.vpe[0], -1);
	down_(&e);
}

/* A vLPI moved (VMOVI) to another vPE of the VM maps that vPE on the ITS
 * first; a remap to it likewise. */
static void test_vlpi_move_maps_target(void **state)
{
	struct env e;

	(void)state;
	up_(&e, 2, TYPER_40_NOVMOVP, 40, false);
	assert_int_equal(virq_vpe_init(&e.vpe[1], &e.vm, 1, NOB), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&e.dev[1], 0, &e.vpe[0], 8192, false), LIBVIRQ_OK);
	clear_(&e);
	assert_int_equal(virq_vlpi_move(&e.dev[1], 0, &e.vpe[1]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 1), 0)->op, 0x29);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 1), 0)->vpe, e.vpe[1].vpeid);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 1), 3)->op, 0x21); /* VMOVI */
	model_vpe_(&e, 1, &e.vpe[1], 1);
	model_vpe_(&e, 0, &e.vpe[1], -1);
	assert_int_equal(virq_sim_its_state_lookup(e.sm[1], 2, 0).vpe, e.vpe[1].vpeid);
	/* Remap to vPE 1 on ITS 0, where neither is mapped. */
	assert_int_equal(virq_vlpi_map(&e.dev[0], 0, &e.vpe[0], 8193, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_remap(&e.dev[0], 0, &e.vpe[1], 8194), LIBVIRQ_OK);
	model_vpe_(&e, 0, &e.vpe[1], 1);
	assert_int_equal(virq_sim_its_state_lookup(e.sm[0], 1, 0).vpe, e.vpe[1].vpeid);
	assert_int_equal(virq_vlpi_unmap(&e.dev[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap(&e.dev[1], 0), LIBVIRQ_OK);
	down_(&e);
}

/* VINVALL: nothing to do for a vPE that no ITS maps (no vLPI of it was ever
 * mapped, so nothing of it is cached); otherwise to an ITS that maps it. */
static void test_invall_only_where_mapped(void **state)
{
	struct env e;

	(void)state;
	up_(&e, 3, TYPER_40, 40, false);
	assert_int_equal(virq_vpe_invall(&e.vpe[0]), LIBVIRQ_OK);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(virq_sim_its_ncmds(q_(&e, i)), 0);
	assert_int_equal(virq_vlpi_map(&e.dev[2], 0, &e.vpe[0], 8192, false), LIBVIRQ_OK);
	clear_(&e);
	assert_int_equal(virq_vpe_invall(&e.vpe[0]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q_(&e, 0)) + virq_sim_its_ncmds(q_(&e, 1)), 0);
	assert_int_equal(virq_sim_its_ncmds(q_(&e, 2)), 2);
	assert_int_equal(virq_sim_its_cmd_at(q_(&e, 2), 0)->op, 0x2D);
	assert_int_equal(virq_vlpi_unmap(&e.dev[2], 0), LIBVIRQ_OK);
	down_(&e);
}

/* A move of a vPE mapped nowhere sends nothing; its first vLPI then maps it
 * at the new target. */
static void test_move_unmapped_vpe(void **state)
{
	struct env e;

	(void)state;
	up_(&e, 16, TYPER_40_NOVMOVP, 40, false);
	assert_int_equal(virq_vpe_move(&e.vpe[0], 2), LIBVIRQ_OK);
	assert_int_equal(e.vpe[0].rd, 2);
	assert_false(e.vpe[0].flags & LIBVIRQ_VPE_MOVE_PENDING);
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(virq_sim_its_ncmds(q_(&e, i)), 0);
	assert_int_equal(virq_vlpi_map(&e.dev[9], 0, &e.vpe[0], 8192, false), LIBVIRQ_OK);
	model_vpe_(&e, 9, &e.vpe[0], 2);
	assert_int_equal(virq_vlpi_unmap(&e.dev[9], 0), LIBVIRQ_OK);
	down_(&e);
}

/* Eager mapping: GICv4.1 always (the VMAPP fills the vPE table residency
 * reads), GICv4.0 with virq_its_cfg::eager_vpes. */
static void test_eager(void **state)
{
	struct env e;

	(void)state;
	up_(&e, 2, TYPER_41, 41, false);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(virq_sim_its_cmd_at(q_(&e, i), 0)->op, 0x29);
		model_vpe_(&e, i, &e.vpe[0], 0);
	}
	assert_int_equal(e.vpe[0].its_mask, 3);
	down_(&e);
	up_(&e, 16, TYPER_40_NOVMOVP, 40, true);
	for (unsigned i = 0; i < 16; i++) {
		assert_int_equal(virq_sim_its_ncmds(q_(&e, i)), 3);
		model_vpe_(&e, i, &e.vpe[0], 0);
	}
	down_(&e);
}

/* Unmaps every vLPI of device @d (events not mapped are skipped). */
static void unmap_all_(struct virq_its_device *d)
{
	for (uint32_t ev = 0; ev < NEV; ev++) {
		virq_status st = virq_vlpi_unmap(d, ev);

		if (st != LIBVIRQ_ENOENT)
			assert_int_equal(st, LIBVIRQ_OK);
	}
}

static uint32_t rnd_(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* After a move: every ITS that maps the vPE got VMOVP + VSYNC (ITSList: the
 * ITS numbers of exactly those, one SequenceNumber; GITS_TYPER.VMOVP = 1:
 * one of them only) and targets the new RD; every other ITS got nothing
 * and does not map it. */
static void check_move_(struct env *e, uint32_t held, bool vmovp, bool moved)
{
	uint32_t list = 0, seq = 0, sent = 0;
	bool first = true;

	for (unsigned i = 0; i < e->nits; i++)
		if (held & (1u << i))
			list |= 1u << e->its[i].its_number;
	for (unsigned i = 0; i < e->nits; i++) {
		size_t n = virq_sim_its_ncmds(q_(e, i));
		const struct virq_sim_its_cmd *c;

		/* GITS_TYPER.VMOVP = 1: the ITSes that did not get the VMOVP learn
		 * the target from the one that did, which the models do not model:
		 * those only map the vPE. */
		if (vmovp && n == 0 && (held & (1u << i)))
			assert_true(virq_sim_its_state_vpe(e->sm[i], e->vpe[0].vpeid, NULL, NULL));
		else
			model_vpe_(e, i, &e->vpe[0], held & (1u << i) ? (int)e->vpe[0].rd : -1);
		if (!moved || !(held & (1u << i))) {
			assert_int_equal(n, 0);
			continue;
		}
		if (vmovp && n == 0)
			continue;
		assert_int_equal(n, 2);
		sent |= 1u << i;
		c = virq_sim_its_cmd_at(q_(e, i), 0);
		assert_int_equal(c->op, 0x22);
		assert_int_equal(virq_sim_its_cmd_at(q_(e, i), 1)->op, 0x25);
		if (vmovp)
			continue;
		assert_int_equal(c->itslist, list);
		if (!first)
			assert_int_equal(c->seq, seq);
		seq = c->seq;
		first = false;
	}
	if (!moved || !held)
		assert_int_equal(sent, 0);
	else if (vmovp)
		assert_int_equal(__builtin_popcount(sent), 1);
	else
		assert_int_equal(sent, held);
}

/* Differential, 1 to 16 ITSes, GITS_TYPER.VMOVP 0 and 1: vLPIs mapped on a
 * random growing set of ITSes, moves between them, the last vLPI on an ITS
 * unmapped (the mapping stays, so the ITS keeps following the moves). */
static void test_moves_follow_vlpis(void **state)
{
	uint32_t seed = 7;

	(void)state;
	for (unsigned n = 1; n <= NITS; n++) {
		for (int vm = 0; vm < 2; vm++) {
			struct env e;
			uint32_t held = 0;

			up_(&e, n, vm ? TYPER_40 : TYPER_40_NOVMOVP, 40, false);
			for (unsigned step = 0; step < 24; step++) {
				unsigned i = rnd_(&seed) % n, ev = rnd_(&seed) % NEV;
				uint32_t k = rnd_(&seed) % 3, to = rnd_(&seed) % NRD;
				uint32_t from = e.vpe[0].rd;

				if (k == 0) {
					/* a vLPI on ITS i (maybe its first there) */
					virq_status st = virq_vlpi_map(&e.dev[i], ev, &e.vpe[0],
								       8192 + i * NEV + ev, false);

					if (st != LIBVIRQ_OK)
						assert_int_equal(st, LIBVIRQ_EEXIST);
					else if (!(held & (1u << i)))
						model_vpe_(&e, i, &e.vpe[0], (int)e.vpe[0].rd);
					held |= 1u << i;
				} else if (k == 1) {
					/* unmap every vLPI of ITS i: the mapping stays */
					unmap_all_(&e.dev[i]);
				}
				clear_(&e);
				assert_int_equal(virq_vpe_move(&e.vpe[0], to), LIBVIRQ_OK);
				assert_int_equal(e.vpe[0].rd, to);
				/* the same target: nothing sent */
				check_move_(&e, held, vm != 0, to != from);
				assert_int_equal(e.vpe[0].its_mask, held);
			}
			for (unsigned i = 0; i < n; i++)
				unmap_all_(&e.dev[i]);
			down_(&e);
		}
	}
}

/* virq_vlpi_set_doorbell(): the VMOVI ran and the VSYNC after it stalled:
 * the tracking holds the doorbell the ITS now has (before the fix it kept
 * the old one, and the SMP world's fuzzer found the model disagreeing). */
static void test_set_doorbell_vsync_stalled(void **state)
{
	struct env e;
	struct virq_its_event ev;
	uint32_t db;

	(void)state;
	up_(&e, 1, TYPER_40, 40, false);
	assert_int_equal(virq_lpi_alloc(&e.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&e.vpe[1], &e.vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&e.dev[0], 0, &e.vpe[1], 8192, true), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(e.sm[0], 1, 0).db, db);
	virq_sim_its_stall_opcode(q_(&e, 0), 0x25); /* VSYNC */
	assert_int_not_equal(virq_vlpi_set_doorbell(&e.dev[0], 0, false), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(q_(&e, 0), -1);
	assert_int_equal(virq_sim_its_state_lookup(e.sm[0], 1, 0).db, 1023);
	assert_int_equal(virq_its_event_get(&e.dev[0], 0, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.db, NOB);
	assert_int_equal(virq_vlpi_unmap(&e.dev[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&e.vpe[1]), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&e.gic, db, 1), LIBVIRQ_OK);
	down_(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_first_vlpi_maps_vpe),
	    cmocka_unit_test(test_vlpi_move_maps_target),
	    cmocka_unit_test(test_invall_only_where_mapped),
	    cmocka_unit_test(test_move_unmapped_vpe),
	    cmocka_unit_test(test_eager),
	    cmocka_unit_test(test_moves_follow_vlpis),
	    cmocka_unit_test(test_set_doorbell_vsync_stalled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
