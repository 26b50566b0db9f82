// SPDX-License-Identifier: MIT
/*
 * Port of Test3 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * 0 then 1; then, while holding lock 2, 4096 locks are created and
 * destroyed without ever being taken; then 1 then 0.  Locks that are never
 * used must not push the first order out of the detector's memory.
 *
 * TSan: "lock-order-inversion", for every lock type (its graph has room
 * for 4096 locks, and these never enter it).
 * uirq-lockdep: one circular-dependency report, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle
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
	struct lk *l;

	lk_choose(argc, argv);
	l = lk_array(5);
	lock_pair(&l[0], &l[1]);
	lk_lock(&l[2]);
	lk_array_free(lk_array(MANY), MANY);
	lk_unlock(&l[2]);
	lock_pair(&l[1], &l[0]);
	lk_array_free(l, 5);
	return 0;
}
