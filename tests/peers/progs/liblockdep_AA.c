// SPDX-License-Identifier: MIT
/*
 * Port of liblockdep's AA test (Linux tools/lib/lockdep/tests/AA.c, removed
 * from the kernel tree in 5.19): one mutex taken twice by the same thread.
 *
 * The second lock really deadlocks.  The peer lets run_tests.sh's
 * "timeout 1" end it; here the two locks run in a thread that main leaves
 * stuck, so the program exits 0 once the report is out.
 *
 * liblockdep: "WARNING: possible recursive locking detected" (AA.sh greps
 * for it).
 * uirq-lockdep: the same, once, before the thread blocks.
 *
 * peer-verdict: recursive
 */
#include "peer.h"

static atomic_int locker_tid;

static void *lock_twice(void *arg)
{
	pthread_mutex_t *lock = arg;

	ok(pthread_mutex_lock(lock));
	publish_tid(&locker_tid);
	pthread_mutex_lock(lock);	/* never returns */
	return NULL;
}

int main(void)
{
	static pthread_mutex_t lock;
	pthread_t t;

	ok(pthread_mutex_init(&lock, NULL));
	ok(pthread_create(&t, NULL, lock_twice, &lock));
	wait_stuck(&locker_tid, 1);
	return 0;
}
