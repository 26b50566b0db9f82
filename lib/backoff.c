// SPDX-License-Identifier: MIT
/* Waiting for another thread to finish something short: pause first, then sleep longer and longer. */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include "lib.h"

void uirq_backoff(unsigned int *round)
{
	/* A task of the deterministic mode waits for a task that is not running: let it run. */
	if (uirq_sched) {
		uirq_sched->yield();
		return;
	}
	if (*round < 50) {
		(*round)++;
		uirq_pause();
		return;
	}
	struct timespec ts = { 0, *round < 200 ? 20000 : 200000 };

	(*round)++;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
