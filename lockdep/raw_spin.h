/* SPDX-License-Identifier: MIT */
/* The bare spinning primitive under uirq's spinlock and rwlock (no lockdep). */
#ifndef UIRQ_LOCKDEP_RAW_SPIN_H
#define UIRQ_LOCKDEP_RAW_SPIN_H

#include <sched.h>

#include "../lib/lib.h"

static inline void uirq_cpu_relax(unsigned int *spins)
{
	/*
	 * A user-space lock holder can be preempted, unlike in the kernel:
	 * after a while give the CPU away instead of burning the time slice.
	 * A task of the deterministic mode gives it at once: the holder is
	 * not running, and only the scheduler can run it.
	 */
	if (uirq_sched) {
		uirq_sched->yield();
		return;
	}
	if (++*spins < 1000)
		uirq_pause();
	else
		sched_yield();
}

#endif
