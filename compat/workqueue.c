// SPDX-License-Identifier: MIT
/*
 * Workqueues (<linux/workqueue.h>).  One lock guards every queue, work
 * item and worker (the kernel splits it per worker pool; one is enough for
 * the semantics and keeps each decision below a single critical section):
 *
 *  - a work item's PENDING bit says it is queued or its delayed timer is
 *    armed; whoever sets it owns the queueing, so queue_work() of a
 *    pending item says false and queues nothing;
 *  - a worker takes the first item of its queue that no other worker is
 *    running (the kernel's non-reentrancy: an item never runs twice at
 *    once), clearing PENDING before the callback, so the callback may
 *    queue its own item again;
 *  - workers are started when work is queued and every worker of the
 *    queue is busy (up to max_active: one for an ordered queue), and end
 *    when they find nothing to run, so no thread outlives its work - a
 *    seeded run's tasks all end (uirq_sim_stop()) once its work is done;
 *  - waiting (flush, cancel_*_sync, destroy) is on one word bumped after
 *    every callback and every end of a cancel, re-checking the condition
 *    under the lock each time.
 *
 * A callback runs holding its workqueue's and its own lockdep maps, and
 * flushing or cancelling takes the work's (and, for an ordered queue, the
 * queue's) map, as the kernel's process_one_work() and __flush_work() do:
 * lockdep then reports waiting for a work under a lock its callback takes.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "uirq/context.h"
#include "uirq/sim.h"

#define WORK_STRUCT_LISTED	(1UL << 2)	/* in its queue's list (not only its timer armed) */
#define WQ_NAME_LEN		40

struct worker {
	struct worker *next;			/* in busy_workers */
	struct workqueue_struct *wq;
	struct work_struct *current_work;
	work_func_t current_func;
	u64 current_seq;
};

struct workqueue_struct {
	char name[WQ_NAME_LEN];
	unsigned int flags;
	int max_active;
	struct work_struct *head, *tail;	/* queued, in order */
	unsigned int nr_workers;		/* started and not ended */
	unsigned int nr_busy;			/* of them, running a callback */
	bool destroying;
	bool allocated;
	struct lockdep_map lockdep_map;
	struct lock_class_key key;
	char lock_name[WQ_NAME_LEN + 16];
};

static uirq_spinlock_t pool_lock = UIRQ_SPINLOCK_UNLOCKED(wq_pool_lock);
static struct worker *busy_workers;		/* every worker in a callback */
static u64 queue_seq;				/* queueings so far */
static uint32_t done_word;			/* bumped after each callback and each cancel's end */
static __thread struct worker *current_worker;
UIRQ_SIM_TASK_LOCAL(current_worker)

#define SYSTEM_WQ(var, wqname, maxact, fl)							\
	static struct workqueue_struct var##_s = {						\
		.name = wqname, .flags = (fl), .max_active = (maxact),				\
		.lockdep_map = UIRQ_LOCKDEP_MAP_INIT("(wq_completion)" wqname),		\
	};											\
	struct workqueue_struct *var = &var##_s

SYSTEM_WQ(system_wq, "events", WQ_DFL_ACTIVE, 0);
SYSTEM_WQ(system_highpri_wq, "events_highpri", WQ_DFL_ACTIVE, WQ_HIGHPRI);
SYSTEM_WQ(system_long_wq, "events_long", WQ_DFL_ACTIVE, 0);
SYSTEM_WQ(system_unbound_wq, "events_unbound", WQ_MAX_ACTIVE, WQ_UNBOUND);
SYSTEM_WQ(system_freezable_wq, "events_freezable", WQ_DFL_ACTIVE, WQ_FREEZABLE);
SYSTEM_WQ(system_power_efficient_wq, "events_power_efficient", WQ_DFL_ACTIVE, WQ_POWER_EFFICIENT);
SYSTEM_WQ(system_freezable_power_efficient_wq, "events_freezable_power_efficient", WQ_DFL_ACTIVE,
	  WQ_FREEZABLE | WQ_POWER_EFFICIENT);

/* A work's bits change under the lock; work_pending() reads them without it. */
static inline unsigned long bits(const struct work_struct *work)
{
	return __atomic_load_n(&work->data, __ATOMIC_SEQ_CST);
}

static inline void set_bits(struct work_struct *work, unsigned long b)
{
	__atomic_fetch_or(&work->data, b, __ATOMIC_SEQ_CST);
}

static inline void clear_bits(struct work_struct *work, unsigned long b)
{
	__atomic_fetch_and(&work->data, ~b, __ATOMIC_SEQ_CST);
}

#define LOCK(flags)	uirq_spin_lock_irqsave(&pool_lock, flags)
#define UNLOCK(flags)	uirq_spin_unlock_irqrestore(&pool_lock, flags)
#define IP		((unsigned long)__builtin_return_address(0))

/* Waiting for a callback is taking what it runs under (lockdep's view of a wait). */
static void map_wait(struct lockdep_map *map)
{
	uirq_lock_acquire(map, 0, 0, 0, IP, __FILE__, __LINE__);
	uirq_lock_release(map, IP, __FILE__, __LINE__);
}

/* Under the lock: the worker running work's current callback, or NULL. */
static struct worker *executing(struct work_struct *work)
{
	for (struct worker *w = busy_workers; w; w = w->next)
		if (w->current_work == work && w->current_func == work->func)
			return w;
	return NULL;
}

/* Under the lock, after a bump: wake the waiters once the lock is dropped. */
static void bump_done(void)
{
	__atomic_fetch_add(&done_word, 1, __ATOMIC_SEQ_CST);
}

static void wake_done(void)
{
	uirq_sim_wake_word(&done_word, INT_MAX);
}

/* Drop the lock and sleep until the next callback or cancel ends; the lock again on return. */
static void wait_done(unsigned long *flags)
{
	uint32_t d = __atomic_load_n(&done_word, __ATOMIC_SEQ_CST);

	UNLOCK(*flags);
	uirq_sim_wait_word(&done_word, d, UIRQ_SIM_WAIT_FOREVER);
	LOCK(*flags);
}

static void *worker_thread(void *arg);

/* After the lock is dropped: the worker a queueing asked for (nr_workers already counts it). */
static void start_worker(struct workqueue_struct *wq)
{
	pthread_attr_t attr;
	pthread_t thread;
	char name[WQ_NAME_LEN + 8];
	unsigned long flags;
	int err;

	snprintf(name, sizeof(name), "kworker/%s", wq->name);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = uirq_sim_thread_create(&thread, &attr, worker_thread, wq, name);
	pthread_attr_destroy(&attr);
	if (!err)
		return;
	pr_err("workqueue %s: cannot start a worker: %d\n", wq->name, -err);
	LOCK(flags);
	wq->nr_workers--;
	bump_done();
	UNLOCK(flags);
	wake_done();
}

/* Under the lock: whether wq needs one more worker for what it holds; if so it is counted. */
static bool need_worker(struct workqueue_struct *wq)
{
	if (wq->nr_workers > wq->nr_busy || wq->nr_workers >= (unsigned int)wq->max_active)
		return false;
	wq->nr_workers++;
	return true;
}

/* Under the lock, PENDING owned by the caller: onto wq's list; whether a worker must be started. */
static bool insert_work(struct workqueue_struct *wq, struct work_struct *work)
{
	/* A queue being destroyed takes only its own workers' work (the kernel's chained work). */
	if (wq->destroying && !(current_worker && current_worker->wq == wq)) {
		WARN_ONCE(1, "workqueue %s: work queued while it is destroyed\n", wq->name);
		clear_bits(work, WORK_STRUCT_PENDING);
		return false;
	}
	work->uirq_next = NULL;
	if (wq->tail)
		wq->tail->uirq_next = work;
	else
		wq->head = work;
	wq->tail = work;
	work->uirq_wq = wq;
	work->uirq_seq = ++queue_seq;
	set_bits(work, WORK_STRUCT_LISTED);
	return need_worker(wq);
}

/* Under the lock: off its queue's list. */
static void unlink_work(struct work_struct *work)
{
	struct workqueue_struct *wq = work->uirq_wq;
	struct work_struct *prev = NULL;

	for (struct work_struct *w = wq->head; w; prev = w, w = w->uirq_next) {
		if (w != work)
			continue;
		if (prev)
			prev->uirq_next = w->uirq_next;
		else
			wq->head = w->uirq_next;
		if (wq->tail == w)
			wq->tail = prev;
		break;
	}
	work->uirq_next = NULL;
	clear_bits(work, WORK_STRUCT_LISTED);
}

static void *worker_thread(void *arg)
{
	struct workqueue_struct *wq = arg;
	struct worker me = { .wq = wq };
	unsigned long flags;

	current_worker = &me;
	LOCK(flags);
	for (;;) {
		struct work_struct *work = wq->head;

		/* The first item no other worker is running: that one waits for its worker to finish. */
		while (work && executing(work))
			work = work->uirq_next;
		if (!work)
			break;
		unlink_work(work);
		clear_bits(work, WORK_STRUCT_PENDING);
		me.current_work = work;
		me.current_func = work->func;
		me.current_seq = work->uirq_seq;
		me.next = busy_workers;
		busy_workers = &me;
		wq->nr_busy++;
		/* More to run and no free worker: another one, as the kernel wakes one when a worker gets busy. */
		bool more = wq->head && need_worker(wq);
		/* The callback may free its item: its map is used from a copy, as the kernel's is. */
		struct lockdep_map map = work->lockdep_map;

		UNLOCK(flags);
		if (more)
			start_worker(wq);
		uirq_lock_acquire(&wq->lockdep_map, 0, 0, 0, IP, __FILE__, __LINE__);
		uirq_lock_acquire(&map, 0, 0, 0, IP, __FILE__, __LINE__);
		me.current_func(work);
		uirq_lock_release(&map, IP, __FILE__, __LINE__);
		uirq_lock_release(&wq->lockdep_map, IP, __FILE__, __LINE__);
		if (uirq_preempt_count() || uirq_irqs_disabled())
			pr_err("BUG: workqueue leaked lock or atomic: kworker/%s\n     preempt=0x%08x%s\n", wq->name,
			       uirq_preempt_count(), uirq_irqs_disabled() ? ", interrupts off" : "");
		LOCK(flags);
		for (struct worker **pp = &busy_workers; *pp; pp = &(*pp)->next) {
			if (*pp == &me) {
				*pp = me.next;
				break;
			}
		}
		me.current_work = NULL;
		me.current_func = NULL;
		wq->nr_busy--;
		bump_done();
		UNLOCK(flags);
		wake_done();
		LOCK(flags);
	}
	wq->nr_workers--;
	bump_done();
	UNLOCK(flags);
	wake_done();
	return NULL;
}

/* ---- initialising ---- */

void uirq_init_work(struct work_struct *work, work_func_t func, const char *name, struct lock_class_key *key)
{
	memset(work, 0, sizeof(*work));
	work->func = func;
	uirq_lockdep_init_map(&work->lockdep_map, name, key, 0);
}

static void delayed_work_timer_fn(struct timer_list *t);

void uirq_init_delayed_work(struct delayed_work *dwork, work_func_t func, const char *name,
			    struct lock_class_key *key)
{
	static struct lock_class_key timer_key;

	uirq_init_work(&dwork->work, func, name, key);
	uirq_timer_init_key(&dwork->timer, delayed_work_timer_fn, TIMER_IRQSAFE, "delayed_work_timer_fn",
			    &timer_key);
	dwork->wq = NULL;
	dwork->cpu = WORK_CPU_UNBOUND;
}

/* ---- queueing ---- */

bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags;
	bool start;

	(void)cpu;
	LOCK(flags);
	if (bits(work) & WORK_STRUCT_PENDING) {
		UNLOCK(flags);
		return false;
	}
	set_bits(work, WORK_STRUCT_PENDING);
	start = insert_work(wq, work);
	UNLOCK(flags);
	if (start)
		start_worker(wq);
	return true;
}

/* The delay is over: onto the queue it was meant for (PENDING is still the queueing's). */
static void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);
	struct workqueue_struct *wq;
	unsigned long flags;
	bool start;

	LOCK(flags);
	wq = dwork->wq;
	start = insert_work(wq, &dwork->work);
	UNLOCK(flags);
	if (start)
		start_worker(wq);
}

/* Under the lock, PENDING owned: at once for no delay, else the timer; whether a worker must start. */
static bool queue_delayed(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	dwork->wq = wq;
	dwork->cpu = cpu;
	if (!delay)
		return insert_work(wq, &dwork->work);
	dwork->timer.expires = jiffies + delay;
	add_timer(&dwork->timer);
	return false;
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool start;

	LOCK(flags);
	if (bits(&dwork->work) & WORK_STRUCT_PENDING) {
		UNLOCK(flags);
		return false;
	}
	set_bits(&dwork->work, WORK_STRUCT_PENDING);
	start = queue_delayed(cpu, wq, dwork, delay);
	UNLOCK(flags);
	if (start)
		start_worker(wq);
	return true;
}

/*
 * Under the lock: take PENDING from whoever has it (the kernel's
 * try_to_grab_pending()).  1: it was pending, its timer or list place now
 * gone; 0: it was idle, PENDING now the caller's; -ENOENT: a cancel owns
 * it; -EAGAIN: its timer has fired and not yet queued it - drop the lock
 * and try again.
 */
static int try_to_grab_pending(struct work_struct *work, bool is_dwork)
{
	if (is_dwork && del_timer(&to_delayed_work(work)->timer))
		return 1;
	if (!(bits(work) & WORK_STRUCT_PENDING)) {
		set_bits(work, WORK_STRUCT_PENDING);
		return 0;
	}
	if (bits(work) & WORK_STRUCT_LISTED) {
		unlink_work(work);
		return 1;
	}
	if (bits(work) & WORK_STRUCT_CANCELING)
		return -ENOENT;
	return -EAGAIN;
}

/* Take the lock and grab PENDING, retrying -EAGAIN: the result, with the lock held. */
static int grab(struct work_struct *work, bool is_dwork, unsigned long *flags)
{
	for (;;) {
		int ret;

		LOCK(*flags);
		ret = try_to_grab_pending(work, is_dwork);
		if (ret != -EAGAIN)
			return ret;
		UNLOCK(*flags);
		/* The timer's callback is about to queue it: let it run. */
		uirq_sim_yield();
	}
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool start = false;
	int ret = grab(&dwork->work, true, &flags);

	if (ret >= 0)
		start = queue_delayed(cpu, wq, dwork, delay);
	UNLOCK(flags);
	if (start)
		start_worker(wq);
	/* As the kernel's: a cancel in progress (-ENOENT) counts as pending. */
	return ret != 0;
}

/* ---- flushing ---- */

/* Under the lock: whether work's queueing number seq, or one before it, is still queued or running. */
static bool work_busy_until(struct work_struct *work, u64 seq)
{
	struct worker *w;

	if ((bits(work) & WORK_STRUCT_LISTED) && work->uirq_seq <= seq)
		return true;
	w = executing(work);
	return w && w->current_seq <= seq;
}

static bool __flush_work(struct work_struct *work, bool from_cancel)
{
	struct workqueue_struct *wq;
	unsigned long flags;
	struct worker *w;
	u64 target;

	if (WARN_ON(!work->func))
		return false;
	map_wait(&work->lockdep_map);
	LOCK(flags);
	if (bits(work) & WORK_STRUCT_LISTED) {
		target = work->uirq_seq;
		wq = work->uirq_wq;
	} else if ((w = executing(work))) {
		target = w->current_seq;
		wq = w->wq;
	} else {
		UNLOCK(flags);
		return false;
	}
	UNLOCK(flags);
	might_sleep();
	/* An ordered queue's work waiting for a later one on it never ends: the queue's map says so. */
	if (!from_cancel && wq->max_active == 1)
		map_wait(&wq->lockdep_map);
	LOCK(flags);
	while (work_busy_until(work, target))
		wait_done(&flags);
	UNLOCK(flags);
	return true;
}

bool flush_work(struct work_struct *work)
{
	return __flush_work(work, false);
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	unsigned long flags;
	bool start = false;

	LOCK(flags);
	if (del_timer(&dwork->timer))
		start = insert_work(dwork->wq, &dwork->work);
	UNLOCK(flags);
	if (start)
		start_worker(dwork->wq);
	return flush_work(&dwork->work);
}

/* Under the lock: whether wq still holds a queueing numbered seq or earlier. */
static bool wq_busy_until(struct workqueue_struct *wq, u64 seq)
{
	for (struct work_struct *w = wq->head; w; w = w->uirq_next)
		if (w->uirq_seq <= seq)
			return true;
	for (struct worker *w = busy_workers; w; w = w->next)
		if (w->wq == wq && w->current_seq <= seq)
			return true;
	return false;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	unsigned long flags;

	might_sleep();
	map_wait(&wq->lockdep_map);
	LOCK(flags);
	u64 target = queue_seq;

	while (wq_busy_until(wq, target))
		wait_done(&flags);
	UNLOCK(flags);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	unsigned long flags;
	bool busy;

	/* Flush until nothing is left: work its own callbacks queue (chained) is waited for too. */
	do {
		flush_workqueue(wq);
		LOCK(flags);
		busy = wq->head || wq->nr_busy;
		UNLOCK(flags);
	} while (busy);
}

/* ---- cancelling ---- */

static bool cancel(struct work_struct *work, bool is_dwork)
{
	unsigned long flags;
	int ret = grab(work, is_dwork, &flags);

	if (ret == -ENOENT) {
		UNLOCK(flags);
		return false;
	}
	clear_bits(work, WORK_STRUCT_PENDING);
	UNLOCK(flags);
	return ret;
}

bool cancel_work(struct work_struct *work)
{
	return cancel(work, false);
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	return cancel(&dwork->work, true);
}

static bool cancel_sync(struct work_struct *work, bool is_dwork)
{
	unsigned long flags;
	int ret;

	/* Another cancel owns it: wait for that one to end, then grab it ourselves. */
	while ((ret = grab(work, is_dwork, &flags)) == -ENOENT) {
		wait_done(&flags);
		UNLOCK(flags);
	}
	/* PENDING held and CANCELING set: queueing it fails until the callback in progress is over. */
	set_bits(work, WORK_STRUCT_CANCELING);
	UNLOCK(flags);
	__flush_work(work, true);
	LOCK(flags);
	clear_bits(work, (WORK_STRUCT_PENDING | WORK_STRUCT_CANCELING));
	bump_done();
	UNLOCK(flags);
	wake_done();
	return ret;
}

bool cancel_work_sync(struct work_struct *work)
{
	return cancel_sync(work, false);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return cancel_sync(&dwork->work, true);
}

bool work_busy(struct work_struct *work)
{
	unsigned long flags;
	bool busy;

	LOCK(flags);
	busy = executing(work) != NULL;
	UNLOCK(flags);
	return busy;
}

/* ---- workqueues of one's own ---- */

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...)
{
	struct workqueue_struct *wq = calloc(1, sizeof(*wq));
	va_list ap;

	if (!wq)
		return NULL;
	va_start(ap, max_active);
	vsnprintf(wq->name, sizeof(wq->name), fmt, ap);
	va_end(ap);
	wq->flags = flags;
	/* The kernel's bounds: 0 is the default, more than WQ_MAX_ACTIVE is cut to it. */
	if (max_active <= 0)
		max_active = WQ_DFL_ACTIVE;
	wq->max_active = max_active > WQ_MAX_ACTIVE ? WQ_MAX_ACTIVE : max_active;
	wq->allocated = true;
	snprintf(wq->lock_name, sizeof(wq->lock_name), "(wq_completion)%s", wq->name);
	uirq_lockdep_register_key(&wq->key);
	uirq_lockdep_init_map(&wq->lockdep_map, wq->lock_name, &wq->key, 0);
	return wq;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	unsigned long flags;

	LOCK(flags);
	wq->destroying = true;
	UNLOCK(flags);
	drain_workqueue(wq);
	LOCK(flags);
	while (wq->nr_workers)
		wait_done(&flags);
	UNLOCK(flags);
	if (wq->allocated) {
		uirq_lockdep_unregister_key(&wq->key);
		free(wq);
	}
}
