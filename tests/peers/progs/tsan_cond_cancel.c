// SPDX-License-Identifier: MIT
/*
 * Port of TSan's cond_cancel test (compiler-rt/test/tsan/cond_cancel.c in
 * LLVM): a thread takes the mutex, pushes a cleanup handler that unlocks
 * it, and waits on a condition variable that is never signalled; main
 * cancels it.  Cancellation in pthread_cond_wait takes the mutex again
 * before the cleanup handlers run, so the handler's unlock is right; main
 * then locks and unlocks the mutex.  (The peer sleeps a second to let the
 * thread block; here main waits until it sits in the kernel.)
 *
 * TSan: no report.
 * uirq-lockdep: no report: the thread ends holding nothing, and its
 * handler's unlock balances the wait's re-acquisition.
 *
 * peer-verdict: none
 */
#include "peer.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static atomic_int waiter_tid;
static int never;

static void unlock_it(void *arg)
{
	ok(pthread_mutex_unlock(arg));
}

static void *wait_for_ever(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&m));
	pthread_cleanup_push(unlock_it, &m);
	publish_tid(&waiter_tid);
	while (!never)
		ok(pthread_cond_wait(&c, &m));
	pthread_cleanup_pop(1);
	return NULL;
}

int main(void)
{
	pthread_t t;

	ok(pthread_create(&t, NULL, wait_for_ever, NULL));
	wait_stuck(&waiter_tid, 1);
	ok(pthread_cancel(t));
	ok(pthread_join(t, NULL));
	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	fprintf(stderr, "OK\n");
	return 0;
}
