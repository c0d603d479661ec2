/* SPDX-License-Identifier: MIT */
/*
 * The example caller of libvirq inside Xen: a boot-time self-test that
 * validates the HAL (ports/xen/hal.c), round-trips an ITS command through the
 * GICv4 encoders (arm64) or probes AVIC and PMC-virtualization support through
 * CPUID (x86_64), checks the physical-address MMIO windows on ordinary
 * memory, and prints one line each. It touches no device: the GIC, ITS and
 * IOMMU stay Xen's. Link it with LIBVIRQ_XEN_EXAMPLE=y (the default).
 */
#include <xen/init.h>
#include <xen/lib.h>

#include <virq_xen.h>
#ifdef LIBVIRQ_HAVE_GICV4
#include <libvirq/gicv4.h>
#endif
#ifdef LIBVIRQ_HAVE_AVIC
#include <libvirq/avic.h>
#endif
#ifdef LIBVIRQ_HAVE_PMCVIRT
#include <libvirq/pmcvirt.h>
#endif

static int __init cf_check virq_xen_example_init(void)
{
	const struct virq_hal hal = {&virq_xen_hal_ops, NULL};
	virq_status st = virq_hal_validate(&hal, LIBVIRQ_XEN_HAL_NEEDS);

	if (st != LIBVIRQ_OK) {
		printk(XENLOG_ERR "libvirq: HAL incomplete: %s\n", virq_strerror(st));
		return 0;
	}
	{
		/* Physical MMIO through a window (virq_xen.h): ordinary memory
		 * stands in for a device frame at "physical" 0x1000. */
		static uint32_t frame[4] = {0, 0x4c495645U, 0, 0};
		static struct virq_xen_mmio_map map;
		const struct virq_hal phys = {&virq_xen_hal_ops, &map};
		bool ok =
		    virq_xen_mmio_map_add(&map, 0x1000, sizeof(frame), (void __iomem *)frame) == 0;

		ok = ok && (phys.ops->mmio_read32)(phys.ctx, 0x1004) == 0x4c495645U;
		(phys.ops->mmio_write32)(phys.ctx, 0x1008, 0x600d);
		ok = ok && frame[2] == 0x600d;
		/* Outside the window: logged, all-ones, nothing written. */
		printk(XENLOG_INFO "libvirq: MMIO windows: one access outside them follows\n");
		ok = ok && (phys.ops->mmio_read32)(phys.ctx, 0x1010) == ~0U;
		printk(XENLOG_INFO "libvirq: MMIO windows: %s\n", ok ? "ok" : "FAILED");
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
		printk(XENLOG_INFO "libvirq: ITS MAPTI round trip: %s\n", virq_strerror(st));
	}
#endif
#ifdef LIBVIRQ_HAVE_AVIC
	{
		struct virq_avic_caps caps;

		st = virq_avic_caps_probe(&hal, &caps);
		printk(XENLOG_INFO "libvirq: AVIC probe: %s (avic %d, x2avic %d)\n",
		       virq_strerror(st), st == LIBVIRQ_OK && caps.avic,
		       st == LIBVIRQ_OK && caps.x2avic);
	}
#endif
#ifdef LIBVIRQ_HAVE_PMCVIRT
	{
		struct virq_pmcvirt_caps caps;

		st = virq_pmcvirt_probe(&hal, &caps);
		printk(XENLOG_INFO "libvirq: PMC probe: %s (PerfCtrVirt %d)\n", virq_strerror(st),
		       st == LIBVIRQ_OK && caps.perfctr_virt);
	}
#endif
	printk(XENLOG_INFO "libvirq %u.%u.%u linked\n", virq_version() >> 16,
	       (virq_version() >> 8) & 0xffU, virq_version() & 0xffU);
	return 0;
}
__initcall(virq_xen_example_init);
