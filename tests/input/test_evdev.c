// SPDX-License-Identifier: MIT
/*
 * evdev clients: blocking, non-blocking and polled reads, whole frames only,
 * overflow into SYN_DROPPED, several clients, the device going away under a
 * blocked reader, and timestamps on the client's clock.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "io_reports.h"
#include "sim_runs.h"
#include "uirq/input.h"

static struct uirq_input_dev *dev;
static struct uirq_input_client *cl;

static void setup(void)
{
	io_reports_start();
	assert_eq(uirq_input_allocate_device(&dev), 0);
	assert_not_null(dev);
	dev->name = "twl4030_pwrbutton";
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

static bool readable(const struct uirq_input_client *c)
{
	struct pollfd p = { .fd = uirq_input_client_fd(c), .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void press(int v)
{
	uirq_input_report_key(dev, KEY_POWER, v);
	uirq_input_sync(dev);
}

UIRQ_TEST(evdev, nonblocking_read_is_eagain, DEV_OPTS)
{
	struct uirq_input_event ev[4];

	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), -EAGAIN);
	uirq_input_report_key(dev, KEY_POWER, 1);
	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), -EAGAIN, "half a frame");
	uirq_input_sync(dev);
	assert_eq(uirq_input_read(cl, ev, 1, UIRQ_INPUT_NONBLOCK), 1, "max is honoured");
	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), 1);
	assert_eq(ev[0].code, SYN_REPORT);
	assert_eq(uirq_input_read(cl, ev, 0, UIRQ_INPUT_NONBLOCK), -EINVAL);
	assert_eq(uirq_input_read(cl, NULL, 1, UIRQ_INPUT_NONBLOCK), -EINVAL);
	assert_eq(uirq_input_read(NULL, ev, 1, UIRQ_INPUT_NONBLOCK), -EINVAL);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(evdev, poll_fd_readable_iff_frames, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	assert_ge(uirq_input_client_fd(cl), 0);
	assert_false(readable(cl));
	uirq_input_report_key(dev, KEY_POWER, 1);
	assert_false(readable(cl), "no whole frame yet");
	uirq_input_sync(dev);
	assert_true(readable(cl));
	press(0);
	assert_eq(uirq_input_read(cl, ev, 3, UIRQ_INPUT_NONBLOCK), 3);
	assert_true(readable(cl), "one event of the second frame left");
	assert_eq(uirq_input_read(cl, ev, 8, UIRQ_INPUT_NONBLOCK), 1);
	assert_false(readable(cl));
	teardown();
	assert_no_reports();
}

static struct {
	int ret;
	struct uirq_input_event ev[8];
	int done;
} blocked;

static void *blocking_reader(void *arg)
{
	(void)arg;
	blocked.ret = uirq_input_read(cl, blocked.ev, 8, 0);
	__atomic_store_n(&blocked.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The blocked-reader tests run in the deterministic mode (tests/sim_runs.h),
 * the reader a task: after a virtual sleep it has run as far as it can, so
 * "it has not returned" is exact, not 20 ms of hoping it got to block.
 */
static void sim_setup(unsigned int cpus)
{
	(void)cpus;	/* no CPUs: the reader and the test are the only tasks */
	memset(&blocked, 0, sizeof(blocked));
	setup();
}

SIM_TEST(evdev, blocking_read_wakes_on_sync, sim_setup, NULL, .timeout = 20)
{
	pthread_t t;

	assert_eq(uirq_sim_thread_create(&t, NULL, blocking_reader, NULL, "reader"), 0);
	uirq_sim_sleep_ns(20 * SIM_MS);
	assert_false(__atomic_load_n(&blocked.done, __ATOMIC_ACQUIRE), "returned with nothing to read");
	uirq_input_report_key(dev, KEY_POWER, 1);
	uirq_sim_sleep_ns(20 * SIM_MS);
	assert_false(__atomic_load_n(&blocked.done, __ATOMIC_ACQUIRE), "woke before the SYN_REPORT");
	uirq_input_sync(dev);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	assert_eq(blocked.ret, 2);
	assert_eq(blocked.ev[0].code, KEY_POWER);
	assert_eq(blocked.ev[1].code, SYN_REPORT);
	teardown();
	assert_no_reports();
}

SIM_TEST(evdev, unregister_wakes_blocked_reader, sim_setup, NULL, .timeout = 20)
{
	pthread_t t;
	struct uirq_input_event ev[4];

	assert_eq(uirq_sim_thread_create(&t, NULL, blocking_reader, NULL, "reader"), 0);
	uirq_sim_sleep_ns(20 * SIM_MS);
	assert_false(__atomic_load_n(&blocked.done, __ATOMIC_ACQUIRE), "returned with nothing to read");
	uirq_input_unregister_device(dev);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	assert_eq(blocked.ret, -ENODEV);
	assert_true(readable(cl), "a gone device polls readable, so pollers find out");
	assert_eq(uirq_input_read(cl, ev, 4, 0), -ENODEV, "and never blocks again");
	uirq_input_close(cl);	/* the last reference: the device is freed here */
	assert_no_reports();
}

UIRQ_TEST(evdev, buffered_events_are_lost_when_device_goes, DEV_OPTS)
{
	struct uirq_input_event ev[4];

	press(1);
	uirq_input_unregister_device(dev);
	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), -ENODEV, "as evdev");
	uirq_input_close(cl);
	assert_no_reports();
}

UIRQ_TEST(evdev, overflow_queues_syn_dropped, DEV_OPTS)
{
	struct uirq_input_event ev[UIRQ_INPUT_CLIENT_BUFSIZE];
	int n;

	/* 40 frames of 2 events: 80 > the ring's 63. */
	for (int i = 1; i <= 40; i++)
		press(i & 1);
	assert_eq(uirq_input_client_overflows(cl), 1);
	n = uirq_input_read(cl, ev, UIRQ_INPUT_CLIENT_BUFSIZE, UIRQ_INPUT_NONBLOCK);
	assert_gt(n, 0);
	assert_eq(ev[0].type, EV_SYN);
	assert_eq(ev[0].code, SYN_DROPPED, "the first thing read is SYN_DROPPED");
	/* What follows ends on a frame boundary and holds only newer frames. */
	assert_eq(ev[n - 1].code, SYN_REPORT);
	assert_lt(n, 2 * 40);
	assert_eq(ev[n - 2].code, KEY_POWER);
	assert_eq(ev[n - 2].value, 0, "the newest frame, the 40th: a release");
	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), -EAGAIN);
	/* Normal service after the drop. */
	press(1);
	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), 2);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(evdev, overflow_mid_frame_shows_after_the_frame, DEV_OPTS)
{
	struct uirq_input_event ev[UIRQ_INPUT_CLIENT_BUFSIZE];

	for (int i = 1; i <= 31; i++)
		press(i & 1);	/* 62 events: one short of full */
	assert_eq(uirq_input_client_overflows(cl), 0);
	uirq_input_report_key(dev, KEY_POWER, 0);	/* key was down (31 is odd): a release */
	uirq_input_report_key(dev, KEY_POWER, 1);	/* frame of 3, in the core until sync */
	assert_eq(uirq_input_read(cl, ev, 2, UIRQ_INPUT_NONBLOCK), 2, "old frames still readable");
	uirq_input_sync(dev);
	assert_eq(uirq_input_client_overflows(cl), 0, "60 + 3 fits");
	teardown();
	assert_no_reports();
}

UIRQ_TEST(evdev, two_clients_each_get_every_event, DEV_OPTS)
{
	struct uirq_input_client *c2;
	struct uirq_input_event a[8], b[8];

	assert_eq(uirq_input_open(dev, &c2), 0);
	assert_not_null(c2);
	press(1);
	press(0);
	assert_eq(uirq_input_read(cl, a, 8, UIRQ_INPUT_NONBLOCK), 4);
	assert_eq(uirq_input_read(c2, b, 8, UIRQ_INPUT_NONBLOCK), 4);
	assert_eq(memcmp(a, b, sizeof(a[0]) * 4), 0, "same events, same times");
	uirq_input_close(c2);
	press(1);
	assert_eq(uirq_input_read(cl, a, 8, UIRQ_INPUT_NONBLOCK), 2, "a closed client takes nothing");
	teardown();
	assert_no_reports();
}

static int64_t tv_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}

static int64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

UIRQ_TEST(evdev, timestamps_are_monotonic_and_shared_per_frame, DEV_OPTS)
{
	struct uirq_input_event ev[2];
	int64_t before, after, prev = 0;

	for (int i = 1; i <= 20; i++) {
		before = clock_ns(CLOCK_MONOTONIC);
		press(i & 1);
		after = clock_ns(CLOCK_MONOTONIC);
		assert_eq(uirq_input_read(cl, ev, 2, UIRQ_INPUT_NONBLOCK), 2);
		/* The time is microseconds: compare at that resolution. */
		assert_ge(tv_ns(&ev[0].time), before / 1000 * 1000);
		assert_le(tv_ns(&ev[0].time), after);
		assert_eq(tv_ns(&ev[0].time), tv_ns(&ev[1].time), "one time per frame");
		assert_ge(tv_ns(&ev[0].time), prev, "never backwards");
		prev = tv_ns(&ev[0].time);
	}
	teardown();
	assert_no_reports();
}

UIRQ_TEST(evdev, realtime_clock_is_selectable, DEV_OPTS)
{
	struct uirq_input_event ev[4];
	int64_t before, after;

	assert_eq(uirq_input_client_set_clock(cl, CLOCK_PROCESS_CPUTIME_ID), -EINVAL);
	assert_eq(uirq_input_client_set_clock(cl, CLOCK_REALTIME), 0);
	before = clock_ns(CLOCK_REALTIME);
	press(1);
	after = clock_ns(CLOCK_REALTIME);
	assert_eq(uirq_input_read(cl, ev, 4, UIRQ_INPUT_NONBLOCK), 2);
	assert_ge(tv_ns(&ev[0].time), before / 1000 * 1000);
	assert_le(tv_ns(&ev[0].time), after);
	assert_eq(uirq_input_client_set_clock(cl, CLOCK_BOOTTIME), 0);
	assert_eq(uirq_input_client_set_clock(cl, CLOCK_MONOTONIC), 0);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(evdev, clock_change_drops_buffered_events, DEV_OPTS)
{
	struct uirq_input_event ev[8];

	press(1);
	assert_eq(uirq_input_client_set_clock(cl, CLOCK_REALTIME), 0);
	assert_eq(uirq_input_read(cl, ev, 8, UIRQ_INPUT_NONBLOCK), -EAGAIN,
		     "SYN_DROPPED waits for the next frame");
	assert_false(readable(cl));
	press(0);
	assert_eq(uirq_input_read(cl, ev, 8, UIRQ_INPUT_NONBLOCK), 3);
	assert_eq(ev[0].code, SYN_DROPPED);
	assert_eq(ev[1].code, KEY_POWER);
	assert_eq(ev[1].value, 0);
	assert_eq(uirq_input_client_set_clock(cl, CLOCK_REALTIME), 0, "no change, nothing dropped");
	teardown();
	assert_no_reports();
}
