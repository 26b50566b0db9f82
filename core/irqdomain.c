// SPDX-License-Identifier: MIT
/*
 * Linear irq domains: one controller's hwirq -> irq map
 * (kernel/irq/irqdomain.c, the linear revmap only).  Lookups are lock-free
 * so a chained handler can demultiplex in hard-irq context.  A legacy
 * domain maps lines its creator allocated already, all at once, and never
 * frees them: its creator does.
 */
#include <errno.h>
#include <stdlib.h>

#include "internals.h"

struct uirq_irq_domain {
	const char *name;
	unsigned int size;
	struct uirq_irq_chip *chip;
	void *chip_data;
	uirq_irq_flow_handler_t handle;
	const struct uirq_irq_domain_ops *ops;
	void *host_data;
	bool legacy;			/* the descriptors are the creator's */
	uirq_mutex_t lock;		/* creating and disposing mappings */
	atomic_uint revmap[];		/* 0: unmapped */
};

int uirq_irq_domain_add_linear(const char *name, unsigned int size, struct uirq_irq_chip *chip,
			       void *chip_data, uirq_irq_flow_handler_t handle,
			       struct uirq_irq_domain **out)
{
	struct uirq_irq_domain *d;

	*out = NULL;
	if (!size)
		return -EINVAL;
	d = calloc(1, sizeof(*d) + size * sizeof(d->revmap[0]));
	if (!d)
		return -ENOMEM;
	d->name = name;
	d->size = size;
	d->chip = chip;
	d->chip_data = chip_data;
	d->handle = handle;
	uirq_mutex_init(&d->lock);
	*out = d;
	return 0;
}

int uirq_irq_domain_create_linear(const char *name, unsigned int size,
				  const struct uirq_irq_domain_ops *ops, void *host_data,
				  struct uirq_irq_domain **out)
{
	int ret = uirq_irq_domain_add_linear(name, size, NULL, NULL, NULL, out);

	if (!ret) {
		(*out)->ops = ops;
		(*out)->host_data = host_data;
	}
	return ret;
}

/* Point irq's data at domain d as hw (the mapping's side in the descriptor). */
static void associate(struct uirq_irq_domain *d, unsigned int irq, unsigned long hw)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	uirq_spin_lock_irqsave(&desc->lock, flags);
	desc->irq_data.hwirq = hw;
	desc->irq_data.domain = d;
	/* A domain of one chip hands its lines the chip's data; a legacy line keeps its creator's. */
	if (d && !d->legacy)
		desc->irq_data.chip_data = d->chip_data;
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
}

int uirq_irq_domain_create_legacy(const char *name, unsigned int size, unsigned int first_irq,
				  unsigned long first_hwirq, const struct uirq_irq_domain_ops *ops,
				  void *host_data, struct uirq_irq_domain **out)
{
	struct uirq_irq_domain *d;
	int ret;

	*out = NULL;
	for (unsigned int i = 0; i < size; i++)
		if (!irq_to_desc(first_irq + i))
			return -EINVAL;
	/* revmap covers hwirq 0..first_hwirq + size - 1, as the kernel's legacy domain does. */
	ret = uirq_irq_domain_create_linear(name, (unsigned int)first_hwirq + size, ops, host_data, &d);
	if (ret)
		return ret;
	d->legacy = true;
	for (unsigned int i = 0; i < size; i++) {
		unsigned long hw = first_hwirq + i;

		associate(d, first_irq + i, hw);
		if (ops && ops->map && (ret = ops->map(d, first_irq + i, hw))) {
			associate(NULL, first_irq + i, 0);
			uirq_irq_domain_remove(d);
			return ret;
		}
		atomic_store_explicit(&d->revmap[hw], first_irq + i, memory_order_release);
	}
	*out = d;
	return 0;
}

void *uirq_irq_domain_get_host_data(struct uirq_irq_domain *d)
{
	return d ? d->host_data : NULL;
}

unsigned int uirq_irq_find_mapping(struct uirq_irq_domain *d, unsigned long hwirq)
{
	if (!d || hwirq >= d->size)
		return 0;
	return atomic_load_explicit(&d->revmap[hwirq], memory_order_acquire);
}

unsigned int uirq_irq_create_mapping(struct uirq_irq_domain *d, unsigned long hwirq)
{
	unsigned int irq;

	if (!d || hwirq >= d->size)
		return 0;
	uirq_mutex_lock(&d->lock);
	irq = atomic_load(&d->revmap[hwirq]);
	if (irq)
		goto out;
	int ret = uirq_irq_alloc_descs(-1, 1, 1);

	if (ret < 0)
		goto out;
	irq = (unsigned int)ret;
	associate(d, irq, hwirq);
	if (d->ops && d->ops->map) {
		if (d->ops->map(d, irq, hwirq)) {
			uirq_irq_free_descs(irq, 1);
			irq = 0;
			goto out;
		}
	} else {
		uirq_irq_set_chip_and_handler_name(irq, d->chip, d->handle, NULL);
	}
	atomic_store_explicit(&d->revmap[hwirq], irq, memory_order_release);
out:
	uirq_mutex_unlock(&d->lock);
	return irq;
}

void uirq_irq_domain_remove(struct uirq_irq_domain *d)
{
	if (!d)
		return;
	uirq_mutex_lock(&d->lock);
	for (unsigned int hw = 0; hw < d->size; hw++) {
		unsigned int irq = atomic_exchange(&d->revmap[hw], 0);

		if (!irq)
			continue;
		if (d->ops && d->ops->unmap)
			d->ops->unmap(d, irq);
		if (d->legacy)
			associate(NULL, irq, 0);
		else
			uirq_irq_free_descs(irq, 1);
	}
	uirq_mutex_unlock(&d->lock);
	uirq_mutex_destroy(&d->lock);
	free(d);
}

void uirq_irq_dispose_mapping(unsigned int virq)
{
	struct uirq_irq_desc *desc = irq_to_desc(virq);
	struct uirq_irq_domain *d;
	unsigned long hw;

	if (!desc || !(d = desc->irq_data.domain))
		return;
	hw = desc->irq_data.hwirq;
	uirq_mutex_lock(&d->lock);
	if (hw < d->size && atomic_load(&d->revmap[hw]) == virq) {
		atomic_store(&d->revmap[hw], 0);
		if (d->ops && d->ops->unmap)
			d->ops->unmap(d, virq);
		if (d->legacy)
			associate(NULL, virq, 0);
		else
			uirq_irq_free_descs(virq, 1);
	}
	uirq_mutex_unlock(&d->lock);
}
