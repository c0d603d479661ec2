/* SPDX-License-Identifier: MIT */
#include "virqtool.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vt_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("virqtool: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return VIRQTOOL_EBADINPUT;
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
		kv[n] = (struct vt_kv){ argv[i], (size_t)(eq - argv[i]), eq + 1, false };
		for (int j = 0; j < n; j++) {
			if (kv[j].name_len == kv[n].name_len &&
			    !memcmp(kv[j].name, kv[n].name, kv[n].name_len)) {
				vt_fail("field '%.*s' given twice", (int)kv[n].name_len, kv[n].name);
				return -1;
			}
		}
		n++;
	}
	return n;
}

struct vt_kv *vt_kv_find(struct vt_kv *kv, int n, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < n; i++) {
		if (kv[i].name_len == len && !memcmp(kv[i].name, name, len)) {
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
