/* SPDX-License-Identifier: MIT */
/*
 * Delays on uirq's clock (uirq_sim_sleep_ns(): real time, or virtual in
 * the deterministic mode, so a driver's settle time costs a seeded run
 * nothing and replays exactly).  The sleeping forms call might_sleep(),
 * as the kernel's do; udelay() and ndelay() busy-wait in the kernel and
 * may be used in atomic context: here they sleep on the same clock, which
 * in atomic context is what the kernel forbids for msleep() only.
 */
#ifndef UIRQ_COMPAT_LINUX_DELAY_H
#define UIRQ_COMPAT_LINUX_DELAY_H

#include <linux/kernel.h>
#include "uirq/sim.h"

static inline void msleep(unsigned int msecs)
{
	might_sleep();
	uirq_sim_sleep_ns((uint64_t)msecs * 1000000u);
}

static inline void usleep_range(unsigned long min, unsigned long max)
{
	(void)max;
	might_sleep();
	uirq_sim_sleep_ns((uint64_t)min * 1000u);
}

static inline void fsleep(unsigned long usecs)
{
	usleep_range(usecs, usecs);
}

static inline void udelay(unsigned long usecs)
{
	uirq_sim_sleep_ns((uint64_t)usecs * 1000u);
}

static inline void ndelay(unsigned long nsecs)
{
	uirq_sim_sleep_ns(nsecs);
}

static inline void mdelay(unsigned long msecs)
{
	uirq_sim_sleep_ns((uint64_t)msecs * 1000000u);
}

#endif
