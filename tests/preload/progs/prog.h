/* SPDX-License-Identifier: MIT */
/* Shared bits of the test programs: plain pthread code, no uirq headers. */
#ifndef PROG_H
#define PROG_H

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A pthread call that must return want; anything else ends the program with status 3. */
#define expect(call, want)							\
	do {								\
		int ret_ = (call);					\
		if (ret_ != (want)) {					\
			fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", \
				__FILE__, __LINE__, #call, strerror(ret_), strerror(want)); \
			exit(3);					\
		}							\
	} while (0)
#define ok(call)	expect(call, 0)

/* An absolute deadline ms from now on CLOCK_REALTIME (timedlock's clock). */
static inline struct timespec deadline_ms(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += (ms % 1000) * 1000000L;
	t.tv_sec += ms / 1000 + t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

/* m taken and released, nothing held under it */
static inline void lock_unlock(pthread_mutex_t *m)
{
	ok(pthread_mutex_lock(m));
	ok(pthread_mutex_unlock(m));
}

/* outer, then inner under it, released in reverse: one dependency outer -> inner */
static inline void lock_nested(pthread_mutex_t *outer, pthread_mutex_t *inner)
{
	ok(pthread_mutex_lock(outer));
	ok(pthread_mutex_lock(inner));
	ok(pthread_mutex_unlock(inner));
	ok(pthread_mutex_unlock(outer));
}

/* Run fn in a thread and wait for it: orders two threads' lock sequences without overlap. */
static inline void run_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;

	ok(pthread_create(&t, NULL, fn, arg));
	ok(pthread_join(t, NULL));
}

#endif
