// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABBA_2threads test (tools/lib/lockdep/tests/
 * ABBA_2threads.c in Linux before 5.19): one thread holds A, the other
 * holds B, they meet at a barrier, then each asks for the other's mutex.
 *
 * That is a real deadlock.  The peer's main thread is one of the two; here
 * both sides are threads that main leaves stuck, so the program exits 0.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (the test has no .sh of its own in the tree; the ABBA family's scripts
 * all grep for that line).
 * uirq-lockdep: one report, from whichever thread asks second, made before
 * it blocks.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;
static atomic_int stuck[2];

static void *a_then_b(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&a));
	pthread_barrier_wait(&both_hold_one);
	publish_tid(&stuck[0]);
	pthread_mutex_lock(&b);		/* never returns */
	return NULL;
}

static void *b_then_a(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	pthread_barrier_wait(&both_hold_one);
	publish_tid(&stuck[1]);
	pthread_mutex_lock(&a);		/* never returns */
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	ok(pthread_barrier_init(&both_hold_one, NULL, 2));
	ok(pthread_create(&t1, NULL, a_then_b, NULL));
	ok(pthread_create(&t2, NULL, b_then_a, NULL));
	wait_stuck(stuck, 2);
	return 0;
}
