// SPDX-License-Identifier: MIT
/*
 * Multi-touch protocol B in the input core, each behaviour as the kernel's
 * Documentation/input/multi-touch-protocol.rst describes it and its
 * input.c and input-mt.c do it: the staged ABS_MT_SLOT, tracking ids,
 * per-slot filtering, lifting unused contacts, and the pointer emulation
 * of direct (touchscreen) and pointer (touchpad) devices.
 */
#include <errno.h>
#include <linux/input.h>	/* MT_TOOL_FINGER */

#include "frames.h"
#include "io_reports.h"

#define OPTS .timeout = 20, .init = io_reports_start

static struct uirq_input_dev *dev;
static struct uirq_input_client *cl;

/* A registered and opened device with slots of flags, X/Y 0..1023 (fuzz fuzz), pressure if asked. */
static void mt_dev(unsigned int slots, unsigned int flags, int fuzz, bool pressure)
{
	assert_eq(uirq_input_allocate_device(&dev), 0);
	dev->name = "touch";
	assert_eq(uirq_input_set_abs_params(dev, ABS_MT_POSITION_X, 0, 1023, fuzz, 0), 0);
	assert_eq(uirq_input_set_abs_params(dev, ABS_MT_POSITION_Y, 0, 767, fuzz, 0), 0);
	if (pressure)
		assert_eq(uirq_input_set_abs_params(dev, ABS_MT_PRESSURE, 0, 255, 0, 0), 0);
	assert_eq(uirq_input_mt_init_slots(dev, slots, flags), 0);
	assert_eq(uirq_input_register_device(dev), 0);
	assert_eq(uirq_input_open(dev, &cl), 0);
}

static void done(void)
{
	frames_done(cl, dev);
}

/* A contact in slot s at (x, y), as a driver reports one. */
static void contact(int s, int x, int y)
{
	uirq_input_mt_slot(dev, s);
	uirq_input_mt_report_slot_state(dev, MT_TOOL_FINGER, true);
	uirq_input_report_abs(dev, ABS_MT_POSITION_X, x);
	uirq_input_report_abs(dev, ABS_MT_POSITION_Y, y);
}

static void lift(int s)
{
	uirq_input_mt_slot(dev, s);
	uirq_input_mt_report_slot_state(dev, MT_TOOL_FINGER, false);
}

static void frame(void)
{
	uirq_input_mt_sync_frame(dev);
	uirq_input_sync(dev);
}

static bool has_bit(const unsigned long *map, unsigned int nr)
{
	return (map[nr / UIRQ_BITS_PER_LONG] >> (nr % UIRQ_BITS_PER_LONG)) & 1;
}

/*
 * "Protocol Example B", event for event (ids from 0 here, 45 and 46
 * there): the two contacts, contact 0 moving in x, lifting slot 0 (the
 * current slot: no ABS_MT_SLOT), lifting slot 1.  A slot starts current at
 * 0, so the first frame's slot 0 needs no ABS_MT_SLOT either.
 */
UIRQ_TEST(input_mt, protocol_example_b, OPTS)
{
	mt_dev(2, 0, 0, false);
	contact(0, 100, 200);
	contact(1, 300, 400);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 100), ABS(ABS_MT_POSITION_Y, 200),
	       ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 1), ABS(ABS_MT_POSITION_X, 300),
	       ABS(ABS_MT_POSITION_Y, 400), SYN);
	/* Everything reported again, only x of contact 0 changed: only that passes. */
	contact(0, 110, 200);
	contact(1, 300, 400);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_POSITION_X, 110), SYN);
	lift(0);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, -1), SYN);
	lift(1);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, -1), SYN);
	done();
}

/* A contact keeps its id while down; a new contact takes the next id, in any slot; the ids wrap at 0xffff. */
UIRQ_TEST(input_mt, tracking_ids, OPTS)
{
	int32_t id;

	mt_dev(2, 0, 0, false);
	contact(0, 1, 1);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 1), ABS(ABS_MT_POSITION_Y, 1), SYN);
	contact(0, 1, 1);
	frame();
	EXPECT_NOTHING(cl);
	lift(0);
	contact(1, 2, 2);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, -1), ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 1),
	       ABS(ABS_MT_POSITION_X, 2), ABS(ABS_MT_POSITION_Y, 2), SYN);
	/* The slot's position is remembered across contacts: a new one at the old place reports only its id. */
	contact(0, 1, 1);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_TRACKING_ID, 2), SYN);
	assert_eq(uirq_input_mt_get_value(dev, 0, ABS_MT_TRACKING_ID, &id), 0);
	assert_eq(id, 2);
	assert_eq(uirq_input_mt_get_value(dev, 1, ABS_MT_POSITION_X, &id), 0);
	assert_eq(id, 2);
	assert_eq(uirq_input_mt_get_value(dev, 2, ABS_MT_POSITION_X, &id), -EINVAL, "no slot 2");
	assert_eq(uirq_input_mt_get_value(dev, 0, ABS_MT_SLOT, &id), -EINVAL, "not a per-contact axis");
	/* 65536 contacts later the ids have gone round: TRKID_MAX masks them. */
	for (int i = 3; i <= UIRQ_INPUT_MT_TRKID_MAX + 1; i++) {
		lift(1);
		uirq_input_mt_slot(dev, 1);
		uirq_input_mt_report_slot_state(dev, MT_TOOL_FINGER, true);
	}
	frame();
	assert_eq(uirq_input_mt_get_value(dev, 1, ABS_MT_TRACKING_ID, &id), 0);
	assert_eq(id, 0, "id 65536 is 0 again");
	done();
}

/* ABS_MT_SLOT is staged: alone, repeated or out of range it emits nothing and changes no slot. */
UIRQ_TEST(input_mt, slot_is_staged_until_a_value_passes, OPTS)
{
	struct uirq_input_absinfo a;

	mt_dev(2, 0, 0, false);
	uirq_input_mt_slot(dev, 1);
	uirq_input_mt_slot(dev, 0);
	uirq_input_sync(dev);
	EXPECT_NOTHING(cl);
	contact(1, 5, 5);
	uirq_input_mt_slot(dev, 7);	/* out of range: slot 1 stays */
	uirq_input_report_abs(dev, ABS_MT_POSITION_X, 6);
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 5),
	       ABS(ABS_MT_POSITION_Y, 5), ABS(ABS_MT_POSITION_X, 6), SYN);
	/* EVIOCGABS(ABS_MT_SLOT) reads the slot last emitted. */
	assert_eq(uirq_input_get_absinfo(dev, ABS_MT_SLOT, &a), 0);
	assert_eq(a.value, 1);
	assert_eq(a.maximum, 1);
	assert_eq(uirq_input_get_absinfo(dev, ABS_MT_TRACKING_ID, &a), 0);
	assert_eq(a.maximum, UIRQ_INPUT_MT_TRKID_MAX);
	done();
}

/* Each slot's values are filtered against that slot's own, with the axis's fuzz. */
UIRQ_TEST(input_mt, per_slot_fuzz, OPTS)
{
	mt_dev(2, 0, 8, false);
	contact(0, 100, 100);
	contact(1, 500, 500);
	frame();
	assert_eq(frames_drain(cl, (struct uirq_input_event[16]){ 0 }, 16), 8);
	contact(0, 103, 100);	/* noise for slot 0 */
	contact(1, 506, 500);	/* a quarter of the way for slot 1: 501 */
	frame();
	EXPECT(cl, ABS(ABS_MT_POSITION_X, 501), SYN);
	done();
}

/* INPUT_MT_DROP_UNUSED: a contact the frame did not report is lifted at sync_frame; without it, it stays. */
UIRQ_TEST(input_mt, drop_unused_lifts_what_the_frame_left_out, OPTS)
{
	mt_dev(3, UIRQ_INPUT_MT_DROP_UNUSED, 0, false);
	contact(0, 1, 1);
	contact(2, 3, 3);
	frame();
	assert_eq(frames_drain(cl, (struct uirq_input_event[16]){ 0 }, 16), 8);
	contact(2, 4, 3);
	frame();
	EXPECT(cl, ABS(ABS_MT_POSITION_X, 4), ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_TRACKING_ID, -1), SYN);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 2), ABS(ABS_MT_TRACKING_ID, -1), SYN);
	done();

	mt_dev(2, 0, 0, false);
	contact(0, 1, 1);
	frame();
	assert_eq(frames_drain(cl, (struct uirq_input_event[16]){ 0 }, 16), 4);
	frame();
	EXPECT_NOTHING(cl);
	/* input_mt_drop_unused() on its own: lifts what this frame did not report, and starts a new one. */
	contact(0, 1, 1);
	uirq_input_mt_drop_unused(dev);	/* slot 0 was reported: kept */
	uirq_input_sync(dev);
	EXPECT_NOTHING(cl);
	uirq_input_mt_drop_unused(dev);	/* a frame without it */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, -1), SYN);
	done();
}

/*
 * INPUT_MT_DIRECT (a touchscreen): BTN_TOUCH while any contact is down and
 * ABS_X/ABS_Y following the oldest contact, ranges copied from the contact
 * axes without their fuzz; INPUT_PROP_DIRECT; no finger count.
 */
UIRQ_TEST(input_mt, direct_pointer_emulation, OPTS)
{
	struct uirq_input_absinfo a;

	mt_dev(2, UIRQ_INPUT_MT_DIRECT | UIRQ_INPUT_MT_DROP_UNUSED, 4, false);
	assert_true(has_bit(dev->propbit, INPUT_PROP_DIRECT));
	assert_false(has_bit(dev->propbit, INPUT_PROP_POINTER));
	assert_true(has_bit(dev->keybit, BTN_TOUCH));
	assert_false(has_bit(dev->keybit, BTN_TOOL_FINGER));
	assert_eq(uirq_input_get_absinfo(dev, ABS_X, &a), 0);
	assert_eq(a.maximum, 1023);
	assert_eq(a.fuzz, 0, "copy_abs(): the contact was filtered already");
	assert_eq(uirq_input_get_absinfo(dev, ABS_MT_POSITION_X, &a), 0);
	assert_eq(a.fuzz, 4);
	assert_eq(uirq_input_get_absinfo(dev, ABS_PRESSURE, &a), -EINVAL, "no contact pressure, no ABS_PRESSURE");
	contact(0, 100, 200);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 100), ABS(ABS_MT_POSITION_Y, 200),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 100), ABS(ABS_Y, 200), SYN);
	/* A second contact: the pointer stays with the first (the oldest). */
	contact(0, 100, 200);
	contact(1, 600, 700);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 1), ABS(ABS_MT_POSITION_X, 600),
	       ABS(ABS_MT_POSITION_Y, 700), SYN);
	/* The first lifts (dropped, not reported): the pointer jumps to the second. */
	contact(1, 610, 700);
	frame();
	EXPECT(cl, ABS(ABS_MT_POSITION_X, 610), ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_TRACKING_ID, -1),
	       ABS(ABS_X, 610), ABS(ABS_Y, 700), SYN);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, -1), KEY(BTN_TOUCH, 0), SYN);
	done();
}

/*
 * INPUT_MT_POINTER (a touchpad): the finger count as BTN_TOOL_FINGER,
 * _DOUBLETAP, ... (as many tools as slots, two at least, five at most),
 * INPUT_PROP_POINTER, ABS_PRESSURE from the oldest contact's, 0 with none.
 */
UIRQ_TEST(input_mt, pointer_finger_count_and_pressure, OPTS)
{
	mt_dev(3, UIRQ_INPUT_MT_POINTER | UIRQ_INPUT_MT_DROP_UNUSED, 0, true);
	assert_true(has_bit(dev->propbit, INPUT_PROP_POINTER));
	assert_true(has_bit(dev->keybit, BTN_TOOL_TRIPLETAP));
	assert_false(has_bit(dev->keybit, BTN_TOOL_QUADTAP));
	contact(0, 10, 20);
	uirq_input_report_abs(dev, ABS_MT_PRESSURE, 50);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 10), ABS(ABS_MT_POSITION_Y, 20),
	       ABS(ABS_MT_PRESSURE, 50), KEY(BTN_TOUCH, 1), KEY(BTN_TOOL_FINGER, 1), ABS(ABS_X, 10),
	       ABS(ABS_Y, 20), ABS(ABS_PRESSURE, 50), SYN);
	contact(0, 10, 20);
	contact(1, 30, 40);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 1), ABS(ABS_MT_POSITION_X, 30),
	       ABS(ABS_MT_POSITION_Y, 40), KEY(BTN_TOOL_FINGER, 0), KEY(BTN_TOOL_DOUBLETAP, 1), SYN);
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_TRACKING_ID, -1), ABS(ABS_MT_SLOT, 1),
	       ABS(ABS_MT_TRACKING_ID, -1), KEY(BTN_TOUCH, 0), KEY(BTN_TOOL_DOUBLETAP, 0),
	       ABS(ABS_PRESSURE, 0), SYN);
	done();

	/* Semi-mt: a bounding box, not fingers - no count; five slots give all five tools. */
	mt_dev(5, UIRQ_INPUT_MT_POINTER | UIRQ_INPUT_MT_SEMI_MT, 0, false);
	assert_true(has_bit(dev->propbit, INPUT_PROP_SEMI_MT));
	assert_true(has_bit(dev->keybit, BTN_TOOL_QUINTTAP));
	contact(0, 1, 2);
	frame();
	EXPECT(cl, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 1), ABS(ABS_MT_POSITION_Y, 2),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 1), ABS(ABS_Y, 2), SYN);
	done();
}

/* A pad that tells hover only as a whole (ABS_DISTANCE, no ABS_MT_DISTANCE) counts a hovering finger as one. */
UIRQ_TEST(input_mt, hover_counts_one_finger, OPTS)
{
	assert_eq(uirq_input_allocate_device(&dev), 0);
	assert_eq(uirq_input_set_abs_params(dev, ABS_MT_POSITION_X, 0, 100, 0, 0), 0);
	assert_eq(uirq_input_set_abs_params(dev, ABS_DISTANCE, 0, 10, 0, 0), 0);
	assert_eq(uirq_input_mt_init_slots(dev, 2, UIRQ_INPUT_MT_POINTER), 0);
	assert_eq(uirq_input_register_device(dev), 0);
	assert_eq(uirq_input_open(dev, &cl), 0);
	uirq_input_report_abs(dev, ABS_DISTANCE, 3);
	frame();
	EXPECT(cl, ABS(ABS_DISTANCE, 3), KEY(BTN_TOOL_FINGER, 1), SYN);
	done();
}

/* The oldest contact is counted in the id space's order: id 0xffff came before id 0. */
UIRQ_TEST(input_mt, oldest_contact_across_the_id_wrap, OPTS)
{
	mt_dev(2, UIRQ_INPUT_MT_DIRECT, 0, false);
	for (int i = 0; i < UIRQ_INPUT_MT_TRKID_MAX; i++) {
		uirq_input_mt_report_slot_state(dev, MT_TOOL_FINGER, true);
		uirq_input_mt_report_slot_state(dev, MT_TOOL_FINGER, false);
	}
	uirq_input_sync(dev);
	frames_discard(cl);
	contact(1, 111, 222);	/* id 0xffff */
	contact(0, 333, 444);	/* id 0 */
	frame();
	EXPECT(cl, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 0xffff), ABS(ABS_MT_POSITION_X, 111),
	       ABS(ABS_MT_POSITION_Y, 222), ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_TRACKING_ID, 0),
	       ABS(ABS_MT_POSITION_X, 333), ABS(ABS_MT_POSITION_Y, 444), KEY(BTN_TOUCH, 1), ABS(ABS_X, 111),
	       ABS(ABS_Y, 222), SYN);
	done();
}

/* input_mt_init_slots(): again with the same count is fine, another count or too many -EINVAL, 0 nothing. */
UIRQ_TEST(input_mt, init_slots_rules, OPTS)
{
	struct uirq_input_dev *d;

	assert_eq(uirq_input_allocate_device(&d), 0);
	assert_eq(uirq_input_mt_init_slots(d, 0, 0), 0);
	assert_null(d->mt);
	assert_eq(uirq_input_mt_init_slots(d, UIRQ_INPUT_MT_MAX_SLOTS + 1, 0), -EINVAL);
	assert_eq(uirq_input_mt_init_slots(d, 4, 0), 0);
	assert_eq(uirq_input_mt_init_slots(d, 4, UIRQ_INPUT_MT_DIRECT), 0);
	assert_eq(uirq_input_mt_init_slots(d, 5, 0), -EINVAL);
	/* Without pointer flags: no BTN_TOUCH, no ABS_X; the slot axes are there. */
	assert_false(has_bit(d->keybit, BTN_TOUCH));
	assert_true(has_bit(d->absbit, ABS_MT_SLOT));
	assert_true(has_bit(d->absbit, ABS_MT_TRACKING_ID));
	assert_false(has_bit(d->absbit, ABS_X));
	assert_true(uirq_input_mt_report_slot_state(d, MT_TOOL_FINGER, true), "active, even unregistered");
	uirq_input_mt_destroy_slots(d);
	assert_null(d->mt);
	uirq_input_free_device(d);
	/* A device without slots: the slot calls do nothing. */
	assert_eq(uirq_input_allocate_device(&d), 0);
	assert_false(uirq_input_mt_report_slot_state(d, MT_TOOL_FINGER, true));
	uirq_input_mt_sync_frame(d);
	uirq_input_mt_drop_unused(d);
	uirq_input_free_device(d);
	assert_no_reports();
}
