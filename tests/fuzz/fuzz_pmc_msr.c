/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the PMC MSR mapping and the intercepted-MSR emulation
 * (AMD APM Vol 2 §15.39; docs/pmcvirt.md).
 *
 * Input: host capabilities and a guest model (first bytes), then a list of
 * operations on one vCPU in software- or hardware-switched mode: map, read,
 * write (guest or host origin), RDPMC, a world switch, save/restore, reset.
 * Properties:
 *  - virq_pmcvirt_msr_map() only returns OK, ENOENT or EINVAL; a mapped
 *    event select or counter has idx < guest.ncounters (an index beyond the
 *    guest's count is never aliased: docs/rationale.md#pmc-legacy-msr-index);
 *    a guest MSR access fails
 *    exactly when the mapping fails;
 *  - a guest write that succeeded reads back: event selects as written,
 *    counters modulo 2^48; a refused write changes nothing (a full state
 *    save before and after is identical);
 *  - RDPMC succeeds exactly for ecx < ncounters and agrees with RDMSR;
 *  - an emulated event succeeds exactly for events <= 0xFFF and raises
 *    PMIs only on the guest's counters;
 *  - save_state then restore_state is accepted and changes nothing.
 */
#include <string.h>

#include <libvirq/pmcvirt.h>

#include <libvirq/sim/hal.h>
#include "fuzz_common.h"

static const uint32_t msr_pool_[] = {
    0xC0010000u, 0xC0010001u, 0xC0010002u, 0xC0010003u, 0xC0010004u, 0xC0010005u, 0xC0010006u,
    0xC0010007u, 0xC0010008u, 0xC0010200u, 0xC0010201u, 0xC0010202u, 0xC0010205u, 0xC001020Au,
    0xC001020Bu, 0xC001020Cu, 0xC00101FFu, 0xC0000300u, 0xC0000301u, 0xC0000302u, 0xC0000303u,
    0xC0000304u, 0xC00000E9u, 0xC00000E8u, 0x00000010u, 0xFFFFFFFFu,
};

static uint32_t pick_msr_(struct fuzz_in *in)
{
	uint8_t b = fuzz_u8(in);

	if (b < 2 * (sizeof(msr_pool_) / sizeof(msr_pool_[0])))
		return msr_pool_[b / 2];
	return fuzz_u32(in);
}

static void state_(struct virq_pmcvirt_vcpu *v, struct virq_pmcvirt_state *s)
{
	memset(s, 0, sizeof(*s));
	FUZZ_CHECK(virq_pmcvirt_save_state(v, s) == LIBVIRQ_OK);
}

static void check_map_(const struct virq_pmcvirt_guest *g, uint32_t msr, enum virq_pmcvirt_origin o)
{
	struct virq_pmcvirt_slot slot;
	virq_status st = virq_pmcvirt_msr_map(g, msr, o, &slot);

	FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_ENOENT || st == LIBVIRQ_EINVAL);
	if (st != LIBVIRQ_OK)
		return;
	FUZZ_CHECK(slot.kind <= LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED);
	if (slot.kind == LIBVIRQ_PMCVIRT_KIND_CTL || slot.kind == LIBVIRQ_PMCVIRT_KIND_CTR)
		FUZZ_CHECK(slot.idx < g->ncounters);
	if (slot.kind >= LIBVIRQ_PMCVIRT_KIND_GLOBAL_CTL &&
	    slot.kind <= LIBVIRQ_PMCVIRT_KIND_GLOBAL_STS_SET)
		FUZZ_CHECK(g->perfmon_v2);
	if (slot.kind == LIBVIRQ_PMCVIRT_KIND_INSTR_RETIRED)
		FUZZ_CHECK(g->irperf);
}

static void op_write_(struct virq_pmcvirt_vcpu *v, const struct virq_pmcvirt_guest *g, uint32_t msr,
		      uint64_t val, enum virq_pmcvirt_origin o)
{
	struct virq_pmcvirt_state before, after;
	struct virq_pmcvirt_slot slot;
	virq_status ms = virq_pmcvirt_msr_map(g, msr, o, &slot), st;
	uint64_t back = 0;

	state_(v, &before);
	st = virq_pmcvirt_msr_write(v, msr, o, val);
	if (ms != LIBVIRQ_OK)
		FUZZ_CHECK(st == ms);
	if (st != LIBVIRQ_OK) {
		FUZZ_CHECK(st == LIBVIRQ_EINVAL || st == LIBVIRQ_ENOENT);
		state_(v, &after);
		FUZZ_CHECK(memcmp(&before, &after, sizeof(before)) == 0);
		return;
	}
	if (o != LIBVIRQ_PMCVIRT_GUEST)
		return;
	FUZZ_CHECK(virq_pmcvirt_msr_read(v, msr, o, &back) == LIBVIRQ_OK);
	if (slot.kind == LIBVIRQ_PMCVIRT_KIND_CTL)
		FUZZ_CHECK(back == val);
	if (slot.kind == LIBVIRQ_PMCVIRT_KIND_CTR)
		FUZZ_CHECK(back == (val & LIBVIRQ_PMCVIRT_CTR_MASK));
}

static void op_read_(struct virq_pmcvirt_vcpu *v, const struct virq_pmcvirt_guest *g, uint32_t msr,
		     enum virq_pmcvirt_origin o)
{
	struct virq_pmcvirt_slot slot;
	virq_status ms = virq_pmcvirt_msr_map(g, msr, o, &slot);
	uint64_t val = 0;
	virq_status st = virq_pmcvirt_msr_read(v, msr, o, &val);

	FUZZ_CHECK((ms == LIBVIRQ_OK) == (st == LIBVIRQ_OK));
	if (st == LIBVIRQ_OK && slot.kind == LIBVIRQ_PMCVIRT_KIND_CTR)
		FUZZ_CHECK((val & ~LIBVIRQ_PMCVIRT_CTR_MASK) == 0);
}

static void op_rdpmc_(struct virq_pmcvirt_vcpu *v, const struct virq_pmcvirt_guest *g, uint32_t ecx)
{
	uint64_t val = 0, viamsr = 0;
	virq_status st = virq_pmcvirt_rdpmc(v, ecx, &val);
	uint32_t msr;

	FUZZ_CHECK((st == LIBVIRQ_OK) == (ecx < g->ncounters));
	if (st != LIBVIRQ_OK)
		return;
	msr = g->ext_core ? 0xC0010201u + 2 * ecx : 0xC0010004u + ecx;
	FUZZ_CHECK(virq_pmcvirt_msr_read(v, msr, LIBVIRQ_PMCVIRT_GUEST, &viamsr) == LIBVIRQ_OK);
	FUZZ_CHECK(val == viamsr);
}

static void op_switch_(struct virq_pmcvirt_vcpu *v, uint64_t code)
{
	virq_status st = virq_pmcvirt_enter(v);

	if (st != LIBVIRQ_OK)
		return;
	st = virq_pmcvirt_exit(v, code);
	(void)st;
	/* Whatever the exit code, the vCPU is out of the guest afterwards. */
	FUZZ_CHECK(!v->in_guest);
}

static void op_migrate_(struct virq_pmcvirt_vcpu *v)
{
	struct virq_pmcvirt_state s, s2;

	state_(v, &s);
	FUZZ_CHECK(virq_pmcvirt_restore_state(v, &s) == LIBVIRQ_OK);
	state_(v, &s2);
	FUZZ_CHECK(memcmp(&s, &s2, sizeof(s)) == 0);
}

static void run_ops_(struct fuzz_in *in, struct virq_pmcvirt_vcpu *v,
		     const struct virq_pmcvirt_guest *g)
{
	for (int n = 0; n < 64 && in->n; n++) {
		uint8_t op = fuzz_u8(in);
		enum virq_pmcvirt_origin o =
		    (op & 0x80) ? LIBVIRQ_PMCVIRT_HOST : LIBVIRQ_PMCVIRT_GUEST;
		uint32_t msr;

		switch (op & 7) {
		case 0:
			check_map_(g, pick_msr_(in), o);
			break;
		case 1:
			msr = pick_msr_(in);
			op_read_(v, g, msr, o);
			break;
		case 2:
			msr = pick_msr_(in);
			op_write_(v, g, msr, fuzz_u64(in), o);
			break;
		case 3:
			op_rdpmc_(v, g, fuzz_u8(in) < 200 ? fuzz_u8(in) & 7 : fuzz_u32(in));
			break;
		case 4:
			op_switch_(v, (op & 0x40) ? fuzz_u64(in) : 0x60);
			break;
		case 5:
			op_migrate_(v);
			break;
		case 6:
			FUZZ_CHECK(virq_pmcvirt_vcpu_reset(v) == LIBVIRQ_OK);
			break;
		default: {
			uint32_t mask = 0;
			uint16_t ev = fuzz_u16(in);
			virq_status st =
			    virq_pmcvirt_emulated_event(v, ev, fuzz_u8(in), op & 0x40, &mask);
			FUZZ_CHECK(st == (ev <= 0xFFF ? LIBVIRQ_OK : LIBVIRQ_ERANGE));
			FUZZ_CHECK((mask >> g->ncounters) == 0);
			break;
		}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	uint8_t cb = fuzz_u8(&in), gb = fuzz_u8(&in);
	struct virq_pmcvirt_caps caps = {
	    .svm = true,
	    .perfctr_virt = cb & 1,
	    .vnmi = (cb >> 1) & 1,
	    .avic = (cb >> 2) & 1,
	    .perfctr_ext_core = (cb >> 3) & 1,
	    .perfmon_v2 = (cb >> 4) & 1,
	    .irperf = (cb >> 5) & 1,
	};
	struct virq_pmcvirt_guest g = {
	    .ncounters = gb & 7,
	    .ext_core = (gb >> 3) & 1,
	    .perfmon_v2 = (gb >> 4) & 1,
	    .irperf = (gb >> 5) & 1,
	    .allow_hg = (gb >> 6) & 1,
	};
	enum virq_pmcvirt_mode mode =
	    (cb & 0x80) ? LIBVIRQ_PMCVIRT_MODE_HW : LIBVIRQ_PMCVIRT_MODE_SW;
	static uint8_t vmcb[4096] __attribute__((aligned(4096)));
	struct virq_pmcvirt_vcpu v;
	struct virq_sim *sim;
	struct virq_hal hal;
	virq_status st;

	caps.perfctr_ext_core |= caps.perfmon_v2;
	caps.num_core_ctrs = caps.perfmon_v2 ? 6 : caps.perfctr_ext_core ? 6 : 4;
	if (caps.perfmon_v2 && (cb & 0x40))
		caps.num_core_ctrs = 1 + (gb >> 7) * 4;
	caps.num_core_ctrs_raw = caps.perfmon_v2 ? caps.num_core_ctrs : 0;

	/* Pure mapping first: any guest model, valid or not. */
	st = virq_pmcvirt_guest_check(&g);
	if (st != LIBVIRQ_OK) {
		struct virq_pmcvirt_slot slot;
		virq_status ms =
		    virq_pmcvirt_msr_map(&g, pick_msr_(&in), LIBVIRQ_PMCVIRT_GUEST, &slot);

		FUZZ_CHECK(ms == LIBVIRQ_EINVAL || ms == LIBVIRQ_ENOENT);
		return 0;
	}
	sim = virq_sim_new();
	hal = virq_sim_hal(sim);
	memset(vmcb, 0, sizeof(vmcb));
	st = virq_pmcvirt_vcpu_init(&v, &hal, &caps, &g, mode, 0, vmcb);
	if (st == LIBVIRQ_OK)
		run_ops_(&in, &v, &g);
	virq_sim_free(sim);
	return 0;
}
