/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for linear irq domains (uirq/irq.h).  No device tree here:
 * the of_node/fwnode argument is ignored.
 */
#ifndef UIRQ_COMPAT_LINUX_IRQDOMAIN_H
#define UIRQ_COMPAT_LINUX_IRQDOMAIN_H

#include <linux/irq.h>
#include "uirq/irq.h"

struct device_node;

#define irq_domain		uirq_irq_domain
#define irq_domain_ops		uirq_irq_domain_ops

/* The kernel's shape: the domain, or NULL. */
static inline struct uirq_irq_domain *
uirq_compat_irq_domain_create_linear(unsigned int size, const struct uirq_irq_domain_ops *ops,
				     void *host_data)
{
	struct uirq_irq_domain *d;

	uirq_irq_domain_create_linear(NULL, size, ops, host_data, &d);
	return d;
}
#define irq_domain_add_linear(node, size, ops, data) \
	uirq_compat_irq_domain_create_linear((size), (ops), (data))
#define irq_domain_create_linear(fwnode, size, ops, data) \
	uirq_compat_irq_domain_create_linear((size), (ops), (data))
/* The kernel's ops with nothing to set up per line (its translation is the device tree's, absent here). */
extern const struct irq_domain_ops irq_domain_simple_ops;

/* The kernel's shape: lines first_irq.. the caller allocated, mapped at once; the domain or NULL. */
static inline struct uirq_irq_domain *irq_domain_add_legacy(struct device_node *node, unsigned int size,
							    unsigned int first_irq, irq_hw_number_t first_hwirq,
							    const struct uirq_irq_domain_ops *ops,
							    void *host_data)
{
	struct uirq_irq_domain *d;

	(void)node;
	return uirq_irq_domain_create_legacy(NULL, size, first_irq, first_hwirq, ops, host_data, &d) ? NULL : d;
}
#define irq_domain_get_host_data(d)	uirq_irq_domain_get_host_data(d)
#define irq_domain_remove(d)		uirq_irq_domain_remove(d)
#define irq_create_mapping(d, hw)	uirq_irq_create_mapping((d), (hw))
#define irq_find_mapping(d, hw)		uirq_irq_find_mapping((d), (hw))
#define irq_dispose_mapping(virq)	uirq_irq_dispose_mapping(virq)

/* A demultiplexer's child, by its domain's hwirq: the flow's result, or -EINVAL for a line not mapped. */
static inline int generic_handle_domain_irq(struct uirq_irq_domain *d, unsigned int hwirq)
{
	unsigned int irq = uirq_irq_find_mapping(d, hwirq);

	return irq ? uirq_generic_handle_irq(irq) : -EINVAL;
}

#endif
