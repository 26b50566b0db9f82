// SPDX-License-Identifier: MIT
/*
 * GPIO controllers (drivers/gpio/gpiolib.c's provider side): registration
 * with a number base and the chip's data, lines locked as interrupts; the
 * irq chip's part is gpiolib-irqchip.c's.
 */
#include <stdlib.h>

#include <linux/errno.h>
#include <linux/gpio/driver.h>
#include <linux/of.h>
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
	gc->uirq_descs = calloc(gc->ngpio, sizeof(*gc->uirq_descs));
	if (!gc->uirq_descs)
		return -ENOMEM;
	for (unsigned int i = 0; i < gc->ngpio; i++) {
		gc->uirq_descs[i].gc = gc;
		gc->uirq_descs[i].hwnum = i;
	}
	/* The numbers first, as the kernel's order: a chip with none gets no domain. */
	mutex_lock(&chips_lock);
	if (gc->base < 0) {
		ret = find_base(gc->ngpio);
		if (ret >= 0)
			gc->base = ret;
	}
	ret = ret < 0 ? ret : add_to_list(gc);
	mutex_unlock(&chips_lock);
	if (ret >= 0) {
		ret = uirq_gpiochip_add_irqchip(gc);
		if (ret)
			unlist(gc);
	}
	if (ret < 0) {
		free(gc->uirq_descs);
		gc->uirq_descs = NULL;
	}
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
	/* The kernel warns of a line still requested; its consumer then holds a dangling descriptor. */
	for (unsigned int i = 0; i < gc->ngpio; i++)
		if (gc->uirq_descs[i].flags & GPIOD_REQUESTED)
			pr_err("gpiochip_remove: %s: REMOVING GPIOCHIP WITH GPIOS STILL REQUESTED\n",
			       gc->label ? gc->label : "?");
	free(gc->uirq_descs);
	gc->uirq_descs = NULL;
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

/* ---- consumers: lines by number and by node, requests (gpiolib-consumer.c) ---- */

struct gpio_desc *gpio_to_desc(unsigned int gpio)
{
	struct gpio_desc *desc = NULL;

	mutex_lock(&chips_lock);
	for (struct gpio_chip *gc = chips; gc && !desc; gc = gc->uirq_next)
		if ((int)gpio >= gc->base && (int)gpio < gc->base + (int)gc->ngpio)
			desc = &gc->uirq_descs[(int)gpio - gc->base];
	mutex_unlock(&chips_lock);
	return desc;
}

int desc_to_gpio(const struct gpio_desc *desc)
{
	return desc->gc->base + (int)desc->hwnum;
}

struct gpio_chip *uirq_gpiochip_find_by_node(const struct device_node *np)
{
	struct gpio_chip *found = NULL;

	mutex_lock(&chips_lock);
	for (struct gpio_chip *gc = chips; gc && !found; gc = gc->uirq_next)
		if ((gc->fwnode && to_of_node(gc->fwnode) == np) || (!gc->fwnode && gc->parent && gc->parent->of_node == np))
			found = gc;
	mutex_unlock(&chips_lock);
	return found;
}

int uirq_gpiod_request(struct gpio_desc *desc, const char *label)
{
	struct gpio_chip *gc = desc->gc;
	int ret = 0;

	mutex_lock(&chips_lock);
	if (desc->flags & GPIOD_REQUESTED) {
		mutex_unlock(&chips_lock);
		return -EBUSY;
	}
	desc->flags = GPIOD_REQUESTED;
	desc->label = label ? label : "?";
	mutex_unlock(&chips_lock);
	/* The chip's own request may refuse the line (the kernel calls it unlocked too: it may sleep). */
	if (gc->request)
		ret = gc->request(gc, desc->hwnum);
	if (ret > 0)
		ret = -EBADE;
	if (ret) {
		mutex_lock(&chips_lock);
		desc->flags = 0;
		desc->label = NULL;
		mutex_unlock(&chips_lock);
	}
	return ret;
}

void uirq_gpiod_free(struct gpio_desc *desc)
{
	struct gpio_chip *gc = desc->gc;

	if (gc->free)
		gc->free(gc, desc->hwnum);
	mutex_lock(&chips_lock);
	desc->flags = 0;
	desc->label = NULL;
	mutex_unlock(&chips_lock);
}
