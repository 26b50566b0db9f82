// SPDX-License-Identifier: MIT
/*
 * For --stat: a mutex that two threads contend for ROUNDS times (the holder
 * sleeps with it held while the other asks), and one that nobody contends,
 * taken QUIET times.
 */
#include "prog.h"

#include <semaphore.h>

#define ROUNDS	5
#define QUIET	1000

static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t quiet = PTHREAD_MUTEX_INITIALIZER;
static sem_t asked;

static void *ask(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (sem_wait(&asked) != 0)
			;
		ok(pthread_mutex_lock(&busy));		/* waits for the holder's sleep */
		ok(pthread_mutex_unlock(&busy));
	}
	return NULL;
}

int main(void)
{
	pthread_t t;

	sem_init(&asked, 0, 0);
	ok(pthread_create(&t, NULL, ask, NULL));
	for (int i = 0; i < ROUNDS; i++) {
		ok(pthread_mutex_lock(&busy));
		sem_post(&asked);
		usleep(20 * 1000);
		ok(pthread_mutex_unlock(&busy));
		usleep(5 * 1000);
	}
	ok(pthread_join(t, NULL));
	for (int i = 0; i < QUIET; i++) {
		ok(pthread_mutex_lock(&quiet));
		ok(pthread_mutex_unlock(&quiet));
	}
	printf("stat: done\n");
	return 0;
}
