/* SPDX-License-Identifier: MIT */
/*
 * Schedules (uirq/sim.h): the canonical choice every decision is measured
 * against, the preemptions a run records, and UIRQ_SIM_REPLAY's choice from
 * a schedule (replay.c).  Called by sched.c's decision only.
 */
#ifndef UIRQ_SIM_REPLAY_H
#define UIRQ_SIM_REPLAY_H

#include "internal.h"

#pragma GCC visibility push(hidden)

/* The canonical choice for me among cand[0..n) (live order, which is id order); skip is me when it yields. */
struct uirq_sim_task *uirq_sim_canonical(struct uirq_sim_task *me, struct uirq_sim_task *skip,
					 struct uirq_sim_task **cand, size_t n);
/* UIRQ_SIM_REPLAY's choice at this decision (step uirq_sim.tlen): the schedule's, else canon. */
struct uirq_sim_task *uirq_sim_replay_pick(struct uirq_sim_task *me, struct uirq_sim_task *canon,
					   struct uirq_sim_task **cand, size_t n);
/* Before the decision: me's stack, when stacks are recorded. */
void uirq_sim_where(struct uirq_sim_task *me);
/* After the decision (any strategy): a preemption when next is not canon. */
void uirq_sim_record(struct uirq_sim_task *me, struct uirq_sim_task *canon, struct uirq_sim_task *next);
/* The preemptions are recorded (uirq_sim_set_record()): the canonical choice is computed only then, and when replaying. */
extern bool uirq_sim_recording;
/* At the start: nothing recorded, the schedule from its first preemption. */
void uirq_sim_replay_reset(void);

#pragma GCC visibility pop

#endif
