// SPDX-License-Identifier: MIT
/*
 * Interrupts named in the device tree (drivers/of/irq.c's readers): the
 * specifier of a node's interrupt, found as the kernel finds it, and its
 * controller's translation to an irq.  A controller is a node the board
 * gave a translation (a swirq controller's inputs, say), or a registered
 * GPIO chip's node, whose cells are <line trigger> as gpiolib's default
 * two-cell translation reads them.
 */
#include <errno.h>

#include <linux/gpio/driver.h>
#include <linux/interrupt.h>
#include <linux/of_irq.h>
#include <linux/printk.h>

#include "gpiolib-internal.h"

void uirq_of_node_set_irq_xlate(struct device_node *np, int (*xlate)(void *data, const u32 *args, int nargs),
				void *data)
{
	np->uirq_irq_xlate = xlate;
	np->uirq_irq_data = data;
}

/* The kernel's of_irq_find_parent(): "interrupt-parent" of the node or, failing that, its parent's, up. */
static struct device_node *find_parent(const struct device_node *child)
{
	const struct device_node *np = child;

	while (np) {
		struct device_node *p = of_parse_phandle(np, "interrupt-parent", 0);

		p = p ? p : np->parent;
		if (p && of_find_property(p, "#interrupt-cells", NULL))
			return p;
		np = p;
	}
	return NULL;
}

int of_irq_parse_one(struct device_node *device, int index, struct of_phandle_args *out_irq)
{
	struct device_node *parent;
	u32 cells;
	int len;
	const u32 *spec;

	if (!device || index < 0)
		return -EINVAL;
	/* "interrupts-extended" names each entry's controller. */
	if (of_find_property(device, "interrupts-extended", NULL))
		return of_parse_phandle_with_args(device, "interrupts-extended", "#interrupt-cells", index, out_irq);
	spec = of_get_property(device, "interrupts", &len);
	if (!spec)
		return -EINVAL;
	parent = find_parent(device);
	if (!parent || of_property_read_u32(parent, "#interrupt-cells", &cells) || cells > MAX_PHANDLE_ARGS)
		return -EINVAL;
	if ((size_t)(index + 1) * cells * sizeof(u32) > (size_t)len)
		return -EINVAL;
	out_irq->np = parent;
	out_irq->args_count = (int)cells;
	for (u32 i = 0; i < cells; i++)
		out_irq->args[i] = spec[(u32)index * cells + i];
	return 0;
}

/* The irq the specifier names: > 0, 0 when the controller cannot map it, -EPROBE_DEFER with no controller yet. */
static int map(const struct of_phandle_args *spec)
{
	struct device_node *ctl = spec->np;
	struct gpio_chip *gc;
	int irq;

	if (ctl->uirq_irq_xlate) {
		irq = ctl->uirq_irq_xlate(ctl->uirq_irq_data, spec->args, spec->args_count);
		return irq > 0 ? irq : 0;
	}
	gc = uirq_gpiochip_find_by_node(ctl);
	if (!gc || !gc->to_irq)
		return -EPROBE_DEFER;
	if (spec->args_count < 1 || spec->args[0] >= gc->ngpio)
		return 0;
	irq = gc->to_irq(gc, spec->args[0]);
	if (irq <= 0)
		return 0;
	/* The second cell is the trigger (IRQ_TYPE_*), set as irq_create_of_mapping() sets it. */
	if (spec->args_count >= 2 && (spec->args[1] & IRQ_TYPE_SENSE_MASK) &&
	    irq_set_irq_type((unsigned int)irq, spec->args[1] & IRQ_TYPE_SENSE_MASK))
		pr_err("%s: cannot set trigger %u on irq %d\n", ctl->full_name, spec->args[1], irq);
	return irq;
}

unsigned int irq_of_parse_and_map(struct device_node *node, int index)
{
	struct of_phandle_args spec;
	int irq;

	if (of_irq_parse_one(node, index, &spec))
		return 0;
	irq = map(&spec);
	return irq > 0 ? (unsigned int)irq : 0;
}

int of_irq_get(struct device_node *dev, int index)
{
	struct of_phandle_args spec;
	int rc = of_irq_parse_one(dev, index, &spec);

	if (rc)
		return rc;
	rc = map(&spec);
	return rc ? rc : -EINVAL;
}

int of_irq_count(struct device_node *dev)
{
	struct of_phandle_args spec;
	int n = 0;

	while (!of_irq_parse_one(dev, n, &spec))
		n++;
	return n;
}
