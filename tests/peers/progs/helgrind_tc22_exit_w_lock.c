// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc22_exit_w_lock test (valgrind helgrind/tests/
 * tc22_exit_w_lock.c, expected output tc22_exit_w_lock.stderr.exp): three
 * threads end holding locks, each in its own way.
 *   child2 locks mxC2 and mxC2b, detaches itself and returns;
 *   child1 locks mxC1 and returns, and is joined;
 *   main locks mxP and kills the process with SIGABRT.
 * The peer orders the exits with sleep(1); here main waits until each
 * child is gone.
 *
 * Helgrind: "Exiting thread still holds 2 locks", "... holds 1 lock", and,
 * as the process dies of SIGABRT, "... holds 1 lock" for main - 3 errors.
 * uirq-lockdep: two "still has locks held!" reports, for child2 and
 * child1; the program dies of SIGABRT.  Nothing can be said for main: a
 * process killed by a signal runs none of its code any more, and an
 * in-process validator dies with it.  (Helgrind, outside the process,
 * sees the death.)
 *
 * peer-verdict: held at exit x3
 */
#include "peer.h"

#include <signal.h>

static pthread_mutex_t mxC1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mxC2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mxC2b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mxP = PTHREAD_MUTEX_INITIALIZER;
static atomic_int child2_tid;

/* Ends the ordinary way and is joined. */
static void *child_fn1(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mxC1));
	return NULL;
}

/* Detaches itself and ends on its own. */
static void *child_fn2(void *arg)
{
	(void)arg;
	publish_tid(&child2_tid);	/* for main to wait for its end */
	ok(pthread_mutex_lock(&mxC2));
	ok(pthread_mutex_lock(&mxC2b));
	ok(pthread_detach(pthread_self()));
	return NULL;
}

int main(void)
{
	pthread_t child1, child2;

	ok(pthread_create(&child2, NULL, child_fn2, NULL));
	wait_gone(&child2_tid);

	ok(pthread_create(&child1, NULL, child_fn1, NULL));
	ok(pthread_join(child1, NULL));

	ok(pthread_mutex_lock(&mxP));
	kill(getpid(), SIGABRT);
	return 0;
}
