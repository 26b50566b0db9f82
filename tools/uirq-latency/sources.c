// SPDX-License-Identifier: MIT
/*
 * What raises the interrupt.  eventfd: a write (uirq's eventfd line; the
 * baselines' own eventfd, or a futex).  timerfd: a one-shot timer armed
 * interval_ns ahead (uirq's timerfd line; the baseline's own timerfd), the
 * sample measured from its due time as cyclictest does.  uio, vfio: QEMU's
 * edu device (src_edu.c), raised through its "raise interrupt" register.
 * gpio: a gpio-sim line pulled through sysfs (src_gpio.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "latency.h"
#include "sources.h"
#include "uirq/sources.h"

int src_line_made(int ret, unsigned int *irq)
{
	if (ret < 0)
		return ret;
	*irq = (unsigned int)ret;
	return 0;
}

void src_line_done(struct source *s)
{
	uirq_fd_line_destroy(s->line);
	s->line = NULL;
}

static int fd_line_open(struct source *s, unsigned int *irq)
{
	return src_line_made(s->o->source == SRC_EVENTFD ? uirq_eventfd_line_create(-1, 0, &s->line)
							 : uirq_timerfd_line_create(0, 0, 0, &s->line), irq);
}

static int fd_open(struct source *s)
{
	s->fd = s->o->source == SRC_EVENTFD ? eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)
					    : timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	return s->fd < 0 ? -errno : s->fd;
}

void src_fd_done(struct source *s)
{
	close(s->fd);
	s->fd = -1;
}

/* The baseline's read of its fd; uirq's line reads its own (the line's ack). */
static void fd_ack(struct source *s, bool baseline)
{
	uint64_t v;

	if (baseline && read(s->fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		abort();	/* an fd of our own: nothing sensible to do */
}

static int fd_raise(struct source *s, struct run *r, bool baseline)
{
	if (s->o->source == SRC_EVENTFD) {
		uint64_t one = 1;

		atomic_store(&r->t0, lat_now());
		if (!baseline)
			return uirq_eventfd_line_raise(s->line);
		return write(s->fd, &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
	}
	/* Due interval_ns from now: the clock read before the arming, so the sample includes the arming's cost. */
	uint64_t due = lat_now() + s->o->interval_ns;

	atomic_store(&r->t0, due);
	if (!baseline)
		return uirq_timerfd_line_settime(s->line, s->o->interval_ns, 0);
	struct itimerspec its = { .it_value = { .tv_sec = (time_t)(due / 1000000000u),
						.tv_nsec = (long)(due % 1000000000u) } };

	return timerfd_settime(s->fd, TFD_TIMER_ABSTIME, &its, NULL) ? -errno : 0;
}

static const struct source_ops fd_ops = {
	.line = fd_line_open, .line_done = src_line_done, .fd = fd_open, .fd_done = src_fd_done,
	.ack = fd_ack, .raise = fd_raise,
};

int source_open(const struct opts *o, struct source **out, const char **why)
{
	struct source *s = calloc(1, sizeof(*s));
	int err = 0;

	if (!s)
		return -ENOMEM;
	s->o = o;
	s->fd = -1;
	switch (o->source) {
	case SRC_EVENTFD:
	case SRC_TIMERFD:
		s->ops = &fd_ops;
		break;
	case SRC_UIO:
	case SRC_VFIO:
		err = edu_open(s, why);
		break;
	case SRC_GPIO:
		err = gpio_open(s, why);
		break;
	}
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

int source_line(struct source *s, unsigned int *irq)
{
	return s->ops->line(s, irq);
}

void source_line_done(struct source *s)
{
	s->ops->line_done(s);
}

int source_fd(struct source *s)
{
	return s->ops->fd(s);
}

void source_fd_done(struct source *s)
{
	s->ops->fd_done(s);
}

void source_ack(struct source *s, bool baseline)
{
	s->ops->ack(s, baseline);
}

int source_raise(struct source *s, struct run *r, bool baseline)
{
	return s->ops->raise(s, r, baseline);
}

void source_close(struct source *s)
{
	if (s->ops->close)
		s->ops->close(s);
	free(s);
}
