// SPDX-License-Identifier: MIT
/*
 * The deterministic scheduler (sim.h): one token passes between tasks at
 * synchronisation points; a task without it blocks on its own futex word.
 * Every decision is drawn from splitmix64 (Steele, Lea, Flood 2014) seeded
 * by the caller and logged, so one seed gives one interleaving.  Only the
 * token holder touches the state below: the hand-off (a release store and
 * an acquire load of the next task's word) orders it, no lock needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

#define NO_DEADLINE	UINT64_MAX
#define MAX_DEPTH	64

enum task_state { T_RUNNABLE, T_FUTEX, T_SLEEP, T_JOIN, T_EXITED };

struct uirq_sim_task {
	unsigned int id;
	char name[32];
	atomic_uint go;			/* 1: the token was given to this task */
	enum task_state state;
	void *addr;			/* futex word, or joined task (NULL: all) */
	uint64_t deadline;
	int wait_result;
	struct uirq_sim_task *qnext;	/* the futex queue, in parking order */
	uint64_t prio;			/* PCT */
	pthread_t thread;
	void *(*fn)(void *);
	void *arg;
	bool joined;
};

static struct {
	bool running, deadlocked, aborting;
	enum uirq_sim_strategy strategy;
	uint64_t rng, now, steps, low_prio;
	uint64_t change[MAX_DEPTH];
	unsigned int nchange;
	struct uirq_sim_task **tasks, **cand;
	size_t ntasks, cap, alive;
	struct uirq_sim_task *qhead;
	struct uirq_sim_step *trace;
	size_t tlen, tcap;
	uint64_t hash;
	char report[8192];
} sim;

static uint64_t pct_horizon = 1000;

__thread struct uirq_sim_task *uirq_sim_current __attribute__((tls_model("initial-exec")));

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("uirq sim: out of memory\n", stderr);
		abort();
	}
	return p;
}

static uint64_t splitmix64(void)
{
	uint64_t z = (sim.rng += 0x9e3779b97f4a7c15ull);

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
		sim.hash ^= (v >> (8 * i)) & 0xff;
		sim.hash *= 0x100000001b3ull;
	}
}

static void log_step(struct uirq_sim_task *t, enum uirq_sim_reason r)
{
	if (sim.tlen == sim.tcap) {
		sim.tcap = sim.tcap ? 2 * sim.tcap : 256;
		sim.trace = xrealloc(sim.trace, sim.tcap * sizeof(*sim.trace));
	}
	sim.trace[sim.tlen] = (struct uirq_sim_step){ sim.tlen, t->id, r };
	fnv(sim.tlen, 8);
	fnv(t->id, 4);
	fnv(r, 4);
	sim.tlen++;
}

static void raw_wake(void *addr, int nr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

static void give(struct uirq_sim_task *t)
{
	atomic_store_explicit(&t->go, 1, memory_order_release);
	raw_wake(&t->go, 1);
}

/* Block (really) until the token comes back; a deadlocked mode's stop ends the task here. */
static void await_token(struct uirq_sim_task *me)
{
	while (!atomic_load_explicit(&me->go, memory_order_acquire))
		syscall(SYS_futex, &me->go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	atomic_store_explicit(&me->go, 0, memory_order_relaxed);
	if (sim.aborting)
		pthread_exit(NULL);
}

static struct uirq_sim_task *task_new(const char *name)
{
	struct uirq_sim_task *t = xrealloc(NULL, sizeof(*t));

	memset(t, 0, sizeof(*t));
	if (sim.ntasks == sim.cap) {
		sim.cap = sim.cap ? 2 * sim.cap : 16;
		sim.tasks = xrealloc(sim.tasks, sim.cap * sizeof(*sim.tasks));
		sim.cand = xrealloc(sim.cand, sim.cap * sizeof(*sim.cand));
	}
	t->id = sim.ntasks;
	if (name)
		snprintf(t->name, sizeof(t->name), "%s", name);
	else
		snprintf(t->name, sizeof(t->name), "task%u", t->id);
	t->deadline = NO_DEADLINE;
	/* PCT's initial priorities lie above every priority a change point gives. */
	t->prio = (1ull << 40) + (splitmix64() >> 24);
	sim.tasks[sim.ntasks++] = t;
	sim.alive++;
	return t;
}

static void dequeue(struct uirq_sim_task *t)
{
	for (struct uirq_sim_task **p = &sim.qhead; *p; p = &(*p)->qnext)
		if (*p == t) {
			*p = t->qnext;
			t->qnext = NULL;
			return;
		}
}

static void make_runnable(struct uirq_sim_task *t, int result)
{
	if (t->state == T_FUTEX)
		dequeue(t);
	t->state = T_RUNNABLE;
	t->deadline = NO_DEADLINE;
	t->wait_result = result;
}

static struct uirq_sim_task *pick(void)
{
	size_t n = 0;

	for (size_t i = 0; i < sim.ntasks; i++)
		if (sim.tasks[i]->state == T_RUNNABLE)
			sim.cand[n++] = sim.tasks[i];
	if (!n)
		return NULL;
	if (sim.strategy == UIRQ_SIM_RANDOM)
		return sim.cand[bounded(n)];
	struct uirq_sim_task *best = sim.cand[0];

	for (size_t i = 1; i < n; i++)
		if (sim.cand[i]->prio > best->prio)
			best = sim.cand[i];
	return best;
}

/* Nothing runnable: jump the clock to the earliest deadline and fire every timer due then. */
static bool fire_timers(void)
{
	uint64_t min = NO_DEADLINE;

	for (size_t i = 0; i < sim.ntasks; i++)
		if (sim.tasks[i]->state != T_EXITED && sim.tasks[i]->deadline < min)
			min = sim.tasks[i]->deadline;
	if (min == NO_DEADLINE)
		return false;
	if (min > sim.now)
		sim.now = min;
	for (size_t i = 0; i < sim.ntasks; i++)
		if (sim.tasks[i]->state != T_EXITED && sim.tasks[i]->deadline == min)
			make_runnable(sim.tasks[i], -ETIMEDOUT);
	return true;
}

static void describe(void)
{
	char *b = sim.report;
	size_t len = sizeof(sim.report), off;

	off = snprintf(b, len, "uirq sim: deadlock at step %llu, virtual time %llu ns: every task blocked, no timer pending\n",
		       (unsigned long long)sim.tlen, (unsigned long long)sim.now);
	for (size_t i = 0; i < sim.ntasks && off < len; i++) {
		struct uirq_sim_task *t = sim.tasks[i];
		struct uirq_sim_task *j = t->addr;

		off += snprintf(b + off, len - off, "  task %u '%s': ", t->id, t->name);
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

/*
 * A synchronisation point: the caller (holding the token, its state already
 * set) gives the token to the task the strategy picks and waits for it back.
 */
static void schedule(struct uirq_sim_task *me, enum uirq_sim_reason r)
{
	struct uirq_sim_task *next;

	sim.steps++;
	if (sim.strategy == UIRQ_SIM_PCT) {
		bool lower = r == UIRQ_SIM_R_YIELD;

		for (unsigned int i = 0; i < sim.nchange; i++)
			lower |= sim.change[i] == sim.steps;
		/* A change point, or a yield (a spin loop would starve the task it waits for): below all. */
		if (lower)
			me->prio = sim.low_prio--;
	}
	next = pick();
	if (!next && fire_timers())
		next = pick();
	if (!next) {
		/* Deadlock: describe it, and hand task 0 back with -EDEADLK to stop the mode. */
		describe();
		sim.deadlocked = true;
		next = sim.tasks[0];
		make_runnable(next, -EDEADLK);
	}
	log_step(next, r);
	if (next == me)
		return;
	bool exiting = me->state == T_EXITED;

	give(next);
	if (!exiting)
		await_token(me);
}

int uirq_sim_task_id(void)
{
	return uirq_sim_current ? (int)uirq_sim_current->id : -1;
}

void uirq_sim_set_pct_horizon(uint64_t steps)
{
	pct_horizon = steps ? steps : 1;
}

int uirq_sim_start(uint64_t seed, enum uirq_sim_strategy strategy, unsigned int pct_depth)
{
	if (sim.running)
		return -EBUSY;
	if (strategy == UIRQ_SIM_PCT && (pct_depth < 1 || pct_depth > MAX_DEPTH || pct_depth - 1 > pct_horizon))
		return -EINVAL;
	free(sim.trace);
	memset(&sim, 0, sizeof(sim));
	sim.rng = seed;
	sim.strategy = strategy;
	sim.hash = 0xcbf29ce484222325ull;
	sim.low_prio = 1ull << 39;
	/* PCT: d-1 distinct change points among steps 1..k. */
	while (strategy == UIRQ_SIM_PCT && sim.nchange < pct_depth - 1) {
		uint64_t s = 1 + bounded(pct_horizon);
		bool dup = false;

		for (unsigned int i = 0; i < sim.nchange; i++)
			dup |= sim.change[i] == s;
		if (!dup)
			sim.change[sim.nchange++] = s;
	}
	struct uirq_sim_task *t0 = task_new("main");

	t0->thread = pthread_self();
	t0->joined = true;
	uirq_sim_current = t0;
	sim.running = true;
	log_step(t0, UIRQ_SIM_R_START);
	return 0;
}

static void *trampoline(void *p)
{
	struct uirq_sim_task *me = p;
	void *ret;

	uirq_sim_current = me;
	await_token(me);
	ret = me->fn(me->arg);
	/* Exit: wake whoever joins this task, or the stop once every other task has ended. */
	me->state = T_EXITED;
	sim.alive--;
	for (size_t i = 0; i < sim.ntasks; i++) {
		struct uirq_sim_task *t = sim.tasks[i];

		if (t->state == T_JOIN && (t->addr == me || (!t->addr && sim.alive == 1)))
			make_runnable(t, 0);
	}
	uirq_sim_current = NULL;
	schedule(me, UIRQ_SIM_R_EXIT);
	return ret;
}

int uirq_sim_thread_create(pthread_t *thread, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg, const char *name)
{
	struct uirq_sim_task *me = uirq_sim_current, *t;
	int err;

	if (!me)
		return pthread_create(thread, attr, fn, arg);
	if (sim.deadlocked)
		return EAGAIN;
	t = task_new(name);
	t->fn = fn;
	t->arg = arg;
	err = pthread_create(&t->thread, attr, trampoline, t);
	if (err) {
		sim.ntasks--;
		sim.alive--;
		free(t);
		return err;
	}
	*thread = t->thread;
	schedule(me, UIRQ_SIM_R_SPAWN);
	return 0;
}

int uirq_sim_thread_join(pthread_t thread, void **ret)
{
	struct uirq_sim_task *me = uirq_sim_current, *t = NULL;

	if (!me)
		return pthread_join(thread, ret);
	for (size_t i = 1; i < sim.ntasks && !t; i++)
		if (!sim.tasks[i]->joined && pthread_equal(sim.tasks[i]->thread, thread))
			t = sim.tasks[i];
	if (!t)
		return ESRCH;
	while (t->state != T_EXITED) {
		if (sim.deadlocked)
			return EDEADLK;
		me->state = T_JOIN;
		me->addr = t;
		schedule(me, UIRQ_SIM_R_JOIN);
	}
	t->joined = true;
	return pthread_join(thread, ret);
}

enum uirq_sim_status uirq_sim_stop(void)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me || me->id != 0) {
		fputs("uirq sim: uirq_sim_stop() outside task 0\n", stderr);
		abort();
	}
	while (!sim.deadlocked && sim.alive > 1) {
		me->state = T_JOIN;
		me->addr = NULL;
		schedule(me, UIRQ_SIM_R_JOIN);
	}
	enum uirq_sim_status st = sim.deadlocked ? UIRQ_SIM_DEADLOCK : UIRQ_SIM_OK;

	if (sim.deadlocked) {
		sim.aborting = true;
		for (size_t i = 1; i < sim.ntasks; i++)
			if (sim.tasks[i]->state != T_EXITED)
				give(sim.tasks[i]);
	}
	for (size_t i = 0; i < sim.ntasks; i++) {
		if (!sim.tasks[i]->joined)
			pthread_join(sim.tasks[i]->thread, NULL);
		free(sim.tasks[i]);
	}
	free(sim.tasks);
	free(sim.cand);
	sim.tasks = sim.cand = NULL;
	sim.ntasks = 0;
	sim.qhead = NULL;
	sim.running = false;
	uirq_sim_current = NULL;
	return st;
}

static int plain_wait(void *addr, unsigned int val, const struct timespec *ts)
{
	return syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ts, NULL, 0) ? -errno : 0;
}

static int sim_wait(void *addr, unsigned int val, uint64_t ns)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me) {
		struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

		return plain_wait(addr, val, ns == NO_DEADLINE ? NULL : &ts);
	}
	if (sim.deadlocked)
		return -EDEADLK;
	if (__atomic_load_n((unsigned int *)addr, __ATOMIC_RELAXED) != val)
		return -EAGAIN;
	struct uirq_sim_task **p = &sim.qhead;

	while (*p)
		p = &(*p)->qnext;
	*p = me;
	me->qnext = NULL;
	me->state = T_FUTEX;
	me->addr = addr;
	me->deadline = ns == NO_DEADLINE ? NO_DEADLINE :
		       (ns > NO_DEADLINE - 1 - sim.now ? NO_DEADLINE - 1 : sim.now + ns);
	me->wait_result = 0;
	schedule(me, UIRQ_SIM_R_WAIT);
	return me->wait_result;
}

int uirq_sim_futex_wait(void *addr, unsigned int val)
{
	return sim_wait(addr, val, NO_DEADLINE);
}

int uirq_sim_futex_wait_timeout(void *addr, unsigned int val, uint64_t ns)
{
	return sim_wait(addr, val, ns == NO_DEADLINE ? NO_DEADLINE - 1 : ns);
}

int uirq_sim_futex_wake(void *addr, int nr)
{
	struct uirq_sim_task *me = uirq_sim_current;
	int n = 0;

	if (!me) {
		long r = syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);

		return r < 0 ? -errno : (int)r;
	}
	if (sim.deadlocked)
		return 0;
	for (struct uirq_sim_task *t = sim.qhead, *next; t && n < nr; t = next) {
		next = t->qnext;
		if (t->addr == addr) {
			make_runnable(t, 0);
			n++;
		}
	}
	schedule(me, UIRQ_SIM_R_WAKE);
	return n;
}

void uirq_sim_yield(void)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me) {
		sched_yield();
		return;
	}
	if (!sim.deadlocked)
		schedule(me, UIRQ_SIM_R_YIELD);
}

void uirq_sim_sleep_ns(uint64_t ns)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me) {
		struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return;
	}
	if (sim.deadlocked)
		return;
	me->state = T_SLEEP;
	me->deadline = ns > NO_DEADLINE - 1 - sim.now ? NO_DEADLINE - 1 : sim.now + ns;
	schedule(me, UIRQ_SIM_R_SLEEP);
}

uint64_t uirq_sim_now_ns(void)
{
	return sim.now;
}

uint64_t uirq_sim_trace_hash(void)
{
	return sim.hash;
}

size_t uirq_sim_trace_len(void)
{
	return sim.tlen;
}

const struct uirq_sim_step *uirq_sim_trace(void)
{
	return sim.trace;
}

const char *uirq_sim_report(void)
{
	return sim.report;
}
