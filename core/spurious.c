// SPDX-License-Identifier: MIT
/*
 * Spurious interrupt detection (kernel/irq/spurious.c): note_interrupt()
 * counts unhandled interrupts and disables a stuck line after 100,000
 * interrupts of which more than 99,900 went unhandled; lines so disabled
 * that are shared get polled every 100 ms.
 */
#include <stdio.h>

#include "internals.h"

#define POLL_SPURIOUS_IRQ_INTERVAL_MS	100u

atomic_int uirq_spurious_disabled_lines;

static bool bad_action_ret(uirq_irqreturn_t ret)
{
	return (unsigned int)ret > (UIRQ_IRQ_HANDLED | UIRQ_IRQ_WAKE_THREAD);
}

static void __report_bad_irq(struct uirq_irq_desc *desc, uirq_irqreturn_t action_ret)
{
	unsigned int irq = desc->irq_data.irq;
	struct uirq_irqaction *action;
	unsigned long flags;
	char buf[2048];
	size_t n = 0;

	if (bad_action_ret(action_ret))
		uirq_printk("irq event %u: bogus return value %x\n", irq, (unsigned int)action_ret);
	else
		uirq_printk("irq %u: nobody cared (try booting with the \"irqpoll\" option)\n", irq);
	/* note_interrupt() runs without desc->lock: take it to walk the actions. */
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "handlers:\n");
	uirq_spin_lock_irqsave(&desc->lock, flags);
	for_each_action_of_desc(desc, action) {
		char a[128], b[128];

		if (n >= sizeof(buf) - 1)
			break;
		if (action->thread_fn)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[<%016lx>] %s threaded [<%016lx>] %s\n",
					      uirq_ptr_shown((const void *)action->handler),
					      uirq_symbol((const void *)action->handler, a, sizeof(a)),
					      uirq_ptr_shown((const void *)action->thread_fn),
					      uirq_symbol((const void *)action->thread_fn, b, sizeof(b)));
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[<%016lx>] %s\n",
					      uirq_ptr_shown((const void *)action->handler),
					      uirq_symbol((const void *)action->handler, a, sizeof(a)));
	}
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	uirq_printk("%s", buf);
}

static void report_bad_irq(struct uirq_irq_desc *desc, uirq_irqreturn_t action_ret)
{
	static atomic_int count = 100;	/* rate limit, as the kernel's */

	if (atomic_fetch_sub(&count, 1) > 0)
		__report_bad_irq(desc, action_ret);
}

void note_interrupt(struct uirq_irq_desc *desc, uirq_irqreturn_t action_ret)
{
	unsigned int irq = desc->irq_data.irq;

	if (desc->istate & IRQS_POLL_INPROGRESS)
		return;
	if (bad_action_ret(action_ret)) {
		report_bad_irq(desc, action_ret);
		return;
	}
	/*
	 * A primary that only woke threads: the verdict waits for the next
	 * interrupt, which compares threads_handled with what it was then.
	 * Serialized by IRQD_IRQ_INPROGRESS, like the kernel's.
	 */
	if (action_ret & UIRQ_IRQ_WAKE_THREAD) {
		if (action_ret == UIRQ_IRQ_WAKE_THREAD) {
			unsigned int handled;

			if (!(desc->threads_handled_last & SPURIOUS_DEFERRED)) {
				desc->threads_handled_last |= SPURIOUS_DEFERRED;
				return;
			}
			handled = (unsigned int)atomic_load(&desc->threads_handled) | SPURIOUS_DEFERRED;
			if (handled != desc->threads_handled_last) {
				action_ret = UIRQ_IRQ_HANDLED;
				desc->threads_handled_last = handled;
			} else {
				action_ret = UIRQ_IRQ_NONE;
			}
		} else {
			desc->threads_handled_last &= ~SPURIOUS_DEFERRED;
		}
	}

	if (action_ret == UIRQ_IRQ_NONE) {
		unsigned int now = (unsigned int)uirq_jiffies();
		unsigned int last = atomic_load_explicit(&desc->last_unhandled, memory_order_relaxed);

		/* An odd spurious one now and then is bus noise, not a doomsday timer. */
		if ((int)(now - last - POLL_SPURIOUS_IRQ_INTERVAL_MS) > 0)
			atomic_store_explicit(&desc->irqs_unhandled, 1, memory_order_relaxed);
		else
			atomic_fetch_add_explicit(&desc->irqs_unhandled, 1, memory_order_relaxed);
		atomic_store_explicit(&desc->last_unhandled, now, memory_order_relaxed);
	}

	if (!atomic_load_explicit(&desc->irqs_unhandled, memory_order_relaxed))
		return;
	if (atomic_fetch_add_explicit(&desc->irq_count, 1, memory_order_relaxed) + 1 < 100000)
		return;
	atomic_store_explicit(&desc->irq_count, 0, memory_order_relaxed);
	if (atomic_load_explicit(&desc->irqs_unhandled, memory_order_relaxed) > 99900) {
		unsigned long flags;

		/* The interrupt is stuck */
		__report_bad_irq(desc, action_ret);
		uirq_printk("Disabling IRQ #%u\n", irq);
		uirq_spin_lock_irqsave(&desc->lock, flags);
		if (!(desc->istate & IRQS_SPURIOUS_DISABLED)) {
			desc->istate |= IRQS_SPURIOUS_DISABLED;
			atomic_fetch_add(&uirq_spurious_disabled_lines, 1);
		}
		desc->depth++;
		irq_disable(desc);
		uirq_spin_unlock_irqrestore(&desc->lock, flags);
		uirq_cpu_poke(0);	/* CPU 0 runs the poll timer */
	}
	atomic_store_explicit(&desc->irqs_unhandled, 0, memory_order_relaxed);
}

/* try_one_irq(): run a shared, spurious-disabled line's handlers once. */
static void try_one_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irqaction *action;

	uirq_spin_lock(&desc->lock);
	if (!(desc->istate & IRQS_SPURIOUS_DISABLED))
		goto out;
	if (irqd_irq_inprogress(desc)) {
		desc->istate |= IRQS_PENDING;
		goto out;
	}
	action = desc_action(desc);
	if (!action || !(action->flags & UIRQF_SHARED))
		goto out;
	desc->istate |= IRQS_POLL_INPROGRESS;
	do {
		handle_irq_event(desc);
	} while ((desc->istate & IRQS_PENDING) && desc_action(desc));
	desc->istate &= ~IRQS_POLL_INPROGRESS;
out:
	uirq_spin_unlock(&desc->lock);
}

/*
 * The poll timer's work for one line, on CPU 0 (cpu.c walks the lines
 * without a lock, as the kernel's for_each_irq_desc does under RCU).  The
 * kernel runs it from a timer softirq; here the handlers see hard-irq
 * context, the only interrupt context uirq has.
 */
void poll_spurious_irq_one(struct uirq_irq_desc *desc)
{
	uirq_local_irq_disable();
	uirq_hardirq_enter();
	irq_kick_defer_begin();
	try_one_irq(desc);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
	irq_kick_flush();
}
