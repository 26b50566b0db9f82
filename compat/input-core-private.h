/* SPDX-License-Identifier: MIT */
/*
 * Inside the compat layer's input files: the driver's struct input_dev
 * and the uirq device behind it kept in step.  The driver fills its own
 * bitmaps (the kernel's fields); the uirq core's multi-touch setup adds
 * capabilities to the uirq device's, which the driver must then see.
 * Not installed.
 */
#ifndef UIRQ_COMPAT_INPUT_CORE_PRIVATE_H
#define UIRQ_COMPAT_INPUT_CORE_PRIVATE_H

#include <linux/input.h>

/* The driver's capability bitmaps into the uirq device (before registration). */
void input_caps_to_uirq(struct input_dev *dev);
/* The uirq device's capabilities added to the driver's, and its absinfo shown as dev->absinfo. */
void input_caps_from_uirq(struct input_dev *dev);
/* dev->absinfo is the uirq device's array (NULL until it has one). */
void input_absinfo_from_uirq(struct input_dev *dev);

/* ---- polling (input-poller.c) ---- */

/* At registration: the kernel's defaults for what the driver left 0 (500 ms). */
void input_dev_poller_finalize(struct input_dev_poller *poller);
/* At open, dev->mutex held: a poll now, then one every interval; 0 or -errno. */
int input_dev_poller_start(struct input_dev_poller *poller);
/* At close, dev->mutex held: no poll runs once it returns. */
void input_dev_poller_stop(struct input_dev_poller *poller);
void input_dev_poller_free(struct input_dev_poller *poller);

#endif
