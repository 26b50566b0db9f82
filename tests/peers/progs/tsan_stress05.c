// SPDX-License-Identifier: MIT
/*
 * Port of Test5 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 *
 * The inversion of Test1 split over two threads: the first takes 0 then 1
 * and waits at a barrier; the second passes the barrier only then and takes
 * 1 then 0.  The two never overlap, so the program cannot hang.
 *
 * TSan: "lock-order-inversion", naming both threads, for every lock type.
 * uirq-lockdep: one circular-dependency report, for every lock type.
 *
 * runs: mutex | spin | rwlock | recursive
 * peer-verdict: cycle
 */
#include "lockkind.h"

static struct lk *l;
static pthread_barrier_t first_done;

static void lock_pair(struct lk *outer, struct lk *inner)
{
	lk_lock(outer);
	lk_lock(inner);
	lk_unlock(inner);
	lk_unlock(outer);
}

static void *zero_then_one(void *arg)
{
	(void)arg;
	lock_pair(&l[0], &l[1]);
	pthread_barrier_wait(&first_done);
	return NULL;
}

static void *one_then_zero(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&first_done);
	lock_pair(&l[1], &l[0]);
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const threads[])(void *) = { zero_then_one, one_then_zero };

	lk_choose(argc, argv);
	l = lk_array(5);
	ok(pthread_barrier_init(&first_done, NULL, 2));
	run_together(threads, 2, NULL);
	ok(pthread_barrier_destroy(&first_done));
	lk_array_free(l, 5);
	return 0;
}
