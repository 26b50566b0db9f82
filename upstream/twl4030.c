// SPDX-License-Identifier: MIT
/*
 * What the kernel's drivers/mfd/twl-core.c does for the unmodified
 * twl4030-irq.c and twl4030-pwrbutton.c, written here: the chip's four i2c
 * addresses, each register module mapped to its address and base (the
 * kernel's table, as facts), twl_i2c_read()/twl_i2c_write() on them, the
 * interrupt core set up at probe, and the power button's device.
 *
 * In the kernel these are regmap bulk transfers: one write of the register
 * number, then a read (or write) of the bytes - the SMBus "I2C block"
 * transfers here, the same on the wire.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/mfd/twl.h>
#include <linux/platform_device.h>
#include <linux/input.h>

#include "twl-core.h"
#include "uirq-upstream.h"

#define TWL_SLAVE_BASE		0x48
#define TWL_NUM_SLAVES		4
#define TWL4030_NR_IRQS		16	/* 8 PIH lines, then PWR_INT's 8 (twl4030_init_irq()) */
#define TWL4030_PIH_PWR_INT	5	/* the PIH line of the PWR_INT SIH module */
#define TWL4030_PWR_PWRON	8	/* PWR_INT's line 0, the power button: hwirq 8 of the chip's domain */

/* The kernel's twl4030 module map: slave (address - 0x48) and base of each module. */
static const struct {
	u8 sid;
	u8 base;
} twl4030_map[TWL4030_MODULE_LAST] = {
	[TWL_MODULE_USB]		= { 0, 0x00 },
	[TWL_MODULE_PIH]		= { 1, 0x80 },
	[TWL_MODULE_MAIN_CHARGE]	= { 2, 0x74 },
	[TWL_MODULE_PM_MASTER]		= { 3, 0x36 },
	[TWL_MODULE_PM_RECEIVER]	= { 3, 0x5b },
	[TWL_MODULE_RTC]		= { 3, 0x1c },
	[TWL_MODULE_PWM]		= { 2, 0xf8 },
	[TWL_MODULE_LED]		= { 2, 0xee },
	[TWL_MODULE_SECURED_REG]	= { 3, 0x00 },
	[TWL4030_MODULE_AUDIO_VOICE]	= { 1, 0x00 },
	[TWL4030_MODULE_GPIO]		= { 1, 0x98 },
	[TWL4030_MODULE_INTBR]		= { 1, 0x85 },
	[TWL4030_MODULE_TEST]		= { 1, 0x4c },
	[TWL4030_MODULE_KEYPAD]		= { 2, 0xd2 },
	[TWL4030_MODULE_MADC]		= { 2, 0x00 },
	[TWL4030_MODULE_INTERRUPTS]	= { 2, 0xb9 },
	[TWL4030_MODULE_PRECHARGE]	= { 2, 0xaa },
	[TWL4030_MODULE_BACKUP]		= { 3, 0x14 },
	[TWL4030_MODULE_INT]		= { 3, 0x2e },
	[TWL5031_MODULE_ACCESSORY]	= { 2, 0x74 },
	[TWL5031_MODULE_INTERRUPTS]	= { 2, 0xb9 },
};

struct uirq_upstream_twl4030 {
	struct device dev;			/* the chip, twl4030_init_irq()'s device */
	struct uirq_i2c_client *client[TWL_NUM_SLAVES];
	unsigned int host_irq;
	int irq_base;
	struct platform_device *pwrbutton;
	bool modules;				/* uirq_compat_modules_init() ran */
};

/* The probed chip: the kernel's twl_priv, one per process as twl4030-irq.c's state is. */
static struct uirq_upstream_twl4030 *_Atomic twl;

/* The client and register address of (mod_no, reg); -EPERM for an unknown module, as twl_get_regmap(). */
static int twl_target(u8 mod_no, u8 reg, struct uirq_i2c_client **c, u8 *addr)
{
	struct uirq_upstream_twl4030 *t = atomic_load(&twl);

	if (!t || mod_no >= TWL4030_MODULE_LAST || (!twl4030_map[mod_no].base && mod_no != TWL_MODULE_USB &&
						     mod_no != TWL_MODULE_SECURED_REG &&
						     mod_no != TWL4030_MODULE_AUDIO_VOICE &&
						     mod_no != TWL4030_MODULE_MADC)) {
		pr_err("twl: not initialized or invalid module %u\n", mod_no);
		return -EPERM;
	}
	*c = t->client[twl4030_map[mod_no].sid];
	*addr = (u8)(twl4030_map[mod_no].base + reg);
	return 0;
}

int twl_i2c_read(u8 mod_no, u8 *value, u8 reg, unsigned num_bytes)
{
	struct uirq_i2c_client *c;
	u8 addr;
	int ret = twl_target(mod_no, reg, &c, &addr);

	if (ret)
		return ret;
	ret = uirq_i2c_smbus_read_i2c_block_data(c, addr, (uint8_t)num_bytes, value);
	if (ret >= 0 && (unsigned)ret != num_bytes)
		ret = -EIO;
	if (ret < 0) {
		pr_err("twl: Read failed (mod %d, reg 0x%02x count %u)\n", mod_no, reg, num_bytes);
		return ret;
	}
	return 0;
}

int twl_i2c_write(u8 mod_no, u8 *value, u8 reg, unsigned num_bytes)
{
	struct uirq_i2c_client *c;
	u8 addr;
	int ret = twl_target(mod_no, reg, &c, &addr);

	if (ret)
		return ret;
	ret = uirq_i2c_smbus_write_i2c_block_data(c, addr, (uint8_t)num_bytes, value);
	if (ret < 0) {
		pr_err("twl: Write failed (mod %d, reg 0x%02x count %u)\n", mod_no, reg, num_bytes);
		return ret;
	}
	return 0;
}

/* TWL4030 ES3.1 and later: the class the kernel reads from the IDCODE register. */
unsigned int twl_rev(void)
{
	return TWL4030_CLASS_ID;
}

/* ---- probe and remove ---- */

/* Undo twl4030_init_irq(): its lines, the SIH's agent and name, the domain, the descriptors. */
static void twl4030_irq_undo(struct uirq_upstream_twl4030 *t)
{
	unsigned int base = (unsigned int)t->irq_base, sih = base + TWL4030_PIH_PWR_INT;
	void *agent = irq_get_handler_data(sih);
	struct uirq_irq_data *d = irq_get_irq_data(base);
	struct uirq_irq_domain *domain = d ? d->domain : NULL;

	/* free_irq() hands back the name given at the request: the SIH's kasprintf()'d one. */
	kfree(free_irq(sih, NULL));
	kfree(agent);
	free_irq(t->host_irq, NULL);
	for (unsigned int i = 0; i < TWL4030_NR_IRQS; i++) {
		irq_set_nested_thread(base + i, 0);
		irq_set_chip_and_handler(base + i, NULL, NULL);
		irq_set_chip_data(base + i, NULL);
	}
	irq_set_handler_data(sih, NULL);
	irq_domain_remove(domain);
	irq_free_descs(base, TWL4030_NR_IRQS);
}

void uirq_upstream_twl4030_remove_button(struct uirq_upstream_twl4030 *t)
{
	if (t && t->pwrbutton) {
		platform_device_unregister(t->pwrbutton);
		t->pwrbutton = NULL;
	}
}

void uirq_upstream_twl4030_remove(struct uirq_upstream_twl4030 *t)
{
	if (!t)
		return;
	uirq_upstream_twl4030_remove_button(t);
	if (t->modules)
		uirq_compat_modules_exit();
	if (t->irq_base > 0)
		twl4030_irq_undo(t);
	for (int i = 0; i < TWL_NUM_SLAVES; i++)
		uirq_i2c_unregister_device(t->client[i]);
	atomic_store(&twl, NULL);
	kfree(t->dev.uirq_name);
	mutex_destroy(&t->dev.uirq_devres_lock);
	kfree(t);
}

int uirq_upstream_twl4030_probe(struct uirq_i2c_adapter *adap, unsigned int host_irq,
				struct uirq_upstream_twl4030 **out)
{
	struct uirq_upstream_twl4030 *t, *none = NULL;
	int ret;

	if (!adap || !host_irq || !out)
		return -EINVAL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/*
	 * twl4030-irq.c's state is file-scope: one chip at a time.  Its
	 * init functions set all of it again, so after a remove another
	 * probe starts afresh.
	 */
	if (!atomic_compare_exchange_strong(&twl, &none, t)) {
		kfree(t);
		return -EBUSY;
	}
	/* The kernel's names: the twl driver bound to the i2c client 1-0048, its messages "twl 1-0048: ...". */
	static struct device_driver twl_driver = { .name = "twl" };

	device_initialize(&t->dev);
	dev_set_name(&t->dev, "%d-%04x", adap->nr, TWL_SLAVE_BASE);
	t->dev.driver = &twl_driver;
	t->host_irq = host_irq;
	for (int i = 0; i < TWL_NUM_SLAVES; i++) {
		ret = uirq_i2c_new_client_device(adap, "twl4030", (unsigned short)(TWL_SLAVE_BASE + i), &t->client[i]);
		if (ret)
			goto fail;
	}
	/* twl_probe(): the interrupt core first, so the sub-devices find their lines. */
	twl4030_init_chip_irq("twl4030");
	t->irq_base = twl4030_init_irq(&t->dev, (int)host_irq);
	if (t->irq_base < 0) {
		ret = t->irq_base;
		t->irq_base = 0;
		goto fail;
	}
	struct resource irq = DEFINE_RES_IRQ(t->irq_base + TWL4030_PWR_PWRON);

	/* The child the kernel's device tree gives the chip: "ti,twl4030-pwrbutton", interrupts = <8>. */
	t->pwrbutton = platform_device_register_resndata(&t->dev, "twl4030_pwrbutton", PLATFORM_DEVID_NONE, &irq,
							 1, NULL, 0);
	if (IS_ERR(t->pwrbutton)) {
		ret = (int)PTR_ERR(t->pwrbutton);
		t->pwrbutton = NULL;
		goto fail;
	}
	ret = uirq_compat_modules_init();
	t->modules = true;
	if (!ret && !uirq_compat_input_find(&t->pwrbutton->dev))
		ret = -ENODEV;	/* no driver bound: its probe said why */
	if (ret)
		goto fail;
	*out = t;
	return 0;
fail:
	uirq_upstream_twl4030_remove(t);
	return ret;
}

unsigned int uirq_upstream_twl4030_irq_base(struct uirq_upstream_twl4030 *t)
{
	return (unsigned int)t->irq_base;
}

struct uirq_input_dev *uirq_upstream_twl4030_input(struct uirq_upstream_twl4030 *t)
{
	return t->pwrbutton ? uirq_compat_input_dev(uirq_compat_input_find(&t->pwrbutton->dev)) : NULL;
}
