// SPDX-License-Identifier: MIT
/*
 * The input core's decisions: which reports become events (capabilities,
 * key state, autorepeat), how they are framed by SYN_REPORT, device
 * lifetime, and a report from hard-irq context staying clean.
 */
#include <errno.h>
#include <linux/input.h>	/* the system's struct input_event, for the layout check */
#include <pthread.h>
#include <sched.h>

#include "io_reports.h"
#include "uirq/context.h"
#include "uirq/input.h"

#define OPTS .timeout = 20, .init = io_reports_start

static struct uirq_input_dev *dev;
static struct uirq_input_client *cl;

static void setup(void)
{
	io_reports_start();
	assert_eq(uirq_input_allocate_device(&dev), 0);
	assert_not_null(dev);
	dev->name = "twl4030_pwrbutton";
	dev->phys = "twl4030_pwrbutton/input0";
	uirq_input_set_capability(dev, EV_KEY, KEY_POWER);
	assert_eq(uirq_input_register_device(dev), 0);
	assert_eq(uirq_input_open(dev, &cl), 0);
}

static void teardown(void)
{
	uirq_input_close(cl);
	uirq_input_unregister_device(dev);
}

#define DEV_OPTS .timeout = 20, .init = setup

/* Everything readable now, without waiting. */
static int drain(struct uirq_input_event *ev, int max)
{
	int n = uirq_input_read(cl, ev, max, UIRQ_INPUT_NONBLOCK);

	return n == -EAGAIN ? 0 : n;
}

static void assert_ev(const struct uirq_input_event *ev, unsigned int type, unsigned int code, int value)
{
	assert_eq(ev->type, type, "type %u, want %u", ev->type, type);
	assert_eq(ev->code, code, "code %u, want %u", ev->code, code);
	assert_eq(ev->value, value, "value %d, want %d", ev->value, value);
}

UIRQ_TEST(input_core, event_layout_is_the_kernels, OPTS)
{
	assert_eq(sizeof(struct uirq_input_event), sizeof(struct input_event));
	assert_eq(offsetof(struct uirq_input_event, type), offsetof(struct input_event, type));
	assert_eq(offsetof(struct uirq_input_event, code), offsetof(struct input_event, code));
	assert_eq(offsetof(struct uirq_input_event, value), offsetof(struct input_event, value));
}

UIRQ_TEST(input_core, press_release_frames, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	uirq_input_report_key(dev, KEY_POWER, 1);
	assert_eq(drain(ev, 8), 0, "nothing before the SYN_REPORT");
	assert_true(uirq_input_key_pressed(dev, KEY_POWER));
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 2);
	assert_ev(&ev[0], EV_KEY, KEY_POWER, 1);
	assert_ev(&ev[1], EV_SYN, SYN_REPORT, 0);
	uirq_input_report_key(dev, KEY_POWER, 0);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 2);
	assert_ev(&ev[0], EV_KEY, KEY_POWER, 0);
	assert_ev(&ev[1], EV_SYN, SYN_REPORT, 0);
	assert_false(uirq_input_key_pressed(dev, KEY_POWER));
	teardown();
	assert_no_reports();
}

UIRQ_TEST(input_core, same_state_key_is_dropped, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	uirq_input_report_key(dev, KEY_POWER, 0);	/* already up */
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 0, "a release of a released key is no event");
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 2, "the second press is dropped");
	uirq_input_report_key(dev, KEY_POWER, 7);	/* any non-zero is "down" */
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 0);
	/* Press and release inside one frame: both are events. */
	uirq_input_report_key(dev, KEY_POWER, 0);
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 3);
	assert_ev(&ev[0], EV_KEY, KEY_POWER, 0);
	assert_ev(&ev[1], EV_KEY, KEY_POWER, 1);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(input_core, empty_sync_emits_nothing, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	uirq_input_sync(dev);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 0);
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_input_sync(dev);
	uirq_input_sync(dev);	/* the frame is closed: this one is empty */
	assert_eq(drain(ev, 8), 2);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(input_core, autorepeat_only_while_down, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	uirq_input_report_key(dev, KEY_POWER, 2);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 0, "repeat of a key that is up");
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_input_sync(dev);
	uirq_input_report_key(dev, KEY_POWER, 2);
	uirq_input_sync(dev);
	uirq_input_report_key(dev, KEY_POWER, 2);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 6);
	assert_ev(&ev[2], EV_KEY, KEY_POWER, 2);
	assert_ev(&ev[4], EV_KEY, KEY_POWER, 2);
	assert_true(uirq_input_key_pressed(dev, KEY_POWER), "a repeat changes no state");
	teardown();
	assert_no_reports();
}

UIRQ_TEST(input_core, capabilities_filter_events, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	uirq_input_report_key(dev, KEY_VOLUMEUP, 1);	/* a key the device lacks */
	uirq_input_event(dev, EV_REL, REL_X, 5);	/* a type it lacks */
	uirq_input_event(dev, EV_MSC, MSC_SCAN, 0x74);
	uirq_input_event(dev, EV_ABS, 0, 1);
	uirq_input_event(dev, EV_KEY, KEY_MAX + 1, 1);
	uirq_input_event(dev, 0x1234, 0, 1);
	uirq_input_event(dev, EV_SYN, SYN_DROPPED, 0);	/* not a driver's to send */
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 0);
	assert_false(uirq_input_key_pressed(dev, KEY_VOLUMEUP), "a dropped report changes no state");
	teardown();
	assert_no_reports();
}

UIRQ_TEST(input_core, other_types_follow_kernel_rules, OPTS)
{
	struct uirq_input_event ev[16];
	struct uirq_input_dev *d;
	assert_eq(uirq_input_allocate_device(&d), 0);

	uirq_input_set_capability(d, EV_KEY, KEY_VOLUMEUP);
	uirq_input_set_capability(d, EV_MSC, MSC_SCAN);
	uirq_input_set_capability(d, EV_SW, SW_LID);
	uirq_input_set_capability(d, EV_REL, REL_WHEEL);
	uirq_input_set_capability(d, EV_ABS, 0);		/* unsupported here: warned, ignored */
	uirq_input_set_capability(d, EV_KEY, KEY_MAX + 1);	/* out of range: warned, ignored */
	assert_eq(uirq_input_register_device(d), 0);
	assert_eq(uirq_input_register_device(d), -EINVAL, "registered twice");
	assert_ge(uirq_input_device_nr(d), 0);
	assert_eq(uirq_input_open(d, &cl), 0);
	uirq_input_event(d, EV_MSC, MSC_SCAN, 0x74);	/* MSC always passes */
	uirq_input_report_key(d, KEY_VOLUMEUP, 1);
	uirq_input_report_switch(d, SW_LID, 1);
	uirq_input_report_switch(d, SW_LID, 1);		/* same state: dropped */
	uirq_input_report_rel(d, REL_WHEEL, 0);		/* no motion: dropped */
	uirq_input_report_rel(d, REL_WHEEL, -1);
	uirq_input_sync(d);
	uirq_input_event(d, EV_MSC, MSC_SCAN, 0x74);
	uirq_input_sync(d);
	assert_eq(drain(ev, 16), 7);
	assert_ev(&ev[0], EV_MSC, MSC_SCAN, 0x74);
	assert_ev(&ev[1], EV_KEY, KEY_VOLUMEUP, 1);
	assert_ev(&ev[2], EV_SW, SW_LID, 1);
	assert_ev(&ev[3], EV_REL, REL_WHEEL, -1);
	assert_ev(&ev[4], EV_SYN, SYN_REPORT, 0);
	assert_ev(&ev[5], EV_MSC, MSC_SCAN, 0x74);
	uirq_input_close(cl);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

UIRQ_TEST(input_core, long_frame_is_split, OPTS)
{
	struct uirq_input_event ev[UIRQ_INPUT_CLIENT_BUFSIZE];
	struct uirq_input_dev *d;
	assert_eq(uirq_input_allocate_device(&d), 0);
	int n, syns = 0, keys = 0, first_syn = -1;

	for (unsigned int k = KEY_ESC; k < KEY_ESC + 40; k++)
		uirq_input_set_capability(d, EV_KEY, k);
	assert_eq(uirq_input_register_device(d), 0);
	assert_eq(uirq_input_open(d, &cl), 0);
	for (unsigned int k = KEY_ESC; k < KEY_ESC + 40; k++)
		uirq_input_report_key(d, k, 1);
	uirq_input_sync(d);
	n = drain(ev, UIRQ_INPUT_CLIENT_BUFSIZE);
	for (int i = 0; i < n; i++) {
		if (ev[i].type == EV_SYN && ev[i].code == SYN_REPORT && first_syn < 0)
			first_syn = i;
		syns += ev[i].type == EV_SYN && ev[i].code == SYN_REPORT;
		keys += ev[i].type == EV_KEY;
	}
	assert_eq(keys, 40);
	assert_eq(syns, 2, "a frame longer than the core holds is closed early");
	assert_eq(first_syn, UIRQ_INPUT_MAX_VALS - 1);
	uirq_input_close(cl);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* The event path from a hard-irq handler: irqsave spinlocks only, nothing sleeps. */
UIRQ_TEST(input_core, report_from_hardirq_is_clean, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	uirq_local_irq_disable();
	uirq_hardirq_enter();
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_input_sync(dev);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
	/* And from process context with irqs on, the other half of lockdep's irq check. */
	uirq_input_report_key(dev, KEY_POWER, 0);
	uirq_input_sync(dev);
	assert_eq(drain(ev, 8), 4);
	teardown();
	assert_no_reports();
}

#define FRAMES 200

static int consumed;

/* A CPU thread's life: each frame reported from hard-irq context, paced by the reader. */
static void *irq_thread(void *arg)
{
	(void)arg;
	for (int i = 1; i <= FRAMES; i++) {
		unsigned long f = uirq_local_irq_save();

		uirq_hardirq_enter();
		uirq_input_report_key(dev, KEY_POWER, i & 1);
		uirq_input_sync(dev);
		uirq_hardirq_exit();
		uirq_local_irq_restore(f);
		/* Never more than one frame ahead, so the ring cannot overflow. */
		while (__atomic_load_n(&consumed, __ATOMIC_ACQUIRE) < 2 * (i - 1))
			sched_yield();
	}
	return NULL;
}

UIRQ_TEST(input_core, hardirq_thread_against_reader, DEV_OPTS)
{
	pthread_t t;
	struct uirq_input_event ev[8];
	int events = 0;

	assert_eq(pthread_create(&t, NULL, irq_thread, NULL), 0);
	while (events < 2 * FRAMES) {
		int n = uirq_input_read(cl, ev, 8, 0);

		assert_gt(n, 0);
		for (int i = 0; i < n; i++)
			assert_ne(ev[i].code, SYN_DROPPED);
		events += n;
		__atomic_store_n(&consumed, events, __ATOMIC_RELEASE);
	}
	assert_eq(pthread_join(t, NULL), 0);
	assert_eq(events, 2 * FRAMES);
	teardown();
	assert_no_reports();
}

static int opens, closes;

static int on_open(struct uirq_input_dev *d)
{
	(void)d;
	return opens++ == 2 ? -EBUSY : 0;
}

static void on_close(struct uirq_input_dev *d)
{
	(void)d;
	closes++;
}

UIRQ_TEST(input_core, lifetime_and_open_close, OPTS)
{
	struct uirq_input_dev *d;
	assert_eq(uirq_input_allocate_device(&d), 0);
	struct uirq_input_client *a, *b, *bad;

	uirq_input_free_device(NULL);
	assert_eq(uirq_input_open(d, &bad), -ENODEV, "not registered yet");
	assert_null(bad);
	uirq_input_free_device(d);	/* never registered: free is the way */

	assert_eq(uirq_input_allocate_device(&d), 0);
	d->open = on_open;
	d->close = on_close;
	uirq_input_set_drvdata(d, &opens);
	assert_eq(uirq_input_get_drvdata(d), &opens);
	uirq_input_set_capability(d, EV_KEY, KEY_POWER);
	assert_eq(uirq_input_register_device(d), 0);
	uirq_input_free_device(d);	/* registered: refused with a warning */
	assert_eq(uirq_input_open(d, &a), 0);
	assert_eq(uirq_input_open(d, &b), 0);
	assert_true(a && b);
	assert_eq(opens, 1, "open is called for the first client only");
	uirq_input_close(a);
	assert_eq(closes, 0);
	uirq_input_close(b);
	assert_eq(closes, 1, "close for the last");
	assert_eq(uirq_input_open(d, &a), 0);
	assert_eq(opens, 2);
	uirq_input_close(a);
	assert_eq(uirq_input_open(d, &bad), -EBUSY, "dev->open's error");
	assert_null(bad);
	assert_eq(uirq_input_open(d, &a), 0);
	/* Unregister with a client open: the client keeps the memory alive until close. */
	uirq_input_unregister_device(d);
	assert_eq(closes, 3);
	assert_eq(uirq_input_open(d, &bad), -ENODEV);
	assert_null(bad);
	uirq_input_report_key(d, KEY_POWER, 1);	/* ignored, harmless */
	uirq_input_sync(d);
	assert_eq(uirq_input_read(a, (struct uirq_input_event[1]){ 0 }, 1, UIRQ_INPUT_NONBLOCK), -ENODEV);
	uirq_input_close(a);
	assert_no_reports();
}
