// SPDX-License-Identifier: MIT
/*
 * The uinput bridge: a kernel input device (libevdev's uinput helper) that
 * mirrors a uirq input device.  It is an input handle of the device, so it
 * sees exactly the frames the core passes to evdev clients, and writes each
 * event to /dev/uinput from the reporting context.  That write is a plain
 * write(2) that the kernel's uinput never blocks, which is what lets a
 * hard-irq handler report through the bridge.
 */
#include "../sim/sim.h"
#include "input-core.h"

#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct uirq_uinput {
	struct uirq_input_handle handle;
	struct libevdev *evdev;
	struct libevdev_uinput *uidev;
	int fd;				/* /dev/uinput: ours, so phys can be set before creation */
	char *devnode;			/* copied once: libevdev computes it lazily, unlocked */
	unsigned long write_errors;	/* atomic */
};

static void uinput_events(struct uirq_input_handle *handle, const struct uirq_input_value *vals,
			  unsigned int count, const struct timespec *time)
{
	struct uirq_uinput *u = handle->priv;

	(void)time;	/* the kernel stamps what uinput receives */
	for (unsigned int i = 0; i < count; i++)
		if (libevdev_uinput_write_event(u->uidev, vals[i].type, vals[i].code, vals[i].value))
			__atomic_fetch_add(&u->write_errors, 1, __ATOMIC_RELAXED);
}

/* Enable every code of type set in map (up to max) on the libevdev device. */
static int enable_codes(struct libevdev *ev, unsigned int type, const unsigned long *map, unsigned int max)
{
	for (unsigned int code = 0; code <= max; code++)
		if (test_bit(code, map) && libevdev_enable_event_code(ev, type, code, NULL))
			return -EINVAL;
	return 0;
}

/*
 * Every axis with its range, flat and resolution: uinput sets each up
 * (UI_ABS_SETUP), ABS_MT_SLOT's maximum giving the kernel device its
 * slots, so the kernel's own multi-touch state follows the frames written.
 * Not the fuzz: what the bridge writes passed uirq's fuzz filter already,
 * and the kernel's would filter it a second time, holding back moves that
 * uirq's readers saw.
 */
static int enable_axes(struct libevdev *ev, const struct uirq_input_dev *dev)
{
	for (unsigned int code = 0; code <= ABS_MAX; code++) {
		const struct uirq_input_absinfo *a = &dev->absinfo[code];
		struct input_absinfo abs = {
			.value = a->value, .minimum = a->minimum, .maximum = a->maximum,
			.fuzz = 0, .flat = a->flat, .resolution = a->resolution,
		};

		if (test_bit(code, dev->absbit) && libevdev_enable_event_code(ev, EV_ABS, code, &abs))
			return -EINVAL;
	}
	return 0;
}

/* The libevdev description of dev: its identity, properties, capability bits and axes (fixed since registration). */
static int describe(struct libevdev *ev, const struct uirq_input_dev *dev)
{
	char name[32];
	int ret = 0;

	if (dev->name && dev->name[0]) {
		libevdev_set_name(ev, dev->name);
	} else {
		/* uinput refuses a nameless device. */
		snprintf(name, sizeof(name), "uirq input%d", uirq_input_device_nr(dev));
		libevdev_set_name(ev, name);
	}
	/* libevdev's uinput sets neither phys (uirq_uinput_create() does) nor uniq (uinput cannot). */
	if (dev->phys)
		libevdev_set_phys(ev, dev->phys);
	if (dev->uniq)
		libevdev_set_uniq(ev, dev->uniq);
	libevdev_set_id_bustype(ev, dev->id.bustype);
	libevdev_set_id_vendor(ev, dev->id.vendor);
	libevdev_set_id_product(ev, dev->id.product);
	libevdev_set_id_version(ev, dev->id.version);

	for (unsigned int prop = 0; prop <= INPUT_PROP_MAX && !ret; prop++)
		if (test_bit(prop, dev->propbit) && libevdev_enable_property(ev, prop))
			ret = -EINVAL;
	for (unsigned int type = 0; type <= EV_MAX && !ret; type++)
		if (test_bit(type, dev->evbit) && libevdev_enable_event_type(ev, type))
			ret = -EINVAL;
	if (!ret && test_bit(EV_KEY, dev->evbit))
		ret = enable_codes(ev, EV_KEY, dev->keybit, KEY_MAX);
	if (!ret && test_bit(EV_REL, dev->evbit))
		ret = enable_codes(ev, EV_REL, dev->relbit, REL_MAX);
	if (!ret && test_bit(EV_ABS, dev->evbit))
		ret = enable_axes(ev, dev);
	if (!ret && test_bit(EV_MSC, dev->evbit))
		ret = enable_codes(ev, EV_MSC, dev->mscbit, MSC_MAX);
	if (!ret && test_bit(EV_SW, dev->evbit))
		ret = enable_codes(ev, EV_SW, dev->swbit, SW_MAX);
	return ret;
}

int uirq_uinput_create(struct uirq_input_dev *dev, struct uirq_uinput **out)
{
	struct uirq_uinput *u;
	const char *node;
	unsigned long flags;
	int ret, state;

	if (!dev || !out)
		return -EINVAL;
	ret = uirq_sim_refuse("uinput");
	if (ret)
		return ret;
	/* The capability bits are final only once the device is registered. */
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	state = dev->state;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	if (state != INPUT_REGISTERED)
		return -ENODEV;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->evdev = libevdev_new();
	if (!u->evdev) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = describe(u->evdev, dev);
	if (ret)
		goto err_evdev;
	/* Our own /dev/uinput file: UI_SET_PHYS must come before libevdev creates the device. */
	u->fd = open("/dev/uinput", O_RDWR | O_CLOEXEC);
	if (u->fd < 0) {
		ret = -errno;
		goto err_evdev;
	}
	if (dev->phys && ioctl(u->fd, UI_SET_PHYS, dev->phys) < 0) {
		ret = -errno;
		goto err_fd;
	}
	ret = libevdev_uinput_create_from_device(u->evdev, u->fd, &u->uidev);
	if (ret)
		goto err_fd;
	node = libevdev_uinput_get_devnode(u->uidev);
	if (node) {
		u->devnode = strdup(node);
		if (!u->devnode) {
			ret = -ENOMEM;
			goto err_uidev;
		}
	}
	u->handle.events = uinput_events;
	u->handle.priv = u;
	ret = uirq_input_register_handle(dev, &u->handle);
	if (ret)
		goto err_node;
	*out = u;
	return 0;

err_node:
	free(u->devnode);
err_uidev:
	libevdev_uinput_destroy(u->uidev);
err_fd:
	close(u->fd);
err_evdev:
	libevdev_free(u->evdev);
err_free:
	free(u);
	return ret;
}

const char *uirq_uinput_devnode(const struct uirq_uinput *u)
{
	return u ? u->devnode : NULL;
}

unsigned long uirq_uinput_write_errors(const struct uirq_uinput *u)
{
	return __atomic_load_n(&u->write_errors, __ATOMIC_RELAXED);
}

void uirq_uinput_destroy(struct uirq_uinput *u)
{
	if (!u)
		return;
	/* First: once the handle is gone no event is being written to the fd we close. */
	uirq_input_unregister_handle(&u->handle);
	libevdev_uinput_destroy(u->uidev);
	close(u->fd);
	libevdev_free(u->evdev);
	free(u->devnode);
	free(u);
}
