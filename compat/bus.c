// SPDX-License-Identifier: MIT
/*
 * Devices and drivers on buses, bound when the bus says they match
 * (drivers/base/bus.c and dd.c's part): the platform and i2c buses add
 * theirs here and supply match(), probe() and remove().
 *
 * A probe runs without the bus lock (it may add devices of its own, as an
 * MFD adds its children).  A failed probe's devm_*() resources are
 * released and the error logged as the kernel logs it (not for -ENODEV and
 * -ENXIO: "not mine"); -EPROBE_DEFER parks the device until another driver
 * binds, then every parked device is tried again, as the kernel's deferred
 * probe does: a bind marks each parked device, one walk retries them all
 * (oldest first) and goes on while binds mark more; a device whose probe
 * deferred while a bind happened elsewhere is marked again (the kernel's
 * deferred_trigger_count), so no supplier's arrival is missed.  Drivers
 * and devices come and go from one thread at a time (the board's), as a
 * board file registers them: a node does not leave while another call
 * walks the lists.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/sysfs.h>

#include "base.h"

struct dev_node {
	struct device *dev;
	bool deferred;
	bool retry;		/* parked when a driver bound: to be tried again */
	bool busy;		/* a probe or remove of it is running */
	struct dev_node *next;
};

struct drv_node {
	struct device_driver *drv;
	struct drv_node *next;
};

static DEFINE_MUTEX(bus_lock);
static struct dev_node *devices;	/* newest first */
static struct drv_node *drivers;	/* oldest first: the first registered wins a device two match */
static unsigned int triggers;		/* binds so far, under bus_lock */
static bool retrying;			/* a walk of the parked devices runs, under bus_lock */

/* The node of dev, or NULL.  bus_lock held. */
static struct dev_node *node_of(struct device *dev)
{
	for (struct dev_node *n = devices; n; n = n->next)
		if (n->dev == dev)
			return n;
	return NULL;
}

static bool matches(struct device *dev, struct device_driver *drv)
{
	return dev->bus == drv->bus && (!drv->bus->match || drv->bus->match(dev, drv));
}

static void remove_groups(struct device *dev, const struct attribute_group **groups)
{
	for (size_t i = 0; groups && groups[i]; i++)
		device_remove_group(dev, groups[i]);
}

/* Every group, or none: 0 or the failing one's error. */
static int add_groups(struct device *dev, const struct attribute_group **groups)
{
	for (size_t i = 0; groups[i]; i++) {
		int ret = device_add_group(dev, groups[i]);

		if (ret) {
			while (i--)
				device_remove_group(dev, groups[i]);
			return ret;
		}
	}
	return 0;
}

/* Probe dev with drv; 0 bound, else the probe's error.  bus_lock not held. */
static int really_probe(struct device *dev, struct device_driver *drv)
{
	int ret;

	dev->driver = drv;
	ret = drv->bus->probe ? drv->bus->probe(dev) : 0;
	/* The driver's attribute groups come once its probe succeeded, as the kernel's really_probe() adds them. */
	if (!ret && drv->dev_groups) {
		ret = add_groups(dev, drv->dev_groups);
		if (!ret)
			return 0;
		dev_err(dev, "device_add_groups() failed\n");
		if (dev->bus->remove)
			dev->bus->remove(dev);
	}
	if (!ret)
		return 0;
	devres_release_all(dev);
	dev->driver = NULL;
	dev_set_drvdata(dev, NULL);
	if (ret != -EPROBE_DEFER && ret != -ENODEV && ret != -ENXIO)
		pr_warn("%s: probe of %s failed with error %d\n", drv->name, dev_name(dev), ret);
	return ret;
}

static void retry_deferred(void);

/* Find a driver for n (only: that one) and probe it. */
static void try_bind(struct dev_node *n, struct device_driver *only)
{
	struct device_driver *drv = NULL;
	unsigned int seen;

	mutex_lock(&bus_lock);
	if (n->busy || n->dev->driver) {
		mutex_unlock(&bus_lock);
		return;
	}
	for (struct drv_node *d = drivers; d && !drv; d = d->next)
		if ((!only || d->drv == only) && matches(n->dev, d->drv))
			drv = d->drv;
	n->busy = drv != NULL;
	seen = triggers;
	mutex_unlock(&bus_lock);
	if (!drv)
		return;
	int ret = really_probe(n->dev, drv);
	bool again;

	mutex_lock(&bus_lock);
	n->busy = false;
	n->deferred = ret == -EPROBE_DEFER;
	/* A bind while this probe ran may have been what it waited for. */
	again = n->retry = n->deferred && seen != triggers;
	mutex_unlock(&bus_lock);
	if (!ret || again)
		retry_deferred();
}

/* The oldest device marked for a retry and not being probed, unmarked; NULL if none.  bus_lock held. */
static struct dev_node *next_retry(void)
{
	struct dev_node *n = NULL;

	for (struct dev_node *i = devices; i; i = i->next)	/* newest first: the last match is the oldest */
		if (i->retry && !i->busy)
			n = i;
	if (n)
		n->retry = n->deferred = false;
	return n;
}

/*
 * A driver bound somewhere: every parked device may find its supplier
 * now.  A bind during the walk marks the devices parked by then; a walk
 * already running (further up this thread's stack, or on another thread)
 * takes them, so walks do not nest.  Each node is looked up again after
 * every probe: a probe may delete devices (an MFD's failed children).
 */
static void retry_deferred(void)
{
	struct dev_node *n;

	mutex_lock(&bus_lock);
	triggers++;
	for (struct dev_node *i = devices; i; i = i->next)
		if (i->deferred)
			i->retry = true;
	if (retrying) {
		mutex_unlock(&bus_lock);
		return;
	}
	retrying = true;
	while ((n = next_retry())) {
		mutex_unlock(&bus_lock);
		try_bind(n, NULL);
		mutex_lock(&bus_lock);
	}
	retrying = false;
	mutex_unlock(&bus_lock);
}

/* Unbind n's driver: remove(), then its managed resources. */
static void unbind(struct dev_node *n)
{
	struct device *dev = n->dev;

	if (!dev->driver)
		return;
	/* The groups go first, so no show() or store() runs into the driver's remove (the kernel's order). */
	remove_groups(dev, dev->driver->dev_groups);
	if (dev->bus->remove)
		dev->bus->remove(dev);
	devres_release_all(dev);
	dev->driver = NULL;
	dev_set_drvdata(dev, NULL);
}

int uirq_bus_add_device(struct device *dev)
{
	struct dev_node *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	n->dev = dev;
	mutex_lock(&bus_lock);
	n->next = devices;
	devices = n;
	mutex_unlock(&bus_lock);
	try_bind(n, NULL);
	return 0;
}

void uirq_bus_del_device(struct device *dev)
{
	struct dev_node *n;

	mutex_lock(&bus_lock);
	n = node_of(dev);
	if (n)
		n->busy = true;
	mutex_unlock(&bus_lock);
	if (!n)
		return;
	unbind(n);
	mutex_lock(&bus_lock);
	for (struct dev_node **pp = &devices; *pp; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			break;
		}
	}
	mutex_unlock(&bus_lock);
	free(n);
}

struct device *bus_find_device_by_name(const struct bus_type *bus, struct device *start, const char *name)
{
	struct device *found = NULL;

	/* The list is newest first: the devices after start are those before it here; the first of them is the last seen. */
	mutex_lock(&bus_lock);
	for (struct dev_node *n = devices; n && n->dev != start; n = n->next)
		if (n->dev->bus == bus && !strcmp(dev_name(n->dev), name))
			found = n->dev;
	mutex_unlock(&bus_lock);
	return found;
}

int uirq_bus_add_driver(struct device_driver *drv)
{
	struct drv_node *d = calloc(1, sizeof(*d)), **pp;
	struct dev_node **snap;
	size_t n = 0;

	if (!d)
		return -ENOMEM;
	d->drv = drv;
	mutex_lock(&bus_lock);
	for (pp = &drivers; *pp; pp = &(*pp)->next)
		;
	*pp = d;
	for (struct dev_node *i = devices; i; i = i->next)
		n++;
	snap = calloc(n ? n : 1, sizeof(*snap));
	n = 0;
	for (struct dev_node *i = devices; snap && i; i = i->next)
		snap[n++] = i;
	mutex_unlock(&bus_lock);
	if (!snap) {
		uirq_bus_del_driver(drv);
		return -ENOMEM;
	}
	/* Oldest device first, as the kernel walks its bus. */
	while (n--)
		try_bind(snap[n], drv);
	free(snap);
	return 0;
}

void uirq_bus_del_driver(struct device_driver *drv)
{
	for (;;) {
		struct dev_node *n = NULL;

		mutex_lock(&bus_lock);
		for (struct dev_node *i = devices; i && !n; i = i->next)
			if (i->dev->driver == drv && !i->busy)
				n = i;
		if (n)
			n->busy = true;
		mutex_unlock(&bus_lock);
		if (!n)
			break;
		unbind(n);
		mutex_lock(&bus_lock);
		n->busy = false;
		mutex_unlock(&bus_lock);
	}
	mutex_lock(&bus_lock);
	for (struct drv_node **pp = &drivers; *pp; pp = &(*pp)->next) {
		if ((*pp)->drv == drv) {
			struct drv_node *d = *pp;

			*pp = d->next;
			free(d);
			break;
		}
	}
	mutex_unlock(&bus_lock);
}
