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

static void lock_pair(pthread_mutex_t *outer, pthread_mutex_t *inner)
{
	ok(pthread_mutex_lock(outer));
	ok(pthread_mutex_lock(inner));
	ok(pthread_mutex_unlock(inner));
	ok(pthread_mutex_unlock(outer));
}

int main(void)
{
	pthread_mutex_t a, b, c;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_mutex_init(&c, NULL));
	lock_pair(&a, &b);
	lock_pair(&b, &c);
	lock_pair(&c, &a);
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
