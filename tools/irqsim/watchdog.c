// SPDX-License-Identifier: MIT
/* The run's watchdog (watchdog.h says why it ends the process). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "irqsim.h"
#include "watchdog.h"

static void fire(struct watchdog *wd, uint64_t now)
{
	const struct irqsim_run *r = wd->r;
	bool whole = wd->run_deadline && now >= wd->run_deadline;

	fprintf(stderr, "irqsim: watchdog: %s%s", whole ? "the run exceeded --timeout during " : "", wd->phase);
	if (wd->line)
		fprintf(stderr, " (%s:%u)", r->sc.name, wd->line);
	fprintf(stderr, " still running after %.3f s; giving up\n", (double)(now - wd->phase_start) / 1e9);
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
		uint64_t now = now_ns(), until = wd->phase_deadline;

		if (wd->run_deadline && wd->run_deadline < until)
			until = wd->run_deadline;
		if (now >= until)
			fire(wd, now);
		struct timespec ts = { .tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u) };

		pthread_cond_timedwait(&wd->cond, &wd->lock, &ts);
	}
	pthread_mutex_unlock(&wd->lock);
	return NULL;
}

void watchdog_start(struct watchdog *wd, struct irqsim_run *r, double timeout_s)
{
	pthread_condattr_t ca;

	wd->r = r;
	wd->phase = "start";
	wd->line = 0;
	wd->stop = false;
	wd->phase_start = now_ns();
	wd->phase_deadline = UINT64_MAX;
	wd->run_deadline = timeout_s > 0 ? wd->phase_start + (uint64_t)(timeout_s * 1e9) : 0;
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
	wd->phase_start = now_ns();
	wd->phase_deadline = wd->phase_start + budget_ns;
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
}
