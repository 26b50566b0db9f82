// SPDX-License-Identifier: MIT
/*
 * Handler threads: names, priority, affinity, wakes, teardown, forced threading.
 *
 * The tests of who waits for whom (wakes, free, disable, synchronize under
 * a running handler) run in the deterministic mode (tests/sim_runs.h),
 * under several seeds on one CPU and two: "free_irq has not returned yet"
 * is exact there, not 50 ms of hoping the freer got to run.  The names,
 * priorities, affinities and forced threading are the real threads' (the
 * kernel's view of them) and stay off the mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"
#include "sim_runs.h"
#include "testchip.h"
#include "uirq/context.h"

static int dev_a, dev_b;
static unsigned int run_cpus;	/* the seeded run's */
static void begin(unsigned int cpus);

static atomic_int runs;
static char ran_in[32];
static atomic_int ran_ctx = -1;

static uirq_irqreturn_t record_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	pthread_getname_np(pthread_self(), ran_in, sizeof(ran_in));
	atomic_store(&ran_ctx, uirq_is_irq_thread());
	atomic_fetch_add(&runs, 1);
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_threads, name_priority, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(0);
	char comm[64];

	assert_eq(uirq_request_threaded_irq(irq, NULL, record_thread, UIRQF_ONESHOT, "averylongdevicename",
					       &dev_a), 0);
	snprintf(comm, sizeof(comm), "irq/%u-averylongdevicename", irq);
	comm[15] = '\0';	/* TASK_COMM_LEN */
	pid_t tid = harness_find_task(comm, false);

	assert_gt(tid, 0, "no task named %s", comm);
	struct sched_param sp;
	int policy = sched_getscheduler(tid);

	assert_eq(sched_getparam(tid, &sp), 0);
	if (policy == SCHED_FIFO) {
		assert_eq(sp.sched_priority, 50);
		assert_eq(uirq_irq_set_thread_priority(irq, &dev_a, 70), 0);
		assert_eq(sched_getparam(tid, &sp), 0);
		assert_eq(sp.sched_priority, 70);
	} else {
		/* Not permitted here: normal priority, after a notice. */
		assert_eq(policy, SCHED_OTHER);
	}
	assert_eq(uirq_irq_set_thread_priority(irq, &dev_b, 70), -EINVAL, "no such action");
	assert_eq(uirq_irq_set_thread_priority(irq, &dev_a, 100), -EINVAL);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&runs, 1, 2000));
	assert_str_eq(ran_in, comm);
	assert_eq(atomic_load(&ran_ctx), 1);
	uirq_free_irq(irq, &dev_a);
	assert_true(harness_task_gone(comm), "free_irq stopped the thread");
	tc_teardown();
}

static bool affinity_is(pid_t tid, int core)
{
	cpu_set_t set;

	if (sched_getaffinity(tid, sizeof(set), &set))
		return false;
	return CPU_COUNT(&set) == 1 && CPU_ISSET(core, &set);
}

struct aff { pid_t tid; int core; };
static bool aff_cond(void *arg)
{
	struct aff *a = arg;

	return affinity_is(a->tid, a->core);
}

UIRQ_TEST(core_threads, affinity_follows_line, .timeout = 20)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	tc_setup(2, true, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(1);
	char comm[32];

	assert_eq(uirq_num_cpus(), 2u);
	assert_eq(uirq_request_threaded_irq(irq, NULL, record_thread, UIRQF_ONESHOT, "aff", &dev_a), 0);
	snprintf(comm, sizeof(comm), "irq/%u-aff", irq);
	struct aff a = { harness_find_task(comm, false), 0 };

	assert_gt(a.tid, 0);
	assert_true(tc_wait(aff_cond, &a, 2000), "thread on CPU0's core");
	assert_eq(uirq_irq_set_affinity(irq, 0x2), 0);
	a.core = 1;
	assert_true(tc_wait(aff_cond, &a, 2000), "thread moved to CPU1's core");
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&runs, 1, 2000));
	assert_eq(uirq_kstat_irqs_cpu(irq, 1), 1ul, "CPU1 took it");
	assert_eq(uirq_kstat_irqs_cpu(irq, 0), 0ul);
	assert_eq(uirq_irq_set_affinity(irq, 0x4), -EINVAL, "no online CPU in the mask");
	assert_eq(uirq_irq_set_affinity(irq, 0x3), 0);
	a.core = 0;
	assert_true(tc_wait(aff_cond, &a, 2000), "first CPU of the mask");
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

/* ---- wakes and teardown ---- */

static atomic_int gate, in_run, done;

static uirq_irqreturn_t gated_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&in_run, 1);
	while (!atomic_load(&gate))
		tc_msleep(1);
	atomic_fetch_add(&done, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_threads, wakes_coalesce, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(2);

	assert_eq(uirq_request_threaded_irq(irq, NULL, gated_thread, UIRQF_ONESHOT, "gate", &dev_a), 0);
	uirq_irq_wake_thread(irq, &dev_a);
	assert_true(tc_wait_atomic_ge(&in_run, 1, 2000));
	for (int i = 0; i < 10; i++)
		uirq_irq_wake_thread(irq, &dev_a);
	assert_false(uirq_synchronize_hardirq(irq), "a thread is active");
	atomic_store(&gate, 1);
	uirq_synchronize_irq(irq);
	assert_eq(atomic_load(&done), 2, "ten wakes while running collapse into one more run");
	assert_true(uirq_synchronize_hardirq(irq));
	uirq_irq_wake_thread(irq, &dev_b);	/* unknown dev_id: nothing */
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

struct freer { unsigned int irq; const char *name; };
static void *do_free(void *arg)
{
	struct freer *f = arg;

	f->name = uirq_free_irq(f->irq, &dev_a);
	return NULL;
}

SIM_TEST(core_threads, free_waits_for_inflight_run, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(3);
	struct freer f = { irq, NULL };
	pthread_t t;

	assert_eq(uirq_request_threaded_irq(irq, NULL, gated_thread, UIRQF_ONESHOT, "inflight", &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&in_run, 1, 2000));
	assert_eq(uirq_sim_thread_create(&t, NULL, do_free, &f, "freer"), 0);
	tc_msleep(50);	/* virtual: the freer has run as far as it can */
	assert_null(f.name, "free_irq waits for the running handler");
	atomic_store(&gate, 1);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	assert_str_eq(f.name, "inflight");
	assert_eq(atomic_load(&done), 1);
	assert_eq(atomic_load(&tc_line_of(irq)->masked), 1, "shut down");
	tc_teardown();
}

SIM_TEST(core_threads, disable_irq_waits_for_thread, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(4);

	assert_eq(uirq_request_threaded_irq(irq, NULL, gated_thread, UIRQF_ONESHOT, "dis", &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&in_run, 1, 2000));
	assert_false(uirq_disable_hardirq(irq), "disable_hardirq: a thread is still active");
	atomic_store(&gate, 1);
	uirq_disable_irq(irq);
	assert_eq(atomic_load(&done), 1, "disable_irq returned after the thread");
	uirq_enable_irq(irq);
	uirq_enable_irq(irq);	/* disable_hardirq's */
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static uirq_irqreturn_t exiting_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&runs, 1);
	pthread_exit(NULL);
}

UIRQ_TEST(core_threads, dead_thread_does_not_leave_line_masked, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(5);
	struct tc_line *l = tc_line_of(irq);

	assert_eq(uirq_request_threaded_irq(irq, NULL, exiting_thread, UIRQF_ONESHOT, "dies", &dev_a), 0);
	tc_capture_begin();
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&runs, 1, 2000));
	uirq_synchronize_irq(irq);
	const char *out = tc_capture_end();

	assert_true(strstr(out, "is an active IRQ thread"), "%s", out);
	assert_eq(atomic_load(&l->masked), 0, "finalize ran for the dead thread");
	tc_edge(irq);	/* later wakes are ignored */
	tc_msleep(20);
	uirq_synchronize_irq(irq);
	assert_eq(atomic_load(&runs), 1);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "dies");
	tc_teardown();
}

/* ---- forced threading ---- */

static char primary_in[32], secondary_in[32];
static atomic_int forced_ctx = -1, forced_primary, forced_secondary;

static uirq_irqreturn_t forced_primary_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	pthread_getname_np(pthread_self(), primary_in, sizeof(primary_in));
	/* Forced-threaded: a thread, with interrupts disabled as a hard handler had them. */
	atomic_store(&forced_ctx, uirq_is_irq_thread() && !uirq_in_hardirq() && uirq_irqs_disabled());
	atomic_fetch_add(&forced_primary, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t forced_secondary_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	pthread_getname_np(pthread_self(), secondary_in, sizeof(secondary_in));
	atomic_fetch_add(&forced_secondary, 1);
	return UIRQ_IRQ_HANDLED;
}

static atomic_int nothread_hard = -1;
static uirq_irqreturn_t nothread_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_store(&nothread_hard, uirq_in_hardirq());
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_threads, forced_threading, .timeout = 20)
{
	tc_setup(1, false, true, uirq_handle_level_irq);
	unsigned int irq = tc_irq(6), irq2 = tc_irq(7);
	char want[32], want_s[32];

	assert_true(uirq_force_irqthreads());
	assert_eq(uirq_request_threaded_irq(irq, forced_primary_fn, forced_secondary_fn, 0, "frc", &dev_a), 0);
	snprintf(want, sizeof(want), "irq/%u-frc", irq);
	snprintf(want_s, sizeof(want_s), "irq/%u-s-frc", irq);
	assert_gt(harness_find_task(want, false), 0);
	assert_gt(harness_find_task(want_s, false), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&forced_secondary, 1, 2000));
	assert_str_eq(primary_in, want);
	assert_str_eq(secondary_in, want_s);
	assert_eq(atomic_load(&forced_ctx), 1);
	assert_eq(atomic_load(&forced_primary), 1);
	/* The line was oneshot (implied) and is unmasked again. */
	uirq_synchronize_irq(irq);
	assert_eq(atomic_load(&tc_line_of(irq)->masked), 0);
	uirq_free_irq(irq, &dev_a);
	assert_true(harness_task_gone(want_s), "%s still there after free_irq()", want_s);

	/* IRQF_NO_THREAD stays in hard-irq context. */
	assert_eq(uirq_request_irq(irq2, nothread_primary, UIRQF_NO_THREAD, "nothr", &dev_b), 0);
	tc_edge(irq2);
	assert_true(tc_wait_atomic_ge(&nothread_hard, 0, 2000));
	assert_eq(atomic_load(&nothread_hard), 1);
	uirq_free_irq(irq2, &dev_b);

	/* The switch is runtime: off again, a primary is a hard handler. */
	uirq_set_force_irqthreads(false);
	atomic_store(&nothread_hard, -1);
	assert_eq(uirq_request_irq(irq2, nothread_primary, 0, "hard", &dev_b), 0);
	tc_edge(irq2);
	assert_true(tc_wait_atomic_ge(&nothread_hard, 0, 2000));
	assert_eq(atomic_load(&nothread_hard), 1);
	uirq_free_irq(irq2, &dev_b);
	tc_teardown();
}

/*
 * Found by tests/fuzz/fuzz_genirq.c (corpus regress-nested-inprogress.bin):
 * handle_nested_irq() set and cleared IRQD_IRQ_INPROGRESS, so a nested run
 * beside a hard-irq flow still running the line's primaries cleared the bit
 * under it, and free_irq() freed an action the CPU was running.  The nested
 * run counts in threads_active only (mainline since 6.4): synchronize_hardirq()
 * still waits for the primary afterwards.
 */
static atomic_int gprimary_in, gprimary_gate;

static uirq_irqreturn_t gated_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_store(&gprimary_in, 1);
	while (!atomic_load(&gprimary_gate))
		uirq_sim_yield();	/* hard-irq context: spin, as a slow device read would; the mode's scheduling point */
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t nop_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

static atomic_int synced;

static void *do_sync_hardirq(void *arg)
{
	uirq_synchronize_hardirq(*(unsigned int *)arg);
	atomic_store(&synced, 1);
	return NULL;
}

SIM_TEST(core_threads, nested_run_keeps_hardirq_inprogress, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(5);
	pthread_t t;

	assert_eq(uirq_request_threaded_irq(irq, gated_primary, nop_thread, 0, "nestrace", &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&gprimary_in, 1, 2000));
	uirq_handle_nested_irq(irq);	/* a demultiplexer's thread runs the line meanwhile */
	assert_eq(uirq_sim_thread_create(&t, NULL, do_sync_hardirq, &irq, "syncer"), 0);
	/*
	 * The spinning primary is always runnable, which stops virtual time:
	 * the test gives the syncer its chances by yielding, a bound in steps.
	 */
	assert_false(SIM_YIELD_UNTIL(atomic_load(&synced), 1000), "synchronize_hardirq() returned under a running primary");
	atomic_store(&gprimary_gate, 1);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	assert_eq(atomic_load(&synced), 1);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "nestrace");
	tc_teardown();
}

/* A seeded run's start: the counts and gates of the tests in the mode back to zero. */
static void begin(unsigned int cpus)
{
	atomic_int *zero[] = { &runs, &gate, &in_run, &done, &gprimary_in, &gprimary_gate, &synced };

	run_cpus = cpus;
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		atomic_store(zero[i], 0);
}
