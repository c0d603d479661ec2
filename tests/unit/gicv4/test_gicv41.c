/* SPDX-License-Identifier: MIT */
/*
 * GICv4.1 completed: direct vSGIs (VSGI command, GITS_SGIR, GICR_VSGIR /
 * GICR_VSGIPENDR with its Busy wait, the race with VMOVP, an ITS region
 * without the vSGI frame), vPE tables by affinity (GICR_TYPER.CommonLPIAff,
 * GITS_TYPER.SVPET + GITS_MPIDR, a table per group where nothing is
 * shared), and VMOVP kept when the redistributors share a vPE table.
 * QEMU 7.2 has no GICv4.1: these paths are checked against the sim models
 * only (docs/gicv4-core.md).
 */
#include "its_fixture.h"

#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40))
#define TYPER_VSGI (1ull << 39)
#define SVPET(n) ((uint64_t)(n) << 41)
/* Away from the redistributors, so that a third 64 KiB frame fits. */
#define V41_ITS_BASE 0x20000000ull
/* The tests create their 4.1 ITS models themselves, 1 MiB apart (room for
 * the vSGI frame at ITS_base + 0x20000), and free them after the fixture. */
#define V41_ITS_STRIDE 0x100000ull

struct v41 {
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe[4];
	uint32_t db[4];
	unsigned nvpe;
};

/* @aff: Affinity_Value of each RD (NULL: Aff0 = index); @mpidr per ITS. */
static void v41_setup(struct v41 *t, unsigned nr_rd, int cla, const uint32_t *aff, unsigned nits,
		      uint64_t typer, const uint32_t *mpidr, uint64_t its_size, unsigned nvpe)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx *f = &t->f;

	memset(t, 0, sizeof(*t));
	rc.version = 41;
	rc.nr = nr_rd;
	rc.common_lpi_aff = cla;
	fx_setup(&f->g, &rc);
	for (unsigned r = 0; aff && r < nr_rd; r++)
		virq_sim_rdist_set_typer_aff(f->g.rm, r, aff[r]);
	f->nits = nits;
	f->g.desc.nr_its = nits;
	for (unsigned i = 0; i < nits; i++) {
		struct virq_sim_its_state_cfg c = virq_sim_its_state_default_cfg(0);

		c.base = V41_ITS_BASE + i * V41_ITS_STRIDE; /* room for the vSGI frame */
		c.rm = f->g.rm;
		c.typer = typer;
		c.mpidr = mpidr ? mpidr[i] : 0;
		c.vsgi_frame = its_size >= 0x30000;
		f->sm[i] = virq_sim_its_state_new(f->g.sim, &c);
		f->g.desc.its[i].base = c.base;
		f->g.desc.its[i].size = its_size;
	}
	assert_int_equal(virq_gic_init(&f->g.gic, &f->g.hal, &f->g.desc, f->g.rds, FX_MAX_RD, 16),
			 LIBVIRQ_OK);
	assert_int_equal(virq_gic_dist_enable(&f->g.gic), LIBVIRQ_OK);
	for (unsigned r = 0; r < f->g.gic.nr_rd; r++)
		assert_int_equal(virq_gic_rdist_init(&f->g.gic, r), LIBVIRQ_OK);
	for (unsigned i = 0; i < nits; i++) {
		assert_int_equal(virq_its_init(&f->its[i], &f->g.gic, &f->g.desc.its[i], NULL),
				 LIBVIRQ_OK);
		for (unsigned r = 0; r < f->g.gic.nr_rd; r++)
			assert_int_equal(virq_its_map_collection(&f->its[i], r), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_init(&t->vm, &f->g.gic, 14), LIBVIRQ_OK);
	t->nvpe = nvpe;
	for (unsigned i = 0; i < nvpe; i++) {
		assert_int_equal(virq_lpi_alloc(&f->g.gic, 1, &t->db[i]), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&t->vpe[i], &t->vm, i % nr_rd, t->db[i]),
				 LIBVIRQ_OK);
	}
}

static void v41_teardown(struct v41 *t)
{
	for (unsigned i = 0; i < t->nvpe; i++) {
		assert_int_equal(virq_vpe_destroy(&t->vpe[i]), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_free(&t->f.g.gic, t->db[i], 1), LIBVIRQ_OK);
	}
	assert_int_equal(virq_gic_vm_destroy(&t->vm), LIBVIRQ_OK);
	itsfx_no_errors(&t->f);
	assert_int_equal(virq_sim_rdist_vsgi_wrong_rd(t->f.g.rm), 0);
	itsfx_teardown(&t->f, true);
	for (unsigned i = 0; i < t->f.nits; i++)
		virq_sim_its_state_free(t->f.sm[i]);
}

static uint64_t vprop_pa_(const struct v41 *t, unsigned rd)
{
	return virq_sim_rdist_vpropbaser(t->f.g.rm, rd) & 0x000FFFFFFFFFF000ull;
}

/* ---------------- vSGIs ---------------- */

static void test_sgir_encoder_rejects_wide_fields(void **state)
{
	uint64_t v = 0x1234;

	(void)state;
	assert_int_equal(virq_gits_sgir_encode(0xABCD, 15, &v), LIBVIRQ_OK);
	assert_int_equal(v, (0xABCDull << 32) | 15);
	/* 16 would be vSGI 0 if masked: refused, nothing written. */
	v = 0x1234;
	assert_int_equal(virq_gits_sgir_encode(1, 16, &v), LIBVIRQ_ERANGE);
	assert_int_equal(virq_gits_sgir_encode(0x10000, 0, &v), LIBVIRQ_ERANGE);
	assert_int_equal(v, 0x1234);
	assert_int_equal(virq_gits_sgir_encode(1, 1, NULL), LIBVIRQ_EINVAL);
}

static void test_vsgi_config_send_read_clear(void **state)
{
	struct v41 t;
	struct virq_sim_its *q;
	uint32_t prio;
	bool grp, en;
	uint16_t pend = 0xFFFF;

	(void)state;
	v41_setup(&t, 2, 1, NULL, 1, TYPER_41 | TYPER_VSGI | SVPET(1), NULL, 0x40000, 1);
	assert_true(t.f.its[0].direct_vsgi);
	q = virq_sim_its_state_queue(t.f.sm[0]);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_vsgi_config(&t.vpe[0], 5, 0xA0, true, true), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 2);
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x23);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x25);
	assert_true(virq_sim_rdist_vsgi_config(t.f.g.rm, t.vpe[0].vpeid, 5, &prio, &grp, &en));
	assert_int_equal(prio, 0xA0);
	assert_true(grp);
	assert_true(en);
	assert_int_equal(virq_vpe_vsgi_config(&t.vpe[0], 16, 0xA0, true, true), LIBVIRQ_ERANGE);
	assert_int_equal(virq_vpe_vsgi_config(&t.vpe[0], 1, 0xA8, true, true), LIBVIRQ_EALIGN);
	/* Send: one 64-bit GITS_SGIR write. */
	virq_sim_reset_counters(t.f.g.sim);
	assert_int_equal(virq_vpe_vsgi_send(&t.vpe[0], 5), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_vsgi_send(&t.vpe[0], 16), LIBVIRQ_ERANGE);
	assert_int_equal(virq_sim_mmio_total(t.f.g.sim), 1);
	assert_int_equal(
	    virq_sim_count_at(t.f.g.sim, LIBVIRQ_SIM_MMIO_W64, V41_ITS_BASE + LIBVIRQ_GITS_SGIR),
	    1);
	assert_int_equal(virq_sim_its_state_sgir_writes(t.f.sm[0]), 1);
	/* Read at the vPE's redistributor: VSGIR write, VSGIPENDR read. */
	virq_sim_reset_counters(t.f.g.sim);
	assert_int_equal(virq_vpe_vsgi_pending(&t.vpe[0], &pend), LIBVIRQ_OK);
	assert_int_equal(pend, 1u << 5);
	assert_int_equal(virq_sim_mmio_total(t.f.g.sim), 2);
	assert_int_equal(virq_sim_rdist_vsgi_queries(t.f.g.rm, t.vpe[0].rd), 1);
	/* Clear leaves the configuration. */
	assert_int_equal(virq_vpe_vsgi_clear(&t.vpe[0], 5), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_vsgi_pending(&t.vpe[0], &pend), LIBVIRQ_OK);
	assert_int_equal(pend, 0);
	assert_true(virq_sim_rdist_vsgi_config(t.f.g.rm, t.vpe[0].vpeid, 5, &prio, &grp, &en));
	assert_true(en);
	v41_teardown(&t);
}

/* Busy: exactly polls + 1 reads; a Busy that never clears is bounded. */
static void test_vsgi_pending_busy_wait(void **state)
{
	struct v41 t;
	uint16_t pend = 0x5A5A;

	(void)state;
	v41_setup(&t, 1, 1, NULL, 1, TYPER_41 | TYPER_VSGI | SVPET(1), NULL, 0x40000, 1);
	virq_sim_rdist_set_vsgi_busy_polls(t.f.g.rm, 3);
	virq_sim_reset_counters(t.f.g.sim);
	assert_int_equal(virq_vpe_vsgi_pending(&t.vpe[0], &pend), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count(t.f.g.sim, LIBVIRQ_SIM_MMIO_R32), 4);
	virq_sim_rdist_set_vsgi_busy_polls(t.f.g.rm, LIBVIRQ_SIM_RDIST_NEVER);
	pend = 0x5A5A;
	assert_int_equal(virq_vpe_vsgi_pending(&t.vpe[0], &pend), LIBVIRQ_ETIMEDOUT);
	assert_int_equal(pend, 0x5A5A);
	virq_sim_rdist_set_vsgi_busy_polls(t.f.g.rm, 0);
	v41_teardown(&t);
}

/* The read and VMOVP: refused while a move is half-done (the state may
 * still be at the old RD); after the move the new RD holds it and is the
 * one asked (never the old one: wrong-RD reads stay 0). */
static void test_vsgi_pending_races_vmovp(void **state)
{
	struct v41 t;
	uint16_t pend = 0;

	(void)state;
	v41_setup(&t, 2, 1, NULL, 2, (TYPER_41 | TYPER_VSGI | SVPET(1)) & ~(1ull << 37), NULL,
		  0x40000, 1);
	assert_int_equal(virq_vpe_vsgi_send(&t.vpe[0], 3), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(t.f.sm[1]), 0x22);
	assert_int_equal(virq_vpe_move(&t.vpe[0], 1), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(t.f.sm[1]), -1);
	assert_true(t.vpe[0].flags & LIBVIRQ_VPE_MOVE_PENDING);
	virq_sim_reset_counters(t.f.g.sim);
	assert_int_equal(virq_vpe_vsgi_pending(&t.vpe[0], &pend), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_mmio_total(t.f.g.sim), 0);
	assert_int_equal(virq_vpe_move(&t.vpe[0], 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_vsgi_pending(&t.vpe[0], &pend), LIBVIRQ_OK);
	assert_int_equal(pend, 1u << 3);
	assert_int_equal(virq_sim_rdist_vsgi_queries(t.f.g.rm, 1), 1);
	assert_int_equal(virq_sim_rdist_vsgi_queries(t.f.g.rm, 0), 0);
	v41_teardown(&t);
}

/* An ITS described with a 0x20000-byte region has no GITS_SGIR: no direct
 * vSGI, and nothing is ever written beyond the region (GITS_TYPER.VSGI set). */
static void test_vsgi_no_frame_in_region(void **state)
{
	struct v41 t;

	(void)state;
	v41_setup(&t, 1, 1, NULL, 1, TYPER_41 | TYPER_VSGI | SVPET(1), NULL, 0x20000, 1);
	assert_false(t.f.its[0].direct_vsgi);
	virq_sim_reset_counters(t.f.g.sim);
	assert_int_equal(virq_vpe_vsgi_send(&t.vpe[0], 1), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_sim_mmio_total(t.f.g.sim), 0);
	/* The VSGI command still works (it needs no frame). */
	assert_int_equal(virq_vpe_vsgi_config(&t.vpe[0], 1, 0x80, false, true), LIBVIRQ_OK);
	v41_teardown(&t);
}

static void test_vsgi_needs_41(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm = {0};
	struct virq_vpe v = {0};
	uint16_t pend;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, true); /* QEMU GICv4.0 */
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_vsgi_send(&v, 1), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_vpe_vsgi_config(&v, 1, 0x80, false, true), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_vpe_vsgi_pending(&v, &pend), LIBVIRQ_ENOTSUP);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* ---------------- vPE tables by affinity ---------------- */

/*
 * Two sockets (Aff3 0 and 1), CommonLPIAff = 1, one ITS on socket 0
 * sharing its table at level 1 (SVPET = 1, GITS_MPIDR Aff3 = 0): the RDs
 * of socket 0 use the ITS's table, the RDs of socket 1 get one table of
 * their own, the same copy for both, with level-2 pages for every vPE
 * (the model checks every copy at each VMAPP). Before the change every RD
 * pointed at the ITS's table.
 */
static void test_tables_per_affinity_group(void **state)
{
	static const uint32_t aff[4] = {0x00000000, 0x00000001, 0x01000000, 0x01000001};
	struct v41 t;
	uint64_t its_pa;

	(void)state;
	v41_setup(&t, 4, 1, aff, 1, TYPER_41 | SVPET(1), NULL, 0x20000, 4);
	its_pa = t.f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE].l1.pa;
	assert_int_equal(vprop_pa_(&t, 0), its_pa);
	assert_int_equal(vprop_pa_(&t, 1), its_pa);
	assert_int_not_equal(vprop_pa_(&t, 2), its_pa);
	assert_true(virq_sim_rdist_vpropbaser(t.f.g.rm, 2) >> 63);
	assert_int_equal(vprop_pa_(&t, 3), vprop_pa_(&t, 2));
	assert_int_equal(virq_sim_rdist_vpe_tables_inconsistent(t.f.g.rm), 0);
	for (unsigned r = 0; r < 4; r++)
		for (unsigned i = 0; i < 4; i++)
			assert_true(virq_sim_rdist_vpe_entry_ok(t.f.g.rm, r, t.vpe[i].vpeid));
	assert_int_equal(t.f.g.rds[3].vpet_rd, 2);
	assert_int_equal(t.f.g.rds[0].vpet_rd, LIBVIRQ_VPEID_NONE);
	v41_teardown(&t);
}

/* SVPET = 0: the ITS shares with nobody. CommonLPIAff = 0: every RD is one
 * group, one table; a small page and large entries make it two-level, and
 * the 65th vPE needs a second level-2 page in it. */
static void test_tables_not_shared_two_level(void **state)
{
	struct v41 t;
	struct virq_vpe more[62];
	size_t pages;

	(void)state;
	memset(more, 0, sizeof(more));
	v41_setup(&t, 2, 0, NULL, 1, TYPER_41, NULL, 0x20000, 2);
	assert_int_not_equal(vprop_pa_(&t, 0), t.f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE].l1.pa);
	assert_int_equal(vprop_pa_(&t, 0), vprop_pa_(&t, 1));
	assert_int_equal(virq_sim_rdist_vpe_tables_inconsistent(t.f.g.rm), 0);
	pages = virq_sim_live_pages(t.f.g.sim);
	for (unsigned i = 0; i < 62; i++)
		assert_int_equal(virq_vpe_init(&more[i], &t.vm, 0, LIBVIRQ_ITS_NO_DOORBELL),
				 LIBVIRQ_OK);
	itsfx_no_errors(&t.f); /* every VMAPP found its entry backed in the RD copy */
	assert_true(virq_sim_live_pages(t.f.g.sim) > pages);
	for (unsigned i = 0; i < 62; i++)
		assert_int_equal(virq_vpe_destroy(&more[i]), LIBVIRQ_OK);
	v41_teardown(&t);
}

/* An RD brought up after vPEs exist (another group: Aff1 differs at
 * CommonLPIAff = 3) gets a table of its own with every existing vPE's
 * entry backed; a sharing ITS that comes up after that is refused (it would
 * make a second copy for a group). */
static void test_late_rd_backs_existing_vpes(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(V41_ITS_BASE);
	struct virq_sim_its_state_cfg c2 =
	    virq_sim_its_state_default_cfg(V41_ITS_BASE + V41_ITS_STRIDE);
	struct virq_gic_its_desc d2 = {.base = V41_ITS_BASE + V41_ITS_STRIDE, .size = 0x20000};
	struct its_fx f;
	struct virq_gic_vm vm = {0};
	struct virq_vpe v = {0};
	struct virq_its its2 = {0};
	struct virq_sim_its_state *s2;

	(void)state;
	memset(&f, 0, sizeof(f));
	rc.version = 41;
	rc.nr = 2;
	rc.common_lpi_aff = 3;
	fx_setup(&f.g, &rc);
	virq_sim_rdist_set_typer_aff(f.g.rm, 1, 0x00000100); /* Aff1 = 1: another group */
	ic.rm = f.g.rm;
	ic.typer = TYPER_41; /* SVPET = 0 */
	f.sm[0] = virq_sim_its_state_new(f.g.sim, &ic);
	f.nits = 1;
	f.g.desc.nr_its = 1;
	f.g.desc.its[0] = (struct virq_gic_its_desc){.base = V41_ITS_BASE, .size = 0x20000};
	assert_int_equal(virq_gic_init(&f.g.gic, &f.g.hal, &f.g.desc, f.g.rds, FX_MAX_RD, 16),
			 LIBVIRQ_OK);
	assert_int_equal(virq_gic_rdist_init(&f.g.gic, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 14), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_vpe_entry_ok(f.g.rm, 0, v.vpeid));
	assert_false(virq_sim_rdist_vpe_entry_ok(f.g.rm, 1, v.vpeid)); /* RD 1 not up yet */
	assert_int_equal(virq_gic_rdist_init(&f.g.gic, 1), LIBVIRQ_OK);
	assert_true(virq_sim_rdist_vpe_entry_ok(f.g.rm, 1, v.vpeid));
	assert_int_not_equal(virq_sim_rdist_vpropbaser(f.g.rm, 0) & 0x000FFFFFFFFFF000ull,
			     virq_sim_rdist_vpropbaser(f.g.rm, 1) & 0x000FFFFFFFFFF000ull);
	assert_int_equal(f.g.rds[1].vpet_rd, 1);
	c2.rm = f.g.rm;
	c2.typer = TYPER_41 | SVPET(3);
	s2 = virq_sim_its_state_new(f.g.sim, &c2);
	assert_int_equal(virq_its_init(&its2, &f.g.gic, &d2, NULL), LIBVIRQ_EBUSY);
	assert_false(its2.state == LIBVIRQ_GICV4_LIVE);
	assert_int_equal(f.g.gic.nr_its, 1);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
	virq_sim_its_state_free(f.sm[0]);
	virq_sim_its_state_free(s2);
}

/* ---------------- VMOVP on a shared table ---------------- */

/* Both RDs share the ITS's vPE table: the VMOVP is still sent (with DB
 * and the default doorbell), so the doorbell follows the vPE (Linux
 * af9acbfc2c4b reverted the shortcut that skipped it). */
static void test_vmovp_kept_with_shared_table(void **state)
{
	struct v41 t;
	struct virq_sim_its *q;
	const struct virq_sim_its_cmd *c;
	uint64_t rdb;

	(void)state;
	v41_setup(&t, 2, 1, NULL, 1, TYPER_41 | SVPET(1), NULL, 0x20000, 1);
	assert_int_equal(vprop_pa_(&t, 0), vprop_pa_(&t, 1)); /* one shared table */
	q = virq_sim_its_state_queue(t.f.sm[0]);
	virq_sim_its_clear_log(q);
	assert_int_equal(virq_vpe_move(&t.vpe[0], 1), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(q), 2);
	c = virq_sim_its_cmd_at(q, 0);
	assert_int_equal(c->op, 0x22);
	assert_true(c->db41);
	assert_int_equal(c->defdb, t.db[0]);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x25);
	assert_true(virq_sim_its_state_vpe(t.f.sm[0], t.vpe[0].vpeid, &rdb, NULL));
	assert_int_equal(rdb, 1ull << 16);
	v41_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sgir_encoder_rejects_wide_fields),
	    cmocka_unit_test(test_vsgi_config_send_read_clear),
	    cmocka_unit_test(test_vsgi_pending_busy_wait),
	    cmocka_unit_test(test_vsgi_pending_races_vmovp),
	    cmocka_unit_test(test_vsgi_no_frame_in_region),
	    cmocka_unit_test(test_vsgi_needs_41),
	    cmocka_unit_test(test_tables_per_affinity_group),
	    cmocka_unit_test(test_tables_not_shared_two_level),
	    cmocka_unit_test(test_late_rd_backs_existing_vpes),
	    cmocka_unit_test(test_vmovp_kept_with_shared_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
