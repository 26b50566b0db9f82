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

int main(void)
{
	pthread_mutex_t a, b, c, d;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_mutex_init(&c, NULL));
	ok(pthread_mutex_init(&d, NULL));
	lock_nested(&a, &b);
	lock_nested(&c, &d);
	lock_nested(&b, &d);
	lock_nested(&d, &a);
	ok(pthread_mutex_destroy(&d));
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
