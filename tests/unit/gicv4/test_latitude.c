/* SPDX-License-Identifier: MIT */
/*
 * The latitude IHI 0069H gives an implementation in its table and queue base
 * registers (libvirq/sim/latitude.h): for each field and each way it may
 * behave, the library reads back what stuck and adapts (a flat table of the
 * right size, fewer IDs, cleaning to PoC) or refuses with a reason naming the
 * field. docs/sim.md lists the fields and the profiles.
 */
#include "its_fixture.h"
#include "gicv4/lpi_priv.h"

#define TYPER_41 (QEMU_TYPER_40 | (1ull << 40))

/* A GICv4.1 with @nr_rd redistributors configured by @rc (version forced to
 * 41) and one ITS whose GITS_TYPER.SVPET = 0 (QEMU's value): the
 * redistributors get vPE tables of their own. Every RD and the ITS up. */
static void v41_up(struct its_fx *f, struct virq_sim_rdist_cfg *rc, unsigned nr_rd)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);

	rc->version = 41;
	rc->nr = nr_rd;
	ic.typer = TYPER_41;
	itsfx_setup(f, rc, &ic, 1, true);
}

static void vm_up(struct its_fx *f, struct virq_gic_vm *vm)
{
	assert_int_equal(virq_gic_vm_init(vm, &f->g.gic, 14), LIBVIRQ_OK);
}

/* Hands out vPEIDs with the library's allocator until it refuses: every one
 * below @limit and exactly @left of them; then gives them back. */
static void vpeids_left(struct virq_gic *gic, uint32_t limit, uint32_t left)
{
	uint32_t id, n = 0, first = LIBVIRQ_VPEID_NONE;

	while (virq_vpeid_alloc_(gic, &id)) {
		assert_true(id < limit);
		if (first == LIBVIRQ_VPEID_NONE)
			first = id;
		n++;
	}
	assert_int_equal(n, left);
	for (id = first; n && id < limit; id++)
		virq_vpeid_free_(gic, id);
}

/* ---------------- GICR_VPROPBASER (GICv4.1 layout) ---------------- */

/*
 * Indirect RAZ/WI (issue item 4): a GIC without two-level vPE tables reads
 * Indirect = 0 and uses the table as one flat array of (Size + 1) pages.
 * 4 KiB pages and 64-byte entries: 64 vPEs a page, 65,536 vPEIDs would need
 * 1,024 pages, GICR_VPROPBASER.Size holds 128: the library programs a flat
 * table of 128 pages and hands out only vPEIDs 0 .. 8191. Before the fix it
 * programmed Indirect = 1 with Size = 1 (two level-1 pages) and trusted it:
 * the GIC saw a flat table of 128 entries, vPE 128's VMAPP found no entry
 * in the redistributors' table (and the level-1 pointers were read as vPE
 * entries).
 */
#define NV_ 129u
static void test_vprop41_indirect_raz(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v[NV_];
	uint64_t vprop;

	(void)state;
	rc.vprop.flat_only = true;
	rc.vprop.page_sizes = LIBVIRQ_SIM_PSZ_4K;
	rc.vpet_esz = 7; /* 64-byte entries */
	v41_up(&f, &rc, 2);
	vm_up(&f, &vm);
	for (unsigned i = 0; i < NV_; i++)
		assert_int_equal(virq_vpe_init(&v[i], &vm, i % 2, LIBVIRQ_ITS_NO_DOORBELL),
				 LIBVIRQ_OK);
	itsfx_no_errors(&f); /* every VMAPP found its entry in both RDs' copy */
	for (unsigned r = 0; r < 2; r++) {
		vprop = virq_sim_rdist_vpropbaser(f.g.rm, r);
		assert_int_equal((vprop >> 55) & 1, 0); /* flat */
		assert_int_equal(vprop & 0x7F, 127);	/* 128 pages */
		for (unsigned i = 0; i < NV_; i++)
			assert_true(virq_sim_rdist_vpe_entry_ok(f.g.rm, r, v[i].vpeid));
	}
	assert_int_equal(f.g.gic.vpeid_limit, 8192);
	vpeids_left(&f.g.gic, 8192, 8192 - NV_); /* fewer vPEIDs handed out */
	for (unsigned i = 0; i < NV_; i++)
		assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* ---------------- GITS_BASER<n> ---------------- */

/*
 * Indirect RAZ/WI on the vPE table's GITS_BASER<n>: 4 KiB pages and 32-byte
 * entries hold 128 vPEs a page, GITS_BASER<n>.Size 256 pages: a flat table
 * of 256 pages covers vPEIDs 0 .. 32767 of 65,536, and no larger vPEID is
 * handed out (before, the allocator handed them out and vPE creation failed
 * with ERANGE at the ITS once 32,768 vPEs existed).
 */
static void test_baser_vpe_indirect_raz(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	const struct virq_its_table *t;

	(void)state;
	ic.esz = 32;
	ic.baser[2].flat_only = true;
	ic.baser[2].page_sizes = LIBVIRQ_SIM_PSZ_4K;
	itsfx_setup(&f, NULL, &ic, 1, true);
	t = &f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE];
	assert_false(t->indirect);
	assert_int_equal(t->id_bits, 15);
	assert_int_equal(virq_sim_its_state_baser(f.sm[0], 2) & 0xFF, 255);
	assert_int_equal(f.g.gic.vpeid_limit, 32768);
	vm_up(&f, &vm);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	vpeids_left(&f.g.gic, 32768, 32767);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vprop41_indirect_raz),
	    cmocka_unit_test(test_baser_vpe_indirect_raz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
