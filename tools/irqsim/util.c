// SPDX-License-Identifier: MIT
/* Small helpers every part of irqsim uses: time, thread ids, thread-safe arrays. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "irqsim.h"

/* uirq's clock: CLOCK_MONOTONIC, virtual for the tasks of a --seed run. */
uint64_t now_ns(void)
{
	return uirq_sim_clock_ns();
}

/* Wall time, whatever the mode: irqsim's own watchdog bounds how long a run really takes. */
uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

_Atomic int irqsim_stop_signal;

const char *irqsim_stop_cause(void)
{
	switch (atomic_load(&irqsim_stop_signal)) {
	case SIGTERM:
		return "SIGTERM";
	case IRQSIM_STOP_OUTPUT:
		return "a failed write to standard output";
	default:
		return "SIGINT";
	}
}

/*
 * In slices of at most 20 ms, so that a Ctrl-C (noted by the signal thread,
 * main.c) ends a long hold or wait promptly: no thread of the run takes the
 * signal itself, so no sleep or system call of the board sees EINTR.
 */
void sleep_until_ns(uint64_t t)
{
	for (;;) {
		uint64_t now = now_ns(), until = t;

		if (now >= t || irqsim_stop_signal)
			return;
		if (until - now > 20000000u)
			until = now + 20000000u;
		uirq_sim_sleep_until_ns(until);
	}
}

static _Atomic int out_errno;	/* the live lines flush from several threads */

/* fflush(stdout), keeping the first failure's errno: the stream's error flag keeps no reason. */
void out_flush(void)
{
	int saved = errno, none = 0;

	if (fflush(stdout) == EOF) {
		atomic_compare_exchange_strong(&out_errno, &none, errno);
		/* A signal's stop stays the signal's. */
		none = 0;
		atomic_compare_exchange_strong(&irqsim_stop_signal, &none, IRQSIM_STOP_OUTPUT);
	}
	errno = saved;
}

/*
 * A --seed run's live lines, held until the run has ended (out_hold()):
 * each with its stream, in the order they came.
 */
struct held_line {
	FILE *f;
	char *text;
};
static struct vec held;
static bool holding;

void out_hold(void)
{
	vec_init(&held, sizeof(struct held_line));
	holding = true;
}

void out_printf(FILE *f, const char *fmt, ...)
{
	struct held_line h = { .f = f };
	va_list ap;

	va_start(ap, fmt);
	if (!holding) {
		vfprintf(f, fmt, ap);
		va_end(ap);
		if (f == stdout)
			out_flush();
		else
			fflush(f);
		return;
	}
	if (vasprintf(&h.text, fmt, ap) < 0)
		abort();	/* a line of output: nothing sensible to do without it */
	va_end(ap);
	if (!vec_push(&held, &h))
		abort();
}

void out_release(void)
{
	struct held_line *items;
	size_t n;

	if (!holding)
		return;
	/* Taken whole under the lock: the watchdog may release from its thread while a task still writes. */
	pthread_mutex_lock(&held.lock);
	items = held.items;
	n = held.n;
	held.items = NULL;
	held.n = held.cap = 0;
	pthread_mutex_unlock(&held.lock);
	for (size_t i = 0; i < n; i++) {
		fputs(items[i].text, items[i].f);
		free(items[i].text);
	}
	free(items);
	fflush(stderr);
	out_flush();
}

int out_error(void)
{
	int err;

	out_flush();
	err = atomic_load(&out_errno);
	return ferror(stdout) ? (err ? err : EIO) : 0;
}

/* In a --seed run a thread is named by its task (1, 2, ...): kernel thread ids would not replay. */
int gettid_int(void)
{
	int id = uirq_sim_task_id();

	return id >= 0 ? id + 1 : (int)syscall(SYS_gettid);
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
