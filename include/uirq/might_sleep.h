/* SPDX-License-Identifier: MIT */
/*
 * might_sleep(): a sleeping function announces itself.  Called in atomic
 * context (non-zero preempt count) or with interrupts disabled, it prints the
 * kernel's "BUG: sleeping function called from invalid context" report with
 * the held locks and a backtrace, once per call site, and returns: it never
 * aborts unless lockdep is fatal.
 */
#ifndef UIRQ_MIGHT_SLEEP_H
#define UIRQ_MIGHT_SLEEP_H

#ifdef __cplusplus
extern "C" {
#endif

/* The check behind uirq_might_sleep(); file and line name the sleeping call. */
void uirq__might_sleep(const char *file, int line);

#define uirq_might_sleep()	uirq__might_sleep(__FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
