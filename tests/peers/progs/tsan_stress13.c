// SPDX-License-Identifier: MIT
/*
 * Port of Test13 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 * The peer runs it for its rwlock only.
 *
 * Four threads read-lock shared lock 0 and, under it, read-lock and
 * release 100, 200, 300 and 400 one after the other, over and over
 * (second argument, default 5000 times).
 *
 * TSan: no report.
 * uirq-lockdep: no report, for the default rwlock and for rwlock_wp (not
 * built by the peer).
 *
 * runs: rwlock | rwlock_wp
 * peer-verdict(rwlock): none
 * peer-verdict(rwlock_wp): not built by the peer
 */
#include "lockkind.h"

static struct lk *l;
static long iterations;

static void *read_under_zero(void *arg)
{
	(void)arg;
	for (long i = 0; i < iterations; i++) {
		lk_rdlock(&l[0]);
		for (int inner = 100; inner <= 400; inner += 100) {
			lk_rdlock(&l[inner]);
			lk_rdunlock(&l[inner]);
		}
		lk_rdunlock(&l[0]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { read_under_zero, read_under_zero, read_under_zero,
					      read_under_zero };

	lk_choose(argc, argv);
	if (!lk_has_read_side())
		return 0;
	iterations = arg_or(argc, argv, 2, 5000);
	l = lk_array(500);
	run_together(threads, 4, NULL);
	lk_array_free(l, 500);
	return 0;
}
