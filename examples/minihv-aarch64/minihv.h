/* SPDX-License-Identifier: MIT */
/* minihv: a minimal EL2 hypervisor embedding libvirq on QEMU virt (GICv4). */
#ifndef MINIHV_H
#define MINIHV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define read_sysreg(r) ({ uint64_t v_; __asm__ volatile("mrs %0, " #r : "=r"(v_)); v_; })
#define write_sysreg(r, v) __asm__ volatile("msr " #r ", %0" ::"r"((uint64_t)(v)) : "memory")
#define isb() __asm__ volatile("isb" ::: "memory")
#define dsb(opt) __asm__ volatile("dsb " #opt ::: "memory")

/* GIC CPU interface registers by encoding (Arm IHI 0069 §12.2, §12.4). */
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_HPPIR1_EL1 S3_0_C12_C12_2
#define ICC_CTLR_EL1 S3_0_C12_C12_4
#define ICC_SRE_EL1 S3_0_C12_C12_5
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_SRE_EL2 S3_4_C12_C9_5
#define ICH_HCR_EL2 S3_4_C12_C11_0
#define ICH_VTR_EL2 S3_4_C12_C11_1
#define ICH_ELRSR_EL2 S3_4_C12_C11_5
#define ICH_VMCR_EL2 S3_4_C12_C11_7
#define ICH_LR0_EL2 S3_4_C12_C12_0

/* console.c */
void con_init(uint64_t pl011_base);
void con_putc(char c);
void con_puts(const char *s);
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_vprintf(const char *fmt, va_list ap);
void semihost_exit(uint32_t status) __attribute__((noreturn));
void minihv_panic(const char *why) __attribute__((noreturn));

/* Counter (generic timer) helpers. */
static inline uint64_t cntpct(void)
{
	isb();
	return read_sysreg(CNTPCT_EL0);
}

/* Exception frame pushed by start.S for an exception from the guest. */
struct frame {
	uint64_t x[31];
	uint64_t elr;
	uint64_t spsr;
	uint64_t pad;
};

/* start.S */
void enter_guest(uint64_t entry, uint64_t arg, uint64_t sp_el1);
extern char guest_vectors[];
extern char __image_start[], __image_end[], __guest_stack_top[];

/* EL2 exception counters (every entry, by kind). */
struct el2_counts {
	uint64_t total;
	uint64_t sync_hvc;
	uint64_t sync_other;
	uint64_t irq;
	uint64_t fiq;
	uint64_t serror;
};
extern volatile struct el2_counts el2_counts;

/* Hooks the scenario code installs: IRQ at EL2 and harness HVC requests. */
typedef void (*el2_irq_hook)(struct frame *f);
typedef void (*el2_hvc_hook)(struct frame *f, uint64_t req, uint64_t arg);
void el2_set_hooks(el2_irq_hook irq, el2_hvc_hook hvc);

/* Guest requests (HVC #0, x0 = request, x1 = argument). */
enum guest_req {
	GUEST_REQ_DONE = 0,  /* scenario finished: back to the host */
	GUEST_REQ_HOOK = 1,  /* scenario-specific request to EL2, then resume */
};

/* Memory shared by EL2 and the guest (plain RAM, PA = VA). */
#define MAX_SAMPLES 4096
#define NR_VINTID_SLOTS 64
struct shared {
	/* Set by EL2 before entering the guest. */
	uint32_t scenario;
	uint32_t n;               /* samples to take */
	uint64_t translater;      /* GITS_TRANSLATER address (from the DT-discovered ITS) */
	uint32_t event[MAX_SAMPLES];    /* EventID written for sample i */
	uint32_t expect[MAX_SAMPLES];   /* vINTID expected for sample i (0: expect nothing) */
	uint32_t hvc_before;      /* request a HOOK HVC before each trigger (arg = i) */
	uint64_t timeout_ticks;   /* how long the guest waits for an expected interrupt */
	uint64_t silent_ticks;    /* how long it watches a window where none may arrive */
	uint64_t grace_ticks;     /* how long it keeps watching after one arrived */
	/* Written by the guest. */
	volatile uint32_t irqs;   /* interrupts taken */
	volatile uint32_t last_intid;
	volatile uint64_t last_ts;
	uint64_t latency[MAX_SAMPLES];  /* ticks from trigger to handler, or ~0 when missing */
	uint32_t got[MAX_SAMPLES];      /* INTID received for sample i (1023: none) */
	uint32_t dup[MAX_SAMPLES];      /* extra interrupts while waiting for sample i */
	volatile uint32_t unexpected;   /* interrupts outside a sample window */
	volatile uint64_t fault_kind, fault_esr, fault_elr;
};
extern struct shared g_shared;
void guest_main(struct shared *sh);
void guest_irq(void);
void guest_fault(uint64_t kind, uint64_t esr, uint64_t elr) __attribute__((noreturn));

#endif
