// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABBCCA test (tools/lib/lockdep/tests/ABBCCA.c in
 * Linux before 5.19): three mutexes taken in pairs, one pair after the
 * other in one thread: A then B, B then C, C then A.  No pair overlaps
 * another, yet the order A -> B -> C -> A is a cycle: three threads doing
 * one pair each can deadlock.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (ABBCCA.sh).
 * uirq-lockdep: one report, when C -> A closes the cycle.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t a, b, c;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_mutex_init(&c, NULL));
	lock_nested(&a, &b);
	lock_nested(&b, &c);
	lock_nested(&c, &a);
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
