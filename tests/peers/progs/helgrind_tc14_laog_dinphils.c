// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc14_laog_dinphils test (valgrind helgrind/tests/
 * tc14_laog_dinphils.c, expected output tc14_laog_dinphils.stderr.exp):
 * five dining philosophers, each taking the chopstick on their left, then
 * the one on their right, 1000 times (here argument 1, default 200).
 * Chopstick 4's right is chopstick 0: the orders 0->1->2->3->4->0 form a
 * cycle, and the peer can really deadlock (all five holding their left).
 * To stay bounded, a semaphore seats at most four philosophers at the
 * table at once - the classic cure: one of any four always gets both
 * chopsticks.  A semaphore is no lock, so the detectors still see every
 * order, taken with plain pthread_mutex_lock calls.  (The peer's sleep(1)
 * before joining is dropped.)
 *
 * Helgrind: 'lock order violated' - 1000 errors from 1 context.
 * uirq-lockdep: one circular-dependency report, when the fifth order
 * closes the cycle; the repeats are the same problem.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

#include <semaphore.h>

enum { N = 5 };

static pthread_mutex_t chop[N];
static sem_t seats;
static long meals;

static void *dine(void *arg)
{
	long left = (long)arg, right = (left + 1) % N;

	for (long i = 0; i < meals; i++) {
		while (sem_wait(&seats))
			;
		ok(pthread_mutex_lock(&chop[left]));
		ok(pthread_mutex_lock(&chop[right]));
		/* eating */
		ok(pthread_mutex_unlock(&chop[left]));
		ok(pthread_mutex_unlock(&chop[right]));
		sem_post(&seats);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t phil[N];

	meals = arg_or(argc, argv, 1, 200);
	if (sem_init(&seats, 0, N - 1))
		return 2;
	for (long i = 0; i < N; i++)
		ok(pthread_mutex_init(&chop[i], NULL));
	for (long i = 0; i < N; i++)
		ok(pthread_create(&phil[i], NULL, dine, (void *)i));
	for (long i = 0; i < N; i++)
		ok(pthread_join(phil[i], NULL));
	return 0;
}
