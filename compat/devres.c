// SPDX-License-Identifier: MIT
/*
 * Managed resources (drivers/base/devres.c): what a driver takes with
 * devm_*() is recorded on its device, newest first, and released in that
 * order when the driver unbinds or its probe fails - so a probe's error
 * paths and a remove() need not undo them.  Releases run without the
 * device's devres lock held: one may unregister another device.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>

struct uirq_devres {
	struct uirq_devres *next;
	dr_release_t release;
	void (*action)(void *);	/* devm_add_action()'s, with its data */
	void *action_data;
	size_t size;
	max_align_t data[];	/* the resource (devres_alloc()'s size bytes) */
};

static struct uirq_devres *devres_of(void *res)
{
	return container_of(res, struct uirq_devres, data);
}

void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp)
{
	struct uirq_devres *dr = calloc(1, sizeof(*dr) + size);

	(void)gfp;
	if (!dr)
		return NULL;
	dr->release = release;
	dr->size = size;
	return dr->data;
}

void devres_add(struct device *dev, void *res)
{
	struct uirq_devres *dr = devres_of(res);

	mutex_lock(&dev->uirq_devres_lock);
	dr->next = dev->uirq_devres;
	dev->uirq_devres = dr;
	mutex_unlock(&dev->uirq_devres_lock);
}

void devres_free(void *res)
{
	if (res)
		free(devres_of(res));
}

static void release_one(struct device *dev, struct uirq_devres *dr)
{
	if (dr->action)
		dr->action(dr->action_data);
	else if (dr->release)
		dr->release(dev, dr->data);
	free(dr);
}

void devres_release_all(struct device *dev)
{
	for (;;) {
		mutex_lock(&dev->uirq_devres_lock);
		struct uirq_devres *dr = dev->uirq_devres;

		if (dr)
			dev->uirq_devres = dr->next;
		mutex_unlock(&dev->uirq_devres_lock);
		if (!dr)
			return;
		release_one(dev, dr);
	}
}

/* Take the first entry match() accepts off dev's list; NULL if none. */
static struct uirq_devres *devres_take(struct device *dev, bool (*match)(struct uirq_devres *, const void *),
				       const void *key)
{
	struct uirq_devres **pp, *dr = NULL;

	mutex_lock(&dev->uirq_devres_lock);
	for (pp = &dev->uirq_devres; *pp; pp = &(*pp)->next) {
		if (match(*pp, key)) {
			dr = *pp;
			*pp = dr->next;
			break;
		}
	}
	mutex_unlock(&dev->uirq_devres_lock);
	return dr;
}

struct release_key {
	struct device *dev;
	dr_release_t release;
	dr_match_t match;
	void *match_data;
};

static bool is_release(struct uirq_devres *dr, const void *key)
{
	const struct release_key *k = key;

	return !dr->action && dr->release == k->release &&
	       (!k->match || k->match(k->dev, dr->data, k->match_data));
}

void *devres_find(struct device *dev, dr_release_t release, dr_match_t match, void *match_data)
{
	struct release_key k = { dev, release, match, match_data };
	void *res = NULL;

	mutex_lock(&dev->uirq_devres_lock);
	for (struct uirq_devres *dr = dev->uirq_devres; dr && !res; dr = dr->next)
		if (is_release(dr, &k))
			res = dr->data;
	mutex_unlock(&dev->uirq_devres_lock);
	return res;
}

int devres_destroy(struct device *dev, dr_release_t release, dr_match_t match, void *match_data)
{
	struct release_key k = { dev, release, match, match_data };
	struct uirq_devres *dr = devres_take(dev, is_release, &k);

	if (!dr)
		return -ENOENT;
	free(dr);
	return 0;
}

int devres_release(struct device *dev, dr_release_t release, dr_match_t match, void *match_data)
{
	struct release_key k = { dev, release, match, match_data };
	struct uirq_devres *dr = devres_take(dev, is_release, &k);

	if (!dr)
		return -ENOENT;
	release_one(dev, dr);
	return 0;
}

/* ---- memory ---- */

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	void *p = devres_alloc(NULL, size, gfp);

	if (p)
		devres_add(dev, p);
	return p;
}

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return devm_kmalloc(dev, size, gfp);	/* devres_alloc() zeroes */
}

void *devm_kmalloc_array(struct device *dev, size_t n, size_t size, gfp_t gfp)
{
	if (n && size > (size_t)-1 / n)
		return NULL;
	return devm_kmalloc(dev, n * size, gfp);
}

void *devm_kcalloc(struct device *dev, size_t n, size_t size, gfp_t gfp)
{
	return devm_kmalloc_array(dev, n, size, gfp);
}

static bool is_data(struct uirq_devres *dr, const void *p)
{
	return !dr->action && (const void *)dr->data == p;
}

void devm_kfree(struct device *dev, const void *p)
{
	struct uirq_devres *dr;

	if (!p)
		return;
	dr = devres_take(dev, is_data, p);
	if (!dr) {
		dev_warn(dev, "devm_kfree: %p was not allocated with devm_kmalloc()\n", p);
		return;
	}
	free(dr);
}

void *devm_kmemdup(struct device *dev, const void *src, size_t len, gfp_t gfp)
{
	void *p = devm_kmalloc(dev, len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

char *devm_kstrdup(struct device *dev, const char *s, gfp_t gfp)
{
	return s ? devm_kmemdup(dev, s, strlen(s) + 1, gfp) : NULL;
}

char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	p = devm_kmalloc(dev, (size_t)n + 1, gfp);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* ---- actions ---- */

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	void *res = devres_alloc(NULL, 0, 0);
	struct uirq_devres *dr;

	if (!res)
		return -ENOMEM;
	dr = devres_of(res);
	dr->action = action;
	dr->action_data = data;
	devres_add(dev, dr->data);
	return 0;
}

int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data)
{
	int ret = devm_add_action(dev, action, data);

	if (ret)
		action(data);
	return ret;
}

struct action_key {
	void (*action)(void *);
	void *data;
};

static bool is_action(struct uirq_devres *dr, const void *key)
{
	const struct action_key *k = key;

	return dr->action == k->action && dr->action_data == k->data;
}

/* The recorded action, taken off dev's list; NULL (and a warning naming who asked) if there is none. */
static struct uirq_devres *take_action(struct device *dev, void (*action)(void *), void *data, const char *who)
{
	struct action_key k = { action, data };
	struct uirq_devres *dr = devres_take(dev, is_action, &k);

	if (!dr)
		dev_warn(dev, "%s: no such action\n", who);
	return dr;
}

void devm_release_action(struct device *dev, void (*action)(void *), void *data)
{
	struct uirq_devres *dr = take_action(dev, action, data, __func__);

	if (dr)
		release_one(dev, dr);
}

void devm_remove_action(struct device *dev, void (*action)(void *), void *data)
{
	free(take_action(dev, action, data, __func__));
}
