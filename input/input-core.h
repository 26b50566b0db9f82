/* SPDX-License-Identifier: MIT */
/* Shared inside the input layer only: device states, references, the frame's stamps. */
#ifndef UIRQ_INPUT_CORE_H
#define UIRQ_INPUT_CORE_H

#include "../lib/lib.h"
#include "uirq/input.h"
#include "uirq/sim.h"

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

/*
 * A handle's events() gets &stamp[INPUT_CLK_MONO] of the frame's three
 * stamps (dev->stamp): evdev, inside this layer, reads a client's other
 * clock next to it.  Outside the layer it is the CLOCK_MONOTONIC time.
 */
_Static_assert(INPUT_CLK_MONO == 0, "the monotonic stamp leads the frame's stamps");

/* A task of the deterministic mode reads every clock as the virtual one (stamps replay): true and *ts set. */
static inline bool input_sim_stamp(struct timespec *ts)
{
	if (uirq_sim_task_id() < 0)
		return false;
	*ts = uirq_ns_to_timespec(uirq_sim_clock_ns());
	return true;
}

#endif
