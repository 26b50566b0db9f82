// SPDX-License-Identifier: MIT
/* The CPUs: explicit pinning, lock-free counters from any context, the adaptive queue poll. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "testchip.h"

static int dev_a;

static long online_cores(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * The tid of the thread named comm, once it has named itself, however long
 * a loaded host takes (Check's timeout bounds a thread that never does).
 */
static pid_t named_tid(const char *comm)
{
	pid_t tid;

	while ((tid = harness_find_task(comm, false)) < 0)
		usleep(500);
	return tid;
}

/* The tid of uirq/cpuN. */
static pid_t cpu_tid(unsigned int cpu)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "uirq/cpu%u", cpu);
	return named_tid(comm);
}

static cpu_set_t affinity_of(pid_t tid)
{
	cpu_set_t set;

	assert_eq(sched_getaffinity(tid, sizeof(set), &set), 0);
	return set;
}

static void pin_self(int core)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(core, &set);
	assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

/* ---- pinning is explicit ---- */

UIRQ_TEST(core_cpu, zero_initialised_config_pins_nothing, .timeout = 20)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 2 };	/* pin[] all 0: must not mean "core 0" */
	cpu_set_t proc = affinity_of(0);

	assert_eq(uirq_cpus_start(&cfg), 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		cpu_set_t set = affinity_of(cpu_tid(cpu));

		assert_true(CPU_EQUAL(&set, &proc), "cpu%u pinned (%d cores allowed of %d)", cpu, CPU_COUNT(&set),
			  CPU_COUNT(&proc));
	}
	uirq_cpus_stop();
}

UIRQ_TEST(core_cpu, unpinned_cpu_ignores_the_callers_pinning, .timeout = 20)
{
	if (online_cores() < 2)
		return;
	cpu_set_t proc = affinity_of(0);

	pin_self(0);	/* a bench pins its main thread: uirq's CPU must not inherit it */
	tc_setup(1, false, false, uirq_handle_edge_irq);
	cpu_set_t set = affinity_of(cpu_tid(0));

	assert_true(CPU_EQUAL(&set, &proc), "the CPU inherited the caller's pinning (%d cores)", CPU_COUNT(&set));
	tc_teardown();
}

static uirq_irqreturn_t nop_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

struct want_mask {
	pid_t tid;
	cpu_set_t mask;
};

static bool affinity_is(void *arg)
{
	struct want_mask *w = arg;
	cpu_set_t set;

	return !sched_getaffinity(w->tid, sizeof(set), &set) && CPU_EQUAL(&set, &w->mask);
}

UIRQ_TEST(core_cpu, unpinned_handler_thread_ignores_the_requesters_pinning, .timeout = 20)
{
	if (online_cores() < 2)
		return;
	struct want_mask w = { -1, affinity_of(0) };

	pin_self(0);
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(4);
	char comm[32];

	assert_eq(uirq_request_threaded_irq(irq, NULL, nop_thread, UIRQF_ONESHOT, "unpin", &dev_a), 0);
	snprintf(comm, sizeof(comm), "irq/%u-unpin", irq);
	w.tid = named_tid(comm);
	assert_true(tc_wait(affinity_is, &w, 2000), "the handler thread inherited the requester's pinning");
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_cpu, pin_outside_the_callers_affinity, .timeout = 20)
{
	if (online_cores() < 2)
		return;
	cpu_set_t proc = affinity_of(0);

	if (!CPU_ISSET(1, &proc))
		return;
	pin_self(0);
	struct uirq_cpu_config cfg = { .nr_cpus = 2, .pinned = true, .pin = { 1, -1 } };

	assert_eq(uirq_cpus_start(&cfg), 0, "core 1 is the process's even if the caller is on core 0");
	cpu_set_t set = affinity_of(cpu_tid(0));

	assert_eq(CPU_COUNT(&set), 1, "cpu0 on core 1");
	assert_true(CPU_ISSET(1, &set), "cpu0 on core 1");
	set = affinity_of(cpu_tid(1));
	assert_true(CPU_EQUAL(&set, &proc), "pin -1: cpu1 not pinned");
	uirq_cpus_stop();
}

UIRQ_TEST(core_cpu, bad_pins_are_einval, .timeout = 20)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 1, .pinned = true };
	const int bad[] = { -2, CPU_SETSIZE, 100000, 1000 };

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (bad[i] == 1000 && online_cores() > 1000)
			continue;
		cfg.pin[0] = bad[i];
		assert_eq(uirq_cpus_start(&cfg), -EINVAL, "pin %d", bad[i]);
		assert_eq(uirq_num_cpus(), 0u);
	}
	cfg.nr_cpus = UIRQ_MAX_CPUS + 1;
	cfg.pin[0] = -1;
	assert_eq(uirq_cpus_start(&cfg), -EINVAL);
	/* Not pinned: pin[] is not even looked at. */
	struct uirq_cpu_config loose = { .nr_cpus = 1, .pin = { -7 } };

	assert_eq(uirq_cpus_start(&loose), 0);
	assert_eq(uirq_num_cpus(), 1u);
	uirq_cpus_stop();
}

/* ---- lock-free statistics ---- */

static atomic_ulong seen_total, seen_cpu0;
static atomic_int kstat_runs;

/* A hard-irq handler reading the statistics: no mutex, no might_sleep report. */
static uirq_irqreturn_t kstat_primary(int irq, void *dev)
{
	(void)dev;
	atomic_store(&seen_total, uirq_kstat_irqs((unsigned int)irq));
	atomic_store(&seen_cpu0, uirq_kstat_irqs_cpu((unsigned int)irq, 0));
	atomic_fetch_add(&kstat_runs, 1);
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_cpu, kstat_from_hardirq_context, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(2);

	assert_eq(uirq_request_irq(irq, kstat_primary, 0, "kstat", &dev_a), 0);
	for (int i = 1; i <= 5; i++) {
		tc_edge(irq);
		assert_true(tc_wait_atomic_ge(&kstat_runs, i, 2000));
		/* The flow counts the interrupt before it runs the handlers. */
		assert_eq(atomic_load(&seen_total), (unsigned long)i);
		assert_eq(atomic_load(&seen_cpu0), (unsigned long)i);
	}
	assert_eq(uirq_kstat_irqs(irq), 5ul);
	assert_eq(uirq_kstat_irqs_cpu(irq, 7), 0ul, "a CPU that does not exist");
	assert_eq(uirq_kstat_irqs(60000), 0ul, "an irq that does not exist");
	uirq_free_irq(irq, &dev_a);
	tc_teardown();	/* asserts: no lockdep / might_sleep report */
}

static struct uirq_irq_chip plain_chip = { .name = "PLAIN" };
static atomic_int plain_handled, reader_stop;
static unsigned int reader_irq;

static uirq_irqreturn_t plain_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&plain_handled, 1);
	return UIRQ_IRQ_HANDLED;
}

static void *kstat_reader(void *arg)
{
	unsigned long last = 0;

	(void)arg;
	while (!atomic_load(&reader_stop)) {
		unsigned long v = uirq_kstat_irqs(reader_irq);
		unsigned long per = 0;

		for (unsigned int c = 0; c < 4; c++)
			per += uirq_kstat_irqs_cpu(reader_irq, c);
		assert_ge(v, last, "counts only grow");
		last = v;
		(void)per;
	}
	return NULL;
}

/*
 * Readers race the per-CPU counters being regrown by CPU restarts (TSan
 * checks the accesses), and the counts taken before a restart survive it.
 *
 * Each raise is waited for before the next: when the handler has run, the
 * flow has counted it (the flow counts before handle_irq_event) and nothing
 * is left in flight.  A burst of raises followed by a wait for
 * "kstat == handled" is no such barrier: it holds at 0 == 0 before the CPU
 * takes the first raise, and the free_irq() that follows then races an
 * interrupt in flight.  As in the kernel, such an interrupt is counted (the
 * flow saw the action) while its handler never runs (free_irq() unlinked
 * the action before the unlocked walk of the chain), and kstat stays one
 * above the handler runs for good.
 */
UIRQ_TEST(core_cpu, kstat_reads_race_cpu_restarts, .timeout = 60)
{
	int irq = uirq_irq_alloc_descs(-1, 1, 1);
	pthread_t t;

	assert_gt(irq, 0);
	tc_count_reports();
	reader_irq = (unsigned int)irq;
	uirq_irq_set_chip_and_handler_name(reader_irq, &plain_chip, uirq_handle_simple_irq, "simple");
	assert_eq(pthread_create(&t, NULL, kstat_reader, NULL), 0);
	unsigned long per_cpu[3] = { 0 };

	for (unsigned int round = 0; round < 12; round++) {
		struct uirq_cpu_config cfg = { .nr_cpus = round % 3 + 1 };
		unsigned int cpu = round % cfg.nr_cpus;

		assert_eq(uirq_cpus_start(&cfg), 0);
		assert_eq(uirq_request_irq(reader_irq, plain_primary, 0, "plain", &dev_a), 0);
		assert_eq(uirq_irq_set_affinity(reader_irq, 1ull << cpu), 0);
		for (int i = 0; i < 200; i++) {
			int want = atomic_load(&plain_handled) + 1;

			assert_eq(uirq_irq_raise(reader_irq), 0);
			assert_true(tc_wait_atomic_ge(&plain_handled, want, 10000), "round %u raise %d not handled", round, i);
		}
		per_cpu[cpu] += 200;
		assert_eq(uirq_kstat_irqs(reader_irq), (unsigned long)atomic_load(&plain_handled),
			     "round %u: kstat %lu handled %d", round, uirq_kstat_irqs(reader_irq),
			     atomic_load(&plain_handled));
		for (unsigned int c = 0; c < 3; c++)
			assert_eq(uirq_kstat_irqs_cpu(reader_irq, c), per_cpu[c], "round %u cpu%u: %lu, not %lu",
				     round, c, uirq_kstat_irqs_cpu(reader_irq, c), per_cpu[c]);
		uirq_free_irq(reader_irq, &dev_a);
		uirq_cpus_stop();
	}
	atomic_store(&reader_stop, 1);
	pthread_join(t, NULL);
	assert_eq(uirq_kstat_irqs(reader_irq), (unsigned long)atomic_load(&plain_handled));
	uirq_irq_set_chip_and_handler_name(reader_irq, NULL, NULL, NULL);
	uirq_irq_free_descs(reader_irq, 1);
	assert_eq(atomic_load(&lockdep_reports), 0);
}

/* ---- the adaptive poll of the pending queue ---- */

static atomic_int pp_handled;

static uirq_irqreturn_t pp_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add_explicit(&pp_handled, 1, memory_order_release);
	return UIRQ_IRQ_HANDLED;
}

static double process_cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec * 1e-6;
}

/*
 * One raise at a time, the next right after the previous was handled: the
 * CPU, on another core, learns to poll its queue and takes most of them
 * without going to sleep (no doorbell, no wake-up).  Once the raises stop,
 * it stops polling: an idle CPU costs nothing.
 */
UIRQ_TEST(core_cpu, back_to_back_raises_are_polled_idle_cpu_sleeps, .timeout = 60)
{
	enum { N = 20000 };

	if (online_cores() < 2)
		return;
	pin_self(0);
	tc_setup(2, true, false, uirq_handle_edge_irq);	/* cpu1 on core 1, the raiser on core 0 */
	unsigned int irq = tc_irq(5);

	assert_eq(uirq_request_irq(irq, pp_primary, 0, "pp", &dev_a), 0);
	assert_eq(uirq_irq_set_affinity(irq, 0x2), 0);
	pid_t tid = cpu_tid(1);
	long sw0 = tc_voluntary_switches(tid);

	for (int i = 1; i <= N; i++) {
		tc_edge(irq);
		while (atomic_load_explicit(&pp_handled, memory_order_acquire) < i)
			;
	}
	long sleeps = tc_voluntary_switches(tid) - sw0;

	assert_lt(sleeps, N / 2, "the CPU slept %ld times for %d back-to-back raises", sleeps, N);
	assert_eq(uirq_kstat_irqs_cpu(irq, 1), (unsigned long)N);
	/*
	 * Idle: no polling left.  Real time, as CPU time is what is measured:
	 * the last polling window (wall-clock, at most POLL_MAX_NS) ends
	 * within the 20 ms, and a loaded host adds no CPU time of its own to
	 * this process's, so load cannot raise 'used'.
	 */
	usleep(20000);
	double c0 = process_cpu_seconds();

	usleep(300000);
	double used = process_cpu_seconds() - c0;

	assert_lt(used, 0.03, "idle uirq CPUs burnt %.3f s of CPU in 0.3 s", used);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}
