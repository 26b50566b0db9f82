/* SPDX-License-Identifier: MIT */
/*
 * The unmodified Linux drivers of -Dupstream=enabled, as a board probes
 * them (upstream/twl4030.c plays the part of the kernel's twl-core.c for
 * twl4030-irq.c and twl4030-pwrbutton.c).  Not installed: only the test
 * programs and the module irqsim --drivers upstream loads are built with
 * these files.  Their package and list are upstream-files.h's
 * UIRQ_UPSTREAM_VERSION and UIRQ_UPSTREAM_FILES ("PATH SHA256" lines).
 */
#ifndef UIRQ_UPSTREAM_H
#define UIRQ_UPSTREAM_H

#include "uirq/i2c.h"
#include "uirq/input.h"

struct uirq_upstream_twl4030;

/*
 * Probe the TWL4030 on adap, its INT1 on host_irq, as twl-core.c does:
 * twl4030_init_chip_irq(), twl4030_init_irq() (16 descriptors, the SIH set
 * up over the bus, host_irq requested), then the power button's platform
 * device (its irq the PWR_INT SIH's line 0) and the modules, which bind
 * twl4030-pwrbutton to it.  The kernel's files keep one TWL per process
 * (twl4030-irq.c's state is file-scope): -EBUSY while one is probed; after
 * a remove, another probe starts afresh.  0 or -errno.
 */
int uirq_upstream_twl4030_probe(struct uirq_i2c_adapter *adap, unsigned int host_irq,
				struct uirq_upstream_twl4030 **out);
/* Unbind the power button and delete its device (its input device goes: readers get -ENODEV). */
void uirq_upstream_twl4030_remove_button(struct uirq_upstream_twl4030 *t);
/*
 * Unbind the power button, then undo twl4030_init_irq(), which the kernel
 * never does (its twl4030_exit_irq() says it cannot): the SIH and host
 * lines freed, the descriptors and the domain released.
 */
void uirq_upstream_twl4030_remove(struct uirq_upstream_twl4030 *t);
/* The first of the 16 irq numbers twl4030_init_irq() allocated. */
unsigned int uirq_upstream_twl4030_irq_base(struct uirq_upstream_twl4030 *t);
/* The power button's input device (registered by twl4030-pwrbutton's probe). */
struct uirq_input_dev *uirq_upstream_twl4030_input(struct uirq_upstream_twl4030 *t);

#endif
