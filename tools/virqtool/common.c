/* SPDX-License-Identifier: MIT */
#include "virqtool.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

FILE *vt_out;
FILE *vt_err;

int vt_fail(const char *fmt, ...)
{
	FILE *e = vt_err ? vt_err : stderr;
	va_list ap;

	fputs("virqtool: ", e);
	va_start(ap, fmt);
	vfprintf(e, fmt, ap);
	va_end(ap);
	fputc('\n', e);
	return VIRQTOOL_EBADINPUT;
}

bool vt_is_help(const char *arg)
{
	return arg && (!strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "help"));
}

bool vt_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	int base = 10;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		/* strtoull would also take blanks, a sign or a second "0x" here. */
		if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || !isxdigit((unsigned char)*s))
			return false;
	} else if (!isdigit((unsigned char)*s)) {
		return false; /* blanks (tab too) or a sign */
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool vt_name_eq(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && strncasecmp(s, name, len) == 0;
}

int vt_kv_parse(int argc, char **argv, struct vt_kv *kv, int max)
{
	int n = 0;

	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			vt_fail("expected name=value, got '%s'", argv[i]);
			return -1;
		}
		if (n == max) {
			vt_fail("too many arguments");
			return -1;
		}
		kv[n] = (struct vt_kv){argv[i], (size_t)(eq - argv[i]), eq + 1, false};
		for (int j = 0; j < n; j++) {
			if (kv[j].name_len == kv[n].name_len &&
			    !strncasecmp(kv[j].name, kv[n].name, kv[n].name_len)) {
				vt_fail("field '%.*s' given twice", (int)kv[n].name_len,
					kv[n].name);
				return -1;
			}
		}
		n++;
	}
	return n;
}

struct vt_kv *vt_kv_find(struct vt_kv *kv, int n, const char *name, const char *alias)
{
	for (int i = 0; i < n; i++) {
		if (vt_name_eq(kv[i].name, kv[i].name_len, name) ||
		    (alias && vt_name_eq(kv[i].name, kv[i].name_len, alias))) {
			kv[i].used = true;
			return &kv[i];
		}
	}
	return NULL;
}

const struct vt_kv *vt_kv_unused(const struct vt_kv *kv, int n)
{
	for (int i = 0; i < n; i++)
		if (!kv[i].used)
			return &kv[i];
	return NULL;
}

int vt_missing(const char *name, const struct vt_field *f, size_t n)
{
	char req[256];
	size_t len = 0;

	req[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (!f[i].required)
			continue;
		len += (size_t)snprintf(req + len, sizeof(req) - len, "%s%s", len ? ", " : "",
					f[i].name);
		if (len >= sizeof(req))
			break;
	}
	return vt_fail("missing field '%s' (required: %s)", name, req);
}

void vt_print_fields(const struct vt_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(vt_out, "  %-14s %-9s %s\n", f[i].name,
			f[i].required ? "required" : "optional", f[i].help);
}
