// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc23_bogus_condwait test (valgrind helgrind/tests/
 * tc23_bogus_condwait.c, expected output tc23_bogus_condwait.stderr.exp):
 * main waits on one condition variable four times, each time with a bad
 * "mutex"; a rescuer thread signals it out of each wait.
 *   1. a bogus mutex: one byte into mx[0];
 *   2. mx[0], which nobody holds;
 *   3. an rwlock cast to a mutex;
 *   4. mx[2], held by the grabber thread.
 * glibc's wait releases and re-takes whatever it is given without a check
 * (these are normal mutexes), so each wait returns 0 with main "holding"
 * that memory; the grabber's final unlock of mx[2] works too.  The peer
 * paces the rescuer with sleep(1) four times; here the rescuer signals
 * until main has left the wait.
 *
 * Helgrind: "called with invalid mutex", "with un-held mutex", "with mutex
 * of type pthread_rwlock_t*", "with mutex held by a different thread" - 4
 * errors.
 * uirq-lockdep: four "condition variable waited on without its mutex
 * held!" reports, and nothing else: no bad unlock for the release the wait
 * makes (the wait's report covers it), and no "used with two different
 * mutexes" - the waits come one after the other, and a condition variable
 * may change mutex while nobody waits on it (POSIX leaves only concurrent
 * waits with different mutexes undefined).
 *
 * peer-verdict: cond unheld x4
 */
#include "peer.h"

static pthread_mutex_t mx[4];
static pthread_cond_t cv;
static pthread_rwlock_t rwl;
static atomic_int waits_done;
static pthread_barrier_t grabbed, quit_now;

static void *rescue_me(void *arg)
{
	(void)arg;
	for (int wait = 1; wait <= 4; wait++) {
		while (atomic_load(&waits_done) < wait) {
			sleep_ms(5);
			ok(pthread_cond_signal(&cv));
		}
	}
	return NULL;
}

static void *grab_the_lock(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mx[2]));
	pthread_barrier_wait(&grabbed);
	pthread_barrier_wait(&quit_now);
	ok(pthread_mutex_unlock(&mx[2]));
	return NULL;
}

static void wait_with(pthread_mutex_t *m)
{
	ok(pthread_cond_wait(&cv, m));
	atomic_fetch_add(&waits_done, 1);
}

int main(void)
{
	pthread_t rescuer, grabber;

	for (int i = 0; i < 4; i++)
		ok(pthread_mutex_init(&mx[i], NULL));
	ok(pthread_cond_init(&cv, NULL));
	ok(pthread_rwlock_init(&rwl, NULL));
	ok(pthread_barrier_init(&grabbed, NULL, 2));
	ok(pthread_barrier_init(&quit_now, NULL, 2));

	ok(pthread_create(&grabber, NULL, grab_the_lock, NULL));
	pthread_barrier_wait(&grabbed);
	ok(pthread_create(&rescuer, NULL, rescue_me, NULL));

	wait_with((pthread_mutex_t *)(1 + (char *)&mx[0]));	/* bogus */
	wait_with(&mx[0]);					/* not locked */
	wait_with((pthread_mutex_t *)&rwl);			/* not a mutex */
	wait_with(&mx[2]);					/* someone else's */

	pthread_barrier_wait(&quit_now);
	ok(pthread_join(rescuer, NULL));
	ok(pthread_join(grabber, NULL));
	return 0;
}
