// SPDX-License-Identifier: MIT
/*
 * Chips and flow handlers: setting a line's chip and handler, the
 * startup/shutdown/enable/disable/mask/unmask helpers, and the level, edge,
 * fasteoi, simple, nested and chained flows (kernel/irq/chip.c semantics).
 */
#include <errno.h>

#include "uirq/might_sleep.h"

#include "internals.h"

/* ---- setting chips and handlers ---- */

int uirq_irq_set_chip(unsigned int irq, struct uirq_irq_chip *chip)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (!desc)
		return -EINVAL;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	desc->irq_data.chip = chip;
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	return 0;
}

int uirq_irq_set_chip_data(unsigned int irq, void *data)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (!desc)
		return -EINVAL;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	desc->irq_data.chip_data = data;
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	return 0;
}

struct uirq_irq_data *uirq_irq_get_irq_data(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	return desc ? &desc->irq_data : NULL;
}

struct uirq_irq_chip *uirq_irq_desc_get_chip(struct uirq_irq_desc *desc)
{
	return desc->irq_data.chip;
}

struct uirq_irq_data *uirq_irq_desc_get_irq_data(struct uirq_irq_desc *desc)
{
	return &desc->irq_data;
}

void *uirq_irq_desc_get_handler_data(struct uirq_irq_desc *desc)
{
	return desc->handler_data;
}

static void __irq_do_set_handler(struct uirq_irq_desc *desc, uirq_irq_flow_handler_t handle,
				 bool is_chained, const char *name)
{
	__atomic_store_n(&desc->handle_irq, handle, __ATOMIC_RELEASE);
	if (name)
		desc->name = name;
	if (handle && is_chained) {
		desc->settings |= UIRQ_NOREQUEST | UIRQ_NOTHREAD | IRQ_SETTINGS_NOPROBE;
		desc->depth = 0;
		irq_startup(desc, true);
	}
}

void uirq_irq_set_chip_and_handler_name(unsigned int irq, struct uirq_irq_chip *chip,
					uirq_irq_flow_handler_t handle, const char *name)
{
	unsigned long flags;
	struct uirq_irq_desc *desc;

	if (uirq_irq_set_chip(irq, chip))
		return;
	desc = irq_get_desc_buslock(irq, &flags);
	__irq_do_set_handler(desc, handle, false, name);
	irq_put_desc_busunlock(desc, flags);
}

void uirq_irq_set_handler(unsigned int irq, uirq_irq_flow_handler_t handle)
{
	unsigned long flags;
	struct uirq_irq_desc *desc = irq_get_desc_buslock(irq, &flags);

	if (!desc)
		return;
	__irq_do_set_handler(desc, handle, false, NULL);
	irq_put_desc_busunlock(desc, flags);
}

int uirq_irq_set_handler_data(unsigned int irq, void *data)
{
	unsigned long flags;
	struct uirq_irq_desc *desc = irq_get_desc_buslock(irq, &flags);

	if (!desc)
		return -EINVAL;
	desc->handler_data = data;
	irq_put_desc_busunlock(desc, flags);
	return 0;
}

void *uirq_irq_get_handler_data(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	return desc ? desc->handler_data : NULL;
}

void uirq_irq_set_chained_handler_and_data(unsigned int irq, uirq_irq_flow_handler_t handle,
					   void *data)
{
	unsigned long flags;
	struct uirq_irq_desc *desc = irq_get_desc_buslock(irq, &flags);

	if (!desc)
		return;
	desc->handler_data = data;
	__irq_do_set_handler(desc, handle, true, NULL);
	irq_put_desc_busunlock(desc, flags);
}

void uirq_irq_modify_status(unsigned int irq, unsigned int clr, unsigned int set)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (!desc)
		return;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	desc->settings &= ~(clr & IRQ_SETTINGS_PUBLIC_MASK);
	desc->settings |= set & IRQ_SETTINGS_PUBLIC_MASK;
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
}

void uirq_irq_set_nested_thread(unsigned int irq, bool nest)
{
	if (nest)
		uirq_irq_modify_status(irq, 0, UIRQ_NESTED_THREAD);
	else
		uirq_irq_modify_status(irq, UIRQ_NESTED_THREAD, 0);
}

int uirq_irq_set_parent(unsigned int irq, int parent_irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (!desc)
		return -EINVAL;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	desc->parent_irq = parent_irq;
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	return 0;
}

/* ---- chip helpers (desc->lock held) ---- */

static struct uirq_irq_chip *chip_of(struct uirq_irq_desc *desc)
{
	return desc->irq_data.chip;
}

void mask_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (irqd_irq_masked(desc))
		return;
	if (chip && chip->irq_mask) {
		chip->irq_mask(&desc->irq_data);
		irqd_set(desc, IRQD_IRQ_MASKED);
	}
}

void unmask_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (!irqd_irq_masked(desc))
		return;
	if (chip && chip->irq_unmask) {
		chip->irq_unmask(&desc->irq_data);
		irqd_clear(desc, IRQD_IRQ_MASKED);
	}
}

void unmask_threaded_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (chip && (chip->flags & UIRQCHIP_EOI_THREADED) && chip->irq_eoi)
		chip->irq_eoi(&desc->irq_data);
	unmask_irq(desc);
}

static void mask_ack_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (!chip)
		return;
	if (chip->irq_mask_ack) {
		chip->irq_mask_ack(&desc->irq_data);
		irqd_set(desc, IRQD_IRQ_MASKED);
	} else {
		mask_irq(desc);
		if (chip->irq_ack)
			chip->irq_ack(&desc->irq_data);
	}
}

static void chip_eoi(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (chip && chip->irq_eoi)
		chip->irq_eoi(&desc->irq_data);
}

void irq_enable(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (!irqd_irq_disabled(desc)) {
		unmask_irq(desc);
		return;
	}
	irqd_clear(desc, IRQD_IRQ_DISABLED);
	if (chip && chip->irq_enable) {
		chip->irq_enable(&desc->irq_data);
		irqd_clear(desc, IRQD_IRQ_MASKED);
	} else {
		unmask_irq(desc);
	}
}

static void __irq_disable(struct uirq_irq_desc *desc, bool mask)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (irqd_irq_disabled(desc)) {
		if (mask)
			mask_irq(desc);
		return;
	}
	irqd_set(desc, IRQD_IRQ_DISABLED);
	if (chip && chip->irq_disable) {
		chip->irq_disable(&desc->irq_data);
		irqd_set(desc, IRQD_IRQ_MASKED);
	} else if (mask) {
		mask_irq(desc);
	}
}

/* Lazy disable: only mark the line; the flow handler masks it if it fires. */
void irq_disable(struct uirq_irq_desc *desc)
{
	__irq_disable(desc, false);
}

int irq_startup(struct uirq_irq_desc *desc, bool resend)
{
	struct uirq_irq_chip *chip = chip_of(desc);
	int ret = 0;

	desc->depth = 0;
	if (irqd_is_started(desc)) {
		irq_enable(desc);
	} else {
		if (chip && chip->irq_startup) {
			ret = (int)chip->irq_startup(&desc->irq_data);
			irqd_clear(desc, IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED);
		} else {
			irq_enable(desc);
		}
		irqd_set(desc, IRQD_IRQ_STARTED);
	}
	if (resend)
		check_irq_resend(desc, false);
	return ret;
}

void irq_shutdown(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	if (!irqd_is_started(desc))
		return;
	/* The kernel: a shut-down line counts as disabled once (depth 1). */
	desc->depth = 1;
	if (chip && chip->irq_shutdown) {
		chip->irq_shutdown(&desc->irq_data);
		irqd_set(desc, IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED);
	} else {
		__irq_disable(desc, true);
	}
	irqd_clear(desc, IRQD_IRQ_STARTED);
}

/* ---- flow handlers (hard-irq context, interrupts disabled) ---- */

static bool irq_may_run(struct uirq_irq_desc *desc)
{
	if (!irqd_irq_inprogress(desc))
		return true;
	/* Handled on another CPU; a poll in progress is waited for. */
	if (!(desc->istate & IRQS_POLL_INPROGRESS))
		return false;
	return irq_wait_for_poll(desc);
}

static bool no_action_or_disabled(struct uirq_irq_desc *desc)
{
	return !desc_action(desc) || irqd_irq_disabled(desc);
}

static void cond_unmask_irq(struct uirq_irq_desc *desc)
{
	if (!irqd_irq_disabled(desc) && irqd_irq_masked(desc) &&
	    !atomic_load_explicit(&desc->threads_oneshot, memory_order_relaxed))
		unmask_irq(desc);
}

/*
 * Level-triggered lines (the kernel's handle_level_irq()).  A level line
 * stays asserted for as long as the device wants service, so the first
 * thing is to mask and ack it: left unmasked, it would be taken again the
 * moment this CPU re-enabled interrupts, and again, before any handler had
 * a chance to quiet the device.  Nothing is lost by masking: the level
 * is still there when the line is unmasked, so a line found in progress
 * on another CPU, or disabled, or with no handler, is simply left masked
 * (marked pending for the disabled case, which enable_irq() resends).
 * After the handlers, unmask only if no oneshot thread still has to talk
 * to the device; the last such thread unmasks it (irq_finalize_oneshot()).
 */
void uirq_handle_level_irq(struct uirq_irq_desc *desc)
{
	uirq_spin_lock(&desc->lock);
	mask_ack_irq(desc);
	if (!irq_may_run(desc))
		goto out_unlock;
	desc->istate &= ~(IRQS_REPLAY | IRQS_WAITING);
	if (no_action_or_disabled(desc)) {
		desc->istate |= IRQS_PENDING;
		goto out_unlock;
	}
	kstat_incr_irqs_this_cpu(desc);
	handle_irq_event(desc);
	cond_unmask_irq(desc);
out_unlock:
	uirq_spin_unlock(&desc->lock);
}

/*
 * Edge-triggered lines (the kernel's handle_edge_irq()).  An edge is an
 * event, not a state: once gone it cannot be read back, so the opposite
 * choice to the level flow.  The line is not masked while it is handled,
 * only acked, so that a new edge during the handlers is latched by the
 * chip rather than lost.  If the line is already being handled on another
 * CPU, this CPU does not wait for it (that would stall in hard-irq
 * context): it marks the edge pending and masks the line, and the CPU that
 * is running the handlers sees the mark and goes round once more, after
 * unmasking so the next edge can come in.  The loop ends when a pass saw
 * no new edge, or the line was disabled meanwhile (the pending mark then
 * stays for enable_irq() to resend).
 */
void uirq_handle_edge_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	uirq_spin_lock(&desc->lock);
	desc->istate &= ~(IRQS_REPLAY | IRQS_WAITING);
	if (!irq_may_run(desc)) {
		desc->istate |= IRQS_PENDING;
		mask_ack_irq(desc);
		goto out_unlock;
	}
	if (no_action_or_disabled(desc)) {
		desc->istate |= IRQS_PENDING;
		mask_ack_irq(desc);
		goto out_unlock;
	}
	kstat_incr_irqs_this_cpu(desc);
	if (chip && chip->irq_ack)
		chip->irq_ack(&desc->irq_data);
	do {
		if (!desc_action(desc)) {
			mask_irq(desc);
			goto out_unlock;
		}
		/* An edge came in while we ran: the line was masked, unmask it. */
		if ((desc->istate & IRQS_PENDING) && !irqd_irq_disabled(desc) && irqd_irq_masked(desc))
			unmask_irq(desc);
		handle_irq_event(desc);
	} while ((desc->istate & IRQS_PENDING) && !irqd_irq_disabled(desc));
out_unlock:
	uirq_spin_unlock(&desc->lock);
}

static void cond_unmask_eoi_irq(struct uirq_irq_desc *desc, struct uirq_irq_chip *chip)
{
	if (!(desc->istate & IRQS_ONESHOT)) {
		chip_eoi(desc);
		return;
	}
	if (!irqd_irq_disabled(desc) && irqd_irq_masked(desc) &&
	    !atomic_load_explicit(&desc->threads_oneshot, memory_order_relaxed)) {
		chip_eoi(desc);
		unmask_irq(desc);
	} else if (!chip || !(chip->flags & UIRQCHIP_EOI_THREADED)) {
		chip_eoi(desc);
	}
}

void uirq_handle_fasteoi_irq(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = chip_of(desc);

	uirq_spin_lock(&desc->lock);
	if (!irq_may_run(desc))
		goto out;
	desc->istate &= ~(IRQS_REPLAY | IRQS_WAITING);
	if (no_action_or_disabled(desc)) {
		desc->istate |= IRQS_PENDING;
		mask_irq(desc);
		goto out;
	}
	kstat_incr_irqs_this_cpu(desc);
	if (desc->istate & IRQS_ONESHOT)
		mask_irq(desc);
	handle_irq_event(desc);
	cond_unmask_eoi_irq(desc, chip);
	uirq_spin_unlock(&desc->lock);
	return;
out:
	chip_eoi(desc);
	uirq_spin_unlock(&desc->lock);
}

void uirq_handle_simple_irq(struct uirq_irq_desc *desc)
{
	uirq_spin_lock(&desc->lock);
	if (!irq_may_run(desc))
		goto out_unlock;
	desc->istate &= ~(IRQS_REPLAY | IRQS_WAITING);
	if (no_action_or_disabled(desc)) {
		desc->istate |= IRQS_PENDING;
		goto out_unlock;
	}
	kstat_incr_irqs_this_cpu(desc);
	handle_irq_event(desc);
out_unlock:
	uirq_spin_unlock(&desc->lock);
}

/*
 * A nested line: its thread functions run right here, in the thread of the
 * parent's handler (which may sleep).  Counted in threads_active so
 * synchronize_irq() waits for it.
 */
void uirq_handle_nested_irq(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_irqaction *action;
	unsigned long flags;
	uirq_irqreturn_t ret = UIRQ_IRQ_NONE;

	uirq_might_sleep();
	if (!desc)
		return;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	desc->istate &= ~(IRQS_REPLAY | IRQS_WAITING);
	if (no_action_or_disabled(desc)) {
		desc->istate |= IRQS_PENDING;
		uirq_spin_unlock_irqrestore(&desc->lock, flags);
		return;
	}
	kstat_incr_irqs_this_cpu(desc);
	/*
	 * threads_active only, as mainline since "genirq: Fix nested thread vs
	 * synchronize_hardirq() deadlock" (6.4): IRQD_IRQ_INPROGRESS belongs to
	 * the hard-irq flow.  Setting and clearing it here too cleared the bit
	 * under a flow handler still running the line's actions on a CPU, so
	 * free_irq() freed an action in use (found by tests/fuzz/fuzz_genirq.c).
	 */
	atomic_fetch_add(&desc->threads_active, 1);
	uirq_spin_unlock_irqrestore(&desc->lock, flags);

	irq_self_nested_enter(desc);
	for_each_action_of_desc(desc, action) {
		struct irq_fault fault;
		uirq_irqreturn_t r = UIRQ_IRQ_NONE;

		if (irq_action_dead(action))
			continue;
		irq_trace(UIRQ_TRACE_NESTED_ENTRY, irq, action->name);
		/* A fault kills this child action only; the parent's run goes on. */
		if (irq_fault_call(&fault, action->thread_fn, (int)action->irq, action->dev_id, &r))
			irq_thread_faulted(desc, action, &fault, true);
		irq_trace(UIRQ_TRACE_NESTED_EXIT, irq, action->name);
		ret |= r;
	}
	irq_self_nested_exit();
	if (!(desc->settings & IRQ_SETTINGS_NO_DEBUG))
		note_interrupt(desc, ret);

	wake_threads_waitq(desc);
}

static void handle_bad_irq(struct uirq_irq_desc *desc)
{
	kstat_incr_irqs_this_cpu(desc);
	uirq_printk("irq %u, desc: 0x%lx, depth: %u, count: %u, unhandled: %u\n", desc->irq_data.irq,
		    uirq_ptr_shown(desc), desc->depth, atomic_load(&desc->irq_count),
		    atomic_load(&desc->irqs_unhandled));
	uirq_printk("->handle_irq():  (null), handle_bad_irq\n");
	struct uirq_irq_chip *chip = chip_of(desc);

	if (chip && chip->irq_ack)
		chip->irq_ack(&desc->irq_data);
}

int uirq_generic_handle_irq(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -EINVAL;
	if (!uirq_in_hardirq())
		UIRQ_WARN("generic_handle_irq(%u) outside hard-irq context\n", irq);
	if (desc->handle_irq)
		desc->handle_irq(desc);
	else
		handle_bad_irq(desc);
	return 0;
}

/* ---- chained handlers ---- */

void uirq_chained_irq_enter(struct uirq_irq_chip *chip, struct uirq_irq_desc *desc)
{
	if (!chip || chip->irq_eoi)
		return;	/* fasteoi-type chips: the eoi comes at exit */
	if (chip->irq_mask_ack) {
		chip->irq_mask_ack(&desc->irq_data);
	} else {
		if (chip->irq_mask)
			chip->irq_mask(&desc->irq_data);
		if (chip->irq_ack)
			chip->irq_ack(&desc->irq_data);
	}
}

void uirq_chained_irq_exit(struct uirq_irq_chip *chip, struct uirq_irq_desc *desc)
{
	if (!chip)
		return;
	if (chip->irq_eoi)
		chip->irq_eoi(&desc->irq_data);
	else if (chip->irq_unmask)
		chip->irq_unmask(&desc->irq_data);
}
