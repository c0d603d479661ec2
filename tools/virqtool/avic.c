/* SPDX-License-Identifier: MIT */
/*
 * virqtool avic: AVIC table entries, logical index, exit decode and IPI
 * target resolution over libvirq's encoders.
 */
#include "virqtool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/avic.h>

#define AVIC_KV_MAX 16

struct args_ {
	struct vt_kv kv[AVIC_KV_MAX];
	int n;
};

/* Looks up a required (or optional, with @def) number; returns false after vt_fail. */
static bool num_(struct args_ *a, const char *name, bool required, uint64_t def, uint64_t max,
		 uint64_t *out)
{
	struct vt_kv *kv = vt_kv_find(a->kv, a->n, name);

	if (!kv) {
		if (required) {
			vt_fail("missing field '%s'", name);
			return false;
		}
		*out = def;
		return true;
	}
	if (!vt_parse_u64(kv->value, out) || *out > max) {
		vt_fail("bad value for '%s': '%s'", name, kv->value);
		return false;
	}
	return true;
}

static bool done_(struct args_ *a)
{
	const struct vt_kv *u = vt_kv_unused(a->kv, a->n);

	if (u) {
		vt_fail("unknown field '%.*s'", (int)u->name_len, u->name);
		return false;
	}
	return true;
}

static bool dfr_(struct args_ *a, bool required, uint32_t *dfr)
{
	struct vt_kv *kv = vt_kv_find(a->kv, a->n, "dfr");

	if (!kv) {
		*dfr = LIBVIRQ_APIC_DFR_FLAT;
		if (required)
			vt_fail("missing field 'dfr'");
		return !required;
	}
	if (!strcmp(kv->value, "flat"))
		*dfr = LIBVIRQ_APIC_DFR_FLAT;
	else if (!strcmp(kv->value, "cluster"))
		*dfr = LIBVIRQ_APIC_DFR_CLUSTER;
	else {
		vt_fail("bad value for 'dfr': '%s' (flat|cluster)", kv->value);
		return false;
	}
	return true;
}

static int phys_entry_(struct args_ *a)
{
	uint64_t id, bp, run, valid, e;
	struct virq_avic_phys_entry f;
	virq_status st;

	if (!num_(a, "host_apic_id", true, 0, UINT32_MAX, &id) ||
	    !num_(a, "backing", true, 0, UINT64_MAX, &bp) ||
	    !num_(a, "running", true, 0, 1, &run) || !num_(a, "valid", true, 0, 1, &valid) ||
	    !done_(a))
		return VIRQTOOL_EBADINPUT;
	f = (struct virq_avic_phys_entry){(uint32_t)id, bp, run != 0, valid != 0};
	st = virq_avic_phys_entry_encode(&f, &e);
	if (st != LIBVIRQ_OK)
		return vt_fail("phys-entry: %s", virq_strerror(st));
	printf("0x%016" PRIx64 "\n", e);
	return 0;
}

static int logical_entry_(struct args_ *a)
{
	uint64_t id, valid;
	uint32_t e;
	virq_status st;

	if (!num_(a, "guest_apic_id", true, 0, UINT32_MAX, &id) ||
	    !num_(a, "valid", true, 0, 1, &valid) || !done_(a))
		return VIRQTOOL_EBADINPUT;
	st = virq_avic_logical_entry_encode((uint32_t)id, valid != 0, &e);
	if (st != LIBVIRQ_OK)
		return vt_fail("logical-entry: %s", virq_strerror(st));
	printf("0x%08" PRIx32 "\n", e);
	return 0;
}

static int logical_index_(struct args_ *a)
{
	uint64_t ldr;
	uint32_t dfr, idx;
	virq_status st;

	if (!dfr_(a, true, &dfr) || !num_(a, "ldr", true, 0, UINT32_MAX, &ldr) || !done_(a))
		return VIRQTOOL_EBADINPUT;
	st = virq_avic_logical_index(dfr, (uint32_t)ldr, &idx);
	if (st != LIBVIRQ_OK)
		return vt_fail("logical-index: LDR 0x%08" PRIx64 " names no single destination",
			       ldr);
	printf("index=%" PRIu32 "\n", idx);
	return 0;
}

static const char *const dm_names_[8] = {"fixed", "lowest", "smi",  "reserved",
					 "nmi",	  "init",   "sipi", "extint"};
static const char *const sh_names_[4] = {"none", "self", "all", "all_but_self"};
static const char *const cause_names_[6] = {"INVALID_INT_TYPE", "TARGET_NOT_RUNNING",
					    "INVALID_TARGET",	"INVALID_BACKING_PAGE",
					    "INVALID_VECTOR",	"UNKNOWN"};

static int exit_(struct args_ *a)
{
	uint64_t code, i1, i2, x2;

	if (!num_(a, "code", true, 0, UINT64_MAX, &code) ||
	    !num_(a, "info1", true, 0, UINT64_MAX, &i1) ||
	    !num_(a, "info2", true, 0, UINT64_MAX, &i2) || !num_(a, "x2apic", true, 0, 1, &x2) ||
	    !done_(a))
		return VIRQTOOL_EBADINPUT;
	if (code == LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI) {
		struct virq_avic_exit_ipi x;

		if (virq_avic_exit_ipi_decode(i1, i2, x2 != 0, &x) != LIBVIRQ_OK)
			return vt_fail("exit: cannot decode");
		printf("AVIC_INCOMPLETE_IPI vector=0x%02x delivery_mode=%s dest_mode=%s trigger=%s "
		       "shorthand=%s dest=0x%02" PRIx32 " cause=%s index=0x%02" PRIx32 "\n",
		       x.icr.vector, dm_names_[x.icr.delivery_mode],
		       x.icr.logical ? "logical" : "physical",
		       x.icr.level_trigger ? "level" : "edge", sh_names_[x.icr.shorthand],
		       x.icr.dest, cause_names_[x.cause], x.index);
		return 0;
	}
	if (code == LIBVIRQ_VMCB_EXIT_AVIC_NOACCEL) {
		struct virq_avic_exit_noaccel x;

		if (virq_avic_exit_noaccel_decode(i1, i2, &x) != LIBVIRQ_OK)
			return vt_fail("exit: cannot decode");
		printf("AVIC_NOACCEL offset=0x%02" PRIx32 " write=%d kind=%s\n", x.offset, x.write,
		       x.trap ? "trap" : "fault");
		return 0;
	}
	return vt_fail("exit: code 0x%" PRIx64 " is not an AVIC exit (0x401|0x402)", code);
}

/* ---- targets: a throw-away VM on a heap HAL ---- */

static uint32_t h_rd32_(void *c, uint64_t a)
{
	(void)c;
	(void)a;
	return 0;
}
static void h_wr32_(void *c, uint64_t a, uint32_t v)
{
	(void)c;
	(void)a;
	(void)v;
}
static uint64_t h_rd64_(void *c, uint64_t a)
{
	(void)c;
	(void)a;
	return 0;
}
static void h_wr64_(void *c, uint64_t a, uint64_t v)
{
	(void)c;
	(void)a;
	(void)v;
}
static virq_status h_msr_rd_(void *c, uint32_t m, uint64_t *v)
{
	(void)c;
	(void)m;
	*v = 0;
	return LIBVIRQ_OK;
}
static virq_status h_msr_wr_(void *c, uint32_t m, uint64_t v)
{
	(void)c;
	(void)m;
	(void)v;
	return LIBVIRQ_OK;
}
static uint64_t h_now_(void *c)
{
	(void)c;
	return 0;
}
static void h_kick_(void *c, void *k)
{
	(void)c;
	(void)k;
}

static virq_status h_alloc_(void *c, size_t size, size_t align, struct virq_page *p)
{
	size_t rounded = (size + align - 1) & ~(align - 1);

	(void)c;
	p->va = aligned_alloc(align, rounded);
	if (!p->va)
		return LIBVIRQ_ENOMEM;
	memset(p->va, 0, rounded);
	p->pa = (uint64_t)(uintptr_t)p->va;
	p->size = size;
	return LIBVIRQ_OK;
}

static void h_free_(void *c, const struct virq_page *p)
{
	(void)c;
	free(p->va);
}

static const struct virq_hal_ops heap_ops_ = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = h_rd32_,
    .mmio_write32 = h_wr32_,
    .mmio_read64 = h_rd64_,
    .mmio_write64 = h_wr64_,
    .msr_read = h_msr_rd_,
    .msr_write = h_msr_wr_,
    .page_alloc = h_alloc_,
    .page_free = h_free_,
    .now_ns = h_now_,
    .kick_vcpu = h_kick_,
};

/* Parses "A,B,C" into at most @max numbers <= @lim; returns the count or -1 after vt_fail. */
static int list_(const char *name, const char *s, uint32_t *out, int max, uint64_t lim)
{
	int n = 0;
	char buf[32];

	while (*s) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);
		uint64_t v;

		if (n == max || len == 0 || len >= sizeof(buf)) {
			vt_fail("bad list for '%s'", name);
			return -1;
		}
		memcpy(buf, s, len);
		buf[len] = 0;
		if (!vt_parse_u64(buf, &v) || v > lim) {
			vt_fail("bad value in '%s': '%s'", name, buf);
			return -1;
		}
		out[n++] = (uint32_t)v;
		s += len + (c ? 1 : 0);
		if (c && !*s) {
			vt_fail("bad list for '%s'", name);
			return -1;
		}
	}
	return n;
}

struct tctx_ {
	uint8_t *hit;
};

static void hit_cb_(void *arg, struct virq_avic_vcpu *t)
{
	((struct tctx_ *)arg)->hit[t->index] = 1;
}

struct tvm_ {
	struct virq_avic_vm vm;
	struct virq_avic_vcpu *v;
	uint32_t n;
};

static int targets_setup_(struct tvm_ *t, const uint32_t *ids, const uint32_t *ldrs, bool x2,
			  uint32_t dfr)
{
	static const struct virq_avic_caps caps = {
	    .avic = true, .x2avic = true, .x2avic_4k = true, .max_index = 0xFFF};
	struct virq_hal hal = {&heap_ops_, NULL};
	struct virq_avic_vm_cfg cfg = {.mode = LIBVIRQ_AVIC_MODE_X2AVIC_4K, .max_vcpus = t->n};

	if (virq_avic_vm_init(&t->vm, &hal, &caps, &cfg) != LIBVIRQ_OK)
		return vt_fail("targets: cannot create the VM");
	for (uint32_t i = 0; i < t->n; i++) {
		struct virq_avic_vcpu_cfg vc = {.index = i, .apic_id = ids[i]};
		virq_status st = virq_avic_vcpu_init(&t->vm, &t->v[i], &vc);

		if (st == LIBVIRQ_EEXIST)
			return vt_fail("targets: APIC ID %" PRIu32 " given twice", ids[i]);
		if (st != LIBVIRQ_OK || virq_avic_vcpu_set_x2apic(&t->v[i], x2) != LIBVIRQ_OK)
			return vt_fail("targets: cannot create vCPU %" PRIu32, i);
		if (!x2 && virq_avic_dfr_write(&t->v[i], dfr) == LIBVIRQ_EINVAL)
			return vt_fail("targets: bad DFR");
		/* ENOENT/EEXIST only mean "no AVIC entry"; emulation still matches. */
		if (ldrs && virq_avic_ldr_write(&t->v[i], ldrs[i]) == LIBVIRQ_EINVAL)
			return vt_fail("targets: bad LDR");
	}
	return 0;
}

static void targets_free_(struct tvm_ *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->v[i].vm && virq_avic_vcpu_destroy(&t->v[i]) != LIBVIRQ_OK)
			break;
	if (virq_avic_vm_destroy(&t->vm) != LIBVIRQ_OK)
		return;
}

static int targets_(struct args_ *a)
{
	static uint32_t ids[4096], ldrs[4096];
	struct vt_kv *kid, *kldr;
	uint64_t icr, x2, sender;
	uint32_t dfr, cnt;
	int n, nl = 0, rc;
	struct tvm_ t;
	struct virq_avic_icr d;
	struct tctx_ c;

	if (!num_(a, "icr", true, 0, UINT64_MAX, &icr) || !num_(a, "x2apic", true, 0, 1, &x2) ||
	    !num_(a, "sender", true, 0, 4095, &sender) || !dfr_(a, false, &dfr))
		return VIRQTOOL_EBADINPUT;
	kid = vt_kv_find(a->kv, a->n, "apic_ids");
	kldr = vt_kv_find(a->kv, a->n, "ldrs");
	if (!kid)
		return vt_fail("missing field 'apic_ids'");
	if (!done_(a))
		return VIRQTOOL_EBADINPUT;
	n = list_("apic_ids", kid->value, ids, 4096, 0xFFF);
	if (n < 0)
		return VIRQTOOL_EBADINPUT;
	if (n == 0)
		return vt_fail("apic_ids: empty");
	if (kldr) {
		if (x2)
			return vt_fail("ldrs: x2APIC LDRs are derived from the APIC IDs");
		nl = list_("ldrs", kldr->value, ldrs, 4096, UINT32_MAX);
		if (nl < 0)
			return VIRQTOOL_EBADINPUT;
		if (nl != n)
			return vt_fail("ldrs: %d values for %d APIC IDs", nl, n);
	}
	if (sender >= (uint64_t)n)
		return vt_fail("sender %" PRIu64 " is not a vCPU index (0..%d)", sender, n - 1);
	memset(&t, 0, sizeof(t));
	t.n = (uint32_t)n;
	t.v = calloc((size_t)n, sizeof(*t.v));
	c.hit = calloc((size_t)n, 1);
	if (!t.v || !c.hit)
		return vt_fail("out of memory");
	rc = targets_setup_(&t, ids, kldr ? ldrs : NULL, x2 != 0, dfr);
	if (!rc && (virq_avic_icr_decode(icr, x2 != 0, &d) != LIBVIRQ_OK ||
		    virq_avic_resolve(&t.vm, &t.v[sender], &d, hit_cb_, &c, &cnt) != LIBVIRQ_OK))
		rc = vt_fail("targets: cannot resolve");
	if (!rc) {
		const char *sep = "";

		fputs("targets=", stdout);
		for (int i = 0; i < n; i++) {
			if (c.hit[i]) {
				printf("%s%d", sep, i);
				sep = ",";
			}
		}
		fputc('\n', stdout);
	}
	targets_free_(&t);
	free(t.v);
	free(c.hit);
	return rc;
}

int virqtool_avic(int argc, char **argv)
{
	struct args_ a;
	const char *sub;

	if (argc < 1)
		return vt_fail("avic: missing subcommand "
			       "(phys-entry|logical-entry|logical-index|exit|targets)");
	sub = argv[0];
	a.n = vt_kv_parse(argc - 1, argv + 1, a.kv, AVIC_KV_MAX);
	if (a.n < 0)
		return VIRQTOOL_EBADINPUT;
	if (!strcmp(sub, "phys-entry"))
		return phys_entry_(&a);
	if (!strcmp(sub, "logical-entry"))
		return logical_entry_(&a);
	if (!strcmp(sub, "logical-index"))
		return logical_index_(&a);
	if (!strcmp(sub, "exit"))
		return exit_(&a);
	if (!strcmp(sub, "targets"))
		return targets_(&a);
	return vt_fail("avic: unknown subcommand '%s'", sub);
}
