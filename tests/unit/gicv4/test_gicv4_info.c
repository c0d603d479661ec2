/* SPDX-License-Identifier: MIT */
/* The read-only accessors (gicv4/info.h): each reports what the calls did,
 * follows the lifecycle policy (gicv4/state.h) and touches no hardware. */
#include "its_fixture.h"
#include <libvirq/gicv4/info.h>

struct ifx {
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	uint32_t db;
};

static void ifx_setup(struct ifx *x, unsigned nr_rd)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();

	rc.nr = nr_rd;
	itsfx_setup(&x->f, &rc, NULL, 1, true);
	assert_int_equal(virq_gic_vm_init(&x->vm, &x->f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&x->f.g.gic, 1, &x->db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&x->vpe, &x->vm, 0, x->db), LIBVIRQ_OK);
}

static void ifx_teardown(struct ifx *x)
{
	assert_int_equal(virq_vpe_destroy(&x->vpe), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&x->f.g.gic, x->db, 1), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&x->vm), LIBVIRQ_OK);
	itsfx_no_errors(&x->f);
	itsfx_teardown(&x->f, true);
}

/* Every MMIO access the simulator counted so far. */
static unsigned long accesses(struct ifx *x)
{
	return virq_sim_mmio_total(x->f.g.sim);
}

static void test_gic_and_its(void **state)
{
	struct ifx x;
	struct virq_gic_info gi;
	struct virq_its_info ii;
	unsigned long before;

	(void)state;
	ifx_setup(&x, 2);
	before = accesses(&x);
	assert_int_equal(virq_gic_get_info(&x.f.g.gic, &gi), LIBVIRQ_OK);
	assert_int_equal(gi.version, LIBVIRQ_GIC_V4_0);
	assert_int_equal(gi.nr_rd, 2);
	assert_int_equal(gi.lpi_bits, 16);
	assert_int_equal(gi.nr_its, 1);
	assert_int_equal(gi.nr_vms, 1);
	assert_int_equal(virq_its_get_info(&x.f.its[0], &ii), LIBVIRQ_OK);
	assert_int_equal(ii.version, LIBVIRQ_ITS_V40);
	/* QEMU 7.2's GITS_TYPER: Devbits [17:13], ID_bits [12:8], ITT_entry_size [7:4], VMOVP. */
	assert_int_equal(ii.device_id_bits, ((QEMU_TYPER_40 >> 13) & 0x1f) + 1);
	assert_int_equal(ii.event_id_bits, ((QEMU_TYPER_40 >> 8) & 0x1f) + 1);
	assert_int_equal(ii.itt_entry_size, ((QEMU_TYPER_40 >> 4) & 0xf) + 1);
	assert_true(ii.single_vmovp);
	assert_false(ii.dead);
	assert_int_equal(ii.nr_devices, 0);
	assert_int_equal(ii.nr_vpes, 1);
	assert_true(ii.cmds > 0);
	assert_int_equal(accesses(&x), before);
	assert_int_equal(virq_gic_get_info(&x.f.g.gic, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_get_info(&x.f.its[0], NULL), LIBVIRQ_EINVAL);
	ifx_teardown(&x);
}

static void test_device_and_vpe(void **state)
{
	struct ifx x;
	struct virq_its_device dev;
	struct virq_its_device_info di;
	struct virq_vpe_info vi;
	bool pl;

	(void)state;
	ifx_setup(&x, 2);
	assert_int_equal(virq_its_device_map(&x.f.its[0], &dev, 5, 8), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 3, &x.vpe, 8200, true), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_get_info(&dev, &di), LIBVIRQ_OK);
	assert_int_equal(di.device_id, 5);
	assert_int_equal(di.nr_events, 8);
	assert_int_equal(di.nr_mapped, 1);

	assert_int_equal(virq_vpe_get_info(&x.vpe, &vi), LIBVIRQ_OK);
	assert_int_equal(vi.vpeid, x.vpe.vpeid);
	assert_int_equal(vi.doorbell, x.db);
	assert_int_equal(vi.rd, 0);
	assert_false(vi.resident);
	assert_false(vi.in_wfi);
	assert_false(vi.move_pending);
	assert_int_equal(vi.nr_vlpis, 1);

	/* Residency, a move and WFI show up as the calls made them. */
	assert_int_equal(virq_vpe_move(&x.vpe, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_resident(&x.vpe, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_get_info(&x.vpe, &vi), LIBVIRQ_OK);
	assert_int_equal(vi.rd, 1);
	assert_true(vi.resident);
	assert_int_equal(virq_vpe_wfi_enter(&x.vpe), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_put(&x.vpe, &pl), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_get_info(&x.vpe, &vi), LIBVIRQ_OK);
	assert_false(vi.resident);
	assert_true(vi.in_wfi);
	assert_int_equal(vi.pending_last, pl);
	assert_int_equal(virq_vpe_wfi_exit(&x.vpe), LIBVIRQ_OK);

	assert_int_equal(virq_vlpi_unmap(&dev, 3), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_get_info(&dev, &di), LIBVIRQ_OK);
	assert_int_equal(di.nr_mapped, 0);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	/* Unmapped: the lifecycle policy, nothing written. */
	di.device_id = 77;
	assert_int_equal(virq_its_device_get_info(&dev, &di), LIBVIRQ_EINVAL);
	assert_int_equal(di.device_id, 77);
	ifx_teardown(&x);
}

static void test_lifecycle(void **state)
{
	struct virq_gic gic;
	struct virq_its its;
	struct virq_its_device dev;
	struct virq_vpe vpe;
	struct virq_gic_info gi;
	struct virq_its_info ii;
	struct virq_its_device_info di;
	struct virq_vpe_info vi;

	(void)state;
	memset(&gic, 0, sizeof(gic));
	memset(&its, 0, sizeof(its));
	memset(&dev, 0, sizeof(dev));
	memset(&vpe, 0, sizeof(vpe));
	assert_int_equal(virq_gic_get_info(NULL, &gi), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_get_info(&gic, &gi), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_get_info(NULL, &ii), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_get_info(&its, &ii), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_device_get_info(NULL, &di), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_device_get_info(&dev, &di), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_get_info(NULL, &vi), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_get_info(&vpe, &vi), LIBVIRQ_EINVAL);
	vpe.state = LIBVIRQ_GICV4_GONE;
	assert_int_equal(virq_vpe_get_info(&vpe, &vi), LIBVIRQ_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gic_and_its),
	    cmocka_unit_test(test_device_and_vpe),
	    cmocka_unit_test(test_lifecycle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
