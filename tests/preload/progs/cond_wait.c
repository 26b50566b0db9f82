// SPDX-License-Identifier: MIT
/*
 * A producer and a consumer around a mutex and a condition variable, with an
 * outer lock taken before the mutex on both sides; plus a timed wait that
 * times out.  The wait's implicit unlock and relock must balance.
 */
#include "prog.h"

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int items, done;

static void *consumer(void *arg)
{
	int got = 0;

	(void)arg;
	while (got < 100) {
		ok(pthread_mutex_lock(&outer));
		ok(pthread_mutex_lock(&m));
		ok(pthread_mutex_unlock(&outer));
		while (items == 0)
			ok(pthread_cond_wait(&c, &m));
		items--;
		got++;
		ok(pthread_mutex_unlock(&m));
	}
	ok(pthread_mutex_lock(&m));
	done = 1;
	ok(pthread_mutex_unlock(&m));
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct timespec dl;

	ok(pthread_create(&t, NULL, consumer, NULL));
	for (int i = 0; i < 100; i++) {
		ok(pthread_mutex_lock(&outer));
		ok(pthread_mutex_lock(&m));
		items++;
		ok(pthread_cond_signal(&c));
		ok(pthread_mutex_unlock(&m));
		ok(pthread_mutex_unlock(&outer));
	}
	ok(pthread_join(t, NULL));

	ok(pthread_mutex_lock(&m));
	dl = deadline_ms(20);
	expect(pthread_cond_timedwait(&c, &m, &dl), ETIMEDOUT);
	ok(pthread_mutex_unlock(&m));
	return done ? 0 : 4;
}
