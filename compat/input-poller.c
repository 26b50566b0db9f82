// SPDX-License-Identifier: MIT
/*
 * Polled input devices (the kernel's input-poller.c behaviour): a device
 * without an interrupt has its driver's poll() called once when it is
 * opened and then every poll interval (500 ms unless the driver sets one)
 * until it is closed.  The kernel runs the poll from a delayed work item;
 * here the delay is a timerfd line of uirq's - on the virtual clock in the
 * deterministic mode - and the poll runs in that line's threaded handler,
 * which re-arms the line after each poll with the interval then set, as
 * the kernel queues its work again.  Stopping frees the line's handler,
 * which waits out a poll in progress, as cancel_delayed_work_sync() does.
 */
#include <stdlib.h>

#include <linux/errno.h>
#include <linux/input.h>
#include <linux/interrupt.h>

#include "input-core-private.h"
#include "uirq/sources.h"

#define NSEC_PER_MSEC	1000000ull

struct input_dev_poller {
	void (*poll)(struct input_dev *dev);
	unsigned int poll_interval;		/* ms */
	unsigned int poll_interval_max;
	unsigned int poll_interval_min;
	struct input_dev *input;
	struct uirq_fd_line *line;		/* while started */
};

int input_setup_polling(struct input_dev *dev, void (*poll_fn)(struct input_dev *dev))
{
	struct input_dev_poller *poller = calloc(1, sizeof(*poller));

	if (!poller) {
		dev_err(dev->dev.parent ? dev->dev.parent : &dev->dev,
			"%s: unable to allocate poller structure\n", __func__);
		return -ENOMEM;
	}
	poller->input = dev;
	poller->poll = poll_fn;
	dev->poller = poller;
	return 0;
}

static bool ensure_poller(struct input_dev *dev)
{
	if (!dev->poller)
		dev_err(dev->dev.parent ? dev->dev.parent : &dev->dev, "poller structure has not been set up\n");
	return dev->poller != NULL;
}

void input_set_poll_interval(struct input_dev *dev, unsigned int interval)
{
	if (ensure_poller(dev))
		dev->poller->poll_interval = interval;
}

void input_set_min_poll_interval(struct input_dev *dev, unsigned int interval)
{
	if (ensure_poller(dev))
		dev->poller->poll_interval_min = interval;
}

void input_set_max_poll_interval(struct input_dev *dev, unsigned int interval)
{
	if (ensure_poller(dev))
		dev->poller->poll_interval_max = interval;
}

int input_get_poll_interval(struct input_dev *dev)
{
	return dev->poller ? (int)dev->poller->poll_interval : -EINVAL;
}

void input_dev_poller_finalize(struct input_dev_poller *poller)
{
	if (!poller->poll_interval)
		poller->poll_interval = 500;
	if (!poller->poll_interval_max)
		poller->poll_interval_max = poller->poll_interval;
}

/* The line's thread: a poll, then the next one an interval from now (the interval as it is now). */
static irqreturn_t poll_thread(int irq, void *data)
{
	struct input_dev_poller *poller = data;

	(void)irq;
	poller->poll(poller->input);
	uirq_timerfd_line_settime(poller->line, poller->poll_interval * NSEC_PER_MSEC, 0);
	return IRQ_HANDLED;
}

int input_dev_poller_start(struct input_dev_poller *poller)
{
	int irq, ret;

	/* An interval of 0 stops polling, as the kernel's does. */
	if (!poller->poll_interval)
		return 0;
	poller->poll(poller->input);
	irq = uirq_timerfd_line_create(UIRQ_TYPE_EDGE_RISING, poller->poll_interval * NSEC_PER_MSEC, 0,
				       &poller->line);
	if (irq < 0)
		return irq;
	ret = request_threaded_irq((unsigned int)irq, NULL, poll_thread, IRQF_ONESHOT, "input-poller", poller);
	if (ret) {
		uirq_fd_line_destroy(poller->line);
		poller->line = NULL;
	}
	return ret;
}

void input_dev_poller_stop(struct input_dev_poller *poller)
{
	if (!poller->line)
		return;
	free_irq(uirq_fd_line_irq(poller->line), poller);
	uirq_fd_line_destroy(poller->line);
	poller->line = NULL;
}

void input_dev_poller_free(struct input_dev_poller *poller)
{
	free(poller);
}
