// SPDX-License-Identifier: MIT
/* Per-thread execution context (see include/uirq/context.h). */
#include "uirq/context.h"
#include "uirq/sim.h"
#include "uirq/printk.h"

#include <stdatomic.h>
#include <stdio.h>

/* initial-exec: read inline by every lock operation; the preload library is loaded at start-up. */
__thread struct uirq_context uirq__context __attribute__((tls_model("initial-exec")));
UIRQ_SIM_TASK_LOCAL(uirq__context)

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
	if (off == uirq__context.irqs_off)
		return;
	/* Like the kernel: trace "off" after the change, "on" before it. */
	if (off) {
		uirq__context.irqs_off = true;
		irqs_off_hook(ip);
	} else {
		irqs_on_hook(ip);
		uirq__context.irqs_off = false;
	}
}

unsigned long uirq_local_irq_save(void)
{
	unsigned long flags = uirq__context.irqs_off;

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

void uirq_preempt_disable(void)
{
	uirq__context.preempt_count++;
}

void uirq_preempt_enable(void)
{
	if ((uirq__context.preempt_count & UIRQ_PREEMPT_MASK) == 0) {
		uirq_log_printk("WARNING: preempt count underflow in preempt_enable()\n");
		return;
	}
	uirq__context.preempt_count--;
}

void uirq_hardirq_enter(void)
{
	if (!uirq__context.irqs_off) {
		uirq_log_printk("WARNING: hardirq entered with interrupts enabled\n");
		set_irqs_off(true, CALLER);
	}
	uirq__context.preempt_count += UIRQ_HARDIRQ_OFFSET;
}

void uirq_hardirq_exit(void)
{
	if (!(uirq__context.preempt_count & UIRQ_HARDIRQ_MASK)) {
		uirq_log_printk("WARNING: hardirq exit without a matching enter\n");
		return;
	}
	uirq__context.preempt_count -= UIRQ_HARDIRQ_OFFSET;
}

void uirq_set_irq_thread(bool on)
{
	uirq__context.irq_thread = on;
}

