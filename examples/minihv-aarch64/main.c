/* SPDX-License-Identifier: MIT */
/*
 * minihv: boots at EL2 on QEMU virt, finds everything in the device tree,
 * brings up the GIC through libvirq, and measures interrupt delivery to an
 * EL1 guest: GICv4 direct injection vs. the emulated (list register) path,
 * doorbells, and remapping. Exit status (semihosting) 0 only if every
 * interrupt arrived exactly once with the expected vINTID and the direct
 * path needed no EL2 entry.
 */
#include "boot.h"
#include "minihv.h"
#include "minihv_hal.h"
#include "scenarios.h"

#include <libvirq/histogram.h>

/* QEMU places the DTB at the start of RAM for a bare-metal ELF (virt docs). */
#define DTB_ADDR 0x40000000ull

struct shared g_shared;
static struct boot_info boot_;

static void el2_setup_(void)
{
	/* EL1 may read the counters; the virtual counter equals the physical one. */
	write_sysreg(CNTHCTL_EL2, read_sysreg(CNTHCTL_EL2) | 3u);
	write_sysreg(CNTVOFF_EL2, 0);
	/* EL1: MMU and caches off, RES1 bits set (Arm ARM D17.2.118). */
	write_sysreg(SCTLR_EL1, 0x30d00800u);
	/* HCR_EL2: RW (EL1 is AArch64), AMO|IMO|FMO: physical interrupts to EL2,
	 * and the guest's ICC_* accesses go to the virtual CPU interface. */
	write_sysreg(HCR_EL2, (1ull << 31) | (1u << 5) | (1u << 4) | (1u << 3));
	isb();
}

static void harness_check_(void)
{
	uint64_t before = el2_counts.total;

	memset(&g_shared, 0, sizeof(g_shared));
	g_shared.n = 0;
	enter_guest((uint64_t)(uintptr_t)guest_main, (uint64_t)(uintptr_t)&g_shared,
		    (uint64_t)(uintptr_t)__guest_stack_top);
	if (g_shared.fault_kind || el2_counts.total - before != 1) {
		con_printf("minihv: guest harness check failed (fault vector %lu ESR 0x%lx "
			   "ELR 0x%lx, %lu EL2 entries)\n", g_shared.fault_kind,
			   g_shared.fault_esr, g_shared.fault_elr, el2_counts.total - before);
		semihost_exit(3);
	}
}

void minihv_main(void);
void minihv_main(void)
{
	uint64_t img_end = (uint64_t)(uintptr_t)__image_end, pool, pool_end;
	int rc;

	if (boot_discover(DTB_ADDR, (size_t)((uint64_t)(uintptr_t)__image_start - DTB_ADDR),
			  &boot_) != 0)
		semihost_exit(2);
	con_printf("\nminihv: EL%lu, counter %lu Hz, RAM 0x%lx + 0x%lx, console 0x%lx\n",
		   read_sysreg(CurrentEL) >> 2, read_sysreg(CNTFRQ_EL0), boot_.ram_base,
		   boot_.ram_size, boot_.uart);
	pool = (img_end + 0x1fffffu) & ~0x1fffffull;
	pool_end = boot_.ram_base + boot_.ram_size;
	if (pool_end <= pool + 0x1000000u)
		minihv_panic("less than 16 MiB of RAM after the image");
	minihv_pool_init(pool, pool_end - pool);
	el2_setup_();
	harness_check_();
	rc = run_scenarios(&boot_.gic);
	semihost_exit((uint32_t)rc);
}
