/* SPDX-License-Identifier: MIT */
/*
 * Inside the compat layer: binding devices and drivers on a bus
 * (bus.c, the kernel's drivers/base/bus.c and dd.c), which the platform
 * and i2c buses share.  Not installed.
 */
#ifndef UIRQ_COMPAT_BASE_H
#define UIRQ_COMPAT_BASE_H

#include <linux/device.h>

/*
 * The end of dev's life, the kernel's device_release(): the managed
 * resources still recorded (a device no driver bound, an i2c dummy, what
 * was added after unbind), then its name and lock.  The caller frees dev.
 */
void uirq_device_release(struct device *dev);
/* dev (its bus set) joins the bus and is offered the bus's drivers: 0 or -ENOMEM. */
int uirq_bus_add_device(struct device *dev);
/* dev is unbound (remove, then its managed resources) and leaves the bus. */
void uirq_bus_del_device(struct device *dev);
/* drv (its bus set) joins the bus and is offered every unbound device: 0 or -ENOMEM. */
int uirq_bus_add_driver(struct device_driver *drv);
/* drv is unbound from its devices and leaves the bus. */
void uirq_bus_del_driver(struct device_driver *drv);

#endif
