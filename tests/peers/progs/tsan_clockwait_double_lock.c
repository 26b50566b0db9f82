// SPDX-License-Identifier: MIT
/*
 * Port of TSan's Linux/clockwait_double_lock test (compiler-rt/test/tsan/
 * Linux/clockwait_double_lock.c in LLVM; a regression test for TSan
 * treating the mutex as locked twice after pthread_cond_clockwait): main
 * holds the mutex and waits with pthread_cond_clockwait on CLOCK_MONOTONIC;
 * a thread takes the mutex, signals, releases it.
 *
 * TSan: no report (the test only has to run cleanly).
 * uirq-lockdep: no report; the wait releases the mutex and takes it back,
 * so main's final unlock balances.
 *
 * peer-verdict: none
 */
#include "peer.h"

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool signalled;

static void *signaller(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mtx));
	signalled = true;
	ok(pthread_cond_signal(&cv));
	ok(pthread_mutex_unlock(&mtx));
	return NULL;
}

int main(void)
{
	struct timespec until;
	pthread_t t;

	ok(pthread_mutex_lock(&mtx));
	ok(pthread_create(&t, NULL, signaller, NULL));
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 10;
	while (!signalled)
		ok(pthread_cond_clockwait(&cv, &mtx, CLOCK_MONOTONIC, &until));
	ok(pthread_mutex_unlock(&mtx));
	ok(pthread_join(t, NULL));
	return 0;
}
