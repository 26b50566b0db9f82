/* SPDX-License-Identifier: MIT */
/*
 * Device-tree nodes, as a board describes its devices (compat/of.c): a
 * node has a name, a compatible list, properties (u32 arrays, strings,
 * flags) and a parent; a driver's of_match_table matches a device whose
 * node is compatible, and the property readers answer as the kernel's do
 * (-EINVAL: no such property, -ENODATA: no value, -EOVERFLOW: too short).
 * There is no flattened tree to parse: a board builds its nodes in C
 * (uirq_of_node_new(), uirq_of_node_add_*()).
 */
#ifndef UIRQ_COMPAT_LINUX_OF_H
#define UIRQ_COMPAT_LINUX_OF_H

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/types.h>

struct property {
	char *name;
	int length;		/* bytes of value */
	void *value;		/* u32 cells in the host's order, or NUL-separated strings */
	struct property *next;
};

typedef u32 phandle;

/* A firmware node as drivers hold it (<linux/property.h>): here always a device-tree node's. */
struct fwnode_handle {
	struct fwnode_handle *secondary;
};

struct device_node {
	const char *name;
	const char *full_name;
	struct property *properties;
	struct device_node *parent;
	struct device_node *child;
	struct device_node *sibling;
	phandle phandle;		/* 0 until something refers to the node (uirq_of_node_add_phandle()) */
	struct fwnode_handle fwnode;
	/* uirq's: an interrupt controller's translation of its specifier cells to an irq (compat/of-irq.c) */
	int (*uirq_irq_xlate)(void *data, const u32 *args, int nargs);
	void *uirq_irq_data;
};

#define MAX_PHANDLE_ARGS	16
struct of_phandle_args {
	struct device_node *np;
	int args_count;
	uint32_t args[MAX_PHANDLE_ARGS];
};

static inline struct fwnode_handle *of_fwnode_handle(struct device_node *np)
{
	return np ? &np->fwnode : NULL;
}

/* Every firmware node here is a device-tree node's. */
static inline bool is_of_node(const struct fwnode_handle *fwnode)
{
	return fwnode != NULL;
}

static inline struct device_node *to_of_node(const struct fwnode_handle *fwnode)
{
	return fwnode ? container_of(fwnode, struct device_node, fwnode) : NULL;
}

struct device;

#define of_match_ptr(table)	(table)
/* (The parameters are not called parent and child: those are the members' names.) */
#define for_each_child_of_node(np_parent, np_child)					\
	for ((np_child) = (np_parent) ? (np_parent)->child : NULL; (np_child); (np_child) = (np_child)->sibling)
#define for_each_available_child_of_node(np_parent, np_child)			\
	for_each_child_of_node(np_parent, np_child)					\
		if (!of_device_is_available(np_child)) {} else

static inline struct device_node *of_node_get(struct device_node *node)
{
	return node;
}

static inline void of_node_put(struct device_node *node)
{
	(void)node;
}

struct property *of_find_property(const struct device_node *np, const char *name, int *lenp);
const void *of_get_property(const struct device_node *np, const char *name, int *lenp);
bool of_property_read_bool(const struct device_node *np, const char *name);
int of_property_read_u32_array(const struct device_node *np, const char *name, u32 *out, size_t n);
int of_property_read_u32_index(const struct device_node *np, const char *name, u32 index, u32 *out);
int of_property_read_string(const struct device_node *np, const char *name, const char **out);
int of_property_count_elems_of_size(const struct device_node *np, const char *name, int elem_size);
bool of_device_is_compatible(const struct device_node *np, const char *compat);
bool of_device_is_available(const struct device_node *np);
/* The entry of matches that fits np best (the kernel's scoring: compatible's rank, device_type, name), or NULL. */
const struct of_device_id *of_match_node(const struct of_device_id *matches, const struct device_node *np);
/* The match data of the entry the device's node matches in its driver's table, or NULL. */
const void *of_device_get_match_data(const struct device *dev);
struct device_node *of_get_child_by_name(const struct device_node *np, const char *name);
struct device_node *of_get_next_available_child(const struct device_node *node, struct device_node *prev);
int of_get_available_child_count(const struct device_node *np);
/* The node a phandle names, or NULL. */
struct device_node *of_find_node_by_phandle(phandle handle);
/*
 * Entry index of a phandle list (list_name: "gpios", "interrupts-extended"):
 * the node it names and its arguments, as many as that node's cells_name
 * property says (-EINVAL when it has none, -ENOENT past the end or without
 * the property, as the kernel's).
 */
int of_parse_phandle_with_args(const struct device_node *np, const char *list_name, const char *cells_name,
			       int index, struct of_phandle_args *out_args);
int of_count_phandle_with_args(const struct device_node *np, const char *list_name, const char *cells_name);
/* Entry index of a list of bare phandles, or NULL. */
struct device_node *of_parse_phandle(const struct device_node *np, const char *phandle_name, int index);

static inline int of_property_read_u32(const struct device_node *np, const char *name, u32 *out)
{
	return of_property_read_u32_array(np, name, out, 1);
}

static inline int of_property_count_u32_elems(const struct device_node *np, const char *name)
{
	return of_property_count_elems_of_size(np, name, sizeof(u32));
}

/* ---- the board's side: building nodes ---- */

/* A node called name under parent (NULL: a root), or NULL. */
struct device_node *uirq_of_node_new(struct device_node *parent, const char *name);
/* Properties; each 0 or -ENOMEM.  A string list is NUL-separated, as "compatible" is. */
int uirq_of_node_add_u32s(struct device_node *np, const char *name, const u32 *vals, size_t n);
int uirq_of_node_add_string(struct device_node *np, const char *name, const char *value);
/* A list of n strings, NUL-separated (a compatible list: the most specific first). */
int uirq_of_node_add_strings(struct device_node *np, const char *name, const char *const *values, size_t n);
int uirq_of_node_add_bool(struct device_node *np, const char *name);
/*
 * A reference to another node with its arguments, as a device tree's
 * "<&target args...>": appended to the property name (made if missing), so
 * calls in turn build a list ("gpios = <&a 1 0>, <&b 2 1>").  The target
 * gets a phandle.  0 or -ENOMEM.
 */
int uirq_of_node_add_phandle(struct device_node *np, const char *name, struct device_node *target, const u32 *args,
			     size_t nargs);
/* An interrupt controller's node: xlate turns its specifier cells into an irq (irq_of_parse_and_map()). */
void uirq_of_node_set_irq_xlate(struct device_node *np, int (*xlate)(void *data, const u32 *args, int nargs),
				void *data);
/* Free a node, its properties and its children. */
void uirq_of_node_free(struct device_node *np);

/* As the kernel's <linux/of.h>: a driver reading properties may have only included this one. */
#include <linux/property.h>

#endif
