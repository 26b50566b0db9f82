// SPDX-License-Identifier: MIT
/* might_sleep(): the kernel's report in atomic context or with interrupts off, once per site. */
#include "recorder.h"
#include "uirq/might_sleep.h"

static MAP(A);

static void sleepy(void)
{
	uirq_might_sleep();
}

Test(might_sleep, quiet_in_process_context, .timeout = 10)
{
	rec_start();
	sleepy();
	LOCK(A);
	sleepy();
	UNLOCK(A);
	cr_assert_eq(rec.n, 0);
}

Test(might_sleep, under_preempt_disable, .timeout = 10)
{
	rec_start();
	LOCK(A);
	uirq_preempt_disable();
	sleepy();
	sleepy();	/* same site: once */
	uirq_preempt_enable();
	UNLOCK(A);
	cr_assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
	cr_assert_eq(rec.n, 1);
	cr_assert(strstr(rec.last_headline, "BUG: sleeping function called from invalid context at ") ==
		  rec.last_headline);
	cr_assert(rec_has("test_might_sleep.c:"));
	cr_assert(rec_has("in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: "));
	cr_assert(rec_has("preempt_count: 1, expected: 0"));
	cr_assert(rec_has("1 lock held by"));
	cr_assert(rec_has("(A)"));
	cr_assert(rec_has("Call Trace:"));
}

Test(might_sleep, with_irqs_disabled, .timeout = 10)
{
	rec_start();
	uirq_local_irq_disable();
	uirq_might_sleep();
	uirq_local_irq_enable();
	cr_assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
	cr_assert(rec_has("in_atomic(): 0, irqs_disabled(): 1"));
	cr_assert(rec_has("no locks held by"));
}

Test(might_sleep, in_hardirq, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(uirq_might_sleep());
	cr_assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
	cr_assert(rec_has("preempt_count: 10000, expected: 0"));
}

Test(might_sleep, works_with_the_validator_off, .timeout = 10)
{
	rec_start();
	uirq_lockdep_off();
	uirq_preempt_disable();
	uirq_might_sleep();
	uirq_preempt_enable();
	cr_assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
}
