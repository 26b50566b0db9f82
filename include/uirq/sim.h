/* SPDX-License-Identifier: MIT */
/*
 * uirq's deterministic mode: every uirq task - the CPUs, handler threads,
 * the hung-task watchdog, and the caller's threads made with
 * uirq_sim_thread_create() - runs one at a time under one scheduler.
 * Control changes hands only at synchronisation points uirq owns (futex
 * waits and wakes behind its mutexes and waits, contended spin loops,
 * sleeps, thread start, exit and join, raising a line), time is virtual,
 * and the next task is drawn from a PRNG seeded by the caller: one seed
 * replays one interleaving bit for bit.
 *
 * One mode per process, started and stopped by the same thread (task 0).
 * Threads that are not tasks are not scheduled: they must not raise lines
 * or take uirq locks shared with tasks while the mode runs.  Real back ends
 * (UIO, VFIO, GPIO, i2c-dev, uinput, eventfds the program adopted) are
 * refused with -EOPNOTSUPP; an eventfd line the program made itself runs,
 * its CPU polling the fd (raise it with uirq_eventfd_line_raise()), and a
 * timerfd line made by a task expires on the virtual clock (a task
 * "timerfd/N" adds its expirations to an eventfd: uirq_fd_line_fd() is that
 * eventfd there).
 */
#ifndef UIRQ_SIM_H
#define UIRQ_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum uirq_sim_strategy {
	UIRQ_SIM_RANDOM,	/* uniform among the runnable tasks */
	UIRQ_SIM_PCT,		/* probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010) */
	UIRQ_SIM_REPLAY,	/* the canonical choice, but where the schedule set by uirq_sim_set_schedule() says */
};

enum uirq_sim_status {
	UIRQ_SIM_OK,
	UIRQ_SIM_DEADLOCK,	/* every task blocked and no timer pending */
};

/*
 * Begin the mode on the calling thread, which becomes task 0 ("main").
 * pct_depth is PCT's d (bugs of depth d are found with probability at least
 * 1/(n k^(d-1)) for n tasks and k steps); ignored by UIRQ_SIM_RANDOM.
 * 0; -EBUSY when the mode already runs, or when uirq threads made outside
 * it still run (uirq_cpus_start() before this start: they could not be
 * scheduled, and nothing would be handled); -EINVAL for a strategy that is
 * none of the enum's or a PCT depth out of 1..64.
 *
 * The strategies' guarantees.  UIRQ_SIM_REPLAY makes the run a schedule
 * describes (uirq_sim_set_schedule(), below): the same decisions and trace
 * hash as the run it was recorded from, given the same program and inputs;
 * seed and depth are ignored.  UIRQ_SIM_RANDOM draws the next task
 * uniformly at each decision: every interleaving has a non-zero chance,
 * but one that needs d specific preemptions among k steps is found with a
 * chance that falls like (1/n)^d.  UIRQ_SIM_PCT gives the tasks random
 * distinct priorities and lowers the running task below all others at
 * d-1 random steps of the first k: a bug of depth d (d ordering
 * constraints) is found with probability at least 1/(n k^(d-1)) per run,
 * for n tasks (Burckhardt et al.).  A spin loop's yield sets the spinner
 * aside until another task takes a decision, without changing its
 * priority: a task that contended once on a lock can still preempt later.
 */
int uirq_sim_start(uint64_t seed, enum uirq_sim_strategy strategy, unsigned int pct_depth);
/* PCT's horizon k: change points are drawn among steps 1..k (default 1000); call before the start. */
void uirq_sim_set_pct_horizon(uint64_t steps);
/*
 * From task 0: wait (scheduled) until every other task has ended, join
 * them, and end the mode.  On a deadlock the tasks still blocked are ended
 * where they wait (their cleanup does not run) and uirq_sim_report()
 * describes what each waited on.  The hash, the step count and the clock
 * stay readable until the next start.
 */
enum uirq_sim_status uirq_sim_stop(void);
/* Between a start and its stop. */
bool uirq_sim_running(void);
/*
 * Called with a description when the run cannot go on: every task blocked
 * and no timer pending (a deadlock: on the task that finds it, before task
 * 0 is resumed with UIRQ_SIM_DEADLOCK at its stop), or a task holding the
 * thread for 10 s of wall time without a scheduling point - blocked in a
 * raw pthread call or a system call, or spinning (on a watcher thread;
 * the run is stuck, so the handler should end the process).  Without a
 * handler a deadlock is returned by the stop and a stall is reported on the
 * log (<uirq/printk.h>) and aborts.  Set before the start; NULL: none.
 */
void uirq_sim_set_failure_handler(void (*fn)(const char *report, void *arg), void *arg);

/*
 * pthread_create() of a task, named (NULL: "taskN"); from a thread that is
 * not a task, pthread_create().  pthread's convention, not uirq's: 0, or a
 * positive error number (EAGAIN: no memory, or the mode has deadlocked).
 */
int uirq_sim_thread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg,
			   const char *name);
/*
 * pthread_join() of a task, waiting under the scheduler; from a thread that
 * is not a task, pthread_join().  pthread's convention: 0, or a positive
 * error number (ESRCH: no such task or joined already, or a task joined from
 * a thread that is not one; EDEADLK: the mode deadlocked while it waited).
 */
int uirq_sim_thread_join(pthread_t thread, void **ret);

/*
 * A wait on a 32-bit word and its wake-up, the futex calls every uirq wait
 * is built on, for code outside the library that has to block (the kernel
 * compatibility layer's completions, wait queues and workers): a task
 * waits under the scheduler (a scheduling point; the timeout on the
 * virtual clock), any other thread on the kernel's futex.  The wait
 * returns 0 when woken (or at once if *word != val; it may also return
 * spuriously: re-check the condition), -ETIMEDOUT when timeout_ns passed;
 * UIRQ_SIM_WAIT_FOREVER waits without a timeout.  The wake wakes up to nr
 * waiters (INT_MAX: all).
 */
#define UIRQ_SIM_WAIT_FOREVER	UINT64_MAX
int uirq_sim_wait_word(uint32_t *word, uint32_t val, uint64_t timeout_ns);
void uirq_sim_wake_word(uint32_t *word, int nr);

/*
 * The calling task is a daemon: a periodic checker that wakes nobody (the
 * hung-task watchdog, a program's own heartbeat or statistics thread).  Its
 * timer alone does not keep the run going: when every other task is
 * blocked without a timer the run is a deadlock, where the daemon's next
 * wake-up would otherwise move virtual time on forever.  From a thread
 * that is not a task, nothing.
 */
void uirq_sim_set_daemon(void);

/*
 * A scheduling point at a shared-memory access, which code compiled for
 * the mode calls before each load, store and atomic (the access hooks of
 * libuirq-sim-access, see docs/design.md): under PCT one step (the caller
 * keeps running unless a change point falls on it), under random a choice
 * among the runnable tasks.  This is what lets the mode interleave two
 * tasks between a check and the act that depends on it.  From a thread
 * that is not a task, nothing.
 */
void uirq_sim_access_point(void);

/*
 * Task-local variables.  In the mode every task runs as a coroutine on the
 * thread that started it (task 0's): a context switch, not a thread
 * hand-off, so a __thread variable is one for all tasks unless registered
 * here.  A registered variable is saved from the thread into the task that
 * leaves and put back by the task that resumes, and a new task starts with
 * the value a new thread would see (its initialiser).  uirq registers its
 * own; a program registers those its tasks use with
 * UIRQ_SIM_TASK_LOCAL(var) at file scope after the definition (a
 * constructor registers it; registrations count from the next start).
 * live, if set, is how many bytes from the variable's start matter given
 * its value (a stack with a depth: only its used part is copied); exit,
 * if set, runs at the task's end with its value in place (a thread's key
 * destructor).  Outside the mode nothing changes: tasks are threads.
 */
struct uirq_sim_task_local {
	void *(*addr)(void);			/* the variable on the calling thread */
	size_t size;
	size_t (*live)(const void *value);	/* NULL: size */
	void (*exit)(void *var);		/* NULL: none */
	struct uirq_sim_task_local *next;	/* the registry's */
};
void uirq_sim_task_local(struct uirq_sim_task_local *tl);
#define UIRQ_SIM_TASK_LOCAL_EXT(var, live_fn, exit_fn)						\
	static void *uirq_sim_tl_addr_##var(void)						\
	{											\
		return (void *)&(var);								\
	}											\
	static struct uirq_sim_task_local uirq_sim_tl_##var = {					\
		uirq_sim_tl_addr_##var, sizeof(var), (live_fn), (exit_fn), NULL			\
	};											\
	__attribute__((constructor)) static void uirq_sim_tl_reg_##var(void)			\
	{											\
		uirq_sim_task_local(&uirq_sim_tl_##var);					\
	}
#define UIRQ_SIM_TASK_LOCAL(var) UIRQ_SIM_TASK_LOCAL_EXT(var, NULL, NULL)
/*
 * The stack each task gets in the mode (default 256 KiB, 1 MiB under
 * AddressSanitizer; a guard page below it), for the tasks created after
 * the call; 0 restores the default.
 */
void uirq_sim_set_stack_size(size_t bytes);

/* A scheduling point (from a thread that is not a task, sched_yield()). */
void uirq_sim_yield(void);
/* Sleep in virtual time: costs no wall time (from a thread that is not a task, nanosleep()). */
void uirq_sim_sleep_ns(uint64_t ns);
/* The virtual clock, in ns since the start; any thread may read it (a watchdog outside the run). */
uint64_t uirq_sim_now_ns(void);
/*
 * uirq's clock, which every uirq timing reads: for a task the virtual
 * clock, for any other thread CLOCK_MONOTONIC (ns); and a sleep until a
 * time on it.
 */
uint64_t uirq_sim_clock_ns(void);
void uirq_sim_sleep_until_ns(uint64_t t);

/* Returns the calling thread's task id, or -1 when it is not a task (no errno). */
int uirq_sim_task_id(void);
/* A task's name, or NULL when there is no such task in the mode (running or last run). */
const char *uirq_sim_task_name(unsigned int id);
/*
 * The task has not ended (false outside a run).  With the task's name
 * what stands for a look at /proc/self/task in the mode: its tasks are
 * coroutines on one thread, not threads of their own.
 */
bool uirq_sim_task_alive(unsigned int id);
/* FNV-1a (64-bit) over every scheduling decision since the start, and their count. */
uint64_t uirq_sim_trace_hash(void);
size_t uirq_sim_trace_len(void);
/*
 * Schedules: a run as the decisions where it left the canonical choice.
 *
 * The canonical choice is the non-preemptive round robin: the task that
 * reached the scheduling point goes on if it still can (it woke a task,
 * raised a line, made a thread), and otherwise - it blocked, slept, ended,
 * or spins in a yield - the first runnable task after it in id order, round
 * the end back to task 0, and only then itself.  Every decision any
 * strategy takes that differs from it is a preemption of the run, recorded
 * whatever the strategy when asked (uirq_sim_set_record(),
 * uirq_sim_preemptions()); the decisions that match
 * it are not.  The preemptions alone, given back to UIRQ_SIM_REPLAY, make
 * the same run: same decisions, same trace hash.
 */
#define UIRQ_SIM_FRAMES	16
struct uirq_sim_preemption {
	uint64_t step;		/* the decision's index in the trace: 1 is the first after the start */
	uint64_t now_ns;	/* the virtual clock then */
	uint32_t task;		/* the task at the scheduling point */
	uint32_t canonical;	/* the task the canonical choice gave */
	uint32_t chosen;	/* the task given the token instead */
	bool blocked;		/* the task at the point could not go on (it waited, slept, ended, spun) */
	/*
	 * With uirq_sim_set_record_stacks(true): return addresses, innermost
	 * first (the scheduler's own frames included), of the task at the
	 * point and of the chosen task where it last stopped (none if it had
	 * never run).  Addresses of this process.
	 */
	unsigned int nframes, chosen_nframes;
	void *frames[UIRQ_SIM_FRAMES];
	void *chosen_frames[UIRQ_SIM_FRAMES];
};

/* Follow every preemption exactly; a schedule that does not apply is a failure. */
#define UIRQ_SIM_SCHEDULE_STRICT	0
/* Apply the preemptions that can be applied (their chosen task runnable), skip the rest. */
#define UIRQ_SIM_SCHEDULE_LOOSE		1u
/*
 * The schedule UIRQ_SIM_REPLAY follows: n preemptions in increasing step
 * order (only step and chosen are used, and, strictly, task and canonical
 * to check them), copied; call before the start.  Strictly, at each
 * preemption's step the task at the point and the canonical choice must be
 * the recorded ones and the chosen task runnable: if not, the run is not
 * the recorded one (another program, scenario or option), and that goes to
 * the failure handler as a report starting "uirq sim: schedule mismatch"
 * (without one: on the log, and abort()); if the handler returns, the run
 * goes on canonically.  Loosely, a preemption whose chosen task is not
 * runnable, or is the canonical choice, is skipped.  An empty schedule is
 * the canonical run.  0; -EBUSY while the mode runs; -EINVAL for steps
 * not increasing from 1, a chosen task that is the canonical one (strict),
 * or unknown flags; -ENOMEM.
 */
int uirq_sim_set_schedule(const struct uirq_sim_preemption *p, size_t n, unsigned int flags);
/* How many of the schedule's preemptions the run (running or last run) applied. */
size_t uirq_sim_schedule_applied(void);
/* The preemptions of the run (running or last run) and their count; valid until the next start. */
const struct uirq_sim_preemption *uirq_sim_preemptions(size_t *n);
/*
 * Record the run's preemptions for uirq_sim_preemptions() (off by default:
 * measuring every decision against the canonical choice costs about a
 * fifth of a busy run's time); before the start.
 */
void uirq_sim_set_record(bool on);
/* Record the stacks in uirq_sim_preemptions() too (a backtrace at every decision: slower); before the start. */
void uirq_sim_set_record_stacks(bool on);

/* The deadlock's description (one line per task: id, name, state, what it waits on), or "". */
const char *uirq_sim_report(void);

#ifdef __cplusplus
}
#endif

#endif
