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
 *     MODE = hw | sw | sw-k7; SCENARIO = steady | cold | host
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>

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
		return msr - 0xC0010000u;        /* 0x000..0x2FF */
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

static uint32_t b_r32(void *c, uint64_t a) { (void)c; (void)a; return 0; }
static void b_w32(void *c, uint64_t a, uint32_t v) { (void)c; (void)a; (void)v; }
static uint64_t b_r64(void *c, uint64_t a) { (void)c; (void)a; return 0; }
static void b_w64(void *c, uint64_t a, uint64_t v) { (void)c; (void)a; (void)v; }
static virq_status b_alloc(void *c, size_t s, size_t a, struct virq_page *p)
{
	(void)c; (void)s; (void)a; (void)p;
	return LIBVIRQ_ENOMEM;
}
static void b_free(void *c, const struct virq_page *p) { (void)c; (void)p; }
static uint64_t b_now(void *c) { (void)c; return 0; }

static const struct virq_hal_ops bops = {
	.version = LIBVIRQ_HAL_VERSION, .size = sizeof(struct virq_hal_ops),
	.mmio_read32 = b_r32, .mmio_write32 = b_w32, .mmio_read64 = b_r64,
	.mmio_write64 = b_w64, .msr_read = b_rd, .msr_write = b_wr,
	.page_alloc = b_alloc, .page_free = b_free, .now_ns = b_now,
};


struct bench {
	struct bhal h;
	struct virq_hal hal;
	struct virq_pmcvirt_vcpu v;
	uint8_t *vmcb;
	bool hw;
};

/* The CPU's side of VMRUN ... #VMEXIT (not counted: it is not library work). */
static __attribute__((noinline)) uint64_t sim_vmrun(struct bench *b)
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

	memset(b, 0, sizeof(*b));
	if (!strcmp(mode, "sw")) {
		c = ZEN4_CAPS;
		m = LIBVIRQ_PMCVIRT_MODE_SW;
	} else if (!strcmp(mode, "sw-k7")) {
		c = FAM10H_CAPS;
		g = &virq_sim_guest_pmc4;
		m = LIBVIRQ_PMCVIRT_MODE_SW;
	} else if (strcmp(mode, "hw")) {
		return -1;
	}
	b->hw = m == LIBVIRQ_PMCVIRT_MODE_HW;
	b->hal = (struct virq_hal){ &bops, &b->h };
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
	if (virq_pmcvirt_vcpu_init(&b->v, &b->hal, c, g, m, 0, b->vmcb) != LIBVIRQ_OK)
		return -1;
	/* The guest counts retired instructions on counter 0. */
	if (virq_pmcvirt_msr_write(&b->v, g->ext_core ? 0xC0010200u : 0xC0010000u, LIBVIRQ_PMCVIRT_GUEST,
				   0x4300C0) != LIBVIRQ_OK)
		return -1;
	if (g->perfmon_v2 &&
	    virq_pmcvirt_msr_write(&b->v, 0xC0000301u, LIBVIRQ_PMCVIRT_GUEST, 0x1) != LIBVIRQ_OK)
		return -1;
	return 0;
}

/* host: save/restore the host PMU around the switch; cold: forget what the
 * hardware holds first (as if every write were made: no skipping). */
static __attribute__((noinline)) int one_switch(struct bench *b, bool host, bool cold)
{
	if (cold)
		b->v.hw.valid = 0;
	if (host && virq_pmcvirt_host_save(&b->v) != LIBVIRQ_OK)
		return -1;
	if (virq_pmcvirt_enter(&b->v) != LIBVIRQ_OK)
		return -1;
	if (virq_pmcvirt_exit(&b->v, sim_vmrun(b)) != LIBVIRQ_OK)
		return -1;
	if (host && virq_pmcvirt_host_restore(&b->v) != LIBVIRQ_OK)
		return -1;
	return 0;
}

/* Runs n switches after a warm-up; returns MSR reads/writes per switch x100. */
static int run(const char *mode, bool host, bool cold, unsigned long n, unsigned long *rd100,
	       unsigned long *wr100)
{
	struct bench b;
	int rc = 0;

	if (setup(&b, mode))
		return -1;
	if (!host && virq_pmcvirt_host_save(&b.v) != LIBVIRQ_OK)
		rc = -1;
	for (int i = 0; i < 2 && !rc; i++) /* warm-up: reach the steady state */
		rc = one_switch(&b, host, cold);
	b.h.rd = b.h.wr = 0;
	for (unsigned long i = 0; i < n && !rc; i++)
		rc = one_switch(&b, host, cold);
	*rd100 = b.h.rd * 100 / n;
	*wr100 = b.h.wr * 100 / n;
	free(b.vmcb);
	return rc;
}

static void row(const char *mode, const char *label, bool host, bool cold)
{
	unsigned long r, w;

	if (run(mode, host, cold, 1000, &r, &w)) {
		printf("%-6s %-34s FAILED\n", mode, label);
		return;
	}
	printf("%-6s %-34s %3lu.%02lu %3lu.%02lu %3lu.%02lu\n", mode, label, r / 100, r % 100,
	       w / 100, w % 100, (r + w) / 100, (r + w) % 100);
}

int main(int argc, char **argv)
{
	unsigned long r, w;

	if (argc == 4) {
		bool host = !strcmp(argv[2], "host");
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
		fprintf(stderr, "usage: bench_pmcvirt [hw|sw|sw-k7 steady|cold|host N]\n");
		return 2;
	}
	printf("MSR accesses per world switch (1000 switches, 6-counter PerfMonV2 guest;\n"
	       "sw-k7: 4-counter legacy guest on a K7-only host)\n");
	printf("%-6s %-34s %6s %6s %6s\n", "mode", "scenario", "reads", "writes", "total");
	row("hw", "steady (enter+exit)", false, false);
	row("hw", "cold (no write skipping)", false, true);
	row("hw", "with host PMU save+restore", true, false);
	row("sw", "steady (enter+exit)", false, false);
	row("sw", "cold (no write skipping)", false, true);
	row("sw", "with host PMU save+restore", true, false);
	row("sw-k7", "steady (enter+exit)", false, false);
	row("sw-k7", "cold (no write skipping)", false, true);
	row("sw-k7", "with host PMU save+restore", true, false);
	return 0;
}
