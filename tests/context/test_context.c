// SPDX-License-Identifier: MIT
/* The execution-context module: interrupt state, preempt count, hard-irq sections. */
#include "harness.h"
#include <pthread.h>

#include "uirq/context.h"

static int ons, offs;

static void on_hook(unsigned long ip) { (void)ip; ons++; }
static void off_hook(unsigned long ip) { (void)ip; offs++; }
static const struct uirq_context_hooks counting = { on_hook, off_hook };

UIRQ_TEST(context, starts_in_task_context, .timeout = 10)
{
	assert_false(uirq_irqs_disabled());
	assert_eq(uirq_preempt_count(), 0);
	assert_true(uirq_in_task());
	assert_false(uirq_in_atomic());
	assert_false(uirq_in_hardirq());
	assert_false(uirq_is_irq_thread());
}

UIRQ_TEST(context, irq_save_restore_nests, .timeout = 10)
{
	unsigned long outer = uirq_local_irq_save();

	assert_true(uirq_irqs_disabled());
	assert_false(uirq_irqs_disabled_flags(outer));
	unsigned long inner = uirq_local_irq_save();

	assert_true(uirq_irqs_disabled_flags(inner));
	uirq_local_irq_restore(inner);
	assert_true(uirq_irqs_disabled(), "inner restore must keep interrupts off");
	uirq_local_irq_restore(outer);
	assert_false(uirq_irqs_disabled());
}

UIRQ_TEST(context, hooks_see_only_transitions, .timeout = 10)
{
	uirq_context_set_hooks(&counting);
	uirq_local_irq_disable();
	uirq_local_irq_disable();
	unsigned long f = uirq_local_irq_save();

	uirq_local_irq_restore(f);
	uirq_local_irq_enable();
	uirq_local_irq_enable();
	uirq_context_set_hooks(NULL);
	assert_eq(offs, 1);
	assert_eq(ons, 1);
}

UIRQ_TEST(context, preempt_count_makes_atomic, .timeout = 10)
{
	uirq_preempt_disable();
	uirq_preempt_disable();
	assert_true(uirq_in_atomic());
	assert_eq(uirq_preempt_count(), 2);
	assert_true(uirq_in_task(), "preempt-disabled is still task context");
	uirq_preempt_enable();
	uirq_preempt_enable();
	assert_false(uirq_in_atomic());
}

UIRQ_TEST(context, preempt_underflow_is_refused, .timeout = 10)
{
	uirq_preempt_enable();
	assert_eq(uirq_preempt_count(), 0);
}

UIRQ_TEST(context, hardirq_section, .timeout = 10)
{
	uirq_local_irq_disable();
	uirq_hardirq_enter();
	assert_true(uirq_in_hardirq());
	assert_true(uirq_in_interrupt());
	assert_true(uirq_in_atomic());
	assert_false(uirq_in_task());
	assert_eq(uirq_preempt_count(), UIRQ_HARDIRQ_OFFSET);
	uirq_hardirq_enter();	/* nesting */
	uirq_hardirq_exit();
	assert_true(uirq_in_hardirq());
	uirq_hardirq_exit();
	assert_false(uirq_in_hardirq());
	assert_true(uirq_irqs_disabled(), "leaving hard-irq does not enable interrupts");
	uirq_local_irq_enable();
}

UIRQ_TEST(context, hardirq_enter_forces_irqs_off, .timeout = 10)
{
	uirq_hardirq_enter();
	assert_true(uirq_irqs_disabled());
	uirq_hardirq_exit();
	uirq_hardirq_exit();	/* unbalanced: warned, count stays sane */
	assert_eq(uirq_preempt_count(), 0);
}

static void *other_thread(void *arg)
{
	(void)arg;
	return (void *)(unsigned long)(uirq_irqs_disabled() | uirq_in_atomic() << 1 | uirq_is_irq_thread() << 2);
}

UIRQ_TEST(context, state_is_per_thread, .timeout = 10)
{
	pthread_t t;
	void *ret;

	uirq_local_irq_disable();
	uirq_preempt_disable();
	uirq_set_irq_thread(true);
	assert_true(uirq_is_irq_thread());
	assert_eq(pthread_create(&t, NULL, other_thread, NULL), 0);
	assert_eq(pthread_join(t, &ret), 0);
	assert_eq((unsigned long)ret, 0, "a new thread starts in clean task context");
	uirq_set_irq_thread(false);
	uirq_preempt_enable();
	uirq_local_irq_enable();
}
