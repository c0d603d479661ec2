/* SPDX-License-Identifier: MIT */
/*
 * The demo's path on a QEMU 7.2-like GICv4.0 (one CPU, PTA=0, VMOVP=1):
 * GIC, RD, ITS, MAPC, MAPD, physical LPI baseline, vPE, vLPI with doorbell,
 * residency, INT delivery, doorbell, remap, unmap, teardown.
 */
#include "its_fixture.h"

static void test_demo_sequence(void **state)
{
	struct its_fx f;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	struct virq_sim_its_ev es;
	uint32_t db, plpi;
	bool pl = true;
	struct virq_sim_its *q;
	uint64_t rdb, vpt;

	(void)state;
	itsfx_setup(&f, NULL, NULL, 1, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	q = virq_sim_its_state_queue(f.sm[0]);
	/* ITS enabled with ImDe; BASER0..2 valid. */
	assert_true(virq_sim_its_state_baser(f.sm[0], 0) >> 63);
	assert_true(virq_sim_its_state_baser(f.sm[0], 1) >> 63);
	assert_true(virq_sim_its_state_baser(f.sm[0], 2) >> 63);
	assert_int_equal(f.its[0].lim.version, LIBVIRQ_ITS_V40);
	assert_false(f.its[0].lim.pta);

	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_col(f.sm[0], 0, &rdb));
	assert_int_equal(rdb, 0); /* processor 0 << 16 */
	assert_int_equal(virq_sim_its_cmd_at(q, 0)->op, 0x09);
	assert_int_equal(virq_sim_its_cmd_at(q, 1)->op, 0x05);

	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 0, 32), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_dev_mapped(f.sm[0], 0));

	/* Hypervisor-owned MSI baseline: physical LPI on event 31. */
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &plpi), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_set_config(&f.g.gic, plpi, 0xA0, true), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&dev, 31, plpi, 0), LIBVIRQ_OK);
	es = virq_sim_its_state_lookup(f.sm[0], 0, 31);
	assert_int_equal(es.kind, LIBVIRQ_SIM_ITS_EV_PHYS);
	assert_int_equal(es.pintid, plpi);
	assert_int_equal(virq_its_int(&dev, 31), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_plpis(f.sm[0], plpi), 1);
	/* A second event sharing the LPI (IHI 0069H §5.3): the LPI's count holds
	 * both, the model's per-event count tells them apart. */
	assert_int_equal(virq_its_map_lpi(&dev, 30, plpi, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(&dev, 30), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_msi(f.sm[0], 0, 31));
	assert_int_equal(virq_sim_its_state_plpis(f.sm[0], plpi), 3);
	assert_int_equal(virq_sim_its_state_translations(f.sm[0], 0, 31), 2);
	assert_int_equal(virq_sim_its_state_translations(f.sm[0], 0, 30), 1);
	assert_int_equal(virq_sim_its_state_translations(f.sm[0], 0, 29), 0);
	assert_int_equal(virq_sim_its_state_clears(f.sm[0], plpi), 0);
	assert_int_equal(virq_its_clear(&dev, 30), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_clears(f.sm[0], plpi), 1);
	assert_int_equal(virq_its_unmap_event(&dev, 30), LIBVIRQ_OK);

	/* Doorbell LPI + VM + vPE. */
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_set_config(&f.g.gic, db, 0xA0, true), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, db), LIBVIRQ_OK);
	/* Mapped lazily: not on the ITS before its first vLPI there. */
	assert_false(virq_sim_its_state_vpe(f.sm[0], vpe.vpeid, &rdb, &vpt));
	assert_int_equal(itsfx_find_op(f.sm[0], 0x29, 0), -1);

	/* vLPI 8192 with doorbell on event 0: VMAPP + VINVALL + VSYNC first. */
	assert_int_equal(virq_vlpi_map(&dev, 0, &vpe, 8192, true), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_vpe(f.sm[0], vpe.vpeid, &rdb, &vpt));
	assert_int_equal(vpt, vpe.vpt.pa);
	assert_int_equal(vpt & 0xFFFF, 0);
	{
		long i = itsfx_find_op(f.sm[0], 0x29, 0);

		assert_true(i >= 0);
		assert_int_equal(virq_sim_its_cmd_at(q, (size_t)i)->vpt_size, 15);
		assert_int_equal(virq_sim_its_cmd_at(q, (size_t)i + 1)->op, 0x2D); /* VINVALL */
		assert_int_equal(virq_sim_its_cmd_at(q, (size_t)i + 2)->op, 0x25); /* VSYNC */
		assert_int_equal(virq_sim_its_cmd_at(q, (size_t)i + 3)->op, 0x2A); /* VMAPTI */
	}
	es = virq_sim_its_state_lookup(f.sm[0], 0, 0);
	assert_int_equal(es.kind, LIBVIRQ_SIM_ITS_EV_VIRT);
	assert_int_equal(es.vpe, vpe.vpeid);
	assert_int_equal(es.vintid, 8192);
	assert_int_equal(es.db, db);
	assert_int_equal(((uint8_t *)vm.vprop.va)[0], 0xA3);

	/* Resident: VPROPBASER IDbits covers the vINTIDs, then VPENDBASER.Valid. */
	assert_int_equal(virq_vpe_make_resident(&vpe, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpropbaser(f.g.rm, 0) & 0x1F, 15);
	assert_int_equal(virq_sim_rdist_vpropbaser(f.g.rm, 0) & ~0xFFFull, vm.vprop.pa);
	assert_true(virq_sim_rdist_resident(f.g.rm, 0, vpe.vpt.pa, vpe.vpeid));
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_vdelivered(f.sm[0], vpe.vpeid, 8192), 1);
	assert_int_equal(virq_sim_its_state_doorbells(f.sm[0], db), 0);

	/* Nothing pending: PendingLast = 0. */
	assert_int_equal(virq_vpe_make_nonresident(&vpe, true, &pl), LIBVIRQ_OK);
	assert_false(pl);
	/* Not resident: INT sets the VPT bit and rings the doorbell. */
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_doorbells(f.sm[0], db), 1);
	assert_int_equal(((uint8_t *)vpe.vpt.va)[8192 / 8] & 1, 1);
	/* Resident again then out: PendingLast reports the pending vLPI. */
	assert_int_equal(virq_vpe_make_resident(&vpe, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_nonresident(&vpe, false, &pl), LIBVIRQ_OK);
	assert_true(pl);
	((uint8_t *)vpe.vpt.va)[8192 / 8] = 0; /* the guest took it */

	/* Remap to another vINTID, then unmap. */
	assert_int_equal(virq_vlpi_remap(&dev, 0, &vpe, 8200), LIBVIRQ_OK);
	es = virq_sim_its_state_lookup(f.sm[0], 0, 0);
	assert_int_equal(es.vintid, 8200);
	assert_int_equal(es.db, db);
	assert_int_equal(virq_vpe_make_resident(&vpe, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_vdelivered(f.sm[0], vpe.vpeid, 8200), 1);
	assert_int_equal(virq_sim_its_state_vdelivered(f.sm[0], vpe.vpeid, 8192), 1);
	assert_int_equal(virq_vlpi_unmap(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 0, 0).kind, LIBVIRQ_SIM_ITS_EV_NONE);
	assert_int_equal(virq_its_int(&dev, 0), LIBVIRQ_ENOENT);
	itsfx_no_errors(&f);

	/* Teardown in reverse. */
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_EBUSY); /* resident */
	assert_int_equal(virq_vpe_make_nonresident(&vpe, false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	assert_false(virq_sim_its_state_vpe(f.sm[0], 0, NULL, NULL));
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_unmap_event(&dev, 31), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_false(virq_sim_its_state_dev_mapped(f.sm[0], 0));
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, plpi, 1), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* docs/rationale.md#gic-rd-bringup-order: MAPC before EnableLPIs is refused by the library. */
static void test_mapc_requires_lpis(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct gic_fx g;
	struct virq_sim_its_state *sm;
	struct virq_its its;

	(void)state;
	rc.nr = 2;
	fx_setup_its(&g, &rc, NULL, 1);
	sm = virq_sim_gic_its(g.sg, 0);
	assert_int_equal(virq_gic_init(&g.gic, &g.hal, &g.desc, g.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_rdist_init(&g.gic, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_init(&its, &g.gic, &g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&its, 0), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_its_ncmds(virq_sim_its_state_queue(sm)), 0);
	virq_sim_trace(g.sim, true);
	assert_int_equal(virq_gic_rdist_init(&g.gic, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_collection(&its, 0), LIBVIRQ_OK);
	/* EnableLPIs write precedes the CWRITER write carrying MAPC. */
	{
		size_t ie = virq_sim_trace_find(g.sim, 0, LIBVIRQ_SIM_MMIO_W32, g.rds[0].rd_base);
		size_t ic2 =
		    virq_sim_trace_find(g.sim, 0, LIBVIRQ_SIM_MMIO_W64, FX_ITS_BASE + 0x88);

		size_t ib = virq_sim_trace_find(g.sim, ie, LIBVIRQ_SIM_BARRIER, 0);

		assert_true(ie < ic2 && ic2 != SIZE_MAX);
		assert_true(ie < ib && ib < ic2); /* a barrier between EnableLPIs and MAPC */
	}
	assert_int_equal(virq_sim_its_state_errors(sm), 0);
	assert_int_equal(virq_its_destroy(&its), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&g.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(g.sim), 0);
	fx_teardown(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_demo_sequence),
	    cmocka_unit_test(test_mapc_requires_lpis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
