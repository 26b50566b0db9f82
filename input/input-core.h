/* SPDX-License-Identifier: MIT */
/* Shared inside the input layer only: device states, references, the evdev hooks. */
#ifndef UIRQ_INPUT_CORE_H
#define UIRQ_INPUT_CORE_H

#include "uirq/input.h"

enum { INPUT_ALLOCATED, INPUT_REGISTERED, INPUT_GONE };
enum { INPUT_CLK_MONO, INPUT_CLK_REAL, INPUT_CLK_BOOT, INPUT_CLK_MAX };

/* Take a reference on the device (a client holds one). */
void input_get_device(struct uirq_input_dev *dev);
/* Drop a reference; the last one frees the device. */
void input_put_device(struct uirq_input_dev *dev);

/* A new user (client or handle), dev->mutex held: the first opens the device; takes a reference.  0 or -errno. */
int input_open_device(struct uirq_input_dev *dev);
/* A user leaves, dev->mutex held: unlink(dev, user) runs under event_lock; the last user closes the device. */
void input_close_device(struct uirq_input_dev *dev, void (*unlink)(struct uirq_input_dev *, void *),
			void *user);

/* Queue a frame to every client; dev->event_lock held. */
void evdev_pass_values(struct uirq_input_dev *dev, const struct uirq_input_value *vals,
		       unsigned int count, const struct timespec stamp[INPUT_CLK_MAX]);
/* The device is going: wake every client for -ENODEV; dev->event_lock held. */
void evdev_disconnect(struct uirq_input_dev *dev);

#endif
