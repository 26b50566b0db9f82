// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABCDBDDA test (tools/lib/lockdep/tests/ABCDBDDA.c
 * in Linux before 5.19): A then B, C then D, B then D, D then A.  The
 * cycle is A -> B -> D -> A; C only leads into it (C -> D) and is not part
 * of it.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (ABCDBDDA.sh).
 * uirq-lockdep: one report, at D -> A.
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
	pthread_mutex_t a, b, c, d;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_mutex_init(&c, NULL));
	ok(pthread_mutex_init(&d, NULL));
	lock_pair(&a, &b);
	lock_pair(&c, &d);
	lock_pair(&b, &d);
	lock_pair(&d, &a);
	ok(pthread_mutex_destroy(&d));
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
