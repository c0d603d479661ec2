/* SPDX-License-Identifier: MIT */
/*
 * The measurements. Everything GIC-side goes through libvirq's public API
 * (gicv4/gic.h, gicv4/its.h, gicv4/vpe.h): GIC and redistributor bring-up
 * for every CPU, the ITS, the devices, physical LPIs for the emulated
 * baseline, one doorbell LPI and one vPE per vCPU, vLPI mapping/remapping,
 * residency, VMOVP. The layout of events and vINTIDs is in hv.h.
 */
#include "scenarios.h"

#include "hv.h"
#include "minihv_hal.h"

#include <libfdt.h>
#include <string.h>

#define N_DIRECT 1000u
#define N_EMUL 1000u
#define N_EDU 1000u
#define N_EDU_HVC 250u
#define N_DOORBELL 1000u
#define N_REMAP 256u
#define N_NEG 64u
#define N_SMP 500u
#define SELFTEST_PHYS_SAMPLE 700u /* i % 16 = 12, not the wrong-vINTID event 5 */

struct hv hv;

static const char *const scen_name_[SC_COUNT] = {
    "emulated: CPU write", "direct: CPU write", "emulated: edu MSI",  "direct: edu MSI",
    "direct: edu via HVC", "doorbell",		"remap/unmap",	      "negative control",
    "SMP: vCPUs at once",  "migration",		"migration+doorbell",
};

void check(virq_status st, const char *what)
{
	if (st != LIBVIRQ_OK) {
		con_printf("minihv: CPU %u: %s failed: %s\n", this_cpu()->idx, what,
			   virq_strerror(st));
		semihost_exit(5);
	}
}

void cost_addn(const char *what, uint64_t cmds, uint32_t times)
{
	for (uint32_t i = 0; i < hv.nr_costs; i++) {
		if (!strcmp(hv.costs[i].what, what)) {
			hv.costs[i].cmds += cmds;
			hv.costs[i].times += times;
			return;
		}
	}
	if (hv.nr_costs < sizeof(hv.costs) / sizeof(hv.costs[0]))
		hv.costs[hv.nr_costs++] = (struct cost){what, cmds, times};
}

void cost_add(const char *what, uint64_t cmds)
{
	cost_addn(what, cmds, 1);
}

uint32_t cpu_of_rd(uint32_t rd)
{
	for (uint32_t i = 0; i < nr_cpus; i++)
		if (cpus[i].rd == rd)
			return i;
	return 0;
}

/* ---------------- EL2 handlers ---------------- */

static void lr_write_(unsigned n, uint64_t v)
{
	switch (n) {
	case 0:
		write_sysreg(S3_4_C12_C12_0, v);
		break;
	case 1:
		write_sysreg(S3_4_C12_C12_1, v);
		break;
	case 2:
		write_sysreg(S3_4_C12_C12_2, v);
		break;
	default:
		write_sysreg(S3_4_C12_C12_3, v);
		break;
	}
}

/* Emulated path: inject vINTID through a free list register (Arm IHI 0069H §12.4.8). */
void inject_lr(uint32_t vintid)
{
	uint64_t elrsr = read_sysreg(ICH_ELRSR_EL2);
	unsigned n = elrsr ? (unsigned)__builtin_ctzll(elrsr) : 0;

	if (!elrsr || n >= NR_LR_MAX) {
		this_cpu()->irq.spurious++;
		return;
	}
	/* State = pending (01) [63:62], Group1 [60], Priority [55:48], vINTID [31:0]. */
	lr_write_(n, (1ull << 62) | (1ull << 60) | (0xa0ull << 48) | vintid);
	isb();
}

/*
 * A doorbell of vCPU @x taken on this CPU. The INTID names the vPE (one
 * doorbell LPI per vPE); where the vPE is now is libvirq's ::virq_vpe::rd. A
 * doorbell for a vPE that has moved to another redistributor is stale: it is
 * forwarded (wake the vCPU where it is now) and counted. One that reaches
 * the target of a virq_vpe_move() still in progress is not stale: the ITS
 * routes to the new redistributor as soon as it executed the VMOVP, before
 * the call has written ::virq_vpe::rd.
 */
struct stale_diag stale_diag;

void doorbell_irq(struct percpu *p, struct vcpu *x)
{
	uint32_t rd = x->vpe.rd, to = x->moving_to;

	if (rd == p->rd || to == p->rd) {
		p->irq.doorbells++;
		if (rd != p->rd)
			p->irq.doorbells_in_move++;
		x->wake = 1;
		dsb(sy);
		if (hv.cur == SC_DOORBELL && !(x->vpe.flags & LIBVIRQ_VPE_RESIDENT)) {
			virq_status st = virq_vpe_make_resident(&x->vpe, p->rd);

			if (st != LIBVIRQ_OK && hv.hook_err == LIBVIRQ_OK)
				hv.hook_err = st;
		}
		return;
	}
	p->irq.stale_doorbells++;
	if (!__atomic_exchange_n(&stale_diag.taken, 1u, __ATOMIC_ACQ_REL)) {
		/* The first one says where everything was (printed by the report:
		 * no console lock in an interrupt handler). */
		stale_diag.vcpu = x->id;
		stale_diag.cpu = p->idx;
		stale_diag.cpu_rd = p->rd;
		stale_diag.vpe_rd = rd;
		stale_diag.flags = x->vpe.flags;
		stale_diag.moving_to = to;
		stale_diag.state = mig_state_now();
		dsb(sy);
		stale_diag.valid = 1;
	}
	x->wake = 1;
	dsb(sy);
	cpu_kick(cpu_of_rd(x->vpe.rd));
}

void irq_main(struct vcpu *v, uint32_t intid)
{
	struct percpu *p = this_cpu();
	struct vcpu *x;

	(void)v;
	if (hv.cur == SC_EMUL_TR && intid >= hv.plpi0 && intid < hv.plpi0 + NR_VEV) {
		p->irq.lpis++;
		inject_lr(VINTID0 + (intid - hv.plpi0));
	} else if (hv.cur == SC_EDU_EMUL && intid == hv.plpi_edu) {
		p->irq.lpis++;
		inject_lr(VINTID0 + SLOT_EDU);
	} else if ((x = vcpu_by_doorbell(intid)) != NULL) {
		doorbell_irq(p, x);
	} else {
		p->irq.spurious++;
	}
}

static uint32_t remap_vintid_[N_REMAP];

/* Harness requests from the guest (vCPU 0), before sample @p i is triggered. */
static void hvc_main_(struct vcpu *v, uint64_t i)
{
	virq_status st = LIBVIRQ_OK;

	if (hv.cur == SC_DOORBELL) {
		/* The vCPU "blocks": vPE out, doorbell wanted. */
		bool pl = false;

		if (v->vpe.flags & LIBVIRQ_VPE_RESIDENT)
			st = virq_vpe_make_nonresident(&v->vpe, true, &pl);
	} else if (hv.cur == SC_REMAP && i < N_REMAP) {
		uint32_t vi = remap_vintid_[i];

		if (vi == 0) {
			if (hv.remap_mapped)
				st = virq_vlpi_unmap(&hv.dev0, 0);
			hv.remap_mapped = false;
		} else if (!hv.remap_mapped) {
			st = virq_vlpi_map(&hv.dev0, 0, &v->vpe, vi, true);
			hv.remap_mapped = true;
		} else {
			st = virq_vlpi_remap(&hv.dev0, 0, &v->vpe, vi);
		}
	} else if (hv.cur == SC_EDU_HVC) {
		/* EL2 is the device's driver here: it rings the device itself. */
		*(volatile uint32_t *)(uintptr_t)(hv.edu.bar0 + EDU_RAISE) = 1;
		dsb(sy);
	}
	if (st != LIBVIRQ_OK && hv.hook_err == LIBVIRQ_OK)
		hv.hook_err = st;
}

/* ---------------- bring-up through libvirq ---------------- */

static uint32_t affinity_(uint64_t mpidr)
{
	return (uint32_t)(((mpidr >> 32) & 0xff) << 24 | (mpidr & 0xffffff));
}

/* The ITS lock hook (virq_its_cfg::lock): libvirq calls these around every
 * use of the ITS, so any CPU may send commands while another does. */
static void its_lock_acquire_(void *arg)
{
	bakery_lock(arg);
}

static void its_lock_release_(void *arg)
{
	bakery_unlock(arg);
}

static void gic_bring_up_(const struct virq_gic_desc *desc)
{
	struct virq_its_cfg cfg;

	if (desc->nr_its == 0) {
		con_puts("minihv: the device tree has no enabled ITS\n");
		semihost_exit(6);
	}
	check(virq_gic_init(&hv.gic, &minihv_hal, desc, hv.rds, MAX_RD, LPI_BITS), "virq_gic_init");
	if (hv.gic.version < LIBVIRQ_GIC_V4_0) {
		con_printf("minihv: %s has no direct injection (need gic-version=4)\n",
			   virq_gic_version_name(hv.gic.version));
		semihost_exit(6);
	}
	check(virq_gic_dist_enable(&hv.gic), "virq_gic_dist_enable");
	/* Every CPU's redistributor, brought up from this CPU (RD frames are MMIO). */
	for (uint32_t i = 0; i < nr_cpus; i++) {
		check(virq_gic_find_rdist(&hv.gic, affinity_(cpus[i].mpidr), &cpus[i].rd),
		      "virq_gic_find_rdist");
		check(virq_gic_rdist_init(&hv.gic, cpus[i].rd), "virq_gic_rdist_init");
		rd_ppi_enable(hv.gic.rd[cpus[i].rd].rd_base, hyp_timer_intid);
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.numa_node = -1;
	/* GICv4.0 without DirectLPI (QEMU): doorbells are reached through the proxy. */
	cfg.proxy_doorbells = true;
	cfg.lock.acquire = its_lock_acquire_;
	cfg.lock.release = its_lock_release_;
	cfg.lock.arg = &hv.its_lock;
	check(virq_its_init(&hv.its, &hv.gic, &desc->its[0], &cfg), "virq_its_init");
	for (uint32_t i = 0; i < nr_cpus; i++)
		check(virq_its_map_collection(&hv.its, cpus[i].rd), "virq_its_map_collection");
	hv.translater = desc->its[0].base + GITS_TRANSLATER;
}

static struct gblock gblocks_[MAX_VCPUS];
static struct {
	uint8_t b[GUEST_STACK] __attribute__((aligned(16)));
} gstacks_[MAX_VCPUS];

static void vcpus_bring_up_(void)
{
	uint64_t c;

	check(virq_gic_vm_init(&hv.vm, &hv.gic, LPI_BITS), "virq_gic_vm_init");
	nr_vcpus = nr_cpus;
	for (uint32_t i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];

		vcpu_setup(v, i, &gblocks_[i], gstacks_[i].b);
		check(virq_lpi_alloc(&hv.gic, 1, &v->doorbell), "virq_lpi_alloc(doorbell)");
		check(virq_lpi_set_config(&hv.gic, v->doorbell, 0xa0, true),
		      "virq_lpi_set_config(doorbell)");
		c = hv.its.cmds;
		check(virq_vpe_init(&v->vpe, &hv.vm, cpus[i].rd, v->doorbell), "virq_vpe_init");
		cost_add("vPE set-up (virq_vpe_init)", hv.its.cmds - c);
	}
}

static void devices_bring_up_(void)
{
	uint64_t c = hv.its.cmds;
	struct vcpu *a = &vcpus[0];

	check(virq_its_device_map(&hv.its, &hv.dev0, 0, DEV0_EVENTS), "virq_its_device_map(0)");
	cost_add("device map (MAPD)", hv.its.cmds - c);
	/* vCPU 0's slots, in two batches (44..47 are not DeviceID 0's). */
	c = hv.its.cmds;
	check(virq_vlpi_map_range(&hv.dev0, 0, SLOT_EDU, &a->vpe, VINTID0, true),
	      "virq_vlpi_map_range");
	cost_add("44 vLPIs (virq_vlpi_map_range)", hv.its.cmds - c);
	check(virq_vlpi_map_range(&hv.dev0, SLOT_PROBE0, NR_SLOTS - SLOT_PROBE0, &a->vpe,
				  VINTID0 + SLOT_PROBE0, true),
	      "virq_vlpi_map_range");
#ifdef MINIHV_SELFTEST_FAULTS
	/* Self-test of the verdict: event 5 deliberately reaches the wrong vINTID. */
	check(virq_vlpi_remap(&hv.dev0, 5, &a->vpe, REMAP_VINTID0 + 5), "virq_vlpi_remap");
#endif
	hv.remap_mapped = true;
	/* Emulated baseline: physical LPIs owned by the hypervisor, on CPU 0's RD. */
	check(virq_lpi_alloc(&hv.gic, NR_VEV, &hv.plpi0), "virq_lpi_alloc");
	for (uint32_t k = 0; k < NR_VEV; k++) {
		check(virq_lpi_set_config(&hv.gic, hv.plpi0 + k, 0xa0, true),
		      "virq_lpi_set_config");
		c = hv.its.cmds;
		check(virq_its_map_lpi(&hv.dev0, DEV0_PHYS_EV0 + k, hv.plpi0 + k, cpus[0].rd),
		      "virq_its_map_lpi");
		cost_add("physical LPI (virq_its_map_lpi)", hv.its.cmds - c);
	}
	for (uint32_t i = 1; i < nr_vcpus; i++)
		check(virq_vlpi_map_range(&hv.dev0, DEV0_VCPU_EV0 + NR_VEV * (i - 1), NR_VEV,
					  &vcpus[i].vpe, VINTID0, true),
		      "virq_vlpi_map_range(vCPU i)");
}

/* The edu device: found on the bus, its DeviceID through the msi-map. */
static void edu_bring_up_(const void *fdt, const struct virq_gic_desc *desc)
{
	struct virq_fdt_msi_target t;
	const char *why = NULL;
	uint64_t c;
	uint32_t ident;
	virq_status st;

	if (pcie_host_from_dt(fdt, fdt_totalsize(fdt), &hv.host) != 0)
		semihost_exit(2);
	if (pci_find(&hv.host, EDU_VENDOR, EDU_DEVICE, &hv.edu, &hv.nr_pci_functions) != 0) {
		con_printf("minihv: no edu device (%x:%x) on the PCIe bus (run QEMU with -device "
			   "edu)\n",
			   EDU_VENDOR, EDU_DEVICE);
		semihost_exit(2);
	}
	/* Which ITS and DeviceID the device's MSIs carry: libvirq's msi-map look-up
	 * (the ITS phandle differs with -smp; the RID with -nic none). */
	st = virq_fdt_msi_map(fdt, fdt_totalsize(fdt), desc, hv.host.dt.node, hv.edu.rid,
			      LIBVIRQ_FDT_ANY_ITS, &t, &why);
	if (st != LIBVIRQ_OK) {
		con_printf("minihv: RID 0x%x: virq_fdt_msi_map: %s (%s)\n", hv.edu.rid, why,
			   virq_strerror(st));
		semihost_exit(2);
	}
	hv.edu_its = t.its_index;
	hv.edu_devid = t.devid;
	hv.edu_its_phandle = t.its_phandle;
	if (hv.edu_its != 0) {
		con_puts("minihv: the edu's MSIs go to an ITS other than the first\n");
		semihost_exit(2);
	}
	if (pci_assign_bar0(&hv.host, &hv.edu) != 0 || pci_find_msi(&hv.edu) != 0)
		semihost_exit(2);
	ident = *(volatile uint32_t *)(uintptr_t)(hv.edu.bar0 + EDU_IDENT);
	if ((ident & 0xff) != 0xed) {
		con_printf("minihv: edu BAR0 identification reads 0x%x\n", ident);
		semihost_exit(2);
	}
	hv.edu_mapped_devid = hv.edu_devid;
#ifdef MINIHV_WRONG_DEVID
	/* Negative build: the device is mapped under a DeviceID it does not have. */
	hv.edu_mapped_devid = hv.edu_devid ^ 1u;
#endif
	c = hv.its.cmds;
	check(virq_its_device_map(&hv.its, &hv.edu_dev, hv.edu_mapped_devid, 2),
	      "virq_its_device_map(edu)");
	cost_add("device map (MAPD)", hv.its.cmds - c);
	c = hv.its.cmds;
	check(virq_vlpi_map(&hv.edu_dev, EDU_EV_VIRT, &vcpus[0].vpe, VINTID0 + SLOT_EDU, true),
	      "virq_vlpi_map(edu)");
	cost_add("one vLPI (virq_vlpi_map)", hv.its.cmds - c);
	check(virq_lpi_alloc(&hv.gic, 1, &hv.plpi_edu), "virq_lpi_alloc(edu)");
	check(virq_lpi_set_config(&hv.gic, hv.plpi_edu, 0xa0, true), "virq_lpi_set_config(edu)");
	check(virq_its_map_lpi(&hv.edu_dev, EDU_EV_PHYS, hv.plpi_edu, cpus[0].rd),
	      "virq_its_map_lpi(edu)");
	/* The device writes GITS_TRANSLATER of the ITS the msi-map names (no IOMMU,
	 * no dma-ranges: bus address = CPU address); data = EventID. */
	pci_msi_enable(&hv.edu, hv.translater, EDU_EV_VIRT);
}

/* ---------------- running vCPUs ---------------- */

/* Runs @v on this CPU for one command; returns the exit code. */
static int run_cmd_(struct vcpu *v, uint32_t cmd)
{
	v->g->cmd = cmd;
	v->g->mode = cmd;
	dsb(sy);
	return vcpu_run(v);
}

static void hooks_(struct percpu *p)
{
	p->irq_hook = irq_main;
	p->hvc_hook = hvc_main_;
}

static void tally_(struct result *r, const struct gblock *g)
{
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t want = g->expect[i], got = g->got[i];

		if (want)
			r->samples++;
		else
			r->silent++;
		r->dups += g->dup[i];
		if (want && got == want) {
			r->ok++;
			r->arrived++;
			virq_hist_record(&r->hist, g->latency[i]);
		} else if (want && got == 1023) {
			r->missing++;
		} else if (got != 1023) {
			r->wrong++;
		} else {
			r->ok++;
			r->quiet++;
		}
	}
	r->spurious += g->unexpected;
	if (g->fault_kind) {
		con_printf("minihv: guest fault: vector %lu ESR_EL1 0x%lx ELR_EL1 0x%lx\n",
			   g->fault_kind, g->fault_esr, g->fault_elr);
		semihost_exit(7);
	}
}

static void gblock_reset_(struct gblock *g, uint32_t n, uint32_t trig, uint32_t hvc_before)
{
	g->n = n;
	g->trig = trig;
	g->hvc_before = hvc_before;
	g->translater = hv.translater;
	g->edu_raise = hv.edu.bar0 + EDU_RAISE;
	g->timeout_ticks = hv.timeout_ticks;
	g->silent_ticks = hv.timeout_ticks / 200u;
	g->giveup_ticks = hv.timeout_ticks / 2000u;
	g->grace_ticks = hv.timeout_ticks / 20000u;
	g->irqs = 0;
	g->unexpected = 0;
}

/* One scenario of vCPU 0 on CPU 0. */
static void run_(enum scen s)
{
	struct result *r = &hv.res[s];
	struct percpu *p = this_cpu();
	struct el2_stats b = p->el2;

	hv.cur = s;
	hv.hook_err = LIBVIRQ_OK;
	hooks_(p);
	virq_hist_init(&r->hist);
	if (run_cmd_(&vcpus[0], GCMD_SAMPLES) != EXIT_DONE)
		minihv_panic("vCPU 0 did not finish its samples");
	r->ran = true;
	/* A kick (SGI 0) is minihv's own IPI, not an interrupt delivery. */
	r->el2_delivery = (p->el2.irq - p->el2.irq_kick) - (b.irq - b.irq_kick);
	r->el2_harness = (p->el2.hvc - b.hvc) + (p->el2.irq_kick - b.irq_kick);
	if (p->el2.total - b.total != r->el2_delivery + r->el2_harness)
		minihv_panic("EL2 entry accounting");
	tally_(r, vcpus[0].g);
	check(hv.hook_err, "a libvirq call from an EL2 handler");
}

static void plan_(enum scen s, struct gblock *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = i % NR_VEV;

		g->event[i] = k;
		g->expect[i] = VINTID0 + k;
		switch (s) {
		case SC_EMUL_TR:
			g->event[i] = DEV0_PHYS_EV0 + k;
			break;
		case SC_EDU_EMUL:
		case SC_EDU_DIRECT:
		case SC_EDU_HVC:
			g->expect[i] = VINTID0 + SLOT_EDU;
			break;
		case SC_NEG:
			g->expect[i] = 0;
			break;
		case SC_REMAP:
			/* Round of 4: remap, remap, remap, unmap (the next round maps again). */
			g->event[i] = 0;
			remap_vintid_[i] = (i % 4 == 3) ? 0 : REMAP_VINTID0 + (i * 7u) % 16u;
			g->expect[i] = remap_vintid_[i];
			break;
		default:
			break;
		}
#ifdef MINIHV_SELFTEST_FAULTS
		/*
		 * Self-test of the verdict: one direct sample fires a physical-LPI
		 * event instead, so its vLPI never arrives (1 missing) and the
		 * direct path takes one IRQ at EL2 (must be reported).
		 */
		if (s == SC_DIRECT_TR && i == SELFTEST_PHYS_SAMPLE)
			g->event[i] = DEV0_PHYS_EV0;
#endif
	}
}

static void samples_(enum scen s, uint32_t n, uint32_t trig, uint32_t hvc_before)
{
	struct gblock *g = vcpus[0].g;

	gblock_reset_(g, n, trig, hvc_before);
	plan_(s, g, n);
	run_(s);
}

/* ---- the negative control: the edu under a DeviceID the msi-map does not give ---- */

static void edu_map_(uint32_t devid)
{
	check(virq_its_device_map(&hv.its, &hv.edu_dev, devid, 2), "virq_its_device_map(edu)");
	check(virq_vlpi_map(&hv.edu_dev, EDU_EV_VIRT, &vcpus[0].vpe, VINTID0 + SLOT_EDU, true),
	      "virq_vlpi_map(edu)");
	check(virq_its_map_lpi(&hv.edu_dev, EDU_EV_PHYS, hv.plpi_edu, cpus[0].rd),
	      "virq_its_map_lpi(edu)");
}

static void edu_unmap_(void)
{
	check(virq_vlpi_unmap(&hv.edu_dev, EDU_EV_VIRT), "virq_vlpi_unmap(edu)");
	check(virq_its_unmap_event(&hv.edu_dev, EDU_EV_PHYS), "virq_its_unmap_event(edu)");
	check(virq_its_device_unmap(&hv.edu_dev), "virq_its_device_unmap(edu)");
}

static uint32_t neg_devid_;

static void negative_control_(void)
{
	neg_devid_ = hv.edu_mapped_devid ^ 1u;
	edu_unmap_();
	edu_map_(neg_devid_);
	samples_(SC_NEG, N_NEG, TRIG_EDU, 0);
	edu_unmap_();
	edu_map_(hv.edu_mapped_devid);
}

/* ---- every vCPU on its own CPU at the same time ---- */

static struct result smp_part_[MAX_CPUS];

static void smp_job_(struct percpu *p, void *arg)
{
	struct vcpu *v = &vcpus[p->idx];
	struct result *r = &smp_part_[p->idx];
	struct el2_stats b = p->el2;
	bool pl = true;

	(void)arg;
	memset(r, 0, sizeof(*r));
	virq_hist_init(&r->hist);
	hooks_(p);
	if (!(v->vpe.flags & LIBVIRQ_VPE_RESIDENT))
		check(virq_vpe_make_resident(&v->vpe, p->rd), "virq_vpe_make_resident");
	if (run_cmd_(v, GCMD_SAMPLES) != EXIT_DONE)
		minihv_panic("a vCPU did not finish its samples");
	r->el2_delivery = (p->el2.irq - p->el2.irq_kick) - (b.irq - b.irq_kick);
	r->el2_harness = p->el2.hvc - b.hvc;
	if (p->idx != 0) {
		/* Its RD is needed for vCPU 0's migration next. */
		check(virq_vpe_make_nonresident(&v->vpe, false, &pl), "make_nonresident");
		if (pl)
			r->spurious++; /* something still pending after every sample arrived */
	}
	r->ran = true;
}

static void smp_(void)
{
	struct result *r = &hv.res[SC_SMP];

	hv.cur = SC_SMP;
	hv.hook_err = LIBVIRQ_OK;
	for (uint32_t i = 0; i < nr_vcpus; i++) {
		struct gblock *g = vcpus[i].g;

		if (i == 0) {
			gblock_reset_(g, N_SMP, TRIG_EDU, 0);
			plan_(SC_EDU_DIRECT, g, N_SMP);
		} else {
			gblock_reset_(g, N_SMP, TRIG_TRANSLATER, 0);
			for (uint32_t k = 0; k < N_SMP; k++) {
				g->event[k] = DEV0_VCPU_EV0 + NR_VEV * (i - 1) + k % NR_VEV;
				g->expect[k] = VINTID0 + k % NR_VEV;
			}
		}
	}
	dsb(sy);
	for (uint32_t i = 1; i < nr_cpus; i++)
		cpu_run_on(i, smp_job_, NULL);
	smp_job_(this_cpu(), NULL);
	for (uint32_t i = 1; i < nr_cpus; i++)
		cpu_wait_done(i);
	virq_hist_init(&r->hist);
	for (uint32_t i = 0; i < nr_vcpus; i++) {
		struct result *q = &smp_part_[i];

		if (!q->ran)
			minihv_panic("an SMP job did not run");
		r->el2_delivery += q->el2_delivery;
		r->el2_harness += q->el2_harness;
		r->spurious += q->spurious;
		tally_(q, vcpus[i].g);
		tally_(r, vcpus[i].g);
	}
	r->ran = true;
	check(hv.hook_err, "a libvirq call from an EL2 handler");
}

/* ---------------- report ---------------- */

static bool row_bad_(enum scen s)
{
	const struct result *r = &hv.res[s];
	bool direct =
	    s == SC_DIRECT_TR || s == SC_EDU_DIRECT || s == SC_REMAP || s == SC_SMP || s == SC_NEG;
	uint64_t harness = s == SC_SMP ? nr_vcpus : 1;

	return r->missing || r->wrong || r->dups || r->spurious ||
	       (direct && (r->el2_delivery != 0 || (s != SC_REMAP && r->el2_harness != harness)));
}

static void row_(enum scen s)
{
	struct result *r = &hv.res[s];
	struct virq_hist_summary h;
	/* Rounded up: a single EL2 entry must never print as 0.00. */
	uint64_t el2 = r->el2_delivery + (s == SC_EDU_HVC ? r->el2_harness - 1 : 0);
	uint64_t per100 = r->samples ? (el2 * 100u + r->samples - 1u) / r->samples : 0;

	if (!r->ran)
		return;
	if (virq_hist_summarize(&r->hist, &h) != LIBVIRQ_OK)
		memset(&h, 0, sizeof(h));
	if (s == SC_NEG) {
		con_printf("%-20s %7u %5s %6s %6s %6s %6s %6s %6s  %s\n", scen_name_[s], 0u, "-",
			   "-", "-", "-", "-", "-", "-", row_bad_(s) ? "FAIL" : "ok");
		return;
	}
	con_printf("%-20s %7u %5lu.%02lu %6lu %6lu %6lu %6lu %6lu %6lu  %s\n", scen_name_[s],
		   r->samples, per100 / 100, per100 % 100, h.min, h.avg, h.p50, h.p99, h.p999,
		   h.max, row_bad_(s) ? "FAIL" : "ok");
}

static void topology_(const struct virq_gic_desc *d)
{
	con_printf("GIC (device tree): GICD 0x%lx size 0x%lx\n", d->gicd_base, d->gicd_size);
	for (uint32_t i = 0; i < d->nr_redist_regions; i++)
		con_printf("  GICR region %u: 0x%lx size 0x%lx stride 0x%lx\n", i,
			   d->redist[i].base, d->redist[i].size, d->redist[i].stride);
	for (uint32_t i = 0; i < d->nr_its; i++)
		con_printf("  ITS %u: 0x%lx size 0x%lx%s\n", i, d->its[i].base, d->its[i].size,
			   d->its[i].dma_noncoherent ? " (dma-noncoherent)" : "");
	con_printf(
	    "GIC (registers): %s, %u redistributor(s), LPI bits %u, GICR_TYPER.DirectLPI %lu\n",
	    virq_gic_version_name(hv.gic.version), hv.gic.nr_rd, hv.gic.lpi_bits,
	    (hv.gic.rd[0].typer >> 3) & 1u);
	con_printf("  ITS 0: GITS_TYPER 0x%lx GITS_IIDR 0x%x: %s, Devbits %u, ID_bits %u, "
		   "PTA %u, VMOVP %u\n",
		   hv.its.typer, hv.its.iidr,
		   hv.its.lim.version == LIBVIRQ_ITS_V41   ? "GICv4.1 ITS"
		   : hv.its.lim.version == LIBVIRQ_ITS_V40 ? "GICv4.0 ITS"
							   : "GICv3 ITS (no vLPIs)",
		   hv.its.lim.devid_bits, hv.its.lim.eventid_bits, hv.its.lim.pta,
		   hv.its.lim.vmovp);
	con_printf("CPUs (device tree, started with PSCI CPU_ON over SMC): %u\n", nr_cpus);
	for (uint32_t i = 0; i < nr_cpus; i++)
		con_printf("  CPU %u: MPIDR 0x%lx, RD %u, vCPU %u: vPE %u, doorbell LPI %u\n", i,
			   cpus[i].mpidr, cpus[i].rd, i, vcpus[i].vpe.vpeid, vcpus[i].doorbell);
	con_printf(
	    "PCIe (virq_fdt_discover_pci_host): ECAM 0x%lx size 0x%lx, buses %u..%u, 32-bit window "
	    "pci 0x%lx -> cpu 0x%lx size 0x%lx; %u function(s) on the bus\n",
	    hv.host.dt.cfg_base, hv.host.dt.cfg_size, hv.host.dt.bus_start, hv.host.dt.bus_end,
	    hv.host.mem_pci, hv.host.mem_cpu, hv.host.mem_size, hv.nr_pci_functions);
	con_printf("  edu %02x:%02x.%x (RID 0x%x): BAR0 0x%lx size 0x%lx, MSI cap 0x%x (%s); "
		   "virq_fdt_msi_map -> ITS %u (phandle 0x%x) DeviceID 0x%x%s\n",
		   hv.edu.rid >> 8, (hv.edu.rid >> 3) & 0x1f, hv.edu.rid & 7, hv.edu.rid,
		   hv.edu.bar0, hv.edu.bar0_size, hv.edu.msi, hv.edu.msi64 ? "64-bit" : "32-bit",
		   hv.edu_its, hv.edu_its_phandle, hv.edu_devid,
		   hv.edu_mapped_devid != hv.edu_devid ? " (MAPPED UNDER A WRONG DeviceID)" : "");
	con_printf("  MSI: address 0x%lx (GITS_TRANSLATER), data = EventID %u (vLPI %u of vPE %u) "
		   "or %u (physical LPI %u)\n",
		   hv.translater, EDU_EV_VIRT, VINTID0 + SLOT_EDU, vcpus[0].vpe.vpeid, EDU_EV_PHYS,
		   hv.plpi_edu);
}

static int verdict_(void)
{
	int rc = 0;

	for (int s = 0; s < SC_COUNT; s++) {
		struct result *r = &hv.res[s];

		if (!r->ran || s == SC_MIG || s == SC_MIG_DB)
			continue;
		if (r->missing || r->wrong || r->dups || r->spurious) {
			con_printf("FAIL %s: %u missing, %u with the wrong vINTID (or delivered "
				   "while unmapped), %u duplicates, %u outside any window\n",
				   scen_name_[s], r->missing, r->wrong, r->dups, r->spurious);
			rc = 1;
		}
	}
	if (hv.res[SC_DIRECT_TR].el2_delivery != 0 || hv.res[SC_DIRECT_TR].el2_harness != 1) {
		con_printf("FAIL direct: %lu EL2 entries during %u direct interrupts (want 0)\n",
			   hv.res[SC_DIRECT_TR].el2_delivery + hv.res[SC_DIRECT_TR].el2_harness - 1,
			   hv.res[SC_DIRECT_TR].samples);
		rc = 1;
	}
	if (hv.res[SC_EDU_DIRECT].el2_delivery != 0 || hv.res[SC_EDU_DIRECT].el2_harness != 1) {
		con_printf("FAIL edu direct: %lu EL2 entries during %u device MSIs (want 0)\n",
			   hv.res[SC_EDU_DIRECT].el2_delivery + hv.res[SC_EDU_DIRECT].el2_harness -
			       1,
			   hv.res[SC_EDU_DIRECT].samples);
		rc = 1;
	}
	if (hv.res[SC_SMP].el2_delivery != 0 || hv.res[SC_SMP].el2_harness != nr_vcpus) {
		con_printf("FAIL SMP: %lu EL2 entries on %u CPUs during %u direct interrupts "
			   "(want 0)\n",
			   hv.res[SC_SMP].el2_delivery + hv.res[SC_SMP].el2_harness - nr_vcpus,
			   nr_cpus, hv.res[SC_SMP].samples);
		rc = 1;
	}
	for (enum scen s = SC_EMUL_TR; s <= SC_EDU_EMUL; s = (enum scen)(s + 2)) {
		if (hv.res[s].el2_delivery != hv.res[s].samples) {
			con_printf(
			    "FAIL %s: %lu EL2 IRQ entries for %u interrupts (want one each)\n",
			    scen_name_[s], hv.res[s].el2_delivery, hv.res[s].samples);
			rc = 1;
		}
	}
	if (hv.res[SC_EDU_DIRECT].arrived == 0 && hv.res[SC_EDU_DIRECT].samples) {
		con_printf("FAIL: no MSI of the edu device (RID 0x%x) reached the guest: it is "
			   "mapped under DeviceID 0x%x, the msi-map gives 0x%x (an MSI from an "
			   "unmapped DeviceID is dropped by the ITS)\n",
			   hv.edu.rid, hv.edu_mapped_devid, hv.edu_devid);
		rc = 1;
	}
	if (hv.res[SC_NEG].quiet != hv.res[SC_NEG].silent) {
		con_printf("FAIL negative control: %u of %u MSIs arrived with the device mapped "
			   "under DeviceID 0x%x (they must not)\n",
			   hv.res[SC_NEG].silent - hv.res[SC_NEG].quiet, hv.res[SC_NEG].silent,
			   neg_devid_);
		rc = 1;
	}
	return rc;
}

static void tear_down_(void)
{
	uint32_t before = minihv_pool_used_pages();

	for (uint32_t e = 0; e < NR_SLOTS; e++) {
		if ((e >= SLOT_EDU && e < SLOT_PROBE0) || (e == 0 && !hv.remap_mapped))
			continue;
		check(virq_vlpi_unmap(&hv.dev0, e), "virq_vlpi_unmap");
	}
	for (uint32_t k = 0; k < NR_VEV; k++)
		check(virq_its_unmap_event(&hv.dev0, DEV0_PHYS_EV0 + k), "virq_its_unmap_event");
	for (uint32_t i = 1; i < nr_vcpus; i++)
		for (uint32_t k = 0; k < NR_VEV; k++)
			check(virq_vlpi_unmap(&hv.dev0, DEV0_VCPU_EV0 + NR_VEV * (i - 1) + k),
			      "virq_vlpi_unmap");
	edu_unmap_();
	for (uint32_t i = 0; i < nr_vcpus; i++) {
		check(virq_vpe_destroy(&vcpus[i].vpe), "virq_vpe_destroy");
		check(virq_lpi_free(&hv.gic, vcpus[i].doorbell, 1), "virq_lpi_free");
	}
	check(virq_gic_vm_destroy(&hv.vm), "virq_gic_vm_destroy");
	check(virq_its_device_unmap(&hv.dev0), "virq_its_device_unmap");
	check(virq_lpi_free(&hv.gic, hv.plpi_edu, 1), "virq_lpi_free");
	check(virq_lpi_free(&hv.gic, hv.plpi0, NR_VEV), "virq_lpi_free");
	check(virq_its_destroy(&hv.its), "virq_its_destroy");
	/*
	 * The GIC object is not destroyed: the redistributors keep LPIs enabled
	 * (EnableLPIs may not clear), so their tables must stay (gicv4.h).
	 */
	con_printf("teardown: vLPIs, LPIs, vPEs, VM, devices and ITS destroyed in reverse order; "
		   "pages in use %u -> %u (the redistributors' LPI tables stay)\n",
		   before, minihv_pool_used_pages());
}

static void costs_(void)
{
	con_puts(
	    "\nITS commands per operation (libvirq's command counter, GITS_CWRITER batches):\n");
	for (uint32_t i = 0; i < hv.nr_costs; i++) {
		const struct cost *c = &hv.costs[i];
		uint64_t per10 = c->times ? (c->cmds * 10 + c->times / 2) / c->times : 0;

		con_printf("  %-44s %4lu.%lu  (%lu over %u calls)\n", c->what, per10 / 10,
			   per10 % 10, c->cmds, c->times);
	}
}

int run_scenarios(const void *fdt, const struct virq_gic_desc *desc)
{
	/*
	 * 1 s for an expected interrupt (it only costs time when one is missing:
	 * single latencies of 54 ms were seen on a loaded host, so 100 ms risked
	 * a false "missing"), 5 ms silent windows, 50 us grace.
	 */
	uint64_t f = read_sysreg(CNTFRQ_EL0);
	struct virq_hist_summary d, e, ed, ee;
	uint64_t db0, c0;
	int rc = 0;

	hv.timeout_ticks = f;
	gic_bring_up_(desc);
	cpu_el2_init();
	if (smp_start(fdt) != 0)
		semihost_exit(3);
	vcpus_bring_up_();
	devices_bring_up_();
	edu_bring_up_(fdt, desc);
	/* Every vCPU boots once on its CPU (harness check: exactly one EL2 entry). */
	for (uint32_t i = 0; i < nr_vcpus; i++) {
		struct el2_stats b = this_cpu()->el2;

		if (run_cmd_(&vcpus[i], GCMD_BOOT) != EXIT_DONE ||
		    this_cpu()->el2.total - b.total != 1 || vcpus[i].g->fault_kind) {
			con_printf("minihv: guest harness check failed on vCPU %u\n", i);
			semihost_exit(3);
		}
	}
	c0 = hv.its.cmds;
	check(virq_vpe_make_resident(&vcpus[0].vpe, cpus[0].rd), "virq_vpe_make_resident");
	cost_add("residency (virq_vpe_make_resident)", hv.its.cmds - c0);

	samples_(SC_EMUL_TR, N_EMUL, TRIG_TRANSLATER, 0);
	samples_(SC_DIRECT_TR, N_DIRECT, TRIG_TRANSLATER, 0);
	pci_msi_set_data(&hv.edu, EDU_EV_PHYS);
	samples_(SC_EDU_EMUL, N_EDU, TRIG_EDU, 0);
	pci_msi_set_data(&hv.edu, EDU_EV_VIRT);
	samples_(SC_EDU_DIRECT, N_EDU, TRIG_EDU, 0);
	samples_(SC_EDU_HVC, N_EDU_HVC, TRIG_HVC, 0);
	db0 = cpus[0].irq.doorbells;
	samples_(SC_DOORBELL, N_DOORBELL, TRIG_TRANSLATER, 1);
	hv.doorbells_sc = cpus[0].irq.doorbells - db0;
	if (!(vcpus[0].vpe.flags & LIBVIRQ_VPE_RESIDENT))
		check(virq_vpe_make_resident(&vcpus[0].vpe, cpus[0].rd), "virq_vpe_make_resident");
	samples_(SC_REMAP, N_REMAP, TRIG_TRANSLATER, 1);
	/* Event 0 back to vINTID 8192 for the migration. */
	if (hv.remap_mapped)
		check(virq_vlpi_remap(&hv.dev0, 0, &vcpus[0].vpe, VINTID0), "virq_vlpi_remap");
	else
		check(virq_vlpi_map(&hv.dev0, 0, &vcpus[0].vpe, VINTID0, true), "virq_vlpi_map");
	hv.remap_mapped = true;
	negative_control_();
	smp_();
	run_migration(SC_MIG, &hv.mig[0]);
	run_migration(SC_MIG_DB, &hv.mig[1]);

	con_puts("\n==================== minihv: libvirq GICv4 SMP demo ====================\n");
	topology_(desc);
	con_printf("\nlatency: counter ticks (%lu Hz, %lu ns/tick) from the trigger to the "
		   "guest's IRQ handler\n",
		   f, (uint64_t)(1000000000ull / f));
	con_puts("(QEMU TCG: tick values show the emulator's cost, not silicon; the EL2 entry "
		 "counts are the architectural result)\n");
	con_printf("%-20s %7s %8s %6s %6s %6s %6s %6s %6s  %s\n", "scenario", "samples", "EL2/irq",
		   "min", "avg", "p50", "p99", "p99.9", "max", "result");
	for (int s = 0; s < SC_MIG; s++)
		row_((enum scen)s);
	mig_report(SC_MIG, &hv.mig[0]);
	mig_report(SC_MIG_DB, &hv.mig[1]);
	if (virq_hist_summarize(&hv.res[SC_DIRECT_TR].hist, &d) == LIBVIRQ_OK &&
	    virq_hist_summarize(&hv.res[SC_EMUL_TR].hist, &e) == LIBVIRQ_OK && d.p50)
		con_printf("CPU write, emulated vs direct: p50 %lu vs %lu ticks (x%lu.%lu); EL2 "
			   "entries %lu vs %lu\n",
			   e.p50, d.p50, e.p50 / d.p50, (e.p50 * 10 / d.p50) % 10,
			   hv.res[SC_EMUL_TR].el2_delivery, hv.res[SC_DIRECT_TR].el2_delivery);
	if (virq_hist_summarize(&hv.res[SC_EDU_DIRECT].hist, &ed) == LIBVIRQ_OK &&
	    virq_hist_summarize(&hv.res[SC_EDU_EMUL].hist, &ee) == LIBVIRQ_OK && ed.p50 &&
	    hv.res[SC_EDU_EMUL].samples) {
		uint64_t em = hv.res[SC_EDU_EMUL].el2_delivery,
			 di = hv.res[SC_EDU_DIRECT].el2_delivery;
		uint64_t ns = hv.res[SC_EDU_EMUL].samples, nd = hv.res[SC_EDU_DIRECT].samples;
		/* EL2 entries per device interrupt, in thousandths. */
		uint64_t pe = em * 1000 / ns, pd = nd ? di * 1000 / nd : 0;
		uint64_t fell = pe ? (pe - pd) * 1000 / pe : 0;

		con_printf("device MSIs (edu): EL2 entries per interrupt fell from %lu.%03lu "
			   "(emulated) to %lu.%03lu (direct): -%lu.%lu %%; p50 %lu vs %lu ticks\n",
			   pe / 1000, pe % 1000, pd / 1000, pd % 1000, fell / 10, fell % 10, ee.p50,
			   ed.p50);
	}
	con_printf("doorbell: %lu doorbell LPIs at EL2 for %u interrupts while not resident "
		   "(the handler makes the vPE resident); %lu harness HVCs (vCPU blocks)\n",
		   hv.doorbells_sc, hv.res[SC_DOORBELL].samples,
		   hv.res[SC_DOORBELL].el2_harness - 1);
	con_printf("remap: %u of %u interrupts after a remap arrived with the new vINTID, "
		   "%u of %u unmapped windows silent\n",
		   hv.res[SC_REMAP].arrived, hv.res[SC_REMAP].samples, hv.res[SC_REMAP].quiet,
		   hv.res[SC_REMAP].silent);
	con_printf("negative control: edu mapped under DeviceID 0x%x (the msi-map gives 0x%x): "
		   "%u of %u MSIs delivered (the ITS drops an MSI whose DeviceID is not mapped)\n",
		   neg_devid_, hv.edu_devid, hv.res[SC_NEG].silent - hv.res[SC_NEG].quiet,
		   hv.res[SC_NEG].silent);
	con_printf("SMP: %u vCPUs on %u CPUs at once: %u of %u interrupts, %lu EL2 IRQs\n",
		   nr_vcpus, nr_cpus, hv.res[SC_SMP].arrived, hv.res[SC_SMP].samples,
		   hv.res[SC_SMP].el2_delivery);
	costs_();
	rc |= verdict_();
	if (hv.res[SC_DOORBELL].ran && hv.doorbells_sc != hv.res[SC_DOORBELL].samples) {
		con_printf("FAIL doorbell: %lu doorbells for %u interrupts while not resident\n",
			   hv.doorbells_sc, hv.res[SC_DOORBELL].samples);
		rc = 1;
	}
	rc |= mig_verdict(SC_MIG, &hv.mig[0]);
	rc |= mig_verdict(SC_MIG_DB, &hv.mig[1]);
	for (uint32_t i = 0; i < nr_cpus; i++) {
		if (cpus[i].irq.spurious) {
			con_printf("FAIL: %lu unexpected physical interrupts at EL2 on CPU %u\n",
				   cpus[i].irq.spurious, i);
			rc = 1;
		}
	}
	tear_down_();
	con_printf("minihv: %s (exit status %d)\n", rc ? "FAILED" : "all scenarios passed", rc);
	return rc;
}
