/* SPDX-License-Identifier: MIT */
/*
 * jiffies at HZ=1000 on uirq's clock (virtual in the deterministic mode),
 * read-only: jiffies is an expression here, not a variable.
 */
#ifndef UIRQ_COMPAT_LINUX_JIFFIES_H
#define UIRQ_COMPAT_LINUX_JIFFIES_H

#include <linux/kernel.h>
#include "uirq/sim.h"

#define HZ		1000
#define jiffies		((unsigned long)(uirq_sim_clock_ns() / 1000000u))
#define MAX_JIFFY_OFFSET ((long)(~0UL >> 1) - 1)

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)
#define time_is_before_jiffies(a)	time_after(jiffies, a)
#define time_is_after_jiffies(a)	time_before(jiffies, a)

static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	return m;
}

static inline unsigned long usecs_to_jiffies(unsigned int u)
{
	return (u + 999u) / 1000u;
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)j;
}

static inline unsigned int jiffies_to_usecs(unsigned long j)
{
	return (unsigned int)(j * 1000u);
}

#endif
