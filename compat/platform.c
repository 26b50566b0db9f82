// SPDX-License-Identifier: MIT
/*
 * The platform bus (drivers/base/platform.c and dd.c's part): devices a
 * board registers, drivers modules register, bound when they match.
 *
 * A device matches a driver by its driver_override name, else by its
 * device-tree node against the driver's of_match_table, else by name in the
 * driver's id_table, else by the driver's name: the kernel's order.  A
 * probe runs without the bus lock (it may register devices of its own); a
 * failed probe's devm_*() resources are released and the error logged as
 * the kernel logs it (not for -ENODEV and -ENXIO: "not mine");
 * -EPROBE_DEFER parks the device until another driver binds, then every
 * parked device is tried again, as the kernel's deferred probe does.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/of.h>
#include <linux/platform_device.h>

const struct bus_type platform_bus_type = { .name = "platform" };

struct pdrv_node {
	struct platform_driver *drv;
	struct pdrv_node *next;
};

struct pdev_node {
	struct platform_device *pdev;
	bool deferred;
	bool probing;		/* a probe or remove of it is running */
	struct pdev_node *next;
};

static DEFINE_MUTEX(bus_lock);
static struct pdrv_node *drivers;	/* under bus_lock */
static struct pdev_node *devices;	/* under bus_lock, newest first */
static int auto_id;			/* PLATFORM_DEVID_AUTO's numbers */

/* The node of pdev, or NULL.  bus_lock held. */
static struct pdev_node *node_of(struct platform_device *pdev)
{
	for (struct pdev_node *n = devices; n; n = n->next)
		if (n->pdev == pdev)
			return n;
	return NULL;
}

static const struct platform_device_id *id_match(const struct platform_device_id *id, const char *name)
{
	for (; id && id->name[0]; id++)
		if (!strcmp(id->name, name))
			return id;
	return NULL;
}

/* Does drv drive pdev?  Sets pdev->id_entry for an id-table match. */
static bool matches(struct platform_device *pdev, struct platform_driver *drv)
{
	if (pdev->driver_override)
		return !strcmp(pdev->driver_override, drv->driver.name);
	if (pdev->dev.of_node && drv->driver.of_match_table &&
	    of_match_node(drv->driver.of_match_table, pdev->dev.of_node))
		return true;
	if (drv->id_table) {
		const struct platform_device_id *id = id_match(drv->id_table, pdev->name);

		pdev->id_entry = id;
		return id != NULL;
	}
	return !strcmp(pdev->name, drv->driver.name);
}

/* Probe pdev with drv; 0 bound, else the probe's error.  Neither lock held. */
static int really_probe(struct pdev_node *n, struct platform_driver *drv)
{
	struct platform_device *pdev = n->pdev;
	int ret;

	pdev->dev.driver = &drv->driver;
	ret = drv->probe ? drv->probe(pdev) : 0;
	if (!ret)
		return 0;
	devres_release_all(&pdev->dev);
	pdev->dev.driver = NULL;
	dev_set_drvdata(&pdev->dev, NULL);
	if (ret != -EPROBE_DEFER && ret != -ENODEV && ret != -ENXIO)
		pr_warn("%s: probe of %s failed with error %d\n", drv->driver.name, dev_name(&pdev->dev), ret);
	return ret;
}

static void retry_deferred(void);

/*
 * Find a driver for n (or, with only, try just that one) and probe it.
 * Takes and drops bus_lock; a device already being probed is left alone.
 */
static void try_bind(struct pdev_node *n, struct platform_driver *only)
{
	struct platform_driver *drv = NULL;

	mutex_lock(&bus_lock);
	if (n->probing || n->pdev->dev.driver) {
		mutex_unlock(&bus_lock);
		return;
	}
	for (struct pdrv_node *d = drivers; d && !drv; d = d->next)
		if ((!only || d->drv == only) && matches(n->pdev, d->drv))
			drv = d->drv;
	if (drv)
		n->probing = true;
	mutex_unlock(&bus_lock);
	if (!drv)
		return;
	int ret = really_probe(n, drv);

	mutex_lock(&bus_lock);
	n->probing = false;
	n->deferred = ret == -EPROBE_DEFER;
	mutex_unlock(&bus_lock);
	if (!ret)
		retry_deferred();
}

/* A driver bound somewhere: the parked devices may find their suppliers now. */
static void retry_deferred(void)
{
	for (;;) {
		struct pdev_node *n = NULL;

		mutex_lock(&bus_lock);
		for (struct pdev_node *i = devices; i && !n; i = i->next)
			if (i->deferred && !i->probing)
				n = i;
		if (n)
			n->deferred = false;
		mutex_unlock(&bus_lock);
		if (!n)
			return;
		try_bind(n, NULL);
		mutex_lock(&bus_lock);
		bool again = n->deferred;

		mutex_unlock(&bus_lock);
		if (again)
			return;	/* still waiting: nothing else bound meanwhile */
	}
}

/* Unbind n's driver: remove(), then its managed resources. */
static void unbind(struct pdev_node *n)
{
	struct platform_device *pdev = n->pdev;
	struct device_driver *d = pdev->dev.driver;

	if (!d)
		return;
	struct platform_driver *drv = to_platform_driver(d);

	if (drv->remove)
		drv->remove(pdev);
	devres_release_all(&pdev->dev);
	pdev->dev.driver = NULL;
	dev_set_drvdata(&pdev->dev, NULL);
}

/*
 * Offer drv every unbound device, oldest first as the kernel walks its bus.
 * The list is snapshot under the lock: drivers and devices come and go from
 * one thread at a time (the board's), so no node leaves meanwhile.
 */
static void bind_all(struct platform_driver *drv)
{
	struct pdev_node **snap;
	size_t n = 0;

	mutex_lock(&bus_lock);
	for (struct pdev_node *i = devices; i; i = i->next)
		n++;
	snap = calloc(n ? n : 1, sizeof(*snap));
	n = 0;
	for (struct pdev_node *i = devices; snap && i; i = i->next)
		snap[n++] = i;
	mutex_unlock(&bus_lock);
	if (!snap) {
		pr_err("uirq: %s: no memory to offer it the bus's devices\n", drv->driver.name);
		return;
	}
	while (n--)
		try_bind(snap[n], drv);
	free(snap);
}

int platform_driver_register(struct platform_driver *drv)
{
	struct pdrv_node *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->drv = drv;
	drv->driver.bus = &platform_bus_type;
	mutex_lock(&bus_lock);
	struct pdrv_node **pp = &drivers;

	while (*pp)
		pp = &(*pp)->next;
	*pp = d;	/* oldest first: an earlier driver wins a device two match */
	mutex_unlock(&bus_lock);
	bind_all(drv);
	return 0;
}

void platform_driver_unregister(struct platform_driver *drv)
{
	for (;;) {
		struct pdev_node *n = NULL;

		mutex_lock(&bus_lock);
		for (struct pdev_node *i = devices; i && !n; i = i->next)
			if (i->pdev->dev.driver == &drv->driver && !i->probing)
				n = i;
		if (n)
			n->probing = true;
		mutex_unlock(&bus_lock);
		if (!n)
			break;
		unbind(n);
		mutex_lock(&bus_lock);
		n->probing = false;
		mutex_unlock(&bus_lock);
	}
	mutex_lock(&bus_lock);
	for (struct pdrv_node **pp = &drivers; *pp; pp = &(*pp)->next) {
		if ((*pp)->drv == drv) {
			struct pdrv_node *d = *pp;

			*pp = d->next;
			free(d);
			break;
		}
	}
	mutex_unlock(&bus_lock);
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
	struct pdev_node *n = calloc(1, sizeof(*n));
	int ret;

	if (!n)
		return -ENOMEM;
	pdev->dev.bus = &platform_bus_type;
	mutex_lock(&bus_lock);
	if (pdev->id == PLATFORM_DEVID_AUTO)
		ret = dev_set_name(&pdev->dev, "%s.%d.auto", pdev->name, auto_id++);
	else if (pdev->id == PLATFORM_DEVID_NONE)
		ret = dev_set_name(&pdev->dev, "%s", pdev->name);
	else
		ret = dev_set_name(&pdev->dev, "%s.%d", pdev->name, pdev->id);
	if (!ret) {
		n->pdev = pdev;
		n->next = devices;
		devices = n;
	}
	mutex_unlock(&bus_lock);
	if (ret) {
		free(n);
		return ret;
	}
	try_bind(n, NULL);
	return 0;
}

void platform_device_del(struct platform_device *pdev)
{
	struct pdev_node *n;

	mutex_lock(&bus_lock);
	n = node_of(pdev);
	if (n)
		n->probing = true;
	mutex_unlock(&bus_lock);
	if (!n)
		return;
	unbind(n);
	mutex_lock(&bus_lock);
	for (struct pdev_node **pp = &devices; *pp; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			break;
		}
	}
	mutex_unlock(&bus_lock);
	free(n);
}

void platform_device_put(struct platform_device *pdev)
{
	if (!pdev || !pdev->uirq_allocated)
		return;
	free(pdev->resource);
	free(pdev->dev.platform_data);
	free(pdev->dev.uirq_name);
	mutex_destroy(&pdev->dev.uirq_devres_lock);
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

int platform_get_irq_optional(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);

	return r && r->start ? (int)r->start : -ENXIO;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	int ret = platform_get_irq_optional(pdev, num);

	if (ret < 0)
		dev_err(&pdev->dev, "IRQ index %u not found\n", num);
	return ret;
}

int platform_get_irq_byname(struct platform_device *pdev, const char *name)
{
	struct resource *r = platform_get_resource_byname(pdev, IORESOURCE_IRQ, name);

	if (!r || !r->start) {
		dev_err(&pdev->dev, "IRQ %s not found\n", name);
		return -ENXIO;
	}
	return (int)r->start;
}

int platform_irq_count(struct platform_device *pdev)
{
	int n = 0;

	while (platform_get_resource(pdev, IORESOURCE_IRQ, (unsigned int)n))
		n++;
	return n;
}
