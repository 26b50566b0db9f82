/* SPDX-License-Identifier: MIT */
/* What the deterministic scheduler's files share (sched.c: tasks and decisions; futex.c: waits, wakes, time; stall.c: the stall watcher). */
#ifndef UIRQ_LIB_SIM_INTERNAL_H
#define UIRQ_LIB_SIM_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "../lib/lib.h"
#include "sim.h"

#pragma GCC visibility push(hidden)

#define NO_DEADLINE	UINT64_MAX
#define MAX_DEPTH	64

enum task_state { T_RUNNABLE, T_FUTEX, T_SLEEP, T_JOIN, T_EXITED };

struct uirq_sim_task {
	unsigned int id;
	atomic_int tid;			/* the kernel's, for the stall report */
	char name[32];
	atomic_uint go;			/* 1: the token was given to this task */
	enum task_state state;
	void *addr;			/* futex word, or joined task (NULL: all) */
	uint64_t deadline;
	int wait_result;
	struct uirq_sim_task *qnext;	/* the futex queue, in parking order */
	uint64_t prio;			/* PCT */
	pthread_t thread;
	void *(*fn)(void *);
	void *arg;
	bool joined;
	bool daemon;			/* its timer keeps no run going (uirq_sim_set_daemon) */
	bool owned;			/* ends only when its owner ends it (uirq_sim_set_owned) */
	bool spun;			/* PCT: yielded in a spin loop since the last decision another task took */
};

struct uirq_sim_state {
	bool running, deadlocked, aborting;
	bool stopping;			/* task 0 is in uirq_sim_stop() */
	unsigned int nspun;		/* tasks set aside after a spin loop's yield */
	enum uirq_sim_strategy strategy;
	uint64_t rng, now, steps, low_prio;
	uint64_t change[MAX_DEPTH];
	unsigned int nchange;
	struct uirq_sim_task **tasks, **cand;
	size_t ntasks, cap, alive;
	/*
	 * The tasks not yet reaped (exited and joined, or exited detached), in
	 * creation order: what every decision scans, so a run that makes
	 * thousands of short-lived threads does not pay for the dead ones.
	 */
	struct uirq_sim_task **live;
	size_t nlive;
	struct uirq_sim_task *qhead;
	struct uirq_sim_step *trace;
	size_t tlen, tcap;
	uint64_t hash;
	char report[8192];
	/* Read by the stall watcher, which is no task: atomics. */
	_Atomic uint64_t progress;		/* decisions taken */
	_Atomic(struct uirq_sim_task *) holder;	/* the task given the token last */
	/* Every task's name, kept past the stop (uirq_sim_task_name()). */
	char (*names)[32];
	size_t nnames;
};

/* The mode's state: only the task holding the token touches it. */
extern struct uirq_sim_state uirq_sim;

/* A synchronisation point: the caller, its state set, gives the token to the next task and waits for it back. */
void uirq_sim_schedule(struct uirq_sim_task *me, enum uirq_sim_reason r);
/* The run cannot go on (a deadlock, a stall): the failure handler, else the report on stderr and abort(). */
void uirq_sim_fail(const char *report);
/* The stall watcher (stall.c), from the start to the stop. */
void uirq_sim_watch_start(void);
void uirq_sim_watch_stop(void);

/* lib's seam (lib.h) set to the scheduler's calls: uirq_sched on every task's thread. */
extern const struct uirq_sched_ops uirq_sim_ops;

/* Out of the futex queue or timer, runnable; its wait returns result. */
void uirq_sim_make_runnable(struct uirq_sim_task *t, int result);

#pragma GCC visibility pop

#endif
