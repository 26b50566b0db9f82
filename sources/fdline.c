// SPDX-License-Identifier: MIT
/*
 * File-descriptor lines: an eventfd, (timerfd.c) a timerfd, (uio.c) a UIO device or
 * (gpio.c) a GPIO line request as an interrupt line.
 *
 * The CPU serving the line watches the fd (uirq_cpu_watch_fd, one-shot) and
 * raises the line when it becomes readable.  The chip then behaves like a
 * message-signalled controller:
 *   ack       read the counter (edges merged into this interrupt, or timer
 *             expirations), then re-arm the watch unless masked;
 *   mask_ack  mask and read; but when a level line's flow will run no
 *             handler the counter stays unread (the level stays
 *             asserted) and the unmask or startup has the CPU look again,
 *             unless the device's re-enable signals a level still asserted
 *             anew (VFIO's and UIO's INTx): then that stale signal is
 *             dropped, or one interrupt would reach the handlers twice;
 *   mask      leave the watch disarmed;
 *   unmask    re-arm the watch;
 *   retrigger raise the line again (a resend after lazy disable), unless
 *             the fd is readable again: the watch delivers that already.
 * Reading before re-arming means an event that lands between the two makes
 * the fd readable when the watch is re-armed: nothing is lost.
 *
 * The state (type, masked, started) is one atomic word and the counters are
 * atomics: no locks, so every callback is fine in hard-irq context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "../sim/sim.h"
#include "uirq/irq.h"
#include "uirq/sources.h"

#include "fdline.h"

#define ST_TYPE		UIRQ_TYPE_SENSE_MASK
#define ST_MASKED	(1u << 4)
#define ST_STARTED	(1u << 5)
#define ST_UNREAD	(1u << 6)	/* a level left asserted: the counter was not read (fdl_mask_ack) */

struct uirq_fd_line {
	unsigned int irq;
	int fd;
	bool owned;		/* close fd on destroy */
	bool own_desc;		/* the descriptor is ours to free (not a domain's mapping) */
	const struct fd_line_ops *ops;
	void *priv;		/* the kind's state */
	struct uirq_irq_chip chip;	/* the common callbacks under the kind's name */
	_Atomic uint32_t state;
	_Atomic uint64_t last;	/* the latest ack's counter value */
	_Atomic uint64_t untaken;	/* events read and not yet taken by uirq_fd_line_take_count() */
	atomic_ulong acks, empty, events, merged, rearms;
};

static inline void add(atomic_ulong *c, unsigned long v)
{
	atomic_fetch_add_explicit(c, v, memory_order_relaxed);
}

/*
 * One of the types an fd line can have (the edges and LEVEL_HIGH; no
 * LEVEL_LOW: readiness is the only level an fd has), and all of its bits
 * are the kind's: EDGE_BOTH needs both edges (a GPIO line).
 */
static bool valid_fd_type(unsigned int type, unsigned int kind_types)
{
	switch (type) {
	case UIRQ_TYPE_EDGE_RISING:
	case UIRQ_TYPE_EDGE_FALLING:
	case UIRQ_TYPE_EDGE_BOTH:
	case UIRQ_TYPE_LEVEL_HIGH:
		return (type & ~kind_types) == 0;
	default:
		return false;
	}
}

static inline struct uirq_fd_line *line_of(struct uirq_irq_data *d)
{
	return d ? d->chip_data : NULL;
}

/* old: the state before the caller's change; its ST_UNREAD says the fd was left readable. */
static void rearm(struct uirq_fd_line *l, uint32_t old)
{
	add(&l->rearms, 1);
	uirq_cpu_rearm_fd(l->irq, old & ST_UNREAD);
}

/* eventfd and timerfd both hand out a uint64_t counter and reset it. */
uint64_t fd_line_read_counter64(struct uirq_fd_line *l)
{
	uint64_t v = 0;
	ssize_t n;

	do {
		n = read(l->fd, &v, sizeof(v));
	} while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(v) ? v : 0;
}

/* The ack's read, accounted. */
static void read_counter(struct uirq_fd_line *l)
{
	uint64_t v = l->ops->read_events(l);

	if (v == 0) {
		add(&l->empty, 1);
		atomic_store_explicit(&l->last, 0, memory_order_relaxed);
		return;
	}
	add(&l->acks, 1);
	add(&l->events, (unsigned long)v);
	add(&l->merged, (unsigned long)(v - 1));
	atomic_fetch_add_explicit(&l->untaken, v, memory_order_relaxed);
	atomic_store_explicit(&l->last, v, memory_order_relaxed);
}

static void hw_enable(struct uirq_fd_line *l, bool on)
{
	if (l->ops->hw_enable)
		l->ops->hw_enable(l, on);
}

/*
 * Before the device may interrupt again (startup, unmask; old is the state
 * before): a level left unread (ST_UNREAD) on a kind whose re-enable signals
 * a level still asserted anew would be delivered twice, the old signal at
 * once and the new one after it (VFIO sends it from a kernel work item, a
 * moment later): the thread ran twice, the second time finding the device
 * quiet.  The new signal alone says whether the device still asserts, so
 * the old one is read and dropped.  Nothing can land between the read and
 * the re-enable: the device masked itself when it signalled (VFIO's
 * automask, uio_pci_generic's INTx disable bit) or shutdown masked it.
 * Returns the state to re-arm with.
 */
static uint32_t drop_stale(struct uirq_fd_line *l, uint32_t old)
{
	if (!(old & ST_UNREAD) || !l->ops->resignals || !l->ops->resignals(l))
		return old;
	l->ops->read_events(l);
	return old & ~ST_UNREAD;
}

/* new = (old & ~clr) | set; returns old. */
static uint32_t modify(struct uirq_fd_line *l, uint32_t clr, uint32_t set)
{
	uint32_t old = atomic_load_explicit(&l->state, memory_order_relaxed);

	while (!atomic_compare_exchange_weak_explicit(&l->state, &old, (old & ~clr) | set,
						      memory_order_acq_rel, memory_order_relaxed))
		;
	return old;
}

/* ---- chip callbacks ---- */

static unsigned int fd_startup(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (l) {
		uint32_t old = drop_stale(l, modify(l, ST_MASKED | ST_UNREAD, ST_STARTED));

		hw_enable(l, true);
		rearm(l, old);
	}
	return 0;
}

static void fd_shutdown(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (l) {
		modify(l, ST_STARTED, ST_MASKED);
		hw_enable(l, false);
	}
}

static void fdl_mask(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (l)
		modify(l, 0, ST_MASKED);
}

static void fdl_unmask(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (l) {
		uint32_t old = drop_stale(l, modify(l, ST_MASKED | ST_UNREAD, 0));

		/* The device first: an interrupt in between leaves the fd readable for the watch. */
		hw_enable(l, true);
		rearm(l, old);
	}
}

static void fdl_ack(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (!l)
		return;
	read_counter(l);
	if (!(atomic_load_explicit(&l->state, memory_order_acquire) & ST_MASKED))
		rearm(l, 0);	/* just read: nothing left unread */
}

/*
 * A level line's counter is its level: reading it is servicing the device.
 * When the level flow will run no handler (the line disabled, without a
 * handler, or handled elsewhere) the counter is left unread, so the level
 * stays asserted and the unmask that ends that state is interrupted again,
 * as a real level line would be; the kernel resends no level interrupt.
 */
static bool level_unserved(struct uirq_fd_line *l, unsigned int irq)
{
	return (atomic_load_explicit(&l->state, memory_order_relaxed) & UIRQ_TYPE_LEVEL_MASK) &&
	       (!uirq_irq_is_enabled(irq) || !uirq_irq_has_action(irq) || uirq_irq_in_progress(irq));
}

static void fdl_mask_ack(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (!l)
		return;
	if (level_unserved(l, l->irq)) {
		modify(l, 0, ST_MASKED | ST_UNREAD);
		atomic_store_explicit(&l->last, 0, memory_order_relaxed);
	} else {
		modify(l, 0, ST_MASKED);
		read_counter(l);
	}
}

static int fd_set_type(struct uirq_irq_data *d, unsigned int type)
{
	struct uirq_fd_line *l = line_of(d);

	if (!l)
		return -EINVAL;
	type &= UIRQ_TYPE_SENSE_MASK;
	if (type == UIRQ_TYPE_NONE)
		return 0;
	if (!valid_fd_type(type, l->ops->types))
		return -EINVAL;
	if (l->ops->set_type) {
		int ret = l->ops->set_type(l, type);

		if (ret)
			return ret;
	}
	modify(l, ST_TYPE, type);
	return 0;
}

/* Is the fd readable now?  A poll that does not wait. */
static bool fd_readable(struct uirq_fd_line *l)
{
	struct pollfd p = { .fd = l->fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

/*
 * A resend replays an edge the disabled flow took: its events were read
 * then and wait for the handler (untaken).  If the unmasked line's fd is
 * readable again, the re-armed watch delivers it now, and that delivery's
 * handler takes both: raising the line as well ran the handler a second
 * time with nothing to take (the watch's event first, the resend's flow
 * after it).  Nothing reads the fd but an ack, and an ack's flow runs the
 * handler, so readable means delivered.
 */
static int fd_retrigger(struct uirq_irq_data *d)
{
	struct uirq_fd_line *l = line_of(d);

	if (!l)
		return 0;
	if (!(atomic_load_explicit(&l->state, memory_order_acquire) & ST_MASKED) && fd_readable(l))
		return 1;
	uirq_irq_raise(l->irq);
	return 1;
}

/* The edge flow for the edge types, the level flow for LEVEL_HIGH. */
static void fd_flow(struct uirq_irq_desc *desc)
{
	struct uirq_fd_line *l = line_of(uirq_irq_desc_get_irq_data(desc));

	if (l && (atomic_load_explicit(&l->state, memory_order_relaxed) & UIRQ_TYPE_LEVEL_MASK))
		uirq_handle_level_irq(desc);
	else
		uirq_handle_edge_irq(desc);
}

static const struct uirq_irq_chip fd_chip_template = {
	.irq_startup = fd_startup,
	.irq_shutdown = fd_shutdown,
	.irq_mask = fdl_mask,
	.irq_unmask = fdl_unmask,
	.irq_ack = fdl_ack,
	.irq_mask_ack = fdl_mask_ack,
	.irq_set_type = fd_set_type,
	.irq_retrigger = fd_retrigger,
};

static const struct fd_line_ops eventfd_ops = {
	.name = "eventfd",
	.types = FD_LINE_COUNTER_TYPES,
	.oneshot_safe = true,
	.sim_virtual = true,
	.read_events = fd_line_read_counter64,
};

/* ---- creation and destruction ---- */

/* Set up the line on descriptor irq: 0 or -errno (the descriptor is then the caller's). */
static int line_init(unsigned int irq, int fd, bool owned, const struct fd_line_ops *ops, void *priv,
		     unsigned int type, struct uirq_fd_line **out)
{
	struct uirq_fd_line *l;
	int ret;

	if (!valid_fd_type(type, ops->types))
		return -EINVAL;
	/* The scheduler cannot order a kernel's or another process's fd: only the program's own eventfd replays. */
	if (!(ops->sim_virtual && owned)) {
		ret = uirq_sim_refuse(ops->name);
		if (ret)
			return ret;
	}
	/* The ack reads in hard-irq context: whatever the fd, it must never block. */
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0))
		return -errno;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->irq = irq;
	l->fd = fd;
	l->owned = owned;
	l->ops = ops;
	l->priv = priv;
	l->chip = fd_chip_template;
	l->chip.name = ops->name;
	l->chip.flags = ops->oneshot_safe ? UIRQCHIP_ONESHOT_SAFE : 0;
	atomic_init(&l->state, type | ST_MASKED);
	uirq_irq_set_chip_and_handler_name(l->irq, &l->chip, fd_flow, ops->name);
	ret = uirq_irq_set_chip_data(l->irq, l);
	if (!ret)
		ret = uirq_irq_set_irq_type(l->irq, type);
	if (!ret)
		ret = uirq_cpu_watch_fd(l->irq, l->fd);
	if (ret) {
		uirq_irq_set_chip_and_handler_name(l->irq, NULL, NULL, NULL);
		free(l);
		return ret < 0 ? ret : -EINVAL;
	}
	*out = l;
	return 0;
}

int fd_line_new_at(unsigned int irq, int fd, bool owned, const struct fd_line_ops *ops, void *priv,
		   unsigned int type, struct uirq_fd_line **out)
{
	return line_init(irq, fd, owned, ops, priv, type, out);
}

int fd_line_new(int fd, bool owned, const struct fd_line_ops *ops, void *priv, unsigned int type,
		struct uirq_fd_line **out)
{
	int irq, ret;

	if (!valid_fd_type(type, ops->types))
		return -EINVAL;
	irq = uirq_irq_alloc_descs(-1, 1, 1);
	if (irq <= 0)
		return irq < 0 ? irq : -ENOMEM;
	ret = line_init((unsigned int)irq, fd, owned, ops, priv, type, out);
	if (ret) {
		uirq_irq_free_descs((unsigned int)irq, 1);
		return ret;
	}
	(*out)->own_desc = true;
	return irq;
}

void *fd_line_priv(const struct uirq_fd_line *l)
{
	return l->priv;
}

const struct fd_line_ops *fd_line_kind(const struct uirq_fd_line *l)
{
	return l->ops;
}

/* Is fd an eventfd?  Its /proc/self/fd link reads "anon_inode:[eventfd]". */
static int check_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	if (fcntl(fd, F_GETFL) < 0)
		return -EBADF;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;	/* no /proc: trust the caller */
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") ? -EINVAL : 0;
}

int uirq_eventfd_line_create(int fd, unsigned int type, struct uirq_fd_line **out)
{
	bool owned = fd < 0;
	int ret;

	if (!out)
		return -EINVAL;
	if (!type)
		type = UIRQ_TYPE_EDGE_RISING;
	if (!valid_fd_type(type, FD_LINE_COUNTER_TYPES))
		return -EINVAL;
	if (owned) {
		fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (fd < 0)
			return -errno;
	} else {
		ret = check_eventfd(fd);
		if (ret)
			return ret;
	}
	ret = fd_line_new(fd, owned, &eventfd_ops, NULL, type, out);
	if (ret < 0 && owned)
		close(fd);
	return ret;
}

int fd_line_add_events(struct uirq_fd_line *l, uint64_t n)
{
	for (;;) {
		if (write(l->fd, &n, sizeof(n)) == (ssize_t)sizeof(n))
			return uirq_cpu_fd_written(l->irq);
		if (errno != EINTR)
			return -errno;
	}
}

int uirq_eventfd_line_raise(struct uirq_fd_line *l)
{
	if (!l || l->ops != &eventfd_ops)
		return -EINVAL;
	return fd_line_add_events(l, 1);
}

int fd_line_remove(struct uirq_fd_line *l)
{
	/* A handler, not "started" (IRQF_NO_AUTOEN, enable_irq by hand), keeps the line. */
	if (uirq_irq_has_action(l->irq))
		return -EBUSY;
	uirq_cpu_unwatch_fd(l->irq);
	/* No flow handler may still be running with l as its chip data. */
	uirq_synchronize_hardirq(l->irq);
	uirq_irq_set_chip_and_handler_name(l->irq, NULL, NULL, NULL);
	if (l->own_desc)
		uirq_irq_free_descs(l->irq, 1);
	if (l->ops->release)
		l->ops->release(l);
	if (l->owned)
		close(l->fd);
	free(l);
	return 0;
}

int uirq_fd_line_destroy(struct uirq_fd_line *l)
{
	/* A device's line goes with its device (uirq_vfio_close), which knows its other lines. */
	if (!l || l->ops->device_owned)
		return -EINVAL;
	return fd_line_remove(l);
}

unsigned int uirq_fd_line_irq(const struct uirq_fd_line *l)
{
	return l ? l->irq : 0;
}

int uirq_fd_line_fd(const struct uirq_fd_line *l)
{
	return l ? l->fd : -EINVAL;
}

uint64_t uirq_fd_line_last_count(const struct uirq_fd_line *l)
{
	return l ? atomic_load_explicit(&((struct uirq_fd_line *)l)->last, memory_order_relaxed) : 0;
}

uint64_t uirq_fd_line_take_count(struct uirq_fd_line *l)
{
	return l ? atomic_exchange_explicit(&l->untaken, 0, memory_order_relaxed) : 0;
}

int uirq_fd_line_get_stats(const struct uirq_fd_line *l, struct uirq_fd_line_stats *st)
{
	if (!l || !st)
		return -EINVAL;
	struct uirq_fd_line *m = (struct uirq_fd_line *)l;
	uint32_t s = atomic_load(&m->state);

	memset(st, 0, sizeof(*st));
	st->acks = atomic_load(&m->acks);
	st->empty = atomic_load(&m->empty);
	st->events = atomic_load(&m->events);
	st->merged = atomic_load(&m->merged);
	st->rearms = atomic_load(&m->rearms);
	st->type = s & ST_TYPE;
	st->masked = s & ST_MASKED;
	st->started = s & ST_STARTED;
	return 0;
}
