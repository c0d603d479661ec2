/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: AVIC exit handlers, ICR emulation and destination
 * resolution on arbitrary exit information, ICR values and guest-controlled
 * backing-page contents (AMD APM Vol 2 §15.29).
 *
 * Input: a VM shape (table mode, 1..64 vCPUs, APIC IDs, APIC modes), then a
 * list of operations: AVIC_INCOMPLETE_IPI and AVIC_NOACCEL exits with raw
 * EXITINFO1/2 (after the "guest" wrote a raw value into the backing page
 * register the exit names), raw ICR emulation, resolution of a raw ICR,
 * posts, load/put/block/unblock, LDR/DFR/APIC ID writes, x2APIC switches.
 * Properties:
 *  - every call returns a documented status; exit results have an action
 *    in range; exit codes other than 0x401/0x402 are counted and refused,
 *    and any number of unknown events logs a bounded number of lines;
 *  - resolve reports each target at most once, only vCPUs of the VM, and
 *    its count equals the callbacks; shorthands self / all / all-but-self
 *    give exactly the sender / every vCPU / every vCPU but the sender;
 *    lowest priority gives at most one target (a physical 0xFF is delivered
 *    as fixed);
 *  - after every operation each vCPU's physical APIC ID table entry is Valid
 *    and points at the vCPU's backing page, IsRunning only while loaded;
 *  - a post of a vector >= 16 leaves IRR[vector] set;
 *  - teardown frees every page (fake HAL page accounting).
 */
#include <stdlib.h>
#include <string.h>

#include <libvirq/avic.h>

#include <libvirq/sim/cpu.h>
#include <libvirq/sim/hal.h>
#include "fuzz_common.h"

#define MAXV 64

struct fz {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_vcpu v[MAXV];
	bool live[MAXV];
	bool loaded[MAXV];
	uint32_t n;
	uint8_t seen[MAXV];
	uint32_t calls;
};

static int idx_of_(struct fz *z, const struct virq_avic_vcpu *t)
{
	for (uint32_t i = 0; i < z->n; i++)
		if (&z->v[i] == t)
			return (int)i;
	return -1;
}

static struct fz *cur_;

static void on_target_(void *arg, struct virq_avic_vcpu *t)
{
	struct fz *z = arg;
	int i = idx_of_(z, t);

	FUZZ_CHECK(i >= 0 && z->live[i]);
	FUZZ_CHECK(z->seen[i] == 0);
	z->seen[i] = 1;
	z->calls++;
}

static void deliver_(void *arg, struct virq_avic_vcpu *t, enum virq_avic_apic_dm mode, uint8_t vec)
{
	(void)arg;
	(void)vec;
	FUZZ_CHECK(idx_of_(cur_, t) >= 0);
	FUZZ_CHECK(mode != LIBVIRQ_APIC_DM_FIXED && mode != LIBVIRQ_APIC_DM_LOWEST);
}

static const struct virq_avic_deliver_ops ops_ = {.deliver = deliver_};

static void check_tables_(struct fz *z)
{
	const uint64_t *phys = z->vm.phys_table.va;

	for (uint32_t i = 0; i < z->n; i++) {
		struct virq_avic_phys_entry f;
		uint64_t pa;

		if (!z->live[i])
			continue;
		(void)virq_avic_vcpu_backing(&z->v[i], &pa);
		FUZZ_CHECK(virq_avic_phys_entry_decode(phys[z->v[i].apic_id], &f) == LIBVIRQ_OK);
		FUZZ_CHECK(f.valid);
		FUZZ_CHECK(f.backing_pa == pa);
		if (f.is_running)
			FUZZ_CHECK(z->loaded[i]);
	}
}

static void op_resolve_(struct fz *z, struct virq_avic_vcpu *s, uint64_t raw)
{
	struct virq_avic_icr icr;
	uint32_t count = 0, live = 0;
	int si = idx_of_(z, s);
	virq_status st;

	FUZZ_CHECK(virq_avic_icr_decode(raw, z->v[si].x2apic, &icr) == LIBVIRQ_OK);
	memset(z->seen, 0, sizeof(z->seen));
	z->calls = 0;
	st = virq_avic_resolve(&z->vm, s, &icr, on_target_, z, &count);
	FUZZ_CHECK(st == LIBVIRQ_OK);
	FUZZ_CHECK(count == z->calls);
	for (uint32_t i = 0; i < z->n; i++)
		live += z->live[i];
	switch (icr.shorthand) {
	case LIBVIRQ_APIC_SH_SELF:
		FUZZ_CHECK(count == 1 && z->seen[si]);
		break;
	case LIBVIRQ_APIC_SH_ALL:
		if (icr.delivery_mode != LIBVIRQ_APIC_DM_LOWEST)
			FUZZ_CHECK(count == live);
		break;
	case LIBVIRQ_APIC_SH_ALL_BUT_SELF:
		if (icr.delivery_mode != LIBVIRQ_APIC_DM_LOWEST)
			FUZZ_CHECK(count == live - 1 && !z->seen[si]);
		break;
	default:
		break;
	}
	/* Lowest priority: one target, except a physical 0xFF, delivered as fixed. */
	if (icr.delivery_mode == LIBVIRQ_APIC_DM_LOWEST && icr.shorthand == LIBVIRQ_APIC_SH_NONE &&
	    (icr.logical || icr.dest != 0xFFu))
		FUZZ_CHECK(count <= 1);
}

static void check_exit_(virq_status st, const struct virq_avic_exit_result *r)
{
	FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EINVAL || st == LIBVIRQ_ENOTSUP ||
		   st == LIBVIRQ_ENOENT || st == LIBVIRQ_EEXIST || st == LIBVIRQ_EINHIBITED ||
		   st == LIBVIRQ_EUNKNOWN || st == LIBVIRQ_EHW);
	if (st == LIBVIRQ_OK)
		FUZZ_CHECK(r->action <= LIBVIRQ_AVIC_ACT_REPORT);
}

static void op_noaccel_(struct fz *z, struct fuzz_in *in, uint32_t i)
{
	uint64_t info1 = fuzz_u64(in), info2 = fuzz_u32(in);
	uint32_t off = (uint32_t)((info1 >> 4) & 0xFF) << 4;
	uint32_t *reg = (uint32_t *)((uint8_t *)virq_avic_vcpu_backing(&z->v[i], NULL) + off);
	struct virq_avic_exit_result r;

	*reg = fuzz_u32(in); /* what the guest wrote */
	if (off == 0x300)
		reg[4] = fuzz_u32(in); /* ICR2 */
	memset(&r, 0, sizeof(r));
	check_exit_(virq_avic_handle_noaccel(&z->v[i], info1, info2, &ops_, &r), &r);
}

static void op_ipi_(struct fz *z, struct fuzz_in *in, uint32_t i)
{
	uint64_t info1 = fuzz_u64(in);
	uint64_t info2 = ((uint64_t)(fuzz_u8(in) % 8) << 32) | fuzz_u16(in);
	struct virq_avic_exit_result r;

	if (fuzz_u8(in) & 1)
		info2 = fuzz_u64(in);
	memset(&r, 0, sizeof(r));
	check_exit_(virq_avic_handle_incomplete_ipi(&z->v[i], info1, info2, &ops_, &r), &r);
}

/* Any exit code through the dispatcher: 0x401/0x402 go to their handlers, the rest is
 * counted and refused (LIBVIRQ_EUNKNOWN), touching nothing. */
static void op_exit_(struct fz *z, struct fuzz_in *in, uint32_t i)
{
	static const uint64_t codes[] = {0x401, 0x402, 0x400, 0x72, 0x7B, ~0ull, ~3ull};
	uint8_t k = fuzz_u8(in);
	uint64_t code = k % 8 < 7 ? codes[k % 8] : fuzz_u64(in);
	uint64_t info1 = fuzz_u64(in), info2 = fuzz_u64(in);
	struct virq_avic_vm_counters before, after;
	struct virq_avic_exit_result r;
	virq_status st;

	FUZZ_CHECK(virq_avic_vm_counters_get(&z->vm, &before) == LIBVIRQ_OK);
	st = virq_avic_handle_exit(&z->v[i], code, info1, info2, &ops_, &r);
	check_exit_(st, &r);
	FUZZ_CHECK(virq_avic_vm_counters_get(&z->vm, &after) == LIBVIRQ_OK);
	if (code != 0x401 && code != 0x402) {
		FUZZ_CHECK(st == LIBVIRQ_EUNKNOWN && r.action == LIBVIRQ_AVIC_ACT_REPORT);
		FUZZ_CHECK(after.unknown_exit == before.unknown_exit + 1);
	}
	/* Each kind logs at most LIBVIRQ_AVIC_LOG_BURST + 1 lines per VM, then only counts. */
	FUZZ_CHECK(virq_sim_log_count(z->sim, LIBVIRQ_LOG_WARN) +
		       virq_sim_log_count(z->sim, LIBVIRQ_LOG_ERROR) <=
		   4 * (LIBVIRQ_AVIC_LOG_BURST + 1));
}

static void op_post_(struct fz *z, uint32_t i, uint32_t vec, uint32_t self)
{
	virq_status st = virq_avic_post(&z->v[i], vec, self);
	const uint32_t *irr =
	    (const uint32_t *)((const uint8_t *)virq_avic_vcpu_backing(&z->v[i], NULL) + 0x200);

	if (vec < 16 || vec > 255) {
		FUZZ_CHECK(st == LIBVIRQ_ERANGE);
		return;
	}
	FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EHW);
	FUZZ_CHECK(irr[(vec / 32) * 4] & (1u << (vec % 32)));
}

static void op_run_(struct fz *z, uint32_t i, uint8_t what, uint32_t host)
{
	virq_status st;

	switch (what & 3) {
	case 0:
		st = virq_avic_vcpu_load(&z->v[i], host);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EBUSY || st == LIBVIRQ_ERANGE);
		if (st == LIBVIRQ_OK)
			z->loaded[i] = true;
		break;
	case 1:
		FUZZ_CHECK(virq_avic_vcpu_put(&z->v[i]) == LIBVIRQ_OK);
		z->loaded[i] = false;
		break;
	case 2:
		FUZZ_CHECK(virq_avic_vcpu_block(&z->v[i]) == LIBVIRQ_OK);
		z->loaded[i] = false;
		break;
	default:
		st = virq_avic_vcpu_unblock(&z->v[i], host);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EBUSY || st == LIBVIRQ_ERANGE);
		if (st == LIBVIRQ_OK)
			z->loaded[i] = true;
		break;
	}
}

static void op_regs_(struct fz *z, uint32_t i, uint8_t what, uint32_t val)
{
	virq_status st;
	struct virq_avic_vmcb_values vv;

	switch (what & 3) {
	case 0:
		st = virq_avic_ldr_write(&z->v[i], val);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_ENOENT || st == LIBVIRQ_EEXIST);
		break;
	case 1:
		st = virq_avic_dfr_write(&z->v[i], val);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_ENOENT || st == LIBVIRQ_EEXIST ||
			   st == LIBVIRQ_EINVAL);
		break;
	case 2:
		st = virq_avic_apic_id_write(&z->v[i], val);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EINHIBITED);
		break;
	default:
		st = virq_avic_vcpu_set_x2apic(&z->v[i], val & 1);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EINHIBITED);
		break;
	}
	FUZZ_CHECK(virq_avic_vcpu_vmcb_values(&z->v[i], &vv) == LIBVIRQ_OK);
}

static void run_ops_(struct fz *z, struct fuzz_in *in)
{
	for (int k = 0; k < 48 && in->n; k++) {
		uint8_t op = fuzz_u8(in);
		uint32_t i = fuzz_u8(in) % z->n;
		uint32_t count;
		uint64_t raw;
		virq_status st;

		switch (op % 8) {
		case 0:
			op_resolve_(z, &z->v[i], fuzz_u64(in));
			break;
		case 1:
			op_ipi_(z, in, i);
			break;
		case 2:
			op_noaccel_(z, in, i);
			break;
		case 3:
			raw = fuzz_u64(in);
			st = virq_avic_emulate_icr(&z->v[i], raw, (op & 0x80) ? &ops_ : NULL,
						   &count);
			FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_ENOTSUP);
			break;
		case 4:
			op_post_(z, i, fuzz_u8(in) | (op & 0x80 ? 0x100u : 0),
				 fuzz_u16(in) & 0xFFF);
			break;
		case 5:
			op_run_(z, i, op >> 3, fuzz_u16(in) & ((op & 0x80) ? 0xFFFF : 0xFFF));
			break;
		case 6:
			op_regs_(z, i, op >> 3, fuzz_u32(in));
			break;
		default:
			if (op & 0x40) {
				op_exit_(z, in, i);
				break;
			}
			st =
			    virq_avic_vm_set_policy(&z->vm, (enum virq_avic_policy)((op >> 3) & 1));
			FUZZ_CHECK(st == LIBVIRQ_OK);
			break;
		}
		check_tables_(z);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	struct fz *z = calloc(1, sizeof(*z));
	uint8_t shape = fuzz_u8(&in);
	struct virq_avic_vm_cfg cfg = {.mode = (enum virq_avic_mode)(shape % 3),
				       .vm_id = 7,
				       .policy = (enum virq_avic_policy)((shape >> 2) & 1)};

	FUZZ_CHECK(z != NULL);
	cur_ = z;
	z->n = 1 + fuzz_u8(&in) % MAXV;
	cfg.max_vcpus = z->n;
	z->sim = virq_sim_new();
	z->hal = virq_sim_hal(z->sim);
	virq_sim_cpu_apply(z->sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_X2AVIC_4K]);
	FUZZ_CHECK(virq_avic_caps_probe(&z->hal, &z->caps) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_avic_vm_init(&z->vm, &z->hal, &z->caps, &cfg) == LIBVIRQ_OK);
	for (uint32_t i = 0; i < z->n; i++) {
		/* APIC IDs: the index, or an input byte (duplicates are refused). */
		uint8_t idb = fuzz_u8(&in);
		struct virq_avic_vcpu_cfg vc = {.index = i,
						.apic_id = (idb & 0x80) ? (idb & 0x7F) : i};
		virq_status st = virq_avic_vcpu_init(&z->vm, &z->v[i], &vc);

		if (st != LIBVIRQ_OK) {
			FUZZ_CHECK(st == LIBVIRQ_EEXIST);
			vc.apic_id = 0x80 + i;
			FUZZ_CHECK(virq_avic_vcpu_init(&z->vm, &z->v[i], &vc) == LIBVIRQ_OK);
		}
		z->live[i] = true;
		if (cfg.mode != LIBVIRQ_AVIC_MODE_XAVIC && (idb & 0x40)) {
			st = virq_avic_vcpu_set_x2apic(&z->v[i], true);
			FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EINHIBITED);
		}
	}
	check_tables_(z);
	run_ops_(z, &in);
	for (uint32_t i = 0; i < z->n; i++) {
		FUZZ_CHECK(virq_avic_vcpu_put(&z->v[i]) == LIBVIRQ_OK);
		FUZZ_CHECK(virq_avic_vcpu_destroy(&z->v[i]) == LIBVIRQ_OK);
	}
	FUZZ_CHECK(virq_avic_vm_destroy(&z->vm) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_sim_live_pages(z->sim) == 0);
	FUZZ_CHECK(virq_sim_bad_frees(z->sim) == 0);
	virq_sim_free(z->sim);
	free(z);
	return 0;
}
