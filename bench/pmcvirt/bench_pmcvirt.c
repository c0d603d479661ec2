/* SPDX-License-Identifier: MIT */
/*
 * bench_pmcvirt: MSR accesses and instructions per world switch,
 * hardware-switched (PerfCtrVirt) vs software-switched guest PMU.
 *
 * Uses a minimal counting HAL (an MSR array, no locks) and a simulated
 * VMRUN that has the hardware's PMU side effects: in HW mode #VMEXIT resets
 * the host's PERF_CTL/CTR to 0 and PerfCntrGlobalCtl to 0x3F (swap type C)
 * and the guest counts in the VMCB; in SW mode the guest counts in the MSRs.
 * Instruction counts come from run.sh (callgrind, collecting only inside
 * the libvirq world-switch functions).
 *
 *   bench_pmcvirt                      table of MSR accesses per switch
 *   bench_pmcvirt MODE SCENARIO N      N switches of one kind (for callgrind)
 *     MODE = hw | sw | sw-k7 | sw-lazy | sw-k7-lazy (software-switched with
 *            LIBVIRQ_PMCVIRT_F_LAZY)
 *     SCENARIO = steady (host PMU idle between exits) | cold (no write
 *            skipping) | host (the host needs its PMU after every exit: host
 *            save + restore around each switch) | host10 (after every 10th)
 *   bench_pmcvirt summary              the headline metrics, "name value minimum"
 * The table ends with the hand-back to the host (host_restore, then host_save)
 * for a host using all its counters and one using counter 0 only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>

#include "../bench_noinline.h"

/* CPU profiles of the simulator (libvirq/sim/cpu.h). */
#define ZEN5_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5].pmcvirt_caps)
#define ZEN4_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4].pmcvirt_caps)
#define FAM10H_CAPS (&virq_sim_cpus[LIBVIRQ_SIM_CPU_FAM10H].pmcvirt_caps)

struct bhal {
	uint64_t msr[0x400]; /* index: see slot_() */
	unsigned long rd, wr;
};

static unsigned slot_(uint32_t msr)
{
	if (msr >= 0xC0010000u && msr < 0xC0010300u)
		return msr - 0xC0010000u; /* 0x000..0x2FF */
	if (msr >= 0xC0000300u && msr < 0xC0000304u)
		return 0x300u + (msr - 0xC0000300u);
	return 0x3FFu;
}

static virq_status b_rd(void *ctx, uint32_t msr, uint64_t *v)
{
	struct bhal *h = ctx;

	h->rd++;
	*v = h->msr[slot_(msr)];
	return LIBVIRQ_OK;
}

static virq_status b_wr(void *ctx, uint32_t msr, uint64_t v)
{
	struct bhal *h = ctx;

	h->wr++;
	if (msr == 0xC0000302u)
		h->msr[0x300] &= ~v;
	else if (msr == 0xC0000303u)
		h->msr[0x300] |= v;
	else
		h->msr[slot_(msr)] = v;
	return LIBVIRQ_OK;
}

static uint32_t b_r32(void *c, uint64_t a)
{
	(void)c;
	(void)a;
	return 0;
}
static void b_w32(void *c, uint64_t a, uint32_t v)
{
	(void)c;
	(void)a;
	(void)v;
}
static uint64_t b_r64(void *c, uint64_t a)
{
	(void)c;
	(void)a;
	return 0;
}
static void b_w64(void *c, uint64_t a, uint64_t v)
{
	(void)c;
	(void)a;
	(void)v;
}
static virq_status b_alloc(void *c, size_t s, size_t a, struct virq_page *p)
{
	(void)c;
	(void)s;
	(void)a;
	(void)p;
	return LIBVIRQ_ENOMEM;
}
static void b_free(void *c, const struct virq_page *p)
{
	(void)c;
	(void)p;
}
static uint64_t b_now(void *c)
{
	(void)c;
	return 0;
}

static const struct virq_hal_ops bops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = b_r32,
    .mmio_write32 = b_w32,
    .mmio_read64 = b_r64,
    .mmio_write64 = b_w64,
    .msr_read = b_rd,
    .msr_write = b_wr,
    .page_alloc = b_alloc,
    .page_free = b_free,
    .now_ns = b_now,
};

struct bench {
	struct bhal h;
	struct virq_hal hal;
	struct virq_pmcvirt_vcpu v;
	uint8_t *vmcb;
	bool hw;
};

/* The CPU's side of VMRUN ... #VMEXIT (not counted: it is not library work). */
static NOINLINE uint64_t sim_vmrun(struct bench *b)
{
	if (b->hw) {
		uint64_t c;

		if (b->h.msr[0x301] != 0)
			return LIBVIRQ_VMCB_EXIT_INVALID_PMC;
		memcpy(&c, b->vmcb + 0x4E8, 8);
		c = (c + 1000) & LIBVIRQ_PMCVIRT_CTR_MASK;
		memcpy(b->vmcb + 0x4E8, &c, 8);
		for (unsigned i = 0; i < 6; i++) {
			b->h.msr[0x200 + 2 * i] = 0;
			b->h.msr[0x201 + 2 * i] = 0;
		}
		b->h.msr[0x301] = 0x3F;
	} else {
		unsigned ctr0 = b->v.host_ext_core ? 0x201 : 0x004;

		b->h.msr[ctr0] = (b->h.msr[ctr0] + 1000) & LIBVIRQ_PMCVIRT_CTR_MASK;
	}
	return 0x72;
}

static int setup(struct bench *b, const char *mode)
{
	const struct virq_pmcvirt_caps *c = ZEN5_CAPS;
	const struct virq_pmcvirt_guest *g = &virq_sim_guest_pmc6;
	enum virq_pmcvirt_mode m = LIBVIRQ_PMCVIRT_MODE_HW;
	uint32_t flags = 0;

	memset(b, 0, sizeof(*b));
	if (!strcmp(mode, "sw") || !strcmp(mode, "sw-lazy")) {
		c = ZEN4_CAPS;
		m = LIBVIRQ_PMCVIRT_MODE_SW;
		flags = mode[2] ? LIBVIRQ_PMCVIRT_F_LAZY : 0;
	} else if (!strcmp(mode, "sw-k7") || !strcmp(mode, "sw-k7-lazy")) {
		c = FAM10H_CAPS;
		g = &virq_sim_guest_pmc4;
		m = LIBVIRQ_PMCVIRT_MODE_SW;
		flags = mode[5] ? LIBVIRQ_PMCVIRT_F_LAZY : 0;
	} else if (strcmp(mode, "hw")) {
		return -1;
	}
	b->hw = m == LIBVIRQ_PMCVIRT_MODE_HW;
	b->hal = (struct virq_hal){&bops, &b->h};
	b->vmcb = aligned_alloc(4096, 4096);
	if (!b->vmcb)
		return -1;
	memset(b->vmcb, 0, 4096);
	/* The host uses its PMU (perf counting cycles on counter 0). */
	for (unsigned i = 0; i < 6; i++) {
		b->h.msr[0x200 + 2 * i] = 0x530076 + i;
		b->h.msr[0x201 + 2 * i] = 0x1000 * (i + 1);
	}
	for (unsigned i = 0; i < 4; i++) {
		b->h.msr[i] = 0x530076 + i;
		b->h.msr[4 + i] = 0x1000 * (i + 1);
	}
	b->h.msr[0x301] = c->perfmon_v2 ? 0x3F : 0;
	if (virq_pmcvirt_vcpu_init(&b->v, &b->hal, c, g, m, flags, b->vmcb) != LIBVIRQ_OK)
		return -1;
	/* The guest counts retired instructions on counter 0. */
	if (virq_pmcvirt_msr_write(&b->v, g->ext_core ? 0xC0010200u : 0xC0010000u,
				   LIBVIRQ_PMCVIRT_GUEST, 0x4300C0) != LIBVIRQ_OK)
		return -1;
	if (g->perfmon_v2 &&
	    virq_pmcvirt_msr_write(&b->v, 0xC0000301u, LIBVIRQ_PMCVIRT_GUEST, 0x1) != LIBVIRQ_OK)
		return -1;
	return 0;
}

/* host: the host needs its PMU after this switch (restore, host perf runs,
 * save again before the next entry); cold: forget what the hardware holds
 * first (as if every write were made: no skipping). */
static NOINLINE int one_switch(struct bench *b, bool host, bool cold)
{
	if (cold)
		b->v.hw.valid = 0;
	if (virq_pmcvirt_enter(&b->v) != LIBVIRQ_OK)
		return -1;
	if (virq_pmcvirt_exit(&b->v, sim_vmrun(b)) != LIBVIRQ_OK)
		return -1;
	if (host && virq_pmcvirt_host_restore(&b->v) != LIBVIRQ_OK)
		return -1;
	if (host && virq_pmcvirt_host_save(&b->v) != LIBVIRQ_OK)
		return -1;
	return 0;
}

/* Runs n switches after a warm-up, the host needing its PMU after every
 * @host_every-th (0: never); returns MSR reads/writes per switch x100. */
static int run(const char *mode, unsigned host_every, bool cold, unsigned long n,
	       unsigned long *rd100, unsigned long *wr100)
{
	struct bench b;
	int rc = 0;

	if (setup(&b, mode))
		return -1;
	if (virq_pmcvirt_host_save(&b.v) != LIBVIRQ_OK)
		rc = -1;
	for (int i = 0; i < 2 && !rc; i++) /* warm-up: reach the steady state */
		rc = one_switch(&b, host_every == 1, cold);
	b.h.rd = b.h.wr = 0;
	for (unsigned long i = 0; i < n && !rc; i++)
		rc = one_switch(&b, host_every && (i + 1) % host_every == 0, cold);
	*rd100 = b.h.rd * 100 / n;
	*wr100 = b.h.wr * 100 / n;
	if (!rc && virq_pmcvirt_host_restore(&b.v) != LIBVIRQ_OK)
		rc = -1;
	free(b.vmcb);
	return rc;
}

/*
 * Hand-back: n times, a world switch then the host taking its PMU back
 * (virq_pmcvirt_host_restore) and giving it up again (virq_pmcvirt_host_save),
 * the host using the counters in @used (0: the default, all of them). MSR
 * accesses per restore and per save, x100.
 */
static int handback(const char *mode, uint32_t used, unsigned long n, unsigned long *back100,
		    unsigned long *save100)
{
	struct bench b;
	unsigned long back = 0, save = 0, t;
	int rc = 0;

	if (setup(&b, mode))
		return -1;
	if (used && virq_pmcvirt_host_set_used(&b.v, used) != LIBVIRQ_OK)
		rc = -1;
	if (!rc && virq_pmcvirt_host_save(&b.v) != LIBVIRQ_OK)
		rc = -1;
	for (unsigned long i = 0; i < n + 2 && !rc; i++) {
		if (virq_pmcvirt_enter(&b.v) != LIBVIRQ_OK ||
		    virq_pmcvirt_exit(&b.v, sim_vmrun(&b)) != LIBVIRQ_OK)
			rc = -1;
		t = b.h.rd + b.h.wr;
		if (!rc && virq_pmcvirt_host_restore(&b.v) != LIBVIRQ_OK)
			rc = -1;
		back += i >= 2 ? b.h.rd + b.h.wr - t : 0; /* after two warm-up rounds */
		t = b.h.rd + b.h.wr;
		if (!rc && virq_pmcvirt_host_save(&b.v) != LIBVIRQ_OK)
			rc = -1;
		save += i >= 2 ? b.h.rd + b.h.wr - t : 0;
	}
	*back100 = back * 100 / n;
	*save100 = save * 100 / n;
	if (!rc && virq_pmcvirt_host_restore(&b.v) != LIBVIRQ_OK)
		rc = -1;
	free(b.vmcb);
	return rc;
}

static void handback_rows(void)
{
	static const char *const modes[] = {"hw", "sw", "sw-lazy", "sw-k7"};

	printf(
	    "\nhanding the PMU back to the host (host_restore) and taking it again (host_save),\n"
	    "MSR accesses, after a world switch:\n");
	printf("%-10s %-26s %8s %8s\n", "mode", "host counters in use", "restore", "save");
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++)
		for (int one = 0; one < 2; one++) {
			unsigned long r, sv;

			if (handback(modes[k], one ? 1u : 0u, 1000, &r, &sv)) {
				printf("%-10s FAILED\n", modes[k]);
				continue;
			}
			printf("%-10s %-26s %5lu.%02lu %5lu.%02lu\n", modes[k],
			       one ? "1 (host_set_used)" : "all (default)", r / 100, r % 100,
			       sv / 100, sv % 100);
		}
}

static void row(const char *mode, const char *label, unsigned host, bool cold)
{
	unsigned long r, w;

	if (run(mode, host, cold, 1000, &r, &w)) {
		printf("%-10s %-34s FAILED\n", mode, label);
		return;
	}
	printf("%-10s %-34s %3lu.%02lu %3lu.%02lu %3lu.%02lu\n", mode, label, r / 100, r % 100,
	       w / 100, w % 100, (r + w) / 100, (r + w) % 100);
}

int main(int argc, char **argv)
{
	unsigned long r, w;

	if (argc == 2 && !strcmp(argv[1], "summary")) {
		static const struct {
			const char *mode, *name;
			unsigned host;
			const char *min;
		} sm[] = {
		    {"hw", "pmcvirt.hw.msr_per_switch", 0, "1"},
		    {"sw", "pmcvirt.sw_eager.msr_per_switch", 0, "-"},
		    {"sw-lazy", "pmcvirt.sw_lazy.msr_per_switch", 0, "0"},
		    {"sw", "pmcvirt.sw_eager.host_every10.msr_per_switch", 10, "-"},
		    {"sw-lazy", "pmcvirt.sw_lazy.host_every10.msr_per_switch", 10, "-"},
		    {"sw", "pmcvirt.sw_eager.host_every_exit.msr_per_switch", 1, "-"},
		    {"sw-lazy", "pmcvirt.sw_lazy.host_every_exit.msr_per_switch", 1, "-"},
		};

		for (size_t k = 0; k < sizeof(sm) / sizeof(sm[0]); k++) {
			if (run(sm[k].mode, sm[k].host, false, 1000, &r, &w))
				return 1;
			printf("summary: %s %lu.%02lu %s\n", sm[k].name, (r + w) / 100,
			       (r + w) % 100, sm[k].min);
		}
		/* Hand-back to a host using counter 0 (HW mode: 3 writes are the minimum,
		 * count, select and GlobalCtl; the library stops GlobalCtl first). */
		if (handback("hw", 1, 1000, &r, &w))
			return 1;
		printf("summary: pmc_host_handback_msr_1ctr %lu.%02lu -\n", r / 100, r % 100);
		printf("summary: pmcvirt.hw.host_take_msr_1ctr %lu.%02lu -\n", w / 100, w % 100);
		if (handback("hw", 0, 1000, &r, &w))
			return 1;
		printf("summary: pmcvirt.hw.host_handback_msr_all %lu.%02lu -\n", r / 100, r % 100);
		if (handback("sw-lazy", 1, 1000, &r, &w))
			return 1;
		printf("summary: pmcvirt.sw_lazy.host_handback_msr_1ctr %lu.%02lu -\n", r / 100,
		       r % 100);
		return 0;
	}
	if (argc == 4) {
		unsigned host = !strcmp(argv[2], "host") ? 1 : !strcmp(argv[2], "host10") ? 10 : 0;
		bool cold = !strcmp(argv[2], "cold");

		if (!host && !cold && strcmp(argv[2], "steady"))
			return 2;
		if (run(argv[1], host, cold, strtoul(argv[3], NULL, 0), &r, &w))
			return 1;
		printf("%s %s: %lu.%02lu MSR reads + %lu.%02lu MSR writes per world switch\n",
		       argv[1], argv[2], r / 100, r % 100, w / 100, w % 100);
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: bench_pmcvirt [hw|sw|sw-k7|sw-lazy|sw-k7-lazy "
				"steady|cold|host|host10 N | summary]\n");
		return 2;
	}
	printf("MSR accesses per world switch (1000 switches, 6-counter PerfMonV2 guest;\n"
	       "sw-k7: 4-counter legacy guest on a K7-only host)\n");
	printf("%-10s %-34s %6s %6s %6s\n", "mode", "scenario", "reads", "writes", "total");
	row("hw", "steady (enter+exit)", 0, false);
	row("hw", "cold (no write skipping)", 0, true);
	row("hw", "with host PMU save+restore", 1, false);
	row("sw", "steady (enter+exit)", 0, false);
	row("sw", "cold (no write skipping)", 0, true);
	row("sw", "host needs PMU every 10th exit", 10, false);
	row("sw", "with host PMU save+restore", 1, false);
	row("sw-lazy", "steady, host PMU idle (min 0)", 0, false);
	row("sw-lazy", "cold (no write skipping)", 0, true);
	row("sw-lazy", "host needs PMU every 10th exit", 10, false);
	row("sw-lazy", "with host PMU save+restore", 1, false);
	row("sw-k7", "steady (enter+exit)", 0, false);
	row("sw-k7", "cold (no write skipping)", 0, true);
	row("sw-k7", "with host PMU save+restore", 1, false);
	row("sw-k7-lazy", "steady, host PMU idle (min 0)", 0, false);
	row("sw-k7-lazy", "with host PMU save+restore", 1, false);
	printf(
	    "(lazy: the guest PMU stays in the MSRs across #VMEXIT - its event selects are\n"
	    " GuestOnly - and is saved only when the host needs the PMU or its state is read)\n");
	handback_rows();
	return 0;
}
