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

/* A line as consumers hold it (<linux/gpio/consumer.h>): one per line of a registered chip. */
struct gpio_desc {
	struct gpio_chip *gc;
	unsigned int hwnum;
	unsigned long flags;		/* GPIOD_* below, under the chips' lock */
	const char *label;		/* the consumer's, while requested */
};

#define GPIOD_REQUESTED		(1UL << 0)
#define GPIOD_ACTIVE_LOW	(1UL << 1)
#define GPIOD_IS_OUT		(1UL << 2)

/* Take desc for label: 0, or -EBUSY when another holds it, or the chip's request() error. */
int uirq_gpiod_request(struct gpio_desc *desc, const char *label);
/* Give it back (the chip's free()). */
void uirq_gpiod_free(struct gpio_desc *desc);
/* The registered chip whose node np is (its fwnode, else its parent device's node), or NULL. */
struct gpio_chip *uirq_gpiochip_find_by_node(const struct device_node *np);

/*
 * The chip's irq part, its numbers given: the irq valid mask, the driver's
 * init_hw(), and with gc->irq.chip the domain; 0 or -errno, nothing left
 * on failure.
 */
int uirq_gpiochip_add_irqchip(struct gpio_chip *gc);
/* Undo uirq_gpiochip_add_irqchip(). */
void uirq_gpiochip_irqchip_remove(struct gpio_chip *gc);

#endif
