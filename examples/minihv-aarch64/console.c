/* SPDX-License-Identifier: MIT */
/* PL011 console (base from the device tree) and semihosting exit. Lines from
 * several CPUs do not interleave: each print holds a bakery lock. */
#include "minihv.h"

static struct bakery con_lock_;

#define UARTDR 0x00
#define UARTFR 0x18
#define UARTFR_TXFF (1u << 5)

static uint64_t uart_base_;

void con_init(uint64_t pl011_base)
{
	uart_base_ = pl011_base;
}

/* Semihosting SYS_WRITEC (0x03): used before the UART is known. */
static void semihost_putc_(char c)
{
	register uint64_t op __asm__("x0") = 0x03;
	register const char *p __asm__("x1") = &c;

	__asm__ volatile("hlt #0xf000" : "+r"(op) : "r"(p) : "memory");
}

void con_putc(char c)
{
	volatile uint32_t *fr, *dr;

	if (!uart_base_) {
		semihost_putc_(c);
		return;
	}
	fr = (volatile uint32_t *)(uintptr_t)(uart_base_ + UARTFR);
	dr = (volatile uint32_t *)(uintptr_t)(uart_base_ + UARTDR);
	if (c == '\n')
		con_putc('\r');
	while (*fr & UARTFR_TXFF)
		;
	*dr = (uint32_t)(uint8_t)c;
}

void con_puts(const char *s)
{
	bakery_lock(&con_lock_);
	while (*s)
		con_putc(*s++);
	bakery_unlock(&con_lock_);
}

static void puts_raw_(const char *s)
{
	while (*s)
		con_putc(*s++);
}

static void put_num_(uint64_t v, unsigned base, int width, char pad, bool left, bool neg)
{
	char buf[24];
	int n = 0;

	do {
		unsigned d = (unsigned)(v % base);
		buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v /= base;
	} while (v);
	if (neg)
		buf[n++] = '-';
	if (!left)
		for (int i = n; i < width; i++)
			con_putc(pad);
	int len = n;

	while (n)
		con_putc(buf[--n]);
	if (left)
		for (int i = len; i < width; i++)
			con_putc(' ');
}

/* %[-][0][width][l|ll|z](d|u|x|s|c|%) */
static void vprintf_(const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		bool left = false, lng = false;
		char pad = ' ';
		int width = 0;

		if (*fmt != '%') {
			con_putc(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '-') {
			left = true;
			fmt++;
		}
		if (*fmt == '0') {
			pad = '0';
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z') {
			lng = true;
			fmt++;
		}
		switch (*fmt) {
		case 'd': {
			int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);
			put_num_(v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 10, width, pad, left,
				 v < 0);
			break;
		}
		case 'u':
		case 'x': {
			uint64_t v = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned);
			char buf[24];
			int n = 0;
			unsigned base = *fmt == 'x' ? 16 : 10;

			if (!left) {
				put_num_(v, base, width, pad, false, false);
				break;
			}
			do {
				unsigned d = (unsigned)(v % base);
				buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
				v /= base;
			} while (v);
			for (int i = n; i > 0; i--)
				con_putc(buf[i - 1]);
			for (int i = n; i < width; i++)
				con_putc(' ');
			break;
		}
		case 's': {
			const char *s = va_arg(ap, const char *);
			int n = 0;

			if (!s)
				s = "(null)";
			while (s[n])
				n++;
			if (!left)
				for (int i = n; i < width; i++)
					con_putc(' ');
			puts_raw_(s);
			if (left)
				for (int i = n; i < width; i++)
					con_putc(' ');
			break;
		}
		case 'c':
			con_putc((char)va_arg(ap, int));
			break;
		case '%':
			con_putc('%');
			break;
		default:
			con_putc('?');
			break;
		}
	}
}

void con_vprintf(const char *fmt, va_list ap)
{
	bakery_lock(&con_lock_);
	vprintf_(fmt, ap);
	bakery_unlock(&con_lock_);
}

void con_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	con_vprintf(fmt, ap);
	va_end(ap);
}

/* SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit (0x20026): QEMU exits with @status. */
void semihost_exit(uint32_t status)
{
	static uint64_t block[2];

	block[0] = 0x20026;
	block[1] = status;
	for (;;) {
		register uint64_t op __asm__("x0") = 0x18;
		register uint64_t *p __asm__("x1") = block;

		__asm__ volatile("hlt #0xf000" : "+r"(op) : "r"(p) : "memory");
	}
}

void minihv_panic(const char *why)
{
	con_printf("\nminihv: FATAL: %s\n", why);
	semihost_exit(3);
}
