// SPDX-License-Identifier: MIT
/*
 * GPIO consumers (drivers/gpio/gpiolib.c's and gpiolib-of.c's consumer
 * side): a descriptor from a node's "<con_id>-gpios"/"gpios" property
 * (<&chip line flags>), or from a legacy number; requested once; levels
 * through the chip's callbacks, inverted for an active-low line; the
 * devm_ forms released by devres.  The kernel's decisions kept: a line
 * whose chip is not registered yet is -EPROBE_DEFER (its driver may still
 * come), a line another consumer holds is -EBUSY, a property that is not
 * there is -ENOENT (optional lines: NULL), and a chip that may sleep read
 * with the non-sleeping calls is a warning.
 */
#include <errno.h>
#include <stdio.h>

#include <linux/bug.h>
#include <linux/device.h>
#include <linux/gpio.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/of.h>
#include <linux/pinctrl/pinconf-generic.h>
#include <linux/printk.h>
#include <linux/property.h>

#include "gpiolib-internal.h"

#define OF_GPIO_ACTIVE_LOW	0x1	/* <dt-bindings/gpio/gpio.h>'s GPIO_ACTIVE_LOW */

/* ---- directions and values ---- */

static int set_direction_input(struct gpio_desc *desc)
{
	struct gpio_chip *gc = desc->gc;
	int ret = 0;

	/* A chip without direction_input() may still be input-only: its get_direction() says. */
	if (gc->direction_input)
		ret = gc->direction_input(gc, desc->hwnum);
	else if (gc->get_direction && gc->get_direction(gc, desc->hwnum) != GPIO_LINE_DIRECTION_IN)
		ret = -EIO;
	if (!ret)
		desc->flags &= ~GPIOD_IS_OUT;
	return ret;
}

int gpiod_direction_input(struct gpio_desc *desc)
{
	return desc ? set_direction_input(desc) : -EINVAL;
}

int gpiod_direction_output_raw(struct gpio_desc *desc, int value)
{
	struct gpio_chip *gc;
	int ret = -EIO;

	if (!desc)
		return -EINVAL;
	gc = desc->gc;
	/* A line used as an interrupt cannot be driven (the kernel's "tried to set a GPIO tied to an IRQ as output"). */
	if (gpiochip_line_is_irq(gc, desc->hwnum)) {
		pr_err("gpio-%d (%s): %s: tried to set a GPIO tied to an IRQ as output\n", desc_to_gpio(desc),
		       desc->label ? desc->label : "?", __func__);
		return -EIO;
	}
	if (gc->direction_output) {
		ret = gc->direction_output(gc, desc->hwnum, !!value);
	} else if (gc->set && gc->get_direction && gc->get_direction(gc, desc->hwnum) == GPIO_LINE_DIRECTION_OUT) {
		gc->set(gc, desc->hwnum, !!value);
		ret = 0;
	}
	if (!ret)
		desc->flags |= GPIOD_IS_OUT;
	return ret;
}

int gpiod_direction_output(struct gpio_desc *desc, int value)
{
	if (!desc)
		return -EINVAL;
	return gpiod_direction_output_raw(desc, (desc->flags & GPIOD_ACTIVE_LOW) ? !value : !!value);
}

int gpiod_get_direction(struct gpio_desc *desc)
{
	struct gpio_chip *gc = desc->gc;

	if (!gc->get_direction)
		return -ENOTSUPP;
	return gc->get_direction(gc, desc->hwnum);
}

static int raw_value(const struct gpio_desc *desc)
{
	struct gpio_chip *gc = desc->gc;
	int v;

	if (!gc->get)
		return -EIO;
	v = gc->get(gc, desc->hwnum);
	return v < 0 ? v : !!v;
}

static int logical(const struct gpio_desc *desc, int raw)
{
	return raw < 0 ? raw : (desc->flags & GPIOD_ACTIVE_LOW) ? !raw : raw;
}

/* The non-sleeping calls on a chip that may sleep: the kernel's WARN_ON(gc->can_sleep). */
static void check_nosleep(const struct gpio_desc *desc)
{
	WARN_ON(desc->gc->can_sleep);
}

int gpiod_get_raw_value(const struct gpio_desc *desc)
{
	if (!desc)
		return 0;
	check_nosleep(desc);
	return raw_value(desc);
}

int gpiod_get_value(const struct gpio_desc *desc)
{
	if (!desc)
		return 0;
	check_nosleep(desc);
	return logical(desc, raw_value(desc));
}

int gpiod_get_raw_value_cansleep(const struct gpio_desc *desc)
{
	might_sleep();
	return desc ? raw_value(desc) : 0;
}

int gpiod_get_value_cansleep(const struct gpio_desc *desc)
{
	might_sleep();
	return desc ? logical(desc, raw_value(desc)) : 0;
}

static void set_raw(struct gpio_desc *desc, int value)
{
	if (desc->gc->set)
		desc->gc->set(desc->gc, desc->hwnum, !!value);
}

void gpiod_set_raw_value(struct gpio_desc *desc, int value)
{
	if (!desc)
		return;
	check_nosleep(desc);
	set_raw(desc, value);
}

void gpiod_set_value(struct gpio_desc *desc, int value)
{
	if (!desc)
		return;
	check_nosleep(desc);
	set_raw(desc, (desc->flags & GPIOD_ACTIVE_LOW) ? !value : value);
}

void gpiod_set_raw_value_cansleep(struct gpio_desc *desc, int value)
{
	might_sleep();
	if (desc)
		set_raw(desc, value);
}

void gpiod_set_value_cansleep(struct gpio_desc *desc, int value)
{
	might_sleep();
	if (desc)
		set_raw(desc, (desc->flags & GPIOD_ACTIVE_LOW) ? !value : value);
}

int gpiod_set_debounce(struct gpio_desc *desc, unsigned int debounce)
{
	struct gpio_chip *gc = desc->gc;

	/* No set_config(): -ENOTSUPP, and a consumer such as gpio_keys debounces in software. */
	if (!gc->set_config)
		return -ENOTSUPP;
	return gc->set_config(gc, desc->hwnum, pinconf_to_config_packed(PIN_CONFIG_INPUT_DEBOUNCE, debounce));
}

int gpiod_is_active_low(const struct gpio_desc *desc)
{
	return !!(desc->flags & GPIOD_ACTIVE_LOW);
}

int gpiod_cansleep(const struct gpio_desc *desc)
{
	return desc->gc->can_sleep;
}

int gpiod_to_irq(const struct gpio_desc *desc)
{
	struct gpio_chip *gc;
	int irq;

	if (!desc)
		return -EINVAL;
	gc = desc->gc;
	if (!gc->to_irq)
		return -ENXIO;
	irq = gc->to_irq(gc, desc->hwnum);
	/* A mapping of 0 is none, as the kernel's answer for it. */
	return irq ? irq : -ENXIO;
}

int gpiod_set_consumer_name(struct gpio_desc *desc, const char *name)
{
	desc->label = name;
	return 0;
}

/* ---- requesting ---- */

/* Request desc for label and set it up as flags and lflags (OF flags) say: 0 or -errno, nothing held on error. */
static int setup(struct gpio_desc *desc, const char *label, unsigned long lflags, enum gpiod_flags dflags)
{
	int ret = uirq_gpiod_request(desc, label);

	if (ret)
		return ret;
	if (lflags & OF_GPIO_ACTIVE_LOW)
		desc->flags |= GPIOD_ACTIVE_LOW;
	/* The direction the consumer asked for; GPIOD_ASIS leaves the line as it is. */
	if (dflags & GPIOD_FLAGS_BIT_DIR_SET) {
		if (dflags & GPIOD_FLAGS_BIT_DIR_OUT)
			ret = gpiod_direction_output(desc, !!(dflags & GPIOD_FLAGS_BIT_DIR_VAL));
		else
			ret = gpiod_direction_input(desc);
	}
	if (ret)
		uirq_gpiod_free(desc);
	return ret;
}

/*
 * Entry idx of the node's line property: "<con_id>-gpios", then the
 * deprecated "<con_id>-gpio" (without con_id: "gpios", "gpio"), as
 * gpiolib-of.c tries them.  The descriptor and its OF flags, or -ENOENT
 * (no such property), -EPROBE_DEFER (its chip not registered), -EINVAL.
 */
static struct gpio_desc *of_find(struct device_node *np, const char *con_id, unsigned int idx, unsigned long *lflags)
{
	static const char *const suffixes[] = { "gpios", "gpio" };
	struct of_phandle_args args;
	int ret = -ENOENT;

	for (size_t i = 0; i < ARRAY_SIZE(suffixes) && ret == -ENOENT; i++) {
		char prop[64];

		if (con_id)
			snprintf(prop, sizeof(prop), "%s-%s", con_id, suffixes[i]);
		else
			snprintf(prop, sizeof(prop), "%s", suffixes[i]);
		ret = of_parse_phandle_with_args(np, prop, "#gpio-cells", (int)idx, &args);
	}
	if (ret)
		return ERR_PTR(ret);
	struct gpio_chip *gc = uirq_gpiochip_find_by_node(args.np);

	if (!gc)
		return ERR_PTR(-EPROBE_DEFER);
	/* The default two cells: <line flags> (of_gpio_simple_xlate()). */
	if (args.args_count < 1 || args.args[0] >= gc->ngpio)
		return ERR_PTR(-EINVAL);
	*lflags = args.args_count >= 2 ? args.args[1] : 0;
	return &gc->uirq_descs[args.args[0]];
}

struct gpio_desc *fwnode_gpiod_get_index(struct fwnode_handle *fwnode, const char *con_id, int index,
					 enum gpiod_flags flags, const char *label)
{
	unsigned long lflags = 0;
	struct gpio_desc *desc;
	int ret;

	if (!fwnode || index < 0)
		return ERR_PTR(-EINVAL);
	desc = of_find(to_of_node(fwnode), con_id, (unsigned int)index, &lflags);
	if (IS_ERR(desc))
		return desc;
	ret = setup(desc, label, lflags, flags);
	return ret ? ERR_PTR(ret) : desc;
}

struct gpio_desc *gpiod_get_index(struct device *dev, const char *con_id, unsigned int idx, enum gpiod_flags flags)
{
	/* The consumer's label: con_id, else the device's name, as the kernel's gpiod_get_index() takes it. */
	return fwnode_gpiod_get_index(dev_fwnode(dev), con_id, (int)idx, flags, con_id ? con_id : dev_name(dev));
}

struct gpio_desc *gpiod_get(struct device *dev, const char *con_id, enum gpiod_flags flags)
{
	return gpiod_get_index(dev, con_id, 0, flags);
}

struct gpio_desc *gpiod_get_optional(struct device *dev, const char *con_id, enum gpiod_flags flags)
{
	struct gpio_desc *desc = gpiod_get(dev, con_id, flags);

	return PTR_ERR_OR_ZERO(desc) == -ENOENT ? NULL : desc;
}

void gpiod_put(struct gpio_desc *desc)
{
	if (desc)
		uirq_gpiod_free(desc);
}

static void devm_put(void *desc)
{
	uirq_gpiod_free(desc);
}

/* A descriptor got, then freed with the device's other resources; the getter's answer either way. */
static struct gpio_desc *managed(struct device *dev, struct gpio_desc *desc)
{
	int ret;

	if (IS_ERR_OR_NULL(desc))
		return desc;
	ret = devm_add_action_or_reset(dev, devm_put, desc);
	return ret ? ERR_PTR(ret) : desc;
}

struct gpio_desc *devm_gpiod_get_index(struct device *dev, const char *con_id, unsigned int idx,
				       enum gpiod_flags flags)
{
	return managed(dev, gpiod_get_index(dev, con_id, idx, flags));
}

struct gpio_desc *devm_gpiod_get(struct device *dev, const char *con_id, enum gpiod_flags flags)
{
	return managed(dev, gpiod_get(dev, con_id, flags));
}

struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id, enum gpiod_flags flags)
{
	return managed(dev, gpiod_get_optional(dev, con_id, flags));
}

struct gpio_desc *devm_fwnode_gpiod_get_index(struct device *dev, struct fwnode_handle *fwnode,
					      const char *con_id, int index, enum gpiod_flags flags,
					      const char *label)
{
	return managed(dev, fwnode_gpiod_get_index(fwnode, con_id, index, flags, label));
}

void devm_gpiod_put(struct device *dev, struct gpio_desc *desc)
{
	devm_release_action(dev, devm_put, desc);
}

/* ---- legacy numbers (<linux/gpio.h>) ---- */

/* The descriptor of a number: -EPROBE_DEFER for a valid number no chip has yet, -EINVAL otherwise. */
static struct gpio_desc *number_desc(unsigned int gpio)
{
	struct gpio_desc *desc = gpio_to_desc(gpio);

	if (!desc)
		return ERR_PTR(gpio_is_valid((int)gpio) ? -EPROBE_DEFER : -EINVAL);
	return desc;
}

int gpio_request(unsigned int gpio, const char *label)
{
	struct gpio_desc *desc = number_desc(gpio);

	return IS_ERR(desc) ? (int)PTR_ERR(desc) : uirq_gpiod_request(desc, label);
}

int gpio_request_one(unsigned int gpio, unsigned long flags, const char *label)
{
	struct gpio_desc *desc = number_desc(gpio);
	enum gpiod_flags dflags = GPIOD_FLAGS_BIT_DIR_SET;

	if (IS_ERR(desc))
		return (int)PTR_ERR(desc);
	if (!(flags & GPIOF_DIR_IN))
		dflags |= GPIOD_FLAGS_BIT_DIR_OUT | ((flags & GPIOF_INIT_HIGH) ? GPIOD_FLAGS_BIT_DIR_VAL : 0);
	/* GPIOF_INIT_HIGH is the logical level: with GPIOF_ACTIVE_LOW the line goes low, as the kernel's. */
	return setup(desc, label, (flags & GPIOF_ACTIVE_LOW) ? OF_GPIO_ACTIVE_LOW : 0, dflags);
}

void gpio_free(unsigned int gpio)
{
	struct gpio_desc *desc = gpio_to_desc(gpio);

	if (desc)
		uirq_gpiod_free(desc);
}

static int devm_number(struct device *dev, unsigned int gpio, int ret)
{
	return ret ? ret : devm_add_action_or_reset(dev, devm_put, gpio_to_desc(gpio));
}

int devm_gpio_request(struct device *dev, unsigned int gpio, const char *label)
{
	return devm_number(dev, gpio, gpio_request(gpio, label));
}

int devm_gpio_request_one(struct device *dev, unsigned int gpio, unsigned long flags, const char *label)
{
	return devm_number(dev, gpio, gpio_request_one(gpio, flags, label));
}

int gpio_get_value(unsigned int gpio)
{
	return gpiod_get_raw_value(gpio_to_desc(gpio));
}

int gpio_get_value_cansleep(unsigned int gpio)
{
	return gpiod_get_raw_value_cansleep(gpio_to_desc(gpio));
}

void gpio_set_value(unsigned int gpio, int value)
{
	gpiod_set_raw_value(gpio_to_desc(gpio), value);
}

void gpio_set_value_cansleep(unsigned int gpio, int value)
{
	gpiod_set_raw_value_cansleep(gpio_to_desc(gpio), value);
}

int gpio_direction_input(unsigned int gpio)
{
	return gpiod_direction_input(gpio_to_desc(gpio));
}

int gpio_direction_output(unsigned int gpio, int value)
{
	return gpiod_direction_output_raw(gpio_to_desc(gpio), value);
}

int gpio_to_irq(unsigned int gpio)
{
	return gpiod_to_irq(gpio_to_desc(gpio));
}
