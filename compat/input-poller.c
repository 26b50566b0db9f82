// SPDX-License-Identifier: MIT
/*
 * Polled input devices (the kernel's input-poller.c), declined: the
 * kernel polls on a workqueue every poll interval while the device is
 * open, and this layer has no workqueue.  A driver that falls back to
 * polling when it has no interrupt fails its probe with -EOPNOTSUPP and
 * this message instead of registering a device that would never report.
 * The interval calls answer as the kernel's do for a device without a
 * poller: the setters do nothing, the getter says -EINVAL.
 */
#include <linux/errno.h>
#include <linux/input.h>

int input_setup_polling(struct input_dev *dev, void (*poll_fn)(struct input_dev *dev))
{
	(void)poll_fn;
	dev_err(dev->dev.parent ? dev->dev.parent : &dev->dev,
		"input: polled devices are not supported (no workqueue): give the device an interrupt\n");
	return -EOPNOTSUPP;
}

void input_set_poll_interval(struct input_dev *dev, unsigned int interval)
{
	(void)dev, (void)interval;
}

void input_set_min_poll_interval(struct input_dev *dev, unsigned int interval)
{
	(void)dev, (void)interval;
}

void input_set_max_poll_interval(struct input_dev *dev, unsigned int interval)
{
	(void)dev, (void)interval;
}

int input_get_poll_interval(struct input_dev *dev)
{
	(void)dev;
	return -EINVAL;
}
