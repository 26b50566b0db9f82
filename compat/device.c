// SPDX-License-Identifier: MIT
/*
 * struct device: names, messages, wake-up wishes (drivers/base/core.c's
 * part drivers see).  A message is "DRIVER DEVICE: text", the kernel's
 * dev_printk() prefix, into uirq's log.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>

#include "base.h"

void device_initialize(struct device *dev)
{
	mutex_init(&dev->uirq_devres_lock);
}

void uirq_device_release(struct device *dev)
{
	devres_release_all(dev);
	free(dev->uirq_name);
	dev->uirq_name = NULL;
	mutex_destroy(&dev->uirq_devres_lock);
}

int dev_set_name(struct device *dev, const char *fmt, ...)
{
	va_list ap;
	char *name;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&name, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	free(dev->uirq_name);
	dev->uirq_name = name;
	return 0;
}

const char *dev_name(const struct device *dev)
{
	if (dev->uirq_name)
		return dev->uirq_name;
	return dev->init_name ? dev->init_name : "";
}

const char *dev_driver_string(const struct device *dev)
{
	if (dev->driver && dev->driver->name)
		return dev->driver->name;
	return dev->bus && dev->bus->name ? dev->bus->name : "";
}

/* One message: the prefix, then fmt's text. */
static void dev_vlog(const struct device *dev, const char *fmt, va_list ap)
{
	char text[512];

	vsnprintf(text, sizeof(text), fmt, ap);
	if (!dev) {
		uirq_log_printk("(NULL device *): %s", text);
		return;
	}
	uirq_log_printk("%s %s: %s", dev_driver_string(dev), dev_name(dev), text);
}

#define DEV_LOG(fn)							\
	void fn(const struct device *dev, const char *fmt, ...)		\
	{								\
		va_list ap;						\
									\
		va_start(ap, fmt);					\
		dev_vlog(dev, fmt, ap);					\
		va_end(ap);						\
	}

DEV_LOG(_dev_err)
DEV_LOG(_dev_warn)
DEV_LOG(_dev_notice)
DEV_LOG(_dev_info)

int dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (err == -EPROBE_DEFER)
		return err;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* The kernel's "%pe": the error's name, where it has one. */
	const char *name = strerrorname_np(-err);

	if (name)
		_dev_err(dev, "error -%s: %s", name, text);
	else
		_dev_err(dev, "error %d: %s", err, text);
	return err;
}

int device_init_wakeup(struct device *dev, bool enable)
{
	if (!dev)
		return -EINVAL;
	dev->uirq_wakeup = enable;
	return 0;
}

bool device_may_wakeup(struct device *dev)
{
	return dev && dev->uirq_wakeup;
}
