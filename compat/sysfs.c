// SPDX-License-Identifier: MIT
/*
 * Device attribute groups without sysfs (<linux/sysfs.h> says why): a
 * group added to a device is recorded on it, newest first, and found by
 * attribute name when a board or a test reads or writes an attribute, as
 * a read or write of the sysfs file would call its show() or store().
 * Only device attributes are recorded; a group's name (a subfolder in
 * sysfs) is not part of the lookup.
 *
 * Removal drains, as kernfs drains a node's active references: a show()
 * or store() runs holding its record's ops mutex, and removal marks the
 * record dead, takes it off the device, then takes and drops that mutex,
 * so it returns only once the call running has returned, and no later one
 * starts (a dead record is refused) - the driver may then free what its
 * show() reads.  The wait is a uirq mutex, which the deterministic mode
 * schedules and lockdep checks: removing a group under a lock its show()
 * takes is reported, as the kernel's annotation of kn->active reports it.
 * Unlike kernfs, calls into one record's attributes run one at a time, and
 * (one lock class for every record) a store() that removes another group
 * of the device is reported as recursive locking.  The record's memory
 * goes with its last reference: the device's list, or a call that looked
 * it up.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>

struct uirq_attr_groups {
	const struct attribute_group *grp;
	const struct device_attribute *file;	/* device_create_file()'s, grp NULL */
	struct uirq_attr_groups *next;
	/* Under the device's uirq_devres_lock: */
	unsigned int refs;			/* the list's, and each call's that found it */
	bool dead;				/* removed: no call starts */
	struct mutex ops;			/* held by the show() or store() running */
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
	g->refs = 1;
	mutex_init(&g->ops);
	mutex_lock(&dev->uirq_devres_lock);
	for (p = dev->uirq_groups; p; p = p->next)
		if ((grp && p->grp == grp) || (file && p->file == file))
			ret = -EEXIST;
	if (!ret) {
		g->next = dev->uirq_groups;
		dev->uirq_groups = g;
	}
	mutex_unlock(&dev->uirq_devres_lock);
	if (ret) {
		mutex_destroy(&g->ops);
		free(g);
	}
	return ret;
}

/* Drop a reference to g; the last frees it (it is off the list by then). */
static void put(struct device *dev, struct uirq_attr_groups *g)
{
	bool last;

	mutex_lock(&dev->uirq_devres_lock);
	last = !--g->refs;
	mutex_unlock(&dev->uirq_devres_lock);
	if (last) {
		mutex_destroy(&g->ops);
		free(g);
	}
}

static void del(struct device *dev, const struct attribute_group *grp, const struct device_attribute *file)
{
	struct uirq_attr_groups *g = NULL;

	mutex_lock(&dev->uirq_devres_lock);
	for (struct uirq_attr_groups **pp = &dev->uirq_groups; *pp; pp = &(*pp)->next) {
		if ((grp && (*pp)->grp == grp) || (file && (*pp)->file == file)) {
			g = *pp;
			*pp = g->next;
			g->dead = true;
			break;
		}
	}
	mutex_unlock(&dev->uirq_devres_lock);
	if (!g)
		return;
	/* The drain: the call running now returns first; one that found g before it died sees it dead. */
	mutex_lock(&g->ops);
	mutex_unlock(&g->ops);
	put(dev, g);
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

/*
 * The device attribute called name and its record, referenced (put() it),
 * or NULL.  A device attribute embeds its struct attribute first.
 */
static struct device_attribute *find(struct device *dev, const char *name, struct uirq_attr_groups **rec)
{
	struct device_attribute *found = NULL;

	mutex_lock(&dev->uirq_devres_lock);
	for (struct uirq_attr_groups *g = dev->uirq_groups; g && !found; g = g->next) {
		if (g->file && !strcmp(g->file->attr.name, name))
			found = (struct device_attribute *)g->file;
		for (struct attribute **a = g->grp ? g->grp->attrs : NULL; a && *a && !found; a++)
			if (!strcmp((*a)->name, name))
				found = container_of(*a, struct device_attribute, attr);
		if (found) {
			g->refs++;
			*rec = g;
		}
	}
	mutex_unlock(&dev->uirq_devres_lock);
	return found;
}

/* Start a call into g's attribute: false (and nothing held) when g was removed meanwhile. */
static bool enter(struct device *dev, struct uirq_attr_groups *g)
{
	bool dead;

	mutex_lock(&g->ops);
	mutex_lock(&dev->uirq_devres_lock);
	dead = g->dead;
	mutex_unlock(&dev->uirq_devres_lock);
	if (dead)
		mutex_unlock(&g->ops);
	return !dead;
}

/* op on the attribute called name, inside its record's drain: op's result, or -ENOENT. */
static ssize_t call(struct device *dev, const char *name,
		    ssize_t (*op)(struct device *dev, struct device_attribute *a, void *arg), void *arg)
{
	struct uirq_attr_groups *g;
	struct device_attribute *a = find(dev, name, &g);
	ssize_t ret = -ENOENT;

	if (!a)
		return ret;
	if (enter(dev, g)) {
		ret = op(dev, a, arg);
		mutex_unlock(&g->ops);
	}
	put(dev, g);
	return ret;
}

static ssize_t show(struct device *dev, struct device_attribute *a, void *buf)
{
	memset(buf, 0, PAGE_SIZE);
	return a->show ? a->show(dev, a, buf) : -EIO;
}

struct store_args {
	const char *buf;
	size_t count;
};

static ssize_t store(struct device *dev, struct device_attribute *a, void *arg)
{
	const struct store_args *w = arg;

	return a->store ? a->store(dev, a, w->buf, w->count) : -EIO;
}

ssize_t uirq_device_attr_show(struct device *dev, const char *name, char *buf)
{
	return call(dev, name, show, buf);
}

ssize_t uirq_device_attr_store(struct device *dev, const char *name, const char *buf, size_t count)
{
	struct store_args w = { buf, count };

	return call(dev, name, store, &w);
}
