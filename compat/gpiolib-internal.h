/* SPDX-License-Identifier: MIT */
/*
 * Inside the compat layer: gpiolib.c registers a chip, gpiolib-irqchip.c
 * gives it its irq chip's domain.  Not installed.
 */
#ifndef UIRQ_COMPAT_GPIOLIB_INTERNAL_H
#define UIRQ_COMPAT_GPIOLIB_INTERNAL_H

#include <linux/gpio/driver.h>
#include <linux/printk.h>

/* The kernel's chip_err(): the chip's label stands for its gpiochipN device's name too. */
#define chip_err(gc, fmt, ...)	pr_err("gpio gpiochip %s: (%s): " fmt, (gc)->label ? (gc)->label : "?", \
				       (gc)->label ? (gc)->label : "?", ##__VA_ARGS__)

/*
 * The chip's irq part, its numbers given: the irq valid mask, the driver's
 * init_hw(), and with gc->irq.chip the domain; 0 or -errno, nothing left
 * on failure.
 */
int uirq_gpiochip_add_irqchip(struct gpio_chip *gc);
/* Undo uirq_gpiochip_add_irqchip(). */
void uirq_gpiochip_irqchip_remove(struct gpio_chip *gc);

#endif
