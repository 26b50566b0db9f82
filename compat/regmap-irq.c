// SPDX-License-Identifier: MIT
/*
 * An interrupt controller on a register map (drivers/base/regmap/
 * regmap-irq.c's behaviour).  The device's line gets one threaded
 * handler: it reads the status registers (one bulk read where the layout
 * allows), drops the masked bits, acks the rest at ack_base if the chip
 * has one (else reading cleared them), and runs each pending line's
 * handler nested in its own thread, in hwirq order.  The lines are a
 * linear domain of nested threaded lines behind a bus-locked chip: enable,
 * disable and set_type only change buffers, under the descriptor's
 * spinlock; the bus lock's sync_unlock writes them to the device over the
 * map - clearing a clear_on_unmask chip's status first, and relying on
 * regmap_update_bits() to write only what changed.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/regmap.h>

#include "regmap-internal.h"

struct regmap_irq_chip_data {
	struct mutex lock;		/* the bus lock: irq_bus_lock() to irq_bus_sync_unlock() */
	struct irq_chip irq_chip;

	struct regmap *map;
	const struct regmap_irq_chip *chip;

	int irq_base;
	struct irq_domain *domain;
	int irq;

	unsigned int mask_base;
	unsigned int unmask_base;

	void *status_reg_buf;		/* the bulk read's raw values */
	unsigned int *status_buf;
	unsigned int *mask_buf;		/* what the lines want: 1 = masked */
	unsigned int *mask_buf_def;	/* every bit some line owns */
	unsigned int *wake_buf;
	unsigned int *type_buf;		/* type_in_mask: the mask bits each line's trigger selects */

	unsigned int irq_reg_stride;
	unsigned int (*get_irq_reg)(struct regmap_irq_chip_data *data, unsigned int base, int index);

	bool clear_status;		/* an unmask of a clear_on_unmask chip is pending */
};

static const struct regmap_irq *irq_to_regmap_irq(struct regmap_irq_chip_data *d, unsigned long hwirq)
{
	return &d->chip->irqs[hwirq];
}

unsigned int regmap_irq_get_irq_reg_linear(struct regmap_irq_chip_data *data, unsigned int base, int index)
{
	return base + (unsigned int)index * data->map->reg_stride * data->irq_reg_stride;
}

/* One transfer for all the status registers, when they are consecutive on the map. */
static bool can_bulk_read_status(struct regmap_irq_chip_data *d)
{
	return d->irq_reg_stride == 1 && d->map->reg_stride == 1 &&
	       d->get_irq_reg == regmap_irq_get_irq_reg_linear && !d->map->use_single_read;
}

/* ---- the chip: callbacks under the descriptor lock change buffers only ---- */

static void regmap_irq_lock(struct irq_data *data)
{
	struct regmap_irq_chip_data *d = irq_data_get_irq_chip_data(data);

	mutex_lock(&d->lock);
}

/* Ack the bits of buf at the chip's ack register i (written inverted, and cleared after, as the chip says). */
static int ack(struct regmap_irq_chip_data *d, int i, unsigned int bits)
{
	const struct regmap_irq_chip *chip = d->chip;
	unsigned int reg = d->get_irq_reg(d, chip->ack_base, i);
	int ret = regmap_write(d->map, reg, chip->ack_invert ? ~bits : bits);

	if (chip->clear_ack && !ret)
		ret = regmap_write(d->map, reg, chip->ack_invert ? UINT_MAX : 0);
	if (ret)
		dev_err(d->map->dev, "Failed to ack 0x%x: %d\n", reg, ret);
	return ret;
}

static void regmap_irq_sync_unlock(struct irq_data *data)
{
	struct regmap_irq_chip_data *d = irq_data_get_irq_chip_data(data);
	const struct regmap_irq_chip *chip = d->chip;
	struct regmap *map = d->map;
	unsigned int reg, val;

	/* A line is being unmasked: what the chip latched while it was masked is stale, read it away. */
	if (d->clear_status) {
		for (int i = 0; i < chip->num_regs; i++)
			if (regmap_read(map, d->get_irq_reg(d, chip->status_base, i), &val))
				dev_err(map->dev, "Failed to clear the interrupt status bits\n");
		d->clear_status = false;
	}
	for (int i = 0; i < chip->num_regs; i++) {
		if (d->mask_base) {
			reg = d->get_irq_reg(d, d->mask_base, i);
			if (regmap_update_bits(map, reg, d->mask_buf_def[i], d->mask_buf[i]))
				dev_err(map->dev, "Failed to sync masks in %x\n", reg);
		}
		if (d->unmask_base) {
			reg = d->get_irq_reg(d, d->unmask_base, i);
			if (regmap_update_bits(map, reg, d->mask_buf_def[i], ~d->mask_buf[i]))
				dev_err(map->dev, "Failed to sync masks in %x\n", reg);
		}
		if (d->wake_buf) {
			reg = d->get_irq_reg(d, chip->wake_base, i);
			if (regmap_update_bits(map, reg, d->mask_buf_def[i],
					       chip->wake_invert ? ~d->wake_buf[i] : d->wake_buf[i]))
				dev_err(map->dev, "Failed to sync wakes in %x\n", reg);
		}
		/* Masked interrupts are acked at once: one left pending is never handled, a storm. */
		if (chip->init_ack_masked && d->mask_buf[i] && (chip->ack_base || chip->use_ack))
			ack(d, i, d->mask_buf[i]);
	}
	mutex_unlock(&d->lock);
}

static void regmap_irq_enable(struct irq_data *data)
{
	struct regmap_irq_chip_data *d = irq_data_get_irq_chip_data(data);
	const struct regmap_irq *irq = irq_to_regmap_irq(d, data->hwirq);
	unsigned int reg = irq->reg_offset / d->map->reg_stride;
	unsigned int mask = irq->mask;

	/* type_in_mask: a line's bits are one per trigger; unmask those its type selected. */
	if (d->chip->type_in_mask && irq->type.types_supported)
		mask = d->type_buf[reg] & irq->mask;
	if (d->chip->clear_on_unmask)
		d->clear_status = true;
	d->mask_buf[reg] &= ~mask;
}

static void regmap_irq_disable(struct irq_data *data)
{
	struct regmap_irq_chip_data *d = irq_data_get_irq_chip_data(data);
	const struct regmap_irq *irq = irq_to_regmap_irq(d, data->hwirq);

	d->mask_buf[irq->reg_offset / d->map->reg_stride] |= irq->mask;
}

static int regmap_irq_set_type(struct irq_data *data, unsigned int type)
{
	struct regmap_irq_chip_data *d = irq_data_get_irq_chip_data(data);
	const struct regmap_irq_type *t = &irq_to_regmap_irq(d, data->hwirq)->type;
	unsigned int reg = t->type_reg_offset / d->map->reg_stride;

	/* A type the line does not know is accepted and changes nothing, as the kernel's. */
	if ((t->types_supported & type) != type || !d->type_buf)
		return 0;
	if (t->type_reg_mask)
		d->type_buf[reg] &= ~t->type_reg_mask;
	else
		d->type_buf[reg] &= ~(t->type_falling_val | t->type_rising_val | t->type_level_low_val |
				      t->type_level_high_val);
	switch (type) {
	case IRQ_TYPE_EDGE_FALLING:
		d->type_buf[reg] |= t->type_falling_val;
		break;
	case IRQ_TYPE_EDGE_RISING:
		d->type_buf[reg] |= t->type_rising_val;
		break;
	case IRQ_TYPE_EDGE_BOTH:
		d->type_buf[reg] |= t->type_falling_val | t->type_rising_val;
		break;
	case IRQ_TYPE_LEVEL_HIGH:
		d->type_buf[reg] |= t->type_level_high_val;
		break;
	case IRQ_TYPE_LEVEL_LOW:
		d->type_buf[reg] |= t->type_level_low_val;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static const struct irq_chip regmap_irq_chip = {
	.irq_bus_lock = regmap_irq_lock,
	.irq_bus_sync_unlock = regmap_irq_sync_unlock,
	.irq_disable = regmap_irq_disable,
	.irq_enable = regmap_irq_enable,
	.irq_set_type = regmap_irq_set_type,
};

/* ---- the demultiplexer: the device line's thread ---- */

static int read_status(struct regmap_irq_chip_data *d)
{
	const struct regmap_irq_chip *chip = d->chip;
	struct regmap *map = d->map;
	int ret;

	if (can_bulk_read_status(d)) {
		ret = regmap_bulk_read(map, chip->status_base, d->status_reg_buf, (size_t)chip->num_regs);
		if (ret) {
			dev_err(map->dev, "Failed to read IRQ status: %d\n", ret);
			return ret;
		}
		for (int i = 0; i < chip->num_regs; i++) {
			const u8 *p = (const u8 *)d->status_reg_buf + (size_t)i * map->val_bytes;

			if (map->val_bytes == 1)
				d->status_buf[i] = *p;
			else if (map->val_bytes == 2)
				d->status_buf[i] = *(const u16 *)(const void *)p;
			else
				d->status_buf[i] = *(const u32 *)(const void *)p;
		}
		return 0;
	}
	for (int i = 0; i < chip->num_regs; i++) {
		ret = regmap_read(map, d->get_irq_reg(d, chip->status_base, i), &d->status_buf[i]);
		if (ret) {
			dev_err(map->dev, "Failed to read IRQ status: %d\n", ret);
			return ret;
		}
	}
	return 0;
}

static irqreturn_t regmap_irq_thread(int irq, void *data)
{
	struct regmap_irq_chip_data *d = data;
	const struct regmap_irq_chip *chip = d->chip;
	bool handled = false;

	(void)irq;
	if (chip->handle_pre_irq)
		chip->handle_pre_irq(chip->irq_drv_data);
	if (read_status(d))
		goto exit;
	for (int i = 0; i < chip->num_regs; i++) {
		if (chip->status_invert)
			d->status_buf[i] = ~d->status_buf[i];
		/* Masked lines are not ours to run; ack early, so no new event is lost behind the ack. */
		d->status_buf[i] &= ~d->mask_buf[i];
		if (d->status_buf[i] && (chip->ack_base || chip->use_ack))
			ack(d, i, d->status_buf[i]);
	}
	for (int i = 0; i < chip->num_irqs; i++) {
		const struct regmap_irq *r = &chip->irqs[i];

		if (d->status_buf[r->reg_offset / d->map->reg_stride] & r->mask) {
			handle_nested_irq(irq_find_mapping(d->domain, (unsigned long)i));
			handled = true;
		}
	}
exit:
	if (chip->handle_post_irq)
		chip->handle_post_irq(chip->irq_drv_data);
	return handled ? IRQ_HANDLED : IRQ_NONE;
}

/* ---- the domain ---- */

static int regmap_irq_map(struct irq_domain *h, unsigned int virq, unsigned long hw)
{
	struct regmap_irq_chip_data *d = irq_domain_get_host_data(h);

	(void)hw;
	irq_set_chip_data(virq, d);
	irq_set_chip(virq, &d->irq_chip);
	irq_set_nested_thread(virq, 1);
	irq_set_parent(virq, d->irq);
	irq_set_noprobe(virq);
	return 0;
}

static const struct irq_domain_ops regmap_domain_ops = {
	.map = regmap_irq_map,
};

/* ---- creation and removal ---- */

/* What this layer cannot honour in chip, named, or NULL. */
static const char *unsupported(const struct regmap_irq_chip *chip)
{
	if (chip->num_main_regs || chip->sub_reg_offsets)
		return "main status registers";
	if (chip->not_fixed_stride)
		return "not_fixed_stride";
	if (chip->num_type_reg || chip->type_base)
		return "type registers";
	if (chip->num_virt_regs || chip->virt_reg_base || chip->set_type_virt)
		return "virtual registers";
	if (chip->num_config_bases || chip->num_config_regs || chip->config_base || chip->set_type_config)
		return "config registers";
	return NULL;
}

static void free_data(struct regmap_irq_chip_data *d)
{
	free(d->status_reg_buf);
	free(d->status_buf);
	free(d->mask_buf);
	free(d->mask_buf_def);
	free(d->wake_buf);
	free(d->type_buf);
	free(d);
}

static int check_chip(struct regmap *map, const struct regmap_irq_chip *chip)
{
	const char *why = unsupported(chip);

	if (why) {
		dev_err(map->dev, "regmap-irq %s: %s: not supported\n", chip->name ? chip->name : "", why);
		return -EINVAL;
	}
	if (chip->num_regs <= 0 || !chip->irqs || chip->num_irqs <= 0)
		return -EINVAL;
	if (chip->clear_on_unmask && (chip->ack_base || chip->use_ack))
		return -EINVAL;
	for (int i = 0; i < chip->num_irqs; i++) {
		if (chip->irqs[i].reg_offset % map->reg_stride)
			return -EINVAL;
		if (chip->irqs[i].reg_offset / map->reg_stride >= (unsigned int)chip->num_regs)
			return -EINVAL;
	}
	return 0;
}

static struct regmap_irq_chip_data *alloc_data(struct regmap *map, const struct regmap_irq_chip *chip)
{
	struct regmap_irq_chip_data *d = calloc(1, sizeof(*d));
	size_t n = (size_t)chip->num_regs;

	if (!d)
		return NULL;
	d->status_buf = calloc(n, sizeof(unsigned int));
	d->mask_buf = calloc(n, sizeof(unsigned int));
	d->mask_buf_def = calloc(n, sizeof(unsigned int));
	d->status_reg_buf = calloc(n, map->val_bytes);
	if (chip->wake_base)
		d->wake_buf = calloc(n, sizeof(unsigned int));
	if (chip->type_in_mask)
		d->type_buf = calloc(n, sizeof(unsigned int));
	if (!d->status_buf || !d->mask_buf || !d->mask_buf_def || !d->status_reg_buf ||
	    (chip->wake_base && !d->wake_buf) || (chip->type_in_mask && !d->type_buf)) {
		free_data(d);
		return NULL;
	}
	return d;
}

/* The mask register roles; a deprecated inversion swaps them, with the kernel's warnings. */
static void mask_roles(struct regmap_irq_chip_data *d)
{
	const struct regmap_irq_chip *chip = d->chip;

	if (chip->mask_base && chip->unmask_base && !chip->mask_unmask_non_inverted) {
		dev_warn(d->map->dev, "mask_base and unmask_base are inverted, please fix it");
		if (chip->mask_invert)
			dev_warn(d->map->dev, "mask_invert=true ignored");
		d->mask_base = chip->unmask_base;
		d->unmask_base = chip->mask_base;
	} else if (chip->mask_invert) {
		dev_warn(d->map->dev, "mask_invert=true is deprecated; please switch to unmask_base");
		d->mask_base = chip->unmask_base;
		d->unmask_base = chip->mask_base;
	} else {
		d->mask_base = chip->mask_base;
		d->unmask_base = chip->unmask_base;
	}
}

/* Every interrupt masked; what a chip with init_ack_masked has pending read (and acked) away. */
static int init_hw(struct regmap_irq_chip_data *d)
{
	const struct regmap_irq_chip *chip = d->chip;
	struct regmap *map = d->map;
	unsigned int reg;
	int ret;

	for (int i = 0; i < chip->num_irqs; i++)
		d->mask_buf_def[chip->irqs[i].reg_offset / map->reg_stride] |= chip->irqs[i].mask;
	for (int i = 0; i < chip->num_regs; i++) {
		d->mask_buf[i] = d->mask_buf_def[i];
		if (d->mask_base) {
			reg = d->get_irq_reg(d, d->mask_base, i);
			ret = regmap_update_bits(map, reg, d->mask_buf_def[i], d->mask_buf[i]);
			if (ret) {
				dev_err(map->dev, "Failed to set masks in 0x%x: %d\n", reg, ret);
				return ret;
			}
		}
		if (d->unmask_base) {
			reg = d->get_irq_reg(d, d->unmask_base, i);
			ret = regmap_update_bits(map, reg, d->mask_buf_def[i], ~d->mask_buf[i]);
			if (ret) {
				dev_err(map->dev, "Failed to set masks in 0x%x: %d\n", reg, ret);
				return ret;
			}
		}
		if (!chip->init_ack_masked)
			continue;
		reg = d->get_irq_reg(d, chip->status_base, i);
		ret = regmap_read(map, reg, &d->status_buf[i]);
		if (ret) {
			dev_err(map->dev, "Failed to read IRQ status: %d\n", ret);
			return ret;
		}
		if (chip->status_invert)
			d->status_buf[i] = ~d->status_buf[i];
		if (d->status_buf[i] && (chip->ack_base || chip->use_ack)) {
			ret = ack(d, i, d->status_buf[i] & d->mask_buf[i]);
			if (ret)
				return ret;
		}
	}
	/* Wake is off by default. */
	for (int i = 0; d->wake_buf && i < chip->num_regs; i++) {
		d->wake_buf[i] = d->mask_buf_def[i];
		reg = d->get_irq_reg(d, chip->wake_base, i);
		ret = regmap_update_bits(map, reg, d->mask_buf_def[i], chip->wake_invert ? 0 : d->wake_buf[i]);
		if (ret) {
			dev_err(map->dev, "Failed to set masks in 0x%x: %d\n", reg, ret);
			return ret;
		}
	}
	return 0;
}

static int create_domain(struct regmap_irq_chip_data *d)
{
	const struct regmap_irq_chip *chip = d->chip;
	int ret;

	if (d->irq_base)
		ret = uirq_irq_domain_create_legacy(chip->name, (unsigned int)chip->num_irqs, (unsigned int)d->irq_base,
						    0, &regmap_domain_ops, d, &d->domain);
	else
		ret = uirq_irq_domain_create_linear(chip->name, (unsigned int)chip->num_irqs, &regmap_domain_ops, d,
						    &d->domain);
	if (ret) {
		dev_err(d->map->dev, "Failed to create IRQ domain\n");
		d->domain = NULL;
	}
	return ret;
}

int regmap_add_irq_chip(struct regmap *map, int irq, int irq_flags, int irq_base,
			const struct regmap_irq_chip *chip, struct regmap_irq_chip_data **data)
{
	struct regmap_irq_chip_data *d;
	int ret = check_chip(map, chip);

	if (ret)
		return ret;
	if (irq_base) {
		irq_base = irq_alloc_descs(irq_base, 0, (unsigned int)chip->num_irqs, 0);
		if (irq_base < 0) {
			dev_warn(map->dev, "Failed to allocate IRQs: %d\n", irq_base);
			return irq_base;
		}
	}
	d = alloc_data(map, chip);
	if (!d) {
		ret = -ENOMEM;
		goto err_descs;
	}
	d->irq_chip = regmap_irq_chip;
	d->irq_chip.name = chip->name;
	d->irq = irq;
	d->map = map;
	d->chip = chip;
	d->irq_base = irq_base;
	d->irq_reg_stride = chip->irq_reg_stride ? chip->irq_reg_stride : 1;
	d->get_irq_reg = chip->get_irq_reg ? chip->get_irq_reg : regmap_irq_get_irq_reg_linear;
	mask_roles(d);
	mutex_init(&d->lock);
	ret = init_hw(d);
	if (!ret)
		ret = create_domain(d);
	if (ret)
		goto err_data;
	ret = request_threaded_irq((unsigned int)irq, NULL, regmap_irq_thread, (unsigned long)irq_flags | IRQF_ONESHOT,
				   chip->name, d);
	if (ret) {
		dev_err(map->dev, "Failed to request IRQ %d for %s: %d\n", irq, chip->name, ret);
		irq_domain_remove(d->domain);
		goto err_data;
	}
	*data = d;
	return 0;

err_data:
	mutex_destroy(&d->lock);
	free_data(d);
err_descs:
	if (irq_base > 0)
		irq_free_descs((unsigned int)irq_base, (unsigned int)chip->num_irqs);
	return ret;
}

void regmap_del_irq_chip(int irq, struct regmap_irq_chip_data *d)
{
	if (!d)
		return;
	free_irq((unsigned int)irq, d);
	for (int hwirq = 0; hwirq < d->chip->num_irqs; hwirq++) {
		unsigned int virq;

		/* Holes in the list were never lines. */
		if (!d->chip->irqs[hwirq].mask)
			continue;
		virq = irq_find_mapping(d->domain, (unsigned long)hwirq);
		if (virq)
			irq_dispose_mapping(virq);
	}
	irq_domain_remove(d->domain);
	/* A legacy domain's lines are the chip's descriptors: they go with it, as the kernel frees them. */
	if (d->irq_base > 0)
		irq_free_descs((unsigned int)d->irq_base, (unsigned int)d->chip->num_irqs);
	mutex_destroy(&d->lock);
	free_data(d);
}

static void devm_regmap_irq_chip_release(struct device *dev, void *res)
{
	struct regmap_irq_chip_data *d = *(struct regmap_irq_chip_data **)res;

	(void)dev;
	regmap_del_irq_chip(d->irq, d);
}

static int devm_regmap_irq_chip_match(struct device *dev, void *res, void *data)
{
	(void)dev;
	return *(struct regmap_irq_chip_data **)res == data;
}

int devm_regmap_add_irq_chip(struct device *dev, struct regmap *map, int irq, int irq_flags, int irq_base,
			     const struct regmap_irq_chip *chip, struct regmap_irq_chip_data **data)
{
	struct regmap_irq_chip_data **ptr = devres_alloc(devm_regmap_irq_chip_release, sizeof(*ptr), GFP_KERNEL);
	struct regmap_irq_chip_data *d;
	int ret;

	if (!ptr)
		return -ENOMEM;
	ret = regmap_add_irq_chip(map, irq, irq_flags, irq_base, chip, &d);
	if (ret < 0) {
		devres_free(ptr);
		return ret;
	}
	*ptr = d;
	devres_add(dev, ptr);
	*data = d;
	return 0;
}

void devm_regmap_del_irq_chip(struct device *dev, int irq, struct regmap_irq_chip_data *data)
{
	if (irq != data->irq)
		dev_warn(dev, "devm_regmap_del_irq_chip: irq %d is not the chip's (%d)\n", irq, data->irq);
	if (devres_release(dev, devm_regmap_irq_chip_release, devm_regmap_irq_chip_match, data))
		dev_warn(dev, "devm_regmap_del_irq_chip: the chip was not added with devm_regmap_add_irq_chip()\n");
}

int regmap_irq_get_virq(struct regmap_irq_chip_data *data, int irq)
{
	/* A hole in the list has no line. */
	if (irq < 0 || irq >= data->chip->num_irqs || !data->chip->irqs[irq].mask)
		return -EINVAL;
	return (int)irq_create_mapping(data->domain, (unsigned long)irq);
}

struct irq_domain *regmap_irq_get_domain(struct regmap_irq_chip_data *data)
{
	return data ? data->domain : NULL;
}

int regmap_irq_chip_get_base(struct regmap_irq_chip_data *data)
{
	if (!data->irq_base)
		dev_warn(data->map->dev, "regmap_irq_chip_get_base: the chip's lines have no fixed base\n");
	return data->irq_base;
}
