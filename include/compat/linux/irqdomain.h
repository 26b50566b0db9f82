/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for linear irq domains (uirq/irq.h).  No device tree here:
 * the of_node/fwnode argument is ignored.
 */
#ifndef UIRQ_COMPAT_LINUX_IRQDOMAIN_H
#define UIRQ_COMPAT_LINUX_IRQDOMAIN_H

#include <linux/irq.h>
#include "uirq/irq.h"

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
#define irq_domain_get_host_data(d)	uirq_irq_domain_get_host_data(d)
#define irq_domain_remove(d)		uirq_irq_domain_remove(d)
#define irq_create_mapping(d, hw)	uirq_irq_create_mapping((d), (hw))
#define irq_find_mapping(d, hw)		uirq_irq_find_mapping((d), (hw))
#define irq_dispose_mapping(virq)	uirq_irq_dispose_mapping(virq)

#endif
