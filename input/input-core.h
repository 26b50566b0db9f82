/* SPDX-License-Identifier: MIT */
/* Shared inside the input layer only: device states, references, the frame's stamps. */
#ifndef UIRQ_INPUT_CORE_H
#define UIRQ_INPUT_CORE_H

#include "../lib/lib.h"
#include "uirq/input.h"
#include "uirq/sim.h"

enum { INPUT_ALLOCATED, INPUT_REGISTERED, INPUT_GONE };

/* The capability and state bitmaps' bit operations (plain: under the device's locks or before it is live). */
static inline bool test_bit(unsigned int nr, const unsigned long *map)
{
	return (map[nr / UIRQ_BITS_PER_LONG] >> (nr % UIRQ_BITS_PER_LONG)) & 1;
}

static inline void set_bit(unsigned int nr, unsigned long *map)
{
	map[nr / UIRQ_BITS_PER_LONG] |= 1ul << (nr % UIRQ_BITS_PER_LONG);
}

static inline void change_bit(unsigned int nr, unsigned long *map)
{
	map[nr / UIRQ_BITS_PER_LONG] ^= 1ul << (nr % UIRQ_BITS_PER_LONG);
}

#define INPUT_MT_VALUES	(UIRQ_INPUT_ABS_MT_LAST - UIRQ_INPUT_ABS_MT_FIRST + 1)

/* One contact slot: its per-contact axes now, and the frame that last reported its state. */
struct input_mt_slot {
	int32_t abs[INPUT_MT_VALUES];	/* ABS_MT_TRACKING_ID's -1: no contact */
	unsigned int frame;
};

/* The device's slots (input-mt.c), under the device's event_lock once it is registered. */
struct uirq_input_mt {
	int trkid;			/* the next contact's tracking id (masked by TRKID_MAX) */
	int num_slots;
	int slot;			/* the slot ABS_MT_SLOT selected; emitted with its first value */
	unsigned int flags;		/* UIRQ_INPUT_MT_* */
	unsigned int frame;		/* counts frames; a slot reported in this one is "used" */
	struct input_mt_slot slots[];
};

static inline bool input_is_mt_value(unsigned int code)
{
	return code >= UIRQ_INPUT_ABS_MT_FIRST && code <= UIRQ_INPUT_ABS_MT_LAST;
}

/*
 * One report through the core's filtering and framing, event_lock held
 * (the multi-touch library reports several under one hold): nothing for a
 * type the device lacks or a device that is not registered.
 */
void input_handle_event(struct uirq_input_dev *dev, unsigned int type, unsigned int code, int value);
/* Free the slots (input-mt.c). */
void input_mt_free(struct uirq_input_dev *dev);
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
