/* SPDX-License-Identifier: MIT */
/*
 * A local interrupt controller for the core's tests: counters for every
 * chip callback, a sleeping bus lock (a uirq mutex, like an i2c-attached
 * controller) that records whether it was ever taken in interrupt context,
 * level inputs that re-raise on unmask, and helpers shared by the tests
 * (lockdep report counting, stderr capture, waiting).
 */
#ifndef UIRQ_TESTS_CORE_TESTCHIP_H
#define UIRQ_TESTS_CORE_TESTCHIP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/mutex.h"

#define TC_LINES 16

struct tc_line {
	atomic_int masked;
	atomic_int asserted;	/* level input driven high */
	atomic_int mask, unmask, ack, eoi, set_type, startup, shutdown, retrigger;
	atomic_uint type;
};

struct tchip {
	struct uirq_irq_chip chip;
	struct uirq_irq_domain *domain;
	uirq_mutex_t bus;
	atomic_int bus_lock, bus_unlock, bus_in_irq;
	bool retrigger;		/* irq_retrigger raises the line again */
	struct tc_line line[TC_LINES];
};

extern struct tchip tc;
extern atomic_int lockdep_reports;

/* Start n CPUs (pinned: CPU i on core i mod cores, else unpinned) and make tc with the given flow. */
void tc_setup(unsigned int ncpus, bool pinned, bool threadirqs, uirq_irq_flow_handler_t flow);
/* Count lockdep reports in lockdep_reports (tc_setup does it too). */
void tc_count_reports(void);
/* Free every line's actions (the test did), remove the domain, stop the CPUs; no lockdep report. */
void tc_teardown(void);
/* The irq of input hw. */
unsigned int tc_irq(unsigned int hw);
struct tc_line *tc_line_of(unsigned int irq);
/* Drive a level input; asserted and unmasked raises the line. */
void tc_set_level(unsigned int irq, bool high);
/* An edge: raise the line. */
void tc_edge(unsigned int irq);
/*
 * Wait until cond(): in the deterministic mode for ms of virtual time, on
 * real threads as long as it takes (Check's timeout bounds a hang); cond's
 * last value.
 */
bool tc_wait(bool (*cond)(void *), void *arg, int ms);
bool tc_wait_atomic_ge(atomic_int *v, int val, int ms);
/* Sleep: virtual time in the mode, real time elsewhere. */
void tc_msleep(int ms);

/* The thread's voluntary context switches so far (/proc): how often it went to sleep. */
long tc_voluntary_switches(pid_t tid);

/* Capture stderr into a buffer between begin and end (the returned text stays valid until next begin). */
void tc_capture_begin(void);
const char *tc_capture_end(void);

#endif
