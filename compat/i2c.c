// SPDX-License-Identifier: MIT
/*
 * The i2c bus as drivers see it (drivers/i2c/i2c-core-base.c's device
 * model part): a struct i2c_client per device, its transfers through the
 * uirq client it carries, and i2c drivers bound by bus.c when a client
 * matches - by its device-tree node against the driver's of_match_table,
 * or its name against one of the table's compatibles, else by its name in
 * the driver's id_table, the kernel's order.  Its device is named
 * "BUS-ADDR" (1-004b), as the kernel names it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/of.h>

#include "base.h"

const struct i2c_device_id *i2c_match_id(const struct i2c_device_id *id, const struct i2c_client *client)
{
	for (; id && client && id->name[0]; id++)
		if (!strcmp(id->name, client->name))
			return id;
	return NULL;
}

/*
 * i2c-core-of.c's i2c_of_match_device_sysfs(): a client made by name (the
 * kernel's new_device in sysfs, a board's info here) has no node, but its
 * name may be a compatible of the table, whole ("acme,widget") or without
 * its vendor ("widget").  The kernel compares with sysfs_streq() for the
 * newline a sysfs write brings; a board's name has none.
 */
static const struct of_device_id *match_by_name(const struct of_device_id *matches, const struct i2c_client *client)
{
	for (; matches->compatible[0]; matches++) {
		const char *part = strchr(matches->compatible, ',');

		if (!strcmp(client->name, matches->compatible) || (part && !strcmp(client->name, part + 1)))
			return matches;
	}
	return NULL;
}

const struct of_device_id *i2c_of_match_device(const struct of_device_id *matches, struct i2c_client *client)
{
	const struct of_device_id *id;

	if (!client || !matches)
		return NULL;
	id = client->dev.of_node ? of_match_node(matches, client->dev.of_node) : NULL;
	return id ? id : match_by_name(matches, client);
}

static int i2c_device_match(struct device *dev, struct device_driver *d)
{
	struct i2c_client *client = to_i2c_client(dev);

	if (i2c_of_match_device(d->of_match_table, client))
		return 1;
	return i2c_match_id(to_i2c_driver(d)->id_table, client) != NULL;
}

const struct i2c_device_id *i2c_client_get_device_id(const struct i2c_client *client)
{
	const struct device_driver *d = client->dev.driver;

	return d ? i2c_match_id(to_i2c_driver(d)->id_table, client) : NULL;
}

static int i2c_device_probe(struct device *dev)
{
	struct i2c_client *client = to_i2c_client(dev);
	struct i2c_driver *drv = to_i2c_driver(dev->driver);

	client->irq = client->init_irq;
	if (drv->probe_new)
		return drv->probe_new(client);
	/* 6.1's i2c_device_probe(): no probe at all is -EINVAL, a failure it logs (not -ENODEV's quiet "not mine"). */
	return drv->probe ? drv->probe(client, i2c_match_id(drv->id_table, client)) : -EINVAL;
}

static void i2c_device_remove(struct device *dev)
{
	struct i2c_driver *drv = to_i2c_driver(dev->driver);

	if (drv->remove)
		drv->remove(to_i2c_client(dev));
}

const struct bus_type i2c_bus_type = {
	.name = "i2c",
	.match = i2c_device_match,
	.probe = i2c_device_probe,
	.remove = i2c_device_remove,
};

int i2c_register_driver(struct module *owner, struct i2c_driver *driver)
{
	(void)owner;
	driver->driver.bus = &i2c_bus_type;
	return uirq_bus_add_driver(&driver->driver);
}

void i2c_del_driver(struct i2c_driver *driver)
{
	uirq_bus_del_driver(&driver->driver);
}

/* ---- adapters: one kernel-shaped wrapper per uirq adapter ---- */

static DEFINE_MUTEX(adapters_lock);
static struct i2c_adapter *adapters;	/* under adapters_lock */

struct i2c_adapter *uirq_compat_i2c_adapter(struct uirq_i2c_adapter *u)
{
	struct i2c_adapter *a;

	mutex_lock(&adapters_lock);
	for (a = adapters; a; a = a->uirq_next)
		if (a->uirq == u)
			break;
	/*
	 * A wrapper whose uirq adapter went without uirq_compat_i2c_adapter_del()
	 * and whose memory a new adapter took: its number tells; made again.
	 */
	if (a && a->nr != u->nr) {
		a->nr = u->nr;
		snprintf(a->name, sizeof(a->name), "%s", u->name);
		dev_set_name(&a->dev, "i2c-%d", u->nr);
	}
	if (!a && (a = calloc(1, sizeof(*a)))) {
		a->uirq = u;
		a->nr = u->nr;
		a->timeout = (int)(u->timeout_ms ? u->timeout_ms : 1000);
		a->retries = u->retries;
		snprintf(a->name, sizeof(a->name), "%s", u->name);
		device_initialize(&a->dev);
		if (dev_set_name(&a->dev, "i2c-%d", u->nr)) {
			free(a);
			a = NULL;
		} else {
			a->uirq_next = adapters;
			adapters = a;
		}
	}
	mutex_unlock(&adapters_lock);
	return a;
}

int uirq_compat_i2c_adapter_del(struct i2c_adapter *a)
{
	if (!a)
		return 0;
	if (a->uirq->clients)
		return -EBUSY;
	mutex_lock(&adapters_lock);
	for (struct i2c_adapter **pp = &adapters; *pp; pp = &(*pp)->uirq_next) {
		if (*pp == a) {
			*pp = a->uirq_next;
			break;
		}
	}
	mutex_unlock(&adapters_lock);
	uirq_device_release(&a->dev);
	free(a);
	return 0;
}

/* A client of name at addr, not yet on the bus; an ERR_PTR on failure. */
static struct i2c_client *client_new(struct i2c_adapter *adap, const char *name, unsigned short addr,
				     unsigned short flags)
{
	struct i2c_client *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return ERR_PTR(-ENOMEM);
	ret = uirq_i2c_new_client_device_flags(adap->uirq, name, addr, flags, &c->uirq);
	if (ret) {
		free(c);
		return ERR_PTR(ret);
	}
	c->flags = flags;
	c->addr = addr;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->adapter = adap;
	device_initialize(&c->dev);
	c->dev.bus = &i2c_bus_type;
	if (dev_set_name(&c->dev, "%d-%04x", adap->nr, addr | (flags & I2C_CLIENT_TEN ? 0xa000 : 0))) {
		uirq_i2c_unregister_device(c->uirq);
		free(c);
		return ERR_PTR(-ENOMEM);
	}
	return c;
}

/* Its managed resources first: a release may still talk to the chip through the client. */
static void client_free(struct i2c_client *c)
{
	uirq_device_release(&c->dev);
	uirq_i2c_unregister_device(c->uirq);
	free(c);
}

struct i2c_client *i2c_new_client_device(struct i2c_adapter *adap, const struct i2c_board_info *info)
{
	struct i2c_client *c = client_new(adap, info->type, info->addr, info->flags);
	int ret;

	if (IS_ERR(c))
		return c;
	c->init_irq = info->irq;
	c->dev.platform_data = info->platform_data;
	c->dev.of_node = info->of_node;
	c->dev.fwnode = info->fwnode;
	if (info->dev_name && dev_set_name(&c->dev, "i2c-%s", info->dev_name)) {
		client_free(c);
		return ERR_PTR(-ENOMEM);
	}
	ret = uirq_bus_add_device(&c->dev);
	if (ret) {
		client_free(c);
		return ERR_PTR(ret);
	}
	return c;
}

/* Dummies talk for a driver at its chip's other addresses: never on the bus, never bound. */
struct i2c_client *i2c_new_dummy_device(struct i2c_adapter *adap, u16 address)
{
	struct i2c_client *c = client_new(adap, "dummy", address, 0);

	if (!IS_ERR(c))
		c->dev.bus = NULL;
	return c;
}

static void devm_dummy_release(void *client)
{
	i2c_unregister_device(client);
}

struct i2c_client *devm_i2c_new_dummy_device(struct device *dev, struct i2c_adapter *adap, u16 address)
{
	struct i2c_client *c = i2c_new_dummy_device(adap, address);

	if (IS_ERR(c))
		return c;
	int ret = devm_add_action_or_reset(dev, devm_dummy_release, c);

	return ret ? ERR_PTR(ret) : c;
}

void i2c_unregister_device(struct i2c_client *client)
{
	if (IS_ERR_OR_NULL(client))
		return;
	if (client->dev.bus)
		uirq_bus_del_device(&client->dev);
	client_free(client);
}
