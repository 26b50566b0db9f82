/* SPDX-License-Identifier: MIT */
/*
 * gpio-pwrbutton (drivers layer): a power button on a GPIO line of a real
 * kernel, as most boards wire it.  Its interrupt is a GPIO line
 * (sources/gpio.c) detecting both edges; the edge is the button's level
 * change.  It requests the line threaded (handler NULL), IRQF_ONESHOT and
 * IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING, as "uirq-pwrbutton":
 *  - thread: take the last edge the line read (its kind, as the kernel
 *    recorded it at the edge, not a later re-read of the line) and report
 *    KEY_POWER = pressed (rising, or falling when active low), then sync.
 * Edges the kernel dropped or merged are not invented: the line's stats
 * count them (uirq_gpio_line_get_stats) and the tool prints them.
 */
#ifndef UIRQ_GPIO_PWRBUTTON_H
#define UIRQ_GPIO_PWRBUTTON_H

#include <stdbool.h>

#include "uirq/input.h"
#include "uirq/sources.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpio_pwrbutton;

struct gpio_pwrbutton_config {
	struct uirq_fd_line *line;	/* a GPIO line (uirq_gpio_line_create) */
	bool active_low;		/* pressed is the line low: falling edges press */
	struct uirq_input_dev *input;	/* a registered input device with EV_KEY KEY_POWER */
};

/* Request the line's irq; 0 and *out, or -EINVAL (bad config, not a GPIO line), -ENOMEM or request_threaded_irq()'s error. */
int gpio_pwrbutton_probe(const struct gpio_pwrbutton_config *cfg, struct gpio_pwrbutton **out);
/* Free the irq (waiting for a running thread), free pb; NULL is ignored. */
void gpio_pwrbutton_remove(struct gpio_pwrbutton *pb);
/* Thread runs that reported a key state, and those that found no event to report. */
void gpio_pwrbutton_counts(const struct gpio_pwrbutton *pb, unsigned long *reported, unsigned long *empty);

#ifdef __cplusplus
}
#endif
#endif
