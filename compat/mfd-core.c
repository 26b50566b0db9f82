// SPDX-License-Identifier: MIT
/*
 * Multi-function devices (drivers/mfd/mfd-core.c's behaviour): each cell
 * becomes a platform device under the chip's device.  The layer keeps
 * one list of the devices it made, in the order it made them: a chip's
 * children are removed newest first (the kernel walks the parent's
 * children in reverse), and a device-tree node given to one child is not
 * given to another.  The list is walked under its lock, but a device is
 * registered and unregistered without it: binding a child may add
 * devices of its own.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/irqdomain.h>
#include <linux/mfd/core.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>

struct mfd_child {
	struct device *parent;
	struct platform_device *pdev;
	struct device_node *np;		/* the node it was given, or NULL */
	struct mfd_child *next;
};

static DEFINE_MUTEX(mfd_lock);
static struct mfd_child *children;	/* newest first */

int mfd_cell_enable(struct platform_device *pdev)
{
	const struct mfd_cell *cell = mfd_get_cell(pdev);

	return cell && cell->enable ? cell->enable(pdev) : 0;
}

int mfd_cell_disable(struct platform_device *pdev)
{
	const struct mfd_cell *cell = mfd_get_cell(pdev);

	return cell && cell->disable ? cell->disable(pdev) : 0;
}

/* Whether np went to a device already.  mfd_lock held. */
static bool node_taken(const struct device_node *np)
{
	for (struct mfd_child *c = children; c; c = c->next)
		if (c->np == np)
			return true;
	return false;
}

/* The node's first address: "reg"'s first cells, as many as its parent's #address-cells (default 1). */
static bool first_reg(const struct device_node *np, u64 *addr)
{
	u32 cells = 1, hi, lo;

	if (np->parent)
		of_property_read_u32(np->parent, "#address-cells", &cells);
	if (cells == 2) {
		if (of_property_read_u32_index(np, "reg", 0, &hi) || of_property_read_u32_index(np, "reg", 1, &lo))
			return false;
		*addr = (u64)hi << 32 | lo;
		return true;
	}
	if (of_property_read_u32_index(np, "reg", 0, &lo))
		return false;
	*addr = lo;
	return true;
}

/*
 * The child of parent's node the cell is to get: the first available one
 * compatible with the cell, not given to another device (and at the
 * cell's address, with use_of_reg).  NULL with *disabled set when the
 * only compatible nodes are disabled.  mfd_lock held.
 */
static struct device_node *node_for(struct device *parent, const struct mfd_cell *cell, bool *disabled)
{
	struct device_node *np;
	u64 addr;

	*disabled = false;
	for_each_child_of_node(parent->of_node, np) {
		if (!of_device_is_compatible(np, cell->of_compatible))
			continue;
		if (!of_device_is_available(np)) {
			*disabled = true;
			continue;
		}
		if (node_taken(np))
			continue;
		if (cell->use_of_reg && (!first_reg(np, &addr) || addr != cell->of_reg))
			continue;
		return np;
	}
	return NULL;
}

/* The cell's resources, interrupts through the domain (or from irq_base), memory from mem_base. */
static void translate(const struct mfd_cell *cell, struct resource *res, struct resource *mem_base, int irq_base,
		     struct irq_domain *domain)
{
	for (unsigned int r = 0; r < cell->num_resources; r++) {
		const struct resource *in = &cell->resources[r];

		res[r] = *in;
		if ((in->flags & IORESOURCE_MEM) && mem_base) {
			res[r].start = mem_base->start + in->start;
			res[r].end = mem_base->start + in->end;
		} else if (in->flags & IORESOURCE_IRQ) {
			if (domain) {
				/* A domain maps one line at a time: a range cannot be translated. */
				if (in->start != in->end)
					pr_warn("%s: IRQ resource %u is a range: only its first line is mapped\n",
						cell->name, r);
				res[r].start = res[r].end = irq_create_mapping(domain, (unsigned long)in->start);
			} else {
				res[r].start = (resource_size_t)irq_base + in->start;
				res[r].end = (resource_size_t)irq_base + in->end;
			}
		}
	}
}

static void forget(struct mfd_child *entry)
{
	mutex_lock(&mfd_lock);
	for (struct mfd_child **pp = &children; *pp; pp = &(*pp)->next) {
		if (*pp == entry) {
			*pp = entry->next;
			break;
		}
	}
	mutex_unlock(&mfd_lock);
	free(entry);
}

static int mfd_add_device(struct device *parent, int id, const struct mfd_cell *cell, struct resource *mem_base,
			  int irq_base, struct irq_domain *domain)
{
	int platform_id = id == PLATFORM_DEVID_AUTO ? id : id + cell->id;
	struct platform_device *pdev;
	struct mfd_child *entry = NULL;
	struct resource *res = NULL;
	bool disabled = false;
	int ret = -ENOMEM;

	if (cell->swnode) {
		pr_err("%s: software nodes are not supported\n", cell->name);
		return -EINVAL;
	}
	pdev = platform_device_alloc(cell->name, platform_id);
	if (!pdev)
		return -ENOMEM;
	pdev->mfd_cell = kmemdup(cell, sizeof(*cell), GFP_KERNEL);
	res = calloc(cell->num_resources ? cell->num_resources : 1, sizeof(*res));
	entry = calloc(1, sizeof(*entry));
	if (!pdev->mfd_cell || !res || !entry)
		goto fail;
	pdev->dev.parent = parent;
	entry->parent = parent;
	entry->pdev = pdev;
	mutex_lock(&mfd_lock);
	if (parent->of_node && cell->of_compatible) {
		entry->np = node_for(parent, cell, &disabled);
		if (!entry->np && disabled) {
			/* Only disabled nodes for it: the cell is left out, without an error. */
			mutex_unlock(&mfd_lock);
			ret = 0;
			goto fail;
		}
		if (!entry->np)
			pr_warn("%s: Failed to locate of_node [id: %d]\n", cell->name, platform_id);
		pdev->dev.of_node = entry->np;
	}
	/* Listed before it is added: a node is claimed once, and the device is found if its bind adds more. */
	entry->next = children;
	children = entry;
	mutex_unlock(&mfd_lock);
	if (cell->pdata_size && (ret = platform_device_add_data(pdev, cell->platform_data, cell->pdata_size)))
		goto fail_listed;
	translate(cell, res, mem_base, irq_base, domain);
	ret = platform_device_add_resources(pdev, res, cell->num_resources);
	if (!ret)
		ret = platform_device_add(pdev);
	if (ret)
		goto fail_listed;
	free(res);
	return 0;

fail_listed:
	forget(entry);
	entry = NULL;
fail:
	free(entry);
	free(res);
	platform_device_put(pdev);
	return ret;
}

int mfd_add_devices(struct device *parent, int id, const struct mfd_cell *cells, int n_devs,
		    struct resource *mem_base, int irq_base, struct irq_domain *domain)
{
	for (int i = 0; i < n_devs; i++) {
		int ret = mfd_add_device(parent, id, cells + i, mem_base, irq_base, domain);

		if (ret) {
			if (i)
				mfd_remove_devices(parent);
			return ret;
		}
	}
	return 0;
}

/* Remove parent's devices whose cell level is at most level, newest first. */
static void remove_level(struct device *parent, int level)
{
	for (;;) {
		struct mfd_child *c, **pp;

		mutex_lock(&mfd_lock);
		for (pp = &children; (c = *pp); pp = &c->next)
			if (c->parent == parent && c->pdev->mfd_cell->level <= level)
				break;
		if (c)
			*pp = c->next;
		mutex_unlock(&mfd_lock);
		if (!c)
			return;
		platform_device_unregister(c->pdev);
		free(c);
	}
}

void mfd_remove_devices(struct device *parent)
{
	remove_level(parent, MFD_DEP_LEVEL_NORMAL);
}

void mfd_remove_devices_late(struct device *parent)
{
	remove_level(parent, MFD_DEP_LEVEL_HIGH);
}

static void devm_mfd_dev_release(struct device *dev, void *res)
{
	(void)res;
	mfd_remove_devices(dev);
}

int devm_mfd_add_devices(struct device *dev, int id, const struct mfd_cell *cells, int n_devs,
			 struct resource *mem_base, int irq_base, struct irq_domain *domain)
{
	struct device **ptr = devres_alloc(devm_mfd_dev_release, sizeof(*ptr), GFP_KERNEL);
	int ret;

	if (!ptr)
		return -ENOMEM;
	ret = mfd_add_devices(dev, id, cells, n_devs, mem_base, irq_base, domain);
	if (ret < 0) {
		devres_free(ptr);
		return ret;
	}
	*ptr = dev;
	devres_add(dev, ptr);
	return ret;
}
