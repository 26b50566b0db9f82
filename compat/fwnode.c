// SPDX-License-Identifier: MIT
/*
 * Firmware nodes (drivers/base/property.c's fwnode_* readers and child
 * iterators): every node here is a device-tree node, so each call is the
 * node's of_* answer, with the kernel's errors (-EINVAL for no node or no
 * property).  Children are the available ones, as the kernel's OF backend
 * iterates them.
 */
#include <errno.h>

#include <linux/device.h>
#include <linux/of.h>
#include <linux/property.h>

struct fwnode_handle *dev_fwnode(const struct device *dev)
{
	return dev->fwnode ? dev->fwnode : of_fwnode_handle(dev->of_node);
}

bool fwnode_property_present(const struct fwnode_handle *fwnode, const char *propname)
{
	return of_find_property(to_of_node(fwnode), propname, NULL) != NULL;
}

bool fwnode_property_read_bool(const struct fwnode_handle *fwnode, const char *propname)
{
	return fwnode_property_present(fwnode, propname);
}

int fwnode_property_read_u32_array(const struct fwnode_handle *fwnode, const char *propname, u32 *val, size_t nval)
{
	struct device_node *np = to_of_node(fwnode);

	if (!np)
		return -EINVAL;
	/* With val NULL: the count, as the kernel's readers answer. */
	if (!val)
		return of_property_count_u32_elems(np, propname);
	return of_property_read_u32_array(np, propname, val, nval);
}

int fwnode_property_read_string(const struct fwnode_handle *fwnode, const char *propname, const char **val)
{
	struct device_node *np = to_of_node(fwnode);

	return np ? of_property_read_string(np, propname, val) : -EINVAL;
}

struct fwnode_handle *fwnode_get_next_available_child_node(const struct fwnode_handle *fwnode,
							   struct fwnode_handle *child)
{
	return of_fwnode_handle(of_get_next_available_child(to_of_node(fwnode), to_of_node(child)));
}

struct fwnode_handle *device_get_next_child_node(const struct device *dev, struct fwnode_handle *child)
{
	return fwnode_get_next_available_child_node(dev_fwnode(dev), child);
}

unsigned int device_get_child_node_count(const struct device *dev)
{
	int n = of_get_available_child_count(to_of_node(dev_fwnode(dev)));

	return n > 0 ? (unsigned int)n : 0;
}

struct fwnode_handle *fwnode_get_named_child_node(const struct fwnode_handle *fwnode, const char *childname)
{
	return of_fwnode_handle(of_get_child_by_name(to_of_node(fwnode), childname));
}

const char *fwnode_get_name(const struct fwnode_handle *fwnode)
{
	struct device_node *np = to_of_node(fwnode);

	return np ? np->name : NULL;
}
