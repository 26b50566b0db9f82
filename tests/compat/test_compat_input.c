// SPDX-License-Identifier: MIT
/*
 * Input devices in the kernel's shape with absolute axes and slots
 * (compat/input.c, input-mt.c, input-poller.c), each as the kernel's input
 * core and input-mt.c behave for a driver: input_set_abs_params() and the
 * input_abs_*() accessors on one absinfo with the core's filtering,
 * input_mt_init_slots()'s capabilities visible in the driver's bitmaps,
 * the device's mutex around open and close, a managed device unregistered
 * in its registration's place among the driver's resources, a polled
 * device.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/input.h>
#include <linux/input/mt.h>
#include <linux/platform_device.h>

#include "compat_test.h"
#include "sim_runs.h"

#define OPTS .init = setup, .fini = teardown

/* Read what client c has now into ev: the count. */
static int drain(struct uirq_input_client *c, struct uirq_input_event *ev, int max)
{
	int n = uirq_input_read(c, ev, max, UIRQ_INPUT_NONBLOCK);

	return n == -EAGAIN ? 0 : n;
}

UIRQ_TEST(compat_input, abs_params_share_the_cores_absinfo, OPTS)
{
	struct input_dev *in = input_allocate_device();
	struct uirq_input_client *c;
	struct uirq_input_event ev[8];
	struct uirq_input_absinfo a;

	assert_not_null(in);
	in->name = "accel";
	assert_eq(input_abs_get_max(in, ABS_X), 0, "no absinfo yet: 0, as the kernel's accessor");
	input_set_abs_params(in, ABS_X, -8000, 8000, 3, 3);
	assert_true(test_bit(EV_ABS, in->evbit));
	assert_true(test_bit(ABS_X, in->absbit));
	assert_not_null(in->absinfo);
	input_abs_set_res(in, ABS_X, 1024);
	assert_eq(input_abs_get_min(in, ABS_X), -8000);
	assert_eq(input_abs_get_fuzz(in, ABS_X), 3);
	assert_eq(input_register_device(in), 0);
	/* What the driver wrote is what the core holds. */
	assert_eq(uirq_input_get_absinfo(uirq_compat_input_dev(in), ABS_X, &a), 0);
	assert_eq(a.maximum, 8000);
	assert_eq(a.resolution, 1024);
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &c), 0);
	input_report_abs(in, ABS_X, 100);
	input_sync(in);
	input_report_abs(in, ABS_X, 101);	/* within the fuzz: the kernel's filter drops it */
	input_sync(in);
	assert_eq(drain(c, ev, 8), 2);
	assert_eq(ev[0].type, EV_ABS);
	assert_eq(ev[0].value, 100);
	assert_eq(input_abs_get_val(in, ABS_X), 100, "the value is the core's, read through the driver's view");
	uirq_input_close(c);
	input_unregister_device(in);
}

/*
 * What a driver reports before registering its device (a switch's
 * position read in probe) is the device's state, delivered to no one: the
 * kernel's input_handle_event() updates key, switch and axis state first
 * and only then finds no handler.  Once registered, the state is what a
 * client's query reads, and a report of the same value is dropped.
 */
UIRQ_TEST(compat_input, state_reported_before_registration_is_kept, OPTS)
{
	struct input_dev *in = input_allocate_device();
	struct uirq_input_client *c;
	struct uirq_input_event ev[4];
	struct uirq_input_absinfo a;

	in->name = "lid";
	input_set_capability(in, EV_SW, SW_LID);
	input_set_capability(in, EV_KEY, KEY_POWER);
	input_set_abs_params(in, ABS_X, 0, 100, 0, 0);
	input_report_switch(in, SW_LID, 1);
	input_report_key(in, KEY_POWER, 1);
	input_report_abs(in, ABS_X, 42);
	input_sync(in);
	assert_eq(input_register_device(in), 0);
	assert_eq(uirq_input_key_pressed(uirq_compat_input_dev(in), KEY_POWER), true, "pressed before registration");
	assert_eq(uirq_input_switch_on(uirq_compat_input_dev(in), SW_LID), true, "closed before registration");
	assert_eq(uirq_input_get_absinfo(uirq_compat_input_dev(in), ABS_X, &a), 0);
	assert_eq(a.value, 42);
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &c), 0);
	assert_eq(drain(c, ev, 4), 0, "nothing was delivered");
	input_report_switch(in, SW_LID, 1);
	input_report_abs(in, ABS_X, 42);
	input_sync(in);
	assert_eq(drain(c, ev, 4), 0, "the same values: no change to report");
	input_report_switch(in, SW_LID, 0);
	input_sync(in);
	assert_eq(drain(c, ev, 4), 2, "opened: an event and its SYN_REPORT");
	assert_eq(ev[0].code, SW_LID);
	assert_eq(ev[0].value, 0);
	uirq_input_close(c);
	input_unregister_device(in);
}

UIRQ_TEST(compat_input, absolute_device_without_absinfo_is_refused, OPTS)
{
	struct input_dev *in = input_allocate_device();

	in->name = "bare";
	__set_bit(EV_ABS, in->evbit);
	__set_bit(ABS_X, in->absbit);
	assert_eq(input_register_device(in), -EINVAL);
	assert_not_null(strstr(logbuf, "Absolute device without dev->absinfo, refusing to register"), "%s", logbuf);
	/* input_set_capability(EV_ABS) allocates it, as the kernel's does. */
	input_set_capability(in, EV_ABS, ABS_Y);
	assert_not_null(in->absinfo);
	assert_eq(input_register_device(in), 0);
	input_unregister_device(in);
}

/* input_mt_init_slots(): what the core sets up shows in the driver's own bitmaps and absinfo. */
UIRQ_TEST(compat_input, mt_init_slots_shows_in_the_drivers_view, OPTS)
{
	struct input_dev *in = input_allocate_device();
	struct uirq_input_client *c;
	struct uirq_input_event ev[16];

	in->name = "touch";
	input_set_abs_params(in, ABS_MT_POSITION_X, 0, 799, 0, 0);
	input_set_abs_params(in, ABS_MT_POSITION_Y, 0, 479, 0, 0);
	assert_eq(input_mt_init_slots(in, 5, INPUT_MT_DIRECT | INPUT_MT_DROP_UNUSED), 0);
	assert_eq(input_mt_init_slots(in, 5, 0), 0, "again, same count");
	assert_eq(input_mt_init_slots(in, 4, 0), -EINVAL);
	assert_true(test_bit(ABS_MT_SLOT, in->absbit));
	assert_true(test_bit(ABS_MT_TRACKING_ID, in->absbit));
	assert_true(test_bit(ABS_X, in->absbit), "the emulated pointer's axes");
	assert_true(test_bit(BTN_TOUCH, in->keybit));
	assert_true(test_bit(EV_KEY, in->evbit));
	assert_true(test_bit(INPUT_PROP_DIRECT, in->propbit));
	assert_eq(input_abs_get_max(in, ABS_MT_SLOT), 4);
	assert_eq(input_abs_get_max(in, ABS_X), 799);
	assert_eq(input_abs_get_max(in, ABS_MT_TRACKING_ID), TRKID_MAX);
	assert_true(input_is_mt_axis(ABS_MT_SLOT));
	assert_false(input_is_mt_value(ABS_MT_SLOT));
	assert_eq(input_register_device(in), 0);
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &c), 0);
	input_mt_slot(in, 2);
	assert_true(input_mt_report_slot_state(in, MT_TOOL_FINGER, true));
	input_report_abs(in, ABS_MT_POSITION_X, 10);
	input_report_abs(in, ABS_MT_POSITION_Y, 20);
	input_mt_sync_frame(in);
	input_sync(in);
	assert_eq(drain(c, ev, 16), 8);
	assert_eq(ev[0].code, ABS_MT_SLOT);
	assert_eq(ev[0].value, 2);
	assert_eq(ev[4].code, BTN_TOUCH);
	assert_eq(ev[5].code, ABS_X);
	assert_eq(ev[5].value, 10);
	input_mt_report_slot_inactive(in);
	input_mt_sync_frame(in);
	input_sync(in);
	assert_eq(drain(c, ev, 16), 3);
	assert_eq(ev[0].code, ABS_MT_TRACKING_ID);
	assert_eq(ev[0].value, -1);
	assert_eq(ev[1].code, BTN_TOUCH);
	uirq_input_close(c);
	input_unregister_device(in);
}

/* ---- a driver's open and close: under the device's mutex; input_device_enabled() ---- */

static int opens, closes;
static bool held_in_open;

static int drv_open(struct input_dev *in)
{
	held_in_open = mutex_is_locked(&in->mutex);
	opens++;
	return 0;
}

static void drv_close(struct input_dev *in)
{
	(void)in;
	closes++;
}

UIRQ_TEST(compat_input, open_close_under_the_mutex, OPTS)
{
	struct input_dev *in = input_allocate_device();
	struct uirq_input_client *c1, *c2;

	in->name = "keys";
	in->open = drv_open;
	in->close = drv_close;
	input_set_capability(in, EV_KEY, KEY_A);
	assert_eq(input_register_device(in), 0);
	mutex_lock(&in->mutex);
	assert_false(input_device_enabled(in), "nobody has it open");
	mutex_unlock(&in->mutex);
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &c1), 0);
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &c2), 0);
	assert_eq(opens, 1, "the first user opens");
	assert_true(held_in_open, "the kernel's core holds dev->mutex around open");
	mutex_lock(&in->mutex);
	assert_true(input_device_enabled(in));
	mutex_unlock(&in->mutex);
	uirq_input_close(c1);
	assert_eq(closes, 0);
	uirq_input_close(c2);
	assert_eq(closes, 1, "the last user closes");
	input_unregister_device(in);
}

/* ---- a managed device: unregistered where it was registered, freed where it was allocated ---- */

static char order[16];

static void note(void *what)
{
	strncat(order, what, sizeof(order) - strlen(order) - 1);
}

static void note_close(struct input_dev *in)
{
	(void)in;
	note("c");
}

static int managed_probe(struct platform_device *pdev)
{
	struct input_dev *in = devm_input_allocate_device(&pdev->dev);

	assert_not_null(in);
	in->name = "managed";
	in->close = note_close;
	input_set_capability(in, EV_KEY, KEY_B);
	/* Taken after the allocation, before the registration: an interrupt, say. */
	assert_eq(devm_add_action(&pdev->dev, note, "i"), 0);
	return input_register_device(in);
}

static struct platform_driver managed_driver = { .probe = managed_probe, .driver = { .name = "managed" } };

UIRQ_TEST(compat_input, managed_device_unregistered_before_what_it_was_given, OPTS)
{
	struct platform_device *pdev;
	struct uirq_input_client *c;

	order[0] = '\0';
	assert_eq(platform_driver_register(&managed_driver), 0);
	pdev = platform_device_register_simple("managed", PLATFORM_DEVID_NONE, NULL, 0);
	assert_eq(uirq_input_open(uirq_compat_input_dev(uirq_compat_input_find(&pdev->dev)), &c), 0);
	platform_device_unregister(pdev);
	/* The kernel's devres order: unregister (closing the open device) first, then the interrupt. */
	assert_str_eq(order, "ci");
	uirq_input_close(c);
	platform_driver_unregister(&managed_driver);
}

/* A managed device the driver unregisters itself: its memory still goes at unbind, once. */
UIRQ_TEST(compat_input, managed_device_unregistered_by_the_driver, OPTS)
{
	struct platform_device *pdev;
	struct input_dev *in;

	order[0] = '\0';
	assert_eq(platform_driver_register(&managed_driver), 0);
	pdev = platform_device_register_simple("managed", PLATFORM_DEVID_NONE, NULL, 0);
	in = uirq_compat_input_find(&pdev->dev);
	assert_not_null(in);
	input_unregister_device(in);
	assert_null(uirq_compat_input_find(&pdev->dev));
	platform_device_unregister(pdev);
	assert_str_eq(order, "i", "not open: no close");
	platform_driver_unregister(&managed_driver);
}

/* ---- a polled device: poll() at open, then every interval, until close ---- */

static int polls;

static void count_poll(struct input_dev *in)
{
	__atomic_fetch_add(&polls, 1, __ATOMIC_RELAXED);
	input_report_key(in, KEY_C, __atomic_load_n(&polls, __ATOMIC_RELAXED) & 1);
	input_sync(in);
}

static int polled_probe(struct platform_device *pdev)
{
	struct input_dev *in = devm_input_allocate_device(&pdev->dev);
	int ret;

	in->name = "polled";
	input_set_capability(in, EV_KEY, KEY_C);
	ret = input_setup_polling(in, count_poll);
	if (ret)
		return ret;
	input_set_poll_interval(in, 5);
	return input_register_device(in);
}

static struct platform_driver polled_driver = { .probe = polled_probe, .driver = { .name = "polled" } };

static int polls_now(void)
{
	return __atomic_load_n(&polls, __ATOMIC_RELAXED);
}

/* The polled device's runs: in the deterministic mode, where the interval's time is virtual and exact. */
static void sim_begin(unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };

	logbuf[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_cpus_start(&cfg), 0);
}

static void sim_end(void)
{
	teardown();
}

SIM_TEST(compat_input, polled_device, sim_begin, sim_end, .timeout = 60)
{
	struct platform_device *pdev;
	struct input_dev *in;
	struct uirq_input_client *c;

	polls = 0;
	assert_eq(platform_driver_register(&polled_driver), 0);
	pdev = platform_device_register_simple("polled", PLATFORM_DEVID_NONE, NULL, 0);
	in = uirq_compat_input_find(&pdev->dev);
	assert_not_null(in);
	assert_eq(input_get_poll_interval(in), 5);
	uirq_sim_sleep_ns(20 * SIM_MS);
	assert_eq(polls_now(), 0, "closed: no polls");
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &c), 0);
	assert_eq(polls_now(), 1, "one poll at open, as the kernel's");
	/* Then one every 5 ms, re-armed after each: at 5, 10 and 15 ms. */
	uirq_sim_sleep_ns(17 * SIM_MS);
	assert_eq(polls_now(), 4);
	uirq_input_close(c);
	uirq_sim_sleep_ns(30 * SIM_MS);
	assert_eq(polls_now(), 4, "closed: no more");
	platform_device_unregister(pdev);
	platform_driver_unregister(&polled_driver);
}

/* Without a poller the interval calls answer as the kernel's: a message, -EINVAL. */
UIRQ_TEST(compat_input, poll_interval_without_a_poller, OPTS)
{
	struct input_dev *in = input_allocate_device();

	input_set_poll_interval(in, 10);
	assert_not_null(strstr(logbuf, "poller structure has not been set up"), "%s", logbuf);
	assert_eq(input_get_poll_interval(in), -EINVAL);
	input_free_device(in);
}
