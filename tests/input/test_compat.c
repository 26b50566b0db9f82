// SPDX-License-Identifier: MIT
/*
 * The kernel-name headers: a power-button driver's reporting path and an
 * SMBus status read, written with <linux/input.h> and <linux/i2c.h> as a
 * kernel driver writes them.
 */
#include <linux/i2c.h>
#include <linux/input.h>

#include "io_reports.h"

#define OPTS .timeout = 10, .init = io_reports_start

#define STS_HW_CONDITIONS	0x45
#define STS_PWON		0x01

struct pwr {
	struct input_dev *idev;
	struct i2c_client *client;
};

/* The shape of twl4030-pwrbutton's thread handler. */
static void powerbutton_irq(struct pwr *pwr)
{
	int value = i2c_smbus_read_byte_data(pwr->client, STS_HW_CONDITIONS);

	if (value < 0)
		return;
	input_report_key(pwr->idev, KEY_POWER, value & STS_PWON);
	input_sync(pwr->idev);
}

static uint8_t status;

static int rd(void *priv, uint8_t reg, uint8_t *val)
{
	(void)priv;
	*val = reg == STS_HW_CONDITIONS ? status : 0;
	return 0;
}

static const struct uirq_i2c_sim_device_ops ops = { .read = rd };

UIRQ_TEST(compat, driver_shape, OPTS)
{
	struct uirq_i2c_sim *sim;
	struct i2c_adapter *adap;
	struct i2c_board_info info = { I2C_BOARD_INFO("twl4030", 0x4b) };
	struct pwr pwr;
	struct uirq_input_client *c;
	struct uirq_input_event ev[4];	/* the reader's side is uirq's: the layout of the kernel's */
	struct i2c_msg probe = { .addr = 0x4b, .flags = I2C_M_RD, .len = 1, .buf = &status };

	assert_eq(uirq_i2c_sim_new("omap_i2c.1", 2600000, &sim), 0);
	adap = uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(sim));
	assert_not_null(adap);
	assert_eq(uirq_i2c_sim_attach(sim, 0x4b, &ops, NULL), 0);
	pwr.client = i2c_new_client_device(adap, &info);
	assert_false(IS_ERR_OR_NULL(pwr.client), "i2c_new_client_device: %ld", PTR_ERR(pwr.client));
	i2c_set_clientdata(pwr.client, &pwr);
	assert_eq(i2c_get_clientdata(pwr.client), &pwr);
	assert_true(i2c_check_functionality(adap, I2C_FUNC_SMBUS_BYTE_DATA));
	pwr.idev = input_allocate_device();
	pwr.idev->name = "twl4030_pwrbutton";
	pwr.idev->phys = "twl4030_pwrbutton/input0";
	pwr.idev->id.bustype = BUS_I2C;
	input_set_capability(pwr.idev, EV_KEY, KEY_POWER);
	assert_eq(input_register_device(pwr.idev), 0);
	assert_eq(uirq_input_open(uirq_compat_input_dev(pwr.idev), &c), 0);

	status = STS_PWON;
	powerbutton_irq(&pwr);
	status = 0;
	powerbutton_irq(&pwr);
	powerbutton_irq(&pwr);	/* the level did not change: no event */
	assert_eq(uirq_input_read(c, ev, 4, UIRQ_INPUT_NONBLOCK), 4);
	assert_eq(ev[0].code, KEY_POWER);
	assert_eq(ev[0].value, 1);
	assert_eq(ev[2].value, 0);
	assert_eq(ev[0].input_event_sec, ev[0].time.tv_sec);
	assert_eq(i2c_transfer(adap, &probe, 1), 1);

	uirq_input_close(c);
	input_unregister_device(pwr.idev);
	i2c_unregister_device(pwr.client);
	assert_eq(uirq_compat_i2c_adapter_del(adap), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
	assert_no_reports();
}
