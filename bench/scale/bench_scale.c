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
 *   bench_scale list       the sizes bench/run uses, per module
 *
 * Architectural minimum (printed next to each count):
 *  - AVIC post to a running vCPU: one doorbell MSR write (APM §15.29.2.8);
 *  - AVIC broadcast (ICR all-but-self, fixed) emulated: one IRR update per
 *    target and one doorbell per target running elsewhere; no MMIO;
 *  - AVIC load / put: no MSR, no MMIO (table entry in memory);
 *  - GICv4 map N vLPIs: N VMAPTI + one VSYNC per vPE, one GITS_CWRITER
 *    write and one GITS_CREADR read per queue-full batch (IHI 0069 §6.2);
 *  - GICv4 schedule in + out: independent of the vLPI count (one
 *    GICR_VPENDBASER write each, + one read for PendingLast);
 *  - GICv4 move vPE: VMOVP + VSYNC, independent of the vLPI count.
 */
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
	struct virq_sim *fh;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu *v;
	uint32_t n;
};

__attribute__((noinline)) void bench_scale_op_post(struct virq_avic_vcpu *v, uint32_t k);
__attribute__((noinline)) void bench_scale_op_post(struct virq_avic_vcpu *v, uint32_t k)
{
	check_(virq_avic_post(v, 0x20 + (k & 0x7F), 0), "post");
}

__attribute__((noinline)) void bench_scale_op_bcast(struct virq_avic_vcpu *s, uint32_t *count);
__attribute__((noinline)) void bench_scale_op_bcast(struct virq_avic_vcpu *s, uint32_t *count)
{
	/* ICR: fixed, vector 0xF0, shorthand all-but-self (19:18 = 3). */
	check_(virq_avic_emulate_icr(s, 0xF0ull | (3ull << 18), NULL, count), "bcast");
}

__attribute__((noinline)) void bench_scale_op_unicast(struct virq_avic_vm *vm,
						      struct virq_avic_vcpu *s, uint32_t dest);
__attribute__((noinline)) void bench_scale_op_unicast(struct virq_avic_vm *vm,
						      struct virq_avic_vcpu *s, uint32_t dest)
{
	struct virq_avic_icr icr = { .vector = 0x40, .delivery_mode = LIBVIRQ_APIC_DM_FIXED,
				     .dest = dest, .x2apic = true };
	uint32_t count;

	check_(virq_avic_resolve(vm, s, &icr, NULL, NULL, &count), "resolve");
}

__attribute__((noinline)) void bench_scale_op_loadput(struct virq_avic_vcpu *v, uint32_t host);
__attribute__((noinline)) void bench_scale_op_loadput(struct virq_avic_vcpu *v, uint32_t host)
{
	check_(virq_avic_vcpu_load(v, host), "load");
	check_(virq_avic_vcpu_put(v), "put");
}


static int avic_row_(uint32_t n)
{
	struct avic_env e;
	struct virq_avic_vm_cfg cfg = { .max_vcpus = n, .vm_id = 1 };
	size_t tables, total;
	unsigned long db, kicks, msr;
	uint32_t running = 0, count = 0;
	const int iters = 64;

	memset(&e, 0, sizeof(e));
	e.n = n;
	cfg.mode = n <= 255 ? LIBVIRQ_AVIC_MODE_XAVIC
		   : n <= 512 ? LIBVIRQ_AVIC_MODE_X2AVIC : LIBVIRQ_AVIC_MODE_X2AVIC_4K;
	e.fh = virq_sim_new();
	e.hal = virq_sim_hal(e.fh);
	virq_sim_cpu_apply(e.fh, &virq_sim_cpus[LIBVIRQ_SIM_CPU_X2AVIC_4K]);
	check_(virq_avic_caps_probe(&e.hal, &e.caps), "caps");
	check_(virq_avic_vm_init(&e.vm, &e.hal, &e.caps, &cfg), "vm_init");
	tables = virq_sim_live_bytes(e.fh);
	e.v = calloc(n, sizeof(*e.v));
	if (!e.v)
		return 1;
	for (uint32_t i = 0; i < n; i++) {
		struct virq_avic_vcpu_cfg vc = { .index = i, .apic_id = i,
						 .cookie = (void *)(uintptr_t)(i + 1) };

		check_(virq_avic_vcpu_init(&e.vm, &e.v[i], &vc), "vcpu_init");
		if (cfg.mode != LIBVIRQ_AVIC_MODE_XAVIC)
			check_(virq_avic_vcpu_set_x2apic(&e.v[i], true), "x2apic");
	}
	total = virq_sim_live_bytes(e.fh);
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
	virq_sim_reset_counters(e.fh);
	for (int k = 0; k < iters; k++)
		bench_scale_op_post(&e.v[n - 1], (uint32_t)k);
	msr = virq_sim_msr_total(e.fh);
	printf("avic  %5u vCPUs  post               MSR %6.2f (min %u)  MMIO 0\n", n,
	       (double)msr / iters, n > 1 ? 1 : 0);
	/* unicast resolution of the last vCPU's x2APIC ID */
	virq_sim_reset_counters(e.fh);
	for (int k = 0; k < iters; k++)
		bench_scale_op_unicast(&e.vm, &e.v[0],
				       cfg.mode == LIBVIRQ_AVIC_MODE_XAVIC ? (n - 1) & 0xFF : n - 1);
	printf("avic  %5u vCPUs  resolve unicast    MSR %6.2f (min 0)  MMIO 0\n", n,
	       (double)virq_sim_msr_total(e.fh) / iters);
	/* broadcast emulation */
	virq_sim_reset_counters(e.fh);
	bench_scale_op_bcast(&e.v[0], &count);
	db = virq_sim_count(e.fh, LIBVIRQ_SIM_MSR_W);
	kicks = virq_sim_count(e.fh, LIBVIRQ_SIM_KICK);
	printf("avic  %5u vCPUs  broadcast IPI      targets %u  doorbells %lu (min %u)  kicks %lu\n",
	       n, count, db, running, kicks);
	/* load + put of the last vCPU */
	check_(virq_avic_vcpu_put(&e.v[n - 1]), "put");
	virq_sim_reset_counters(e.fh);
	for (int k = 0; k < iters; k++)
		bench_scale_op_loadput(&e.v[n - 1], host7_); /* volatile: no constprop clone */
	printf("avic  %5u vCPUs  load+put           MSR %6.2f (min 0)  MMIO %lu\n", n,
	       (double)virq_sim_msr_total(e.fh) / iters, virq_sim_mmio_total(e.fh));
	printf("avic  %5u vCPUs  memory             tables %zu B  backing pages %zu B  total %zu B\n",
	       n, tables, total - tables, total);
	for (uint32_t i = 0; i < n; i++) {
		check_(virq_avic_vcpu_put(&e.v[i]), "put");
		check_(virq_avic_vcpu_destroy(&e.v[i]), "destroy");
	}
	check_(virq_avic_vm_destroy(&e.vm), "vm_destroy");
	free(e.v);
	virq_sim_free(e.fh);
	return 0;
}
#endif

#ifdef HAVE_GICV4_
/* ----------------------------------------------------------------- GICv4 */
#define PER_VPE 32768u                  /* vLPIs per vPE (16 vINTID bits) */

static volatile uint32_t rd1_ = 1; /* as host7_ */

static unsigned long mmio_rd_(struct virq_sim *fh)
{
	return virq_sim_count(fh, LIBVIRQ_SIM_MMIO_R32) + virq_sim_count(fh, LIBVIRQ_SIM_MMIO_R64);
}

static unsigned long mmio_wr_(struct virq_sim *fh)
{
	return virq_sim_count(fh, LIBVIRQ_SIM_MMIO_W32) + virq_sim_count(fh, LIBVIRQ_SIM_MMIO_W64);
}

struct gic_env {
	struct virq_sim *fh;
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

__attribute__((noinline)) void bench_scale_op_map(struct gic_env *e, uint32_t n, uint32_t nvpe);
__attribute__((noinline)) void bench_scale_op_map(struct gic_env *e, uint32_t n, uint32_t nvpe)
{
	for (uint32_t p = 0; p < nvpe; p++)
		check_(virq_vlpi_map_range(&e->dev, p * (n / nvpe), n / nvpe, &e->vpe[p], 8192,
					   false),
		       "map_range");
}

__attribute__((noinline)) void bench_scale_op_sched(struct virq_vpe *v);
__attribute__((noinline)) void bench_scale_op_sched(struct virq_vpe *v)
{
	bool pl;

	check_(virq_vpe_make_resident(v, v->rd), "resident");
	check_(virq_vpe_make_nonresident(v, true, &pl), "nonresident");
}

__attribute__((noinline)) void bench_scale_op_move(struct virq_vpe *v, uint32_t rd);
__attribute__((noinline)) void bench_scale_op_move(struct virq_vpe *v, uint32_t rd)
{
	check_(virq_vpe_move(v, rd), "move");
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
	e.fh = virq_sim_new();
	e.hal = virq_sim_hal(e.fh);
	gc.rdist.nr = 2;
	e.sg = virq_sim_gic_new(e.fh, &gc, &e.desc);
	e.sm = virq_sim_gic_its(e.sg, 0);
	check_(virq_gic_init(&e.gic, &e.hal, &e.desc, e.rds, 2, 16), "gic_init");
	check_(virq_gic_dist_enable(&e.gic), "dist_enable");
	for (uint32_t r = 0; r < e.gic.nr_rd; r++)
		check_(virq_gic_rdist_init(&e.gic, r), "rdist_init");
	check_(virq_its_init(&e.its, &e.gic, &e.desc.its[0], NULL), "its_init");
	for (uint32_t r = 0; r < e.gic.nr_rd; r++)
		check_(virq_its_map_collection(&e.its, r), "mapc");
	base = virq_sim_live_bytes(e.fh);
	for (uint32_t p = 0; p < nvpe; p++) {
		check_(virq_gic_vm_init(&e.vm[p], &e.gic, bits), "vm_init");
		check_(virq_vpe_init(&e.vpe[p], &e.vm[p], 0, LIBVIRQ_ITS_NO_DOORBELL), "vpe_init");
	}
	vmb = virq_sim_live_bytes(e.fh) - base;
	check_(virq_its_device_map(&e.its, &e.dev, 1, n), "device_map");
	devb = virq_sim_live_bytes(e.fh) - base - vmb;

	virq_sim_reset_counters(e.fh);
	virq_sim_its_clear_log(virq_sim_its_state_queue(e.sm));
	bench_scale_op_map(&e, n, nvpe);
	rd = mmio_rd_(e.fh);
	wr = mmio_wr_(e.fh);
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
	total = virq_sim_live_bytes(e.fh);
	bench_scale_op_sched(&e.vpe[0]); /* warm: GICR_VPROPBASER holds this VM */
	virq_sim_reset_counters(e.fh);
	bench_scale_op_sched(&e.vpe[0]);
	printf("gicv4 %5u vLPIs  schedule in+out   MMIO rd %lu wr %lu (min 1 + 2)\n", n,
	       mmio_rd_(e.fh), mmio_wr_(e.fh));
	virq_sim_reset_counters(e.fh);
	virq_sim_its_clear_log(virq_sim_its_state_queue(e.sm));
	bench_scale_op_move(&e.vpe[0], rd1_);
	printf("gicv4 %5u vLPIs  move vPE          cmds %lu (min 2)  MMIO rd %lu wr %lu (min 1 + 1)\n",
	       n, (unsigned long)virq_sim_its_ncmds(virq_sim_its_state_queue(e.sm)), mmio_rd_(e.fh),
	       mmio_wr_(e.fh));
	printf("gicv4 %5u vLPIs  memory            GIC+ITS %zu B  VM/vPE tables %zu B  "
	       "ITT %zu B  total %zu B\n",
	       n, base, vmb, devb, total);
	virq_sim_free(e.fh);
	virq_sim_gic_free(e.sg);
	return 0;
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
#endif
	fprintf(stderr, "usage: bench_scale list | avic N (1..4096) | gicv4 N (1..65536)\n");
	return 2;
}
