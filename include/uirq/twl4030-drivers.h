/* SPDX-License-Identifier: MIT */
/*
 * The TWL4030 drivers (drivers layer), written against the kernel-compat
 * headers: the interrupt core (twl4030-irq: PIH and PWR_INT SIH with
 * nested threaded irqs and a bus-locked SIH chip) and twl4030-pwrbutton in
 * its mainline form or the 2009 seed patch's form.  Probing takes what a
 * kernel platform device would carry.
 */
#ifndef UIRQ_TWL4030_DRIVERS_H
#define UIRQ_TWL4030_DRIVERS_H

#include <stdbool.h>

#include "uirq/i2c.h"
#include "uirq/input.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TWL4030_NR_IRQS		16	/* 0-7 PIH children, 8-15 PWR_INT children */
#define TWL4030_PWR_IRQ_PWRON	8	/* offset of the power button's irq from the base */

struct twl4030_irq;
struct twl4030_pwrbutton;

/* twl4030_irq_probe_flags() flags */
#define TWL4030_IRQ_LEGACY	0x1u	/* the 2.6.30 dispatch the seed patch ran on (see below) */

/* Probe the interrupt core: 16 descriptors, SIH set up over i2c, host_irq requested. */
int twl4030_irq_probe(struct uirq_i2c_adapter *adap, unsigned int host_irq, struct twl4030_irq **out);
/*
 * As twl4030_irq_probe(), with flags.  TWL4030_IRQ_LEGACY: the PWR_INT
 * children (8-15) are not nested-thread lines; the SIH handler runs each
 * one's flow handler from the PIH thread with interrupts disabled in a faked
 * hard-irq section, as 2.6.30's twl4030-irq did.  The seed patch's
 * pwrbutton (twl4030_pwrbutton_probe(..., legacy = true, ...)) needs it: on
 * the mainline core its request_irq() fails with -EINVAL.  -EINVAL for
 * unknown flags.
 */
int twl4030_irq_probe_flags(struct uirq_i2c_adapter *adap, unsigned int host_irq, unsigned int flags,
			    struct twl4030_irq **out);
/* Whether the core was probed with TWL4030_IRQ_LEGACY. */
bool twl4030_irq_is_legacy(struct twl4030_irq *ti);
/* Free the host line and the descriptors. */
void twl4030_irq_remove(struct twl4030_irq *ti);
/* The first of the 16 irq numbers. */
unsigned int twl4030_irq_base(struct twl4030_irq *ti);

/* Probe twl4030-pwrbutton on irq (mainline form, or the seed patch's when legacy). */
int twl4030_pwrbutton_probe(struct uirq_i2c_adapter *adap, unsigned int irq, bool legacy,
			    struct twl4030_pwrbutton **out);
/* Free the irq and unregister the input device. */
void twl4030_pwrbutton_remove(struct twl4030_pwrbutton *pwr);
/* The registered input device ("twl4030_pwrbutton"). */
struct uirq_input_dev *twl4030_pwrbutton_input(struct twl4030_pwrbutton *pwr);

#ifdef __cplusplus
}
#endif
#endif
