// SPDX-License-Identifier: GPL-2.0
/*
 * edu_msi: raise N MSIs from QEMU's "edu" PCI device (1234:11e8) and time
 * each one from the doorbell write to the interrupt handler.
 *
 * edu sends one MSI for every 32-bit write to BAR0 + 0x60 while MSI is
 * enabled (QEMU docs/specs/edu.txt); the MSI is a bus-master write, so bus
 * mastering must be on.  Prints one summary line:
 *   EDU-MSI: n=N delivered=D lost=L min_ns=A median_ns=B max_ns=C
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/delay.h>

#define EDU_RAISE	0x60
#define EDU_ACK		0x64

static unsigned int n = 1000;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "number of MSIs to raise");

static unsigned int timeout_us = 50000;
module_param(timeout_us, uint, 0444);
MODULE_PARM_DESC(timeout_us, "per-MSI wait before it counts as lost");

static int irq_cpu = -1;
module_param(irq_cpu, int, 0444);
MODULE_PARM_DESC(irq_cpu, "-1: keep the IRQ's affinity; -2: the CPU running the loop; -3: another online CPU; >= 0: that CPU");

static void __iomem *bar;
static int handler_cpu = -1;
static u64 *lat;
static u64 t_sent;
static unsigned int seq_sent;
static unsigned int seq_got;
static atomic_t irqs = ATOMIC_INIT(0);
static u64 t_got;

static irqreturn_t edu_irq(int irq, void *dev)
{
	t_got = ktime_get_ns();
	handler_cpu = smp_processor_id();
	writel(1, bar + EDU_ACK);
	atomic_inc(&irqs);
	/* Publish the timestamp before the sequence number it belongs to. */
	smp_store_release(&seq_got, READ_ONCE(seq_sent));
	return IRQ_HANDLED;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	unsigned int i, got = 0, lost = 0, run_lost = 0;
	int irq, ret, loop_cpu, target;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	bar = pcim_iomap(pdev, 0, 0);
	if (!bar)
		return -ENOMEM;
	pci_set_master(pdev);
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0) {
		pr_err("EDU-MSI: no MSI vector (%d)\n", ret);
		return ret;
	}
	irq = pci_irq_vector(pdev, 0);
	ret = request_irq(irq, edu_irq, 0, "edu_msi", pdev);
	if (ret)
		goto free_vec;
	lat = kcalloc(n ? n : 1, sizeof(*lat), GFP_KERNEL);
	if (!lat) {
		ret = -ENOMEM;
		goto free_irq;
	}
	/* The loop stays on one CPU; the IRQ goes where irq_cpu says. */
	loop_cpu = get_cpu();
	target = irq_cpu == -2 ? loop_cpu : irq_cpu;
	if (irq_cpu == -3)
		target = cpumask_any_but(cpu_online_mask, loop_cpu);
	put_cpu();
	if (target >= 0 && target < nr_cpu_ids && cpu_online(target)) {
		ret = irq_set_affinity(irq, cpumask_of(target));
		if (ret)
			pr_warn("EDU-MSI: irq_set_affinity(%d): %d\n", target, ret);
		/* Let the ITS MOVI settle before timing. */
		msleep(10);
	}
	pr_info("EDU-MSI: id %08x irq %d, raising %u MSIs\n",
		readl(bar), irq, n);

	loop_cpu = get_cpu();
	for (i = 0; i < n; i++) {
		u64 deadline;

		WRITE_ONCE(seq_sent, i + 1);
		t_sent = ktime_get_ns();
		deadline = t_sent + (u64)timeout_us * 1000;
		writel(1, bar + EDU_RAISE);
		while (smp_load_acquire(&seq_got) != i + 1 &&
		       ktime_get_ns() < deadline)
			cpu_relax();
		if (smp_load_acquire(&seq_got) == i + 1) {
			lat[got++] = t_got - t_sent;
			run_lost = 0;
		} else {
			lost++;
			if (++run_lost >= 10) {
				lost += n - i - 1;
				break;
			}
		}
	}

	put_cpu();

	if (got) {
		sort(lat, got, sizeof(*lat), cmp_u64, NULL);
		pr_info("EDU-MSI: n=%u delivered=%u lost=%u irqs=%d min_ns=%llu median_ns=%llu max_ns=%llu loop_cpu=%d irq_cpu=%d\n",
			n, got, lost, atomic_read(&irqs), lat[0], lat[got / 2],
			lat[got - 1], loop_cpu, handler_cpu);
	} else {
		pr_info("EDU-MSI: n=%u delivered=0 lost=%u irqs=%d\n", n, lost,
			atomic_read(&irqs));
	}
	kfree(lat);
	ret = 0;
free_irq:
	free_irq(irq, pdev);
free_vec:
	pci_free_irq_vectors(pdev);
	return ret;
}

static void edu_remove(struct pci_dev *pdev)
{
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_driver = {
	.name = "edu_msi",
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};
module_pci_driver(edu_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Time MSIs from QEMU's edu device");
