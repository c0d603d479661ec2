/* SPDX-License-Identifier: MIT */
/*
 * fake_hal: a libvirq HAL for host tests.
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
#ifndef FAKE_HAL_H
#define FAKE_HAL_H

#include <libvirq/hal.h>
#include <pthread.h>

struct fake_hal;

/* Access kinds for counters and traces. */
enum fake_kind {
	FAKE_MMIO_R32, FAKE_MMIO_W32, FAKE_MMIO_R64, FAKE_MMIO_W64,
	FAKE_MSR_R, FAKE_MSR_W, FAKE_CPUID, FAKE_CLEAN, FAKE_BARRIER,
	FAKE_KICK, FAKE_ALLOC, FAKE_FREE, FAKE_RELAX,
	FAKE_KIND_COUNT
};

/* MMIO hooks: width is 32 or 64. A read hook returns the value read. */
typedef uint64_t (*fake_mmio_read_fn)(void *arg, struct fake_hal *fh, uint64_t addr,
				      unsigned width);
typedef void (*fake_mmio_write_fn)(void *arg, struct fake_hal *fh, uint64_t addr, uint64_t value,
				   unsigned width);
/* MSR hooks: return VIRQ_OK or an error (VIRQ_EHW models #GP). */
typedef virq_status (*fake_msr_read_fn)(void *arg, struct fake_hal *fh, uint32_t msr,
					uint64_t *value);
typedef virq_status (*fake_msr_write_fn)(void *arg, struct fake_hal *fh, uint32_t msr,
					 uint64_t value);
typedef void (*fake_relax_fn)(void *arg, struct fake_hal *fh);
typedef void (*fake_kick_fn)(void *arg, struct fake_hal *fh, void *cookie);

struct fake_trace_ev {
	enum fake_kind kind;
	uint64_t addr;  /* MMIO address, MSR index, CPUID leaf, VA of a clean, alloc PA */
	uint64_t value; /* value read or written, length of a clean, size of an alloc */
};

/* Creation and teardown. fake_hal_new() never returns NULL (aborts on OOM). */
struct fake_hal *fake_hal_new(void);
void fake_hal_free(struct fake_hal *fh);
/* The HAL to pass to libvirq. */
struct virq_hal fake_hal_get(struct fake_hal *fh);
/* The ops table with every callback; tests copy it to remove callbacks. */
const struct virq_hal_ops *fake_hal_ops(void);

/* Register file (raw: no counting, no hooks). */
void fake_hal_reg_set32(struct fake_hal *fh, uint64_t addr, uint32_t v);
uint32_t fake_hal_reg_get32(struct fake_hal *fh, uint64_t addr);
void fake_hal_reg_set64(struct fake_hal *fh, uint64_t addr, uint64_t v);
uint64_t fake_hal_reg_get64(struct fake_hal *fh, uint64_t addr);
/* A 32-bit register that always reads @v and ignores writes (still counted). */
void fake_hal_reg_stick32(struct fake_hal *fh, uint64_t addr, uint32_t v);
/* Hooks for [base, base+size); later regions take precedence. NULL fn = regfile. */
void fake_hal_add_region(struct fake_hal *fh, uint64_t base, uint64_t size,
			 fake_mmio_read_fn rd, fake_mmio_write_fn wr, void *arg);
/* Hooks on a single MMIO register address (convenience for add_region). */
#define fake_hal_on_reg(fh, addr, rd, wr, arg) fake_hal_add_region((fh), (addr), 4, (rd), (wr), (arg))

/* MSRs and CPUID. */
void fake_hal_msr_set(struct fake_hal *fh, uint32_t msr, uint64_t v);
uint64_t fake_hal_msr_get(struct fake_hal *fh, uint32_t msr);
void fake_hal_msr_fault(struct fake_hal *fh, uint32_t msr, bool fault);
void fake_hal_msr_hook(struct fake_hal *fh, uint32_t msr, fake_msr_read_fn rd,
		       fake_msr_write_fn wr, void *arg);
void fake_hal_cpuid_set(struct fake_hal *fh, uint32_t leaf, uint32_t subleaf, uint32_t eax,
			uint32_t ebx, uint32_t ecx, uint32_t edx);

/* Pages. */
/* Fail the Nth page_alloc counted from now (1 = the next one); 0 disables. */
void fake_hal_fail_alloc_nth(struct fake_hal *fh, unsigned long n);
unsigned long fake_hal_alloc_calls(struct fake_hal *fh);  /* total page_alloc calls */
size_t fake_hal_live_pages(struct fake_hal *fh);          /* allocations not yet freed */
size_t fake_hal_live_bytes(struct fake_hal *fh);
/* VA for [pa, pa+len) inside one live allocation, else NULL. */
void *fake_hal_pa_to_va(struct fake_hal *fh, uint64_t pa, size_t len);
/* PA of a VA inside a live allocation, or UINT64_MAX. */
uint64_t fake_hal_va_to_pa(struct fake_hal *fh, const void *va);
/* Frees of a page the fake HAL did not hand out (double free, corruption). */
unsigned long fake_hal_bad_frees(struct fake_hal *fh);

/* Clock. */
uint64_t fake_hal_now(struct fake_hal *fh);
void fake_hal_clock_advance(struct fake_hal *fh, uint64_t ns);
void fake_hal_set_relax_step(struct fake_hal *fh, uint64_t ns); /* default 1000 */
void fake_hal_set_now_step(struct fake_hal *fh, uint64_t ns);   /* default 0 */
void fake_hal_on_relax(struct fake_hal *fh, fake_relax_fn fn, void *arg);

/* vCPU kicks. */
void fake_hal_on_kick(struct fake_hal *fh, fake_kick_fn fn, void *arg);
unsigned long fake_hal_kicks_of(struct fake_hal *fh, void *cookie);

/* Counters. */
unsigned long fake_hal_count(struct fake_hal *fh, enum fake_kind kind);
/* Count of MMIO (kinds R32..W64) or MSR (R/W) accesses of @kind at @addr. */
unsigned long fake_hal_count_at(struct fake_hal *fh, enum fake_kind kind, uint64_t addr);
unsigned long fake_hal_mmio_total(struct fake_hal *fh); /* all MMIO reads+writes */
unsigned long fake_hal_msr_total(struct fake_hal *fh);  /* all MSR reads+writes */
void fake_hal_reset_counters(struct fake_hal *fh);

/* Trace (off by default). */
void fake_hal_trace(struct fake_hal *fh, bool on);
size_t fake_hal_trace_len(struct fake_hal *fh);
const struct fake_trace_ev *fake_hal_trace_at(struct fake_hal *fh, size_t i);
void fake_hal_trace_clear(struct fake_hal *fh);
/* Index of the first trace event matching kind/addr at or after @from, or SIZE_MAX. */
size_t fake_hal_trace_find(struct fake_hal *fh, size_t from, enum fake_kind kind, uint64_t addr);

/* Logging: messages are kept (last 64) and printed when FAKE_HAL_VERBOSE is set. */
unsigned long fake_hal_log_count(struct fake_hal *fh, enum virq_log_level lvl);
const char *fake_hal_last_log(struct fake_hal *fh);
/* True if any kept log message equals @msg. */
bool fake_hal_logged(struct fake_hal *fh, const char *msg);

#endif /* FAKE_HAL_H */
