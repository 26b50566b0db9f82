/* SPDX-License-Identifier: MIT */
/*
 * The platform bus (compat/platform.c): devices a board registers by name
 * with their resources (an interrupt, registers), drivers that bind by
 * name, by id table or by device-tree compatible, probe and remove.  A
 * probe that fails releases what it took with devm_*(); -EPROBE_DEFER
 * retries it when another driver binds, as the kernel's deferred probe does.
 */
#ifndef UIRQ_COMPAT_LINUX_PLATFORM_DEVICE_H
#define UIRQ_COMPAT_LINUX_PLATFORM_DEVICE_H

#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>

struct mfd_cell;

#define PLATFORM_DEVID_NONE	(-1)
#define PLATFORM_DEVID_AUTO	(-2)

struct platform_device {
	const char *name;
	int id;
	struct device dev;
	u32 num_resources;
	struct resource *resource;
	const struct platform_device_id *id_entry;
	const char *driver_override;
	struct mfd_cell *mfd_cell;	/* an MFD child's copy of its cell (mfd_get_cell()); freed with the device */
	/* uirq's: made by platform_device_alloc(), freed by platform_device_put() */
	bool uirq_allocated;
};

struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	int (*remove)(struct platform_device *pdev);
	void (*shutdown)(struct platform_device *pdev);
	struct device_driver driver;
	const struct platform_device_id *id_table;
	bool prevent_deferred_probe;
};

extern const struct bus_type platform_bus_type;

#define to_platform_device(d)	container_of((d), struct platform_device, dev)
#define to_platform_driver(d)	container_of((d), struct platform_driver, driver)

/* Register drv and bind it to every matching device: 0 or -errno. */
int platform_driver_register(struct platform_driver *drv);
#define __platform_driver_register(drv, owner)	platform_driver_register(drv)
/* Unbind drv from its devices (remove, then devres) and forget it. */
void platform_driver_unregister(struct platform_driver *drv);
#define module_platform_driver(drv) \
	module_driver(drv, platform_driver_register, platform_driver_unregister)

/* A device with a copy of name, id, resources (num) and platform data (size bytes): the device or an ERR_PTR. */
struct platform_device *platform_device_register_resndata(struct device *parent, const char *name, int id,
							  const struct resource *res, unsigned int num,
							  const void *data, size_t size);
static inline struct platform_device *platform_device_register_simple(const char *name, int id,
								      const struct resource *res,
								      unsigned int num)
{
	return platform_device_register_resndata(NULL, name, id, res, num, NULL, 0);
}
static inline struct platform_device *platform_device_register_data(struct device *parent, const char *name,
								    int id, const void *data, size_t size)
{
	return platform_device_register_resndata(parent, name, id, NULL, 0, data, size);
}
/* Allocate, fill and add in steps (NULL on failure; add: 0 or -errno). */
struct platform_device *platform_device_alloc(const char *name, int id);
int platform_device_add_resources(struct platform_device *pdev, const struct resource *res, unsigned int num);
int platform_device_add_data(struct platform_device *pdev, const void *data, size_t size);
int platform_device_add(struct platform_device *pdev);
/* A caller's own device (a static struct): initialized and added; 0 or -errno. */
static inline int platform_device_register(struct platform_device *pdev)
{
	device_initialize(&pdev->dev);
	return platform_device_add(pdev);
}
/* Free a device never added (or after platform_device_del()). */
void platform_device_put(struct platform_device *pdev);
void platform_device_del(struct platform_device *pdev);
/* Unbind, delete and free. */
void platform_device_unregister(struct platform_device *pdev);

/* The num-th resource of type (IORESOURCE_*), or NULL. */
struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type, unsigned int num);
struct resource *platform_get_resource_byname(struct platform_device *pdev, unsigned int type,
					      const char *name);
/* The num-th interrupt, or -ENXIO (none) or -EINVAL (a resource of 0, warned about), with an error logged. */
int platform_get_irq(struct platform_device *pdev, unsigned int num);
/* As platform_get_irq(), without the error (the warning stays). */
int platform_get_irq_optional(struct platform_device *pdev, unsigned int num);
int platform_get_irq_byname(struct platform_device *pdev, const char *name);
/* How many interrupts platform_get_irq_optional() gives, from index 0 up to the first it refuses. */
int platform_irq_count(struct platform_device *pdev);

static inline void *platform_get_drvdata(const struct platform_device *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

static inline void platform_set_drvdata(struct platform_device *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

#endif
