// SPDX-License-Identifier: MIT
/*
 * Port of Test17 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * Test2's three-lock cycle with each lock taken in a function of its own
 * (acquire_0/1/2, called from acquire_0_then_1, acquire_1_then_2 and
 * acquire_2_then_0); the peer checks that its report names them.  Built
 * with -rdynamic so that a report can name them.
 *
 * TSan: "lock-order-inversion" whose stacks show Acquire1, Acquire2 and
 * Acquire0 under their callers, for every lock type.
 * uirq-lockdep: one circular-dependency report naming acquire_0, acquire_1
 * and acquire_2, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle
 */
#include "lockkind.h"

struct lk *l;

/* Not static, and not inlined: the report names them. */
__attribute__((noinline)) void acquire_0(void) { lk_lock(&l[0]); }
__attribute__((noinline)) void acquire_1(void) { lk_lock(&l[1]); }
__attribute__((noinline)) void acquire_2(void) { lk_lock(&l[2]); }

__attribute__((noinline)) void acquire_0_then_1(void)
{
	acquire_0();
	acquire_1();
}

__attribute__((noinline)) void acquire_1_then_2(void)
{
	acquire_1();
	acquire_2();
}

__attribute__((noinline)) void acquire_2_then_0(void)
{
	acquire_2();
	acquire_0();
}

int main(int argc, char **argv)
{
	lk_choose(argc, argv);
	l = lk_array(5);
	acquire_0_then_1();
	lk_unlock(&l[0]);
	lk_unlock(&l[1]);
	acquire_1_then_2();
	lk_unlock(&l[1]);
	lk_unlock(&l[2]);
	acquire_2_then_0();
	lk_unlock(&l[0]);
	lk_unlock(&l[2]);
	lk_array_free(l, 5);
	return 0;
}
