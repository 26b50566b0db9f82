// SPDX-License-Identifier: MIT
/* Per-thread execution context (see include/uirq/context.h). */
#include "uirq/context.h"

#include <stdatomic.h>
#include <stdio.h>

/* initial-exec: the lockdep preload library links this file and is loaded at start-up. */
#define UIRQ_TLS __thread __attribute__((tls_model("initial-exec")))

static UIRQ_TLS unsigned int preempt_count;
static UIRQ_TLS bool irqs_off;
static UIRQ_TLS bool irq_thread;

static _Atomic(const struct uirq_context_hooks *) hooks;

#define CALLER ((unsigned long)__builtin_return_address(0))

void uirq_context_set_hooks(const struct uirq_context_hooks *h)
{
	atomic_store_explicit(&hooks, h, memory_order_release);
}

static void irqs_on_hook(unsigned long ip)
{
	const struct uirq_context_hooks *h = atomic_load_explicit(&hooks, memory_order_acquire);

	if (h && h->hardirqs_on)
		h->hardirqs_on(ip);
}

static void irqs_off_hook(unsigned long ip)
{
	const struct uirq_context_hooks *h = atomic_load_explicit(&hooks, memory_order_acquire);

	if (h && h->hardirqs_off)
		h->hardirqs_off(ip);
}

static void set_irqs_off(bool off, unsigned long ip)
{
	if (off == irqs_off)
		return;
	/* Like the kernel: trace "off" after the change, "on" before it. */
	if (off) {
		irqs_off = true;
		irqs_off_hook(ip);
	} else {
		irqs_on_hook(ip);
		irqs_off = false;
	}
}

unsigned long uirq_local_irq_save(void)
{
	unsigned long flags = irqs_off;

	set_irqs_off(true, CALLER);
	return flags;
}

void uirq_local_irq_restore(unsigned long flags)
{
	set_irqs_off(flags != 0, CALLER);
}

void uirq_local_irq_disable(void)
{
	set_irqs_off(true, CALLER);
}

void uirq_local_irq_enable(void)
{
	set_irqs_off(false, CALLER);
}

bool uirq_irqs_disabled(void)
{
	return irqs_off;
}

bool uirq_irqs_disabled_flags(unsigned long flags)
{
	return flags != 0;
}

void uirq_preempt_disable(void)
{
	preempt_count++;
}

void uirq_preempt_enable(void)
{
	if ((preempt_count & UIRQ_PREEMPT_MASK) == 0) {
		fprintf(stderr, "WARNING: preempt count underflow in preempt_enable()\n");
		return;
	}
	preempt_count--;
}

unsigned int uirq_preempt_count(void)
{
	return preempt_count;
}

bool uirq_in_hardirq(void)
{
	return preempt_count & UIRQ_HARDIRQ_MASK;
}

bool uirq_in_interrupt(void)
{
	return preempt_count & (UIRQ_HARDIRQ_MASK | UIRQ_SOFTIRQ_MASK | UIRQ_NMI_MASK);
}

bool uirq_in_atomic(void)
{
	return preempt_count != 0;
}

bool uirq_in_task(void)
{
	return !uirq_in_interrupt();
}

void uirq_hardirq_enter(void)
{
	if (!irqs_off) {
		fprintf(stderr, "WARNING: hardirq entered with interrupts enabled\n");
		set_irqs_off(true, CALLER);
	}
	preempt_count += UIRQ_HARDIRQ_OFFSET;
}

void uirq_hardirq_exit(void)
{
	if (!(preempt_count & UIRQ_HARDIRQ_MASK)) {
		fprintf(stderr, "WARNING: hardirq exit without a matching enter\n");
		return;
	}
	preempt_count -= UIRQ_HARDIRQ_OFFSET;
}

void uirq_set_irq_thread(bool on)
{
	irq_thread = on;
}

bool uirq_is_irq_thread(void)
{
	return irq_thread;
}
