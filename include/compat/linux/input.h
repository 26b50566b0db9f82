/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for input devices (uirq/input.h).  The system's uAPI
 * <linux/input.h> comes first for BUS_* and the event codes; after it,
 * struct input_event and input_event() both mean uirq's (same layout).
 */
#ifndef UIRQ_COMPAT_LINUX_INPUT_H
#define UIRQ_COMPAT_LINUX_INPUT_H

#include_next <linux/input.h>
#include "uirq/input.h"

#define input_dev			uirq_input_dev
#define input_id			uirq_input_id
#define input_value			uirq_input_value
#define input_event			uirq_input_event	/* the struct and the function */

/* The kernel's shape: the device, or NULL. */
static inline struct uirq_input_dev *input_allocate_device(void)
{
	struct uirq_input_dev *dev;

	uirq_input_allocate_device(&dev);
	return dev;
}
#define input_free_device(d)		uirq_input_free_device(d)
#define input_register_device(d)	uirq_input_register_device(d)
#define input_unregister_device(d)	uirq_input_unregister_device(d)
#define input_set_capability(d, t, c)	uirq_input_set_capability((d), (t), (c))
#define input_report_key(d, c, v)	uirq_input_report_key((d), (c), (v))
#define input_report_switch(d, c, v)	uirq_input_report_switch((d), (c), (v))
#define input_report_rel(d, c, v)	uirq_input_report_rel((d), (c), (v))
#define input_sync(d)			uirq_input_sync(d)
#define input_set_drvdata(d, p)		uirq_input_set_drvdata((d), (p))
#define input_get_drvdata(d)		uirq_input_get_drvdata(d)

#endif
