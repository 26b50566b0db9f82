// SPDX-License-Identifier: MIT
/*
 * GPIO controllers (drivers/gpio/gpiolib.c's provider side): registration
 * with a number base and the chip's data, lines locked as interrupts; the
 * irq chip's part is gpiolib-irqchip.c's.
 */
#include <stdlib.h>

#include <linux/errno.h>
#include <linux/gpio/driver.h>
#include <linux/printk.h>

#include "gpiolib-internal.h"

#define ARCH_NR_GPIOS		512	/* the kernel's default number space: 0..511 */
#define GPIO_MAX_LINES		128	/* the uirq_irq_* bitmaps' size */

static DEFINE_MUTEX(chips_lock);
static struct gpio_chip *chips;		/* registered, highest base first, under chips_lock */

/*
 * The kernel's gpiochip_find_base(): the highest free range of ngpio
 * numbers below ARCH_NR_GPIOS, looking down the chips from the top, so a
 * chip removed gives its numbers back; -ENOSPC when none is left.
 */
static int find_base(int ngpio)
{
	int base = ARCH_NR_GPIOS - ngpio;

	for (struct gpio_chip *c = chips; c; c = c->uirq_next) {
		if (c->base + (int)c->ngpio <= base)
			break;
		base = c->base - ngpio;
	}
	if (base < 0) {
		pr_err("gpiochip_find_base: cannot find free range\n");
		return -ENOSPC;
	}
	return base;
}

/* Into the list at its base's place; -EBUSY if its numbers overlap a chip's (the kernel's gpiodev_add_to_list()). */
static int add_to_list(struct gpio_chip *gc)
{
	struct gpio_chip **pp = &chips;

	while (*pp && (*pp)->base >= gc->base + (int)gc->ngpio)
		pp = &(*pp)->uirq_next;
	if (*pp && (*pp)->base + (int)(*pp)->ngpio > gc->base) {
		pr_err("gpio gpiochip: %s: GPIO integer space overlap, cannot add chip\n", gc->label ? gc->label : "?");
		return -EBUSY;
	}
	gc->uirq_next = *pp;
	*pp = gc;
	return 0;
}

static void unlist(struct gpio_chip *gc)
{
	mutex_lock(&chips_lock);
	for (struct gpio_chip **pp = &chips; *pp; pp = &(*pp)->uirq_next) {
		if (*pp == gc) {
			*pp = gc->uirq_next;
			break;
		}
	}
	mutex_unlock(&chips_lock);
}

int gpiochip_add_data(struct gpio_chip *gc, void *data)
{
	int ret = 0;

	if (!gc->ngpio || gc->ngpio > GPIO_MAX_LINES) {
		pr_err("gpiochip_add_data: %s: %u lines (1 to %d here)\n", gc->label ? gc->label : "?", gc->ngpio,
		       GPIO_MAX_LINES);
		return -EINVAL;
	}
	gc->uirq_data = data;
	/* The numbers first, as the kernel's order: a chip with none gets no domain. */
	mutex_lock(&chips_lock);
	if (gc->base < 0) {
		ret = find_base(gc->ngpio);
		if (ret >= 0)
			gc->base = ret;
	}
	ret = ret < 0 ? ret : add_to_list(gc);
	mutex_unlock(&chips_lock);
	if (ret < 0)
		return ret;
	ret = uirq_gpiochip_add_irqchip(gc);
	if (ret)
		unlist(gc);
	return ret;
}

void gpiochip_remove(struct gpio_chip *gc)
{
	unlist(gc);
	for (unsigned int i = 0; i < gc->ngpio; i++)
		if (gpiochip_line_is_irq(gc, i))
			pr_err("gpiochip_remove: %s: line %u still used as an interrupt\n", gc->label ? gc->label : "?",
			       i);
	uirq_gpiochip_irqchip_remove(gc);
}

static void devm_gpiochip_remove(void *gc)
{
	gpiochip_remove(gc);
}

int devm_gpiochip_add_data(struct device *dev, struct gpio_chip *gc, void *data)
{
	int ret = gpiochip_add_data(gc, data);

	return ret ? ret : devm_add_action_or_reset(dev, devm_gpiochip_remove, gc);
}

void *gpiochip_get_data(struct gpio_chip *gc)
{
	return gc->uirq_data;
}

struct gpio_chip *gpiochip_find(void *data, int (*match)(struct gpio_chip *gc, void *data))
{
	struct gpio_chip *found = NULL;

	mutex_lock(&chips_lock);
	for (struct gpio_chip *gc = chips; gc && !found; gc = gc->uirq_next)
		if (match(gc, data))
			found = gc;
	mutex_unlock(&chips_lock);
	return found;
}

int gpiochip_lock_as_irq(struct gpio_chip *gc, unsigned int offset)
{
	if (offset >= gc->ngpio)
		return -EINVAL;
	/* A line the chip drives cannot be an interrupt (the kernel's "cannot lock as IRQ"). */
	if (gc->get_direction && gc->get_direction(gc, offset) == GPIO_LINE_DIRECTION_OUT) {
		chip_err(gc, "%s: tried to flag a GPIO set as output for IRQ\n", __func__);
		return -EIO;
	}
	set_bit((long)offset, gc->uirq_irq_locked);
	return 0;
}

void gpiochip_unlock_as_irq(struct gpio_chip *gc, unsigned int offset)
{
	if (offset < gc->ngpio) {
		clear_bit((long)offset, gc->uirq_irq_locked);
		clear_bit((long)offset, gc->uirq_irq_enabled);
	}
}

bool gpiochip_line_is_irq(struct gpio_chip *gc, unsigned int offset)
{
	return offset < gc->ngpio && test_bit((long)offset, gc->uirq_irq_locked);
}

void gpiochip_enable_irq(struct gpio_chip *gc, irq_hw_number_t offset)
{
	/* Only a line locked as an interrupt is enabled as one (the kernel warns otherwise). */
	if (WARN_ON(!gpiochip_line_is_irq(gc, (unsigned int)offset)))
		return;
	set_bit((long)offset, gc->uirq_irq_enabled);
}

void gpiochip_disable_irq(struct gpio_chip *gc, irq_hw_number_t offset)
{
	if (offset < gc->ngpio)
		clear_bit((long)offset, gc->uirq_irq_enabled);
}

int gpiochip_irq_reqres(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);

	return gpiochip_lock_as_irq(gc, (unsigned int)irqd_to_hwirq(d));
}

void gpiochip_irq_relres(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);

	gpiochip_unlock_as_irq(gc, (unsigned int)irqd_to_hwirq(d));
}
