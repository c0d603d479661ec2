/* SPDX-License-Identifier: MIT */
/*
 * Guest ICR writes resolved by the AVIC hardware model (sim) against
 * the library: for every destination mode and shorthand with 1, 2, 255, 511
 * and 4,096 vCPUs, the model either delivers (IRR + doorbells) or exits; the
 * library's exit handling then completes the IPI. The final IRR set must be
 * the library's resolution, the model's deliveries must agree with it, and
 * every target must have been notified. Also docs/rationale.md#avic-icr-sender-mode,
 * docs/rationale.md#avic-incomplete-ipi-causes and docs/rationale.md#apic-x2apic-logical.
 */
#include "avic_test.h"

struct special {
	uint32_t n;
	uint8_t *hit;
	enum virq_avic_apic_dm mode;
};

static void special_cb(void *arg, struct virq_avic_vcpu *t, enum virq_avic_apic_dm mode,
		       uint8_t vec)
{
	struct special *sp = arg;

	(void)vec;
	sp->n++;
	sp->hit[t->index]++;
	sp->mode = mode;
}

static void mark_cb(void *arg, struct virq_avic_vcpu *t)
{
	uint8_t *m = arg;

	m[t->index]++;
}

static uint32_t host_of(uint32_t i)
{
	return i; /* every vCPU on its own pCPU with APIC ID = index */
}

struct scen {
	struct at_vm *t;
	uint8_t *running;
	uint8_t *lib; /* library resolution */
	uint8_t *special;
	unsigned long *kicks;
	struct virq_sim_avic_doorbells db;
	struct virq_sim_avic_result r;
	uint32_t cases, exits[6];
};

static void scen_init(struct scen *sc, struct at_vm *t)
{
	memset(sc, 0, sizeof(*sc));
	sc->t = t;
	sc->running = calloc(t->n, 1);
	sc->lib = calloc(t->n, 1);
	sc->special = calloc(t->n, 1);
	sc->kicks = calloc(t->n, sizeof(unsigned long));
	for (uint32_t i = 0; i < t->n; i++) {
		at_run(t, i, host_of(i));
		sc->running[i] = 1;
	}
	/* Every third vCPU is scheduled out. */
	for (uint32_t i = 2; i < t->n; i += 3) {
		assert_int_equal(virq_avic_vcpu_put(&t->v[i]), LIBVIRQ_OK);
		sc->running[i] = 0;
	}
	virq_sim_avic_watch_doorbells(t->sim, &sc->db);
}

static void scen_free(struct scen *sc)
{
	free(sc->running);
	free(sc->lib);
	free(sc->special);
	free(sc->kicks);
}

/* One guest ICR write by @sender, checked end to end. */
static void run_icr(struct scen *sc, uint32_t sender, uint32_t lo, uint32_t hi)
{
	struct at_vm *t = sc->t;
	struct virq_avic_vcpu *s = &t->v[sender];
	bool x2 = s->x2apic;
	uint64_t icr = ((uint64_t)hi << 32) | lo;
	struct virq_avic_icr d;
	struct virq_avic_exit_result res;
	struct special sp = {0, sc->special, 0};
	struct virq_avic_deliver_ops ops = {special_cb, &sp};
	uint8_t vec = lo & 0xFF;
	uint32_t dm = (lo >> 8) & 7, n, got = 0;

	sc->cases++;
	for (uint32_t i = 0; i < t->n; i++) {
		virq_sim_avic_irr_clear(virq_avic_vcpu_backing(&t->v[i], NULL), vec);
		sc->kicks[i] = virq_sim_kicks_of(t->sim, t->v[i].cookie);
	}
	memset(sc->lib, 0, t->n);
	memset(sc->special, 0, t->n);
	memset(sc->db.per_host, 0, sizeof(sc->db.per_host));
	assert_int_equal(virq_avic_icr_decode(icr, x2, &d), LIBVIRQ_OK);
	assert_int_equal(virq_avic_resolve(&t->vm, s, &d, mark_cb, sc->lib, &n), LIBVIRQ_OK);

	assert_int_equal(
	    virq_sim_avic_icr_write(t->sim, t->vmcb[sender], host_of(sender), lo, hi, NULL, &sc->r),
	    0);
	if (!sc->r.exited || (sc->r.info2 >> 32) == LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING) {
		/* What the hardware delivered is exactly the library's resolution. */
		uint8_t *m = calloc(t->n, 1);

		if (d.shorthand == LIBVIRQ_APIC_SH_SELF) {
			m[sender] = 1;
		} else {
			for (uint32_t k = 0; k < sc->r.nirr; k++) {
				uint32_t idx = sc->r.irr[k];

				assert_true(idx < t->n); /* APIC ID == index here */
				m[idx]++;
			}
		}
		for (uint32_t i = 0; i < t->n; i++)
			if (m[i] != sc->lib[i])
				fail_msg("ICR %08x:%08x sender %u: model %u lib %u at vCPU %u", hi,
					 lo, sender, m[i], sc->lib[i], i);
		free(m);
	}
	if (sc->r.exited) {
		sc->exits[sc->r.info2 >> 32]++;
		assert_true(sc->r.exit_code == LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI);
		assert_int_equal(
		    virq_avic_handle_incomplete_ipi(s, sc->r.info1, sc->r.info2, &ops, &res),
		    LIBVIRQ_OK);
		assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
	}
	/* Final state. */
	for (uint32_t i = 0; i < t->n; i++) {
		bool fixed = dm == LIBVIRQ_APIC_DM_FIXED || dm == LIBVIRQ_APIC_DM_LOWEST;
		bool want = sc->lib[i] && vec >= 16 && fixed;

		if (fixed) {
			if (at_irr(t, i, vec) != want)
				fail_msg("ICR %08x:%08x sender %u: IRR of vCPU %u is %d, want %d",
					 hi, lo, sender, i, at_irr(t, i, vec), want);
		} else {
			assert_int_equal(sc->special[i], sc->lib[i]);
			if (sp.n)
				assert_int_equal(sp.mode, dm);
		}
		got += sc->lib[i];
		/* Notified: doorbell (hardware or library) if running elsewhere, else kicked. */
		if (sc->lib[i] && i != sender && want) {
			if (sc->running[i]) {
				bool hw = false;

				for (uint32_t k = 0; k < sc->r.ndoorbell; k++)
					hw |= sc->r.doorbell[k] == host_of(i);
				if (!hw && !sc->db.per_host[host_of(i)] &&
				    virq_sim_kicks_of(t->sim, t->v[i].cookie) == sc->kicks[i])
					fail_msg("ICR %08x:%08x: running vCPU %u not notified", hi,
						 lo, i);
			} else if (virq_sim_kicks_of(t->sim, t->v[i].cookie) == sc->kicks[i]) {
				fail_msg("ICR %08x:%08x sender %u: blocked vCPU %u not kicked "
					 "(exit %d %llx)",
					 hi, lo, sender, i, sc->r.exited,
					 (unsigned long long)sc->r.info2);
			}
		}
	}
	assert_int_equal(got, n);
	/* Model doorbells only ever go to running targets. */
	for (uint32_t k = 0; k < sc->r.ndoorbell; k++)
		assert_true(sc->running[sc->r.doorbell[k]]);
	/* BUSY is clear in the sender's ICR afterwards. */
	assert_int_equal(*at_reg(t, sender, 0x300) & (1u << 12), 0);
}

#define ICR(vec, dm, logical, sh)                                                                  \
	((uint32_t)(vec) | ((uint32_t)(dm) << 8) | ((uint32_t)(logical) << 11) | (1u << 14) |      \
	 ((uint32_t)(sh) << 18))

/* Physical, shorthands, broadcasts, lowest priority, NMI, level. */
static void common_cases(struct scen *sc, uint32_t sender)
{
	struct at_vm *t = sc->t;
	bool x2 = t->v[sender].x2apic;
	uint32_t n = t->n;
	uint32_t dests[] = {0, 1, n / 2, n - 1, n, 0xFF, 0x100, 0xFFF, 0x1000};
	uint32_t bcast = x2 ? 0xFFFFFFFFu : 0xFF000000u;

	for (size_t k = 0; k < sizeof(dests) / sizeof(dests[0]); k++) {
		uint32_t d = dests[k];

		if (!x2 && d > 0xFF)
			continue;
		run_icr(sc, sender, ICR(0x40, 0, 0, 0), x2 ? d : d << 24);
	}
	run_icr(sc, sender, ICR(0x41, 0, 0, 1), 0);
	run_icr(sc, sender, ICR(0x42, 0, 0, 2), 0);
	run_icr(sc, sender, ICR(0x43, 0, 0, 3), 0);
	run_icr(sc, sender, ICR(0x44, 0, 0, 0), bcast);
	run_icr(sc, sender, ICR(0x45, 0, 1, 0), bcast);
	/* Lowest priority (not accelerated: INVALID_INT_TYPE, emulated, one target). */
	for (uint32_t i = 0; i < n; i++)
		*at_reg(t, i, 0x80) = ((i * 37u) % 13u) << 4;
	run_icr(sc, sender, ICR(0x46, 1, 0, 0), bcast);
	run_icr(sc, sender, ICR(0x47, 1, 0, 2), 0);
	for (uint32_t i = 0; i < n; i++)
		*at_reg(t, i, 0x80) = 0;
	/* NMI to all but self; INIT and SIPI unicast. */
	run_icr(sc, sender, ICR(0, 4, 0, 3), 0);
	run_icr(sc, sender, ICR(0, 5, 0, 0), x2 ? n - 1 : (n - 1) << 24);
	run_icr(sc, sender, ICR(0x9A, 6, 0, 0), x2 ? n - 1 : (n - 1) << 24);
	/* Level-triggered fixed: emulated, TMR set. */
	run_icr(sc, sender, ICR(0x48, 0, 0, 0) | (1u << 15), x2 ? 0 : 0);
	assert_true(*at_reg(t, 0, 0x180 + 2 * 0x10) & (1u << 8));
}

static void noaccel_write(struct at_vm *t, uint32_t i, uint32_t off, uint32_t val)
{
	struct virq_avic_exit_result res;

	*at_reg(t, i, off) = val; /* the guest's write landed (trap) */
	assert_int_equal(virq_avic_handle_noaccel(&t->v[i], (1ull << 32) | off, 0, NULL, &res),
			 LIBVIRQ_OK);
	assert_true(res.trap && res.write);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
}

static void xapic_logical_cases(struct scen *sc, uint32_t sender)
{
	struct at_vm *t = sc->t;
	uint32_t n = t->n;
	static const uint32_t flat[] = {0x01, 0x02, 0x03, 0x0F, 0x80, 0xC0, 0x7F};
	static const uint32_t cluster[] = {0x01, 0x11, 0x2F, 0x3C, 0xE8, 0xF1, 0x0F};

	/* Flat: vCPU i < 8 has logical ID 1 << i. */
	for (uint32_t i = 0; i < n && i < 8; i++)
		noaccel_write(t, i, 0xD0, (1u << i) << 24);
	for (size_t k = 0; k < sizeof(flat) / sizeof(flat[0]); k++)
		run_icr(sc, sender, ICR(0x50, 0, 1, 0), flat[k] << 24);
	/* Cluster: vCPU i < 60 in cluster i/4, bit i%4. */
	for (uint32_t i = 0; i < n; i++) {
		noaccel_write(t, i, 0xE0, LIBVIRQ_APIC_DFR_CLUSTER);
		if (i < 60)
			noaccel_write(t, i, 0xD0, (((i / 4) << 4) | (1u << (i % 4))) << 24);
		else
			noaccel_write(t, i, 0xD0, 0);
	}
	for (size_t k = 0; k < sizeof(cluster) / sizeof(cluster[0]); k++)
		run_icr(sc, sender, ICR(0x51, 0, 1, 0), cluster[k] << 24);
	/* Back to flat with no IDs. */
	for (uint32_t i = 0; i < n; i++) {
		noaccel_write(t, i, 0xD0, 0);
		noaccel_write(t, i, 0xE0, LIBVIRQ_APIC_DFR_FLAT);
	}
}

static void x2_logical_cases(struct scen *sc, uint32_t sender)
{
	uint32_t n = sc->t->n, last = n - 1;
	uint32_t dests[] = {0x00000001,
			    0x0000FFFF,
			    0x00010003,
			    (last >> 4) << 16 | 1u << (last & 15),
			    (last >> 4) << 16 | 0xFFFF,
			    0x01000001,
			    0x00FF8000,
			    0x0000FF00};

	for (size_t k = 0; k < sizeof(dests) / sizeof(dests[0]); k++)
		run_icr(sc, sender, ICR(0x52, 0, 1, 0), dests[k]);
}

static uint32_t pick_sender(const struct scen *sc, uint32_t want)
{
	while (!sc->running[want])
		want--;
	return want;
}

static void scenario(enum virq_avic_mode mode, uint32_t n)
{
	struct at_vm t;
	struct scen sc;

	at_vm_new(&t, mode, n);
	scen_init(&sc, &t);
	for (int k = 0; k < 2; k++) {
		uint32_t sender = pick_sender(&sc, k ? n - 1 : 0);

		common_cases(&sc, sender);
		if (mode == LIBVIRQ_AVIC_MODE_XAVIC)
			xapic_logical_cases(&sc, sender);
		else
			x2_logical_cases(&sc, sender);
	}
	/* Every exit kind the scenarios are meant to reach was reached. */
	assert_true(sc.exits[LIBVIRQ_AVIC_IPI_INVALID_INT_TYPE] > 0);
	if (n > 2)
		assert_true(sc.exits[LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING] > 0);
	assert_true(sc.exits[LIBVIRQ_AVIC_IPI_INVALID_TARGET] > 0);
	print_message("mode %d n %u: %u ICR writes, exits type %u notrun %u target %u\n", mode, n,
		      sc.cases, sc.exits[0], sc.exits[1], sc.exits[2]);
	scen_free(&sc);
	at_vm_free(&t);
}

static void n1_xavic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_XAVIC, 1);
}
static void n2_xavic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_XAVIC, 2);
}
static void n255_xavic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_XAVIC, 255);
}
static void n1_x2avic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_X2AVIC, 1);
}
static void n2_x2avic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_X2AVIC, 2);
}
static void n255_x2avic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_X2AVIC, 255);
}
static void n511_x2avic(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_X2AVIC, 511);
}
static void n4096_x2avic_4k(void **s)
{
	(void)s;
	scenario(LIBVIRQ_AVIC_MODE_X2AVIC_4K, 4096);
}

/* docs/rationale.md#avic-icr-sender-mode: mixed modes, destination decoded by the sender's mode
 * only. */
static void mixed_modes_dest_by_sender_mode(void **s)
{
	struct at_vm t;
	struct virq_avic_icr icr;
	uint8_t m[4];
	uint32_t n;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 4);
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: sender xAPIC, target x2APIC; pass 1: the reverse. */
		assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[0], pass == 1), LIBVIRQ_OK);
		assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[3], pass == 0), LIBVIRQ_OK);
		assert_int_equal(
		    virq_avic_icr_decode(pass ? 0x00000003000000F0ull : 0x03000000000000F0ull,
					 pass == 1, &icr),
		    LIBVIRQ_OK);
		assert_int_equal(icr.dest, 3);
		memset(m, 0, sizeof(m));
		assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n),
				 LIBVIRQ_OK);
		assert_int_equal(n, 1);
		assert_int_equal(m[3], 1);
		/* Same result whatever the other targets' modes are. */
		for (uint32_t i = 1; i < 3; i++)
			assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[i], pass == 0), LIBVIRQ_OK);
		memset(m, 0, sizeof(m));
		assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n),
				 LIBVIRQ_OK);
		assert_int_equal(n, 1);
		assert_int_equal(m[3], 1);
	}
	at_vm_free(&t);
}

/* docs/rationale.md#avic-incomplete-ipi-causes: INVALID_TARGET emulates the whole ICR; NOT_RUNNING
 * only wakes. */
static void invalid_target_emulates_not_running_only_wakes(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result res;
	struct virq_sim_avic_result *r = calloc(1, sizeof(*r));
	uint8_t hit[4] = {0};
	struct special sp = {0, hit, 0};
	struct virq_avic_deliver_ops ops = {special_cb, &sp};
	struct virq_avic_vcpu_counters c;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 4);
	for (uint32_t i = 0; i < 4; i++)
		at_run(&t, i, 0x10 + i);
	/* Flat: A = vCPU1 bit 0, B = vCPU2 bit 1, bits 2/3 no entry. */
	assert_int_equal(virq_avic_ldr_write(&t.v[1], 0x01000000u), LIBVIRQ_OK);
	assert_int_equal(virq_avic_ldr_write(&t.v[2], 0x02000000u), LIBVIRQ_OK);
	assert_int_equal(
	    virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x8F0, 0x0F000000, NULL, r), 0);
	assert_true(r->exited);
	assert_true(r->info1 == 0x0F000000000008F0ull);
	assert_true(r->info2 == 0x0000000200000002ull);		  /* cause 2, logical index 2 */
	assert_false(at_irr(&t, 1, 0xF0) || at_irr(&t, 2, 0xF0)); /* hardware gave up */
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], 0x0F000000000008F0ull,
							 0x0000000200000002ull, &ops, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.targets, 2);
	assert_true(at_irr(&t, 1, 0xF0) && at_irr(&t, 2, 0xF0));
	assert_false(at_irr(&t, 0, 0xF0) || at_irr(&t, 3, 0xF0));
	/* BUSY set in the ICR: the full write is emulated, BUSY cleared. */
	*at_reg(&t, 0, 0x300) = 0x18F1;
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], 0x0F000000000018F1ull,
							 0x0000000200000002ull, &ops, &res),
			 LIBVIRQ_OK);
	assert_true(at_irr(&t, 1, 0xF1) && at_irr(&t, 2, 0xF1));
	assert_int_equal(*at_reg(&t, 0, 0x300) & 0x1000, 0);
	/* NOT_RUNNING, physical dest 2, vCPU2 blocked: only a wake, no IRR write. */
	assert_int_equal(virq_avic_vcpu_block(&t.v[2]), LIBVIRQ_OK);
	virq_sim_avic_irr_clear(virq_avic_vcpu_backing(&t.v[2], NULL), 0xF2);
	{
		unsigned long k0 = virq_sim_kicks_of(t.sim, t.v[2].cookie);

		assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], 0x02000000000040F2ull,
								 0x0000000100000002ull, &ops, &res),
				 LIBVIRQ_OK);
		assert_int_equal(res.targets, 1);
		assert_int_equal(virq_sim_kicks_of(t.sim, t.v[2].cookie) - k0, 1);
		assert_false(at_irr(&t, 2, 0xF2));
	}
	/* INVALID_INT_TYPE, all-but-self NMI: NMI on every vCPU but the sender. */
	assert_int_equal(
	    virq_avic_handle_incomplete_ipi(&t.v[0], 0x00000000000C0400ull, 0, &ops, &res),
	    LIBVIRQ_OK);
	assert_int_equal(sp.n, 3);
	assert_int_equal(sp.mode, LIBVIRQ_APIC_DM_NMI);
	assert_true(hit[0] == 0 && hit[1] == 1 && hit[2] == 1 && hit[3] == 1);
	/* Without a delivery callback: ENOTSUP, nothing crashes. */
	assert_int_equal(
	    virq_avic_handle_incomplete_ipi(&t.v[0], 0x00000000000C0400ull, 0, NULL, &res),
	    LIBVIRQ_ENOTSUP);
	/* INVALID_VECTOR quiet; INVALID_BACKING_PAGE and unknown reported. */
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], 0x02000000000040F2ull,
							 0x0000000400000000ull, &ops, &res),
			 LIBVIRQ_OK);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_DONE);
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], 0x02000000000040F2ull,
							 0x0000000300000002ull, &ops, &res),
			 LIBVIRQ_EHW);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_REPORT);
	assert_true(virq_sim_logged(
	    t.sim, "avic: AVIC_INCOMPLETE_IPI INVALID_BACKING_PAGE (index, sender)"));
	assert_int_equal(
	    virq_avic_handle_incomplete_ipi(&t.v[0], 0, 0xFFFFFFFF00000FFFull, &ops, &res),
	    LIBVIRQ_EUNKNOWN);
	assert_int_equal(res.action, LIBVIRQ_AVIC_ACT_REPORT);
	virq_avic_vcpu_counters_get(&t.v[0], &c);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_INVALID_TARGET], 2);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING], 1);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_INVALID_INT_TYPE], 2);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_INVALID_VECTOR], 1);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_INVALID_BACKING_PAGE], 1);
	assert_int_equal(c.incomplete_ipi[LIBVIRQ_AVIC_IPI_UNKNOWN], 1);
	free(r);
	at_vm_free(&t);
}

/* The model's exit information: cause and index as the APM gives them. */
static void model_exit_info(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_result *r = calloc(1, sizeof(*r));
	struct virq_sim_avic_opts o = {.check_vector = true};

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 300);
	at_run(&t, 0, 0x10);
	at_vmcb(&t, 0);
	/* x2APIC physical 0x123, not running -> IRR set, cause 1, index 0x123. */
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x40F1, 0x123, NULL, r),
			 0);
	assert_true(r->exited && r->info1 == 0x00000123000040F1ull &&
		    r->info2 == 0x0000000100000123ull);
	assert_true(at_irr(&t, 0x123, 0xF1));
	/* Beyond the max index (299): INVALID_TARGET with that index, nothing set. */
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x40F2, 0x1F0, NULL, r),
			 0);
	assert_true(r->exited && r->info2 == 0x00000002000001F0ull && r->nirr == 0);
	/* Vector < 16 with a checking CPU: INVALID_VECTOR. */
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x4005, 1, &o, r), 0);
	assert_true(r->exited && (r->info2 >> 32) == LIBVIRQ_AVIC_IPI_INVALID_VECTOR);
	/* Running target: no exit, one doorbell to its host. */
	at_run(&t, 7, 0x77);
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x40F3, 7, NULL, r), 0);
	assert_false(r->exited);
	assert_int_equal(r->ndoorbell, 1);
	assert_int_equal(r->doorbell[0], 0x77);
	/* AVIC off in the VMCB: the model refuses (test setup error). */
	assert_int_equal(virq_avic_vm_inhibit(&t.vm, LIBVIRQ_AVIC_INHIBIT_DISABLED), LIBVIRQ_OK);
	at_vmcb(&t, 0);
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x10, 0x40F3, 7, NULL, r), -1);
	free(r);
	at_vm_free(&t);
}

/* Lowest priority: the lowest TPR wins, ties go to the lowest index. */
static void lowest_priority(void **s)
{
	struct at_vm t;
	struct virq_avic_icr icr;
	uint8_t m[4];
	uint32_t n;
	static const uint32_t tpr[4] = {0x30, 0x10, 0x20, 0x10};

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 4);
	for (uint32_t i = 0; i < 4; i++)
		*at_reg(&t, i, 0x80) = tpr[i];
	assert_int_equal(virq_avic_icr_decode(0xFFFFFFFF00000130ull, true, &icr), LIBVIRQ_OK);
	memset(m, 0, sizeof(m));
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n), LIBVIRQ_OK);
	assert_int_equal(n, 1);
	assert_int_equal(m[1], 1);
	/* Logical cluster 0, bits 0 and 2 only: vCPU 2 (0x20 < 0x30). */
	assert_int_equal(virq_avic_icr_decode(0x0000000500000930ull, true, &icr), LIBVIRQ_OK);
	memset(m, 0, sizeof(m));
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n), LIBVIRQ_OK);
	assert_int_equal(n, 1);
	assert_int_equal(m[2], 1);
	at_vm_free(&t);
}

/* docs/rationale.md#avic-erratum-1235 end to end: ipiv off -> the model exits NOT_RUNNING for a
 * running target. */
static void ipiv_off_running_target_exits_not_running(void **s)
{
	struct at_vm t;
	struct virq_sim_avic_result *r = calloc(1, sizeof(*r));
	struct virq_sim_avic_doorbells db;
	struct virq_avic_exit_result res;

	(void)s;
	at_vm_new_cpu(&t, LIBVIRQ_AVIC_MODE_XAVIC, 2, LIBVIRQ_SIM_CPU_ZEN2);
	virq_sim_avic_watch_doorbells(t.sim, &db);
	at_run(&t, 0, 0x20);
	at_run(&t, 1, 0x21);
	assert_int_equal(
	    virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x20, 0x40F3, 0x01000000, NULL, r), 0);
	assert_true(r->exited);
	assert_int_equal(r->info2 >> 32, LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING);
	assert_true(at_irr(&t, 1, 0xF3));
	assert_int_equal(virq_avic_handle_incomplete_ipi(&t.v[0], r->info1, r->info2, NULL, &res),
			 LIBVIRQ_OK);
	/* The library rings the doorbell with the target's host APIC ID. */
	assert_int_equal(db.n, 1);
	assert_true(db.last == 0x21);
	/* Self-IPI (shorthand 01b) needs no exit. */
	assert_int_equal(virq_sim_avic_icr_write(t.sim, t.vmcb[0], 0x20, 0x440F4, 0, NULL, r), 0);
	assert_false(r->exited);
	assert_true(at_irr(&t, 0, 0xF4));
	free(r);
	at_vm_free(&t);
}

/* docs/rationale.md#apic-x2apic-logical: x2APIC logical matching honours the cluster; 0xFF is not
 * a broadcast. */
static void x2apic_logical_needs_cluster_ff_not_broadcast(void **s)
{
	struct at_vm t;
	struct virq_avic_icr icr;
	uint8_t *m;
	uint32_t n;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, 511);
	m = calloc(511, 1);
	/* LDR 0x00020004 = ID 0x22: MDA 0x00010004 no match, 0x00020006 match, ~0 match. */
	assert_int_equal(*at_reg(&t, 0x22, 0xD0), 0x00020004u);
	assert_int_equal(virq_avic_icr_decode(0x0001000400000800ull, true, &icr), LIBVIRQ_OK);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n), LIBVIRQ_OK);
	assert_int_equal(m[0x22], 0);
	assert_int_equal(m[0x12], 1);
	assert_int_equal(virq_avic_icr_decode(0x0002000600000800ull, true, &icr), LIBVIRQ_OK);
	memset(m, 0, 511);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n), LIBVIRQ_OK);
	assert_int_equal(n, 2);
	assert_true(m[0x21] && m[0x22]);
	assert_int_equal(virq_avic_icr_decode(0xFFFFFFFF00000800ull, true, &icr), LIBVIRQ_OK);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, NULL, NULL, &n), LIBVIRQ_OK);
	assert_int_equal(n, 511);
	/* x2APIC physical 0xFF: only ID 0xFF. */
	assert_int_equal(virq_avic_icr_decode(0x000000FF00000000ull, true, &icr), LIBVIRQ_OK);
	memset(m, 0, 511);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n), LIBVIRQ_OK);
	assert_int_equal(n, 1);
	assert_int_equal(m[0xFF], 1);
	/* xAPIC physical 0xFF: the broadcast for xAPIC-mode vCPUs; an x2APIC-mode vCPU
	 * takes it only as its x2APIC ID 0xFF (KVM kvm_apic_match_physical_addr()). The
	 * alias of that ID with the broadcast inhibits the VM (PHYSICAL_ID_ALIASED). */
	assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[0], false), LIBVIRQ_EINHIBITED);
	assert_int_equal(virq_avic_icr_decode(0xFF00000000000000ull, false, &icr), LIBVIRQ_OK);
	memset(m, 0, 511);
	assert_int_equal(virq_avic_resolve(&t.vm, &t.v[0], &icr, mark_cb, m, &n), LIBVIRQ_OK);
	assert_int_equal(n, 2);
	assert_true(m[0] && m[0xFF]);
	/* LDR derived from the ID, not the index: x2apic_ldr(0x24) = 0x00020010. */
	assert_int_equal(*at_reg(&t, 0x24, 0xD0), 0x00020010u);
	assert_int_equal(*at_reg(&t, 0x124, 0x20), 0x124u); /* x2APIC ID register */
	/* INIT to an x2APIC vCPU does not reset its LDR or APIC ID. */
	{
		uint8_t hit[511] = {0};
		struct special sp = {0, hit, 0};
		struct virq_avic_deliver_ops ops = {special_cb, &sp};
		uint32_t cnt;

		assert_int_equal(virq_avic_vcpu_set_x2apic(&t.v[0], true), LIBVIRQ_OK);
		assert_int_equal(virq_avic_emulate_icr(&t.v[0], 0x0000002400004500ull, &ops, &cnt),
				 LIBVIRQ_OK);
		assert_int_equal(cnt, 1);
		assert_int_equal(hit[0x24], 1);
		assert_int_equal(*at_reg(&t, 0x24, 0xD0), 0x00020010u);
		assert_int_equal(*at_reg(&t, 0x24, 0x20), 0x24u);
		/* A level-triggered INIT de-assert reaches nobody. */
		assert_int_equal(virq_avic_emulate_icr(&t.v[0], 0x0000002400008500ull, &ops, &cnt),
				 LIBVIRQ_OK);
		assert_int_equal(cnt, 0);
	}
	free(m);
	at_vm_free(&t);
}

/* Hostile exit information and guest values never index out of range. */
static void hostile_inputs(void **s)
{
	struct at_vm t;
	struct virq_avic_exit_result res;
	uint64_t x = 0x2545F4914F6CDD1Dull;

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_XAVIC, 3);
	for (uint32_t i = 0; i < 3; i++)
		at_run(&t, i, i);
	for (int k = 0; k < 20000; k++) {
		uint64_t i1, i2;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		i1 = x;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		i2 = x & 0x00000007FFFFFFFFull;
		virq_status st = virq_avic_handle_incomplete_ipi(&t.v[k % 3], i1, i2, NULL, &res);

		assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_ENOTSUP || st == LIBVIRQ_EUNKNOWN ||
			    st == LIBVIRQ_EHW);
		st = virq_avic_handle_noaccel(&t.v[k % 3], i1 & 0x1FFFFFFFFull, i2, NULL, &res);
		assert_true(st == LIBVIRQ_OK || st == LIBVIRQ_EUNKNOWN);
	}
	/* The tables still hold exactly the three vCPUs. */
	for (uint32_t i = 0; i < 255; i++) {
		uint64_t e = ((uint64_t *)t.vm.phys_table.va)[i];

		assert_int_equal(e >> 63, i < 3);
	}
	at_vm_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(n1_xavic),
	    cmocka_unit_test(n2_xavic),
	    cmocka_unit_test(n255_xavic),
	    cmocka_unit_test(n1_x2avic),
	    cmocka_unit_test(n2_x2avic),
	    cmocka_unit_test(n255_x2avic),
	    cmocka_unit_test(n511_x2avic),
	    cmocka_unit_test(n4096_x2avic_4k),
	    cmocka_unit_test(mixed_modes_dest_by_sender_mode),
	    cmocka_unit_test(invalid_target_emulates_not_running_only_wakes),
	    cmocka_unit_test(ipiv_off_running_target_exits_not_running),
	    cmocka_unit_test(x2apic_logical_needs_cluster_ff_not_broadcast),
	    cmocka_unit_test(hostile_inputs),
	    cmocka_unit_test(model_exit_info),
	    cmocka_unit_test(lowest_priority),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
