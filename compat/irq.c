// SPDX-License-Identifier: MIT
/*
 * genirq as drivers see it, where a kernel name is an object or needs a
 * device: the do-nothing chips, the simple domain ops, and the managed
 * requests (kernel/irq/devres.c) that free their line when the driver
 * unbinds.
 */
#include <stdlib.h>

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>

static unsigned int noop_ret(struct irq_data *d)
{
	(void)d;
	return 0;
}

static void noop(struct irq_data *d)
{
	(void)d;
}

/* The kernel's dummy_irq_chip: every callback succeeds doing nothing. */
struct irq_chip dummy_irq_chip = {
	.name = "dummy",
	.irq_startup = noop_ret,
	.irq_shutdown = noop,
	.irq_enable = noop,
	.irq_disable = noop,
	.irq_ack = noop,
	.irq_mask = noop,
	.irq_unmask = noop,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

/* The kernel's no_irq_chip: for a line with no controller; acks and enables do nothing. */
struct irq_chip no_irq_chip = {
	.name = "none",
	.irq_startup = noop_ret,
	.irq_shutdown = noop,
	.irq_enable = noop,
	.irq_disable = noop,
	.irq_ack = noop,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

const struct irq_domain_ops irq_domain_simple_ops = { 0 };

struct irq_devres {
	unsigned int irq;
	void *dev_id;
};

static void devm_irq_release(struct device *dev, void *res)
{
	struct irq_devres *r = res;

	(void)dev;
	free_irq(r->irq, r->dev_id);
}

/* Record the request just made: freed at unbind; on no memory, freed now. */
static int devm_irq_record(struct device *dev, unsigned int irq, void *dev_id)
{
	struct irq_devres *r = devres_alloc(devm_irq_release, sizeof(*r), GFP_KERNEL);

	if (!r) {
		free_irq(irq, dev_id);
		return -ENOMEM;
	}
	r->irq = irq;
	r->dev_id = dev_id;
	devres_add(dev, r);
	return 0;
}

int devm_request_threaded_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			      irq_handler_t thread_fn, unsigned long irqflags, const char *devname,
			      void *dev_id)
{
	int ret = request_threaded_irq(irq, handler, thread_fn, irqflags, devname ? devname : dev_name(dev),
				       dev_id);

	if (ret) {
		dev_err(dev, "error %d: failed to request IRQ %u\n", ret, irq);
		return ret;
	}
	return devm_irq_record(dev, irq, dev_id);
}

int devm_request_any_context_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
				 unsigned long irqflags, const char *devname, void *dev_id)
{
	int ret = request_any_context_irq(irq, handler, irqflags, devname ? devname : dev_name(dev), dev_id);

	if (ret < 0) {
		dev_err(dev, "error %d: failed to request IRQ %u\n", ret, irq);
		return ret;
	}
	int err = devm_irq_record(dev, irq, dev_id);

	return err ? err : ret;
}

static int devm_irq_match(struct device *dev, void *res, void *data)
{
	struct irq_devres *r = res, *key = data;

	(void)dev;
	return r->irq == key->irq && r->dev_id == key->dev_id;
}

void devm_free_irq(struct device *dev, unsigned int irq, void *dev_id)
{
	struct irq_devres key = { irq, dev_id };

	if (devres_release(dev, devm_irq_release, devm_irq_match, &key))
		dev_warn(dev, "devm_free_irq: irq %u was not requested with devm_request_threaded_irq()\n", irq);
}
