// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_destroy_locked2 test (compiler-rt/test/tsan/
 * mutex_destroy_locked2.cpp in LLVM): a thread initialises a mutex on its
 * stack, locks it, destroys it while holding it, and returns.
 *
 * glibc refuses the destroy with EBUSY, so the thread ends still holding
 * the mutex.
 *
 * TSan: "destroy of a locked mutex" in that thread.
 * uirq-lockdep: one "held lock freed!" report, and one "still has locks
 * held!" for the thread's exit - two distinct problems.
 *
 * peer-verdict: held freed
 */
#include "peer.h"

static void *destroy_while_held(void *arg)
{
	pthread_mutex_t m;

	(void)arg;
	ok(pthread_mutex_init(&m, NULL));
	ok(pthread_mutex_lock(&m));
	expect(pthread_mutex_destroy(&m), EBUSY);
	return NULL;
}

int main(void)
{
	run_thread(destroy_while_held, NULL);
	return 0;
}
