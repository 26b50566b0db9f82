// SPDX-License-Identifier: MIT
/*
 * Recursive mutexes locked again by their owner are legal; so is an
 * error-checking mutex's EDEADLK answer to a relock (the program asked).
 * (Unlocking one more time than locked is not: see bad_unlock_owned.c.)
 */
#include "prog.h"

static pthread_mutex_t stat_rec = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;

static void *other_thread(void *arg)
{
	pthread_mutex_t *rec = arg;

	ok(pthread_mutex_lock(rec));
	ok(pthread_mutex_lock(rec));
	ok(pthread_mutex_unlock(rec));
	ok(pthread_mutex_unlock(rec));
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t attr;
	pthread_mutex_t rec, chk;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec dl;

	ok(pthread_mutexattr_init(&attr));
	ok(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
	ok(pthread_mutex_init(&rec, &attr));
	ok(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK));
	ok(pthread_mutex_init(&chk, &attr));
	ok(pthread_mutexattr_destroy(&attr));

	ok(pthread_mutex_lock(&rec));
	ok(pthread_mutex_lock(&inner));
	ok(pthread_mutex_lock(&rec));		/* nested under inner: still just a relock */
	ok(pthread_mutex_trylock(&rec));
	ok(pthread_mutex_unlock(&rec));
	ok(pthread_mutex_unlock(&rec));
	ok(pthread_mutex_unlock(&inner));
	ok(pthread_mutex_unlock(&rec));
	run_thread(other_thread, &rec);

	ok(pthread_mutex_lock(&stat_rec));
	ok(pthread_mutex_lock(&stat_rec));
	ok(pthread_mutex_unlock(&stat_rec));
	/* a wait on a recursive mutex held once */
	dl = deadline_ms(10);
	expect(pthread_cond_timedwait(&c, &stat_rec, &dl), ETIMEDOUT);
	ok(pthread_mutex_unlock(&stat_rec));

	ok(pthread_mutex_lock(&chk));
	expect(pthread_mutex_lock(&chk), EDEADLK);
	ok(pthread_mutex_unlock(&chk));

	ok(pthread_mutex_destroy(&rec));
	ok(pthread_mutex_destroy(&chk));
	return 0;
}
