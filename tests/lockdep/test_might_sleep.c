// SPDX-License-Identifier: MIT
/* might_sleep(): the kernel's report in atomic context or with interrupts off, once per site. */
#include "recorder.h"
#include "uirq/might_sleep.h"

static MAP(A);

static void sleepy(void)
{
	uirq_might_sleep();
}

UIRQ_TEST(might_sleep, quiet_in_process_context, .timeout = 10)
{
	rec_start();
	sleepy();
	LOCK(A);
	sleepy();
	UNLOCK(A);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(might_sleep, under_preempt_disable, .timeout = 10)
{
	rec_start();
	LOCK(A);
	uirq_preempt_disable();
	sleepy();
	sleepy();	/* same site: once */
	uirq_preempt_enable();
	UNLOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
	assert_eq(rec.n, 1);
	assert_true(strstr(rec.last_headline, "BUG: sleeping function called from invalid context at ") ==
		  rec.last_headline);
	assert_true(rec_has("test_might_sleep.c:"));
	assert_true(rec_has("in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: "));
	assert_true(rec_has("preempt_count: 1, expected: 0"));
	assert_true(rec_has("1 lock held by"));
	assert_true(rec_has("(A)"));
	assert_true(rec_has("Call Trace:"));
}

UIRQ_TEST(might_sleep, with_irqs_disabled, .timeout = 10)
{
	rec_start();
	uirq_local_irq_disable();
	uirq_might_sleep();
	uirq_local_irq_enable();
	assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
	assert_true(rec_has("in_atomic(): 0, irqs_disabled(): 1"));
	assert_true(rec_has("no locks held by"));
}

UIRQ_TEST(might_sleep, in_hardirq, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(uirq_might_sleep());
	assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
	assert_true(rec_has("preempt_count: 10000, expected: 0"));
}

UIRQ_TEST(might_sleep, works_with_the_validator_off, .timeout = 10)
{
	rec_start();
	uirq_lockdep_off();
	uirq_preempt_disable();
	uirq_might_sleep();
	uirq_preempt_enable();
	assert_eq(rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1);
}
