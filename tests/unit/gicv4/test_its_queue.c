/* SPDX-License-Identifier: MIT */
/*
 * ITS command queue tests on the fake HAL and the ITS model: CBASER
 * negotiation (docs/rationale.md#gic-table-attributes), exact MMIO counts per
 * batch, many batches across wraps, slow ITS, dead ITS (bounded timeout,
 * usable after reset), stall + retry (architectural and QEMU 7.2 sticky
 * Stalled), stall + skip, queue full, impossible CREADR values
 * (docs/rationale.md#gic-its-bounds), submit with SYNC/VSYNC
 * (docs/rationale.md#gic-vmapp-unmap-no-vsync).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libvirq/virq.h>
#include <libvirq/gicv4/its_cmd.h>
#include <libvirq/gicv4/its_regs.h>
#include <libvirq/gicv4/its_queue.h>

#include <libvirq/sim/hal.h>
#include <libvirq/sim/its.h>

#define ITS 0x08080000ull
#define TIMEOUT_NS 1000000ull /* 1 ms of fake time = 1000 relax() calls */

struct env {
	struct virq_sim *sim;
	struct virq_sim_its *m;
	struct virq_hal hal;
	struct virq_its_queue q;
	struct virq_its_queue_cfg cfg;
};

static void env_up(struct env *e, const struct virq_sim_its_cfg *mc, uint32_t size, bool noncoh)
{
	memset(e, 0, sizeof(*e));
	e->sim = virq_sim_new();
	e->m = virq_sim_its_new(e->sim, ITS, mc);
	e->hal = virq_sim_hal(e->sim);
	e->cfg.timeout_ns = TIMEOUT_NS;
	e->cfg.dma_noncoherent = noncoh;
	assert_int_equal(virq_its_queue_init(&e->q, &e->hal, ITS, size, &e->cfg), LIBVIRQ_OK);
	virq_sim_its_enable(e->m, true);
	virq_sim_reset_counters(e->sim);
}

static void env_down(struct env *e)
{
	assert_int_equal(virq_its_queue_fini(&e->q), LIBVIRQ_OK);
	assert_int_equal(virq_sim_live_pages(e->sim), 0);
	assert_int_equal(virq_sim_bad_frees(e->sim), 0);
	virq_sim_free(e->sim);
	virq_sim_its_free(e->m);
}

static struct virq_its_cmd mapti_n(uint32_t n)
{
	return virq_its_mapti(n >> 16, n & 0xFFFF, 8192 + n, n & 0xFF);
}

static void push_ok(struct env *e, const struct virq_its_cmd *c)
{
	assert_int_equal(virq_its_queue_push(&e->q, c, NULL, NULL, NULL), LIBVIRQ_OK);
}

static void check_model_seq(struct env *e, size_t from, uint32_t first, uint32_t n)
{
	assert_true(virq_sim_its_ncmds(e->m) >= from + n);
	for (uint32_t i = 0; i < n; i++) {
		const struct virq_sim_its_cmd *c = virq_sim_its_cmd_at(e->m, from + i);
		uint32_t k = first + i;

		assert_int_equal(c->op, 0x0A);
		assert_int_equal(c->dev, k >> 16);
		assert_int_equal(c->ev, k & 0xFFFF);
		assert_int_equal(c->pintid, 8192 + k);
		assert_int_equal(c->icid, k & 0xFF);
	}
}

/* ---- init / negotiation ---- */
static void test_init_programs_cbaser(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	uint64_t cb;

	memset(&e, 0, sizeof(e));
	e.sim = virq_sim_new();
	e.m = virq_sim_its_new(e.sim, ITS, &mc);
	e.hal = virq_sim_hal(e.sim);
	assert_int_equal(virq_its_queue_init(&e.q, &e.hal, ITS, 65536, NULL), LIBVIRQ_OK);
	cb = virq_sim_its_cbaser(e.m);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Valid, cb), 1);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_InnerCache, cb),
			 LIBVIRQ_GIC_CACHE_RaWaWb);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_OuterCache, cb), 0);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Shareability, cb),
			 LIBVIRQ_GIC_SH_INNER);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Size, cb), 15);
	assert_int_equal(cb & LIBVIRQ_FIELD_MASK(LIBVIRQ_GITS_CBASER_Physical_Address), e.q.mem.pa);
	assert_int_equal(e.q.mem.pa % 65536, 0);
	assert_false(e.q.clean);
	assert_int_equal(virq_its_queue_capacity(&e.q), 2047);
	/* One CTLR read, one CBASER write + read, one CWRITER write. */
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_R32, ITS + LIBVIRQ_GITS_CTLR),
			 1);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CBASER),
			 1);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_R64, ITS + LIBVIRQ_GITS_CBASER),
			 1);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER),
			 1);
	assert_int_equal(virq_sim_mmio_total(e.sim), 4);
	env_down(&e);
}

static void test_init_nonshareable_readback(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	uint64_t cb;

	mc.cbaser.sh = virq_sim_fixed(0); /* the ITS cannot do shareability */
	env_up(&e, &mc, 4096, false);
	cb = virq_sim_its_cbaser(e.m);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Shareability, cb), 0);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_InnerCache, cb),
			 LIBVIRQ_GIC_CACHE_nC);
	assert_true(e.q.clean);
	/* Publishing cleans the new commands, before the CWRITER write. */
	virq_sim_trace(e.sim, true);
	for (uint32_t i = 0; i < 3; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	size_t cl =
	    virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_CLEAN, (uint64_t)(uintptr_t)e.q.mem.va);
	size_t bar = virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_BARRIER, 0);
	size_t wr = virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER);
	assert_true(cl < bar && bar < wr && wr != SIZE_MAX);
	assert_int_equal(virq_sim_trace_at(e.sim, cl)->value, 96);
	env_down(&e);
}

static void test_init_inner_nc_readback_cleans_commands(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();

	mc.cbaser.inner =
	    virq_sim_fixed(LIBVIRQ_GIC_CACHE_nC); /* InnerCache fixed nC, shareability IS */
	env_up(&e, &mc, 4096, false);
	assert_true(e.q.clean);
	env_down(&e);
	mc.cbaser.inner = virq_sim_fixed(LIBVIRQ_GIC_CACHE_RaWb);
	env_up(&e, &mc, 4096, false);
	assert_false(e.q.clean);
	env_down(&e);
}

static void test_init_dma_noncoherent(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	uint64_t cb;

	env_up(&e, &mc, 8192, true);
	cb = virq_sim_its_cbaser(e.m);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Shareability, cb), 0);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_InnerCache, cb),
			 LIBVIRQ_GIC_CACHE_nC);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Size, cb), 1);
	assert_true(e.q.clean);
	env_down(&e);
}

static void test_init_errors(void **s)
{
	(void)s;
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_sim_its *m = virq_sim_its_new(sim, ITS, &mc);
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_its_queue q;
	struct virq_hal_ops noclean = *virq_sim_hal_ops();
	struct virq_hal hal2 = {&noclean, hal.ctx};
	struct virq_its_queue_cfg nc = {0, true};

	assert_int_equal(virq_its_queue_init(NULL, &hal, ITS, 4096, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_init(&q, NULL, ITS, 4096, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 0, NULL), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 100, NULL), LIBVIRQ_EALIGN);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 4096 + 32, NULL), LIBVIRQ_EALIGN);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 257 * 4096, NULL), LIBVIRQ_ERANGE);
	/* Largest queue is fine. */
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 256 * 4096, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_capacity(&q), 256 * 128 - 1);
	assert_int_equal(virq_its_queue_fini(&q), LIBVIRQ_OK);
	/* Enabled ITS: CBASER must not be written. */
	virq_sim_its_enable(m, true);
	virq_sim_reset_counters(sim);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 4096, NULL), LIBVIRQ_EBUSY);
	assert_int_equal(virq_sim_count(sim, LIBVIRQ_SIM_MMIO_W64), 0);
	virq_sim_its_enable(m, false);
	/* Allocation failure. */
	virq_sim_fail_alloc_nth(sim, 1);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 4096, NULL), LIBVIRQ_ENOMEM);
	/* Cleaning needed but the HAL cannot clean: nothing leaks, CBASER cleared. */
	noclean.dcache_clean = NULL;
	assert_int_equal(virq_its_queue_init(&q, &hal2, ITS, 4096, &nc), LIBVIRQ_ENOHAL);
	assert_int_equal(virq_sim_its_cbaser(m), 0);
	assert_int_equal(virq_sim_live_pages(sim), 0);
	/* Bad HAL version. */
	noclean.version = 99;
	assert_int_equal(virq_its_queue_init(&q, &hal2, ITS, 4096, NULL), LIBVIRQ_EHALVER);
	virq_sim_free(sim);
	virq_sim_its_free(m);
}

static uint64_t cbaser_drop_valid_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned w)
{
	(void)arg;
	(void)sim;
	(void)addr;
	(void)w;
	return 0; /* Valid never sticks */
}

static void test_init_cbaser_not_sticking(void **s)
{
	(void)s;
	struct virq_sim *sim = virq_sim_new();
	struct virq_sim_its *m = virq_sim_its_new(sim, ITS, NULL);
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_its_queue q;

	virq_sim_add_region(sim, ITS + LIBVIRQ_GITS_CBASER, 8, cbaser_drop_valid_, NULL, NULL);
	assert_int_equal(virq_its_queue_init(&q, &hal, ITS, 4096, NULL), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_live_pages(sim), 0);
	virq_sim_free(sim);
	virq_sim_its_free(m);
}

/* ---- batches ---- */
static void test_batch_exact_mmio(void **s)
{
	(void)s;
	struct env e;
	uint64_t t;

	env_up(&e, NULL, 4096, false);
	for (uint32_t n = 1; n <= 100; n += 33) {
		virq_sim_reset_counters(e.sim);
		size_t before = virq_sim_its_ncmds(e.m);
		for (uint32_t i = 0; i < n; i++) {
			struct virq_its_cmd c = mapti_n(i);
			push_ok(&e, &c);
		}
		assert_int_equal(virq_sim_mmio_total(e.sim), 0); /* pushing touches no register */
		assert_int_equal(virq_its_queue_publish(&e.q, &t), LIBVIRQ_OK);
		assert_int_equal(virq_its_queue_wait(&e.q, t, NULL), LIBVIRQ_OK);
		/* One CWRITER write, one CREADR read; nothing else. */
		assert_int_equal(
		    virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER), 1);
		assert_int_equal(
		    virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_R32, ITS + LIBVIRQ_GITS_CREADR), 1);
		assert_int_equal(virq_sim_mmio_total(e.sim), 2);
		assert_int_equal(virq_sim_count(e.sim, LIBVIRQ_SIM_BARRIER), 1);
		assert_int_equal(virq_sim_count(e.sim, LIBVIRQ_SIM_CLEAN), 0);
		check_model_seq(&e, before, 0, n);
		/* Waiting again for a consumed ticket, or publishing nothing: no MMIO. */
		assert_int_equal(virq_its_queue_wait(&e.q, t, NULL), LIBVIRQ_OK);
		assert_int_equal(virq_its_queue_publish(&e.q, NULL), LIBVIRQ_OK);
		assert_int_equal(virq_sim_mmio_total(e.sim), 2);
	}
	assert_int_equal(virq_its_queue_wait(&e.q, t + 32, NULL), LIBVIRQ_EINVAL);
	env_down(&e);
}

static void test_many_batches_wrap(void **s)
{
	(void)s;
	struct env e;
	uint32_t k = 0;

	env_up(&e, NULL, 4096, false); /* 128 slots */
	for (int b = 0; b < 60; b++) {
		uint32_t n = 1 + (uint32_t)(b * 37) % 127; /* up to the capacity */
		uint64_t t;

		for (uint32_t i = 0; i < n; i++) {
			struct virq_its_cmd c = mapti_n(k + i);
			push_ok(&e, &c);
		}
		assert_int_equal(virq_its_queue_publish(&e.q, &t), LIBVIRQ_OK);
		assert_int_equal(virq_its_queue_wait(&e.q, t, NULL), LIBVIRQ_OK);
		k += n;
	}
	assert_true(k > 20 * 128); /* many wraps */
	check_model_seq(&e, 0, 0, k);
	assert_int_equal(virq_sim_its_ncmds(e.m), k);
	assert_int_equal(virq_sim_its_bad_cwriter(e.m), 0);
	env_down(&e);
}

static void test_big_batch_cwriter_writes(void **s)
{
	(void)s;
	struct env e;

	env_up(&e, NULL, 4096, false); /* capacity 127 */
	for (uint32_t i = 0; i < 1000; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	/* ceil(1000 / 127) = 8 doorbells. */
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER),
			 8);
	check_model_seq(&e, 0, 0, 1000);
	assert_true(virq_sim_its_max_pending(e.m) <= 4096 - 32);
	env_down(&e);
}

static void test_slow_its(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	uint32_t k = 0;

	mc.per_relax = 3;
	env_up(&e, &mc, 4096, false);
	/* Completes after k polls => exactly k reads: 30 commands at 3 per relax. */
	for (uint32_t i = 0; i < 30; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_R32, ITS + LIBVIRQ_GITS_CREADR),
			 11);
	assert_int_equal(virq_sim_count(e.sim, LIBVIRQ_SIM_RELAX), 10);
	k = 30;
	/* Batches across wraps with a slow ITS; queue-full pushes wait for space. */
	for (int b = 0; b < 10; b++) {
		for (uint32_t i = 0; i < 200; i++) {
			struct virq_its_cmd c = mapti_n(k + i);
			push_ok(&e, &c);
		}
		assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
		k += 200;
	}
	check_model_seq(&e, 0, 0, k);
	assert_true(virq_sim_its_max_pending(e.m) <= 4096 - 32);
	env_down(&e);
}

static void test_dead_its_timeout_and_reset(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_its_queue_diag d;
	struct virq_its_cmd c = virq_its_mapd(9, 4, 0x41040000, true);
	uint64_t t0;

	mc.dead = true;
	env_up(&e, &mc, 4096, false);
	push_ok(&e, &c);
	c = mapti_n(1);
	push_ok(&e, &c);
	t0 = virq_sim_now(e.sim);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ETIMEDOUT);
	/* Bounded: about the deadline of fake time, one relax per poll. */
	assert_true(virq_sim_now(e.sim) - t0 >= TIMEOUT_NS);
	assert_true(virq_sim_now(e.sim) - t0 <= TIMEOUT_NS + 2000);
	assert_true(virq_sim_count(e.sim, LIBVIRQ_SIM_RELAX) <= TIMEOUT_NS / 1000 + 1);
	/* Snapshot: CREADR 0, CWRITER 64, the MAPD decoded. */
	assert_int_equal(d.creadr, 0);
	assert_int_equal(d.cwriter, 64);
	assert_int_equal(d.offset, 0);
	assert_false(d.stalled);
	assert_int_equal(d.decode_status, LIBVIRQ_OK);
	assert_int_equal(d.cmd.opcode, LIBVIRQ_ITS_MAPD);
	assert_int_equal(d.cmd.DeviceID, 9);
	assert_int_equal(d.cmd.ITT_addr, 0x41040000);
	assert_string_equal(virq_sim_last_log(e.sim),
			    "virq_its_queue_drain: the ITS consumed nothing in timeout_ns=1000000 "
			    "(GITS_CREADR=0x0, GITS_CWRITER=0x40)");
	/* Dead until reset. */
	assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, NULL), LIBVIRQ_EDEAD);
	assert_int_equal(virq_its_queue_publish(&e.q, NULL), LIBVIRQ_EDEAD);
	assert_int_equal(virq_its_queue_wait(&e.q, 0, NULL), LIBVIRQ_EDEAD);
	/* The ITS comes back; reset disables it, rewrites CBASER, re-enables. */
	virq_sim_its_set_dead(e.m, false);
	virq_sim_reset_counters(e.sim);
	assert_int_equal(virq_its_queue_reset(&e.q), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CBASER),
			 1);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W32, ITS + LIBVIRQ_GITS_CTLR),
			 2);
	assert_int_equal(virq_sim_its_creadr(e.m), 0);
	assert_int_equal(virq_sim_its_ncmds(e.m), 0); /* the dropped commands never ran */
	for (uint32_t i = 0; i < 300; i++) {
		c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	check_model_seq(&e, 0, 0, 300);
	env_down(&e);
}

static void test_reset_never_quiescent(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();

	env_up(&e, &mc, 4096, false);
	/* Simulate a wedged ITS: Quiescent never sets. */
	virq_sim_add_region(e.sim, ITS + LIBVIRQ_GITS_CTLR, 4, cbaser_drop_valid_, NULL, NULL);
	assert_int_equal(virq_its_queue_reset(&e.q), LIBVIRQ_ETIMEDOUT);
	struct virq_its_cmd c = mapti_n(0);
	assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, NULL), LIBVIRQ_EDEAD);
	env_down(&e);
}

static void test_queue_full_never_overwrites(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	uint8_t snap[4096];

	mc.dead = true;
	env_up(&e, &mc, 4096, false);
	for (uint32_t i = 0; i < 127; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_sim_mmio_total(e.sim), 0);
	memcpy(snap, e.q.mem.va, sizeof(snap));
	struct virq_its_cmd c = mapti_n(999);
	assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, NULL), LIBVIRQ_ETIMEDOUT);
	/* It published what was pending (once), waited, and wrote nothing. */
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER),
			 1);
	assert_int_equal(virq_sim_its_cwriter(e.m), 127 * 32);
	assert_memory_equal(snap, e.q.mem.va, sizeof(snap));
	env_down(&e);
}

static void test_queue_full_slow_its_waits(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();

	mc.per_relax = 1;
	env_up(&e, &mc, 4096, false);
	for (uint32_t i = 0; i < 500; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	check_model_seq(&e, 0, 0, 500);
	assert_true(virq_sim_its_max_pending(e.m) <= 4096 - 32);
	env_down(&e);
}

static void stall_and_retry(bool sticky)
{
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_its_queue_diag d;
	uint64_t t;

	mc.qemu_sticky_stall = sticky;
	env_up(&e, &mc, 4096, false);
	virq_sim_its_stall_nth(e.m, 3);
	for (uint32_t i = 0; i < 5; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_publish(&e.q, &t), LIBVIRQ_OK);
	uint64_t t0 = virq_sim_now(e.sim);
	assert_int_equal(virq_its_queue_wait(&e.q, t, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(virq_sim_now(e.sim), t0); /* reported at once, no deadline spent */
	assert_true(d.stalled);
	assert_int_equal(d.offset, 64);
	assert_int_equal(d.cwriter, 160);
	assert_int_equal(d.creadr, 64 | 1);
	assert_int_equal(d.decode_status, LIBVIRQ_OK);
	assert_int_equal(d.cmd.opcode, LIBVIRQ_ITS_MAPTI);
	assert_int_equal(d.cmd.EventID, 2);
	assert_int_equal(virq_sim_its_ncmds(e.m), 2);
	assert_int_equal(virq_its_queue_stall_info(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.pINTID, 8194);
	/* Retry (the model's one-shot stall is "fixed"). */
	virq_sim_reset_counters(e.sim);
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER),
			 1);
	assert_int_equal(virq_its_queue_wait(&e.q, t, &d), LIBVIRQ_OK);
	check_model_seq(&e, 0, 0, 5);
	assert_int_equal(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CREADR_Stalled, virq_sim_its_creadr(e.m)),
			 sticky);
	/* Later batches complete although Stalled may still read 1 (QEMU 7.2). */
	for (int b = 0; b < 5; b++) {
		for (uint32_t i = 0; i < 100; i++) {
			struct virq_its_cmd c = mapti_n(5 + (uint32_t)b * 100 + i);
			push_ok(&e, &c);
		}
		assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	}
	check_model_seq(&e, 0, 0, 505);
	/* A new stall is still reported (sticky: only at the deadline, by lack of progress). */
	virq_sim_its_stall_nth(e.m, 507);
	for (uint32_t i = 0; i < 3; i++) {
		struct virq_its_cmd c = mapti_n(505 + i);
		push_ok(&e, &c);
	}
	t0 = virq_sim_now(e.sim);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.EventID, 506);
	if (sticky)
		assert_true(virq_sim_now(e.sim) - t0 >= TIMEOUT_NS);
	else
		assert_int_equal(virq_sim_now(e.sim), t0);
	/* A stall is not death: retry and finish. */
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	check_model_seq(&e, 0, 0, 508);
	env_down(&e);
}

static void test_stall_retry_arch(void **s)
{
	(void)s;
	stall_and_retry(false);
}

static void test_stall_retry_qemu_sticky(void **s)
{
	(void)s;
	stall_and_retry(true);
}

static void test_stall_skip(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_its_queue_diag d;
	struct virq_its_cmd c, nop = virq_its_sync_cmd(virq_its_rdbase_procnum(0));

	mc.qemu_sticky_stall = true;
	env_up(&e, &mc, 4096, false);
	/* Not stalled: skip refuses to touch the queue. */
	assert_int_equal(virq_its_queue_skip(&e.q, &nop, NULL), LIBVIRQ_EINVAL);
	virq_sim_its_stall_opcode(e.m, 0x0A); /* every MAPTI stalls until replaced */
	c = virq_its_mapd(1, 4, 0x10000, true);
	push_ok(&e, &c);
	c = virq_its_mapti(1, 0, 8192, 0);
	push_ok(&e, &c);
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_INT, .DeviceID = 1, .EventID = 0};
	push_ok(&e, &c);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.opcode, LIBVIRQ_ITS_MAPTI);
	/* Retrying as-is stalls again. */
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.offset, 32);
	/* Skip: replace with a SYNC and go on. */
	nop.RDbase = 0x10000ull << 16; /* invalid: the encoder refuses, queue untouched */
	struct virq_its_limits lim;
	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &lim);
	assert_int_equal(virq_its_queue_skip(&e.q, &nop, &lim), LIBVIRQ_ERANGE);
	nop.RDbase = 0;
	assert_int_equal(virq_its_queue_skip(&e.q, &nop, &lim), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(e.m), 3);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 0)->op, 0x08);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 1)->op, 0x05);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 2)->op, 0x03);
	env_down(&e);
}

static void test_skip_noncoherent_cleans(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_its_cmd c = mapti_n(0), nop = virq_its_sync_cmd(0);

	env_up(&e, &mc, 4096, true);
	virq_sim_its_stall_nth(e.m, 1);
	push_ok(&e, &c);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_ESTALLED);
	virq_sim_trace(e.sim, true);
	assert_int_equal(virq_its_queue_skip(&e.q, &nop, NULL), LIBVIRQ_OK);
	size_t cl =
	    virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_CLEAN, (uint64_t)(uintptr_t)e.q.mem.va);
	size_t wr = virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER);
	assert_true(cl < wr && wr != SIZE_MAX);
	assert_int_equal(virq_sim_trace_at(e.sim, wr)->value, 32 | 1);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 0)->op, 0x05);
	env_down(&e);
}

static void test_noncoherent_wrap_cleans_two_ranges(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();

	env_up(&e, &mc, 4096, true);
	for (uint32_t i = 0; i < 120; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	virq_sim_trace(e.sim, true);
	virq_sim_reset_counters(e.sim);
	for (uint32_t i = 0; i < 20; i++) { /* slots 120..127 then 0..11 */
		struct virq_its_cmd c = mapti_n(120 + i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	uint64_t va = (uint64_t)(uintptr_t)e.q.mem.va;
	size_t a = virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_CLEAN, va + 120 * 32);
	size_t b = virq_sim_trace_find(e.sim, 0, LIBVIRQ_SIM_CLEAN, va);
	assert_true(a != SIZE_MAX && b != SIZE_MAX);
	assert_int_equal(virq_sim_trace_at(e.sim, a)->value, 8 * 32);
	assert_int_equal(virq_sim_trace_at(e.sim, b)->value, 12 * 32);
	assert_int_equal(virq_sim_count(e.sim, LIBVIRQ_SIM_CLEAN), 2);
	check_model_seq(&e, 0, 0, 140);
	env_down(&e);
}

/* CREADR returning an offset beyond the queue (docs/rationale.md#gic-its-bounds): hardware error,
 * no OOB read. */
static uint64_t creadr_bogus_(void *arg, struct virq_sim *sim, uint64_t addr, unsigned w)
{
	(void)sim;
	(void)addr;
	(void)w;
	return *(uint64_t *)arg;
}

static void test_impossible_creadr(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	struct virq_its_queue_diag d;
	uint64_t val = 0x1000; /* == queue size */

	mc.dead = true;
	env_up(&e, &mc, 4096, false);
	virq_sim_add_region(e.sim, ITS + LIBVIRQ_GITS_CREADR, 8, creadr_bogus_, NULL, &val);
	struct virq_its_cmd c = mapti_n(0);
	push_ok(&e, &c);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_EHW);
	assert_int_equal(d.creadr, 0x1000);
	assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, NULL), LIBVIRQ_EDEAD);
	env_down(&e);
	/* Beyond CWRITER (the ITS cannot pass it) is impossible too. */
	env_up(&e, &mc, 4096, false);
	val = 0x40;
	virq_sim_add_region(e.sim, ITS + LIBVIRQ_GITS_CREADR, 8, creadr_bogus_, NULL, &val);
	push_ok(&e, &c);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_EHW);
	env_down(&e);
}

/*
 * A 32-bit GITS_CREADR read of all ones (ITS powered off or unreachable: a
 * bus error reads as ~0) is no ITS state: Offset 0xFFFE0 is a slot of a
 * 1 MiB queue, but bits [31:20] and [4:1] are RES0. With CWRITER at that
 * very slot it must not pass for "everything consumed".
 */
static void test_creadr_all_ones_is_not_progress(void **s)
{
	(void)s;
	struct env e;
	struct virq_sim_its_cfg mc = virq_sim_its_default_cfg();
	uint64_t val = 0xFFFFFFFFull;
	uint32_t n = 256 * 4096 / 32 - 1; /* fill a 1 MiB queue: CWRITER = 0xFFFE0 */

	mc.dead = true;
	env_up(&e, &mc, 256 * 4096, false);
	for (uint32_t i = 0; i < n; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	virq_sim_add_region(e.sim, ITS + LIBVIRQ_GITS_CREADR, 8, creadr_bogus_, NULL, &val);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_EHW);
	assert_int_equal(virq_sim_its_cwriter(e.m), 0xFFFE0);
	env_down(&e);
}

static void test_push_encoder_error_queues_nothing(void **s)
{
	(void)s;
	struct env e;
	struct virq_its_cmd c = virq_its_mapti(1, 2, 5 /* not an LPI */, 0);
	enum virq_its_field bad = LIBVIRQ_ITS_F_NONE;
	struct virq_its_limits lim;

	env_up(&e, NULL, 4096, false);
	assert_int_equal(virq_its_queue_push(&e.q, &c, NULL, NULL, &bad), LIBVIRQ_ERANGE);
	assert_int_equal(bad, LIBVIRQ_ITS_F_pINTID);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull, &lim);
	c = virq_its_mapd(70000, 1, 0, true);
	assert_int_equal(virq_its_queue_push(&e.q, &c, &lim, NULL, &bad), LIBVIRQ_ERANGE);
	assert_int_equal(bad, LIBVIRQ_ITS_F_DeviceID);
	assert_int_equal(virq_its_queue_submit(&e.q, &c, &lim, NULL, NULL), LIBVIRQ_ERANGE);
	assert_int_equal(virq_its_queue_publish(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_mmio_total(e.sim), 0);
	assert_int_equal(e.q.wr_lin, 0);
	/* push_raw copies verbatim. */
	uint8_t raw[32] = {0x05};
	assert_int_equal(virq_its_queue_push_raw(&e.q, raw), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 0)->op, 0x05);
	/* NULL arguments. */
	assert_int_equal(virq_its_queue_push(NULL, &c, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_push(&e.q, NULL, NULL, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_push_raw(&e.q, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_publish(NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_wait(NULL, 0, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_retry(NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_skip(&e.q, NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_stall_info(NULL, NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_reset(NULL), LIBVIRQ_EINVAL);
	assert_int_equal(virq_its_queue_stall_info(&e.q, NULL), LIBVIRQ_OK);
	env_down(&e);
}

static void test_submit_appends_sync(void **s)
{
	(void)s;
	struct env e;
	struct virq_its_sync sy;
	struct virq_its_limits l41;
	struct virq_its_cmd c;

	env_up(&e, NULL, 4096, false);
	virq_its_limits_from_typer(0x0000003F0001EFB3ull | (1ull << 40), &l41);
	/* MAPC -> MAPC + SYNC(RDbase), one doorbell. */
	c = virq_its_mapc(3, virq_its_rdbase_procnum(3), true);
	assert_int_equal(virq_its_queue_submit(&e.q, &c, NULL, &sy, NULL), LIBVIRQ_OK);
	assert_int_equal(sy.kind, LIBVIRQ_ITS_SYNC_RDBASE);
	assert_int_equal(virq_sim_its_ncmds(e.m), 2);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 1)->op, 0x05);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 1)->rd, 3 << 16);
	assert_int_equal(virq_sim_count_at(e.sim, LIBVIRQ_SIM_MMIO_W64, ITS + LIBVIRQ_GITS_CWRITER),
			 1);
	/* MAPD -> no SYNC. */
	c = virq_its_mapd(1, 4, 0x10000, true);
	assert_int_equal(virq_its_queue_submit(&e.q, &c, NULL, NULL, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(e.m), 3);
	/* VMAPTI -> VSYNC(vPEID). */
	c = virq_its_vmapti(1, 0, 9, 8192, LIBVIRQ_ITS_NO_DOORBELL);
	assert_int_equal(virq_its_queue_submit(&e.q, &c, &l41, NULL, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(e.m), 5);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 4)->op, 0x25);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 4)->vpe, 9);
	/* docs/rationale.md#gic-vmapp-unmap-no-vsync: 4.1 VMAPP unmap -> exactly [VMAPP(V=0,
	 * Alloc=1)], no VSYNC. */
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_VMAPP, .vPEID = 7, .Alloc = true};
	assert_int_equal(virq_its_queue_submit(&e.q, &c, &l41, &sy, NULL), LIBVIRQ_OK);
	assert_int_equal(sy.kind, LIBVIRQ_ITS_SYNC_NONE);
	assert_int_equal(virq_sim_its_ncmds(e.m), 6);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 5)->op, 0x29);
	assert_true(virq_sim_its_cmd_at(e.m, 5)->alloc);
	assert_false(virq_sim_its_cmd_at(e.m, 5)->valid);
	/* MOVALL: SYNC to both redistributors, the source first. */
	c = (struct virq_its_cmd){
	    .opcode = LIBVIRQ_ITS_MOVALL, .RDbase1 = 1ull << 16, .RDbase2 = 0};
	virq_sim_its_clear_log(e.m);
	assert_int_equal(virq_its_queue_submit(&e.q, &c, NULL, &sy, NULL), LIBVIRQ_OK);
	assert_int_equal(sy.src_kind, LIBVIRQ_ITS_SYNC_RDBASE);
	assert_int_equal(virq_sim_its_ncmds(e.m), 3);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 1)->op, 0x05);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 1)->rd, 1ull << 16);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 2)->op, 0x05);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 2)->rd, 0);
	virq_sim_its_clear_log(e.m);
	/* INT: the sync target is the caller's business (reported, not sent). */
	c = (struct virq_its_cmd){.opcode = LIBVIRQ_ITS_INT, .DeviceID = 1, .EventID = 0};
	assert_int_equal(virq_its_queue_submit(&e.q, &c, NULL, &sy, NULL), LIBVIRQ_OK);
	assert_int_equal(sy.kind, LIBVIRQ_ITS_SYNC_EVENT);
	assert_int_equal(virq_sim_its_ncmds(e.m), 1);
	env_down(&e);
}

/* The ITS stalls while push() waits for space: push reports it, retry resumes. */
static void test_stall_while_waiting_for_space(void **s)
{
	(void)s;
	struct env e;
	struct virq_its_queue_diag d;
	uint32_t i = 0;
	virq_status st = LIBVIRQ_OK;

	env_up(&e, NULL, 4096, false);
	virq_sim_its_stall_nth(e.m, 5);
	for (; i < 300; i++) {
		struct virq_its_cmd c = mapti_n(i);

		st = virq_its_queue_push(&e.q, &c, NULL, NULL, NULL);
		if (st != LIBVIRQ_OK)
			break;
	}
	assert_int_equal(st, LIBVIRQ_ESTALLED);
	/* 127 published; a full queue waits for half of it to drain (not one
	 * slot), so the stall after 4 commands is seen before any more push. */
	assert_int_equal(i, 127);
	assert_int_equal(virq_its_queue_stall_info(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.EventID, 4);
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	for (; i < 300; i++) {
		struct virq_its_cmd c = mapti_n(i);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	check_model_seq(&e, 0, 0, 300);
	env_down(&e);
}

/* A per-command model hook (how the device/vPE model layers on top) stalls on a
 * command until the "tables are fixed"; retry then completes it. */
struct hook_state {
	uint32_t bad_dev;
	unsigned seen;
};

static enum virq_sim_its_verdict hook_bad_dev(void *arg, struct virq_sim_its *m,
					      const struct virq_sim_its_cmd *c)
{
	struct hook_state *h = arg;

	(void)m;
	h->seen++;
	return c->op == 0x0A && c->dev == h->bad_dev ? LIBVIRQ_SIM_ITS_STALL : LIBVIRQ_SIM_ITS_OK;
}

static void test_model_hook_stall_fix_retry(void **s)
{
	(void)s;
	struct env e;
	struct hook_state h = {7, 0};
	struct virq_its_queue_diag d;
	const uint32_t devs[3] = {1, 7, 2};

	env_up(&e, NULL, 4096, false);
	virq_sim_its_add_hook(e.m, hook_bad_dev, &h);
	for (int i = 0; i < 3; i++) {
		struct virq_its_cmd c = virq_its_mapti(devs[i], 0, 8192, 0);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.DeviceID, 7);
	assert_int_equal(d.offset, 32);
	assert_int_equal(virq_sim_its_stalls(e.m), 1);
	h.bad_dev = 999; /* the caller fixed its tables */
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(e.m), 3);
	assert_int_equal(virq_sim_its_cmd_at(e.m, 1)->dev, 7);
	assert_int_equal(h.seen, 4); /* the stalled command was seen twice */
	env_down(&e);
}

/*
 * Architectural ITS (Stalled cleared by a successful Retry): the retried
 * command completes and a later one stalls before the next read. That is a
 * new stall, not QEMU's sticky bit: it and every later stall must be
 * reported at once, not only after the deadline.
 */
struct hook_devs {
	uint32_t bad[2];
};

static enum virq_sim_its_verdict hook_bad_devs(void *arg, struct virq_sim_its *m,
					       const struct virq_sim_its_cmd *c)
{
	struct hook_devs *h = arg;

	(void)m;
	return c->op == 0x0A && (c->dev == h->bad[0] || c->dev == h->bad[1]) ? LIBVIRQ_SIM_ITS_STALL
									     : LIBVIRQ_SIM_ITS_OK;
}

static void test_retry_into_new_stall_arch(void **s)
{
	(void)s;
	struct env e;
	struct hook_devs h = {{7, 8}};
	struct virq_its_queue_diag d;
	const uint32_t devs[4] = {1, 7, 8, 2};
	uint64_t t0;

	env_up(&e, NULL, 4096, false);
	virq_sim_its_add_hook(e.m, hook_bad_devs, &h);
	for (int i = 0; i < 4; i++) {
		struct virq_its_cmd c = virq_its_mapti(devs[i], 0, 8192, 0);
		push_ok(&e, &c);
	}
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.DeviceID, 7);
	h.bad[0] = 999; /* device 7 fixed; device 8 is still broken */
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	t0 = virq_sim_now(e.sim);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.DeviceID, 8);
	assert_int_equal(d.offset, 64);
	assert_int_equal(virq_sim_now(e.sim), t0); /* a trusted bit: at once */
	h.bad[1] = 999;
	assert_int_equal(virq_its_queue_retry(&e.q), LIBVIRQ_OK);
	assert_int_equal(virq_its_queue_drain(&e.q, NULL), LIBVIRQ_OK);
	assert_int_equal(virq_sim_its_ncmds(e.m), 4);
	/* A later stall on this ITS is still reported at once. */
	h.bad[0] = 9;
	struct virq_its_cmd c = virq_its_mapti(9, 0, 8192, 0);
	push_ok(&e, &c);
	t0 = virq_sim_now(e.sim);
	assert_int_equal(virq_its_queue_drain(&e.q, &d), LIBVIRQ_ESTALLED);
	assert_int_equal(d.cmd.DeviceID, 9);
	assert_int_equal(virq_sim_now(e.sim), t0);
	env_down(&e);
}

/* Model behaviour (docs/rationale.md#gic-its-bounds): a CWRITER offset outside the queue is
 * ignored. */
static void test_model_rejects_cwriter_beyond_queue(void **s)
{
	(void)s;
	struct env e;
	struct virq_hal *h;

	env_up(&e, NULL, 4096, false);
	h = &e.hal;
	h->ops->mmio_write64(h->ctx, ITS + LIBVIRQ_GITS_CWRITER, 0x1000);
	assert_int_equal(virq_sim_its_bad_cwriter(e.m), 1);
	assert_int_equal(virq_sim_its_ncmds(e.m), 0);
	h->ops->mmio_write64(h->ctx, ITS + LIBVIRQ_GITS_CWRITER, 0xFE0); /* offset 127: fine */
	assert_int_equal(virq_sim_its_bad_cwriter(e.m), 1);
	assert_int_equal(virq_sim_its_ncmds(e.m),
			 127); /* zeroed slots: unknown opcode 0, skipped */
	assert_int_equal(virq_sim_its_unknown(e.m), 127);
	env_down(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_programs_cbaser),
	    cmocka_unit_test(test_init_nonshareable_readback),
	    cmocka_unit_test(test_init_inner_nc_readback_cleans_commands),
	    cmocka_unit_test(test_init_dma_noncoherent),
	    cmocka_unit_test(test_init_errors),
	    cmocka_unit_test(test_init_cbaser_not_sticking),
	    cmocka_unit_test(test_batch_exact_mmio),
	    cmocka_unit_test(test_many_batches_wrap),
	    cmocka_unit_test(test_big_batch_cwriter_writes),
	    cmocka_unit_test(test_slow_its),
	    cmocka_unit_test(test_dead_its_timeout_and_reset),
	    cmocka_unit_test(test_reset_never_quiescent),
	    cmocka_unit_test(test_queue_full_never_overwrites),
	    cmocka_unit_test(test_queue_full_slow_its_waits),
	    cmocka_unit_test(test_stall_retry_arch),
	    cmocka_unit_test(test_stall_retry_qemu_sticky),
	    cmocka_unit_test(test_stall_skip),
	    cmocka_unit_test(test_skip_noncoherent_cleans),
	    cmocka_unit_test(test_noncoherent_wrap_cleans_two_ranges),
	    cmocka_unit_test(test_impossible_creadr),
	    cmocka_unit_test(test_push_encoder_error_queues_nothing),
	    cmocka_unit_test(test_submit_appends_sync),
	    cmocka_unit_test(test_stall_while_waiting_for_space),
	    cmocka_unit_test(test_model_hook_stall_fix_retry),
	    cmocka_unit_test(test_retry_into_new_stall_arch),
	    cmocka_unit_test(test_creadr_all_ones_is_not_progress),
	    cmocka_unit_test(test_model_rejects_cwriter_beyond_queue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
