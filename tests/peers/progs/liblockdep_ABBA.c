// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABBA test (tools/lib/lockdep/tests/ABBA.c in Linux
 * before 5.19): A then B, B then A, one after the other in one thread; then
 * both mutexes are destroyed, initialised again in the same memory, and
 * the inversion is made a second time.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (its ABBA.sh greps for one; the kernel's lockdep turns itself off after
 * the first report, so it never says anything about the second round).
 * uirq-lockdep: one report.  The destroy drops the first pair's
 * dependencies, so the second round is checked afresh and finds the same
 * inversion again: the same two locks (same memory, same names) taken at
 * the same places.  A second report would read exactly like the first; it
 * is the same problem, reported once.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t a, b;

	for (int round = 0; round < 2; round++) {
		ok(pthread_mutex_init(&a, NULL));
		ok(pthread_mutex_init(&b, NULL));
		lock_nested(&a, &b);
		lock_nested(&b, &a);
		ok(pthread_mutex_destroy(&b));
		ok(pthread_mutex_destroy(&a));
	}
	return 0;
}
