// SPDX-License-Identifier: GPL-2.0-only
/*
 * edu_msi: raise N MSIs from QEMU's "edu" PCI device (1234:11e8), count
 * each as on time, late or lost, check that each was handled exactly once
 * and on the CPU its affinity names while that affinity moves, then check
 * that an event dom0 unmapped (DISCARD) stays unmapped even after dom0
 * scribbled over its own ITT entry for it.
 *
 * edu sends one MSI for every 32-bit write to BAR0 + 0x60 while MSI is
 * enabled (QEMU docs/specs/edu.txt); the MSI is a bus-master write, so bus
 * mastering must be on.
 *
 * Timing: an MSI is "late" when it arrives after late_us, "lost" when it
 * has not arrived after lost_ms (a generous bound: seconds). The loop waits
 * for each MSI up to the bound before raising the next, so a late MSI never
 * coalesces with the next one. Every handler call is counted (irqs); a
 * call for an MSI already handled is a duplicate.
 *
 * The sending loop runs on CPU loop_cpu (work_on_cpu()). The IRQ's affinity
 * is set explicitly (irq_set_affinity(): under a GICv3 ITS each change that
 * moves it is a MOVI), in phases:
 *   fixed   (N - 1) / 2 MSIs, the IRQ on t1, the first other CPU;
 *   moving  the next N - 1 - (N - 1) / 2 in `moves` chunks, the IRQ
 *           alternating between t2 (a second other CPU, else loop_cpu) and
 *           t1;
 *   masked  the last MSI, raised while the IRQ is masked (disable_irq(), not
 *           lazy: an INV), which must not arrive until enable_irq() (INV);
 *   itt     (itt=1, not counted in N) free_irq() (DISCARD), request_irq()
 *           (MAPTI) and one MSI; then dom0's ITT entry for the event is
 *           overwritten with garbage, free_irq() again (DISCARD), one MSI is
 *           raised while nothing is mapped (it must not arrive, neither then
 *           nor replayed by the next request_irq()), request_irq() (MAPTI)
 *           and one MSI, which must arrive exactly once. The ITT entry is
 *           found the way the emulated ITS lays it out: GITS_BASER<n> of
 *           type Devices (8-byte entries: ITT address [51:8]), then 8 bytes
 *           per event (vLPI, collection).
 * Prints one line per phase and a summary:
 *   EDU-MSI: n=N delivered=D lost=L late=T dup=U irqs=I wrong_cpu=W ...
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/delay.h>
#include <linux/workqueue.h>

#define EDU_RAISE 0x60
#define EDU_ACK 0x64
#define GITS_BASER(n) (0x100 + 8 * (n))

static unsigned int n = 1000;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "number of MSIs to raise (at least 2)");

static unsigned int late_us = 50000;
module_param(late_us, uint, 0444);
MODULE_PARM_DESC(late_us, "an MSI arriving after this is counted as late");

static unsigned int lost_ms = 5000;
module_param(lost_ms, uint, 0444);
MODULE_PARM_DESC(lost_ms, "an MSI not arrived after this is counted as lost");

static int loop_cpu;
module_param(loop_cpu, int, 0444);
MODULE_PARM_DESC(loop_cpu, "the CPU the sending loop runs on");

static unsigned int moves = 10;
module_param(moves, uint, 0444);
MODULE_PARM_DESC(moves, "affinity changes in the moving phase");

static bool itt = true;
module_param(itt, bool, 0444);
MODULE_PARM_DESC(itt, "check that a DISCARD holds after dom0 scribbled its ITT");

static void __iomem *bar;
static int handler_cpu = -1;
static u64 *lat;
static u64 t_sent;
static unsigned int seq_sent;
static unsigned int seq_got;
static atomic_t irqs = ATOMIC_INIT(0);
static atomic_t dups = ATOMIC_INIT(0);
static u64 t_got;

/* Results, written by the loop only. */
static unsigned int seq, got, lost, late, run_lost, wrong_cpu, moved, delivered_masked;

static irqreturn_t edu_irq(int irq, void *dev)
{
	unsigned int s = READ_ONCE(seq_sent);

	t_got = ktime_get_ns();
	handler_cpu = smp_processor_id();
	writel(1, bar + EDU_ACK);
	atomic_inc(&irqs);
	if (READ_ONCE(seq_got) == s)
		atomic_inc(&dups);
	/* Publish the timestamp and CPU before the sequence number. */
	smp_store_release(&seq_got, s);
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

/*
 * Waits for MSI @s until @deadline (ns); true when it arrived. @sleep: sleep
 * between checks (preemptible) instead of spinning.
 */
static bool wait_until(unsigned int s, u64 deadline, bool sleep)
{
	while (smp_load_acquire(&seq_got) != s && ktime_get_ns() < deadline) {
		if (sleep)
			usleep_range(50, 100);
		else
			cpu_relax();
	}
	return smp_load_acquire(&seq_got) == s;
}

static u64 late_ns(void)
{
	return (u64)late_us * NSEC_PER_USEC;
}

static u64 lost_ns(void)
{
	return (u64)lost_ms * NSEC_PER_MSEC;
}

/* @count MSIs, each expected on CPU @want; returns how many were handled
 * there. Stops after 3 lost in a row (the rest count as lost). */
static unsigned int raise_msis(unsigned int count, int want)
{
	unsigned int i, on_target = 0;

	for (i = 0; i < count; i++) {
		bool ok;

		WRITE_ONCE(seq_sent, ++seq);
		/* Spin through the on-time window, then wait preemptibly. */
		preempt_disable();
		t_sent = ktime_get_ns();
		writel(1, bar + EDU_RAISE);
		ok = wait_until(seq, t_sent + late_ns(), false);
		preempt_enable();
		if (!ok)
			ok = wait_until(seq, t_sent + lost_ns(), true);
		if (!ok) {
			lost++;
			if (++run_lost >= 3) {
				lost += count - i - 1;
				break;
			}
			continue;
		}
		run_lost = 0;
		lat[got++] = t_got - t_sent;
		if (t_got - t_sent > late_ns())
			late++;
		if (READ_ONCE(handler_cpu) == want)
			on_target++;
		else
			wrong_cpu++;
	}
	return on_target;
}

/* One MSI while masked: held until unmasked, then delivered. */
static bool masked_msi(int irq)
{
	bool held, ok;
	u64 t;

	irq_set_status_flags(irq, IRQ_DISABLE_UNLAZY);
	disable_irq(irq);
	WRITE_ONCE(seq_sent, ++seq);
	writel(1, bar + EDU_RAISE);
	msleep(20);
	held = smp_load_acquire(&seq_got) != seq;
	t = ktime_get_ns();
	enable_irq(irq);
	irq_clear_status_flags(irq, IRQ_DISABLE_UNLAZY);
	ok = wait_until(seq, t + lost_ns(), true);
	if (ok && t_got - t > late_ns())
		late++;
	pr_info("EDU-MSI: phase=masked held=%d delivered=%d\n", held, ok);
	if (ok)
		delivered_masked = 1;
	else
		lost++;
	return held && ok;
}

/* ---------------- the ITT phase ---------------- */

/* The LPI INTID Linux's ITS driver gave @irq (the innermost irq_data). */
static unsigned long lpi_of(int irq)
{
	struct irq_data *d = irq_get_irq_data(irq);

	while (d && d->parent_data)
		d = d->parent_data;
	return d ? d->hwirq : 0;
}

/* Physical address of the emulated ITS's ITT entry of (@devid, @event). */
static phys_addr_t itte_pa(u32 devid, u32 event)
{
	struct device_node *np = of_find_compatible_node(NULL, NULL, "arm,gic-v3-its");
	phys_addr_t pa = 0;
	void __iomem *its;
	struct resource r;
	int i;

	if (!np || of_address_to_resource(np, 0, &r))
		goto out;
	its = ioremap(r.start, SZ_64K);
	if (!its)
		goto out;
	for (i = 0; i < 8 && !pa; i++) {
		u64 baser = readq(its + GITS_BASER(i));
		u64 *dte;

		if (((baser >> 56) & 7) != 1 || !(baser >> 63))
			continue;
		dte = memremap((baser & GENMASK_ULL(47, 12)) + devid * 8ull, 8, MEMREMAP_WB);
		if (!dte)
			continue;
		if (READ_ONCE(*dte) & GENMASK_ULL(51, 8))
			pa = (READ_ONCE(*dte) & GENMASK_ULL(51, 8)) + event * 8ull;
		memunmap(dte);
	}
	iounmap(its);
out:
	of_node_put(np);
	return pa;
}

/* Raises one MSI and waits for it; true when it arrived exactly once. */
static bool one_msi(void)
{
	int before = atomic_read(&irqs);
	bool ok;

	WRITE_ONCE(seq_sent, ++seq);
	writel(1, bar + EDU_RAISE);
	ok = wait_until(seq, ktime_get_ns() + lost_ns(), true);
	msleep(20);
	return ok && atomic_read(&irqs) == before + 1;
}

static int itt_phase(struct pci_dev *pdev, int irq)
{
	unsigned long lpi = lpi_of(irq);
	bool remap_ok, final_ok;
	phys_addr_t pa;
	u32 *itte;
	int before, stale, ret;

	/* A DISCARD and a MAPTI: the event works again. */
	free_irq(irq, pdev);
	ret = request_irq(irq, edu_irq, 0, "edu_msi", pdev);
	if (ret)
		return ret;
	remap_ok = one_msi();

	pa = itte_pa(pci_dev_id(pdev), 0);
	itte = pa ? memremap(pa, 8, MEMREMAP_WB) : NULL;
	if (!itte || READ_ONCE(itte[0]) != lpi) {
		pr_info("EDU-MSI: phase=itt itte=%s lpi=%lu itt_ok=0\n",
			itte ? "mismatch" : "not found", lpi);
		if (itte)
			memunmap(itte);
		return 0;
	}
	/* Garbage: no such vLPI, no such collection. */
	WRITE_ONCE(itte[0], 0);
	WRITE_ONCE(itte[1], 0xffff);
	memunmap(itte);

	/* The DISCARD must hold: nothing arrives for the unmapped event. */
	free_irq(irq, pdev);
	before = atomic_read(&irqs);
	WRITE_ONCE(seq_sent, ++seq);
	writel(1, bar + EDU_RAISE);
	msleep(200);
	ret = request_irq(irq, edu_irq, 0, "edu_msi", pdev);
	if (ret)
		return ret;
	msleep(200);
	stale = atomic_read(&irqs) - before;
	final_ok = one_msi();
	pr_info("EDU-MSI: phase=itt remap_ok=%d stale=%d final_ok=%d itt_ok=%d\n", remap_ok, stale,
		final_ok, remap_ok && !stale && final_ok);
	return 0;
}

static long edu_run(void *arg)
{
	int irq = (long)arg, t1, t2, cpu, ret;
	unsigned int n_timed = n - 1, n_fixed = n_timed / 2, per, k, on;
	bool masked_ok;

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

	masked_ok = masked_msi(irq);
	msleep(20);

	sort(lat, got, sizeof(*lat), cmp_u64, NULL);
	pr_info("EDU-MSI: n=%u delivered=%u lost=%u late=%u dup=%d irqs=%d wrong_cpu=%u moves=%u "
		"masked_ok=%d min_ns=%llu median_ns=%llu max_ns=%llu loop_cpu=%d irq_cpus=%d,%d\n",
		n, got + delivered_masked, lost, late, atomic_read(&dups), atomic_read(&irqs),
		wrong_cpu, moved, masked_ok, got ? lat[0] : 0, got ? lat[got / 2] : 0,
		got ? lat[got - 1] : 0, smp_processor_id(), t1, t2);
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
	/* The loop on loop_cpu, preemptible between MSIs. */
	ret = work_on_cpu(loop_cpu, edu_run, (void *)(long)irq);
	if (ret)
		pr_err("EDU-MSI: run failed (%d)\n", ret);
	if (!ret && itt) {
		ret = itt_phase(pdev, irq);
		if (ret) {
			pr_err("EDU-MSI: itt phase failed (%d)\n", ret);
			kfree(lat);
			goto free_vec;
		}
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
MODULE_DESCRIPTION("Count MSIs from QEMU's edu device as on time, late or lost; DISCARD vs ITT");
