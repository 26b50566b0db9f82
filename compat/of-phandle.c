// SPDX-License-Identifier: MIT
/*
 * Device-tree references between nodes: phandles, given to a node when a
 * board first refers to it (uirq_of_node_add_phandle(), as dtc numbers the
 * nodes a tree refers to), and the kernel's readers of phandle lists with
 * arguments ("gpios = <&chip 3 GPIO_ACTIVE_LOW>"), whose count the
 * referenced node's "#...-cells" property gives.  Available children for
 * the fwnode iterators.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/printk.h>

#include "of-internal.h"

static DEFINE_MUTEX(phandles_lock);
static struct device_node **nodes;	/* by phandle - 1, under phandles_lock; NULL once freed */
static phandle nr_phandles;

struct device_node *of_find_node_by_phandle(phandle handle)
{
	struct device_node *np = NULL;

	mutex_lock(&phandles_lock);
	if (handle && handle <= nr_phandles)
		np = nodes[handle - 1];
	mutex_unlock(&phandles_lock);
	return np;
}

/* The target's phandle, given now if it had none; 0 when out of memory. */
static phandle phandle_of(struct device_node *target)
{
	phandle ph;

	mutex_lock(&phandles_lock);
	ph = target->phandle;
	if (!ph) {
		struct device_node **n = realloc(nodes, (nr_phandles + 1) * sizeof(*n));

		if (n) {
			nodes = n;
			nodes[nr_phandles++] = target;
			ph = target->phandle = nr_phandles;
		}
	}
	mutex_unlock(&phandles_lock);
	return ph;
}

/* of.c's uirq_of_node_free(): the node's phandle names nothing any more. */
void uirq_of_node_forget_phandle(struct device_node *np)
{
	mutex_lock(&phandles_lock);
	if (np->phandle && np->phandle <= nr_phandles)
		nodes[np->phandle - 1] = NULL;
	/* Once nothing is named, the table goes (a process's boards come and go, seed after seed). */
	bool any = false;

	for (phandle i = 0; i < nr_phandles && !any; i++)
		any = nodes[i] != NULL;
	if (!any) {
		free(nodes);
		nodes = NULL;
		nr_phandles = 0;
	}
	mutex_unlock(&phandles_lock);
}

int uirq_of_node_add_phandle(struct device_node *np, const char *name, struct device_node *target, const u32 *args,
			     size_t nargs)
{
	struct property *p = of_find_property(np, name, NULL);
	phandle ph = phandle_of(target);
	size_t old = p ? (size_t)p->length / sizeof(u32) : 0;
	u32 *cells;
	int ret;

	if (!ph)
		return -ENOMEM;
	cells = malloc((old + 1 + nargs) * sizeof(u32));
	if (!cells)
		return -ENOMEM;
	if (old)
		memcpy(cells, p->value, old * sizeof(u32));
	cells[old] = ph;
	if (nargs)
		memcpy(cells + old + 1, args, nargs * sizeof(u32));
	if (p) {
		free(p->value);
		p->value = cells;
		p->length = (int)((old + 1 + nargs) * sizeof(u32));
		return 0;
	}
	ret = uirq_of_node_add_u32s(np, name, cells, old + 1 + nargs);
	free(cells);
	return ret;
}

/*
 * Walk the list to entry index (the kernel's of_phandle_iterator): each
 * entry a phandle and as many cells as its node's cells_name says (a
 * phandle of 0 is an empty entry).  Entry index's node and arguments, or
 * -ENOENT past the end, -EINVAL for a list that does not parse.
 */
static int walk(const struct device_node *np, const char *list_name, const char *cells_name, int index,
		struct of_phandle_args *out, int *count)
{
	int len;
	const u32 *cells = of_get_property(np, list_name, &len);
	size_t n = cells ? (size_t)len / sizeof(u32) : 0, i = 0;
	int entry = 0;

	if (!cells)
		return -ENOENT;
	while (i < n) {
		struct device_node *target = NULL;
		u32 nargs = 0;

		if (cells[i]) {
			target = of_find_node_by_phandle(cells[i]);
			if (!target) {
				pr_err("%s: could not find phandle %u\n", np->full_name, cells[i]);
				return -EINVAL;
			}
			if (of_property_read_u32(target, cells_name, &nargs)) {
				pr_err("%s: could not get %s for %s\n", np->full_name, cells_name, target->full_name);
				return -EINVAL;
			}
			if (i + 1 + nargs > n || nargs > MAX_PHANDLE_ARGS) {
				pr_err("%s: %s = %u found %zu\n", np->full_name, cells_name, nargs, n - i - 1);
				return -EINVAL;
			}
		}
		if (entry == index && out) {
			if (!target)
				return -ENOENT;
			out->np = target;
			out->args_count = (int)nargs;
			memcpy(out->args, cells + i + 1, nargs * sizeof(u32));
			return 0;
		}
		i += 1 + nargs;
		entry++;
	}
	if (count)
		*count = entry;
	return -ENOENT;
}

int of_parse_phandle_with_args(const struct device_node *np, const char *list_name, const char *cells_name,
			       int index, struct of_phandle_args *out_args)
{
	if (!np || index < 0)
		return -EINVAL;
	return walk(np, list_name, cells_name, index, out_args, NULL);
}

int of_count_phandle_with_args(const struct device_node *np, const char *list_name, const char *cells_name)
{
	int count = 0, ret;

	if (!np)
		return -EINVAL;
	ret = walk(np, list_name, cells_name, -1, NULL, &count);
	return ret == -ENOENT && of_find_property(np, list_name, NULL) ? count : ret;
}

struct device_node *of_parse_phandle(const struct device_node *np, const char *phandle_name, int index)
{
	int len;
	const u32 *cells = np ? of_get_property(np, phandle_name, &len) : NULL;

	if (!cells || index < 0 || (size_t)index >= (size_t)len / sizeof(u32))
		return NULL;
	return of_find_node_by_phandle(cells[index]);
}

struct device_node *of_get_next_available_child(const struct device_node *node, struct device_node *prev)
{
	struct device_node *c = prev ? prev->sibling : node ? node->child : NULL;

	while (c && !of_device_is_available(c))
		c = c->sibling;
	return c;
}

int of_get_available_child_count(const struct device_node *np)
{
	int n = 0;

	for (struct device_node *c = of_get_next_available_child(np, NULL); c; c = of_get_next_available_child(np, c))
		n++;
	return n;
}
