// SPDX-License-Identifier: MIT
/*
 * Port of TSan's Linux/mutex_robust test (compiler-rt/test/tsan/Linux/
 * mutex_robust.cpp in LLVM): a thread locks a robust mutex and returns
 * without unlocking it; main then locks it and gets EOWNERDEAD, which
 * means main now holds it.  (The peer sleeps a second to let the thread
 * finish; here main joins it first.)  Main returns holding the mutex, as
 * in the peer.
 *
 * TSan: no report ("This is a correct code, and tsan must not bark").
 * uirq-lockdep: one "still has locks held!" report, for the thread that
 * ended holding the mutex.  This difference is deliberate: robustness is
 * how a program recovers from an owner's death, not a licence for a thread
 * to return holding a lock.  Main's lock must count as an acquisition
 * despite the error code: nothing else (no bad unlock, no report at exit).
 *
 * peer-verdict: none
 */
#include "peer.h"

static pthread_mutex_t m;

static void *die_holding(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&m));
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t a;

	ok(pthread_mutexattr_init(&a));
	ok(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	ok(pthread_mutex_init(&m, &a));
	run_thread(die_holding, NULL);
	expect(pthread_mutex_lock(&m), EOWNERDEAD);
	fprintf(stderr, "DONE\n");
	return 0;
}
