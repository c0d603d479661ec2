/* SPDX-License-Identifier: MIT */
/*
 * The EL1 guest. It is the "device" too: it triggers each event by writing
 * the EventID to the ITS's GITS_TRANSLATER (a CPU write arrives with
 * DeviceID 0 on QEMU), timestamps the write and the handler with CNTVCT
 * (CNTVOFF_EL2 = 0, so the same timebase as EL2's CNTPCT), and acknowledges
 * with ICC_IAR1_EL1 / ICC_EOIR1_EL1, which HCR_EL2.IMO makes virtual.
 *
 * Runs at EL1 with the MMU off: everything is Device memory, so the build uses
 * -mstrict-align. It only reads and writes g_shared and GITS_TRANSLATER.
 */
#include "minihv.h"

static struct shared *sh_;
static volatile uint32_t cur_sample_ = 0xffffffffu;
static volatile uint64_t cur_ts_;
/*
 * After this many missing interrupts in one scenario the rest are awaited only
 * for the silent window: a badly broken run still ends well inside QEMU's time
 * limit and prints its FAIL lines (1000 misses x 1 s would not).
 */
#define MISS_BUDGET 8u
static uint32_t misses_;

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

void guest_irq(void)
{
	uint64_t t = cntvct_();
	uint32_t intid = (uint32_t)read_sysreg(ICC_IAR1_EL1) & 0xffffffu;
	uint32_t s = cur_sample_;

	if (intid >= 1020 && intid <= 1023)
		return; /* spurious: no EOI for the special INTIDs 1020..1023 only;
			 * every LPI (8192 and up) is EOId, or the running priority
			 * never drops and later vLPIs stay pending */
	sh_->irqs++;
	sh_->last_intid = intid;
	sh_->last_ts = t;
	if (s < sh_->n) {
		if (sh_->got[s] == 1023) {
			sh_->got[s] = intid;
			sh_->latency[s] = t - cur_ts_;
		} else {
			sh_->dup[s]++;
		}
	} else {
		sh_->unexpected++;
	}
	/* Every LPI (>= 8192) is EOIed, else the running priority never drops. */
	write_sysreg(ICC_EOIR1_EL1, intid);
	isb();
}

void guest_fault(uint64_t kind, uint64_t esr, uint64_t elr)
{
	if (sh_) {
		sh_->fault_kind = kind;
		sh_->fault_esr = esr;
		sh_->fault_elr = elr;
	}
	for (;;)
		hvc_(GUEST_REQ_DONE, 0);
}

static void one_sample_(uint32_t i)
{
	volatile uint32_t *tr = (volatile uint32_t *)(uintptr_t)sh_->translater;
	uint64_t deadline;

	sh_->got[i] = 1023;
	sh_->latency[i] = ~0ull;
	sh_->dup[i] = 0;
	if (sh_->hvc_before)
		hvc_(GUEST_REQ_HOOK, i);
	cur_sample_ = i;
	cur_ts_ = cntvct_();
	*tr = sh_->event[i];
	dsb(sy);
	/*
	 * Wait for the interrupt (generous: QEMU's vCPU thread may be preempted by
	 * a busy host), or, when none is expected, the whole silent window.
	 */
	deadline = cur_ts_ + (sh_->expect[i] && misses_ < MISS_BUDGET ? sh_->timeout_ticks
								   : sh_->silent_ticks);
	while (cntvct_() < deadline) {
		if (sh_->expect[i] && sh_->got[i] != 1023)
			break;
	}
	if (sh_->expect[i] && sh_->got[i] == 1023)
		misses_++;
	/* A grace period catches a duplicate delivery (a later one counts as unexpected). */
	deadline = cntvct_() + sh_->grace_ticks;
	while (cntvct_() < deadline)
		;
	cur_sample_ = 0xffffffffu;
}

void guest_main(struct shared *sh)
{
	sh_ = sh;
	misses_ = 0;
	write_sysreg(VBAR_EL1, (uint64_t)(uintptr_t)guest_vectors);
	isb();
	write_sysreg(ICC_PMR_EL1, 0xff);
	write_sysreg(ICC_IGRPEN1_EL1, 1);
	isb();
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* IRQs on */
	for (uint32_t i = 0; i < sh->n; i++)
		one_sample_(i);
	__asm__ volatile("msr daifset, #2" ::: "memory");
	hvc_(GUEST_REQ_DONE, 0);
	for (;;)
		;
}
