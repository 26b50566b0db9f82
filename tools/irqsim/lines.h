/* SPDX-License-Identifier: MIT */
/*
 * Extra devices on free INTC lines, for the storm and shared verbs: a
 * device that never claims its interrupts (a storm nobody handles), and the
 * seed cover letter's pair on one shared level line - one device served by
 * a primary-only handler, one by a threaded handler whose primary silences
 * it at the device.
 */
#ifndef IRQSIM_LINES_H
#define IRQSIM_LINES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "irqsim.h"
#include "scenario.h"
#include "uirq/sources.h"
#include "uirq/spinlock.h"

/* The threaded device's service time: what its "slow bus" costs each time. */
#define SHARED_SLOW_BUS_NS	20000u

struct shared_line;

struct shared_dev {
	struct shared_line *line;
	atomic_ulong pending;		/* events raised, not yet served */
	atomic_ulong raised, served;
	atomic_bool enabled;		/* the device's own interrupt enable (threaded one) */
};

struct shared_line {
	uirq_spinlock_t level_lock;	/* recompute-and-drive of the level is one step (uirq's: a --seed run schedules it) */
	struct uirq_swirq *intc;
	unsigned int hwirq;
	struct shared_dev dev[2];	/* 0: primary only, 1: threaded */
};

struct line_slot {
	bool used, storm;
	unsigned int irq;
	unsigned long edges;
	atomic_ulong storm_calls;	/* the storm handler's invocations */
	struct shared_line *shared;
};

struct lines {
	struct uirq_swirq *intc;
	struct irqsim_run *r;
	struct line_slot slot[SC_INTC_LINES];
};

void lines_init(struct lines *l, struct uirq_swirq *intc, struct irqsim_run *r);
/* Run a storm action (requests the storm handler on first use). */
void lines_storm(struct lines *l, const struct sc_action *a);
/* Run a shared action (requests both dummies on first use). */
void lines_shared(struct lines *l, const struct sc_action *a);
/* Every shared device served (settle waits for it). */
bool lines_quiet(struct lines *l);
/* Append a struct sim_line_result per used line to out. */
void lines_snapshot(struct lines *l, struct vec *out);
/* Free the handlers (before the board goes). */
void lines_free(struct lines *l);

#endif
