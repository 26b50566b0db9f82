// SPDX-License-Identifier: MIT
/*
 * Port of Test11 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Four threads; each holds an outer lock of its own while it takes and
 * releases four inner locks of its own one after the other, over and over
 * (second argument, default 10000 times).  This is what the peer's
 * comment and its Test11_Thread describe; its thread table actually runs
 * Test10's body (and Test11_Thread, never called, would unlock a lock it
 * never took).  The intended scenario is ported.
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

static void outer_and_four(size_t m)
{
	for (long i = 0; i < iterations; i++) {
		lk_lock(&l[m]);
		for (size_t inner = 100; inner <= 400; inner += 100) {
			lk_lock(&l[m + inner]);
			lk_unlock(&l[m + inner]);
		}
		lk_unlock(&l[m]);
	}
}

static void *first(void *arg) { (void)arg; outer_and_four(0); return NULL; }
static void *second(void *arg) { (void)arg; outer_and_four(10); return NULL; }
static void *third(void *arg) { (void)arg; outer_and_four(20); return NULL; }
static void *fourth(void *arg) { (void)arg; outer_and_four(30); return NULL; }

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { first, second, third, fourth };

	lk_choose(argc, argv);
	iterations = arg_or(argc, argv, 2, 10000);
	l = lk_array(500);
	run_together(threads, 4, NULL);
	lk_array_free(l, 500);
	return 0;
}
