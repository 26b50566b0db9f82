// SPDX-License-Identifier: MIT
/*
 * The module irqsim --drivers upstream loads: the kernel's TWL4030 drivers
 * (through upstream/twl4030.c) behind irqsim's driver table
 * (tools/irqsim/drivers.h).  Only this table is exported.
 */
#include <errno.h>

#include "../tools/irqsim/drivers.h"
#include "uirq-upstream.h"
#include "upstream-files.h"

static int probe(struct uirq_i2c_adapter *adap, unsigned int host_irq, bool legacy, void **out)
{
	if (legacy)
		return -EINVAL;	/* the 2009 form is the project's; main.c refuses the pair */
	return uirq_upstream_twl4030_probe(adap, host_irq, (struct uirq_upstream_twl4030 **)out);
}

static unsigned int irq_base(void *d)
{
	return uirq_upstream_twl4030_irq_base(d);
}

static struct uirq_input_dev *input(void *d)
{
	return uirq_upstream_twl4030_input(d);
}

static void remove_button(void *d)
{
	uirq_upstream_twl4030_remove_button(d);
}

static void remove_all(void *d)
{
	uirq_upstream_twl4030_remove(d);
}

__attribute__((visibility("default"))) const struct irqsim_drivers irqsim_upstream_drivers_v1 = {
	.name = "upstream",
	.version = UIRQ_UPSTREAM_VERSION,
	.files = UIRQ_UPSTREAM_FILES,
	.probe = probe,
	.irq_base = irq_base,
	.input = input,
	.remove_button = remove_button,
	.remove = remove_all,
};
