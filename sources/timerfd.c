// SPDX-License-Identifier: MIT
/*
 * timerfd lines: a CLOCK_MONOTONIC timer as an interrupt line, its
 * expirations counted as an eventfd's writes are (fdline.c does the rest).
 *
 * In the deterministic mode a kernel timerfd cannot replay: it expires on
 * the host's clock, where the scheduler cannot order it.  There the line is
 * an eventfd line whose expiries are virtual: a task of the mode
 * ("timerfd/N", N the irq) sleeps on the virtual clock until the next
 * expiry and adds the expirations to the counter, as the kernel's hrtimer
 * callback adds them to a timerfd's tick count.  The rest - the CPU polling
 * the fd, the ack reading the count - is a virtual eventfd line's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../lib/lib.h"
#include "../sim/sim.h"
#include "uirq/sim.h"
#include "uirq/sources.h"

#include "fdline.h"
#include "uirq/printk.h"

static const struct fd_line_ops timerfd_ops = {
	.name = "timerfd",
	.types = FD_LINE_COUNTER_TYPES,
	.oneshot_safe = true,
	.read_events = fd_line_read_counter64,
};

/* ---- the deterministic mode's timer ---- */

struct sim_timer {
	struct uirq_fd_line *line;
	pthread_t task;
	_Atomic uint64_t next;		/* the next expiry on the virtual clock; 0: disarmed */
	_Atomic uint64_t period;	/* 0: one-shot */
	atomic_uint seq;		/* bumped by each settime and the stop: the task's futex word */
	atomic_bool stop;
	bool started;
};

static void *sim_timer_fn(void *arg)
{
	struct sim_timer *t = arg;

	/* Only the line's destruction ends it: a line left alive at the stop is reported, not ticked forever. */
	uirq_sim_set_owned();
	while (!atomic_load(&t->stop)) {
		unsigned int seq = atomic_load(&t->seq);
		uint64_t next = atomic_load(&t->next), now = uirq_sim_clock_ns();

		if (!next) {
			uirq_futex_wait(&t->seq, seq);
			continue;
		}
		if (now < next) {
			uirq_futex_wait_timeout(&t->seq, seq, next - now);
			continue;
		}
		/* Overruns count, as a timerfd's do: every period that ended since the expiry. */
		uint64_t period = atomic_load(&t->period), n = 1;

		if (period)
			n += (now - next) / period;
		atomic_store(&t->next, period ? next + n * period : 0);
		fd_line_add_events(t->line, n);
	}
	return NULL;
}

static void sim_timer_set(struct uirq_fd_line *l, uint64_t initial_ns, uint64_t period_ns)
{
	struct sim_timer *t = fd_line_priv(l);

	if (!uirq_sim_current)
		uirq_sim_foreign("sets the timer of irq", uirq_fd_line_irq(l));
	/* Expirations not yet read are dropped, as timerfd_settime() drops them. */
	fd_line_read_counter64(l);
	atomic_store(&t->period, initial_ns ? period_ns : 0);
	atomic_store(&t->next, initial_ns ? uirq_sim_clock_ns() + initial_ns : 0);
	atomic_fetch_add(&t->seq, 1);
	uirq_futex_wake(&t->seq, 1);
}

/* The line is gone (fdline.c): stop the task, which may still add to the counter until then. */
static void sim_timer_release(struct uirq_fd_line *l)
{
	struct sim_timer *t = fd_line_priv(l);

	/* After a stop that ended its task (the line was left alive), there is no task to stop. */
	if (t->started && uirq_sim_on) {
		atomic_store(&t->stop, true);
		atomic_fetch_add(&t->seq, 1);
		uirq_futex_wake(&t->seq, 1);
		uirq_sim_thread_join(t->task, NULL);
	}
	free(t);
}

static const struct fd_line_ops sim_timer_ops = {
	.name = "timerfd",
	.types = FD_LINE_COUNTER_TYPES,
	.oneshot_safe = true,
	.sim_virtual = true,
	.read_events = fd_line_read_counter64,
	.release = sim_timer_release,
};

static int sim_timer_create(unsigned int type, uint64_t initial_ns, uint64_t period_ns, struct uirq_fd_line **out)
{
	/* Its task must be one of the mode's, made by one: a thread outside the mode would not replay. */
	if (!uirq_sim_current) {
		uirq_log_printk("uirq sim: timerfd line: created by a thread that is not a task of the "
			"deterministic mode, refused (create it from a task)\n");
		return -EOPNOTSUPP;
	}
	struct sim_timer *t = calloc(1, sizeof(*t));
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), irq, err;
	char name[32];	/* a task name's size (sim/internal.h) */

	if (!t || fd < 0) {
		err = fd < 0 ? -errno : -ENOMEM;
		free(t);
		if (fd >= 0)
			close(fd);
		return err;
	}
	irq = fd_line_new(fd, true, &sim_timer_ops, t, type, out);
	if (irq < 0) {
		free(t);
		close(fd);
		return irq;
	}
	t->line = *out;
	snprintf(name, sizeof(name), "timerfd/%d", irq);
	err = uirq_sim_thread_create(&t->task, NULL, sim_timer_fn, t, name);
	if (err) {
		uirq_fd_line_destroy(*out);	/* its release frees t: no task to stop */
		*out = NULL;
		return -err;
	}
	t->started = true;
	sim_timer_set(*out, initial_ns, period_ns);
	return irq;
}

/* ---- the kernel's timerfd ---- */

static int timer_set(int fd, uint64_t initial_ns, uint64_t period_ns)
{
	struct itimerspec its;

	its.it_value = uirq_ns_to_timespec(initial_ns);
	its.it_interval = uirq_ns_to_timespec(initial_ns ? period_ns : 0);
	return timerfd_settime(fd, 0, &its, NULL) < 0 ? -errno : 0;
}

int uirq_timerfd_line_create(unsigned int type, uint64_t initial_ns, uint64_t period_ns,
			     struct uirq_fd_line **out)
{
	int ret;

	if (!out)
		return -EINVAL;
	if (!type)
		type = UIRQ_TYPE_EDGE_RISING;
	if (uirq_sim_on)
		return sim_timer_create(type, initial_ns, period_ns, out);
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	ret = fd_line_new(fd, true, &timerfd_ops, NULL, type, out);
	if (ret > 0) {
		int r = timer_set(fd, initial_ns, period_ns);

		if (!r)
			return ret;
		uirq_fd_line_destroy(*out);
		*out = NULL;
		return r;
	}
	close(fd);
	return ret;
}

int uirq_timerfd_line_settime(struct uirq_fd_line *l, uint64_t initial_ns, uint64_t period_ns)
{
	const struct fd_line_ops *kind = l ? fd_line_kind(l) : NULL;

	if (kind == &sim_timer_ops) {
		sim_timer_set(l, initial_ns, period_ns);
		return 0;
	}
	if (kind != &timerfd_ops)
		return -EINVAL;
	return timer_set(uirq_fd_line_fd(l), initial_ns, period_ns);
}
