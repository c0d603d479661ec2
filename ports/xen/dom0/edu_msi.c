// SPDX-License-Identifier: GPL-2.0-only
/*
 * edu_msi: raise N MSIs from QEMU's "edu" PCI device (1234:11e8), time each
 * one from the doorbell write to the interrupt handler, and check that each
 * was handled on the CPU its affinity names while that affinity moves.
 *
 * edu sends one MSI for every 32-bit write to BAR0 + 0x60 while MSI is
 * enabled (QEMU docs/specs/edu.txt); the MSI is a bus-master write, so bus
 * mastering must be on.
 *
 * The sending loop runs on CPU loop_cpu (work_on_cpu()). The IRQ's affinity
 * is set explicitly (irq_set_affinity(): under a GICv3 ITS each change that
 * moves it is a MOVI), in three phases:
 *   fixed   (N - 1) / 2 MSIs, the IRQ on t1, the first other CPU;
 *   moving  the next N - 1 - (N - 1) / 2 in `moves` chunks, the IRQ
 *           alternating between t2 (a second other CPU, else loop_cpu) and
 *           t1;
 *   masked  the last MSI, raised while the IRQ is masked (disable_irq(), not
 *           lazy: an INV), which must not arrive until enable_irq() (INV).
 * delivered counts all N; the latencies are of the first N - 1. With mask=0
 * the masked phase is left out and N MSIs are timed (N / 2 fixed).
 * Prints one line per phase and a summary:
 *   EDU-MSI: n=N delivered=D lost=L wrong_cpu=W moves=M masked_ok=0|1 ...
 * wrong_cpu counts MSIs handled on another CPU than the affinity set; moves
 * counts affinity changes that moved the IRQ (each checked afterwards).
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/delay.h>
#include <linux/workqueue.h>

#define EDU_RAISE 0x60
#define EDU_ACK 0x64

static unsigned int n = 1000;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "number of MSIs to raise (at least 2)");

static unsigned int timeout_us = 50000;
module_param(timeout_us, uint, 0444);
MODULE_PARM_DESC(timeout_us, "per-MSI wait before it counts as lost");

static int loop_cpu;
module_param(loop_cpu, int, 0444);
MODULE_PARM_DESC(loop_cpu, "the CPU the sending loop runs on");

static unsigned int moves = 10;
module_param(moves, uint, 0444);
MODULE_PARM_DESC(moves, "affinity changes in the moving phase");

static bool mask = true;
module_param(mask, bool, 0444);
MODULE_PARM_DESC(mask,
		 "raise the last MSI while the IRQ is masked (0: all N timed, no masked phase)");

static void __iomem *bar;
static int handler_cpu = -1;
static u64 *lat;
static u64 t_sent;
static unsigned int seq_sent;
static unsigned int seq_got;
static atomic_t irqs = ATOMIC_INIT(0);
static u64 t_got;

/* Results, written by the loop only. */
static unsigned int seq, got, lost, run_lost, wrong_cpu, moved, delivered_masked;

static irqreturn_t edu_irq(int irq, void *dev)
{
	t_got = ktime_get_ns();
	handler_cpu = smp_processor_id();
	writel(1, bar + EDU_ACK);
	atomic_inc(&irqs);
	/* Publish the timestamp and CPU before the sequence number. */
	smp_store_release(&seq_got, READ_ONCE(seq_sent));
	return IRQ_HANDLED;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int effective_cpu(int irq)
{
	return cpumask_first(irq_data_get_effective_affinity_mask(irq_get_irq_data(irq)));
}

/* The IRQ's affinity to @cpu, checked; counts a move when it changed. */
static int set_target(int irq, int cpu)
{
	int before = effective_cpu(irq), ret;

	ret = irq_set_affinity(irq, cpumask_of(cpu));
	if (ret) {
		pr_err("EDU-MSI: irq_set_affinity(%d): %d\n", cpu, ret);
		return ret;
	}
	if (effective_cpu(irq) != cpu) {
		pr_err("EDU-MSI: affinity CPU%d, effective CPU%d\n", cpu, effective_cpu(irq));
		return -EIO;
	}
	if (before != cpu)
		moved++;
	return 0;
}

/* @count MSIs, each expected on CPU @want; returns how many were handled
 * there. Stops early after 10 lost in a row (the rest count as lost). */
static unsigned int raise_msis(unsigned int count, int want)
{
	unsigned int i, on_target = 0;

	preempt_disable();
	for (i = 0; i < count; i++) {
		u64 deadline;

		WRITE_ONCE(seq_sent, ++seq);
		t_sent = ktime_get_ns();
		deadline = t_sent + (u64)timeout_us * 1000;
		writel(1, bar + EDU_RAISE);
		while (smp_load_acquire(&seq_got) != seq && ktime_get_ns() < deadline)
			cpu_relax();
		if (smp_load_acquire(&seq_got) == seq) {
			lat[got++] = t_got - t_sent;
			run_lost = 0;
			if (READ_ONCE(handler_cpu) == want)
				on_target++;
			else
				wrong_cpu++;
		} else {
			lost++;
			if (++run_lost >= 10) {
				lost += count - i - 1;
				break;
			}
		}
	}
	preempt_enable();
	return on_target;
}

/* One MSI while masked: held until unmasked, then delivered. */
static bool masked_msi(int irq)
{
	u64 deadline;
	bool held;

	irq_set_status_flags(irq, IRQ_DISABLE_UNLAZY);
	disable_irq(irq);
	WRITE_ONCE(seq_sent, ++seq);
	writel(1, bar + EDU_RAISE);
	msleep(20);
	held = smp_load_acquire(&seq_got) != seq;
	enable_irq(irq);
	irq_clear_status_flags(irq, IRQ_DISABLE_UNLAZY);
	deadline = ktime_get_ns() + (u64)timeout_us * 1000;
	while (smp_load_acquire(&seq_got) != seq && ktime_get_ns() < deadline)
		usleep_range(50, 100);
	pr_info("EDU-MSI: phase=masked held=%d delivered=%d\n", held,
		smp_load_acquire(&seq_got) == seq);
	return held && smp_load_acquire(&seq_got) == seq;
}

static long edu_run(void *arg)
{
	int irq = (long)arg, t1, t2, cpu, ret;
	unsigned int n_timed = mask ? n - 1 : n, n_fixed = n_timed / 2, per, k, on;
	bool masked_ok = false;

	t1 = cpumask_any_but(cpu_online_mask, loop_cpu);
	if (t1 >= nr_cpu_ids)
		t1 = loop_cpu;
	t2 = loop_cpu;
	for_each_online_cpu(cpu) if (cpu != loop_cpu && cpu != t1)
	{
		t2 = cpu;
		break;
	}
	pr_info("EDU-MSI: id %08x irq %d, raising %u MSIs from CPU%d, IRQ on CPU%d and CPU%d\n",
		readl(bar), irq, n, smp_processor_id(), t1, t2);

	ret = set_target(irq, t1);
	if (ret)
		return ret;
	on = raise_msis(n_fixed, t1);
	pr_info("EDU-MSI: phase=fixed n=%u target=%d on_target=%u\n", n_fixed, t1, on);

	per = (n_timed - n_fixed + moves - 1) / moves;
	for (k = 0, on = 0; k < moves && n_fixed + k * per < n_timed; k++) {
		int want = k % 2 ? t1 : t2;

		ret = set_target(irq, want);
		if (ret)
			return ret;
		on += raise_msis(min(per, n_timed - n_fixed - k * per), want);
	}
	pr_info("EDU-MSI: phase=moving n=%u targets=%d,%d moves=%u on_target=%u\n",
		n_timed - n_fixed, t2, t1, k, on);

	if (mask) {
		masked_ok = masked_msi(irq);
		if (smp_load_acquire(&seq_got) == seq)
			delivered_masked = 1;
		else
			lost++;
	}

	if (got) {
		sort(lat, got, sizeof(*lat), cmp_u64, NULL);
		pr_info(
		    "EDU-MSI: n=%u delivered=%u lost=%u wrong_cpu=%u moves=%u masked_ok=%s irqs=%d "
		    "min_ns=%llu median_ns=%llu max_ns=%llu loop_cpu=%d irq_cpus=%d,%d\n",
		    n, got + delivered_masked, lost, wrong_cpu, moved,
		    !mask	? "skipped"
		    : masked_ok ? "1"
				: "0",
		    atomic_read(&irqs), lat[0], lat[got / 2], lat[got - 1], smp_processor_id(), t1,
		    t2);
	} else {
		pr_info("EDU-MSI: n=%u delivered=%u lost=%u irqs=%d\n", n, delivered_masked, lost,
			atomic_read(&irqs));
	}
	return 0;
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int irq, ret;

	if (n < 2 || !moves || loop_cpu < 0 || loop_cpu >= nr_cpu_ids || !cpu_online(loop_cpu))
		return -EINVAL;
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
	lat = kcalloc(n + 1, sizeof(*lat), GFP_KERNEL);
	if (!lat) {
		ret = -ENOMEM;
		goto free_irq;
	}
	/* The loop on loop_cpu, preemptible between phases. */
	ret = work_on_cpu(loop_cpu, edu_run, (void *)(long)irq);
	if (ret)
		pr_err("EDU-MSI: run failed (%d)\n", ret);
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

static const struct pci_device_id edu_ids[] = {{PCI_DEVICE(0x1234, 0x11e8)}, {}};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_driver = {
    .name = "edu_msi",
    .id_table = edu_ids,
    .probe = edu_probe,
    .remove = edu_remove,
};
module_pci_driver(edu_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Time MSIs from QEMU's edu device while their affinity moves");
