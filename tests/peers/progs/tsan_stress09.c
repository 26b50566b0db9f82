// SPDX-License-Identifier: MIT
/*
 * Port of Test9 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 * The peer runs it for its recursive mutex only.
 *
 * Lock 0 three times, then 1, release all; lock 1 three times, then 0,
 * release all.  The relocks are legal; the orders 0 -> 1 and 1 -> 0 are
 * not.
 *
 * TSan: "lock-order-inversion".
 * uirq-lockdep: one circular-dependency report, and nothing about the
 * relocks.
 *
 * runs: recursive
 * peer-verdict: cycle
 */
#include "lockkind.h"

static void lock_thrice_then(struct lk *outer, struct lk *inner)
{
	lk_lock(outer);
	lk_lock(outer);
	lk_lock(outer);
	lk_lock(inner);
	lk_unlock(inner);
	lk_unlock(outer);
	lk_unlock(outer);
	lk_unlock(outer);
}

int main(int argc, char **argv)
{
	struct lk *l;

	lk_choose(argc, argv);
	if (lock_kind != LK_RECURSIVE)
		return 0;
	l = lk_array(5);
	lock_thrice_then(&l[0], &l[1]);
	lock_thrice_then(&l[1], &l[0]);
	lk_array_free(l, 5);
	return 0;
}
