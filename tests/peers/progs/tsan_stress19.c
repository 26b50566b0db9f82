// SPDX-License-Identifier: MIT
/*
 * Port of Test19 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * 45 locks; round i takes all of them starting at lock i and wrapping
 * around (i, i+1, ..., 44, 0, ..., i-1), then releases them.  Every round
 * after the first takes lock 0 while holding lock 44, against the order of
 * round 0.
 *
 * TSan: nothing checked - no CHECK line follows the test's start, only the
 * final ALL-DONE.
 * uirq-lockdep: one circular-dependency report, for every lock type.  Each
 * round tries the same 44 -> 0 edge against the same chain 0 -> 1 -> ...
 * -> 44, so later rounds repeat the first problem; holding 45 locks at once
 * is fine.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: not checked
 */
#include "lockkind.h"

enum { NLOCKS = 45 };

int main(int argc, char **argv)
{
	struct lk *l;

	lk_choose(argc, argv);
	l = lk_array(NLOCKS);
	for (int i = 0; i < NLOCKS; i++) {
		for (int j = 0; j < NLOCKS; j++)
			lk_lock(&l[(i + j) % NLOCKS]);
		for (int j = 0; j < NLOCKS; j++)
			lk_unlock(&l[(i + j) % NLOCKS]);
	}
	lk_array_free(l, NLOCKS);
	return 0;
}
