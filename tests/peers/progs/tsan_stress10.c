// SPDX-License-Identifier: MIT
/*
 * Port of Test10 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Four threads, each with four locks of its own, nest them in the same
 * order over and over (second argument, default 10000 times; the peer does
 * 100000).
 *
 * TSan: no report, for every lock type.
 * uirq-lockdep: no report, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: none
 */
#include "lockkind.h"

static struct lk *l;
static long iterations;

static void nest_four(struct lk *own)
{
	for (long i = 0; i < iterations; i++) {
		lk_lock(&own[0]);
		lk_lock(&own[1]);
		lk_lock(&own[2]);
		lk_lock(&own[3]);
		lk_unlock(&own[3]);
		lk_unlock(&own[2]);
		lk_unlock(&own[1]);
		lk_unlock(&own[0]);
	}
}

static void *first(void *arg) { (void)arg; nest_four(&l[0]); return NULL; }
static void *second(void *arg) { (void)arg; nest_four(&l[10]); return NULL; }
static void *third(void *arg) { (void)arg; nest_four(&l[20]); return NULL; }
static void *fourth(void *arg) { (void)arg; nest_four(&l[30]); return NULL; }

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { first, second, third, fourth };

	lk_choose(argc, argv);
	iterations = arg_or(argc, argv, 2, 10000);
	l = lk_array(100);
	run_together(threads, 4, NULL);
	lk_array_free(l, 100);
	return 0;
}
