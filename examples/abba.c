// SPDX-License-Identifier: MIT
/*
 * The classic ABBA inversion in an ordinary pthread program, nothing uirq in
 * it.  Thread 1 takes A then B; thread 2, later, takes B then A.  Run as it
 * is, it finishes: the threads never overlap.  Run under uirq-lockdep, the
 * validator reports the possible deadlock at thread 2's pthread_mutex_lock(A),
 * before the call could block - on a day the threads do overlap it would hang.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int balance;

static void *thread1(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock_a);
	pthread_mutex_lock(&lock_b);
	balance++;
	pthread_mutex_unlock(&lock_b);
	pthread_mutex_unlock(&lock_a);
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock_b);
	pthread_mutex_lock(&lock_a);
	balance--;
	pthread_mutex_unlock(&lock_a);
	pthread_mutex_unlock(&lock_b);
	return NULL;
}

static void run(void *(*fn)(void *), const char *what)
{
	pthread_t t;

	printf("abba: %s\n", what);
	fflush(stdout);
	pthread_create(&t, NULL, fn, NULL);
	pthread_join(t, NULL);
}

int main(void)
{
	run(thread1, "thread 1 takes A then B");
	run(thread2, "thread 2 takes B then A");
	printf("abba: both threads done, balance %d; the threads never overlapped, "
	       "yet a deadlock was possible\n", balance);
	return 0;
}
