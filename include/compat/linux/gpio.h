/* SPDX-License-Identifier: MIT */
/*
 * The legacy integer GPIO API (compat/gpiolib-consumer.c): a line by its
 * global number, requested with GPIOF_* flags, converted to a descriptor
 * with gpio_to_desc().  A valid number no chip has yet is -EPROBE_DEFER,
 * as the kernel's gpio_request() answers.
 */
#ifndef UIRQ_COMPAT_LINUX_GPIO_H
#define UIRQ_COMPAT_LINUX_GPIO_H

#include <linux/gpio/consumer.h>
#include <linux/types.h>

#define GPIOF_DIR_OUT		(0 << 0)
#define GPIOF_DIR_IN		(1 << 0)
#define GPIOF_INIT_LOW		(0 << 1)
#define GPIOF_INIT_HIGH		(1 << 1)
#define GPIOF_IN		(GPIOF_DIR_IN)
#define GPIOF_OUT_INIT_LOW	(GPIOF_DIR_OUT | GPIOF_INIT_LOW)
#define GPIOF_OUT_INIT_HIGH	(GPIOF_DIR_OUT | GPIOF_INIT_HIGH)
#define GPIOF_ACTIVE_LOW	(1 << 2)
#define GPIOF_OPEN_DRAIN	(1 << 3)
#define GPIOF_OPEN_SOURCE	(1 << 4)
#define GPIOF_EXPORT		(1 << 5)

#define ARCH_NR_GPIOS		512

static inline bool gpio_is_valid(int number)
{
	return number >= 0 && number < ARCH_NR_GPIOS;
}

int gpio_request(unsigned int gpio, const char *label);
int gpio_request_one(unsigned int gpio, unsigned long flags, const char *label);
void gpio_free(unsigned int gpio);
int devm_gpio_request(struct device *dev, unsigned int gpio, const char *label);
int devm_gpio_request_one(struct device *dev, unsigned int gpio, unsigned long flags, const char *label);
int gpio_get_value(unsigned int gpio);
int gpio_get_value_cansleep(unsigned int gpio);
void gpio_set_value(unsigned int gpio, int value);
void gpio_set_value_cansleep(unsigned int gpio, int value);
int gpio_direction_input(unsigned int gpio);
int gpio_direction_output(unsigned int gpio, int value);
int gpio_to_irq(unsigned int gpio);

#endif
