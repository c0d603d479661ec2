/* SPDX-License-Identifier: MIT */
/*
 * The EL1 guest: one image, any number of vCPUs. Each vCPU keeps its state
 * in its own struct gblock, found through TPIDR_EL1 as a guest OS finds its
 * per-CPU data, so the same code runs on every vCPU and a vCPU can stop on
 * one physical CPU and continue on another.
 *
 * The guest parks in HVC DONE between commands. A command either takes n
 * samples (trigger one interrupt, wait for it, check it) or, under
 * migration, counts every interrupt that arrives against what the senders
 * recorded until EL2 asks it to drain.
 *
 * It triggers interrupts itself: a CPU write of the EventID to the ITS's
 * GITS_TRANSLATER (arrives with DeviceID 0 on QEMU), a write to the edu PCI
 * device's raise register (the device then sends its MSI), or an HVC that
 * asks EL2 to do it. It timestamps with CNTVCT (CNTVOFF_EL2 = 0 on every CPU:
 * the same timebase as EL2's CNTPCT) and acknowledges with ICC_IAR1_EL1 /
 * ICC_EOIR1_EL1, which HCR_EL2.IMO makes virtual.
 *
 * MMU off: everything is Device memory, so the build uses -mstrict-align.
 */
#include "minihv.h"

/*
 * After this many missing interrupts in one command the rest are awaited only
 * for a short window (giveup_ticks): a badly broken run still ends well
 * inside QEMU's time limit and prints its FAIL lines.
 */
#define MISS_BUDGET 3u

static inline struct gblock *me_(void)
{
	return (struct gblock *)(uintptr_t)read_sysreg(TPIDR_EL1);
}

static inline uint64_t cntvct_(void)
{
	isb();
	return read_sysreg(CNTVCT_EL0);
}

static void hvc_(uint64_t req, uint64_t arg)
{
	register uint64_t x0 __asm__("x0") = req;
	register uint64_t x1 __asm__("x1") = arg;

	__asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1)::"memory");
}

static uint32_t sent_total_(const struct mig_ctl *c, uint32_t slot)
{
	uint32_t t = 0;

	for (uint32_t i = 0; i < MAX_CPUS; i++)
		t += c->sent[i][slot];
	return t;
}

static void mig_irq_(struct gblock *g, uint32_t intid, uint64_t t)
{
	struct mig_ctl *c = g->mig;
	uint32_t slot = intid - VINTID0;
	uint64_t d;

	if (intid < VINTID0 || slot >= NR_SLOTS) {
		g->mig_bad++;
		return;
	}
	/* Before recv grows: from then on the sender may send the slot again.
	 * With several interrupts pending, the IRQ taken may have been raised by
	 * an older one than IAR returns: then measure to the acknowledge. */
	if (t < c->sent_ts[slot])
		t = cntvct_();
	d = t - c->sent_ts[slot];
	dsb(sy);
	g->recv[slot]++;
	/* Senders count before they trigger: more received than sent is a duplicate. */
	if (g->recv[slot] > sent_total_(c, slot))
		g->mig_dups++;
	if (g->mig_nlat < MAX_MIG_LAT)
		g->mig_lat[g->mig_nlat++] = d > 0xffffffffu ? 0xffffffffu : (uint32_t)d;
}

void guest_irq(void)
{
	struct gblock *g = me_();
	uint64_t t = cntvct_();
	uint32_t intid = (uint32_t)read_sysreg(ICC_IAR1_EL1) & 0xffffffu;
	uint32_t s = g->cur_sample;

	if (intid >= 1020 && intid <= 1023)
		return; /* spurious: no EOI for the special INTIDs 1020..1023 only;
			 * every LPI (8192 and up) is EOId, or the running priority
			 * never drops and later vLPIs stay pending */
	g->irqs++;
	if (g->mode == GCMD_MIGRATE) {
		mig_irq_(g, intid, t);
	} else if (g->mode == GCMD_SAMPLES && s < g->n) {
		if (g->got[s] == 1023) {
			g->got[s] = intid;
			g->latency[s] = t - g->cur_ts;
		} else {
			g->dup[s]++;
		}
	} else {
		g->unexpected++;
	}
	write_sysreg(ICC_EOIR1_EL1, intid);
	isb();
}

void guest_fault(uint64_t kind, uint64_t esr, uint64_t elr)
{
	struct gblock *g = me_();

	if (g) {
		g->fault_kind = kind;
		g->fault_esr = esr;
		g->fault_elr = elr;
	}
	for (;;)
		hvc_(GUEST_REQ_DONE, 0);
}

static void trigger_(struct gblock *g, uint32_t i)
{
	switch (g->trig) {
	case TRIG_TRANSLATER:
		*(volatile uint32_t *)(uintptr_t)g->translater = g->event[i];
		break;
	case TRIG_EDU:
		/* edu: each 32-bit write to BAR0 + 0x60 raises its MSI once. */
		*(volatile uint32_t *)(uintptr_t)g->edu_raise = 1;
		break;
	case TRIG_HVC:
		hvc_(GUEST_REQ_HOOK, i);
		break;
	default:
		break;
	}
	dsb(sy);
}

static void one_sample_(struct gblock *g, uint32_t i)
{
	uint64_t deadline;

	g->got[i] = 1023;
	g->latency[i] = ~0ull;
	g->dup[i] = 0;
	if (g->hvc_before)
		hvc_(GUEST_REQ_HOOK, i);
	g->cur_sample = i;
	g->cur_ts = cntvct_();
	trigger_(g, i);
	/*
	 * Wait for the interrupt (generous: QEMU's vCPU thread may be preempted by
	 * a busy host), or, when none is expected, the whole silent window.
	 */
	deadline = g->cur_ts + (!g->expect[i]		  ? g->silent_ticks
				: g->misses < MISS_BUDGET ? g->timeout_ticks
							  : g->giveup_ticks);
	/* Counter reads take QEMU's big lock: read it only every 64 polls. */
	for (uint32_t n = 0;; n++) {
		if (g->expect[i] && g->got[i] != 1023)
			break;
		if ((n & 63) == 0 && cntvct_() >= deadline)
			break;
	}
	if (g->expect[i] && g->got[i] == 1023)
		g->misses++;
	/* A grace period catches a duplicate delivery (a later one counts as unexpected). */
	deadline = cntvct_() + g->grace_ticks;
	while (cntvct_() < deadline)
		;
	g->cur_sample = 0xffffffffu;
}

static void samples_(struct gblock *g)
{
	g->misses = 0;
	for (uint32_t i = 0; i < g->n; i++)
		one_sample_(g, i);
}

static bool drained_(struct gblock *g)
{
	for (uint32_t k = 0; k < NR_SLOTS; k++)
		if (g->recv[k] < sent_total_(g->mig, k))
			return false;
	return true;
}

/*
 * Migration: interrupts are counted in the IRQ handler; this loop only
 * watches the control block, idling in WFI between interrupts as a guest
 * OS does (the sender keeps sending until the vCPU has yielded, so an
 * interrupt always comes). The generator writes stop_leg = leg when this
 * leg has had its sends: the vCPU then yields its CPU (EL2 moves it and
 * resumes it on the next CPU, where leg has grown).
 */
static void migrate_(struct gblock *g)
{
	struct mig_ctl *c = g->mig;

	for (;;) {
		dsb(sy);
		if (c->drain) {
			while (!drained_(g) && cntvct_() < c->drain_deadline)
				;
			g->drained = drained_(g);
			return;
		}
		if (c->stop_leg >= MIG_LEG(c->state)) {
			hvc_(GUEST_REQ_YIELD, 0);
			continue;
		}
		__asm__ volatile("wfi" ::: "memory");
	}
}

void guest_main(struct gblock *g)
{
	write_sysreg(TPIDR_EL1, (uint64_t)(uintptr_t)g);
	write_sysreg(VBAR_EL1, (uint64_t)(uintptr_t)guest_vectors);
	isb();
	g->cur_sample = 0xffffffffu;
	write_sysreg(ICC_PMR_EL1, 0xff);
	write_sysreg(ICC_IGRPEN1_EL1, 1);
	isb();
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* IRQs on */
	for (;;) {
		/* Parked: EL2 sets cmd and mode (before any interrupt can arrive) and
		 * resumes it here. */
		hvc_(GUEST_REQ_DONE, 0);
		if (g->cmd == GCMD_SAMPLES)
			samples_(g);
		else if (g->cmd == GCMD_MIGRATE)
			migrate_(g);
		g->mode = GCMD_BOOT;
	}
}
