// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc04_free_lock test (valgrind helgrind/tests/
 * tc04_free_lock.c, expected output tc04_free_lock.stderr.exp): memory
 * that holds a locked mutex is given up while the mutex is held.
 *   1. A struct in malloc'ed memory with a mutex in it is initialised,
 *      locked and freed.
 *   2. bar(): a stack mutex set to PTHREAD_MUTEX_INITIALIZER is locked and
 *      abandoned as the function returns.
 *   3. foo(): the same, but the stack mutex is set up with
 *      pthread_mutex_init.
 *   4. bar() again.
 * The peer has bar() and foo() as two functions; here both are one
 * function, so that their mutex is at the same stack address every time,
 * as the peer (whose two frames have the same layout) intends.
 *
 * Helgrind: "Exiting thread still holds 2 locks" for main - 1 error (it
 * forgets locks in freed memory silently).
 * uirq-lockdep:
 *   1. "held lock freed!": free() of memory holding a locked lock;
 *   2. nothing: lockdep cannot see a stack frame die;
 *   3. "held lock freed!": pthread_mutex_init over memory where a lock is
 *      still held;
 *   4. "held lock freed!": the assignment of the initializer is invisible,
 *      but the lock taken in step 3 is, for lockdep, still held by this
 *      thread while the mutex itself is free: its memory was reused.  (Not
 *      "recursive locking": the lock succeeds, nothing deadlocks.)
 *   Main returning with those locks held is the process's exit: nothing.
 *
 * peer-verdict: held at exit
 */
#include "peer.h"

struct xx {
	int stuff[2000];
	pthread_mutex_t lock;
	int more_stuff[2000];
};

enum how { STATIC_INIT, INIT_CALL };

/* Lock a mutex on this frame and abandon it, still locked. */
static __attribute__((noinline)) void lock_and_abandon(enum how how)
{
	pthread_mutex_t mx = PTHREAD_MUTEX_INITIALIZER;

	if (how == INIT_CALL)
		ok(pthread_mutex_init(&mx, NULL));
	ok(pthread_mutex_lock(&mx));
	__asm__ volatile("" : : "r"(&mx) : "memory");	/* keep mx in memory */
}

int main(void)
{
	struct xx *xx = malloc(sizeof(*xx));

	if (!xx)
		return 2;
	ok(pthread_mutex_init(&xx->lock, NULL));
	ok(pthread_mutex_lock(&xx->lock));
	free(xx);

	lock_and_abandon(STATIC_INIT);	/* bar() */
	lock_and_abandon(INIT_CALL);	/* foo() */
	lock_and_abandon(STATIC_INIT);	/* bar() */
	return 0;
}
