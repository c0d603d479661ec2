/* SPDX-License-Identifier: MIT */
/*
 * minihv: a small SMP EL2 hypervisor embedding libvirq on QEMU virt (GICv4).
 *
 * Every physical CPU has its own EL2 context (struct percpu, reached through
 * TPIDR_EL2: host registers of the world switch, stack, exception counts,
 * the vCPU it runs); every vCPU has its own saved guest context (struct vcpu:
 * registers, EL1 system registers, virtual CPU interface state) and its own
 * vPE. Nothing that two CPUs could change at the same time is global: shared
 * control blocks have one writer per field, published with DSB (the MMU is
 * off, so every access is Device memory and exclusives or atomics are not
 * architecturally guaranteed to work; see smp.c).
 */
#ifndef MINIHV_H
#define MINIHV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define read_sysreg(r)                                                                             \
	({                                                                                         \
		uint64_t v_;                                                                       \
		__asm__ volatile("mrs %0, " #r : "=r"(v_));                                        \
		v_;                                                                                \
	})
#define write_sysreg(r, v) __asm__ volatile("msr " #r ", %0" ::"r"((uint64_t)(v)) : "memory")
#define isb() __asm__ volatile("isb" ::: "memory")
#define dsb(opt) __asm__ volatile("dsb " #opt ::: "memory")
#define sev() __asm__ volatile("sev" ::: "memory")
#define cpu_relax() __asm__ volatile("yield" ::: "memory")

/* GIC CPU interface registers by encoding (Arm IHI 0069H §12.2, §12.4, §12.5). */
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_HPPIR1_EL1 S3_0_C12_C12_2
#define ICC_SGI1R_EL1 S3_0_C12_C11_5
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_SRE_EL2 S3_4_C12_C9_5
#define ICH_AP0R0_EL2 S3_4_C12_C8_0
#define ICH_AP1R0_EL2 S3_4_C12_C9_0
#define ICH_HCR_EL2 S3_4_C12_C11_0
#define ICH_VTR_EL2 S3_4_C12_C11_1
#define ICH_ELRSR_EL2 S3_4_C12_C11_5
#define ICH_VMCR_EL2 S3_4_C12_C11_7

#define MAX_CPUS 8u
#define MAX_VCPUS MAX_CPUS
#define NR_LR_MAX 4u /* list registers switched (QEMU has 4: ICH_VTR_EL2.ListRegs = 3) */

/* console.c */
void con_init(uint64_t pl011_base);
void con_putc(char c);
void con_puts(const char *s);
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_vprintf(const char *fmt, va_list ap);
void semihost_exit(uint32_t status) __attribute__((noreturn));
void minihv_panic(const char *why) __attribute__((noreturn));

static inline uint64_t cntpct(void)
{
	isb();
	return read_sysreg(CNTPCT_EL0);
}

/* Exception frame pushed by start.S; also the saved register file of a vCPU. */
struct frame {
	uint64_t x[31];
	uint64_t elr;  /* guest PC */
	uint64_t spsr; /* guest PSTATE */
	uint64_t pad;
};

/* Exceptions taken to EL2 on one CPU, by kind (every entry is counted). */
struct el2_stats {
	uint64_t total;
	uint64_t hvc;
	uint64_t sync_other;
	uint64_t irq;
	uint64_t irq_kick; /* of which SGI 0 (minihv's own IPI, not an interrupt delivery) */
	uint64_t fiq;
	uint64_t serror;
};

/* Interrupts a CPU's EL2 handled (from the IRQ vector or polled). */
struct irq_stats {
	uint64_t doorbells;	    /* doorbell LPIs of a vPE targeted at this CPU's RD */
	uint64_t stale_doorbells;   /* doorbell LPIs of a vPE that had moved to another RD */
	uint64_t doorbells_in_move; /* of doorbells: taken here while a move to here ran */
	uint64_t kicks;		    /* SGI 0 from another CPU */
	uint64_t lpis;		    /* emulated-path physical LPIs */
	uint64_t spurious;	    /* anything else */
};

struct vcpu;

/* Hooks a scenario installs on a CPU: an IRQ at EL2 and a guest's HOOK request. */
typedef void (*irq_hook_fn)(struct vcpu *v, uint32_t intid);
typedef void (*hvc_hook_fn)(struct vcpu *v, uint64_t arg);

/*
 * One physical CPU. TPIDR_EL2 points here. start.S uses the first two
 * members (host_ctx: x19..x30 then sp; stack_top), see the static asserts in
 * smp.c.
 */
struct percpu {
	uint64_t host_ctx[13]; /* callee-saved host registers across vcpu_run() */
	uint64_t stack_top;    /* EL2 stack of this CPU */
	struct vcpu *cur;      /* vCPU running here, or NULL */
	uint32_t idx;	       /* index in cpus[] (device-tree order) */
	uint32_t rd;	       /* redistributor index (libvirq) */
	uint64_t mpidr;	       /* MPIDR_EL1 affinity (Aff3 at [39:32]) */
	volatile uint32_t online;
	struct el2_stats el2;
	struct irq_stats irq;
	irq_hook_fn irq_hook;
	hvc_hook_fn hvc_hook;
	/* Work for a secondary CPU: written by CPU 0, then cmd_seq bumped. */
	volatile uint32_t cmd_seq;
	volatile uint32_t done_seq;
	void (*cmd_fn)(struct percpu *p, void *arg);
	void *cmd_arg;
};

static inline struct percpu *this_cpu(void)
{
	return (struct percpu *)(uintptr_t)read_sysreg(TPIDR_EL2);
}

extern struct percpu cpus[MAX_CPUS];
extern uint32_t nr_cpus;

/* smp.c */
int smp_discover(const void *fdt);
int smp_start(const void *fdt);
void rd_ppi_enable(uint64_t rd_base, uint32_t hyp_timer_intid);
void el2_sleep(uint64_t ticks);
extern uint32_t hyp_timer_intid;
void cpu_el2_init(void);
void cpu_run_on(uint32_t cpu, void (*fn)(struct percpu *p, void *arg), void *arg);
void cpu_wait_done(uint32_t cpu);
void cpu_kick(uint32_t cpu);
void cpu_park_until(volatile uint32_t *word, uint32_t value);
void el2_poll_irqs(void);

/* A lock that needs only loads, stores and DSB (Lamport's bakery). */
struct bakery {
	volatile uint32_t choosing[MAX_CPUS];
	volatile uint32_t number[MAX_CPUS];
};
void bakery_lock(struct bakery *b);
void bakery_unlock(struct bakery *b);

/* start.S */
uint64_t vcpu_enter(struct frame *regs); /* returns the exit code of el2_lower() */
extern char guest_vectors[];
extern char secondary_entry[];
extern char __image_start[], __image_end[];

/* el2.c: exit codes of vcpu_enter(). */
enum vcpu_exit {
	EXIT_DONE = 1,	/* the guest finished its command (GUEST_REQ_DONE) */
	EXIT_YIELD = 2, /* the guest gives the CPU up (GUEST_REQ_YIELD): may move */
};
void irq_dispatch(struct percpu *p, uint32_t intid);

/* Guest requests (HVC #0, x0 = request, x1 = argument). */
enum guest_req {
	GUEST_REQ_DONE = 0,  /* command finished: back to the host */
	GUEST_REQ_HOOK = 1,  /* scenario-specific request to EL2, then resume */
	GUEST_REQ_YIELD = 2, /* stop running me here (migration) */
};

/* ---------------- guest-side state (shared with EL2, one per vCPU) ---------------- */
#define MAX_SAMPLES 1024u
#define MAX_MIG_LAT 8192u
#define NR_SLOTS 64u /* vINTIDs VINTID0 .. VINTID0 + 63 of the migrating vCPU */
#define VINTID0 8192u

enum trig_kind {
	TRIG_TRANSLATER = 0, /* the guest writes event[i] to GITS_TRANSLATER */
	TRIG_EDU = 1,	     /* the guest writes 1 to the edu device's raise register */
	TRIG_HVC = 2,	     /* the guest asks EL2 (HOOK HVC); EL2 triggers */
	TRIG_NONE = 3,	     /* nothing: EL2 triggers in the HOOK before each sample */
};

enum guest_cmd {
	GCMD_BOOT = 0,	  /* first entry: set up and report back */
	GCMD_SAMPLES = 1, /* n samples, one interrupt each, in order */
	GCMD_MIGRATE = 2, /* count mode under migration, until drained */
};

struct mig_ctl;

struct gblock {
	/* Set by EL2 before resuming the guest. */
	uint32_t cmd;
	uint32_t n;
	uint32_t trig;		/* enum trig_kind */
	uint32_t hvc_before;	/* HOOK HVC before each trigger (arg = sample) */
	uint64_t translater;	/* GITS_TRANSLATER address */
	uint64_t edu_raise;	/* edu BAR0 + 0x60 */
	uint64_t timeout_ticks; /* wait for an expected interrupt */
	uint64_t silent_ticks;	/* watch a window where none may arrive */
	uint64_t giveup_ticks;	/* wait for an expected one after MISS_BUDGET misses */
	uint64_t grace_ticks;	/* keep watching after one arrived */
	struct mig_ctl *mig;
	uint32_t event[MAX_SAMPLES];
	uint32_t expect[MAX_SAMPLES]; /* vINTID expected for sample i (0: nothing) */
	/* Written by the guest. */
	volatile uint32_t mode; /* copy of cmd while running it */
	volatile uint32_t irqs;
	volatile uint32_t cur_sample;
	volatile uint64_t cur_ts;
	uint32_t misses;
	uint64_t latency[MAX_SAMPLES];
	uint32_t got[MAX_SAMPLES]; /* INTID received for sample i (1023: none) */
	uint32_t dup[MAX_SAMPLES];
	volatile uint32_t unexpected;
	volatile uint64_t fault_kind, fault_esr, fault_elr;
	/* Migration (count mode). */
	volatile uint32_t recv[NR_SLOTS];
	volatile uint32_t mig_dups, mig_bad;
	volatile uint32_t mig_nlat;
	uint32_t mig_lat[MAX_MIG_LAT];
	volatile uint32_t drained;
};

/*
 * Migration control. Every field has one writer at a time (see migrate.c);
 * leg, owner and generator change together in one single-copy-atomic 64-bit
 * store (Arm ARM B2.2.1), so no reader sees a mix of two legs.
 */
#define MIG_LEG(st) ((uint32_t)(st))
#define MIG_OWNER(st) ((uint32_t)((st) >> 32) & 0xffffu)
#define MIG_GEN(st) ((uint32_t)((st) >> 48))
#define MIG_STATE(leg, owner, gen)                                                                 \
	((uint64_t)(leg) | (uint64_t)(owner) << 32 | (uint64_t)(gen) << 48)
struct mig_ctl {
	volatile uint64_t state;       /* leg | owner (runs vCPU 0) | gen (sends) */
	volatile uint32_t stop_leg;    /* the generator of leg L writes L: "vCPU 0, yield" */
	volatile uint32_t done;	       /* no more legs: the generator stops */
	volatile uint32_t gen_stopped; /* the generator of leg L writes L when it stopped */
	volatile uint32_t drain;       /* guest: wait until everything sent arrived */
	volatile uint64_t drain_deadline;
	/* sent[c][k]: sends of slot k by CPU c (written by CPU c only). */
	volatile uint32_t sent[MAX_CPUS][NR_SLOTS];
	volatile uint64_t sent_ts[NR_SLOTS]; /* time of the last send of slot k */
};

void guest_main(struct gblock *g);
void guest_irq(void);
void guest_fault(uint64_t kind, uint64_t esr, uint64_t elr) __attribute__((noreturn));

#endif
