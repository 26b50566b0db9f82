// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's ABA test (tools/lib/lockdep/tests/ABA.c in Linux
 * before 5.19): take A, then B, then A again while still holding both.
 *
 * The second A really deadlocks; the locking runs in a thread that main
 * leaves stuck (the peer relied on "timeout 1").
 *
 * liblockdep: "WARNING: possible recursive locking detected" (ABA.sh).
 * uirq-lockdep: the same, once, before the thread blocks; holding B in
 * between changes nothing.
 *
 * peer-verdict: recursive
 */
#include "peer.h"

static pthread_mutex_t a, b;
static atomic_int locker_tid;

static void *a_b_a(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&b));
	publish_tid(&locker_tid);
	pthread_mutex_lock(&a);		/* never returns */
	return NULL;
}

int main(void)
{
	pthread_t t;

	ok(pthread_mutex_init(&a, NULL));
	ok(pthread_mutex_init(&b, NULL));
	ok(pthread_create(&t, NULL, a_b_a, NULL));
	wait_stuck(&locker_tid, 1);
	return 0;
}
