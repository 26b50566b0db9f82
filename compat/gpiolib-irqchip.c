// SPDX-License-Identifier: MIT
/*
 * A GPIO controller's irq chip (drivers/gpio/gpiolib.c's GPIOLIB_IRQCHIP
 * part): the irq domain of the chip's lines.  Each mapping gets the
 * driver's irq chip with the gpio_chip as chip data (the kernel's choice:
 * drivers reach their state through it), the driver's flow handler, and
 * for a controller behind a sleeping bus (girq->threaded) nested threads,
 * run in the thread of the driver's own interrupt handler.  A chained
 * controller (girq->parent_handler) has its demultiplexer installed on
 * each parent line, as the kernel's gpiochip_add_irqchip() does.
 */
#include <linux/errno.h>
#include <linux/gpio/driver.h>
#include <linux/printk.h>

#include "gpiolib-internal.h"

static int gpiochip_irq_map(struct irq_domain *d, unsigned int irq, unsigned long hwirq)
{
	struct gpio_chip *gc = irq_domain_get_host_data(d);

	(void)hwirq;
	irq_set_chip_data(irq, gc);
	irq_set_chip_and_handler(irq, gc->irq.chip, gc->irq.handler);
	if (gc->irq.threaded)
		irq_set_nested_thread(irq, 1);
	if (gc->irq.num_parents == 1)
		irq_set_parent(irq, (int)gc->irq.parents[0]);
	if (gc->irq.default_type != IRQ_TYPE_NONE)
		irq_set_irq_type(irq, gc->irq.default_type);
	return 0;
}

static void gpiochip_irq_unmap(struct irq_domain *d, unsigned int irq)
{
	(void)d;
	if (irq_get_irq_data(irq) && irq_get_irq_data(irq)->chip)
		irq_set_nested_thread(irq, 0);
	irq_set_chip_and_handler(irq, NULL, NULL);
	irq_set_chip_data(irq, NULL);
}

static const struct irq_domain_ops gpiochip_domain_ops = {
	.map = gpiochip_irq_map,
	.unmap = gpiochip_irq_unmap,
};

/* The kernel's gpiochip_to_irq(): the line's mapping, made on first use. */
static int gpiochip_to_irq(struct gpio_chip *gc, unsigned int offset)
{
	unsigned int irq;

	if (!gc->irq.domain || offset >= gc->ngpio)
		return -ENXIO;
	irq = irq_create_mapping(gc->irq.domain, offset);
	return irq ? (int)irq : -ENXIO;
}

/* Each parent line gets the driver's demultiplexer (NULL: taken off again). */
static void set_parent_handlers(struct gpio_chip *gc, irq_flow_handler_t handler)
{
	struct gpio_irq_chip *girq = &gc->irq;

	for (unsigned int i = 0; i < girq->num_parents; i++) {
		void *data = NULL;

		/* The kernel's choice: the parent's chip data is its own chip's, so the handler's data is ours. */
		if (handler && girq->per_parent_data)
			data = girq->parent_handler_data_array[i];
		else if (handler)
			data = girq->parent_handler_data ? girq->parent_handler_data : gc;
		irq_set_chained_handler_and_data(girq->parents[i], handler, data);
	}
}

int uirq_gpiochip_add_irqchip(struct gpio_chip *gc)
{
	int ret;

	if (!gc->irq.chip)
		return 0;
	/* A chained handler runs in hard-irq context: it cannot reach a chip on a sleeping bus. */
	if (gc->irq.parent_handler && gc->can_sleep) {
		chip_err(gc, "you cannot have chained interrupts on a chip that may sleep\n");
		return -EINVAL;
	}
	gc->irq.domain = irq_domain_add_linear(NULL, gc->ngpio, &gpiochip_domain_ops, gc);
	if (!gc->irq.domain)
		return -ENOMEM;
	if (!gc->to_irq)
		gc->to_irq = gpiochip_to_irq;
	if (gc->irq.init_hw) {
		ret = gc->irq.init_hw(gc);
		if (ret) {
			irq_domain_remove(gc->irq.domain);
			gc->irq.domain = NULL;
			return ret;
		}
	}
	if (gc->irq.parent_handler)
		set_parent_handlers(gc, gc->irq.parent_handler);
	gc->irq.initialized = true;
	return 0;
}

void uirq_gpiochip_irqchip_remove(struct gpio_chip *gc)
{
	if (gc->irq.chip && gc->irq.parent_handler)
		set_parent_handlers(gc, NULL);
	if (gc->irq.domain) {
		irq_domain_remove(gc->irq.domain);
		gc->irq.domain = NULL;
	}
	gc->irq.initialized = false;
}
