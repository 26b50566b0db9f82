// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's hg02_deadlock test (valgrind helgrind/tests/
 * hg02_deadlock.c, expected output hg02_deadlock.stderr.exp), a "simple
 * possible deadlock": two threads run at the same time, t1 taking m1 then
 * m2, t2 taking m2 then m1.  The peer can really deadlock when the two
 * overlap; here a semaphore lets one thread at a time into its two-lock
 * section, so the program always ends.  A semaphore is no lock: the
 * detectors still see both orders, with plain pthread_mutex_lock calls.
 *
 * Helgrind: 'lock order "m1 before m2" violated' - 1 error.
 * uirq-lockdep: one circular-dependency report, whichever thread comes
 * second.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

#include <semaphore.h>

static pthread_mutex_t m1, m2;
static sem_t one_at_a_time;

static void lock_both(pthread_mutex_t *first, pthread_mutex_t *second)
{
	while (sem_wait(&one_at_a_time))
		;
	ok(pthread_mutex_lock(first));
	ok(pthread_mutex_lock(second));
	ok(pthread_mutex_unlock(first));
	ok(pthread_mutex_unlock(second));
	sem_post(&one_at_a_time);
}

static void *t1(void *arg)
{
	(void)arg;
	lock_both(&m1, &m2);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	lock_both(&m2, &m1);
	return NULL;
}

int main(void)
{
	void *(*const threads[])(void *) = { t1, t2 };

	if (sem_init(&one_at_a_time, 0, 1))
		return 2;
	ok(pthread_mutex_init(&m1, NULL));
	ok(pthread_mutex_init(&m2, NULL));
	run_together(threads, 2, NULL);
	return 0;
}
