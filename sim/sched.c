// SPDX-License-Identifier: MIT
/*
 * The deterministic scheduler (sim.h): tasks are coroutines on the thread
 * that started the mode (coro.c), and at each synchronisation point the
 * running task picks the next and switches to it.  Every decision is
 * drawn from splitmix64 (Steele, Lea, Flood 2014) seeded by the caller and
 * logged, so one seed gives one interleaving.  One task runs at a time on
 * one thread: the state below needs no lock (the stall watcher, another
 * thread, reads only its atomics).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "../lib/lib.h"
#include "internal.h"
#include "replay.h"
#include "uirq/printk.h"

struct uirq_sim_state uirq_sim;
_Atomic uint64_t uirq_sim_progress;
_Atomic(struct uirq_sim_task *) uirq_sim_holder;
bool uirq_sim_on;
static uint64_t pct_horizon = 1000;
static void (*failure_fn)(const char *, void *);
static void *failure_arg;
static atomic_uint outside;	/* joinable threads uirq_sim_thread_create() made outside the mode, running */

__thread struct uirq_sim_task *uirq_sim_current __attribute__((tls_model("initial-exec")));

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		uirq_log_write("uirq sim: out of memory\n");
		abort();
	}
	return p;
}

static uint64_t splitmix64(void)
{
	uint64_t z = (uirq_sim.rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) by multiply-high (Lemire): no modulo bias worth naming. */
static uint64_t bounded(uint64_t n)
{
	return (uint64_t)(((unsigned __int128)splitmix64() * n) >> 64);
}

static void fnv(uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		uirq_sim.hash ^= (v >> (8 * i)) & 0xff;
		uirq_sim.hash *= 0x100000001b3ull;
	}
}

static void log_step(struct uirq_sim_task *t, enum uirq_sim_reason r)
{
	if (uirq_sim.tlen == uirq_sim.tcap) {
		uirq_sim.tcap = uirq_sim.tcap ? 2 * uirq_sim.tcap : 256;
		uirq_sim.trace = xrealloc(uirq_sim.trace, uirq_sim.tcap * sizeof(*uirq_sim.trace));
	}
	uirq_sim.trace[uirq_sim.tlen] = (struct uirq_sim_step){ uirq_sim.tlen, t->id, r };
	fnv(uirq_sim.tlen, 8);
	fnv(t->id, 4);
	fnv(r, 4);
	uirq_sim.tlen++;
	atomic_store_explicit(&uirq_sim_progress, uirq_sim.tlen, memory_order_relaxed);
	atomic_store_explicit(&uirq_sim_holder, t, memory_order_release);
}

static struct uirq_sim_task *task_new(const char *name)
{
	struct uirq_sim_task *t = xrealloc(NULL, sizeof(*t));

	memset(t, 0, sizeof(*t));
	if (uirq_sim.ntasks == uirq_sim.cap) {
		uirq_sim.cap = uirq_sim.cap ? 2 * uirq_sim.cap : 16;
		uirq_sim.tasks = xrealloc(uirq_sim.tasks, uirq_sim.cap * sizeof(*uirq_sim.tasks));
		uirq_sim.cand = xrealloc(uirq_sim.cand, uirq_sim.cap * sizeof(*uirq_sim.cand));
		uirq_sim.live = xrealloc(uirq_sim.live, uirq_sim.cap * sizeof(*uirq_sim.live));
	}
	t->id = uirq_sim.ntasks;
	if (name)
		snprintf(t->name, sizeof(t->name), "%s", name);
	else
		snprintf(t->name, sizeof(t->name), "task%u", t->id);
	t->deadline = NO_DEADLINE;
	/* PCT's initial priorities lie above every priority a change point gives. */
	t->prio = (1ull << 40) + (splitmix64() >> 24);
	uirq_sim.names = xrealloc(uirq_sim.names, (uirq_sim.ntasks + 1) * sizeof(*uirq_sim.names));
	memcpy(uirq_sim.names[uirq_sim.ntasks], t->name, sizeof(t->name));
	uirq_sim.nnames = uirq_sim.ntasks + 1;
	uirq_sim.tasks[uirq_sim.ntasks++] = t;
	uirq_sim.live[uirq_sim.nlive++] = t;
	uirq_sim.alive++;
	return t;
}

/* Out of the scan for good (it exited and nobody will join it). */
static void reap(struct uirq_sim_task *t)
{
	for (size_t i = 0; i < uirq_sim.nlive; i++)
		if (uirq_sim.live[i] == t) {
			memmove(&uirq_sim.live[i], &uirq_sim.live[i + 1], (uirq_sim.nlive - i - 1) * sizeof(*uirq_sim.live));
			uirq_sim.nlive--;
			return;
		}
}

static void dequeue(struct uirq_sim_task *t)
{
	for (struct uirq_sim_task **p = &uirq_sim.qhead; *p; p = &(*p)->qnext)
		if (*p == t) {
			*p = t->qnext;
			t->qnext = NULL;
			return;
		}
}

void uirq_sim_make_runnable(struct uirq_sim_task *t, int result)
{
	if (t->state == T_FUTEX)
		dequeue(t);
	t->state = T_RUNNABLE;
	t->deadline = NO_DEADLINE;
	t->wait_result = result;
}

/* The last pick()'s canonical choice (replay.c), against which the decision is recorded. */
static struct uirq_sim_task *canon;

/* The strategy's choice for me among the runnable tasks but skip (NULL: all), or NULL. */
static struct uirq_sim_task *pick(struct uirq_sim_task *me, struct uirq_sim_task *skip)
{
	size_t n = 0;

	for (size_t i = 0; i < uirq_sim.nlive; i++)
		if (uirq_sim.live[i]->state == T_RUNNABLE && uirq_sim.live[i] != skip && !uirq_sim.live[i]->spun)
			uirq_sim.cand[n++] = uirq_sim.live[i];
	if (!n)
		return NULL;
	/* The canonical choice costs a scan at every decision (a fifth of a storm's): only when it is used. */
	canon = uirq_sim_recording || uirq_sim.strategy == UIRQ_SIM_REPLAY ? uirq_sim_canonical(me, skip, uirq_sim.cand, n)
									   : NULL;
	if (uirq_sim.strategy == UIRQ_SIM_RANDOM)
		return uirq_sim.cand[bounded(n)];
	if (uirq_sim.strategy == UIRQ_SIM_REPLAY)
		return uirq_sim_replay_pick(me, canon, uirq_sim.cand, n);
	struct uirq_sim_task *best = uirq_sim.cand[0];

	for (size_t i = 1; i < n; i++)
		if (uirq_sim.cand[i]->prio > best->prio)
			best = uirq_sim.cand[i];
	return best;
}

/*
 * A task's timer may still make something happen that ends the run: not a
 * daemon's (it wakes nobody), nor, once the stop waits, a task's that only
 * its owner can end (a timer line left alive would tick forever).
 */
static bool timer_counts(const struct uirq_sim_task *t)
{
	return t->state != T_EXITED && t->deadline != NO_DEADLINE && !t->daemon && !(t->owned && uirq_sim.stopping);
}

static bool timer_pending(void)
{
	for (size_t i = 0; i < uirq_sim.nlive; i++)
		if (timer_counts(uirq_sim.live[i]))
			return true;
	return false;
}

/* Nothing runnable: jump the clock to the earliest deadline and fire every timer due then. */
static bool fire_timers(void)
{
	uint64_t min = NO_DEADLINE;

	for (size_t i = 0; i < uirq_sim.nlive; i++)
		if (uirq_sim.live[i]->state != T_EXITED && uirq_sim.live[i]->deadline < min)
			min = uirq_sim.live[i]->deadline;
	if (min == NO_DEADLINE)
		return false;
	/* Atomic: uirq_sim_now_ns() may be read from a thread outside the run (a watchdog's). */
	if (min > uirq_sim.now)
		__atomic_store_n(&uirq_sim.now, min, __ATOMIC_RELAXED);
	for (size_t i = 0; i < uirq_sim.nlive; i++)
		if (uirq_sim.live[i]->state != T_EXITED && uirq_sim.live[i]->deadline == min)
			uirq_sim_make_runnable(uirq_sim.live[i], -ETIMEDOUT);
	return true;
}

static void describe(void)
{
	char *b = uirq_sim.report;
	size_t len = sizeof(uirq_sim.report), off;

	bool left = false;

	for (size_t i = 0; i < uirq_sim.nlive; i++)
		left |= uirq_sim.stopping && uirq_sim.live[i]->owned && uirq_sim.live[i]->state != T_EXITED;
	if (left)
		off = snprintf(b, len, "uirq sim: uirq_sim_stop() at step %llu, virtual time %llu ns: tasks that only "
			       "their owner ends are still there (destroy the lines, free the irqs and stop the "
			       "CPUs before the stop)\n", (unsigned long long)uirq_sim.tlen,
			       (unsigned long long)uirq_sim.now);
	else
		off = snprintf(b, len, "uirq sim: deadlock at step %llu, virtual time %llu ns: every task blocked, "
			       "no timer pending\n", (unsigned long long)uirq_sim.tlen, (unsigned long long)uirq_sim.now);
	for (size_t i = 0; i < uirq_sim.nlive && off < len; i++) {
		struct uirq_sim_task *t = uirq_sim.live[i];
		struct uirq_sim_task *j = t->addr;

		off += snprintf(b + off, len - off, "  task %u '%s'%s: ", t->id, t->name,
				t->daemon ? " (daemon)" : t->owned ? " (ends when its owner ends it)" : "");
		if (off >= len)
			break;
		switch (t->state) {
		case T_FUTEX:
			off += snprintf(b + off, len - off, "waits on futex %p\n", t->addr);
			break;
		case T_SLEEP:
			off += snprintf(b + off, len - off, "sleeps\n");
			break;
		case T_JOIN:
			if (j)
				off += snprintf(b + off, len - off, "joins task %u '%s'\n", j->id, j->name);
			else
				off += snprintf(b + off, len - off, "waits for every task to end (stop)\n");
			break;
		case T_EXITED:
			off += snprintf(b + off, len - off, "exited\n");
			break;
		case T_RUNNABLE:
			off += snprintf(b + off, len - off, "runnable\n");
			break;
		}
	}
}

static bool change_point(uint64_t step)
{
	for (unsigned int i = 0; i < uirq_sim.nchange; i++)
		if (uirq_sim.change[i] == step)
			return true;
	return false;
}

/* Every task set aside after a spin loop's yield competes again. */
static void unspin(void)
{
	if (!uirq_sim.nspun)
		return;
	for (size_t i = 0; i < uirq_sim.nlive; i++)
		uirq_sim.live[i]->spun = false;
	uirq_sim.nspun = 0;
}

/*
 * A synchronisation point: the caller (running, its state already set)
 * switches to the task the strategy picks and returns when it is resumed
 * (never, when it ended).
 */
void uirq_sim_schedule(struct uirq_sim_task *me, enum uirq_sim_reason r)
{
	struct uirq_sim_task *next;

	uirq_sim.steps++;
	if (uirq_sim.strategy == UIRQ_SIM_PCT) {
		/* A change point: the task that reaches it drops below every other, for good (PCT's one move). */
		if (change_point(uirq_sim.steps))
			me->prio = uirq_sim.low_prio--;
	}
	/*
	 * A yield is a spin loop's: it waits for another task, so another task
	 * runs if any can - and if none can, the next timer fires first (the
	 * task it waits for may be sleeping, or the spin bounded by time).
	 * Only then the yielder again.  A preemption point (raising a line)
	 * waits for nobody: any runnable task, the caller included, at its
	 * priority.
	 *
	 * Under PCT the spinner is also set aside (spun) until a task that is
	 * not spinning takes a decision: two spinners must not hand the token
	 * back and forth while the task they wait for starves.  Setting aside
	 * is not a demotion: once anybody else moved, the spinner competes
	 * at its own priority again.  (Demoting it for the rest of the run, as
	 * before, meant a task that contended once on a lock could never
	 * preempt again: a lock inversion on a busy path was found by 2 seeds
	 * of 1000 instead of random's 389.)
	 */
	uirq_sim_where(me);
	if (r == UIRQ_SIM_R_YIELD && !me->spun) {
		me->spun = true;
		uirq_sim.nspun++;
	} else if (r != UIRQ_SIM_R_YIELD) {
		unspin();
	}
	next = pick(me, r == UIRQ_SIM_R_YIELD ? me : NULL);
	if (!next && r == UIRQ_SIM_R_YIELD && fire_timers())
		next = pick(me, me);
	if (!next) {
		/* Only spinners left runnable: the one at the highest priority. */
		unspin();
		next = pick(me, r == UIRQ_SIM_R_YIELD ? me : NULL);
	}
	if (!next)
		next = pick(me, NULL);
	/* Only daemons' timers left: their wake-ups would move time on forever and end nothing. */
	if (!next && timer_pending() && fire_timers())
		next = pick(me, NULL);
	if (!next) {
		/* Deadlock: describe it, and hand task 0 back with -EDEADLK to stop the mode. */
		describe();
		if (failure_fn)
			failure_fn(uirq_sim.report, failure_arg);
		uirq_sim.deadlocked = true;
		next = canon = uirq_sim.tasks[0];
		uirq_sim_make_runnable(next, -EDEADLK);
	}
	/* Every strategy's decisions, measured against the canonical choice: the run's schedule. */
	uirq_sim_record(me, canon, next);
	/* An access that left the running task running is no decision worth a trace entry (there are millions). */
	if (r == UIRQ_SIM_R_ACCESS && next == me)
		return;
	log_step(next, r);
	if (next == me)
		return;
	uirq_sim_switch(me, next);
}

void uirq_sim_set_daemon(void)
{
	if (uirq_sim_current)
		uirq_sim_current->daemon = true;
}

void uirq_sim_set_owned(void)
{
	if (uirq_sim_current)
		uirq_sim_current->owned = true;
}

int uirq_sim_task_id(void)
{
	return uirq_sim_current ? (int)uirq_sim_current->id : -1;
}

void uirq_sim_preempt(void)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (me && !uirq_sim.deadlocked)
		uirq_sim_schedule(me, UIRQ_SIM_R_PREEMPT);
}

void uirq_sim_access_point(void)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me || uirq_sim.deadlocked)
		return;
	/*
	 * PCT always runs the highest-priority runnable task, and only a
	 * decision changes which that is (a wake, a timer, a change point):
	 * between decisions the caller is it.  So an access is one step, and a
	 * decision only where a change point falls (or a spinner waits to be
	 * let back in) - the common case costs a counter and a compare.
	 */
	if (uirq_sim.strategy == UIRQ_SIM_PCT && !uirq_sim.nspun && !change_point(uirq_sim.steps + 1)) {
		uirq_sim.steps++;
		return;
	}
	uirq_sim_schedule(me, UIRQ_SIM_R_ACCESS);
}

void uirq_sim_set_failure_handler(void (*fn)(const char *report, void *arg), void *arg)
{
	failure_fn = fn;
	failure_arg = arg;
}

void uirq_sim_set_pct_horizon(uint64_t steps)
{
	pct_horizon = steps ? steps : 1;
}

int uirq_sim_start(uint64_t seed, enum uirq_sim_strategy strategy, unsigned int pct_depth)
{
	if (uirq_sim.running)
		return -EBUSY;
	if (strategy != UIRQ_SIM_RANDOM && strategy != UIRQ_SIM_PCT && strategy != UIRQ_SIM_REPLAY)
		return -EINVAL;
	if (strategy == UIRQ_SIM_PCT && (pct_depth < 1 || pct_depth > MAX_DEPTH || pct_depth - 1 > pct_horizon))
		return -EINVAL;
	/*
	 * uirq threads already running outside the mode (uirq_cpus_start()
	 * before this start): tasks would wake them on the scheduler's futex
	 * table, which they never read, and nothing would ever be handled.
	 */
	if (atomic_load(&outside))
		return -EBUSY;
	free(uirq_sim.trace);
	free(uirq_sim.names);
	memset(&uirq_sim, 0, sizeof(uirq_sim));
	atomic_store(&uirq_sim_progress, 0);
	atomic_store(&uirq_sim_holder, NULL);
	uirq_sim.rng = seed;
	uirq_sim.strategy = strategy;
	uirq_sim.hash = 0xcbf29ce484222325ull;
	uirq_sim.low_prio = 1ull << 39;
	uirq_sim_replay_reset();
	/* PCT: d-1 distinct change points among steps 1..k. */
	while (strategy == UIRQ_SIM_PCT && uirq_sim.nchange < pct_depth - 1) {
		uint64_t s = 1 + bounded(pct_horizon);
		bool dup = false;

		for (unsigned int i = 0; i < uirq_sim.nchange; i++)
			dup |= uirq_sim.change[i] == s;
		if (!dup)
			uirq_sim.change[uirq_sim.nchange++] = s;
	}
	struct uirq_sim_task *t0 = task_new("main");

	t0->thread = pthread_self();
	atomic_store(&t0->tid, (int)gettid());
	if (prctl(PR_GET_NAME, t0->comm, 0, 0, 0))
		snprintf(t0->comm, sizeof(t0->comm), "?");
	t0->comm[sizeof(t0->comm) - 1] = '\0';
	t0->joined = true;
	uirq_sim_coro_start(t0);
	uirq_sim_current = t0;
	uirq_sched = &uirq_sim_ops;
	uirq_sim.running = true;
	uirq_sim_on = true;
	uirq_sched_replays = true;
	log_step(t0, UIRQ_SIM_R_START);
	uirq_sim_watch_start();
	return 0;
}

void uirq_sim_task_main(struct uirq_sim_task *me)
{
	me->ret = me->fn(me->arg);
	/* Its thread-locals' destructors (lockdep's check that no lock is held), still a task. */
	uirq_sim_locals_exit();
	/* Exit: wake whoever joins this task, or the stop once every other task has ended. */
	me->state = T_EXITED;
	uirq_sim.alive--;
	for (size_t i = 0; i < uirq_sim.nlive; i++) {
		struct uirq_sim_task *t = uirq_sim.live[i];

		if (t->state == T_JOIN && (t->addr == me || (!t->addr && uirq_sim.alive == 1)))
			uirq_sim_make_runnable(t, 0);
	}
	if (me->joined)
		reap(me);	/* detached: nobody joins it */
	/* Never back: the next task frees this stack. */
	uirq_sim_schedule(me, UIRQ_SIM_R_EXIT);
	abort();
}

/*
 * Outside the mode a plain thread, counted while it runs when it is a
 * joinable one (a CPU, a handler thread, a watchdog: uirq's long-lived
 * threads), so that a start with such threads still running is refused.
 */
struct outside_thread {
	void *(*fn)(void *);
	void *arg;
};

static void *outside_fn(void *p)
{
	struct outside_thread o = *(struct outside_thread *)p;
	void *ret;

	free(p);
	ret = o.fn(o.arg);
	atomic_fetch_sub(&outside, 1);
	return ret;
}

static int outside_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	int detached = PTHREAD_CREATE_JOINABLE, err;

	if (attr)
		pthread_attr_getdetachstate(attr, &detached);
	if (detached == PTHREAD_CREATE_DETACHED)
		return pthread_create(thread, attr, fn, arg);
	struct outside_thread *o = malloc(sizeof(*o));

	if (!o)
		return EAGAIN;
	*o = (struct outside_thread){ fn, arg };
	atomic_fetch_add(&outside, 1);
	err = pthread_create(thread, attr, outside_fn, o);
	if (err) {
		atomic_fetch_sub(&outside, 1);
		free(o);
	}
	return err;
}

int uirq_sim_thread_create(pthread_t *thread, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg, const char *name)
{
	struct uirq_sim_task *me = uirq_sim_current, *t;
	int err;

	if (!me)
		return outside_create(thread, attr, fn, arg);
	if (uirq_sim.deadlocked)
		return EAGAIN;
	int detached = PTHREAD_CREATE_JOINABLE;

	if (attr)
		pthread_attr_getdetachstate(attr, &detached);
	t = task_new(name);
	t->fn = fn;
	t->arg = arg;
	t->joined = detached == PTHREAD_CREATE_DETACHED;	/* nobody joins it, the stop neither */
	/* A handle no thread has (sim.h): the task's number, odd. */
	t->thread = (pthread_t)(((uintptr_t)t->id << 1) | 1);
	atomic_store(&t->tid, atomic_load(&me->tid));
	/* A new thread's name is its creator's until it names itself. */
	memcpy(t->comm, me->comm, sizeof(t->comm));
	err = uirq_sim_coro_create(t);
	if (err) {
		uirq_sim.ntasks--;
		uirq_sim.nlive--;
		uirq_sim.nnames--;
		uirq_sim.alive--;
		free(t);
		return err;
	}
	*thread = t->thread;
	uirq_sim_schedule(me, UIRQ_SIM_R_SPAWN);
	return 0;
}

int uirq_sim_thread_join(pthread_t thread, void **ret)
{
	struct uirq_sim_task *me = uirq_sim_current, *t = NULL;

	/* A task's handle outside the mode: the task ended with it (or was dropped by a deadlocked stop). */
	if (!me)
		return uirq_sim_is_task_thread(thread) ? ESRCH : pthread_join(thread, ret);
	for (size_t i = 1; i < uirq_sim.nlive && !t; i++)
		if (!uirq_sim.live[i]->joined && pthread_equal(uirq_sim.live[i]->thread, thread))
			t = uirq_sim.live[i];
	if (!t)
		return ESRCH;
	while (t->state != T_EXITED) {
		if (uirq_sim.deadlocked)
			return EDEADLK;
		me->state = T_JOIN;
		me->addr = t;
		uirq_sim_schedule(me, UIRQ_SIM_R_JOIN);
	}
	t->joined = true;
	reap(t);
	if (ret)
		*ret = t->ret;
	return 0;
}

enum uirq_sim_status uirq_sim_stop(void)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me || me->id != 0) {
		uirq_log_write("uirq sim: uirq_sim_stop() outside task 0\n");
		abort();
	}
	uirq_sim.stopping = true;
	while (!uirq_sim.deadlocked && uirq_sim.alive > 1) {
		me->state = T_JOIN;
		me->addr = NULL;
		uirq_sim_schedule(me, UIRQ_SIM_R_JOIN);
	}
	enum uirq_sim_status st = uirq_sim.deadlocked ? UIRQ_SIM_DEADLOCK : UIRQ_SIM_OK;

	uirq_sim_watch_stop();

	/*
	 * After a deadlock the tasks still blocked are dropped where they wait:
	 * their stacks go back to the pool, their cleanup (what their functions
	 * would have done after the wait, their thread-locals' destructors)
	 * does not run.
	 */
	for (size_t i = 0; i < uirq_sim.ntasks; i++) {
		if (i)
			uirq_sim_coro_release(uirq_sim.tasks[i]);
		else
			free(uirq_sim.tasks[i]->locals);
		free(uirq_sim.tasks[i]);
	}
	uirq_sim_coro_stop();
	free(uirq_sim.tasks);
	free(uirq_sim.cand);
	free(uirq_sim.live);
	uirq_sim.tasks = uirq_sim.cand = uirq_sim.live = NULL;
	uirq_sim.ntasks = uirq_sim.nlive = 0;
	uirq_sim.qhead = NULL;
	uirq_sim.running = false;
	uirq_sim_on = false;
	uirq_sched_replays = false;
	uirq_sim_current = NULL;
	uirq_sched = NULL;
	uirq_sim.dead = NULL;
	return st;
}

uint64_t uirq_sim_trace_hash(void)
{
	return uirq_sim.hash;
}

size_t uirq_sim_trace_len(void)
{
	return uirq_sim.tlen;
}

const struct uirq_sim_step *uirq_sim_trace(void)
{
	return uirq_sim.trace;
}

const char *uirq_sim_report(void)
{
	return uirq_sim.report;
}

bool uirq_sim_running(void)
{
	return uirq_sim_on;
}

void uirq_sim_fail(const char *report)
{
	if (failure_fn) {
		failure_fn(report, failure_arg);
		return;
	}
	uirq_log_write(report);
	abort();
}

int uirq_sim_refuse(const char *what)
{
	if (!uirq_sim_on)
		return 0;
	uirq_log_printk("uirq sim: %s: a real back end is not deterministic, refused in the deterministic mode\n",
		what);
	return -EOPNOTSUPP;
}

void uirq_sim_foreign(const char *what, unsigned int n)
{
	char name[16] = "?";

	pthread_getname_np(pthread_self(), name, sizeof(name));
	uirq_log_printk("uirq sim: thread %d '%s' %s %u but is not a task of the deterministic mode: "
		"the scheduler cannot order it, so the run would not replay (create it with "
		"uirq_sim_thread_create() from a task)\n", (int)gettid(), name, what, n);
	abort();
}

bool uirq_sim_task_alive(unsigned int id)
{
	return uirq_sim.running && id < uirq_sim.ntasks && uirq_sim.tasks[id]->state != T_EXITED;
}

const char *uirq_sim_task_name(unsigned int id)
{
	return id < uirq_sim.nnames ? uirq_sim.names[id] : NULL;
}
