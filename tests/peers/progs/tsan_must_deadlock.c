// SPDX-License-Identifier: MIT
/*
 * Port of TSan's must_deadlock test (compiler-rt/test/tsan/must_deadlock.cc
 * in LLVM): the second thread takes mu2, main takes mu1, they meet at a
 * barrier, then each asks for the other's mutex - a deadlock that really
 * happens.  The peer arms alarm(3) and dies of it; here both sides are
 * threads that main leaves stuck, so the program exits 0.
 *
 * TSan: the test wants "lock-order-inversion" but is marked XFAIL: TSan
 * checks the lock-order graph after pthread_mutex_lock returns, and these
 * calls never return, so it says nothing.
 * uirq-lockdep: one circular-dependency report.  Each acquisition is
 * validated before the real call, so the thread that asks second reports
 * the cycle before it blocks.
 *
 * peer-verdict: hang (XFAIL: cycle expected, never reported)
 */
#include "peer.h"

static pthread_mutex_t mu1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mu2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;
static atomic_int stuck[2];

static void *mu2_then_mu1(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mu2));
	pthread_barrier_wait(&both_hold_one);
	publish_tid(&stuck[0]);
	pthread_mutex_lock(&mu1);	/* never returns */
	return NULL;
}

static void *mu1_then_mu2(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mu1));
	pthread_barrier_wait(&both_hold_one);
	publish_tid(&stuck[1]);
	pthread_mutex_lock(&mu2);	/* never returns */
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	ok(pthread_barrier_init(&both_hold_one, NULL, 2));
	ok(pthread_create(&t1, NULL, mu2_then_mu1, NULL));
	ok(pthread_create(&t2, NULL, mu1_then_mu2, NULL));
	wait_stuck(stuck, 2);
	return 0;
}
