// SPDX-License-Identifier: MIT
/*
 * Running the actions of a line in hard-irq context and waking their
 * handler threads (kernel/irq/handle.c).
 *
 * Waking a thread sets RUNTHREAD in its flags word, which is also its futex:
 * a thread that is running already sees the bit and needs no system call,
 * and repeated wakes collapse into one run.  On a CPU the futex wakes are
 * held until the interrupt has been handled, as the kernel's woken thread
 * only runs after the hard irq returns; in user space a real-time handler
 * thread would otherwise preempt its own CPU in the middle of the flow.
 */
#include <stdio.h>

#include "internals.h"

#define MAX_DEFERRED_KICKS 32

static __thread struct {
	int depth;
	unsigned int n;
	struct {
		atomic_uint *word;
		struct uirq_irq_desc *desc;
	} held[MAX_DEFERRED_KICKS];
} kicks;

/* Only the kicks held matter at a switch of the deterministic mode's tasks. */
static size_t kicks_live(const void *value)
{
	unsigned int n = ((const __typeof__(kicks) *)value)->n;

	return offsetof(__typeof__(kicks), held) + (n < MAX_DEFERRED_KICKS ? n : MAX_DEFERRED_KICKS) * sizeof(kicks.held[0]);
}
UIRQ_SIM_TASK_LOCAL_EXT(kicks, kicks_live, NULL)

uirq_irqreturn_t irq_default_primary_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return UIRQ_IRQ_WAKE_THREAD;
}

void irq_kick_defer_begin(void)
{
	kicks.depth++;
}

void irq_kick_flush(void)
{
	if (--kicks.depth > 0)
		return;
	for (unsigned int i = 0; i < kicks.n; i++) {
		uirq_futex_wake(kicks.held[i].word, 1);
		/* the action may go now: __synchronize_irq() waits for this */
		atomic_fetch_sub_explicit(&kicks.held[i].desc->kicks_deferred, 1, memory_order_release);
	}
	kicks.n = 0;
}

int irq_kicks_held(struct uirq_irq_desc *desc)
{
	int n = 0;

	for (unsigned int i = 0; i < kicks.n; i++)
		n += kicks.held[i].desc == desc;
	return n;
}

void irq_thread_kick(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	if (kicks.depth > 0 && kicks.n < MAX_DEFERRED_KICKS) {
		/*
		 * The wake outlives the hard irq that made it, and the futex
		 * word is the action's: free_irq() must not free it before the
		 * wake is done (the kernel holds a reference on the task).
		 */
		atomic_fetch_add_explicit(&desc->kicks_deferred, 1, memory_order_relaxed);
		kicks.held[kicks.n].word = &action->thread_flags;
		kicks.held[kicks.n++].desc = desc;
		return;
	}
	uirq_futex_wake(&action->thread_flags, 1);
}

void __irq_wake_thread(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	unsigned int old = atomic_load_explicit(&action->thread_flags, memory_order_relaxed);

	/* A thread that died, or an action a fault killed: its wake counts as handled and is dropped. */
	if (old & (IRQTF_DIED | IRQTF_STOP | IRQTF_DEAD))
		return;
	old = atomic_fetch_or(&action->thread_flags, IRQTF_RUNTHREAD);
	if (old & IRQTF_RUNTHREAD)
		return;
	atomic_fetch_or_explicit(&desc->threads_oneshot, action->thread_mask, memory_order_relaxed);
	atomic_fetch_add(&desc->threads_active, 1);
	if (old & IRQTF_SLEEPING)
		irq_thread_kick(desc, action);
}

void wake_threads_waitq(struct uirq_irq_desc *desc)
{
	int old = atomic_fetch_sub(&desc->threads_active, 1);

	if ((old & THREADS_RUNNING_MASK) == 1 && old >= THREADS_WAITER)
		uirq_futex_wake(&desc->threads_active, 1 << 30);
}

static void warn_no_thread(unsigned int irq, struct uirq_irqaction *action)
{
	if (atomic_fetch_or(&action->thread_flags, IRQTF_WARNED) & IRQTF_WARNED)
		return;
	uirq_printk("IRQ %u device %s returned IRQ_WAKE_THREAD but no thread function available.\n",
		    irq, action->name);
}

uirq_irqreturn_t handle_irq_event_percpu(struct uirq_irq_desc *desc)
{
	static atomic_bool warned_enabled;
	uirq_irqreturn_t retval = UIRQ_IRQ_NONE;
	unsigned int irq = desc->irq_data.irq;
	unsigned int istate = atomic_load_explicit(&desc->istate, memory_order_relaxed);
	struct uirq_irqaction *action;

	/* Threads run after this interrupt's verdict, as after a kernel hard irq. */
	irq_kick_defer_begin();
	for_each_action_of_desc(desc, action) {
		if (irq_desc_skip_action(istate, action))
			continue;	/* its thread_fn faulted: dropped from the line (fault.c) */
		uirq_irqreturn_t res = action->handler((int)irq, action->dev_id);

		if (!uirq_irqs_disabled()) {
			if (!atomic_exchange(&warned_enabled, true)) {
				char sym[128];

				UIRQ_WARN("irq %u handler %s enabled interrupts\n", irq,
					  uirq_symbol((const void *)action->handler, sym, sizeof(sym)));
			}
			uirq_local_irq_disable();
		}
		if (res == UIRQ_IRQ_WAKE_THREAD) {
			if (!action->thread_fn)
				warn_no_thread(irq, action);
			else
				__irq_wake_thread(desc, action);
		}
		retval |= res;
	}
	if (!(desc->settings & IRQ_SETTINGS_NO_DEBUG))
		note_interrupt(desc, retval);
	irq_kick_flush();
	return retval;
}

/* Called with desc->lock held; drops it while the actions run (INPROGRESS guards them). */
uirq_irqreturn_t handle_irq_event(struct uirq_irq_desc *desc)
{
	uirq_irqreturn_t ret;

	desc->istate &= ~IRQS_PENDING;
	irqd_set(desc, IRQD_IRQ_INPROGRESS);
	uirq_spin_unlock(&desc->lock);
	irq_self_hard_enter(desc);
	ret = handle_irq_event_percpu(desc);
	irq_self_hard_exit();
	uirq_spin_lock(&desc->lock);
	irqd_clear(desc, IRQD_IRQ_INPROGRESS);
	return ret;
}
