/* SPDX-License-Identifier: MIT */
/*
 * bench_avic: HAL accesses (doorbell MSR writes, kicks) per AVIC operation,
 * and loops of one operation for callgrind (run.sh counts the instructions
 * executed inside libvirq's own functions).
 *
 *   bench_avic                       table of accesses per operation
 *   bench_avic post-running N        N posts to a vCPU running on another CPU (doorbell)
 *   bench_avic post-running-kick N   the same with the kick policy
 *   bench_avic post-idle N           N posts to a vCPU that is not running (kick)
 *   bench_avic tnr NV N              N AVIC_INCOMPLETE_IPI TARGET_NOT_RUNNING exits for a
 *                                    broadcast in a VM of NV vCPUs (every third one running)
 *   bench_avic tnr-logical NV N M    N TARGET_NOT_RUNNING exits for one xAPIC logical
 *                                    destination (vCPU 5, not running) in a VM of NV
 *                                    xAPIC-mode vCPUs, model M = flat (vCPUs 0-7 one LDR
 *                                    bit each) or cluster (vCPUs 0-59 one cluster bit each);
 *                                    the other vCPUs have LDR 0
 *   bench_avic posters P N           P posters into one running vCPU, N rounds: each round
 *                                    every poster posts its own vector, then the same one
 *                                    (coalesced), then the guest takes them
 *   bench_avic crossover             doorbell vs kick on a cost model that counts the
 *                                    kicked target's forced exit, and what calibration picks
 *   bench_avic summary               the headline metrics as "name value minimum" lines
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/avic.h>

struct bhal {
	unsigned long msr_wr, kicks;
	uint64_t now, db_ns, kick_ns; /* cost model for the crossover (0 otherwise) */
};

static virq_status b_msr_rd(void *c, uint32_t m, uint64_t *v)
{
	(void)c;
	(void)m;
	*v = 0;
	return LIBVIRQ_OK;
}
static virq_status b_msr_wr(void *c, uint32_t m, uint64_t v)
{
	(void)m;
	(void)v;
	((struct bhal *)c)->msr_wr++;
	((struct bhal *)c)->now += ((struct bhal *)c)->db_ns;
	return LIBVIRQ_OK;
}
static void b_kick(void *c, void *k)
{
	(void)k;
	((struct bhal *)c)->kicks++;
	((struct bhal *)c)->now += ((struct bhal *)c)->kick_ns;
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
static uint64_t b_now(void *c)
{
	return ((struct bhal *)c)->now;
}

static virq_status b_alloc(void *c, size_t size, size_t align, struct virq_page *p)
{
	size_t r = (size + align - 1) & ~(align - 1);

	(void)c;
	p->va = aligned_alloc(align, r);
	if (!p->va)
		return LIBVIRQ_ENOMEM;
	memset(p->va, 0, r);
	p->pa = (uint64_t)(uintptr_t)p->va & 0x000FFFFFFFFFF000ull;
	p->size = size;
	return LIBVIRQ_OK;
}

static void b_free(void *c, const struct virq_page *p)
{
	(void)c;
	free(p->va);
}

static const struct virq_hal_ops bops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = b_r32,
    .mmio_write32 = b_w32,
    .mmio_read64 = b_r64,
    .mmio_write64 = b_w64,
    .msr_read = b_msr_rd,
    .msr_write = b_msr_wr,
    .page_alloc = b_alloc,
    .page_free = b_free,
    .now_ns = b_now,
    .kick_vcpu = b_kick,
};

static const struct virq_avic_caps zen4 = {
    .avic = true, .x2avic = true, .x2avic_4k = true, .family = 0x19, .max_index = 0xFFF};

struct bvm {
	struct bhal h;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu *v;
	uint32_t n;
};

static void die(const char *what, virq_status st)
{
	fprintf(stderr, "bench_avic: %s: %s\n", what, virq_strerror(st));
	exit(1);
}

static void bvm_new_mode(struct bvm *b, uint32_t n, enum virq_avic_policy pol, bool x2)
{
	struct virq_hal hal = {&bops, &b->h};
	struct virq_avic_vm_cfg cfg = {.mode = n > 512 ? LIBVIRQ_AVIC_MODE_X2AVIC_4K
						       : LIBVIRQ_AVIC_MODE_X2AVIC,
				       .max_vcpus = n,
				       .policy = pol};
	virq_status st;

	memset(b, 0, sizeof(*b));
	b->n = n;
	b->v = calloc(n, sizeof(*b->v));
	st = virq_avic_vm_init(&b->vm, &hal, &zen4, &cfg);
	if (st)
		die("vm_init", st);
	for (uint32_t i = 0; i < n; i++) {
		struct virq_avic_vcpu_cfg vc = {.index = i, .apic_id = i};
		struct virq_avic_vmcb_values vals;

		st = virq_avic_vcpu_init(&b->vm, &b->v[i], &vc);
		if (!st && x2)
			st = virq_avic_vcpu_set_x2apic(&b->v[i], true);
		if (!st)
			/* Host APIC IDs 1..0xFE: the doorbell register takes 8 bits
			 * (APM Vol 2 rev 3.44 Figure 15-22); above 0xFF a post kicks. */
			st = virq_avic_vcpu_load(&b->v[i], 1 + i % 0xFE);
		if (!st)
			st = virq_avic_vcpu_vmcb_values(&b->v[i], &vals);
		if (!st && i % 3 != 0)
			st = virq_avic_vcpu_put(&b->v[i]); /* every third vCPU runs */
		if (st)
			die("vcpu setup", st);
	}
}

static void bvm_new(struct bvm *b, uint32_t n, enum virq_avic_policy pol)
{
	bvm_new_mode(b, n, pol, true);
}

/* xAPIC-mode VM of @n vCPUs with logical IDs (tnr-logical above); returns the destination
 * (MDA) naming vCPU 5 alone. */
static uint32_t bvm_new_logical(struct bvm *b, uint32_t n, bool cluster)
{
	bvm_new_mode(b, n, LIBVIRQ_AVIC_POLICY_DOORBELL, false);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lid = 0;
		virq_status st = LIBVIRQ_OK;

		if (cluster && i < 60)
			lid = ((i / 4) << 4) | (1u << (i % 4));
		else if (!cluster && i < 8)
			lid = 1u << i;
		if (cluster)
			st = virq_avic_dfr_write(&b->v[i], 0x0FFFFFFFu);
		if (st == LIBVIRQ_OK || st == LIBVIRQ_ENOENT)
			st = virq_avic_ldr_write(&b->v[i], lid << 24);
		if (st != LIBVIRQ_OK && st != LIBVIRQ_ENOENT)
			die("ldr/dfr", st);
	}
	return cluster ? (1u << 4) | (1u << 1) : 1u << 5;
}

/* @n TARGET_NOT_RUNNING exits of vCPU 0 for the fixed logical IPI to @mda (xAPIC ICR). */
static void tnr_logical(struct bvm *b, uint32_t mda, unsigned long n)
{
	uint64_t info1 = ((uint64_t)mda << 56) | 0x0800u | 0x50u, info2 = 1ull << 32;
	struct virq_avic_exit_result res;

	for (unsigned long k = 0; k < n; k++) {
		virq_status st =
		    virq_avic_handle_incomplete_ipi(&b->v[0], info1, info2, NULL, &res);

		if (st || res.targets != 1)
			die("incomplete_ipi (logical)", st ? st : LIBVIRQ_EHW);
	}
}

static void bvm_free(struct bvm *b)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (virq_avic_vcpu_put(&b->v[i]) || virq_avic_vcpu_destroy(&b->v[i]))
			die("vcpu teardown", LIBVIRQ_EBUSY);
	if (virq_avic_vm_destroy(&b->vm))
		die("vm_destroy", LIBVIRQ_EBUSY);
	free(b->v);
}

/* The guest takes the interrupt (outside the measured function). */
static void ack(struct virq_avic_vcpu *v, uint32_t vec)
{
	uint32_t *w =
	    (uint32_t *)((uint8_t *)virq_avic_vcpu_backing(v, NULL) + 0x200 + (vec / 32) * 0x10);

	*w &= ~(1u << (vec % 32));
}

static void posts(struct bvm *b, uint32_t target, unsigned long n)
{
	for (unsigned long k = 0; k < n; k++) {
		virq_status st = virq_avic_post(&b->v[target], 0x40, 0 /* poster's CPU */);

		if (st)
			die("post", st);
		ack(&b->v[target], 0x40);
	}
}

static void tnr(struct bvm *b, unsigned long n)
{
	/* Sender vCPU 0 (running), x2APIC broadcast ICR: fixed, vector 0x50. */
	uint64_t info1 = 0xFFFFFFFF00004050ull, info2 = 1ull << 32;
	struct virq_avic_exit_result res;

	for (unsigned long k = 0; k < n; k++) {
		virq_status st =
		    virq_avic_handle_incomplete_ipi(&b->v[0], info1, info2, NULL, &res);

		if (st)
			die("incomplete_ipi", st);
	}
}

/* P posters into vCPU 3 (running elsewhere): distinct vectors, then the same vectors again
 * before the guest took them (coalesced: no notification), then the guest takes them. */
static void bench_posters(struct bvm *b, uint32_t p, unsigned long n, unsigned long *fresh,
			  unsigned long *coalesced)
{
	for (unsigned long k = 0; k < n; k++) {
		for (uint32_t i = 0; i < p; i++)
			if (virq_avic_post(&b->v[3], 0x40 + i, i % 2 ? 0 : LIBVIRQ_AVIC_NO_CPU))
				die("post", LIBVIRQ_EHW);
		*fresh += p;
		for (uint32_t i = 0; i < p; i++)
			if (virq_avic_post(&b->v[3], 0x40 + i, 0))
				die("post", LIBVIRQ_EHW);
		*coalesced += p;
		for (uint32_t i = 0; i < p; i++)
			ack(&b->v[3], 0x40 + i);
	}
}

static void posters_row(uint32_t p, unsigned long n)
{
	struct bvm b;
	unsigned long fresh = 0, coal = 0;
	struct virq_avic_vcpu_counters c;

	bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_DOORBELL);
	bench_posters(&b, p, n, &fresh, &coal);
	virq_avic_vcpu_counters_get(&b.v[3], &c);
	printf("  %u posters x %lu rounds: %lu posts set a new bit, %lu coalesced; doorbells %lu "
	       "(min %lu), kicks %lu (min 0)\n",
	       p, n, fresh, coal, b.h.msr_wr, fresh, b.h.kicks);
	if (c.coalesced != coal || b.h.msr_wr != fresh)
		die("posters: notification count", LIBVIRQ_EHW);
	bvm_free(&b);
}

/*
 * Cost model: a doorbell write costs the poster db ns and the running target
 * nothing (the hardware injects); a kick costs the poster k ns and the
 * target a forced exit of e ns (#VMEXIT, host handling, VMRUN). Prints, per
 * case, the true cheaper policy and what virq_avic_vm_calibrate() picks
 * without and with cfg.kick_exit_ns = e.
 */
static enum virq_avic_policy calib_pick(uint64_t db, uint64_t k, uint32_t exit_ns)
{
	struct bvm b;
	struct virq_hal hal;
	struct virq_avic_vm_cfg cfg = {
	    .mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = 1, .kick_exit_ns = exit_ns};
	enum virq_avic_policy p;

	memset(&b, 0, sizeof(b));
	hal = (struct virq_hal){&bops, &b.h};
	b.h.db_ns = db;
	b.h.kick_ns = k;
	if (virq_avic_vm_init(&b.vm, &hal, &zen4, &cfg) != LIBVIRQ_OK ||
	    virq_avic_vm_calibrate(&b.vm, 1, NULL, 16, &p) != LIBVIRQ_OK ||
	    virq_avic_vm_destroy(&b.vm) != LIBVIRQ_OK)
		die("calibrate", LIBVIRQ_EHW);
	return p;
}

static void crossover(bool quiet)
{
	static const uint64_t dbs[] = {200, 400, 800, 1200, 1600, 2400};
	static const uint64_t exits[] = {0, 1000, 2000};
	const uint64_t k = 400;
	unsigned wrong = 0, wrong_fixed = 0, cases = 0;

	if (!quiet) {
		printf(
		    "doorbell vs kick per post to a running vCPU (cost model; kick = %llu ns for "
		    "the poster):\n",
		    (unsigned long long)k);
		printf("  %-8s %-9s %-12s %-12s %-8s %-22s %s\n", "doorbell", "exit(kick)",
		       "doorbell cost", "kick cost", "cheaper", "calibrate (no exit)",
		       "calibrate (kick_exit_ns)");
	}
	for (size_t e = 0; e < sizeof(exits) / sizeof(exits[0]); e++) {
		for (size_t d = 0; d < sizeof(dbs) / sizeof(dbs[0]); d++) {
			uint64_t cd = dbs[d], ck = k + exits[e];
			enum virq_avic_policy best =
			    cd <= ck ? LIBVIRQ_AVIC_POLICY_DOORBELL : LIBVIRQ_AVIC_POLICY_KICK;
			enum virq_avic_policy p0 = calib_pick(dbs[d], k, 0);
			enum virq_avic_policy p1 = calib_pick(dbs[d], k, (uint32_t)exits[e]);

			cases++;
			wrong += p0 != best;
			wrong_fixed += p1 != best;
			if (!quiet)
				printf("  %-8llu %-9llu %-12llu %-12llu %-8s %-22s %s\n",
				       (unsigned long long)cd, (unsigned long long)exits[e],
				       (unsigned long long)cd, (unsigned long long)ck,
				       best ? "kick" : "doorbell", p0 ? "kick" : "doorbell",
				       p1 ? "kick" : "doorbell");
		}
	}
	if (!quiet)
		printf(
		    "  crossover: the doorbell is cheaper while doorbell <= kick + target exit;\n"
		    "  calibration without kick_exit_ns picks wrong in %u of %u cases, with it "
		    "in %u\n",
		    wrong, cases, wrong_fixed);
	if (quiet) {
		printf("summary: avic.crossover.calibrate_wrong_no_exit %u 0\n", wrong);
		printf("summary: avic.crossover.calibrate_wrong_with_exit %u 0\n", wrong_fixed);
	}
}

static void summary(void)
{
	struct bvm b;
	unsigned long fresh = 0, coal = 0;
	static const uint32_t nv[] = {255, 4096};

	crossover(true);
	bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_DOORBELL);
	posts(&b, 3, 100);
	printf("summary: avic.post_running.doorbells %.2f 1\n", (double)b.h.msr_wr / 100.0);
	b.h.msr_wr = b.h.kicks = 0;
	posts(&b, 1, 100);
	printf("summary: avic.post_idle.kicks %.2f 1\n", (double)b.h.kicks / 100.0);
	b.h.msr_wr = b.h.kicks = 0;
	bench_posters(&b, 8, 100, &fresh, &coal);
	printf("summary: avic.posters8.doorbells_per_coalesced_post %.2f 0\n",
	       (double)(b.h.msr_wr - fresh) / (double)coal);
	bvm_free(&b);
	/* Maps sized by max_vcpus: 1,024 vCPUs in the 4K x2AVIC mode (64 KiB before). */
	bvm_new(&b, 1024, LIBVIRQ_AVIC_POLICY_DOORBELL);
	printf("summary: avic.maps_bytes_1024_vcpus_x2avic4k %zu -\n", b.vm.maps.size);
	bvm_free(&b);
	for (int k = 0; k < 2; k++) {
		unsigned long running = 0;

		bvm_new(&b, nv[k], LIBVIRQ_AVIC_POLICY_DOORBELL);
		for (uint32_t i = 1; i < nv[k]; i++)
			running += i % 3 == 0;
		tnr(&b, 1);
		/* Every target but the sender: the non-running ones are kicked, the running
		 * ones were notified by the hardware (no doorbell needed). */
		printf("summary: avic.tnr_bcast%u.doorbells %lu 0\n", nv[k], b.h.msr_wr);
		printf("summary: avic.tnr_bcast%u.kicks %lu %lu\n", nv[k], b.h.kicks,
		       nv[k] - 1 - running);
		printf("summary: avic.maps_bytes_%u_vcpus %zu -\n", nv[k], b.vm.maps.size);
		bvm_free(&b);
	}
}

static void table(void)
{
	struct bvm b;
	const unsigned long n = 1000;

	printf("%-34s %12s %12s\n", "operation (per call)", "doorbell_wr", "kicks");
	bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_DOORBELL);
	posts(&b, 3, n);
	printf("%-34s %12.2f %12.2f\n", "post, target running elsewhere",
	       (double)b.h.msr_wr / (double)n, (double)b.h.kicks / (double)n);
	b.h.msr_wr = b.h.kicks = 0;
	posts(&b, 1, n);
	printf("%-34s %12.2f %12.2f\n", "post, target not running", (double)b.h.msr_wr / (double)n,
	       (double)b.h.kicks / (double)n);
	bvm_free(&b);
	bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_KICK);
	posts(&b, 3, n);
	printf("%-34s %12.2f %12.2f\n", "post, running, kick policy",
	       (double)b.h.msr_wr / (double)n, (double)b.h.kicks / (double)n);
	bvm_free(&b);
	for (int k = 0; k < 3; k++) {
		static const uint32_t nv[] = {255, 511, 4096};
		char name[64];

		bvm_new(&b, nv[k], LIBVIRQ_AVIC_POLICY_DOORBELL);
		tnr(&b, 10);
		snprintf(name, sizeof(name), "TARGET_NOT_RUNNING bcast, %u vCPUs", nv[k]);
		printf("%-34s %12.1f %12.1f\n", name, (double)b.h.msr_wr / 10.0,
		       (double)b.h.kicks / 10.0);
		bvm_free(&b);
	}
	printf("(every third vCPU running on its own pCPU; the sender is vCPU 0; the running\n"
	       " targets were notified by the hardware: minimum 0 doorbells, one kick per\n"
	       " non-running target)\n");
	printf("\nmany posters into one running vCPU (doorbell policy):\n");
	posters_row(8, 1000);
	posters_row(64, 100);
	printf("\n");
	crossover(false);
}

int main(int argc, char **argv)
{
	struct bvm b;

	if (argc == 1) {
		table();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "post-running")) {
		bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_DOORBELL);
		posts(&b, 3, strtoul(argv[2], NULL, 0));
	} else if (argc == 3 && !strcmp(argv[1], "post-running-kick")) {
		bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_KICK);
		posts(&b, 3, strtoul(argv[2], NULL, 0));
	} else if (argc == 3 && !strcmp(argv[1], "post-idle")) {
		bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_DOORBELL);
		posts(&b, 1, strtoul(argv[2], NULL, 0));
	} else if (argc == 4 && !strcmp(argv[1], "posters")) {
		unsigned long fresh = 0, coal = 0;

		bvm_new(&b, 4, LIBVIRQ_AVIC_POLICY_DOORBELL);
		bench_posters(&b, (uint32_t)strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
			      &fresh, &coal);
	} else if (argc == 2 && !strcmp(argv[1], "crossover")) {
		crossover(false);
		return 0;
	} else if (argc == 2 && !strcmp(argv[1], "summary")) {
		summary();
		return 0;
	} else if (argc == 5 && !strcmp(argv[1], "tnr-logical")) {
		uint32_t mda = bvm_new_logical(&b, (uint32_t)strtoul(argv[2], NULL, 0),
					       !strcmp(argv[4], "cluster"));

		tnr_logical(&b, mda, strtoul(argv[3], NULL, 0));
	} else if (argc == 4 && !strcmp(argv[1], "tnr")) {
		bvm_new(&b, (uint32_t)strtoul(argv[2], NULL, 0), LIBVIRQ_AVIC_POLICY_DOORBELL);
		tnr(&b, strtoul(argv[3], NULL, 0));
	} else {
		fprintf(
		    stderr,
		    "usage: bench_avic [post-running|post-running-kick|post-idle N | tnr NV N |\n"
		    "                   tnr-logical NV N flat|cluster |\n"
		    "                   posters P N | crossover | summary]\n");
		return 2;
	}
	printf("doorbells=%lu kicks=%lu\n", b.h.msr_wr, b.h.kicks);
	bvm_free(&b);
	return 0;
}
