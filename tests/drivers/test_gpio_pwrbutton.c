// SPDX-License-Identifier: MIT
/*
 * gpio-pwrbutton on the host, which has no GPIO chip to spare: the probe
 * refuses what is not a GPIO line and a config without an input device,
 * and leaves the line free.  Delivery through a real GPIO line is
 * vm-90-pwrbutton's (gpio-sim in the VM).
 */
#include "harness.h"

#include <errno.h>
#include <linux/input-event-codes.h>

#include "uirq/gpio-pwrbutton.h"
#include "uirq/input.h"
#include "uirq/irq.h"
#include "uirq/sources.h"

UIRQ_TEST(gpio_pwrbutton, probe_refuses_lines_that_are_not_gpio)
{
	struct uirq_fd_line *line = NULL;
	struct uirq_input_dev *input = NULL;
	struct gpio_pwrbutton *pb = NULL;
	struct gpio_pwrbutton_config cfg;
	int irq;

	assert_eq(uirq_cpus_start(NULL), 0);
	irq = uirq_eventfd_line_create(-1, 0, &line);
	assert_gt(irq, 0);
	assert_eq(uirq_input_allocate_device(&input), 0);
	input->name = "gpio-pwrbutton test";
	uirq_input_set_capability(input, EV_KEY, KEY_POWER);
	assert_eq(uirq_input_register_device(input), 0);

	cfg = (struct gpio_pwrbutton_config){ .line = line, .input = input };
	assert_eq(gpio_pwrbutton_probe(&cfg, &pb), -EINVAL);	/* an eventfd line */
	cfg = (struct gpio_pwrbutton_config){ .line = NULL, .input = input };
	assert_eq(gpio_pwrbutton_probe(&cfg, &pb), -EINVAL);
	cfg = (struct gpio_pwrbutton_config){ .line = line, .input = NULL };
	assert_eq(gpio_pwrbutton_probe(&cfg, &pb), -EINVAL);
	assert_eq(gpio_pwrbutton_probe(NULL, &pb), -EINVAL);
	assert_eq(gpio_pwrbutton_probe(&cfg, NULL), -EINVAL);
	assert_null(pb);
	gpio_pwrbutton_remove(NULL);	/* a no-op, as the teardown of a failed setup needs */
	/* Nothing was requested: the line has no handler and goes. */
	assert_false(uirq_irq_has_action((unsigned int)irq));
	assert_eq(uirq_fd_line_destroy(line), 0);
	uirq_input_unregister_device(input);
	uirq_cpus_stop();
}
