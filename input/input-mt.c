// SPDX-License-Identifier: MIT
/*
 * Multi-touch slots, protocol B (the kernel's input-mt.c behaviour): a
 * driver selects a slot, says whether it holds a contact, reports the
 * contact's axes, and closes the frame with uirq_input_mt_sync_frame(),
 * which lifts what the frame did not mention and emulates a single-touch
 * pointer for clients that know nothing of slots.
 *
 * The slot values and the staged slot live in the device (input.c's
 * filtering keeps them, under event_lock).  Each call here reports its
 * events under one hold of event_lock, so a frame's slot bookkeeping and
 * its events cannot interleave with another reporter's.
 */
#include "input-core.h"

#include <errno.h>
#include <stdlib.h>

/* The sign bit of the tracking id space: (a - b) & TRKID_SGN means a comes before b. */
#define TRKID_SGN	((UIRQ_INPUT_MT_TRKID_MAX + 1) >> 1)

static int32_t *slot_value(struct input_mt_slot *s, unsigned int code)
{
	return &s->abs[code - UIRQ_INPUT_ABS_MT_FIRST];
}

/* The emulated pointer's axis dst takes the contact axis src's range, when the device has src. */
static void copy_abs(struct uirq_input_dev *dev, unsigned int dst, unsigned int src)
{
	if (!dev->absinfo || !test_bit(src, dev->absbit))
		return;
	dev->absinfo[dst] = dev->absinfo[src];
	/* The contact's values were filtered already: filtering the copy again would lag it. */
	dev->absinfo[dst].fuzz = 0;
	set_bit(dst, dev->absbit);
}

int uirq_input_mt_init_slots(struct uirq_input_dev *dev, unsigned int num_slots, unsigned int flags)
{
	struct uirq_input_mt *mt;
	int ret;

	if (!dev)
		return -EINVAL;
	if (!num_slots)
		return 0;
	if (dev->mt)
		return (unsigned int)dev->mt->num_slots == num_slots ? 0 : -EINVAL;
	if (num_slots > UIRQ_INPUT_MT_MAX_SLOTS)
		return -EINVAL;
	mt = calloc(1, sizeof(*mt) + num_slots * sizeof(mt->slots[0]));
	if (!mt)
		return -ENOMEM;
	ret = uirq_input_set_abs_params(dev, ABS_MT_SLOT, 0, (int)num_slots - 1, 0, 0);
	if (!ret)
		ret = uirq_input_set_abs_params(dev, ABS_MT_TRACKING_ID, 0, UIRQ_INPUT_MT_TRKID_MAX, 0, 0);
	if (ret) {
		free(mt);
		return ret;
	}
	mt->num_slots = (int)num_slots;
	mt->flags = flags;
	if (flags & (UIRQ_INPUT_MT_POINTER | UIRQ_INPUT_MT_DIRECT)) {
		set_bit(EV_KEY, dev->evbit);
		set_bit(BTN_TOUCH, dev->keybit);
		copy_abs(dev, ABS_X, ABS_MT_POSITION_X);
		copy_abs(dev, ABS_Y, ABS_MT_POSITION_Y);
		copy_abs(dev, ABS_PRESSURE, ABS_MT_PRESSURE);
	}
	if (flags & UIRQ_INPUT_MT_POINTER) {
		static const unsigned int tools[] = {
			BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP,
			BTN_TOOL_QUINTTAP,
		};

		/* Two always (a touchpad tells one finger from two), then one per slot. */
		for (unsigned int i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
			if (i < 2 || i < num_slots)
				set_bit(tools[i], dev->keybit);
		set_bit(INPUT_PROP_POINTER, dev->propbit);
	}
	if (flags & UIRQ_INPUT_MT_DIRECT)
		set_bit(INPUT_PROP_DIRECT, dev->propbit);
	if (flags & UIRQ_INPUT_MT_SEMI_MT)
		set_bit(INPUT_PROP_SEMI_MT, dev->propbit);
	for (unsigned int i = 0; i < num_slots; i++)
		*slot_value(&mt->slots[i], ABS_MT_TRACKING_ID) = -1;
	/* Frame 1: every slot's 0 is an earlier frame, so none counts as reported yet. */
	mt->frame = 1;
	dev->mt = mt;
	return 0;
}

void input_mt_free(struct uirq_input_dev *dev)
{
	free(dev->mt);
	dev->mt = NULL;
}

void uirq_input_mt_destroy_slots(struct uirq_input_dev *dev)
{
	if (dev)
		input_mt_free(dev);
}

bool uirq_input_mt_report_slot_state(struct uirq_input_dev *dev, unsigned int tool, bool active)
{
	struct uirq_input_mt *mt;
	struct input_mt_slot *s;
	unsigned long flags;
	int32_t id;

	if (!dev || !dev->mt)
		return false;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	mt = dev->mt;
	s = &mt->slots[mt->slot];
	s->frame = mt->frame;
	if (active) {
		id = *slot_value(s, ABS_MT_TRACKING_ID);
		/* A contact keeps its id while it stays down; a new one takes the next. */
		if (id < 0)
			id = mt->trkid++ & UIRQ_INPUT_MT_TRKID_MAX;
		input_handle_event(dev, EV_ABS, ABS_MT_TRACKING_ID, id);
		input_handle_event(dev, EV_ABS, ABS_MT_TOOL_TYPE, (int)tool);
	} else {
		input_handle_event(dev, EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	return active;
}

/* event_lock held. */
static void report_finger_count(struct uirq_input_dev *dev, int count)
{
	static const unsigned int tools[] = {
		BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
	};

	for (int i = 0; i < (int)(sizeof(tools) / sizeof(tools[0])); i++)
		input_handle_event(dev, EV_KEY, tools[i], count == i + 1);
}

void uirq_input_mt_report_finger_count(struct uirq_input_dev *dev, int count)
{
	unsigned long flags;

	if (!dev)
		return;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	report_finger_count(dev, count);
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
}

/* event_lock held. */
static void pointer_emulation(struct uirq_input_dev *dev, bool use_count)
{
	struct uirq_input_mt *mt = dev->mt;
	struct input_mt_slot *oldest = NULL;
	int32_t oldest_id = mt->trkid;
	int count = 0;

	/* The oldest contact: the id furthest behind the next one to be given out. */
	for (int i = 0; i < mt->num_slots; i++) {
		struct input_mt_slot *s = &mt->slots[i];
		int32_t id = *slot_value(s, ABS_MT_TRACKING_ID);

		if (id < 0)
			continue;
		if ((id - oldest_id) & TRKID_SGN) {
			oldest = s;
			oldest_id = id;
		}
		count++;
	}
	input_handle_event(dev, EV_KEY, BTN_TOUCH, count > 0);
	if (use_count) {
		/* A hovering finger, on a device that tells hover only for the whole pad, counts as one. */
		if (count == 0 && !test_bit(ABS_MT_DISTANCE, dev->absbit) && test_bit(ABS_DISTANCE, dev->absbit) &&
		    dev->absinfo[ABS_DISTANCE].value != 0)
			count = 1;
		report_finger_count(dev, count);
	}
	if (oldest) {
		input_handle_event(dev, EV_ABS, ABS_X, *slot_value(oldest, ABS_MT_POSITION_X));
		input_handle_event(dev, EV_ABS, ABS_Y, *slot_value(oldest, ABS_MT_POSITION_Y));
		if (test_bit(ABS_MT_PRESSURE, dev->absbit))
			input_handle_event(dev, EV_ABS, ABS_PRESSURE, *slot_value(oldest, ABS_MT_PRESSURE));
	} else if (test_bit(ABS_MT_PRESSURE, dev->absbit)) {
		input_handle_event(dev, EV_ABS, ABS_PRESSURE, 0);
	}
}

void uirq_input_mt_report_pointer_emulation(struct uirq_input_dev *dev, bool use_count)
{
	unsigned long flags;

	if (!dev || !dev->mt)
		return;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	pointer_emulation(dev, use_count);
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
}

/* Lift the contacts whose slot this frame did not report; event_lock held. */
static void drop_unused(struct uirq_input_dev *dev)
{
	struct uirq_input_mt *mt = dev->mt;

	for (int i = 0; i < mt->num_slots; i++) {
		struct input_mt_slot *s = &mt->slots[i];

		if (*slot_value(s, ABS_MT_TRACKING_ID) >= 0 && s->frame != mt->frame) {
			input_handle_event(dev, EV_ABS, ABS_MT_SLOT, i);
			input_handle_event(dev, EV_ABS, ABS_MT_TRACKING_ID, -1);
		}
	}
}

void uirq_input_mt_drop_unused(struct uirq_input_dev *dev)
{
	unsigned long flags;

	if (!dev || !dev->mt)
		return;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	drop_unused(dev);
	dev->mt->frame++;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
}

void uirq_input_mt_sync_frame(struct uirq_input_dev *dev)
{
	struct uirq_input_mt *mt;
	unsigned long flags;

	if (!dev || !dev->mt)
		return;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	mt = dev->mt;
	if (mt->flags & UIRQ_INPUT_MT_DROP_UNUSED)
		drop_unused(dev);
	/* A semi-mt pad's contacts are a bounding box: their number is not the fingers'. */
	pointer_emulation(dev, (mt->flags & UIRQ_INPUT_MT_POINTER) && !(mt->flags & UIRQ_INPUT_MT_SEMI_MT));
	mt->frame++;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
}

int uirq_input_mt_get_value(struct uirq_input_dev *dev, int slot, unsigned int code, int32_t *value)
{
	unsigned long flags;
	int ret = -EINVAL;

	if (!dev || !value || !input_is_mt_value(code))
		return -EINVAL;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	if (dev->mt && slot >= 0 && slot < dev->mt->num_slots) {
		*value = *slot_value(&dev->mt->slots[slot], code);
		ret = 0;
	}
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	return ret;
}
