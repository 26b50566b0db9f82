// SPDX-License-Identifier: MIT
/*
 * The log behind <linux/printk.h>: a message is formatted whole and handed
 * to the sink under a lock, so lines from handler threads never interleave
 * and a sink being replaced is not called after uirq_log_set_sink()
 * returns.  The lock is a plain pthread mutex, not a lockdep-annotated
 * one: logging is legal in every context, hard-irq included, and must not
 * become part of the locking the validator judges.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "uirq/printk.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static uirq_log_sink_t log_sink;
static void *log_sink_arg;

int uirq_log_printk(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&log_lock);
	if (log_sink) {
		log_sink(buf, log_sink_arg);
	} else {
		fputs(buf, stderr);
		fflush(stderr);
	}
	pthread_mutex_unlock(&log_lock);
	return n;
}

void uirq_log_set_sink(uirq_log_sink_t fn, void *arg)
{
	pthread_mutex_lock(&log_lock);
	log_sink = fn;
	log_sink_arg = arg;
	pthread_mutex_unlock(&log_lock);
}
