// SPDX-License-Identifier: MIT
/*
 * twl4030-pwrbutton as the seed patch (February 2009) submitted it: a plain
 * request_irq() handler, both edges, that reads STS_HW_CONDITIONS over i2c
 * from hard-irq context.  The i2c read takes the adapter's mutex and sleeps
 * for the wire, so the first press produces the "sleeping function called
 * from invalid context" report, and lockdep's "inconsistent lock state" for
 * the adapter lock, which process context takes with interrupts enabled.
 *
 * The patch also re-enabled interrupts in the handler under CONFIG_LOCKDEP
 * (lockdep then forced IRQF_DISABLED); that workaround is left out, as the
 * point is what the handler does in the context it is given.
 *
 * The handler is the mainline one: what differs is only the context it
 * runs in.
 *
 * It only works on a line that is not nested: on today's twl4030-irq the
 * PWR lines are nested-thread lines and request_irq() fails with -EINVAL
 * (no thread_fn); on the 2.6.30 dispatch (TWL4030_IRQ_LEGACY) it runs.
 */
#include <linux/input.h>
#include <linux/interrupt.h>

#include "twl4030-pwrbutton.h"

int twl4030_pwrbutton_request_legacy(struct twl4030_pwrbutton *pwr)
{
	return request_irq(pwr->irq, twl4030_pwrbutton_irq, IRQF_TRIGGER_FALLING | IRQF_TRIGGER_RISING,
			   "twl4030_pwrbutton", pwr);
}
