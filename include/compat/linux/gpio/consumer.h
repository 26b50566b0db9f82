/* SPDX-License-Identifier: MIT */
/*
 * GPIO consumers (compat/gpiolib-consumer.c): descriptors found from a
 * device-tree "gpios" property (<&chip line flags>, GPIO_ACTIVE_LOW
 * honoured) or a legacy number, requested once (-EBUSY while another holds
 * the line), values read and written through the chip's callbacks as
 * logical levels (an active-low line reads 1 when low), and freed by
 * devres for the devm_ forms.  A chip that may sleep is read with the
 * _cansleep calls: the others warn, as the kernel's do.
 */
#ifndef UIRQ_COMPAT_LINUX_GPIO_CONSUMER_H
#define UIRQ_COMPAT_LINUX_GPIO_CONSUMER_H

#include <linux/err.h>
#include <linux/types.h>

struct device;
struct fwnode_handle;
struct gpio_desc;

#define GPIOD_FLAGS_BIT_DIR_SET		(1 << 0)
#define GPIOD_FLAGS_BIT_DIR_OUT		(1 << 1)
#define GPIOD_FLAGS_BIT_DIR_VAL		(1 << 2)
#define GPIOD_FLAGS_BIT_OPEN_DRAIN	(1 << 3)
#define GPIOD_FLAGS_BIT_NONEXCLUSIVE	(1 << 4)

enum gpiod_flags {
	GPIOD_ASIS		= 0,
	GPIOD_IN		= GPIOD_FLAGS_BIT_DIR_SET,
	GPIOD_OUT_LOW		= GPIOD_FLAGS_BIT_DIR_SET | GPIOD_FLAGS_BIT_DIR_OUT,
	GPIOD_OUT_HIGH		= GPIOD_FLAGS_BIT_DIR_SET | GPIOD_FLAGS_BIT_DIR_OUT | GPIOD_FLAGS_BIT_DIR_VAL,
	GPIOD_OUT_LOW_OPEN_DRAIN = GPIOD_OUT_LOW | GPIOD_FLAGS_BIT_OPEN_DRAIN,
	GPIOD_OUT_HIGH_OPEN_DRAIN = GPIOD_OUT_HIGH | GPIOD_FLAGS_BIT_OPEN_DRAIN,
};

/* Line con_id ("<con_id>-gpios", or "gpios" for NULL) of the device's node: -ENOENT without one. */
struct gpio_desc *gpiod_get(struct device *dev, const char *con_id, enum gpiod_flags flags);
struct gpio_desc *gpiod_get_index(struct device *dev, const char *con_id, unsigned int idx, enum gpiod_flags flags);
/* NULL instead of -ENOENT. */
struct gpio_desc *gpiod_get_optional(struct device *dev, const char *con_id, enum gpiod_flags flags);
void gpiod_put(struct gpio_desc *desc);
struct gpio_desc *devm_gpiod_get(struct device *dev, const char *con_id, enum gpiod_flags flags);
struct gpio_desc *devm_gpiod_get_index(struct device *dev, const char *con_id, unsigned int idx,
				       enum gpiod_flags flags);
struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id, enum gpiod_flags flags);
void devm_gpiod_put(struct device *dev, struct gpio_desc *desc);
/* From a firmware node (a child of the device's node, gpio_keys' buttons), labelled label. */
struct gpio_desc *fwnode_gpiod_get_index(struct fwnode_handle *fwnode, const char *con_id, int index,
					 enum gpiod_flags flags, const char *label);
struct gpio_desc *devm_fwnode_gpiod_get_index(struct device *dev, struct fwnode_handle *fwnode,
					      const char *con_id, int index, enum gpiod_flags flags,
					      const char *label);
static inline struct gpio_desc *devm_fwnode_gpiod_get(struct device *dev, struct fwnode_handle *fwnode,
						      const char *con_id, enum gpiod_flags flags, const char *label)
{
	return devm_fwnode_gpiod_get_index(dev, fwnode, con_id, 0, flags, label);
}

int gpiod_direction_input(struct gpio_desc *desc);
int gpiod_direction_output(struct gpio_desc *desc, int value);
int gpiod_direction_output_raw(struct gpio_desc *desc, int value);
int gpiod_get_direction(struct gpio_desc *desc);
/* The logical level (active-low inverted), or -errno; the _cansleep forms may sleep, the others may not. */
int gpiod_get_value(const struct gpio_desc *desc);
int gpiod_get_value_cansleep(const struct gpio_desc *desc);
int gpiod_get_raw_value(const struct gpio_desc *desc);
int gpiod_get_raw_value_cansleep(const struct gpio_desc *desc);
void gpiod_set_value(struct gpio_desc *desc, int value);
void gpiod_set_value_cansleep(struct gpio_desc *desc, int value);
void gpiod_set_raw_value(struct gpio_desc *desc, int value);
void gpiod_set_raw_value_cansleep(struct gpio_desc *desc, int value);
/* Hardware debounce through the chip's set_config(): -ENOTSUPP when it has none. */
int gpiod_set_debounce(struct gpio_desc *desc, unsigned int debounce);
int gpiod_is_active_low(const struct gpio_desc *desc);
int gpiod_cansleep(const struct gpio_desc *desc);
/* The line's irq (the chip's to_irq()), or -ENXIO. */
int gpiod_to_irq(const struct gpio_desc *desc);
int gpiod_set_consumer_name(struct gpio_desc *desc, const char *name);
/* Legacy numbers: the line's descriptor, or NULL; and back. */
struct gpio_desc *gpio_to_desc(unsigned int gpio);
int desc_to_gpio(const struct gpio_desc *desc);

#endif
