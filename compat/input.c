// SPDX-License-Identifier: MIT
/*
 * Input devices in the kernel's shape (drivers/input/input.c's driver
 * side) on uirq's input core: each struct input_dev carries the uirq
 * device its events go to.  Registration copies what the driver filled in
 * (names, id, capability bitmaps, open/close) to the uirq device and
 * registers it; until then events are dropped, as the kernel drops events
 * of a device no handler listens to.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/input.h>

static DEFINE_MUTEX(devices_lock);
static struct input_dev *devices;	/* registered, under devices_lock */

struct input_dev *uirq_compat_input_find(const struct device *parent)
{
	struct input_dev *found = NULL;

	mutex_lock(&devices_lock);
	for (struct input_dev *d = devices; d && !found; d = d->uirq_next)
		if (d->dev.parent == parent)
			found = d;
	mutex_unlock(&devices_lock);
	return found;
}

struct input_dev *input_allocate_device(void)
{
	struct input_dev *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	if (uirq_input_allocate_device(&dev->uirq)) {
		free(dev);
		return NULL;
	}
	device_initialize(&dev->dev);
	dev->uirq->driver_data = dev;
	return dev;
}

static void input_dev_free(struct input_dev *dev)
{
	free(dev->dev.uirq_name);
	mutex_destroy(&dev->dev.uirq_devres_lock);
	free(dev);
}

void input_free_device(struct input_dev *dev)
{
	if (!dev)
		return;
	if (atomic_load(&dev->uirq_registered)) {
		pr_warn("input: input_free_device() of a registered device %s: use input_unregister_device()\n",
			dev->name ? dev->name : "");
		return;
	}
	uirq_input_free_device(dev->uirq);
	input_dev_free(dev);
}

/* The uirq core's open/close, handed on to the driver's. */
static int uirq_open(struct uirq_input_dev *u)
{
	struct input_dev *dev = u->driver_data;

	return dev->open ? dev->open(dev) : 0;
}

static void uirq_close(struct uirq_input_dev *u)
{
	struct input_dev *dev = u->driver_data;

	if (dev->close)
		dev->close(dev);
}

/* Capabilities the uirq core has no events for: refused at registration rather than dropped later. */
static bool unsupported(const struct input_dev *dev)
{
	return test_bit(EV_ABS, dev->evbit) || test_bit(EV_LED, dev->evbit) || test_bit(EV_SND, dev->evbit) ||
	       test_bit(EV_FF, dev->evbit);
}

int input_register_device(struct input_dev *dev)
{
	struct uirq_input_dev *u = dev->uirq;
	int ret;

	if (atomic_load(&dev->uirq_registered))
		return -EINVAL;
	if (unsupported(dev)) {
		pr_err("input: %s: absolute axes, LEDs, sounds and force feedback are not in uirq's input core\n",
		       dev->name ? dev->name : "");
		return -EINVAL;
	}
	u->name = dev->name;
	u->phys = dev->phys;
	u->uniq = dev->uniq;
	u->id.bustype = dev->id.bustype;
	u->id.vendor = dev->id.vendor;
	u->id.product = dev->id.product;
	u->id.version = dev->id.version;
	memcpy(u->evbit, dev->evbit, sizeof(u->evbit));
	memcpy(u->keybit, dev->keybit, sizeof(u->keybit));
	memcpy(u->relbit, dev->relbit, sizeof(u->relbit));
	memcpy(u->mscbit, dev->mscbit, sizeof(u->mscbit));
	memcpy(u->swbit, dev->swbit, sizeof(u->swbit));
	u->open = uirq_open;
	u->close = uirq_close;
	ret = uirq_input_register_device(u);
	if (ret)
		return ret;
	dev_set_name(&dev->dev, "input%d", uirq_input_device_nr(u));
	atomic_store_explicit(&dev->uirq_registered, true, memory_order_release);
	mutex_lock(&devices_lock);
	dev->uirq_next = devices;
	devices = dev;
	mutex_unlock(&devices_lock);
	return 0;
}

/* Unregister (the uirq device goes with its last user) and free. */
static void unregister_and_free(struct input_dev *dev)
{
	mutex_lock(&devices_lock);
	for (struct input_dev **pp = &devices; *pp; pp = &(*pp)->uirq_next) {
		if (*pp == dev) {
			*pp = dev->uirq_next;
			break;
		}
	}
	mutex_unlock(&devices_lock);
	atomic_store(&dev->uirq_registered, false);
	uirq_input_unregister_device(dev->uirq);
	input_dev_free(dev);
}

static void devm_input_release(void *data)
{
	struct input_dev *dev = data;

	if (atomic_load(&dev->uirq_registered))
		unregister_and_free(dev);
	else
		input_free_device(dev);
}

void input_unregister_device(struct input_dev *dev)
{
	if (!dev)
		return;
	/* A managed device's release is recorded on its parent: run that, once. */
	if (dev->devres_managed)
		devm_release_action(dev->dev.parent, devm_input_release, dev);
	else
		unregister_and_free(dev);
}

struct input_dev *devm_input_allocate_device(struct device *parent)
{
	struct input_dev *dev = input_allocate_device();

	if (!dev)
		return NULL;
	dev->dev.parent = parent;
	dev->devres_managed = true;
	if (devm_add_action(parent, devm_input_release, dev)) {
		input_free_device(dev);
		return NULL;
	}
	return dev;
}

void input_set_capability(struct input_dev *dev, unsigned int type, unsigned int code)
{
	unsigned long *bits;
	unsigned int max;

	switch (type) {
	case EV_KEY:
		bits = dev->keybit, max = KEY_MAX;
		break;
	case EV_REL:
		bits = dev->relbit, max = REL_MAX;
		break;
	case EV_ABS:
		bits = dev->absbit, max = ABS_MAX;
		break;
	case EV_MSC:
		bits = dev->mscbit, max = MSC_MAX;
		break;
	case EV_SW:
		bits = dev->swbit, max = SW_MAX;
		break;
	case EV_LED:
		bits = dev->ledbit, max = LED_MAX;
		break;
	case EV_SND:
		bits = dev->sndbit, max = SND_MAX;
		break;
	case EV_FF:
		bits = dev->ffbit, max = FF_MAX;
		break;
	case EV_PWR:
		bits = NULL, max = 0;
		break;
	default:
		pr_err("input_set_capability: unknown type %u (code %u)\n", type, code);
		return;
	}
	/* A code past its type's range is refused with the kernel's message, the device left as it was. */
	if (bits && code > max) {
		pr_err("input_set_capability: invalid code %u for type %u\n", code, type);
		return;
	}
	if (bits)
		__set_bit((long)code, bits);
	__set_bit((long)type, dev->evbit);
}

void input_event(struct input_dev *dev, unsigned int type, unsigned int code, int value)
{
	if (dev && atomic_load_explicit(&dev->uirq_registered, memory_order_acquire))
		uirq_input_event(dev->uirq, type, code, value);
}
