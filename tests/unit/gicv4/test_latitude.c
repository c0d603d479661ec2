/* SPDX-License-Identifier: MIT */
/*
 * The latitude IHI 0069H gives an implementation in its table and queue base
 * registers (libvirq/sim/latitude.h): for each field and each way it may
 * behave, the library reads back what stuck and adapts (a flat table of the
 * right size, fewer IDs, cleaning to PoC) or refuses with a reason naming the
 * field. docs/sim.md lists the fields and the profiles.
 */
#include <string.h>

#include "its_fixture.h"
#include "gicv4/lpi_priv.h"

/* The last failure reported: under @fn (NULL: any), its check containing @part. */
static bool failed_with(struct virq_sim *sim, const char *fn, const char *part)
{
	struct virq_failure r;

	if (!virq_sim_last_fail(sim, &r) || !r.check || !strstr(r.check, part))
		return false;
	return !fn || (r.function && strcmp(r.function, fn) == 0);
}

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

/* Whether [@va, @va + 1) was cleaned to PoC since the trace was switched on. */
static bool cleaned(struct virq_sim *sim, const void *va)
{
	uint64_t a = (uint64_t)(uintptr_t)va;

	for (size_t i = 0; i < virq_sim_trace_len(sim); i++) {
		const struct virq_sim_trace_ev *e = virq_sim_trace_at(sim, i);

		if (e->kind == LIBVIRQ_SIM_CLEAN && a >= e->addr && a < e->addr + e->value)
			return true;
	}
	return false;
}

/* An ITS configured by @ic on a GICv4.0 (every RD up, the ITS not yet). */
static void its_up(struct its_fx *f, const struct virq_sim_its_state_cfg *ic)
{
	itsfx_setup(f, NULL, ic, 1, false);
	virq_sim_trace(f->g.sim, true);
}

static virq_status its_init(struct its_fx *f)
{
	return virq_its_init(&f->its[0], &f->g.gic, &f->g.desc.its[0], NULL);
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

/* ---------------- GICR_VPROPBASER (GICv4.1): page size, attributes, address, sharing
 * ---------------- */

/* vPEs 0 .. @n - 1 on a GICv4.1 with two RDs configured by @rc; returns the VM. */
static void v41_vpes(struct its_fx *f, struct virq_sim_rdist_cfg *rc, struct virq_gic_vm *vm,
		     struct virq_vpe *v, unsigned n)
{
	v41_up(f, rc, 2);
	virq_sim_trace(f->g.sim, true);
	vm_up(f, vm);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(virq_vpe_init(&v[i], vm, i % 2, LIBVIRQ_ITS_NO_DOORBELL),
				 LIBVIRQ_OK);
}

static void v41_down(struct its_fx *f, struct virq_gic_vm *vm, struct virq_vpe *v, unsigned n)
{
	itsfx_no_errors(f);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(virq_vpe_destroy(&v[i]), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(vm), LIBVIRQ_OK);
	itsfx_teardown(f, true);
}

/* Page_Size: 4 and 16 KiB supported (the 64 KiB probe reads 16 KiB back),
 * or 4 KiB only (read-only): the table uses what stuck. */
static void vprop41_psz(uint8_t sizes, uint32_t code)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v[2];

	rc.vprop.page_sizes = sizes;
	v41_vpes(&f, &rc, &vm, v, 2);
	for (unsigned r = 0; r < 2; r++) {
		assert_int_equal((virq_sim_rdist_vpropbaser(f.g.rm, r) >> 53) & 3, code);
		assert_true(virq_sim_rdist_vpe_entry_ok(f.g.rm, r, v[1].vpeid));
	}
	v41_down(&f, &vm, v, 2);
}

static void test_vprop41_psz_subset(void **state)
{
	(void)state;
	vprop41_psz(LIBVIRQ_SIM_PSZ_4K | LIBVIRQ_SIM_PSZ_16K, 1);
}

static void test_vprop41_psz_fixed_4k(void **state)
{
	(void)state;
	vprop41_psz(LIBVIRQ_SIM_PSZ_4K, 0);
}

/* Attributes that are not coherent: found at bring-up (before any VM),
 * so the vPE table, its level-2 pages and every VPT are cleaned. */
static void vprop41_attrs(struct virq_sim_attrs a)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v[1];
	uint64_t pa;

	rc.vprop.attrs = a;
	v41_vpes(&f, &rc, &vm, v, 1);
	assert_true(f.g.gic.rd_noncoherent);
	pa = virq_sim_rdist_vpropbaser(f.g.rm, 0) & 0x000FFFFFFFFFF000ull;
	assert_true(cleaned(f.g.sim, virq_sim_pa_to_va(f.g.sim, pa, 8)));
	assert_true(cleaned(f.g.sim, v[0].vpt.va));
	v41_down(&f, &vm, v, 1);
}

static void test_vprop41_sh_fixed_none(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	vprop41_attrs(a);
}

static void test_vprop41_inner_fixed_nc(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.inner = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	vprop41_attrs(a);
}

static void test_vprop41_outer_fixed_nc(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.outer = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	vprop41_attrs(a);
}

/* 34 address bits: the vPE table does not fit; virq_vpe_init() refuses
 * (GICR_VPROPBASER cleared), nothing leaks. */
static void test_vprop41_pa_bits_refused(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;

	(void)state;
	rc.vprop.attrs.pa_bits = 34;
	v41_up(&f, &rc, 2);
	vm_up(&f, &vm);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_EHW);
	assert_true(
	    failed_with(f.g.sim, "virq_vpe_init", "GICR_VPROPBASER wrote %x, read back %x"));
	assert_int_equal(virq_sim_rdist_vpropbaser(f.g.rm, 0) >> 63, 0);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* A 4.1 ITS sharing its vPE table (GITS_TYPER.SVPET = 1) with the
 * redistributors, set up with @rc; the ITS is not initialised. */
static void v41_shared(struct its_fx *f, struct virq_sim_rdist_cfg *rc)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);

	rc->version = 41;
	rc->nr = 2;
	ic.typer = TYPER_41 | (1ull << 41);
	itsfx_setup(f, rc, &ic, 1, false);
	virq_sim_trace(f->g.sim, true);
}

/* Indirect RAZ/WI on the redistributors, a two-level table in the ITS
 * that shares it: the redistributors cannot read it; virq_its_init()
 * refuses (the read-back of GICR_VPROPBASER shows Indirect = 0). */
static void test_vprop41_indirect_raz_shared_refused(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;

	(void)state;
	rc.vprop.flat_only = true;
	v41_shared(&f, &rc);
	assert_int_equal(its_init(&f), LIBVIRQ_EHW);
	assert_true(
	    failed_with(f.g.sim, "virq_its_init", "GICR_VPROPBASER wrote %x, read back %x"));
	assert_int_equal(f.g.gic.nr_its, 0);
	for (unsigned r = 0; r < 2; r++)
		assert_int_equal(virq_sim_rdist_vpropbaser(f.g.rm, r) >> 63, 0);
	itsfx_teardown(&f, true); /* nothing leaked */
}

/* Non-shareable redistributors sharing a coherent ITS's vPE table: the ITS
 * cleans the table (and each level-2 page) for them. */
static void test_vprop41_sh_none_shared_its_cleans(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	const struct virq_its_table *t;

	(void)state;
	rc.vprop.attrs.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	v41_shared(&f, &rc);
	assert_true(f.g.gic.rd_noncoherent);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	t = &f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE];
	assert_true(t->noncoherent);
	assert_int_equal((t->baser >> 10) & 3, LIBVIRQ_GIC_SH_INNER); /* the ITS snoops */
	assert_true(cleaned(f.g.sim, t->l1.va));
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	vm_up(&f, &vm);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_true(cleaned(f.g.sim, ((const struct virq_page *)t->l2.va)[0].va));
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* ---------------- GITS_BASER<n> ---------------- */

/* Indirect RAZ/WI on the device table: one flat table for 2^16 DeviceIDs
 * (8 pages of 64 KiB), the whole ID space still covered. */
static void test_baser_dev_indirect_raz(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_its_device d;

	(void)state;
	ic.baser[0].flat_only = true;
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	assert_false(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].indirect);
	assert_int_equal(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].id_bits, 16);
	assert_int_equal(virq_sim_its_state_baser(f.sm[0], 0) & 0xFF, 7);
	assert_true(f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE].indirect); /* per table */
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 0xFFFF, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

/* Page_Size with 4 and 16 KiB only: the 64 KiB probe reads back 16 KiB
 * (the largest) or 4 KiB (the smallest); either way the library takes
 * 16 KiB, the largest that sticks. */
static void psz_subset(bool smallest)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	for (unsigned t = 0; t < 3; t++) {
		ic.baser[t].page_sizes = LIBVIRQ_SIM_PSZ_4K | LIBVIRQ_SIM_PSZ_16K;
		ic.baser[t].psz_smallest = smallest;
	}
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal(f.its[0].tbl[t].page_size, 16384);
		assert_int_equal((virq_sim_its_state_baser(f.sm[0], t) >> 8) & 3, 1);
	}
	itsfx_teardown(&f, true);
}

static void test_baser_psz_subset_reads_largest(void **state)
{
	(void)state;
	psz_subset(false);
}

static void test_baser_psz_subset_reads_smallest(void **state)
{
	(void)state;
	psz_subset(true);
}

/* Shareability fixed Non-shareable on one table only: that table alone is
 * non-cacheable and cleaned, the others are left coherent. */
static void test_baser_sh_fixed_none_one_table(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	ic.baser[1].attrs.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	assert_true(f.its[0].tbl[LIBVIRQ_ITS_TBL_COL].noncoherent);
	assert_int_equal((f.its[0].tbl[LIBVIRQ_ITS_TBL_COL].baser >> 59) & 7, LIBVIRQ_GIC_CACHE_nC);
	assert_true(cleaned(f.g.sim, f.its[0].tbl[LIBVIRQ_ITS_TBL_COL].l1.va));
	assert_false(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].noncoherent);
	assert_false(cleaned(f.g.sim, f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].l1.va));
	itsfx_teardown(&f, true);
}

/* Shareability fixed Outer Shareable: as coherent as Inner, nothing cleaned. */
static void test_baser_sh_fixed_outer(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	for (unsigned t = 0; t < 3; t++)
		ic.baser[t].attrs.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_OUTER);
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	for (unsigned t = 0; t < 3; t++)
		assert_false(f.its[0].tbl[t].noncoherent);
	assert_int_equal(virq_sim_count(f.g.sim, LIBVIRQ_SIM_CLEAN), 0);
	itsfx_teardown(&f, true);
}

/* Shareability fixed Inner Shareable while the description says the ITS
 * does not snoop (dma-noncoherent): the read-back is not believed. */
static void test_baser_sh_fixed_inner_desc_noncoherent(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	for (unsigned t = 0; t < 3; t++)
		ic.baser[t].attrs.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_INNER);
	its_up(&f, &ic);
	f.g.desc.its[0].dma_noncoherent = true;
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal((f.its[0].tbl[t].baser >> 10) & 3, LIBVIRQ_GIC_SH_INNER);
		assert_true(f.its[0].tbl[t].noncoherent);
		assert_true(cleaned(f.g.sim, f.its[0].tbl[t].l1.va));
	}
	itsfx_teardown(&f, true);
}

/* Non-shareable with InnerCache fixed Write-back: the rewrite to
 * non-cacheable does not stick, the tables are cleaned all the same. */
static void test_baser_inner_fixed_wb_with_sh_none(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	(void)state;
	itsfx_fix_attrs(&ic, LIBVIRQ_GIC_SH_NONE, LIBVIRQ_GIC_CACHE_RaWaWb);
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal((f.its[0].tbl[t].baser >> 59) & 7, LIBVIRQ_GIC_CACHE_RaWaWb);
		assert_true(f.its[0].tbl[t].noncoherent);
		assert_true(cleaned(f.g.sim, f.its[0].tbl[t].l1.va));
	}
	assert_true(f.its[0].q.clean);
	itsfx_teardown(&f, true);
}

/* OuterCache fixed Normal non-cacheable: the ITS reads past the outer
 * caches, so the tables are cleaned; fixed Write-back: they are not. */
static void baser_outer(uint8_t oc, bool nc)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;

	for (unsigned t = 0; t < 3; t++)
		ic.baser[t].attrs.outer = virq_sim_fixed(oc);
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal((f.its[0].tbl[t].baser >> 53) & 7, oc);
		assert_int_equal(f.its[0].tbl[t].noncoherent, nc);
		assert_int_equal(cleaned(f.g.sim, f.its[0].tbl[t].l1.va), nc);
	}
	assert_false(f.its[0].q.clean); /* GITS_CBASER keeps its own attributes */
	itsfx_teardown(&f, true);
}

static void test_baser_outer_fixed_nc(void **state)
{
	(void)state;
	baser_outer(LIBVIRQ_GIC_CACHE_nC, true);
}

static void test_baser_outer_fixed_wb(void **state)
{
	(void)state;
	baser_outer(LIBVIRQ_GIC_CACHE_RaWaWb, false);
}

/* 34 physical address bits: the tables (at 32 GiB and up in the
 * simulator) do not fit; GITS_BASER<n> reads another address back and
 * virq_its_init() refuses, naming the field, with nothing kept. */
static void test_baser_pa_bits_refused(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	size_t live;

	(void)state;
	ic.baser[0].attrs.pa_bits = 34;
	its_up(&f, &ic);
	live = virq_sim_live_pages(f.g.sim);
	assert_int_equal(its_init(&f), LIBVIRQ_EHW);
	assert_true(failed_with(f.g.sim, "virq_its_init",
				"Physical_Address did not keep the table's address"));
	assert_int_equal(virq_sim_live_pages(f.g.sim), live);
	assert_int_equal(virq_sim_its_state_baser(f.sm[0], 0) >> 63, 0);
	itsfx_teardown(&f, true);
}

/* The Type of each GITS_BASER<n> is the implementation's: devices in
 * BASER5, collections in BASER0, vPEs in BASER3. */
static void test_baser_type_layout(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	struct virq_its_device d;

	(void)state;
	ic.baser_type[5] = 1;
	ic.baser_type[0] = 4;
	ic.baser_type[3] = 2;
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	assert_int_equal(f.its[0].tbl[LIBVIRQ_ITS_TBL_DEV].n, 5);
	assert_int_equal(f.its[0].tbl[LIBVIRQ_ITS_TBL_COL].n, 0);
	assert_int_equal(f.its[0].tbl[LIBVIRQ_ITS_TBL_VPE].n, 3);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 0x1234, 2), LIBVIRQ_OK);
	vm_up(&f, &vm);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	itsfx_teardown(&f, true);
}

/* ---------------- GITS_CBASER ---------------- */

/* CBASER attributes one at a time: Shareability fixed Non-shareable or
 * Outer, InnerCache fixed Device, OuterCache fixed non-cacheable; the
 * queue is cleaned exactly when they are not coherent. */
static void cbaser(struct virq_sim_attrs a, bool clean)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	struct virq_its_device d;

	ic.cbaser = a;
	its_up(&f, &ic);
	assert_int_equal(its_init(&f), LIBVIRQ_OK);
	assert_int_equal(f.its[0].q.clean, clean);
	for (unsigned t = 0; t < 3; t++) /* the tables keep their own */
		assert_false(f.its[0].tbl[t].noncoherent);
	virq_sim_trace_clear(f.g.sim);
	assert_int_equal(virq_its_map_collection(&f.its[0], 0), LIBVIRQ_OK);
	assert_int_equal(cleaned(f.g.sim, f.its[0].q.mem.va), clean); /* MAPC published */
	assert_int_equal(virq_its_device_map(&f.its[0], &d, 1, 2), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&d), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_cbaser_sh_fixed_none(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	cbaser(a, true);
}

static void test_cbaser_sh_fixed_outer(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_OUTER);
	cbaser(a, false);
}

static void test_cbaser_inner_fixed_device(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.inner = virq_sim_fixed(LIBVIRQ_GIC_CACHE_DnGnRnE);
	cbaser(a, true);
}

static void test_cbaser_outer_fixed_nc(void **state)
{
	struct virq_sim_attrs a = {0};

	(void)state;
	a.outer = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	cbaser(a, true);
}

/* 34 address bits: the queue does not fit, virq_its_init() refuses. */
static void test_cbaser_pa_bits_refused(void **state)
{
	struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(0);
	struct its_fx f;
	size_t live;

	(void)state;
	ic.cbaser.pa_bits = 34;
	its_up(&f, &ic);
	live = virq_sim_live_pages(f.g.sim);
	assert_int_equal(its_init(&f), LIBVIRQ_EHW);
	assert_true(failed_with(f.g.sim, "virq_its_init", "GITS_CBASER read back %x"));
	assert_int_equal(virq_sim_live_pages(f.g.sim), live);
	itsfx_teardown(&f, true);
}

/* ---------------- GICR_PROPBASER, GICR_PENDBASER ---------------- */

/* One redistributor whose GICR_PROPBASER / GICR_PENDBASER behave as
 * @prop / @pend say: every table the redistributors read is cleaned from
 * now on when either is not coherent (@nc), the configuration table at
 * once; the pending table when GICR_PENDBASER is not coherent (it is read
 * with those attributes only). */
static void rd_attrs(struct virq_sim_attrs prop, struct virq_sim_attrs pend, bool nc)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	rc.prop = prop;
	rc.pend = pend;
	fx_setup(&f, &rc);
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	virq_sim_trace(f.sim, true);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_int_equal(f.gic.rd_noncoherent, nc);
	assert_int_equal(cleaned(f.sim, f.gic.prop.va), nc);
	assert_int_equal(cleaned(f.sim, f.rds[0].pend.va),
			 nc && (pend.sh.fixed || pend.inner.fixed || pend.outer.fixed));
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

static void test_prop_sh_fixed_none(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	rd_attrs(a, none, true);
}

static void test_prop_sh_fixed_outer(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_OUTER);
	rd_attrs(a, none, false);
}

static void test_prop_inner_fixed_nc(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.inner = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	rd_attrs(a, none, true);
}

static void test_prop_outer_fixed_nc(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.outer = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	rd_attrs(a, none, true);
}

static void test_pend_sh_fixed_none(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	rd_attrs(none, a, true);
}

static void test_pend_inner_fixed_device(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.inner = virq_sim_fixed(LIBVIRQ_GIC_CACHE_DnGnRnE);
	rd_attrs(none, a, true);
}

static void test_pend_outer_fixed_wb(void **state)
{
	struct virq_sim_attrs a = {0}, none = {0};

	(void)state;
	a.outer = virq_sim_fixed(LIBVIRQ_GIC_CACHE_RaWaWb);
	rd_attrs(none, a, false);
}

/* 34 address bits in GICR_PROPBASER or GICR_PENDBASER: refused, named. */
static void rd_pa_bits(bool pend)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct gic_fx f;

	if (pend)
		rc.pend.pa_bits = 34;
	else
		rc.prop.pa_bits = 34;
	fx_setup(&f, &rc);
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_EHW);
	assert_true(failed_with(f.sim, "virq_gic_rdist_init", "(address or IDbits did not stick)"));
	assert_false(virq_sim_rdist_ctlr(f.rm, 0) & 1); /* LPIs stay off */
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(f.sim), 0);
	fx_teardown(&f);
}

static void test_prop_pa_bits_refused(void **state)
{
	(void)state;
	rd_pa_bits(false);
}

static void test_pend_pa_bits_refused(void **state)
{
	(void)state;
	rd_pa_bits(true);
}

/* A redistributor brought up after a VM exists that reads GICR_PENDBASER
 * Non-shareable while the first one was coherent: the VM's tables were not
 * cleaned, so it is refused (EBUSY), naming the register. */
static void test_pend_noncoherent_after_vm_refused(void **state)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct gic_fx f;
	struct virq_gic_vm vm;

	(void)state;
	rc.nr = 2;
	fx_setup(&f, &rc);
	assert_int_equal(virq_gic_init(&f.gic, &f.hal, &f.desc, f.rds, FX_MAX_RD, 16), LIBVIRQ_OK);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 0), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, &f.gic, 14), LIBVIRQ_OK);
	rc.pend.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	virq_sim_rdist_set_latitude(f.rm, &rc);
	assert_int_equal(virq_gic_rdist_init(&f.gic, 1), LIBVIRQ_EBUSY);
	assert_true(failed_with(f.sim, "virq_gic_rdist_init", "while %u VMs exist"));
	assert_false(f.gic.rd_noncoherent);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_gic_destroy(&f.gic), LIBVIRQ_OK);
	fx_teardown(&f);
}

/* ---------------- GICR_VPROPBASER, GICR_VPENDBASER (GICv4.0) ---------------- */

/* GICv4.0: GICR_VPROPBASER or GICR_VPENDBASER with fixed attributes that
 * are not coherent: the VM's configuration table and the VPT are cleaned,
 * and the residency images say Non-shareable, non-cacheable. */
static void vlpi40(struct virq_sim_table_lat vprop, struct virq_sim_attrs vpend, bool nc)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;
	uint64_t vp;

	rc.vprop = vprop;
	rc.vpend = vpend;
	itsfx_setup(&f, &rc, NULL, 1, true);
	assert_int_equal(f.g.gic.rd_noncoherent, nc);
	virq_sim_trace(f.g.sim, true);
	vm_up(&f, &vm);
	assert_int_equal(virq_vpe_init(&v, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(cleaned(f.g.sim, vm.vprop.va), nc);
	assert_int_equal(cleaned(f.g.sim, v.vpt.va), nc);
	assert_int_equal(virq_vpe_make_resident(&v, 0), LIBVIRQ_OK);
	vp = virq_sim_rdist_vpendbaser(f.g.rm, 0);
	assert_int_equal((vp >> 63) & 1, 1);
	assert_int_equal(((vp >> 10) & 3) == LIBVIRQ_GIC_SH_NONE, nc);
	assert_int_equal(virq_vpe_make_nonresident(&v, false, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_no_errors(&f);
	itsfx_teardown(&f, true);
}

static void test_vprop40_sh_fixed_none(void **state)
{
	struct virq_sim_table_lat p = {0};
	struct virq_sim_attrs none = {0};

	(void)state;
	p.attrs.sh = virq_sim_fixed(LIBVIRQ_GIC_SH_NONE);
	vlpi40(p, none, true);
}

static void test_vprop40_programmable(void **state)
{
	struct virq_sim_table_lat p = {0};
	struct virq_sim_attrs none = {0};

	(void)state;
	vlpi40(p, none, false);
}

static void test_vpend40_inner_fixed_nc(void **state)
{
	struct virq_sim_table_lat p = {0};
	struct virq_sim_attrs a = {0};

	(void)state;
	a.inner = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	vlpi40(p, a, true);
}

static void test_vpend40_outer_fixed_nc(void **state)
{
	struct virq_sim_table_lat p = {0};
	struct virq_sim_attrs a = {0};

	(void)state;
	a.outer = virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC);
	vlpi40(p, a, true);
}

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

/* ---------------- the profiles (libvirq/sim/gic.h) ---------------- */

/*
 * Every profile brings a whole GIC up and delivers a vLPI on each
 * redistributor: resident, straight to the vPE; not resident, into the
 * VPT with the doorbell raised; the models report no error and nothing
 * leaks. (What the stateful fuzzer and embedders' tests can run on.)
 */
static void profile_vlpi_(struct virq_sim *sim, struct virq_gic *gic, struct virq_its *its,
			  struct virq_sim_its_state *m, uint32_t rd)
{
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	uint32_t db;
	unsigned long del, dbs;

	assert_int_equal(virq_its_device_map(its, &dev, 1 + rd, 32), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_alloc(gic, 1, &db), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_set_config(gic, db, 0xA0, true), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_init(&vm, gic, 16), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_init(&vpe, &vm, rd, db), LIBVIRQ_OK);
	assert_int_equal(virq_vlpi_map(&dev, 5, &vpe, 8192, true), LIBVIRQ_OK);
	del = virq_sim_its_state_vdelivered(m, vpe.vpeid, 8192); /* IDs are reused */
	dbs = virq_sim_its_state_doorbells(m, db);
	assert_int_equal(virq_vpe_make_resident(&vpe, rd), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_msi(m, 1 + rd, 5));
	assert_int_equal(virq_sim_its_state_vdelivered(m, vpe.vpeid, 8192), del + 1);
	assert_int_equal(virq_vpe_make_nonresident(&vpe, true, NULL), LIBVIRQ_OK);
	assert_true(virq_sim_its_state_msi(m, 1 + rd, 5));
	assert_int_equal(virq_sim_its_state_doorbells(m, db), dbs + 1);
	assert_int_equal(virq_vlpi_unmap(&dev, 5), LIBVIRQ_OK);
	assert_int_equal(virq_vpe_destroy(&vpe), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	assert_int_equal(virq_lpi_free(gic, db, 1), LIBVIRQ_OK);
	assert_int_equal(virq_its_device_unmap(&dev), LIBVIRQ_OK);
	(void)sim;
}

static void test_profiles(void **state)
{
	(void)state;
	for (unsigned p = 0; p < LIBVIRQ_SIM_GIC_PROFILE_COUNT; p++) {
		struct virq_sim *sim = virq_sim_new();
		struct virq_hal hal = virq_sim_hal(sim);
		struct virq_sim_gic_cfg cfg = virq_sim_gic_profile((enum virq_sim_gic_profile)p);
		struct virq_gic_desc desc;
		struct virq_sim_gic *sg = virq_sim_gic_new(sim, &cfg, &desc);
		struct virq_gic gic;
		struct virq_gic_rdist rds[4];
		struct virq_its its;

		assert_int_equal(virq_sim_gic_profile_find(
				     virq_sim_gic_profile_name((enum virq_sim_gic_profile)p)),
				 p);
		assert_int_equal(virq_gic_init(&gic, &hal, &desc, rds, 4, 16), LIBVIRQ_OK);
		assert_int_equal(virq_gic_dist_enable(&gic), LIBVIRQ_OK);
		for (uint32_t r = 0; r < gic.nr_rd; r++)
			assert_int_equal(virq_gic_rdist_init(&gic, r), LIBVIRQ_OK);
		assert_int_equal(virq_its_init(&its, &gic, &desc.its[0], NULL), LIBVIRQ_OK);
		for (uint32_t r = 0; r < gic.nr_rd; r++)
			assert_int_equal(virq_its_map_collection(&its, r), LIBVIRQ_OK);
		for (uint32_t r = 0; r < gic.nr_rd; r++)
			profile_vlpi_(sim, &gic, &its, virq_sim_gic_its(sg, 0), r);
		if (virq_sim_its_state_errors(virq_sim_gic_its(sg, 0)) ||
		    virq_sim_rdist_errors(virq_sim_gic_rdist(sg)))
			fail_msg("profile %s: %s %s", virq_sim_gic_profile_name(p),
				 virq_sim_its_state_last_error(virq_sim_gic_its(sg, 0)),
				 virq_sim_rdist_last_error(virq_sim_gic_rdist(sg)));
		assert_int_equal(virq_its_destroy(&its), LIBVIRQ_OK);
		assert_int_equal(virq_gic_destroy(&gic), LIBVIRQ_OK);
		assert_int_equal(virq_sim_live_pages(sim), 0);
		virq_sim_free(sim);
		virq_sim_gic_free(sg);
	}
	assert_int_equal(virq_sim_gic_profile_find("no-such-gic"), LIBVIRQ_SIM_GIC_PROFILE_COUNT);
}

/* The profiles model what they say: the flat-vPE-table GIC lowers the
 * vPEID limit, the non-coherent one makes the library clean, the fixed
 * 16 KiB one is driven with 16 KiB flat tables, QEMU's is the default. */
static void test_profiles_model_what_they_say(void **state)
{
	struct virq_sim_gic_cfg q = virq_sim_gic_profile(LIBVIRQ_SIM_GIC_QEMU72_V40);
	struct virq_sim_gic_cfg d = virq_sim_gic_default_cfg();
	struct virq_sim_gic_cfg c;
	struct its_fx f;
	struct virq_gic_vm vm;
	struct virq_vpe v;

	(void)state;
	assert_memory_equal(&q, &d, sizeof(q));
	c = virq_sim_gic_profile(LIBVIRQ_SIM_GIC_V41_FLAT_VPET);
	v41_up(&f, &c.rdist, c.rdist.nr);
	vm_up(&f, &vm);
	assert_int_equal(virq_vpe_init(&v, &vm, 1, LIBVIRQ_ITS_NO_DOORBELL), LIBVIRQ_OK);
	assert_int_equal(f.g.gic.vpeid_limit, 8192);
	assert_int_equal(virq_vpe_destroy(&v), LIBVIRQ_OK);
	assert_int_equal(virq_gic_vm_destroy(&vm), LIBVIRQ_OK);
	itsfx_teardown(&f, true);

	c = virq_sim_gic_profile(LIBVIRQ_SIM_GIC_NONCOHERENT);
	itsfx_setup(&f, &c.rdist, &c.its, 1, true);
	assert_true(f.g.gic.rd_noncoherent);
	assert_true(f.its[0].q.clean);
	for (unsigned t = 0; t < 3; t++)
		assert_true(f.its[0].tbl[t].noncoherent);
	itsfx_teardown(&f, true);

	c = virq_sim_gic_profile(LIBVIRQ_SIM_GIC_FIXED_16K_FLAT);
	itsfx_setup(&f, &c.rdist, &c.its, 1, true);
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal(f.its[0].tbl[t].page_size, 16384);
		assert_false(f.its[0].tbl[t].indirect);
	}
	itsfx_teardown(&f, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vprop41_indirect_raz),
	    cmocka_unit_test(test_vprop41_psz_subset),
	    cmocka_unit_test(test_vprop41_psz_fixed_4k),
	    cmocka_unit_test(test_vprop41_sh_fixed_none),
	    cmocka_unit_test(test_vprop41_inner_fixed_nc),
	    cmocka_unit_test(test_vprop41_outer_fixed_nc),
	    cmocka_unit_test(test_vprop41_pa_bits_refused),
	    cmocka_unit_test(test_vprop41_indirect_raz_shared_refused),
	    cmocka_unit_test(test_vprop41_sh_none_shared_its_cleans),
	    cmocka_unit_test(test_baser_vpe_indirect_raz),
	    cmocka_unit_test(test_baser_dev_indirect_raz),
	    cmocka_unit_test(test_baser_psz_subset_reads_largest),
	    cmocka_unit_test(test_baser_psz_subset_reads_smallest),
	    cmocka_unit_test(test_baser_sh_fixed_none_one_table),
	    cmocka_unit_test(test_baser_sh_fixed_outer),
	    cmocka_unit_test(test_baser_sh_fixed_inner_desc_noncoherent),
	    cmocka_unit_test(test_baser_inner_fixed_wb_with_sh_none),
	    cmocka_unit_test(test_baser_outer_fixed_nc),
	    cmocka_unit_test(test_baser_outer_fixed_wb),
	    cmocka_unit_test(test_baser_pa_bits_refused),
	    cmocka_unit_test(test_baser_type_layout),
	    cmocka_unit_test(test_cbaser_sh_fixed_none),
	    cmocka_unit_test(test_cbaser_sh_fixed_outer),
	    cmocka_unit_test(test_cbaser_inner_fixed_device),
	    cmocka_unit_test(test_cbaser_outer_fixed_nc),
	    cmocka_unit_test(test_cbaser_pa_bits_refused),
	    cmocka_unit_test(test_prop_sh_fixed_none),
	    cmocka_unit_test(test_prop_sh_fixed_outer),
	    cmocka_unit_test(test_prop_inner_fixed_nc),
	    cmocka_unit_test(test_prop_outer_fixed_nc),
	    cmocka_unit_test(test_pend_sh_fixed_none),
	    cmocka_unit_test(test_pend_inner_fixed_device),
	    cmocka_unit_test(test_pend_outer_fixed_wb),
	    cmocka_unit_test(test_prop_pa_bits_refused),
	    cmocka_unit_test(test_pend_pa_bits_refused),
	    cmocka_unit_test(test_pend_noncoherent_after_vm_refused),
	    cmocka_unit_test(test_vprop40_sh_fixed_none),
	    cmocka_unit_test(test_vprop40_programmable),
	    cmocka_unit_test(test_vpend40_inner_fixed_nc),
	    cmocka_unit_test(test_vpend40_outer_fixed_nc),
	    cmocka_unit_test(test_profiles),
	    cmocka_unit_test(test_profiles_model_what_they_say),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
