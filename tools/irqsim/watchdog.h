/* SPDX-License-Identifier: MIT */
/*
 * A scenario never hangs the tool: each phase (setup, every action, settle,
 * teardown) gets a deadline, and the whole run one more.  A missed deadline
 * means a thread of the system under test is stuck, so nothing can be torn
 * down safely: the watchdog says where, and ends the process.
 */
#ifndef IRQSIM_WATCHDOG_H
#define IRQSIM_WATCHDOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct irqsim_run;

struct watchdog {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct irqsim_run *r;
	const char *phase;
	unsigned int line;
	/*
	 * Times are the run's virtual clock (a seeded phase) or the time the
	 * process ran (watchdog.c, ran_now(): wall time, less the time it was
	 * stopped), counted from the start.
	 */
	uint64_t run_start, phase_start, phase_deadline, run_deadline;
	uint64_t ran_ns, last_wall;
	bool phase_virtual;	/* the phase's times are the seeded run's virtual clock */
	double timeout_s;
	bool stop;
	bool running;
};

/* Start watching; timeout_s bounds the whole run (0: no overall bound). */
void watchdog_start(struct watchdog *wd, struct irqsim_run *r, double timeout_s);
/*
 * Enter a phase that must end within budget_ns (0: no bound of its own).
 * line: the scenario line of an action (phase is then its verb), or 0.
 * In a seeded run the budget is virtual time: a seeded run's wall time
 * says nothing about the board (a sanitizer build runs it several times
 * slower), its virtual time does; a run whose token is stuck is the
 * scheduler's stall check's, and the whole-run timeout stays wall time -
 * the time the process ran: a process stopped (SIGSTOP, a debugger) is not
 * stuck, and the time it stood still counts for nothing.
 */
void watchdog_phase(struct watchdog *wd, const char *phase, unsigned int line, uint64_t budget_ns);
/* Bound the rest of the run by timeout_s from now (the default --timeout, known once the scenario is read). */
void watchdog_set_timeout(struct watchdog *wd, double timeout_s);
void watchdog_stop(struct watchdog *wd);

#endif
