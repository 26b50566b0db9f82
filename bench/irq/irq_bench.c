/* SPDX-License-Identifier: MIT */
/*
 * irq_bench: what the genirq core and its sources cost, against a
 * hand-written baseline measured in the same run.
 *
 *   latency   eventfd write -> primary handler and -> thread handler
 *             (CLOCK_MONOTONIC before the write and inside the handlers),
 *             median and p99 over N samples, beside the same hops written by
 *             hand: eventfd -> an epoll thread (read, then the "primary")
 *             -> futex -> a worker thread (the "thread handler").  Compared
 *             in pairs with the same scheduling policies: all SCHED_OTHER
 *             (uirq's handler thread set to priority 0), and uirq's defaults
 *             (interrupt side SCHED_OTHER, handler/worker SCHED_FIFO 50).
 *   rate      handled per second (handler runs, i.e. distinct unmerged
 *             interrupts; merged edges reported apart) of a primary-only
 *             software edge line and of a ONESHOT threaded software level
 *             line (handler NULL, the thread deasserts), each raised in a
 *             loop from one thread; and the process's CPU use once idle.
 *   memory    malloc bytes (mallinfo2 deltas) per descriptor, per mapped
 *             software line, per eventfd line, per primary-only action and
 *             per threaded action (plus its thread's resident pages).
 *
 * Each figure is followed by its target and a PASS/MISS verdict line; the
 * exit status is 0 whatever the verdicts (report only).
 *
 * usage: irq_bench [latency|rate|memory|all] [-n SAMPLES] [-r ROUNDS] [-d SECONDS] [-l LINES]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uirq/config.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/sources.h"

static unsigned int nsamples = 20000;
static double rate_seconds = 1.0;
static unsigned int mem_lines = 10000;

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void futex_wait(atomic_int *w, int val, long timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, timeout_ms >= 0 ? &ts : NULL, NULL, 0);
}

static void futex_wake(atomic_int *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct dist {
	double median_us, p99_us;
};

static struct dist summarize(uint64_t *v, unsigned int n)
{
	struct dist d = { 0, 0 };

	if (!n)
		return d;
	qsort(v, n, sizeof(*v), cmp_u64);
	d.median_us = (double)v[n / 2] / 1000.0;
	d.p99_us = (double)v[(size_t)n * 99 / 100] / 1000.0;
	return d;
}

static void verdict(const char *what, bool pass, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void verdict(const char *what, bool pass, const char *fmt, ...)
{
	va_list ap;

	printf("VERDICT %-22s %s  (", what, pass ? "PASS" : "MISS");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(")\n");
}

/* ------------------------------------------------------------------ */
/* latency                                                            */
/* ------------------------------------------------------------------ */

static _Atomic uint64_t t0;		/* before the write */
static uint64_t *lat_p, *lat_t;		/* the current variant's samples: to the primary, to the thread */
static atomic_uint cur;			/* the sample being taken */
static atomic_int done;			/* the thread side finished the sample */
static int pin_core = -1;		/* pinned topology: interrupt side on this core, writer on another */
static int writer_core = -1;

static void record_primary(void)
{
	lat_p[atomic_load_explicit(&cur, memory_order_relaxed)] =
		now_ns() - atomic_load_explicit(&t0, memory_order_relaxed);
}

static void record_thread(void)
{
	lat_t[atomic_load_explicit(&cur, memory_order_relaxed)] =
		now_ns() - atomic_load_explicit(&t0, memory_order_relaxed);
	atomic_store_explicit(&done, 1, memory_order_release);
	futex_wake(&done);
}

/*
 * One sample: stamp, write, sleep until the thread side is done.  Returns
 * false on a 1 s timeout (a lost event).
 */
static bool one_sample(int efd, unsigned int i)
{
	const uint64_t one = 1;

	atomic_store_explicit(&cur, i, memory_order_relaxed);
	atomic_store_explicit(&done, 0, memory_order_relaxed);
	atomic_store_explicit(&t0, now_ns(), memory_order_release);
	if (write(efd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		return false;
	uint64_t start = now_ns();

	while (!atomic_load_explicit(&done, memory_order_acquire)) {
		futex_wait(&done, 0, 100);
		if (now_ns() - start > 1000000000u)
			return false;
	}
	return true;
}

/* n samples into lat_p/lat_t[0..n), after n/10 untimed ones. */
static unsigned int run_samples(int efd, unsigned int n)
{
	unsigned int lost = 0;

	for (unsigned int i = 0; i < n / 10 + 1; i++)
		lost += !one_sample(efd, 0);
	for (unsigned int i = 0; i < n; i++)
		lost += !one_sample(efd, i);
	return lost;
}

static void pin_self(int core)
{
	if (core >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(core, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
}

static void unpin_self(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < CPU_SETSIZE && i < sysconf(_SC_NPROCESSORS_ONLN); i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* --- the baseline: eventfd -> epoll thread -> futex -> worker thread --- */

static atomic_int base_stop, worker_flag;
static int base_efd;

/* The epoll thread always runs SCHED_OTHER, as uirq's CPU thread; the worker FIFO 50 when asked. */
static void base_thread_setup(bool fifo)
{
	pin_self(pin_core);
	if (fifo) {
		struct sched_param sp = { .sched_priority = 50 };

		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
}

static void *base_epoll_thread(void *arg)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = base_efd };

	(void)arg;
	base_thread_setup(false);
	epoll_ctl(ep, EPOLL_CTL_ADD, base_efd, &ev);
	while (!atomic_load(&base_stop)) {
		struct epoll_event out;
		uint64_t v;

		if (epoll_wait(ep, &out, 1, 100) != 1)
			continue;
		/* Stamped after the read, as uirq's primary runs after the chip's ack (its read). */
		if (read(base_efd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			continue;
		record_primary();
		atomic_store_explicit(&worker_flag, 1, memory_order_release);
		futex_wake(&worker_flag);
	}
	close(ep);
	return NULL;
}

static void *base_worker(void *arg)
{
	base_thread_setup(arg != NULL);
	while (!atomic_load(&base_stop)) {
		if (!atomic_exchange_explicit(&worker_flag, 0, memory_order_acquire)) {
			futex_wait(&worker_flag, 0, 100);
			continue;
		}
		record_thread();
	}
	return NULL;
}

/* Fresh threads every round, so each round gets its own placement by the scheduler. */
static int baseline_round(bool fifo, unsigned int n, unsigned int *lost)
{
	pthread_t ep, wk;
	static int tag;

	base_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	atomic_store(&base_stop, 0);
	pthread_create(&ep, NULL, base_epoll_thread, fifo ? &tag : NULL);
	pthread_create(&wk, NULL, base_worker, fifo ? &tag : NULL);
	usleep(2000);
	*lost += run_samples(base_efd, n);
	atomic_store(&base_stop, 1);
	futex_wake(&worker_flag);
	pthread_join(ep, NULL);
	pthread_join(wk, NULL);
	close(base_efd);
	return 0;
}

/* --- uirq: an eventfd line, a primary returning IRQ_WAKE_THREAD, a handler thread --- */

static uirq_irqreturn_t lat_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	record_primary();
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t lat_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	record_thread();
	return UIRQ_IRQ_HANDLED;
}

/* One uirq CPU, pinned to core pin (>= 0) or not pinned (-1). */
static int start_cpus(int pin)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 1, .pinned = pin >= 0, .pin = { pin } };

	return uirq_cpus_start(&cfg);
}

/* Fresh CPU and handler thread every round, as for the baseline; fifo false: the handler thread SCHED_OTHER. */
static int uirq_round(unsigned long flags, bool fifo, unsigned int n, unsigned int *lost)
{
	struct uirq_fd_line *l;
	/* The caller (the writer) may be pinned to another core than the CPU's: that is fine. */
	int ret = start_cpus(pin_core);

	if (ret)
		return ret;
	int irq = uirq_eventfd_line_create(-1, 0, &l);

	if (irq < 0) {
		uirq_cpus_stop();
		return irq;
	}
	ret = uirq_request_threaded_irq((unsigned int)irq, lat_primary, lat_thread, flags, "lat", l);
	if (!ret) {
		if (!fifo)
			ret = uirq_irq_set_thread_priority((unsigned int)irq, l, 0);
		if (!ret) {
			usleep(2000);
			*lost += run_samples(uirq_fd_line_fd(l), n);
		}
		uirq_free_irq((unsigned int)irq, l);
	}
	uirq_fd_line_destroy(l);
	uirq_cpus_stop();
	return ret;
}

/*
 * Two pairs with the same hops and the same scheduling policies:
 *   SCHED_OTHER everywhere: the plain baseline against uirq with its handler
 *     thread set to SCHED_OTHER (uirq_irq_set_thread_priority(.., 0));
 *   uirq's defaults: the uirq CPU thread is SCHED_OTHER, the handler thread
 *     SCHED_FIFO 50; the baseline's epoll thread SCHED_OTHER, its worker FIFO 50.
 */
enum { V_BASE, V_UIRQ_OTHER, V_BASE_FIFO, V_UIRQ, V_UIRQ_ONESHOT, NR_V };

static const char *const vname[NR_V][2] = {
	{ "baseline: epoll thread (primary hop)", "baseline: futex -> worker (OTHER)" },
	{ "uirq: primary (hard-irq, CPU thread)", "uirq: irq/N-lat thread set to OTHER" },
	{ "baseline: epoll thread", "baseline: futex -> worker (FIFO 50)" },
	{ "uirq: primary (hard-irq, CPU thread)", "uirq: irq/N-lat thread (FIFO 50, default)" },
	{ "uirq ONESHOT: primary", "uirq ONESHOT: thread (FIFO 50)" },
};

static void row(const char *name, struct dist d, unsigned int lost)
{
	printf("  %-46s %9.2f %9.2f", name, d.median_us, d.p99_us);
	if (lost)
		printf("   (%u samples lost)", lost);
	printf("\n");
}

static unsigned int rounds = 10;

/* Every variant in every round, in a rotating order; the samples of all rounds pooled. */
static void latency_table(const char *title, bool verdicts)
{
	unsigned int per = nsamples / rounds, total = per * rounds;
	uint64_t *all_p[NR_V], *all_t[NR_V];
	unsigned int lost[NR_V] = { 0 };
	struct dist p[NR_V], t[NR_V];
	int err = 0;

	for (int v = 0; v < NR_V; v++) {
		all_p[v] = calloc(total, sizeof(uint64_t));
		all_t[v] = calloc(total, sizeof(uint64_t));
	}
	lat_p = calloc(per, sizeof(uint64_t));
	lat_t = calloc(per, sizeof(uint64_t));
	pin_self(writer_core);
	for (unsigned int r = 0; r < rounds && !err; r++) {
		for (int k = 0; k < NR_V && !err; k++) {
			int v = (int)((r + (unsigned int)k) % NR_V);

			memset(lat_p, 0, per * sizeof(uint64_t));
			memset(lat_t, 0, per * sizeof(uint64_t));
			switch (v) {
			case V_BASE: err = baseline_round(false, per, &lost[v]); break;
			case V_BASE_FIFO: err = baseline_round(true, per, &lost[v]); break;
			case V_UIRQ_OTHER: err = uirq_round(0, false, per, &lost[v]); break;
			case V_UIRQ: err = uirq_round(0, true, per, &lost[v]); break;
			case V_UIRQ_ONESHOT: err = uirq_round(UIRQF_ONESHOT, true, per, &lost[v]); break;
			}
			memcpy(all_p[v] + (size_t)r * per, lat_p, per * sizeof(uint64_t));
			memcpy(all_t[v] + (size_t)r * per, lat_t, per * sizeof(uint64_t));
		}
	}
	unpin_self();
	printf("\nlatency, %s: eventfd write -> handler, %u samples per path (%u rounds of %u, interleaved), us\n",
	       title, total, rounds, per);
	if (err) {
		printf("  uirq: eventfd line failed: %s\n", strerror(-err));
		if (verdicts)
			verdict("latency-thread", false, "uirq did not run: %d", err);
		goto out;
	}
	printf("  %-46s %9s %9s\n", "path", "median", "p99");
	for (int v = 0; v < NR_V; v++) {
		p[v] = summarize(all_p[v], total);
		t[v] = summarize(all_t[v], total);
		if (v == V_BASE)
			printf("  -- SCHED_OTHER everywhere --\n");
		else if (v == V_BASE_FIFO)
			printf("  -- uirq's policies: interrupt thread OTHER, handler/worker thread FIFO 50 --\n");
		else if (v == V_UIRQ_ONESHOT)
			printf("  -- informational --\n");
		row(vname[v][0], p[v], lost[v]);
		row(vname[v][1], t[v], lost[v]);
	}
	printf("  ratio uirq/baseline, primary hop (OTHER):  median %.2fx  p99 %.2fx\n",
	       p[V_UIRQ_OTHER].median_us / p[V_BASE].median_us, p[V_UIRQ_OTHER].p99_us / p[V_BASE].p99_us);
	printf("  ratio uirq/baseline, thread (OTHER):       median %.2fx  p99 %.2fx\n",
	       t[V_UIRQ_OTHER].median_us / t[V_BASE].median_us, t[V_UIRQ_OTHER].p99_us / t[V_BASE].p99_us);
	printf("  ratio uirq/baseline, primary hop (FIFO50): median %.2fx  p99 %.2fx\n",
	       p[V_UIRQ].median_us / p[V_BASE_FIFO].median_us, p[V_UIRQ].p99_us / p[V_BASE_FIFO].p99_us);
	printf("  ratio uirq/baseline, thread (FIFO50):      median %.2fx  p99 %.2fx\n",
	       t[V_UIRQ].median_us / t[V_BASE_FIFO].median_us, t[V_UIRQ].p99_us / t[V_BASE_FIFO].p99_us);
	printf("  (cross-policy, not a like-for-like figure: uirq FIFO50 / plain baseline thread: median %.2fx)\n",
	       t[V_UIRQ].median_us / t[V_BASE].median_us);
	if (verdicts) {
		verdict("latency-thread-median", t[V_UIRQ].median_us <= t[V_BASE_FIFO].median_us && !lost[V_UIRQ],
			"FIFO50: uirq %.2f us vs baseline %.2f us = %.2fx, target <= 1.00x", t[V_UIRQ].median_us,
			t[V_BASE_FIFO].median_us, t[V_UIRQ].median_us / t[V_BASE_FIFO].median_us);
		verdict("latency-thread-p99", t[V_UIRQ].p99_us <= 1.2 * t[V_BASE_FIFO].p99_us && !lost[V_UIRQ],
			"FIFO50: uirq %.2f us vs baseline %.2f us = %.2fx, target <= 1.20x", t[V_UIRQ].p99_us,
			t[V_BASE_FIFO].p99_us, t[V_UIRQ].p99_us / t[V_BASE_FIFO].p99_us);
		verdict("latency-thread-median-other",
			t[V_UIRQ_OTHER].median_us <= t[V_BASE].median_us && !lost[V_UIRQ_OTHER],
			"OTHER: uirq %.2f us vs baseline %.2f us = %.2fx, target <= 1.00x", t[V_UIRQ_OTHER].median_us,
			t[V_BASE].median_us, t[V_UIRQ_OTHER].median_us / t[V_BASE].median_us);
		verdict("latency-thread-p99-other",
			t[V_UIRQ_OTHER].p99_us <= 1.2 * t[V_BASE].p99_us && !lost[V_UIRQ_OTHER],
			"OTHER: uirq %.2f us vs baseline %.2f us = %.2fx, target <= 1.20x", t[V_UIRQ_OTHER].p99_us,
			t[V_BASE].p99_us, t[V_UIRQ_OTHER].p99_us / t[V_BASE].p99_us);
	}
out:
	for (int v = 0; v < NR_V; v++) {
		free(all_p[v]);
		free(all_t[v]);
	}
	free(lat_p);
	free(lat_t);
}

static void bench_latency(void)
{
	/* The default configuration: nothing pinned, the scheduler places every thread. */
	pin_core = writer_core = -1;
	latency_table("unpinned (default configuration)", true);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		/* A fixed topology: writer on core 0; epoll+worker / uirq CPU+handler thread on core 1. */
		pin_core = 1;
		writer_core = 0;
		latency_table("pinned (writer on core 0, interrupt side on core 1)", false);
		pin_core = writer_core = -1;
	}
}

/* ------------------------------------------------------------------ */
/* rate                                                               */
/* ------------------------------------------------------------------ */

/*
 * The handlers' counter on a cache line of its own: the raiser reads
 * rate_ctl and rate_stop in its loop and must not miss in its cache every
 * time a handler counts (that would be the benchmark's cost, not uirq's).
 */
static _Alignas(64) atomic_ulong rate_handled;
static _Alignas(64) atomic_int rate_stop;
static struct uirq_swirq *rate_ctl;

static uirq_irqreturn_t rate_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add_explicit(&rate_handled, 1, memory_order_relaxed);
	return UIRQ_IRQ_HANDLED;
}

/* The handler raises its own line again (after the ack): the CPU never waits for a raiser. */
static uirq_irqreturn_t rate_self_primary(int irq, void *dev)
{
	(void)irq;
	atomic_fetch_add_explicit(&rate_handled, 1, memory_order_relaxed);
	if (!atomic_load_explicit(&rate_stop, memory_order_relaxed))
		uirq_swirq_pulse(rate_ctl, (unsigned int)(uintptr_t)dev);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t rate_thread(int irq, void *dev)
{
	(void)irq;
	uirq_swirq_set_level(rate_ctl, (unsigned int)(uintptr_t)dev, false);
	atomic_fetch_add_explicit(&rate_handled, 1, memory_order_relaxed);
	return UIRQ_IRQ_HANDLED;
}

static void *pulse_loop(void *arg)
{
	unsigned int hw = (unsigned int)(uintptr_t)arg;

	while (!atomic_load_explicit(&rate_stop, memory_order_relaxed))
		uirq_swirq_pulse(rate_ctl, hw);
	return NULL;
}

static void *assert_loop(void *arg)
{
	unsigned int hw = (unsigned int)(uintptr_t)arg;

	while (!atomic_load_explicit(&rate_stop, memory_order_relaxed)) {
		if (uirq_swirq_get_level(rate_ctl, hw) == 0)
			uirq_swirq_set_level(rate_ctl, hw, true);
		else
			sched_yield();
	}
	return NULL;
}

static void *no_loop(void *arg)
{
	(void)arg;
	return NULL;
}

struct rate_result {
	double handled;		/* handler runs per second: one per latched (distinct, unmerged) edge/assert */
	double offered;		/* edges (or asserts) the raiser produced per second */
	double merged_pct;	/* edges that found the latch still set: merged into an interrupt already pending */
	double latched;		/* edges that set the latch, per second: each is one interrupt */
	double cores;		/* CPU time of the whole process per wall second (raiser + uirq CPU + threads) */
};

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/*
 * Over rate_seconds, with loop raising input hw from a thread (or kick
 * raising once): handler runs per second, and the controller's own counts
 * over the same window, so merged edges are reported, never counted.
 */
static struct rate_result measure_rate(unsigned int hw, void *(*loop)(void *), bool kick)
{
	struct uirq_swirq_stats a, b;
	struct rate_result r;
	pthread_t t;

	atomic_store(&rate_stop, 0);
	pthread_create(&t, NULL, loop, (void *)(uintptr_t)hw);
	if (kick)
		uirq_swirq_pulse(rate_ctl, hw);
	usleep(100000);	/* warm up */
	uirq_swirq_get_stats(rate_ctl, hw, &a);
	unsigned long h0 = atomic_load(&rate_handled);
	double c0 = cpu_seconds();
	uint64_t s0 = now_ns();

	usleep((useconds_t)(rate_seconds * 1e6));
	unsigned long h1 = atomic_load(&rate_handled);
	uint64_t s1 = now_ns();
	double c1 = cpu_seconds();

	uirq_swirq_get_stats(rate_ctl, hw, &b);
	atomic_store(&rate_stop, 1);
	pthread_join(t, NULL);
	usleep(20000);
	double secs = (double)(s1 - s0) * 1e-9;
	bool level = a.type & UIRQ_TYPE_LEVEL_MASK;
	unsigned long offered = level ? b.asserts - a.asserts : b.edges - a.edges;

	r.handled = (double)(h1 - h0) / secs;
	r.offered = (double)offered / secs;
	r.latched = level ? r.offered : (double)(b.latched - a.latched) / secs;
	r.merged_pct = !level && offered ? 100.0 * (double)(b.merged - a.merged) / (double)offered : 0.0;
	r.cores = (c1 - c0) / secs;
	return r;
}

/* CPU time the process burns per second while nothing is raised (the uirq CPU must sleep). */
static double idle_cores(void)
{
	usleep(50000);
	double c0 = cpu_seconds();
	uint64_t s0 = now_ns();

	usleep(300000);
	return (cpu_seconds() - c0) / ((double)(now_ns() - s0) * 1e-9);
}

/* One configuration: a controller with a primary-only edge input 0, a ONESHOT level input 1, a self-raising edge input 2. */
static int rate_setup(int *irqs)
{
	struct uirq_swirq_config cfg = { .name = "BENCH", .nr_inputs = 3,
					 .default_type = UIRQ_TYPE_EDGE_RISING };

	if (uirq_swirq_create(&cfg, &rate_ctl))
		return -1;
	for (int i = 0; i < 3; i++)
		irqs[i] = uirq_swirq_map(rate_ctl, (unsigned int)i);
	uirq_swirq_set_type(rate_ctl, 1, UIRQ_TYPE_LEVEL_HIGH);
	if (irqs[0] <= 0 || irqs[1] <= 0 || irqs[2] <= 0 ||
	    uirq_request_irq((unsigned int)irqs[0], rate_primary, 0, "rate-edge", NULL) ||
	    uirq_request_threaded_irq((unsigned int)irqs[1], NULL, rate_thread, UIRQF_ONESHOT, "rate-oneshot",
				      (void *)1) ||
	    uirq_request_irq((unsigned int)irqs[2], rate_self_primary, 0, "rate-self", (void *)2))
		return -1;
	return 0;
}

static void rate_teardown(int *irqs)
{
	uirq_free_irq((unsigned int)irqs[0], NULL);
	uirq_free_irq((unsigned int)irqs[1], (void *)1);
	uirq_free_irq((unsigned int)irqs[2], (void *)2);
	uirq_swirq_destroy(rate_ctl);
}

static void bench_rate(void)
{
	int irqs[3];
	double prim = 0, one = 0, idle = 0;

	printf("\nrate: software lines raised in a loop from one thread, %.1f s each, per second\n", rate_seconds);
	printf("  handled = handler runs = distinct interrupts (one per edge that set the latch);\n"
	       "  edges arriving while the latch is still set merge into the pending one: shown, never counted\n");
	for (int pinned = 0; pinned < 2; pinned++) {
		if (pinned && sysconf(_SC_NPROCESSORS_ONLN) < 2)
			break;
		/* pinned: the raiser shares core 0 with the uirq CPU (no cross-core wake-ups) */
		if (start_cpus(pinned ? 0 : -1) || rate_setup(irqs)) {
			verdict("rate", false, "setup failed");
			return;
		}
		if (pinned) {
			pin_self(0);
			printf("  -- pinned: uirq CPU and the raising thread on core 0 (informational) --\n");
		} else {
			printf("  -- unpinned (default configuration) --\n");
		}
		atomic_store(&rate_handled, 0);
		struct rate_result p = measure_rate(0, pulse_loop, false);

		printf("  %-32s %10.0f handled/s  (edges %.0f/s, latched %.0f/s, merged %.1f%%; %.2f cores busy)\n",
		       "primary-only edge line:", p.handled, p.offered, p.latched, p.merged_pct, p.cores);
		struct rate_result o = measure_rate(1, assert_loop, false);

		printf("  %-32s %10.0f handled/s  (asserts %.0f/s; %.2f cores busy)\n", "ONESHOT threaded level line:",
		       o.handled, o.offered, o.cores);
		struct rate_result c = measure_rate(2, no_loop, true);

		printf("  %-32s %10.0f handled/s  (the CPU's capacity: the primary re-raises its own line)\n",
		       "primary-only, self-raising:", c.handled);
		double id = idle_cores();

		printf("  %-32s %10.3f cores      (process CPU use with nothing raised: the uirq CPU sleeps)\n",
		       "idle afterwards:", id);
		if (!pinned) {
			prim = p.handled;
			one = o.handled;
			idle = id;
		}
		rate_teardown(irqs);
		uirq_cpus_stop();
		if (pinned)
			unpin_self();
	}
	verdict("rate-primary-only", prim >= 2e6, "%.0f/s, target >= 2000000/s = %.2fx", prim, prim / 2e6);
	verdict("rate-oneshot-threaded", one >= 2e5, "%.0f/s, target >= 200000/s = %.2fx", one, one / 2e5);
	verdict("rate-idle-cpu", idle < 0.01, "%.3f cores with nothing raised, target < 0.01", idle);
}

/* ------------------------------------------------------------------ */
/* memory                                                             */
/* ------------------------------------------------------------------ */

static long heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (long)(mi.uordblks + mi.hblkhd);
}

static long rss_bytes(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * sysconf(_SC_PAGESIZE);
}

static uirq_irqreturn_t mem_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

static void bench_memory(void)
{
	unsigned int n = mem_lines;
	long h0, h1;

	printf("\nmemory: malloc bytes per object (mallinfo2 deltas), %u objects\n", n);

	/* 1. bare descriptors */
	h0 = heap_bytes();
	int first = uirq_irq_alloc_descs(-1, 1, n);

	h1 = heap_bytes();
	double per_desc = first > 0 ? (double)(h1 - h0) / n : -1;

	if (first > 0)
		uirq_irq_free_descs((unsigned int)first, n);
	printf("  %-44s %8.1f B\n", "descriptor (uirq_irq_alloc_descs)", per_desc);

	/* 2. mapped software lines (descriptor + domain slot + controller input) */
	struct uirq_swirq_config cfg = { .name = "MEM", .nr_inputs = n, .default_type = UIRQ_TYPE_EDGE_RISING };
	struct uirq_swirq *c;

	h0 = heap_bytes();
	double per_sw = -1, per_action = -1;

	if (!uirq_swirq_create(&cfg, &c)) {
		unsigned int ok = 0;

		for (unsigned int i = 0; i < n; i++)
			ok += uirq_swirq_map(c, i) > 0;
		h1 = heap_bytes();
		per_sw = ok == n ? (double)(h1 - h0) / n : -1;

		/* 3. primary-only actions on them */
		h0 = heap_bytes();
		ok = 0;
		for (unsigned int i = 0; i < n; i++)
			ok += !uirq_request_irq((unsigned int)uirq_swirq_map(c, i), rate_primary, 0, "mem", c);
		h1 = heap_bytes();
		per_action = ok == n ? (double)(h1 - h0) / n : -1;
		for (unsigned int i = 0; i < n; i++)
			uirq_free_irq((unsigned int)uirq_swirq_map(c, i), c);
		uirq_swirq_destroy(c);
	}
	printf("  %-44s %8.1f B\n", "software line (swirq input, mapped)", per_sw);
	printf("  %-44s %8.1f B\n", "primary-only action (uirq_request_irq)", per_action);

	/* 4. threaded actions: the thread's stack is mmapped, so its resident pages are shown apart */
	unsigned int nt = n / 10 ? n / 10 : 1;

	if (!uirq_swirq_create(&(struct uirq_swirq_config){ .name = "MEMT", .nr_inputs = nt,
							   .default_type = UIRQ_TYPE_EDGE_RISING }, &c)) {
		for (unsigned int i = 0; i < nt; i++)
			uirq_swirq_map(c, i);
		long r0 = rss_bytes();

		h0 = heap_bytes();
		unsigned int ok = 0;

		for (unsigned int i = 0; i < nt; i++)
			ok += !uirq_request_threaded_irq((unsigned int)uirq_swirq_map(c, i), NULL, mem_thread,
							UIRQF_ONESHOT, "memt", c);
		h1 = heap_bytes();
		long r1 = rss_bytes();

		printf("  %-44s %8.1f B  (+ %.0f B resident per handler thread; %u actions)\n",
		       "threaded action (uirq_request_threaded_irq)",
		       ok == nt ? (double)(h1 - h0) / nt : -1.0,
		       ok == nt ? (double)(r1 - r0 - (h1 - h0)) / nt : -1.0, nt);
		for (unsigned int i = 0; i < nt; i++)
			uirq_free_irq((unsigned int)uirq_swirq_map(c, i), c);
		uirq_swirq_destroy(c);
	}

	/* 5. eventfd lines (as many as the fd limit allows) */
	struct rlimit rl;
	unsigned int ne = n;

	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
		if (rl.rlim_cur < (rlim_t)ne + 64)
			ne = rl.rlim_cur > 128 ? (unsigned int)rl.rlim_cur - 64 : 64;
	}
	struct uirq_fd_line **lines = calloc(ne, sizeof(*lines));
	unsigned int made = 0;

	h0 = heap_bytes();
	for (unsigned int i = 0; i < ne; i++)
		made += uirq_eventfd_line_create(-1, 0, &lines[made]) > 0;
	h1 = heap_bytes();
	printf("  %-44s %8.1f B  (%u lines)\n", "eventfd line (descriptor + fd line + watch)",
	       made ? (double)(h1 - h0) / made : -1.0, made);
	for (unsigned int i = 0; i < made; i++)
		uirq_fd_line_destroy(lines[i]);
	free(lines);

	verdict("memory-per-line", per_desc >= 0 && per_desc <= 256, "descriptor %.1f B, target <= 256 B",
		per_desc);
	verdict("memory-per-swirq-line", per_sw >= 0 && per_sw <= 256,
		"mapped software line %.1f B, target <= 256 B", per_sw);
}

/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f, "usage: irq_bench [latency|rate|memory|all] [-n SAMPLES] [-r ROUNDS] [-d SECONDS] [-l LINES]\n");
}

int main(int argc, char **argv)
{
	const char *what = "all";
	int opt;

	if (argc > 1 && argv[1][0] != '-') {
		what = argv[1];
		optind = 2;
	}
	while ((opt = getopt(argc, argv, "n:d:l:r:h")) != -1) {
		switch (opt) {
		case 'r': rounds = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'n': nsamples = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'd': rate_seconds = atof(optarg); break;
		case 'l': mem_lines = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	bool all = !strcmp(what, "all");

	if (!all && strcmp(what, "latency") && strcmp(what, "rate") && strcmp(what, "memory")) {
		usage(stderr);
		return 2;
	}
	if (nsamples < 100 || rate_seconds <= 0 || mem_lines < 10 || rounds < 1 || nsamples / rounds < 10) {
		fprintf(stderr, "irq_bench: -n >= 100, -d > 0, -l >= 10, 1 <= -r <= n/10\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("irq_bench: lockdep %s; 1 uirq CPU; %ld host cores\n",
	       !UIRQ_CONFIG_LOCKDEP ? "compiled out" : uirq_lockdep_enabled() ? "on" : "off (UIRQ_LOCKDEP=0)",
	       sysconf(_SC_NPROCESSORS_ONLN));
	int ret = 0;

	if (all || !strcmp(what, "memory")) {
		ret = start_cpus(-1);
		if (!ret) {
			bench_memory();
			uirq_cpus_stop();
		}
	}
	if (!ret && (all || !strcmp(what, "latency")))
		bench_latency();
	if (!ret && (all || !strcmp(what, "rate")))
		bench_rate();
	if (ret) {
		fprintf(stderr, "irq_bench: uirq_cpus_start: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
