// SPDX-License-Identifier: MIT
/*
 * GPIO lines: one input line of a /dev/gpiochipN of a real kernel, its
 * edge events as an interrupt line (a power button, a sensor's IRQ pin).
 *
 * The line is requested through the GPIO character device's uAPI v2
 * (GPIO_V2_GET_LINE_IOCTL, input with edge detection): the kernel's edge
 * handler timestamps each edge and queues a struct gpio_v2_line_event on
 * the request's fd, which becomes readable.  That fd is the fd line
 * (fdline.c): ack reads every queued event (non-blocking) and counts them
 * as the edges merged into this interrupt; mask stops watching, and the
 * kernel keeps queueing meanwhile, as an edge controller latches.  The
 * edge flow serves all three edge types.
 *
 * Why the uAPI and not libgpiod: Debian 12 ships libgpiod 1.6.3, whose
 * API is built on the v1 uAPI.  Its struct gpiod_line_event holds only a
 * timestamp and the edge kind (gpiod.h, measured on libgpiod-dev
 * 1.6.3-1+b3): no sequence number, so events the kernel dropped from a full
 * queue cannot be told from none, and it has no debounce setting.  The v2
 * records carry line_seqno, which numbers a line's events from 1 without
 * gaps: a gap is events lost, counted in the line's stats, never hidden.
 *
 * The kernel's queue is 16 events per line by default; when it is full the
 * oldest is dropped.  Edges that come faster than the kernel's own edge
 * thread reads the line merge before they are numbered: those show up as
 * two edges of the same kind in a row, not as a seqno gap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/gpio.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "uirq/sources.h"

#include "fdline.h"

#define GPIO_EDGES (UIRQ_TYPE_EDGE_RISING | UIRQ_TYPE_EDGE_FALLING)
#define GPIO_CONSUMER "uirq"
#define READ_BATCH 16	/* the kernel's default queue: one read usually drains it */

struct gpio_line {
	unsigned int offset;
	unsigned int type;		/* the edges the request detects now */
	uint32_t debounce_us;
	/*
	 * The last event, for the handlers: written by the ack only (the flow
	 * serializes acks), read anywhere.  gen is odd while it changes.
	 */
	_Atomic uint32_t gen;
	_Atomic uint64_t last_ts;
	_Atomic uint32_t last_seqno;	/* line_seqno; 0: no event yet */
	_Atomic uint32_t last_kind;
	atomic_ulong rising, falling, lost, read_errors;
};

static struct gpio_line *gpio_of(const struct uirq_fd_line *l)
{
	return fd_line_priv(l);
}

static void relaxed_add(atomic_ulong *c, unsigned long v)
{
	atomic_fetch_add_explicit(c, v, memory_order_relaxed);
}

/* Account one event: its kind, a seqno gap, and publish it as the last one. */
static void take_event(struct gpio_line *g, const struct gpio_v2_line_event *e)
{
	uint32_t prev = atomic_load_explicit(&g->last_seqno, memory_order_relaxed);
	uint32_t gap = e->line_seqno - prev - 1;	/* unsigned: the numbers wrap at 2^32 */

	/* A seqno at or behind the previous one is no gap (the kernel renumbers after reconfiguring). */
	if (gap < UINT32_MAX / 2)
		relaxed_add(&g->lost, gap);
	relaxed_add(e->id == GPIO_V2_LINE_EVENT_RISING_EDGE ? &g->rising : &g->falling, 1);
	atomic_fetch_add_explicit(&g->gen, 1, memory_order_acq_rel);
	atomic_store_explicit(&g->last_ts, e->timestamp_ns, memory_order_relaxed);
	atomic_store_explicit(&g->last_seqno, e->line_seqno, memory_order_relaxed);
	atomic_store_explicit(&g->last_kind,
			      e->id == GPIO_V2_LINE_EVENT_RISING_EDGE ? UIRQ_TYPE_EDGE_RISING : UIRQ_TYPE_EDGE_FALLING,
			      memory_order_relaxed);
	atomic_fetch_add_explicit(&g->gen, 1, memory_order_release);
}

/* Drain the queued events (the fd is non-blocking); their number. */
static uint64_t gpio_read_events(struct uirq_fd_line *l)
{
	struct gpio_line *g = gpio_of(l);
	struct gpio_v2_line_event ev[READ_BATCH];
	uint64_t count = 0;

	for (;;) {
		ssize_t n = read(uirq_fd_line_fd(l), ev, sizeof(ev));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != EAGAIN)
				relaxed_add(&g->read_errors, 1);
			break;
		}
		size_t k = (size_t)n / sizeof(ev[0]);

		for (size_t i = 0; i < k; i++)
			take_event(g, &ev[i]);
		count += k;
		if (k < READ_BATCH)
			break;
	}
	return count;
}

static uint64_t edge_flags(unsigned int type)
{
	return (type & UIRQ_TYPE_EDGE_RISING ? GPIO_V2_LINE_FLAG_EDGE_RISING : 0) |
	       (type & UIRQ_TYPE_EDGE_FALLING ? GPIO_V2_LINE_FLAG_EDGE_FALLING : 0);
}

/* The line's configuration for type: an input with those edges, debounced if asked. */
static void line_config(const struct gpio_line *g, unsigned int type, struct gpio_v2_line_config *c)
{
	memset(c, 0, sizeof(*c));
	c->flags = GPIO_V2_LINE_FLAG_INPUT | edge_flags(type);
	if (g->debounce_us) {
		c->num_attrs = 1;
		c->attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
		c->attrs[0].attr.debounce_period_us = g->debounce_us;
		c->attrs[0].mask = 1;	/* the request's first (only) line */
	}
}

/* request_irq() with IRQF_TRIGGER_*, or uirq_irq_set_irq_type(): the request detects other edges. */
static int gpio_set_type(struct uirq_fd_line *l, unsigned int type)
{
	struct gpio_line *g = gpio_of(l);
	struct gpio_v2_line_config c;

	if (type == g->type)
		return 0;
	line_config(g, type, &c);
	if (ioctl(uirq_fd_line_fd(l), GPIO_V2_LINE_SET_CONFIG_IOCTL, &c) < 0)
		return -errno;
	g->type = type;
	return 0;
}

static void gpio_release(struct uirq_fd_line *l)
{
	free(gpio_of(l));
}

static const struct fd_line_ops gpio_ops = {
	.name = "gpio",
	.types = GPIO_EDGES,
	/* Reading the events empties the queue, and nothing else holds the line asserted. */
	.oneshot_safe = true,
	.read_events = gpio_read_events,
	.set_type = gpio_set_type,
	.release = gpio_release,
};

/* "/dev/gpiochipN", "gpiochipN" or "N" -> the device path. */
int uirq_gpio_chip_path(const char *chip, char *path, size_t len)
{
	int n;

	if (!chip || !*chip || !path)
		return -EINVAL;
	if (strchr(chip, '/'))
		n = snprintf(path, len, "%s", chip);
	else if (strspn(chip, "0123456789") == strlen(chip))
		n = snprintf(path, len, "/dev/gpiochip%s", chip);
	else
		n = snprintf(path, len, "/dev/%s", chip);
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

/* Request the line: the request's fd (non-blocking), or -errno. */
static int request_line(const char *path, const struct gpio_line *g)
{
	struct gpio_v2_line_request req;
	int chip, err = 0;

	chip = open(path, O_RDWR | O_CLOEXEC);
	if (chip < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.offsets[0] = g->offset;
	req.num_lines = 1;
	snprintf(req.consumer, sizeof(req.consumer), GPIO_CONSUMER);
	line_config(g, g->type, &req.config);
	if (ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req) < 0)
		err = -errno;
	close(chip);
	/* fd_line_new() makes it non-blocking; the kernel set O_CLOEXEC. */
	return err ? err : req.fd;
}

int uirq_gpio_line_create(const char *chip, unsigned int offset, unsigned int type, uint32_t debounce_us,
			  struct uirq_fd_line **out)
{
	char path[PATH_MAX];
	struct gpio_line *g;
	int fd, ret;

	if (!chip || !out)
		return -EINVAL;
	if (!type)
		type = UIRQ_TYPE_EDGE_BOTH;
	/* Edges only: the uAPI reports changes, never a level that stays asserted. */
	if (type != UIRQ_TYPE_EDGE_RISING && type != UIRQ_TYPE_EDGE_FALLING && type != UIRQ_TYPE_EDGE_BOTH)
		return -EINVAL;
	ret = uirq_gpio_chip_path(chip, path, sizeof(path));
	if (ret)
		return ret;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->offset = offset;
	g->type = type;
	g->debounce_us = debounce_us;
	fd = request_line(path, g);
	if (fd < 0) {
		free(g);
		return fd;
	}
	ret = fd_line_new(fd, true, &gpio_ops, g, type, out);
	if (ret < 0) {
		close(fd);
		free(g);
	}
	return ret;
}

int uirq_gpio_line_last_event(const struct uirq_fd_line *l, struct uirq_gpio_event *ev)
{
	if (!l || !ev || fd_line_kind(l) != &gpio_ops)
		return -EINVAL;
	struct gpio_line *g = gpio_of(l);
	uint32_t gen;

	/* A consistent triple: retry while an ack is rewriting it. */
	do {
		gen = atomic_load_explicit(&g->gen, memory_order_acquire);
		ev->timestamp_ns = atomic_load_explicit(&g->last_ts, memory_order_relaxed);
		ev->line_seqno = atomic_load_explicit(&g->last_seqno, memory_order_relaxed);
		ev->kind = atomic_load_explicit(&g->last_kind, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
	} while ((gen & 1) || gen != atomic_load_explicit(&g->gen, memory_order_relaxed));
	return ev->line_seqno ? 0 : -ENODATA;
}

int uirq_gpio_line_get_stats(const struct uirq_fd_line *l, struct uirq_gpio_line_stats *st)
{
	if (!l || !st || fd_line_kind(l) != &gpio_ops)
		return -EINVAL;
	struct gpio_line *g = gpio_of(l);

	memset(st, 0, sizeof(*st));
	st->rising = atomic_load(&g->rising);
	st->falling = atomic_load(&g->falling);
	st->lost = atomic_load(&g->lost);
	st->read_errors = atomic_load(&g->read_errors);
	st->last_seqno = atomic_load(&g->last_seqno);
	st->offset = g->offset;
	st->debounce_us = g->debounce_us;
	return 0;
}

int uirq_gpio_line_get_value(const struct uirq_fd_line *l)
{
	if (!l || fd_line_kind(l) != &gpio_ops)
		return -EINVAL;
	struct gpio_v2_line_values v = { .mask = 1 };

	if (ioctl(uirq_fd_line_fd(l), GPIO_V2_LINE_GET_VALUES_IOCTL, &v) < 0)
		return -errno;
	return (int)(v.bits & 1);
}
