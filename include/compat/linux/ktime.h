/* SPDX-License-Identifier: MIT */
/*
 * ktime_t: nanoseconds, signed, as the kernel's.  ktime_get() is uirq's
 * clock (uirq_sim_clock_ns()): CLOCK_MONOTONIC, or the virtual clock for a
 * task of the deterministic mode.
 */
#ifndef UIRQ_COMPAT_LINUX_KTIME_H
#define UIRQ_COMPAT_LINUX_KTIME_H

#include <linux/types.h>
#include "uirq/sim.h"

typedef s64 ktime_t;

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define USEC_PER_MSEC	1000L
#define MSEC_PER_SEC	1000L
#define USEC_PER_SEC	1000000L
#define KTIME_MAX	((s64)~((u64)1 << 63))

static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	return secs * NSEC_PER_SEC + (s64)nsecs;
}

#define ktime_add(a, b)		((a) + (b))
#define ktime_sub(a, b)		((a) - (b))
#define ktime_add_ns(k, ns)	((k) + (s64)(ns))
#define ktime_sub_ns(k, ns)	((k) - (s64)(ns))
#define ktime_add_us(k, us)	((k) + (s64)(us) * NSEC_PER_USEC)
#define ktime_add_ms(k, ms)	((k) + (s64)(ms) * NSEC_PER_MSEC)
#define ktime_compare(a, b)	((a) < (b) ? -1 : (a) > (b) ? 1 : 0)
#define ktime_after(a, b)	((a) > (b))
#define ktime_before(a, b)	((a) < (b))
#define ktime_to_ns(k)		((s64)(k))
#define ktime_to_us(k)		((s64)(k) / NSEC_PER_USEC)
#define ktime_to_ms(k)		((s64)(k) / NSEC_PER_MSEC)
#define ns_to_ktime(ns)		((ktime_t)(ns))
#define us_to_ktime(us)		((ktime_t)(us) * NSEC_PER_USEC)
#define ms_to_ktime(ms)		((ktime_t)(ms) * NSEC_PER_MSEC)
#define ktime_us_delta(a, b)	ktime_to_us(ktime_sub((a), (b)))
#define ktime_ms_delta(a, b)	ktime_to_ms(ktime_sub((a), (b)))

static inline ktime_t ktime_get(void)
{
	return (ktime_t)uirq_sim_clock_ns();
}

#define ktime_get_ns()		((u64)ktime_get())
#define ktime_get_boottime()	ktime_get()
#define ktime_get_real()	ktime_get()

#endif
