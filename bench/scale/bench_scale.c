/* SPDX-License-Identifier: MIT */
/*
 * Scale benchmark: how the cost of the main operations grows with the
 * number of vCPUs (AVIC, 1 .. 4,096) and of mapped vLPIs (GICv4, 1 ..
 * 65,536), and how much table memory each size takes. Runs the library on
 * the fake HAL with the hardware models of sim and counts hardware
 * accesses with the fake HAL's counters; bench/run runs it under callgrind
 * (collecting only the bench_scale_op_* functions) for instruction counts.
 *
 *   bench_scale avic N     one row for a VM of N vCPUs
 *   bench_scale gicv4 N    one row for N mapped vLPIs
 *   bench_scale setup N    GICv4 setup of N vPEs and N devices with sparse
 *                          DeviceIDs (1 .. 65,536; lazily backed memory)
 *   bench_scale list       the sizes bench/run uses, per module
 *
 * Architectural minimum (printed next to each count):
 *  - AVIC post to a running vCPU: one doorbell MSR write (APM §15.29.2.8);
 *  - AVIC broadcast (ICR all-but-self, fixed) emulated: one IRR update per
 *    target and one doorbell per target running elsewhere; no MMIO;
 *  - AVIC load / put: no MSR, no MMIO (table entry in memory);
 *  - GICv4 map N vLPIs: N VMAPTI + one VSYNC per vPE, one GITS_CWRITER
 *    write and one GITS_CREADR read per queue-full batch (IHI 0069H §5.2);
 *  - GICv4 schedule in + out: independent of the vLPI count (one
 *    GICR_VPENDBASER write each, + one read for PendingLast);
 *  - GICv4 move vPE: VMOVP + VSYNC, independent of the vLPI count;
 *  - GICv4 unmap N vLPIs: N DISCARD + one VSYNC per vPE, as the map;
 *  - GICv4 setup: VMAPP + VINVALL + VSYNC per vPE and MAPD per device, a
 *    constant cost per object whatever the number already created (vPEID
 *    allocation is O(1)); a level-2 table page per 64 KiB of table touched.
 */
#define _DEFAULT_SOURCE 1 /* mmap MAP_ANONYMOUS / MAP_NORESERVE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/virq.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/hal.h>

#if defined(LIBVIRQ_HAVE_AVIC) && __has_include(<libvirq/avic.h>)
#define HAVE_AVIC_ 1
#include <libvirq/avic.h>
#endif
#if defined(LIBVIRQ_HAVE_GICV4) && __has_include(<libvirq/gicv4/vpe.h>) && \
	__has_include(<libvirq/sim/its_state.h>)
#define HAVE_GICV4_ 1
#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/sim/its.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/its_state.h>
#include <libvirq/sim/rdist.h>

#endif

#include "../bench_noinline.h"

static __attribute__((unused)) void check_(virq_status st, const char *what)
{
	if (st != LIBVIRQ_OK) {
		fprintf(stderr, "bench_scale: %s: %s\n", what, virq_strerror(st));
		exit(1);
	}
}

#ifdef HAVE_AVIC_
/* ------------------------------------------------------------------ AVIC */
/* A call-site constant read from a volatile, so that the compiler cannot
 * clone bench_scale_op_loadput (callgrind collects the functions by name). */
static volatile uint32_t host7_ = 7;

struct avic_env {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu *v;
	uint32_t n;
};

NOINLINE void bench_scale_op_post(struct virq_avic_vcpu *v, uint32_t k);
NOINLINE void bench_scale_op_post(struct virq_avic_vcpu *v, uint32_t k)
{
	check_(virq_avic_post(v, 0x20 + (k & 0x7F), 0), "post");
}

NOINLINE void bench_scale_op_bcast(struct virq_avic_vcpu *s, uint32_t *count);
NOINLINE void bench_scale_op_bcast(struct virq_avic_vcpu *s, uint32_t *count)
{
	/* ICR: fixed, vector 0xF0, shorthand all-but-self (19:18 = 3). */
	check_(virq_avic_emulate_icr(s, 0xF0ull | (3ull << 18), NULL, count), "bcast");
}

NOINLINE void bench_scale_op_unicast(struct virq_avic_vm *vm, struct virq_avic_vcpu *s,
				     uint32_t dest);
NOINLINE void bench_scale_op_unicast(struct virq_avic_vm *vm, struct virq_avic_vcpu *s,
				     uint32_t dest)
{
	struct virq_avic_icr icr = {
	    .vector = 0x40, .delivery_mode = LIBVIRQ_APIC_DM_FIXED, .dest = dest, .x2apic = true};
	uint32_t count;

	check_(virq_avic_resolve(vm, s, &icr, NULL, NULL, &count), "resolve");
}

NOINLINE void bench_scale_op_loadput(struct virq_avic_vcpu *v, uint32_t host);
NOINLINE void bench_scale_op_loadput(struct virq_avic_vcpu *v, uint32_t host)
{
	check_(virq_avic_vcpu_load(v, host), "load");
	check_(virq_avic_vcpu_put(v), "put");
}

static int avic_row_(uint32_t n)
{
	struct avic_env e;
	struct virq_avic_vm_cfg cfg = {.max_vcpus = n, .vm_id = 1};
	size_t tables, total;
	unsigned long db, kicks, msr;
	uint32_t running = 0, count = 0;
	const int iters = 64;

	memset(&e, 0, sizeof(e));
	e.n = n;
	cfg.mode = n <= 255   ? LIBVIRQ_AVIC_MODE_XAVIC
		   : n <= 512 ? LIBVIRQ_AVIC_MODE_X2AVIC
			      : LIBVIRQ_AVIC_MODE_X2AVIC_4K;
	e.sim = virq_sim_new();
	e.hal = virq_sim_hal(e.sim);
	virq_sim_cpu_apply(e.sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_X2AVIC_4K]);
	check_(virq_avic_caps_probe(&e.hal, &e.caps), "caps");
	check_(virq_avic_vm_init(&e.vm, &e.hal, &e.caps, &cfg), "vm_init");
	tables = virq_sim_live_bytes(e.sim);
	e.v = calloc(n, sizeof(*e.v));
	if (!e.v)
		return 1;
	for (uint32_t i = 0; i < n; i++) {
		struct virq_avic_vcpu_cfg vc = {
		    .index = i, .apic_id = i, .cookie = (void *)(uintptr_t)(i + 1)};

		check_(virq_avic_vcpu_init(&e.vm, &e.v[i], &vc), "vcpu_init");
		if (cfg.mode != LIBVIRQ_AVIC_MODE_XAVIC)
			check_(virq_avic_vcpu_set_x2apic(&e.v[i], true), "x2apic");
	}
	total = virq_sim_live_bytes(e.sim);
	/* vCPU 0 sends from host CPU 0; every other vCPU runs on its own CPU. */
	check_(virq_avic_vcpu_load(&e.v[0], 0), "load0");
	for (uint32_t i = 1; i < n; i++) {
		check_(virq_avic_vcpu_load(&e.v[i], 1 + (i % 4095)), "load");
		running++;
	}
	for (uint32_t i = 0; i < n; i++) { /* before VMRUN: AVIC enabled in the VMCB */
		struct virq_avic_vmcb_values vv;

		check_(virq_avic_vcpu_vmcb_values(&e.v[i], &vv), "vmcb_values");
	}
	/* post: to the last vCPU (running elsewhere, or vCPU 0 itself when n = 1) */
	virq_sim_reset_counters(e.sim);
	for (int k = 0; k < iters; k++)
		bench_scale_op_post(&e.v[n - 1], (uint32_t)k);
	msr = virq_sim_msr_total(e.sim);
	printf("avic  %5u vCPUs  post               MSR %6.2f (min %u)  MMIO 0\n", n,
	       (double)msr / iters, n > 1 ? 1 : 0);
	/* unicast resolution of the last vCPU's x2APIC ID */
	virq_sim_reset_counters(e.sim);
	for (int k = 0; k < iters; k++)
		bench_scale_op_unicast(
		    &e.vm, &e.v[0], cfg.mode == LIBVIRQ_AVIC_MODE_XAVIC ? (n - 1) & 0xFF : n - 1);
	printf("avic  %5u vCPUs  resolve unicast    MSR %6.2f (min 0)  MMIO 0\n", n,
	       (double)virq_sim_msr_total(e.sim) / iters);
	/* broadcast emulation */
	virq_sim_reset_counters(e.sim);
	bench_scale_op_bcast(&e.v[0], &count);
	db = virq_sim_count(e.sim, LIBVIRQ_SIM_MSR_W);
	kicks = virq_sim_count(e.sim, LIBVIRQ_SIM_KICK);
	printf(
	    "avic  %5u vCPUs  broadcast IPI      targets %u  doorbells %lu (min %u)  kicks %lu\n",
	    n, count, db, running, kicks);
	/* load + put of the last vCPU */
	check_(virq_avic_vcpu_put(&e.v[n - 1]), "put");
	virq_sim_reset_counters(e.sim);
	for (int k = 0; k < iters; k++)
		bench_scale_op_loadput(&e.v[n - 1], host7_); /* volatile: no constprop clone */
	printf("avic  %5u vCPUs  load+put           MSR %6.2f (min 0)  MMIO %lu\n", n,
	       (double)virq_sim_msr_total(e.sim) / iters, virq_sim_mmio_total(e.sim));
	printf(
	    "avic  %5u vCPUs  memory             tables %zu B  backing pages %zu B  total %zu B\n",
	    n, tables, total - tables, total);
	for (uint32_t i = 0; i < n; i++) {
		check_(virq_avic_vcpu_put(&e.v[i]), "put");
		check_(virq_avic_vcpu_destroy(&e.v[i]), "destroy");
	}
	check_(virq_avic_vm_destroy(&e.vm), "vm_destroy");
	free(e.v);
	virq_sim_free(e.sim);
	return 0;
}
#endif

#ifdef HAVE_GICV4_
/* ----------------------------------------------------------------- GICv4 */
#define PER_VPE 32768u /* vLPIs per vPE (16 vINTID bits) */

static volatile uint32_t rd1_ = 1; /* as host7_ */

static unsigned long mmio_rd_(struct virq_sim *sim)
{
	return virq_sim_count(sim, LIBVIRQ_SIM_MMIO_R32) +
	       virq_sim_count(sim, LIBVIRQ_SIM_MMIO_R64);
}

static unsigned long mmio_wr_(struct virq_sim *sim)
{
	return virq_sim_count(sim, LIBVIRQ_SIM_MMIO_W32) +
	       virq_sim_count(sim, LIBVIRQ_SIM_MMIO_W64);
}

struct gic_env {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_sim_gic *sg;
	struct virq_sim_its_state *sm;
	struct virq_gic_desc desc;
	struct virq_gic gic;
	struct virq_gic_rdist rds[2];
	struct virq_its its;
	struct virq_gic_vm vm[2];
	struct virq_vpe vpe[2];
	struct virq_its_device dev;
};

NOINLINE void bench_scale_op_map(struct gic_env *e, uint32_t n, uint32_t nvpe);
NOINLINE void bench_scale_op_map(struct gic_env *e, uint32_t n, uint32_t nvpe)
{
	for (uint32_t p = 0; p < nvpe; p++)
		check_(
		    virq_vlpi_map_range(&e->dev, p * (n / nvpe), n / nvpe, &e->vpe[p], 8192, false),
		    "map_range");
}

#define GIC_ITERS 64 /* per-call figures: bench/run divides by this */

NOINLINE void bench_scale_op_sched(struct virq_vpe *v, uint32_t iters);
NOINLINE void bench_scale_op_sched(struct virq_vpe *v, uint32_t iters)
{
	bool pl;

	for (uint32_t k = 0; k < iters; k++) {
		check_(virq_vpe_make_resident(v, v->rd), "resident");
		check_(virq_vpe_make_nonresident(v, true, &pl), "nonresident");
	}
}

NOINLINE void bench_scale_op_move(struct virq_vpe *v, uint32_t rd, uint32_t iters);
NOINLINE void bench_scale_op_move(struct virq_vpe *v, uint32_t rd, uint32_t iters)
{
	for (uint32_t k = 0; k < iters; k++)
		check_(virq_vpe_move(v, (k & 1) ? 0 : rd), "move");
}

NOINLINE void bench_scale_op_unmap(struct gic_env *e, uint32_t n, uint32_t nvpe);
NOINLINE void bench_scale_op_unmap(struct gic_env *e, uint32_t n, uint32_t nvpe)
{
	check_(virq_vlpi_unmap_range(&e->dev, 0, n / nvpe * nvpe), "unmap_range");
}

static int gicv4_row_(uint32_t n)
{
	struct gic_env e;
	struct virq_sim_gic_cfg gc = virq_sim_gic_default_cfg();
	uint32_t nvpe = n > PER_VPE ? 2 : 1, per = n / nvpe, bits = 14;
	size_t base, vmb, devb, total;
	unsigned long rd, wr, cmds, cap;

	while ((1u << bits) < 8192 + per)
		bits++;
	memset(&e, 0, sizeof(e));
	e.sim = virq_sim_new();
	e.hal = virq_sim_hal(e.sim);
	gc.rdist.nr = 2;
	e.sg = virq_sim_gic_new(e.sim, &gc, &e.desc);
	e.sm = virq_sim_gic_its(e.sg, 0);
	check_(virq_gic_init(&e.gic, &e.hal, &e.desc, e.rds, 2, 16), "gic_init");
	check_(virq_gic_dist_enable(&e.gic), "dist_enable");
	for (uint32_t r = 0; r < e.gic.nr_rd; r++)
		check_(virq_gic_rdist_init(&e.gic, r), "rdist_init");
	check_(virq_its_init(&e.its, &e.gic, &e.desc.its[0], NULL), "its_init");
	for (uint32_t r = 0; r < e.gic.nr_rd; r++)
		check_(virq_its_map_collection(&e.its, r), "mapc");
	base = virq_sim_live_bytes(e.sim);
	for (uint32_t p = 0; p < nvpe; p++) {
		check_(virq_gic_vm_init(&e.vm[p], &e.gic, bits), "vm_init");
		check_(virq_vpe_init(&e.vpe[p], &e.vm[p], 0, LIBVIRQ_ITS_NO_DOORBELL), "vpe_init");
	}
	vmb = virq_sim_live_bytes(e.sim) - base;
	check_(virq_its_device_map(&e.its, &e.dev, 1, n), "device_map");
	devb = virq_sim_live_bytes(e.sim) - base - vmb;

	virq_sim_reset_counters(e.sim);
	virq_sim_its_clear_log(virq_sim_its_state_queue(e.sm));
	bench_scale_op_map(&e, n, nvpe);
	rd = mmio_rd_(e.sim);
	wr = mmio_wr_(e.sim);
	cmds = (unsigned long)virq_sim_its_ncmds(virq_sim_its_state_queue(e.sm));
	cap = 65536 / 32 - 1; /* default 64 KiB queue */
	{
		unsigned long mincmd = n + nvpe, minb = 0;

		for (uint32_t p = 0; p < nvpe; p++)
			minb += (per + 1 + cap - 1) / cap;
		printf("gicv4 %5u vLPIs  map               cmds %lu (min %lu)  MMIO rd %lu wr %lu "
		       "(min %lu + %lu)\n",
		       n, cmds, mincmd, rd, wr, minb, minb);
	}
	total = virq_sim_live_bytes(e.sim);
	virq_sim_reset_counters(e.sim);
	bench_scale_op_sched(&e.vpe[0], GIC_ITERS); /* the first writes GICR_VPROPBASER */
	printf("gicv4 %5u vLPIs  schedule in+out   MMIO rd %.2f wr %.2f (min 1 + 2) per cycle\n", n,
	       (double)mmio_rd_(e.sim) / GIC_ITERS, (double)(mmio_wr_(e.sim) - 1) / GIC_ITERS);
	virq_sim_reset_counters(e.sim);
	virq_sim_its_clear_log(virq_sim_its_state_queue(e.sm));
	bench_scale_op_move(&e.vpe[0], rd1_, GIC_ITERS);
	printf("gicv4 %5u vLPIs  move vPE          cmds %.2f (min 2)  MMIO rd %.2f wr %.2f (min 1 "
	       "+ 1) "
	       "per move\n",
	       n, (double)virq_sim_its_ncmds(virq_sim_its_state_queue(e.sm)) / GIC_ITERS,
	       (double)mmio_rd_(e.sim) / GIC_ITERS, (double)mmio_wr_(e.sim) / GIC_ITERS);
	virq_sim_reset_counters(e.sim);
	virq_sim_its_clear_log(virq_sim_its_state_queue(e.sm));
	bench_scale_op_unmap(&e, n, nvpe);
	{
		unsigned long mincmd = n + nvpe;

		printf(
		    "gicv4 %5u vLPIs  unmap             cmds %lu (min %lu)  MMIO rd %lu wr %lu\n",
		    n, (unsigned long)virq_sim_its_ncmds(virq_sim_its_state_queue(e.sm)), mincmd,
		    mmio_rd_(e.sim), mmio_wr_(e.sim));
	}
	printf("gicv4 %5u vLPIs  memory            GIC+ITS %zu B  VM/vPE tables %zu B  "
	       "ITT %zu B  total %zu B\n",
	       n, base, vmb, devb, total);
	virq_sim_free(e.sim);
	virq_sim_gic_free(e.sg);
	return 0;
}

/* ------------------------------------------------- GICv4 setup scaling */
/*
 * 65,536 vPEs need 65,536 VPTs of 64 KiB (4 GiB) and as many device ITTs:
 * the fake HAL zeroes every block, so this mode gives the library a HAL
 * whose page allocator hands out lazily backed memory (an anonymous
 * NORESERVE mapping: pages the library never touches cost nothing; PA = VA)
 * and whose ITS is an "instant ITS" register hook (GITS_CREADR reads back
 * GITS_CWRITER: every command completes at once; the queue is not
 * decoded). The redistributor model and the rest of the fake HAL are
 * unchanged. What is measured is the library's setup work per object.
 */
#include <sys/mman.h>

#define SETUP_ITS LIBVIRQ_SIM_GIC_ITS0_BASE

static uint8_t *arena_;
static size_t arena_used_, arena_live_, arena_bytes_;
static const struct virq_hal_ops *sim_ops_;

static virq_status arena_alloc_(void *ctx, size_t size, size_t align, struct virq_page *page)
{
	uintptr_t at = ((uintptr_t)arena_ + arena_used_ + align - 1) & ~(uintptr_t)(align - 1);
	size_t off = (size_t)(at - (uintptr_t)arena_);

	(void)ctx;
	if (!size || off + size > arena_bytes_)
		return LIBVIRQ_ENOMEM;
	arena_used_ = off + size;
	arena_live_ += size;
	page->va = arena_ + off;
	page->pa = (uint64_t)(uintptr_t)(arena_ + off);
	page->size = size;
	return LIBVIRQ_OK;
}

static void arena_free_(void *ctx, const struct virq_page *page)
{
	(void)ctx;
	arena_live_ -= page->size;
}

struct iits_ {
	uint32_t ctlr;
	uint64_t cbaser, cwriter, baser[8];
};

static uint64_t iits_rd_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned width)
{
	struct iits_ *m = arg;
	uint64_t off = addr - SETUP_ITS;
	static const uint64_t type[8] = {1, 4, 2, 0, 0, 0, 0, 0};

	(void)sim;
	(void)width;
	if (off == 0x00)
		return m->ctlr | 0x80000000u; /* always quiescent */
	if (off == 0x04)
		return 0x43B;
	if (off == 0x08)
		return LIBVIRQ_SIM_GITS_TYPER_QEMU_V40;
	if (off == 0x80)
		return m->cbaser;
	if (off == 0x88)
		return m->cwriter;
	if (off == 0x90)
		return m->cwriter; /* instant: everything published is consumed */
	if (off >= 0x100 && off < 0x140)
		return m->baser[(off - 0x100) / 8] | (type[(off - 0x100) / 8] << 56) | (7ull << 48);
	if (off == 0xFFE8)
		return 0x4B;
	return 0;
}

static void iits_wr_(void *arg, struct virq_sim *sim, uint64_t addr, uint64_t v, unsigned width)
{
	struct iits_ *m = arg;
	uint64_t off = addr - SETUP_ITS;

	(void)sim;
	(void)width;
	if (off == 0x00)
		m->ctlr = (uint32_t)v & 0xF3u;
	else if (off == 0x80)
		m->cbaser = v;
	else if (off == 0x88)
		m->cwriter = v & 0xFFFE0ull;
	else if (off >= 0x100 && off < 0x140)
		m->baser[(off - 0x100) / 8] = v & ~((7ull << 56) | (0x1Full << 48));
}

NOINLINE void bench_scale_op_vpes(struct virq_gic_vm *vm, struct virq_vpe *v, uint32_t n);
NOINLINE void bench_scale_op_vpes(struct virq_gic_vm *vm, struct virq_vpe *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		check_(virq_vpe_init(&v[i], vm, 0, LIBVIRQ_ITS_NO_DOORBELL), "vpe_init");
}

/* Sparse DeviceIDs: i times an odd constant, modulo 2^16 (a permutation
 * that scatters neighbours across the two-level device table). */
static uint32_t sparse_id_(uint32_t i)
{
	return (i * 40503u) & 0xFFFFu;
}

NOINLINE void bench_scale_op_devs(struct virq_its *its, struct virq_its_device *d, uint32_t n);
NOINLINE void bench_scale_op_devs(struct virq_its *its, struct virq_its_device *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		check_(virq_its_device_map(its, &d[i], sparse_id_(i), 2), "device_map");
}

static unsigned l2_pages_(const struct virq_its_table *t)
{
	const uint64_t *l1 = t->l1.va;
	unsigned c = 0;

	for (uint32_t k = 0; t->indirect && k < t->nr_l1; k++)
		c += (unsigned)(l1[k] >> 63);
	return c;
}

static int setup_row_(uint32_t n)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_rdist_cfg rc = virq_sim_rdist_default_cfg();
	struct virq_sim_rdist *rm;
	static struct virq_hal_ops ops;
	struct virq_hal hal;
	struct iits_ iits = {0};
	struct virq_gic_desc desc = {0};
	struct virq_gic gic = {0};
	struct virq_gic_rdist rds[1];
	struct virq_its its = {0};
	struct virq_its_cfg icfg = {0};
	struct virq_gic_vm vm = {0};
	struct virq_vpe *v = calloc(n, sizeof(*v));
	struct virq_its_device *d = calloc(n, sizeof(*d));
	size_t base, after_vpes;
	unsigned long wr, cmds_w;

	/* 64 KiB VPT per vPE, ITT + tracking per device, tables and queue */
	arena_bytes_ = (size_t)n * (80u << 10) + (256u << 20);
	arena_ = mmap(NULL, arena_bytes_, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (arena_ == MAP_FAILED || !v || !d) {
		fprintf(stderr, "bench_scale: no memory for %u vPEs\n", n);
		return 1;
	}
	sim_ops_ = virq_sim_hal_ops();
	ops = *sim_ops_;
	ops.page_alloc = arena_alloc_;
	ops.page_free = arena_free_;
	hal = virq_sim_hal(sim);
	hal.ops = &ops;
	rc.nr = 1;
	rm = virq_sim_rdist_new(sim, &rc);
	virq_sim_add_region(sim, SETUP_ITS, 0x20000, iits_rd_, iits_wr_, &iits);
	desc.gicd_base = rc.gicd_base;
	desc.gicd_size = LIBVIRQ_GIC_FRAME_SIZE;
	desc.nr_redist_regions = 1;
	desc.redist[0] = (struct virq_gic_redist_region){rc.rd_base, 0x40000, 0};
	desc.nr_its = 1;
	desc.its[0] = (struct virq_gic_its_desc){.base = SETUP_ITS, .size = 0x20000};
	check_(virq_gic_init(&gic, &hal, &desc, rds, 1, 16), "gic_init");
	check_(virq_gic_rdist_init(&gic, 0), "rdist_init");
	/* Eager: each vPE mapped at creation, so that the VMAPP path (vPE
	 * table level-2 pages) is measured flat too; lazily a vPE costs no
	 * command until its first vLPI. */
	icfg.numa_node = -1;
	icfg.eager_vpes = true;
	check_(virq_its_init(&its, &gic, &desc.its[0], &icfg), "its_init");
	check_(virq_gic_vm_init(&vm, &gic, 14), "vm_init");
	base = arena_live_;
	virq_sim_reset_counters(sim);
	bench_scale_op_vpes(&vm, v, n);
	cmds_w = virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_W64, SETUP_ITS + LIBVIRQ_GITS_CWRITER);
	after_vpes = arena_live_;
	printf("setup %5u vPEs     commands %lu (min %lu)  CWRITER writes %lu  memory %.1f KiB per "
	       "vPE\n",
	       n, (unsigned long)its.cmds, 3ul * n, cmds_w,
	       (double)(after_vpes - base) / n / 1024.0);
	virq_sim_reset_counters(sim);
	bench_scale_op_devs(&its, d, n);
	wr = virq_sim_count_at(sim, LIBVIRQ_SIM_MMIO_W64, SETUP_ITS + LIBVIRQ_GITS_CWRITER);
	printf(
	    "setup %5u devices  MAPD %lu (min %u)  CWRITER writes %lu  memory %.1f KiB per device"
	    "  device-table level-2 pages %u\n",
	    n, wr, n, wr, (double)(arena_live_ - after_vpes) / n / 1024.0,
	    l2_pages_(&its.tbl[LIBVIRQ_ITS_TBL_DEV]));
	for (uint32_t i = 0; i < n; i++)
		check_(virq_its_device_unmap(&d[i]), "device_unmap");
	for (uint32_t i = 0; i < n; i++)
		check_(virq_vpe_destroy(&v[i]), "vpe_destroy");
	check_(virq_gic_vm_destroy(&vm), "vm_destroy");
	check_(virq_its_destroy(&its), "its_destroy");
	check_(virq_gic_destroy(&gic), "gic_destroy");
	if (arena_live_)
		fprintf(stderr, "bench_scale: setup leaked %zu bytes\n", arena_live_);
	free(v);
	free(d);
	virq_sim_free(sim);
	virq_sim_rdist_free(rm);
	munmap(arena_, arena_bytes_);
	return arena_live_ ? 1 : 0;
}
#endif

int main(int argc, char **argv)
{
	uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0;

	(void)n; /* unused when neither AVIC nor the GICv4 core is built */

	if (argc > 1 && strcmp(argv[1], "list") == 0) {
#ifdef HAVE_AVIC_
		printf("avic 1 16 64 256 512 1024 4096\n");
#endif
#ifdef HAVE_GICV4_
		printf("gicv4 1 16 256 1024 4096 16384 65536\n");
		printf("setup 1 16 256 4096 65536\n");
#endif
		return 0;
	}
#ifdef HAVE_AVIC_
	if (argc > 2 && strcmp(argv[1], "avic") == 0 && n >= 1 && n <= 4096)
		return avic_row_(n);
#endif
#ifdef HAVE_GICV4_
	if (argc > 2 && strcmp(argv[1], "gicv4") == 0 && n >= 1 && n <= 65536 &&
	    (n <= PER_VPE || n % 2 == 0))
		return gicv4_row_(n);
	if (argc > 2 && strcmp(argv[1], "setup") == 0 && n >= 1 && n <= 65536)
		return setup_row_(n);
#endif
	fprintf(stderr, "usage: bench_scale list | avic N (1..4096) | gicv4 N (1..65536) | setup N "
			"(1..65536)\n");
	return 2;
}
