// SPDX-License-Identifier: MIT
/* Small helpers every part of irqsim uses: time, thread ids, thread-safe arrays. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "irqsim.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void sleep_until_ns(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u), .tv_nsec = (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int gettid_int(void)
{
	return (int)syscall(SYS_gettid);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();	/* a few bytes of report text: nothing sensible to do without them */
	return d;
}

void vec_init(struct vec *v, size_t item_size)
{
	memset(v, 0, sizeof(*v));
	pthread_mutex_init(&v->lock, NULL);
	v->size = item_size;
}

bool vec_push(struct vec *v, const void *item)
{
	bool ok = true;

	pthread_mutex_lock(&v->lock);
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 64;
		void *ni = realloc(v->items, ncap * v->size);

		if (ni) {
			v->items = ni;
			v->cap = ncap;
		}
	}
	if (v->n < v->cap)
		memcpy((char *)v->items + v->n++ * v->size, item, v->size);
	else
		ok = false;
	pthread_mutex_unlock(&v->lock);
	return ok;
}

void vec_free(struct vec *v)
{
	free(v->items);
	v->items = NULL;
	v->n = v->cap = 0;
	pthread_mutex_destroy(&v->lock);
}
