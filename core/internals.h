/* SPDX-License-Identifier: MIT */
/*
 * Private to core/: the descriptor, the action, their state bits and the
 * helpers the files of the core share.  Names follow kernel/irq/internals.h
 * so a kernel engineer finds things where they expect them.
 */
#ifndef UIRQ_CORE_INTERNALS_H
#define UIRQ_CORE_INTERNALS_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/types.h>

#include "uirq/context.h"
#include "uirq/irq.h"
#include "uirq/mutex.h"
#include "uirq/spinlock.h"
#include "../lib/lib.h"
#include "../sim/sim.h"
#include "uirq/printk.h"

/*
 * Everything declared below is shared between the files of core/ and no
 * further: hidden, so libuirq.so exports only the documented uirq_ API.
 */
#pragma GCC visibility push(hidden)

/* ---- irq_data state (IRQD_*): written under desc->lock, read anywhere ---- */
#define IRQD_TRIGGER_MASK		0xfu
#define IRQD_LEVEL			(1u << 8)
#define IRQD_DEFAULT_TRIGGER_SET	(1u << 9)
#define IRQD_IRQ_DISABLED		(1u << 16)
#define IRQD_IRQ_MASKED			(1u << 17)
#define IRQD_IRQ_INPROGRESS		(1u << 18)
#define IRQD_IRQ_STARTED		(1u << 22)

/* ---- desc->istate (IRQS_*): under desc->lock ---- */
#define IRQS_SPURIOUS_DISABLED		0x00000002u
#define IRQS_POLL_INPROGRESS		0x00000008u
#define IRQS_ONESHOT			0x00000020u
#define IRQS_REPLAY			0x00000040u
#define IRQS_WAITING			0x00000080u
#define IRQS_PENDING			0x00000200u
/* uirq's own (fault.c): a thread_fn of the line faulted. */
#define IRQS_DEAD_ACTIONS		0x00010000u	/* some action is dead: flows skip it */
#define IRQS_FAULT_DISABLED		0x00020000u	/* no live action was left: the fault disabled the line */

/* ---- desc->settings: the public UIRQ_NOREQUEST... bits plus these ---- */
#define IRQ_SETTINGS_LEVEL		(1u << 8)
#define IRQ_SETTINGS_NOPROBE		(1u << 10)
#define IRQ_SETTINGS_NO_DEBUG		(1u << 21)
#define IRQ_SETTINGS_PUBLIC_MASK	(UIRQ_NOREQUEST | UIRQ_NOAUTOEN | UIRQ_NOTHREAD | UIRQ_NESTED_THREAD)

/* ---- action->thread_flags (IRQTF_*), also the thread's futex word ---- */
#define IRQTF_RUNTHREAD			(1u << 0)
#define IRQTF_WARNED			(1u << 1)
#define IRQTF_AFFINITY			(1u << 2)
#define IRQTF_FORCED_THREAD		(1u << 3)
#define IRQTF_READY			(1u << 4)
#define IRQTF_SLEEPING			(1u << 5)	/* the thread waits on the futex */
#define IRQTF_STOP			(1u << 6)	/* kthread_should_stop() */
#define IRQTF_DIED			(1u << 7)	/* the thread exited on its own */
#define IRQTF_INRUN			(1u << 8)	/* running its handler */
#define IRQTF_DEAD			(1u << 9)	/* its thread_fn faulted: never run again (fault.c) */

/* Bit 31 of threads_handled_last: the spurious verdict is deferred (spurious.c). */
#define SPURIOUS_DEFERRED		0x80000000u

struct uirq_irq_desc;

struct uirq_irqaction {
	uirq_irq_handler_t handler;
	void *dev_id;
	_Atomic(struct uirq_irqaction *) next;
	uirq_irq_handler_t thread_fn;
	struct uirq_irqaction *secondary;	/* forced threading: the driver's thread_fn */
	unsigned int irq;
	unsigned int flags;
	unsigned long thread_mask;
	const char *name;
	atomic_uint thread_flags;
	bool has_thread;
	pid_t tid;				/* the handler thread's Linux tid */
	pthread_t thread;
	atomic_uint run_seq;			/* runs its thread began: what hung.c watches */
	/* hung.c's, under desc->lock: the run being timed (0: none), since when, reported yet. */
	unsigned int hung_seq;
	unsigned int hung_since;		/* ms, wrapping like 32-bit jiffies */
	bool hung_reported;
};

/*
 * A line's fd watch (sources' eventfd/timerfd lines); only fd lines pay for
 * it.  Registered edge-triggered for good; "one-shot" is the state word: the
 * CPU delivers a readiness only while WATCH_ARMED (and clears it), else it
 * sets WATCH_FIRED, for which the next rearm has epoll look at the fd again.
 */
#define WATCH_ARMED	1u
#define WATCH_FIRED	2u
struct uirq_fd_watch {
	int fd;
	atomic_int cpu;			/* whose epoll holds it: changed under watch_mutex */
	unsigned int gen;		/* in its epoll tag: tells a stale event from a successor's */
	_Atomic unsigned int state;	/* WATCH_* */
	bool virt;			/* the deterministic mode's: no epoll, the CPU polls it (cpu.c) */
};

/*
 * Laid out by who writes what, for the raise path (descriptors are
 * 16-byte aligned): a raiser reads cpu from a line nobody writes per
 * interrupt, then writes the raise block at the end, one 16-aligned block
 * that never straddles a cache line and that the CPU taking the line writes
 * too; the CPU's per-interrupt writes (lock, state, counters) stay off the
 * read-mostly lines.
 */
struct uirq_irq_desc {
	/* Read-mostly: set up in process context. */
	struct uirq_irq_data irq_data;
	uirq_irq_flow_handler_t handle_irq;
	_Atomic(struct uirq_irqaction *) action;
	_Atomic unsigned short cpu;	/* effective CPU */
	unsigned short depth;		/* nested disables, under desc->lock; 65535 at most */
	_Atomic unsigned int settings;	/* written under desc->lock */
	void *handler_data;
	const char *name;		/* flow handler name (/proc/interrupts) */
	_Atomic(_Atomic unsigned int *) kstat;	/* per CPU counts, kstat_n entries (grows only) */
	_Atomic(struct uirq_fd_watch *) watch;	/* set/cleared under watch_mutex, read lock-free (cpu.c) */
	_Atomic uint64_t thread_wait;	/* uirq_irq_set_thread_wait(): poll bound (ns) << 8 | mode */
	uint64_t affinity;		/* under desc->lock */
	uirq_mutex_t request_mutex;
	/* Written by the CPU handling the line. */
	uirq_spinlock_t lock;
	_Atomic unsigned long threads_oneshot;
	_Atomic unsigned int state;	/* IRQD_* */
	_Atomic unsigned int istate;	/* IRQS_*: written under desc->lock */
	_Atomic unsigned int irqs_unhandled;
	atomic_int threads_handled;
	unsigned int threads_handled_last;
	atomic_int threads_active;	/* futex word of synchronize_irq(): THREADS_* */
	atomic_int kicks_deferred;	/* thread wakes a CPU holds until its hard irq is over (handle.c) */
	atomic_int frees_deferred;	/* free_irq() by a handler of the line, not finished yet (manage.c) */
	int parent_irq;
	_Atomic unsigned int last_unhandled;	/* ms, wrapping like 32-bit jiffies */
	/* The raise block: written by the raiser and by the CPU that takes the raise. */
	_Alignas(16) _Atomic(struct uirq_irq_desc *) next_pending;	/* CPU pending queue link */
	_Atomic unsigned char raised;	/* queued on a CPU (latch) */
	_Atomic unsigned char resend;	/* the raise is a software resend (resend.c) */
	_Atomic unsigned short kstat_n;	/* published after kstat: read it first */
	_Atomic unsigned int irq_count;
};
/* Running thread handlers (and nested runs) count in the low bits of threads_active, synchronize_irq() waiters above. */
#define THREADS_RUNNING_MASK	0xffff
#define THREADS_WAITER		0x10000

_Static_assert(offsetof(struct uirq_irq_desc, next_pending) % 16 == 0 &&
	       offsetof(struct uirq_irq_desc, irq_count) < offsetof(struct uirq_irq_desc, next_pending) + 16 &&
	       offsetof(struct uirq_irq_desc, next_pending) - offsetof(struct uirq_irq_desc, cpu) >= 64 &&
	       offsetof(struct uirq_irq_desc, lock) - offsetof(struct uirq_irq_desc, cpu) >= 64,
	       "the raise block: 16 aligned bytes, a cache line away from cpu");

/* ---- irqd state helpers ---- */
static inline unsigned int irqd_get(struct uirq_irq_desc *desc)
{
	return atomic_load_explicit(&desc->state, memory_order_acquire);
}
static inline bool irqd_has(struct uirq_irq_desc *desc, unsigned int bits)
{
	return irqd_get(desc) & bits;
}
static inline void irqd_set(struct uirq_irq_desc *desc, unsigned int bits)
{
	atomic_fetch_or_explicit(&desc->state, bits, memory_order_release);
}
static inline void irqd_clear(struct uirq_irq_desc *desc, unsigned int bits)
{
	atomic_fetch_and_explicit(&desc->state, ~bits, memory_order_release);
}
static inline bool irqd_irq_disabled(struct uirq_irq_desc *d) { return irqd_has(d, IRQD_IRQ_DISABLED); }
static inline bool irqd_irq_masked(struct uirq_irq_desc *d) { return irqd_has(d, IRQD_IRQ_MASKED); }
static inline bool irqd_irq_inprogress(struct uirq_irq_desc *d) { return irqd_has(d, IRQD_IRQ_INPROGRESS); }
static inline bool irqd_is_started(struct uirq_irq_desc *d) { return irqd_has(d, IRQD_IRQ_STARTED); }
static inline bool irqd_is_level_type(struct uirq_irq_desc *d) { return irqd_has(d, IRQD_LEVEL); }
static inline unsigned int irqd_get_trigger_type(struct uirq_irq_desc *d)
{
	return irqd_get(d) & IRQD_TRIGGER_MASK;
}
static inline void irqd_set_trigger_type(struct uirq_irq_desc *d, unsigned int type)
{
	irqd_clear(d, IRQD_TRIGGER_MASK);
	irqd_set(d, (type & IRQD_TRIGGER_MASK) | IRQD_DEFAULT_TRIGGER_SET);
}

/*
 * The per-CPU counters and how many there are, a consistent pair without a
 * lock: the count is read first (acquire) and the array only grows, its new
 * pointer published before the new count.  Old arrays are never freed.
 */
static inline _Atomic unsigned int *desc_kstat(struct uirq_irq_desc *desc, unsigned int *n)
{
	*n = atomic_load_explicit(&desc->kstat_n, memory_order_acquire);
	return atomic_load_explicit(&desc->kstat, memory_order_acquire);
}

static inline struct uirq_irqaction *desc_action(struct uirq_irq_desc *desc)
{
	return atomic_load_explicit(&desc->action, memory_order_acquire);
}
static inline struct uirq_irqaction *action_next(struct uirq_irqaction *a)
{
	return atomic_load_explicit(&a->next, memory_order_acquire);
}
#define for_each_action_of_desc(desc, act) \
	for ((act) = desc_action(desc); (act); (act) = action_next(act))

static inline bool irq_settings_is_nested_thread(struct uirq_irq_desc *d) { return d->settings & UIRQ_NESTED_THREAD; }
static inline bool irq_settings_can_request(struct uirq_irq_desc *d) { return !(d->settings & UIRQ_NOREQUEST); }
static inline bool irq_settings_can_thread(struct uirq_irq_desc *d) { return !(d->settings & UIRQ_NOTHREAD); }
static inline bool irq_settings_can_autoenable(struct uirq_irq_desc *d) { return !(d->settings & UIRQ_NOAUTOEN); }
static inline bool irq_settings_is_level(struct uirq_irq_desc *d) { return d->settings & IRQ_SETTINGS_LEVEL; }

/* ---- printk.c: the kernel's words, on the log (lib/log.c) ---- */
__attribute__((format(printf, 1, 2))) void uirq_printk(const char *fmt, ...);
/* WARN(): a "cut here" frame around the message, naming the call site (uirq/printk.h). */
#define UIRQ_WARN(...) uirq_log_warn(__FILE__, __LINE__, __func__, __VA_ARGS__)

/* ---- selfwait.c: what the calling thread runs, for the waits that must not wait for it ---- */
void irq_self_hard_enter(struct uirq_irq_desc *desc);
void irq_self_hard_exit(void);
void irq_self_nested_enter(struct uirq_irq_desc *desc);
void irq_self_nested_exit(void);
/* Called once by a handler thread: action is the one it runs. */
void irq_self_thread(struct uirq_irqaction *action);
/* The caller runs desc's hard handlers now. */
bool irq_self_hard(struct uirq_irq_desc *desc);
/* The caller's runs counted in desc->threads_active (its thread's run, nested runs). */
int irq_self_runs(struct uirq_irq_desc *desc);
/* A code address as "function+off [module]" or "addr [module+off]"; ret: a return address (fault.c). */
void irq_format_ip(char *buf, size_t len, void *ip, bool ret);
/* The report: call (e.g. "free_irq") on desc by one of its own handlers, with a backtrace. */
void irq_self_wait_report(const char *call, struct uirq_irq_desc *desc);

/* ---- handle.c ---- */
/* Thread wakes of desc that the caller holds until its hard irq is over. */
int irq_kicks_held(struct uirq_irq_desc *desc);

/* ---- irqdesc.c ---- */
struct uirq_irq_desc *irq_to_desc(unsigned int irq);
unsigned int irq_desc_get_irq(struct uirq_irq_desc *desc);
/* Call fn for every allocated descriptor (sparse lock held: may not allocate). */
void irq_for_each_desc(void (*fn)(struct uirq_irq_desc *desc, void *arg), void *arg);
/* Grow every descriptor's per-CPU counters to n CPUs (CPUs stopped). */
void irq_resize_kstats(unsigned int n);
/* Highest irq number ever allocated + 1. */
unsigned int irq_get_nr_irqs(void);
/* A wait mode and its poll bound (uirq_cpu_set_wait(), uirq_irq_set_thread_wait()): the bound to keep, or -EINVAL. */
static inline long wait_mode_bound(enum uirq_wait_mode mode, unsigned int poll_ns)
{
	if ((unsigned int)mode > UIRQ_WAIT_POLL || (poll_ns && mode != UIRQ_WAIT_ADAPTIVE))
		return -EINVAL;
	return poll_ns ? poll_ns : UIRQ_WAIT_ADAPTIVE_NS;
}
void kstat_incr_irqs_this_cpu(struct uirq_irq_desc *desc);
/* Lock the descriptor, taking the chip bus lock first in process context. */
struct uirq_irq_desc *irq_get_desc_buslock(unsigned int irq, unsigned long *flags);
void irq_put_desc_busunlock(struct uirq_irq_desc *desc, unsigned long flags);
void chip_bus_lock(struct uirq_irq_desc *desc);
void chip_bus_sync_unlock(struct uirq_irq_desc *desc);

/* ---- chip.c ---- */
int irq_startup(struct uirq_irq_desc *desc, bool resend);
void irq_shutdown(struct uirq_irq_desc *desc);
void irq_enable(struct uirq_irq_desc *desc);
void irq_disable(struct uirq_irq_desc *desc);
void mask_irq(struct uirq_irq_desc *desc);
void unmask_irq(struct uirq_irq_desc *desc);
void unmask_threaded_irq(struct uirq_irq_desc *desc);

/* ---- handle.c ---- */
uirq_irqreturn_t handle_irq_event(struct uirq_irq_desc *desc);
uirq_irqreturn_t handle_irq_event_percpu(struct uirq_irq_desc *desc);
/* Set RUNTHREAD and account the thread; the futex wake may be deferred to irq exit. */
void __irq_wake_thread(struct uirq_irq_desc *desc, struct uirq_irqaction *action);
/* The futex wake of a thread of desc whose RUNTHREAD was just set. */
void irq_thread_kick(struct uirq_irq_desc *desc, struct uirq_irqaction *action);
/* Defer kicks made while a lock is held or in hard-irq context; flush runs them. */
void irq_kick_defer_begin(void);
void irq_kick_flush(void);
uirq_irqreturn_t irq_default_primary_handler(int irq, void *dev_id);
void wake_threads_waitq(struct uirq_irq_desc *desc);

/* ---- manage.c ---- */
void __disable_irq(struct uirq_irq_desc *desc);
void __enable_irq(struct uirq_irq_desc *desc);
int __irq_set_trigger(struct uirq_irq_desc *desc, unsigned int type);
void irq_finalize_oneshot(struct uirq_irq_desc *desc, struct uirq_irqaction *action);
bool irq_wait_for_poll(struct uirq_irq_desc *desc);
/* Until the frees that handlers of desc made of their own line have finished. */
void irq_wait_deferred_frees(struct uirq_irq_desc *desc);

void irq_update_effective_affinity(struct uirq_irq_desc *desc);

/* ---- spurious.c ---- */
void note_interrupt(struct uirq_irq_desc *desc, uirq_irqreturn_t action_ret);
/* Run by CPU 0 for every line, every 100 ms while a line is disabled as spurious. */
void poll_spurious_irq_one(struct uirq_irq_desc *desc);
extern atomic_int uirq_spurious_disabled_lines;

/* ---- resend.c ---- */
int check_irq_resend(struct uirq_irq_desc *desc, bool inject);

/* ---- cpu.c ---- */
/* This thread's CPU number, or -1 outside the CPUs. */
int uirq_this_cpu(void);
/* Online CPU mask (CPU 0 only while no CPUs run). */
uint64_t uirq_online_mask(void);
/* Effective CPU for an affinity mask. */
unsigned int uirq_effective_cpu(uint64_t mask);
#ifdef CPU_SETSIZE
/* The cores an unpinned CPU or handler thread runs on: the process's affinity at load. */
void uirq_process_cpus(cpu_set_t *set);
#endif
/* Host cores a thread serving CPU cpu may run on; false: any. */
bool uirq_cpu_host_pin(unsigned int cpu, int *core);
/* Wake a sleeping CPU so it looks at its work again (the spurious poll). */
void uirq_cpu_poke(unsigned int cpu);
/* The line moved to another CPU: move its fd watch. */
void uirq_cpu_move_watch(struct uirq_irq_desc *desc);
/* The descriptor is going away: wait until no CPU is handling it; drop its watch. */
void uirq_cpu_forget_desc(struct uirq_irq_desc *desc);

/* The irq the calling CPU thread is handling, or 0 (any context, the fault handler's too). */
unsigned int uirq_cpu_current_irq(void);

/* ---- fault.c: faults of handlers ---- */
#define IRQ_FAULT_FRAMES	48
/*
 * One contained call of a thread_fn: where the fault handler jumps back to
 * and what it saw.  Lives in the caller's frame for the call's length.
 */
struct irq_fault {
	sigjmp_buf env;
	struct irq_fault *prev;		/* the call this one is nested in (handle_nested_irq) */
	unsigned int preempt_count;	/* the context to go back to */
	bool irqs_off;
	/* Filled in by the fault handler. */
	int sig, code;
	pid_t pid;			/* the sender, for a signal sent rather than faulted */
	void *addr, *ip;
	sigset_t mask;			/* the thread's mask when it faulted */
	int nr_frames;
	void *frames[IRQ_FAULT_FRAMES];
};
/* What a thread is to the fault handler: how a fault on it ends. */
enum irq_fault_kind { IRQ_FAULT_TASK, IRQ_FAULT_CPU, IRQ_FAULT_THREAD };
/* Install the fault handlers (once; the first threaded request and uirq_cpus_start()). */
void irq_fault_init(void);
/* Give the calling uirq thread its kind and an alternate signal stack; exit undoes it. */
void irq_fault_thread_init(enum irq_fault_kind kind);
void irq_fault_thread_exit(void);
/* fn(irq, dev_id) with its faults contained: true (and *f filled) if it faulted, else *ret set. */
bool irq_fault_call(struct irq_fault *f, uirq_irq_handler_t fn, int irq, void *dev_id,
		    uirq_irqreturn_t *ret);
/* After a contained fault: kill the action, disable or keep its line, report; process context. */
void irq_thread_faulted(struct uirq_irq_desc *desc, struct uirq_irqaction *action,
			struct irq_fault *f, bool nested);
static inline bool irq_action_dead(struct uirq_irqaction *action)
{
	return atomic_load_explicit(&action->thread_flags, memory_order_relaxed) & IRQTF_DEAD;
}
/* Is this action to be skipped?  One relaxed load of desc->istate unless some action died. */
static inline bool irq_desc_skip_action(unsigned int istate, struct uirq_irqaction *action)
{
	return __builtin_expect(istate & IRQS_DEAD_ACTIONS, 0) && irq_action_dead(action);
}

/* ---- hung.c: the hung handler-thread watchdog, which lives while the CPUs run ---- */
void irq_hung_cpus_started(void);
void irq_hung_cpus_stopped(void);

/* ---- trace points (trace.c) ---- */
extern _Atomic(uirq_irq_trace_fn) irq_trace_fn;
void irq_trace_call(enum uirq_irq_trace_point point, unsigned int irq, const char *name);
static inline void irq_trace(enum uirq_irq_trace_point point, unsigned int irq, const char *name)
{
	if (__builtin_expect(atomic_load_explicit(&irq_trace_fn, memory_order_relaxed) != NULL, 0))
		irq_trace_call(point, irq, name);
}

#pragma GCC visibility pop

#endif
