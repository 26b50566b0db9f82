/* SPDX-License-Identifier: MIT */
/*
 * Deterministic mode (foundation of issue 15): registered tasks - real
 * pthreads - run one at a time under one scheduler, control changes hands
 * only at the synchronisation points below, time is virtual, and the next
 * task is chosen by a PRNG seeded by the caller, so one seed replays one
 * interleaving bit for bit.  Hidden: not the library's API (yet).
 *
 * One mode per process.  Threads that are not tasks are not scheduled and
 * must not share futex words with tasks while the mode runs (the emulated
 * futex table is not the kernel's).
 */
#ifndef UIRQ_LIB_SIM_H
#define UIRQ_LIB_SIM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

enum uirq_sim_strategy {
	UIRQ_SIM_RANDOM,	/* uniform among the runnable tasks */
	UIRQ_SIM_PCT,		/* PCT with depth d (Burckhardt et al., ASPLOS 2010) */
};

enum uirq_sim_status {
	UIRQ_SIM_OK,
	UIRQ_SIM_DEADLOCK,	/* every task blocked and no timer pending */
};

/* Why a scheduling decision was taken (a trace entry's reason). */
enum uirq_sim_reason {
	UIRQ_SIM_R_START,	/* the mode began (task 0) */
	UIRQ_SIM_R_SPAWN,	/* a task was created */
	UIRQ_SIM_R_EXIT,	/* a task ended */
	UIRQ_SIM_R_YIELD,
	UIRQ_SIM_R_WAIT,	/* a futex wait parked its caller */
	UIRQ_SIM_R_WAKE,	/* a futex wake */
	UIRQ_SIM_R_SLEEP,
	UIRQ_SIM_R_JOIN,	/* a join or the stop waits for tasks to end */
};

struct uirq_sim_step {
	uint64_t step;
	uint32_t task;		/* the task given the token */
	uint32_t reason;	/* enum uirq_sim_reason */
};

/*
 * Begin the mode on the calling thread, which becomes task 0 ("main").
 * pct_depth is PCT's d (bugs of depth d are found with probability at least
 * 1/(n k^(d-1))); ignored by UIRQ_SIM_RANDOM.  0, or -EBUSY when the mode
 * already runs.
 */
int uirq_sim_start(uint64_t seed, enum uirq_sim_strategy strategy, unsigned int pct_depth);
/* PCT's horizon k: change points are drawn among steps 1..k (default 1000); call before start. */
void uirq_sim_set_pct_horizon(uint64_t steps);

/*
 * From task 0: wait (scheduled) until every other task has ended, join them,
 * and end the mode.  On a deadlock the tasks still blocked are ended where
 * they wait (pthread_exit(): their cleanup does not run) and joined;
 * uirq_sim_report() then describes what each waited on.  The trace, its hash
 * and the virtual clock stay readable until the next start.
 */
enum uirq_sim_status uirq_sim_stop(void);

/* pthread_create() of a task: registered (id, name) before it runs; name may be NULL. */
int uirq_sim_thread_create(pthread_t *thread, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg, const char *name);
/* pthread_join() of a task, waiting under the scheduler; tasks not joined are joined by the stop. */
int uirq_sim_thread_join(pthread_t thread, void **ret);

/*
 * The emulated futex.  Wait parks its caller if *addr == val (else -EAGAIN)
 * until a wake (0), the timeout in virtual ns (-ETIMEDOUT) or a deadlock
 * (-EDEADLK, task 0 only).  Wake makes up to nr waiters on addr runnable in
 * the order they parked and returns how many.  From a thread that is not a
 * task they are the plain system calls.
 */
int uirq_sim_futex_wait(void *addr, unsigned int val);
int uirq_sim_futex_wait_timeout(void *addr, unsigned int val, uint64_t ns);
int uirq_sim_futex_wake(void *addr, int nr);

void uirq_sim_yield(void);
/* Sleep in virtual time: costs no wall time. */
void uirq_sim_sleep_ns(uint64_t ns);
/* The virtual clock, in ns since the start. */
uint64_t uirq_sim_now_ns(void);

/* Is the calling thread a task of the mode, and its id (-1 if not). */
int uirq_sim_task_id(void);

/* FNV-1a (64-bit) over every decision (step, task, reason) since the start. */
uint64_t uirq_sim_trace_hash(void);
size_t uirq_sim_trace_len(void);
const struct uirq_sim_step *uirq_sim_trace(void);
/* The deadlock's description (one line per task: id, name, state, what it waits on), or "". */
const char *uirq_sim_report(void);

/*
 * The current task (NULL outside the mode), read by uirq_futex_*() on every
 * call: initial-exec so the read is one %fs-relative load, not a
 * __tls_get_addr() call.
 */
struct uirq_sim_task;
extern __thread struct uirq_sim_task *uirq_sim_current
	__attribute__((tls_model("initial-exec")));

#pragma GCC visibility pop

#endif
