/* SPDX-License-Identifier: MIT */
/* What the deterministic scheduler's files share (sched.c: tasks and decisions; futex.c: waits, wakes, time; stall.c: the stall watcher). */
#ifndef UIRQ_LIB_SIM_INTERNAL_H
#define UIRQ_LIB_SIM_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#if !defined(__x86_64__) || defined(UIRQ_SIM_FORCE_UCONTEXT)
#define UIRQ_SIM_UCONTEXT 1	/* no switch of our own for this architecture: swapcontext() */
#include <ucontext.h>
#endif

#include "../lib/lib.h"
#include "sim.h"

#pragma GCC visibility push(hidden)

#define NO_DEADLINE	UINT64_MAX
#define MAX_DEPTH	64

enum task_state { T_RUNNABLE, T_FUTEX, T_SLEEP, T_JOIN, T_EXITED };

/* A task's stack (coro.c): mapped with a guard page below, kept in a pool for reuse. */
struct uirq_sim_stack {
	void *map;			/* the mapping, guard page included */
	size_t len;
	char *lo;			/* the usable part: lo .. lo + size */
	size_t size;
	unsigned int vg_id;		/* Valgrind's stack id */
	struct uirq_sim_stack *next;	/* in the pool */
};

struct uirq_sim_task {
	unsigned int id;
	atomic_int tid;			/* the kernel's (its thread's), for the stall report */
	char name[32];
	char comm[16];			/* the name its thread would have (uirq_task_comm()) */
	enum task_state state;
	void *addr;			/* futex word, or joined task (NULL: all) */
	uint64_t deadline;
	int wait_result;
	struct uirq_sim_task *qnext;	/* the futex queue, in parking order */
	uint64_t prio;			/* PCT */
	pthread_t thread;		/* its handle (uirq_sim_task_handle()); task 0: its thread */
	void *(*fn)(void *);
	void *arg;
	void *ret;			/* what fn returned, for the join */
	bool joined;
	bool daemon;			/* its timer keeps no run going (uirq_sim_set_daemon) */
	bool owned;			/* ends only when its owner ends it (uirq_sim_set_owned) */
	bool spun;			/* PCT: yielded in a spin loop since the last decision another task took */
	/* The coroutine (coro.c). */
	void *sp;			/* its saved stack pointer while it does not run */
	struct uirq_sim_stack *stack;	/* NULL: task 0, on its thread's own stack */
	unsigned char *locals;		/* its task-local variables while it does not run */
	void *san_fake;			/* ASan's fake stack, across a switch */
	const void *san_lo;		/* task 0: its stack as ASan knows it */
	size_t san_size;
	void *tsan_fiber;		/* TSan's context for it */
#ifdef UIRQ_SIM_UCONTEXT
	ucontext_t uc;
#endif
};

struct uirq_sim_state {
	bool running, deadlocked;
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
	/* Every task's name, kept past the stop (uirq_sim_task_name()). */
	char (*names)[32];
	size_t nnames;
	/* A task that ended and switched away: its stack and locals, freed by the task that resumes. */
	struct uirq_sim_task *dead;
};

/* The mode's state: only the task holding the token touches it. */
extern struct uirq_sim_state uirq_sim;
/*
 * Read by the stall watcher, which is no task and outlives the runs: apart
 * from the state (its memset at each start), atomics.  The decisions taken
 * and the task given the token last.
 */
extern _Atomic uint64_t uirq_sim_progress;
extern _Atomic(struct uirq_sim_task *) uirq_sim_holder;

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

/*
 * The coroutines (coro.c).  Every task runs on the thread that started the
 * mode; a switch saves the leaving task's registers and task-local
 * variables and resumes the next where it switched away.
 */
/* At the start: task 0 is the thread itself; the task-local layout, the alternate signal stack. */
void uirq_sim_coro_start(struct uirq_sim_task *t0);
/* At the stop, from task 0: the thread's alternate signal stack as it was. */
void uirq_sim_coro_stop(void);
/* A new task's stack, locals and context: 0, or an errno (EAGAIN: no memory for a stack). */
int uirq_sim_coro_create(struct uirq_sim_task *t);
/* A task that does not run (ended, or dropped by a deadlocked stop): its stack and locals go. */
void uirq_sim_coro_release(struct uirq_sim_task *t);
/* me (running, or ended: T_EXITED) gives the thread to next; returns when me is resumed. */
void uirq_sim_switch(struct uirq_sim_task *me, struct uirq_sim_task *next);
/* The task-local variables' exit hooks, at a task's end (its values in place). */
void uirq_sim_locals_exit(void);
/* What a new task runs on its stack (sched.c): fn, then the exit; never returns. */
__attribute__((noreturn)) void uirq_sim_task_main(struct uirq_sim_task *me);

#pragma GCC visibility pop

#endif
