/* SPDX-License-Identifier: MIT */
/*
 * Small helpers every layer above may use - the futex calls, a waiting
 * back-off, jiffies, symbol names - as the kernel keeps such things in
 * lib/ and kernel/: one copy, shared by lockdep and genirq alike (and built
 * into the lockdep preload library with them).  Hidden: not the library's
 * API.
 */
#ifndef UIRQ_LIB_H
#define UIRQ_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#pragma GCC visibility push(hidden)

/*
 * The seam to a scheduler other than the kernel's: the deterministic mode
 * (sim/) runs its tasks one at a time on a virtual clock, so on those
 * threads every wait, wake, back-off, sleep and clock read below must go
 * to it.  A task's thread points uirq_sched at the scheduler's calls; lib
 * calls down through them and never names the scheduler, which is built
 * on lib (its hand-offs are the kernel's futex calls below), not the
 * other way round.
 */
struct uirq_sched_ops {
	/* 0 woken, -EAGAIN *addr != val, -ETIMEDOUT, -EDEADLK (the run is over); timeout_ns UINT64_MAX: none. */
	int (*wait)(void *addr, unsigned int val, uint64_t timeout_ns);
	int (*wake)(void *addr, int nr);		/* how many were woken */
	void (*yield)(void);				/* a spin loop's: let the others run first */
	void (*sleep_ns)(uint64_t ns);
	uint64_t (*now_ns)(void);
	long (*task_pid)(void);				/* the task's id as messages show it */
	/* The task's command name (TASK_COMM_LEN: 16 with the NUL), which its thread's name would be. */
	void (*comm)(char buf[16]);
	void (*set_comm)(const char *name);
};
/* The calling thread's scheduler (NULL: the kernel's), read on every wait: one %fs-relative load. */
extern __thread const struct uirq_sched_ops *uirq_sched __attribute__((tls_model("initial-exec")));
/* A scheduler's run is going on: messages show addresses as stand-ins that replay (uirq_ptr_shown()). */
extern bool uirq_sched_replays;

/* The registered task-local variables (tasklocal.c, uirq_sim_task_local()) and a count bumped at each registration. */
struct uirq_sim_task_local;
extern struct uirq_sim_task_local *uirq_task_locals;
extern unsigned int uirq_task_locals_gen;

/* FUTEX_WAIT_PRIVATE / FUTEX_WAKE_PRIVATE on a 32-bit word; waits return on any wake or signal. */
void uirq_futex_wait(void *addr, unsigned int val);
void uirq_futex_wake(void *addr, int nr);
/* The same wait bounded by a relative timeout (ns): 0 woken (or signal, or *addr != val), -ETIMEDOUT. */
int uirq_futex_wait_timeout(void *addr, unsigned int val, uint64_t ns);
/*
 * The kernel's futex itself, never the deterministic scheduler's (which
 * uses these for its own hand-offs): wait 0 or -errno (relative timeout,
 * NULL for none); wake the number woken or -errno.
 */
int uirq_futex_wait_kernel(void *addr, unsigned int val, const struct timespec *timeout);
int uirq_futex_wake_kernel(void *addr, int nr);

/* Nanoseconds as a struct timespec (a clock's absolute time or a relative timeout). */
static inline struct timespec uirq_ns_to_timespec(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
}

/*
 * The calling thread's alternate signal stack, size bytes over a guard
 * page, unless it has one of min bytes or more (a sanitizer's): then
 * mem stays NULL and the remove does nothing.  The remove puts back what
 * was installed before.
 */
struct uirq_altstack {
	void *mem;
	size_t len;
	stack_t old;
};
void uirq_altstack_install(struct uirq_altstack *a, size_t size, size_t min);
void uirq_altstack_remove(struct uirq_altstack *a);

/* One step of a spin: tell the core (and an SMT sibling) that this thread only waits. */
static inline void uirq_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Wait a little, escalating: pause, then sleep (never spin long: an RT thread would starve the one it waits for). */
void uirq_backoff(unsigned int *round);

/* Milliseconds since an arbitrary start (jiffies at HZ=1000), on uirq_sim_clock_ns(). */
unsigned long uirq_jiffies(void);

/*
 * The calling thread's id as messages show it (lockdep's "name/pid", BUG
 * reports): its kernel thread id, or in the deterministic mode its task
 * number + 1, so that a seed's messages replay byte for byte.
 */
long uirq_task_pid(void);
/*
 * The calling thread's command name (prctl(PR_GET_NAME)), 16 bytes with
 * the NUL, and its renaming (pthread_setname_np() of itself): in the
 * deterministic mode the task's own, which its tasks - coroutines sharing
 * one thread - cannot keep in the thread's name.
 */
void uirq_task_comm(char buf[16]);
void uirq_task_set_comm(const char *name);
/* An address as messages show it: itself, or in the deterministic mode a stand-in that ASLR does not move (symbol.c). */
unsigned long uirq_ptr_shown(const void *p);

/* A function's symbol name ("name+0xoff") in buf, or NULL when the symbolizer (symbolize.h) has none. */
const char *uirq_symbol_name(const void *fn, char *buf, size_t len);
/* A function's symbol name (%ps), else "object+0xoff" (a static function), else its address. */
const char *uirq_symbol(const void *fn, char *buf, size_t len);

/*
 * The log (log.c; uirq_log_printk() and uirq_log_set_sink() are
 * <uirq/printk.h>'s): a message, whole, to the program's sink or stderr,
 * from any layer and any context.  write: one finished message of any
 * length; vprintk: formatted once (up to 1023 bytes), returns its length.
 */
void uirq_log_write(const char *msg);
__attribute__((format(printf, 1, 0))) int uirq_log_vprintk(const char *fmt, va_list ap);

#pragma GCC visibility pop

#endif
