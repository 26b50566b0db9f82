// SPDX-License-Identifier: MIT
/*
 * Replaying an edge that came in while the line was disabled
 * (kernel/irq/resend.c): the chip retriggers it, else it is raised again in
 * software - through the parent line for a nested line.  Level lines are
 * never resent: the level is still there.
 */
#include <errno.h>

#include "internals.h"

/*
 * Raised with the resend mark: the CPU runs the flow even if the
 * controller's input is quiet by then (uirq_irq_desc_in_resend), as the
 * kernel's resend calls desc->handle_irq without asking the hardware.
 */
static int irq_sw_resend(struct uirq_irq_desc *desc)
{
	if (irq_settings_is_nested_thread(desc)) {
		/*
		 * Runs in the parent's thread: run the parent's flow, whose
		 * demultiplexer finds the child's event again.  The parent's
		 * level may be long gone; raising it as an input would be lost.
		 */
		if (!desc->parent_irq)
			return -EINVAL;
		desc = irq_to_desc((unsigned int)desc->parent_irq);
		if (!desc)
			return -EINVAL;
	}
	atomic_store_explicit(&desc->resend, 1, memory_order_relaxed);
	return uirq_irq_raise(desc->irq_data.irq);
}

static bool try_retrigger(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = desc->irq_data.chip;

	return chip && chip->irq_retrigger && chip->irq_retrigger(&desc->irq_data);
}

/* desc->lock held. */
int check_irq_resend(struct uirq_irq_desc *desc, bool inject)
{
	int err = 0;

	if (irq_settings_is_level(desc)) {
		desc->istate &= ~IRQS_PENDING;
		return -EINVAL;
	}
	if (desc->istate & IRQS_REPLAY)
		return -EBUSY;
	if (!(desc->istate & IRQS_PENDING) && !inject)
		return 0;
	desc->istate &= ~IRQS_PENDING;
	if (!try_retrigger(desc))
		err = irq_sw_resend(desc);
	if (!err)
		desc->istate |= IRQS_REPLAY;
	return err;
}
