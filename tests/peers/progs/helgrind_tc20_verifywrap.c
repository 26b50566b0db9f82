// SPDX-License-Identifier: MIT
/*
 * Port of the lock parts of Helgrind's tc20_verifywrap test (valgrind
 * helgrind/tests/tc20_verifywrap.c, expected output
 * tc20_verifywrap.stderr.exp), which makes every wrapped pthread lock call
 * misbehave once to prove the wrapper is there.  The thread, join and
 * semaphore parts are left out.  In order:
 *   mutexes: init with an attribute object of 0xff bytes (fails); destroy
 *     of a locked mutex (EBUSY); lock, trylock, timedlock and unlock of a
 *     "mutex" of 0xff bytes (all EINVAL);
 *   condition variables: wait and timedwait (bad deadline) with an
 *     error-checking mutex nobody holds (EPERM, EINVAL); signal and
 *     broadcast with no waiter;
 *   rwlocks: unlock of one never locked; write lock, unlock, unlock again;
 *     re-initialise, read lock twice, unlock twice, unlock again; read-lock
 *     rwl3 and keep it to the end.
 *
 * Helgrind, lock parts: "pthread_mutex_destroy of a locked mutex", "unlocked
 * an invalid lock", three "unlocked a not-locked lock", two "called with
 * un-held mutex", two "associated lock is not held by any thread", eight
 * failed calls, and "Exiting thread still holds 1 lock" (rwl3).
 * uirq-lockdep:
 *   one "held lock freed!" (the destroy of the held mx2; glibc refuses, and
 *   mx2 stays held);
 *   four "bad unlock balance detected!" (the 0xff mutex, rwl, and rwl2
 *   twice, at two different places);
 *   nothing for the failed lock calls (a failed call holds nothing);
 *   two "condition variable waited on without its mutex held!", for the
 *   wait and the timed wait: waiting without the mutex is the program's
 *   mistake even when glibc refuses the call (EPERM for an error-checking
 *   mutex, EINVAL for the bad deadline) - a refused wait is a wait that
 *   did not happen, and few programs look at what pthread_cond_wait
 *   returns;
 *   nothing for signalling without waiters, nor at main's exit (rwl3 and
 *   mx2 still held).
 *
 * peer-verdict: held freed, bad unlock x4, cond unheld x2, dubious signal x2, failed call x8, held at exit
 */
#include "peer.h"

int main(void)
{
	pthread_mutexattr_t mxa, mxa2;
	pthread_mutex_t mx, mx2, mx3, mx4;
	pthread_cond_t cv;
	pthread_rwlock_t rwl, rwl2, rwl3;
	struct timespec abstime;

	fprintf(stderr, "\n---------------- pthread_mutex_lock et al ----------------\n\n");
	memset(&mxa, 0xff, sizeof(mxa));
	if (pthread_mutex_init(&mx, &mxa) == 0)
		return 4;

	ok(pthread_mutex_init(&mx2, NULL));
	ok(pthread_mutex_lock(&mx2));
	expect(pthread_mutex_destroy(&mx2), EBUSY);

	memset(&mx3, 0xff, sizeof(mx3));
	expect(pthread_mutex_lock(&mx3), EINVAL);
	memset(&mx3, 0xff, sizeof(mx3));
	expect(pthread_mutex_trylock(&mx3), EINVAL);
	memset(&abstime, 0, sizeof(abstime));
	memset(&mx3, 0xff, sizeof(mx3));
	expect(pthread_mutex_timedlock(&mx3, &abstime), EINVAL);
	memset(&mx3, 0xff, sizeof(mx3));
	expect(pthread_mutex_unlock(&mx3), EINVAL);

	fprintf(stderr, "\n---------------- pthread_cond_wait et al ----------------\n\n");
	ok(pthread_mutexattr_init(&mxa2));
	ok(pthread_mutexattr_settype(&mxa2, PTHREAD_MUTEX_ERRORCHECK));
	ok(pthread_mutex_init(&mx4, &mxa2));
	ok(pthread_mutexattr_destroy(&mxa2));
	ok(pthread_cond_init(&cv, NULL));
	expect(pthread_cond_wait(&cv, &mx4), EPERM);
	ok(pthread_cond_signal(&cv));
	ok(pthread_cond_broadcast(&cv));
	memset(&abstime, 0, sizeof(abstime));
	abstime.tv_nsec = 1000000000 + 1;
	if (pthread_cond_timedwait(&cv, &mx4, &abstime) == 0)
		return 4;

	fprintf(stderr, "\n---------------- pthread_rwlock_* ----------------\n\n");
	ok(pthread_rwlock_init(&rwl, NULL));
	ok(pthread_rwlock_unlock(&rwl));

	ok(pthread_rwlock_init(&rwl2, NULL));
	fprintf(stderr, "(1) no error on next line\n");
	ok(pthread_rwlock_wrlock(&rwl2));
	fprintf(stderr, "(2) no error on next line\n");
	ok(pthread_rwlock_unlock(&rwl2));
	fprintf(stderr, "(3)    ERROR on next line\n");
	ok(pthread_rwlock_unlock(&rwl2));

	ok(pthread_rwlock_init(&rwl2, NULL));
	fprintf(stderr, "(4) no error on next line\n");
	ok(pthread_rwlock_rdlock(&rwl2));
	fprintf(stderr, "(5) no error on next line\n");
	ok(pthread_rwlock_rdlock(&rwl2));
	fprintf(stderr, "(6) no error on next line\n");
	ok(pthread_rwlock_unlock(&rwl2));
	fprintf(stderr, "(7) no error on next line\n");
	ok(pthread_rwlock_unlock(&rwl2));
	fprintf(stderr, "(8)    ERROR on next line\n");
	ok(pthread_rwlock_unlock(&rwl2));

	ok(pthread_rwlock_init(&rwl3, NULL));
	ok(pthread_rwlock_rdlock(&rwl3));

	fprintf(stderr, "\n------------ dealloc of mem holding locks ------------\n\n");
	return 0;
}
