// SPDX-License-Identifier: MIT
/*
 * The log: every message of every layer - the kernel-compat printk and
 * pr_*() of the drivers, the core's warnings and reports, the misuse
 * warnings of context, i2c, input and the sources, the deterministic mode's
 * messages - is handed whole to one sink, the program's
 * (uirq_log_set_sink()) or stderr.  It lives in lib, the bottom layer, so
 * that every layer can write to it without calling upward.
 *
 * A message goes to the sink under a lock, so lines from handler threads
 * never interleave and a sink being replaced is not called after
 * uirq_log_set_sink() returns.  The lock is a flag spun on, not a mutex:
 * logging is legal in every context, hard-irq included, must not become
 * part of the locking the validator judges, and must not be a pthread call
 * the lockdep preload library (which has this file too) interposes.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "lib.h"
#include "uirq/printk.h"

static atomic_flag log_busy = ATOMIC_FLAG_INIT;
static uirq_log_sink_t log_sink;
static void *log_sink_arg;

/*
 * uirq_backoff(), not sched_yield(): in the deterministic mode every task
 * shares one thread, and a task that spun there while the holder was
 * switched out (a sink that waits on uirq's primitives) would spin for
 * ever; the back-off is the scheduler's yield there.
 */
static void log_lock(void)
{
	unsigned int round = 0;

	while (atomic_flag_test_and_set_explicit(&log_busy, memory_order_acquire))
		uirq_backoff(&round);
}

static void log_unlock(void)
{
	atomic_flag_clear_explicit(&log_busy, memory_order_release);
}

void uirq_log_write(const char *msg)
{
	log_lock();
	if (log_sink) {
		log_sink(msg, log_sink_arg);
	} else {
		fputs(msg, stderr);
		fflush(stderr);
	}
	log_unlock();
}

int uirq_log_vprintk(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	uirq_log_write(buf);
	return n;
}

int uirq_log_printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = uirq_log_vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void uirq_log_set_sink(uirq_log_sink_t fn, void *arg)
{
	log_lock();
	log_sink = fn;
	log_sink_arg = arg;
	log_unlock();
}
