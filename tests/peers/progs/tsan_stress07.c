// SPDX-License-Identifier: MIT
/*
 * Port of Test7 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Trylocks in four pairs of locks, one thread:
 *   0/1: 0 then try 1; later try 1 then 0.   The tried lock is never waited
 *        for, so 0 -> 1 is no dependency and 1 -> 0 alone is no cycle.
 *   2/3: try 2 then 3; later 3 then try 2.   Likewise: only 2 -> 3 counts.
 *   4/5: try 4 then 5; later 5 then 4.       A held lock that was tried
 *        still makes its holder wait for the next one: 4 -> 5 and 5 -> 4,
 *        a real cycle.
 *   6/7: 7 then 6; later try 6 then 7.       Same: 7 -> 6 and 6 -> 7.
 *
 * TSan: silent for 0/1 and 2/3, "lock-order-inversion" for 4/5 and for
 * 6/7, for every lock type.
 * uirq-lockdep: two circular-dependency reports (4/5 and 6/7), for every
 * lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle x2
 */
#include "lockkind.h"

static void must_try(struct lk *l)
{
	if (!lk_trylock(l)) {
		fprintf(stderr, "trylock of a free lock failed\n");
		exit(3);
	}
}

int main(int argc, char **argv)
{
	struct lk *l;

	lk_choose(argc, argv);
	l = lk_array(10);

	lk_lock(&l[0]);
	must_try(&l[1]);
	lk_unlock(&l[1]);
	lk_unlock(&l[0]);
	must_try(&l[1]);
	lk_lock(&l[0]);
	lk_unlock(&l[1]);
	lk_unlock(&l[0]);
	fprintf(stderr, "No cycle: 0=>1\n");

	must_try(&l[2]);
	lk_lock(&l[3]);
	lk_unlock(&l[3]);
	lk_unlock(&l[2]);
	lk_lock(&l[3]);
	must_try(&l[2]);
	lk_unlock(&l[3]);
	lk_unlock(&l[2]);
	fprintf(stderr, "No cycle: 2=>3\n");

	must_try(&l[4]);
	lk_lock(&l[5]);
	lk_unlock(&l[4]);
	lk_unlock(&l[5]);
	lk_lock(&l[5]);
	lk_lock(&l[4]);
	lk_unlock(&l[4]);
	lk_unlock(&l[5]);
	fprintf(stderr, "Have cycle: 4=>5\n");

	lk_lock(&l[7]);
	lk_lock(&l[6]);
	lk_unlock(&l[6]);
	lk_unlock(&l[7]);
	must_try(&l[6]);
	lk_lock(&l[7]);
	lk_unlock(&l[6]);
	lk_unlock(&l[7]);
	fprintf(stderr, "Have cycle: 6=>7\n");

	lk_array_free(l, 10);
	return 0;
}
