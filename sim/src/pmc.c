/* SPDX-License-Identifier: MIT */
#include <libvirq/sim/pmc.h>

#include <string.h>

#define M_CTR_MASK 0xFFFFFFFFFFFFull
#define M_EN (1ull << 22)
#define M_GO (1ull << 40)
#define M_HO (1ull << 41)

uint64_t virq_sim_pmc_vmcb_rd(const uint8_t *vmcb, unsigned off)
{
	uint64_t v = 0;

	for (unsigned b = 0; b < 8; b++)
		v |= (uint64_t)vmcb[off + b] << (8 * b);
	return v;
}

void virq_sim_pmc_vmcb_wr(uint8_t *vmcb, unsigned off, uint64_t v)
{
	for (unsigned b = 0; b < 8; b++)
		vmcb[off + b] = (uint8_t)(v >> (8 * b));
}

static uint32_t m_ctl_msr(const struct virq_sim_pmc *m, unsigned i)
{
	return m->ext_core ? 0xC0010200u + 2 * i : 0xC0010000u + i;
}

static uint32_t m_ctr_msr(const struct virq_sim_pmc *m, unsigned i)
{
	return m->ext_core ? 0xC0010201u + 2 * i : 0xC0010004u + i;
}

static virq_status m_sts_wr(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t value)
{
	uint64_t s = virq_sim_msr_get(sim, 0xC0000300u);

	(void)arg;
	s = msr == 0xC0000302u ? (s & ~value) : (s | value);
	virq_sim_msr_set(sim, 0xC0000300u, s);
	return LIBVIRQ_OK;
}

static virq_status m_sts_rd(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t *value)
{
	(void)arg;
	(void)sim;
	(void)msr;
	*value = 0;
	return LIBVIRQ_OK;
}

void virq_sim_pmc_init(struct virq_sim_pmc *m, struct virq_sim *sim, uint8_t *vmcb, uint32_t nctr,
		       bool ext_core, bool v2)
{
	memset(m, 0, sizeof(*m));
	m->sim = sim;
	m->vmcb = vmcb;
	m->nctr = nctr;
	m->ext_core = ext_core;
	m->v2 = v2;
	m->exit_code = 0x72; /* CPUID intercept */
	virq_sim_msr_hook(sim, 0xC0000302u, m_sts_rd, m_sts_wr, m);
	virq_sim_msr_hook(sim, 0xC0000303u, m_sts_rd, m_sts_wr, m);
}

void virq_sim_pmc_guest_wrmsr(struct virq_sim_pmc *m, uint32_t msr, uint64_t val)
{
	if (m->gw_n < 4) {
		m->gw_msr[m->gw_n] = msr;
		m->gw_val[m->gw_n++] = val;
	}
}

/* Counts the events of one run on register values; returns new status bits. */
static uint64_t m_count(const struct virq_sim_pmc *m, const uint64_t *ctl, uint64_t *ctr,
			uint64_t gctl, bool guest_mode)
{
	uint64_t ovf = 0;

	for (unsigned i = 0; i < m->nctr && i < 6; i++) {
		bool hg_ok = guest_mode ? !(ctl[i] & M_HO) || (ctl[i] & M_GO)
					: !(ctl[i] & M_GO) || (ctl[i] & M_HO);

		if (!(ctl[i] & M_EN) || !hg_ok || (m->v2 && !(gctl & (1ull << i))))
			continue;
		if (ctr[i] + m->events[i] > M_CTR_MASK)
			ovf |= 1ull << i;
		ctr[i] = (ctr[i] + m->events[i]) & M_CTR_MASK;
	}
	return ovf;
}

static void m_guest_writes(struct virq_sim_pmc *m)
{
	for (unsigned k = 0; k < m->gw_n; k++)
		virq_sim_msr_set(m->sim, m->gw_msr[k], m->gw_val[k]);
	m->gw_n = 0;
}

static uint64_t m_vmrun_hw(struct virq_sim_pmc *m)
{
	uint64_t ctl[6], ctr[6], gctl, sts, host_sts;

	if (virq_sim_msr_get(m->sim, 0xC0000301u) != 0) {
		m->failed++;
		virq_sim_pmc_vmcb_wr(m->vmcb, 0x70, 0xFFFFFFFFFFFFFFFCull);
		return 0xFFFFFFFFFFFFFFFCull;
	}
	for (unsigned i = 0; i < 6; i++) {
		ctl[i] = virq_sim_pmc_vmcb_rd(m->vmcb, 0x4E0 + 16 * i);
		ctr[i] = virq_sim_pmc_vmcb_rd(m->vmcb, 0x4E8 + 16 * i) & M_CTR_MASK;
	}
	gctl = virq_sim_pmc_vmcb_rd(m->vmcb, 0x5D0) & 0xFFFFFFFFull;
	sts = virq_sim_pmc_vmcb_rd(m->vmcb, 0x5C8);
	host_sts = virq_sim_msr_get(m->sim, 0xC0000300u);
	sts |= m_count(m, ctl, ctr, gctl, true);
	for (unsigned i = 0; i < 6; i++) {
		virq_sim_pmc_vmcb_wr(m->vmcb, 0x4E0 + 16 * i, ctl[i]);
		virq_sim_pmc_vmcb_wr(m->vmcb, 0x4E8 + 16 * i, ctr[i]);
		/* swap type C: host state initialised to reset values */
		virq_sim_msr_set(m->sim, m_ctl_msr(m, i), 0);
		virq_sim_msr_set(m->sim, m_ctr_msr(m, i), 0);
	}
	/* 32-bit store: the upper dword at 0x5D4 is reserved */
	for (unsigned b = 0; b < 4; b++)
		m->vmcb[0x5D0 + b] = (uint8_t)(gctl >> (8 * b));
	virq_sim_pmc_vmcb_wr(m->vmcb, 0x5C8, sts);
	virq_sim_msr_set(m->sim, 0xC0000301u, 0x3F);
	virq_sim_msr_set(m->sim, 0xC0000300u, host_sts); /* type A */
	virq_sim_pmc_vmcb_wr(m->vmcb, 0x70, m->exit_code);
	return m->exit_code;
}

static uint64_t m_vmrun_sw(struct virq_sim_pmc *m)
{
	uint64_t ctl[6] = {0}, ctr[6] = {0}, gctl, sts;

	m_guest_writes(m);
	for (unsigned i = 0; i < m->nctr && i < 6; i++) {
		ctl[i] = virq_sim_msr_get(m->sim, m_ctl_msr(m, i));
		ctr[i] = virq_sim_msr_get(m->sim, m_ctr_msr(m, i));
	}
	gctl = virq_sim_msr_get(m->sim, 0xC0000301u);
	sts = virq_sim_msr_get(m->sim, 0xC0000300u);
	sts |= m_count(m, ctl, ctr, gctl, true);
	for (unsigned i = 0; i < m->nctr && i < 6; i++)
		virq_sim_msr_set(m->sim, m_ctr_msr(m, i), ctr[i]);
	if (m->v2)
		virq_sim_msr_set(m->sim, 0xC0000300u, sts);
	if (m->vmcb)
		virq_sim_pmc_vmcb_wr(m->vmcb, 0x70, m->exit_code);
	return m->exit_code;
}

uint64_t virq_sim_pmc_vmrun(struct virq_sim_pmc *m)
{
	m->vmruns++;
	if (m->vmcb && (virq_sim_pmc_vmcb_rd(m->vmcb, 0xB8) & (1ull << 3))) {
		m->gw_n = 0; /* guest MSR writes land in the VMCB state in HW mode */
		return m_vmrun_hw(m);
	}
	return m_vmrun_sw(m);
}

void virq_sim_pmc_host_run(struct virq_sim_pmc *m)
{
	uint64_t ctl[6] = {0}, ctr[6] = {0}, gctl, sts;

	for (unsigned i = 0; i < m->nctr && i < 6; i++) {
		ctl[i] = virq_sim_msr_get(m->sim, m_ctl_msr(m, i));
		ctr[i] = virq_sim_msr_get(m->sim, m_ctr_msr(m, i));
	}
	gctl = virq_sim_msr_get(m->sim, 0xC0000301u);
	sts = virq_sim_msr_get(m->sim, 0xC0000300u);
	sts |= m_count(m, ctl, ctr, gctl, false);
	for (unsigned i = 0; i < m->nctr && i < 6; i++)
		virq_sim_msr_set(m->sim, m_ctr_msr(m, i), ctr[i]);
	if (m->v2)
		virq_sim_msr_set(m->sim, 0xC0000300u, sts);
}

/* ---- latitude (libvirq/sim/pmc.h virq_sim_pmc_lat) ---- */

#define M_CTL_RSVD (~((1ull << 42) - 1) | (0xFull << 36) | (1ull << 21) | (1ull << 19))

static virq_status m_gp(struct virq_sim_pmc *m, uint32_t msr)
{
	m->gps++;
	m->last_gp_msr = msr;
	return LIBVIRQ_EHW;
}

static virq_status m_absent_rd(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t *value)
{
	(void)sim;
	*value = 0;
	return m_gp(arg, msr);
}

static virq_status m_absent_wr(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t value)
{
	(void)sim;
	(void)value;
	return m_gp(arg, msr);
}

/* A write of a present PERF_CTL (@ctl) or PERF_CTR with reserved bits set. */
static virq_status m_rsvd_wr(void *arg, struct virq_sim *sim, uint32_t msr, uint64_t value)
{
	struct virq_sim_pmc *m = arg;
	bool ctl = msr >= 0xC0010200u ? !(msr & 1) : msr < 0xC0010004u;
	uint64_t rsvd = ctl ? M_CTL_RSVD : ~M_CTR_MASK;
	enum virq_sim_pmc_rsvd how = ctl ? m->lat.ctl_rsvd : m->lat.ctr_rsvd;

	if ((value & rsvd) && how == LIBVIRQ_SIM_PMC_RSVD_GP)
		return m_gp(m, msr);
	if (how == LIBVIRQ_SIM_PMC_RSVD_IGNORE)
		value &= ~rsvd;
	virq_sim_msr_set(sim, msr, value);
	return LIBVIRQ_OK;
}

/* The hooks of counter @i of the K7 (@ext false) or PerfCtrExtCore range. */
static void m_ctr_hooks(struct virq_sim_pmc *m, unsigned i, bool ext)
{
	bool present = i < m->nctr && (ext ? m->ext_core : i < 4);
	uint32_t ctl = ext ? 0xC0010200u + 2 * i : 0xC0010000u + i;
	uint32_t ctr = ext ? 0xC0010201u + 2 * i : 0xC0010004u + i;

	if (!present && m->lat.gp_absent) {
		virq_sim_msr_hook(m->sim, ctl, m_absent_rd, m_absent_wr, m);
		virq_sim_msr_hook(m->sim, ctr, m_absent_rd, m_absent_wr, m);
	} else if (present) {
		virq_sim_msr_hook(m->sim, ctl, NULL, m_rsvd_wr, m);
		virq_sim_msr_hook(m->sim, ctr, NULL, m_rsvd_wr, m);
	}
}

void virq_sim_pmc_set_latitude(struct virq_sim_pmc *m, const struct virq_sim_pmc_lat *lat)
{
	m->lat = *lat;
	for (unsigned i = 0; i < 6; i++)
		m_ctr_hooks(m, i, true);
	for (unsigned i = 0; i < 4; i++)
		m_ctr_hooks(m, i, false);
	for (uint32_t msr = 0xC0000300u; !m->v2 && lat->gp_absent && msr <= 0xC0000303u; msr++)
		virq_sim_msr_hook(m->sim, msr, m_absent_rd, m_absent_wr, m);
}
