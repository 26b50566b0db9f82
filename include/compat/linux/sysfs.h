/* SPDX-License-Identifier: MIT */
/*
 * sysfs attributes as drivers declare them.  There is no sysfs here (no
 * filesystem a user could read them through), so a group a driver adds to
 * its device is only recorded (compat/sysfs.c): a board or a test reads or
 * writes an attribute by name with uirq_device_attr_show()/_store(), the
 * calls a read or write of the sysfs file would make.
 */
#ifndef UIRQ_COMPAT_LINUX_SYSFS_H
#define UIRQ_COMPAT_LINUX_SYSFS_H

#include <linux/stat.h>
#include <linux/types.h>

#define PAGE_SIZE	4096UL		/* the buffer a show() fills */

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

struct kobject;

struct attribute {
	const char *name;
	umode_t mode;
};

struct bin_attribute;

struct attribute_group {
	const char *name;
	/* Not consulted: there is no kobject to hand it; every attribute counts as visible. */
	umode_t (*is_visible)(struct kobject *kobj, struct attribute *attr, int n);
	umode_t (*is_bin_visible)(struct kobject *kobj, struct bin_attribute *attr, int n);
	struct attribute **attrs;
	struct bin_attribute **bin_attrs;
};

#define __ATTR(_name, _mode, _show, _store) {					\
	.attr = { .name = __stringify(_name), .mode = (_mode) },		\
	.show = _show,								\
	.store = _store,							\
}
#define __ATTR_RO(_name)	__ATTR(_name, 0444, _name##_show, NULL)
#define __ATTR_WO(_name)	__ATTR(_name, 0200, NULL, _name##_store)
#define __ATTR_RW(_name)	__ATTR(_name, 0644, _name##_show, _name##_store)

#define ATTRIBUTE_GROUPS(_name)							\
	static const struct attribute_group _name##_group = { .attrs = _name##_attrs };	\
	static const struct attribute_group *_name##_groups[] = { &_name##_group, NULL }

#endif
