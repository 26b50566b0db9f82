// SPDX-License-Identifier: MIT
/*
 * The platform bus (drivers/base/platform.c): devices a board registers
 * with their resources, drivers modules register, bound by bus.c when they
 * match: by the device's driver_override name, else its device-tree node
 * against the driver's of_match_table, else its name in the driver's
 * id_table, else the driver's name - the kernel's order.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include "base.h"

static const struct platform_device_id *id_match(const struct platform_device_id *id, const char *name)
{
	for (; id && id->name[0]; id++)
		if (!strcmp(id->name, name))
			return id;
	return NULL;
}

/* The kernel's order: driver_override, device tree, id table, driver name. */
static int platform_match(struct device *dev, struct device_driver *d)
{
	struct platform_device *pdev = to_platform_device(dev);
	struct platform_driver *drv = to_platform_driver(d);

	if (pdev->driver_override)
		return !strcmp(pdev->driver_override, d->name);
	if (dev->of_node && d->of_match_table && of_match_node(d->of_match_table, dev->of_node))
		return 1;
	if (drv->id_table) {
		const struct platform_device_id *id = id_match(drv->id_table, pdev->name);

		pdev->id_entry = id;
		return id != NULL;
	}
	return !strcmp(pdev->name, d->name);
}

static int platform_probe(struct device *dev)
{
	struct platform_driver *drv = to_platform_driver(dev->driver);

	return drv->probe ? drv->probe(to_platform_device(dev)) : 0;
}

static void platform_remove(struct device *dev)
{
	struct platform_driver *drv = to_platform_driver(dev->driver);

	if (drv->remove)
		drv->remove(to_platform_device(dev));
}

const struct bus_type platform_bus_type = {
	.name = "platform",
	.match = platform_match,
	.probe = platform_probe,
	.remove = platform_remove,
};

static DEFINE_MUTEX(names_lock);
static int auto_id;	/* PLATFORM_DEVID_AUTO's numbers, under names_lock */

int platform_driver_register(struct platform_driver *drv)
{
	drv->driver.bus = &platform_bus_type;
	return uirq_bus_add_driver(&drv->driver);
}

void platform_driver_unregister(struct platform_driver *drv)
{
	uirq_bus_del_driver(&drv->driver);
}

/* ---- devices ---- */

struct platform_object {
	struct platform_device pdev;
	char name[];
};

struct platform_device *platform_device_alloc(const char *name, int id)
{
	struct platform_object *o = calloc(1, sizeof(*o) + strlen(name) + 1);

	if (!o)
		return NULL;
	strcpy(o->name, name);
	o->pdev.name = o->name;
	o->pdev.id = id;
	device_initialize(&o->pdev.dev);
	o->pdev.uirq_allocated = true;
	return &o->pdev;
}

int platform_device_add_resources(struct platform_device *pdev, const struct resource *res, unsigned int num)
{
	struct resource *r = NULL;

	if (num) {
		r = calloc(num, sizeof(*r));
		if (!r)
			return -ENOMEM;
		memcpy(r, res, num * sizeof(*r));
	}
	free(pdev->resource);
	pdev->resource = r;
	pdev->num_resources = num;
	return 0;
}

int platform_device_add_data(struct platform_device *pdev, const void *data, size_t size)
{
	void *d = NULL;

	if (data) {
		d = malloc(size ? size : 1);
		if (!d)
			return -ENOMEM;
		memcpy(d, data, size);
	}
	free(pdev->dev.platform_data);
	pdev->dev.platform_data = d;
	return 0;
}

int platform_device_add(struct platform_device *pdev)
{
	int ret;

	pdev->dev.bus = &platform_bus_type;
	mutex_lock(&names_lock);
	if (pdev->id == PLATFORM_DEVID_AUTO)
		ret = dev_set_name(&pdev->dev, "%s.%d.auto", pdev->name, auto_id++);
	else if (pdev->id == PLATFORM_DEVID_NONE)
		ret = dev_set_name(&pdev->dev, "%s", pdev->name);
	else
		ret = dev_set_name(&pdev->dev, "%s.%d", pdev->name, pdev->id);
	mutex_unlock(&names_lock);
	return ret ? ret : uirq_bus_add_device(&pdev->dev);
}

void platform_device_del(struct platform_device *pdev)
{
	uirq_bus_del_device(&pdev->dev);
}

void platform_device_put(struct platform_device *pdev)
{
	if (!pdev || !pdev->uirq_allocated)
		return;
	/* The kernel's order: device_release() releases the managed resources before the platform data goes. */
	uirq_device_release(&pdev->dev);
	free(pdev->resource);
	free(pdev->dev.platform_data);
	free(pdev->mfd_cell);
	free(container_of(pdev, struct platform_object, pdev));
}

void platform_device_unregister(struct platform_device *pdev)
{
	platform_device_del(pdev);
	platform_device_put(pdev);
}

struct platform_device *platform_device_register_resndata(struct device *parent, const char *name, int id,
							  const struct resource *res, unsigned int num,
							  const void *data, size_t size)
{
	struct platform_device *pdev = platform_device_alloc(name, id);
	int ret;

	if (!pdev)
		return ERR_PTR(-ENOMEM);
	pdev->dev.parent = parent;
	ret = platform_device_add_resources(pdev, res, num);
	if (!ret)
		ret = platform_device_add_data(pdev, data, size);
	if (!ret)
		ret = platform_device_add(pdev);
	if (ret) {
		platform_device_put(pdev);
		return ERR_PTR(ret);
	}
	return pdev;
}

/* ---- resources ---- */

struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type, unsigned int num)
{
	for (u32 i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if (resource_type(r) == type && num-- == 0)
			return r;
	}
	return NULL;
}

struct resource *platform_get_resource_byname(struct platform_device *pdev, unsigned int type,
					      const char *name)
{
	for (u32 i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if (resource_type(r) == type && r->name && !strcmp(r->name, name))
			return r;
	}
	return NULL;
}

/*
 * An interrupt resource of 0 is 6.1's "0 is an invalid IRQ number": a
 * warning and -EINVAL, told apart from a missing one (-ENXIO).
 */
static int irq_of(const struct resource *r)
{
	if (!r)
		return -ENXIO;
	if (WARN(!r->start, "0 is an invalid IRQ number\n"))
		return -EINVAL;
	return (int)r->start;
}

int platform_get_irq_optional(struct platform_device *pdev, unsigned int num)
{
	return irq_of(platform_get_resource(pdev, IORESOURCE_IRQ, num));
}

/* 6.1 logs a failure through dev_err_probe(): "error -ENXIO: ...", nothing for a deferral. */
int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	int ret = platform_get_irq_optional(pdev, num);

	if (ret < 0)
		return dev_err_probe(&pdev->dev, ret, "IRQ index %u not found\n", num);
	return ret;
}

int platform_get_irq_byname(struct platform_device *pdev, const char *name)
{
	int ret = irq_of(platform_get_resource_byname(pdev, IORESOURCE_IRQ, name));

	if (ret < 0)
		return dev_err_probe(&pdev->dev, ret, "IRQ %s not found\n", name);
	return ret;
}

/* The kernel's count: the interrupts platform_get_irq_optional() gives, up to the first it refuses. */
int platform_irq_count(struct platform_device *pdev)
{
	int n = 0;

	while (platform_get_irq_optional(pdev, (unsigned int)n) >= 0)
		n++;
	return n;
}
