// SPDX-License-Identifier: MIT
/*
 * Port of Test6 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Three threads each take and release a lock of their own, over and over
 * (the second argument, default 20000 times; the peer does 100000).
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

static void spin_on(struct lk *own)
{
	for (long i = 0; i < iterations; i++) {
		lk_lock(own);
		lk_unlock(own);
	}
}

static void *first(void *arg) { (void)arg; spin_on(&l[0]); return NULL; }
static void *second(void *arg) { (void)arg; spin_on(&l[10]); return NULL; }
static void *third(void *arg) { (void)arg; spin_on(&l[20]); return NULL; }

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { first, second, third };

	lk_choose(argc, argv);
	iterations = arg_or(argc, argv, 2, 20000);
	l = lk_array(100);
	run_together(threads, 3, NULL);
	lk_array_free(l, 100);
	return 0;
}
