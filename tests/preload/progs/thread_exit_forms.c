// SPDX-License-Identifier: MIT
/*
 * A thread ending with a lock held, in each way a thread ends:
 *   return        its start routine returns
 *   pthread_exit  it calls pthread_exit() from a nested function
 *   cancel        it is cancelled while blocked in a cancellation point
 *   detached      a detached thread returns
 *   rwlock        it returns holding a read lock
 *   main          the main thread calls pthread_exit() (the process lives on)
 * Each is reported once, naming the thread and the lock.
 */
#include "prog.h"

#include <semaphore.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t ready, gone;
/*
 * A detached thread cannot be joined: it says it is gone from a destructor
 * of a key made after lockdep's, so that lockdep's check has run by then.
 */
static pthread_key_t gone_key;

static void say_gone(void *sem)
{
	sem_post(sem);
}

static __attribute__((noinline)) void leave(void)
{
	pthread_exit(NULL);
}

static void *worker(void *arg)
{
	const char *how = arg;

	if (!strcmp(how, "rwlock"))
		ok(pthread_rwlock_rdlock(&rw));
	else
		ok(pthread_mutex_lock(&m));
	if (!strcmp(how, "pthread_exit"))
		leave();
	if (!strcmp(how, "cancel")) {
		sem_post(&ready);
		for (;;)
			pause();
	}
	if (!strcmp(how, "detached"))
		pthread_setspecific(gone_key, &gone);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "return";
	pthread_attr_t attr;
	pthread_t t;

	sem_init(&ready, 0, 0);
	sem_init(&gone, 0, 0);
	if (!strcmp(how, "main")) {
		printf("thread_exit_forms: %s done\n", how);
		fflush(stdout);
		ok(pthread_mutex_lock(&m));
		pthread_exit(NULL);
	}
	ok(pthread_key_create(&gone_key, say_gone));
	ok(pthread_attr_init(&attr));
	if (!strcmp(how, "detached"))
		ok(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED));
	ok(pthread_create(&t, &attr, worker, (void *)how));
	if (!strcmp(how, "cancel")) {
		while (sem_wait(&ready) != 0)
			;
		ok(pthread_cancel(t));
	}
	if (!strcmp(how, "detached")) {
		while (sem_wait(&gone) != 0)
			;
		printf("thread_exit_forms: %s done\n", how);
		return 0;
	}
	ok(pthread_join(t, NULL));
	printf("thread_exit_forms: %s done\n", how);
	return 0;
}
