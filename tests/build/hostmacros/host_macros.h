/* SPDX-License-Identifier: MIT */
/*
 * Hostile prelude (ctest: host_macros_*): the macros a hypervisor or kernel
 * tree commonly defines before any libvirq file is compiled, in the shapes
 * Xen (xen/compiler.h, xen/lib.h, xen/kernel.h, asm/system.h, force-included
 * through xen/config.h) and Linux (linux/compiler_attributes.h,
 * compiler_types.h, compiler.h, bits.h, minmax.h, kernel.h, container_of.h)
 * give them. Written for this test from those hosts' documented behaviour;
 * a few are deliberately stricter (they expand to something that cannot
 * compile when misused) so that any use other than the reserved spelling
 * fails.
 *
 * Every libvirq source and public header must compile unchanged after this
 * file (-include host_macros.h).
 */
#ifndef LIBVIRQ_TEST_HOST_MACROS_H
#define LIBVIRQ_TEST_HOST_MACROS_H

/* Attributes as object-like or function-like macros (both hosts). */
#define inline inline __attribute__((__gnu_inline__)) __attribute__((__unused__))
#define __inline__ __inline__ __attribute__((__unused__))
#define noinline __attribute__((__noinline__))
#define __noinline __attribute__((__noinline__))
#define always_inline __inline__ __attribute__((__always_inline__))
#define __always_inline inline __attribute__((__always_inline__))
#define gnu_inline __inline__ __attribute__((__gnu_inline__))
#define cold __attribute__((__cold__))
#define __cold __attribute__((__cold__))
#define hot __attribute__((__hot__))
#define __hot __attribute__((__hot__))
#define noreturn __attribute__((__noreturn__))
#define __noreturn __attribute__((__noreturn__))
#define __packed __attribute__((__packed__))
#define packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define aligned(x) __attribute__((__aligned__(x)))
#define __used __attribute__((__used__))
#define __maybe_unused __attribute__((__unused__))
#define unused __attribute__((__unused__))
#define __unused __attribute__((__unused__))
#define __weak __attribute__((__weak__))
#define __pure __attribute__((__pure__))
#define __must_check __attribute__((__warn_unused_result__))
#define __section(s) __attribute__((__section__(s)))
#define section(s) __attribute__((__section__(s)))
#define __init __attribute__((__section__(".init.text"), __cold__))
#define __read_mostly __attribute__((__section__(".data.read_mostly")))
#define __iomem
#define __force
#define __user
#define cf_check
#define nocall __attribute__((__error__("Nonstandard ABI")))
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 7
#define fallthrough __attribute__((__fallthrough__))
#else
#define fallthrough                                                                                \
	do {                                                                                       \
	} while (0)
#endif
#define unreachable() __builtin_unreachable()

/* Barriers and CPU helpers. */
#define barrier() __asm__ __volatile__("" : : : "memory")
#define mb() barrier()
#define rmb() barrier()
#define wmb() barrier()
#define smp_mb() barrier()
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define dsb(scope) barrier()
#define dmb(scope) barrier()
#define isb() barrier()
#define cpu_relax() barrier()
#define relax() cpu_relax()
#define cpuid(leaf, eax, ebx, ecx, edx) host_cpuid_is_a_macro_(leaf, eax, ebx, ecx, edx)
#define log(level, ...) host_log_is_a_macro_(level, __VA_ARGS__)
#define printk(...) host_printk_is_a_macro_(__VA_ARGS__)
#define current host_current_is_a_macro_()
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))

/* Arithmetic and bit helpers. */
#define min(x, y) ((x) < (y) ? (x) : (y))
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min_t(t, x, y) min((t)(x), (t)(y))
#define max_t(t, x, y) max((t)(x), (t)(y))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define swap(a, b)                                                                                 \
	do {                                                                                       \
		__typeof__(a) t_ = (a);                                                            \
		(a) = (b);                                                                         \
		(b) = t_;                                                                          \
	} while (0)
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (8 * sizeof(long) - 1 - (h))))
#define GENMASK_ULL(h, l) (((~0ULL) << (l)) & (~0ULL >> (63 - (h))))
#define FIELD_PREP(m, v) (((v) << __builtin_ctzll(m)) & (m))
#define FIELD_GET(m, v) (((v) & (m)) >> __builtin_ctzll(m))
#define BITS_PER_LONG 64
#define BITS_PER_BYTE 8
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define ROUNDUP(x, a) (((x) + (a)-1) & ~((a)-1))
#define ALIGN(x, a) (((x) + (a)-1) & ~((a)-1))
#define IS_ALIGNED(x, a) (((x) & ((a)-1)) == 0)
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define KB(x) ((x) << 10)
#define MB(x) ((x) << 20)
#define GB(x) ((x) << 30)
#define SZ_4K 0x1000
#define SZ_64K 0x10000

/* Structure helpers and the host's own offsetof / NULL (Xen defines both). */
#define offsetof(a, b) __builtin_offsetof(a, b)
#define NULL ((void *)0)
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define sizeof_field(t, m) sizeof(((t *)0)->m)
#define typeof __typeof__
#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 202311L
#define auto __auto_type /* current Xen */
#endif

/* Assertions and errors. */
#define ASSERT(p)                                                                                  \
	do {                                                                                       \
		if (!(p))                                                                          \
			host_assert_failed_(#p);                                                   \
	} while (0)
#define BUG() __builtin_trap()
#define BUG_ON(p)                                                                                  \
	do {                                                                                       \
		if (p)                                                                             \
			BUG();                                                                     \
	} while (0)
#define WARN_ON(p) (p)
#define BUILD_BUG_ON(c) ((void)sizeof(char[1 - 2 * !!(c)]))
#define EINVAL 22
#define ENOMEM 12
#define EBUSY 16
#define ENOENT 2
#define ERANGE 34
#define ETIMEDOUT 110

/* Xen's public ABI names that once collided with libvirq 0.1. */
#define VIRQ_TIMER 0
#define VIRQ_DEBUG 1
#define VIRQ_ENOMEM 12

#endif /* LIBVIRQ_TEST_HOST_MACROS_H */
