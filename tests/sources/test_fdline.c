// SPDX-License-Identifier: MIT
/*
 * eventfd and timerfd lines: readiness raises, the ack reads the counter, nothing lost or counted twice.
 *
 * The tests of one event at a time run in the deterministic mode
 * (tests/sim_runs.h): the line's own eventfd and timerfd run there, the
 * flow has run to its end before each check and "nothing more came" is
 * exact.  The conservation tests keep real writer threads against the
 * real CPU (real parallel writes are their point) and an adopted eventfd
 * is refused by the mode: those wait on the handled count itself.
 */
#include "common.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>

#include "sim_runs.h"

static struct uirq_fd_line *line;
static atomic_int handled;
static atomic_ulong counted;	/* sum of the counts handlers saw */
static atomic_int last_tid;
static atomic_int write_errors;	/* asserts belong to the test's thread: writers count instead */

/* A run's start in the mode: nothing counted yet, the CPUs up. */
static void begin(unsigned int cpus)
{
	line = NULL;
	atomic_store(&handled, 0);
	atomic_store(&counted, 0);
	atomic_store(&write_errors, 0);
	start_cpus(cpus);
}

/* Longer than any flow here takes: virtual, so free; handlers take no virtual time. */
static void settle(void)
{
	uirq_sim_sleep_ns(SIM_MS);
}

static struct uirq_fd_line_stats stats(void)
{
	struct uirq_fd_line_stats st;

	assert_eq(uirq_fd_line_get_stats(line, &st), 0);
	return st;
}

static uirq_irqreturn_t count_primary(int irq, void *dev)
{
	(void)irq;
	struct uirq_fd_line *l = dev;

	atomic_fetch_add(&counted, uirq_fd_line_last_count(l));
	atomic_store(&last_tid, (int)syscall(SYS_gettid));
	atomic_fetch_add(&handled, 1);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t take_thread(int irq, void *dev)
{
	(void)irq;
	atomic_fetch_add(&counted, uirq_fd_line_take_count(dev));
	atomic_fetch_add(&handled, 1);
	return UIRQ_IRQ_HANDLED;
}

struct writer {
	int n;
};

static void *write_events(void *arg)
{
	struct writer *w = arg;

	for (int i = 0; i < w->n; i++) {
		if (uirq_eventfd_line_raise(line))
			atomic_fetch_add(&write_errors, 1);
		if (i % 16 == 0)
			usleep(i % 32 == 0 ? 0 : 20);
	}
	return NULL;
}

static void run_writers(int nthreads, int n)
{
	pthread_t t[4];
	struct writer w = { .n = n };

	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, write_events, &w);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	assert_eq(atomic_load(&write_errors), 0);
}

static void eventfd_conserved(unsigned int type)
{
	enum { N = 20000 };
	int irq = uirq_eventfd_line_create(-1, type, &line);

	assert_gt(irq, 0, "create: %d", irq);
	assert_eq(uirq_fd_line_irq(line), (unsigned int)irq);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "efd", line), 0);
	run_writers(2, N / 2);
	/* The writers are done: the last write is acked and handled, however long a loaded host takes. */
	WAIT_FOR(stats().events == N && (unsigned long)atomic_load(&handled) == stats().acks);
	/* Then a bounded look for a delivery too many: a slow host only makes it look less long. */
	usleep(SETTLE_MS * 1000);
	struct uirq_fd_line_stats st = stats();

	assert_eq(st.events, (unsigned long)N);
	assert_eq(st.acks, (unsigned long)atomic_load(&handled));
	assert_eq((unsigned long)atomic_load(&handled) + st.merged, (unsigned long)N,
		     "handled %d + merged %lu == %d", atomic_load(&handled), st.merged, N);
	assert_eq(atomic_load(&counted), (unsigned long)N, "the handlers saw every write once");
	assert_str_eq(uirq_free_irq(irq, line), "efd");
	assert_eq(uirq_fd_line_destroy(line), 0);
}

UIRQ_TEST(fdline, eventfd_writes_conserved, .init = setup1, .fini = teardown, .timeout = 60)
{
	eventfd_conserved(0);
}

UIRQ_TEST(fdline, eventfd_level_type_conserved, .init = setup1, .fini = teardown, .timeout = 60)
{
	eventfd_conserved(UIRQ_TYPE_LEVEL_HIGH);
}

static void eventfd_threaded(unsigned long flags)
{
	enum { N = 5000 };
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	/* The fd chip is oneshot-safe: handler NULL needs no ONESHOT. */
	assert_eq(uirq_request_threaded_irq(irq, NULL, take_thread, flags, "efd-thr", line), 0);
	run_writers(1, N);
	WAIT_FOR(atomic_load(&counted) == N);
	/* A bounded look for a write counted twice: a slow host only makes it look less long. */
	usleep(SETTLE_MS * 1000);
	assert_eq(atomic_load(&counted), (unsigned long)N);
	assert_eq(stats().events, (unsigned long)N);
	assert_le((unsigned long)atomic_load(&handled), stats().acks, "a thread run per wake at most");
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

UIRQ_TEST(fdline, eventfd_threaded_take_count, .init = setup1, .fini = teardown, .timeout = 60)
{
	eventfd_threaded(0);
}

UIRQ_TEST(fdline, eventfd_threaded_oneshot, .init = setup1, .fini = teardown, .timeout = 60)
{
	eventfd_threaded(UIRQF_ONESHOT);
}

UIRQ_TEST(fdline, eventfd_adopted, .init = setup1, .fini = teardown, .timeout = 20)
{
	int efd = eventfd(0, EFD_CLOEXEC);	/* blocking: the line switches it */
	int irq = uirq_eventfd_line_create(efd, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_fd_line_fd(line), efd);
	assert_true(fcntl(efd, F_GETFL) & O_NONBLOCK);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "adopted", line), 0);
	uint64_t three = 3;

	assert_eq(write(efd, &three, sizeof(three)), (ssize_t)sizeof(three));
	WAIT_FOR(atomic_load(&handled) == 1);	/* an adopted fd: not in the mode */
	assert_eq(atomic_load(&counted), 3UL);
	assert_eq(uirq_fd_line_last_count(line), 3UL);
	assert_eq(stats().merged, 2UL);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
	assert_ge(fcntl(efd, F_GETFL), 0, "an adopted fd stays open");
	close(efd);
}

SIM_TEST(fdline, timerfd_periodic_counts_conserved, begin, teardown, .timeout = 30)
{
	const uint64_t period = 2 * SIM_MS;
	int irq = uirq_timerfd_line_create(0, 0, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "tfd", line), 0);
	uint64_t t0 = uirq_sim_clock_ns();

	assert_eq(uirq_timerfd_line_settime(line, period, period), 0, "arm");

	uirq_sim_sleep_ns(200 * SIM_MS);
	assert_eq(uirq_timerfd_line_settime(line, 0, 0), 0, "disarm");
	double elapsed = (double)(uirq_sim_clock_ns() - t0) / 1e6;

	settle();
	struct uirq_fd_line_stats st = stats();
	double expect = elapsed / 2.0;

	assert_gt(atomic_load(&handled), 10, "fires periodically");
	/*
	 * Never more expirations than the time allows.  Fewer only by what
	 * disarming discards (timerfd_settime drops an unread count): the
	 * identities below are the exact checks.
	 */
	assert_le(st.events, expect + 2, "%lu expirations in %.1f ms of a 2 ms timer", st.events, elapsed);
	assert_ge(st.events, expect / 2, "%lu expirations in %.1f ms of a 2 ms timer", st.events, elapsed);
	/* An expiry reported just as the disarm drops it is read empty: that once at most. */
	assert_le(st.empty, 1UL, "%lu interrupts found the timer empty", st.empty);
	assert_eq((unsigned long)atomic_load(&handled), st.acks + st.empty);
	assert_eq(st.acks + st.merged, st.events);
	assert_eq(atomic_load(&counted), st.events);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

SIM_TEST(fdline, timerfd_one_shot, begin, teardown, .timeout = 20)
{
	int irq = uirq_timerfd_line_create(UIRQ_TYPE_LEVEL_HIGH, 5 * SIM_MS, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "tfd1", line), 0);
	uirq_sim_sleep_ns(4 * SIM_MS);
	assert_eq(atomic_load(&handled), 0, "not before its 5 ms");
	uirq_sim_sleep_ns(50 * SIM_MS);
	assert_eq(atomic_load(&handled), 1, "once, and never again");
	assert_eq(stats().events, 1UL);
	assert_eq(uirq_timerfd_line_settime(line, SIM_MS, 0), 0, "re-arm");
	settle();
	settle();
	assert_eq(atomic_load(&handled), 2);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

static int cpu_of_last(unsigned int irq, unsigned long before[2])
{
	for (int c = 0; c < 2; c++)
		if (uirq_kstat_irqs_cpu(irq, (unsigned int)c) > before[c])
			return c;
	return -1;
}

SIM_TEST_CPUS(fdline, affinity_move_delivers_on_new_cpu, 2, begin, teardown, .timeout = 30)
{
	assert_eq(uirq_num_cpus(), 2);
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "move", line), 0);
	int expect = 1;

	for (int round = 0; round < 6; round++) {
		unsigned int target = (unsigned int)(round % 2);
		unsigned long before[2] = { uirq_kstat_irqs_cpu(irq, 0), uirq_kstat_irqs_cpu(irq, 1) };

		assert_eq(uirq_irq_set_affinity(irq, 1ull << target), 0);
		assert_eq(uirq_eventfd_line_raise(line), 0);
		settle();
		assert_eq(atomic_load(&handled), expect, "round %d", round);
		assert_eq(cpu_of_last(irq, before), (int)target, "round %d ran on CPU %d", round,
			     cpu_of_last(irq, before));
		expect++;
	}
	assert_eq(uirq_irq_set_affinity(irq, 1ull << 5), -EINVAL, "no such CPU");
	assert_eq(stats().events, 6UL);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

SIM_TEST(fdline, destroy_while_idle, begin, teardown, .timeout = 20)
{
	/* Never requested. */
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_fd_line_destroy(line), 0);

	/* Requested, used, freed. */
	irq = uirq_eventfd_line_create(-1, 0, &line);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "idle", line), 0);
	for (int i = 0; i < 10; i++)
		uirq_eventfd_line_raise(line);
	settle();
	assert_eq(stats().events, 10UL);
	assert_eq(uirq_fd_line_destroy(line), -EBUSY, "a handler is installed");
	uirq_free_irq(irq, line);
	uirq_eventfd_line_raise(line);	/* nobody listens: harmless */
	settle();
	assert_eq(uirq_fd_line_destroy(line), 0);

	/* A running timer with no handler. */
	irq = uirq_timerfd_line_create(0, SIM_MS, SIM_MS, &line);
	assert_gt(irq, 0);
	uirq_sim_sleep_ns(10 * SIM_MS);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

/* ---- the CPU's watch: direct delivery, one-shot state, nothing lost while disarmed ---- */

static char primary_comm[16];

static uirq_irqreturn_t name_primary(int irq, void *dev)
{
	harness_thread_name(primary_comm);
	return count_primary(irq, dev);
}

/* Readiness runs the flow on the CPU that saw it: the CPU thread, in hard-irq context. */
SIM_TEST(fdline, readiness_runs_the_flow_on_the_cpu_thread, begin, teardown, .timeout = 20)
{
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, name_primary, 0, "direct", line), 0);
	for (int i = 1; i <= 100; i++) {
		assert_eq(uirq_eventfd_line_raise(line), 0);
		settle();
		assert_eq(atomic_load(&handled), i, "write %d", i);
	}
	assert_str_eq(primary_comm, "uirq/cpu0");
	struct uirq_fd_line_stats st = stats();

	assert_eq(st.acks, 100UL);
	assert_eq(st.empty, 0UL, "no delivery without data");
	assert_eq(uirq_kstat_irqs(irq), 100UL);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

static uirq_irqreturn_t take_primary(int irq, void *dev)
{
	(void)irq;
	atomic_fetch_add(&counted, uirq_fd_line_take_count(dev));
	atomic_fetch_add(&handled, 1);
	return UIRQ_IRQ_HANDLED;
}

/*
 * A line disabled (lazily) masks at its next interrupt and its watch stays
 * disarmed; writes made meanwhile are remembered, and the enable delivers
 * them: nothing lost, nothing delivered twice.
 */
SIM_TEST(fdline, readiness_while_masked_is_delivered_after_the_rearm, begin, teardown, .timeout = 20)
{
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, take_primary, 0, "masked", line), 0);
	uirq_disable_irq(irq);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_true(stats().masked, "the interrupt while disabled masks the line");
	assert_eq(uirq_eventfd_line_raise(line), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();	/* the CPU sees the fd ready while disarmed */
	assert_eq(atomic_load(&handled), 0);
	uirq_enable_irq(irq);
	settle();
	struct uirq_fd_line_stats st = stats();

	assert_eq(st.events, 3UL);
	assert_eq(atomic_load(&counted), 3UL, "every write seen once");
	assert_true(!st.masked);
	/* And the watch works on: one write, one interrupt. */
	int before = atomic_load(&handled);

	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&counted), 4UL);
	assert_eq(atomic_load(&handled), before + 1);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

/* Lazy disable: the edge that arrives while disabled is replayed by enable_irq. */
SIM_TEST(fdline, write_while_disabled_is_replayed, begin, teardown, .timeout = 20)
{
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, take_primary, 0, "lazy", line), 0);
	uirq_disable_irq(irq);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&handled), 0);
	uirq_enable_irq(irq);
	settle();
	assert_ge(atomic_load(&handled), 1);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(stats().events, 2UL);
	assert_eq(atomic_load(&counted), 2UL, "both writes seen once");
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

/*
 * A level line disabled (lazily): the write that comes meanwhile masks the
 * line and stays asserted - no handler ran, so nobody read it - and enable
 * delivers it, counted by the ack of the interrupt that runs the handler.
 */
static void level_write_while_disabled(uirq_irq_handler_t primary)
{
	int irq = uirq_eventfd_line_create(-1, UIRQ_TYPE_LEVEL_HIGH, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, primary, 0, "lazy-level", line), 0);
	uirq_disable_irq(irq);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_true(stats().masked, "the interrupt while disabled masks the line");
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&handled), 0);
	assert_eq(stats().events, 0UL, "the level is left asserted while no handler can run");
	uirq_enable_irq(irq);
	settle();
	assert_eq(atomic_load(&counted), 2UL, "both writes reach the handler");
	assert_eq(atomic_load(&handled), 1, "one interrupt for the two writes");
	assert_eq(stats().events, 2UL);
	assert_true(!stats().masked);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
}

SIM_TEST(fdline, level_write_while_disabled_is_delivered_by_enable, begin, teardown, .timeout = 20)
{
	level_write_while_disabled(count_primary);
}

SIM_TEST(fdline, level_write_while_disabled_is_taken_after_enable, begin, teardown, .timeout = 20)
{
	level_write_while_disabled(take_primary);
}

/*
 * A CPU whose pending queue never runs empty - a level line that screams,
 * each run handled, never deasserted - still serves its fd lines.
 */
static struct uirq_swirq *screamer;

static uirq_irqreturn_t scream(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

/*
 * On the real CPU: what is under test is that its epoll wait is still
 * polled while its queue never empties, which the mode (its fd lines
 * polled when told, no epoll) does not run.  It waits on the counts.
 */
UIRQ_TEST(fdline, fd_lines_are_served_during_a_storm, .init = setup1, .fini = teardown, .timeout = 30)
{
	struct uirq_swirq_config cfg = { .name = "storm", .nr_inputs = 1, .default_type = UIRQ_TYPE_LEVEL_HIGH };
	struct uirq_swirq_stats st0, st1;

	assert_eq(uirq_swirq_create(&cfg, &screamer), 0);
	int storm = uirq_swirq_map(screamer, 0);
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(storm, 0);
	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, count_primary, 0, "victim", line), 0);
	assert_eq(uirq_request_irq(storm, scream, 0, "screamer", NULL), 0);
	assert_eq(uirq_swirq_set_level(screamer, 0, true), 0);
	WAIT_FOR(uirq_kstat_irqs(storm) > 1000);	/* the storm is on */
	for (int i = 1; i <= 10; i++) {
		/* A write never served hangs here: Check's timeout names the test. */
		assert_eq(uirq_eventfd_line_raise(line), 0);
		WAIT_FOR(atomic_load(&counted) >= (unsigned long)i);
		assert_eq(atomic_load(&counted), (unsigned long)i, "write %d served once", i);
	}
	assert_eq(uirq_swirq_get_stats(screamer, 0, &st0), 0);
	/* The storm went on all along: it is still raising after the last write was served. */
	WAIT_FOR(uirq_swirq_get_stats(screamer, 0, &st1) == 0 && st1.raises > st0.raises);
	assert_gt(st1.raises, st0.raises, "the storm went on all along");
	assert_eq(uirq_swirq_set_level(screamer, 0, false), 0);
	uirq_free_irq(storm, NULL);
	uirq_free_irq(irq, line);
	assert_eq(uirq_fd_line_destroy(line), 0);
	assert_eq(uirq_swirq_destroy(screamer), 0);
}

UIRQ_TEST(fdline, errors, .init = setup1, .fini = teardown, .timeout = 20)
{
	struct uirq_fd_line *l = NULL;

	assert_eq(uirq_eventfd_line_create(-1, UIRQ_TYPE_LEVEL_LOW, &l), -EINVAL);
	assert_eq(uirq_eventfd_line_create(-1, UIRQ_TYPE_EDGE_FALLING, &l), -EINVAL);
	assert_eq(uirq_eventfd_line_create(-1, UIRQ_TYPE_EDGE_BOTH, &l), -EINVAL);
	assert_eq(uirq_timerfd_line_create(UIRQ_TYPE_LEVEL_LOW, 0, 0, &l), -EINVAL);
	assert_eq(uirq_eventfd_line_create(-1, 0, NULL), -EINVAL);
	assert_null(l);
	assert_eq(uirq_eventfd_line_create(999, 0, &l), -EBADF, "not open");
	int p[2];

	assert_eq(pipe(p), 0);
	assert_eq(uirq_eventfd_line_create(p[0], 0, &l), -EINVAL, "not an eventfd");
	close(p[0]);
	close(p[1]);

	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_irq_set_irq_type(irq, UIRQ_TYPE_EDGE_FALLING), -EINVAL);
	assert_eq(uirq_irq_set_irq_type(irq, UIRQ_TYPE_LEVEL_LOW), -EINVAL);
	assert_eq(stats().type, UIRQ_TYPE_EDGE_RISING, "a refused type changes nothing");
	assert_eq(uirq_request_irq(irq, count_primary, UIRQF_TRIGGER_FALLING, "bad", line), -EINVAL,
		     "a request with a trigger the chip refuses");
	assert_eq(uirq_timerfd_line_settime(line, 1, 0), -EINVAL, "not a timer");
	assert_eq(uirq_fd_line_destroy(line), 0);

	irq = uirq_timerfd_line_create(0, 0, 0, &line);
	assert_gt(irq, 0);
	assert_eq(uirq_eventfd_line_raise(line), -EINVAL, "not an eventfd");
	assert_eq(uirq_fd_line_destroy(line), 0);
	assert_eq(uirq_fd_line_destroy(NULL), -EINVAL);
}

/* The swirq destroy bug the genirq fuzzer found, in its fd-line form: a handler, not "started", is busy. */
UIRQ_TEST(fdline, destroy_busy_means_a_handler, .init = setup1, .fini = teardown, .timeout = 20)
{
	int irq = uirq_eventfd_line_create(-1, 0, &line);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, count_primary, UIRQF_NO_AUTOEN, "noauto", line), 0);
	assert_eq(uirq_fd_line_destroy(line), -EBUSY, "a handler is installed, not started");
	uirq_free_irq(irq, line);
	uirq_enable_irq(irq);	/* started by hand, no handler */
	assert_eq(uirq_fd_line_destroy(line), 0);
}
