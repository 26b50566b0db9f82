// SPDX-License-Identifier: MIT
/*
 * Device-tree nodes built by a board in C, and the readers drivers use
 * (drivers/of/base.c and property.c's answers): a u32 property holds its
 * cells in the host's order (a board writes numbers, not a flattened
 * big-endian blob), a string list is NUL-separated.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/of.h>
#include <linux/property.h>

#include "of-internal.h"

struct property *of_find_property(const struct device_node *np, const char *name, int *lenp)
{
	for (struct property *p = np ? np->properties : NULL; p; p = p->next) {
		if (!strcmp(p->name, name)) {
			if (lenp)
				*lenp = p->length;
			return p;
		}
	}
	return NULL;
}

const void *of_get_property(const struct device_node *np, const char *name, int *lenp)
{
	struct property *p = of_find_property(np, name, lenp);

	return p ? p->value : NULL;
}

bool of_property_read_bool(const struct device_node *np, const char *name)
{
	return of_find_property(np, name, NULL) != NULL;
}

int of_property_count_elems_of_size(const struct device_node *np, const char *name, int elem_size)
{
	struct property *p = of_find_property(np, name, NULL);

	if (!p)
		return -EINVAL;
	if (!p->value)
		return -ENODATA;
	if (p->length % elem_size)
		return -EINVAL;
	return p->length / elem_size;
}

int of_property_read_u32_array(const struct device_node *np, const char *name, u32 *out, size_t n)
{
	struct property *p = of_find_property(np, name, NULL);

	if (!p)
		return -EINVAL;
	if (!p->value)
		return -ENODATA;
	if ((size_t)p->length < n * sizeof(u32))
		return -EOVERFLOW;
	memcpy(out, p->value, n * sizeof(u32));
	return 0;
}

int of_property_read_u32_index(const struct device_node *np, const char *name, u32 index, u32 *out)
{
	struct property *p = of_find_property(np, name, NULL);

	if (!p)
		return -EINVAL;
	if (!p->value)
		return -ENODATA;
	if ((size_t)p->length < (index + 1) * sizeof(u32))
		return -EOVERFLOW;
	memcpy(out, (const u32 *)p->value + index, sizeof(u32));
	return 0;
}

int of_property_read_string(const struct device_node *np, const char *name, const char **out)
{
	struct property *p = of_find_property(np, name, NULL);

	if (!p)
		return -EINVAL;
	if (!p->value)
		return -ENODATA;
	if (!memchr(p->value, '\0', (size_t)p->length))
		return -EILSEQ;
	*out = p->value;
	return 0;
}

/* The node's name up to its unit address ("keypad" of "keypad@34"), of its last path component. */
static bool node_name_is(const struct device_node *np, const char *name)
{
	const char *full = np->full_name ? np->full_name : np->name;
	const char *base = strrchr(full, '/') ? strrchr(full, '/') + 1 : full;
	size_t len = strcspn(base, "@");

	return strlen(name) == len && !strncmp(base, name, len);
}

/*
 * The kernel's __of_device_is_compatible(): 0 for no match, else a score.
 * Each constraint given (non-empty) must hold.  A compatible found at
 * index i of the node's list scores INT_MAX / 2 - 4i, so an earlier (more
 * specific) one outweighs anything else; a device_type adds 2 and the
 * name 1, so for one compatible, type beats name.  Compatibles compare
 * without case, as the kernel's of_compat_cmp().
 */
static int compatible_score(const struct device_node *np, const char *compat, const char *type, const char *name)
{
	int score = 0;

	if (compat && compat[0]) {
		int len, index = 0;
		const char *s = of_get_property(np, "compatible", &len);

		for (const char *end = s + (s ? len : 0); s && s < end; s += strlen(s) + 1, index++) {
			if (!strcasecmp(s, compat)) {
				score = INT_MAX / 2 - (index << 2);
				break;
			}
		}
		if (!score)
			return 0;
	}
	if (type && type[0]) {
		const char *t = of_get_property(np, "device_type", NULL);

		if (!t || strcmp(t, type))
			return 0;
		score += 2;
	}
	if (name && name[0]) {
		if (!node_name_is(np, name))
			return 0;
		score++;
	}
	return score;
}

bool of_device_is_compatible(const struct device_node *np, const char *compat)
{
	return np && compatible_score(np, compat, NULL, NULL) > 0;
}

bool of_device_is_available(const struct device_node *np)
{
	const char *status;

	if (!np)
		return false;
	if (of_property_read_string(np, "status", &status))
		return true;
	return !strcmp(status, "okay") || !strcmp(status, "ok");
}

/* The kernel's __of_match_node(): the best-scoring entry, the first of equals; not the first that matches. */
const struct of_device_id *of_match_node(const struct of_device_id *matches, const struct device_node *np)
{
	const struct of_device_id *best = NULL;
	int best_score = 0;

	for (; np && matches && (matches->compatible[0] || matches->name[0] || matches->type[0]); matches++) {
		int score = compatible_score(np, matches->compatible, matches->type, matches->name);

		if (score > best_score) {
			best = matches;
			best_score = score;
		}
	}
	return best;
}

const void *of_device_get_match_data(const struct device *dev)
{
	const struct of_device_id *id;

	if (!dev->driver || !dev->of_node)
		return NULL;
	id = of_match_node(dev->driver->of_match_table, dev->of_node);
	return id ? id->data : NULL;
}

struct device_node *of_get_child_by_name(const struct device_node *np, const char *name)
{
	for (struct device_node *c = np ? np->child : NULL; c; c = c->sibling)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* ---- building ---- */

struct device_node *uirq_of_node_new(struct device_node *parent, const char *name)
{
	struct device_node *np = calloc(1, sizeof(*np));

	if (!np)
		return NULL;
	np->name = strdup(name);
	np->full_name = np->name;
	if (!np->name) {
		free(np);
		return NULL;
	}
	np->parent = parent;
	if (parent) {
		struct device_node **pp = &parent->child;

		while (*pp)
			pp = &(*pp)->sibling;
		*pp = np;
	}
	return np;
}

/* A property of len bytes copied from value (NULL: a flag); 0 or -ENOMEM. */
static int add_property(struct device_node *np, const char *name, const void *value, size_t len)
{
	struct property *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->name = strdup(name);
	p->value = value ? malloc(len ? len : 1) : NULL;
	if (!p->name || (value && !p->value)) {
		free(p->name);
		free(p->value);
		free(p);
		return -ENOMEM;
	}
	if (value)
		memcpy(p->value, value, len);
	p->length = (int)len;
	struct property **pp = &np->properties;

	while (*pp)
		pp = &(*pp)->next;
	*pp = p;
	return 0;
}

int uirq_of_node_add_u32s(struct device_node *np, const char *name, const u32 *vals, size_t n)
{
	return add_property(np, name, vals, n * sizeof(u32));
}

int uirq_of_node_add_string(struct device_node *np, const char *name, const char *value)
{
	return add_property(np, name, value, strlen(value) + 1);
}

int uirq_of_node_add_strings(struct device_node *np, const char *name, const char *const *values, size_t n)
{
	size_t len = 0;
	char *buf, *p;
	int ret;

	for (size_t i = 0; i < n; i++)
		len += strlen(values[i]) + 1;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	p = buf;
	for (size_t i = 0; i < n; i++)
		p = stpcpy(p, values[i]) + 1;
	ret = add_property(np, name, buf, len);
	free(buf);
	return ret;
}

int uirq_of_node_add_bool(struct device_node *np, const char *name)
{
	return add_property(np, name, NULL, 0);
}

void uirq_of_node_free(struct device_node *np)
{
	if (!np)
		return;
	while (np->child) {
		struct device_node *c = np->child;

		np->child = c->sibling;
		c->parent = NULL;
		uirq_of_node_free(c);
	}
	if (np->parent) {
		for (struct device_node **pp = &np->parent->child; *pp; pp = &(*pp)->sibling) {
			if (*pp == np) {
				*pp = np->sibling;
				break;
			}
		}
	}
	while (np->properties) {
		struct property *p = np->properties;

		np->properties = p->next;
		free(p->name);
		free(p->value);
		free(p);
	}
	uirq_of_node_forget_phandle(np);
	free((char *)np->name);
	free(np);
}

/* ---- unified device properties: the device's node's ---- */

bool device_property_present(const struct device *dev, const char *propname)
{
	return of_find_property(dev->of_node, propname, NULL) != NULL;
}

bool device_property_read_bool(const struct device *dev, const char *propname)
{
	return device_property_present(dev, propname);
}

/*
 * nval elements of size bytes from a property of u32 cells (how a board
 * writes numbers: one cell per element, as /bits/ 8 and /bits/ 16 arrays
 * are narrowed); val NULL: the element count.
 */
static int read_array(const struct device *dev, const char *propname, void *val, size_t size, size_t nval)
{
	int n = of_property_count_u32_elems(dev->of_node, propname);

	if (n < 0)
		return n;
	if (!val)
		return n;
	if ((size_t)n < nval)
		return -EOVERFLOW;
	const u32 *cells = of_get_property(dev->of_node, propname, NULL);

	for (size_t i = 0; i < nval; i++) {
		if (size == 1)
			((u8 *)val)[i] = (u8)cells[i];
		else if (size == 2)
			((u16 *)val)[i] = (u16)cells[i];
		else
			((u32 *)val)[i] = cells[i];
	}
	return 0;
}

int device_property_read_u8_array(const struct device *dev, const char *propname, u8 *val, size_t nval)
{
	return read_array(dev, propname, val, 1, nval);
}

int device_property_read_u16_array(const struct device *dev, const char *propname, u16 *val, size_t nval)
{
	return read_array(dev, propname, val, 2, nval);
}

int device_property_read_u32_array(const struct device *dev, const char *propname, u32 *val, size_t nval)
{
	return read_array(dev, propname, val, 4, nval);
}

int device_property_read_string(const struct device *dev, const char *propname, const char **val)
{
	return of_property_read_string(dev->of_node, propname, val);
}

const void *device_get_match_data(const struct device *dev)
{
	return of_device_get_match_data(dev);
}
