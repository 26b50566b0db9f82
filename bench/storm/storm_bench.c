/* SPDX-License-Identifier: MIT */
/*
 * storm_bench: interrupt storm containment.  One line screams - a level
 * input held asserted whose only handler returns IRQ_NONE, so the level
 * flow takes it again as soon as it unmasks it - until the core's spurious
 * detector (note_interrupt: 99,900 unhandled of 100,000) reports "irq N:
 * nobody cared" and disables it.  Meanwhile other lines on the same uirq
 * CPU keep delivering.  Per round, in one process with the same CPU and
 * lines:
 *
 *   baseline  the storm line requested but quiet: victim deliveries,
 *   storm     the line asserted: victim deliveries until the line is
 *             disabled (the storm's own length is stamped by its handler),
 *   after     the line disabled and still asserted (contained): victim
 *             deliveries again.
 *
 * A victim delivery is one closed-loop sample: stamp, raise the victim's
 * line, wait (spin, then futex) until its handler stamps.  The victims, one
 * a round in turn (all three stay requested all along): a software edge
 * line with a primary-only handler, a software edge line with a threaded
 * handler (stamped in the thread), an eventfd line with a primary-only
 * handler.  Figures per victim and phase: deliveries,
 * deliveries/s (closed loop), median, p99 and max latency; the storm and
 * after phases as ratios to the same run's baseline.
 *
 * Verdicts (report only; --strict makes a MISS exit 1):
 *   contained  every round the storm line was disabled after exactly
 *              100,000 interrupts, "nobody cared" and "Disabling IRQ #N"
 *              were logged, and its handler never ran again;
 *   during     per victim: median and p99 during the storm <= 1.5x its
 *              baseline;
 *   after      every victim's median after containment <= 1.5x baseline;
 *   lost       no victim delivery lost (2 s per delivery).
 * The exit status is 1 if the storm line was not contained (a functional
 * failure), else 0 (or 1 with --strict and a MISS).
 *
 * usage: storm_bench [-r ROUNDS] [-n SAMPLES] [-c CPUS] [--strict]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uirq/config.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/sources.h"

#define BOUND 1.5		/* victims' latency during the storm, as a multiple of baseline */
#define STORM_IRQS 100000ul	/* the kernel's threshold: 100,000 interrupts ... */
#define LOST_NS 2000000000ull	/* a delivery slower than 2 s is lost */

static unsigned int rounds = 9, samples = 3000, ncpus = 1;
static bool strict;

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void futex_wait(atomic_uint *w, unsigned int val, long timeout_ns)
{
	struct timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };

	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void futex_wake(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- victims ---- */

enum phase { P_BASE, P_STORM, P_AFTER, NR_PHASES };
static const char *const phase_name[] = { "baseline", "storm", "after" };
enum vkind { V_SW_PRIMARY, V_SW_THREAD, V_FD_PRIMARY, NR_VICTIMS };

struct victim {
	const char *name;
	enum vkind kind;
	unsigned int irq, hw;
	struct uirq_fd_line *fdl;
	atomic_uint seq, done;		/* the sample in flight; the handler stores its seq in done */
	atomic_int waiting;		/* the prober sleeps on done */
	_Atomic uint64_t t0, lat;
	uint64_t *lat_ns[NR_PHASES];
	unsigned int n[NR_PHASES], cap[NR_PHASES];
	uint64_t busy_ns[NR_PHASES];	/* sum of the closed-loop round trips */
	unsigned long lost[NR_PHASES];
};

static struct victim victims[NR_VICTIMS] = {
	{ .name = "swirq edge, primary", .kind = V_SW_PRIMARY },
	{ .name = "swirq edge, thread", .kind = V_SW_THREAD },
	{ .name = "eventfd, primary", .kind = V_FD_PRIMARY },
};
static struct uirq_swirq *ctl;

static void stamp(struct victim *v)
{
	atomic_store_explicit(&v->lat, now_ns() - atomic_load_explicit(&v->t0, memory_order_relaxed),
			      memory_order_relaxed);
	atomic_store_explicit(&v->done, atomic_load_explicit(&v->seq, memory_order_relaxed), memory_order_release);
	if (atomic_load(&v->waiting))
		futex_wake(&v->done);
}

static uirq_irqreturn_t victim_primary(int irq, void *dev_id)
{
	(void)irq;
	stamp(dev_id);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t victim_wake(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t victim_thread(int irq, void *dev_id)
{
	(void)irq;
	stamp(dev_id);
	return UIRQ_IRQ_HANDLED;
}

static void record(struct victim *v, enum phase p, uint64_t lat, uint64_t round_trip)
{
	if (v->n[p] == v->cap[p]) {
		unsigned int cap = v->cap[p] ? 2 * v->cap[p] : 4096;
		uint64_t *a = realloc(v->lat_ns[p], cap * sizeof(*a));

		if (!a)
			return;
		v->lat_ns[p] = a;
		v->cap[p] = cap;
	}
	v->lat_ns[p][v->n[p]++] = lat;
	v->busy_ns[p] += round_trip;
}

/* One delivery of v: stamp, raise, wait for the handler's stamp. */
static void sample(struct victim *v, enum phase p)
{
	unsigned int seq = atomic_load_explicit(&v->seq, memory_order_relaxed) + 1;

	atomic_store(&v->seq, seq);
	uint64_t start = now_ns();

	atomic_store(&v->t0, start);
	if (v->kind == V_FD_PRIMARY)
		uirq_eventfd_line_raise(v->fdl);
	else
		uirq_swirq_pulse(ctl, v->hw);
	for (unsigned int i = 0; atomic_load_explicit(&v->done, memory_order_acquire) != seq; i++) {
		if (i < 2000) {
			cpu_relax();
			continue;
		}
		if (now_ns() - start > LOST_NS) {
			v->lost[p]++;
			return;
		}
		atomic_store(&v->waiting, 1);
		if (atomic_load(&v->done) != seq)
			futex_wait(&v->done, atomic_load(&v->done), 10000000);
		atomic_store(&v->waiting, 0);
	}
	record(v, p, atomic_load_explicit(&v->lat, memory_order_relaxed), now_ns() - start);
}

/* ---- the storm line ---- */

static unsigned int storm_hw, storm_irq;
static atomic_ulong storm_calls;
static _Atomic uint64_t storm_first, storm_last;
static int storm_dev;

static uirq_irqreturn_t storm_handler(int irq, void *dev_id)
{
	uint64_t t = now_ns();

	(void)irq;
	(void)dev_id;
	if (atomic_fetch_add_explicit(&storm_calls, 1, memory_order_relaxed) == 0)
		atomic_store_explicit(&storm_first, t, memory_order_relaxed);
	atomic_store_explicit(&storm_last, t, memory_order_relaxed);
	return UIRQ_IRQ_NONE;	/* not ours: nobody cares for this line */
}

/* stderr into a temporary file while the storm runs, to check the core's messages. */
static int saved_stderr = -1;
static FILE *capture;

static void capture_begin(void)
{
	fflush(stderr);
	capture = tmpfile();
	if (!capture)
		return;
	saved_stderr = dup(2);
	dup2(fileno(capture), 2);
}

static char *capture_end(void)
{
	static char buf[16384];
	size_t n = 0;

	fflush(stderr);
	buf[0] = '\0';
	if (!capture)
		return buf;
	dup2(saved_stderr, 2);
	close(saved_stderr);
	rewind(capture);
	n = fread(buf, 1, sizeof(buf) - 1, capture);
	buf[n] = '\0';
	fclose(capture);
	capture = NULL;
	return buf;
}

struct round_result {
	bool disabled, logged, quiet_after;
	unsigned long calls, kstat, calls_after;
	unsigned int depth;
	double storm_ms;
	unsigned int storm_samples;
};

static void run_round(unsigned int r, struct round_result *res)
{
	int ret;

	memset(res, 0, sizeof(*res));
	atomic_store(&storm_calls, 0);
	ret = uirq_request_irq(storm_irq, storm_handler, UIRQF_TRIGGER_HIGH, "storm", &storm_dev);
	if (ret) {
		fprintf(stderr, "storm_bench: request of the storm line: %s\n", strerror(-ret));
		exit(1);
	}
	uirq_irq_set_affinity(storm_irq, 1ull << (ncpus - 1));

	struct victim *v = &victims[r % NR_VICTIMS];

	for (unsigned int i = 0; i < samples; i++)
		sample(v, P_BASE);

	capture_begin();
	uirq_swirq_set_level(ctl, storm_hw, true);
	uint64_t t0 = now_ns();

	while (uirq_irq_is_enabled(storm_irq) && now_ns() - t0 < 30000000000ull) {
		sample(v, P_STORM);
		res->storm_samples++;
	}
	/* The flow that disabled it has returned once its handler no longer runs: let it finish. */
	uirq_synchronize_irq(storm_irq);
	char *log = capture_end();
	char want1[96], want2[64];

	snprintf(want1, sizeof(want1), "irq %u: nobody cared", storm_irq);
	snprintf(want2, sizeof(want2), "Disabling IRQ #%u", storm_irq);
	res->logged = strstr(log, want1) && strstr(log, want2);
	res->disabled = !uirq_irq_is_enabled(storm_irq);
	res->depth = uirq_irq_get_depth(storm_irq);
	res->calls = atomic_load(&storm_calls);
	res->kstat = uirq_kstat_irqs(storm_irq);
	res->storm_ms = (double)(atomic_load(&storm_last) - atomic_load(&storm_first)) / 1e6;

	for (unsigned int i = 0; i < samples; i++)
		sample(v, P_AFTER);
	res->calls_after = atomic_load(&storm_calls);
	res->quiet_after = res->calls_after == res->calls;

	uirq_swirq_set_level(ctl, storm_hw, false);
	uirq_free_irq(storm_irq, &storm_dev);
}

struct dist {
	unsigned int n;
	double median_us, p99_us, max_us, per_s;
};

static struct dist summarize(struct victim *v, enum phase p)
{
	struct dist d = { 0, 0, 0, 0, 0 };
	unsigned int n = v->n[p];

	if (!n)
		return d;
	qsort(v->lat_ns[p], n, sizeof(uint64_t), cmp_u64);
	d.n = n;
	d.median_us = (double)v->lat_ns[p][n / 2] / 1e3;
	d.p99_us = (double)v->lat_ns[p][(size_t)n * 99 / 100] / 1e3;
	d.max_us = (double)v->lat_ns[p][n - 1] / 1e3;
	d.per_s = v->busy_ns[p] ? (double)n / ((double)v->busy_ns[p] / 1e9) : 0;
	return d;
}

static void verdict(const char *what, bool pass, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void verdict(const char *what, bool pass, const char *fmt, ...)
{
	va_list ap;

	printf("VERDICT %-9s %s  (", what, pass ? "PASS" : "MISS");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(")\n");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: storm_bench [-r ROUNDS] [-n SAMPLES] [-c CPUS] [--strict]\n"
		   "  -r  rounds of baseline / storm / after, one victim a round in turn (default 9)\n"
		   "  -n  victim deliveries in each baseline and after phase (default 3000)\n"
		   "  -c  uirq CPUs: victims on CPU 0, the storm on the last (default 1: the same CPU)\n"
		   "  --strict  exit 1 on a MISS (default: report only)\n");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *end = NULL;

		if (!strcmp(argv[i], "--strict")) {
			strict = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (i + 1 < argc && (!strcmp(argv[i], "-r") || !strcmp(argv[i], "-n") || !strcmp(argv[i], "-c"))) {
			unsigned long v = strtoul(argv[i + 1], &end, 10);

			if (*end || !v || v > 1000000 || (argv[i][1] == 'c' && v > UIRQ_MAX_CPUS)) {
				usage(stderr);
				return 2;
			}
			if (argv[i][1] == 'r')
				rounds = (unsigned int)v;
			else if (argv[i][1] == 'n')
				samples = (unsigned int)v;
			else
				ncpus = (unsigned int)v;
			i++;
		} else {
			usage(stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct uirq_cpu_config cfg = { .nr_cpus = ncpus };
	int ret = uirq_cpus_start(&cfg);

	if (ret) {
		fprintf(stderr, "storm_bench: uirq_cpus_start: %s\n", strerror(-ret));
		return 1;
	}
	struct uirq_swirq_config sc = { .name = "storm", .nr_inputs = 3, .default_type = UIRQ_TYPE_EDGE_RISING };

	if (uirq_swirq_create(&sc, &ctl)) {
		fprintf(stderr, "storm_bench: swirq create failed\n");
		return 1;
	}
	for (unsigned int i = 0; i < NR_VICTIMS; i++) {
		struct victim *v = &victims[i];

		if (v->kind == V_FD_PRIMARY) {
			ret = uirq_eventfd_line_create(-1, 0, &v->fdl);
		} else {
			v->hw = i;
			ret = uirq_swirq_map(ctl, i);
		}
		if (ret <= 0) {
			fprintf(stderr, "storm_bench: victim line: %s\n", strerror(-ret));
			return 1;
		}
		v->irq = (unsigned int)ret;
		if (v->kind == V_SW_THREAD)
			ret = uirq_request_threaded_irq(v->irq, victim_wake, victim_thread, 0, "victim", v);
		else
			ret = uirq_request_irq(v->irq, victim_primary, 0, "victim", v);
		if (ret) {
			fprintf(stderr, "storm_bench: victim request: %s\n", strerror(-ret));
			return 1;
		}
		uirq_irq_set_affinity(v->irq, 1);
	}
	storm_hw = 2;
	uirq_swirq_set_type(ctl, storm_hw, UIRQ_TYPE_LEVEL_HIGH);
	storm_irq = (unsigned int)uirq_swirq_map(ctl, storm_hw);

	printf("storm_bench: lockdep %s; %u uirq CPU%s (victims on CPU 0, the storm on CPU %u); %ld host cores; "
	       "%u rounds, %u victim deliveries per quiet phase\n",
	       !UIRQ_CONFIG_LOCKDEP ? "compiled out" : uirq_lockdep_enabled() ? "on" : "off (UIRQ_LOCKDEP=0)", ncpus,
	       ncpus > 1 ? "s" : "", ncpus - 1, sysconf(_SC_NPROCESSORS_ONLN), rounds, samples);
	printf("storm: swirq level line %u held asserted, its only handler returns IRQ_NONE\n", storm_irq);

	bool contained = true;
	double storm_ms_sum = 0;

	for (unsigned int r = 0; r < rounds; r++) {
		struct round_result res;

		run_round(r, &res);
		bool ok = res.disabled && res.logged && res.quiet_after && res.calls == STORM_IRQS && res.depth == 1;

		contained = contained && ok;
		storm_ms_sum += res.storm_ms;
		printf("round %u (%s): storm line %s after %lu interrupts (kstat %lu, depth %u) in %.1f ms (%.0f k/s); "
		       "\"nobody cared\" %s; handler runs after: %lu; %u victim deliveries during the storm\n",
		       r + 1, victims[r % NR_VICTIMS].name, res.disabled ? "disabled" : "NOT disabled", res.calls, res.kstat, res.depth, res.storm_ms,
		       res.storm_ms > 0 ? (double)res.calls / res.storm_ms : 0, res.logged ? "logged" : "NOT logged",
		       res.calls_after - res.calls, res.storm_samples);
	}

	printf("\n%-22s %-8s %7s %10s %10s %10s %10s %14s\n", "victim", "phase", "n", "per s", "median us",
	       "p99 us", "max us", "x baseline");
	bool during_ok = true, after_ok = true, v_during[NR_VICTIMS];
	double r_med[NR_VICTIMS], r_p99[NR_VICTIMS];
	unsigned long lost = 0;

	for (unsigned int i = 0; i < NR_VICTIMS; i++) {
		struct victim *v = &victims[i];
		struct dist d[NR_PHASES];

		for (unsigned int p = 0; p < NR_PHASES; p++) {
			d[p] = summarize(v, p);
			lost += v->lost[p];
		}
		for (unsigned int p = 0; p < NR_PHASES; p++) {
			char ratio[64] = "";

			if (p != P_BASE && d[P_BASE].n && d[p].n)
				snprintf(ratio, sizeof(ratio), "%.2f / %.2f", d[p].median_us / d[P_BASE].median_us,
					 d[p].p99_us / d[P_BASE].p99_us);
			printf("%-22s %-8s %7u %10.0f %10.2f %10.2f %10.1f %14s%s\n", p ? "" : v->name, phase_name[p],
			       d[p].n, d[p].per_s, d[p].median_us, d[p].p99_us, d[p].max_us, ratio,
			       v->lost[p] ? " LOST" : "");
		}
		v_during[i] = d[P_STORM].n && d[P_STORM].median_us <= BOUND * d[P_BASE].median_us &&
			      d[P_STORM].p99_us <= BOUND * d[P_BASE].p99_us;
		r_med[i] = d[P_BASE].n && d[P_STORM].n ? d[P_STORM].median_us / d[P_BASE].median_us : 0;
		r_p99[i] = d[P_BASE].n && d[P_STORM].n ? d[P_STORM].p99_us / d[P_BASE].p99_us : 0;
		during_ok = during_ok && v_during[i];
		if (!d[P_AFTER].n || d[P_AFTER].median_us > BOUND * d[P_BASE].median_us)
			after_ok = false;
	}
	printf("\nstorm length: %.1f ms on average (100,000 interrupts)\n", storm_ms_sum / rounds);
	verdict("contained", contained,
		"every round: disabled after exactly 100,000 interrupts, \"nobody cared\" logged, never run again");
	for (unsigned int i = 0; i < NR_VICTIMS; i++)
		verdict("during", v_during[i], "%s: median %.2fx, p99 %.2fx baseline during the storm; bound <= %.1fx",
			victims[i].name, r_med[i], r_p99[i], BOUND);
	verdict("after", after_ok, "each victim's median after containment <= %.1fx its baseline", BOUND);
	verdict("lost", lost == 0, "%lu victim deliveries lost (2 s each)", lost);

	for (unsigned int i = 0; i < NR_VICTIMS; i++) {
		struct victim *v = &victims[i];

		uirq_free_irq(v->irq, v);
		if (v->fdl)
			uirq_fd_line_destroy(v->fdl);
		for (unsigned int p = 0; p < NR_PHASES; p++)
			free(v->lat_ns[p]);
	}
	uirq_swirq_destroy(ctl);
	uirq_cpus_stop();
	if (!contained)
		return 1;
	return strict && (!during_ok || !after_ok || lost) ? 1 : 0;
}
