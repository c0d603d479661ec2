/* SPDX-License-Identifier: MIT */
/*
 * Example: a first vLPI through GICv4.0, on the simulator (docs/sim.md).
 *
 * A device's MSI reaches a guest's vCPU without the hypervisor: the ITS
 * translates (DeviceID, EventID) to (vPE, vINTID) and the redistributor
 * delivers it while the vPE is resident; while it is not, the vLPI waits in
 * the vPE's pending table and the doorbell LPI wakes the hypervisor
 * (Arm IHI 0069H §5.1, §9.4). Steps:
 *   1. a simulated QEMU-virt GICv4.0 (one redistributor, one ITS) and its
 *      virq_gic_desc from virq_sim_gic_new();
 *   2. the library brings it up: GIC, distributor, redistributor, ITS,
 *      collection 0 -> redistributor 0;
 *   3. device 1 with 32 events; a VM, a vPE with a doorbell LPI;
 *   4. event 5 -> vINTID 8192 of the vPE (and a mistake, refused: the
 *      simulator's last failure report says why);
 *   5. vPE resident: the device's MSI is delivered to the vPE directly;
 *   6. vPE not resident: the MSI sets its VPT bit and rings the doorbell.
 * Exit status 0 when each step behaves as the architecture says.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libvirq/gicv4.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>

#define CHECK(call)                                                                                \
	do {                                                                                       \
		virq_status st_ = (call);                                                          \
		if (st_ != LIBVIRQ_OK) {                                                           \
			fprintf(stderr, "first_vlpi: %s: %s\n", #call, virq_strerror(st_));        \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "first_vlpi: expected %s\n", #cond);                       \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

int main(void)
{
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_gic_desc desc;
	struct virq_sim_gic *sg = virq_sim_gic_new(sim, NULL, &desc);
	struct virq_sim_its_state *its_model = virq_sim_gic_its(sg, 0);
	struct virq_gic gic;
	struct virq_gic_rdist rds[1];
	struct virq_its its;
	struct virq_its_device dev;
	struct virq_gic_vm vm;
	struct virq_vpe vpe;
	struct virq_failure why;
	uint32_t doorbell;
	bool pending_last;

	/* 1-2. The GIC the simulator describes, brought up by the library. */
	printf("GICD 0x%llx, redistributors 0x%llx, ITS 0x%llx\n",
	       (unsigned long long)desc.gicd_base, (unsigned long long)desc.redist[0].base,
	       (unsigned long long)desc.its[0].base);
	CHECK(virq_gic_init(&gic, &hal, &desc, rds, 1, 16));
	CHECK(virq_gic_dist_enable(&gic));
	CHECK(virq_gic_rdist_init(&gic, 0));
	CHECK(virq_its_init(&its, &gic, &desc.its[0], NULL));
	CHECK(virq_its_map_collection(&its, 0));
	printf("%s, ITS ready\n", virq_gic_version_name(gic.version));

	/* 3. A device, a VM and its vPE with a doorbell. */
	CHECK(virq_its_device_map(&its, &dev, 1, 32));
	CHECK(virq_lpi_alloc(&gic, 1, &doorbell));
	CHECK(virq_lpi_set_config(&gic, doorbell, 0xA0, true));
	CHECK(virq_gic_vm_init(&vm, &gic, 16));
	CHECK(virq_vpe_init(&vpe, &vm, 0, doorbell));

	/* 4. Event 5 of device 1 is vINTID 8192 of the vPE. */
	CHECK(virq_vlpi_map(&dev, 5, &vpe, 8192, true));
	/* A mistake is refused, and the simulator keeps the library's report:
	 * which public function, which check, the values (struct virq_failure). */
	EXPECT(virq_vlpi_map(&dev, 32, &vpe, 8193, true) == LIBVIRQ_ERANGE);
	EXPECT(virq_sim_last_fail(sim, &why));
	printf("refused: %s (%s)\n", why.message, virq_status_name(why.status));

	/* 5. Resident vPE: the MSI goes straight to it. */
	CHECK(virq_vpe_make_resident(&vpe, 0));
	EXPECT(virq_sim_its_state_msi(its_model, 1, 5));
	EXPECT(virq_sim_its_state_vdelivered(its_model, vpe.vpeid, 8192) == 1);
	EXPECT(virq_sim_its_state_doorbells(its_model, doorbell) == 0);
	printf("resident vPE %u: device 1 event 5 delivered as vINTID 8192, no doorbell\n",
	       (unsigned)vpe.vpeid);

	/* 6. Not resident: pending in the VPT, doorbell LPI raised. */
	CHECK(virq_vpe_make_nonresident(&vpe, true, &pending_last));
	EXPECT(virq_sim_its_state_msi(its_model, 1, 5));
	EXPECT(virq_sim_its_state_doorbells(its_model, doorbell) == 1);
	EXPECT((((const uint8_t *)vpe.vpt.va)[8192 / 8] & 1) == 1);
	printf("non-resident vPE: vINTID 8192 pending in the VPT, doorbell LPI %u raised\n",
	       (unsigned)doorbell);
	/* Making it resident again reports the pending vLPI (PendingLast). */
	CHECK(virq_vpe_make_resident(&vpe, 0));
	CHECK(virq_vpe_make_nonresident(&vpe, false, &pending_last));
	EXPECT(pending_last);
	EXPECT(virq_sim_its_state_errors(its_model) == 0);

	/* Teardown, in reverse; nothing leaks. */
	CHECK(virq_vlpi_unmap(&dev, 5));
	CHECK(virq_vpe_destroy(&vpe));
	CHECK(virq_gic_vm_destroy(&vm));
	CHECK(virq_lpi_free(&gic, doorbell, 1));
	CHECK(virq_its_device_unmap(&dev));
	CHECK(virq_its_destroy(&its));
	CHECK(virq_gic_destroy(&gic));
	EXPECT(virq_sim_live_pages(sim) == 0);
	virq_sim_free(sim);
	virq_sim_gic_free(sg);
	printf("first_vlpi: ok\n");
	return 0;
}
