// SPDX-License-Identifier: MIT
/*
 * Port of TSan's Linux/mutex_robust2 test (compiler-rt/test/tsan/Linux/
 * mutex_robust2.cpp in LLVM): as mutex_robust, but main takes the dead
 * owner's robust mutex with pthread_mutex_trylock (EOWNERDEAD again: main
 * holds it), and both threads write x, the thread under the mutex, main
 * after recovering it.
 *
 * TSan: "data race" on x - a false positive the peer records as such (the
 * recovery should order the two writes) - and no "double lock".
 * uirq-lockdep: one "still has locks held!" report, for the thread that
 * ended holding the mutex (as in mutex_robust; races are not its
 * business).  The EOWNERDEAD trylock counts as an acquisition: main's
 * unlock after marking the mutex consistent balances it.
 *
 * Main waits for the thread to be gone (the peer sleeps a second) without
 * joining it, so that nothing but the mutex orders the two writes.
 *
 * peer-verdict: race
 */
#include "peer.h"

static pthread_mutex_t m;
static int x;
static atomic_int thread_tid;

static void *die_holding(void *arg)
{
	(void)arg;
	publish_tid(&thread_tid);	/* for main to wait for its end */
	ok(pthread_mutex_lock(&m));
	x = 42;
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_t t;

	ok(pthread_mutexattr_init(&a));
	ok(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	ok(pthread_mutex_init(&m, &a));
	ok(pthread_create(&t, NULL, die_holding, NULL));
	wait_gone(&thread_tid);
	expect(pthread_mutex_trylock(&m), EOWNERDEAD);
	x = 43;
	ok(pthread_mutex_consistent(&m));
	ok(pthread_mutex_unlock(&m));
	ok(pthread_join(t, NULL));
	fprintf(stderr, "DONE\n");
	return 0;
}
