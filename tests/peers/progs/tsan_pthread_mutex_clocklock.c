// SPDX-License-Identifier: MIT
/*
 * Port of TSan's pthread_mutex_clocklock test (compiler-rt/test/tsan/
 * pthread_mutex_clocklock.cpp in LLVM): main takes a mutex with
 * pthread_mutex_clocklock (CLOCK_REALTIME, a deadline long past, which
 * does not matter for a free mutex); a thread tries it and fails; main
 * unlocks it.
 *
 * TSan: no "unlock of an unlocked mutex" (the regression was a clocklock
 * that TSan did not see).
 * uirq-lockdep: no report: the clocklock is an acquisition, the failed
 * trylock is nothing, the unlock balances.
 *
 * peer-verdict: none
 */
#include "peer.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *try_it(void *arg)
{
	(void)arg;
	expect(pthread_mutex_trylock(&m), EBUSY);
	return NULL;
}

int main(void)
{
	struct timespec long_ago = { 0, 0 };

	ok(pthread_mutex_clocklock(&m, CLOCK_REALTIME, &long_ago));
	run_thread(try_it, NULL);
	ok(pthread_mutex_unlock(&m));
	fprintf(stderr, "PASS\n");
	return 0;
}
