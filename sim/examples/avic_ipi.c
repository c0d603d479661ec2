/* SPDX-License-Identifier: MIT */
/*
 * Example: a two-vCPU AVIC VM posting an IPI, on the simulator (docs/sim.md).
 *
 * With AVIC (AMD APM Vol 2 §15.29) a guest's IPI to a running vCPU needs no
 * #VMEXIT: the hardware sets the vector in the target's vAPIC backing page
 * and rings the doorbell of the host CPU it runs on. To a vCPU that is not
 * running, the IPI is still recorded but the sender exits with
 * AVIC_INCOMPLETE_IPI (TARGET_NOT_RUNNING) and the hypervisor wakes the
 * target. Steps:
 *   1. a Zen 4 CPU profile (libvirq/sim/cpu.h); the library probes AVIC;
 *   2. an xAVIC VM with vCPU 0 (APIC ID 0) and vCPU 1 (APIC ID 1), loaded on
 *      host CPUs 2 and 3, their VMCB fields written;
 *   3. the guest on vCPU 0 sends vector 0x40 to APIC ID 1: the AVIC model
 *      (libvirq/sim/avic.h) delivers it and rings host CPU 3's doorbell;
 *   4. vCPU 1 is scheduled out; vector 0x41 makes vCPU 0 exit, and the
 *      library's exit handler kicks vCPU 1;
 *   5. a device interrupt for vCPU 1 posted by the hypervisor (virq_avic_post)
 *      while it is out: pending in its backing page, one more kick.
 * Exit status 0 when each step behaves as the APM says.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libvirq/avic.h>
#include <libvirq/sim/avic.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/hal.h>

#define CHECK(call)                                                                                \
	do {                                                                                       \
		virq_status st_ = (call);                                                          \
		if (st_ != LIBVIRQ_OK) {                                                           \
			fprintf(stderr, "avic_ipi: %s: %s\n", #call, virq_strerror(st_));          \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "avic_ipi: expected %s\n", #cond);                         \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static uint8_t vmcb_[2][4096];
static int cookie_[2]; /* the embedder's vCPU handles: what kick_vcpu receives */

/* Loads vCPU @p v on host CPU @p host and writes its VMCB's AVIC fields. */
static void run_on(struct virq_avic_vcpu *v, uint32_t host, uint8_t *vmcb)
{
	struct virq_avic_vmcb_values vals;

	CHECK(virq_avic_vcpu_load(v, host));
	CHECK(virq_avic_vcpu_vmcb_values(v, &vals));
	CHECK(virq_avic_vmcb_write(vmcb, &vals));
}

int main(void)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu v[2];
	struct virq_avic_vm_cfg cfg = {.mode = LIBVIRQ_AVIC_MODE_XAVIC, .max_vcpus = 2};
	struct virq_sim_avic_result *r = calloc(1, sizeof(*r));
	struct virq_sim_avic_doorbells *db = calloc(1, sizeof(*db));
	struct virq_avic_deliver_ops ops = {NULL, NULL};
	struct virq_avic_exit_result res;

	EXPECT(r && db);
	/* 1. The CPU. */
	virq_sim_cpu_apply(sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4]);
	CHECK(virq_avic_caps_probe(&hal, &caps));
	EXPECT(caps.avic);
	printf("CPU family %xh model %xh: AVIC%s%s\n", (unsigned)caps.family, (unsigned)caps.model,
	       caps.x2avic ? ", x2AVIC" : "", caps.vnmi ? ", VNMI" : "");

	/* 2. The VM and its two vCPUs, running on host CPUs 2 and 3. */
	CHECK(virq_avic_vm_init(&vm, &hal, &caps, &cfg));
	for (uint32_t i = 0; i < 2; i++) {
		struct virq_avic_vcpu_cfg vc = {.index = i, .apic_id = i, .cookie = &cookie_[i]};

		CHECK(virq_avic_vcpu_init(&vm, &v[i], &vc));
	}
	/* The VMCB's physical-table limit covers the highest APIC ID at the time
	 * its values are taken: write the VMCBs after the vCPUs exist (a vCPU
	 * added later means fresh values for everyone before the next VMRUN). */
	for (uint32_t i = 0; i < 2; i++)
		run_on(&v[i], 2 + i, vmcb_[i]);
	virq_sim_avic_watch_doorbells(sim, db);

	/* 3. vCPU 0 -> APIC ID 1, vector 0x40 (fixed, physical): no exit. */
	EXPECT(virq_sim_avic_icr_write(sim, vmcb_[0], 2, 0x40, 1u << 24, NULL, r) == 0);
	EXPECT(!r->exited && r->ndoorbell == 1 && r->doorbell[0] == 3);
	EXPECT(virq_sim_avic_irr_test(virq_avic_vcpu_backing(&v[1], NULL), 0x40));
	printf("IPI 0x40 to running vCPU 1: in its IRR, doorbell to host CPU %u, no exit\n",
	       (unsigned)r->doorbell[0]);

	/* 4. vCPU 1 scheduled out: the hardware records the IPI and exits. */
	CHECK(virq_avic_vcpu_put(&v[1]));
	EXPECT(virq_sim_avic_icr_write(sim, vmcb_[0], 2, 0x41, 1u << 24, NULL, r) == 0);
	EXPECT(r->exited && r->exit_code == LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI);
	EXPECT((r->info2 >> 32) == LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING);
	CHECK(virq_avic_handle_incomplete_ipi(&v[0], r->info1, r->info2, &ops, &res));
	EXPECT(res.action == LIBVIRQ_AVIC_ACT_DONE);
	EXPECT(virq_sim_avic_irr_test(virq_avic_vcpu_backing(&v[1], NULL), 0x41));
	EXPECT(virq_sim_kicks_of(sim, &cookie_[1]) == 1);
	printf("IPI 0x41 to scheduled-out vCPU 1: #VMEXIT 0x%llx (TARGET_NOT_RUNNING), "
	       "handled: vCPU 1 kicked\n",
	       (unsigned long long)r->exit_code);

	/* 5. A device interrupt for vCPU 1, posted by the hypervisor. */
	CHECK(virq_avic_post(&v[1], 0x50, LIBVIRQ_AVIC_NO_CPU));
	EXPECT(virq_sim_avic_irr_test(virq_avic_vcpu_backing(&v[1], NULL), 0x50));
	EXPECT(virq_sim_kicks_of(sim, &cookie_[1]) == 2);
	printf("posted 0x50 to vCPU 1 while out: pending, kicked (%lu kicks, %u doorbells)\n",
	       virq_sim_kicks_of(sim, &cookie_[1]), (unsigned)db->n);

	/* vCPU 1 runs again and finds its three vectors pending. */
	run_on(&v[1], 3, vmcb_[1]);
	CHECK(virq_avic_vcpu_put(&v[0]));
	CHECK(virq_avic_vcpu_put(&v[1]));
	for (uint32_t i = 0; i < 2; i++)
		CHECK(virq_avic_vcpu_destroy(&v[i]));
	CHECK(virq_avic_vm_destroy(&vm));
	EXPECT(virq_sim_live_pages(sim) == 0);
	virq_sim_free(sim);
	free(r);
	free(db);
	printf("avic_ipi: ok\n");
	return 0;
}
