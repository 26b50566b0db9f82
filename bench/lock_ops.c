/* SPDX-License-Identifier: MIT */
/*
 * lock_ops: what one lock+unlock pair of each native lock type costs, single
 * thread, uncontended, against the bare primitive it is built like.
 *
 *   uirq type            bare baseline
 *   spinlock             pthread_spin_lock/unlock
 *   spinlock_irqsave     pthread_spin_lock/unlock
 *   mutex                pthread_mutex_lock/unlock
 *   rwlock_read          pthread_rwlock_rdlock/unlock
 *   rwlock_write         pthread_rwlock_wrlock/unlock
 *   nested3              3 pthread spinlocks nested
 *
 * nested3 takes 3 spinlocks of 3 classes (A, B, C, released C, B, A): after
 * the first round every acquisition is a lock-chain cache hit, so this is
 * the cost of the validator's fast path with locks held.  It is printed per
 * nest (3 pairs) and per pair.
 *
 * What "lockdep" means for a run is decided outside: the build (meson
 * -Dlockdep=false compiles it out) and the environment (UIRQ_LOCKDEP=0 turns
 * it off at run time).  The first output line says which one this run is.
 * bench/lock-ops-bench runs all three and puts them side by side.
 *
 * Each figure is the median over REPS timed repetitions of ITERATIONS pairs,
 * after one untimed warm-up repetition (classes registered, chains cached);
 * the uirq lock's repetitions alternate with its baseline's.
 *
 * Output: a table for people, or with -m one line per case for scripts:
 *   op=NAME ns=X bare=NAME bare_ns=Y
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uirq/config.h"
#include "uirq/lockdep.h"
#include "uirq/mutex.h"
#include "uirq/rwlock.h"
#include "uirq/spinlock.h"

#define MAX_REPS 101

static unsigned long iterations = 2000000;
static int reps = 7;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Time UBODY and BBODY (one lock+unlock pair, or one nest, of the uirq lock
 * and of its bare baseline) ITERATIONS times each, in alternate repetitions
 * so that whatever else the machine is doing hits both alike, after one
 * warm-up repetition of each; yields the medians, in ns per BODY.
 */
#define TIME_PAIR(uresult, ubody, bresult, bbody)			\
	do {								\
		double us_[MAX_REPS], bs_[MAX_REPS], t0_;		\
		for (int rep_ = -1; rep_ < reps; rep_++) {		\
			t0_ = now_ns();					\
			for (unsigned long i_ = 0; i_ < iterations; i_++) { \
				ubody;					\
				__asm__ __volatile__("" ::: "memory");	\
			}						\
			if (rep_ >= 0)					\
				us_[rep_] = (now_ns() - t0_) / (double)iterations; \
			t0_ = now_ns();					\
			for (unsigned long i_ = 0; i_ < iterations; i_++) { \
				bbody;					\
				__asm__ __volatile__("" ::: "memory");	\
			}						\
			if (rep_ >= 0)					\
				bs_[rep_] = (now_ns() - t0_) / (double)iterations; \
		}							\
		(uresult) = median(us_, reps);				\
		(bresult) = median(bs_, reps);				\
	} while (0)

static void *idle_thread(void *arg)
{
	return arg;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "lock_ops: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

struct result {
	const char *op;
	double ns;
	const char *bare;
	double bare_ns;
	int per;	/* pairs per BODY, for the per-pair column */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lock_ops [-n ITERATIONS] [-r REPS] [-m]\n"
		"  -n ITERATIONS  lock+unlock pairs per repetition (default 2000000)\n"
		"  -r REPS        timed repetitions, the median is printed (default 7, max %d)\n"
		"  -m             machine-readable output, one line per case\n"
		"UIRQ_LOCKDEP=0 in the environment turns lockdep off at run time.\n", MAX_REPS);
}

int main(int argc, char **argv)
{
	int opt, machine = 0;
	char *end;

	while ((opt = getopt(argc, argv, "n:r:mh")) != -1) {
		switch (opt) {
		case 'n':
			errno = 0;
			iterations = strtoul(optarg, &end, 0);
			if (errno || end == optarg || *end || iterations < 1 || *optarg == '-') {
				fprintf(stderr, "lock_ops: -n wants a positive count, got '%s'\n", optarg);
				return 2;
			}
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > MAX_REPS) {
				fprintf(stderr, "lock_ops: -r wants 1..%d, got '%s'\n", MAX_REPS, optarg);
				return 2;
			}
			break;
		case 'm':
			machine = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	/*
	 * Become multi-threaded first: glibc takes a non-atomic shortcut in
	 * pthread_mutex_lock while a process has only ever had one thread,
	 * which would flatter the bare baseline (and no real user of a lock
	 * is single-threaded).  The flag stays off once a thread was created.
	 */
	pthread_t idle;

	check(pthread_create(&idle, NULL, idle_thread, NULL), "pthread_create");
	check(pthread_join(idle, NULL), "pthread_join");

	/* The native locks, each its own class (one init site each). */
	uirq_spinlock_t spin, spin_irq, na, nb, nc;
	uirq_mutex_t mutex;
	uirq_rwlock_t rw;

	uirq_spin_lock_init(&spin);
	uirq_spin_lock_init(&spin_irq);
	uirq_spin_lock_init(&na);
	uirq_spin_lock_init(&nb);
	uirq_spin_lock_init(&nc);
	uirq_mutex_init(&mutex);
	uirq_rwlock_init(&rw);

	/* The bare primitives. */
	pthread_spinlock_t bspin, ba, bb, bc;
	pthread_mutex_t bmutex;
	pthread_rwlock_t brw;

	check(pthread_spin_init(&bspin, PTHREAD_PROCESS_PRIVATE), "pthread_spin_init");
	check(pthread_spin_init(&ba, PTHREAD_PROCESS_PRIVATE), "pthread_spin_init");
	check(pthread_spin_init(&bb, PTHREAD_PROCESS_PRIVATE), "pthread_spin_init");
	check(pthread_spin_init(&bc, PTHREAD_PROCESS_PRIVATE), "pthread_spin_init");
	check(pthread_mutex_init(&bmutex, NULL), "pthread_mutex_init");
	check(pthread_rwlock_init(&brw, NULL), "pthread_rwlock_init");

	struct result r[6] = {
		{ "spinlock",         0, "pthread_spin",   0, 1 },
		{ "spinlock_irqsave", 0, "pthread_spin",   0, 1 },
		{ "mutex",            0, "pthread_mutex",  0, 1 },
		{ "rwlock_read",      0, "pthread_rdlock", 0, 1 },
		{ "rwlock_write",     0, "pthread_wrlock", 0, 1 },
		{ "nested3",          0, "pthread_spin x3", 0, 3 },
	};
	unsigned long flags;
#if UIRQ_CONFIG_LOCKDEP
	struct uirq_lockdep_stats st0, st1;
#endif

	TIME_PAIR(r[0].ns, (uirq_spin_lock(&spin), uirq_spin_unlock(&spin)),
		  r[0].bare_ns, (pthread_spin_lock(&bspin), pthread_spin_unlock(&bspin)));

	TIME_PAIR(r[1].ns, (uirq_spin_lock_irqsave(&spin_irq, flags),
			    uirq_spin_unlock_irqrestore(&spin_irq, flags)),
		  r[1].bare_ns, (pthread_spin_lock(&bspin), pthread_spin_unlock(&bspin)));

	TIME_PAIR(r[2].ns, (uirq_mutex_lock(&mutex), uirq_mutex_unlock(&mutex)),
		  r[2].bare_ns, (pthread_mutex_lock(&bmutex), pthread_mutex_unlock(&bmutex)));

	TIME_PAIR(r[3].ns, (uirq_read_lock(&rw), uirq_read_unlock(&rw)),
		  r[3].bare_ns, (pthread_rwlock_rdlock(&brw), pthread_rwlock_unlock(&brw)));

	TIME_PAIR(r[4].ns, (uirq_write_lock(&rw), uirq_write_unlock(&rw)),
		  r[4].bare_ns, (pthread_rwlock_wrlock(&brw), pthread_rwlock_unlock(&brw)));

#if UIRQ_CONFIG_LOCKDEP
	uirq_lockdep_get_stats(&st0);
#endif
	TIME_PAIR(r[5].ns, (uirq_spin_lock(&na), uirq_spin_lock(&nb), uirq_spin_lock(&nc),
			    uirq_spin_unlock(&nc), uirq_spin_unlock(&nb), uirq_spin_unlock(&na)),
		  r[5].bare_ns, (pthread_spin_lock(&ba), pthread_spin_lock(&bb), pthread_spin_lock(&bc),
				 pthread_spin_unlock(&bc), pthread_spin_unlock(&bb),
				 pthread_spin_unlock(&ba)));
#if UIRQ_CONFIG_LOCKDEP
	uirq_lockdep_get_stats(&st1);
#endif

	const char *mode;
#if UIRQ_CONFIG_LOCKDEP
	mode = uirq_lockdep_enabled() ? "on" : "off";
#else
	mode = "out";
#endif

	if (machine) {
		printf("mode=%s iterations=%lu reps=%d\n", mode, iterations, reps);
		for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
			printf("op=%s ns=%.2f bare=%s bare_ns=%.2f per=%d\n",
			       r[i].op, r[i].ns, r[i].bare, r[i].bare_ns, r[i].per);
	} else {
		printf("lock_ops: lockdep %s (%s), %lu pairs x %d reps, median, single thread, uncontended\n",
		       mode,
		       !strcmp(mode, "on") ? "compiled in, running" :
		       !strcmp(mode, "off") ? "compiled in, turned off at run time" : "compiled out",
		       iterations, reps);
		printf("%-18s %10s %10s  %-16s %10s %8s\n", "op", "ns/op", "ns/pair", "bare", "bare ns", "ratio");
		for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
			printf("%-18s %10.2f %10.2f  %-16s %10.2f %7.2fx\n", r[i].op, r[i].ns,
			       r[i].ns / r[i].per, r[i].bare, r[i].bare_ns, r[i].ns / r[i].bare_ns);
		printf("(nested3: ns/op is one nest of 3 lock+unlock pairs)\n");
	}
#if UIRQ_CONFIG_LOCKDEP
	if (!strcmp(mode, "on")) {
		unsigned long acq = 3ul * iterations * (unsigned long)(reps + 1);

		printf("%snested3 chain cache: %lu hits, %lu graph searches over %lu acquisitions\n",
		       machine ? "# " : "", st1.chain_hits - st0.chain_hits,
		       st1.bfs_searches - st0.bfs_searches, acq);
	}
#endif

	pthread_spin_destroy(&bspin);
	pthread_spin_destroy(&ba);
	pthread_spin_destroy(&bb);
	pthread_spin_destroy(&bc);
	pthread_mutex_destroy(&bmutex);
	pthread_rwlock_destroy(&brw);
	uirq_mutex_destroy(&mutex);
	return 0;
}
