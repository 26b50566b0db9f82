// SPDX-License-Identifier: MIT
/*
 * Condition variables misused, as Helgrind reports them:
 *   unheld      a wait with a mutex the caller does not hold
 *   two         a wait with m2 while another thread waits with m1
 *   sequential  a wait with m1, and after it ended one with m2: POSIX binds
 *               the mutex only while someone waits, so this is fine
 * Each misuse is reported once; the program goes on.
 */
#include "prog.h"

#include <semaphore.h>

static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static sem_t waiting;
static bool woken;

static void *wait_with_m1(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&m1));
	sem_post(&waiting);
	while (!woken)
		ok(pthread_cond_wait(&cond, &m1));
	ok(pthread_mutex_unlock(&m1));
	return NULL;
}

static void timed_wait(pthread_mutex_t *m, bool hold)
{
	struct timespec dl = deadline_ms(10);

	if (hold)
		ok(pthread_mutex_lock(m));
	expect(pthread_cond_timedwait(&cond, m, &dl), ETIMEDOUT);
	ok(pthread_mutex_unlock(m));	/* the wait returns holding it, either way */
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	pthread_t t;

	sem_init(&waiting, 0, 0);
	if (!strcmp(c, "unheld")) {
		for (int i = 0; i < 3; i++)
			timed_wait(&m1, false);	/* the same code, the same locks: one report */
	} else if (!strcmp(c, "two")) {
		ok(pthread_create(&t, NULL, wait_with_m1, NULL));
		while (sem_wait(&waiting) != 0)
			;
		/* the other thread is waiting on cond (or about to: it holds m1 until it does) */
		ok(pthread_mutex_lock(&m1));
		ok(pthread_mutex_unlock(&m1));
		timed_wait(&m2, true);
		ok(pthread_mutex_lock(&m1));
		woken = true;
		ok(pthread_cond_broadcast(&cond));
		ok(pthread_mutex_unlock(&m1));
		ok(pthread_join(t, NULL));
	} else if (!strcmp(c, "sequential")) {
		timed_wait(&m1, true);
		timed_wait(&m2, true);
	} else {
		fprintf(stderr, "cond_misuse: unknown case '%s'\n", c);
		return 2;
	}
	printf("cond_misuse: %s done\n", c);
	return 0;
}
