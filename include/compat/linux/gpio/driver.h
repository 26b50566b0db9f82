/* SPDX-License-Identifier: MIT */
/*
 * GPIO controllers as their drivers see them (compat/gpiolib.c,
 * gpiolib-irqchip.c): struct gpio_chip with its callbacks and number of
 * lines, registered with a base (dynamic from 512 downwards when asked for
 * -1, as the kernel does), and its irq chip (struct gpio_irq_chip):
 * gpiolib makes a linear irq domain of the chip's lines whose mappings get
 * the driver's irq chip, its flow handler and, for a chip behind a slow
 * bus (threaded), nested threads; a chained chip's parent_handler goes on
 * each of its parents, and a line its init_valid_mask() clears is none;
 * with irq.first the lines are numbers first.. from registration on.  A line used as an interrupt is locked as one
 * (GPIOCHIP_IRQ_RESOURCE_HELPERS): it cannot be driven as an output
 * meanwhile.
 */
#ifndef UIRQ_COMPAT_LINUX_GPIO_DRIVER_H
#define UIRQ_COMPAT_LINUX_GPIO_DRIVER_H

#include <linux/device.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/types.h>

struct gpio_chip;
struct seq_file;
struct lock_class_key;

struct gpio_irq_chip {
	struct irq_chip *chip;
	struct irq_domain *domain;
	irq_flow_handler_t handler;
	unsigned int default_type;
	struct lock_class_key *lock_key;
	struct lock_class_key *request_key;
	irq_flow_handler_t parent_handler;
	union {
		void *parent_handler_data;		/* NULL: the gpio_chip */
		void **parent_handler_data_array;	/* one per parent, with per_parent_data */
	};
	unsigned int num_parents;
	unsigned int *parents;
	unsigned int *map;
	bool threaded;
	bool per_parent_data;
	bool initialized;
	int (*init_hw)(struct gpio_chip *gc);
	void (*init_valid_mask)(struct gpio_chip *gc, unsigned long *valid_mask, unsigned int ngpios);
	unsigned long *valid_mask;
	unsigned int first;
};

struct gpio_chip {
	const char *label;
	struct device *parent;
	struct fwnode_handle *fwnode;
	struct module *owner;
	int (*request)(struct gpio_chip *gc, unsigned int offset);
	void (*free)(struct gpio_chip *gc, unsigned int offset);
	int (*get_direction)(struct gpio_chip *gc, unsigned int offset);
	int (*direction_input)(struct gpio_chip *gc, unsigned int offset);
	int (*direction_output)(struct gpio_chip *gc, unsigned int offset, int value);
	int (*get)(struct gpio_chip *gc, unsigned int offset);
	int (*get_multiple)(struct gpio_chip *gc, unsigned long *mask, unsigned long *bits);
	void (*set)(struct gpio_chip *gc, unsigned int offset, int value);
	void (*set_multiple)(struct gpio_chip *gc, unsigned long *mask, unsigned long *bits);
	int (*set_config)(struct gpio_chip *gc, unsigned int offset, unsigned long config);
	int (*to_irq)(struct gpio_chip *gc, unsigned int offset);
	void (*dbg_show)(struct seq_file *s, struct gpio_chip *gc);
	int base;
	u16 ngpio;
	u16 offset;
	const char *const *names;
	bool can_sleep;
	struct gpio_irq_chip irq;
	/* uirq's (compat/gpiolib.c) */
	void *uirq_data;
	unsigned long uirq_irq_locked[2];	/* lines locked as interrupts */
	unsigned long uirq_irq_enabled[2];	/* and enabled */
	struct gpio_chip *uirq_next;
	bool uirq_first_descs;			/* irq.first's descriptors are gpiolib's, freed at removal */
	struct gpio_desc *uirq_descs;		/* the lines as consumers hold them (gpiolib-consumer.c) */
};

#define GPIO_LINE_DIRECTION_IN	1
#define GPIO_LINE_DIRECTION_OUT	0

/* Whether line offset may be an interrupt: on the chip and not cleared by irq.init_valid_mask(). */
bool gpiochip_irqchip_irq_valid(const struct gpio_chip *gc, unsigned int offset);
/* Register gc with data for gpiochip_get_data(): 0 or -errno (-EINVAL: no lines, or more than 128). */
int gpiochip_add_data(struct gpio_chip *gc, void *data);
/* As gpiochip_add_data(), removed when dev's driver unbinds. */
int devm_gpiochip_add_data(struct device *dev, struct gpio_chip *gc, void *data);
/* Unregister gc; its irq domain goes with it. */
void gpiochip_remove(struct gpio_chip *gc);
void *gpiochip_get_data(struct gpio_chip *gc);
/* The registered chip match(gc, data) accepts, or NULL. */
struct gpio_chip *gpiochip_find(void *data, int (*match)(struct gpio_chip *gc, void *data));

/* A line as an interrupt: 0, or -EINVAL for a line out of range or driven as an output. */
int gpiochip_lock_as_irq(struct gpio_chip *gc, unsigned int offset);
void gpiochip_unlock_as_irq(struct gpio_chip *gc, unsigned int offset);
/* Note that the line's interrupt is enabled or disabled (the driver's irq_enable/irq_disable). */
void gpiochip_enable_irq(struct gpio_chip *gc, irq_hw_number_t offset);
void gpiochip_disable_irq(struct gpio_chip *gc, irq_hw_number_t offset);
bool gpiochip_line_is_irq(struct gpio_chip *gc, unsigned int offset);
/* The irq chip resources of a gpiolib line: locked as an interrupt for the request's life. */
int gpiochip_irq_reqres(struct irq_data *data);
void gpiochip_irq_relres(struct irq_data *data);
#define GPIOCHIP_IRQ_RESOURCE_HELPERS			\
	.irq_request_resources = gpiochip_irq_reqres,	\
	.irq_release_resources = gpiochip_irq_relres

static inline void gpio_irq_chip_set_chip(struct gpio_irq_chip *girq, const struct irq_chip *chip)
{
	/* The kernel's immutable chips are shared, never written: const is dropped only to store it. */
	girq->chip = (struct irq_chip *)chip;
}

#endif
