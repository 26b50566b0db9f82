/* SPDX-License-Identifier: MIT */
/*
 * A node's interrupts from the device tree (compat/of-irq.c):
 * "interrupts-extended", or "interrupts" read with the interrupt parent's
 * "#interrupt-cells" (the node's or an ancestor's "interrupt-parent", else
 * its parent).  The controller's node turns the cells into an irq: the
 * board's translation (uirq_of_node_set_irq_xlate()), or, for a GPIO
 * controller's node, the chip's line and trigger.
 */
#ifndef UIRQ_COMPAT_LINUX_OF_IRQ_H
#define UIRQ_COMPAT_LINUX_OF_IRQ_H

#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/of.h>

/* Interrupt index's specifier: 0, or -EINVAL/-ENOENT as the kernel's of_irq_parse_one(). */
int of_irq_parse_one(struct device_node *device, int index, struct of_phandle_args *out_irq);
/* Interrupt index as an irq: the number, or 0 when there is none. */
unsigned int irq_of_parse_and_map(struct device_node *node, int index);
/* The same with errors: -EPROBE_DEFER while its controller has no translation yet. */
int of_irq_get(struct device_node *dev, int index);
int of_irq_count(struct device_node *dev);

#endif
