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

int main(void)
{
	pthread_mutex_t a, b, c;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_mutex_init(&c, NULL));
	lock_nested(&a, &b);
	lock_nested(&c, &a);
	lock_nested(&b, &c);
	ok(pthread_mutex_destroy(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&a));
	return 0;
}
