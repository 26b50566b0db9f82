/* SPDX-License-Identifier: MIT */
/*
 * uirq-latency: interrupt-to-handler latency, cyclictest-style, for each of
 * uirq's wait modes and for hand-written baselines, in one run.
 *
 * One sample: the raiser (on its own core) reads the clock and raises the
 * source; whatever takes the interrupt - uirq's primary handler, uirq's
 * handler thread, a baseline's waiting thread - reads the clock first
 * thing; the difference is the sample.  The taker then tells the raiser,
 * which sleeps meanwhile (so that a handler thread may share its core), and
 * the raiser waits the interval before the next raise.
 */
#ifndef UIRQ_LATENCY_H
#define UIRQ_LATENCY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uirq/irq.h"

enum leg_kind { LEG_BASE_EPOLL, LEG_BASE_FUTEX, LEG_UIRQ };

struct leg {
	char name[40];			/* "poll-thread", "baseline-eventfd-epoll" */
	enum leg_kind kind;
	enum uirq_wait_mode mode;	/* LEG_UIRQ */
	bool thread;			/* LEG_UIRQ: stamped by the handler thread */
	/* results, accumulated over rounds */
	uint64_t *ns;
	size_t n, cap;
	double cpu_s, wall_s;		/* process CPU time and wall time of the leg */
};

enum source_kind { SRC_EVENTFD, SRC_TIMERFD, SRC_UIO, SRC_VFIO, SRC_GPIO };

struct opts {
	enum source_kind source;
	double duration_s;		/* per leg and round */
	unsigned int rounds;
	uint64_t interval_ns;		/* from one sample's end to the next raise */
	unsigned int adaptive_ns;	/* 0: UIRQ_WAIT_ADAPTIVE_NS */
	int cpu, raiser_cpu, thread_cpu;	/* host cores */
	bool json;
	const char *histogram;
	const char *device;		/* uio, vfio: the edu device; gpio: CHIP:LINE of a gpio-sim line */
};

/* The shared state of the leg running. */
struct run {
	const struct opts *o;
	struct leg *leg;
	_Atomic uint64_t t0;		/* raise time (the timerfd's due time) */
	_Atomic uint64_t t1;		/* the taker's first clock read */
	atomic_uint done;		/* samples taken: the raiser's futex */
	atomic_bool stop;
};

uint64_t lat_now(void);
void lat_futex_wait(atomic_uint *w, unsigned int old);
void lat_futex_wake(atomic_uint *w);
void lat_pin(int core);
/* The taker's end of a sample: stamped already; tell the raiser. */
void lat_taken(struct run *r);

/* ---- the sources (sources.c) ---- */
struct source;
/*
 * Open what the source's legs share (a device's BAR, a gpio-sim line's
 * attribute; nothing for eventfd and timerfd): 0, or -errno with *why
 * saying what was looked for.  The line and the baseline's fd come per leg.
 */
int source_open(const struct opts *o, struct source **out, const char **why);
/* uirq: the line's irq, made at the leg's start and destroyed at its end. */
int source_line(struct source *s, unsigned int *irq);
void source_line_done(struct source *s);
/* The baseline's fd to wait on (epoll), made per leg. */
int source_fd(struct source *s);
void source_fd_done(struct source *s);
/* Acknowledge what the source raised, from the taker (the primary handler, the baseline's thread). */
void source_ack(struct source *s, bool baseline);
/* Raise once: stamps r->t0 (the due time for a timer) and raises. */
int source_raise(struct source *s, struct run *r, bool baseline);
void source_close(struct source *s);

/* ---- figures (stats.c) ---- */
void leg_add(struct leg *l, uint64_t ns);
void legs_print(FILE *f, const struct opts *o, const char *source, struct leg *legs, size_t n);
void legs_json(FILE *f, const char *source, struct leg *legs, size_t n);
int legs_histogram(const char *path, struct leg *legs, size_t n);

#endif
