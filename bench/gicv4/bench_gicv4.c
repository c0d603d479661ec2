/* SPDX-License-Identifier: MIT */
/*
 * GICv4 core benchmark: hardware accesses (MMIO reads and writes, ITS
 * commands, fake time) per operation, next to the architectural minimum and
 * to what Linux's driver does for the same operation ("Linux (from code)":
 * Linux's access pattern, taken from its code with the function named and
 * measured by running that pattern against the same models; no Linux code
 * is used).
 *
 * Runs the library against the fake HAL with the redistributor and ITS
 * models of sim/. Each operation runs in a steady state and is counted with
 * the fake HAL's counters. The bench_op_* functions are what bench/run and
 * run.sh measure under callgrind (library instructions).
 *
 * Architectural minimum used (IHI 0069H; docs/rationale.md#gic-vpe-residency-sequence,
 * docs/rationale.md#gic-its-command-sync):
 * - make resident 4.0: one GICR_VPENDBASER write (GICR_VPROPBASER too when
 *   the VM changes); + one read where GICR_TYPER.Dirty asks for the commit;
 * - make resident 4.1: one GICR_VPENDBASER write (+ Dirty read);
 * - make non-resident: one GICR_VPENDBASER write + one read (PendingLast);
 * - map or unmap N vLPIs: N commands + one VSYNC per vPE in the queue, one
 *   GITS_CWRITER write and one GITS_CREADR read per queue-full batch;
 * - move a vPE: VMOVP + VSYNC on each ITS that must see it, one CWRITER
 *   write + one CREADR read per ITS, latency one round trip (the ITSes work
 *   in parallel);
 * - stream N commands through a queue of capacity C: ceil(N / C) CWRITER
 *   writes, as many CREADR reads, and an ITS that never waits for work.
 *
 * Linux (from code), drivers/irqchip/irq-gic-v3-its.c and irq-gic-v4.c:
 * - one command (its_send_single_command): its_allocate_entry() checks the
 *   queue is not full by reading GITS_CREADR, once for the command and once
 *   for its SYNC/VSYNC; the read index is read once more before
 *   its_post_commands() writes GITS_CWRITER; its_wait_for_range_completion()
 *   polls GITS_CREADR (at least once): 4 reads + 1 write per command;
 * - vLPI map (its_vlpi_map() on an unmapped event): DISCARD, then VMAPTI,
 *   each a single command: 8 reads + 2 writes, 4 commands;
 * - vLPI unmap (its_vlpi_unmap()): DISCARD as a single command (Linux then
 *   restores the host MAPTI, not counted): 4 reads + 1 write, 2 commands;
 * - GICv4.0 schedule (its_vpe_schedule()): GICR_VPROPBASER written every
 *   time, then GICR_VPENDBASER; deschedule (its_vpe_deschedule() ->
 *   its_clear_vpend_valid()): GICR_VPENDBASER read (Dirty poll, value),
 *   written, read again (Dirty poll): 2 reads + 1 write;
 * - VMOVP without GITS_TYPER.VMOVP (its_send_vmovp()): one single command
 *   per ITS of the ITSList, one after the other: N round trips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/gicv4.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>
#include <libvirq/sim/its.h>
#include <libvirq/sim/its_state.h>
#include <libvirq/sim/rdist.h>

#include "../bench_noinline.h"

#define ITS_BASE LIBVIRQ_SIM_GIC_ITS0_BASE
#define TYPER_40 LIBVIRQ_SIM_GITS_TYPER_QEMU_V40
#define TYPER_40_NOVMOVP (TYPER_40 & ~(1ull << 37))
#define TYPER_41 (TYPER_40 | (1ull << 40) | (1ull << 41))
#define MAX_ITS 16

struct env {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_sim_gic *sg;
	struct virq_sim_its_state *sm[MAX_ITS];
	unsigned nits;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[4];
	struct virq_its its[MAX_ITS];
	struct virq_gic_vm vm[4];
	struct virq_vpe vpe[4];
	uint32_t db[4];
	struct virq_its_device dev;
};

/* SUMMARY lines: bench/run --summary prints them ("name value minimum"). */
static void summary(const char *name, double value, const char *min)
{
	printf("SUMMARY %s %.6g %s\n", name, value, min);
}

static void check(virq_status st, const char *what)
{
	if (st != LIBVIRQ_OK) {
		fprintf(stderr, "bench_gicv4: %s: %s\n", what, virq_status_name(st));
		exit(1);
	}
}

struct opts {
	int version;
	bool dirty, direct_lpi, proxy;
	uint64_t typer;
	unsigned nits, nvms, nr_rd;
	bool lazy; /* vPEs mapped at their first vLPI on an ITS (the default);
		    * false: on every ITS at creation (virq_its_cfg::eager_vpes), for
		    * the benches that move a vPE without vLPIs across N ITSes */
};

static void env_up(struct env *e, const struct opts *o)
{
	struct virq_sim_gic_cfg gc = virq_sim_gic_default_cfg();
	struct virq_its_cfg cfg = {0};

	memset(e, 0, sizeof(*e));
	e->sim = virq_sim_new();
	e->hal = virq_sim_hal(e->sim);
	gc.rdist.version = o->version;
	gc.rdist.dirty = o->dirty;
	gc.rdist.direct_lpi = o->direct_lpi;
	gc.rdist.nr = o->nr_rd ? o->nr_rd : 2;
	gc.nr_its = o->nits;
	gc.its.typer = o->typer;
	e->sg = virq_sim_gic_new(e->sim, &gc, &e->desc);
	e->nits = o->nits;
	for (unsigned i = 0; i < o->nits; i++)
		e->sm[i] = virq_sim_gic_its(e->sg, i);
	check(virq_gic_init(&e->gic, &e->hal, &e->desc, e->rds, 4, 16), "gic_init");
	check(virq_gic_dist_enable(&e->gic), "dist_enable");
	for (uint32_t r = 0; r < e->gic.nr_rd; r++)
		check(virq_gic_rdist_init(&e->gic, r), "rdist_init");
	cfg.proxy_doorbells = o->proxy;
	cfg.eager_vpes = !o->lazy;
	for (unsigned i = 0; i < o->nits; i++) {
		check(virq_its_init(&e->its[i], &e->gic, &e->desc.its[i], &cfg), "its_init");
		for (uint32_t r = 0; r < e->gic.nr_rd; r++)
			check(virq_its_map_collection(&e->its[i], r), "mapc");
	}
	for (unsigned v = 0; v < (o->nvms ? o->nvms : 2); v++) {
		check(virq_lpi_alloc(&e->gic, 1, &e->db[v]), "doorbell");
		check(virq_lpi_set_config(&e->gic, e->db[v], 0xA0, true), "doorbell config");
		check(virq_gic_vm_init(&e->vm[v], &e->gic, 16), "vm");
		check(virq_vpe_init(&e->vpe[v], &e->vm[v], 0, e->db[v]), "vpe");
	}
	check(virq_its_device_map(&e->its[0], &e->dev, 1, 1024), "mapd");
}

static void env_down(struct env *e)
{
	virq_sim_free(e->sim);
	virq_sim_gic_free(e->sg);
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
	virq_sim_reset_counters(e->sim);
	for (unsigned i = 0; i < e->nits; i++)
		virq_sim_its_clear_log(virq_sim_its_state_queue(e->sm[i]));
}

static struct cnt stop(struct env *e)
{
	struct cnt c;

	c.rd = virq_sim_count(e->sim, LIBVIRQ_SIM_MMIO_R32) +
	       virq_sim_count(e->sim, LIBVIRQ_SIM_MMIO_R64);
	c.wr = virq_sim_count(e->sim, LIBVIRQ_SIM_MMIO_W32) +
	       virq_sim_count(e->sim, LIBVIRQ_SIM_MMIO_W64);
	c.cmds = its_cmds(e);
	return c;
}

static void header(const char *title)
{
	printf("\n%s\n", title);
	printf("%-44s %7s %7s %7s | %7s %7s %7s | %7s %7s %7s\n", "operation", "reads", "writes",
	       "cmds", "min rd", "min wr", "min cmd", "Linux r", "Linux w", "Lnx cmd");
}

/* One row; Linux columns "-" when @lx is NULL. */
static void row(const char *what, struct cnt c, unsigned long min_rd, unsigned long min_wr,
		unsigned long min_cmds, const struct cnt *lx)
{
	printf("%-44s %7lu %7lu %7lu | %7lu %7lu %7lu | ", what, c.rd, c.wr, c.cmds, min_rd, min_wr,
	       min_cmds);
	if (lx)
		printf("%7lu %7lu %7lu\n", lx->rd, lx->wr, lx->cmds);
	else
		printf("%7s %7s %7s\n", "-", "-", "-");
}

/* ---------------- Linux's patterns, against the same models ---------------- */

static uint64_t rd_reg(struct env *e, uint32_t rd, uint32_t off)
{
	return e->rds[rd].rd_base + off;
}

/* its_vpe_schedule() (4.0): VPROPBASER every time, then VPENDBASER;
 * its_vpe_4_1_schedule(): VPENDBASER only. + the Dirty poll where
 * implemented (its_wait_vpt_parse_complete()). */
static void linux_schedule(struct env *e, struct virq_vpe *v, bool dirty)
{
	const struct virq_hal_ops *o = e->hal.ops;
	uint64_t vprop = v->vm->vprop.pa | 15, vpend = v->vpt.pa | (1ull << 63) | (1ull << 61);

	if (e->gic.version == LIBVIRQ_GIC_V4_1) {
		vpend = (1ull << 63) | v->vpeid;
	} else {
		(o->mmio_write64)(e->hal.ctx, rd_reg(e, 0, LIBVIRQ_GICR_VPROPBASER), vprop);
	}
	(o->mmio_write64)(e->hal.ctx, rd_reg(e, 0, LIBVIRQ_GICR_VPENDBASER), vpend);
	if (dirty)
		(void)(o->mmio_read64)(e->hal.ctx, rd_reg(e, 0, LIBVIRQ_GICR_VPENDBASER));
}

/* its_clear_vpend_valid(): read (Dirty poll gives the value), write with
 * Valid cleared, read (Dirty poll; PendingLast). */
static void linux_deschedule(struct env *e)
{
	const struct virq_hal_ops *o = e->hal.ops;
	uint64_t a = rd_reg(e, 0, LIBVIRQ_GICR_VPENDBASER);
	uint64_t v = (o->mmio_read64)(e->hal.ctx, a);

	(o->mmio_write64)(e->hal.ctx, a, v & ~(1ull << 63));
	(void)(o->mmio_read64)(e->hal.ctx, a);
}

/* its_send_single_command(): the command and its SYNC/VSYNC, with the
 * queue-full check read before each (its_allocate_entry() ->
 * its_queue_full()), the read index read before posting, one CWRITER write
 * and the completion poll (its_wait_for_range_completion()). */
static void linux_single(struct virq_its *its, const struct virq_its_cmd *cmd,
			 const struct virq_its_cmd *sync)
{
	const struct virq_hal_ops *o = its->q.hal.ops;
	void *ctx = its->q.hal.ctx;
	uint64_t creadr = its->base + LIBVIRQ_GITS_CREADR, t;

	(void)(o->mmio_read32)(ctx, creadr); /* its_queue_full() for the command */
	check(virq_its_queue_push(&its->q, cmd, &its->lim, NULL, NULL), "linux push");
	(void)(o->mmio_read32)(ctx, creadr); /* its_queue_full() for the sync */
	check(virq_its_queue_push(&its->q, sync, &its->lim, NULL, NULL), "linux push sync");
	(void)(o->mmio_read32)(ctx, creadr); /* rd_idx before its_post_commands() */
	check(virq_its_queue_publish(&its->q, &t), "linux publish");
	check(virq_its_queue_wait(&its->q, t, NULL), "linux wait"); /* the poll: >= 1 read */
}

/* ---------------- residency ---------------- */

NOINLINE void bench_op_resident(struct virq_vpe *v, uint32_t rd);
NOINLINE void bench_op_resident(struct virq_vpe *v, uint32_t rd)
{
	check(virq_vpe_make_resident(v, rd), "make_resident");
}

NOINLINE void bench_op_nonresident(struct virq_vpe *v);
NOINLINE void bench_op_nonresident(struct virq_vpe *v)
{
	bool pl;

	check(virq_vpe_make_nonresident(v, true, &pl), "make_nonresident");
}

static void residency(const char *tag, int version, bool dirty)
{
	struct opts o = {version, dirty, false, false, version == 41 ? TYPER_41 : TYPER_40,
			 1,	  2,	 0,	false};
	struct env e;
	struct cnt c, lx, in;
	char name[64];
	unsigned long d = dirty ? 1 : 0;

	env_up(&e, &o);
	bench_op_resident(&e.vpe[0], 0); /* warm: VPROPBASER now holds this VM */
	bench_op_nonresident(&e.vpe[0]);
	start(&e);
	bench_op_resident(&e.vpe[0], 0);
	c = stop(&e);
	start(&e);
	linux_schedule(&e, &e.vpe[0], dirty);
	lx = stop(&e);
	snprintf(name, sizeof(name), "%s schedule in (same VM)", tag);
	row(name, c, d, 1, 0, &lx);
	in = c;
	start(&e);
	bench_op_nonresident(&e.vpe[0]);
	c = stop(&e);
	start(&e);
	linux_deschedule(&e);
	lx = stop(&e);
	snprintf(name, sizeof(name), "%s schedule out", tag);
	row(name, c, 1, 1, 0, &lx);
	if (version == 40 && !dirty)
		summary("gicv4.residency40.mmio_in_out", (double)(in.rd + in.wr + c.rd + c.wr),
			"3");
	start(&e);
	bench_op_resident(&e.vpe[1], 0);
	c = stop(&e);
	start(&e);
	linux_schedule(&e, &e.vpe[1], dirty);
	lx = stop(&e);
	snprintf(name, sizeof(name), "%s schedule in (other VM)", tag);
	row(name, c, d, version == 41 ? 1 : 2, 0, &lx);
	bench_op_nonresident(&e.vpe[1]);
	env_down(&e);
}

/* Residency churn: several VMs take turns on one RD with GICv4.0 doorbell
 * masking (the doorbell is masked while resident, unmasked when the vCPU
 * blocks): DirectLPI (GICR_INVLPIR + GICR_SYNCR) versus the proxy device
 * (INV + SYNC through the ITS). */
NOINLINE void bench_op_churn_cycle(struct virq_vpe *v);
NOINLINE void bench_op_churn_cycle(struct virq_vpe *v)
{
	bool pl;

	check(virq_vpe_make_resident(v, 0), "churn resident");
	check(virq_vpe_make_nonresident(v, true, &pl), "churn nonresident");
}

static void residency_churn(bool direct)
{
	/* 4 RDs: the proxy has one slot per RD, so 4 vPEs keep theirs */
	struct opts o = {40, false, direct, !direct, TYPER_40, 1, 4, 4, false};
	struct env e;
	struct cnt c, lx;
	const unsigned cycles = 256;
	struct virq_its_cmd inv = {.opcode = LIBVIRQ_ITS_INV, .DeviceID = 0xFFFF, .EventID = 0};
	struct virq_its_cmd sync = virq_its_sync_cmd(0);

	env_up(&e, &o);
	for (unsigned v = 0; v < 4; v++)
		check(virq_vpe_set_db_masking(&e.vpe[v], true), "masking");
	for (unsigned v = 0; v < 4; v++) { /* warm (not measured): proxy slots mapped */
		bool pl;

		check(virq_vpe_make_resident(&e.vpe[v], 0), "warm resident");
		check(virq_vpe_make_nonresident(&e.vpe[v], true, &pl), "warm nonresident");
	}
	start(&e);
	for (unsigned k = 0; k < cycles; k++)
		bench_op_churn_cycle(&e.vpe[k % 4]);
	c = stop(&e);
	/* Linux: schedule (VPROP + VPEND) with the doorbell masked, deschedule
	 * (R W R) with it unmasked, each mask change an invalidation: DirectLPI
	 * write + SYNCR read (direct_lpi_inv()), or an INV + SYNC single
	 * command on the proxy device (its_vpe_send_inv()). */
	start(&e);
	for (unsigned k = 0; k < cycles; k++) {
		linux_schedule(&e, &e.vpe[k % 4], false);
		linux_deschedule(&e);
		for (int m = 0; m < 2; m++) {
			if (direct) {
				(e.hal.ops->mmio_write64)(
				    e.hal.ctx, rd_reg(&e, 0, LIBVIRQ_GICR_INVLPIR), e.db[k % 4]);
				(void)(e.hal.ops->mmio_read32)(e.hal.ctx,
							       rd_reg(&e, 0, LIBVIRQ_GICR_SYNCR));
			} else {
				inv.EventID = (uint32_t)e.vpe[k % 4].proxy_event;
				inv.DeviceID = e.its[0].proxy_devid;
				linux_single(&e.its[0], &inv, &sync);
			}
		}
	}
	lx = stop(&e);
	c.rd /= cycles, c.wr /= cycles, c.cmds /= cycles;
	lx.rd /= cycles, lx.wr /= cycles, lx.cmds /= cycles;
	/* minimum per cycle: VPROP + VPEND writes (VM changes), VPEND write +
	 * read, and two invalidations: DirectLPI W + R each, proxy INV + SYNC
	 * (2 commands, 1 CWRITER write, 1 CREADR read) each */
	row(direct ? "churn 4 VMs/RD, masking, DirectLPI (per in+out)"
		   : "churn 4 VMs/RD, masking, proxy (per in+out)",
	    c, 1 + 2, 3 + 2, direct ? 0 : 4, &lx);
	summary(direct ? "gicv4.churn_direct.mmio_per_cycle" : "gicv4.churn_proxy.mmio_per_cycle",
		(double)(c.rd + c.wr), "8");
	env_down(&e);
}

/* ---------------- vLPI map / unmap ---------------- */

NOINLINE void bench_op_map_each(struct env *e, uint32_t n);
NOINLINE void bench_op_map_each(struct env *e, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		check(virq_vlpi_map(&e->dev, i, &e->vpe[0], 8192 + i, false), "vlpi_map");
}

NOINLINE void bench_op_map_range(struct env *e, uint32_t n);
NOINLINE void bench_op_map_range(struct env *e, uint32_t n)
{
	check(virq_vlpi_map_range(&e->dev, 0, n, &e->vpe[0], 8192, false), "vlpi_map_range");
}

NOINLINE void bench_op_unmap_each(struct env *e, uint32_t n);
NOINLINE void bench_op_unmap_each(struct env *e, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		check(virq_vlpi_unmap(&e->dev, i), "vlpi_unmap");
}

NOINLINE void bench_op_unmap_range(struct env *e, uint32_t n);
NOINLINE void bench_op_unmap_range(struct env *e, uint32_t n)
{
	check(virq_vlpi_unmap_range(&e->dev, 0, n), "vlpi_unmap_range");
}

/* Churn: map + unmap again and again, one vLPI per call / 256 per call. */
NOINLINE void bench_op_churn_single(struct env *e, uint32_t rounds);
NOINLINE void bench_op_churn_single(struct env *e, uint32_t rounds)
{
	for (uint32_t k = 0; k < rounds; k++) {
		check(virq_vlpi_map(&e->dev, 0, &e->vpe[0], 8192 + (k & 255), false), "churn map");
		check(virq_vlpi_unmap(&e->dev, 0), "churn unmap");
	}
}

NOINLINE void bench_op_churn_range(struct env *e, uint32_t rounds);
NOINLINE void bench_op_churn_range(struct env *e, uint32_t rounds)
{
	for (uint32_t k = 0; k < rounds; k++) {
		check(virq_vlpi_map_range(&e->dev, 0, 256, &e->vpe[0], 8192, false), "churn range");
		check(virq_vlpi_unmap_range(&e->dev, 0, 256), "churn unmap range");
	}
}

/* Linux's vLPI map of events first .. first + n - 1 of device 2 (each
 * mapped to a host LPI first, as its_vlpi_map() finds them): DISCARD, then
 * VMAPTI, each a single command; its_vlpi_unmap(): DISCARD. */
static struct cnt linux_maps(struct env *e, struct virq_its_device *d, uint32_t n, bool unmap)
{
	struct virq_its *its = &e->its[0];
	struct virq_its_cmd vsync = virq_its_vsync_cmd(e->vpe[0].vpeid);
	struct virq_its_cmd sync = virq_its_sync_cmd(virq_its_rdbase_procnum(0));

	start(e);
	for (uint32_t i = 0; i < n; i++) {
		struct virq_its_cmd dis = {
		    .opcode = LIBVIRQ_ITS_DISCARD, .DeviceID = 2, .EventID = i};
		struct virq_its_cmd vmapti =
		    virq_its_vmapti(2, i, e->vpe[0].vpeid, 8192 + i, LIBVIRQ_ITS_NO_DOORBELL);

		if (unmap) {
			linux_single(its, &dis, &vsync);
		} else {
			linux_single(its, &dis, &sync);
			linux_single(its, &vmapti, &vsync);
		}
	}
	(void)d;
	return stop(e);
}

static void vlpi_maps(void)
{
	struct opts o = {40, false, false, false, TYPER_40, 1, 2, 0, false};
	struct env e;
	struct virq_its_device d2 = {0};
	struct cnt c, lx, lmap, lunmap;
	const uint32_t n = 1024;
	uint32_t lpi;

	env_up(&e, &o);
	/* the device Linux's pattern runs on: every event on a host LPI */
	check(virq_its_device_map(&e.its[0], &d2, 2, n), "mapd 2");
	check(virq_lpi_alloc(&e.gic, 1, &lpi), "host lpi");
	for (uint32_t i = 0; i < n; i++)
		check(virq_its_map_lpi(&d2, i, lpi, 0), "host mapti");
	lmap = linux_maps(&e, &d2, n, false);
	lunmap = linux_maps(&e, &d2, n, true);
	start(&e);
	bench_op_map_each(&e, n);
	c = stop(&e);
	row("map 1,024 vLPIs, one call each", c, 1, 1, 1025, &lmap);
	start(&e);
	bench_op_unmap_each(&e, n);
	c = stop(&e);
	row("unmap 1,024 vLPIs, one call each", c, 1, 1, 1025, &lunmap);
	start(&e);
	bench_op_map_range(&e, n);
	c = stop(&e);
	row("map 1,024 vLPIs, virq_vlpi_map_range", c, 1, 1, 1025, &lmap);
	summary("gicv4.map_range.cwriter_per_1024", (double)c.wr, "1");
	summary("gicv4.map_range.creadr_per_1024", (double)c.rd, "1");
	start(&e);
	bench_op_unmap_range(&e, n);
	c = stop(&e);
	row("unmap 1,024 vLPIs, virq_vlpi_unmap_range", c, 1, 1, 1025, &lunmap);
	summary("gicv4.unmap_range.cwriter_per_1024", (double)c.wr, "1");
	summary("gicv4.unmap_range.creadr_per_1024", (double)c.rd, "1");
	/* churn: Linux per vLPI = its map + its unmap */
	start(&e);
	bench_op_churn_single(&e, 256);
	c = stop(&e);
	c.rd /= 256, c.wr /= 256, c.cmds /= 256;
	lx.rd = (lmap.rd + lunmap.rd) / n, lx.wr = (lmap.wr + lunmap.wr) / n;
	lx.cmds = (lmap.cmds + lunmap.cmds) / n;
	row("churn: map + unmap 1 vLPI (per vLPI)", c, 2, 2, 4, &lx);
	start(&e);
	bench_op_churn_range(&e, 16);
	c = stop(&e);
	printf("%-44s %7.3f %7.3f %7.3f | %7.3f %7.3f %7.3f | %7lu %7lu %7lu\n",
	       "churn: map + unmap 256-ranges (per vLPI)", (double)c.rd / 4096.0,
	       (double)c.wr / 4096.0, (double)c.cmds / 4096.0, 2 / 256.0, 2 / 256.0, 514 / 256.0,
	       lx.rd, lx.wr, lx.cmds);
	summary("gicv4.churn_range.mmio_per_vlpi", (double)(c.rd + c.wr) / 4096.0, "0.015625");
	env_down(&e);
}

/* map 1,024 vLPIs with virq_vlpi_map_range() against an ITS that takes
 * 1 us per command (one command per relax round of the simulator's 1 us
 * step): the completion wait paces its GITS_CREADR reads by that rate
 * (24 reads; about one per command before the paced wait). Warmed
 * once (the vPE's VMAPP and the table pages), then measured. */
static void vlpi_maps_slow(void)
{
	struct opts o = {40, false, false, false, TYPER_40, 1, 1, 0, false};
	struct env e;
	struct cnt c;
	const uint32_t n = 1024;

	env_up(&e, &o);
	check(virq_vlpi_map_range(&e.dev, 0, n, &e.vpe[0], 8192, false),
	      "warm map"); /* not measured */
	check(virq_vlpi_unmap_range(&e.dev, 0, n), "warm unmap");
	virq_sim_its_set_per_relax(virq_sim_its_state_queue(e.sm[0]), 1);
	start(&e);
	bench_op_map_range(&e, n);
	c = stop(&e);
	row("map 1,024 vLPIs, map_range, ITS 1 us/command", c, 1, 1, 1025, NULL);
	bench_op_unmap_range(&e, n);
	env_down(&e);
}

/* ---------------- VMOVP ---------------- */

NOINLINE void bench_op_move(struct virq_vpe *v, uint32_t rd);
NOINLINE void bench_op_move(struct virq_vpe *v, uint32_t rd)
{
	check(virq_vpe_move(v, rd), "vpe_move");
}

static void move(const char *name, uint64_t typer, int version, unsigned nits)
{
	struct opts o = {version, false, false, false, typer, nits, 2, 0, false};
	struct env e;
	struct cnt c, lx;
	unsigned long k = (typer >> 37) & 1 ? 1 : nits;

	env_up(&e, &o);
	start(&e);
	bench_op_move(&e.vpe[0], 1);
	c = stop(&e);
	lx.rd = 4 * k, lx.wr = k, lx.cmds = 2 * k; /* a single command per ITS */
	row(name, c, k, k, 2 * k, &lx);
	env_down(&e);
}

/* VMOVP across 1..16 ITSes (GITS_TYPER.VMOVP = 0, ITSList) whose ITS takes
 * a fixed time per command (one command per relax round of 1 us): the
 * latency of virq_vpe_move() in command times. Published on every ITS,
 * then waited for: one round trip (VMOVP + VSYNC = 2 command times)
 * whatever the number of ITSes; Linux's one-after-the-other is N. */
static void vmovp_latency(void)
{
	printf("\nVMOVP latency across ITSes (GITS_TYPER.VMOVP = 0; each ITS takes 1 us per "
	       "command)\n");
	printf("%-8s %12s %14s %10s %10s %14s\n", "ITSes", "latency us", "round trips", "CWRITER",
	       "CREADR", "Linux trips");
	for (unsigned n = 1; n <= 16; n *= 2) {
		struct opts o = {40, false, false, false, TYPER_40_NOVMOVP, n, 1, 0, false};
		struct env e;
		uint64_t t0, t1;
		double trips, ltrips;
		unsigned long w = 0, r = 0;

		env_up(&e, &o);
		for (unsigned i = 0; i < n; i++)
			virq_sim_its_set_per_relax(virq_sim_its_state_queue(e.sm[i]), 1);
		start(&e);
		t0 = virq_sim_now(e.sim);
		bench_op_move(&e.vpe[0], 1);
		trips = (double)(virq_sim_now(e.sim) - t0) / 2000.0; /* 2 commands of 1 us */
		for (unsigned i = 0; i < n; i++) {
			w += virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64,
					       e.its[i].base + LIBVIRQ_GITS_CWRITER);
			r += virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_R32,
					       e.its[i].base + LIBVIRQ_GITS_CREADR);
		}
		/* Linux (its_send_vmovp()): the VMOVP + VSYNC as a single command
		 * on each ITS of the list in turn, each waited for. */
		t1 = virq_sim_now(e.sim);
		for (unsigned i = 0; i < n; i++) {
			struct virq_its_cmd c = {.opcode = LIBVIRQ_ITS_VMOVP,
						 .vPEID = e.vpe[0].vpeid,
						 .RDbase = virq_its_rdbase_procnum(0),
						 .SequenceNumber = 77,
						 .ITSList = (1u << n) - 1};
			struct virq_its_cmd vs = virq_its_vsync_cmd(e.vpe[0].vpeid);

			linux_single(&e.its[i], &c, &vs);
		}
		ltrips = (double)(virq_sim_now(e.sim) - t1) / 2000.0;
		printf("%-8u %12.1f %14.2f %10lu %10lu %14.2f\n", n, (double)(t1 - t0) / 1000.0,
		       trips, w, r, ltrips);
		if (n == 16)
			summary("gicv4.vmovp_16its.round_trips", trips, "1");
		env_down(&e);
	}
	printf("(minimum: 1 round trip; N CWRITER writes; CREADR reads: at least N)\n");
}

/* ---------------- 16 ITSes, one device ---------------- */

/* A vPE of a VM whose only device is behind ITS 0 of 16 (GITS_TYPER.VMOVP =
 * 0): created, then its first vLPI mapped (lazy mapping: the VMAPP comes
 * with it). */
NOINLINE void bench_op_create16(struct env *e, struct virq_vpe *v);
NOINLINE void bench_op_create16(struct env *e, struct virq_vpe *v)
{
	check(virq_vpe_init(v, &e->vm[0], 0, LIBVIRQ_ITS_NO_DOORBELL), "vpe_init 16");
	check(virq_vlpi_map(&e->dev, 0, v, 8192, false), "first vlpi 16");
}

static void its16_1dev(void)
{
	struct opts o = {40, false, false, false, TYPER_40_NOVMOVP, MAX_ITS, 1, 0, true};
	struct env e;
	struct virq_vpe v;
	struct cnt c, lx;

	env_up(&e, &o);
	start(&e);
	bench_op_create16(&e, &v);
	c = stop(&e);
	c.cmds -= 2; /* the map's own VMAPTI + VSYNC */
	/* Linux (its_vlpi_map() -> its_map_vm()): VMAPP and VINVALL, each a
	 * single command with its VSYNC, on the ITS of the first vLPI. */
	lx.rd = 8, lx.wr = 2, lx.cmds = 4;
	row("create vPE + first vLPI, 16 ITSes (cmds added)", c, 1, 1, 3, &lx);
	summary("vpe_create_16its_1dev_cmds", (double)c.cmds, "3");
	start(&e);
	bench_op_move(&v, 1);
	c = stop(&e);
	/* Linux (its_send_vmovp(), ITSList of the VM's ITSes): one single
	 * command per ITS holding the VM's vLPIs. */
	lx.rd = 4, lx.wr = 1, lx.cmds = 2;
	row("move that vPE, 16 ITSes (VMOVP=0)", c, 1, 1, 2, &lx);
	summary("vpe_move_16its_1dev_cmds", (double)c.cmds, "2");
	env_down(&e);
}

/* ---------------- sustained throughput through a full queue ---------------- */

/* Streams N MAPTI through a queue against an ITS that consumes 8 commands
 * per relax round (it drains while the CPU waits), then drains. "bubbles":
 * command slots of ITS rounds that found nothing published while commands
 * were still to come. The 0.1 policy (a full queue waits for one free slot)
 * is run through the same API for comparison. */
static void stream(uint32_t qbytes, bool one_slot)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_its *m = virq_sim_its_new(sim, ITS_BASE, NULL);
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_its_queue q = {0};
	const uint32_t n = 16384;
	uint32_t cap;
	unsigned long w, r, idle;
	char name[80];

	check(virq_its_queue_init(&q, &hal, ITS_BASE, qbytes, NULL), "queue init");
	virq_sim_its_enable(m, true);
	virq_sim_its_set_per_relax(m, 8);
	cap = virq_its_queue_capacity(&q);
	virq_sim_reset_counters(sim);
	virq_sim_its_reset_idle(m);
	for (uint32_t i = 0; i < n; i++) {
		struct virq_its_cmd c = virq_its_mapti(1, i, 8192 + (i & 1023), 0);

		if (one_slot && q.wr_lin - q.rd_lin >= q.size - LIBVIRQ_ITS_CMD_SIZE) {
			uint64_t t;

			check(virq_its_queue_publish(&q, &t), "publish");
			check(virq_its_queue_wait(&q, q.wr_lin + 2 * LIBVIRQ_ITS_CMD_SIZE - q.size,
						  NULL),
			      "wait one slot");
		}
		check(virq_its_queue_push(&q, &c, NULL, NULL, NULL), "push");
	}
	idle = virq_sim_its_idle_slots(m);
	check(virq_its_queue_drain(&q, NULL), "drain");
	w = virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_W64, ITS_BASE + LIBVIRQ_GITS_CWRITER);
	r = virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_R32, ITS_BASE + LIBVIRQ_GITS_CREADR);
	snprintf(name, sizeof(name), "%u KiB queue, %s", qbytes / 1024,
		 one_slot ? "wait for 1 slot (0.1)" : "wait for half the queue");
	printf("%-44s %8lu %8lu %10.4f %8lu | %8u %8u %6d\n", name, w, r, (double)(w + r) / n, idle,
	       (n + cap - 1) / cap, (n + cap - 1) / cap, 0);
	if (!one_slot) {
		char key[64], min[16];

		snprintf(key, sizeof(key), "gicv4.stream%uk.mmio_per_cmd", qbytes / 1024);
		summary(key, (double)(w + r) / n, "-");
		snprintf(key, sizeof(key), "gicv4.stream%uk.cwriter_writes", qbytes / 1024);
		snprintf(min, sizeof(min), "%u", (n + cap - 1) / cap);
		summary(key, (double)w, min);
		snprintf(key, sizeof(key), "gicv4.stream%uk.bubbles", qbytes / 1024);
		summary(key, (double)idle, "0");
	}
	check(virq_its_queue_fini(&q), "its_queue_fini");
	virq_sim_free(sim);
	virq_sim_its_free(m);
}

/* HAL memory per device: 4,096 devices of 32 events mapped on ITS 0 (what
 * the maps add: ITTs, tracking, the device table's level-2 page, the DeviceID
 * index), with QEMU's 12-byte ITT entries and with 8-byte ones. The
 * minimum is the ITT alone (32 entries). Unmapping them all must give every
 * byte back. */
static void device_memory(void)
{
	static struct virq_its_device devs[4096];
	static const struct {
		const char *name;
		uint64_t typer;
	} prof[2] = {
	    {"QEMU 7.2 ITS, 12-byte ITT entries", TYPER_40},
	    {"ITS with 8-byte ITT entries", (TYPER_40 & ~0xF0ull) | 0x70ull},
	};

	printf("%-44s %10s %10s %10s\n", "4,096 devices of 32 events", "bytes/dev", "ITT alone",
	       "pages");
	for (unsigned p = 0; p < 2; p++) {
		struct opts o = {40, false, false, false, prof[p].typer, 1, 2, 0, true};
		struct env e;
		size_t before, pages0, bytes;
		unsigned esz = (unsigned)((prof[p].typer >> 4) & 0xF) + 1;
		char min[16];

		env_up(&e, &o);
		before = virq_sim_live_bytes(e.sim);
		pages0 = virq_sim_live_pages(e.sim);
		for (uint32_t i = 0; i < 4096; i++)
			check(virq_its_device_map(&e.its[0], &devs[i], 2 + i, 32), "device map");
		bytes = virq_sim_live_bytes(e.sim) - before;
		printf("%-44s %10.1f %10u %10zu\n", prof[p].name, (double)bytes / 4096.0, 32 * esz,
		       virq_sim_live_pages(e.sim) - pages0);
		snprintf(min, sizeof(min), "%u", 32 * esz);
		if (p == 0)
			summary("gicv4_device_bytes_32ev", (double)bytes / 4096.0, min);
		else
			summary("gicv4_device_bytes_32ev_esz8", (double)bytes / 4096.0, min);
		for (uint32_t i = 0; i < 4096; i++)
			check(virq_its_device_unmap(&devs[i]), "device unmap");
		if (virq_sim_live_pages(e.sim) > pages0 + 2) { /* the index and L2 page stay */
			fprintf(stderr,
				"bench_gicv4: %zu pages kept after unmapping every device\n",
				virq_sim_live_pages(e.sim) - pages0);
			exit(1);
		}
		env_down(&e);
	}
}

/* bench_gicv4 [SECTION]: everything, or one section (run.sh measures each
 * under callgrind on its own): residency, churn-direct, churn-proxy, maps,
 * move-vmovp, move-itslist, move-41, its16, latency, stream, maps-slow,
 * memory. */
int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	static const char *const sections[] = {
	    "residency", "churn-direct", "churn-proxy", "maps",	  "move-vmovp", "move-itslist",
	    "move-41",	 "its16",	 "latency",	"stream", "maps-slow",	"memory"};
	bool known = !only;

	for (size_t i = 0; only && i < sizeof(sections) / sizeof(sections[0]); i++)
		known |= strcmp(only, sections[i]) == 0;
	if (!known) {
		fprintf(stderr,
			"usage: bench_gicv4 [residency | churn-direct | churn-proxy | maps | "
			"move-vmovp | move-itslist | move-41 | its16 | latency | stream | "
			"maps-slow | memory]\n");
		return 2;
	}
#define RUN_(sec) (!only || strcmp(only, sec) == 0)
	printf("libvirq GICv4 core: hardware accesses per operation (fake HAL + models)\n");
	if (RUN_("residency") || RUN_("churn-direct") || RUN_("churn-proxy"))
		header("Residency");
	if (RUN_("residency")) {
		residency("4.0", 40, false);
		residency("4.0 + Dirty", 40, true);
		residency("4.1", 41, false);
		residency("4.1 + Dirty", 41, true);
	}
	if (RUN_("churn-direct"))
		residency_churn(true);
	if (RUN_("churn-proxy"))
		residency_churn(false);
	if (RUN_("maps")) {
		header("vLPI mappings");
		vlpi_maps();
	}
	if (RUN_("maps-slow")) {
		header("vLPI mappings, ITS taking 1 us per command");
		vlpi_maps_slow();
	}
	if (RUN_("move-vmovp") || RUN_("move-itslist") || RUN_("move-41"))
		header("VMOVP");
	if (RUN_("move-vmovp"))
		move("move vPE, VMOVP=1 (one ITS of 2)", TYPER_40, 40, 2);
	if (RUN_("move-itslist"))
		move("move vPE, VMOVP=0 (ITSList, 3 ITSes)", TYPER_40_NOVMOVP, 40, 3);
	if (RUN_("move-41"))
		move("move vPE, GICv4.1 (DB + default doorbell)", TYPER_41, 41, 1);
	if (RUN_("its16")) {
		header("16 ITSes, the VM's only device behind ITS 0");
		its16_1dev();
	}
	if (RUN_("memory")) {
		printf("\nMemory per device (HAL bytes the maps add)\n");
		device_memory();
	}
	if (RUN_("latency"))
		vmovp_latency();
	if (RUN_("stream")) {
		printf(
		    "\nSustained throughput: 16,384 MAPTI through a full queue, ITS draining 8 per "
		    "round\n");
		printf("%-44s %8s %8s %10s %8s | %8s %8s %6s\n", "queue, policy", "CWRITER",
		       "CREADR", "MMIO/cmd", "bubbles", "min wr", "min rd", "min b");
		stream(4096, true);
		stream(4096, false);
		stream(65536, true);
		stream(65536, false);
		printf("(waiting for half the queue: about two CWRITER writes per queue-full, so "
		       "the ITS\n"
		       " always has work; one write per queue-full, the minimum, leaves it idle "
		       "while\n"
		       " the CPU refills. CREADR reads are the polls while the ITS drains.)\n");
	}
#undef RUN_
	if (only)
		return 0;
	printf("\nreads/writes are MMIO accesses; cmds are ITS commands (32 bytes each, in "
	       "memory).\n");
	printf("Non-resident reads include the PendingLast read; the residency/map/move models'\n");
	printf("ITS is synchronous, so one GITS_CREADR read per batch sees completion.\n");
	printf("Linux columns: Linux's access pattern for the operation (see the file comment),\n");
	printf("run against the same models.\n");
	return 0;
}
