/* SPDX-License-Identifier: MIT */
/*
 * The deterministic mode's library-internal side (the API is uirq/sim.h):
 * the emulated futex the uirq_futex_*() calls route to for tasks, the
 * decision trace, and the current task.  Hidden.
 */
#ifndef UIRQ_LIB_SIM_H
#define UIRQ_LIB_SIM_H

#include "uirq/sim.h"

#pragma GCC visibility push(hidden)

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
	UIRQ_SIM_R_PREEMPT,	/* a preemption point: a line raised */
	UIRQ_SIM_R_ACCESS,	/* a shared-memory access of instrumented code that changed the running task */
};

struct uirq_sim_step {
	uint64_t step;
	uint32_t task;		/* the task given the token */
	uint32_t reason;	/* enum uirq_sim_reason */
};

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

const struct uirq_sim_step *uirq_sim_trace(void);

/* The mode runs (uirq_sim_running(), as a variable for the hot paths that check it). */
extern bool uirq_sim_on;
/*
 * A thread that is not a task did what only a task may do while the mode
 * runs (raise a line, what names it, n its number): the scheduler cannot
 * order it, so the run would not replay.  Says so, naming the thread, and
 * aborts.
 */
__attribute__((noreturn)) void uirq_sim_foreign(const char *what, unsigned int n);
/*
 * A back end the scheduler cannot order (a real device's fd, a kernel
 * interface another process writes): -EOPNOTSUPP, said on the log, while
 * the mode runs; 0 otherwise.
 */
int uirq_sim_refuse(const char *what);
/*
 * A preemption point (raising a line, writing a line's fd): any runnable
 * task may run next, the caller included, priorities untouched - unlike
 * uirq_sim_yield(), a spin loop's, which lets the others run first.
 */
void uirq_sim_preempt(void);
/*
 * The calling task ends only when the object that made it is destroyed (a
 * timerfd line's timer): once task 0 is in uirq_sim_stop() nothing is left
 * to end it, so its timer no longer keeps the run going and the stop
 * reports it instead of moving virtual time on forever.
 */
void uirq_sim_set_owned(void);
/* How long the token may stay with one task before the stall watcher reports it (default 10 s wall). */
void uirq_sim_set_stall_ms(uint64_t ms);

/*
 * The current task (NULL outside the mode), read by uirq_futex_*() on every
 * call: initial-exec so the read is one %fs-relative load, not a
 * __tls_get_addr() call.
 */
struct uirq_sim_task;
extern __thread struct uirq_sim_task *uirq_sim_current
	__attribute__((tls_model("initial-exec")));

/*
 * A task's handle (uirq_sim_thread_create()'s pthread_t) is no thread: its
 * number, odd, which no pthread_t (an aligned pointer) is.  pthread calls
 * on another thread (naming, priority, affinity) must skip it.
 */
static inline bool uirq_sim_is_task_thread(pthread_t t)
{
	return (uintptr_t)t & 1;
}

/* The calling task's own stack (false for task 0 and outside the mode: the thread's). */
bool uirq_sim_task_stack(void **lo, size_t *size);

#pragma GCC visibility pop

#endif
