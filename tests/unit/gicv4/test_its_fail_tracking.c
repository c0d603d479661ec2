/* SPDX-License-Identifier: MIT */
/*
 * A command batch that fails part-way (the ITS stalls on a command, or
 * stops consuming until the deadline) leaves the library's event tracking
 * equal to what the ITS may still map: a mapping GITS_CREADR did not show
 * changed stays tracked, with its vPE or LPI referenced, so that the vPE
 * cannot be destroyed (and its vPEID handed to another VM) nor the LPI
 * freed while the ITS may still translate the event to it; a retry then
 * finishes the job (docs/gicv4-core.md "Failures").
 */
#include "its_fixture.h"

struct tr {
	struct its_fx f;
	struct virq_sim_its *q;
	struct virq_its_device dev;
	struct virq_gic_vm vm1, vm2;
	struct virq_vpe a, b, other;
};

static void tr_setup(struct tr *t)
{
	memset(t, 0, sizeof(*t));
	itsfx_setup(&t->f, NULL, NULL, 1, true);
	t->q = virq_sim_its_state_queue(t->f.sm[0]);
	assert_int_equal(virq_its_device_map(&t->f.its[0], &t->dev, 7, 4), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&t->vm1, &t->f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&t->vm2, &t->f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&t->a, &t->vm1, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&t->dev, 0, &t->a, 8200, false), LIBVIRQ_OK);
}

static void tr_teardown(struct tr *t)
{
	struct virq_its_event ev;

	assert_int_equal(virq_its_event_get(&t->dev, 0, &ev), LIBVIRQ_OK);
	if (ev.kind != LIBVIRQ_ITS_EV_NONE)
		assert_int_equal(virq_its_unmap_event(&t->dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&t->dev), LIBVIRQ_OK);
	if (t->b.state == LIBVIRQ_GICV4_LIVE)
		assert_int_equal(virq_vpe_destroy(&t->b), LIBVIRQ_OK);
	if (t->a.state == LIBVIRQ_GICV4_LIVE)
		assert_int_equal(virq_vpe_destroy(&t->a), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&t->vm2), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&t->vm1), LIBVIRQ_OK);
	itsfx_no_errors(&t->f);
	itsfx_teardown(&t->f, true);
}

/* The library's event 0 and the model's agree on the vPE (or both unmapped). */
static void same_as_model(struct tr *t)
{
	struct virq_its_event ev;
	struct virq_sim_its_ev hw = virq_sim_its_state_lookup(t->f.sm[0], 7, 0);

	assert_int_equal(virq_its_event_get(&t->dev, 0, &ev), LIBVIRQ_OK);
	if (hw.kind == LIBVIRQ_SIM_ITS_EV_NONE) {
		assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_NONE);
		return;
	}
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_VIRT);
	assert_non_null(ev.vpe);
	assert_int_equal(ev.vpe->vpeid, hw.vpe);
	assert_int_equal(ev.intid, hw.vintid);
}

/* The DISCARD stalls: the ITS still maps the event; the vPE keeps its
 * vLPI count, cannot be destroyed, and a retry unmaps. */
static void test_unmap_discard_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_DISCARD);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 0), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	assert_false(t.f.its[0].dead);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 1);
	assert_int_equal(virq_vpe_destroy(&t.a), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 0), LIBVIRQ_OK);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 0);
	tr_teardown(&t);
}

/* The VSYNC after the DISCARD stalls: GITS_CREADR passed the DISCARD, so
 * the event is unmapped in both. */
static void test_unmap_vsync_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VSYNC);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 0), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 0);
	tr_teardown(&t);
}

/* The ITS consumes nothing until the deadline (ranged unmap): the reset
 * reads GITS_CREADR once quiescent, the DISCARD never ran, the event stays
 * tracked; the vPEID is not recycled to another VM's vPE. */
static void test_unmap_range_timeout(void **state)
{
	struct tr t;
	uint32_t old_id;

	(void)state;
	tr_setup(&t);
	old_id = t.a.vpeid;
	virq_sim_its_set_dead(t.q, true);
	assert_int_equal(virq_vlpi_unmap_range(&t.dev, 0, 1), LIBVIRQ_ETIMEDOUT);
	virq_sim_its_set_dead(t.q, false);
	assert_false(t.f.its[0].dead);
	same_as_model(&t);
	assert_int_equal(virq_vpe_destroy(&t.a), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_init(&t.other, &t.vm2, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_not_equal(t.other.vpeid, old_id);
	assert_int_equal(virq_vpe_make_resident(&t.other, 0), LIBVIRQ_OK);
	virq_sim_its_state_msi(t.f.sm[0], 7, 0);
	assert_int_equal(virq_sim_its_state_vdelivered(t.f.sm[0], t.other.vpeid, 8200), 0);
	assert_int_equal(virq_vpe_make_nonresident(&t.other, false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&t.other), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_unmap_range(&t.dev, 0, 1), LIBVIRQ_OK);
	same_as_model(&t);
	tr_teardown(&t);
}

/* A remap whose last VSYNC stalls: the DISCARD and the VMAPTI ran, the
 * library tracks the new mapping, the vPE keeps its vLPI. */
static void test_remap_vsync_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VSYNC);
	assert_int_equal(virq_vlpi_remap(&t.dev, 0, &t.a, 8300), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 1);
	assert_int_equal(virq_vpe_destroy(&t.a), LIBVIRQ_EBUSY);
	tr_teardown(&t);
}

/* A remap whose DISCARD stalls keeps the old mapping. */
static void test_remap_discard_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_DISCARD);
	assert_int_equal(virq_vlpi_remap(&t.dev, 0, &t.a, 8300), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 1);
	tr_teardown(&t);
}

/* A move whose VSYNC stalls after the VMOVI: the vLPI is on the new vPE,
 * which therefore cannot be destroyed. */
static void test_move_vsync_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	assert_int_equal(virq_vpe_init(&t.b, &t.vm1, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VSYNC);
	assert_int_equal(virq_vlpi_move(&t.dev, 0, &t.b), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 0);
	assert_int_equal(t.b.nr_vlpis, 1);
	assert_int_equal(virq_vpe_destroy(&t.b), LIBVIRQ_EBUSY);
	tr_teardown(&t);
}

/* A move whose VMOVI stalls keeps the vLPI on the old vPE. */
static void test_move_vmovi_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	assert_int_equal(virq_vpe_init(&t.b, &t.vm1, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VMOVI);
	assert_int_equal(virq_vlpi_move(&t.dev, 0, &t.b), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	same_as_model(&t);
	assert_int_equal(t.a.nr_vlpis, 1);
	assert_int_equal(t.b.nr_vlpis, 0);
	tr_teardown(&t);
}

/* A vLPI map whose VSYNC stalls: the VMAPTI ran, the event is tracked. */
static void test_map_vsync_stalled(void **state)
{
	struct tr t;
	struct virq_its_event ev;

	(void)state;
	tr_setup(&t);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VSYNC);
	assert_int_equal(virq_vlpi_map(&t.dev, 1, &t.a, 8201, false), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	assert_int_equal(virq_its_event_get(&t.dev, 1, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_VIRT);
	assert_int_equal(virq_sim_its_state_lookup(t.f.sm[0], 7, 1).kind, LIBVIRQ_SIM_ITS_EV_VIRT);
	assert_int_equal(t.a.nr_vlpis, 2);
	assert_int_equal(virq_vlpi_unmap(&t.dev, 1), LIBVIRQ_OK);
	tr_teardown(&t);
}

/* A physical event whose DISCARD stalls: its LPI cannot be freed. */
static void test_unmap_phys_discard_stalled(void **state)
{
	struct tr t;
	uint32_t lpi;

	(void)state;
	tr_setup(&t);
	assert_int_equal(virq_lpi_alloc(&t.f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&t.dev, 1, lpi, 0), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_DISCARD);
	assert_int_equal(virq_its_unmap_event(&t.dev, 1), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	assert_int_equal(virq_sim_its_state_lookup(t.f.sm[0], 7, 1).kind, LIBVIRQ_SIM_ITS_EV_PHYS);
	assert_int_equal(virq_lpi_free(&t.f.g.gic, lpi, 1), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_device_unmap(&t.dev), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_unmap_event(&t.dev, 1), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&t.f.g.gic, lpi, 1), LIBVIRQ_OK);
	tr_teardown(&t);
}

/* Found by fuzz_gicv4_smp (regress/fuzz_gicv4_smp/vpe_init_vinvall_stalls.bin):
 * the VMAPP of a new vPE ran and its VINVALL stalled. Before the fix the
 * rollback unmapped only the ITSes recorded as mapped, so this ITS kept the
 * vPE mapped (its VPT freed, its vPEID free for another VM's vPE). */
static void test_vpe_init_vinvall_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VINVALL);
	assert_int_equal(virq_vpe_init(&t.b, &t.vm2, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	assert_int_not_equal(t.b.state, LIBVIRQ_GICV4_LIVE);
	assert_false(virq_sim_its_state_vpe(t.f.sm[0], t.b.vpeid, NULL, NULL));
	assert_int_equal(t.f.its[0].nr_vpes, 1);
	tr_teardown(&t);
}

/* Found by fuzz_gicv4_smp (regress/fuzz_gicv4_smp/vpe_destroy_vsync_stalls.bin):
 * the VMAPP (V = 0) of a vPE ran and its VSYNC stalled. Before the fix the
 * ITS stayed recorded as mapping the vPE, and the second virq_vpe_destroy()
 * sent VMAPP (V = 0) for a vPE the ITS no longer mapped (a command error). */
static void test_vpe_destroy_vsync_stalled(void **state)
{
	struct tr t;

	(void)state;
	tr_setup(&t);
	assert_int_equal(virq_vpe_init(&t.b, &t.vm2, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(t.q, LIBVIRQ_ITS_VSYNC);
	assert_int_equal(virq_vpe_destroy(&t.b), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(t.q, -1);
	assert_false(virq_sim_its_state_vpe(t.f.sm[0], t.b.vpeid, NULL, NULL));
	assert_int_equal(t.b.its_mask, 0);
	virq_sim_its_clear_log(t.q);
	assert_int_equal(virq_vpe_destroy(&t.b), LIBVIRQ_OK);
	assert_int_equal(itsfx_find_op(t.f.sm[0], LIBVIRQ_ITS_VMAPP, 0), -1);
	tr_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unmap_discard_stalled),
	    cmocka_unit_test(test_unmap_vsync_stalled),
	    cmocka_unit_test(test_unmap_range_timeout),
	    cmocka_unit_test(test_remap_vsync_stalled),
	    cmocka_unit_test(test_remap_discard_stalled),
	    cmocka_unit_test(test_move_vsync_stalled),
	    cmocka_unit_test(test_move_vmovi_stalled),
	    cmocka_unit_test(test_map_vsync_stalled),
	    cmocka_unit_test(test_unmap_phys_discard_stalled),
	    cmocka_unit_test(test_vpe_init_vinvall_stalled),
	    cmocka_unit_test(test_vpe_destroy_vsync_stalled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
