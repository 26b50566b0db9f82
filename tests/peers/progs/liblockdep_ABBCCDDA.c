// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABBCCDDA test (tools/lib/lockdep/tests/ABBCCDDA.c
 * in Linux before 5.19): four mutexes taken in pairs, one pair at a time:
 * A then B, B then C, C then D, D then A - a cycle of length four that
 * only the transitive order shows.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (ABBCCDDA.sh).
 * uirq-lockdep: one report, when D -> A closes the cycle.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t a, b, c, d;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_mutex_init(&c, NULL));
	ok(pthread_mutex_init(&d, NULL));
	lock_nested(&a, &b);
	lock_nested(&b, &c);
	lock_nested(&c, &d);
	lock_nested(&d, &a);
	ok(pthread_mutex_destroy(&d));
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
