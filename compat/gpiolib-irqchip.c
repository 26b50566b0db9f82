// SPDX-License-Identifier: MIT
/*
 * A GPIO controller's irq chip (drivers/gpio/gpiolib.c's GPIOLIB_IRQCHIP
 * part): the irq domain of the chip's lines.  Each mapping gets the
 * driver's irq chip with the gpio_chip as chip data (the kernel's choice:
 * drivers reach their state through it), the driver's flow handler, and
 * for a controller behind a sleeping bus (girq->threaded) nested threads,
 * run in the thread of the driver's own interrupt handler.  A chained
 * controller (girq->parent_handler) has its demultiplexer installed on
 * each parent line, as the kernel's gpiochip_add_irqchip() does.  A line
 * the driver's init_valid_mask() clears is never mapped.  With irq.first
 * the lines are fixed numbers, mapped at registration.
 */
#include <stdlib.h>

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/gpio/driver.h>
#include <linux/printk.h>

#include "gpiolib-internal.h"

bool gpiochip_irqchip_irq_valid(const struct gpio_chip *gc, unsigned int offset)
{
	if (offset >= gc->ngpio)
		return false;
	return !gc->irq.valid_mask || test_bit((long)offset, gc->irq.valid_mask);	/* no mask: all valid */
}

static int gpiochip_irq_map(struct irq_domain *d, unsigned int irq, unsigned long hwirq)
{
	struct gpio_chip *gc = irq_domain_get_host_data(d);
	int ret = 0;

	if (!gpiochip_irqchip_irq_valid(gc, (unsigned int)hwirq))
		return -ENXIO;
	irq_set_chip_data(irq, gc);
	irq_set_chip_and_handler(irq, gc->irq.chip, gc->irq.handler);
	if (gc->irq.threaded)
		irq_set_nested_thread(irq, 1);
	/* The parent a nested line is resent through: the only one, else the driver's map of each line's. */
	if (gc->irq.num_parents == 1)
		ret = irq_set_parent(irq, (int)gc->irq.parents[0]);
	else if (gc->irq.map)
		ret = irq_set_parent(irq, (int)gc->irq.map[hwirq]);
	if (ret < 0)
		return ret;
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

	if (!gc->irq.domain || !gpiochip_irqchip_irq_valid(gc, offset))
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

/* The driver's irq valid mask: every line valid, then what its init_valid_mask() clears. */
static int init_valid_mask(struct gpio_chip *gc)
{
	struct gpio_irq_chip *girq = &gc->irq;
	unsigned int longs = BITS_TO_LONGS(gc->ngpio);

	if (!girq->init_valid_mask)
		return 0;
	girq->valid_mask = calloc(longs, sizeof(long));
	if (!girq->valid_mask)
		return -ENOMEM;
	for (unsigned int i = 0; i < gc->ngpio; i++)
		set_bit((long)i, girq->valid_mask);
	girq->init_valid_mask(gc, girq->valid_mask, gc->ngpio);
	return 0;
}

static void free_valid_mask(struct gpio_chip *gc)
{
	free(gc->irq.valid_mask);
	gc->irq.valid_mask = NULL;
}

static void free_first_descs(struct gpio_chip *gc)
{
	if (gc->uirq_first_descs)
		irq_free_descs(gc->irq.first, gc->ngpio);
	gc->uirq_first_descs = false;
}

/*
 * irq_domain_create_simple(): a linear domain, or with irq.first the
 * lines first.. mapped at once, their descriptors allocated here unless
 * the board allocated them (the kernel then says so and uses them).
 * Those allocated here go at removal, as the kernel's disposal frees them;
 * the board's are left to it.
 */
static struct irq_domain *create_domain(struct gpio_chip *gc)
{
	unsigned int first = gc->irq.first;
	struct irq_domain *d;

	if (!first)
		return irq_domain_add_linear(NULL, gc->ngpio, &gpiochip_domain_ops, gc);
	if (irq_alloc_descs((int)first, first, gc->ngpio, 0) < 0)
		pr_info("Cannot allocate irq_descs @ IRQ%u, assuming pre-allocated\n", first);
	else
		gc->uirq_first_descs = true;
	d = irq_domain_add_legacy(NULL, gc->ngpio, first, 0, &gpiochip_domain_ops, gc);
	if (!d)
		free_first_descs(gc);
	return d;
}

/* gpiochip_add_irqchip(): the domain, to_irq and the chained parents. */
static int add_irqchip(struct gpio_chip *gc)
{
	if (!gc->irq.chip)
		return 0;
	/* A chained handler runs in hard-irq context: it cannot reach a chip on a sleeping bus. */
	if (gc->irq.parent_handler && gc->can_sleep) {
		chip_err(gc, "you cannot have chained interrupts on a chip that may sleep\n");
		return -EINVAL;
	}
	/*
	 * The kernel maps the lines at first.. without the invalid ones; the
	 * legacy domain here maps every line or fails, so the pair is refused.
	 */
	if (gc->irq.first && gc->irq.valid_mask) {
		chip_err(gc, "irq.first with irq.init_valid_mask is not supported here\n");
		return -EINVAL;
	}
	gc->irq.domain = create_domain(gc);
	if (!gc->irq.domain)
		return -EINVAL;
	if (!gc->to_irq)
		gc->to_irq = gpiochip_to_irq;
	if (gc->irq.parent_handler)
		set_parent_handlers(gc, gc->irq.parent_handler);
	gc->irq.initialized = true;
	return 0;
}

/* The kernel's order: the valid mask, then the driver's init_hw() (the domain does not exist yet), then the domain. */
int uirq_gpiochip_add_irqchip(struct gpio_chip *gc)
{
	int ret = init_valid_mask(gc);

	if (ret)
		return ret;
	ret = gc->irq.init_hw ? gc->irq.init_hw(gc) : 0;
	if (!ret)
		ret = add_irqchip(gc);
	if (ret)
		free_valid_mask(gc);
	return ret;
}

void uirq_gpiochip_irqchip_remove(struct gpio_chip *gc)
{
	if (gc->irq.chip && gc->irq.parent_handler)
		set_parent_handlers(gc, NULL);
	if (gc->irq.domain) {
		irq_domain_remove(gc->irq.domain);
		gc->irq.domain = NULL;
	}
	free_first_descs(gc);
	gc->irq.initialized = false;
	free_valid_mask(gc);
}
