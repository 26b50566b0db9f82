// SPDX-License-Identifier: MIT
/*
 * uio-pwrbutton: a power button whose interrupt arrives through a UIO
 * device and whose level sits behind i2c - the twl4030-pwrbutton split on
 * a real kernel's interfaces.  The primary handler only touches the
 * memory-mapped window (never sleeps): it checks the device raised the
 * line and acknowledges it so INTx drops before the line is unmasked; the
 * i2c read, which sleeps, is left to the thread.  IRQF_ONESHOT keeps the
 * line masked until the thread is done, so a level line cannot storm while
 * the thread waits for the bus.
 */
#include <errno.h>
#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "uirq/uio-pwrbutton.h"

struct uio_pwrbutton {
	struct uirq_input_dev *input;	/* the caller's (a uirq device: reports go straight to it) */
	struct i2c_client *client;
	volatile u8 *regs;
	unsigned int irq;
	unsigned int status_off;
	unsigned int ack_off;
	u8 reg;
	u8 mask;
	unsigned long claimed;		/* atomics: written in hard-irq context, read anywhere */
	unsigned long refused;
};

static irqreturn_t uio_pwrbutton_primary(int irq, void *_pb)
{
	struct uio_pwrbutton *pb = _pb;
	u32 status;

	(void)irq;
	status = readl(pb->regs + pb->status_off);
	if (!status) {
		__atomic_fetch_add(&pb->refused, 1, __ATOMIC_RELAXED);
		return IRQ_NONE;
	}
	writel(status, pb->regs + pb->ack_off);
	__atomic_fetch_add(&pb->claimed, 1, __ATOMIC_RELAXED);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t uio_pwrbutton_thread(int irq, void *_pb)
{
	struct uio_pwrbutton *pb = _pb;
	s32 value;

	(void)irq;
	value = i2c_smbus_read_byte_data(pb->client, pb->reg);
	if (value < 0) {
		pr_err("uio-pwrbutton: i2c error %d while reading register 0x%02x of the chip at 0x%02x\n",
		       (int)value, pb->reg, pb->client->addr);
		return IRQ_HANDLED;
	}
	uirq_input_report_key(pb->input, KEY_POWER, (value & pb->mask) != 0);
	uirq_input_sync(pb->input);
	return IRQ_HANDLED;
}

static int config_valid(const struct uio_pwrbutton_config *cfg)
{
	if (!cfg || !cfg->irq || !cfg->regs || !cfg->adap || !cfg->input)
		return 0;
	if (cfg->bit > 7 || !cfg->addr || cfg->addr > 0x7f)
		return 0;
	if (cfg->regs_size < 4 || cfg->status_off > cfg->regs_size - 4 || cfg->ack_off > cfg->regs_size - 4)
		return 0;
	/* readl()/writel() of a misaligned register would be two bus cycles on a real device. */
	return !(cfg->status_off & 3) && !(cfg->ack_off & 3);
}

int uio_pwrbutton_probe(const struct uio_pwrbutton_config *cfg, struct uio_pwrbutton **out)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("uio-pwrbutton", 0) };
	struct uio_pwrbutton *pb;
	s32 value;
	int err;

	if (!out || !config_valid(cfg))
		return -EINVAL;
	pb = kzalloc(sizeof(*pb), GFP_KERNEL);
	if (!pb)
		return -ENOMEM;
	pb->input = cfg->input;
	pb->regs = (volatile u8 *)cfg->regs;
	pb->irq = cfg->irq;
	pb->status_off = cfg->status_off;
	pb->ack_off = cfg->ack_off;
	pb->reg = cfg->reg;
	pb->mask = (u8)(1u << cfg->bit);
	info.addr = cfg->addr;
	struct i2c_adapter *adap = uirq_compat_i2c_adapter(cfg->adap);

	pb->client = adap ? i2c_new_client_device(adap, &info) : ERR_PTR(-ENOMEM);
	if (IS_ERR(pb->client)) {
		err = (int)PTR_ERR(pb->client);
		goto err_free;
	}
	i2c_set_clientdata(pb->client, pb);

	/* A chip that is not there fails the probe, not the first press. */
	value = i2c_smbus_read_byte_data(pb->client, pb->reg);
	if (value < 0) {
		err = value;
		pr_err("uio-pwrbutton: no answer from the chip at 0x%02x on %s: %d\n", cfg->addr,
		       cfg->adap->name, err);
		goto err_client;
	}

	err = request_threaded_irq(pb->irq, uio_pwrbutton_primary, uio_pwrbutton_thread, IRQF_ONESHOT,
				   "uirq-pwrbutton", pb);
	if (err < 0) {
		pr_err("uio-pwrbutton: Can't get IRQ %u: %d\n", pb->irq, err);
		goto err_client;
	}
	pr_info("input: %s on irq %u, status 0x%02x bit %u of the chip at 0x%02x on %s\n", pb->input->name,
		pb->irq, pb->reg, cfg->bit, cfg->addr, cfg->adap->name);
	*out = pb;
	return 0;

err_client:
	i2c_unregister_device(pb->client);
err_free:
	kfree(pb);
	return err;
}

void uio_pwrbutton_remove(struct uio_pwrbutton *pb)
{
	if (!pb)
		return;
	free_irq(pb->irq, pb);
	i2c_unregister_device(pb->client);
	kfree(pb);
}

void uio_pwrbutton_counts(const struct uio_pwrbutton *pb, unsigned long *claimed, unsigned long *refused)
{
	if (claimed)
		*claimed = __atomic_load_n(&pb->claimed, __ATOMIC_RELAXED);
	if (refused)
		*refused = __atomic_load_n(&pb->refused, __ATOMIC_RELAXED);
}
