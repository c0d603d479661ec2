/* SPDX-License-Identifier: MIT */
/* virqtool: the AMD layouts as the command line sees them (see layout.h). */
#include "virqtool.h"
#include "layout.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define LAYOUT_KV_MAX 24

static uint64_t field_mask_(const struct virq_amd_field *f)
{
	unsigned hi = f->hi % 64u, lo = f->lo % 64u;
	uint64_t top = hi == 63u ? ~(uint64_t)0 : ((uint64_t)1 << (hi + 1u)) - 1u;

	return top & ~(((uint64_t)1 << lo) - 1u);
}

static uint64_t field_get_(const uint64_t w[2], const struct virq_amd_field *f)
{
	return (w[f->lo / 64u] & field_mask_(f)) >> (f->lo % 64u);
}

static bool is_part_(const struct virq_amd_field *f)
{
	return f->kind == LIBVIRQ_AMD_FIELD_PART || f->kind == LIBVIRQ_AMD_FIELD_PART_HIGH;
}

/* The name of the value a row holds: a PART's manual name before '[', else its name. */
static void value_name_(const struct virq_amd_field *f, char *buf, size_t n)
{
	const char *br = is_part_(f) ? strchr(f->manual, '[') : NULL;
	size_t len = br ? (size_t)(br - f->manual) : strlen(f->name);

	if (len >= n)
		len = n - 1;
	memcpy(buf, br ? f->manual : f->name, len);
	buf[len] = 0;
}

/* True when @name (len bytes) is the value's name or one of its aliases. */
static bool names_(const struct virq_amd_field *f, const char *name, size_t len)
{
	char vn[64];
	const char *a = f->aliases;

	value_name_(f, vn, sizeof(vn));
	if (vt_name_eq(name, len, vn))
		return true;
	while (a && *a) {
		const char *c = strchr(a, ',');
		size_t al = c ? (size_t)(c - a) : strlen(a);

		if (al == len && strncasecmp(a, name, len) == 0)
			return true;
		a += al + (c ? 1 : 0);
	}
	return false;
}

/* The value of the PART group starting at row @i (its PART_HIGH), from all its rows. */
static uint64_t part_value_(const struct virq_amd_layout *l, uint16_t i, const uint64_t w[2])
{
	char a[64], b[64];
	uint64_t v = 0;

	value_name_(&l->fields[i], a, sizeof(a));
	for (uint16_t j = i; j < l->nfields; j++) {
		value_name_(&l->fields[j], b, sizeof(b));
		if (is_part_(&l->fields[j]) && !strcmp(a, b))
			v |= field_get_(w, &l->fields[j]) << l->fields[j].mlo;
	}
	return v;
}

bool vt_layout_is_raw(const char *arg)
{
	uint64_t v;

	/* A number, or what was meant as one (too wide, a bad digit): decode
	 * then says why it is not one. */
	return arg && !strchr(arg, '=') &&
	       (vt_parse_u64(arg, &v) || (arg[0] >= '0' && arg[0] <= '9'));
}

static void print_token_(const char *name, uint64_t v, unsigned width, bool *first)
{
	fprintf(vt_out, "%s%s=", *first ? "" : " ", name);
	*first = false;
	if (width == 1)
		fprintf(vt_out, "%" PRIu64, v);
	else
		fprintf(vt_out, "0x%" PRIx64, v);
}

static int decode_print_(const struct virq_amd_layout *l, const uint64_t w[2], uint64_t *rsvd_out)
{
	bool first = true;
	uint64_t rsvd = 0;

	for (uint16_t i = 0; i < l->nfields; i++) {
		const struct virq_amd_field *f = &l->fields[i];
		unsigned width = (unsigned)f->hi - f->lo + 1u;
		char name[64];

		switch (f->kind) {
		case LIBVIRQ_AMD_FIELD_RESERVED:
			if (field_get_(w, f)) {
				snprintf(name, sizeof(name), "Reserved[%u:%u]", f->hi, f->lo);
				print_token_(name, field_get_(w, f), 0, &first);
				rsvd |= 1;
			}
			break;
		case LIBVIRQ_AMD_FIELD_ADDRESS:
			print_token_(f->name, w[f->lo / 64u] & field_mask_(f), 0, &first);
			break;
		case LIBVIRQ_AMD_FIELD_PART_HIGH:
			value_name_(f, name, sizeof(name));
			print_token_(name, part_value_(l, i, w), 0, &first);
			break;
		case LIBVIRQ_AMD_FIELD_PART:
			break; /* printed with its PART_HIGH */
		case LIBVIRQ_AMD_FIELD_VALUE:
		default:
			print_token_(f->name, field_get_(w, f), width, &first);
			break;
		}
	}
	fputc('\n', vt_out);
	*rsvd_out = rsvd;
	return 0;
}

int vt_layout_decode(const char *what, const struct virq_amd_layout *l, vt_layout_check_fn check,
		     int argc, char **argv)
{
	uint64_t w[2] = {0, 0}, out[2], rsvd;
	int nwords = l->bits == 128 ? 2 : 1, n = 0;
	bool strict = false;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--strict")) {
			strict = true;
			continue;
		}
		if (n == nwords)
			return vt_fail(
			    "%s: expected %d value%s (and optionally --strict), got '%s' "
			    "too",
			    what, nwords, nwords > 1 ? "s" : "", argv[i]);
		if (!vt_parse_u64(argv[i], &w[n]))
			return vt_fail("%s: '%s' is not a number 0..0xffffffffffffffff", what,
				       argv[i]);
		n++;
	}
	if (n != nwords)
		return vt_fail("%s: expected %d value%s (the %s)", what, nwords,
			       nwords > 1 ? "s" : "",
			       nwords > 1 ? "words, bits 63:0 first" : "raw value");
	if (l->bits == 32 && (w[0] >> 32))
		return vt_fail("%s: 0x%" PRIx64 " is wider than 32 bits", what, w[0]);
	if (strict) {
		char list[256] = "";
		size_t len = 0;

		for (uint16_t i = 0; i < l->nfields && len < sizeof(list); i++)
			if (l->fields[i].kind == LIBVIRQ_AMD_FIELD_RESERVED &&
			    field_get_(w, &l->fields[i]))
				len += (size_t)(l->fields[i].hi == l->fields[i].lo
						    ? snprintf(list + len, sizeof(list) - len,
							       " [%u]", l->fields[i].hi)
						    : snprintf(list + len, sizeof(list) - len,
							       " [%u:%u]", l->fields[i].hi,
							       l->fields[i].lo));
		if (len || check(w, out) != 0)
			return vt_fail("%s: reserved bits set (--strict):%s", what,
				       len ? list : " a reserved encoding");
	}
	decode_print_(l, w, &rsvd);
	return 0;
}

/* Sets the value named by row @i from @v; returns false after vt_fail. */
static bool place_(const char *what, const struct virq_amd_layout *l, uint16_t i, uint64_t v,
		   uint64_t w[2])
{
	const struct virq_amd_field *f = &l->fields[i];
	char name[64];

	value_name_(f, name, sizeof(name));
	if (f->kind == LIBVIRQ_AMD_FIELD_ADDRESS) {
		if (v & ~field_mask_(f)) {
			vt_fail("%s: %s=0x%" PRIx64 " is not an address in bits %u:%u", what, name,
				v, f->hi % 64u, f->lo % 64u);
			return false;
		}
		w[f->lo / 64u] |= v;
		return true;
	}
	if (f->kind == LIBVIRQ_AMD_FIELD_PART_HIGH) {
		if (f->mhi < 63 && (v >> (f->mhi + 1u))) {
			vt_fail("%s: %s=0x%" PRIx64 " does not fit %u bits", what, name, v,
				f->mhi + 1u);
			return false;
		}
		for (uint16_t j = i; j < l->nfields; j++) {
			const struct virq_amd_field *p = &l->fields[j];
			char pn[64];

			value_name_(p, pn, sizeof(pn));
			if (is_part_(p) && !strcmp(pn, name))
				w[p->lo / 64u] |= ((v >> p->mlo) << (p->lo % 64u)) & field_mask_(p);
		}
		return true;
	}
	if ((field_mask_(f) >> (f->lo % 64u)) < v) {
		vt_fail("%s: %s=0x%" PRIx64 " does not fit bits %u:%u", what, name, v, f->hi,
			f->lo);
		return false;
	}
	w[f->lo / 64u] |= v << (f->lo % 64u);
	return true;
}

int vt_layout_encode(const char *what, const struct virq_amd_layout *l, vt_layout_check_fn check,
		     int argc, char **argv)
{
	struct vt_kv kv[LAYOUT_KV_MAX];
	uint64_t w[2] = {0, 0}, out[2] = {0, 0};
	int n = vt_kv_parse(argc, argv, kv, LAYOUT_KV_MAX), st;

	if (n < 0)
		return VIRQTOOL_EBADINPUT;
	for (int k = 0; k < n; k++) {
		uint16_t i;
		uint64_t v;

		for (i = 0; i < l->nfields; i++)
			if (l->fields[i].kind != LIBVIRQ_AMD_FIELD_RESERVED &&
			    l->fields[i].kind != LIBVIRQ_AMD_FIELD_PART &&
			    names_(&l->fields[i], kv[k].name, kv[k].name_len))
				break;
		if (i == l->nfields)
			return vt_fail("%s: unknown field '%.*s' (try 'virqtool %s --help')", what,
				       (int)kv[k].name_len, kv[k].name, what);
		if (!vt_parse_u64(kv[k].value, &v))
			return vt_fail("%s: bad value for '%.*s': '%s'", what, (int)kv[k].name_len,
				       kv[k].name, kv[k].value);
		if (!place_(what, l, i, v, w))
			return VIRQTOOL_EBADINPUT;
	}
	st = check(w, out);
	if (st != 0 || out[0] != w[0] || out[1] != w[1])
		return vt_fail("%s: the library refuses the value (%s)", what,
			       st ? virq_strerror((virq_status)st) : "it encodes differently");
	if (l->bits == 128)
		fprintf(vt_out, "0x%016" PRIx64 " 0x%016" PRIx64 "\n", w[0], w[1]);
	else if (l->bits == 32)
		fprintf(vt_out, "0x%08" PRIx64 "\n", w[0]);
	else
		fprintf(vt_out, "0x%016" PRIx64 "\n", w[0]);
	return 0;
}

void vt_layout_print_fields(const struct virq_amd_layout *l)
{
	fprintf(vt_out, "  %s (%s)\n", l->name, l->source);
	for (uint16_t i = 0; i < l->nfields; i++) {
		const struct virq_amd_field *f = &l->fields[i];
		char name[64], bits[16];

		if (f->kind == LIBVIRQ_AMD_FIELD_RESERVED)
			snprintf(name, sizeof(name), "(reserved)");
		else
			value_name_(f, name, sizeof(name));
		if (f->hi == f->lo)
			snprintf(bits, sizeof(bits), "[%u]", f->hi);
		else
			snprintf(bits, sizeof(bits), "[%u:%u]", f->hi, f->lo);
		fprintf(vt_out, "    %-34s %-10s %s%s%s%s\n", name, bits, f->manual,
			*f->aliases ? " (aliases: " : "", f->aliases, *f->aliases ? ")" : "");
	}
}
