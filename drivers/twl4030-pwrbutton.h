/* SPDX-License-Identifier: MIT */
/*
 * Private to drivers/: the power button's state, shared by the mainline
 * driver (twl4030-pwrbutton.c) and the seed patch's form of its interrupt
 * request (twl4030-pwrbutton-legacy.c).
 */
#ifndef UIRQ_DRIVERS_TWL4030_PWRBUTTON_H
#define UIRQ_DRIVERS_TWL4030_PWRBUTTON_H

#include <linux/input.h>
#include <linux/interrupt.h>

#include "twl.h"

struct twl4030_pwrbutton {
	struct input_dev *input;
	struct twl_core *twl;
	unsigned int irq;
};

/* Reads the button level over i2c and reports KEY_POWER; sleeps, so it belongs in a thread. */
irqreturn_t twl4030_pwrbutton_irq(int irq, void *_pwr);

/* The seed patch's request: a plain hard-irq handler that reads the status over i2c. */
int twl4030_pwrbutton_request_legacy(struct twl4030_pwrbutton *pwr);

#endif
