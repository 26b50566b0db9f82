// SPDX-License-Identifier: MIT
/* Spurious detection (note_interrupt), threads_handled accounting, the /proc views. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "uirq/printk.h"
#include "testchip.h"
#include "uirq/context.h"

static int dev_a, dev_b;
static atomic_int calls, handled_every;

static uirq_irqreturn_t mostly_none(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	int n = atomic_fetch_add(&calls, 1);
	int every = atomic_load(&handled_every);

	return every && n % every == every - 1 ? UIRQ_IRQ_HANDLED : UIRQ_IRQ_NONE;
}

/* Deliver n interrupts of irq from this thread, as a demultiplexer would, in hard-irq context. */
static void storm(unsigned int irq, int n)
{
	uirq_local_irq_disable();
	uirq_hardirq_enter();
	for (int i = 0; i < n; i++)
		uirq_generic_handle_irq(irq);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
}

UIRQ_TEST(core_spurious, nobody_cared_disables_after_100000, .timeout = 60)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(0);
	char want[96];

	assert_eq(uirq_request_irq(irq, mostly_none, 0, "stuck", &dev_a), 0);
	storm(irq, 99999);
	assert_true(uirq_irq_is_enabled(irq), "not before 100,000");
	tc_capture_begin();
	storm(irq, 1);
	const char *out = tc_capture_end();

	snprintf(want, sizeof(want), "irq %u: nobody cared (try booting with the \"irqpoll\" option)", irq);
	assert_true(strstr(out, want), "%s", out);
	assert_true(strstr(out, "handlers:\n[<"), "%s", out);
	snprintf(want, sizeof(want), "Disabling IRQ #%u", irq);
	assert_true(strstr(out, want), "%s", out);
	assert_false(uirq_irq_is_enabled(irq));
	assert_eq(uirq_irq_get_depth(irq), 1u);
	/* The disabled line runs no handler any more. */
	storm(irq, 10);
	assert_eq(atomic_load(&calls), 100000);
	uirq_free_irq(irq, &dev_a);
	/* A new request gives it another chance. */
	assert_eq(uirq_request_irq(irq, mostly_none, 0, "stuck", &dev_a), 0);
	assert_true(uirq_irq_is_enabled(irq));
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static char sunk[4096];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	strncat(sunk, msg, sizeof(sunk) - strlen(sunk) - 1);
}

/* The core's own messages reach the sink a program installs, like every other message. */
UIRQ_TEST(core_spurious, nobody_cared_reaches_the_log_sink, .timeout = 60)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(0);
	char want[96];

	assert_eq(uirq_request_irq(irq, mostly_none, 0, "stuck", &dev_a), 0);
	sunk[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	tc_capture_begin();
	storm(irq, 100000);
	const char *out = tc_capture_end();

	uirq_log_set_sink(NULL, NULL);
	snprintf(want, sizeof(want), "irq %u: nobody cared", irq);
	assert_true(strstr(sunk, want), "not in the sink: \"%s\"", sunk);
	assert_null(strstr(out, want), "on stderr as well: %s", out);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_spurious, threshold_is_more_than_99900, .timeout = 60)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(1);

	/* Exactly 99,900 unhandled of 100,000: kept. */
	atomic_store(&handled_every, 1000);
	assert_eq(uirq_request_irq(irq, mostly_none, 0, "ok", &dev_a), 0);
	storm(irq, 100000);
	assert_true(uirq_irq_is_enabled(irq));
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static atomic_int thread_runs, thread_result;
static atomic_int wake_calls;
static uirq_irqreturn_t wake(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&wake_calls, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t thread_says(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&thread_runs, 1);
	return (uirq_irqreturn_t)atomic_load(&thread_result);
}

static unsigned int unhandled_of(unsigned int irq)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned int count = 0, unhandled = 0, last = 0;

	assert_eq(uirq_show_spurious(f, irq), 0);
	fclose(f);
	assert_eq(sscanf(buf, "count %u\nunhandled %u\nlast_unhandled %u ms", &count, &unhandled, &last), 3,
		     "%s", buf);
	free(buf);
	return unhandled;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Returns through *max_gap_ms the longest pause between two interrupts: past 100 ms the kernel's rule restarts the unhandled count. */
static void threaded_accounting(uirq_irqreturn_t result, unsigned int *unhandled, long long *max_gap_ms)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(2);
	long long last = 0;

	*max_gap_ms = 0;
	atomic_store(&thread_result, result);
	assert_eq(uirq_request_threaded_irq(irq, wake, thread_says, UIRQF_ONESHOT, "thr", &dev_a), 0);
	for (int i = 1; i <= 300; i++) {
		long long t = now_ms();

		if (i > 1 && t - last > *max_gap_ms)
			*max_gap_ms = t - last;
		last = t;
		storm(irq, 1);
		assert_true(tc_wait_atomic_ge(&thread_runs, i, 2000));
		uirq_synchronize_irq(irq);
	}
	*unhandled = unhandled_of(irq);
	assert_eq(atomic_load(&wake_calls), 300);
	assert_eq(atomic_load(&thread_runs), 300);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_spurious, threads_handled_counts_as_handled, .timeout = 60)
{
	unsigned int unhandled;
	long long gap;

	threaded_accounting(UIRQ_IRQ_HANDLED, &unhandled, &gap);
	assert_eq(unhandled, 0u, "unhandled %u", unhandled);
}

UIRQ_TEST(core_spurious, threads_unhandled_counts_as_unhandled, .timeout = 60)
{
	unsigned int unhandled;
	long long gap;

	threaded_accounting(UIRQ_IRQ_NONE, &unhandled, &gap);
	/* The first interrupt defers its verdict; every later one finds no progress. */
	if (gap < 90)
		assert_eq(unhandled, 299u);
	else	/* a slow host (sanitizers, load) paused long enough to restart the count */
		assert_true(unhandled >= 1 && unhandled <= 299u, "unhandled %u after a %lld ms gap", unhandled, gap);
}

static atomic_int poll_calls;
static uirq_irqreturn_t never(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&poll_calls, 1);
	return UIRQ_IRQ_NONE;
}

UIRQ_TEST(core_spurious, shared_spurious_line_is_polled, .timeout = 60)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(3);

	assert_eq(uirq_request_irq(irq, never, UIRQF_SHARED, "p1", &dev_a), 0);
	tc_capture_begin();
	storm(irq, 100000);
	tc_capture_end();
	assert_false(uirq_irq_is_enabled(irq));
	int before = atomic_load(&poll_calls);

	assert_true(tc_wait_atomic_ge(&poll_calls, before + 2, 2000), "polled every 100 ms");
	/* A new sharer re-enables it. */
	assert_eq(uirq_request_irq(irq, never, UIRQF_SHARED, "p2", &dev_b), 0);
	assert_true(uirq_irq_is_enabled(irq));
	uirq_free_irq(irq, &dev_b);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static uirq_irqreturn_t ok(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&calls, 1);
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_spurious, proc_interrupts_layout, .timeout = 20)
{
	tc_setup(2, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(5), irq2 = tc_irq(6);
	char *buf = NULL, want[160];
	size_t len = 0;

	assert_eq(uirq_request_irq(irq, ok, UIRQF_SHARED | UIRQF_TRIGGER_HIGH, "eth0", &dev_a), 0);
	assert_eq(uirq_request_irq(irq, ok, UIRQF_SHARED | UIRQF_TRIGGER_HIGH, "ehci_hcd:usb1", &dev_b), 0);
	assert_eq(uirq_request_irq(irq2, ok, UIRQF_TRIGGER_RISING, "kbd", &dev_a), 0);
	assert_eq(uirq_irq_set_affinity(irq2, 0x2), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&calls, 2, 2000));
	for (int i = 0; i < 3; i++) {
		tc_edge(irq2);
		assert_true(tc_wait_atomic_ge(&calls, 3 + i, 2000));
	}
	FILE *f = open_memstream(&buf, &len);

	uirq_show_interrupts(f);
	fclose(f);
	fputs(buf, stderr);
	assert_eq(strncmp(buf, "           CPU0       CPU1       \n", 34), 0, "%s", buf);
	snprintf(want, sizeof(want), "%3u:          1          0  TESTCHIP   5 Level     eth0, ehci_hcd:usb1\n", irq);
	assert_true(strstr(buf, want), "want [%s] in\n%s", want, buf);
	snprintf(want, sizeof(want), "%3u:          0          3  TESTCHIP   6 Edge      kbd\n", irq2);
	assert_true(strstr(buf, want), "want [%s] in\n%s", want, buf);
	free(buf);
	assert_eq(uirq_show_spurious(stderr, 60000), -EINVAL);
	assert_gt(uirq_irq_line_footprint(), 0u);
	assert_le(uirq_irq_line_footprint(), 256u, "memory per line");
	uirq_free_irq(irq, &dev_a);
	uirq_free_irq(irq, &dev_b);
	uirq_free_irq(irq2, &dev_a);
	tc_teardown();
}
