/* SPDX-License-Identifier: MIT */
/*
 * Migration under load: vCPU 0 (vPE 0) moves around the ring of physical
 * CPUs, one move per leg, while the next CPU keeps sending it interrupts
 * from the edu device (BAR write at EL2 -> MSI), from ITS INT commands and
 * from CPU writes to GITS_TRANSLATER.
 *
 * Roles per leg L: the owner runs vCPU 0; the generator (the next CPU in the
 * ring, which owns leg L + 1) sends. A slot is sent again only after its
 * previous send was received, so the vINTID identifies the send and
 * coalescing cannot hide a loss; senders count before they trigger, so the
 * guest sees a duplicate as "more received than sent". After its sends the
 * generator writes stop_leg = L; the guest yields (HVC); the owner then
 *   1. fires probes while the vPE is resident but not running,
 *   2. makes it non-resident (records PendingLast), or, with doorbells,
 *      marks the vCPU blocked (virq_vpe_wfi_enter + virq_vpe_put),
 *   3. fires probes while it is not resident (with doorbells: a doorbell),
 *   4. virq_vpe_move() to the next CPU's redistributor,
 *   5. acknowledges whatever is pending on its own CPU: a doorbell of vCPU 0
 *      here is stale (the vPE left) and is forwarded,
 *   6. fires probes at the new redistributor (no-doorbell pass),
 *   7. hands over: state = (L + 1, next, next's next) in one store.
 * The generator stops when it sees itself as the owner and says so
 * (gen_stopped), and only then may the next generator start: two CPUs
 * never send the same slot at once. The new owner, if the vCPU was blocked,
 * waits for its wake-up (its doorbell on the new CPU, or a stale one
 * forwarded by the old CPU), then makes the vPE resident and resumes it.
 *
 * The timing-free structure is deliberate: windows are defined by probes the
 * owner fires itself, not by waits, so the result does not depend on how
 * QEMU's threads are scheduled on a loaded host.
 */
#include "hv.h"

#define MIG_MOVES 20u
#define MIG_SENDS_PER_LEG 120u
#define PROBES 4u
#define NR_GEN_SLOTS (SLOT_EDU + 1u) /* slots 0..44 */
/*
 * At most this many of the generator's sends in flight: more only queue up
 * behind QEMU's per-interrupt cost (it rescans the pending table on every
 * change) and turn the latency figures into queueing time.
 */
#define MAX_INFLIGHT 8u
#define SLEEP_TICKS 1250u /* 20 us at 62.5 MHz; any interrupt ends it earlier */

static struct mig_ctl ctl_;
static struct {
	enum scen s;
	bool db;
	struct mig_result *m;
	volatile uint32_t a_blocked; /* written by the owner before the handover */
	volatile uint32_t finished;
	uint32_t probe_next; /* owner only */
} run_;

static uint32_t sent_total_(uint32_t k)
{
	uint32_t t = 0;

	for (uint32_t c = 0; c < MAX_CPUS; c++)
		t += ctl_.sent[c][k];
	return t;
}

static bool outstanding_(uint32_t k)
{
	return vcpus[0].g->recv[k] != sent_total_(k);
}

/* Sends slot @k once (the caller checked it is not outstanding). */
static void fire_(uint32_t me, uint32_t k)
{
	struct mig_result *m = run_.m;

	ctl_.sent[me][k]++;
	ctl_.sent_ts[k] = cntpct();
	dsb(sy);
	if (k == SLOT_EDU) {
		/* The device itself: its MSI carries the edu's DeviceID. */
		*(volatile uint32_t *)(uintptr_t)(hv.edu.bar0 + EDU_RAISE) = 1;
		m->sent_dev++;
	} else if (k >= SLOT_INT0 && k < SLOT_INT0 + SLOT_INT_N) {
		/* Through the command queue, concurrently with the owner's VMOVP
		 * and doorbell clean-up: libvirq takes the ITS lock (hv.h). */
		check(virq_its_int(&hv.dev0, k), "virq_its_int");
		m->sent_int++;
	} else {
		*(volatile uint32_t *)(uintptr_t)hv.translater = k; /* DeviceID 0, event k */
		if (k >= SLOT_PROBE0)
			m->sent_probe++;
		else
			m->sent_tr++;
	}
	dsb(sy);
}

static uint32_t fire_probes_(uint32_t me)
{
	uint32_t fired = 0;

	for (uint32_t j = 0; j < SLOT_PROBE_N && fired < PROBES; j++) {
		uint32_t k = SLOT_PROBE0 + (run_.probe_next + j) % SLOT_PROBE_N;

		if (outstanding_(k))
			continue;
		fire_(me, k);
		fired++;
	}
	run_.probe_next = (run_.probe_next + PROBES) % SLOT_PROBE_N;
	return fired;
}

static void generate_(uint32_t me, uint32_t leg)
{
	uint32_t sends = 0, k = 0;
	bool stopped = false;

	for (;;) {
		uint64_t st;
		uint32_t inflight = 0;
		bool any = false;

		dsb(sy);
		st = ctl_.state;
		if (MIG_OWNER(st) == me || ctl_.done)
			break;
		for (uint32_t j = 0; j < NR_GEN_SLOTS; j++)
			inflight += outstanding_(j);
		for (uint32_t j = 0; j < NR_GEN_SLOTS && inflight < MAX_INFLIGHT; j++) {
			uint32_t s = (k + j) % NR_GEN_SLOTS;

			if (outstanding_(s))
				continue;
			inflight++;
			fire_(me, s);
			any = true;
			if (!stopped && ++sends >= MIG_SENDS_PER_LEG) {
				ctl_.stop_leg = leg;
				dsb(sy);
				stopped = true;
			}
		}
		k = (k + 7) % NR_GEN_SLOTS;
		if (!any) {
			/* Everything in flight: give the host CPU to the receiver. */
			el2_sleep(SLEEP_TICKS);
			el2_poll_irqs();
		}
	}
	ctl_.gen_stopped = leg;
	dsb(sy);
}

/*
 * Waits until @w is set or a deadline: in WFI, which a doorbell or a kick
 * ends; the doorbell handler (el2_poll_irqs -> doorbell_irq) sets the flag.
 */
static bool wait_flag_(volatile uint32_t *w, uint64_t ticks)
{
	uint64_t end = cntpct() + ticks;

	for (;;) {
		el2_poll_irqs();
		dsb(sy);
		if (*w)
			return true;
		if (cntpct() > end)
			return false;
		el2_sleep(SLEEP_TICKS);
	}
}

static void final_(struct percpu *p, uint32_t leg)
{
	struct vcpu *a = &vcpus[0];
	struct mig_result *m = run_.m;
	uint64_t f = read_sysreg(CNTFRQ_EL0), end;
	bool pl = true;

	ctl_.done = 1;
	dsb(sy);
	end = cntpct() + 5 * f;
	while (ctl_.gen_stopped < leg && cntpct() < end) {
		el2_sleep(SLEEP_TICKS);
		dsb(sy);
	}
	if (run_.db)
		check(virq_vpe_wfi_exit(&a->vpe), "virq_vpe_wfi_exit");
	check(virq_vpe_make_resident(&a->vpe, p->rd), "virq_vpe_make_resident");
	ctl_.drain_deadline = cntpct() + 3 * f;
	ctl_.drain = 1;
	dsb(sy);
	if (vcpu_run(a) != EXIT_DONE)
		m->harness_ok = false;
	m->drained = a->g->drained;
	check(virq_vpe_make_nonresident(&a->vpe, false, &pl), "make_nonresident");
	m->final_pl = pl;
	run_.finished = 1;
	dsb(sy);
	for (uint32_t i = 0; i < nr_cpus; i++)
		if (i != p->idx)
			cpu_kick(i);
}

static void own_(struct percpu *p, uint32_t leg)
{
	struct vcpu *a = &vcpus[0];
	struct mig_result *m = run_.m;
	uint32_t me = p->idx, next = (me + 1) % nr_cpus, n1 = 0;
	uint64_t t0, stale0;
	bool pl = false, blocked = false;
	int code;

	p->irq_hook = irq_main;
	p->hvc_hook = NULL;
	if (leg > 1 && run_.a_blocked) {
		/* Blocked: it may run again only once woken (doorbell or forwarded). */
		if (!wait_flag_(&a->wake, 2 * read_sysreg(CNTFRQ_EL0)))
			m->wake_timeouts++;
	}
	a->wake = 0;
	if (a->vpe.flags & LIBVIRQ_VPE_IN_WFI)
		check(virq_vpe_wfi_exit(&a->vpe), "virq_vpe_wfi_exit");
	if (!(a->vpe.flags & LIBVIRQ_VPE_RESIDENT))
		check(virq_vpe_load(&a->vpe, p->rd), "virq_vpe_load");
	if (leg == 1) {
		a->g->cmd = GCMD_MIGRATE;
		a->g->mode = GCMD_MIGRATE;
		dsb(sy);
	}
	code = vcpu_run(a);
	if (code != EXIT_YIELD) {
		con_printf("minihv: CPU %u: vCPU 0 exited with %d in leg %u\n", me, code, leg);
		m->harness_ok = false;
	}
	m->legs++;
	/* 1: resident, not running. */
	if (!run_.db)
		n1 = fire_probes_(me);
	/* 2: descheduled; with doorbells the vCPU blocks unless a vLPI is pending. */
	if (run_.db) {
		check(virq_vpe_wfi_enter(&a->vpe), "virq_vpe_wfi_enter");
		check(virq_vpe_put(&a->vpe, &pl), "virq_vpe_put");
		blocked = !pl;
	} else {
		check(virq_vpe_make_nonresident(&a->vpe, false, &pl), "virq_vpe_make_nonresident");
		if (n1) {
			m->pl_probed++;
			m->pl_set += pl;
		}
	}
	m->desched++;
	/* 3: not resident, still targeted at this CPU's redistributor. */
	fire_probes_(me);
	if (m->moves >= MIG_MOVES) {
		final_(p, leg);
		return;
	}
	/* 4: move. */
	a->moving_to = cpus[next].rd;
	dsb(sy);
	t0 = cntpct();
	check(virq_vpe_move(&a->vpe, cpus[next].rd), "virq_vpe_move");
	virq_hist_record(&m->move_ticks, cntpct() - t0);
	dsb(sy);
	a->moving_to = VCPU_NO_MOVE;
	dsb(sy);
	m->moves++;
	m->blocked += blocked;
	/* 5: anything of vCPU 0 still pending on this (old) CPU is stale. */
	stale0 = p->irq.stale_doorbells;
	el2_poll_irqs();
	m->stale_after_move += p->irq.stale_doorbells - stale0;
	/* 6: at the new redistributor, before it is resident there. */
	if (!run_.db)
		fire_probes_(me);
	/* 7: hand over (one store names the new leg, owner and generator). */
	run_.a_blocked = blocked;
	dsb(sy);
	ctl_.state = MIG_STATE(leg + 1, next, (next + 1) % nr_cpus);
	dsb(sy);
	/* The new owner is the generator that is spinning; the new generator
	 * may be parked in WFI (more than two CPUs). */
	if ((next + 1) % nr_cpus != me)
		cpu_kick((next + 1) % nr_cpus);
}

static void mig_cpu_(struct percpu *p, void *arg)
{
	uint32_t me = p->idx, owned = 0, gened = 0;

	(void)arg;
	p->irq_hook = irq_main;
	for (;;) {
		uint64_t st;
		uint32_t leg;

		dsb(sy);
		if (run_.finished)
			break;
		st = ctl_.state;
		leg = MIG_LEG(st);
		if (MIG_OWNER(st) == me && owned != leg) {
			owned = leg;
			own_(p, leg);
			continue;
		}
		if (MIG_GEN(st) == me && MIG_OWNER(st) != me && gened != leg && !ctl_.done) {
			/* Only after the previous generator stopped. */
			if (ctl_.gen_stopped + 1 < leg) {
				el2_sleep(SLEEP_TICKS);
				continue;
			}
			gened = leg;
			generate_(me, leg);
			continue;
		}
		/* Nothing to do: sleep until kicked (a kick sent earlier is still
		 * pending and ends the WFI at once). */
		__asm__ volatile("wfi" ::: "memory");
		el2_poll_irqs();
	}
}

static uint64_t sum_(size_t off)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < nr_cpus; i++)
		n += *(const uint64_t *)((const uint8_t *)&cpus[i] + off);
	return n;
}

#define SUM(field) sum_(offsetof(struct percpu, field))

/* vCPU 0's vLPIs: DeviceID 0 slots and the edu's event. */
static void set_doorbells_(bool on)
{
	uint64_t c = hv.its.cmds;

	for (uint32_t e = 0; e < NR_SLOTS; e++) {
		if (e >= SLOT_EDU && e < SLOT_PROBE0)
			continue;
		check(virq_vlpi_set_doorbell(&hv.dev0, e, on), "virq_vlpi_set_doorbell");
	}
	check(virq_vlpi_set_doorbell(&hv.edu_dev, EDU_EV_VIRT, on), "virq_vlpi_set_doorbell(edu)");
	cost_add("doorbell on/off, 61 vLPIs (virq_vlpi_set_doorbell)", hv.its.cmds - c);
}

uint64_t mig_state_now(void)
{
	dsb(sy);
	return ctl_.state;
}

void run_migration(enum scen s, struct mig_result *m)
{
	struct vcpu *a = &vcpus[0];
	struct gblock *g = a->g;
	uint32_t owner = cpu_of_rd(a->vpe.rd);
	uint64_t db0 = SUM(irq.doorbells), st0 = SUM(irq.stale_doorbells);
	uint64_t dim0 = SUM(irq.doorbells_in_move);
	uint64_t irq0 = SUM(el2.irq) - SUM(el2.irq_kick), hvc0 = SUM(el2.hvc), cmds0;

	memset(m, 0, sizeof(*m));
	memset(&ctl_, 0, sizeof(ctl_));
	virq_hist_init(&m->move_ticks);
	m->harness_ok = true;
	run_.s = s;
	run_.db = s == SC_MIG_DB;
	run_.m = m;
	run_.a_blocked = 0;
	run_.finished = 0;
	run_.probe_next = 0;
	hv.cur = s;
	set_doorbells_(run_.db);
	for (uint32_t k = 0; k < NR_SLOTS; k++)
		g->recv[k] = 0;
	g->mig_dups = g->mig_bad = g->mig_nlat = 0;
	g->drained = 0;
	g->unexpected = 0;
	g->mig = &ctl_;
	ctl_.state = MIG_STATE(1, owner, (owner + 1) % nr_cpus);
	dsb(sy);
	cmds0 = hv.its.cmds;
	for (uint32_t i = 1; i < nr_cpus; i++)
		cpu_run_on(i, mig_cpu_, NULL);
	mig_cpu_(this_cpu(), NULL);
	for (uint32_t i = 1; i < nr_cpus; i++)
		cpu_wait_done(i);
	for (uint32_t k = 0; k < NR_SLOTS; k++) {
		uint32_t t = sent_total_(k);

		m->sent += t;
		m->received += g->recv[k];
		if (g->recv[k] < t)
			m->missing_slots++;
	}
	m->dups = g->mig_dups;
	m->bad = g->mig_bad + g->unexpected;
	m->doorbells = SUM(irq.doorbells) - db0;
	m->stale_doorbells = SUM(irq.stale_doorbells) - st0;
	m->doorbells_in_move = SUM(irq.doorbells_in_move) - dim0;
	m->el2_irq = SUM(el2.irq) - SUM(el2.irq_kick) - irq0;
	m->el2_hvc = SUM(el2.hvc) - hvc0;
	m->wakes_forwarded = (uint32_t)m->stale_doorbells;
	/* Commands in the pass: the moves' and the generator's INT + VSYNC pairs
	 * (residency calls send none without doorbell masking). */
	m->move_cmds = hv.its.cmds - cmds0 - 2u * m->sent_int;
	virq_hist_init(&m->lat);
	for (uint32_t i = 0; i < g->mig_nlat; i++)
		virq_hist_record(&m->lat, g->mig_lat[i]);
	if (g->fault_kind) {
		con_printf(
		    "minihv: guest fault in migration: vector %lu ESR_EL1 0x%lx ELR_EL1 0x%lx\n",
		    g->fault_kind, g->fault_esr, g->fault_elr);
		semihost_exit(7);
	}
	if (m->moves)
		cost_addn(s == SC_MIG ? "vPE move (virq_vpe_move)"
				      : "vPE move (virq_vpe_move), vCPU blocked",
			  m->move_cmds, m->moves);
}

static const char *name_(enum scen s)
{
	return s == SC_MIG ? "migration" : "migration+doorbell";
}

void mig_report(enum scen s, const struct mig_result *m)
{
	struct virq_hist_summary sm;
	uint64_t per100 = m->received ? (m->el2_irq * 100u + m->received - 1u) / m->received : 0;

	if (virq_hist_summarize(&m->lat, &sm) != LIBVIRQ_OK)
		memset(&sm, 0, sizeof(sm));
	con_printf("%-20s %7u %5lu.%02lu %6lu %6lu %6lu %6lu %6lu %6lu  %s\n", name_(s),
		   m->received, per100 / 100, per100 % 100, sm.min, sm.avg, sm.p50, sm.p99, sm.p999,
		   sm.max, mig_verdict(s, NULL) ? "FAIL" : "ok");
}

static void details_(enum scen s, const struct mig_result *m)
{
	struct virq_hist_summary mv;
	uint64_t per10 = m->moves ? (m->move_cmds * 10 + m->moves / 2) / m->moves : 0;

	if (virq_hist_summarize(&m->move_ticks, &mv) != LIBVIRQ_OK)
		memset(&mv, 0, sizeof(mv));
	con_printf("%s: %u moves around %u CPUs; %u interrupts sent (device %u, INT commands %u, "
		   "CPU writes %u, probes %u), %u received, %u slots short, %u duplicates, %u "
		   "unexpected; %lu yields (HVC), %lu EL2 IRQs\n",
		   name_(s), m->moves, nr_cpus, m->sent, m->sent_dev, m->sent_int, m->sent_tr,
		   m->sent_probe, m->received, m->missing_slots, m->dups, m->bad, m->el2_hvc,
		   m->el2_irq);
	con_printf("  virq_vpe_move: %lu.%lu ITS commands per move, p50 %lu ticks, max %lu; ",
		   per10 / 10, per10 % 10, mv.p50, mv.max);
	if (s == SC_MIG)
		con_printf("PendingLast = 1 at %u of %u deschedulings with probes pending\n",
			   m->pl_set, m->pl_probed);
	else
		con_printf("vCPU blocked at %u of %u moves, woken by its doorbell on the new "
			   "CPU or forwarded: %u forwarded, %u timed out\n",
			   m->blocked, m->moves, m->wakes_forwarded, m->wake_timeouts);
	con_printf("  doorbells: %lu on the vPE's own CPU (%lu of them on the new one while "
		   "virq_vpe_move() ran), %lu stale (the vPE had moved away; "
		   "%lu found on the old CPU right after the move)\n",
		   m->doorbells, m->doorbells_in_move, m->stale_doorbells, m->stale_after_move);
	dsb(sy);
	if (m->stale_doorbells && stale_diag.valid)
		con_printf("  first stale doorbell: vCPU %u's, on CPU %u (RD %u), the vPE's rd %u, "
			   "flags 0x%x, move target %d, leg %u (owner CPU %u, generator CPU %u)\n",
			   stale_diag.vcpu, stale_diag.cpu, stale_diag.cpu_rd, stale_diag.vpe_rd,
			   stale_diag.flags,
			   stale_diag.moving_to == VCPU_NO_MOVE ? -1 : (int)stale_diag.moving_to,
			   MIG_LEG(stale_diag.state), MIG_OWNER(stale_diag.state),
			   MIG_GEN(stale_diag.state));
}

int mig_verdict(enum scen s, const struct mig_result *m)
{
	int rc = 0;
	bool quiet = m == NULL;

	if (!m)
		m = &hv.mig[s == SC_MIG ? 0 : 1];
	if (!quiet)
		details_(s, m);
#define MIG_FAIL(cond, ...)                                                                        \
	do {                                                                                       \
		if (cond) {                                                                        \
			if (!quiet)                                                                \
				con_printf(__VA_ARGS__);                                           \
			rc = 1;                                                                    \
		}                                                                                  \
	} while (0)
	MIG_FAIL(!m->harness_ok, "FAIL %s: the vCPU did not yield/exit as the protocol says\n",
		 name_(s));
	MIG_FAIL(m->moves < MIG_MOVES, "FAIL %s: %u moves (want %u)\n", name_(s), m->moves,
		 MIG_MOVES);
	MIG_FAIL(m->missing_slots || !m->drained,
		 "FAIL %s: %u of %u interrupts missing (%u slots short)\n", name_(s),
		 m->sent - m->received, m->sent, m->missing_slots);
	MIG_FAIL(m->dups || m->bad, "FAIL %s: %u duplicates, %u with an unexpected vINTID\n",
		 name_(s), m->dups, m->bad);
	MIG_FAIL(m->final_pl, "FAIL %s: PendingLast = 1 after everything arrived\n", name_(s));
	MIG_FAIL(m->stale_doorbells,
		 "FAIL %s: %lu stale doorbells (a doorbell left pending on the old redistributor "
		 "after virq_vpe_move(), taken by a CPU the vPE had left)\n",
		 name_(s), m->stale_doorbells);
	MIG_FAIL(m->wake_timeouts, "FAIL %s: %u blocked vCPUs never woke after the move\n",
		 name_(s), m->wake_timeouts);
	MIG_FAIL(s == SC_MIG && m->el2_irq, "FAIL %s: %lu EL2 IRQs without doorbells (want 0)\n",
		 name_(s), m->el2_irq);
	MIG_FAIL(s == SC_MIG && m->pl_set != m->pl_probed,
		 "FAIL %s: PendingLast = 0 at %u deschedulings with vLPIs pending\n", name_(s),
		 m->pl_probed - m->pl_set);
#undef MIG_FAIL
	return rc;
}
