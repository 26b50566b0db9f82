// SPDX-License-Identifier: MIT
/*
 * A real ABBA deadlock: each thread holds its first lock before either takes
 * its second.  The report must be out before the second thread blocks; the
 * alarm then ends the process (killed by SIGALRM).
 */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;

static void *a_then_b(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&a));
	pthread_barrier_wait(&both_hold_one);
	pthread_mutex_lock(&b);
	return NULL;
}

static void *b_then_a(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	pthread_barrier_wait(&both_hold_one);
	pthread_mutex_lock(&a);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	alarm(2);
	ok(pthread_barrier_init(&both_hold_one, NULL, 2));
	ok(pthread_create(&t1, NULL, a_then_b, NULL));
	ok(pthread_create(&t2, NULL, b_then_a, NULL));
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
