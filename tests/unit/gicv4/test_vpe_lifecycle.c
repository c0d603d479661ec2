/* SPDX-License-Identifier: MIT */
/* vPE lifecycle across ITSes (docs/rationale.md#gic-vmapp-unmap-no-vsync), VMOVP in
 * both modes, vLPI move / doorbell / config, thousands of vLPIs, refusals. */
#include "its_fixture.h"

/* GICv4.1, GITS_TYPER.SVPET = 1: the vPE table is shared with the RDs of Aff3 0 */
#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40) | (1ull << 41))
#define TYPER_40_NOVMOVP (QEMU_TYPER_40 & ~(1ull << 37))

static void setup_n(struct its_fx *f, uint64_t typer, unsigned nits, unsigned nr_rd, int version)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);

	rc.nr = nr_rd;
	rc.version = version;
	ic.typer = typer;
	itsfx_setup(f, &rc, &ic, nits, true);
}

static const struct virq_sim_its_cmd *cmd_at(struct its_fx *f, unsigned its, size_t i)
{
	return virq_sim_its_cmd_at(virq_sim_its_state_queue(f->sm[its]), i);
}

static size_t ncmds(struct its_fx *f, unsigned its)
{
	return virq_sim_its_ncmds(virq_sim_its_state_queue(f->sm[its]));
}

static void clear_logs(struct its_fx *f)
{
	for (unsigned i = 0; i < f->nits; i++)
		virq_sim_its_clear_log(virq_sim_its_state_queue(f->sm[i]));
}

/* docs/rationale.md#gic-vmapp-unmap-no-vsync: one 4.1 ITS: unmap is exactly [VMAPP(V=0, Alloc=1)],
 * no VSYNC. */
static void test_v41_unmap_single(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;

	(void)state;
	setup_n(&f, TYPER_41, 1, 1, 41);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	clear_logs(&f);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x29);
	assert_true(cmd_at(&f, 0, 0)->alloc);
	assert_int_equal(cmd_at(&f, 0, 0)->vconf, vm.vprop.pa);
	assert_int_equal(cmd_at(&f, 0, 0)->defdb, 1023);
	clear_logs(&f);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	assert_int_equal(ncmds(&f, 0), 1);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x29);
	assert_false(cmd_at(&f, 0, 0)->valid);
	assert_true(cmd_at(&f, 0, 0)->alloc);
	/* A 4.1 unmap: DW2 = DW3 = 0. */
	assert_int_equal(cmd_at(&f, 0, 0)->dw[2], 0);
	assert_int_equal(cmd_at(&f, 0, 0)->dw[3], 0);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* docs/rationale.md#gic-vmapp-unmap-no-vsync: two 4.1 ITSes: Alloc on the first map and on the
 * last unmap only. */
static void test_v41_alloc_follows_count(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;

	(void)state;
	setup_n(&f, TYPER_41, 2, 1, 41);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	clear_logs(&f);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_true(cmd_at(&f, 0, 0)->alloc);
	assert_false(cmd_at(&f, 1, 0)->alloc);
	assert_int_equal(vpe.vmapp_count, 2);
	clear_logs(&f);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	/* reverse order: ITS 1 first (Alloc = 0), ITS 0 last (Alloc = 1) */
	assert_int_equal(ncmds(&f, 0), 1);
	assert_int_equal(ncmds(&f, 1), 1);
	assert_false(cmd_at(&f, 1, 0)->alloc);
	assert_true(cmd_at(&f, 0, 0)->alloc);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* GICv4.0: Alloc never set; unmap followed by VSYNC. */
static void test_v40_no_alloc(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 2, 1, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	clear_logs(&f);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_false(cmd_at(&f, 0, 0)->alloc);
	assert_false(cmd_at(&f, 1, 0)->alloc);
	clear_logs(&f);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(ncmds(&f, i), 2);
		assert_false(cmd_at(&f, i, 0)->alloc);
		assert_int_equal(cmd_at(&f, i, 1)->op, 0x25);
	}
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* VMOVP with GITS_TYPER.VMOVP = 0: same seq + ITSList on every ITS, serialised. */
static void test_vmovp_itslist(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	uint64_t rdb;

	(void)state;
	setup_n(&f, TYPER_40_NOVMOVP, 3, 2, 40);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(f.its[i].its_number, i);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	for (unsigned round = 0; round < 2; round++) {
		clear_logs(&f);
		assert_int_equal(virq_vpe_move(&vpe, round == 0 ? 1 : 0), LIBVIRQ_OK);
		for (unsigned i = 0; i < 3; i++) {
			assert_int_equal(ncmds(&f, i), 2);
			assert_int_equal(cmd_at(&f, i, 0)->op, 0x22);
			assert_int_equal(cmd_at(&f, i, 0)->seq, round);
			assert_int_equal(cmd_at(&f, i, 0)->itslist, 0x7);
			assert_int_equal(cmd_at(&f, i, 0)->rd, (round == 0 ? 1ull : 0ull) << 16);
			assert_int_equal(cmd_at(&f, i, 1)->op, 0x25);
			assert_true(virq_sim_its_state_vpe(f.sm[i], vpe.vpeid, &rdb, NULL));
			assert_int_equal(rdb, (round == 0 ? 1ull : 0ull) << 16);
		}
	}
	/* Same target: nothing sent. */
	clear_logs(&f);
	assert_int_equal(virq_vpe_move(&vpe, 0), LIBVIRQ_OK);
	assert_int_equal(ncmds(&f, 0), 0);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* ITS_Number read-only: the ITSList uses what the hardware reports. */
static void test_vmovp_its_number_ro(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;

	(void)state;
	rc.nr = 2;
	ic.typer = TYPER_40_NOVMOVP;
	ic.its_number_ro = 1 + 9; /* reads 9 */
	itsfx_setup(&f, &rc, &ic, 1, true);
	assert_int_equal(f.its[0].its_number, 9);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	clear_logs(&f);
	assert_int_equal(virq_vpe_move(&vpe, 1), LIBVIRQ_OK);
	assert_int_equal(cmd_at(&f, 0, 0)->itslist, 1u << 9);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* Two ITSes whose read-only ITS_Number is the same cannot share an ITSList
 * (a VMOVP would name one of them only): the second one is refused, as
 * Linux refuses a duplicate ITSList entry, and nothing leaks. */
static void test_vmovp_its_number_duplicate(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	ic.typer = TYPER_40_NOVMOVP;
	ic.its_number_ro = 1 + 5; /* both read 5 */
	itsfx_setup(&f, &rc, &ic, 2, false);
	assert_int_equal(virq_its_init(&f.its[0], &f.g.gic, &f.g.desc.its[0], NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_init(&f.its[1], &f.g.gic, &f.g.desc.its[1], NULL), LIBVIRQ_EHW);
	assert_null(f.its[1].gic);
	assert_int_equal(f.g.gic.nr_its, 1);
	itsfx_teardown(&f, true);
}

/* VMOVP = 1: one VMOVP to one ITS, no seq / ITSList. 4.1: DB + default doorbell. */
static void test_vmovp_single(void **state)
{
	uint64_t typers[2] = {QEMU_TYPER_40, TYPER_41};
	int vers[2] = {40, 41};

	(void)state;
	for (int t = 0; t < 2; t++) {
		struct its_fx f;
		struct virq_gic_vm vm;
		struct virq_vpe vpe;
		uint32_t db;

		setup_n(&f, typers[t], 2, 2, vers[t]);
		assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
		assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
		assert_int_equal(virq_vpe_init(&vpe, &vm, 0, db), LIBVIRQ_OK);
		clear_logs(&f);
		assert_int_equal(virq_vpe_move(&vpe, 1), LIBVIRQ_OK);
		assert_int_equal(ncmds(&f, 0), 2);
		assert_int_equal(ncmds(&f, 1), 0);
		assert_int_equal(cmd_at(&f, 0, 0)->seq, 0);
		assert_int_equal(cmd_at(&f, 0, 0)->itslist, 0);
		if (vers[t] == 41) {
			assert_true(cmd_at(&f, 0, 0)->db41);
			assert_int_equal(cmd_at(&f, 0, 0)->defdb, db);
		}
		assert_int_equal(vpe.rd, 1);
		assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
		assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
		itsfx_no_errors(&f);
		itsfx_teardown(&f, true);
	}
}

static void test_vmovp_refusals(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe vpe, none;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 2, 40);
	memset(&none, 0, sizeof(none));
	assert_int_equal(virq_vpe_move(&none, 1), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&vpe, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_move(&vpe, 5), LIBVIRQ_EINVAL);
	vpe.flags |= LIBVIRQ_VPE_DYING;
	clear_logs(&f);
	assert_int_equal(virq_vpe_move(&vpe, 1), LIBVIRQ_EDEAD);
	assert_int_equal(ncmds(&f, 0), 0);
	vpe.flags &= ~(uint32_t)LIBVIRQ_VPE_DYING;
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_move(&vpe, 1), LIBVIRQ_EINVAL); /* torn down */
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* vLPI move between vPEs (VMOVI), doorbell on/off, config change. */
static void test_vlpi_move_doorbell_config(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe a, b;
	struct virq_its_device dev;
	uint32_t dba, dbb;
	struct virq_sim_its_ev es;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 2, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &dba), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &dbb), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, dba), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&b, &vm, 1, dbb), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 7, 4), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 3, &a, 9000, true), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 3, &a, 9000, true), LIBVIRQ_EEXIST);
	assert_int_equal(virq_vlpi_move(&dev, 3, &b), LIBVIRQ_OK);
	es = virq_sim_its_state_lookup(f.sm[0], 7, 3);
	assert_int_equal(es.vpe, b.vpeid);
	assert_int_equal(es.vintid, 9000);
	assert_int_equal(es.db, dbb);
	assert_int_equal(a.nr_vlpis, 0);
	assert_int_equal(b.nr_vlpis, 1);
	/* Doorbell off then on: VMOVI to the same vPE with D = 1. */
	clear_logs(&f);
	assert_int_equal(virq_vlpi_set_doorbell(&dev, 3, false), LIBVIRQ_OK);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x21);
	assert_true(cmd_at(&f, 0, 0)->dbvalid);
	assert_int_equal(cmd_at(&f, 0, 0)->vpe, b.vpeid);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 7, 3).db, 1023);
	assert_int_equal(virq_vlpi_set_doorbell(&dev, 3, true), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 7, 3).db, dbb);
	/* Config: byte then INV + VSYNC. */
	clear_logs(&f);
	assert_int_equal(virq_vlpi_set_config(&dev, 3, 0x40, false), LIBVIRQ_OK);
	assert_int_equal(((uint8_t *)vm.vprop.va)[9000 - 8192], 0x42);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x0C);
	assert_int_equal(cmd_at(&f, 0, 1)->op, 0x25);
	assert_int_equal(cmd_at(&f, 0, 1)->vpe, b.vpeid);
	/* vINTID range (docs/rationale.md#gic-vpe-residency-init: beyond the VM's IDbits is
	 * rejected). */
	assert_int_equal(virq_vlpi_map(&dev, 0, &a, 70000, false), LIBVIRQ_ERANGE);
	assert_int_equal(virq_vlpi_map(&dev, 0, &a, 100, false), LIBVIRQ_ERANGE);
	assert_int_equal(virq_vlpi_map(&dev, 4, &a, 9001, false), LIBVIRQ_ERANGE);
	assert_int_equal(virq_vpe_destroy(&b), LIBVIRQ_EBUSY); /* has a vLPI */
	assert_int_equal(virq_vlpi_unmap(&dev, 3), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&b), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* A doorbell LPI belongs to one vPE alone: a second vPE, or an ITS event
 * mapping it as a physical LPI, is refused (EBUSY), nothing taken. */
static void test_doorbell_exclusive(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe a, b;
	struct virq_its_device dev;
	uint32_t db;
	size_t pages;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 2, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 7, 4), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 2, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, db), LIBVIRQ_OK);
	pages = virq_sim_live_pages(f.g.sim);
	memset(&b, 0, sizeof(b));
	assert_int_equal(virq_vpe_init(&b, &vm, 1, db), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(virq_its_map_lpi(&dev, 0, db, 0), LIBVIRQ_EBUSY);
	/* An LPI an event maps cannot become a doorbell either. */
	assert_int_equal(virq_its_map_lpi(&dev, 0, db + 1, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&b, &vm, 1, db + 1), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_live_pages(f.g.sim), pages);
	assert_int_equal(virq_its_unmap_event(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&b, &vm, 1, db + 1), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 1), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&dev, 0, db, 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_unmap_event(&dev, 0), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&b), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(&f.g.gic, db, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* virq_vlpi_map_config(): the guest's byte is in the VM table when the VMAPTI
 * runs and no INV follows (exactly VMAPTI + VSYNC); refusals leave the byte
 * alone; virq_vlpi_map() still maps at 0xA0, enabled. Before this call an
 * emulated MAPTI of a disabled LPI needed virq_vlpi_map() (byte 0xA3:
 * enabled) then virq_vlpi_set_config() (INV + VSYNC). */
static void test_vlpi_map_config(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe a;
	struct virq_its_device dev;
	struct virq_sim_its_ev es;
	struct virq_its_event ev;
	const uint8_t *vprop;
	uint32_t db;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 1, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	vprop = vm.vprop.va;
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, db), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 7, 8), LIBVIRQ_OK);
	assert_int_equal(vprop[9000 - 8192], 0xA2); /* fresh VM table: disabled */
	clear_logs(&f);
	assert_int_equal(virq_vlpi_map_config(&dev, 1, &a, 9000, true, 0x40, false), LIBVIRQ_OK);
	assert_int_equal(vprop[9000 - 8192], 0x42);
	assert_int_equal(ncmds(&f, 0), 2);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x2A); /* VMAPTI */
	assert_int_equal(cmd_at(&f, 0, 1)->op, 0x25); /* VSYNC */
	es = virq_sim_its_state_lookup(f.sm[0], 7, 1);
	assert_int_equal(es.vpe, a.vpeid);
	assert_int_equal(es.vintid, 9000);
	assert_int_equal(es.db, db);
	assert_int_equal(virq_its_event_get(&dev, 1, &ev), LIBVIRQ_OK);
	assert_int_equal(ev.kind, LIBVIRQ_ITS_EV_VIRT);
	assert_int_equal(a.nr_vlpis, 1);
	/* Priority[1:0] are not part of the byte (IHI 0069H §5.1.1). */
	assert_int_equal(virq_vlpi_map_config(&dev, 2, &a, 9001, false, 0xFF, true), LIBVIRQ_OK);
	assert_int_equal(vprop[9001 - 8192], 0xFF);
	assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 7, 2).db, 1023);
	/* Refused before anything is written: mapped event, vINTID range. */
	clear_logs(&f);
	assert_int_equal(virq_vlpi_map_config(&dev, 1, &a, 9002, true, 0x10, true), LIBVIRQ_EEXIST);
	assert_int_equal(virq_vlpi_map_config(&dev, 3, &a, 70000, true, 0x10, true),
			 LIBVIRQ_ERANGE);
	assert_int_equal(vprop[9002 - 8192], 0xA2);
	assert_int_equal(ncmds(&f, 0), 0);
	/* virq_vlpi_map() is map_config(0xA0, enabled). */
	assert_int_equal(virq_vlpi_map(&dev, 3, &a, 9003, true), LIBVIRQ_OK);
	assert_int_equal(vprop[9003 - 8192], 0xA3);
	for (uint32_t e = 1; e <= 3; e++)
		assert_int_equal(virq_vlpi_unmap(&dev, e), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* virq_vpe_invall(): VINVALL + VSYNC of the vPE on the first live ITS that
 * maps it (one ITS reaches every redistributor), the next one when that ITS
 * is dead; refused for a vPE in teardown and when no live ITS maps it. */
static void test_vpe_invall(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe a, none;

	(void)state;
	memset(&none, 0, sizeof(none));
	setup_n(&f, QEMU_TYPER_40, 2, 1, 40);
	assert_int_equal(virq_vpe_invall(NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_vpe_invall(&none), LIBVIRQ_EINVAL);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&a, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	/* Bulk configuration then one invalidation. */
	for (uint32_t v = 8192; v < 8192 + 64; v++)
		assert_int_equal(virq_gic_vm_vlpi_config(&vm, v, 0x60, true), LIBVIRQ_OK);
	clear_logs(&f);
	assert_int_equal(virq_vpe_invall(&a), LIBVIRQ_OK);
	assert_int_equal(ncmds(&f, 0), 2);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x2D); /* VINVALL */
	assert_int_equal(cmd_at(&f, 0, 0)->vpe, a.vpeid);
	assert_int_equal(cmd_at(&f, 0, 1)->op, 0x25); /* VSYNC */
	assert_int_equal(cmd_at(&f, 0, 1)->vpe, a.vpeid);
	assert_int_equal(ncmds(&f, 1), 0);
	/* ITS 0 dead: the next ITS that maps the vPE. */
	clear_logs(&f);
	f.its[0].dead = true;
	assert_int_equal(virq_vpe_invall(&a), LIBVIRQ_OK);
	assert_int_equal(ncmds(&f, 0), 0);
	assert_int_equal(ncmds(&f, 1), 2);
	assert_int_equal(cmd_at(&f, 1, 0)->op, 0x2D);
	f.its[1].dead = true;
	assert_int_equal(virq_vpe_invall(&a), LIBVIRQ_EDEAD);
	f.its[0].dead = f.its[1].dead = false;
	/* Teardown refuses it. */
	a.flags |= LIBVIRQ_VPE_DYING;
	clear_logs(&f);
	assert_int_equal(virq_vpe_invall(&a), LIBVIRQ_EDEAD);
	assert_int_equal(ncmds(&f, 0) + ncmds(&f, 1), 0);
	a.flags &= ~(uint32_t)LIBVIRQ_VPE_DYING;
	assert_int_equal(virq_vpe_destroy(&a), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_invall(&a), LIBVIRQ_EINVAL); /* destroyed */
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* Thousands of vLPIs: map, move, remap, unmap; the model agrees at each step. */
static void test_thousands_of_vlpis(void **state)
{
	enum { NDEV = 4, NEV = 1024 };
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v[2];
	struct virq_its_device dev[NDEV];
	uint32_t db;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 2, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 2, &db), LIBVIRQ_OK); /* one doorbell each */
	for (int i = 0; i < 2; i++)
		assert_int_equal(virq_vpe_init(&v[i], &vm, (uint32_t)i, db + (uint32_t)i),
				 LIBVIRQ_OK);
	for (uint32_t d = 0; d < NDEV; d++) {
		assert_int_equal(virq_its_device_map(&f.its[0], &dev[d], 100u + (uint32_t)d, NEV),
				 LIBVIRQ_OK);
		for (uint32_t e = 0; e < NEV; e++)
			assert_int_equal(
			    virq_vlpi_map(&dev[d], e, &v[e & 1], 8192 + d * NEV + e, e & 2),
			    LIBVIRQ_OK);
	}
	assert_int_equal(v[0].nr_vlpis + v[1].nr_vlpis, NDEV * NEV);
	for (uint32_t d = 0; d < NDEV; d++) {
		for (uint32_t e = 0; e < NEV; e += 3)
			assert_int_equal(virq_vlpi_move(&dev[d], e, &v[(e & 1) ^ 1]), LIBVIRQ_OK);
		for (uint32_t e = 1; e < NEV; e += 5)
			assert_int_equal(virq_vlpi_remap(&dev[d], e, &v[0], 30000 + d * NEV + e),
					 LIBVIRQ_OK);
	}
	for (uint32_t d = 0; d < NDEV; d++) {
		for (uint32_t e = 0; e < NEV; e++) {
			struct virq_sim_its_ev es =
			    virq_sim_its_state_lookup(f.sm[0], 100u + (uint32_t)d, e);
			struct virq_its_event le;

			assert_int_equal(virq_its_event_get(&dev[d], e, &le), LIBVIRQ_OK);
			assert_int_equal(es.kind, LIBVIRQ_SIM_ITS_EV_VIRT);
			assert_int_equal(es.vpe, le.vpe->vpeid);
			assert_int_equal(es.vintid, le.intid);
			assert_int_equal(es.db, le.db);
			if (e % 5 == 1)
				assert_int_equal(es.vintid, 30000 + d * NEV + e);
			else
				assert_int_equal(es.vintid, 8192 + d * NEV + e);
		}
	}
	for (uint32_t d = 0; d < NDEV; d++) {
		for (uint32_t e = 0; e < NEV; e++)
			assert_int_equal(virq_vlpi_unmap(&dev[d], e), LIBVIRQ_OK);
		assert_int_equal(virq_its_device_unmap(&dev[d]), LIBVIRQ_OK);
	}
	assert_int_equal(v[0].nr_vlpis + v[1].nr_vlpis, 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* 1,024 vLPIs in one batch: one GITS_CWRITER write, one VSYNC. */
static void test_map_range(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	struct virq_its_device dev;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 1, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 9, 1024), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 5, &v, 8192, false), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map_range(&dev, 0, 1024, &v, 9000, false), LIBVIRQ_EEXIST);
	assert_int_equal(virq_vlpi_map_range(&dev, 6, 1019, &v, 9000, false), LIBVIRQ_ERANGE);
	assert_int_equal(virq_vlpi_map_range(&dev, 6, 10, &v, 65530, false), LIBVIRQ_ERANGE);
	assert_int_equal(virq_vlpi_unmap(&dev, 5), LIBVIRQ_OK);
	clear_logs(&f);
	virq_sim_reset_counters(f.g.sim);
	assert_int_equal(virq_vlpi_map_range(&dev, 0, 1024, &v, 9000, false), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(f.g.sim, LIBVIRQ_SIM_MMIO_W64, FX_ITS_BASE + 0x88), 1);
	assert_int_equal(ncmds(&f, 0), 1025);
	assert_int_equal(cmd_at(&f, 0, 1024)->op, 0x25);
	for (uint32_t e = 0; e < 1024; e++)
		assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 9, e).vintid, 9000 + e);
	assert_int_equal(v.nr_vlpis, 1024);
	for (uint32_t e = 0; e < 1024; e++)
		assert_int_equal(virq_vlpi_unmap(&dev, e), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* A batch that stalls part-way: the ITS ran the VMAPTIs before the stalled
 * one and none from it on (the queue reset drops them). Only the events it
 * mapped may stay tracked: a DISCARD on an event the ITS never mapped is a
 * command error that may stall the queue (docs/rationale.md#gic-its-queue-stall). */
static void test_map_range_stall_then_unmap(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	struct virq_its_device dev;
	struct virq_its_event ev;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 1, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 9, 8), LIBVIRQ_OK);
	virq_sim_its_stall_nth(virq_sim_its_state_queue(f.sm[0]),
			       ncmds(&f, 0) + 3); /* 3rd VMAPTI */
	assert_int_equal(virq_vlpi_map_range(&dev, 0, 8, &v, 9000, false), LIBVIRQ_ESTALLED);
	assert_false(f.its[0].dead);
	for (uint32_t e = 0; e < 8; e++) {
		assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 9, e).kind,
				 e < 2 ? LIBVIRQ_SIM_ITS_EV_VIRT : LIBVIRQ_SIM_ITS_EV_NONE);
		assert_int_equal(virq_its_event_get(&dev, e, &ev), LIBVIRQ_OK);
		assert_int_equal(ev.kind, e < 2 ? LIBVIRQ_ITS_EV_VIRT : LIBVIRQ_ITS_EV_NONE);
	}
	assert_int_equal(dev.nr_mapped, 2);
	assert_int_equal(v.nr_vlpis, 2);
	assert_int_equal(virq_vlpi_unmap(&dev, 2), LIBVIRQ_ENOENT); /* no DISCARD sent */
	for (uint32_t e = 0; e < 2; e++)
		assert_int_equal(virq_vlpi_unmap(&dev, e), LIBVIRQ_OK);
	/* The untracked events map again (the queue works after the reset). */
	assert_int_equal(virq_vlpi_map_range(&dev, 2, 6, &v, 9002, false), LIBVIRQ_OK);
	for (uint32_t e = 2; e < 8; e++) {
		assert_int_equal(virq_sim_its_state_lookup(f.sm[0], 9, e).vintid, 9000 + e);
		assert_int_equal(virq_vlpi_unmap(&dev, e), LIBVIRQ_OK);
	}
	assert_int_equal(dev.nr_mapped, 0);
	assert_int_equal(v.nr_vlpis, 0);
	itsfx_no_errors(&f); /* no DISCARD hit an unmapped event */
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* A VMOVP that stopped half-way (ITSes 0 and 2 route to RD 1, ITS 1 still to RD 0):
 * making the vPE resident on RD 1 would lose the vLPIs ITS 1 sends to RD 0,
 * so residency is refused until a repeated move has reached every ITS. */
static void test_resident_refused_while_move_pending(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint64_t rdb;

	(void)state;
	setup_n(&f, TYPER_40_NOVMOVP, 3, 2, 40);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), 0x22);
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_ESTALLED);
	virq_sim_its_stall_opcode(virq_sim_its_state_queue(f.sm[1]), -1);
	assert_true(v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	assert_true(virq_sim_its_state_vpe(f.sm[1], v.vpeid, &rdb, NULL));
	assert_int_equal(rdb, 0); /* ITS 1 (stalled on the VMOVP) still routes to RD 0 */
	virq_sim_reset_counters(f.g.sim);
	assert_int_equal(virq_vpe_make_resident(&v, 1), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_load(&v, 1), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_EINVAL);
	assert_int_equal(virq_sim_count(f.g.sim, LIBVIRQ_SIM_MMIO_W64),
			 0); /* no register written */
	assert_false(v.flags & LIBVIRQ_VPE_RESIDENT);
	assert_int_equal(f.g.rds[1].resident_vpe, LIBVIRQ_VPEID_NONE);
	/* The repeated move reaches every ITS; then residency is allowed. */
	assert_int_equal(virq_vpe_move(&v, 1), LIBVIRQ_OK);
	assert_false(v.flags & LIBVIRQ_VPE_MOVE_PENDING);
	assert_int_equal(virq_vpe_make_resident(&v, 1), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_make_nonresident(&v, false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* ITS destroy refuses while in use; 4.1 RDs move to the remaining ITS's table. */
static void test_its_destroy_busy_and_handover(void **state)
{
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	struct virq_its_device dev;
	uint64_t vp;

	(void)state;
	setup_n(&f, TYPER_41, 2, 1, 41);
	assert_int_equal(virq_gic_vm_init(&vm, &f.g.gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_EBUSY);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 1, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_EBUSY);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	vp = virq_sim_rdist_vpropbaser(f.g.rm, 0);
	assert_int_equal(vp & 0x000FFFFFFFFFF000ull, f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE].l1.pa);
	assert_int_equal(virq_its_destroy(&f.its[0]), LIBVIRQ_OK);
	vp = virq_sim_rdist_vpropbaser(f.g.rm, 0);
	assert_true(vp >> 63);
	assert_int_equal(vp & 0x000FFFFFFFFFF000ull, f.its[1].tbl[LIBVIRQ_ITS_TBL_VPE].l1.pa);
	assert_int_equal(virq_its_destroy(&f.its[1]), LIBVIRQ_OK);
	assert_int_equal(virq_sim_rdist_vpropbaser(f.g.rm, 0), 0);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* Physical LPI config change: byte, then INV + SYNC to the collection's RD. */
static void test_lpi_config_inv(void **state)
{
	struct its_fx f;
	struct virq_its_device dev;
	uint32_t lpi;

	(void)state;
	setup_n(&f, QEMU_TYPER_40, 1, 2, 40);
	assert_int_equal(virq_its_device_map(&f.its[0], &dev, 2, 32), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(&f.g.gic, 1, &lpi), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&dev, 20, lpi, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_map_lpi(&dev, 20, lpi, 1), LIBVIRQ_EEXIST);
	assert_int_equal(virq_its_map_lpi(&dev, 21, lpi + 1, 1),
			 LIBVIRQ_ENOENT); /* not allocated */
	clear_logs(&f);
	assert_int_equal(virq_lpi_set_config(&f.g.gic, lpi, 0x80, false), LIBVIRQ_OK);
	assert_int_equal(virq_its_inv(&dev, 20), LIBVIRQ_OK);
	assert_int_equal(cmd_at(&f, 0, 0)->op, 0x0C);
	assert_int_equal(cmd_at(&f, 0, 1)->op, 0x05);
	assert_int_equal(cmd_at(&f, 0, 1)->rd, 1ull << 16);
	assert_int_equal(virq_its_clear(&dev, 20), LIBVIRQ_OK);
	assert_int_equal(cmd_at(&f, 0, 2)->op, 0x04);
	assert_int_equal(virq_its_unmap_event(&dev, 20), LIBVIRQ_OK);
	assert_int_equal(virq_its_unmap_event(&dev, 20), LIBVIRQ_ENOENT);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_v41_unmap_single),
	    cmocka_unit_test(test_v41_alloc_follows_count),
	    cmocka_unit_test(test_v40_no_alloc),
	    cmocka_unit_test(test_vmovp_itslist),
	    cmocka_unit_test(test_vmovp_its_number_ro),
	    cmocka_unit_test(test_vmovp_its_number_duplicate),
	    cmocka_unit_test(test_vmovp_single),
	    cmocka_unit_test(test_vmovp_refusals),
	    cmocka_unit_test(test_vlpi_move_doorbell_config),
	    cmocka_unit_test(test_doorbell_exclusive),
	    cmocka_unit_test(test_vlpi_map_config),
	    cmocka_unit_test(test_vpe_invall),
	    cmocka_unit_test(test_thousands_of_vlpis),
	    cmocka_unit_test(test_map_range),
	    cmocka_unit_test(test_map_range_stall_then_unmap),
	    cmocka_unit_test(test_resident_refused_while_move_pending),
	    cmocka_unit_test(test_its_destroy_busy_and_handover),
	    cmocka_unit_test(test_lpi_config_inv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
