// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABCABC test (tools/lib/lockdep/tests/ABCABC.c in
 * Linux before 5.19): the three pairs of ABBCCA in another order - A then
 * B, C then A, and last B then C, which closes A -> B -> C -> A from the
 * middle of the chain rather than its end.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (ABCABC.sh).
 * uirq-lockdep: one report, at B -> C.
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
	lock_pair(&c, &a);
	lock_pair(&b, &c);
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
