/* SPDX-License-Identifier: MIT */
/*
 * The few C library functions libvirq and Debian's arm64 libfdt.a need
 * (nm -u libfdt.a: mem*, str*, strtoul, the stack protector). Byte-wise on
 * purpose: with the MMU off all memory is Device-type and unaligned accesses
 * fault, so nothing here may be widened by the compiler (-mstrict-align).
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
unsigned long strtoul(const char *s, char **end, int base);
void __stack_chk_fail(void);
void minihv_panic(const char *why) __attribute__((noreturn));

uintptr_t __stack_chk_guard = 0x595e9fbd94fda766ull;

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	volatile uint8_t *d = dst; /* volatile: keep GCC from calling memset here */

	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const uint8_t *p = s;

	for (; n; n--, p++)
		if (*p == (uint8_t)c)
			return (void *)(uintptr_t)p;
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)(uintptr_t)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)(uintptr_t)last;
	}
}

static int digit_(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A' + 10;
	return 99;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	while (digit_(*s) < base)
		v = v * (unsigned long)base + (unsigned long)digit_(*s++);
	if (end)
		*end = (char *)(uintptr_t)s;
	return v;
}

void __stack_chk_fail(void)
{
	minihv_panic("stack protector: stack smashed");
}

int strcmp(const char *a, const char *b);
int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (int)(uint8_t)*a - (int)(uint8_t)*b;
}
