// SPDX-License-Identifier: MIT
/*
 * Port of Test14 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Four threads create and destroy ten locks at a time, never taking them,
 * over and over (second argument, default 2000 times; the peer does
 * 100001).
 *
 * TSan: no report (the peer only checks that the test starts and the
 * program ends).
 * uirq-lockdep: no report, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: none
 */
#include "lockkind.h"

static long iterations;

static void *churn(void *arg)
{
	(void)arg;
	for (long i = 0; i < iterations; i++) {
		struct lk some[10];

		for (int j = 0; j < 10; j++)
			lk_init(&some[j]);
		for (int j = 0; j < 10; j++)
			lk_destroy(&some[j]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { churn, churn, churn, churn };

	lk_choose(argc, argv);
	iterations = arg_or(argc, argv, 2, 2000);
	run_together(threads, 4, NULL);
	return 0;
}
