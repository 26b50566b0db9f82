/* SPDX-License-Identifier: MIT */
/*
 * Schedule files (--replay, --schedule-out), the outcome line the
 * exploration and the shrinker read from their children (--result-fd), and
 * --shrink (shrink.c).  The format is in schedule.c and irqsim(1).
 */
#ifndef IRQSIM_SCHEDULE_H
#define IRQSIM_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "irqsim.h"

struct irqsim_schedule {
	struct uirq_sim_preemption *p;
	size_t n, cap;
	bool has_end;			/* an end line: followed strictly, and checked at the end */
	uint64_t decisions, hash;
	bool has_verdict;
	int status;			/* the recorded run's exit status and failure kinds */
	char kinds[160];
};

/* Read FILE: 0, or -1 with "FILE:LINE: what was expected" in err. */
int schedule_read(const char *path, struct irqsim_schedule *s, char *err, size_t len);
void schedule_free(struct irqsim_schedule *s);
/* Write n preemptions without an end line (a schedule followed loosely): 0 or -errno. */
int schedule_write_loose(const char *path, const struct uirq_sim_preemption *p, size_t n);

/*
 * What failed, as words joined by ',' ("lost", "duplicated", "wrong",
 * "watchdog", a lockdep report kind, "deadlock", ...); "none" for a clean
 * run.  Two runs fail alike when their words are equal.
 */
void irqsim_outcome(const struct irqsim_run *r, int status, char *buf, size_t len);

/*
 * After a seeded run, before its exit: a --replay run's end check (a
 * mismatch is said and the status becomes 2), then --schedule-out and
 * --result-fd.  Returns the exit status.
 */
int schedule_finish(const struct irqsim_run *r, int status);
/*
 * run.c's failure handler calls it first (a deadlock, a stall, a schedule
 * mismatch): a mismatch ends the process with status 2; otherwise the
 * schedule and outcome are written as for any failing run, and a --replay
 * run ends here with its own failure line.  Returns for a seeded run.
 */
void irqsim_sim_failed(const struct irqsim_run *r, const char *report);

/* --shrink SEED (shrink.c): the exit status. */
int shrink_run(const struct irqsim_opts *o);

#endif
