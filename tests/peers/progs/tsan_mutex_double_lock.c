// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_double_lock test (compiler-rt/test/tsan/
 * mutex_double_lock.cpp in LLVM).  The peer uses TSan's annotations: main
 * declares a lock acquired and never released, then a second thread
 * declares the same lock acquired - two owners at once.
 *
 * With a real pthread mutex the second owner cannot happen: the thread
 * waits.  Here main holds the mutex and the thread asks for it with a
 * 50 ms timed lock, which times out; main then releases the mutex.
 *
 * TSan: "double lock of a mutex" (for the annotations).
 * uirq-lockdep: no report.  Waiting for a mutex another thread holds is
 * what a mutex is for; a lock attempt that times out adds no hold.
 *
 * peer-verdict: double lock (via annotations)
 */
#include "peer.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *try_to_take_it_too(void *arg)
{
	struct timespec t = deadline_ms(50);

	(void)arg;
	expect(pthread_mutex_timedlock(&m, &t), ETIMEDOUT);
	return NULL;
}

int main(void)
{
	ok(pthread_mutex_lock(&m));
	run_thread(try_to_take_it_too, NULL);
	ok(pthread_mutex_unlock(&m));
	return 0;
}
