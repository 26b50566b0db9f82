// SPDX-License-Identifier: MIT
/*
 * Stands for *your* driver: a file written against the kernel's API only,
 * as it would be in drivers/input/misc/, compiled here without a change
 * (the one forced include, compat/uirq-kernel.h, as the kernel forces
 * its own).  An i2c button controller: its STATUS register (0x00, bit 0
 * the button, reading it clears the chip's interrupt) read over the bus in
 * a threaded handler, the level reported as KEY_ENTER.
 */
#include <linux/i2c.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/of.h>

#define ACME_STATUS		0x00
#define ACME_STATUS_PRESSED	BIT(0)

struct acme_button {
	struct i2c_client *client;
	struct input_dev *input;
};

static irqreturn_t acme_button_irq(int irq, void *data)
{
	struct acme_button *b = data;
	int status = i2c_smbus_read_byte_data(b->client, ACME_STATUS);

	if (status < 0) {
		dev_err(&b->client->dev, "reading STATUS failed: %d\n", status);
		return IRQ_NONE;
	}
	input_report_key(b->input, KEY_ENTER, status & ACME_STATUS_PRESSED);
	input_sync(b->input);
	return IRQ_HANDLED;
}

static int acme_button_probe(struct i2c_client *client)
{
	struct acme_button *b;
	int err;

	b = devm_kzalloc(&client->dev, sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->client = client;
	b->input = devm_input_allocate_device(&client->dev);
	if (!b->input)
		return -ENOMEM;
	b->input->name = "acme-button";
	b->input->id.bustype = BUS_I2C;
	input_set_capability(b->input, EV_KEY, KEY_ENTER);
	err = input_register_device(b->input);
	if (err)
		return err;
	/* The status read sleeps on the bus: a threaded handler, the line masked until it is done. */
	err = devm_request_threaded_irq(&client->dev, client->irq, NULL, acme_button_irq, IRQF_ONESHOT,
					"acme-button", b);
	if (err)
		return dev_err_probe(&client->dev, err, "requesting irq %d\n", client->irq);
	dev_info(&client->dev, "button on irq %d\n", client->irq);
	return 0;
}

static const struct of_device_id acme_button_of_match[] = {
	{ .compatible = "acme,button" },
	{ }
};
MODULE_DEVICE_TABLE(of, acme_button_of_match);

static struct i2c_driver acme_button_driver = {
	.driver = {
		.name = "acme-button",
		.of_match_table = acme_button_of_match,
	},
	.probe_new = acme_button_probe,
};
module_i2c_driver(acme_button_driver);

MODULE_DESCRIPTION("ACME i2c button (an example)");
MODULE_LICENSE("Dual MIT/GPL");
