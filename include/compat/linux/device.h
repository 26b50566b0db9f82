/* SPDX-License-Identifier: MIT */
/*
 * The device model as drivers see it (compat/device.c, compat/devres.c):
 * a device with a name, a parent, driver data, an optional device-tree node
 * and the resources its driver took with devm_*(), released in reverse
 * order when the driver unbinds or its probe fails; dev_*() messages go to
 * uirq's log prefixed "DRIVER DEVICE: " as the kernel prefixes them.
 *
 * Buses (platform, i2c) embed a struct device in theirs and bind drivers
 * to it (compat/platform.c, compat/i2c.c).  There is no sysfs, no
 * reference counting beyond the bus's own (a device lives until its bus
 * deletes it), and no power management.
 */
#ifndef UIRQ_COMPAT_LINUX_DEVICE_H
#define UIRQ_COMPAT_LINUX_DEVICE_H

#include <stdarg.h>
#include <linux/compiler_types.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/pm.h>
#include <linux/pm_wakeup.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/types.h>

struct device;
struct device_node;
struct fwnode_handle;
struct module;
struct bus_type;
struct uirq_devres;
struct uirq_attr_groups;

struct device_driver {
	const char *name;
	const struct bus_type *bus;
	struct module *owner;
	const struct of_device_id *of_match_table;
	bool suppress_bind_attrs;
	int probe_type;
	const struct dev_pm_ops *pm;	/* recorded; nothing suspends a process (<linux/pm.h>) */
	const struct attribute_group **dev_groups;	/* added to each device bound, removed at unbind */
};

struct bus_type {
	const char *name;
	int (*match)(struct device *dev, struct device_driver *drv);
	int (*probe)(struct device *dev);
	void (*remove)(struct device *dev);
};

struct device {
	struct device *parent;
	const char *init_name;		/* the name until dev_set_name() */
	const struct bus_type *bus;
	struct device_driver *driver;	/* bound driver, NULL when unbound */
	void *platform_data;
	void *driver_data;		/* dev_set_drvdata() */
	struct device_node *of_node;
	struct fwnode_handle *fwnode;
	void (*release)(struct device *dev);
	/* uirq's: */
	char *uirq_name;		/* dev_set_name()'s, owned */
	struct uirq_devres *uirq_devres;	/* newest first, under uirq_devres_lock */
	struct mutex uirq_devres_lock;
	bool uirq_wakeup;		/* device_init_wakeup(): recorded, nothing wakes a process */
	struct uirq_attr_groups *uirq_groups;	/* device_add_group()'s, under uirq_devres_lock */
};

/*
 * The first device on bus named name, after start (NULL: from the
 * oldest), or NULL.  No reference is taken: put_device() has nothing to
 * drop, and the device lives until its bus deletes it.
 */
struct device *bus_find_device_by_name(const struct bus_type *bus, struct device *start, const char *name);

static inline struct device *get_device(struct device *dev)
{
	return dev;
}

static inline void put_device(struct device *dev)
{
	(void)dev;
}

/* Make dev usable (its devres list and lock) before naming or registering it. */
void device_initialize(struct device *dev);
__attribute__((__format__(printf, 2, 3))) int dev_set_name(struct device *dev, const char *fmt, ...);
const char *dev_name(const struct device *dev);
/* The bound driver's name, else the bus's, else "" (the first word of a dev_*() message). */
const char *dev_driver_string(const struct device *dev);

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

static inline void *dev_get_platdata(const struct device *dev)
{
	return dev->platform_data;
}

static inline struct device_node *dev_of_node(struct device *dev)
{
	return dev->of_node;
}

/* ---- messages: "DRIVER DEVICE: text" in uirq's log ---- */

__attribute__((__format__(printf, 2, 3))) void _dev_err(const struct device *dev, const char *fmt, ...);
__attribute__((__format__(printf, 2, 3))) void _dev_warn(const struct device *dev, const char *fmt, ...);
__attribute__((__format__(printf, 2, 3))) void _dev_notice(const struct device *dev, const char *fmt, ...);
__attribute__((__format__(printf, 2, 3))) void _dev_info(const struct device *dev, const char *fmt, ...);
#define dev_emerg(dev, fmt, ...)	_dev_err((dev), fmt, ##__VA_ARGS__)
#define dev_crit(dev, fmt, ...)		_dev_err((dev), fmt, ##__VA_ARGS__)
#define dev_alert(dev, fmt, ...)	_dev_err((dev), fmt, ##__VA_ARGS__)
#define dev_err(dev, fmt, ...)		_dev_err((dev), fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)		_dev_warn((dev), fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...)	_dev_notice((dev), fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)		_dev_info((dev), fmt, ##__VA_ARGS__)
/* Compiled, never printed (no dynamic debug here). */
#define dev_dbg(dev, fmt, ...)		((void)(0 && (_dev_info((dev), fmt, ##__VA_ARGS__), 0)))
#define dev_vdbg(dev, fmt, ...)		dev_dbg((dev), fmt, ##__VA_ARGS__)
#define dev_err_ratelimited(dev, fmt, ...)	_dev_err((dev), fmt, ##__VA_ARGS__)
#define dev_warn_ratelimited(dev, fmt, ...)	_dev_warn((dev), fmt, ##__VA_ARGS__)
#define dev_info_once(dev, fmt, ...)	_dev_info((dev), fmt, ##__VA_ARGS__)
#define dev_warn_once(dev, fmt, ...)	_dev_warn((dev), fmt, ##__VA_ARGS__)
/*
 * Log "text: -ERRNO" as an error unless err is -EPROBE_DEFER (the probe
 * waits for a supplier; the kernel keeps that quiet), and return err.
 */
__attribute__((__format__(printf, 3, 4))) int dev_err_probe(const struct device *dev, int err, const char *fmt, ...);

/* ---- attributes: recorded, no sysfs (<linux/sysfs.h>) ---- */

struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr, const char *buf, size_t count);
};

#define DEVICE_ATTR(_name, _mode, _show, _store) \
	struct device_attribute dev_attr_##_name = __ATTR(_name, _mode, _show, _store)
#define DEVICE_ATTR_RW(_name)	struct device_attribute dev_attr_##_name = __ATTR_RW(_name)
#define DEVICE_ATTR_RO(_name)	struct device_attribute dev_attr_##_name = __ATTR_RO(_name)
#define DEVICE_ATTR_WO(_name)	struct device_attribute dev_attr_##_name = __ATTR_WO(_name)

/* Record the group's attributes on dev (0 or -ENOMEM); a group already there is -EEXIST. */
int device_add_group(struct device *dev, const struct attribute_group *grp);
/* Forget the group; returns once a show() or store() of it in progress has returned (may sleep). */
void device_remove_group(struct device *dev, const struct attribute_group *grp);
/* As device_add_group(), removed when the driver unbinds. */
int devm_device_add_group(struct device *dev, const struct attribute_group *grp);
int devm_device_add_groups(struct device *dev, const struct attribute_group **groups);
int device_create_file(struct device *dev, const struct device_attribute *attr);
void device_remove_file(struct device *dev, const struct device_attribute *attr);

/*
 * What reading the sysfs file dev/name would return: show()'s count into
 * buf (PAGE_SIZE bytes), -ENOENT (no such attribute) or -EIO (it has no
 * show).  _store(): what writing count bytes of buf would, store()'s count
 * or -errno (-EIO without a store).  Device attributes only (those of
 * device_add_group() and device_create_file()).
 */
ssize_t uirq_device_attr_show(struct device *dev, const char *name, char *buf);
ssize_t uirq_device_attr_store(struct device *dev, const char *name, const char *buf, size_t count);

/* ---- managed resources: released newest first when the driver unbinds ---- */

typedef void (*dr_release_t)(struct device *dev, void *res);
typedef int (*dr_match_t)(struct device *dev, void *res, void *match_data);

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp);
void *devm_kcalloc(struct device *dev, size_t n, size_t size, gfp_t gfp);
void *devm_kmalloc_array(struct device *dev, size_t n, size_t size, gfp_t gfp);
void devm_kfree(struct device *dev, const void *p);
__attribute__((__format__(printf, 3, 4))) char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...);
char *devm_kstrdup(struct device *dev, const char *s, gfp_t gfp);
void *devm_kmemdup(struct device *dev, const void *src, size_t len, gfp_t gfp);
/* Run action(data) at unbind: 0 or -ENOMEM. */
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
/* As devm_add_action(), running action(data) now if it cannot be recorded. */
int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data);
/* Run and forget a recorded action now. */
void devm_release_action(struct device *dev, void (*action)(void *), void *data);
/* Forget a recorded action without running it. */
void devm_remove_action(struct device *dev, void (*action)(void *), void *data);
/* The generic form: a resource of size bytes released by release(dev, res). */
void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp);
void devres_add(struct device *dev, void *res);
void devres_free(void *res);
/*
 * Release (run its release, free it) or destroy (just free it) the newest
 * resource of dev whose release function is release and that match accepts
 * (NULL: any): 0, or -ENOENT when there is none.
 */
int devres_release(struct device *dev, dr_release_t release, dr_match_t match, void *match_data);
int devres_destroy(struct device *dev, dr_release_t release, dr_match_t match, void *match_data);
/* The newest such resource, left in place (how dev_get_regmap() finds a map), or NULL. */
void *devres_find(struct device *dev, dr_release_t release, dr_match_t match, void *match_data);
/* Release every managed resource of dev, newest first (the bus does this at unbind). */
void devres_release_all(struct device *dev);

#endif
