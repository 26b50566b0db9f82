// SPDX-License-Identifier: MIT
/*
 * Port of Test1 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * The plainest inversion: of five locks, take 0 then 1, release both, then
 * take 1 then 0, all in one thread.
 *
 * TSan: "lock-order-inversion (potential deadlock)" with the cycle
 * M0 => M1 => M0, for every lock type.
 * uirq-lockdep: one circular-dependency report, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle
 */
#include "lockkind.h"

int main(int argc, char **argv)
{
	struct lk *l;

	lk_choose(argc, argv);
	l = lk_array(5);
	lk_lock(&l[0]);
	lk_lock(&l[1]);
	lk_unlock(&l[1]);
	lk_unlock(&l[0]);

	lk_lock(&l[1]);
	lk_lock(&l[0]);
	lk_unlock(&l[0]);
	lk_unlock(&l[1]);
	lk_array_free(l, 5);
	return 0;
}
