// SPDX-License-Identifier: MIT
/*
 * Scheduling points at shared-memory accesses: this file is compiled with
 * the mode's access instrumentation (sim_instrument_args), as the drivers
 * are.  A check-then-act on a plain flag with no lock between two tasks
 * races only if another task can run between the check and the act; with
 * control changing hands at uirq's synchronisation calls alone it never
 * could (0 seeds of any number), with the access points it must.
 */
#include "harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "uirq/sim.h"

static int claimed;		/* plain: the bug is that nothing orders it */
static int claims;
static _Atomic int counter;

static void *claim(void *arg)
{
	(void)arg;
	if (!claimed) {		/* check ... */
		claimed = 1;	/* ... then act */
		claims++;
	}
	return NULL;
}

/* One seeded run of two claimers; how many claimed. */
static int race(uint64_t seed, enum uirq_sim_strategy st, unsigned int depth)
{
	pthread_t a, b;

	claimed = claims = 0;
	assert_eq(uirq_sim_start(seed, st, depth), 0);
	assert_eq(uirq_sim_thread_create(&a, NULL, claim, NULL, "claim-a"), 0);
	assert_eq(uirq_sim_thread_create(&b, NULL, claim, NULL, "claim-b"), 0);
	assert_eq(uirq_sim_thread_join(a, NULL), 0);
	assert_eq(uirq_sim_thread_join(b, NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	return claims;
}

UIRQ_TEST(access, check_then_act_race_found)
{
	unsigned int pct = 0, rnd = 0;

	uirq_sim_set_pct_horizon(20);
	for (uint64_t seed = 0; seed < 200; seed++) {
		int p = race(seed, UIRQ_SIM_PCT, 2), r = race(seed, UIRQ_SIM_RANDOM, 0);

		assert_true(p == 1 || p == 2, "seed %llu: %d claims", (unsigned long long)seed, p);
		pct += p == 2;
		rnd += r == 2;
	}
	fprintf(stderr, "double claims in 200 seeds: pct:2 %u, random %u\n", pct, rnd);
	assert_gt(pct, 0u, "PCT never ran the other task between the check and the act");
	assert_gt(rnd, 0u, "random never ran the other task between the check and the act");
	/* Both orders, not only the race: most seeds claim once. */
	assert_lt(pct, 200u);
}

/* Atomics are points too, and still atomic: 2 x 1000 increments, none lost, interleaved. */
static void *bump(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		atomic_fetch_add(&counter, 1);
	return NULL;
}

UIRQ_TEST(access, atomics_are_points_and_atomic)
{
	pthread_t a, b;

	atomic_store(&counter, 0);
	assert_eq(uirq_sim_start(3, UIRQ_SIM_RANDOM, 0), 0);
	size_t before = uirq_sim_trace_len();

	assert_eq(uirq_sim_thread_create(&a, NULL, bump, NULL, "bump-a"), 0);
	assert_eq(uirq_sim_thread_create(&b, NULL, bump, NULL, "bump-b"), 0);
	assert_eq(uirq_sim_thread_join(a, NULL), 0);
	assert_eq(uirq_sim_thread_join(b, NULL), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
	assert_eq(atomic_load(&counter), 2000);
	/* Random switches at about every other shared access while both run: hundreds of decisions, not a handful. */
	assert_gt(uirq_sim_trace_len() - before, 200u, "decisions");
}

/* Outside the mode the hooks only do the access. */
UIRQ_TEST(access, outside_the_mode_nothing)
{
	claimed = claims = 0;
	claim(NULL);
	claim(NULL);
	assert_eq(claims, 1);
	atomic_store(&counter, 5);
	assert_eq(atomic_fetch_add(&counter, 2), 5);
	assert_eq(atomic_load(&counter), 7);
}
