// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's WW test (tools/lib/lockdep/tests/WW.c in Linux
 * before 5.19): rwlock A write-locked, rwlock B read-locked, then A
 * write-locked again by the same thread.
 *
 * glibc notices the relock of an rwlock its caller write-holds and answers
 * EDEADLK instead of blocking, so unlike AA this program does not hang.
 *
 * liblockdep: "WARNING: possible recursive locking detected" (WW has no .sh
 * of its own in the tree; AA.sh and ABA.sh grep for that line).
 * uirq-lockdep: the same, once; the refused relock leaves A held once.
 *
 * peer-verdict: recursive
 */
#include "peer.h"

int main(void)
{
	pthread_rwlock_t a, b;

	ok(pthread_rwlock_init(&a, NULL));
	ok(pthread_rwlock_init(&b, NULL));
	ok(pthread_rwlock_wrlock(&a));
	ok(pthread_rwlock_rdlock(&b));
	expect(pthread_rwlock_wrlock(&a), EDEADLK);
	ok(pthread_rwlock_unlock(&b));
	ok(pthread_rwlock_unlock(&a));
	ok(pthread_rwlock_destroy(&b));
	ok(pthread_rwlock_destroy(&a));
	return 0;
}
