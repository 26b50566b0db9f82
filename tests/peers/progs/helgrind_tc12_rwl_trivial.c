// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc12_rwl_trivial test (valgrind helgrind/tests/
 * tc12_rwl_trivial.c, expected output tc12_rwl_trivial.stderr.exp): an
 * rwlock write-locked and unlocked, read-locked twice and unlocked twice,
 * then unlocked once more though nobody holds it (glibc returns 0 on
 * Linux, and its reader count is wrong from then on).
 *
 * Helgrind: "unlocked a not-locked lock" - 1 error.
 * uirq-lockdep: one "bad unlock balance detected!" report; the two reads
 * by one thread are a legal recursive read of glibc's default rwlock.
 *
 * peer-verdict: bad unlock
 */
#include "peer.h"

int main(void)
{
	pthread_rwlock_t rwl;

	ok(pthread_rwlock_init(&rwl, NULL));
	ok(pthread_rwlock_wrlock(&rwl));
	ok(pthread_rwlock_unlock(&rwl));
	ok(pthread_rwlock_rdlock(&rwl));
	ok(pthread_rwlock_rdlock(&rwl));
	ok(pthread_rwlock_unlock(&rwl));
	ok(pthread_rwlock_unlock(&rwl));
	ok(pthread_rwlock_unlock(&rwl));	/* ERROR: nobody holds it */
	ok(pthread_rwlock_destroy(&rwl));
	return 0;
}
