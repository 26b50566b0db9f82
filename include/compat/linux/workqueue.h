/* SPDX-License-Identifier: MIT */
/*
 * Workqueues (compat/workqueue.c) with the kernel's semantics: a work item
 * is queued at most once (queue_work() says false while it is pending),
 * never runs on two workers at once, may queue itself again from its
 * callback; cancel_*_sync() and flush_*() wait for a callback in progress;
 * a delayed work's timer is a timer_list on uirq's clock (virtual in the
 * deterministic mode), and mod_delayed_work() moves a pending one.
 * Workers are threads of uirq's ("kworker/NAME", tasks of the
 * deterministic mode when a task queues), started when work comes and
 * every worker is busy, ended when they find none.  Work items and
 * workqueues are lockdep maps, as the kernel's: a callback runs holding
 * both, and flushing or cancelling takes them, so waiting for a work under
 * a lock its callback takes is a reported circular dependency.
 */
#ifndef UIRQ_COMPAT_LINUX_WORKQUEUE_H
#define UIRQ_COMPAT_LINUX_WORKQUEUE_H

#include <stdint.h>

#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/timer.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	unsigned long data;		/* WORK_STRUCT_* bits, under the workqueues' lock */
	work_func_t func;
	struct lockdep_map lockdep_map;
	/* uirq's (compat/workqueue.c) */
	struct work_struct *uirq_next;	/* in its workqueue's list */
	struct workqueue_struct *uirq_wq;	/* where it was last queued */
	u64 uirq_seq;			/* the queueing's number */
};

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq;
	int cpu;
};

#define WORK_STRUCT_PENDING	(1UL << 0)
#define WORK_STRUCT_CANCELING	(1UL << 1)	/* uirq's: a cancel_*_sync() holds it */
#define WORK_CPU_UNBOUND	(-1)

enum {
	WQ_UNBOUND		= 1 << 1,
	WQ_FREEZABLE		= 1 << 2,
	WQ_MEM_RECLAIM		= 1 << 3,
	WQ_HIGHPRI		= 1 << 4,
	WQ_CPU_INTENSIVE	= 1 << 5,
	WQ_SYSFS		= 1 << 6,
	WQ_POWER_EFFICIENT	= 1 << 7,
	__WQ_ORDERED		= 1 << 17,
	__WQ_ORDERED_EXPLICIT	= 1 << 19,
	WQ_MAX_ACTIVE		= 512,
	WQ_DFL_ACTIVE		= WQ_MAX_ACTIVE / 2,
};

extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_highpri_wq;
extern struct workqueue_struct *system_long_wq;
extern struct workqueue_struct *system_unbound_wq;
extern struct workqueue_struct *system_freezable_wq;
extern struct workqueue_struct *system_power_efficient_wq;
extern struct workqueue_struct *system_freezable_power_efficient_wq;

void uirq_init_work(struct work_struct *work, work_func_t func, const char *name, struct lock_class_key *key);
void uirq_init_delayed_work(struct delayed_work *dwork, work_func_t func, const char *name,
			    struct lock_class_key *key);

/* A lockdep class per call site, as the kernel's macros make one. */
#define INIT_WORK(w, f)								\
	do {									\
		static struct lock_class_key uirq_work_key_;			\
		uirq_init_work((w), (f), "(work_completion)" #w, &uirq_work_key_);			\
	} while (0)
#define INIT_WORK_ONSTACK(w, f)		INIT_WORK(w, f)
#define INIT_DELAYED_WORK(w, f)							\
	do {									\
		static struct lock_class_key uirq_dwork_key_;			\
		uirq_init_delayed_work((w), (f), "(work_completion)" #w, &uirq_dwork_key_);		\
	} while (0)
#define INIT_DELAYED_WORK_ONSTACK(w, f)	INIT_DELAYED_WORK(w, f)
#define INIT_DEFERRABLE_WORK(w, f)	INIT_DELAYED_WORK(w, f)
#define destroy_work_on_stack(w)	((void)(w))
#define destroy_delayed_work_on_stack(w) ((void)(w))

#define work_pending(w)		(__atomic_load_n(&(w)->data, __ATOMIC_SEQ_CST) & WORK_STRUCT_PENDING)
#define delayed_work_pending(w)	work_pending(&(w)->work)

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

__attribute__((format(printf, 1, 4)))
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...);
/* One work at a time, in the order queued. */
#define alloc_ordered_workqueue(fmt, flags, args...) \
	alloc_workqueue(fmt, WQ_UNBOUND | __WQ_ORDERED | __WQ_ORDERED_EXPLICIT | (flags), 1, ##args)
#define create_workqueue(name)			alloc_workqueue("%s", WQ_MEM_RECLAIM, 1, (name))
#define create_freezable_workqueue(name)	alloc_workqueue("%s", WQ_FREEZABLE | WQ_UNBOUND | WQ_MEM_RECLAIM, 1, (name))
#define create_singlethread_workqueue(name)	alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, name)
/* Drain it (work queued by its own work included), wait for its workers to end, free it. */
void destroy_workqueue(struct workqueue_struct *wq);

/* Queue work: false if it was already pending (it is not queued twice). */
bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work);
/* Queue after delay jiffies (0: at once): false if it was already pending. */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
/* Queue after delay, or move a pending one's time to delay from now: whether it was pending. */
bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
/* Wait until the queueing pending now, or the callback running now, has finished: false if neither. */
bool flush_work(struct work_struct *work);
/* Run a pending delayed work's timer now, then flush_work(). */
bool flush_delayed_work(struct delayed_work *dwork);
/* Wait for every work queued on wq before the call. */
void flush_workqueue(struct workqueue_struct *wq);
void drain_workqueue(struct workqueue_struct *wq);
/* Take the work off its queue (or its timer): whether it was pending; a running callback goes on. */
bool cancel_work(struct work_struct *work);
bool cancel_delayed_work(struct delayed_work *dwork);
/* The same, then wait for a running callback; the work may not queue itself meanwhile. */
bool cancel_work_sync(struct work_struct *work);
bool cancel_delayed_work_sync(struct delayed_work *dwork);
/* Whether its callback is running now. */
bool work_busy(struct work_struct *work);

static inline bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	return queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

static inline bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	return queue_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	return mod_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

static inline bool schedule_work_on(int cpu, struct work_struct *work)
{
	return queue_work_on(cpu, system_wq, work);
}

static inline bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}

static inline bool schedule_delayed_work_on(int cpu, struct delayed_work *dwork, unsigned long delay)
{
	return queue_delayed_work_on(cpu, system_wq, dwork, delay);
}

#define flush_scheduled_work()	flush_workqueue(system_wq)

#endif
