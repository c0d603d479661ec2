/* SPDX-License-Identifier: MIT */
/*
 * Stress: poster threads post vectors to vCPUs while vCPU threads load, run
 * (consuming the IRR as hardware would on a doorbell), put, block and
 * unblock them. A blocked vCPU sleeps until kicked; if an interrupt is
 * pending while it sleeps past a deadline, a wake-up was lost. Posters
 * sometimes wait for their vector to be delivered. At the end every posted
 * vector was delivered (while running, or from the IRR at the next entry).
 * Labelled avic;concurrency: CI runs it under ThreadSanitizer.
 */
#define _GNU_SOURCE
#include "avic_test.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#define NV 3
#define NP 2
#define POSTS 30000
#define WAIT_NS 2000000000ll

struct vthr {
	struct at_vm *t;
	uint32_t i;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned long gen;
	pthread_t th;
};

static struct vthr vt[NV];
static int stop;
static unsigned long seq;
static unsigned long last_post[NV][256], last_deliv[NV][256];
static unsigned long lost_wakeups, ack_timeouts, deliveries, blocks, sleeps;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void kick_hook(void *arg, struct virq_sim *sim, void *cookie)
{
	uint32_t i = (uint32_t)((uintptr_t)cookie - 0x1000);

	(void)arg;
	(void)sim;
	pthread_mutex_lock(&vt[i].mu);
	vt[i].gen++;
	pthread_cond_signal(&vt[i].cv);
	pthread_mutex_unlock(&vt[i].mu);
}

/* The "hardware" delivering pending IRR bits to the running guest. */
static void consume(struct at_vm *t, uint32_t i)
{
	for (uint32_t w = 0; w < 8; w++) {
		uint32_t *p = at_reg(t, i, 0x200 + w * 0x10);
		uint32_t bits = __atomic_exchange_n(p, 0, __ATOMIC_SEQ_CST);

		while (bits) {
			uint32_t v = w * 32 + (uint32_t)__builtin_ctz(bits);
			unsigned long s = __atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);

			bits &= bits - 1;
			__atomic_store_n(&last_deliv[i][v], s, __ATOMIC_SEQ_CST);
			__atomic_add_fetch(&deliveries, 1, __ATOMIC_RELAXED);
		}
	}
}

static void enter(struct vthr *v)
{
	struct virq_avic_vmcb_values vals;

	assert_int_equal(virq_avic_vcpu_vmcb_values(&v->t->v[v->i], &vals), LIBVIRQ_OK);
}

static void *vcpu_thread(void *arg)
{
	struct vthr *v = arg;
	struct virq_avic_vcpu *c = &v->t->v[v->i];
	unsigned r = v->i * 7919u + 1;

	assert_int_equal(virq_avic_vcpu_load(c, 0x100 + v->i), LIBVIRQ_OK);
	enter(v);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		/* VMRUN evaluates the IRR; doorbells make it re-evaluate while running. */
		for (int k = 0; k < 20; k++) {
			consume(v->t, v->i);
			sched_yield();
		}
		r = r * 1103515245u + 12345u;
		if ((r >> 16) % 3 == 0) {
			/* Preempted: put, then load again (maybe on the same pCPU). */
			assert_int_equal(virq_avic_vcpu_put(c), LIBVIRQ_OK);
			sched_yield();
			assert_int_equal(virq_avic_vcpu_load(c, 0x100 + v->i), LIBVIRQ_OK);
			enter(v);
			continue;
		}
		/* HLT: block, re-check pending, sleep until kicked. */
		pthread_mutex_lock(&v->mu);
		unsigned long g = v->gen;
		pthread_mutex_unlock(&v->mu);
		assert_int_equal(virq_avic_vcpu_block(c), LIBVIRQ_OK);
		__atomic_add_fetch(&blocks, 1, __ATOMIC_RELAXED);
		if (!virq_avic_vcpu_pending(c, NULL)) {
			long long deadline = now_ns() + WAIT_NS;

			__atomic_add_fetch(&sleeps, 1, __ATOMIC_RELAXED);
			pthread_mutex_lock(&v->mu);
			while (v->gen == g && !__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
				struct timespec ts = {(time_t)(deadline / 1000000000ll),
						      (long)(deadline % 1000000000ll)};

				if (pthread_cond_timedwait(&v->cv, &v->mu, &ts) != 0 &&
				    now_ns() >= deadline) {
					if (virq_avic_vcpu_pending(c, NULL))
						__atomic_add_fetch(&lost_wakeups, 1,
								   __ATOMIC_SEQ_CST);
					break;
				}
			}
			pthread_mutex_unlock(&v->mu);
		}
		assert_int_equal(virq_avic_vcpu_unblock(c, 0x100 + v->i), LIBVIRQ_OK);
		enter(v);
	}
	assert_int_equal(virq_avic_vcpu_put(c), LIBVIRQ_OK);
	return NULL;
}

static void *post_thread(void *arg)
{
	struct at_vm *t = ((void **)arg)[0];
	uint32_t p = (uint32_t)(uintptr_t)((void **)arg)[1];
	unsigned r = p * 104729u + 3;

	for (int k = 0; k < POSTS; k++) {
		uint32_t i, vec;
		unsigned long s;
		virq_status st;

		r = r * 1103515245u + 12345u;
		i = (r >> 8) % NV;
		vec = 32 + ((r >> 12) % 224);
		s = __atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&last_post[i][vec], s, __ATOMIC_SEQ_CST);
		st = virq_avic_post(&t->v[i], vec, 0x200 + p);
		assert_int_equal(st, LIBVIRQ_OK);
		if ((r >> 20) % 8 == 0) {
			/* Wait until this post was delivered (bounded). */
			long long deadline = now_ns() + WAIT_NS;

			while (__atomic_load_n(&last_deliv[i][vec], __ATOMIC_SEQ_CST) <= s) {
				if (now_ns() > deadline) {
					__atomic_add_fetch(&ack_timeouts, 1, __ATOMIC_SEQ_CST);
					break;
				}
				sched_yield();
			}
		}
	}
	return NULL;
}

static void stress(void **s)
{
	struct at_vm t;
	pthread_t pt[NP];
	void *pargs[NP][2];
	pthread_condattr_t ca;
	struct virq_avic_vcpu_counters c, sum = {0};

	(void)s;
	at_vm_new(&t, LIBVIRQ_AVIC_MODE_X2AVIC, NV);
	virq_sim_on_kick(t.sim, kick_hook, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	for (uint32_t i = 0; i < NV; i++) {
		vt[i].t = &t;
		vt[i].i = i;
		pthread_mutex_init(&vt[i].mu, NULL);
		pthread_cond_init(&vt[i].cv, &ca);
		assert_int_equal(pthread_create(&vt[i].th, NULL, vcpu_thread, &vt[i]), 0);
	}
	for (uint32_t p = 0; p < NP; p++) {
		pargs[p][0] = &t;
		pargs[p][1] = (void *)(uintptr_t)p;
		assert_int_equal(pthread_create(&pt[p], NULL, post_thread, pargs[p]), 0);
	}
	for (uint32_t p = 0; p < NP; p++)
		pthread_join(pt[p], NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (uint32_t i = 0; i < NV; i++) {
		kick_hook(NULL, t.sim, t.v[i].cookie);
		pthread_join(vt[i].th, NULL);
	}
	/* Next entry: whatever is still in the IRR is delivered now. */
	for (uint32_t i = 0; i < NV; i++)
		consume(&t, i);
	for (uint32_t i = 0; i < NV; i++)
		for (uint32_t v = 0; v < 256; v++)
			if (last_post[i][v] && last_deliv[i][v] <= last_post[i][v])
				fail_msg("vCPU %u vector %u posted at %lu, last delivered %lu", i,
					 v, last_post[i][v], last_deliv[i][v]);
	for (uint32_t i = 0; i < NV; i++) {
		virq_avic_vcpu_counters_get(&t.v[i], &c);
		sum.posts += c.posts;
		sum.coalesced += c.coalesced;
		sum.doorbells += c.doorbells;
		sum.kicks += c.kicks;
	}
	print_message("deliveries %lu blocks %lu sleeps %lu posts %lu coalesced %lu doorbells %lu "
		      "kicks %lu\n",
		      deliveries, blocks, sleeps, (unsigned long)sum.posts,
		      (unsigned long)sum.coalesced, (unsigned long)sum.doorbells,
		      (unsigned long)sum.kicks);
	assert_int_equal(lost_wakeups, 0);
	assert_int_equal(ack_timeouts, 0);
	assert_true(deliveries > 0);
	for (uint32_t i = 0; i < NV; i++) {
		pthread_mutex_destroy(&vt[i].mu);
		pthread_cond_destroy(&vt[i].cv);
	}
	pthread_condattr_destroy(&ca);
	at_vm_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(stress)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
