/* SPDX-License-Identifier: MIT */
/*
 * virq_sim: a libvirq HAL for host tests (the simulator's core).
 *
 * - MMIO: a register file (32-bit words keyed by address & ~3; a 64-bit
 *   access is two words, low first) with range hooks so hardware models can
 *   react to reads and writes, and "stuck" registers that ignore writes.
 * - MSR file with per-MSR hooks and injectable #GP faults; a CPUID table.
 * - Pages from the host heap with real alignment and fake physical
 *   addresses (same alignment), translation PA -> VA for models, live-page
 *   accounting for leak checks, and "fail the Nth allocation".
 * - A fake clock: now_ns() returns the clock (optionally advancing it by
 *   now_step_ns per call); relax() advances it by relax_step_ns and calls
 *   the relax hooks (models use them to make progress "over time").
 * - Counters of every MMIO/MSR access by kind and by address, and an
 *   optional trace of every event in order.
 *
 * Thread-safety: every entry point takes one recursive mutex, so the fake
 * HAL may be used from several threads (the AVIC stress test); hooks run
 * with the mutex held and may call back into the fake HAL.
 *
 * For tests only; libvirq never depends on it.
 */
#ifndef LIBVIRQ_SIM_HAL_H
#define LIBVIRQ_SIM_HAL_H

#include <libvirq/hal.h>
#include <pthread.h>

struct virq_sim;

/* Access kinds for counters and traces. */
enum virq_sim_kind {
	LIBVIRQ_SIM_MMIO_R32, LIBVIRQ_SIM_MMIO_W32, LIBVIRQ_SIM_MMIO_R64, LIBVIRQ_SIM_MMIO_W64,
	LIBVIRQ_SIM_MSR_R, LIBVIRQ_SIM_MSR_W, LIBVIRQ_SIM_CPUID, LIBVIRQ_SIM_CLEAN, LIBVIRQ_SIM_BARRIER,
	LIBVIRQ_SIM_KICK, LIBVIRQ_SIM_ALLOC, LIBVIRQ_SIM_FREE, LIBVIRQ_SIM_RELAX,
	LIBVIRQ_SIM_NOW,
	LIBVIRQ_SIM_KIND_COUNT
};

/* MMIO hooks: width is 32 or 64. A read hook returns the value read. */
typedef uint64_t (*virq_sim_mmio_read_fn)(void *arg, struct virq_sim *fh, uint64_t addr,
				      unsigned width);
typedef void (*virq_sim_mmio_write_fn)(void *arg, struct virq_sim *fh, uint64_t addr, uint64_t value,
				   unsigned width);
/* MSR hooks: return LIBVIRQ_OK or an error (LIBVIRQ_EHW models #GP). */
typedef virq_status (*virq_sim_msr_read_fn)(void *arg, struct virq_sim *fh, uint32_t msr,
					uint64_t *value);
typedef virq_status (*virq_sim_msr_write_fn)(void *arg, struct virq_sim *fh, uint32_t msr,
					 uint64_t value);
typedef void (*virq_sim_relax_fn)(void *arg, struct virq_sim *fh);
typedef void (*virq_sim_kick_fn)(void *arg, struct virq_sim *fh, void *cookie);

struct virq_sim_trace_ev {
	enum virq_sim_kind kind;
	uint64_t addr;  /* MMIO address, MSR index, CPUID leaf, VA of a clean, alloc PA */
	uint64_t value; /* value read or written, length of a clean, size of an alloc */
};

/* Creation and teardown. virq_sim_new() never returns NULL (aborts on OOM). */
struct virq_sim *virq_sim_new(void);
void virq_sim_free(struct virq_sim *fh);
/* The HAL to pass to libvirq. */
struct virq_hal virq_sim_hal(struct virq_sim *fh);
/* The ops table with every callback; tests copy it to remove callbacks. */
const struct virq_hal_ops *virq_sim_hal_ops(void);

/* Register file (raw: no counting, no hooks). */
void virq_sim_reg_set32(struct virq_sim *fh, uint64_t addr, uint32_t v);
uint32_t virq_sim_reg_get32(struct virq_sim *fh, uint64_t addr);
void virq_sim_reg_set64(struct virq_sim *fh, uint64_t addr, uint64_t v);
uint64_t virq_sim_reg_get64(struct virq_sim *fh, uint64_t addr);
/* A 32-bit register that always reads @v and ignores writes (still counted). */
void virq_sim_reg_stick32(struct virq_sim *fh, uint64_t addr, uint32_t v);
/* Hooks for [base, base+size); later regions take precedence. NULL fn = regfile. */
void virq_sim_add_region(struct virq_sim *fh, uint64_t base, uint64_t size,
			 virq_sim_mmio_read_fn rd, virq_sim_mmio_write_fn wr, void *arg);
/* Hooks on a single MMIO register address (convenience for add_region). */
#define virq_sim_on_reg(fh, addr, rd, wr, arg) virq_sim_add_region((fh), (addr), 4, (rd), (wr), (arg))

/* MSRs and CPUID. */
void virq_sim_msr_set(struct virq_sim *fh, uint32_t msr, uint64_t v);
uint64_t virq_sim_msr_get(struct virq_sim *fh, uint32_t msr);
void virq_sim_msr_fault(struct virq_sim *fh, uint32_t msr, bool fault);
void virq_sim_msr_hook(struct virq_sim *fh, uint32_t msr, virq_sim_msr_read_fn rd,
		       virq_sim_msr_write_fn wr, void *arg);
void virq_sim_cpuid_set(struct virq_sim *fh, uint32_t leaf, uint32_t subleaf, uint32_t eax,
			uint32_t ebx, uint32_t ecx, uint32_t edx);

/* Pages. */
/* Fail the Nth page_alloc counted from now (1 = the next one); 0 disables. */
void virq_sim_fail_alloc_nth(struct virq_sim *fh, unsigned long n);
unsigned long virq_sim_alloc_calls(struct virq_sim *fh);  /* total page_alloc calls */
size_t virq_sim_live_pages(struct virq_sim *fh);          /* allocations not yet freed */
size_t virq_sim_live_bytes(struct virq_sim *fh);
/* VA for [pa, pa+len) inside one live allocation, else NULL. */
void *virq_sim_pa_to_va(struct virq_sim *fh, uint64_t pa, size_t len);
/* PA of a VA inside a live allocation, or UINT64_MAX. */
uint64_t virq_sim_va_to_pa(struct virq_sim *fh, const void *va);
/* Frees of a page the fake HAL did not hand out (double free, corruption). */
unsigned long virq_sim_bad_frees(struct virq_sim *fh);

/* Clock. */
uint64_t virq_sim_now(struct virq_sim *fh);
void virq_sim_clock_advance(struct virq_sim *fh, uint64_t ns);
void virq_sim_set_relax_step(struct virq_sim *fh, uint64_t ns); /* default 1000 */
void virq_sim_set_now_step(struct virq_sim *fh, uint64_t ns);   /* default 0 */
void virq_sim_on_relax(struct virq_sim *fh, virq_sim_relax_fn fn, void *arg);

enum virq_sim_clock_fault {
	LIBVIRQ_SIM_CLOCK_OK = 0,
	LIBVIRQ_SIM_CLOCK_STOP,
	LIBVIRQ_SIM_CLOCK_JUMP_FORWARD,
	LIBVIRQ_SIM_CLOCK_JUMP_BACK,
	LIBVIRQ_SIM_CLOCK_RUN_BACKWARDS,
};
void virq_sim_clock_fault(struct virq_sim *fh, enum virq_sim_clock_fault kind, uint64_t after,
			  uint64_t ns);

/* vCPU kicks. */
void virq_sim_on_kick(struct virq_sim *fh, virq_sim_kick_fn fn, void *arg);
unsigned long virq_sim_kicks_of(struct virq_sim *fh, void *cookie);

/* Counters. */
unsigned long virq_sim_count(struct virq_sim *fh, enum virq_sim_kind kind);
/* Count of MMIO (kinds R32..W64) or MSR (R/W) accesses of @kind at @addr. */
unsigned long virq_sim_count_at(struct virq_sim *fh, enum virq_sim_kind kind, uint64_t addr);
unsigned long virq_sim_mmio_total(struct virq_sim *fh); /* all MMIO reads+writes */
unsigned long virq_sim_msr_total(struct virq_sim *fh);  /* all MSR reads+writes */
void virq_sim_reset_counters(struct virq_sim *fh);

/* Trace (off by default). */
void virq_sim_trace(struct virq_sim *fh, bool on);
size_t virq_sim_trace_len(struct virq_sim *fh);
const struct virq_sim_trace_ev *virq_sim_trace_at(struct virq_sim *fh, size_t i);
void virq_sim_trace_clear(struct virq_sim *fh);
/* Index of the first trace event matching kind/addr at or after @from, or SIZE_MAX. */
size_t virq_sim_trace_find(struct virq_sim *fh, size_t from, enum virq_sim_kind kind, uint64_t addr);

/* Logging: messages are kept (last 64) and printed when LIBVIRQ_SIM_VERBOSE is set. */
unsigned long virq_sim_log_count(struct virq_sim *fh, enum virq_log_level lvl);
const char *virq_sim_last_log(struct virq_sim *fh);
/* True if any kept log message equals @msg. */
bool virq_sim_logged(struct virq_sim *fh, const char *msg);

#endif /* LIBVIRQ_SIM_HAL_H */
