// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABCDBCDA test (tools/lib/lockdep/tests/ABCDBCDA.c
 * in Linux before 5.19): A then B, C then D (two separate chains), B then
 * C (joining them into A -> B -> C -> D), then D then A, which closes the
 * cycle.
 *
 * liblockdep: "WARNING: possible circular locking dependency detected"
 * (ABCDBCDA.sh).
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
	lock_nested(&b, &c);
	lock_nested(&d, &a);
	ok(pthread_mutex_destroy(&d));
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
