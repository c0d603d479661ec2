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
	const struct vt_field *f; /* the subcommand's fields */
	size_t nf;
};

/* Fields of each subcommand (names are the library's; aliases the APM's). */
static const struct vt_field phys_fields_[] = {
    {"host_apic_id", NULL, true,
     "bits [11:0]: host APIC ID of the CPU the vCPU runs on (0..0xFFF)"},
    {"backing", "backing_pa", true, "bits [51:12]: vAPIC backing page address (4 KiB aligned)"},
    {"running", "IsRunning", true, "bit 62: IsRunning (0|1)"},
    {"valid", "V", true, "bit 63: valid (0|1)"},
};
static const struct vt_field logical_fields_[] = {
    {"guest_apic_id", NULL, true, "bits [7:0]: guest physical APIC ID (0..0xFF)"},
    {"valid", "V", true, "bit 31: valid (0|1)"},
};
static const struct vt_field index_fields_[] = {
    {"dfr", NULL, true, "flat|cluster: the guest's DFR model"},
    {"ldr", NULL, true, "the guest's 32-bit LDR (xAPIC: logical ID in [31:24])"},
};
static const struct vt_field exit_fields_[] = {
    {"code", NULL, true, "EXITCODE: 0x401 (AVIC_INCOMPLETE_IPI) or 0x402 (AVIC_NOACCEL)"},
    {"info1", NULL, true, "EXITINFO1"},
    {"info2", NULL, true, "EXITINFO2"},
    {"x2apic", NULL, true, "0|1: the sender's APIC mode (how to read the ICR destination)"},
};
static const struct vt_field targets_fields_[] = {
    {"icr", NULL, true, "the 64-bit ICR value the guest wrote"},
    {"x2apic", NULL, true, "0|1: every vCPU in x2APIC mode (else xAPIC)"},
    {"sender", NULL, true, "index of the sending vCPU in apic_ids"},
    {"apic_ids", NULL, true, "A,B,...: APIC ID of vCPU 0, 1, ... (0..0xFFF, distinct)"},
    {"ldrs", NULL, false, "A,B,...: xAPIC LDR of each vCPU (default: none set)"},
    {"dfr", NULL, false, "flat|cluster: the vCPUs' DFR model (default flat)"},
};
#define NF_(t) (sizeof(t) / sizeof((t)[0]))

/* Field @name of the subcommand. */
static const struct vt_field *field_(const struct args_ *a, const char *name)
{
	for (size_t i = 0; i < a->nf; i++)
		if (!strcmp(a->f[i].name, name))
			return &a->f[i];
	return NULL;
}

/* Looks up a number (optional ones default to @def); returns false after vt_fail. */
static bool num_(struct args_ *a, const char *name, uint64_t def, uint64_t max, uint64_t *out)
{
	const struct vt_field *f = field_(a, name);
	struct vt_kv *kv = vt_kv_find(a->kv, a->n, name, f ? f->alias : NULL);

	if (!kv) {
		if (f && f->required) {
			vt_missing(name, a->f, a->nf);
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
		vt_fail("unknown field '%.*s' (try 'virqtool avic fields')", (int)u->name_len,
			u->name);
		return false;
	}
	return true;
}

static bool dfr_(struct args_ *a, uint32_t *dfr)
{
	const struct vt_field *f = field_(a, "dfr");
	struct vt_kv *kv = vt_kv_find(a->kv, a->n, "dfr", NULL);

	if (!kv) {
		*dfr = LIBVIRQ_APIC_DFR_FLAT;
		if (f && f->required)
			vt_missing("dfr", a->f, a->nf);
		return !(f && f->required);
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

	if (!num_(a, "host_apic_id", 0, UINT32_MAX, &id) ||
	    !num_(a, "backing", 0, UINT64_MAX, &bp) || !num_(a, "running", 0, 1, &run) ||
	    !num_(a, "valid", 0, 1, &valid) || !done_(a))
		return VIRQTOOL_EBADINPUT;
	f = (struct virq_avic_phys_entry){(uint32_t)id, bp, run != 0, valid != 0};
	st = virq_avic_phys_entry_encode(&f, &e);
	if (st != LIBVIRQ_OK)
		return vt_fail("phys-entry: %s", virq_strerror(st));
	fprintf(vt_out, "0x%016" PRIx64 "\n", e);
	return 0;
}

static int logical_entry_(struct args_ *a)
{
	uint64_t id, valid;
	uint32_t e;
	virq_status st;

	if (!num_(a, "guest_apic_id", 0, UINT32_MAX, &id) || !num_(a, "valid", 0, 1, &valid) ||
	    !done_(a))
		return VIRQTOOL_EBADINPUT;
	st = virq_avic_logical_entry_encode((uint32_t)id, valid != 0, &e);
	if (st != LIBVIRQ_OK)
		return vt_fail("logical-entry: %s", virq_strerror(st));
	fprintf(vt_out, "0x%08" PRIx32 "\n", e);
	return 0;
}

static int logical_index_(struct args_ *a)
{
	uint64_t ldr;
	uint32_t dfr, idx;
	virq_status st;

	if (!dfr_(a, &dfr) || !num_(a, "ldr", 0, UINT32_MAX, &ldr) || !done_(a))
		return VIRQTOOL_EBADINPUT;
	st = virq_avic_logical_index(dfr, (uint32_t)ldr, &idx);
	if (st != LIBVIRQ_OK)
		return vt_fail("logical-index: LDR 0x%08" PRIx64 " names no single destination",
			       ldr);
	fprintf(vt_out, "index=%" PRIu32 "\n", idx);
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

	if (!num_(a, "code", 0, UINT64_MAX, &code) || !num_(a, "info1", 0, UINT64_MAX, &i1) ||
	    !num_(a, "info2", 0, UINT64_MAX, &i2) || !num_(a, "x2apic", 0, 1, &x2) || !done_(a))
		return VIRQTOOL_EBADINPUT;
	if (code == LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI) {
		struct virq_avic_exit_ipi x;

		if (virq_avic_exit_ipi_decode(i1, i2, x2 != 0, &x) != LIBVIRQ_OK)
			return vt_fail("exit: cannot decode");
		fprintf(
		    vt_out,
		    "AVIC_INCOMPLETE_IPI vector=0x%02x delivery_mode=%s dest_mode=%s trigger=%s "
		    "shorthand=%s dest=0x%02" PRIx32 " cause=%s index=0x%02" PRIx32 "\n",
		    x.icr.vector, dm_names_[x.icr.delivery_mode],
		    x.icr.logical ? "logical" : "physical", x.icr.level_trigger ? "level" : "edge",
		    sh_names_[x.icr.shorthand], x.icr.dest, cause_names_[x.cause], x.index);
		return 0;
	}
	if (code == LIBVIRQ_VMCB_EXIT_AVIC_NOACCEL) {
		struct virq_avic_exit_noaccel x;

		if (virq_avic_exit_noaccel_decode(i1, i2, &x) != LIBVIRQ_OK)
			return vt_fail("exit: cannot decode");
		fprintf(vt_out, "AVIC_NOACCEL offset=0x%02" PRIx32 " write=%d kind=%s\n", x.offset,
			x.write, x.trap ? "trap" : "fault");
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

	if (!num_(a, "icr", 0, UINT64_MAX, &icr) || !num_(a, "x2apic", 0, 1, &x2) ||
	    !num_(a, "sender", 0, 4095, &sender) || !dfr_(a, &dfr))
		return VIRQTOOL_EBADINPUT;
	kid = vt_kv_find(a->kv, a->n, "apic_ids", NULL);
	kldr = vt_kv_find(a->kv, a->n, "ldrs", NULL);
	if (!kid)
		return vt_missing("apic_ids", a->f, a->nf);
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

		fputs("targets=", vt_out);
		for (int i = 0; i < n; i++) {
			if (c.hit[i]) {
				fprintf(vt_out, "%s%d", sep, i);
				sep = ",";
			}
		}
		fputc('\n', vt_out);
	}
	targets_free_(&t);
	free(t.v);
	free(c.hit);
	return rc;
}

struct avic_sub_ {
	const char *name;
	int (*fn)(struct args_ *a);
	const struct vt_field *f;
	size_t nf;
	const char *help;
};

static const struct avic_sub_ subs_[] = {
    {"phys-entry", phys_entry_, phys_fields_, NF_(phys_fields_),
     "a physical APIC ID table entry (APM Vol 2 §15.29.3.2)"},
    {"logical-entry", logical_entry_, logical_fields_, NF_(logical_fields_),
     "a logical APIC ID table entry (§15.29.3.3)"},
    {"logical-index", logical_index_, index_fields_, NF_(index_fields_),
     "the logical table index of an xAPIC LDR (§15.29.3.3)"},
    {"exit", exit_, exit_fields_, NF_(exit_fields_),
     "decode an AVIC #VMEXIT (0x401, 0x402; §15.29.3.1, Table 15-29)"},
    {"targets", targets_, targets_fields_, NF_(targets_fields_),
     "the vCPUs an ICR write reaches, by libvirq's resolution"},
};
#define NSUBS_ (sizeof(subs_) / sizeof(subs_[0]))

static void usage_(void)
{
	fputs(
	    "usage: virqtool avic SUBCOMMAND field=value ...   (virqtool avic SUBCOMMAND --help)\n",
	    vt_out);
	for (size_t i = 0; i < NSUBS_; i++)
		fprintf(vt_out, "  %-13s %s\n", subs_[i].name, subs_[i].help);
	fputs("  fields        the fields of each subcommand (virqtool avic fields [SUBCOMMAND])\n",
	      vt_out);
}

static void sub_help_(const struct avic_sub_ *s)
{
	fprintf(vt_out, "virqtool avic %s: %s\n", s->name, s->help);
	vt_print_fields(s->f, s->nf);
}

static const struct avic_sub_ *sub_by_name_(const char *name)
{
	for (size_t i = 0; i < NSUBS_; i++)
		if (!strcmp(name, subs_[i].name))
			return &subs_[i];
	return NULL;
}

int virqtool_avic(int argc, char **argv)
{
	const struct avic_sub_ *s;
	struct args_ a;

	if (argc < 1)
		return vt_fail("avic: missing subcommand "
			       "(phys-entry|logical-entry|logical-index|exit|targets|fields)");
	if (vt_is_help(argv[0])) {
		usage_();
		return 0;
	}
	if (!strcmp(argv[0], "fields")) {
		if (argc > 2)
			return vt_fail("avic fields: expected at most one subcommand");
		if (argc == 2 && !vt_is_help(argv[1])) {
			s = sub_by_name_(argv[1]);
			if (!s)
				return vt_fail("avic: unknown subcommand '%s'", argv[1]);
			sub_help_(s);
			return 0;
		}
		for (size_t i = 0; i < NSUBS_; i++)
			sub_help_(&subs_[i]);
		return 0;
	}
	s = sub_by_name_(argv[0]);
	if (!s)
		return vt_fail("avic: unknown subcommand '%s' (try 'virqtool avic --help')",
			       argv[0]);
	if (argc == 2 && vt_is_help(argv[1])) {
		sub_help_(s);
		return 0;
	}
	a.f = s->f;
	a.nf = s->nf;
	a.n = vt_kv_parse(argc - 1, argv + 1, a.kv, AVIC_KV_MAX);
	if (a.n < 0)
		return VIRQTOOL_EBADINPUT;
	return s->fn(&a);
}
