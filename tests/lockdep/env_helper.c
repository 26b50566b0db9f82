// SPDX-License-Identifier: MIT
/*
 * Runs an ABBA inversion and exits with a verdict the env test reads:
 * 100 if the validator is on, plus the number of reports.
 */
#include <stdio.h>

#include "uirq/lockdep.h"

static struct uirq_lockdep_map A = UIRQ_LOCKDEP_MAP_INIT("A");
static struct uirq_lockdep_map B = UIRQ_LOCKDEP_MAP_INIT("B");

static int reports;

static void count(const struct uirq_lockdep_report *r, void *arg)
{
	(void)r;
	(void)arg;
	reports++;
}

int main(void)
{
	uirq_lockdep_set_report_handler(count, NULL);
	uirq_lock_acquire(&A, 0, 0, 0, 0, __FILE__, __LINE__);
	uirq_lock_acquire(&B, 0, 0, 0, 0, __FILE__, __LINE__);
	uirq_lock_release(&B, 0, __FILE__, __LINE__);
	uirq_lock_release(&A, 0, __FILE__, __LINE__);
	uirq_lock_acquire(&B, 0, 0, 0, 0, __FILE__, __LINE__);
	uirq_lock_acquire(&A, 0, 0, 0, 0, __FILE__, __LINE__);
	uirq_lock_release(&A, 0, __FILE__, __LINE__);
	uirq_lock_release(&B, 0, __FILE__, __LINE__);
	return (uirq_lockdep_enabled() ? 100 : 0) + reports;
}
