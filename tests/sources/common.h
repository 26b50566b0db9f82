/* SPDX-License-Identifier: MIT */
/* What every sources test shares: CPUs up, lockdep on with a counting report handler. */
#ifndef UIRQ_TESTS_SOURCES_COMMON_H
#define UIRQ_TESTS_SOURCES_COMMON_H

#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/sources.h"

static atomic_int lockdep_reports;

/* Runs with lockdep's graph lock held: count and print, take no uirq lock. */
static inline void count_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	atomic_fetch_add(&lockdep_reports, 1);
	fprintf(stderr, "lockdep report: %s\n%s\n", r->headline, r->text);
}

static inline void start_cpus(unsigned int n)
{
	struct uirq_cpu_config cfg = { .nr_cpus = n };	/* zero-initialised: nothing pinned */

	uirq_lockdep_set_report_handler(count_report, NULL);
	assert_true(uirq_lockdep_enabled() || !UIRQ_CONFIG_LOCKDEP, "lockdep must be on");
	int ret = uirq_cpus_start(&cfg);

	assert_eq(ret, 0, "uirq_cpus_start: %d", ret);
}

static inline void setup1(void) { start_cpus(1); }
static inline void setup2(void) { start_cpus(2); }

/* Every line is freed by the test; the CPUs stop, and lockdep had nothing to say. */
static inline void teardown(void)
{
	uirq_cpus_stop();
	assert_eq(atomic_load(&lockdep_reports), 0, "lockdep reported %d problem(s)",
		     atomic_load(&lockdep_reports));
}

/* A bounded look for "nothing more" on real threads: a slow host only makes it look less long. */
#define SETTLE_MS 30

/*
 * Wait for cond however long it takes: for a test on real threads waiting
 * for what the flow does (a count its handler bumps).  It has no deadline
 * of its own - Check's per-test timeout bounds a hang - so a loaded machine
 * makes it slower, never a failure.
 */
#define WAIT_FOR(cond)								\
	do {									\
		while (!(cond))							\
			usleep(100);						\
	} while (0)

#endif
