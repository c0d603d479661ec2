/* SPDX-License-Identifier: MIT */
/*
 * libvirq's HAL on the Xen hypervisor's accessors: readl/readq/writel/writeq,
 * _xzalloc/xfree on the xenheap, NOW(), cpu_relax(), printk, and
 * clean_dcache_va_range (arm) or rdmsr_safe/wrmsr_safe, cpuid_count and
 * vcpu_kick (x86). Compiled by Xen's build (ports/xen/Makefile). Every
 * callback is an indirect-call target, hence cf_check (x86 CET-IBT builds).
 */
#include <xen/event.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <xen/xmalloc.h>
#include <asm/io.h>
#include <asm/processor.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#endif

#include <virq_xen.h>

static uint32_t cf_check xen_mmio_read32(void *ctx, uint64_t addr)
{
    (void)ctx;
    return readl((const volatile void __iomem *)(uintptr_t)addr);
}

static void cf_check xen_mmio_write32(void *ctx, uint64_t addr, uint32_t value)
{
    (void)ctx;
    writel(value, (volatile void __iomem *)(uintptr_t)addr);
}

static uint64_t cf_check xen_mmio_read64(void *ctx, uint64_t addr)
{
    (void)ctx;
    return readq((const volatile void __iomem *)(uintptr_t)addr);
}

static void cf_check xen_mmio_write64(void *ctx, uint64_t addr, uint64_t value)
{
    (void)ctx;
    writeq(value, (volatile void __iomem *)(uintptr_t)addr);
}

/* Zeroed, aligned, physically contiguous xenheap memory: _xzalloc takes
 * whole pages for large sizes and honours any power-of-two alignment. */
static virq_status cf_check xen_page_alloc(void *ctx, size_t size, size_t align,
                                           struct virq_page *page)
{
    void *va;

    (void)ctx;
    va = _xzalloc(size, align);
    if ( !va )
        return LIBVIRQ_ENOMEM;
    page->va = va;
    page->pa = virt_to_maddr(va);
    page->size = size;
    return LIBVIRQ_OK;
}

static void cf_check xen_page_free(void *ctx, const struct virq_page *page)
{
    (void)ctx;
    xfree(page->va);
}

static uint64_t cf_check xen_now_ns(void *ctx)
{
    (void)ctx;
    return (uint64_t)NOW();
}

static void cf_check xen_relax(void *ctx)
{
    (void)ctx;
    cpu_relax();
}

static void cf_check xen_log(void *ctx, enum virq_log_level level, const char *msg,
                             const uint64_t *values, size_t nvalues)
{
    uint64_t v[4] = { 0 };
    size_t i;

    (void)ctx;
    for ( i = 0; i < nvalues && i < ARRAY_SIZE(v); i++ )
        v[i] = values[i];
    switch ( level )
    {
    case LIBVIRQ_LOG_ERROR:
        printk(XENLOG_ERR "libvirq: %s [%#"PRIx64" %#"PRIx64" %#"PRIx64" %#"PRIx64"]\n",
               msg, v[0], v[1], v[2], v[3]);
        break;
    case LIBVIRQ_LOG_WARN:
        printk(XENLOG_WARNING "libvirq: %s [%#"PRIx64" %#"PRIx64" %#"PRIx64" %#"PRIx64"]\n",
               msg, v[0], v[1], v[2], v[3]);
        break;
    case LIBVIRQ_LOG_INFO:
        printk(XENLOG_INFO "libvirq: %s [%#"PRIx64" %#"PRIx64" %#"PRIx64" %#"PRIx64"]\n",
               msg, v[0], v[1], v[2], v[3]);
        break;
    default:
        printk(XENLOG_DEBUG "libvirq: %s [%#"PRIx64" %#"PRIx64" %#"PRIx64" %#"PRIx64"]\n",
               msg, v[0], v[1], v[2], v[3]);
        break;
    }
}

#ifdef CONFIG_ARM
static void cf_check xen_dcache_clean(void *ctx, const void *va, size_t len)
{
    (void)ctx;
    clean_dcache_va_range(va, len);
}
#endif

#ifdef CONFIG_X86
static virq_status cf_check xen_msr_read(void *ctx, uint32_t msr, uint64_t *value)
{
    int rc;

    (void)ctx;
#ifdef rdmsr_safe
    /* Xen 4.17 to 4.20: a macro that assigns its second argument. */
    rc = rdmsr_safe(msr, *value);
#else
    /* Xen 4.21 and later: int rdmsr_safe(unsigned int msr, uint64_t *val). */
    rc = rdmsr_safe(msr, value);
#endif
    return rc ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static virq_status cf_check xen_msr_write(void *ctx, uint32_t msr, uint64_t value)
{
    (void)ctx;
    return wrmsr_safe(msr, value) ? LIBVIRQ_EHW : LIBVIRQ_OK;
}

static void cf_check xen_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    (void)ctx;
    cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2], &regs[3]);
}

static void cf_check xen_kick_vcpu(void *ctx, void *vcpu_cookie)
{
    (void)ctx;
    vcpu_kick(vcpu_cookie);
}
#endif

const struct virq_hal_ops virq_xen_hal_ops = {
    .version = LIBVIRQ_HAL_VERSION,
    .size = sizeof(struct virq_hal_ops),
    .mmio_read32 = xen_mmio_read32,
    .mmio_write32 = xen_mmio_write32,
    .mmio_read64 = xen_mmio_read64,
    .mmio_write64 = xen_mmio_write64,
    .page_alloc = xen_page_alloc,
    .page_free = xen_page_free,
    .now_ns = xen_now_ns,
    .relax = xen_relax,
    .log = xen_log,
#ifdef CONFIG_ARM
    .dcache_clean = xen_dcache_clean,
#endif
#ifdef CONFIG_X86
    .msr_read = xen_msr_read,
    .msr_write = xen_msr_write,
    .cpuid = xen_cpuid,
    .kick_vcpu = xen_kick_vcpu,
#endif
};
