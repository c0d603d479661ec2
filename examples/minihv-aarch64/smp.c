/* SPDX-License-Identifier: MIT */
/*
 * Secondary CPUs, started with PSCI CPU_ON as the device tree's psci node
 * says; per-CPU EL2 set-up; work hand-off and wake-up (SGI 0); a lock that
 * needs no atomics.
 *
 * With the MMU off every access is Device-nGnRnE. Load/store-exclusive and
 * the LSE atomics are not architecturally guaranteed to work on Device
 * memory (Arm ARM B2.9: whether the global monitor supports it is
 * IMPLEMENTATION DEFINED), so minihv uses none: every shared word has one
 * writer, published with DSB SY (which completes the store before any later
 * access), and mutual exclusion uses Lamport's bakery algorithm, which needs
 * only single-copy-atomic loads and stores in program order (L. Lamport, "A
 * New Solution of Dijkstra's Concurrent Programming Problem", CACM 17(8),
 * 1974).
 */
#include "minihv.h"

#include <libfdt.h>
#include <string.h>

struct percpu cpus[MAX_CPUS];
uint32_t nr_cpus;

_Static_assert(offsetof(struct percpu, host_ctx) == 0, "start.S: host_ctx at 0");
_Static_assert(offsetof(struct percpu, stack_top) == 104, "start.S: PC_STACK_TOP");

#define CPU_STACK 0x4000u
static struct {
	uint8_t b[CPU_STACK] __attribute__((aligned(16)));
} cpu_stacks[MAX_CPUS];

/* PSCI (Arm DEN 0022): CPU_ON for SMC64; the 0.1 binding names it in the node. */
#define PSCI_0_2_CPU_ON_64 0xC4000003u
#define PSCI_SUCCESS 0
#define PSCI_ALREADY_ON -4

static uint64_t smc_(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;

	__asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::"memory");
	return x0;
}

/* ---------------- bakery lock ---------------- */

void bakery_lock(struct bakery *b)
{
	uint32_t me = this_cpu()->idx, max = 0;

	b->choosing[me] = 1;
	dsb(sy);
	for (uint32_t j = 0; j < nr_cpus; j++)
		if (b->number[j] > max)
			max = b->number[j];
	b->number[me] = max + 1;
	dsb(sy);
	b->choosing[me] = 0;
	dsb(sy);
	for (uint32_t j = 0; j < nr_cpus; j++) {
		if (j == me)
			continue;
		while (b->choosing[j])
			cpu_relax();
		for (;;) {
			uint32_t nj = b->number[j];

			if (!nj || nj > b->number[me] || (nj == b->number[me] && j > me))
				break;
			cpu_relax();
		}
	}
	dsb(sy);
}

void bakery_unlock(struct bakery *b)
{
	dsb(sy);
	b->number[this_cpu()->idx] = 0;
	dsb(sy);
}

/* ---------------- per-CPU EL2 set-up ---------------- */

void cpu_el2_init(void)
{
	/* EL1 may read the counters; the virtual counter equals the physical one on
	 * every CPU (CNTVOFF_EL2 = 0), so timestamps compare across CPUs. */
	write_sysreg(CNTHCTL_EL2, read_sysreg(CNTHCTL_EL2) | 3u);
	write_sysreg(CNTVOFF_EL2, 0);
	/* HCR_EL2: RW (EL1 is AArch64), AMO|IMO|FMO: physical interrupts to EL2,
	 * and the guest's ICC_* accesses go to the virtual CPU interface. */
	write_sysreg(HCR_EL2, (1ull << 31) | (1u << 5) | (1u << 4) | (1u << 3));
	/* EL2 CPU interface: SRE | Enable, all priorities, Group 1 on. */
	write_sysreg(ICC_SRE_EL2, read_sysreg(ICC_SRE_EL2) | 0x9u);
	isb();
	write_sysreg(ICC_PMR_EL1, 0xff);
	write_sysreg(ICC_IGRPEN1_EL1, 1);
	/* Virtual CPU interface on: ICH_HCR_EL2.En (IHI 0069H §12.4: with En = 0 no
	 * virtual interrupt is signalled); each vCPU brings its own ICH_VMCR_EL2. */
	write_sysreg(ICH_HCR_EL2, 1);
	isb();
}

uint32_t hyp_timer_intid;

/*
 * SGI 0 (minihv's kick) and the EL2 physical timer's PPI on one
 * redistributor: Group 1, enabled (GICR_IGROUPR0, GICR_IPRIORITYR<n>,
 * GICR_ISENABLER0 in the SGI_base frame, RD_base + 64 KiB; IHI 0069H §12.11).
 * They only wake a CPU from WFI: EL2 runs with IRQs masked and acknowledges
 * what is pending by polling (el2_poll_irqs()).
 */
void rd_ppi_enable(uint64_t rd_base, uint32_t timer)
{
	volatile uint32_t *sgi = (volatile uint32_t *)(uintptr_t)(rd_base + 0x10000);
	uint32_t bits = 1u | 1u << timer;

	sgi[0x0080 / 4] |= bits;			  /* GICR_IGROUPR0: Group 1 */
	((volatile uint8_t *)sgi)[0x0400] = 0x80;	  /* GICR_IPRIORITYR: SGI 0 */
	((volatile uint8_t *)sgi)[0x0400 + timer] = 0x80; /* ... and the timer */
	sgi[0x0100 / 4] = bits;				  /* GICR_ISENABLER0 */
	dsb(sy);
}

/*
 * Sleeps up to @ticks in WFI: the EL2 physical timer (CNTHP_*, Arm ARM
 * D11.2) is armed to wake the CPU; any other interrupt pending for this CPU
 * (a kick, a doorbell) ends the sleep earlier. Disabling the timer after
 * deasserts its level-sensitive PPI, so nothing is left to acknowledge.
 * A sleeping QEMU vCPU thread gives its host CPU to the others.
 */
void el2_sleep(uint64_t ticks)
{
	write_sysreg(CNTHP_CVAL_EL2, cntpct() + ticks);
	write_sysreg(CNTHP_CTL_EL2, 1); /* ENABLE, IMASK = 0 */
	isb();
	__asm__ volatile("wfi" ::: "memory");
	write_sysreg(CNTHP_CTL_EL2, 0);
	isb();
}

/* ICC_SGI1R_EL1 (IHI 0069H §12.2.22): SGI 0 to one CPU by affinity (RS = Aff0 / 16). */
void cpu_kick(uint32_t cpu)
{
	uint64_t m = cpus[cpu].mpidr;
	uint64_t v = ((m >> 32) & 0xff) << 48 | ((m & 0xff) >> 4) << 44 | ((m >> 16) & 0xff) << 32 |
		     ((m >> 8) & 0xff) << 16 | (1ull << (m & 0xf));

	dsb(sy);
	write_sysreg(ICC_SGI1R_EL1, v);
	isb();
}

/* Acknowledges everything pending for this CPU at EL2 and dispatches it. */
void el2_poll_irqs(void)
{
	struct percpu *p = this_cpu();

	for (uint32_t n = 0; n < 64; n++) {
		uint32_t intid = (uint32_t)read_sysreg(ICC_IAR1_EL1) & 0xffffffu;

		if (intid >= 1020 && intid <= 1023)
			return;
		irq_dispatch(p, intid);
	}
}

/*
 * Waits in WFI until *@word == @value. WFI wakes on a pending interrupt even
 * with PSTATE.I masked; cpu_kick() sends one after the writer's DSB.
 */
void cpu_park_until(volatile uint32_t *word, uint32_t value)
{
	for (;;) {
		dsb(sy);
		if (*word == value)
			return;
		__asm__ volatile("wfi" ::: "memory");
		el2_poll_irqs();
	}
}

/* ---------------- work hand-off ---------------- */

void cpu_run_on(uint32_t cpu, void (*fn)(struct percpu *p, void *arg), void *arg)
{
	struct percpu *p = &cpus[cpu];

	p->cmd_fn = fn;
	p->cmd_arg = arg;
	dsb(sy);
	p->cmd_seq++;
	cpu_kick(cpu);
}

void cpu_wait_done(uint32_t cpu)
{
	struct percpu *p = &cpus[cpu];

	while (p->done_seq != p->cmd_seq) {
		dsb(sy);
		cpu_relax();
	}
	dsb(sy);
}

void secondary_main(struct percpu *p);
void secondary_main(struct percpu *p)
{
	uint32_t seen = 0;

	cpu_el2_init();
	p->online = 1;
	dsb(sy);
	for (;;) {
		cpu_park_until(&p->cmd_seq, seen + 1);
		seen = p->cmd_seq;
		p->cmd_fn(p, p->cmd_arg);
		dsb(sy);
		p->done_seq = seen;
		dsb(sy);
	}
}

/* ---------------- boot ---------------- */

static uint64_t cells_(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n * 4; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t mpidr_aff_(void)
{
	return read_sysreg(MPIDR_EL1) & 0xff00ffffffull;
}

/*
 * Finds the CPUs in /cpus (reg = MPIDR affinity; the boot CPU must be the
 * first). Returns their number, or -1 with a message.
 */
int smp_discover(const void *fdt)
{
	int cpus_node = fdt_path_offset(fdt, "/cpus"), ac, len = 0, node;
	const uint8_t *prop;
	uint32_t n = 0;

	if (cpus_node < 0) {
		con_puts("minihv: no /cpus node in the device tree\n");
		return -1;
	}
	ac = fdt_address_cells(fdt, cpus_node);
	if (ac < 1 || ac > 2) {
		con_puts("minihv: /cpus #address-cells is not 1 or 2\n");
		return -1;
	}
	fdt_for_each_subnode(node, fdt, cpus_node)
	{
		const char *type = fdt_getprop(fdt, node, "device_type", NULL);

		if (!type || strcmp(type, "cpu"))
			continue;
		prop = fdt_getprop(fdt, node, "reg", &len);
		if (!prop || len < ac * 4)
			continue;
		if (n == MAX_CPUS) {
			con_printf("minihv: more than %u CPUs; using the first %u\n", MAX_CPUS,
				   MAX_CPUS);
			break;
		}
		cpus[n].idx = n;
		cpus[n].mpidr = cells_(prop, ac) & 0xff00ffffffull;
		cpus[n].stack_top = (uint64_t)(uintptr_t)(cpu_stacks[n].b + CPU_STACK);
		n++;
	}
	if (!n || cpus[0].mpidr != mpidr_aff_()) {
		con_printf("minihv: the boot CPU (MPIDR 0x%lx) is not the first in /cpus\n",
			   mpidr_aff_());
		return -1;
	}
	cpus[0].online = 1;
	nr_cpus = n;
	return (int)n;
}

/*
 * Checks the psci node (method "smc": at EL2 an HVC would trap to minihv
 * itself) and starts every other CPU with CPU_ON(target, secondary_entry,
 * context = &cpus[i]); waits (bounded) until each is online. 0 or -1.
 */
int smp_start(const void *fdt)
{
	int psci, len = 0;
	const char *method;
	const uint8_t *prop;
	uint32_t fn = PSCI_0_2_CPU_ON_64;

	if (nr_cpus < 2)
		return 0;
	psci = fdt_node_offset_by_compatible(fdt, -1, "arm,psci-0.2");
	if (psci < 0)
		psci = fdt_node_offset_by_compatible(fdt, -1, "arm,psci");
	if (psci < 0) {
		con_puts("minihv: no psci node: cannot start the other CPUs\n");
		return -1;
	}
	method = fdt_getprop(fdt, psci, "method", NULL);
	if (!method || strcmp(method, "smc")) {
		con_printf("minihv: PSCI method \"%s\": only \"smc\" reaches firmware from EL2\n",
			   method ? method : "(none)");
		return -1;
	}
	if (fdt_node_check_compatible(fdt, psci, "arm,psci-0.2") != 0) {
		prop = fdt_getprop(fdt, psci, "cpu_on", &len); /* PSCI 0.1 binding */
		if (!prop || len != 4) {
			con_puts("minihv: PSCI 0.1 node without cpu_on\n");
			return -1;
		}
		fn = (uint32_t)cells_(prop, 1);
	}
	for (uint32_t i = 1; i < nr_cpus; i++) {
		int64_t r;
		uint64_t t0;

		dsb(sy);
		r = (int64_t)smc_(fn, cpus[i].mpidr, (uint64_t)(uintptr_t)secondary_entry,
				  (uint64_t)(uintptr_t)&cpus[i]);
		if (r != PSCI_SUCCESS) {
			con_printf("minihv: PSCI CPU_ON(0x%lx) returned %ld%s\n", cpus[i].mpidr, r,
				   r == PSCI_ALREADY_ON ? " (ALREADY_ON: not started by minihv)"
							: "");
			return -1;
		}
		t0 = cntpct();
		while (!cpus[i].online) {
			dsb(sy);
			if (cntpct() - t0 > 10 * read_sysreg(CNTFRQ_EL0)) {
				con_printf("minihv: CPU %u (MPIDR 0x%lx) did not come up in 10 s\n",
					   i, cpus[i].mpidr);
				return -1;
			}
		}
	}
	return 0;
}
