// SPDX-License-Identifier: MIT
/*
 * Timers (<linux/timer.h>, <linux/hrtimer.h>) on uirq's clock: one list
 * of armed timers, soonest first, and one thread - "ktimers", a task of
 * the deterministic mode when a task arms the first timer - that sleeps
 * until the soonest expiry and runs the callbacks, one at a time, as a
 * CPU's timer interrupt and timer softirq do.  The sleep is uirq's wait
 * word with a timeout, so in the deterministic mode expiries are virtual:
 * time moves to the next one when nothing else can run.
 *
 * The thread exists only while timers are armed: it ends when the list is
 * empty and the next arming starts another.  A process (or a seeded run)
 * with no timer pending has no thread left to stop, as uirq_sim_stop()
 * requires; a timer still armed at the end of a run keeps it going until
 * it fires, as a kernel timer outlives nothing that would cancel it.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include <linux/hrtimer.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include "uirq/context.h"
#include "uirq/sim.h"

#define NSEC_PER_JIFFY	1000000ull	/* HZ=1000 */

static struct {
	uirq_spinlock_t lock;
	struct uirq_ktimer *head;	/* armed, by deadline then arming order */
	u64 seq;
	struct uirq_ktimer *running;	/* the callback in progress */
	bool alive;
	uint32_t wake;			/* bumped when the soonest expiry changes: the thread's word */
	uint32_t done;			/* bumped after each callback: the cancellers' word */
} base = { .lock = UIRQ_SPINLOCK_UNLOCKED(timer_base) };

static void *timer_thread(void *arg);
static __thread bool in_timer_thread;
UIRQ_SIM_TASK_LOCAL(in_timer_thread)

/* Under the lock: out of the list, if in it; whether it was. */
static bool dequeue(struct uirq_ktimer *t)
{
	if (!t->queued)
		return false;
	for (struct uirq_ktimer **pp = &base.head; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
	__atomic_store_n(&t->queued, false, __ATOMIC_SEQ_CST);
	return true;
}

/* Under the lock: into the list at deadline; whether the thread has to be started. */
static bool enqueue(struct uirq_ktimer *t, u64 deadline)
{
	struct uirq_ktimer **pp = &base.head;

	dequeue(t);
	t->deadline = deadline;
	t->seq = ++base.seq;
	while (*pp && (*pp)->deadline <= deadline)
		pp = &(*pp)->next;
	t->next = *pp;
	*pp = t;
	__atomic_store_n(&t->queued, true, __ATOMIC_SEQ_CST);
	if (pp == &base.head) {
		/* A new soonest expiry: the thread sleeps until the old one, so wake it to look again. */
		__atomic_fetch_add(&base.wake, 1, __ATOMIC_SEQ_CST);
	}
	if (base.alive)
		return false;
	base.alive = true;
	return true;
}

/* After the lock is dropped: the thread the arming asked for, or an error and no thread. */
static void start_thread(bool needed)
{
	pthread_attr_t attr;
	pthread_t thread;
	int err;

	if (!needed) {
		uirq_sim_wake_word(&base.wake, INT_MAX);
		return;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = uirq_sim_thread_create(&thread, &attr, timer_thread, NULL, "ktimers");
	pthread_attr_destroy(&attr);
	if (err) {
		unsigned long flags;

		pr_err("timers: cannot start the timer thread: %d\n", -err);
		uirq_spin_lock_irqsave(&base.lock, flags);
		base.alive = false;
		uirq_spin_unlock_irqrestore(&base.lock, flags);
	}
}

static void *timer_thread(void *arg)
{
	unsigned long flags;

	(void)arg;
	in_timer_thread = true;
	uirq_spin_lock_irqsave(&base.lock, flags);
	for (;;) {
		struct uirq_ktimer *t = base.head;
		u64 now = uirq_sim_clock_ns();

		if (!t) {
			base.alive = false;
			break;
		}
		if (t->deadline > now) {
			uint32_t w = __atomic_load_n(&base.wake, __ATOMIC_SEQ_CST);

			uirq_spin_unlock_irqrestore(&base.lock, flags);
			uirq_sim_wait_word(&base.wake, w, t->deadline - now);
			uirq_spin_lock_irqsave(&base.lock, flags);
			continue;
		}
		dequeue(t);
		__atomic_store_n(&base.running, t, __ATOMIC_SEQ_CST);
		uirq_spin_unlock_irqrestore(&base.lock, flags);
		t->run(t);
		uirq_spin_lock_irqsave(&base.lock, flags);
		__atomic_store_n(&base.running, NULL, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&base.done, 1, __ATOMIC_SEQ_CST);
		uirq_sim_wake_word(&base.done, INT_MAX);
	}
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	return NULL;
}

/* Dequeue t and, if its callback is running on another thread, wait for it: whether it was queued. */
static bool cancel_sync(struct uirq_ktimer *t, const char *what)
{
	unsigned long flags;
	bool was;

	uirq_spin_lock_irqsave(&base.lock, flags);
	was = dequeue(t);
	while (base.running == t) {
		uint32_t d = __atomic_load_n(&base.done, __ATOMIC_SEQ_CST);

		/* The kernel's callback waiting for itself would hang; say so and return instead. */
		if (in_timer_thread) {
			uirq_spin_unlock_irqrestore(&base.lock, flags);
			WARN(1, "%s() of the timer whose callback calls it\n", what);
			return was;
		}
		uirq_spin_unlock_irqrestore(&base.lock, flags);
		uirq_sim_wait_word(&base.done, d, UIRQ_SIM_WAIT_FOREVER);
		uirq_spin_lock_irqsave(&base.lock, flags);
	}
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	return was;
}

static u64 jiffies_to_deadline(unsigned long expires)
{
	u64 now = uirq_sim_clock_ns();
	long delta = (long)(expires - jiffies);

	/* An expiry already past runs at once, as the wheel runs a timer armed in the past at the next tick. */
	return delta <= 0 ? now : now + (u64)delta * NSEC_PER_JIFFY;
}

/* ---- struct timer_list ---- */

/* The softirq's stand-in: an atomic context, and the timer's lockdep map held as the kernel's call_timer_fn() holds it. */
static void run_timer(struct uirq_ktimer *node)
{
	struct timer_list *timer = container_of(node, struct timer_list, uirq_node);
	struct lockdep_map map = timer->lockdep_map;	/* the callback may free the timer */

	uirq_preempt_disable();
	uirq_lock_acquire(&map, 0, 0, 0, (unsigned long)__builtin_return_address(0), __FILE__, __LINE__);
	timer->function(timer);
	uirq_lock_release(&map, (unsigned long)__builtin_return_address(0), __FILE__, __LINE__);
	uirq_preempt_enable();
}

void uirq_timer_init_key(struct timer_list *timer, void (*func)(struct timer_list *), unsigned int flags,
			 const char *name, struct lock_class_key *key)
{
	memset(timer, 0, sizeof(*timer));
	timer->function = func;
	timer->flags = flags;
	timer->uirq_node.run = run_timer;
	uirq_lockdep_init_map(&timer->lockdep_map, name, key, 0);
}

static int arm(struct timer_list *timer, unsigned long expires, bool only_pending, bool reduce)
{
	unsigned long flags;
	bool was, start = false;

	uirq_spin_lock_irqsave(&base.lock, flags);
	was = timer->uirq_node.queued;
	if (only_pending && !was) {
		uirq_spin_unlock_irqrestore(&base.lock, flags);
		return 0;
	}
	if (!(reduce && was && time_before_eq(timer->expires, expires))) {
		timer->expires = expires;
		start = enqueue(&timer->uirq_node, jiffies_to_deadline(expires));
	}
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	start_thread(start);
	return was;
}

void add_timer(struct timer_list *timer)
{
	WARN_ON(timer_pending(timer));
	arm(timer, timer->expires, false, false);
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	return arm(timer, expires, false, false);
}

int mod_timer_pending(struct timer_list *timer, unsigned long expires)
{
	return arm(timer, expires, true, false);
}

int timer_reduce(struct timer_list *timer, unsigned long expires)
{
	return arm(timer, expires, false, true);
}

int del_timer(struct timer_list *timer)
{
	unsigned long flags;
	bool was;

	uirq_spin_lock_irqsave(&base.lock, flags);
	was = dequeue(&timer->uirq_node);
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	return was;
}

int del_timer_sync(struct timer_list *timer)
{
	/* The kernel's: waiting for the callback is taking what it runs under, for lockdep. */
	uirq_lock_acquire(&timer->lockdep_map, 0, 0, 0, (unsigned long)__builtin_return_address(0), __FILE__,
			  __LINE__);
	uirq_lock_release(&timer->lockdep_map, (unsigned long)__builtin_return_address(0), __FILE__, __LINE__);
	might_sleep();
	return cancel_sync(&timer->uirq_node, "del_timer_sync");
}

int timer_pending(const struct timer_list *timer)
{
	return __atomic_load_n(&timer->uirq_node.queued, __ATOMIC_SEQ_CST);
}

/* ---- struct hrtimer ---- */

/* The hrtimer interrupt's context: hard-irq, interrupts off (a _SOFT timer: the softirq's stand-in). */
static void run_hrtimer(struct uirq_ktimer *node)
{
	struct hrtimer *timer = container_of(node, struct hrtimer, uirq_node);
	bool soft = timer->uirq_soft;
	enum hrtimer_restart r;
	unsigned long irqflags = 0, flags;

	if (soft) {
		uirq_preempt_disable();
	} else {
		irqflags = uirq_local_irq_save();
		uirq_hardirq_enter();
	}
	r = timer->function(timer);
	if (soft) {
		uirq_preempt_enable();
	} else {
		uirq_hardirq_exit();
		uirq_local_irq_restore(irqflags);
	}
	if (r != HRTIMER_RESTART)
		return;
	/* Again at the expiry the callback forwarded it to, unless it was started meanwhile. */
	uirq_spin_lock_irqsave(&base.lock, flags);
	bool start = node->queued ? false : enqueue(node, (u64)(timer->expires > 0 ? timer->expires : 0));
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	start_thread(start);
}

void hrtimer_init(struct hrtimer *timer, clockid_t which_clock, enum hrtimer_mode mode)
{
	(void)which_clock;
	memset(timer, 0, sizeof(*timer));
	timer->uirq_node.run = run_hrtimer;
	timer->uirq_node.hard = !(mode & HRTIMER_MODE_SOFT);
	timer->uirq_soft = mode & HRTIMER_MODE_SOFT;
}

void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns, const enum hrtimer_mode mode)
{
	unsigned long flags;
	bool start;

	(void)range_ns;
	uirq_spin_lock_irqsave(&base.lock, flags);
	if (mode & HRTIMER_MODE_REL)
		tim += ktime_get();
	timer->expires = tim;
	start = enqueue(&timer->uirq_node, tim > 0 ? (u64)tim : 0);
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	start_thread(start);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags;
	int ret;

	uirq_spin_lock_irqsave(&base.lock, flags);
	if (dequeue(&timer->uirq_node))
		ret = 1;
	else
		ret = base.running == &timer->uirq_node ? -1 : 0;
	uirq_spin_unlock_irqrestore(&base.lock, flags);
	return ret;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	return cancel_sync(&timer->uirq_node, "hrtimer_cancel");
}

bool hrtimer_is_queued(struct hrtimer *timer)
{
	return __atomic_load_n(&timer->uirq_node.queued, __ATOMIC_SEQ_CST);
}

bool hrtimer_callback_running(struct hrtimer *timer)
{
	return __atomic_load_n(&base.running, __ATOMIC_SEQ_CST) == &timer->uirq_node;
}

bool hrtimer_active(const struct hrtimer *timer)
{
	return __atomic_load_n(&timer->uirq_node.queued, __ATOMIC_SEQ_CST) ||
	       __atomic_load_n(&base.running, __ATOMIC_SEQ_CST) == &timer->uirq_node;
}

u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	ktime_t delta = now - timer->expires;
	u64 n;

	if (delta < 0 || interval <= 0)
		return 0;
	n = (u64)(delta / interval) + 1;
	timer->expires += (ktime_t)n * interval;
	return n;
}
