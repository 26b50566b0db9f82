// SPDX-License-Identifier: MIT
/*
 * Absolute axes in the input core, each as the kernel's drivers/input/
 * input.c behaves: an axis has its absinfo (value, range, fuzz, flat,
 * resolution); a report passes only when it changes the axis's value after
 * the fuzz filter (input_defuzz_abs_event's three bands); a device with
 * EV_ABS but no absinfo is refused; frames and client buffers are sized by
 * the kernel's estimate of a packet, so a multi-touch frame is not split.
 */
#include <errno.h>
#include <linux/input.h>	/* the system's struct input_absinfo, for the layout check */

#include "frames.h"
#include "io_reports.h"

#define OPTS .timeout = 20, .init = io_reports_start

static struct uirq_input_dev *dev;
static struct uirq_input_client *cl;

/* An accelerometer's three axes (kxtj9's: +-8000, fuzz 3, flat 3), registered and opened. */
static void accel(void)
{
	io_reports_start();
	assert_eq(uirq_input_allocate_device(&dev), 0);
	dev->name = "accel";
	for (unsigned int a = ABS_X; a <= ABS_Z; a++)
		assert_eq(uirq_input_set_abs_params(dev, a, -8000, 8000, 3, 3), 0);
	assert_eq(uirq_input_register_device(dev), 0);
	assert_eq(uirq_input_open(dev, &cl), 0);
}

static void done(void)
{
	frames_done(cl, dev);
}

#define ACCEL_OPTS .timeout = 20, .init = accel

UIRQ_TEST(input_abs, absinfo_layout_is_the_kernels, OPTS)
{
	assert_eq(sizeof(struct uirq_input_absinfo), sizeof(struct input_absinfo));
	assert_eq(offsetof(struct uirq_input_absinfo, fuzz), offsetof(struct input_absinfo, fuzz));
	assert_eq(offsetof(struct uirq_input_absinfo, resolution), offsetof(struct input_absinfo, resolution));
}

UIRQ_TEST(input_abs, set_abs_params_declares_the_axis, OPTS)
{
	struct uirq_input_absinfo a;
	struct uirq_input_dev *d;

	assert_eq(uirq_input_allocate_device(&d), 0);
	assert_null(d->absinfo, "no axis, no absinfo");
	assert_eq(uirq_input_set_abs_params(d, ABS_PRESSURE, 0, 255, 2, 1), 0);
	assert_not_null(d->absinfo);
	d->absinfo[ABS_PRESSURE].resolution = 4;
	assert_eq(uirq_input_set_abs_params(d, ABS_MAX + 1, 0, 1, 0, 0), -EINVAL);
	/* Declared by capability alone: the range stays 0..0, as the kernel leaves it. */
	uirq_input_set_capability(d, EV_ABS, ABS_DISTANCE);
	assert_eq(uirq_input_register_device(d), 0);
	assert_eq(uirq_input_get_absinfo(d, ABS_PRESSURE, &a), 0);
	assert_eq(a.minimum, 0);
	assert_eq(a.maximum, 255);
	assert_eq(a.fuzz, 2);
	assert_eq(a.flat, 1);
	assert_eq(a.resolution, 4);
	assert_eq(uirq_input_get_absinfo(d, ABS_DISTANCE, &a), 0);
	assert_eq(a.maximum, 0);
	assert_eq(uirq_input_get_absinfo(d, ABS_X, &a), -EINVAL, "not an axis of the device");
	assert_eq(uirq_input_get_absinfo(d, ABS_MAX + 1, &a), -EINVAL);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* input_register_device(): "Absolute device without dev->absinfo, refusing to register". */
UIRQ_TEST(input_abs, absolute_device_without_absinfo_is_refused, OPTS)
{
	struct uirq_input_dev *d;

	assert_eq(uirq_input_allocate_device(&d), 0);
	d->evbit[0] |= 1ul << EV_ABS;
	d->absbit[0] |= 1ul << ABS_X;
	assert_eq(uirq_input_register_device(d), -EINVAL);
	assert_eq(uirq_input_alloc_absinfo(d), 0);
	assert_eq(uirq_input_register_device(d), 0);
	uirq_input_unregister_device(d);
	/* Bits of a type the device does not declare are cleansed, as the kernel cleanses them. */
	assert_eq(uirq_input_allocate_device(&d), 0);
	d->absbit[0] |= 1ul << ABS_X;
	assert_eq(uirq_input_register_device(d), 0);
	assert_eq(d->absbit[0], 0ul);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* An axis reports its value when it changes; the same value again is no event. */
UIRQ_TEST(input_abs, reports_pass_when_the_value_changes, ACCEL_OPTS)
{
	struct uirq_input_absinfo a;

	dev->absinfo[ABS_Y].fuzz = 0;	/* this test is about values; fuzz has its own */
	uirq_input_report_abs(dev, ABS_Y, 100);
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_Y, 100), SYN);
	uirq_input_report_abs(dev, ABS_Y, 100);
	uirq_input_sync(dev);
	EXPECT_NOTHING(cl);
	uirq_input_report_abs(dev, ABS_Y, 101);
	uirq_input_report_abs(dev, ABS_RX, 5);	/* not an axis of the device */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_Y, 101), SYN);
	assert_eq(uirq_input_get_absinfo(dev, ABS_Y, &a), 0);
	assert_eq(a.value, 101, "EVIOCGABS reads the value now");
	done();
}

/*
 * input_defuzz_abs_event(): within half the fuzz the old value stays,
 * within the fuzz it moves a quarter of the way, within twice the fuzz
 * half of it, further the new value is taken.
 */
UIRQ_TEST(input_abs, fuzz_filter_has_the_kernels_bands, ACCEL_OPTS)
{
	dev->absinfo[ABS_X].fuzz = 8;
	uirq_input_report_abs(dev, ABS_X, 100);	/* from 0: beyond twice the fuzz */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_X, 100), SYN);
	uirq_input_report_abs(dev, ABS_X, 103);	/* |3| < 8/2: noise */
	uirq_input_sync(dev);
	EXPECT_NOTHING(cl);
	uirq_input_report_abs(dev, ABS_X, 106);	/* |6| < 8: (3 * 100 + 106) / 4 */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_X, 101), SYN);
	uirq_input_report_abs(dev, ABS_X, 113);	/* |12| < 16: (101 + 113) / 2 */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_X, 107), SYN);
	uirq_input_report_abs(dev, ABS_X, 91);	/* |-16| is not < 16: taken */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_X, 91), SYN);
	uirq_input_report_abs(dev, ABS_X, 84);	/* downwards: (3 * 91 + 84) / 4 = 89 (C's division) */
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_X, 89), SYN);
	/* Each axis against its own value; three in one frame. */
	uirq_input_report_abs(dev, ABS_X, 2000);
	uirq_input_report_abs(dev, ABS_Y, -2000);
	uirq_input_report_abs(dev, ABS_Z, 1000);
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_X, 2000), ABS(ABS_Y, -2000), ABS(ABS_Z, 1000), SYN);
	done();
}

/* Values out of the declared range pass as they are: the range informs clients, the core does not clamp. */
UIRQ_TEST(input_abs, range_is_not_enforced, ACCEL_OPTS)
{
	uirq_input_report_abs(dev, ABS_Z, 9000);
	uirq_input_report_abs(dev, ABS_Z, -9000);
	uirq_input_sync(dev);
	EXPECT(cl, ABS(ABS_Z, 9000), ABS(ABS_Z, -9000), SYN);
	done();
}

/*
 * input_estimate_events_per_packet(): a ten-slot touchscreen's packet is
 * 11 + 10 per per-slot axis + 1 per other axis + 7 events; a frame of all
 * ten contacts (up to 40 slot events and the emulated pointer's 3) is one
 * frame, and a client holds eight such packets (evdev's buffer).
 */
UIRQ_TEST(input_abs, multi_touch_frames_are_not_split, OPTS)
{
	struct uirq_input_event ev[1024];
	struct uirq_input_dev *d;
	struct uirq_input_client *c;
	int n, syns = 0;

	assert_eq(uirq_input_allocate_device(&d), 0);
	assert_eq(uirq_input_set_abs_params(d, ABS_MT_POSITION_X, 0, 1023, 0, 0), 0);
	assert_eq(uirq_input_set_abs_params(d, ABS_MT_POSITION_Y, 0, 767, 0, 0), 0);
	assert_eq(uirq_input_mt_init_slots(d, 10, UIRQ_INPUT_MT_DIRECT), 0);
	assert_eq(uirq_input_register_device(d), 0);
	/* MT_SLOT, MT_TRACKING_ID, MT_X, MT_Y per slot; ABS_X, ABS_Y; the SYN_MT_REPORTs; keys and MSC. */
	assert_eq(d->hint_events_per_packet, 11u + 4 * 10 + 2 + 7);
	assert_eq(uirq_input_open(d, &c), 0);
	for (int frame = 0; frame < 4; frame++) {
		for (int s = 0; s < 10; s++) {
			uirq_input_mt_slot(d, s);
			uirq_input_mt_report_slot_state(d, MT_TOOL_FINGER, true);
			uirq_input_report_abs(d, ABS_MT_POSITION_X, 10 * s + frame + 1);
			uirq_input_report_abs(d, ABS_MT_POSITION_Y, 20 * s + frame + 1);
		}
		uirq_input_mt_sync_frame(d);
		uirq_input_sync(d);
	}
	n = frames_drain(c, ev, 1024);
	for (int i = 0; i < n; i++)
		syns += ev[i].type == EV_SYN && ev[i].code == SYN_REPORT;
	assert_eq(syns, 4, "one SYN_REPORT a frame");
	assert_eq(uirq_input_client_overflows(c), 0ul, "four frames of 44 fit a client's buffer");
	/* The first frame: an id and both axes per slot, ABS_MT_SLOT from slot 1 on (0 is current). */
	assert_eq(ev[0].code, ABS_MT_TRACKING_ID);
	assert_eq(ev[3].code, ABS_MT_SLOT);
	assert_eq(ev[39].type, EV_KEY);
	assert_eq(ev[39].code, BTN_TOUCH);
	assert_eq(ev[42].code, SYN_REPORT);
	uirq_input_close(c);
	uirq_input_unregister_device(d);
	assert_no_reports();
}
