// SPDX-License-Identifier: MIT
/*
 * Port of Test18 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Four threads, each with four locks of its own: take all four, release
 * all four, destroy them and initialise them again in the same memory,
 * over and over (second argument, default 500 times; the peer does 1000).
 *
 * TSan: no report.
 * uirq-lockdep: no report, for every lock type; every round's locks are
 * new locks, and their order never changes.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: none
 */
#include "lockkind.h"

static long iterations;

static void *take_all_then_recreate(void *arg)
{
	struct lk *own = lk_array(4);

	(void)arg;
	for (long i = 0; i < iterations; i++) {
		for (int j = 0; j < 4; j++)
			lk_lock(&own[j]);
		for (int j = 0; j < 4; j++)
			lk_unlock(&own[j]);
		for (int j = 0; j < 4; j++)
			lk_destroy(&own[j]);
		for (int j = 0; j < 4; j++)
			lk_init(&own[j]);
	}
	lk_array_free(own, 4);
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { take_all_then_recreate, take_all_then_recreate,
					      take_all_then_recreate, take_all_then_recreate };

	lk_choose(argc, argv);
	iterations = arg_or(argc, argv, 2, 500);
	run_together(threads, 4, NULL);
	return 0;
}
