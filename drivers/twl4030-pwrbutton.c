// SPDX-License-Identifier: MIT
/*
 * twl4030-pwrbutton: the TWL4030's power button as an input device
 * (drivers/input/misc/twl4030-pwrbutton.c, mainline form).
 *
 * Each edge of PWRON (both are enabled) reaches us as a nested threaded
 * irq from twl4030-irq, in the PIH handler thread, where sleeping on i2c is
 * allowed.  We do not track edges: we read the button's live level from
 * STS_HW_CONDITIONS and report it, and the input core drops a report equal
 * to the key's current state.  So a press and release that both finish
 * before the read produce nothing, and edges merged into one interrupt
 * produce one event - the real driver's behaviour.
 */
#include <errno.h>
#include <linux/errno.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "uirq/twl4030-drivers.h"

#include "twl4030-pwrbutton.h"

irqreturn_t twl4030_pwrbutton_irq(int irq, void *_pwr)
{
	struct twl4030_pwrbutton *pwr = _pwr;
	int err;
	u8 value;

	(void)irq;
	err = twl_i2c_read_u8(pwr->twl, TWL_MODULE_PM_MASTER, &value,
			      TWL4030_PM_MASTER_STS_HW_CONDITIONS);
	if (!err) {
		input_report_key(pwr->input, KEY_POWER, value & STS_HW_CONDITIONS_PWON);
		input_sync(pwr->input);
	} else {
		pr_err("twl4030: i2c error %d while reading TWL4030 PM_MASTER STS_HW_CONDITIONS register\n",
		       err);
	}
	return IRQ_HANDLED;
}

static int twl4030_pwrbutton_request(struct twl4030_pwrbutton *pwr)
{
	return request_threaded_irq(pwr->irq, NULL, twl4030_pwrbutton_irq,
				    IRQF_TRIGGER_FALLING | IRQF_TRIGGER_RISING | IRQF_ONESHOT,
				    "twl4030_pwrbutton", pwr);
}

int twl4030_pwrbutton_probe(struct uirq_i2c_adapter *adap, unsigned int irq, bool legacy,
			    struct twl4030_pwrbutton **out)
{
	struct twl4030_pwrbutton *pwr;
	struct input_dev *input;
	int err;

	if (!adap || !out)
		return -EINVAL;
	pwr = kzalloc(sizeof(*pwr), GFP_KERNEL);
	if (!pwr)
		return -ENOMEM;
	pwr->irq = irq;
	pwr->twl = twl_core_get(adap);
	if (!pwr->twl) {
		err = -errno;
		goto err_free;
	}
	input = input_allocate_device();
	if (!input) {
		err = -ENOMEM;
		goto err_core;
	}
	input_set_capability(input, EV_KEY, KEY_POWER);
	input->name = "twl4030_pwrbutton";
	input->phys = "twl4030_pwrbutton/input0";
	input_set_drvdata(input, pwr);
	pwr->input = input;

	/*
	 * The kernel requests the irq first; registering first means the
	 * handler never reports into a device that is still being set up.
	 */
	err = input_register_device(input);
	if (err) {
		pr_err("twl4030_pwrbutton: Can't register power button: %d\n", err);
		input_free_device(input);
		goto err_core;
	}
	err = legacy ? twl4030_pwrbutton_request_legacy(pwr) : twl4030_pwrbutton_request(pwr);
	if (err < 0) {
		pr_err("twl4030_pwrbutton: Can't get IRQ for pwrbutton: %d\n", err);
		input_unregister_device(input);
		goto err_core;
	}
	pr_info("input: %s as %s on irq %u%s\n", input->name, input->phys, irq,
		legacy ? ", hard-irq handler (2009 seed patch)" : ", threaded");
	*out = pwr;
	return 0;

err_core:
	twl_core_put(pwr->twl);
err_free:
	kfree(pwr);
	return err;
}

void twl4030_pwrbutton_remove(struct twl4030_pwrbutton *pwr)
{
	if (!pwr)
		return;
	free_irq(pwr->irq, pwr);
	input_unregister_device(pwr->input);
	twl_core_put(pwr->twl);
	kfree(pwr);
}

struct uirq_input_dev *twl4030_pwrbutton_input(struct twl4030_pwrbutton *pwr)
{
	return uirq_compat_input_dev(pwr->input);
}
