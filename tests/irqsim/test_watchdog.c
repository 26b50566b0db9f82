// SPDX-License-Identifier: MIT
/*
 * irqsim's watchdog (tools/irqsim/watchdog.c) on its own.  In a seeded run
 * a phase's budget is the run's virtual time: the wall time a seeded run
 * takes says nothing about the board - a sanitizer build runs the storm's
 * 110 000 edges in seconds where a plain build takes 0.4 s, and a run
 * stopped in a debugger or by Ctrl-Z stands still - while the virtual
 * clock moves only as the scenario does.  A phase that overruns its budget
 * in virtual time still ends the process, with the scheduler's clock named.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "irqsim.h"
#include "uirq/sim.h"
#include "watchdog.h"

#define MS 1000000ull

static struct irqsim_opts opts;
static struct irqsim_run run = { .opts = &opts, .sc = { .name = "test" } };

static void wall_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

/*
 * 300 ms of wall time go by inside a phase with a 100 ms budget, the run's
 * clock standing still: the watchdog lets it be (before, it ended the
 * process: exit 1 and "still running after 0.1 s").
 */
UIRQ_TEST(irqsim_watchdog, a_seeded_phase_is_not_timed_on_the_wall, .timeout = 30)
{
	struct watchdog wd;

	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 3), 0);
	watchdog_start(&wd, &run, 0);
	watchdog_phase(&wd, "hold", 3, 100 * MS);
	wall_sleep_ms(300);
	uirq_sim_sleep_ns(50 * MS);
	watchdog_phase(&wd, "settling", 0, 0);
	watchdog_stop(&wd);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}

/* The same phase overrunning its budget in virtual time: the watchdog ends the run, exit 1. */
UIRQ_TEST(irqsim_watchdog, a_seeded_phase_over_its_virtual_budget_ends_the_run, .timeout = 30, .exit_code = 1)
{
	struct watchdog wd;

	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 3), 0);
	watchdog_start(&wd, &run, 0);
	watchdog_phase(&wd, "hold", 3, 100 * MS);
	uirq_sim_sleep_ns(150 * MS);
	/* The watchdog looks every 50 ms of wall time; it ends the process from its thread. */
	for (int i = 0; i < 100; i++)
		wall_sleep_ms(50);
	assert_true(false, "the watchdog did not fire");
}

/* Outside a seeded run the budget stays wall time: a stuck free run is ended. */
UIRQ_TEST(irqsim_watchdog, a_free_phase_is_timed_on_the_wall, .timeout = 30, .exit_code = 1)
{
	struct watchdog wd;

	watchdog_start(&wd, &run, 0);
	watchdog_phase(&wd, "hold", 3, 100 * MS);
	for (int i = 0; i < 100; i++)
		wall_sleep_ms(50);
	assert_true(false, "the watchdog did not fire");
}

/*
 * A seeded run stopped (SIGSTOP, Ctrl-Z, a debugger) for 2 s under a
 * --timeout of 1 s: the time it stood still is not time it ran, and the
 * watchdog lets it be.  The whole-run deadline was wall time: it fired as
 * the run was continued (exit 1, "reached its --timeout of 1 s").
 */
UIRQ_TEST(irqsim_watchdog, a_stopped_run_is_not_a_stuck_one, .timeout = 30)
{
	struct watchdog wd;
	pid_t self = getpid(), helper;
	int st;

	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 3), 0);
	watchdog_start(&wd, &run, 1.0);
	watchdog_phase(&wd, "hold", 3, 100 * MS);
	helper = fork();
	assert_ge(helper, 0);
	if (!helper) {
		kill(self, SIGSTOP);
		wall_sleep_ms(2000);
		kill(self, SIGCONT);
		_exit(0);
	}
	assert_eq(waitpid(helper, &st, 0), helper);
	assert_true(WIFEXITED(st) && !WEXITSTATUS(st));
	/* A look of the watchdog's after the continue: where it fired. */
	wall_sleep_ms(200);
	watchdog_phase(&wd, "settling", 0, 0);
	watchdog_stop(&wd);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}
