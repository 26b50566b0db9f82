// SPDX-License-Identifier: MIT
/*
 * might_sleep(): independent of lockdep, as in the kernel - it keeps working
 * when the validator is off at run time, and when lockdep is compiled out
 * it reports without the held locks.
 */
#define _GNU_SOURCE
#include "lockdep_internal.h"

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uirq/context.h"
#include "uirq/might_sleep.h"

static bool enter(void)
{
#if UIRQ_CONFIG_LOCKDEP
	return lockdep_recursion_enter(&lockdep_current);
#else
	return report_enter();
#endif
}

static void leave(void)
{
#if UIRQ_CONFIG_LOCKDEP
	lockdep_recursion_exit(&lockdep_current);
#else
	report_exit();
#endif
}

void uirq__might_sleep(const char *file, int line)
{
	bool atomic = uirq_in_atomic(), irqs_off = uirq_irqs_disabled();
	char comm[17] = "?";

	if (likely(!atomic && !irqs_off))
		return;
	/* a signal handler that interrupted lockdep: the graph lock may be ours */
	if (!enter())
		return;
	graph_lock();
	if (report_begin(UIRQ_REPORT_SLEEP_INVALID, report_sig(report_sig_str(file), (uint64_t)line, 0, 0))) {
		uirq_task_comm(comm);
		comm[16] = 0;
		report_headline(false, "BUG: sleeping function called from invalid context at %s:%d",
				file, line);
		rpt("in_atomic(): %d, irqs_disabled(): %d, non_block: 0, pid: %ld, name: %s\n",
		    atomic, irqs_off, uirq_task_pid(), comm);
		rpt("preempt_count: %x, expected: 0\n", uirq_preempt_count());
#if UIRQ_CONFIG_LOCKDEP
		if (debug_locks_on())
			rpt_held_locks(&lockdep_current);
#endif
		rpt_stack_backtrace("Call Trace:");
		report_end();
	}
	graph_unlock();
	leave();
}
