// SPDX-License-Identifier: MIT
/*
 * Workqueues, timers and completions (compat/workqueue.c, timer.c,
 * wait.c) with the kernel's semantics, each test over 200 seeds of the
 * deterministic mode, where the delays are virtual and exact: a work item
 * is queued once however often it is asked, a delayed one runs when its
 * delay is over and mod_delayed_work() moves it, cancel_*_sync() waits for
 * a running callback and says whether the work was pending, a work may
 * queue itself again, flush waits for what was queued before it; timers
 * fire at their expiry (hrtimers in hard-irq context), their cancels wait
 * for a running callback; completions count.  Lockdep stays silent,
 * except where a test makes the deadlock it must report.  (A flush of an
 * ordered queue from its own work is left out: lockdep reports it as the
 * kernel's does, but the wait then really never ends.)
 */
#define _GNU_SOURCE
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "harness.h"
#include "uirq/irq.h"
#include "uirq/printk.h"
#include "sim_runs.h"
#include "uirq/context.h"
#include "uirq/lockdep.h"

#define SEEDS	200
#define OPTS	.timeout = 240

static struct {
	int n;
	int by_kind[UIRQ_REPORT_NR_KINDS];
	char text[4096];
} rec;

static char logbuf[8192];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
}

/* A task that completes arg (a struct completion) after release_ms of virtual time. */
static u64 release_ms;

static void *releaser(void *arg)
{
	uirq_sim_sleep_ns(release_ms * SIM_MS);
	complete(arg);
	return NULL;
}

static void rec_handler(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	rec.n++;
	rec.by_kind[r->kind]++;
	if (!rec.text[0])
		snprintf(rec.text, sizeof(rec.text), "%s", r->text);
}

static void begin(unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };

	memset(&rec, 0, sizeof(rec));
	uirq_lockdep_set_report_handler(rec_handler, NULL);
	logbuf[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_cpus_start(&cfg), 0);
}

static void end(void)
{
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
	assert_eq(rec.n, 0, "lockdep: %s", rec.text);
}

static u64 now(void)
{
	return uirq_sim_clock_ns();
}

/* ---- a work item that counts its runs and can be held in its callback ---- */

static struct item {
	struct work_struct work;
	struct delayed_work dwork;
	int runs;
	u64 ran_at;			/* uirq's clock at the last run */
	struct completion started;	/* completed by each run */
	struct completion release;	/* a held run waits for it */
	bool hold;
	int requeue;			/* runs left that queue it again */
	int order[8], norder;
} a, b;

static int order_log[8], norder;

static void item_run(struct item *it)
{
	it->runs++;
	it->ran_at = now();
	order_log[norder++ & 7] = it == &a ? 1 : 2;
	complete(&it->started);
	if (it->hold)
		wait_for_completion(&it->release);
}

static void work_fn(struct work_struct *w)
{
	struct item *it = container_of(w, struct item, work);

	item_run(it);
	if (it->requeue > 0) {
		it->requeue--;
		assert_true(queue_work(system_wq, w), "a running work may queue itself again");
	}
}

static void dwork_fn(struct work_struct *w)
{
	struct item *it = container_of(to_delayed_work(w), struct item, dwork);

	item_run(it);
	if (it->requeue > 0) {
		it->requeue--;
		schedule_delayed_work(&it->dwork, 1);
	}
}

static void item_init(struct item *it)
{
	memset(it, 0, sizeof(*it));
	INIT_WORK(&it->work, work_fn);
	INIT_DELAYED_WORK(&it->dwork, dwork_fn);
	init_completion(&it->started);
	init_completion(&it->release);
}

static void begin_items(unsigned int cpus)
{
	begin(cpus);
	item_init(&a);
	item_init(&b);
	norder = 0;
}

/* Queued while pending: not queued twice (false), one run; once it ran, it can be queued again. */
SIM_TEST_SEEDS(compat_workqueue, queued_once_while_pending, SEEDS, begin_items, end, OPTS)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("ordered", 0);

	assert_not_null(wq);
	a.hold = true;
	assert_true(queue_work(wq, &a.work));
	wait_for_completion(&a.started);
	/* a holds the only worker of the ordered queue: b stays pending. */
	assert_true(queue_work(wq, &b.work));
	assert_false(queue_work(wq, &b.work), "pending: not queued twice");
	assert_true(work_pending(&b.work));
	complete(&a.release);
	flush_workqueue(wq);
	assert_eq(a.runs, 1);
	assert_eq(b.runs, 1);
	assert_false(work_pending(&b.work));
	assert_true(queue_work(wq, &b.work), "idle again: queued");
	flush_workqueue(wq);
	assert_eq(b.runs, 2);
	destroy_workqueue(wq);
}

/* An ordered queue runs its work one at a time in the order queued. */
SIM_TEST_SEEDS(compat_workqueue, ordered_queue_keeps_the_order, SEEDS, begin_items, end, OPTS)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("ordered", 0);

	assert_true(queue_work(wq, &b.work));
	assert_true(queue_work(wq, &a.work));
	flush_workqueue(wq);
	assert_eq(norder, 2);
	assert_eq(order_log[0], 2);
	assert_eq(order_log[1], 1);
	destroy_workqueue(wq);
}

/* A delayed work runs when its delay is over, on the virtual clock to the nanosecond. */
SIM_TEST_SEEDS(compat_workqueue, delayed_work_runs_after_its_delay, SEEDS, begin_items, end, OPTS)
{
	u64 t0 = now();

	assert_true(schedule_delayed_work(&a.dwork, msecs_to_jiffies(10)));
	assert_false(schedule_delayed_work(&a.dwork, msecs_to_jiffies(1)), "pending: the first delay stands");
	uirq_sim_sleep_ns(9 * SIM_MS);
	assert_eq(a.runs, 0);
	wait_for_completion(&a.started);
	assert_eq(a.ran_at - t0, 10 * SIM_MS);
	flush_delayed_work(&a.dwork);
	assert_eq(a.runs, 1);
}

/* mod_delayed_work() moves a pending work's time (true); on an idle one it queues (false). */
SIM_TEST_SEEDS(compat_workqueue, mod_delayed_work_rearms, SEEDS, begin_items, end, OPTS)
{
	u64 t0 = now();

	assert_false(mod_delayed_work(system_wq, &a.dwork, 10), "idle: queued, was not pending");
	uirq_sim_sleep_ns(5 * SIM_MS);
	assert_true(mod_delayed_work(system_wq, &a.dwork, 20), "pending: moved");
	wait_for_completion(&a.started);
	assert_eq(a.ran_at - t0, 25 * SIM_MS);
	uirq_sim_sleep_ns(50 * SIM_MS);
	assert_eq(a.runs, 1, "moved, not queued twice");
	/* A zero delay queues at once. */
	assert_false(mod_delayed_work(system_wq, &a.dwork, 0));
	flush_delayed_work(&a.dwork);
	assert_eq(a.runs, 2);
	assert_eq(a.ran_at - t0, 75 * SIM_MS);
}

/* cancel_delayed_work_sync() of a pending work: true, and it never runs; of an idle one: false. */
SIM_TEST_SEEDS(compat_workqueue, cancel_pending_delayed_work, SEEDS, begin_items, end, OPTS)
{
	assert_true(schedule_delayed_work(&a.dwork, 10));
	uirq_sim_sleep_ns(5 * SIM_MS);
	assert_true(cancel_delayed_work_sync(&a.dwork));
	assert_false(delayed_work_pending(&a.dwork));
	uirq_sim_sleep_ns(20 * SIM_MS);
	assert_eq(a.runs, 0);
	assert_false(cancel_delayed_work_sync(&a.dwork));
	/* cancel_delayed_work() (not waiting) says the same. */
	assert_true(schedule_delayed_work(&a.dwork, 10));
	assert_true(cancel_delayed_work(&a.dwork));
	assert_false(cancel_delayed_work(&a.dwork));
	uirq_sim_sleep_ns(20 * SIM_MS);
	assert_eq(a.runs, 0);
}

/* cancel_work_sync() of a running work waits for its callback to return; it was not pending: false. */
SIM_TEST_SEEDS(compat_workqueue, cancel_sync_waits_for_the_callback, SEEDS, begin_items, end, OPTS)
{
	struct completion *rel = &a.release;

	a.hold = true;
	assert_true(schedule_work(&a.work));
	wait_for_completion(&a.started);
	/* Release it from another task 3 ms from now: the cancel must wait that long. */
	u64 t0 = now();
	pthread_t t;

	release_ms = 3;
	assert_eq(uirq_sim_thread_create(&t, NULL, releaser, rel, "releaser"), 0);
	assert_false(cancel_work_sync(&a.work), "running, not pending");
	assert_eq(now() - t0, 3 * SIM_MS, "returned before the callback did");
	assert_false(work_busy(&a.work));
	assert_eq(a.runs, 1);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
}

/* A work queuing itself again runs again; cancel_work_sync() stops the chain, pending or running. */
SIM_TEST_SEEDS(compat_workqueue, self_requeue_and_its_cancel, SEEDS, begin_items, end, OPTS)
{
	a.requeue = 3;
	assert_true(schedule_work(&a.work));
	while (a.runs < 4)
		uirq_sim_sleep_ns(SIM_MS);
	flush_work(&a.work);
	assert_eq(a.runs, 4);
	/* A delayed work re-arming itself every jiffy without end, until cancelled. */
	a.requeue = 1 << 30;
	assert_true(schedule_delayed_work(&a.dwork, 1));
	uirq_sim_sleep_ns(10 * SIM_MS + SIM_MS / 2);
	cancel_delayed_work_sync(&a.dwork);
	int runs = a.runs;

	assert_ge(runs, 4 + 9);
	uirq_sim_sleep_ns(10 * SIM_MS);
	assert_eq(a.runs, runs, "ran after its cancel");
	assert_false(delayed_work_pending(&a.dwork));
}

/* flush_work() waits for the queueing pending at the call (true); nothing pending or running: false. */
SIM_TEST_SEEDS(compat_workqueue, flush_waits_for_what_was_queued, SEEDS, begin_items, end, OPTS)
{
	pthread_t t;
	u64 t0;

	assert_false(flush_work(&a.work));
	a.hold = true;
	assert_true(schedule_work(&a.work));
	wait_for_completion(&a.started);
	t0 = now();
	release_ms = 2;
	assert_eq(uirq_sim_thread_create(&t, NULL, releaser, &a.release, "releaser"), 0);
	assert_true(flush_work(&a.work), "running: waited for");
	assert_eq(now() - t0, 2 * SIM_MS);
	assert_eq(a.runs, 1);
	assert_false(flush_work(&a.work));
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	a.hold = false;
	assert_true(schedule_work(&a.work));
	assert_true(schedule_work(&b.work));
	flush_scheduled_work();
	assert_eq(a.runs, 2);
	assert_eq(b.runs, 1);
}

/* destroy_workqueue() runs what its queue holds, chained work too, and ends its workers. */
SIM_TEST_SEEDS(compat_workqueue, destroy_drains, SEEDS, begin_items, end, OPTS)
{
	struct workqueue_struct *wq = alloc_workqueue("mine%d", 0, 0, 1);

	assert_true(queue_work(wq, &a.work));
	assert_true(queue_work(wq, &b.work));
	destroy_workqueue(wq);
	assert_eq(a.runs, 1);
	assert_eq(b.runs, 1);
}

/* ---- lockdep ---- */

static DEFINE_MUTEX(big_lock);

static void locking_fn(struct work_struct *w)
{
	(void)w;
	mutex_lock(&big_lock);
	mutex_unlock(&big_lock);
}

/*
 * cancel_work_sync() under a lock the work's callback takes is a deadlock
 * whenever the callback is running: lockdep reports the cycle (the lock,
 * then the work's map) as the kernel's does, from the dependency alone.
 */
static void cancel_under_lock(void)
{
	struct work_struct w;

	INIT_WORK(&w, locking_fn);
	assert_true(schedule_work(&w));
	flush_work(&w);
	assert_eq(rec.n, 0, "%s", rec.text);
	mutex_lock(&big_lock);
	cancel_work_sync(&w);
	mutex_unlock(&big_lock);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1, "%s", rec.text);
	assert_not_null(strstr(rec.text, "(work_completion)"), "%s", rec.text);
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
}

/* One seed only: once reported, a dependency is known and never reported again in the process. */
UIRQ_TEST(compat_workqueue, cancel_sync_under_the_works_lock_is_reported, OPTS)
{
	sim_run_one(1, 1, begin, cancel_under_lock, NULL);
}

/* ---- timers ---- */

static struct tstate {
	struct timer_list timer;
	struct hrtimer hr;
	int runs;
	u64 at[4];
	bool hardirq, irqs_off, atomic;
	int restarts;
	bool hold;
	struct completion started, release;
} ts;

static void timer_fn(struct timer_list *t)
{
	struct tstate *s = from_timer(s, t, timer);

	s->at[s->runs++ & 3] = now();
	s->hardirq = uirq_in_hardirq();
	s->atomic = uirq_in_atomic();
}

static enum hrtimer_restart hr_fn(struct hrtimer *t)
{
	struct tstate *s = container_of(t, struct tstate, hr);

	s->at[s->runs++ & 3] = now();
	s->hardirq = uirq_in_hardirq();
	s->irqs_off = uirq_irqs_disabled();
	if (s->restarts > 0) {
		s->restarts--;
		hrtimer_forward_now(t, ms_to_ktime(2));
		return HRTIMER_RESTART;
	}
	return HRTIMER_NORESTART;
}

static void begin_timers(unsigned int cpus)
{
	begin(cpus);
	memset(&ts, 0, sizeof(ts));
	timer_setup(&ts.timer, timer_fn, 0);
	hrtimer_init(&ts.hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	ts.hr.function = hr_fn;
	init_completion(&ts.started);
	init_completion(&ts.release);
}

/* mod_timer() fires at its expiry in jiffies, in an atomic (softirq-like) context, not hard-irq. */
SIM_TEST_SEEDS(compat_timer, timer_fires_at_its_expiry, SEEDS, begin_timers, end, OPTS)
{
	u64 t0 = now();

	assert_eq(mod_timer(&ts.timer, jiffies + 7), 0);
	assert_true(timer_pending(&ts.timer));
	assert_eq(mod_timer(&ts.timer, jiffies + 4), 1, "pending: moved");
	uirq_sim_sleep_ns(10 * SIM_MS);
	assert_eq(ts.runs, 1);
	/* jiffies are whole ms of uirq's clock: the expiry is 4 ms from when it was moved. */
	assert_eq(ts.at[0] - t0, 4 * SIM_MS);
	assert_true(ts.atomic);
	assert_false(ts.hardirq);
	assert_false(timer_pending(&ts.timer));
	/* Disarmed before its time: 1, and no run. */
	assert_eq(mod_timer(&ts.timer, jiffies + 5), 0);
	assert_eq(del_timer_sync(&ts.timer), 1);
	assert_eq(del_timer(&ts.timer), 0);
	uirq_sim_sleep_ns(10 * SIM_MS);
	assert_eq(ts.runs, 1);
}

/* An hrtimer fires after its relative time to the nanosecond, in hard-irq context with interrupts off. */
SIM_TEST_SEEDS(compat_timer, hrtimer_fires_in_hardirq, SEEDS, begin_timers, end, OPTS)
{
	u64 t0 = now();

	hrtimer_start(&ts.hr, ns_to_ktime(1500 * 1000), HRTIMER_MODE_REL);
	assert_true(hrtimer_active(&ts.hr));
	uirq_sim_sleep_ns(2 * SIM_MS);
	assert_eq(ts.runs, 1);
	assert_eq(ts.at[0] - t0, 1500 * SIM_US);
	assert_true(ts.hardirq);
	assert_true(ts.irqs_off);
	assert_false(hrtimer_active(&ts.hr));
	/* Restarted twice by its callback, 2 ms apart. */
	ts.restarts = 2;
	t0 = now();
	hrtimer_start(&ts.hr, ms_to_ktime(1), HRTIMER_MODE_REL);
	uirq_sim_sleep_ns(10 * SIM_MS);
	assert_eq(ts.runs, 4);
	assert_eq(ts.at[1] - t0, 1 * SIM_MS);
	assert_eq(ts.at[2] - t0, 3 * SIM_MS);
	assert_eq(ts.at[3] - t0, 5 * SIM_MS);
	/* Cancelled while queued: 1; idle: 0. */
	hrtimer_start(&ts.hr, ms_to_ktime(1), HRTIMER_MODE_REL);
	assert_eq(hrtimer_cancel(&ts.hr), 1);
	assert_eq(hrtimer_cancel(&ts.hr), 0);
	uirq_sim_sleep_ns(5 * SIM_MS);
	assert_eq(ts.runs, 4);
}

static enum hrtimer_restart slow_hr_fn(struct hrtimer *t)
{
	struct tstate *s = container_of(t, struct tstate, hr);

	complete(&s->started);
	/* A busy hard-irq callback: spin (yielding) until told, as a long one would hold its CPU. */
	while (!completion_done(&s->release))
		uirq_sim_yield();
	s->runs++;
	return HRTIMER_NORESTART;
}

/* hrtimer_cancel() waits for a callback in progress; hrtimer_try_to_cancel() says -1 then. */
SIM_TEST_SEEDS(compat_timer, hrtimer_cancel_waits_for_the_callback, SEEDS, begin_timers, end, OPTS)
{
	pthread_t t;

	ts.hr.function = slow_hr_fn;
	hrtimer_start(&ts.hr, ms_to_ktime(1), HRTIMER_MODE_REL);
	wait_for_completion(&ts.started);
	assert_eq(hrtimer_try_to_cancel(&ts.hr), -1);
	assert_true(hrtimer_callback_running(&ts.hr));
	release_ms = 2;
	assert_eq(uirq_sim_thread_create(&t, NULL, releaser, &ts.release, "releaser"), 0);
	assert_eq(hrtimer_cancel(&ts.hr), 0);
	assert_eq(ts.runs, 1, "returned before the callback did");
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
}

/* ---- completions and wait queues ---- */

static struct completion done;
static DECLARE_WAIT_QUEUE_HEAD(wq_head);
static int cond_value, woken;

static void *completer(void *arg)
{
	uirq_sim_sleep_ns((u64)(uintptr_t)arg * SIM_MS);
	complete(&done);
	return NULL;
}

static void *all_completer(void *arg)
{
	(void)arg;
	uirq_sim_sleep_ns(SIM_MS);
	complete_all(&done);
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	wait_for_completion(&done);
	__atomic_fetch_add(&woken, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	uirq_sim_sleep_ns(4 * SIM_MS);
	cond_value = 1;
	wake_up(&wq_head);
	return NULL;
}

static void begin_wait(unsigned int cpus)
{
	begin(cpus);
	init_completion(&done);
	cond_value = 0;
	woken = 0;
}

/* Timeouts on the virtual clock: 0 when the time passed, else the jiffies left. */
SIM_TEST_SEEDS(compat_completion, counts_and_times_out, SEEDS, begin_wait, end, OPTS)
{
	pthread_t t, w[3];
	u64 t0 = now();

	complete(&done);
	assert_true(completion_done(&done));
	wait_for_completion(&done);
	assert_false(completion_done(&done));
	assert_eq(wait_for_completion_timeout(&done, 5), 0);
	assert_eq(now() - t0, 5 * SIM_MS);
	assert_eq(uirq_sim_thread_create(&t, NULL, completer, (void *)(uintptr_t)3, "completer"), 0);
	assert_eq(wait_for_completion_timeout(&done, 10), 7, "the jiffies left");
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	/* complete_all() releases every waiter, and any later one, until reinit. */
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_sim_thread_create(&w[i], NULL, waiter, NULL, "waiter"), 0);
	assert_eq(uirq_sim_thread_create(&t, NULL, all_completer, NULL, "completer"), 0);
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_sim_thread_join(w[i], NULL), 0);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	assert_eq(woken, 3);
	assert_true(try_wait_for_completion(&done));
	reinit_completion(&done);
	assert_false(try_wait_for_completion(&done));
	/* wait_event_timeout(): the condition at the wake-up, after 4 of 10 jiffies. */
	t0 = now();
	assert_eq(uirq_sim_thread_create(&t, NULL, setter, NULL, "setter"), 0);
	assert_eq(wait_event_timeout(wq_head, cond_value == 1, 10), 6);
	assert_eq(now() - t0, 4 * SIM_MS);
	assert_eq(wait_event_timeout(wq_head, cond_value == 2, 3), 0);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
}
