/* SPDX-License-Identifier: MIT */
/*
 * What the compat tests share: the CPUs started for each test, and the
 * layer's log (dev_err() and its kin) captured in logbuf, so a test can
 * check a message word for word as the kernel prints it.
 */
#ifndef UIRQ_TESTS_COMPAT_TEST_H
#define UIRQ_TESTS_COMPAT_TEST_H

#include <linux/interrupt.h>
#include <string.h>

#include "harness.h"
#include "uirq/printk.h"

static char logbuf[8192];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
}

static void setup(void)
{
	logbuf[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_cpus_start(NULL), 0);
}

static void teardown(void)
{
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
}

#endif
