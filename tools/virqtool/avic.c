/* SPDX-License-Identifier: MIT */
/*
 * virqtool avic: AVIC table entries, the backing page's registers, IOMMU
 * IRTEs and GA log entries (decoded from raw values or encoded from the
 * manuals' field names, from the layout tables of libvirq/amd/fields.h), the
 * logical index, exit decode and IPI target resolution over libvirq's
 * encoders.
 */
#include "virqtool.h"
#include "layout.h"

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

/* Fields of the subcommands that are not a layout. */
static const struct vt_field index_fields_[] = {
    {"dfr", NULL, true, "flat|cluster: the guest's DFR model"},
    {"ldr", NULL, true, "the guest's 32-bit LDR (xAPIC: logical ID in [31:24])"},
};
static const struct vt_field exit_fields_[] = {
    {"EXITCODE", "code", true, "0x401 (AVIC_INCOMPLETE_IPI) or 0x402 (AVIC_NOACCEL)"},
    {"EXITINFO1", "info1", true, "EXITINFO1 (APM Vol 2 rev 3.44 Table 15-25 or 15-28)"},
    {"EXITINFO2", "info2", true, "EXITINFO2 (APM Vol 2 rev 3.44 Table 15-26 or 15-29)"},
    {"x2apic", NULL, true, "0|1: the sender's APIC mode (how to read the ICR destination)"},
    {"ext_lvt", NULL, false,
     "0|1: CPUID Fn8000_000A EDX[27] ExtLvtAvicAccessChg (extended LVT writes trap; "
     "default 0)"},
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

/* ---- the library's check of each layout: decode, then encode the fields again ---- */

static int chk_phys_(const uint64_t w[2], uint64_t out[2])
{
	struct virq_avic_phys_entry f;
	virq_status st = virq_avic_phys_entry_decode(w[0], &f);

	return st != LIBVIRQ_OK ? (int)st : (int)virq_avic_phys_entry_encode(&f, &out[0]);
}

static int chk_logical_(const uint64_t w[2], uint64_t out[2])
{
	uint32_t id, e = 0;
	bool valid;
	virq_status st = virq_avic_logical_entry_decode((uint32_t)w[0], &id, &valid);

	if (st == LIBVIRQ_OK)
		st = virq_avic_logical_entry_encode(id, valid, &e);
	out[0] = e;
	return (int)st;
}

static int chk_doorbell_(const uint64_t w[2], uint64_t out[2])
{
	if (w[0] > LIBVIRQ_AVIC_DOORBELL_MAX_ID)
		return (int)LIBVIRQ_ERANGE;
	return (int)virq_avic_doorbell_encode((uint32_t)w[0], &out[0]);
}

static int chk_irte_(const uint64_t w[2], uint64_t out[2])
{
	struct virq_avic_irte_ga f;
	virq_status st = virq_avic_irte_ga_decode(w, &f);

	return st != LIBVIRQ_OK ? (int)st : (int)virq_avic_irte_ga_encode(&f, out);
}

static int chk_galog_(const uint64_t w[2], uint64_t out[2])
{
	uint32_t tag;
	uint16_t devid;
	uint8_t code;
	virq_status st = virq_avic_ga_log_decode(w[0], &tag, &devid, &code);

	out[0] = w[0];
	return (int)st;
}

/* Registers of the backing page with a layout (AMD64 APM Vol 2 rev 3.44 Table 16-2). */
static int chk_none_(const uint64_t w[2], uint64_t out[2])
{
	out[0] = w[0];
	out[1] = w[1];
	return 0;
}

static int chk_icr_(const uint64_t w[2], uint64_t out[2])
{
	struct virq_avic_icr f;
	virq_status st = virq_avic_icr_decode(w[0], false, &f);

	return st != LIBVIRQ_OK ? (int)st : (int)virq_avic_icr_encode(&f, &out[0]);
}

struct backing_reg_ {
	uint32_t offset;
	const struct virq_amd_layout *l;
	vt_layout_check_fn check;
};

static const struct backing_reg_ backing_regs_[] = {
    {0x020, &virq_avic_layout_apic_id, chk_none_},  {0x0C0, &virq_avic_layout_apic_rrr, chk_none_},
    {0x0D0, &virq_avic_layout_apic_ldr, chk_none_}, {0x0E0, &virq_avic_layout_apic_dfr, chk_none_},
    {0x300, &virq_avic_layout_icr, chk_icr_},
};

/* A layout subcommand: a raw value decodes, Name=value arguments encode. */
static int layout_cmd_(const char *what, const struct virq_amd_layout *l, vt_layout_check_fn chk,
		       int argc, char **argv)
{
	if (argc >= 1 && (vt_layout_is_raw(argv[0]) || !strcmp(argv[0], "--strict")))
		return vt_layout_decode(what, l, chk, argc, argv);
	return vt_layout_encode(what, l, chk, argc, argv);
}

static int phys_entry_(int argc, char **argv)
{
	return layout_cmd_("avic phys-entry", &virq_avic_layout_phys_entry, chk_phys_, argc, argv);
}

static int logical_entry_(int argc, char **argv)
{
	return layout_cmd_("avic logical-entry", &virq_avic_layout_logical_entry, chk_logical_,
			   argc, argv);
}

static int doorbell_(int argc, char **argv)
{
	return layout_cmd_("avic doorbell", &virq_avic_layout_doorbell, chk_doorbell_, argc, argv);
}

static int galog_(int argc, char **argv)
{
	return layout_cmd_("avic ga-log", &virq_avic_layout_ga_log, chk_galog_, argc, argv);
}

/* GuestMode (bit 7) selects the IRTE's layout: from the raw value, or GuestMode=1. */
static int irte_(int argc, char **argv)
{
	const struct virq_amd_layout *l = &virq_avic_layout_irte_remap;
	uint64_t v;

	if (argc >= 1 && vt_layout_is_raw(argv[0])) {
		if (vt_parse_u64(argv[0], &v) && (v & 0x80u))
			l = &virq_avic_layout_irte_ga;
		return vt_layout_decode("avic irte", l, chk_irte_, argc, argv);
	}
	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (eq && vt_name_eq(argv[i], (size_t)(eq - argv[i]), "GuestMode") &&
		    vt_parse_u64(eq + 1, &v) && v == 1)
			l = &virq_avic_layout_irte_ga;
	}
	return vt_layout_encode("avic irte", l, chk_irte_, argc, argv);
}

static const struct virq_avic_vapic_reg *vapic_reg_(uint32_t off)
{
	for (const struct virq_avic_vapic_reg *r = virq_avic_vapic_regs; r->name; r++)
		if (off >= r->first && off <= r->last && !(off & 0xFu))
			return r;
	return NULL;
}

static const char *const access_names_[] = {"allowed",
					    "accelerated",
					    "accelerated or trap",
					    "trap",
					    "fault",
					    "allowed with EDX[27], else fault",
					    "trap with EDX[27], else fault"};

/* Decodes VALUE (@argv[0..@argc-1]) with @reg's layout into a buffer, so that
 * bad input prints nothing but the error line; *@text is malloc'ed. */
static int backing_fields_(const struct backing_reg_ *reg, int argc, char **argv, char **text)
{
	FILE *out = vt_out, *tmp = tmpfile();
	long n;
	int rc;

	*text = NULL;
	if (!tmp)
		return vt_fail("avic backing: no temporary file for the output");
	vt_out = tmp;
	rc = vt_layout_decode("avic backing", reg->l, reg->check, argc, argv);
	vt_out = out;
	n = ftell(tmp);
	if (rc == 0 && n >= 0) {
		*text = calloc((size_t)n + 1, 1);
		rewind(tmp);
		if (!*text || fread(*text, 1, (size_t)n, tmp) != (size_t)n)
			rc = vt_fail("avic backing: cannot read back the output");
	}
	fclose(tmp);
	return rc;
}

static int backing_(int argc, char **argv)
{
	const struct virq_avic_vapic_reg *r;
	uint64_t off, v;
	char *fields = NULL, icrh[24];
	bool laid_out = false, icr_high = false;
	int rc = 0;

	if (argc < 2 || !vt_parse_u64(argv[0], &off) || off > 0xFF0 || (off & 0xF))
		return vt_fail("avic backing: expected OFFSET VALUE (a 16-byte aligned register "
			       "offset 0..0xFF0 and its value; 'virqtool avic backing --help')");
	/* ICRH (310h) is bits 63:32 of the ICR whose layout 300h decodes. */
	if (off == 0x310 && argc >= 2 && vt_parse_u64(argv[1], &v)) {
		if (v > 0xFFFFFFFFu)
			return vt_fail("avic backing: ICRH value=0x%" PRIx64 " > 0xffffffff", v);
		snprintf(icrh, sizeof(icrh), "0x%" PRIx64, v << 32);
		argv[1] = icrh;
		off = 0x300;
		icr_high = true;
	}
	for (size_t i = 0; i < NF_(backing_regs_) && !laid_out; i++)
		if (backing_regs_[i].offset == off) {
			laid_out = true;
			rc = backing_fields_(&backing_regs_[i], argc - 1, argv + 1, &fields);
		}
	if (!laid_out && argc != 2)
		rc = vt_fail("avic backing: expected one VALUE after OFFSET, got %d words",
			     argc - 1);
	else if (!laid_out && !vt_parse_u64(argv[1], &v))
		rc = vt_fail("avic backing: VALUE '%s' is not a number", argv[1]);
	if (rc == 0) {
		if (icr_high)
			off = 0x310;
		r = vapic_reg_((uint32_t)off);
		fprintf(vt_out, "%s (%03" PRIX64 "h): read %s, write %s\n",
			r ? r->name
			  : "not in APM Vol 2 rev 3.44 Table 15-22 (read and write allowed)",
			off, r ? access_names_[r->read] : "allowed",
			r ? access_names_[r->write] : "allowed");
		if (fields)
			fputs(fields, vt_out);
	}
	free(fields);
	return rc;
}

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

static const char *const dm_names_[8] = {"fixed", "lowest", "smi",     "remote_read",
					 "nmi",	  "init",   "startup", "extint"};
static const char *const sh_names_[4] = {"none", "self", "all", "all_but_self"};
static const char *const cause_names_[LIBVIRQ_AVIC_IPI_NCAUSES] = {
    "INVALID_INT_TYPE", "TARGET_NOT_RUNNING", "INVALID_TARGET", "INVALID_BACKING_PAGE",
    "INVALID_VECTOR",	"UNACCELERATED",      "RESERVED"};

/* AVIC_INCOMPLETE_IPI: the ICR's fields and EXITINFO2's ID and Index, the manuals' names. */
static void exit_ipi_print_(const struct virq_avic_exit_ipi *x)
{
	fprintf(vt_out,
		"AVIC_INCOMPLETE_IPI VEC=0x%02x MT=%s DM=%s TGM=%s DSH=%s %s=0x%02" PRIx32 " ID=%s",
		x->icr.vector, dm_names_[x->icr.delivery_mode],
		x->icr.logical ? "logical" : "physical", x->icr.level_trigger ? "level" : "edge",
		sh_names_[x->icr.shorthand], x->icr.x2apic ? "DEST" : "DES", x->icr.dest,
		cause_names_[x->cause]);
	if (x->index_valid)
		fprintf(vt_out, " Index=0x%02" PRIx32, x->index);
	fputc('\n', vt_out);
}

static int exit_(struct args_ *a)
{
	uint64_t code, i1, i2, x2, lvt;

	if (!num_(a, "EXITCODE", 0, UINT64_MAX, &code) ||
	    !num_(a, "EXITINFO1", 0, UINT64_MAX, &i1) ||
	    !num_(a, "EXITINFO2", 0, UINT64_MAX, &i2) || !num_(a, "x2apic", 0, 1, &x2) ||
	    !num_(a, "ext_lvt", 0, 1, &lvt) || !done_(a))
		return VIRQTOOL_EBADINPUT;
	if (code == LIBVIRQ_VMCB_EXIT_AVIC_INCOMPLETE_IPI) {
		struct virq_avic_exit_ipi x;

		if (virq_avic_exit_ipi_decode(i1, i2, x2 != 0, &x) != LIBVIRQ_OK)
			return vt_fail("exit: cannot decode");
		exit_ipi_print_(&x);
		return 0;
	}
	if (code == LIBVIRQ_VMCB_EXIT_AVIC_NOACCEL) {
		struct virq_avic_exit_noaccel x;

		if (virq_avic_exit_noaccel_decode(i1, i2, lvt != 0, &x) != LIBVIRQ_OK)
			return vt_fail("exit: cannot decode");
		fprintf(vt_out, "AVIC_NOACCEL APIC_Offset=0x%03" PRIx32 " RW=%d kind=%s", x.offset,
			x.write, x.trap ? "trap" : "fault");
		if (x.vector_valid)
			fprintf(vt_out, " Vector=0x%02x", x.vector);
		fputc('\n', vt_out);
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

/* Layouts each raw-value subcommand decodes and encodes (its fields' help). */
static const struct virq_amd_layout *const phys_l_[] = {&virq_avic_layout_phys_entry, NULL};
static const struct virq_amd_layout *const logical_l_[] = {&virq_avic_layout_logical_entry, NULL};
static const struct virq_amd_layout *const doorbell_l_[] = {&virq_avic_layout_doorbell, NULL};
static const struct virq_amd_layout *const irte_l_[] = {&virq_avic_layout_irte_ga,
							&virq_avic_layout_irte_remap, NULL};
static const struct virq_amd_layout *const galog_l_[] = {&virq_avic_layout_ga_log, NULL};
static const struct virq_amd_layout *const backing_l_[] = {
    &virq_avic_layout_apic_id,	&virq_avic_layout_apic_rrr, &virq_avic_layout_apic_ldr,
    &virq_avic_layout_apic_dfr, &virq_avic_layout_icr,	    NULL};

struct avic_sub_ {
	const char *name;
	int (*kv)(struct args_ *a);	   /* Name=value subcommands */
	int (*raw)(int argc, char **argv); /* layout subcommands: raw value or Name=value */
	const struct vt_field *f;
	size_t nf;
	const struct virq_amd_layout *const *l;
	const char *help;
};

static const struct avic_sub_ subs_[] = {
    {"phys-entry", NULL, phys_entry_, NULL, 0, phys_l_,
     "VALUE | Name=value...: a physical APIC ID table entry (APM Vol 2 rev 3.44 §15.29.5.2, "
     "Table 15-23)"},
    {"logical-entry", NULL, logical_entry_, NULL, 0, logical_l_,
     "VALUE | Name=value...: a logical APIC ID table entry (APM Vol 2 rev 3.44 §15.29.5.3, Table "
     "15-24)"},
    {"doorbell", NULL, doorbell_, NULL, 0, doorbell_l_,
     "VALUE | Name=value...: a doorbell register (MSR C001_011Bh) value (APM Vol 2 rev 3.44 "
     "§15.29.8.2, "
     "Figure 15-22)"},
    {"backing", NULL, backing_, NULL, 0, backing_l_,
     "OFFSET VALUE: a backing-page register, its AVIC access (APM Vol 2 rev 3.44 Table 15-22) and "
     "fields (§16.3.3, §16.5, §16.6.1); at 300h VALUE is the 64-bit ICR (ICRH:ICRL), at 310h "
     "the 32-bit ICRH"},
    {"irte", NULL, irte_, NULL, 0, irte_l_,
     "LO HI | Name=value...: a 128-bit IOMMU IRTE, GuestMode selects the layout (IOMMU "
     "48882 rev 3.11 §2.2.5.3, Figures 19 and 20)"},
    {"ga-log", NULL, galog_, NULL, 0, galog_l_,
     "VALUE: an IOMMU GA log entry (IOMMU 48882 rev 3.11 §2.7.3, Figure 79)"},
    {"logical-index", logical_index_, NULL, index_fields_, NF_(index_fields_), NULL,
     "the logical table index of an xAPIC LDR (APM Vol 2 rev 3.44 §15.29.5.3)"},
    {"exit", exit_, NULL, exit_fields_, NF_(exit_fields_), NULL,
     "decode an AVIC #VMEXIT (0x401, 0x402; APM Vol 2 rev 3.44 §15.29.9, Tables 15-25 to 15-29)"},
    {"targets", targets_, NULL, targets_fields_, NF_(targets_fields_), NULL,
     "the vCPUs an ICR write reaches, by libvirq's resolution"},
};
#define NSUBS_ (sizeof(subs_) / sizeof(subs_[0]))

static void usage_(void)
{
	fputs("usage: virqtool avic SUBCOMMAND ARGS...   (virqtool avic SUBCOMMAND --help)\n",
	      vt_out);
	for (size_t i = 0; i < NSUBS_; i++)
		fprintf(vt_out, "  %-13s %s\n", subs_[i].name, subs_[i].help);
	fputs("  fields        the fields of each subcommand (virqtool avic fields [SUBCOMMAND])\n",
	      vt_out);
}

static void sub_help_(const struct avic_sub_ *s)
{
	fprintf(vt_out, "virqtool avic %s %s\n", s->name, s->help);
	if (s->f)
		vt_print_fields(s->f, s->nf);
	for (const struct virq_amd_layout *const *l = s->l; l && *l; l++)
		vt_layout_print_fields(*l);
}

static const struct avic_sub_ *sub_by_name_(const char *name)
{
	for (size_t i = 0; i < NSUBS_; i++)
		if (!strcmp(name, subs_[i].name))
			return &subs_[i];
	return NULL;
}

static int fields_(int argc, char **argv)
{
	const struct avic_sub_ *s;

	if (argc > 1)
		return vt_fail("avic fields: expected at most one subcommand");
	if (argc == 1 && !vt_is_help(argv[0])) {
		s = sub_by_name_(argv[0]);
		if (!s)
			return vt_fail("avic: unknown subcommand '%s'", argv[0]);
		sub_help_(s);
		return 0;
	}
	for (size_t i = 0; i < NSUBS_; i++)
		sub_help_(&subs_[i]);
	return 0;
}

int virqtool_avic(int argc, char **argv)
{
	const struct avic_sub_ *s;
	struct args_ a;

	if (argc < 1)
		return vt_fail(
		    "avic: missing subcommand (phys-entry|logical-entry|doorbell|backing|"
		    "irte|ga-log|logical-index|exit|targets|fields)");
	if (vt_is_help(argv[0])) {
		usage_();
		return 0;
	}
	if (!strcmp(argv[0], "fields"))
		return fields_(argc - 1, argv + 1);
	s = sub_by_name_(argv[0]);
	if (!s)
		return vt_fail("avic: unknown subcommand '%s' (try 'virqtool avic --help')",
			       argv[0]);
	if (argc == 2 && vt_is_help(argv[1])) {
		sub_help_(s);
		return 0;
	}
	if (argc == 1 && s->raw)
		return vt_fail("avic %s: missing arguments (try 'virqtool avic %s --help')",
			       s->name, s->name);
	if (s->raw)
		return s->raw(argc - 1, argv + 1);
	a.f = s->f;
	a.nf = s->nf;
	a.n = vt_kv_parse(argc - 1, argv + 1, a.kv, AVIC_KV_MAX);
	if (a.n < 0)
		return VIRQTOOL_EBADINPUT;
	return s->kv(&a);
}
