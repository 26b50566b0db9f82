// SPDX-License-Identifier: MIT
/*
 * Device attribute groups without sysfs (<linux/sysfs.h> says why): a
 * group added to a device is recorded on it, newest first, and found by
 * attribute name when a board or a test reads or writes an attribute, as
 * a read or write of the sysfs file would call its show() or store().
 * Only device attributes are recorded; a group's name (a subfolder in
 * sysfs) is not part of the lookup.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>

struct uirq_attr_groups {
	const struct attribute_group *grp;
	const struct device_attribute *file;	/* device_create_file()'s, grp NULL */
	struct uirq_attr_groups *next;
};

/* Link a record of grp or file on dev: 0, -EEXIST or -ENOMEM. */
static int add(struct device *dev, const struct attribute_group *grp, const struct device_attribute *file)
{
	struct uirq_attr_groups *g = calloc(1, sizeof(*g)), *p;
	int ret = 0;

	if (!g)
		return -ENOMEM;
	g->grp = grp;
	g->file = file;
	mutex_lock(&dev->uirq_devres_lock);
	for (p = dev->uirq_groups; p; p = p->next)
		if ((grp && p->grp == grp) || (file && p->file == file))
			ret = -EEXIST;
	if (!ret) {
		g->next = dev->uirq_groups;
		dev->uirq_groups = g;
	}
	mutex_unlock(&dev->uirq_devres_lock);
	if (ret)
		free(g);
	return ret;
}

static void del(struct device *dev, const struct attribute_group *grp, const struct device_attribute *file)
{
	struct uirq_attr_groups *g = NULL;

	mutex_lock(&dev->uirq_devres_lock);
	for (struct uirq_attr_groups **pp = &dev->uirq_groups; *pp; pp = &(*pp)->next) {
		if ((grp && (*pp)->grp == grp) || (file && (*pp)->file == file)) {
			g = *pp;
			*pp = g->next;
			break;
		}
	}
	mutex_unlock(&dev->uirq_devres_lock);
	free(g);
}

int device_add_group(struct device *dev, const struct attribute_group *grp)
{
	return grp ? add(dev, grp, NULL) : -EINVAL;
}

void device_remove_group(struct device *dev, const struct attribute_group *grp)
{
	if (grp)
		del(dev, grp, NULL);
}

int device_create_file(struct device *dev, const struct device_attribute *attr)
{
	return attr ? add(dev, NULL, attr) : -EINVAL;
}

void device_remove_file(struct device *dev, const struct device_attribute *attr)
{
	if (attr)
		del(dev, NULL, attr);
}

struct group_devres {
	const struct attribute_group *grp;
};

static void devm_group_remove(struct device *dev, void *res)
{
	device_remove_group(dev, ((struct group_devres *)res)->grp);
}

int devm_device_add_group(struct device *dev, const struct attribute_group *grp)
{
	struct group_devres *r = devres_alloc(devm_group_remove, sizeof(*r), GFP_KERNEL);
	int ret;

	if (!r)
		return -ENOMEM;
	ret = device_add_group(dev, grp);
	if (ret) {
		devres_free(r);
		return ret;
	}
	r->grp = grp;
	devres_add(dev, r);
	return 0;
}

int devm_device_add_groups(struct device *dev, const struct attribute_group **groups)
{
	for (; groups && *groups; groups++) {
		int ret = devm_device_add_group(dev, *groups);

		if (ret)
			return ret;
	}
	return 0;
}

/* The device attribute called name, or NULL.  A device attribute embeds its struct attribute first. */
static struct device_attribute *find(struct device *dev, const char *name)
{
	struct device_attribute *found = NULL;

	mutex_lock(&dev->uirq_devres_lock);
	for (struct uirq_attr_groups *g = dev->uirq_groups; g && !found; g = g->next) {
		if (g->file && !strcmp(g->file->attr.name, name))
			found = (struct device_attribute *)g->file;
		for (struct attribute **a = g->grp ? g->grp->attrs : NULL; a && *a && !found; a++)
			if (!strcmp((*a)->name, name))
				found = container_of(*a, struct device_attribute, attr);
	}
	mutex_unlock(&dev->uirq_devres_lock);
	return found;
}

ssize_t uirq_device_attr_show(struct device *dev, const char *name, char *buf)
{
	struct device_attribute *a = find(dev, name);

	if (!a)
		return -ENOENT;
	memset(buf, 0, PAGE_SIZE);
	return a->show ? a->show(dev, a, buf) : -EIO;
}

ssize_t uirq_device_attr_store(struct device *dev, const char *name, const char *buf, size_t count)
{
	struct device_attribute *a = find(dev, name);

	if (!a)
		return -ENOENT;
	return a->store ? a->store(dev, a, buf, count) : -EIO;
}
