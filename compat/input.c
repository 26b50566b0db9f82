// SPDX-License-Identifier: MIT
/*
 * Input devices in the kernel's shape (drivers/input/input.c's driver
 * side) on uirq's input core: each struct input_dev carries the uirq
 * device its events go to, and shares its absinfo array.  Registration
 * copies what the driver filled in (names, id, capability bitmaps,
 * open/close) to the uirq device and registers it; until then events
 * change the device's state and reach no one, as in the kernel.
 *
 * A managed device (devm_input_allocate_device()) is undone as the
 * kernel's: its registration when the driver unbinds, in the order it was
 * registered among the driver's other resources (so an interrupt the
 * driver took before is still there for its close), its memory in the
 * order it was allocated.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/input.h>

#include "base.h"
#include "input-core-private.h"
#include "uirq/sim.h"

static DEFINE_MUTEX(devices_lock);
static struct input_dev *devices;	/* registered, under devices_lock */

/* The first (newest) registered device match() accepts, or NULL. */
static struct input_dev *find(bool (*match)(const struct input_dev *, const void *), const void *key)
{
	struct input_dev *found = NULL;

	mutex_lock(&devices_lock);
	for (struct input_dev *d = devices; d && !found; d = d->uirq_next)
		if (match(d, key))
			found = d;
	mutex_unlock(&devices_lock);
	return found;
}

static bool has_parent(const struct input_dev *d, const void *parent)
{
	return d->dev.parent == parent;
}

static bool has_name(const struct input_dev *d, const void *name)
{
	return d->name && !strcmp(d->name, name);
}

struct input_dev *uirq_compat_input_find(const struct device *parent)
{
	return find(has_parent, parent);
}

struct input_dev *uirq_compat_input_find_name(const char *name)
{
	return find(has_name, name);
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
	mutex_init(&dev->mutex);
	spin_lock_init(&dev->uirq_early_lock);
	dev->uirq->driver_data = dev;
	return dev;
}

/* The compat half's memory; the uirq device's goes by its own rules (input_dev_put()). */
static void input_dev_free(struct input_dev *dev)
{
	if (dev->poller)
		input_dev_poller_free(dev->poller);
	uirq_device_release(&dev->dev);
	mutex_destroy(&dev->mutex);
	free(dev);
}

/*
 * The driver's last reference: a uirq device never registered is freed
 * with it; a registered one was handed to the core, whose last user frees it.
 */
static void input_dev_put(struct input_dev *dev)
{
	if (!dev->uirq_was_registered)
		uirq_input_free_device(dev->uirq);
	input_dev_free(dev);
}

/* The uirq core's open/close, handed on to the driver's under the device's mutex, as the kernel's core holds it. */
static int uirq_open(struct uirq_input_dev *u)
{
	struct input_dev *dev = u->driver_data;
	int ret;

	mutex_lock(&dev->mutex);
	ret = dev->open ? dev->open(dev) : 0;
	/* The kernel's order: the driver's open, then polling. */
	if (!ret && dev->poller) {
		ret = input_dev_poller_start(dev->poller);
		if (ret && dev->close)
			dev->close(dev);
	}
	if (!ret)
		dev->users++;
	mutex_unlock(&dev->mutex);
	return ret;
}

static void uirq_close(struct uirq_input_dev *u)
{
	struct input_dev *dev = u->driver_data;

	mutex_lock(&dev->mutex);
	if (dev->users && !--dev->users) {
		/* Polling stops first, then the driver's close, as the kernel's core orders them. */
		if (dev->poller)
			input_dev_poller_stop(dev->poller);
		if (dev->close)
			dev->close(dev);
	}
	mutex_unlock(&dev->mutex);
}

bool input_device_enabled(struct input_dev *dev)
{
	return !dev->inhibited && dev->users > 0;
}

/* Capabilities the uirq core has no events for: refused at registration rather than dropped later. */
static bool unsupported(const struct input_dev *dev)
{
	return test_bit(EV_LED, dev->evbit) || test_bit(EV_SND, dev->evbit) || test_bit(EV_FF, dev->evbit);
}

void input_caps_to_uirq(struct input_dev *dev)
{
	struct uirq_input_dev *u = dev->uirq;

	memcpy(u->propbit, dev->propbit, sizeof(u->propbit));
	memcpy(u->evbit, dev->evbit, sizeof(u->evbit));
	memcpy(u->keybit, dev->keybit, sizeof(u->keybit));
	memcpy(u->relbit, dev->relbit, sizeof(u->relbit));
	memcpy(u->absbit, dev->absbit, sizeof(u->absbit));
	memcpy(u->mscbit, dev->mscbit, sizeof(u->mscbit));
	memcpy(u->swbit, dev->swbit, sizeof(u->swbit));
}

/* Or the words of from into to. */
static void or_bits(unsigned long *to, const unsigned long *from, size_t longs)
{
	for (size_t i = 0; i < longs; i++)
		to[i] |= from[i];
}

void input_caps_from_uirq(struct input_dev *dev)
{
	struct uirq_input_dev *u = dev->uirq;

	or_bits(dev->propbit, u->propbit, BITS_TO_LONGS(INPUT_PROP_CNT));
	or_bits(dev->evbit, u->evbit, BITS_TO_LONGS(EV_CNT));
	or_bits(dev->keybit, u->keybit, BITS_TO_LONGS(KEY_CNT));
	or_bits(dev->relbit, u->relbit, BITS_TO_LONGS(REL_CNT));
	or_bits(dev->absbit, u->absbit, BITS_TO_LONGS(ABS_CNT));
	or_bits(dev->mscbit, u->mscbit, BITS_TO_LONGS(MSC_CNT));
	or_bits(dev->swbit, u->swbit, BITS_TO_LONGS(SW_CNT));
	input_absinfo_from_uirq(dev);
}

void input_absinfo_from_uirq(struct input_dev *dev)
{
	/* One array, seen by the driver in the kernel's type: the core asserts the layouts are one. */
	dev->absinfo = (struct input_absinfo *)(void *)dev->uirq->absinfo;
}

void input_alloc_absinfo(struct input_dev *dev)
{
	if (!dev->absinfo && !uirq_input_alloc_absinfo(dev->uirq))
		input_absinfo_from_uirq(dev);
	if (!dev->absinfo)
		dev_err(dev->dev.parent ? dev->dev.parent : &dev->dev, "%s: unable to allocate memory\n", __func__);
}

void input_set_abs_params(struct input_dev *dev, unsigned int axis, int min, int max, int fuzz, int flat)
{
	struct input_absinfo *a;

	if (axis > ABS_MAX)
		return;
	__set_bit(EV_ABS, dev->evbit);
	__set_bit(axis, dev->absbit);
	input_alloc_absinfo(dev);
	if (!dev->absinfo)
		return;
	a = &dev->absinfo[axis];
	a->minimum = min;
	a->maximum = max;
	a->fuzz = fuzz;
	a->flat = flat;
}

/*
 * A report before registration: the uirq device gets the driver's
 * capabilities of the moment, so that the core keeps the state as the
 * kernel's input_handle_event() does and delivers nothing.  False once
 * registration has begun (it copies and cleanses the capabilities itself;
 * a report in that window is dropped) or the device is gone.
 */
static bool report_early(struct input_dev *dev, unsigned int type, unsigned int code, int value)
{
	unsigned long flags;
	bool early;

	spin_lock_irqsave(&dev->uirq_early_lock, flags);
	early = !dev->uirq_was_registered;
	if (early) {
		input_caps_to_uirq(dev);
		uirq_input_event(dev->uirq, type, code, value);
	}
	spin_unlock_irqrestore(&dev->uirq_early_lock, flags);
	return early;
}

/* Registration begins (no report is recorded early after), or is undone after a failure. */
static void set_registering(struct input_dev *dev, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->uirq_early_lock, flags);
	dev->uirq_was_registered = on;
	spin_unlock_irqrestore(&dev->uirq_early_lock, flags);
}

/* A managed device's registration is undone when its driver unbinds, before what the driver took earlier. */
static void devm_input_unregister(void *data);

int input_register_device(struct input_dev *dev)
{
	struct uirq_input_dev *u = dev->uirq;
	int ret;

	if (atomic_load(&dev->uirq_registered))
		return -EINVAL;
	if (test_bit(EV_ABS, dev->evbit) && !dev->absinfo) {
		dev_err(&dev->dev, "Absolute device without dev->absinfo, refusing to register\n");
		return -EINVAL;
	}
	if (unsupported(dev)) {
		pr_err("input: %s: LEDs, sounds and force feedback are not in uirq's input core\n",
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
	set_registering(dev, true);
	input_caps_to_uirq(dev);
	u->hint_events_per_packet = dev->hint_events_per_packet;
	if (dev->poller)
		input_dev_poller_finalize(dev->poller);
	u->open = uirq_open;
	u->close = uirq_close;
	if (dev->devres_managed) {
		ret = devm_add_action(dev->dev.parent, devm_input_unregister, dev);
		if (ret) {
			set_registering(dev, false);
			return ret;
		}
	}
	ret = uirq_input_register_device(u);
	if (ret) {
		if (dev->devres_managed)
			devm_remove_action(dev->dev.parent, devm_input_unregister, dev);
		set_registering(dev, false);
		return ret;
	}
	/* The core's cleansing and its estimate of a packet, as the kernel's device shows them after. */
	memcpy(dev->evbit, u->evbit, sizeof(dev->evbit));
	memcpy(dev->keybit, u->keybit, sizeof(dev->keybit));
	dev->hint_events_per_packet = u->hint_events_per_packet;
	dev_set_name(&dev->dev, "input%d", uirq_input_device_nr(u));
	atomic_store_explicit(&dev->uirq_registered, true, memory_order_release);
	mutex_lock(&devices_lock);
	dev->uirq_next = devices;
	devices = dev;
	mutex_unlock(&devices_lock);
	/*
	 * The kernel announces the device here (its uevent, evdev's node):
	 * user space, on another CPU, may open it before the driver's probe
	 * goes on.  In the deterministic mode that is a scheduling point, so
	 * the explorer tries the open at this moment too.
	 */
	if (uirq_sim_task_id() >= 0)
		uirq_sim_yield();
	return 0;
}

/* Take dev off the list and the core: readers get -ENODEV, the driver's close runs if it was open. */
static void unregister(struct input_dev *dev)
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
}

static void devm_input_unregister(void *data)
{
	unregister(data);
}

/* The allocation's release: whatever is left of the device goes. */
static void devm_input_free(void *data)
{
	struct input_dev *dev = data;

	if (atomic_load(&dev->uirq_registered))
		unregister(dev);
	input_dev_put(dev);
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
	if (dev->devres_managed)
		devm_release_action(dev->dev.parent, devm_input_free, dev);
	else
		input_dev_put(dev);
}

void input_unregister_device(struct input_dev *dev)
{
	if (!dev)
		return;
	if (dev->devres_managed) {
		/* The registration's release, now; the memory goes with the allocation's, at unbind. */
		devm_release_action(dev->dev.parent, devm_input_unregister, dev);
	} else {
		unregister(dev);
		input_dev_put(dev);
	}
}

struct input_dev *devm_input_allocate_device(struct device *parent)
{
	struct input_dev *dev = input_allocate_device();

	if (!dev)
		return NULL;
	dev->dev.parent = parent;
	dev->devres_managed = true;
	if (devm_add_action(parent, devm_input_free, dev)) {
		input_dev_put(dev);
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
		input_alloc_absinfo(dev);
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
	if (!dev)
		return;
	if (!atomic_load_explicit(&dev->uirq_registered, memory_order_acquire) &&
	    report_early(dev, type, code, value))
		return;
	if (atomic_load_explicit(&dev->uirq_registered, memory_order_acquire))
		uirq_input_event(dev->uirq, type, code, value);
}
