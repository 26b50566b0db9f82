// SPDX-License-Identifier: MIT
/*
 * Lines in the deterministic mode: an eventfd line the program made itself
 * runs there (its CPU polls the fd instead of epoll, which the scheduler
 * cannot see) and replays by seed; a timerfd line expires on the virtual
 * clock, exactly; every fd the program does not own - an adopted eventfd, a
 * raw fd watched by hand - is refused with -EOPNOTSUPP.
 */
#include "common.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>

#include "uirq/sim.h"

#define RAISES 40

static atomic_ulong hard, threaded;

static uirq_irqreturn_t primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&hard, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&threaded, 1);
	uirq_sim_sleep_ns(3000);	/* work that outlasts the next raises: they arrive masked */
	return UIRQ_IRQ_HANDLED;
}

struct outcome {
	uint64_t hash;
	size_t steps;
	unsigned long hard, threaded, events;
};

/* One seeded run: 2 CPUs, an eventfd line, a threaded ONESHOT handler, RAISES raises 1 us apart. */
static struct outcome run(uint64_t seed)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 2 };
	struct uirq_fd_line_stats st;
	struct uirq_fd_line *l;
	struct outcome o;
	int irq;

	atomic_store(&hard, 0);
	atomic_store(&threaded, 0);
	assert_eq(uirq_sim_start(seed, UIRQ_SIM_PCT, 3), 0);
	assert_eq(uirq_cpus_start(&cfg), 0);
	irq = uirq_eventfd_line_create(-1, 0, &l);
	assert_gt(irq, 0, "eventfd line in the mode: %d", irq);
	assert_eq(uirq_request_threaded_irq((unsigned int)irq, primary, thread_fn, UIRQF_ONESHOT, "simline", &hard), 0);
	for (int i = 0; i < RAISES; i++) {
		assert_eq(uirq_eventfd_line_raise(l), 0);
		uirq_sim_sleep_ns(1000);
	}
	uirq_sim_sleep_ns(1000000);	/* virtual: costs no wall time */
	assert_eq(uirq_fd_line_get_stats(l, &st), 0);
	uirq_free_irq((unsigned int)irq, &hard);
	assert_eq(uirq_fd_line_destroy(l), 0);
	uirq_cpus_stop();
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	o = (struct outcome){ uirq_sim_trace_hash(), uirq_sim_trace_len(), atomic_load(&hard), atomic_load(&threaded),
			      st.events };
	return o;
}

UIRQ_TEST(simlines, eventfd_line_runs_and_replays, .timeout = 60)
{
	struct outcome a = run(7), b = run(7);
	bool differ = false;

	/* Nothing lost: every raise is an event read by an ack; merged ones are counted in the same read. */
	assert_eq(a.events, RAISES, "events %lu", a.events);
	assert_gt(a.hard, 0);
	/* ONESHOT is dropped (the chip is oneshot-safe): wake-ups while the thread runs coalesce, as the kernel's do. */
	assert_ge(a.threaded, 1, "threaded %lu, hard %lu", a.threaded, a.hard);
	assert_le(a.threaded, a.hard, "threaded %lu, hard %lu", a.threaded, a.hard);
	assert_eq(a.hash, b.hash, "seed 7 twice: %016llx %016llx", (unsigned long long)a.hash,
		  (unsigned long long)b.hash);
	assert_eq(a.steps, b.steps);
	assert_eq(a.hard, b.hard);
	assert_eq(a.threaded, b.threaded);
	for (uint64_t s = 8; s < 16 && !differ; s++)
		differ = run(s).hash != a.hash;
	assert_true(differ, "eight other seeds all scheduled as seed 7");
}

/* ---- timerfd lines on the virtual clock ---- */

#define MS 1000000ull
#define MAX_TICKS 64

static uint64_t t0, stamp[MAX_TICKS], count[MAX_TICKS];
static atomic_uint ticks;
static struct uirq_fd_line *tl;

/* Each delivery: when on the virtual clock, and how many expirations its ack read. */
static uirq_irqreturn_t tick(int irq, void *dev)
{
	unsigned int i = atomic_fetch_add(&ticks, 1);

	(void)irq;
	(void)dev;
	if (i < MAX_TICKS) {
		stamp[i] = uirq_sim_clock_ns() - t0;
		count[i] = uirq_fd_line_last_count(tl);
	}
	return UIRQ_IRQ_HANDLED;
}

struct timer_outcome {
	uint64_t hash;
	unsigned int ticks;
	unsigned long events;
};

/*
 * 1 ms periodic for 10.5 ms; 3 periods disabled (merged into one ack); a
 * re-arm while 2 expirations wait unread (dropped, as timerfd_settime()
 * drops them); disarmed for 5 ms; a 2 ms one-shot.  A level line: while
 * disabled its counter stays unread (an edge line's would be acked at the
 * first expiry and resent at the enable, the lazy disable's way).
 */
static struct timer_outcome timer_run(uint64_t seed, unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };
	struct uirq_fd_line_stats st;
	struct timer_outcome o;
	int irq;

	atomic_store(&ticks, 0);
	assert_eq(uirq_sim_start(seed, UIRQ_SIM_PCT, 3), 0);
	assert_eq(uirq_cpus_start(&cfg), 0);
	t0 = uirq_sim_clock_ns();
	irq = uirq_timerfd_line_create(UIRQ_TYPE_LEVEL_HIGH, MS, MS, &tl);
	assert_gt(irq, 0, "timerfd line in the mode: %d", irq);
	assert_eq(uirq_request_irq((unsigned int)irq, tick, 0, "simtimer", &ticks), 0);
	uirq_sim_sleep_ns(10 * MS + MS / 2);		/* 10.5 ms: 10 ticks */
	uirq_disable_irq((unsigned int)irq);
	uirq_sim_sleep_ns(3 * MS);			/* 13.5 ms: 3 expirations wait */
	uirq_enable_irq((unsigned int)irq);		/* one delivery reads all 3 */
	uirq_sim_sleep_ns(MS / 4);
	uirq_disable_irq((unsigned int)irq);
	uirq_sim_sleep_ns(2 * MS);			/* 15.75 ms: 2 more wait (14, 15) */
	assert_eq(uirq_timerfd_line_settime(tl, 0, 0), 0);	/* disarmed: the 2 dropped */
	uirq_enable_irq((unsigned int)irq);
	uirq_sim_sleep_ns(5 * MS);			/* 20.75 ms: nothing */
	assert_eq(uirq_timerfd_line_settime(tl, 2 * MS, 0), 0);
	uirq_sim_sleep_ns(10 * MS);			/* one tick at 22.75 ms, then none */
	assert_eq(uirq_fd_line_get_stats(tl, &st), 0);
	uirq_free_irq((unsigned int)irq, &ticks);
	assert_eq(uirq_fd_line_destroy(tl), 0);
	uirq_cpus_stop();
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	o = (struct timer_outcome){ uirq_sim_trace_hash(), atomic_load(&ticks), st.events };
	return o;
}

UIRQ_TEST(simlines, timerfd_line_expires_on_the_virtual_clock, .timeout = 60)
{
	static const uint64_t want_at[] = { 1 * MS, 2 * MS, 3 * MS, 4 * MS, 5 * MS, 6 * MS, 7 * MS,
					    8 * MS, 9 * MS, 10 * MS, 13 * MS + MS / 2, 22 * MS + 3 * MS / 4 };
	static const uint64_t want_count[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1 };
	const unsigned int n = sizeof(want_at) / sizeof(want_at[0]);

	for (unsigned int run = 0; run < 8; run++) {
		unsigned int cpus = 1 + run % 2;
		uint64_t seed = 1 + run / 2;
		struct timer_outcome a = timer_run(seed, cpus);

		assert_eq(a.ticks, n, "%u cpus: %u deliveries", cpus, a.ticks);
		for (unsigned int i = 0; i < n; i++) {
			assert_eq(stamp[i], want_at[i], "%u cpus, delivery %u at %llu ns", cpus, i,
				  (unsigned long long)stamp[i]);
			assert_eq(count[i], want_count[i], "%u cpus, delivery %u read %llu expirations", cpus, i,
				  (unsigned long long)count[i]);
		}
		assert_eq(a.events, 14, "%u cpus: events read %lu (2 dropped by the re-arm)", cpus, a.events);

		struct timer_outcome b = timer_run(seed, cpus);

		assert_eq(a.hash, b.hash, "seed %llu twice: %016llx %016llx", (unsigned long long)seed, (unsigned long long)a.hash,
			  (unsigned long long)b.hash);
		assert_eq(b.ticks, a.ticks);
	}
}

static void *create_timer_line(void *arg)
{
	struct uirq_fd_line *l;

	*(int *)arg = uirq_timerfd_line_create(0, MS, 0, &l);
	return NULL;
}

UIRQ_TEST(simlines, foreign_fds_refused, .timeout = 60)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 1 };
	struct uirq_fd_line *l;
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), irq;

	assert_ge(efd, 0);
	assert_eq(uirq_sim_start(1, UIRQ_SIM_RANDOM, 1), 0);
	assert_eq(uirq_cpus_start(&cfg), 0);
	pthread_t th;
	int made = 0;

	/* A timer line's expiries are a task's: a thread outside the mode may not make one. */
	assert_eq(pthread_create(&th, NULL, create_timer_line, &made), 0);
	assert_eq(pthread_join(th, NULL), 0);
	assert_eq(made, -EOPNOTSUPP, "a timerfd line made outside a task: %d", made);
	assert_eq(uirq_eventfd_line_create(efd, 0, &l), -EOPNOTSUPP, "an adopted eventfd: another process may write it");
	irq = uirq_irq_alloc_descs(-1, 1, 1);
	assert_gt(irq, 0);
	uirq_cpus_stop();
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	uirq_irq_free_descs((unsigned int)irq, 1);
	close(efd);
}

/*
 * A periodic timer line left alive at the stop: its task ticks forever and
 * only the line's destruction ends it.  Before, the stop moved virtual time
 * on without end at full CPU; now it returns UIRQ_SIM_DEADLOCK with a
 * report naming the timer task.
 */
UIRQ_TEST(simlines, timer_line_left_alive_at_stop_reported, .timeout = 30)
{
	struct uirq_fd_line *l;
	int irq;

	assert_eq(uirq_sim_start(2, UIRQ_SIM_PCT, 3), 0);
	irq = uirq_timerfd_line_create(0, MS, MS, &l);
	assert_gt(irq, 0);
	uirq_sim_sleep_ns(5 * MS);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_DEADLOCK);

	const char *r = uirq_sim_report();
	char want[64];

	fputs(r, stderr);
	snprintf(want, sizeof(want), "'timerfd/%d' (ends when its owner ends it)", irq);
	assert_true(strstr(r, "uirq_sim_stop() at step"), "%s", r);
	assert_true(strstr(r, want), "%s", r);
	/* The line can still be destroyed afterwards: its task is gone, nothing to stop. */
	assert_eq(uirq_fd_line_destroy(l), 0);
}

/* uirq's CPUs started before the mode are not its tasks: the start says so instead of handling nothing. */
UIRQ_TEST(simlines, start_after_cpus_refused, .timeout = 30)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 1 };

	assert_eq(uirq_cpus_start(&cfg), 0);
	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 3), -EBUSY);
	assert_false(uirq_sim_running());
	uirq_cpus_stop();
	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 3), 0);
	assert_eq(uirq_cpus_start(&cfg), 0);
	uirq_cpus_stop();
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}
