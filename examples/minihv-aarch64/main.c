/* SPDX-License-Identifier: MIT */
/*
 * minihv: boots at EL2 on QEMU virt, finds everything in the device tree
 * (console, RAM, CPUs, GIC, PCIe host bridge), starts the other CPUs with
 * PSCI, brings the GIC up through libvirq, and measures interrupt delivery to
 * EL1 guests: GICv4 direct injection vs. the emulated (list register) path,
 * for CPU-written events and for a real PCI device's MSIs, doorbells,
 * remapping, several vCPUs at once, and a vCPU migrating between CPUs under
 * load. Exit status (semihosting) 0 only if every check holds.
 */
#include "boot.h"
#include "minihv.h"
#include "minihv_hal.h"
#include "scenarios.h"

/* QEMU places the DTB at the start of RAM for a bare-metal ELF (virt docs). */
#define DTB_ADDR 0x40000000ull

static struct boot_info boot_;

void minihv_main(void);
void minihv_main(void)
{
	uint64_t img_end = (uint64_t)(uintptr_t)__image_end, pool, pool_end;
	const void *fdt = (const void *)(uintptr_t)DTB_ADDR;
	int rc;

	/* This CPU's context first: the console lock and every handler use it. */
	write_sysreg(TPIDR_EL2, (uint64_t)(uintptr_t)&cpus[0]);
	if (boot_discover(DTB_ADDR, (size_t)((uint64_t)(uintptr_t)__image_start - DTB_ADDR),
			  &boot_) != 0)
		semihost_exit(2);
	con_printf("\nminihv: EL%lu, counter %lu Hz, RAM 0x%lx + 0x%lx, console 0x%lx\n",
		   read_sysreg(CurrentEL) >> 2, read_sysreg(CNTFRQ_EL0), boot_.ram_base,
		   boot_.ram_size, boot_.uart);
	hyp_timer_intid = boot_.hyp_timer_intid;
	rc = smp_discover(fdt);
	if (rc < 0)
		semihost_exit(2);
	if (rc < 2) {
		con_printf("minihv: %d CPU in the device tree; the SMP demo needs at least 2 "
			   "(run QEMU with -smp 2 or more)\n",
			   rc);
		semihost_exit(8);
	}
	pool = (img_end + 0x1fffffu) & ~0x1fffffull;
	pool_end = boot_.ram_base + boot_.ram_size;
	if (pool_end <= pool + 0x1000000u)
		minihv_panic("less than 16 MiB of RAM after the image");
	minihv_pool_init(pool, pool_end - pool);
	rc = run_scenarios(fdt, &boot_.gic);
	semihost_exit((uint32_t)rc);
}
