// SPDX-License-Identifier: MIT
/*
 * Hung handler threads (the kernel's khungtaskd, kernel/hung_task.c, for
 * irq threads): a thread whose one run of its handler lasts longer than the
 * deadline is reported once for that run, and again only for a later run
 * that hangs too.
 *
 * A run costs the hot path one relaxed store: the thread numbers it
 * (action->run_seq) before setting IRQTF_INRUN, which it sets anyway.  The
 * watchdog, a thread of its own, samples both every quarter deadline and
 * times a run from when it first saw it: a run is reported no earlier than
 * the deadline after it began, at most a period later.  It runs while the
 * CPUs run and the deadline is not 0; uirq_cpus_stop() stops it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "uirq/printk.h"

#include "internals.h"

#define HUNG_NOTES	16	/* reports per pass; more wait for the next */
#define WATCHDOG_NAME	"uirq/hungtaskd"

static pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;	/* start/stop */
static bool cpus_on, running;
static pthread_t watchdog;
static atomic_uint deadline_ms;

/*
 * The watchdog's sleep, a futex wait on a word that stop and deadline
 * changes bump: uirq's own wait, so the deterministic mode schedules it
 * and times it on the virtual clock.
 */
static atomic_uint wake_word;
static atomic_bool stop;

struct hung_note {
	unsigned int irq;
	pid_t tid;
	bool secondary;
	const char *name;
	uirq_irq_handler_t fn;
	unsigned int ms;
};

struct hung_scan {
	unsigned int now;
	unsigned int deadline;
	unsigned int n;
	struct hung_note notes[HUNG_NOTES];
};

static void wake_watchdog(void)
{
	atomic_fetch_add(&wake_word, 1);
	uirq_futex_wake(&wake_word, 1);
}

/* desc->lock held: the action cannot be freed under us. */
static void check_action(struct hung_scan *s, struct uirq_irq_desc *desc, struct uirq_irqaction *a,
			 bool secondary)
{
	unsigned int flags, seq;

	if (!a || !a->has_thread)
		return;
	flags = atomic_load(&a->thread_flags);
	if (!(flags & IRQTF_INRUN)) {
		a->hung_seq = 0;
		return;
	}
	/* Numbered before INRUN was set: at least the number of the run seen. */
	seq = atomic_load_explicit(&a->run_seq, memory_order_relaxed);
	if (seq != a->hung_seq) {
		a->hung_seq = seq;
		a->hung_since = s->now;
		a->hung_reported = false;
		return;
	}
	if (a->hung_reported || s->now - a->hung_since < s->deadline || s->n == HUNG_NOTES)
		return;
	a->hung_reported = true;
	s->notes[s->n++] = (struct hung_note){
		.irq = desc->irq_data.irq, .tid = a->tid, .secondary = secondary, .name = a->name,
		.fn = a->thread_fn, .ms = s->now - a->hung_since,
	};
}

static void scan_desc(struct uirq_irq_desc *desc, void *arg)
{
	struct uirq_irqaction *action;
	unsigned long flags;

	uirq_spin_lock_irqsave(&desc->lock, flags);
	for_each_action_of_desc(desc, action) {
		check_action(arg, desc, action, false);
		check_action(arg, desc, action->secondary, true);
	}
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
}

/* "0.25", "2": the deadline in the kernel's unit. */
static void format_secs(char *buf, size_t len, unsigned int ms)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%u", ms / 1000);
	else if (ms % 100 == 0)
		snprintf(buf, len, "%u.%u", ms / 1000, ms % 1000 / 100);
	else if (ms % 10 == 0)
		snprintf(buf, len, "%u.%02u", ms / 1000, ms % 1000 / 10);
	else
		snprintf(buf, len, "%u.%03u", ms / 1000, ms % 1000);
}

static void report(const struct hung_note *n, unsigned int deadline)
{
	char comm[64], secs[24], sym[160];

	snprintf(comm, sizeof(comm), n->secondary ? "irq/%u-s-%s" : "irq/%u-%s", n->irq, n->name ? n->name : "");
	comm[15] = '\0';	/* TASK_COMM_LEN, as the thread is named */
	format_secs(secs, sizeof(secs), deadline);
	uirq_log_printk("INFO: task %s:%d blocked for more than %s seconds.\n"
			"      irq %u, action \"%s\", thread_fn %s, in one run for %u ms so far\n"
			"\"uirq_irq_set_thread_deadline_ms(0)\" disables this message.\n",
			comm, (int)n->tid, secs, n->irq, n->name ? n->name : "",
			uirq_symbol((const void *)n->fn, sym, sizeof(sym)), n->ms);
}

static void *watchdog_fn(void *arg)
{
	(void)arg;
	uirq_task_set_comm(WATCHDOG_NAME);
	/* It only reports: in the deterministic mode its period must not hide a deadlock. */
	uirq_sim_set_daemon();
	for (;;) {
		unsigned int d = atomic_load(&deadline_ms);
		unsigned int period = d / 4 < 5 ? 5 : d / 4 > 1000 ? 1000 : d / 4;
		unsigned int word = atomic_load(&wake_word);

		if (atomic_load(&stop))
			break;
		uirq_futex_wait_timeout(&wake_word, word, (uint64_t)period * 1000000u);
		if (atomic_load(&stop))
			break;
		d = atomic_load(&deadline_ms);
		if (!d)
			continue;

		struct hung_scan s = { .now = (unsigned int)uirq_jiffies(), .deadline = d };

		irq_for_each_desc(scan_desc, &s);
		for (unsigned int i = 0; i < s.n; i++)
			report(&s.notes[i], d);
	}
	return NULL;
}

/* ctl_lock held. */
static int start_locked(void)
{
	int err;

	if (running || !cpus_on || !atomic_load(&deadline_ms))
		return 0;
	atomic_store(&stop, false);
	err = uirq_sim_thread_create(&watchdog, NULL, watchdog_fn, NULL, WATCHDOG_NAME);
	if (err)
		return -err;
	/* Named from here too: it is there by name once the call returns (a task is named at its creation). */
	if (!uirq_sim_is_task_thread(watchdog))
		pthread_setname_np(watchdog, WATCHDOG_NAME);
	running = true;
	return 0;
}

/* ctl_lock held; the watchdog never takes it, so joining under it is safe. */
static void stop_locked(void)
{
	if (!running)
		return;
	atomic_store(&stop, true);
	wake_watchdog();
	uirq_sim_thread_join(watchdog, NULL);
	running = false;
}

int uirq_irq_set_thread_deadline_ms(unsigned int ms)
{
	int ret = 0;

	pthread_mutex_lock(&ctl_lock);
	atomic_store(&deadline_ms, ms);
	if (!ms) {
		stop_locked();
	} else if (running) {
		/* A new period from now. */
		wake_watchdog();
	} else {
		ret = start_locked();
	}
	pthread_mutex_unlock(&ctl_lock);
	return ret;
}

unsigned int uirq_irq_get_thread_deadline_ms(void)
{
	return atomic_load(&deadline_ms);
}

void irq_hung_cpus_started(void)
{
	pthread_mutex_lock(&ctl_lock);
	cpus_on = true;
	if (start_locked())
		uirq_printk("uirq: hung irq thread watchdog not started\n");
	pthread_mutex_unlock(&ctl_lock);
}

void irq_hung_cpus_stopped(void)
{
	pthread_mutex_lock(&ctl_lock);
	cpus_on = false;
	stop_locked();
	pthread_mutex_unlock(&ctl_lock);
}
