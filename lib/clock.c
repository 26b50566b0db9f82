// SPDX-License-Identifier: MIT
/*
 * uirq's clock: CLOCK_MONOTONIC, or for a task of the deterministic mode the
 * virtual clock, so that everything timed by uirq (wire time, jiffies,
 * event stamps, the CPUs' polls) costs no wall time there and replays.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include "lib.h"
#include "uirq/sim.h"

uint64_t uirq_sim_clock_ns(void)
{
	struct timespec ts;

	if (__builtin_expect(uirq_sched != NULL, 0))
		return uirq_sched->now_ns();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void uirq_sim_sleep_until_ns(uint64_t t)
{
	if (uirq_sched) {
		uint64_t now = uirq_sched->now_ns();

		uirq_sched->sleep_ns(t > now ? t - now : 0);
		return;
	}
	struct timespec ts = uirq_ns_to_timespec(t);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* jiffies at HZ=1000: the kernel's coarse clock, for the spurious and hung-task timings. */
unsigned long uirq_jiffies(void)
{
	return (unsigned long)(uirq_sim_clock_ns() / 1000000u);
}
