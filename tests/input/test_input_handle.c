// SPDX-License-Identifier: MIT
/*
 * Input handles (input.c): every consumer - the evdev clients too - gets every
 * frame the core passes - filtered, SYN_REPORT last, in order, once - with
 * the frame's time, from the reporting context.  A handle is a user of the
 * device like a client: the first user opens it, the last closes it.
 * Arguments and device states give the documented errors.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "io_reports.h"
#include "uirq/context.h"
#include "uirq/input.h"

#define OPTS .timeout = 20, .init = io_reports_start
#define MAX_FRAMES 512
#define MAX_VALS 2048

/* Every frame a handle saw, flattened. */
struct rec {
	struct uirq_input_handle h;
	int frames;
	int nvals;
	unsigned int count[MAX_FRAMES];
	struct timespec time[MAX_FRAMES];
	bool hardirq[MAX_FRAMES];
	bool irqs_off[MAX_FRAMES];
	struct uirq_input_value vals[MAX_VALS];
};

static void rec_events(struct uirq_input_handle *h, const struct uirq_input_value *vals,
		       unsigned int count, const struct timespec *time)
{
	struct rec *r = h->priv;

	assert_eq(h, &r->h);
	if (r->frames < MAX_FRAMES) {
		r->count[r->frames] = count;
		r->time[r->frames] = *time;
		r->hardirq[r->frames] = uirq_in_hardirq();
		r->irqs_off[r->frames] = uirq_irqs_disabled();
	}
	__atomic_store_n(&r->frames, r->frames + 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < count && r->nvals < MAX_VALS; i++)
		r->vals[r->nvals++] = vals[i];
}

static void rec_init(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->h.events = rec_events;
	r->h.priv = r;
}

static int opens, closes, open_err;

static int on_open(struct uirq_input_dev *d)
{
	(void)d;
	opens++;
	return open_err;
}

static void on_close(struct uirq_input_dev *d)
{
	(void)d;
	closes++;
}

static struct uirq_input_dev *new_dev(bool registered)
{
	struct uirq_input_dev *d;
	assert_eq(uirq_input_allocate_device(&d), 0);

	assert_not_null(d);
	d->name = "handle-test";
	d->open = on_open;
	d->close = on_close;
	uirq_input_set_capability(d, EV_KEY, KEY_POWER);
	uirq_input_set_capability(d, EV_KEY, KEY_VOLUMEUP);
	uirq_input_set_capability(d, EV_REL, REL_X);
	if (registered)
		assert_eq(uirq_input_register_device(d), 0);
	return d;
}

static void assert_val(const struct uirq_input_value *v, unsigned int type, unsigned int code, int value)
{
	assert_eq(v->type, type, "type %u, want %u", v->type, type);
	assert_eq(v->code, code, "code %u, want %u", v->code, code);
	assert_eq(v->value, value, "value %d, want %d", v->value, value);
}

static void press_release(struct uirq_input_dev *d, unsigned int code)
{
	uirq_input_report_key(d, code, 1);
	uirq_input_sync(d);
	uirq_input_report_key(d, code, 0);
	uirq_input_sync(d);
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ts_ns(&t);
}

UIRQ_TEST(input_handle, register_arguments_and_states, OPTS)
{
	static struct rec r, r2;
	struct uirq_input_handle no_events = { .events = NULL };
	struct uirq_input_dev *unreg = new_dev(false), *d = new_dev(true), *other = new_dev(true);

	rec_init(&r);
	rec_init(&r2);
	assert_eq(uirq_input_register_handle(NULL, &r.h), -EINVAL);
	assert_eq(uirq_input_register_handle(d, NULL), -EINVAL);
	assert_eq(uirq_input_register_handle(d, &no_events), -EINVAL, "a handle needs events()");
	assert_eq(uirq_input_register_handle(unreg, &r.h), -ENODEV, "not registered");
	assert_null(r.h.dev);
	assert_eq(opens, 0, "a refused handle opens nothing");

	assert_eq(uirq_input_register_handle(d, &r.h), 0);
	assert_eq(r.h.dev, d);
	assert_eq(uirq_input_register_handle(d, &r.h), -EBUSY, "attached already");
	assert_eq(uirq_input_register_handle(other, &r.h), -EBUSY, "attached to another device");

	/* Unregistering what is not attached is harmless. */
	uirq_input_unregister_handle(NULL);
	uirq_input_unregister_handle(&r2.h);
	assert_null(r2.h.dev);

	uirq_input_unregister_handle(&r.h);
	assert_null(r.h.dev);
	uirq_input_unregister_handle(&r.h);	/* twice: a no-op */
	assert_eq(opens, closes);

	/* Attached again after unregistering, to another device. */
	assert_eq(uirq_input_register_handle(other, &r.h), 0);
	press_release(other, KEY_POWER);
	press_release(d, KEY_POWER);
	assert_eq(r.frames, 2, "only the device it is attached to");
	uirq_input_unregister_handle(&r.h);

	/* A device that is gone (its memory held by a client) takes no handle. */
	struct uirq_input_client *c;

	assert_eq(uirq_input_open(d, &c), 0);
	uirq_input_unregister_device(d);
	assert_eq(uirq_input_register_handle(d, &r.h), -ENODEV);
	assert_null(r.h.dev);
	uirq_input_close(c);
	uirq_input_unregister_device(other);
	uirq_input_free_device(unreg);
	assert_no_reports();
}

UIRQ_TEST(input_handle, frames_in_order_each_once, OPTS)
{
	static struct rec r;
	struct uirq_input_dev *d = new_dev(true);

	rec_init(&r);
	assert_eq(uirq_input_register_handle(d, &r.h), 0);
	uirq_input_report_key(d, KEY_POWER, 1);
	assert_eq(r.frames, 0, "nothing before the SYN_REPORT");
	uirq_input_sync(d);
	assert_eq(r.frames, 1);
	assert_eq(r.count[0], 2);
	assert_val(&r.vals[0], EV_KEY, KEY_POWER, 1);
	assert_val(&r.vals[1], EV_SYN, SYN_REPORT, 0);

	/* Filtered as for clients: the same state again, an unknown code, an empty frame. */
	uirq_input_report_key(d, KEY_POWER, 1);
	uirq_input_report_key(d, KEY_A, 1);
	uirq_input_sync(d);
	uirq_input_sync(d);
	assert_eq(r.frames, 1, "nothing passed, nothing framed");

	/* Autorepeat while down, then a frame of several events, in report order. */
	uirq_input_report_key(d, KEY_POWER, 2);
	uirq_input_sync(d);
	uirq_input_report_key(d, KEY_VOLUMEUP, 1);
	uirq_input_report_rel(d, REL_X, 0);	/* dropped: no motion */
	uirq_input_report_rel(d, REL_X, -3);
	uirq_input_report_key(d, KEY_POWER, 0);
	uirq_input_sync(d);
	assert_eq(r.frames, 3);
	assert_eq(r.count[1], 2);
	assert_val(&r.vals[2], EV_KEY, KEY_POWER, 2);
	assert_val(&r.vals[3], EV_SYN, SYN_REPORT, 0);
	assert_eq(r.count[2], 4);
	assert_val(&r.vals[4], EV_KEY, KEY_VOLUMEUP, 1);
	assert_val(&r.vals[5], EV_REL, REL_X, -3);
	assert_val(&r.vals[6], EV_KEY, KEY_POWER, 0);
	assert_val(&r.vals[7], EV_SYN, SYN_REPORT, 0);
	assert_eq(r.nvals, 8);

	/* A frame too long to hold reaches the handle split, each part closed by a SYN_REPORT. */
	for (int i = 0; i < 40; i++)
		uirq_input_report_rel(d, REL_X, i + 1);
	uirq_input_sync(d);
	assert_eq(r.frames, 5);
	assert_eq(r.count[3], UIRQ_INPUT_MAX_VALS);
	assert_val(&r.vals[8 + UIRQ_INPUT_MAX_VALS - 2], EV_REL, REL_X, UIRQ_INPUT_MAX_VALS - 1);
	assert_val(&r.vals[8 + UIRQ_INPUT_MAX_VALS - 1], EV_SYN, SYN_REPORT, 0);
	assert_eq(r.count[4], 40 - (UIRQ_INPUT_MAX_VALS - 1) + 1);
	assert_val(&r.vals[8 + UIRQ_INPUT_MAX_VALS], EV_REL, REL_X, UIRQ_INPUT_MAX_VALS);
	assert_val(&r.vals[r.nvals - 1], EV_SYN, SYN_REPORT, 0);

	/* Detached: nothing more. */
	uirq_input_unregister_handle(&r.h);
	press_release(d, KEY_POWER);
	assert_eq(r.frames, 5);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* The handle's frames are the clients' frames, with the same (monotonic) time. */
UIRQ_TEST(input_handle, same_frames_and_time_as_a_client, OPTS)
{
	static struct rec r;
	struct uirq_input_dev *d = new_dev(true);
	struct uirq_input_client *c;
	struct uirq_input_event ev[8];
	uint64_t before, after;

	assert_eq(uirq_input_open(d, &c), 0);
	assert_not_null(c);
	rec_init(&r);
	assert_eq(uirq_input_register_handle(d, &r.h), 0);
	for (int i = 0; i < 100; i++) {
		before = mono_ns();
		uirq_input_report_key(d, KEY_POWER, !(i & 1));
		uirq_input_sync(d);
		after = mono_ns();
		assert_eq(r.frames, i + 1);
		assert_ge(ts_ns(&r.time[i]), before);
		assert_le(ts_ns(&r.time[i]), after);
		assert_eq(uirq_input_read(c, ev, 8, UIRQ_INPUT_NONBLOCK), 2);
		assert_eq(ev[0].code, KEY_POWER);
		assert_eq(ev[0].value, !(i & 1));
		assert_eq(r.vals[2 * i].value, ev[0].value);
		/* The client's timeval is the same instant, cut to microseconds. */
		assert_eq((uint64_t)ev[0].time.tv_sec, (uint64_t)r.time[i].tv_sec);
		assert_eq(ev[0].time.tv_usec, r.time[i].tv_nsec / 1000);
		assert_false(r.hardirq[i]);
	}
	uirq_input_unregister_handle(&r.h);
	uirq_input_close(c);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

UIRQ_TEST(input_handle, two_handles_each_get_every_frame, OPTS)
{
	static struct rec a, b;
	struct uirq_input_dev *d = new_dev(true);

	rec_init(&a);
	rec_init(&b);
	assert_eq(uirq_input_register_handle(d, &a.h), 0);
	press_release(d, KEY_POWER);
	assert_eq(uirq_input_register_handle(d, &b.h), 0);
	press_release(d, KEY_VOLUMEUP);
	assert_eq(a.frames, 4);
	assert_eq(b.frames, 2);
	assert_val(&b.vals[0], EV_KEY, KEY_VOLUMEUP, 1);
	assert_val(&b.vals[2], EV_KEY, KEY_VOLUMEUP, 0);
	assert_val(&a.vals[4], EV_KEY, KEY_VOLUMEUP, 1);
	uirq_input_unregister_handle(&a.h);
	press_release(d, KEY_POWER);
	assert_eq(a.frames, 4);
	assert_eq(b.frames, 4, "the other handle stays attached");
	uirq_input_unregister_handle(&b.h);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* Handles and clients are users alike: dev->open for the first, dev->close for the last. */
UIRQ_TEST(input_handle, open_close_counting, OPTS)
{
	static struct rec a, b;
	struct uirq_input_dev *d = new_dev(true);
	struct uirq_input_client *c;

	rec_init(&a);
	rec_init(&b);
	assert_eq(uirq_input_register_handle(d, &a.h), 0);
	assert_eq(opens, 1);
	assert_eq(uirq_input_open(d, &c), 0);
	assert_eq(uirq_input_register_handle(d, &b.h), 0);
	assert_eq(opens, 1, "open for the first user only");
	assert_eq(d->users, 3);
	uirq_input_unregister_handle(&a.h);
	uirq_input_close(c);
	assert_eq(closes, 0, "a handle still uses it");
	uirq_input_unregister_handle(&b.h);
	assert_eq(closes, 1, "close for the last user, a handle");
	assert_eq(d->users, 0);

	/* dev->open's error refuses the handle and leaves no user behind. */
	open_err = -EIO;
	assert_eq(uirq_input_register_handle(d, &a.h), -EIO);
	assert_null(a.h.dev);
	assert_eq(d->users, 0);
	open_err = 1;
	assert_eq(uirq_input_register_handle(d, &a.h), -EIO, "a positive error is -EIO");
	open_err = -EBUSY;
	assert_eq(uirq_input_register_handle(d, &a.h), -EBUSY);
	open_err = 0;
	assert_eq(opens, 4);
	assert_eq(uirq_input_register_handle(d, &a.h), 0);
	assert_eq(opens, 5, "the next handle is the first user again");
	assert_eq(uirq_input_open(d, &c), 0);
	uirq_input_close(c);
	assert_eq(closes, 1, "the handle keeps it open");
	uirq_input_unregister_handle(&a.h);
	assert_eq(closes, 2);
	uirq_input_unregister_device(d);
	assert_eq(closes, 2, "no users left to close for");
	assert_no_reports();
}

/* Unregistering the device under a handle: closed once, silent, memory kept until the handle goes. */
UIRQ_TEST(input_handle, device_unregistered_under_a_handle, OPTS)
{
	static struct rec r;
	struct uirq_input_dev *d = new_dev(true);

	rec_init(&r);
	assert_eq(uirq_input_register_handle(d, &r.h), 0);
	press_release(d, KEY_POWER);
	uirq_input_unregister_device(d);
	assert_eq(closes, 1, "the device is closed as it goes");
	/* The handle's reference keeps the memory: reporting is ignored, not a use after free. */
	press_release(d, KEY_POWER);
	assert_eq(r.frames, 2);
	assert_eq(r.h.dev, d);
	uirq_input_unregister_handle(&r.h);
	assert_eq(closes, 1, "not closed twice");
	assert_null(r.h.dev);
	assert_no_reports();
}

static int disconnects;

static void on_disconnect(struct uirq_input_handle *h)
{
	assert_true(uirq_irqs_disabled(), "disconnect runs under the event lock, irqs off");
	assert_not_null(h->dev);
	disconnects++;
}

/* A handle's disconnect() hears of the unregister, once, as every evdev client does (they are handles). */
UIRQ_TEST(input_handle, disconnect_called_once_on_unregister, OPTS)
{
	static struct rec r, quiet;
	struct uirq_input_dev *d = new_dev(true);
	struct uirq_input_client *c;
	struct uirq_input_event ev[4];

	rec_init(&r);
	rec_init(&quiet);
	r.h.disconnect = on_disconnect;
	disconnects = 0;
	assert_eq(uirq_input_register_handle(d, &r.h), 0);
	assert_eq(uirq_input_register_handle(d, &quiet.h), 0);	/* no disconnect(): fine */
	assert_eq(uirq_input_open(d, &c), 0);
	uirq_input_unregister_device(d);
	assert_eq(disconnects, 1);
	assert_eq(uirq_input_read(c, ev, 4, false), -ENODEV, "the client was told too");
	uirq_input_close(c);
	uirq_input_unregister_handle(&quiet.h);
	uirq_input_unregister_handle(&r.h);
	assert_eq(disconnects, 1, "not again at the handle's own unregister");
	assert_no_reports();
}

/* From hard-irq context the handle runs in it, irqs off, and lockdep has nothing to say. */
UIRQ_TEST(input_handle, runs_in_the_reporting_context, OPTS)
{
	static struct rec r;
	struct uirq_input_dev *d = new_dev(true);
	unsigned long flags;

	rec_init(&r);
	assert_eq(uirq_input_register_handle(d, &r.h), 0);
	flags = uirq_local_irq_save();
	uirq_hardirq_enter();
	uirq_input_report_key(d, KEY_POWER, 1);
	uirq_input_sync(d);
	uirq_hardirq_exit();
	uirq_local_irq_restore(flags);
	uirq_input_report_key(d, KEY_POWER, 0);
	uirq_input_sync(d);
	assert_eq(r.frames, 2);
	assert_true(r.hardirq[0]);
	assert_true(r.irqs_off[0]);
	assert_false(r.hardirq[1]);
	assert_true(r.irqs_off[1], "under the event lock, taken irqsave");
	uirq_input_unregister_handle(&r.h);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* Once unregister_handle() returns, no events() call runs or starts, while another thread reports. */
static struct uirq_input_dev *race_dev;
static int stop;
static int inside;

static void slow_events(struct uirq_input_handle *h, const struct uirq_input_value *vals,
			unsigned int count, const struct timespec *time)
{
	__atomic_store_n(&inside, 1, __ATOMIC_SEQ_CST);
	rec_events(h, vals, count, time);
	for (int i = 0; i < 1000; i++)
		__asm__ volatile("" ::: "memory");
	__atomic_store_n(&inside, 0, __ATOMIC_SEQ_CST);
}

static void *reporter(void *arg)
{
	(void)arg;
	for (int i = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
		unsigned long f = uirq_local_irq_save();

		uirq_hardirq_enter();
		uirq_input_report_key(race_dev, KEY_POWER, i & 1);
		uirq_input_sync(race_dev);
		uirq_hardirq_exit();
		uirq_local_irq_restore(f);
	}
	return NULL;
}

UIRQ_TEST(input_handle, unregister_waits_for_events, .timeout = 30, .init = io_reports_start)
{
	static struct rec r;
	pthread_t t;

	race_dev = new_dev(true);
	for (int round = 0; round < 20; round++) {
		int seen;

		rec_init(&r);
		r.h.events = slow_events;
		assert_eq(uirq_input_register_handle(race_dev, &r.h), 0);
		__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
		assert_eq(pthread_create(&t, NULL, reporter, NULL), 0);
		while (__atomic_load_n(&r.frames, __ATOMIC_ACQUIRE) < 10)
			sched_yield();
		uirq_input_unregister_handle(&r.h);
		assert_eq(__atomic_load_n(&inside, __ATOMIC_SEQ_CST), 0, "events() still running");
		seen = __atomic_load_n(&r.frames, __ATOMIC_ACQUIRE);
		for (int i = 0; i < 100; i++)
			sched_yield();
		assert_eq(__atomic_load_n(&r.frames, __ATOMIC_ACQUIRE), seen, "events() after unregister");
		__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
		assert_eq(pthread_join(t, NULL), 0);
		/* Every frame whole: a press or release, then SYN_REPORT. */
		for (int f = 0; f < seen && f < MAX_FRAMES; f++)
			assert_eq(r.count[f], 2);
	}
	uirq_input_unregister_device(race_dev);
	assert_eq(opens, closes);
	assert_no_reports();
}
