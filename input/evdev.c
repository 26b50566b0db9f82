// SPDX-License-Identifier: MIT
/*
 * evdev: the reading side of input devices.  Each client has a ring of
 * events, filled a frame at a time from the event path (any context, irqs
 * off) and drained by read.  The ring keeps evdev's rules: readers see only
 * whole frames, and an overflow throws away what was unread and leaves a
 * SYN_DROPPED in its place.
 *
 * Waking a reader must not sleep, so there is no condition variable: each
 * client owns an eventfd whose counter is non-zero exactly while a frame is
 * readable (or the device is gone).  Blocked readers and poll() users both
 * wait on it; it is set and cleared under the buffer lock, so it never
 * disagrees with the ring.
 *
 * Each client is a handle of its device (input.c), the same mechanism every
 * consumer uses: the core knows nothing of evdev.
 */
#include "input-core.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "uirq/might_sleep.h"
#include "../lib/lib.h"

#define EVDEV_BUF_PACKETS	8	/* packets a client buffers, as evdev sizes its buffer */
_Static_assert((UIRQ_INPUT_CLIENT_BUFSIZE & (UIRQ_INPUT_CLIENT_BUFSIZE - 1)) == 0,
	       "the client ring size is a power of two");

struct uirq_input_client {
	struct uirq_input_handle handle;	/* its link to the device */
	int efd;
	/*
	 * The deterministic mode's readers wait on this word instead of the
	 * eventfd (the scheduler cannot see poll()): bumped and woken as the
	 * eventfd is set.
	 */
	atomic_uint ready_seq;

	uirq_spinlock_t buffer_lock;		/* everything below */
	unsigned int head, tail, packet_head;	/* packet_head: end of the last whole frame */
	int clk;				/* INPUT_CLK_* */
	bool ready;				/* the eventfd counter is non-zero */
	bool gone;
	unsigned long overflows;
	unsigned int mask;			/* the ring's size - 1 (a power of two) */
	struct uirq_input_event buffer[];
};

/* evdev's ring: eight of the device's packets, at least UIRQ_INPUT_CLIENT_BUFSIZE, a power of two. */
static unsigned int ring_size(const struct uirq_input_dev *dev)
{
	unsigned int want = dev->hint_events_per_packet * EVDEV_BUF_PACKETS, n = UIRQ_INPUT_CLIENT_BUFSIZE;

	while (n < want)
		n <<= 1;
	return n;
}

/* Make the eventfd say what the ring says; buffer_lock held. */
static void sync_ready(struct uirq_input_client *c)
{
	bool want = c->gone || c->packet_head != c->tail;
	eventfd_t v;

	if (want == c->ready)
		return;
	/* Non-blocking, and the counter is 0 or 1 here: neither call can wait or fail. */
	if (want)
		(void)!eventfd_write(c->efd, 1);
	else
		(void)!eventfd_read(c->efd, &v);
	c->ready = want;
	if (want && uirq_sim_running()) {
		atomic_fetch_add(&c->ready_seq, 1);
		uirq_futex_wake(&c->ready_seq, INT_MAX);
	}
}

static void push(struct uirq_input_client *c, const struct uirq_input_event *ev)
{
	c->buffer[c->head] = *ev;
	c->head = (c->head + 1) & c->mask;
	if (c->head != c->tail)
		return;
	/*
	 * Full.  Everything unread is lost; what is left is SYN_DROPPED and the
	 * newest event, readable once the frame in progress ends.
	 */
	c->tail = (c->head - 2) & c->mask;
	c->buffer[c->tail] = (struct uirq_input_event){
		.time = ev->time, .type = EV_SYN, .code = SYN_DROPPED, .value = 0,
	};
	c->packet_head = c->tail;
	c->overflows++;
}

static struct timeval to_timeval(const struct timespec *ts)
{
	return (struct timeval){ .tv_sec = ts->tv_sec, .tv_usec = ts->tv_nsec / 1000 };
}

/* A frame from the core, under the device's event_lock (any context). */
static void evdev_events(struct uirq_input_handle *handle, const struct uirq_input_value *vals,
			 unsigned int count, const struct timespec *mono)
{
	struct uirq_input_client *c = (struct uirq_input_client *)handle;
	const struct timespec *stamp;
	unsigned long flags;

	uirq_spin_lock_irqsave(&c->buffer_lock, flags);
	/* the frame's stamps, monotonic first (input-core.h): the client's clock among them */
	stamp = &mono[c->clk];
	for (unsigned int i = 0; i < count; i++) {
		struct uirq_input_event ev = {
			.time = to_timeval(stamp),
			.type = vals[i].type, .code = vals[i].code, .value = vals[i].value,
		};

		push(c, &ev);
		if (ev.type == EV_SYN && ev.code == SYN_REPORT)
			c->packet_head = c->head;
	}
	sync_ready(c);
	uirq_spin_unlock_irqrestore(&c->buffer_lock, flags);
}

/* The device is going: wake the reader for -ENODEV; under the device's event_lock. */
static void evdev_disconnect(struct uirq_input_handle *handle)
{
	struct uirq_input_client *c = (struct uirq_input_client *)handle;
	unsigned long flags;

	uirq_spin_lock_irqsave(&c->buffer_lock, flags);
	c->gone = true;
	sync_ready(c);
	uirq_spin_unlock_irqrestore(&c->buffer_lock, flags);
}

int uirq_input_open(struct uirq_input_dev *dev, struct uirq_input_client **out)
{
	struct uirq_input_client *c;
	unsigned int size;
	int err;

	*out = NULL;
	if (!dev)
		return -EINVAL;
	/* The hint is final once the device is registered (an unregistered one is refused below). */
	size = ring_size(dev);
	c = calloc(1, sizeof(*c) + size * sizeof(c->buffer[0]));
	if (!c)
		return -ENOMEM;
	c->mask = size - 1;
	c->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (c->efd < 0) {
		err = -errno;
		free(c);
		return err;
	}
	uirq_spin_lock_init(&c->buffer_lock);
	c->clk = INPUT_CLK_MONO;
	c->handle.events = evdev_events;
	c->handle.disconnect = evdev_disconnect;
	err = uirq_input_register_handle(dev, &c->handle);
	if (err) {
		close(c->efd);
		free(c);
		return err;
	}
	*out = c;
	return 0;
}

void uirq_input_close(struct uirq_input_client *client)
{
	if (!client)
		return;
	uirq_input_unregister_handle(&client->handle);
	close(client->efd);
	uirq_lockdep_check_no_locks_freed(client, sizeof(*client));
	free(client);
}

/* Take whole-frame events off the ring: count, -EAGAIN if none, -ENODEV if gone. */
static int fetch(struct uirq_input_client *c, struct uirq_input_event *ev, int max)
{
	unsigned long flags;
	int n = 0;

	uirq_spin_lock_irqsave(&c->buffer_lock, flags);
	if (c->gone) {
		n = -ENODEV;	/* as evdev: once the device is gone, buffered events are not read */
	} else {
		while (n < max && c->packet_head != c->tail) {
			ev[n++] = c->buffer[c->tail];
			c->tail = (c->tail + 1) & c->mask;
		}
		sync_ready(c);
		if (!n)
			n = -EAGAIN;
	}
	uirq_spin_unlock_irqrestore(&c->buffer_lock, flags);
	return n;
}

int uirq_input_read(struct uirq_input_client *client, struct uirq_input_event *ev, int max,
		    unsigned int flags)
{
	int ret;

	if (!client || !ev || max <= 0)
		return -EINVAL;
	if (!(flags & UIRQ_INPUT_NONBLOCK))
		uirq_might_sleep();
	for (;;) {
		struct pollfd pfd = { .fd = client->efd, .events = POLLIN };
		unsigned int seq = atomic_load(&client->ready_seq);

		ret = fetch(client, ev, max);
		if (ret != -EAGAIN || (flags & UIRQ_INPUT_NONBLOCK))
			return ret;
		if (uirq_sim_task_id() >= 0) {
			uirq_futex_wait(&client->ready_seq, seq);
			continue;
		}
		/* Level-triggered: a frame that landed before this poll is not missed. */
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return -errno;
	}
}

int uirq_input_client_fd(const struct uirq_input_client *client)
{
	return client ? client->efd : -EINVAL;
}

int uirq_input_client_set_clock(struct uirq_input_client *client, clockid_t clk)
{
	unsigned long flags;
	int idx;

	if (!client)
		return -EINVAL;
	switch (clk) {
	case CLOCK_MONOTONIC:
		idx = INPUT_CLK_MONO;
		break;
	case CLOCK_REALTIME:
		idx = INPUT_CLK_REAL;
		break;
	case CLOCK_BOOTTIME:
		idx = INPUT_CLK_BOOT;
		break;
	default:
		return -EINVAL;
	}
	uirq_spin_lock_irqsave(&client->buffer_lock, flags);
	if (client->clk != idx) {
		client->clk = idx;
		/* Events stamped on the old clock would be out of order on the new one. */
		if (client->head != client->tail) {
			struct timespec now;
			struct uirq_input_event drop = { .type = EV_SYN, .code = SYN_DROPPED };

			if (!input_sim_stamp(&now))
				clock_gettime(clk, &now);
			drop.time = to_timeval(&now);
			client->head = client->packet_head = client->tail;
			push(client, &drop);
			sync_ready(client);
		}
	}
	uirq_spin_unlock_irqrestore(&client->buffer_lock, flags);
	return 0;
}

unsigned long uirq_input_client_overflows(struct uirq_input_client *client)
{
	unsigned long flags, n;

	uirq_spin_lock_irqsave(&client->buffer_lock, flags);
	n = client->overflows;
	uirq_spin_unlock_irqrestore(&client->buffer_lock, flags);
	return n;
}
