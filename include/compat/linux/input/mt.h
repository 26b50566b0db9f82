/* SPDX-License-Identifier: MIT */
/*
 * Multi-touch slots for drivers (protocol B, Documentation/input/
 * multi-touch-protocol.rst) on uirq's input core (uirq/input.h, input-mt.c):
 * the kernel's flags, calls and contact position, by the kernel's names.
 * The slots live in the uirq device behind the struct input_dev; its
 * state is read through the core (uirq_input_mt_get_value()), so there is
 * no dev->mt to look into, and in-core tracking (input_mt_assign_slots(),
 * INPUT_MT_TRACK) is not provided.
 */
#ifndef UIRQ_COMPAT_LINUX_INPUT_MT_H
#define UIRQ_COMPAT_LINUX_INPUT_MT_H

#include <linux/input.h>

#define TRKID_MAX		UIRQ_INPUT_MT_TRKID_MAX

#define INPUT_MT_POINTER	UIRQ_INPUT_MT_POINTER
#define INPUT_MT_DIRECT		UIRQ_INPUT_MT_DIRECT
#define INPUT_MT_DROP_UNUSED	UIRQ_INPUT_MT_DROP_UNUSED
#define INPUT_MT_TRACK		UIRQ_INPUT_MT_TRACK
#define INPUT_MT_SEMI_MT	UIRQ_INPUT_MT_SEMI_MT

/* A contact's position, as touchscreen_set_mt_pos() fills it. */
struct input_mt_pos {
	s16 x, y;
};

/*
 * Slots for the device, before registration (uirq_input_mt_init_slots()'s
 * rules and capabilities, which the driver's bitmaps then show): 0,
 * -EINVAL or -ENOMEM.
 */
int input_mt_init_slots(struct input_dev *dev, unsigned int num_slots, unsigned int flags);
void input_mt_destroy_slots(struct input_dev *dev);
/* The selected slot holds a contact of tool (a new one gets the next tracking id) or none; returns active. */
bool input_mt_report_slot_state(struct input_dev *dev, unsigned int tool_type, bool active);
void input_mt_report_finger_count(struct input_dev *dev, int count);
void input_mt_report_pointer_emulation(struct input_dev *dev, bool use_count);
void input_mt_drop_unused(struct input_dev *dev);
/* The end of a frame's contacts: lift the unreported (DROP_UNUSED), emulate the pointer. */
void input_mt_sync_frame(struct input_dev *dev);

static inline void input_mt_slot(struct input_dev *dev, int slot)
{
	input_event(dev, EV_ABS, ABS_MT_SLOT, slot);
}

static inline void input_mt_report_slot_inactive(struct input_dev *dev)
{
	input_mt_report_slot_state(dev, 0, false);
}

static inline bool input_is_mt_value(int axis)
{
	return axis >= ABS_MT_FIRST && axis <= ABS_MT_LAST;
}

static inline bool input_is_mt_axis(int axis)
{
	return axis == ABS_MT_SLOT || input_is_mt_value(axis);
}

#endif
