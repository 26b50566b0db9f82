// SPDX-License-Identifier: MIT
/*
 * Port of Test2 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * An inversion through three locks: 0 then 1, 1 then 2, 2 then 0, each
 * pair taken and released before the next.
 *
 * TSan: "lock-order-inversion" with the cycle M0 => M1 => M2 => M0, for
 * every lock type.
 * uirq-lockdep: one circular-dependency report, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle
 */
#include "lockkind.h"

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
	lock_pair(&l[1], &l[2]);
	lock_pair(&l[2], &l[0]);
	lk_array_free(l, 5);
	return 0;
}
