/* SPDX-License-Identifier: MIT */
/*
 * The measurements. Everything GIC-side goes through libvirq's public API
 * (gicv4/gic.h, gicv4/its.h, gicv4/vpe.h): GIC/redistributor bring-up, the ITS,
 * the device, physical LPIs for the emulated baseline, the doorbell LPI,
 * the VM, the vPE, vLPI mapping/remapping, residency.
 *
 * Events, all from DeviceID 0 (a CPU write to GITS_TRANSLATER on QEMU):
 *   0..15  -> vLPI 8192 + e, with the doorbell   (direct, doorbell, remap)
 *   32..47 -> physical LPI P + (e - 32), at EL2   (emulated baseline)
 */
#include "scenarios.h"

#include "minihv.h"
#include "minihv_hal.h"

#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/histogram.h>

#define NR_VEV 16u          /* events mapped to vLPIs */
#define PHYS_EV0 32u        /* first event mapped to a physical LPI */
#define VINTID0 8192u
#define REMAP_VINTID0 8224u /* remap targets: 8224..8239 */
#define N_DIRECT 1000u
#define N_EMUL 1000u
#define N_DOORBELL 1000u
#define N_REMAP 256u
#define MAX_RD 8u
/*
 * 14 INTID bits (8192 LPIs) for both the physical and the virtual side: QEMU
 * scans the whole pending table on LPI state changes, so the ID space size is
 * part of the measured cost; equal sizes keep the comparison fair.
 */
#define LPI_BITS 14u
#define GITS_TRANSLATER 0x10040u
#define SELFTEST_PHYS_SAMPLE 700u /* i % 16 = 12, not the wrong-vINTID event 5 */

enum scen { SC_DIRECT, SC_EMUL, SC_DOORBELL, SC_REMAP, SC_COUNT };
static const char *const scen_name_[SC_COUNT] = { "direct (GICv4)", "emulated (LR)",
						  "doorbell", "remap/unmap" };

struct result {
	uint32_t samples;        /* interrupts expected */
	uint32_t silent;         /* windows where nothing may arrive (remap: unmapped) */
	uint64_t el2_delivery;   /* EL2 entries caused by delivery (IRQs) */
	uint64_t el2_harness;    /* harness HVCs (deschedule/remap requests, final exit) */
	uint32_t ok, missing, wrong, dups, spurious;
	uint32_t arrived;        /* expected interrupts that arrived with the right vINTID */
	uint32_t quiet;          /* silent windows that stayed silent */
	struct virq_hist hist;
	bool ran;
};

/* libvirq objects: caller storage, as the library wants. */
static struct virq_gic gic_;
static struct virq_gic_rdist rds_[MAX_RD];
static struct virq_its its_;
static struct virq_its_device dev_;
static struct virq_gic_vm vm_;
static struct virq_vpe vpe_;
static uint32_t rd_, plpi0_, db_;
static struct result res_[SC_COUNT];
static enum scen cur_;
static uint32_t remap_vintid_[N_REMAP];
static bool remap_mapped_ = true;
static virq_status hook_err_;
static uint64_t doorbells_, el2_spurious_;

static void check_(virq_status st, const char *what)
{
	if (st != LIBVIRQ_OK) {
		con_printf("minihv: %s failed: %s\n", what, virq_strerror(st));
		semihost_exit(5);
	}
}

/* ---------------- EL2 handlers ---------------- */

static void lr_write_(unsigned n, uint64_t v)
{
	switch (n) {
	case 0: write_sysreg(S3_4_C12_C12_0, v); break;
	case 1: write_sysreg(S3_4_C12_C12_1, v); break;
	case 2: write_sysreg(S3_4_C12_C12_2, v); break;
	default: write_sysreg(S3_4_C12_C12_3, v); break;
	}
}

/* Emulated path: inject vINTID through a free list register (Arm IHI 0069 §12.4.8). */
static void inject_lr_(uint32_t vintid)
{
	uint64_t elrsr = read_sysreg(ICH_ELRSR_EL2);
	unsigned n = elrsr ? (unsigned)__builtin_ctzll(elrsr) : 0;

	if (!elrsr || n > 3) {
		el2_spurious_++;
		return;
	}
	/* State = pending (01) [63:62], Group1 [60], Priority [55:48], vINTID [31:0]. */
	lr_write_(n, (1ull << 62) | (1ull << 60) | (0xa0ull << 48) | vintid);
	isb();
}

static void el2_irq_(struct frame *f)
{
	uint32_t intid = (uint32_t)read_sysreg(ICC_IAR1_EL1) & 0xffffffu;

	(void)f;
	if (intid >= 1020 && intid <= 1023)
		return;
	write_sysreg(ICC_EOIR1_EL1, intid); /* EOImode 0: drop and deactivate */
	isb();
	if (cur_ == SC_EMUL && intid >= plpi0_ && intid < plpi0_ + NR_VEV) {
		inject_lr_(VINTID0 + (intid - plpi0_));
	} else if (cur_ == SC_DOORBELL && intid == db_) {
		doorbells_++;
		if (!(vpe_.flags & LIBVIRQ_VPE_RESIDENT)) {
			virq_status st = virq_vpe_make_resident(&vpe_, rd_);

			if (st != LIBVIRQ_OK && hook_err_ == LIBVIRQ_OK)
				hook_err_ = st;
		}
	} else {
		el2_spurious_++;
	}
}

/* Harness requests from the guest, before sample @p i is triggered. */
static void el2_hvc_(struct frame *f, uint64_t req, uint64_t i)
{
	virq_status st = LIBVIRQ_OK;

	(void)f;
	(void)req;
	if (cur_ == SC_DOORBELL) {
		/* The vCPU "blocks": vPE out, doorbell wanted. */
		bool pl = false;

		if (vpe_.flags & LIBVIRQ_VPE_RESIDENT)
			st = virq_vpe_make_nonresident(&vpe_, true, &pl);
	} else if (cur_ == SC_REMAP && i < N_REMAP) {
		uint32_t v = remap_vintid_[i];

		if (v == 0) {
			if (remap_mapped_)
				st = virq_vlpi_unmap(&dev_, 0);
			remap_mapped_ = false;
		} else if (!remap_mapped_) {
			st = virq_vlpi_map(&dev_, 0, &vpe_, v, true);
			remap_mapped_ = true;
		} else {
			st = virq_vlpi_remap(&dev_, 0, &vpe_, v);
		}
	}
	if (st != LIBVIRQ_OK && hook_err_ == LIBVIRQ_OK)
		hook_err_ = st;
}

/* ---------------- bring-up through libvirq ---------------- */

static void el2_cpu_interface_(void)
{
	write_sysreg(ICC_SRE_EL2, read_sysreg(ICC_SRE_EL2) | 0x9u); /* SRE | Enable */
	isb();
	write_sysreg(ICC_PMR_EL1, 0xff);
	write_sysreg(ICC_IGRPEN1_EL1, 1);
	/* Virtual interface: VPMR = 0xff [31:24], VENG1 [1]; then ICH_HCR_EL2.En
	 * (IHI 0069H §12.4: with En = 0 no virtual interrupt is signalled). */
	write_sysreg(ICH_VMCR_EL2, (0xffull << 24) | (1u << 1));
	write_sysreg(ICH_HCR_EL2, 1);
	isb();
}

static uint32_t my_affinity_(void)
{
	uint64_t m = read_sysreg(MPIDR_EL1);

	return (uint32_t)(((m >> 32) & 0xff) << 24 | (m & 0xffffff));
}

static void bring_up_(const struct virq_gic_desc *desc)
{
	if (desc->nr_its == 0) {
		con_puts("minihv: the device tree has no enabled ITS\n");
		semihost_exit(6);
	}
	check_(virq_gic_init(&gic_, &minihv_hal, desc, rds_, MAX_RD, LPI_BITS), "virq_gic_init");
	if (gic_.version < LIBVIRQ_GIC_V4_0) {
		con_printf("minihv: %s has no direct injection (need gic-version=4)\n",
			   virq_gic_version_name(gic_.version));
		semihost_exit(6);
	}
	check_(virq_gic_dist_enable(&gic_), "virq_gic_dist_enable");
	check_(virq_gic_find_rdist(&gic_, my_affinity_(), &rd_), "virq_gic_find_rdist");
	check_(virq_gic_rdist_init(&gic_, rd_), "virq_gic_rdist_init");
	el2_cpu_interface_();
	check_(virq_its_init(&its_, &gic_, &desc->its[0], NULL), "virq_its_init");
	check_(virq_its_map_collection(&its_, rd_), "virq_its_map_collection");
	check_(virq_its_device_map(&its_, &dev_, 0, 64), "virq_its_device_map");
	/* Emulated baseline: physical LPIs owned by the hypervisor. */
	check_(virq_lpi_alloc(&gic_, NR_VEV, &plpi0_), "virq_lpi_alloc");
	for (uint32_t k = 0; k < NR_VEV; k++) {
		check_(virq_lpi_set_config(&gic_, plpi0_ + k, 0xa0, true), "virq_lpi_set_config");
		check_(virq_its_map_lpi(&dev_, PHYS_EV0 + k, plpi0_ + k, rd_), "virq_its_map_lpi");
	}
	/* The vPE and its doorbell. */
	check_(virq_lpi_alloc(&gic_, 1, &db_), "virq_lpi_alloc(doorbell)");
	check_(virq_lpi_set_config(&gic_, db_, 0xa0, true), "virq_lpi_set_config(doorbell)");
	check_(virq_gic_vm_init(&vm_, &gic_, LPI_BITS), "virq_gic_vm_init");
	check_(virq_vpe_init(&vpe_, &vm_, rd_, db_), "virq_vpe_init");
	for (uint32_t e = 0; e < NR_VEV; e++) {
		uint32_t v = VINTID0 + e;

#ifdef MINIHV_SELFTEST_FAULTS
		/* Self-test of the verdict: event 5 deliberately reaches the wrong vINTID. */
		if (e == 5)
			v = REMAP_VINTID0 + 5;
#endif
		check_(virq_vlpi_map(&dev_, e, &vpe_, v, true), "virq_vlpi_map");
	}
	check_(virq_vpe_make_resident(&vpe_, rd_), "virq_vpe_make_resident");
	el2_set_hooks(el2_irq_, el2_hvc_);
}

/* After every scenario nothing may still be pending for the vPE (PendingLast). */
static int nothing_pending_(void)
{
	bool pl = false;

	if (vpe_.flags & LIBVIRQ_VPE_RESIDENT)
		check_(virq_vpe_make_nonresident(&vpe_, false, &pl), "make_nonresident");
	if (pl) {
		con_puts("FAIL: a vLPI is still pending for the vPE after the last scenario "
			 "(stale delivery from an old mapping?)\n");
		return 1;
	}
	con_puts("vPE made non-resident at the end: PendingLast = 0, nothing left pending\n");
	return 0;
}

static void tear_down_(void)
{
	uint32_t before = minihv_pool_used_pages();

	for (uint32_t e = 0; e < NR_VEV; e++) {
		if (e == 0 && !remap_mapped_)
			continue;
		check_(virq_vlpi_unmap(&dev_, e), "virq_vlpi_unmap");
	}
	for (uint32_t k = 0; k < NR_VEV; k++)
		check_(virq_its_unmap_event(&dev_, PHYS_EV0 + k), "virq_its_unmap_event");
	check_(virq_vpe_destroy(&vpe_), "virq_vpe_destroy");
	check_(virq_gic_vm_destroy(&vm_), "virq_gic_vm_destroy");
	check_(virq_its_device_unmap(&dev_), "virq_its_device_unmap");
	check_(virq_lpi_free(&gic_, db_, 1), "virq_lpi_free");
	check_(virq_lpi_free(&gic_, plpi0_, NR_VEV), "virq_lpi_free");
	check_(virq_its_destroy(&its_), "virq_its_destroy");
	/*
	 * The GIC object is not destroyed: the redistributor keeps LPIs enabled
	 * (EnableLPIs may not clear), so its tables must stay (gicv4.h).
	 */
	con_printf("teardown: vLPIs, LPIs, vPE, VM, device and ITS destroyed in reverse order; "
		   "pages in use %u -> %u (the redistributor's LPI tables stay)\n",
		   before, minihv_pool_used_pages());
}

/* ---------------- one scenario ---------------- */

static void run_(enum scen s, uint32_t n, uint64_t timeout_ticks)
{
	struct result *r = &res_[s];
	uint64_t t0 = el2_counts.total, irq0 = el2_counts.irq, hvc0 = el2_counts.sync_hvc;

	cur_ = s;
	hook_err_ = LIBVIRQ_OK;
	g_shared.scenario = s;
	g_shared.n = n;
	g_shared.timeout_ticks = timeout_ticks;
	g_shared.silent_ticks = timeout_ticks / 200u;
	g_shared.grace_ticks = timeout_ticks / 20000u;
	g_shared.irqs = 0;
	g_shared.unexpected = 0;
	g_shared.hvc_before = (s == SC_DOORBELL || s == SC_REMAP);
	enter_guest((uint64_t)(uintptr_t)guest_main, (uint64_t)(uintptr_t)&g_shared,
		    (uint64_t)(uintptr_t)__guest_stack_top);
	r->ran = true;
	r->el2_delivery = el2_counts.irq - irq0;
	r->el2_harness = el2_counts.sync_hvc - hvc0;
	if (el2_counts.total - t0 != r->el2_delivery + r->el2_harness)
		minihv_panic("EL2 entry accounting");
	virq_hist_init(&r->hist);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = g_shared.expect[i], got = g_shared.got[i];

		if (want)
			r->samples++;
		else
			r->silent++;
		r->dups += g_shared.dup[i];
		if (want && got == want) {
			r->ok++;
			r->arrived++;
			virq_hist_record(&r->hist, g_shared.latency[i]);
		} else if (want && got == 1023) {
			r->missing++;
		} else if (got != 1023) {
			r->wrong++;
		} else {
			r->ok++; /* silent window stayed silent */
			r->quiet++;
		}
	}
	r->spurious = g_shared.unexpected;
	if (g_shared.fault_kind) {
		con_printf("minihv: guest fault in %s: vector %lu ESR_EL1 0x%lx ELR_EL1 0x%lx\n",
			   scen_name_[s], g_shared.fault_kind, g_shared.fault_esr,
			   g_shared.fault_elr);
		semihost_exit(7);
	}
	check_(hook_err_, "a libvirq call from an EL2 handler");
}

static void plan_(enum scen s, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = i % NR_VEV;

		g_shared.event[i] = s == SC_EMUL ? PHYS_EV0 + k : (s == SC_REMAP ? 0 : k);
		g_shared.expect[i] = VINTID0 + k;
#ifdef MINIHV_SELFTEST_FAULTS
		/*
		 * Self-test of the verdict: one direct sample fires a physical-LPI
		 * event instead, so its vLPI never arrives (1 missing) and the
		 * direct path takes one IRQ at EL2 (must be reported).
		 */
		if (s == SC_DIRECT && i == SELFTEST_PHYS_SAMPLE)
			g_shared.event[i] = PHYS_EV0;
#endif
		if (s == SC_REMAP) {
			/* Round of 4: remap, remap, remap, unmap (the next round maps again). */
			remap_vintid_[i] = (i % 4 == 3) ? 0 : REMAP_VINTID0 + (i * 7u) % 16u;
			g_shared.expect[i] = remap_vintid_[i];
		}
	}
}

/* ---------------- report ---------------- */

static void row_(enum scen s)
{
	struct result *r = &res_[s];
	struct virq_hist_summary h;
	/* Rounded up: a single EL2 entry must never print as 0.00. */
	uint64_t per100 = r->samples ? (r->el2_delivery * 100u + r->samples - 1u) / r->samples : 0;
	bool el2_bad = s == SC_DIRECT && (r->el2_delivery != 0 || r->el2_harness != 1);

	if (virq_hist_summarize(&r->hist, &h) != LIBVIRQ_OK)
		memset(&h, 0, sizeof(h));
	con_printf("%-16s %7u %5lu.%02lu %6lu %6lu %6lu %6lu %6lu %6lu  %s\n", scen_name_[s],
		   r->samples, per100 / 100, per100 % 100, h.min, h.avg, h.p50, h.p99, h.p999,
		   h.max,
		   (r->missing || r->wrong || r->dups || r->spurious || el2_bad) ? "FAIL" : "ok");
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
	con_printf("GIC (registers): %s, %u redistributor(s), this CPU on RD %u, LPI bits %u\n",
		   virq_gic_version_name(gic_.version), gic_.nr_rd, rd_, gic_.lpi_bits);
	con_printf("  ITS 0: GITS_TYPER 0x%lx GITS_IIDR 0x%x: %s, Devbits %u, ID_bits %u, "
		   "PTA %u, VMOVP %u\n", its_.typer, its_.iidr,
		   its_.lim.version == LIBVIRQ_ITS_V41 ? "GICv4.1 ITS" :
		   its_.lim.version == LIBVIRQ_ITS_V40 ? "GICv4.0 ITS" : "GICv3 ITS (no vLPIs)",
		   its_.lim.devid_bits, its_.lim.eventid_bits, its_.lim.pta, its_.lim.vmovp);
	con_printf("  vPE %u, doorbell LPI %u, emulated-path LPIs %u..%u, vINTIDs %u..%u\n",
		   vpe_.vpeid, db_, plpi0_, plpi0_ + NR_VEV - 1, VINTID0, VINTID0 + NR_VEV - 1);
}

static int verdict_(void)
{
	int rc = 0;

	for (int s = 0; s < SC_COUNT; s++) {
		struct result *r = &res_[s];

		if (r->missing || r->wrong || r->dups || r->spurious) {
			con_printf("FAIL %s: %u missing, %u with the wrong vINTID (or delivered "
				   "while unmapped), %u duplicates, %u outside any window\n",
				   scen_name_[s], r->missing, r->wrong, r->dups, r->spurious);
			rc = 1;
		}
	}
	if (res_[SC_DIRECT].el2_delivery != 0 || res_[SC_DIRECT].el2_harness != 1) {
		con_printf("FAIL direct: %lu EL2 entries during %u direct interrupts (want 0)\n",
			   res_[SC_DIRECT].el2_delivery + res_[SC_DIRECT].el2_harness - 1,
			   res_[SC_DIRECT].samples);
		rc = 1;
	}
	if (res_[SC_EMUL].el2_delivery != res_[SC_EMUL].samples) {
		con_printf("FAIL emulated: %lu EL2 IRQ entries for %u interrupts (want one each)\n",
			   res_[SC_EMUL].el2_delivery, res_[SC_EMUL].samples);
		rc = 1;
	}
	if (doorbells_ != res_[SC_DOORBELL].samples) {
		con_printf("FAIL doorbell: %lu doorbells for %u interrupts while not resident\n",
			   doorbells_, res_[SC_DOORBELL].samples);
		rc = 1;
	}
	if (el2_spurious_) {
		con_printf("FAIL: %lu unexpected physical interrupts at EL2\n", el2_spurious_);
		rc = 1;
	}
	return rc;
}

int run_scenarios(const struct virq_gic_desc *desc)
{
	/*
	 * 1 s for an expected interrupt (it only costs time when one is missing:
	 * single latencies of 54 ms were seen on a loaded host, so 100 ms risked
	 * a false "missing"), 5 ms silent windows, 50 us grace.
	 */
	uint64_t f = read_sysreg(CNTFRQ_EL0), tmo = f;
	struct virq_hist_summary d, e;
	int rc;

	bring_up_(desc);
	g_shared.translater = desc->its[0].base + GITS_TRANSLATER;
	plan_(SC_DIRECT, N_DIRECT);
	run_(SC_DIRECT, N_DIRECT, tmo);
	plan_(SC_EMUL, N_EMUL);
	run_(SC_EMUL, N_EMUL, tmo);
	plan_(SC_DOORBELL, N_DOORBELL);
	run_(SC_DOORBELL, N_DOORBELL, tmo);
	if (!(vpe_.flags & LIBVIRQ_VPE_RESIDENT))
		check_(virq_vpe_make_resident(&vpe_, rd_), "virq_vpe_make_resident");
	plan_(SC_REMAP, N_REMAP);
	run_(SC_REMAP, N_REMAP, tmo);

	con_puts("\n==================== minihv: libvirq GICv4 demo ====================\n");
	topology_(desc);
	con_printf("\nlatency: counter ticks (%lu Hz, %lu ns/tick) from the guest's trigger "
		   "(GITS_TRANSLATER write) to its IRQ handler\n", f, (uint64_t)(1000000000ull / f));
	con_puts("(QEMU TCG: tick values show the emulator's cost, not silicon; the EL2 entry "
		 "counts are the architectural result)\n");
	con_printf("%-16s %7s %8s %6s %6s %6s %6s %6s %6s  %s\n", "scenario", "samples",
		   "EL2/irq", "min", "avg", "p50", "p99", "p99.9", "max", "result");
	row_(SC_EMUL);
	row_(SC_DIRECT);
	row_(SC_DOORBELL);
	row_(SC_REMAP);
	if (virq_hist_summarize(&res_[SC_DIRECT].hist, &d) == LIBVIRQ_OK &&
	    virq_hist_summarize(&res_[SC_EMUL].hist, &e) == LIBVIRQ_OK && d.p50 && d.avg) {
		con_printf("emulated vs direct: p50 %lu vs %lu ticks (x%lu.%lu), avg %lu vs %lu; "
			   "EL2 entries %lu vs %lu\n", e.p50, d.p50, e.p50 / d.p50,
			   (e.p50 * 10 / d.p50) % 10, e.avg, d.avg, res_[SC_EMUL].el2_delivery,
			   res_[SC_DIRECT].el2_delivery);
	}
	con_printf("doorbell: %lu doorbell LPIs at EL2 for %u interrupts while not resident "
		   "(the handler makes the vPE resident); %lu harness HVCs (vCPU blocks)\n",
		   doorbells_, res_[SC_DOORBELL].samples, res_[SC_DOORBELL].el2_harness - 1);
	con_printf("remap: %u of %u interrupts after a remap arrived with the new vINTID, "
		   "%u of %u unmapped windows silent\n", res_[SC_REMAP].arrived,
		   res_[SC_REMAP].samples, res_[SC_REMAP].quiet, res_[SC_REMAP].silent);
	rc = verdict_();
	rc |= nothing_pending_();
	tear_down_();
	con_printf("minihv: %s (exit status %d)\n", rc ? "FAILED" : "all scenarios passed", rc);
	return rc;
}
