// SPDX-License-Identifier: MIT
/*
 * libvirq's example caller as a Linux module: on load it validates the HAL
 * (hal.c), round-trips an ITS command through the GICv4 encoders and probes
 * AVIC and PMC-virtualization support through CPUID, and logs one line each.
 * It touches no device. Built by ports/linux/Kbuild.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include <virq_linux.h>
#ifdef LIBVIRQ_HAVE_GICV4
#include <libvirq/gicv4.h>
#endif
#ifdef LIBVIRQ_HAVE_AVIC
#include <libvirq/avic.h>
#endif
#ifdef LIBVIRQ_HAVE_PMCVIRT
#include <libvirq/pmcvirt.h>
#endif

static int __init virq_example_init(void)
{
	const struct virq_hal hal = {&virq_linux_hal_ops, NULL};
	virq_status st = virq_hal_validate(&hal, LIBVIRQ_LINUX_HAL_NEEDS);

	if (st != LIBVIRQ_OK) {
		pr_err("libvirq: HAL incomplete: %s\n", virq_strerror(st));
		return -EINVAL;
	}
#ifdef LIBVIRQ_HAVE_GICV4
	{
		struct virq_its_cmd mapti = virq_its_mapti(1, 2, 8192, 3), back;
		uint8_t raw[LIBVIRQ_ITS_CMD_SIZE];

		st = virq_its_cmd_encode(&mapti, NULL, raw, NULL, NULL);
		if (st == LIBVIRQ_OK)
			st = virq_its_cmd_decode(raw, &back);
		if (st == LIBVIRQ_OK && back.pINTID != 8192)
			st = LIBVIRQ_EHW;
		pr_info("libvirq: ITS MAPTI round trip: %s\n", virq_strerror(st));
	}
#endif
#if defined(LIBVIRQ_HAVE_AVIC) && defined(CONFIG_X86)
	{
		struct virq_avic_caps caps;

		st = virq_avic_caps_probe(&hal, &caps);
		pr_info("libvirq: AVIC probe: %s (avic %d, x2avic %d)\n", virq_strerror(st),
			st == LIBVIRQ_OK && caps.avic, st == LIBVIRQ_OK && caps.x2avic);
	}
#endif
#if defined(LIBVIRQ_HAVE_PMCVIRT) && defined(CONFIG_X86)
	{
		struct virq_pmcvirt_caps caps;

		st = virq_pmcvirt_probe(&hal, &caps);
		pr_info("libvirq: PMC probe: %s (PerfCtrVirt %d)\n", virq_strerror(st),
			st == LIBVIRQ_OK && caps.perfctr_virt);
	}
#endif
	pr_info("libvirq %u.%u.%u loaded\n", virq_version() >> 16, (virq_version() >> 8) & 0xffU,
		virq_version() & 0xffU);
	return 0;
}

static void __exit virq_example_exit(void)
{
}

module_init(virq_example_init);
module_exit(virq_example_exit);
MODULE_DESCRIPTION("libvirq example caller");
MODULE_LICENSE("Dual MIT/GPL");
