/* SPDX-License-Identifier: MIT */
/*
 * For the programs that take edu's interrupt through a uirq line (the UIO
 * line, VFIO's INTx and MSI): the handler's record of what it saw, and the
 * disable/enable/free/request orders every such line must get through with
 * one raise delivered once.
 *
 * A driver whose threads outrank the kernel's workqueue makes those orders
 * deterministic: edu_fifo_on_one_cpu() puts the test's threads at
 * SCHED_FIFO on one CPU, so a signal the kernel sends from a work item (VFIO
 * re-triggers a still-pending INTx that way after an unmask) comes only once
 * every uirq thread has blocked, after whatever uirq had left to read: never
 * merged with an old signal into one delivery.
 *
 * Header-only, like vm-hw.h, for a program built with _GNU_SOURCE that defines edu_request()
 * and edu_free() (its handler, its flags) and calls edu_record() from the
 * handler that acknowledges the device.
 */
#ifndef UIRQ_TESTS_VM_EDU_LINE_H
#define UIRQ_TESTS_VM_EDU_LINE_H

#include "harness.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "uirq/irq.h"
#include "uirq/sources.h"

#include "vm-hw.h"

#define EDU_SEEN 8

static struct edu_line {
	volatile uint32_t *bar;
	struct uirq_fd_line *line;
	unsigned int irq;
	bool level;			/* INTx: a level the device holds; MSI: an edge */
	atomic_ulong runs;		/* handler runs that acknowledged */
	atomic_ulong quiet_runs;	/* handler runs that found no status bit: a double delivery */
	atomic_ulong told;		/* interrupts the line told the handler of (take_count) */
	_Atomic uint32_t seen[EDU_SEEN];	/* the status each run acknowledged */
} edu;

/* Request the handler the program tests (0 or -errno), and free it. */
static int edu_request(void);
static void edu_free(void);

/* From the handler: acknowledge what edu raised and record it; the status read. */
static inline uint32_t edu_record(void)
{
	uint32_t status = edu.bar[EDU_IRQ_STATUS / 4];

	atomic_fetch_add(&edu.told, (unsigned long)uirq_fd_line_take_count(edu.line));
	if (!status) {
		atomic_fetch_add(&edu.quiet_runs, 1);
		return 0;
	}
	edu.bar[EDU_IRQ_ACK / 4] = status;
	unsigned long n = atomic_fetch_add(&edu.runs, 1);

	if (n < EDU_SEEN)
		atomic_store(&edu.seen[n], status);
	return status;
}

/* Before the line's CPUs start (they inherit it): SCHED_FIFO 10, below the irq threads' 50, on one CPU. */
static inline void edu_fifo_on_one_cpu(void)
{
	struct sched_param sp = { .sched_priority = 10 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(sched_getcpu(), &set);
	assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
	assert_eq(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp), 0);
}

static inline void edu_wait_runs(unsigned long n)
{
	for (int i = 0; atomic_load(&edu.runs) < n; i++) {
		assert_lt(i, 200000, "the handler ran %lu times, want %lu", atomic_load(&edu.runs), n);
		usleep(100);
	}
}

/* The line masked: the flow took the raise and held it back (disabled, or no handler). */
static inline void edu_wait_held(void)
{
	struct uirq_fd_line_stats st = { 0 };

	for (int i = 0;; i++) {
		assert_eq(uirq_fd_line_get_stats(edu.line, &st), 0);
		if (st.masked)
			break;
		assert_lt(i, 200000, "the raise never reached the line");
		usleep(100);
	}
}

/*
 * Expect n runs, the last acknowledging status last: the handler saw it,
 * and after a settling pause (the kernel's work items run in it: the test's
 * threads all block) nothing more came and no run found the device quiet.
 * The number of interrupts the line told the handler of, for the caller.
 */
static inline unsigned long edu_settle_runs(unsigned long n, uint32_t last)
{
	edu_wait_runs(n);
	usleep(50000);
	unsigned long quiet = atomic_load(&edu.quiet_runs), runs = atomic_load(&edu.runs);
	uint32_t seen = atomic_load(&edu.seen[n - 1]);

	assert_eq(quiet, 0ul, "a run found the device quiet: one interrupt delivered twice");
	assert_eq(runs, n);
	assert_eq(seen, last);
	assert_eq(edu.bar[EDU_IRQ_STATUS / 4], 0u);
	return atomic_load(&edu.told);
}

/* n runs, the last acknowledging last, and the line told of exactly n interrupts. */
static inline void edu_expect_runs(unsigned long n, uint32_t last)
{
	unsigned long told = edu_settle_runs(n, last);

	assert_eq(told, n, "the line told the handler of more interrupts than were raised");
}

/* disable_irq holds a raise back (INTx stays asserted, MSI pending); enable_irq delivers it once. */
static inline void edu_disable_raise_enable(void)
{
	uirq_disable_irq(edu.irq);
	edu.bar[EDU_IRQ_RAISE / 4] = 16;
	edu_wait_held();
	usleep(20000);
	assert_eq(atomic_load(&edu.runs) + atomic_load(&edu.quiet_runs), 0ul, "ran while disabled");
	uirq_enable_irq(edu.irq);
	edu_expect_runs(1, 16);
	/* The line works on: the next raise is the next run. */
	edu.bar[EDU_IRQ_RAISE / 4] = 32;
	edu_expect_runs(2, 32);
}

/*
 * Two raises while disabled, the second after the flow took the first: one
 * run acknowledges both.  INTx stays asserted through the second (VFIO and
 * the kernel hold it masked): one interrupt.  An MSI is sent per raise:
 * one read when the disabled flow took it, one waiting in the eventfd;
 * the resend and the re-armed watch must not each run the thread.
 */
static inline void edu_disable_raise_twice_enable(void)
{
	uirq_disable_irq(edu.irq);
	edu.bar[EDU_IRQ_RAISE / 4] = 1;
	edu_wait_held();
	edu.bar[EDU_IRQ_RAISE / 4] = 2;
	usleep(20000);
	assert_eq(atomic_load(&edu.runs) + atomic_load(&edu.quiet_runs), 0ul, "ran while disabled");
	uirq_enable_irq(edu.irq);
	unsigned long told = edu_settle_runs(1, 3);

	if (edu.level)
		assert_eq(told, 1ul, "one level interrupt");
	else
		assert_true(told == 1 || told == 2, "told of %lu MSIs for two raises (merged in the controller: 1)", told);
}

/* Disabled twice, enabled twice: held until the depth is back at 0, then delivered once. */
static inline void edu_nested_disable(void)
{
	uirq_disable_irq(edu.irq);
	uirq_disable_irq(edu.irq);
	edu.bar[EDU_IRQ_RAISE / 4] = 2;
	edu_wait_held();
	uirq_enable_irq(edu.irq);
	usleep(20000);
	assert_eq(atomic_load(&edu.runs) + atomic_load(&edu.quiet_runs), 0ul, "ran at depth 1");
	uirq_enable_irq(edu.irq);
	edu_expect_runs(1, 2);
}

/* Raised while disabled, then freed and requested again: the request delivers it once. */
static inline void edu_disable_raise_free_request(void)
{
	uirq_disable_irq(edu.irq);
	edu.bar[EDU_IRQ_RAISE / 4] = 4;
	edu_wait_held();
	edu_free();
	usleep(20000);
	assert_eq(atomic_load(&edu.runs) + atomic_load(&edu.quiet_runs), 0ul, "ran while disabled");
	assert_eq(edu_request(), 0);
	edu_expect_runs(1, 4);
}

/* Raised with no handler: the next request delivers it once. */
static inline void edu_free_raise_request(void)
{
	edu_free();
	edu.bar[EDU_IRQ_RAISE / 4] = 8;
	usleep(20000);
	assert_eq(atomic_load(&edu.runs) + atomic_load(&edu.quiet_runs), 0ul, "ran without a handler");
	assert_eq(edu_request(), 0);
	edu_expect_runs(1, 8);
}

/*
 * A level acknowledged while the line was disabled is no longer asserted:
 * enable_irq delivers nothing (a kernel resends no level interrupt).  An
 * edge (MSI) stays pending and is resent, its handler finding nothing:
 * only level lines call this.
 */
static inline void edu_level_gone_while_disabled(void)
{
	uirq_disable_irq(edu.irq);
	edu.bar[EDU_IRQ_RAISE / 4] = 64;
	edu_wait_held();
	edu.bar[EDU_IRQ_ACK / 4] = 64;
	uirq_enable_irq(edu.irq);
	/* The next raise is the first run, and nothing ran before it. */
	edu.bar[EDU_IRQ_RAISE / 4] = 128;
	edu_expect_runs(1, 128);
}

#endif
