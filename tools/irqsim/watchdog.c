// SPDX-License-Identifier: MIT
/* The run's watchdog (watchdog.h says why it ends the process). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "irqsim.h"
#include "uirq/sim.h"
#include "watchdog.h"

/*
 * The watchdog looks every WD_TICK_NS; a step of wall time longer than
 * WD_STEP_MAX_NS between two looks is a process that did not run (stopped
 * by SIGSTOP, Ctrl-Z or a debugger), and counts as WD_STEP_MAX_NS: a
 * stopped run is not a stuck one, and its verdict must not depend on how
 * long it was stopped.  Lock held.
 */
#define WD_TICK_NS	50000000ull
#define WD_STEP_MAX_NS	100000000ull

static uint64_t ran_now(struct watchdog *wd)
{
	uint64_t now = wall_ns(), step = now - wd->last_wall;

	wd->ran_ns += step < WD_STEP_MAX_NS ? step : WD_STEP_MAX_NS;
	wd->last_wall = now;
	return wd->ran_ns;
}

/* Now on the clock of the phase's budget: the run's virtual time, or the time the process ran. */
static uint64_t phase_now(struct watchdog *wd)
{
	return wd->phase_virtual ? uirq_sim_now_ns() : ran_now(wd);
}

static void fire(struct watchdog *wd, uint64_t now, bool whole)
{
	const struct irqsim_run *r = wd->r;
	char what[128];

	/* What the run wrote before it was cut short (a --seed run's is held until its end). */
	out_release();
	if (wd->line)
		snprintf(what, sizeof(what), "the %s action at %s:%u", wd->phase, r->sc.name, wd->line);
	else
		snprintf(what, sizeof(what), "%s", wd->phase);
	if (whole)
		fprintf(stderr, "irqsim: watchdog: the run reached its --timeout of %.3g s (%.3f s elapsed) while %s%s; giving up.\n",
			wd->timeout_s, (double)(now - wd->run_start) / 1e9, wd->line ? "running " : "", what);
	else
		fprintf(stderr, "irqsim: watchdog: %s was still running after %.3f s%s, longer than it can take, "
			"%.3f s%s into the run; giving up.\n",
			what, (double)(phase_now(wd) - wd->phase_start) / 1e9, wd->phase_virtual ? " of virtual time" : "",
			(double)(now - wd->run_start) / 1e9, wd->phase_virtual ? " of wall time" : "");
	if (r->opts->json) {
		printf("{\"watchdog\":true,\"phase\":\"%s\",\"line\":%u,\"exit_status\":%d}\n", wd->phase, wd->line,
		       IRQSIM_EXIT_PROBLEMS);
		fflush(stdout);
	}
	fflush(stderr);
	/* Threads of the board are stuck: exit without running their teardown. */
	_exit(IRQSIM_EXIT_PROBLEMS);
}

static void *wd_main(void *arg)
{
	struct watchdog *wd = arg;

	pthread_mutex_lock(&wd->lock);
	while (!wd->stop) {
		uint64_t now = ran_now(wd), until = wall_ns() + WD_TICK_NS;

		if (wd->run_deadline && now >= wd->run_deadline)
			fire(wd, now, true);
		if (phase_now(wd) >= wd->phase_deadline)
			fire(wd, now, false);
		/* Every tick, whatever the deadlines: the run's clock counts ticks, and a virtual one moves in jumps. */
		struct timespec ts = { .tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u) };

		pthread_cond_timedwait(&wd->cond, &wd->lock, &ts);
	}
	pthread_mutex_unlock(&wd->lock);
	return NULL;
}

/*
 * A struct watchdog lives in its caller's frame and its thread reads it
 * until watchdog_stop(): a path out of the run that skips the stop leaves
 * the thread reading a frame that is gone (under ASan that was a report
 * racing the exit-time leak check, and a hang).  Every exit checks it, so
 * such a path fails every time rather than now and then.
 */
static atomic_int watchdogs_running;

static void check_stopped(void)
{
	if (atomic_load(&watchdogs_running)) {
		fprintf(stderr, "irqsim: internal error: the process is exiting with its watchdog running\n");
		abort();
	}
}

void watchdog_start(struct watchdog *wd, struct irqsim_run *r, double timeout_s)
{
	static atomic_flag registered = ATOMIC_FLAG_INIT;
	pthread_condattr_t ca;

	if (!atomic_flag_test_and_set(&registered))
		atexit(check_stopped);
	atomic_fetch_add(&watchdogs_running, 1);

	wd->r = r;
	wd->phase = "starting";
	wd->line = 0;
	wd->phase_virtual = false;
	wd->stop = false;
	wd->last_wall = wall_ns();
	wd->ran_ns = wd->run_start = wd->phase_start = 0;
	wd->phase_deadline = UINT64_MAX;
	wd->timeout_s = timeout_s;
	wd->run_deadline = timeout_s > 0 ? (uint64_t)(timeout_s * 1e9) : 0;
	pthread_mutex_init(&wd->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&wd->cond, &ca);
	pthread_condattr_destroy(&ca);
	wd->running = !pthread_create(&wd->thread, NULL, wd_main, wd);
	if (!wd->running)
		fprintf(stderr, "irqsim: cannot start the watchdog; running without it\n");
	else
		pthread_setname_np(wd->thread, "irqsim-wdog");
}

void watchdog_phase(struct watchdog *wd, const char *phase, unsigned int line, uint64_t budget_ns)
{
	pthread_mutex_lock(&wd->lock);
	wd->phase = phase;
	wd->line = line;
	wd->phase_virtual = uirq_sim_running();
	wd->phase_start = phase_now(wd);
	wd->phase_deadline = budget_ns ? wd->phase_start + budget_ns : UINT64_MAX;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
}

void watchdog_set_timeout(struct watchdog *wd, double timeout_s)
{
	pthread_mutex_lock(&wd->lock);
	wd->timeout_s = timeout_s;
	wd->run_deadline = ran_now(wd) + (uint64_t)(timeout_s * 1e9);
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
}

void watchdog_stop(struct watchdog *wd)
{
	pthread_mutex_lock(&wd->lock);
	wd->stop = true;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
	if (wd->running)
		pthread_join(wd->thread, NULL);
	pthread_cond_destroy(&wd->cond);
	pthread_mutex_destroy(&wd->lock);
	atomic_fetch_sub(&watchdogs_running, 1);
}
