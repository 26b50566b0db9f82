// SPDX-License-Identifier: MIT
/*
 * <linux/input/mt.h> on uirq's multi-touch slots (input/input-mt.c): the
 * calls are the core's; what init adds to the device - the slot axes,
 * BTN_TOUCH, the emulated pointer's axes, the INPUT_PROP bits - is copied
 * back into the driver's bitmaps, as a kernel driver sees them in its
 * struct input_dev after input_mt_init_slots().
 */
#include <linux/errno.h>
#include <linux/input/mt.h>

#include "input-core-private.h"

int input_mt_init_slots(struct input_dev *dev, unsigned int num_slots, unsigned int flags)
{
	int ret;

	/* The core copies the axes the driver set up so far (ABS_MT_POSITION_X to ABS_X, ...): it needs its bits. */
	input_caps_to_uirq(dev);
	ret = uirq_input_mt_init_slots(dev->uirq, num_slots, flags);
	input_caps_from_uirq(dev);
	return ret;
}

void input_mt_destroy_slots(struct input_dev *dev)
{
	uirq_input_mt_destroy_slots(dev->uirq);
}

/*
 * The events of these go straight to the core, which drops them until
 * the device is registered, as input_event() does here.
 */
bool input_mt_report_slot_state(struct input_dev *dev, unsigned int tool_type, bool active)
{
	return uirq_input_mt_report_slot_state(dev->uirq, tool_type, active);
}

void input_mt_report_finger_count(struct input_dev *dev, int count)
{
	uirq_input_mt_report_finger_count(dev->uirq, count);
}

void input_mt_report_pointer_emulation(struct input_dev *dev, bool use_count)
{
	uirq_input_mt_report_pointer_emulation(dev->uirq, use_count);
}

void input_mt_drop_unused(struct input_dev *dev)
{
	uirq_input_mt_drop_unused(dev->uirq);
}

void input_mt_sync_frame(struct input_dev *dev)
{
	uirq_input_mt_sync_frame(dev->uirq);
}
