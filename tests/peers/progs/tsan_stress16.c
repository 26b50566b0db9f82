// SPDX-License-Identifier: MIT
/*
 * Port of Test16 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Test1's inversion with each lock taken in a function of its own
 * (acquire_0, acquire_1) called from acquire_0_then_1 and
 * acquire_1_then_0: the peer checks that its report names those functions.
 * Built with -rdynamic so that a report can name them.
 *
 * TSan: "lock-order-inversion" whose stacks show Acquire1 called from
 * Acquire_0_then_1 and Acquire0 called from Acquire_1_then_0, for every
 * lock type.
 * uirq-lockdep: one circular-dependency report naming acquire_1 and
 * acquire_0 as the places the locks were taken, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle
 */
#include "lockkind.h"

struct lk *l;

/* Not static, and not inlined: the report names them. */
__attribute__((noinline)) void acquire_0(void) { lk_lock(&l[0]); }
__attribute__((noinline)) void acquire_1(void) { lk_lock(&l[1]); }

__attribute__((noinline)) void acquire_0_then_1(void)
{
	acquire_0();
	acquire_1();
}

__attribute__((noinline)) void acquire_1_then_0(void)
{
	acquire_1();
	acquire_0();
}

int main(int argc, char **argv)
{
	lk_choose(argc, argv);
	l = lk_array(5);
	acquire_0_then_1();
	lk_unlock(&l[0]);
	lk_unlock(&l[1]);
	acquire_1_then_0();
	lk_unlock(&l[0]);
	lk_unlock(&l[1]);
	lk_array_free(l, 5);
	return 0;
}
