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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/avic.h>

struct bhal {
	unsigned long msr_wr, kicks;
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
	return LIBVIRQ_OK;
}
static void b_kick(void *c, void *k)
{
	(void)k;
	((struct bhal *)c)->kicks++;
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
	(void)c;
	return 0;
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

static void bvm_new(struct bvm *b, uint32_t n, enum virq_avic_policy pol)
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
		if (!st)
			st = virq_avic_vcpu_set_x2apic(&b->v[i], true);
		if (!st)
			st = virq_avic_vcpu_load(&b->v[i], 0x100 + i % 0xE00);
		if (!st)
			st = virq_avic_vcpu_vmcb_values(&b->v[i], &vals);
		if (!st && i % 3 != 0)
			st = virq_avic_vcpu_put(&b->v[i]); /* every third vCPU runs */
		if (st)
			die("vcpu setup", st);
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
	printf("(every third vCPU running on its own pCPU; the sender is vCPU 0)\n");
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
	} else if (argc == 4 && !strcmp(argv[1], "tnr")) {
		bvm_new(&b, (uint32_t)strtoul(argv[2], NULL, 0), LIBVIRQ_AVIC_POLICY_DOORBELL);
		tnr(&b, strtoul(argv[3], NULL, 0));
	} else {
		fprintf(
		    stderr,
		    "usage: bench_avic [post-running|post-running-kick|post-idle N | tnr NV N]\n");
		return 2;
	}
	printf("doorbells=%lu kicks=%lu\n", b.h.msr_wr, b.h.kicks);
	bvm_free(&b);
	return 0;
}
