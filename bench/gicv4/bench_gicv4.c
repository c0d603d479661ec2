/* SPDX-License-Identifier: MIT */
/*
 * GICv4 core benchmark: hardware accesses (MMIO reads and writes, ITS
 * commands) per operation, next to the architectural minimum.
 *
 * Runs the library against the fake HAL with the redistributor and ITS
 * models from sim (a synchronous ITS like QEMU 7.2: one GITS_CREADR
 * read sees completion). Each operation is run in a steady state and
 * counted with the fake HAL's counters.
 *
 * Architectural minimum used (IHI 0069; docs/rationale.md#gic-its-command-sync,
 * docs/rationale.md#gic-vpe-residency-sequence):
 * - make resident 4.0: one GICR_VPENDBASER write (GICR_VPROPBASER too when
 *   the VM changes); + one read where GICR_TYPER.Dirty asks for the commit;
 * - make resident 4.1: one GICR_VPENDBASER write (+ Dirty read);
 * - make non-resident: one GICR_VPENDBASER write + one read (PendingLast);
 * - map N vLPIs: N VMAPTI + 1 VSYNC in the queue, one GITS_CWRITER write
 *   and one GITS_CREADR read when the batch fits the queue;
 * - move a vPE: VMOVP + VSYNC on each ITS that must see it (one ITS when
 *   GITS_TYPER.VMOVP = 1, every ITS otherwise), one CWRITER write + one
 *   CREADR read per ITS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/its_state.h>
#include <libvirq/sim/rdist.h>

#define ITS_BASE 0x08080000ull
#define TYPER_40 0x0000003F0001EFB3ull
#define TYPER_40_NOVMOVP (TYPER_40 & ~(1ull << 37))
#define TYPER_41 (TYPER_40 | (1ull << 40))

struct env {
	struct virq_sim *fh;
	struct virq_hal hal;
	struct virq_sim_rdist *rm;
	struct virq_sim_its_state *sm[3];
	unsigned nits;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[4];
	struct virq_its its[3];
	struct virq_gic_vm vm, vm2;
	struct virq_vpe vpe, vpe2;
	struct virq_its_device dev;
};

static void check(virq_status st, const char *what)
{
	if (st != LIBVIRQ_OK) {
		fprintf(stderr, "bench_gicv4: %s: %s\n", what, virq_status_name(st));
		exit(1);
	}
}

static void env_up(struct env *e, int version, bool dirty, uint64_t typer, unsigned nits)
{
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();

	memset(e, 0, sizeof(*e));
	e->fh = virq_sim_new();
	e->hal = virq_sim_hal(e->fh);
	rc.version = version;
	rc.dirty = dirty;
	rc.nr = 2;
	e->rm = virq_sim_rdist_new(e->fh, &rc);
	e->desc.gicd_base = rc.gicd_base;
	e->desc.gicd_size = 0x10000;
	e->desc.nr_redist_regions = 1;
	e->desc.redist[0] = (struct virq_gic_redist_region){rc.rd_base, 0xF60000, 0};
	e->nits = nits;
	e->desc.nr_its = nits;
	for (unsigned i = 0; i < nits; i++) {
		struct virq_sim_its_state_cfg ic = virq_sim_its_state_default_cfg(ITS_BASE + i * 0x100000ull);

		ic.typer = typer;
		ic.rm = e->rm;
		e->sm[i] = virq_sim_its_state_new(e->fh, &ic);
		e->desc.its[i].base = ic.base;
		e->desc.its[i].size = 0x20000;
	}
	check(virq_gic_init(&e->gic, &e->hal, &e->desc, e->rds, 4, 16), "gic_init");
	check(virq_gic_dist_enable(&e->gic), "dist_enable");
	for (uint32_t r = 0; r < e->gic.nr_rd; r++)
		check(virq_gic_rdist_init(&e->gic, r), "rdist_init");
	for (unsigned i = 0; i < nits; i++) {
		check(virq_its_init(&e->its[i], &e->gic, &e->desc.its[i], NULL), "its_init");
		for (uint32_t r = 0; r < e->gic.nr_rd; r++)
			check(virq_its_map_collection(&e->its[i], r), "mapc");
	}
	check(virq_gic_vm_init(&e->vm, &e->gic, 16), "vm");
	check(virq_gic_vm_init(&e->vm2, &e->gic, 16), "vm2");
	check(virq_vpe_init(&e->vpe, &e->vm, 0, LIBVIRQ_ITS_NO_DOORBELL), "vpe");
	check(virq_vpe_init(&e->vpe2, &e->vm2, 0, LIBVIRQ_ITS_NO_DOORBELL), "vpe2");
	check(virq_its_device_map(&e->its[0], &e->dev, 1, 1024), "mapd");
}

static void env_down(struct env *e)
{
	virq_sim_free(e->fh);
	virq_sim_rdist_free(e->rm);
	for (unsigned i = 0; i < e->nits; i++)
		virq_sim_its_state_free(e->sm[i]);
}

struct cnt {
	unsigned long rd, wr, cmds;
};

static unsigned long its_cmds(struct env *e)
{
	unsigned long n = 0;

	for (unsigned i = 0; i < e->nits; i++)
		n += (unsigned long)virq_sim_its_ncmds(virq_sim_its_state_queue(e->sm[i]));
	return n;
}

static void start(struct env *e)
{
	virq_sim_reset_counters(e->fh);
	for (unsigned i = 0; i < e->nits; i++)
		virq_sim_its_clear_log(virq_sim_its_state_queue(e->sm[i]));
}

static struct cnt stop(struct env *e)
{
	struct cnt c;

	c.rd = virq_sim_count(e->fh, LIBVIRQ_SIM_MMIO_R32) + virq_sim_count(e->fh, LIBVIRQ_SIM_MMIO_R64);
	c.wr = virq_sim_count(e->fh, LIBVIRQ_SIM_MMIO_W32) + virq_sim_count(e->fh, LIBVIRQ_SIM_MMIO_W64);
	c.cmds = its_cmds(e);
	return c;
}

static void row(const char *what, struct cnt c, unsigned long min_rd, unsigned long min_wr,
		unsigned long min_cmds)
{
	printf("%-44s %6lu %6lu %7lu   | %6lu %6lu %7lu\n", what, c.rd, c.wr, c.cmds, min_rd,
	       min_wr, min_cmds);
}

/* Named bench_op_* so that run.sh --callgrind can collect only these. */
__attribute__((noinline)) void bench_op_resident(struct virq_vpe *v, uint32_t rd);
__attribute__((noinline)) void bench_op_resident(struct virq_vpe *v, uint32_t rd)
{
	check(virq_vpe_make_resident(v, rd), "make_resident");
}

__attribute__((noinline)) void bench_op_nonresident(struct virq_vpe *v);
__attribute__((noinline)) void bench_op_nonresident(struct virq_vpe *v)
{
	bool pl;

	check(virq_vpe_make_nonresident(v, true, &pl), "make_nonresident");
}

static void residency(const char *tag, int version, bool dirty)
{
	struct env e;
	struct cnt c;
	char name[64];
	unsigned long d = dirty ? 1 : 0;

	env_up(&e, version, dirty, version == 41 ? TYPER_41 : TYPER_40, 1);
	bench_op_resident(&e.vpe, 0); /* warm: VPROPBASER now holds this VM */
	bench_op_nonresident(&e.vpe);
	start(&e);
	bench_op_resident(&e.vpe, 0);
	c = stop(&e);
	snprintf(name, sizeof(name), "%s schedule in (same VM)", tag);
	row(name, c, d, 1, 0);
	start(&e);
	bench_op_nonresident(&e.vpe);
	c = stop(&e);
	snprintf(name, sizeof(name), "%s schedule out", tag);
	row(name, c, 1, 1, 0);
	start(&e);
	bench_op_resident(&e.vpe2, 0);
	c = stop(&e);
	snprintf(name, sizeof(name), "%s schedule in (other VM)", tag);
	row(name, c, d, version == 41 ? 1 : 2, 0);
	bench_op_nonresident(&e.vpe2);
	env_down(&e);
}

__attribute__((noinline)) void bench_op_map_each(struct env *e, uint32_t n);
__attribute__((noinline)) void bench_op_map_each(struct env *e, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		check(virq_vlpi_map(&e->dev, i, &e->vpe, 8192 + i, false), "vlpi_map");
}

__attribute__((noinline)) void bench_op_map_range(struct env *e, uint32_t n);
__attribute__((noinline)) void bench_op_map_range(struct env *e, uint32_t n)
{
	check(virq_vlpi_map_range(&e->dev, 0, n, &e->vpe, 8192, false), "vlpi_map_range");
}

static void map_1024(void)
{
	struct env e;
	struct cnt c;

	env_up(&e, 40, false, TYPER_40, 1);
	start(&e);
	bench_op_map_each(&e, 1024);
	c = stop(&e);
	row("map 1,024 vLPIs, one call each", c, 1, 1, 1025);
	for (uint32_t i = 0; i < 1024; i++)
		check(virq_vlpi_unmap(&e.dev, i), "unmap");
	start(&e);
	bench_op_map_range(&e, 1024);
	c = stop(&e);
	row("map 1,024 vLPIs, virq_vlpi_map_range", c, 1, 1, 1025);
	env_down(&e);
}

__attribute__((noinline)) void bench_op_move(struct virq_vpe *v, uint32_t rd);
__attribute__((noinline)) void bench_op_move(struct virq_vpe *v, uint32_t rd)
{
	check(virq_vpe_move(v, rd), "vpe_move");
}

static void move(const char *name, uint64_t typer, int version, unsigned nits)
{
	struct env e;
	struct cnt c;
	unsigned long k = (typer >> 37) & 1 ? 1 : nits;

	env_up(&e, version, false, typer, nits);
	start(&e);
	bench_op_move(&e.vpe, 1);
	c = stop(&e);
	row(name, c, k, k, 2 * k);
	env_down(&e);
}

int main(void)
{
	printf("libvirq GICv4 core: hardware accesses per operation (fake HAL + models)\n");
	printf("%-44s %6s %6s %7s   | %6s %6s %7s\n", "operation", "reads", "writes", "cmds",
	       "min rd", "min wr", "min cmd");
	residency("4.0", 40, false);
	residency("4.0 + Dirty", 40, true);
	residency("4.1", 41, false);
	residency("4.1 + Dirty", 41, true);
	map_1024();
	move("move vPE, VMOVP=1 (one ITS of 2)", TYPER_40, 40, 2);
	move("move vPE, VMOVP=0 (ITSList, 3 ITSes)", TYPER_40_NOVMOVP, 40, 3);
	move("move vPE, GICv4.1 (DB + default doorbell)", TYPER_41, 41, 1);
	printf(
	    "reads/writes are MMIO accesses; cmds are ITS commands (32 bytes each, in memory).\n");
	printf(
	    "Non-resident reads include the PendingLast read; the model's ITS is synchronous,\n");
	printf("so one GITS_CREADR read per batch sees completion.\n");
	return 0;
}
