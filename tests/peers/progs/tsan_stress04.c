// SPDX-License-Identifier: MIT
/*
 * Port of Test4 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * 0 then 1; then, while holding lock 2, 4096 locks are created, each taken
 * and released once, and destroyed; then 1 then 0.
 *
 * TSan: no report, for every lock type.  Its detector keeps a graph of
 * 4096 locks; the 4096 new ones start a new "epoch" that forgets the
 * 0 -> 1 edge, so 1 -> 0 looks harmless (the test checks that it stays
 * silent).
 * uirq-lockdep: one circular-dependency report, for every lock type.  This
 * difference is deliberate: lockdep must not forget a dependency because
 * other locks came and went - 0 -> 1 and 1 -> 0 can still deadlock two
 * threads however many locks were used in between.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: none
 */
#include "lockkind.h"

enum { MANY = 4096 };

static void lock_pair(struct lk *outer, struct lk *inner)
{
	lk_lock(outer);
	lk_lock(inner);
	lk_unlock(inner);
	lk_unlock(outer);
}

int main(int argc, char **argv)
{
	struct lk *l, *many;

	lk_choose(argc, argv);
	l = lk_array(5);
	lock_pair(&l[0], &l[1]);
	lk_lock(&l[2]);
	many = lk_array(MANY);
	for (int i = 0; i < MANY; i++) {
		lk_lock(&many[i]);
		lk_unlock(&many[i]);
	}
	lk_array_free(many, MANY);
	lk_unlock(&l[2]);
	lock_pair(&l[1], &l[0]);
	lk_array_free(l, 5);
	return 0;
}
