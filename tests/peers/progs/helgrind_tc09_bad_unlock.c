// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc09_bad_unlock test (valgrind helgrind/tests/
 * tc09_bad_unlock.c, expected output tc09_bad_unlock.stderr.exp).
 * nearly_main() makes three bad unlocks, then returns while mx2, on its
 * stack, is still locked; main calls it twice:
 *   1. lock and unlock mx1, then unlock it again;
 *   2. lock mx2 and let a child thread unlock it (glibc lets it: a normal
 *      mutex has no owner check);
 *   3. unlock "bogus", an int array filled with 0xff bytes that was never
 *      a mutex (glibc answers EINVAL).
 *
 * Helgrind: 11 errors - per call, "unlocked a not-locked lock", "unlocked
 * lock ... currently held by thread #1", "unlocked an invalid lock" and
 * the EINVAL of that call; in the second call also "Attempt to re-lock a
 * non-recursive lock I already hold" and "Bug in libpthread: recursive
 * write lock granted" for mx2 (it still counts main as its owner); and
 * "Exiting thread still holds 1 lock" for main at the end.
 * uirq-lockdep:
 *   first call: three "bad unlock balance detected!" reports (unlocking
 *   a mutex another thread holds is one too);
 *   second call: the second pthread_mutex_init of mx2 re-initialises
 *   memory lockdep still sees held by main (the child's unlock did not
 *   count), one "held lock freed!"; the three bad unlocks repeat the first
 *   call's - same locks (same memory, same names), same lines - and are
 *   not reported again;
 *   main returning with mx2 held is the process's exit, not a thread's:
 *   nothing.
 * Three bad-unlock reports and one held-lock-freed in all.
 *
 * peer-verdict: bad unlock x6, failed call x2, recursive x2, held at exit
 */
#include "peer.h"

static void *child_fn(void *arg)
{
	ok(pthread_mutex_unlock(arg));	/* ERROR: main holds it */
	return NULL;
}

static __attribute__((noinline)) void nearly_main(void)
{
	pthread_t child;
	pthread_mutex_t mx1, mx2;
	int bogus[100];

	memset(bogus, 0xff, sizeof(bogus));

	ok(pthread_mutex_init(&mx1, NULL));
	ok(pthread_mutex_lock(&mx1));
	ok(pthread_mutex_unlock(&mx1));
	ok(pthread_mutex_unlock(&mx1));		/* ERROR: not locked */

	ok(pthread_mutex_init(&mx2, NULL));
	ok(pthread_mutex_lock(&mx2));
	ok(pthread_create(&child, NULL, child_fn, &mx2));
	ok(pthread_join(child, NULL));

	expect(pthread_mutex_unlock((pthread_mutex_t *)&bogus[50]), EINVAL);	/* ERROR: no mutex */
}

int main(void)
{
	nearly_main();
	fprintf(stderr, "---------------------\n");
	nearly_main();
	return 0;
}
