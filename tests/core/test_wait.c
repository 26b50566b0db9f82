// SPDX-License-Identifier: MIT
/*
 * The wait modes (uirq_cpu_set_wait(), uirq_irq_set_thread_wait()): every
 * raise delivered once in each mode - to the primary and to the thread, from
 * a software line and from an eventfd -, modes switched while raises run,
 * polling CPUs and threads torn down, the poll mode never sleeping, and the
 * same in the deterministic mode, where a poll is a scheduling point.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sim_runs.h"
#include "testchip.h"
#include "uirq/sources.h"

static int dev_a, dev_b;
static atomic_int primaries, threads;

static uirq_irqreturn_t wake_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&primaries, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t count_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&threads, 1);
	return UIRQ_IRQ_HANDLED;
}

static const enum uirq_wait_mode modes[] = { UIRQ_WAIT_BLOCKING, UIRQ_WAIT_ADAPTIVE, UIRQ_WAIT_POLL };
static const char *const mode_names[] = { "blocking", "adaptive", "poll" };

static void set_modes(unsigned int irq, enum uirq_wait_mode m)
{
	for (unsigned int cpu = 0; cpu < uirq_num_cpus(); cpu++)
		assert_eq(uirq_cpu_set_wait(cpu, m, 0), 0);
	assert_eq(uirq_irq_set_thread_wait(irq, m, 0), 0);
}

/* Wait for the thread's count, yielding: a polling CPU and thread may hold the other cores. */
static void await_threads(int n)
{
	while (atomic_load(&threads) < n)
		sched_yield();
}

UIRQ_TEST(core_wait, bad_arguments_are_einval, .timeout = 20)
{
	enum uirq_wait_mode m;
	unsigned int ns;

	tc_setup(1, false, false, uirq_handle_edge_irq);
	assert_eq(uirq_cpu_set_wait(UIRQ_MAX_CPUS, UIRQ_WAIT_POLL, 0), -EINVAL);
	assert_eq(uirq_cpu_set_wait(0, (enum uirq_wait_mode)3, 0), -EINVAL);
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_POLL, 1000), -EINVAL, "a bound for the poll mode");
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_BLOCKING, 1000), -EINVAL, "a bound for the blocking mode");
	assert_eq(uirq_cpu_get_wait(UIRQ_MAX_CPUS, &m, &ns), -EINVAL);
	assert_eq(uirq_irq_set_thread_wait(0, UIRQ_WAIT_POLL, 0), -EINVAL, "irq 0 has no descriptor");
	assert_eq(uirq_irq_set_thread_wait(tc_irq(0), (enum uirq_wait_mode)7, 0), -EINVAL);
	assert_eq(uirq_irq_set_thread_wait(tc_irq(0), UIRQ_WAIT_POLL, 5), -EINVAL);
	/* What was set reads back; the adaptive bound defaults when 0. */
	assert_eq(uirq_cpu_get_wait(0, &m, &ns), 0);
	assert_eq(m, UIRQ_WAIT_BLOCKING);
	assert_eq(ns, 0u);
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_ADAPTIVE, 0), 0);
	assert_eq(uirq_cpu_get_wait(0, &m, &ns), 0);
	assert_eq(m, UIRQ_WAIT_ADAPTIVE);
	assert_eq(ns, UIRQ_WAIT_ADAPTIVE_NS);
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_ADAPTIVE, 12345), 0);
	assert_eq(uirq_cpu_get_wait(0, &m, &ns), 0);
	assert_eq(ns, 12345u);
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_POLL, 0), 0);
	assert_eq(uirq_cpu_get_wait(0, &m, &ns), 0);
	assert_eq(m, UIRQ_WAIT_POLL);
	assert_eq(ns, 0u);
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_BLOCKING, 0), 0);
	tc_teardown();
}

/*
 * In each mode, raises one at a time (the next once the thread has run) and
 * then in bursts: the primary and the thread see each closed-loop raise
 * exactly once, and a burst's raises coalesce into no more runs than raises.
 */
UIRQ_TEST(core_wait, every_raise_is_delivered_once_in_each_mode, .timeout = 120)
{
	enum { N = 200 };

	tc_setup(2, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(3);

	assert_eq(uirq_request_threaded_irq(irq, wake_primary, count_thread, 0, "wait", &dev_a), 0);
	for (size_t m = 0; m < 3; m++) {
		set_modes(irq, modes[m]);
		atomic_store(&primaries, 0);
		atomic_store(&threads, 0);
		for (int i = 1; i <= N; i++) {
			tc_edge(irq);
			await_threads(i);
		}
		assert_eq(atomic_load(&primaries), N, "%s mode", mode_names[m]);
		assert_eq(atomic_load(&threads), N, "%s mode", mode_names[m]);
	}
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

/* The same from an eventfd line: the fd path, which the adaptive and poll modes look at without sleeping. */
UIRQ_TEST(core_wait, eventfd_raises_are_delivered_once_in_each_mode, .timeout = 120)
{
	enum { N = 200 };
	struct uirq_fd_line *l;

	tc_setup(1, false, false, uirq_handle_edge_irq);
	int irq = uirq_eventfd_line_create(-1, 0, &l);

	assert_gt(irq, 0);
	assert_eq(uirq_request_threaded_irq((unsigned int)irq, wake_primary, count_thread, 0, "efd", &dev_a), 0);
	for (size_t m = 0; m < 3; m++) {
		set_modes((unsigned int)irq, modes[m]);
		atomic_store(&primaries, 0);
		atomic_store(&threads, 0);
		struct uirq_fd_line_stats before, after;

		assert_eq(uirq_fd_line_get_stats(l, &before), 0);
		for (int i = 1; i <= N; i++) {
			assert_eq(uirq_eventfd_line_raise(l), 0);
			await_threads(i);
		}
		assert_eq(uirq_fd_line_get_stats(l, &after), 0);
		assert_eq(atomic_load(&primaries), N, "%s mode", mode_names[m]);
		assert_eq(atomic_load(&threads), N, "%s mode", mode_names[m]);
		assert_eq(after.events - before.events, (unsigned long)N, "%s mode", mode_names[m]);
	}
	uirq_free_irq((unsigned int)irq, &dev_a);
	assert_eq(uirq_fd_line_destroy(l), 0);
	tc_teardown();
}

static atomic_bool switching;
static unsigned int switch_irq;

static void *switcher(void *arg)
{
	unsigned int k = 0;

	(void)arg;
	while (atomic_load(&switching)) {
		enum uirq_wait_mode m = modes[k++ % 3];

		assert_eq(uirq_cpu_set_wait(0, m, m == UIRQ_WAIT_ADAPTIVE ? 2000u * (k % 4) : 0), 0);
		assert_eq(uirq_irq_set_thread_wait(switch_irq, modes[(k / 3) % 3], 0), 0);
		usleep(200);
	}
	return NULL;
}

/* Modes switched every 200 us while raises run: nothing lost, nothing twice. */
UIRQ_TEST(core_wait, modes_switch_while_raises_run, .timeout = 120)
{
	enum { N = 1000 };
	pthread_t t;

	tc_setup(1, false, false, uirq_handle_edge_irq);
	switch_irq = tc_irq(4);
	atomic_store(&primaries, 0);
	atomic_store(&threads, 0);
	assert_eq(uirq_request_threaded_irq(switch_irq, wake_primary, count_thread, 0, "switch", &dev_b), 0);
	atomic_store(&switching, true);
	assert_eq(pthread_create(&t, NULL, switcher, NULL), 0);
	for (int i = 1; i <= N; i++) {
		tc_edge(switch_irq);
		await_threads(i);
	}
	atomic_store(&switching, false);
	assert_eq(pthread_join(t, NULL), 0);
	assert_eq(atomic_load(&primaries), N);
	assert_eq(atomic_load(&threads), N);
	uirq_free_irq(switch_irq, &dev_b);
	tc_teardown();
}

/*
 * The poll mode never sleeps (no voluntary context switch of the CPU or the
 * handler thread while idle), and tearing down a polling line and CPU
 * returns; back in the blocking mode, the idle CPU sleeps again.  In the
 * core_cpu suite, which measures how threads are scheduled: under Valgrind
 * (scripts/valgrind.sh leaves that suite out) a thread waiting for
 * Valgrind's lock sleeps, whatever uirq does.
 */
UIRQ_TEST(core_cpu, poll_mode_never_sleeps_and_tears_down, .timeout = 60)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(5);
	pid_t cpu, thr;

	atomic_store(&threads, 0);
	assert_eq(uirq_request_threaded_irq(irq, wake_primary, count_thread, 0, "pollme", &dev_a), 0);
	set_modes(irq, UIRQ_WAIT_POLL);
	tc_edge(irq);
	await_threads(1);	/* both have run in the poll mode: past any sleep begun before it */
	tc_edge(irq);
	await_threads(2);
	while ((cpu = harness_find_task("uirq/cpu0", false)) < 0)
		usleep(500);
	while ((thr = harness_find_task("irq/", true)) < 0)
		usleep(500);
	long c0 = tc_voluntary_switches(cpu), t0 = tc_voluntary_switches(thr);

	usleep(50000);
	assert_eq(tc_voluntary_switches(cpu), c0, "the polling CPU slept");
	assert_eq(tc_voluntary_switches(thr), t0, "the polling thread slept");
	/* Blocking again: once idle after the raise, the CPU sleeps (Check's timeout fails it if it never does). */
	set_modes(irq, UIRQ_WAIT_BLOCKING);
	c0 = tc_voluntary_switches(cpu);
	tc_edge(irq);
	await_threads(3);
	while (tc_voluntary_switches(cpu) == c0)
		usleep(1000);
	set_modes(irq, UIRQ_WAIT_POLL);
	tc_edge(irq);
	await_threads(4);
	/* Freed and stopped while polling. */
	uirq_free_irq(irq, &dev_a);
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_POLL, 0), 0);
	tc_teardown();
	assert_eq(uirq_cpu_set_wait(0, UIRQ_WAIT_BLOCKING, 0), 0);
}

/* ---- the deterministic mode: a poll is a scheduling point ---- */

static void begin_sim(unsigned int cpus)
{
	atomic_store(&primaries, 0);
	atomic_store(&threads, 0);
	tc_setup(cpus, false, false, uirq_handle_edge_irq);
}

SIM_TEST(core_wait, every_raise_is_delivered_once_in_each_mode_seeded, begin_sim, tc_teardown, .timeout = 120)
{
	enum { N = 30 };
	unsigned int irq = tc_irq(6);
	int done = 0;

	assert_eq(uirq_request_threaded_irq(irq, wake_primary, count_thread, 0, "simwait", &dev_a), 0);
	for (size_t m = 0; m < 3; m++) {
		set_modes(irq, modes[m]);
		for (int i = 1; i <= N; i++) {
			tc_edge(irq);
			assert_true(tc_wait_atomic_ge(&threads, done + i, 10), "%s mode: raise %d not run", mode_names[m],
				    i);
		}
		done += N;
		tc_msleep(1);
		assert_eq(atomic_load(&primaries), done, "%s mode", mode_names[m]);
		assert_eq(atomic_load(&threads), done, "%s mode", mode_names[m]);
	}
	set_modes(irq, UIRQ_WAIT_BLOCKING);
	uirq_free_irq(irq, &dev_a);
}
