// SPDX-License-Identifier: MIT
/*
 * The deterministic scheduler: replay by seed, virtual time, deadlock
 * reports, PCT against uniform random, futex semantics.  Behaviour only,
 * never wall time (Check's timeout is the backstop against a hang).
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/lib.h"
#include "sim.h"

/* The shared log the tasks write: who ran, in order. */
static char shared[4096];
static size_t shared_len;

static void note(char c)
{
	if (shared_len < sizeof(shared) - 1)
		shared[shared_len++] = c;
}

/* A ring of tasks passing a baton through futex words, with yields and sleeps between. */
#define RING 4
static unsigned int baton;

static void *ring_task(void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;

	for (int round = 0; round < 5; round++) {
		note('a' + me);
		uirq_sim_yield();
		while (__atomic_load_n(&baton, __ATOMIC_RELAXED) % RING != me)
			uirq_futex_wait(&baton, __atomic_load_n(&baton, __ATOMIC_RELAXED));
		note('A' + me);
		uirq_sim_sleep_ns(1000 * (me + 1));
		__atomic_fetch_add(&baton, 1, __ATOMIC_RELAXED);
		uirq_futex_wake(&baton, RING);
		note('0' + me);
	}
	return NULL;
}

static uint64_t run_ring(uint64_t seed, enum uirq_sim_strategy s, char *log_out)
{
	pthread_t t[RING];

	shared_len = 0;
	baton = 0;
	assert_eq(uirq_sim_start(seed, s, 3), 0);
	for (unsigned int i = 0; i < RING; i++)
		assert_eq(uirq_sim_thread_create(&t[i], NULL, ring_task, (void *)(uintptr_t)i, NULL), 0);
	for (unsigned int i = 0; i < RING; i++)
		assert_eq(uirq_sim_thread_join(t[i], NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	shared[shared_len] = 0;
	strcpy(log_out, shared);
	return uirq_sim_trace_hash();
}

UIRQ_TEST(sim, same_seed_same_run)
{
	static char a[4096], b[4096];

	for (int s = 0; s < 2; s++) {
		enum uirq_sim_strategy st = s ? UIRQ_SIM_PCT : UIRQ_SIM_RANDOM;
		uint64_t h1 = run_ring(42, st, a);
		size_t n1 = uirq_sim_trace_len();
		uint64_t h2 = run_ring(42, st, b);

		assert_eq(h1, h2);
		assert_eq(n1, uirq_sim_trace_len());
		assert_eq(strlen(a), (size_t)RING * 5 * 3);
		assert_str_eq(a, b);
	}
}

UIRQ_TEST(sim, seeds_differ)
{
	static char l[4096];
	uint64_t h[20];
	int distinct = 0;

	for (int i = 0; i < 20; i++) {
		h[i] = run_ring(1000 + i, UIRQ_SIM_RANDOM, l);
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= h[j] == h[i];
		distinct += !seen;
	}
	assert_ge(distinct, 2);
}

/* Virtual time. */
static uint64_t woke_at[4];
static int woke_order[4], nwoke;

static void *sleeper(void *arg)
{
	int i = (int)(uintptr_t)arg;
	static const uint64_t ms[] = { 30, 10, 40, 20 };

	uirq_sim_sleep_ns(ms[i] * 1000000);
	woke_at[i] = uirq_sim_now_ns();
	woke_order[nwoke++] = i;
	return NULL;
}

static void *long_sleeper(void *arg)
{
	(void)arg;
	uirq_sim_sleep_ns(10ull * 1000000000);
	woke_at[0] = uirq_sim_now_ns();
	return NULL;
}

UIRQ_TEST(sim, virtual_time)
{
	pthread_t t[4];

	assert_eq(uirq_sim_start(7, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_now_ns(), 0);
	assert_eq(uirq_sim_thread_create(&t[0], NULL, long_sleeper, NULL, "sleeper"), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_ge(woke_at[0], 10ull * 1000000000);
	assert_ge(uirq_sim_now_ns(), 10ull * 1000000000);

	nwoke = 0;
	assert_eq(uirq_sim_start(8, UIRQ_SIM_RANDOM, 0), 0);
	for (int i = 0; i < 4; i++)
		assert_eq(uirq_sim_thread_create(&t[i], NULL, sleeper, (void *)(uintptr_t)i, NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(nwoke, 4);
	static const int want[] = { 1, 3, 0, 2 };

	for (int i = 0; i < 4; i++)
		assert_eq(woke_order[i], want[i]);
	assert_eq(woke_at[1], 10000000ull);
	assert_eq(woke_at[2], 40000000ull);
}

static unsigned int never;

static void *timed_waiter(void *arg)
{
	(void)arg;
	woke_order[0] = uirq_sim_futex_wait_timeout(&never, 0, 5000);
	woke_at[0] = uirq_sim_now_ns();
	return NULL;
}

UIRQ_TEST(sim, wait_timeout)
{
	pthread_t t;

	assert_eq(uirq_sim_start(9, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_thread_create(&t, NULL, timed_waiter, NULL, NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(woke_order[0], -ETIMEDOUT);
	assert_eq(woke_at[0], 5000ull);
}

/* A lost wake-up: each task waits for the other, nobody wakes. */
static unsigned int flag_a, flag_b;

/* Wait for my word, then set and wake the other's: arg is { mine, other's }. */
static void *dl_task(void *arg)
{
	unsigned int **w = arg;

	uirq_futex_wait(w[0], 0);
	*w[1] = 1;
	uirq_futex_wake(w[1], 1);
	return NULL;
}

/* Tasks waiter-a and waiter-b, each waiting for the other: the stop must find the deadlock. */
static void lost_wakeup_then_stop(void)
{
	static unsigned int *wa[] = { &flag_a, &flag_b }, *wb[] = { &flag_b, &flag_a };
	pthread_t a, b;

	flag_a = flag_b = 0;
	assert_eq(uirq_sim_thread_create(&a, NULL, dl_task, wa, "waiter-a"), 0);
	assert_eq(uirq_sim_thread_create(&b, NULL, dl_task, wb, "waiter-b"), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_DEADLOCK);
}

UIRQ_TEST(sim, deadlock_reported, .timeout = 20)
{
	char want[128];

	assert_eq(uirq_sim_start(3, UIRQ_SIM_RANDOM, 0), 0);
	lost_wakeup_then_stop();

	const char *r = uirq_sim_report();

	fputs(r, stderr);
	snprintf(want, sizeof(want), "task 1 'waiter-a': waits on futex %p", (void *)&flag_a);
	assert_true(strstr(r, want), "%s", r);
	snprintf(want, sizeof(want), "task 2 'waiter-b': waits on futex %p", (void *)&flag_b);
	assert_true(strstr(r, want), "%s", r);
	assert_true(strstr(r, "'main': waits for every task to end"), "%s", r);
	/* The mode is over and can start again. */
	assert_eq(uirq_sim_start(4, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}

/* A periodic checker: a daemon, waking every 1 ms of virtual time, counting. */
static unsigned int daemon_stop, daemon_wakes;

static void *daemon_task(void *arg)
{
	(void)arg;
	uirq_sim_set_daemon();
	while (!daemon_stop) {
		uirq_futex_wait_timeout(&daemon_stop, 0, 1000000);
		daemon_wakes++;
	}
	return NULL;
}

/*
 * A daemon's timer does not hide a deadlock (before, its wake-ups moved
 * virtual time on forever and the stop never returned); while another task
 * has a timer, the daemon's fire as usual.
 */
UIRQ_TEST(sim, daemon_timer_does_not_hide_a_deadlock, .timeout = 20)
{
	pthread_t d;
	char want[128];

	daemon_stop = daemon_wakes = 0;
	assert_eq(uirq_sim_start(3, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_thread_create(&d, NULL, daemon_task, NULL, "checker"), 0);
	uirq_sim_sleep_ns(10500000);
	assert_eq(daemon_wakes, 10u, "a daemon's timer fires while others have one");
	lost_wakeup_then_stop();

	const char *r = uirq_sim_report();

	fputs(r, stderr);
	snprintf(want, sizeof(want), "task 1 'checker' (daemon): waits on futex %p", (void *)&daemon_stop);
	assert_true(strstr(r, want), "%s", r);
	assert_true(strstr(r, "'waiter-a': waits on futex"), "%s", r);
	assert_true(strstr(r, "virtual time 10500000 ns"), "found at once, not after more daemon periods: %s", r);
}

/*
 * An ordering bug of depth 1: B takes ten synchronisation steps (wakes of a
 * word nobody waits on) and then assumes A has not started.  It fails only
 * when B finishes before A's first step: uniform random almost never picks
 * that, PCT does whenever B outranks A.
 */
static unsigned int a_started, dummy;
static int bug;

static void *order_a(void *arg)
{
	(void)arg;
	a_started = 1;
	return NULL;
}

static void *order_b(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++)
		uirq_sim_futex_wake(&dummy, 1);
	if (!a_started)
		bug = 1;
	return NULL;
}

static int run_order(uint64_t seed, enum uirq_sim_strategy s, uint64_t *hash)
{
	pthread_t a, b;

	a_started = 0;
	bug = 0;
	assert_eq(uirq_sim_start(seed, s, 1), 0);
	assert_eq(uirq_sim_thread_create(&a, NULL, order_a, NULL, "A"), 0);
	assert_eq(uirq_sim_thread_create(&b, NULL, order_b, NULL, "B"), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	*hash = uirq_sim_trace_hash();
	return bug;
}

UIRQ_TEST(sim, pct_finds_ordering_bug, .timeout = 60)
{
	int found_pct = 0, found_random = 0;
	uint64_t first_failing = 0, h, h0 = 0;

	for (uint64_t seed = 1; seed <= 200; seed++) {
		if (run_order(seed, UIRQ_SIM_PCT, &h) && !found_pct++) {
			first_failing = seed;
			h0 = h;
		}
		found_random += run_order(seed, UIRQ_SIM_RANDOM, &h);
	}
	fprintf(stderr, "ordering bug in 200 seeds: PCT(d=1) %d, random %d\n", found_pct, found_random);
	assert_ge(found_pct, 1);
	assert_gt(found_pct, found_random);
	for (int i = 0; i < 5; i++) {
		assert_eq(run_order(first_failing, UIRQ_SIM_PCT, &h), 1);
		assert_eq(h, h0);
	}
}

/* Futex semantics: no park on a changed word; wake(n) wakes n at most, oldest first. */
static unsigned int word;
static int parked[3], nparked, woken[3], nwoken;

static void *parker(void *arg)
{
	int i = (int)(uintptr_t)arg;

	parked[nparked++] = i;
	assert_eq(uirq_sim_futex_wait(&word, 0), 0);
	woken[nwoken++] = i;
	return NULL;
}

UIRQ_TEST(sim, futex_semantics)
{
	pthread_t t[3];

	word = 1;
	assert_eq(uirq_sim_start(11, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_futex_wait(&word, 0), -EAGAIN);
	word = 0;
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_sim_thread_create(&t[i], NULL, parker, (void *)(uintptr_t)i, NULL), 0);
	/* A virtual sleep lets every runnable task run until it blocks. */
	uirq_sim_sleep_ns(1);
	assert_eq(nparked, 3);
	assert_eq(uirq_sim_futex_wake(&word, 1), 1);
	uirq_sim_sleep_ns(1);
	assert_eq(nwoken, 1);
	assert_eq(woken[0], parked[0]);
	assert_eq(uirq_sim_futex_wake(&word, 5), 2);
	uirq_sim_sleep_ns(1);
	assert_eq(nwoken, 3);
	/* Woken together, the last two may run in either order: both are the later parkers. */
	assert_true((woken[1] == parked[1] && woken[2] == parked[2]) ||
		    (woken[1] == parked[2] && woken[2] == parked[1]));
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}

/* Outside the mode uirq_futex_*() are the kernel's futex. */
static unsigned int plain_word;

static void *plain_waker(void *arg)
{
	(void)arg;
	assert_eq(uirq_sim_task_id(), -1);
	__atomic_store_n(&plain_word, 1, __ATOMIC_RELEASE);
	uirq_futex_wake(&plain_word, 1);
	return NULL;
}

UIRQ_TEST(sim, plain_threads_untouched)
{
	pthread_t t;

	assert_eq(pthread_create(&t, NULL, plain_waker, NULL), 0);
	while (!__atomic_load_n(&plain_word, __ATOMIC_ACQUIRE))
		uirq_futex_wait(&plain_word, 0);
	assert_eq(pthread_join(t, NULL), 0);
}

/* ---- a task blocking where the scheduler cannot see it ---- */

static pthread_mutex_t raw_lock = PTHREAD_MUTEX_INITIALIZER;
static int stall_pipe[2];

static void *raw_blocker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&raw_lock);	/* held by task 0, which is not running: a kernel wait */
	pthread_mutex_unlock(&raw_lock);
	return NULL;
}

static void stall_handler(const char *report, void *arg)
{
	(void)arg;
	(void)!write(stall_pipe[1], report, strlen(report));
	_exit(0);
}

/* The watcher names the task, says it blocks in a system call, and ends the run through the handler. */
UIRQ_TEST(sim, stall_outside_scheduler_named, .timeout = 30)
{
	char buf[2048] = "";
	size_t got = 0;
	pid_t pid;
	int status;
	ssize_t n;

	assert_eq(pipe(stall_pipe), 0);
	pid = fork();
	assert_ge(pid, 0);
	if (!pid) {
		pthread_t t;

		uirq_sim_set_stall_ms(200);
		uirq_sim_set_failure_handler(stall_handler, NULL);
		uirq_sim_start(1, UIRQ_SIM_RANDOM, 1);
		pthread_mutex_lock(&raw_lock);
		uirq_sim_thread_create(&t, NULL, raw_blocker, NULL, "blocker");
		for (;;)
			uirq_sim_sleep_ns(1000);	/* the blocker runs, and blocks in the kernel */
	}
	close(stall_pipe[1]);
	while ((n = read(stall_pipe[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	assert_eq(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status), "status %#x", status);
	assert_eq(WEXITSTATUS(status), 0, "status %#x", status);
	assert_true(strstr(buf, "task 1 'blocker'") && strstr(buf, "it blocks where the scheduler cannot see it"),
		    "%s", buf);
	assert_true(strstr(buf, "kernel state S"), "%s", buf);
	close(stall_pipe[0]);
}

/*
 * PCT without the demotion bias: task A spins once (a spin loop's yield),
 * then A and B wake at the same virtual instant and each notes its name.
 * Over 100 seeds at depth 1 (no change point: the order is the initial
 * priorities') A must come first in about half.  Before, the one yield
 * demoted A below every task for the rest of the run: B first in all 100.
 */
static void *spin_once_then_note(void *arg)
{
	(void)arg;
	uirq_sim_yield();
	uirq_sim_sleep_ns(1000);
	note('A');
	return NULL;
}

static void *note_b(void *arg)
{
	(void)arg;
	uirq_sim_sleep_ns(1000);
	note('B');
	return NULL;
}

UIRQ_TEST(sim, pct_spinner_still_preempts, .timeout = 60)
{
	unsigned int a_first = 0;

	for (uint64_t seed = 0; seed < 100; seed++) {
		pthread_t a, b;

		shared_len = 0;
		assert_eq(uirq_sim_start(seed, UIRQ_SIM_PCT, 1), 0);
		assert_eq(uirq_sim_thread_create(&a, NULL, spin_once_then_note, NULL, "spinner"), 0);
		assert_eq(uirq_sim_thread_create(&b, NULL, note_b, NULL, "other"), 0);
		assert_eq(uirq_sim_thread_join(a, NULL), 0);
		assert_eq(uirq_sim_thread_join(b, NULL), 0);
		assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
		assert_eq(shared_len, 2u);
		a_first += shared[0] == 'A';
	}
	/* Binomial(100, 1/2): outside 20..80 with probability below 1e-9, and the seeds are fixed. */
	assert_ge(a_first, 20u, "the task that spun once came first in %u of 100 seeds", a_first);
	assert_le(a_first, 80u, "the task that spun once came first in %u of 100 seeds", a_first);
}

/* Two spinners waiting for a sleeper: the sleeper still runs (setting aside is not starvation). */
static unsigned int released;

static void *spin_until_released(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE))
		uirq_sim_yield();
	return NULL;
}

static void *release_later(void *arg)
{
	(void)arg;
	uirq_sim_sleep_ns(5000);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	return NULL;
}

UIRQ_TEST(sim, spinners_do_not_starve_the_holder, .timeout = 60)
{
	for (uint64_t seed = 0; seed < 50; seed++) {
		for (int s = 0; s < 2; s++) {
			pthread_t t[3];

			released = 0;
			assert_eq(uirq_sim_start(seed, s ? UIRQ_SIM_PCT : UIRQ_SIM_RANDOM, 3), 0);
			assert_eq(uirq_sim_thread_create(&t[0], NULL, spin_until_released, NULL, "spin1"), 0);
			assert_eq(uirq_sim_thread_create(&t[1], NULL, spin_until_released, NULL, "spin2"), 0);
			assert_eq(uirq_sim_thread_create(&t[2], NULL, release_later, NULL, "holder"), 0);
			for (int i = 0; i < 3; i++)
				assert_eq(uirq_sim_thread_join(t[i], NULL), 0);
			assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
			assert_eq(uirq_sim_now_ns(), 5000u, "seed %llu: the holder's sleep is all the time the run took",
				  (unsigned long long)seed);
		}
	}
}

/* Misuse of the mode's API: an error, never a silent no-op. */
UIRQ_TEST(sim, start_refuses_bad_arguments)
{
	assert_eq(uirq_sim_start(1, (enum uirq_sim_strategy)7, 3), -EINVAL);
	assert_eq(uirq_sim_start(1, (enum uirq_sim_strategy)-1, 3), -EINVAL);
	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 0), -EINVAL);
	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 65), -EINVAL);
	assert_false(uirq_sim_running());
}

/* A thread made by uirq_sim_thread_create() outside the mode, still running: the start is refused. */
static unsigned int outside_go;

static void *outside_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&outside_go, __ATOMIC_ACQUIRE))
		uirq_futex_wait(&outside_go, 0);
	return NULL;
}

UIRQ_TEST(sim, start_refused_while_outside_threads_run, .timeout = 30)
{
	pthread_t t;

	outside_go = 0;
	assert_eq(uirq_sim_thread_create(&t, NULL, outside_thread, NULL, "outside"), 0);
	assert_eq(uirq_sim_start(1, UIRQ_SIM_RANDOM, 0), -EBUSY);
	assert_false(uirq_sim_running());
	__atomic_store_n(&outside_go, 1, __ATOMIC_RELEASE);
	uirq_futex_wake(&outside_go, 1);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	assert_eq(uirq_sim_start(1, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}

/* A task only its owner ends, still ticking at the stop: reported, not ticked forever. */
static unsigned int owned_ticks;

static void *owned_ticker(void *arg)
{
	unsigned int never = 0;

	(void)arg;
	uirq_sim_set_owned();
	for (;;) {
		uirq_futex_wait_timeout(&never, 0, 1000000);
		owned_ticks++;
	}
	return NULL;
}

UIRQ_TEST(sim, owned_task_left_at_stop_reported, .timeout = 20)
{
	pthread_t t;

	owned_ticks = 0;
	assert_eq(uirq_sim_start(5, UIRQ_SIM_PCT, 3), 0);
	assert_eq(uirq_sim_thread_create(&t, NULL, owned_ticker, NULL, "ticker"), 0);
	uirq_sim_sleep_ns(3500000);
	assert_eq(owned_ticks, 3u, "an owned task's timer fires while the run goes on");
	assert_eq(uirq_sim_stop(), UIRQ_SIM_DEADLOCK);

	const char *r = uirq_sim_report();

	fputs(r, stderr);
	assert_true(strstr(r, "uirq_sim_stop() at step"), "%s", r);
	assert_true(strstr(r, "'ticker' (ends when its owner ends it)"), "%s", r);
	assert_eq(owned_ticks, 3u, "no tick after the stop began");
}

/* ---- tasks are coroutines on task 0's thread ---- */

/*
 * A registered thread-local is each task's own: a value one task sets is
 * not what another sees after any number of switches, and a new task
 * starts at the initialiser, whatever the others did to it.  Before, each
 * task was a thread (and there was no registry).
 */
static __thread int tl_value = 7;
static __thread struct {
	unsigned int n;
	unsigned int items[64];
} tl_stack;
static size_t tl_stack_live(const void *value)
{
	const __typeof__(tl_stack) *s = value;

	return offsetof(__typeof__(tl_stack), items) + (s->n < 64 ? s->n : 64) * sizeof(s->items[0]);
}
UIRQ_SIM_TASK_LOCAL(tl_value)
UIRQ_SIM_TASK_LOCAL_EXT(tl_stack, tl_stack_live, NULL)
static int tl_bad;

static void *tl_task(void *arg)
{
	int me = (int)(uintptr_t)arg;

	if (tl_value != 7 || tl_stack.n)
		tl_bad++;
	for (int round = 0; round < 20; round++) {
		tl_value = 100 * me + round;
		tl_stack.items[tl_stack.n++] = (unsigned int)(1000 * me + round);
		uirq_sim_yield();
		uirq_sim_sleep_ns((uint64_t)(me + 1));
		if (tl_value != 100 * me + round || tl_stack.n != (unsigned int)round + 1)
			tl_bad++;
		for (int i = 0; i <= round; i++)
			tl_bad += tl_stack.items[i] != (unsigned int)(1000 * me + i);
	}
	return NULL;
}

UIRQ_TEST(sim, task_locals_per_task)
{
	pthread_t t[4];

	tl_value = 42;
	assert_eq(uirq_sim_start(5, UIRQ_SIM_RANDOM, 0), 0);
	for (int i = 0; i < 4; i++)
		assert_eq(uirq_sim_thread_create(&t[i], NULL, tl_task, (void *)(uintptr_t)(i + 1), NULL), 0);
	for (int i = 0; i < 4; i++)
		assert_eq(uirq_sim_thread_join(t[i], NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(tl_bad, 0);
	assert_eq(tl_value, 42, "task 0's own value, back");
}

/* errno is each task's: set, a switch to a task that sets its own, and back. */
static int errno_bad;

static void *errno_task(void *arg)
{
	int mine = (int)(uintptr_t)arg;

	for (int round = 0; round < 10; round++) {
		errno = mine;
		uirq_sim_yield();
		uirq_sim_sleep_ns(10);
		errno_bad += errno != mine;
	}
	return NULL;
}

UIRQ_TEST(sim, errno_per_task)
{
	pthread_t t[3];
	static const int vals[] = { EIO, EPERM, ENOENT };

	assert_eq(uirq_sim_start(9, UIRQ_SIM_PCT, 2), 0);
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_sim_thread_create(&t[i], NULL, errno_task, (void *)(uintptr_t)vals[i], NULL), 0);
	errno = EBUSY;
	uirq_sim_yield();
	assert_eq(errno, EBUSY);
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_sim_thread_join(t[i], NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(errno_bad, 0);
}

/* How many threads the process has (/proc/self/status). */
static int thread_count(void)
{
	char line[128];
	int n = -1;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/*
 * 2000 tasks alive at once, then 2000 more that end at once: no thread
 * each (the process keeps task 0's and the stall watcher's), each task's
 * return value back at its join.  Before, every task was a thread.
 */
#define MANY 2000
static unsigned int many_go;
static int many_tid_bad;

static void *many_task(void *arg)
{
	/* On its creator's thread: task 0's. */
	many_tid_bad += uirq_sim_task_id() <= 0 || gettid() != (int)(uintptr_t)arg;
	while (!__atomic_load_n(&many_go, __ATOMIC_RELAXED))
		uirq_futex_wait(&many_go, 0);
	return (void *)(uintptr_t)(uirq_sim_task_id() * 3);
}

UIRQ_TEST(sim, many_tasks_one_thread, .timeout = 60)
{
	static pthread_t t[MANY];
	int before;

	assert_eq(uirq_sim_start(3, UIRQ_SIM_RANDOM, 0), 0);
	before = thread_count();	/* with the stall watcher (and a sanitizer's own threads) */
	assert_gt(before, 0);
	for (int i = 0; i < MANY; i++)
		assert_eq(uirq_sim_thread_create(&t[i], NULL, many_task, (void *)(uintptr_t)gettid(), NULL), 0);
	uirq_sim_sleep_ns(1);	/* every one of them runs and waits */
	assert_le(thread_count(), before, "no thread per task");
	__atomic_store_n(&many_go, 1, __ATOMIC_RELAXED);
	uirq_futex_wake(&many_go, INT32_MAX);
	for (int i = 0; i < MANY; i++) {
		void *ret = NULL;

		assert_eq(uirq_sim_thread_join(t[i], &ret), 0);
		assert_eq((uintptr_t)ret, (uintptr_t)(i + 1) * 3);
	}
	/* Short-lived, detached: each ends before the next starts, their stacks reused. */
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < MANY; i++) {
		pthread_t d;

		assert_eq(uirq_sim_thread_create(&d, &attr, many_task, (void *)(uintptr_t)gettid(), NULL), 0);
	}
	pthread_attr_destroy(&attr);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(many_tid_bad, 0);
	assert_eq(uirq_sim_task_alive(1), false);
}

/* A task's stack takes a deep call chain: 192 KiB of the default 256, 3 MiB of 4 asked for. */
static volatile unsigned long deep_sink;

__attribute__((noinline)) static unsigned long deep(unsigned int n)
{
	volatile unsigned char frame[1024];

	frame[0] = (unsigned char)n;
	frame[sizeof(frame) - 1] = (unsigned char)(n >> 8);
	if (!n)
		return 0;
	return deep(n - 1) + frame[0] + frame[sizeof(frame) - 1];
}

static void *deep_task(void *arg)
{
	deep_sink = deep((unsigned int)(uintptr_t)arg);
	return (void *)1;
}

UIRQ_TEST(sim, deep_task_stacks, .timeout = 30)
{
	pthread_t t;
	void *ret = NULL;

	assert_eq(uirq_sim_start(1, UIRQ_SIM_RANDOM, 0), 0);
	assert_eq(uirq_sim_thread_create(&t, NULL, deep_task, (void *)(uintptr_t)150, NULL), 0);
	assert_eq(uirq_sim_thread_join(t, &ret), 0);
	assert_eq((uintptr_t)ret, 1u);
	uirq_sim_set_stack_size(4u << 20);
	assert_eq(uirq_sim_thread_create(&t, NULL, deep_task, (void *)(uintptr_t)3000, NULL), 0);
	assert_eq(uirq_sim_thread_join(t, &ret), 0);
	assert_eq((uintptr_t)ret, 1u);
	uirq_sim_set_stack_size(0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}

/* A task's command name is its own: its creator's until it names itself, not another task's. */
static char comm_seen[2][16];

static void *comm_task(void *arg)
{
	int i = (int)(uintptr_t)arg;

	uirq_task_comm(comm_seen[0]);
	uirq_task_set_comm(i ? "second" : "first");
	uirq_sim_yield();
	uirq_sim_sleep_ns(5);
	uirq_task_comm(comm_seen[i]);
	return NULL;
}

UIRQ_TEST(sim, comm_per_task)
{
	pthread_t t[2];
	char mine[16], after[16];

	pthread_setname_np(pthread_self(), "sim-main");
	assert_eq(uirq_sim_start(2, UIRQ_SIM_RANDOM, 0), 0);
	uirq_task_comm(mine);
	assert_str_eq(mine, "sim-main");
	assert_eq(uirq_sim_thread_create(&t[0], NULL, comm_task, (void *)0, NULL), 0);
	assert_eq(uirq_sim_thread_join(t[0], NULL), 0);
	assert_str_eq(comm_seen[0], "first");
	assert_eq(uirq_sim_thread_create(&t[1], NULL, comm_task, (void *)1, NULL), 0);
	assert_eq(uirq_sim_thread_join(t[1], NULL), 0);
	assert_str_eq(comm_seen[1], "second");
	uirq_task_comm(after);
	assert_str_eq(after, "sim-main");
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(pthread_getname_np(pthread_self(), after, sizeof(after)), 0);
	assert_str_eq(after, "sim-main", "the thread's name untouched by its tasks");
}
