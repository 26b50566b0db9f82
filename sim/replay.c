// SPDX-License-Identifier: MIT
/*
 * Schedules (uirq/sim.h): a run written as the decisions where it left the
 * canonical choice, and UIRQ_SIM_REPLAY, which makes the run again from
 * them.
 *
 * Why the preemptions and not every decision: a person reads a handful of
 * places where the run went another way than the plain one, not thousands
 * of steps, and a shrinker (irqsim --shrink) can drop one and keep the rest
 * meaningful: with every decision listed, dropping one would leave the
 * next thousands naming tasks of a run that no longer happens.  Why round
 * robin as the canonical choice: a task that can go on goes on (so a
 * preemption is what the word says when the task was runnable), and a
 * yield passes to the next task in id order, never back to a spinner that
 * just yielded, so a canonical run cannot starve a lock holder.
 *
 * A preemption is keyed by its step (its index in the decision trace).
 * Loosely followed, after a dropped preemption the later ones land on
 * whatever the run does at their steps; the run that results records its
 * own preemptions, which are always a subset of the schedule's (a skipped
 * one is not taken, a canonical step is none), and that record replays it
 * strictly.  Only the token holder calls these, as the rest of the state.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lib.h"
#include "replay.h"

static struct uirq_sim_preemption *sched_p;	/* the schedule to follow */
static size_t sched_n, sched_next, sched_applied;
static unsigned int sched_flags;
static bool sched_broken;			/* a strict mismatch: canonical from there on */

static struct uirq_sim_preemption *rec;		/* the run's own preemptions */
static size_t rec_n, rec_cap;

static bool stacks;
bool uirq_sim_recording;	/* uirq_sim_set_record(): off, a run pays no canonical choice nor record */
struct where {
	unsigned int n;
	void *f[UIRQ_SIM_FRAMES];
};
static struct where *where;			/* per task id: its stack at its last decision */
static size_t where_cap;

static void *grow(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		uirq_log_write("uirq sim: out of memory\n");
		abort();
	}
	return p;
}

int uirq_sim_set_schedule(const struct uirq_sim_preemption *p, size_t n, unsigned int flags)
{
	struct uirq_sim_preemption *copy = NULL;

	if (uirq_sim.running)
		return -EBUSY;
	if (flags & ~UIRQ_SIM_SCHEDULE_LOOSE)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (p[i].step < 1 || (i && p[i].step <= p[i - 1].step))
			return -EINVAL;
		if (!(flags & UIRQ_SIM_SCHEDULE_LOOSE) && p[i].chosen == p[i].canonical)
			return -EINVAL;
	}
	if (n && !(copy = malloc(n * sizeof(*copy))))
		return -ENOMEM;
	if (n)
		memcpy(copy, p, n * sizeof(*copy));
	free(sched_p);
	sched_p = copy;
	sched_n = n;
	sched_flags = flags;
	return 0;
}

size_t uirq_sim_schedule_applied(void)
{
	return sched_applied;
}

const struct uirq_sim_preemption *uirq_sim_preemptions(size_t *n)
{
	*n = rec_n;
	return rec;
}

void uirq_sim_set_record_stacks(bool on)
{
	stacks = on;
}

void uirq_sim_set_record(bool on)
{
	uirq_sim_recording = on;
}

void uirq_sim_replay_reset(void)
{
	sched_next = sched_applied = 0;
	sched_broken = false;
	rec_n = 0;
	for (size_t i = 0; i < where_cap; i++)
		where[i].n = 0;
}

struct uirq_sim_task *uirq_sim_canonical(struct uirq_sim_task *me, struct uirq_sim_task *skip,
					 struct uirq_sim_task **cand, size_t n)
{
	if (me->state == T_RUNNABLE && me != skip)
		return me;
	for (size_t i = 0; i < n; i++)
		if (cand[i]->id > me->id)
			return cand[i];
	return cand[0];
}

static const char *name(unsigned int id)
{
	const char *s = uirq_sim_task_name(id);

	return s ? s : "?";
}

/* Strict and the run is not the recorded one: say where, and go on canonically (if the handler returns). */
static void mismatch(const struct uirq_sim_preemption *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mismatch(const struct uirq_sim_preemption *e, const char *fmt, ...)
{
	char why[256], report[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(report, sizeof(report),
		 "uirq sim: schedule mismatch at step %llu: the schedule preempts task %u '%s' (canonical: task %u '%s') "
		 "with task %u '%s', but %s: this is not the run the schedule was recorded from\n",
		 (unsigned long long)e->step, e->task, name(e->task), e->canonical, name(e->canonical), e->chosen,
		 name(e->chosen), why);
	sched_broken = true;
	uirq_sim_fail(report);
}

struct uirq_sim_task *uirq_sim_replay_pick(struct uirq_sim_task *me, struct uirq_sim_task *canon,
					   struct uirq_sim_task **cand, size_t n)
{
	bool loose = sched_flags & UIRQ_SIM_SCHEDULE_LOOSE;
	uint64_t step = uirq_sim.steps;
	struct uirq_sim_task *t = NULL;
	const struct uirq_sim_preemption *e;

	if (sched_broken)
		return canon;
	/* A step with no choice (a deadlock's hand-back) passed a preemption by. */
	while (sched_next < sched_n && sched_p[sched_next].step < step) {
		if (!loose) {
			mismatch(&sched_p[sched_next], "the run made no choice at that step");
			return canon;
		}
		sched_next++;
	}
	if (sched_next == sched_n || sched_p[sched_next].step != step)
		return canon;
	e = &sched_p[sched_next++];
	for (size_t i = 0; i < n && !t; i++)
		if (cand[i]->id == e->chosen)
			t = cand[i];
	if (!loose) {
		if (e->task != me->id)
			mismatch(e, "task %u '%s' is at that point", me->id, me->name);
		else if (e->canonical != canon->id)
			mismatch(e, "the canonical choice there is task %u '%s'", canon->id, canon->name);
		else if (!t)
			mismatch(e, "task %u is not runnable there", e->chosen);
		if (sched_broken)
			return canon;
	}
	if (!t || t == canon)
		return canon;
	sched_applied++;
	return t;
}

void uirq_sim_where(struct uirq_sim_task *me)
{
	if (!stacks)
		return;
	if (me->id >= where_cap) {
		size_t cap = where_cap ? where_cap : 16;

		while (cap <= me->id)
			cap *= 2;
		where = grow(where, cap * sizeof(*where));
		memset(&where[where_cap], 0, (cap - where_cap) * sizeof(*where));
		where_cap = cap;
	}
	int got = backtrace(where[me->id].f, UIRQ_SIM_FRAMES);

	where[me->id].n = got > 0 ? (unsigned int)got : 0;
}

void uirq_sim_record(struct uirq_sim_task *me, struct uirq_sim_task *canon, struct uirq_sim_task *next)
{
	if (!uirq_sim_recording || next == canon)
		return;
	if (rec_n == rec_cap) {
		rec_cap = rec_cap ? 2 * rec_cap : 64;
		rec = grow(rec, rec_cap * sizeof(*rec));
	}
	struct uirq_sim_preemption *p = &rec[rec_n++];

	/* Field by field: the frames (256 bytes) only with stacks on, at every preemption of a storm. */
	p->nframes = p->chosen_nframes = 0;
	p->step = uirq_sim.steps;
	p->now_ns = uirq_sim.now;
	p->task = me->id;
	p->canonical = canon->id;
	p->chosen = next->id;
	p->blocked = me->state != T_RUNNABLE || canon != me;
	if (stacks && me->id < where_cap) {
		p->nframes = where[me->id].n;
		memcpy(p->frames, where[me->id].f, sizeof(p->frames));
	}
	if (stacks && next->id < where_cap && next != me) {
		p->chosen_nframes = where[next->id].n;
		memcpy(p->chosen_frames, where[next->id].f, sizeof(p->chosen_frames));
	}
}
