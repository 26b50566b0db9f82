// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's unlock_balance test (tools/lib/lockdep/tests/
 * unlock_balance.c in Linux before 5.19): lock a mutex once, unlock it
 * twice.
 *
 * glibc lets the second unlock of a normal mutex through (it returns 0)
 * but counts it: the mutex's user count is left at -1, so the destroy that
 * ends the test is refused with EBUSY.
 *
 * liblockdep: "WARNING: bad unlock balance detected" (unlock_balance.sh).
 * uirq-lockdep: the same, once.
 *
 * peer-verdict: bad unlock
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t a;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_mutex_unlock(&a));
	expect(pthread_mutex_destroy(&a), EBUSY);
	return 0;
}
