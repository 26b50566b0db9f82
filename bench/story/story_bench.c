// SPDX-License-Identifier: MIT
/*
 * story_bench: press -> KEY_POWER at an input client, on the default board
 * with the mainline TWL4030 drivers, at each bus speed asked for.  Each
 * press's modelled bus time (the i2c trace's wire time of the transfers
 * between the edge and the event) is subtracted to give the overhead.
 *
 * The baseline, in the same run, is the same path written by hand with no
 * uirq in it: an eventfd "line" woken CPU thread that futex-wakes a handler
 * thread, which sleeps the same three wire times and wakes a client.  It is
 * the floor this host's thread wake-ups and timers set; uirq's own cost is
 * what it adds above that floor.
 *
 *   story_bench [-n PRESSES] [-s HZ]...   (default: 300 presses, 400000 and 2600000)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/input-event-codes.h>

#include "uirq/board.h"
#include "uirq/i2c.h"
#include "uirq/input.h"
#include "uirq/irq.h"
#include "uirq/twl4030-drivers.h"
#include "uirq/twl4030.h"

#define HOLD_NS		2000000ull
#define GAP_NS		2000000ull
#define WARMUP		10

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u), .tv_nsec = (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

struct figures {
	double median_us, p99_us;
};

static struct figures figures(uint64_t *v, size_t n)
{
	size_t rank = (n * 99 + 99) / 100;

	qsort(v, n, sizeof(*v), cmp_u64);
	return (struct figures){ .median_us = (n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) / 1000.0,
				 .p99_us = (double)v[(rank ? rank : 1) - 1] / 1000.0 };
}

/* ---- uirq: the real story ---- */

static atomic_uint_fast64_t wire_acc;

static void on_xfer(const struct uirq_i2c_trace *t, void *arg)
{
	(void)arg;
	atomic_fetch_add(&wire_acc, t->wire_ns);
}

/* Presses on the default board; lat[i] = edge -> client read, wire[i] = modelled bus time in it. */
static int run_uirq(unsigned long hz, size_t n, uint64_t *lat, uint64_t *wire)
{
	struct uirq_board_config bc = { .bus_hz = hz };
	struct uirq_board *b;
	struct twl4030_irq *ti;
	struct twl4030_pwrbutton *pwr;
	struct uirq_input_client *cl;
	struct uirq_input_event ev[8];
	int err;

	if ((err = uirq_cpus_start(NULL)) || (err = uirq_board_create(&bc, &b)))
		return err;
	err = twl4030_irq_probe(uirq_board_i2c(b), uirq_board_twl_irq(b), &ti);
	if (!err)
		err = twl4030_pwrbutton_probe(uirq_board_i2c(b), twl4030_irq_base(ti) + TWL4030_PWR_IRQ_PWRON, false, &pwr);
	if (err)
		return err;
	uirq_input_open(twl4030_pwrbutton_input(pwr), &cl);
	if (!cl)
		return -errno;
	uirq_i2c_set_trace(uirq_board_i2c(b), on_xfer, NULL);
	for (size_t i = 0; i < n + WARMUP; i++) {
		uint64_t t0, rx;
		int got = 0;

		atomic_store(&wire_acc, 0);
		t0 = now_ns();
		twl4030_set_pwron(uirq_board_twl(b), true);
		/* Blocking read: the client sleeps until the frame is there, as evtest does. */
		while (got <= 0)
			got = uirq_input_read(cl, ev, 8, 0);
		rx = now_ns();
		if (i >= WARMUP) {
			lat[i - WARMUP] = rx - t0;
			wire[i - WARMUP] = atomic_load(&wire_acc);
		}
		sleep_until(t0 + HOLD_NS);
		twl4030_set_pwron(uirq_board_twl(b), false);
		got = 0;
		while (got <= 0)
			got = uirq_input_read(cl, ev, 8, 0);
		sleep_until(now_ns() + GAP_NS);
	}
	uirq_i2c_set_trace(uirq_board_i2c(b), NULL, NULL);
	uirq_input_close(cl);
	twl4030_pwrbutton_remove(pwr);
	twl4030_irq_remove(ti);
	uirq_board_destroy(b);
	uirq_cpus_stop();
	return 0;
}

/* ---- the baseline: the same path, by hand ---- */

struct base {
	int line_fd, client_fd, ep;
	atomic_uint handler_word;
	atomic_bool stop;
	uint64_t wire_each_ns;
};

static void futex_wait(atomic_uint *w, unsigned int v)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* The "CPU": waits for the line's fd, as uirq's CPUs do, and wakes the handler thread. */
static void *base_cpu(void *arg)
{
	struct base *bs = arg;
	struct epoll_event e;
	uint64_t v;

	while (!atomic_load(&bs->stop)) {
		if (epoll_wait(bs->ep, &e, 1, 100) != 1)
			continue;
		if (read(bs->line_fd, &v, sizeof(v)) != sizeof(v))
			continue;
		atomic_store(&bs->handler_word, 1);
		futex_wake(&bs->handler_word);
	}
	return NULL;
}

/* The handler thread: three bus reads' worth of sleeping, then the event to the client. */
static void *base_handler(void *arg)
{
	struct base *bs = arg;
	struct sched_param sp = { .sched_priority = 50 };
	uint64_t one = 1;

	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	for (;;) {
		while (!atomic_exchange(&bs->handler_word, 0)) {
			if (atomic_load(&bs->stop))
				return NULL;
			futex_wait(&bs->handler_word, 0);
		}
		if (atomic_load(&bs->stop))
			return NULL;
		for (int k = 0; k < 3; k++)
			sleep_until(now_ns() + bs->wire_each_ns);
		if (write(bs->client_fd, &one, sizeof(one)) != sizeof(one))
			return NULL;
	}
}

static int run_baseline(unsigned long hz, size_t n, uint64_t *lat, uint64_t *wire)
{
	uint8_t reg = 0, val;
	struct uirq_i2c_msg read_byte[2] = {
		{ .addr = 0x4b, .flags = 0, .len = 1, .buf = &reg },
		{ .addr = 0x4b, .flags = UIRQ_I2C_M_RD, .len = 1, .buf = &val },
	};
	struct base bs = { .wire_each_ns = uirq_i2c_wire_ns(read_byte, 2, hz) };
	struct epoll_event e = { .events = EPOLLIN };
	pthread_t cpu, handler;
	uint64_t one = 1, v;

	bs.line_fd = eventfd(0, EFD_NONBLOCK);
	bs.client_fd = eventfd(0, 0);
	bs.ep = epoll_create1(0);
	if (bs.line_fd < 0 || bs.client_fd < 0 || bs.ep < 0 || epoll_ctl(bs.ep, EPOLL_CTL_ADD, bs.line_fd, &e))
		return -errno;
	pthread_create(&cpu, NULL, base_cpu, &bs);
	pthread_create(&handler, NULL, base_handler, &bs);
	for (size_t i = 0; i < n + WARMUP; i++) {
		uint64_t t0 = now_ns();

		if (write(bs.line_fd, &one, sizeof(one)) != sizeof(one) ||
		    read(bs.client_fd, &v, sizeof(v)) != sizeof(v))
			return -EIO;
		if (i >= WARMUP) {
			lat[i - WARMUP] = now_ns() - t0;
			wire[i - WARMUP] = 3 * bs.wire_each_ns;
		}
		sleep_until(t0 + HOLD_NS + GAP_NS);
	}
	atomic_store(&bs.stop, true);
	atomic_store(&bs.handler_word, 1);
	futex_wake(&bs.handler_word);
	pthread_join(handler, NULL);
	pthread_join(cpu, NULL);
	close(bs.line_fd);
	close(bs.client_fd);
	close(bs.ep);
	return 0;
}

static void report(const char *what, unsigned long hz, uint64_t *lat, uint64_t *wire, size_t n,
		   struct figures *raw, struct figures *over)
{
	uint64_t *o = malloc(n * sizeof(*o));

	for (size_t i = 0; i < n; i++)
		o[i] = lat[i] > wire[i] ? lat[i] - wire[i] : 0;
	*raw = figures(lat, n);
	*over = figures(o, n);
	printf("%5.1f MHz  %-9s %9.1f %9.1f   %9.1f %9.1f\n", (double)hz / 1e6, what, raw->median_us, raw->p99_us,
	       over->median_us, over->p99_us);
	free(o);
}

int main(int argc, char **argv)
{
	unsigned long speeds[8] = { 400000, 2600000 };
	size_t nspeeds = 0, n = 300;
	bool pass_raw = true, pass_own = true;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 10);
		else if (opt == 's' && nspeeds < 8)
			speeds[nspeeds++] = strtoul(optarg, NULL, 10);
		else
			return fprintf(stderr, "usage: story_bench [-n PRESSES] [-s HZ]...\n"), 2;
	}
	if (!nspeeds)
		nspeeds = 2;
	if (n < 10 || n > 100000)
		return fprintf(stderr, "story_bench: -n wants 10..100000\n"), 2;
	/* As a SCHED_FIFO thread's: the wire-time sleeps of every thread created from here end on time. */
	prctl(PR_SET_TIMERSLACK, 1ul, 0, 0, 0);

	uint64_t *lat = calloc(n, sizeof(*lat)), *wire = calloc(n, sizeof(*wire));

	printf("story_bench: press -> KEY_POWER at an input client, %zu presses per leg (hold %llu ms, gap %llu ms)\n",
	       n, HOLD_NS / 1000000, GAP_NS / 1000000);
	printf("%-20s %-19s %s\n", "", "latency (us)", "minus modelled bus time (us)");
	printf("%-9s  %-9s %9s %9s   %9s %9s\n", "bus", "path", "median", "p99", "median", "p99");
	for (size_t s = 0; s < nspeeds; s++) {
		struct figures raw, over, braw, bover;
		int err = run_uirq(speeds[s], n, lat, wire);

		if (err) {
			fprintf(stderr, "story_bench: uirq leg at %lu Hz failed: %s\n", speeds[s], strerror(-err));
			return 1;
		}
		report("uirq", speeds[s], lat, wire, n, &raw, &over);
		err = run_baseline(speeds[s], n, lat, wire);
		if (err) {
			fprintf(stderr, "story_bench: baseline at %lu Hz failed: %s\n", speeds[s], strerror(-err));
			return 1;
		}
		report("baseline", speeds[s], lat, wire, n, &braw, &bover);
		double own = over.median_us - bover.median_us;

		printf("%5.1f MHz  overhead median %.1f us (target <= 20 us: %s); uirq above the baseline: "
		       "median %+.1f us, p99 %+.1f us (<= 20 us: %s)\n",
		       (double)speeds[s] / 1e6, over.median_us, over.median_us <= 20.0 ? "PASS" : "MISS", own,
		       over.p99_us - bover.p99_us, own <= 20.0 ? "PASS" : "MISS");
		pass_raw &= over.median_us <= 20.0;
		pass_own &= own <= 20.0;
	}
	printf("story_bench: %s (overhead minus modelled bus, median <= 20 us); %s (uirq's own overhead above the "
	       "hand-written baseline, median <= 20 us)\n", pass_raw ? "PASS" : "MISS", pass_own ? "PASS" : "MISS");
	free(lat);
	free(wire);
	return 0;
}
