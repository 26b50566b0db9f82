/* SPDX-License-Identifier: MIT */
/*
 * Unified device properties (drivers/base/property.c's readers): a
 * device's properties are its device-tree node's here (compat/of.c), read
 * with the kernel's answers - 0, -EINVAL (no such property, or no node),
 * -ENODATA (no value), -EOVERFLOW (too short).  A count is the number of
 * elements, or one of those errors.
 */
#ifndef UIRQ_COMPAT_LINUX_PROPERTY_H
#define UIRQ_COMPAT_LINUX_PROPERTY_H

#include <linux/of.h>
#include <linux/types.h>

struct device;
struct fwnode_handle;

bool device_property_present(const struct device *dev, const char *propname);
bool device_property_read_bool(const struct device *dev, const char *propname);
int device_property_read_u8_array(const struct device *dev, const char *propname, u8 *val, size_t nval);
int device_property_read_u16_array(const struct device *dev, const char *propname, u16 *val, size_t nval);
int device_property_read_u32_array(const struct device *dev, const char *propname, u32 *val, size_t nval);
int device_property_read_string(const struct device *dev, const char *propname, const char **val);
/* The data of the entry of its driver's of_match_table the device's node fits best (of_match_node()). */
const void *device_get_match_data(const struct device *dev);

static inline int device_property_read_u8(const struct device *dev, const char *propname, u8 *val)
{
	return device_property_read_u8_array(dev, propname, val, 1);
}

static inline int device_property_read_u16(const struct device *dev, const char *propname, u16 *val)
{
	return device_property_read_u16_array(dev, propname, val, 1);
}

static inline int device_property_read_u32(const struct device *dev, const char *propname, u32 *val)
{
	return device_property_read_u32_array(dev, propname, val, 1);
}

/* With val NULL the readers count: the number of elements of the property. */
static inline int device_property_count_u32(const struct device *dev, const char *propname)
{
	return device_property_read_u32_array(dev, propname, NULL, 0);
}

static inline int device_property_count_u16(const struct device *dev, const char *propname)
{
	return device_property_read_u16_array(dev, propname, NULL, 0);
}

static inline int device_property_count_u8(const struct device *dev, const char *propname)
{
	return device_property_read_u8_array(dev, propname, NULL, 0);
}

/* ---- firmware nodes: here a device's device-tree node and its children ---- */

struct fwnode_handle *dev_fwnode(const struct device *dev);
bool fwnode_property_present(const struct fwnode_handle *fwnode, const char *propname);
bool fwnode_property_read_bool(const struct fwnode_handle *fwnode, const char *propname);
int fwnode_property_read_u32_array(const struct fwnode_handle *fwnode, const char *propname, u32 *val, size_t nval);
int fwnode_property_read_string(const struct fwnode_handle *fwnode, const char *propname, const char **val);
/* The available children of the device's node (status not "disabled"), in order. */
unsigned int device_get_child_node_count(const struct device *dev);
struct fwnode_handle *device_get_next_child_node(const struct device *dev, struct fwnode_handle *child);
struct fwnode_handle *fwnode_get_next_available_child_node(const struct fwnode_handle *fwnode,
							   struct fwnode_handle *child);
struct fwnode_handle *fwnode_get_named_child_node(const struct fwnode_handle *fwnode, const char *childname);
const char *fwnode_get_name(const struct fwnode_handle *fwnode);

static inline int fwnode_property_read_u32(const struct fwnode_handle *fwnode, const char *propname, u32 *val)
{
	return fwnode_property_read_u32_array(fwnode, propname, val, 1);
}

/* Nodes are the board's and live as long as it does: references count nothing here. */
static inline struct fwnode_handle *fwnode_handle_get(struct fwnode_handle *fwnode)
{
	return fwnode;
}

static inline void fwnode_handle_put(struct fwnode_handle *fwnode)
{
	(void)fwnode;
}

#define device_for_each_child_node(dev, child)						\
	for ((child) = device_get_next_child_node((dev), NULL); (child);		\
	     (child) = device_get_next_child_node((dev), (child)))
#define fwnode_for_each_available_child_node(fwnode, child)				\
	for ((child) = fwnode_get_next_available_child_node((fwnode), NULL); (child);	\
	     (child) = fwnode_get_next_available_child_node((fwnode), (child)))

#endif
