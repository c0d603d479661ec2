/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the AMD IOMMU guest virtual APIC decoders (AMD IOMMU
 * specification 48882 rev 3.11) - the 128-bit IRTE (§2.2.5.3, Figures 19 and
 * 20), the GA log entry (§2.7.3, Figure 79) and the GA tag -
 * and the IRTEs the library keeps attached to vCPUs.
 *
 * Input: two raw IRTEs (32 bytes), a raw GA log entry (8), then a list of
 * operations on a small VM registered in a GA-tag registry: attach/detach
 * an IRTE through one of several references, load/put/block/unblock a vCPU,
 * VMCB values (AVIC on or inhibited), nested on/off, GA log entries.
 * Properties:
 *  - the IRTE decoder agrees with an independent field extraction written
 *    here from the IOMMU spec's bit positions, reports reserved bits as
 *    LIBVIRQ_ERANGE, and whenever it returns LIBVIRQ_OK the encoder gives back
 *    exactly the input (no bit is dropped or invented);
 *  - the GA log decoder gives bits 31:0, 47:32 and 63:60 and reports reserved
 *    bits 59:48 as LIBVIRQ_ERANGE; the GA tag splits
 *    into 20 + 12 bits and encodes back, out-of-range values are refused;
 *  - after every operation every attached IRTE is a valid GuestMode entry
 *    with the vCPU's GA tag, backing page and vector; IsRun is set exactly
 *    while the vCPU runs with AVIC (then Destination = its host APIC ID, no
 *    GALogIntr); a GA log entry wakes exactly the vCPU its tag names;
 *  - a reference is never attached twice (LIBVIRQ_EEXIST) and a detached
 *    or freed one is never touched again (ASan); teardown frees every page.
 */
#include <stdlib.h>
#include <string.h>

#include <libvirq/avic.h>

#include <libvirq/sim/hal.h>
#include "fuzz_common.h"

#define NV 4
#define NR 6

/* ---- independent field extraction (AMD IOMMU specification 48882 rev 3.11 Figures 19, 20) ---- */

static uint64_t bits_(uint64_t x, unsigned hi, unsigned lo)
{
	return (x >> lo) & ((hi - lo == 63) ? ~0ull : ((1ull << (hi - lo + 1)) - 1));
}

static void check_irte_(const uint64_t in[2])
{
	struct virq_avic_irte_ga f;
	uint64_t lo = in[0], hi = in[1], out[2];
	bool gm = bits_(lo, 7, 7), rsvd;
	virq_status st = virq_avic_irte_ga_decode(in, &f);

	FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_ERANGE);
	FUZZ_CHECK(f.remap_en == bits_(lo, 0, 0) && f.sup_iopf == bits_(lo, 1, 1));
	FUZZ_CHECK(f.guest_mode == gm && f.vector == bits_(hi, 7, 0));
	FUZZ_CHECK(f.dest == (bits_(lo, 31, 8) | bits_(hi, 63, 56) << 24));
	if (gm) {
		FUZZ_CHECK(f.ga_log_intr == bits_(lo, 2, 2) && f.is_run == bits_(lo, 6, 6));
		FUZZ_CHECK(f.ga_tag == bits_(lo, 63, 32));
		FUZZ_CHECK(f.ga_root_pa == (bits_(hi, 51, 12) << 12));
		FUZZ_CHECK(f.gappi_dis == bits_(lo, 5, 5));
		rsvd = bits_(lo, 4, 3) || bits_(hi, 11, 8) || bits_(hi, 55, 52);
	} else {
		FUZZ_CHECK(f.int_type == bits_(lo, 4, 2) && f.rq_eoi == bits_(lo, 5, 5));
		FUZZ_CHECK(f.dm_logical == bits_(lo, 6, 6));
		/* IntType 010b-111b are reserved encodings. */
		rsvd = bits_(lo, 63, 32) || bits_(hi, 55, 8) || bits_(lo, 4, 2) > 1;
	}
	FUZZ_CHECK((st == LIBVIRQ_ERANGE) == rsvd);
	if (st == LIBVIRQ_OK) {
		FUZZ_CHECK(virq_avic_irte_ga_encode(&f, out) == LIBVIRQ_OK);
		FUZZ_CHECK(out[0] == lo && out[1] == hi);
	}
	FUZZ_CHECK(virq_avic_irte_ga_decode(NULL, &f) == LIBVIRQ_EINVAL);
	FUZZ_CHECK(virq_avic_irte_ga_decode(in, NULL) == LIBVIRQ_EINVAL);
}

static void check_galog_(uint64_t e)
{
	uint32_t tag, vm, idx, t2;
	uint16_t dev;
	uint8_t code;

	FUZZ_CHECK(virq_avic_ga_log_decode(e, &tag, &dev, &code) ==
		   (bits_(e, 59, 48) ? LIBVIRQ_ERANGE : LIBVIRQ_OK));
	FUZZ_CHECK(tag == (uint32_t)e && dev == (uint16_t)(e >> 32) && code == (uint8_t)(e >> 60));
	FUZZ_CHECK(virq_avic_gatag_decode(tag, &vm, &idx) == LIBVIRQ_OK);
	FUZZ_CHECK(vm == tag >> 12 && idx == (tag & 0xFFFu));
	FUZZ_CHECK(virq_avic_gatag_encode(vm, idx, &t2) == LIBVIRQ_OK && t2 == tag);
	FUZZ_CHECK(virq_avic_gatag_encode((uint32_t)(e >> 32) | 0x100000u, idx, &t2) ==
		   LIBVIRQ_ERANGE);
	FUZZ_CHECK(virq_avic_gatag_encode(vm, (uint32_t)(e >> 48) | 0x1000u, &t2) ==
		   LIBVIRQ_ERANGE);
}

/* ---- the IRTE driver ---- */

struct fz {
	struct virq_sim *sim;
	struct virq_hal hal;
	struct virq_avic_caps caps;
	struct virq_avic_vm vm;
	struct virq_avic_registry reg;
	struct virq_avic_vm *slots[8];
	struct virq_avic_vcpu v[NV];
	struct virq_avic_irte_ref
	    *ref[NR];  /* heap: a freed reference is an ASan error if touched */
	int owner[NR]; /* vCPU index, or -1 */
	uint64_t irte[NR][2];
	uint8_t vec[NR];
	bool loaded[NV], blocking[NV], nested[NV], active[NV];
	bool inhibited;
};

/*
 * Every attached IRTE matches its vCPU's state: IsRun exactly while it is
 * loaded, not blocking, not in L2 and its last VMCB values enabled AVIC;
 * otherwise GALogIntr while it is loaded or blocking (not when merely put).
 */
static void check_attached_(struct fz *z)
{
	for (int r = 0; r < NR; r++) {
		struct virq_avic_irte_ga f;
		uint64_t pa;
		uint32_t tag;
		int i = z->owner[r];
		bool run;

		if (i < 0)
			continue;
		FUZZ_CHECK(virq_avic_irte_ga_decode(z->irte[r], &f) == LIBVIRQ_OK);
		(void)virq_avic_vcpu_backing(&z->v[i], &pa);
		FUZZ_CHECK(virq_avic_gatag_encode(7, (uint32_t)i, &tag) == LIBVIRQ_OK);
		FUZZ_CHECK(f.guest_mode && f.remap_en && f.ga_tag == tag && f.ga_root_pa == pa);
		FUZZ_CHECK(f.vector == z->vec[r]);
		run = z->loaded[i] && !z->blocking[i] && !z->nested[i] && z->active[i];
		FUZZ_CHECK(f.is_run == run);
		if (run)
			FUZZ_CHECK(f.dest == 0x40u + (uint32_t)i && !f.ga_log_intr);
		else
			FUZZ_CHECK(f.ga_log_intr == (z->blocking[i] || z->loaded[i]));
	}
}

/* virq_avic_vcpu_vmcb_values() for vCPU @i, tracking what it enabled. */
static void vmcb_(struct fz *z, uint32_t i)
{
	struct virq_avic_vmcb_values vv;

	FUZZ_CHECK(virq_avic_vcpu_vmcb_values(&z->v[i], &vv) == LIBVIRQ_OK);
	FUZZ_CHECK(vv.active == (!z->inhibited && !z->nested[i]));
	z->active[i] = vv.active;
}

static void op_(struct fz *z, struct fuzz_in *in)
{
	uint8_t op = fuzz_u8(in), a = fuzz_u8(in);
	uint32_t i = a % NV, r = (a >> 2) % NR;
	struct virq_avic_vcpu *woke;
	virq_status st;

	switch (op % 9) {
	case 0: /* attach reference r (fresh storage when it was freed) */
		if (!z->ref[r]) {
			z->ref[r] = calloc(1, sizeof(*z->ref[r]));
			FUZZ_CHECK(z->ref[r] != NULL);
		}
		{
			uint8_t vec = (uint8_t)(fuzz_u8(in) | 0x10);

			st = virq_avic_irte_attach(&z->v[i], z->ref[r], z->irte[r], vec);
			if (z->owner[r] >= 0)
				FUZZ_CHECK(st == LIBVIRQ_EEXIST);
			else
				FUZZ_CHECK(st == LIBVIRQ_OK);
			if (st == LIBVIRQ_OK) {
				z->owner[r] = (int)i;
				z->vec[r] = vec;
			}
		}
		break;
	case 1: /* detach (from the right vCPU or not), sometimes free */
		if (!z->ref[r])
			break;
		st = virq_avic_irte_detach(&z->v[i], z->ref[r]);
		FUZZ_CHECK(st == (z->owner[r] == (int)i ? LIBVIRQ_OK : LIBVIRQ_ENOENT));
		if (st == LIBVIRQ_OK) {
			z->owner[r] = -1;
			if (op & 0x80) {
				free(z->ref[r]);
				z->ref[r] = NULL;
			}
		}
		break;
	case 2:
		st = virq_avic_vcpu_load(&z->v[i], 0x40 + i);
		FUZZ_CHECK(st == (z->loaded[i] ? LIBVIRQ_EBUSY : LIBVIRQ_OK));
		z->loaded[i] = true;
		vmcb_(z, i);
		break;
	case 3:
		FUZZ_CHECK(virq_avic_vcpu_put(&z->v[i]) == LIBVIRQ_OK);
		z->loaded[i] = false;
		break;
	case 4:
		FUZZ_CHECK(virq_avic_vcpu_block(&z->v[i]) == LIBVIRQ_OK);
		z->blocking[i] = true;
		break;
	case 5:
		FUZZ_CHECK(virq_avic_vcpu_unblock(&z->v[i], 0x40 + i) == LIBVIRQ_OK);
		z->blocking[i] = false;
		z->loaded[i] = true;
		vmcb_(z, i);
		break;
	case 6: /* inhibit or not, then every vCPU recomputes its VMCB values */
		st = (op & 0x10) ? virq_avic_vm_inhibit(&z->vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN)
				 : virq_avic_vm_uninhibit(&z->vm, LIBVIRQ_AVIC_INHIBIT_IRQWIN);
		FUZZ_CHECK(st == LIBVIRQ_OK);
		z->inhibited = (op & 0x10) != 0;
		for (uint32_t k = 0; k < NV; k++)
			vmcb_(z, k);
		break;
	case 7:
		z->nested[i] = (op & 0x10) != 0;
		virq_avic_vcpu_set_nested(&z->v[i], z->nested[i]);
		vmcb_(z, i); /* entering L1 or L2: the values for the next VMRUN */
		break;
	default: { /* a GA log entry, raw or for one of the vCPUs */
		uint64_t e = fuzz_u64(in);
		uint32_t tag;
		unsigned long before;

		if (op & 0x10) {
			FUZZ_CHECK(virq_avic_gatag_encode(7, i, &tag) == LIBVIRQ_OK);
			e = (1ull << 60) | (e & 0x0000FFFF00000000ull) | tag;
		}
		before = virq_sim_kicks_of(z->sim, (void *)(uintptr_t)(0x100 + i));
		st = virq_avic_ga_log_handle(&z->reg, e, &woke);
		if ((e >> 60) != LIBVIRQ_GA_LOG_GUEST_NR) {
			FUZZ_CHECK(st == LIBVIRQ_OK && woke == NULL);
		} else if (((uint32_t)e >> 12) == 7 && ((uint32_t)e & 0xFFFu) < NV) {
			FUZZ_CHECK(st == LIBVIRQ_OK && woke == &z->v[(uint32_t)e & 0xFFFu]);
		} else {
			FUZZ_CHECK(st == LIBVIRQ_ENOENT && woke == NULL);
		}
		if (op & 0x10)
			FUZZ_CHECK(virq_sim_kicks_of(z->sim, (void *)(uintptr_t)(0x100 + i)) ==
				   before + 1);
		break;
	}
	}
	check_attached_(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	uint64_t w[2][2];
	struct fz *z;
	struct virq_avic_vm_cfg cfg = {
	    .mode = LIBVIRQ_AVIC_MODE_X2AVIC, .max_vcpus = NV, .vm_id = 7};
	virq_status st;

	for (int k = 0; k < 2; k++) {
		w[k][0] = fuzz_u64(&in);
		w[k][1] = fuzz_u64(&in);
		check_irte_(w[k]);
	}
	check_galog_(fuzz_u64(&in));

	z = calloc(1, sizeof(*z));
	FUZZ_CHECK(z != NULL);
	z->sim = virq_sim_new();
	z->hal = virq_sim_hal(z->sim);
	z->caps = (struct virq_avic_caps){.avic = true,
					  .x2avic = true,
					  .family = 0x19,
					  .max_index = LIBVIRQ_AVIC_MAX_INDEX_X2AVIC};
	FUZZ_CHECK(virq_avic_vm_init(&z->vm, &z->hal, &z->caps, &cfg) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_avic_registry_init(&z->reg, z->slots, 8) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_avic_registry_add(&z->reg, &z->vm) == LIBVIRQ_OK);
	for (uint32_t i = 0; i < NV; i++) {
		struct virq_avic_vcpu_cfg vc = {
		    .index = i, .apic_id = i, .cookie = (void *)(uintptr_t)(0x100 + i)};

		FUZZ_CHECK(virq_avic_vcpu_init(&z->vm, &z->v[i], &vc) == LIBVIRQ_OK);
		st = virq_avic_vcpu_set_x2apic(&z->v[i], true);
		FUZZ_CHECK(st == LIBVIRQ_OK || st == LIBVIRQ_EINHIBITED);
	}
	for (int r = 0; r < NR; r++)
		z->owner[r] = -1;
	for (int k = 0; k < 64 && in.n; k++)
		op_(z, &in);
	/* Teardown: detach and free every reference, then everything else. */
	for (int r = 0; r < NR; r++) {
		if (z->owner[r] >= 0)
			FUZZ_CHECK(virq_avic_irte_detach(&z->v[z->owner[r]], z->ref[r]) ==
				   LIBVIRQ_OK);
		free(z->ref[r]);
	}
	for (uint32_t i = 0; i < NV; i++) {
		FUZZ_CHECK(virq_avic_vcpu_put(&z->v[i]) == LIBVIRQ_OK);
		FUZZ_CHECK(virq_avic_vcpu_destroy(&z->v[i]) == LIBVIRQ_OK);
	}
	FUZZ_CHECK(virq_avic_vm_destroy(&z->vm) == LIBVIRQ_EBUSY); /* still registered */
	FUZZ_CHECK(virq_avic_registry_remove(&z->reg, &z->vm) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_avic_registry_destroy(&z->reg) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_avic_vm_destroy(&z->vm) == LIBVIRQ_OK);
	FUZZ_CHECK(virq_sim_live_pages(z->sim) == 0);
	FUZZ_CHECK(virq_sim_bad_frees(z->sim) == 0);
	virq_sim_free(z->sim);
	free(z);
	return 0;
}
