/* SPDX-License-Identifier: MIT */
/*
 * lock_heavy: a lock-heavy, unmodified pthread program for the lockdep
 * benchmark (bench/lockdep-bench).
 *
 * T threads share 8 pthread mutexes.  Each iteration a thread picks 3 of
 * the 8 pseudo-randomly (a per-thread xorshift64 PRNG with a deterministic
 * seed), locks them in ascending index order (a consistent order: there is
 * no deadlock and a validator must report nothing), runs a tiny critical
 * section, and unlocks them in descending order.  The critical section of
 * lock i bumps counter i and checks that nobody else is inside lock i.
 *
 * N is the TOTAL number of iterations over all threads (default 1,000,000),
 * split evenly, so the amount of work does not change with T.
 *
 * At the end the program checks every counter against the per-thread
 * tallies and exits 1 if anything is off (2 on a usage error).  It prints
 * one line, parsed by lockdep-bench:
 *   lock_heavy: threads=T iterations=N seed=S elapsed_s=E ns_per_iter=X ok
 * elapsed_s is the wall time of the locking phase only (threads started ->
 * all joined), so process start-up and tool start-up are not in it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NR_LOCKS	8
#define NR_TAKEN	3
#define NR_TRIPLES	56	/* C(8,3) */
#define MAX_THREADS	256

struct slot {
	pthread_mutex_t lock;
	unsigned long count;	/* protected by lock */
	long owner;		/* protected by lock: who is inside, -1 nobody */
	char pad[64];		/* keep slots on separate cache lines */
};

static struct slot slots[NR_LOCKS];

/* Every sorted triple of distinct lock indices, so a pick is one table look-up. */
static unsigned char triples[NR_TRIPLES][NR_TAKEN];

struct worker {
	pthread_t thread;
	long id;
	unsigned long iterations;
	uint64_t rng;
	unsigned long taken[NR_LOCKS];	/* this thread's tally per lock */
	unsigned long violations;	/* mutual exclusion seen broken */
	char pad[64];
};

static pthread_barrier_t start_barrier;

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void build_triples(void)
{
	int n = 0;

	for (int a = 0; a < NR_LOCKS; a++)
		for (int b = a + 1; b < NR_LOCKS; b++)
			for (int c = b + 1; c < NR_LOCKS; c++) {
				triples[n][0] = (unsigned char)a;
				triples[n][1] = (unsigned char)b;
				triples[n][2] = (unsigned char)c;
				n++;
			}
}

static void die_errno(const char *what, int err)
{
	fprintf(stderr, "lock_heavy: %s: %s\n", what, strerror(err));
	exit(1);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int err;

	pthread_barrier_wait(&start_barrier);
	for (unsigned long it = 0; it < w->iterations; it++) {
		/* 32 high bits, reduced to 0..55; the bias is irrelevant here. */
		const unsigned char *t = triples[(xorshift64(&w->rng) >> 32) % NR_TRIPLES];

		for (int k = 0; k < NR_TAKEN; k++) {
			err = pthread_mutex_lock(&slots[t[k]].lock);
			if (err)
				die_errno("pthread_mutex_lock", err);
		}
		for (int k = 0; k < NR_TAKEN; k++) {
			struct slot *s = &slots[t[k]];

			if (s->owner != -1)
				w->violations++;
			s->owner = w->id;
			s->count++;
			w->taken[t[k]]++;
		}
		for (int k = NR_TAKEN - 1; k >= 0; k--) {
			struct slot *s = &slots[t[k]];

			if (s->owner != w->id)
				w->violations++;
			s->owner = -1;
			err = pthread_mutex_unlock(&s->lock);
			if (err)
				die_errno("pthread_mutex_unlock", err);
		}
	}
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lock_heavy [-t THREADS] [-n ITERATIONS] [-s SEED]\n"
		"  -t THREADS     worker threads (default 4, max %d)\n"
		"  -n ITERATIONS  total iterations over all threads (default 1000000)\n"
		"  -s SEED        PRNG seed (default 1)\n"
		"Each iteration locks 3 of 8 mutexes in ascending order, bumps their\n"
		"counters and unlocks them in descending order.  Exit 0 when every\n"
		"counter checks out, 1 otherwise.\n", MAX_THREADS);
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	return (errno || end == s || *end || *s == '-') ? -1 : 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	unsigned long nthreads = 4, iterations = 1000000, seed = 1;
	static struct worker workers[MAX_THREADS];
	unsigned long expect[NR_LOCKS] = { 0 }, total = 0, violations = 0;
	double t0, t1;
	int opt, err, bad = 0;

	while ((opt = getopt(argc, argv, "t:n:s:h")) != -1) {
		switch (opt) {
		case 't':
			if (parse_ulong(optarg, &nthreads) || nthreads < 1 || nthreads > MAX_THREADS) {
				fprintf(stderr, "lock_heavy: -t wants 1..%d, got '%s'\n", MAX_THREADS, optarg);
				return 2;
			}
			break;
		case 'n':
			if (parse_ulong(optarg, &iterations) || iterations < 1) {
				fprintf(stderr, "lock_heavy: -n wants a positive count, got '%s'\n", optarg);
				return 2;
			}
			break;
		case 's':
			if (parse_ulong(optarg, &seed)) {
				fprintf(stderr, "lock_heavy: -s wants a number, got '%s'\n", optarg);
				return 2;
			}
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

	build_triples();
	for (int i = 0; i < NR_LOCKS; i++) {
		err = pthread_mutex_init(&slots[i].lock, NULL);
		if (err)
			die_errno("pthread_mutex_init", err);
		slots[i].owner = -1;
	}
	err = pthread_barrier_init(&start_barrier, NULL, (unsigned)nthreads + 1);
	if (err)
		die_errno("pthread_barrier_init", err);

	for (unsigned long i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];

		w->id = (long)i;
		/* An even split; the first (N % T) threads take one more. */
		w->iterations = iterations / nthreads + (i < iterations % nthreads);
		w->rng = splitmix64(seed * 0x100000001b3ull + i);
		if (!w->rng)
			w->rng = 1;	/* xorshift must not start at 0 */
		err = pthread_create(&w->thread, NULL, worker_main, w);
		if (err)
			die_errno("pthread_create", err);
	}
	t0 = now_s();
	pthread_barrier_wait(&start_barrier);
	for (unsigned long i = 0; i < nthreads; i++) {
		err = pthread_join(workers[i].thread, NULL);
		if (err)
			die_errno("pthread_join", err);
	}
	t1 = now_s();

	for (unsigned long i = 0; i < nthreads; i++) {
		for (int k = 0; k < NR_LOCKS; k++)
			expect[k] += workers[i].taken[k];
		violations += workers[i].violations;
	}
	for (int k = 0; k < NR_LOCKS; k++) {
		if (slots[k].count != expect[k]) {
			fprintf(stderr, "lock_heavy: counter %d is %lu, threads counted %lu\n",
				k, slots[k].count, expect[k]);
			bad = 1;
		}
		if (slots[k].owner != -1) {
			fprintf(stderr, "lock_heavy: lock %d still marked owned by %ld\n", k, slots[k].owner);
			bad = 1;
		}
		total += slots[k].count;
	}
	if (total != iterations * NR_TAKEN) {
		fprintf(stderr, "lock_heavy: %lu acquisitions counted, expected %lu\n",
			total, iterations * NR_TAKEN);
		bad = 1;
	}
	if (violations) {
		fprintf(stderr, "lock_heavy: mutual exclusion broken %lu times\n", violations);
		bad = 1;
	}
	for (int i = 0; i < NR_LOCKS; i++) {
		err = pthread_mutex_destroy(&slots[i].lock);
		if (err)
			die_errno("pthread_mutex_destroy", err);
	}
	pthread_barrier_destroy(&start_barrier);

	printf("lock_heavy: threads=%lu iterations=%lu seed=%lu elapsed_s=%.6f ns_per_iter=%.1f %s\n",
	       nthreads, iterations, seed, t1 - t0, (t1 - t0) * 1e9 / (double)iterations,
	       bad ? "FAILED" : "ok");
	return bad;
}
