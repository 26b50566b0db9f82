/* SPDX-License-Identifier: MIT */
/*
 * A test body run in the deterministic mode (uirq/sim.h) under several
 * seeds, on one CPU and on two, instead of once on the real scheduler with
 * wall-clock waits.  There "the flow has seen it" and "nothing more came"
 * are exact: a virtual sleep returns only once every other task is blocked
 * or its own time comes, and handlers cost no virtual time, so a test
 * sleeps (for free) past whatever it waits for and asserts the exact
 * outcome, which a loaded host cannot delay.  The seeds still move the
 * CPUs' and handler threads' steps between the test's calls.
 *
 * Only what the mode can schedule may run in the body: lines of uirq's own
 * (swirq inputs, a chip raising with uirq_irq_raise(), eventfd lines the
 * program made, timerfd lines), uirq's threads, and the test's threads made
 * with uirq_sim_thread_create().  A handler's "work" is uirq_sim_sleep_ns(),
 * never a real sleep (which would hold the only token for nothing).
 */
#ifndef UIRQ_TESTS_SIM_RUNS_H
#define UIRQ_TESTS_SIM_RUNS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"
#include "uirq/sim.h"

#define SIM_US 1000ull
#define SIM_MS 1000000ull

/* Seeds 1..SIM_RUNS: with cpus 0, the odd ones on two CPUs, the even ones on one. */
#define SIM_RUNS 8

/*
 * Seeds 1..seeds, as sim_runs().  In the environment, UIRQ_SIM_SEED=N runs
 * seed N alone (a failure's replay: the seed is the last "sim run" line),
 * UIRQ_SIM_SEEDS=N seeds 1..N instead of the test's number (a deeper
 * exploration).  Prints the runs' wall time (a figure, never a verdict);
 * returns how many seeds ran.
 */
/* The seed of the run in progress (tests that vary their own timing by it read it in begin or the body). */
static uint64_t sim_run_seed;

/* One run: seed's schedule on cpus CPUs, begin(cpus), body, end (if any); its wall time in ms. */
static inline double sim_run_one(uint64_t seed, unsigned int cpus, void (*begin)(unsigned int cpus),
				 void (*body)(void), void (*end)(void))
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Deterministic: the last of these before a failure replays it. */
	fprintf(stderr, "sim run: seed %llu, %u CPU(s)\n", (unsigned long long)seed, cpus);
	assert_eq(uirq_sim_start(seed, UIRQ_SIM_PCT, 3), 0);
	sim_run_seed = seed;
	begin(cpus);
	body();
	if (end)
		end();
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK, "seed %llu, %u CPU(s): %s", (unsigned long long)seed, cpus,
		  uirq_sim_report());
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}

/*
 * Seeds 1..seeds, the odd ones on two CPUs and the even ones on one when
 * ncpus is 0.  In the environment, UIRQ_SIM_SEED=N runs seed N alone (a
 * failure's replay: the seed is the last "sim run" line), UIRQ_SIM_SEEDS=N
 * seeds 1..N instead of the test's number (a deeper exploration).  Prints
 * the runs' wall time (a figure, never a verdict); returns how many ran.
 */
static inline uint64_t sim_runs_seeds(uint64_t seeds, unsigned int ncpus, void (*begin)(unsigned int cpus),
				      void (*body)(void), void (*end)(void))
{
	const char *only = getenv("UIRQ_SIM_SEED"), *many = getenv("UIRQ_SIM_SEEDS");
	uint64_t first = only ? strtoull(only, NULL, 0) : 1;
	uint64_t last = only ? first : many ? strtoull(many, NULL, 0) : seeds;
	double total_ms = 0, worst_ms = 0;

	for (uint64_t seed = first; seed <= last; seed++) {
		double ms = sim_run_one(seed, ncpus ? ncpus : 1 + (unsigned int)(seed % 2), begin, body, end);

		total_ms += ms;
		worst_ms = ms > worst_ms ? ms : worst_ms;
	}
	if (last < first)
		return 0;
	printf("# %llu seeded runs, %.2f ms wall each on average, %.2f ms the longest\n",
	       (unsigned long long)(last - first + 1), total_ms / (double)(last - first + 1), worst_ms);
	fflush(stdout);
	return last - first + 1;
}

static inline void sim_runs(unsigned int ncpus, void (*begin)(unsigned int cpus), void (*body)(void),
			    void (*end)(void))
{
	sim_runs_seeds(SIM_RUNS, ncpus, begin, body, end);
}

/*
 * UIRQ_TEST(suite, name, opts...) whose body runs under sim_runs() between
 * begin(cpus) (the CPUs started in the mode, the test's state reset) and
 * end() (every line freed, the CPUs stopped; NULL when the body does it);
 * SIM_TEST_CPUS on a fixed number of CPUs; SIM_TEST_SEEDS over seeds
 * 1..seeds (an exploration: the issue's --explore N for a driver outside
 * irqsim).
 */
#define SIM_TEST_RUNS(suite, name, seeds, cpus, begin, end, ...)		\
	static void suite##__##name##__body(void);				\
	UIRQ_TEST(suite, name, __VA_ARGS__)					\
	{									\
		sim_runs_seeds((seeds), (cpus), begin, suite##__##name##__body, end); \
	}									\
	static void suite##__##name##__body(void)
#define SIM_TEST_CPUS(suite, name, cpus, begin, end, ...) \
	SIM_TEST_RUNS(suite, name, SIM_RUNS, cpus, begin, end, __VA_ARGS__)
#define SIM_TEST(suite, name, begin, end, ...)	SIM_TEST_CPUS(suite, name, 0, begin, end, __VA_ARGS__)
#define SIM_TEST_SEEDS(suite, name, seeds, begin, end, ...) \
	SIM_TEST_RUNS(suite, name, seeds, 0, begin, end, __VA_ARGS__)

/*
 * Yield until cond, at most n times: for waiting on a task that is always
 * runnable (a spinning handler, a storm), which stops virtual time so that
 * a sleep would never return.  A bound in steps, not time: exact in the
 * mode.  cond's last value.
 */
#define SIM_YIELD_UNTIL(cond, n)						\
	({									\
		unsigned long sim_i_ = 0;					\
										\
		while (!(cond) && sim_i_++ < (unsigned long)(n))		\
			uirq_sim_yield();					\
		(cond);								\
	})

#endif
